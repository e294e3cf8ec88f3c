//! Chase (捉) detection: which pieces a move newly attacks with intent to capture.
//!
//! AXF glossary (002 §1): a chase is a move that attacks an opponent piece
//! other than the king, intending to capture it on the next move. Judged in
//! the position after the move, as if the opponent passed (`protection::pass`):
//!
//! - the capture must be legal: a pinned attacker, or one confined to a line,
//!   does not chase (AXF-D22); the capture may not leave the kings facing;
//! - the attack must be new: the pair (attacker, target) did not exist before
//!   the move (a cannon's attack created by moving a screen is new, AXF-D20,
//!   AXF-D21; an attack kept while moving along a line is not);
//! - AXF rule set (default), with values from `value.rs`:
//!   target worth more than the attacker: a chase whether or not it is
//!   protected (AXF-S6: horse or cannon on a protected rook; AXF-D10, D15, D16);
//!   target worth less: a chase only without a true root (AXF-S6, D12, D13, D29,
//!   D30); same value: an offer (献, AXF-S7, D19) when the target can capture
//!   back, otherwise a chase unless truly protected (AXF-S7, D14, D19, D22);
//! - CXA rule set: a chase is an attack whose capture would win material
//!   (CXA-3): target unprotected, or worth more than the attacker.
//!
//! King and pawn chases and chases of uncrossed pawns are still chases here;
//! the ruling allows them (AXF-S3, S9, D20, D23, D24).

use crate::protection::{protection, Protection};
use crate::threat::checks::{decode, generation_order};
use crate::value::value;
use xiangqi::{Move, Position, Role, Square};

/// Which definition of a chase applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ChaseDefinition {
    /// AXF 2008 (and ROC): by piece kinds and true protection.
    #[default]
    Axf,
    /// CXA: an attack that would win material (CXA-3).
    Material,
}

/// One chase: `attacker` newly attacks `target` with intent to capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chase {
    /// Square of the chasing piece after the move.
    pub attacker: Square,
    /// Role of the chasing piece.
    pub attacker_role: Role,
    /// Square of the chased piece.
    pub target: Square,
    /// Role of the chased piece.
    pub target_role: Role,
    /// Value of the chased piece where it stands.
    pub target_value: u32,
    /// Value of the chasing piece.
    pub attacker_value: u32,
    /// Protection of the target against this capture.
    pub protection: Protection,
    /// The target cannot capture the attacker back (pinned, hobbled, or simply not attacking it).
    pub target_cannot_reply: bool,
    /// The attacker did not move: the attack was opened by another piece (a cannon's screen, AXF-D20/D21).
    pub discovered: bool,
}

/// An attack that is not a chase, kept for the explanation (AXF-D30: attacking
/// a truly protected piece; AXF-S7: same-type attack that is an offer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NonChase {
    /// Attacking square.
    pub attacker: Square,
    /// Attacked square.
    pub target: Square,
    /// Why it is not a chase.
    pub reason: NonChaseReason,
    /// How many pieces of the mover could legally capture the target (AXF-D30: two or more).
    pub attackers: usize,
}

/// Why a new attack is not a chase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NonChaseReason {
    /// The target is truly protected and worth no more than the attacker (AXF-S6, D12, D30).
    TrulyProtected,
    /// Same value and the target can capture back: an offer (献, AXF-S7, D19).
    MutualOffer,
}

/// Legal captures of non-king pieces available to the side to move in `pos`,
/// in the game core's move order: the moves of the pieces attacking each
/// opponent piece (`Position::attackers_iter`) that are legal, sorted as
/// `Position::legal_moves` lists them (`threat::checks::generation_order`).
pub fn captures(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let own = pos.king_square(us);
    let in_check = pos.is_check();
    let mut keys: Vec<u32> = Vec::with_capacity(16);
    for (t, p) in pos.pieces() {
        if p.color == us || p.role == Role::King {
            continue;
        }
        for from in pos.attackers_iter(t, us) {
            let m = Move { from, to: t };
            if pos.is_legal(m) {
                keys.push(generation_order(own, in_check, m));
            }
        }
    }
    keys.sort_unstable();
    keys.into_iter().filter_map(decode).collect()
}

/// New attacks of the side that played `mv` (from `before` to `after`), split
/// into chases and non-chases. `passed` is `after` with the mover to move again
/// (`protection::pass(after)`); when it is `None` (the move gives check) there
/// are no chases: a check is judged as a check.
pub fn chases(
    before: &Position,
    mv: Move,
    after: &Position,
    passed: Option<&Position>,
    definition: ChaseDefinition,
) -> (Vec<Chase>, Vec<NonChase>) {
    let mut found = Vec::new();
    let mut not = Vec::new();
    let Some(passed) = passed else {
        return (found, not);
    };
    let new = captures(passed);
    for &cap in &new {
        // The moving piece came from mv.from; every other piece stood still,
        // the target too (it is the opponent's): the attack is old when the
        // same capture was legal before the move.
        let origin = if cap.from == mv.to { mv.from } else { cap.from };
        if before.is_legal(Move {
            from: origin,
            to: cap.to,
        }) {
            continue; // not new: an attack kept is not a chase
        }
        let (Some(a), Some(t)) = (passed.piece_at(cap.from), passed.piece_at(cap.to)) else {
            continue;
        };
        let va = value(a, cap.from);
        let vt = value(t, cap.to);
        let prot = protection(passed, cap.from, cap.to);
        // Can the target capture the attacker right now (the opponent is to move in `after`)?
        let reply = Move {
            from: cap.to,
            to: cap.from,
        };
        let can_reply = after.is_legal(reply);
        let chase = Chase {
            attacker: cap.from,
            attacker_role: a.role,
            target: cap.to,
            target_role: t.role,
            target_value: vt,
            attacker_value: va,
            protection: prot,
            target_cannot_reply: !can_reply,
            discovered: cap.from != mv.to,
        };
        match judge(&chase, definition) {
            Ok(()) => found.push(chase),
            Err(reason) => not.push(NonChase {
                attacker: cap.from,
                target: cap.to,
                reason,
                attackers: new.iter().filter(|c| c.to == cap.to).count(),
            }),
        }
    }
    (found, not)
}

/// Whether a new legal attack is a chase under `definition`.
fn judge(c: &Chase, definition: ChaseDefinition) -> Result<(), NonChaseReason> {
    let protected = c.protection.protects();
    match definition {
        ChaseDefinition::Material => {
            // CXA-3: a chase when the capture would win material.
            if !protected || c.target_value > c.attacker_value {
                Ok(())
            } else {
                Err(NonChaseReason::TrulyProtected)
            }
        }
        ChaseDefinition::Axf => {
            if c.target_value > c.attacker_value {
                // AXF-S6, D10, D15, D16: a lesser piece attacking a greater one chases, root or not.
                Ok(())
            } else if c.target_value == c.attacker_value {
                if !c.target_cannot_reply {
                    // AXF-S7, D19: both free to capture each other: an offer (献), not a chase.
                    Err(NonChaseReason::MutualOffer)
                } else if protected {
                    // AXF-D22: a move on which the pinned piece is protected is not a chase.
                    Err(NonChaseReason::TrulyProtected)
                } else {
                    // AXF-S7, D14, D19: the target is pinned or hobbled and cannot reply.
                    Ok(())
                }
            } else if protected {
                // AXF-S6, D12, D30: a truly protected lesser piece is not chased.
                Err(NonChaseReason::TrulyProtected)
            } else {
                // AXF-S3, D13, D29: an unprotected (or falsely protected) piece is chased.
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `captures` is the game core's legal captures of non-king pieces, in its order.
    #[test]
    fn captures_are_the_legal_captures_in_order() {
        let fens = [
            Position::START_FEN,
            "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
            "4kab2/4a4/4bc3/prC2nR2/4N3p/4P4/P3C2cP/4B4/1r2A4/R3K1B2 w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        ];
        let mut n = 0;
        for fen in fens {
            let p = Position::from_fen(fen).unwrap();
            let mut sample = vec![p.clone()];
            for &m in p.legal_moves().iter() {
                let mut q = p.clone();
                q.play_unchecked(m);
                sample.push(q);
            }
            for q in sample {
                let them = q.turn().other();
                let want: Vec<Move> = q
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| {
                        matches!(q.piece_at(m.to), Some(x) if x.color == them && x.role != Role::King)
                    })
                    .collect();
                assert_eq!(captures(&q), want, "{q:?}");
                n += want.len();
            }
        }
        assert!(n > 50, "the sample has captures ({n})");
    }
}
