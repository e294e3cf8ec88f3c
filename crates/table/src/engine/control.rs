//! The server's controls (pause, resume, adjust, seal, unseal, set result,
//! take back, move limit, order, a decided claim), carried out by the
//! terminal and acknowledged with `ControlApplied` and the times it then
//! shows.

use super::{Engine, EngineError, Status};
use proto::convert::{color, game_move, side};
use proto::{ControlToTable, EventEnvelope, IccsMove, TableEvent};
use rulebook::ClockEvent;
use xiangqi::Color;

impl Engine {
    /// Carries out control `id` at terminal time `now` and reports
    /// `ControlApplied`. A control already carried out (resent by the
    /// server) is only acknowledged again.
    pub fn control(
        &mut self,
        id: u64,
        control: &ControlToTable,
        now: u64,
    ) -> Result<Vec<EventEnvelope>, EngineError> {
        self.last_mono = self.last_mono.max(now);
        let mut out = Vec::new();
        if let Some(ev) = self.tick(now)? {
            out.push(ev);
        }
        if self.applied_controls.insert(id) {
            self.outbox.note_control(id, control)?;
            self.apply_control(control, now);
        }
        let v = self.clock.view_at(now);
        out.push(self.emit(TableEvent::ControlApplied {
            control_id: id,
            red_ms: v.sides[0].remaining_ms,
            black_ms: v.sides[1].remaining_ms,
            running: v.running.map(side),
            terminal_mono_ms: now,
        })?);
        Ok(out)
    }

    /// The state change of a control (also used when rebuilding).
    /// The control's words (`control-*`, in the screen's two languages)
    /// are the status line's note; the arbiter's reason stays verbatim.
    pub(super) fn apply_control(&mut self, control: &ControlToTable, now: u64) {
        // A decided claim's words come last: the ruling's own controls
        // (result, order, clock) came first.
        self.message = i18n::replies::control(control).into();
        match control {
            ControlToTable::Pause { by, reason } => {
                self.stop_clock(now);
                if !self.is_over() {
                    self.status = Status::Paused {
                        by: by.clone(),
                        reason: reason.clone(),
                    };
                }
            }
            ControlToTable::Resume { .. } => {
                self.resume(now);
            }
            ControlToTable::Adjust {
                red_ms, black_ms, ..
            } => {
                self.set_times(*red_ms, *black_ms, now);
            }
            ControlToTable::Seal { by } => {
                self.stop_clock(now);
                if !self.is_over() {
                    self.status = Status::Sealed { by: by.clone() };
                }
            }
            ControlToTable::Unseal {
                by,
                sealed_move,
                red_ms,
                black_ms,
            } => {
                self.unseal(by, *sealed_move, *red_ms, *black_ms, now);
            }
            ControlToTable::SetResult {
                by,
                result,
                why,
                reason,
            } => {
                self.finish(*result, *why, reason.clone(), Some(by.clone()), now);
            }
            ControlToTable::Order { text, .. } => {
                // Shown to both players until the next move, in the
                // terminal's two languages.
                self.order = Some(text.clone());
            }
            ControlToTable::TakeBack { .. } => {
                self.take_back(now);
            }
            // Its words are the note (above), the last on the terminal.
            ControlToTable::ClaimDecided { .. } => {}
            ControlToTable::MoveLimit { limit, .. } => {
                self.move_limit = *limit;
            }
        }
    }

    /// Unseals: the sealed move is played if it is legal here (else the
    /// arbiter decides), the clocks set and running again.
    fn unseal(&mut self, by: &str, sealed_move: IccsMove, red_ms: u64, black_ms: u64, now: u64) {
        let mover = self.board.turn();
        match game_move(sealed_move) {
            Some(m) if self.board.position().is_legal(m) => {
                let _ = self.board.play(m);
                if self.clock.is_paused() {
                    let _ = self.clock.apply(ClockEvent::Resume { at_ms: now });
                }
                let _ = self.clock.apply(ClockEvent::Press {
                    side: mover,
                    at_ms: now,
                });
            }
            _ => {
                if self.clock.is_paused() {
                    let _ = self.clock.apply(ClockEvent::Resume { at_ms: now });
                }
                self.message = i18n::replies::unsealed_illegal(by, &sealed_move.to_string()).into();
            }
        }
        self.set_times(red_ms, black_ms, now);
        if !self.is_over() {
            self.status = Status::Running;
        }
    }

    /// Takes the last move back (or forgets a sensor move the board never
    /// played): the mover's clock runs again with the times as they are.
    fn take_back(&mut self, now: u64) {
        if self.sensor_pending {
            // The wrong move never reached this board.
            self.sensor_pending = false;
        } else if self.board.take_back().is_some() {
            // The mover's clock runs again with the times as they are.
            let v = self.clock.view_at(now);
            let (r, b) = (v.sides[0].remaining_ms, v.sides[1].remaining_ms);
            let opponent = self.board.turn().other();
            if self.clock.running() == Some(opponent) {
                let _ = self.clock.apply(ClockEvent::Press {
                    side: opponent,
                    at_ms: now,
                });
                for c in [Color::Red, Color::Black] {
                    let _ = self.clock.apply(ClockEvent::AdjustMoves {
                        side: c,
                        delta: -1,
                        at_ms: now,
                    });
                }
                self.set_times(r, b, now);
            }
        }
    }

    fn resume(&mut self, now: u64) {
        if self.is_over() {
            return;
        }
        if self.clock.is_paused() {
            let _ = self.clock.apply(ClockEvent::Resume { at_ms: now });
        }
        self.status = if self.started {
            Status::Running
        } else {
            Status::Waiting
        };
    }

    fn set_times(&mut self, red_ms: u64, black_ms: u64, now: u64) {
        for (c, ms) in [(Color::Red, red_ms), (Color::Black, black_ms)] {
            let _ = self.clock.apply(ClockEvent::SetRemaining {
                side: c,
                remaining_ms: ms,
                at_ms: now,
            });
        }
        if let Some(f) = self.clock.flag() {
            if !self.is_over() {
                self.status = Status::Flagged { side: side(f.side) };
            }
        } else if matches!(self.status, Status::Flagged { .. }) {
            // Time given back to a flagged side: the clock stays stopped.
            self.status = Status::Paused {
                by: "arbiter".into(),
                reason: "time adjusted after a flag fall".into(),
            };
        }
        let _ = color;
    }
}
