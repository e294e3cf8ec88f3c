//! The event pipeline (入库流水线): sequence check -> durable group commit ->
//! apply to the hall -> reply (ack) -> publish.
//!
//! Connections hand [`Submission`]s to one committer thread through a
//! bounded channel and keep reading (pipelining); each submission carries a
//! oneshot for its reply, which the connection's writer awaits in order (a
//! [`Burst`] of table events read together carries one for all its replies,
//! answered once its batch is applied). The
//! committer takes everything waiting (up to [`MAX_BATCH`]), checks table
//! event numbering against its high-water marks, commits the batch to the
//! [`Journal`] durably (what that promises exactly: `journal.rs`), and only
//! then applies the records to the hall
//! in commit order (so the live state is exactly what a replay of the store
//! gives), answers every submitter, publishes the deltas and forwards the
//! controls to the table terminals; after a batch it lets the
//! snapshotter (`snapshot/`, owned by the committer and handed back when
//! it stops, for the shutdown's final cut) take a cut when one is due. A
//! store failure
//! stops the pipeline and the server: nothing is acknowledged that was not
//! stored. The time of each stage of a batch is added to `Shared::stages`
//! (`stages.rs`) for the bench's breakdown.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use proto::{refusals, Ack, ErrorCode, ErrorReply, Message, RequestRef};
use tokio::sync::{mpsc, oneshot};

use crate::gather::Gather;
use crate::journal::{AuditMeta, Entry, Journal, Outcome};
use crate::reply_time::ANSWER_TIMES;
use crate::shared::Shared;
use crate::snapshot::{HighWater, Snapshotter};
use crate::stages::Stage;
use crate::submit::MAX_BURST;
pub use crate::submit::{Burst, BurstReplies, Job, Reply, Submission, Submitter};
pub use crate::wallclock::now_ms;
use hall::record::Record;

/// Most records committed in one transaction. With 1,000 tables a commit
/// rewrites about one index page per table whatever its size, so large
/// batches under load matter (figures in docs/benchmarks.md); under light
/// load batches stay small anyway.
pub const MAX_BATCH: usize = 16_384;

/// Capacity of the submission channel (back-pressure on connections).
pub const QUEUE: usize = 16_384;

/// A batch's table event keys `(table, epoch, seq)`, to their submission.
type InBatch = HashMap<(u16, u32, u64), usize, foldhash::fast::RandomState>;

enum Plan {
    /// Stored as entry `i` of the batch.
    Store(usize),
    /// A resend of an event already stored (or in this batch).
    Duplicate { table: u16, epoch: u32 },
    /// Refused before storing.
    Reject(ErrorReply),
}

/// What the committer hands back when it stops.
#[derive(Debug)]
pub struct Stopped {
    /// The store error that stopped it, if any.
    pub error: Option<String>,
    /// Its snapshotter, up to date (for the final cut of a clean stop).
    pub snapshots: Snapshotter,
}

/// The bursts of a batch (their events are submissions of the batch
/// without a reply of their own), answered together.
struct OpenBurst {
    /// Index of its first event in the batch's submissions.
    start: usize,
    /// Its events, and so the replies it waits for.
    len: usize,
    reply: oneshot::Sender<BurstReplies>,
    queued_at: Instant,
}

/// What the committer takes from its queue for one batch.
#[derive(Default)]
struct Taken {
    jobs: Vec<Submission>,
    /// The bursts among `jobs`, in order.
    bursts: VecDeque<OpenBurst>,
}

/// Sends each reply of a batch where it is awaited: a submission's own
/// oneshot, or its burst's vector (sent when the burst's last reply is in).
struct Answers {
    bursts: VecDeque<OpenBurst>,
    current: Vec<Reply>,
}

impl Answers {
    fn new(bursts: VecDeque<OpenBurst>) -> Answers {
        Answers {
            bursts,
            current: Vec::new(),
        }
    }

    /// Answers submission `i` of the batch (`own`: its own oneshot).
    fn answer(&mut self, i: usize, own: Option<oneshot::Sender<Reply>>, reply: Reply) {
        match self.bursts.front() {
            Some(b) if i >= b.start => {
                if self.current.is_empty() {
                    self.current.reserve_exact(b.len);
                }
                self.current.push(reply);
                if self.current.len() >= b.len {
                    if let Some(b) = self.bursts.pop_front() {
                        ANSWER_TIMES.record(b.queued_at.elapsed(), b.len);
                        let _ = b.reply.send(BurstReplies {
                            replies: std::mem::take(&mut self.current),
                            queued_at: b.queued_at,
                        });
                    }
                }
            }
            _ => {
                if let Some(r) = own {
                    let _ = r.send(reply);
                }
            }
        }
    }
}

/// A batch planned and sent to the journal, not yet answered.
struct Batch {
    jobs: Vec<Submission>,
    bursts: VecDeque<OpenBurst>,
    plans: Vec<Plan>,
    /// The records to store, in batch order (handed to the journal, their
    /// bodies with them, when the batch is sent).
    entries: Vec<Entry>,
    /// The table event key of each entry (`None`: not a table event).
    keys: Vec<Option<(u16, u32, u64)>>,
    /// Table event keys of `entries`, to their submission in `jobs` (the
    /// next batch's duplicate check while this one is in flight).
    in_batch: InBatch,
}

/// The committer loop (runs on its own thread): owns the journal and the
/// snapshotter; the hall is shared with the connections behind its lock.
///
/// Two batches in flight: while batch N is written and synced, the
/// committer takes what has queued meanwhile, plans it and sends it to the
/// journal behind N (the store writes it while N's fsync runs), then waits
/// for N, applies it and answers. Batches are applied and answered in the
/// order they were sent, each only once it is durable. Numbering is
/// planned ahead (`planned`); the high-water marks that acknowledgements
/// and snapshots carry (`durable`) only move when a batch is applied.
pub fn run_committer(
    mut journal: Box<dyn Journal>,
    mut rx: mpsc::Receiver<Job>,
    shared: Arc<Shared>,
    high_water: HighWater,
    mut snapshots: Snapshotter,
) -> Stopped {
    let mut planned = high_water.clone();
    let mut durable = high_water;
    let mut ahead: Option<Batch> = None;
    let mut stop = false;
    let mut gather = Gather::new(crate::gather::EVERY, Instant::now());
    // The recent batches' size: the next batch's room is made at once,
    // not grown by copies as a flood's thousands of submissions come in.
    let mut last_len = 0;
    // A flood keeps the heap's freed pages a while (`purge_pace.rs`).
    let mut pace = crate::purge_pace::Pace::default();
    loop {
        // A busy hall gathers a larger batch (`gather.rs`); the batch in
        // flight is written and synced meanwhile.
        let wait = gather.wait(Instant::now());
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
        // Wait for work only when nothing is in flight.
        if ahead.is_none() && rx.is_empty() {
            if let Some(f) = pace.idle() {
                crate::purge_pace::set_flooded(f);
            }
        }
        let jobs = take_jobs(&mut rx, ahead.is_none(), &mut stop, last_len);
        // The room follows the larger batches and forgets them slowly: a
        // flood's batches alternate in size (one gathers while the other
        // syncs), and a take that found the queue empty says nothing.
        last_len = jobs.jobs.len().max(last_len - last_len / 8);
        let now = Instant::now();
        gather.taken(now, jobs.jobs.len());
        if let Some(f) = pace.taken(now, jobs.jobs.len()) {
            crate::purge_pace::set_flooded(f);
        }
        let next = (!jobs.jobs.is_empty()).then(|| {
            shared.stages.batch(jobs.jobs.len());
            let t = Instant::now();
            let mut b = plan_batch(jobs, ahead.as_ref(), &mut planned, journal.as_mut());
            if !b.entries.is_empty() {
                journal.send(std::mem::take(&mut b.entries));
            }
            shared.stages.lap(Stage::Plan, t);
            b
        });
        if let Some(b) = ahead.take() {
            if let Err(error) = finish(b, journal.as_mut(), &shared, &mut durable, &mut snapshots) {
                if let Some(n) = next {
                    refuse_all(n.jobs, n.bursts);
                }
                return Stopped {
                    error: Some(error),
                    snapshots,
                };
            }
        }
        ahead = next;
        if ahead.is_none() && stop {
            break;
        }
    }
    snapshots.set_high_water(&durable);
    Stopped {
        error: None,
        snapshots,
    }
}

/// What is waiting in the queue (up to [`MAX_BATCH`] submissions, a burst
/// counting its events, and one burst more); blocks for the first job when
/// `block`, in room for `room` submissions (the last batch's size). Sets
/// `stop` on a stop request or a closed queue.
fn take_jobs(rx: &mut mpsc::Receiver<Job>, block: bool, stop: &mut bool, room: usize) -> Taken {
    let mut taken = Taken {
        // A quarter and a burst more than the last batch: a batch a little
        // larger than the last does not grow by a copy of all of it.
        jobs: Vec::with_capacity((room + room / 4 + MAX_BURST).min(MAX_BATCH + MAX_BURST)),
        bursts: VecDeque::new(),
    };
    if *stop {
        return taken;
    }
    if block {
        let added = rx.blocking_recv().is_some_and(|job| taken.add(job));
        if !added {
            *stop = true;
            return taken;
        }
    }
    while taken.jobs.len() < MAX_BATCH && !taken.ends_batch() {
        match rx.try_recv() {
            Ok(job) => {
                if !taken.add(job) {
                    *stop = true;
                    break;
                }
            }
            Err(mpsc::error::TryRecvError::Disconnected) => {
                *stop = true;
                break;
            }
            Err(mpsc::error::TryRecvError::Empty) => break,
        }
    }
    taken
}

impl Taken {
    /// A published round ends its batch, so that its record's `gseq` is
    /// the batch's last (the new round's first, `next_round.rs`); so does
    /// a withdrawn round (its `gseq` marks the withdrawal).
    fn ends_batch(&self) -> bool {
        matches!(
            self.jobs.last().map(|s| &s.record),
            Some(Record::Command {
                command: proto::Command::PublishRound { .. } | proto::Command::WithdrawRound { .. },
                ..
            })
        )
    }

    /// Adds a job's submissions; false for a stop request.
    fn add(&mut self, job: Job) -> bool {
        match job {
            Job::Submit(s) => self.jobs.push(s),
            Job::Burst(b) => {
                if b.events.is_empty() {
                    let _ = b.reply.send(BurstReplies {
                        replies: Vec::new(),
                        queued_at: b.queued_at,
                    });
                    return true;
                }
                self.bursts.push_back(OpenBurst {
                    start: self.jobs.len(),
                    len: b.events.len(),
                    reply: b.reply,
                    queued_at: b.queued_at,
                });
                let at_ms = b.at_ms;
                self.jobs.extend(b.events.into_iter().map(|env| Submission {
                    record: Record::Event(env),
                    at_ms,
                    reply: None,
                }));
            }
            Job::Stop => return false,
        }
        true
    }
}

/// Plans `jobs`: numbering checks against `planned` (and the batch still
/// in flight, `ahead`), encoding.
fn plan_batch(
    taken: Taken,
    ahead: Option<&Batch>,
    planned: &mut HighWater,
    journal: &mut dyn Journal,
) -> Batch {
    let Taken { jobs, bursts } = taken;
    let mut b = Batch {
        plans: Vec::with_capacity(jobs.len()),
        entries: Vec::with_capacity(jobs.len()),
        keys: Vec::with_capacity(jobs.len()),
        in_batch: InBatch::with_capacity_and_hasher(jobs.len(), Default::default()),
        jobs: Vec::new(),
        bursts,
    };
    for j in 0..jobs.len() {
        let p = plan(&jobs, j, &mut b, ahead, planned, journal);
        b.plans.push(p);
    }
    b.jobs = jobs;
    b
}

/// Waits for batch `b` to be durable, then applies it to the hall in
/// order, answers every submitter, publishes and lets the snapshotter run.
/// On a store failure everyone of the batch gets an error, the server is
/// told to stop, and the error is returned.
fn finish(
    b: Batch,
    journal: &mut dyn Journal,
    shared: &Shared,
    durable: &mut HighWater,
    snapshots: &mut Snapshotter,
) -> Result<(), String> {
    let t = Instant::now();
    let outcomes = if b.keys.is_empty() {
        Ok(Vec::new())
    } else {
        journal.wait()
    };
    let t = shared.stages.lap(Stage::Store, t);
    let outcomes = match outcomes {
        Ok(o) => o,
        Err(e) => {
            tracing::error!(error = %e, "store commit failed: stopping the server");
            refuse_all(b.jobs, b.bursts);
            shared.fatal(format!("store commit failed: {e}"));
            return Err(e.to_string());
        }
    };
    // Apply in commit order, answer, publish.
    let Ok(mut hall) = shared.hall.lock() else {
        refuse_all(b.jobs, b.bursts);
        shared.fatal("hall state poisoned".into());
        return Err("hall state poisoned".into());
    };
    let round_before = hall.info().round;
    // A published round ends its batch (`take_jobs`): its gseq is the last.
    let publishing = b.jobs.last().and_then(|s| match &s.record {
        Record::Command {
            command: proto::Command::PublishRound { round, .. },
            ..
        } => Some((**round).clone()),
        _ => None,
    });
    let withdrawing = b.jobs.last().and_then(|s| match &s.record {
        Record::Command {
            command: proto::Command::WithdrawRound { round, .. },
            ..
        } => Some(*round),
        _ => None,
    });
    let mut answers = Answers::new(b.bursts);
    for (i, (s, p)) in b.jobs.into_iter().zip(b.plans).enumerate() {
        let reply = match p {
            Plan::Store(i) => {
                if let Some(&Some((table, epoch, seq))) = b.keys.get(i) {
                    durable.insert(table, (epoch, seq));
                }
                match outcomes.get(i) {
                    Some(Outcome::Stored) => {
                        let res = hall.apply(&s.record, s.at_ms);
                        if res.is_ok() {
                            note_players(shared, &s.record);
                        }
                        match &s.record {
                            Record::Event(env) => Reply::Ack(Ack {
                                table: env.table,
                                epoch: env.epoch,
                                seq: env.seq,
                                duplicate: false,
                            }),
                            _ => Reply::Done(res.map(|()| String::new()).map_err(|r| r.reply())),
                        }
                    }
                    Some(Outcome::Duplicate) => dup_ack(&s.record, durable),
                    _ => Reply::Error(conflict(&s.record, refusals::conflict_stored())),
                }
            }
            Plan::Duplicate { table, epoch } => {
                let seq = durable.get(&table).map(|h| h.1).unwrap_or(0);
                Reply::Ack(Ack {
                    table,
                    epoch,
                    seq,
                    duplicate: true,
                })
            }
            Plan::Reject(e) => Reply::Error(e),
        };
        answers.answer(i, s.reply, reply);
    }
    let t = shared.stages.lap(Stage::Apply, t);
    let new_round =
        publishing.filter(|p| hall.info().round != round_before && hall.info().round == p.round);
    let fx = hall.take_effects();
    shared.publisher.publish(fx.deltas);
    shared
        .public
        .publish(fx.public, hall.info().round != round_before);
    shared.send_controls(fx.controls);
    if let Some(round) = new_round {
        let p = export::published::Published {
            gseq: journal.position(),
            round,
        };
        crate::next_round::started(shared, &mut hall, snapshots, p);
    }
    if let Some(round) = withdrawing.filter(|&r| round_before == r && hall.info().round + 1 == r) {
        crate::next_round::withdrawn(shared, &mut hall, snapshots, round, journal.position());
    }
    let t = shared.stages.lap(Stage::Publish, t);
    snapshots.after_batch(&mut hall, journal.position(), durable);
    drop(hall);
    shared.stages.lap(Stage::Snapshot, t);
    Ok(())
}

/// A stored entry or withdrawal of a player goes into the config the next
/// pairing and the export read (`export::published::apply_players`).
fn note_players(shared: &Shared, record: &Record) {
    if let Record::Command {
        command:
            command @ (proto::Command::EnterPlayer { .. } | proto::Command::WithdrawPlayer { .. }),
        ..
    } = record
    {
        shared.export.players(std::slice::from_ref(command));
    }
}

/// Answers every submitter of `jobs` with an error: the server could not
/// store them and is stopping.
fn refuse_all(jobs: Vec<Submission>, bursts: VecDeque<OpenBurst>) {
    let mut answers = Answers::new(bursts);
    for (i, s) in jobs.into_iter().enumerate() {
        let reply = Reply::Error(ErrorReply {
            code: ErrorCode::Unavailable,
            message: refusals::not_stored_stopping(),
            re: None,
        });
        answers.answer(i, s.reply, reply);
    }
}

fn dup_ack(rec: &Record, hw: &HighWater) -> Reply {
    match rec {
        Record::Event(env) => Reply::Ack(Ack {
            table: env.table,
            epoch: env.epoch,
            seq: hw.get(&env.table).map(|h| h.1).unwrap_or(env.seq),
            duplicate: true,
        }),
        _ => Reply::Done(Ok(String::new())),
    }
}

fn conflict(rec: &Record, why: Message) -> ErrorReply {
    let re = match rec {
        Record::Event(env) => Some(RequestRef::Event {
            table: env.table,
            epoch: env.epoch,
            seq: env.seq,
        }),
        _ => None,
    };
    ErrorReply {
        code: ErrorCode::Conflict,
        message: why,
        re,
    }
}

/// Plans submission `j` of `jobs` into batch `b` (its entry, key and
/// place in `in_batch` when stored).
fn plan(
    jobs: &[Submission],
    j: usize,
    b: &mut Batch,
    ahead: Option<&Batch>,
    high_water: &mut HighWater,
    journal: &mut dyn Journal,
) -> Plan {
    let s = &jobs[j];
    let body = match s.record.encode() {
        Ok(bytes) => bytes,
        Err(e) => {
            return Plan::Reject(ErrorReply {
                code: ErrorCode::Internal,
                message: refusals::server_error(&e.to_string()),
                re: None,
            })
        }
    };
    let key = match &s.record {
        Record::Event(env) => {
            let (e, q) = high_water.get(&env.table).copied().unwrap_or((0, 0));
            let k = (env.table, env.epoch, env.seq);
            let next = (env.epoch == e && env.seq == q + 1) || (env.epoch > e && env.seq == 1);
            if !next {
                if (env.epoch, env.seq) <= (e, q) {
                    // A resend: the same bytes stored before (or earlier in
                    // this batch, or in the batch still in flight: the same
                    // record, whose bytes are its encoding)?
                    let sent = b.in_batch.get(&k).map(|&i| &jobs[i].record).or_else(|| {
                        ahead.and_then(|a| a.in_batch.get(&k).map(|&i| &a.jobs[i].record))
                    });
                    if let Some(sent) = sent {
                        return if *sent == s.record {
                            Plan::Duplicate {
                                table: env.table,
                                epoch: env.epoch,
                            }
                        } else {
                            Plan::Reject(conflict(&s.record, refusals::conflict_sent()))
                        };
                    }
                    // Let the store compare with what it holds: Duplicate or
                    // Conflict (a never-stored old key is a Conflict too,
                    // checked below by not being `next`).
                    return match journal.find(k) {
                        Ok(Some(stored)) if stored == body => Plan::Duplicate {
                            table: env.table,
                            epoch: env.epoch,
                        },
                        Ok(Some(_)) => {
                            Plan::Reject(conflict(&s.record, refusals::conflict_stored()))
                        }
                        Ok(None) => Plan::Reject(conflict(
                            &s.record,
                            refusals::behind(env.seq, env.epoch, e, q),
                        )),
                        Err(err) => Plan::Reject(ErrorReply {
                            code: ErrorCode::Unavailable,
                            message: refusals::server_error(&err.to_string()),
                            re: None,
                        }),
                    };
                }
                let expected = if env.epoch == e { q + 1 } else { 1 };
                return Plan::Reject(conflict(
                    &s.record,
                    refusals::out_of_order(env.table, env.epoch, expected, env.seq),
                ));
            }
            high_water.insert(env.table, (env.epoch, env.seq));
            b.in_batch.insert(k, j);
            Some(k)
        }
        _ => None,
    };
    let audit = audit_meta(&s.record).map(Box::new);
    b.entries.push(Entry {
        at_ms: s.at_ms,
        key,
        body,
        audit,
    });
    b.keys.push(key);
    Plan::Store(b.entries.len() - 1)
}

/// The audit columns of a record (`None`: an event).
fn audit_meta(record: &Record) -> Option<AuditMeta> {
    match record {
        Record::Event(_) => None,
        Record::Command { author, command } => Some(AuditMeta {
            who: author.who(),
            action: hall::command::describe(command),
            action_msg: Some(hall::command::typed(command)),
            why_msg: None,
            table: command.table(),
            refused: None,
            // A withdrawal is listed with the publications
            // (`export::published` reads both).
            publishes: match command {
                proto::Command::PublishRound { round, .. } => Some(round.round),
                proto::Command::WithdrawRound { round, .. } => Some(*round),
                // Entries and withdrawals of players too (the round
                // column: the first round a withdrawal leaves out; 0 for
                // an entry, which joins the round after the hall's).
                proto::Command::WithdrawPlayer { from_round, .. } => Some(u32::from(*from_round)),
                proto::Command::EnterPlayer { .. } => Some(0),
                _ => None,
            },
        }),
        Record::Refused {
            who,
            what,
            table,
            why,
            what_msg,
            why_msg,
        } => Some(AuditMeta {
            who: who.clone(),
            action: what.clone(),
            table: *table,
            refused: Some(why.clone()),
            publishes: None,
            action_msg: what_msg.clone(),
            why_msg: why_msg.clone(),
        }),
        Record::Note(_) => Some(AuditMeta {
            who: "server".into(),
            action: "note".into(),
            table: record.table(),
            refused: None,
            publishes: None,
            action_msg: Some(hall::audit::asked::note()),
            why_msg: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use proto::{EventEnvelope, Side, TableEvent};

    use super::*;
    use crate::journal::tests::disk_store;
    use crate::journal::StoreJournal;

    fn call(seq: u64, reason: &str) -> Submission {
        Submission {
            record: Record::Event(EventEnvelope {
                table: 1,
                epoch: 1,
                seq,
                body: TableEvent::CallArbiter {
                    by: Side::Red,
                    reason: reason.into(),
                },
            }),
            at_ms: 1_000 + seq,
            reply: None,
        }
    }

    fn taken(jobs: Vec<Submission>) -> Taken {
        Taken {
            jobs,
            bursts: VecDeque::new(),
        }
    }

    /// A terminal resending an event of the batch still in flight (sent to
    /// the store, not yet answered) gets a duplicate, not a conflict; other
    /// bytes under that key are a conflict; the next seq is planned.
    #[test]
    fn a_resend_of_an_event_in_flight_is_a_duplicate() {
        let (_dir, rt, store) = disk_store("00000000000000ac");
        let mut journal = StoreJournal::new(store, rt.handle().clone());
        let mut planned = HighWater::default();
        let mut ahead = plan_batch(
            taken(vec![call(1, "a"), call(2, "b")]),
            None,
            &mut planned,
            &mut journal,
        );
        assert!(matches!(ahead.plans[..], [Plan::Store(0), Plan::Store(1)]));
        journal.send(std::mem::take(&mut ahead.entries));
        // Planned before the first batch is answered.
        let next = plan_batch(
            taken(vec![call(2, "b"), call(1, "other"), call(3, "c")]),
            Some(&ahead),
            &mut planned,
            &mut journal,
        );
        assert!(matches!(
            next.plans[0],
            Plan::Duplicate { table: 1, epoch: 1 }
        ));
        assert!(
            matches!(&next.plans[1], Plan::Reject(e) if e.code == ErrorCode::Conflict),
            "other bytes under a key in flight"
        );
        assert!(matches!(next.plans[2], Plan::Store(0)));
        assert_eq!(planned.get(&1), Some(&(1, 3)));
        assert_eq!(journal.wait().expect("stored").len(), 2);
    }
}
