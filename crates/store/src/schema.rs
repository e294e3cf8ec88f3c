//! SQLite schema of the hall store, connection settings, and the hall /
//! schema-version check in `meta`.
//!
//! Tables: `events` and `audit` are append-only (triggers refuse UPDATE and
//! DELETE); `published_rounds` (append-only too) names the audit entries
//! that published a round from the console (下一轮, schema version 2; a
//! version-1 store gets it filled from its audit trail when a server
//! opens it); `snapshots` keeps the latest snapshot per table; `meta` holds
//! `schema_version`, `hall_id`, `created_at_ms` and `last_config_sha256`.
//! Since schema 3 an audit row also keeps its typed messages (issue 33,
//! protocol 10): `action_msg` (what was done) and `why_msg` (why it was
//! refused), each a `proto::Message` encoded with bincode (standard
//! config, `hall::record::encode_message`), NULL on rows written before
//! (they render as their stored `action` / `why` text).
//! `events.gseq` and `audit.id` come from one global sequence allocated by
//! the writer thread (the only writer), so the two tables merge into one
//! replay order.

use rusqlite::{params, Connection, OptionalExtension};

use super::StoreError;

/// Schema version written by this build.
pub(crate) const SCHEMA_VERSION: i64 = 3;

/// The version before `published_rounds` (release 6 and earlier),
/// migrated when a server opens it.
const SCHEMA_V1: i64 = 1;

/// The version before the audit trail's typed messages (releases 7 to
/// 9), migrated when a server opens it.
const SCHEMA_V2: i64 = 2;

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

/// The tables as schema 2 created them (`CREATE ... IF NOT EXISTS`): a
/// store of this build then gets the typed audit columns through
/// [`add_typed_audit`], like a migrated one.
pub(crate) const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    gseq           INTEGER PRIMARY KEY,     -- global receive/commit order
    table_no       INTEGER NOT NULL,
    epoch          INTEGER NOT NULL,
    seq            INTEGER NOT NULL,
    kind           TEXT    NOT NULL,
    payload        BLOB    NOT NULL,
    payload_hash   BLOB    NOT NULL,        -- SHA-256(kind || 0 || payload)
    received_at_ms INTEGER NOT NULL,
    UNIQUE (table_no, epoch, seq)           -- the event key
);
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
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
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

/// Settings for the writer connection while the store opens: WAL, fsync
/// on every commit (`synchronous=FULL`), a page cache large enough for the
/// hot pages of a hall (64 MiB), and checkpoints every 16,384 WAL pages
/// (64 MiB) rather than SQLite's 1,000: with 1,000 tables every commit
/// rewrites about one index page per table, and a larger WAL lets one
/// checkpoint copy each page once for many commits.
pub(crate) fn configure_writer(conn: &Connection) -> Result<(), StoreError> {
    let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Io(format!(
            "cannot switch the store to WAL (journal_mode = {mode})"
        )));
    }
    // FULL: in WAL mode the WAL is fsynced at every commit.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "cache_size", -65536)?;
    conn.pragma_update(None, "wal_autocheckpoint", 16384)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
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
                "INSERT INTO meta(key, value) VALUES ('schema_version', ?1)",
                [SCHEMA_VERSION.to_string()],
            )?;
        }
        Some(v) if v.parse::<i64>().ok() == Some(SCHEMA_V1) => {
            let n = tx.execute(BACKFILL_PUBLISHED, [])?;
            add_typed_audit(&tx)?;
            tx.execute(
                "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
                [SCHEMA_VERSION.to_string()],
            )?;
            tracing::info!(
                published_rounds = n,
                "store schema 1 -> 3: the published rounds are indexed, the audit trail typed"
            );
        }
        Some(v) if v.parse::<i64>().ok() == Some(SCHEMA_V2) => {
            add_typed_audit(&tx)?;
            tx.execute(
                "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
                [SCHEMA_VERSION.to_string()],
            )?;
            tracing::info!("store schema 2 -> 3: the audit trail keeps typed messages");
        }
        Some(v) => {
            let found = v.parse::<i64>().unwrap_or(-1);
            if found != SCHEMA_VERSION {
                return Err(StoreError::Schema {
                    found,
                    supported: SCHEMA_VERSION,
                });
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
        "SELECT max(coalesce((SELECT max(gseq) FROM events), 0),
                    coalesce((SELECT max(id) FROM audit), 0))",
        [],
        |r| r.get(0),
    )?;
    tx.commit()?;
    Ok(u64::try_from(max).unwrap_or(0) + 1)
}
