//! The outbox file: a magic header, then append-only records
//! `[len: u32 LE][crc32: u32 LE][kind: u8][payload]` where `len` counts the
//! kind byte and the payload and the CRC covers both.
//!
//! Payloads use the protocol's own codec (crates/proto): an event is the
//! `ClientMsg::Event` it is sent as, a carried-out control the
//! `ServerMsg::Control` it came in. On open, records are read until the
//! first one that is short, too long or fails its checksum (a write torn by
//! a crash); the file is cut there, so the next append starts on a clean
//! boundary and nothing before the tear is lost.

use super::storage::Storage;
use super::{OutboxError, Recovery};
use crate::crc::crc32;
use proto::{ClientMsg, ControlToTable, EventEnvelope, ServerMsg, WireMessage};
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// First bytes of every outbox file (format version 1).
pub const OUTBOX_MAGIC: &[u8; 8] = b"CPOBOX1\n";

/// Largest record accepted on reading.
const MAX_RECORD: u32 = 1 << 20;

/// Record kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum RecordKind {
    /// `table: u16 LE, epoch: u32 LE` (the first record).
    Meta = 1,
    Event = 2,
    /// `seq: u64 LE` acknowledged.
    Acked = 3,
    Control = 4,
}

pub(super) enum Record {
    Event(EventEnvelope),
    Acked(u64),
    Control { id: u64, control: ControlToTable },
}

pub(super) struct Found {
    pub epoch: u32,
    pub records: Vec<Record>,
    pub recovery: Recovery,
}

#[derive(Debug)]
pub(super) struct LogFile {
    path: PathBuf,
    file: File,
    table: u16,
    /// Where the next record goes (the file's length).
    end: u64,
    storage: Arc<dyn Storage>,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> OutboxError + '_ {
    move |source| OutboxError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn frame(kind: RecordKind, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 9);
    let len = payload.len() as u32 + 1;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&crc32(&[&[kind as u8], payload]).to_le_bytes());
    out.push(kind as u8);
    out.extend_from_slice(payload);
    out
}

impl LogFile {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where its writes go.
    pub fn storage(&self) -> Arc<dyn Storage> {
        self.storage.clone()
    }

    /// Writes a fresh outbox file over one too short to hold its header
    /// (`old_len` bytes, dropped): the magic and the meta record, synced
    /// with its directory entry.
    fn create(
        path: &Path,
        table: u16,
        new_epoch: u32,
        storage: Arc<dyn Storage>,
        file: File,
        old_len: usize,
    ) -> Result<(LogFile, Found), OutboxError> {
        let mut head = OUTBOX_MAGIC.to_vec();
        let mut meta = table.to_le_bytes().to_vec();
        meta.extend_from_slice(&new_epoch.to_le_bytes());
        head.extend_from_slice(&frame(RecordKind::Meta, &meta));
        storage.set_len(&file, path, 0).map_err(io(path))?;
        storage.write_at(&file, path, 0, &head).map_err(io(path))?;
        storage.sync(&file, path).map_err(io(path))?;
        if let Some(dir) = path.parent() {
            // The new directory entry must survive a power cut too.
            if let Err(e) = proto::durable::sync_dir(dir) {
                tracing::warn!("outbox: {e}");
            }
        }
        let log = LogFile {
            path: path.to_path_buf(),
            file,
            table,
            end: head.len() as u64,
            storage,
        };
        let found = Found {
            epoch: new_epoch,
            records: Vec::new(),
            recovery: Recovery {
                records: 0,
                dropped_bytes: old_len as u64,
                created: true,
            },
        };
        Ok((log, found))
    }

    pub fn open(
        path: &Path,
        table: u16,
        new_epoch: u32,
        storage: Arc<dyn Storage>,
    ) -> Result<(LogFile, Found), OutboxError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io(path))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io(path))?;
        if bytes.len() < OUTBOX_MAGIC.len() + 15 {
            // New (or torn before its header was complete): start afresh.
            return Self::create(path, table, new_epoch, storage, file, bytes.len());
        }
        if &bytes[..OUTBOX_MAGIC.len()] != OUTBOX_MAGIC {
            return Err(OutboxError::Corrupt {
                path: path.to_path_buf(),
                why: "not an outbox file (bad magic)".into(),
            });
        }
        let mut at = OUTBOX_MAGIC.len();
        let mut meta: Option<(u16, u32)> = None;
        let mut records = Vec::new();
        let mut count = 0;
        while let Some((kind, payload, next)) = read_record(&bytes, at) {
            let rec = match (kind, meta) {
                (k, None) if k == RecordKind::Meta as u8 && payload.len() == 6 => {
                    let t = u16::from_le_bytes([payload[0], payload[1]]);
                    let e = u32::from_le_bytes([payload[2], payload[3], payload[4], payload[5]]);
                    if t != table {
                        return Err(OutboxError::WrongTable {
                            path: path.to_path_buf(),
                            found: t,
                            expected: table,
                        });
                    }
                    meta = Some((t, e));
                    None
                }
                (_, None) => break,
                (k, Some(_)) if k == RecordKind::Event as u8 => match ClientMsg::decode(payload) {
                    Ok(ClientMsg::Event(env)) => Some(Record::Event(env)),
                    _ => break,
                },
                (k, Some(_)) if k == RecordKind::Acked as u8 && payload.len() == 8 => {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(payload);
                    Some(Record::Acked(u64::from_le_bytes(b)))
                }
                (k, Some(_)) if k == RecordKind::Control as u8 => {
                    match ServerMsg::decode(payload) {
                        Ok(ServerMsg::Control { id, control, .. }) => {
                            Some(Record::Control { id, control })
                        }
                        _ => break,
                    }
                }
                _ => break,
            };
            records.extend(rec);
            count += 1;
            at = next;
        }
        let Some((_, epoch)) = meta else {
            return Err(OutboxError::Corrupt {
                path: path.to_path_buf(),
                why: "no header record".into(),
            });
        };
        let dropped = (bytes.len() - at) as u64;
        if dropped > 0 {
            tracing::warn!(path = %path.display(), dropped, "outbox: torn tail cut off");
            storage.set_len(&file, path, at as u64).map_err(io(path))?;
            storage.sync(&file, path).map_err(io(path))?;
        }
        let log = LogFile {
            path: path.to_path_buf(),
            file,
            table,
            end: at as u64,
            storage,
        };
        Ok((
            log,
            Found {
                epoch,
                records,
                recovery: Recovery {
                    records: count,
                    dropped_bytes: dropped,
                    created: false,
                },
            },
        ))
    }

    pub fn append(&mut self, rec: &Record, sync: bool) -> Result<(), OutboxError> {
        let (kind, payload) = match rec {
            Record::Event(env) => (
                RecordKind::Event,
                ClientMsg::Event(env.clone())
                    .encode()
                    .map_err(|e| OutboxError::Encode(e.to_string()))?,
            ),
            Record::Acked(seq) => (RecordKind::Acked, seq.to_le_bytes().to_vec()),
            Record::Control { id, control } => (
                RecordKind::Control,
                ServerMsg::Control {
                    id: *id,
                    table: self.table,
                    control: control.clone(),
                }
                .encode()
                .map_err(|e| OutboxError::Encode(e.to_string()))?,
            ),
        };
        let bytes = frame(kind, &payload);
        let path = self.path.clone();
        self.storage
            .write_at(&self.file, &path, self.end, &bytes)
            .map_err(io(&path))?;
        self.end += bytes.len() as u64;
        if sync {
            self.storage.sync(&self.file, &path).map_err(io(&path))?;
        }
        Ok(())
    }
}

/// The record at `at`: (kind, payload, next offset), or `None` when it is
/// incomplete or fails its checksum.
fn read_record(bytes: &[u8], at: usize) -> Option<(u8, &[u8], usize)> {
    let head = bytes.get(at..at + 8)?;
    let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let crc = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    if len == 0 || len > MAX_RECORD {
        return None;
    }
    let body = bytes.get(at + 8..at + 8 + len as usize)?;
    if crc32(&[body]) != crc {
        return None;
    }
    Some((body[0], &body[1..], at + 8 + len as usize))
}
