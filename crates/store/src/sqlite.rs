//! [`SqliteStore`]: the embedded [`Store`] — one SQLite file `hall.db` in
//! the hall's data dir (WAL; every commit fsynced before it is answered), a
//! lock file so that only one server uses a data dir, a writer thread and a
//! sync thread doing pipelined group commit (`writer.rs`), and a
//! [`StoreReader`] connection for reads (also usable on its own by offline
//! tools: export, verification after a crash). A running store's reader
//! sees only what is committed *and* synced (the durable horizon).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension, Row};
use tokio::sync::{mpsc, watch};

use super::batch_read;
use super::checkpointer::{self, Checkpointer};
use super::front::{self, Front};
use super::keys::{self, KeyIndex, KeyPassOptions};
use super::walsync::WalFile;
use super::writer::{to_i64, Counters, Horizon, Request, Writer};
use super::{
    schema, AppendOutcome, AuditEntry, AuditOutcome, AuditRecord, BoxFuture, EventKey, LogEntry,
    NewEvent, Snapshot, Store, StoreError, StoredEvent,
};

/// The database file in the data dir.
pub const DB_FILE: &str = "hall.db";
/// The lock file in the data dir (held with `flock` while open).
pub const LOCK_FILE: &str = "hall.lock";

/// How to open a [`SqliteStore`].
#[derive(Debug, Clone)]
pub struct OpenOptions {
    /// This hall's id (`HallConfig::hall_id`): a data dir recorded with
    /// another id is refused.
    pub hall_id: String,
    /// The config's SHA-256, recorded in `meta` (informational).
    pub config_sha256: Option<String>,
    /// Most records (events, audit entries, snapshots) gathered into one
    /// transaction from the queue (default 2048; one request is never
    /// split, and the server's committer sends its batch as one request,
    /// so in a flood a commit holds the whole batch). Since schema 4 a
    /// commit writes one row per `(table, epoch)`, not one per event.
    pub max_batch: usize,
    /// Requests that may wait for the writer before appends wait (default 16384).
    pub queue: usize,
    /// Committed batches that may wait for their fsync while the writer
    /// writes the next (default 4).
    pub sync_depth: usize,
    /// SQLite VFS for the writing connection (`None`: the default). Tests
    /// pass [`super::faults::VFS_NAME`] to inject I/O faults.
    pub vfs: Option<String>,
    /// WAL pages (4 KiB) after which the checkpointer folds the WAL into
    /// `hall.db` (`checkpointer.rs`; default 65,536, i.e. 256 MiB).
    pub checkpoint_pages: u64,
    /// When the writer writes the rows' keys (`keys.rs`, schema 5).
    pub key_pass: KeyPassOptions,
    /// A deliberate durability bug (the store's own power-cut tests).
    #[cfg(test)]
    pub(crate) mutant: super::writer::Mutant,
}

impl OpenOptions {
    /// Defaults for `hall_id`.
    pub fn new(hall_id: impl Into<String>) -> Self {
        OpenOptions {
            hall_id: hall_id.into(),
            config_sha256: None,
            max_batch: 2048,
            queue: 16384,
            sync_depth: 4,
            vfs: None,
            checkpoint_pages: checkpointer::DEFAULT_PAGES,
            key_pass: KeyPassOptions::default(),
            #[cfg(test)]
            mutant: super::writer::Mutant::None,
        }
    }
}

/// Counters of the writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreStats {
    /// Transactions committed.
    pub commits: u64,
    /// Rows (events, audit entries, snapshots) in committed transactions,
    /// duplicates included.
    pub rows: u64,
    /// Most rows in one transaction.
    pub largest_batch: u64,
    /// fsyncs of the WAL behind commits (one may cover several commits).
    pub syncs: u64,
}

/// The SQLite store. Dropping it lets the writer finish what is queued,
/// then closes the database.
pub struct SqliteStore {
    tx: Option<mpsc::Sender<Request>>,
    writer: Option<JoinHandle<()>>,
    reader: Arc<StoreReader>,
    failed: watch::Receiver<Option<String>>,
    counters: Arc<Counters>,
    /// The checkpointer thread (`None` once stopped for the final
    /// checkpoint) and what it shares with the writer's WAL hook.
    checkpointer: Mutex<Option<Checkpointer>>,
    checkpoints: Arc<checkpointer::Shared>,
    path: PathBuf,
    _lock: File,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("path", &self.path)
            .field("failed", &*self.failed.borrow())
            .finish_non_exhaustive()
    }
}

impl SqliteStore {
    /// Opens (creating if needed) the store in `data_dir`. Blocking: call it
    /// at startup, not on an async worker under load.
    pub fn open(data_dir: &Path, opts: OpenOptions) -> Result<Self, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|e| {
            StoreError::Io(format!(
                "cannot create data dir {}: {e}",
                data_dir.display()
            ))
        })?;
        let lock = lock_dir(data_dir)?;
        let path = data_dir.join(DB_FILE);
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = match &opts.vfs {
            Some(vfs) => Connection::open_with_flags_and_vfs(&path, flags, vfs.as_str())?,
            None => Connection::open_with_flags(&path, flags)?,
        };
        schema::configure_writer(&conn)?;
        let next_gseq = schema::prepare(
            &mut conn,
            &opts.hall_id,
            opts.config_sha256.as_deref(),
            now_ms(),
        )?;
        let (keys, high_water) = KeyIndex::load(&conn, opts.key_pass)?;
        let wal_path = match conn.path() {
            Some(p) if !p.is_empty() => PathBuf::from(format!("{p}-wal")),
            _ => PathBuf::from(format!("{}-wal", path.display())),
        };
        let mut wal = WalFile::open(opts.vfs.as_deref(), &wal_path)?;
        // What a killed server left in the WAL may be in the page cache
        // only: make it durable before anything is answered from it.
        wal.sync().map_err(StoreError::Io)?;
        schema::pipeline_commits(&conn)?;
        let checkpoints = checkpointer::Shared::new(opts.checkpoint_pages);
        let checkpointer = Checkpointer::start(&path, opts.vfs.as_deref(), checkpoints.clone())?;
        let horizon: Horizon = Arc::new(AtomicU64::new(next_gseq - 1));
        let reader = Arc::new(StoreReader::open_live(&path, horizon.clone())?);
        let (tx, rx) = mpsc::channel(opts.queue.max(1));
        let (failed_tx, failed_rx) = watch::channel(None);
        let counters = Arc::new(Counters::default());
        let wal_hook = checkpointer::install(&conn, &checkpoints);
        let writer = Writer {
            conn,
            rx,
            next_gseq,
            max_batch: opts.max_batch.max(1),
            depth: opts.sync_depth.max(1),
            failed: failed_tx,
            counters: counters.clone(),
            horizon,
            high_water,
            keys,
            _wal_hook: wal_hook,
            #[cfg(test)]
            mutant: opts.mutant,
        };
        let handle = std::thread::Builder::new()
            .name("store-writer".into())
            .spawn(move || writer.run(wal))
            .map_err(|e| StoreError::Io(format!("cannot start the store writer: {e}")))?;
        tracing::info!(path = %path.display(), next_gseq, "store opened");
        Ok(SqliteStore {
            tx: Some(tx),
            writer: Some(handle),
            reader,
            failed: failed_rx,
            counters,
            checkpointer: Mutex::new(Some(checkpointer)),
            checkpoints,
            path,
            _lock: lock,
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Folds the write-ahead log into the database file and truncates it
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), so that `hall.db` alone holds
    /// every committed row: a clean stop calls it once nothing more is
    /// written. Blocking. The checkpointer thread is stopped first (so
    /// its PASSIVE checkpoints cannot make this one busy); should anything
    /// be written after, the writer checkpoints inline.
    pub fn checkpoint_wal(&self) -> Result<(), StoreError> {
        self.stop_checkpointer();
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let (busy, log, done): (i64, i64, i64) =
            conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
        if busy != 0 {
            return Err(StoreError::Io(format!(
                "checkpoint incomplete: the database was busy ({done} of {log} WAL pages copied)"
            )));
        }
        Ok(())
    }

    /// Stops the checkpointer thread, if it runs.
    fn stop_checkpointer(&self) {
        let taken = self
            .checkpointer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(mut c) = taken {
            c.stop();
        }
    }

    /// Why the checkpointer thread stopped with an error, if it did (the
    /// writer then checkpoints inline, as SQLite's auto-checkpoint would).
    pub fn checkpointer_failure(&self) -> Option<String> {
        self.checkpoints
            .failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Checkpoints run by the checkpointer thread (PASSIVE; FULL ones to
    /// settle), checkpoints run inline by the writer, and the most WAL
    /// pages seen after a commit.
    pub fn checkpoint_stats(&self) -> (u64, u64, u64, u64) {
        (
            self.checkpoints.checkpoints.load(Ordering::Relaxed),
            self.checkpoints.settles.load(Ordering::Relaxed),
            self.checkpoints.inline.load(Ordering::Relaxed),
            self.checkpoints.most_frames.load(Ordering::Relaxed),
        )
    }

    /// The read connection (synchronous reads).
    pub fn reader(&self) -> &StoreReader {
        &self.reader
    }

    /// Writer counters.
    pub fn stats(&self) -> StoreStats {
        StoreStats {
            commits: self.counters.commits.load(Ordering::Relaxed),
            rows: self.counters.rows.load(Ordering::Relaxed),
            largest_batch: self.counters.largest_batch.load(Ordering::Relaxed),
            syncs: self.counters.syncs.load(Ordering::Relaxed),
        }
    }

    fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&StoreReader) -> Result<T, StoreError> + Send + 'static,
    ) -> BoxFuture<'_, Result<T, StoreError>> {
        let reader = self.reader.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || f(&reader))
                .await
                .map_err(|e| StoreError::Io(format!("store read task: {e}")))?
        })
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.stop_checkpointer();
        // Closing the channel lets the writer finish the queue and stop.
        self.tx.take();
        if let Some(h) = self.writer.take() {
            if h.join().is_err() {
                tracing::error!("store writer thread panicked");
            }
        }
    }
}

impl Front for SqliteStore {
    fn failed(&self) -> &watch::Receiver<Option<String>> {
        &self.failed
    }

    fn writer(&self) -> Result<mpsc::Sender<Request>, StoreError> {
        self.tx.clone().ok_or_else(|| front::failed_error(self))
    }
}

impl Store for SqliteStore {
    fn checkpoint(&self) -> Result<(), StoreError> {
        self.checkpoint_wal()
    }

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

    fn append_published(
        &self,
        record: AuditRecord,
        round: u32,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(front::append_audit(self, record, Some(round)))
    }

    fn published_rounds(&self) -> BoxFuture<'_, Result<Vec<AuditEntry>, StoreError>> {
        self.read(|r| r.published_rounds())
    }

    fn save_snapshot(&self, snapshot: Snapshot) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(front::save_snapshot(self, snapshot))
    }

    fn load_snapshot(&self, table: u32) -> BoxFuture<'_, Result<Option<Snapshot>, StoreError>> {
        self.read(move |r| r.load_snapshot(table))
    }

    fn snapshots(&self) -> BoxFuture<'_, Result<Vec<Snapshot>, StoreError>> {
        self.read(|r| r.snapshots())
    }

    fn events_for_table(
        &self,
        table: u32,
        after_gseq: u64,
    ) -> BoxFuture<'_, Result<Vec<StoredEvent>, StoreError>> {
        self.read(move |r| r.events_for_table(table, after_gseq))
    }

    fn all_events(&self) -> BoxFuture<'_, Result<Vec<StoredEvent>, StoreError>> {
        self.read(|r| r.all_events())
    }

    fn log_after(&self, after_gseq: u64) -> BoxFuture<'_, Result<Vec<LogEntry>, StoreError>> {
        self.read(move |r| r.log_after(after_gseq))
    }

    fn log_page(
        &self,
        after_gseq: u64,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<LogEntry>, StoreError>> {
        self.read(move |r| r.log_page(after_gseq, limit))
    }

    fn high_water(&self, table: u32, epoch: u32) -> BoxFuture<'_, Result<Option<u64>, StoreError>> {
        self.read(move |r| r.high_water(table, epoch))
    }

    fn audit_entries(&self) -> BoxFuture<'_, Result<Vec<AuditEntry>, StoreError>> {
        self.read(|r| r.audit_entries())
    }

    fn health(&self) -> Result<(), StoreError> {
        front::health(self)
    }

    fn failure(&self) -> watch::Receiver<Option<String>> {
        self.failed.clone()
    }
}

/// Synchronous reads over one read-only connection. The reader of a
/// running [`SqliteStore`] sees only rows up to the durable horizon
/// (committed and synced); one opened on its own sees every row.
pub struct StoreReader {
    conn: Mutex<Connection>,
    horizon: Option<Horizon>,
    /// [`AUDIT_COLUMNS`], or [`AUDIT_COLUMNS_UNTYPED`] on an older store.
    audit_columns: &'static str,
    /// The events are kept one row each (`events`, schemas 1-3, opened
    /// read-only and so not migrated) rather than batched (`batch_read`).
    event_rows: bool,
    /// The batched rows' keys are in `event_keys` (schema 5) rather than
    /// in an index of the rows (schema 4 opened read-only).
    keyed: bool,
}

impl std::fmt::Debug for StoreReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreReader").finish_non_exhaustive()
    }
}

/// The columns of the one-row-per-event `events` table (schemas 1-3).
const EVENT_COLUMNS: &str =
    "gseq, table_no, epoch, seq, kind, payload, payload_hash, received_at_ms";
const AUDIT_COLUMNS: &str =
    "id, who, action, table_no, payload, at_ms, outcome, why, action_msg, why_msg";
/// The audit columns of a store of schema 1 or 2 opened read-only (not
/// migrated): no typed messages.
const AUDIT_COLUMNS_UNTYPED: &str =
    "id, who, action, table_no, payload, at_ms, outcome, why, NULL, NULL";

impl StoreReader {
    /// Opens `hall.db` (the file path) read-only; works while a server has
    /// it open, and on a store left behind by a killed server.
    pub fn open(db_file: &Path) -> Result<Self, StoreError> {
        Self::open_with(db_file, None)
    }

    /// The reader of a running store: rows above `horizon` are not seen.
    fn open_live(db_file: &Path, horizon: Horizon) -> Result<Self, StoreError> {
        Self::open_with(db_file, Some(horizon))
    }

    fn open_with(db_file: &Path, horizon: Option<Horizon>) -> Result<Self, StoreError> {
        let conn = Connection::open_with_flags(
            db_file,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "cache_size", -16384)?;
        let audit_columns = match schema::has_typed_audit(&conn)? {
            true => AUDIT_COLUMNS,
            false => AUDIT_COLUMNS_UNTYPED,
        };
        let event_rows = super::migrate::has_event_rows(&conn)?;
        let keyed = keys::has_event_keys(&conn)?;
        Ok(StoreReader {
            conn: Mutex::new(conn),
            horizon,
            audit_columns,
            event_rows,
            keyed,
        })
    }

    /// The highest `gseq` this reader may return.
    fn upto(&self) -> i64 {
        match &self.horizon {
            Some(h) => to_i64(h.load(Ordering::Acquire)),
            None => i64::MAX,
        }
    }

    /// Opens the store of a data dir read-only.
    pub fn open_dir(data_dir: &Path) -> Result<Self, StoreError> {
        Self::open(&data_dir.join(DB_FILE))
    }

    /// `PRAGMA integrity_check`: `Ok` when SQLite finds the file sound,
    /// else the problems it lists (after a crash or a power cut).
    pub fn integrity_check(&self) -> Result<(), StoreError> {
        let lines: Vec<String> = self.with(|c| {
            let mut st = c.prepare("PRAGMA integrity_check")?;
            let rows = st.query_map([], |r| r.get::<_, String>(0))?;
            rows.collect()
        })?;
        if lines.len() == 1 && lines[0] == "ok" {
            Ok(())
        } else {
            Err(StoreError::Io(format!(
                "integrity check of the database failed: {}",
                lines.join("; ")
            )))
        }
    }

    fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        f(&conn).map_err(StoreError::from)
    }

    fn with_store<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        f(&conn)
    }

    /// See [`Store::events_for_table`].
    pub fn events_for_table(
        &self,
        table: u32,
        after_gseq: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let upto = self.upto();
        if !self.event_rows {
            let keyed = self.keyed;
            return self
                .with_store(|c| batch_read::events_of_table(c, keyed, table, after_gseq, upto));
        }
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {EVENT_COLUMNS} FROM events
                 WHERE table_no = ?1 AND gseq > ?2 AND gseq <= ?3 ORDER BY gseq"
            ))?;
            let rows = st.query_map(
                params![i64::from(table), to_i64(after_gseq), upto],
                event_row,
            )?;
            rows.collect()
        })
    }

    /// See [`Store::all_events`].
    pub fn all_events(&self) -> Result<Vec<StoredEvent>, StoreError> {
        let upto = self.upto();
        if !self.event_rows {
            return self.with_store(|c| batch_read::events_in(c, 0, upto));
        }
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {EVENT_COLUMNS} FROM events WHERE gseq <= ?1 ORDER BY gseq"
            ))?;
            let rows = st.query_map([upto], event_row)?;
            rows.collect()
        })
    }

    /// See [`Store::log_after`].
    pub fn log_after(&self, after_gseq: u64) -> Result<Vec<LogEntry>, StoreError> {
        let upto = self.upto();
        let events = match self.event_rows {
            false => self.with_store(|c| batch_read::events_in(c, after_gseq, upto))?,
            true => self.with(|c| {
                let mut st = c.prepare_cached(&format!(
                    "SELECT {EVENT_COLUMNS} FROM events
                     WHERE gseq > ?1 AND gseq <= ?2 ORDER BY gseq"
                ))?;
                let rows = st.query_map([to_i64(after_gseq), upto], event_row)?;
                rows.collect::<rusqlite::Result<Vec<_>>>()
            })?,
        };
        let cols = self.audit_columns;
        let audits = self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {cols} FROM audit WHERE id > ?1 AND id <= ?2 ORDER BY id"
            ))?;
            let rows = st.query_map([to_i64(after_gseq), upto], audit_row)?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        let mut log: Vec<LogEntry> = events
            .into_iter()
            .map(LogEntry::Event)
            .chain(audits.into_iter().map(LogEntry::Audit))
            .collect();
        log.sort_by_key(LogEntry::gseq);
        Ok(log)
    }

    /// See [`Store::log_page`].
    pub fn log_page(&self, after_gseq: u64, limit: usize) -> Result<Vec<LogEntry>, StoreError> {
        let upto = self.upto();
        let events = match self.event_rows {
            false => self.with_store(|c| batch_read::events_page(c, after_gseq, upto, limit))?,
            true => self.with(|c| {
                let mut st = c.prepare_cached(&format!(
                    "SELECT {EVENT_COLUMNS} FROM events WHERE gseq > ?1 AND gseq <= ?2
                     ORDER BY gseq LIMIT ?3"
                ))?;
                let limit = i64::try_from(limit).unwrap_or(i64::MAX);
                let rows = st.query_map([to_i64(after_gseq), upto, limit], event_row)?;
                rows.collect::<rusqlite::Result<Vec<_>>>()
            })?,
        };
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let cols = self.audit_columns;
        let audits = self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {cols} FROM audit WHERE id > ?1 AND id <= ?2 ORDER BY id LIMIT ?3"
            ))?;
            let rows = st.query_map([to_i64(after_gseq), upto, limit], audit_row)?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        let mut log: Vec<LogEntry> = events
            .into_iter()
            .map(LogEntry::Event)
            .chain(audits.into_iter().map(LogEntry::Audit))
            .collect();
        log.sort_by_key(LogEntry::gseq);
        log.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(log)
    }

    /// See [`Store::high_water`].
    pub fn high_water(&self, table: u32, epoch: u32) -> Result<Option<u64>, StoreError> {
        let upto = self.upto();
        let event_rows = self.event_rows;
        let keyed = self.keyed;
        self.with(|c| {
            if !event_rows {
                let v = batch_read::high_water(c, keyed, table, epoch, upto)?;
                return Ok(v.and_then(|v| u64::try_from(v).ok()));
            }
            let v: Option<i64> = c
                .prepare_cached(
                    "SELECT max(seq) FROM events WHERE table_no = ?1 AND epoch = ?2 AND gseq <= ?3",
                )?
                .query_row(params![i64::from(table), i64::from(epoch), upto], |r| {
                    r.get(0)
                })?;
            Ok(v.and_then(|v| u64::try_from(v).ok()))
        })
    }

    /// See [`Store::audit_entries`].
    pub fn audit_entries(&self) -> Result<Vec<AuditEntry>, StoreError> {
        let upto = self.upto();
        let cols = self.audit_columns;
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {cols} FROM audit WHERE id <= ?1 ORDER BY id"
            ))?;
            let rows = st.query_map([upto], audit_row)?;
            rows.collect()
        })
    }

    /// See [`Store::published_rounds`]: the audit entries listed in
    /// `published_rounds`; in a store of schema 1 that no server has
    /// opened since (read-only here, so not migrated), the accepted audit
    /// entries whose action begins [`crate::PUBLISH_ACTION`].
    pub fn published_rounds(&self) -> Result<Vec<AuditEntry>, StoreError> {
        let upto = self.upto();
        let indexed: bool = self.with(|c| {
            c.query_row(
                "SELECT count(*) > 0 FROM sqlite_master
                 WHERE type = 'table' AND name = 'published_rounds'",
                [],
                |r| r.get(0),
            )
        })?;
        if !indexed {
            let all = self.audit_entries()?;
            return Ok(all.into_iter().filter(crate::is_publish_action).collect());
        }
        let cols = self.audit_columns;
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {cols} FROM audit
                 WHERE id IN (SELECT gseq FROM published_rounds) AND id <= ?1 ORDER BY id"
            ))?;
            let rows = st.query_map([upto], audit_row)?;
            rows.collect()
        })
    }

    /// See [`Store::load_snapshot`].
    pub fn load_snapshot(&self, table: u32) -> Result<Option<Snapshot>, StoreError> {
        self.with(|c| {
            c.prepare_cached(
                "SELECT table_no, upto_epoch, upto_seq, upto_gseq, state, saved_at_ms
                 FROM snapshots WHERE table_no = ?1",
            )?
            .query_row([i64::from(table)], snapshot_row)
            .optional()
        })
    }

    /// See [`Store::snapshots`].
    pub fn snapshots(&self) -> Result<Vec<Snapshot>, StoreError> {
        self.with(|c| {
            let mut st = c.prepare_cached(
                "SELECT table_no, upto_epoch, upto_seq, upto_gseq, state, saved_at_ms
                 FROM snapshots ORDER BY table_no",
            )?;
            let rows = st.query_map([], snapshot_row)?;
            rows.collect()
        })
    }

    /// Number of stored events.
    pub fn event_count(&self) -> Result<u64, StoreError> {
        let upto = self.upto();
        let event_rows = self.event_rows;
        self.with(|c| {
            let n: i64 = match event_rows {
                false => batch_read::count(c, upto)?,
                true => c.query_row(
                    "SELECT count(*) FROM events WHERE gseq <= ?1",
                    [upto],
                    |r| r.get(0),
                )?,
            };
            Ok(u64::try_from(n).unwrap_or(0))
        })
    }

    /// The hall id recorded in the store.
    pub fn hall_id(&self) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            c.query_row("SELECT value FROM meta WHERE key = 'hall_id'", [], |r| {
                r.get(0)
            })
            .optional()
        })
    }
}

fn u32_col(row: &Row<'_>, i: usize) -> rusqlite::Result<u32> {
    let v: i64 = row.get(i)?;
    u32::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(i, v))
}

fn u64_col(row: &Row<'_>, i: usize) -> rusqlite::Result<u64> {
    let v: i64 = row.get(i)?;
    u64::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(i, v))
}

fn event_row(row: &Row<'_>) -> rusqlite::Result<StoredEvent> {
    let h: Vec<u8> = row.get(6)?;
    let mut payload_hash = [0u8; 32];
    if h.len() == 32 {
        payload_hash.copy_from_slice(&h);
    }
    Ok(StoredEvent {
        gseq: u64_col(row, 0)?,
        key: EventKey {
            table: u32_col(row, 1)?,
            epoch: u32_col(row, 2)?,
            seq: u64_col(row, 3)?,
        },
        kind: row.get(4)?,
        payload: row.get(5)?,
        payload_hash,
        received_at_ms: row.get(7)?,
    })
}

fn audit_row(row: &Row<'_>) -> rusqlite::Result<AuditEntry> {
    let table: Option<i64> = row.get(3)?;
    let outcome: String = row.get(6)?;
    let why: Option<String> = row.get(7)?;
    Ok(AuditEntry {
        id: u64_col(row, 0)?,
        record: AuditRecord {
            who: row.get(1)?,
            action: row.get(2)?,
            table: table.and_then(|t| u32::try_from(t).ok()),
            payload: row.get(4)?,
            at_ms: row.get(5)?,
            outcome: if outcome == "refused" {
                AuditOutcome::Refused {
                    why: why.unwrap_or_default(),
                }
            } else {
                AuditOutcome::Accepted
            },
            action_msg: row.get(8)?,
            why_msg: row.get(9)?,
        },
    })
}

fn snapshot_row(row: &Row<'_>) -> rusqlite::Result<Snapshot> {
    Ok(Snapshot {
        table: u32_col(row, 0)?,
        upto_epoch: u32_col(row, 1)?,
        upto_seq: u64_col(row, 2)?,
        upto_gseq: u64_col(row, 3)?,
        state: row.get(4)?,
        saved_at_ms: row.get(5)?,
    })
}

/// Takes an exclusive `flock` on the data dir's lock file.
fn lock_dir(data_dir: &Path) -> Result<File, StoreError> {
    let path = data_dir.join(LOCK_FILE);
    // A new lock file's name is made durable (its directory fsynced).
    let file = proto::durable::create_durable(&path)
        .map_err(|e| StoreError::Io(format!("cannot open the lock file: {e}")))?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a valid open file descriptor owned by `file`.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc != 0 {
            return Err(StoreError::Locked(data_dir.display().to_string()));
        }
    }
    Ok(file)
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
