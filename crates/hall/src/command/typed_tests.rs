//! The audit trail's typed words (issue 33): over every command kind,
//! the typed message rendered in English is `describe`'s text byte for
//! byte (old English readers see no change), and it renders in zh-Hans,
//! zh-Hant and vi with every id known and every argument given, in
//! words of that language (not the English).

use i18n::{Catalogue, Lang};
use proto::{Arg, Command, Decision, FoulKind, Message, RoundChange, Side, Verdict};

use super::tests::round_2;
use super::{describe, typed};
use crate::states::every_variant;

/// Every command kind, and each branch of its words: zeroed variants,
/// then the commands with the options and enums each can carry.
fn commands() -> Vec<Command> {
    let mut out = every_variant::<Command>();
    let decisions = [
        Decision::Accept,
        Decision::Override {
            verdict: Verdict::Loss { side: Side::Red },
            must_change: Some(Side::Black),
            reason: "长将 after the order".into(),
        },
        Decision::Override {
            verdict: Verdict::CorrectMove { side: Side::Black },
            must_change: None,
            reason: "x".into(),
        },
    ];
    for decision in decisions {
        out.push(Command::RuleOnClaim {
            table: 7,
            claim_id: 12,
            decision,
        });
    }
    for verdict in [Verdict::Continue, Verdict::Draw, Verdict::Order] {
        out.push(Command::RuleOnClaim {
            table: 7,
            claim_id: 12,
            decision: Decision::Override {
                verdict,
                must_change: Some(Side::Red),
                reason: "r".into(),
            },
        });
    }
    for result in i18n::texts::RESULTS {
        out.push(Command::SetResult {
            table: 3,
            result,
            reason: "双方同意".into(),
        });
        out.push(Command::CorrectResult {
            round: 1,
            table: 2,
            result,
            reason: "scoresheet".into(),
        });
    }
    for kind in [FoulKind::Technical, FoulKind::Violation] {
        out.push(Command::RecordFoul {
            table: 4,
            side: Side::Black,
            kind,
            note: "touched two pieces".into(),
        });
    }
    for requested_by in [None, Some(Side::Red), Some(Side::Black)] {
        for book_draw in [false, true] {
            out.push(Command::DeclareMoveLimit {
                table: 5,
                requested_by,
                limited: Side::Black,
                book_draw,
            });
        }
    }
    out.extend([
        Command::PauseTable {
            table: 9,
            reason: "停电".into(),
        },
        Command::PauseHall {
            reason: "fire drill".into(),
        },
        Command::EscalateClaim {
            table: 2,
            claim_id: 3,
            reason: "unclear".into(),
        },
        Command::AdjustClock {
            table: 1,
            red_ms: 754_000,
            black_ms: 3_600_000,
            reason: "clock fault".into(),
        },
        Command::AckAlert { alert_id: 41 },
        Command::GetTableLog { table: 11 },
        Command::WithdrawRound {
            round: 2,
            reason: "wrong pairing".into(),
        },
        Command::WithdrawPlayer {
            player: "杨官璘".into(),
            from_round: 2,
            reason: "ill".into(),
        },
        Command::EnterPlayer {
            name: "王五".into(),
            id: Some("CHN-42".into()),
            rating: Some(2150),
            federation: Some("CHN".into()),
            club: Some("北京".into()),
        },
        Command::EnterPlayer {
            name: "Lê Văn".into(),
            id: None,
            rating: Some(1900),
            federation: None,
            club: None,
        },
        Command::PublishRound {
            round: Box::new(round_2()),
            changes: vec![
                RoundChange {
                    what: Message::new("round-change-colours").int("table", 1),
                    reason: "both had Red twice".into(),
                },
                RoundChange {
                    what: Message::new("round-change-exchange")
                        .int("table", 1)
                        .int("other", 2),
                    reason: "same club".into(),
                },
            ],
        },
    ]);
    out
}

/// Every id in `m`, nested ones too (a list is the renderer's own).
fn ids(m: &Message, out: &mut Vec<String>) {
    if m.id != proto::convert::LIST {
        out.push(m.id.clone());
    }
    for (_, a) in &m.args {
        if let Arg::Message(inner) = a {
            ids(inner, out);
        }
    }
}

#[test]
fn every_command_kind_in_english_is_describes_text_byte_for_byte() {
    let all = commands();
    assert!(all.len() > 40, "{} commands", all.len());
    for cmd in &all {
        assert_eq!(
            i18n::render(Lang::En, &typed(cmd)),
            describe(cmd),
            "{cmd:?}"
        );
    }
}

#[test]
fn every_command_kind_renders_in_each_language_with_its_ids_and_arguments() {
    let c = Catalogue::get();
    for cmd in commands() {
        let m = typed(&cmd);
        let mut found = Vec::new();
        ids(&m, &mut found);
        for lang in Lang::ALL {
            for id in &found {
                assert!(c.has(lang, id), "{id} ({cmd:?}) is not in {lang}");
            }
            let text = i18n::render(lang, &m);
            // Fluent shows a missing argument as `{$name}`.
            assert!(!text.contains("{$"), "{lang}: {text} ({cmd:?})");
            if lang != Lang::En {
                assert_ne!(text, describe(&cmd), "{lang} repeats the English");
            }
        }
    }
    // A Traditional hall reads the ROC's words (變著, 限著, 例和).
    let limit = Command::DeclareMoveLimit {
        table: 5,
        requested_by: Some(Side::Red),
        limited: Side::Black,
        book_draw: true,
    };
    assert_eq!(
        i18n::render(Lang::ZhHant, &typed(&limit)),
        "第5台：應紅方要求宣告限著（限黑方，例和）"
    );
    let over = Command::RuleOnClaim {
        table: 7,
        claim_id: 12,
        decision: Decision::Override {
            verdict: Verdict::Loss { side: Side::Red },
            must_change: Some(Side::Black),
            reason: "長將".into(),
        },
    };
    assert_eq!(
        i18n::render(Lang::ZhHant, &typed(&over)),
        "第7台：改判申訴12為紅方作負（黑方須變著）；理由：長將"
    );
    assert_eq!(
        i18n::render(Lang::Vi, &typed(&over)),
        "bàn 7: xử khác khiếu nại 12 thành Đỏ bị xử thua (Đen phải thay đổi nước đi); lý do: 長將"
    );
}

#[test]
fn the_rows_that_are_not_commands_keep_their_english() {
    use crate::audit::{asked, claim_lapsed, lapse, order};
    use proto::EndReason;
    let en = |m: &Message| i18n::render(Lang::En, m);
    let cases = [
        (
            claim_lapsed(3, 8, lapse::too_many(16, 3)),
            "table 3: claim 8 lapsed: more than 16 open claims of this kind at table 3: the oldest lapses",
        ),
        (
            claim_lapsed(3, 8, lapse::clock_started()),
            "table 3: claim 8 lapsed: the clock started: the players are at the board",
        ),
        (
            claim_lapsed(3, 8, lapse::game_ended(EndReason::PerpetualCheck)),
            "table 3: claim 8 lapsed: the game ended (perpetual check)",
        ),
        (
            claim_lapsed(3, 8, lapse::moved(Side::Black)),
            "table 3: claim 8 lapsed: Black is at the board and moved",
        ),
        (
            asked::report("clock_press", 4),
            "report clock_press for table 4",
        ),
        (asked::publish_round(Some(2)), "publish round 2"),
        (asked::publish_round(None), "publish round"),
        (asked::withdraw_round(2), "withdraw round 2"),
        (
            asked::correct_result(1, 6),
            "correct the result of round 1 table 6",
        ),
        (
            asked::counted(2300, 60, 10).0,
            "2300 refused requests in 60 s (counted, not stored one by one)",
        ),
        (
            asked::counted(2300, 60, 10).1,
            "more than 10 refused requests in a window",
        ),
        (asked::note(), "note"),
    ];
    for (m, want) in &cases {
        assert_eq!(en(m), *want);
        for lang in [Lang::ZhHans, Lang::ZhHant, Lang::Vi] {
            let text = i18n::render(lang, m);
            assert!(!text.contains("{$") && !text.contains("audit-"), "{text}");
            assert_ne!(&text, want, "{lang}");
        }
    }
    // An order's row nests the order's own words.
    let o = order(2, 40, 5, i18n::texts::order(Some(Side::Red), 1));
    assert_eq!(
        en(&o),
        format!(
            "table 2: order at ply 40 (claim 5): {}",
            i18n::texts::english(&i18n::texts::order(Some(Side::Red), 1))
        )
    );
    assert!(i18n::render(Lang::Vi, &asked::report("clock_press", 4)).contains("bấm đồng hồ"));
}
