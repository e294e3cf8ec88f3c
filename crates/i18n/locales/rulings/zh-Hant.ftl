# caipan 裁決目錄：繁體中文 (zh-Hant)。規則庫的裁決說明（rulebook::explain），
# 逐句寫出，事實（棋子及其位置、次數、紅黑方、規則編號）作為參數。
# 用語依中華民國象棋棋規（003）原文：照（一照一殺、一照一捉、一照一閒）、
# 變著、不變作負、長殺、長兌、長獻、長攔、循環、閒著；見 docs/glossary.md。
# Every id here is in zh-Hans.ftl, en.ftl and vi.ftl with the same arguments.

ruling-none = { "" }
ruling-sep-pieces = 、
ruling-sep-notes = { "" }
ruling-sep-reasons = ；

## 一方在循環中的著法（rulebook::pattern）

pattern-perpetual-check = 長將
pattern-perpetual-chase = 長捉
pattern-perpetual-mate-threat = 長殺
pattern-perpetual-material-threat = 長要抽吃
pattern-perpetual-exchange = 長兌
pattern-perpetual-offer = 長獻
pattern-perpetual-block = 長攔
pattern-check-and-chase = 一照一捉
pattern-check-and-mate-threat = 一照一殺
pattern-check-and-material-threat = 一照一要抽吃
pattern-check-and-idle = 一照一閒
pattern-chase-and-material-threat = 一捉一要抽吃
pattern-chase-and-idle = 捉閒交替
pattern-mate-threat-and-idle = 殺閒交替
pattern-idle = 閒著
pattern-mixed = 其他著法

## 循環裁決

ruling-piece-at = { $piece }({ $square })
ruling-chase = （{ $attackers }捉{ $targets }）
ruling-not-forbidden = ，不屬禁例
ruling-side = { $side }{ $pattern }{ $chase }{ $allowed }
ruling-verdict-draw = 雙方不變作和：裁判員宣布再循環一次即判和。
ruling-verdict-must-change = { $side }犯例，必須變著，不變作負。
ruling-repetition = 局面第{ $count }次出現（循環{ $plies }步）。{ $red }；{ $black }。{ $verdict }（{ $rules }）{ $notes }

## 規則條文未規定時的讀法

ruling-note-roc-uncrossed-pawn = ROC條文長捉無根子不分兵卒是否過河（ROC-15、ROC-24），未過河兵卒亦不得長捉。
ruling-note-roc-exchange = ROC條文對捉兼兌未作規定，本判從重定性作捉。
ruling-note-roc-mate-threat = ROC條文未列長殺，其示例（長殺）明言為允許著法，按無犯例處理（ROC-12）。
ruling-note-roc-material-threat = ROC條文未規定要抽吃，按無犯例處理（ROC-12）。
ruling-note-cxa-borrowed = CXA列表未規定此情形的判法，援用{ $rules }。

## 兩次循環不同：按整個重複過程

ruling-whole = { $ruling }兩次循環著法不同（第{ $first }至{ $at }步、第{ $at }至{ $end }步，所走之子或著法有別），按整個重複過程（最近三次出現之間，第{ $first }至{ $end }步）合併定性：長將、長捉須兩次循環每著皆然，各子按同一子追蹤{ $reading }
ruling-whole-cited = （{ $rules }）。
ruling-whole-reading = （整個重複過程的讀法，見 docs/rules.md）。

## 須裁判員判斷意圖（rulebook::reread）

ruling-why-intent = 本循環中有著法定性為「攔」或「要抽吃」，或搜尋未盡，須由裁判員判斷其意圖
ruling-why-out-of-check = 長捉之方有著法是在被照時應照（解照還捉），是否「企圖吃子」須由裁判員判斷
ruling-judgement = { $reasons }。
ruling-judgement-otherwise = { $judgement }若裁判員認定這些著法並無此意圖（作閒著或單純應照論），則為{ $other }。
ruling-other-draw = 和局
ruling-other-must-change = { $side }須變著
ruling-other-loses = { $side }負
ruling-with-judgement = { $ruling }（需裁判判斷：{ $judgement }）

## 變著令及其後的循環

ruling-more-cycles = { $cycles ->
    [1] 再循環一次
    [3] 再循環三次
   *[other] 再循環{ $cycles }次
}
ruling-order-change = { $side }必須變著，若{ $more }即判負
ruling-order-draw = 裁判員宣布：如{ $more }即判為和局
ruling-order = { $order }。{ $ruling }
ruling-did-not-change = { $side }未變著，判負
ruling-neither-changed = 雙方未變著，判和
ruling-order-repeated = 第{ $ply }步裁判員指令：{ $order }。其後{ $more }（局面第{ $count }次出現）：{ $verdict }（{ $rules }）。

## 訛步的裁決（003「走訛步」）

ruling-illegal-loses = { $side }著法{ $move }不應照或造成將帥對面，判負。
ruling-illegal-corrected = { $side }著法{ $move }為訛步，應糾正，並作技術犯規一次。

## 自然限著（rulebook::limit；003 無自然限著，用其限著條文之字）

limit-discount-checks = { $side }將軍最多只計{ $cap }著
limit-discount-replies = { $side }應照之著最多只計{ $cap }著
limit-claim = { $side }提出自然限著和棋：無吃子{ $plies }步，{ $discount }，扣除{ $struck }步，有效{ $counted }步，需{ $required }步。{ $outcome }
limit-claim-holds = 屬實，判和。
limit-technical-foul = 技術犯規一次，
limit-claim-false = 不屬實：判{ $side }{ $foul }扣除剩餘時間{ $time }，如因此超時則判負，繼續對弈。
limit-either-side = 雙方
limit-one-side = { $side }
limit-reached = 已達自然限著：無吃子{ $plies }步（需{ $required }步），{ $who }提和即屬實；裁判經審核著數亦可判和。

## 限著（rulebook::roc_limit；003 原文之詞）

roc-limit-book-draw = ，例和
roc-limit-counts = 自第{ $ply }步宣判限著（每方{ $each }步{ $book }，被限著方{ $limited }），紅方已走{ $red }步、黑方已走{ $black }步；{ $limited }應照{ $replies }著，只計{ $cap }著，不計{ $struck }著；剩餘：紅方{ $red-left }步、黑方{ $black-left }步。
roc-limit-full = 限著已滿，局勢無新變化，判和。
roc-limit-not-full = 限著未滿，申請不實，繼續對弈（棋規對此無罰則）。
roc-limit-reset = 第{ $ply }步吃子，局勢出現新變化：請裁判員取消原限著，另行限著或不限著繼續比賽。
roc-limit-verdict = { $counts }{ $outcome }
