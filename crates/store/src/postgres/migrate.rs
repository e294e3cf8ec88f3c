//! PostgreSQL store schema 4 -> 5 (issue 40), the step's Rust part: every
//! hall's one-row-per-event `events` rows become batched rows of
//! `event_batches` (`batches.rs`, the body of `crate::batch`), and
//! `events` is dropped, inside the migration's transaction
//! (`schema::migrate`), so a database is never half converted.
//!
//! Converted rather than read in place, as the SQLite store does
//! (`crate::migrate` says why at length): otherwise every reader (replay,
//! export, the table log, takeover, the tournament's reads) and the
//! duplicate check would merge two tables of two row shapes for as long as
//! the database lives. The cost is paid once, by the first server of this
//! build that opens the database, for all its halls: one pass over `events`
//! in `(hall_id, gseq)` order (its primary key), streamed through a portal
//! in pages, and one insert per stretch. Measured (docs/benchmarks.md,
//! "Batched durable records, PostgreSQL"): 100,000 events convert in about
//! a second. (An offline reader of an older database, `PgDatabase`, does
//! not convert it; it reads `events` as it is.)
//!
//! Several halls share one database, and several servers may open it at
//! once: the migration runs under the schema's advisory lock
//! (`schema::MIGRATION_LOCK`), so the second server waits and then finds
//! schema 5. A server of the previous build still running on the database
//! is not waited for by its lock (its hall's lock says nothing about the
//! schema): the step first renames `events`, which takes it in ACCESS
//! EXCLUSIVE mode, so a commit of that server in flight finishes first and
//! is converted, and its next commit fails (no `events` table): that
//! server acknowledges nothing more and stops, and nothing it
//! acknowledged is lost. A warning names
//! how many such sessions hold a hall.
//!
//! The old log of a hall is cut into stretches of [`STRETCH`] events in
//! gseq order, as if each had been one commit (one row per `(table,
//! epoch)`, `commit_gseq` the stretch's first gseq). Every event keeps its
//! gseq, key, kind, payload, stored hash and receive time.

use std::collections::HashMap;
use std::time::Instant;

use tokio_postgres::{Row, Transaction};

use super::batches;
use super::pg_error::{pg_io, pg_text};
use crate::batch::RowBuilder;
use crate::StoreError;

/// Events of the old log taken as one commit.
const STRETCH: usize = 4096;

/// Rows fetched from the portal at a time.
const FETCH: i32 = 10_000;

/// Converts `events` (every hall's) into batch rows and drops it.
/// Returns the events and the rows.
pub(crate) async fn batch_events(tx: &Transaction<'_>) -> Result<(u64, u64), StoreError> {
    let started = Instant::now();
    let exists: bool = tx
        .query_one("SELECT to_regclass('events') IS NOT NULL", &[])
        .await
        .map_err(pg_io)?
        .get(0);
    if !exists {
        return Ok((0, 0));
    }
    // Renamed first: that takes `events` in ACCESS EXCLUSIVE mode as its
    // owner (LOCK TABLE would need the UPDATE / DELETE / TRUNCATE
    // privileges schema 1 revoked), so a commit of a server of the
    // previous build in flight finishes first and is converted, and its
    // next one finds no `events`.
    tx.batch_execute("ALTER TABLE events RENAME TO events_schema_4")
        .await
        .map_err(|e| {
            StoreError::Io(format!(
                "the old events table cannot be converted (the migration needs its owner): {}",
                pg_text(&e)
            ))
        })?;
    warn_of_other_writers(tx).await;
    let portal = tx
        .bind(
            "SELECT hall_id, gseq, table_no, epoch, seq, kind, payload, payload_hash,
                    received_at_ms
             FROM events_schema_4 ORDER BY hall_id, gseq",
            &[],
        )
        .await
        .map_err(pg_io)?;
    let mut stretch = Stretch::default();
    let (mut events, mut rows) = (0u64, 0u64);
    loop {
        let page = tx.query_portal(&portal, FETCH).await.map_err(pg_io)?;
        for r in &page {
            let hall: String = r.get(0);
            if stretch.hall.as_deref() != Some(hall.as_str()) || stretch.len >= STRETCH {
                rows += stretch.flush(tx).await?;
                stretch.hall = Some(hall);
            }
            stretch.push(r)?;
            events += 1;
        }
        if page.len() < FETCH as usize {
            break;
        }
    }
    rows += stretch.flush(tx).await?;
    // Closed (the portal's Close goes before the next statement): a table
    // an open portal reads cannot be dropped.
    drop(portal);
    tx.batch_execute("DROP TABLE events_schema_4")
        .await
        .map_err(pg_io)?;
    tracing::info!(
        events,
        rows,
        ms = started.elapsed().as_millis() as u64,
        "store events converted into batched rows (schema 5)"
    );
    Ok((events, rows))
}

/// Warns when other sessions hold advisory locks on this database: servers
/// of the previous build writing their halls, which stop at their next
/// commit.
async fn warn_of_other_writers(tx: &Transaction<'_>) {
    let held = tx
        .query_one(
            "SELECT count(*) FROM pg_locks
             WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
               AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            &[],
        )
        .await
        .map(|r| r.get::<_, i64>(0));
    match held {
        Ok(0) => {}
        Ok(n) => tracing::warn!(
            sessions = n,
            "other servers hold halls of this database while its events are converted to schema 5: \
             a server of the previous build stops at its next commit (nothing it acknowledged is lost); \
             start it again with this build"
        ),
        Err(e) => tracing::debug!(error = %pg_text(&e), "cannot see the database's locks"),
    }
}

/// The rows of one stretch of one hall being filled.
#[derive(Default)]
struct Stretch {
    hall: Option<String>,
    /// The stretch's first gseq.
    commit_gseq: Option<u64>,
    rows: Vec<RowBuilder>,
    by_key: HashMap<(u32, u32), usize>,
    len: usize,
}

impl Stretch {
    /// Adds the old row `r` (selected as in [`batch_events`]).
    fn push(&mut self, r: &Row) -> Result<(), StoreError> {
        let hall = self.hall.as_deref().unwrap_or_default();
        let (gseq, table, epoch, seq): (i64, i64, i64, i64) =
            (r.get(1), r.get(2), r.get(3), r.get(4));
        // As the old reader did: a key out of range is an error, a hash
        // not 32 bytes long reads as zeros.
        let (Ok(gseq), Ok(table), Ok(epoch), Ok(seq)) = (
            u64::try_from(gseq),
            u32::try_from(table),
            u32::try_from(epoch),
            u64::try_from(seq),
        ) else {
            return Err(StoreError::Corrupt {
                row: format!("hall {hall}: event gseq {gseq}"),
                why: format!("table {table}, epoch {epoch} or seq {seq} out of range"),
            });
        };
        let kind: &str = r.get(5);
        let payload: &[u8] = r.get(6);
        let received_at_ms: i64 = r.get(8);
        self.commit_gseq.get_or_insert(gseq);
        let i = *self.by_key.entry((table, epoch)).or_insert_with(|| {
            self.rows.push(RowBuilder::new(table, epoch, gseq));
            self.rows.len() - 1
        });
        self.rows[i].push(gseq, seq, kind, payload, received_at_ms);
        self.len += 1;
        Ok(())
    }

    /// Writes the stretch's rows and starts the next stretch.
    async fn flush(&mut self, tx: &Transaction<'_>) -> Result<u64, StoreError> {
        let Some(commit_gseq) = self.commit_gseq.take() else {
            return Ok(0);
        };
        let hall = self.hall.clone().unwrap_or_default();
        let n = self.rows.len() as u64;
        batches::insert(tx, &hall, &self.rows, commit_gseq)
            .await
            .map_err(pg_io)?;
        self.rows.clear();
        self.by_key.clear();
        self.len = 0;
        Ok(n)
    }
}
