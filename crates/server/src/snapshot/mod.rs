//! Snapshots (快照) keep restart fast: the hall's state at a *cut* (every
//! log row up to `upto_gseq` applied) is saved in the store, and a restart
//! loads it and replays only the rows after the cut.
//!
//! A cut is stored as one row per table of the round (`table_no` = the
//! table, its [`state::TableSnap`]) and one hall row (`table_no` =
//! [`HALL_ROW`], the [`state::HallSnap`]: alerts, claims, audit, id
//! counters, the hall pause, the store's high-water marks, and the
//! *manifest* naming, for every table, the `upto_gseq` of the row holding
//! its state at this cut). A cut rewrites only the rows of the tables that
//! changed since their last row, then the hall row, so a quiet table costs
//! nothing. Alert, claim, audit and control ids are numbered across the
//! whole hall, so tables cannot be restored from rows of different cuts:
//! the manifest ties them to one cut.
//!
//! A snapshot is a cache and can never lose or change acknowledged state:
//! - it is taken after its rows are committed and applied, under the hall
//!   lock, so it holds exactly the rows up to its cut;
//! - every row carries a format version and a checksum ([`codec`]); a row
//!   of another version, a corrupt row, a row missing from the manifest, a
//!   snapshot of another config or round: the server logs a warning and
//!   replays the round from the log instead (never a failed start);
//! - the hall row is written last, so a crash in the middle of a cut
//!   leaves a manifest that does not match the table rows, and the next
//!   start replays the round.
//!
//! When: by [`Policy`], after a batch in which a table passed
//! `table_records` records since its last row or the hall passed its
//! trigger ([`Policy::hall_trigger`]: `hall_records`, or
//! `records_per_table` per table of a larger hall) since the last cut
//! (saved in the background, one cut at a time, and no sooner than
//! `least_gap` after the cut before), at start after a long replay, and
//! at a clean shutdown.

pub mod codec;
pub mod cut;
pub mod save;
pub use hall::snapshot as state;
pub use save::{save_rows, ROWS_IN_FLIGHT};

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use cut::{Cut, TableCut};
use hall::hall::Hall;
use state::{BookSnap, HallSnap, Restore, TableSnap};
use store::{Snapshot, Store};

/// `table_no` of the hall row (table numbers are `u16`); the store owns it.
pub use store::HALL_ROW;

/// When to take a cut.
///
/// The hall's trigger grows with the hall (issue 40): a cut rewrites the
/// row of every table that changed since its last row, so the trigger is
/// the larger of `hall_records` and `records_per_table` records per table
/// of the round ([`Policy::hall_trigger`]). The default is 30 per table:
/// 20,000 records up to 666 tables, 300,000 at 10,000. At 10,000 tables ×
/// 1 press/s, 2 per table cut every 2-3 s, each cut held the hall lock for
/// 68-124 ms and its save of 10,000 rows ran until the next: acks stalled
/// behind them (docs/benchmarks.md). Cuts of more than
/// [`save::PACED_FROM_ROWS`] rows are saved spread out ([`save`]), and
/// encoded after the lock is given back ([`cut`]).
///
/// The bound on a restart: it loads the last complete cut and replays the
/// records after it, fewer than [`Policy::hall_trigger`] of the hall plus
/// those applied while that cut was being saved (one save at a time, a
/// large one spread over half the time since the cut before, at most
/// [`save::MAX_PACE`]; a table passing `table_records` cuts sooner), or
/// than the records applied in `least_gap` if more. At 10,000 tables × 1
/// press/s that is under 450,000 records, a replay of about 2.5 s at the
/// restart bench's rate.
///
/// `least_gap` (2 s) only binds under a flood (issue 40): at 1,000 tables
/// sending as fast as they can, about 700,000 records a second, the hall's
/// trigger passes within 50 ms, so cuts followed each other as fast as
/// their saves ended, about two a second, each rewriting every table's
/// row (1,000 rows through the store's writer and its WAL):
/// about a tenth of the server's CPU. With the gap, a restart after such a
/// flood replays up to about 2 s of it (1.4 million records, about 4 s at
/// the restart bench's rate). A real hall's trigger is tens of seconds
/// of play, so the gap never binds there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// A table changed by this many records since its last row.
    pub table_records: u64,
    /// The hall applied this many records since the last cut (the least
    /// trigger, whatever the hall's size).
    pub hall_records: u64,
    /// The hall applied this many records per table of the round since the
    /// last cut (`0`: `hall_records` alone).
    pub records_per_table: u64,
    /// No cut after a batch sooner than this after the last one was taken
    /// (the cuts of a round start, a long replay and a shutdown are not
    /// held back).
    pub least_gap: std::time::Duration,
}

/// The default [`Policy::least_gap`].
pub const LEAST_GAP: std::time::Duration = std::time::Duration::from_secs(2);

impl Default for Policy {
    fn default() -> Self {
        Policy {
            table_records: 1_000,
            hall_records: 20_000,
            records_per_table: 30,
            least_gap: LEAST_GAP,
        }
    }
}

impl Policy {
    /// Records the hall applies between cuts when it holds `tables` tables:
    /// the larger of `hall_records` and `records_per_table` × `tables`.
    pub fn hall_trigger(&self, tables: usize) -> u64 {
        let tables = u64::try_from(tables).unwrap_or(u64::MAX);
        self.hall_records
            .max(self.records_per_table.saturating_mul(tables))
    }
}

/// What the state was built from: a snapshot of anything else is not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Basis {
    /// The store's hall id.
    pub hall_id: String,
    /// SHA-256 of the config.
    pub config_sha256: String,
    /// The round.
    pub round: u32,
    /// First `gseq` of the round (0: the whole log is the round).
    pub round_first_gseq: u64,
}

impl Basis {
    /// The basis of `config` with its round starting at `round_first_gseq`.
    pub fn of(config: &config::HallConfig, round_first_gseq: u64) -> Basis {
        Basis {
            hall_id: config.hall_id(),
            config_sha256: config.config_sha256.clone(),
            round: config.tournament.current_round,
            round_first_gseq,
        }
    }
}

/// The store's high-water marks: table -> (epoch, seq). Hashed with
/// foldhash (seeded per process): the committer looks a table up twice
/// per event.
pub type HighWater = HashMap<u16, (u32, u64), foldhash::fast::RandomState>;

/// What [`restore`] found.
#[derive(Debug)]
pub enum Restored {
    /// The hall was restored at the cut `upto_gseq`: replay the rows after it.
    Hall {
        /// The cut.
        upto_gseq: u64,
        /// High-water marks at the cut.
        high_water: HighWater,
        /// The manifest of the cut (its table rows are valid).
        manifest: BTreeMap<u16, u64>,
    },
    /// The hall was not restored, but the high-water marks up to
    /// `upto_gseq` are known (a snapshot of another round or config).
    HighWater {
        /// The cut they hold.
        upto_gseq: u64,
        /// High-water marks at the cut.
        high_water: HighWater,
    },
    /// Nothing usable.
    Nothing,
}

/// Restores `hall` (fresh from the config) from the snapshot `rows` when
/// they make a valid cut for `basis`. All or nothing: on any problem `hall`
/// is left as it was and a warning says why.
pub fn restore(rows: Vec<Snapshot>, basis: &Basis, hall: &mut Hall) -> Restored {
    let mut tables: HashMap<u32, Snapshot> = HashMap::new();
    let mut hall_row = None;
    for r in rows {
        if r.table == HALL_ROW {
            hall_row = Some(r);
        } else {
            tables.insert(r.table, r);
        }
    }
    let Some(hall_row) = hall_row else {
        if !tables.is_empty() {
            tracing::warn!("table snapshots without a hall snapshot: replaying the round");
        }
        return Restored::Nothing;
    };
    let snap: HallSnap = match codec::decode(&hall_row.state) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(error = %e, "hall snapshot not usable: replaying the round");
            return Restored::Nothing;
        }
    };
    if snap.hall_id != basis.hall_id || snap.upto_gseq != hall_row.upto_gseq {
        tracing::warn!("hall snapshot of another hall or cut: replaying the round");
        return Restored::Nothing;
    }
    let high_water: HighWater = snap
        .high_water
        .iter()
        .map(|&(t, e, s)| (t, (e, s)))
        .collect();
    let upto_gseq = snap.upto_gseq;
    let only_marks = Restored::HighWater {
        upto_gseq,
        high_water: high_water.clone(),
    };
    if snap.round != basis.round
        || snap.round_first_gseq != basis.round_first_gseq
        || snap.config_sha256 != basis.config_sha256
    {
        tracing::info!(
            snapshot_round = snap.round,
            round = basis.round,
            "snapshot of another round or config: replaying the round"
        );
        return only_marks;
    }
    let manifest: BTreeMap<u16, u64> = snap.manifest.iter().copied().collect();
    let mut restored = BTreeMap::new();
    for &n in hall.tables().keys() {
        let problem = match (manifest.get(&n), tables.get(&u32::from(n))) {
            (None, _) => Err("not in the hall snapshot's manifest".to_string()),
            (Some(_), None) => Err("its snapshot row is missing".to_string()),
            (Some(&want), Some(row)) if row.upto_gseq != want => Err(format!(
                "its snapshot row is of cut {}, the manifest says {want}",
                row.upto_gseq
            )),
            (Some(_), Some(row)) => {
                codec::decode::<TableSnap>(&row.state).map_err(|e| e.to_string())
            }
        };
        match problem {
            Ok(t) => {
                restored.insert(n, t);
            }
            Err(why) => {
                tracing::warn!(
                    table = n,
                    why,
                    "table snapshot not usable: replaying the round"
                );
                return only_marks;
            }
        }
    }
    let state = Restore {
        tables: restored,
        book: BookSnap::of_hall(&snap),
        paused: snap.paused,
        applied: snap.applied,
    };
    if let Err(e) = hall.restore(state) {
        tracing::warn!(error = %e, "table snapshot not usable: replaying the round");
        return only_marks;
    }
    Restored::Hall {
        upto_gseq,
        high_water,
        manifest,
    }
}

/// Takes and saves cuts for the runtime (see the module docs).
pub struct Snapshotter {
    basis: Basis,
    policy: Policy,
    /// The manifest of the rows in the store: table -> its row's cut.
    saved: BTreeMap<u16, u64>,
    /// The last cut taken.
    last_cut: u64,
    /// The last row applied.
    position: u64,
    /// The store's high-water marks as of the last applied row.
    high_water: HighWater,
    store: Arc<dyn Store>,
    rt: tokio::runtime::Handle,
    in_flight: Arc<AtomicBool>,
    failed: Arc<AtomicBool>,
    /// Set at shutdown: a paced save in flight goes as fast as it can.
    hurry: Arc<AtomicBool>,
    /// When the last cut in the background was taken, or the
    /// snapshotter made (for the pace).
    last_cut_at: Instant,
    /// Where the round before the basis's starts (`None`: not known), for
    /// a withdrawal of the basis's round (`crate::next_round::withdrawn`).
    round_before_first: Option<u64>,
}

impl std::fmt::Debug for Snapshotter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshotter")
            .field("basis", &self.basis)
            .field("policy", &self.policy)
            .field("last_cut", &self.last_cut)
            .field("tables_saved", &self.saved.len())
            .finish_non_exhaustive()
    }
}

impl Snapshotter {
    /// A snapshotter saving to `store` on `rt`, after a rebuild that
    /// restored the cut `restored` (its manifest: rows already in the
    /// store) or none.
    pub fn new(
        basis: Basis,
        policy: Policy,
        store: Arc<dyn Store>,
        rt: tokio::runtime::Handle,
        restored: Option<(u64, BTreeMap<u16, u64>)>,
    ) -> Snapshotter {
        let (last_cut, saved) = restored.unwrap_or_default();
        Snapshotter {
            basis,
            policy,
            saved,
            last_cut,
            position: last_cut,
            high_water: HighWater::default(),
            store,
            rt,
            in_flight: Arc::new(AtomicBool::new(false)),
            failed: Arc::new(AtomicBool::new(false)),
            hurry: Arc::new(AtomicBool::new(false)),
            last_cut_at: Instant::now(),
            round_before_first: None,
        }
    }

    /// The hall moved to a new round on `basis`: the next cut writes every
    /// table again (no row of the round before is part of its manifest).
    pub fn new_round(&mut self, basis: Basis) {
        self.round_before_first = Some(self.basis.round_first_gseq);
        self.basis = basis;
        self.saved.clear();
    }

    /// Where the round before the basis's starts, if known: the basis
    /// before the last [`Snapshotter::new_round`], or what the server found
    /// at its start ([`Snapshotter::set_round_before_first`]).
    pub fn round_before_first(&self) -> Option<u64> {
        self.round_before_first
    }

    /// Where the round before the basis's starts (found at the start).
    pub fn set_round_before_first(&mut self, gseq: u64) {
        self.round_before_first = Some(gseq);
    }

    /// Where the round of the basis starts in the store.
    pub fn round_first_gseq(&self) -> u64 {
        self.basis.round_first_gseq
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Sets the store's high-water marks (the pipeline's, as of the last
    /// applied row).
    pub fn set_high_water(&mut self, hw: &HighWater) {
        self.high_water.clone_from(hw);
    }

    /// Whether a cut is due by the policy's counts of records (its
    /// `least_gap` aside).
    pub fn due(&self, hall: &Hall) -> bool {
        let c = hall.changes();
        c.records >= self.policy.hall_trigger(hall.tables().len())
            || c.most_for_a_table >= self.policy.table_records
    }

    /// Whether the policy's `least_gap` has passed since the last cut in
    /// the background (or the snapshotter was made) at `now`.
    pub fn gap_passed(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.last_cut_at) >= self.policy.least_gap
    }

    /// Whether a save is running.
    pub fn saving(&self) -> bool {
        self.in_flight.load(Ordering::Acquire)
    }

    /// Called by the pipeline after applying a batch, under the hall lock:
    /// `upto_gseq` is the last row applied. Takes a cut and starts saving
    /// it in the background when due and no save is running.
    pub fn after_batch(&mut self, hall: &mut Hall, upto_gseq: u64, hw: &HighWater) {
        self.position = upto_gseq;
        if !self.due(hall) || self.saving() || !self.gap_passed(Instant::now()) {
            return;
        }
        self.set_high_water(hw);
        self.cut_in_background(hall, upto_gseq);
    }

    /// Takes a cut at `upto_gseq` and saves it in the background: under
    /// the hall lock only the copy of the changed tables ([`cut`]), the
    /// encoding on a blocking thread, the rows paced when the cut is
    /// large ([`save::pace_for`]).
    pub fn cut_in_background(&mut self, hall: &mut Hall, upto_gseq: u64) {
        self.position = upto_gseq;
        // Marked for the bench's timeline (`store::markers`): the cut
        // holds the hall lock, the save runs beside the events.
        let span = store::markers::Span::start("snapshot_cut");
        let Some(cut) = self.take(hall, upto_gseq) else {
            return;
        };
        span.end(cut.table_rows() as u64 + 1);
        #[cfg(debug_assertions)]
        if let Ok(rows) = cut.clone().encode() {
            debug_check_cut(hall, &rows);
        }
        let now = Instant::now();
        let since_last = now - std::mem::replace(&mut self.last_cut_at, now);
        let pace = save::pace_for(cut.table_rows(), since_last);
        self.spawn_save(cut, pace);
    }

    /// Makes a paced save in flight go as fast as it can (at shutdown).
    pub fn hurry(&self) {
        self.hurry.store(true, Ordering::Release);
    }

    /// The last cut of a clean shutdown, at the last row applied: the
    /// store and the rows to save with [`save_rows`] (`None`: nothing to
    /// save). Call after the pipeline stopped and any background save ended.
    pub fn final_cut(&mut self, hall: &mut Hall) -> Option<(Arc<dyn Store>, Vec<Snapshot>)> {
        let store = self.store.clone();
        let rows = self.cut(hall, self.position)?;
        Some((store, rows))
    }

    /// Takes a cut of `hall` at `upto_gseq` (every row up to it applied,
    /// none after): the rows to save, the hall row last. `None` when there
    /// is nothing to save (or a row did not encode: logged, and the next
    /// cut writes every table again).
    pub fn cut(&mut self, hall: &mut Hall, upto_gseq: u64) -> Option<Vec<Snapshot>> {
        let cut = self.take(hall, upto_gseq)?;
        match cut.encode() {
            Ok(rows) => {
                #[cfg(debug_assertions)]
                debug_check_cut(hall, &rows);
                Some(rows)
            }
            Err(e) => {
                tracing::error!(error = %e, "snapshot not taken");
                self.failed.store(true, Ordering::Release);
                None
            }
        }
    }

    /// Takes a cut of `hall` at `upto_gseq`, not yet encoded: the state of
    /// every table that changed since its row and the hall row. `None`
    /// when nothing changed since the last cut. The manifest moves to this
    /// cut; a cut that is then not saved sets `failed`, and the next cut
    /// writes every table again.
    pub fn take(&mut self, hall: &mut Hall, upto_gseq: u64) -> Option<Cut> {
        if self.failed.swap(false, Ordering::AcqRel) {
            // The last save did not complete: write every table again.
            self.saved.clear();
        }
        let unchanged = hall.changes().records == 0
            && upto_gseq == self.last_cut
            && hall.tables().keys().all(|t| self.saved.contains_key(t));
        if unchanged {
            return None;
        }
        let now = crate::wallclock::now_ms() as i64;
        let mut tables = Vec::new();
        let mut saved = self.saved.clone();
        for (&n, t) in hall.tables() {
            if saved.contains_key(&n) && !hall.changes().tables.contains_key(&n) {
                continue;
            }
            tables.push(TableCut {
                table: n,
                upto_epoch: t.epoch,
                upto_seq: t.high_water,
                state: Arc::clone(t),
            });
            saved.insert(n, upto_gseq);
        }
        saved.retain(|t, _| hall.tables().contains_key(t));
        let book = BookSnap::of(hall.book());
        let mut high_water: Vec<(u16, u32, u64)> = self
            .high_water
            .iter()
            .map(|(&t, &(e, s))| (t, e, s))
            .collect();
        high_water.sort_unstable();
        let snap = HallSnap {
            hall_id: self.basis.hall_id.clone(),
            config_sha256: self.basis.config_sha256.clone(),
            round: self.basis.round,
            round_first_gseq: self.basis.round_first_gseq,
            upto_gseq,
            applied: hall.applied(),
            high_water,
            manifest: saved.iter().map(|(&t, &g)| (t, g)).collect(),
            paused: hall.paused().cloned(),
            alerts_last_id: book.alerts_last_id,
            alerts: book.alerts,
            claims_last_id: book.claims_last_id,
            claims: book.claims,
            audit: book.audit,
            next_audit: book.next_audit,
            next_control: book.next_control,
        };
        self.saved = saved;
        self.last_cut = upto_gseq;
        hall.clear_changes();
        Some(Cut {
            upto_gseq,
            saved_at_ms: now,
            tables,
            hall: snap,
        })
    }

    fn spawn_save(&self, cut: Cut, pace: Option<std::time::Duration>) {
        self.in_flight.store(true, Ordering::Release);
        let (store, in_flight, failed, hurry) = (
            self.store.clone(),
            self.in_flight.clone(),
            self.failed.clone(),
            self.hurry.clone(),
        );
        self.rt.spawn(async move {
            let span = store::markers::Span::start("snapshot_encoded");
            // The rows are made on a blocking thread that then waits for
            // their save (its end, or this task dropped) and gives back the
            // pages they took (`crate::give_back`).
            let (rows_tx, rows_rx) = tokio::sync::oneshot::channel();
            let (saved_tx, saved_rx) = std::sync::mpsc::channel::<()>();
            let encoding = tokio::task::spawn_blocking(move || {
                let _ = rows_tx.send(cut.encode());
                let _ = saved_rx.recv();
                crate::give_back::give_back();
            });
            let ok = match rows_rx.await {
                Ok(Ok(rows)) => {
                    span.end(rows.len() as u64);
                    save::save_rows_paced(store, rows, pace, &hurry).await
                }
                Ok(Err(e)) => {
                    tracing::error!(error = %e, "snapshot not taken");
                    false
                }
                Err(_) => {
                    tracing::error!("snapshot encoding did not finish");
                    false
                }
            };
            drop(saved_tx);
            if let Err(e) = encoding.await {
                tracing::warn!(error = %e, "snapshot encoding thread did not end cleanly");
            }
            if !ok {
                failed.store(true, Ordering::Release);
            }
            in_flight.store(false, Ordering::Release);
        });
    }

    /// Waits (up to `limit`) for a background save to end.
    pub async fn wait_saved(in_flight: &AtomicBool, limit: std::time::Duration) {
        let t0 = std::time::Instant::now();
        while in_flight.load(Ordering::Acquire) && t0.elapsed() < limit {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }

    /// The flag that is set while a background save runs.
    pub fn in_flight(&self) -> Arc<AtomicBool> {
        self.in_flight.clone()
    }
}

/// In debug builds, at every cut: all of the hall's invariants, the
/// snapshot → restore → snapshot round trip included
/// ([`Hall::check_invariants`]), and every row of the cut read back and
/// written again to the same bytes. A broken one is a panic naming it, as
/// after a record ([`Hall::apply`]).
#[cfg(debug_assertions)]
fn debug_check_cut(hall: &Hall, rows: &[Snapshot]) {
    if let Err(broken) = hall.check_invariants() {
        panic!(
            "hall invariant broken at the snapshot cut after record {}: {broken}",
            hall.applied()
        );
    }
    for row in rows {
        let again = if row.table == HALL_ROW {
            codec::decode::<HallSnap>(&row.state).and_then(|s| codec::encode(&s))
        } else {
            codec::decode::<TableSnap>(&row.state).and_then(|s| codec::encode(&s))
        };
        match again {
            Ok(bytes) if bytes == row.state => {}
            Ok(_) => panic!(
                "snapshot row {} does not encode again to its bytes",
                row.table
            ),
            Err(e) => panic!("snapshot row {} does not read back: {e}", row.table),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Policy;

    #[test]
    fn the_hall_trigger_grows_with_the_hall_past_its_least() {
        let p = Policy {
            table_records: 1_000,
            hall_records: 20_000,
            records_per_table: 10,
            least_gap: std::time::Duration::ZERO,
        };
        assert_eq!(p.hall_trigger(4), 20_000);
        assert_eq!(p.hall_trigger(2_000), 20_000);
        assert_eq!(p.hall_trigger(2_001), 20_010);
        assert_eq!(p.hall_trigger(10_000), 100_000);
        assert_eq!(p.hall_trigger(65_535), 655_350);
        let fixed = Policy {
            records_per_table: 0,
            ..p
        };
        assert_eq!(fixed.hall_trigger(10_000), 20_000);
        let huge = Policy {
            records_per_table: u64::MAX,
            ..p
        };
        assert_eq!(huge.hall_trigger(2), u64::MAX);
    }
}
