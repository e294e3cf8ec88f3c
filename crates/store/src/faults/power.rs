//! The power-cut mode of the fault VFS (issue 37, 断电): the files under
//! the plan's directory are written through the disk model of
//! [`proto::powercut`] — every write since the last successful `xSync` of
//! that *path* is pending (the sync thread syncs the WAL through its own
//! handle, so the model is per path, not per handle) — and at a cut each
//! pending write is kept, dropped or torn from the seed, the `-shm` files
//! are removed (shared memory does not survive a power loss), and every
//! later write, sync or truncate of those files fails as on a machine
//! without power.
//!
//! A cut comes from a seeded trigger ([`PowerCut::cut_at_write`]: the
//! n-th write from now; [`PowerCut::cut_at_sync`]: the n-th sync, which
//! then never happens) or a direct call ([`PowerCut::cut_now`]). A hook
//! ([`PowerCut::on_cut`]) lets a server started for a power-cut bench end
//! its process right there, as a power loss would.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Mutex, RwLock};

use proto::powercut::{CutReport, Disk};

use crate::StoreError;

/// What a cut calls before returning (e.g. end the process).
pub type CutHook = Box<dyn Fn(&CutReport) + Send + Sync>;

/// The power of the files under one directory (see the module docs).
pub struct PowerCut {
    dir: PathBuf,
    /// `true` once the power is off. I/O holds it shared while it runs, so
    /// a cut (exclusive) waits for writes in flight and none starts after.
    off: RwLock<bool>,
    disk: Mutex<Disk>,
    /// Writes / syncs until the triggered cut (≤ 0: none armed).
    writes_left: AtomicI64,
    syncs_left: AtomicI64,
    report: Mutex<Option<CutReport>>,
    hook: Mutex<Option<CutHook>>,
}

impl std::fmt::Debug for PowerCut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PowerCut")
            .field("dir", &self.dir)
            .field("off", &self.is_off())
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl PowerCut {
    pub(super) fn new(dir: PathBuf, sector: usize, seed: u64) -> PowerCut {
        PowerCut {
            dir,
            off: RwLock::new(false),
            disk: Mutex::new(Disk::new(sector, seed)),
            writes_left: AtomicI64::new(0),
            syncs_left: AtomicI64::new(0),
            report: Mutex::new(None),
            hook: Mutex::new(None),
        }
    }

    /// The power goes off at the `n`-th write from now (n ≥ 1), before it
    /// is made.
    pub fn cut_at_write(&self, n: u64) {
        self.writes_left.store(
            i64::try_from(n.max(1)).unwrap_or(i64::MAX),
            Ordering::SeqCst,
        );
    }

    /// The power goes off at the `n`-th sync from now (n ≥ 1), before it
    /// is made.
    pub fn cut_at_sync(&self, n: u64) {
        self.syncs_left.store(
            i64::try_from(n.max(1)).unwrap_or(i64::MAX),
            Ordering::SeqCst,
        );
    }

    /// Sets what a cut calls once the files hold what survived.
    pub fn on_cut(&self, hook: CutHook) {
        *lock(&self.hook) = Some(hook);
    }

    /// Whether the power is off.
    pub fn is_off(&self) -> bool {
        *self.off.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes not yet synced.
    pub fn pending_writes(&self) -> usize {
        lock(&self.disk).pending_writes()
    }

    /// What the cut did (`None`: no cut yet).
    pub fn report(&self) -> Option<CutReport> {
        *lock(&self.report)
    }

    /// The power goes off now (a second call does nothing and returns the
    /// first cut's report).
    pub fn cut_now(&self) -> Result<CutReport, StoreError> {
        let mut off = self.off.write().unwrap_or_else(|p| p.into_inner());
        if *off {
            return Ok(self.report().unwrap_or_default());
        }
        *off = true;
        let report = lock(&self.disk)
            .cut()
            .map_err(|e| StoreError::Io(format!("power cut under {}: {e}", self.dir.display())))?;
        remove_shm(&self.dir)?;
        *lock(&self.report) = Some(report);
        tracing::warn!(
            dir = %self.dir.display(),
            kept = report.kept,
            dropped = report.dropped,
            torn = report.torn,
            "power cut (test): unsynced writes kept, dropped or torn"
        );
        if let Some(hook) = lock(&self.hook).as_ref() {
            hook(&report);
        }
        Ok(report)
    }

    /// Counts one write or sync against an armed trigger; true when the
    /// power went off at it (it must then fail).
    fn tick(&self, left: &AtomicI64) -> bool {
        let fired = left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n > 0).then(|| n - 1)
            })
            .is_ok_and(|before| before == 1);
        if fired {
            if let Err(e) = self.cut_now() {
                tracing::error!(error = %e, "power cut failed");
            }
        }
        fired
    }

    /// A write of `data` at `off` of `path`, made by `write` (the wrapped
    /// file's xWrite) when the power is on; false: it failed or the power
    /// is off.
    pub(super) fn write(
        &self,
        path: &Path,
        off: u64,
        data: &[u8],
        write: impl FnOnce() -> bool,
    ) -> bool {
        if self.tick(&self.writes_left) {
            return false;
        }
        let on = self.off.read().unwrap_or_else(|p| p.into_inner());
        if *on {
            return false;
        }
        if let Err(e) = lock(&self.disk).before_write(path, off, data.len()) {
            tracing::error!(path = %path.display(), error = %e, "power-cut model: cannot read the old sectors");
            return false;
        }
        if !write() {
            return false;
        }
        lock(&self.disk).wrote(path, off, data);
        drop(on);
        true
    }

    /// A sync of `path` by `sync` when the power is on.
    pub(super) fn sync(&self, path: &Path, sync: impl FnOnce() -> bool) -> bool {
        if self.tick(&self.syncs_left) {
            return false;
        }
        let on = self.off.read().unwrap_or_else(|p| p.into_inner());
        if *on || !sync() {
            return false;
        }
        lock(&self.disk).synced(path);
        drop(on);
        true
    }

    /// A truncation of `path` to `len` by `truncate` when the power is on.
    pub(super) fn truncate(&self, path: &Path, len: u64, truncate: impl FnOnce() -> bool) -> bool {
        let on = self.off.read().unwrap_or_else(|p| p.into_inner());
        if *on || !truncate() {
            return false;
        }
        lock(&self.disk).truncated(path, len);
        drop(on);
        true
    }
}

/// Removes the `-shm` files under `dir` (SQLite rebuilds the WAL index
/// from the WAL when it reopens).
fn remove_shm(dir: &Path) -> Result<(), StoreError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| StoreError::Io(format!("power cut: {}: {e}", dir.display())))?;
    for entry in entries.flatten() {
        let p = entry.path();
        if p.to_string_lossy().ends_with("-shm") {
            std::fs::remove_file(&p)
                .map_err(|e| StoreError::Io(format!("power cut: {}: {e}", p.display())))?;
        }
    }
    Ok(())
}
