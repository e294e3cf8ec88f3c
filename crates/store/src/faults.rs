//! Storage fault injection (issue 8): a SQLite VFS named
//! [`VFS_NAME`] that wraps the platform's default VFS file by file and can be
//! told to fail `xSync` (fsync) or `xWrite` for the files under one
//! directory. It injects faults into the real database I/O path — the store
//! and SQLite are unchanged, only the OS calls beneath them fail — so a test
//! can show that a failed fsync stops the store instead of acknowledging.
//!
//! Use: `let plan = faults::arm(dir)?;` then open the store in `dir` with
//! `OpenOptions { vfs: Some(faults::VFS_NAME.into()), .. }`; later
//! `plan.fail_syncs_after(n)` / `plan.fail_writes_after(n)` make the
//! (n+1)-th and every later sync / write of files under `dir` fail with
//! `SQLITE_IOERR_FSYNC` / `SQLITE_IOERR_WRITE` until `plan.heal()`.
//! Files opened before `arm` or outside `dir` pass through untouched. It is
//! inert unless armed and used, so it is compiled in normal builds (a server
//! started for a fault test can use it too).
//!
//! Power cuts (issue 37): `faults::arm_power_cut(dir, sector, seed)` arms a
//! plan whose files also forget what was not synced when the power goes
//! off ([`power`]).

mod power;

pub use power::{CutHook, PowerCut};

use std::ffi::{c_int, c_void, CStr};
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use rusqlite::ffi;

use super::StoreError;

/// Name of the fault-injecting VFS.
pub const VFS_NAME: &str = "caipan-faults";
const VFS_NAME_C: &CStr = c"caipan-faults";

const UNLIMITED: i64 = i64::MAX;

/// Fault settings and counters for the files under one directory.
#[derive(Debug)]
pub struct FaultPlan {
    dir: PathBuf,
    sync_budget: AtomicI64,
    write_budget: AtomicI64,
    syncs: AtomicU64,
    writes: AtomicU64,
    injected: AtomicU64,
    /// The power-cut model of these files, if armed for it.
    power: Option<PowerCut>,
}

impl FaultPlan {
    /// The power of these files (`None`: not armed for power cuts).
    pub fn power(&self) -> Option<&PowerCut> {
        self.power.as_ref()
    }

    /// The next `n` syncs succeed; every later one fails.
    pub fn fail_syncs_after(&self, n: u64) {
        self.sync_budget
            .store(i64::try_from(n).unwrap_or(UNLIMITED - 1), Ordering::SeqCst);
    }

    /// The next `n` writes succeed; every later one fails.
    pub fn fail_writes_after(&self, n: u64) {
        self.write_budget
            .store(i64::try_from(n).unwrap_or(UNLIMITED - 1), Ordering::SeqCst);
    }

    /// No more faults.
    pub fn heal(&self) {
        self.sync_budget.store(UNLIMITED, Ordering::SeqCst);
        self.write_budget.store(UNLIMITED, Ordering::SeqCst);
    }

    /// Syncs seen (failed ones included).
    pub fn syncs(&self) -> u64 {
        self.syncs.load(Ordering::SeqCst)
    }

    /// Writes seen (failed ones included).
    pub fn writes(&self) -> u64 {
        self.writes.load(Ordering::SeqCst)
    }

    /// Faults injected so far.
    pub fn injected(&self) -> u64 {
        self.injected.load(Ordering::SeqCst)
    }

    /// The directory this plan covers.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Counts one call; true when it must fail.
    fn take(&self, budget: &AtomicI64, counter: &AtomicU64) -> bool {
        counter.fetch_add(1, Ordering::SeqCst);
        if budget.load(Ordering::SeqCst) == UNLIMITED {
            return false;
        }
        let ok = budget
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |b| {
                (b > 0 && b != UNLIMITED).then(|| b - 1)
            })
            .is_ok();
        if !ok && budget.load(Ordering::SeqCst) != UNLIMITED {
            self.injected.fetch_add(1, Ordering::SeqCst);
            return true;
        }
        false
    }
}

/// Plans by directory (weak: dropping the last `Arc` disarms).
static PLANS: Mutex<Vec<Weak<FaultPlan>>> = Mutex::new(Vec::new());
/// The wrapped default VFS (a `*mut sqlite3_vfs` stored as an address).
static BASE_VFS: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// Registers the VFS with SQLite (once per process; not the default).
pub fn install() -> Result<(), StoreError> {
    INSTALLED
        .get_or_init(|| {
            // SAFETY: sqlite3_vfs_find returns the default VFS (valid for the
            // life of the process); we copy it, change the name, the file
            // size and xOpen, keep pAppData, and leak the copy so the pointer
            // handed to sqlite3_vfs_register stays valid forever.
            unsafe {
                let base = ffi::sqlite3_vfs_find(ptr::null());
                if base.is_null() {
                    return Err("SQLite has no default VFS".to_string());
                }
                let mut vfs: ffi::sqlite3_vfs = *base;
                vfs.zName = VFS_NAME_C.as_ptr();
                vfs.pNext = ptr::null_mut();
                vfs.szOsFile = (*base).szOsFile + std::mem::size_of::<FaultFile>() as c_int;
                vfs.xOpen = Some(fault_open);
                BASE_VFS.store(base as usize, Ordering::SeqCst);
                let leaked: &'static mut ffi::sqlite3_vfs = Box::leak(Box::new(vfs));
                let rc = ffi::sqlite3_vfs_register(leaked, 0);
                if rc != ffi::SQLITE_OK {
                    return Err(format!("sqlite3_vfs_register failed: {rc}"));
                }
            }
            Ok(())
        })
        .clone()
        .map_err(StoreError::Io)
}

/// Installs the VFS and arms a plan for the files under `dir` (created if
/// missing). Keep the returned plan alive while faults are wanted.
pub fn arm(dir: &Path) -> Result<Arc<FaultPlan>, StoreError> {
    arm_with(dir, None)
}

/// [`arm`], and the files under `dir` lose what was not synced at a power
/// cut ([`FaultPlan::power`]): sectors of `sector` bytes, the cut's choices
/// from `seed`.
pub fn arm_power_cut(dir: &Path, sector: usize, seed: u64) -> Result<Arc<FaultPlan>, StoreError> {
    arm_with(dir, Some((sector, seed)))
}

fn arm_with(dir: &Path, power: Option<(usize, u64)>) -> Result<Arc<FaultPlan>, StoreError> {
    install()?;
    std::fs::create_dir_all(dir).map_err(|e| StoreError::Io(e.to_string()))?;
    let dir = std::fs::canonicalize(dir).map_err(|e| StoreError::Io(e.to_string()))?;
    let power = power.map(|(sector, seed)| PowerCut::new(dir.clone(), sector, seed));
    let plan = Arc::new(FaultPlan {
        dir,
        sync_budget: AtomicI64::new(UNLIMITED),
        write_budget: AtomicI64::new(UNLIMITED),
        syncs: AtomicU64::new(0),
        writes: AtomicU64::new(0),
        injected: AtomicU64::new(0),
        power,
    });
    let mut plans = PLANS.lock().unwrap_or_else(|p| p.into_inner());
    plans.retain(|w| w.strong_count() > 0);
    plans.push(Arc::downgrade(&plan));
    Ok(plan)
}

fn plan_for(path: &Path) -> Option<Arc<FaultPlan>> {
    let plans = PLANS.lock().unwrap_or_else(|p| p.into_inner());
    plans
        .iter()
        .filter_map(Weak::upgrade)
        .filter(|p| path.starts_with(&p.dir))
        .max_by_key(|p| p.dir.as_os_str().len())
}

/// Our file object: SQLite allocates `szOsFile` bytes; the wrapped file
/// lives right after this header.
#[repr(C)]
struct FaultFile {
    base: ffi::sqlite3_file,
    real: *mut ffi::sqlite3_file,
    plan: *const FaultPlan,
    /// The file's path (from `Box::into_raw`) when its plan models power
    /// cuts; null otherwise.
    path: *mut PathBuf,
}

unsafe extern "C" fn fault_open(
    _vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    // SAFETY: `file` points to szOsFile bytes (our header + the base
    // VFS's file), per the size we registered.
    unsafe {
        let base = BASE_VFS.load(Ordering::SeqCst) as *mut ffi::sqlite3_vfs;
        let ff = file.cast::<FaultFile>();
        let real = file
            .cast::<u8>()
            .add(std::mem::size_of::<FaultFile>())
            .cast::<ffi::sqlite3_file>();
        (*ff).base.pMethods = ptr::null();
        (*ff).real = real;
        (*ff).plan = ptr::null();
        (*ff).path = ptr::null_mut();
        let Some(open) = (if base.is_null() { None } else { (*base).xOpen }) else {
            return ffi::SQLITE_ERROR;
        };
        let rc = open(base, name, real, flags, out_flags);
        if rc != ffi::SQLITE_OK {
            return rc;
        }
        if !name.is_null() {
            let path = CStr::from_ptr(name).to_string_lossy().into_owned();
            if let Some(plan) = plan_for(Path::new(&path)) {
                if plan.power.is_some() {
                    (*ff).path = Box::into_raw(Box::new(PathBuf::from(&path)));
                }
                (*ff).plan = Arc::into_raw(plan);
            }
        }
        (*ff).base.pMethods = &FAULT_IO_METHODS;
        ffi::SQLITE_OK
    }
}

/// The wrapped file and its methods.
///
/// # Safety
/// `f` must be a `FaultFile` opened by `fault_open`.
unsafe fn inner(
    f: *mut ffi::sqlite3_file,
) -> (*mut ffi::sqlite3_file, &'static ffi::sqlite3_io_methods) {
    // SAFETY: per the contract, `real` was opened successfully and its
    // pMethods is a static table of the base VFS.
    unsafe {
        let real = (*f.cast::<FaultFile>()).real;
        (real, &*(*real).pMethods)
    }
}

/// The power-cut model and path of an open file, if its plan has one.
///
/// # Safety
/// `f` must be a `FaultFile` opened by `fault_open`.
unsafe fn power_of<'a>(f: *mut ffi::sqlite3_file) -> Option<(&'a PowerCut, &'a Path)> {
    // SAFETY: both pointers stay valid until close (plan: Arc::into_raw;
    // path: Box::into_raw), and close is the last call on the file.
    unsafe {
        let ff = f.cast::<FaultFile>();
        let plan = (*ff).plan.as_ref()?;
        let path = (*ff).path.as_ref()?;
        Some((plan.power.as_ref()?, path.as_path()))
    }
}

/// The plan of an open file, if any.
///
/// # Safety
/// `f` must be a `FaultFile` opened by `fault_open`.
unsafe fn plan_of<'a>(f: *mut ffi::sqlite3_file) -> Option<&'a FaultPlan> {
    // SAFETY: the pointer came from Arc::into_raw and stays valid until close.
    unsafe { (*f.cast::<FaultFile>()).plan.as_ref() }
}

macro_rules! forward {
    ($f:expr, $method:ident $(, $arg:expr)*) => {{
        // SAFETY: called by SQLite on a file opened by fault_open.
        let (real, m) = unsafe { inner($f) };
        match m.$method {
            // SAFETY: forwarding the same arguments to the wrapped file.
            Some(x) => unsafe { x(real $(, $arg)*) },
            None => ffi::SQLITE_IOERR,
        }
    }};
}

unsafe extern "C" fn f_close(f: *mut ffi::sqlite3_file) -> c_int {
    let rc = forward!(f, xClose);
    // SAFETY: release the plan reference taken in fault_open, once.
    unsafe {
        let ff = f.cast::<FaultFile>();
        if !(*ff).plan.is_null() {
            drop(Arc::from_raw((*ff).plan));
            (*ff).plan = ptr::null();
        }
        if !(*ff).path.is_null() {
            drop(Box::from_raw((*ff).path));
            (*ff).path = ptr::null_mut();
        }
    }
    rc
}

unsafe extern "C" fn f_read(
    f: *mut ffi::sqlite3_file,
    buf: *mut c_void,
    n: c_int,
    off: i64,
) -> c_int {
    forward!(f, xRead, buf, n, off)
}

unsafe extern "C" fn f_write(
    f: *mut ffi::sqlite3_file,
    buf: *const c_void,
    n: c_int,
    off: i64,
) -> c_int {
    // SAFETY: see plan_of.
    if let Some(plan) = unsafe { plan_of(f) } {
        if plan.take(&plan.write_budget, &plan.writes) {
            return ffi::SQLITE_IOERR_WRITE;
        }
    }
    // SAFETY: see power_of.
    if let Some((power, path)) = unsafe { power_of(f) } {
        let (Ok(len), Ok(at)) = (usize::try_from(n), u64::try_from(off)) else {
            return ffi::SQLITE_IOERR_WRITE;
        };
        // SAFETY: SQLite hands `n` readable bytes at `buf`.
        let data = unsafe { std::slice::from_raw_parts(buf.cast::<u8>(), len) };
        let mut rc = ffi::SQLITE_IOERR_WRITE;
        let ok = power.write(path, at, data, || {
            rc = forward!(f, xWrite, buf, n, off);
            rc == ffi::SQLITE_OK
        });
        return if ok {
            ffi::SQLITE_OK
        } else {
            rc_or(rc, ffi::SQLITE_IOERR_WRITE)
        };
    }
    forward!(f, xWrite, buf, n, off)
}

/// `rc` when it is an error, else `fallback` (the power went off).
fn rc_or(rc: c_int, fallback: c_int) -> c_int {
    if rc == ffi::SQLITE_OK {
        fallback
    } else {
        rc
    }
}

unsafe extern "C" fn f_truncate(f: *mut ffi::sqlite3_file, size: i64) -> c_int {
    // SAFETY: see power_of.
    if let Some((power, path)) = unsafe { power_of(f) } {
        let mut rc = ffi::SQLITE_IOERR_TRUNCATE;
        let ok = power.truncate(path, u64::try_from(size).unwrap_or(0), || {
            rc = forward!(f, xTruncate, size);
            rc == ffi::SQLITE_OK
        });
        return if ok {
            ffi::SQLITE_OK
        } else {
            rc_or(rc, ffi::SQLITE_IOERR_TRUNCATE)
        };
    }
    forward!(f, xTruncate, size)
}

unsafe extern "C" fn f_sync(f: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    // SAFETY: see plan_of.
    if let Some(plan) = unsafe { plan_of(f) } {
        if plan.take(&plan.sync_budget, &plan.syncs) {
            return ffi::SQLITE_IOERR_FSYNC;
        }
    }
    // SAFETY: see power_of.
    if let Some((power, path)) = unsafe { power_of(f) } {
        let mut rc = ffi::SQLITE_IOERR_FSYNC;
        let ok = power.sync(path, || {
            rc = forward!(f, xSync, flags);
            rc == ffi::SQLITE_OK
        });
        return if ok {
            ffi::SQLITE_OK
        } else {
            rc_or(rc, ffi::SQLITE_IOERR_FSYNC)
        };
    }
    forward!(f, xSync, flags)
}

unsafe extern "C" fn f_file_size(f: *mut ffi::sqlite3_file, out: *mut i64) -> c_int {
    forward!(f, xFileSize, out)
}

unsafe extern "C" fn f_lock(f: *mut ffi::sqlite3_file, l: c_int) -> c_int {
    forward!(f, xLock, l)
}

unsafe extern "C" fn f_unlock(f: *mut ffi::sqlite3_file, l: c_int) -> c_int {
    forward!(f, xUnlock, l)
}

unsafe extern "C" fn f_check_reserved_lock(f: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    forward!(f, xCheckReservedLock, out)
}

unsafe extern "C" fn f_file_control(
    f: *mut ffi::sqlite3_file,
    op: c_int,
    arg: *mut c_void,
) -> c_int {
    forward!(f, xFileControl, op, arg)
}

unsafe extern "C" fn f_sector_size(f: *mut ffi::sqlite3_file) -> c_int {
    forward!(f, xSectorSize)
}

unsafe extern "C" fn f_device_characteristics(f: *mut ffi::sqlite3_file) -> c_int {
    forward!(f, xDeviceCharacteristics)
}

unsafe extern "C" fn f_shm_map(
    f: *mut ffi::sqlite3_file,
    page: c_int,
    size: c_int,
    extend: c_int,
    out: *mut *mut c_void,
) -> c_int {
    forward!(f, xShmMap, page, size, extend, out)
}

unsafe extern "C" fn f_shm_lock(
    f: *mut ffi::sqlite3_file,
    off: c_int,
    n: c_int,
    flags: c_int,
) -> c_int {
    forward!(f, xShmLock, off, n, flags)
}

unsafe extern "C" fn f_shm_barrier(f: *mut ffi::sqlite3_file) {
    // SAFETY: called by SQLite on a file opened by fault_open.
    let (real, m) = unsafe { inner(f) };
    if let Some(x) = m.xShmBarrier {
        // SAFETY: forwarding to the wrapped file.
        unsafe { x(real) }
    }
}

unsafe extern "C" fn f_shm_unmap(f: *mut ffi::sqlite3_file, delete: c_int) -> c_int {
    forward!(f, xShmUnmap, delete)
}

/// Version 2 (shared memory for WAL; no memory-mapped fetch).
static FAULT_IO_METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 2,
    xClose: Some(f_close),
    xRead: Some(f_read),
    xWrite: Some(f_write),
    xTruncate: Some(f_truncate),
    xSync: Some(f_sync),
    xFileSize: Some(f_file_size),
    xLock: Some(f_lock),
    xUnlock: Some(f_unlock),
    xCheckReservedLock: Some(f_check_reserved_lock),
    xFileControl: Some(f_file_control),
    xSectorSize: Some(f_sector_size),
    xDeviceCharacteristics: Some(f_device_characteristics),
    xShmMap: Some(f_shm_map),
    xShmLock: Some(f_shm_lock),
    xShmBarrier: Some(f_shm_barrier),
    xShmUnmap: Some(f_shm_unmap),
    xFetch: None,
    xUnfetch: None,
};
