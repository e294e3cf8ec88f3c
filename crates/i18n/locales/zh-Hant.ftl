# caipan 訊息目錄：繁體中文 (zh-Hant)。
# 用語依中華民國象棋棋規（繁體）；出處見 docs/glossary.md。
# 棋子用 ROC 棋規的字：紅方 帥仕相俥傌炮兵，黑方 將士象車馬包卒。

## 紅黑雙方

side-red = 紅方
side-black = 黑方

## 棋子（$side: red | black）

piece-general = { $side ->
    [red] 帥
   *[black] 將
}
piece-advisor = { $side ->
    [red] 仕
   *[black] 士
}
piece-elephant = { $side ->
    [red] 相
   *[black] 象
}
piece-horse = { $side ->
    [red] 傌
   *[black] 馬
}
piece-chariot = { $side ->
    [red] 俥
   *[black] 車
}
piece-cannon = { $side ->
    [red] 炮
   *[black] 包
}
piece-soldier = { $side ->
    [red] 兵
   *[black] 卒
}

## 警報種類

alert-kind-flag-fall = 超時
alert-kind-illegal-move = 訛步
alert-kind-repetition = 循環著法
alert-kind-natural-limit = 自然限著
alert-kind-no-show = 遲到棄權
alert-kind-clock-anomaly = 時鐘異常
alert-kind-table-offline = 台端離線
alert-kind-table-online = 台端上線
alert-kind-foul-threshold = 犯規累計
alert-kind-seal-overdue = 封棋逾時
alert-kind-arbiter-called = 請裁判
alert-kind-claim-pending = 待裁申訴
alert-kind-game-over = 對局結束
alert-kind-refused-commands = 指令被拒
alert-kind-move-limit = 限著
alert-kind-record-quarantined = 紀錄隔離
alert-kind-terminal-replaced = 台端更換
alert-kind-two-terminals = 一台兩終端
alert-kind-stopped-reading = 終端停止接收

## 申訴種類

claim-kind-natural-limit = 自然限著
claim-kind-repetition = 棋例
claim-kind-illegal-move = 訛步
claim-kind-foul-threshold = 犯規累計
claim-kind-flag-fall = 超時
claim-kind-no-show = 遲到棄權
claim-kind-draw-offer = 提和
claim-kind-move-limit = 限著

## 終局原因

end-reason-checkmate = 將死
end-reason-stalemate = 困斃
end-reason-resignation = 認負
end-reason-flag = 超時
end-reason-perpetual-check = 長將
end-reason-perpetual-chase = 長捉
end-reason-repetition = 循環作和
end-reason-natural-limit = 自然限著
end-reason-fouls = 犯規
end-reason-illegal-move = 訛步
end-reason-forfeit = 棄權
end-reason-agreement = 議和
end-reason-arbiter = 裁判判定
end-reason-reported = 終端報告
end-reason-move-limit = 限著

## 犯規種類

foul-kind-technical = 技術犯規
foul-kind-violation = 違例

## 裁決

verdict-continue = 繼續對局
verdict-draw = 判和
verdict-loss = { $side }負
verdict-correct-move = { $side }更正著法
verdict-order = 變著令

## 棋例用語（見 docs/glossary.md）

term-perpetual-check = 長將
term-perpetual-chase = 長捉
term-must-change = { $side }必須變著，不變作負
term-one-check-one-kill = 一照一殺
term-idle = 閒著
term-protected-piece = 有根子
term-unprotected-piece = 無根子

## The follower page and the hall display (broadcast)

web-round = 第{ $round }輪
web-table = 第{ $table }檯
web-waiting = 未開始
web-playing = 對局中
web-paused = 暫停
web-adjourned = 封棋中
web-red-wins = 紅勝
web-black-wins = 黑勝
web-draw = 和局
web-both-lose = 雙方判負
web-moves = 著法
web-boards = 全部棋盤
web-pairings = 對陣
web-results = 成績
web-display = 大廳顯示屏
web-notation = 記譜
web-language = 語言
web-live = 即時
web-reconnecting = 正在重新連接…
web-feeds = 轉播資料

## 大廳訊息（警報、裁決；i18n::texts）
# text-zh-en：規則引擎仍以中英兩種成句寫出的說明，原樣顯示（簡體）。

text-zh-en = { $zh }
alert-claim-escalated = 第{ $table }台申訴{ $claim }已提交裁判長：{ $reason }
alert-terminal-replaced = 第{ $table }台更換了台端：新台端已接管，舊台端已停止
alert-two-terminals = 第{ $table }台有兩個台端在互相接管：請關掉其中一個
alert-refused-commands = 有終端在反覆發送被拒絕的指令：{ $who }（{ $window }秒內超過{ $threshold }條）
alert-stopped-reading = 終端停止接收，已斷開：{ $who }（{ $seconds }秒無進展）
alert-record-quarantined = 儲存紀錄（gseq { $gseq }）無法解碼，已按操作員要求隔離：大廳狀態不含此紀錄（{ $error }）
alert-table-online = 第{ $table }台終端恢復連線
alert-table-offline = 第{ $table }台終端斷線已{ $seconds }秒
alert-illegal-move = 第{ $table }台{ $side }走出違規著法{ $move }：{ $why }
illegal-not-a-move = { $move }不是棋盤上的著法
illegal-wrong-turn = { $side }走棋，但輪到{ $turn }走
illegal-empty-square = 起點沒有棋子
illegal-not-your-piece = 走了非行棋方的棋子
illegal-own-piece = 吃了己方的棋子
illegal-cannot-move-there = 該棋子不能走到那裡
illegal-leaves-check = 不應將或送將
illegal-kings-facing = 造成將帥對面
illegal-generic = 違規著法
alert-repetition = 第{ $table }台出現循環（第{ $count }次重複）：{ $explanation }
alert-at-table = 第{ $table }台{ $text }
alert-order-lapsed = 第{ $table }台{ $order }（申訴{ $claim }）
alert-order-repeated = 第{ $table }台變著令後再循環：{ $explanation }
alert-arbiter-called = 第{ $table }台{ $side }請裁判：{ $reason }
alert-claim-repetition = 第{ $table }台{ $side }提出棋例申訴：{ $explanation }
alert-clock-anomaly = 第{ $table }台計時異常：{ $description }
result-red-wins = 紅勝
result-black-wins = 黑勝
result-draw = 和棋
result-both-lose = 雙方判負
alert-game-over = 第{ $table }台對局結束：{ $result }，{ $why }（{ $reason }）
alert-move-limit-full = 第{ $table }台限著已滿：{ $explanation }
alert-move-limit-capture = 第{ $table }台限著期間吃子：{ $explanation }
alert-claim-move-limit = 第{ $table }台{ $side }申請限著判和：{ $explanation }
ruling-no-cycle = 當前局面未重複三次，不構成循環，繼續對弈。
ruling-no-move-limit = { $side }申請限著判和，但本局未宣判限著，繼續對弈；裁判員可應要求宣判限著。
## 下一輪：為何這樣配對、裁判長的改動 (issue 36)

round-why-same-score = 同分相對 { $points } 分
round-why-float = 升降：{ $red-points } 對 { $black-points }
round-why-colour = { $player } 上輪執{ $last }，本輪執{ $now }
round-why-rematches-avoided = { $player }：避開 { $count } 次重複對局
round-why-changed = 裁判長改動：{ $reason }
round-change-colours = 第 { $table } 台：交換紅黑
round-change-exchange = 第 { $table } 台與第 { $other } 台：交換黑方棋手
round-note-relaxed = 放寬的規則：{ $what }
round-deputy-tables = 副裁判{ $deputy }：第{ $tables }台
round-hall-tables = 賽場{ $hall }：第{ $tables }台
round-deputy-idle = 副裁判{ $deputy }本輪沒有台次（待命）
round-deputy-uncovered = 第{ $tables }台沒有副裁判

## 變著令及其失效（i18n::texts::order、order_lapse；issue 33，協定部分）
# 用語依 003：「不變者作負」「判為和局」「循環」「裁判」。

order-change = { $side }必須變著，不變者作負：若再循環{ $cycles ->
    [1] 一次
    [3] 三次
   *[other] { $cycles }次
}即作負
order-draw = 裁判宣布：如再循環{ $cycles ->
    [1] 一次
    [3] 三次
   *[other] { $cycles }次
}即判為和局
order-lapse-capture = 第{ $ply }步{ $side }吃子，循環中斷，變著令失效
order-lapse-left-cycle = 第{ $ply }步{ $side }變著離開循環，變著令失效

## 計時異常（i18n::texts::anomaly，AXF-CLOCK-5；issue 33，協定部分）

clock-time-went-backwards = 計時報告時間倒退{ $off }毫秒
clock-moves-decreased = { $side }著數由{ $from }減為{ $to }
clock-time-grew = { $side }時間增加{ $growth }毫秒，超出加秒與調整{ $off }毫秒
clock-ran-too-fast = 實際經過{ $elapsed }毫秒，棋鐘走時{ $used }毫秒，多了{ $off }毫秒
clock-ran-too-slow = 實際經過{ $elapsed }毫秒，棋鐘走時{ $used }毫秒，少了{ $off }毫秒
clock-idle-side-changed = { $side }未走棋且鐘未走，卻少了{ $used }毫秒

## 最後的散文改為訊息（issue 33, lang33-ends）：大廳提出的判負（hall::loss；
## 提示與裁決）、終端所示的對局結束與申訴裁決、`caipan adjudicate` 的說明。
## 用語依 ROC 棋規（003）與 docs/glossary.md：超時、棄權、技術犯規、違例、封棋。

loss-flag-fall-alert = 第{ $table }台{ $side }超時落旗
loss-flag-fall = { $side }用時已盡，超時判負。
loss-fouls-alert = 第{ $table }台{ $side }{ $kind ->
    [technical] 技術犯規
   *[other] 違例
}已達{ $count }次
loss-fouls = { $side }{ $kind ->
    [technical] 技術犯規
   *[other] 違例
}{ $count }次，判負。
loss-no-show-alert = 第{ $table }台{ $side }開賽{ $limit }未到
loss-no-show = { $side }開賽後逾時{ $limit }未到，作棄權論。
loss-late-alert = 第{ $table }台封棋續賽後{ $limit }{ $side }未到
loss-late = { $side }續賽時逾時{ $limit }未到，作棄權論。
loss-minutes = { $minutes }分鐘
loss-seconds = { $seconds }秒
game-end = { $result }，{ $why }
game-end-reason = { $result }，{ $why }（{ $reason }）
game-end-set-by = { $result }，{ $why }（{ $reason }；由{ $by }判定）
claim-decided = { $side }的申訴（{ $what }）已裁決：{ $effect }
claim-decided-server = 裁決（{ $what }）：{ $effect }
claim-effect-sep = { ", " }
ruling-checkmated = { $side }被將死，判負（{ $rule }）。
ruling-stalemated = { $side }被困斃（無著可走），判負（{ $rule }）。
ruling-order-stands = 第{ $ply }步的裁判員指令仍有效（{ $order }），尚無結果。
ruling-nothing-to-rule = 終局未出現第三次重複局面，無須判決。
