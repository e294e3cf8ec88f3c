//! Markers (时间标记, issue 40): when this process's background work ran
//! — a snapshot cut and its save, a WAL checkpoint, a store commit or
//! fsync slower than [`SLOW`], a catch-up or whole snapshot sent to a
//! lagging console, the bench's memory probe — on the wall clock (Unix
//! ms, the clock every process of the machine shares), so that `caipan
//! bench hall` can set them beside its per-second timeline of ack
//! latencies and tell which stall the slow seconds coincide with.
//!
//! Cheap by design: a marker is a name, a start, a length and a count
//! pushed under a short mutex, and only for work that is itself rare or
//! costly (a cut every few seconds, a checkpoint every few minutes, a
//! catch-up that sends a whole table set), never per event. The ring keeps
//! the newest [`CAPACITY`] markers and counts the ones it let go. It lives
//! in the store, the lowest crate of the server's that times anything, so
//! that the store and the server mark on one list.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Markers kept (the oldest let go first): 32 bytes each.
pub const CAPACITY: usize = 4096;

/// A commit or fsync that took longer than this is marked.
pub const SLOW: Duration = Duration::from_millis(10);

/// One moment of background work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marker {
    /// What ran (`snapshot_cut`, `wal_checkpoint`, …).
    pub kind: &'static str,
    /// When it started, Unix ms.
    pub at_unix_ms: u64,
    /// How long it took, ms (0: a moment).
    pub ms: u32,
    /// How much it did (rows, pages, tables: the kind says).
    pub n: u64,
}

struct Ring {
    markers: VecDeque<Marker>,
    dropped: u64,
}

static RING: Mutex<Ring> = Mutex::new(Ring {
    markers: VecDeque::new(),
    dropped: 0,
});

fn ring() -> std::sync::MutexGuard<'static, Ring> {
    RING.lock().unwrap_or_else(|p| p.into_inner())
}

/// Notes `kind` that started at `at` and took `took`, having done `n`.
pub fn record(kind: &'static str, at: SystemTime, took: Duration, n: u64) {
    let m = Marker {
        kind,
        at_unix_ms: at
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        ms: u32::try_from(took.as_millis()).unwrap_or(u32::MAX),
        n,
    };
    let mut r = ring();
    if r.markers.len() >= CAPACITY {
        r.markers.pop_front();
        r.dropped += 1;
    }
    r.markers.push_back(m);
}

/// Notes a moment of `kind` now (no length).
pub fn moment(kind: &'static str, n: u64) {
    record(kind, SystemTime::now(), Duration::ZERO, n);
}

/// A piece of work being timed: [`Span::end`] marks it.
#[derive(Debug, Clone, Copy)]
pub struct Span {
    kind: &'static str,
    at: SystemTime,
    t0: Instant,
}

impl Span {
    /// Starts timing `kind` now.
    pub fn start(kind: &'static str) -> Span {
        Span {
            kind,
            at: SystemTime::now(),
            t0: Instant::now(),
        }
    }

    /// Marks the work as done, having done `n`.
    pub fn end(self, n: u64) {
        record(self.kind, self.at, self.t0.elapsed(), n);
    }

    /// Marks it only if it took longer than `over`; the time it took.
    pub fn end_if_over(self, over: Duration, n: u64) -> Duration {
        let took = self.t0.elapsed();
        if took > over {
            record(self.kind, self.at, took, n);
        }
        took
    }
}

/// The markers kept, oldest first, and how many were let go.
pub fn snapshot() -> (Vec<Marker>, u64) {
    let r = ring();
    (r.markers.iter().copied().collect(), r.dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_keep_their_moment_and_the_ring_is_bounded() {
        // Other tests of this crate mark too (the ring is the process's):
        // look for this test's own kinds.
        let before = SystemTime::now();
        Span::start("test_span").end(7);
        let took = Span::start("test_quick").end_if_over(Duration::from_secs(60), 1);
        assert!(took < Duration::from_secs(60));
        moment("test_moment", 3);
        let (m, _) = snapshot();
        let span = m.iter().rfind(|m| m.kind == "test_span").expect("marked");
        assert_eq!(span.n, 7);
        let t = |s: SystemTime| {
            s.duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64)
        };
        assert!(span.at_unix_ms >= t(before) && span.at_unix_ms <= t(SystemTime::now()));
        assert!(!m.iter().any(|m| m.kind == "test_quick"), "not over 60 s");
        assert!(m
            .iter()
            .any(|m| m.kind == "test_moment" && m.ms == 0 && m.n == 3));
        for i in 0..CAPACITY + 5 {
            moment("test_flood", i as u64);
        }
        let (m, dropped) = snapshot();
        assert_eq!(m.len(), CAPACITY);
        assert!(dropped >= 5);
        // The newest kept, the oldest let go (other tests may mark
        // meanwhile: look at this test's own).
        let flood: Vec<u64> = m
            .iter()
            .filter(|m| m.kind == "test_flood")
            .map(|m| m.n)
            .collect();
        assert_eq!(flood.last(), Some(&((CAPACITY + 4) as u64)));
        assert!(flood.first().is_some_and(|&n| n >= 5));
    }
}
