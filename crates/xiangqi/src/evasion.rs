//! Replies to check (应将) other than the king's steps, produced one at a
//! time: the rulebook's threat searches try the replies to a check in the
//! order of [`Position::legal_moves`] and stop at the first one that
//! escapes, so a list of every reply is mostly wasted work.
//!
//! A reply to check that is not a king step captures a checker, lands
//! between a rook, cannon or king checker and the king or on a checking
//! horse's leg, or moves a screen of a checking cannon; only such moves are
//! tested for legality (with two checkers the legality test rules out what
//! parries one only). The tests of `checking.rs` compare the replies with the
//! full generator.

use crate::attacks::{
    between, bit, first_blocker, squares, Bb, ALL, HORSE_ATTACKERS, HORSE_ATTACK_SQUARES,
    KING_MOVES, NONE, PAWN_ATTACKERS, RAYS,
};
use crate::checking::reach;
use crate::{Move, MoveList, Piece, Position, Role, Square};

/// The legal replies to check other than king steps of one position, in the
/// order of [`Position::legal_moves`], produced by [`Evasions::next`]; made
/// by [`Position::evasion_cursor`]. It holds no borrow: the position may be
/// played on between two calls, as long as it is restored before the next.
#[derive(Clone, Debug)]
pub struct Evasions {
    /// Where a reply must land (a checker, a line to block, a horse leg).
    to_mask: Bb,
    /// Our screens of a checking cannon, which may go anywhere off the line.
    screens: Bb,
    /// Our pieces not looked at yet.
    froms: Bb,
    /// The piece being looked at, and its targets not tried yet.
    from: usize,
    targets: Bb,
}

impl Evasions {
    /// The next legal reply in `pos` (the position the cursor was made for).
    pub fn next(&mut self, pos: &Position) -> Option<Move> {
        let b = &pos.board;
        let us = pos.turn;
        let ksq = b.king(us);
        let occ = b.occupied();
        let sq = Square::from_index_unchecked;
        loop {
            while self.targets != 0 {
                let to = self.targets.trailing_zeros() as usize;
                self.targets &= self.targets - 1;
                let occ_after = (occ & !bit(self.from)) | bit(to);
                if !pos.king_in_danger(us, ksq, occ_after, bit(to)) {
                    return Some(Move::new(sq(self.from), sq(to)));
                }
            }
            if self.froms == 0 {
                return None;
            }
            let from = self.froms.trailing_zeros() as usize;
            self.froms &= self.froms - 1;
            let Some(piece) = Piece::from_index((b.code(from) as usize).wrapping_sub(1)) else {
                continue;
            };
            let wanted = if bit(from) & self.screens == 0 {
                self.to_mask
            } else {
                ALL
            };
            if wanted & reach(piece, from) == 0 {
                continue;
            }
            self.from = from;
            self.targets = pos.targets(piece, from, occ, b.color(us)) & wanted;
        }
    }
}

/// The legal steps of the king of the side to move, by ascending square (the
/// order of [`Position::legal_moves`]), produced by [`KingSteps::next`]; made
/// by [`Position::king_step_cursor`]. Like [`Evasions`], it holds no borrow.
#[derive(Clone, Debug)]
pub struct KingSteps {
    king: usize,
    /// Steps not tried yet.
    left: Bb,
}

impl KingSteps {
    /// The next legal king step in `pos` (the position the cursor was made for).
    #[inline]
    pub fn next(&mut self, pos: &Position) -> Option<Move> {
        let us = pos.turn;
        let occ = pos.board.occupied() ^ bit(self.king);
        while self.left != 0 {
            let to = self.left.trailing_zeros() as usize;
            self.left &= self.left - 1;
            if !pos.king_in_danger(us, to, occ | bit(to), bit(to)) {
                let sq = Square::from_index_unchecked;
                return Some(Move::new(sq(self.king), sq(to)));
            }
        }
        None
    }
}

impl Position {
    /// The king's steps of the side to move, one at a time.
    #[inline]
    pub fn king_step_cursor(&self) -> KingSteps {
        let b = &self.board;
        let king = b.king(self.turn);
        KingSteps {
            king,
            left: KING_MOVES[king] & !b.color(self.turn),
        }
    }

    /// The replies to check other than king steps, one at a time (`None`
    /// when the side to move is not in check).
    pub fn evasion_cursor(&self) -> Option<Evasions> {
        if !self.is_check() {
            return None;
        }
        let b = &self.board;
        let us = self.turn;
        let ksq = b.king(us);
        let own = b.color(us);
        let checkers = self.checkers_of(ksq);
        let (mut to_mask, mut screens) = (checkers, 0);
        for c in squares(checkers) {
            match b.piece_at(c).map(|p| p.role) {
                Some(Role::Rook) | Some(Role::King) => to_mask |= between(c, ksq),
                Some(Role::Cannon) => {
                    let line = between(c, ksq);
                    to_mask |= line;
                    screens |= line & own;
                }
                Some(Role::Horse) => {
                    for &(leg, m) in &HORSE_ATTACKERS[ksq] {
                        if m & bit(c) != 0 && leg != NONE {
                            to_mask |= bit(leg as usize);
                        }
                    }
                }
                _ => {}
            }
        }
        Some(Evasions {
            to_mask,
            screens,
            froms: own & !bit(ksq),
            from: 0,
            targets: 0,
        })
    }

    /// The legal moves of the side to move other than its king's steps, when
    /// it is in check (`None` when it is not), in the order of
    /// [`Position::legal_moves`].
    pub fn evasions(&self) -> Option<MoveList> {
        let mut cursor = self.evasion_cursor()?;
        let mut list = MoveList::new();
        while let Some(m) = cursor.next(self) {
            list.push(m);
        }
        Some(list)
    }

    /// Whether the side to move, in check, can parry it other than by a king
    /// step (false when it is not in check).
    pub fn has_evasion(&self) -> bool {
        let Some(mut cursor) = self.evasion_cursor() else {
            return false;
        };
        // Only whether a reply exists matters, not which comes first: the
        // pieces with few, table-given moves go first (the blocks next to
        // the king are mostly theirs), then the rooks and cannons, whose
        // lines cost the most to walk.
        let b = &self.board;
        let us = self.turn;
        let sliders = cursor.froms & (b.pieces(us, Role::Rook) | b.pieces(us, Role::Cannon));
        cursor.froms &= !sliders;
        if cursor.next(self).is_some() {
            return true;
        }
        cursor.froms = sliders;
        cursor.next(self).is_some()
    }

    /// The enemy pieces attacking the king of the side to move on `ksq`: the
    /// pawns, horses, rooks, cannons and a facing king of `attackers_bb`
    /// (elephants and advisors never leave their half, kings never meet).
    pub(crate) fn checkers_of(&self, ksq: usize) -> Bb {
        let b = &self.board;
        let them = self.turn.other();
        let occ = b.occupied();
        let mut found = PAWN_ATTACKERS[them.index()][ksq] & b.pieces(them, Role::Pawn);
        let horses = b.pieces(them, Role::Horse) & HORSE_ATTACK_SQUARES[ksq];
        if horses != 0 {
            for &(leg, m) in &HORSE_ATTACKERS[ksq] {
                if leg != NONE && occ & bit(leg as usize) == 0 {
                    found |= m & horses;
                }
            }
        }
        let sliders = b.pieces(them, Role::Rook) | b.pieces(them, Role::King);
        let cannons = b.pieces(them, Role::Cannon);
        for (d, rays) in RAYS.iter().enumerate() {
            let ray = rays[ksq];
            let bl = ray & occ;
            if bl == 0 || ray & (sliders | cannons) == 0 {
                continue;
            }
            let f = first_blocker(d, bl);
            found |= bit(f) & sliders;
            let beyond = RAYS[d][f] & occ;
            if beyond != 0 {
                found |= bit(first_blocker(d, beyond)) & cannons;
            }
        }
        found
    }
}
