//! Natural move limit (自然限着) and rule-set configuration
//! (rulebook::limit, rulebook::ruleset).

use proptest::prelude::*;
use rulebook::fouls::{EscalationStep, FoulKind, FoulLedger, TechnicalReason};
use rulebook::limit::{claim_holds, judge_claim, limit_reached, LimitCounter, PlyFact};
use rulebook::ruleset::{CheckDiscount, LimitStart, RuleParams, RuleSet, RulesConfig};
use rulebook::RuleId;
use xiangqi::Color::{self, Black, Red};

fn quiet(by: Color) -> PlyFact {
    PlyFact {
        by,
        capture: false,
        check: false,
    }
}

fn check(by: Color) -> PlyFact {
    PlyFact {
        by,
        capture: false,
        check: true,
    }
}

fn capture(by: Color) -> PlyFact {
    PlyFact {
        by,
        capture: true,
        check: false,
    }
}

/// `n` alternating plies starting with `first`, where `checker` gives check
/// on each of its first `checks` plies.
fn stretch(first: Color, n: u32, checker: Color, checks: u32) -> Vec<PlyFact> {
    let mut given = 0;
    (0..n)
        .map(|i| {
            let by = if i % 2 == 0 { first } else { first.other() };
            if by == checker && given < checks {
                given += 1;
                check(by)
            } else {
                quiet(by)
            }
        })
        .collect()
}

#[test]
fn axf_hundred_plies_without_capture() {
    let p = RuleParams::default();
    let mut c = LimitCounter::new();
    for f in stretch(Red, 99, Red, 0) {
        c.record(f);
    }
    let v = judge_claim(&c, Black, &p, false);
    assert!(!v.holds);
    assert_eq!((v.counted_plies, v.required_plies), (99, 100));
    c.record(quiet(Black));
    let v = judge_claim(&c, Black, &p, false);
    assert!(v.holds, "{}", v.explanation_en);
    assert_eq!(v.penalty, None);
    assert_eq!(v.rule_ids, vec![RuleId::AXF_LIMIT_1, RuleId::AXF_LIMIT_2]);
    assert!(v.explanation_zh.contains("判和"));
    assert!(v.explanation_en.contains("draw"));
}

#[test]
fn axf_claimant_checks_beyond_ten_are_struck() {
    let p = RuleParams::default();
    // Red gives 12 checks in 101 plies: 2 struck, 99 counted.
    let c = LimitCounter::from_facts(stretch(Red, 101, Red, 12));
    assert_eq!(c.checks_by(Red), 12);
    assert_eq!(c.replies_to_check_by(Black), 12);
    let v = judge_claim(&c, Red, &p, false);
    assert!(!v.holds);
    assert_eq!((v.struck_plies, v.counted_plies), (2, 99));
    // Black's claim is not affected by Red's checks.
    assert!(judge_claim(&c, Black, &p, false).holds);
    // Exactly 10 checks: nothing struck.
    let c = LimitCounter::from_facts(stretch(Red, 100, Red, 10));
    assert!(judge_claim(&c, Red, &p, false).holds);
    // One more ply each time makes up for one struck check.
    let c = LimitCounter::from_facts(stretch(Red, 102, Red, 12));
    assert!(judge_claim(&c, Red, &p, false).holds);
}

#[test]
fn a_capture_restarts_the_count_and_a_fen_can_start_it() {
    let p = RuleParams::default();
    let mut facts = stretch(Red, 90, Red, 5);
    facts.push(PlyFact {
        by: Black,
        capture: true,
        check: true,
    });
    facts.extend(stretch(Red, 99, Black, 0));
    let c = LimitCounter::from_facts(facts);
    assert_eq!(c.plies(), 99);
    assert_eq!(c.checks_by(Red), 0);
    assert_eq!(
        c.checks_by(Black),
        0,
        "the capturing check is not in the stretch"
    );
    assert_eq!(
        c.replies_to_check_by(Red),
        1,
        "the reply to it is in the stretch"
    );
    assert!(!judge_claim(&c, Red, &p, false).holds);
    // A FEN with halfmove 60, then 40 quiet plies.
    let mut c = LimitCounter::starting_at(60);
    for f in stretch(Black, 40, Red, 0) {
        c.record(f);
    }
    assert!(judge_claim(&c, Red, &p, false).holds);
    c.record(capture(Black));
    assert_eq!(c.plies(), 0);
}

#[test]
fn false_claim_costs_a_technical_foul_and_five_minutes() {
    let p = RuleParams::default();
    let c = LimitCounter::from_facts(stretch(Red, 64, Red, 0));
    let v = judge_claim(&c, Black, &p, false);
    assert!(!v.holds);
    let pen = v.penalty.expect("penalty");
    assert_eq!(pen.side, Black);
    assert!(pen.technical_foul);
    assert_eq!(pen.time_deduction_ms, 300_000);
    assert!(v.rule_ids.contains(&RuleId::AXF_LIMIT_3));
    assert!(v.rule_ids.contains(&RuleId::AXF_PLAY_5));
    assert!(v.explanation_zh.contains("不属实") && v.explanation_zh.contains("5:00"));
    assert!(v.explanation_en.contains("false") && v.explanation_en.contains("5:00"));
    // The deduction: enough time, exactly five minutes, less.
    let ok = pen.apply(400_000);
    assert_eq!((ok.remaining_ms, ok.flag_fell), (100_000, false));
    assert!(pen.apply(300_000).flag_fell);
    let lost = pen.apply(120_000);
    assert_eq!((lost.remaining_ms, lost.flag_fell), (0, true));
    // The foul goes into the ledger; a second technical foul proposes a loss.
    let mut ledger = FoulLedger::new(p.fouls);
    let e = ledger.record(FoulKind::FalseLimitClaim, Black);
    assert_eq!(e.step, EscalationStep::TechnicalFoul { count: 1 });
    assert!(!e.proposed_loss);
    let e = ledger.record(FoulKind::Technical(TechnicalReason::TouchMove), Black);
    assert!(e.proposed_loss);
    assert!(e.rule_ids.contains(&RuleId::AXF_PLAY_5));
}

#[test]
fn limit_reached_alert_names_the_sides_whose_claim_holds() {
    let p = RuleParams::default();
    let c = LimitCounter::from_facts(stretch(Red, 99, Red, 0));
    assert_eq!(limit_reached(&c, &p, false), None);
    let c = LimitCounter::from_facts(stretch(Red, 100, Red, 0));
    let a = limit_reached(&c, &p, false).expect("alert");
    assert_eq!(a.claim_holds_for, vec![Red, Black]);
    assert!(a.rule_ids.contains(&RuleId::AXF_LIMIT_3));
    // Red checked 15 times: only Black's claim holds at 100 plies.
    let c = LimitCounter::from_facts(stretch(Red, 100, Red, 15));
    let a = limit_reached(&c, &p, false).expect("alert");
    assert_eq!(a.claim_holds_for, vec![Black]);
    assert!(a.explanation_zh.contains("黑方"));
    assert!(a.explanation_en.contains("Black"));
}

#[test]
fn roc_limit_counts_from_the_declaration_and_caps_replies_to_check() {
    let p = RuleSet::Roc.params();
    assert_eq!(p.limit.required_plies, 80);
    assert_eq!(p.limit.book_draw_plies, 60);
    assert_eq!(p.limit.discount, CheckDiscount::OpponentRepliesToCheck);
    assert_eq!(p.limit.check_cap, 5);
    assert_eq!(p.limit.counts_from, LimitStart::Declaration);
    // 30 quiet plies, then the arbiter declares the limit.
    let mut c = LimitCounter::from_facts(stretch(Red, 30, Red, 0));
    c.reset();
    // Black (weaker, claimant) checks 8 times in 82 plies; Red replies 8 times.
    for f in stretch(Red, 82, Black, 8) {
        c.record(f);
    }
    assert_eq!(c.replies_to_check_by(Red), 8);
    let v = judge_claim(&c, Black, &p, false);
    assert_eq!((v.struck_plies, v.counted_plies), (3, 79));
    assert!(!v.holds);
    assert_eq!(v.rule_ids[..2], [RuleId::ROC_7, RuleId::ROC_8]);
    // In a book draw (例和) 60 plies suffice.
    assert!(judge_claim(&c, Black, &p, true).holds);
    // Red's claim is not reduced by its own replies.
    assert!(judge_claim(&c, Red, &p, false).holds);
}

#[test]
fn cxa_limit_is_sixty_rounds() {
    let p = RuleSet::Cxa.params();
    let c = LimitCounter::from_facts(stretch(Red, 119, Red, 0));
    assert!(!judge_claim(&c, Red, &p, false).holds);
    let c = LimitCounter::from_facts(stretch(Red, 120, Red, 0));
    let v = judge_claim(&c, Red, &p, false);
    assert!(v.holds);
    assert_eq!(v.rule_ids[0], RuleId::CXA_LIMIT_1);
}

#[test]
fn rules_config_selects_a_set_and_overrides() {
    let parse = |s: &str| -> RulesConfig { toml::from_str(s).unwrap() };
    assert_eq!(parse("").resolve().unwrap(), RuleParams::default());
    let p = parse("set = \"ROC\"").resolve().unwrap();
    assert_eq!(p.rule_set, RuleSet::Roc);
    assert_eq!(p, RuleSet::Roc.params());
    let p = parse(
        "set = \"axf\"\nsealed_move_by = \"red\"\n[limit]\nrequired_plies = 120\ncheck_cap = 6\nfalse_claim_penalty_seconds = 120\n[fouls]\nno_show_minutes = 15\ntechnical_fouls_to_lose = 3",
    )
    .resolve()
    .unwrap();
    assert_eq!(p.limit.required_plies, 120);
    assert_eq!(p.limit.check_cap, 6);
    assert_eq!(p.limit.false_claim_penalty_ms, 120_000);
    assert_eq!(p.fouls.no_show_ms, 15 * 60_000);
    assert_eq!(p.fouls.technical_fouls_to_lose, 3);
    assert_eq!(p.sealed_move_by, rulebook::ruleset::SealedMoveBy::Red);
    // Overrides change the judgement.
    let c = LimitCounter::from_facts(stretch(Red, 110, Red, 0));
    assert!(!judge_claim(&c, Red, &p, false).holds);
    // Nested in a hall config as [rules].
    #[derive(serde::Deserialize)]
    struct Hall {
        rules: RulesConfig,
    }
    let h: Hall = toml::from_str("[rules]\nset = \"cxa\"").unwrap();
    assert_eq!(h.rules.resolve().unwrap().rule_set, RuleSet::Cxa);
}

#[test]
fn rules_config_errors_name_the_value_or_key() {
    let e = toml::from_str::<RulesConfig>("set = \"fide\"")
        .unwrap_err()
        .to_string();
    assert!(e.contains("fide") && e.contains("axf"), "{e}");
    let e = toml::from_str::<RulesConfig>("[limit]\nrequired_ply = 3")
        .unwrap_err()
        .to_string();
    assert!(e.contains("required_ply"), "{e}");
    let c: RulesConfig = toml::from_str("[limit]\nrequired_plies = 0").unwrap();
    let e = c.resolve().unwrap_err().to_string();
    assert!(e.contains("rules.limit.required_plies"), "{e}");
    let c: RulesConfig = toml::from_str("[fouls]\nno_show_minutes = 18446744073709551615").unwrap();
    let e = c.resolve().unwrap_err().to_string();
    assert!(e.contains("rules.fouls.no_show_minutes"), "{e}");
    assert_eq!(
        RuleSet::from_name(" Roc "),
        Ok(RuleSet::Roc),
        "names are trimmed and case-insensitive"
    );
    assert!(RuleSet::from_name("asia").is_err());
}

#[test]
fn rule_ids_serialise_as_text() {
    let v = serde_json::to_string(&vec![RuleId::AXF_LIMIT_2, RuleId::ROC_8]).unwrap();
    assert_eq!(v, r#"["AXF-LIMIT-2","ROC-8"]"#);
    let back: Vec<RuleId> = serde_json::from_str(&v).unwrap();
    assert_eq!(back, vec![RuleId::AXF_LIMIT_2, RuleId::ROC_8]);
    assert!(serde_json::from_str::<RuleId>(r#""AXF-D36""#).is_err());
}

fn fact() -> impl Strategy<Value = (bool, bool)> {
    prop_oneof![
        8 => Just((false, false)),
        3 => Just((false, true)),
        1 => Just((true, false)),
        1 => Just((true, true)),
    ]
}

proptest! {
    /// The counter agrees with a direct count over the fact list, for every
    /// rule set and claimant.
    #[test]
    fn counter_matches_a_direct_count(
        facts in proptest::collection::vec(fact(), 0..300),
        halfmove in 0u32..50,
    ) {
        let plies: Vec<PlyFact> = facts.iter().enumerate().map(|(i, &(capture, check))| PlyFact {
            by: if i % 2 == 0 { Red } else { Black }, capture, check,
        }).collect();
        let mut c = LimitCounter::starting_at(halfmove);
        for f in &plies { c.record(*f); }
        // Direct count of the last capture-free stretch.
        let last_cap = plies.iter().rposition(|f| f.capture);
        let from = last_cap.map_or(0, |i| i + 1);
        let tail = &plies[from..];
        let base = if last_cap.is_some() { 0 } else { halfmove };
        prop_assert_eq!(c.plies(), base + tail.len() as u32);
        for side in [Red, Black] {
            let checks = tail.iter().filter(|f| f.by == side && f.check).count() as u32;
            prop_assert_eq!(c.checks_by(side), checks);
            // Replies: plies by `side` right after a check by the other side
            // (the check may be the capturing ply just before the stretch).
            let mut replies = 0;
            for (j, f) in plies.iter().enumerate().skip(from) {
                if f.by == side && j > 0 && plies[j - 1].check && plies[j - 1].by != side { replies += 1; }
            }
            prop_assert_eq!(c.replies_to_check_by(side), replies);
        }
        for set in [RuleSet::Axf, RuleSet::Roc, RuleSet::Cxa] {
            let p = set.params();
            for claimant in [Red, Black] {
                let v = judge_claim(&c, claimant, &p, false);
                let relevant = match p.limit.discount {
                    CheckDiscount::ClaimantChecks => c.checks_by(claimant),
                    CheckDiscount::OpponentRepliesToCheck => c.replies_to_check_by(claimant.other()),
                };
                let counted = c.plies().saturating_sub(relevant.saturating_sub(p.limit.check_cap));
                prop_assert_eq!(v.counted_plies, counted);
                prop_assert_eq!(v.holds, counted >= p.limit.required_plies);
                prop_assert_eq!(v.penalty.is_some(), !v.holds);
                // The hall's per-ply test agrees with the full ruling.
                for book_draw in [false, true] {
                    prop_assert_eq!(
                        claim_holds(&c, claimant, &p, book_draw),
                        judge_claim(&c, claimant, &p, book_draw).holds
                    );
                }
            }
        }
    }
}
