//! The demo's games (演示对局): real master games of Hu Ronghua (胡荣华).
//!
//! The first 64 games of the repository's data set
//! (`data/games/hu-ronghua-1391.pgn`, MIT licence, see `data/games/README.md`)
//! are embedded in the binary as `data/games/demo-64.pgn`, so `caipan demo`
//! runs from any folder and from an installed binary. `--pgn FILE` replays
//! another PGN file of Xiangqi games in ICCS notation instead.

use anyhow::{bail, Context};
use std::path::Path;
use std::sync::Arc;
use xiangqi::Game;

/// The embedded games: a prefix of the data set (a test checks it).
pub const EMBEDDED: &str = include_str!("../../../../../data/games/demo-64.pgn");

/// Where the games come from, for the log and the banner.
#[derive(Debug, Clone)]
pub enum Source {
    /// The games built into the binary.
    Embedded,
    /// A file given with `--pgn`.
    File(std::path::PathBuf),
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Embedded => f.write_str("the embedded games (data/games/demo-64.pgn)"),
            Source::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// The source of the games: `explicit` if given (it must exist), else the
/// embedded games.
pub fn locate(explicit: Option<&Path>) -> anyhow::Result<Source> {
    match explicit {
        Some(p) if p.is_file() => Ok(Source::File(p.to_path_buf())),
        Some(p) => bail!("--pgn {}: no such file", p.display()),
        None => Ok(Source::Embedded),
    }
}

/// Reads the games of `source` that replay legally.
pub fn load(source: &Source) -> anyhow::Result<Arc<Vec<Game>>> {
    let text = match source {
        Source::Embedded => EMBEDDED.to_string(),
        Source::File(path) => {
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?
        }
    };
    let games = table::replay::games_from_pgn(&text)
        .with_context(|| format!("reading the games of {source}"))?;
    if games.is_empty() {
        bail!("{source}: no game that replays legally");
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
    fn the_embedded_games_are_the_first_64_of_the_data_set() {
        let full = include_str!("../../../../../data/games/hu-ronghua-1391.pgn");
        assert!(full.starts_with(EMBEDDED), "demo-64.pgn is a prefix");
        let games = load(&locate(None).unwrap()).unwrap();
        assert_eq!(games.len(), 64);
    }

    /// The scripts of all 40 demo tables with their incidents (the default
    /// seed) from `games`: (game index, incident, incident ply, steps).
    fn demo_scripts(games: Arc<Vec<Game>>) -> Vec<(usize, Option<&'static str>, usize, usize)> {
        let max = super::super::hall::max_tables().unwrap();
        let tables: Vec<(u16, String)> = (1..=max as u16).map(|t| (t, String::new())).collect();
        let mut opts = table::replay::ReplayOptions::new(
            "127.0.0.1:1".parse().unwrap(),
            proto::Trust::CertDer(Vec::new()),
            tables,
            games,
        );
        opts.incidents = true;
        table::replay::scripts(&opts)
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s.game,
                    s.incident.map(|i| i.name()),
                    s.at_ply,
                    s.steps.len(),
                )
            })
            .collect()
    }

    #[test]
    fn the_embedded_games_script_the_demo_as_the_whole_data_set_does() {
        // Every incident finds its spot among the embedded games, and the
        // same one it finds in all 1,391 games.
        let embedded = demo_scripts(load(&Source::Embedded).unwrap());
        assert_eq!(embedded.len(), 40);
        assert_eq!(embedded.iter().filter(|s| s.1.is_some()).count(), 7);
        let full = include_str!("../../../../../data/games/hu-ronghua-1391.pgn");
        let all = Arc::new(table::replay::games_from_pgn(full).unwrap());
        assert_eq!(embedded, demo_scripts(all));
    }
}
