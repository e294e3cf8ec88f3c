//! Competition rules: AXF 2008 repetition rulings, natural move limit, clocks, fouls, scoring. Pure.

// Non-repetition half: rule ids, rule sets, natural limit, clocks, fouls, scoring, standings.
pub mod clock;
pub mod fouls;
pub mod limit;
pub mod roc_limit;
pub mod rule_id;
pub mod ruleset;
pub mod scoring;
pub mod standings;
pub mod team_standings;

pub use clock::{
    check_report, Clock, ClockAnomaly, ClockEvent, ClockReport, ClockView, Flag, TimeControl,
    TimeControlConfig,
};
pub use fouls::{DrawOffers, Escalation, FoulKind, FoulLedger};
pub use limit::{judge_claim, limit_reached, ClaimVerdict, LimitCounter, PlyFact};
pub use rule_id::RuleId;
pub use ruleset::{RuleParams, RuleSet, RulesConfig};
pub use scoring::{GameResult, Outcome};
pub use standings::{standings, GameRecord, StandingRow, StandingsConfig, TieBreak};
pub use team_standings::{team_standings, TeamMatchRecord, TeamRow};

// Repetition half (棋例): move classification, cycles, patterns, rulings, adjudication.
pub mod adjudicate;
pub mod chase;
mod citation;
mod cite_cxa;
mod cite_roc;
pub mod classify;
pub mod cycle;
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
pub use procedure::{CyclesAfterOrder, Lapse, Order, OrderState, OrderWatch, Procedure};
pub use repetition::{judge_cycle, judge_game, RepetitionAlert, RepetitionWatch};
pub use ruling::{Ruling, Verdict};
