//! The next round in the console (issue 36), drawn on ratatui's
//! `TestBackend` and compared with committed snapshots: the proposal with
//! *why this pair* on every board, the swap dialog asking for the reason
//! (and the board and the change list after it), and a deputy's `N`
//! refused with the roles table's reason.

mod support;

use support::{render, text};

use console::app::View;
use console::fixture;
use console::{App, Lang};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proto::{Command, Message, Role, RoundBoard, RoundProposal, ServerMsg, Side};

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn board(table: u16, red: &str, black: &str, points: (&str, &str)) -> RoundBoard {
    let mut why = vec![match points.0 == points.1 {
        true => Message::new("round-why-same-score").verbatim("points", points.0),
        false => Message::new("round-why-float")
            .verbatim("red-points", points.0)
            .verbatim("black-points", points.1),
    }];
    why.push(
        Message::new("round-why-colour")
            .verbatim("player", red)
            .side("last", Side::Black)
            .side("now", Side::Red),
    );
    why.push(
        Message::new("round-why-rematches-avoided")
            .verbatim("player", black)
            .int("count", 1),
    );
    RoundBoard {
        table,
        red: red.into(),
        black: black.into(),
        red_id: None,
        black_id: None,
        why,
    }
}

fn proposal() -> RoundProposal {
    RoundProposal {
        round: 2,
        system: "xiangqi".into(),
        seed: 20_261_129,
        boards: vec![
            board(1, "许银川", "胡荣华", ("1.0", "1.0")),
            board(2, "柳大华", "吕钦", ("1.0", "1.0")),
            board(3, "赵国荣", "杨官璘", ("0.5", "0.5")),
            board(4, "李来群", "徐天红", ("0.5", "0.0")),
        ],
        bye: None,
        notes: Vec::new(),
    }
}

/// A chief's console that pressed `N` and got the proposal.
fn chief_with_proposal(lang: Lang) -> App {
    let mut app = fixture::app(lang, Role::Chief, fixture::hall(4));
    let out = app.on_key(key('N'));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].command, Command::PairNextRound);
    let id = out[0].id;
    app.on_server(ServerMsg::RoundProposal {
        id,
        proposal: Box::new(proposal()),
    });
    assert_eq!(app.view, View::Round);
    app
}

#[test]
fn the_preview_shows_why_this_pair() {
    let app = chief_with_proposal(Lang::En);
    let t = text(&render(&app, 120, 16));
    assert!(t.contains("same score 1.0"), "{t}");
    assert!(t.contains("float: 0.5 v 0.0"), "{t}");
    assert!(t.contains("许银川 had Black, now Red"), "{t}");
    assert!(t.contains("胡荣华: 1 rematches avoided"), "{t}");
    insta::assert_snapshot!("next_round_preview_120x16", t);
    let zh = text(&render(&chief_with_proposal(Lang::ZhHans), 120, 16));
    assert!(zh.contains("同分相对"), "{zh}");
}

#[test]
fn the_swap_dialog_asks_a_reason_and_the_change_is_published_with_it() {
    let mut app = chief_with_proposal(Lang::En);
    app.on_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    assert!(app.on_key(key('w')).is_empty());
    let dialog = text(&render(&app, 120, 16));
    assert!(dialog.contains("swap colours"), "{dialog}");
    insta::assert_snapshot!("next_round_swap_dialog_120x16", dialog);
    // No reason: refused.
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert!(app.dialog.is_some(), "a reason is required");
    for c in "late arrival".chars() {
        app.on_key(key(c));
    }
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert!(app.dialog.is_none());
    let d = app.next_round.clone().expect("draft");
    assert_eq!(
        (
            d.round.boards[1].red.as_str(),
            d.round.boards[1].black.as_str()
        ),
        ("吕钦", "柳大华")
    );
    let after = text(&render(&app, 120, 16));
    assert!(
        after.contains("table 2: colours swapped — late arrival"),
        "{after}"
    );
    insta::assert_snapshot!("next_round_after_swap_120x16", after);
    // Publish: confirm, then the round goes with its change and reason.
    assert!(app.on_key(key('P')).is_empty());
    let out = app.on_key(key('y'));
    match &out[0].command {
        Command::PublishRound { round, changes } => {
            assert_eq!(round.boards[1].red, "吕钦");
            assert_eq!(changes.len(), 1);
            assert_eq!(changes[0].reason, "late arrival");
            assert_eq!(changes[0].what.id, "round-change-colours");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_deputy_cannot_pair_and_is_told_why() {
    let role = Role::Deputy {
        name: "李四".into(),
        tables: vec![1, 2],
    };
    let mut app = fixture::app(Lang::En, role, fixture::hall(4));
    assert!(app.on_key(key('N')).is_empty(), "nothing is sent");
    assert_eq!(app.view, View::Hall);
    let t = text(&render(&app, 120, 16));
    assert!(
        t.contains("only the chief pairs and publishes the next round (deputy 李四)"),
        "{t}"
    );
    insta::assert_snapshot!("next_round_deputy_refused_120x16", t);
}
