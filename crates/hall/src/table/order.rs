//! The order at a repetition standing at a table (变着令, docs/rules.md,
//! "Procedure"): given when an arbiter accepts a ruling whose verdict is
//! [`proto::Verdict::Order`], it follows the game with the rulebook's
//! [`OrderWatch`] from the ply at which it reached the table. A move that
//! leaves the cycle, or a capture, lapses it; the cycle repeated once more
//! (or three times, config `cycles_after_order`) raises the second claim:
//! the loss of the ordered side citing AXF-G3, or the announced draw.

use proto::{Side, StandingOrder};
use rulebook::{CyclesAfterOrder, Order, OrderError, OrderState, OrderWatch, RuleSet};
use xiangqi::{IllegalReason, Move, Position};

use super::convert::{color, side};

/// An order given at a table and the watch following the game since.
#[derive(Debug, Clone)]
pub struct TableOrder {
    /// The rulebook's watch (what was ordered, where it stands).
    pub watch: OrderWatch,
    /// The claim whose ruling gave the order.
    pub claim_id: u64,
}

impl TableOrder {
    /// The order given when `moves` (from `start`) had been played: the
    /// side `must_change` must change, or (`None`) one more cycle is a draw.
    pub fn give(
        start: &Position,
        moves: &[Move],
        must_change: Option<Side>,
        set: RuleSet,
        cycles: CyclesAfterOrder,
        claim_id: u64,
    ) -> Result<TableOrder, OrderError> {
        let order = match must_change {
            Some(s) => Order::Change(color(s)),
            None => Order::Draw,
        };
        let watch = OrderWatch::new(start, moves, Some(order), set, cycles)?;
        Ok(TableOrder { watch, claim_id })
    }

    /// The order as a snapshot rebuilds it: given at `at_ply`, then the
    /// moves since fed to its watch.
    pub fn rebuild(
        start: &Position,
        moves: &[Move],
        at_ply: usize,
        must_change: Option<Side>,
        set: RuleSet,
        cycles: CyclesAfterOrder,
        claim_id: u64,
    ) -> Result<TableOrder, String> {
        let at = at_ply.min(moves.len());
        let mut o = TableOrder::give(start, &moves[..at], must_change, set, cycles, claim_id)
            .map_err(|e| format!("no order can be given here: {e}"))?;
        let mut pos = start.clone();
        for &m in &moves[..at] {
            pos.play_unchecked(m);
        }
        for &m in &moves[at..] {
            let before = pos.clone();
            pos.play_unchecked(m);
            o.watch.push(&before, m, &pos);
        }
        Ok(o)
    }

    /// The side ordered to change (`None`: an announced draw).
    pub fn must_change(&self) -> Option<Side> {
        self.watch.order().side().map(side)
    }

    /// Whether the order still stands (neither lapsed nor repeated).
    pub fn standing(&self) -> bool {
        *self.watch.state() == OrderState::Standing
    }

    /// Whether the order lapsed.
    pub fn lapsed(&self) -> bool {
        matches!(self.watch.state(), OrderState::Lapsed(_))
    }

    /// The order's words as a catalogue message (`order-change`,
    /// `order-draw`).
    pub fn words(&self) -> proto::Message {
        let cycles = match self.watch.cycles() {
            CyclesAfterOrder::One => 1,
            CyclesAfterOrder::Three => 3,
        };
        i18n::texts::order(self.must_change(), cycles)
    }

    /// The console's view while it stands.
    pub fn view(&self) -> Option<StandingOrder> {
        if !self.standing() {
            return None;
        }
        Some(StandingOrder {
            must_change: self.must_change(),
            at_ply: self.watch.at_ply() as u32,
            claim_id: self.claim_id,
            text: self.words(),
        })
    }
}

/// Why no order can be given, as the refusal carries it (`why-no-cycle`,
/// `why-order-illegal-move` with a `why-illegal-*` reason): the
/// rulebook's [`OrderError`] typed; English renders its words as they are.
pub fn order_why(e: &OrderError) -> proto::Message {
    use proto::refusals as r;
    match e {
        OrderError::NoCycle(ply) => r::why_no_cycle(*ply),
        OrderError::Illegal(ply, mv, illegal) => {
            r::why_order_illegal_move(ply + 1, &mv.to_string(), illegal_why(&illegal.reason))
        }
    }
}

/// The `why-illegal-*` message of an illegal move's reason.
fn illegal_why(reason: &IllegalReason) -> proto::Message {
    let kind = match reason {
        IllegalReason::EmptySquare => "empty-square",
        IllegalReason::NotYourPiece => "not-your-piece",
        IllegalReason::OwnPieceOnTarget => "own-piece",
        IllegalReason::PieceCannotMoveThere => "cannot-move-there",
        IllegalReason::LeavesKingInCheck => "leaves-check",
        IllegalReason::KingsFacing => "kings-facing",
        #[allow(
            unreachable_patterns,
            reason = "a reason xiangqi adds later keeps its own English words until it is worded here"
        )]
        _ => return proto::refusals::why_words(&reason.to_string()),
    };
    proto::refusals::why_illegal(kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use i18n::Lang;
    use xiangqi::{IllegalMove, IllegalReason};

    fn mv(s: &str) -> Move {
        xiangqi::parse_iccs(s).expect("an ICCS move")
    }

    /// The refusal's message and the English the rulebook's words gave
    /// before the reason was typed (audit rows store it).
    fn refused(e: &OrderError) -> (proto::Message, String) {
        let m = proto::refusals::no_order(3, order_why(e));
        (m, format!("table 3: no order can be given here: {e}"))
    }

    fn every_reason() -> Vec<OrderError> {
        let mut out = vec![OrderError::NoCycle(0), OrderError::NoCycle(17)];
        for reason in [
            IllegalReason::EmptySquare,
            IllegalReason::NotYourPiece,
            IllegalReason::OwnPieceOnTarget,
            IllegalReason::PieceCannotMoveThere,
            IllegalReason::LeavesKingInCheck,
            IllegalReason::KingsFacing,
        ] {
            let m = mv("h2e2");
            out.push(OrderError::Illegal(4, m, IllegalMove { mv: m, reason }));
        }
        out
    }

    #[test]
    fn each_reason_reads_in_english_as_the_rulebook_wrote_it() {
        for e in every_reason() {
            let (m, old) = refused(&e);
            assert_eq!(i18n::texts::english(&m), old);
            let r = crate::Refusal::NoOrder {
                table: 3,
                why: order_why(&e),
            };
            assert_eq!(r.to_string(), old, "the audit's English");
        }
    }

    #[test]
    fn each_reason_reads_in_every_language() {
        for e in every_reason() {
            let (m, old) = refused(&e);
            for lang in Lang::ALL {
                let text = i18n::render(lang, &m);
                assert!(!text.contains("why-"), "{lang:?}: {text}");
                assert!(!text.contains('{'), "{lang:?}: {text}");
                if lang != Lang::En {
                    assert_ne!(text, old, "{lang:?} is translated");
                    assert!(!text.contains("no order"), "{lang:?}: {text}");
                }
                if let OrderError::Illegal(..) = e {
                    assert!(text.contains("h2e2"), "{lang:?}: {text}");
                }
            }
        }
    }

    #[test]
    fn the_rulebook_s_own_errors_are_typed() {
        let start = Position::new();
        let no_cycle = TableOrder::give(&start, &[], None, RuleSet::Axf, CyclesAfterOrder::One, 1)
            .expect_err("no cycle in an empty game");
        assert_eq!(no_cycle, OrderError::NoCycle(0));
        // The red cannon cannot jump to the black king's file's end.
        let illegal = TableOrder::give(
            &start,
            &[mv("h2e2"), mv("a9a8"), mv("e2e9")],
            None,
            RuleSet::Axf,
            CyclesAfterOrder::One,
            1,
        )
        .expect_err("an illegal move");
        let (m, old) = refused(&illegal);
        assert!(old.contains("illegal move 3 e2e9"), "{old}");
        assert_eq!(i18n::texts::english(&m), old);
    }
}
