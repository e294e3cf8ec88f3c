//! `caipan serve --config FILE [--data DIR]`: runs the hall server.
//!
//! Loads and validates the hall config, starts [`server::Server`] (store:
//! SQLite in the data dir, or PostgreSQL when the config has `[store]`,
//! rebuild, QUIC endpoint), prints the listen address and the certificate's
//! SHA-256 fingerprint, and runs until Ctrl-C or SIGTERM, then shuts down
//! gracefully (stop accepting, commit what is queued). A fatal store error
//! (e.g. a failed fsync) stops the server with exit code 1.
//!
//! On PostgreSQL a second server of the same hall is a standby: it prints
//! `standby: …` and waits (no QUIC endpoint yet) until the hall's lock is
//! its own — the active server stopped, or stopped beating for
//! `--takeover-after` seconds — then rebuilds from the database and prints
//! the usual banner. A server that loses the hall to a standby stops with
//! exit code 1 and says so.
//!
//! With `[broadcast]` the read-only public listener (crates/broadcast)
//! starts beside it once the server serves (a standby: after its
//! takeover), on a thread of its own below the hall's in priority
//! (`broadcast::apart`: the followers never delay a table's ack), and the banner says `broadcast: http://ADDR/`; an address in
//! use is a start-up error naming `broadcast.listen`.
//!
//! A config that does not validate stops the start naming each problem by
//! its key path, in `--lang` (else the locale's language, as `caipan
//! check`); the banner stays English (scripts read `listening on` and the
//! fingerprint from it).
//!
//! A stored record that does not decode stops the start with exit code 1
//! and an error naming its gseq; `--quarantine-undecodable` sets such
//! records aside instead and raises a hall-wide alert for each.

use anyhow::Context;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `caipan serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hall config (TOML), e.g. config/hall.toml.
    #[arg(long)]
    pub config: PathBuf,
    /// Data directory (store, certificate); default: the config's `server.data_dir`.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Listen address; default: the config's `server.listen`.
    #[arg(long)]
    pub listen: Option<std::net::SocketAddr>,
    /// On PostgreSQL, as a standby: take the hall over from an active
    /// server whose database session has been silent (no heartbeat) this
    /// many seconds.
    #[arg(long, default_value_t = 5.0)]
    pub takeover_after: f64,
    /// A stored record that does not decode on start: set it aside (logged,
    /// a hall-wide "record quarantined" alert in the console) instead of
    /// refusing to start. The hall then differs from what was
    /// acknowledged by that record: an explicit operator's choice.
    #[arg(long)]
    pub quarantine_undecodable: bool,
    /// `caipan bench powercut` only: the SQLite store on the power-cut
    /// VFS, the power cut on a line `cut` on stdin
    /// (bench/resilience/powered.rs).
    #[arg(long, hide = true)]
    pub power_cut_test: Option<String>,
    /// Language of the config's problems: zh-Hans, zh-Hant, en or vi (zh
    /// is zh-Hans); default: from LC_ALL / LC_MESSAGES / LANG, else en.
    #[arg(long)]
    pub lang: Option<i18n::Lang>,
}

/// Loads the hall config, its problems in the user's language.
fn load_config(path: &Path, lang: i18n::Lang) -> anyhow::Result<config::HallConfig> {
    config::HallConfig::load(path).map_err(|e| {
        let file = path.display().to_string();
        let context = proto::Message::new("serve-config").verbatim("file", file);
        // Every problem typed, a read error too (not found, permission
        // denied, else the OS's detail as an argument).
        anyhow::anyhow!("{}", e.text(lang)).context(i18n::render(lang, &context))
    })
}

/// Runs `caipan serve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Before any thread of the server's (issue 40: `malloc.rs`).
    crate::malloc::limit_arenas();
    crate::malloc::no_huge_pages();
    server::give_back::set_hook(crate::malloc::give_back_freed);
    crate::malloc::pace_purges();
    crate::logs::to_stderr("info");
    let mut config = load_config(&args.config, super::check::user_lang(args.lang))?;
    if let Some(l) = args.listen {
        config.server.listen = l;
    }
    crate::memstats::mark("config_loaded");
    crate::memstats::spawn_writer_from_env();
    let data = args.data.unwrap_or_else(|| config.server.data_dir.clone());
    let config_text = std::fs::read_to_string(&args.config)
        .with_context(|| format!("reading {}", args.config.display()))?;
    match &config.store {
        // On PostgreSQL the store keeps the config copy and the round
        // starts with the hall; the data dir holds the certificate only.
        Some(store) => tracing::info!(
            url = %store.url.redacted(),
            hall = %store.hall,
            tournament = %store.tournament,
            "hall record in PostgreSQL"
        ),
        None => note_in_data_dir(&data, &args.config, &config)?,
    }
    anyhow::ensure!(
        args.takeover_after.is_finite() && args.takeover_after >= 2.0,
        "--takeover-after: at least 2 seconds (the active server beats every second)"
    );
    let standby = store::postgres::Standby {
        takeover_after: std::time::Duration::from_secs_f64(args.takeover_after),
        on_wait: Some(std::sync::Arc::new(|line: &str| {
            let mut out = std::io::stdout();
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                tracing::warn!("could not print the standby banner: {e}");
            }
        })),
    };
    let store_vfs = match (&args.power_cut_test, &config.store) {
        (Some(spec), None) => Some(super::bench::resilience::powered::arm(spec, &data)?),
        (Some(_), Some(_)) => anyhow::bail!("--power-cut-test needs the SQLite store"),
        (None, _) => None,
    };
    let options = server::StartOptions {
        store_vfs,
        config_text: Some(config_text),
        standby: Some(standby),
        quarantine: if args.quarantine_undecodable {
            server::rebuild::Quarantine::SetAside
        } else {
            server::rebuild::Quarantine::Refuse
        },
        ..Default::default()
    };
    let store_line = super::check::store_line(&config, &data);
    let public_config = std::sync::Arc::new(config.clone());
    // Threads named as the in-process bench server's, so `caipan bench
    // hall --child-server` (and `top -H`) can tell the server's CPU apart.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .thread_name("caipan-srv")
        .enable_all()
        .build()
        .context("tokio runtime")?;
    rt.block_on(async move {
        // Listen for the stop signals before anything else: a standby waits
        // in the start (a signal then just ends the wait), and whoever reads
        // the banner may signal at once; a signal before the handler is in
        // place would kill the server without its clean stop.
        let mut signalled = Box::pin(stop_signal());
        let start = server::Server::start_with(config, &data, options);
        let running = tokio::select! {
            r = start => r.with_context(|| {
                format!("starting the server with data dir {}", data.display())
            })?,
            () = &mut signalled => {
                tracing::info!("signal received before serving: stopping");
                return Ok(ExitCode::SUCCESS);
            }
        };
        crate::memstats::mark("server_started");
        let public = match start_broadcast(&running, public_config).await {
            Ok(b) => b,
            Err(e) => {
                let _ = running.shutdown().await;
                return Err(e);
            }
        };
        // This (main) thread's garbage of the start (`malloc.rs`).
        crate::malloc::give_back_freed();
        print_banner(&running, &store_line, public.as_ref());
        let stop = running.shutdown_handle();
        tokio::spawn(async move {
            signalled.await;
            tracing::info!("signal received: shutting down");
            stop.shutdown();
        });
        let waited = running.wait().await;
        if let Some(b) = public {
            b.shutdown().await;
        }
        match waited {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(e) => {
                eprintln!("caipan serve: {e}");
                Ok(ExitCode::from(1))
            }
        }
    })
}

/// The read-only public listener when the config has `[broadcast]`; an
/// address in use is an error naming `broadcast.listen`.
async fn start_broadcast(
    running: &server::RunningServer,
    config: std::sync::Arc<config::HallConfig>,
) -> anyhow::Result<Option<broadcast::RunningBroadcast>> {
    let Some(settings) = config.broadcast else {
        return Ok(None);
    };
    let b = broadcast::apart::start_apart(
        running.public_feed(),
        config,
        settings,
        broadcast::Options::default(),
    )
    .await?;
    Ok(Some(b))
}

/// The start banner. It is for whoever started us; if they closed our
/// stdout (a script that read the address and went away), the server
/// keeps serving: a write error here is not a reason to stop.
fn print_banner(
    running: &server::RunningServer,
    store_line: &str,
    public: Option<&broadcast::RunningBroadcast>,
) {
    let mut banner = format!(
        "listening on {}\ncertificate sha256 fingerprint {}\n",
        running.addr, running.fingerprint
    );
    if let Some(p) = &running.cert_path {
        banner.push_str(&format!("certificate file {}\n", p.display()));
    }
    banner.push_str(&format!("store {}\n", store_line));
    if let Some(b) = public {
        banner.push_str(&format!("broadcast: {}\n", b.url()));
    }
    banner.push_str(&format!(
        "rebuilt {} stored records\n",
        running.rebuilt_records
    ));
    let mut out = std::io::stdout();
    if let Err(e) = out.write_all(banner.as_bytes()).and_then(|()| out.flush()) {
        tracing::warn!("could not print the start banner: {e}");
    }
}

/// Keeps a secret-free copy of the config and where this round starts in
/// the store, so `caipan export` can rebuild the round from the data dir.
/// A data dir that holds another hall is refused before anything in it is
/// touched (the store refuses it too, but only after this copy).
fn note_in_data_dir(
    data: &std::path::Path,
    config_path: &std::path::Path,
    config: &config::HallConfig,
) -> anyhow::Result<()> {
    if data.join(::export::stored::HALL_COPY_FILE).exists() {
        let stored = ::export::stored::load_hall(data, None)
            .with_context(|| format!("reading the hall stored in {}", data.display()))?;
        if stored.hall_id() != config.hall_id() {
            anyhow::bail!(
                "data dir {} holds another hall ({} / {} / {}); choose another --data",
                data.display(),
                stored.tournament.name,
                stored.tournament.site,
                stored.tournament.date
            );
        }
    }
    ::export::stored::note_hall_start_file(data, config_path, config)
        .with_context(|| format!("recording the hall start in {}", data.display()))
}

/// Registers for SIGTERM and SIGINT (Ctrl-C) now; the future ends at the
/// first of them.
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let term = signal(SignalKind::terminate());
        let int = signal(SignalKind::interrupt());
        async move {
            match (term, int) {
                (Ok(mut term), Ok(mut int)) => {
                    tokio::select! {
                        _ = term.recv() => {}
                        _ = int.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
