//! Rebuilding the hall from the store on start (重建): the hall is built
//! from the config, then every stored record is applied in store order with
//! the time it was received, exactly as the pipeline applied it live, so the
//! rebuilt state equals the state before the stop or crash.
//!
//! Also builds the hall from the config: tables and pairings of the current
//! round, the time control and the rule parameters.

use std::collections::HashMap;

use proto::{ClockStage, HallInfo, TimeControl as WireTc};
use rulebook::TimeControl;

use crate::config::{HallConfig, RuleSet};
use crate::hall::Hall;
use crate::journal::{Journal, JournalError};
use crate::record::Record;

/// The hall of a config, before any record.
pub fn hall_from_config(config: &HallConfig) -> Hall {
    let (wire_tc, initial_ms, increment_ms) = time_control(&config.time_control);
    let params = config.rule_params;
    let info = HallInfo {
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
    let mut hall = Hall::new(info, params, &tables, initial_ms, increment_ms);
    hall.timings = config.alerts;
    for t in hall.tables.values_mut() {
        t.clock.control = config.time_control.clone();
    }
    hall.round_start_ms = config.round_start_ms();
    hall
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

/// What a rebuild found.
#[derive(Debug, Default)]
pub struct Rebuilt {
    /// Records applied.
    pub records: u64,
    /// Records that could not be decoded (skipped, logged).
    pub corrupt: u64,
    /// Each table's high-water mark `(epoch, seq)`.
    pub high_water: HashMap<u16, (u32, u64)>,
}

/// Applies every stored record to `hall` in store order.
pub fn replay(journal: &mut dyn Journal, hall: &mut Hall) -> Result<Rebuilt, JournalError> {
    let mut out = Rebuilt::default();
    journal.replay(&mut |at, body| match Record::decode(body) {
        Ok(rec) => {
            if let Record::Event(env) = &rec {
                let hw = out.high_water.entry(env.table).or_insert((0, 0));
                if (env.epoch, env.seq) > *hw {
                    *hw = (env.epoch, env.seq);
                }
            }
            let _ = hall.apply(&rec, at);
            // Effects of a replay are not published: consoles get a snapshot.
            let _ = hall.take_effects();
            out.records += 1;
        }
        Err(e) => {
            tracing::error!(error = %e, "stored record does not decode; skipped");
            out.corrupt += 1;
        }
    })?;
    Ok(out)
}
