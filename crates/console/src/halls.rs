//! The console's own config (控制台配置) for one console over several halls
//! (`caipan console --halls FILE`, README "One console for several
//! halls"): a TOML file listing the halls, each with a short name (the hall
//! column), its servers' addresses (the active server and any standby),
//! the certificate to trust (a pinned fingerprint or the certificate file)
//! and the file holding this arbiter's token for that hall. The token
//! decides the role in that hall, so a deputy's tables are per hall.
//!
//! ```toml
//! [[hall]]
//! name = "A"
//! servers = ["192.168.1.10:4433", "192.168.1.11:4433"]
//! fingerprint = "3f9a…"          # or: cert = "room-a/server-cert.pem"
//! token_file = "secrets/chief-a.token"
//! ```
//!
//! Relative paths are read from the config's folder. [`load`] turns the
//! file into one [`HallLink`] per hall; every problem found is an error
//! naming the file and the key (`hall[1].servers: …`). The example is
//! `config/console-halls.toml`.

use crate::net::{HallLink, NetConfig};
use proto::Trust;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The longest hall name (display columns): it is a column of the overview.
pub const NAME_MAX: usize = 8;

/// Why a console config could not be used.
#[derive(Debug, thiserror::Error)]
pub enum HallsError {
    #[error("{file}: {source}")]
    Read {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{file}: {message}")]
    Parse { file: PathBuf, message: String },
    #[error("{file}: {key}: {problem}")]
    Key {
        file: PathBuf,
        key: String,
        problem: String,
    },
}

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    hall: Vec<RawHall>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHall {
    name: Option<String>,
    #[serde(default)]
    servers: Vec<String>,
    fingerprint: Option<String>,
    cert: Option<PathBuf>,
    token_file: Option<PathBuf>,
}

/// Reads and checks the console config at `file`.
pub fn load(file: &Path) -> Result<Vec<HallLink>, HallsError> {
    let text = std::fs::read_to_string(file).map_err(|source| HallsError::Read {
        file: file.to_path_buf(),
        source,
    })?;
    let base = file.parent().unwrap_or(Path::new(""));
    parse(&text, base).map_err(|e| match e {
        Problem::Parse(message) => HallsError::Parse {
            file: file.to_path_buf(),
            message,
        },
        Problem::Key(key, problem) => HallsError::Key {
            file: file.to_path_buf(),
            key,
            problem,
        },
    })
}

enum Problem {
    Parse(String),
    Key(String, String),
}

fn parse(text: &str, base: &Path) -> Result<Vec<HallLink>, Problem> {
    let raw: Raw = toml::from_str(text).map_err(|e| Problem::Parse(e.to_string()))?;
    if raw.hall.is_empty() {
        return Err(Problem::Key("hall".into(), "no [[hall]] listed".into()));
    }
    let mut out: Vec<HallLink> = Vec::new();
    for (i, h) in raw.hall.into_iter().enumerate() {
        let key = |k: &str| format!("hall[{i}].{k}");
        let bad = |k: &str, p: String| Problem::Key(key(k), p);
        let name = h.name.unwrap_or_default().trim().to_string();
        if name.is_empty() {
            return Err(bad("name", "missing or empty".into()));
        }
        if crate::width::width(&name) > NAME_MAX {
            return Err(bad(
                "name",
                format!("{name:?} is longer than {NAME_MAX} columns (it is the hall column)"),
            ));
        }
        if out.iter().any(|o| o.name == name) {
            return Err(bad("name", format!("{name:?} is listed twice")));
        }
        if h.servers.is_empty() {
            return Err(bad("servers", "give at least one host:port".into()));
        }
        for (j, s) in h.servers.iter().enumerate() {
            let ok = s
                .rsplit_once(':')
                .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
            if !ok {
                return Err(Problem::Key(
                    format!("hall[{i}].servers[{j}]"),
                    format!("{s:?} is not host:port"),
                ));
            }
        }
        let trust = match (h.fingerprint, h.cert) {
            (Some(_), Some(_)) => {
                return Err(bad("cert", "give fingerprint or cert, not both".into()))
            }
            (None, None) => {
                return Err(bad(
                    "fingerprint",
                    "give the server's fingerprint (printed by `caipan serve`) or cert".into(),
                ))
            }
            (Some(hex), None) => Trust::Fingerprint(
                hex.parse()
                    .map_err(|e| bad("fingerprint", format!("{e}")))?,
            ),
            (None, Some(path)) => Trust::CertFile(base.join(path)),
        };
        let Some(token_file) = h.token_file else {
            return Err(bad("token_file", "missing".into()));
        };
        let path = base.join(&token_file);
        let token = std::fs::read_to_string(&path)
            .map_err(|e| bad("token_file", format!("{}: {e}", path.display())))?;
        let token = token.trim();
        if token.is_empty() {
            return Err(bad("token_file", format!("{} is empty", path.display())));
        }
        out.push(HallLink {
            name,
            net: NetConfig {
                servers: h.servers,
                token: token.to_string(),
                trust,
            },
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FP: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn dir_with_tokens() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.token"), "token-of-a\n").expect("write");
        std::fs::write(dir.path().join("empty.token"), "  \n").expect("write");
        dir
    }

    fn load_text(dir: &Path, text: &str) -> Result<Vec<HallLink>, HallsError> {
        let file = dir.join("console.toml");
        std::fs::write(&file, text).expect("write");
        load(&file)
    }

    fn hall(name: &str, servers: &str, trust: &str, token: &str) -> String {
        format!(
            "[[hall]]\nname = {name:?}\nservers = [{servers}]\n{trust}\ntoken_file = {token:?}\n"
        )
    }

    #[test]
    fn reads_every_hall_with_its_links() {
        let dir = dir_with_tokens();
        let text = hall(
            "A",
            "\"10.0.0.1:4433\", \"10.0.0.2:4433\"",
            &format!("fingerprint = \"{FP}\""),
            "a.token",
        ) + &hall("B", "\"10.0.1.1:4433\"", "cert = \"b.pem\"", "a.token");
        let halls = load_text(dir.path(), &text).expect("loads");
        assert_eq!(halls.len(), 2);
        assert_eq!(halls[0].name, "A");
        assert_eq!(halls[0].net.servers, ["10.0.0.1:4433", "10.0.0.2:4433"]);
        assert_eq!(halls[0].net.token, "token-of-a");
        assert!(matches!(halls[0].net.trust, Trust::Fingerprint(_)));
        match &halls[1].net.trust {
            Trust::CertFile(p) => assert_eq!(p, &dir.path().join("b.pem")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_name_the_file_and_the_key() {
        let dir = dir_with_tokens();
        let fp = format!("fingerprint = \"{FP}\"");
        let cases = [
            (String::new(), "hall: no [[hall]]"),
            (
                hall("A", "", &fp, "a.token"),
                "hall[0].servers: give at least one",
            ),
            (
                hall("A", "\"nowhere\"", &fp, "a.token"),
                "hall[0].servers[0]: \"nowhere\" is not host:port",
            ),
            (
                hall("A", "\"h:1\"", "fingerprint = \"zz\"", "a.token"),
                "hall[0].fingerprint:",
            ),
            (
                hall("A", "\"h:1\"", "", "a.token"),
                "hall[0].fingerprint: give",
            ),
            (
                hall("A", "\"h:1\"", &fp, "missing.token"),
                "hall[0].token_file:",
            ),
            (
                hall("A", "\"h:1\"", &fp, "empty.token"),
                "hall[0].token_file:",
            ),
            (
                hall("A", "\"h:1\"", &fp, "a.token") + &hall("A", "\"h:2\"", &fp, "a.token"),
                "hall[1].name: \"A\" is listed twice",
            ),
            (
                hall("Hall of the East", "\"h:1\"", &fp, "a.token"),
                "hall[0].name:",
            ),
            ("[[hall]]\nname = \"A\"\nport = 1\n".into(), "unknown field"),
        ];
        for (text, want) in cases {
            let err = load_text(dir.path(), &text).expect_err(&text).to_string();
            assert!(err.contains("console.toml: "), "{err}");
            assert!(err.contains(want), "{want:?} not in {err:?}");
        }
        let none = load(&dir.path().join("absent.toml")).expect_err("no file");
        assert!(none.to_string().contains("absent.toml"), "{none}");
    }
}
