//! The pipeline's handle for connections (提交): what a connection hands
//! the committer ([`Submission`], [`Job`]) through the [`Submitter`], and
//! the [`Reply`] it gets back. Shared by the committer (`ingest.rs`), the
//! shared state (`shared.rs`) and the console export, so none of them needs
//! another for it.

use proto::{Ack, ErrorReply};
use tokio::sync::{mpsc, oneshot};

use crate::hall::Refused;
use crate::record::Record;

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

/// What the committer is told.
#[derive(Debug)]
pub enum Job {
    /// Store and apply.
    Submit(Submission),
    /// Commit what came before, then stop.
    Stop,
}

/// Sender side of the pipeline.
pub type Submitter = mpsc::Sender<Job>;
