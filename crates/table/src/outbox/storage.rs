//! Where the outbox file's bytes go (issue 37): [`Storage`] is the few
//! operations the outbox makes on its file — write at an offset, sync,
//! set the length — so the same outbox code runs on the real disk
//! ([`RealDisk`], the terminal) and on a disk that loses what was not
//! synced when its power goes off ([`PowerCutDisk`], over the shared model
//! in `proto::powercut`; `caipan bench powercut --terminal-cuts` and the
//! outbox tests).

use std::fs::File;
use std::path::Path;
use std::sync::Mutex;

use proto::powercut::{CutReport, Disk};

/// The outbox file's write operations.
pub trait Storage: Send + Sync + std::fmt::Debug {
    /// Writes all of `bytes` at `off` of `file` (named `path`).
    fn write_at(&self, file: &File, path: &Path, off: u64, bytes: &[u8]) -> std::io::Result<()>;
    /// Makes everything written to `path` durable.
    fn sync(&self, file: &File, path: &Path) -> std::io::Result<()>;
    /// Sets the file's length (durable at once in both implementations:
    /// the outbox syncs right after).
    fn set_len(&self, file: &File, path: &Path, len: u64) -> std::io::Result<()>;
}

/// The real file: `pwrite`, `fdatasync`, `ftruncate`.
#[derive(Debug, Default, Clone, Copy)]
pub struct RealDisk;

impl Storage for RealDisk {
    fn write_at(&self, file: &File, _path: &Path, off: u64, bytes: &[u8]) -> std::io::Result<()> {
        write_all_at(file, bytes, off)
    }

    fn sync(&self, file: &File, _path: &Path) -> std::io::Result<()> {
        file.sync_data()
    }

    fn set_len(&self, file: &File, _path: &Path, len: u64) -> std::io::Result<()> {
        file.set_len(len)
    }
}

#[cfg(unix)]
fn write_all_at(file: &File, bytes: &[u8], off: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, off)
}

#[cfg(not(unix))]
fn write_all_at(mut file: &File, bytes: &[u8], off: u64) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom, Write};
    file.seek(SeekFrom::Start(off))?;
    file.write_all(bytes)
}

/// The real file, and every write since the file's last sync pending in a
/// power-cut model: [`PowerCutDisk::cut`] keeps, drops or tears each.
#[derive(Debug)]
pub struct PowerCutDisk {
    disk: Mutex<Disk>,
}

impl PowerCutDisk {
    /// A disk of `sector`-byte sectors whose cuts follow from `seed`.
    pub fn new(sector: usize, seed: u64) -> PowerCutDisk {
        PowerCutDisk {
            disk: Mutex::new(Disk::new(sector, seed)),
        }
    }

    fn disk(&self) -> std::sync::MutexGuard<'_, Disk> {
        self.disk.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The power of the disk holding `path` goes off: its unsynced writes
    /// are kept, dropped or torn (other files' stay pending).
    pub fn cut(&self, path: &Path) -> std::io::Result<CutReport> {
        self.disk().cut_where(|p| p == path)
    }

    /// Writes not yet synced, over all files.
    pub fn pending_writes(&self) -> usize {
        self.disk().pending_writes()
    }
}

impl Storage for PowerCutDisk {
    fn write_at(&self, file: &File, path: &Path, off: u64, bytes: &[u8]) -> std::io::Result<()> {
        self.disk().write(file, path, off, bytes)
    }

    fn sync(&self, file: &File, path: &Path) -> std::io::Result<()> {
        file.sync_data()?;
        self.disk().synced(path);
        Ok(())
    }

    fn set_len(&self, file: &File, path: &Path, len: u64) -> std::io::Result<()> {
        file.set_len(len)?;
        self.disk().truncated(path, len);
        Ok(())
    }
}
