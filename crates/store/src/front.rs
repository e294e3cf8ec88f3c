//! The request front (请求入口) both stores share: the checks a write gets
//! before it is queued, the hand-over to the store's single writer (SQLite's
//! thread or PostgreSQL's task) and the wait for its answer. A store gives
//! its failure watch and its channel ([`Front`]); the `Store` methods that
//! write are these functions.

use tokio::sync::{mpsc, oneshot, watch};

use super::writer::Request;
use super::{AppendOutcome, AuditRecord, NewEvent, Snapshot, StoreError};

/// Longest accepted event kind name.
const MAX_KIND_LEN: usize = 64;

/// What a store shows its front.
pub(crate) trait Front: Sync {
    /// The writer's failure, once it failed.
    fn failed(&self) -> &watch::Receiver<Option<String>>;
    /// The channel to the writer; `Err` once the store is closed.
    fn writer(&self) -> Result<mpsc::Sender<Request>, StoreError>;
}

/// `Err` once the writer failed.
pub(crate) fn health(front: &impl Front) -> Result<(), StoreError> {
    match &*front.failed().borrow() {
        Some(reason) => Err(StoreError::Failed(reason.clone())),
        None => Ok(()),
    }
}

/// Why the writer did not answer.
pub(crate) fn failed_error(front: &impl Front) -> StoreError {
    let reason = front.failed().borrow().clone();
    StoreError::Failed(reason.unwrap_or_else(|| "the store writer stopped".into()))
}

/// Queues one request for the writer and waits for its answer.
async fn request<T>(
    front: &impl Front,
    make: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Request,
) -> Result<T, StoreError> {
    health(front)?;
    let sender = front.writer()?;
    let (reply, answer) = oneshot::channel();
    if sender.send(make(reply)).await.is_err() {
        return Err(failed_error(front));
    }
    match answer.await {
        Ok(r) => r,
        Err(_) => Err(failed_error(front)),
    }
}

/// `Store::append`: one event.
pub(crate) async fn append(
    front: &impl Front,
    event: NewEvent,
) -> Result<AppendOutcome, StoreError> {
    let mut v = append_batch(front, vec![event]).await?;
    v.pop()
        .ok_or_else(|| StoreError::Failed("internal: empty append answer".into()))
}

/// `Store::append_batch`: every event checked first, then one request.
pub(crate) async fn append_batch(
    front: &impl Front,
    events: Vec<NewEvent>,
) -> Result<Vec<AppendOutcome>, StoreError> {
    for ev in &events {
        check_event(ev)?;
    }
    if events.is_empty() {
        return Ok(Vec::new());
    }
    request(front, |reply| Request::Append { events, reply }).await
}

/// `Store::append_audit`.
pub(crate) async fn append_audit(
    front: &impl Front,
    record: AuditRecord,
    publishes: Option<u32>,
) -> Result<u64, StoreError> {
    request(front, |reply| Request::Audit {
        record,
        publishes,
        reply,
    })
    .await
}

/// `Store::save_snapshot`: positions must fit the databases' signed integers.
pub(crate) async fn save_snapshot(
    front: &impl Front,
    snapshot: Snapshot,
) -> Result<(), StoreError> {
    if snapshot.upto_seq > i64::MAX as u64 || snapshot.upto_gseq > i64::MAX as u64 {
        return Err(StoreError::Invalid("snapshot position too large".into()));
    }
    request(front, |reply| Request::Snapshot { snapshot, reply }).await
}

/// The checks an event gets before it is queued: a sequence number the
/// database can hold and a kind of 1..=`MAX_KIND_LEN` bytes.
pub(crate) fn check_event(ev: &NewEvent) -> Result<(), StoreError> {
    if ev.key.seq > i64::MAX as u64 {
        return Err(StoreError::Invalid(format!(
            "seq {} of table {} is too large",
            ev.key.seq, ev.key.table
        )));
    }
    if ev.kind.is_empty() || ev.kind.len() > MAX_KIND_LEN {
        return Err(StoreError::Invalid(format!(
            "event kind must be 1..={MAX_KIND_LEN} bytes"
        )));
    }
    Ok(())
}
