//! Conversions between the wire types and the game types of crates/xiangqi
//! (side ↔ colour, wire move ↔ game move) and the side names used in messages.
//!
//! The protocol keeps its own small types ([`Side`], [`IccsMove`]) so that its
//! format only changes with its version; the server and the table terminal
//! convert at this one boundary. The message types themselves ([`crate::message`])
//! do not depend on the game crate.

use crate::{IccsMove, Side};
use xiangqi::{Color, Move, Square};

/// Wire side to game colour.
pub fn color(side: Side) -> Color {
    match side {
        Side::Red => Color::Red,
        Side::Black => Color::Black,
    }
}

/// Game colour to wire side.
pub fn side(color: Color) -> Side {
    match color {
        Color::Red => Side::Red,
        Color::Black => Side::Black,
    }
}

/// Wire move to game move; `None` when a square is off the board.
pub fn game_move(m: IccsMove) -> Option<Move> {
    if !m.is_valid() {
        return None;
    }
    Some(Move {
        from: Square::from_index(m.from)?,
        to: Square::from_index(m.to)?,
    })
}

/// Game move to wire move.
pub fn wire_move(m: Move) -> IccsMove {
    IccsMove {
        from: m.from.index() as u8,
        to: m.to.index() as u8,
    }
}

/// "Red" / "Black".
pub fn side_en(s: Side) -> &'static str {
    match s {
        Side::Red => "Red",
        Side::Black => "Black",
    }
}

/// "红方" / "黑方".
pub fn side_zh(s: Side) -> &'static str {
    match s {
        Side::Red => "红方",
        Side::Black => "黑方",
    }
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
        assert_eq!(side_en(Side::Red), "Red");
        assert_eq!(side_zh(Side::Black), "黑方");
    }
}
