//! Game clocks: time controls, a pure clock state machine, and the
//! consistency check of clock reports.
//!
//! Time is never read here: every event carries a monotonic time in
//! milliseconds (the table terminal's clock). The table terminal runs a
//! [`Clock`] as the clock of record; the server mirrors it from the reported
//! events, extrapolates the running side with [`Clock::view_at`], and checks
//! each report against the previous one with [`check_report`].
//!
//! Time controls ([`TimeControl`]):
//! - Fischer (AXF-CLOCK-1): 80 minutes each, 30 seconds added after every
//!   move (the increment is added when the mover presses the clock).
//!   Sudden death is Fischer with no increment; rapid and blitz are set by
//!   the organiser (AXF-CLOCK-2, last paragraph); their defaults here
//!   (15 min + 10 s, 5 min + 3 s) are only defaults.
//! - AXF traditional (AXF-CLOCK-2): cumulative controls on the player's used
//!   time — 25 moves by 60 minutes, 35 by 75, 45 by 90, 55 by 105, 65 by
//!   120 — then, from 120 minutes used, 10 moves in every 5 minutes.
//!
//! Reading of the 5-minute blocks ("两小时后改为5分钟走满10着……所有着数不予
//! 累积，剩余时间可以自由应用", and referee duty (H): "一经发现五分钟内未走满
//! 十着即可判负"): the blocks are consecutive 5-minute windows of the
//! player's used time starting at 120 minutes; each window needs 10 moves
//! made inside it. Moves are not carried over: moves beyond the 65th made
//! before 120 minutes, and moves beyond 10 in a window, do not count for the
//! next window. Time left in a window after its 10 moves may be used freely
//! (thinking on later moves), so a player who completes a window early
//! loses nothing, but the next window's 10 moves are still due by its end.
//! (The alternative reading, "block deadlines carry leftover time and count
//! moves cumulatively from 120 minutes", is the same as adding more periods
//! to [`TraditionalControl::periods`].) The source counts *valid* moves (a
//! check repeated in a cycle counts up to four cycles); the clock counts
//! every press, and the arbiter corrects the count with
//! [`ClockEvent::AdjustMoves`].
//!
//! A flag falls at the exact moment the running side's time reaches its
//! deadline; a press at that moment is too late (AXF-CLOCK-6).

use crate::clock_text::{clock_text, ClockForm};
use crate::rule_id::RuleId;
use serde::{Deserialize, Serialize};
use xiangqi::Color;

/// One cumulative control of a traditional clock: `moves` own moves by
/// `by_ms` of used time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// Own moves required (cumulative from the start).
    pub moves: u32,
    /// Used time by which they are due (cumulative from the start).
    pub by_ms: u64,
}

/// Repeating windows after the last period: `moves` own moves in every
/// `ms` of used time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Moves required inside each window.
    pub moves: u32,
    /// Length of a window of used time.
    pub ms: u64,
}

/// A traditional (non-incremental) clock control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraditionalControl {
    /// Cumulative controls, increasing in moves and time (at least one).
    pub periods: Vec<Period>,
    /// Windows after the last period; `None`: the last period's time is
    /// final (sudden death after it).
    pub block: Option<Block>,
}

/// A clock control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `base_ms` each, `increment_ms` added after every move (0: sudden death).
    Fischer {
        /// Initial time of each side.
        base_ms: u64,
        /// Added to the mover's time at each press.
        increment_ms: u64,
    },
    /// Cumulative move/time controls (AXF-CLOCK-2).
    Traditional(TraditionalControl),
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl::axf_fischer()
    }
}

const MIN: u64 = 60_000;

impl TimeControl {
    /// AXF-CLOCK-1: 80 minutes + 30 seconds per move.
    pub fn axf_fischer() -> TimeControl {
        TimeControl::Fischer {
            base_ms: 80 * MIN,
            increment_ms: 30_000,
        }
    }

    /// AXF-CLOCK-2: 25/60, 35/75, 45/90, 55/105, 65/120, then 10 per 5 min.
    pub fn axf_traditional() -> TimeControl {
        let periods = [(25, 60), (35, 75), (45, 90), (55, 105), (65, 120)]
            .into_iter()
            .map(|(moves, m)| Period {
                moves,
                by_ms: m * MIN,
            })
            .collect();
        TimeControl::Traditional(TraditionalControl {
            periods,
            block: Some(Block {
                moves: 10,
                ms: 5 * MIN,
            }),
        })
    }

    /// The rule cited for this control.
    pub fn rule_id(&self) -> RuleId {
        match self {
            TimeControl::Fischer {
                base_ms: 4_800_000,
                increment_ms: 30_000,
            } => RuleId::AXF_CLOCK_1,
            _ => RuleId::AXF_CLOCK_2,
        }
    }

    /// Time credited to a side for its moves number `moves_before + 1 ..=
    /// moves_after`: the increments (Fischer) or the time added by the next
    /// controls reached (traditional main periods). Window rolls of the
    /// 5-minute blocks are time-based and not included.
    pub fn credit_for_moves(&self, moves_before: u32, moves_after: u32) -> u64 {
        let n = moves_after.saturating_sub(moves_before) as u64;
        match self {
            TimeControl::Fischer { increment_ms, .. } => increment_ms.saturating_mul(n),
            TimeControl::Traditional(t) => {
                let mut credit = 0u64;
                for w in t.periods.windows(2) {
                    if moves_before < w[0].moves && moves_after >= w[0].moves {
                        credit = credit.saturating_add(w[1].by_ms.saturating_sub(w[0].by_ms));
                    }
                }
                credit
            }
        }
    }

    fn validate(&self) -> Result<(), ClockConfigError> {
        match self {
            TimeControl::Fischer { base_ms, .. } => {
                if *base_ms == 0 {
                    return Err(invalid(
                        "time_control.base_minutes",
                        ClockProblem::NotPositive,
                    ));
                }
            }
            TimeControl::Traditional(t) => {
                if t.periods.is_empty() {
                    return Err(invalid("time_control.periods", ClockProblem::NoPeriods));
                }
                let mut prev = Period { moves: 0, by_ms: 0 };
                for p in &t.periods {
                    if p.moves <= prev.moves || p.by_ms <= prev.by_ms {
                        return Err(invalid(
                            "time_control.periods",
                            ClockProblem::PeriodsDoNotIncrease,
                        ));
                    }
                    prev = *p;
                }
                if let Some(b) = t.block {
                    if b.moves == 0 || b.ms == 0 {
                        return Err(invalid(
                            "time_control.block_moves",
                            ClockProblem::EmptyBlock,
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Errors in the `[time_control]` section; each names the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid value for {key}: {reason}")]
pub struct ClockConfigError {
    /// The config key, e.g. `time_control.kind`.
    pub key: &'static str,
    /// Why it is invalid (typed: crates/config words it from the
    /// catalogues; its `Display` is the English).
    pub reason: ClockProblem,
}

/// Why a `[time_control]` value is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockProblem {
    /// A time that must be positive is 0.
    #[error("must be more than 0")]
    NotPositive,
    /// A traditional control without periods.
    #[error("needs at least one period")]
    NoPeriods,
    /// Periods whose moves or minutes do not increase.
    #[error("moves and minutes must increase from period to period")]
    PeriodsDoNotIncrease,
    /// A block of 0 moves or 0 minutes.
    #[error("block moves and minutes must be more than 0")]
    EmptyBlock,
    /// Both `base_minutes` and `base_seconds`.
    #[error("give either base_minutes or base_seconds, not both")]
    BaseTwice,
    /// A number too large to hold in milliseconds.
    #[error("too large")]
    TooLarge,
    /// `sudden_death` with an increment.
    #[error("sudden_death has no increment (use kind = \"fischer\")")]
    SuddenDeathIncrement,
    /// `sudden_death` without a base time.
    #[error("sudden_death needs a base time")]
    SuddenDeathNoBase,
    /// `traditional` with a base time or an increment.
    #[error("traditional controls use periods, not a base time or increment")]
    TraditionalBase,
    /// `kind` is none of the known ones (the value given).
    #[error(
        "{0:?} is not one of \"fischer\", \"sudden_death\", \"rapid\", \"blitz\", \"traditional\""
    )]
    UnknownKind(String),
    /// Periods or a block given to a control that is not traditional.
    #[error("periods and block_* are only for kind = \"traditional\"")]
    TraditionalKeysOnly,
    /// A kind without its built-in defaults (a bug, never a user's).
    #[error("internal default missing")]
    InternalDefault,
    /// A period of more moves than a count holds.
    #[error("too many moves")]
    TooManyMoves,
    /// A period of more minutes than milliseconds hold.
    #[error("too many minutes")]
    TooManyMinutes,
}

fn invalid(key: &'static str, reason: ClockProblem) -> ClockConfigError {
    ClockConfigError { key, reason }
}

/// The `[time_control]` section of a config.
///
/// ```toml
/// [time_control]
/// kind = "fischer"          # fischer | sudden_death | rapid | blitz | traditional
/// base_minutes = 80         # or base_seconds
/// increment_seconds = 30
/// # traditional only (defaults: the AXF controls):
/// periods = [[25, 60], [35, 75], [45, 90], [55, 105], [65, 120]]  # [moves, minutes]
/// block_moves = 10
/// block_minutes = 5
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlConfig {
    /// The kind of control; `fischer` when absent.
    #[serde(default)]
    pub kind: Option<String>,
    /// Base time in minutes.
    #[serde(default)]
    pub base_minutes: Option<u64>,
    /// Base time in seconds (instead of `base_minutes`).
    #[serde(default)]
    pub base_seconds: Option<u64>,
    /// Increment per move in seconds.
    #[serde(default)]
    pub increment_seconds: Option<u64>,
    /// Traditional periods as `[moves, minutes]` pairs.
    #[serde(default)]
    pub periods: Option<Vec<[u64; 2]>>,
    /// Traditional: moves per window after the periods (0: no windows).
    #[serde(default)]
    pub block_moves: Option<u32>,
    /// Traditional: window length in minutes.
    #[serde(default)]
    pub block_minutes: Option<u64>,
}

impl TimeControlConfig {
    /// Resolves the config into a control; errors name the key.
    pub fn resolve(&self) -> Result<TimeControl, ClockConfigError> {
        let kind = self
            .kind
            .as_deref()
            .unwrap_or("fischer")
            .trim()
            .to_ascii_lowercase();
        let base_ms = match (self.base_minutes, self.base_seconds) {
            (Some(_), Some(_)) => {
                return Err(invalid(
                    "time_control.base_seconds",
                    ClockProblem::BaseTwice,
                ))
            }
            (Some(m), None) => Some(
                m.checked_mul(MIN)
                    .ok_or_else(|| invalid("time_control.base_minutes", ClockProblem::TooLarge))?,
            ),
            (None, Some(s)) => Some(
                s.checked_mul(1000)
                    .ok_or_else(|| invalid("time_control.base_seconds", ClockProblem::TooLarge))?,
            ),
            (None, None) => None,
        };
        let inc_ms = match self.increment_seconds {
            Some(s) => Some(s.checked_mul(1000).ok_or_else(|| {
                invalid("time_control.increment_seconds", ClockProblem::TooLarge)
            })?),
            None => None,
        };
        let traditional_keys =
            self.periods.is_some() || self.block_moves.is_some() || self.block_minutes.is_some();
        let fischer = |default_base: u64, default_inc: u64| TimeControl::Fischer {
            base_ms: base_ms.unwrap_or(default_base),
            increment_ms: inc_ms.unwrap_or(default_inc),
        };
        let control = match kind.as_str() {
            "fischer" => fischer(80 * MIN, 30_000),
            "rapid" => fischer(15 * MIN, 10_000),
            "blitz" => fischer(5 * MIN, 3_000),
            "sudden_death" => {
                if inc_ms.unwrap_or(0) != 0 {
                    return Err(invalid(
                        "time_control.increment_seconds",
                        ClockProblem::SuddenDeathIncrement,
                    ));
                }
                let Some(base_ms) = base_ms else {
                    return Err(invalid(
                        "time_control.base_minutes",
                        ClockProblem::SuddenDeathNoBase,
                    ));
                };
                TimeControl::Fischer {
                    base_ms,
                    increment_ms: 0,
                }
            }
            "traditional" => {
                if base_ms.is_some() || inc_ms.is_some() {
                    return Err(invalid(
                        "time_control.base_minutes",
                        ClockProblem::TraditionalBase,
                    ));
                }
                self.traditional()?
            }
            other => {
                return Err(invalid(
                    "time_control.kind",
                    ClockProblem::UnknownKind(other.to_string()),
                ))
            }
        };
        if traditional_keys && !matches!(control, TimeControl::Traditional(_)) {
            return Err(invalid(
                "time_control.periods",
                ClockProblem::TraditionalKeysOnly,
            ));
        }
        control.validate()?;
        Ok(control)
    }

    /// The traditional control the periods and block keys give (AXF's
    /// periods and blocks by default).
    fn traditional(&self) -> Result<TimeControl, ClockConfigError> {
        let TimeControl::Traditional(mut t) = TimeControl::axf_traditional() else {
            return Err(invalid("time_control.kind", ClockProblem::InternalDefault));
        };
        if let Some(ps) = &self.periods {
            t.periods = ps
                .iter()
                .map(|[moves, minutes]| {
                    let moves = u32::try_from(*moves)
                        .map_err(|_| invalid("time_control.periods", ClockProblem::TooManyMoves))?;
                    let by_ms = minutes.checked_mul(MIN).ok_or_else(|| {
                        invalid("time_control.periods", ClockProblem::TooManyMinutes)
                    })?;
                    Ok(Period { moves, by_ms })
                })
                .collect::<Result<_, ClockConfigError>>()?;
        }
        let moves = self.block_moves.unwrap_or(10);
        let ms = match self.block_minutes {
            Some(m) => m
                .checked_mul(MIN)
                .ok_or_else(|| invalid("time_control.block_minutes", ClockProblem::TooLarge))?,
            None => 5 * MIN,
        };
        t.block = if moves == 0 {
            None
        } else {
            Some(Block { moves, ms })
        };
        if t.block.is_some() && ms == 0 {
            return Err(invalid(
                "time_control.block_minutes",
                ClockProblem::NotPositive,
            ));
        }
        Ok(TimeControl::Traditional(t))
    }
}

/// Something that happens to a clock, at a monotonic time in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockEvent {
    /// The start signal: `first`'s clock starts (AXF-CLOCK-3: Black presses to
    /// start Red's clock).
    Start {
        /// When.
        at_ms: u64,
        /// The side to move first (Red from the start position).
        first: Color,
    },
    /// `side` has moved and presses: its clock stops, the increment is
    /// added, the opponent's starts.
    Press {
        /// The side that pressed.
        side: Color,
        /// When.
        at_ms: u64,
    },
    /// The arbiter (or an adjournment) stops both clocks.
    Pause {
        /// When.
        at_ms: u64,
    },
    /// The clock of the side to move runs again.
    Resume {
        /// When.
        at_ms: u64,
    },
    /// The arbiter adds (positive) or removes (negative) time, e.g. the 5
    /// minutes of a false natural-limit claim. Removing all the time is a
    /// flag fall; giving time back to a flagged side clears the flag and
    /// leaves the clocks paused (a clock fault ruled by the arbiter).
    Adjust {
        /// The side.
        side: Color,
        /// Added time (negative: removed).
        delta_ms: i64,
        /// When.
        at_ms: u64,
    },
    /// The arbiter sets a side's remaining time (e.g. a replaced clock).
    SetRemaining {
        /// The side.
        side: Color,
        /// Remaining time to the next deadline.
        remaining_ms: u64,
        /// When.
        at_ms: u64,
    },
    /// The arbiter corrects a side's move count (valid moves, AXF-CLOCK-2).
    AdjustMoves {
        /// The side.
        side: Color,
        /// Moves added (negative: removed).
        delta: i32,
        /// When.
        at_ms: u64,
    },
}

impl ClockEvent {
    /// The event's time.
    pub fn at_ms(&self) -> u64 {
        match *self {
            ClockEvent::Start { at_ms, .. }
            | ClockEvent::Press { at_ms, .. }
            | ClockEvent::Pause { at_ms }
            | ClockEvent::Resume { at_ms }
            | ClockEvent::Adjust { at_ms, .. }
            | ClockEvent::SetRemaining { at_ms, .. }
            | ClockEvent::AdjustMoves { at_ms, .. } => at_ms,
        }
    }
}

/// A flag fall: who, and when (monotonic ms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The side whose time ran out: it loses on time.
    pub side: Color,
    /// When the time ran out.
    pub at_ms: u64,
}

/// An event the clock cannot apply; the clock is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The event is earlier than the clock's last event.
    #[error("event at {at_ms} ms is earlier than the last event at {last_ms} ms")]
    TimeWentBackwards {
        /// The clock's last event time.
        last_ms: u64,
        /// The event's time.
        at_ms: u64,
    },
    /// The clock has not been started.
    #[error("the clock has not been started")]
    NotStarted,
    /// The clock was already started.
    #[error("the clock was already started")]
    AlreadyStarted,
    /// A press by the side whose clock is not running.
    #[error("{side} pressed, but {side}'s clock is not running")]
    NotRunning {
        /// Who pressed.
        side: Color,
    },
    /// A press or pause while paused.
    #[error("the clock is paused")]
    Paused,
    /// A resume while not paused.
    #[error("the clock is not paused")]
    NotPaused,
    /// A press, pause or resume after a flag fell.
    #[error("{}'s flag fell at {} ms", .0.side, .0.at_ms)]
    FlagFallen(Flag),
    /// A move count correction below zero.
    #[error("{side}'s move count cannot go below zero")]
    NegativeMoves {
        /// The side.
        side: Color,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Phase {
    /// Periods (or Fischer).
    #[default]
    Main,
    /// Traditional windows: index of the current window and moves in it.
    Block { window: u64, moves: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct SideClock {
    /// Real time this side's clock has run.
    used_ms: u64,
    /// Time credited: increments and arbiter adjustments (may be negative).
    credit_ms: i64,
    moves: u32,
    phase: Phase,
}

impl SideClock {
    /// Used time as the controls see it.
    fn effective_used(&self) -> i128 {
        self.used_ms as i128 - self.credit_ms as i128
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    NotStarted,
    Running,
    Paused,
    Flagged(Flag),
}

enum Boundary {
    /// The flag falls when effective used time reaches this.
    Flag(i128),
    /// The block window rolls over at this effective used time.
    Roll(i128),
}

/// What a side's clock shows at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideView {
    /// Time left until the next deadline (Fischer: all the time left).
    pub remaining_ms: u64,
    /// Real time this side's clock has run.
    pub used_ms: u64,
    /// Own moves (presses) made.
    pub moves: u32,
    /// Traditional: moves still due by the next deadline.
    pub moves_to_go: Option<u32>,
}

/// What the clock shows at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// The instant (monotonic ms).
    pub at_ms: u64,
    /// Red's and Black's clocks (index with `Color::index`).
    pub sides: [SideView; 2],
    /// The side whose time is running (`None`: not started, paused or flagged).
    pub running: Option<Color>,
    /// The side to press next.
    pub to_move: Color,
    /// A flag that has fallen, with its time.
    pub flag: Option<Flag>,
}

/// A game clock as a pure state machine over [`ClockEvent`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    sides: [SideClock; 2],
    to_move: Color,
    state: State,
    last_ms: u64,
}

impl Clock {
    /// A clock not yet started.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            sides: [SideClock::default(); 2],
            to_move: Color::Red,
            state: State::NotStarted,
            last_ms: 0,
        }
    }

    /// Applies events in order; on an error, its index and the error.
    pub fn replay(
        control: TimeControl,
        events: impl IntoIterator<Item = ClockEvent>,
    ) -> Result<Clock, (usize, ClockError)> {
        let mut c = Clock::new(control);
        for (i, e) in events.into_iter().enumerate() {
            c.apply(e).map_err(|err| (i, err))?;
        }
        Ok(c)
    }

    /// The control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The time of the last event applied.
    pub fn last_ms(&self) -> u64 {
        self.last_ms
    }

    /// The flag that has fallen, if any (as of the last event).
    pub fn flag(&self) -> Option<Flag> {
        match self.state {
            State::Flagged(f) => Some(f),
            _ => None,
        }
    }

    /// The side whose time runs (as of the last event).
    pub fn running(&self) -> Option<Color> {
        (self.state == State::Running).then_some(self.to_move)
    }

    /// The side to press next.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Is the clock paused?
    pub fn is_paused(&self) -> bool {
        self.state == State::Paused
    }

    /// Applies one event. Returns the flag if one fell up to and including
    /// this event (a press after the flag fell is too late: the flag is
    /// returned and the press ignored). On an error nothing changes.
    pub fn apply(&mut self, event: ClockEvent) -> Result<Option<Flag>, ClockError> {
        let at = event.at_ms();
        if at < self.last_ms {
            return Err(ClockError::TimeWentBackwards {
                last_ms: self.last_ms,
                at_ms: at,
            });
        }
        // Validate first, so an error leaves the clock as it was.
        match (event, self.state) {
            (ClockEvent::Start { .. }, State::NotStarted) => {}
            (ClockEvent::Start { .. }, _) => return Err(ClockError::AlreadyStarted),
            (ClockEvent::Adjust { .. }, _)
            | (ClockEvent::SetRemaining { .. }, _)
            | (ClockEvent::AdjustMoves { .. }, _) => {}
            (_, State::NotStarted) => return Err(ClockError::NotStarted),
            (_, State::Flagged(f)) => return Err(ClockError::FlagFallen(f)),
            (ClockEvent::Press { .. } | ClockEvent::Pause { .. }, State::Paused) => {
                return Err(ClockError::Paused)
            }
            (ClockEvent::Resume { .. }, State::Running) => return Err(ClockError::NotPaused),
            (ClockEvent::Press { side, .. }, State::Running) if side != self.to_move => {
                return Err(ClockError::NotRunning { side })
            }
            _ => {}
        }
        if let ClockEvent::AdjustMoves { side, delta, .. } = event {
            if (self.sides[side.index()].moves as i64) + (delta as i64) < 0 {
                return Err(ClockError::NegativeMoves { side });
            }
        }
        self.advance(at);
        if let Some(f) = self.flag() {
            // The flag fell before (or exactly at) this event.
            if matches!(
                event,
                ClockEvent::Press { .. } | ClockEvent::Pause { .. } | ClockEvent::Resume { .. }
            ) {
                return Ok(Some(f));
            }
        }
        match event {
            ClockEvent::Start { first, .. } => {
                self.to_move = first;
                self.state = State::Running;
                // A zero or exhausted clock flags at once.
                self.advance(at);
            }
            ClockEvent::Press { side, .. } => {
                let s = &mut self.sides[side.index()];
                s.moves = s.moves.saturating_add(1);
                if let Phase::Block { moves, .. } = &mut s.phase {
                    *moves = moves.saturating_add(1);
                }
                if let TimeControl::Fischer { increment_ms, .. } = self.control {
                    s.credit_ms = s.credit_ms.saturating_add(clamp_i64(increment_ms));
                }
                self.to_move = side.other();
                self.advance(at);
            }
            ClockEvent::Pause { .. } => self.state = State::Paused,
            ClockEvent::Resume { .. } => {
                self.state = State::Running;
                self.advance(at);
            }
            ClockEvent::Adjust { side, delta_ms, .. } => self.adjust(side, delta_ms, at),
            ClockEvent::SetRemaining {
                side, remaining_ms, ..
            } => {
                let now = self.side_remaining_raw(side);
                let delta =
                    (remaining_ms as i128 - now).clamp(i64::MIN as i128, i64::MAX as i128) as i64;
                self.adjust(side, delta, at);
            }
            ClockEvent::AdjustMoves { side, delta, .. } => {
                let s = &mut self.sides[side.index()];
                s.moves = (s.moves as i64 + delta as i64).clamp(0, u32::MAX as i64) as u32;
                if let Phase::Block { moves, .. } = &mut s.phase {
                    *moves = (*moves as i64 + delta as i64).clamp(0, u32::MAX as i64) as u32;
                }
                self.check_side_now(side, at);
            }
        }
        Ok(self.flag())
    }

    fn adjust(&mut self, side: Color, delta_ms: i64, at: u64) {
        let s = &mut self.sides[side.index()];
        s.credit_ms = s.credit_ms.saturating_add(delta_ms);
        if let State::Flagged(f) = self.state {
            if f.side == side && self.side_remaining(side) > 0 {
                // The arbiter gave time back to a flagged side: clocks stay stopped.
                self.state = State::Paused;
            }
        }
        self.check_side_now(side, at);
    }

    /// After an arbiter change, a side whose deadline has already passed flags now.
    fn check_side_now(&mut self, side: Color, at: u64) {
        if matches!(self.state, State::Flagged(_)) {
            return;
        }
        // Roll windows that are complete, flag a deadline already reached.
        loop {
            let s = self.sides[side.index()];
            match self.boundary(&s) {
                Boundary::Roll(b) if s.effective_used() >= b => self.roll(side),
                Boundary::Flag(b) if s.effective_used() >= b => {
                    self.state = State::Flagged(Flag { side, at_ms: at });
                    return;
                }
                _ => return,
            }
        }
    }

    fn roll(&mut self, side: Color) {
        let s = &mut self.sides[side.index()];
        s.phase = match s.phase {
            Phase::Main => Phase::Block {
                window: 0,
                moves: 0,
            },
            Phase::Block { window, .. } => Phase::Block {
                window: window.saturating_add(1),
                moves: 0,
            },
        };
    }

    /// The next thing that happens to a side's clock as its used time grows.
    fn boundary(&self, s: &SideClock) -> Boundary {
        match &self.control {
            TimeControl::Fischer { base_ms, .. } => Boundary::Flag(*base_ms as i128),
            TimeControl::Traditional(t) => match s.phase {
                Phase::Main => {
                    if let Some(p) = t.periods.iter().find(|p| s.moves < p.moves) {
                        return Boundary::Flag(p.by_ms as i128);
                    }
                    let last = t.periods.last().map_or(0, |p| p.by_ms) as i128;
                    match t.block {
                        Some(_) => Boundary::Roll(last),
                        // No windows: the game must end by the last control.
                        None => Boundary::Flag(last),
                    }
                }
                Phase::Block { window, moves } => {
                    let last = t.periods.last().map_or(0, |p| p.by_ms) as i128;
                    let Some(b) = t.block else {
                        return Boundary::Flag(last);
                    };
                    let end = last + (window as i128 + 1) * b.ms as i128;
                    if moves >= b.moves {
                        Boundary::Roll(end)
                    } else {
                        Boundary::Flag(end)
                    }
                }
            },
        }
    }

    /// Runs the running side's time up to `at`, flagging or rolling windows.
    fn advance(&mut self, at: u64) {
        let start = self.last_ms;
        self.last_ms = at;
        if self.state != State::Running {
            return;
        }
        let side = self.to_move;
        let mut now = start;
        loop {
            let s = self.sides[side.index()];
            let eu = s.effective_used();
            let (b, is_flag) = match self.boundary(&s) {
                Boundary::Flag(b) => (b, true),
                Boundary::Roll(b) => (b, false),
            };
            // Wall time at which the boundary is reached.
            let reach = now as i128 + (b - eu).max(0);
            if reach > at as i128 {
                self.sides[side.index()].used_ms = s.used_ms.saturating_add(at - now);
                return;
            }
            let reach = reach as u64; // within [now, at]
            self.sides[side.index()].used_ms = s.used_ms.saturating_add(reach - now);
            now = reach;
            if is_flag {
                self.state = State::Flagged(Flag { side, at_ms: reach });
                return;
            }
            self.roll(side);
        }
    }

    fn side_remaining(&self, side: Color) -> u64 {
        self.side_remaining_raw(side).clamp(0, u64::MAX as i128) as u64
    }

    /// Time to the next flag deadline; negative when it has passed.
    fn side_remaining_raw(&self, side: Color) -> i128 {
        let s = &self.sides[side.index()];
        let mut probe = *s;
        // Skip rolls already earned to find the next flag deadline.
        for _ in 0..3 {
            match self.boundary(&probe) {
                Boundary::Flag(b) => return b - probe.effective_used(),
                Boundary::Roll(_) => {
                    probe.phase = match probe.phase {
                        Phase::Main => Phase::Block {
                            window: 0,
                            moves: 0,
                        },
                        Phase::Block { window, .. } => Phase::Block {
                            window: window + 1,
                            moves: 0,
                        },
                    }
                }
            }
        }
        0
    }

    fn moves_to_go(&self, side: Color) -> Option<u32> {
        let TimeControl::Traditional(t) = &self.control else {
            return None;
        };
        let s = &self.sides[side.index()];
        match s.phase {
            Phase::Main => match t.periods.iter().find(|p| s.moves < p.moves) {
                Some(p) => Some(p.moves - s.moves),
                None => t.block.map(|b| b.moves),
            },
            Phase::Block { moves, .. } => t.block.map(|b| {
                if moves >= b.moves {
                    b.moves
                } else {
                    b.moves - moves
                }
            }),
        }
    }

    /// What the clock shows now (as of the last event).
    pub fn view(&self) -> ClockView {
        ClockView {
            at_ms: self.last_ms,
            sides: [Color::Red, Color::Black].map(|c| SideView {
                remaining_ms: self.side_remaining(c),
                used_ms: self.sides[c.index()].used_ms,
                moves: self.sides[c.index()].moves,
                moves_to_go: self.moves_to_go(c),
            }),
            running: self.running(),
            to_move: self.to_move,
            flag: self.flag(),
        }
    }

    /// What the clock will show at `t` if nothing happens before (the
    /// running side's time extrapolated; a flag that would fall by `t` is
    /// reported with its time). A `t` before the last event is read as the
    /// last event's time.
    pub fn view_at(&self, t: u64) -> ClockView {
        let mut c = self.clone();
        c.advance(t.max(self.last_ms));
        c.view()
    }

    /// Both remaining times at `t` (Red, Black), extrapolated.
    pub fn remaining_at(&self, t: u64) -> [u64; 2] {
        let v = self.view_at(t);
        [v.sides[0].remaining_ms, v.sides[1].remaining_ms]
    }

    /// When the running side's flag will fall if nobody presses (monotonic
    /// ms), or when it fell.
    pub fn flag_due(&self) -> Option<Flag> {
        if let Some(f) = self.flag() {
            return Some(f);
        }
        let side = self.running()?;
        let rem = self.side_remaining(side);
        Some(Flag {
            side,
            at_ms: self.last_ms.saturating_add(rem),
        })
    }
}

fn clamp_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// One report of a table terminal: both remaining times at its monotonic time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReport {
    /// The terminal's monotonic time.
    pub at_ms: u64,
    /// Remaining time of Red and Black (index with `Color::index`).
    pub remaining_ms: [u64; 2],
    /// The side whose time runs (`None`: paused, not started, flagged).
    pub running: Option<Color>,
    /// Moves (presses) made by Red and Black.
    pub moves: [u32; 2],
}

/// What is implausible about a clock report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnomalyKind {
    /// The report's time is earlier than the previous report's.
    TimeWentBackwards,
    /// A side's move count went down.
    MovesDecreased,
    /// A side's time grew by more than its increments and adjustments.
    TimeGrew,
    /// More clock time was used than real time passed.
    RanTooFast,
    /// Less clock time was used than real time passed while a clock ran.
    RanTooSlow,
    /// The side not running (and not pressing) lost time.
    IdleSideChanged,
}

impl AnomalyKind {
    /// The names of the figures an anomaly of this kind carries
    /// ([`ClockAnomaly::figures`], in this order).
    pub fn figure_names(self) -> &'static [&'static str] {
        match self {
            AnomalyKind::TimeWentBackwards => &["off"],
            AnomalyKind::MovesDecreased => &["from", "to"],
            AnomalyKind::TimeGrew => &["growth", "off"],
            AnomalyKind::RanTooFast | AnomalyKind::RanTooSlow => &["used", "elapsed", "off"],
            AnomalyKind::IdleSideChanged => &["used"],
        }
    }

    /// `values` named by [`AnomalyKind::figure_names`].
    fn figures(self, values: &[i128]) -> Vec<(&'static str, i64)> {
        self.figure_names()
            .iter()
            .zip(values)
            .map(|(n, v)| (*n, wide(*v)))
            .collect()
    }
}

/// A clock anomaly: the server raises an alert with this description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockAnomaly {
    /// What kind.
    pub kind: AnomalyKind,
    /// The side concerned, if one.
    pub side: Option<Color>,
    /// By how much (ms) the report is off.
    pub off_by_ms: u64,
    /// The figures of the description, named as the catalogue message
    /// of the kind takes them (`from`/`to` move counts, `growth`, `used`,
    /// `elapsed`, `off` in ms): the hall's alert carries them typed
    /// (`i18n::texts::anomaly`, issue 33).
    pub figures: Vec<(&'static str, i64)>,
}

impl ClockAnomaly {
    /// The figure named `name` (0 when the kind has none of that name).
    pub fn figure(&self, name: &str) -> i64 {
        self.figures
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, v)| *v)
    }

    /// For the arbiter, in Chinese: made from the kind, the side and the
    /// figures when asked (an anomaly is found at every press of a clock
    /// that runs wrong; most are never shown, issue 40).
    pub fn description_zh(&self) -> String {
        let side = self.side.map_or("", Color::name_zh);
        let f = |n| self.figure(n);
        let short = |n| clock_text(u64::try_from(f(n).max(0)).unwrap_or(0), ClockForm::Short);
        match self.kind {
            AnomalyKind::TimeWentBackwards => format!("计时报告时间倒退{}毫秒", f("off")),
            AnomalyKind::MovesDecreased => format!("{side}着数由{}减为{}", f("from"), f("to")),
            AnomalyKind::TimeGrew => {
                format!(
                    "{side}时间增加{}，超出加秒与调整{}",
                    short("growth"),
                    short("off")
                )
            }
            AnomalyKind::RanTooFast => format!("棋钟走时比实际时间多{}毫秒", f("off")),
            AnomalyKind::RanTooSlow => format!("棋钟走时比实际时间少{}毫秒", f("off")),
            AnomalyKind::IdleSideChanged => {
                format!("{side}未走棋且钟未走，却少了{}", short("used"))
            }
        }
    }

    /// For the arbiter, in English (see [`ClockAnomaly::description_zh`]).
    pub fn description_en(&self) -> String {
        let side = self.side.map_or("", Color::name_en);
        let f = |n| self.figure(n);
        match self.kind {
            AnomalyKind::TimeWentBackwards => format!(
                "the clock report is {} ms earlier than the previous one",
                f("off")
            ),
            AnomalyKind::MovesDecreased => format!(
                "{side}'s move count went down from {} to {}",
                f("from"),
                f("to")
            ),
            AnomalyKind::TimeGrew => format!(
                "{side}'s time grew by {} ms, {} ms more than its increments and adjustments",
                f("growth"),
                f("off")
            ),
            AnomalyKind::RanTooFast => format!(
                "the clocks used {} ms in {} ms of real time ({} ms too much)",
                f("used"),
                f("elapsed"),
                f("off")
            ),
            AnomalyKind::RanTooSlow => format!(
                "the clocks used {} ms in {} ms of real time ({} ms too little)",
                f("used"),
                f("elapsed"),
                f("off")
            ),
            AnomalyKind::IdleSideChanged => {
                format!("{side} neither ran nor pressed but lost {} ms", f("used"))
            }
        }
    }
}

/// A side's move count went down between two reports.
fn moves_decreased(c: Color, prev: u32, next: u32) -> ClockAnomaly {
    ClockAnomaly {
        kind: AnomalyKind::MovesDecreased,
        side: Some(c),
        off_by_ms: 0,
        figures: AnomalyKind::MovesDecreased.figures(&[prev.into(), next.into()]),
    }
}

/// A side's time grew by `growth` ms, `off` ms more than allowed.
fn time_grew(c: Color, growth: i128, off: u64) -> ClockAnomaly {
    ClockAnomaly {
        kind: AnomalyKind::TimeGrew,
        side: Some(c),
        off_by_ms: off,
        figures: AnomalyKind::TimeGrew.figures(&[growth, off.into()]),
    }
}

/// A side that neither ran nor pressed lost `used` ms.
fn idle_side_changed(c: Color, used: i128) -> ClockAnomaly {
    ClockAnomaly {
        kind: AnomalyKind::IdleSideChanged,
        side: Some(c),
        off_by_ms: used as u64,
        figures: AnomalyKind::IdleSideChanged.figures(&[used]),
    }
}

/// A figure of a description as an `i64` (saturating; clock figures are
/// far inside it).
fn wide(n: i128) -> i64 {
    n.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// Checks a new clock report against the previous one.
///
/// `adjustments_ms` are the arbiter's adjustments applied between the two
/// reports (per side, positive = time added). `tolerance_ms` absorbs
/// rounding and transmission jitter (a second or two). Rules: a side's time
/// never grows except by its increments (or the time of the next traditional
/// control) and adjustments; the clock time used by both sides together is
/// never more than the real time elapsed, and (Fischer, clocks running at
/// both reports, no window rolls) about equal to it; a side that neither ran
/// nor pressed keeps its time. An empty result: plausible.
pub fn check_report(
    control: &TimeControl,
    prev: &ClockReport,
    next: &ClockReport,
    adjustments_ms: [i64; 2],
    tolerance_ms: u64,
) -> Vec<ClockAnomaly> {
    check(control, prev, next, adjustments_ms, tolerance_ms, true)
}

/// [`check_report`] without the rate of the clock (`RanTooFast`,
/// `RanTooSlow`: the clock time used against the terminal's own time):
/// the anomalies of the times themselves, what a hall raises while
/// terminals and replays do not keep real time. What it finds is exactly
/// what `check_report` finds of the other kinds, without building the
/// rate's anomalies to drop them (a flood of synthetic presses built one
/// a press: issue 40).
pub fn check_report_times(
    control: &TimeControl,
    prev: &ClockReport,
    next: &ClockReport,
    adjustments_ms: [i64; 2],
    tolerance_ms: u64,
) -> Vec<ClockAnomaly> {
    check(control, prev, next, adjustments_ms, tolerance_ms, false)
}

/// [`check_report`], the rate's anomalies only when `rate`.
fn check(
    control: &TimeControl,
    prev: &ClockReport,
    next: &ClockReport,
    adjustments_ms: [i64; 2],
    tolerance_ms: u64,
    rate: bool,
) -> Vec<ClockAnomaly> {
    let mut out = Vec::new();
    let tol = tolerance_ms as i128;
    if next.at_ms < prev.at_ms {
        let off = prev.at_ms - next.at_ms;
        out.push(ClockAnomaly {
            kind: AnomalyKind::TimeWentBackwards,
            side: None,
            off_by_ms: off,
            figures: AnomalyKind::TimeWentBackwards.figures(&[off.into()]),
        });
        return out;
    }
    let elapsed = (next.at_ms - prev.at_ms) as i128;
    let block_ms = match control {
        TimeControl::Traditional(TraditionalControl { block: Some(b), .. }) => Some(b.ms as i128),
        _ => None,
    };
    let mut used_total: i128 = 0;
    let mut exact = matches!(control, TimeControl::Fischer { .. });
    for c in Color::ALL {
        let i = c.index();
        if next.moves[i] < prev.moves[i] {
            out.push(moves_decreased(c, prev.moves[i], next.moves[i]));
            exact = false;
            continue;
        }
        let credit = control.credit_for_moves(prev.moves[i], next.moves[i]) as i128;
        // Window rolls of the traditional blocks add up to one window per
        // window of elapsed time (plus the one in progress).
        let rolls = block_ms.map_or(0, |b| (elapsed / b + 1) * b);
        if block_ms.is_some() {
            exact = false;
        }
        let allowed = credit + adjustments_ms[i] as i128 + rolls;
        let growth = next.remaining_ms[i] as i128 - prev.remaining_ms[i] as i128;
        if growth > allowed + tol {
            let off = (growth - allowed) as u64;
            out.push(time_grew(c, growth, off));
        }
        let used = prev.remaining_ms[i] as i128 - next.remaining_ms[i] as i128
            + credit
            + adjustments_ms[i] as i128;
        used_total += used;
        let pressed = next.moves[i] > prev.moves[i];
        let ran = prev.running == Some(c) || next.running == Some(c) || pressed;
        if !ran && used > tol {
            out.push(idle_side_changed(c, used));
        }
    }
    if rate && used_total > elapsed + tol && block_ms.is_none() {
        let off = (used_total - elapsed) as u64;
        out.push(ClockAnomaly {
            kind: AnomalyKind::RanTooFast,
            side: None,
            off_by_ms: off,
            figures: AnomalyKind::RanTooFast.figures(&[used_total, elapsed, off.into()]),
        });
    }
    let running_throughout = prev.running.is_some() && next.running.is_some();
    if rate && exact && running_throughout && used_total + tol < elapsed {
        let off = (elapsed - used_total) as u64;
        out.push(ClockAnomaly {
            kind: AnomalyKind::RanTooSlow,
            side: None,
            off_by_ms: off,
            figures: AnomalyKind::RanTooSlow.figures(&[used_total, elapsed, off.into()]),
        });
    }
    out
}
