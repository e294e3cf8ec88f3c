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
//!   each run of consecutive table events is one request, each audited
//!   record (command, refusal, note) another. All of them are queued at the
//!   store's writer at once, in order, before the first answer is awaited;
//!   the writer (SQLite or PostgreSQL) takes its queue in order and commits
//!   what is waiting as one transaction, up to its batch limit, so a batch
//!   usually costs one durable commit (a thousand terminals coming back
//!   after a restart were a thousand commits before). Order is kept either
//!   way: `gseq` follows the queue.
//! - All or nothing per store transaction, not per batch: if a request
//!   fails, requests committed before it (in an earlier transaction of the
//!   writer) stay stored, and the writer refuses every later one. The committer then
//!   acknowledges nothing of the batch (every submitter gets an error), does
//!   not apply it to the live hall, and stops the server. A restart replays
//!   what was stored, so the rebuilt hall may hold records of that batch
//!   whose senders saw an error: a terminal's resent event is then a
//!   duplicate (acknowledged again), a console's command is in effect and
//!   in the audit trail although its reply was an error.
//! - Nothing acknowledged is ever missing: an acknowledgement is sent only
//!   after the whole batch is durable.

use std::collections::VecDeque;
use std::task::Poll;

use proto::Message;
use store::{AppendOutcome, AuditOutcome, AuditRecord, BoxFuture, EventKey, NewEvent, StoreError};

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
    /// it was refused. Boxed: a table event (most entries) carries none,
    /// and the committer moves entries by value.
    pub audit: Option<Box<AuditMeta>>,
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
    /// The round an accepted `Command::PublishRound` publishes: the store
    /// lists it among its published rounds (`Store::append_published`).
    pub publishes: Option<u32>,
    /// What was done, typed (`action` is its English; protocol 10).
    pub action_msg: Option<Message>,
    /// Why it was refused, typed (`refused` is its English).
    pub why_msg: Option<Message>,
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
    /// Queues `batch` at the store, in order, behind every batch sent
    /// before it and not yet waited for, without waiting: the committer
    /// plans the next batch while this one is written and synced. The
    /// entries' bodies go to the store as they are (moved, not copied).
    fn send(&mut self, batch: Vec<Entry>);
    /// Waits until the oldest batch sent and not yet waited for is
    /// durable and answers one outcome per entry of it (none when nothing
    /// is in flight); on an error a prefix of it may be stored (see the
    /// module docs: all or nothing per store request, not per batch).
    fn wait(&mut self) -> Result<Vec<Outcome>, JournalError>;
    /// Appends `batch` in order and makes it durable, when nothing else is
    /// in flight: [`Journal::send`] then [`Journal::wait`].
    fn commit(&mut self, batch: Vec<Entry>) -> Result<Vec<Outcome>, JournalError> {
        self.send(batch);
        self.wait()
    }
    /// The stored bytes of the table event with `key`, if stored.
    fn find(&mut self, key: (u16, u32, u64)) -> Result<Option<Vec<u8>>, JournalError>;
    /// The store position (`gseq`) of the last record committed through
    /// this journal or known to it at start; 0 when the journal has no
    /// positions (then no snapshot is taken).
    fn position(&self) -> u64 {
        0
    }
}

/// [`Journal`] over the hall's event store (`store/`, [`store::Store`]):
/// table events go to its deduplicating event log, commands, refusals and
/// server notes to its audit log; runs of consecutive events are appended as
/// one request, each audited record as one, one after another (see the
/// module docs for what that promises), and the store's global sequence
/// keeps the order for replay.
pub struct StoreJournal {
    store: std::sync::Arc<dyn store::Store>,
    rt: tokio::runtime::Handle,
    position: u64,
    /// Batches sent and not yet waited for, oldest first: the store
    /// requests of each, in batch order.
    in_flight: VecDeque<Vec<Pending<'static>>>,
}

impl StoreJournal {
    /// Wraps `store`; `rt` runs its futures from the committer thread.
    pub fn new(
        store: std::sync::Arc<dyn store::Store>,
        rt: tokio::runtime::Handle,
    ) -> StoreJournal {
        StoreJournal {
            store,
            rt,
            position: 0,
            in_flight: VecDeque::new(),
        }
    }

    /// Sets the position reached by the rebuild (the last row in the store).
    pub fn set_position(&mut self, gseq: u64) {
        self.position = gseq;
    }
}

impl Journal for StoreJournal {
    fn send(&mut self, batch: Vec<Entry>) {
        let mut requests: Vec<Pending<'static>> = Vec::new();
        let mut batch = batch.into_iter().peekable();
        while let Some(first) = batch.next() {
            let store = self.store.clone();
            let request = if first.key.is_some() {
                // A run of events, in room for the whole batch's rest (an
                // iterator of runs gives no size: collected, a flood's run
                // of thousands grew by copies).
                let mut events: Vec<NewEvent> = Vec::with_capacity(1 + batch.len());
                events.extend(new_event(first));
                while let Some(e) = batch.next_if(|e| e.key.is_some()) {
                    events.extend(new_event(e));
                }
                Box::pin(async move { store.append_batch(events).await.map(Answer::Events) })
                    as RequestFuture<'static>
            } else {
                let publishes = first.audit.as_ref().and_then(|a| a.publishes);
                let record = audit_record(first);
                Box::pin(async move {
                    match publishes {
                        Some(round) => store.append_published(record, round).await,
                        None => store.append_audit(record).await,
                    }
                    .map(Answer::Audit)
                }) as RequestFuture<'static>
            };
            requests.push(Pending {
                fut: request,
                done: None,
            });
        }
        self.in_flight.push_back(requests);
        self.rt.block_on(queue_in_order(&mut self.in_flight));
    }

    fn wait(&mut self) -> Result<Vec<Outcome>, JournalError> {
        let Some(requests) = self.in_flight.pop_front() else {
            return Ok(Vec::new());
        };
        let answers = self.rt.block_on(wait_all(requests));
        let mut out = Vec::new();
        for answer in answers {
            match answer.map_err(|e| JournalError(e.to_string()))? {
                Answer::Events(res) => out.extend(res.into_iter().map(|o| match o {
                    AppendOutcome::Stored { gseq } => {
                        self.position = self.position.max(gseq);
                        Outcome::Stored
                    }
                    AppendOutcome::Duplicate { .. } => Outcome::Duplicate,
                    AppendOutcome::Conflict { .. } => Outcome::Conflict,
                })),
                Answer::Audit(id) => {
                    self.position = self.position.max(id);
                    out.push(Outcome::Stored);
                }
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

/// What one store request of a batch answered.
enum Answer {
    Events(Vec<AppendOutcome>),
    Audit(u64),
}

type RequestFuture<'a> = BoxFuture<'a, Result<Answer, StoreError>>;

/// A store request of a batch and, once it answered, its answer.
struct Pending<'a> {
    fut: RequestFuture<'a>,
    done: Option<Result<Answer, StoreError>>,
}

/// Polls every unanswered request in flight once, oldest batch first and
/// in batch order, so that each is queued at the store's writer before the
/// next (the writer takes its queue in order and groups what is waiting
/// into one transaction). A queue that is full hands out its places first
/// come, first served, but a request given its place is only queued when
/// polled again: polling the older batches' requests before the newest
/// keeps a newer request from overtaking an older one.
async fn queue_in_order(batches: &mut VecDeque<Vec<Pending<'static>>>) {
    std::future::poll_fn(|cx| {
        for r in batches.iter_mut().flatten() {
            if r.done.is_none() {
                if let Poll::Ready(answer) = r.fut.as_mut().poll(cx) {
                    r.done = Some(answer);
                }
            }
        }
        Poll::Ready(())
    })
    .await;
}

/// Waits for every answer of requests queued by [`queue_in_order`].
async fn wait_all(requests: Vec<Pending<'_>>) -> Vec<Result<Answer, StoreError>> {
    let mut answers = Vec::with_capacity(requests.len());
    for r in requests {
        answers.push(match r.done {
            Some(answer) => answer,
            None => r.fut.await,
        });
    }
    answers
}

/// The store row of a table event.
fn new_event(e: Entry) -> Option<NewEvent> {
    let (table, epoch, seq) = e.key?;
    Some(NewEvent {
        key: EventKey {
            table: u32::from(table),
            epoch,
            seq,
        },
        kind: "event".into(),
        payload: e.body,
        received_at_ms: e.at_ms as i64,
    })
}

/// The audit row of a command, refusal or note.
fn audit_record(e: Entry) -> AuditRecord {
    let meta = e.audit.map(|a| *a).unwrap_or_else(|| AuditMeta {
        who: "server".into(),
        action: "note".into(),
        table: None,
        refused: None,
        publishes: None,
        action_msg: Some(hall::audit::asked::note()),
        why_msg: None,
    });
    // A message that does not encode (it cannot: plain data) is left out,
    // and the row renders as its text.
    let encoded = |m: &Option<Message>| {
        m.as_ref()
            .and_then(|m| hall::record::encode_message(m).ok())
    };
    let (action_msg, why_msg) = (encoded(&meta.action_msg), encoded(&meta.why_msg));
    AuditRecord {
        action_msg,
        why_msg,
        who: meta.who,
        action: meta.action,
        table: meta.table.map(u32::from),
        payload: e.body,
        at_ms: e.at_ms as i64,
        outcome: match meta.refused {
            Some(why) => AuditOutcome::Refused { why },
            None => AuditOutcome::Accepted,
        },
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use super::*;
    use store::{LogEntry, OpenOptions, SqliteStore};

    /// A SQLite store of hall `id` in a temp dir on disk (not a tmpfs
    /// /tmp, so that an fsync costs what it does), and a runtime for it.
    pub(crate) fn disk_store(
        id: &str,
    ) -> (tempfile::TempDir, tokio::runtime::Runtime, Arc<SqliteStore>) {
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).expect("temp dir");
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let store = Arc::new(SqliteStore::open(dir.path(), OpenOptions::new(id)).expect("store"));
        (dir, rt, store)
    }

    fn note(i: u64) -> Entry {
        Entry {
            at_ms: 1_000 + i,
            key: None,
            body: vec![1, i as u8],
            audit: None,
        }
    }

    fn event(table: u16, seq: u64) -> Entry {
        Entry {
            at_ms: 2_000 + seq,
            key: Some((table, 1, seq)),
            body: vec![2, table as u8, seq as u8],
            audit: None,
        }
    }

    /// The store's log and the stored bytes of each row, in gseq order.
    fn stored(store: &SqliteStore) -> (Vec<LogEntry>, Vec<Vec<u8>>) {
        let log = store.reader().log_after(0).expect("log");
        let bodies = log
            .iter()
            .map(|e| match e {
                LogEntry::Event(e) => e.payload.clone(),
                LogEntry::Audit(a) => a.record.payload.clone(),
            })
            .collect();
        (log, bodies)
    }

    /// A batch of notes and event runs is queued at the writer at once: it
    /// is stored in batch order (gseq follows it) in far fewer durable
    /// commits than requests (a thousand terminals back after a restart
    /// must not cost a thousand commits).
    #[test]
    fn a_batch_is_stored_in_order_in_few_commits() {
        let (_dir, rt, store) = disk_store("00000000000000aa");
        let mut journal = StoreJournal::new(store.clone(), rt.handle().clone());
        let mut batch: Vec<Entry> = (0..200).map(note).collect();
        batch.push(event(3, 1));
        batch.push(event(3, 2));
        batch.push(note(200));
        batch.push(event(4, 1));
        let requests = 203;
        let before = store.stats();
        let out = journal.commit(batch.clone()).expect("commit");
        let after = store.stats();
        assert_eq!(out, vec![Outcome::Stored; batch.len()]);
        // Awaited one by one, each request was its own commit and its own
        // fsync (203 of each); queued together, the writer groups what waits
        // while it writes and syncs. How much it groups depends on timing,
        // hence the loose bound.
        let syncs = after.syncs - before.syncs;
        assert!(
            syncs * 2 < requests,
            "{syncs} fsyncs ({} commits) for {requests} requests",
            after.commits - before.commits
        );

        let (log, bodies) = stored(&store);
        let expected: Vec<Vec<u8>> = batch.iter().map(|e| e.body.clone()).collect();
        assert_eq!(bodies, expected, "stored in batch order");
        assert_eq!(journal.position(), log.len() as u64);

        // The same events again: duplicates, nothing new stored.
        let again = journal
            .commit(vec![event(3, 1), note(201)])
            .expect("commit");
        assert_eq!(again, vec![Outcome::Duplicate, Outcome::Stored]);
    }

    /// Two batches sent before either is waited for (the committer's two
    /// batches in flight): stored in the order sent, answered oldest
    /// first, the position following the batch waited for.
    #[test]
    fn batches_in_flight_are_stored_and_answered_in_order() {
        let (_dir, rt, store) = disk_store("00000000000000ab");
        let mut journal = StoreJournal::new(store.clone(), rt.handle().clone());
        let first: Vec<Entry> = (1..=50).map(|s| event(1, s)).chain([note(1)]).collect();
        let second: Vec<Entry> = [note(2)]
            .into_iter()
            .chain((51..=60).map(|s| event(1, s)))
            .chain([event(2, 1), event(1, 3)])
            .collect();
        journal.send(first.clone());
        journal.send(second.clone());
        let a = journal.wait().expect("first");
        assert_eq!(a, vec![Outcome::Stored; first.len()]);
        assert_eq!(journal.position(), first.len() as u64);
        let b = journal.wait().expect("second");
        let mut expected = vec![Outcome::Stored; second.len()];
        expected[second.len() - 1] = Outcome::Duplicate;
        assert_eq!(
            b, expected,
            "the last is a resend of the first batch's seq 3"
        );
        assert_eq!(journal.position(), (first.len() + second.len() - 1) as u64);
        assert_eq!(journal.wait().expect("nothing in flight"), vec![]);

        let (_, bodies) = stored(&store);
        let sent: Vec<Vec<u8>> = first
            .iter()
            .chain(&second[..second.len() - 1])
            .map(|e| e.body.clone())
            .collect();
        assert_eq!(bodies, sent, "stored in the order sent");
    }
}
