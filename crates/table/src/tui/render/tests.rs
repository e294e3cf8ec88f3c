//! Rendering snapshots (ratatui TestBackend + insta): running, paused,
//! offline with waiting events, sealed. The screens come from a real
//! engine driven with fixed times, so they are deterministic.

use super::*;
use crate::engine::{Action, Engine, TableInfo};
use crate::Outbox;
use proto::ControlToTable;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn engine() -> Engine {
    let mut e = Engine::new(
        TableInfo {
            table: 7,
            red: "胡荣华".into(),
            black: "许银川".into(),
            control: rulebook::TimeControl::axf_fischer(),
            round: 1,
        },
        Outbox::memory(7, 1),
    );
    e.act(Action::StartClock, 0).unwrap();
    e.act(Action::Play("h2e2".into()), 12_000).unwrap();
    e.act(Action::Play("h9g7".into()), 40_000).unwrap();
    e.act(Action::Play("h0g2".into()), 95_000).unwrap();
    e
}

fn draw(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(100, 20)).unwrap();
    t.draw(|f| render(f, app)).unwrap();
    let buf = t.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            line.push_str(sym);
            skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The screen in English only (the words the tests below look for); the
/// two languages side by side are the last test's.
fn app(e: &Engine, now: u64) -> App {
    let mut a = App::new(e.screen(now), describe());
    a.langs = [i18n::Lang::En, i18n::Lang::En];
    a
}

fn describe() -> String {
    crate::tui::app::describe_control(&rulebook::TimeControl::axf_fischer())
}

#[test]
fn running() {
    let mut e = engine();
    e.set_online(true);
    e.set_message("");
    let mut a = app(&e, 130_000);
    a.input = "马2进3".into();
    insta::assert_snapshot!(draw(&a));
}

#[test]
fn paused() {
    let mut e = engine();
    e.set_online(true);
    e.control(
        1,
        &ControlToTable::Pause {
            by: "chief arbiter 王志明".into(),
            reason: "noise in the hall".into(),
        },
        100_000,
    )
    .unwrap();
    e.on_ack(1, e.outbox().last_seq()).unwrap();
    insta::assert_snapshot!(draw(&app(&e, 200_000)));
}

#[test]
fn offline_with_waiting_events() {
    let mut e = engine();
    e.on_ack(1, 2).unwrap();
    e.set_online(false);
    e.set_message("connection lost");
    let a = app(&e, 130_000);
    assert!(status_text(&a).contains("offline — 2 events waiting"));
    insta::assert_snapshot!(draw(&a));
}

#[test]
fn sealed() {
    let mut e = engine();
    e.set_online(true);
    e.control(
        2,
        &ControlToTable::Seal {
            by: "deputy 陈立新".into(),
        },
        120_000,
    )
    .unwrap();
    e.on_ack(1, e.outbox().last_seq()).unwrap();
    let a = app(&e, 300_000);
    assert!(status_text(&a).contains("SEALED"));
    insta::assert_snapshot!(draw(&a));
}

/// The declared move limit 限著 (ROC) shows each player's remaining moves.
#[test]
fn move_limit_declared() {
    let mut e = engine();
    e.set_online(true);
    e.control(
        3,
        &ControlToTable::MoveLimit {
            by: "chief arbiter 王志明".into(),
            limit: Some(proto::MoveLimit {
                at_ply: 1,
                requested_by: Some(proto::Side::Black),
                limited: proto::Side::Red,
                book_draw: false,
                moves_each: 40,
                reply_cap: 5,
            }),
        },
        100_000,
    )
    .unwrap();
    // Black's h9g7 and Red's h0g2 were played after the declaration.
    let screen = draw(&app(&e, 120_000));
    let line = |who: &str| {
        screen
            .lines()
            .find(|l| l.starts_with(who))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        line("Red").contains("limit: 39 to go 限著余39步 limited 被限"),
        "{screen}"
    );
    assert!(
        line("Black").contains("limit: 39 to go 限著余39步"),
        "{screen}"
    );
    assert!(!line("Black").contains("被限"), "{screen}");
    e.control(
        4,
        &ControlToTable::MoveLimit {
            by: "chief arbiter 王志明".into(),
            limit: None,
        },
        110_000,
    )
    .unwrap();
    let screen = draw(&app(&e, 120_000));
    assert!(!screen.contains("限著余"), "{screen}");
    assert!(screen.contains("move limit cancelled"), "{screen}");
}

#[test]
fn plain_theme_leaves_no_colour_and_keeps_red_apart() {
    let mut e = engine();
    e.set_online(false);
    let mut a = app(&e, 130_000);
    a.plain = true;
    let mut t = Terminal::new(TestBackend::new(100, 20)).unwrap();
    t.draw(|f| render(f, &a)).unwrap();
    let buf = t.backend().buffer().clone();
    for cell in &buf.content {
        assert_eq!(
            (cell.fg, cell.bg),
            (Color::Reset, Color::Reset),
            "{:?}",
            cell.symbol()
        );
    }
    // Red's pieces underlined and not bold, Black's bold: 车 马 炮 share a
    // glyph, so every red one must differ from every black one.
    let pieces = |name: &str| -> Vec<Modifier> {
        buf.content
            .iter()
            .filter(|c| c.symbol() == name)
            .map(|c| c.modifier - Modifier::REVERSED)
            .collect()
    };
    for (name, red, black) in [("车", 2, 2), ("马", 2, 2), ("炮", 2, 2)] {
        let m = pieces(name);
        let u = m.iter().filter(|m| **m == Modifier::UNDERLINED).count();
        let b = m.iter().filter(|m| **m == Modifier::BOLD).count();
        assert_eq!((u, b), (red, black), "{name}: {m:?}");
    }
    assert_eq!(pieces("帅"), [Modifier::UNDERLINED]);
    assert_eq!(pieces("将"), [Modifier::BOLD]);
    // The status bar (offline) is reversed instead of yellow.
    let last_row = buf.area.height - 1;
    assert!(buf[(0, last_row)].modifier.contains(Modifier::REVERSED));
    // The text is the same as in colour.
    let mut colour = app(&e, 130_000);
    colour.plain = false;
    assert_eq!(draw(&a), draw(&colour));
}

/// The status line keeps only what is true now: no "press the clock" once
/// pressed, no "paused by …" once resumed, no "sealed" once unsealed;
/// a time taken off reads as m:ss.
#[test]
fn the_status_line_shows_only_what_is_true_now() {
    let mut e = engine();
    e.set_online(true);
    e.act(Action::EnterMove("i9h9".into()), 100_000).unwrap();
    let entered = draw(&app(&e, 100_000));
    assert!(entered.contains("press the clock"), "{entered}");
    e.act(Action::Press, 101_000).unwrap();
    let pressed = draw(&app(&e, 101_000));
    assert!(!pressed.contains("press the clock"), "{pressed}");

    // A key refused while paused, then the resume: the notice goes.
    let pause = ControlToTable::Pause {
        by: "chief arbiter 王志明".into(),
        reason: "noise in the hall".into(),
    };
    e.control(5, &pause, 102_000).unwrap();
    let mut a = app(&e, 102_000);
    a.notice = Some("paused by chief arbiter 王志明: noise in the hall".into());
    e.control(
        6,
        &ControlToTable::Resume {
            by: "chief arbiter 王志明".into(),
        },
        103_000,
    )
    .unwrap();
    a.update(e.screen(103_000));
    let resumed = status_text(&a);
    assert!(
        !resumed.contains("paused") && !resumed.contains("PAUSED"),
        "{resumed}"
    );
    assert!(resumed.starts_with("running"), "{resumed}");

    // Seal and unseal.
    e.control(
        7,
        &ControlToTable::Seal {
            by: "deputy 陈立新".into(),
        },
        104_000,
    )
    .unwrap();
    a.update(e.screen(104_000));
    assert!(status_text(&a).contains("SEALED"));
    let unseal = ControlToTable::Unseal {
        by: "deputy 陈立新".into(),
        sealed_move: proto::IccsMove::parse("b0c2").unwrap(),
        red_ms: 4_700_000,
        black_ms: 4_650_000,
    };
    e.control(8, &unseal, 105_000).unwrap();
    a.update(e.screen(105_000));
    let unsealed = status_text(&a);
    assert!(
        !unsealed.contains("SEALED") && unsealed.starts_with("running"),
        "{unsealed}"
    );

    // A false claim's time off, as the server words it: m:ss.
    let adjust = ControlToTable::Adjust {
        by: "chief arbiter 王志明".into(),
        red_ms: 4_400_000,
        black_ms: 4_650_000,
        reason: "false natural-limit claim: 5:00 off (AXF-LIMIT-3)".into(),
    };
    e.control(9, &adjust, 106_000).unwrap();
    a.update(e.screen(106_000));
    let text = status_text(&a);
    assert!(
        text.contains("5:00 off") && !text.contains("300000"),
        "{text}"
    );
    e.on_ack(1, e.outbox().last_seq()).unwrap();
    a.update(e.screen(106_000));
    insta::assert_snapshot!(draw(&a));
}

/// A claim decided is announced on the terminal, with one name per effect:
/// the false natural-limit claim accepted ("play on, technical foul, 5:00
/// off"), the same claim overridden ("play on, no penalty"); the claim's
/// "the arbiter rules" goes.
#[test]
fn a_decided_claim_is_announced_with_its_penalty_or_none() {
    let mut e = engine();
    e.set_online(true);
    e.act(
        Action::ClaimNaturalLimit {
            by: proto::Side::Black,
        },
        100_000,
    )
    .unwrap();
    let mut a = app(&e, 100_000);
    assert!(status_text(&a).contains("Black claims the natural move limit: the arbiter rules"));
    let penalty = proto::ClaimPenalty {
        side: proto::Side::Black,
        technical_foul: true,
        deduct_ms: 300_000,
    };
    let adjust = ControlToTable::Adjust {
        by: "chief arbiter 王志明".into(),
        red_ms: 4_700_000,
        black_ms: 4_350_000,
        reason: "false natural-limit claim: 5:00 off (AXF-LIMIT-3)".into(),
    };
    e.control(1, &adjust, 101_000).unwrap();
    let decided = |penalty| ControlToTable::ClaimDecided {
        claim_id: 3,
        kind: proto::ClaimKind::NaturalLimit,
        claimant: Some(proto::Side::Black),
        verdict: proto::Verdict::Continue,
        must_change: None,
        penalty,
    };
    e.control(2, &decided(Some(penalty)), 101_000).unwrap();
    e.on_ack(1, e.outbox().last_seq()).unwrap();
    a.update(e.screen(101_000));
    let accepted = status_text(&a);
    assert!(
        accepted
            .ends_with("Black's claim (natural limit) decided: play on, technical foul, 5:00 off"),
        "{accepted}"
    );
    assert!(!accepted.contains("the arbiter rules"), "{accepted}");
    insta::assert_snapshot!("decided_claim_play_on_with_penalty", draw(&a));

    // Claimed again, the arbiter overrides: play on, no penalty.
    e.act(
        Action::ClaimNaturalLimit {
            by: proto::Side::Black,
        },
        110_000,
    )
    .unwrap();
    e.control(3, &decided(None), 111_000).unwrap();
    e.on_ack(1, e.outbox().last_seq()).unwrap();
    a.update(e.screen(111_000));
    let overridden = status_text(&a);
    assert!(
        overridden.ends_with("Black's claim (natural limit) decided: play on, no penalty"),
        "{overridden}"
    );
    insta::assert_snapshot!("decided_claim_play_on_no_penalty", draw(&a));
}

/// A decided claim and a finished game on a terminal reading Traditional
/// Chinese beside Vietnamese (issue 33): the claim's kind and the ruling's
/// effect in the catalogue's words of each; the result and its typed end
/// reason in each, the arbiter's reason and name verbatim.
#[test]
fn a_decided_claim_and_a_finished_game_in_zh_hant_and_vi() {
    let mut e = engine();
    e.set_online(true);
    let decided = ControlToTable::ClaimDecided {
        claim_id: 4,
        kind: proto::ClaimKind::Repetition,
        claimant: Some(proto::Side::Red),
        verdict: proto::Verdict::Order,
        must_change: Some(proto::Side::Black),
        penalty: None,
    };
    e.control(1, &decided, 100_000).unwrap();
    e.on_ack(1, e.outbox().last_seq()).unwrap();
    let mut a = App::new(e.screen(100_000), describe());
    a.langs = [i18n::Lang::ZhHant, i18n::Lang::Vi];
    let status = status_text(&a);
    assert!(
        status.ends_with(
            "紅方的申訴（棋例）已裁決：變著令: 黑方必須變著 / khiếu nại của Đỏ (luật lặp nước) đã được phán quyết: lệnh: Đen phải thay đổi nước đi"
        ),
        "{status}"
    );
    insta::assert_snapshot!("decided_claim_zh_hant_vi", draw(&a));

    let result = ControlToTable::SetResult {
        by: "王志明".into(),
        result: proto::GameResult::BlackWins,
        why: proto::EndReason::PerpetualCheck,
        reason: "AXF-D1".into(),
    };
    e.control(2, &result, 130_000).unwrap();
    a.update(e.screen(130_000));
    let status = status_text(&a);
    assert!(
        status.starts_with(
            "對局結束：黑勝，長將（AXF-D1；由王志明判定） / HẾT VÁN: Đen thắng, lý do: chiếu mãi (AXF-D1; do 王志明 quyết định)"
        ),
        "{status}"
    );
    insta::assert_snapshot!("finished_zh_hant_vi", draw(&a));
    // A resignation on a fresh board: the player's words verbatim.
    let mut e = engine();
    e.act(
        Action::Resign {
            by: proto::Side::Red,
            reason: "認輸".into(),
        },
        120_000,
    )
    .unwrap();
    a.update(e.screen(120_000));
    let status = status_text(&a);
    assert!(
        status.starts_with(
            "對局結束：黑勝，認負（認輸） / HẾT VÁN: Đen thắng, lý do: xin thua (認輸)"
        ),
        "{status}"
    );
}

/// The clock screen for two players in each language (issue 33): the
/// hall's language first, a second one beside it (English, or Simplified
/// Chinese beside English); under zh-Hant the board and the last move in
/// the ROC text's glyphs.
#[test]
fn the_clock_screen_in_each_language_beside_a_second_one() {
    let e = engine();
    for first in i18n::Lang::ALL {
        let second = match first {
            i18n::Lang::En => i18n::Lang::ZhHans,
            _ => i18n::Lang::En,
        };
        let mut a = App::new(e.screen(100_000), describe());
        a.langs = [first, second];
        let text = draw(&a);
        let title = i18n::render(
            first,
            &proto::Message::new("table-title")
                .verbatim("round", e.screen(0).round.to_string())
                .verbatim("table", "7"),
        );
        assert!(text.contains(&title), "{first}: no {title:?}\n{text}");
        insta::assert_snapshot!(format!("clock_{}", first.tag()), text);
    }
    let mut a = App::new(e.screen(100_000), describe());
    a.langs = [i18n::Lang::ZhHant, i18n::Lang::Vi];
    let text = draw(&a);
    assert!(text.contains("傌二進三"), "{text}");
    assert!(
        text.contains("俥傌相仕帥仕相傌俥") || text.contains('俥'),
        "{text}"
    );
    assert!(text.contains("đang chạy"), "{text}");
}

/// A control of the arbiter and a refusal of the server on the status
/// line in the terminal's two languages (issue 33, protocol 8): the
/// catalogue's words in each, the arbiter's reason and names verbatim.
#[test]
fn a_control_and_a_refusal_in_both_languages() {
    for first in i18n::Lang::ALL {
        let second = match first {
            i18n::Lang::En => i18n::Lang::ZhHans,
            _ => i18n::Lang::En,
        };
        let mut e = engine();
        e.set_online(true);
        let pause = ControlToTable::Pause {
            by: "王志明".into(),
            reason: "noise in the hall".into(),
        };
        e.control(1, &pause, 100_000).unwrap();
        let mut a = App::new(e.screen(100_000), describe());
        a.langs = [first, second];
        let words = i18n::replies::control(&pause);
        let both = format!(
            "{} / {}",
            i18n::render(first, &words),
            i18n::render(second, &words)
        );
        let status = status_text(&a);
        assert!(status.ends_with(&both), "{first}: {status}");
        assert!(status.contains("noise in the hall"), "{status}");
        // The server refuses the next event: why, in both languages.
        let refusal = proto::ErrorReply {
            code: proto::ErrorCode::Invalid,
            message: proto::refusals::already_paused(7),
            re: None,
        };
        let said = i18n::replies::refused(&refusal);
        e.set_message(said.clone());
        a.update(e.screen(100_000));
        let status = status_text(&a);
        let both = format!(
            "{} / {}",
            i18n::render(first, &said),
            i18n::render(second, &said)
        );
        assert!(status.ends_with(&both), "{first}: {status}");
        insta::assert_snapshot!(format!("refusal_{}", first.tag()), draw(&a));
    }
    let said = i18n::replies::refused(&proto::ErrorReply {
        code: proto::ErrorCode::Invalid,
        message: proto::refusals::already_paused(7),
        re: None,
    });
    assert_eq!(
        i18n::render(i18n::Lang::Vi, &said),
        "máy chủ từ chối: bàn 7 đã tạm dừng rồi (yêu cầu không hợp lệ)"
    );
    assert_eq!(
        i18n::render(i18n::Lang::ZhHant, &said),
        "伺服器拒絕：第 7 台已經暫停（請求無效）"
    );
}
