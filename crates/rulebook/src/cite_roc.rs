//! The ROC citations of a repetition ruling (the ROC rules, docs/rules.md).
//!
//! The ROC text has its own list: perpetual check loses whatever the
//! circumstances (ROC-16); one side violating loses unless it changes
//! (ROC-14), both violating draw (ROC-13), neither draws (ROC-12); an
//! unprotected piece may not be chased (ROC-15) except by a king or pawn, two
//! pieces may not chase one unless a king or pawn is among them (ROC-20: no
//! AXF-D25); a cannon chasing over moved screens chases whatever the river
//! (ROC-24: no AXF-D20 exemption); cutting the protection of a still target
//! move after move is a chase (ROC-26); a protected or same-type piece may be
//! chased, except a protected rook by horse or cannon and a same-type piece
//! pinned on its line (ROC-18, ROC-31). Where the text is silent the ruling
//! says which reading it took (`notes`); no AXF id is cited.

use crate::citation::{push, Citation, Situation};
use crate::pattern::{AllowedChase, ChaseFacts, PatternKind, SidePattern};
use crate::rule_id::RuleId;
use xiangqi::Role;

/// A reading the ruling took where the ROC text is silent: its catalogue
/// id (`ruling-note-roc-*`) and its Chinese (in the ROC text's Traditional
/// characters, as `caipan adjudicate` has always printed it; the zh-Hans
/// catalogue writes it in Simplified) and English sentences.
type Notes = Vec<(&'static str, String, String)>;

fn note(notes: &mut Notes, id: &'static str, zh: &str, en: &str) {
    if !notes.iter().any(|(i, _, _)| *i == id) {
        notes.push((id, zh.to_string(), en.to_string()));
    }
}

/// Rules that make a perpetual chase forbidden under ROC.
fn chase_rules(f: &ChaseFacts, rules: &mut Vec<RuleId>, notes: &mut Notes) {
    let roles: Vec<Role> = f.attackers.iter().map(|(_, r)| *r).collect();
    let has = |r: Role| roles.contains(&r);
    // ROC-15: one piece chasing an unprotected piece; ROC-20: two chasing one.
    push(
        rules,
        if roles.len() <= 1 {
            RuleId::ROC_15
        } else {
            RuleId::ROC_20
        },
    );
    if f.target_role == Role::Rook && (has(Role::Horse) || has(Role::Cannon)) && f.target_protected
    {
        push(rules, RuleId::ROC_31); // 傌炮不得長捉有根車
    }
    if f.discovered && has(Role::Cannon) && !f.target_protected {
        push(rules, RuleId::ROC_24); // cannon over moved screens on an unprotected piece
    }
    if has(f.target_role) {
        push(rules, RuleId::ROC_31); // same type, pinned on its line
    }
    if f.pinned_by == Some(Role::Cannon) && f.target_role == Role::Rook && has(Role::Rook) {
        push(rules, RuleId::ROC_27); // rook pinned by a cannon, chased by a rook
    }
    if f.rook_and_king_controlled {
        push(rules, RuleId::ROC_25);
    }
    if f.false_root {
        push(rules, RuleId::ROC_30);
    }
    if f.protection_cut {
        push(rules, RuleId::ROC_26);
    }
    if f.target_role == Role::Pawn && !f.target_crossed_pawn {
        note(
            notes,
            "ruling-note-roc-uncrossed-pawn",
            "ROC條文長捉無根子不分兵卒是否過河（ROC-15、ROC-24），未過河兵卒亦不得長捉。",
            "The ROC text makes no exception for an uncrossed pawn (ROC-15, ROC-24): it may not be chased either.",
        );
    }
    if f.with_exchange {
        note(
            notes,
            "ruling-note-roc-exchange",
            "ROC條文對捉兼兌未作規定，本判從重定性作捉。",
            "The ROC text is silent on a chase that also offers an exchange: the move is read as its most serious kind, a chase.",
        );
    }
}

/// Rules that allow a side's pattern under ROC (for draws).
fn allowed_rules(p: &SidePattern, other: &SidePattern, rules: &mut Vec<RuleId>, notes: &mut Notes) {
    match p.kind {
        PatternKind::PerpetualMateThreat => {
            if other.kind == PatternKind::PerpetualMateThreat {
                push(rules, RuleId::ROC_19); // 解殺還殺
            } else {
                note(
                    notes,
                    "ruling-note-roc-mate-threat",
                    "ROC條文未列長殺，其示例（長殺）明言為允許著法，按無犯例處理（ROC-12）。",
                    "The ROC list has no rule on a perpetual mate threat; its worked example calls it allowed, so it is no violation (ROC-12).",
                );
            }
        }
        PatternKind::CheckAndMateThreat
        | PatternKind::CheckAndChase
        | PatternKind::CheckAndIdle
        | PatternKind::CheckAndMaterialThreat => push(rules, RuleId::ROC_17),
        PatternKind::PerpetualMaterialThreat | PatternKind::ChaseAndMaterialThreat => note(
            notes,
            "ruling-note-roc-material-threat",
            "ROC條文未規定要抽吃，按無犯例處理（ROC-12）。",
            "The ROC text has no rule on material threats (要抽吃): they are read as no violation (ROC-12).",
        ),
        PatternKind::PerpetualBlock | PatternKind::PerpetualExchange | PatternKind::PerpetualOffer => {
            push(rules, RuleId::ROC_18);
            if p.mutual_same_type {
                push(rules, RuleId::ROC_31);
            }
        }
        PatternKind::PerpetualChase => match p.allowed_chase {
            Some(AllowedChase::InTurn) => push(rules, RuleId::ROC_20), // 一子長捉兩子作和
            Some(AllowedChase::KingOrPawn { .. }) => {
                push(rules, RuleId::ROC_15); // 唯將帥與兵卒長捉不在限
                if p.attackers.len() > 1 {
                    push(rules, RuleId::ROC_20); // 其中如有一兵卒或將帥者例外
                }
            }
            Some(AllowedChase::UncrossedPawn) | None => {}
        },
        _ => {}
    }
    if p.protected_attack.is_some() {
        push(rules, RuleId::ROC_31); // 長捉有根子作和
    }
}

/// The ROC citations of a situation.
pub(crate) fn cite(s: &Situation, red: &SidePattern, black: &SidePattern) -> Citation {
    let mut rules = Vec::new();
    let mut notes = Vec::new();
    match *s {
        Situation::BothCheck => {
            push(&mut rules, RuleId::ROC_13);
            push(&mut rules, RuleId::ROC_19); // 解照還照
        }
        Situation::CheckAgainstChase => {
            push(&mut rules, RuleId::ROC_16); // 無論任何狀況，長照作負
            push(&mut rules, RuleId::ROC_14);
        }
        Situation::BothChase => push(&mut rules, RuleId::ROC_13),
        Situation::OneChecks { .. } => {
            push(&mut rules, RuleId::ROC_14);
            push(&mut rules, RuleId::ROC_16);
        }
        Situation::OneChases {
            facts,
            two_against_one,
        } => {
            push(&mut rules, RuleId::ROC_14);
            chase_rules(facts, &mut rules, &mut notes);
            if two_against_one {
                push(&mut rules, RuleId::ROC_21); // 兩捉還一捉為負
            }
        }
        Situation::Allowed => {
            push(&mut rules, RuleId::ROC_12);
            allowed_rules(red, black, &mut rules, &mut notes);
            allowed_rules(black, red, &mut rules, &mut notes);
        }
    }
    let typed_notes = notes
        .iter()
        .map(|(id, _, _)| crate::explain::Explanation::new(id))
        .collect();
    Citation {
        rules,
        notes: notes.into_iter().map(|(_, zh, en)| (zh, en)).collect(),
        typed_notes,
    }
}
