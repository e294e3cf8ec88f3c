//! Where `caipan console` and `caipan table` get their credential: `--token T`,
//! `--token-file FILE` or the `CAIPAN_TOKEN` environment variable.
//!
//! Precedence (documented in README "Tokens"): `--token` and `--token-file`
//! exclude each other (clap refuses both, exit 2); either one wins over
//! `CAIPAN_TOKEN`, which is read only when neither flag is given. A file's
//! or variable's surrounding whitespace (the trailing newline) is trimmed;
//! an unreadable file, an empty file or an empty variable is an error naming
//! it. The file and the variable are preferred: a `--token` on the command
//! line is visible to every user of the machine (`ps`).

use anyhow::Context as _;
use std::path::PathBuf;

/// The environment variable read when no token flag is given.
pub const TOKEN_ENV: &str = "CAIPAN_TOKEN";

/// The token flags, flattened into a subcommand's arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct TokenArgs {
    /// Your token (prefer --token-file or CAIPAN_TOKEN: a command line is
    /// visible to every user of the machine).
    #[arg(long, conflicts_with = "token_file")]
    pub token: Option<String>,
    /// Read the token from this file (surrounding whitespace trimmed).
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
}

impl TokenArgs {
    /// The token, from the flags or else from `CAIPAN_TOKEN` (looked up by `env`).
    pub fn resolve(&self, env: impl Fn(&str) -> Option<String>) -> anyhow::Result<String> {
        if let Some(t) = &self.token {
            anyhow::ensure!(!t.trim().is_empty(), "--token is empty");
            return Ok(t.trim().to_string());
        }
        if let Some(path) = &self.token_file {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read token file {}", path.display()))?;
            let t = text.trim();
            anyhow::ensure!(!t.is_empty(), "token file {} is empty", path.display());
            return Ok(t.to_string());
        }
        match env(TOKEN_ENV) {
            Some(v) if !v.trim().is_empty() => Ok(v.trim().to_string()),
            Some(_) => anyhow::bail!("{TOKEN_ENV} is set but empty"),
            None => anyhow::bail!(
                "no token: give --token-file FILE, set {TOKEN_ENV}, or give --token T"
            ),
        }
    }

    /// [`TokenArgs::resolve`] against the process environment.
    pub fn get(&self) -> anyhow::Result<String> {
        self.resolve(|k| std::env::var(k).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(token: Option<&str>, file: Option<PathBuf>) -> TokenArgs {
        TokenArgs {
            token: token.map(str::to_string),
            token_file: file,
        }
    }

    #[test]
    fn flags_win_over_the_environment() {
        let env = |_: &str| Some("from-env".to_string());
        assert_eq!(args(Some("flag"), None).resolve(env).unwrap(), "flag");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("t");
        std::fs::write(&f, "  from-file\n").unwrap();
        assert_eq!(args(None, Some(f)).resolve(env).unwrap(), "from-file");
        assert_eq!(args(None, None).resolve(env).unwrap(), "from-env");
    }

    #[test]
    fn empty_or_missing_sources_are_named() {
        let none = |_: &str| None;
        let err = args(None, None).resolve(none).unwrap_err().to_string();
        assert!(
            err.contains("--token-file") && err.contains(TOKEN_ENV),
            "{err}"
        );
        let empty = |_: &str| Some(" \n".to_string());
        let err = args(None, None).resolve(empty).unwrap_err().to_string();
        assert!(err.contains("empty"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("empty");
        std::fs::write(&f, "\n").unwrap();
        let err = args(None, Some(f)).resolve(none).unwrap_err().to_string();
        assert!(err.contains("is empty"), "{err}");
        let err = args(None, Some(dir.path().join("missing")))
            .resolve(none)
            .unwrap_err();
        assert!(
            format!("{err:#}").contains("cannot read token file"),
            "{err:#}"
        );
    }
}
