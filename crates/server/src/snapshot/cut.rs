//! A cut taken and not yet encoded: what the hall lock is held for.
//!
//! Taking a cut shares the state of every table that changed since its
//! last row (the hall keeps each table behind an `Arc`; the next write to
//! one while the cut still holds it copies it, `Arc::make_mut`) and copies
//! the hall's book. Making the tables' snapshot form ([`TableSnap::of`])
//! and encoding it (bincode and a SHA-256 per row, [`super::codec`]) is
//! the cut's cost and needs nothing of the hall, so it runs after the lock
//! is given back (issue 40: at 10,000 tables a cut held the lock for
//! 68-124 ms with the encoding, 62-112 ms with the copies, every ack
//! behind it waiting).

use super::codec::{self, SnapshotCodecError};
use std::sync::Arc;

use super::state::{HallSnap, TableSnap};
use super::HALL_ROW;
use hall::table::TableState;
use store::Snapshot;

/// A table's state at the cut.
#[derive(Debug, Clone)]
pub struct TableCut {
    /// The table.
    pub table: u16,
    /// Its epoch and high-water mark at the cut.
    pub upto_epoch: u32,
    /// See `upto_epoch`.
    pub upto_seq: u64,
    /// Its state at the cut (shared with the hall until the table is
    /// written again).
    pub state: Arc<TableState>,
}

/// A cut: the changed tables' states and the hall row, all at `upto_gseq`.
#[derive(Debug, Clone)]
pub struct Cut {
    /// Every log row up to this one is applied, none after.
    pub upto_gseq: u64,
    /// Wall clock of the cut (Unix ms).
    pub saved_at_ms: i64,
    /// The tables whose row this cut writes.
    pub tables: Vec<TableCut>,
    /// The hall row (its manifest names every table's row).
    pub hall: HallSnap,
}

/// A row of a cut that did not encode.
#[derive(Debug, thiserror::Error)]
#[error("snapshot row of {row} not encoded: {source}")]
pub struct CutError {
    /// `table N` or `the hall`.
    pub row: String,
    /// Why.
    #[source]
    pub source: SnapshotCodecError,
}

impl Cut {
    /// Table rows this cut writes (the hall row aside).
    pub fn table_rows(&self) -> usize {
        self.tables.len()
    }

    /// The rows to save, the hall row last.
    pub fn encode(self) -> Result<Vec<Snapshot>, CutError> {
        let mut rows = Vec::with_capacity(self.tables.len() + 1);
        for t in self.tables {
            let state = codec::encode(&TableSnap::of(&t.state)).map_err(|source| CutError {
                row: format!("table {}", t.table),
                source,
            })?;
            rows.push(Snapshot {
                table: u32::from(t.table),
                upto_epoch: t.upto_epoch,
                upto_seq: t.upto_seq,
                upto_gseq: self.upto_gseq,
                state,
                saved_at_ms: self.saved_at_ms,
            });
        }
        let state = codec::encode(&self.hall).map_err(|source| CutError {
            row: "the hall".into(),
            source,
        })?;
        rows.push(Snapshot {
            table: HALL_ROW,
            upto_epoch: 0,
            upto_seq: 0,
            upto_gseq: self.upto_gseq,
            state,
            saved_at_ms: self.saved_at_ms,
        });
        Ok(rows)
    }
}
