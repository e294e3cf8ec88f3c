//! Threats judged with a small bounded search: mate threat (杀) and the
//! threat to win material by a check (要抽吃).
//!
//! AXF glossary (002 §1): a mate threat is a move that intends, on the next
//! move, to check or to check repeatedly so that the opponent cannot escape.
//! We look at the position after the move as if the opponent passed
//! (`protection::pass`) and search for a forced win made only of checks, at
//! most [`MATE_DEPTH`] checking moves deep (a checkmate or a stalemate — both
//! win in xiangqi, AXF-G2). A material threat (要抽吃, AXF-D8, D9, D33) is a
//! check after which, whatever the reply, the threatening side can win
//! material (capture an unprotected piece, or a piece worth more than the
//! capturer) — the "check, then take" pattern of 001 item 13.

use crate::protection::protection;
use crate::value::value;
use xiangqi::{Move, MoveList, Position, Role, Square};

/// Checking moves the mate search looks at, in a row, for the threatening side.
pub const MATE_DEPTH: u32 = 3;

/// Upper bound on positions visited by one threat search (keeps the cost small and predictable).
pub const NODE_BUDGET: u32 = 4000;

/// Result of a bounded search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Found.
    Yes,
    /// Proved absent within the bounds.
    No,
    /// The node budget ran out before an answer (treated as "no", noted for the arbiter).
    Unknown,
}

/// Whether a move from or to these squares could give check to a king on `k`:
/// every check runs along the king's rank or file (rook, cannon, its screens,
/// the pieces they uncover) or comes from within two squares (a horse, its
/// leg, a pawn). A cheap, sound filter before `gives_check`.
fn may_check(k: Square, from: Square, to: Square) -> bool {
    let near = |s: Square| s.file().abs_diff(k.file()) <= 2 && s.rank().abs_diff(k.rank()) <= 2;
    let line = |s: Square| s.file() == k.file() || s.rank() == k.rank();
    line(from) || line(to) || near(from) || near(to)
}

fn checks(pos: &Position) -> MoveList {
    let k = pos.king_square(pos.turn().other());
    let mut out = MoveList::new();
    for &m in pos.legal_moves().iter() {
        if may_check(k, m.from, m.to) && pos.gives_check(m) {
            out.push(m);
        }
    }
    out
}

/// Whether the side to move in `pos` wins by a series of at most `depth` checks.
pub fn mate_by_checks(pos: &Position, depth: u32) -> Search {
    let mut budget = NODE_BUDGET;
    let r = mate_search(pos, depth, &mut budget);
    match r {
        Some(true) => Search::Yes,
        Some(false) => Search::No,
        None => Search::Unknown,
    }
}

fn mate_search(pos: &Position, depth: u32, budget: &mut u32) -> Option<bool> {
    if depth == 0 {
        return Some(false);
    }
    let mut unknown = false;
    for &c in checks(pos).iter() {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut p = pos.clone();
        p.play_unchecked(c);
        let replies = p.legal_moves();
        if replies.is_empty() {
            return Some(true);
        }
        if depth == 1 {
            continue;
        }
        let mut all = true;
        for &r in replies.iter() {
            let mut q = p.clone();
            q.play_unchecked(r);
            match mate_search(&q, depth - 1, budget) {
                Some(true) => {}
                Some(false) => {
                    all = false;
                    break;
                }
                None => {
                    unknown = true;
                    all = false;
                    break;
                }
            }
        }
        if all {
            return Some(true);
        }
    }
    if unknown {
        None
    } else {
        Some(false)
    }
}

/// Whether the side to move can capture something that wins material now:
/// an unprotected non-king piece, or one worth more than the capturer.
pub fn can_win_material(pos: &Position) -> bool {
    let them = pos.turn().other();
    pos.legal_moves().iter().any(|m| {
        let (Some(a), Some(t)) = (pos.piece_at(m.from), pos.piece_at(m.to)) else {
            return false;
        };
        if t.color != them || t.role == Role::King {
            return false;
        }
        value(t, m.to) > value(a, m.from) || !protection(pos, m.from, m.to).protects()
    })
}

/// 要抽吃: the side to move has a check after which every reply leaves it a
/// capture that wins material. Returns the checking move.
pub fn material_threat(pos: &Position) -> Option<Move> {
    for &c in checks(pos).iter() {
        let mut p = pos.clone();
        p.play_unchecked(c);
        let replies = p.legal_moves();
        if replies.is_empty() {
            continue; // that is a mate, judged as 杀
        }
        let wins = replies.iter().all(|&r| {
            let mut q = p.clone();
            q.play_unchecked(r);
            can_win_material(&q)
        });
        if wins {
            return Some(c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filter never drops a checking move (all legal moves of the start
    /// position's first plies and of a few open positions).
    #[test]
    fn check_filter_is_sound() {
        let fens = [
            Position::START_FEN,
            "4k4/9/4P4/9/5C3/9/9/3ARA3/9/3K5 w - - 0 1",
            "2b1k4/9/4r4/7c1/2p3C2/9/9/9/4K1p2/9 w - - 0 1",
            "3k5/4c4/9/9/4R4/8c/9/9/4A4/4K4 w - - 0 1",
            "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let k = pos.king_square(pos.turn().other());
            for &m in pos.legal_moves().iter() {
                if pos.gives_check(m) {
                    assert!(may_check(k, m.from, m.to), "{fen} {m}");
                }
            }
        }
    }
}
