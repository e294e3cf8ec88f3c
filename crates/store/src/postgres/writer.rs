//! The PostgreSQL store's writer task: group commit with reconnection.
//!
//! One task owns the writing connection (holding the hall's advisory lock:
//! one writer per hall). It takes whatever requests are queued (up to a
//! batch limit), decides the batch (`plan.rs`), and writes it in one
//! transaction: a lookup of the keys that may be resends (the batch rows
//! whose seq range holds them, decoded), one `unnest` insert for the
//! commit's batch rows (one per `(table, epoch)`, schema 5, `batches.rs`)
//! and one for the audit rows, the snapshot upserts,
//! and a compare-and-set of the hall's `next_gseq` counter. Only after the
//! COMMIT returned (with `synchronous_commit = on`: flushed, and on a
//! synchronous standby when one is configured) are the requests answered
//! and the read horizon advanced.
//!
//! A lost connection (the database restarted, a network cut) is not a
//! failure: the batch stays unanswered, the writer reconnects with
//! back-off (requests queue meanwhile; nothing is acknowledged), then
//! settles a commit that was in doubt by reading the counter under a row
//! lock: moved to the plan's value, the batch committed and is answered;
//! unchanged, it did not, and is written again. Any other error (a
//! constraint, the counter moved by someone else) fails the store for good,
//! as with SQLite.
//!
//! The writer also beats: a statement through the lock-holding connection
//! every [`lease::BEAT`], so that a standby can tell a live server from a
//! stalled one (`lease.rs`). A writer whose connection was lost and whose
//! hall's lock is then held by another server's session (a standby took
//! over) fails the store: it acknowledges nothing more and the server
//! stops. Its own old session still holding the lock (a network cut the
//! database has not noticed yet) is ended and the lock taken again.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio_postgres::{Client, Transaction};

use super::batches::{self, LookupError};
use super::connect::PgTarget;
use super::lease;
use super::plan::{self, Existing, Plan};
use super::schema::pg_text;
use crate::writer::{
    answer, current_failure, gather, mark_failed, to_i64, Counters, Horizon, Request,
};
use crate::StoreError;

/// The writer task's state.
pub(crate) struct PgWriter {
    pub target: PgTarget,
    pub client: Option<Client>,
    /// The backend pid of `client` (the session that holds the lock).
    pub own_pid: i32,
    pub hall: String,
    pub rx: mpsc::Receiver<Request>,
    pub next_gseq: u64,
    pub max_batch: usize,
    pub failed: watch::Sender<Option<String>>,
    pub counters: Arc<Counters>,
    pub horizon: Horizon,
    pub high_water: HashMap<(u32, u32), u64>,
    /// Reconnections so far (diagnostics, tests).
    pub reconnects: Arc<std::sync::atomic::AtomicU64>,
}

/// Why a transaction did not go through.
enum TxError {
    /// The connection is gone or the server is going away: retry.
    Lost(tokio_postgres::Error),
    /// Anything else: the store fails.
    Fatal(String),
}

impl From<LookupError> for TxError {
    fn from(e: LookupError) -> Self {
        match e {
            LookupError::Db(e) => TxError::from(e),
            LookupError::Corrupt(e) => TxError::Fatal(e.to_string()),
        }
    }
}

impl From<tokio_postgres::Error> for TxError {
    fn from(e: tokio_postgres::Error) -> Self {
        if is_lost(&e) {
            TxError::Lost(e)
        } else {
            TxError::Fatal(pg_text(&e))
        }
    }
}

/// True for errors after which the database may be reachable again: the
/// connection closed, an I/O error, or the server shutting down or not
/// yet accepting connections (SQLSTATE classes 08 and 57P).
pub(crate) fn is_lost(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        Some(code) => {
            let c = code.code();
            c.starts_with("08") || c.starts_with("57P") || c == "53300"
        }
        None => {
            let mut src: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
            while let Some(s) = src {
                if s.is::<std::io::Error>() {
                    return true;
                }
                src = s.source();
            }
            // Connecting (refused, timed out) and reading from a closed
            // socket carry an I/O error or none at all.
            e.as_db_error().is_none()
                && (e.to_string().contains("connect") || e.to_string().contains("closed"))
        }
    }
}

impl PgWriter {
    /// Runs until every sender is gone (the store was closed or dropped).
    pub(crate) async fn run(mut self) {
        let mut beat = tokio::time::interval(lease::BEAT);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let first = tokio::select! {
                biased;
                r = self.rx.recv() => match r {
                    Some(r) => r,
                    None => break,
                },
                _ = beat.tick() => {
                    self.beat().await;
                    continue;
                }
            };
            let (batch, weight) = gather(first, &mut self.rx, self.max_batch);
            if let Some(reason) = current_failure(&self.failed) {
                for r in batch {
                    r.fail(StoreError::Failed(reason.clone()));
                }
                continue;
            }
            match self.commit_durably(&batch).await {
                Ok(plan) => {
                    self.counters.committed(weight);
                    self.counters.syncs.fetch_add(1, Ordering::Relaxed);
                    self.next_gseq = plan.next_gseq;
                    for (k, v) in plan.high_water {
                        self.high_water.insert(k, v);
                    }
                    self.horizon.fetch_max(self.next_gseq - 1, Ordering::AcqRel);
                    for (r, a) in batch.into_iter().zip(plan.answers) {
                        answer(r, a);
                    }
                }
                Err(reason) => {
                    tracing::error!(hall = %self.hall, %reason, rows = weight, "store commit failed; the store stops accepting writes");
                    mark_failed(
                        &self.failed,
                        format!("commit failed, nothing in it was acknowledged: {reason}"),
                    );
                    let reason = current_failure(&self.failed).unwrap_or_default();
                    for r in batch {
                        r.fail(StoreError::Failed(reason.clone()));
                    }
                }
            }
        }
        tracing::debug!(hall = %self.hall, "store writer stopped");
    }

    /// One beat through the lock-holding connection. A lost connection is
    /// made again (with the lock) here; losing the lock fails the store.
    async fn beat(&mut self) {
        if current_failure(&self.failed).is_some() {
            return;
        }
        let Some(client) = self.client.as_ref() else {
            return;
        };
        let Err(e) = client.batch_execute("SELECT 1").await else {
            return;
        };
        if !is_lost(&e) {
            tracing::warn!(hall = %self.hall, error = %pg_text(&e), "beat failed");
            return;
        }
        tracing::warn!(hall = %self.hall, error = %pg_text(&e), "lost the database connection; nothing is acknowledged until it is back");
        self.client = None;
        if let Err(reason) = self.reconnect().await {
            tracing::error!(hall = %self.hall, %reason, "the store stops accepting writes");
            mark_failed(&self.failed, reason);
        }
    }

    /// Commits `batch`, riding out lost connections; returns the plan that
    /// committed.
    async fn commit_durably(&mut self, batch: &[Request]) -> Result<Plan, String> {
        loop {
            let Some(client) = self.client.as_mut() else {
                self.reconnect().await?;
                continue;
            };
            let mut attempted: Option<u64> = None;
            let result = write_batch(
                client,
                &self.hall,
                self.next_gseq,
                &self.high_water,
                batch,
                &mut attempted,
            )
            .await;
            match result {
                Ok(plan) => return Ok(plan),
                Err(TxError::Fatal(reason)) => return Err(reason),
                Err(TxError::Lost(e)) => {
                    tracing::warn!(hall = %self.hall, error = %pg_text(&e), "lost the database connection; nothing is acknowledged until it is back");
                    self.client = None;
                    self.reconnect().await?;
                    let Some(client) = self.client.as_mut() else {
                        continue;
                    };
                    match settle(client, &self.hall).await {
                        Ok(now) if now == self.next_gseq => {
                            // Not committed: write it again.
                        }
                        Ok(now) if Some(now) == attempted => {
                            // Committed before the connection went: answer
                            // from the same plan (it is pure).
                            let existing = self.committed_lookups(batch).await?;
                            return Ok(plan::plan(
                                batch,
                                self.next_gseq,
                                &self.high_water,
                                &existing,
                            ));
                        }
                        Ok(now) => {
                            return Err(format!(
                                "hall {}: its counter is {now}, expected {} or {attempted:?}: another server writes this hall",
                                self.hall, self.next_gseq
                            ))
                        }
                        Err(TxError::Lost(_)) => {
                            self.client = None;
                        }
                        Err(TxError::Fatal(r)) => return Err(r),
                    }
                }
            }
        }
    }

    /// The lookups a batch saw before it committed: the rows that batch
    /// itself inserted must not count, so look up only keys stored with a
    /// `gseq` below the batch's first.
    async fn committed_lookups(&mut self, batch: &[Request]) -> Result<Existing, String> {
        let Some(client) = self.client.as_mut() else {
            return Err("no connection".into());
        };
        let mut existing = Existing::new();
        match fill_existing(client, &self.hall, batch, &self.high_water, &mut existing).await {
            Ok(()) => {}
            Err(LookupError::Db(e)) => return Err(pg_text(&e)),
            Err(LookupError::Corrupt(e)) => return Err(e.to_string()),
        }
        let first = to_i64(self.next_gseq);
        existing.retain(|_, (g, _)| *g < first);
        Ok(existing)
    }

    /// Reconnects with back-off until connected (and holding the hall's
    /// lock) or until the store is closed.
    async fn reconnect(&mut self) -> Result<(), String> {
        let mut delay = Duration::from_millis(100);
        loop {
            if self.rx.is_closed() {
                return Err("the store was closed while the database was unreachable".into());
            }
            match self.target.connect().await {
                Ok(client) => match try_lock_hall(&client, &self.hall).await {
                    Ok(true) => {
                        self.reconnects.fetch_add(1, Ordering::Relaxed);
                        match lease::own_pid(&client).await {
                            Ok(pid) => self.own_pid = pid,
                            Err(e) => {
                                tracing::warn!(hall = %self.hall, error = %pg_text(&e), "backend pid unknown")
                            }
                        }
                        tracing::info!(hall = %self.hall, "database connection back");
                        self.client = Some(client);
                        return Ok(());
                    }
                    Ok(false) => match lease::holder(&client, &self.hall).await {
                        Ok(Some(h)) if h.pid == self.own_pid => {
                            tracing::warn!(hall = %self.hall, pid = h.pid, "this server's old database session still holds the hall's lock; ending it");
                            if let Err(e) = lease::end_session(&client, h.pid).await {
                                tracing::warn!(hall = %self.hall, error = %pg_text(&e), "could not end the old session; retrying");
                            }
                        }
                        Ok(Some(h)) => {
                            return Err(format!(
                                "hall {}: another server holds the hall's lock now (database session {}; a standby took over): this server acknowledges nothing more and stops",
                                self.hall, h.pid
                            ))
                        }
                        Ok(None) => {}
                        Err(e) => {
                            tracing::warn!(hall = %self.hall, error = %pg_text(&e), "cannot see who holds the hall's lock; retrying")
                        }
                    },
                    Err(e) => {
                        tracing::warn!(hall = %self.hall, error = %pg_text(&e), "cannot lock the hall; retrying")
                    }
                },
                Err(e) => {
                    tracing::warn!(hall = %self.hall, target = %self.target.describe(), error = %pg_text(&e), retry_in_ms = delay.as_millis() as u64, "database unreachable; nothing is acknowledged meanwhile");
                }
            }
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(2));
        }
    }
}

/// Takes the hall's session advisory lock (one writer per hall).
pub(crate) async fn try_lock_hall(
    client: &Client,
    hall: &str,
) -> Result<bool, tokio_postgres::Error> {
    let row = client
        .query_one(
            "SELECT pg_try_advisory_lock(hashtextextended('caipan hall ' || $1, 0))",
            &[&hall],
        )
        .await?;
    Ok(row.get(0))
}

/// Reads the hall's counter, waiting for any transaction still holding its
/// row (an old session's commit in flight) to finish.
async fn settle(client: &mut Client, hall: &str) -> Result<u64, TxError> {
    let tx = client.transaction().await?;
    let row = tx
        .query_one(
            "SELECT next_gseq FROM halls WHERE hall_id = $1 FOR UPDATE",
            &[&hall],
        )
        .await?;
    let next: i64 = row.get(0);
    tx.commit().await?;
    u64::try_from(next).map_err(|_| TxError::Fatal(format!("hall {hall}: bad counter {next}")))
}

/// Looks up the stored keys of `batch` that may be resends.
async fn fill_existing<C: tokio_postgres::GenericClient>(
    client: &C,
    hall: &str,
    batch: &[Request],
    high_water: &HashMap<(u32, u32), u64>,
    existing: &mut Existing,
) -> Result<(), LookupError> {
    let keys = plan::probes(batch, high_water);
    existing.extend(batches::lookup(client, hall, &keys).await?);
    Ok(())
}

/// One batch transaction. `attempted` is set to the counter value the
/// batch moves the hall to just before COMMIT is sent.
async fn write_batch(
    client: &mut Client,
    hall: &str,
    next_gseq: u64,
    high_water: &HashMap<(u32, u32), u64>,
    batch: &[Request],
    attempted: &mut Option<u64>,
) -> Result<Plan, TxError> {
    let tx = client.transaction().await?;
    let mut existing = Existing::new();
    fill_existing(&tx, hall, batch, high_water, &mut existing).await?;
    let plan = plan::plan(batch, next_gseq, high_water, &existing);
    insert_rows(&tx, hall, &plan).await?;
    if plan.next_gseq != next_gseq {
        let n = tx
            .execute(
                "UPDATE halls SET next_gseq = $2 WHERE hall_id = $1 AND next_gseq = $3",
                &[&hall, &to_i64(plan.next_gseq), &to_i64(next_gseq)],
            )
            .await?;
        if n != 1 {
            return Err(TxError::Fatal(format!(
                "hall {hall}: its counter moved under this writer: another server writes this hall"
            )));
        }
        *attempted = Some(plan.next_gseq);
    }
    tx.commit().await?;
    Ok(plan)
}

async fn insert_rows(tx: &Transaction<'_>, hall: &str, plan: &Plan) -> Result<(), TxError> {
    batches::insert(tx, hall, &plan.rows, plan.commit_gseq).await?;
    let a = &plan.audits;
    if !a.id.is_empty() {
        tx.execute(
            "INSERT INTO audit (hall_id, id, who, action, table_no, payload, at_ms, outcome, why,
                                action_msg, why_msg)
             SELECT $1, * FROM unnest($2::int8[], $3::text[], $4::text[], $5::int8[],
                                      $6::bytea[], $7::int8[], $8::text[], $9::text[],
                                      $10::bytea[], $11::bytea[])",
            &[
                &hall,
                &a.id,
                &a.who,
                &a.action,
                &a.table,
                &a.payload,
                &a.at,
                &a.outcome,
                &a.why,
                &a.action_msg,
                &a.why_msg,
            ],
        )
        .await?;
    }
    for s in &plan.snapshots {
        tx.execute(
            "INSERT INTO snapshots
               (hall_id, table_no, upto_epoch, upto_seq, upto_gseq, state, saved_at_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (hall_id, table_no) DO UPDATE SET
               upto_epoch = excluded.upto_epoch, upto_seq = excluded.upto_seq,
               upto_gseq = excluded.upto_gseq, state = excluded.state,
               saved_at_ms = excluded.saved_at_ms",
            &[
                &hall,
                &i64::from(s.table),
                &i64::from(s.upto_epoch),
                &to_i64(s.upto_seq),
                &to_i64(s.upto_gseq),
                &s.state,
                &s.saved_at_ms,
            ],
        )
        .await?;
    }
    Ok(())
}
