//! What a viewer connection is sent (公开显示): the hall's public screen —
//! boards, clocks, results — and nothing of the arbiters' work. Every reply
//! a viewer gets passes through here: its snapshots (on subscribe and when
//! it fell behind), its deltas, and the table logs it asks for.
//!
//! Kept: the tournament and round, each table's players, clocks, moves,
//! board, plies and checks, the declared move limit, whether the table is
//! playing, paused, sealed or finished, and a result with its typed reason
//! (`EndReason`). Taken out: alerts, claims and rulings, the audit trail,
//! fouls, the order at a repetition, the count of pending claims, who
//! paused, sealed or set a result and the words given with it (an
//! arbiter's name, a reason, a deputy's escalation). A delta that is only
//! about those is not sent at all.

use std::sync::Arc;

use proto::{Delta, HallView, PauseInfo, TableLog, TableStatus, TableStep, TableView};

/// A pause as the public sees it: paused, without who or why.
fn pause() -> PauseInfo {
    PauseInfo {
        by: String::new(),
        reason: String::new(),
    }
}

/// A table's status without names or words.
fn status(s: TableStatus) -> TableStatus {
    match s {
        TableStatus::Waiting | TableStatus::Playing => s,
        TableStatus::Paused(_) => TableStatus::Paused(pause()),
        TableStatus::Sealed { at_ms, .. } => TableStatus::Sealed {
            by: String::new(),
            at_ms,
        },
        TableStatus::Finished { result, why, .. } => TableStatus::Finished {
            result,
            why,
            reason: String::new(),
        },
    }
}

/// One table as the public screen may show it.
pub fn table(t: TableView) -> TableView {
    TableView {
        fouls_red: Default::default(),
        fouls_black: Default::default(),
        pending_claims: 0,
        order: None,
        status: status(t.status.clone()),
        ..t
    }
}

/// A table's step as the public screen may see it (the same fields
/// taken out as of a whole view; a step has no order).
pub fn step(s: TableStep) -> TableStep {
    TableStep {
        fouls_red: Default::default(),
        fouls_black: Default::default(),
        pending_claims: 0,
        status: status(s.status.clone()),
        ..s
    }
}

/// The hall as the public screen may show it.
pub fn snapshot(v: HallView) -> HallView {
    HallView {
        paused: v.paused.map(|_| pause()),
        tables: v.tables.into_iter().map(table).collect(),
        alerts: Vec::new(),
        claims: Vec::new(),
        audit: Vec::new(),
        ..v
    }
}

/// A delta as the public screen may see it; `None`: not for the public.
pub fn delta(d: &Delta) -> Option<Delta> {
    match d {
        Delta::Table(t) => Some(Delta::Table(Arc::new(table(TableView::clone(t))))),
        Delta::TableStep(s) => Some(Delta::TableStep(step(s.clone()))),
        Delta::HallPaused(p) => Some(Delta::HallPaused(p.as_ref().map(|_| pause()))),
        Delta::Alert(_) | Delta::AlertAcked { .. } | Delta::Claim(_) | Delta::Audit(_) => None,
    }
}

/// A table's log as the public may read it: the clock history (the moves
/// and the result are in the table's view); not the audit trail.
pub fn table_log(log: TableLog) -> TableLog {
    TableLog {
        audit: Vec::new(),
        ..log
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proto::{EndReason, GameResult};

    #[test]
    fn statuses_keep_the_state_and_the_typed_reason_only() {
        let paused = TableStatus::Paused(PauseInfo {
            by: "deputy 李四".into(),
            reason: "noise".into(),
        });
        assert_eq!(status(paused), TableStatus::Paused(pause()));
        let finished = TableStatus::Finished {
            result: GameResult::RedWins,
            why: EndReason::Arbiter,
            reason: "Black loses by ruling on claim 3".into(),
        };
        assert_eq!(
            status(finished),
            TableStatus::Finished {
                result: GameResult::RedWins,
                why: EndReason::Arbiter,
                reason: String::new(),
            }
        );
        let sealed = TableStatus::Sealed {
            by: "chief".into(),
            at_ms: 5,
        };
        assert_eq!(
            status(sealed),
            TableStatus::Sealed {
                by: String::new(),
                at_ms: 5
            }
        );
    }
}
