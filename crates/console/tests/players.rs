//! Entering a player late and withdrawing a player in the console (issue
//! 36), drawn on ratatui's `TestBackend` and compared with committed
//! snapshots: the entry dialog step by step (name, id, rating, federation,
//! club; a bad rating named in the dialog; the confirmation) and the
//! command it sends; the withdrawal dialog (the player picked from the
//! round's players, a reason, the confirmation) and its command; a
//! deputy's `A` and `D` refused with the roles table's reason; and a
//! withdrawal between pairing and start: once the server accepted it, the
//! console offers to withdraw the unstarted round and pair it again, sends
//! `WithdrawRound`, then `PairNextRound`, and shows the new proposal.

mod support;

use support::{render, text};

use console::fixture;
use console::{App, Lang};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proto::{Command, Role, RoundBoard, RoundProposal, ServerMsg, TableStatus};

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

fn done(app: &mut App, id: u64) -> Vec<console::app::Outgoing> {
    app.on_server(ServerMsg::CommandOk {
        id,
        note: String::new(),
    })
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
fn the_entry_dialog_asks_each_field_names_a_bad_rating_and_confirms() {
    let mut app = fixture::app(Lang::En, Role::Chief, fixture::hall(4));
    assert!(app.on_key(key('A')).is_empty());
    let name = text(&render(&app, 100, 20));
    assert!(name.contains("enter a player late"), "{name}");
    insta::assert_snapshot!("entry_name_100x20", name);
    // The name is required.
    enter(&mut app);
    assert!(text(&render(&app, 100, 20)).contains("required"));
    typed(&mut app, "王五");
    enter(&mut app);
    typed(&mut app, "CHN-42");
    enter(&mut app);
    typed(&mut app, "21x0");
    enter(&mut app);
    let bad = text(&render(&app, 100, 20));
    assert!(
        bad.contains("not a rating: 21x0 (a whole number from 0 to 65535)"),
        "{bad}"
    );
    insta::assert_snapshot!("entry_bad_rating_100x20", bad);
    for _ in 0..4 {
        app.on_key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    }
    typed(&mut app, "2150");
    enter(&mut app);
    typed(&mut app, "CHINA-FEDERATION");
    enter(&mut app);
    let long = text(&render(&app, 100, 20));
    assert!(long.contains("too long: at most 8 bytes"), "{long}");
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    typed(&mut app, "CHN");
    enter(&mut app);
    // No club.
    enter(&mut app);
    let confirm = text(&render(&app, 100, 20));
    assert!(
        confirm.contains("enter 王五 (CHN-42, 2150, CHN) late, paired from round 6?"),
        "{confirm}"
    );
    insta::assert_snapshot!("entry_confirm_100x20", confirm);
    let out = app.on_key(key('y'));
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].command,
        Command::EnterPlayer {
            name: "王五".into(),
            id: Some("CHN-42".into()),
            rating: Some(2150),
            federation: Some("CHN".into()),
            club: None,
        }
    );
    done(&mut app, out[0].id);
    assert!(text(&render(&app, 100, 20)).contains("王五 entered late"));
}

#[test]
fn the_withdrawal_dialog_picks_the_player_asks_a_reason_and_confirms() {
    // Round 5 has started: the player leaves from round 6.
    let mut app = fixture::app(Lang::ZhHans, Role::Chief, fixture::hall(4));
    assert!(app.on_key(key('D')).is_empty());
    typed(&mut app, "无名");
    enter(&mut app);
    let none = text(&render(&app, 100, 20));
    assert!(none.contains("本轮对阵中没有符合“无名”的棋手"), "{none}");
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    // Two players hold 荣: picked from a list.
    typed(&mut app, "荣");
    enter(&mut app);
    let pick = text(&render(&app, 100, 20));
    assert!(pick.contains("多名棋手符合：请选一名"), "{pick}");
    assert!(pick.contains("胡荣华") && pick.contains("赵国荣"), "{pick}");
    insta::assert_snapshot!("leave_pick_zh_100x20", pick);
    let key_of = |name: &str| {
        pick.lines()
            .find(|l| l.contains(name))
            .and_then(|l| l.chars().find(|c| c.is_ascii_digit()))
            .expect("a key")
    };
    app.on_key(key(key_of("赵国荣")));
    enter(&mut app);
    assert!(app.dialog.is_some(), "a reason is required");
    typed(&mut app, "因病退赛");
    enter(&mut app);
    let confirm = text(&render(&app, 100, 20));
    assert!(confirm.contains("赵国荣 从第 6 轮起退赛？"), "{confirm}");
    insta::assert_snapshot!("leave_confirm_zh_100x20", confirm);
    let out = app.on_key(key('y'));
    assert_eq!(
        out[0].command,
        Command::WithdrawPlayer {
            player: "赵国荣".into(),
            from_round: 6,
            reason: "因病退赛".into(),
        }
    );
    // Round 5 has started: nothing more is offered.
    assert!(done(&mut app, out[0].id).is_empty());
    assert!(app.dialog.is_none());
}

#[test]
fn a_deputy_cannot_enter_or_withdraw_a_player_and_is_told_why() {
    let role = Role::Deputy {
        name: "李四".into(),
        tables: vec![1, 2],
    };
    let mut app = fixture::app(Lang::En, role, fixture::hall(4));
    assert!(app.on_key(key('A')).is_empty(), "nothing is sent");
    assert!(app.dialog.is_none());
    let t = text(&render(&app, 140, 16));
    assert!(
        t.contains("only the chief enters a player late (deputy 李四)"),
        "{t}"
    );
    insta::assert_snapshot!("entry_deputy_refused_140x16", t);
    assert!(app.on_key(key('D')).is_empty(), "nothing is sent");
    assert!(app.dialog.is_none());
    let t = text(&render(&app, 140, 16));
    assert!(
        t.contains("only the chief withdraws a player (deputy 李四)"),
        "{t}"
    );
    // Neither key is offered in a deputy's help.
    let keys: Vec<&str> = console::keymap::keys_for(Some(&Role::Deputy {
        name: "李四".into(),
        tables: vec![1, 2],
    }))
    .map(|k| k.id)
    .collect();
    assert!(!keys.contains(&"console-key-enter-player"), "{keys:?}");
    assert!(!keys.contains(&"console-key-withdraw-player"), "{keys:?}");
}

/// A withdrawal between pairing and start: 胡荣华 leaves from the
/// unstarted round 5; the console offers at once to withdraw round 5 and
/// pair it again, then sends `WithdrawRound` and `PairNextRound`, and the
/// new proposal is shown.
#[test]
fn a_player_withdrawn_before_the_start_offers_to_withdraw_and_pair_again() {
    let mut app = fixture::app(Lang::En, Role::Chief, unstarted_round_5());
    app.on_key(key('D'));
    typed(&mut app, "胡荣华");
    enter(&mut app);
    typed(&mut app, "ill");
    enter(&mut app);
    let confirm = text(&render(&app, 100, 20));
    assert!(
        confirm.contains("withdraw 胡荣华 from round 5 on?"),
        "{confirm}"
    );
    let out = app.on_key(key('y'));
    assert_eq!(
        out[0].command,
        Command::WithdrawPlayer {
            player: "胡荣华".into(),
            from_round: 5,
            reason: "ill".into(),
        }
    );
    // Accepted: the offer, at once.
    assert!(done(&mut app, out[0].id).is_empty());
    let offer = text(&render(&app, 120, 20));
    assert!(
        offer.contains("胡荣华 is on a board of round 5, which has not started"),
        "{offer}"
    );
    insta::assert_snapshot!("repair_offer_120x20", offer);
    // `n` would leave round 5 as it is; `y` withdraws it ...
    let out = app.on_key(key('y'));
    assert_eq!(
        out[0].command,
        Command::WithdrawRound {
            round: 5,
            reason: "胡荣华 withdrawn before the round started".into(),
        }
    );
    // ... and once withdrawn, pairs round 5 again.
    let pair = done(&mut app, out[0].id);
    assert_eq!(pair.len(), 1);
    assert_eq!(pair[0].command, Command::PairNextRound);
    let proposal = RoundProposal {
        round: 5,
        system: "xiangqi".into(),
        seed: 1,
        boards: vec![RoundBoard {
            table: 1,
            red: "许银川".into(),
            black: "吕钦".into(),
            red_id: None,
            black_id: None,
            why: Vec::new(),
        }],
        bye: Some("赵国荣".into()),
        notes: Vec::new(),
    };
    app.on_server(ServerMsg::RoundProposal {
        id: pair[0].id,
        proposal: Box::new(proposal),
    });
    let preview = text(&render(&app, 120, 20));
    assert!(
        preview.contains("许银川") && preview.contains("赵国荣"),
        "{preview}"
    );
    assert!(!preview.contains("胡荣华"), "{preview}");
}

#[test]
fn a_withdrawal_of_a_player_not_on_a_board_offers_nothing() {
    let mut app = fixture::app(Lang::En, Role::Chief, unstarted_round_5());
    let out = app.on_key(key('D'));
    assert!(out.is_empty());
    typed(&mut app, "许银川");
    enter(&mut app);
    typed(&mut app, "x");
    enter(&mut app);
    let out = app.on_key(key('y'));
    // 许银川 is on a board: from round 5. Refused by the server: no offer.
    app.on_server(ServerMsg::Error(proto::ErrorReply {
        code: proto::ErrorCode::Invalid,
        message: proto::refusals::bad_player_withdrawal("许银川", proto::refusals::why_words("x")),
        re: Some(proto::RequestRef::Command { id: out[0].id }),
    }));
    assert!(app.dialog.is_none());
}
