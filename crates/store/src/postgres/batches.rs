//! Batched durable records in PostgreSQL (批量事件记录, schema 5, issue
//! 40): the `event_batches` rows of a hall, written one per `(table,
//! epoch)` per commit and read back as the events they hold. The body is
//! the SQLite store's (`crate::batch`): one format for both stores.
//!
//! Here: the insert of a commit's rows (one `unnest` statement), a row
//! read back into a [`BatchRow`] and decoded (a damaged body is
//! [`StoreError::Corrupt`] naming the hall and the row), and the lookup of
//! stored keys for the duplicate check (the rows whose seq range holds a
//! key, through `event_batches_by_key`).

use std::collections::{HashMap, HashSet};

use tokio_postgres::{GenericClient, Row};

use crate::batch::{BatchRow, RowBuilder};
use crate::writer::to_i64;
use crate::{EventKey, StoreError, StoredEvent};

/// The columns [`batch_row`] reads, in its order.
pub(crate) const ROW_COLUMNS: &str =
    "first_gseq, last_gseq, table_no, epoch, first_seq, last_seq, n, body";

/// Writes `rows` of hall `hall`, the rows of the commit that began at
/// `commit_gseq`, in one statement.
pub(crate) async fn insert<C: GenericClient>(
    client: &C,
    hall: &str,
    rows: &[RowBuilder],
    commit_gseq: u64,
) -> Result<(), tokio_postgres::Error> {
    if rows.is_empty() {
        return Ok(());
    }
    let mut first = Vec::with_capacity(rows.len());
    let mut last = Vec::with_capacity(rows.len());
    let mut table = Vec::with_capacity(rows.len());
    let mut epoch = Vec::with_capacity(rows.len());
    let mut first_seq = Vec::with_capacity(rows.len());
    let mut last_seq = Vec::with_capacity(rows.len());
    let mut n = Vec::with_capacity(rows.len());
    let mut body: Vec<&[u8]> = Vec::with_capacity(rows.len());
    for r in rows {
        first.push(to_i64(r.first_gseq));
        last.push(to_i64(r.last_gseq));
        table.push(i64::from(r.table));
        epoch.push(i64::from(r.epoch));
        first_seq.push(to_i64(r.first_seq));
        last_seq.push(to_i64(r.last_seq));
        n.push(to_i64(r.events.len() as u64));
        body.push(&r.body);
    }
    client
        .execute(
            "INSERT INTO event_batches (hall_id, commit_gseq, first_gseq, last_gseq, table_no,
                                        epoch, first_seq, last_seq, n, body)
             SELECT $1, $2, * FROM unnest($3::int8[], $4::int8[], $5::int8[], $6::int8[],
                                          $7::int8[], $8::int8[], $9::int8[], $10::bytea[])",
            &[
                &hall,
                &to_i64(commit_gseq),
                &first,
                &last,
                &table,
                &epoch,
                &first_seq,
                &last_seq,
                &n,
                &body,
            ],
        )
        .await?;
    Ok(())
}

/// A row selected as [`ROW_COLUMNS`].
pub(crate) fn batch_row(hall: &str, r: &Row) -> Result<BatchRow, StoreError> {
    fn u<T: TryFrom<i64>>(hall: &str, r: &Row, i: usize, what: &str) -> Result<T, StoreError> {
        let v: i64 = r.get(i);
        T::try_from(v).map_err(|_| StoreError::Corrupt {
            row: format!("hall {hall}: an event batch"),
            why: format!("{what} {v} is out of range"),
        })
    }
    Ok(BatchRow {
        first_gseq: u(hall, r, 0, "first_gseq")?,
        last_gseq: u(hall, r, 1, "last_gseq")?,
        table: u(hall, r, 2, "table_no")?,
        epoch: u(hall, r, 3, "epoch")?,
        first_seq: u(hall, r, 4, "first_seq")?,
        last_seq: u(hall, r, 5, "last_seq")?,
        n: u(hall, r, 6, "n")?,
        body: r.get(7),
    })
}

/// The events of `row`, a damaged body an error naming the hall and the row.
pub(crate) fn decode(hall: &str, row: &BatchRow) -> Result<Vec<StoredEvent>, StoreError> {
    row.decode().map_err(|e| StoreError::Corrupt {
        row: format!("hall {hall}: {}", row.name()),
        why: e.0,
    })
}

/// The stored `(gseq, payload_hash)` of those of `keys` that hall `hall`
/// holds.
pub(crate) async fn lookup<C: GenericClient>(
    client: &C,
    hall: &str,
    keys: &[EventKey],
) -> Result<HashMap<EventKey, (i64, Vec<u8>)>, LookupError> {
    let mut found = HashMap::new();
    if keys.is_empty() {
        return Ok(found);
    }
    let tables: Vec<i64> = keys.iter().map(|k| i64::from(k.table)).collect();
    let epochs: Vec<i64> = keys.iter().map(|k| i64::from(k.epoch)).collect();
    let seqs: Vec<i64> = keys.iter().map(|k| to_i64(k.seq)).collect();
    let rows = client
        .query(
            "SELECT DISTINCT ON (b.first_gseq) b.first_gseq, b.last_gseq, b.table_no, b.epoch,
                    b.first_seq, b.last_seq, b.n, b.body
             FROM unnest($2::int8[], $3::int8[], $4::int8[]) AS k(t, ep, s)
             JOIN event_batches b ON b.hall_id = $1 AND b.table_no = k.t AND b.epoch = k.ep
                  AND b.last_seq >= k.s AND b.first_seq <= k.s
             ORDER BY b.first_gseq",
            &[&hall, &tables, &epochs, &seqs],
        )
        .await
        .map_err(LookupError::Db)?;
    let wanted: HashSet<EventKey> = keys.iter().copied().collect();
    for r in &rows {
        let row = batch_row(hall, r).map_err(LookupError::Corrupt)?;
        for e in decode(hall, &row).map_err(LookupError::Corrupt)? {
            if wanted.contains(&e.key) {
                found.insert(e.key, (to_i64(e.gseq), e.payload_hash.to_vec()));
            }
        }
    }
    Ok(found)
}

/// Why a lookup failed: the database, or a stored row that does not decode.
#[derive(Debug)]
pub(crate) enum LookupError {
    Db(tokio_postgres::Error),
    Corrupt(StoreError),
}
