//! Legal move generation (着法生成) and king-safety tests.
//!
//! Pseudo-legal targets come from the geometry tables of `attacks.rs`. A move is
//! legal when afterwards the mover's king is not attacked — which includes the
//! flying-general rule (对面笑), since a king "attacks" along an open file like a
//! rook. The test runs on the hypothetical occupancy, without making the move, and
//! is skipped for moves that cannot change the king's safety (neither square on the
//! king's rank or file, `from` not a horse-leg square of the king, not in check).

use crate::attacks::{
    bit, first_blocker, squares, Bb, ADVISOR_MOVES, ALL, DIAG_NEIGHBOURS, ELEPHANT_MOVES,
    HORSE_ATTACKERS, HORSE_ATTACK_SQUARES, HORSE_MOVES, KING_MOVES, LINES, NONE, PAWN_ATTACKERS,
    PAWN_MOVES, RAYS,
};
use crate::{Color, Move, MoveList, Piece, Position, Role, Square};

impl Position {
    /// Pseudo-legal target squares of `piece` standing on `from` (excluding own pieces).
    #[inline]
    pub(crate) fn targets(&self, piece: Piece, from: usize, occ: Bb, own: Bb) -> Bb {
        let t = match piece.role {
            Role::Rook => rook_targets(from, occ),
            Role::Cannon => cannon_targets(from, occ),
            Role::Horse => {
                let mut t = 0;
                for &(leg, m) in &HORSE_MOVES[from] {
                    if leg != NONE && occ & bit(leg as usize) == 0 {
                        t |= m;
                    }
                }
                t
            }
            Role::Elephant => {
                let mut t = 0;
                for &(eye, to) in &ELEPHANT_MOVES[from] {
                    if to != NONE && occ & bit(eye as usize) == 0 {
                        t |= bit(to as usize);
                    }
                }
                t
            }
            Role::Advisor => ADVISOR_MOVES[from],
            Role::King => KING_MOVES[from],
            Role::Pawn => PAWN_MOVES[piece.color.index()][from],
        };
        t & !own
    }

    /// Would the king of `us` on `ksq` be attacked with occupancy `occ`, ignoring the
    /// enemy pieces in `removed` (a square just captured on)? Includes kings facing.
    #[inline]
    pub(crate) fn king_in_danger(&self, us: Color, ksq: usize, occ: Bb, removed: Bb) -> bool {
        let b = &self.board;
        let them = us.other();
        let keep = !removed;
        if PAWN_ATTACKERS[them.index()][ksq] & b.pieces(them, Role::Pawn) & keep != 0 {
            return true;
        }
        let horses = b.pieces(them, Role::Horse) & keep & HORSE_ATTACK_SQUARES[ksq];
        if horses != 0 {
            for &(leg, m) in &HORSE_ATTACKERS[ksq] {
                if m & horses != 0 && leg != NONE && occ & bit(leg as usize) == 0 {
                    return true;
                }
            }
        }
        let sliders = (b.pieces(them, Role::Rook) | b.pieces(them, Role::King)) & keep;
        let cannons = b.pieces(them, Role::Cannon) & keep;
        if (sliders | cannons) & LINES[ksq] == 0 {
            return false;
        }
        for (d, rays) in RAYS.iter().enumerate() {
            let ray = rays[ksq];
            let bl = ray & occ;
            if bl == 0 || ray & (sliders | cannons) == 0 {
                continue;
            }
            let f = first_blocker(d, bl);
            if bit(f) & sliders != 0 {
                return true;
            }
            let beyond = RAYS[d][f];
            if beyond & cannons != 0 {
                let s = first_blocker(d, beyond & occ);
                if bit(s) & cannons != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Appends every legal move of the side to move.
    pub(crate) fn generate_legal(&self, list: &mut MoveList) {
        self.generate_into(list);
    }

    /// Number of legal moves, without listing them (perft's bulk count at depth 1).
    pub(crate) fn count_legal(&self) -> usize {
        let mut n = Counter(0);
        self.generate_into(&mut n);
        n.0
    }

    /// Whether the side to move has a legal move: the king's steps, the
    /// replies to check when in check, otherwise the generator's loops up to
    /// the first legal move (the same legality tests as `generate_into`).
    pub(crate) fn any_legal(&self) -> bool {
        if self.has_king_step() {
            return true;
        }
        if self.is_check() {
            return self.has_evasion();
        }
        let b = &self.board;
        let us = self.turn;
        let own = b.color(us);
        let occ = b.occupied();
        let ksq = b.king(us);
        let (risky_from, risky_to) = (LINES[ksq] | DIAG_NEIGHBOURS[ksq], LINES[ksq]);
        squares(own & !bit(ksq)).any(|from| {
            let Some(piece) = Piece::from_index((b.code(from) as usize).wrapping_sub(1)) else {
                return false;
            };
            let targets = self.targets(piece, from, occ, own);
            if bit(from) & risky_from == 0 && targets & !risky_to != 0 {
                return true;
            }
            let occ_from = occ & !bit(from);
            squares(targets).any(|to| !self.king_in_danger(us, ksq, occ_from | bit(to), bit(to)))
        })
    }

    fn generate_into<S: Sink>(&self, sink: &mut S) {
        let b = &self.board;
        let us = self.turn;
        let own = b.color(us);
        let occ = b.occupied();
        let ksq = b.king(us);
        let in_check = self.is_check();
        let (risky_from, risky_to) = if in_check {
            (ALL, ALL)
        } else {
            (LINES[ksq] | DIAG_NEIGHBOURS[ksq], LINES[ksq])
        };

        // King steps: always tested, the king itself moves.
        let kbb = bit(ksq);
        for to in squares(KING_MOVES[ksq] & !own) {
            if !self.king_in_danger(us, to, (occ ^ kbb) | bit(to), bit(to)) {
                sink.one(ksq, to);
            }
        }

        for from in squares(own & !kbb) {
            let code = b.code(from);
            let Some(piece) = Piece::from_index((code as usize).wrapping_sub(1)) else {
                continue;
            };
            let targets = self.targets(piece, from, occ, own);
            let (safe, test) = if bit(from) & risky_from == 0 {
                (targets & !risky_to, targets & risky_to)
            } else {
                (0, targets)
            };
            sink.all(from, safe);
            let occ_from = occ & !bit(from);
            for to in squares(test) {
                if !self.king_in_danger(us, ksq, occ_from | bit(to), bit(to)) {
                    sink.one(from, to);
                }
            }
        }
    }
}

/// Where generated moves go: a list, or just a count.
trait Sink {
    /// One legal move.
    fn one(&mut self, from: usize, to: usize);
    /// Legal moves from `from` to every square of `targets`.
    fn all(&mut self, from: usize, targets: Bb);
}

impl Sink for MoveList {
    #[inline(always)]
    fn one(&mut self, from: usize, to: usize) {
        let sq = Square::from_index_unchecked;
        self.push(Move::new(sq(from), sq(to)));
    }
    #[inline(always)]
    fn all(&mut self, from: usize, targets: Bb) {
        for to in squares(targets) {
            self.one(from, to);
        }
    }
}

/// Counts moves instead of listing them.
struct Counter(usize);

impl Sink for Counter {
    #[inline(always)]
    fn one(&mut self, _from: usize, _to: usize) {
        self.0 += 1;
    }
    #[inline(always)]
    fn all(&mut self, _from: usize, targets: Bb) {
        self.0 += targets.count_ones() as usize;
    }
}

/// Rook (车) targets: slides to the first blocker, included.
#[inline(always)]
pub(crate) fn rook_targets(from: usize, occ: Bb) -> Bb {
    slide_targets::<false>(from, occ)
}

/// Cannon (炮) targets: slides to empty squares; captures the second piece in a line
/// (jumping exactly one screen, 炮架).
#[inline(always)]
pub(crate) fn cannon_targets(from: usize, occ: Bb) -> Bb {
    slide_targets::<true>(from, occ)
}

/// Along the four lines from `from`: every square up to the first blocker; that
/// blocker is a target for a rook, a screen for a cannon (`CANNON`), which
/// captures the next piece beyond it instead. Monomorphised per piece, so each
/// is as tight as a hand-written loop.
#[inline(always)]
fn slide_targets<const CANNON: bool>(from: usize, occ: Bb) -> Bb {
    let mut t = 0;
    for (d, rays) in RAYS.iter().enumerate() {
        let ray = rays[from];
        let bl = ray & occ;
        if bl == 0 {
            t |= ray;
            continue;
        }
        let f = first_blocker(d, bl);
        // Up to and including the first blocker.
        let reach = ray & !RAYS[d][f];
        if CANNON {
            t |= reach & !bit(f);
            let bl2 = RAYS[d][f] & occ;
            if bl2 != 0 {
                t |= bit(first_blocker(d, bl2));
            }
        } else {
            t |= reach;
        }
    }
    t
}
