//! `caipan table` — the table terminal (台端): the clock of record with move
//! entry, connected to the hall server, with its outbox on local disk; and
//! `caipan table replay` — real games replayed on many tables (rehearsals,
//! load tests, the demo).
//!
//! The screen is stdout; logs go to a file (`--log`, default
//! `table-N.log` under the user's state directory). The outbox defaults to
//! a folder per hall (the id the server announces) and table under the
//! user's data directory (`table::paths`), so a terminal restarted from
//! another folder, or against a standby server, resends the same outbox;
//! `caipan paths` prints where these are. Each round has its own outbox
//! (`round-R` in that folder): when the hall publishes the next round the
//! terminal becomes a fresh one for its new pairing and opens that
//! round's (`table::engine::Engine::next_round`).

use anyhow::Context;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use proto::{Connector, Trust};
use table::link::LinkConfig;
use table::replay::{ReplayOptions, ReplayReport};
use table::timebase::Timebase;
use table::{Engine, Outbox};

/// Arguments of `caipan table`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub sub: Option<Sub>,
    #[command(flatten)]
    pub terminal: TerminalArgs,
}

/// `caipan table` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Replay real games on many tables (tokens from the hall config).
    Replay(ReplayArgs),
}

/// How to reach and trust the server.
#[derive(Debug, Clone, clap::Args)]
pub struct TrustArgs {
    /// The server's certificate file (PEM or DER).
    #[arg(long, conflicts_with = "fingerprint")]
    pub cert: Option<PathBuf>,
    /// The server certificate's SHA-256 fingerprint (printed by `caipan serve`).
    #[arg(long)]
    pub fingerprint: Option<String>,
}

impl TrustArgs {
    fn trust(&self) -> anyhow::Result<Trust> {
        match (&self.cert, &self.fingerprint) {
            (Some(c), _) => Ok(Trust::CertFile(c.clone())),
            (None, Some(f)) => Ok(Trust::Fingerprint(
                f.parse()
                    .map_err(|e| anyhow::anyhow!("--fingerprint: {e}"))?,
            )),
            (None, None) => anyhow::bail!("give --cert FILE or --fingerprint HEX"),
        }
    }
}

/// The terminal's options.
#[derive(Debug, clap::Args)]
pub struct TerminalArgs {
    /// Server address, e.g. 192.168.1.10:4433; repeat it for a standby
    /// server of the same hall (tried in turn, the terminal follows the
    /// active one and resends its outbox there).
    #[arg(long)]
    pub server: Vec<SocketAddr>,
    /// This terminal's table number.
    #[arg(long)]
    pub table: Option<u16>,
    /// The table's token from the hall config: --token-file, CAIPAN_TOKEN or --token.
    #[command(flatten)]
    pub token: super::token::TokenArgs,
    #[command(flatten)]
    pub trust: TrustArgs,
    /// Folder of the outbox (events stored before sending); default: per
    /// hall and table under the user's data directory (`caipan paths`).
    #[arg(long)]
    pub outbox: Option<PathBuf>,
    /// Log file (default: table-N.log under the user's state directory).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// color, or plain for 16-colour terminals (default: plain when
    /// NO_COLOR is set, else color).
    #[arg(long)]
    pub theme: Option<console::ui::theme::Theme>,
    /// Move notation: standard (ICCS, WXF or Chinese typed, moves shown in
    /// Chinese) or vietnamese (ICCS, Vietnamese such as P2-5, or Chinese
    /// typed, moves shown in Vietnamese; WXF is not read, its texts
    /// collide). Default: vietnamese under a Vietnamese locale (LC_ALL,
    /// LC_MESSAGES, LANG), standard otherwise.
    #[arg(long)]
    pub notation: Option<table::game::Notation>,
    /// The first player's language, shown first: zh-Hans, zh-Hant, en or
    /// vi (zh is zh-Hans); default: the hall's (`[tournament] language`,
    /// sent in the hello), else from LC_ALL / LC_MESSAGES / LANG, else
    /// zh-Hans.
    #[arg(long)]
    pub lang: Option<i18n::Lang>,
    /// The second player's language, shown beside the first (the same
    /// as --lang: one language only); default: en, or zh-Hans when the
    /// first is English.
    #[arg(long)]
    pub second_lang: Option<i18n::Lang>,
}

/// The terminal's two languages: `--lang` (else the hall's or the
/// locale's, `locale` here, else zh-Hans) and `--second-lang` (else English beside a first language
/// that is not, Simplified Chinese beside English).
fn languages(
    first: Option<i18n::Lang>,
    second: Option<i18n::Lang>,
    locale: Option<i18n::Lang>,
) -> [i18n::Lang; 2] {
    let first = first.or(locale).unwrap_or(i18n::Lang::ZhHans);
    let second = second.unwrap_or(match first {
        i18n::Lang::En => i18n::Lang::ZhHans,
        _ => i18n::Lang::En,
    });
    [first, second]
}

/// The notation asked for, or the one of the locale's language (the
/// Vietnamese mode for vi, standard for every other).
fn notation(
    asked: Option<table::game::Notation>,
    locale: Option<i18n::Lang>,
) -> table::game::Notation {
    asked.unwrap_or(match locale {
        Some(i18n::Lang::Vi) => table::game::Notation::Vietnamese,
        _ => table::game::Notation::Standard,
    })
}

/// Arguments of `caipan table replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The hall's server; repeat it for a standby server of the same hall
    /// (each table tries them in turn and follows the active one).
    #[arg(long, required = true)]
    pub server: Vec<SocketAddr>,
    /// Hall config (tokens of the tables).
    #[arg(long)]
    pub config: PathBuf,
    /// PGN file of the games.
    #[arg(long)]
    pub pgn: PathBuf,
    /// Tables, e.g. `1-40` or `1,3,5-8` (default: every table of the
    /// current round).
    #[arg(long)]
    pub tables: Option<String>,
    /// Game time runs this many times faster than real time.
    #[arg(long, default_value_t = 30.0)]
    pub speed: f64,
    /// Seed of the think times.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Inject the scripted incidents on the first seven tables.
    #[arg(long)]
    pub incidents: bool,
    #[command(flatten)]
    pub trust: TrustArgs,
}

/// Runs `caipan table`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.sub {
        Some(Sub::Replay(r)) => replay(r),
        None => terminal(args.terminal),
    }
}

fn terminal(a: TerminalArgs) -> anyhow::Result<ExitCode> {
    let servers = a.server.clone();
    let Some(&first) = servers.first() else {
        anyhow::bail!("--server ADDR is required");
    };
    anyhow::ensure!(
        servers.iter().all(|s| s.is_ipv6() == first.is_ipv6()),
        "--server: give the hall's addresses all in IPv4 or all in IPv6"
    );
    let table = a.table.context("--table N is required")?;
    let token = a.token.get()?;
    let log_path = match a.log.clone() {
        Some(p) => p,
        None => table::paths::table_log(&table::paths::state_root()?, table),
    };
    if let Some(dir) = log_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("log folder {}", dir.display()))?;
    }
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("log file {}", log_path.display()))?;
    crate::logs::to_file(log, "info");
    let trust = a.trust.trust()?;
    crate::tty::require("caipan table")?;
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    rt.block_on(async move {
        let connector = Connector::new(&trust, first.is_ipv6())?;
        let link = LinkConfig::with_servers(servers, token, connector);
        let (info, hello) = table::terminal::fetch_info(&link)
            .await
            .context("first connection (to learn the table and the time control)")?;
        if info.table != table {
            anyhow::bail!("the token is table {}'s, not table {table}'s", info.table);
        }
        let epoch = hello.table.as_ref().map_or(0, |s| s.epoch) + 1;
        let outbox_dir = match a.outbox.clone() {
            Some(dir) => dir,
            None => {
                table::paths::outbox_dir(&table::paths::data_root()?, &hello.hall.hall_id, table)?
            }
        };
        std::fs::create_dir_all(&outbox_dir)
            .with_context(|| format!("outbox folder {}", outbox_dir.display()))?;
        let round = hello.hall.round;
        adopt_unrounded_outbox(&outbox_dir, table, round)?;
        let (outbox, recovery) = Outbox::open_round(&outbox_dir, table, round, epoch)?;
        tracing::info!(?recovery, round, path = ?outbox.path(), "outbox opened");
        let control = table::tui::app::describe_control(&info.control);
        let mut engine = Engine::new(info, outbox);
        // The hall's language comes before the locale's (a hall in Hanoi
        // starts its terminals in Vietnamese whatever their machines say).
        let hall_lang = hello.hall.language.as_deref().and_then(|t| t.parse().ok());
        let langs = languages(
            a.lang,
            a.second_lang,
            hall_lang.or_else(i18n::Lang::from_env),
        );
        engine.set_notation(notation(a.notation, Some(langs[0])));
        let start = engine.last_mono() + 1;
        let handle = table::terminal::spawn(engine, Some(link), Timebase::real(start));
        let plain =
            console::ui::theme::Theme::choose(a.theme, std::env::var("NO_COLOR").ok().as_deref())
                == console::ui::theme::Theme::Plain;
        table::tui::run(&handle, control, plain, langs).await?;
        let (engine, _) = handle.stop().await?;
        if engine.outbox().waiting() > 0 {
            eprintln!(
                "{} events are still waiting in {} and will be sent at the next start",
                engine.outbox().waiting(),
                outbox_dir.display()
            );
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// An outbox of a release before rounds had their own folders
/// (`DIR/table-N.outbox`) is the outbox of the round the hall plays now
/// when that round has none yet: moved to `DIR/round-R/` (never dropped).
fn adopt_unrounded_outbox(dir: &std::path::Path, table: u16, round: u32) -> anyhow::Result<()> {
    let old = dir.join(format!("table-{table}.outbox"));
    let round_dir = table::outbox::round_dir(dir, round);
    let new = round_dir.join(format!("table-{table}.outbox"));
    if !old.exists() || new.exists() {
        return Ok(());
    }
    std::fs::create_dir_all(&round_dir)
        .with_context(|| format!("outbox folder {}", round_dir.display()))?;
    std::fs::rename(&old, &new)
        .with_context(|| format!("moving {} to {}", old.display(), new.display()))?;
    proto::durable::sync_dir(&round_dir).map_err(|e| anyhow::anyhow!("{e}"))?;
    tracing::info!(from = %old.display(), to = %new.display(), "the outbox moved to its round's folder");
    Ok(())
}

/// Tables as ranges: `1-4, 7`.
pub fn describe_tables(tables: impl IntoIterator<Item = u32>) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for t in tables {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == t => *end = t,
            _ => runs.push((t, t)),
        }
    }
    if runs.is_empty() {
        return "none".into();
    }
    runs.iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses `1-40`, `1,3,5-8`.
pub fn parse_tables(text: &str) -> anyhow::Result<Vec<u16>> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u16, u16) = (a.trim().parse()?, b.trim().parse()?);
                anyhow::ensure!(a <= b, "bad range {part}");
                out.extend(a..=b);
            }
            None => out.push(part.parse()?),
        }
    }
    anyhow::ensure!(!out.is_empty(), "no tables in {text:?}");
    Ok(out)
}

fn replay(a: ReplayArgs) -> anyhow::Result<ExitCode> {
    crate::logs::to_stderr("warn");
    let config = config::HallConfig::load(&a.config)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.config.display()))?;
    let tokens = &config.credentials.tables;
    let wanted = match &a.tables {
        Some(text) => parse_tables(text)?,
        None => tokens
            .keys()
            .filter_map(|t| u16::try_from(*t).ok())
            .collect(),
    };
    let mut tables = Vec::new();
    for t in wanted {
        let token = tokens.get(&u32::from(t)).with_context(|| {
            format!(
                "table {t} has no token in {}: round {} has tables {}",
                a.config.display(),
                config.current_round().number,
                describe_tables(tokens.keys().copied())
            )
        })?;
        tables.push((t, token.expose().to_string()));
    }
    let text = super::input::read_text(&a.pgn)?;
    let games = table::replay::games_from_pgn(&text)?;
    anyhow::ensure!(
        !games.is_empty(),
        "no playable games in {}",
        a.pgn.display()
    );
    let Some((&first, others)) = a.server.split_first() else {
        anyhow::bail!("--server ADDR is required");
    };
    anyhow::ensure!(
        others.iter().all(|s| s.is_ipv6() == first.is_ipv6()),
        "--server: give the hall's addresses all in IPv4 or all in IPv6"
    );
    let mut opts = ReplayOptions::new(first, a.trust.trust()?, tables, Arc::new(games));
    opts.other_servers = others.to_vec();
    opts.speed = a.speed;
    opts.seed = a.seed;
    opts.incidents = a.incidents;
    opts.ruling_wait = Duration::from_secs(5);
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    let report = rt.block_on(table::replay::run(opts))?;
    print_report(&report);
    Ok(if report.finished() == report.tables.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_report(r: &ReplayReport) {
    outln!(
        "replayed {} tables in {:.1} s: {} finished",
        r.tables.len(),
        r.elapsed.as_secs_f64(),
        r.finished()
    );
    for t in &r.tables {
        let result = match t.result {
            Some(proto::GameResult::RedWins) => "1-0",
            Some(proto::GameResult::BlackWins) => "0-1",
            Some(proto::GameResult::Draw) => "½-½",
            Some(proto::GameResult::BothLose) => "0-0",
            None => "*",
        };
        let incident = t
            .incident
            .map(|i| format!(" [{}]", i.name()))
            .unwrap_or_default();
        outln!(
            "table {:>3}: game {:>4}, {:>3} plies, {result} {}{incident}{}",
            t.table,
            t.game + 1,
            t.plies,
            t.reason,
            if t.errors.is_empty() {
                String::new()
            } else {
                format!(" errors: {}", t.errors.join("; "))
            }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use table::game::Notation;

    #[test]
    fn a_vietnamese_locale_chooses_the_vietnamese_mode_unless_told_otherwise() {
        assert_eq!(notation(None, Some(i18n::Lang::Vi)), Notation::Vietnamese);
        use i18n::Lang::{En, Vi, ZhHans, ZhHant};
        assert_eq!(languages(None, None, None), [ZhHans, En]);
        assert_eq!(languages(Some(Vi), None, Some(ZhHant)), [Vi, En]);
        assert_eq!(languages(None, None, Some(ZhHant)), [ZhHant, En]);
        assert_eq!(languages(None, Some(ZhHant), Some(En)), [En, ZhHant]);
        assert_eq!(languages(Some(En), None, None), [En, ZhHans]);
        assert_eq!(notation(None, Some(i18n::Lang::ZhHant)), Notation::Standard);
        assert_eq!(notation(None, None), Notation::Standard);
        assert_eq!(
            notation(Some(Notation::Standard), Some(i18n::Lang::Vi)),
            Notation::Standard
        );
        assert_eq!(
            notation(Some(Notation::Vietnamese), None),
            Notation::Vietnamese
        );
    }

    #[test]
    fn table_lists() {
        assert_eq!(parse_tables("1-3,7").unwrap(), vec![1, 2, 3, 7]);
        assert!(parse_tables("3-1").is_err());
        assert!(parse_tables("x").is_err());
        assert_eq!(describe_tables([1, 2, 3, 4, 7, 9, 10]), "1-4, 7, 9-10");
        assert_eq!(describe_tables([]), "none");
    }
}
