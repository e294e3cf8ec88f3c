//! The connections' deadlines in a QUIC shell: one heap of (deadline,
//! connection) for all of them. A connection whose deadline moved pushes
//! the new one; an entry that no longer matches its connection's armed
//! deadline is stale and skipped when it comes up, and the heap is
//! compacted once stale entries outnumber the connections. Shared by the
//! server's shell (`driver.rs`) and the raw baseline's echo shell.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

/// The heap; each connection keeps its own armed deadline
/// (`Option<Instant>`), which the callers' lookups return.
#[derive(Debug, Default)]
pub struct Timers {
    heap: BinaryHeap<Reverse<(Instant, usize)>>,
}

impl Timers {
    /// Sets connection `h`'s deadline (`armed` its own record of it) to
    /// what its state machine asks now.
    pub fn arm(&mut self, h: usize, armed: &mut Option<Instant>, deadline: Option<Instant>) {
        match deadline {
            Some(at) if *armed != Some(at) => {
                *armed = Some(at);
                self.heap.push(Reverse((at, h)));
            }
            Some(_) => {}
            None => *armed = None,
        }
    }

    /// The next connection whose deadline is at or before `now`.
    /// `take(h, at)` is true if connection `h` is live with `at` armed, and
    /// clears its armed deadline (it is to be handled): [`disarm`].
    pub fn pop_due(
        &mut self,
        now: Instant,
        mut take: impl FnMut(usize, Instant) -> bool,
    ) -> Option<usize> {
        while let Some(&Reverse((at, h))) = self.heap.peek() {
            if at > now {
                return None;
            }
            self.heap.pop();
            if take(h, at) {
                return Some(h);
            }
        }
        None
    }

    /// The earliest live deadline (stale entries on top are dropped).
    pub fn next_deadline(&mut self, armed: impl Fn(usize) -> Option<Instant>) -> Option<Instant> {
        while let Some(&Reverse((at, h))) = self.heap.peek() {
            if armed(h) == Some(at) {
                return Some(at);
            }
            self.heap.pop();
        }
        None
    }

    /// Drops the stale entries once they outnumber the `live` connections.
    pub fn compact(&mut self, live: usize, armed: impl Fn(usize) -> Option<Instant>) {
        if self.heap.len() > 2 * live + 1024 {
            self.heap.retain(|Reverse((at, h))| armed(*h) == Some(*at));
        }
    }
}

/// For [`Timers::pop_due`]: true if `armed` (a live connection's) is
/// `at`, then cleared.
pub fn disarm(armed: Option<&mut Option<Instant>>, at: Instant) -> bool {
    match armed {
        Some(a) if *a == Some(at) => {
            *a = None;
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn only_the_armed_deadline_fires_and_stale_ones_are_skipped() {
        let t0 = Instant::now();
        let mut timers = Timers::default();
        let mut armed = [None, None];
        timers.arm(0, &mut armed[0], Some(t0 + Duration::from_millis(10)));
        timers.arm(1, &mut armed[1], Some(t0 + Duration::from_millis(20)));
        // Connection 0's deadline moves later: its first entry is stale.
        timers.arm(0, &mut armed[0], Some(t0 + Duration::from_millis(30)));
        let look = |a: &[Option<Instant>; 2], h: usize| a.get(h).copied().flatten();
        assert_eq!(
            timers.next_deadline(|h| look(&armed, h)),
            Some(t0 + Duration::from_millis(20))
        );
        let now = t0 + Duration::from_millis(25);
        let mut fired = Vec::new();
        while let Some(h) = timers.pop_due(now, |h, at| disarm(armed.get_mut(h), at)) {
            fired.push(h);
        }
        assert_eq!(fired, vec![1]);
        assert_eq!(armed, [Some(t0 + Duration::from_millis(30)), None]);
        let later = t0 + Duration::from_millis(40);
        assert_eq!(
            timers.pop_due(later, |h, at| disarm(armed.get_mut(h), at)),
            Some(0)
        );
        assert_eq!(timers.next_deadline(|h| look(&armed, h)), None);
    }
}
