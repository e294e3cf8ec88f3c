//! Rebuilding the hall from the store on start (重建): the hall is built
//! from the config, restored from its latest snapshot when there is a valid
//! one (`snapshot/`), then every stored record of the current round after
//! the snapshot goes through the hall core's one replay loop
//! ([`hall::replay::Replay`], also used by the export and the fuzz target):
//! decoded and applied in store order with the time it was received,
//! exactly as the pipeline applied it live, so the rebuilt state equals the
//! state before the stop or crash.
//!
//! Faults are never silent: a stored record that does not decode stops the
//! rebuild with [`RebuildError::Undecodable`] naming its `gseq` (the server
//! does not start). Only when the operator asks for it (`caipan serve
//! --quarantine-undecodable`, [`Quarantine::SetAside`]) is such a record
//! set aside and listed in [`Rebuilt::quarantined`]; the server then
//! stores a note for each, which raises a hall-wide alert.
//!
//! Rounds: records before the round's first `gseq` (from
//! `hall-rounds.json`, see crates/export/src/stored.rs) belong to earlier
//! rounds and are not applied to this round's tables; their event keys
//! still count for the tables' high-water marks (a terminal of the new
//! round continues the numbering the store holds).
//!
//! The hall of the config (tables and pairings of the current round, the
//! time control and the rule parameters) is built by crates/config
//! ([`hall_from_config`], re-exported here).

use std::collections::BTreeMap;

use hall::replay::{Replay, ReplayError};

use crate::snapshot::{Basis, HighWater, Restored};
use hall::hall::Hall;
use store::{LogEntry, Store, StoreError, StoreReader};

// Built from the config by crates/config (the export builds it too).
pub use config::initial::hall_from_config;

/// What to do with a stored record that does not decode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Quarantine {
    /// Stop: the rebuild fails naming the record's `gseq` (the default).
    #[default]
    Refuse,
    /// Set it aside, log it, and go on (`--quarantine-undecodable`).
    SetAside,
}

/// Why a rebuild failed.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    /// The store could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored record does not decode (and was not to be set aside).
    #[error("{0}; the hall cannot be rebuilt as it was acknowledged (to start without that record, set it aside with `caipan serve --quarantine-undecodable`)")]
    Undecodable(#[from] ReplayError),
}

/// What a rebuild found.
#[derive(Debug)]
pub struct Rebuilt {
    /// The rebuilt hall.
    pub hall: Hall,
    /// Records applied (after the snapshot, if any).
    pub records: u64,
    /// Records that do not decode, set aside ([`Quarantine::SetAside`]
    /// only), in store order.
    pub quarantined: Vec<ReplayError>,
    /// Each table's high-water mark `(epoch, seq)`.
    pub high_water: HighWater,
    /// `gseq` of the last log row (0: empty log); the hall holds every row
    /// of the round up to it.
    pub upto_gseq: u64,
    /// The snapshot cut the hall was restored from, with its manifest.
    pub snapshot: Option<(u64, BTreeMap<u16, u64>)>,
    /// Rows of earlier rounds passed over.
    pub other_rounds: u64,
}

fn bump(hw: &mut HighWater, table: u32, epoch: u32, seq: u64) {
    let Ok(t) = u16::try_from(table) else {
        return;
    };
    let m = hw.entry(t).or_insert((0, 0));
    if (epoch, seq) > *m {
        *m = (epoch, seq);
    }
}

/// Rebuilds `hall` (fresh from the config) from the store: from the latest
/// valid snapshot for `basis` plus the rows after it, else by replaying the
/// round (`basis.round_first_gseq` on). Each table's epoch and high-water
/// mark are the store's, every round included.
pub fn rebuild_from_store(
    reader: &StoreReader,
    basis: &Basis,
    hall: Hall,
    quarantine: Quarantine,
) -> Result<Rebuilt, RebuildError> {
    let rows = reader.snapshots().unwrap_or_else(|e| {
        tracing::warn!(error = %e, "snapshots not readable: replaying the round");
        Vec::new()
    });
    let mut r = Rebuild::start(rows, basis, hall, quarantine);
    let log = reader.log_after(r.upto_gseq)?;
    r.feed(log)?;
    Ok(r.finish())
}

/// [`rebuild_from_store`] through a running store of any kind (SQLite or
/// PostgreSQL), reading the log in pages of [`REBUILD_PAGE`] rows.
pub async fn rebuild_from(
    store: &dyn Store,
    basis: &Basis,
    hall: Hall,
    quarantine: Quarantine,
) -> Result<Rebuilt, RebuildError> {
    let rows = store.snapshots().await.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "snapshots not readable: replaying the round");
        Vec::new()
    });
    let mut r = Rebuild::start(rows, basis, hall, quarantine);
    loop {
        let page = store.log_page(r.upto_gseq, REBUILD_PAGE).await?;
        if page.is_empty() {
            break;
        }
        r.feed(page)?;
    }
    Ok(r.finish())
}

/// Log rows read per page by [`rebuild_from`].
pub const REBUILD_PAGE: usize = 10_000;

/// `(gseq, received at ms, bytes)` of a log row, as [`Replay`] takes it.
pub fn log_item(entry: LogEntry) -> (u64, u64, Vec<u8>) {
    match entry {
        LogEntry::Event(e) => (e.gseq, e.received_at_ms.max(0) as u64, e.payload),
        LogEntry::Audit(a) => (a.id, a.record.at_ms.max(0) as u64, a.record.payload),
    }
}

/// A rebuild in progress: the snapshot restored, the log fed page by page
/// to the hall core's replay.
struct Rebuild {
    first: u64,
    hw: HighWater,
    replay: Replay,
    upto_gseq: u64,
    snapshot: Option<(u64, BTreeMap<u16, u64>)>,
    other_rounds: u64,
}

impl Rebuild {
    fn start(
        rows: Vec<store::Snapshot>,
        basis: &Basis,
        mut hall: Hall,
        quarantine: Quarantine,
    ) -> Rebuild {
        let first = basis.round_first_gseq;
        let mut snapshot = None;
        let (after, hw) = match crate::snapshot::restore(rows, basis, &mut hall) {
            Restored::Hall {
                upto_gseq,
                high_water,
                manifest,
            } => {
                snapshot = Some((upto_gseq, manifest));
                (upto_gseq, high_water)
            }
            // The marks hold up to the cut; the round is replayed from its start.
            Restored::HighWater {
                upto_gseq,
                high_water,
            } => (upto_gseq.min(first.saturating_sub(1)), high_water),
            Restored::Nothing => (0, HighWater::default()),
        };
        Rebuild {
            first,
            hw,
            replay: Replay::new(hall).quarantine(quarantine == Quarantine::SetAside),
            upto_gseq: after,
            snapshot,
            other_rounds: 0,
        }
    }

    /// Feeds log rows in store order: every event counts for its table's
    /// high-water mark; rows of earlier rounds are passed over, the rest
    /// replayed.
    fn feed(&mut self, rows: Vec<LogEntry>) -> Result<(), ReplayError> {
        let Rebuild {
            first,
            hw,
            replay,
            upto_gseq,
            other_rounds,
            ..
        } = self;
        let items = rows.into_iter().filter_map(|entry| {
            *upto_gseq = entry.gseq();
            if let LogEntry::Event(e) = &entry {
                bump(hw, e.key.table, e.key.epoch, e.key.seq);
            }
            if entry.gseq() < *first {
                *other_rounds += 1;
                return None;
            }
            Some(log_item(entry))
        });
        replay.feed(items)
    }

    fn finish(self) -> Rebuilt {
        let replayed = self.replay.finish();
        let mut hall = replayed.hall;
        for (&n, &(epoch, seq)) in &self.hw {
            hall.set_high_water(n, epoch, seq);
        }
        Rebuilt {
            hall,
            records: replayed.records,
            quarantined: replayed.quarantined,
            high_water: self.hw,
            upto_gseq: self.upto_gseq,
            snapshot: self.snapshot,
            other_rounds: self.other_rounds,
        }
    }
}
