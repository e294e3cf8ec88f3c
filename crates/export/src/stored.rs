//! What the data dir keeps for exports (导出所需的赛事资料): a copy of the
//! hall config and the store position where each round started.
//!
//! The event store (`store/`) records only the hall id and the config's
//! SHA-256, but `caipan export` needs the names, pairings and tournament
//! type of the round it exports. So the server, at every start, calls
//! [`note_hall_start`], which writes
//! - `hall-config.toml`: the config with `[credentials]` replaced by random
//!   throw-away tokens (no secret of the hall is copied; `server.data_dir`
//!   is dropped), loadable with [`load_hall`];
//! - `hall-rounds.json`: for each round started in this data dir, the
//!   global sequence number (`gseq`) of the first record that belongs to it,
//!   so that several rounds may share one data dir. A restart within the
//!   same round keeps the round's first start.
//!
//! A data dir without `hall-rounds.json` is read as one round (every record
//! belongs to the exported round). A published round withdrawn before it
//! started keeps its entry, marked `withdrawn_at` (the withdrawal's
//! `gseq`): it is no round of the export ([`rounds_started`] leaves it
//! out), it still ends the round before it (whose records stop at the
//! publication), and the round published again after it has an entry of
//! its own. Rounds published from the console are
//! in the store, not in the config copy: [`load_hall`] adds them
//! (`crate::published`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ExportError;
use config::HallConfig;
use store::StoreReader;

/// The config copy in the data dir.
pub const HALL_COPY_FILE: &str = "hall-config.toml";
/// The round start positions in the data dir.
pub const ROUNDS_FILE: &str = "hall-rounds.json";

/// Where a round starts in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundStart {
    /// Round number.
    pub round: u32,
    /// `gseq` of the first record of the round.
    pub first_gseq: u64,
    /// `gseq` of the record that withdrew the round before it started
    /// (`None`: it was not withdrawn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_at: Option<u64>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct RoundsFile {
    rounds: Vec<RoundStart>,
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> ExportError {
    ExportError::Io(format!("{}: {e}", path.display()))
}

/// Writes `bytes` to `path` so that a power cut leaves the old file or the
/// new one (temp file, fsync, rename, fsync of the directory).
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    proto::durable::write_atomic(path, bytes).map_err(|e| ExportError::Io(e.to_string()))
}

fn random_token() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..32)
        .map(|_| char::from(b"0123456789abcdef"[rng.random_range(0..16)]))
        .collect()
}

/// The config text with its credentials replaced by random tokens and
/// without `server.data_dir` and `[store]`. Fails if the text is not TOML.
pub fn sanitize_config(config_text: &str) -> Result<String, ExportError> {
    let mut doc: toml::Table = config_text
        .parse()
        .map_err(|e| ExportError::Config(format!("config is not TOML: {e}")))?;
    let chief_name = doc
        .get("credentials")
        .and_then(|c| c.get("chief"))
        .and_then(|c| c.get("name"))
        .and_then(|n| n.as_str())
        .unwrap_or("chief")
        .to_string();
    let mut chief = toml::Table::new();
    chief.insert("name".into(), toml::Value::String(chief_name));
    chief.insert("token".into(), toml::Value::String(random_token()));
    let mut creds = toml::Table::new();
    creds.insert("table_secret".into(), toml::Value::String(random_token()));
    creds.insert("chief".into(), toml::Value::Table(chief));
    doc.insert("credentials".into(), toml::Value::Table(creds));
    if let Some(toml::Value::Table(server)) = doc.get_mut("server") {
        server.remove("data_dir");
    }
    // The database URL may hold a password.
    doc.remove("store");
    let body = toml::to_string(&doc)
        .map_err(|e| ExportError::Config(format!("cannot write the config copy: {e}")))?;
    Ok(format!(
        "# Copy of the hall config written by the caipan server at start, for\n\
         # `caipan export`. The credentials are random throw-away tokens: no\n\
         # secret of the hall is copied here. Do not edit; edit the real config.\n\n{body}"
    ))
}

/// Called by the server at every start, before it appends anything: keeps
/// the config copy and records where `config`'s current round starts.
/// `config_text` is the config file's text (the one `config` was loaded from).
pub fn note_hall_start(
    data_dir: &Path,
    config_text: &str,
    config: &HallConfig,
) -> Result<(), ExportError> {
    std::fs::create_dir_all(data_dir).map_err(|e| io_err(data_dir, e))?;
    let copy = sanitize_config(config_text)?;
    // The copy must load back (it is what export reads).
    HallConfig::from_toml_str(&copy, data_dir, &|_| None)
        .map_err(|e| ExportError::Config(format!("the config copy does not load: {e}")))?;
    write_atomic(&data_dir.join(HALL_COPY_FILE), copy.as_bytes())?;
    // Rounds published from the console follow the config's round: the
    // hall plays the last of them (crate::published).
    let mut effective = config.clone();
    let counted = crate::published::apply(&mut effective, &crate::published::read_dir(data_dir)?);
    // Withdrawals first: a round published again after its withdrawal
    // has a start of its own.
    note_withdrawals(data_dir, &crate::published::withdrawals_dir(data_dir)?)?;
    note_published_starts(data_dir, &counted)?;
    let next = next_gseq(data_dir)?;
    record_round_start(data_dir, effective.tournament.current_round, next)
}

/// Records in the data dir's round starts where each published round
/// that counted starts: its own record (a round already recorded keeps its
/// start).
pub fn note_published_starts(
    data_dir: &Path,
    counted: &[crate::published::Published],
) -> Result<(), ExportError> {
    for p in counted {
        record_round_start(data_dir, p.round.round, p.gseq)?;
    }
    Ok(())
}

/// Marks the withdrawn rounds in the data dir's round starts (an entry
/// already marked, or never recorded, is left as it is).
pub fn note_withdrawals(
    data_dir: &Path,
    withdrawn: &[crate::published::Withdrawal],
) -> Result<(), ExportError> {
    let Some(mut file) = read_rounds(data_dir)? else {
        return Ok(());
    };
    let mut changed = false;
    for w in withdrawn {
        if let Some(r) = file.rounds.iter_mut().find(|r| {
            r.round == w.round && r.first_gseq == w.published_gseq && r.withdrawn_at.is_none()
        }) {
            r.withdrawn_at = Some(w.gseq);
            changed = true;
        }
    }
    if !changed {
        return Ok(());
    }
    let path = data_dir.join(ROUNDS_FILE);
    let json = serde_json::to_vec_pretty(&file).map_err(|e| io_err(&path, e))?;
    write_atomic(&path, &json)
}

/// [`note_hall_start`] for a config loaded from the file `config_path`
/// (what `caipan serve --config FILE` has at hand).
pub fn note_hall_start_file(
    data_dir: &Path,
    config_path: &Path,
    config: &HallConfig,
) -> Result<(), ExportError> {
    let text = std::fs::read_to_string(config_path).map_err(|e| io_err(config_path, e))?;
    note_hall_start(data_dir, &text, config)
}

/// The next global sequence number of the store in `data_dir` (1 when there
/// is no store yet).
pub fn next_gseq(data_dir: &Path) -> Result<u64, ExportError> {
    if !data_dir.join(store::DB_FILE).exists() {
        return Ok(1);
    }
    let reader = StoreReader::open_dir(data_dir)?;
    // Read from the hall snapshot's cut on when that row is in the log
    // (the snapshot is the server's, see `snapshot/`): only the tail, not
    // the whole log, at every start.
    let cut = reader
        .load_snapshot(store::HALL_ROW)?
        .map(|s| s.upto_gseq)
        .unwrap_or(0);
    if cut > 0 {
        let tail = reader.log_after(cut - 1)?;
        if tail.first().map(|e| e.gseq()) == Some(cut) {
            let last = tail.last().map(|e| e.gseq()).unwrap_or(cut);
            return Ok(last + 1);
        }
    }
    let last = reader.log_after(0)?.last().map(|e| e.gseq()).unwrap_or(0);
    Ok(last + 1)
}

/// Records that `round` starts at `first_gseq`, unless the round is already
/// the last recorded (a restart within the round; withdrawn rounds after
/// it do not count: the hall went back to it).
pub fn record_round_start(data_dir: &Path, round: u32, first_gseq: u64) -> Result<(), ExportError> {
    let path = data_dir.join(ROUNDS_FILE);
    let mut file = read_rounds(data_dir)?.unwrap_or_default();
    // The round still played (a withdrawn round after it does not count).
    if file
        .rounds
        .iter()
        .rev()
        .find(|r| r.withdrawn_at.is_none())
        .is_some_and(|r| r.round == round)
    {
        return Ok(());
    }
    if file
        .rounds
        .iter()
        .any(|r| r.round == round && r.withdrawn_at.is_none())
    {
        tracing::warn!(
            round,
            "round started again after another round in this data dir; the later start counts"
        );
    }
    file.rounds.push(RoundStart {
        round,
        first_gseq,
        withdrawn_at: None,
    });
    let json = serde_json::to_vec_pretty(&file).map_err(|e| io_err(&path, e))?;
    write_atomic(&path, &json)
}

fn read_rounds(data_dir: &Path) -> Result<Option<RoundsFile>, ExportError> {
    let path = data_dir.join(ROUNDS_FILE);
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| io_err(&path, format!("not a rounds file: {e}"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(&path, e)),
    }
}

/// The range of `gseq` (start inclusive, end exclusive; `None` = to the end)
/// holding round `round`'s records. Without a rounds file the whole log is
/// one round. Fails when the file exists and the round is not in it.
pub fn round_range(data_dir: &Path, round: u32) -> Result<(u64, Option<u64>), ExportError> {
    let Some(file) = read_rounds(data_dir)? else {
        return Ok((0, None));
    };
    // The last start of the round counts (a withdrawn round's does not);
    // its end is the next start, a withdrawn round's included.
    let Some(i) = file
        .rounds
        .iter()
        .rposition(|r| r.round == round && r.withdrawn_at.is_none())
    else {
        let played: Vec<String> = file
            .rounds
            .iter()
            .filter(|r| r.withdrawn_at.is_none())
            .map(|r| r.round.to_string())
            .collect();
        return Err(ExportError::NoRound {
            round,
            detail: format!(
                "rounds started in this data dir: {}",
                if played.is_empty() {
                    "none".to_string()
                } else {
                    played.join(", ")
                }
            ),
        });
    };
    let start = file.rounds[i].first_gseq;
    let end = file.rounds.get(i + 1).map(|r| r.first_gseq);
    Ok((start, end))
}

/// Rounds recorded in the data dir, in start order, without the withdrawn
/// ones (empty without a file).
pub fn rounds_started(data_dir: &Path) -> Result<Vec<RoundStart>, ExportError> {
    Ok(read_rounds(data_dir)?
        .map(|f| f.rounds)
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.withdrawn_at.is_none())
        .collect())
}

/// Loads the hall config for exports: `explicit` (a `--config` path) if
/// given, else the copy in the data dir. Checks that it is the data dir's
/// hall when the store records one.
pub fn load_hall(data_dir: &Path, explicit: Option<&Path>) -> Result<HallConfig, ExportError> {
    let config = match explicit {
        Some(p) => HallConfig::load(p).map_err(|e| ExportError::Config(e.to_string()))?,
        None => {
            let path: PathBuf = data_dir.join(HALL_COPY_FILE);
            let text = std::fs::read_to_string(&path).map_err(|e| {
                if e.kind() == std::io::ErrorKind::NotFound {
                    ExportError::Config(format!(
                        "{} not found: the server writes it at start; give the hall config with --config",
                        path.display()
                    ))
                } else {
                    io_err(&path, e)
                }
            })?;
            HallConfig::from_toml_str(&text, data_dir, &|_| None)
                .map_err(|e| ExportError::Config(format!("{}: {e}", path.display())))?
        }
    };
    let mut config = config;
    if data_dir.join(store::DB_FILE).exists() {
        let reader = StoreReader::open_dir(data_dir)?;
        if let Some(found) = reader.hall_id()? {
            let expected = config.hall_id();
            if found != expected {
                return Err(ExportError::Config(format!(
                    "the data dir belongs to hall {found}, the config is hall {expected}"
                )));
            }
        }
        // The rounds published from the console are in the store.
        let entries = reader.published_rounds()?;
        let published = crate::published::read(&entries)?;
        crate::published::apply(&mut config, &published);
        crate::published::apply_players(&mut config, &crate::published::players(&entries)?);
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = r#"
[tournament]
name = "t"
date = "2026-11-29"
kind = "swiss"
[server]
data_dir = "somewhere/else"
[credentials]
table_secret = "the-real-table-secret-0123456789"
[credentials.chief]
name = "王志明"
token = "the-real-chief-token-0123456789"
[[credentials.deputy]]
name = "d"
token = "the-real-deputy-token-0123456789"
tables = [1]
[[round]]
number = 1
[[round.table]]
table = 1
red = "R"
black = "B"
[store]
url = "postgres://hall:the-real-db-password@db/caipan"
hall = "room-a"
"#;

    #[test]
    fn the_copy_has_no_secret_and_loads() {
        let dir = tempfile::tempdir().unwrap();
        let config = HallConfig::from_toml_str(CONFIG, dir.path(), &|_| None).unwrap();
        note_hall_start(dir.path(), CONFIG, &config).unwrap();
        let copy = std::fs::read_to_string(dir.path().join(HALL_COPY_FILE)).unwrap();
        assert!(!copy.contains("the-real"), "{copy}");
        assert!(!copy.contains("somewhere"), "{copy}");
        let loaded = load_hall(dir.path(), None).unwrap();
        assert_eq!(loaded.hall_id(), config.hall_id());
        assert_eq!(loaded.credentials.chief.name, "王志明");
        assert_eq!(loaded.round(1).unwrap().tables[0].red, "R");
        assert!(loaded.credentials.deputies.is_empty());
    }

    #[test]
    fn round_ranges() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert_eq!(round_range(d, 7).unwrap(), (0, None), "no file: one round");
        record_round_start(d, 1, 1).unwrap();
        record_round_start(d, 1, 50).unwrap(); // a restart within round 1
        record_round_start(d, 2, 100).unwrap();
        assert_eq!(round_range(d, 1).unwrap(), (1, Some(100)));
        assert_eq!(round_range(d, 2).unwrap(), (100, None));
        assert!(round_range(d, 3).is_err());
        // Round 1 started again after round 2 (replayed): the later start counts.
        record_round_start(d, 1, 200).unwrap();
        assert_eq!(round_range(d, 1).unwrap(), (200, None));
        assert_eq!(round_range(d, 2).unwrap(), (100, Some(200)));
        assert_eq!(next_gseq(d).unwrap(), 1, "no store yet");
    }
}
