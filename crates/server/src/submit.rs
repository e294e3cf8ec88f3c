//! The pipeline's handle for connections (提交): what a connection hands
//! the committer ([`Submission`], [`Burst`], [`Job`]) through the
//! [`Submitter`], and the [`Reply`] it gets back. Shared by the committer
//! (`ingest.rs`), the connections, the ticker and the console export, so
//! none of them needs another for it.
//!
//! A connection's reader hands the table events it finds in one read as
//! one [`Burst`]: one job on the committer's queue and one reply (a vector,
//! one [`Reply`] per event, in order) instead of one of each per event;
//! the committer still checks, stores and applies every event on its own.

use proto::{Ack, ErrorCode, ErrorReply, EventEnvelope};
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

use hall::record::{Note, Record};

/// A refused or failed request: the code and why, as a catalogue message
/// (the hall's [`hall::Refusal`] as the reply carries it, or an export's
/// failure).
pub type Refused = (ErrorCode, proto::Message);

/// The answer to one submission.
#[derive(Debug)]
pub enum Reply {
    /// A table event is stored (or already was).
    Ack(Ack),
    /// A command or note was applied (`Ok(note)`) or failed.
    Done(Result<String, Refused>),
    /// Refused before storing.
    Error(ErrorReply),
}

/// One record to store and apply.
#[derive(Debug)]
pub struct Submission {
    /// The record.
    pub record: Record,
    /// Server time it was received (Unix ms).
    pub at_ms: u64,
    /// Where to send the reply, if anyone waits.
    pub reply: Option<oneshot::Sender<Reply>>,
}

/// Most table events a connection hands to the pipeline as one burst.
pub const MAX_BURST: usize = 256;

/// Table events read together from one connection, stored and applied
/// like as many submissions and answered together.
#[derive(Debug)]
pub struct Burst {
    /// The events, in the order read.
    pub events: Vec<EventEnvelope>,
    /// Server time they were received (Unix ms).
    pub at_ms: u64,
    /// One reply per event, in order.
    pub reply: oneshot::Sender<BurstReplies>,
    /// When it took its place in the committer's queue (its replies'
    /// time is counted from here: [`crate::reply_time`]).
    pub queued_at: Instant,
}

/// A burst's replies, one per event in order, and when the burst was
/// queued.
#[derive(Debug)]
pub struct BurstReplies {
    pub replies: Vec<Reply>,
    pub queued_at: Instant,
}

/// What the committer is told.
#[derive(Debug)]
pub enum Job {
    /// Store and apply.
    Submit(Submission),
    /// Store and apply each event of the burst.
    Burst(Burst),
    /// Commit what came before, then stop.
    Stop,
}

/// The pipeline's sending end: a cheap handle (cloned per task) that
/// submits records to the committer.
#[derive(Debug, Clone)]
pub struct Submitter(mpsc::Sender<Job>);

impl Submitter {
    /// A handle on the committer's queue `tx`.
    pub fn new(tx: mpsc::Sender<Job>) -> Submitter {
        Submitter(tx)
    }

    /// Submits a record and returns the receiver of its reply (`None`: the
    /// pipeline stopped).
    pub async fn submit(&self, record: Record, at_ms: u64) -> Option<oneshot::Receiver<Reply>> {
        let (tx, rx) = oneshot::channel();
        let job = Job::Submit(Submission {
            record,
            at_ms,
            reply: Some(tx),
        });
        self.0.send(job).await.ok()?;
        Some(rx)
    }

    /// Submits table events read together and returns the receiver of
    /// their replies, one per event in order (`None`: the pipeline stopped).
    pub async fn submit_burst(
        &self,
        events: Vec<EventEnvelope>,
        at_ms: u64,
    ) -> Option<oneshot::Receiver<BurstReplies>> {
        // A place in the queue first, the job made once it is there: the
        // future waiting for the place holds no job (a job is hundreds
        // of bytes, and this future is part of every connection's task
        // for its whole life: issue 40).
        let permit = self.0.reserve().await.ok()?;
        let (tx, rx) = oneshot::channel();
        permit.send(Job::Burst(Burst {
            events,
            at_ms,
            reply: tx,
            queued_at: Instant::now(),
        }));
        Some(rx)
    }

    /// Submits a record nobody waits for (notes, refusals).
    pub async fn submit_quiet(&self, record: Record, at_ms: u64) {
        let job = Job::Submit(Submission {
            record,
            at_ms,
            reply: None,
        });
        if self.0.send(job).await.is_err() {
            tracing::warn!("pipeline stopped; record not stored");
        }
    }

    /// Notes that `table`'s terminal is connected (or not), nobody waiting.
    pub async fn note_online(&self, table: u16, online: bool, at_ms: u64) {
        let note = Note::Online { table, online };
        self.submit_quiet(Record::Note(note), at_ms).await;
    }

    /// Tells the committer to commit what was submitted before, then stop.
    pub async fn stop(&self) {
        let _ = self.0.send(Job::Stop).await;
    }
}
