//! Rendering tests: the console drawn into ratatui's `TestBackend` and
//! compared with committed insta snapshots (text), plus checks of cell
//! colours where colour carries meaning (low time, fallen flag, red and
//! black pieces, the disconnected banner).

mod support;

use support::{render, text};

use console::app::{ConnState, View};
use console::fixture::{self, SERVER_MS};
use console::ui::theme;
use console::{App, Lang};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proto::{Role, ServerMsg};
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use unicode_width::UnicodeWidthStr;

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn chief(lang: Lang) -> App {
    fixture::app(lang, Role::Chief, fixture::hall(12))
}

/// (x, y) of the first cell whose symbol starts `needle` on row `y`.
fn find(buf: &Buffer, needle: &str) -> Option<(u16, u16)> {
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let mut s = String::new();
            let mut xx = x;
            while xx < buf.area.width && s.width() < needle.width() {
                let sym = buf[(xx, y)].symbol();
                s.push_str(sym);
                // The cell after a wide glyph is its continuation.
                xx += sym.width().max(1) as u16;
            }
            if s == needle {
                return Some((x, y));
            }
        }
    }
    None
}

#[test]
fn hall_overview_80x24() {
    let app = chief(Lang::En);
    let buf = render(&app, 80, 24);
    insta::assert_snapshot!("hall_80x24", text(&buf));
}

#[test]
fn hall_overview_200x60_in_chinese() {
    let app = chief(Lang::ZhHans);
    let buf = render(&app, 200, 60);
    insta::assert_snapshot!("hall_200x60_zh", text(&buf));
}

#[test]
fn clocks_are_coloured_by_urgency_and_flag() {
    let app = chief(Lang::En);
    let buf = render(&app, 80, 24);
    // Table 2: Black on 4:22 - 10 s = 4:12, under five minutes: yellow.
    let (x, y) = find(&buf, "4:12").expect("table 2's black clock");
    assert_eq!(buf[(x, y)].fg, Color::Yellow);
    // Table 6: Red's flag fell: white on red, marked.
    let (x, y) = find(&buf, "⚑0:00").expect("table 6's fallen flag");
    assert_eq!(buf[(x, y)].bg, Color::Red);
    // Table 7: 45 s - 10 s = 0:35, under a minute: light red.
    let (x, y) = find(&buf, "0:35").expect("table 7's red clock");
    assert_eq!(buf[(x, y)].fg, Color::LightRed);
    // Red's names in red.
    let (x, y) = find(&buf, "胡荣华").unwrap();
    assert_eq!(buf[(x, y)].fg, theme::RED);
}

#[test]
fn chinese_names_keep_columns_aligned() {
    let app = chief(Lang::En);
    let buf = render(&app, 80, 24);
    let t = text(&buf);
    // The clock columns end in the same display column on every table row.
    let ends: Vec<usize> = t
        .lines()
        .filter(|l| l.contains("playing"))
        .map(|l| {
            let i = l.find("playing").unwrap();
            l[..i].width()
        })
        .collect();
    assert!(ends.len() >= 5, "{t}");
    assert!(ends.windows(2).all(|w| w[0] == w[1]), "{ends:?}\n{t}");
}

#[test]
fn clocks_tick_with_time() {
    let mut app = chief(Lang::En);
    // Table 1's Red runs: 1:05:00 - 10 s.
    assert!(text(&render(&app, 80, 24)).contains("1:04:50"));
    assert!(app.tick(5_000));
    assert!(text(&render(&app, 80, 24)).contains("1:04:45"));
    // Within the same second nothing needs redrawing.
    assert!(!app.tick(5_400));
}

#[test]
fn claims_queue() {
    let mut app = chief(Lang::En);
    app.on_key(key('c'));
    assert_eq!(app.view, View::Claims);
    let buf = render(&app, 100, 30);
    let t = text(&buf);
    assert!(t.contains("AXF-D1"), "{t}");
    assert!(t.contains("Black must change"), "{t}");
    assert!(t.contains("deputy 李四"), "{t}");
    insta::assert_snapshot!("claims_100x30", t);
}

/// "play on" is two rulings: the false natural-limit claim's recommendation
/// names its penalty (list, details, the accept confirmation), the
/// override menu's "play on" says "no penalty", and its confirmation says
/// what it waives.
#[test]
fn the_two_kinds_of_play_on_have_a_name_each() {
    let mut app = chief(Lang::En);
    app.on_key(key('c'));
    let list = text(&render(&app, 100, 30));
    assert!(
        list.contains("→ play on, technical foul, 5:00 off [AXF-LIMIT-1"),
        "{list}"
    );
    assert!(
        list.contains("Recommended: play on, technical foul, 5:00 off"),
        "{list}"
    );
    // The dialog wraps its text: read it with the box and the wrapping gone.
    let flat = |t: &str| {
        t.replace('│', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    app.on_key(key('y'));
    let accept = text(&render(&app, 100, 30));
    assert!(
        flat(&accept).contains("accept the recommended ruling: play on, technical foul, 5:00 off?"),
        "{accept}"
    );
    insta::assert_snapshot!("claims_accept_penalised_play_on_100x30", accept);
    app.on_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    app.on_key(key('o'));
    let menu = text(&render(&app, 100, 30));
    assert!(menu.contains("1  play on, no penalty"), "{menu}");
    insta::assert_snapshot!("claims_override_menu_100x30", menu);
    app.on_key(key('1'));
    for c in "count disputed".chars() {
        app.on_key(key(c));
    }
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    let confirm = text(&render(&app, 100, 30));
    assert!(
        flat(&confirm).contains(
            "override the ruling: play on, no penalty (waives technical foul, 5:00 off)?"
        ),
        "{confirm}"
    );
    insta::assert_snapshot!("claims_override_play_on_no_penalty_100x30", confirm);
}

#[test]
fn claims_queue_in_chinese_shows_the_chinese_explanation() {
    let mut app = chief(Lang::ZhHans);
    app.on_key(key('c'));
    app.on_key(key('j'));
    let t = text(&render(&app, 100, 30));
    // The rulebook's ruling, in the catalogue's Simplified Chinese.
    assert!(
        t.contains("黑方长将。黑方犯例，必须变着，不变作负。"),
        "{t}"
    );
}

#[test]
fn table_detail_with_board() {
    let mut app = chief(Lang::ZhHans);
    app.on_key(key('j')); // table 2
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(app.view, View::Detail(2));
    let buf = render(&app, 100, 30);
    let t = text(&buf);
    assert!(t.contains("炮二平五"), "{t}");
    insta::assert_snapshot!("detail_100x30_zh", t);
    // Red pieces in red, black pieces in black, on the board's wood.
    let (x, y) = find(&buf, "帥").expect("red king");
    assert_eq!(buf[(x, y)].fg, theme::BOARD_RED);
    assert_eq!(buf[(x, y)].bg, theme::BOARD_BG);
    let (x, y) = find(&buf, "將").expect("black king");
    assert_eq!(buf[(x, y)].fg, theme::BOARD_BLACK);
    // The last move (h9g7, 馬８進７) is marked: its origin 〇 and its
    // destination highlighted.
    let (x, y) = find(&buf, "〇").expect("last move origin");
    assert_ne!(buf[(x, y)].bg, theme::BOARD_BG);
}

#[test]
fn table_detail_in_wxf_at_80x24() {
    let mut app = chief(Lang::En);
    app.switch_view(View::Detail(1));
    app.on_key(key('n'));
    let t = text(&render(&app, 80, 24));
    assert!(t.contains("C2.5"), "{t}");
    insta::assert_snapshot!("detail_80x24_wxf", t);
}

#[test]
fn help_lists_every_key() {
    let mut app = chief(Lang::En);
    app.on_key(key('?'));
    let t = text(&render(&app, 100, 50));
    for k in console::keymap::keys_for(Some(&Role::Chief)) {
        let words = console::keymap::describe(k, Lang::En);
        assert!(t.contains(words), "missing {:?}\n{t}", k.keys);
    }
    insta::assert_snapshot!("help_chief_100x50", t);
}

#[test]
fn deputy_sees_assigned_tables_and_only_their_actions() {
    let role = Role::Deputy {
        name: "李四".into(),
        tables: vec![2, 3, 7],
    };
    let mut app = fixture::app(Lang::En, role, fixture::hall(12));
    let t = text(&render(&app, 80, 24));
    insta::assert_snapshot!("deputy_hall_80x24", t);
    assert!(!t.contains("许银川"), "table 1 is not theirs:\n{t}");
    assert!(t.contains("赵国荣"), "{t}");
    // Pausing the hall is not offered, and refused if tried.
    assert!(app.on_key(key('P')).is_empty());
    assert!(app.notice.as_ref().is_some_and(|n| n.error));
    app.on_key(key('?'));
    let help = text(&render(&app, 100, 50));
    assert!(!help.contains("pause / resume the whole hall"), "{help}");
    assert!(!help.contains("export the round"), "{help}");
    assert!(help.contains("escalate to the chief"), "{help}");
    insta::assert_snapshot!("help_deputy_100x50", help);
}

#[test]
fn disconnected_banner() {
    let mut app = chief(Lang::En);
    app.set_conn(ConnState::Disconnected {
        attempt: 3,
        error: "connection refused".into(),
    });
    let buf = render(&app, 80, 24);
    let t = text(&buf);
    assert!(t.contains("disconnected — retrying"), "{t}");
    insta::assert_snapshot!("disconnected_80x24", t);
    let (x, y) = find(&buf, "disconnected").unwrap();
    assert_eq!(buf[(x, y)].bg, Color::Red);
    // Chinese.
    app.lang = Lang::ZhHans;
    assert!(text(&render(&app, 80, 24)).contains("连接中断 — 正在重试"));
}

/// A hello the server refused (an unknown token, another protocol
/// version) is drawn from the typed refusal in the console's language,
/// its words and its code; `app.refused()` says why in that language too.
#[test]
fn a_refused_hello_in_the_consoles_language() {
    use console::app::LinkError;
    use proto::{refusals, ErrorCode, ErrorReply};
    let reply = |code: ErrorCode, message| {
        LinkError::Refused(ErrorReply {
            code,
            message,
            re: None,
        })
    };
    let token = reply(ErrorCode::Unauthenticated, refusals::unknown_token());
    let version = reply(
        ErrorCode::BadVersion { server: 10 },
        refusals::bad_version(10),
    );
    let mut app = chief(Lang::En);
    app.set_conn(ConnState::Refused { error: token });
    let en = text(&render(&app, 80, 24));
    insta::assert_snapshot!("refused_token_en_80x24", en);
    app.lang = Lang::Vi;
    let vi = text(&render(&app, 80, 24));
    insta::assert_snapshot!("refused_token_vi_80x24", vi);
    let en_line = en.lines().find(|l| l.contains('⛔')).expect("the banner");
    let vi_line = vi.lines().find(|l| l.contains('⛔')).expect("the banner");
    assert!(en_line.contains("unknown token"), "{en}");
    assert_ne!(en_line, vi_line);
    assert!(!vi_line.contains("unknown token"), "{vi}");
    let why = app.refused().expect("the console stops");
    assert!(!why.contains("unknown token"), "{why}");
    // Another version, in Traditional Chinese: the server's version is a
    // typed argument.
    app.lang = Lang::ZhHant;
    app.set_conn(ConnState::Refused { error: version });
    let hant = text(&render(&app, 80, 24));
    let line = hant.lines().find(|l| l.contains('⛔')).expect("the banner");
    assert!(line.contains("10"), "{hant}");
    assert!(!line.is_ascii(), "{hant}");
    // The transport's own words are shown as they are.
    app.set_conn(ConnState::Refused {
        error: "certificate fingerprint mismatch".into(),
    });
    let t = text(&render(&app, 80, 24));
    assert!(t.contains("certificate fingerprint mismatch"), "{t}");
}

#[test]
fn hall_pause_banner_and_fresh_snapshot() {
    let mut app = chief(Lang::En);
    app.on_server(ServerMsg::Delta(proto::Delta::HallPaused(Some(
        proto::PauseInfo {
            by: "chief".into(),
            reason: "fire drill".into(),
        },
    ))));
    let buf = render(&app, 80, 24);
    assert!(text(&buf).contains("HALL PAUSED — chief: fire drill"));
    // Clocks stop while the hall is paused: table 1 shows its reading.
    app.tick(60_000);
    let t = text(&render(&app, 80, 24));
    assert!(t.contains("1:05:00") && !t.contains("1:04:"), "{t}");
    // A fresh snapshot replaces everything.
    let mut hall = fixture::hall(3);
    hall.server_ms = SERVER_MS + 60_000;
    app.on_server(ServerMsg::Snapshot(Box::new(hall)));
    let t = text(&render(&app, 80, 24));
    assert!(!t.contains("HALL PAUSED"), "{t}");
    assert!(t.contains("3/3"), "{t}");
}

#[test]
fn dialogs_render() {
    let mut app = chief(Lang::En);
    app.on_key(key('r'));
    let t = text(&render(&app, 80, 24));
    assert!(t.contains("1-0  Red wins"), "{t}");
    insta::assert_snapshot!("dialog_result_80x24", t);
}

#[test]
fn no_color_renders_every_cell_in_the_terminals_own_colours() {
    use ratatui::style::Modifier;
    assert_eq!(theme::Theme::choose(None, Some("1")), theme::Theme::Plain);
    assert_eq!(theme::Theme::choose(None, Some("")), theme::Theme::Color);
    assert_eq!(theme::Theme::choose(None, None), theme::Theme::Color);
    assert_eq!(
        theme::Theme::choose(Some(theme::Theme::Color), Some("1")),
        theme::Theme::Color,
        "--theme wins over NO_COLOR"
    );
    let mut app = chief(Lang::ZhHans);
    app.theme = theme::Theme::Plain;
    let hall = render(&app, 100, 30);
    app.on_key(key('j'));
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    let detail = render(&app, 100, 30);
    for buf in [&hall, &detail] {
        for (i, cell) in buf.content.iter().enumerate() {
            assert_eq!(
                (cell.fg, cell.bg),
                (Color::Reset, Color::Reset),
                "cell {i} {:?}",
                cell.symbol()
            );
        }
    }
    // The same screen as in colour, and the pieces still apart: the sides
    // by glyph (帥 將, 俥 車, ...; both bold), the last move by reverse video.
    let mut colour = app.clone();
    colour.theme = theme::Theme::Color;
    assert_eq!(text(&detail), text(&render(&colour, 100, 30)));
    let (x, y) = find(&detail, "帥").expect("red king");
    assert!(detail[(x, y)].modifier.contains(Modifier::BOLD));
    for (red, black) in [
        ("帥", "將"),
        ("俥", "車"),
        ("傌", "馬"),
        ("炮", "砲"),
        ("兵", "卒"),
    ] {
        assert!(find(&detail, red).is_some(), "{red}");
        assert!(find(&detail, black).is_some(), "{black}");
    }
    let (x, y) = find(&detail, "〇").expect("last move origin");
    assert!(detail[(x, y)].modifier.contains(Modifier::REVERSED));
}
