//! Joining a game in progress (接续): a terminal whose outbox holds nothing
//! the server lacks, facing a server whose record of the table is ahead of
//! it (a spare laptop replacing a broken one, a terminal restarted without
//! its outbox), takes the game from the server's record (`HelloOk.table`):
//! the moves, both clocks (the running side's time as the server
//! extrapolates it at the hello), who is to move, the pause or seal, the
//! declared move limit (the controls not yet confirmed come after the
//! hello, as to any terminal). It then shows the game paused and asking
//! for the arbiter, exactly like a restarted terminal: the arbiter resumes
//! it, and play goes on from the server's ply with the server's times.

use super::{Engine, Status};
use proto::convert::game_move;
use proto::{TableSession, TableStatus};
use rulebook::{Clock, ClockEvent};
use xiangqi::Color;

use crate::game::Board;

impl Engine {
    /// Takes the server's record of the table when it is ahead of this
    /// terminal and nothing of this terminal's waits to be sent; returns
    /// whether it did. `now` is the terminal's time.
    pub fn join(&mut self, session: &TableSession, now: u64) -> bool {
        let begun = !session.moves.is_empty()
            || matches!(
                session.status,
                TableStatus::Playing | TableStatus::Sealed { .. } | TableStatus::Finished { .. }
            );
        let behind = session.moves.len() > self.board.moves().len()
            || (begun && !self.started && !self.is_over());
        if !begun || !behind || self.outbox.waiting() > 0 {
            return false;
        }
        let mut board = Board::default();
        for (ply, m) in session.moves.iter().enumerate() {
            let played = game_move(*m).is_some_and(|mv| board.play(mv).is_ok());
            if !played {
                tracing::error!(ply, mv = %m, "the server's record has a move this board refuses");
                self.message = (format!(
                    "the server's record of this table has a move this terminal refuses ({m} at ply {}): call the arbiter",
                    ply + 1
                )).into();
                return false;
            }
        }
        let plies = board.moves().len();
        let mut clock = Clock::new(self.info.control.clone());
        let _ = clock.apply(ClockEvent::Start {
            at_ms: now,
            first: board.turn(),
        });
        let each = [(Color::Red, plies.div_ceil(2)), (Color::Black, plies / 2)];
        for (side, n) in each {
            if let Ok(delta) = i32::try_from(n) {
                let _ = clock.apply(ClockEvent::AdjustMoves {
                    side,
                    delta,
                    at_ms: now,
                });
            }
        }
        for (side, ms) in [
            (Color::Red, session.clock.red_ms),
            (Color::Black, session.clock.black_ms),
        ] {
            let _ = clock.apply(ClockEvent::SetRemaining {
                side,
                remaining_ms: ms,
                at_ms: now,
            });
        }
        let _ = clock.apply(ClockEvent::Pause { at_ms: now });
        self.board = board;
        self.clock = clock;
        self.started = true;
        self.entered = None;
        self.draw_offer = None;
        self.sensor_pending = false;
        self.order = None;
        self.move_limit = session.move_limit;
        self.last_mono = self.last_mono.max(now);
        self.status = match &session.status {
            TableStatus::Paused(p) => Status::Paused {
                by: p.by.clone(),
                reason: p.reason.clone(),
            },
            TableStatus::Sealed { by, .. } => Status::Sealed { by: by.clone() },
            TableStatus::Finished {
                result,
                why,
                reason,
            } => Status::Finished {
                result: *result,
                why: *why,
                reason: reason.clone(),
                by: None,
            },
            TableStatus::Waiting | TableStatus::Playing => Status::Paused {
                by: "terminal".into(),
                reason: format!(
                    "this terminal joined the game at ply {plies}: call the arbiter to resume"
                ),
            },
        };
        self.message =
            format!("joined the game in progress from the server's record (ply {plies})").into();
        true
    }
}
