//! The hall a config describes, before any record: tables and pairings of
//! the current round, the time control (wire form, initial time and
//! increment), the rule parameters, the alert timings and the round start.
//! The server's restart and the export both start from it.

use hall::{Hall, HallSetup};
use proto::{ClockStage, HallInfo, TimeControl as WireTc};
use rulebook::TimeControl;

use crate::{HallConfig, RuleSet};

/// The hall of a config, before any record.
pub fn hall_from_config(config: &HallConfig) -> Hall {
    let (wire_tc, initial_ms, increment_ms) = time_control(&config.time_control);
    let params = config.rule_params;
    let info = HallInfo {
        hall_id: config.hall_id(),
        tournament: config.tournament.name.clone(),
        round: config.tournament.current_round,
        rule_set: match config.rules {
            RuleSet::Axf => "AXF-2008".into(),
            RuleSet::Roc => "ROC".into(),
            RuleSet::Cxa => "CXA".into(),
        },
        time_control: wire_tc,
        natural_limit_plies: params.limit.required_plies,
    };
    let tables: Vec<(u16, String, String)> = config
        .current_round()
        .tables
        .iter()
        .filter_map(|p| {
            u16::try_from(p.table)
                .ok()
                .map(|t| (t, p.red.clone(), p.black.clone()))
        })
        .collect();
    Hall::new(HallSetup {
        info,
        params,
        tables,
        initial_ms,
        increment_ms,
        time_control: config.time_control.clone(),
        timings: config.alerts,
        round_start_ms: config.round_start_ms(),
    })
}

/// The wire time control, the initial time and the increment (ms).
pub fn time_control(tc: &TimeControl) -> (WireTc, u64, u64) {
    match tc {
        TimeControl::Fischer {
            base_ms,
            increment_ms,
        } => (
            WireTc::Fischer {
                base_ms: *base_ms,
                increment_ms: *increment_ms,
            },
            *base_ms,
            *increment_ms,
        ),
        TimeControl::Traditional(t) => {
            let stages: Vec<ClockStage> = t
                .periods
                .iter()
                .map(|p| ClockStage {
                    moves: p.moves,
                    cumulative_ms: p.by_ms,
                })
                .collect();
            let initial = stages.first().map(|s| s.cumulative_ms).unwrap_or(0);
            let (then_moves, then_ms) = t.block.map(|b| (b.moves, b.ms)).unwrap_or((0, 0));
            (
                WireTc::Traditional {
                    stages,
                    then_moves,
                    then_ms,
                },
                initial,
                0,
            )
        }
    }
}
