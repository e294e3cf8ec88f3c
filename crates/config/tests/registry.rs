//! The player registry `[[tournament.player]]`: start numbers by rating
//! (or as listed), pairings naming players by id, bad entries named by
//! key, `tournament.pairing`, and configs without a registry loading as
//! before.

use std::path::Path;

use config::registry::PairingSystem;
use config::HallConfig;

fn no_env(_: &str) -> Option<String> {
    None
}

const HEAD: &str = r#"
[tournament]
name = "测试赛"
kind = "swiss"
"#;

const TAIL: &str = r#"
[credentials]
table_secret = "test-hall-secret-0001"

[credentials.chief]
name = "王志明"
token = "chief-token-0123456789"

[[round]]
number = 1

[[round.table]]
table = 1
red = "P3"
black = "P1"
"#;

const PLAYERS: &str = r#"
[[tournament.player]]
id = "P1"
name = "许银川"
rating = 2600
club = "广东"

[[tournament.player]]
id = "P2"
name = "吕钦"

[[tournament.player]]
id = "P3"
name = "胡荣华"
rating = 2650
bye = false
"#;

fn load(extra: &str, players: &str) -> Result<HallConfig, String> {
    let text = format!("{HEAD}{extra}{players}{TAIL}");
    HallConfig::from_toml_str(&text, Path::new("."), &no_env).map_err(|e| e.to_string())
}

#[test]
fn start_numbers_follow_rating_then_name_or_the_list() {
    let c = load("", PLAYERS).expect("valid");
    let order: Vec<(u32, &str)> = c
        .tournament
        .players
        .iter()
        .map(|p| (p.start_number, p.id.as_str()))
        .collect();
    assert_eq!(order, vec![(1, "P3"), (2, "P1"), (3, "P2")]);
    assert!(!c.tournament.players[0].bye_eligible);
    assert_eq!(c.tournament.pairing, PairingSystem::Xiangqi);
    let c = load("start_order = \"listed\"\npairing = \"dutch\"\n", PLAYERS).expect("valid");
    let ids: Vec<&str> = c.tournament.players.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, vec!["P1", "P2", "P3"]);
    assert_eq!(c.tournament.pairing, PairingSystem::Dutch);
}

#[test]
fn pairings_may_name_players_by_id() {
    let c = load("", PLAYERS).expect("valid");
    let t = &c.rounds[0].tables[0];
    assert_eq!(
        (t.red.as_str(), t.red_id.as_deref()),
        ("胡荣华", Some("P3"))
    );
    assert_eq!(
        (t.black.as_str(), t.black_id.as_deref()),
        ("许银川", Some("P1"))
    );
}

#[test]
fn configs_without_a_registry_load_as_before() {
    let c = load("", "").expect("valid");
    assert!(c.tournament.players.is_empty());
    let t = &c.rounds[0].tables[0];
    assert_eq!((t.red.as_str(), t.red_id.as_deref()), ("P3", None));
}

#[test]
fn bad_entries_are_named_by_key() {
    let dup = PLAYERS.replace("id = \"P2\"", "id = \"P1\"");
    let e = load("", &dup).expect_err("duplicate id");
    assert!(
        e.contains("tournament.player[1].id") && e.contains("P1"),
        "{e}"
    );
    let e = load("", &PLAYERS.replace("rating = 2600", "rating = 26000")).expect_err("rating");
    assert!(e.contains("tournament.player[0].rating"), "{e}");
    let e = load("start_order = \"age\"\n", PLAYERS).expect_err("start order");
    assert!(e.contains("tournament.start_order"), "{e}");
    let e = load("pairing = \"monrad\"\n", PLAYERS).expect_err("pairing");
    assert!(e.contains("tournament.pairing"), "{e}");
    let e = load("", &PLAYERS.replace("name = \"吕钦\"", "name = \"\"")).expect_err("name");
    assert!(e.contains("tournament.player[1].name"), "{e}");
}

/// `tournament.tiebreaks` (issue 34): the codes read in order, absent
/// means the rule set's order, an unknown, repeated or empty list refused
/// naming the key and the code.
#[test]
fn the_tie_break_list_is_read_and_checked() {
    use rulebook::standings::TieBreak;
    let c = load("tiebreaks = [\"BH\", \"sb\", \"DE\"]\n", PLAYERS).expect("loads");
    assert_eq!(
        c.tournament.tiebreaks,
        Some(vec![
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::DirectEncounter
        ])
    );
    assert_eq!(load("", PLAYERS).expect("loads").tournament.tiebreaks, None);
    let e = load("tiebreaks = [\"BH\", \"XYZ\"]\n", PLAYERS).expect_err("unknown");
    assert!(
        e.contains("tournament.tiebreaks") && e.contains("\"XYZ\""),
        "{e}"
    );
    let e = load("tiebreaks = [\"BH\", \"bh\"]\n", PLAYERS).expect_err("twice");
    assert!(e.contains("\"bh\" is listed twice"), "{e}");
    let e = load("tiebreaks = []\n", PLAYERS).expect_err("empty");
    assert!(e.contains("empty tie-break list"), "{e}");
}
