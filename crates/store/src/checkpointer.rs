//! The store's checkpointer (检查点线程, issue 40): folds the write-ahead
//! log (`hall.db-wal`) into `hall.db` off the writer's commit path.
//!
//! With SQLite's own auto-checkpoint the commit that pushes the WAL past
//! the threshold runs a whole checkpoint inline (copying every page into
//! `hall.db` and syncing it) while every acknowledgement behind it waits.
//! Here the writer connection's auto-checkpoint is replaced by a WAL hook
//! ([`install`]) that only notes the WAL's size after each commit and, once
//! it passes [`Shared::threshold`] pages, wakes the checkpointer thread,
//! which runs `PRAGMA wal_checkpoint(PASSIVE)` on its own connection while
//! the writer goes on committing. A PASSIVE checkpoint never waits for the
//! writer or readers: it copies what no reader still needs, and the writer
//! restarts the WAL from its beginning at its first commit after a
//! checkpoint that copied everything.
//!
//! Durability is SQLite's: a checkpoint syncs the WAL before it copies a
//! page and syncs `hall.db` after (its connection runs `synchronous=FULL`),
//! and it is crash-safe by itself (a cut checkpoint is redone from the WAL
//! at the next open). What is acknowledged is still exactly what the sync
//! thread fsynced (`writer.rs`); the checkpointer only moves pages.
//!
//! When the checkpointer is not running — stopped before the final
//! `TRUNCATE` checkpoint at shutdown ([`crate::SqliteStore::checkpoint_wal`]),
//! or failed (its error logged and kept for
//! [`crate::SqliteStore::checkpointer_failure`]) — the WAL hook checkpoints
//! inline at the same threshold, as SQLite's auto-checkpoint did: the WAL
//! never grows unbounded because the thread is gone, it only costs the
//! commit path again.

use std::ffi::{c_char, c_int, c_void};
use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use rusqlite::{ffi, Connection, OpenFlags};

use super::StoreError;

/// WAL pages (4 KiB each) after which a checkpoint is due: 65,536 pages
/// (256 MiB; issue 40). At 10,000 tables × 1 press/s the WAL grows by
/// ~90 MB a second (an index page per event), and with 16,384 pages (64
/// MiB, the writer's auto-checkpoint before the checkpointer) a
/// checkpoint came every 1.2 s, each holding one commit for ~19 ms
/// (its settling FULL checkpoint): the acks' p99 of a quiet second was
/// ~20 ms. A checkpoint copies each page once however often it was
/// rewritten, so four times the WAL costs about the same per checkpoint,
/// a quarter as often: p99 of a quiet second 2-8 ms (docs/benchmarks.md).
/// The cost: the WAL file up to ~260 MiB on disk, read once by a start
/// after a crash.
pub(crate) const DEFAULT_PAGES: u64 = 65536;

/// WAL pages a PASSIVE checkpoint may leave uncopied (written while it
/// ran) for the checkpointer to settle them with a FULL one (512 pages,
/// 2 MiB: a few milliseconds of the writer's wait).
pub(crate) const SETTLE_PAGES: i64 = 512;

/// What the writer's WAL hook and the checkpointer thread share.
#[derive(Debug)]
pub(crate) struct Shared {
    /// WAL pages after which a checkpoint is due.
    pub threshold: u64,
    /// FULL checkpoints run to settle the WAL.
    pub settles: AtomicU64,
    /// Whether the checkpointer thread runs (else the hook checkpoints
    /// inline).
    running: AtomicBool,
    wake: Mutex<Wake>,
    cv: Condvar,
    /// WAL frames after the writer's last commit.
    pub frames: AtomicU64,
    /// Most WAL frames after any commit.
    pub most_frames: AtomicU64,
    /// Checkpoints run by the checkpointer thread.
    pub checkpoints: AtomicU64,
    /// Checkpoints run inline by the writer (checkpointer not running).
    pub inline: AtomicU64,
    /// Why the checkpointer stopped with an error, if it did.
    pub failure: Mutex<Option<String>>,
}

#[derive(Debug, Default)]
struct Wake {
    due: bool,
    stop: bool,
}

impl Shared {
    pub(crate) fn new(threshold: u64) -> Arc<Shared> {
        Arc::new(Shared {
            threshold: threshold.max(1),
            settles: AtomicU64::new(0),
            running: AtomicBool::new(false),
            wake: Mutex::new(Wake::default()),
            cv: Condvar::new(),
            frames: AtomicU64::new(0),
            most_frames: AtomicU64::new(0),
            checkpoints: AtomicU64::new(0),
            inline: AtomicU64::new(0),
            failure: Mutex::new(None),
        })
    }

    fn wake_lock(&self) -> std::sync::MutexGuard<'_, Wake> {
        self.wake.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A checkpoint is due (called by the writer's hook).
    fn request(&self) {
        let mut w = self.wake_lock();
        if !w.due {
            w.due = true;
            self.cv.notify_one();
        }
    }

    /// Waits until a checkpoint is due (`true`) or the thread is to stop
    /// (`false`).
    fn wait(&self) -> bool {
        let mut w = self.wake_lock();
        loop {
            if w.stop {
                return false;
            }
            if w.due {
                w.due = false;
                return true;
            }
            w = self.cv.wait(w).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// The WAL hook installed on the writer connection; frees its reference to
/// [`Shared`] when dropped, which must be after the connection closed
/// (`Writer` declares it after `conn`).
#[derive(Debug)]
pub(crate) struct WalHook(*const Shared);

// SAFETY: the pointer is an `Arc<Shared>` reference (Shared is Sync); the
// hook runs on the writer thread, which owns the connection and this.
unsafe impl Send for WalHook {}

impl Drop for WalHook {
    fn drop(&mut self) {
        // SAFETY: made by Arc::into_raw in `install`, released once.
        unsafe { drop(Arc::from_raw(self.0)) }
    }
}

/// Replaces `conn`'s auto-checkpoint by the checkpointer's WAL hook.
/// The returned hook must outlive `conn`.
pub(crate) fn install(conn: &Connection, shared: &Arc<Shared>) -> WalHook {
    let raw = Arc::into_raw(shared.clone());
    // SAFETY: the handle is the open connection; `raw` stays valid until
    // the returned WalHook drops, after the connection.
    unsafe {
        ffi::sqlite3_wal_hook(conn.handle(), Some(on_commit), raw as *mut c_void);
    }
    WalHook(raw)
}

/// SQLite's WAL hook: runs on the writer thread after each commit with the
/// WAL's size in frames.
unsafe extern "C" fn on_commit(
    arg: *mut c_void,
    db: *mut ffi::sqlite3,
    _schema: *const c_char,
    frames: c_int,
) -> c_int {
    // SAFETY: `arg` is the Arc<Shared> pointer of `install`, alive while
    // the connection is open.
    let shared = unsafe { &*(arg as *const Shared) };
    let frames = u64::try_from(frames).unwrap_or(0);
    shared.frames.store(frames, Ordering::Relaxed);
    shared.most_frames.fetch_max(frames, Ordering::Relaxed);
    if frames < shared.threshold {
        return ffi::SQLITE_OK;
    }
    if shared.running.load(Ordering::Acquire) {
        shared.request();
        return ffi::SQLITE_OK;
    }
    // No checkpointer: what SQLite's auto-checkpoint did (marked for the
    // bench's timeline, `markers`, with the WAL's pages).
    let span = super::markers::Span::start("wal_checkpoint_inline");
    // SAFETY: `db` is the connection that just committed (SQLite's own
    // default hook makes this very call here).
    let rc = unsafe {
        ffi::sqlite3_wal_checkpoint_v2(
            db,
            ptr::null(),
            ffi::SQLITE_CHECKPOINT_PASSIVE,
            ptr::null_mut(),
            ptr::null_mut(),
        )
    };
    span.end(frames);
    shared.inline.fetch_add(1, Ordering::Relaxed);
    if rc != ffi::SQLITE_OK && rc != ffi::SQLITE_BUSY {
        tracing::warn!(code = rc, "inline WAL checkpoint failed");
    }
    ffi::SQLITE_OK
}

/// The running checkpointer thread; [`Checkpointer::stop`] (or drop) stops
/// and joins it.
#[derive(Debug)]
pub(crate) struct Checkpointer {
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
}

/// Marks the checkpointer not running when its thread ends, however.
struct Stopped(Arc<Shared>);

impl Drop for Stopped {
    fn drop(&mut self) {
        self.0.running.store(false, Ordering::Release);
        if std::thread::panicking() {
            record_failure(&self.0, "the checkpointer thread panicked".into());
        }
    }
}

fn record_failure(shared: &Shared, why: String) {
    let mut f = shared.failure.lock().unwrap_or_else(|p| p.into_inner());
    f.get_or_insert(why);
}

impl Checkpointer {
    /// Opens the checkpointer's connection to `path` (through `vfs`, the
    /// writer's) and starts its thread.
    pub(crate) fn start(
        path: &Path,
        vfs: Option<&str>,
        shared: Arc<Shared>,
    ) -> Result<Checkpointer, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = match vfs {
            Some(vfs) => Connection::open_with_flags_and_vfs(path, flags, vfs)?,
            None => Connection::open_with_flags(path, flags)?,
        };
        // The WAL is synced before pages are copied, hall.db after.
        conn.pragma_update(None, "synchronous", "FULL")?;
        // How long a FULL checkpoint may wait for the writer's lock or a
        // reader (PASSIVE ones never wait); it holds the writer's lock
        // while it waits for readers, so briefly.
        crate::busy::settle_wait(&conn)?;
        // For the flush before a settle (`run`); without it the settle
        // flushes all on its own, as before.
        let db_file = match std::fs::File::open(path) {
            Ok(f) => Some(f),
            Err(e) => {
                tracing::warn!(error = %e, "the checkpointer cannot open the database file to flush it");
                None
            }
        };
        shared.running.store(true, Ordering::Release);
        let handle = {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("store-checkpoint".into())
                .spawn(move || run(conn, db_file, shared))
        };
        match handle {
            Ok(h) => Ok(Checkpointer {
                shared,
                handle: Some(h),
            }),
            Err(e) => {
                shared.running.store(false, Ordering::Release);
                Err(StoreError::Io(format!(
                    "cannot start the store checkpointer: {e}"
                )))
            }
        }
    }

    /// Stops the thread (a checkpoint under way finishes first); from now
    /// on the writer checkpoints inline.
    pub(crate) fn stop(&mut self) {
        self.shared.wake_lock().stop = true;
        self.shared.cv.notify_all();
        if let Some(h) = self.handle.take() {
            if h.join().is_err() {
                tracing::error!("store checkpointer thread panicked");
            }
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Bytes of the database file written back in one step of
/// [`flush_in_steps`] (4 MiB: a few ms of a disk's writes).
const FLUSH_STEP: u64 = 4 << 20;

/// The `(offset, length)` steps that cover a file of `len` bytes,
/// `step` bytes each (the last one shorter).
fn flush_steps(len: u64, step: u64) -> impl Iterator<Item = (u64, u64)> {
    let step = step.max(1);
    (0..len.div_ceil(step)).map(move |i| {
        let at = i * step;
        (at, step.min(len - at))
    })
}

/// Writes the file's dirty pages back [`FLUSH_STEP`] bytes at a time,
/// waiting for each step before the next (`sync_file_range(2)`, which
/// sends no cache flush to the device), so the WAL's own syncs meanwhile
/// queue behind one step, not behind the whole file; then `fdatasync`,
/// which finds little left. Elsewhere than Linux, `fdatasync` alone.
fn flush_in_steps(f: &std::fs::File) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let len = f.metadata()?.len();
        let flags = libc::SYNC_FILE_RANGE_WAIT_BEFORE
            | libc::SYNC_FILE_RANGE_WRITE
            | libc::SYNC_FILE_RANGE_WAIT_AFTER;
        for (at, n) in flush_steps(len, FLUSH_STEP) {
            let (Ok(at), Ok(n)) = (libc::off64_t::try_from(at), libc::off64_t::try_from(n)) else {
                break;
            };
            // SAFETY: a plain system call on a descriptor this function
            // borrows for its duration; no memory is passed.
            let r = unsafe { libc::sync_file_range(f.as_raw_fd(), at, n, flags) };
            if r != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    f.sync_data()
}

/// Runs `PRAGMA wal_checkpoint(mode)`: (busy, WAL pages, pages copied).
fn checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<(i64, i64, i64)> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })
}

/// The checkpointer thread: a PASSIVE checkpoint each time one is due,
/// until stopped or a checkpoint fails.
///
/// The writer restarts the WAL from its beginning only at a commit that
/// begins after a checkpoint copied *every* page, and a PASSIVE checkpoint
/// never catches up with pages committed while it ran: under steady writes
/// the WAL file would grow past the threshold. So once a PASSIVE
/// checkpoint leaves at most [`SETTLE_PAGES`] behind, a FULL one copies the
/// rest while it holds the writer's lock (the writer waits for those few
/// pages, not for the whole WAL), and the next commit restarts the WAL.
///
/// A PASSIVE checkpoint that ends behind the WAL (the writer went on
/// meanwhile) leaves the pages it copied unsynced in the database file,
/// and the settle's sync then flushed them all while it held the writer's
/// lock: at 10,000 tables the settle grew from 5 to 21 ms over a minute as
/// the file grew (issue 40). So before a settle the checkpointer flushes
/// the database file itself (`db_file`, no lock held; `db_flush` in the
/// timeline), and the settle's own sync finds only its few pages. SQLite
/// still syncs as it always does: this flush only comes first.
///
/// That flush goes in steps ([`flush_in_steps`]): synced at once, the
/// ~100 MiB a 256 MiB WAL copies into the file filled the disk's queue
/// for ~100 ms, and the WAL syncs of the commits meanwhile (each an
/// fdatasync and its cache flush behind that queue) took 67-103 ms, a
/// stall of every acknowledgement at 10,000 tables (docs/benchmarks.md).
///
/// Each checkpoint is marked for the bench's timeline (`markers`:
/// `wal_checkpoint` with the pages copied, `wal_settle` with the WAL's
/// pages, during which the writer waits).
fn run(conn: Connection, db_file: Option<std::fs::File>, shared: Arc<Shared>) {
    let _stopped = Stopped(shared.clone());
    while shared.wait() {
        let began = Instant::now();
        let span = super::markers::Span::start("wal_checkpoint");
        let result = checkpoint(&conn, "PASSIVE").and_then(|(busy, log, copied)| {
            span.end(u64::try_from(copied).unwrap_or(0));
            shared.checkpoints.fetch_add(1, Ordering::Relaxed);
            tracing::debug!(
                busy,
                log,
                copied,
                ms = began.elapsed().as_millis() as u64,
                "WAL checkpoint"
            );
            if busy == 0 && log - copied <= SETTLE_PAGES {
                if let Some(f) = &db_file {
                    let span = super::markers::Span::start("db_flush");
                    if let Err(e) = flush_in_steps(f) {
                        // The settle's own sync reports what matters.
                        tracing::warn!(error = %e, "flushing the database file before a settle");
                    }
                    span.end(u64::try_from(copied).unwrap_or(0));
                }
                let began = Instant::now();
                let span = super::markers::Span::start("wal_settle");
                let (busy, log, copied) = checkpoint(&conn, "FULL")?;
                span.end(u64::try_from(log).unwrap_or(0));
                shared.settles.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(
                    busy,
                    log,
                    copied,
                    ms = began.elapsed().as_millis() as u64,
                    "WAL settled"
                );
            }
            Ok(())
        });
        if let Err(e) = result {
            tracing::error!(
                error = %e,
                "store checkpoint failed; the writer checkpoints the WAL inline from now on"
            );
            record_failure(&shared, format!("WAL checkpoint failed: {e}"));
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flush_steps_cover_the_file_once_in_order() {
        let steps: Vec<_> = flush_steps(10, 4).collect();
        assert_eq!(steps, vec![(0, 4), (4, 4), (8, 2)]);
        assert_eq!(flush_steps(8, 4).count(), 2, "no empty last step");
        assert_eq!(flush_steps(0, 4).count(), 0);
        let len = 9 * FLUSH_STEP + 5;
        let mut next = 0;
        for (at, n) in flush_steps(len, FLUSH_STEP) {
            assert_eq!(at, next);
            assert!(n > 0 && n <= FLUSH_STEP);
            next = at + n;
        }
        assert_eq!(next, len);
    }

    #[test]
    fn a_database_file_opened_to_read_is_flushed_in_steps() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hall.db");
        let mut w = std::fs::File::create(&path).unwrap();
        let block = vec![7u8; 1 << 20];
        for _ in 0..9 {
            w.write_all(&block).unwrap();
        }
        // Dirty pages over three steps, flushed through a read-only
        // descriptor, as the checkpointer's `db_file` is.
        let r = std::fs::File::open(&path).unwrap();
        flush_in_steps(&r).unwrap();
        drop(w);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 9 << 20);
    }
}
