//! The two sides: Red (红, moves first, ranks 0-4) and Black (黑, ranks 5-9).

use std::fmt;

/// A side of the game. Red (红方) moves first and sits on ranks 0-4; Black (黑方) on ranks 5-9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red (红), upper case in FEN, moves first.
    Red = 0,
    /// Black (黑), lower case in FEN.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black (table index).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Is this Red?
    #[inline]
    pub const fn is_red(self) -> bool {
        matches!(self, Color::Red)
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}
