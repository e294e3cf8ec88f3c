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
//!   AXF-D21; an attack kept while moving along a line is not) — or made real
//!   by the move: an attack kept becomes a chase when the move took away the
//!   target's true root (a protector's screen removed, the protector blocked
//!   or pinned; the manual's appendix, AXF-D29), except by a piece held by
//!   the target it attacks (AXF-D14's diagrams);
//! - AXF rule set (default), with values from `value.rs`:
//!   target worth more than the attacker: a chase whether or not it is
//!   protected (AXF-S6: horse or cannon on a protected rook; AXF-D10, D15, D16);
//!   target worth less: a chase only without a true root (AXF-S6, D12, D13, D29,
//!   D30); same value: an offer (献, AXF-S7, D19) when the target can capture
//!   back, otherwise a chase unless truly protected (AXF-S7, D14, D19, D22);
//! - ROC rule set (docs/rules.md, ROC): an unprotected piece (a false or
//!   virtual root is none, ROC-15, ROC-30) is chased by any piece, an
//!   uncrossed pawn too; a protected piece is not (ROC-31), except a rook
//!   attacked by a horse or cannon (ROC-18, ROC-31); a piece of the same type
//!   is not chased (ROC-31: a draw) unless it is pinned and cannot leave its
//!   line (ROC-27, ROC-31: a hobbled horse is *not* named, unlike AXF-D19);
//!   an attack kept while the attacker and its target stand still becomes a
//!   chase on the move that makes the target unprotected (ROC-26);
//! - CXA rule set: a chase is a move after which the next move wins material
//!   (CXA-3), judged by a static exchange on the target square with the
//!   values of `value.rs` (a crossed pawn is worth more, CXA-10); an attack
//!   that was not a chase before the move and is one after it is a chase
//!   (CXA-2, a protection cut included), one that already was stays none
//!   (CXA-6); a formal chase whose capture lets the opponent mate at once is
//!   idle (CXA-7).
//!
//! King and pawn chases and chases of uncrossed pawns are still chases here;
//! each rule set's ruling decides whether they are allowed (`pattern.rs`).

use crate::protection::{pinners, protection, Protection};
use crate::value::value;
use xiangqi::{Move, Position, Role, Square};

/// Which definition of a chase applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ChaseDefinition {
    /// AXF 2008: by piece values and true protection.
    #[default]
    Axf,
    /// ROC: by protection and piece type (ROC-15, ROC-18, ROC-26, ROC-27, ROC-31).
    Roc,
    /// CXA: an attack that would win material (CXA-2, CXA-3, CXA-7).
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
    /// The attack stood before the move but was no chase: the move made the
    /// target capturable with gain (ROC-26 cutting its protection, CXA-2).
    pub protection_cut: bool,
    /// The target is pinned to its king (ROC-27, ROC-31: cannot leave its line).
    pub target_pinned: bool,
    /// The attacker is itself the root of another piece of its side (CXA-4).
    pub attacker_is_root: bool,
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
    /// Same value and the target can capture back: an offer (献, AXF-S7, D19);
    /// ROC: a piece of the same type that is not pinned (ROC-31).
    MutualOffer,
    /// CXA-7: capturing would let the opponent mate at once (a formal chase, idle).
    CaptureGetsMated,
    /// CXA-6: the attack was a chase before the move and still is (从捉到捉): idle.
    KeptChase,
}

/// Legal captures of non-king pieces available to the side to move in `pos`,
/// in the game core's move order (`Position::captures`).
pub fn captures(pos: &Position) -> Vec<Move> {
    pos.captures().to_vec()
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
    match passed {
        Some(p) => chases_among(before, mv, after, p, &p.captures(), definition),
        None => (Vec::new(), Vec::new()),
    }
}

/// [`chases`] given `passed` and its legal captures (`captures(passed)`).
pub(crate) fn chases_among(
    before: &Position,
    mv: Move,
    after: &Position,
    passed: &Position,
    new: &[Move],
    definition: ChaseDefinition,
) -> (Vec<Chase>, Vec<NonChase>) {
    let mut found = Vec::new();
    let mut not = Vec::new();
    let mover = passed.turn();
    for &cap in new {
        // The moving piece came from mv.from; every other piece stood still,
        // the target too (it is the opponent's).
        let origin = if cap.from == mv.to { mv.from } else { cap.from };
        let old = Move {
            from: origin,
            to: cap.to,
        };
        let stood = before.is_legal(old);
        if stood
            && definition == ChaseDefinition::Axf
            && !protection_taken(before, passed, old, cap)
        {
            continue; // AXF: an attack kept is not a chase, unless the move took its target's root
        }
        if stood && definition == ChaseDefinition::Roc && origin != cap.from {
            continue; // ROC-26 needs the attacker still; a moved attacker keeps its attack
        }
        let (Some(a), Some(t)) = (passed.piece_at(cap.from), passed.piece_at(cap.to)) else {
            continue;
        };
        // Can the target capture the attacker right now (the opponent is to move in `after`)?
        let reply = Move {
            from: cap.to,
            to: cap.from,
        };
        let chase = Chase {
            attacker: cap.from,
            attacker_role: a.role,
            target: cap.to,
            target_role: t.role,
            target_value: value(t, cap.to),
            attacker_value: value(a, cap.from),
            protection: protection(passed, cap.from, cap.to),
            target_cannot_reply: !after.is_legal(reply),
            discovered: cap.from != mv.to,
            protection_cut: stood,
            target_pinned: definition == ChaseDefinition::Roc
                && a.role == t.role
                && !pinners(passed, cap.to).is_empty(),
            attacker_is_root: definition == ChaseDefinition::Material
                && passed.pieces().any(|(sq, p)| {
                    p.color == mover
                        && sq != cap.from
                        && passed.attackers(sq, mover).contains(&cap.from)
                }),
        };
        let verdict = judge(passed, cap, &chase, definition);
        if stood {
            // The attack stood before: a chase only if it was none then
            // (ROC-26, CXA-2); one that already was stays none (CXA-6).
            let was = Chase {
                protection: protection(before, origin, cap.to),
                target_cannot_reply: true,
                target_pinned: chase.target_pinned,
                ..chase
            };
            if verdict.is_err() {
                continue;
            }
            if judge(before, old, &was, definition).is_ok() {
                if definition == ChaseDefinition::Material {
                    not.push(NonChase {
                        attacker: cap.from,
                        target: cap.to,
                        reason: NonChaseReason::KeptChase,
                        attackers: new.iter().filter(|c| c.to == cap.to).count(),
                    });
                }
                continue;
            }
        }
        match verdict {
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

/// AXF: whether the move made the kept attack `old` (legal before the move,
/// `cap` after it, the same attacker and target) a real threat by taking
/// away the target's true root — removing a cannon-protector's screen,
/// blocking or pinning the protector, or moving away so that its recapture
/// is no longer legal. Then the attacking piece chases (the glossary's 捉:
/// the move lets it capture next move; AXF-D29: a root that lost its power
/// to protect counts as none). Only a target the attacker may chase only
/// unprotected can change so: one worth more was chased before the move
/// as well (kept, not new).
///
/// The limit the manual sets (AXF-D14 and its diagrams): a piece held by
/// the piece it attacks — a rook standing on the leg of a horse that would
/// check its king once it moved — does not chase that horse while it stands
/// still, even when the horse is unprotected; so the moves that take away
/// the horse's root do not make it a chase either.
fn protection_taken(before: &Position, passed: &Position, old: Move, cap: Move) -> bool {
    let (Some(a), Some(t)) = (passed.piece_at(cap.from), passed.piece_at(cap.to)) else {
        return false;
    };
    value(t, cap.to) <= value(a, cap.from)
        && !protection(passed, cap.from, cap.to).protects()
        && protection(before, old.from, old.to).protects()
        && !pinners(passed, cap.from)
            .iter()
            .any(|&(sq, _)| sq == cap.to)
}

/// Whether a legal attack (`cap` in `pos`, the attacker's side to move) is a
/// chase under `definition`.
fn judge(
    pos: &Position,
    cap: Move,
    c: &Chase,
    definition: ChaseDefinition,
) -> Result<(), NonChaseReason> {
    let protected = c.protection.protects();
    match definition {
        ChaseDefinition::Material => {
            // CXA-3, CXA-10: a chase when the capture wins material.
            if exchange_gain(pos, cap) <= 0 {
                Err(NonChaseReason::TrulyProtected)
            } else if capture_gets_mated(pos, cap) {
                // CXA-7: a formal chase whose capture is mated at once is idle.
                Err(NonChaseReason::CaptureGetsMated)
            } else {
                Ok(())
            }
        }
        ChaseDefinition::Roc => {
            if c.attacker_role == c.target_role {
                // ROC-31: chasing a piece of the same type is a draw, unless
                // it is pinned and cannot leave its line (ROC-27, ROC-31).
                if c.target_pinned {
                    Ok(())
                } else {
                    Err(NonChaseReason::MutualOffer)
                }
            } else if !protected {
                // ROC-15, ROC-30: an unprotected (or falsely protected) piece.
                Ok(())
            } else if c.target_role == Role::Rook
                && matches!(c.attacker_role, Role::Horse | Role::Cannon)
            {
                // ROC-18, ROC-31: horse and cannon may not chase a protected rook.
                Ok(())
            } else {
                // ROC-18, ROC-31: chasing a protected piece is a draw.
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

/// Material won by the capture `cap` (legal in `pos`) when both sides then
/// go on capturing on that square with their least valuable piece and may
/// stop at any point (a static exchange; CXA-3 "在子力價值上構成得子").
pub fn exchange_gain(pos: &Position, cap: Move) -> i32 {
    let Some(t) = pos.piece_at(cap.to) else {
        return 0;
    };
    let mut after = pos.clone();
    after.play_unchecked(cap);
    value(t, cap.to) as i32 - best_recapture(&after, cap.to)
}

/// What the side to move in `pos` wins by recapturing on `sq` (0 if it stops).
fn best_recapture(pos: &Position, sq: Square) -> i32 {
    let them = pos.turn();
    let Some(victim) = pos.piece_at(sq) else {
        return 0;
    };
    let cheapest = pos
        .attackers_iter(sq, them)
        .map(|from| Move { from, to: sq })
        .filter(|&m| pos.is_legal(m))
        .filter_map(|m| pos.piece_at(m.from).map(|p| (value(p, m.from), m)))
        .min_by_key(|(v, _)| *v);
    let Some((_, m)) = cheapest else {
        return 0;
    };
    let mut next = pos.clone();
    next.play_unchecked(m);
    (value(victim, sq) as i32 - best_recapture(&next, sq)).max(0)
}

/// Whether, after the capture `cap` (legal in `pos`), the opponent has a move that mates (CXA-7).
fn capture_gets_mated(pos: &Position, cap: Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(cap);
    after.legal_moves().iter().any(|&m| {
        let mut q = after.clone();
        q.play_unchecked(m);
        q.is_checkmate()
    })
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
