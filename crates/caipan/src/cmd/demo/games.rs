//! The demo's games (演示对局): real master games from the shared data set
//! `../shared/data/games/hu-ronghua-1391.pgn` (1,391 games of Hu Ronghua).
//!
//! The file is not part of the repository, so it is looked for: `--pgn`
//! if given, else `../shared/data/games/hu-ronghua-1391.pgn` relative to
//! the folder of the executable, the current folder and the folder the
//! binary was built from, and each of their parent folders.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use xiangqi::Game;

/// Where the data set sits relative to a checkout.
pub const RELATIVE: &str = "../shared/data/games/hu-ronghua-1391.pgn";

/// Folders whose ancestors are searched for [`RELATIVE`].
fn bases() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
    {
        out.push(dir);
    }
    if let Ok(cwd) = std::env::current_dir() {
        out.push(cwd);
    }
    out.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    out
}

/// The PGN file to replay: `explicit`, or the data set found near the
/// executable, the current folder or the source tree.
pub fn locate(explicit: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(p) = explicit {
        if p.is_file() {
            return Ok(p.to_path_buf());
        }
        bail!("--pgn {}: no such file", p.display());
    }
    let bases = bases();
    for base in &bases {
        for dir in base.ancestors() {
            let candidate = dir.join(RELATIVE);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    let tried: Vec<String> = bases.iter().map(|b| b.display().to_string()).collect();
    bail!(
        "the demo's games were not found: looked for {RELATIVE} from {} and their parent folders; \
         give the file with --pgn FILE (any PGN file of Xiangqi games in ICCS notation)",
        tried.join(", ")
    )
}

/// Reads the games of `path` that replay legally.
pub fn load(path: &Path) -> anyhow::Result<Arc<Vec<Game>>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let games = table::replay::games_from_pgn(&text)
        .with_context(|| format!("reading the games of {}", path.display()))?;
    if games.is_empty() {
        bail!("{}: no game that replays legally", path.display());
    }
    Ok(Arc::new(games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_explicit_file_is_named() {
        let err = locate(Some(Path::new("/nonexistent/x.pgn"))).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.pgn"), "{err}");
    }

    #[test]
    fn the_shared_data_set_is_found_from_the_source_tree() {
        // The checkout sits next to ../shared in this project's layout.
        let expected = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../")
            .join(RELATIVE);
        if expected.is_file() {
            let found = locate(None).unwrap();
            assert!(
                found.ends_with("hu-ronghua-1391.pgn"),
                "{}",
                found.display()
            );
        }
    }
}
