//! Reading table events out of the batched rows of schema 4
//! (`event_batches`, see `schema.rs` and `batch.rs`) for
//! [`crate::StoreReader`]: the same events, in the same gseq order, as the
//! one-row-per-event queries of schemas 1-3 return.
//!
//! A gseq range `(a, b]`: the rows overlapping it are those with
//! `first_gseq <= b` and `last_gseq > a`; one that begins at or before `a`
//! belongs to the commit holding `a`, so the primary-key scan starts at
//! that commit's first gseq (`commit_gseq` of the last row beginning at or
//! before `a`). Each row's events are decoded, those outside the range
//! dropped, and the rest sorted by gseq (rows of one commit interleave).

use rusqlite::{params, Connection};

use super::batch::BatchRow;
use super::keys::KEYED_UPTO;
use super::writer::{batch_row, to_i64};
use super::{StoreError, StoredEvent};

/// The columns [`batch_row`] reads.
const ROW_COLUMNS: &str = "first_gseq, last_gseq, table_no, epoch, first_seq, last_seq, n, body";

/// Decodes a row, a damaged body an error naming the row.
fn decode(row: &BatchRow) -> Result<Vec<StoredEvent>, StoreError> {
    row.decode().map_err(|e| StoreError::Corrupt {
        row: row.name(),
        why: e.0,
    })
}

/// Where a scan of the rows overlapping `(after, ..]` starts.
fn scan_from(c: &Connection, after: u64) -> rusqlite::Result<i64> {
    let floor: Option<i64> = c
        .prepare_cached(
            "SELECT commit_gseq FROM event_batches WHERE first_gseq <= ?1
             ORDER BY first_gseq DESC LIMIT 1",
        )?
        .query_row([to_i64(after)], |r| r.get(0))
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })?;
    Ok(floor.unwrap_or(0))
}

/// The events with `after < gseq <= upto`, in gseq order.
pub(crate) fn events_in(
    c: &Connection,
    after: u64,
    upto: i64,
) -> Result<Vec<StoredEvent>, StoreError> {
    events_page(c, after, upto, usize::MAX)
}

/// At most `limit` events with `after < gseq <= upto`, the first in gseq
/// order. Rows come in `first_gseq` order: once `limit` events are held,
/// a row beginning after the `limit`-th of them cannot add one before it,
/// and the scan stops.
pub(crate) fn events_page(
    c: &Connection,
    after: u64,
    upto: i64,
    limit: usize,
) -> Result<Vec<StoredEvent>, StoreError> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    let from = scan_from(c, after)?;
    let mut st = c.prepare_cached(&format!(
        "SELECT {ROW_COLUMNS} FROM event_batches
         WHERE first_gseq >= ?1 AND first_gseq <= ?2 AND last_gseq > ?3 ORDER BY first_gseq"
    ))?;
    let rows = st.query_and_then(params![from, upto, to_i64(after)], batch_row)?;
    let upto = u64::try_from(upto).unwrap_or(0);
    let mut out: Vec<StoredEvent> = Vec::new();
    // The limit-th gseq once `limit` events are held.
    let mut bound: Option<u64> = None;
    for row in rows {
        let row: BatchRow = row?;
        if bound.is_some_and(|b| row.first_gseq > b) {
            break;
        }
        let keep =
            |e: &StoredEvent| e.gseq > after && e.gseq <= upto && bound.is_none_or(|b| e.gseq < b);
        out.extend(decode(&row)?.into_iter().filter(keep));
        if bound.is_none() && out.len() >= limit {
            out.sort_by_key(|e| e.gseq);
            out.truncate(limit);
            bound = out.last().map(|e| e.gseq);
        }
    }
    out.sort_by_key(|e| e.gseq);
    out.truncate(limit);
    Ok(out)
}

/// The rows of `table` that may hold events with `after < gseq <= upto`
/// (`?1`, `?2`, `?3`): since schema 5 (`keyed`) those keyed at or below the
/// pass horizon and those of the tail above it, in one statement (one
/// snapshot: a pass finishing between two statements would show its rows
/// twice); in a schema 4 store, through the rows' index.
fn table_rows_sql(keyed: bool) -> String {
    const WHERE: &str = "table_no = ?1 AND last_gseq > ?2 AND first_gseq <= ?3";
    match keyed {
        true => format!(
            "SELECT {ROW_COLUMNS} FROM event_batches WHERE first_gseq IN
               (SELECT first_gseq FROM event_keys WHERE {WHERE} AND first_gseq <= {KEYED_UPTO})
             UNION ALL
             SELECT {ROW_COLUMNS} FROM event_batches WHERE first_gseq > {KEYED_UPTO} AND {WHERE}"
        ),
        false => format!("SELECT {ROW_COLUMNS} FROM event_batches WHERE {WHERE}"),
    }
}

/// The events of `table` with `after < gseq <= upto`, in gseq order.
pub(crate) fn events_of_table(
    c: &Connection,
    keyed: bool,
    table: u32,
    after: u64,
    upto: i64,
) -> Result<Vec<StoredEvent>, StoreError> {
    let mut st = c.prepare_cached(&table_rows_sql(keyed))?;
    let rows = st.query_and_then(params![i64::from(table), to_i64(after), upto], batch_row)?;
    let upto = u64::try_from(upto).unwrap_or(0);
    let mut out = Vec::new();
    for row in rows {
        let row: BatchRow = row?;
        out.extend(
            decode(&row)?
                .into_iter()
                .filter(|e| e.gseq > after && e.gseq <= upto),
        );
    }
    out.sort_by_key(|e| e.gseq);
    Ok(out)
}

/// Highest seq of `(table, epoch)` among rows up to `upto` (a commit is
/// all at or below the durable horizon, or all above it).
pub(crate) fn high_water(
    c: &Connection,
    keyed: bool,
    table: u32,
    epoch: u32,
    upto: i64,
) -> rusqlite::Result<Option<i64>> {
    const WHERE: &str = "table_no = ?1 AND epoch = ?2 AND last_gseq <= ?3";
    let sql = match keyed {
        true => format!(
            "SELECT max(m) FROM (
               SELECT max(last_seq) AS m FROM event_keys
                 WHERE {WHERE} AND first_gseq <= {KEYED_UPTO}
               UNION ALL
               SELECT max(last_seq) FROM event_batches WHERE first_gseq > {KEYED_UPTO} AND {WHERE})"
        ),
        false => format!("SELECT max(last_seq) FROM event_batches WHERE {WHERE}"),
    };
    c.prepare_cached(&sql)?
        .query_row(params![i64::from(table), i64::from(epoch), upto], |r| {
            r.get(0)
        })
}

/// Events stored up to `upto`.
pub(crate) fn count(c: &Connection, upto: i64) -> rusqlite::Result<i64> {
    c.query_row(
        "SELECT coalesce(sum(n), 0) FROM event_batches WHERE last_gseq <= ?1",
        [upto],
        |r| r.get(0),
    )
}
