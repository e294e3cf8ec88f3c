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
