//! A legal Xiangqi position (局面): board, side to move, counters and Zobrist hash.
//!
//! `Position` can only be built from a legal state (see `fen.rs` / `validate.rs`) and
//! every method that changes it keeps it legal, except `play_unchecked`, whose caller
//! promises the move is legal (as returned by `legal_moves`).

use crate::attacks::{
    between, bit, squares, Bb, ELEPHANT_MOVES, HORSE_ATTACKERS, HORSE_ATTACK_SQUARES, NONE,
};
use crate::attacks::{first_blocker, ADVISOR_MOVES, KING_MOVES, PAWN_ATTACKERS, RAYS};
use crate::attacks::{DIAG_NEIGHBOURS, ELEPHANT_REACH, LINES};
use crate::board::Board;
use crate::zobrist::{piece_key, BLACK_TO_MOVE};
use crate::{
    Color, EndReason, FenError, IllegalMove, IllegalReason, Move, MoveList, Outcome, Piece, Role,
    Square,
};
use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

/// A legal position. Invariants: exactly one king per side, each in its palace; every
/// piece on a square it can occupy; the side not to move is not in check (kings never
/// face each other on an open file).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) hash: u64,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    /// Is the side to move in check? Computed on first demand and remembered
    /// until the position changes (move legality, generation and searches ask
    /// for it again and again; playing a move does not pay for it).
    check: CheckCache,
}

/// A remembered answer to "is the side to move in check?": [`CheckCache::UNKNOWN`],
/// [`CheckCache::NO`] or [`CheckCache::YES`]. An atomic (relaxed loads and stores,
/// plain moves on common hardware) so that `Position` stays `Sync`. Being a
/// function of the rest of the position, it never makes two positions differ.
#[derive(Default)]
struct CheckCache(AtomicU8);

impl CheckCache {
    const UNKNOWN: u8 = 0;
    const NO: u8 = 1;
    const YES: u8 = 2;

    #[inline(always)]
    fn get(&self) -> u8 {
        self.0.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn set(&self, v: u8) {
        self.0.store(v, Ordering::Relaxed)
    }
}

impl Clone for CheckCache {
    #[inline(always)]
    fn clone(&self) -> Self {
        CheckCache(AtomicU8::new(self.get()))
    }
}

impl PartialEq for CheckCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for CheckCache {}

/// What `play_unchecked` needs to take a move back with `unplay`. Opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    halfmove: u32,
    hash: u64,
    check: u8,
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?})", self.to_fen())
    }
}

impl Position {
    /// FEN of the initial position.
    pub const START_FEN: &'static str =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    /// The initial position.
    pub fn new() -> Position {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Horse,
            Role::Elephant,
            Role::Advisor,
            Role::King,
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Rook,
        ];
        for c in Color::ALL {
            let rank = |r: usize| if c.is_red() { r } else { 9 - r };
            for (f, role) in back.iter().enumerate() {
                board.put(Piece::new(c, *role).index(), rank(0) * 9 + f);
            }
            for f in [1, 7] {
                board.put(Piece::new(c, Role::Cannon).index(), rank(2) * 9 + f);
            }
            for f in [0, 2, 4, 6, 8] {
                board.put(Piece::new(c, Role::Pawn).index(), rank(3) * 9 + f);
            }
        }
        Position::from_board_unvalidated(board, Color::Red, 0, 1)
    }

    /// Builds a position without validating it (crate-internal; callers validate).
    pub(crate) fn from_board_unvalidated(
        board: Board,
        turn: Color,
        halfmove: u32,
        fullmove: u32,
    ) -> Position {
        // The hash of `compute_hash`, summed over the piece sets (a few
        // dozen pieces) rather than the 90 squares.
        let mut hash = if turn == Color::Black {
            BLACK_TO_MOVE
        } else {
            0
        };
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece::new(color, role).index();
                for sq in squares(board.pieces(color, role)) {
                    hash ^= piece_key(p, sq);
                }
            }
        }
        let pos = Position {
            board,
            turn,
            hash,
            halfmove,
            fullmove,
            check: CheckCache::default(),
        };
        debug_assert_eq!(pos.hash, pos.compute_hash());
        pos
    }

    /// Hash from scratch (the incremental one must always equal this).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, p) in self.board.iter() {
            h ^= piece_key(p.index(), sq.index());
        }
        if self.turn == Color::Black {
            h ^= BLACK_TO_MOVE;
        }
        h
    }

    /// Parses a standard Xiangqi FEN (Red upper case; side `w`/`r` Red, `b` Black;
    /// missing trailing fields default to `- - 0 1`). Rejects illegal positions.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        crate::fen::parse(fen)
    }

    /// FEN of the position (side written `w` for Red, `b` for Black).
    pub fn to_fen(&self) -> String {
        crate::fen::write(self)
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq.index())
    }

    /// All pieces with their squares, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.board.iter()
    }

    /// Square of a side's king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_index_unchecked(self.board.king(color))
    }

    /// Zobrist hash of placement and side to move (not the counters).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture (FEN field 5).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Move number, starting at 1 and incremented after each Black move (FEN field 6).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Is the move legal here? (Same answer as `check_move(m).is_ok()`, faster:
    /// no error value, and no king-safety test for a move that cannot change it.)
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let code = self.board.code(from);
        let Some(piece) = Piece::from_index((code as usize).wrapping_sub(1)) else {
            return false;
        };
        let us = self.turn;
        if piece.color != us {
            return false;
        }
        let own = self.board.color(us);
        if own & bit(to) != 0 {
            return false;
        }
        let occ = self.board.occupied();
        self.can_reach(piece, from, to, occ, own) && self.keeps_king_safe(piece, from, to, occ)
    }

    /// Can `piece` on `from` move to `to` (not an own piece) by its movement rule?
    #[inline]
    fn can_reach(&self, piece: Piece, from: usize, to: usize, occ: Bb, own: Bb) -> bool {
        match piece.role {
            Role::Rook | Role::Cannon => {
                if LINES[from] & bit(to) == 0 {
                    return false;
                }
                let screens = (between(from, to) & occ).count_ones();
                if piece.role == Role::Rook || occ & bit(to) == 0 {
                    screens == 0
                } else {
                    screens == 1
                }
            }
            _ => self.targets(piece, from, occ, own) & bit(to) != 0,
        }
    }

    /// After the pseudo-legal move `from`-`to` of `piece` (of the side to move), is
    /// its king safe? Skips the test, as move generation does, when the move cannot
    /// make an unattacked king attacked (not a king move, `from` neither on the king's
    /// lines nor a horse leg of it, `to` not on the king's lines) when not in check
    /// now (remembered for the next question). In check, such a move may still
    /// parry it (taking a checking horse), so it is tested.
    #[inline]
    fn keeps_king_safe(&self, piece: Piece, from: usize, to: usize, occ: Bb) -> bool {
        let us = self.turn;
        let occ_after = (occ & !bit(from)) | bit(to);
        if piece.role == Role::King {
            return !self.king_in_danger(us, to, occ_after, bit(to));
        }
        let ksq = self.board.king(us);
        if bit(from) & (LINES[ksq] | DIAG_NEIGHBOURS[ksq]) == 0
            && bit(to) & LINES[ksq] == 0
            && !self.is_check()
        {
            // Safe now, and the move can only block or capture: safe afterwards.
            return true;
        }
        !self.king_in_danger(us, ksq, occ_after, bit(to))
    }

    /// `Ok` if the move is legal, otherwise the rule it breaks.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let err = |reason| Err(IllegalMove { mv: m, reason });
        let (from, to) = (m.from.index(), m.to.index());
        let Some(piece) = self.board.piece_at(from) else {
            return err(IllegalReason::EmptySquare);
        };
        let us = self.turn;
        if piece.color != us {
            return err(IllegalReason::NotYourPiece);
        }
        let own = self.board.color(us);
        if own & bit(to) != 0 {
            return err(IllegalReason::OwnPieceOnTarget);
        }
        let occ = self.board.occupied();
        if !self.can_reach(piece, from, to, occ, own) {
            return err(IllegalReason::PieceCannotMoveThere);
        }
        if !self.keeps_king_safe(piece, from, to, occ) {
            let ksq = if piece.role == Role::King {
                to
            } else {
                self.board.king(us)
            };
            let occ_after = (occ & !bit(from)) | bit(to);
            let theirs = self.board.king(us.other());
            let facing = ksq % 9 == theirs % 9 && between(ksq, theirs) & occ_after == 0;
            return err(if facing {
                IllegalReason::KingsFacing
            } else {
                IllegalReason::LeavesKingInCheck
            });
        }
        Ok(())
    }

    /// Plays a move after checking it; returns the captured piece.
    pub fn play(&mut self, m: Move) -> Result<Option<Piece>, IllegalMove> {
        self.check_move(m)?;
        let captured = self.board.piece_at(m.to.index());
        self.play_unchecked(m);
        Ok(captured)
    }

    /// Plays a move the caller guarantees to be legal (e.g. from `legal_moves`).
    /// An illegal move may break the position's invariants but never panics.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from.index(), m.to.index());
        let code = self.board.code(from);
        let captured = self.board.code(to);
        let undo = Undo {
            captured,
            halfmove: self.halfmove,
            hash: self.hash,
            check: self.check.get(),
        };
        if code != 0 {
            let p = code as usize - 1;
            if captured != 0 {
                let c = captured as usize - 1;
                self.board.take_off(c, to);
                self.hash ^= piece_key(c, to);
                self.halfmove = 0;
            } else {
                self.halfmove = self.halfmove.saturating_add(1);
            }
            self.board.shift(p, from, to);
            self.hash ^= piece_key(p, from) ^ piece_key(p, to);
        }
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.hash ^= BLACK_TO_MOVE;
        self.check.set(CheckCache::UNKNOWN);
        undo
    }

    /// [`Position::play_unchecked`] for a move known to give check (one of
    /// [`Position::checking_moves`]): the check is remembered, not looked for
    /// again by the next [`Position::is_check`].
    #[inline]
    pub fn play_check(&mut self, m: Move) -> Undo {
        let undo = self.play_unchecked(m);
        let us = self.turn;
        debug_assert!(self.king_in_danger(us, self.board.king(us), self.board.occupied(), 0));
        self.check.set(CheckCache::YES);
        undo
    }

    /// Takes back `m`, which must be the last move played with `play_unchecked`.
    #[inline]
    pub fn unplay(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from.index(), m.to.index());
        self.turn = self.turn.other();
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_sub(1);
        }
        let code = self.board.code(to);
        if code != 0 && self.board.code(from) == 0 {
            let p = code as usize - 1;
            self.board.shift(p, to, from);
            if undo.captured != 0 {
                self.board.put(undo.captured as usize - 1, to);
            }
        }
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        self.check.set(undo.check);
    }

    /// Is the side to move in check?
    #[inline]
    pub fn is_check(&self) -> bool {
        match self.check.get() {
            CheckCache::NO => false,
            CheckCache::YES => true,
            _ => {
                let us = self.turn;
                let check = self.king_in_danger(us, self.board.king(us), self.board.occupied(), 0);
                self.check.set(if check {
                    CheckCache::YES
                } else {
                    CheckCache::NO
                });
                check
            }
        }
    }

    /// Enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Vec<Square> {
        self.attackers(self.king_square(self.turn), self.turn.other())
    }

    /// Does the legal move `m` give check to the opponent?
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(m);
        after.is_check()
    }

    /// Checkmated (将死): in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Stalemated (困毙): not in check, no legal move. A loss in Xiangqi.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// `Some` when the side to move has no legal move (and so has lost).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        let reason = if self.is_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        };
        Some(Outcome::Win {
            winner: self.turn.other(),
            reason,
        })
    }

    /// Does the side to move have at least one legal move?
    pub fn has_legal_move(&self) -> bool {
        self.any_legal()
    }

    /// [`Position::play_unchecked`] that also answers the next
    /// [`Position::is_check`] when the move cannot have given check, so that
    /// it is not looked for (replaying a game: every `is_legal` asks it).
    /// The opponent was not in check before the move (the side not to move
    /// never is), and a move changes the attacks on its king only through
    /// `from` (a line or a horse leg opened: `from` on the king's rank or
    /// file or a diagonal neighbour), through `to` (a new screen or piece on
    /// the king's rank or file) or by the moved piece itself, which attacks
    /// from off those lines only as a horse a horse's step away. Any other
    /// move leaves the opponent out of check; for these the question stays
    /// open, as after `play_unchecked`.
    #[inline]
    pub fn play_unchecked_quiet(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from.index(), m.to.index());
        let horse =
            self.board.code(from) as usize == Piece::new(self.turn, Role::Horse).index() + 1;
        let undo = self.play_unchecked(m);
        let k = self.board.king(self.turn);
        if bit(from) & (LINES[k] | DIAG_NEIGHBOURS[k]) == 0
            && bit(to) & LINES[k] == 0
            && !(horse && HORSE_ATTACK_SQUARES[k] & bit(to) != 0)
        {
            self.check.set(CheckCache::NO);
        }
        undo
    }

    /// Squares of `by`'s pieces that could move to `target` by their movement rule
    /// right now. An occupied target is treated as a capture whoever stands there (so
    /// pieces guarding one of `by`'s own pieces count too; a cannon needs exactly one
    /// screen); an empty target as a plain move (a cannon needs a clear line).
    /// Pseudo-legal: ignores pins and own-king safety. A king attacks the opposing
    /// king's square along an open file (flying general, 飞将).
    pub fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        let mut out: Vec<Square> = squares(self.attackers_bb(target.index(), by))
            .map(Square::from_index_unchecked)
            .collect();
        out.sort();
        out
    }

    /// Like [`Position::attackers`], without allocating (squares in index order).
    pub fn attackers_iter(
        &self,
        target: Square,
        by: Color,
    ) -> impl Iterator<Item = Square> + Clone {
        square_iter(self.attackers_bb(target.index(), by))
    }

    /// Could any piece of `by` move to `target` by its movement rule right now?
    /// (Same meaning as [`Position::attackers`] being non-empty.)
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        self.attackers_bb(target.index(), by) != 0
    }

    /// [`Position::attackers`] as if the piece on `gone` were not on the
    /// board (what would attack `target` once it left: the pieces that pin
    /// it, when `target` is its king). Squares sorted.
    pub fn attackers_without(&self, target: Square, by: Color, gone: Square) -> Vec<Square> {
        let t = target.index();
        squares(self.attackers_bb_in(t, by, !bit(gone.index())))
            .map(Square::from_index_unchecked)
            .collect()
    }

    /// [`Position::attackers_without`] without allocating (squares in index order).
    pub fn attackers_iter_without(
        &self,
        target: Square,
        by: Color,
        gone: Square,
    ) -> impl Iterator<Item = Square> + Clone {
        square_iter(self.attackers_bb_in(target.index(), by, !bit(gone.index())))
    }

    #[inline]
    pub(crate) fn attackers_bb(&self, t: usize, by: Color) -> Bb {
        self.attackers_bb_in(t, by, !0)
    }

    /// The attackers of `t` by `by` on the board restricted to `keep` (the
    /// squares of pieces taken off are cleared from it).
    #[inline]
    fn attackers_bb_in(&self, t: usize, by: Color, keep: Bb) -> Bb {
        let b = &self.board;
        let occ = b.occupied() & keep;
        let pieces = |c: Color, r: Role| b.pieces(c, r) & keep;
        let rooks = pieces(by, Role::Rook);
        let cannons = pieces(by, Role::Cannon);
        let king = pieces(by, Role::King);
        let enemy_king_here = pieces(by.other(), Role::King) & bit(t) != 0;
        let target_occupied = occ & bit(t) != 0;
        let mut res = 0;
        // What the rays can find: rooks, cannons, and the king only on the
        // other king's square (flying general).
        let sliders = rooks | cannons | if enemy_king_here { king } else { 0 };
        // None on the square's rank or file: no ray to follow.
        let rays = if sliders & LINES[t] == 0 {
            &[]
        } else {
            &RAYS[..]
        };
        for (d, rays) in rays.iter().enumerate() {
            let ray = rays[t];
            let bl = ray & occ;
            // Nothing to find on this side.
            if bl == 0 || ray & sliders == 0 {
                continue;
            }
            let f = first_blocker(d, bl);
            if bit(f) & rooks != 0 {
                res |= bit(f);
            }
            if d % 2 == 0 && enemy_king_here && bit(f) & king != 0 {
                res |= bit(f);
            }
            if !target_occupied {
                // A cannon moves to an empty square like a rook.
                res |= bit(f) & cannons;
                continue;
            }
            let bl2 = RAYS[d][f] & occ;
            if bl2 != 0 {
                let s = first_blocker(d, bl2);
                if bit(s) & cannons != 0 {
                    res |= bit(s);
                }
            }
        }
        let horses = pieces(by, Role::Horse) & HORSE_ATTACK_SQUARES[t];
        if horses != 0 {
            for &(leg, m) in &HORSE_ATTACKERS[t] {
                if leg != NONE && occ & bit(leg as usize) == 0 {
                    res |= m & horses;
                }
            }
        }
        // An elephant step is reversible: the elephants that may reach `t`
        // stand on the squares reached from it.
        let elephants = pieces(by, Role::Elephant) & ELEPHANT_REACH[t];
        if elephants != 0 {
            for &(eye, e) in &ELEPHANT_MOVES[t] {
                if e != NONE && occ & bit(eye as usize) == 0 {
                    res |= bit(e as usize) & elephants;
                }
            }
        }
        res |= ADVISOR_MOVES[t] & pieces(by, Role::Advisor);
        res |= KING_MOVES[t] & king;
        res |= PAWN_ATTACKERS[by.index()][t] & pieces(by, Role::Pawn);
        res
    }
}

/// The squares of a set in index order, as a cloneable iterator.
fn square_iter(set: Bb) -> impl Iterator<Item = Square> + Clone {
    let mut set = set;
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(Square::from_index_unchecked(sq))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        let a: Square = s[0..2].parse().unwrap();
        let b: Square = s[2..4].parse().unwrap();
        Move::new(a, b)
    }

    fn reason(fen: &str, m: &str) -> Result<(), IllegalReason> {
        Position::from_fen(fen)
            .unwrap()
            .check_move(mv(m))
            .map_err(|e| e.reason)
    }

    #[test]
    fn every_illegal_reason() {
        let s = Position::START_FEN;
        assert_eq!(reason(s, "e4e5"), Err(IllegalReason::EmptySquare));
        assert_eq!(reason(s, "e6e5"), Err(IllegalReason::NotYourPiece));
        assert_eq!(reason(s, "a0b0"), Err(IllegalReason::OwnPieceOnTarget));
        assert_eq!(reason(s, "b0b1"), Err(IllegalReason::PieceCannotMoveThere));
        assert_eq!(reason(s, "e0e2"), Err(IllegalReason::PieceCannotMoveThere));
        assert_eq!(reason(s, "c0d1"), Err(IllegalReason::PieceCannotMoveThere));
        // Cannon: captures over exactly one screen, not without one.
        assert_eq!(reason(s, "h2h9"), Ok(()));
        assert_eq!(reason(s, "b2b7"), Err(IllegalReason::PieceCannotMoveThere));
        assert_eq!(reason(s, "h2h6"), Ok(()));
        // Pawns: no sideways move before crossing the river.
        assert_eq!(reason(s, "a3a4"), Ok(()));
        assert_eq!(reason(s, "a3b3"), Err(IllegalReason::PieceCannotMoveThere));
        // Pinned rook: red rook e1 between red king e0 and black rook e2.
        let pin = "3k5/9/9/9/9/9/9/4r4/4R4/4K4 w - - 0 1";
        assert_eq!(reason(pin, "e1d1"), Err(IllegalReason::LeavesKingInCheck));
        assert_eq!(reason(pin, "e1e2"), Ok(()));
        // In check by a rook, a move elsewhere does not help.
        let chk = "3k5/9/9/9/9/9/9/4r4/9/3AK4 w - - 0 1";
        assert_eq!(
            reason(chk, "d0d1"),
            Err(IllegalReason::PieceCannotMoveThere)
        );
        assert_eq!(reason(chk, "d0e1"), Ok(()));
        assert_eq!(reason(chk, "e0f0"), Ok(()));
        let chk2 = "3k5/9/9/9/9/9/9/4r4/9/R3K4 w - - 0 1";
        assert_eq!(reason(chk2, "a0a5"), Err(IllegalReason::LeavesKingInCheck));
        // Flying general: the only piece between the kings may not leave the file,
        // and a king may not step onto the other king's open file.
        let fly = "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
        assert_eq!(reason(fly, "e1d2"), Err(IllegalReason::KingsFacing));
        let fly2 = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(reason(fly2, "e0d0"), Err(IllegalReason::KingsFacing));
        assert_eq!(reason(fly2, "e0e1"), Ok(()));
    }
}
