//! The next round in the running hall (issue 36), end to end over real
//! QUIC: round 1 of a hall of eight players is closed (every game has a
//! result), a deputy's `N` is refused naming why, the chief's console
//! (the real `console::App` on the real network client) pairs round 2,
//! sees *why this pair* on every board, swaps one pair's colours with a
//! reason and publishes; the table terminals are disconnected and sign in
//! to round 2 with their new pairing; the server is restarted between the
//! publication and the start and still plays round 2; round 2 is played;
//! the export's standings equal `caipan standings` on the exported TRF.

mod support;

use std::process::Command as Process;

use proto::{Command, GameResult, ServerMsg, TableStatus};
use support::console::Console;
use support::{connect, Hall, Round, Terminal, CHIEF, DEPUTY};

const ROUND1: [(&str, &str); 4] = [
    ("胡荣华", "许银川"),
    ("吕钦", "赵国荣"),
    ("徐天红", "柳大华"),
    ("李来群", "杨官璘"),
];

fn hall() -> Hall {
    let mut h = Hall::new("编排测试赛", "127.0.0.1:0").with_tables(&ROUND1);
    h.deputy = Some((DEPUTY.into(), vec![1, 2]));
    h.rounds = vec![Round::new(1, &ROUND1)];
    h
}

/// The chief sets every table's result (Red wins on odd tables, Black on
/// table 2, a draw on table 4) over a raw console connection.
async fn close_round(s: &server::RunningServer, results: &[(u16, GameResult)]) {
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    for (i, (table, result)) in results.iter().enumerate() {
        chief
            .command(
                i as u64 + 1,
                Command::SetResult {
                    table: *table,
                    result: *result,
                    reason: "结果单".into(),
                },
            )
            .await
            .expect("result set");
    }
}

fn caipan(args: &[&str]) -> String {
    let out = Process::new(env!("CARGO_BIN_EXE_caipan"))
        .args(args)
        .output()
        .expect("run caipan");
    assert!(
        out.status.success(),
        "caipan {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The standings' columns that `caipan standings` computes from a TRF as
/// the export does from the record: rank, name, points, games, wins,
/// draws, losses, wins with Black, opponent scores (the id column names
/// the player by registration id in the export and by start number in
/// the TRF's standings; technical fouls are not in a TRF).
fn comparable(csv: &str) -> Vec<String> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [0, 2, 4, 5, 6, 7, 8, 9, 11, 12]
                .iter()
                .map(|&i| f.get(i).copied().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chief_pairs_swaps_and_publishes_round_2_which_survives_a_restart_and_is_played() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = hall();
    let data = dir.path().join("data");
    // As `caipan serve` does at every start (the config copy for exports).
    let note = || {
        server::export::stored::note_hall_start(&data, &h.toml(), &h.config(dir.path()))
            .expect("start noted")
    };
    note();
    let s = h.start(dir.path()).await;

    // Terminals of round 1 connected.
    let mut terminals = Vec::new();
    for t in 1..=4 {
        terminals.push(Terminal::open(s.addr, s.fingerprint, t).await);
    }

    // Not before the round is over.
    let mut early = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let err = early
        .command(1, Command::PairNextRound)
        .await
        .expect_err("round 1 is not over");
    assert!(
        err.1.contains("round 1 is not over: tables 1, 2, 3, 4"),
        "{err:?}"
    );

    use GameResult::*;
    close_round(&s, &[(1, RedWins), (2, BlackWins), (3, RedWins), (4, Draw)]).await;

    // A deputy's N: refused, saying why.
    let mut deputy = Console::new(s.addr, s.fingerprint, DEPUTY);
    deputy
        .until("deputy subscribed", |a| a.hall().is_some())
        .await;
    deputy.key('N').await;
    let screen = deputy.screen();
    assert!(
        screen.contains("only the chief pairs and publishes the next round"),
        "{screen}"
    );
    // The server refuses it too.
    let mut raw_deputy = connect(s.addr, s.fingerprint, DEPUTY)
        .await
        .expect("deputy");
    let err = raw_deputy
        .command(7, Command::PairNextRound)
        .await
        .expect_err("deputy refused");
    assert!(err.1.contains("only the chief"), "{err:?}");

    // The chief pairs round 2: why this pair on every board.
    let mut chief = Console::new(s.addr, s.fingerprint, CHIEF);
    chief
        .until("chief subscribed", |a| a.hall().is_some())
        .await;
    chief.key('N').await;
    chief
        .until("the proposal", |a| a.next_round.is_some())
        .await;
    let draft = chief.app.next_round.clone().expect("draft");
    assert_eq!(draft.round.round, 2);
    assert_eq!(draft.round.system, "xiangqi");
    assert_eq!(draft.round.boards.len(), 4);
    let mut everyone: Vec<&str> = draft
        .round
        .boards
        .iter()
        .flat_map(|b| [b.red.as_str(), b.black.as_str()])
        .collect();
    everyone.sort();
    let mut expected: Vec<&str> = ROUND1.iter().flat_map(|(r, b)| [*r, *b]).collect();
    expected.sort();
    assert_eq!(everyone, expected, "every player once");
    for b in &draft.round.boards {
        let ids: Vec<&str> = b.why.iter().map(|m| m.id.as_str()).collect();
        assert!(
            ids.contains(&"round-why-same-score") || ids.contains(&"round-why-float"),
            "table {}: {ids:?}",
            b.table
        );
        assert!(
            ids.contains(&"round-why-colour"),
            "table {}: {ids:?}",
            b.table
        );
        // No rematch of round 1.
        assert!(
            !ROUND1
                .iter()
                .any(|(r, k)| (b.red == *r && b.black == *k) || (b.red == *k && b.black == *r)),
            "rematch on table {}",
            b.table
        );
    }
    let screen = chief.screen();
    assert!(
        screen.contains("same score") || screen.contains("float"),
        "{screen}"
    );

    // Swap the colours of the first board, with a reason.
    let (red, black) = (
        draft.round.boards[0].red.clone(),
        draft.round.boards[0].black.clone(),
    );
    chief.key('w').await;
    assert!(chief.app.dialog.is_some(), "a reason is asked");
    for c in "红方申请换色".chars() {
        chief.key(c).await;
    }
    chief.enter().await;
    let draft = chief.app.next_round.clone().expect("draft");
    assert_eq!(
        (
            draft.round.boards[0].red.as_str(),
            draft.round.boards[0].black.as_str()
        ),
        (black.as_str(), red.as_str())
    );
    assert_eq!(draft.changes.len(), 1);
    assert_eq!(draft.changes[0].reason, "红方申请换色");

    // Publish.
    chief.key('P').await;
    chief.key('y').await;
    chief
        .until("round 2 in the hall", |a| {
            a.hall().is_some_and(|h| h.round == 2)
        })
        .await;
    let published = draft.round.clone();

    // The terminals of round 1 are disconnected; they sign in to round 2.
    for t in &mut terminals {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            match tokio::time::timeout_at(deadline, t.c.c.recv()).await {
                Ok(Err(_)) => break,
                Ok(Ok(m)) => assert!(!matches!(m, ServerMsg::Error(_)), "{m:?}"),
                Err(_) => panic!("table {}: not disconnected", t.table),
            }
        }
    }
    let check_round2 = |session: &proto::TableSession| {
        let b = published
            .boards
            .iter()
            .find(|b| b.table == session.table)
            .expect("a board of round 2");
        assert_eq!((&session.red, &session.black), (&b.red, &b.black));
        assert_eq!(session.status, TableStatus::Waiting);
        assert!(session.moves.is_empty());
    };
    for t in 1..=4 {
        let term = Terminal::open(s.addr, s.fingerprint, t).await;
        assert_eq!(term.c.hello.hall.round, 2);
        check_round2(term.c.hello.table.as_ref().expect("session"));
    }
    drop(chief);
    drop(deputy);

    // A restart between the publication and the start keeps round 2.
    s.shutdown().await.expect("clean stop");
    note();
    let s = h.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    assert_eq!(chief.hello.hall.round, 2);
    let view = chief.subscribe().await;
    assert_eq!(view.round, 2);
    let mut terms = Vec::new();
    for t in 1..=4 {
        let term = Terminal::open(s.addr, s.fingerprint, t).await;
        check_round2(term.c.hello.table.as_ref().expect("session"));
        terms.push(term);
    }

    // Round 2 is played: table 1 by its terminal (a resignation), the rest set.
    terms[0]
        .event(proto::TableEvent::Arrived {
            side: proto::Side::Red,
        })
        .await;
    close_round(&s, &[(1, RedWins), (2, Draw), (3, BlackWins), (4, RedWins)]).await;
    drop(chief);
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let view = chief.subscribe().await;
    assert!(view
        .tables
        .iter()
        .all(|t| matches!(t.status, TableStatus::Finished { .. })));
    s.shutdown().await.expect("clean stop");

    // The export's standings equal `caipan standings` on the exported TRF.
    let data = data.to_str().expect("path");
    let trf_path = dir.path().join("event.trf");
    let trf = caipan(&["export", "--data", data, "--round", "2", "--format", "trf"]);
    std::fs::write(&trf_path, &trf).expect("write trf");
    assert!(trf.lines().any(|l| l.starts_with("001")), "{trf}");
    let exported = caipan(&[
        "export",
        "--data",
        data,
        "--round",
        "2",
        "--format",
        "standings-csv",
    ]);
    let from_trf = caipan(&[
        "standings",
        "--trf",
        trf_path.to_str().expect("path"),
        "--tiebreaks",
        "opponent_score_all,DE,fewer_technical_fouls,BWG,lots",
    ]);
    assert_eq!(
        comparable(&exported),
        comparable(&from_trf),
        "export:\n{exported}\ncaipan standings:\n{from_trf}"
    );
    assert_eq!(comparable(&exported).len(), 8);
    // Round 1 still exports as it was played.
    let r1 = caipan(&["export", "--data", data, "--round", "1", "--format", "csv"]);
    assert!(r1.contains("胡荣华") && r1.contains("许银川"), "{r1}");
}
