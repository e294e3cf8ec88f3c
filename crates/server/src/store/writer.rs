//! The store's writer thread: the only owner of the writing SQLite
//! connection. It takes whatever requests are queued (up to a batch limit),
//! writes them in one transaction, commits (WAL fsync, synchronous=FULL),
//! and only then answers each request (group commit). If a commit fails the
//! store is marked failed: this batch and every later request get
//! [`StoreError::Failed`], and nothing is acknowledged again.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::{mpsc, oneshot, watch};

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
    fn weight(&self) -> usize {
        match self {
            Request::Append { events, .. } => events.len().max(1),
            Request::Audit { .. } | Request::Snapshot { .. } => 1,
        }
    }

    fn fail(self, e: StoreError) {
        // A caller that stopped waiting is not an error here.
        match self {
            Request::Append { reply, .. } => drop(reply.send(Err(e))),
            Request::Audit { reply, .. } => drop(reply.send(Err(e))),
            Request::Snapshot { reply, .. } => drop(reply.send(Err(e))),
        }
    }
}

/// What the transaction produced for one request.
enum Answer {
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
}

/// The writer thread's state.
pub(crate) struct Writer {
    pub conn: Connection,
    pub rx: mpsc::Receiver<Request>,
    pub next_gseq: u64,
    pub max_batch: usize,
    pub failed: watch::Sender<Option<String>>,
    pub counters: Arc<Counters>,
}

/// Marks the store failed if the writer thread unwinds.
struct PanicGuard(watch::Sender<Option<String>>);

impl Drop for PanicGuard {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0
                .send_replace(Some("the store writer thread panicked".into()));
        }
    }
}

const INSERT_EVENT: &str = "INSERT INTO events
    (gseq, table_no, epoch, seq, kind, payload, payload_hash, received_at_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
    ON CONFLICT (table_no, epoch, seq) DO NOTHING";
const SELECT_EVENT: &str =
    "SELECT gseq, payload_hash FROM events WHERE table_no = ?1 AND epoch = ?2 AND seq = ?3";
const INSERT_AUDIT: &str = "INSERT INTO audit
    (id, who, action, table_no, payload, at_ms, outcome, why)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
const UPSERT_SNAPSHOT: &str = "INSERT INTO snapshots
    (table_no, upto_epoch, upto_seq, upto_gseq, state, saved_at_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6)
    ON CONFLICT (table_no) DO UPDATE SET
      upto_epoch = excluded.upto_epoch, upto_seq = excluded.upto_seq,
      upto_gseq = excluded.upto_gseq, state = excluded.state,
      saved_at_ms = excluded.saved_at_ms";

impl Writer {
    /// Runs until every sender is gone (the store was dropped).
    pub(crate) fn run(mut self) {
        let _guard = PanicGuard(self.failed.clone());
        while let Some(first) = self.rx.blocking_recv() {
            let mut weight = first.weight();
            let mut batch = vec![first];
            while weight < self.max_batch {
                match self.rx.try_recv() {
                    Ok(r) => {
                        weight += r.weight();
                        batch.push(r);
                    }
                    Err(_) => break,
                }
            }
            let failed = self.failed.borrow().clone();
            if let Some(reason) = failed {
                for r in batch {
                    r.fail(StoreError::Failed(reason.clone()));
                }
                continue;
            }
            match self.commit(&batch) {
                Ok(answers) => {
                    self.counters.commits.fetch_add(1, Ordering::Relaxed);
                    self.counters
                        .rows
                        .fetch_add(weight as u64, Ordering::Relaxed);
                    self.counters
                        .largest_batch
                        .fetch_max(weight as u64, Ordering::Relaxed);
                    for (r, a) in batch.into_iter().zip(answers) {
                        answer(r, a);
                    }
                }
                Err(e) => {
                    let reason = format!("commit failed, nothing in it was acknowledged: {e}");
                    tracing::error!(error = %e, rows = weight, "store commit failed; the store stops accepting writes");
                    self.failed.send_replace(Some(reason.clone()));
                    for r in batch {
                        r.fail(StoreError::Failed(reason.clone()));
                    }
                }
            }
        }
        tracing::debug!("store writer stopped");
    }

    /// Writes a batch in one transaction and commits it.
    fn commit(&mut self, batch: &[Request]) -> Result<Vec<Answer>, rusqlite::Error> {
        let tx = self.conn.transaction()?;
        let mut gseq = self.next_gseq;
        let mut answers = Vec::with_capacity(batch.len());
        {
            let mut insert_event = tx.prepare_cached(INSERT_EVENT)?;
            let mut select_event = tx.prepare_cached(SELECT_EVENT)?;
            for r in batch {
                match r {
                    Request::Append { events, .. } => {
                        let mut outcomes = Vec::with_capacity(events.len());
                        for ev in events {
                            let hash = ev.content_hash();
                            let (t, e, s) = (
                                i64::from(ev.key.table),
                                i64::from(ev.key.epoch),
                                to_i64(ev.key.seq),
                            );
                            let n = insert_event.execute(params![
                                to_i64(gseq),
                                t,
                                e,
                                s,
                                ev.kind,
                                ev.payload,
                                &hash[..],
                                ev.received_at_ms
                            ])?;
                            if n == 1 {
                                outcomes.push(AppendOutcome::Stored { gseq });
                                gseq += 1;
                                continue;
                            }
                            let existing: Option<(i64, Vec<u8>)> = select_event
                                .query_row(params![t, e, s], |row| Ok((row.get(0)?, row.get(1)?)))
                                .optional()?;
                            let Some((g, h)) = existing else {
                                return Err(rusqlite::Error::QueryReturnedNoRows);
                            };
                            let g = u64::try_from(g).unwrap_or(0);
                            if h.as_slice() == hash.as_slice() {
                                outcomes.push(AppendOutcome::Duplicate { gseq: g });
                            } else {
                                let mut existing_hash = [0u8; 32];
                                if h.len() == 32 {
                                    existing_hash.copy_from_slice(&h);
                                }
                                outcomes.push(AppendOutcome::Conflict {
                                    gseq: g,
                                    existing_hash,
                                });
                            }
                        }
                        answers.push(Answer::Append(outcomes));
                    }
                    Request::Audit { record, .. } => {
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
                            why
                        ])?;
                        answers.push(Answer::Audit(gseq));
                        gseq += 1;
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
        }
        tx.commit()?;
        self.next_gseq = gseq;
        Ok(answers)
    }
}

fn answer(r: Request, a: Answer) {
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
