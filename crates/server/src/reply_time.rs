//! How long the server itself takes to answer a table's event (应答耗时,
//! issue 40): from the moment a connection's burst of table events takes
//! its place in the committer's queue to the moment its writer has the
//! replies in hand and queues them for the connection's next write —
//! the pipeline (numbering checks, the store's write and sync, the hall's
//! update) and both tasks' waits for a thread. What a table measures
//! beside it (its ack time) also holds the network, the sockets' queues,
//! the QUIC thread's turn and the table's own; the difference between the
//! two says where an ack's time went.
//!
//! The same time is also counted up to the committer's answer
//! ([`ANSWER_TIMES`]: checked, stored, synced, applied, its replies sent
//! to the connection): the rest of [`REPLY_TIMES`] is the writer task's
//! wait to be woken and run.
//!
//! A log-linear histogram of microseconds, counted per event with relaxed
//! atomic adds (one per burst), shared by every connection of the
//! process; `caipan bench hall` reads it before and
//! after its load and reports the difference's percentiles. Buckets 0-15
//! hold 0-15 µs exactly; above, each power of two is cut in eight, so a
//! percentile read as its bucket's upper bound is at most an eighth over.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Buckets: 16 exact ones, then 8 for each power of two from 2^4 to 2^31
/// µs (about 36 minutes; longer counts in the last).
pub const BUCKETS: usize = 16 + 28 * 8;

/// The counts of one process.
#[derive(Debug)]
pub struct ReplyTimes {
    counts: [AtomicU64; BUCKETS],
}

/// This process's reply times: queued to the replies in the writer's
/// hand.
pub static REPLY_TIMES: ReplyTimes = ReplyTimes::new();

/// This process's answer times: queued to the committer's answer.
pub static ANSWER_TIMES: ReplyTimes = ReplyTimes::new();

impl Default for ReplyTimes {
    fn default() -> ReplyTimes {
        ReplyTimes::new()
    }
}

impl ReplyTimes {
    /// Nothing counted.
    pub const fn new() -> ReplyTimes {
        ReplyTimes {
            counts: [const { AtomicU64::new(0) }; BUCKETS],
        }
    }

    /// `events` answered `d` after their burst was queued.
    pub fn record(&self, d: Duration, events: usize) {
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        if let Some(c) = self.counts.get(bucket(us)) {
            c.fetch_add(events as u64, Ordering::Relaxed);
        }
    }

    /// The counts now, bucket by bucket.
    pub fn counts(&self) -> Vec<u64> {
        self.counts
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect()
    }
}

/// The bucket of `us` microseconds.
pub fn bucket(us: u64) -> usize {
    if us < 16 {
        return us as usize;
    }
    let e = 63 - us.leading_zeros() as usize; // 4.. for us >= 16
    let sub = ((us >> (e - 3)) & 7) as usize;
    (16 + (e - 4) * 8 + sub).min(BUCKETS - 1)
}

/// The largest value (µs) bucket `b` holds.
pub fn upper_us(b: usize) -> u64 {
    if b < 16 {
        return b as u64;
    }
    let e = 4 + (b - 16) / 8;
    let sub = ((b - 16) % 8) as u64;
    ((9 + sub) << (e - 3)) - 1
}

/// `after` less `before`, bucket by bucket (what was counted between two
/// readings; a missing bucket counts as 0).
pub fn since(after: &[u64], before: &[u64]) -> Vec<u64> {
    after
        .iter()
        .enumerate()
        .map(|(i, a)| a.saturating_sub(before.get(i).copied().unwrap_or(0)))
        .collect()
}

/// Events counted in `counts`.
pub fn total(counts: &[u64]) -> u64 {
    counts.iter().sum()
}

/// The `p`-th percentile (0..=100) of `counts` in ms, as the upper bound
/// of the bucket it falls in; `None` when nothing was counted.
pub fn percentile_ms(counts: &[u64], p: f64) -> Option<f64> {
    let n = total(counts);
    if n == 0 {
        return None;
    }
    // The rank of the p-th percentile, 1-based: at least the first event.
    let rank = ((p / 100.0) * n as f64).ceil().max(1.0) as u64;
    let mut seen = 0u64;
    for (b, c) in counts.iter().enumerate() {
        seen += c;
        if seen >= rank {
            return Some(upper_us(b) as f64 / 1000.0);
        }
    }
    counts
        .iter()
        .rposition(|&c| c > 0)
        .map(|b| upper_us(b) as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_falls_in_the_bucket_whose_bounds_hold_it() {
        let mut v = 0u64;
        while v < (1u64 << 31) {
            let b = bucket(v);
            assert!(b < BUCKETS, "{v} µs: bucket {b}");
            assert!(v <= upper_us(b), "{v} µs over bucket {b}'s bound");
            if b > 0 {
                assert!(v > upper_us(b - 1), "{v} µs fits bucket {}", b - 1);
            }
            // Past the exact buckets, a bound is at most an eighth over.
            if v >= 16 {
                assert!(upper_us(b) - v <= v / 8, "{v} µs: bound {}", upper_us(b));
            }
            v = v + 1 + v / 37;
        }
        assert_eq!(bucket(u64::MAX), BUCKETS - 1);
    }

    #[test]
    fn percentiles_of_a_reading_count_only_what_came_after_the_first() {
        let times = ReplyTimes::new();
        times.record(Duration::from_secs(5), 10);
        let before = times.counts();
        // 98 events at 2 ms, 1 at 30 ms, a burst of 1 at 400 ms.
        for _ in 0..49 {
            times.record(Duration::from_millis(2), 2);
        }
        times.record(Duration::from_millis(30), 1);
        times.record(Duration::from_millis(400), 1);
        let load = since(&times.counts(), &before);
        assert_eq!(total(&load), 100);
        let p50 = percentile_ms(&load, 50.0).unwrap_or(0.0);
        assert!((2.0..2.3).contains(&p50), "p50 {p50}");
        let p99 = percentile_ms(&load, 99.0).unwrap_or(0.0);
        assert!((30.0..34.0).contains(&p99), "p99 {p99}");
        let max = percentile_ms(&load, 100.0).unwrap_or(0.0);
        assert!((400.0..451.0).contains(&max), "max {max}");
        assert_eq!(percentile_ms(&since(&before, &before), 99.0), None);
    }
}
