//! Fouls and their escalation, attendance (no-show, late resumption) and
//! draw offers: the rules of conduct the arbiter enforces during a game.
//!
//! The server keeps one [`FoulLedger`] per game. When the arbiter records a
//! foul, [`FoulLedger::record`] returns an [`Escalation`]: the step reached
//! (reminder, warning, violation, technical foul) and, at the threshold, a
//! proposed loss with the rule cited and an explanation in Chinese and
//! English. The arbiter confirms or overrides; a cancelled entry is removed
//! with [`FoulLedger::cancel`].
//!
//! Readings of the source (seed 000):
//! - Technical fouls 技术犯规 (AXF-PLAY-5): two in one game lose. A false
//!   natural-limit claim is one (AXF-LIMIT-3), so is an uncorrectable touch
//!   (AXF-PLAY-2) and a corrected illegal move (AXF-PLAY-4A).
//! - Violations 违例 (AXF-REC-6, AXF-REF-I): four moves (two rounds) missing
//!   from one's score sheet are one violation; four violations lose; they are
//!   counted apart from technical fouls. Pressing the clock too hard
//!   (AXF-CONDUCT-5): first a reminder 提醒, then a warning 警告, then each
//!   further offence is one violation "违例四次判负". The text uses the same
//!   word 违例 for both, so both feed the same violation count here.
//! - The list of prohibited acts (AXF-BAN-5) names a repeated draw offer
//!   after a refusal; its heading is lost in the source, and its items are
//!   the acts other sections call technical fouls, so such an offer is
//!   proposed as a technical foul, for the arbiter to confirm.
//! - No-show (AXF-FORFEIT-1): a player not at the board more than 30
//!   minutes after the start forfeits; if both, both forfeit. A late player
//!   who arrives in time plays on with the time left on his clock (which ran
//!   from the start). After an adjournment, 15 minutes late at the
//!   resumption forfeits (AXF-REF-L); both late: both forfeit (by analogy).
//!   Arriving exactly at the limit is in time ("逾时" = beyond it).

use crate::clock_text::{clock_text, ClockForm};
use crate::rule_id::RuleId;
use crate::ruleset::FoulParams;
use xiangqi::Color;

/// Why a technical foul was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TechnicalReason {
    /// Touch-move obligation that cannot be met (AXF-PLAY-2, AXF-BAN-6).
    TouchMove,
    /// An illegal move corrected (AXF-PLAY-4A).
    IllegalMove,
    /// A draw offer repeated after a refusal (AXF-BAN-5, AXF-REF-J).
    RepeatedDrawOffer,
    /// Disturbing the opponent (ROC-23; AXF leaves the penalty to the arbiter).
    Disturbing,
    /// Anything else the arbiter rules a technical foul.
    Other,
}

/// A foul the arbiter records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FoulKind {
    /// One technical foul 技术犯规.
    Technical(TechnicalReason),
    /// A false natural-limit claim: one technical foul (AXF-LIMIT-3).
    FalseLimitClaim,
    /// Four moves (two rounds) missing from the score sheet: one violation 违例.
    RecordingLapse,
    /// Pressing the clock too hard (reminder, warning, then violations).
    HardPress,
    /// The record not completed after the arbiter's notice: loss (AXF-REC-7).
    RefusedToCompleteRecord,
}

/// The step a recorded foul reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EscalationStep {
    /// 提醒: a reminder (first hard press).
    Reminder,
    /// 警告: a warning (second hard press).
    Warning,
    /// 违例: the side's violation number `count`.
    Violation {
        /// Violations of this side so far (including this one).
        count: u32,
    },
    /// 技术犯规: the side's technical foul number `count`.
    TechnicalFoul {
        /// Technical fouls of this side so far (including this one).
        count: u32,
    },
    /// A foul that loses by itself.
    Loss,
}

/// The ledger's proposal after recording a foul.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escalation {
    /// Who committed it.
    pub side: Color,
    /// What was recorded.
    pub kind: FoulKind,
    /// The step reached.
    pub step: EscalationStep,
    /// The side should lose the game (the arbiter confirms).
    pub proposed_loss: bool,
    /// Technical fouls of the side after this entry.
    pub technical_fouls: u32,
    /// Violations of the side after this entry.
    pub violations: u32,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
    /// For the arbiter, in Chinese.
    pub explanation_zh: String,
    /// For the arbiter, in English.
    pub explanation_en: String,
}

/// The fouls of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoulLedger {
    params: FoulParams,
    entries: Vec<(FoulKind, Color)>,
    technical: [u32; 2],
    violations: [u32; 2],
    presses: [u32; 2],
}

impl FoulLedger {
    /// An empty ledger.
    pub fn new(params: FoulParams) -> FoulLedger {
        FoulLedger {
            params,
            entries: Vec::new(),
            technical: [0; 2],
            violations: [0; 2],
            presses: [0; 2],
        }
    }

    /// Technical fouls of a side.
    pub fn technical_fouls(&self, side: Color) -> u32 {
        self.technical[side.index()]
    }

    /// Violations of a side.
    pub fn violations(&self, side: Color) -> u32 {
        self.violations[side.index()]
    }

    /// Hard-press offences of a side (reminders and warnings included).
    pub fn press_offences(&self, side: Color) -> u32 {
        self.presses[side.index()]
    }

    /// Recorded entries in order.
    pub fn entries(&self) -> &[(FoulKind, Color)] {
        &self.entries
    }

    /// Does a side's count already lose the game?
    pub fn loses(&self, side: Color) -> bool {
        let i = side.index();
        self.technical[i] >= self.params.technical_fouls_to_lose
            || self.violations[i] >= self.params.recording_violations_to_lose
            || self
                .entries
                .iter()
                .any(|&(k, s)| s == side && k == FoulKind::RefusedToCompleteRecord)
    }

    /// Removes entry `index` (the arbiter overrode it) and recounts.
    /// Returns false if there is no such entry.
    pub fn cancel(&mut self, index: usize) -> bool {
        if index >= self.entries.len() {
            return false;
        }
        let mut entries = std::mem::take(&mut self.entries);
        entries.remove(index);
        *self = FoulLedger::new(self.params);
        for (k, s) in entries {
            self.record(k, s);
        }
        true
    }

    /// Records a foul and says what it leads to.
    pub fn record(&mut self, kind: FoulKind, side: Color) -> Escalation {
        self.entries.push((kind, side));
        let i = side.index();
        let (sz, se) = (side.name_zh(), side.name_en());
        let mut rule_ids = Vec::new();
        let (step, zh, en) = match kind {
            FoulKind::Technical(_) | FoulKind::FalseLimitClaim => {
                self.technical[i] = self.technical[i].saturating_add(1);
                let n = self.technical[i];
                let (what_zh, what_en) = technical_words(kind, &mut rule_ids);
                rule_ids.push(RuleId::AXF_PLAY_5);
                (
                    EscalationStep::TechnicalFoul { count: n },
                    format!("{sz}{what_zh}，技术犯规第{n}次"),
                    format!("{se}: {what_en}, technical foul number {n}"),
                )
            }
            FoulKind::RecordingLapse => {
                self.violations[i] = self.violations[i].saturating_add(1);
                let n = self.violations[i];
                rule_ids.push(RuleId::AXF_REC_6);
                rule_ids.push(RuleId::AXF_REF_I);
                let m = self.params.missing_moves_per_violation;
                (
                    EscalationStep::Violation { count: n },
                    format!("{sz}记录漏记{m}着，违例第{n}次"),
                    format!("{se}: {m} moves missing from the score sheet, violation number {n}"),
                )
            }
            FoulKind::HardPress => self.hard_press(side, &mut rule_ids),
            FoulKind::RefusedToCompleteRecord => {
                rule_ids.push(RuleId::AXF_REC_7);
                (
                    EscalationStep::Loss,
                    format!("{sz}经裁判通知仍不补记着法"),
                    format!("{se} did not complete the score sheet after the arbiter's notice"),
                )
            }
        };
        let t = self.technical[i];
        let v = self.violations[i];
        let tech_loss = t >= self.params.technical_fouls_to_lose
            && matches!(kind, FoulKind::Technical(_) | FoulKind::FalseLimitClaim);
        let viol_loss = v >= self.params.recording_violations_to_lose
            && matches!(step, EscalationStep::Violation { .. });
        let proposed_loss = tech_loss || viol_loss || step == EscalationStep::Loss;
        let (zh, en) = if proposed_loss {
            let (why_zh, why_en) = if tech_loss {
                (
                    format!("同一局技术犯规{t}次，建议判负"),
                    format!("{t} technical fouls in one game: proposed loss"),
                )
            } else if viol_loss {
                if !rule_ids.contains(&RuleId::AXF_REC_6) {
                    rule_ids.push(RuleId::AXF_REC_6);
                }
                (
                    format!("同一局违例{v}次，建议判负"),
                    format!("{v} violations in one game: proposed loss"),
                )
            } else {
                ("建议判负".to_string(), "proposed loss".to_string())
            };
            (format!("{zh}；{why_zh}。"), format!("{en}; {why_en}."))
        } else {
            (format!("{zh}。"), format!("{en}."))
        };
        Escalation {
            side,
            kind,
            step,
            proposed_loss,
            technical_fouls: t,
            violations: v,
            rule_ids,
            explanation_zh: zh,
            explanation_en: en,
        }
    }

    /// A clock pressed too hard: a reminder, warnings, then violations.
    fn hard_press(
        &mut self,
        side: Color,
        rule_ids: &mut Vec<RuleId>,
    ) -> (EscalationStep, String, String) {
        let i = side.index();
        let (sz, se) = (side.name_zh(), side.name_en());
        self.presses[i] = self.presses[i].saturating_add(1);
        let p = self.presses[i];
        rule_ids.push(RuleId::AXF_CONDUCT_5);
        let free = self.params.press_offences_before_violation;
        if p <= free && p == 1 {
            (
                EscalationStep::Reminder,
                format!("{sz}按钟过重，第一次，给予提醒"),
                format!("{se} pressed the clock too hard (first time): a reminder"),
            )
        } else if p <= free {
            (
                EscalationStep::Warning,
                format!("{sz}按钟过重，第{p}次，给予警告"),
                format!("{se} pressed the clock too hard (time {p}): a warning"),
            )
        } else {
            self.violations[i] = self.violations[i].saturating_add(1);
            let n = self.violations[i];
            rule_ids.push(RuleId::AXF_REC_6);
            (
                EscalationStep::Violation { count: n },
                format!("{sz}按钟过重，第{p}次，判违例（违例第{n}次）"),
                format!(
                    "{se} pressed the clock too hard (time {p}): a violation (violation number {n})"
                ),
            )
        }
    }
}

/// What a technical foul is, in both languages, its rules added to
/// `rule_ids`.
fn technical_words(kind: FoulKind, rule_ids: &mut Vec<RuleId>) -> (&'static str, &'static str) {
    match kind {
        FoulKind::FalseLimitClaim => {
            rule_ids.push(RuleId::AXF_LIMIT_3);
            ("自然限着申报不实", "a false natural-limit claim")
        }
        FoulKind::Technical(TechnicalReason::TouchMove) => {
            rule_ids.push(RuleId::AXF_PLAY_2);
            ("摸子未能依规走子", "a touch-move obligation not met")
        }
        FoulKind::Technical(TechnicalReason::IllegalMove) => {
            rule_ids.push(RuleId::AXF_PLAY_4A);
            ("走错着（已纠正）", "an illegal move (corrected)")
        }
        FoulKind::Technical(TechnicalReason::RepeatedDrawOffer) => {
            rule_ids.push(RuleId::AXF_BAN_5);
            rule_ids.push(RuleId::AXF_REF_J);
            ("被拒后连续提和", "a draw offer repeated after a refusal")
        }
        FoulKind::Technical(TechnicalReason::Disturbing) => ("干扰对方", "disturbing the opponent"),
        _ => ("技术犯规", "a technical foul"),
    }
}

/// What attendance at the start (or at a resumption) leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttendanceOutcome {
    /// Both players are at the board.
    AllPresent,
    /// Someone is missing, the limit has not passed; decide at `decide_at_ms`.
    Waiting {
        /// When the limit passes (monotonic ms).
        decide_at_ms: u64,
    },
    /// One player forfeits the game.
    Forfeit(Color),
    /// Both players forfeit.
    BothForfeit,
}

/// An attendance ruling with rules and explanations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttendanceVerdict {
    /// The outcome.
    pub outcome: AttendanceOutcome,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
    /// For the arbiter, in Chinese.
    pub explanation_zh: String,
    /// For the arbiter, in English.
    pub explanation_en: String,
}

fn attendance(
    start_ms: u64,
    now_ms: u64,
    arrived_ms: [Option<u64>; 2],
    limit_ms: u64,
    rule: RuleId,
    what_zh: &str,
    what_en: &str,
) -> AttendanceVerdict {
    let deadline = start_ms.saturating_add(limit_ms);
    let late = |a: Option<u64>| match a {
        Some(t) => t > deadline,
        None => now_ms > deadline,
    };
    let on_time = |a: Option<u64>| matches!(a, Some(t) if t <= deadline);
    let lim = clock_text(limit_ms, ClockForm::Short);
    let [r, b] = arrived_ms;
    let (outcome, zh, en) = if on_time(r) && on_time(b) {
        (
            AttendanceOutcome::AllPresent,
            format!("双方均已到场（{what_zh}）。"),
            format!("Both players are at the board ({what_en})."),
        )
    } else if late(r) && late(b) {
        (
            AttendanceOutcome::BothForfeit,
            format!("{what_zh}逾时{lim}双方均未到场，判双方弃权。"),
            format!("Neither player was at the board {lim} after the {what_en}: both forfeit."),
        )
    } else if late(r) || late(b) {
        let absent = if late(r) { Color::Red } else { Color::Black };
        (
            AttendanceOutcome::Forfeit(absent),
            format!("{}{what_zh}逾时{lim}未到场，作弃权论。", absent.name_zh()),
            format!(
                "{} was not at the board {lim} after the {what_en}: forfeit.",
                absent.name_en()
            ),
        )
    } else {
        let missing: Vec<&str> = Color::ALL
            .into_iter()
            .filter(|c| !on_time(arrived_ms[c.index()]))
            .map(Color::name_en)
            .collect();
        (
            AttendanceOutcome::Waiting {
                decide_at_ms: deadline,
            },
            format!("尚有赛员未到，{lim}后仍未到者作弃权论。"),
            format!(
                "{} not yet at the board; forfeit if still absent {lim} after the {what_en}.",
                missing.join(" and ")
            ),
        )
    };
    AttendanceVerdict {
        outcome,
        rule_ids: vec![rule],
        explanation_zh: zh,
        explanation_en: en,
    }
}

/// No-show at the start (AXF-FORFEIT-1): `arrived_ms` is when Red and Black
/// sat down (`None`: not yet), `now_ms` the current time.
pub fn no_show(
    start_ms: u64,
    now_ms: u64,
    arrived_ms: [Option<u64>; 2],
    params: &FoulParams,
) -> AttendanceVerdict {
    attendance(
        start_ms,
        now_ms,
        arrived_ms,
        params.no_show_ms,
        RuleId::AXF_FORFEIT_1,
        "开赛后",
        "start",
    )
}

/// Lateness at the resumption of an adjourned game (AXF-REF-L).
pub fn late_resumption(
    resume_ms: u64,
    now_ms: u64,
    arrived_ms: [Option<u64>; 2],
    params: &FoulParams,
) -> AttendanceVerdict {
    attendance(
        resume_ms,
        now_ms,
        arrived_ms,
        params.adjournment_late_ms,
        RuleId::AXF_REF_L,
        "续赛时",
        "resumption",
    )
}

/// A draw offer that breaks the rules (AXF-REF-J).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{explanation_en}")]
pub struct DrawOfferError {
    /// The offer repeats one refused at the side's previous move: the
    /// arbiter may give a technical foul (AXF-BAN-5).
    pub proposed_technical_foul: bool,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
    /// For the arbiter, in Chinese.
    pub explanation_zh: String,
    /// For the arbiter, in English.
    pub explanation_en: String,
}

/// Draw offers of one game (AXF-REF-J): only right after one's own move,
/// never at two own moves in a row, not withdrawn; refused by a spoken no
/// or by the opponent's move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawOffers {
    /// Ply count at each side's last offer.
    last_offer: [Option<u32>; 2],
    /// The pending offer: who, at which ply count.
    pending: Option<(Color, u32)>,
}

impl DrawOffers {
    /// No offers yet.
    pub fn new() -> DrawOffers {
        DrawOffers::default()
    }

    /// The pending offer's side, if any.
    pub fn pending(&self) -> Option<Color> {
        self.pending.map(|(c, _)| c)
    }

    /// `side` offers a draw when `plies` plies have been played and
    /// `to_move` is to move.
    pub fn offer(&mut self, side: Color, plies: u32, to_move: Color) -> Result<(), DrawOfferError> {
        if to_move == side || plies == 0 {
            return Err(DrawOfferError {
                proposed_technical_foul: false,
                rule_ids: vec![RuleId::AXF_REF_J],
                explanation_zh: format!("{}提和须在己方走棋后提出。", side.name_zh()),
                explanation_en: format!(
                    "{} may offer a draw only right after its own move.",
                    side.name_en()
                ),
            });
        }
        if let Some(prev) = self.last_offer[side.index()] {
            if plies.saturating_sub(prev) <= 2 {
                return Err(DrawOfferError {
                    proposed_technical_foul: true,
                    rule_ids: vec![RuleId::AXF_REF_J, RuleId::AXF_BAN_5],
                    explanation_zh: format!(
                        "{}不得连续提和（上一着已提和被拒）；可判技术犯规。",
                        side.name_zh()
                    ),
                    explanation_en: format!(
                        "{} may not offer a draw at two moves in a row (the offer at its previous move was refused); a technical foul may be given.",
                        side.name_en()
                    ),
                });
            }
        }
        self.last_offer[side.index()] = Some(plies);
        self.pending = Some((side, plies));
        Ok(())
    }

    /// A ply was made: a pending offer by the other side is refused by it.
    pub fn on_move(&mut self, mover: Color) {
        if matches!(self.pending, Some((c, _)) if c != mover) {
            self.pending = None;
        }
    }

    /// The opponent says no.
    pub fn refuse(&mut self) {
        self.pending = None;
    }

    /// `side` accepts: true (a draw by agreement, AXF-G4) if the opponent's
    /// offer is pending.
    pub fn accept(&mut self, side: Color) -> bool {
        if matches!(self.pending, Some((c, _)) if c != side) {
            self.pending = None;
            true
        } else {
            false
        }
    }
}

/// What to do when reversed colours are noticed (AXF-PLAY-4B).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColoursReversedVerdict {
    /// Replay the game with the right colours (noticed in time).
    pub replay: bool,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
    /// For the arbiter, in Chinese.
    pub explanation_zh: String,
    /// For the arbiter, in English.
    pub explanation_en: String,
}

/// Colours reversed (先后走棋颠倒), noticed at `noticed_ms` in a game that
/// started at `start_ms`: within 20 minutes the game is replayed, later it
/// stands (AXF-PLAY-4B).
pub fn colours_reversed(
    start_ms: u64,
    noticed_ms: u64,
    params: &FoulParams,
) -> ColoursReversedVerdict {
    let limit = params.colours_reversed_replay_ms;
    let replay = noticed_ms.saturating_sub(start_ms) <= limit;
    let lim = clock_text(limit, ClockForm::Short);
    let (zh, en) = if replay {
        (
            format!("开赛后{lim}内发现先后颠倒，应重赛。"),
            format!("Colours reversed, noticed within {lim} of the start: replay the game."),
        )
    } else {
        (
            format!("开赛{lim}后才发现先后颠倒，不予处理，对局继续有效。"),
            format!("Colours reversed, noticed more than {lim} after the start: the game stands."),
        )
    };
    ColoursReversedVerdict {
        replay,
        rule_ids: vec![RuleId::AXF_PLAY_4B],
        explanation_zh: zh,
        explanation_en: en,
    }
}
