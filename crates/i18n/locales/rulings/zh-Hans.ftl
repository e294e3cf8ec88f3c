# caipan 裁决目录：简体中文 (zh-Hans)。规则库的裁决说明（rulebook::explain），
# 逐句写出，事实（棋子及其位置、次数、红黑方、规则编号）作为参数。
# 与规则库原先写出的中文逐字相同（ROC 的说明改用简体字）。
# Every id here is in zh-Hant.ftl, en.ftl and vi.ftl with the same arguments.

ruling-none = { "" }
ruling-sep-pieces = 、
ruling-sep-notes = { "" }
ruling-sep-reasons = ；

## 一方在循环中的着法（rulebook::pattern）

pattern-perpetual-check = 长将
pattern-perpetual-chase = 长捉
pattern-perpetual-mate-threat = 长杀
pattern-perpetual-material-threat = 长要抽吃
pattern-perpetual-exchange = 长兑
pattern-perpetual-offer = 长献
pattern-perpetual-block = 长拦
pattern-check-and-chase = 一将一捉
pattern-check-and-mate-threat = 一将一杀
pattern-check-and-material-threat = 一将一要抽吃
pattern-check-and-idle = 一将一闲
pattern-chase-and-material-threat = 一捉一要抽吃
pattern-chase-and-idle = 捉闲交替
pattern-mate-threat-and-idle = 杀闲交替
pattern-idle = 闲着
pattern-mixed = 其他着法

## 循环裁决

ruling-piece-at = { $piece }({ $square })
ruling-chase = （{ $attackers }捉{ $targets }）
ruling-not-forbidden = ，不属禁例
ruling-side = { $side }{ $pattern }{ $chase }{ $allowed }
ruling-verdict-draw = 双方不变作和：裁判员宣布再循环一次即判和。
ruling-verdict-must-change = { $side }犯例，必须变着，不变作负。
ruling-repetition = 局面第{ $count }次出现（循环{ $plies }步）。{ $red }；{ $black }。{ $verdict }（{ $rules }）{ $notes }

## 规则文本未规定时的读法

ruling-note-roc-uncrossed-pawn = ROC条文长捉无根子不分兵卒是否过河（ROC-15、ROC-24），未过河兵卒亦不得长捉。
ruling-note-roc-exchange = ROC条文对捉兼兑未作规定，本判从重定性作捉。
ruling-note-roc-mate-threat = ROC条文未列长杀，其示例（长杀）明言为允许着法，按无犯例处理（ROC-12）。
ruling-note-roc-material-threat = ROC条文未规定要抽吃，按无犯例处理（ROC-12）。
ruling-note-cxa-borrowed = CXA列表未规定此情形的判法，援用{ $rules }。

## 两次循环不同：按整个重复过程

ruling-whole = { $ruling }两次循环着法不同（第{ $first }至{ $at }步、第{ $at }至{ $end }步，所走之子或着法有别），按整个重复过程（最近三次出现之间，第{ $first }至{ $end }步）合并定性：长将、长捉须两次循环每着皆然，各子按同一子追踪{ $reading }
ruling-whole-cited = （{ $rules }）。
ruling-whole-reading = （整个重复过程的读法，见 docs/rules.md）。

## 须裁判员判断意图（rulebook::reread）

ruling-why-intent = 本循环中有着法定性为“拦”或“要抽吃”，或搜索未尽，须由裁判员判断其意图
ruling-why-out-of-check = 长捉之方有着法是在被将时应将（解照还捉），是否“企图吃子”须由裁判员判断
ruling-judgement = { $reasons }。
ruling-judgement-otherwise = { $judgement }若裁判员认定这些着法并无此意图（作闲着或单纯应将论），则为{ $other }。
ruling-other-draw = 和棋
ruling-other-must-change = { $side }须变着
ruling-other-loses = { $side }负
ruling-with-judgement = { $ruling }（需裁判判断：{ $judgement }）

## 变着令及其后的循环

ruling-more-cycles = { $cycles ->
    [1] 再循环一次
    [3] 再循环三次
   *[other] 再循环{ $cycles }次
}
ruling-order-change = { $side }必须变着，若{ $more }即判负
ruling-order-draw = 裁判员宣布：如{ $more }即判为和局
ruling-order = { $order }。{ $ruling }
ruling-did-not-change = { $side }未变着，判负
ruling-neither-changed = 双方未变着，判和
ruling-order-repeated = 第{ $ply }步裁判员指令：{ $order }。其后{ $more }（局面第{ $count }次出现）：{ $verdict }（{ $rules }）。

## 违规着法的裁决

ruling-illegal-loses = { $side }着法{ $move }不应将或造成将帅对面，判负。
ruling-illegal-corrected = { $side }着法{ $move }不合规则，应纠正，并作技术犯规一次。

## 自然限着（rulebook::limit）

limit-discount-checks = { $side }将军最多只计{ $cap }着
limit-discount-replies = { $side }应照之着最多只计{ $cap }着
limit-claim = { $side }提出自然限着和棋：无吃子{ $plies }步，{ $discount }，扣除{ $struck }步，有效{ $counted }步，需{ $required }步。{ $outcome }
limit-claim-holds = 属实，判和。
limit-technical-foul = 技术犯规一次，
limit-claim-false = 不属实：判{ $side }{ $foul }扣除剩余时间{ $time }，如因此超时则判负，继续对弈。
limit-either-side = 双方
limit-one-side = { $side }
limit-reached = 已达自然限着：无吃子{ $plies }步（需{ $required }步），{ $who }提和即属实；裁判经审核着数亦可判和。

## 台湾棋规的限著（rulebook::roc_limit；限著为 003 之词）

roc-limit-book-draw = ，例和
roc-limit-counts = 自第{ $ply }步宣判限著（每方{ $each }步{ $book }，被限著方{ $limited }），红方已走{ $red }步、黑方已走{ $black }步；{ $limited }应照{ $replies }着，只计{ $cap }着，不计{ $struck }着；剩余：红方{ $red-left }步、黑方{ $black-left }步。
roc-limit-full = 限著已满，局势无新变化，判和。
roc-limit-not-full = 限著未满，申请不实，继续对弈（棋规对此无罚则）。
roc-limit-reset = 第{ $ply }步吃子，局势出现新变化：请裁判员取消原限著，另行限著或不限著继续比赛。
roc-limit-verdict = { $counts }{ $outcome }
