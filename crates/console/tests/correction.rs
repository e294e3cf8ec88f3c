//! Correcting a result of an earlier round and withdrawing the published
//! round in the console (issue 36), drawn on ratatui's `TestBackend` and
//! compared with committed snapshots: the correction dialog step by step
//! (round, table, result, reason, confirmation) and the command it sends;
//! the offer to withdraw an unstarted round after the correction is done;
//! the withdrawal dialog (reason, confirmation) and its command; a
//! deputy's `C` and `W` refused with the roles table's reason.

mod support;

use support::{render, text};

use console::fixture;
use console::{App, Lang};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proto::{Command, GameResult, Role, ServerMsg, TableStatus};

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn enter(app: &mut App) -> Vec<console::app::Outgoing> {
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE))
}

fn typed(app: &mut App, s: &str) {
    for c in s.chars() {
        app.on_key(key(c));
    }
}

/// A hall in round 5 (published, every game waiting: not started).
fn unstarted_round_5() -> proto::HallView {
    let mut h = fixture::hall(4);
    for t in &mut h.tables {
        t.status = TableStatus::Waiting;
        t.moves.clear();
        t.clock.running = None;
    }
    h
}

#[test]
fn the_correction_dialog_asks_round_table_result_and_reason_then_offers_to_withdraw() {
    let mut app = fixture::app(Lang::En, Role::Chief, unstarted_round_5());
    assert!(app.on_key(key('C')).is_empty());
    let round = text(&render(&app, 100, 20));
    assert!(
        round.contains("correct a result of an earlier round"),
        "{round}"
    );
    assert!(round.contains("round (an earlier one)"), "{round}");
    insta::assert_snapshot!("correction_round_100x20", round);
    // The round before is offered; a bad number is refused.
    for _ in 0..3 {
        app.on_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    }
    typed(&mut app, "x");
    enter(&mut app);
    let bad = text(&render(&app, 100, 20));
    assert!(bad.contains("not a round number"), "{bad}");
    app.on_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    typed(&mut app, "4");
    enter(&mut app);
    typed(&mut app, "3");
    enter(&mut app);
    let result = text(&render(&app, 100, 20));
    assert!(result.contains("0-1"), "{result}");
    insta::assert_snapshot!("correction_result_100x20", result);
    app.on_key(key('1'));
    // The reason is required.
    enter(&mut app);
    assert!(app.dialog.is_some(), "a reason is required");
    typed(&mut app, "appeal upheld");
    enter(&mut app);
    let confirm = text(&render(&app, 100, 20));
    assert!(
        confirm.contains("round 4 table 3: correct the result to 1-0 Red wins?"),
        "{confirm}"
    );
    insta::assert_snapshot!("correction_confirm_100x20", confirm);
    let out = app.on_key(key('y'));
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].command,
        Command::CorrectResult {
            round: 4,
            table: 3,
            result: GameResult::RedWins,
            reason: "appeal upheld".into(),
        }
    );
    // Done: round 5 has not started, so the status line offers W.
    app.on_server(ServerMsg::CommandOk {
        id: out[0].id,
        note: String::new(),
    });
    let offer = text(&render(&app, 100, 20));
    assert!(
        offer.contains("round 5 has not started: W withdraws it"),
        "{offer}"
    );
    insta::assert_snapshot!("correction_offers_withdrawal_100x20", offer);
}

#[test]
fn no_withdrawal_is_offered_once_the_round_has_started() {
    let mut app = fixture::app(Lang::En, Role::Chief, fixture::hall(4));
    app.on_key(key('C'));
    enter(&mut app);
    typed(&mut app, "1");
    enter(&mut app);
    app.on_key(key('3'));
    typed(&mut app, "r");
    enter(&mut app);
    let out = app.on_key(key('y'));
    app.on_server(ServerMsg::CommandOk {
        id: out[0].id,
        note: String::new(),
    });
    let t = text(&render(&app, 100, 20));
    assert!(!t.contains("withdraws it"), "{t}");
    assert!(t.contains("result corrected"), "{t}");
}

#[test]
fn the_withdrawal_dialog_asks_a_reason_and_confirms() {
    let mut app = fixture::app(Lang::ZhHans, Role::Chief, unstarted_round_5());
    assert!(app.on_key(key('W')).is_empty());
    enter(&mut app);
    assert!(app.dialog.is_some(), "a reason is required");
    typed(&mut app, "申诉成立");
    enter(&mut app);
    let confirm = text(&render(&app, 100, 20));
    assert!(
        confirm.contains("撤回第 5 轮（未开始）并重新编排？"),
        "{confirm}"
    );
    insta::assert_snapshot!("withdrawal_confirm_zh_100x20", confirm);
    let out = app.on_key(key('y'));
    assert_eq!(
        out[0].command,
        Command::WithdrawRound {
            round: 5,
            reason: "申诉成立".into(),
        }
    );
}

#[test]
fn a_deputy_cannot_correct_or_withdraw_and_is_told_why() {
    let role = Role::Deputy {
        name: "李四".into(),
        tables: vec![1, 2],
    };
    let mut app = fixture::app(Lang::En, role, unstarted_round_5());
    assert!(app.on_key(key('C')).is_empty(), "nothing is sent");
    assert!(app.dialog.is_none());
    let t = text(&render(&app, 140, 16));
    assert!(
        t.contains("only the chief corrects a result of an earlier round (deputy 李四)"),
        "{t}"
    );
    insta::assert_snapshot!("correction_deputy_refused_140x16", t);
    assert!(app.on_key(key('W')).is_empty(), "nothing is sent");
    assert!(app.dialog.is_none());
    let t = text(&render(&app, 140, 16));
    assert!(
        t.contains("only the chief withdraws a published round (deputy 李四)"),
        "{t}"
    );
}
