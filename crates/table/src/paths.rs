//! Where a table terminal keeps its files on the machine it runs on: the
//! outbox (events stored before they are sent) under the user's data
//! directory, one folder per hall and table, and logs under the user's
//! state directory (XDG base directories on Linux, via the `dirs` crate).
//!
//! The outbox is keyed by the hall id the server announces
//! (`HallInfo::hall_id`), not by the server's address, so a terminal
//! restarted from another folder, or pointed at a standby server of the
//! same hall, finds and resends the same outbox. The hall id comes from a
//! peer: it is checked ([`check_hall_id`]) before it names a folder.

use std::path::{Path, PathBuf};

/// The longest hall id accepted from a server.
pub const MAX_HALL_ID: usize = 64;

/// Why a terminal's paths could not be worked out.
#[derive(Debug, thiserror::Error)]
pub enum PathsError {
    /// The server announced a hall id that cannot name a folder.
    #[error("the server's hall id {0:?} is not 1 to 64 lower-case hex digits")]
    BadHallId(String),
    /// Neither `$XDG_DATA_HOME`/`$XDG_STATE_HOME` nor `$HOME` is set.
    #[error("no home directory: set HOME or XDG_DATA_HOME, or give --outbox and --log")]
    NoHome,
}

/// The hall id, if it is 1 to [`MAX_HALL_ID`] lower-case hex digits.
pub fn check_hall_id(id: &str) -> Result<&str, PathsError> {
    let ok = !id.is_empty()
        && id.len() <= MAX_HALL_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if ok {
        Ok(id)
    } else {
        Err(PathsError::BadHallId(id.chars().take(80).collect()))
    }
}

/// caipan's folder under the user's data directory
/// (`$XDG_DATA_HOME/caipan`, default `~/.local/share/caipan`).
pub fn data_root() -> Result<PathBuf, PathsError> {
    dirs::data_dir()
        .map(|d| d.join("caipan"))
        .ok_or(PathsError::NoHome)
}

/// caipan's folder under the user's state directory, for logs
/// (`$XDG_STATE_HOME/caipan`, default `~/.local/state/caipan`; the data
/// directory where a platform has no state directory).
pub fn state_root() -> Result<PathBuf, PathsError> {
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .map(|d| d.join("caipan"))
        .ok_or(PathsError::NoHome)
}

/// The outbox folder of `table` in hall `hall_id` under `data_root`:
/// `<data_root>/outbox/<hall_id>/table-<N>`.
pub fn outbox_dir(data_root: &Path, hall_id: &str, table: u16) -> Result<PathBuf, PathsError> {
    let id = check_hall_id(hall_id)?;
    Ok(data_root
        .join("outbox")
        .join(id)
        .join(format!("table-{table}")))
}

/// The default log file of table `table`'s terminal.
pub fn table_log(state_root: &Path, table: u16) -> PathBuf {
    state_root.join(format!("table-{table}.log"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outbox_is_keyed_by_hall_and_table() {
        let root = Path::new("/home/a/.local/share/caipan");
        let d = outbox_dir(root, "0123456789abcdef", 7).unwrap();
        assert_eq!(
            d,
            Path::new("/home/a/.local/share/caipan/outbox/0123456789abcdef/table-7")
        );
        assert_ne!(d, outbox_dir(root, "0123456789abcdef", 8).unwrap());
    }

    #[test]
    fn a_hostile_hall_id_names_no_folder() {
        let root = Path::new("/r");
        for bad in ["", "../../etc", "ABCDEF", "0123/45", "a b", &"a".repeat(65)] {
            assert!(
                matches!(outbox_dir(root, bad, 1), Err(PathsError::BadHallId(_))),
                "{bad:?}"
            );
        }
    }
}
