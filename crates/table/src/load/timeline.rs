//! The load's per-second timeline (issue 40): the acks' and the consoles'
//! latencies grouped by the second of the measured window in which their
//! press was sent (second 0 starts at the first press), so that a run's
//! tail can be told apart: a few slow seconds (a stall) or a spread over
//! all of them. Each second keeps its own [`Samples`]; between processes
//! a second travels as a small histogram ([`Timeline::to_buckets`],
//! [`SECOND_BITS`] significant bits: a few hundred pairs at most in
//! practice, one per second of a run bounded by its `--duration`), and
//! the seconds of every process are merged one by one
//! ([`Timeline::merge`]).

use super::stats::Samples;
use std::time::Duration;

/// Significant bits a second's histogram keeps between processes: values
/// rounded down by under 0.8 %.
pub const SECOND_BITS: u32 = 8;

/// Seconds a timeline holds at most (a press time read from a clock
/// further out counts in the last one).
pub const MAX_SECONDS: usize = 24 * 3600;

/// Latency samples by second.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    seconds: Vec<Samples>,
}

/// One second's figures.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Second {
    /// Samples (acks, or console deltas) of presses sent in that second.
    pub count: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl Timeline {
    /// Adds a latency `d` of a press sent in `second`.
    pub fn push(&mut self, second: usize, d: Duration) {
        self.at(second).push(d);
    }

    /// The samples of `second` (made if missing; clamped to
    /// [`MAX_SECONDS`]).
    fn at(&mut self, second: usize) -> &mut Samples {
        let second = second.min(MAX_SECONDS - 1);
        if self.seconds.len() <= second {
            self.seconds.resize_with(second + 1, Samples::default);
        }
        &mut self.seconds[second]
    }

    /// Adds another timeline's samples, second by second (another
    /// process's, another table's).
    pub fn merge(&mut self, other: Timeline) {
        for (i, s) in other.seconds.into_iter().enumerate() {
            if !s.is_empty() {
                self.at(i).extend(s);
            }
        }
    }

    /// Seconds held (the last one with a sample, plus one).
    pub fn len(&self) -> usize {
        self.seconds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seconds.is_empty()
    }

    /// Every second's samples as `(µs, count)` pairs of
    /// [`SECOND_BITS`] significant bits.
    pub fn to_buckets(&self) -> Vec<Vec<(u32, u64)>> {
        self.seconds
            .iter()
            .map(|s| s.buckets_with(SECOND_BITS))
            .collect()
    }

    /// [`Timeline::to_buckets`] back (at most [`MAX_SECONDS`]).
    pub fn from_buckets(seconds: Vec<Vec<(u32, u64)>>) -> Timeline {
        let mut t = Timeline::default();
        for (i, pairs) in seconds.into_iter().enumerate().take(MAX_SECONDS) {
            for (us, count) in pairs {
                t.at(i).push_bucket(us, count);
            }
        }
        t
    }

    /// Each second's count and percentiles, `seconds` of them (a second
    /// without a sample is all zero).
    pub fn summary(&mut self, seconds: usize) -> Vec<Second> {
        (0..seconds)
            .map(|i| match self.seconds.get_mut(i) {
                Some(s) => Second {
                    count: s.len(),
                    p50_ms: s.percentile_ms(50.0),
                    p99_ms: s.percentile_ms(99.0),
                    max_ms: s.max_ms(),
                },
                None => Second::default(),
            })
            .collect()
    }
}

/// The `n` worst seconds by p99 (then by max, then the earlier), as
/// `(second, its figures)`, worst first; seconds without samples never.
pub fn worst(seconds: &[Second], n: usize) -> Vec<(usize, Second)> {
    let mut v: Vec<(usize, Second)> = seconds
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, s)| s.count > 0)
        .collect();
    v.sort_by(|(ia, a), (ib, b)| {
        b.p99_ms
            .total_cmp(&a.p99_ms)
            .then(b.max_ms.total_cmp(&a.max_ms))
            .then(ia.cmp(ib))
    });
    v.truncate(n);
    v
}

/// The second of the window in which something sent `since_start` after
/// the window's start falls.
pub fn second_of(since_start: Duration) -> usize {
    usize::try_from(since_start.as_secs())
        .unwrap_or(usize::MAX)
        .min(MAX_SECONDS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn two_processes_merge_second_by_second_through_their_histograms() {
        // Process A: second 0 quiet, second 2 one stall; B: second 1 only.
        let mut a = Timeline::default();
        for _ in 0..99 {
            a.push(0, ms(2));
        }
        a.push(0, ms(3));
        for _ in 0..98 {
            a.push(2, ms(2));
        }
        a.push(2, ms(900));
        a.push(2, ms(1200));
        let mut b = Timeline::default();
        for i in 0..50 {
            b.push(1, ms(1 + i % 5));
        }
        // What each process sends, read back by the parent.
        let mut merged = Timeline::from_buckets(a.to_buckets());
        merged.merge(Timeline::from_buckets(b.to_buckets()));
        assert_eq!(merged.len(), 3);
        let s = merged.summary(4);
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].count, 100);
        assert_eq!(s[1].count, 50);
        assert_eq!(s[2].count, 100);
        assert_eq!(s[3], Second::default());
        // Rounded down by under 1/128 at 8 bits (2 ms = 250 × 8 µs exact).
        let near = |got: f64, want: f64| got <= want && got >= want * (1.0 - 1.0 / 128.0);
        assert_eq!(s[0].p50_ms, 2.0);
        assert!(near(s[0].max_ms, 3.0), "{s:?}");
        assert!(near(s[1].max_ms, 5.0), "{s:?}");
        assert!(near(s[2].p99_ms, 900.0), "{s:?}");
        assert!(near(s[2].max_ms, 1200.0), "{s:?}");
        assert_eq!(s[2].p50_ms, 2.0);
        // The stall's second is the worst, then the quiet ones by p99.
        let w = worst(&s, 5);
        assert_eq!(w.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [2, 1, 0]);
    }

    #[test]
    fn merging_adds_into_the_same_second_and_keeps_every_sample() {
        let mut a = Timeline::default();
        a.push(1, ms(10));
        let mut b = Timeline::default();
        b.push(1, ms(30));
        b.push(4, ms(7));
        a.merge(b);
        let s = a.summary(5);
        assert_eq!(s.iter().map(|x| x.count).sum::<usize>(), 3);
        assert_eq!(s[1].count, 2);
        assert_eq!(s[1].max_ms, 30.0);
        assert_eq!(s[4].p99_ms, 7.0);
        assert_eq!(s[0].count, 0);
    }

    #[test]
    fn ties_go_by_max_then_the_earlier_second_and_far_seconds_are_clamped() {
        let one = |p99: f64, max: f64| Second {
            count: 1,
            p50_ms: 1.0,
            p99_ms: p99,
            max_ms: max,
        };
        let s = [
            one(5.0, 6.0),
            one(5.0, 9.0),
            one(5.0, 6.0),
            Second::default(),
        ];
        let w: Vec<usize> = worst(&s, 2).into_iter().map(|(i, _)| i).collect();
        assert_eq!(w, [1, 0]);
        assert_eq!(second_of(Duration::from_millis(2_999)), 2);
        let mut t = Timeline::default();
        t.push(usize::MAX, ms(1));
        assert_eq!(t.len(), MAX_SECONDS);
        assert_eq!(second_of(Duration::MAX), MAX_SECONDS - 1);
    }
}
