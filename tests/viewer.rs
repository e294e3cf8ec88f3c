//! The public display over real QUIC: a viewer connection is sent what the
//! hall's public screen may show (boards, clocks, results) — never an
//! arbiter's name, a reason, a claim, an alert, a foul or the audit trail —
//! in its snapshots, its deltas and the table logs it asks for, while the
//! chief's console, in the same hall at the same time, sees all of it.

use std::time::Duration;

use proto::{
    ClientMsg, Command, Decision, Delta, EndReason, FoulKind, GameResult, ServerMsg, Side,
    TableEvent, TableStatus, Verdict,
};

mod support;
use support::*;

/// Words the arbiters' work left in the hall that the public must not see.
const PRIVATE: [&str; 9] = [
    "王志明",
    "陈立新",
    "ESCALATE-REASON",
    "OVERRIDE-REASON",
    "PAUSE-REASON",
    "FOUL-NOTE",
    "AXF-LIMIT",
    "ruling on claim",
    "chief",
];

/// Every message on `c` until `quiet` passes without one.
async fn drain(c: &mut Client, quiet: Duration) -> Vec<ServerMsg> {
    let mut out = Vec::new();
    while let Ok(Ok(m)) = tokio::time::timeout(quiet, c.c.recv()).await {
        // A tick's deltas one message each (protocol 11), a table's step
        // as the whole view it makes (protocol 12).
        out.extend(c.take(m));
    }
    out
}

/// Table `table`'s log as `c` is sent it (command `id`).
async fn table_log(c: &mut Client, id: u64, table: u16) -> proto::TableLog {
    c.send(ClientMsg::Command {
        id,
        command: Command::GetTableLog { table },
    })
    .await;
    c.until(|m| match m {
        ServerMsg::TableLog(l) => Some(l.clone()),
        _ => None,
    })
    .await
}

fn leaks(what: &str, text: &str) {
    for word in PRIVATE {
        assert!(!text.contains(word), "{what} shows {word:?}: {text}");
    }
}

#[tokio::test]
async fn a_viewer_sees_boards_clocks_and_results_not_the_arbiters_work() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let mut chief = chief(&s).await;
    let mut deputy = connect(s.addr, s.fingerprint, DEPUTY).await.unwrap();
    let mut viewer = connect(s.addr, s.fingerprint, VIEWER).await.unwrap();
    viewer.subscribe().await;

    // Table 1: a move, a false natural-limit claim, escalated by the deputy
    // with a reason, overridden by the chief into a draw with a reason.
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    t1.play(&["h2e2"], Side::Red).await;
    t1.event(TableEvent::ClaimNaturalLimit { by: Side::Black })
        .await;
    let claim = chief.claim_where(|c| c.table == 1).await.id;
    deputy
        .command(
            1,
            Command::EscalateClaim {
                table: 1,
                claim_id: claim,
                reason: "ESCALATE-REASON".into(),
            },
        )
        .await
        .unwrap();
    chief
        .command(
            2,
            Command::RuleOnClaim {
                table: 1,
                claim_id: claim,
                decision: Decision::Override {
                    verdict: Verdict::Draw,
                    must_change: None,
                    reason: "OVERRIDE-REASON".into(),
                },
            },
        )
        .await
        .unwrap();
    // Table 2: a foul and a pause, each with words.
    let mut t2 = Terminal::open(s.addr, s.fingerprint, 2).await;
    t2.play(&["h2e2", "h9g7"], Side::Red).await;
    chief
        .command(
            3,
            Command::RecordFoul {
                table: 2,
                side: Side::Red,
                kind: FoulKind::Technical,
                note: "FOUL-NOTE".into(),
            },
        )
        .await
        .unwrap();
    chief
        .command(
            4,
            Command::PauseTable {
                table: 2,
                reason: "PAUSE-REASON".into(),
            },
        )
        .await
        .unwrap();

    // The chief sees the arbiters' work (so the words below were there to leak).
    let full = format!("{:?}", s.snapshot().unwrap());
    for word in [
        "陈立新",
        "ESCALATE-REASON",
        "OVERRIDE-REASON",
        "PAUSE-REASON",
        "AXF-LIMIT",
    ] {
        assert!(full.contains(word), "the chief's view lacks {word:?}");
    }
    let mut chief_log = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    let log = table_log(&mut chief_log, 5, 2).await;
    assert!(format!("{log:?}").contains("PAUSE-REASON"), "{log:?}");

    // The viewer's deltas: tables and the hall's pause, nothing else.
    let deltas = drain(&mut viewer, Duration::from_millis(500)).await;
    let tables: Vec<_> = deltas
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Delta(Delta::Table(t)) => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert!(!tables.is_empty(), "{deltas:?}");
    for m in &deltas {
        assert!(
            matches!(m, ServerMsg::Delta(Delta::Table(_) | Delta::HallPaused(_))),
            "a viewer was sent {m:?}"
        );
        leaks("a viewer's delta", &format!("{m:?}"));
    }
    for t in &tables {
        assert_eq!((t.fouls_red.technical, t.pending_claims), (0, 0), "{t:?}");
    }

    // A viewer subscribing now: the boards, clocks and results.
    let mut late = connect(s.addr, s.fingerprint, VIEWER).await.unwrap();
    let view = late.subscribe().await;
    leaks("a viewer's snapshot", &format!("{view:?}"));
    assert!(view.alerts.is_empty() && view.claims.is_empty() && view.audit.is_empty());
    let t1v = &view.tables[0];
    assert_eq!(t1v.plies, 1);
    assert_eq!(t1v.moves, vec![mv("h2e2")]);
    assert!(
        matches!(
            t1v.status,
            TableStatus::Finished {
                result: GameResult::Draw,
                why: EndReason::NaturalLimit,
                ..
            }
        ),
        "{:?}",
        t1v.status
    );
    let t2v = &view.tables[1];
    assert_eq!((t2v.plies, t2v.red.as_str()), (2, "吕钦"));
    assert!(matches!(t2v.status, TableStatus::Paused(_)), "{t2v:?}");
    assert!(t2v.clock.red_ms > 0 && t2v.clock.black_ms > 0);

    // A viewer may ask for a table's log: the clocks, not the audit trail.
    let public_log = table_log(&mut late, 6, 2).await;
    assert!(public_log.audit.is_empty(), "{public_log:?}");
    assert_eq!(public_log.clock_history, log.clock_history);
    assert!(!public_log.clock_history.is_empty());
    leaks("a viewer's table log", &format!("{public_log:?}"));
    s.shutdown().await.unwrap();
}

/// Subscriptions are paced per principal (each costs a picture of the whole
/// hall): a viewer subscribing again and again gets its burst, then a
/// refusal naming it and when to try again, while the chief still
/// subscribes; the refusal is in the audit trail.
#[tokio::test]
async fn a_principal_subscribing_past_its_pace_is_refused_with_when_to_try_again() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let mut viewer = connect(s.addr, s.fingerprint, VIEWER).await.unwrap();
    let burst = server::reads::SUBSCRIBE_BURST as u64;
    for id in 1..=burst {
        viewer
            .command(2 * id, Command::Subscribe)
            .await
            .expect("within the burst");
        viewer
            .command(2 * id + 1, Command::Unsubscribe)
            .await
            .expect("unsubscribe");
    }
    let (code, why) = viewer
        .command(1, Command::Subscribe)
        .await
        .expect_err("past the pace");
    assert_eq!(code, proto::ErrorCode::Unavailable);
    assert!(
        why.contains("too many subscriptions by viewer:") && why.contains("subscribe again in"),
        "{why}"
    );
    // Others have their own pace; the viewer's connection goes on.
    let log = table_log(&mut viewer, 99, 1).await;
    assert_eq!(log.table, 1);
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    let audit = chief.subscribe().await.audit;
    assert!(
        audit.iter().any(|e| e
            .refused
            .as_deref()
            .is_some_and(|r| r.contains("too many subscriptions"))),
        "{audit:?}"
    );
}
