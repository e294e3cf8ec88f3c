//! Parsing (TOML → [`RawHall`]) and validation (→ [`HallConfig`]) of the
//! hall config. Syntax and type errors carry the serde key path; semantic
//! checks collect every problem with its key path.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::SocketAddr;
use std::path::Path;

use i18n::Lang;
use proto::Message;
use rulebook::clock::ClockProblem;
use rulebook::ruleset::{FoulOverrides, RuleProblem, RuleSetError, RulesConfig};
use sha2::{Digest, Sha256};

use super::deputies::{Assignment, RawTables};
use super::raw::{
    RawAlerts, RawCredentials, RawHall, RawPairing, RawRound, RawServer, RawTeamMatch,
    RawTournament,
};
use super::secret::{derive_table_token, hex, Token, TokenSource};
use super::{
    Account, AlertTimings, ConfigError, ConfigProblem, Credentials, Deputy, HallConfig, Pairing,
    Round, RuleParams, RuleSet, ServerConfig, TeamMatch, TimeControl, Tournament, MAX_PLAYER_ID,
};

/// Highest table number accepted: the wire's table number is a u16
/// (`proto::EventEnvelope::table`), so 1..=65535; a larger number is a
/// validation error naming the table, never a table silently left out.
pub const MAX_TABLE: u32 = u16::MAX as u32;

/// TOML text → raw structs; errors name the key path (when known), the
/// line and the column (`config-toml-*`), with the toml crate's own words
/// for what it found as the `$detail` argument: the parser's text is
/// English only (it is the toml crate's, not ours to translate).
pub(super) fn parse(text: &str) -> Result<RawHall, ConfigError> {
    let de = toml::Deserializer::parse(text).map_err(|e| {
        ConfigError::Syntax(ConfigProblem::typed(
            "(file)",
            toml_problem(text, e.span(), e.message()),
        ))
    })?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.inner();
        ConfigError::Syntax(ConfigProblem::typed(
            if path == "." {
                "(top level)".into()
            } else {
                path
            },
            toml_problem(text, inner.span(), inner.message()),
        ))
    })
}

/// A TOML error as a message: `config-toml-at` with the line and column
/// (1-based, the column in characters) when the parser gave a place,
/// else `config-toml`; the parser's words (English) as `$detail`.
fn toml_problem(text: &str, span: Option<std::ops::Range<usize>>, detail: &str) -> Message {
    let detail = detail.trim();
    match span.map(|s| line_and_column(text, s.start)) {
        Some((line, column)) => Message::new("config-toml-at")
            .int("line", line)
            .int("column", column)
            .verbatim("detail", detail),
        None => Message::new("config-toml").verbatim("detail", detail),
    }
}

/// The 1-based line and column (in characters) of byte `at` of `text`.
fn line_and_column(text: &str, at: usize) -> (i64, i64) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.bytes().filter(|b| *b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line as i64, column as i64)
}

/// Collects problems with their key paths, each a catalogue message
/// (`config-*`).
#[derive(Default)]
struct Problems(Vec<ConfigProblem>);

impl Problems {
    /// A problem worded by the catalogue (`config-*`).
    fn typed(&mut self, key: impl Into<String>, message: Message) {
        self.0.push(ConfigProblem::typed(key, message));
    }
}

/// Raw → validated, with every problem found.
/// `tournament.current_round`, a round of the config (default: the first).
fn current_round(given: Option<u32>, rounds: &[Round], p: &mut Problems) -> u32 {
    match given {
        Some(n) => {
            if !rounds.iter().any(|r| r.number == n) {
                p.typed(
                    "tournament.current_round",
                    Message::new("config-no-such-round").int("round", n),
                );
            }
            n
        }
        None => rounds.first().map(|r| r.number).unwrap_or(1),
    }
}

pub(super) fn validate(
    raw: RawHall,
    text: &str,
    base_dir: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<HallConfig, Vec<ConfigProblem>> {
    let mut p = Problems::default();

    let rules = match raw.rules.as_deref() {
        None => RuleSet::Axf,
        Some(s) => RuleSet::from_name(s).unwrap_or_else(|_| {
            p.typed(
                "rules",
                Message::new("config-unknown-rule-set").verbatim("value", s),
            );
            RuleSet::Axf
        }),
    };

    // [tournament]
    let t = &raw.tournament;
    check_tournament(t, &mut p);
    let language = t.language.as_deref().and_then(|l| language(l, &mut p));
    let team_match = t.team_match.as_ref().map(|tm| team_match(tm, &mut p));

    // [[round]]
    let mut rounds = validate_rounds(&raw.round, t.rounds_planned, team_match.is_some(), &mut p);
    let players = super::registry::validate(&t.player, t.start_order.as_deref(), &mut |k, v| {
        p.typed(k, v)
    });
    let pairing =
        super::registry::pairing_system(t.pairing.as_deref(), t.kind, &mut |k, v| p.typed(k, v));
    super::registry::resolve(&mut rounds, &players);
    let tiebreaks = t
        .tiebreaks
        .as_ref()
        .map(|codes| tiebreak_list(codes, &mut p));
    let current_round = current_round(t.current_round, &rounds, &mut p);
    let round_tables: BTreeSet<u32> = rounds
        .iter()
        .find(|r| r.number == current_round)
        .map(|r| r.tables.iter().map(|p| p.table).collect())
        .unwrap_or_default();

    // [time_control]: the rulebook resolves it; its errors name the key.
    let time_control = raw.time_control.resolve().unwrap_or_else(|e| {
        p.typed(e.key, clock_problem(&e.reason));
        TimeControl::default()
    });

    // [server]
    let server = server_config(&raw.server, base_dir, &mut p);

    // [natural_limit] and [arbitration] → the rulebook's parameters.
    let rule_params = resolve_rules(rules, &raw, &mut p);

    // [alerts]
    let alerts = alert_timings(&raw.alerts, &mut p);

    // [broadcast]
    let broadcast = raw
        .broadcast
        .as_ref()
        .and_then(|b| validate_broadcast(b, &mut p));

    // [credentials]
    let credentials = validate_credentials(
        &raw.credentials,
        &round_tables,
        current_round,
        base_dir,
        env,
        &mut p,
    );

    // [store]
    let store = raw.store.as_ref().and_then(|rs| {
        let mut found = Vec::new();
        let derived = super::derive_hall_id(t.name.trim(), t.site.trim(), &t.date);
        let s = super::store::validate(rs, &derived, &t.name, base_dir, env, &mut found);
        for (k, why) in found {
            p.typed(k, why);
        }
        s
    });

    if !p.0.is_empty() {
        return Err(p.0);
    }
    Ok(HallConfig {
        tournament: Tournament {
            name: t.name.trim().to_string(),
            site: t.site.trim().to_string(),
            date: t.date.clone(),
            kind: t.kind,
            rounds_planned: t.rounds_planned,
            current_round,
            team_match,
            federation: t.federation.clone(),
            time_zone: t.time_zone.clone(),
            players,
            pairing,
            tiebreaks,
            language,
            late_entries: Vec::new(),
            withdrawals: Vec::new(),
        },
        rules,
        rule_params,
        time_control,
        server,
        alerts,
        broadcast,
        rounds,
        credentials,
        store,
        config_sha256: hex(&Sha256::digest(text.as_bytes())),
    })
}

/// `tournament.tiebreaks`: every code read, an unknown or repeated one
/// named; an empty list refused (the order must rank something).
fn tiebreak_list(codes: &[String], p: &mut Problems) -> Vec<rulebook::standings::TieBreak> {
    use rulebook::standings::TieBreak;
    let mut list = Vec::new();
    for code in codes {
        match TieBreak::from_code(code) {
            Some(tb) if list.contains(&tb) => p.typed(
                "tournament.tiebreaks",
                Message::new("config-tiebreak-twice").verbatim("code", code),
            ),
            Some(tb) => list.push(tb),
            None => p.typed(
                "tournament.tiebreaks",
                Message::new("config-unknown-tiebreak")
                    .verbatim("code", code)
                    .verbatim("known", KNOWN_TIEBREAKS),
            ),
        }
    }
    if codes.is_empty() {
        p.typed(
            "tournament.tiebreaks",
            Message::new("config-empty-tiebreaks"),
        );
    }
    list
}

/// The tie-break codes `tournament.tiebreaks` reads (named when one is not).
const KNOWN_TIEBREAKS: &str = "BH, BH-C1, SB, PS, DE, WIN, BWG, BPG, ARO, \
     opponent_score_beaten, opponent_score_all, fewer_technical_fouls, lots";

/// The `[tournament]` keys checked on their own: name, date, time zone,
/// federation, rounds planned.
fn check_tournament(t: &RawTournament, p: &mut Problems) {
    if t.name.trim().is_empty() {
        p.typed("tournament.name", Message::new("config-empty-name"));
    }
    if !t.date.is_empty() && !is_date(&t.date) {
        p.typed(
            "tournament.date",
            Message::new("config-not-a-date").verbatim("value", &t.date),
        );
    }
    if let Some(o) = &t.utc_offset {
        p.typed(
            "tournament.utc_offset",
            Message::new("config-utc-offset-gone").verbatim("value", o),
        );
    }
    if let Some(z) = &t.time_zone {
        if jiff::tz::TimeZone::get(z).is_err() {
            p.typed(
                "tournament.time_zone",
                Message::new("config-not-a-time-zone").verbatim("value", z),
            );
        }
    }
    if let Some(f) = &t.federation {
        if f.len() != 3 || !f.bytes().all(|b| b.is_ascii_uppercase()) {
            p.typed(
                "tournament.federation",
                Message::new("config-not-a-federation").verbatim("value", f),
            );
        }
    }
    if t.rounds_planned == Some(0) {
        p.typed(
            "tournament.rounds_planned",
            Message::new("config-at-least-one"),
        );
    }
}

/// `tournament.language`: one of the four catalogues (`zh` is zh-Hans);
/// anything else is a problem naming the value and the languages.
fn language(value: &str, p: &mut Problems) -> Option<Lang> {
    match value.parse::<Lang>() {
        Ok(l) => Some(l),
        Err(_) => {
            p.typed(
                "tournament.language",
                Message::new("config-unknown-language").verbatim("value", value),
            );
            None
        }
    }
}

/// `[tournament.team_match]`.
fn team_match(tm: &RawTeamMatch, p: &mut Problems) -> TeamMatch {
    if tm.boards == 0 {
        p.typed(
            "tournament.team_match.boards",
            Message::new("config-at-least-one"),
        );
    }
    if tm.match_points_draw > tm.match_points_win {
        p.typed(
            "tournament.team_match.match_points_draw",
            Message::new("config-draw-over-win")
                .int("draw", tm.match_points_draw)
                .int("win", tm.match_points_win),
        );
    }
    TeamMatch {
        boards: tm.boards,
        match_points_win: tm.match_points_win,
        match_points_draw: tm.match_points_draw,
    }
}

/// `[server]`: the address to listen on, the data folder, the limits per
/// peer.
fn server_config(server: &RawServer, base_dir: &Path, p: &mut Problems) -> ServerConfig {
    let listen_text = server.listen.as_deref().unwrap_or("127.0.0.1:4433");
    let listen = listen_text.parse::<SocketAddr>().unwrap_or_else(|_| {
        p.typed(
            "server.listen",
            Message::new("config-not-an-address")
                .verbatim("value", listen_text)
                .verbatim("example", "127.0.0.1:4433"),
        );
        SocketAddr::from(([127, 0, 0, 1], 4433))
    });
    let data_dir = base_dir.join(
        server
            .data_dir
            .clone()
            .unwrap_or_else(|| "data/hall".into()),
    );
    if server
        .data_dir
        .as_ref()
        .is_some_and(|d| d.as_os_str().is_empty())
    {
        p.typed("server.data_dir", Message::new("config-empty-path"));
    }

    let limits = peer_limits(server, p);
    ServerConfig {
        listen,
        data_dir,
        limits,
    }
}

/// `[server]`'s limits per peer (each at least 1).
fn peer_limits(server: &RawServer, p: &mut Problems) -> super::PeerLimits {
    let defaults = super::PeerLimits::default();
    let at_least_one = |key: &str, v: Option<usize>, default: usize, p: &mut Problems| match v {
        Some(0) => {
            p.typed(key, Message::new("config-at-least-one"));
            default
        }
        Some(n) => n,
        None => default,
    };
    super::PeerLimits {
        connections_per_token: at_least_one(
            "server.connections_per_token",
            server.connections_per_token,
            defaults.connections_per_token,
            p,
        ),
        unauthenticated: at_least_one(
            "server.unauthenticated",
            server.unauthenticated,
            defaults.unauthenticated,
            p,
        ),
        unauthenticated_per_address: at_least_one(
            "server.unauthenticated_per_address",
            server.unauthenticated_per_address,
            defaults.unauthenticated_per_address,
            p,
        ),
        retry_threshold: server.retry_threshold.unwrap_or(defaults.retry_threshold),
        handshakes_per_second: server
            .handshakes_per_second
            .unwrap_or(defaults.handshakes_per_second),
    }
}

/// `[alerts]`: the grace times, in ms.
fn alert_timings(a: &RawAlerts, p: &mut Problems) -> AlertTimings {
    let d = AlertTimings::default();
    let secs = |key: &str, v: Option<u64>, default: u64, p: &mut Problems| match v {
        None => default,
        Some(s) => s.checked_mul(1000).unwrap_or_else(|| {
            p.typed(
                key,
                Message::new("config-seconds-too-large").int("value", clamp(s)),
            );
            default
        }),
    };
    AlertTimings {
        offline_grace_ms: secs(
            "alerts.offline_grace_seconds",
            a.offline_grace_seconds,
            d.offline_grace_ms,
            p,
        ),
        flag_grace_ms: secs(
            "alerts.flag_grace_seconds",
            a.flag_grace_seconds,
            d.flag_grace_ms,
            p,
        ),
    }
}

/// `[broadcast]`: the public listener's address (required in the
/// section) and the delay, 0 to 3600 seconds.
fn validate_broadcast(
    b: &super::raw::RawBroadcast,
    p: &mut Problems,
) -> Option<super::BroadcastConfig> {
    let listen = match b.listen.as_deref() {
        None => {
            p.typed(
                "broadcast.listen",
                Message::new("config-broadcast-listen-missing"),
            );
            None
        }
        Some(text) => match text.parse::<SocketAddr>() {
            Ok(a) => Some(a),
            Err(_) => {
                p.typed(
                    "broadcast.listen",
                    Message::new("config-not-an-address")
                        .verbatim("value", text)
                        .verbatim("example", "0.0.0.0:8080"),
                );
                None
            }
        },
    };
    let delay_s = match b.delay_s {
        None => Some(0),
        Some(d) if (0..=super::MAX_BROADCAST_DELAY_S as i64).contains(&d) => Some(d as u64),
        Some(d) => {
            p.typed(
                "broadcast.delay_s",
                Message::new("config-seconds-out-of-range")
                    .int("value", d)
                    .int("max", clamp(super::MAX_BROADCAST_DELAY_S)),
            );
            None
        }
    };
    Some(super::BroadcastConfig {
        listen: listen?,
        delay_s: delay_s?,
    })
}

/// Rule set defaults plus `[natural_limit]` and `[arbitration]` overrides.
fn resolve_rules(rules: RuleSet, raw: &RawHall, p: &mut Problems) -> RuleParams {
    let a = &raw.arbitration;
    for (key, v) in [
        ("arbitration.no_show_minutes", a.no_show_minutes),
        ("arbitration.adjourn_late_minutes", a.adjourn_late_minutes),
    ] {
        if v == Some(0) {
            p.typed(key, Message::new("config-at-least-one"));
        }
    }
    let config = RulesConfig {
        set: rules,
        sealed_move_by: a.sealed_move_writer,
        limit: raw.natural_limit.clone(),
        fouls: FoulOverrides {
            no_show_minutes: a.no_show_minutes,
            adjournment_late_minutes: a.adjourn_late_minutes,
            ..FoulOverrides::default()
        },
        cycles_after_order: a.cycles_after_order,
    };
    for (minutes, seconds, m_key, s_key) in [
        (
            a.no_show_minutes,
            a.no_show_seconds,
            "arbitration.no_show_minutes",
            "arbitration.no_show_seconds",
        ),
        (
            a.adjourn_late_minutes,
            a.adjourn_late_seconds,
            "arbitration.adjourn_late_minutes",
            "arbitration.adjourn_late_seconds",
        ),
    ] {
        if minutes.is_some() && seconds.is_some() {
            p.typed(
                s_key,
                Message::new("config-either-or")
                    .verbatim("first", m_key)
                    .verbatim("second", s_key),
            );
        }
        if seconds == Some(0) {
            p.typed(s_key, Message::new("config-at-least-one"));
        }
    }
    let seconds_ms = |s: Option<u64>| s.filter(|&s| s > 0).and_then(|s| s.checked_mul(1000));
    match config.resolve() {
        Ok(mut params) => {
            if let Some(ms) = seconds_ms(a.no_show_seconds) {
                params.fouls.no_show_ms = ms;
            }
            if let Some(ms) = seconds_ms(a.adjourn_late_seconds) {
                params.fouls.adjournment_late_ms = ms;
            }
            let l = &params.limit;
            if l.required_plies > 1000 {
                p.typed(
                    "natural_limit.required_plies",
                    Message::new("config-at-most").int("max", 1000),
                );
            }
            if l.check_cap > l.required_plies {
                p.typed(
                    "natural_limit.check_cap",
                    Message::new("config-check-cap-over-plies")
                        .int("cap", l.check_cap)
                        .int("plies", l.required_plies),
                );
            }
            params
        }
        Err(e) => {
            let (key, reason) = match e {
                RuleSetError::InvalidValue { key, reason } => {
                    (key.to_string(), rule_problem(&reason))
                }
                RuleSetError::UnknownRuleSet(name) => (
                    "rules".to_string(),
                    Message::new("config-unknown-rule-set").verbatim("value", name),
                ),
            };
            let key = key
                .replace("rules.limit.", "natural_limit.")
                .replace(
                    "rules.fouls.adjournment_late_minutes",
                    "arbitration.adjourn_late_minutes",
                )
                .replace("rules.fouls.", "arbitration.")
                .replace("rules.cycles_after_order", "arbitration.cycles_after_order");
            p.typed(key, reason);
            rules.params()
        }
    }
}

fn validate_rounds(
    raw: &[RawRound],
    planned: Option<u32>,
    team: bool,
    p: &mut Problems,
) -> Vec<Round> {
    if raw.is_empty() {
        p.typed("round", Message::new("config-no-rounds"));
    }
    let mut numbers = HashMap::new();
    let mut rounds = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let key = format!("round[{i}]");
        if r.number == 0 {
            p.typed(format!("{key}.number"), Message::new("config-round-zero"));
        }
        if let Some(max) = planned {
            if r.number > max {
                p.typed(
                    format!("{key}.number"),
                    Message::new("config-round-beyond-planned")
                        .int("round", r.number)
                        .int("planned", max),
                );
            }
        }
        if let Some(prev) = numbers.insert(r.number, i) {
            p.typed(
                format!("{key}.number"),
                Message::new("config-round-twice")
                    .int("round", r.number)
                    .verbatim("other", format!("round[{prev}]")),
            );
        }
        if let Some(d) = &r.date {
            if !is_date(d) {
                p.typed(
                    format!("{key}.date"),
                    Message::new("config-not-a-date").verbatim("value", d),
                );
            }
        }
        if let Some(s) = &r.start {
            if !is_time(s) {
                p.typed(
                    format!("{key}.start"),
                    Message::new("config-not-a-time").verbatim("value", s),
                );
            }
        }
        if r.table.is_empty() {
            p.typed(
                format!("{key}.table"),
                Message::new("config-round-no-tables"),
            );
        }
        let tables = validate_pairings(&key, &r.table, team, p);
        rounds.push(Round {
            number: r.number,
            date: r.date.clone(),
            start: r.start.clone(),
            tables,
        });
    }
    check_player_ids(&rounds, p);
    rounds
}

/// One registration id means one player: across every round an id is
/// always given with the same name, and a name that carries an id in one
/// pairing carries one everywhere (else the exports could not tell whether
/// the bare name is the same player).
fn check_player_ids(rounds: &[Round], p: &mut Problems) {
    let mut name_of_id: HashMap<&str, (&str, String)> = HashMap::new();
    let mut ids_of_name: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    let mut bare: HashMap<&str, String> = HashMap::new();
    for (i, r) in rounds.iter().enumerate() {
        for (j, t) in r.tables.iter().enumerate() {
            for (side, name, id) in [
                ("red", t.red.as_str(), t.red_id.as_deref()),
                ("black", t.black.as_str(), t.black_id.as_deref()),
            ] {
                let key = format!("round[{i}].table[{j}].{side}_id");
                match id {
                    Some(id) => {
                        ids_of_name.entry(name).or_default().insert(id);
                        match name_of_id.get(id) {
                            Some((other, at)) if *other != name => p.typed(
                                key,
                                Message::new("config-id-two-names")
                                    .verbatim("id", id)
                                    .verbatim("name", name)
                                    .verbatim("other", *other)
                                    .verbatim("at", at.as_str()),
                            ),
                            Some(_) => {}
                            None => {
                                name_of_id.insert(id, (name, key));
                            }
                        }
                    }
                    None => {
                        bare.entry(name).or_insert(key);
                    }
                }
            }
        }
    }
    for (name, at) in bare {
        if let Some(ids) = ids_of_name.get(name) {
            let ids: Vec<&str> = ids.iter().copied().collect();
            p.typed(
                at,
                Message::new("config-id-missing-here")
                    .verbatim("name", name)
                    .verbatim("ids", ids.join(", ")),
            );
        }
    }
}

/// A registration id: 1 to [`MAX_PLAYER_ID`] characters (TRF-16 columns
/// 58-68), no spaces or control characters.
fn check_player_id(key: &str, id: &str, p: &mut Problems) {
    if id.is_empty() {
        p.typed(key, Message::new("config-empty-id"));
    } else if id.chars().count() > MAX_PLAYER_ID {
        p.typed(
            key,
            Message::new("config-id-too-long")
                .verbatim("id", id)
                .int("max", MAX_PLAYER_ID as i64),
        );
    } else if id.chars().any(|c| c.is_whitespace() || c.is_control()) {
        p.typed(
            key,
            Message::new("config-id-spaces").verbatim("id", format!("{id:?}")),
        );
    }
}

fn validate_pairings(
    round_key: &str,
    raw: &[RawPairing],
    team: bool,
    p: &mut Problems,
) -> Vec<Pairing> {
    let mut tables = HashMap::new();
    let mut players: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (j, t) in raw.iter().enumerate() {
        let key = format!("{round_key}.table[{j}]");
        if t.table == 0 || t.table > MAX_TABLE {
            p.typed(
                format!("{key}.table"),
                Message::new("config-table-out-of-range")
                    .int("table", t.table)
                    .int("max", MAX_TABLE),
            );
        }
        if let Some(prev) = tables.insert(t.table, j) {
            p.typed(
                format!("{key}.table"),
                Message::new("config-table-twice")
                    .int("table", t.table)
                    .verbatim("other", format!("{round_key}.table[{prev}]")),
            );
        }
        let red = t.red.trim();
        let black = t.black.trim();
        for (side, id) in [("red_id", &t.red_id), ("black_id", &t.black_id)] {
            if let Some(id) = id {
                check_player_id(&format!("{key}.{side}"), id, p);
            }
        }
        for (side, name, id) in [("red", red, &t.red_id), ("black", black, &t.black_id)] {
            if name.is_empty() {
                p.typed(format!("{key}.{side}"), Message::new("config-empty-player"));
                continue;
            }
            let player = id.clone().unwrap_or_else(|| name.to_string());
            if let Some(prev) = players.insert(player, j) {
                if prev != j {
                    p.typed(
                        format!("{key}.{side}"),
                        Message::new("config-player-twice")
                            .verbatim("name", name)
                            .verbatim("other", format!("{round_key}.table[{prev}]")),
                    );
                }
            }
        }
        let same_player = match (&t.red_id, &t.black_id) {
            (Some(a), Some(b)) => a == b,
            _ => red == black,
        };
        if !red.is_empty() && same_player {
            p.typed(
                format!("{key}.black"),
                Message::new("config-plays-itself").verbatim("name", black),
            );
        }
        if team {
            for (side, v) in [("red_team", &t.red_team), ("black_team", &t.black_team)] {
                if v.as_deref().is_none_or(|s| s.trim().is_empty()) {
                    p.typed(format!("{key}.{side}"), Message::new("config-teams-needed"));
                }
            }
        }
        out.push(Pairing {
            table: t.table,
            red: red.to_string(),
            black: black.to_string(),
            red_team: t.red_team.clone(),
            black_team: t.black_team.clone(),
            red_id: t.red_id.clone(),
            black_id: t.black_id.clone(),
        });
    }
    out
}

fn validate_credentials(
    c: &RawCredentials,
    round_tables: &BTreeSet<u32>,
    round: u32,
    base_dir: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    p: &mut Problems,
) -> Credentials {
    let mut tokens = Tokens {
        base_dir,
        env,
        seen: Vec::new(),
    };
    let ck = "credentials.chief";
    let chief = &c.chief;
    let chief_token = tokens.resolve(
        ck,
        "token",
        (&chief.token, &chief.token_file, &chief.token_env),
        p,
    );
    if chief_token.is_none() && !p.0.iter().any(|x| x.key.starts_with(ck)) {
        p.typed(ck, Message::new("config-no-token"));
    }
    let mut names = Names::default();
    names.check(ck.to_string(), &c.chief.name, p);
    let deputies = validate_deputies(c, &mut tokens, &mut names, round_tables, round, p);
    let viewers = validate_viewers(c, &mut tokens, &mut names, p);
    let tables = table_tokens(c, &mut tokens, round_tables, round, p);
    let credentials = Credentials {
        chief: Account {
            name: c.chief.name.trim().to_string(),
            token: chief_token.unwrap_or_else(|| Token::new(String::new())),
        },
        deputies,
        deputies_cover_all_tables: c.deputies_cover_all_tables,
        viewers,
        tables,
    };
    check_coverage(&credentials, round_tables, round, p);
    credentials
}

/// A token's three optional forms in the raw config: inline, a file, an
/// environment variable.
type TokenForms<'a> = (
    &'a Option<String>,
    &'a Option<std::path::PathBuf>,
    &'a Option<String>,
);

/// Resolves the `[credentials]` tokens, remembering each one with its key
/// to find duplicates.
struct Tokens<'a> {
    base_dir: &'a Path,
    env: &'a dyn Fn(&str) -> Option<String>,
    /// Every resolved token with its key path.
    seen: Vec<(String, Token)>,
}

impl Tokens<'_> {
    /// The token `what` under `key`, from one of its inline, file and
    /// environment forms; problems go to `p`.
    fn resolve(
        &mut self,
        key: &str,
        what: &str,
        (inline, file, envv): TokenForms<'_>,
        p: &mut Problems,
    ) -> Option<Token> {
        match TokenSource::pick(what, inline.as_ref(), file.as_ref(), envv.as_ref()) {
            Err(e) => {
                p.typed(key, e);
                None
            }
            Ok(None) => None,
            Ok(Some(src)) => {
                let k = match &src {
                    TokenSource::Inline(_) => format!("{key}.{what}"),
                    TokenSource::File(_) => format!("{key}.{what}_file"),
                    TokenSource::Env(_) => format!("{key}.{what}_env"),
                };
                match src.resolve(self.base_dir, self.env) {
                    Err(e) => {
                        p.typed(k, e);
                        None
                    }
                    Ok(tok) => {
                        if let Some((other, _)) = self.seen.iter().find(|(_, t)| *t == tok) {
                            p.typed(
                                k.clone(),
                                Message::new("config-same-token").verbatim("other", other.as_str()),
                            );
                        }
                        self.seen.push((k, tok.clone()));
                        Some(tok)
                    }
                }
            }
        }
    }

    /// The key of a token already resolved that equals `tok`.
    fn holder_of(&self, tok: &Token) -> Option<&str> {
        self.seen
            .iter()
            .find(|(_, t)| t == tok)
            .map(|(k, _)| k.as_str())
    }
}

/// The names of the accounts, each unique.
#[derive(Default)]
struct Names(HashMap<String, String>);

impl Names {
    fn check(&mut self, key: String, name: &str, p: &mut Problems) {
        if name.trim().is_empty() {
            p.typed(
                format!("{key}.name"),
                Message::new("config-empty-account-name"),
            );
        } else if let Some(other) = self.0.insert(name.trim().to_string(), key.clone()) {
            p.typed(
                format!("{key}.name"),
                Message::new("config-name-twice")
                    .verbatim("name", name)
                    .verbatim("other", other),
            );
        }
    }
}

/// `[[credentials.deputy]]`: each with its name, token and tables of the
/// round.
fn validate_deputies(
    c: &RawCredentials,
    tokens: &mut Tokens<'_>,
    names: &mut Names,
    round_tables: &BTreeSet<u32>,
    round: u32,
    p: &mut Problems,
) -> Vec<Deputy> {
    let mut deputies = Vec::new();
    for (i, d) in c.deputy.iter().enumerate() {
        let key = format!("credentials.deputy[{i}]");
        names.check(key.clone(), &d.name, p);
        let token = tokens.resolve(&key, "token", (&d.token, &d.token_file, &d.token_env), p);
        if token.is_none() && !p.0.iter().any(|x| x.key.starts_with(&key)) {
            p.typed(&key, Message::new("config-no-token"));
        }
        let (tables, assignment) = deputy_tables(&key, &d.tables, round_tables, round, p);
        if let Some(token) = token {
            deputies.push(Deputy {
                name: d.name.trim().to_string(),
                token,
                tables,
                assignment,
            });
        }
    }
    deputies
}

/// A deputy's `tables` (under `key`): a list of tables of the round, or
/// ranges with at least one table of the round (`crate::deputies`).
fn deputy_tables(
    key: &str,
    raw: &RawTables,
    round_tables: &BTreeSet<u32>,
    round: u32,
    p: &mut Problems,
) -> (BTreeSet<u32>, Assignment) {
    let key = format!("{key}.tables");
    let mut tables = BTreeSet::new();
    match raw {
        RawTables::List(list) => {
            if list.is_empty() {
                p.typed(&key, Message::new("config-no-tables-assigned"));
            }
            for t in list {
                if !round_tables.contains(t) {
                    p.typed(
                        &key,
                        Message::new("config-table-not-in-round")
                            .int("table", *t)
                            .int("round", round),
                    );
                }
                if !tables.insert(*t) {
                    p.typed(
                        &key,
                        Message::new("config-table-listed-twice").int("table", *t),
                    );
                }
            }
            (tables, Assignment::Same)
        }
        RawTables::Ranges(text) => {
            match crate::deputies::parse_ranges(text) {
                Err(e) => p.typed(&key, e),
                Ok(t) if t.is_disjoint(round_tables) => p.typed(
                    &key,
                    Message::new("config-ranges-no-table")
                        .verbatim("ranges", text.as_str())
                        .int("round", round),
                ),
                Ok(t) => tables = t,
            }
            (tables, Assignment::Ranges(text.trim().to_string()))
        }
    }
}

/// `deputies_cover_all_tables`: every table of the config's round has a
/// deputy.
fn check_coverage(c: &Credentials, round_tables: &BTreeSet<u32>, round: u32, p: &mut Problems) {
    if let Some(why) = crate::deputies::check(c, round_tables).refusal(round) {
        p.typed("credentials.deputies_cover_all_tables", why);
    }
}

/// `[[credentials.viewer]]`: each with its name and token.
fn validate_viewers(
    c: &RawCredentials,
    tokens: &mut Tokens<'_>,
    names: &mut Names,
    p: &mut Problems,
) -> Vec<Account> {
    let mut viewers = Vec::new();
    for (i, v) in c.viewer.iter().enumerate() {
        let key = format!("credentials.viewer[{i}]");
        names.check(key.clone(), &v.name, p);
        let token = tokens.resolve(&key, "token", (&v.token, &v.token_file, &v.token_env), p);
        match token {
            Some(token) => viewers.push(Account {
                name: v.name.trim().to_string(),
                token,
            }),
            None if !p.0.iter().any(|x| x.key.starts_with(&key)) => {
                p.typed(&key, Message::new("config-no-token"))
            }
            None => {}
        }
    }
    viewers
}

/// Table tokens: explicit `[[credentials.table]]` entries first, then the
/// derived scheme (`table_secret`) for every other table of the round.
fn table_tokens(
    c: &RawCredentials,
    tokens: &mut Tokens<'_>,
    round_tables: &BTreeSet<u32>,
    round: u32,
    p: &mut Problems,
) -> BTreeMap<u32, Token> {
    let mut tables = BTreeMap::new();
    for (i, t) in c.table.iter().enumerate() {
        let key = format!("credentials.table[{i}]");
        if !round_tables.contains(&t.table) {
            p.typed(
                format!("{key}.table"),
                Message::new("config-table-not-in-round")
                    .int("table", t.table)
                    .int("round", round),
            );
        }
        let token = tokens.resolve(&key, "token", (&t.token, &t.token_file, &t.token_env), p);
        if token.is_none() && !p.0.iter().any(|x| x.key.starts_with(&key)) {
            p.typed(&key, Message::new("config-no-token"));
        }
        if let Some(token) = token {
            if tables.insert(t.table, token).is_some() {
                p.typed(
                    format!("{key}.table"),
                    Message::new("config-table-two-tokens").int("table", t.table),
                );
            }
        }
    }
    let secret = tokens.resolve(
        "credentials",
        "table_secret",
        (&c.table_secret, &c.table_secret_file, &c.table_secret_env),
        p,
    );
    for table in round_tables {
        if tables.contains_key(table) {
            continue;
        }
        match &secret {
            Some(s) => {
                let tok = derive_table_token(s, *table);
                if let Some(other) = tokens.holder_of(&tok) {
                    p.typed(
                        format!("credentials.table_secret (table {table})"),
                        Message::new("config-derived-token-equals").verbatim("other", other),
                    );
                }
                tables.insert(*table, tok);
            }
            None => p.typed(
                "credentials",
                Message::new("config-table-no-token").int("table", *table),
            ),
        }
    }
    tables
}

/// A count as a message argument (`i64`; a larger one is shown as the
/// largest).
fn clamp(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The catalogue's words for a `[time_control]` problem (every
/// `ClockProblem` named, so a new one fails to compile until worded).
fn clock_problem(reason: &ClockProblem) -> Message {
    let id = match reason {
        ClockProblem::NotPositive => "config-clock-not-positive",
        ClockProblem::NoPeriods => "config-clock-no-periods",
        ClockProblem::PeriodsDoNotIncrease => "config-clock-periods-increase",
        ClockProblem::EmptyBlock => "config-clock-empty-block",
        ClockProblem::BaseTwice => "config-clock-base-twice",
        ClockProblem::TooLarge => "config-clock-too-large",
        ClockProblem::SuddenDeathIncrement => "config-clock-sudden-death-increment",
        ClockProblem::SuddenDeathNoBase => "config-clock-sudden-death-no-base",
        ClockProblem::TraditionalBase => "config-clock-traditional-base",
        ClockProblem::UnknownKind(kind) => {
            return Message::new("config-clock-unknown-kind").verbatim("value", kind.as_str())
        }
        ClockProblem::TraditionalKeysOnly => "config-clock-traditional-keys",
        ClockProblem::InternalDefault => "config-clock-internal-default",
        ClockProblem::TooManyMoves => "config-clock-too-many-moves",
        ClockProblem::TooManyMinutes => "config-clock-too-many-minutes",
    };
    Message::new(id)
}

/// The catalogue's words for a rule parameter's problem.
fn rule_problem(reason: &RuleProblem) -> Message {
    match reason {
        RuleProblem::AtLeastOne => Message::new("config-at-least-one"),
        RuleProblem::MinutesTooLarge(m) => {
            Message::new("config-minutes-too-large").int("value", clamp(*m))
        }
        RuleProblem::SecondsTooLarge(s) => {
            Message::new("config-seconds-too-large").int("value", clamp(*s))
        }
        RuleProblem::CyclesAfterOrder(v) => {
            Message::new("config-cycles-after-order").int("value", clamp(*v))
        }
    }
}

/// A real calendar date written `YYYY-MM-DD` (`2026-02-31` is not one).
fn is_date(s: &str) -> bool {
    parse_date(s).is_some()
}

fn parse_date(s: &str) -> Option<jiff::civil::Date> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r).and_then(|x| x.parse::<i16>().ok());
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(1900..=2200).contains(&y) {
        return None;
    }
    jiff::civil::Date::new(y, i8::try_from(m).ok()?, i8::try_from(d).ok()?).ok()
}

/// Unix ms of `date` (YYYY-MM-DD) at `time` (HH:MM) in the IANA zone
/// `zone`, or the machine's time zone when `None`. Across a daylight-saving
/// change the wall time is read as jiff's "compatible" rule does: a time in
/// the gap moves forward by the gap, a time in the repeated hour is its
/// first occurrence.
pub(super) fn unix_ms(date: &str, time: &str, zone: Option<&str>) -> Option<u64> {
    if !is_time(time) {
        return None;
    }
    let date = parse_date(date)?;
    let (h, m) = time.split_once(':')?;
    let at = date.at(h.parse().ok()?, m.parse().ok()?, 0, 0);
    let tz = match zone {
        Some(z) => jiff::tz::TimeZone::get(z).ok()?,
        None => jiff::tz::TimeZone::system(),
    };
    let zoned = at.to_zoned_datetime(tz).ok()?;
    u64::try_from(zoned.timestamp().as_millisecond()).ok()
}

fn is_time(s: &str) -> bool {
    let Some((h, m)) = s.split_once(':') else {
        return false;
    };
    h.len() == 2
        && m.len() == 2
        && h.parse::<u32>().is_ok_and(|h| h < 24)
        && m.parse::<u32>().is_ok_and(|m| m < 60)
}

#[cfg(test)]
mod time_tests {
    use super::*;

    #[test]
    fn round_start_times_in_a_zone() {
        assert_eq!(unix_ms("1970-01-01", "00:00", Some("UTC")), Some(0));
        assert_eq!(
            unix_ms("2026-11-29", "09:00", Some("Asia/Shanghai")),
            Some(1_795_914_000_000)
        );
        assert_eq!(
            unix_ms("2024-02-29", "12:34", Some("UTC")),
            Some(1_709_210_040_000)
        );
        assert_eq!(unix_ms("2024-02-29", "25:00", Some("UTC")), None);
        assert_eq!(unix_ms("2026-02-31", "09:00", Some("UTC")), None);
        assert_eq!(unix_ms("2026-11-29", "09:00", Some("Mars/Olympus")), None);
    }

    #[test]
    fn round_starts_follow_daylight_saving() {
        // Europe/Berlin moves from +01:00 to +02:00 on 2026-03-29 at 02:00.
        // 09:00 on the change day is 07:00 UTC; the day before, 08:00 UTC.
        let before = unix_ms("2026-03-28", "09:00", Some("Europe/Berlin")).unwrap();
        let change = unix_ms("2026-03-29", "09:00", Some("Europe/Berlin")).unwrap();
        assert_eq!(before, 1_774_684_800_000); // 2026-03-28T08:00:00Z
        assert_eq!(change, 1_774_767_600_000); // 2026-03-29T07:00:00Z
        assert_eq!(change - before, 23 * 3_600_000, "a 23-hour day");
        // 02:30 does not exist that day: read as 03:30 CEST = 01:30 UTC.
        assert_eq!(
            unix_ms("2026-03-29", "02:30", Some("Europe/Berlin")),
            Some(1_774_747_800_000)
        );
        // America/New_York falls back on 2026-11-01: 01:30 happens twice;
        // the first (EDT, -04:00) is taken: 05:30 UTC.
        assert_eq!(
            unix_ms("2026-11-01", "01:30", Some("America/New_York")),
            Some(1_793_511_000_000)
        );
    }

    #[test]
    fn impossible_dates_are_not_dates() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2026-02-29"));
        assert!(!is_date("2026-02-31"));
        assert!(!is_date("2026-04-31"));
        assert!(!is_date("2026-13-01"));
        assert!(!is_date("26-11-29"));
    }
}
