//! A coloured piece (棋子) and its FEN letter.

use crate::{Color, Role};
use std::fmt;

/// A piece: a role of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// Builds a piece.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: `K A B N R C P` for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.role.upper_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The name printed on the piece (simplified glyphs): 帅/将, 仕/士,
    /// 相/象, 马, 车, 炮, 兵/卒.
    pub const fn name_zh(self) -> char {
        match (self.color, self.role) {
            (_, Role::Rook) => '车',
            (_, Role::Horse) => '马',
            (_, Role::Cannon) => '炮',
            (Color::Red, Role::King) => '帅',
            (Color::Black, Role::King) => '将',
            (Color::Red, Role::Advisor) => '仕',
            (Color::Black, Role::Advisor) => '士',
            (Color::Red, Role::Elephant) => '相',
            (Color::Black, Role::Elephant) => '象',
            (Color::Red, Role::Pawn) => '兵',
            (Color::Black, Role::Pawn) => '卒',
        }
    }

    /// Parses a FEN letter. Accepts `E` (elephant) and `H` (horse) as aliases of `B` and `N`.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else if c.is_ascii_lowercase() {
            Color::Black
        } else {
            return None;
        };
        let role = match c.to_ascii_uppercase() {
            'K' => Role::King,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Rook,
            'C' => Role::Cannon,
            'P' => Role::Pawn,
            _ => return None,
        };
        Some(Piece { color, role })
    }

    /// Dense index 0..14: colour * 7 + role (table index).
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.role.index()
    }

    /// Inverse of [`Piece::index`].
    #[inline]
    pub const fn from_index(i: usize) -> Option<Piece> {
        if i >= 14 {
            return None;
        }
        let color = if i < 7 { Color::Red } else { Color::Black };
        match Role::from_index(i % 7) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}
