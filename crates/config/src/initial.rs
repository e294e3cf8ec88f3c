//! The hall a config describes, before any record: tables and pairings of
//! the current round, the time control (wire form, initial time and
//! increment: `proto::convert::wire_time_control`), the rule parameters,
//! the alert timings and the round start.
//! The server's restart and the export both start from it.

use hall::{Hall, HallSetup};
use proto::convert::wire_time_control;
use proto::HallInfo;

use crate::{HallConfig, RuleSet};

/// The hall of a config, before any record.
pub fn hall_from_config(config: &HallConfig) -> Hall {
    let (wire_tc, initial_ms, increment_ms) = wire_time_control(&config.time_control);
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
        language: config.tournament.language.map(|l| l.tag().to_string()),
    };
    let round = config.current_round();
    let tables: Vec<(u16, String, String)> = round
        .tables
        .iter()
        .filter_map(|p| match u16::try_from(p.table) {
            Ok(t) => Some((t, p.red.clone(), p.black.clone())),
            Err(_) => {
                // Validation refuses such a table (validate::MAX_TABLE);
                // a config built without it must not lose one unsaid.
                tracing::error!(
                    table = p.table,
                    round = round.number,
                    max = crate::validate::MAX_TABLE,
                    "a table number over the wire's range: this table is not in the hall"
                );
                None
            }
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
