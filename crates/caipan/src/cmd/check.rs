//! `caipan check --config hall.toml` — validates a hall config and prints
//! what `caipan serve` would serve from it, without starting anything (like
//! `nginx -t`): hall id, rule set, time control, listen address, data dir,
//! the current round's tables with their players, and who may sign in
//! with which powers. Tokens are never printed, only where each comes from
//! and its short fingerprint.
//!
//! Exit codes: 0 when the config is valid; 1 when it is not, every problem
//! on stderr as `key: problem`.
//!
//! The problems and the verdict lines are in `--lang` (else the locale's
//! language, as the console chooses: `i18n::Lang::from_env`, else
//! English): the typed problems (`config-*`) and the lines `check-*` from
//! the catalogue, the key paths as written; problems not typed yet (TOML
//! syntax errors) stay English. The hall's description stays English.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use config::HallConfig;
use i18n::Lang;
use proto::Message;

use crate::exit;

/// Arguments of `caipan check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hall config to check.
    #[arg(long)]
    pub config: PathBuf,
    /// Language of the problems: zh-Hans, zh-Hant, en or vi (zh is
    /// zh-Hans); default: from LC_ALL / LC_MESSAGES / LANG, else en.
    #[arg(long)]
    pub lang: Option<Lang>,
}

/// The language of a command a user reads: `--lang`, else the locale's,
/// else English (the console's rule).
pub fn user_lang(arg: Option<Lang>) -> Lang {
    arg.or_else(Lang::from_env).unwrap_or_default()
}

/// Runs `caipan check`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let lang = user_lang(args.lang);
    let file = args.config.display().to_string();
    match HallConfig::load(&args.config) {
        Ok(config) => {
            print!("{}", describe(&config));
            let valid = Message::new("check-valid").verbatim("file", &file);
            println!("{}", i18n::render(lang, &valid));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            let problems = e.problems();
            for p in &problems {
                eprintln!("{file}: {}", p.line(lang));
            }
            let found = Message::new("check-problems-found")
                .verbatim("file", &file)
                .int("count", problems.len() as i64);
            eprintln!("{}", i18n::render(lang, &found));
            Ok(exit::code(exit::RUNTIME))
        }
    }
}

/// Where the hall record is kept: the SQLite file in `data`, or the
/// PostgreSQL hall and tournament (the URL without its password).
pub fn store_line(c: &HallConfig, data: &std::path::Path) -> String {
    match &c.store {
        Some(s) => format!(
            "PostgreSQL {} (hall {}, tournament {})",
            s.url.redacted(),
            s.hall,
            s.tournament
        ),
        None => format!("SQLite file {}", data.join(store::DB_FILE).display()),
    }
}

/// What the server would serve from `c`, one fact per line.
pub fn describe(c: &HallConfig) -> String {
    let t = &c.tournament;
    let mut out = String::new();
    let _ = writeln!(out, "hall        {} (id {})", t.name, c.hall_id());
    let _ = writeln!(out, "site, date  {} · {}", t.site, t.date);
    let _ = writeln!(
        out,
        "time zone   {}",
        t.time_zone.as_deref().unwrap_or("the server machine's")
    );
    let _ = writeln!(out, "rule set    {}", c.rules.name());
    let _ = writeln!(
        out,
        "natural limit {} plies without a capture",
        c.rule_params.limit.required_plies
    );
    let _ = writeln!(
        out,
        "time control {} (PGN TimeControl)",
        ::export::pgn::time_control_tag(&c.time_control)
    );
    let _ = writeln!(out, "listen      {}", c.server.listen);
    let _ = writeln!(out, "data dir    {}", c.server.data_dir.display());
    let _ = writeln!(out, "store       {}", store_line(c, &c.server.data_dir));
    let round = c.current_round();
    let _ = writeln!(
        out,
        "round       {} of {} configured{}",
        round.number,
        c.rounds.len(),
        round
            .start
            .as_deref()
            .map(|s| format!(", starts {s}"))
            .unwrap_or_default()
    );
    for p in &round.tables {
        let id = |i: &Option<String>| i.as_deref().map(|i| format!(" [{i}]")).unwrap_or_default();
        let token = if c.credentials.tables.contains_key(&p.table) {
            "token ok"
        } else {
            "NO TOKEN"
        };
        let _ = writeln!(
            out,
            "  table {:>3}  {}{} (red) vs {}{} (black)  {token}",
            p.table,
            p.red,
            id(&p.red_id),
            p.black,
            id(&p.black_id)
        );
    }
    let ch = &c.credentials.chief;
    let _ = writeln!(
        out,
        "chief       {} (every power; token {})",
        ch.name,
        ch.token.fingerprint()
    );
    for d in &c.credentials.deputies {
        let tables: Vec<String> = d.tables.iter().map(u32::to_string).collect();
        let _ = writeln!(
            out,
            "deputy      {} (tables {}; token {})",
            d.name,
            tables.join(", "),
            d.token.fingerprint()
        );
    }
    for v in &c.credentials.viewers {
        let _ = writeln!(
            out,
            "viewer      {} (read only; token {})",
            v.name,
            v.token.fingerprint()
        );
    }
    out
}
