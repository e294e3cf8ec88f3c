//! The console in its four languages (issue 33): the hall view and the
//! claims queue with a repetition ruling drawn in zh-Hans, zh-Hant, en and
//! vi (insta snapshots), a long Vietnamese ruling in a narrow terminal, and
//! the cell grid kept whole in every language — each drawn row exactly
//! the terminal's width, the table rows' cells at the same columns.

mod support;

use support::{keys, press, render, text};

use console::app::View;
use console::crossterm::event::KeyCode;
use console::fixture;
use console::{App, Lang};
use proto::{Message, Role, Side};
use unicode_width::UnicodeWidthStr;

/// The chief's console over the sample hall, the pending repetition claim
/// (table 7) explained by catalogue messages, so that the explanation is
/// in the console's language too: "table 7: repetition (the position
/// occurred 3 times): Black must change, or loses".
fn chief(lang: Lang) -> App {
    let mut hall = fixture::hall(12);
    let must_change = Message::new("term-must-change").side("side", Side::Black);
    for c in hall.claims.iter_mut().filter(|c| c.table == 7) {
        c.recommended.explanation = i18n::texts::repetition(7, 3, must_change.clone());
    }
    fixture::app(lang, Role::Chief, hall)
}

/// The claims queue with table 7's repetition claim selected (the second
/// row: the escalated claim of table 2 is older).
fn claims_at_table_7(lang: Lang) -> App {
    let mut app = chief(lang);
    app.switch_view(View::Claims);
    press(&mut app, KeyCode::Down);
    app
}

/// Every row of the drawn buffer takes exactly `w` columns: no wide glyph
/// cut in two, no cell left over by a width counted wrong.
fn assert_rows_whole(buf: &ratatui::buffer::Buffer, what: &str) {
    for y in 0..buf.area.height {
        let mut cols = 0usize;
        let mut x = 0u16;
        while x < buf.area.width {
            let w = buf[(x, y)].symbol().width().max(1);
            cols += w;
            x += w as u16;
        }
        assert_eq!(cols, usize::from(buf.area.width), "{what}: row {y}");
    }
}

#[test]
fn the_hall_view_in_each_language() {
    for lang in Lang::ALL {
        let app = chief(lang);
        let buf = render(&app, 120, 24);
        assert_rows_whole(&buf, lang.tag());
        let t = text(&buf);
        let s = console::i18n::Words::s(lang);
        assert!(t.contains(s.status), "{lang}: no {:?} in\n{t}", s.status);
        // Each table row's cells line up: the column where the red
        // player's clock ends is the same in every row (names and words
        // of two-column CJK and of Vietnamese with its marks padded
        // alike).
        let ends: std::collections::BTreeSet<usize> = t
            .lines()
            .filter_map(|l| {
                let i = l.find(" 1:")?;
                Some(l[..i].width())
            })
            .collect();
        assert_eq!(ends.len(), 1, "{lang}: clock columns {ends:?}\n{t}");
        insta::assert_snapshot!(format!("hall_120x24_{}", lang.tag()), t);
    }
}

#[test]
fn a_repetition_ruling_in_each_language() {
    let want = [
        (Lang::ZhHans, "黑方必须变着，不变判负"),
        (Lang::ZhHant, "黑方必須變著，不變作負"),
        (Lang::En, "Black must change, or loses"),
        (Lang::Vi, "Đen phải thay đổi nước đi, nếu không bị xử thua"),
    ];
    for (lang, words) in want {
        let app = claims_at_table_7(lang);
        let buf = render(&app, 120, 24);
        assert_rows_whole(&buf, lang.tag());
        let t = text(&buf);
        assert!(t.contains(words), "{lang}: no {words:?} in\n{t}");
        insta::assert_snapshot!(format!("claims_120x24_{}", lang.tag()), t);
    }
}

#[test]
fn a_long_vietnamese_ruling_in_a_narrow_terminal() {
    let app = claims_at_table_7(Lang::Vi);
    let buf = render(&app, 60, 20);
    assert_rows_whole(&buf, "vi 60x20");
    let t = text(&buf);
    // Cut to the width, never split inside a character: the start of the
    // ruling is there and every line fits.
    assert!(t.contains("bàn 7: lặp lại"), "{t}");
    for l in t.lines() {
        assert!(l.width() <= 60, "{l:?}");
    }
    insta::assert_snapshot!("claims_60x20_vi", t);
}

/// A refusal of the server (protocol 8: a catalogue id with typed
/// arguments, not the server's English sentence) on the status line in
/// each language: why, with the deputy's name as written, and the code.
#[test]
fn a_refusal_in_each_language() {
    for lang in Lang::ALL {
        let mut app = chief(lang);
        keys(&mut app, "jjp");
        let id = app.in_flight.last().expect("a command in flight").0;
        app.on_server(proto::ServerMsg::Error(proto::ErrorReply {
            code: proto::ErrorCode::Forbidden,
            message: proto::refusals::deputy_not_assigned(3, "王五", &[1, 2]),
            re: Some(proto::RequestRef::Command { id }),
        }));
        let buf = render(&app, 120, 24);
        assert_rows_whole(&buf, lang.tag());
        let t = text(&buf);
        let why = match lang {
            Lang::ZhHans => "第 3 台不归副裁判 王五 负责（负责：1, 2） (无权操作)",
            Lang::ZhHant => "第 3 台不歸副裁判 王五 負責（負責：1, 2） (無權操作)",
            Lang::En => "table 3 is not assigned to deputy 王五 (assigned: 1, 2) (forbidden)",
            Lang::Vi => {
                "bàn 3 không được giao cho phó trọng tài 王五 (được giao: 1, 2) (không có quyền)"
            }
        };
        let notice = app.notice.clone().expect("a notice");
        assert!(notice.error);
        assert!(notice.text.ends_with(why), "{lang}: {}", notice.text);
        // The status line shows it (as much as fits in 120 columns).
        let shown: String = why.chars().take(12).collect();
        assert!(t.contains(&shown), "{lang}: no {shown:?} in\n{t}");
        insta::assert_snapshot!(format!("refusal_120x24_{}", lang.tag()), t);
    }
}

/// Table 3's audit rows in the detail view (issue 33, protocol 10): rows
/// with typed messages render in the console's language — a command, a
/// refused command with its refusal's own words, a claim that lapsed —
/// and a row stored before (text only, the fixture's) shows as stored.
fn audit_at_table_3(lang: Lang) -> App {
    use proto::{AuditEntry, Command, Decision, Verdict};
    let mut hall = fixture::hall(12);
    let pause = Command::PauseTable {
        table: 3,
        reason: "停电 mất điện".into(),
    };
    let overrule = Command::RuleOnClaim {
        table: 3,
        claim_id: 4,
        decision: Decision::Override {
            verdict: Verdict::Loss { side: Side::Red },
            must_change: None,
            reason: "長將".into(),
        },
    };
    let resume = Command::ResumeTable { table: 3 };
    let why = proto::refusals::not_paused(3);
    let lapsed = hall::audit::claim_lapsed(3, 5, hall::audit::lapse::moved(Side::Black));
    let row = |id: u64, ago: u64, who: &str, what: Message, why: Option<Message>| AuditEntry {
        id,
        at_ms: fixture::SERVER_MS - ago,
        who: who.into(),
        what: i18n::texts::english(&what),
        table: Some(3),
        refused: why.as_ref().map(i18n::texts::english),
        what_msg: Some(what),
        refused_msg: why,
    };
    hall.audit.extend([
        row(10, 240_000, "chief", hall::command::typed(&pause), None),
        row(11, 180_000, "server", lapsed, None),
        row(12, 120_000, "chief", hall::command::typed(&overrule), None),
        row(
            13,
            60_000,
            "deputy 李四",
            hall::command::typed(&resume),
            Some(why),
        ),
    ]);
    let mut app = fixture::app(lang, Role::Chief, hall);
    app.switch_view(View::Detail(3));
    app
}

#[test]
fn the_audit_rows_in_each_language_typed_and_stored_before() {
    for lang in Lang::ALL {
        let app = audit_at_table_3(lang);
        let buf = render(&app, 120, 30);
        assert_rows_whole(&buf, lang.tag());
        let t = text(&buf);
        // The row stored before protocol 10 is shown as stored.
        assert!(t.contains("paused table 3"), "{lang}:\n{t}");
        let typed = match lang {
            Lang::ZhHans => "暂停第3台：停电 mất điện",
            Lang::ZhHant => "暫停第3台：停电 mất điện",
            Lang::En => "pause table 3: 停电 mất điện",
            Lang::Vi => "tạm dừng bàn 3: 停电 mất điện",
        };
        assert!(t.contains(typed), "{lang}: no {typed:?} in\n{t}");
        // The refusal in the console's words, not the stored English.
        let why = i18n::render(lang, &proto::refusals::not_paused(3));
        assert!(t.contains(&why), "{lang}: no {why:?} in\n{t}");
        if lang == Lang::En {
            continue;
        }
        insta::assert_snapshot!(format!("audit_120x30_{}", lang.tag()), t);
    }
}

/// The claims screen with table 7's claim lapsed (the clock started: the
/// players came), selected: its reason travels typed (protocol 10) and is
/// drawn in the console's language, not in the hall's English.
fn lapsed_at_table_7(lang: Lang) -> App {
    let mut hall = fixture::hall(12);
    for c in hall.claims.iter_mut().filter(|c| c.table == 7) {
        c.status = proto::ClaimStatus::Lapsed {
            why: Message::new("audit-lapse-clock-started"),
            at_ms: 1_700_000_000_000,
        };
    }
    let mut app = fixture::app(lang, Role::Chief, hall);
    app.switch_view(View::Claims);
    app.claim_sel = app
        .claim_rows()
        .iter()
        .position(|(_, c)| c.table == 7)
        .expect("table 7's claim");
    app
}

#[test]
fn a_lapsed_claims_reason_in_each_language() {
    let want = [
        (Lang::ZhHans, "棋钟已启动：双方棋手已到场"),
        (Lang::ZhHant, "棋鐘已啟動：雙方棋手已到場"),
        (Lang::En, "the clock started: the players are at the board"),
        (Lang::Vi, "đồng hồ đã chạy: hai kỳ thủ đã có mặt"),
    ];
    for (lang, words) in want {
        let app = lapsed_at_table_7(lang);
        let buf = render(&app, 120, 24);
        assert_rows_whole(&buf, lang.tag());
        let t = text(&buf);
        assert!(t.contains(words), "{lang}: no {words:?} in\n{t}");
        if lang != Lang::En {
            assert!(!t.contains("clock started"), "{lang}: English in\n{t}");
        }
    }
}
