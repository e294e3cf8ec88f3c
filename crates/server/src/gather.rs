//! Group commit (成批提交) for a busy hall: the committer takes the next
//! batch at most once per [`EVERY`] while the hall is busy, so that a commit
//! carries more records (issue 40).
//!
//! At 10,000 tables × 1 press/s the store's round trip (write and fsync)
//! is under a millisecond, so the committer took a batch of about six
//! events each time: about 1,700 SQLite commits a second, each writing
//! its fixed pages (the table's last leaf, interior pages) beside one
//! index leaf per event, and the committer's and store writer's costs per
//! batch paid 1,700 times. Waiting until [`EVERY`] has passed since the
//! last take before taking again gathers about 20 events a batch there:
//! measured, the store writer's CPU per event 28.6 → 18.2 µs and the
//! committer's 15.2 → 12.0 µs (docs/benchmarks.md), for at most
//! [`EVERY`] more before a record is stored.
//!
//! Only while busy: after a batch of fewer than [`BUSY`] records the next
//! is taken at once, so a quiet hall, or one table sending event after
//! event and waiting for each acknowledgement, never waits. The wait
//! overlaps the store's write and fsync of the batch before, which is in
//! flight meanwhile (`ingest.rs`: two batches in flight).

use std::time::{Duration, Instant};

/// At most one take per this long while busy.
pub const EVERY: Duration = Duration::from_millis(2);

/// A batch of at least this many records means the hall is busy.
pub const BUSY: usize = 4;

/// When the committer may take its next batch.
#[derive(Debug, Clone, Copy)]
pub struct Gather {
    every: Duration,
    last_take: Instant,
    last_len: usize,
}

impl Gather {
    /// A gatherer taking at most once per `every` while busy (`ZERO`: never
    /// waits).
    pub fn new(every: Duration, now: Instant) -> Gather {
        Gather {
            every,
            last_take: now,
            last_len: 0,
        }
    }

    /// How long to wait at `now` before taking the next batch: the rest of
    /// `every` since the last take when that batch was busy, else nothing.
    pub fn wait(&self, now: Instant) -> Duration {
        if self.last_len < BUSY {
            return Duration::ZERO;
        }
        self.every
            .saturating_sub(now.saturating_duration_since(self.last_take))
    }

    /// A batch of `len` records was taken at `now`.
    pub fn taken(&mut self, now: Instant, len: usize) {
        self.last_take = now;
        self.last_len = len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_quiet_hall_never_waits() {
        let t0 = Instant::now();
        let mut g = Gather::new(EVERY, t0);
        assert_eq!(g.wait(t0), Duration::ZERO, "nothing taken yet");
        for len in 0..BUSY {
            g.taken(t0, len);
            assert_eq!(g.wait(t0), Duration::ZERO, "a batch of {len}");
        }
    }

    #[test]
    fn a_busy_hall_takes_at_most_once_per_interval() {
        let t0 = Instant::now();
        let mut g = Gather::new(2 * MS, t0);
        g.taken(t0, BUSY);
        assert_eq!(g.wait(t0), 2 * MS);
        assert_eq!(g.wait(t0 + MS / 2), 3 * MS / 2);
        assert_eq!(g.wait(t0 + 2 * MS), Duration::ZERO);
        assert_eq!(g.wait(t0 + 5 * MS), Duration::ZERO, "long after: at once");
        g.taken(t0 + 5 * MS, 6_000);
        assert_eq!(g.wait(t0 + 6 * MS), MS);
        // A small batch ends the busy spell.
        g.taken(t0 + 7 * MS, 1);
        assert_eq!(g.wait(t0 + 7 * MS), Duration::ZERO);
    }

    #[test]
    fn zero_never_waits() {
        let t0 = Instant::now();
        let mut g = Gather::new(Duration::ZERO, t0);
        g.taken(t0, 10_000);
        assert_eq!(g.wait(t0), Duration::ZERO);
    }
}
