//! Fouls and escalation, attendance and draw offers (rulebook::fouls).

use rulebook::fouls::{
    late_resumption, no_show, AttendanceOutcome, DrawOffers, EscalationStep, FoulKind, FoulLedger,
    TechnicalReason,
};
use rulebook::ruleset::{FoulParams, RulesConfig};
use rulebook::RuleId;
use xiangqi::Color::{Black, Red};

const MIN: u64 = 60_000;

#[test]
fn second_technical_foul_proposes_a_loss() {
    let mut l = FoulLedger::new(FoulParams::default());
    let e = l.record(FoulKind::Technical(TechnicalReason::IllegalMove), Red);
    assert_eq!(e.step, EscalationStep::TechnicalFoul { count: 1 });
    assert!(!e.proposed_loss);
    assert_eq!(e.rule_ids, vec![RuleId::AXF_PLAY_4A, RuleId::AXF_PLAY_5]);
    assert!(e.explanation_zh.contains("红方") && e.explanation_zh.contains("第1次"));
    // Black's fouls are counted apart.
    let e = l.record(FoulKind::Technical(TechnicalReason::TouchMove), Black);
    assert!(!e.proposed_loss);
    let e = l.record(FoulKind::Technical(TechnicalReason::TouchMove), Red);
    assert_eq!(e.step, EscalationStep::TechnicalFoul { count: 2 });
    assert!(e.proposed_loss);
    assert_eq!(e.technical_fouls, 2);
    assert!(e.explanation_en.contains("Red") && e.explanation_en.contains("proposed loss"));
    assert!(e.explanation_zh.contains("建议判负"));
    assert!(l.loses(Red));
    assert!(!l.loses(Black));
}

#[test]
fn recording_violations_are_separate_and_four_lose() {
    let mut l = FoulLedger::new(FoulParams::default());
    l.record(FoulKind::Technical(TechnicalReason::Other), Black);
    for n in 1..=3 {
        let e = l.record(FoulKind::RecordingLapse, Black);
        assert_eq!(e.step, EscalationStep::Violation { count: n });
        assert!(!e.proposed_loss, "violation {n}");
        assert_eq!(
            e.technical_fouls, 1,
            "violations do not add technical fouls"
        );
        assert!(e.rule_ids.contains(&RuleId::AXF_REC_6));
    }
    let e = l.record(FoulKind::RecordingLapse, Black);
    assert_eq!(e.step, EscalationStep::Violation { count: 4 });
    assert!(e.proposed_loss);
    assert!(e.explanation_zh.contains("违例4次"));
}

#[test]
fn clock_pressing_ladder_reminder_warning_then_violations() {
    let mut l = FoulLedger::new(FoulParams::default());
    let steps: Vec<EscalationStep> = (0..6)
        .map(|_| l.record(FoulKind::HardPress, Red).step)
        .collect();
    assert_eq!(
        steps,
        vec![
            EscalationStep::Reminder,
            EscalationStep::Warning,
            EscalationStep::Violation { count: 1 },
            EscalationStep::Violation { count: 2 },
            EscalationStep::Violation { count: 3 },
            EscalationStep::Violation { count: 4 },
        ]
    );
    assert!(l.loses(Red));
    assert_eq!(l.press_offences(Red), 6);
    assert_eq!(l.violations(Red), 4);
    // Pressing violations and recording violations share the count of 违例.
    let mut l = FoulLedger::new(FoulParams::default());
    for _ in 0..3 {
        l.record(FoulKind::HardPress, Black);
    }
    l.record(FoulKind::RecordingLapse, Black);
    l.record(FoulKind::RecordingLapse, Black);
    let e = l.record(FoulKind::RecordingLapse, Black);
    assert!(e.proposed_loss);
    assert_eq!(e.violations, 4);
    let first = FoulLedger::new(FoulParams::default()).record(FoulKind::HardPress, Black);
    assert!(first.explanation_zh.contains("提醒"));
    assert_eq!(first.rule_ids, vec![RuleId::AXF_CONDUCT_5]);
}

#[test]
fn refusing_to_complete_the_record_loses_and_cancel_recounts() {
    let mut l = FoulLedger::new(FoulParams::default());
    let e = l.record(FoulKind::RefusedToCompleteRecord, Red);
    assert_eq!(e.step, EscalationStep::Loss);
    assert!(e.proposed_loss);
    assert_eq!(e.rule_ids, vec![RuleId::AXF_REC_7]);
    assert!(l.loses(Red));
    // The arbiter overrides it.
    assert!(l.cancel(0));
    assert!(!l.loses(Red));
    l.record(FoulKind::Technical(TechnicalReason::Other), Red);
    l.record(FoulKind::Technical(TechnicalReason::Other), Red);
    assert!(l.loses(Red));
    assert!(l.cancel(1));
    assert_eq!(l.technical_fouls(Red), 1);
    assert!(!l.loses(Red));
    assert!(!l.cancel(5));
    assert_eq!(l.entries().len(), 1);
}

#[test]
fn thresholds_come_from_config() {
    let c: RulesConfig =
        toml::from_str("[fouls]\ntechnical_fouls_to_lose = 3\npress_offences_before_violation = 0")
            .unwrap();
    let p = c.resolve().unwrap();
    let mut l = FoulLedger::new(p.fouls);
    assert!(!l.record(FoulKind::FalseLimitClaim, Red).proposed_loss);
    assert!(!l.record(FoulKind::FalseLimitClaim, Red).proposed_loss);
    assert!(l.record(FoulKind::FalseLimitClaim, Red).proposed_loss);
    assert_eq!(
        l.record(FoulKind::HardPress, Black).step,
        EscalationStep::Violation { count: 1 }
    );
}

#[test]
fn no_show_after_thirty_minutes_forfeits() {
    let p = FoulParams::default();
    let start = 1_000_000;
    // Both present.
    let v = no_show(
        start,
        start + MIN,
        [Some(start - 5), Some(start + 10 * MIN)],
        &p,
    );
    assert_eq!(v.outcome, AttendanceOutcome::AllPresent);
    // Black missing at 20 minutes: wait until 30.
    let v = no_show(start, start + 20 * MIN, [Some(start), None], &p);
    assert_eq!(
        v.outcome,
        AttendanceOutcome::Waiting {
            decide_at_ms: start + 30 * MIN
        }
    );
    assert!(v.explanation_en.contains("Black"));
    // Exactly 30:00 is still in time; after it, a forfeit.
    let v = no_show(start, start + 30 * MIN, [Some(start), None], &p);
    assert!(matches!(v.outcome, AttendanceOutcome::Waiting { .. }));
    let v = no_show(start, start + 30 * MIN + 1, [Some(start), None], &p);
    assert_eq!(v.outcome, AttendanceOutcome::Forfeit(Black));
    assert_eq!(v.rule_ids, vec![RuleId::AXF_FORFEIT_1]);
    assert!(v.explanation_zh.contains("黑方") && v.explanation_zh.contains("弃权"));
    let v = no_show(start, start + 40 * MIN, [Some(start + 30 * MIN), None], &p);
    assert_eq!(v.outcome, AttendanceOutcome::Forfeit(Black));
    // Red arrived late, after the limit: Red forfeits even though seated now.
    let v = no_show(
        start,
        start + 40 * MIN,
        [Some(start + 31 * MIN), Some(start)],
        &p,
    );
    assert_eq!(v.outcome, AttendanceOutcome::Forfeit(Red));
    // Both absent: both forfeit.
    let v = no_show(start, start + 31 * MIN, [None, None], &p);
    assert_eq!(v.outcome, AttendanceOutcome::BothForfeit);
    assert!(v.explanation_zh.contains("双方弃权"));
}

#[test]
fn fifteen_minutes_late_after_an_adjournment_forfeits() {
    let p = FoulParams::default();
    let resume = 50 * MIN;
    let v = late_resumption(resume, resume + 14 * MIN, [Some(resume), None], &p);
    assert!(
        matches!(v.outcome, AttendanceOutcome::Waiting { decide_at_ms } if decide_at_ms == resume + 15 * MIN)
    );
    let v = late_resumption(resume, resume + 16 * MIN, [Some(resume), None], &p);
    assert_eq!(v.outcome, AttendanceOutcome::Forfeit(Black));
    assert_eq!(v.rule_ids, vec![RuleId::AXF_REF_L]);
    let v = late_resumption(resume, resume + 16 * MIN, [None, None], &p);
    assert_eq!(v.outcome, AttendanceOutcome::BothForfeit);
}

#[test]
fn draw_offers_only_after_own_move_and_not_twice_in_a_row() {
    let mut d = DrawOffers::new();
    // Red to move at the start: nobody has moved yet.
    assert!(d.offer(Red, 0, Red).is_err());
    // After Red's first move (1 ply, Black to move) Red may offer.
    assert!(d.offer(Red, 1, Black).is_ok());
    assert_eq!(d.pending(), Some(Red));
    // Black cannot offer when it is Black's turn.
    let e = d.offer(Black, 1, Black).unwrap_err();
    assert!(!e.proposed_technical_foul);
    assert_eq!(e.rule_ids, vec![RuleId::AXF_REF_J]);
    // Black's move refuses it.
    d.on_move(Black);
    assert_eq!(d.pending(), None);
    // Red offering again right after its next move: not allowed.
    let e = d.offer(Red, 3, Black).unwrap_err();
    assert!(e.proposed_technical_foul);
    assert!(e.rule_ids.contains(&RuleId::AXF_BAN_5));
    assert!(e.explanation_zh.contains("不得连续提和"));
    // One move later it is allowed again.
    assert!(d.offer(Red, 5, Black).is_ok());
    // Red cannot accept its own offer; Black can.
    assert!(!d.accept(Red));
    assert!(d.accept(Black));
    assert_eq!(d.pending(), None);
    // A spoken no.
    let mut d = DrawOffers::new();
    d.offer(Black, 2, Red).unwrap();
    d.on_move(Black); // not a refusal: Black's own move (cannot happen, but harmless)
    assert_eq!(d.pending(), Some(Black));
    d.refuse();
    assert!(!d.accept(Red));
}

#[test]
fn colours_reversed_within_twenty_minutes_is_replayed() {
    let p = FoulParams::default();
    let v = rulebook::fouls::colours_reversed(1_000, 1_000 + 20 * MIN, &p);
    assert!(v.replay);
    assert_eq!(v.rule_ids, vec![RuleId::AXF_PLAY_4B]);
    assert!(v.explanation_zh.contains("重赛"));
    let v = rulebook::fouls::colours_reversed(1_000, 1_001 + 20 * MIN, &p);
    assert!(!v.replay);
    assert!(v.explanation_en.contains("stands"));
}
