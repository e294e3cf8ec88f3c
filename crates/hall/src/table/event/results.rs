//! The end of a game (对局结束): a resignation or a result reported by the
//! terminal (mate and stalemate are the board's to say, not the report's),
//! and [`TableState::finish`], which the draw agreement and the arbiters'
//! commands reach too: the clock stops, the open claims of the table lapse,
//! an alert says the result.

use proto::{AlertKind, EndReason, GameResult, Side, TableStatus};

use super::TableState;
use crate::alerts::NewAlert;
use crate::book::Book;

/// `Resign`: the other side wins.
pub(super) fn resign(t: &mut TableState, by: Side, reason: &str, now: u64, book: &mut Book) {
    let why = format!("{} resigned: {reason}", by.name_en());
    t.finish(
        GameResult::win_for(by.other()),
        EndReason::Resignation,
        &why,
        now,
        book,
    );
}

/// `Result`: the reported result, its reason checked against the board.
pub(super) fn reported(
    t: &mut TableState,
    result: GameResult,
    why: EndReason,
    reason: &str,
    now: u64,
    book: &mut Book,
) {
    // Mate and stalemate are the board's to say, not the report's.
    let why = t.board_end().unwrap_or(match why {
        EndReason::Checkmate | EndReason::Stalemate => EndReason::Reported,
        other => other,
    });
    t.finish(result, why, reason, now, book);
}

impl TableState {
    /// Mate or stalemate on the board, if the game stands there.
    pub fn board_end(&self) -> Option<EndReason> {
        self.board
            .position
            .outcome()
            .map(|xiangqi::Outcome::Win { reason, .. }| match reason {
                xiangqi::EndReason::Checkmate => EndReason::Checkmate,
                xiangqi::EndReason::Stalemate => EndReason::Stalemate,
            })
    }

    /// Ends the game, `why` typed and `reason` in words.
    pub fn finish(
        &mut self,
        result: GameResult,
        why: EndReason,
        reason: &str,
        now: u64,
        book: &mut Book,
    ) {
        let t = self.table;
        self.status = TableStatus::Finished {
            result,
            why,
            reason: reason.to_string(),
        };
        self.sealed = None;
        self.pause_left();
        self.clock.running = None;
        self.sample_clock(now);
        book.lapse(t, |_| true, || crate::audit::lapse::game_ended(why), now);
        book.alert(
            NewAlert::new(
                t,
                AlertKind::GameOver,
                i18n::texts::game_over(t, result, why, reason),
                &[],
            ),
            now,
        );
    }
}
