//! The runtime's durable log (日志): the seam between the ingest pipeline and
//! the store.
//!
//! The pipeline needs one thing from a store: commit a batch of records in
//! order, durably, before anything of it is acknowledged (table events
//! deduplicated by `(table, epoch, seq)`: a resent event already stored is
//! a duplicate, the same key with other bytes a conflict). [`Journal`] is
//! that seam; [`StoreJournal`] implements it over the hall's event store
//! (`store/`: SQLite or PostgreSQL). Reading the records back to rebuild
//! the hall is not the journal's: the restart reads the store's log and
//! replays it through the hall core (`rebuild.rs`, `hall::replay`). Calls
//! block: the pipeline runs them on its own thread.
//!
//! What a commit promises, exactly ([`StoreJournal`]):
//! - The batch is written as a sequence of store requests, in batch order:
//!   each run of consecutive table events is one request (one transaction),
//!   each audited record (command, refusal, note) another. Each request is
//!   durable (committed and synced) before the next is made, so a batch of
//!   `k` event runs and `m` audited records costs `k + m` durable commits
//!   (the store may still group requests of other callers).
//! - All or nothing per request, not per batch: if a request fails, the
//!   requests before it in the batch stay stored. The committer then
//!   acknowledges nothing of the batch (every submitter gets an error), does
//!   not apply it to the live hall, and stops the server. A restart replays
//!   what was stored, so the rebuilt hall may hold records of that batch
//!   whose senders saw an error: a terminal's resent event is then a
//!   duplicate (acknowledged again), a console's command is in effect and
//!   in the audit trail although its reply was an error.
//! - Nothing acknowledged is ever missing: an acknowledgement is sent only
//!   after the whole batch is durable.

/// One record to append.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Server time it was received (Unix ms).
    pub at_ms: u64,
    /// `(table, epoch, seq)` for a table event (the dedupe key).
    pub key: Option<(u16, u32, u64)>,
    /// The encoded record (`record.rs`).
    pub body: Vec<u8>,
    /// For audited records (commands, refusals, notes): who, what, and why
    /// it was refused.
    pub audit: Option<AuditMeta>,
}

/// The audit columns of a non-event record.
#[derive(Debug, Clone)]
pub struct AuditMeta {
    /// Who (`chief:王`, `server`).
    pub who: String,
    /// What (action name).
    pub action: String,
    /// The table concerned.
    pub table: Option<u16>,
    /// `Some(why)` when refused.
    pub refused: Option<String>,
}

/// What happened to one appended entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Written and committed.
    Stored,
    /// Its key was already stored with the same bytes.
    Duplicate,
    /// Its key was already stored with other bytes.
    Conflict,
}

/// A store failure: the server stops rather than acknowledge what it could not store.
#[derive(Debug, thiserror::Error)]
#[error("store: {0}")]
pub struct JournalError(pub String);

/// The durable log.
pub trait Journal: Send + 'static {
    /// Appends `batch` in order and makes it durable; on an error a prefix
    /// of it may be stored (see the module docs: all or nothing per store
    /// request, not per batch).
    fn commit(&mut self, batch: &[Entry]) -> Result<Vec<Outcome>, JournalError>;
    /// The stored bytes of the table event with `key`, if stored.
    fn find(&mut self, key: (u16, u32, u64)) -> Result<Option<Vec<u8>>, JournalError>;
    /// The store position (`gseq`) of the last record committed through
    /// this journal or known to it at start; 0 when the journal has no
    /// positions (then no snapshot is taken).
    fn position(&self) -> u64 {
        0
    }
}

/// [`Journal`] over the hall's event store (`store/`, [`crate::store::Store`]):
/// table events go to its deduplicating event log, commands, refusals and
/// server notes to its audit log; runs of consecutive events are appended as
/// one request, each audited record as one, one after another (see the
/// module docs for what that promises), and the store's global sequence
/// keeps the order for replay.
pub struct StoreJournal {
    store: std::sync::Arc<dyn crate::store::Store>,
    rt: tokio::runtime::Handle,
    position: u64,
}

impl StoreJournal {
    /// Wraps `store`; `rt` runs its futures from the committer thread.
    pub fn new(
        store: std::sync::Arc<dyn crate::store::Store>,
        rt: tokio::runtime::Handle,
    ) -> StoreJournal {
        StoreJournal {
            store,
            rt,
            position: 0,
        }
    }

    /// Sets the position reached by the rebuild (the last row in the store).
    pub fn set_position(&mut self, gseq: u64) {
        self.position = gseq;
    }
}

impl Journal for StoreJournal {
    fn commit(&mut self, batch: &[Entry]) -> Result<Vec<Outcome>, JournalError> {
        use crate::store::{AppendOutcome, AuditOutcome, AuditRecord, EventKey, NewEvent};
        let store_err = |e: crate::store::StoreError| JournalError(e.to_string());
        let mut out = Vec::with_capacity(batch.len());
        let mut i = 0;
        while i < batch.len() {
            if batch[i].key.is_some() {
                let mut events = Vec::new();
                while let Some(e) = batch.get(i) {
                    let Some((table, epoch, seq)) = e.key else {
                        break;
                    };
                    events.push(NewEvent {
                        key: EventKey {
                            table: u32::from(table),
                            epoch,
                            seq,
                        },
                        kind: "event".into(),
                        payload: e.body.clone(),
                        received_at_ms: e.at_ms as i64,
                    });
                    i += 1;
                }
                let res = self
                    .rt
                    .block_on(self.store.append_batch(events))
                    .map_err(store_err)?;
                out.extend(res.into_iter().map(|o| match o {
                    AppendOutcome::Stored { gseq } => {
                        self.position = self.position.max(gseq);
                        Outcome::Stored
                    }
                    AppendOutcome::Duplicate { .. } => Outcome::Duplicate,
                    AppendOutcome::Conflict { .. } => Outcome::Conflict,
                }));
            } else {
                let e = &batch[i];
                let meta = e.audit.clone().unwrap_or(AuditMeta {
                    who: "server".into(),
                    action: "note".into(),
                    table: None,
                    refused: None,
                });
                let rec = AuditRecord {
                    who: meta.who,
                    action: meta.action,
                    table: meta.table.map(u32::from),
                    payload: e.body.clone(),
                    at_ms: e.at_ms as i64,
                    outcome: match meta.refused {
                        Some(why) => AuditOutcome::Refused { why },
                        None => AuditOutcome::Accepted,
                    },
                };
                let id = self
                    .rt
                    .block_on(self.store.append_audit(rec))
                    .map_err(store_err)?;
                self.position = self.position.max(id);
                out.push(Outcome::Stored);
                i += 1;
            }
        }
        Ok(out)
    }

    fn find(&mut self, key: (u16, u32, u64)) -> Result<Option<Vec<u8>>, JournalError> {
        let (t, ep, seq) = key;
        let events = self
            .rt
            .block_on(self.store.events_for_table(u32::from(t), 0))
            .map_err(|e| JournalError(e.to_string()))?;
        Ok(events
            .into_iter()
            .find(|e| e.key.epoch == ep && e.key.seq == seq)
            .map(|e| e.payload))
    }

    fn position(&self) -> u64 {
        self.position
    }
}
