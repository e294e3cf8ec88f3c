//! A player at the board (到场): an arrival reported by the terminal, and
//! any report a side makes, show the side is there (the no-show rule,
//! AXF-FORFEIT-1, and a late resumption, AXF-REF-L, look at this). A side
//! that presses its clock or moves lapses an open no-show claim against it.

use proto::{ClaimKind, Side, TableEvent, Verdict};

use super::TableState;
use crate::book::Book;

/// Notes the side that made the report (any event) as at the board; a
/// press or a move lapses the no-show claim against the mover.
pub(super) fn heard(t: &mut TableState, ev: &TableEvent, now: u64, book: &mut Book) {
    if let Some(by) = reported_by(ev) {
        t.seen(by, now);
    }
    if let TableEvent::ClockPress { by, .. } | TableEvent::Move { by, .. } = ev {
        let by = *by;
        book.lapse(
            t.table,
            |c| c.kind == ClaimKind::NoShow && c.recommended.verdict == Verdict::Loss { side: by },
            || crate::audit::lapse::moved(by),
            now,
        );
    }
}

/// `Arrived`: the side is seated.
pub(super) fn arrived(t: &mut TableState, side: Side) {
    t.arrived[side] = true;
}

/// The side that made a report, which shows it is at the board.
fn reported_by(ev: &TableEvent) -> Option<Side> {
    match ev {
        TableEvent::Arrived { side } => Some(*side),
        TableEvent::ClockPress { by, .. }
        | TableEvent::Move { by, .. }
        | TableEvent::ClaimNaturalLimit { by }
        | TableEvent::ClaimRepetition { by }
        | TableEvent::DrawOffer { by }
        | TableEvent::DrawAccept { by }
        | TableEvent::DrawDecline { by }
        | TableEvent::Resign { by, .. }
        | TableEvent::CallArbiter { by, .. } => Some(*by),
        TableEvent::ClockStarted { .. }
        | TableEvent::FoulReport { .. }
        | TableEvent::FlagFell { .. }
        | TableEvent::Result { .. }
        | TableEvent::ControlApplied { .. } => None,
    }
}
