//! One tournament across its halls (一赛多厅): the export of a tournament
//! whose halls share one PostgreSQL database (`caipan export --store URL
//! --tournament ID`). Each hall's server keeps, with the hall, the
//! secret-free copy of its config and where each round started in its log
//! (`store/postgres/schema.rs`); here every hall of the tournament is read
//! ([`load`]), each hall's games are rebuilt from its own log with its own
//! config, and the results, standings and TRF are rendered once for the
//! whole tournament from a config whose rounds hold every hall's tables
//! ([`merged_config`]; a table number found in two halls of one round is
//! an error: table numbers are unique within a tournament, checked by
//! [`tables_by_round`], which the server also runs at start).
//!
//! A hall's log is read whole into memory (paged from the database): a
//! hall of 300 boards plays well under a million rows a day.

use std::collections::BTreeMap;

use super::game::{replay_round, RawRecord};
use super::{
    render_games, stored::RoundStart, ExportError, Format, PlayedGame, RenderOptions, Rendered,
};
use config::HallConfig;
use store::{LogEntry, PgDatabase};

/// One hall of the tournament as the database holds it.
#[derive(Debug)]
pub struct HallRecord {
    /// The hall's id (`[store] hall`).
    pub hall_id: String,
    /// Its config, from the copy its server kept.
    pub config: HallConfig,
    /// Where its rounds started, in start order.
    pub rounds: Vec<RoundStart>,
    /// Its log: `(gseq, received at ms, record)`, in `gseq` order.
    pub log: Vec<RawRecord>,
}

impl HallRecord {
    /// The `gseq` range of `round` in this hall (the last start counts).
    fn range(&self, round: u32) -> Option<(u64, Option<u64>)> {
        let i = self.rounds.iter().rposition(|r| r.round == round)?;
        let end = self.rounds.get(i + 1).map(|r| r.first_gseq);
        Some((self.rounds[i].first_gseq, end))
    }

    /// The games of `round` played in this hall (none when the hall did
    /// not play it).
    pub fn games(&self, round: u32) -> Result<Vec<PlayedGame>, ExportError> {
        self.games_in(round, None)
    }

    /// [`HallRecord::games`] with the alerts' and rulings' words of the
    /// PGN comments in `lang` (the export's `--lang`) over the hall's own
    /// language ([`RenderOptions::config_for`]).
    pub fn games_in(
        &self,
        round: u32,
        lang: Option<i18n::Lang>,
    ) -> Result<Vec<PlayedGame>, ExportError> {
        let Some((start, end)) = self.range(round) else {
            return Ok(Vec::new());
        };
        if self.config.round(round).is_none() {
            return Ok(Vec::new());
        }
        let records = self
            .log
            .iter()
            .filter(|(g, _, _)| *g >= start && end.is_none_or(|e| *g < e))
            .cloned();
        let options = RenderOptions {
            lang,
            ..RenderOptions::default()
        };
        let config = options.config_for(&self.config);
        let (mut games, stats) = replay_round(&config, round, records)?;
        // The results corrected after the round (stored later in this hall).
        let later = self
            .log
            .iter()
            .filter(|(g, _, _)| end.is_some_and(|e| *g >= e));
        crate::corrections::apply(&mut games, &crate::corrections::collect(round, later));
        if !stats.quarantined.is_empty() {
            tracing::warn!(hall = %self.hall_id, round, gseq = ?stats.quarantined, "records the server set aside (quarantined) are left out of the export");
        }
        Ok(games)
    }
}

/// Reads every hall of `tournament` from the database.
pub async fn load(db: &PgDatabase, tournament: &str) -> Result<Vec<HallRecord>, ExportError> {
    let configs = load_configs(db, tournament).await?;
    if configs.is_empty() {
        let known: Vec<String> = db
            .halls()
            .await?
            .into_iter()
            .filter_map(|(_, t)| t)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        return Err(ExportError::Config(format!(
            "no hall of tournament {tournament:?} in the database (tournaments there: {})",
            if known.is_empty() {
                "none".into()
            } else {
                known.join(", ")
            }
        )));
    }
    let mut halls = Vec::new();
    for (hall_id, config) in configs {
        let config = config.ok_or_else(|| {
            ExportError::Config(format!(
                "hall {hall_id} has no config copy in the database (its server never started with this build)"
            ))
        })?;
        halls.push(hall_record(db, hall_id, config).await?);
    }
    Ok(halls)
}

/// Each hall of `tournament` with the config its server kept at its last
/// start (`None`: it kept none: its server never started with this
/// build), by hall id.
pub async fn load_configs(
    db: &PgDatabase,
    tournament: &str,
) -> Result<Vec<(String, Option<HallConfig>)>, ExportError> {
    let mut configs = Vec::new();
    for hall_id in db.tournament_halls(tournament).await? {
        let config = match db.config_copy(&hall_id).await? {
            Some(text) => Some(
                HallConfig::from_toml_str(&text, std::path::Path::new("."), &|_| None).map_err(
                    |e| ExportError::Config(format!("hall {hall_id}'s config copy: {e}")),
                )?,
            ),
            None => None,
        };
        configs.push((hall_id, config));
    }
    Ok(configs)
}

/// Hall `hall_id`'s round starts and log, read with `config` (its copy in
/// the database, or the running server's own), with the rounds the hall
/// published in its log added to `config` (`crate::published`: the copy
/// holds the config file's rounds only).
pub async fn hall_record(
    db: &PgDatabase,
    hall_id: String,
    mut config: HallConfig,
) -> Result<HallRecord, ExportError> {
    let rounds = db
        .round_starts(&hall_id)
        .await?
        .into_iter()
        .map(|(round, first_gseq)| RoundStart {
            round,
            first_gseq,
            withdrawn_at: None,
        })
        .collect();
    let mut publishing = Vec::new();
    let log = db
        .hall(&hall_id)
        .log_after(0)
        .await?
        .into_iter()
        .map(|e| match e {
            LogEntry::Event(ev) => (ev.gseq, ev.received_at_ms.max(0) as u64, ev.payload),
            LogEntry::Audit(a) => {
                if store::is_publish_action(&a) {
                    publishing.push(a.clone());
                }
                (a.id, a.record.at_ms.max(0) as u64, a.record.payload)
            }
        })
        .collect();
    let published = crate::published::read(&publishing)?;
    crate::published::apply(&mut config, &published);
    // The players the pairing hall entered late or withdrew.
    let players = crate::published::players(&publishing)?;
    crate::published::apply_players(&mut config, &players);
    Ok(HallRecord {
        hall_id,
        config,
        rounds,
        log,
    })
}

/// The tables of each round across `halls` (hall id, config), by round
/// and table number, each with the hall that plays it. Fails when a table
/// number of a round is in two halls (table numbers are unique within a
/// tournament), naming the round, the table and both halls (the earlier
/// in `halls` first).
pub fn tables_by_round<'a>(
    halls: &[(&'a str, &'a HallConfig)],
) -> Result<TablesByRound<'a>, ExportError> {
    let mut rounds = TablesByRound::new();
    for (hall_id, config) in halls {
        for r in &config.rounds {
            let tables = rounds.entry(r.number).or_default();
            for p in &r.tables {
                if let Some((other, _)) = tables.get(&p.table) {
                    return Err(ExportError::Config(format!(
                        "round {}: table {} is in hall {other} and in hall {hall_id} (table numbers must be unique within the tournament)",
                        r.number, p.table
                    )));
                }
                tables.insert(p.table, (hall_id, p));
            }
        }
    }
    Ok(rounds)
}

/// What [`tables_by_round`] returns: round → table → (hall id, pairing).
pub type TablesByRound<'a> = BTreeMap<u32, BTreeMap<u32, (&'a str, &'a config::Pairing)>>;

/// The tournament's config: the first hall's, with every round holding the
/// tables of every hall (by table number) and every hall's late entries
/// and withdrawals of players (the pairing hall's: it enters and withdraws
/// players for the tournament). Fails when a table number of a round is
/// in two halls.
pub fn merged_config(halls: &[HallRecord]) -> Result<HallConfig, ExportError> {
    let first = halls
        .first()
        .ok_or_else(|| ExportError::Config("no hall".into()))?;
    let named: Vec<(&str, &HallConfig)> = halls
        .iter()
        .map(|h| (h.hall_id.as_str(), &h.config))
        .collect();
    let rounds = tables_by_round(&named)?;
    let mut dates: BTreeMap<u32, (Option<String>, Option<String>)> = BTreeMap::new();
    for h in halls {
        for r in &h.config.rounds {
            dates
                .entry(r.number)
                .or_insert((r.date.clone(), r.start.clone()));
        }
    }
    let mut config = first.config.clone();
    for h in &halls[1..] {
        let t = &mut config.tournament;
        for p in &h.config.tournament.late_entries {
            let key = config::Tournament::entry_key(p);
            if !t
                .late_entries
                .iter()
                .any(|q| config::Tournament::entry_key(q) == key)
            {
                t.late_entries.push(p.clone());
            }
        }
        for w in &h.config.tournament.withdrawals {
            if !t.withdrawals.iter().any(|(k, _)| *k == w.0) {
                t.withdrawals.push(w.clone());
            }
        }
    }
    config.rounds = rounds
        .into_iter()
        .map(|(number, tables)| {
            let (date, start) = dates.remove(&number).unwrap_or_default();
            config::Round {
                number,
                date,
                start,
                tables: tables.into_values().map(|(_, p)| p.clone()).collect(),
            }
        })
        .collect();
    Ok(config)
}

/// The games of `round` in every hall, by table, their PGN comments in
/// `lang` when one is given (else each hall's own language).
pub fn round_games(
    halls: &[HallRecord],
    round: u32,
    lang: Option<i18n::Lang>,
) -> Result<Vec<PlayedGame>, ExportError> {
    let mut games = Vec::new();
    for h in halls {
        games.extend(h.games_in(round, lang)?);
    }
    games.sort_by_key(|g| g.pairing.table);
    Ok(games)
}

/// Every game of rounds up to `round` in every hall, and the rounds of the
/// tournament's config no hall played (left out of the standings);
/// `lang` as in [`round_games`].
pub fn event_games(
    halls: &[HallRecord],
    config: &HallConfig,
    round: u32,
    lang: Option<i18n::Lang>,
) -> Result<(Vec<PlayedGame>, Vec<u32>), ExportError> {
    let mut numbers: Vec<u32> = config
        .rounds
        .iter()
        .map(|r| r.number)
        .filter(|n| *n <= round)
        .collect();
    numbers.sort_unstable();
    let mut games = Vec::new();
    let mut missing = Vec::new();
    for n in numbers {
        if halls.iter().any(|h| h.range(n).is_some()) {
            games.extend(round_games(halls, n, lang)?);
        } else {
            missing.push(n);
        }
    }
    Ok((games, missing))
}

/// Renders round `round` of the whole tournament in `format`.
pub fn render(
    halls: &[HallRecord],
    round: u32,
    format: Format,
    options: RenderOptions,
) -> Result<Rendered, ExportError> {
    let config = merged_config(halls)?;
    if config.round(round).is_none() {
        return Err(ExportError::NoRound {
            round,
            detail: "no hall's config has this [[round]]".into(),
        });
    }
    if !halls.iter().any(|h| h.range(round).is_some()) {
        return Err(ExportError::NoRound {
            round,
            detail: "no hall of the tournament started this round".into(),
        });
    }
    let games = round_games(halls, round, options.lang)?;
    render_games(&config, round, format, options, &games, || {
        event_games(halls, &config, round, options.lang)
    })
}
