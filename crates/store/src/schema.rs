//! SQLite schema of the hall store, connection settings, and the hall /
//! schema-version check in `meta`.
//!
//! Tables: `event_batches` and `audit` are append-only (triggers refuse
//! UPDATE and DELETE); `published_rounds` (append-only too) names the audit
//! entries that published a round from the console (下一轮, schema version
//! 2; a version-1 store gets it filled from its audit trail when a server
//! opens it); `snapshots` keeps the latest snapshot per table; `meta` holds
//! `schema_version`, `hall_id`, `created_at_ms` and `last_config_sha256`.
//! Since schema 3 an audit row also keeps its typed messages (issue 33,
//! protocol 10): `action_msg` (what was done) and `why_msg` (why it was
//! refused), each a `proto::Message` encoded with bincode (standard
//! config, `hall::record::encode_message`), NULL on rows written before
//! (they render as their stored `action` / `why` text).
//!
//! Since schema 4 (issue 40) the table events are batched durable records
//! (批量事件记录): one `event_batches` row per `(table, epoch)` per commit,
//! its events in a versioned `body` (`batch.rs`), instead of one `events`
//! row per event (schemas 1-3; `migrate.rs` converts them when a server
//! opens such a store, and a read-only [`crate::StoreReader`] still reads
//! them as they are). The row's columns:
//! - `first_gseq` (the primary key, SQLite's rowid: the writer appends
//!   rows in rising order, so an insert goes to the end of the tree) and
//!   `last_gseq`: the gseqs of its first and last event. A table's events
//!   in one commit are not contiguous in gseq, so rows of one commit
//!   overlap; a reader of gseq range `(a, b]` takes every row with
//!   `first_gseq <= b` and `last_gseq > a` and filters the events.
//! - `commit_gseq`: the first gseq of the commit that wrote the row. A row
//!   overlapping `a` from below belongs to the commit holding `a`, so the
//!   reader starts its scan of the primary key at the `commit_gseq` of the
//!   last row starting at or before `a` (one commit's rows, not the whole
//!   log, and no second index on `last_gseq`).
//! - `table_no`, `epoch`, `first_seq`, `last_seq` (lowest and highest seq in
//!   the row), keyed as `(table_no, epoch, last_seq)`: the duplicate
//!   check of a resend at or below the high-water mark finds the rows whose
//!   seq range holds it, the high-water mark at startup is a `max` over the
//!   keys, and a table's events are a key range (as the old
//!   `UNIQUE (table_no, epoch, seq)` gave). Schema 4 kept that key as an
//!   index of `event_batches`; since schema 5 it is the table `event_keys`,
//!   written in passes every few seconds, in key order (`keys.rs`: a leaf
//!   of the key tree is written once a pass instead of once a commit, and
//!   `meta.keyed_upto` says which rows are keyed; the rest, the last
//!   seconds, are a scan of the primary key).
//! - `n`: the events in the body (counts without decoding).
//!
//! There is no unique constraint on an event key any more: the writer is
//! the only writer, and its duplicate check (the high-water map, then the
//! rows of the commit being written, then the stored rows) is what keeps a
//! key stored once.
//!
//! `event_batches.first_gseq` (and every event's gseq) and `audit.id` come
//! from one global sequence allocated by the writer thread, so events and
//! audit entries merge into one replay order.

use rusqlite::{params, Connection, OptionalExtension};

use super::StoreError;

/// Schema version written by this build.
pub(crate) const SCHEMA_VERSION: i64 = 5;

/// The version before `published_rounds` (release 6 and earlier),
/// migrated when a server opens it.
const SCHEMA_V1: i64 = 1;

/// The version before the audit trail's typed messages (releases 7 to
/// 9), migrated when a server opens it.
const SCHEMA_V2: i64 = 2;

/// The version before the batched event rows (release 10), migrated when
/// a server opens it.
const SCHEMA_V3: i64 = 3;

/// The version before the key index written in passes (`keys.rs`;
/// releases 11 and 12), migrated when a server opens it.
const SCHEMA_V4: i64 = 4;

/// Schema 2 -> 3: the audit trail's typed messages, NULL on every row
/// already there (a nullable column added keeps the trail append-only:
/// no row is rewritten).
const ADD_TYPED_AUDIT: &str = "ALTER TABLE audit ADD COLUMN action_msg BLOB;
ALTER TABLE audit ADD COLUMN why_msg BLOB;";

/// Adds the typed audit columns unless the audit table has them.
fn add_typed_audit(tx: &Connection) -> rusqlite::Result<()> {
    match has_typed_audit(tx)? {
        true => Ok(()),
        false => tx.execute_batch(ADD_TYPED_AUDIT),
    }
}

/// Whether the store's audit table has the typed columns (schema 3): a
/// store opened read-only is not migrated, and its reader selects NULL
/// for them.
pub(crate) fn has_typed_audit(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) > 0 FROM pragma_table_info('audit') WHERE name = 'action_msg'",
        [],
        |r| r.get(0),
    )
}

/// The tables (`CREATE ... IF NOT EXISTS`): the audit table as schema 2
/// created it (a store of this build then gets the typed audit columns
/// through [`add_typed_audit`], like a migrated one) and the batched event
/// rows of schema 4 (a store of schema 1-3 keeps its `events` table until
/// [`crate::migrate`] converts it in the same transaction).
pub(crate) const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS event_batches (
    first_gseq  INTEGER PRIMARY KEY,        -- gseq of the row's first event
    last_gseq   INTEGER NOT NULL,           -- gseq of its last event
    commit_gseq INTEGER NOT NULL,           -- first gseq of its commit
    table_no    INTEGER NOT NULL,
    epoch       INTEGER NOT NULL,
    first_seq   INTEGER NOT NULL,           -- lowest seq in the row
    last_seq    INTEGER NOT NULL,           -- highest seq in the row
    n           INTEGER NOT NULL,           -- events in the body
    body        BLOB    NOT NULL            -- batch.rs, format version first
);
CREATE TABLE IF NOT EXISTS event_keys (
    table_no    INTEGER NOT NULL,
    epoch       INTEGER NOT NULL,
    last_seq    INTEGER NOT NULL,
    first_gseq  INTEGER NOT NULL,           -- the row (event_batches.first_gseq)
    first_seq   INTEGER NOT NULL,
    last_gseq   INTEGER NOT NULL,
    PRIMARY KEY (table_no, epoch, last_seq, first_gseq)
) WITHOUT ROWID;                            -- written in passes: keys.rs
CREATE TABLE IF NOT EXISTS audit (
    id       INTEGER PRIMARY KEY,           -- shares the global sequence
    who      TEXT    NOT NULL,
    action   TEXT    NOT NULL,
    table_no INTEGER,
    payload  BLOB    NOT NULL,
    at_ms    INTEGER NOT NULL,
    outcome  TEXT    NOT NULL CHECK (outcome IN ('accepted', 'refused')),
    why      TEXT,
    CHECK ((outcome = 'refused') = (why IS NOT NULL))
);
CREATE TABLE IF NOT EXISTS snapshots (
    table_no    INTEGER PRIMARY KEY,
    upto_epoch  INTEGER NOT NULL,
    upto_seq    INTEGER NOT NULL,
    upto_gseq   INTEGER NOT NULL,
    state       BLOB    NOT NULL,
    saved_at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS published_rounds (
    gseq  INTEGER PRIMARY KEY,              -- the audit entry (audit.id)
    round INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS published_rounds_no_update BEFORE UPDATE ON published_rounds
BEGIN SELECT RAISE(ABORT, 'published rounds are append-only'); END;
CREATE TRIGGER IF NOT EXISTS published_rounds_no_delete BEFORE DELETE ON published_rounds
BEGIN SELECT RAISE(ABORT, 'published rounds are append-only'); END;
CREATE TRIGGER IF NOT EXISTS event_batches_no_update BEFORE UPDATE ON event_batches
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS event_batches_no_delete BEFORE DELETE ON event_batches
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS event_keys_no_update BEFORE UPDATE ON event_keys
BEGIN SELECT RAISE(ABORT, 'event keys are append-only'); END;
CREATE TRIGGER IF NOT EXISTS event_keys_no_delete BEFORE DELETE ON event_keys
BEGIN SELECT RAISE(ABORT, 'event keys are append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
"#;

/// Schema 1 -> 2: the rounds a version-1 store published are the accepted
/// audit entries whose action (the hall's words for the command) begins
/// `publish round N` — the only time that text is read; from version 2
/// on the writer records each publication in `published_rounds` with its
/// audit entry. The reader still checks each entry's payload.
pub(crate) const BACKFILL_PUBLISHED: &str = "INSERT OR IGNORE INTO published_rounds (gseq, round)
    SELECT id, CAST(substr(action, 15) AS INTEGER) FROM audit
    WHERE substr(action, 1, 14) = 'publish round ' AND outcome = 'accepted'
      AND CAST(substr(action, 15) AS INTEGER) > 0";

/// The writer connection's page cache, in KiB: 8 MiB (64 MiB before
/// issue 40, then 16).
///
/// Its size costs CPU at every commit, not only memory. When SQLite's
/// b-tree balancing (`balance_nonroot`) puts new sibling pages in page
/// order it swaps their numbers through a temporary key, the lock-byte
/// page (262,145 with 4 KiB pages), and the page cache (`pcache1`) keeps
/// the largest key it has seen (`iMaxKey`). At the end of each write
/// transaction the pager drops cached pages past the end of the database
/// (`pager_end_transaction` -> `sqlite3PcacheTruncate`); while the
/// database is under 1 GiB that key lies further past the end than the
/// cache's hash table is long, so `pcache1TruncateUnsafe` walks the whole
/// hash table and every cached page. The table's inserts split index pages
/// all the time, so most commits pay that walk: ~16 % of the writer's CPU
/// at 10,000 tables × 1 press/s with 64 MiB. The walk is as long as the
/// cache is full, so a smaller cache shortens it.
///
/// What it holds that the OS does not: the writer's pages are the ones it
/// just wrote, and the kernel's cache holds them too (a miss is a read of
/// 4 KiB from memory, not from the disk). The hot pages of a large hall
/// are at most one index leaf per table, 40 MB at 10,000 tables, which
/// neither 16 nor 8 MiB holds after the first minutes of a round. At
/// 10,000 tables × 1 press/s (60 s) 8 MiB took 8.5 MiB off the server's
/// RSS for the same CPU a press and a flood's writer CPU unchanged
/// (0.59-0.61 µs an event against 0.57-0.62); slow commits (≥ 10 ms)
/// came 1-15 times a run against 0-4 (docs/benchmarks.md, "The clock
/// history as changes, ... an 8 MiB writer cache").
pub(crate) const WRITER_CACHE_KIB: i64 = 8192;

/// Settings for the writer connection while the store opens: WAL, fsync
/// on every commit (`synchronous=FULL`), a page cache of
/// [`WRITER_CACHE_KIB`], and checkpoints every 16,384 WAL pages
/// (64 MiB) rather than SQLite's 1,000: with 1,000 tables every commit
/// rewrites about one index page per table, and a larger WAL lets one
/// checkpoint copy each page once for many commits. (This auto-checkpoint
/// serves the opening and its migration only: once the store is open the
/// checkpointer's WAL hook replaces it, `checkpointer.rs`.)
pub(crate) fn configure_writer(conn: &Connection) -> Result<(), StoreError> {
    let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Io(format!(
            "cannot switch the store to WAL (journal_mode = {mode})"
        )));
    }
    // FULL: in WAL mode the WAL is fsynced at every commit.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "cache_size", -WRITER_CACHE_KIB)?;
    conn.pragma_update(None, "wal_autocheckpoint", 16384)?;
    // Waits of 5 s at most in fine steps (`busy.rs`).
    crate::busy::five_seconds(conn)?;
    Ok(())
}

/// Switches the writer to pipelined commits once the store is open:
/// `synchronous=NORMAL`, i.e. a commit writes its WAL frames without
/// fsyncing them; the store's sync thread fsyncs the WAL after every commit
/// before anything in it is answered or shown to readers (`writer.rs`).
/// In WAL mode that is the only difference between NORMAL and FULL (the
/// WAL header and checkpoints are synced at both levels; FULL's padding of
/// the last frame to a sector boundary is off on power-safe-overwrite
/// devices, SQLite's unix default), so the durability of an acknowledged
/// commit is FULL's; the fsync merely runs off the writer thread.
pub(crate) fn pipeline_commits(conn: &Connection) -> Result<(), StoreError> {
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(())
}

/// Brings a store of schema `found` (1 to 4) to [`SCHEMA_VERSION`]
/// inside the opening transaction: every step it lacks, in order (a
/// failure rolls them all back: the file stays as it was).
fn upgrade(tx: &Connection, found: i64) -> Result<(), StoreError> {
    if !(SCHEMA_V1..=SCHEMA_V4).contains(&found) {
        return Err(StoreError::Schema {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    if found == SCHEMA_V1 {
        let n = tx.execute(BACKFILL_PUBLISHED, [])?;
        tracing::info!(
            published_rounds = n,
            "store schema 1 -> 2: the published rounds are indexed"
        );
    }
    if found <= SCHEMA_V2 {
        add_typed_audit(tx)?;
        tracing::info!("store schema 2 -> 3: the audit trail keeps typed messages");
    }
    if found <= SCHEMA_V3 {
        let (events, rows) = crate::migrate::batch_events(tx)?;
        tracing::info!(
            events,
            rows,
            "store schema 3 -> 4: the table events are batched, one row per table and stretch"
        );
    }
    let keys = crate::keys::key_all_rows(tx)?;
    tracing::info!(
        keys,
        "store schema 4 -> 5: the rows' keys are indexed in passes (event_keys)"
    );
    tx.execute(
        "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
        [SCHEMA_VERSION.to_string()],
    )?;
    Ok(())
}

/// Records stored (events and audit entries), whichever way the events
/// are kept (`caipan backup` counts its copy).
pub(crate) fn count_records(conn: &Connection) -> rusqlite::Result<i64> {
    let events = match crate::migrate::has_event_rows(conn)? {
        true => "SELECT count(*) FROM events",
        false => "SELECT coalesce(sum(n), 0) FROM event_batches",
    };
    let events: i64 = conn.query_row(events, [], |r| r.get(0))?;
    let audit: i64 = conn.query_row("SELECT count(*) FROM audit", [], |r| r.get(0))?;
    Ok(events + audit)
}

/// Creates the schema (idempotent), checks the schema version and the hall
/// id, and records the config hash. Returns the next global sequence number.
pub(crate) fn prepare(
    conn: &mut Connection,
    hall_id: &str,
    config_sha256: Option<&str>,
    now_ms: i64,
) -> Result<u64, StoreError> {
    let tx = conn.transaction()?;
    tx.execute_batch(SCHEMA)?;
    let get = |key: &str| -> Result<Option<String>, rusqlite::Error> {
        tx.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
    };
    match get("schema_version")? {
        None => {
            add_typed_audit(&tx)?;
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('schema_version', ?1), ('keyed_upto', '0')",
                [SCHEMA_VERSION.to_string()],
            )?;
        }
        Some(v) => {
            let found = v.parse::<i64>().unwrap_or(-1);
            if found != SCHEMA_VERSION {
                upgrade(&tx, found)?;
            }
        }
    }
    match get("hall_id")? {
        None => {
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('hall_id', ?1), ('created_at_ms', ?2)",
                params![hall_id, now_ms.to_string()],
            )?;
        }
        Some(found) if found != hall_id => {
            return Err(StoreError::WrongHall {
                expected: hall_id.to_string(),
                found,
            });
        }
        Some(_) => {}
    }
    if let Some(h) = config_sha256 {
        tx.execute(
            "INSERT INTO meta(key, value) VALUES ('last_config_sha256', ?1)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [h],
        )?;
    }
    let max: i64 = tx.query_row(
        "SELECT max(coalesce((SELECT max(last_gseq) FROM event_batches WHERE first_gseq >=
                        (SELECT commit_gseq FROM event_batches ORDER BY first_gseq DESC LIMIT 1)), 0),
                    coalesce((SELECT max(id) FROM audit), 0))",
        [],
        |r| r.get(0),
    )?;
    tx.commit()?;
    Ok(u64::try_from(max).unwrap_or(0) + 1)
}
