//! Tests of the hall config: the worked example parses and every kind of
//! mistake is reported with its key path.

use std::path::{Path, PathBuf};

use config::{derive_table_token, HallConfig, RuleSet, SealedMoveBy, TimeControl, TournamentKind};

mod common;
use common::BASE;

fn example_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/hall.toml")
}

fn no_env(_: &str) -> Option<String> {
    None
}

fn parse(text: &str) -> Result<HallConfig, String> {
    HallConfig::from_toml_str(text, Path::new("/hall"), &no_env).map_err(|e| e.to_string())
}

fn error_of(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("config was accepted but should not be:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn base_config_is_valid() {
    let c = parse(BASE).unwrap();
    assert_eq!(c.rules, RuleSet::Axf);
    assert_eq!(c.tournament.kind, TournamentKind::RoundRobin);
    assert_eq!(
        c.table_numbers().into_iter().collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!(c.credentials.tables.len(), 4);
    assert_eq!(c.server.data_dir, Path::new("/hall/data/hall"));
    assert_eq!(c.rule_params.fouls.no_show_ms, 30 * 60_000);
    assert_eq!(c.rule_params.fouls.adjournment_late_ms, 15 * 60_000);
    assert_eq!(c.rule_params.sealed_move_by, SealedMoveBy::SideToMove);
    assert_eq!(c.rule_params.rule_set, RuleSet::Axf);
    assert_eq!(c.time_control, TimeControl::axf_fischer());
    assert_eq!(c.rule_params.limit.required_plies, 100);
    assert_eq!(c.rule_params.limit.check_cap, 10);
}

#[test]
fn worked_example_parses() {
    let c = HallConfig::load(&example_path()).unwrap();
    assert_eq!(c.rules, RuleSet::Axf);
    assert_eq!(c.current_round().number, 1);
    assert_eq!(c.current_round().tables.len(), 40);
    let t1 = c.pairing(1).unwrap();
    assert_eq!((t1.red.as_str(), t1.black.as_str()), ("胡荣华", "许银川"));
    assert_eq!(c.credentials.tables.len(), 40);
    assert_eq!(c.credentials.deputies.len(), 2);
    assert_eq!(c.credentials.deputies[0].tables.len(), 20);
    assert!(c.credentials.deputies[1].tables.contains(&40));
    assert_eq!(c.credentials.viewers.len(), 1);
    assert_eq!(c.server.listen.port(), 4433);
    assert!(c.server.data_dir.ends_with("data/hall"));
    // 80 different players.
    let mut players: Vec<&str> = c
        .current_round()
        .tables
        .iter()
        .flat_map(|p| [p.red.as_str(), p.black.as_str()])
        .collect();
    players.sort();
    players.dedup();
    assert_eq!(players.len(), 80);
    assert_eq!(c.hall_id().len(), 16);
    assert_eq!(c.config_sha256.len(), 64);
}

#[test]
fn debug_output_never_contains_a_token() {
    let c = HallConfig::load(&example_path()).unwrap();
    let debug = format!("{c:?}");
    let alt = format!("{c:#?}");
    let mut tokens = vec![c.credentials.chief.token.expose().to_string()];
    tokens.extend(
        c.credentials
            .deputies
            .iter()
            .map(|d| d.token.expose().to_string()),
    );
    tokens.extend(
        c.credentials
            .viewers
            .iter()
            .map(|v| v.token.expose().to_string()),
    );
    tokens.extend(
        c.credentials
            .tables
            .values()
            .map(|t| t.expose().to_string()),
    );
    assert_eq!(tokens.len(), 44);
    for t in &tokens {
        assert!(!debug.contains(t.as_str()), "token leaked in Debug");
        assert!(!alt.contains(t.as_str()), "token leaked in pretty Debug");
    }
    assert!(debug.contains("<redacted>"));
    assert!(!debug.contains("demo-hall-secret"));
}

#[test]
fn derived_table_tokens_are_stable_and_distinct() {
    let c = parse(BASE).unwrap();
    let secret = config::Token::new("test-hall-secret-0001");
    for (table, token) in &c.credentials.tables {
        assert_eq!(token, &derive_table_token(&secret, *table));
        assert_eq!(token.expose().len(), 32);
    }
    assert_ne!(
        derive_table_token(&secret, 1),
        derive_table_token(&secret, 2)
    );
}

#[test]
fn empty_player_name_names_the_key() {
    let text = BASE.replace("red = \"李来群\"", "red = \"  \"");
    let e = error_of(&text);
    assert!(
        e.contains("round[0].table[3].red: empty player name"),
        "{e}"
    );
}

#[test]
fn deputy_table_outside_the_round() {
    let text = BASE.replace("tables = [3, 4]", "tables = [3, 41]");
    let e = error_of(&text);
    assert!(
        e.contains("credentials.deputy[1].tables: table 41 is not in round 1"),
        "{e}"
    );
}

#[test]
fn deputy_table_listed_twice() {
    let text = BASE.replace("tables = [3, 4]", "tables = [3, 3]");
    let e = error_of(&text);
    assert!(
        e.contains("credentials.deputy[1].tables: table 3 listed twice"),
        "{e}"
    );
}

#[test]
fn duplicate_tokens_are_refused_without_printing_them() {
    let text = BASE.replace("viewer-token-0123456789", "chief-token-0123456789");
    let e = error_of(&text);
    assert!(
        e.contains("credentials.viewer[0].token: same token as credentials.chief.token"),
        "{e}"
    );
    assert!(!e.contains("chief-token-0123456789"), "token printed: {e}");
}

#[test]
fn duplicate_table_in_a_round() {
    let text = BASE.replace("table = 2\n", "table = 1\n");
    let e = error_of(&text);
    assert!(
        e.contains("round[0].table[1].table: duplicate table 1 (also round[0].table[0])"),
        "{e}"
    );
}

#[test]
fn player_at_two_tables() {
    let text = BASE.replace("black = \"赵国荣\"", "black = \"胡荣华\"");
    let e = error_of(&text);
    assert!(
        e.contains("round[0].table[1].black: 胡荣华 already plays at round[0].table[0]"),
        "{e}"
    );
}

#[test]
fn unknown_rule_set() {
    let e = error_of(&BASE.replace("rules = \"axf\"", "rules = \"fide\""));
    assert!(e.contains("rules: unknown rule set `fide`"), "{e}");
}

#[test]
fn unknown_key_is_an_error_naming_it() {
    let e = error_of(&BASE.replace("listen = ", "lisen = "));
    assert!(e.contains("server"), "{e}");
    assert!(e.contains("unknown field `lisen`"), "{e}");
}

#[test]
fn wrong_type_names_the_key_path() {
    let e = error_of(&BASE.replace("table = 3\n", "table = \"three\"\n"));
    assert!(e.starts_with("round[0].table[2].table:"), "{e}");
}

#[test]
fn bad_listen_address() {
    let e = error_of(&BASE.replace("127.0.0.1:4433", "localhost"));
    assert!(
        e.contains("server.listen: `localhost` is not an address"),
        "{e}"
    );
}

#[test]
fn bad_tournament_kind_and_date() {
    let e = error_of(&BASE.replace("kind = \"round_robin\"", "kind = \"knockout\""));
    assert!(e.starts_with("tournament.kind:"), "{e}");
    let e = error_of(&BASE.replace("2026-01-02", "2026/01/02"));
    assert!(
        e.contains("tournament.date: `2026/01/02` is not a date"),
        "{e}"
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = BASE
        .replace("red = \"李来群\"", "red = \"\"")
        .replace("rules = \"axf\"", "rules = \"xyz\"")
        .replace("tables = [1, 2]", "tables = [1, 99]");
    let e = error_of(&text);
    assert_eq!(e.lines().count(), 3, "{e}");
    assert!(e.contains("rules:"), "{e}");
    assert!(e.contains("round[0].table[3].red"), "{e}");
    assert!(e.contains("credentials.deputy[0].tables: table 99"), "{e}");
}

#[test]
fn token_from_environment() {
    let text = BASE.replace(
        "token = \"chief-token-0123456789\"",
        "token_env = \"CAIPAN_TOKEN_CHIEF\"",
    );
    let e = error_of(&text);
    assert!(
        e.contains(
            "credentials.chief.token_env: environment variable CAIPAN_TOKEN_CHIEF is not set"
        ),
        "{e}"
    );
    let env = |v: &str| (v == "CAIPAN_TOKEN_CHIEF").then(|| "chief-from-env-0123456".to_string());
    let c = HallConfig::from_toml_str(&text, Path::new("/hall"), &env).unwrap();
    assert_eq!(c.credentials.chief.token.expose(), "chief-from-env-0123456");
}

#[test]
fn token_from_file_relative_to_the_config() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("secrets")).unwrap();
    std::fs::write(
        dir.path().join("secrets/viewer.token"),
        "viewer-file-token-42\n",
    )
    .unwrap();
    let text = BASE.replace(
        "token = \"viewer-token-0123456789\"",
        "token_file = \"secrets/viewer.token\"",
    );
    let c = HallConfig::from_toml_str(&text, dir.path(), &no_env).unwrap();
    assert_eq!(
        c.credentials.viewers[0].token.expose(),
        "viewer-file-token-42"
    );

    let e = HallConfig::from_toml_str(
        &text.replace("viewer.token", "missing.token"),
        dir.path(),
        &no_env,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("credentials.viewer[0].token_file: cannot read token file"),
        "{e}"
    );
}

#[test]
fn two_token_sources_or_none_or_short() {
    let e = error_of(&BASE.replace(
        "token = \"chief-token-0123456789\"",
        "token = \"chief-token-0123456789\"\ntoken_env = \"X\"",
    ));
    assert!(
        e.contains("credentials.chief: give only one of `token`"),
        "{e}"
    );
    let e = error_of(&BASE.replace("token = \"chief-token-0123456789\"", ""));
    assert!(e.contains("credentials.chief: no token"), "{e}");
    let e = error_of(&BASE.replace("chief-token-0123456789", "short"));
    assert!(
        e.contains("credentials.chief.token: token too short"),
        "{e}"
    );
}

#[test]
fn table_without_token_when_no_secret() {
    let text = BASE.replace("table_secret = \"test-hall-secret-0001\"", "")
        + "\n[[credentials.table]]\ntable = 1\ntoken = \"table-one-token-000001\"\n";
    // [[credentials.table]] after [[round]] would attach to the round; put it
    // in the credentials section instead.
    let text = text.replace(
        "\n[[credentials.table]]\ntable = 1\ntoken = \"table-one-token-000001\"\n",
        "",
    );
    let text = text.replace(
        "[[credentials.viewer]]",
        "[[credentials.table]]\ntable = 1\ntoken = \"table-one-token-000001\"\n\n[[credentials.viewer]]",
    );
    let e = error_of(&text);
    for t in [2, 3, 4] {
        assert!(
            e.contains(&format!("credentials: table {t} has no token")),
            "{e}"
        );
    }
    assert!(!e.contains("table 1 has no token"), "{e}");
}

#[test]
fn explicit_table_token_overrides_the_derived_one() {
    let text = BASE.replace(
        "[[credentials.viewer]]",
        "[[credentials.table]]\ntable = 2\ntoken = \"table-two-token-000002\"\n\n[[credentials.viewer]]",
    );
    let c = parse(&text).unwrap();
    assert_eq!(c.credentials.tables[&2].expose(), "table-two-token-000002");
    let e = error_of(&text.replace("table = 2\ntoken", "table = 9\ntoken"));
    assert!(
        e.contains("credentials.table[0].table: table 9 is not in round 1"),
        "{e}"
    );
}

#[test]
fn time_controls() {
    let with_tc = |tc: &str| BASE.replace("[server]", &format!("[time_control]\n{tc}\n\n[server]"));
    let c = parse(&with_tc("kind = \"traditional\"")).unwrap();
    assert_eq!(c.time_control, TimeControl::axf_traditional());
    let c = parse(&with_tc(
        "kind = \"rapid\"\nbase_minutes = 15\nincrement_seconds = 10",
    ))
    .unwrap();
    assert_eq!(
        c.time_control,
        TimeControl::Fischer {
            base_ms: 15 * 60_000,
            increment_ms: 10_000
        }
    );
    let e = error_of(&with_tc("kind = \"hourglass\""));
    assert!(e.starts_with("time_control.kind:"), "{e}");
    let e = error_of(&with_tc(
        "kind = \"fischer\"\nbase_minutes = 80\nbase_seconds = 10",
    ));
    assert!(e.starts_with("time_control.base_seconds:"), "{e}");
    let e = error_of(&with_tc("kind = \"fischer\"\nbase_minuts = 80"));
    assert!(e.contains("unknown field `base_minuts`"), "{e}");
    assert!(e.starts_with("time_control"), "{e}");
}

#[test]
fn rule_set_defaults_and_overrides_of_the_natural_limit() {
    let c = parse(&BASE.replace("rules = \"axf\"", "rules = \"roc\"")).unwrap();
    assert_eq!(c.rules, RuleSet::Roc);
    assert_eq!(c.rule_params, RuleSet::Roc.params());
    let c = parse(&BASE.replace(
        "[server]",
        "[natural_limit]\nrequired_plies = 120\n\n[server]",
    ))
    .unwrap();
    assert_eq!(c.rule_params.limit.required_plies, 120);
    assert_eq!(c.rule_params.limit.check_cap, 10);
    let e = error_of(&BASE.replace(
        "[server]",
        "[natural_limit]\nrequired_plies = 0\n\n[server]",
    ));
    assert!(
        e.starts_with("natural_limit.required_plies: must be at least 1"),
        "{e}"
    );
    let e = error_of(&BASE.replace("[server]", "[natural_limit]\nplies = 100\n\n[server]"));
    assert!(e.contains("unknown field `plies`"), "{e}");
}

#[test]
fn arbitration_settings() {
    let c = parse(&BASE.replace(
        "[server]",
        "[arbitration]\nsealed_move_writer = \"red\"\nno_show_minutes = 20\nadjourn_late_minutes = 10\n\n[server]",
    ))
    .unwrap();
    assert_eq!(c.rule_params.sealed_move_by, SealedMoveBy::Red);
    assert_eq!(c.rule_params.fouls.no_show_ms, 20 * 60_000);
    assert_eq!(c.rule_params.fouls.adjournment_late_ms, 10 * 60_000);
    let e = error_of(&BASE.replace("[server]", "[arbitration]\nno_show_minutes = 0\n\n[server]"));
    assert!(
        e.contains("arbitration.no_show_minutes: must be at least 1"),
        "{e}"
    );
    let e = error_of(&BASE.replace(
        "[server]",
        "[arbitration]\nsealed_move_writer = \"black\"\n\n[server]",
    ));
    assert!(e.starts_with("arbitration.sealed_move_writer:"), "{e}");
}

#[test]
fn cycles_after_order_is_one_or_three() {
    let c = parse(BASE).unwrap();
    assert_eq!(
        c.rule_params.cycles_after_order.count(),
        1,
        "000 (G)3 by default"
    );
    let c = parse(&BASE.replace(
        "[server]",
        "[arbitration]\ncycles_after_order = 3\n\n[server]",
    ))
    .unwrap();
    assert_eq!(c.rule_params.cycles_after_order.count(), 3);
    let e = error_of(&BASE.replace(
        "[server]",
        "[arbitration]\ncycles_after_order = 2\n\n[server]",
    ));
    assert!(
        e.starts_with("arbitration.cycles_after_order: must be 1 (000 (G)3"),
        "{e}"
    );
    assert!(e.contains("not 2"), "{e}");
}

#[test]
fn current_round_must_exist_and_team_events_need_teams() {
    let e = error_of(&BASE.replace(
        "kind = \"round_robin\"",
        "kind = \"round_robin\"\ncurrent_round = 2",
    ));
    assert!(
        e.contains("tournament.current_round: round 2 has no [[round]] section"),
        "{e}"
    );
    let e = error_of(&BASE.replace(
        "kind = \"round_robin\"",
        "kind = \"round_robin\"\n\n[tournament.team_match]\nboards = 4",
    ));
    assert!(
        e.contains(
            "round[0].table[0].red_team: team events (tournament.team_match) need both teams"
        ),
        "{e}"
    );
}

#[test]
fn missing_file_is_a_read_error() {
    let e = HallConfig::load(Path::new("/nonexistent/hall.toml")).unwrap_err();
    assert!(e
        .to_string()
        .contains("cannot read config /nonexistent/hall.toml"));
}

#[test]
fn without_a_store_section_the_hall_is_on_sqlite() {
    let c = parse(BASE).unwrap();
    assert!(c.store.is_none());
    assert_eq!(c.store_hall_id(), c.hall_id());
}

#[test]
fn store_url_from_the_config_the_environment_or_a_file() {
    // Inline, with the defaults: hall = the derived id, tournament = the name.
    let text = format!("{BASE}\n[store]\nurl = \"postgres://hall:pw@db:5432/caipan\"\n");
    let c = parse(&text).unwrap();
    let s = c.store.clone().unwrap();
    assert_eq!(s.url.expose(), "postgres://hall:pw@db:5432/caipan");
    assert_eq!(s.hall, c.hall_id());
    assert_eq!(s.tournament, "测试赛");
    assert!(
        !format!("{c:?}").contains("pw@"),
        "Debug shows the password"
    );

    // From the environment, with the hall and tournament named.
    let text = format!(
        "{BASE}\n[store]\nurl_env = \"CAIPAN_STORE_URL\"\nhall = \"room-b\"\ntournament = \"2026-national\"\n"
    );
    let e = error_of(&text);
    assert!(
        e.contains("store.url_env: environment variable CAIPAN_STORE_URL is not set"),
        "{e}"
    );
    let env = |v: &str| (v == "CAIPAN_STORE_URL").then(|| "postgres://h@db/c\n".to_string());
    let c = HallConfig::from_toml_str(&text, Path::new("/hall"), &env).unwrap();
    let s = c.store.clone().unwrap();
    assert_eq!(
        (s.url.expose(), s.hall.as_str(), s.tournament.as_str()),
        ("postgres://h@db/c", "room-b", "2026-national")
    );
    assert_eq!(c.store_hall_id(), "room-b");

    // From a file next to the config.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("store.url"), "postgres://f@db/c\n").unwrap();
    let text = format!("{BASE}\n[store]\nurl_file = \"store.url\"\n");
    let c = HallConfig::from_toml_str(&text, dir.path(), &no_env).unwrap();
    assert_eq!(c.store.unwrap().url.expose(), "postgres://f@db/c");
    let e = HallConfig::from_toml_str(&text.replace("store.url", "gone.url"), dir.path(), &no_env)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("store.url_file: cannot read the URL file"),
        "{e}"
    );
}

#[test]
fn store_section_mistakes_name_the_key() {
    let e = error_of(&format!("{BASE}\n[store]\nhall = \"a\"\n"));
    assert!(e.starts_with("store: no database named"), "{e}");
    let e = error_of(&format!(
        "{BASE}\n[store]\nurl = \"postgres://a@b/c\"\nurl_env = \"X\"\n"
    ));
    assert!(
        e.starts_with("store: give only one of `url`, `url_env` and `url_file`"),
        "{e}"
    );
    let e = error_of(&format!("{BASE}\n[store]\nurl = \"mysql://a@b/c\"\n"));
    assert!(e.starts_with("store.url: not a PostgreSQL URL"), "{e}");
    let e = error_of(&format!(
        "{BASE}\n[store]\nurl = \"postgres://a@b/c\"\nhall = \" \"\n"
    ));
    assert!(e.starts_with("store.hall: empty id"), "{e}");
    let e = error_of(&format!(
        "{BASE}\n[store]\nurl = \"postgres://a@b/c\"\npassword = \"x\"\n"
    ));
    assert!(e.contains("store") && e.contains("password"), "{e}");
}

#[test]
fn player_ids_are_checked() {
    // Longer than TRF's 11 columns.
    let text = BASE.replace(
        "red = \"胡荣华\"\n",
        "red = \"胡荣华\"\nred_id = \"CHN-00000001\"\n",
    );
    let e = error_of(&text);
    assert!(
        e.contains("round[0].table[0].red_id: id `CHN-00000001` is longer than 11 characters"),
        "{e}"
    );
    // Empty, or with a space.
    let e = error_of(&BASE.replace("red = \"胡荣华\"\n", "red = \"胡荣华\"\nred_id = \"\"\n"));
    assert!(e.contains("round[0].table[0].red_id: empty id"), "{e}");
    let e = error_of(&BASE.replace(
        "red = \"胡荣华\"\n",
        "red = \"胡荣华\"\nred_id = \"11 02\"\n",
    ));
    assert!(e.contains("contains spaces"), "{e}");
    // One id, two names.
    let e = error_of(&BASE.replace(
        "red = \"胡荣华\"\nblack = \"许银川\"\n",
        "red = \"胡荣华\"\nred_id = \"1001\"\nblack = \"许银川\"\nblack_id = \"1001\"\n",
    ));
    assert!(
        e.contains("id 1001 is given to 许银川 here and to 胡荣华"),
        "{e}"
    );
    // An id given in one round but not the next.
    let two_rounds = format!(
        "{}\n[[round]]\nnumber = 2\n[[round.table]]\ntable = 1\nred = \"许银川\"\nblack = \"胡荣华\"\n",
        BASE.replace("red = \"胡荣华\"\n", "red = \"胡荣华\"\nred_id = \"1001\"\n")
    );
    let e = error_of(&two_rounds);
    assert!(
        e.contains("round[1].table[0].black_id: 胡荣华 has no id here but 1001 elsewhere"),
        "{e}"
    );
}

#[test]
fn two_players_of_one_name_with_different_ids_may_meet() {
    let text = BASE.replace(
        "red = \"胡荣华\"\nblack = \"许银川\"\n",
        "red = \"王伟\"\nred_id = \"1001\"\nblack = \"王伟\"\nblack_id = \"1002\"\n",
    );
    let c = parse(&text).expect("two 王伟 with their ids");
    let p = c.pairing(1).unwrap();
    assert_eq!((p.red_key(), p.black_key()), ("1001", "1002"));
    // Without ids the same name twice is one player against itself.
    let e = error_of(&BASE.replace("black = \"许银川\"", "black = \"胡荣华\""));
    assert!(e.contains("cannot play against itself"), "{e}");
}

#[test]
fn federation_is_a_three_letter_code() {
    let ok = BASE.replace(
        "kind = \"round_robin\"\n",
        "kind = \"round_robin\"\nfederation = \"CHN\"\n",
    );
    assert_eq!(
        parse(&ok).unwrap().tournament.federation.as_deref(),
        Some("CHN")
    );
    let e = error_of(&BASE.replace(
        "kind = \"round_robin\"\n",
        "kind = \"round_robin\"\nfederation = \"China\"\n",
    ));
    assert!(
        e.contains("tournament.federation: `China` is not a three-letter"),
        "{e}"
    );
}

#[test]
fn time_zone_replaces_utc_offset_and_dates_must_exist() {
    let with = |line: &str| {
        BASE.replace(
            "kind = \"round_robin\"\n",
            &format!("kind = \"round_robin\"\n{line}\n"),
        )
    };
    let c = parse(&with("time_zone = \"Asia/Shanghai\"")).expect("an IANA zone");
    assert_eq!(c.tournament.time_zone.as_deref(), Some("Asia/Shanghai"));
    let e = error_of(&with("time_zone = \"China Standard Time\""));
    assert!(
        e.contains("tournament.time_zone: `China Standard Time` is not an IANA time zone"),
        "{e}"
    );
    let e = error_of(&with("utc_offset = \"+08:00\""));
    assert!(e.contains("tournament.utc_offset"), "{e}");
    assert!(e.contains("time_zone = \"Asia/Shanghai\""), "{e}");
    let e = error_of(&BASE.replace("date = \"2026-01-02\"", "date = \"2026-02-31\""));
    assert!(
        e.contains("tournament.date: `2026-02-31` is not a date"),
        "{e}"
    );
}

#[test]
fn a_round_start_on_the_daylight_saving_change_day() {
    let text = BASE
        .replace(
            "kind = \"round_robin\"\n",
            "kind = \"round_robin\"\ntime_zone = \"Europe/Berlin\"\n",
        )
        .replace(
            "[[round]]\nnumber = 1\n",
            "[[round]]\nnumber = 1\ndate = \"2026-03-29\"\nstart = \"09:00\"\n",
        );
    let c = parse(&text).unwrap();
    // 09:00 CEST (+02:00, the clocks went forward at 02:00) = 07:00 UTC.
    assert_eq!(c.round_start_ms(), Some(1_774_767_600_000));
}

#[test]
fn broadcast_section_is_optional_and_checked() {
    assert_eq!(parse(BASE).expect("valid").broadcast, None);
    let ok = format!("{BASE}\n[broadcast]\nlisten = \"127.0.0.1:8080\"\ndelay_s = 15\n");
    let b = parse(&ok).expect("valid").broadcast.expect("a broadcast");
    assert_eq!(b.listen.to_string(), "127.0.0.1:8080");
    assert_eq!(b.delay_s, 15);
    let default_delay = format!("{BASE}\n[broadcast]\nlisten = \"0.0.0.0:8080\"\n");
    assert_eq!(
        parse(&default_delay)
            .expect("valid")
            .broadcast
            .map(|b| b.delay_s),
        Some(0)
    );
    let e = error_of(&format!("{BASE}\n[broadcast]\nlisten = \"here\"\n"));
    assert!(e.contains("broadcast.listen") && e.contains("here"), "{e}");
    let e = error_of(&format!("{BASE}\n[broadcast]\ndelay_s = 3\n"));
    assert!(
        e.contains("broadcast.listen") && e.contains("missing"),
        "{e}"
    );
    for bad in ["-1", "3601"] {
        let e = error_of(&format!(
            "{BASE}\n[broadcast]\nlisten = \"127.0.0.1:8080\"\ndelay_s = {bad}\n"
        ));
        assert!(e.contains("broadcast.delay_s") && e.contains(bad), "{e}");
    }
    let e = error_of(&format!(
        "{BASE}\n[broadcast]\nlisten = \"127.0.0.1:8080\"\ndelay = 3\n"
    ));
    assert!(e.contains("delay"), "{e}");
}

/// Table numbers are the wire's u16 (issue 40): 10,000 and 65,535 are
/// tables of the hall; 65,536 and 0 are validation errors naming the key
/// and the number, never a table silently left out of the hall.
#[test]
fn table_numbers_go_to_the_wires_limit_and_no_further() {
    let with_table_4_as = |n: u32| {
        BASE.replace(
            "table = 4\nred = \"李来群\"",
            &format!("table = {n}\nred = \"李来群\""),
        )
        .replace("tables = [3, 4]", &format!("tables = [3, {n}]"))
    };
    for n in [10_000u32, 65_535] {
        let c = parse(&with_table_4_as(n)).unwrap_or_else(|e| panic!("table {n}: {e}"));
        assert!(c.table_numbers().contains(&n), "table {n}");
        let hall = config::initial::hall_from_config(&c);
        let t = u16::try_from(n).unwrap();
        assert!(hall.table(t).is_some(), "table {n} is in the hall");
        assert!(hall.table(4).is_none());
    }
    let e = error_of(&with_table_4_as(65_536));
    assert!(
        e.contains("round[0].table[3].table: table 65536 is out of range 1..=65535"),
        "{e}"
    );
    let e = error_of(&with_table_4_as(0));
    assert!(e.contains("table 0 is out of range 1..=65535"), "{e}");
}

#[test]
fn deputy_tables_as_ranges_cover_those_numbers_in_every_round() {
    let text = BASE.replace("tables = [3, 4]", "tables = \"3-4, 10-12\"");
    let c = parse(&text).unwrap();
    let d = &c.credentials.deputies[1];
    assert_eq!(
        d.tables.iter().copied().collect::<Vec<_>>(),
        vec![3, 4, 10, 11, 12]
    );
    assert_eq!(
        d.assignment,
        config::deputies::Assignment::Ranges("3-4, 10-12".into())
    );
    assert_eq!(
        c.credentials.deputies[0].assignment,
        config::deputies::Assignment::Same
    );
    // In a round played on tables 1, 2, 3 the second deputy has table 3.
    let round: std::collections::BTreeSet<u32> = [1, 2, 3].into();
    let r = config::deputies::check(&c.credentials, &round);
    assert_eq!(r.tables[1], ("刘建华".to_string(), vec![3]));
    assert!(r.uncovered.is_empty() && r.refusal(2).is_none());
    // On tables 1, 2 only: 刘建华 stands by (reported, not refused).
    let round: std::collections::BTreeSet<u32> = [1, 2].into();
    let r = config::deputies::check(&c.credentials, &round);
    assert_eq!(r.idle().collect::<Vec<_>>(), vec!["刘建华"]);
    assert!(r.refusal(2).is_none());
}

#[test]
fn bad_deputy_ranges_are_named() {
    for (tables, problem) in [
        (
            "\"4-3\"",
            "credentials.deputy[1].tables: range 4-3 runs backwards",
        ),
        (
            "\"3-4, 4\"",
            "credentials.deputy[1].tables: table 4 is given twice",
        ),
        (
            "\"20-30\"",
            "credentials.deputy[1].tables: \"20-30\" holds no table of round 1",
        ),
        (
            "\"3-x\"",
            "credentials.deputy[1].tables: \"x\" is not a table number",
        ),
        ("\"1-70000\"", "table 70000 is out of range 1..=65535"),
        (
            "3",
            "a list of table numbers ([1, 2, 3]) or table ranges (\"1-20\")",
        ),
    ] {
        let e = error_of(&BASE.replace("tables = [3, 4]", &format!("tables = {tables}")));
        assert!(e.contains(problem), "{tables}: {e}");
    }
}

#[test]
fn full_coverage_asked_names_the_tables_without_a_deputy() {
    let asked = BASE.replace(
        "table_secret = \"test-hall-secret-0001\"",
        "table_secret = \"test-hall-secret-0001\"\ndeputies_cover_all_tables = true",
    );
    let c = parse(&asked).unwrap();
    assert!(c.credentials.deputies_cover_all_tables);
    let e = error_of(&asked.replace("tables = [3, 4]", "tables = \"3\""));
    assert!(
        e.contains("credentials.deputies_cover_all_tables: round 1: tables 4 have no deputy"),
        "{e}"
    );
    // Not asked: a table without a deputy is the chief's.
    parse(&BASE.replace("tables = [3, 4]", "tables = \"3\"")).unwrap();
    // A later round on tables the deputies do not cover is refused.
    let round: std::collections::BTreeSet<u32> = [1, 4, 5].into();
    let mut creds = c.credentials.clone();
    creds.deputies[1].tables = [3].into();
    let r = config::deputies::check(&creds, &round);
    assert_eq!(r.uncovered, vec![4, 5]);
    assert!(
        i18n::texts::english(&r.refusal(2).unwrap()).contains("round 2: tables 4-5 have no deputy")
    );
}

#[test]
fn the_halls_language_is_optional_and_one_of_the_four() {
    use i18n::Lang;
    assert_eq!(parse(BASE).unwrap().tournament.language, None);
    for (value, want) in [
        ("zh-Hans", Lang::ZhHans),
        ("zh", Lang::ZhHans),
        ("zh-Hant", Lang::ZhHant),
        ("en", Lang::En),
        ("vi", Lang::Vi),
    ] {
        let text = BASE.replace(
            "kind = \"round_robin\"",
            &format!("kind = \"round_robin\"\nlanguage = \"{value}\""),
        );
        assert_eq!(
            parse(&text).unwrap().tournament.language,
            Some(want),
            "{value}"
        );
    }
    let bad = BASE.replace(
        "kind = \"round_robin\"",
        "kind = \"round_robin\"\nlanguage = \"fr\"",
    );
    let e = error_of(&bad);
    assert!(
        e.contains(
            "tournament.language: `fr` is not a language: use zh-Hans, zh-Hant, en or vi (zh is zh-Hans)"
        ),
        "{e}"
    );
    // The problem is typed: its words in every language name the value.
    let Err(config::ConfigError::Invalid(problems)) =
        HallConfig::from_toml_str(&bad, Path::new("/hall"), &no_env)
    else {
        panic!("a bad language is a validation problem");
    };
    let p = &problems[0];
    assert_eq!(p.key, "tournament.language");
    let vi = p.line(Lang::Vi);
    assert!(
        vi.starts_with("tournament.language: `fr` không phải là ngôn ngữ"),
        "{vi}"
    );
    let hant = p.line(Lang::ZhHant);
    assert!(hant.contains("`fr` 不是可用的語言"), "{hant}");
    assert_eq!(p.line(Lang::En), p.to_string());
}
