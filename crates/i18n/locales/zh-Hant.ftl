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
