//! [`PgStore`]: the hall record in PostgreSQL, for events that outgrow one
//! machine (several rooms, several cities, one tournament), with the same
//! guarantees as [`super::SqliteStore`]:
//!
//! - acknowledged only after its transaction committed, with
//!   `synchronous_commit` at least `on` (`connect.rs`): flushed on the
//!   primary, and on the synchronous standby when one is configured;
//! - idempotent by `(hall, table, epoch, seq)`, with the same
//!   Duplicate / Conflict answers (`plan.rs`);
//! - `gseq` in commit order per hall, taken from the hall's counter inside
//!   the batch transaction (`writer.rs`), one writer per hall (an advisory
//!   lock, and a compare-and-set on the counter);
//! - a standby server for the hall (README "A standby server"): opened
//!   with [`PgOptions::standby`], the store waits for the hall's lock
//!   (`standby.rs`) and takes it over from an active server that stopped
//!   beating (`lease.rs`); a writer that lost the lock to another server
//!   fails the store rather than acknowledge anything more;
//! - audit and event rows append-only in the database itself (trigger and
//!   revoked privileges, `schema.rs`), the schema versioned and migrated by
//!   the server;
//! - group commit: one transaction per batch of whatever is queued, its
//!   events in one `event_batches` row per `(table, epoch)` (batched
//!   durable records, schema 5, `batches.rs`; the body format is the
//!   SQLite store's, `crate::batch`; older databases converted on open,
//!   `migrate.rs`);
//! - a lost connection is retried with back-off and nothing is
//!   acknowledged meanwhile; the store fails (and the server stops) only on
//!   errors that are not about reaching the database.
//!
//! Several halls share one database: every row carries its `hall_id`, and
//! a store opened for hall B reads and writes only hall B's rows. Reads go
//! through a small pool and page through whole histories (`read.rs`).
//! [`cluster`] starts throwaway clusters for tests and benches.

mod batches;
pub mod cluster;
mod connect;
pub mod lease;
mod migrate;
mod pg_error;
mod plan;
mod read;
mod schema;
mod standby;
mod tournament;
mod writer;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};

use super::front::{self, Front};
use super::sqlite::now_ms;
use super::writer::{Counters, Horizon, Request};
use super::{
    AppendOutcome, AuditEntry, AuditRecord, BoxFuture, LogEntry, NewEvent, Snapshot, Store,
    StoreError, StoreStats, StoredEvent,
};

pub use connect::PgTarget;
pub use lease::Standby;
pub use read::{HallReads, PAGE};
pub use schema::SCHEMA_VERSION as PG_SCHEMA_VERSION;
pub use tournament::{Split, TournamentRound, TournamentWithdrawal};

/// How to open a [`PgStore`].
#[derive(Debug, Clone)]
pub struct PgOptions {
    /// This hall's id: the store reads and writes only its rows.
    pub hall_id: String,
    /// The tournament the hall belongs to (recorded with the hall; a hall
    /// recorded under another tournament is refused).
    pub tournament: Option<String>,
    /// The config's SHA-256 (recorded with the hall, informational).
    pub config_sha256: Option<String>,
    /// Most rows written in one transaction (default 16384).
    pub max_batch: usize,
    /// Requests that may wait for the writer before appends wait (default 16384).
    pub queue: usize,
    /// Read connections (default 4).
    pub pool_size: usize,
    /// How long opening waits for another writer of the hall to let go
    /// (default 10 s), then answers [`StoreError::Locked`]; not used with
    /// [`PgOptions::standby`].
    pub lock_wait: Duration,
    /// Wait as a standby instead: as long as another server holds the
    /// hall, taking it over when that server stops beating (`None`: wait
    /// `lock_wait`, then refuse).
    pub standby: Option<Standby>,
    /// PEM file of the CA that signed the database's certificate (TLS).
    pub ca_file: Option<std::path::PathBuf>,
    /// The round the hall plays now: recorded as started at the next
    /// `gseq` unless it is the round started last (see
    /// [`PgStore::round_first_gseq`]).
    pub round: Option<u32>,
    /// The secret-free copy of the hall config, kept with the hall for
    /// exports (`export::stored::sanitize_config`).
    pub config_copy: Option<String>,
}

impl PgOptions {
    /// Defaults for `hall_id`.
    pub fn new(hall_id: impl Into<String>) -> Self {
        PgOptions {
            hall_id: hall_id.into(),
            tournament: None,
            config_sha256: None,
            max_batch: 16384,
            queue: 16384,
            pool_size: 4,
            lock_wait: Duration::from_secs(10),
            standby: None,
            ca_file: None,
            round: None,
            config_copy: None,
        }
    }
}

/// The PostgreSQL store of one hall. [`PgStore::close`] (or
/// [`Store::close`]) lets the writer finish what is queued and releases
/// the hall; dropping it does the same in the background.
pub struct PgStore {
    tx: Mutex<Option<mpsc::Sender<Request>>>,
    writer: Mutex<Option<tokio::task::JoinHandle<()>>>,
    reads: HallReads,
    failed: watch::Receiver<Option<String>>,
    counters: Arc<Counters>,
    reconnects: Arc<AtomicU64>,
    target: PgTarget,
    round_first: Option<u64>,
    /// Connections for what is no log row (the round starts).
    pool: deadpool_postgres::Pool,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("target", &self.target.describe())
            .field("hall", &self.reads.hall())
            .field("failed", &*self.failed.borrow())
            .finish_non_exhaustive()
    }
}

impl PgStore {
    /// Connects, migrates the schema, registers the hall, takes its writer
    /// lock and starts the writer task (on the current Tokio runtime).
    pub async fn open(url: &str, opts: PgOptions) -> Result<PgStore, StoreError> {
        let target = PgTarget::parse(url, opts.ca_file.as_deref())?;
        let unreachable = |e: tokio_postgres::Error| {
            StoreError::Io(format!(
                "cannot reach the database {}: {}",
                target.describe(),
                schema::pg_text(&e)
            ))
        };
        let mut client = target.connect().await.map_err(unreachable)?;
        let warnings = connect::unsafe_settings(&client)
            .await
            .map_err(schema::pg_io)?;
        for w in &warnings {
            tracing::warn!(target = %target.describe(), "{w}");
        }
        schema::migrate(&mut client).await?;
        match &opts.standby {
            Some(standby) => {
                client = standby::take_hall(&target, client, &opts.hall_id, standby).await?;
            }
            None => {
                let deadline = Instant::now() + opts.lock_wait;
                loop {
                    if writer::try_lock_hall(&client, &opts.hall_id)
                        .await
                        .map_err(schema::pg_io)?
                    {
                        break;
                    }
                    if Instant::now() >= deadline {
                        return Err(StoreError::Locked(format!(
                            "hall {} in {}",
                            opts.hall_id,
                            target.describe()
                        )));
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
        let own_pid = lease::own_pid(&client).await.map_err(schema::pg_io)?;
        let next_gseq = schema::register_hall(
            &mut client,
            &opts.hall_id,
            opts.tournament.as_deref(),
            opts.config_sha256.as_deref(),
            now_ms(),
        )
        .await?;
        let round_first = match opts.round {
            Some(round) => Some(
                schema::note_round(
                    &mut client,
                    &opts.hall_id,
                    round,
                    next_gseq,
                    opts.config_copy.as_deref(),
                )
                .await?,
            ),
            None => None,
        };
        let high_water = load_high_water(&client, &opts.hall_id).await?;
        let horizon: Horizon = Arc::new(AtomicU64::new(next_gseq - 1));
        let pool = target.pool(opts.pool_size)?;
        let reads = HallReads::live(pool.clone(), opts.hall_id.clone(), horizon.clone());
        let (tx, rx) = mpsc::channel(opts.queue.max(1));
        let (failed_tx, failed_rx) = watch::channel(None);
        let counters = Arc::new(Counters::default());
        let reconnects = Arc::new(AtomicU64::new(0));
        let w = writer::PgWriter {
            target: target.clone(),
            client: Some(client),
            own_pid,
            hall: opts.hall_id.clone(),
            rx,
            next_gseq,
            max_batch: opts.max_batch.max(1),
            failed: failed_tx,
            counters: counters.clone(),
            horizon,
            high_water,
            reconnects: reconnects.clone(),
        };
        let handle = tokio::spawn(w.run());
        tracing::info!(target = %target.describe(), hall = %opts.hall_id, next_gseq, "store opened (PostgreSQL)");
        Ok(PgStore {
            tx: Mutex::new(Some(tx)),
            writer: Mutex::new(Some(handle)),
            reads,
            failed: failed_rx,
            counters,
            reconnects,
            target,
            round_first,
            pool,
        })
    }

    /// Where [`PgOptions::round`] starts in the hall's log (`None`: no
    /// round was given).
    pub fn round_first_gseq(&self) -> Option<u64> {
        self.round_first
    }

    /// Paged reads of this hall (bounded by what the writer committed).
    pub fn reads(&self) -> &HallReads {
        &self.reads
    }

    /// Writer counters (`syncs` counts commits: each is flushed).
    pub fn stats(&self) -> StoreStats {
        StoreStats {
            commits: self.counters.commits.load(Ordering::Relaxed),
            rows: self.counters.rows.load(Ordering::Relaxed),
            largest_batch: self.counters.largest_batch.load(Ordering::Relaxed),
            syncs: self.counters.syncs.load(Ordering::Relaxed),
        }
    }

    /// Times the writer reconnected after losing the database.
    pub fn reconnects(&self) -> u64 {
        self.reconnects.load(Ordering::Relaxed)
    }

    /// Lets the writer finish what is queued, then releases the hall.
    pub async fn close_store(&self) {
        let sender = self.tx.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(sender);
        let handle = self.writer.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(h) = handle {
            if h.await.is_err() {
                tracing::error!("store writer task panicked");
            }
        }
    }
}

async fn load_high_water(
    client: &tokio_postgres::Client,
    hall: &str,
) -> Result<std::collections::HashMap<(u32, u32), u64>, StoreError> {
    let rows = client
        .query(
            "SELECT table_no, epoch, max(last_seq) FROM event_batches WHERE hall_id = $1
             GROUP BY table_no, epoch",
            &[&hall],
        )
        .await
        .map_err(schema::pg_io)?;
    let mut map = std::collections::HashMap::new();
    for row in rows {
        let (t, e, s): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        if let (Ok(t), Ok(e), Ok(s)) = (u32::try_from(t), u32::try_from(e), u64::try_from(s)) {
            map.insert((t, e), s);
        }
    }
    Ok(map)
}

impl Front for PgStore {
    fn failed(&self) -> &watch::Receiver<Option<String>> {
        &self.failed
    }

    fn writer(&self) -> Result<mpsc::Sender<Request>, StoreError> {
        self.tx
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .ok_or_else(|| StoreError::Failed("the store is closed".into()))
    }
}

impl Store for PgStore {
    fn append(&self, event: NewEvent) -> BoxFuture<'_, Result<AppendOutcome, StoreError>> {
        Box::pin(front::append(self, event))
    }

    fn append_batch(
        &self,
        events: Vec<NewEvent>,
    ) -> BoxFuture<'_, Result<Vec<AppendOutcome>, StoreError>> {
        Box::pin(front::append_batch(self, events))
    }

    fn append_audit(&self, record: AuditRecord) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(front::append_audit(self, record, None))
    }

    fn record_round_start(
        &self,
        round: u32,
        first_gseq: u64,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let client = self
                .pool
                .get()
                .await
                .map_err(|e| StoreError::Io(format!("database: {e}")))?;
            connect::durable_session(&client)
                .await
                .map_err(schema::pg_io)?;
            schema::record_round_start(&client, self.reads.hall(), round, first_gseq).await
        })
    }

    fn save_snapshot(&self, snapshot: Snapshot) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(front::save_snapshot(self, snapshot))
    }

    fn load_snapshot(&self, table: u32) -> BoxFuture<'_, Result<Option<Snapshot>, StoreError>> {
        Box::pin(self.reads.load_snapshot(table))
    }

    fn snapshots(&self) -> BoxFuture<'_, Result<Vec<Snapshot>, StoreError>> {
        Box::pin(self.reads.snapshots())
    }

    fn events_for_table(
        &self,
        table: u32,
        after_gseq: u64,
    ) -> BoxFuture<'_, Result<Vec<StoredEvent>, StoreError>> {
        Box::pin(self.reads.events_after(Some(table), after_gseq))
    }

    fn all_events(&self) -> BoxFuture<'_, Result<Vec<StoredEvent>, StoreError>> {
        Box::pin(self.reads.events_after(None, 0))
    }

    fn log_after(&self, after_gseq: u64) -> BoxFuture<'_, Result<Vec<LogEntry>, StoreError>> {
        Box::pin(self.reads.log_after(after_gseq))
    }

    fn log_page(
        &self,
        after_gseq: u64,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<LogEntry>, StoreError>> {
        Box::pin(self.reads.log_page(after_gseq, limit))
    }

    fn high_water(&self, table: u32, epoch: u32) -> BoxFuture<'_, Result<Option<u64>, StoreError>> {
        Box::pin(self.reads.high_water(table, epoch))
    }

    fn audit_entries(&self) -> BoxFuture<'_, Result<Vec<AuditEntry>, StoreError>> {
        Box::pin(self.reads.audit_entries())
    }

    fn health(&self) -> Result<(), StoreError> {
        front::health(self)
    }

    fn failure(&self) -> watch::Receiver<Option<String>> {
        self.failed.clone()
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.close_store())
    }
}

/// Access to the halls of a database for offline tools (export of a
/// tournament across its halls, verification after a crash): no writer,
/// no lock, no horizon. Its one write is a tournament's round
/// ([`PgDatabase::publish_tournament_round`], `tournament.rs`), which is
/// no hall's row.
pub struct PgDatabase {
    target: PgTarget,
    pool: deadpool_postgres::Pool,
    /// The schema version found (an older one is read as it is).
    version: i32,
}

impl PgDatabase {
    /// Connects to `url` (the schema must exist, this build's or an older
    /// one it still reads, [`schema::OLDEST_READABLE`]: nothing is
    /// migrated by a reader).
    pub async fn connect(url: &str, ca_file: Option<&std::path::Path>) -> Result<Self, StoreError> {
        let target = PgTarget::parse(url, ca_file)?;
        let described = target.describe();
        Self::connect_existing(url, ca_file)
            .await?
            .ok_or_else(|| StoreError::Io(format!("{described} holds no caipan record")))
    }

    /// [`PgDatabase::connect`], or `None` when the database holds no
    /// caipan schema yet (a fresh database: no hall there). A schema newer
    /// than this build, or older than it reads, is [`StoreError::Schema`].
    pub async fn connect_existing(
        url: &str,
        ca_file: Option<&std::path::Path>,
    ) -> Result<Option<Self>, StoreError> {
        let target = PgTarget::parse(url, ca_file)?;
        let pool = target.pool(2)?;
        let mut db = PgDatabase {
            target,
            pool,
            version: 0,
        };
        let client =
            db.pool.get().await.map_err(|e| {
                StoreError::Io(format!("cannot reach {}: {e}", db.target.describe()))
            })?;
        let v = schema::recorded_version(&client).await?;
        drop(client);
        match v {
            Some(v) if (schema::OLDEST_READABLE..=schema::SCHEMA_VERSION).contains(&v) => {
                db.version = v;
                Ok(Some(db))
            }
            Some(v) => Err(StoreError::Schema {
                found: i64::from(v),
                supported: i64::from(schema::SCHEMA_VERSION),
            }),
            None => Ok(None),
        }
    }

    /// The schema version of the database (this build's or an older one).
    pub fn schema_version(&self) -> i32 {
        self.version
    }

    /// Every hall: `(hall_id, tournament)`, by hall id.
    pub async fn halls(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::Io(format!("database: {e}")))?;
        let rows = client
            .query(
                "SELECT hall_id, tournament FROM halls ORDER BY hall_id",
                &[],
            )
            .await
            .map_err(schema::pg_io)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// The halls of `tournament`, by hall id.
    pub async fn tournament_halls(&self, tournament: &str) -> Result<Vec<String>, StoreError> {
        Ok(self
            .halls()
            .await?
            .into_iter()
            .filter(|(_, t)| t.as_deref() == Some(tournament))
            .map(|(h, _)| h)
            .collect())
    }

    /// The secret-free config copy hall `hall_id`'s server kept at its
    /// last start (`None`: none kept).
    pub async fn config_copy(&self, hall_id: &str) -> Result<Option<String>, StoreError> {
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::Io(format!("database: {e}")))?;
        let row = client
            .query_opt(
                "SELECT config_copy FROM halls WHERE hall_id = $1",
                &[&hall_id],
            )
            .await
            .map_err(schema::pg_io)?;
        Ok(row.and_then(|r| r.get(0)))
    }

    /// Where each round of hall `hall_id` started, in start order:
    /// `(round, first gseq)`.
    pub async fn round_starts(&self, hall_id: &str) -> Result<Vec<(u32, u64)>, StoreError> {
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::Io(format!("database: {e}")))?;
        let rows = client
            .query(
                "SELECT round, first_gseq FROM hall_rounds WHERE hall_id = $1 ORDER BY n",
                &[&hall_id],
            )
            .await
            .map_err(schema::pg_io)?;
        rows.iter()
            .map(|r| {
                let (round, first): (i64, i64) = (r.get(0), r.get(1));
                match (u32::try_from(round), u64::try_from(first)) {
                    (Ok(round), Ok(first)) => Ok((round, first)),
                    _ => Err(StoreError::Io(format!(
                        "hall {hall_id}: bad round start ({round}, {first})"
                    ))),
                }
            })
            .collect()
    }

    /// Reads of one hall (every committed row).
    pub fn hall(&self, hall_id: &str) -> HallReads {
        HallReads::new(self.pool.clone(), hall_id.to_string(), None, self.version)
    }
}
