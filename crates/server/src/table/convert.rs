//! Conversions between the wire types (crates/proto) and the game and rule
//! types (crates/xiangqi, crates/rulebook). The protocol keeps its own small
//! types so that its format only changes with its version; the server
//! converts at this one boundary.

use proto::{IccsMove, Side, Verdict};
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

/// A repetition verdict of the rulebook as a wire verdict.
pub fn repetition_verdict(v: rulebook::ruling::Verdict) -> Verdict {
    match v {
        rulebook::ruling::Verdict::RedLoses => Verdict::Loss { side: Side::Red },
        rulebook::ruling::Verdict::BlackLoses => Verdict::Loss { side: Side::Black },
        rulebook::ruling::Verdict::Draw => Verdict::Draw,
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
        assert!(game_move(IccsMove { from: 200, to: 1 }).is_none());
    }
}
