//! The hall config as written in TOML (serde input types). Every struct
//! denies unknown keys so that a typo is an error naming the key, not a
//! silently ignored setting. `validate.rs` turns these into the checked
//! [`super::HallConfig`].

use std::path::PathBuf;

use serde::Deserialize;

use rulebook::clock::TimeControlConfig;
use rulebook::ruleset::{LimitOverrides, SealedMoveBy};

use super::TournamentKind;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHall {
    /// Rule set name; checked by hand for a clear message.
    pub rules: Option<String>,
    pub tournament: RawTournament,
    /// `[time_control]`: the rulebook's clock config.
    #[serde(default)]
    pub time_control: TimeControlConfig,
    /// `[natural_limit]`: the rulebook's natural-limit overrides.
    #[serde(default)]
    pub natural_limit: LimitOverrides,
    #[serde(default)]
    pub server: RawServer,
    #[serde(default)]
    pub arbitration: RawArbitration,
    #[serde(default)]
    pub alerts: RawAlerts,
    /// `[broadcast]`: absent for no public listener.
    pub broadcast: Option<RawBroadcast>,
    #[serde(default)]
    pub round: Vec<RawRound>,
    pub credentials: RawCredentials,
    /// `[store]`: absent for SQLite.
    pub store: Option<super::store::RawStore>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTournament {
    pub name: String,
    #[serde(default)]
    pub site: String,
    #[serde(default)]
    pub date: String,
    pub kind: TournamentKind,
    pub rounds_planned: Option<u32>,
    pub current_round: Option<u32>,
    pub team_match: Option<RawTeamMatch>,
    /// Refused with a message naming `time_zone` (kept so the message can
    /// say what replaced it).
    pub utc_offset: Option<String>,
    /// IANA time-zone name (`Asia/Shanghai`) for round start times.
    pub time_zone: Option<String>,
    /// Three-letter federation code for the TRF `032` line.
    pub federation: Option<String>,
    /// `[[tournament.player]]`: the player registry (registry.rs).
    #[serde(default)]
    pub player: Vec<super::registry::RawPlayer>,
    /// Start numbers by `"rating"` (default) or as `"listed"`.
    pub start_order: Option<String>,
    /// `"xiangqi"` (default) or `"dutch"` for swiss events.
    pub pairing: Option<String>,
    /// `tiebreaks = ["BH", "SB", …]`: the tie-break order (codes of
    /// `rulebook::standings::TieBreak::from_code`).
    pub tiebreaks: Option<Vec<String>>,
    /// `language = "zh-Hant"`: the hall's language (exports, printed
    /// sheets, the terminals' first language); checked by hand for a
    /// clear message.
    pub language: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTeamMatch {
    pub boards: u32,
    #[serde(default = "two")]
    pub match_points_win: u32,
    #[serde(default = "one")]
    pub match_points_draw: u32,
}

fn two() -> u32 {
    2
}
fn one() -> u32 {
    1
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawServer {
    pub listen: Option<String>,
    pub data_dir: Option<PathBuf>,
    pub connections_per_token: Option<usize>,
    pub unauthenticated: Option<usize>,
    pub unauthenticated_per_address: Option<usize>,
    pub retry_threshold: Option<usize>,
    pub handshakes_per_second: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawArbitration {
    pub sealed_move_writer: Option<SealedMoveBy>,
    pub no_show_minutes: Option<u64>,
    pub adjourn_late_minutes: Option<u64>,
    /// Seconds instead of minutes (rehearsals, tests).
    pub no_show_seconds: Option<u64>,
    pub adjourn_late_seconds: Option<u64>,
    /// Cycles after a change order that give the result (1 or 3).
    pub cycles_after_order: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAlerts {
    pub offline_grace_seconds: Option<u64>,
    pub flag_grace_seconds: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBroadcast {
    pub listen: Option<String>,
    pub delay_s: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRound {
    pub number: u32,
    pub date: Option<String>,
    pub start: Option<String>,
    #[serde(default)]
    pub table: Vec<RawPairing>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPairing {
    pub table: u32,
    pub red: String,
    pub black: String,
    pub red_team: Option<String>,
    pub black_team: Option<String>,
    pub red_id: Option<String>,
    pub black_id: Option<String>,
}

/// A token given by exactly one of `token`, `token_file`, `token_env`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAccount {
    pub name: String,
    pub token: Option<String>,
    pub token_file: Option<PathBuf>,
    pub token_env: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDeputy {
    pub name: String,
    pub token: Option<String>,
    pub token_file: Option<PathBuf>,
    pub token_env: Option<String>,
    pub tables: crate::deputies::RawTables,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTableToken {
    pub table: u32,
    pub token: Option<String>,
    pub token_file: Option<PathBuf>,
    pub token_env: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCredentials {
    pub table_secret: Option<String>,
    pub table_secret_file: Option<PathBuf>,
    pub table_secret_env: Option<String>,
    pub chief: RawAccount,
    #[serde(default)]
    pub deputy: Vec<RawDeputy>,
    #[serde(default)]
    pub deputies_cover_all_tables: bool,
    #[serde(default)]
    pub viewer: Vec<RawAccount>,
    #[serde(default)]
    pub table: Vec<RawTableToken>,
}

// Hand-written Debug impls: the raw credential structs hold inline tokens.
macro_rules! redacted_debug {
    ($($t:ty),*) => {$(
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(concat!(stringify!($t), " { <redacted> }"))
            }
        }
    )*};
}
redacted_debug!(RawAccount, RawDeputy, RawTableToken, RawCredentials);
