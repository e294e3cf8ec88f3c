//! Draw offers (求和, AXF-G4): an offer stands until the other side
//! accepts it (the game is drawn), declines it, or answers it with a move
//! (`clock::press`). An answer with no offer of the other side standing is
//! ignored.

use proto::{EndReason, GameResult, Side, TableEvent};

use super::{Heed, Ignored, TableState};
use crate::book::Book;

/// An accept or a decline needs the other side's offer standing.
pub(super) fn check(t: &TableState, ev: &TableEvent) -> Heed {
    match ev {
        TableEvent::DrawAccept { by } | TableEvent::DrawDecline { by }
            if t.draw_offer != Some(by.other()) =>
        {
            Heed::Ignored(Ignored::NoOffer)
        }
        _ => Heed::Applies,
    }
}

/// `DrawOffer`: the offer stands.
pub(super) fn offer(t: &mut TableState, by: Side) {
    t.draw_offer = Some(by);
}

/// `DrawAccept` of a standing offer: the game is drawn by agreement.
pub(super) fn accept(t: &mut TableState, _by: Side, now: u64, book: &mut Book) {
    t.draw_offer = None;
    t.finish(
        GameResult::Draw,
        EndReason::Agreement,
        "draw agreed (AXF-G4)",
        now,
        book,
    );
}

/// `DrawDecline` of a standing offer: it goes.
pub(super) fn decline(t: &mut TableState, _by: Side) {
    t.draw_offer = None;
}

/// A move by `by` answers the other side's standing offer: refused.
pub(super) fn answered_by_move(t: &mut TableState, by: Side) {
    if t.draw_offer == Some(by.other()) {
        t.draw_offer = None;
    }
}
