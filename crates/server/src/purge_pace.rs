//! When the heap gives freed pages back to the OS (释放节奏, issue 40):
//! soon in a quiet hall, later while a flood of events comes in. The
//! committer says which ([`Pace`]); the binary, which chose the allocator,
//! does it (a hook, as `give_back.rs`: `caipan/src/malloc.rs` sets
//! mimalloc's purge delay).
//!
//! Why: mimalloc gives a freed span back to the OS 10 ms after it was
//! freed. A flood's batches hold thousands of submissions, and their
//! vectors (submissions, plans, entries, the store's rows and answers,
//! the hall's public events) are hundreds of KiB each, made and freed
//! every batch, about every 15 ms: each batch's memory went back to the OS
//! and was faulted in again by the next (8-12 % of the committer's and the
//! store writer's samples in page faults). Keeping freed spans a second
//! took 11-15 % off the flood's server CPU per event, but held 15-20 MiB
//! more at 10,000 tables × 1 press/s, where batches hold about 20 events
//! and nothing is gained (docs/benchmarks.md). So the long delay holds
//! only while batches are large, and ends a second after the last large
//! one or as soon as the committer waits for work.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A batch of at least this many submissions is a flood's: its vectors
/// are beyond the allocator's small pages (a submission is over 100
/// bytes), freed and made again every batch.
pub const LARGE_BATCH: usize = 1_024;

/// The flood is over this long after its last large batch.
pub const HOLD: Duration = Duration::from_secs(1);

static HOOK: OnceLock<fn(bool)> = OnceLock::new();

/// Sets what [`set_flooded`] calls (once; later calls are ignored).
pub fn set_hook(hook: fn(bool)) {
    let _ = HOOK.set(hook);
}

/// Tells the allocator, if the binary said how, that a flood began
/// (`true`: keep freed pages a while) or ended (`false`: give them back
/// soon).
pub fn set_flooded(flooded: bool) {
    if let Some(hook) = HOOK.get() {
        hook(flooded);
    }
}

/// The committer's view of the load: flooded from a large batch until
/// [`HOLD`] has passed without one, or until it waits for work.
#[derive(Debug, Default, Clone, Copy)]
pub struct Pace {
    /// When the last large batch was taken, while flooded.
    last_large: Option<Instant>,
}

impl Pace {
    /// A batch of `len` submissions was taken at `now`; `Some(flooded)`
    /// when that changes the pace.
    pub fn taken(&mut self, now: Instant, len: usize) -> Option<bool> {
        if len >= LARGE_BATCH {
            let began = self.last_large.is_none();
            self.last_large = Some(now);
            return began.then_some(true);
        }
        match self.last_large {
            Some(at) if now.saturating_duration_since(at) >= HOLD => self.idle(),
            _ => None,
        }
    }

    /// The committer is about to wait for work: `Some(false)` if that
    /// ends a flood.
    pub fn idle(&mut self) -> Option<bool> {
        self.last_large.take().map(|_| false)
    }

    /// Whether a flood is on.
    pub fn flooded(&self) -> bool {
        self.last_large.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_quiet_hall_never_floods() {
        let t0 = Instant::now();
        let mut p = Pace::default();
        for (i, len) in [0, 1, 20, LARGE_BATCH - 1].into_iter().enumerate() {
            assert_eq!(p.taken(t0 + MS * i as u32, len), None, "a batch of {len}");
        }
        assert!(!p.flooded());
        assert_eq!(p.idle(), None, "waiting for work changes nothing");
    }

    #[test]
    fn a_large_batch_begins_a_flood_once() {
        let t0 = Instant::now();
        let mut p = Pace::default();
        assert_eq!(p.taken(t0, LARGE_BATCH), Some(true));
        assert!(p.flooded());
        assert_eq!(p.taken(t0 + 15 * MS, 8_000), None, "still flooded");
        // A flood's batches alternate in size: a small one says nothing.
        assert_eq!(p.taken(t0 + 20 * MS, 3), None);
        assert!(p.flooded());
    }

    #[test]
    fn a_flood_ends_a_hold_after_its_last_large_batch() {
        let t0 = Instant::now();
        let mut p = Pace::default();
        p.taken(t0, 5_000);
        let last = t0 + 500 * MS;
        assert_eq!(p.taken(last, 5_000), None);
        assert_eq!(p.taken(last + HOLD - MS, 10), None, "within the hold");
        assert_eq!(p.taken(last + HOLD, 10), Some(false));
        assert!(!p.flooded());
        assert_eq!(p.taken(last + HOLD + MS, 10), None, "ended once");
        assert_eq!(p.taken(last + 2 * HOLD, LARGE_BATCH), Some(true), "again");
    }

    #[test]
    fn waiting_for_work_ends_a_flood_at_once() {
        let t0 = Instant::now();
        let mut p = Pace::default();
        p.taken(t0, 2_000);
        assert_eq!(p.idle(), Some(false));
        assert_eq!(p.idle(), None);
        assert!(!p.flooded());
    }

    #[test]
    fn every_sequence_of_batches_alternates_begin_and_end() {
        // Exhaustive over short sequences: the changes reported always
        // alternate (begin, end, begin, ...), begin only on a large batch,
        // and the state always agrees with the last change.
        let steps = [
            (0u32, 10usize),
            (0, LARGE_BATCH),
            (1_100, 10),
            (1_100, LARGE_BATCH),
            (0, usize::MAX), // idle
        ];
        let n = steps.len();
        for code in 0..n.pow(6) {
            let t0 = Instant::now();
            let (mut p, mut now, mut state, mut c) = (Pace::default(), t0, false, code);
            for _ in 0..6 {
                let (dt, len) = steps[c % n];
                c /= n;
                now += MS * dt;
                let change = if len == usize::MAX {
                    p.idle()
                } else {
                    p.taken(now, len)
                };
                if let Some(f) = change {
                    assert_ne!(f, state, "code {code}: a change that changes nothing");
                    assert!(
                        !f || len >= LARGE_BATCH,
                        "code {code}: begun by a small batch"
                    );
                    state = f;
                }
                assert_eq!(p.flooded(), state, "code {code}");
            }
        }
    }
}
