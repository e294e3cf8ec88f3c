//! Key handling: each key path from the first key to the command it sends
//! (or the refusal), on an `App` fed the sample hall.

mod support;

use support::{keys, press};

use console::app::{ConnState, DialogStep, Outgoing, SortKey, View};
use console::fixture;
use console::keymap::{Intent, KEYS};
use console::{App, Lang};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proto::{Command, Decision, FoulKind, GameResult, Role, Side, Verdict};

fn ctrl_u(app: &mut App) {
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
}

fn enter(app: &mut App) -> Vec<Outgoing> {
    press(app, KeyCode::Enter)
}

fn chief() -> App {
    fixture::app(Lang::En, Role::Chief, fixture::hall(12))
}

fn deputy() -> App {
    let role = Role::Deputy {
        name: "李四".into(),
        tables: vec![2, 3, 7],
    };
    fixture::app(Lang::En, role, fixture::hall(12))
}

fn only(out: Vec<Outgoing>) -> Command {
    assert_eq!(out.len(), 1, "{out:?}");
    out.into_iter().next().unwrap().command
}

#[test]
fn accept_a_claim_after_confirming() {
    let mut app = chief();
    keys(&mut app, "c");
    assert_eq!(app.view, View::Claims);
    // The open claims: table 2 (escalated), table 7 (pending).
    keys(&mut app, "j");
    assert!(keys(&mut app, "y").is_empty(), "asks first");
    assert!(matches!(
        app.dialog.as_ref().map(|d| &d.step),
        Some(DialogStep::Confirm { .. })
    ));
    let cmd = only(keys(&mut app, "y"));
    assert_eq!(
        cmd,
        Command::RuleOnClaim {
            table: 7,
            claim_id: 11,
            decision: Decision::Accept
        }
    );
    assert!(app.dialog.is_none());
}

#[test]
fn declining_the_confirmation_sends_nothing() {
    let mut app = chief();
    keys(&mut app, "cjy");
    assert!(keys(&mut app, "n").is_empty());
    assert!(app.dialog.is_none());
}

#[test]
fn override_needs_a_verdict_and_a_reason() {
    let mut app = chief();
    keys(&mut app, "cjo");
    // Verdict: 4 = draw.
    assert!(keys(&mut app, "4").is_empty());
    // An empty reason is refused.
    assert!(enter(&mut app).is_empty());
    assert!(app.dialog.as_ref().is_some_and(|d| d.error.is_some()));
    keys(&mut app, "both agreed");
    assert!(enter(&mut app).is_empty(), "then confirm");
    let cmd = only(keys(&mut app, "y"));
    assert_eq!(
        cmd,
        Command::RuleOnClaim {
            table: 7,
            claim_id: 11,
            decision: Decision::Override {
                verdict: Verdict::Draw,
                must_change: None,
                reason: "both agreed".into()
            }
        }
    );
}

#[test]
fn a_deputy_escalates_and_cannot_overrule_the_chief() {
    let mut app = deputy();
    keys(&mut app, "c");
    // Deputy sees claims of tables 2 and 7 only; 7 is pending.
    assert_eq!(app.claims().len(), 2);
    keys(&mut app, "j");
    keys(&mut app, "e");
    keys(&mut app, "player insists");
    let cmd = only(enter(&mut app));
    assert_eq!(
        cmd,
        Command::EscalateClaim {
            table: 7,
            claim_id: 11,
            reason: "player insists".into()
        }
    );
    // The chief may not escalate (there is no one above).
    let mut chief = chief();
    keys(&mut chief, "cj");
    assert!(keys(&mut chief, "e").is_empty());
    assert!(chief.dialog.is_none());
}

#[test]
fn deputy_actions_outside_their_tables_are_refused_locally() {
    let mut app = deputy();
    // Pause the hall, export: not a deputy's.
    assert!(keys(&mut app, "P").is_empty());
    assert!(keys(&mut app, "E").is_empty());
    assert!(app.dialog.is_none());
    // Their own table 2: pausing works.
    keys(&mut app, "p");
    keys(&mut app, "toilet");
    assert_eq!(
        only(enter(&mut app)),
        Command::PauseTable {
            table: 2,
            reason: "toilet".into()
        }
    );
}

#[test]
fn pause_and_resume_table_and_hall() {
    let mut app = chief();
    // Table 3 is paused: p resumes at once.
    keys(&mut app, "jj");
    assert_eq!(only(keys(&mut app, "p")), Command::ResumeTable { table: 3 });
    // The hall: reason, confirm.
    keys(&mut app, "P");
    keys(&mut app, "fire drill");
    assert!(enter(&mut app).is_empty());
    assert_eq!(
        only(keys(&mut app, "y")),
        Command::PauseHall {
            reason: "fire drill".into()
        }
    );
}

#[test]
fn seal_takes_a_move_in_any_notation() {
    let mut app = chief();
    // Table 1 (Red to move after one ply? fixture: 2 plies → Red).
    app.switch_view(View::Detail(1));
    keys(&mut app, "S");
    keys(&mut app, "nonsense");
    enter(&mut app);
    assert!(app.dialog.as_ref().is_some_and(|d| d.error.is_some()));
    // Ctrl-U clears the line; a Chinese move is read on the table's board.
    ctrl_u(&mut app);
    keys(&mut app, "马二进三");
    enter(&mut app);
    let cmd = only(keys(&mut app, "y"));
    assert_eq!(
        cmd,
        Command::Seal {
            table: 1,
            sealed_move: proto::IccsMove::parse("h0g2").unwrap()
        }
    );
}

#[test]
fn record_a_foul_adjust_a_clock_and_set_a_result() {
    let mut app = chief();
    app.switch_view(View::Detail(7));
    keys(&mut app, "f3");
    keys(&mut app, "touched two pieces");
    assert_eq!(
        only(enter(&mut app)),
        Command::RecordFoul {
            table: 7,
            side: Side::Black,
            kind: FoulKind::Technical,
            note: "touched two pieces".into()
        }
    );
    keys(&mut app, "t");
    // Prefilled with the live times; replace them.
    let d = app.dialog.as_ref().unwrap();
    assert!(
        matches!(&d.step, DialogStep::Text { buffer, .. } if buffer == "0:35 58:00"),
        "{d:?}"
    );
    ctrl_u(&mut app);
    keys(&mut app, "+1:00 57:00");
    enter(&mut app);
    keys(&mut app, "clock fault");
    enter(&mut app);
    assert_eq!(
        only(keys(&mut app, "y")),
        Command::AdjustClock {
            table: 7,
            red_ms: 95_000,
            black_ms: 3_420_000,
            reason: "clock fault".into()
        }
    );
    keys(&mut app, "r2");
    keys(&mut app, "resigned");
    enter(&mut app);
    assert_eq!(
        only(keys(&mut app, "y")),
        Command::SetResult {
            table: 7,
            result: GameResult::BlackWins,
            reason: "resigned".into()
        }
    );
}

#[test]
fn acknowledge_an_alert() {
    let mut app = chief();
    keys(&mut app, "a");
    // Newest first: alert 4 (table 7).
    assert_eq!(only(keys(&mut app, "x")), Command::AckAlert { alert_id: 4 });
    // An acknowledged alert (id 1, oldest, last) is not acknowledged again.
    press(&mut app, KeyCode::End);
    assert!(keys(&mut app, "x").is_empty());
    // X: every open alert (2, 3, 4) after confirming.
    assert!(keys(&mut app, "X").is_empty());
    let ids: Vec<Command> = keys(&mut app, "y").into_iter().map(|o| o.command).collect();
    assert_eq!(
        ids,
        [4, 3, 2].map(|alert_id| Command::AckAlert { alert_id })
    );
}

#[test]
fn filter_goto_sort_and_scroll() {
    let mut app = chief();
    keys(&mut app, "/胡");
    assert_eq!(console::app::visible_tables(&app).len(), 1);
    enter(&mut app);
    assert_eq!(app.filter, "胡");
    press(&mut app, KeyCode::Esc);
    assert_eq!(console::app::visible_tables(&app).len(), 12);
    // Status words filter too.
    keys(&mut app, "/paused");
    enter(&mut app);
    assert_eq!(app.selected_table(), Some(3));
    press(&mut app, KeyCode::Esc);
    // Jump to table 11.
    keys(&mut app, "g11");
    enter(&mut app);
    assert_eq!(app.selected_table(), Some(11));
    keys(&mut app, "g99");
    enter(&mut app);
    assert!(app.dialog.as_ref().is_some_and(|d| d.error.is_some()));
    press(&mut app, KeyCode::Esc);
    // Sort by time left: the fallen flag (table 6, finished) is last; the
    // least time among games on is table 7's 0:35.
    keys(&mut app, "s");
    assert_eq!(app.sort, SortKey::TimeLeft);
    assert_eq!(
        app.selected_table(),
        Some(11),
        "selection follows the table"
    );
    let order: Vec<u16> = console::app::visible_tables(&app)
        .iter()
        .map(|t| t.table)
        .collect();
    assert_eq!(order[0], 7, "{order:?}");
    // By alerts: table 7 (two open alerts and a claim) first.
    keys(&mut app, "s");
    assert_eq!(console::app::visible_tables(&app)[0].table, 7);
    // Scroll on a small screen keeps the selection on the page.
    app.screen = (80, 10);
    press(&mut app, KeyCode::End);
    assert_eq!(app.hall_sel, 11);
    assert!(app.hall_offset + app.hall_page_rows() > 11);
    press(&mut app, KeyCode::Home);
    assert_eq!((app.hall_sel, app.hall_offset), (0, 0));
}

#[test]
fn nothing_is_sent_while_disconnected() {
    let mut app = chief();
    app.set_conn(ConnState::Disconnected {
        attempt: 2,
        error: "timed out".into(),
    });
    assert!(keys(&mut app, "p").is_empty());
    assert!(app.dialog.is_none());
    assert!(app.notice.as_ref().is_some_and(|n| n.error));
}

#[test]
fn quit_help_language_and_views() {
    let mut app = chief();
    keys(&mut app, "?");
    assert!(app.help);
    press(&mut app, KeyCode::Esc);
    assert!(!app.help);
    // The language key cycles through the four: en, vi, zh-Hans, zh-Hant.
    let mut seen = Vec::new();
    for _ in 0..4 {
        keys(&mut app, "L");
        seen.push(app.lang);
    }
    assert_eq!(seen, [Lang::Vi, Lang::ZhHans, Lang::ZhHant, Lang::En]);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.view, View::Claims);
    press(&mut app, KeyCode::BackTab);
    assert_eq!(app.view, View::Hall);
    // Opening a table asks for its log (answered with data, not tracked).
    let out = enter(&mut app);
    assert_eq!(only(out), Command::GetTableLog { table: 1 });
    assert!(app.in_flight.is_empty());
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.view, View::Hall);
    assert!(!app.quit);
    keys(&mut app, "q");
    assert!(app.quit);
    let mut app = chief();
    app.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.quit);
}

#[test]
fn replies_are_matched_to_commands() {
    let mut app = chief();
    keys(&mut app, "jjp");
    let id = app.in_flight.last().unwrap().0;
    app.on_server(proto::ServerMsg::Error(proto::ErrorReply {
        code: proto::ErrorCode::Forbidden,
        message: proto::refusals::deputy_not_assigned(3, "王五", &[1, 2]),
        re: Some(proto::RequestRef::Command { id }),
    }));
    let n = app.notice.clone().unwrap();
    assert!(n.error);
    assert!(n.text.contains("resume table"), "{}", n.text);
    assert!(n.text.contains("王五"), "{}", n.text);
    assert!(app.in_flight.is_empty());
}

/// Where a key of `intent` applies: the console it is pressed in (a
/// chief's; over two halls for the hall filter) and the keys that lead
/// there. A match with no wildcard: a new intent does not compile until
/// it says where it applies.
fn where_it_applies(intent: Intent) -> (App, &'static str) {
    let at = |keys: &'static str| (chief(), keys);
    match intent {
        Intent::Help
        | Intent::Quit
        | Intent::NextView
        | Intent::PreviousView
        | Intent::Alerts
        | Intent::Claims
        | Intent::Down
        | Intent::PageDown
        | Intent::HalfPageDown
        | Intent::Last
        | Intent::Language
        | Intent::Open
        | Intent::Sort
        | Intent::Filter
        | Intent::Goto
        | Intent::PauseHall
        | Intent::Export
        | Intent::NextRound
        | Intent::CorrectResult
        | Intent::WithdrawRound
        | Intent::EnterPlayer
        | Intent::WithdrawPlayer => at(""),
        // From the last row up.
        Intent::Up | Intent::PageUp | Intent::HalfPageUp | Intent::First => at("G"),
        // From the claims queue back to the hall.
        Intent::Back => at("c"),
        // On table 1, opened.
        Intent::Close
        | Intent::Notation
        | Intent::PauseTable
        | Intent::Seal
        | Intent::Foul
        | Intent::AdjustClock
        | Intent::MoveLimit
        | Intent::SetResult => at("l"),
        // The alerts, the first open one selected.
        Intent::AckAlert | Intent::AckAll => at("a"),
        // The claims queue, table 7's pending claim selected.
        Intent::Accept | Intent::Override | Intent::Escalate => at("cj"),
        Intent::HallFilter => {
            let app = fixture::halls_app(
                Lang::En,
                vec![
                    ("A", Role::Chief, fixture::hall(4)),
                    ("B", Role::Chief, fixture::hall(3)),
                ],
            );
            (app, "")
        }
    }
}

#[test]
fn every_listed_key_reacts() {
    let mut pressed = 0;
    for row in KEYS {
        for key in row.each_key() {
            let (mut app, lead) = where_it_applies(key.intent);
            keys(&mut app, lead);
            assert!(
                app.dialog.is_none() && !app.quit,
                "{lead:?} leads to a dialog"
            );
            let before = format!("{app:?}");
            let out = app.on_key(key.event());
            assert!(
                !out.is_empty() || format!("{app:?}") != before,
                "{} ({:?}, row {:?}) after {lead:?}: no command and no change",
                key.name(),
                key.intent,
                row.id
            );
            pressed += 1;
        }
    }
    // Every key of every row, counted from the table itself.
    let listed: usize = KEYS.iter().map(|r| r.each_key().count()).sum();
    assert_eq!(pressed, listed);
    assert!(listed >= 40, "{listed}");
}

#[test]
fn ctrl_keys_and_letters_are_told_apart() {
    use console::keymap::intent_of;
    let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    let plain = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    assert_eq!(intent_of(&ctrl('f')), Some(Intent::PageDown));
    assert_eq!(intent_of(&plain('f')), Some(Intent::Foul));
    assert_eq!(intent_of(&ctrl('d')), Some(Intent::HalfPageDown));
    assert_eq!(intent_of(&plain('d')), None);
    // A capital comes with Shift from a real terminal.
    let shift_g = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
    assert_eq!(intent_of(&shift_g), Some(Intent::Last));
    // Ctrl-C quits from inside a dialog too.
    let mut app = chief();
    keys(&mut app, "/");
    assert!(app.dialog.is_some());
    app.on_key(ctrl('c'));
    assert!(app.quit);
}
