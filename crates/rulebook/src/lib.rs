//! Competition rules: AXF 2008 repetition rulings, natural move limit, clocks, fouls, scoring. Pure.
//!
//! # Modules
//!
//! Play and results:
//! - `rule_id`: the ids of the rules cited (`AXF-D1`, `ROC-9`, `CXA-3` ...),
//!   with their titles in Chinese and English.
//! - `ruleset`: the rule sets (AXF, ROC, CXA) and where they differ.
//! - `clock`: time controls (用时规定), the clock of record, report checks;
//!   `clock_text`: a time as a clock shows it (`1:20:00`, `4:12`).
//! - `fouls`: fouls and their escalation (犯规), attendance, draw offers.
//! - `limit`: the natural move limit (自然限着).
//! - `roc_limit`: the ROC declared move limit (限著).
//! - `scoring`: game and match points.
//! - `standings`, `team_standings`: individual and team tables with their
//!   tie-breaks.
//!
//! Repetition (棋例):
//! - `classify`: what one move is (将, 杀, 捉, 兑, 拦, 献, 闲 ...), built on
//!   `chase` (捉), `threat` (杀, 要抽吃), `protection` (有根) and `value`
//!   (piece values).
//! - `cycle`: finding the repeated cycle from position hashes.
//! - `pattern`: a side's pattern over a cycle (长将, 长捉 ...).
//! - `explain`: a ruling's explanation as data (an id and typed facts).
//! - `ruling`: the ruling on a cycle, with its citations (`citation`,
//!   `cite_cxa`, `cite_roc`, private) and wording (`names`, private).
//! - `reread`: the second reading (复核) when the arbiter judges intent.
//! - `procedure`: what follows a ruling (裁决程序): the order to change.
//! - `repetition`: replaying a game to a ruling; the move-by-move watch.
//! - `scan`: a whole game scanned for alerts as the server would see them.
//! - `adjudicate`: the JSON-lines engine of `caipan adjudicate`, writing
//!   its common answer through `ruling_line` (private).

// Non-repetition half: rule ids, rule sets, natural limit, clocks, fouls, scoring, standings.
pub mod clock;
pub mod clock_text;
pub mod fouls;
pub mod limit;
pub mod roc_limit;
pub mod rule_id;
pub mod ruleset;
pub mod scoring;
pub mod standings;
mod standings_fide;
pub mod team_standings;

pub use clock::{
    check_report, check_report_times, Clock, ClockAnomaly, ClockEvent, ClockReport, ClockView,
    Flag, TimeControl, TimeControlConfig,
};
pub use clock_text::{clock_text, ClockForm};
pub use fouls::{DrawOffers, Escalation, FoulKind, FoulLedger};
pub use limit::{judge_claim, limit_reached, ClaimVerdict, LimitCounter, PlyFact};
pub use rule_id::RuleId;
pub use ruleset::{RuleParams, RuleSet, RulesConfig};
pub use scoring::{GameResult, Outcome};
pub use standings::{
    standings, standings_with, GameRecord, StandingRow, StandingsConfig, StandingsExtra, TieBreak,
    UnplayedRound,
};
pub use team_standings::{team_standings, TeamMatchRecord, TeamRow};

// Repetition half (棋例): move classification, cycles, patterns, rulings, adjudication.
pub mod adjudicate;
pub mod chase;
mod citation;
mod cite_cxa;
mod cite_roc;
pub mod classify;
pub mod cycle;
pub mod explain;
mod names;
pub mod pattern;
pub mod procedure;
pub mod protection;
pub mod repetition;
mod reread;
pub mod ruling;
mod ruling_line;
pub mod scan;
pub mod threat;
pub mod value;

pub use adjudicate::adjudicate_line;
pub use procedure::{
    CyclesAfterOrder, Lapse, Order, OrderError, OrderState, OrderWatch, Procedure,
};
pub use repetition::{judge_cycle, judge_game, RepetitionAlert, RepetitionWatch};
pub use ruling::{Ruling, Verdict};
