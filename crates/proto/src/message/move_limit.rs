//! The declared move limit (限著) of the ROC rules on the wire: the
//! arbiter's declaration ([`MoveLimit`], carried by
//! `Command::DeclareMoveLimit`, `ControlToTable::MoveLimit` and the
//! `TableSession`) and where it stands ([`MoveLimitView`], in the
//! `TableView`). The hall counts it with crates/rulebook (`roc_limit.rs`);
//! the table terminal counts it the same way from its own moves.

use super::common::Side;
use bincode::{Decode, Encode};

/// A declared move limit: counted per player from `at_ply`.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveLimit {
    /// Plies played at the declaration (the count starts with the next ply).
    pub at_ply: u32,
    /// The player who asked for it (`None`: the arbiter on his own judgement).
    pub requested_by: Option<Side>,
    /// The limited side: the stronger one, which must win within the limit.
    pub limited: Side,
    /// A book draw 例和 (30 moves each instead of 40).
    pub book_draw: bool,
    /// Moves each player must make (40, or 30 in a book draw, from the
    /// hall's rule parameters).
    pub moves_each: u32,
    /// How many of the limited side's replies to check count (5).
    pub reply_cap: u32,
}

/// Where a declared limit stands, as the console shows it.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveLimitView {
    pub limit: MoveLimit,
    /// Moves Red still has to make.
    pub remaining_red: u32,
    /// Moves Black still has to make.
    pub remaining_black: u32,
    /// The limited side's replies to check struck from its count.
    pub struck: u32,
    /// A capture after the declaration, at this ply (plies played): the
    /// count stopped and the arbiter cancels, resets or keeps the limit.
    pub capture_at_ply: Option<u32>,
}

impl MoveLimitView {
    /// Moves `side` still has to make.
    pub fn remaining(&self, side: Side) -> u32 {
        match side {
            Side::Red => self.remaining_red,
            Side::Black => self.remaining_black,
        }
    }

    /// Both players made their moves and nothing stopped the count.
    pub fn full(&self) -> bool {
        self.capture_at_ply.is_none() && self.remaining_red == 0 && self.remaining_black == 0
    }
}
