//! The demo's data directory (数据目录): a fresh temporary folder removed
//! at the end, or `--data DIR`, kept for `caipan export`.
//!
//! `DIR` is created if absent. It is refused, with a message that says why
//! and what to do, when it holds another hall's store, a demo round that
//! was already played (the replayer starts every game from its first move),
//! or other files (the demo does not write into a folder it does not own).

use anyhow::{bail, Context};
use config::HallConfig;
use std::path::{Path, PathBuf};
use store::{StoreReader, DB_FILE};

/// The data dir of one demo run.
pub struct DataDir {
    pub path: PathBuf,
    /// Removed when dropped (a temporary folder the demo made).
    temporary: bool,
}

impl DataDir {
    /// Whether the folder goes away at the end.
    pub fn is_temporary(&self) -> bool {
        self.temporary
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        if self.temporary {
            if let Err(e) = std::fs::remove_dir_all(&self.path) {
                tracing::warn!(dir = %self.path.display(), "could not remove the demo data dir: {e}");
            }
        }
    }
}

/// A new temporary folder, or `dir` checked for `config`'s hall.
pub fn prepare(dir: Option<&Path>, config: &HallConfig) -> anyhow::Result<DataDir> {
    let Some(dir) = dir else {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("caipan-demo-{}-{nanos:09}", std::process::id()));
        std::fs::create_dir_all(&path)
            .with_context(|| format!("creating the temporary data dir {}", path.display()))?;
        return Ok(DataDir {
            path,
            temporary: true,
        });
    };
    if dir.exists() && !dir.is_dir() {
        bail!("--data {}: not a folder", dir.display());
    }
    if !dir.exists() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the data dir {}", dir.display()))?;
        return Ok(DataDir {
            path: dir.to_path_buf(),
            temporary: false,
        });
    }
    check_existing(dir, config)?;
    Ok(DataDir {
        path: dir.to_path_buf(),
        temporary: false,
    })
}

fn check_existing(dir: &Path, config: &HallConfig) -> anyhow::Result<()> {
    let expected = config.hall_id();
    if dir.join(DB_FILE).exists() {
        let reader = StoreReader::open_dir(dir)
            .with_context(|| format!("--data {}: reading its event store", dir.display()))?;
        let found = reader
            .hall_id()
            .with_context(|| format!("--data {}: reading its hall id", dir.display()))?;
        if let Some(found) = found {
            if found != expected {
                bail!(
                    "--data {}: this folder holds the data of another hall (hall id {found}); \
                     the demo hall \"{}\" is hall {expected}. The demo never writes into another \
                     hall's data: give a new or empty folder with --data",
                    dir.display(),
                    config.tournament.name
                );
            }
        }
        let events = reader
            .event_count()
            .with_context(|| format!("--data {}: counting its events", dir.display()))?;
        if events > 0 {
            bail!(
                "--data {}: this folder already holds a played demo round ({events} stored events). \
                 Export it with `caipan export --data {} --round 1 --format csv`, or give a new \
                 folder with --data to play again",
                dir.display(),
                dir.display()
            );
        }
        return Ok(());
    }
    let mut entries = std::fs::read_dir(dir)
        .with_context(|| format!("--data {}: listing the folder", dir.display()))?;
    if entries.next().is_some() {
        bail!(
            "--data {}: the folder is not empty and holds no caipan hall (no {DB_FILE}); \
             give a new or empty folder with --data",
            dir.display()
        );
    }
    Ok(())
}
