//! The outbox (待发事件箱): every table event is stored on the terminal's
//! own disk BEFORE it is sent, and stays until the server acknowledges it.
//!
//! After a reconnection the terminal resends from the server's high-water
//! mark (`HelloOk.table.high_water`, then each `Ack`); the server dedupes by
//! `(table, epoch, seq)`, so a resend of something already stored is
//! harmless. The outbox also keeps the controls the terminal carried out, so
//! a restarted terminal can rebuild its board from its own history.
//!
//! Storage: an append-only file of length-prefixed, CRC-checked records
//! ([`file`]) with `fsync` after each event, or memory only (the replayer
//! and the load generator, which simulate terminals on one machine). The
//! file's writes go through a [`Storage`]: the real disk, or one that
//! loses what was not synced at a power cut ([`storage`]).
//!
//! Rounds (下一轮): a terminal keeps one outbox per round it plays, each in
//! its own folder `round-R` under the table's outbox folder
//! ([`Outbox::open_round`]); when the hall moves to the next round the
//! terminal opens that round's outbox ([`Outbox::next_round`]) with a new
//! epoch and leaves the old one on disk as it was (an event of a finished
//! round is never sent into the next one).

mod file;
pub mod storage;

pub use file::{RecordKind, OUTBOX_MAGIC};
pub use storage::{PowerCutDisk, RealDisk, Storage};

use proto::{ControlToTable, EventEnvelope, TableEvent};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why the outbox failed.
#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error("outbox {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("outbox {path} belongs to table {found}, not table {expected}")]
    WrongTable {
        path: PathBuf,
        found: u16,
        expected: u16,
    },
    #[error("outbox {path}: {why}")]
    Corrupt { path: PathBuf, why: String },
    #[error("event does not encode: {0}")]
    Encode(String),
}

/// One entry of the terminal's history, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// An event the terminal reported (by seq).
    Event(EventEnvelope),
    /// A control of the server the terminal carried out.
    Control { id: u64, control: ControlToTable },
}

/// What [`Outbox::open`] found on disk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Records read back.
    pub records: usize,
    /// Bytes of a torn or corrupt tail that were cut off.
    pub dropped_bytes: u64,
    /// The file was new.
    pub created: bool,
}

/// The outbox of one table terminal.
#[derive(Debug)]
pub struct Outbox {
    table: u16,
    epoch: u32,
    /// Events of the epoch in seq order (`events[i].seq == i + 1`).
    events: Vec<EventEnvelope>,
    acked: u64,
    history: Vec<Entry>,
    file: Option<file::LogFile>,
    /// The table's outbox folder, under which each round has its own
    /// (`None`: in memory).
    rounds_folder: Option<PathBuf>,
}

/// The folder of round `round`'s outbox under a table's outbox folder.
pub fn round_dir(folder: &Path, round: u32) -> PathBuf {
    folder.join(format!("round-{round}"))
}

impl Outbox {
    /// An outbox in memory only (nothing survives the process).
    pub fn memory(table: u16, epoch: u32) -> Outbox {
        Outbox {
            table,
            epoch,
            events: Vec::new(),
            acked: 0,
            history: Vec::new(),
            file: None,
            rounds_folder: None,
        }
    }

    /// Opens (or creates) round `round`'s outbox of `table` under the
    /// table's outbox folder `folder` (in `folder/round-R`); the next
    /// rounds' outboxes go beside it ([`Outbox::next_round`]).
    pub fn open_round(
        folder: &Path,
        table: u16,
        round: u32,
        new_epoch: u32,
    ) -> Result<(Outbox, Recovery), OutboxError> {
        let (mut ob, rec) = Self::open(&round_dir(folder, round), table, new_epoch)?;
        ob.rounds_folder = Some(folder.to_path_buf());
        Ok((ob, rec))
    }

    /// The outbox of round `round` (the hall moved to it), beside this one:
    /// in memory for an outbox in memory, else in `round-R` of the same
    /// table folder (an outbox opened with [`Outbox::open`] in `dir` puts
    /// its next rounds under `dir`), on the same storage. A new one starts
    /// epoch `new_epoch`; this one stays as it is.
    pub fn next_round(
        &self,
        round: u32,
        new_epoch: u32,
    ) -> Result<(Outbox, Recovery), OutboxError> {
        let (Some(folder), Some(file)) = (&self.rounds_folder, &self.file) else {
            let fresh = Recovery {
                created: true,
                ..Recovery::default()
            };
            return Ok((Outbox::memory(self.table, new_epoch), fresh));
        };
        let (mut ob, rec) = Self::open_on(
            &round_dir(folder, round),
            self.table,
            new_epoch,
            file.storage(),
        )?;
        ob.rounds_folder = Some(folder.clone());
        Ok((ob, rec))
    }

    /// The outbox of round `round` when the hall went back to it (the chief
    /// withdrew round `withdrawn`, which this terminal was in, before it
    /// started): the withdrawn round's folder is set aside as
    /// `round-W-withdrawn-K` (what it holds unacknowledged stays there,
    /// never sent: a round published again starts in a fresh `round-W`),
    /// and round `round` gets a fresh outbox in `round-R-again-K` starting
    /// epoch `new_epoch` (round R's own outbox stays as it is). In memory
    /// for an outbox in memory.
    pub fn back_to_round(
        &self,
        round: u32,
        withdrawn: u32,
        new_epoch: u32,
    ) -> Result<(Outbox, Recovery), OutboxError> {
        let (Some(folder), Some(file)) = (&self.rounds_folder, &self.file) else {
            let fresh = Recovery {
                created: true,
                ..Recovery::default()
            };
            return Ok((Outbox::memory(self.table, new_epoch), fresh));
        };
        let free = |stem: String| -> PathBuf {
            (1u32..)
                .map(|k| folder.join(format!("{stem}-{k}")))
                .find(|p| !p.exists())
                .unwrap_or_else(|| folder.join(stem))
        };
        let gone = round_dir(folder, withdrawn);
        if gone.exists() {
            let aside = free(format!("round-{withdrawn}-withdrawn"));
            std::fs::rename(&gone, &aside).map_err(|source| OutboxError::Io {
                path: gone.clone(),
                source,
            })?;
        }
        let (mut ob, rec) = Self::open_on(
            &free(format!("round-{round}-again")),
            self.table,
            new_epoch,
            file.storage(),
        )?;
        ob.rounds_folder = Some(folder.clone());
        Ok((ob, rec))
    }

    /// Opens (or creates) the outbox file of `table` in `dir`. A new file
    /// starts epoch `new_epoch`. A torn last record (a crash while writing)
    /// is detected by its length or checksum and cut off; everything before
    /// it is kept.
    pub fn open(dir: &Path, table: u16, new_epoch: u32) -> Result<(Outbox, Recovery), OutboxError> {
        Self::open_on(dir, table, new_epoch, Arc::new(RealDisk))
    }

    /// [`Outbox::open`] with the file's writes going through `storage`.
    pub fn open_on(
        dir: &Path,
        table: u16,
        new_epoch: u32,
        storage: Arc<dyn Storage>,
    ) -> Result<(Outbox, Recovery), OutboxError> {
        let path = dir.join(format!("table-{table}.outbox"));
        let (log, found) = file::LogFile::open(&path, table, new_epoch, storage)?;
        let mut ob = Outbox {
            table,
            epoch: found.epoch,
            events: Vec::new(),
            acked: 0,
            history: Vec::new(),
            file: None,
            rounds_folder: Some(dir.to_path_buf()),
        };
        for rec in found.records {
            match rec {
                file::Record::Event(env) => {
                    let expected = ob.events.len() as u64 + 1;
                    if env.table != table || env.epoch != ob.epoch || env.seq != expected {
                        return Err(OutboxError::Corrupt {
                            path,
                            why: format!(
                                "event {}/{}/{} where {}/{}/{} was expected",
                                env.table, env.epoch, env.seq, table, ob.epoch, expected
                            ),
                        });
                    }
                    ob.history.push(Entry::Event(env.clone()));
                    ob.events.push(env);
                }
                file::Record::Acked(seq) => ob.acked = ob.acked.max(seq.min(ob.last_seq())),
                file::Record::Control { id, control } => {
                    ob.history.push(Entry::Control { id, control })
                }
            }
        }
        ob.file = Some(log);
        Ok((ob, found.recovery))
    }

    /// Where the outbox is kept (`None`: memory).
    pub fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(|f| f.path())
    }

    pub fn table(&self) -> u16 {
        self.table
    }

    /// The numbering run of this outbox's events.
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// The last seq stored (0: none).
    pub fn last_seq(&self) -> u64 {
        self.events.len() as u64
    }

    /// Highest seq the server acknowledged.
    pub fn acked(&self) -> u64 {
        self.acked
    }

    /// Events stored and not acknowledged.
    pub fn waiting(&self) -> u64 {
        self.last_seq() - self.acked
    }

    /// Events from `seq` on (1-based; `seq` beyond the end gives none).
    pub fn from_seq(&self, seq: u64) -> &[EventEnvelope] {
        let i = seq.saturating_sub(1).min(self.last_seq()) as usize;
        &self.events[i..]
    }

    /// Everything the terminal reported and carried out, in order.
    pub fn history(&self) -> &[Entry] {
        &self.history
    }

    /// Stores one event (durably, when on disk) and returns its envelope.
    pub fn append(&mut self, body: TableEvent) -> Result<EventEnvelope, OutboxError> {
        let env = EventEnvelope {
            table: self.table,
            epoch: self.epoch,
            seq: self.last_seq() + 1,
            body,
        };
        if let Some(f) = self.file.as_mut() {
            f.append(&file::Record::Event(env.clone()), true)?;
        }
        self.history.push(Entry::Event(env.clone()));
        self.events.push(env.clone());
        Ok(env)
    }

    /// Records a control the terminal carried out (for rebuilding).
    pub fn note_control(&mut self, id: u64, control: &ControlToTable) -> Result<(), OutboxError> {
        let rec = file::Record::Control {
            id,
            control: control.clone(),
        };
        if let Some(f) = self.file.as_mut() {
            // Made durable by the ControlApplied event that always follows.
            f.append(&rec, false)?;
        }
        self.history.push(Entry::Control {
            id,
            control: control.clone(),
        });
        Ok(())
    }

    /// The server stored everything up to `seq`. Not fsynced: losing this
    /// record only means a duplicate resend, which the server dedupes.
    pub fn mark_acked(&mut self, seq: u64) -> Result<(), OutboxError> {
        let seq = seq.min(self.last_seq());
        if seq <= self.acked {
            return Ok(());
        }
        self.acked = seq;
        if let Some(f) = self.file.as_mut() {
            f.append(&file::Record::Acked(seq), false)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
