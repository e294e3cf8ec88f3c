# caipan rulings catalogue: English (en). The rulebook's explanations
# (rulebook::explain) sentence by sentence, with their facts: pieces on
# their squares, counts, sides, rule ids. Byte for byte the sentences the
# rulebook wrote before they were data (the exports quote them).
# Separators and empty parts are string literals: Fluent trims a
# pattern's leading and trailing blanks.

ruling-none = { "" }
ruling-sep-pieces = { ", " }
ruling-sep-notes = { "" }
ruling-sep-reasons = { "; " }

## What a side does over the cycle (the patterns of rulebook::pattern)

pattern-perpetual-check = perpetual check
pattern-perpetual-chase = perpetual chase
pattern-perpetual-mate-threat = perpetual mate threat
pattern-perpetual-material-threat = perpetual material threat
pattern-perpetual-exchange = perpetual exchange
pattern-perpetual-offer = perpetual offer
pattern-perpetual-block = perpetual block
pattern-check-and-chase = check and chase
pattern-check-and-mate-threat = check and mate threat
pattern-check-and-material-threat = check and material threat
pattern-check-and-idle = check and idle
pattern-chase-and-material-threat = chase and material threat
pattern-chase-and-idle = chase and idle
pattern-mate-threat-and-idle = mate threat and idle
pattern-idle = idle
pattern-mixed = mixed

## A repetition ruling

ruling-piece-at = { $piece ->
    [general] king
   *[other] { $piece }
} { $square }
ruling-chase = { " " }({ $attackers } after { $targets })
ruling-not-forbidden = , not forbidden
ruling-side = { $side }: { $pattern }{ $chase }{ $allowed }
ruling-verdict-draw = If neither side changes it is a draw: the arbiter announces that one more cycle is a draw.
ruling-verdict-must-change = { $side } violates and must change; if it does not, it loses.
ruling-repetition = The position occurred for the { NUMBER($count, type: "ordinal") ->
    [one] { $count }st
    [two] { $count }nd
    [few] { $count }rd
   *[other] { $count }th
} time (a cycle of { $plies } plies). { $red }; { $black }. { $verdict } ({ $rules }){ $notes }

## Readings where a rule set's text is silent

ruling-note-roc-uncrossed-pawn = { " " }The ROC text makes no exception for an uncrossed pawn (ROC-15, ROC-24): it may not be chased either.
ruling-note-roc-exchange = { " " }The ROC text is silent on a chase that also offers an exchange: the move is read as its most serious kind, a chase.
ruling-note-roc-mate-threat = { " " }The ROC list has no rule on a perpetual mate threat; its worked example calls it allowed, so it is no violation (ROC-12).
ruling-note-roc-material-threat = { " " }The ROC text has no rule on material threats (要抽吃): they are read as no violation (ROC-12).
ruling-note-cxa-borrowed = { " " }The CXA list has no rule for this; { $rules } applied.

## Two cycles that differ: the whole repetition

ruling-whole = { $ruling } The two cycles differ (plies { $first }-{ $at } and { $at }-{ $end }: other moves or other pieces): the moves of the whole repetition between its last three occurrences, plies { $first } to { $end }, were classified together, so a perpetual check or chase must hold on every move of both cycles, each piece followed through both{ $reading }
ruling-whole-cited = { " " }({ $rules }).
ruling-whole-reading = { " " }(the reading of the whole repetition, docs/rules.md).

## The arbiter's judgement of intent (rulebook::reread)

ruling-why-intent = a move of this cycle is classified as a block or a material threat, or a bounded search did not finish: these need the arbiter's judgement of intent
ruling-why-out-of-check = the chasing side made some of its chasing moves out of check (escape with a counter-chase): whether they intend capture is the arbiter's judgement
ruling-judgement = { $reasons }.
ruling-judgement-otherwise = { $judgement } If the arbiter finds no such intent (reading them as idle moves or plain escapes), the ruling is { $other }.
ruling-other-draw = a draw
ruling-other-must-change = { $side ->
    [Red] red
   *[other] black
} must change
ruling-other-loses = { $side ->
    [Red] red
   *[other] black
} loses
ruling-with-judgement = { $ruling } (arbiter's judgement needed: { $judgement })

## The order at a repetition (变着令) and the cycle repeated after it

ruling-more-cycles = { $cycles ->
    [1] one more cycle
    [3] three more cycles
   *[other] { $cycles } more cycles
}
ruling-order-change = { $side } must change ({ $side ->
    [Red] 红方必须变着
   *[other] 黑方必须变着
}); { $more } loses
ruling-order-draw = the arbiter announces that { $more } is a draw
ruling-order = { $order }. { $ruling }
ruling-did-not-change = { $side } did not change and loses
ruling-neither-changed = neither side changed: draw
ruling-order-repeated = Order at ply { $ply }: { $order }. The cycle then repeated ({ $more }; the position occurred { $count } times): { $verdict } ({ $rules }).

## An illegal move (the hall's ruling on it)

ruling-illegal-loses = { $side }'s move { $move } ignores a check or exposes the kings: loss (AXF-G6).
ruling-illegal-corrected = { $side }'s move { $move } is not legal: it is corrected and counts as one technical foul (AXF-PLAY-4A).

## The natural move limit (rulebook::limit)

limit-discount-checks = at most { $cap } of { $side }'s checks count
limit-discount-replies = at most { $cap } of { $side }'s replies to check count
limit-claim = { $side } claims the natural move limit: { $plies } plies without a capture, { $discount }, { $struck } struck, { $counted } counted, { $required } required. { $outcome }
limit-claim-holds = The claim holds: draw.
limit-technical-foul = one technical foul and{ " " }
limit-claim-false = The claim is false: { $foul }{ $time } off { $side }'s clock (a flag fall from the deduction loses); play continues.
limit-either-side = either side
limit-one-side = { $side }
limit-reached = Natural move limit reached: { $plies } plies without a capture ({ $required } required); a claim by { $who } would hold, and the arbiter may rule the draw after checking the count.

## The ROC declared move limit (限著, rulebook::roc_limit)

roc-limit-book-draw = , book draw
roc-limit-counts = Move limit declared at ply { $ply } ({ $each } moves each{ $book }, { $limited } limited): Red { $red } and Black { $black } counted moves; { $limited } replied to check { $replies } times, at most { $cap } count, { $struck } struck; remaining: Red { $red-left }, Black { $black-left }.
roc-limit-full = The limit is full with no new development: draw.
roc-limit-not-full = The limit is not full: the claim is false, play continues (the ROC text sets no penalty for it).
roc-limit-reset = A piece was captured at ply { $ply }, a new development: the arbiter cancels the limit, declares a new one or lets play go on without one.
roc-limit-verdict = { $counts } { $outcome }
