//! Parsing (TOML → [`RawHall`]) and validation (→ [`HallConfig`]) of the
//! hall config. Syntax and type errors carry the serde key path; semantic
//! checks collect every problem with its key path.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::SocketAddr;
use std::path::Path;

use rulebook::ruleset::{FoulOverrides, RuleSetError, RulesConfig};
use sha2::{Digest, Sha256};

use super::raw::{RawCredentials, RawHall, RawPairing, RawRound};
use super::secret::{derive_table_token, hex, Token, TokenSource};
use super::{
    Account, AlertTimings, ConfigError, ConfigProblem, Credentials, Deputy, HallConfig, Pairing,
    Round, RuleParams, RuleSet, ServerConfig, TeamMatch, TimeControl, Tournament,
};

/// Highest table number accepted (a hall of 9999 tables is plenty).
const MAX_TABLE: u32 = 9999;

/// TOML text → raw structs; errors name the key path and the line.
pub(super) fn parse(text: &str) -> Result<RawHall, ConfigError> {
    let de = toml::Deserializer::parse(text).map_err(|e| {
        ConfigError::Syntax(ConfigProblem {
            key: line_of(text, e.span()).unwrap_or_else(|| "(file)".into()),
            problem: e.message().trim().to_string(),
        })
    })?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.inner();
        let mut problem = inner.message().trim().to_string();
        if let Some(line) = line_of(text, inner.span()) {
            problem.push_str(&format!(" ({line})"));
        }
        ConfigError::Syntax(ConfigProblem {
            key: if path == "." {
                "(top level)".into()
            } else {
                path
            },
            problem,
        })
    })
}

fn line_of(text: &str, span: Option<std::ops::Range<usize>>) -> Option<String> {
    let start = span?.start.min(text.len());
    let line = text.as_bytes()[..start]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1;
    Some(format!("line {line}"))
}

/// Collects problems with their key paths.
#[derive(Default)]
struct Problems(Vec<ConfigProblem>);

impl Problems {
    fn add(&mut self, key: impl Into<String>, problem: impl Into<String>) {
        self.0.push(ConfigProblem {
            key: key.into(),
            problem: problem.into(),
        });
    }
}

/// Raw → validated, with every problem found.
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
            p.add(
                "rules",
                format!("unknown rule set `{s}` (expected axf, roc or cxa)"),
            );
            RuleSet::Axf
        }),
    };

    // [tournament]
    let t = &raw.tournament;
    if t.name.trim().is_empty() {
        p.add("tournament.name", "empty tournament name");
    }
    if !t.date.is_empty() && !is_date(&t.date) {
        p.add(
            "tournament.date",
            format!("`{}` is not a date (YYYY-MM-DD)", t.date),
        );
    }
    let utc_offset_minutes = t.utc_offset.as_deref().and_then(|o| {
        let m = parse_offset(o);
        if m.is_none() {
            p.add(
                "tournament.utc_offset",
                format!("`{o}` is not an offset like +08:00 or -05:30"),
            );
        }
        m
    });
    if t.rounds_planned == Some(0) {
        p.add("tournament.rounds_planned", "must be at least 1");
    }
    let team_match = t.team_match.as_ref().map(|tm| {
        if tm.boards == 0 {
            p.add("tournament.team_match.boards", "must be at least 1");
        }
        if tm.match_points_draw > tm.match_points_win {
            p.add(
                "tournament.team_match.match_points_draw",
                "more points for a draw than for a win",
            );
        }
        TeamMatch {
            boards: tm.boards,
            match_points_win: tm.match_points_win,
            match_points_draw: tm.match_points_draw,
        }
    });

    // [[round]]
    let rounds = validate_rounds(&raw.round, t.rounds_planned, team_match.is_some(), &mut p);
    let current_round = match t.current_round {
        Some(n) => {
            if !rounds.iter().any(|r| r.number == n) {
                p.add(
                    "tournament.current_round",
                    format!("round {n} has no [[round]] section"),
                );
            }
            n
        }
        None => rounds.first().map(|r| r.number).unwrap_or(1),
    };
    let round_tables: BTreeSet<u32> = rounds
        .iter()
        .find(|r| r.number == current_round)
        .map(|r| r.tables.iter().map(|p| p.table).collect())
        .unwrap_or_default();

    // [time_control]: the rulebook resolves it; its errors name the key.
    let time_control = raw.time_control.resolve().unwrap_or_else(|e| {
        p.add(e.key, e.reason);
        TimeControl::default()
    });

    // [server]
    let listen_text = raw.server.listen.as_deref().unwrap_or("127.0.0.1:4433");
    let listen = listen_text.parse::<SocketAddr>().unwrap_or_else(|e| {
        p.add(
            "server.listen",
            format!("`{listen_text}` is not an address like 127.0.0.1:4433 ({e})"),
        );
        SocketAddr::from(([127, 0, 0, 1], 4433))
    });
    let data_dir = base_dir.join(
        raw.server
            .data_dir
            .clone()
            .unwrap_or_else(|| "data/hall".into()),
    );
    if raw
        .server
        .data_dir
        .as_ref()
        .is_some_and(|d| d.as_os_str().is_empty())
    {
        p.add("server.data_dir", "empty path");
    }

    let defaults = super::PeerLimits::default();
    let at_least_one = |key: &str, v: Option<usize>, default: usize, p: &mut Problems| match v {
        Some(0) => {
            p.add(key, "must be at least 1");
            default
        }
        Some(n) => n,
        None => default,
    };
    let limits = super::PeerLimits {
        connections_per_token: at_least_one(
            "server.connections_per_token",
            raw.server.connections_per_token,
            defaults.connections_per_token,
            &mut p,
        ),
        unauthenticated: at_least_one(
            "server.unauthenticated",
            raw.server.unauthenticated,
            defaults.unauthenticated,
            &mut p,
        ),
        unauthenticated_per_address: at_least_one(
            "server.unauthenticated_per_address",
            raw.server.unauthenticated_per_address,
            defaults.unauthenticated_per_address,
            &mut p,
        ),
        retry_threshold: raw
            .server
            .retry_threshold
            .unwrap_or(defaults.retry_threshold),
    };

    // [natural_limit] and [arbitration] → the rulebook's parameters.
    let rule_params = resolve_rules(rules, &raw, &mut p);

    // [alerts]
    let alerts = {
        let a = &raw.alerts;
        let d = AlertTimings::default();
        let secs = |key: &str, v: Option<u64>, default: u64, p: &mut Problems| match v {
            None => default,
            Some(s) => s.checked_mul(1000).unwrap_or_else(|| {
                p.add(key, format!("{s} seconds is too large"));
                default
            }),
        };
        AlertTimings {
            offline_grace_ms: secs(
                "alerts.offline_grace_seconds",
                a.offline_grace_seconds,
                d.offline_grace_ms,
                &mut p,
            ),
            flag_grace_ms: secs(
                "alerts.flag_grace_seconds",
                a.flag_grace_seconds,
                d.flag_grace_ms,
                &mut p,
            ),
        }
    };

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
            p.add(k, why);
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
            utc_offset_minutes,
        },
        rules,
        rule_params,
        time_control,
        server: ServerConfig {
            listen,
            data_dir,
            limits,
        },
        alerts,
        rounds,
        credentials,
        store,
        config_sha256: hex(&Sha256::digest(text.as_bytes())),
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
            p.add(key, "must be at least 1");
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
            p.add(s_key, format!("give either {m_key} or {s_key}, not both"));
        }
        if seconds == Some(0) {
            p.add(s_key, "must be at least 1");
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
                p.add("natural_limit.required_plies", "must be at most 1000");
            }
            if l.check_cap > l.required_plies {
                p.add(
                    "natural_limit.check_cap",
                    "more counted checks than plies in the limit",
                );
            }
            params
        }
        Err(e) => {
            let (key, reason) = match e {
                RuleSetError::InvalidValue { key, reason } => (key.to_string(), reason),
                RuleSetError::UnknownRuleSet(name) => {
                    ("rules".to_string(), format!("unknown rule set `{name}`"))
                }
            };
            let key = key
                .replace("rules.limit.", "natural_limit.")
                .replace(
                    "rules.fouls.adjournment_late_minutes",
                    "arbitration.adjourn_late_minutes",
                )
                .replace("rules.fouls.", "arbitration.");
            p.add(key, reason);
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
        p.add(
            "round",
            "no [[round]] section: give at least the current round",
        );
    }
    let mut numbers = HashMap::new();
    let mut rounds = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let key = format!("round[{i}]");
        if r.number == 0 {
            p.add(format!("{key}.number"), "round numbers start at 1");
        }
        if let Some(max) = planned {
            if r.number > max {
                p.add(
                    format!("{key}.number"),
                    format!(
                        "round {} is beyond tournament.rounds_planned = {max}",
                        r.number
                    ),
                );
            }
        }
        if let Some(prev) = numbers.insert(r.number, i) {
            p.add(
                format!("{key}.number"),
                format!("round {} is also round[{prev}]", r.number),
            );
        }
        if let Some(d) = &r.date {
            if !is_date(d) {
                p.add(
                    format!("{key}.date"),
                    format!("`{d}` is not a date (YYYY-MM-DD)"),
                );
            }
        }
        if let Some(s) = &r.start {
            if !is_time(s) {
                p.add(
                    format!("{key}.start"),
                    format!("`{s}` is not a time (HH:MM)"),
                );
            }
        }
        if r.table.is_empty() {
            p.add(format!("{key}.table"), "round has no tables");
        }
        let tables = validate_pairings(&key, &r.table, team, p);
        rounds.push(Round {
            number: r.number,
            date: r.date.clone(),
            start: r.start.clone(),
            tables,
        });
    }
    rounds
}

fn validate_pairings(
    round_key: &str,
    raw: &[RawPairing],
    team: bool,
    p: &mut Problems,
) -> Vec<Pairing> {
    let mut tables = HashMap::new();
    let mut players: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for (j, t) in raw.iter().enumerate() {
        let key = format!("{round_key}.table[{j}]");
        if t.table == 0 || t.table > MAX_TABLE {
            p.add(
                format!("{key}.table"),
                format!("table {} is out of range 1..={MAX_TABLE}", t.table),
            );
        }
        if let Some(prev) = tables.insert(t.table, j) {
            p.add(
                format!("{key}.table"),
                format!(
                    "duplicate table {} (also {round_key}.table[{prev}])",
                    t.table
                ),
            );
        }
        let red = t.red.trim();
        let black = t.black.trim();
        for (side, name) in [("red", red), ("black", black)] {
            if name.is_empty() {
                p.add(format!("{key}.{side}"), "empty player name");
                continue;
            }
            if let Some(prev) = players.insert(name, j) {
                if prev != j {
                    p.add(
                        format!("{key}.{side}"),
                        format!("{name} already plays at {round_key}.table[{prev}]"),
                    );
                }
            }
        }
        if !red.is_empty() && red == black {
            p.add(
                format!("{key}.black"),
                format!("{black} cannot play against itself"),
            );
        }
        if team {
            for (side, v) in [("red_team", &t.red_team), ("black_team", &t.black_team)] {
                if v.as_deref().is_none_or(|s| s.trim().is_empty()) {
                    p.add(
                        format!("{key}.{side}"),
                        "team events (tournament.team_match) need both teams",
                    );
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
    // Every resolved token with its key path, to find duplicates.
    let mut seen: Vec<(String, Token)> = Vec::new();
    let mut resolve = |key: &str,
                       what: &str,
                       inline: Option<&String>,
                       file: Option<&std::path::PathBuf>,
                       envv: Option<&String>,
                       p: &mut Problems|
     -> Option<Token> {
        match TokenSource::pick(what, inline, file, envv) {
            Err(e) => {
                p.add(key, e);
                None
            }
            Ok(None) => None,
            Ok(Some(src)) => {
                let k = match &src {
                    TokenSource::Inline(_) => format!("{key}.{what}"),
                    TokenSource::File(_) => format!("{key}.{what}_file"),
                    TokenSource::Env(_) => format!("{key}.{what}_env"),
                };
                match src.resolve(base_dir, env) {
                    Err(e) => {
                        p.add(k, e);
                        None
                    }
                    Ok(tok) => {
                        if let Some((other, _)) = seen.iter().find(|(_, t)| *t == tok) {
                            p.add(
                                k.clone(),
                                format!("same token as {other} (every token must be unique)"),
                            );
                        }
                        seen.push((k, tok.clone()));
                        Some(tok)
                    }
                }
            }
        }
    };

    let ck = "credentials.chief";
    let chief_token = resolve(
        ck,
        "token",
        c.chief.token.as_ref(),
        c.chief.token_file.as_ref(),
        c.chief.token_env.as_ref(),
        p,
    );
    if chief_token.is_none() && !p.0.iter().any(|x| x.key.starts_with(ck)) {
        p.add(ck, "no token (give token, token_file or token_env)");
    }
    let mut names: HashMap<String, String> = HashMap::new();
    let mut check_name = |key: String, name: &str, p: &mut Problems| {
        if name.trim().is_empty() {
            p.add(format!("{key}.name"), "empty name");
        } else if let Some(other) = names.insert(name.trim().to_string(), key.clone()) {
            p.add(
                format!("{key}.name"),
                format!("name {name} is also used by {other}"),
            );
        }
    };
    check_name(ck.to_string(), &c.chief.name, p);

    let mut deputies = Vec::new();
    for (i, d) in c.deputy.iter().enumerate() {
        let key = format!("credentials.deputy[{i}]");
        check_name(key.clone(), &d.name, p);
        let token = resolve(
            &key,
            "token",
            d.token.as_ref(),
            d.token_file.as_ref(),
            d.token_env.as_ref(),
            p,
        );
        if token.is_none() && !p.0.iter().any(|x| x.key.starts_with(&key)) {
            p.add(&key, "no token (give token, token_file or token_env)");
        }
        let mut tables = BTreeSet::new();
        if d.tables.is_empty() {
            p.add(format!("{key}.tables"), "no tables assigned");
        }
        for t in &d.tables {
            if !round_tables.contains(t) {
                p.add(
                    format!("{key}.tables"),
                    format!("table {t} is not in round {round}"),
                );
            }
            if !tables.insert(*t) {
                p.add(format!("{key}.tables"), format!("table {t} listed twice"));
            }
        }
        if let Some(token) = token {
            deputies.push(Deputy {
                name: d.name.trim().to_string(),
                token,
                tables,
            });
        }
    }

    let mut viewers = Vec::new();
    for (i, v) in c.viewer.iter().enumerate() {
        let key = format!("credentials.viewer[{i}]");
        check_name(key.clone(), &v.name, p);
        let token = resolve(
            &key,
            "token",
            v.token.as_ref(),
            v.token_file.as_ref(),
            v.token_env.as_ref(),
            p,
        );
        match token {
            Some(token) => viewers.push(Account {
                name: v.name.trim().to_string(),
                token,
            }),
            None if !p.0.iter().any(|x| x.key.starts_with(&key)) => {
                p.add(&key, "no token (give token, token_file or token_env)")
            }
            None => {}
        }
    }

    // Table tokens: explicit entries first, then the derived scheme.
    let mut tables = BTreeMap::new();
    for (i, t) in c.table.iter().enumerate() {
        let key = format!("credentials.table[{i}]");
        if !round_tables.contains(&t.table) {
            p.add(
                format!("{key}.table"),
                format!("table {} is not in round {round}", t.table),
            );
        }
        let token = resolve(
            &key,
            "token",
            t.token.as_ref(),
            t.token_file.as_ref(),
            t.token_env.as_ref(),
            p,
        );
        if token.is_none() && !p.0.iter().any(|x| x.key.starts_with(&key)) {
            p.add(&key, "no token (give token, token_file or token_env)");
        }
        if let Some(token) = token {
            if tables.insert(t.table, token).is_some() {
                p.add(
                    format!("{key}.table"),
                    format!("table {} has two tokens", t.table),
                );
            }
        }
    }
    let secret = resolve(
        "credentials",
        "table_secret",
        c.table_secret.as_ref(),
        c.table_secret_file.as_ref(),
        c.table_secret_env.as_ref(),
        p,
    );
    for table in round_tables {
        if tables.contains_key(table) {
            continue;
        }
        match &secret {
            Some(s) => {
                let tok = derive_table_token(s, *table);
                if let Some((other, _)) = seen.iter().find(|(_, t)| *t == tok) {
                    p.add(
                        format!("credentials.table_secret (table {table})"),
                        format!("derived token equals {other}"),
                    );
                }
                tables.insert(*table, tok);
            }
            None => p.add(
                "credentials",
                format!(
                    "table {table} has no token (give [[credentials.table]] or credentials.table_secret)"
                ),
            ),
        }
    }

    Credentials {
        chief: Account {
            name: c.chief.name.trim().to_string(),
            token: chief_token.unwrap_or_else(|| Token::new(String::new())),
        },
        deputies,
        viewers,
        tables,
    }
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| s.get(r).and_then(|x| x.parse::<u32>().ok());
    matches!((num(0..4), num(5..7), num(8..10)), (Some(y), Some(m), Some(d))
        if (1900..=2200).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d))
}

/// `+08:00` / `-05:30` / `Z` as minutes east of UTC.
fn parse_offset(s: &str) -> Option<i32> {
    if s == "Z" || s == "z" {
        return Some(0);
    }
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    let (h, m) = rest.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let h: i32 = h.parse().ok()?;
    let m: i32 = m.parse().ok()?;
    (h <= 14 && m < 60).then_some(sign * (h * 60 + m))
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Unix ms of `date` (YYYY-MM-DD) at `time` (HH:MM) with the offset east of
/// UTC in minutes, or the machine's local time zone when `None`.
pub(super) fn unix_ms(date: &str, time: &str, offset_minutes: Option<i32>) -> Option<u64> {
    if !is_date(date) || !is_time(time) {
        return None;
    }
    let n = |r: std::ops::Range<usize>, s: &str| s.get(r).and_then(|x| x.parse::<i64>().ok());
    let (y, mo, d) = (n(0..4, date)?, n(5..7, date)?, n(8..10, date)?);
    let (h, mi) = (n(0..2, time)?, n(3..5, time)?);
    let local_secs = days_from_civil(y, mo, d) * 86_400 + h * 3_600 + mi * 60;
    let offset_secs = match offset_minutes {
        Some(m) => i64::from(m) * 60,
        None => local_offset_secs(local_secs)?,
    };
    u64::try_from(local_secs - offset_secs)
        .ok()?
        .checked_mul(1000)
}

/// The machine's offset from UTC (seconds east) at about `local_secs`.
// `time_t` and `tm_gmtoff` are not i64 on every platform.
#[allow(clippy::useless_conversion)]
fn local_offset_secs(local_secs: i64) -> Option<i64> {
    let t: libc::time_t = local_secs.try_into().ok()?;
    // SAFETY: localtime_r writes into the zeroed `tm` we own; both pointers
    // are valid for the call.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::localtime_r(&t, &mut tm) };
    if r.is_null() {
        return None;
    }
    Some(i64::from(tm.tm_gmtoff))
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
    fn round_start_times_with_an_offset() {
        assert_eq!(parse_offset("+08:00"), Some(480));
        assert_eq!(parse_offset("-05:30"), Some(-330));
        assert_eq!(parse_offset("Z"), Some(0));
        assert_eq!(parse_offset("8"), None);
        assert_eq!(parse_offset("+8:00"), None);
        // 1970-01-01 00:00 UTC and a known instant.
        assert_eq!(unix_ms("1970-01-01", "00:00", Some(0)), Some(0));
        assert_eq!(
            unix_ms("2026-11-29", "09:00", Some(480)),
            Some(1_795_914_000_000)
        );
        assert_eq!(
            unix_ms("2024-02-29", "12:34", Some(0)),
            Some(1_709_210_040_000)
        );
        assert_eq!(unix_ms("2024-02-29", "25:00", Some(0)), None);
    }
}
