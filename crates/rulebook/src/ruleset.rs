//! Rule sets (AXF 2008, ROC, CXA) and the parameters in which they differ.
//!
//! A hall's config names its rule set (`[rules] set = "axf"`); the rule set
//! gives defaults for the natural move limit (自然限着), the foul thresholds
//! and the adjournment procedure, and every parameter can be overridden in
//! config (`[rules.limit] required_plies = 120`). The repetition rulings
//! also switch on [`RuleSet`].
//!
//! Readings of the source texts (000 to 004, named in `docs/rules.md`,
//! "Sources", where these readings are also explained):
//! - AXF (000, 裁判员职责 (F)/(K) and 第六章): 100 plies ("双方共走100步")
//!   without a capture, counted from move one or the last capture; of the
//!   claimant's checks ("提和方'将军'") at most 10 are counted, the rest are
//!   struck from the count. False claim: one technical foul and five minutes
//!   off the claimant's clock.
//! - ROC (docs/rules.md, ROC-6 to ROC-8): the limit 限著 is *declared* by
//!   the arbiter (on a request, or on his own judgement) and counted per
//!   player from the declaration: 40 moves each, 30 each in a book draw (例和);
//!   of the limited (stronger) side's replies to check only five count. It
//!   is modelled by `roc_limit.rs`, which reads `required_plies` /
//!   `book_draw_plies` (80 / 60 plies = 40 / 30 moves each) and `check_cap`
//!   (5) from here; ROC has no natural limit, so the capture-free count of
//!   `limit.rs` is not used under ROC. The ROC text has no false-claim
//!   penalty (the arbiter declares the limit and counts it): a claim that
//!   the limit is full when it is not is answered "play on", with no foul
//!   and no time taken; `false_claim_*` apply to the natural limit only.
//! - CXA: not in the seeds. The CXA rules as commonly summarised use 60
//!   rounds (120 plies) "也可根据比赛等级酌减"; the check cap of AXF (10 of
//!   the claimant's checks) is assumed. All configurable.
//! - Sealed move (封棋): 000 says both "由执红子方赛员写暗着" and "由该局先行
//!   的一方写暗着"; the default is the side to move, config may choose Red.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A competition rule set, selected by name in config.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// Asian Xiangqi Federation rules, 3rd revised edition (2008). Default.
    #[default]
    Axf,
    /// Republic of China (Taiwan) rules.
    Roc,
    /// Chinese Xiangqi Association rules (value-based chase rules).
    Cxa,
}

/// Errors in the rules section of a config.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    /// The rule set name is not one of axf, roc, cxa.
    #[error("unknown rule set {0:?}: expected \"axf\", \"roc\" or \"cxa\"")]
    UnknownRuleSet(String),
    /// A parameter is out of range; names the config key.
    #[error("invalid value for {key}: {reason}")]
    InvalidValue {
        /// The config key, e.g. `rules.limit.required_plies`.
        key: &'static str,
        /// Why it is invalid (typed: crates/config words it from the
        /// catalogues; its `Display` is the English).
        reason: RuleProblem,
    },
}

/// Why a rule parameter is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleProblem {
    /// A count that must be at least 1 is 0.
    #[error("must be at least 1")]
    AtLeastOne,
    /// Minutes too many to hold in milliseconds (the value given).
    #[error("{0} minutes is too large")]
    MinutesTooLarge(u64),
    /// Seconds too many to hold in milliseconds (the value given).
    #[error("{0} seconds is too large")]
    SecondsTooLarge(u64),
    /// `cycles_after_order` is neither 1 nor 3 (the value given).
    #[error(
        "must be 1 (000 (G)3: 再循环一次, the default) or 3 (AXF-G3's wording: \
         three more cycles), not {0}"
    )]
    CyclesAfterOrder(u64),
}

impl RuleSet {
    /// The config name: `"axf"`, `"roc"` or `"cxa"`.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Axf => "axf",
            RuleSet::Roc => "roc",
            RuleSet::Cxa => "cxa",
        }
    }

    /// Parses a config name (case-insensitive, surrounding spaces ignored).
    pub fn from_name(name: &str) -> Result<RuleSet, RuleSetError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "axf" => Ok(RuleSet::Axf),
            "roc" => Ok(RuleSet::Roc),
            "cxa" => Ok(RuleSet::Cxa),
            _ => Err(RuleSetError::UnknownRuleSet(name.to_string())),
        }
    }

    /// The default parameters of this rule set.
    pub fn params(self) -> RuleParams {
        RuleParams {
            rule_set: self,
            limit: LimitParams::for_set(self),
            fouls: FoulParams::default(),
            sealed_move_by: SealedMoveBy::SideToMove,
            cycles_after_order: CyclesAfterOrder::One,
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for RuleSet {
    type Err = RuleSetError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleSet::from_name(s)
    }
}

impl Serialize for RuleSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for RuleSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        RuleSet::from_name(&text).map_err(serde::de::Error::custom)
    }
}

/// Which plies a check-heavy capture-free stretch strikes from the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckDiscount {
    /// AXF: the claimant's own checks beyond the cap are not counted.
    ClaimantChecks,
    /// ROC: the opponent's (limited side's) replies to the claimant's checks
    /// beyond the cap are not counted.
    OpponentRepliesToCheck,
}

/// Where the count of the natural limit starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitStart {
    /// AXF/CXA: from move one or from the last capture.
    LastCapture,
    /// ROC: from the arbiter's declaration (the caller resets the counter
    /// then); a capture still resets it.
    Declaration,
}

/// Parameters of the natural move limit (自然限着).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitParams {
    /// Plies (both sides) without a capture for the limit; AXF 100.
    pub required_plies: u32,
    /// The same in a book draw (ROC 例和: 30 moves each = 60 plies).
    pub book_draw_plies: u32,
    /// Which check-related plies are struck beyond the cap.
    pub discount: CheckDiscount,
    /// How many of those plies still count (AXF 10, ROC 5).
    pub check_cap: u32,
    /// Where the count starts.
    pub counts_from: LimitStart,
    /// Time taken off a false claimant's clock (AXF 5 minutes).
    pub false_claim_penalty_ms: u64,
    /// Whether a false claim is also a technical foul (AXF yes).
    pub false_claim_is_technical_foul: bool,
}

impl LimitParams {
    /// The defaults of a rule set (see the module doc for the readings).
    pub fn for_set(set: RuleSet) -> LimitParams {
        let axf = LimitParams {
            required_plies: 100,
            book_draw_plies: 100,
            discount: CheckDiscount::ClaimantChecks,
            check_cap: 10,
            counts_from: LimitStart::LastCapture,
            false_claim_penalty_ms: 5 * 60 * 1000,
            false_claim_is_technical_foul: true,
        };
        match set {
            RuleSet::Axf => axf,
            RuleSet::Roc => LimitParams {
                required_plies: 80,
                book_draw_plies: 60,
                discount: CheckDiscount::OpponentRepliesToCheck,
                check_cap: 5,
                counts_from: LimitStart::Declaration,
                ..axf
            },
            RuleSet::Cxa => LimitParams {
                required_plies: 120,
                book_draw_plies: 120,
                ..axf
            },
        }
    }
}

impl Default for LimitParams {
    fn default() -> Self {
        LimitParams::for_set(RuleSet::Axf)
    }
}

/// Thresholds of the foul ladders and attendance rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoulParams {
    /// Technical fouls (技术犯规) in one game that lose it (AXF-PLAY-5: 2).
    pub technical_fouls_to_lose: u32,
    /// Recording violations (违例) in one game that lose it (AXF-REC-6: 4).
    pub recording_violations_to_lose: u32,
    /// Consecutive moves missing from a score sheet that make one violation (4).
    pub missing_moves_per_violation: u32,
    /// Clock-pressing offences before they become violations: the first is a
    /// reminder, the second a warning (AXF-CONDUCT-5: 2).
    pub press_offences_before_violation: u32,
    /// Absence after the start that forfeits the game (AXF-FORFEIT-1: 30 min).
    pub no_show_ms: u64,
    /// Lateness at the resumption of an adjourned game that forfeits it
    /// (AXF-REF-L: 15 min).
    pub adjournment_late_ms: u64,
    /// Colours reversed: a replay if noticed within this time (AXF-PLAY-4B: 20 min).
    pub colours_reversed_replay_ms: u64,
}

impl Default for FoulParams {
    fn default() -> Self {
        FoulParams {
            technical_fouls_to_lose: 2,
            recording_violations_to_lose: 4,
            missing_moves_per_violation: 4,
            press_offences_before_violation: 2,
            no_show_ms: 30 * 60 * 1000,
            adjournment_late_ms: 15 * 60 * 1000,
            colours_reversed_replay_ms: 20 * 60 * 1000,
        }
    }
}

/// Who writes the sealed move at an adjournment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SealedMoveBy {
    /// The side to move (practice, and 000 ch. 2 §2 item 4: 该局先行的一方).
    #[default]
    SideToMove,
    /// Red (000, referee duties: 由执红子方赛员写暗着).
    Red,
}

/// How many more cycles after an order give the result (hall config
/// `[arbitration] cycles_after_order`, `caipan adjudicate`'s
/// `"cycles_after_order"`; see [`crate::procedure`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CyclesAfterOrder {
    /// One more cycle (000 referee duties (G)3, 再循环一次). Default.
    #[default]
    One,
    /// Three more cycles (AXF-G3's wording in 001: 重复三次).
    Three,
}

impl CyclesAfterOrder {
    /// The number of cycles.
    pub fn count(self) -> usize {
        match self {
            CyclesAfterOrder::One => 1,
            CyclesAfterOrder::Three => 3,
        }
    }

    /// From a count (1 or 3).
    pub fn from_count(n: u64) -> Option<CyclesAfterOrder> {
        match n {
            1 => Some(CyclesAfterOrder::One),
            3 => Some(CyclesAfterOrder::Three),
            _ => None,
        }
    }

    /// The cycles as data (`ruling-more-cycles`), as [`CyclesAfterOrder::words`]
    /// writes them.
    pub fn explain(self) -> crate::explain::Explanation {
        crate::explain::Explanation::new("ruling-more-cycles").count("cycles", self.count())
    }

    /// The cycles in words (Chinese, English): "再循环一次", "one more cycle".
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            CyclesAfterOrder::One => ("再循环一次", "one more cycle"),
            CyclesAfterOrder::Three => ("再循环三次", "three more cycles"),
        }
    }
}

/// All rule parameters of a hall, resolved from a rule set and overrides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleParams {
    /// The rule set (repetition rulings switch on it).
    pub rule_set: RuleSet,
    /// Natural move limit.
    pub limit: LimitParams,
    /// Fouls and attendance.
    pub fouls: FoulParams,
    /// Who writes the sealed move.
    pub sealed_move_by: SealedMoveBy,
    /// How many more cycles after a change order give the result.
    #[serde(default)]
    pub cycles_after_order: CyclesAfterOrder,
}

impl Default for RuleParams {
    fn default() -> Self {
        RuleSet::Axf.params()
    }
}

/// The `[rules]` section of a config: a rule set name and optional overrides.
///
/// ```toml
/// [rules]
/// set = "roc"
/// sealed_move_by = "red"
/// [rules.limit]
/// check_cap = 6
/// [rules.fouls]
/// no_show_minutes = 15
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    /// The rule set; `axf` when absent.
    #[serde(default)]
    pub set: RuleSet,
    /// Who writes the sealed move; the side to move when absent.
    #[serde(default)]
    pub sealed_move_by: Option<SealedMoveBy>,
    /// Overrides of the natural limit.
    #[serde(default)]
    pub limit: LimitOverrides,
    /// Overrides of the foul thresholds.
    #[serde(default)]
    pub fouls: FoulOverrides,
    /// Cycles after a change order that give the result: 1 (000 (G)3, the
    /// default) or 3 (AXF-G3's wording).
    #[serde(default)]
    pub cycles_after_order: Option<u64>,
}

/// `[rules.limit]` overrides; absent keys keep the rule set's default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitOverrides {
    /// Plies without a capture for the limit.
    pub required_plies: Option<u32>,
    /// Plies in a book draw.
    pub book_draw_plies: Option<u32>,
    /// `claimant_checks` or `opponent_replies_to_check`.
    pub discount: Option<CheckDiscount>,
    /// How many check-related plies count.
    pub check_cap: Option<u32>,
    /// `last_capture` or `declaration`.
    pub counts_from: Option<LimitStart>,
    /// Seconds off a false claimant's clock.
    pub false_claim_penalty_seconds: Option<u64>,
    /// Whether a false claim is also a technical foul.
    pub false_claim_is_technical_foul: Option<bool>,
}

/// `[rules.fouls]` overrides; absent keys keep the defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FoulOverrides {
    /// Technical fouls that lose a game.
    pub technical_fouls_to_lose: Option<u32>,
    /// Recording violations that lose a game.
    pub recording_violations_to_lose: Option<u32>,
    /// Missing moves that make one recording violation.
    pub missing_moves_per_violation: Option<u32>,
    /// Clock-pressing offences before they become violations.
    pub press_offences_before_violation: Option<u32>,
    /// Minutes of absence after the start that forfeit.
    pub no_show_minutes: Option<u64>,
    /// Minutes late at the resumption that forfeit.
    pub adjournment_late_minutes: Option<u64>,
    /// Minutes within which reversed colours give a replay.
    pub colours_reversed_replay_minutes: Option<u64>,
}

fn at_least_one(key: &'static str, v: u32) -> Result<u32, RuleSetError> {
    if v == 0 {
        Err(RuleSetError::InvalidValue {
            key,
            reason: RuleProblem::AtLeastOne,
        })
    } else {
        Ok(v)
    }
}

fn minutes(key: &'static str, m: u64) -> Result<u64, RuleSetError> {
    m.checked_mul(60_000).ok_or(RuleSetError::InvalidValue {
        key,
        reason: RuleProblem::MinutesTooLarge(m),
    })
}

impl RulesConfig {
    /// Resolves the rule set defaults and the overrides into parameters.
    /// Errors name the config key.
    pub fn resolve(&self) -> Result<RuleParams, RuleSetError> {
        let mut p = self.set.params();
        if let Some(s) = self.sealed_move_by {
            p.sealed_move_by = s;
        }
        let l = &self.limit;
        if let Some(v) = l.required_plies {
            p.limit.required_plies = at_least_one("rules.limit.required_plies", v)?;
        }
        if let Some(v) = l.book_draw_plies {
            p.limit.book_draw_plies = at_least_one("rules.limit.book_draw_plies", v)?;
        }
        if let Some(v) = l.discount {
            p.limit.discount = v;
        }
        if let Some(v) = l.check_cap {
            p.limit.check_cap = v;
        }
        if let Some(v) = l.counts_from {
            p.limit.counts_from = v;
        }
        if let Some(v) = l.false_claim_penalty_seconds {
            p.limit.false_claim_penalty_ms =
                v.checked_mul(1000).ok_or(RuleSetError::InvalidValue {
                    key: "rules.limit.false_claim_penalty_seconds",
                    reason: RuleProblem::SecondsTooLarge(v),
                })?;
        }
        if let Some(v) = l.false_claim_is_technical_foul {
            p.limit.false_claim_is_technical_foul = v;
        }
        let f = &self.fouls;
        if let Some(v) = f.technical_fouls_to_lose {
            p.fouls.technical_fouls_to_lose =
                at_least_one("rules.fouls.technical_fouls_to_lose", v)?;
        }
        if let Some(v) = f.recording_violations_to_lose {
            p.fouls.recording_violations_to_lose =
                at_least_one("rules.fouls.recording_violations_to_lose", v)?;
        }
        if let Some(v) = f.missing_moves_per_violation {
            p.fouls.missing_moves_per_violation =
                at_least_one("rules.fouls.missing_moves_per_violation", v)?;
        }
        if let Some(v) = f.press_offences_before_violation {
            p.fouls.press_offences_before_violation = v;
        }
        if let Some(v) = f.no_show_minutes {
            p.fouls.no_show_ms = minutes("rules.fouls.no_show_minutes", v)?;
        }
        if let Some(v) = f.adjournment_late_minutes {
            p.fouls.adjournment_late_ms = minutes("rules.fouls.adjournment_late_minutes", v)?;
        }
        if let Some(v) = f.colours_reversed_replay_minutes {
            p.fouls.colours_reversed_replay_ms =
                minutes("rules.fouls.colours_reversed_replay_minutes", v)?;
        }
        if let Some(v) = self.cycles_after_order {
            p.cycles_after_order =
                CyclesAfterOrder::from_count(v).ok_or(RuleSetError::InvalidValue {
                    key: "rules.cycles_after_order",
                    reason: RuleProblem::CyclesAfterOrder(v),
                })?;
        }
        Ok(p)
    }
}
