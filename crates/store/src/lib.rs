//! The durable event store (事件存储): every table event and every console
//! action (accepted or refused) is appended here and committed to disk
//! *before* anything is acknowledged; on restart the server rebuilds all
//! state by replaying it (snapshots keep that fast).
//!
//! [`Store`] is the trait the server runtime uses (object-safe, so an
//! `Arc<dyn Store>` works); [`PgStore`] keeps several halls in one
//! PostgreSQL database (`postgres/`); [`SqliteStore`] is the embedded implementation (one file
//! `hall.db` in the data dir, WAL, pipelined group commit: a writer thread
//! commits batch N+1 while a sync thread fsyncs the WAL behind batch N;
//! every answer waits for its fsync, so acknowledged means durable exactly
//! as with synchronous=FULL). [`faults`] holds the fault-injecting SQLite
//! VFS used by storage-fault tests; the store's own WAL fsync goes through
//! it too.
//!
//! Ordering: every appended row (event or audit entry) gets a global
//! sequence number `gseq` (1, 2, 3, ...) in commit order; replaying by
//! `gseq` is deterministic.
//!
//! Idempotency: an event is keyed by `(table, epoch, seq)`. Appending a key
//! already stored with the same content (`kind` + `payload`) answers
//! [`AppendOutcome::Duplicate`] (acknowledge again); with different content
//! [`AppendOutcome::Conflict`] (an error for the sender: nothing is changed).
//!
//! Failure: if a commit (or its fsync) fails, the store is *failed*: every
//! pending and later write gets [`StoreError::Failed`], and
//! [`Store::failure`] fires so the server stops instead of acknowledging
//! what it could not store.
//!
//! Visibility: the reads of a running store ([`Store`] reads,
//! [`SqliteStore::reader`]) return only rows up to the durable horizon
//! (committed *and* synced), so nothing read back can be acknowledged
//! before it is durable. A [`StoreReader`] opened on its own sees every row.
//!
//! Throughput: `cargo bench -p caipan-store --bench store` and
//! `--bench store_hall`; measured figures are in docs/benchmarks.md.
//!
//! # Modules
//! - this file: the [`Store`] trait and its plain types ([`EventKey`],
//!   [`NewEvent`], [`LogEntry`], [`Snapshot`], [`StoreError`], ...).
//! - `sqlite`: [`SqliteStore`] (writer thread + WAL sync thread) and the
//!   standalone [`StoreReader`]; `writer`: the batch commit shared by
//!   SQLite and PostgreSQL; `walsync`: the fsync of the WAL; `schema`:
//!   the SQLite tables and triggers; `batch`: the body of SQLite's batched
//!   event rows (one row per table per commit, schema 4); `migrate`: the
//!   conversion of the one-row-per-event `events` table of schemas 1-3.
//! - [`postgres`]: [`PgStore`] / [`PgDatabase`], several halls in one
//!   database.
//! - [`faults`]: the fault-injecting SQLite VFS (failed syncs and writes,
//!   power cuts that lose what was not synced).
//! - [`backup`]: `caipan backup` of a data dir while the server runs.
//!
//! Dependencies: proto (plain data, only the data-dir file names), rusqlite,
//! tokio, tokio-postgres (with rustls). Not the hall, not quinn: the store
//! keeps records as opaque bytes; the server (crates/server) and the export
//! (crates/export) decode them.

pub mod backup;
mod batch;
mod batch_read;
mod busy;
mod checkpointer;
pub mod faults;
mod front;
mod keys;
#[cfg(test)]
mod keys_tests;
pub mod markers;
mod migrate;
pub mod postgres;
#[cfg(test)]
mod powercut_tests;
mod schema;
mod sqlite;
#[cfg(test)]
mod tests;
mod walsync;
mod writer;

use std::future::Future;
use std::pin::Pin;

use sha2::{Digest, Sha256};

pub use keys::KeyPassOptions;
pub use postgres::{PgDatabase, PgOptions, PgStore, Split, TournamentRound, TournamentWithdrawal};
pub use sqlite::{OpenOptions, SqliteStore, StoreReader, StoreStats, DB_FILE, LOCK_FILE};

/// A boxed, sendable future (keeps [`Store`] object-safe).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The key of a table event: the table, the terminal's epoch (bumped when a
/// terminal starts over without its outbox) and its sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventKey {
    /// Table number.
    pub table: u32,
    /// Terminal epoch.
    pub epoch: u32,
    /// Sequence number within the epoch (at most `i64::MAX`).
    pub seq: u64,
}

/// An event to append. The store treats `kind` and `payload` as opaque
/// (the payload is the encoded protocol message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    /// Its key.
    pub key: EventKey,
    /// Short kind name, e.g. `clock_press` (at most 64 bytes); borrowed
    /// when static (the server's `event`: no allocation per event).
    pub kind: std::borrow::Cow<'static, str>,
    /// Encoded message.
    pub payload: Vec<u8>,
    /// When the server received it (Unix ms).
    pub received_at_ms: i64,
}

impl NewEvent {
    /// SHA-256 over the content that must match for a duplicate:
    /// `kind`, a zero byte, `payload`. (`received_at_ms` is not content: a
    /// resend arrives later.)
    pub fn content_hash(&self) -> [u8; 32] {
        content_hash(&self.kind, &self.payload)
    }
}

/// The content hash of an event (see [`NewEvent::content_hash`]).
pub fn content_hash(kind: &str, payload: &[u8]) -> [u8; 32] {
    hash_parts(kind.as_bytes(), payload)
}

/// [`content_hash`] of a kind's bytes and a payload.
pub(crate) fn hash_parts(kind: &[u8], payload: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(kind);
    h.update([0u8]);
    h.update(payload);
    h.finalize().into()
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    /// Global sequence number (commit order).
    pub gseq: u64,
    /// Its key.
    pub key: EventKey,
    /// Kind name.
    pub kind: String,
    /// Encoded message.
    pub payload: Vec<u8>,
    /// [`content_hash`] of kind and payload.
    pub payload_hash: [u8; 32],
    /// When the server received it (Unix ms).
    pub received_at_ms: i64,
}

/// What happened to one appended event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppendOutcome {
    /// Newly stored and committed.
    Stored {
        /// Its global sequence number.
        gseq: u64,
    },
    /// Already stored with the same content (a resend): acknowledge again.
    Duplicate {
        /// The stored row's global sequence number.
        gseq: u64,
    },
    /// Already stored with different content: refuse; nothing changed.
    Conflict {
        /// The stored row's global sequence number.
        gseq: u64,
        /// The stored row's content hash (boxed: a conflict is rare, and
        /// a flood's batch holds thousands of outcomes).
        existing_hash: Box<[u8; 32]>,
    },
}

impl AppendOutcome {
    /// True for `Stored` and `Duplicate` (the event is durably there).
    pub fn is_durable(&self) -> bool {
        matches!(
            self,
            AppendOutcome::Stored { .. } | AppendOutcome::Duplicate { .. }
        )
    }
}

/// Whether an audited action was carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditOutcome {
    /// Accepted and carried out.
    Accepted,
    /// Refused, with the reason given to the peer.
    Refused {
        /// Why.
        why: String,
    },
}

/// An audit entry to append: who did what, when, and the outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRecord {
    /// Who (e.g. `chief:王志明`, see `auth::Principal::who`).
    pub who: String,
    /// What (e.g. `pause_table`, see `auth::Action::name`).
    pub action: String,
    /// The table concerned, if any.
    pub table: Option<u32>,
    /// The encoded command (opaque).
    pub payload: Vec<u8>,
    /// When (Unix ms).
    pub at_ms: i64,
    /// Accepted or refused.
    pub outcome: AuditOutcome,
    /// What was done, typed: the encoded catalogue message whose English
    /// is `action` (opaque here; the hall encodes a `proto::Message` with
    /// bincode, standard config: `hall::record::encode_message`). `None`
    /// on rows written before SQLite schema 3 / PostgreSQL schema 4: they
    /// render as `action`.
    pub action_msg: Option<Vec<u8>>,
    /// Why it was refused, typed (encoded as `action_msg`); `None` when
    /// accepted, or written before.
    pub why_msg: Option<Vec<u8>>,
}

/// How the action of an audit entry that published a round begins (the
/// hall's words for `Command::PublishRound`): how a store that does not
/// record publications apart (schema 1, PostgreSQL) finds them.
pub const PUBLISH_ACTION: &str = "publish round ";

/// How the actions listed with the publications begin (the hall's words
/// for `Command::WithdrawRound`, `Command::EnterPlayer` and
/// `Command::WithdrawPlayer`): read with the published rounds
/// (`export::published`), found by these words where the store does not
/// list them apart (PostgreSQL).
pub const LISTED_WITH_PUBLICATIONS: [&str; 4] = [
    PUBLISH_ACTION,
    "withdraw round ",
    "enter player ",
    "withdraw player ",
];

/// An accepted audit entry whose action begins [`PUBLISH_ACTION`] or
/// another of [`LISTED_WITH_PUBLICATIONS`] (each is decoded and checked by
/// its reader, `export::published`, which passes over another record).
pub fn is_publish_action(e: &AuditEntry) -> bool {
    e.record.outcome == AuditOutcome::Accepted
        && LISTED_WITH_PUBLICATIONS
            .iter()
            .any(|a| e.record.action.starts_with(a))
}

/// A stored audit entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// Its id: a global sequence number shared with events.
    pub id: u64,
    /// The entry.
    pub record: AuditRecord,
}

/// One row of the replay log: events and audit entries merged in `gseq`
/// order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogEntry {
    /// A table event.
    Event(StoredEvent),
    /// A console action (accepted or refused).
    Audit(AuditEntry),
}

impl LogEntry {
    /// The global sequence number.
    pub fn gseq(&self) -> u64 {
        match self {
            LogEntry::Event(e) => e.gseq,
            LogEntry::Audit(a) => a.id,
        }
    }
}

/// `table` of the hall's own snapshot row ([`Snapshot`]; table numbers are
/// `u16`, so it never names a table). The server writes it, the export
/// reads from its cut on.
pub const HALL_ROW: u32 = u32::MAX;

/// A table-state snapshot: the state after every log row up to `upto_gseq`
/// (the table's last event then being `(upto_epoch, upto_seq)`). The latest
/// one per table is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Table number.
    pub table: u32,
    /// Epoch of the last event included.
    pub upto_epoch: u32,
    /// Seq of the last event included.
    pub upto_seq: u64,
    /// Global sequence number of the last log row included.
    pub upto_gseq: u64,
    /// Encoded state (opaque).
    pub state: Vec<u8>,
    /// When it was taken (Unix ms).
    pub saved_at_ms: i64,
}

/// Store errors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The store failed (a commit or fsync failed, or the writer stopped);
    /// nothing more is accepted. The server must stop.
    #[error("store failed: {0}")]
    Failed(String),
    /// The data dir belongs to another hall.
    #[error("data dir belongs to hall {found}, not to this hall ({expected})")]
    WrongHall {
        /// This config's hall id.
        expected: String,
        /// The id recorded in the store.
        found: String,
    },
    /// Another process holds the data dir.
    #[error("data dir {0} is in use by another process")]
    Locked(String),
    /// The database has a schema this build does not know.
    #[error("store schema version {found} is not supported (this build: {supported})")]
    Schema {
        /// Version in the file.
        found: i64,
        /// Version of this build.
        supported: i64,
    },
    /// The request itself is invalid (nothing was written).
    #[error("invalid request: {0}")]
    Invalid(String),
    /// Opening or reading failed.
    #[error("store I/O: {0}")]
    Io(String),
    /// A stored record does not decode (the file was damaged or written
    /// by something else): names the record and what is wrong with it.
    #[error("stored record {row} is damaged: {why}")]
    Corrupt {
        /// Which record (e.g. `event batch 42 (table 7, epoch 1, gseq 42..=97)`).
        row: String,
        /// What does not decode.
        why: String,
    },
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Io(e.to_string())
    }
}

/// The event store the server runtime uses.
pub trait Store: Send + Sync {
    /// Appends one event; answers after it is committed (or known).
    fn append(&self, event: NewEvent) -> BoxFuture<'_, Result<AppendOutcome, StoreError>>;

    /// Appends several events in one request (one outcome each, in order).
    fn append_batch(
        &self,
        events: Vec<NewEvent>,
    ) -> BoxFuture<'_, Result<Vec<AppendOutcome>, StoreError>>;

    /// Appends an audit entry; answers its id after the commit.
    fn append_audit(&self, record: AuditRecord) -> BoxFuture<'_, Result<u64, StoreError>>;

    /// Appends the audit entry of an accepted command that publishes round
    /// `round` from the console (下一轮): stored as any audit entry, and
    /// listed by [`Store::published_rounds`] from then on. The default
    /// (PostgreSQL, which finds them by their words, [`is_publish_action`])
    /// stores the audit entry only.
    fn append_published(
        &self,
        record: AuditRecord,
        round: u32,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        let _ = round;
        self.append_audit(record)
    }

    /// The audit entries that published a round from the console, in id
    /// order (SQLite: the `published_rounds` table). The default reads
    /// every audit entry and keeps the accepted ones whose action begins
    /// one of [`LISTED_WITH_PUBLICATIONS`] (the hall's words for the
    /// commands; PostgreSQL).
    fn published_rounds(&self) -> BoxFuture<'_, Result<Vec<AuditEntry>, StoreError>> {
        Box::pin(async move {
            let all = self.audit_entries().await?;
            Ok(all.into_iter().filter(is_publish_action).collect())
        })
    }

    /// Records that round `round`, published in the running hall, starts
    /// at `first_gseq` in the hall's log, for exports across halls
    /// (PostgreSQL's `hall_rounds`; idempotent, and never for a round
    /// before one already started). The default (SQLite, whose round
    /// starts are in the data dir) does nothing.
    fn record_round_start(
        &self,
        round: u32,
        first_gseq: u64,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let _ = (round, first_gseq);
        Box::pin(async { Ok(()) })
    }

    /// Saves (replaces) the snapshot of `snapshot.table`.
    fn save_snapshot(&self, snapshot: Snapshot) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The latest snapshot of `table`.
    fn load_snapshot(&self, table: u32) -> BoxFuture<'_, Result<Option<Snapshot>, StoreError>>;

    /// The latest snapshot of every table.
    fn snapshots(&self) -> BoxFuture<'_, Result<Vec<Snapshot>, StoreError>>;

    /// Events of `table` with `gseq > after_gseq`, in `gseq` order
    /// (`after_gseq = 0`: all).
    fn events_for_table(
        &self,
        table: u32,
        after_gseq: u64,
    ) -> BoxFuture<'_, Result<Vec<StoredEvent>, StoreError>>;

    /// Every event in `gseq` (receive) order.
    fn all_events(&self) -> BoxFuture<'_, Result<Vec<StoredEvent>, StoreError>>;

    /// Events and audit entries with `gseq > after_gseq`, merged in `gseq`
    /// order: the replay log.
    fn log_after(&self, after_gseq: u64) -> BoxFuture<'_, Result<Vec<LogEntry>, StoreError>>;

    /// At most `limit` rows of the replay log with `gseq > after_gseq`, in
    /// `gseq` order: page through a long history with the last row's
    /// `gseq` as the next `after_gseq`.
    fn log_page(
        &self,
        after_gseq: u64,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<LogEntry>, StoreError>>;

    /// Highest `seq` stored for `(table, epoch)`, if any.
    fn high_water(&self, table: u32, epoch: u32) -> BoxFuture<'_, Result<Option<u64>, StoreError>>;

    /// Every audit entry in id order.
    fn audit_entries(&self) -> BoxFuture<'_, Result<Vec<AuditEntry>, StoreError>>;

    /// `Err(Failed)` once the store has failed.
    fn health(&self) -> Result<(), StoreError>;

    /// Fires (the value becomes `Some(reason)`) when the store fails; the
    /// server watches it and stops.
    fn failure(&self) -> tokio::sync::watch::Receiver<Option<String>>;

    /// After a clean stop (nothing more is written): makes the store's
    /// files complete by themselves. SQLite checkpoints the WAL into
    /// `hall.db` and truncates it, so `hall.db` alone holds every row;
    /// elsewhere nothing to do. Blocking.
    fn checkpoint(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Lets the writer finish what is queued and releases the store (its
    /// data dir or its hall) before returning; later writes fail. Dropping
    /// the store does the same, without waiting where that needs a
    /// runtime.
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}
