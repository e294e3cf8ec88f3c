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

use xiangqi::{Move, Position, Role, Square};

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
///
/// Made as a null move: the game core's `play_unchecked` of an empty square
/// onto itself moves nothing and only hands the move over (hash included);
/// the test `pass_is_the_fen_with_the_other_side` pins this down.
pub fn pass(pos: &Position) -> Option<Position> {
    if pos.is_check() {
        return None;
    }
    let empty = Square::all().find(|&s| pos.piece_at(s).is_none())?;
    let mut p = pos.clone();
    p.play_unchecked(Move {
        from: empty,
        to: empty,
    });
    Some(p)
}

/// [`pass`] through FEN text (slow; the reference for the tests).
#[cfg(test)]
fn pass_by_fen(pos: &Position) -> Option<Position> {
    if pos.is_check() {
        return None;
    }
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    fields[1] = match pos.turn() {
        xiangqi::Color::Red => "b",
        xiangqi::Color::Black => "w",
    };
    Position::from_fen(&fields.join(" ")).ok()
}

/// Protection of the piece on `target` against the capture `attacker`x`target`
/// by the side to move of `pos` (the capture must be legal in `pos`).
pub fn protection(pos: &Position, attacker: Square, target: Square) -> Protection {
    let defender = pos.turn().other();
    let mv = Move {
        from: attacker,
        to: target,
    };
    // The defender's pieces attacking the target once the capture is made:
    // those attacking it with the attacker's square emptied (the target
    // square stays occupied), found before making the capture. Only a
    // capturing king changes more (a king on the target square draws the
    // flying general): then they are read on the board after.
    let king_takes = pos.piece_at(attacker).is_some_and(|p| p.role == Role::King);
    let protectors = pos.attackers_iter_without(target, defender, attacker);
    if !king_takes && protectors.clone().next().is_none() {
        return Protection::None;
    }
    let mut after = pos.clone();
    let _undo = after.play_unchecked_quiet(mv);
    if king_takes {
        root(&after, after.attackers_iter(target, defender), target)
    } else {
        root(&after, protectors, target)
    }
}

/// The root of the piece on `target` after its capture (`after`), given the
/// pieces of its side attacking the square.
fn root(
    after: &Position,
    mut protectors: impl Iterator<Item = Square> + Clone,
    target: Square,
) -> Protection {
    // A legal recapture is a move of a piece that attacks the target square.
    if protectors
        .clone()
        .any(|from| after.is_legal(Move { from, to: target }))
    {
        Protection::TrueRoot
    } else if protectors.any(|sq| is_real_protector(after, sq, target)) {
        Protection::FalseRoot
    } else {
        Protection::None
    }
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

/// The pieces that would check the king of the piece on `sq` if it left the
/// board: what pins it (AXF-D14: a horse, D22: a cannon). A flying-general
/// pin gives the enemy king.
pub fn pinners(pos: &Position, sq: Square) -> Vec<(Square, Role)> {
    let Some(piece) = pos.piece_at(sq) else {
        return Vec::new();
    };
    if piece.role == Role::King {
        return Vec::new();
    }
    let them = piece.color.other();
    let attackers = pos.attackers_without(pos.king_square(piece.color), them, sq);
    let their_king = pos.king_square(them);
    // Kings facing once it is gone: pinned by the flying general.
    if attackers.contains(&their_king) {
        return vec![(their_king, Role::King)];
    }
    attackers
        .into_iter()
        .filter_map(|s| pos.piece_at(s).map(|x| (s, x.role)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Color;

    /// Writes a FEN of `pos` without the piece on `removed`, `turn` to move.
    fn fen_without(pos: &Position, removed: Square, turn: Color) -> String {
        let mut board = String::new();
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let piece = Square::new(file, rank)
                    .filter(|&s| s != removed)
                    .and_then(|s| pos.piece_at(s));
                match piece {
                    Some(p) => {
                        if empty > 0 {
                            board.push_str(&empty.to_string());
                            empty = 0;
                        }
                        board.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank > 0 {
                board.push('/');
            }
        }
        let side = if turn == Color::Red { 'w' } else { 'b' };
        format!("{board} {side} - - 0 1")
    }

    /// The former `pinners`: the position rebuilt from a FEN without the
    /// piece, its checkers; any refusal read as the kings facing.
    fn pinners_by_fen(
        pos: &Position,
        sq: Square,
    ) -> Result<Vec<(Square, Role)>, xiangqi::FenError> {
        let piece = pos.piece_at(sq).expect("a piece");
        let p = Position::from_fen(&fen_without(pos, sq, piece.color))?;
        Ok(p.checkers()
            .into_iter()
            .filter_map(|s| p.piece_at(s).map(|x| (s, x.role)))
            .collect())
    }

    /// The same pinners as rebuilding the position without the piece, on
    /// every non-king piece of the sample positions; where that position
    /// is refused, the kings face (pinned by the king) or the piece was
    /// screening a check on the other king (then it is not pinned by it).
    #[test]
    fn pinners_match_the_position_without_the_piece() {
        let mut facing = 0;
        // Kings on one file with one piece between: each pinned by the king.
        let facing_fens = [
            "3k5/9/9/9/9/9/9/3A5/9/3K5 w - - 0 1",
            "3k5/3n5/9/9/9/9/9/9/9/3K5 b - - 0 1",
        ];
        let extra = facing_fens.map(|f| Position::from_fen(f).unwrap());
        for pos in sample().into_iter().chain(extra) {
            for sq in Square::ALL {
                let Some(piece) = pos.piece_at(sq) else {
                    continue;
                };
                if piece.role == Role::King {
                    continue;
                }
                let got = pinners(&pos, sq);
                match pinners_by_fen(&pos, sq) {
                    Ok(want) => assert_eq!(got, want, "{} {sq:?}", pos.to_fen()),
                    Err(xiangqi::FenError::KingsFacing) => {
                        facing += 1;
                        let k = pos.king_square(piece.color.other());
                        assert_eq!(got, vec![(k, Role::King)], "{} {sq:?}", pos.to_fen());
                    }
                    Err(e) => assert!(
                        got.iter().all(|&(_, r)| r != Role::King),
                        "{e}: {} {sq:?} {got:?}",
                        pos.to_fen()
                    ),
                }
            }
        }
        assert!(facing > 0, "the sample has a flying-general pin");
    }

    /// A horse in front of its own rook, on the other king's file: taking
    /// it off would check the other king, which pins nothing of its own
    /// side (the former FEN rebuild refused that position and answered
    /// "pinned by the king").
    #[test]
    fn a_piece_screening_a_discovered_check_is_not_pinned() {
        let pos = Position::from_fen("4k4/9/9/9/9/9/4N4/9/4R4/3K5 w - - 0 1").unwrap();
        let horse = Square::new(4, 3).unwrap();
        assert!(matches!(
            pinners_by_fen(&pos, horse),
            Err(xiangqi::FenError::OpponentInCheck { .. })
        ));
        assert_eq!(pinners(&pos, horse), vec![]);
    }

    fn sample() -> Vec<Position> {
        let fens = [
            Position::START_FEN,
            "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 7",
            "4kab2/4a4/4bc3/prC2nR2/4N3p/4P4/P3C2cP/4B4/1r2A4/R3K1B2 b - - 13 39",
            "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1",
        ];
        let mut out = Vec::new();
        for fen in fens {
            let p = Position::from_fen(fen).unwrap();
            for &m in p.legal_moves().iter() {
                let mut q = p.clone();
                q.play_unchecked(m);
                out.push(q);
            }
            out.push(p);
        }
        out
    }

    #[test]
    fn pass_is_the_fen_with_the_other_side() {
        for p in sample() {
            let (a, b) = (pass(&p), pass_by_fen(&p));
            assert_eq!(a.is_some(), b.is_some(), "{p:?}");
            if let (Some(a), Some(b)) = (a, b) {
                assert_eq!(a.zobrist(), b.zobrist());
                assert_eq!(a.turn(), b.turn());
                assert_eq!(
                    a.pieces().collect::<Vec<_>>(),
                    b.pieces().collect::<Vec<_>>()
                );
                assert_eq!(a.legal_moves().to_vec(), b.legal_moves().to_vec());
                assert_eq!(a.halfmove_clock(), b.halfmove_clock());
            }
        }
    }

    /// The former `protection`: everything read on the board after the capture.
    fn protection_after(pos: &Position, attacker: Square, target: Square) -> Protection {
        let defender = pos.turn().other();
        let mut after = pos.clone();
        after.play_unchecked(Move {
            from: attacker,
            to: target,
        });
        let attackers = after.attackers(target, defender);
        if attackers
            .iter()
            .any(|&from| after.is_legal(Move { from, to: target }))
        {
            Protection::TrueRoot
        } else if attackers
            .iter()
            .any(|&sq| is_real_protector(&after, sq, target))
        {
            Protection::FalseRoot
        } else {
            Protection::None
        }
    }

    /// Protectors found before the capture give the same root as those
    /// read after it, on every capture of the samples (kings' ones too).
    #[test]
    fn protectors_before_the_capture_are_those_after() {
        let mut seen = [0; 3];
        let mut by_king = 0;
        let extra = [
            // A king capturing next to the other king's file, a false root.
            "3k5/9/9/9/9/9/9/9/3p5/4K4 w - - 0 1",
            "4k4/4r4/9/9/9/9/9/9/3pA4/4K4 w - - 0 1",
        ];
        let extra = extra.map(|f| Position::from_fen(f).unwrap());
        for p in sample().into_iter().chain(extra) {
            for &m in p.legal_moves().iter() {
                if p.piece_at(m.to).is_none() {
                    continue;
                }
                let got = protection(&p, m.from, m.to);
                assert_eq!(got, protection_after(&p, m.from, m.to), "{p:?} {m}");
                seen[got as usize] += 1;
                by_king += usize::from(p.piece_at(m.from).unwrap().role == Role::King);
            }
        }
        assert!(
            seen.iter().all(|&n| n > 0) && by_king > 0,
            "{seen:?} {by_king}"
        );
    }

    /// The recapture test agrees with scanning every legal move.
    #[test]
    fn recapture_is_a_legal_move_to_the_square() {
        for p in sample() {
            for &m in p.legal_moves().iter() {
                if p.piece_at(m.to).is_none() {
                    continue;
                }
                let mut after = p.clone();
                after.play_unchecked(m);
                let any = after.legal_moves().iter().any(|r| r.to == m.to);
                assert_eq!(protection(&p, m.from, m.to).protects(), any, "{p:?} {m}");
            }
        }
    }
}
