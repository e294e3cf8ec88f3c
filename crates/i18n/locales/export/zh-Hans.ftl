# 导出的用语（issue 33）：导出有语言时（caipan export --lang、
# [tournament] language）的成绩与排名页和对阵表。没有语言时导出仍用原来
# 的中英对照，不在目录中。

## 成绩与排名页。
export-round-title = { $name } · 第{ $round }轮
export-results = 本轮成绩
export-col-table = 台
export-col-red = 红方
export-col-result = 结果
export-col-black = 黑方
export-col-reason = 原因
export-col-moves = 回合
export-standings-after = 第{ $round }轮后排名
export-points-tie-breaks = 积分 2/1/0；同分依次比较（{ $rule }）：{ $order }
export-rounds-left-out = 本数据目录中没有的轮次（未计入）：{ $rounds }
export-col-rank = 名次
export-col-player = 姓名
export-col-points = 积分
export-col-games = 局
export-col-wins = 胜
export-col-draws = 和
export-col-losses = 负
export-col-opponents = 对手分
export-col-black-wins = 后胜
export-col-fouls = 犯规
export-col-decided-by = 区分
export-team-standings = 团体排名
export-col-team = 队
export-col-match-points = 场分
export-col-board-points = 局分
export-col-matches = 场
export-crosstable = 交叉表
export-mark-red = 红
export-mark-black = 黑
export-footer = caipan 裁判 · { $name } · 已完成 { $games } 局；未完成的对局标 * 且不计分。

## 对阵表（赛场的语言，旁附英文）。
export-round-pairings = 第{ $round }轮对阵
export-by-table = 按台次
export-by-name = 按姓名
export-col-name = 姓名
export-col-colour = 执
export-col-opponent = 对手
export-boards = { $boards } 台

## 破同分规则的名称（排名的比较顺序与“区分”栏）。
export-tiebreak-direct-encounter = 直胜
export-tiebreak-opponent-score-beaten = 对手分（胜者全计、和者半计）
export-tiebreak-opponent-score-all = 对手分（全部对手）
export-tiebreak-fewer-technical-fouls = 技术犯规少者列前
export-tiebreak-more-black-wins = 后胜多者列前
export-tiebreak-lots = 抽签
export-tiebreak-buchholz = 布氏分（BH）
export-tiebreak-buchholz-cut1 = 布氏分去掉最低一个（BH-C1）
export-tiebreak-sonneborn-berger = 索伯分（SB）
export-tiebreak-progressive-score = 累进分（PS）
export-tiebreak-wins = 胜局数（WIN）
export-tiebreak-black-games = 后手局数（BPG）
export-tiebreak-average-rating-opponents = 对手平均等级分（ARO）
