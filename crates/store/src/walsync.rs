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
