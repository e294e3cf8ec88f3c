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
use checks::{checking_moves, no_legal_move, Replies};
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
    mate_within(pos, depth, NODE_BUDGET)
}

/// [`mate_by_checks`] with a given node budget.
fn mate_within(pos: &Position, depth: u32, mut budget: u32) -> Search {
    let mut scratch = pos.clone();
    match mate_search(&mut scratch, depth, &mut budget) {
        Some(true) => Search::Yes,
        Some(false) => Search::No,
        None => Search::Unknown,
    }
}

/// The bounded AND-OR search; `pos` is played on and restored. Checks are
/// tried in the game core's order and the replies to each check lazily, king
/// steps first (`checks.rs`), so the budget is spent exactly as when every
/// list was generated in full.
fn mate_search(pos: &mut Position, depth: u32, budget: &mut u32) -> Option<bool> {
    if depth == 0 {
        return Some(false);
    }
    let mut unknown = false;
    for &c in checking_moves(pos).iter() {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let undo = pos.play_check(c);
        let found = if depth == 1 {
            // Only a check that leaves no reply counts at the last level.
            no_legal_move(pos)
        } else {
            match all_replies_lose(pos, depth - 1, budget) {
                Some(all) => all,
                None => {
                    unknown = true;
                    false
                }
            }
        };
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
fn all_replies_lose(pos: &mut Position, depth: u32, budget: &mut u32) -> Option<bool> {
    let mut replies = Replies::new(pos);
    while let Some(r) = replies.next(pos) {
        let undo = pos.play_unchecked(r);
        let result = mate_search(pos, depth, budget);
        pos.unplay(r, undo);
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
        let undo = pos.play_check(c);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The search as first written (full move lists, clones): the reference.
    fn reference(pos: &Position, depth: u32, budget: &mut u32) -> Option<bool> {
        if depth == 0 {
            return Some(false);
        }
        let checks: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| pos.gives_check(m))
            .collect();
        let mut unknown = false;
        for c in checks {
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
                match reference(&q, depth - 1, budget) {
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

    fn reference_search(pos: &Position, depth: u32, mut budget: u32) -> (Search, u32) {
        let r = match reference(pos, depth, &mut budget) {
            Some(true) => Search::Yes,
            Some(false) => Search::No,
            None => Search::Unknown,
        };
        (r, budget)
    }

    /// Open positions with checks, mates and counter-checks around, and the
    /// positions one ply later.
    fn sample() -> Vec<Position> {
        let fens = [
            "4kab2/4a4/4bc3/prC2nR2/4N3p/4P4/P3C2cP/4B4/1r2A4/R3K1B2 b - - 0 1",
            "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1",
            "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
            "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
            "3k5/4c4/9/9/4R4/8c/9/9/4A4/4K4 w - - 0 1",
            "2b1k4/9/4r4/7c1/2p3C2/9/9/9/4K1p2/9 w - - 0 1",
        ];
        let mut out = Vec::new();
        for fen in fens {
            let p = Position::from_fen(fen).unwrap();
            for &m in p.legal_moves().iter().step_by(3) {
                let mut q = p.clone();
                q.play_unchecked(m);
                if let Some(passed) = crate::protection::pass(&q) {
                    out.push(passed);
                }
            }
            out.push(p);
        }
        out
    }

    /// Same answers as the reference at depths 1-3 with the full budget, and
    /// with small budgets the same answer and the same budget left: the node
    /// budget is spent exactly as before.
    #[test]
    fn search_matches_the_reference_node_for_node() {
        let mut yes = 0;
        let mut unknown = 0;
        for p in sample() {
            for depth in 1..=MATE_DEPTH {
                let (want, _) = reference_search(&p, depth, NODE_BUDGET);
                assert_eq!(mate_by_checks(&p, depth), want, "{p:?} depth {depth}");
                yes += (want == Search::Yes) as usize;
            }
            for budget in [1, 2, 3, 5, 8, 13, 40] {
                let (want, _) = reference_search(&p, MATE_DEPTH, budget);
                assert_eq!(
                    mate_within(&p, MATE_DEPTH, budget),
                    want,
                    "{p:?} budget {budget}"
                );
                unknown += (want == Search::Unknown) as usize;
            }
        }
        assert!(
            yes > 5 && unknown > 5,
            "the sample has mates ({yes}) and cut searches ({unknown})"
        );
    }

    /// `can_win_material` and `material_threat` as first written (every legal move).
    fn reference_win(pos: &Position) -> bool {
        let them = pos.turn().other();
        pos.legal_moves().iter().any(|m| {
            let (Some(a), Some(t)) = (pos.piece_at(m.from), pos.piece_at(m.to)) else {
                return false;
            };
            t.color == them
                && t.role != Role::King
                && (value(t, m.to) > value(a, m.from) || !protection(pos, m.from, m.to).protects())
        })
    }

    fn reference_threat(pos: &Position) -> Option<Move> {
        for &c in pos.legal_moves().iter().filter(|&&m| pos.gives_check(m)) {
            let mut p = pos.clone();
            p.play_unchecked(c);
            let replies = p.legal_moves();
            if !replies.is_empty()
                && replies.iter().all(|&r| {
                    let mut q = p.clone();
                    q.play_unchecked(r);
                    reference_win(&q)
                })
            {
                return Some(c);
            }
        }
        None
    }

    #[test]
    fn material_threats_match_the_reference() {
        let (mut wins, mut threats) = (0, 0);
        for p in sample() {
            let want = reference_win(&p);
            assert_eq!(can_win_material(&p), want, "{p:?}");
            let t = reference_threat(&p);
            assert_eq!(material_threat(&p), t, "{p:?}");
            wins += want as usize;
            threats += t.is_some() as usize;
        }
        assert!(
            wins > 5 && threats > 0,
            "the sample has wins ({wins}) and threats ({threats})"
        );
    }
}
