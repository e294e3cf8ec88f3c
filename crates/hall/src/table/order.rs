//! The order at a repetition standing at a table (变着令, docs/rules.md,
//! "Procedure"): given when an arbiter accepts a ruling whose verdict is
//! [`proto::Verdict::Order`], it follows the game with the rulebook's
//! [`OrderWatch`] from the ply at which it reached the table. A move that
//! leaves the cycle, or a capture, lapses it; the cycle repeated once more
//! (or three times, config `cycles_after_order`) raises the second claim:
//! the loss of the ordered side citing AXF-G3, or the announced draw.

use proto::{Side, StandingOrder};
use rulebook::{CyclesAfterOrder, Order, OrderState, OrderWatch, RuleSet};
use xiangqi::{Move, Position};

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
    ) -> Result<TableOrder, String> {
        let order = match must_change {
            Some(s) => Order::Change(color(s)),
            None => Order::Draw,
        };
        let watch = OrderWatch::new(start, moves, Some(order), set, cycles)
            .map_err(|e| format!("no order can be given here: {e}"))?;
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
        let mut o = TableOrder::give(start, &moves[..at], must_change, set, cycles, claim_id)?;
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
