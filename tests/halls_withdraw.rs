//! Withdrawals and late entries on PostgreSQL (issue 36), end to end over
//! real QUIC on a real database (`CAIPAN_TEST_PG_URL`, or a cluster the
//! test starts; with `CI` set, no PostgreSQL is a failure).
//!
//! A single hall: round 1 is played, round 2 paired and published, then
//! withdrawn (the hall is back in round 1, every result in); the chief
//! enters 王五 late and withdraws 杨官璘 from round 2; a restart keeps the
//! withdrawal and both; `N` pairs round 2 again with 王五 and without
//! 杨官璘, it is published, and a restart plays it; the exported TRF
//! (`caipan export --store`) lists 王五 with 0 points for round 1
//! (`0000 - Z`) and 杨官璘 absent (`XXZ`).
//!
//! Two halls of one tournament (room-a pairs, tables 1-2; room-b, tables
//! 3-4): round 2 published by room-a is taken by room-b; room-a's chief
//! withdraws it and room-b goes back to round 1 by itself (audited as the
//! tournament chief's); room-b's chief can neither withdraw the round nor
//! enter or withdraw a player (room-a pairs); room-a enters 王五 and
//! withdraws 杨官璘 (a player of room-b); round 2 is paired again with
//! them, published, and room-b takes its new part, which a restart of
//! room-b keeps.

mod support;

use std::time::Duration;

use proto::{Command, GameResult, RoundProposal, ServerMsg, TableStatus};
use server::RunningServer;
use store::postgres::cluster::test_database;
use support::{caipan, close_round, connect, table_token, Hall, Round, CHIEF};

const TOURNAMENT: &str = "2026-withdrawals";
const ALL: [(&str, &str); 4] = [
    ("胡荣华", "许银川"),
    ("吕钦", "赵国荣"),
    ("徐天红", "柳大华"),
    ("李来群", "杨官璘"),
];

/// Hall `id` of the tournament, its round 1 at tables `first..`.
fn hall(url: &str, id: &str, first: u16, games: &[(&str, &str)]) -> Hall {
    let mut h = Hall::new("撤回测试赛", "127.0.0.1:0");
    let mut round = Round::new(1, games);
    round.first_table = first;
    h.rounds = vec![round];
    h.table_tokens = (first..first + games.len() as u16)
        .map(|t| (t, table_token(t)))
        .collect();
    h.on_postgres(url, id, TOURNAMENT)
}

/// The chief's `PairNextRound`: the proposal, or the refusal's English.
async fn pair(s: &RunningServer) -> Result<RoundProposal, String> {
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    chief
        .send(proto::ClientMsg::Command {
            id: 1,
            command: Command::PairNextRound,
        })
        .await;
    chief
        .until(|m| match m {
            ServerMsg::RoundProposal { proposal, .. } => Some(Ok((**proposal).clone())),
            ServerMsg::Error(e) => Some(Err(i18n::texts::english(&e.message))),
            _ => None,
        })
        .await
}

/// The chief's command `command` in hall `s`: its note, or the refusal.
async fn chief_says(s: &RunningServer, command: Command) -> Result<String, String> {
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    chief.command(7, command).await.map_err(|(_, why)| why)
}

fn publish(p: &RoundProposal) -> Command {
    Command::PublishRound {
        round: Box::new(p.clone()),
        changes: Vec::new(),
    }
}

fn withdraw_round(round: u32, reason: &str) -> Command {
    Command::WithdrawRound {
        round,
        reason: reason.into(),
    }
}

fn entry() -> Command {
    Command::EnterPlayer {
        name: "王五".into(),
        id: Some("CHN-42".into()),
        rating: Some(2150),
        federation: Some("CHN".into()),
        club: None,
    }
}

fn leave(player: &str) -> Command {
    Command::WithdrawPlayer {
        player: player.into(),
        from_round: 2,
        reason: "因病退赛".into(),
    }
}

/// Waits (at most 15 s) until hall `s` plays `round`.
async fn until_round(s: &RunningServer, round: u32) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while s.snapshot().map(|v| v.round) != Some(round) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hall did not move to round {round}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Hall `s` plays round 1 again, every game of it finished.
fn back_in_round_1(s: &RunningServer, when: &str) {
    let view = s.snapshot().expect("the hall");
    assert_eq!(view.round, 1, "{when}");
    for t in &view.tables {
        assert!(
            matches!(t.status, TableStatus::Finished { .. }),
            "{when}: {t:?}"
        );
    }
}

/// The names a proposal pairs (boards and bye), sorted.
fn paired_names(p: &RoundProposal) -> Vec<String> {
    let mut names: Vec<String> = p
        .boards
        .iter()
        .flat_map(|b| [b.red.clone(), b.black.clone()])
        .chain(p.bye.clone())
        .collect();
    names.sort();
    names
}

/// Round 2 pairs 王五 (with his id) and not 杨官璘, eight players.
fn pairs_entrant_not_withdrawn(p: &RoundProposal, when: &str) {
    let names = paired_names(p);
    assert_eq!(p.round, 2, "{when}");
    assert!(names.iter().any(|n| n == "王五"), "{when}: {names:?}");
    assert!(!names.iter().any(|n| n == "杨官璘"), "{when}: {names:?}");
    assert_eq!(names.len(), 8, "{when}: {names:?}");
    let b = p
        .boards
        .iter()
        .find(|b| b.red == "王五" || b.black == "王五")
        .expect("王五's board");
    let id = if b.red == "王五" {
        &b.red_id
    } else {
        &b.black_id
    };
    assert_eq!(id.as_deref(), Some("CHN-42"), "{when}: {b:?}");
}

/// The tournament's TRF of round 1 lists 王五 late (0 points, `0000 - Z`)
/// and 杨官璘 absent from round 2 (`XXZ`), nine players.
fn trf_shows_both(url: &str) {
    let trf = caipan(&[
        "export",
        "--store",
        url,
        "--tournament",
        TOURNAMENT,
        "--round",
        "1",
        "--format",
        "trf",
    ]);
    let line = |name: &str| {
        trf.lines()
            .find(|l| l.starts_with("001") && l.contains(name))
            .unwrap_or_else(|| panic!("{name}: {trf}"))
            .to_string()
    };
    let entrant = line("王五");
    assert!(entrant.contains("CHN-42"), "{entrant}");
    assert!(entrant.ends_with("0000 - Z"), "{entrant}");
    let withdrawn = line("杨官璘")[4..8].trim().to_string();
    assert!(
        trf.lines().any(|l| l == format!("XXZ {withdrawn}")),
        "{trf}"
    );
    assert!(trf.contains("062 9"), "nine players in the TRF: {trf}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hall_on_postgres_withdraws_a_round_enters_and_withdraws_players_and_pairs_again() {
    let Some(db) = test_database("halls_withdraw_one").await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let h = hall(db.url(), "room-one", 1, &ALL);
    let s = h.start(dir.path()).await;
    use GameResult::*;
    close_round(&s, &[(1, RedWins), (2, BlackWins), (3, RedWins), (4, Draw)]).await;
    let first = pair(&s).await.expect("round 2 proposed");
    chief_says(&s, publish(&first)).await.expect("published");
    assert_eq!(s.snapshot().expect("hall").round, 2);

    // Withdrawn: back in round 1, every result in.
    let err = chief_says(&s, withdraw_round(2, " "))
        .await
        .expect_err("no reason");
    assert!(err.contains("the reason is required"), "{err}");
    chief_says(&s, withdraw_round(2, "编排有误"))
        .await
        .expect("withdrawn");
    back_in_round_1(&s, "after the withdrawal");
    let err = chief_says(&s, withdraw_round(2, "又"))
        .await
        .expect_err("withdrawn already");
    assert!(err.contains("the hall plays round 1"), "{err}");

    // A late entry and a withdrawal; the second of each is refused.
    chief_says(&s, entry()).await.expect("entered");
    chief_says(&s, leave("杨官璘")).await.expect("withdrawn");
    let err = chief_says(&s, entry()).await.expect_err("entered twice");
    assert!(
        err.contains("CHN-42 is a player of the tournament already"),
        "{err}"
    );
    let err = chief_says(&s, leave("无名氏")).await.expect_err("nobody");
    assert!(err.contains("no player of the tournament"), "{err}");

    // A restart keeps the withdrawal, the entry and the withdrawal.
    s.shutdown().await.expect("clean stop");
    let s = h.start(dir.path()).await;
    back_in_round_1(&s, "after a restart");
    let again = pair(&s).await.expect("round 2 paired again");
    pairs_entrant_not_withdrawn(&again, "after a restart");
    let err = chief_says(&s, leave("杨官璘"))
        .await
        .expect_err("still withdrawn");
    assert!(err.contains("withdrawn already"), "{err}");
    chief_says(&s, publish(&again))
        .await
        .expect("published again");
    assert_eq!(s.snapshot().expect("hall").round, 2);
    trf_shows_both(db.url());

    // A restart plays the round published again, which can still be
    // withdrawn (the round before rebuilt from the database's starts).
    s.shutdown().await.expect("clean stop");
    let s = h.start(dir.path()).await;
    let view = s.snapshot().expect("hall");
    assert_eq!(view.round, 2);
    for t in &view.tables {
        let b = again
            .boards
            .iter()
            .find(|b| b.table == t.table)
            .expect("board");
        assert_eq!((&t.red, &t.black), (&b.red, &b.black));
    }
    chief_says(&s, withdraw_round(2, "再次更正"))
        .await
        .expect("withdrawn after a restart");
    back_in_round_1(&s, "withdrawn after a restart");
    let third = pair(&s).await.expect("paired a third time");
    pairs_entrant_not_withdrawn(&third, "a third time");
    chief_says(&s, publish(&third))
        .await
        .expect("published a third time");
    s.shutdown().await.expect("clean stop");
    let s = h.start(dir.path()).await;
    assert_eq!(s.snapshot().expect("hall").round, 2);
    trf_shows_both(db.url());
    s.shutdown().await.expect("clean stop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pairing_hall_withdraws_the_tournament_round_and_every_hall_goes_back() {
    let Some(db) = test_database("halls_withdraw_two").await else {
        return;
    };
    let (da, dbb) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ha = hall(db.url(), "room-a", 1, &ALL[..2]);
    let hb = hall(db.url(), "room-b", 3, &ALL[2..]);
    let sa = ha.start(da.path()).await;
    let sb = hb.start(dbb.path()).await;
    use GameResult::*;
    close_round(&sa, &[(1, RedWins), (2, Draw)]).await;
    close_round(&sb, &[(3, BlackWins), (4, RedWins)]).await;
    let p = pair(&sa).await.expect("round 2 proposed");
    chief_says(&sa, publish(&p)).await.expect("published");
    until_round(&sb, 2).await;

    // Only the pairing hall withdraws the round, enters or withdraws.
    for cmd in [withdraw_round(2, "x"), entry(), leave("杨官璘")] {
        let err = chief_says(&sb, cmd.clone())
            .await
            .expect_err("room-b does not");
        assert!(err.contains("hall room-a pairs"), "{cmd:?}: {err}");
    }
    chief_says(&sa, withdraw_round(2, "编排有误"))
        .await
        .expect("withdrawn");
    back_in_round_1(&sa, "room-a after the withdrawal");
    until_round(&sb, 1).await;
    back_in_round_1(&sb, "room-b after the withdrawal");
    let pg = store::PgDatabase::connect(db.url(), None)
        .await
        .expect("database");
    let audit = pg.hall("room-b").audit_entries().await.expect("audit");
    let by = audit
        .iter()
        .find(|e| {
            e.record.outcome == store::AuditOutcome::Accepted
                && e.record.action.starts_with("withdraw round 2 (published")
        })
        .expect("room-b's withdrawal audited");
    assert!(by.record.who.contains("(hall room-a)"), "{:?}", by.record);
    assert!(by.record.action.contains("编排有误"), "{:?}", by.record);

    // room-a enters 王五 and withdraws 杨官璘, a player of room-b.
    chief_says(&sa, entry()).await.expect("entered");
    chief_says(&sa, leave("杨官璘")).await.expect("withdrawn");
    let again = pair(&sa).await.expect("paired again");
    pairs_entrant_not_withdrawn(&again, "paired again");
    chief_says(&sa, publish(&again))
        .await
        .expect("published again");
    until_round(&sb, 2).await;
    let part = |s: &RunningServer| -> Vec<(u16, String, String)> {
        let view = s.snapshot().expect("hall");
        view.tables
            .iter()
            .map(|t| (t.table, t.red.clone(), t.black.clone()))
            .collect()
    };
    let expected = |tables: [u16; 2]| -> Vec<(u16, String, String)> {
        again
            .boards
            .iter()
            .filter(|b| tables.contains(&b.table))
            .map(|b| (b.table, b.red.clone(), b.black.clone()))
            .collect()
    };
    assert_eq!(part(&sa), expected([1, 2]), "room-a plays the new round");
    assert_eq!(part(&sb), expected([3, 4]), "room-b plays the new round");
    trf_shows_both(db.url());

    // A restart of room-b keeps the round published again.
    sb.shutdown().await.expect("room-b stops");
    let sb = hb.start(dbb.path()).await;
    assert_eq!(sb.snapshot().expect("room-b").round, 2);
    assert_eq!(part(&sb), expected([3, 4]), "after a restart");
    sa.shutdown().await.expect("room-a stops");
    sb.shutdown().await.expect("room-b stops");
}
