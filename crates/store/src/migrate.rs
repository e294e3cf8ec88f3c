//! Store schema 3 -> 4 (issue 40): the one-row-per-event `events` table of
//! schemas 1-3 becomes batched rows of `event_batches` (`batch.rs`), inside
//! the transaction that opens the store.
//!
//! Why convert rather than keep the old table read-only beside the new
//! one: every reader (replay, export, rebuild, the console's table log,
//! takeover, backup) would otherwise merge two tables with two row shapes
//! for as long as the data dir lives, and the duplicate check would look
//! in both; converting once keeps one shape, one code path for a running
//! store, and the same compact rows for the old events as for new ones. The
//! cost is paid once, when a server first opens the old store (one pass
//! over the old rows in gseq order), and atomically: the conversion, the drop
//! of the old table with its append-only triggers and the new schema
//! version commit together or not at all, so a store is never half
//! converted. (A read-only [`crate::StoreReader`] of an old store does
//! not convert it; it reads the old rows as they are.)
//!
//! The old log is cut into stretches of [`STRETCH`] events in gseq order,
//! as if each had been one commit: within a stretch one row per `(table,
//! epoch)`, its `commit_gseq` the stretch's first gseq. Every event keeps
//! its gseq, key, kind, payload, stored hash and receive time.

use std::collections::HashMap;

use rusqlite::Connection;

use super::batch::RowBuilder;
use super::writer::insert_row;
use super::{EventKey, StoredEvent};

/// Whether the store keeps its events one row each (`events`, schemas
/// 1-3) rather than in batches: a store opened read-only is not
/// migrated, and its reader reads them so.
pub(crate) fn has_event_rows(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'events'",
        [],
        |r| r.get(0),
    )
}

/// Events of the old log taken as one commit.
const STRETCH: usize = 4096;

/// Converts the `events` table, if the store has one, into batch rows and
/// drops it. Returns the events and the rows.
pub(crate) fn batch_events(tx: &Connection) -> rusqlite::Result<(u64, u64)> {
    if !has_event_rows(tx)? {
        return Ok((0, 0));
    }
    let mut events = 0u64;
    let mut rows = 0u64;
    {
        let mut st = tx.prepare(
            "SELECT gseq, table_no, epoch, seq, kind, payload, payload_hash, received_at_ms
             FROM events ORDER BY gseq",
        )?;
        let mut q = st.query([])?;
        let mut stretch = Stretch::default();
        while let Some(r) = q.next()? {
            let gseq: i64 = r.get(0)?;
            let table: i64 = r.get(1)?;
            let epoch: i64 = r.get(2)?;
            let seq: i64 = r.get(3)?;
            let kind: String = r.get(4)?;
            let payload: Vec<u8> = r.get(5)?;
            let h: Vec<u8> = r.get(6)?;
            let received_at_ms: i64 = r.get(7)?;
            // As the old reader did: a key out of range is not an event,
            // a hash not 32 bytes long reads as zeros.
            let (Ok(gseq), Ok(table), Ok(epoch), Ok(seq)) = (
                u64::try_from(gseq),
                u32::try_from(table),
                u32::try_from(epoch),
                u64::try_from(seq),
            ) else {
                return Err(rusqlite::Error::IntegralValueOutOfRange(0, gseq));
            };
            let mut hash = [0u8; 32];
            if h.len() == 32 {
                hash.copy_from_slice(&h);
            }
            stretch.push(&StoredEvent {
                gseq,
                key: EventKey { table, epoch, seq },
                kind,
                payload,
                payload_hash: hash,
                received_at_ms,
            });
            events += 1;
            if stretch.len >= STRETCH {
                rows += stretch.flush(tx)?;
            }
        }
        rows += stretch.flush(tx)?;
    }
    tx.execute_batch(
        "DROP TRIGGER IF EXISTS events_no_update;
         DROP TRIGGER IF EXISTS events_no_delete;
         DROP TABLE events;",
    )?;
    Ok((events, rows))
}

/// The rows of one stretch being filled.
#[derive(Default)]
struct Stretch {
    /// The stretch's first gseq.
    commit_gseq: Option<u64>,
    rows: Vec<RowBuilder>,
    by_key: HashMap<(u32, u32), usize>,
    len: usize,
}

impl Stretch {
    fn push(&mut self, e: &StoredEvent) {
        self.commit_gseq.get_or_insert(e.gseq);
        let (table, epoch) = (e.key.table, e.key.epoch);
        let i = *self.by_key.entry((table, epoch)).or_insert_with(|| {
            self.rows.push(RowBuilder::new(table, epoch, e.gseq));
            self.rows.len() - 1
        });
        self.rows[i].push(e.gseq, e.key.seq, &e.kind, &e.payload, e.received_at_ms);
        self.len += 1;
    }

    /// Writes the stretch's rows (in `first_gseq` order, as they were
    /// begun) and starts the next stretch.
    fn flush(&mut self, tx: &Connection) -> rusqlite::Result<u64> {
        let Some(commit_gseq) = self.commit_gseq.take() else {
            return Ok(0);
        };
        let n = self.rows.len() as u64;
        for row in self.rows.drain(..) {
            insert_row(tx, &row, commit_gseq)?;
        }
        self.by_key.clear();
        self.len = 0;
        Ok(n)
    }
}
