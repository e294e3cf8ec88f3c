//! Rebuilding a restarted terminal from its outbox: the board from the
//! moves it reported, the clock from the times it reported, the controls it
//! carried out. The clock comes back paused ("terminal restarted"): the
//! terminal's monotonic time does not survive a restart, so the arbiter (or
//! the operator) resumes it.

use super::{Engine, Status};
use crate::outbox::Entry;
use proto::convert::{color, game_move};
use proto::TableEvent;
use rulebook::ClockEvent;
use xiangqi::Color;

pub(super) fn from_history(e: &mut Engine) {
    let history: Vec<Entry> = e.outbox.history().to_vec();
    if history.is_empty() {
        return;
    }
    let mut at = 0u64;
    for entry in &history {
        match entry {
            Entry::Event(env) => {
                at = at.max(mono_of(&env.body).unwrap_or(at));
                replay_event(e, &env.body, at);
            }
            Entry::Control { id, control } => {
                e.applied_controls.insert(*id);
                e.apply_control(control, at);
            }
        }
    }
    e.last_mono = at;
    if matches!(e.status, Status::Running) {
        e.stop_clock(at);
        e.status = Status::Paused {
            by: "terminal".into(),
            reason: "terminal restarted: call the arbiter to resume".into(),
        };
    }
    e.message = (format!(
        "restored {} events from the outbox ({} not yet acknowledged)",
        e.outbox.last_seq(),
        e.outbox.waiting()
    ))
    .into();
}

fn mono_of(ev: &TableEvent) -> Option<u64> {
    match ev {
        TableEvent::ClockStarted {
            terminal_mono_ms, ..
        }
        | TableEvent::ClockPress {
            terminal_mono_ms, ..
        }
        | TableEvent::FlagFell {
            terminal_mono_ms, ..
        }
        | TableEvent::ControlApplied {
            terminal_mono_ms, ..
        } => Some(*terminal_mono_ms),
        _ => None,
    }
}

fn replay_event(e: &mut Engine, ev: &TableEvent, at: u64) {
    match ev {
        TableEvent::ClockStarted {
            red_ms, black_ms, ..
        } => {
            let first = e.board.turn();
            let _ = e.clock.apply(ClockEvent::Start { at_ms: at, first });
            e.started = true;
            set(e, *red_ms, *black_ms, at);
            if matches!(e.status, Status::Waiting) {
                e.status = Status::Running;
            }
        }
        TableEvent::ClockPress {
            by,
            mv,
            red_ms,
            black_ms,
            ..
        } => {
            let _ = e.clock.apply(ClockEvent::Press {
                side: color(*by),
                at_ms: at,
            });
            if let Some(m) = mv.and_then(game_move) {
                let _ = e.board.play(m);
            }
            e.sensor_pending = false;
            set(e, *red_ms, *black_ms, at);
        }
        TableEvent::Move { .. } => e.sensor_pending = true,
        TableEvent::FlagFell { side, .. } => {
            e.stop_clock(at);
            e.status = Status::Flagged { side: *side };
        }
        TableEvent::DrawOffer { by } => e.draw_offer = Some(*by),
        TableEvent::DrawDecline { .. } => e.draw_offer = None,
        TableEvent::DrawAccept { .. } => {
            e.finish(
                proto::GameResult::Draw,
                proto::EndReason::Agreement,
                String::new(),
                None,
                at,
            );
        }
        TableEvent::Resign { by, reason } => {
            e.finish(
                proto::GameResult::win_for(by.other()),
                proto::EndReason::Resignation,
                reason.clone(),
                None,
                at,
            );
        }
        TableEvent::Result {
            result,
            why,
            reason,
        } => {
            // The terminal's own word for a mate is its end reason's.
            let own = super::screen::own_words(*why) == Some(reason.as_str());
            let words = if own { String::new() } else { reason.clone() };
            e.finish(*result, *why, words, None, at);
        }
        TableEvent::ControlApplied {
            red_ms, black_ms, ..
        } if e.started && !e.is_over() => set(e, *red_ms, *black_ms, at),
        _ => {}
    }
}

fn set(e: &mut Engine, red_ms: u64, black_ms: u64, at: u64) {
    for (c, ms) in [(Color::Red, red_ms), (Color::Black, black_ms)] {
        let _ = e.clock.apply(ClockEvent::SetRemaining {
            side: c,
            remaining_ms: ms,
            at_ms: at,
        });
    }
}
