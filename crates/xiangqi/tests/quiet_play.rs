//! `Position::play_unchecked_quiet` (a move that cannot have given check
//! settles the next `is_check` without looking) against `play_unchecked`
//! and a fresh check test, for every legal move of positions reached by
//! random play.

use xiangqi::{Move, Position};

/// A small xorshift generator (the test must not depend on a crate for it).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn quiet_play_agrees_with_a_fresh_check_test() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut moves_tried, mut checks) = (0, 0);
    for _game in 0..30 {
        let mut pos = Position::new();
        for _ply in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in moves.iter() {
                let mut quiet = pos.clone();
                let undo = quiet.play_unchecked_quiet(m);
                let mut plain = pos.clone();
                let plain_undo = plain.play_unchecked(m);
                assert_eq!(quiet, plain, "{pos:?} {m}");
                assert_eq!(quiet.zobrist(), plain.zobrist());
                // A fresh position (no remembered answer) from the same FEN.
                let fresh = Position::from_fen(&plain.to_fen()).expect("a legal position");
                assert_eq!(quiet.is_check(), fresh.is_check(), "{pos:?} {m}");
                assert_eq!(quiet.legal_moves().to_vec(), fresh.legal_moves().to_vec());
                checks += usize::from(fresh.is_check());
                moves_tried += 1;
                quiet.unplay(m, undo);
                plain.unplay(m, plain_undo);
                assert_eq!(quiet, pos);
                assert_eq!(quiet.is_check(), pos.is_check());
            }
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.below(3) > 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_unchecked_quiet(m);
        }
    }
    assert!(
        moves_tried > 50_000 && checks > 1_000,
        "{moves_tried} moves, {checks} checks"
    );
}
