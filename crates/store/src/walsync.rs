//! The store's own handle on the write-ahead log (`hall.db-wal`), used by
//! the sync thread (`writer.rs`) to fsync committed transactions while the
//! writer thread already writes the next one (pipelined group commit).
//!
//! The file is opened through the same SQLite VFS as the writing
//! connection (`sqlite3_vfs::xOpen` with `SQLITE_OPEN_WAL`, no create), so
//! the sync is the very `xSync` SQLite itself would have issued at commit
//! under `synchronous=FULL`, and the fault-injecting VFS (`faults.rs`) sees
//! and can fail it. It is a separate file object with its own descriptor,
//! touched only by the sync thread, so nothing is shared with the
//! connection's own WAL handle; `fsync` works on the file, not on one
//! descriptor, so it makes durable every frame SQLite wrote to the WAL.

use std::ffi::{c_int, CString};
use std::path::Path;
use std::ptr;

use rusqlite::ffi;

use super::StoreError;

/// An open WAL file (see the module docs). Closed on drop.
pub(crate) struct WalFile {
    /// Storage for the VFS's `sqlite3_file` (`szOsFile` bytes, 8-aligned).
    buf: Box<[u64]>,
    /// The path, kept alive while the file is open (SQLite may keep the
    /// pointer).
    _path: CString,
    /// Whether `xClose` is owed.
    open: bool,
}

// SAFETY: the file object is only used from one thread at a time (the sync
// thread owns it); the unix VFS keeps no thread-affine state in it.
unsafe impl Send for WalFile {}

impl WalFile {
    /// Opens `wal_path` (which must exist) read-write through the VFS named
    /// `vfs` (`None`: the default VFS).
    pub(crate) fn open(vfs: Option<&str>, wal_path: &Path) -> Result<WalFile, StoreError> {
        let err = |m: String| StoreError::Io(format!("WAL {}: {m}", wal_path.display()));
        let vfs_name = vfs
            .map(|v| CString::new(v).map_err(|_| err("bad VFS name".into())))
            .transpose()?;
        #[cfg(unix)]
        let bytes = {
            use std::os::unix::ffi::OsStrExt;
            wal_path.as_os_str().as_bytes().to_vec()
        };
        #[cfg(not(unix))]
        let bytes = wal_path
            .to_str()
            .ok_or_else(|| err("path is not UTF-8".into()))?
            .as_bytes()
            .to_vec();
        let path = CString::new(bytes).map_err(|_| err("path contains NUL".into()))?;
        // SAFETY: sqlite3_vfs_find takes a NUL-terminated name or null and
        // returns a registered VFS (valid for the process) or null.
        let vfs =
            unsafe { ffi::sqlite3_vfs_find(vfs_name.as_ref().map_or(ptr::null(), |n| n.as_ptr())) };
        if vfs.is_null() {
            return Err(err("the VFS is not registered".into()));
        }
        // SAFETY: `vfs` is a valid registered VFS.
        let (size, open) = unsafe { ((*vfs).szOsFile, (*vfs).xOpen) };
        let size = usize::try_from(size).map_err(|_| err("bad szOsFile".into()))?;
        let open = open.ok_or_else(|| err("the VFS has no xOpen".into()))?;
        let mut wal = WalFile {
            buf: vec![0u64; size.div_ceil(8).max(1)].into_boxed_slice(),
            _path: path,
            open: false,
        };
        let mut out_flags: c_int = 0;
        // SAFETY: `file()` points to szOsFile zeroed, 8-aligned bytes that
        // live as long as `wal`; the name outlives the open file.
        let rc = unsafe {
            open(
                vfs,
                wal._path.as_ptr(),
                wal.file(),
                ffi::SQLITE_OPEN_READWRITE | ffi::SQLITE_OPEN_WAL,
                &mut out_flags,
            )
        };
        // SQLite's rule: a non-null pMethods means xClose is owed, even
        // when xOpen failed.
        // SAFETY: reading the field xOpen initialised (or left zeroed).
        wal.open = unsafe { !(*wal.file()).pMethods.is_null() };
        if rc != ffi::SQLITE_OK {
            return Err(err(format!("cannot open (SQLite code {rc})")));
        }
        if !wal.open {
            return Err(err("the VFS opened no file".into()));
        }
        Ok(wal)
    }

    fn file(&mut self) -> *mut ffi::sqlite3_file {
        self.buf.as_mut_ptr().cast()
    }

    /// fsync: every frame written to the WAL so far is durable when this
    /// returns `Ok`.
    pub(crate) fn sync(&mut self) -> Result<(), String> {
        let f = self.file();
        // SAFETY: the file is open (checked in `open`); its methods table
        // is a static of the VFS.
        let rc = unsafe {
            match (*(*f).pMethods).xSync {
                Some(sync) => sync(f, ffi::SQLITE_SYNC_NORMAL),
                None => ffi::SQLITE_IOERR_FSYNC,
            }
        };
        if rc == ffi::SQLITE_OK {
            Ok(())
        } else {
            Err(format!("fsync of the WAL failed (SQLite code {rc})"))
        }
    }
}

impl Drop for WalFile {
    fn drop(&mut self) {
        if !self.open {
            return;
        }
        self.open = false;
        let f = self.file();
        // SAFETY: closing the file opened in `open`, exactly once.
        unsafe {
            if let Some(close) = (*(*f).pMethods).xClose {
                close(f);
            }
        }
    }
}

#[cfg(all(
    test,
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod tests {
    //! The syncs behind an acknowledgement are fdatasync(2), not fsync(2)
    //! (`.cargo/config.toml` builds the bundled SQLite with
    //! `HAVE_FDATASYNC`): fsync also writes the WAL's inode for its mtime
    //! alone, one more disk write per commit.

    use super::WalFile;

    #[cfg(target_arch = "x86_64")]
    const AUDIT_ARCH: u32 = 0xc000_003e;
    #[cfg(target_arch = "aarch64")]
    const AUDIT_ARCH: u32 = 0xc000_00b7;

    /// From here on fsync(2) fails with EIO on the calling thread and the
    /// threads it starts (a seccomp filter; no other test's thread is
    /// touched).
    fn forbid_fsync() {
        let stmt = |code: u32, k: u32, jt: u8, jf: u8| libc::sock_filter {
            code: code as u16,
            jt,
            jf,
            k,
        };
        let fsync = u32::try_from(libc::SYS_fsync).expect("a syscall number");
        let mut filter = [
            // The architecture (offset 4 of seccomp_data): another's numbers
            // mean other calls, let them be.
            stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 4, 0, 0),
            stmt(
                libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
                AUDIT_ARCH,
                0,
                3,
            ),
            // The call's number (offset 0).
            stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, 0),
            stmt(libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K, fsync, 0, 1),
            stmt(
                libc::BPF_RET | libc::BPF_K,
                libc::SECCOMP_RET_ERRNO | libc::EIO as u32,
                0,
                0,
            ),
            stmt(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ALLOW, 0, 0),
        ];
        let prog = libc::sock_fprog {
            len: filter.len() as u16,
            filter: filter.as_mut_ptr(),
        };
        // SAFETY: plain prctl calls; `prog` points to a valid filter that
        // outlives the call (the kernel copies it).
        unsafe {
            assert_eq!(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
            assert_eq!(
                libc::prctl(
                    libc::PR_SET_SECCOMP,
                    libc::SECCOMP_MODE_FILTER,
                    &prog as *const libc::sock_fprog
                ),
                0,
                "seccomp filter: {}",
                std::io::Error::last_os_error()
            );
        }
    }

    #[test]
    fn the_bundled_sqlite_syncs_with_fdatasync() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let db = dir.path().join("hall.db");
        let wal = dir.path().join("hall.db-wal");
        let probe = dir.path().join("probe");
        std::thread::spawn(move || {
            forbid_fsync();
            // The filter bites: a file's fsync fails on this thread.
            let f = std::fs::File::create(&probe).expect("a probe file");
            let e = f.sync_all().expect_err("fsync was forbidden");
            assert_eq!(e.raw_os_error(), Some(libc::EIO));
            f.sync_data().expect("fdatasync is allowed");
            // SQLite's own commits in WAL mode with every commit synced,
            // and the sync thread's sync of the WAL, both succeed.
            let conn = rusqlite::Connection::open(&db).expect("open");
            conn.execute_batch(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;
                 CREATE TABLE t(x); INSERT INTO t VALUES (1);",
            )
            .expect("SQLite's commits sync with fdatasync");
            let mut file = WalFile::open(None, &wal).expect("the WAL opens");
            conn.execute("INSERT INTO t VALUES (2)", [])
                .expect("a second commit");
            file.sync().expect("the WAL's sync is an fdatasync");
        })
        .join()
        .expect("the filtered thread ran to its end");
    }
}
