//! Where the committer's time goes (流水线分段计时): wall-clock time per
//! stage of the pipeline, summed over batches, for `caipan bench hall`'s
//! per-stage breakdown.
//!
//! The committer (`ingest.rs`) reads the clock a few times per batch, not
//! per record (a batch under flood holds thousands), so the cost of
//! measuring stays far below what it measures. The figures are sums since
//! the start; a reader takes two [`StageFigures`] and subtracts
//! ([`StageFigures::since`]). What happens on the connection tasks (QUIC,
//! TLS, framing, decoding, authorisation, writing replies) is not timed
//! here: the bench reads those threads' CPU time from `/proc` instead.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The committer's stages, in the order a batch goes through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Numbering checks (duplicates, order) and encoding the records.
    Plan,
    /// Waiting for the store: the batch written and synced.
    Store,
    /// Applying the stored records to the hall and answering submitters.
    Apply,
    /// Handing the hall's deltas to the consoles and controls to tables.
    Publish,
    /// The snapshotter's turn after the batch (a cut when one is due).
    Snapshot,
}

impl Stage {
    /// Every stage, in pipeline order.
    pub const ALL: [Stage; 5] = [
        Stage::Plan,
        Stage::Store,
        Stage::Apply,
        Stage::Publish,
        Stage::Snapshot,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Plan => "plan",
            Stage::Store => "store",
            Stage::Apply => "apply",
            Stage::Publish => "publish",
            Stage::Snapshot => "snapshot",
        }
    }
}

/// Running sums, shared by the committer (writes) and readers.
#[derive(Debug, Default)]
pub struct Stages {
    batches: AtomicU64,
    records: AtomicU64,
    nanos: [AtomicU64; 5],
}

impl Stages {
    /// Counts a batch of `records` submissions.
    pub fn batch(&self, records: usize) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.records.fetch_add(records as u64, Ordering::Relaxed);
    }

    /// Adds the time since `from` to `stage`; returns now (the next
    /// stage's start).
    pub fn lap(&self, stage: Stage, from: Instant) -> Instant {
        let now = Instant::now();
        let ns = u64::try_from(now.duration_since(from).as_nanos()).unwrap_or(u64::MAX);
        self.nanos[stage as usize].fetch_add(ns, Ordering::Relaxed);
        now
    }

    /// The sums now.
    pub fn figures(&self) -> StageFigures {
        StageFigures {
            batches: self.batches.load(Ordering::Relaxed),
            records: self.records.load(Ordering::Relaxed),
            nanos: std::array::from_fn(|i| self.nanos[i].load(Ordering::Relaxed)),
        }
    }
}

/// The sums at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageFigures {
    /// Batches committed.
    pub batches: u64,
    /// Submissions in them.
    pub records: u64,
    /// Nanoseconds per stage, indexed by `Stage as usize`.
    pub nanos: [u64; 5],
}

impl StageFigures {
    /// What happened between `earlier` and `self`.
    pub fn since(&self, earlier: &StageFigures) -> StageFigures {
        StageFigures {
            batches: self.batches.saturating_sub(earlier.batches),
            records: self.records.saturating_sub(earlier.records),
            nanos: std::array::from_fn(|i| self.nanos[i].saturating_sub(earlier.nanos[i])),
        }
    }

    /// Nanoseconds spent in `stage`.
    pub fn nanos_of(&self, stage: Stage) -> u64 {
        self.nanos[stage as usize]
    }

    /// Microseconds of `stage` per event, over `events` events.
    pub fn us_per_event(&self, stage: Stage, events: u64) -> f64 {
        if events == 0 {
            return 0.0;
        }
        self.nanos_of(stage) as f64 / 1e3 / events as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_add_up_per_stage_and_subtract() {
        let s = Stages::default();
        let before = s.figures();
        s.batch(3);
        let t0 = Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let t1 = s.lap(Stage::Store, t0);
        s.lap(Stage::Apply, t1);
        let d = s.figures().since(&before);
        assert_eq!((d.batches, d.records), (1, 3));
        assert!(d.nanos_of(Stage::Store) >= 2_000_000, "{d:?}");
        assert!(d.nanos_of(Stage::Store) > d.nanos_of(Stage::Apply));
        assert_eq!(d.nanos_of(Stage::Plan), 0);
        assert!(d.us_per_event(Stage::Store, 2) >= 1_000.0);
        assert_eq!(d.us_per_event(Stage::Store, 0), 0.0);
    }
}
