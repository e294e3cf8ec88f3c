# The caipan command line's words a user reads during a round (issue 33):
# the hall config's typed problems (config-*, `caipan check` and
# `caipan serve`), check's summary lines (check-*), serve's start-up
# lines (serve-*). English is byte for byte what the commands printed
# before they had catalogues.

## The hall config's problems (the key path is printed before them).
config-unknown-language = `{ $value }` is not a language: use zh-Hans, zh-Hant, en or vi (zh is zh-Hans)
config-unknown-rule-set = unknown rule set `{ $value }` (expected axf, roc or cxa)
config-empty-name = empty tournament name
config-not-a-date = `{ $value }` is not a date (YYYY-MM-DD)
config-not-a-time-zone = `{ $value }` is not an IANA time zone like Asia/Shanghai or Europe/Paris
config-not-a-federation = `{ $value }` is not a three-letter federation code like CHN
config-at-least-one = must be at least 1
config-no-such-round = round { $round } has no [[round]] section
config-unknown-start-order = "{ $value }" is not "rating" or "listed"
config-player-id-length = an id of 1 to { $max } characters is needed
config-player-id-twice = { $id } is also { $other }
config-empty-player = empty player name
config-rating-too-high = { $rating } is above { $max }
config-pairing-not-for-kind = "{ $value }" does not fit kind = { $kind } (swiss: "xiangqi" or "dutch"; round robins: "round-robin")
config-tiebreak-twice = tie-break "{ $code }" is listed twice
config-unknown-tiebreak = unknown tie-break code "{ $code }" (known: { $known })
config-empty-tiebreaks = an empty tie-break list; leave the key out for the rule set's order
config-utc-offset-gone = `utc_offset = "{ $value }"` is no longer read: give the hall's IANA time zone instead, e.g. `time_zone = "Asia/Shanghai"` (daylight saving then follows)
config-draw-over-win = more points for a draw than for a win ({ $draw } > { $win })
config-not-an-address = `{ $value }` is not an address like { $example }
config-empty-path = empty path
config-seconds-too-large = { $value } seconds is too large
config-minutes-too-large = { $value } minutes is too large
config-broadcast-listen-missing = missing: give the public listener's address, like 0.0.0.0:8080 (or leave out [broadcast])
config-seconds-out-of-range = { $value } is out of range: 0 to { $max } seconds
config-either-or = give either { $first } or { $second }, not both
config-at-most = must be at most { $max }
config-check-cap-over-plies = more counted checks than plies in the limit ({ $cap } > { $plies })
config-cycles-after-order = must be 1 (000 (G)3: 再循环一次, the default) or 3 (AXF-G3's wording: three more cycles), not { $value }
config-no-rounds = no [[round]] section: give at least the current round
config-round-zero = round numbers start at 1
config-round-beyond-planned = round { $round } is beyond tournament.rounds_planned = { $planned }
config-round-twice = round { $round } is also { $other }
config-not-a-time = `{ $value }` is not a time (HH:MM)
config-round-no-tables = round has no tables
config-id-two-names = id { $id } is given to { $name } here and to { $other } at { $at }
config-id-missing-here = { $name } has no id here but { $ids } elsewhere: give the id in every round
config-empty-id = empty id: leave the key out instead
config-id-too-long = id `{ $id }` is longer than { $max } characters (TRF columns 58-68)
config-id-spaces = id { $id } contains spaces or control characters
config-table-out-of-range = table { $table } is out of range 1..={ $max }
config-table-twice = duplicate table { $table } (also { $other })
config-player-twice = { $name } already plays at { $other }
config-plays-itself = { $name } cannot play against itself
config-teams-needed = team events (tournament.team_match) need both teams
config-no-token = no token (give token, token_file or token_env)
config-token-forms = give only one of `{ $what }`, `{ $what }_file` and `{ $what }_env`
config-env-not-set = environment variable { $var } is not set
config-empty-token = empty token
config-token-too-short = token too short ({ $bytes } bytes; at least { $min })
config-token-spaces = token contains whitespace or control characters
config-same-token = same token as { $other } (every token must be unique)
config-empty-account-name = empty name
config-name-twice = name { $name } is also used by { $other }
config-no-tables-assigned = no tables assigned
config-table-not-in-round = table { $table } is not in round { $round }
config-table-listed-twice = table { $table } listed twice
config-not-a-table-number = "{ $value }" is not a table number
config-ranges-empty-part = an empty part in "{ $ranges }"
config-range-backwards = range { $range } runs backwards (write { $low }-{ $high })
config-ranges-table-twice = table { $table } is given twice in "{ $ranges }"
config-ranges-no-table = "{ $ranges }" holds no table of round { $round }
config-tables-without-deputy = round { $round }: tables { $tables } have no deputy (the config's deputies_cover_all_tables asks for one at every table)
config-table-two-tokens = table { $table } has two tokens
config-derived-token-equals = derived token equals { $other }
config-table-no-token = table { $table } has no token (give [[credentials.table]] or credentials.table_secret)
config-store-no-url = no database named: give one of `url`, `url_env` and `url_file` (or leave [store] out for SQLite)
config-store-url-forms = give only one of `url`, `url_env` and `url_file`
config-empty-store-id = empty id
config-store-id-form = at most { $max } bytes without control characters
config-empty-url = empty URL
config-not-a-postgres-url = not a PostgreSQL URL (postgres://user@host:port/database)
config-clock-not-positive = must be more than 0
config-clock-no-periods = needs at least one period
config-clock-periods-increase = moves and minutes must increase from period to period
config-clock-empty-block = block moves and minutes must be more than 0
config-clock-base-twice = give either base_minutes or base_seconds, not both
config-clock-too-large = too large
config-clock-sudden-death-increment = sudden_death has no increment (use kind = "fischer")
config-clock-sudden-death-no-base = sudden_death needs a base time
config-clock-traditional-base = traditional controls use periods, not a base time or increment
config-clock-unknown-kind = "{ $value }" is not one of "fischer", "sudden_death", "rapid", "blitz", "traditional"
config-clock-traditional-keys = periods and block_* are only for kind = "traditional"
config-clock-internal-default = internal default missing
config-clock-too-many-moves = too many moves
config-clock-too-many-minutes = too many minutes
# A TOML error: `$detail` is the toml crate's own words (English only:
# the parser's text, not ours to translate), given as it is.
config-toml-at = TOML error at line { $line }, column { $column }: { $detail }
config-toml = TOML error: { $detail }
# A file that could not be read: `$why` is one of config-io-*.
config-cannot-read = cannot read config { $path }: { $why }
config-cannot-read-token-file = cannot read token file { $path }: { $why }
config-cannot-read-url-file = cannot read the URL file { $path }: { $why }
config-io-not-found = no such file or folder
config-io-permission-denied = permission denied
# `$detail` is the operating system's own words for the error.
config-io-other = { $detail }

## caipan check.
check-problems-found = { $file }: { $count } { $count ->
        [one] problem
       *[other] problems
    } found; nothing was served
check-valid = { $file }: the config is valid

## caipan serve.
serve-config = config { $file }
