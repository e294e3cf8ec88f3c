//! Rulings on claims (裁决): what the rulebook recommends and what the
//! arbiter decides.

use super::common::Side;
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
    pub explanation_zh: String,
    pub explanation_en: String,
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
