//! Conversions between the wire types and the game types of crates/xiangqi
//! (side ↔ colour, wire move ↔ game move: the `From`/`TryFrom` impls and
//! the functions naming them) and the side names used in messages.
//!
//! The protocol keeps its own small types ([`Side`], [`IccsMove`]) so that its
//! format only changes with its version; the server and the table terminal
//! convert at this one boundary. The message types themselves ([`crate::message`])
//! do not depend on the game crate.

use crate::{IccsMove, Side};
use std::ops::{Index, IndexMut};
use xiangqi::{ByColor, Color, Move, Square};

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::Red => Color::Red,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::Red => Side::Red,
            Color::Black => Side::Black,
        }
    }
}

impl<T> Index<Side> for ByColor<T> {
    type Output = T;

    fn index(&self, s: Side) -> &T {
        &self[Color::from(s)]
    }
}

impl<T> IndexMut<Side> for ByColor<T> {
    fn index_mut(&mut self, s: Side) -> &mut T {
        &mut self[Color::from(s)]
    }
}

/// A wire move with a square off the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("move {0:?} has a square off the board")]
pub struct OffBoard(pub IccsMove);

impl TryFrom<IccsMove> for Move {
    type Error = OffBoard;

    fn try_from(m: IccsMove) -> Result<Move, OffBoard> {
        let square = |i| Square::from_index(i).ok_or(OffBoard(m));
        if !m.is_valid() {
            return Err(OffBoard(m));
        }
        Ok(Move {
            from: square(m.from)?,
            to: square(m.to)?,
        })
    }
}

impl From<Move> for IccsMove {
    fn from(m: Move) -> IccsMove {
        IccsMove {
            from: m.from.index() as u8,
            to: m.to.index() as u8,
        }
    }
}

/// Wire side to game colour.
pub fn color(side: Side) -> Color {
    side.into()
}

/// Game colour to wire side.
pub fn side(color: Color) -> Side {
    color.into()
}

/// Wire move to game move; `None` when a square is off the board.
pub fn game_move(m: IccsMove) -> Option<Move> {
    Move::try_from(m).ok()
}

/// Game move to wire move.
pub fn wire_move(m: Move) -> IccsMove {
    m.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip() {
        let w = IccsMove::parse("h2e2").unwrap();
        let g = game_move(w).unwrap();
        assert_eq!(g.to_string(), "h2e2");
        assert_eq!(wire_move(g), w);
        for i in 0..crate::message::SQUARES {
            let from = Square::from_index(i).unwrap();
            let to = Square::from_index((i + 1) % crate::message::SQUARES).unwrap();
            assert_eq!(
                game_move(wire_move(Move { from, to })),
                Some(Move { from, to })
            );
        }
        assert!(game_move(IccsMove { from: 200, to: 1 }).is_none());
        assert!(game_move(IccsMove { from: 95, to: 1 }).is_none());
    }

    #[test]
    fn sides_round_trip() {
        for s in [Side::Red, Side::Black] {
            assert_eq!(side(color(s)), s);
        }
        assert_eq!(color(Side::Black), Color::Black);
        assert_eq!(Side::Red.name_en(), "Red");
        assert_eq!(Side::Black.name_zh(), "黑方");
    }
}
