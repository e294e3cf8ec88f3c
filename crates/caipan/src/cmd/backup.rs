//! `caipan backup --data DIR --out NEW_DIR`: a consistent copy of a hall's
//! data dir, safe while the server runs (SQLite `VACUUM INTO` in one read
//! transaction, then the config copy, round starts and certificate files).
//! The copy is a data dir that `caipan export --data` and `caipan serve
//! --data` accept. The library side is `store::backup`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Arguments of `caipan backup`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hall's data directory (the server may be running on it).
    #[arg(long)]
    data: PathBuf,
    /// The new folder for the copy (must not exist, or be empty).
    #[arg(long)]
    out: PathBuf,
}

/// Runs `caipan backup`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let made = store::backup::backup(&args.data, &args.out).with_context(|| {
        format!(
            "backing up {} to {}",
            args.data.display(),
            args.out.display()
        )
    })?;
    outln!(
        "backup {}: {} records, {} bytes; also {}",
        made.db.display(),
        made.rows,
        made.bytes,
        made.files.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}
