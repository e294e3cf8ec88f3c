//! `caipan export` — the chief arbiter's post-round export (赛后导出):
//! results (CSV, JSON), one PGN per game, standings (CSV, JSON), a
//! TRF-16-style report and an HTML standings and crosstable page, read
//! from a hall's data dir (read-only; works while the server runs).
//!
//! Names, pairings and the tournament type come from the config copy the
//! server keeps in the data dir (`hall-config.toml`), or from `--config`.
//! `--out` is a folder for `pgn` (one file per game, `r1-t03.pgn`) and a
//! file for the other formats; without it single-file formats go to stdout.
//! The library side is `server::export`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use server::export::{self, Format, Rendered};

/// Arguments of `caipan export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hall's data directory (the server's `data_dir`).
    #[arg(long)]
    data: PathBuf,
    /// Round to export.
    #[arg(long)]
    round: u32,
    /// csv | json (results), pgn (one file per game), trf, html,
    /// standings-csv | standings-json.
    #[arg(long)]
    format: String,
    /// Output: a folder for pgn, a file for the others (default: stdout).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The hall config, when the data dir has no copy of it.
    #[arg(long)]
    config: Option<PathBuf>,
}

/// Runs `caipan export`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(format) = Format::parse(&args.format) else {
        let names: Vec<&str> = Format::ALL.iter().map(|(n, _)| *n).collect();
        bail!(
            "unknown format {:?}: expected one of {}",
            args.format,
            names.join(", ")
        );
    };
    if format.is_folder() && args.out.is_none() {
        bail!("--format pgn writes one file per game: give a folder with --out DIR");
    }
    let config = export::stored::load_hall(&args.data, args.config.as_deref())
        .with_context(|| format!("data dir {}", args.data.display()))?;
    let rendered = export::render(&args.data, &config, args.round, format)?;
    match (rendered, args.out) {
        (Rendered::Single(text), None) => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        (Rendered::Single(text), Some(path)) => {
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        (Rendered::Files(files), Some(dir)) => {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("creating folder {}", dir.display()))?;
            for (name, text) in &files {
                let path = dir.join(name);
                std::fs::write(&path, text)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            eprintln!("wrote {} game records to {}", files.len(), dir.display());
        }
        (Rendered::Files(_), None) => {
            bail!("--format pgn writes one file per game: give a folder with --out DIR")
        }
    }
    Ok(ExitCode::SUCCESS)
}
