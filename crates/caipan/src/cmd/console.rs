//! `caipan console --server ADDR [--server ADDR2 …] [--token-file FILE | --token T]
//! [--cert FILE | --fingerprint HEX]
//! [--lang zh-Hans|zh-Hant|en|vi] [--log FILE]`: the arbiter console (chief or deputy; the
//! token decides the role). Several `--server`s are addresses of one
//! hall (its active server and a standby): the console moves to whichever
//! answers (console::net).
//!
//! `caipan console --halls FILE`: one console over several halls, each
//! listed in the console config (addresses, certificate, token file; see
//! console::halls and config/console-halls.toml) instead of the flags.
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
    /// The hall's server, `host:port`; repeat it for a standby server of
    /// the same hall (tried in turn, the console follows the active one).
    #[arg(long, required_unless_present = "halls")]
    pub server: Vec<String>,
    /// One console over several halls: the console config listing each
    /// hall's name, addresses, certificate and token file (instead of
    /// --server, the token and the trust flags).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["server", "cert", "fingerprint", "token", "token_file"])]
    pub halls: Option<PathBuf>,
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
    /// Language: zh-Hans, zh-Hant, en or vi (zh is zh-Hans); default: from
    /// LC_ALL / LC_MESSAGES / LANG (zh_TW, zh_HK, zh_MO: zh-Hant), else en.
    #[arg(long)]
    pub lang: Option<console::Lang>,
    /// Log file (the screen is the terminal); default: console.log under
    /// the user's state directory (`caipan paths`).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// color, or plain for 16-colour terminals (default: plain when
    /// NO_COLOR is set, else color).
    #[arg(long)]
    pub theme: Option<console::ui::theme::Theme>,
}

/// Runs `caipan console`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let halls = match &args.halls {
        Some(file) => console::halls::load(file)?,
        None => vec![console::net::HallLink {
            name: String::new(),
            net: one_hall(&args)?,
        }],
    };
    let log = args.log.map_or_else(
        || table::paths::state_root().map(|d| d.join("console.log")),
        Ok,
    )?;
    if let Some(dir) = log.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("log folder {}", dir.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .with_context(|| format!("log file {}", log.display()))?;
    crate::logs::to_file(file, "info");
    let opts = console::run::Options {
        halls,
        lang: args
            .lang
            .or_else(console::Lang::from_env)
            .unwrap_or_default(),
        theme: console::ui::theme::Theme::choose(
            args.theme,
            std::env::var("NO_COLOR").ok().as_deref(),
        ),
    };
    crate::tty::require("caipan console")?;
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    rt.block_on(console::run::run(opts)).context("console")?;
    Ok(ExitCode::SUCCESS)
}

/// The one hall of the flags: --server, the token, --cert or --fingerprint.
fn one_hall(args: &Args) -> anyhow::Result<console::net::NetConfig> {
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
    Ok(console::net::NetConfig {
        servers: args.server.clone(),
        token,
        trust,
    })
}
