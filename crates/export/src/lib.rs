//! Post-round export (赛后导出): results, game records, standings, a
//! TRF-16-style report and a static HTML page, read from a hall's data dir
//! (read-only, also while the server runs).
//!
//! - [`stored`]: the config copy and round boundaries the server keeps in
//!   the data dir ([`stored::note_hall_start`] must be called by the server
//!   at start), and [`stored::load_hall`].
//! - [`published`]: the rounds published from the console, read from the
//!   store and added to the config the hall is built from.
//! - [`game`]: rebuilds each game of a round with the server's own state
//!   machine ([`game::PlayedGame`]); [`corrections`]: the results the chief
//!   corrected after the round (stored later) set on its games.
//! - [`results`]: the results table (CSV and JSON); [`pgn`]: one PGN per game
//!   (xqbase convention, `[%clk]` stamps, arbiter notes); [`standings`]:
//!   individual standings with the AXF tie-breaks and team match scores;
//!   [`trf`]: the TRF-16-style report; [`html`]: standings and crosstable page;
//!   [`pairings`]: a round's pairings to print (A4, by table and by name);
//!   [`words`]: the pages' words in the hall's language
//!   ([`RenderOptions::lang`] or `[tournament] language`; none: as before).
//!
//! [`tournament`]: one tournament across the halls of a PostgreSQL
//! database, exported as one.
//!
//! [`load_round`] and [`load_event`] are the entry points for the
//! `caipan export` command and the tests; the console's `ExportRound`
//! (every format of the current round into the data dir) is the server's
//! (`server::export::command`), since it runs inside the server.
//!
//! Dependencies: config, store (read-only), hall (each game is replayed by
//! the hall's own state machine), proto (plain data), rulebook, xiangqi.
//! No quinn: `cargo tree -p caipan-export -e normal` shows none (checked
//! in `.ci/run`).

pub mod corrections;
pub mod game;
pub mod html;
pub mod pairings;
pub mod pgn;
pub mod published;
pub mod results;
pub mod standings;
pub mod stored;
pub mod tournament;
pub mod trf;
pub mod words;

use std::path::Path;

use config::HallConfig;
use store::{LogEntry, StoreError, StoreReader};

pub use game::{EndReason, GameEnd, PlayedGame};

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Reading or writing a file.
    #[error("{0}")]
    Io(String),
    /// The hall config (missing, invalid, or of another hall).
    #[error("hall config: {0}")]
    Config(String),
    /// The store.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The round is not configured or not in the data dir.
    #[error("round {round}: {detail}")]
    NoRound {
        /// The round asked for.
        round: u32,
        /// Why it cannot be exported.
        detail: String,
    },
    /// The standings input is inconsistent.
    #[error("standings: {0}")]
    Standings(String),
    /// A TRF would hold a blank result: games of these rounds are not over.
    #[error(
        "a TRF never holds a blank result, and these games are not finished: {}; \
         rule them first, or leave those rounds out with --allow-unfinished",
        unfinished_list(.0)
    )]
    Unfinished(Vec<(u32, Vec<u32>)>),
    /// A stored record does not decode (and the server did not set it
    /// aside): the exported games would differ from what was played.
    #[error("{0}; the round cannot be exported as it was played")]
    Undecodable(String),
}

impl From<hall::replay::ReplayError> for ExportError {
    fn from(e: hall::replay::ReplayError) -> Self {
        ExportError::Undecodable(e.to_string())
    }
}

fn unfinished_list(rounds: &[(u32, Vec<u32>)]) -> String {
    rounds
        .iter()
        .map(|(round, tables)| {
            let t: Vec<String> = tables.iter().map(u32::to_string).collect();
            format!("round {round} table {}", t.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Choices of an export beyond its format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// TRF: leave out the rounds with unfinished games instead of refusing.
    pub allow_unfinished: bool,
    /// The export's language (`caipan export --lang`), over the hall's
    /// (`[tournament] language`); with neither, every format is worded as
    /// before the hall had a language.
    pub lang: Option<i18n::Lang>,
}

impl RenderOptions {
    /// The language the export is worded in: `lang`, else the hall's.
    pub fn language(&self, config: &HallConfig) -> Option<i18n::Lang> {
        self.lang.or(config.tournament.language)
    }

    /// `config` with `lang` as the hall's language when one is given (the
    /// games are then replayed with their alerts and rulings in it, for
    /// the PGN comments: [`game::replay_round`]).
    pub fn config_for<'a>(&self, config: &'a HallConfig) -> std::borrow::Cow<'a, HallConfig> {
        match self.lang {
            Some(l) if config.tournament.language != Some(l) => {
                let mut c = config.clone();
                c.tournament.language = Some(l);
                std::borrow::Cow::Owned(c)
            }
            _ => std::borrow::Cow::Borrowed(config),
        }
    }
}

/// The games of round `round` rebuilt from the store in `data_dir`.
pub fn load_round(
    data_dir: &Path,
    config: &HallConfig,
    round: u32,
) -> Result<Vec<PlayedGame>, ExportError> {
    if config.round(round).is_none() {
        return Err(ExportError::NoRound {
            round,
            detail: "no such [[round]] in the hall config".into(),
        });
    }
    let db = data_dir.join(store::DB_FILE);
    if !db.exists() {
        return Err(ExportError::Io(format!(
            "{}: no event store here (is this a hall's data dir?)",
            db.display()
        )));
    }
    let (start, end) = stored::round_range(data_dir, round)?;
    let reader = StoreReader::open_dir(data_dir)?;
    let log = reader.log_after(start.saturating_sub(1))?;
    let (log, later): (Vec<LogEntry>, Vec<LogEntry>) = log
        .into_iter()
        .partition(|e| end.is_none_or(|end| e.gseq() < end));
    let raw = |e: LogEntry| match e {
        LogEntry::Event(ev) => (ev.gseq, ev.received_at_ms.max(0) as u64, ev.payload),
        LogEntry::Audit(a) => (a.id, a.record.at_ms.max(0) as u64, a.record.payload),
    };
    // The results corrected after the round: accepted commands stored later.
    let later: Vec<game::RawRecord> = later
        .into_iter()
        .filter(|e| match e {
            LogEntry::Audit(a) => a.record.outcome == store::AuditOutcome::Accepted,
            LogEntry::Event(_) => false,
        })
        .map(raw)
        .collect();
    let (mut games, stats) = game::replay_round(config, round, log.into_iter().map(raw))?;
    corrections::apply(&mut games, &corrections::collect(round, &later));
    if !stats.quarantined.is_empty() {
        tracing::warn!(
            round,
            gseq = ?stats.quarantined,
            "records the server set aside (quarantined) are left out of the export"
        );
    }
    Ok(games)
}

/// Every round up to `round` that can be rebuilt from this data dir (for
/// standings after `round`). Rounds configured but not in the data dir are
/// listed in the second value (their games are left out).
pub fn load_event(
    data_dir: &Path,
    config: &HallConfig,
    round: u32,
) -> Result<(Vec<PlayedGame>, Vec<u32>), ExportError> {
    let started = stored::rounds_started(data_dir)?;
    let mut games = Vec::new();
    let mut missing = Vec::new();
    let mut numbers: Vec<u32> = config
        .rounds
        .iter()
        .map(|r| r.number)
        .filter(|n| *n <= round)
        .collect();
    numbers.sort_unstable();
    for n in numbers {
        let here = started.is_empty() && n == round || started.iter().any(|s| s.round == n);
        if here {
            games.extend(load_round(data_dir, config, n)?);
        } else {
            missing.push(n);
        }
    }
    Ok((games, missing))
}

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Results of the round, CSV.
    Csv,
    /// Results of the round, JSON.
    Json,
    /// One PGN per game.
    Pgn,
    /// TRF-16-style report.
    Trf,
    /// HTML standings and crosstable page.
    Html,
    /// Standings after the round, CSV.
    StandingsCsv,
    /// Standings after the round, JSON.
    StandingsJson,
    /// The round's pairings to print: A4 HTML, by table and by name
    /// (no game of the round needs to be played).
    PairingsHtml,
}

impl Format {
    /// Every format with its name on the command line.
    pub const ALL: &'static [(&'static str, Format)] = &[
        ("csv", Format::Csv),
        ("json", Format::Json),
        ("pgn", Format::Pgn),
        ("trf", Format::Trf),
        ("html", Format::Html),
        ("standings-csv", Format::StandingsCsv),
        ("standings-json", Format::StandingsJson),
        ("pairings-html", Format::PairingsHtml),
    ];

    /// Parses a format name.
    pub fn parse(name: &str) -> Option<Format> {
        Self::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, f)| *f)
    }

    /// Whether the format is one file per game (a folder).
    pub fn is_folder(self) -> bool {
        self == Format::Pgn
    }
}

/// What an export produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rendered {
    /// One document.
    Single(String),
    /// Several files: (file name, content).
    Files(Vec<(String, String)>),
}

/// Renders round `round` of the hall in `data_dir` in `format`.
pub fn render(
    data_dir: &Path,
    config: &HallConfig,
    round: u32,
    format: Format,
    options: RenderOptions,
) -> Result<Rendered, ExportError> {
    if format == Format::PairingsHtml {
        return Ok(Rendered::Single(pairings::to_html(
            config,
            round,
            options.language(config),
        )?));
    }
    let config = options.config_for(config);
    let config: &HallConfig = &config;
    let games = load_round(data_dir, config, round)?;
    render_games(config, round, format, options, &games, || {
        load_event(data_dir, config, round)
    })
}

/// Renders round `round` in `format` from its `games`; `event` gives every
/// game up to the round and the rounds missing (for standings, TRF, HTML).
pub fn render_games(
    config: &HallConfig,
    round: u32,
    format: Format,
    options: RenderOptions,
    games: &[PlayedGame],
    event: impl Fn() -> Result<(Vec<PlayedGame>, Vec<u32>), ExportError>,
) -> Result<Rendered, ExportError> {
    let load = &event;
    let event = || -> Result<(Vec<PlayedGame>, standings::Standings), ExportError> {
        let (all, missing) = load()?;
        let s = standings::compute(config, &all, round, missing)?;
        Ok((all, s))
    };
    let lang = options.language(config);
    Ok(match format {
        Format::Csv => Rendered::Single(results::to_csv(&results::rows_in(games, lang), lang)),
        Format::Json => Rendered::Single(results::to_json(
            &config.tournament.name,
            round,
            &results::rows_in(games, lang),
            lang,
        )),
        Format::Pgn => Rendered::Files(
            games
                .iter()
                .map(|g| (pgn::file_name(g), pgn::to_pgn(config, g)))
                .collect(),
        ),
        Format::Trf => {
            let (all, missing) = load()?;
            Rendered::Single(trf::report(config, all, missing, round, options)?)
        }
        Format::Html => {
            let (all, s) = event()?;
            Rendered::Single(html::to_html(config, round, games, &all, &s, lang))
        }
        Format::StandingsCsv => Rendered::Single(standings::to_csv(&event()?.1)),
        Format::StandingsJson => Rendered::Single(standings::to_json(&event()?.1)),
        Format::PairingsHtml => Rendered::Single(pairings::to_html(config, round, lang)?),
    })
}
