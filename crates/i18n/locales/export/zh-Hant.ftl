# 匯出的用語（issue 33）：匯出有語言時（caipan export --lang、
# [tournament] language）的成績與排名頁和對陣表。沒有語言時匯出仍用原來
# 的中英對照，不在目錄中。

## 成績與排名頁。
export-round-title = { $name } · 第{ $round }輪
export-results = 本輪成績
export-col-table = 台號
export-col-red = 紅方
export-col-result = 結果
export-col-black = 黑方
export-col-reason = 原因
export-col-moves = 回合
export-standings-after = 第{ $round }輪後排名
export-points-tie-breaks = 積分 2/1/0；同分依序比較（{ $rule }）：{ $order }
export-rounds-left-out = 本資料目錄中沒有的輪次（未計入）：{ $rounds }
export-col-rank = 名次
export-col-player = 姓名
export-col-points = 積分
export-col-games = 局數
export-col-wins = 勝
export-col-draws = 和
export-col-losses = 負
export-col-opponents = 對手分
export-col-black-wins = 後手勝
export-col-fouls = 犯規
export-col-decided-by = 區分
export-team-standings = 團體排名
export-col-team = 隊
export-col-match-points = 場分
export-col-board-points = 局分
export-col-matches = 場數
export-crosstable = 交叉表
export-mark-red = 紅
export-mark-black = 黑
export-footer = caipan 裁判 · { $name } · 已完成 { $games } 局；未完成的對局標 * 且不計分。

## 對陣表（賽場的語言，旁附英文）。
export-round-pairings = 第{ $round }輪對陣
export-by-table = 依台次
export-by-name = 依姓名
export-col-name = 姓名
export-col-colour = 執
export-col-opponent = 對手
export-boards = { $boards } 台

## 破同分規則的名稱（排名的比較順序與「區分」欄）。
export-tiebreak-direct-encounter = 直勝
export-tiebreak-opponent-score-beaten = 對手分（勝者全計、和者半計）
export-tiebreak-opponent-score-all = 對手分（全部對手）
export-tiebreak-fewer-technical-fouls = 技術犯規少者列前
export-tiebreak-more-black-wins = 後手勝多者列前
export-tiebreak-lots = 抽籤
export-tiebreak-buchholz = 布氏分數（BH）
export-tiebreak-buchholz-cut1 = 布氏分數去掉最低一個（BH-C1）
export-tiebreak-sonneborn-berger = 索伯分數（SB）
export-tiebreak-progressive-score = 累進分（PS）
export-tiebreak-wins = 勝局數（WIN）
export-tiebreak-black-games = 後手局數（BPG）
export-tiebreak-average-rating-opponents = 對手平均等級分（ARO）
