//! How a game ends on the board: the side to move has no legal move.
//!
//! In Xiangqi both checkmate (将死) and stalemate (困毙, no legal move while not in
//! check) lose for the side to move.

use crate::Color;
use std::fmt;

/// Why the side to move lost on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// In check with no legal move (将死).
    Checkmate,
    /// Not in check but no legal move (困毙): also a loss in Xiangqi.
    Stalemate,
}

/// Result decided by the position alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won because the opponent (to move) had no legal move.
    Win {
        /// The side that delivered mate or stalemate.
        winner: Color,
        /// Checkmate or stalemate.
        reason: EndReason,
    },
}

impl Outcome {
    /// The winning side.
    pub fn winner(self) -> Color {
        match self {
            Outcome::Win { winner, .. } => winner,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let how = match reason {
                    EndReason::Checkmate => "checkmate",
                    EndReason::Stalemate => "stalemate",
                };
                write!(f, "{winner} wins by {how}")
            }
        }
    }
}
