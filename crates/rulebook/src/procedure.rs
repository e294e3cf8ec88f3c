//! The procedure around a repetition ruling (裁决程序; docs/rules.md,
//! "Procedure", from AXF 2008 referee duties (G) 2 and 3): a ruling at the
//! third occurrence is not yet a result.
//!
//! - One side forbidden, the other allowed: the arbiter orders the violator
//!   to change (变着令): "犯禁方必须变着，若再循环一次即判负". It loses only if
//!   the cycle repeats once more after the order.
//! - Both allowed or both forbidden: the arbiter announces that one more
//!   cycle is a draw ("如再循环一次即判为和局").
//!
//! [`OrderWatch`] follows the game from the ply at which the order reached
//! the table. A move that is not one of the ordered cycle's moves (played
//! from the same position), or a capture, lapses the order; the ordered
//! position recurring with only the cycle's moves played gives the result:
//! a loss for the ordered side citing AXF-G3, or the announced draw.
//!
//! How many more cycles: 000 (G)3 says one (再循环一次); the general rule
//! AXF-G3 (001 item 3) words it "repeated three times after the arbiter asked
//! for a change". [`CyclesAfterOrder`] selects; the default is one, because
//! 000's referee duties are the procedure the arbiter follows at the board
//! and docs/rules.md follows 000 where the two differ.
//!
//! `caipan adjudicate` (input key `ordered_at_ply`) and the server use this
//! same watch, so that the two never rule differently.

use crate::cycle::Cycle;
use crate::explain::Explanation;
use crate::repetition::{judge_replayed, ALERT_OCCURRENCES};
use crate::rule_id::RuleId;
pub use crate::ruleset::CyclesAfterOrder;
use crate::ruleset::RuleSet;
use crate::ruling::{Ruling, Verdict};
use std::collections::{HashMap, HashSet};
use xiangqi::{Color, IllegalMove, Move, Position};

/// What the arbiter does with a ruling: `adjudicate`'s `"procedure"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Procedure {
    /// Order the violating side to change (变着令).
    OrderChange,
    /// Announce that one more cycle is a draw.
    AnnounceDraw,
    /// End the game (mate, stalemate, a true claim, a cycle repeated after an order).
    Result,
}

impl Procedure {
    /// JSON name: `order_change`, `announce_draw`, `result`.
    pub fn name(self) -> &'static str {
        match self {
            Procedure::OrderChange => "order_change",
            Procedure::AnnounceDraw => "announce_draw",
            Procedure::Result => "result",
        }
    }

    /// The procedure for a ruling at the third occurrence (no order yet).
    pub fn at_third_occurrence(r: &Ruling) -> Procedure {
        match Order::of(r) {
            Order::Change(_) => Procedure::OrderChange,
            Order::Draw => Procedure::AnnounceDraw,
        }
    }
}

/// What an order concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// This side must change (one more cycle loses).
    Change(Color),
    /// One more cycle is a draw.
    Draw,
}

impl Order {
    /// The order a ruling recommends.
    pub fn of(r: &Ruling) -> Order {
        match r.must_change {
            Some(c) => Order::Change(c),
            None => Order::Draw,
        }
    }

    /// The side that must change, if any.
    pub fn side(self) -> Option<Color> {
        match self {
            Order::Change(c) => Some(c),
            Order::Draw => None,
        }
    }

    /// The order's words as data (`ruling-order-change` with the side and
    /// the cycles, or `ruling-order-draw`), as [`Order::words`] writes them.
    pub fn explain(self, cycles: CyclesAfterOrder) -> Explanation {
        match self {
            Order::Change(c) => Explanation::new("ruling-order-change")
                .side("side", c)
                .part("more", cycles.explain()),
            Order::Draw => Explanation::new("ruling-order-draw").part("more", cycles.explain()),
        }
    }

    /// The order's words for the table and the arbiters (Chinese, English),
    /// e.g. "Red must change (红方必须变着); one more cycle loses".
    pub fn words(self, cycles: CyclesAfterOrder) -> (String, String) {
        let (nz, ne) = cycles.words();
        match self {
            Order::Change(c) => (
                format!("{}必须变着，若{nz}即判负", c.name_zh()),
                format!(
                    "{} must change ({}必须变着); {ne} loses",
                    c.name_en(),
                    c.name_zh()
                ),
            ),
            Order::Draw => (
                format!("裁判员宣布：如{nz}即判为和局"),
                format!("the arbiter announces that {ne} is a draw"),
            ),
        }
    }
}

/// Why an order lapsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lapse {
    /// A capture (material never comes back: the cycle cannot recur).
    Capture {
        /// The ply of the capture (plies from the game's start).
        ply: usize,
        /// The capturing side.
        by: Color,
    },
    /// A move that is not one of the cycle's moves.
    LeftCycle {
        /// The ply of that move.
        ply: usize,
        /// The side that left the cycle.
        by: Color,
    },
}

impl Lapse {
    /// The ply at which the order lapsed.
    pub fn ply(self) -> usize {
        match self {
            Lapse::Capture { ply, .. } | Lapse::LeftCycle { ply, .. } => ply,
        }
    }

    /// Words for the table's log (Chinese, English).
    pub fn words(self) -> (String, String) {
        match self {
            Lapse::Capture { ply, by } => (
                format!("第{ply}步{}吃子，循环中断，变着令失效", by.name_zh()),
                format!(
                    "{} captured at ply {ply}: the cycle is broken and the order lapses",
                    by.name_en()
                ),
            ),
            Lapse::LeftCycle { ply, by } => (
                format!("第{ply}步{}变着离开循环，变着令失效", by.name_zh()),
                format!(
                    "{} left the cycle at ply {ply}: the order lapses",
                    by.name_en()
                ),
            ),
        }
    }
}

/// Where an order stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderState {
    /// Only the cycle's moves since the order; no result yet.
    Standing,
    /// The order lapsed.
    Lapsed(Lapse),
    /// The cycle repeated: the result, ruled at that ply.
    Repeated {
        /// The ply at which the ordered position recurred for the last time needed.
        ply: usize,
        /// The ruling on the result.
        ruling: Box<Ruling>,
    },
}

/// Why an order cannot be followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    /// No position occurred three times since the last capture up to the order.
    #[error("no position occurred three times since the last capture, at or before ply {0}: there is no cycle to order on")]
    NoCycle(usize),
    /// A move of the game is illegal.
    #[error("illegal move {} {}: {}", .0 + 1, .1, .2)]
    Illegal(usize, Move, IllegalMove),
}

/// Follows a game after an order (see the module doc).
#[derive(Clone, Debug)]
pub struct OrderWatch {
    order: Order,
    cycles: CyclesAfterOrder,
    at_ply: usize,
    /// The ruling at the third occurrence the order rests on.
    ruling: Ruling,
    /// The cycle's moves, with the hash of the position each is played from.
    cycle_moves: HashSet<(u64, Move)>,
    /// The ordered position (at `at_ply`).
    key: u64,
    /// Its occurrences up to the order.
    occurrences: usize,
    /// Its recurrences since the order.
    recurred: usize,
    ply: usize,
    state: OrderState,
}

impl OrderWatch {
    /// An order given when the game `moves` (from `start`) had been played:
    /// the order reached the table at ply `moves.len()`. `order` is what the
    /// arbiter ordered; `None` takes the rulebook's recommendation. The cycle
    /// ordered on is the one ruled at the last third occurrence (or later
    /// one) since the last capture.
    pub fn new(
        start: &Position,
        moves: &[Move],
        order: Option<Order>,
        set: RuleSet,
        cycles: CyclesAfterOrder,
    ) -> Result<OrderWatch, OrderError> {
        let at_ply = moves.len();
        let mut pos = start.clone();
        let mut hashes = Vec::with_capacity(moves.len() + 1);
        hashes.push(pos.zobrist());
        let mut last_capture = 0;
        let mut counts: HashMap<u64, usize> = HashMap::from([(pos.zobrist(), 1)]);
        let mut last_third = None;
        for (i, &mv) in moves.iter().enumerate() {
            let captured = pos.play(mv).map_err(|e| OrderError::Illegal(i, mv, e))?;
            let h = pos.zobrist();
            hashes.push(h);
            if captured.is_some() {
                last_capture = i + 1;
                counts.clear();
                last_third = None;
            }
            let n = counts.entry(h).or_insert(0);
            *n += 1;
            if *n >= ALERT_OCCURRENCES {
                last_third = Some(i + 1);
            }
        }
        let k = last_third.ok_or(OrderError::NoCycle(at_ply))?;
        let ruling = judge_replayed(start, &moves[..k], &hashes[..=k], last_capture, set)
            .ok_or(OrderError::NoCycle(at_ply))?;
        let c = ruling.cycle;
        let cycle_moves = (c.start..c.end).map(|i| (hashes[i], moves[i])).collect();
        let key = hashes[at_ply];
        Ok(OrderWatch {
            order: order.unwrap_or_else(|| Order::of(&ruling)),
            cycles,
            at_ply,
            ruling,
            cycle_moves,
            key,
            occurrences: counts.get(&key).copied().unwrap_or(1),
            recurred: 0,
            ply: at_ply,
            state: OrderState::Standing,
        })
    }

    /// What was ordered.
    pub fn order(&self) -> Order {
        self.order
    }

    /// How many more cycles give the result.
    pub fn cycles(&self) -> CyclesAfterOrder {
        self.cycles
    }

    /// The ply at which the order reached the table.
    pub fn at_ply(&self) -> usize {
        self.at_ply
    }

    /// The ruling the order rests on.
    pub fn ruling(&self) -> &Ruling {
        &self.ruling
    }

    /// Where the order stands.
    pub fn state(&self) -> &OrderState {
        &self.state
    }

    /// Feeds the next (legal) move `mv`, played in `before` and giving
    /// `after`. Returns the new state when it changed (lapsed or repeated),
    /// `None` while the order stands or once it is settled.
    pub fn push(&mut self, before: &Position, mv: Move, after: &Position) -> Option<&OrderState> {
        if self.state != OrderState::Standing {
            return None;
        }
        self.ply += 1;
        let by = before.turn();
        let ply = self.ply;
        if after.pieces().count() != before.pieces().count() {
            self.state = OrderState::Lapsed(Lapse::Capture { ply, by });
            return Some(&self.state);
        }
        if !self.cycle_moves.contains(&(before.zobrist(), mv)) {
            self.state = OrderState::Lapsed(Lapse::LeftCycle { ply, by });
            return Some(&self.state);
        }
        if after.zobrist() != self.key {
            return None;
        }
        self.recurred += 1;
        if self.recurred < self.cycles.count() {
            return None;
        }
        let ruling = Box::new(self.result(ply));
        self.state = OrderState::Repeated { ply, ruling };
        Some(&self.state)
    }

    /// The ruling on the cycle repeated after the order, at `ply`.
    fn result(&self, ply: usize) -> Ruling {
        let base = &self.ruling;
        let len = base.cycle.len();
        let cycle = Cycle {
            start: ply.saturating_sub(len),
            end: ply,
            occurrences: self.occurrences + self.recurred,
        };
        let (oz, oe) = self.order.words(self.cycles);
        let at = self.at_ply;
        let (nz, ne) = self.cycles.words();
        let (verdict, must_change, rules, vz, ve) = match self.order {
            Order::Change(c) => {
                let mut rules = vec![RuleId::AXF_G3];
                rules.extend(base.rules.iter().copied().filter(|r| *r != RuleId::AXF_G3));
                let verdict = match c {
                    Color::Red => Verdict::RedLoses,
                    Color::Black => Verdict::BlackLoses,
                };
                (
                    verdict,
                    Some(c),
                    rules,
                    format!("{}未变着，判负", c.name_zh()),
                    format!("{} did not change and loses", c.name_en()),
                )
            }
            Order::Draw => (
                Verdict::Draw,
                None,
                base.rules.clone(),
                "双方未变着，判和".to_string(),
                "neither side changed: draw".to_string(),
            ),
        };
        let explanation = Explanation::new("ruling-order-repeated")
            .count("ply", at)
            .part("order", self.order.explain(self.cycles))
            .part("more", self.cycles.explain())
            .count("count", cycle.occurrences)
            .part(
                "verdict",
                match self.order {
                    Order::Change(c) => Explanation::new("ruling-did-not-change").side("side", c),
                    Order::Draw => Explanation::new("ruling-neither-changed"),
                },
            )
            .rules("rules", &rules);
        let ids: Vec<&str> = rules.iter().map(|r| r.as_str()).collect();
        let ids = ids.join(", ");
        Ruling {
            cycle,
            verdict,
            must_change,
            red: base.red.clone(),
            black: base.black.clone(),
            explanation_zh: format!(
                "第{at}步裁判员指令：{oz}。其后{nz}（局面第{}次出现）：{vz}（{ids}）。",
                cycle.occurrences
            ),
            explanation_en: format!(
                "Order at ply {at}: {oe}. The cycle then repeated ({ne}; the position occurred {} times): {ve} ({ids}).",
                cycle.occurrences
            ),
            explanation,
            rules,
            whole_from: None,
            arbiter: base.arbiter.clone(),
            judgement: base.judgement.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::parse_iccs;

    /// Red's rook checks the king up and down; Black's king steps aside and back.
    const FEN: &str = "5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1";
    const CYCLE: [&str; 4] = ["h8h9", "f9f8", "h9h8", "f8f9"];

    fn moves(n: usize) -> Vec<Move> {
        CYCLE
            .iter()
            .cycle()
            .take(n)
            .map(|m| parse_iccs(m).unwrap())
            .collect()
    }

    fn watch(n: usize, order: Option<Order>, cycles: CyclesAfterOrder) -> (OrderWatch, Position) {
        let start = Position::from_fen(FEN).unwrap();
        let mv = moves(n);
        let w = OrderWatch::new(&start, &mv, order, RuleSet::Axf, cycles).unwrap();
        let mut pos = start;
        for m in mv {
            pos.play(m).unwrap();
        }
        (w, pos)
    }

    fn feed(w: &mut OrderWatch, pos: &mut Position, mv: &[&str]) -> Vec<OrderState> {
        let mut out = Vec::new();
        for m in mv {
            let m = parse_iccs(m).unwrap();
            let before = pos.clone();
            pos.play(m).unwrap();
            if let Some(s) = w.push(&before, m, pos) {
                out.push(s.clone());
            }
        }
        out
    }

    #[test]
    fn the_ordered_side_repeating_once_more_loses_under_g3() {
        let (mut w, mut pos) = watch(8, None, CyclesAfterOrder::One);
        assert_eq!(w.order(), Order::Change(Color::Red));
        assert_eq!(
            Procedure::at_third_occurrence(w.ruling()),
            Procedure::OrderChange
        );
        assert!(feed(&mut w, &mut pos, &CYCLE[..3]).is_empty());
        let s = feed(&mut w, &mut pos, &CYCLE[3..]);
        let [OrderState::Repeated { ply, ruling }] = &s[..] else {
            panic!("{s:?}");
        };
        assert_eq!(*ply, 12);
        assert_eq!(ruling.verdict, Verdict::RedLoses);
        assert_eq!(ruling.rules[0], RuleId::AXF_G3);
        assert!(ruling.rules.contains(&RuleId::AXF_D1));
        assert_eq!(ruling.cycle.occurrences, 4);
        assert!(
            ruling.explanation_en.contains("Red did not change"),
            "{}",
            ruling.explanation_en
        );
        // Settled: later moves change nothing.
        assert!(feed(&mut w, &mut pos, &CYCLE).is_empty());
    }

    #[test]
    fn three_cycles_under_the_axf_g3_wording() {
        let (mut w, mut pos) = watch(8, None, CyclesAfterOrder::Three);
        assert!(feed(&mut w, &mut pos, &[CYCLE, CYCLE].concat()).is_empty());
        let s = feed(&mut w, &mut pos, &CYCLE);
        assert!(
            matches!(&s[..], [OrderState::Repeated { ply: 20, .. }]),
            "{s:?}"
        );
    }

    #[test]
    fn leaving_the_cycle_lapses_the_order() {
        let (mut w, mut pos) = watch(8, None, CyclesAfterOrder::One);
        // Red checks from the other side instead: not one of the cycle's moves.
        let s = feed(&mut w, &mut pos, &["h8f8"]);
        assert_eq!(
            s,
            vec![OrderState::Lapsed(Lapse::LeftCycle {
                ply: 9,
                by: Color::Red
            })]
        );
        assert!(w.state() != &OrderState::Standing);
    }

    #[test]
    fn an_order_given_mid_cycle_counts_from_its_own_position() {
        // Ordered two plies after the third occurrence.
        let (mut w, mut pos) = watch(10, None, CyclesAfterOrder::One);
        assert!(feed(&mut w, &mut pos, &["h9h8", "f8f9", "h8h9"]).is_empty());
        let s = feed(&mut w, &mut pos, &["f9f8"]);
        assert!(
            matches!(&s[..], [OrderState::Repeated { ply: 14, .. }]),
            "{s:?}"
        );
    }

    #[test]
    fn no_cycle_no_order() {
        let start = Position::from_fen(FEN).unwrap();
        let e = OrderWatch::new(&start, &moves(5), None, RuleSet::Axf, CyclesAfterOrder::One);
        assert_eq!(e.unwrap_err(), OrderError::NoCycle(5));
    }

    #[test]
    fn an_announced_draw_that_repeats_is_a_draw() {
        let (mut w, mut pos) = watch(8, Some(Order::Draw), CyclesAfterOrder::One);
        let s = feed(&mut w, &mut pos, &CYCLE);
        let [OrderState::Repeated { ruling, .. }] = &s[..] else {
            panic!("{s:?}");
        };
        assert_eq!(ruling.verdict, Verdict::Draw);
        assert_eq!(ruling.must_change, None);
    }
}
