//! Protection (有根) judged for real, and the "pass" view of a position.
//!
//! A chase (捉) is judged in the position after the chaser's move, as if the
//! opponent passed: could the chaser then legally capture, and could the
//! opponent legally recapture? AXF glossary (002 §1): a piece is protected
//! (有根) when another piece can recapture; the root is true (真根) when the
//! protector really can recapture, false (假根) when it is pinned or otherwise
//! cannot (AXF-D29 treats a false root as no root). Legality of the recapture
//! is decided by the game core (`Position::legal_moves`), so pins, the flying
//! general and checks are all seen.

use xiangqi::{Color, Move, Position, Role, Square};

/// How the piece on a square is protected against one particular capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protection {
    /// No piece of its side attacks the square (无根).
    None,
    /// A protector attacks the square but cannot legally recapture (假根, AXF-D29).
    FalseRoot,
    /// A protector can legally recapture (真根).
    TrueRoot,
}

impl Protection {
    /// Only a true root protects (AXF-D29: a false root counts as none).
    pub fn protects(self) -> bool {
        self == Protection::TrueRoot
    }
}

/// The same placement with the other side to move — what the side that just
/// moved could do next if its opponent passed. `None` when the side to move is
/// in check (then the other side cannot be to move in a legal state).
pub fn pass(pos: &Position) -> Option<Position> {
    if pos.is_check() {
        return None;
    }
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return None;
    }
    fields[1] = match pos.turn() {
        Color::Red => "b",
        Color::Black => "w",
    };
    Position::from_fen(&fields.join(" ")).ok()
}

/// Protection of the piece on `target` against the capture `attacker`x`target`
/// by the side to move of `pos` (the capture must be legal in `pos`).
pub fn protection(pos: &Position, attacker: Square, target: Square) -> Protection {
    let defender = pos.turn().other();
    let mut after = pos.clone();
    let mv = Move {
        from: attacker,
        to: target,
    };
    let _undo = after.play_unchecked(mv);
    let recapture = after.legal_moves().iter().any(|m| m.to == target);
    let result = if recapture {
        Protection::TrueRoot
    } else if after
        .attackers(target, defender)
        .iter()
        .any(|&sq| is_real_protector(&after, sq, target))
    {
        Protection::FalseRoot
    } else {
        Protection::None
    };
    result
}

/// A king "attacking" along an open file (flying general) is not a root; every
/// other pseudo-legal attacker is.
fn is_real_protector(pos: &Position, from: Square, to: Square) -> bool {
    match pos.piece_at(from) {
        Some(p) if p.role == Role::King => {
            let df = from.file().abs_diff(to.file());
            let dr = from.rank().abs_diff(to.rank());
            df + dr == 1
        }
        Some(_) => true,
        None => false,
    }
}
