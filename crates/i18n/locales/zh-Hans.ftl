# caipan 消息目录：简体中文 (zh-Hans)。
# 术语出处见 docs/glossary.md（亚象联、中国象棋协会规则，简体）。
# Every id here is in zh-Hant.ftl, en.ftl and vi.ftl with the same arguments.

## 红黑双方

side-red = 红方
side-black = 黑方

## 棋子（$side: red | black）

piece-general = { $side ->
    [red] 帅
   *[black] 将
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
    [red] 马
   *[black] 马
}
piece-chariot = { $side ->
    [red] 车
   *[black] 车
}
piece-cannon = { $side ->
    [red] 炮
   *[black] 炮
}
piece-soldier = { $side ->
    [red] 兵
   *[black] 卒
}

## 警报种类

alert-kind-flag-fall = 超时
alert-kind-illegal-move = 违规着法
alert-kind-repetition = 循环着法
alert-kind-natural-limit = 自然限着
alert-kind-no-show = 迟到弃权
alert-kind-clock-anomaly = 时钟异常
alert-kind-table-offline = 台端离线
alert-kind-table-online = 台端上线
alert-kind-foul-threshold = 犯规累计
alert-kind-seal-overdue = 封棋逾时
alert-kind-arbiter-called = 请裁判
alert-kind-claim-pending = 待裁申诉
alert-kind-game-over = 对局结束
alert-kind-refused-commands = 指令被拒
alert-kind-move-limit = 限著
alert-kind-record-quarantined = 记录隔离
alert-kind-terminal-replaced = 台端更换
alert-kind-two-terminals = 一台两终端
alert-kind-stopped-reading = 终端停止接收

## 申诉种类

claim-kind-natural-limit = 自然限着
claim-kind-repetition = 棋例
claim-kind-illegal-move = 违规着法
claim-kind-foul-threshold = 犯规累计
claim-kind-flag-fall = 超时
claim-kind-no-show = 迟到弃权
claim-kind-draw-offer = 提和
claim-kind-move-limit = 限著

## 终局原因

end-reason-checkmate = 将死
end-reason-stalemate = 困毙
end-reason-resignation = 认负
end-reason-flag = 超时
end-reason-perpetual-check = 长将
end-reason-perpetual-chase = 长捉
end-reason-repetition = 循环作和
end-reason-natural-limit = 自然限着
end-reason-fouls = 犯规
end-reason-illegal-move = 违规着法
end-reason-forfeit = 弃权
end-reason-agreement = 议和
end-reason-arbiter = 裁判判定
end-reason-reported = 终端报告
end-reason-move-limit = 限著

## 犯规种类

foul-kind-technical = 技术犯规
foul-kind-violation = 违例

## 裁决

verdict-continue = 继续对局
verdict-draw = 判和
verdict-loss = { $side }负
verdict-correct-move = { $side }更正着法
verdict-order = 变着令

## 棋例术语（见 docs/glossary.md）

term-perpetual-check = 长将
term-perpetual-chase = 长捉
term-must-change = { $side }必须变着，不变判负
term-one-check-one-kill = 一将一杀
term-idle = 闲着
term-protected-piece = 有根子
term-unprotected-piece = 无根子

## The follower page and the hall display (broadcast)

web-round = 第{ $round }轮
web-table = 第{ $table }台
web-waiting = 未开始
web-playing = 对局中
web-paused = 暂停
web-adjourned = 已封棋
web-red-wins = 红胜
web-black-wins = 黑胜
web-draw = 和棋
web-both-lose = 双方判负
web-moves = 着法
web-boards = 全部棋盘
web-pairings = 对阵
web-results = 成绩
web-display = 大厅显示屏
web-notation = 记谱
web-language = 语言
web-live = 实时
web-reconnecting = 正在重新连接…
web-feeds = 转播数据

## 大厅消息（警报、裁决；i18n::texts）
# text-zh-en：规则引擎仍以中英两种成句写出的说明，原样显示。

text-zh-en = { $zh }
alert-claim-escalated = 第{ $table }台申诉{ $claim }已提交裁判长：{ $reason }
alert-terminal-replaced = 第{ $table }台更换了台端：新台端已接管，旧台端已停止
alert-two-terminals = 第{ $table }台有两个台端在互相接管：请关掉其中一个
alert-refused-commands = 有终端在反复发送被拒绝的指令：{ $who }（{ $window }秒内超过{ $threshold }条）
alert-stopped-reading = 终端停止接收，已断开：{ $who }（{ $seconds }秒无进展）
alert-record-quarantined = 存储记录（gseq { $gseq }）无法解码，已按操作员要求隔离：大厅状态不含此记录（{ $error }）
alert-table-online = 第{ $table }台终端恢复连接
alert-table-offline = 第{ $table }台终端断开连接已{ $seconds }秒
alert-illegal-move = 第{ $table }台{ $side }走出违规着法{ $move }：{ $why }
illegal-not-a-move = { $move }不是棋盘上的着法
illegal-wrong-turn = { $side }走棋，但轮到{ $turn }走
illegal-empty-square = 起点没有棋子
illegal-not-your-piece = 走了非行棋方的棋子
illegal-own-piece = 吃了己方的棋子
illegal-cannot-move-there = 该棋子不能走到那里
illegal-leaves-check = 不应将或送将
illegal-kings-facing = 造成将帅对面
illegal-generic = 违规着法
alert-repetition = 第{ $table }台出现循环（第{ $count }次重复）：{ $explanation }
alert-at-table = 第{ $table }台{ $text }
alert-order-lapsed = 第{ $table }台{ $order }（申诉{ $claim }）
alert-order-repeated = 第{ $table }台变着令后再循环：{ $explanation }
alert-arbiter-called = 第{ $table }台{ $side }请裁判：{ $reason }
alert-claim-repetition = 第{ $table }台{ $side }提出棋例申诉：{ $explanation }
alert-clock-anomaly = 第{ $table }台计时异常：{ $description }
result-red-wins = 红胜
result-black-wins = 黑胜
result-draw = 和棋
result-both-lose = 双方判负
alert-game-over = 第{ $table }台对局结束：{ $result }，{ $why }（{ $reason }）
alert-move-limit-full = 第{ $table }台限著已满：{ $explanation }
alert-move-limit-capture = 第{ $table }台限著期间吃子：{ $explanation }
alert-claim-move-limit = 第{ $table }台{ $side }申请限著判和：{ $explanation }
ruling-no-cycle = 当前局面未重复三次，不构成循环，继续对弈。
ruling-no-move-limit = { $side }申请限著判和，但本局未宣判限著，继续对弈；裁判员可应要求宣判限著。
## 下一轮：为何这样配对、裁判长的改动 (issue 36)

round-why-same-score = 同分相对 { $points } 分
round-why-float = 升降：{ $red-points } 对 { $black-points }
round-why-colour = { $player } 上轮执{ $last }，本轮执{ $now }
round-why-rematches-avoided = { $player }：避开 { $count } 次重复对局
round-why-changed = 裁判长改动：{ $reason }
round-change-colours = 第 { $table } 台：交换红黑
round-change-exchange = 第 { $table } 台与第 { $other } 台：交换黑方棋手
round-note-relaxed = 放宽的规则：{ $what }
round-deputy-tables = 副裁判{ $deputy }：第{ $tables }台
round-hall-tables = 赛场{ $hall }：第{ $tables }台
round-deputy-idle = 副裁判{ $deputy }本轮没有台次（待命）
round-deputy-uncovered = 第{ $tables }台没有副裁判

## 变着令及其失效（i18n::texts::order、order_lapse；issue 33，协议部分）

order-change = { $side }必须变着，若再循环{ $cycles ->
    [1] 一次
    [3] 三次
   *[other] { $cycles }次
}即判负
order-draw = 裁判员宣布：如再循环{ $cycles ->
    [1] 一次
    [3] 三次
   *[other] { $cycles }次
}即判为和局
order-lapse-capture = 第{ $ply }步{ $side }吃子，循环中断，变着令失效
order-lapse-left-cycle = 第{ $ply }步{ $side }变着离开循环，变着令失效

## 计时异常（i18n::texts::anomaly，AXF-CLOCK-5；issue 33，协议部分）

clock-time-went-backwards = 计时报告时间倒退{ $off }毫秒
clock-moves-decreased = { $side }着数由{ $from }减为{ $to }
clock-time-grew = { $side }时间增加{ $growth }毫秒，超出加秒与调整{ $off }毫秒
clock-ran-too-fast = 实际经过{ $elapsed }毫秒，棋钟走时{ $used }毫秒，多了{ $off }毫秒
clock-ran-too-slow = 实际经过{ $elapsed }毫秒，棋钟走时{ $used }毫秒，少了{ $off }毫秒
clock-idle-side-changed = { $side }未走棋且钟未走，却少了{ $used }毫秒

## 最后的散文改为消息（issue 33, lang33-ends）：大厅提出的判负（hall::loss；
## 提示与裁决）、终端所示的对局结束与申诉裁决、`caipan adjudicate` 的说明。

loss-flag-fall-alert = 第{ $table }台{ $side }超时落旗
loss-flag-fall = { $side }用时已尽，超时判负。
loss-fouls-alert = 第{ $table }台{ $side }{ $kind ->
    [technical] 技术犯规
   *[other] 违例
}已达{ $count }次
loss-fouls = { $side }{ $kind ->
    [technical] 技术犯规
   *[other] 违例
}{ $count }次，判负。
loss-no-show-alert = 第{ $table }台{ $side }开赛{ $limit }未到
loss-no-show = { $side }开赛后逾时{ $limit }未到，作弃权论。
loss-late-alert = 第{ $table }台封棋续赛后{ $limit }{ $side }未到
loss-late = { $side }续赛时逾时{ $limit }未到，作弃权论。
loss-minutes = { $minutes }分钟
loss-seconds = { $seconds }秒
game-end = { $result }，{ $why }
game-end-reason = { $result }，{ $why }（{ $reason }）
game-end-set-by = { $result }，{ $why }（{ $reason }；{ $by }判定）
claim-decided = { $side }的申诉（{ $what }）已裁决：{ $effect }
claim-decided-server = 裁决（{ $what }）：{ $effect }
claim-effect-sep = { ", " }
ruling-checkmated = { $side }被将死，判负（{ $rule }）。
ruling-stalemated = { $side }被困毙（无着可走），判负（{ $rule }）。
ruling-order-stands = 第{ $ply }步的裁判员指令仍有效（{ $order }），尚无结果。
ruling-nothing-to-rule = 终局未出现第三次重复局面，无须判决。
