//! A hall to test with (测试大厅): the one fixture the hall's own tests,
//! the console's roles test and the fuzz target build their hall from,
//! so that what a test hall is made of is written once. Plain data, no
//! I/O; the defaults are a two-table AXF round at ten minutes a side.

use proto::{HallInfo, TimeControl};
use rulebook::RuleParams;

use crate::alerts::AlertTimings;
use crate::hall::{Hall, HallSetup};

/// What the test hall is made of; [`Fixture::hall`] builds it.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The rule parameters.
    pub params: RuleParams,
    /// The rule set's name in the hall's facts (`AXF-2008`, `ROC`, …).
    pub rule_set: String,
    /// Each side's time at the start (ms).
    pub base_ms: u64,
    /// The increment after each move (ms).
    pub increment_ms: u64,
    /// The tables: number, Red, Black.
    pub tables: Vec<(u16, String, String)>,
}

impl Default for Fixture {
    /// AXF rules, Fischer 10 min + 0, tables 1 (甲–乙) and 2 (丙–丁).
    fn default() -> Fixture {
        Fixture {
            params: RuleParams::default(),
            rule_set: "AXF-2008".into(),
            base_ms: 600_000,
            increment_ms: 0,
            tables: vec![
                (1, "甲".to_string(), "乙".to_string()),
                (2, "丙".to_string(), "丁".to_string()),
            ],
        }
    }
}

impl Fixture {
    /// Under other rules, named `rule_set` in the hall's facts.
    pub fn rules(mut self, params: RuleParams, rule_set: &str) -> Fixture {
        self.params = params;
        self.rule_set = rule_set.to_string();
        self
    }

    /// With a Fischer clock of `base_ms` and `increment_ms`.
    pub fn clock(mut self, base_ms: u64, increment_ms: u64) -> Fixture {
        self.base_ms = base_ms;
        self.increment_ms = increment_ms;
        self
    }

    /// With these tables (number, Red, Black).
    pub fn tables(mut self, tables: &[(u16, &str, &str)]) -> Fixture {
        self.tables = tables
            .iter()
            .map(|&(n, r, b)| (n, r.to_string(), b.to_string()))
            .collect();
        self
    }

    /// The hall, every game waiting.
    pub fn hall(&self) -> Hall {
        let info = HallInfo {
            hall_id: "0123456789abcdef".into(),
            tournament: "t".into(),
            round: 1,
            rule_set: self.rule_set.clone(),
            time_control: TimeControl::Fischer {
                base_ms: self.base_ms,
                increment_ms: self.increment_ms,
            },
            natural_limit_plies: 120,
            language: None,
        };
        Hall::new(HallSetup {
            info,
            params: self.params,
            tables: self.tables.clone(),
            initial_ms: self.base_ms,
            increment_ms: self.increment_ms,
            time_control: rulebook::TimeControl::Fischer {
                base_ms: self.base_ms,
                increment_ms: self.increment_ms,
            },
            timings: AlertTimings::default(),
            round_start_ms: None,
        })
    }
}
