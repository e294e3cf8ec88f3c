//! Reads of one hall's rows over the read pool, in pages: whole histories
//! (every event, the replay log, the audit trail) are fetched by keyset
//! pages of [`PAGE`] rows in `gseq` order, never as one unbounded query.
//! A running store's reads stop at its horizon (what its writer saw
//! committed), like the SQLite store's; an offline reader sees every row.
//!
//! Table events come from the batched rows of schema 5 (`event_batches`,
//! `batches.rs`): the same events in the same gseq order as the
//! one-row-per-event `events` of schemas 1-4 gave, which an offline reader
//! of an older database still reads as they are. A gseq range `(a, b]`
//! takes the rows with `first_gseq <= b` and `last_gseq > a`, scanning the
//! primary key from the `commit_gseq` of the last row beginning at or
//! before `a` (a row overlapping `a` from below belongs to the commit
//! holding `a`), in pages of [`ROW_PAGE`] rows; each row's events are
//! decoded (a damaged body is [`StoreError::Corrupt`] naming the hall and
//! the row), those outside the range dropped, the rest sorted by gseq.

use std::sync::atomic::Ordering;

use deadpool_postgres::Pool;
use tokio_postgres::Row;

use super::batches::{self, ROW_COLUMNS};
use super::schema::{pg_text, BATCHED_SCHEMA};
use crate::writer::{to_i64, Horizon};
use crate::{
    AuditEntry, AuditOutcome, AuditRecord, EventKey, LogEntry, Snapshot, StoreError, StoredEvent,
};

/// Rows per page of a history read.
pub const PAGE: usize = 10_000;

/// Batch rows per query of a batched history read.
const ROW_PAGE: i64 = 2_000;

const EVENT_COLUMNS: &str =
    "gseq, table_no, epoch, seq, kind, payload, payload_hash, received_at_ms";
const AUDIT_COLUMNS: &str =
    "id, who, action, table_no, payload, at_ms, outcome, why, action_msg, why_msg";
/// The audit columns of a database of schema 2 or 3 read offline (not
/// migrated): no typed messages.
const AUDIT_COLUMNS_UNTYPED: &str =
    "id, who, action, table_no, payload, at_ms, outcome, why, NULL::bytea, NULL::bytea";
/// The first schema whose audit rows keep typed messages.
pub const TYPED_AUDIT_SCHEMA: i32 = 4;
const SNAPSHOT_COLUMNS: &str = "table_no, upto_epoch, upto_seq, upto_gseq, state, saved_at_ms";

/// Paged reads of one hall.
#[derive(Clone)]
pub struct HallReads {
    pool: Pool,
    hall: String,
    horizon: Option<Horizon>,
    /// [`AUDIT_COLUMNS`], or [`AUDIT_COLUMNS_UNTYPED`] on an older schema.
    audit_columns: &'static str,
    /// Events in `event_batches` (schema 5), not one `events` row each.
    batched: bool,
}

fn bad(what: &str, v: i64) -> StoreError {
    StoreError::Io(format!("stored {what} {v} is out of range"))
}

fn u32_of(what: &str, v: i64) -> Result<u32, StoreError> {
    u32::try_from(v).map_err(|_| bad(what, v))
}

fn u64_of(what: &str, v: i64) -> Result<u64, StoreError> {
    u64::try_from(v).map_err(|_| bad(what, v))
}

impl HallReads {
    /// Reads of `hall` by its running store (this build's schema), up to
    /// its writer's `horizon`.
    pub(crate) fn live(pool: Pool, hall: String, horizon: Horizon) -> Self {
        Self::new(pool, hall, Some(horizon), super::schema::SCHEMA_VERSION)
    }

    /// Reads of `hall` in a database of schema `version`.
    pub(crate) fn new(pool: Pool, hall: String, horizon: Option<Horizon>, version: i32) -> Self {
        let audit_columns = match version >= TYPED_AUDIT_SCHEMA {
            true => AUDIT_COLUMNS,
            false => AUDIT_COLUMNS_UNTYPED,
        };
        HallReads {
            pool,
            hall,
            horizon,
            audit_columns,
            batched: version >= BATCHED_SCHEMA,
        }
    }

    /// The hall read.
    pub fn hall(&self) -> &str {
        &self.hall
    }

    fn upto(&self) -> i64 {
        match &self.horizon {
            Some(h) => to_i64(h.load(Ordering::Acquire)),
            None => i64::MAX,
        }
    }

    async fn query(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::Io(format!("database: {e}")))?;
        let st = client
            .prepare_cached(sql)
            .await
            .map_err(|e| StoreError::Io(pg_text(&e)))?;
        client
            .query(&st, params)
            .await
            .map_err(|e| StoreError::Io(pg_text(&e)))
    }

    /// Up to `limit` events with `gseq > after` (of `table` if given), in
    /// `gseq` order.
    pub async fn events_page(
        &self,
        table: Option<u32>,
        after: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        if self.batched {
            return self.batched_page(table, after, limit).await;
        }
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = match table {
            Some(t) => {
                self.query(
                    &format!(
                        "SELECT {EVENT_COLUMNS} FROM events
                         WHERE hall_id = $1 AND table_no = $2 AND gseq > $3 AND gseq <= $4
                         ORDER BY gseq LIMIT $5"
                    ),
                    &[
                        &self.hall,
                        &i64::from(t),
                        &to_i64(after),
                        &self.upto(),
                        &limit,
                    ],
                )
                .await?
            }
            None => {
                self.query(
                    &format!(
                        "SELECT {EVENT_COLUMNS} FROM events
                         WHERE hall_id = $1 AND gseq > $2 AND gseq <= $3
                         ORDER BY gseq LIMIT $4"
                    ),
                    &[&self.hall, &to_i64(after), &self.upto(), &limit],
                )
                .await?
            }
        };
        rows.iter().map(event_row).collect()
    }

    /// [`HallReads::events_page`] from the batched rows. Rows come in
    /// `first_gseq` order: once `limit` events are held, a row beginning
    /// after the `limit`-th of them cannot add one before it, and the scan
    /// stops.
    async fn batched_page(
        &self,
        table: Option<u32>,
        after: u64,
        limit: usize,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let upto = self.upto();
        let after_i = to_i64(after);
        let floor = self
            .query(
                "SELECT commit_gseq FROM event_batches WHERE hall_id = $1 AND first_gseq <= $2
                 ORDER BY first_gseq DESC LIMIT 1",
                &[&self.hall, &after_i],
            )
            .await?;
        let mut from: i64 = floor.first().map(|r| r.get(0)).unwrap_or(0);
        let table_no = table.map(i64::from);
        let upto_u = u64::try_from(upto).unwrap_or(0);
        let mut out: Vec<StoredEvent> = Vec::new();
        // The limit-th gseq once `limit` events are held.
        let mut bound: Option<u64> = None;
        'pages: loop {
            let rows = match table_no {
                Some(t) => {
                    self.query(
                        &format!(
                            "SELECT {ROW_COLUMNS} FROM event_batches
                             WHERE hall_id = $1 AND table_no = $2 AND first_gseq >= $3
                               AND first_gseq <= $4 AND last_gseq > $5
                             ORDER BY first_gseq LIMIT $6"
                        ),
                        &[&self.hall, &t, &from, &upto, &after_i, &ROW_PAGE],
                    )
                    .await?
                }
                None => {
                    self.query(
                        &format!(
                            "SELECT {ROW_COLUMNS} FROM event_batches
                             WHERE hall_id = $1 AND first_gseq >= $2 AND first_gseq <= $3
                               AND last_gseq > $4
                             ORDER BY first_gseq LIMIT $5"
                        ),
                        &[&self.hall, &from, &upto, &after_i, &ROW_PAGE],
                    )
                    .await?
                }
            };
            for r in &rows {
                let row = batches::batch_row(&self.hall, r)?;
                if bound.is_some_and(|b| row.first_gseq > b) {
                    break 'pages;
                }
                let keep = |e: &StoredEvent| {
                    e.gseq > after && e.gseq <= upto_u && bound.is_none_or(|b| e.gseq < b)
                };
                out.extend(batches::decode(&self.hall, &row)?.into_iter().filter(keep));
                if bound.is_none() && out.len() >= limit {
                    out.sort_by_key(|e| e.gseq);
                    out.truncate(limit);
                    bound = out.last().map(|e| e.gseq);
                }
                from = to_i64(row.first_gseq).saturating_add(1);
            }
            if rows.len() < ROW_PAGE as usize {
                break;
            }
        }
        out.sort_by_key(|e| e.gseq);
        out.truncate(limit);
        Ok(out)
    }

    /// Up to `limit` audit entries with `id > after`, in id order.
    pub async fn audit_page(
        &self,
        after: u64,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let cols = self.audit_columns;
        let rows = self
            .query(
                &format!(
                    "SELECT {cols} FROM audit
                     WHERE hall_id = $1 AND id > $2 AND id <= $3 ORDER BY id LIMIT $4"
                ),
                &[&self.hall, &to_i64(after), &self.upto(), &limit],
            )
            .await?;
        rows.iter().map(audit_row).collect()
    }

    /// Up to `limit` rows of the replay log after `after`, merged in
    /// `gseq` order.
    pub async fn log_page(&self, after: u64, limit: usize) -> Result<Vec<LogEntry>, StoreError> {
        let events = self.events_page(None, after, limit).await?;
        let audits = self.audit_page(after, limit).await?;
        let mut log: Vec<LogEntry> = events
            .into_iter()
            .map(LogEntry::Event)
            .chain(audits.into_iter().map(LogEntry::Audit))
            .collect();
        log.sort_by_key(LogEntry::gseq);
        log.truncate(limit);
        Ok(log)
    }

    /// Every event (of `table` if given) after `after`, page by page.
    pub async fn events_after(
        &self,
        table: Option<u32>,
        mut after: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let mut out = Vec::new();
        loop {
            let page = self.events_page(table, after, PAGE).await?;
            let full = page.len() == PAGE;
            if let Some(last) = page.last() {
                after = last.gseq;
            }
            out.extend(page);
            if !full {
                return Ok(out);
            }
        }
    }

    /// The whole replay log after `after`, page by page.
    pub async fn log_after(&self, mut after: u64) -> Result<Vec<LogEntry>, StoreError> {
        let mut out = Vec::new();
        loop {
            let page = self.log_page(after, PAGE).await?;
            let full = page.len() == PAGE;
            if let Some(last) = page.last() {
                after = last.gseq();
            }
            out.extend(page);
            if !full {
                return Ok(out);
            }
        }
    }

    /// The whole audit trail, page by page.
    pub async fn audit_entries(&self) -> Result<Vec<AuditEntry>, StoreError> {
        let mut out = Vec::new();
        let mut after = 0;
        loop {
            let page = self.audit_page(after, PAGE).await?;
            let full = page.len() == PAGE;
            if let Some(last) = page.last() {
                after = last.id;
            }
            out.extend(page);
            if !full {
                return Ok(out);
            }
        }
    }

    /// Highest `seq` stored for `(table, epoch)`.
    pub async fn high_water(&self, table: u32, epoch: u32) -> Result<Option<u64>, StoreError> {
        let sql = match self.batched {
            true => {
                "SELECT max(last_seq) FROM event_batches
                 WHERE hall_id = $1 AND table_no = $2 AND epoch = $3 AND last_gseq <= $4"
            }
            false => {
                "SELECT max(seq) FROM events
                 WHERE hall_id = $1 AND table_no = $2 AND epoch = $3 AND gseq <= $4"
            }
        };
        let rows = self
            .query(
                sql,
                &[
                    &self.hall,
                    &i64::from(table),
                    &i64::from(epoch),
                    &self.upto(),
                ],
            )
            .await?;
        let v: Option<i64> = rows.first().and_then(|r| r.get(0));
        v.map(|v| u64_of("seq", v)).transpose()
    }

    /// Number of events stored.
    pub async fn event_count(&self) -> Result<u64, StoreError> {
        let sql = match self.batched {
            true => {
                "SELECT coalesce(sum(n), 0)::int8 FROM event_batches
                 WHERE hall_id = $1 AND last_gseq <= $2"
            }
            false => "SELECT count(*) FROM events WHERE hall_id = $1 AND gseq <= $2",
        };
        let rows = self.query(sql, &[&self.hall, &self.upto()]).await?;
        let n: i64 = rows.first().map(|r| r.get(0)).unwrap_or(0);
        u64_of("count", n)
    }

    /// The latest snapshot of `table`.
    pub async fn load_snapshot(&self, table: u32) -> Result<Option<Snapshot>, StoreError> {
        let rows = self
            .query(
                &format!(
                    "SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE hall_id = $1 AND table_no = $2"
                ),
                &[&self.hall, &i64::from(table)],
            )
            .await?;
        rows.first().map(snapshot_row).transpose()
    }

    /// The latest snapshot of every table.
    pub async fn snapshots(&self) -> Result<Vec<Snapshot>, StoreError> {
        let rows = self
            .query(
                &format!(
                    "SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE hall_id = $1 ORDER BY table_no"
                ),
                &[&self.hall],
            )
            .await?;
        rows.iter().map(snapshot_row).collect()
    }
}

fn event_row(row: &Row) -> Result<StoredEvent, StoreError> {
    let h: Vec<u8> = row.get(6);
    let mut payload_hash = [0u8; 32];
    if h.len() == 32 {
        payload_hash.copy_from_slice(&h);
    }
    Ok(StoredEvent {
        gseq: u64_of("gseq", row.get(0))?,
        key: EventKey {
            table: u32_of("table", row.get(1))?,
            epoch: u32_of("epoch", row.get(2))?,
            seq: u64_of("seq", row.get(3))?,
        },
        kind: row.get(4),
        payload: row.get(5),
        payload_hash,
        received_at_ms: row.get(7),
    })
}

fn audit_row(row: &Row) -> Result<AuditEntry, StoreError> {
    let table: Option<i64> = row.get(3);
    let outcome: String = row.get(6);
    let why: Option<String> = row.get(7);
    Ok(AuditEntry {
        id: u64_of("audit id", row.get(0))?,
        record: AuditRecord {
            who: row.get(1),
            action: row.get(2),
            table: table.map(|t| u32_of("table", t)).transpose()?,
            payload: row.get(4),
            at_ms: row.get(5),
            outcome: if outcome == "refused" {
                AuditOutcome::Refused {
                    why: why.unwrap_or_default(),
                }
            } else {
                AuditOutcome::Accepted
            },
            action_msg: row.get(8),
            why_msg: row.get(9),
        },
    })
}

fn snapshot_row(row: &Row) -> Result<Snapshot, StoreError> {
    Ok(Snapshot {
        table: u32_of("table", row.get(0))?,
        upto_epoch: u32_of("epoch", row.get(1))?,
        upto_seq: u64_of("seq", row.get(2))?,
        upto_gseq: u64_of("gseq", row.get(3))?,
        state: row.get(4),
        saved_at_ms: row.get(5),
    })
}
