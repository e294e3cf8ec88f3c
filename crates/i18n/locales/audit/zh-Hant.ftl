# 審計記錄 (issue 33)：每種指令一個訊息 id，帶型別化參數；大廳和伺服器自己寫的記錄也一樣。
# 英文與以前儲存的英文逐字相同（hall::command::describe）；這裡是繁體中文，規則用語依 ROC 條文（變著、限著、例和）。
# 一條英文顯示代碼而其他語言顯示詞語的記錄同時帶兩個參數，並以不顯示的那個作選擇（只有預設分支）。

audit-subscribe = 訂閱
audit-unsubscribe = 取消訂閱
audit-get-table-log = 查看第{ $table }台的記錄
audit-export-round = 匯出本輪
audit-pause-table = 暫停第{ $table }台：{ $reason }
audit-resume-table = 恢復第{ $table }台
audit-pause-hall = 全場暫停：{ $reason }
audit-resume-hall = 全場恢復
audit-seal = 第{ $table }台封棋（封棋著法保密）
audit-unseal = 第{ $table }台啟封續賽
audit-rule-accept = 第{ $table }台：採納申訴{ $claim }的建議裁決
audit-rule-override = 第{ $table }台：改判申訴{ $claim }為{ $verdict }（{ $must_change }）；理由：{ $reason }
audit-verdict-continue = 繼續對局
audit-verdict-draw = 作和
audit-verdict-loss = { $side }作負
audit-verdict-correct-move = { $side }還原重走
audit-verdict-order = 變著令
audit-must-change = { $side }須變著
audit-must-change-none = 無須變著
audit-escalate = 第{ $table }台：申訴{ $claim }提交裁判長：{ $reason }
audit-record-foul = 第{ $table }台：記錄{ $side }{ $kind }一次：{ $note }
audit-foul-technical = 技術犯規
audit-foul-violation = 違例
audit-adjust-clock = 第{ $table }台：調整時鐘，紅方{ $red }，黑方{ $black }：{ $reason }
audit-set-result = 第{ $table }台：判定結果{ $result }：{ $reason }
audit-result-red-wins = 紅勝
audit-result-black-wins = 黑勝
audit-result-draw = 和局
audit-result-both-lose = 雙方均負
audit-ack-alert = 確認警報{ $alert }
audit-declare-move-limit = 第{ $table }台：宣告限著（限{ $limited }{ $book ->
        [1] ，例和
       *[0] {""}
    }）
audit-declare-move-limit-requested = 第{ $table }台：應{ $requested_by }要求宣告限著（限{ $limited }{ $book ->
        [1] ，例和
       *[0] {""}
    }）
audit-cancel-move-limit = 第{ $table }台：取消限著
audit-pair-next-round = 編排下一輪
audit-publish-round = 發佈第{ $round }輪（{ $boards }台，{ $system }，種子{ $seed }）{ $changes }
audit-round-change = ；{ $code ->
       *[other] { $change }
    }，理由：{ $reason }
audit-correct-result = 第{ $round }輪第{ $table }台：成績更正為{ $result }，理由：{ $reason }
audit-withdraw-round = 撤回第{ $round }輪（已發佈，未開始），理由：{ $reason }
audit-enter-player = 補報棋手{ $name }，自下一輪起參賽
audit-enter-player-details = 補報棋手{ $name }（{ $details }），自下一輪起參賽
audit-player-id = 編號{ $id }
audit-player-rating = 等級分{ $rating }
audit-player-federation = 協會{ $federation }
audit-player-club = 俱樂部{ $club }
audit-sep = ，
audit-withdraw-player = 棋手{ $player }自第{ $round }輪起退賽，理由：{ $reason }
audit-claim-lapsed = 第{ $table }台：申訴{ $claim }失效：{ $why }
audit-lapse-too-many = 第{ $table }台同類未決申訴超過{ $max }件：最早的一件失效
audit-lapse-clock-started = 棋鐘已啟動：雙方棋手已到場
audit-lapse-game-ended = 對局已結束（{ $why }）
audit-lapse-moved = { $side }已到場並已行棋
audit-order = 第{ $table }台：第{ $ply }步下達變著令（申訴{ $claim }）：{ $order }
audit-report = 第{ $table }台報告{ $code ->
       *[other] { $action }
    }
audit-publish-round-refused = 發佈第{ $round }輪
audit-publish-a-round = 發佈一輪
audit-withdraw-round-refused = 撤回第{ $round }輪
audit-correct-result-refused = 更正第{ $round }輪第{ $table }台的成績
audit-refusals-counted = { $secs }秒內被拒請求{ $count }次（只計數，未逐條儲存）
audit-refusals-counted-why = 一個時段內被拒請求超過{ $threshold }次
audit-note = 伺服器記錄
