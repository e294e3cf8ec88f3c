//! Rebuilding the hall from the store on start (重建): the hall is built
//! from the config, restored from its latest snapshot when there is a valid
//! one (`snapshot/`), then every stored record of the current round after
//! the snapshot is applied in store order with the time it was received,
//! exactly as the pipeline applied it live, so the rebuilt state equals the
//! state before the stop or crash.
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

use std::collections::HashMap;

use crate::hall::Hall;
use crate::journal::{Journal, JournalError};
use crate::record::Record;
use crate::snapshot::{Basis, HighWater, Restored};
use crate::store::{LogEntry, Store, StoreError, StoreReader};

// Built from the config by crates/config (the export builds it too).
pub use config::initial::{hall_from_config, time_control};

/// What a rebuild found.
#[derive(Debug, Default)]
pub struct Rebuilt {
    /// Records applied.
    pub records: u64,
    /// Records that could not be decoded (skipped, logged).
    pub corrupt: u64,
    /// Each table's high-water mark `(epoch, seq)`.
    pub high_water: HashMap<u16, (u32, u64)>,
    /// `gseq` of the last log row (0: empty log); the hall holds every row
    /// of the round up to it.
    pub upto_gseq: u64,
    /// The snapshot cut the hall was restored from, with its manifest.
    pub snapshot: Option<(u64, std::collections::BTreeMap<u16, u64>)>,
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
    hall: &mut Hall,
) -> Result<Rebuilt, StoreError> {
    let rows = reader.snapshots().unwrap_or_else(|e| {
        tracing::warn!(error = %e, "snapshots not readable: replaying the round");
        Vec::new()
    });
    let mut r = Replay::start(rows, basis, hall);
    for entry in reader.log_after(r.out.upto_gseq)? {
        r.apply(entry, hall);
    }
    Ok(r.finish(hall))
}

/// [`rebuild_from_store`] through a running store of any kind (SQLite or
/// PostgreSQL), reading the log in pages of [`REBUILD_PAGE`] rows.
pub async fn rebuild_from(
    store: &dyn Store,
    basis: &Basis,
    hall: &mut Hall,
) -> Result<Rebuilt, StoreError> {
    let rows = store.snapshots().await.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "snapshots not readable: replaying the round");
        Vec::new()
    });
    let mut r = Replay::start(rows, basis, hall);
    let mut after = r.out.upto_gseq;
    loop {
        let page = store.log_page(after, REBUILD_PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.gseq();
        for entry in page {
            r.apply(entry, hall);
        }
    }
    Ok(r.finish(hall))
}

/// Log rows read per page by [`rebuild_from`].
pub const REBUILD_PAGE: usize = 10_000;

/// A rebuild in progress: the snapshot restored, rows applied one by one.
struct Replay {
    first: u64,
    hw: HighWater,
    out: Rebuilt,
}

impl Replay {
    fn start(rows: Vec<crate::store::Snapshot>, basis: &Basis, hall: &mut Hall) -> Replay {
        let first = basis.round_first_gseq;
        let mut out = Rebuilt::default();
        let (after, hw) = match crate::snapshot::restore(rows, basis, hall) {
            Restored::Hall {
                upto_gseq,
                high_water,
                manifest,
            } => {
                out.snapshot = Some((upto_gseq, manifest));
                (upto_gseq, high_water)
            }
            // The marks hold up to the cut; the round is replayed from its start.
            Restored::HighWater {
                upto_gseq,
                high_water,
            } => (upto_gseq.min(first.saturating_sub(1)), high_water),
            Restored::Nothing => (0, HighWater::new()),
        };
        out.upto_gseq = after;
        Replay { first, hw, out }
    }

    fn apply(&mut self, entry: LogEntry, hall: &mut Hall) {
        let out = &mut self.out;
        let gseq = entry.gseq();
        out.upto_gseq = gseq;
        let (at, body) = match &entry {
            LogEntry::Event(e) => {
                bump(&mut self.hw, e.key.table, e.key.epoch, e.key.seq);
                (e.received_at_ms.max(0) as u64, &e.payload)
            }
            LogEntry::Audit(a) => (a.record.at_ms.max(0) as u64, &a.record.payload),
        };
        if gseq < self.first {
            out.other_rounds += 1;
            return;
        }
        match Record::decode(body) {
            Ok(rec) => {
                let _ = hall.apply(&rec, at);
                hall.discard_effects();
                out.records += 1;
            }
            Err(e) => {
                tracing::error!(gseq, error = %e, "stored record does not decode; skipped");
                out.corrupt += 1;
            }
        }
    }

    fn finish(self, hall: &mut Hall) -> Rebuilt {
        let Replay { hw, mut out, .. } = self;
        for (n, t) in hall.tables.iter_mut() {
            if let Some(&(epoch, seq)) = hw.get(n) {
                t.epoch = epoch;
                t.high_water = seq;
            }
        }
        out.high_water = hw;
        out
    }
}

/// Applies every stored record to `hall` in store order.
pub fn replay(journal: &mut dyn Journal, hall: &mut Hall) -> Result<Rebuilt, JournalError> {
    let mut out = Rebuilt::default();
    journal.replay(&mut |at, body| match Record::decode(body) {
        Ok(rec) => {
            if let Record::Event(env) = &rec {
                let hw = out.high_water.entry(env.table).or_insert((0, 0));
                if (env.epoch, env.seq) > *hw {
                    *hw = (env.epoch, env.seq);
                }
            }
            let _ = hall.apply(&rec, at);
            // Effects of a replay are not published: consoles get a snapshot.
            hall.discard_effects();
            out.records += 1;
        }
        Err(e) => {
            tracing::error!(error = %e, "stored record does not decode; skipped");
            out.corrupt += 1;
        }
    })?;
    Ok(out)
}
