//! What one table's state costs in memory (台位内存): an estimate of the
//! bytes a [`TableState`] holds, inline and on the heap, so that the soak
//! bench can report bytes per table measured on the state itself (issue
//! 20) rather than only inferred from the server's RSS.
//!
//! Collections count their capacity (what is allocated, not what is
//! used); hash sets count a control byte per bucket as hashbrown does. The
//! rulebook's repetition watch is private to it: it is counted from what it
//! holds by design, the moves, keys and counts of the capture-free stretch
//! (its classification memo, filled only at a third occurrence, is not).

use std::mem::size_of;

use proto::{ControlToTable, TableStatus};

use super::{Raised, TableState};

/// Heap bytes of a hash set of `capacity` entries of `T` (hashbrown: one
/// control byte per bucket besides the entry).
fn set_bytes<T>(capacity: usize) -> usize {
    capacity * (size_of::<T>() + 1)
}

impl TableState {
    /// Estimated bytes this table's state holds, inline and on the heap.
    pub fn approx_bytes(&self) -> usize {
        let b = &self.board;
        let stretch = b.moves.len().saturating_sub(b.stretch_start);
        let status = |s: &TableStatus| match s {
            TableStatus::Finished { reason, .. } => reason.capacity(),
            _ => 0,
        };
        // A start of its own (not the standard position, which is shared).
        let own_start = usize::from(std::sync::Arc::strong_count(&b.start) == 1);
        size_of::<TableState>()
            + own_start * size_of::<xiangqi::Position>()
            + self.order.as_ref().map_or(0, |_| size_of::<super::order::TableOrder>())
            + self.move_limit.as_ref().map_or(0, |_| size_of::<super::move_limit::DeclaredLimit>())
            + self.red.capacity()
            + self.black.capacity()
            + b.moves.capacity() * size_of::<xiangqi::Move>()
            + b.keys.capacity() * size_of::<u64>()
            // The repetition watch: a move, a key and a count per ply of the stretch.
            + stretch * (size_of::<xiangqi::Move>() + 2 * size_of::<u64>() + size_of::<u32>() + 1)
            + set_bytes::<u64>(self.repetition_alerted.capacity())
            + set_bytes::<Raised>(self.raised.capacity())
            + self.clock_history.heap_bytes()
            + self.ply_clocks.heap_bytes()
            + self.pending_controls.capacity() * size_of::<(u64, ControlToTable)>()
            + self.sealed.as_ref().map_or(0, |s| size_of::<super::Sealed>() + s.by.capacity())
            + status(&self.status)
            + self.before_pause.as_ref().map_or(0, |s| size_of::<TableStatus>() + status(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulebook::RuleParams;

    #[test]
    fn grows_with_the_game_and_its_clock_history_only() {
        let params = RuleParams::default();
        let mut t = TableState::new(1, "红", "黑", 60_000, 0, &params);
        let fresh = t.approx_bytes();
        assert!(fresh >= size_of::<TableState>());
        for at in 0..10_000 {
            t.sample_clock(at);
        }
        let sampled = t.approx_bytes();
        assert!(sampled > fresh);
        assert!(
            sampled - fresh <= super::super::MAX_CLOCK_HISTORY * 8,
            "the clock history is capped: {fresh} -> {sampled}"
        );
    }

    /// Issue 40: a clock sample is kept in a few bytes (40 as the wire's
    /// `ClockSample`, 16 in the packed form before): the history's bytes
    /// after `n` presses a second apart.
    #[test]
    fn the_clock_history_costs_a_few_bytes_a_sample() {
        let params = RuleParams::default();
        let t0 = 1_764_900_000_000;
        // The first sample whole and the rest as changes (5 bytes each
        // here), in a buffer that doubles: 16 bytes a sample before.
        let whole = 120;
        for (n, most) in [
            (20, whole + 128),
            (60, whole + 512),
            (256, whole + 2_048),
            (10_000, whole + 2_048),
        ] {
            let mut t = TableState::new(1, "红", "黑", 600_000, 0, &params);
            let fresh = t.approx_bytes();
            for i in 0..n {
                t.sample_clock(t0 + i * 1_000);
            }
            let grown = t.approx_bytes() - fresh;
            assert_eq!(grown, t.clock_history.heap_bytes());
            assert!(grown <= most, "{n} samples: {grown} bytes (at most {most})");
        }
    }

    /// Issue 40: 10,000 tables each hold one; the order, the status
    /// before a pause, the sealed move and a declared move limit (all rare)
    /// are boxed and the standard start position shared (2,928 bytes
    /// before). With the `Arc`'s two counts it fits mimalloc's 1,792-byte
    /// class (1,888 took a 2,048-byte block).
    #[test]
    fn a_table_state_stays_small_and_shares_the_standard_start() {
        assert!(
            size_of::<TableState>() + 16 <= 1_792,
            "a TableState is {} bytes",
            size_of::<TableState>()
        );
        let params = RuleParams::default();
        let a = TableState::new(1, "红", "黑", 60_000, 0, &params);
        let b = TableState::new(2, "红", "黑", 60_000, 0, &params);
        assert!(std::sync::Arc::ptr_eq(&a.board.start, &b.board.start));
        assert_eq!(*a.board.start, xiangqi::Position::new());
        let other = xiangqi::Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
            .expect("a legal position");
        let c = super::super::board::BoardTracker::new(other.clone());
        assert_eq!(*c.start, other);
        assert!(!std::sync::Arc::ptr_eq(&a.board.start, &c.start));
    }
}
