# The audit trail's rows (审计记录, issue 33): what was done, typed, one
# id per command kind and per row the hall or the server writes itself.
# English is the audit trail's English as it was stored before (byte for
# byte: hall::command::describe), so old English readers see no change;
# its enums keep their code names (Loss { side: Red }, RedWins, Some(Red)).
# A row that shows a code in English and words elsewhere takes both as
# arguments and selects on the one it does not show (a selector with only
# its default variant), so every language has the same arguments.

audit-subscribe = subscribe
audit-unsubscribe = unsubscribe
audit-get-table-log = read the log of table { $table }
audit-export-round = export the round
audit-pause-table = pause table { $table }: { $reason }
audit-resume-table = resume table { $table }
audit-pause-hall = pause the hall: { $reason }
audit-resume-hall = resume the hall
audit-seal = seal table { $table } (sealed move hidden)
audit-unseal = unseal table { $table }
audit-rule-accept = table { $table }: accept the recommended ruling on claim { $claim }
audit-rule-override = table { $table }: override the ruling on claim { $claim } with { $verdict } (must change: { $must_change }); reason: { $reason }
audit-verdict-continue = Continue
audit-verdict-draw = Draw
audit-verdict-loss = Loss {"{"} side: { $side } {"}"}
audit-verdict-correct-move = CorrectMove {"{"} side: { $side } {"}"}
audit-verdict-order = Order
audit-must-change = Some({ $side })
audit-must-change-none = None
audit-escalate = table { $table }: escalate claim { $claim } to the chief: { $reason }
audit-record-foul = table { $table }: record a { $kind } foul for { $side }: { $note }
audit-foul-technical = Technical
audit-foul-violation = Violation
audit-adjust-clock = table { $table }: set clocks Red { $red }, Black { $black }: { $reason }
audit-set-result = table { $table }: set result { $result }: { $reason }
audit-result-red-wins = RedWins
audit-result-black-wins = BlackWins
audit-result-draw = Draw
audit-result-both-lose = BothLose
audit-ack-alert = acknowledge alert { $alert }
audit-declare-move-limit = table { $table }: declare the move limit ({ $limited } limited{ $book ->
        [1] , book draw
       *[0] {""}
    })
audit-declare-move-limit-requested = table { $table }: declare the move limit ({ $limited } limited, at { $requested_by }'s request{ $book ->
        [1] , book draw
       *[0] {""}
    })
audit-cancel-move-limit = table { $table }: cancel the move limit
audit-pair-next-round = pair the next round
audit-publish-round = publish round { $round } ({ $boards } boards, { $system }, seed { $seed }){ $changes }
audit-round-change = ; { $change ->
       *[other] { $code }
    } because { $reason }
audit-correct-result = round { $round } table { $table }: result corrected to { $result } because { $reason }
audit-withdraw-round = withdraw round { $round } (published, not started) because { $reason }
audit-enter-player = enter player { $name } late, from the next round
audit-enter-player-details = enter player { $name } ({ $details }) late, from the next round
audit-player-id = id { $id }
audit-player-rating = rating { $rating }
audit-player-federation = { $federation }
audit-player-club = { $club }
audit-sep = {", "}
audit-withdraw-player = withdraw player { $player } from round { $round } because { $reason }
audit-claim-lapsed = table { $table }: claim { $claim } lapsed: { $why }
audit-lapse-too-many = more than { $max } open claims of this kind at table { $table }: the oldest lapses
audit-lapse-clock-started = the clock started: the players are at the board
audit-lapse-game-ended = the game ended ({ $why })
audit-lapse-moved = { $side } is at the board and moved
audit-order = table { $table }: order at ply { $ply } (claim { $claim }): { $order }
audit-report = report { $action ->
       *[other] { $code }
    } for table { $table }
audit-publish-round-refused = publish round { $round }
audit-publish-a-round = publish round
audit-withdraw-round-refused = withdraw round { $round }
audit-correct-result-refused = correct the result of round { $round } table { $table }
audit-refusals-counted = { $count } refused requests in { $secs } s (counted, not stored one by one)
audit-refusals-counted-why = more than { $threshold } refused requests in a window
audit-note = note
