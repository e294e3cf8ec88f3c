//! `[store]` of the hall config: where the hall record lives. Absent: the
//! embedded SQLite store in the data dir (the default). Present: a
//! PostgreSQL database, named by exactly one of
//!
//! - `url = "postgres://user:password@host:5432/caipan"` (the URL in the
//!   config text itself: only for a URL without a password, or a config
//!   file kept as secret as a password file);
//! - `url_env = "CAIPAN_STORE_URL"` (an environment variable);
//! - `url_file = "secrets/store.url"` (a file, relative to the config's
//!   folder; surrounding whitespace trimmed),
//!
//! with `hall` (this hall's id in the database; default: the hall id the
//! config derives from the tournament's name, site and date) and
//! `tournament` (the id shared by every hall of one tournament; default:
//! the tournament's name), and `ca_file` (PEM of the CA that signed the
//! database's certificate, for `sslmode=require`), and `pairing_hall`
//! (the hall whose chief pairs the tournament's next rounds; default:
//! the tournament's first hall by id in the database). The URL is a
//! [`StoreUrl`]: its `Debug` hides the password.

use std::fmt;
use std::path::{Path, PathBuf};

use proto::Message;
use serde::Deserialize;

/// `[store]` as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStore {
    pub url: Option<String>,
    pub url_env: Option<String>,
    pub url_file: Option<PathBuf>,
    pub hall: Option<String>,
    pub tournament: Option<String>,
    pub ca_file: Option<PathBuf>,
    pub pairing_hall: Option<String>,
}

impl fmt::Debug for RawStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RawStore { <redacted> }")
    }
}

/// A database URL; may hold a password, so its `Debug` shows only the
/// part after the `@` and there is no `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct StoreUrl(String);

impl StoreUrl {
    /// Wraps a URL.
    pub fn new(url: impl Into<String>) -> StoreUrl {
        StoreUrl(url.into())
    }

    /// The URL itself (to connect). Never log it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `postgres://…@host:port/db`: the URL without user and password.
    pub fn redacted(&self) -> String {
        let u = &self.0;
        match (u.find("://"), u.rfind('@')) {
            (Some(a), Some(b)) if b > a => format!("{}://…{}", &u[..a], &u[b..]),
            _ => u.clone(),
        }
    }
}

impl fmt::Debug for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StoreUrl({})", self.redacted())
    }
}

/// `[store]`, validated: the hall record in PostgreSQL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreConfig {
    /// The database URL.
    pub url: StoreUrl,
    /// This hall's id in the database (unique among the halls there).
    pub hall: String,
    /// The tournament id shared by the halls of one tournament.
    pub tournament: String,
    /// CA certificate (PEM) for TLS to the database, resolved against the
    /// config's folder.
    pub ca_file: Option<PathBuf>,
    /// The hall of the tournament that pairs the rounds after the first
    /// (编排赛场; `None`: the tournament's first hall by id in the
    /// database).
    pub pairing_hall: Option<String>,
}

/// Longest hall or tournament id accepted.
const MAX_ID: usize = 200;

/// Validates `[store]`; `derived_hall` and `tournament_name` give the
/// defaults. Problems are `(key, what is wrong)`, typed (`config-*`).
pub(super) fn validate(
    raw: &RawStore,
    derived_hall: &str,
    tournament_name: &str,
    base_dir: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    problems: &mut Vec<(String, Message)>,
) -> Option<StoreConfig> {
    let mut add = |k: &str, why: Message| problems.push((format!("store.{k}"), why));
    let given = [
        raw.url.is_some(),
        raw.url_env.is_some(),
        raw.url_file.is_some(),
    ]
    .iter()
    .filter(|g| **g)
    .count();
    if given == 0 {
        problems.push(("store".into(), Message::new("config-store-no-url")));
        return None;
    }
    if given > 1 {
        problems.push(("store".into(), Message::new("config-store-url-forms")));
        return None;
    }
    let (key, text) = if let Some(u) = &raw.url {
        ("url", Some(u.trim().to_string()))
    } else if let Some(var) = &raw.url_env {
        match env(var) {
            Some(v) => ("url_env", Some(v.trim().to_string())),
            None => {
                add(
                    "url_env",
                    Message::new("config-env-not-set").verbatim("var", var.as_str()),
                );
                ("url_env", None)
            }
        }
    } else if let Some(file) = &raw.url_file {
        let path = base_dir.join(file);
        match std::fs::read_to_string(&path) {
            Ok(t) => ("url_file", Some(t.trim().to_string())),
            Err(e) => {
                add(
                    "url_file",
                    crate::cannot_read("config-cannot-read-url-file", &path, &e),
                );
                ("url_file", None)
            }
        }
    } else {
        ("url", None)
    };
    let url = text.and_then(|t| match check_url(&t) {
        Ok(()) => Some(StoreUrl(t)),
        Err(why) => {
            add(key, why);
            None
        }
    });
    let hall = id_value("hall", raw.hall.as_deref(), derived_hall, &mut add);
    let tournament = id_value(
        "tournament",
        raw.tournament.as_deref(),
        tournament_name.trim(),
        &mut add,
    );
    if let Some(ca) = &raw.ca_file {
        if ca.as_os_str().is_empty() {
            add("ca_file", Message::new("config-empty-path"));
        }
    }
    let pairing_hall = match &raw.pairing_hall {
        Some(given) => Some(id_value("pairing_hall", Some(given), "", &mut add)?),
        None => None,
    };
    Some(StoreConfig {
        pairing_hall,
        url: url?,
        hall: hall?,
        tournament: tournament?,
        ca_file: raw.ca_file.as_ref().map(|p| base_dir.join(p)),
    })
}

fn id_value(
    key: &str,
    given: Option<&str>,
    default: &str,
    add: &mut impl FnMut(&str, Message),
) -> Option<String> {
    let v = given.map(str::trim).unwrap_or(default);
    if v.is_empty() {
        add(key, Message::new("config-empty-store-id"));
        return None;
    }
    if v.len() > MAX_ID || v.chars().any(char::is_control) {
        add(
            key,
            Message::new("config-store-id-form").int("max", MAX_ID as i64),
        );
        return None;
    }
    Some(v.to_string())
}

/// A PostgreSQL URL: `postgres://` or `postgresql://`. (The driver checks
/// the rest when connecting; its message never holds the password.)
fn check_url(url: &str) -> Result<(), Message> {
    if url.is_empty() {
        return Err(Message::new("config-empty-url"));
    }
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(Message::new("config-not-a-postgres-url"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacted_hides_user_and_password() {
        let u = StoreUrl::new("postgres://hall:s3cret@db.example:5432/caipan");
        assert_eq!(u.redacted(), "postgres://…@db.example:5432/caipan");
        assert!(!format!("{u:?}").contains("s3cret"));
    }
}
