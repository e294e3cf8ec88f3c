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

pub mod checks;

use crate::protection::protection;
use crate::value::value;
use checks::{candidates, checking_moves, no_legal_move, Men, Replies};
use xiangqi::{Move, Position, Role};

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

/// Whether the side to move in `pos` wins by a series of at most `depth` checks.
pub fn mate_by_checks(pos: &Position, depth: u32) -> Search {
    let mut budget = NODE_BUDGET;
    let mut scratch = pos.clone();
    let mut men = Men::of(pos, pos.turn());
    match mate_search(&mut scratch, &mut men, depth, &mut budget) {
        Some(true) => Search::Yes,
        Some(false) => Search::No,
        None => Search::Unknown,
    }
}

/// The bounded AND-OR search; `pos` is played on and restored. Checks are
/// tried in the game core's order and the replies to each check lazily, king
/// steps first (`checks.rs`), so the budget is spent exactly as when every
/// list was generated in full.
fn mate_search(pos: &mut Position, men: &mut Men, depth: u32, budget: &mut u32) -> Option<bool> {
    if depth == 0 {
        return Some(false);
    }
    let mut unknown = false;
    // The checking moves in order (`checks::checking_moves_of`), each played once.
    for c in candidates(pos, men) {
        if !pos.is_legal(c) {
            continue;
        }
        let undo = pos.play_unchecked(c);
        if !pos.is_check() {
            pos.unplay(c, undo);
            continue;
        }
        if *budget == 0 {
            pos.unplay(c, undo);
            return None;
        }
        *budget -= 1;
        let token = men.moved(c);
        let found = if depth == 1 {
            // Only a check that leaves no reply counts at the last level.
            no_legal_move(pos)
        } else {
            match all_replies_lose(pos, men, depth - 1, budget) {
                Some(all) => all,
                None => {
                    unknown = true;
                    false
                }
            }
        };
        men.unmoved(token, c);
        pos.unplay(c, undo);
        if found {
            return Some(true);
        }
    }
    if unknown {
        None
    } else {
        Some(false)
    }
}

/// After a check: whether every reply (none is a loss too) still loses to a
/// series of at most `depth` checks. `None` when the budget ran out.
fn all_replies_lose(
    pos: &mut Position,
    men: &mut Men,
    depth: u32,
    budget: &mut u32,
) -> Option<bool> {
    let mut replies = Replies::new(pos);
    while let Some(r) = replies.next(pos) {
        let taken = men.captured(r.to);
        let undo = pos.play_unchecked(r);
        let result = mate_search(pos, men, depth, budget);
        pos.unplay(r, undo);
        men.restored(taken);
        match result {
            Some(true) => {}
            other => return other,
        }
    }
    Some(true)
}

/// Whether the side to move can capture something that wins material now:
/// an unprotected non-king piece, or one worth more than the capturer.
pub fn can_win_material(pos: &Position) -> bool {
    let us = pos.turn();
    // The legal captures: moves of the pieces attacking an opponent piece.
    pos.pieces()
        .filter(|(_, t)| t.color != us && t.role != Role::King)
        .any(|(to, t)| {
            pos.attackers_iter(to, us).any(|from| {
                let Some(a) = pos.piece_at(from) else {
                    return false;
                };
                pos.is_legal(Move { from, to })
                    && (value(t, to) > value(a, from) || !protection(pos, from, to).protects())
            })
        })
}

/// 要抽吃: the side to move has a check after which every reply leaves it a
/// capture that wins material. Returns the checking move.
pub fn material_threat(pos: &Position) -> Option<Move> {
    let mut scratch = pos.clone();
    let pos = &mut scratch;
    for &c in checking_moves(pos).iter() {
        let undo = pos.play_unchecked(c);
        let mut replies = Replies::new(pos);
        let mut any = false;
        let mut wins = true;
        while let Some(r) = replies.next(pos) {
            any = true;
            let u = pos.play_unchecked(r);
            let win = can_win_material(pos);
            pos.unplay(r, u);
            if !win {
                wins = false;
                break;
            }
        }
        pos.unplay(c, undo);
        // No reply at all is a mate, judged as 杀.
        if any && wins {
            return Some(c);
        }
    }
    None
}
