//! `caipan console --server ADDR [--token-file FILE | --token T]
//! [--cert FILE | --fingerprint HEX]
//! [--lang zh|en] [--log FILE]`: the arbiter console (chief or deputy; the
//! token decides the role).
//!
//! The screen is stdout, so logs go to a file (`--log`, default
//! `caipan-console.log` in the system's temp directory) through `tracing`.
//! The terminal is restored on exit and on panic (see `console::run`).

use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `caipan console`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server, `host:port`.
    #[arg(long)]
    pub server: String,
    /// Your credential from the hall config (chief's, a deputy's or a
    /// viewer's): --token-file, CAIPAN_TOKEN or --token.
    #[command(flatten)]
    pub token: super::token::TokenArgs,
    /// Trust the server certificate in this file (PEM or DER).
    #[arg(long, conflicts_with = "fingerprint")]
    pub cert: Option<PathBuf>,
    /// Trust the server certificate with this SHA-256 fingerprint (hex, as
    /// `caipan serve` prints it).
    #[arg(long)]
    pub fingerprint: Option<String>,
    /// Language: zh or en (default: from LC_ALL / LC_MESSAGES / LANG).
    #[arg(long)]
    pub lang: Option<console::Lang>,
    /// Log file (the screen is the terminal).
    #[arg(long)]
    pub log: Option<PathBuf>,
}

/// Runs `caipan console`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let token = args.token.get()?;
    let trust = match (&args.cert, &args.fingerprint) {
        (Some(path), _) => proto::Trust::CertFile(path.clone()),
        (None, Some(hex)) => proto::Trust::Fingerprint(
            hex.parse()
                .with_context(|| format!("--fingerprint {hex:?}"))?,
        ),
        (None, None) => anyhow::bail!(
            "give --cert FILE or --fingerprint HEX (printed by `caipan serve`) to trust the server"
        ),
    };
    let log = args
        .log
        .unwrap_or_else(|| std::env::temp_dir().join("caipan-console.log"));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .with_context(|| format!("log file {}", log.display()))?;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
    let opts = console::run::Options {
        net: console::net::NetConfig {
            server: args.server,
            token,
            trust,
        },
        lang: args.lang.unwrap_or_else(console::Lang::from_env),
    };
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    rt.block_on(console::run::run(opts)).context("console")?;
    Ok(ExitCode::SUCCESS)
}
