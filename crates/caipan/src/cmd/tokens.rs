//! `caipan token --config hall.toml [--tables 1-40] [--out DIR]` — prints
//! the token of each table of the current round (the derived ones from the
//! hall secret, and those given per table), one `table N TOKEN` line each,
//! or writes one file per table (`DIR/table-N.token`, mode 0600) to copy
//! onto the table laptops for `caipan table --token-file`.
//!
//! This is the one command that prints secrets, on purpose: the organiser
//! runs it on the server machine instead of an `openssl` loop per table.

use anyhow::Context as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `caipan token`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hall config (its table secret or per-table tokens).
    #[arg(long)]
    pub config: PathBuf,
    /// Tables, e.g. `1-40` or `1,3,5-8` (default: every table of the
    /// current round).
    #[arg(long)]
    pub tables: Option<String>,
    /// Write each token to DIR/table-N.token (mode 0600) instead of
    /// printing it.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Runs `caipan token`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = config::HallConfig::load(&args.config)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.config.display()))?;
    let tokens = &config.credentials.tables;
    let wanted: Vec<u32> = match &args.tables {
        Some(text) => super::table::parse_tables(text)?
            .into_iter()
            .map(u32::from)
            .collect(),
        None => tokens.keys().copied().collect(),
    };
    let missing: Vec<String> = wanted
        .iter()
        .filter(|t| !tokens.contains_key(t))
        .map(u32::to_string)
        .collect();
    anyhow::ensure!(
        missing.is_empty(),
        "no token for table {} in {}: round {} has tables {}",
        missing.join(", "),
        args.config.display(),
        config.current_round().number,
        super::table::describe_tables(tokens.keys().copied())
    );
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("folder {}", dir.display()))?;
    }
    for t in wanted {
        let Some(token) = tokens.get(&t) else {
            continue;
        };
        match &args.out {
            Some(dir) => {
                let path = write_private(dir, t, token.expose())?;
                outln!("table {t}: {}", path.display());
            }
            None => outln!("table {t} {}", token.expose()),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `token` to `dir/table-N.token`, readable by its owner only
/// (created with mode 0600, and set so if the file existed).
fn write_private(dir: &Path, table: u32, token: &str) -> anyhow::Result<PathBuf> {
    use std::io::Write as _;
    use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
    let path = dir.join(format!("table-{table}.token"));
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&path)
        .with_context(|| format!("token file {}", path.display()))?;
    f.set_permissions(std::fs::Permissions::from_mode(0o600))
        .with_context(|| format!("token file {}", path.display()))?;
    writeln!(f, "{token}")
        .and_then(|()| f.sync_all())
        .with_context(|| format!("token file {}", path.display()))?;
    Ok(path)
}
