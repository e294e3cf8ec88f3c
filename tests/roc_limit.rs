//! End-to-end test of the ROC move limit 限著 over real QUIC: a hall with
//! `rules = "roc"` on a real in-process server, a real table terminal
//! (engine, outbox, link) and the chief's console (its `App` fed by the real
//! network client, driven with the arbiter's keys).
//!
//! The chief declares the limit from the console (`m`, Red limited at
//! Black's request, confirmed); the terminal shows 40 moves to go for each
//! player; the players move on without a capture; one move short, Black's
//! claim is answered "play on" with no penalty; when both have made their
//! 40 moves the console and the terminal show the limit full, Black claims,
//! the recommended ruling is a draw citing the ROC ids, the chief accepts it
//! with `y` `y`, and the game ends drawn at the terminal and on the server.
//! Under AXF the server refuses a declaration; a cancel needs a declaration.

mod support;

use std::path::Path;
use std::time::Duration;

use console::app::View;
use console::App;
use proto::{
    AlertKind, ClaimKind, ClaimStatus, ClaimView, Command, Connector, EndReason, ErrorCode,
    GameResult, Side, TableStatus, Trust, Verdict,
};
use support::console::Console;
use support::{table_token, Hall, CHIEF};
use table::engine::{Action, Engine, Status};
use table::link::LinkConfig;
use table::terminal::{self, TerminalHandle};
use table::timebase::Timebase;
use table::Outbox;

const LONG: Duration = Duration::from_secs(20);

/// Both queens' horses out and back: four plies, no capture, no check.
const SHUFFLE: [&str; 4] = ["b0c2", "b9c7", "c2b0", "c7b9"];

async fn terminal_for(srv: &server::RunningServer, outbox_dir: &Path) -> TerminalHandle {
    let trust = Trust::Fingerprint(srv.fingerprint);
    let connector = Connector::new(&trust, false).expect("connector");
    let link = LinkConfig::new(srv.addr, table_token(1), connector);
    let (info, hello) = terminal::fetch_info(&link).await.expect("table info");
    let session = hello.table.expect("table session");
    let (outbox, _) = Outbox::open(outbox_dir, 1, session.epoch + 1).expect("outbox");
    terminal::spawn(Engine::new(info, outbox), Some(link), Timebase::real(0))
}

fn limit_claims(app: &App) -> Vec<ClaimView> {
    app.claims()
        .into_iter()
        .filter(|c| c.table == 1 && c.kind == ClaimKind::MoveLimit)
        .cloned()
        .collect()
}

async fn play(term: &TerminalHandle, from: usize, plies: usize) {
    for i in from..from + plies {
        term.act(Action::Play(SHUFFLE[i % 4].into()))
            .await
            .expect("a legal move");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chief_declares_the_roc_limit_and_a_claim_at_its_end_is_upheld() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut hall = Hall::new("限著测试赛", "127.0.0.1:0").with_tables(&[("胡荣华", "许银川")]);
    hall.rules = "roc".into();
    let srv = hall.start(dir.path()).await;

    let mut con = Console::new(srv.addr, srv.fingerprint, CHIEF);
    con.until("the snapshot", |a| a.connected() && a.hall().is_some())
        .await;
    assert_eq!(con.app.hall().map(|h| h.rule_set.as_str()), Some("ROC"));

    let term = terminal_for(&srv, &dir.path().join("outbox")).await;
    term.wait_for(LONG, |s| s.online).await.expect("online");
    term.act(Action::StartClock).await.expect("started");
    term.act(Action::Play("h2e2".into())).await.expect("h2e2");
    term.act(Action::Play("h9g7".into())).await.expect("h9g7");
    con.until("two plies at the console", |a| {
        a.table(1).is_some_and(|t| t.plies == 2)
    })
    .await;

    // The chief declares the limit from the table's detail: `m`, option 1
    // (Red limited, at Black's request), confirmed with `y`.
    con.enter().await;
    assert_eq!(con.app.view, View::Detail(1));
    con.key('m').await;
    let dialog = con.app.dialog.clone().expect("the move-limit dialog");
    assert!(
        format!("{dialog:?}").contains("at Black's request"),
        "{dialog:?}"
    );
    con.key('1').await;
    assert!(con.app.dialog.is_some(), "asks to confirm");
    con.key('y').await;
    con.until("the declared limit", |a| {
        a.table(1).is_some_and(|t| t.move_limit.is_some())
    })
    .await;
    let v = con.app.table(1).and_then(|t| t.move_limit).expect("limit");
    assert_eq!(v.limit.at_ply, 2);
    assert_eq!(v.limit.limited, Side::Red);
    assert_eq!(v.limit.requested_by, Some(Side::Black));
    assert_eq!((v.remaining_red, v.remaining_black), (40, 40));
    let screen = con.screen();
    assert!(screen.contains("Limit: R40 B40 · R limited"), "{screen}");

    // The terminal shows it, per player.
    let shown = term
        .wait_for(LONG, |s| s.move_limit.is_some())
        .await
        .expect("the terminal learns the limit");
    let tv = shown.move_limit.expect("limit");
    assert_eq!((tv.remaining_red, tv.remaining_black), (40, 40));

    // 79 plies: Red has made its 40 moves, Black 39.
    play(&term, 0, 79).await;
    let s = term
        .wait_for(LONG, |s| s.waiting == 0)
        .await
        .expect("acknowledged");
    let tv = s.move_limit.expect("limit");
    assert_eq!((tv.remaining_red, tv.remaining_black), (0, 1));
    // Black's claim one move short: play on, no penalty.
    term.act(Action::ClaimNaturalLimit { by: Side::Black })
        .await
        .expect("claim");
    con.until("the short claim", |a| !limit_claims(a).is_empty())
        .await;
    let short = limit_claims(&con.app).remove(0);
    assert_eq!(short.recommended.verdict, Verdict::Continue, "{short:?}");
    assert!(
        i18n::texts::english(&short.recommended.explanation).contains("sets no penalty"),
        "{short:?}"
    );

    // Black's 40th move: the limit is full at the terminal and the console.
    play(&term, 79, 1).await;
    term.wait_for(LONG, |s| s.move_limit.is_some_and(|v| v.full()))
        .await
        .expect("full at the terminal");
    con.until("the full limit and its alert", |a| {
        a.table(1)
            .and_then(|t| t.move_limit)
            .is_some_and(|v| v.full())
            && a.alerts()
                .iter()
                .any(|x| x.table == 1 && x.kind == AlertKind::MoveLimit)
    })
    .await;

    // Black claims: the recommended ruling is a draw under the ROC ids.
    term.act(Action::ClaimNaturalLimit { by: Side::Black })
        .await
        .expect("claim");
    con.until("the claim at the full limit", |a| {
        limit_claims(a).len() == 2
    })
    .await;
    let claim = limit_claims(&con.app)
        .into_iter()
        .find(|c| c.id != short.id)
        .expect("the second claim");
    assert_eq!(claim.recommended.verdict, Verdict::Draw, "{claim:?}");
    assert!(
        claim.recommended.rule_ids.contains(&"ROC-7".to_string())
            && claim
                .recommended
                .rule_ids
                .iter()
                .all(|r| r.starts_with("ROC-")),
        "{claim:?}"
    );

    // The chief accepts it from the claims queue.
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
    con.key('y').await;
    con.key('y').await;
    con.until("the ruling and the drawn game", |a| {
        a.claims()
            .iter()
            .any(|c| c.id == claim.id && matches!(c.status, ClaimStatus::Ruled { .. }))
            && a.table(1).is_some_and(|t| {
                matches!(
                    t.status,
                    TableStatus::Finished {
                        result: GameResult::Draw,
                        why: EndReason::MoveLimit,
                        ..
                    }
                )
            })
    })
    .await;
    term.wait_for(LONG, |s| {
        matches!(
            s.status,
            Status::Finished {
                result: GameResult::Draw,
                ..
            }
        )
    })
    .await
    .expect("drawn at the terminal");

    let (_, stats) = term.stop().await.expect("terminal stops");
    assert!(stats.errors.is_empty(), "{:?}", stats.errors);
    srv.shutdown().await.expect("clean shutdown");
}

/// The limit is declared under ROC only, and only a declared limit can be
/// cancelled: the server refuses the others with a reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_limit_is_declared_under_roc_only() {
    let declare = Command::DeclareMoveLimit {
        table: 1,
        requested_by: None,
        limited: Side::Black,
        book_draw: true,
    };
    for rules in ["axf", "roc"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut hall = Hall::new("限著测试赛", "127.0.0.1:0").with_tables(&[("甲", "乙")]);
        hall.rules = rules.into();
        let srv = hall.start(dir.path()).await;
        let mut chief = support::chief(&srv).await;
        let cancel = chief
            .command(1, Command::CancelMoveLimit { table: 1 })
            .await;
        assert!(
            matches!(&cancel, Err((ErrorCode::Invalid, why)) if why.contains("no move limit")),
            "{rules}: {cancel:?}"
        );
        let declared = chief.command(2, declare.clone()).await;
        if rules == "axf" {
            assert!(
                matches!(&declared, Err((ErrorCode::Invalid, why)) if why.contains("no declared move limit")),
                "{declared:?}"
            );
        } else {
            declared.expect("declared under ROC");
            let v = srv.snapshot().expect("hall view");
            let limit = v.tables[0].move_limit.expect("declared");
            assert_eq!((limit.limit.moves_each, limit.limit.book_draw), (30, true));
            chief
                .command(3, Command::CancelMoveLimit { table: 1 })
                .await
                .expect("cancelled");
            assert_eq!(srv.snapshot().expect("view").tables[0].move_limit, None);
        }
        srv.shutdown().await.expect("clean shutdown");
    }
}
