//! Rulings on claims (裁决): what the rulebook recommends and what the
//! arbiter decides.

use super::common::Side;
use super::text::Message;
use bincode::{Decode, Encode};

/// The outcome a ruling imposes on the game.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Play goes on (a claim rejected, or nothing to do); see `must_change`.
    Continue,
    /// The game is drawn.
    Draw,
    /// `side` loses the game.
    Loss { side: Side },
    /// `side`'s last move is taken back and replaced; one technical foul
    /// (AXF-PLAY-4A).
    CorrectMove { side: Side },
    /// The procedure at a repetition's third occurrence (变着令): with
    /// `must_change` that side is ordered to change (one more cycle loses),
    /// without it the arbiter announces that one more cycle is a draw. Play
    /// goes on; the order is sent to the table.
    Order,
}

/// A recommended ruling, citing its rule ids (e.g. `AXF-D1`).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    pub verdict: Verdict,
    /// The side that must change its moves (变着), if any.
    pub must_change: Option<Side>,
    pub rule_ids: Vec<String>,
    /// Why, as a catalogue message each client renders in its language
    /// (protocol 6; it was an `explanation_zh`/`explanation_en` pair).
    pub explanation: Message,
}

/// The penalty that goes with accepting a claim's recommended ruling: a
/// false natural-limit claim (AXF-LIMIT-3) costs the claimant a technical
/// foul and time off the clock (the rule set and the config say which).
/// An overridden ruling never carries it. Typed, so that every client
/// names it in its own words ("technical foul, 5:00 off").
///
/// The fields are in the order the hall's snapshots have stored them since
/// format version 1 (side, technical foul, deduction).
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClaimPenalty {
    /// The side penalised (the claimant).
    pub side: Side,
    /// Whether a technical foul is recorded.
    pub technical_foul: bool,
    /// Time taken off the side's clock (ms; 0: none).
    pub deduct_ms: u64,
}

/// The arbiter's decision on a pending claim.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Accept the recommended ruling.
    Accept,
    /// Rule otherwise, with a reason (audited).
    Override {
        verdict: Verdict,
        must_change: Option<Side>,
        reason: String,
    },
}

/// A ruling's effect in English, one name per effect: "play on, technical
/// foul, 5:00 off" (a penalty with it) and "play on, no penalty" are never
/// both "play on". The table terminal's words; the console's English table
/// says the same (its test compares them).
pub fn effect_en(
    verdict: Verdict,
    must_change: Option<Side>,
    penalty: Option<ClaimPenalty>,
) -> String {
    let base = match (verdict, must_change) {
        (Verdict::Continue, Some(side)) => format!("play on, {side} must change"),
        (Verdict::Continue, None) => "play on, no penalty".to_string(),
        (Verdict::Order, Some(side)) => format!("order: {side} must change"),
        (Verdict::Order, None) => "announce: one more cycle draws".to_string(),
        (Verdict::Draw, _) => "draw".to_string(),
        (Verdict::Loss { side }, _) => format!("{side} loses"),
        (Verdict::CorrectMove { side }, _) => {
            format!("{side} corrects the move (technical foul)")
        }
    };
    match penalty.and_then(ClaimPenalty::words_en) {
        None => base,
        Some(p) if (verdict, must_change) == (Verdict::Continue, None) => format!("play on, {p}"),
        Some(p) => format!("{base}, {p}"),
    }
}

impl ClaimPenalty {
    /// The penalty in English ("technical foul, 5:00 off"); `None` when
    /// it imposes nothing.
    pub fn words_en(self) -> Option<String> {
        let mut parts = Vec::new();
        if self.technical_foul {
            parts.push("technical foul".to_string());
        }
        if self.deduct_ms > 0 {
            let time = rulebook::clock_text(self.deduct_ms, rulebook::ClockForm::Short);
            parts.push(format!("{time} off"));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_effect_has_one_name() {
        let p = ClaimPenalty {
            side: Side::Red,
            technical_foul: true,
            deduct_ms: 300_000,
        };
        assert_eq!(
            effect_en(Verdict::Continue, None, Some(p)),
            "play on, technical foul, 5:00 off"
        );
        assert_eq!(
            effect_en(Verdict::Continue, None, None),
            "play on, no penalty"
        );
        let nothing = ClaimPenalty {
            technical_foul: false,
            deduct_ms: 0,
            ..p
        };
        assert_eq!(
            effect_en(Verdict::Continue, None, Some(nothing)),
            "play on, no penalty"
        );
        assert_eq!(
            effect_en(Verdict::Loss { side: Side::Black }, None, None),
            "Black loses"
        );
    }
}
