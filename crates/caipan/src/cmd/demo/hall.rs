//! The demo hall's config (演示赛场配置): config/hall.toml, embedded in the
//! binary so that `caipan demo` works from any folder, cut down to the first
//! N tables and served on 127.0.0.1 at a free port.
//!
//! The cut is made on the TOML text (round tables, deputies' assigned
//! tables and explicit table credentials beyond N are dropped; a deputy
//! left without a table is dropped), then the text is validated like any
//! hall config. The same text is what the server's config copy in the data
//! dir is made from, so `caipan export` sees exactly the hall that played.
//!
//! `--rules axf|roc|cxa` sets the rule set and drops the embedded config's
//! `[natural_limit]` overrides, which are the AXF values (AXF-LIMIT-1's 100
//! plies, AXF-LIMIT-2's cap of 10 checks): a ROC or CXA demo runs with its
//! own rule set's limit, as a hall of that rule set would.
//!
//! The rounds' `start` times are dropped: the example's round starts at
//! 09:00 on a fixed date, and a demo run later than 09:30 would raise a
//! no-show (AXF-FORFEIT-1) at every table. Without a start time the server
//! runs each table's no-show clock from the moment the table started.

use anyhow::{bail, Context};
use config::HallConfig;
use rulebook::RuleSet;
use std::path::Path;

/// config/hall.toml as it was at build time.
pub const HALL_TOML: &str = include_str!("../../../../../config/hall.toml");

/// The demo hall: its config text (what the server was given) and the
/// validated config.
pub struct DemoHall {
    pub text: String,
    pub config: HallConfig,
}

/// Table numbers in the embedded config's current round.
pub fn max_tables() -> anyhow::Result<usize> {
    let config = HallConfig::from_toml_str(HALL_TOML, Path::new("."), &|_| None)
        .context("the embedded config/hall.toml")?;
    Ok(config.current_round().tables.len())
}

/// The embedded hall limited to tables `1..=tables`, listening on
/// 127.0.0.1 at a port the system picks, under `rules` (the embedded
/// config's rule set when `None`).
pub fn demo_hall(tables: u32, data_dir: &Path, rules: Option<RuleSet>) -> anyhow::Result<DemoHall> {
    let mut doc: toml::Table = HALL_TOML
        .parse()
        .context("the embedded config/hall.toml is not TOML")?;
    limit_tables(&mut doc, tables)?;
    if let Some(rules) = rules {
        set_rules(&mut doc, rules);
    }
    let server = doc
        .entry("server")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    let Some(server) = server.as_table_mut() else {
        bail!("the embedded config's `server` is not a table");
    };
    server.insert("listen".into(), toml::Value::String("127.0.0.1:0".into()));
    // The data dir comes from the command line.
    server.remove("data_dir");
    let text = toml::to_string(&doc).context("writing the demo config")?;
    let config = HallConfig::from_toml_str(&text, data_dir, &|_| None)
        .map_err(|e| anyhow::anyhow!("the demo config does not validate:\n{e}"))?;
    Ok(DemoHall { text, config })
}

/// Sets the rule set; a rule set other than the embedded config's drops
/// the config's natural-limit overrides (they are that rule set's values).
fn set_rules(doc: &mut toml::Table, rules: RuleSet) {
    let embedded = doc.get("rules").and_then(toml::Value::as_str);
    if embedded != Some(rules.name()) {
        doc.remove("natural_limit");
    }
    doc.insert("rules".into(), toml::Value::String(rules.name().into()));
}

fn table_number(v: &toml::Value) -> Option<i64> {
    v.get("table").and_then(toml::Value::as_integer)
}

/// Drops every table above `n` from the rounds and the credentials.
fn limit_tables(doc: &mut toml::Table, n: u32) -> anyhow::Result<()> {
    let n = i64::from(n);
    if let Some(rounds) = doc.get_mut("round").and_then(toml::Value::as_array_mut) {
        for round in rounds.iter_mut() {
            if let Some(r) = round.as_table_mut() {
                r.remove("start");
            }
            if let Some(tables) = round.get_mut("table").and_then(toml::Value::as_array_mut) {
                tables.retain(|t| table_number(t).is_some_and(|x| x <= n));
            }
        }
    }
    let Some(creds) = doc
        .get_mut("credentials")
        .and_then(toml::Value::as_table_mut)
    else {
        bail!("the embedded config has no [credentials]");
    };
    if let Some(deputies) = creds.get_mut("deputy").and_then(toml::Value::as_array_mut) {
        for d in deputies.iter_mut() {
            if let Some(tables) = d.get_mut("tables").and_then(toml::Value::as_array_mut) {
                tables.retain(|t| t.as_integer().is_some_and(|x| x <= n));
            }
        }
        deputies.retain(|d| {
            d.get("tables")
                .and_then(toml::Value::as_array)
                .is_some_and(|t| !t.is_empty())
        });
        if deputies.is_empty() {
            creds.remove("deputy");
        }
    }
    if let Some(tables) = creds.get_mut("table").and_then(toml::Value::as_array_mut) {
        tables.retain(|t| table_number(t).is_some_and(|x| x <= n));
        if tables.is_empty() {
            creds.remove("table");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_hall_has_forty_tables() {
        assert_eq!(max_tables().unwrap(), 40);
    }

    #[test]
    fn cut_to_eight_tables_on_a_free_loopback_port() {
        let hall = demo_hall(8, Path::new("/nonexistent"), None).unwrap();
        let c = &hall.config;
        assert_eq!(c.current_round().tables.len(), 8);
        assert_eq!(c.server.listen.to_string(), "127.0.0.1:0");
        assert_eq!(c.credentials.tables.len(), 8);
        // Deputy B had tables 21..=40: gone; deputy A keeps 1..=8.
        assert_eq!(c.credentials.deputies.len(), 1);
        assert_eq!(c.credentials.deputies[0].tables.len(), 8);
        // Same hall as the full config.
        let full = HallConfig::from_toml_str(HALL_TOML, Path::new("."), &|_| None).unwrap();
        assert_eq!(c.hall_id(), full.hall_id());
        assert_eq!(c.pairing(3).unwrap().red, full.pairing(3).unwrap().red);
        // No fixed start time: no no-show at a demo run in the evening.
        assert_eq!(c.round_start_ms(), None);
    }

    #[test]
    fn another_rule_set_drops_the_axf_limit_overrides() {
        let axf = demo_hall(4, Path::new("."), None).unwrap().config;
        assert_eq!(axf.rules, RuleSet::Axf);
        for rules in [RuleSet::Roc, RuleSet::Cxa] {
            let c = demo_hall(4, Path::new("."), Some(rules)).unwrap().config;
            assert_eq!(c.rules, rules);
            // The rule set's own natural limit, not the embedded AXF values.
            assert_eq!(c.rule_params.limit, rules.params().limit, "{rules}");
            assert_eq!(c.hall_id(), axf.hall_id());
        }
        assert_ne!(RuleSet::Roc.params().limit, axf.rule_params.limit);
        // --rules axf keeps the embedded config as it is.
        let same = demo_hall(4, Path::new("."), Some(RuleSet::Axf)).unwrap();
        assert_eq!(same.config.rule_params, axf.rule_params);
    }

    #[test]
    fn all_forty_keep_both_deputies() {
        let hall = demo_hall(40, Path::new("."), None).unwrap();
        assert_eq!(hall.config.credentials.deputies.len(), 2);
        assert_eq!(hall.config.current_round().tables.len(), 40);
    }
}
