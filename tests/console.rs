//! End-to-end test of the arbiter console against a real server.
//!
//! A real `server::Server` on 127.0.0.1 with a temporary data dir; a table
//! terminal (proto's QUIC client) plays a real move sequence in which Red
//! checks perpetually; the console — its `App` fed by the real network
//! client (`console::net`), no terminal — lists the tables, shows the
//! repetition alert and the pending claim with its rule ids, and the claim
//! is accepted with the same keys an arbiter presses (`c`, select, `y`,
//! `y`). Then the server is stopped and started again on the same port and
//! data dir: the console shows "disconnected — retrying", reconnects by
//! itself, resyncs from a fresh snapshot, and the ruling is there — rebuilt
//! from the event store.

mod support;

use std::net::SocketAddr;

use console::app::{ConnState, View};
use console::App;
use proto::{AlertKind, ClaimKind, ClaimStatus, RulingOutcome, Side, TableEvent};
use support::console::Console;
use support::{mv, Hall, CHIEF, DEPUTY};

/// Red checks perpetually: after four opening plies, the cannon checks
/// from e4, the king steps to d8, the cannon checks from d4, the king
/// steps back — three times round.
const PREFIX: &[&str] = &["b2d2", "e9e8", "d2d4", "b7d7"];
const CYCLE: &[&str] = &["d4e4", "e8d8", "e4d4", "d8e8"];

/// The hall: three tables, a deputy for tables 1 and 2.
fn hall(listen: &str) -> Hall {
    let mut h = Hall::new("控制台测试赛", listen).with_tables(&[
        ("胡荣华", "许银川"),
        ("吕钦", "赵国荣"),
        ("欧阳琦琳", "唐丹"),
    ]);
    h.site = "e2e hall".into();
    h.deputy = Some((DEPUTY.into(), vec![1, 2]));
    h
}

/// A table terminal sending clock presses, each side's clock 5 s lower per move.
async fn play(addr: SocketAddr, fp: proto::Fingerprint, table: u16, moves: &[&str]) {
    let mut t = support::Terminal::open(addr, fp, table).await;
    let mut side = Side::Red;
    let (mut red, mut black) = (4_800_000u64, 4_800_000u64);
    for m in moves {
        match side {
            Side::Red => red -= 5_000,
            Side::Black => black -= 5_000,
        }
        t.event(TableEvent::ClockPress {
            by: side,
            mv: Some(mv(m)),
            red_ms: red,
            black_ms: black,
            terminal_mono_ms: (t.seq + 1) * 5_000,
        })
        .await;
        side = side.other();
    }
}

fn repetition_claim(app: &App, table: u16) -> Option<proto::ClaimView> {
    app.claims()
        .into_iter()
        .find(|c| c.table == table && c.kind == ClaimKind::Repetition)
        .cloned()
}

fn claim_by_id(app: &App, id: u64) -> Option<proto::ClaimView> {
    app.claims().into_iter().find(|c| c.id == id).cloned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_rules_on_a_perpetual_check_and_the_ruling_is_stored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = hall("127.0.0.1:0").start(dir.path()).await;
    let (addr, fp) = (s.addr, s.fingerprint);

    // The console lists the hall's tables.
    let mut con = Console::new(addr, fp, CHIEF);
    con.until("the snapshot", |a| a.connected() && a.hall().is_some())
        .await;
    assert_eq!(con.app.role(), Some(&proto::Role::Chief));
    let tables: Vec<u16> = console::app::visible_tables(&con.app)
        .iter()
        .map(|t| t.table)
        .collect();
    assert_eq!(tables, [1, 2, 3]);
    let screen = con.screen();
    assert!(
        screen.contains("胡荣华") && screen.contains("欧阳琦琳"),
        "{screen}"
    );

    // Table 1 plays the perpetual check.
    let mut moves: Vec<&str> = PREFIX.to_vec();
    for _ in 0..3 {
        moves.extend_from_slice(CYCLE);
    }
    play(addr, fp, 1, &moves).await;

    // The alert and the claim with its recommended ruling reach the console.
    con.until("the repetition alert and claim", |a| {
        a.alerts()
            .iter()
            .any(|x| x.table == 1 && x.kind == AlertKind::Repetition)
            && repetition_claim(a, 1).is_some()
    })
    .await;
    let claim = repetition_claim(&con.app, 1).expect("claim");
    assert!(matches!(claim.status, ClaimStatus::Pending), "{claim:?}");
    assert!(
        !claim.recommended.rule_ids.is_empty(),
        "the recommendation cites its rules: {claim:?}"
    );
    // Red checks perpetually: Red must change, or loses (AXF).
    assert!(
        claim.recommended.must_change == Some(Side::Red)
            || claim.recommended.verdict == proto::Verdict::Loss { side: Side::Red },
        "{claim:?}"
    );
    let alert_screen = con.screen();
    assert!(alert_screen.contains("repetition"), "{alert_screen}");

    // Accept it from the claims queue with the arbiter's keys.
    con.key('c').await;
    assert_eq!(con.app.view, View::Claims);
    let idx = con
        .app
        .claims()
        .iter()
        .position(|c| c.id == claim.id)
        .expect("claim listed");
    for _ in 0..idx {
        con.key('j').await;
    }
    let claims_screen = con.screen();
    assert!(
        claims_screen.contains(&claim.recommended.rule_ids[0]),
        "{claims_screen}"
    );
    con.key('y').await; // accept …
    assert!(con.app.dialog.is_some(), "asks to confirm");
    con.key('y').await; // … confirmed
    con.until("the ruling", |a| {
        claim_by_id(a, claim.id).is_some_and(|c| matches!(c.status, ClaimStatus::Ruled { .. }))
    })
    .await;
    con.until("the command's answer", |a| a.in_flight.is_empty())
        .await;
    assert!(
        con.app.notice.as_ref().is_some_and(|n| !n.error),
        "{:?}",
        con.app.notice
    );

    // A deputy's console lists only the deputy's tables (1 and 2) and does
    // not offer what a deputy may not do.
    let mut dep = Console::new(addr, fp, DEPUTY);
    dep.until("the deputy's snapshot", |a| {
        a.connected() && a.hall().is_some()
    })
    .await;
    let mine: Vec<u16> = console::app::visible_tables(&dep.app)
        .iter()
        .map(|t| t.table)
        .collect();
    assert_eq!(mine, [1, 2]);
    dep.key('P').await;
    assert!(dep.app.dialog.is_none(), "no hall pause for a deputy");
    assert!(dep.app.notice.as_ref().is_some_and(|n| n.error));
    drop(dep);

    // Stop the server: the console says so and keeps retrying.
    s.shutdown().await.expect("clean shutdown");
    con.until("the disconnected state", |a| {
        matches!(a.link().conn, ConnState::Disconnected { .. })
    })
    .await;
    let down = con.screen();
    assert!(down.contains("disconnected — retrying"), "{down}");

    // Start it again on the same port and data dir: the state is rebuilt
    // from the store, and the console resyncs from a fresh snapshot.
    let s2 = hall(&addr.to_string()).start(dir.path()).await;
    assert_eq!(s2.fingerprint, fp, "same certificate");
    let stored = s2.snapshot().expect("hall view");
    let c = stored
        .claims
        .iter()
        .find(|c| c.id == claim.id)
        .expect("claim in the store");
    match &c.status {
        ClaimStatus::Ruled { by, outcome, .. } => {
            assert_eq!(outcome, &RulingOutcome::Accepted);
            assert!(by.contains("王志明") || by.contains("chief"), "{by}");
        }
        other => panic!("ruling not stored: {other:?}"),
    }
    con.app.links[0].hall = None;
    con.until("the reconnection", |a| a.connected() && a.hall().is_some())
        .await;
    let again = claim_by_id(&con.app, claim.id).expect("claim after resync");
    assert!(matches!(again.status, ClaimStatus::Ruled { .. }));
    s2.shutdown().await.expect("clean shutdown");
}

/// A permanent refusal stops the console with the cause: an unknown token
/// and a certificate that is not the pinned one are not retried (no new
/// attempt in 3 s, where a retry comes after 0.5 s), and the banner names
/// the cause; a hall that does not answer at all (network trouble) is
/// retried.
#[tokio::test]
async fn a_permanent_refusal_stops_the_console_and_only_network_trouble_retries() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = hall("127.0.0.1:0").start(dir.path()).await;
    let wrong_fp = proto::Fingerprint([7; 32]);
    for (token, fp, cause) in [
        (
            "not-a-token-of-this-hall-0123",
            s.fingerprint,
            "unauthenticated",
        ),
        (CHIEF, wrong_fp, "fingerprint"),
    ] {
        let mut con = Console::new(s.addr, fp, token);
        con.until("the refusal", |a| {
            matches!(a.link().conn, ConnState::Refused { .. })
        })
        .await;
        let ConnState::Refused { error } = &con.app.link().conn else {
            unreachable!()
        };
        let error = error.text(console::Lang::En);
        assert!(error.contains(cause), "{error}");
        let why = con.app.refused().expect("the console stops");
        assert!(why.contains(cause), "{why}");
        let screen = con.screen();
        assert!(
            screen.contains("refused by the server, not retrying"),
            "{screen}"
        );
        let later = con.for_a_while(std::time::Duration::from_secs(3)).await;
        assert!(
            later.is_empty(),
            "retried after a permanent refusal: {later:?}"
        );
    }
    // Nothing listening: network trouble, retried.
    let idle = std::net::UdpSocket::bind("127.0.0.1:0").expect("a free port");
    let nobody = idle.local_addr().expect("addr");
    drop(idle);
    let mut con = Console::new(nobody, s.fingerprint, CHIEF);
    con.until(
        "a second attempt",
        |a| matches!(a.link().conn, ConnState::Connecting { attempt } if attempt >= 2),
    )
    .await;
    assert!(con.app.refused().is_none());
    s.shutdown().await.expect("shutdown");
}
