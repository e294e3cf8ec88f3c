//! `caipan demo [--tables N] [--speed X] [--data DIR] [--headless
//! [--auto-rule]]`: a whole
//! demo hall (演示赛场) in one process — the hall server on 127.0.0.1 (a
//! free port), N table terminals replaying real master games at X times
//! real speed with the scripted incidents (perpetual check and chase, true
//! and false natural-limit claims, a flag fall, an illegal move, a
//! disconnect), and the chief arbiter's console in front.
//!
//! Parts: [`hall`] (config/hall.toml embedded and cut to N tables),
//! [`games`] (the embedded games, or `--pgn FILE`), [`datadir`] (a
//! temporary folder, or `--data DIR` checked to be this hall's),
//! [`summary`] (the headless closing report, with [`rulings`] and
//! [`names`]) and [`chief`] (the chief played by `--auto-rule`).
//!
//! Shutdown order: the console quits (`q`) → the replay runtime is shut
//! down (every terminal task dropped, connections closed) → the server
//! shuts down (stops accepting, commits what is queued) → exit 0. The
//! replayed terminals run on their own tokio runtime so that they can be
//! stopped as a whole without touching the server's.
//!
//! `--headless` plays round 1 to its end without a console (every game to
//! its real end, as the replayer does: mate, stalemate, or the side to move
//! resigns where the record ends; incident tables end as their incident
//! does), prints progress and a summary, and leaves the data dir for
//! `caipan export`. Nobody rules there: the players settle unruled claims
//! themselves (a true natural-limit claim by agreement, a flag fall by the
//! loser's report). `--auto-rule` adds the chief, who accepts every
//! recommendation the moment it appears: the repetitions go through the
//! change order (table 1's perpetual check goes on and loses under AXF-G3,
//! table 2's chase changes and plays on), a true natural-limit claim ends
//! as *natural limit*, and the summary lists every ruling per table.

mod chief;
mod datadir;
mod games;
mod hall;
mod names;
mod rounds;
mod rulings;
mod summary;

use anyhow::{bail, Context};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `caipan demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Tables to play (the first N of config/hall.toml's 40).
    #[arg(long, default_value_t = 24)]
    pub tables: u32,
    /// Game time runs this many times faster than real time (80+30 games
    /// take ~2-4 minutes at 30x).
    #[arg(long, default_value_t = 30.0)]
    pub speed: f64,
    /// Data dir (event store, certificate, config copy); created if absent
    /// and kept. Default: a temporary folder removed at the end.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// No console: play round 1 to its end, print a summary, exit.
    #[arg(long)]
    pub headless: bool,
    /// With --headless: rounds to play; after each, the demo's chief
    /// pairs the next with the tournament's system and publishes it, and
    /// the standings after the last are printed with their tie-breaks.
    #[arg(long, default_value_t = 1, requires = "headless")]
    pub rounds: u32,
    /// With --headless: the demo plays the chief arbiter, accepting every
    /// recommended ruling (orders, results) the moment it appears.
    #[arg(long, requires = "headless")]
    pub auto_rule: bool,
    /// The games to replay (default: the 64 real games embedded in the
    /// binary, the start of data/games/hu-ronghua-1391.pgn).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Replay real games only, without the scripted incidents.
    #[arg(long)]
    pub no_incidents: bool,
    /// Seed of the think times and the scripted incidents.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule set of the demo hall: axf, roc or cxa (default: the embedded
    /// config's, axf). Another rule set than the config's drops its
    /// natural-limit overrides (AXF values); the scripted incidents stay
    /// the same.
    #[arg(long, value_parser = parse_rules)]
    pub rules: Option<rulebook::RuleSet>,
    /// Language of the console and the headless summary: zh-Hans,
    /// zh-Hant, en or vi (zh is zh-Hans); default: from LC_ALL /
    /// LC_MESSAGES / LANG, else en.
    #[arg(long)]
    pub lang: Option<i18n::Lang>,
    /// Serve the read-only broadcast (round PGN, JSON, /events) on this
    /// address (port 0: a free one); the headless demo prints
    /// `broadcast: http://ADDR/` as soon as it listens and serves until 3 s
    /// after the summary (relays fetch the final file). The interactive
    /// demo serves it on a free loopback port anyway (the URL is logged).
    #[arg(long)]
    pub broadcast: Option<std::net::SocketAddr>,
    /// Log file (default: caipan-demo.log in the system's temp folder).
    #[arg(long)]
    pub log: Option<PathBuf>,
}

/// A `--rules` value (axf, roc, cxa).
fn parse_rules(s: &str) -> Result<rulebook::RuleSet, String> {
    rulebook::RuleSet::from_name(s).map_err(|_| format!("{s:?}: use axf, roc or cxa"))
}

/// How long the headless demo's broadcast serves after the summary.
const BROADCAST_LINGER: Duration = Duration::from_secs(3);

/// Real time a replayed table waits for an arbiter's ruling (a flag fall,
/// a limit claim, an order, an illegal move) before its players settle it
/// themselves or play on.
fn ruling_wait(headless: bool, auto_rule: bool) -> Duration {
    if auto_rule {
        // The chief rules at once; this only bounds a lost ruling.
        Duration::from_secs(10)
    } else if headless {
        // Nobody at the console: settle at once.
        Duration::from_millis(500)
    } else {
        // Time for the chief to rule from the claims queue.
        Duration::from_secs(60)
    }
}

/// The flags' values in range, and a terminal for the console.
fn check_args(args: &Args) -> anyhow::Result<()> {
    let max = hall::max_tables()?;
    if args.tables == 0 || args.tables as usize > max {
        bail!(
            "--tables {}: the demo hall has tables 1 to {max}",
            args.tables
        );
    }
    if !(args.speed.is_finite() && args.speed > 0.0 && args.speed <= 100_000.0) {
        bail!("--speed {}: give a factor above 0 (e.g. 30)", args.speed);
    }
    if !args.headless {
        crate::tty::require("caipan demo (without --headless)")?;
    }
    Ok(())
}

/// The headless outcome, unless the auto-rule chief stopped before the end
/// (exit 1); a chief still running is stopped.
fn with_chief(
    rt: &tokio::runtime::Runtime,
    chief: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    outcome: anyhow::Result<ExitCode>,
) -> anyhow::Result<ExitCode> {
    match chief {
        Some(c) if c.is_finished() => {
            let why = match rt.block_on(c) {
                Ok(Err(e)) => format!("{e:#}"),
                Ok(Ok(())) => "it stopped".into(),
                Err(e) => e.to_string(),
            };
            eprintln!("caipan demo: the auto-rule chief stopped before the end: {why}");
            outcome.map(|_| ExitCode::from(1))
        }
        Some(c) => {
            c.abort();
            outcome
        }
        None => outcome,
    }
}

/// The chief's console on the demo hall.
fn console_options(
    args: &Args,
    running: &server::RunningServer,
    config: &config::HallConfig,
) -> console::run::Options {
    console::run::Options {
        halls: vec![console::net::HallLink {
            name: String::new(),
            net: console::net::NetConfig {
                servers: vec![running.addr.to_string()],
                token: config.credentials.chief.token.expose().to_string(),
                trust: proto::Trust::Fingerprint(running.fingerprint),
            },
        }],
        lang: language(args),
        theme: console::ui::theme::Theme::choose(None, std::env::var("NO_COLOR").ok().as_deref()),
    }
}

/// The demo's language: `--lang`, else the locale's, else English.
fn language(args: &Args) -> i18n::Lang {
    args.lang.or_else(i18n::Lang::from_env).unwrap_or_default()
}

/// A two-worker tokio runtime whose threads carry `name`: one for the
/// server, one for the replayed tables, so that neither starves the other.
fn runtime(name: &str) -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(name)
        .enable_all()
        .build()
        .with_context(|| format!("tokio runtime {name}"))
}

/// Runs `caipan demo`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_args(&args)?;
    let log = args
        .log
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join("caipan-demo.log"));
    init_logging(&log)?;

    let pgn = games::locate(args.pgn.as_deref())?;
    // The hall id does not depend on the data dir or the table count: check
    // the folder against the hall, then build the config for it.
    let probe = hall::demo_hall(args.tables, std::path::Path::new("."), args.rules)?;
    let data = datadir::prepare(args.data.as_deref(), &probe.config)?;
    let demo = hall::demo_hall(args.tables, &data.path, args.rules)?;
    let games = games::load(&pgn)?;
    tracing::info!(
        pgn = %pgn,
        games = games.len(),
        data = %data.path.display(),
        tables = args.tables,
        speed = args.speed,
        "demo starting"
    );

    let rt = runtime("caipan-server")?;
    let replay_rt = runtime("caipan-tables")?;

    ::export::stored::note_hall_start(&data.path, &demo.text, &demo.config)
        .context("writing the config copy into the data dir")?;
    let running = rt
        .block_on(server::Server::start(demo.config.clone(), &data.path))
        .with_context(|| {
            format!(
                "starting the hall server on data dir {}",
                data.path.display()
            )
        })?;

    // The broadcast first, so that a follower sees the round from its start.
    let public = start_broadcast(&rt, &running, &demo.config, &args)?;

    let mut opts = table::replay::ReplayOptions::new(
        running.addr,
        proto::Trust::Fingerprint(running.fingerprint),
        demo.config
            .credentials
            .tables
            .iter()
            .filter_map(|(t, tok)| Some((u16::try_from(*t).ok()?, tok.expose().to_string())))
            .collect(),
        games,
    );
    opts.speed = args.speed;
    opts.seed = args.seed;
    opts.incidents = !args.no_incidents;
    opts.ruling_wait = ruling_wait(args.headless, args.auto_rule);
    // The chief first, so that no claim waits for it.
    let chief = args.auto_rule.then(|| {
        rt.spawn(chief::run(
            running.addr,
            proto::Trust::Fingerprint(running.fingerprint),
            demo.config.credentials.chief.token.expose().to_string(),
        ))
    });
    let replay = replay_rt.spawn(table::replay::run(opts.clone()));

    let outcome = if args.headless {
        let outcome = rt.block_on(headless(
            &running,
            replay,
            args.speed,
            &data.path,
            language(&args),
        ));
        let outcome = with_chief(&rt, chief, outcome);
        more_rounds(
            &rt,
            &replay_rt,
            &running,
            &opts,
            &args,
            &data.path,
            outcome,
            &demo.config,
        )
    } else {
        let console_opts = console_options(&args, &running, &demo.config);
        rt.block_on(console::run::run(console_opts))
            .context("console")
            .map(|()| ExitCode::SUCCESS)
    };

    // Tables first (their tasks are dropped, connections closed), then the
    // server (it commits what is queued).
    replay_rt.shutdown_timeout(Duration::from_secs(2));
    if let Some(b) = public {
        stop_broadcast(&rt, b, args.headless);
    }
    let stopped = rt.block_on(running.shutdown());
    rt.shutdown_timeout(Duration::from_secs(2));
    tracing::info!("demo stopped");
    stopped.context("stopping the hall server")?;
    if !args.headless {
        if data.is_temporary() {
            outln!("caipan demo: stopped (the temporary data dir is removed; keep one with --data DIR).");
        } else {
            outln!(
                "caipan demo: stopped; the hall's data is in {}",
                data.path.display()
            );
        }
    }
    outcome
}

/// `--rounds N`: after round 1, each next round paired and published by
/// the demo's chief and replayed; then the standings with their
/// tie-breaks. Stops at the first round that does not end well.
#[allow(clippy::too_many_arguments, reason = "the demo's parts, passed once")]
fn more_rounds(
    rt: &tokio::runtime::Runtime,
    replay_rt: &tokio::runtime::Runtime,
    running: &server::RunningServer,
    opts: &table::replay::ReplayOptions,
    args: &Args,
    data: &std::path::Path,
    mut outcome: anyhow::Result<ExitCode>,
    config: &config::HallConfig,
) -> anyhow::Result<ExitCode> {
    if args.rounds < 2 {
        return outcome;
    }
    let token = config.credentials.chief.token.expose().to_string();
    for round in 2..=args.rounds {
        match &outcome {
            Ok(code) if *code == ExitCode::SUCCESS => {}
            _ => return outcome,
        }
        let proposal = rt
            .block_on(rounds::publish_next(
                running.addr,
                opts.trust.clone(),
                &token,
            ))
            .with_context(|| format!("pairing round {round}"))?;
        outln!("{}", rounds::pairing_lines(&proposal).trim_end());
        let replay = replay_rt.spawn(table::replay::run(rounds::next_games(opts, round)));
        outcome = rt.block_on(headless(running, replay, args.speed, data, language(args)));
    }
    if matches!(&outcome, Ok(c) if *c == ExitCode::SUCCESS) {
        outln!("standings after round {}:", args.rounds);
        outln!("{}", rounds::standings(data, args.rounds)?.trim_end());
    }
    outcome
}

/// Waits for every replayed game to end, with a progress line every few
/// seconds; prints the summary. Exit 0 when every game finished with every
/// event acknowledged, 1 otherwise.
async fn headless(
    running: &server::RunningServer,
    mut replay: tokio::task::JoinHandle<
        Result<table::replay::ReplayReport, table::replay::ReplayError>,
    >,
    speed: f64,
    data: &std::path::Path,
    lang: i18n::Lang,
) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    outln!(
        "caipan demo --headless: server on {} (certificate {}), replaying at {speed}x",
        running.addr,
        running.fingerprint
    );
    let mut progress = tokio::time::interval_at(
        tokio::time::Instant::now() + Duration::from_secs(5),
        Duration::from_secs(5),
    );
    let report = loop {
        tokio::select! {
            r = &mut replay => break r.context("replay task")?.context("replay")?,
            _ = progress.tick() => {
                if let Some(view) = running.snapshot() {
                    let plies: u64 = view.tables.iter().map(|t| u64::from(t.plies)).sum();
                    outln!(
                        "  {:>5.0} s: {} of {} games finished, {plies} plies played, {} alerts",
                        started.elapsed().as_secs_f64(),
                        summary::finished(&view),
                        view.tables.len(),
                        view.alerts.len()
                    );
                }
            }
            _ = tokio::signal::ctrl_c() => {
                outln!("interrupted: stopping (the data dir keeps what was played)");
                replay.abort();
                return Ok(crate::exit::code(crate::exit::INTERRUPTED));
            }
        }
    };
    let Some(view) = running.snapshot() else {
        bail!("the server's hall state is not readable");
    };
    outln!(
        "{}",
        summary::render(&view, &report, speed, lang).trim_end_matches('\n')
    );
    let all = report.tables.len();
    let done = summary::finished(&view) == view.tables.len() && report.finished() == all;
    outln!("data dir: {}", data.display());
    outln!(
        "export: caipan export --data {} --round {} --format csv|json|pgn|trf|html|standings-csv|standings-json|pairings-html [--out PATH]",
        data.display(),
        view.round
    );
    Ok(if done {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Logs go to a file: in the interactive demo stdout is the console's screen.
fn init_logging(path: &std::path::Path) -> anyhow::Result<()> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("log file {}", path.display()))?;
    crate::logs::to_file(file, "info");
    Ok(())
}

/// The read-only broadcast of the demo: on `--broadcast ADDR`, or on a
/// free loopback port in the interactive demo (the URL is logged); the
/// headless demo prints `broadcast: URL`.
fn start_broadcast(
    rt: &tokio::runtime::Runtime,
    running: &server::RunningServer,
    config: &config::HallConfig,
    args: &Args,
) -> anyhow::Result<Option<broadcast::RunningBroadcast>> {
    let listen = match (args.broadcast, args.headless) {
        (Some(a), _) => a,
        (None, false) => std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        (None, true) => return Ok(None),
    };
    let b = rt
        .block_on(broadcast::start(
            running.public_feed(),
            std::sync::Arc::new(config.clone()),
            config::BroadcastConfig { listen, delay_s: 0 },
            broadcast::Options::default(),
        ))
        .context("starting the broadcast")?;
    tracing::info!(url = %b.url(), "broadcast listening");
    if args.headless {
        outln!("broadcast: {}", b.url());
    }
    Ok(Some(b))
}

/// Stops the broadcast; the headless demo first lets relays polling about
/// every second fetch the final file.
fn stop_broadcast(rt: &tokio::runtime::Runtime, b: broadcast::RunningBroadcast, headless: bool) {
    if headless {
        rt.block_on(async { tokio::time::sleep(BROADCAST_LINGER).await });
    }
    rt.block_on(b.shutdown());
}
