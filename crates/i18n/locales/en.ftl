# caipan message catalogue: English (en).
# Terms as the English rule texts and docs/rules.md use them; see
# docs/glossary.md.

## Sides

side-red = Red
side-black = Black

## Pieces ($side: red | black; English names both sides' pieces alike)

piece-general = { $side ->
   *[other] general
}
piece-advisor = { $side ->
   *[other] advisor
}
piece-elephant = { $side ->
   *[other] elephant
}
piece-horse = { $side ->
   *[other] horse
}
piece-chariot = { $side ->
   *[other] rook
}
piece-cannon = { $side ->
   *[other] cannon
}
piece-soldier = { $side ->
   *[other] pawn
}

## Alert kinds

alert-kind-flag-fall = flag fall
alert-kind-illegal-move = illegal move
alert-kind-repetition = repetition
alert-kind-natural-limit = natural limit
alert-kind-no-show = no-show
alert-kind-clock-anomaly = clock anomaly
alert-kind-table-offline = table offline
alert-kind-table-online = table online
alert-kind-foul-threshold = foul threshold
alert-kind-seal-overdue = seal overdue
alert-kind-arbiter-called = arbiter called
alert-kind-claim-pending = claim pending
alert-kind-game-over = game over
alert-kind-refused-commands = refused commands
alert-kind-move-limit = move limit
alert-kind-record-quarantined = record quarantined
alert-kind-terminal-replaced = terminal replaced
alert-kind-two-terminals = two terminals
alert-kind-stopped-reading = stopped reading

## Claim kinds

claim-kind-natural-limit = natural limit
claim-kind-repetition = repetition
claim-kind-illegal-move = illegal move
claim-kind-foul-threshold = foul threshold
claim-kind-flag-fall = flag fall
claim-kind-no-show = no-show
claim-kind-draw-offer = draw offer
claim-kind-move-limit = move limit

## End reasons

end-reason-checkmate = checkmate
end-reason-stalemate = stalemate
end-reason-resignation = resignation
end-reason-flag = flag
end-reason-perpetual-check = perpetual check
end-reason-perpetual-chase = perpetual chase
end-reason-repetition = repetition
end-reason-natural-limit = natural limit
end-reason-fouls = fouls
end-reason-illegal-move = illegal move
end-reason-forfeit = forfeit
end-reason-agreement = agreement
end-reason-arbiter = arbiter
end-reason-reported = reported
end-reason-move-limit = move limit

## Foul kinds

foul-kind-technical = technical foul
foul-kind-violation = violation

## Verdicts

verdict-continue = play on
verdict-draw = draw
verdict-loss = { $side } loses
verdict-correct-move = { $side } corrects the move
verdict-order = order to change

## Rule terms (see docs/glossary.md)

term-perpetual-check = perpetual check
term-perpetual-chase = perpetual chase
term-must-change = { $side } must change, or loses
term-one-check-one-kill = one check, one mate threat
term-idle = idle move
term-protected-piece = protected piece
term-unprotected-piece = unprotected piece

## The follower page and the hall display (broadcast)

web-round = Round { $round }
web-table = Table { $table }
web-waiting = not started
web-playing = playing
web-paused = paused
web-adjourned = adjourned
web-red-wins = Red wins
web-black-wins = Black wins
web-draw = Draw
web-both-lose = Both lose
web-moves = Moves
web-boards = All boards
web-pairings = Pairings
web-results = Results
web-display = Hall display
web-notation = Notation
web-language = Language
web-live = live
web-reconnecting = reconnecting…
web-feeds = For relays and apps

## The hall's texts (alerts, rulings; i18n::texts)
# text-zh-en: an explanation the rulebook still writes as finished Chinese
# and English sentences, shown as written.

text-zh-en = { $en }
alert-claim-escalated = table { $table }: claim { $claim } escalated to the chief: { $reason }
alert-terminal-replaced = table { $table }: terminal replaced (a newer terminal took over; the older one was told to stop)
alert-two-terminals = two terminals for table { $table }: they keep taking the table from each other; switch one off
alert-refused-commands = a console is sending refused commands: { $who } (more than { $threshold } in { $window } s)
alert-stopped-reading = a client stopped reading and was disconnected: { $who } (nothing taken for { $seconds } s)
alert-record-quarantined = stored record at gseq { $gseq } does not decode and was set aside (--quarantine-undecodable): the hall's state does not include it ({ $error })
alert-table-online = table { $table }: terminal back online
alert-table-offline = table { $table }: terminal offline for { $seconds } s
alert-illegal-move = table { $table }: illegal move { $move } by { $side }: { $why }
illegal-not-a-move = { $move } is not a move on the board
illegal-wrong-turn = { $side } moved but it is { $turn }'s turn
illegal-empty-square = no piece on the starting square
illegal-not-your-piece = moves a piece of the side not to move
illegal-own-piece = captures its own piece
illegal-cannot-move-there = the piece cannot move there
illegal-leaves-check = ignores a check / leaves the king in check
illegal-kings-facing = leaves the kings facing each other
illegal-generic = illegal move
alert-repetition = table { $table }: repetition (position occurred { $count } times): { $explanation }
alert-at-table = table { $table }: { $text }
alert-order-lapsed = table { $table }: { $order } (claim { $claim })
alert-order-repeated = table { $table }: the cycle repeated after the order: { $explanation }
alert-arbiter-called = table { $table }: { $side } calls the arbiter: { $reason }
alert-claim-repetition = table { $table }: { $side } claims a repetition ruling: { $explanation }
alert-clock-anomaly = table { $table }: clock anomaly: { $description }
result-red-wins = Red wins
result-black-wins = Black wins
result-draw = draw
result-both-lose = both lose
alert-game-over = table { $table }: game over: { $result }, { $why } ({ $reason })
alert-move-limit-full = table { $table }: the move limit is full: { $explanation }
alert-move-limit-capture = table { $table }: a capture during the move limit: { $explanation }
alert-claim-move-limit = table { $table }: { $side } claims the move limit: { $explanation }
ruling-no-cycle = The position has not occurred three times: no cycle to rule on; play continues.
ruling-no-move-limit = { $side } claims the move limit, but none was declared: play continues; the arbiter may declare one on request.
## The next round: why this pair, the chief's changes (issue 36)

round-why-same-score = same score { $points }
round-why-float = float: { $red-points } v { $black-points }
round-why-colour = { $player } had { $last }, now { $now }
round-why-rematches-avoided = { $player }: { $count } rematches avoided
round-why-changed = changed by the chief: { $reason }
round-change-colours = table { $table }: colours swapped
round-change-exchange = tables { $table } and { $other }: Black players exchanged
round-note-relaxed = rule given way on: { $what }
round-deputy-tables = deputy { $deputy }: tables { $tables }
round-hall-tables = hall { $hall }: tables { $tables }
round-deputy-idle = deputy { $deputy } has no table in this round (stands by)
round-deputy-uncovered = tables { $tables } have no deputy

## Standing orders and their lapse (i18n::texts::order, order_lapse; issue 33, wire)

order-change = { $side } must change; { $cycles ->
    [1] one more cycle
    [3] three more cycles
   *[other] { $cycles } more cycles
} loses
order-draw = the arbiter announces that { $cycles ->
    [1] one more cycle
    [3] three more cycles
   *[other] { $cycles } more cycles
} is a draw
order-lapse-capture = { $side } captured at ply { $ply }: the cycle is broken and the order lapses
order-lapse-left-cycle = { $side } left the cycle at ply { $ply }: the order lapses

## Clock anomalies (i18n::texts::anomaly, AXF-CLOCK-5; issue 33, wire)

clock-time-went-backwards = the clock report is { $off } ms earlier than the previous one
clock-moves-decreased = { $side }'s move count went down from { $from } to { $to }
clock-time-grew = { $side }'s time grew by { $growth } ms, { $off } ms more than its increments and adjustments
clock-ran-too-fast = the clocks used { $used } ms in { $elapsed } ms of real time ({ $off } ms too much)
clock-ran-too-slow = the clocks used { $used } ms in { $elapsed } ms of real time ({ $off } ms too little)
clock-idle-side-changed = { $side } neither ran nor pressed but lost { $used } ms

## The last prose, typed (issue 33, lang33-ends): the hall's proposed
## losses (hall::loss; alert and ruling), a game's end and a decided claim
## as the table terminal shows them (i18n::texts::game_end,
## i18n::replies::claim_decided), `caipan adjudicate`'s own sentences.

loss-flag-fall-alert = table { $table }: { $side }'s flag fell
loss-flag-fall = { $side }'s time ran out: loss on time.
loss-fouls-alert = table { $table }: { $side } has { $count } { $kind ->
    [technical] technical fouls
   *[other] violations
}
loss-fouls = { $side } has { $count } { $kind ->
    [technical] technical fouls
   *[other] violations
}: loss.
loss-no-show-alert = table { $table }: { $side } absent { $limit } after the start
loss-no-show = { $side } not at the board { $limit } after the start: forfeit.
loss-late-alert = table { $table }: adjourned game resumed, { $side } absent after { $limit }
loss-late = { $side } not at the board { $limit } after the resumption: forfeit.
loss-minutes = { $minutes } minutes
loss-seconds = { $seconds } s
game-end = { $result }, { $why }
game-end-reason = { $result }, { $why } ({ $reason })
game-end-set-by = { $result }, { $why } ({ $reason }; set by { $by })
claim-decided = { $side }'s claim ({ $what }) decided: { $effect }
claim-decided-server = ruling ({ $what }): { $effect }
claim-effect-sep = { ", " }
ruling-checkmated = { $side } is checkmated and loses ({ $rule }).
ruling-stalemated = { $side } is stalemated (no legal move) and loses ({ $rule }).
ruling-order-stands = The order given at ply { $ply } stands ({ $order }); no result yet.
ruling-nothing-to-rule = The final position has not occurred three times: nothing to rule.
