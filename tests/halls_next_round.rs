//! The next round of a tournament of several halls on PostgreSQL (issue
//! 36, README "The next round": several halls), end to end over real QUIC
//! on a real database (`CAIPAN_TEST_PG_URL`, or a cluster the test starts;
//! with `CI` set, no PostgreSQL is a failure): halls room-a (tables 1-2,
//! the pairing hall) and room-b (tables 3-4) of one tournament in one
//! database, two in-process servers.
//!
//! Round 1 is played to results in both halls by their chiefs. Hall A's
//! `N` is refused while hall B's round is not over (naming hall B and its
//! tables); hall B's `N` is refused naming the pairing hall. Hall A's chief
//! pairs round 2 from the whole tournament's record: the proposal holds
//! both halls' boards and notes which tables each hall plays; publishing
//! stores the tournament round and hall A's part. Hall B takes its part by
//! itself (audited as the tournament chief's from hall room-a), its table
//! terminal signs in to its new pairing, and a restart of hall B keeps
//! round 2 (the config's round 1 is not taken up again). Round 2 is played
//! to results; `caipan export --store` prints round 2's pairings and the
//! standings, which equal `caipan standings` on the exported TRF.

mod support;

use std::time::Duration;

use proto::{Command, GameResult, RoundProposal, ServerMsg, TableStatus};
use server::RunningServer;
use store::postgres::cluster::test_database;
use store::PgDatabase;
use support::{caipan, close_round, connect, table_token, Hall, Round, Terminal, CHIEF};

const TOURNAMENT: &str = "2026-national";
const A: [(&str, &str); 2] = [("胡荣华", "许银川"), ("吕钦", "赵国荣")];
const B: [(&str, &str); 2] = [("徐天红", "柳大华"), ("李来群", "杨官璘")];

/// Hall `id` of the tournament, its round 1 at tables `first..`.
fn hall(url: &str, id: &str, first: u16, games: &[(&str, &str)]) -> Hall {
    let mut h = Hall::new("全国象棋锦标赛", "127.0.0.1:0");
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

/// Name, points, games, wins, draws, losses, wins with Black and opponent
/// scores of a standings CSV (as tests/next_round.rs compares), by name.
/// Not the rank: where every criterion but lots ties, the export keeps the
/// place shared (export::standings) and `caipan standings` draws it, and
/// the pairing's lots make such a tie possible here.
fn comparable(csv: &str) -> Vec<String> {
    let mut rows: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [2, 4, 5, 6, 7, 8, 9, 11, 12]
                .iter()
                .map(|&i| f.get(i).copied().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    rows.sort();
    rows
}

/// Waits (at most 10 s) until hall `s` plays `round`.
async fn until_round(s: &RunningServer, round: u32) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while s.snapshot().map(|v| v.round) != Some(round) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hall did not move to round {round}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The tables hall `s` plays.
fn tables_of(s: &RunningServer) -> Vec<u16> {
    let view = s.snapshot().expect("the hall");
    view.tables.iter().map(|t| t.table).collect()
}

/// Hall B's table 3 signs in and gets its board of `round`, waiting.
async fn check_table_3(s: &RunningServer, round: &RoundProposal) {
    let term = Terminal::open(s.addr, s.fingerprint, 3).await;
    assert_eq!(term.c.hello.hall.round, round.round);
    let session = term.c.hello.table.as_ref().expect("session");
    let board = round.boards.iter().find(|b| b.table == 3).expect("board 3");
    assert_eq!((&session.red, &session.black), (&board.red, &board.black));
    assert_eq!(session.status, TableStatus::Waiting);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pairing_hall_pairs_the_whole_tournament_and_every_hall_plays_its_part() {
    let Some(db) = test_database("halls_next_round").await else {
        return;
    };
    let (da, dbb) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ha = hall(db.url(), "room-a", 1, &A);
    let hb = hall(db.url(), "room-b", 3, &B);
    let sa = ha.start(da.path()).await;
    let sb = hb.start(dbb.path()).await;

    use GameResult::*;
    close_round(&sa, &[(1, RedWins), (2, Draw)]).await;
    let err = pair(&sa).await.expect_err("hall B's round is not over");
    assert!(
        err.contains("hall room-b: round 1 is not over (tables without a result: 3, 4)"),
        "{err}"
    );
    close_round(&sb, &[(3, BlackWins), (4, RedWins)]).await;
    let err = pair(&sb).await.expect_err("hall B does not pair");
    assert!(err.contains("hall room-a pairs"), "{err}");

    // Hall A pairs the whole tournament: both halls' boards, the split noted.
    let p = pair(&sa).await.expect("round 2 proposed");
    assert_eq!(p.round, 2);
    let tables: Vec<u16> = p.boards.iter().map(|b| b.table).collect();
    assert_eq!(tables, [1, 2, 3, 4]);
    let mut everyone: Vec<&str> = p
        .boards
        .iter()
        .flat_map(|b| [b.red.as_str(), b.black.as_str()])
        .collect();
    everyone.sort();
    let mut expected: Vec<&str> = A.iter().chain(&B).flat_map(|(r, b)| [*r, *b]).collect();
    expected.sort();
    assert_eq!(everyone, expected, "every player of both halls once");
    for b in &p.boards {
        assert!(
            !A.iter()
                .chain(&B)
                .any(|(r, k)| (b.red == *r && b.black == *k) || (b.red == *k && b.black == *r)),
            "rematch on table {}",
            b.table
        );
    }
    let notes: Vec<String> = p.notes.iter().map(i18n::texts::english).collect();
    assert!(
        notes.contains(&"hall room-a: tables 1, 2".to_string()),
        "{notes:?}"
    );
    assert!(
        notes.contains(&"hall room-b: tables 3, 4".to_string()),
        "{notes:?}"
    );

    // Publish: the tournament round and hall A's part; hall B follows.
    let mut chief = connect(sa.addr, sa.fingerprint, CHIEF)
        .await
        .expect("chief");
    let publish = Command::PublishRound {
        round: Box::new(p.clone()),
        changes: Vec::new(),
    };
    chief.command(2, publish.clone()).await.expect("published");
    assert_eq!(sa.snapshot().expect("hall A").round, 2);

    assert_eq!(tables_of(&sa), [1, 2], "hall A plays its part");
    until_round(&sb, 2).await;

    assert_eq!(tables_of(&sb), [3, 4], "hall B plays its part");
    check_table_3(&sb, &p).await;
    let pg = PgDatabase::connect(db.url(), None).await.expect("database");
    let audit = pg.hall("room-b").audit_entries().await.expect("audit");
    let by = audit
        .iter()
        .find(|e| e.record.action.starts_with("publish round 2"))
        .expect("hall B's publication audited");
    assert!(by.record.who.contains("(hall room-a)"), "{:?}", by.record);
    // A second publication of round 2 is refused, naming the first.
    let err = chief
        .command(3, publish)
        .await
        .expect_err("round 2 is published");
    assert!(err.1.contains("round 2"), "{err:?}");

    // A restart of hall B keeps round 2.
    sb.shutdown().await.expect("hall B stops");
    let sb = hb.start(dbb.path()).await;
    assert_eq!(sb.snapshot().expect("hall B").round, 2);
    check_table_3(&sb, &p).await;

    // Round 2 published, not played: its pairings print across halls.
    let url = db.url();
    let page = caipan(&[
        "export",
        "--store",
        url,
        "--tournament",
        TOURNAMENT,
        "--round",
        "2",
        "--format",
        "pairings-html",
    ]);
    for b in &p.boards {
        assert!(page.contains(&b.red) && page.contains(&b.black), "{page}");
    }
    // Round 2 played; the standings equal `caipan standings` on the TRF.
    close_round(&sa, &[(1, Draw), (2, RedWins)]).await;
    close_round(&sb, &[(3, RedWins), (4, BlackWins)]).await;
    let err = pair(&sb).await.expect_err("hall B still does not pair");
    assert!(err.contains("hall room-a pairs"), "{err}");
    let args = [
        "export",
        "--store",
        url,
        "--tournament",
        TOURNAMENT,
        "--round",
        "2",
    ];
    let trf = caipan(&[&args[..], &["--format", "trf"]].concat());
    let trf_path = da.path().join("event.trf");
    std::fs::write(&trf_path, &trf).expect("write trf");
    let exported = caipan(&[&args[..], &["--format", "standings-csv"]].concat());
    assert_eq!(exported.lines().count(), 9, "8 players: {exported}");
    let from_trf = caipan(&[
        "standings",
        "--trf",
        trf_path.to_str().expect("path"),
        "--tiebreaks",
        "opponent_score_all,DE,fewer_technical_fouls,BWG,lots",
    ]);
    assert_eq!(comparable(&exported), comparable(&from_trf));
    sa.shutdown().await.expect("hall A stops");
    sb.shutdown().await.expect("hall B stops");
}
