//! A move (着法): from one square to another. Displayed in ICCS coordinates (`h2e2`).

use crate::Square;
use std::fmt;

/// A move of one piece from `from` to `to` (captures are implied by the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Square the piece leaves.
    pub from: Square,
    /// Square the piece arrives on (capturing whatever stands there).
    pub to: Square,
}

impl Move {
    /// Builds a move.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}
