//! The ruling on a repetition cycle: who must change, the verdict if nobody
//! changes, the rules applied and an explanation in Chinese and English.
//!
//! Principles (002 §2): AXF-P1 neither violates: draw; AXF-P2 both commit the
//! same forbidden pattern: draw; AXF-P3 perpetual check against perpetual
//! chase: the checker must change; AXF-P4 one violates: it must change or
//! lose. A side violates when its pattern is forbidden (`pattern.rs`):
//! perpetual check (AXF-S1, D1) or a forbidden perpetual chase (AXF-S3, D28
//! and the detail rules cited from the chase's facts). Everything else is
//! allowed and cited by the general principle and detail rule that allow it.
//!
//! Those are the AXF words; the verdict logic is shared by the rule sets and
//! each cites its own text: AXF here, ROC in `cite_roc.rs`, CXA in
//! `cite_cxa.rs` (which rules are forbidden differs in `chase.rs` and
//! `pattern.rs`).
//!
//! A ruling is a recommendation to the arbiter (procedure of 000, referee
//! duties (G)): the arbiter asks the violating side to change; one more cycle
//! and it loses; with no violation, one more cycle is a draw. Where a
//! classification rests on a judgement-laden notion (block 拦, material
//! threat 要抽吃, a pin whose kind the text names) or a bounded search ran out,
//! `arbiter` says so and why (only when the other reading of the intent
//! changes the verdict: see `reread.rs`).

use crate::citation::{push, Citation, Situation};
use crate::cycle::Cycle;
use crate::explain::{self, Explanation, SEP_NOTES, SEP_PIECES, SEP_REASONS};
use crate::names::push_num;
use crate::pattern::{AllowedChase, ChaseFacts, PatternKind, SidePattern};
use crate::rule_id::RuleId;
use crate::ruleset::RuleSet;
use xiangqi::{Color, Position, Role};

/// The outcome if neither side changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Red loses.
    RedLoses,
    /// Black loses.
    BlackLoses,
    /// Draw.
    Draw,
}

impl Verdict {
    /// JSON name: `red_loses`, `black_loses`, `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::RedLoses => "red_loses",
            Verdict::BlackLoses => "black_loses",
            Verdict::Draw => "draw",
        }
    }

    fn loses(c: Color) -> Verdict {
        match c {
            Color::Red => Verdict::RedLoses,
            Color::Black => Verdict::BlackLoses,
        }
    }
}

/// The ruling on one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The cycle judged.
    pub cycle: Cycle,
    /// Verdict if neither side changes.
    pub verdict: Verdict,
    /// The side that must change (None when a draw follows if nobody changes).
    pub must_change: Option<Color>,
    /// Red's pattern.
    pub red: SidePattern,
    /// Black's pattern.
    pub black: SidePattern,
    /// Rules applied, most general first.
    pub rules: Vec<RuleId>,
    /// Explanation in Chinese.
    pub explanation_zh: String,
    /// Explanation in English.
    pub explanation_en: String,
    /// The explanation as data (`explain.rs`): the id of its sentence and
    /// its facts — the pieces on their squares, the counts, the rule ids —
    /// which every client renders in its language. Its English and Chinese
    /// renderings are `explanation_en` and `explanation_zh` (the i18n
    /// catalogue test checks it on every catalogued case).
    pub explanation: Explanation,
    /// When the ruling needs the arbiter's judgement: why, (Chinese, English).
    pub arbiter: Option<(String, String)>,
    /// `arbiter` as data (`ruling-judgement`).
    pub judgement: Option<Explanation>,
    /// When the repetition's two cycles differ: the ply of the earlier
    /// occurrence from which the moves of both cycles were classified
    /// together (`repetition.rs`); `None` when the last cycle was judged
    /// alone (its moves repeat the earlier cycle's, piece for piece).
    pub whole_from: Option<usize>,
}

/// Rules that make a perpetual chase forbidden, from its facts.
fn chase_rules(f: &ChaseFacts, rules: &mut Vec<RuleId>) {
    let roles: Vec<Role> = f.attackers.iter().map(|(_, r)| *r).collect();
    let n = roles.len();
    let only = |r: Role| n > 0 && roles.iter().all(|&x| x == r);
    let has = |r: Role| roles.contains(&r);
    // AXF-S3: one piece chasing one piece; AXF-D28: two or more in turn.
    push(
        rules,
        if n <= 1 {
            RuleId::AXF_S3
        } else {
            RuleId::AXF_D28
        },
    );
    match f.target_role {
        Role::Rook => {
            if only(Role::Cannon) {
                push(rules, RuleId::AXF_D10); // cannons may not chase a rook
                if f.discovered {
                    push(rules, RuleId::AXF_D21); // by moving screens
                }
            }
            if (has(Role::Cannon) && has(Role::Horse))
                || roles.iter().filter(|&&r| r == Role::Horse).count() >= 2
            {
                push(rules, RuleId::AXF_D15); // cannon and horse, or two horses
            }
            if only(Role::Horse) && n == 1 {
                push(rules, RuleId::AXF_D16); // a horse may not chase a rook
            }
            if (has(Role::Horse) || has(Role::Cannon)) && f.target_protected {
                push(rules, RuleId::AXF_S6); // horse or cannon on a protected rook
            }
            if has(Role::Rook) {
                push(rules, RuleId::AXF_S7); // same type: the rook cannot reply
                push(rules, RuleId::AXF_D19);
            }
        }
        Role::Cannon => {
            if has(Role::Rook) {
                push(rules, RuleId::AXF_D13); // rook on an unprotected cannon
            }
            if has(Role::Cannon) {
                push(rules, RuleId::AXF_S7);
                push(rules, RuleId::AXF_D19);
            }
        }
        Role::Horse => {
            if has(Role::Rook) {
                push(rules, RuleId::AXF_D18); // rook on a horse
            }
            if has(Role::Horse) {
                push(rules, RuleId::AXF_S7); // free horse on a hobbled horse
                push(rules, RuleId::AXF_D19);
            }
            if has(Role::Cannon) {
                push(rules, RuleId::AXF_D20); // cannon on an unprotected horse
            }
        }
        Role::Pawn => {
            if f.target_crossed_pawn && has(Role::Rook) {
                push(rules, RuleId::AXF_D26); // rook on a crossed pawn
            }
            if has(Role::Cannon) && f.target_crossed_pawn {
                push(rules, RuleId::AXF_D20); // cannon on a crossed pawn
            }
        }
        Role::Advisor | Role::Elephant => {
            if has(Role::Cannon) {
                push(rules, RuleId::AXF_D20); // a cannon (over any screen) on an unprotected piece
            }
        }
        Role::King => {}
    }
    match f.pinned_by {
        Some(Role::Horse) => push(rules, RuleId::AXF_D14), // rook held by a horse
        Some(Role::Cannon) => push(rules, RuleId::AXF_D22), // rook pinned on a line by a cannon
        _ => {}
    }
    if f.rook_and_king_controlled {
        push(rules, RuleId::AXF_D32);
    }
    if f.false_root || f.protection_cut {
        // A false root counts as none; so does a root the chasing side's
        // move took away (its screen removed, the protector blocked or pinned).
        push(rules, RuleId::AXF_D29);
    }
    if f.with_exchange {
        push(rules, RuleId::AXF_S8); // chase with an exchange offer is a chase
        push(rules, RuleId::AXF_D31);
    }
    if f.king_or_pawn_joined {
        push(rules, RuleId::AXF_D25); // king or pawn joined on every move
    }
}

/// Rules that allow a side's pattern (for draws).
fn allowed_rules(p: &SidePattern, other: &SidePattern, rules: &mut Vec<RuleId>) {
    match p.kind {
        PatternKind::PerpetualMateThreat => {
            push(rules, RuleId::AXF_S2);
            if matches!(other.kind, PatternKind::PerpetualMateThreat) {
                push(rules, RuleId::AXF_D5); // escape with counter mate threat
            } else {
                push(rules, RuleId::AXF_D4);
            }
        }
        PatternKind::CheckAndMateThreat => {
            push(rules, RuleId::AXF_S2);
            push(rules, RuleId::AXF_D6);
        }
        PatternKind::CheckAndChase => {
            push(rules, RuleId::AXF_S2);
            push(rules, RuleId::AXF_D7);
        }
        PatternKind::CheckAndIdle | PatternKind::CheckAndMaterialThreat => {
            push(rules, RuleId::AXF_S2);
            push(rules, RuleId::AXF_D8);
        }
        PatternKind::ChaseAndMaterialThreat => {
            push(rules, RuleId::AXF_S2);
            push(rules, RuleId::AXF_D9);
        }
        PatternKind::PerpetualMaterialThreat => {
            push(rules, RuleId::AXF_S10);
            push(rules, RuleId::AXF_D33);
        }
        PatternKind::PerpetualBlock => {
            push(rules, RuleId::AXF_S10);
            push(rules, RuleId::AXF_D34);
        }
        PatternKind::PerpetualExchange | PatternKind::PerpetualOffer => {
            push(rules, RuleId::AXF_S10);
            push(rules, RuleId::AXF_D35);
            if p.mutual_same_type {
                push(rules, RuleId::AXF_S7); // same-type pieces free to take: an offer
                push(rules, RuleId::AXF_D19);
            }
        }
        PatternKind::PerpetualChase => match p.allowed_chase {
            Some(AllowedChase::InTurn) => {
                push(rules, RuleId::AXF_S4);
                push(rules, RuleId::AXF_D27);
                if p.cannons_on_rooks {
                    push(rules, RuleId::AXF_D11);
                }
            }
            Some(AllowedChase::KingOrPawn { king, pawn }) => {
                push(rules, RuleId::AXF_S9);
                if king {
                    push(rules, RuleId::AXF_D23);
                }
                if pawn {
                    push(rules, RuleId::AXF_D24);
                }
            }
            Some(AllowedChase::UncrossedPawn) => {
                push(rules, RuleId::AXF_S3);
                push(rules, RuleId::AXF_D20);
            }
            None => {}
        },
        _ => {}
    }
    if let Some(pa) = &p.protected_attack {
        push(rules, RuleId::AXF_S6); // attacking a truly protected piece is no chase
        if pa.max_attackers >= 2 {
            push(rules, RuleId::AXF_D30);
        }
        if pa.target_role == Role::Cannon && pa.attackers.iter().any(|(_, r)| *r == Role::Rook) {
            push(rules, RuleId::AXF_D12);
        }
    }
}

fn situation<'a>(
    red: &'a SidePattern,
    black: &'a SidePattern,
) -> (Situation<'a>, Verdict, Option<Color>) {
    match (red.forbidden, black.forbidden) {
        (true, true) => {
            let rc = red.kind == PatternKind::PerpetualCheck;
            let bc = black.kind == PatternKind::PerpetualCheck;
            if rc && bc {
                (Situation::BothCheck, Verdict::Draw, None)
            } else if rc || bc {
                let checker = if rc { Color::Red } else { Color::Black };
                (
                    Situation::CheckAgainstChase,
                    Verdict::loses(checker),
                    Some(checker),
                )
            } else {
                (Situation::BothChase, Verdict::Draw, None)
            }
        }
        (rf, bf) if rf || bf => {
            let (v, o) = if rf { (red, black) } else { (black, red) };
            let s = match &v.chase {
                Some(facts) if v.kind != PatternKind::PerpetualCheck => Situation::OneChases {
                    facts,
                    two_against_one: o.kind == PatternKind::ChaseAndIdle
                        || o.kind == PatternKind::CheckAndChase,
                },
                _ => Situation::OneChecks {
                    counter_check: o.moves.contains(&crate::classify::MoveKind::Check),
                },
            };
            (s, Verdict::loses(v.side), Some(v.side))
        }
        _ => (Situation::Allowed, Verdict::Draw, None),
    }
}

/// The AXF citations of a situation.
fn cite_axf(s: &Situation, red: &SidePattern, black: &SidePattern) -> Vec<RuleId> {
    let mut rules = Vec::new();
    match *s {
        Situation::BothCheck => {
            push(&mut rules, RuleId::AXF_P2);
            push(&mut rules, RuleId::AXF_D2); // mutual perpetual check: draw
        }
        Situation::CheckAgainstChase => {
            // AXF-P3: perpetual check against perpetual chase: the checker changes.
            push(&mut rules, RuleId::AXF_P3);
            push(&mut rules, RuleId::AXF_S1);
            push(&mut rules, RuleId::AXF_D1);
        }
        Situation::BothChase => {
            // AXF-P2: both chase perpetually: draw.
            push(&mut rules, RuleId::AXF_P2);
            let pair = |p: &SidePattern| p.chase.as_ref().map(|f| f.target_role);
            let roles = [pair(red), pair(black)];
            if roles.contains(&Some(Role::Rook)) && roles.contains(&Some(Role::Horse)) {
                push(&mut rules, RuleId::AXF_D17); // rook and horse chasing each other
            }
        }
        Situation::OneChecks { counter_check } => {
            push(&mut rules, RuleId::AXF_P4);
            push(&mut rules, RuleId::AXF_S1);
            push(&mut rules, RuleId::AXF_D1);
            if counter_check {
                push(&mut rules, RuleId::AXF_D3); // two checks against one counter-check
            }
        }
        Situation::OneChases {
            facts,
            two_against_one,
        } => {
            push(&mut rules, RuleId::AXF_P4);
            chase_rules(facts, &mut rules);
            if two_against_one {
                push(&mut rules, RuleId::AXF_S5); // two chases against one counter-chase
            }
        }
        Situation::Allowed => {
            push(&mut rules, RuleId::AXF_P1);
            push(&mut rules, RuleId::AXF_G5);
            allowed_rules(red, black, &mut rules);
            allowed_rules(black, red, &mut rules);
        }
    }
    rules
}

/// Appends what a side does, in Chinese to `zh` and in English to `en`
/// (`红方长捉（车(b2)捉马(c3)）`, `Red: perpetual chase (rook b2 after horse c3)`).
fn describe(zh: &mut String, en: &mut String, p: &SidePattern, pos: &Position) {
    zh.push_str(p.side.name_zh());
    zh.push_str(p.kind.zh());
    en.push_str(p.side.name_en());
    en.push_str(": ");
    for (i, word) in p.kind.name().split('_').enumerate() {
        if i > 0 {
            en.push(' ');
        }
        en.push_str(word);
    }
    if !p.targets.is_empty() {
        // The pieces on the squares (a square without one is left out).
        let label = |zh: &mut String, en: &mut String, sqs: &[xiangqi::Square]| {
            let pieces = sqs
                .iter()
                .filter_map(|&s| pos.piece_at(s).map(|pc| (s, pc)));
            for (i, (s, pc)) in pieces.enumerate() {
                if i > 0 {
                    zh.push('、');
                    en.push_str(", ");
                }
                zh.push(pc.name_zh());
                zh.push('(');
                push_square(zh, s);
                zh.push(')');
                en.push_str(pc.role.name_en());
                en.push(' ');
                push_square(en, s);
            }
        };
        zh.push('（');
        en.push_str(" (");
        label(zh, en, &p.attackers);
        zh.push('捉');
        en.push_str(" after ");
        label(zh, en, &p.targets);
        zh.push('）');
        en.push(')');
    }
    if p.kind == PatternKind::PerpetualChase && !p.forbidden {
        zh.push_str("，不属禁例");
        en.push_str(", not forbidden");
    }
}

/// What a side does, as data (`ruling-side`): the pattern, the pieces
/// chasing and chased on their squares, whether an allowed chase.
fn describe_typed(p: &SidePattern, pos: &Position) -> Explanation {
    let pieces = |sqs: &[xiangqi::Square]| {
        sqs.iter()
            .filter_map(|&s| pos.piece_at(s).map(|pc| explain::piece_at(pc, s)))
            .collect::<Vec<_>>()
    };
    let chase = if p.targets.is_empty() {
        Explanation::new("ruling-none")
    } else {
        Explanation::new("ruling-chase")
            .list("attackers", SEP_PIECES, pieces(&p.attackers))
            .list("targets", SEP_PIECES, pieces(&p.targets))
    };
    let allowed = if p.kind == PatternKind::PerpetualChase && !p.forbidden {
        "ruling-not-forbidden"
    } else {
        "ruling-none"
    };
    Explanation::new("ruling-side")
        .side("side", p.side)
        .part("pattern", Explanation::new(p.kind.id()))
        .part("chase", chase)
        .part("allowed", Explanation::new(allowed))
}

/// The explanation of a ruling as data (`ruling-repetition`), beside the
/// sentences `rule` writes.
fn explain_typed(
    cycle: Cycle,
    red: &SidePattern,
    black: &SidePattern,
    verdict: (Verdict, Option<Color>),
    rules: &[RuleId],
    notes: Vec<Explanation>,
    pos: &Position,
) -> Explanation {
    let verdict = match verdict {
        (Verdict::Draw, _) => Explanation::new("ruling-verdict-draw"),
        (_, Some(c)) => Explanation::new("ruling-verdict-must-change").side("side", c),
        (_, None) => Explanation::new("ruling-none"),
    };
    Explanation::new("ruling-repetition")
        .count("count", cycle.occurrences)
        .count("plies", cycle.len())
        .part("red", describe_typed(red, pos))
        .part("black", describe_typed(black, pos))
        .part("verdict", verdict)
        .rules("rules", rules)
        .list("notes", SEP_NOTES, notes)
}

/// Appends a square's name (`b2`).
fn push_square(out: &mut String, sq: xiangqi::Square) {
    out.push(sq.file_char());
    out.push(sq.rank_char());
}

/// Rules on the cycle given both sides' patterns. `pos` is the cycle's position
/// (the repeated one), used to name pieces.
pub fn rule(
    cycle: Cycle,
    red: SidePattern,
    black: SidePattern,
    pos: &Position,
    set: RuleSet,
) -> Ruling {
    let (situation, verdict, must_change) = situation(&red, &black);
    let Citation {
        rules,
        notes,
        typed_notes,
    } = match set {
        RuleSet::Axf => Citation {
            rules: cite_axf(&situation, &red, &black),
            notes: Vec::new(),
            typed_notes: Vec::new(),
        },
        RuleSet::Roc => crate::cite_roc::cite(&situation, &red, &black),
        RuleSet::Cxa => crate::cite_cxa::cite(&situation, &red, &black),
    };
    let (vz, ve) = match (verdict, must_change) {
        (Verdict::Draw, _) => (
            "双方不变作和：裁判员宣布再循环一次即判和。",
            "If neither side changes it is a draw: the arbiter announces that one more cycle is a draw.",
        ),
        (_, Some(_)) => (
            "犯例，必须变着，不变作负。",
            " violates and must change; if it does not, it loses.",
        ),
        (_, None) => ("", ""),
    };
    // 局面第{n}次出现（循环{len}步）。{red}；{black}。{verdict}（{ids}）
    // The position occurred for the {nth} time (a cycle of {len} plies). {red}; {black}. {verdict} ({ids})
    let mut explanation_zh = String::with_capacity(256);
    let mut explanation_en = String::with_capacity(384);
    explanation_zh.push_str("局面第");
    push_num(&mut explanation_zh, cycle.occurrences);
    explanation_zh.push_str("次出现（循环");
    push_num(&mut explanation_zh, cycle.len());
    explanation_zh.push_str("步）。");
    explanation_en.push_str("The position occurred for the ");
    push_ordinal(&mut explanation_en, cycle.occurrences);
    explanation_en.push_str(" time (a cycle of ");
    push_num(&mut explanation_en, cycle.len());
    explanation_en.push_str(" plies). ");
    describe(&mut explanation_zh, &mut explanation_en, &red, pos);
    explanation_zh.push('；');
    explanation_en.push_str("; ");
    describe(&mut explanation_zh, &mut explanation_en, &black, pos);
    explanation_zh.push('。');
    explanation_en.push_str(". ");
    if let Some(c) = must_change.filter(|_| verdict != Verdict::Draw) {
        explanation_zh.push_str(c.name_zh());
        explanation_en.push_str(c.name_en());
    }
    explanation_zh.push_str(vz);
    explanation_en.push_str(ve);
    explanation_zh.push('（');
    explanation_en.push_str(" (");
    for (i, r) in rules.iter().enumerate() {
        if i > 0 {
            explanation_zh.push_str(", ");
            explanation_en.push_str(", ");
        }
        explanation_zh.push_str(r.as_str());
        explanation_en.push_str(r.as_str());
    }
    explanation_zh.push('）');
    explanation_en.push(')');
    for (zh, en) in &notes {
        explanation_zh.push_str(zh);
        explanation_en.push(' ');
        explanation_en.push_str(en);
    }
    let explanation = explain_typed(
        cycle,
        &red,
        &black,
        (verdict, must_change),
        &rules,
        typed_notes,
        pos,
    );
    let (arbiter, judgement) = referral(&red, &black);
    Ruling {
        cycle,
        verdict,
        must_change,
        red,
        black,
        rules,
        explanation_zh,
        explanation_en,
        explanation,
        arbiter,
        judgement,
        whole_from: None,
    }
}

impl Ruling {
    /// The whole explanation as data: [`Ruling::explanation`] with the
    /// arbiter's judgement it asks for (`ruling-with-judgement`), as the
    /// hall shows it.
    pub fn full_explanation(&self) -> Explanation {
        match &self.judgement {
            None => self.explanation.clone(),
            Some(j) => Explanation::new("ruling-with-judgement")
                .part("ruling", self.explanation.clone())
                .part("judgement", j.clone()),
        }
    }
}

/// When the ruling needs the arbiter's judgement: why, in Chinese and
/// English, and as data (`ruling-judgement`).
fn referral(
    red: &SidePattern,
    black: &SidePattern,
) -> (Option<(String, String)>, Option<Explanation>) {
    let mut why_zh = Vec::new();
    let mut why_en = Vec::new();
    let mut why = Vec::new();
    if red.needs_judgement || black.needs_judgement {
        why.push(Explanation::new("ruling-why-intent"));
        why_zh.push("本循环中有着法定性为“拦”或“要抽吃”，或搜索未尽，须由裁判员判断其意图");
        why_en.push("a move of this cycle is classified as a block or a material threat, or a bounded search did not finish: these need the arbiter's judgement of intent");
    }
    if red.chase_out_of_check || black.chase_out_of_check {
        why.push(Explanation::new("ruling-why-out-of-check"));
        why_zh.push("长捉之方有着法是在被将时应将（解照还捉），是否“企图吃子”须由裁判员判断");
        why_en.push("the chasing side made some of its chasing moves out of check (escape with a counter-chase): whether they intend capture is the arbiter's judgement");
    }
    let arbiter = if why_zh.is_empty() {
        None
    } else {
        Some((
            format!("{}。", why_zh.join("；")),
            format!("{}.", why_en.join("; ")),
        ))
    };
    let judgement = (!why.is_empty())
        .then(|| Explanation::new("ruling-judgement").list("reasons", SEP_REASONS, why));
    (arbiter, judgement)
}

/// Appends `n` as an English ordinal (`3rd`).
fn push_ordinal(out: &mut String, n: usize) {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    push_num(out, n);
    out.push_str(suffix);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::MoveKind;

    fn pattern(
        side: Color,
        kind: PatternKind,
        forbidden: bool,
        moves: Vec<MoveKind>,
    ) -> SidePattern {
        SidePattern {
            side,
            kind,
            moves,
            forbidden,
            attackers: Vec::new(),
            targets: Vec::new(),
            chase: None,
            allowed_chase: None,
            protected_attack: None,
            needs_judgement: false,
            mutual_same_type: false,
            cannons_on_rooks: false,
            chase_out_of_check: false,
            formal_chase_mated: false,
            kept_chase: false,
        }
    }

    fn cycle() -> Cycle {
        Cycle {
            start: 0,
            end: 4,
            occurrences: 3,
        }
    }

    /// AXF-D2 (catalogue: own-D2-cannons, own-D2-horse): both sides check on every move: draw by AXF-P2.
    #[test]
    fn mutual_perpetual_check_is_a_draw() {
        let checks = vec![MoveKind::Check, MoveKind::Check];
        let r = rule(
            cycle(),
            pattern(
                Color::Red,
                PatternKind::PerpetualCheck,
                true,
                checks.clone(),
            ),
            pattern(Color::Black, PatternKind::PerpetualCheck, true, checks),
            &Position::new(),
            RuleSet::Axf,
        );
        assert_eq!(r.verdict, Verdict::Draw);
        assert_eq!(r.must_change, None);
        assert_eq!(r.rules, vec![RuleId::AXF_P2, RuleId::AXF_D2]);
    }

    /// AXF-P3: perpetual check against a forbidden perpetual chase: the checker changes.
    #[test]
    fn check_against_chase_the_checker_changes() {
        let r = rule(
            cycle(),
            pattern(
                Color::Red,
                PatternKind::PerpetualChase,
                true,
                vec![MoveKind::Chase; 2],
            ),
            pattern(
                Color::Black,
                PatternKind::PerpetualCheck,
                true,
                vec![MoveKind::Check; 2],
            ),
            &Position::new(),
            RuleSet::Roc,
        );
        assert_eq!(r.verdict, Verdict::BlackLoses);
        assert_eq!(r.must_change, Some(Color::Black));
        assert!(r.rules.contains(&RuleId::ROC_16));
    }
}
