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

## caipan check.
check-problems-found = { $file }: { $count } { $count ->
        [one] problem
       *[other] problems
    } found; nothing was served
check-valid = { $file }: the config is valid

## caipan serve.
serve-config = config { $file }
