//! Per-table state machine (台位状态): the mirrored clock, the board with its
//! counters, fouls, the sealed move, the game's status and result.
//!
//! A [`TableState`] changes only through `apply_*` calls made with records
//! that are already durably stored (see `ingest.rs`), each with the server
//! time at which it was received, so replaying the store rebuilds the same
//! state (see `rebuild.rs`). Alerts and claims go to the hall's [`Book`](crate::book::Book)
//! (`hall.rs`), which also collects the deltas to publish.

pub mod board;
pub mod clock;
pub mod clock_history;
pub mod convert;
pub mod event;
pub mod move_limit;
pub mod order;
pub use crate::ply_clocks;
pub mod public;
pub mod size;

use proto::{
    ClockSample, ClockState, ControlToTable, FoulCount, IccsMove, Side, TableSession, TableStatus,
    TableView,
};
use rulebook::repetition::RepetitionWatch;
use rulebook::{LimitCounter, RuleParams};
use std::collections::HashSet;
use xiangqi::ByColor;

use board::BoardTracker;
use clock::ClockMirror;
use clock_history::ClockHistory;
use move_limit::DeclaredLimit;
use order::TableOrder;

/// Most clock samples kept per table: the console's table log shows the
/// newest (a screen's worth); every report stays in the store. At 5-9
/// bytes a sample in a buffer that doubles ([`ClockHistory`], issue 40;
/// 40 as the wire's `ClockSample`, 16 in the packed form before) this
/// bounds a hall of 10,000 tables to about 22 MB of clock history, where
/// 1,000 samples a table was most of a long round's growth.
pub const MAX_CLOCK_HISTORY: usize = 256;

/// Most controls kept for a terminal that has not confirmed them (the
/// oldest go first; an arbiter gives a few per game).
pub const MAX_PENDING_CONTROLS: usize = 256;

/// The sealed move of an adjourned game (封棋): never part of any view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// The sealed move.
    pub mv: IccsMove,
    /// The side that wrote it.
    pub writer: Side,
    /// Who sealed the game (audit name).
    pub by: String,
    /// When (server ms).
    pub at_ms: u64,
}

/// An illegal move waiting for its correction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingIllegal {
    /// The move reported.
    pub mv: IccsMove,
    /// Who played it.
    pub by: Side,
    /// The claim raised for it.
    pub claim_id: u64,
}

/// One alert already raised, so that it is not raised again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Raised {
    /// Flag fall of a side.
    Flag(Side),
    /// No-show of a side.
    NoShow(Side),
    /// The natural limit was reached (at this capture-free stretch start ply).
    Limit(usize),
    /// Fouls at the technical threshold.
    TechnicalFouls(Side),
    /// Violations at the threshold.
    Violations(Side),
    /// The terminal was reported offline (for the outage since this time).
    Offline(u64),
    /// A side late at the resumption of an adjourned game (resumed at this time).
    LateResumption(u64, Side),
}

/// The state of one table.
#[derive(Debug, Clone)]
pub struct TableState {
    /// Table number.
    pub table: u16,
    /// Red player's name.
    pub red: String,
    /// Black player's name.
    pub black: String,
    /// Latest epoch stored from the terminal.
    pub epoch: u32,
    /// Highest seq stored in `epoch`.
    pub high_water: u64,
    /// The mirrored clock.
    pub clock: ClockMirror,
    /// A side whose flag fell.
    pub flag: Option<Side>,
    /// The board and its counters.
    pub board: BoardTracker,
    /// Natural-limit counter (rulebook).
    pub limit: LimitCounter,
    /// The declared move limit 限著 (ROC) and its count. Boxed (issue 40):
    /// few tables ever declare one.
    pub move_limit: Option<Box<DeclaredLimit>>,
    /// Incremental repetition checker (rulebook).
    pub repetition: RepetitionWatch,
    /// Position keys whose repetition was already alerted.
    pub repetition_alerted: HashSet<u64>,
    /// Ply of the last third occurrence seen: while the same cycle goes on,
    /// each of its positions reaches a third occurrence in turn, and the
    /// arbiter gets one alert and one claim for the whole cycle, not one per
    /// position.
    pub repetition_last_ply: Option<usize>,
    /// Fouls of each side.
    pub fouls: ByColor<FoulCount>,
    /// Status of the game.
    pub status: TableStatus,
    /// The status to return to after a pause. Boxed (issue 40): held
    /// only while paused, 8 bytes inline rather than 48 at every table.
    pub before_pause: Option<Box<TableStatus>>,
    /// Paused by the hall pause (resumed with the hall).
    pub paused_by_hall: bool,
    /// Whether each side has arrived (Red, Black).
    pub arrived: ByColor<bool>,
    /// Server time of the start (clock started), if started.
    pub started_at_ms: Option<u64>,
    /// The sealed move while adjourned. Boxed (issue 40): held only
    /// while adjourned, 8 bytes inline rather than 40 at every table.
    pub sealed: Option<Box<Sealed>>,
    /// An illegal move not yet corrected.
    pub pending_illegal: Option<PendingIllegal>,
    /// A draw offer standing.
    pub draw_offer: Option<Side>,
    /// The terminal is connected.
    pub online: bool,
    /// Server time the terminal was last heard from (0: never).
    pub last_heard_ms: u64,
    /// Clock samples, oldest first, packed (16 bytes a sample; the wire's
    /// `ClockSample` at the edges).
    pub clock_history: ClockHistory,
    /// Clock samples taken since this state was made (a version of
    /// `clock_history`, for the server's cache of table logs; not stored).
    pub clock_samples: u64,
    /// Alerts raised once only.
    pub raised: HashSet<Raised>,
    /// Controls for the terminal not yet confirmed with `ControlApplied`,
    /// in order: sent live, and again when the terminal (re)connects.
    pub pending_controls: Vec<(u64, ControlToTable)>,
    /// When each side (Red, Black) was first seen at the board: an
    /// `Arrived` report or any report made by that side.
    pub seen_ms: ByColor<Option<u64>>,
    /// Since when the terminal is disconnected (`None`: connected or never seen).
    pub offline_since_ms: Option<u64>,
    /// When the adjourned game was resumed (unsealed), while someone may
    /// still be late for the resumption.
    pub resumed_at_ms: Option<u64>,
    /// When each side was first seen after the resumption.
    pub seen_since_resume: ByColor<Option<u64>>,
    /// The last order given at a repetition (standing, lapsed or repeated).
    /// Boxed (issue 40): its watch is about 700 bytes and few tables ever
    /// get an order, while every table carried the room for one.
    pub order: Option<Box<TableOrder>>,
    /// How many more cycles after an order give the result (config
    /// `[arbitration] cycles_after_order`; one by default, 000 (G)3).
    pub cycles_after_order: rulebook::CyclesAfterOrder,
    /// The mover's remaining time (ms) after each ply's clock press, when
    /// the ply came with the mover's press (`[%clk]` of the records).
    pub ply_clocks: ply_clocks::PlyClocks,
    /// Where the table's public picture stands (the broadcast, `public.rs`).
    pub public: crate::public::PublicMark,
}

impl TableState {
    /// A table before its game starts.
    pub fn new(
        table: u16,
        red: &str,
        black: &str,
        initial_ms: u64,
        increment_ms: u64,
        params: &RuleParams,
    ) -> TableState {
        let board = BoardTracker::default();
        let repetition = RepetitionWatch::new(&board.position, params.rule_set);
        let mut t = TableState {
            table,
            red: red.to_string(),
            black: black.to_string(),
            epoch: 0,
            high_water: 0,
            clock: ClockMirror::new(initial_ms, increment_ms),
            flag: None,
            board,
            limit: LimitCounter::new(),
            move_limit: None,
            repetition,
            repetition_alerted: HashSet::new(),
            repetition_last_ply: None,
            fouls: ByColor::default(),
            status: TableStatus::Waiting,
            before_pause: None,
            paused_by_hall: false,
            arrived: ByColor::default(),
            started_at_ms: None,
            sealed: None,
            pending_illegal: None,
            draw_offer: None,
            online: false,
            last_heard_ms: 0,
            clock_history: ClockHistory::new(),
            clock_samples: 0,
            raised: HashSet::new(),
            pending_controls: Vec::new(),
            seen_ms: ByColor::default(),
            offline_since_ms: None,
            resumed_at_ms: None,
            seen_since_resume: ByColor::default(),
            order: None,
            cycles_after_order: params.cycles_after_order,
            ply_clocks: ply_clocks::PlyClocks::new(),
            public: crate::public::PublicMark {
                version: 0,
                plies: 0,
                clock: ClockState {
                    red_ms: initial_ms,
                    black_ms: initial_ms,
                    running: None,
                },
                status: crate::public::PublicStatus::Waiting,
            },
        };
        t.public = public::mark(&t, 0);
        t
    }

    /// Keeps [`TableState::ply_clocks`] in step with the board after a
    /// record: as many entries as plies, and the mover's time of a ply
    /// that `press` (`by`, Red's and Black's time) played.
    pub fn note_ply_clocks(&mut self, plies_before: usize, press: Option<(Side, u64, u64)>) {
        let plies = self.board.plies();
        self.ply_clocks.resize(plies);
        if plies <= plies_before {
            return;
        }
        if let Some((by, red_ms, black_ms)) = press {
            let first = self.board.start.turn();
            let mover = if plies_before % 2 == 0 {
                first
            } else {
                first.other()
            };
            if convert::side(mover) == by {
                let ms = if by == Side::Red { red_ms } else { black_ms };
                self.ply_clocks.set(plies - 1, ms);
            }
        }
    }

    /// Fouls of `side`.
    pub fn fouls(&self, side: Side) -> FoulCount {
        self.fouls[side]
    }

    /// Mutable fouls of `side`.
    pub fn fouls_mut(&mut self, side: Side) -> &mut FoulCount {
        &mut self.fouls[side]
    }

    /// Notes that `side` is at the board at `now` (first sighting counts).
    pub fn seen(&mut self, side: Side, now: u64) {
        self.seen_ms[side].get_or_insert(now);
        if self.resumed_at_ms.is_some() {
            self.seen_since_resume[side].get_or_insert(now);
        }
    }

    /// The table leaves a pause other than by a resumption (its game
    /// ended, or it was sealed): the status it would have returned to
    /// goes, and the hall's resumption no longer concerns it.
    pub fn pause_left(&mut self) {
        self.before_pause = None;
        self.paused_by_hall = false;
    }

    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        matches!(self.status, TableStatus::Finished { .. })
    }

    /// The clock as the wire shows it.
    pub fn clock_state(&self) -> ClockState {
        let running = if self.clock.paused
            || self.finished()
            || self.sealed.is_some()
            || matches!(self.status, TableStatus::Paused(_))
        {
            None
        } else {
            self.clock.running.map(convert::side)
        };
        ClockState {
            red_ms: self.clock.red_ms,
            black_ms: self.clock.black_ms,
            running,
        }
    }

    /// Records a clock sample.
    pub fn sample_clock(&mut self, at_ms: u64) {
        if self.clock_history.len() >= MAX_CLOCK_HISTORY {
            self.clock_history.pop_front();
        }
        self.clock_samples += 1;
        self.clock_history.push_back(ClockSample {
            at_ms,
            plies: self.board.plies() as u32,
            clock: self.clock_state(),
        });
    }

    /// The console's view of this table (the sealed move is never in it).
    pub fn view(&self, natural_limit_plies: u32, pending_claims: u32) -> TableView {
        TableView {
            table: self.table,
            red: self.red.clone(),
            black: self.black.clone(),
            clock: self.clock_state(),
            clock_at_ms: self.clock.reported_at_ms,
            to_move: convert::side(self.board.turn()),
            flag: self.flag,
            plies: self.board.plies() as u32,
            plies_since_capture: self.board.plies_since_capture,
            natural_limit_plies,
            checks_red: self.board.checks.red,
            checks_black: self.board.checks.black,
            fouls_red: self.fouls.red,
            fouls_black: self.fouls.black,
            pending_claims,
            status: self.status.clone(),
            last_heard_ms: self.last_heard_ms,
            online: self.online,
            last_move: self.board.moves.last().copied().map(convert::wire_move),
            fen: self.board.position.to_fen(),
            moves: self
                .board
                .moves
                .iter()
                .copied()
                .map(convert::wire_move)
                .collect(),
            move_limit: self.move_limit.as_deref().map(DeclaredLimit::view),
            order: self.order.as_deref().and_then(TableOrder::view),
        }
    }

    /// What a (re)connecting terminal needs to resume.
    /// [`TableState::session`] with the running side's time extrapolated
    /// to server time `now_ms`: what a terminal joining the game shows.
    pub fn session_at(&self, now_ms: u64) -> TableSession {
        let mut s = self.session();
        if s.clock.running.is_some() {
            s.clock.red_ms = self.clock.remaining_at(xiangqi::Color::Red, now_ms);
            s.clock.black_ms = self.clock.remaining_at(xiangqi::Color::Black, now_ms);
        }
        s
    }

    pub fn session(&self) -> TableSession {
        TableSession {
            table: self.table,
            red: self.red.clone(),
            black: self.black.clone(),
            epoch: self.epoch,
            high_water: self.high_water,
            clock: self.clock_state(),
            status: self.status.clone(),
            moves: self
                .board
                .moves
                .iter()
                .copied()
                .map(convert::wire_move)
                .collect(),
            move_limit: self.move_limit.as_ref().map(|d| d.wire),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_history_keeps_the_newest_samples() {
        let params = RuleParams::default();
        let mut t = TableState::new(1, "R", "B", 60_000, 0, &params);
        for at in 0..(MAX_CLOCK_HISTORY as u64 * 3) {
            t.sample_clock(at);
        }
        assert_eq!(t.clock_history.len(), MAX_CLOCK_HISTORY);
        assert_eq!(
            t.clock_history.front().map(|s| s.at_ms),
            Some(MAX_CLOCK_HISTORY as u64 * 2)
        );
        assert_eq!(
            t.clock_history.back().map(|s| s.at_ms),
            Some(MAX_CLOCK_HISTORY as u64 * 3 - 1)
        );
    }
}
