//! The terminal engine (台端核心): the clock of record, the board, move
//! entry, claims and offers, the server's controls, and the outbox — with no
//! I/O of its own besides the outbox file and no reading of time.
//!
//! Every method takes the terminal's monotonic time in ms (`now`), so the
//! same engine runs under a real clock (the TUI), a scaled clock (the
//! replayer) or a test's hand-set clock. Every event it reports goes through
//! the [`Outbox`] (stored first), and the network side ([`crate::link`])
//! sends whatever the outbox holds beyond what was sent. The TUI, the
//! replayer, the load tests and the end-to-end tests all drive this one
//! engine (the TUI through [`crate::terminal`]).

mod action;
mod control;
mod join;
mod note;
mod rebuild;
mod round;
mod screen;

pub use action::Action;
pub use note::Note;
pub use screen::{Screen, Status};

use crate::game::Board;
use crate::outbox::{Outbox, OutboxError};
use proto::convert::{side, wire_move};
use proto::{EventEnvelope, GameResult, Side, TableEvent, TableSession};
use rulebook::{Clock, ClockEvent, TimeControl};
use std::collections::HashSet;
use xiangqi::{EndReason, Move};

/// Why an action was refused (nothing was reported).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the clock has not been started")]
    NotStarted,
    #[error("the clock was already started")]
    AlreadyStarted,
    #[error("paused by {by}: {reason}")]
    Paused { by: String, reason: String },
    #[error("the game is adjourned (sealed by {by})")]
    Sealed { by: String },
    #[error("the game is over: {0}")]
    GameOver(String),
    #[error("{0}'s flag has fallen")]
    FlagFell(&'static str),
    #[error("enter a move before pressing the clock")]
    NoMoveEntered,
    #[error("illegal or unreadable move: {0}")]
    BadMove(String),
    #[error("no draw offer from {0} to answer")]
    NoOffer(&'static str),
    /// The outbox could not store the event: it was NOT reported.
    #[error(transparent)]
    Outbox(#[from] OutboxError),
    /// The server's record is newer than this terminal's (another terminal
    /// took over the table).
    #[error("the server holds epoch {server} for this table, newer than this terminal's {ours}")]
    Superseded { server: u32, ours: u32 },
}

/// Static facts of the table.
#[derive(Debug, Clone)]
pub struct TableInfo {
    pub table: u16,
    pub red: String,
    pub black: String,
    pub control: TimeControl,
    /// The hall's round this pairing belongs to (`HallInfo::round`).
    pub round: u32,
}

/// The terminal engine of one table.
#[derive(Debug)]
pub struct Engine {
    info: TableInfo,
    clock: Clock,
    started: bool,
    board: Board,
    status: Status,
    entered: Option<(Move, String)>,
    outbox: Outbox,
    draw_offer: Option<Side>,
    applied_controls: HashSet<u64>,
    /// A move reported unchecked (sensor path) that the server has not
    /// seen corrected yet.
    sensor_pending: bool,
    online: bool,
    message: Note,
    last_mono: u64,
    /// The declared move limit 限著 (ROC), as the arbiter last set it.
    move_limit: Option<proto::MoveLimit>,
    /// The arbiter's order at a repetition, shown until the next move.
    order: Option<proto::Message>,
    /// Why the terminal stopped connecting (a permanent refusal, or
    /// another terminal took the table over).
    link_stopped: Option<String>,
}

impl Engine {
    /// An engine for `info`, rebuilt from the outbox's history when it has one.
    pub fn new(info: TableInfo, outbox: Outbox) -> Engine {
        let mut e = Engine {
            clock: Clock::new(info.control.clone()),
            info,
            started: false,
            board: Board::default(),
            status: Status::Waiting,
            entered: None,
            outbox,
            draw_offer: None,
            applied_controls: HashSet::new(),
            sensor_pending: false,
            online: false,
            message: Note::None,
            last_mono: 0,
            move_limit: None,
            order: None,
            link_stopped: None,
        };
        rebuild::from_history(&mut e);
        e
    }

    pub fn info(&self) -> &TableInfo {
        &self.info
    }

    /// Sets the terminal's notation setting (how typed moves are read and
    /// moves are shown; the Vietnamese mode reads `P2-5`).
    pub fn set_notation(&mut self, n: crate::game::Notation) {
        self.board.set_notation(n);
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    pub fn outbox(&self) -> &Outbox {
        &self.outbox
    }

    /// The latest terminal time the engine has seen (a restarted terminal
    /// continues its monotonic time from here so it never goes back).
    pub fn last_mono(&self) -> u64 {
        self.last_mono
    }

    /// Is the game over (result, flag)?
    pub fn is_over(&self) -> bool {
        matches!(
            self.status,
            Status::Finished { .. } | Status::Flagged { .. }
        )
    }

    fn times(&self, now: u64) -> (u64, u64) {
        let v = self.clock.view_at(now);
        (v.sides[0].remaining_ms, v.sides[1].remaining_ms)
    }

    fn emit(&mut self, body: TableEvent) -> Result<EventEnvelope, EngineError> {
        Ok(self.outbox.append(body)?)
    }

    fn check_playing(&self) -> Result<(), EngineError> {
        match &self.status {
            Status::Waiting => Err(EngineError::NotStarted),
            Status::Running => Ok(()),
            Status::Paused { by, reason } => Err(EngineError::Paused {
                by: by.clone(),
                reason: reason.clone(),
            }),
            Status::Sealed { by } => Err(EngineError::Sealed { by: by.clone() }),
            Status::Finished { .. } => Err(EngineError::GameOver(self.status.end_english())),
            Status::Flagged { side } => Err(EngineError::FlagFell(side.name_en())),
        }
    }

    fn check_not_over(&self) -> Result<(), EngineError> {
        match &self.status {
            Status::Finished { .. } => Err(EngineError::GameOver(self.status.end_english())),
            Status::Flagged { side } => Err(EngineError::FlagFell(side.name_en())),
            _ => Ok(()),
        }
    }

    fn stop_clock(&mut self, now: u64) {
        if self.clock.running().is_some() {
            let _ = self.clock.apply(ClockEvent::Pause { at_ms: now });
        }
    }

    /// Ends the game: `result` for `why`, with the words that came with
    /// it (`reason`, empty for none) and the arbiter who set it.
    fn finish(
        &mut self,
        result: GameResult,
        why: proto::EndReason,
        reason: String,
        by: Option<String>,
        now: u64,
    ) {
        self.stop_clock(now);
        self.entered = None;
        self.status = Status::Finished {
            result,
            why,
            reason,
            by,
        };
    }

    /// Checks for a fallen flag at `now`; reports it once.
    pub fn tick(&mut self, now: u64) -> Result<Option<EventEnvelope>, EngineError> {
        self.last_mono = self.last_mono.max(now);
        if !matches!(self.status, Status::Running) {
            return Ok(None);
        }
        let Some(flag) = self.clock.view_at(now).flag else {
            return Ok(None);
        };
        Ok(Some(self.flag_fell(flag, now)?))
    }

    fn flag_fell(&mut self, flag: rulebook::Flag, now: u64) -> Result<EventEnvelope, EngineError> {
        // Runs the clock to the flag (a press at that moment is too late).
        let _ = self.clock.apply(ClockEvent::Pause {
            at_ms: now.max(flag.at_ms),
        });
        let s = side(flag.side);
        let (red_ms, black_ms) = self.times(now.max(flag.at_ms));
        self.status = Status::Flagged { side: s };
        self.entered = None;
        self.message = format!("{}'s flag fell", s.name_en()).into();
        self.emit(TableEvent::FlagFell {
            side: s,
            red_ms,
            black_ms,
            terminal_mono_ms: now.max(flag.at_ms),
        })
    }

    /// Where to resend from after connecting: `HelloOk.table`. Marks what the
    /// server holds as acknowledged and returns the first seq to (re)send.
    pub fn on_session(&mut self, session: &TableSession) -> Result<u64, EngineError> {
        // The server's record of the declared limit is the one that holds.
        self.move_limit = session.move_limit;
        let ours = self.outbox.epoch();
        if session.epoch > ours {
            return Err(EngineError::Superseded {
                server: session.epoch,
                ours,
            });
        }
        if session.epoch == ours {
            self.outbox.mark_acked(session.high_water)?;
            Ok(session.high_water.min(self.outbox.last_seq()) + 1)
        } else {
            // The server never saw this epoch.
            Ok(1)
        }
    }

    /// The server stored everything up to `seq` of `epoch`.
    pub fn on_ack(&mut self, epoch: u32, seq: u64) -> Result<(), EngineError> {
        if epoch == self.outbox.epoch() {
            self.outbox.mark_acked(seq)?;
        }
        Ok(())
    }

    pub fn set_online(&mut self, online: bool) {
        self.online = online;
    }

    /// The terminal stopped connecting, and why (`None`: it connects).
    pub fn set_link_stopped(&mut self, why: Option<String>) {
        self.link_stopped = why;
    }

    /// A message for the status line (errors from the server, notes).
    pub fn set_message(&mut self, message: impl Into<Note>) {
        self.message = message.into();
    }

    /// Plays `m` for the side to move and presses its clock (the move was
    /// checked by the caller).
    fn press_with(&mut self, m: Move, now: u64) -> Result<Vec<EventEnvelope>, EngineError> {
        let mover = self.board.turn();
        match self.clock.apply(ClockEvent::Press {
            side: mover,
            at_ms: now,
        }) {
            Ok(Some(flag)) => return Ok(vec![self.flag_fell(flag, now)?]),
            Ok(None) => {}
            Err(e) => return Err(EngineError::BadMove(format!("clock: {e}"))),
        }
        self.board
            .play(m)
            .map_err(|e| EngineError::BadMove(e.to_string()))?;
        self.sensor_pending = false;
        self.entered = None;
        self.order = None;
        // A move made: the notices before it (a resume, an adjustment) are past.
        self.message = Note::None;
        if self.draw_offer == Some(side(mover).other()) {
            self.draw_offer = None;
        }
        let (red_ms, black_ms) = self.times(now);
        let mut out = vec![self.emit(TableEvent::ClockPress {
            by: side(mover),
            mv: Some(wire_move(m)),
            red_ms,
            black_ms,
            terminal_mono_ms: now,
        })?];
        if let Some(outcome) = self.board.outcome() {
            let why = match outcome {
                xiangqi::Outcome::Win {
                    reason: EndReason::Checkmate,
                    ..
                } => proto::EndReason::Checkmate,
                xiangqi::Outcome::Win {
                    reason: EndReason::Stalemate,
                    ..
                } => proto::EndReason::Stalemate,
            };
            let result = GameResult::win_for(side(outcome.winner()));
            self.finish(result, why, String::new(), None, now);
            // The server and the exports read the English word.
            let how = screen::own_words(why).unwrap_or_default();
            out.push(self.emit(TableEvent::Result {
                result,
                why,
                reason: how.to_string(),
            })?);
        }
        Ok(out)
    }

    /// Starts the clock (paused at once if the table was paused before).
    fn start_clock(&mut self, now: u64) -> Result<Vec<EventEnvelope>, EngineError> {
        if self.started {
            return Err(EngineError::AlreadyStarted);
        }
        self.check_not_over()?;
        let first = self.board.turn();
        self.clock
            .apply(ClockEvent::Start { at_ms: now, first })
            .map_err(|_| EngineError::AlreadyStarted)?;
        self.started = true;
        if matches!(self.status, Status::Waiting) {
            self.status = Status::Running;
        } else {
            // Paused before the start: the clock waits for the resume.
            let _ = self.clock.apply(ClockEvent::Pause { at_ms: now });
        }
        let (red_ms, black_ms) = self.times(now);
        Ok(vec![self.emit(TableEvent::ClockStarted {
            red_ms,
            black_ms,
            terminal_mono_ms: now,
        })?])
    }

    /// Enters a move to be played at the next press (nothing reported yet).
    fn enter_move(&mut self, text: String) -> Result<Vec<EventEnvelope>, EngineError> {
        self.check_not_over()?;
        let m = self
            .board
            .parse(&text)
            .map_err(|e| EngineError::BadMove(e.0))?;
        let shown = self.board.notation().text(self.board.position(), m);
        // The info line says "entered … press the clock" while it is
        // true; the status line keeps only what stays true.
        tracing::debug!(%m, %shown, "move entered");
        self.message = Note::None;
        self.entered = Some((m, text));
        Ok(Vec::new())
    }

    /// Accepts the opponent's draw offer: the game ends drawn.
    fn accept_draw(&mut self, by: Side, now: u64) -> Result<Vec<EventEnvelope>, EngineError> {
        self.check_not_over()?;
        if self.draw_offer != Some(by.other()) {
            return Err(EngineError::NoOffer(by.other().name_en()));
        }
        self.draw_offer = None;
        let ev = self.emit(TableEvent::DrawAccept { by })?;
        self.finish(
            GameResult::Draw,
            proto::EndReason::Agreement,
            String::new(),
            None,
            now,
        );
        Ok(vec![ev])
    }

    /// Carries out a player's action at terminal time `now`. Returns the
    /// events reported (already in the outbox).
    pub fn act(&mut self, action: Action, now: u64) -> Result<Vec<EventEnvelope>, EngineError> {
        self.last_mono = self.last_mono.max(now);
        if let Some(ev) = self.tick(now)? {
            return Ok(vec![ev]);
        }
        let out = match action {
            Action::Arrived { side } => vec![self.emit(TableEvent::Arrived { side })?],
            Action::StartClock => self.start_clock(now)?,
            Action::EnterMove(text) => self.enter_move(text)?,
            Action::ClearMove => {
                self.entered = None;
                Vec::new()
            }
            Action::Press => {
                self.check_playing()?;
                let Some((m, _)) = self.entered.clone() else {
                    return Err(EngineError::NoMoveEntered);
                };
                self.press_with(m, now)?
            }
            Action::Play(text) => {
                self.check_playing()?;
                let m = self
                    .board
                    .parse(&text)
                    .map_err(|e| EngineError::BadMove(e.0))?;
                self.press_with(m, now)?
            }
            Action::ClaimNaturalLimit { by } => {
                self.check_not_over()?;
                self.message = (format!(
                    "{} claims the natural move limit: the arbiter rules",
                    by.name_en()
                ))
                .into();
                vec![self.emit(TableEvent::ClaimNaturalLimit { by })?]
            }
            Action::ClaimRepetition { by } => {
                self.check_not_over()?;
                self.message = (format!(
                    "{} claims a repetition ruling: the arbiter rules",
                    by.name_en()
                ))
                .into();
                vec![self.emit(TableEvent::ClaimRepetition { by })?]
            }
            Action::OfferDraw { by } => {
                self.check_not_over()?;
                self.draw_offer = Some(by);
                vec![self.emit(TableEvent::DrawOffer { by })?]
            }
            Action::AcceptDraw { by } => self.accept_draw(by, now)?,
            Action::DeclineDraw { by } => {
                if self.draw_offer != Some(by.other()) {
                    return Err(EngineError::NoOffer(by.other().name_en()));
                }
                self.draw_offer = None;
                vec![self.emit(TableEvent::DrawDecline { by })?]
            }
            Action::Resign { by, reason } => {
                self.check_not_over()?;
                let ev = self.emit(TableEvent::Resign {
                    by,
                    reason: reason.clone(),
                })?;
                let result = GameResult::win_for(by.other());
                self.finish(result, proto::EndReason::Resignation, reason, None, now);
                vec![ev]
            }
            Action::CallArbiter { by, reason } => {
                self.message = format!("arbiter called by {}", by.name_en()).into();
                vec![self.emit(TableEvent::CallArbiter { by, reason })?]
            }
            Action::ReportResult {
                result,
                why,
                reason,
            } => {
                // Allowed after a flag fall: the terminal records the loss on time.
                if let Status::Finished { .. } = &self.status {
                    return Err(EngineError::GameOver(self.status.end_english()));
                }
                let ev = self.emit(TableEvent::Result {
                    result,
                    why,
                    reason: reason.clone(),
                })?;
                self.finish(result, why, reason, None, now);
                vec![ev]
            }
            Action::SensorMove { mv } => {
                self.check_playing()?;
                // Reported as the board saw it; the server judges it.
                self.sensor_pending = true;
                let by = side(self.board.turn());
                vec![self.emit(TableEvent::Move { by, mv })?]
            }
        };
        Ok(out)
    }

    /// What the screen shows at `now`.
    pub fn screen(&self, now: u64) -> Screen {
        screen::build(self, now)
    }
}

#[cfg(test)]
mod tests;
