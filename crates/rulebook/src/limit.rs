//! Natural move limit (自然限着): counting capture-free plies and judging claims.
//!
//! The server keeps one [`LimitCounter`] per game and feeds it a [`PlyFact`]
//! (who moved, capture, check) after every ply. On a claim it calls
//! [`judge_claim`]; after every ply it may call [`limit_reached`] to alert the
//! arbiter that the limit is reached even without a claim (AXF-LIMIT-3: the
//! arbiter may rule the draw on his own).
//!
//! AXF (default): a claim holds when
//! `plies_since_capture - max(0, claimant_checks - 10) >= 100` (AXF-LIMIT-1,
//! AXF-LIMIT-2), both counted over the capture-free stretch. A false claim
//! costs one technical foul and 5 minutes off the claimant's clock; a flag
//! fall from that deduction loses (AXF-LIMIT-3).
//!
//! ROC has no natural limit: its limit 限著 is declared and counted per
//! player (`roc_limit.rs`). The ROC discount (`CheckDiscount::
//! OpponentRepliesToCheck`) is kept here for halls that configure it.
//!
//! A capture ends the stretch: the capturing ply is not part of the new
//! stretch (nor its check, if it gives one), but the reply to such a check is
//! a reply to check inside the new stretch.

use crate::clock_text::{clock_text, ClockForm};
use crate::explain::{Explanation, Fact};
use crate::rule_id::RuleId;
use crate::ruleset::{CheckDiscount, RuleParams, RuleSet};
use xiangqi::Color;

/// What the limit needs to know about one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyFact {
    /// The side that made the ply.
    pub by: Color,
    /// The ply captured a piece.
    pub capture: bool,
    /// The ply gave check.
    pub check: bool,
}

/// Running counts over the current capture-free stretch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitCounter {
    plies: u32,
    checks: [u32; 2],
    replies: [u32; 2],
    pending_check: Option<Color>,
}

impl LimitCounter {
    /// An empty stretch (game start).
    pub fn new() -> LimitCounter {
        LimitCounter::default()
    }

    /// A stretch already `plies` long, e.g. from a FEN's halfmove field. The
    /// checks in those plies are unknown and counted as none.
    pub fn starting_at(plies: u32) -> LimitCounter {
        LimitCounter {
            plies,
            ..LimitCounter::default()
        }
    }

    /// Counts over a sequence of plies from the start of the game (or from
    /// the FEN the facts start at, with [`LimitCounter::starting_at`]).
    pub fn from_facts(facts: impl IntoIterator<Item = PlyFact>) -> LimitCounter {
        let mut c = LimitCounter::new();
        for f in facts {
            c.record(f);
        }
        c
    }

    /// Records one ply.
    pub fn record(&mut self, fact: PlyFact) {
        let is_reply = self.pending_check == Some(fact.by.other());
        if fact.capture {
            self.plies = 0;
            self.checks = [0, 0];
            self.replies = [0, 0];
        } else {
            self.plies = self.plies.saturating_add(1);
            let i = fact.by.index();
            if fact.check {
                self.checks[i] = self.checks[i].saturating_add(1);
            }
            if is_reply {
                self.replies[i] = self.replies[i].saturating_add(1);
            }
        }
        self.pending_check = fact.check.then_some(fact.by);
    }

    /// Starts a new count here (ROC: the arbiter declares the limit). A check
    /// given by the last ply still makes the next ply a reply to check.
    pub fn reset(&mut self) {
        *self = LimitCounter {
            pending_check: self.pending_check,
            ..LimitCounter::default()
        };
    }

    /// Plies in the current stretch.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Checks given by `side` in the current stretch.
    pub fn checks_by(&self, side: Color) -> u32 {
        self.checks[side.index()]
    }

    /// Replies to check made by `side` in the current stretch.
    pub fn replies_to_check_by(&self, side: Color) -> u32 {
        self.replies[side.index()]
    }

    /// `(counted, struck)` plies for a claim by `claimant`.
    pub fn counted_for(&self, claimant: Color, params: &RuleParams) -> (u32, u32) {
        let l = &params.limit;
        let relevant = match l.discount {
            CheckDiscount::ClaimantChecks => self.checks_by(claimant),
            CheckDiscount::OpponentRepliesToCheck => self.replies_to_check_by(claimant.other()),
        };
        let struck = relevant.saturating_sub(l.check_cap);
        (self.plies.saturating_sub(struck), struck)
    }
}

/// The penalty for a false claim (AXF-LIMIT-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FalseClaimPenalty {
    /// The claimant.
    pub side: Color,
    /// One technical foul is recorded (see [`crate::fouls::FoulKind::FalseLimitClaim`]).
    pub technical_foul: bool,
    /// Time taken off the claimant's clock.
    pub time_deduction_ms: u64,
}

/// The claimant's clock after the deduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeductionOutcome {
    /// Remaining time after the deduction (0 if the flag fell).
    pub remaining_ms: u64,
    /// The deduction used up the time: the claimant loses on time.
    pub flag_fell: bool,
}

impl FalseClaimPenalty {
    /// Applies the deduction to the claimant's remaining time. Using up the
    /// time (remaining at most the deduction) is a flag fall: a loss.
    pub fn apply(&self, remaining_ms: u64) -> DeductionOutcome {
        if remaining_ms <= self.time_deduction_ms {
            DeductionOutcome {
                remaining_ms: 0,
                flag_fell: true,
            }
        } else {
            DeductionOutcome {
                remaining_ms: remaining_ms - self.time_deduction_ms,
                flag_fell: false,
            }
        }
    }
}

/// The ruling on a natural-limit claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimVerdict {
    /// The claim holds: the game is drawn.
    pub holds: bool,
    /// Who claimed.
    pub claimant: Color,
    /// Plies in the capture-free stretch (or since the declaration).
    pub plies_in_stretch: u32,
    /// Plies struck from the count (checks or replies beyond the cap).
    pub struck_plies: u32,
    /// Plies that count towards the limit.
    pub counted_plies: u32,
    /// Plies the limit requires.
    pub required_plies: u32,
    /// The penalty, when the claim is false.
    pub penalty: Option<FalseClaimPenalty>,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
    /// Explanation for the arbiter, in Chinese.
    pub explanation_zh: String,
    /// Explanation for the arbiter, in English.
    pub explanation_en: String,
    /// The explanation as data (`limit-*`, `explain.rs`): its English and
    /// Chinese renderings are the two texts above.
    pub explanation: Explanation,
}

fn limit_rules(set: RuleSet) -> Vec<RuleId> {
    match set {
        RuleSet::Axf => vec![RuleId::AXF_LIMIT_1, RuleId::AXF_LIMIT_2],
        RuleSet::Roc => vec![RuleId::ROC_7, RuleId::ROC_8],
        RuleSet::Cxa => vec![RuleId::CXA_LIMIT_1, RuleId::AXF_LIMIT_2],
    }
}

/// [`discount_words`] as data.
fn discount_typed(params: &RuleParams, claimant: Color) -> Explanation {
    let cap = params.limit.check_cap as usize;
    match params.limit.discount {
        CheckDiscount::ClaimantChecks => Explanation::new("limit-discount-checks")
            .side("side", claimant)
            .count("cap", cap),
        CheckDiscount::OpponentRepliesToCheck => Explanation::new("limit-discount-replies")
            .side("side", claimant.other())
            .count("cap", cap),
    }
}

/// A claim's explanation as data: the count, then `outcome`.
fn claim_typed(
    params: &RuleParams,
    claimant: Color,
    (plies, struck, counted, required): (u32, u32, u32, u32),
    outcome: Explanation,
) -> Explanation {
    Explanation::new("limit-claim")
        .side("side", claimant)
        .count("plies", plies as usize)
        .part("discount", discount_typed(params, claimant))
        .count("struck", struck as usize)
        .count("counted", counted as usize)
        .count("required", required as usize)
        .part("outcome", outcome)
}

fn discount_words(params: &RuleParams, claimant: Color) -> (String, String) {
    let cap = params.limit.check_cap;
    match params.limit.discount {
        CheckDiscount::ClaimantChecks => (
            format!("{}将军最多只计{cap}着", claimant.name_zh()),
            format!("at most {cap} of {}'s checks count", claimant.name_en()),
        ),
        CheckDiscount::OpponentRepliesToCheck => (
            format!("{}应照之着最多只计{cap}着", claimant.other().name_zh()),
            format!(
                "at most {cap} of {}'s replies to check count",
                claimant.other().name_en()
            ),
        ),
    }
}

/// Plies the limit requires: the shorter ROC book-draw limit (例和) when
/// `book_draw`.
fn required_plies(params: &RuleParams, book_draw: bool) -> u32 {
    if book_draw {
        params.limit.book_draw_plies
    } else {
        params.limit.required_plies
    }
}

/// Whether a natural-limit claim by `claimant` would hold now: the count
/// of [`judge_claim`] without its ruling and texts (the hall asks after
/// every ply; the texts cost more than the move).
pub fn claim_holds(
    counter: &LimitCounter,
    claimant: Color,
    params: &RuleParams,
    book_draw: bool,
) -> bool {
    counter.counted_for(claimant, params).0 >= required_plies(params, book_draw)
}

/// Judges a natural-limit claim by `claimant` at the current point of the
/// game. `book_draw` selects the shorter ROC limit (例和); other rule sets
/// default to the same number.
pub fn judge_claim(
    counter: &LimitCounter,
    claimant: Color,
    params: &RuleParams,
    book_draw: bool,
) -> ClaimVerdict {
    let required = required_plies(params, book_draw);
    let (counted, struck) = counter.counted_for(claimant, params);
    let holds = counted >= required;
    let mut rule_ids = limit_rules(params.rule_set);
    let (dz, de) = discount_words(params, claimant);
    let plies = counter.plies();
    let (zh_head, en_head) = (
        format!(
            "{}提出自然限着和棋：无吃子{plies}步，{dz}，扣除{struck}步，有效{counted}步，需{required}步。",
            claimant.name_zh()
        ),
        format!(
            "{} claims the natural move limit: {plies} plies without a capture, {de}, {struck} struck, {counted} counted, {required} required.",
            claimant.name_en()
        ),
    );
    if holds {
        return ClaimVerdict {
            holds,
            claimant,
            plies_in_stretch: plies,
            struck_plies: struck,
            counted_plies: counted,
            required_plies: required,
            penalty: None,
            rule_ids,
            explanation_zh: format!("{zh_head}属实，判和。"),
            explanation_en: format!("{en_head} The claim holds: draw."),
            explanation: claim_typed(
                params,
                claimant,
                (plies, struck, counted, required),
                Explanation::new("limit-claim-holds"),
            ),
        };
    }
    let penalty = FalseClaimPenalty {
        side: claimant,
        technical_foul: params.limit.false_claim_is_technical_foul,
        time_deduction_ms: params.limit.false_claim_penalty_ms,
    };
    if penalty.technical_foul || penalty.time_deduction_ms > 0 {
        rule_ids.push(RuleId::AXF_LIMIT_3);
    }
    if penalty.technical_foul {
        rule_ids.push(RuleId::AXF_PLAY_5);
    }
    let t = clock_text(penalty.time_deduction_ms, ClockForm::Short);
    let (foul_zh, foul_en) = if penalty.technical_foul {
        ("技术犯规一次，", "one technical foul and ")
    } else {
        ("", "")
    };
    ClaimVerdict {
        holds,
        claimant,
        plies_in_stretch: plies,
        struck_plies: struck,
        counted_plies: counted,
        required_plies: required,
        penalty: Some(penalty),
        rule_ids,
        explanation_zh: format!(
            "{zh_head}不属实：判{}{foul_zh}扣除剩余时间{t}，如因此超时则判负，继续对弈。",
            claimant.name_zh()
        ),
        explanation_en: format!(
            "{en_head} The claim is false: {foul_en}{t} off {}'s clock (a flag fall from the deduction loses); play continues.",
            claimant.name_en()
        ),
        explanation: claim_typed(
            params,
            claimant,
            (plies, struck, counted, required),
            Explanation::new("limit-claim-false")
                .side("side", claimant)
                .part(
                    "foul",
                    Explanation::new(if penalty.technical_foul {
                        "limit-technical-foul"
                    } else {
                        "ruling-none"
                    }),
                )
                .fact("time", Fact::Duration(penalty.time_deduction_ms)),
        ),
    }
}

/// The alert "natural limit reached" without a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitAlert {
    /// Sides whose claim would hold now (Red first).
    pub claim_holds_for: Vec<Color>,
    /// Plies in the stretch.
    pub plies_in_stretch: u32,
    /// Plies the limit requires.
    pub required_plies: u32,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
    /// Explanation for the arbiter, in Chinese.
    pub explanation_zh: String,
    /// Explanation for the arbiter, in English.
    pub explanation_en: String,
    /// The explanation as data (`limit-*`, `explain.rs`): its English and
    /// Chinese renderings are the two texts above.
    pub explanation: Explanation,
}

/// `Some` when a claim by either side would hold now: the arbiter may rule
/// the draw without a claim (AXF-LIMIT-3).
pub fn limit_reached(
    counter: &LimitCounter,
    params: &RuleParams,
    book_draw: bool,
) -> Option<LimitAlert> {
    let sides: Vec<Color> = Color::ALL
        .into_iter()
        .filter(|&c| claim_holds(counter, c, params, book_draw))
        .collect();
    if sides.is_empty() {
        return None;
    }
    let required = required_plies(params, book_draw);
    let mut rule_ids = limit_rules(params.rule_set);
    if params.rule_set == RuleSet::Roc {
        rule_ids.push(RuleId::ROC_6);
    } else {
        rule_ids.push(RuleId::AXF_LIMIT_3);
    }
    let plies = counter.plies();
    let (who_zh, who_en) = if sides.len() == 2 {
        ("双方".to_string(), "either side".to_string())
    } else {
        (
            sides[0].name_zh().to_string(),
            sides[0].name_en().to_string(),
        )
    };
    let who = if sides.len() == 2 {
        Explanation::new("limit-either-side")
    } else {
        Explanation::new("limit-one-side").side("side", sides[0])
    };
    Some(LimitAlert {
        explanation: Explanation::new("limit-reached")
            .count("plies", plies as usize)
            .count("required", required as usize)
            .part("who", who),
        claim_holds_for: sides,
        plies_in_stretch: plies,
        required_plies: required,
        rule_ids,
        explanation_zh: format!(
            "已达自然限着：无吃子{plies}步（需{required}步），{who_zh}提和即属实；裁判经审核着数亦可判和。"
        ),
        explanation_en: format!(
            "Natural move limit reached: {plies} plies without a capture ({required} required); a claim by {who_en} would hold, and the arbiter may rule the draw after checking the count."
        ),
    })
}
