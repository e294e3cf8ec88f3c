//! The event pipeline (入库流水线): sequence check -> durable group commit ->
//! apply to the hall -> reply (ack) -> publish.
//!
//! Connections hand [`Submission`]s to one committer thread through a
//! bounded channel and keep reading (pipelining); each submission carries a
//! oneshot for its reply, which the connection's writer awaits in order. The
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

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use proto::{Ack, ErrorCode, ErrorReply, RequestRef};
use tokio::sync::mpsc;

use crate::journal::{AuditMeta, Entry, Journal, Outcome};
use crate::record::Record;
use crate::shared::Shared;
use crate::snapshot::Snapshotter;
use crate::stages::Stage;
pub use crate::submit::{Job, Reply, Submission, Submitter};
pub use crate::wallclock::now_ms;

/// Most records committed in one transaction. With 1,000 tables a commit
/// rewrites about one index page per table whatever its size, so large
/// batches under load matter (figures in docs/benchmarks.md); under light
/// load batches stay small anyway.
pub const MAX_BATCH: usize = 16_384;

/// Capacity of the submission channel (back-pressure on connections).
pub const QUEUE: usize = 16_384;

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

/// The committer loop (runs on its own thread): owns the journal and the
/// snapshotter; the hall is shared with the connections behind its lock.
pub fn run_committer(
    mut journal: Box<dyn Journal>,
    mut rx: mpsc::Receiver<Job>,
    shared: Arc<Shared>,
    mut high_water: HashMap<u16, (u32, u64)>,
    mut snapshots: Snapshotter,
) -> Stopped {
    let mut stop = false;
    while !stop {
        let Some(first) = rx.blocking_recv() else {
            break;
        };
        let mut jobs = Vec::with_capacity(64);
        match first {
            Job::Submit(s) => jobs.push(s),
            Job::Stop => stop = true,
        }
        while !stop && jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(Job::Submit(s)) => jobs.push(s),
                Ok(Job::Stop) => stop = true,
                Err(_) => break,
            }
        }
        if jobs.is_empty() {
            continue;
        }
        shared.stages.batch(jobs.len());
        let t = Instant::now();
        // Plan: numbering checks, encoding.
        let mut entries: Vec<Entry> = Vec::with_capacity(jobs.len());
        let mut in_batch: HashMap<(u16, u32, u64), usize> = HashMap::new();
        let mut plans = Vec::with_capacity(jobs.len());
        for s in &jobs {
            plans.push(plan(
                s,
                &mut entries,
                &mut in_batch,
                &mut high_water,
                journal.as_mut(),
            ));
        }
        let t = shared.stages.lap(Stage::Plan, t);
        let outcomes = if entries.is_empty() {
            Ok(Vec::new())
        } else {
            journal.commit(&entries)
        };
        let t = shared.stages.lap(Stage::Store, t);
        let outcomes = match outcomes {
            Ok(o) => o,
            Err(e) => {
                tracing::error!(error = %e, "store commit failed: stopping the server");
                for s in jobs {
                    if let Some(r) = s.reply {
                        let _ = r.send(Reply::Error(ErrorReply {
                            code: ErrorCode::Unavailable,
                            message: "the server could not store this and is stopping".into(),
                            re: None,
                        }));
                    }
                }
                shared.fatal(format!("store commit failed: {e}"));
                return Stopped {
                    error: Some(e.to_string()),
                    snapshots,
                };
            }
        };
        // Apply in commit order, answer, publish.
        let Ok(mut hall) = shared.hall.lock() else {
            shared.fatal("hall state poisoned".into());
            return Stopped {
                error: Some("hall state poisoned".into()),
                snapshots,
            };
        };
        for (s, p) in jobs.into_iter().zip(plans) {
            let reply = match p {
                Plan::Store(i) => match outcomes.get(i) {
                    Some(Outcome::Stored) => {
                        let res = hall.apply(&s.record, s.at_ms);
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
                    Some(Outcome::Duplicate) => dup_ack(&s.record, &high_water),
                    _ => Reply::Error(conflict(
                        &s.record,
                        "same key stored with different content",
                    )),
                },
                Plan::Duplicate { table, epoch } => {
                    let seq = high_water.get(&table).map(|h| h.1).unwrap_or(0);
                    Reply::Ack(Ack {
                        table,
                        epoch,
                        seq,
                        duplicate: true,
                    })
                }
                Plan::Reject(e) => Reply::Error(e),
            };
            if let Some(r) = s.reply {
                let _ = r.send(reply);
            }
        }
        let t = shared.stages.lap(Stage::Apply, t);
        let fx = hall.take_effects();
        shared.publisher.publish(fx.deltas);
        shared.send_controls(fx.controls);
        let t = shared.stages.lap(Stage::Publish, t);
        snapshots.after_batch(&mut hall, journal.position(), &high_water);
        drop(hall);
        shared.stages.lap(Stage::Snapshot, t);
    }
    snapshots.set_high_water(&high_water);
    Stopped {
        error: None,
        snapshots,
    }
}

fn dup_ack(rec: &Record, hw: &HashMap<u16, (u32, u64)>) -> Reply {
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

fn conflict(rec: &Record, why: &str) -> ErrorReply {
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
        message: why.to_string(),
        re,
    }
}

fn plan(
    s: &Submission,
    entries: &mut Vec<Entry>,
    in_batch: &mut HashMap<(u16, u32, u64), usize>,
    high_water: &mut HashMap<u16, (u32, u64)>,
    journal: &mut dyn Journal,
) -> Plan {
    let body = match s.record.encode() {
        Ok(b) => b,
        Err(e) => {
            return Plan::Reject(ErrorReply {
                code: ErrorCode::Internal,
                message: e.to_string(),
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
                    // A resend: the same bytes stored before (or earlier in this batch)?
                    if let Some(&i) = in_batch.get(&k) {
                        return if entries[i].body == body {
                            Plan::Duplicate {
                                table: env.table,
                                epoch: env.epoch,
                            }
                        } else {
                            Plan::Reject(conflict(
                                &s.record,
                                "same key sent with different content",
                            ))
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
                        Ok(Some(_)) => Plan::Reject(conflict(&s.record, "same key stored with different content")),
                        Ok(None) => Plan::Reject(conflict(
                            &s.record,
                            &format!("seq {} of epoch {} is behind the table's high-water mark {e}/{q} and was never stored", env.seq, env.epoch),
                        )),
                        Err(err) => Plan::Reject(ErrorReply {
                            code: ErrorCode::Unavailable,
                            message: err.to_string(),
                            re: None,
                        }),
                    };
                }
                let expected = if env.epoch == e { q + 1 } else { 1 };
                return Plan::Reject(conflict(
                    &s.record,
                    &format!(
                        "out of order: table {} epoch {} expects seq {expected}, got {}",
                        env.table, env.epoch, env.seq
                    ),
                ));
            }
            high_water.insert(env.table, (env.epoch, env.seq));
            in_batch.insert(k, entries.len());
            Some(k)
        }
        _ => None,
    };
    let audit = match &s.record {
        Record::Event(_) => None,
        Record::Command { author, command } => Some(AuditMeta {
            who: author.who(),
            action: crate::command::describe(command),
            table: command.table(),
            refused: None,
        }),
        Record::Refused {
            who,
            what,
            table,
            why,
        } => Some(AuditMeta {
            who: who.clone(),
            action: what.clone(),
            table: *table,
            refused: Some(why.clone()),
        }),
        Record::Note(_) => Some(AuditMeta {
            who: "server".into(),
            action: "note".into(),
            table: s.record.table(),
            refused: None,
        }),
    };
    entries.push(Entry {
        at_ms: s.at_ms,
        key,
        body,
        audit,
    });
    Plan::Store(entries.len() - 1)
}
