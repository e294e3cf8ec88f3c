//! The hall config (`config/hall.toml`): tournament, rounds with pairings,
//! rule set, time control, natural move limit (自然限着) overrides, server
//! address and data directory, arbitration settings and credentials.
//!
//! Rule and clock settings use crates/rulebook's types: `rules` names a
//! [`RuleSet`]; `[natural_limit]` is the rulebook's [`LimitOverrides`];
//! `[arbitration]` sets the sealed-move writer, the no-show /
//! adjournment limits and the cycles after a change order; together they
//! resolve into [`RuleParams`].
//! `[time_control]` is the rulebook's [`TimeControlConfig`], resolved into a
//! [`TimeControl`].
//!
//! [`HallConfig::load`] parses TOML (serde), then validates everything; any
//! error names the key path and the problem, e.g.
//! `round[0].table[3].red: empty player name` or
//! `credentials.deputy[1].tables: table 41 is not in round 1`. All problems
//! found are reported together. Tokens are [`Token`]s whose `Debug` is
//! redacted, so `{:?}` of a config never prints a secret.
//!
//! The worked example `config/hall.toml` comments every key.
//!
//! # Modules
//! - this file: [`HallConfig`] and its parts ([`Tournament`], [`Round`],
//!   [`Pairing`], [`Credentials`], ...), [`HallConfig::load`].
//! - `raw`: the TOML as written (serde); `validate`: raw to validated,
//!   every problem named by its key path; `secret`: [`Token`]s and the
//!   derived table tokens (HMAC-SHA256); `store`: `[store]`
//!   ([`StoreConfig`], [`StoreUrl`]).
//! - [`deputies`]: a deputy's tables as a list or as ranges, and what they
//!   are in a later round.
//! - [`initial`]: the hall a config describes, before any record
//!   ([`initial::hall_from_config`]), for the server's restart and the export.
//! - [`pairings`]: the pairings import (`caipan pairings`): a CSV file of
//!   pairings into the config's `[[round]]` blocks, comments kept.
//!
//! Dependencies: hall (the hall it builds, the alert timings), proto (plain
//! data), rulebook, xiangqi (text encodings), i18n (`[tournament]
//! language` and the typed problems' words, `config-*`). No network, no
//! store.

pub mod deputies;
pub mod initial;
pub mod pairings;
mod raw;
pub mod registry;
mod secret;
mod store;
mod validate;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use hall::alerts::AlertTimings;
pub use rulebook::clock::{TimeControl, TimeControlConfig};
pub use rulebook::ruleset::{LimitOverrides, RuleParams, RuleSet, SealedMoveBy};
pub use secret::{derive_table_token, Token, TokenSource, MIN_TOKEN_LEN};
pub use store::{StoreConfig, StoreUrl};

/// A validated hall config.
#[derive(Debug, Clone)]
pub struct HallConfig {
    /// `[tournament]`.
    pub tournament: Tournament,
    /// `rules` (top-level key): the competition rule set. Default AXF.
    pub rules: RuleSet,
    /// Every rule parameter: the rule set's defaults with the
    /// `[natural_limit]` and `[arbitration]` overrides applied
    /// (sealed-move writer, no-show and adjournment lateness limits).
    pub rule_params: RuleParams,
    /// `[time_control]` (the rulebook's `TimeControlConfig`, resolved).
    /// Default: Fischer 80 min + 30 s (AXF-CLOCK-1).
    pub time_control: TimeControl,
    /// `[server]`.
    pub server: ServerConfig,
    /// `[alerts]`: grace periods of the server's own alerts.
    pub alerts: AlertTimings,
    /// `[broadcast]`: the read-only public listener (`None`: no broadcast).
    pub broadcast: Option<BroadcastConfig>,
    /// `[[round]]`, in the order given (numbers unique).
    pub rounds: Vec<Round>,
    /// `[credentials]`, every token resolved.
    pub credentials: Credentials,
    /// `[store]`: the hall record in PostgreSQL; `None`: SQLite in the
    /// data dir.
    pub store: Option<StoreConfig>,
    /// SHA-256 (hex) of the config file's bytes.
    pub config_sha256: String,
}

/// The longest broadcast delay (`broadcast.delay_s`): an hour.
pub const MAX_BROADCAST_DELAY_S: u64 = 3600;

/// `[broadcast]`: the read-only public listener for relays and followers
/// (crates/broadcast; README "Broadcast").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BroadcastConfig {
    /// `listen`: its own TCP address (never the QUIC control plane's).
    pub listen: SocketAddr,
    /// `delay_s`: moves, clocks and results are shown this many seconds late.
    pub delay_s: u64,
}

/// `[tournament]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    /// Event name, e.g. "2026 全国象棋个人赛".
    pub name: String,
    /// Venue.
    pub site: String,
    /// Start date, `YYYY-MM-DD` (may be empty).
    pub date: String,
    /// Pairing system.
    pub kind: TournamentKind,
    /// Rounds planned in total, if given.
    pub rounds_planned: Option<u32>,
    /// The round being played now (defaults to the first `[[round]]`).
    pub current_round: u32,
    /// Team match settings (团体赛), if this is a team event.
    pub team_match: Option<TeamMatch>,
    /// The organising federation's three-letter code (e.g. `CHN`), written
    /// to the TRF `032` line when given.
    pub federation: Option<String>,
    /// `time_zone = "Asia/Shanghai"`: the hall's IANA time zone (checked
    /// against the bundled database) for round start times; `None`: the
    /// server machine's time zone.
    pub time_zone: Option<String>,
    /// `[[tournament.player]]`, numbered (empty: no registry; players are
    /// whoever the pairings name).
    pub players: Vec<registry::Player>,
    /// How the next round is paired (`tournament.pairing`).
    pub pairing: registry::PairingSystem,
    /// `tiebreaks = [...]`: the tie-break order (名次), every code known;
    /// `None`: the rule set's AXF order (`rulebook::standings`).
    pub tiebreaks: Option<Vec<rulebook::standings::TieBreak>>,
    /// `language = "zh-Hans" | "zh-Hant" | "en" | "vi"` (`zh`: zh-Hans):
    /// the hall's language (语言) — of its exports (`caipan export`
    /// without `--lang`), its printed pairings (with English beside it)
    /// and its table terminals' first language; `None`: no language of
    /// its own, every export as before (Chinese and English side by side,
    /// English text columns).
    pub language: Option<i18n::Lang>,
    /// Players entered late (补报) from the console: the stored
    /// `EnterPlayer` commands, added in memory by the server and the
    /// export (`export::published::apply_players`), never read from or
    /// written to the config file. `id` is empty when none was given
    /// (the name is the player's key); `start_number` 0 (the TRF numbers
    /// players by first appearance).
    pub late_entries: Vec<registry::Player>,
    /// Players withdrawn (退赛) from the console: each player's key (the
    /// registration id, else the name) and the first round they are not
    /// paired in; added in memory like [`Tournament::late_entries`].
    pub withdrawals: Vec<(String, u32)>,
}

impl Tournament {
    /// The key of a late entry: its registration id, else its name.
    pub fn entry_key(p: &registry::Player) -> &str {
        if p.id.is_empty() {
            &p.name
        } else {
            &p.id
        }
    }
}

/// Pairing system of the tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// 循环赛.
    RoundRobin,
    /// 瑞士制.
    Swiss,
    /// 积分循环赛 (points round robin).
    PointsRoundRobin,
}

impl TournamentKind {
    /// The config's word for it (`kind = "swiss"`).
    pub fn key(self) -> &'static str {
        match self {
            TournamentKind::RoundRobin => "round_robin",
            TournamentKind::Swiss => "swiss",
            TournamentKind::PointsRoundRobin => "points_round_robin",
        }
    }
}

/// Team match settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamMatch {
    /// Games (boards) per team match.
    pub boards: u32,
    /// Match points for a won team match (default 2).
    pub match_points_win: u32,
    /// Match points for a drawn team match (default 1).
    pub match_points_draw: u32,
}

/// `[server]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// UDP address of the QUIC endpoint (default 127.0.0.1:4433).
    pub listen: SocketAddr,
    /// Data directory (store, certificate), resolved against the config
    /// file's folder (default `data/hall`).
    pub data_dir: PathBuf,
    /// Peer limits (`connections_per_token`, `unauthenticated`,
    /// `unauthenticated_per_address`, `retry_threshold`,
    /// `handshakes_per_second`).
    pub limits: PeerLimits,
}

/// How many connections the server lets peers hold (`[server]`); see
/// `server::admission`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerLimits {
    /// Open connections per console token (chief, deputy, viewer); one
    /// more is refused with a clear error. A table's new connection
    /// replaces its old one instead. Default 8.
    pub connections_per_token: usize,
    /// Connections not yet signed in (handshake or waiting for `Hello`),
    /// over all peers. Default 256.
    pub unauthenticated: usize,
    /// The same, per source IP address. Default 32.
    pub unauthenticated_per_address: usize,
    /// Handshakes in progress past which a new one must first prove its
    /// address with a QUIC Retry (0: every handshake). Default 64.
    pub retry_threshold: usize,
    /// Handshakes the server starts per second at most (a token bucket a
    /// tenth of a second deep), so that a connect storm (a round start,
    /// every terminal back after a Wi-Fi outage) can be spread out
    /// instead of taking the CPU from the tables already playing; a
    /// connection that would wait past the pace's patience is dropped
    /// unanswered, and its client's QUIC sends its Initial again later.
    /// Default 0: not paced (measured on a 2-core machine whose storms
    /// were held by the store's writes, not by handshakes, pacing did not
    /// shorten the playing tables' acks: docs/benchmarks.md, "Table
    /// connections: packets, memory, the connect storm").
    pub handshakes_per_second: usize,
}

impl Default for PeerLimits {
    fn default() -> Self {
        PeerLimits {
            connections_per_token: 8,
            unauthenticated: 256,
            unauthenticated_per_address: 32,
            retry_threshold: 64,
            handshakes_per_second: 0,
        }
    }
}

/// `[[round]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// Round number (1-based).
    pub number: u32,
    /// Date, `YYYY-MM-DD`, if given.
    pub date: Option<String>,
    /// Start time, `HH:MM`, if given.
    pub start: Option<String>,
    /// Pairings, one per table, in the order given.
    pub tables: Vec<Pairing>,
}

/// `[[round.table]]`: who plays at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// Table number (1-based).
    pub table: u32,
    /// Red player (红方).
    pub red: String,
    /// Black player (黑方).
    pub black: String,
    /// Red's team, in team events.
    pub red_team: Option<String>,
    /// Black's team, in team events.
    pub black_team: Option<String>,
    /// Red's registration id.
    pub red_id: Option<String>,
    /// Black's registration id.
    pub black_id: Option<String>,
}

/// Longest registration id accepted: TRF-16 gives the id columns 58-68.
pub const MAX_PLAYER_ID: usize = 11;

impl Pairing {
    /// The key that identifies Red across rounds and exports: the
    /// registration id when one is given, else the name (so two players
    /// both named 王伟 stay two when their ids differ).
    pub fn red_key(&self) -> &str {
        self.red_id.as_deref().unwrap_or(&self.red)
    }

    /// Black's key; see [`Pairing::red_key`].
    pub fn black_key(&self) -> &str {
        self.black_id.as_deref().unwrap_or(&self.black)
    }
}

/// `[credentials]` with every token resolved.
#[derive(Debug, Clone)]
pub struct Credentials {
    /// The chief arbiter (裁判长).
    pub chief: Account,
    /// Deputy referees (副裁判) with their tables.
    pub deputies: Vec<Deputy>,
    /// Every table of a round must have a deputy (`deputies_cover_all_tables`;
    /// see [`deputies`]).
    pub deputies_cover_all_tables: bool,
    /// Read-only viewers (public displays).
    pub viewers: Vec<Account>,
    /// Token of every table of the current round.
    pub tables: BTreeMap<u32, Token>,
}

/// A named account.
#[derive(Debug, Clone)]
pub struct Account {
    /// Display name (shown in the audit trail).
    pub name: String,
    /// Its token.
    pub token: Token,
}

/// A deputy referee.
#[derive(Debug, Clone)]
pub struct Deputy {
    /// Display name.
    pub name: String,
    /// Its token.
    pub token: Token,
    /// Tables assigned to this deputy, in every round (a round's own are
    /// those it uses: [`deputies::check`]).
    pub tables: BTreeSet<u32>,
    /// How they were given: a list of the config's round's tables, or ranges.
    pub assignment: deputies::Assignment,
}

/// One problem in a config: the key path and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// Key path, e.g. `round[0].table[3].red`.
    pub key: String,
    /// What is wrong, in English (`message` rendered in English).
    pub problem: String,
    /// What is wrong as a catalogue message (`config-*`: an id and the
    /// values found, crates/i18n/locales/cli): every problem is typed.
    pub message: proto::Message,
}

impl ConfigProblem {
    /// A problem worded by the catalogue: its English text is `message`
    /// rendered in English.
    pub fn typed(key: impl Into<String>, message: proto::Message) -> ConfigProblem {
        ConfigProblem {
            key: key.into(),
            problem: i18n::texts::english(&message),
            message,
        }
    }

    /// What is wrong in `lang`.
    pub fn text(&self, lang: i18n::Lang) -> String {
        i18n::render(lang, &self.message)
    }

    /// `key: problem` in `lang` (the [`fmt::Display`] form is English).
    pub fn line(&self, lang: i18n::Lang) -> String {
        format!("{}: {}", self.key, self.text(lang))
    }
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.problem)
    }
}

/// Why a config could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// TOML syntax or type error at a key.
    #[error("{}", .0)]
    Syntax(ConfigProblem),
    /// Semantic problems (all of them).
    #[error("{}", join_problems(.0))]
    Invalid(Vec<ConfigProblem>),
}

/// Why a file could not be read, in typed words: not found, permission
/// denied, else the OS's own detail (its English words, as an argument).
pub fn io_reason(e: &std::io::Error) -> proto::Message {
    match e.kind() {
        std::io::ErrorKind::NotFound => proto::Message::new("config-io-not-found"),
        std::io::ErrorKind::PermissionDenied => proto::Message::new("config-io-permission-denied"),
        _ => proto::Message::new("config-io-other").verbatim("detail", e.to_string()),
    }
}

/// `id` (`config-cannot-read-*`: `$path`, `$why`) for a file that could
/// not be read.
pub(crate) fn cannot_read(id: &str, path: &Path, e: &std::io::Error) -> proto::Message {
    proto::Message::new(id)
        .verbatim("path", path.display().to_string())
        .arg("why", proto::Arg::Message(Box::new(io_reason(e))))
}

impl ConfigError {
    /// Every problem (one for read and syntax errors; a read error's key
    /// is the file).
    pub fn problems(&self) -> Vec<ConfigProblem> {
        match self {
            ConfigError::Read { path, source } => vec![ConfigProblem::typed(
                path.display().to_string(),
                cannot_read("config-cannot-read", path, source),
            )],
            ConfigError::Syntax(p) => vec![p.clone()],
            ConfigError::Invalid(ps) => ps.clone(),
        }
    }

    /// The error in `lang`, one problem a line (a read error: the file and
    /// why, in typed words; else `key: problem` lines).
    pub fn text(&self, lang: i18n::Lang) -> String {
        match self {
            ConfigError::Read { path, source } => {
                i18n::render(lang, &cannot_read("config-cannot-read", path, source))
            }
            ConfigError::Syntax(p) => p.line(lang),
            ConfigError::Invalid(ps) => ps
                .iter()
                .map(|p| p.line(lang))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

fn join_problems(ps: &[ConfigProblem]) -> String {
    let lines: Vec<String> = ps.iter().map(ToString::to_string).collect();
    lines.join("\n")
}

impl HallConfig {
    /// Reads and validates a config file; token files resolve against its
    /// folder and `token_env` reads the process environment.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let base = path.parent().unwrap_or_else(|| Path::new("."));
        Self::from_toml_str(&text, base, &|var| std::env::var(var).ok())
    }

    /// Parses and validates config text. `base_dir` resolves relative
    /// paths (token files, data dir); `env` looks up environment variables.
    pub fn from_toml_str(
        text: &str,
        base_dir: &Path,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let raw = validate::parse(text)?;
        validate::validate(raw, text, base_dir, env).map_err(ConfigError::Invalid)
    }

    /// The round being played now.
    pub fn current_round(&self) -> &Round {
        // validate() guarantees the current round exists; fall back to the
        // first round to stay panic-free.
        self.round(self.tournament.current_round)
            .unwrap_or(&self.rounds[0])
    }

    /// When the current round starts (Unix ms), from its `start` time and
    /// its `date` (or the tournament's), read in the hall's time zone
    /// (`tournament.time_zone`, else the machine's; a start time that falls
    /// in a daylight-saving gap is read as the same wall time after the
    /// shift, one in a repeated hour as its first occurrence); `None` when the round
    /// has no start time or no date is known. The no-show time runs from here.
    pub fn round_start_ms(&self) -> Option<u64> {
        let r = self.current_round();
        let time = r.start.as_deref()?;
        let date = r
            .date
            .as_deref()
            .or_else(|| Some(self.tournament.date.as_str()).filter(|d| !d.is_empty()))?;
        validate::unix_ms(date, time, self.tournament.time_zone.as_deref())
    }

    /// Round `number`, if configured.
    pub fn round(&self, number: u32) -> Option<&Round> {
        self.rounds.iter().find(|r| r.number == number)
    }

    /// Table numbers of the current round.
    pub fn table_numbers(&self) -> BTreeSet<u32> {
        self.current_round()
            .tables
            .iter()
            .map(|p| p.table)
            .collect()
    }

    /// The current round's pairing at `table`.
    pub fn pairing(&self, table: u32) -> Option<&Pairing> {
        self.current_round()
            .tables
            .iter()
            .find(|p| p.table == table)
    }

    /// A stable id of this hall (first 16 hex digits of SHA-256 over the
    /// tournament name, site and date). The store records it so that a data
    /// directory of another hall is refused; editing pairings or tokens does
    /// not change it.
    pub fn hall_id(&self) -> String {
        derive_hall_id(
            &self.tournament.name,
            &self.tournament.site,
            &self.tournament.date,
        )
    }

    /// The hall's id in its store: `[store] hall` on PostgreSQL, else
    /// [`HallConfig::hall_id`].
    pub fn store_hall_id(&self) -> String {
        match &self.store {
            Some(s) => s.hall.clone(),
            None => self.hall_id(),
        }
    }
}

/// [`HallConfig::hall_id`] of a tournament name, site and date.
fn derive_hall_id(name: &str, site: &str, date: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for part in [name, site, date] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    secret::hex(&h.finalize()[..8])
}
