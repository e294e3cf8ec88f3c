//! `caipan pairings import FILE.csv [--config HALL.toml] [--round N]` —
//! imports a round's pairings (编排) from CSV (columns `round,table,red,
//! black` and optionally `red_team,black_team,red_id,black_id`) in UTF-8
//! (with or without a byte-order mark) or GB18030/GBK.
//!
//! With `--config` the `[[round]]` pairings in that hall config are replaced
//! (or added) in place, keeping every other key and comment; the result is
//! validated as a hall config before it is saved (a deputy assigned to a
//! table that no longer exists is an error, nothing is written). Without
//! `--config` the `[[round]]` TOML is printed to stdout. Bad rows are
//! reported with their line and column. The library side is
//! `config::pairings`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use config::pairings;
use config::HallConfig;

/// Arguments of `caipan pairings`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Import pairings from a CSV file.
    Import {
        /// The CSV file (header: round,table,red,black[,red_team,black_team,red_id,black_id]).
        file: PathBuf,
        /// The hall config to update in place (default: print TOML to stdout).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Import only this round's rows.
        #[arg(long)]
        round: Option<u32>,
    },
}

/// Runs `caipan pairings`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Action::Import {
        file,
        config,
        round,
    } = args.action;
    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
    let rounds = match pairings::parse_csv_bytes(&bytes, round) {
        Ok(r) => r,
        Err(e) => bail!("{}:\n{e}", file.display()),
    };
    let count: usize = rounds.values().map(Vec::len).sum();
    let Some(path) = config else {
        print!("{}", pairings::to_toml(&rounds));
        return Ok(ExitCode::SUCCESS);
    };
    let old =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let new = pairings::update_config(&old, &rounds)?;
    let base = path.parent().unwrap_or_else(|| std::path::Path::new("."));
    if let Err(e) = HallConfig::from_toml_str(&new, base, &|v| std::env::var(v).ok()) {
        bail!(
            "{} with these pairings is not a valid hall config (nothing written):\n{e}",
            path.display()
        );
    }
    // Temp file, fsync, rename, fsync of the folder: a power cut leaves
    // the old config or the new one.
    proto::durable::write_atomic(&path, new.as_bytes())
        .with_context(|| format!("replacing {}", path.display()))?;
    let numbers: Vec<String> = rounds.keys().map(u32::to_string).collect();
    eprintln!(
        "{}: {count} pairings written for round {}",
        path.display(),
        numbers.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}
