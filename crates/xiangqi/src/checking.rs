//! Checking moves (将军着法) and captures, generated
//! directly for the rulebook's searches (mate and material threats look only
//! at checks, chase detection only at captures), instead of generating every
//! legal move and playing each one to see whether it checks.
//!
//! The lists are exactly sublists of [`Position::legal_moves`], in its order
//! (the move generator's loops are followed; only moves that cannot matter are
//! skipped before the legality test). A move can give check only if it lands
//! where its piece attacks the enemy king (a rook or cannon on the king's
//! rank or file, a horse a jump away, a pawn next to it), or lands on a line
//! of the king where a cannon of ours stands (a new screen), or leaves a line
//! of the king where a rook or cannon of ours stands, or a horse leg of the
//! king (a diagonal neighbour) while we have a horse. The replies to check
//! are in `evasion.rs`. The tests compare both with the full generator.

use crate::attacks::{
    bit, first_blocker, squares, Bb, ADVISOR_MOVES, ALL, DIAG_NEIGHBOURS, ELEPHANT_REACH,
    HORSE_ATTACKERS, HORSE_ATTACK_SQUARES, HORSE_CHECK_SOURCES, HORSE_REACH, KING_MOVES, LINES,
    NONE, PAWN_ATTACKERS, PAWN_CHECK_SOURCES, PAWN_MOVES, RAYS,
};
use crate::{Move, MoveList, Piece, Position, Role, Square};

impl Position {
    /// The legal moves of the side to move that give check, in the order of
    /// [`Position::legal_moves`].
    #[allow(
        clippy::too_many_lines,
        reason = "one pass on the searches' hot path: the masks built over the king's lines feed the generation loops below; split, a dozen masks would travel as arguments"
    )]
    pub fn checking_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let b = &self.board;
        let us = self.turn;
        let them = us.other();
        let k = b.king(them);
        let own = b.color(us);
        let occ = b.occupied();
        let ksq = b.king(us);

        // Where a move must start or land to possibly give check. Leaving:
        // a square between the king and the farthest rook or cannon of ours
        // on a line of it, or the leg of a horse of ours aimed at the king.
        // Landing: where the piece itself attacks the king over the present
        // occupancy, or between the king and the nearest cannon of ours on
        // a line (a new screen). (A rook or cannon already on a line of the
        // king and moving along it keeps or adds pieces between: it checks
        // only where it lands over the present occupancy, since in a legal
        // position it did not check before.) The exception: a cannon of ours
        // with nothing between it and the king (`facing_cannons`). Sliding
        // along that line it checks nowhere; taking a piece away from the
        // king over a screen, it checks from there (the screen it jumped
        // now stands between); off the line, it checks where any cannon
        // would (`facing_targets`).
        let rooks = b.pieces(us, Role::Rook);
        let cannons = b.pieces(us, Role::Cannon);
        let horses = b.pieces(us, Role::Horse);
        let (mut from_mask, mut screens, mut cannon_squares) = (0, 0, 0);
        // Screens that give check: nothing yet between the king and that cannon.
        let mut screen_checks = 0;
        // Cannons of ours with nothing between them and the king.
        let mut facing_cannons = 0;
        // Where a rook attacks the king from: up to the first piece, included.
        let mut rook_squares = 0;
        for (d, rays) in RAYS.iter().enumerate() {
            let ray = rays[k];
            // Strictly between the king and `s` on this ray.
            let short_of = |s: usize| ray & !RAYS[d][s] & !bit(s);
            let rc = ray & (rooks | cannons);
            if rc != 0 {
                from_mask |= short_of(first_blocker(d ^ 2, rc));
            }
            if ray & cannons != 0 {
                let line = short_of(first_blocker(d, ray & cannons));
                screens |= line;
                if line & occ == 0 {
                    screen_checks |= line;
                }
            }
            let bl = ray & occ;
            if bl == 0 {
                rook_squares |= ray;
            } else {
                // One screen: beyond the first piece, up to the second.
                let first = first_blocker(d, bl);
                facing_cannons |= bit(first) & cannons;
                let beyond = RAYS[d][first];
                rook_squares |= ray & !beyond;
                let bl2 = beyond & occ;
                cannon_squares |= if bl2 == 0 {
                    beyond
                } else {
                    beyond & !RAYS[d][first_blocker(d, bl2)]
                };
            }
        }
        let mut horse_squares = 0;
        for &(leg, m) in &HORSE_ATTACKERS[k] {
            if leg == NONE {
                continue;
            }
            if m & horses != 0 {
                from_mask |= bit(leg as usize);
            }
            if occ & bit(leg as usize) == 0 {
                horse_squares |= m;
            }
        }
        let to_mask = |role: Role| match role {
            Role::Rook => rook_squares | screens,
            Role::Cannon => cannon_squares | screens,
            Role::Horse => horse_squares | screens,
            Role::Pawn => PAWN_ATTACKERS[us.index()][k] | screens,
            _ => screens,
        };
        // The checking squares of a facing cannon on `from`: off its line
        // as for any cannon, on it only the capture beyond the screen.
        let facing_targets = |from: usize| {
            let d = if from / 9 == k / 9 {
                if from > k {
                    1
                } else {
                    3
                }
            } else if from > k {
                0
            } else {
                2
            };
            let beyond = RAYS[d][from] & occ;
            let capture = if beyond == 0 {
                0
            } else {
                let screen = first_blocker(d, beyond);
                let rest = RAYS[d][screen] & occ;
                if rest == 0 {
                    0
                } else {
                    bit(first_blocker(d, rest))
                }
            };
            ((cannon_squares | screen_checks) & !RAYS[d][k]) | capture
        };
        let may_check = |piece: Piece, from: usize| {
            if bit(from) & from_mask != 0 {
                ALL
            } else {
                to_mask(piece.role)
            }
        };
        // From off `from_mask`, a move checks exactly when it lands where its
        // piece attacks the king over the present occupancy, or makes the
        // first screen of a cannon: no test needed. Leaving a square on a
        // line of the king changes nothing between the king and a rook or
        // cannon of ours (those squares are in `from_mask`), and a piece
        // moving along the line stays behind what stood between it and the
        // king.
        let direct = |role: Role| {
            screen_checks
                | match role {
                    Role::Rook => rook_squares,
                    Role::Cannon => cannon_squares,
                    Role::Horse => horse_squares,
                    Role::Pawn => PAWN_ATTACKERS[us.index()][k],
                    _ => 0,
                }
        };

        let in_check = self.is_check();
        let (risky_from, risky_to) = if in_check {
            (ALL, ALL)
        } else {
            (LINES[ksq] | DIAG_NEIGHBOURS[ksq], LINES[ksq])
        };
        let sq = Square::from_index_unchecked;
        let king = Piece::new(us, Role::King);
        let kbb = bit(ksq);
        for to in squares(KING_MOVES[ksq] & !own & may_check(king, ksq)) {
            if self.checks_after(king, ksq, to, occ)
                && !self.king_in_danger(us, to, (occ ^ kbb) | bit(to), bit(to))
            {
                list.push(Move::new(sq(ksq), sq(to)));
            }
        }
        // The pieces that can give check: those on `from_mask`, the rooks
        // and cannons, horses and pawns only from where one move takes them
        // to a square attacking the king, and any piece that can step onto
        // a checking screen square (advisors and elephants never attack the
        // king: they matter only as a screen or by leaving a line).
        let mut sources = from_mask
            | rooks
            | cannons
            | (horses & HORSE_CHECK_SOURCES[k])
            | (b.pieces(us, Role::Pawn) & PAWN_CHECK_SOURCES[us.index()][k]);
        for s in squares(screen_checks) {
            sources |= ADVISOR_MOVES[s]
                | ELEPHANT_REACH[s]
                | HORSE_ATTACK_SQUARES[s]
                | PAWN_ATTACKERS[us.index()][s];
        }
        let movers = own & sources;
        for from in squares(movers & !kbb) {
            let Some(piece) = Piece::from_index((b.code(from) as usize).wrapping_sub(1)) else {
                continue;
            };
            let plain = bit(from) & from_mask == 0;
            let wanted = if !plain {
                may_check(piece, from)
            } else if bit(from) & facing_cannons != 0 {
                facing_targets(from)
            } else {
                direct(piece.role)
            };
            if wanted & reach(piece, from) == 0 {
                continue;
            }
            let targets = self.targets(piece, from, occ, own) & wanted;
            if targets == 0 {
                continue;
            }
            let (safe, test) = if bit(from) & risky_from == 0 {
                (targets & !risky_to, targets & risky_to)
            } else {
                (0, targets)
            };
            for to in squares(safe) {
                if plain || self.checks_after(piece, from, to, occ) {
                    list.push(Move::new(sq(from), sq(to)));
                }
            }
            let occ_from = occ & !bit(from);
            for to in squares(test) {
                if (plain || self.checks_after(piece, from, to, occ))
                    && !self.king_in_danger(us, ksq, occ_from | bit(to), bit(to))
                {
                    list.push(Move::new(sq(from), sq(to)));
                }
            }
        }
        list
    }

    /// The legal captures of the side to move that do not take the king, in
    /// the order of [`Position::legal_moves`] (the generator's loops, only
    /// targets holding such a piece).
    pub fn captures(&self) -> MoveList {
        let mut list = MoveList::new();
        let b = &self.board;
        let us = self.turn;
        let them = us.other();
        let prey = b.color(them) & !b.pieces(them, Role::King);
        let own = b.color(us);
        let occ = b.occupied();
        let ksq = b.king(us);
        let (risky_from, risky_to) = if self.is_check() {
            (ALL, ALL)
        } else {
            (LINES[ksq] | DIAG_NEIGHBOURS[ksq], LINES[ksq])
        };
        let sq = Square::from_index_unchecked;
        let kbb = bit(ksq);
        for to in squares(KING_MOVES[ksq] & prey) {
            if !self.king_in_danger(us, to, (occ ^ kbb) | bit(to), bit(to)) {
                list.push(Move::new(sq(ksq), sq(to)));
            }
        }
        for from in squares(own & !kbb) {
            let Some(piece) = Piece::from_index((b.code(from) as usize).wrapping_sub(1)) else {
                continue;
            };
            if prey & reach(piece, from) == 0 {
                continue;
            }
            let targets = self.targets(piece, from, occ, own) & prey;
            let (safe, test) = if bit(from) & risky_from == 0 {
                (targets & !risky_to, targets & risky_to)
            } else {
                (0, targets)
            };
            for to in squares(safe) {
                list.push(Move::new(sq(from), sq(to)));
            }
            let occ_from = occ & !bit(from);
            for to in squares(test) {
                if !self.king_in_danger(us, ksq, occ_from | bit(to), bit(to)) {
                    list.push(Move::new(sq(from), sq(to)));
                }
            }
        }
        list
    }

    /// Whether the pseudo-legal move `from`-`to` of `piece` (of the side to
    /// move) attacks the enemy king afterwards (the same test as
    /// [`Position::is_check`] after the move, without playing it).
    fn checks_after(&self, piece: Piece, from: usize, to: usize, occ: Bb) -> bool {
        let b = &self.board;
        let us = piece.color;
        let k = b.king(us.other());
        let occ = (occ & !bit(from)) | bit(to);
        let moved = |role: Role| {
            let x = b.pieces(us, role);
            if piece.role == role {
                (x & !bit(from)) | bit(to)
            } else {
                x
            }
        };
        if PAWN_ATTACKERS[us.index()][k] & moved(Role::Pawn) != 0 {
            return true;
        }
        let horses = moved(Role::Horse) & HORSE_ATTACK_SQUARES[k];
        if horses != 0 {
            for &(leg, m) in &HORSE_ATTACKERS[k] {
                if m & horses != 0 && leg != NONE && occ & bit(leg as usize) == 0 {
                    return true;
                }
            }
        }
        let sliders = moved(Role::Rook) | moved(Role::King);
        let cannons = moved(Role::Cannon);
        if (sliders | cannons) & LINES[k] == 0 {
            return false;
        }
        for (d, rays) in RAYS.iter().enumerate() {
            let ray = rays[k];
            let bl = ray & occ;
            if bl == 0 || ray & (sliders | cannons) == 0 {
                continue;
            }
            let f = first_blocker(d, bl);
            if bit(f) & sliders != 0 {
                return true;
            }
            let beyond = RAYS[d][f] & occ;
            if beyond & cannons != 0 && bit(first_blocker(d, beyond)) & cannons != 0 {
                return true;
            }
        }
        false
    }

    /// Whether the king of the side to move has a legal step.
    pub fn has_king_step(&self) -> bool {
        self.king_step_cursor().next(self).is_some()
    }
}

/// Every square `piece` on `from` could move to on some board (a cheap
/// superset of its targets, to skip pieces that cannot matter).
#[inline]
pub(crate) fn reach(piece: Piece, from: usize) -> Bb {
    match piece.role {
        Role::Rook | Role::Cannon => LINES[from],
        Role::Horse => HORSE_REACH[from],
        Role::Elephant => ELEPHANT_REACH[from],
        Role::Advisor => ADVISOR_MOVES[from],
        Role::King => KING_MOVES[from],
        Role::Pawn => PAWN_MOVES[piece.color.index()][from],
    }
}

#[cfg(test)]
mod tests {
    use crate::{Move, Position};

    const FENS: [&str; 13] = [
        // A cannon next to the king takes the rook away from it over the
        // elephant: check (the elephant is now the screen).
        "r1bCkabnr/9/1c4c2/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR w - - 1 3",
        // Checkmated, and stalemated (困毙).
        "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1",
        "3k5/9/3P5/9/9/9/9/9/9/4K4 b - - 0 1",
        Position::START_FEN,
        "4k4/9/4P4/9/5C3/9/9/3ARA3/9/3K5 w - - 0 1",
        "2b1k4/9/4r4/7c1/2p3C2/9/9/9/4K1p2/9 w - - 0 1",
        "3k5/4c4/9/9/4R4/8c/9/9/4A4/4K4 w - - 0 1",
        "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
        "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        "4kab2/4a4/4bc3/prC2nR2/4N3p/4P4/P3C2cP/4B4/r3A4/R3K1B2 b - - 14 39",
    ];

    /// Every position a few plies from `FENS`.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for fen in FENS {
            let p = Position::from_fen(fen).unwrap();
            for &m in p.legal_moves().iter() {
                let mut q = p.clone();
                q.play_unchecked(m);
                for &r in q.legal_moves().iter() {
                    let mut s = q.clone();
                    s.play_unchecked(r);
                    out.push(s);
                }
                out.push(q);
            }
            out.push(p);
        }
        out
    }

    #[test]
    fn checking_moves_are_the_legal_moves_that_check() {
        let (mut checks, mut in_check) = (0, 0);
        for p in positions() {
            let want: Vec<Move> = p
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| p.gives_check(m))
                .collect();
            assert_eq!(p.checking_moves().to_vec(), want, "{p:?}");
            let them = p.turn().other();
            let takes: Vec<Move> = p
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    p.piece_at(m.to)
                        .is_some_and(|x| x.color == them && x.role != crate::Role::King)
                })
                .collect();
            assert_eq!(p.captures().to_vec(), takes, "{p:?}");
            checks += want.len();
            in_check += (p.is_check() && !want.is_empty()) as usize;
        }
        assert!(
            checks > 1000 && in_check > 0,
            "{checks} checks, {in_check} in check"
        );
    }

    #[test]
    fn evasions_are_the_legal_non_king_moves_in_check() {
        let (mut n, mut stuck) = (0, 0);
        for p in positions() {
            let k = p.king_square(p.turn());
            let want: Vec<Move> = p
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| m.from != k)
                .collect();
            match p.evasions() {
                None => assert!(!p.is_check(), "{p:?}"),
                Some(e) => {
                    assert!(p.is_check());
                    assert_eq!(e.to_vec(), want, "{p:?}");
                    n += 1;
                }
            }
            assert_eq!(p.has_evasion(), p.is_check() && !want.is_empty(), "{p:?}");
            let steps = p.legal_moves().iter().any(|m| m.from == k);
            assert_eq!(p.has_king_step(), steps, "{p:?}");
            assert_eq!(p.has_legal_move(), !p.legal_moves().is_empty(), "{p:?}");
            stuck += p.legal_moves().is_empty() as usize;
            let k = k.index();
            assert_eq!(
                p.checkers_of(k),
                p.attackers_bb(k, p.turn().other()),
                "{p:?}"
            );
        }
        assert!(
            n > 100 && stuck > 0,
            "{n} positions in check, {stuck} without a legal move"
        );
    }
}
