//! The PostgreSQL schema of the hall record, created and migrated by the
//! server (versioned migrations in `schema_migrations`, applied in one
//! transaction under an advisory lock so that two servers starting at once
//! do not race), and the registration of a hall.
//!
//! Every row carries its `hall_id`: several halls share one database and
//! never see each other's rows. `halls.next_gseq` is the per-hall counter
//! the writer takes `gseq` from inside each batch transaction (a
//! compare-and-set on it also fences a second writer). `event_batches`
//! (`events` before schema 5) and `audit` are append-only, enforced in the
//! database: a trigger refuses UPDATE, DELETE and TRUNCATE (for every role,
//! the owner and superusers included), and those privileges are revoked
//! from PUBLIC and from the role that ran the migration (the server's role).
//!
//! Since schema 5 (issue 40) a hall's table events are batched durable
//! records (批量事件记录), as in the SQLite store's schema 4: one
//! `event_batches` row per `(table, epoch)` per commit, its events in the
//! body format of `crate::batch` (one format for both stores), instead of
//! one `events` row per event. `migrate.rs` converts the `events` rows of
//! every hall when a server first opens the database (inside the migration's
//! transaction); an offline reader of an older database reads them as they
//! are (`read.rs`).

use tokio_postgres::Client;

use crate::StoreError;

pub use super::pg_error::{pg_io, pg_text};

/// Schema version written by this build.
pub const SCHEMA_VERSION: i32 = 5;

/// The oldest schema offline readers (`caipan export --store`) still read:
/// version 2 has the config copies and round starts the export needs; a
/// version-2 database holds no tournament round (`tournament_rounds`).
pub const OLDEST_READABLE: i32 = 2;

/// Advisory lock key serialising migrations ("caipan" in ASCII).
const MIGRATION_LOCK: i64 = 0x6361_6970_616e;

/// `(version, what it does, SQL)`, in order. Never edit a released one:
/// add the next.
const MIGRATIONS: &[(i32, &str, &str)] = &[
    (1, "halls, events, audit, snapshots", V1),
    (2, "hall config copies and round starts", V2),
    (3, "tournament rounds published once for every hall", V3),
    (
        4,
        "typed audit rows; tournament rounds withdrawn and published again",
        V4,
    ),
    (
        5,
        "batched durable records: one event_batches row per table per commit",
        V5,
    ),
];

/// The schema whose table events are batched (`event_batches`).
pub const BATCHED_SCHEMA: i32 = 5;

const V1: &str = r#"
CREATE TABLE halls (
    hall_id            text   PRIMARY KEY,
    tournament         text,
    next_gseq          bigint NOT NULL DEFAULT 1 CHECK (next_gseq >= 1),
    created_at_ms      bigint NOT NULL,
    last_config_sha256 text
);
CREATE INDEX halls_tournament ON halls (tournament);
CREATE TABLE events (
    hall_id        text   NOT NULL REFERENCES halls (hall_id),
    gseq           bigint NOT NULL,   -- commit order within the hall
    table_no       bigint NOT NULL,
    epoch          bigint NOT NULL,
    seq            bigint NOT NULL,
    kind           text   NOT NULL,
    payload        bytea  NOT NULL,
    payload_hash   bytea  NOT NULL,   -- SHA-256(kind || 0 || payload)
    received_at_ms bigint NOT NULL,
    PRIMARY KEY (hall_id, gseq),
    UNIQUE (hall_id, table_no, epoch, seq)   -- the event key
);
CREATE INDEX events_by_table ON events (hall_id, table_no, gseq);
CREATE TABLE audit (
    hall_id  text   NOT NULL REFERENCES halls (hall_id),
    id       bigint NOT NULL,             -- shares the hall's gseq
    who      text   NOT NULL,
    action   text   NOT NULL,
    table_no bigint,
    payload  bytea  NOT NULL,
    at_ms    bigint NOT NULL,
    outcome  text   NOT NULL CHECK (outcome IN ('accepted', 'refused')),
    why      text,
    CHECK ((outcome = 'refused') = (why IS NOT NULL)),
    PRIMARY KEY (hall_id, id)
);
CREATE TABLE snapshots (
    hall_id     text   NOT NULL REFERENCES halls (hall_id),
    table_no    bigint NOT NULL,
    upto_epoch  bigint NOT NULL,
    upto_seq    bigint NOT NULL,
    upto_gseq   bigint NOT NULL,
    state       bytea  NOT NULL,
    saved_at_ms bigint NOT NULL,
    PRIMARY KEY (hall_id, table_no)
);
CREATE FUNCTION caipan_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'caipan: % is append-only', TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION caipan_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION caipan_append_only();
CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON audit
    FOR EACH ROW EXECUTE FUNCTION caipan_append_only();
CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
    FOR EACH STATEMENT EXECUTE FUNCTION caipan_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON events, audit FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON events, audit FROM CURRENT_USER;
"#;

/// What exports need beside the log: the secret-free copy of each hall's
/// config (`halls.config_copy`, replaced at every start) and where each
/// round started in the hall's log (`hall_rounds`, in start order).
const V2: &str = r#"
ALTER TABLE halls ADD COLUMN config_copy text;
CREATE TABLE hall_rounds (
    hall_id    text   NOT NULL REFERENCES halls (hall_id),
    n          bigint NOT NULL,   -- 1, 2, ... in start order
    round      bigint NOT NULL,
    first_gseq bigint NOT NULL,   -- gseq of the round's first row
    PRIMARY KEY (hall_id, n)
);
"#;

/// The rounds of a tournament played in several halls (一赛多厅): each
/// round after the first is paired once, by the tournament's pairing hall,
/// and published here; every hall of the tournament takes its boards from
/// it (`tournament.rs`). One row per `(tournament, round)`, so a second
/// publisher meets a unique violation; append-only like `events` and
/// `audit`.
const V3: &str = r#"
CREATE TABLE tournament_rounds (
    tournament text   NOT NULL,
    round      bigint NOT NULL CHECK (round >= 2),
    hall_id    text   NOT NULL REFERENCES halls (hall_id),   -- the publisher
    proposal   bytea  NOT NULL,   -- the round as published (the hall's encoding)
    split      text   NOT NULL,   -- each hall's tables, one line per hall
    at_ms      bigint NOT NULL,
    PRIMARY KEY (tournament, round)
);
CREATE TRIGGER tournament_rounds_append_only BEFORE UPDATE OR DELETE ON tournament_rounds
    FOR EACH ROW EXECUTE FUNCTION caipan_append_only();
CREATE TRIGGER tournament_rounds_no_truncate BEFORE TRUNCATE ON tournament_rounds
    FOR EACH STATEMENT EXECUTE FUNCTION caipan_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON tournament_rounds FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON tournament_rounds FROM CURRENT_USER;
"#;

/// Schema 4 (the release of protocol 10), two changes in one step.
///
/// The audit trail's typed messages (issue 33, protocol 10): what was
/// done (`action_msg`) and why it was refused (`why_msg`), each a
/// `proto::Message` encoded with bincode (standard config,
/// `hall::record::encode_message`); NULL on the rows already there, which
/// render as their stored `action` / `why` text. Nullable columns added:
/// no row is rewritten, the trail stays append-only.
///
/// A tournament round withdrawn before it started (撤回已发布的轮次) and
/// published again: each publication of a round is numbered
/// (`publication`, 1 for the rows of schema 3), and a withdrawal names the
/// publication it withdraws (`tournament_withdrawals`, append-only). A
/// round is published once while its last publication stands.
const V4: &str = r#"
ALTER TABLE audit ADD COLUMN action_msg bytea;
ALTER TABLE audit ADD COLUMN why_msg bytea;
ALTER TABLE tournament_rounds ADD COLUMN publication bigint NOT NULL DEFAULT 1
    CHECK (publication >= 1);
ALTER TABLE tournament_rounds DROP CONSTRAINT tournament_rounds_pkey;
ALTER TABLE tournament_rounds ADD PRIMARY KEY (tournament, round, publication);
CREATE TABLE tournament_withdrawals (
    tournament  text   NOT NULL,
    round       bigint NOT NULL,
    publication bigint NOT NULL,
    hall_id     text   NOT NULL REFERENCES halls (hall_id),   -- who withdrew it
    reason      text   NOT NULL,
    at_ms       bigint NOT NULL,
    PRIMARY KEY (tournament, round, publication),
    FOREIGN KEY (tournament, round, publication)
        REFERENCES tournament_rounds (tournament, round, publication)
);
CREATE TRIGGER tournament_withdrawals_append_only BEFORE UPDATE OR DELETE ON tournament_withdrawals
    FOR EACH ROW EXECUTE FUNCTION caipan_append_only();
CREATE TRIGGER tournament_withdrawals_no_truncate BEFORE TRUNCATE ON tournament_withdrawals
    FOR EACH STATEMENT EXECUTE FUNCTION caipan_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON tournament_withdrawals FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON tournament_withdrawals FROM CURRENT_USER;
"#;

/// Schema 5 (issue 40): batched durable records, the PostgreSQL form of
/// the SQLite store's `event_batches` (`crate::schema` says what each
/// column is for). Every row carries its hall; the primary key
/// `(hall_id, first_gseq)` is the hall's gseq order (a reader of gseq range
/// `(a, b]` starts at the `commit_gseq` of the last row beginning at or
/// before `a`), and `(hall_id, table_no, epoch, last_seq)` serves the
/// duplicate check of a resend, the high-water marks and a table's
/// events. No unique constraint on an event key: the hall's one writer
/// (advisory lock, compare-and-set on `halls.next_gseq`) checks every key
/// (`plan.rs`). The old `events` rows are converted and the table dropped
/// by the step's Rust part (`migrate.rs`), in the same transaction.
const V5: &str = r#"
CREATE TABLE event_batches (
    hall_id     text   NOT NULL REFERENCES halls (hall_id),
    first_gseq  bigint NOT NULL,   -- gseq of the row's first event
    last_gseq   bigint NOT NULL,   -- gseq of its last event
    commit_gseq bigint NOT NULL,   -- first gseq of its commit
    table_no    bigint NOT NULL,
    epoch       bigint NOT NULL,
    first_seq   bigint NOT NULL,   -- lowest seq in the row
    last_seq    bigint NOT NULL,   -- highest seq in the row
    n           bigint NOT NULL CHECK (n >= 1),   -- events in the body
    body        bytea  NOT NULL,   -- crate::batch, format version first
    CHECK (first_gseq <= last_gseq AND commit_gseq <= first_gseq AND first_seq <= last_seq),
    PRIMARY KEY (hall_id, first_gseq)
);
CREATE INDEX event_batches_by_key ON event_batches (hall_id, table_no, epoch, last_seq);
CREATE TRIGGER event_batches_append_only BEFORE UPDATE OR DELETE ON event_batches
    FOR EACH ROW EXECUTE FUNCTION caipan_append_only();
CREATE TRIGGER event_batches_no_truncate BEFORE TRUNCATE ON event_batches
    FOR EACH STATEMENT EXECUTE FUNCTION caipan_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON event_batches FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON event_batches FROM CURRENT_USER;
"#;

/// Creates or migrates the schema; refuses a database migrated by a newer
/// build.
pub async fn migrate(client: &mut Client) -> Result<i32, StoreError> {
    // Up to date: no DDL at all (the server's role may lack CREATE when an
    // administrator owns the schema, see the README).
    if let Some(v) = recorded_version(client).await? {
        if v == SCHEMA_VERSION {
            return Ok(v);
        }
    }
    let tx = client.transaction().await.map_err(pg_io)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(pg_io)?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    integer     PRIMARY KEY,
             name       text        NOT NULL,
             applied_at timestamptz NOT NULL DEFAULT now()
         )",
    )
    .await
    .map_err(pg_io)?;
    let row = tx
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await
        .map_err(pg_io)?;
    let current: i32 = row.get(0);
    if current > SCHEMA_VERSION {
        return Err(StoreError::Schema {
            found: i64::from(current),
            supported: i64::from(SCHEMA_VERSION),
        });
    }
    for (version, name, sql) in MIGRATIONS.iter().filter(|(v, _, _)| *v > current) {
        tx.batch_execute(sql).await.map_err(|e| {
            StoreError::Io(format!(
                "migration {version} ({name}) failed: {}",
                pg_text(&e)
            ))
        })?;
        if *version == BATCHED_SCHEMA {
            super::migrate::batch_events(&tx).await?;
        }
        tx.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
            &[version, name],
        )
        .await
        .map_err(pg_io)?;
        tracing::info!(version, name, "store schema migrated");
    }
    tx.commit().await.map_err(pg_io)?;
    Ok(SCHEMA_VERSION)
}

/// The version recorded in the database, if it has a caipan schema.
pub async fn recorded_version(client: &Client) -> Result<Option<i32>, StoreError> {
    let row = client
        .query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])
        .await
        .map_err(pg_io)?;
    if !row.get::<_, bool>(0) {
        return Ok(None);
    }
    let row = client
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await
        .map_err(pg_io)?;
    Ok(Some(row.get(0)))
}

/// Registers the hall (or finds it), records the config hash, checks the
/// tournament, and returns the hall's next `gseq` after checking it against
/// the rows stored.
pub async fn register_hall(
    client: &mut Client,
    hall_id: &str,
    tournament: Option<&str>,
    config_sha256: Option<&str>,
    now_ms: i64,
) -> Result<u64, StoreError> {
    let tx = client.transaction().await.map_err(pg_io)?;
    tx.execute(
        "INSERT INTO halls (hall_id, tournament, created_at_ms, last_config_sha256)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (hall_id) DO UPDATE SET
           last_config_sha256 = coalesce(excluded.last_config_sha256, halls.last_config_sha256),
           tournament = coalesce(halls.tournament, excluded.tournament)",
        &[&hall_id, &tournament, &now_ms, &config_sha256],
    )
    .await
    .map_err(pg_io)?;
    let row = tx
        .query_one(
            "SELECT next_gseq, tournament,
                    greatest((SELECT max(last_gseq) FROM event_batches WHERE hall_id = $1),
                             (SELECT max(id) FROM audit WHERE hall_id = $1), 0)
             FROM halls WHERE hall_id = $1",
            &[&hall_id],
        )
        .await
        .map_err(pg_io)?;
    let next: i64 = row.get(0);
    let recorded: Option<String> = row.get(1);
    let highest: i64 = row.get(2);
    if let (Some(want), Some(have)) = (tournament, recorded.as_deref()) {
        if want != have {
            return Err(StoreError::Invalid(format!(
                "hall {hall_id} is recorded in tournament {have:?}, not {want:?}"
            )));
        }
    }
    if next != highest + 1 {
        return Err(StoreError::Io(format!(
            "hall {hall_id}: counter next_gseq = {next} but the highest stored row is {highest}"
        )));
    }
    tx.commit().await.map_err(pg_io)?;
    u64::try_from(next).map_err(|_| StoreError::Io(format!("hall {hall_id}: bad next_gseq {next}")))
}

/// Keeps the hall's config copy and records that `round` starts at
/// `next_gseq` unless it is the round started last (a restart within the
/// round) or an earlier one than a round already started (the config's
/// round after a later round was published: a restart never goes back,
/// the server plays the published round, `PgStore::record_round_start`).
/// Answers where `round` starts (its last start; `next_gseq` when a later
/// round was started and `round` never was).
pub async fn note_round(
    client: &mut Client,
    hall_id: &str,
    round: u32,
    next_gseq: u64,
    config_copy: Option<&str>,
) -> Result<u64, StoreError> {
    let tx = client.transaction().await.map_err(pg_io)?;
    if let Some(copy) = config_copy {
        tx.execute(
            "UPDATE halls SET config_copy = $2 WHERE hall_id = $1",
            &[&hall_id, &copy],
        )
        .await
        .map_err(pg_io)?;
    }
    let last = tx
        .query_opt(
            "SELECT n, round, first_gseq FROM hall_rounds WHERE hall_id = $1
             ORDER BY n DESC LIMIT 1",
            &[&hall_id],
        )
        .await
        .map_err(pg_io)?;
    let start_of = |first: i64| {
        u64::try_from(first)
            .map_err(|_| StoreError::Io(format!("hall {hall_id}: bad round start {first}")))
    };
    let (n, first) = match last {
        Some(row) if row.get::<_, i64>(1) == i64::from(round) => {
            let first: i64 = row.get(2);
            tx.commit().await.map_err(pg_io)?;
            return start_of(first);
        }
        Some(row) if row.get::<_, i64>(1) > i64::from(round) => {
            let earlier = tx
                .query_opt(
                    "SELECT first_gseq FROM hall_rounds WHERE hall_id = $1 AND round = $2
                     ORDER BY n DESC LIMIT 1",
                    &[&hall_id, &i64::from(round)],
                )
                .await
                .map_err(pg_io)?;
            tx.commit().await.map_err(pg_io)?;
            return match earlier {
                Some(r) => start_of(r.get(0)),
                None => Ok(next_gseq),
            };
        }
        Some(row) => (row.get::<_, i64>(0) + 1, next_gseq),
        None => (1, next_gseq),
    };
    let first_i = i64::try_from(first)
        .map_err(|_| StoreError::Io(format!("hall {hall_id}: gseq {first} too large")))?;
    tx.execute(
        "INSERT INTO hall_rounds (hall_id, n, round, first_gseq) VALUES ($1, $2, $3, $4)",
        &[&hall_id, &n, &i64::from(round), &first_i],
    )
    .await
    .map_err(pg_io)?;
    tx.commit().await.map_err(pg_io)?;
    Ok(first)
}

/// Records that `round` (published in the running hall) starts at
/// `first_gseq`, unless the hall already recorded that start or a later
/// one of it, or a later round started after it (idempotent: the
/// committer records it when the round is published, a restart again
/// from the published rounds it finds). A round withdrawn and published
/// again gets a start of its own, after the withdrawn one's (the last
/// start of a round counts, `export::tournament`).
pub async fn record_round_start(
    client: &Client,
    hall_id: &str,
    round: u32,
    first_gseq: u64,
) -> Result<(), StoreError> {
    let first = i64::try_from(first_gseq)
        .map_err(|_| StoreError::Io(format!("hall {hall_id}: gseq {first_gseq} too large")))?;
    client
        .execute(
            "INSERT INTO hall_rounds (hall_id, n, round, first_gseq)
             SELECT $1, coalesce(max(n), 0) + 1, $2, $3 FROM hall_rounds WHERE hall_id = $1
             HAVING NOT EXISTS (SELECT 1 FROM hall_rounds WHERE hall_id = $1
                 AND ((round = $2 AND first_gseq >= $3) OR (round > $2 AND first_gseq > $3)))",
            &[&hall_id, &i64::from(round), &first],
        )
        .await
        .map_err(pg_io)?;
    Ok(())
}
