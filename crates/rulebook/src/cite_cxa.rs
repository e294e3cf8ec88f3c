//! The CXA citations of a repetition ruling (the CXA list, docs/rules.md).
//!
//! The CXA list (13 items) defines what a chase is by material (CXA-2, 3, 6,
//! 7, 10), how a move with several effects is read (CXA-4, 5, 9, 11, 12, 13),
//! forbids one-sided perpetual check (CXA-1) and draws when both sides are
//! forbidden (CXA-8). It states no principle for one side violating nor for
//! neither violating: those rulings borrow the AXF principle (AXF-P4, AXF-P1)
//! and say so in a note, and no AXF detail rule is cited.

use crate::citation::{push, Citation, Situation};
use crate::pattern::{AllowedChase, ChaseFacts, PatternKind, SidePattern};
use crate::rule_id::RuleId;
use xiangqi::Role;

/// Rules that make a perpetual chase forbidden under CXA.
fn chase_rules(f: &ChaseFacts, rules: &mut Vec<RuleId>) {
    push(rules, RuleId::CXA_3); // the next move wins material
    push(rules, RuleId::CXA_2); // from no chase to chase
    let has = |r: Role| f.attackers.iter().any(|(_, x)| *x == r);
    if f.with_exchange {
        push(rules, RuleId::CXA_5);
        push(rules, RuleId::CXA_12);
    }
    if has(Role::King) {
        push(rules, RuleId::CXA_9);
    }
    if has(Role::Pawn) {
        push(rules, RuleId::CXA_11);
    }
    if f.target_role == Role::Pawn {
        push(rules, RuleId::CXA_10);
    }
    if f.attacker_is_root {
        push(rules, RuleId::CXA_4);
    }
}

/// Rules that allow a side's pattern under CXA; the AXF general principle
/// where the CXA list is silent (`borrowed`).
fn allowed_rules(p: &SidePattern, rules: &mut Vec<RuleId>, borrowed: &mut Vec<RuleId>) {
    match p.kind {
        PatternKind::PerpetualMateThreat
        | PatternKind::CheckAndMateThreat
        | PatternKind::CheckAndChase
        | PatternKind::CheckAndIdle
        | PatternKind::CheckAndMaterialThreat
        | PatternKind::ChaseAndMaterialThreat => push(borrowed, RuleId::AXF_S2),
        PatternKind::PerpetualMaterialThreat
        | PatternKind::PerpetualBlock
        | PatternKind::PerpetualExchange
        | PatternKind::PerpetualOffer => push(borrowed, RuleId::AXF_S10),
        _ => {}
    }
    match p.allowed_chase {
        Some(AllowedChase::KingOrPawn { king, pawn }) => {
            // The list names a king chasing together with another piece
            // (CXA-9) and a pawn in a mutual attack (CXA-11) as chases: read
            // as a king or pawn chasing otherwise is none.
            if king {
                push(rules, RuleId::CXA_9);
            }
            if pawn {
                push(rules, RuleId::CXA_11);
            }
        }
        Some(AllowedChase::InTurn) => push(borrowed, RuleId::AXF_S4),
        _ => {}
    }
    if p.kept_chase {
        push(rules, RuleId::CXA_6); // from a chase to a chase: idle
    }
    if p.protected_attack.is_some() {
        push(rules, RuleId::CXA_3); // no material to win: no chase
    }
}

/// The CXA citations of a situation.
pub(crate) fn cite(s: &Situation, red: &SidePattern, black: &SidePattern) -> Citation {
    let mut rules = Vec::new();
    let mut notes = Vec::new();
    let mut typed_notes = Vec::new();
    let borrowed = |id: RuleId| {
        (
            format!("CXA列表未规定此情形的判法，援用{id}。"),
            format!("The CXA list has no rule for this; {id} applied."),
        )
    };
    let typed = |ids: &[RuleId]| {
        crate::explain::Explanation::new("ruling-note-cxa-borrowed").rules("rules", ids)
    };
    match *s {
        Situation::BothCheck | Situation::BothChase => push(&mut rules, RuleId::CXA_8),
        Situation::CheckAgainstChase | Situation::OneChecks { .. } => {
            push(&mut rules, RuleId::CXA_1)
        }
        Situation::OneChases { facts, .. } => {
            push(&mut rules, RuleId::AXF_P4);
            notes.push(borrowed(RuleId::AXF_P4));
            typed_notes.push(typed(&[RuleId::AXF_P4]));
            chase_rules(facts, &mut rules);
        }
        Situation::Allowed => {
            let mut lent = vec![RuleId::AXF_P1];
            allowed_rules(red, &mut rules, &mut lent);
            allowed_rules(black, &mut rules, &mut lent);
            let ids: Vec<&str> = lent.iter().map(|r| r.as_str()).collect();
            let ids = ids.join(", ");
            notes.push((
                format!("CXA列表未规定此情形的判法，援用{ids}。"),
                format!("The CXA list has no rule for this; {ids} applied."),
            ));
            typed_notes.push(typed(&lent));
            for r in lent.into_iter().rev() {
                rules.insert(0, r);
            }
            if red.formal_chase_mated || black.formal_chase_mated {
                push(&mut rules, RuleId::CXA_7);
            }
        }
    }
    Citation {
        rules,
        notes,
        typed_notes,
    }
}
