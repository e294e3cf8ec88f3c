//! What one batch transaction writes, decided before it is sent (pure, so
//! that a batch whose commit is in doubt after a lost connection can be
//! resolved: the writer compares the hall's counter with the plan's).
//!
//! Outcomes follow the SQLite writer's rules: an event above its
//! `(table, epoch)` high-water mark is new; one at or below it was looked
//! up in the database first (Duplicate or Conflict by content hash, or new
//! if that key was never stored); a key repeated inside the batch answers
//! from the batch itself. `gseq` values are taken in request order from the
//! hall's counter.
//!
//! New events are gathered per `(table, epoch)` into one batch row each
//! (schema 5, `batches.rs`, the body of `crate::batch`), begun in the order
//! of their first events; the rows are deterministic in the batch, so the
//! plan made again after a commit in doubt writes and answers the same.

use std::collections::HashMap;

use crate::batch::RowBuilder;
use crate::writer::{known, to_i64, Answer, Request};
use crate::{AppendOutcome, AuditOutcome, EventKey, Snapshot};

/// A stored key's `(gseq, payload_hash)`.
pub type Existing = HashMap<EventKey, (i64, Vec<u8>)>;

/// Column arrays of the new audit rows.
#[derive(Debug, Default)]
pub struct AuditRows {
    pub id: Vec<i64>,
    pub who: Vec<String>,
    pub action: Vec<String>,
    pub table: Vec<Option<i64>>,
    pub payload: Vec<Vec<u8>>,
    pub at: Vec<i64>,
    pub outcome: Vec<&'static str>,
    pub why: Vec<Option<String>>,
    pub action_msg: Vec<Option<Vec<u8>>>,
    pub why_msg: Vec<Option<Vec<u8>>>,
}

/// One batch's writes and answers.
#[derive(Default)]
pub struct Plan {
    pub answers: Vec<Answer>,
    /// The batch rows of the new events, one per `(table, epoch)`.
    pub rows: Vec<RowBuilder>,
    /// The batch's first gseq (`event_batches.commit_gseq`).
    pub commit_gseq: u64,
    pub audits: AuditRows,
    pub snapshots: Vec<Snapshot>,
    /// The hall's counter after the batch.
    pub next_gseq: u64,
    /// New high-water marks.
    pub high_water: Vec<((u32, u32), u64)>,
}

/// The keys of `batch` that must be looked up first (at or below their
/// high-water mark), without repeats.
pub fn probes(batch: &[Request], high_water: &HashMap<(u32, u32), u64>) -> Vec<EventKey> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for r in batch {
        if let Request::Append { events, .. } = r {
            for ev in events {
                let below = high_water
                    .get(&(ev.key.table, ev.key.epoch))
                    .is_some_and(|&hw| ev.key.seq <= hw);
                if below && seen.insert(ev.key) {
                    out.push(ev.key);
                }
            }
        }
    }
    out
}

/// Decides the batch: answers, rows, and the counter after it.
pub fn plan(
    batch: &[Request],
    next_gseq: u64,
    high_water: &HashMap<(u32, u32), u64>,
    existing: &Existing,
) -> Plan {
    let mut p = Plan {
        commit_gseq: next_gseq,
        ..Plan::default()
    };
    let mut row_of: HashMap<(u32, u32), usize> = HashMap::new();
    let mut gseq = next_gseq;
    let mut in_batch: HashMap<EventKey, (i64, Vec<u8>)> = HashMap::new();
    let mut marks: HashMap<(u32, u32), u64> = HashMap::new();
    for r in batch {
        match r {
            Request::Append { events, .. } => {
                let mut outcomes = Vec::with_capacity(events.len());
                for ev in events {
                    let hash = ev.content_hash();
                    if let Some((g, h)) = in_batch.get(&ev.key).or_else(|| existing.get(&ev.key)) {
                        outcomes.push(known(*g, h, &hash));
                        continue;
                    }
                    let g = to_i64(gseq);
                    let hw_key = (ev.key.table, ev.key.epoch);
                    let i = *row_of.entry(hw_key).or_insert_with(|| {
                        p.rows.push(RowBuilder::new(hw_key.0, hw_key.1, gseq));
                        p.rows.len() - 1
                    });
                    p.rows[i].push(gseq, ev.key.seq, &ev.kind, &ev.payload, ev.received_at_ms);
                    gseq += 1;
                    in_batch.insert(ev.key, (g, hash.to_vec()));
                    let old = high_water.get(&hw_key).copied().unwrap_or(0);
                    let m = marks.entry(hw_key).or_insert(old);
                    *m = (*m).max(ev.key.seq);
                    outcomes.push(AppendOutcome::Stored {
                        gseq: u64::try_from(g).unwrap_or(0),
                    });
                }
                p.answers.push(Answer::Append(outcomes));
            }
            Request::Audit { record, .. } => {
                let a = &mut p.audits;
                a.id.push(to_i64(gseq));
                a.who.push(record.who.clone());
                a.action.push(record.action.clone());
                a.table.push(record.table.map(i64::from));
                a.payload.push(record.payload.clone());
                a.at.push(record.at_ms);
                a.action_msg.push(record.action_msg.clone());
                a.why_msg.push(record.why_msg.clone());
                match &record.outcome {
                    AuditOutcome::Accepted => {
                        a.outcome.push("accepted");
                        a.why.push(None);
                    }
                    AuditOutcome::Refused { why } => {
                        a.outcome.push("refused");
                        a.why.push(Some(why.clone()));
                    }
                }
                p.answers.push(Answer::Audit(gseq));
                gseq += 1;
            }
            Request::Snapshot { snapshot, .. } => {
                p.snapshots.push(snapshot.clone());
                p.answers.push(Answer::Snapshot);
            }
        }
    }
    p.next_gseq = gseq;
    p.high_water = marks.into_iter().collect();
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NewEvent;

    fn append(keys: &[(u32, u32, u64, &[u8])]) -> Request {
        let (reply, _rx) = tokio::sync::oneshot::channel();
        Request::Append {
            events: keys
                .iter()
                .map(|&(table, epoch, seq, p)| NewEvent {
                    key: EventKey { table, epoch, seq },
                    kind: "k".into(),
                    payload: p.to_vec(),
                    received_at_ms: 0,
                })
                .collect(),
            reply,
        }
    }

    #[test]
    fn probes_only_keys_at_or_below_their_mark_once() {
        let hw = HashMap::from([((1, 1), 5)]);
        let batch = [append(&[
            (1, 1, 5, b"a"),
            (1, 1, 6, b"a"),
            (1, 1, 5, b"b"),
            (2, 1, 1, b"a"),
        ])];
        assert_eq!(
            probes(&batch, &hw),
            [EventKey {
                table: 1,
                epoch: 1,
                seq: 5
            }]
        );
    }

    #[test]
    fn plan_numbers_new_rows_and_answers_repeats_from_the_batch_and_the_lookups() {
        let hw = HashMap::from([((1, 1), 5)]);
        let stored = EventKey {
            table: 1,
            epoch: 1,
            seq: 4,
        };
        let existing = Existing::from([(stored, (3, crate::content_hash("k", b"old").to_vec()))]);
        let batch = [append(&[
            (1, 1, 4, b"old"),
            (1, 1, 4, b"new"),
            (1, 1, 2, b"gap"),
            (1, 1, 9, b"x"),
            (1, 1, 9, b"x"),
        ])];
        let p = plan(&batch, 10, &hw, &existing);
        let Answer::Append(out) = &p.answers[0] else {
            panic!("not an append answer");
        };
        assert_eq!(out[0], AppendOutcome::Duplicate { gseq: 3 });
        assert!(matches!(out[1], AppendOutcome::Conflict { gseq: 3, .. }));
        assert_eq!(out[2], AppendOutcome::Stored { gseq: 10 });
        assert_eq!(out[3], AppendOutcome::Stored { gseq: 11 });
        assert_eq!(out[4], AppendOutcome::Duplicate { gseq: 11 });
        assert_eq!(p.next_gseq, 12);
        assert_eq!(p.rows.len(), 1);
        assert_eq!(p.commit_gseq, 10);
        let row = &p.rows[0];
        assert_eq!((row.first_gseq, row.last_gseq), (10, 11));
        assert_eq!((row.first_seq, row.last_seq), (2, 9));
        assert_eq!(
            row.events
                .iter()
                .map(|w| (w.gseq, w.seq))
                .collect::<Vec<_>>(),
            [(10, 2), (11, 9)]
        );
        assert_eq!(p.high_water, [((1, 1), 9)]);
    }
}
