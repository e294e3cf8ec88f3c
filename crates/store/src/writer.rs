//! The store's writer and sync threads: pipelined group commit.
//!
//! The writer thread is the only owner of the writing SQLite connection.
//! It takes whatever requests are queued (up to a batch limit), writes them
//! in one transaction and commits it (`synchronous=NORMAL`: the commit
//! writes the WAL frames but does not fsync them), then hands the batch,
//! still unanswered, to the sync thread and goes on with the next batch.
//! The sync thread fsyncs the WAL (`walsync.rs`; one fsync covers every
//! commit waiting for it) and only then answers the requests and advances
//! the durable horizon that readers see. (When no request is waiting and
//! nothing is ahead in the pipeline, the writer syncs and answers itself:
//! there is nothing to overlap, and a thread handoff is saved.) So nothing is answered before its
//! transaction is committed *and* synced, exactly as with
//! `synchronous=FULL`, but writing batch N+1 overlaps the fsync of batch N.
//!
//! The writer never checkpoints the WAL itself while the checkpointer
//! runs (`checkpointer.rs`, issue 40): its connection's WAL hook only wakes
//! the checkpointer thread once the WAL passes the threshold, so no commit
//! (and no acknowledgement behind it) waits for pages copied to `hall.db`.
//!
//! If a commit or an fsync fails the store is marked failed: that batch,
//! every batch behind it in the pipeline and every later request get
//! [`StoreError::Failed`], and nothing is acknowledged again.
//!
//! Batched durable records (schema 4, issue 40): the events of one commit
//! are gathered per `(table, epoch)` into one `event_batches` row each
//! (`batch.rs`), written when the batch is complete; every event still
//! gets its own gseq in arrival order (shared with the audit rows), and is
//! answered `Stored` with it.
//!
//! Duplicates are answered from a per-`(table, epoch)` high-water map: an
//! event above the mark is new; one at or below it is looked up (first in
//! the rows of the commit being written, then in the stored rows whose seq
//! range holds it, through their keys: `event_keys`, and the keys of the
//! last seconds' rows the writer holds until its next pass, `keys.rs`) and
//! compared by content hash (Duplicate or Conflict), or stored if that key
//! was never stored (a gap filled). The map is loaded from the rows when
//! the store opens and the writer is the only writer, so it is exact.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::{mpsc, oneshot, watch};

use super::batch::{BatchRow, RowBuilder};
use super::keys::{HighWater, Key, KeyIndex, Span};
use super::walsync::WalFile;
use super::{AppendOutcome, AuditOutcome, AuditRecord, NewEvent, Snapshot, StoreError};

/// One request to the writer.
pub(crate) enum Request {
    /// Append events; one outcome each.
    Append {
        events: Vec<NewEvent>,
        reply: oneshot::Sender<Result<Vec<AppendOutcome>, StoreError>>,
    },
    /// Append an audit entry; answers its id.
    Audit {
        record: AuditRecord,
        /// The round it publishes (`published_rounds`), if it does.
        publishes: Option<u32>,
        reply: oneshot::Sender<Result<u64, StoreError>>,
    },
    /// Replace a table's snapshot.
    Snapshot {
        snapshot: Snapshot,
        reply: oneshot::Sender<Result<(), StoreError>>,
    },
}

impl Request {
    /// Rows this request writes (for the batch limit).
    pub(crate) fn weight(&self) -> usize {
        match self {
            Request::Append { events, .. } => events.len().max(1),
            Request::Audit { .. } | Request::Snapshot { .. } => 1,
        }
    }

    pub(crate) fn fail(self, e: StoreError) {
        // A caller that stopped waiting is not an error here.
        match self {
            Request::Append { reply, .. } => drop(reply.send(Err(e))),
            Request::Audit { reply, .. } => drop(reply.send(Err(e))),
            Request::Snapshot { reply, .. } => drop(reply.send(Err(e))),
        }
    }
}

/// A batch for one transaction: `first` and whatever else is queued, up
/// to `max_batch` rows; the batch and its rows.
pub(crate) fn gather(
    first: Request,
    rx: &mut mpsc::Receiver<Request>,
    max_batch: usize,
) -> (Vec<Request>, usize) {
    let mut weight = first.weight();
    let mut batch = vec![first];
    while weight < max_batch {
        match rx.try_recv() {
            Ok(r) => {
                weight += r.weight();
                batch.push(r);
            }
            Err(_) => break,
        }
    }
    (batch, weight)
}

/// What the transaction produced for one request.
pub(crate) enum Answer {
    Append(Vec<AppendOutcome>),
    Audit(u64),
    Snapshot,
}

/// Counters of the writer (for benches and diagnostics).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub commits: AtomicU64,
    pub rows: AtomicU64,
    pub largest_batch: AtomicU64,
    pub syncs: AtomicU64,
}

impl Counters {
    /// One batch of `weight` rows committed.
    pub(crate) fn committed(&self, weight: usize) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.rows.fetch_add(weight as u64, Ordering::Relaxed);
        self.largest_batch
            .fetch_max(weight as u64, Ordering::Relaxed);
    }
}

/// The durable horizon: the highest global sequence number that is
/// committed and synced. Readers of a running store see nothing above it.
pub(crate) type Horizon = Arc<AtomicU64>;

/// The writer thread's state.
pub(crate) struct Writer {
    pub conn: Connection,
    pub rx: mpsc::Receiver<Request>,
    pub next_gseq: u64,
    pub max_batch: usize,
    /// Committed batches that may wait for the sync thread at once.
    pub depth: usize,
    pub failed: watch::Sender<Option<String>>,
    pub counters: Arc<Counters>,
    pub horizon: Horizon,
    /// Highest seq stored per `(table, epoch)`.
    pub high_water: HighWater,
    /// The keys of the rows not yet behind the pass horizon (`keys.rs`).
    pub keys: KeyIndex,
    /// The checkpointer's WAL hook on `conn` (declared after it: dropped
    /// after the connection closed).
    pub _wal_hook: super::checkpointer::WalHook,
    /// A deliberate durability bug (the power-cut tests' must-fail runs).
    #[cfg(test)]
    pub mutant: Mutant,
}

/// Deliberate durability bugs, compiled into the store's own unit tests
/// only: the power-cut harness (tests.rs) must see each of them lose
/// acknowledged rows, or it proves nothing.
#[cfg(test)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Mutant {
    /// The store as shipped.
    #[default]
    None,
    /// The sync thread answers first and fsyncs the WAL after.
    AnswerBeforeSync,
    /// The sync thread is bypassed: answered at commit
    /// (`synchronous=NORMAL`), the WAL never fsynced by the store.
    BypassSync,
}

/// A committed batch waiting for its fsync, with the answers to send once
/// it is durable.
struct Committed {
    items: Vec<(Request, Answer)>,
    /// Global sequence number of the batch's last row.
    last_gseq: u64,
}

/// Marks the store failed if the thread unwinds.
struct PanicGuard(watch::Sender<Option<String>>);

impl Drop for PanicGuard {
    fn drop(&mut self) {
        if std::thread::panicking() {
            mark_failed(&self.0, "a store thread panicked".into());
        }
    }
}

/// Records the first failure (later ones keep the first reason).
pub(crate) fn mark_failed(failed: &watch::Sender<Option<String>>, reason: String) {
    failed.send_if_modified(|v| {
        if v.is_none() {
            *v = Some(reason);
            true
        } else {
            false
        }
    });
}

pub(crate) fn current_failure(failed: &watch::Sender<Option<String>>) -> Option<String> {
    failed.borrow().clone()
}

const INSERT_ROW: &str = "INSERT INTO event_batches
    (first_gseq, last_gseq, commit_gseq, table_no, epoch, first_seq, last_seq, n, body)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
/// The keyed rows that may hold `(table, epoch, seq)` (`keys.rs`).
const SELECT_KEYED_HOLDING: &str = "SELECT first_gseq FROM event_keys
    WHERE table_no = ?1 AND epoch = ?2 AND last_seq >= ?3 AND first_seq <= ?3";
/// One row by its primary key.
const SELECT_ROW: &str = "SELECT first_gseq, last_gseq, table_no, epoch, first_seq,
    last_seq, n, body FROM event_batches WHERE first_gseq = ?1";
const INSERT_AUDIT: &str = "INSERT INTO audit
    (id, who, action, table_no, payload, at_ms, outcome, why, action_msg, why_msg)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
const INSERT_PUBLISHED: &str = "INSERT INTO published_rounds (gseq, round) VALUES (?1, ?2)";
const UPSERT_SNAPSHOT: &str = "INSERT INTO snapshots
    (table_no, upto_epoch, upto_seq, upto_gseq, state, saved_at_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6)
    ON CONFLICT (table_no) DO UPDATE SET
      upto_epoch = excluded.upto_epoch, upto_seq = excluded.upto_seq,
      upto_gseq = excluded.upto_gseq, state = excluded.state,
      saved_at_ms = excluded.saved_at_ms";

/// Inserts audit entry `gseq`, and lists it among the published rounds
/// when it is an accepted publication of round `publishes`.
fn insert_audit(
    tx: &rusqlite::Transaction<'_>,
    gseq: u64,
    record: &AuditRecord,
    publishes: Option<u32>,
) -> Result<(), rusqlite::Error> {
    let (outcome, why) = match &record.outcome {
        AuditOutcome::Accepted => ("accepted", None),
        AuditOutcome::Refused { why } => ("refused", Some(why.as_str())),
    };
    tx.prepare_cached(INSERT_AUDIT)?.execute(params![
        to_i64(gseq),
        record.who,
        record.action,
        record.table.map(i64::from),
        record.payload,
        record.at_ms,
        outcome,
        why,
        record.action_msg,
        record.why_msg
    ])?;
    if let (Some(round), AuditOutcome::Accepted) = (publishes, &record.outcome) {
        tx.prepare_cached(INSERT_PUBLISHED)?
            .execute(params![to_i64(gseq), i64::from(round)])?;
    }
    Ok(())
}

/// Writes one batch row, its events in `row`, for the commit that began
/// at `commit_gseq`.
pub(crate) fn insert_row(
    tx: &Connection,
    row: &RowBuilder,
    commit_gseq: u64,
) -> Result<(), rusqlite::Error> {
    tx.prepare_cached(INSERT_ROW)?.execute(params![
        to_i64(row.first_gseq),
        to_i64(row.last_gseq),
        to_i64(commit_gseq),
        i64::from(row.table),
        i64::from(row.epoch),
        to_i64(row.first_seq),
        to_i64(row.last_seq),
        to_i64(row.events.len() as u64),
        row.body
    ])?;
    Ok(())
}

/// The gseq and hash of stored event `(table, epoch, seq)`, if it is
/// stored (a damaged row holding it is an error naming the row): the rows
/// whose seq range holds it, keyed (`event_keys`) or still in `keys`.
pub(crate) fn find_stored(
    tx: &Connection,
    keys: &KeyIndex,
    table: u32,
    epoch: u32,
    seq: u64,
) -> Result<Option<(u64, [u8; 32])>, rusqlite::Error> {
    let mut rows = keys.holding(table, epoch, seq);
    let mut st = tx.prepare_cached(SELECT_KEYED_HOLDING)?;
    for g in st.query_map(
        params![i64::from(table), i64::from(epoch), to_i64(seq)],
        |r| r.get::<_, i64>(0),
    )? {
        rows.push(u64::try_from(g?).unwrap_or(0));
    }
    rows.sort_unstable();
    rows.dedup();
    let mut st = tx.prepare_cached(SELECT_ROW)?;
    for g in rows {
        let Some(row) = st.query_row([to_i64(g)], batch_row).optional()? else {
            continue;
        };
        let events = row.decode().map_err(|e| {
            rusqlite::Error::ToSqlConversionFailure(Box::new(StoreError::Corrupt {
                row: row.name(),
                why: e.0,
            }))
        })?;
        if let Some(e) = events.iter().find(|e| e.key.seq == seq) {
            return Ok(Some((e.gseq, e.payload_hash)));
        }
    }
    Ok(None)
}

/// The columns of an `event_batches` row selected as
/// `first_gseq, last_gseq, table_no, epoch, first_seq, last_seq, n, body`.
pub(crate) fn batch_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<BatchRow> {
    fn u<T: TryFrom<i64>>(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<T> {
        let v: i64 = r.get(i)?;
        T::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(i, v))
    }
    Ok(BatchRow {
        first_gseq: u(r, 0)?,
        last_gseq: u(r, 1)?,
        table: u(r, 2)?,
        epoch: u(r, 3)?,
        first_seq: u(r, 4)?,
        last_seq: u(r, 5)?,
        n: u(r, 6)?,
        body: r.get(7)?,
    })
}

impl Writer {
    /// Runs until every sender is gone (the store was dropped); `wal` is
    /// handed to the sync thread, which this thread starts and joins.
    pub(crate) fn run(mut self, wal: WalFile) {
        let _guard = PanicGuard(self.failed.clone());
        let (sync_tx, sync_rx) = std::sync::mpsc::sync_channel::<Committed>(self.depth.max(1));
        let finisher = Arc::new(Finisher {
            wal: Mutex::new(wal),
            failed: self.failed.clone(),
            counters: self.counters.clone(),
            horizon: self.horizon.clone(),
            pending: AtomicUsize::new(0),
            #[cfg(test)]
            mutant: self.mutant,
        });
        let syncer = {
            let finisher = finisher.clone();
            std::thread::Builder::new()
                .name("store-sync".into())
                .spawn(move || run_sync(finisher, sync_rx))
        };
        let syncer = match syncer {
            Ok(h) => Some(h),
            Err(e) => {
                mark_failed(
                    &self.failed,
                    format!("cannot start the store sync thread: {e}"),
                );
                None
            }
        };
        while let Some(first) = self.rx.blocking_recv() {
            let (batch, weight) = gather(first, &mut self.rx, self.max_batch);
            if let Some(reason) = current_failure(&self.failed) {
                for r in batch {
                    r.fail(StoreError::Failed(reason.clone()));
                }
                continue;
            }
            let span = super::markers::Span::start("slow_commit");
            let committed = self.commit(&batch);
            span.end_if_over(super::markers::SLOW, weight as u64);
            match committed {
                Ok(answers) => {
                    self.counters.committed(weight);
                    let committed = Committed {
                        items: batch.into_iter().zip(answers).collect(),
                        last_gseq: self.next_gseq - 1,
                    };
                    if self.rx.is_empty() && finisher.pending.load(Ordering::Acquire) == 0 {
                        // Nothing to write meanwhile and nothing ahead in
                        // the pipeline: sync here and save a thread handoff.
                        finisher.finish(vec![committed]);
                        continue;
                    }
                    finisher.pending.fetch_add(1, Ordering::AcqRel);
                    // Blocks while `depth` batches wait for their fsync.
                    if let Err(e) = sync_tx.send(committed) {
                        finisher.pending.fetch_sub(1, Ordering::AcqRel);
                        mark_failed(&self.failed, "the store sync thread stopped".into());
                        let reason = current_failure(&self.failed).unwrap_or_default();
                        for (r, _) in e.0.items {
                            r.fail(StoreError::Failed(reason.clone()));
                        }
                    }
                }
                Err(e) => {
                    let reason = format!("commit failed, nothing in it was acknowledged: {e}");
                    tracing::error!(error = %e, rows = weight, "store commit failed; the store stops accepting writes");
                    mark_failed(&self.failed, reason);
                    let reason = current_failure(&self.failed).unwrap_or_default();
                    for r in batch {
                        r.fail(StoreError::Failed(reason.clone()));
                    }
                }
            }
        }
        // Let the sync thread answer what is in the pipeline, then stop.
        drop(sync_tx);
        if let Some(h) = syncer {
            if h.join().is_err() {
                tracing::error!("store sync thread panicked");
            }
        }
        tracing::debug!("store writer stopped");
    }

    /// Writes a batch in one transaction and commits it (not yet synced).
    fn commit(&mut self, batch: &[Request]) -> Result<Vec<Answer>, rusqlite::Error> {
        // IMMEDIATE: the write lock is taken at BEGIN, where SQLite waits
        // (busy handler) for a settling FULL checkpoint of the
        // checkpointer (`checkpointer.rs`); a deferred transaction that
        // read first would get SQLITE_BUSY at its first write instead.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut open = OpenRows {
            commit_gseq: self.next_gseq,
            next_gseq: self.next_gseq,
            rows: Vec::new(),
            by_key: HashMap::default(),
        };
        let mut answers = Vec::with_capacity(batch.len());
        for r in batch {
            match r {
                Request::Append { events, .. } => {
                    let mut outcomes = Vec::with_capacity(events.len());
                    for ev in events {
                        outcomes.push(open.append(&tx, &self.keys, &mut self.high_water, ev)?);
                    }
                    answers.push(Answer::Append(outcomes));
                }
                Request::Audit {
                    record, publishes, ..
                } => {
                    insert_audit(&tx, open.next_gseq, record, *publishes)?;
                    answers.push(Answer::Audit(open.next_gseq));
                    open.next_gseq += 1;
                }
                Request::Snapshot { snapshot: s, .. } => {
                    tx.prepare_cached(UPSERT_SNAPSHOT)?.execute(params![
                        i64::from(s.table),
                        i64::from(s.upto_epoch),
                        to_i64(s.upto_seq),
                        to_i64(s.upto_gseq),
                        s.state,
                        s.saved_at_ms
                    ])?;
                    answers.push(Answer::Snapshot);
                }
            }
        }
        // Begun in order of their first events: each insert goes to the
        // end of the primary key.
        for row in &open.rows {
            insert_row(&tx, row, open.commit_gseq)?;
            self.keys.push(
                Key {
                    table: row.table,
                    epoch: row.epoch,
                    last_seq: row.last_seq,
                    first_gseq: row.first_gseq,
                },
                Span {
                    first_seq: row.first_seq,
                    last_gseq: row.last_gseq,
                },
            );
        }
        self.keys
            .step(&tx, std::time::Instant::now(), open.rows.len())?;
        tx.commit()?;
        self.next_gseq = open.next_gseq;
        Ok(answers)
    }
}

/// The batch rows of the commit being written, one per `(table, epoch)`.
struct OpenRows {
    /// The commit's first gseq (`event_batches.commit_gseq`).
    commit_gseq: u64,
    /// The next gseq to give.
    next_gseq: u64,
    rows: Vec<RowBuilder>,
    by_key: HashMap<(u32, u32), usize, foldhash::fast::RandomState>,
}

impl OpenRows {
    /// Stores `ev` in its row, or answers it as a resend of an event stored
    /// before (in this commit or an earlier one).
    fn append(
        &mut self,
        tx: &Connection,
        keys: &KeyIndex,
        high_water: &mut HighWater,
        ev: &NewEvent,
    ) -> Result<AppendOutcome, rusqlite::Error> {
        let key = (ev.key.table, ev.key.epoch);
        let above = high_water.get(&key).is_none_or(|&hw| ev.key.seq > hw);
        if !above {
            // At or below the mark: most likely a resend. Only then is the
            // content hashed (the body keeps no hash: `batch.rs`).
            let hash = ev.content_hash();
            let here = self.by_key.get(&key).and_then(|&i| {
                let row = &self.rows[i];
                row.find(ev.key.seq).map(|w| (w.gseq, row.content_hash(w)))
            });
            let known_row = match here {
                Some(k) => Some(k),
                None => find_stored(tx, keys, ev.key.table, ev.key.epoch, ev.key.seq)?,
            };
            if let Some((g, h)) = known_row {
                return Ok(known(to_i64(g), &h, &hash));
            }
        }
        let gseq = self.next_gseq;
        let i = match self.by_key.get(&key) {
            Some(&i) => i,
            None => {
                self.rows.push(RowBuilder::new(key.0, key.1, gseq));
                self.by_key.insert(key, self.rows.len() - 1);
                self.rows.len() - 1
            }
        };
        self.rows[i].push(gseq, ev.key.seq, &ev.kind, &ev.payload, ev.received_at_ms);
        self.next_gseq += 1;
        let hw = high_water.entry(key).or_insert(0);
        *hw = (*hw).max(ev.key.seq);
        Ok(AppendOutcome::Stored { gseq })
    }
}

/// Duplicate or Conflict for a key already stored as row `g` with hash `h`.
pub(crate) fn known(g: i64, h: &[u8], hash: &[u8; 32]) -> AppendOutcome {
    let g = u64::try_from(g).unwrap_or(0);
    if h == hash.as_slice() {
        AppendOutcome::Duplicate { gseq: g }
    } else {
        let mut existing_hash = [0u8; 32];
        if h.len() == 32 {
            existing_hash.copy_from_slice(h);
        }
        AppendOutcome::Conflict {
            gseq: g,
            existing_hash: Box::new(existing_hash),
        }
    }
}

/// What the writer and the sync thread share to finish committed batches.
struct Finisher {
    wal: Mutex<WalFile>,
    failed: watch::Sender<Option<String>>,
    counters: Arc<Counters>,
    horizon: Horizon,
    /// Committed batches handed to the sync thread and not yet answered.
    pending: AtomicUsize,
    #[cfg(test)]
    mutant: Mutant,
}

impl Finisher {
    /// fsyncs the WAL behind `done` (committed batches, in commit order),
    /// advances the horizon, and only then answers; on a failure (now or
    /// earlier) fails them all.
    fn finish(&self, done: Vec<Committed>) {
        #[cfg(test)]
        let Some(done) = self.mutant_answers(done) else {
            return;
        };
        let result = match current_failure(&self.failed) {
            Some(reason) => Err(reason),
            None => {
                let mut wal = self.wal.lock().unwrap_or_else(|p| p.into_inner());
                let span = super::markers::Span::start("slow_sync");
                let synced = wal.sync();
                span.end_if_over(super::markers::SLOW, done.len() as u64);
                synced.map_err(|e| {
                    tracing::error!(error = %e, "store fsync failed; the store stops accepting writes");
                    mark_failed(
                        &self.failed,
                        format!("commit failed, nothing in it was acknowledged: {e}"),
                    );
                    current_failure(&self.failed).unwrap_or(e)
                })
            }
        };
        match result {
            Ok(()) => {
                self.counters.syncs.fetch_add(1, Ordering::Relaxed);
                if let Some(last) = done.last() {
                    self.horizon.fetch_max(last.last_gseq, Ordering::AcqRel);
                }
                for c in done {
                    for (r, a) in c.items {
                        answer(r, a);
                    }
                }
            }
            Err(reason) => {
                for c in done {
                    for (r, _) in c.items {
                        r.fail(StoreError::Failed(reason.clone()));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
impl Finisher {
    /// The deliberate bugs: [`Mutant::AnswerBeforeSync`] answers now and
    /// leaves the fsync to follow (nothing left to answer after it);
    /// [`Mutant::BypassSync`] answers now and skips the fsync (`None`).
    fn mutant_answers(&self, done: Vec<Committed>) -> Option<Vec<Committed>> {
        if self.mutant == Mutant::None {
            return Some(done);
        }
        if let Some(last) = done.last() {
            self.horizon.fetch_max(last.last_gseq, Ordering::AcqRel);
        }
        for c in done {
            for (r, a) in c.items {
                answer(r, a);
            }
        }
        (self.mutant == Mutant::AnswerBeforeSync).then(Vec::new)
    }
}

/// The sync thread: finishes committed batches as they come (one fsync
/// for everything waiting).
fn run_sync(finisher: Arc<Finisher>, rx: std::sync::mpsc::Receiver<Committed>) {
    let _guard = PanicGuard(finisher.failed.clone());
    while let Ok(first) = rx.recv() {
        let mut done = vec![first];
        while let Ok(more) = rx.try_recv() {
            done.push(more);
        }
        let n = done.len();
        finisher.finish(done);
        finisher.pending.fetch_sub(n, Ordering::AcqRel);
    }
}

pub(crate) fn answer(r: Request, a: Answer) {
    match (r, a) {
        (Request::Append { reply, .. }, Answer::Append(o)) => drop(reply.send(Ok(o))),
        (Request::Audit { reply, .. }, Answer::Audit(id)) => drop(reply.send(Ok(id))),
        (Request::Snapshot { reply, .. }, Answer::Snapshot) => drop(reply.send(Ok(()))),
        (r, _) => r.fail(StoreError::Failed("internal: answer mismatch".into())),
    }
}

/// Values are checked to fit before they reach the writer; saturate anyway.
pub(crate) fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}
