//! Checking moves (将军着法) and replies to check, for the threat searches
//! of `threat.rs` (杀, 要抽吃), which spend nearly all their time here.
//!
//! The lists are exactly those of the game core, in its order: the checking
//! moves are the legal moves (`Position::legal_moves`) that give check
//! (`Position::checking_moves` generates only those); the replies to check are
//! produced lazily, the king's steps first (the game core lists them first
//! too, by ascending square), so a search that finds an escape among them
//! never generates the rest (`Position::evasions`). The tests compare both
//! with the game core's full lists.

use xiangqi::{Evasions, KingSteps, Move, MoveList, Position};

/// The legal checking moves of the side to move, in the game core's order.
pub fn checking_moves(pos: &Position) -> MoveList {
    pos.checking_moves()
}

/// The legal replies to check other than the king's steps, in the game
/// core's order (`Position::evasions`); `None` when the side to move is not
/// in check.
pub fn evasions(pos: &Position) -> Option<MoveList> {
    pos.evasions()
}

/// Whether the side to move has no legal move (mated or stalemated — both a
/// loss, AXF-G2): `Position::has_legal_move` tries the king's steps, then
/// the other replies to check, and stops at the first legal move.
pub fn no_legal_move(pos: &Position) -> bool {
    !pos.has_legal_move()
}

/// The legal moves of the side to move in the game core's order, produced
/// lazily: the king's steps first, then (only if asked for more) the rest,
/// one at a time when in check (`Position::evasion_cursor`).
pub struct Replies {
    steps: KingSteps,
    rest: Rest,
}

/// The replies after the king's steps. The searches ask for replies only
/// to a check, so the list of every legal move (a position not in check)
/// is boxed: the cursor the searches use stays small to make and move.
enum Rest {
    /// Not looked at yet.
    Unstarted,
    /// In check: the other replies, one at a time.
    Evasions(Evasions),
    /// Not in check: every legal move, and how many were given out.
    Moves(Box<MoveList>, usize),
}

impl Replies {
    /// The replies of the side to move of `pos`.
    pub fn new(pos: &Position) -> Replies {
        Replies {
            steps: pos.king_step_cursor(),
            rest: Rest::Unstarted,
        }
    }

    /// The next legal reply in `pos` (the same position as given to `new`).
    pub fn next(&mut self, pos: &Position) -> Option<Move> {
        if let Some(m) = self.steps.next(pos) {
            return Some(m);
        }
        if let Rest::Unstarted = self.rest {
            self.rest = match pos.evasion_cursor() {
                Some(cursor) => Rest::Evasions(cursor),
                None => Rest::Moves(Box::new(pos.legal_moves()), 0),
            };
        }
        match &mut self.rest {
            Rest::Evasions(cursor) => cursor.next(pos),
            Rest::Moves(list, i) => {
                let k = pos.king_square(pos.turn());
                while let Some(&m) = list.get(*i) {
                    *i += 1;
                    if m.from != k {
                        return Some(m);
                    }
                }
                None
            }
            Rest::Unstarted => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 9] = [
        Position::START_FEN,
        "4k4/9/4P4/9/5C3/9/9/3ARA3/9/3K5 w - - 0 1",
        "2b1k4/9/4r4/7c1/2p3C2/9/9/9/4K1p2/9 w - - 0 1",
        "3k5/4c4/9/9/4R4/8c/9/9/4A4/4K4 w - - 0 1",
        "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
        "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    ];

    /// Positions reached by a few plies of every legal move from `FENS`.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for fen in FENS {
            let p = Position::from_fen(fen).unwrap();
            out.push(p.clone());
            for &m in p.legal_moves().iter() {
                let mut q = p.clone();
                q.play_unchecked(m);
                for &r in q.legal_moves().iter().take(6) {
                    let mut s = q.clone();
                    s.play_unchecked(r);
                    out.push(s);
                }
                out.push(q);
            }
        }
        out
    }

    /// `checking_moves` is the game core's list of checking moves in its order.
    #[test]
    fn checking_moves_are_exact() {
        let mut checks = 0;
        for p in positions() {
            let want: Vec<Move> = p
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| p.gives_check(m))
                .collect();
            assert_eq!(checking_moves(&p).to_vec(), want, "{p:?}");
            checks += want.len();
        }
        assert!(checks > 100, "the sample has checks ({checks})");
    }

    /// Lazy replies are the legal moves in the game core's order.
    #[test]
    fn replies_are_the_legal_moves_in_order() {
        let mut in_check = 0;
        for p in positions() {
            let mut r = Replies::new(&p);
            let mut got = Vec::new();
            while let Some(m) = r.next(&p) {
                got.push(m);
            }
            assert_eq!(got, p.legal_moves().to_vec(), "{p:?}");
            assert_eq!(no_legal_move(&p), got.is_empty());
            if let Some(e) = evasions(&p) {
                let k = p.king_square(p.turn());
                let want: Vec<Move> = got.iter().copied().filter(|m| m.from != k).collect();
                assert_eq!(e.to_vec(), want, "{p:?}");
            }
            in_check += p.is_check() as usize;
        }
        assert!(
            in_check > 20,
            "the sample has positions in check ({in_check})"
        );
    }
}
