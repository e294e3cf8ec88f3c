//! One console over several halls, without a network: two sample halls in
//! one `App` — the overview with its hall column and the `H` filter, the
//! alert and claim queues labelled by hall (insta snapshots), every action
//! addressed to the selected row's hall, and a deputy of one hall who is
//! offered nothing in the other.

mod support;

use support::{keys, press, screen};

use console::app::View;
use console::fixture;
use console::{App, Lang};
use crossterm::event::KeyCode;
use proto::{Command, Role};

/// Hall A: 4 tables; hall B: 3 tables (rooms of one tournament).
fn two_halls(role_a: Role, role_b: Role) -> App {
    fixture::halls_app(
        Lang::En,
        vec![
            ("A", role_a, fixture::hall(4)),
            ("B", role_b, fixture::hall(3)),
        ],
    )
}

fn deputy_of_a() -> Role {
    Role::Deputy {
        name: "李四".into(),
        tables: vec![1, 2],
    }
}

#[test]
fn both_halls_tables_in_one_overview_with_a_hall_column() {
    let app = two_halls(Role::Chief, Role::Chief);
    let rows: Vec<(usize, u16)> = console::app::table_rows(&app)
        .iter()
        .map(|(h, t)| (*h, t.table))
        .collect();
    assert_eq!(
        rows,
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 1), (1, 2), (1, 3)]
    );
    let t = screen(&app, 120, 16);
    assert!(
        t.contains("全国象棋个人赛 · round 5 · A: chief arbiter · B: chief arbiter"),
        "{t}"
    );
    assert!(t.contains("7/7"), "{t}");
    insta::assert_snapshot!("halls_overview_120x16", t);
    // Rooms of different tournaments: no one tournament in the title.
    let mut other = fixture::hall(3);
    other.tournament = "另一赛事".into();
    let app = fixture::halls_app(
        Lang::En,
        vec![
            ("A", Role::Chief, fixture::hall(4)),
            ("B", Role::Chief, other),
        ],
    );
    let t = screen(&app, 120, 16);
    assert!(
        !t.contains("全国象棋个人赛") && !t.contains("另一赛事"),
        "{t}"
    );
}

#[test]
fn h_filters_by_hall_and_the_hints_say_so() {
    let mut app = two_halls(Role::Chief, Role::Chief);
    assert!(screen(&app, 100, 16).contains("H Hall: all halls"));
    keys(&mut app, "H");
    assert_eq!(app.hall_filter, Some(0));
    assert_eq!(console::app::visible_count(&app), 4);
    keys(&mut app, "H");
    assert_eq!(app.hall_filter, Some(1));
    let t = screen(&app, 100, 16);
    assert!(t.contains("H Hall: B") && t.contains("3/3"), "{t}");
    // The queues follow the filter: hall A's alerts are gone.
    assert!(app.alert_rows().iter().all(|(h, _)| *h == 1));
    keys(&mut app, "H");
    assert_eq!(app.hall_filter, None);
    assert_eq!(console::app::visible_count(&app), 7);
    // The help lists H only for several halls.
    keys(&mut app, "?");
    assert!(screen(&app, 100, 50).contains("hall filter"));
    let mut one = fixture::app(Lang::En, Role::Chief, fixture::hall(4));
    keys(&mut one, "H?");
    assert_eq!(one.hall_filter, None);
    assert!(!screen(&one, 100, 50).contains("hall filter"));
}

#[test]
fn alerts_and_claims_of_all_halls_in_one_queue_labelled() {
    let mut app = two_halls(Role::Chief, Role::Chief);
    // The sample hall(4) has the alerts of tables 5-7 and claims of 2, 7
    // and 9; hall(3) the same: each listed once per hall.
    let halls: Vec<usize> = app.claim_rows().iter().map(|(h, _)| *h).collect();
    assert!(halls.contains(&0) && halls.contains(&1), "{halls:?}");
    keys(&mut app, "c");
    let t = screen(&app, 100, 30);
    insta::assert_snapshot!("halls_claims_100x30", t);
    keys(&mut app, "a");
    let t = screen(&app, 100, 30);
    assert!(t.contains(" A #  6") && t.contains(" B #  6"), "{t}");
    insta::assert_snapshot!("halls_alerts_100x30", t);
    // X acknowledges every open alert, each at its own hall's server.
    assert!(keys(&mut app, "X").is_empty(), "asks first");
    let out = keys(&mut app, "y");
    let mut sent: Vec<(usize, Command)> = out.into_iter().map(|o| (o.hall, o.command)).collect();
    sent.sort_by_key(|(h, c)| (*h, format!("{c:?}")));
    let ack = |h: usize, id: u64| (h, Command::AckAlert { alert_id: id });
    assert_eq!(
        sent,
        [
            ack(0, 2),
            ack(0, 3),
            ack(0, 4),
            ack(1, 2),
            ack(1, 3),
            ack(1, 4)
        ]
    );
}

#[test]
fn an_action_goes_to_the_selected_rows_hall_only() {
    let mut app = two_halls(Role::Chief, Role::Chief);
    // The last row is hall B's table 3.
    keys(&mut app, "G");
    assert_eq!(app.selected(), Some((1, 3)));
    // Its table is paused (sample table 3): p resumes it, at once.
    let out = keys(&mut app, "p");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].hall, 1);
    assert_eq!(out[0].command, Command::ResumeTable { table: 3 });
    // Going to table 1 lands on the focused hall's (B's).
    keys(&mut app, "g1");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.selected(),
        Some((1, 1)),
        "goto prefers the focused hall"
    );
    // Hall A's table 1: pause with a reason, the dialog names the hall.
    press(&mut app, KeyCode::Home);
    assert_eq!(app.selected(), Some((0, 1)));
    keys(&mut app, "p");
    let title = app
        .dialog
        .as_ref()
        .map(|d| d.title.clone())
        .unwrap_or_default();
    assert!(title.starts_with("A · "), "{title}");
    keys(&mut app, "phone");
    let out = press(&mut app, KeyCode::Enter);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].hall, 0);
    assert!(matches!(
        out[0].command,
        Command::PauseTable { table: 1, .. }
    ));
    // Opening B's table 1 focuses hall B: the detail is B's, and so is
    // the log request.
    keys(&mut app, "j".repeat(4).as_str());
    assert_eq!(app.selected(), Some((1, 1)));
    let out = press(&mut app, KeyCode::Enter);
    assert_eq!(app.view, View::Detail(1));
    assert_eq!(app.focus, 1);
    assert_eq!(out.first().map(|o| o.hall), Some(1));
    assert!(screen(&app, 100, 30).contains("B · Table 1"));
}

#[test]
fn a_deputy_of_hall_a_is_offered_nothing_in_hall_b() {
    let mut app = two_halls(deputy_of_a(), Role::Viewer);
    // A's tables 1 and 2 (the assignment), all of B's (a viewer there).
    let rows: Vec<(usize, u16)> = console::app::table_rows(&app)
        .iter()
        .map(|(h, t)| (*h, t.table))
        .collect();
    assert_eq!(rows, [(0, 1), (0, 2), (1, 1), (1, 2), (1, 3)]);
    let t = screen(&app, 120, 16);
    assert!(t.contains("A: deputy 李四 · B: viewer"), "{t}");
    // On A's table 2: offered.
    keys(&mut app, "j");
    assert_eq!(app.selected(), Some((0, 2)));
    keys(&mut app, "f");
    assert!(app.dialog.is_some(), "a foul on A's table 2");
    press(&mut app, KeyCode::Esc);
    // On B's table 1: refused in the console, nothing sent.
    keys(&mut app, "j");
    assert_eq!(app.selected(), Some((1, 1)));
    for k in ["p", "f", "t", "r", "S", "m", "P"] {
        assert!(keys(&mut app, k).is_empty(), "{k}");
        assert!(app.dialog.is_none(), "{k}");
        let n = app.notice.as_ref().expect("a notice");
        assert!(n.error && n.text.starts_with("B · "), "{k}: {n:?}");
    }
    // B's claims are listed but cannot be ruled on.
    keys(&mut app, "c");
    let i = app
        .claim_rows()
        .iter()
        .position(|(h, c)| *h == 1 && c.status.is_open())
        .expect("an open claim of B");
    app.claim_sel = i;
    assert!(keys(&mut app, "y").is_empty());
    assert!(app.dialog.is_none());
    assert!(keys(&mut app, "e").is_empty());
}

/// Each hall's rows carry its link's state: hall A connected (●), hall B
/// reconnecting (↻) with its clocks held as last heard, then refused for
/// good (✗), the banner naming the cause.
#[test]
fn each_halls_rows_mark_its_link_state() {
    use console::app::ConnState;
    let mut app = two_halls(Role::Chief, Role::Chief);
    app.set_conn_in(
        1,
        ConnState::Disconnected {
            attempt: 3,
            error: "no answer from 10.0.0.2:4433 within 3s".into(),
        },
    );
    let down = screen(&app, 120, 16);
    let rows = |t: &str, hall: &str| {
        t.lines()
            .filter(|l| l.trim_start().starts_with(hall))
            .count()
    };
    assert_eq!((rows(&down, "A  ●"), rows(&down, "B  ↻")), (4, 3), "{down}");
    insta::assert_snapshot!("halls_link_states_120x16", down);
    // Hall B's clocks are held as last heard; hall A's run on.
    let times = |app: &App, hall: usize| -> Vec<(i64, i64)> {
        console::app::table_rows(app)
            .iter()
            .filter(|(h, _)| *h == hall)
            .map(|(h, t)| app.live_times_in(*h, t))
            .collect()
    };
    let (a, b) = (times(&app, 0), times(&app, 1));
    app.tick(app.now_ms + 10_000);
    assert_eq!(times(&app, 1), b);
    assert_ne!(times(&app, 0), a, "hall A's running clocks tick");
    app.set_conn_in(
        1,
        ConnState::Refused {
            error: "unknown token (unauthenticated)".into(),
        },
    );
    let refused = screen(&app, 120, 16);
    assert_eq!(rows(&refused, "B  ✗"), 3, "{refused}");
    assert!(
        refused.contains("refused by the server, not retrying: unknown token"),
        "{refused}"
    );
    assert!(app.refused().is_none(), "hall A still answers");
}
