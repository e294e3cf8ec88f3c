//! Backups of a data dir (备份) that are safe to take while the server
//! runs: `caipan backup --data DIR --out NEW_DIR`.
//!
//! The store is copied with SQLite's `VACUUM INTO` from a read-only
//! connection: one read transaction, so the copy is the consistent state
//! of one commit (every row acknowledged before it, none after), whatever
//! the server writes meanwhile, in one self-contained file (no
//! `-wal`). The small files beside it are copied as they are: the config
//! copy and the round starts (`caipan export` needs them) and the
//! certificate, key and stateless-reset key (so a server started on the
//! copy keeps the hall's fingerprint). The result is a data dir that
//! `caipan export --data` and `caipan serve --data` accept.
//!
//! A data dir without `hall.db` is refused; a PostgreSQL store is backed
//! up with `pg_dump` instead.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::{StoreError, DB_FILE};

/// Files beside the store that a backup copies when present.
pub const SIDE_FILES: [&str; 5] = [
    "hall-config.toml",
    "hall-rounds.json",
    proto::datadir::CERT_FILE,
    proto::datadir::KEY_FILE,
    proto::datadir::RESET_KEY_FILE,
];

/// What a backup made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// The copied store.
    pub db: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Records (events and audit entries) in the copy.
    pub rows: u64,
    /// The side files copied.
    pub files: Vec<String>,
}

/// Copies the data dir `data` to the new folder `out` (created; it must
/// not exist or be empty). Blocking.
pub fn backup(data: &Path, out: &Path) -> Result<Backup, StoreError> {
    let db = data.join(DB_FILE);
    if !db.is_file() {
        return Err(StoreError::Io(format!(
            "{} holds no SQLite store ({DB_FILE}); a PostgreSQL store is backed up with pg_dump",
            data.display()
        )));
    }
    let nonempty = std::fs::read_dir(out)
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if nonempty {
        return Err(StoreError::Io(format!(
            "{} is not empty: give a new folder for the backup",
            out.display()
        )));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| StoreError::Io(format!("cannot create {}: {e}", out.display())))?;
    let target = out.join(DB_FILE);
    let target_text = target
        .to_str()
        .ok_or_else(|| StoreError::Io(format!("{} is not UTF-8", target.display())))?;
    let conn = Connection::open_with_flags(
        &db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.execute("VACUUM INTO ?1", [target_text])?;
    drop(conn);
    let copy = Connection::open_with_flags(&target, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let check: String = copy.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if check != "ok" {
        return Err(StoreError::Io(format!(
            "the copy {} fails its integrity check: {check}",
            target.display()
        )));
    }
    let rows = crate::schema::count_records(&copy)?;
    drop(copy);
    let mut files = Vec::new();
    for name in SIDE_FILES {
        let from = data.join(name);
        if from.is_file() {
            // fs::copy keeps the permission bits (the key stays 0600).
            std::fs::copy(&from, out.join(name))
                .map_err(|e| StoreError::Io(format!("cannot copy {}: {e}", from.display())))?;
            files.push(name.to_string());
        }
    }
    let bytes = std::fs::metadata(&target).map(|m| m.len()).unwrap_or(0);
    Ok(Backup {
        db: target,
        bytes,
        rows: u64::try_from(rows).unwrap_or(0),
        files,
    })
}
