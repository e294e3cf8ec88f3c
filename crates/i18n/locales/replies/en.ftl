# caipan replies: English (en). Why the server refused a request (the
# wire's ErrorReply, protocol 8), the error codes, and the words of the
# actions the roles table names. English is also what the server's log
# and the audit trail keep. Rule terms: docs/glossary.md.

## error codes

code-bad-frame = bad frame
code-too-large = frame too large
code-bad-version = unsupported protocol version
code-unauthenticated = unauthenticated
code-forbidden = forbidden
code-wrong-table = wrong table
code-conflict = conflict
code-illegal-move = illegal move
code-not-found = not found
code-invalid = invalid request
code-unexpected = unexpected message
code-unavailable = unavailable
code-internal = internal error

## the connection

reply-bad-version = protocol version { $server } only
reply-hello-first = the first message must be a hello
reply-hello-again = hello was already received
reply-frame-too-large = frame of { $len } bytes exceeds the { $limit }-byte limit; the connection is closed
reply-malformed-frame = malformed frame
reply-unknown-token = unknown token
reply-too-many-connections = too many connections with this token: { $limit } are open, the limit is { $limit } (server.connections_per_token); close one first
reply-does-not-fit = the reply does not fit in a frame: { $error }
reply-stopping = the server is stopping
reply-not-stored-stopping = the server could not store this and is stopping
reply-stopped-before-storing = the server stopped before storing this
reply-seq-from-one = seq numbers start at 1
reply-conflict-sent = same key sent with different content
reply-conflict-stored = same key stored with different content
reply-behind = seq { $seq } of epoch { $epoch } is behind the table's high-water mark { $high-epoch }/{ $high-seq } and was never stored
reply-out-of-order = out of order: table { $table } epoch { $epoch } expects seq { $expected }, got { $got }
reply-server-error = server error: { $error }

## commands the server answers itself

reply-table-log-too-large = the log of table { $table } does not fit in a frame
reply-pairing-other-hall = this hall does not pair: hall { $hall } pairs and publishes the tournament's rounds
reply-round-not-over-in-hall = hall { $hall }: round { $round } is not over (tables without a result: { $tables })
reply-pairing-failed = pairing failed: { $why }
reply-publish-no-tokens = round { $round }: tables { $tables } have no token (the hall's table tokens cover the config's tables)
reply-subscribe-paced = too many subscriptions by { $who }: { $burst } at once, then one every { $every } s; subscribe again in { $wait } s
reply-snapshot-too-large = the hall's snapshot ({ $tables } tables) does not fit in frames: { $error }; not subscribed
reply-snapshot-too-large-unsubscribed = the hall's snapshot ({ $tables } tables) does not fit in frames: { $error }; unsubscribed
reply-export-failed = export failed: { $error }
reply-not-sent = not sent: { $why }
# The link's own words (a transport error: QUIC, TLS, I/O), as its crates give them.
reply-link-words = { $words }

## the hall's refusals

refusal-no-table = no table { $table }
refusal-no-table-in-round = no table { $table } in this round
refusal-no-claim = no claim { $claim } at table { $table }
refusal-no-alert = no alert { $alert }
refusal-game-over = table { $table }: the game is over
refusal-already-paused = table { $table } is already paused
refusal-not-paused = table { $table } is not paused
refusal-is-sealed = table { $table } is sealed
refusal-hall-already-paused = the hall is already paused
refusal-hall-not-paused = the hall is not paused
refusal-cannot-seal = table { $table } cannot be sealed now
refusal-illegal-sealed-move = sealed move { $move } is not legal at table { $table }
refusal-not-sealed = table { $table } is not sealed
refusal-already-ruled = claim { $claim } is already ruled; override it with a reason
refusal-lapsed = claim { $claim } lapsed; rule otherwise with a reason
refusal-no-reason = an override needs a reason
refusal-no-order = table { $table }: no order can be given here: { $why }
refusal-no-declared-limit = the { $rules } rules have no declared move limit (their natural limit applies)
refusal-round-not-over = round { $round } is not over: tables { $tables } have no result
refusal-bad-round = round { $round } cannot be published: { $why }
refusal-bad-withdrawal = round { $round } cannot be withdrawn: { $why }
refusal-bad-entry = { $name } cannot be entered: { $why }
refusal-bad-player-withdrawal = player { $player } cannot be withdrawn: { $why }
refusal-bad-correction = round { $round } table { $table }: the result cannot be corrected: { $why }
refusal-no-move-limit = table { $table } has no move limit declared

## the roles table

role-viewer-read-only = a viewer is read-only: { $action } is not allowed
role-table-other-table = table { $own } cannot report { $kind } for table { $table }
role-table-only-events = a table terminal only reports its own table's events: { $action } is not allowed
role-deputy-not-assigned = table { $table } is not assigned to deputy { $deputy } (assigned: { $assigned })
role-assigned-none = none
role-deputy-table-event = { $kind } is a table terminal's event; a deputy records fouls or sets results instead
role-deputy-no-table = a table command without a table
role-deputy-chief-ruling = only the chief can override the chief's ruling (deputy { $deputy })
role-deputy-other-deputy = deputy { $deputy } cannot override deputy { $by }'s ruling: that is the chief's
role-deputy-hall-alert = hall-wide alerts are acknowledged by the chief
role-deputy-chief-only = only the chief can do that: { $action } (deputy { $deputy })
role-deputy-export = only the chief can export results
role-deputy-pair-round = only the chief pairs and publishes the next round (deputy { $deputy })
role-deputy-correct-result = only the chief corrects a result of an earlier round (deputy { $deputy })
action-correct-result = correcting a result of an earlier round
role-deputy-withdraw-round = only the chief withdraws a published round (deputy { $deputy })
action-withdraw-round = withdrawing a published round
role-deputy-enter-player = only the chief enters a player late (deputy { $deputy })
action-enter-player = entering a player late
role-deputy-withdraw-player = only the chief withdraws a player (deputy { $deputy })
action-withdraw-player = withdrawing a player
role-deputy-cannot = deputy { $deputy } cannot do that: { $action }

## actions and table events the roles table names

action-subscribe = subscribing
action-pause-table = pausing a table
action-resume-table = resuming a table
action-pause-hall = pausing the hall
action-resume-hall = resuming the hall
action-seal = sealing a game
action-unseal = unsealing a game
action-rule-on-claim = ruling on a claim
action-override-ruling = overriding a ruling
action-record-foul = recording a foul
action-adjust-clock = adjusting a clock
action-set-result = setting a result
action-ack-alert = acknowledging an alert
action-export = exporting
action-pair-round = pairing the next round
action-arrived = arrival
action-clock-press = clock press
action-move = move
action-claim-natural-limit = natural-limit claim
action-claim-repetition = repetition claim
action-draw-offer = draw offer
action-draw-accept = draw acceptance
action-resign = resignation
action-call-arbiter = arbiter call
action-foul-report = foul report
action-result = result
action-sealed-move = sealed move
action-command-ack = control acknowledgement

## a refusal among other notes (the table terminal's status line)

reply-refused = server refused: { $why } ({ $code })

## controls of the arbiter, as the table's terminal shows them

control-paused = paused by { $by }: { $reason }
control-resumed = resumed by { $by }
control-adjusted = clock adjusted by { $by }: { $reason }
control-sealed = adjourned: sealed by { $by }
control-unsealed = unsealed by { $by }: sealed move { $move }
control-unsealed-illegal = unsealed by { $by }: the sealed move { $move } is not legal here; the arbiter decides
control-result = result set by { $by }: { $result }, { $why } ({ $reason })
control-taken-back = move taken back by { $by }: { $reason }
control-move-limit = move limit declared by { $by }: { $moves } moves each
control-move-limit-cancelled = move limit cancelled by { $by }
control-order = order by { $by }: { $order }

## A refusal's reason (why-*), nested in refusal-bad-* and reply-pairing-failed.
# why-words: a database's or the system's own error text, as it is (the pairing engine's errors are why-pairing-*).
why-round-not-next = the hall plays round { $playing }; only round { $next } can be published
why-boards-count = { $boards } boards (1 to { $max } are allowed)
why-changes-count = { $changes } changes (at most { $max })
why-change-no-reason = the change { $change } has no reason
why-a-reason-too-long = a reason is longer than { $max } bytes
why-table-twice-or-zero = table { $table } is given twice or is 0
why-name-too-long = table { $table }: a name is longer than { $max_name } bytes or an id than { $max_id } characters
why-player-no-name = table { $table }: a player without a name
why-plays-twice = { $name } plays twice
why-bye-plays = { $name } has the bye and plays
why-withdraw-not-current = the hall plays round { $playing }: only the round it plays can be withdrawn
why-round-started = the round has started (a move, a clock start or a result at table { $tables })
why-config-round = this round was not published from the console (the config's round cannot be withdrawn)
why-reason-required = the reason is required
why-reason-too-long = the reason is longer than { $max } bytes
why-no-round-before = the round before is not at hand
why-correct-earlier = the hall plays round { $playing }: only a result of an earlier round is corrected (a game of this round: set its result)
why-no-table-zero = there is no table 0
why-field-empty = the { $field } is empty
why-field-too-long = the { $field } is longer than { $max } bytes
why-field-control = the { $field } holds a control character
why-field-name = name
why-field-registration-id = registration id
why-field-federation = federation
why-field-club = club
why-field-player = player
why-field-reason = reason
why-player-not-after = round { $round } is not after the round being played ({ $playing }): a player leaves from the next round on (withdraw a published round first to pair it again)
why-player-already = { $key } is a player of the tournament already
why-no-such-player = no player of the tournament has this registration id (or name)
why-withdrawn-already = withdrawn already, from round { $round }
why-not-a-round-of-hall = round { $round } is not among the hall's rounds
why-no-game-at-table = round { $round } had no game at table { $table } (its tables: { $tables })
why-words = { $words }
# why-pairing-*: the pairing engine's errors, nested in reply-pairing-failed.
why-pairing-too-few-players = round { $round }: { $present } player(s) present, at least 2 are needed
why-pairing-none = round { $round }: no pairing exists without a rematch or a forbidden pair
why-pairing-round-robin-size = round robin: { $players } players: Berger tables are for { $min } to { $max } players
why-pairing-round-robin-round = round robin: round { $round }: a round robin of { $players } players has rounds 1 to { $rounds }
why-pairing-not-next = round { $asked }: the field holds rounds 1..{ $held }; only round { $next } can be paired
why-pairing-too-few-tables = round { $round } has { $boards } boards; the hall has { $count } tables ({ $tables })
# why-no-cycle, why-order-illegal-move (why-illegal-*): the rulebook's reasons nested in refusal-no-order.
why-no-cycle = no position occurred three times since the last capture, at or before ply { $ply }: there is no cycle to order on
why-order-illegal-move = illegal move { $ply } { $move }: illegal move { $move }: { $reason }
why-illegal-empty-square = no piece on the starting square
why-illegal-not-your-piece = the piece belongs to the side not to move
why-illegal-own-piece = the target square holds one of the mover's own pieces
why-illegal-cannot-move-there = the piece cannot move there
why-illegal-leaves-check = the move leaves the mover's king in check
why-illegal-kings-facing = the move leaves the two kings facing each other on an open file
