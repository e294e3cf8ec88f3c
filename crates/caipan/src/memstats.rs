//! Where the server's memory goes (issue 40): the binary's global
//! allocator counts the Rust heap's live bytes, and `caipan serve` run with
//! `CAIPAN_MEMSTATS=FILE` (as `caipan bench hall --child-server` does)
//! writes FILE with one JSON [`Sample`] whenever `FILE.ask` appears (and
//! removes it): that count,
//! glibc's own totals (`mallinfo2`: every byte malloc hands out, Rust's and
//! C's, and the free bytes it keeps), SQLite's (`sqlite3_memory_used`) and
//! the marks the server set on its way up (and, beside them, the
//! catch-ups and whole snapshots sent to lagging consoles so far,
//! `server::TOTALS`, and the markers of the server's background work,
//! `store::markers`, the taking of this very sample among them as
//! `memory_probe`). The bench reads it between the
//! phases of its load and splits the server's memory by component.
//!
//! Counting costs one relaxed load per allocation when off, and two
//! relaxed atomic adds when on (it is only switched on by the variable).
//!
//! The Rust heap is mimalloc's ([`Counting`] forwards to it; 内存分配器):
//! at 10,000 table connections glibc malloc held about 240 MB more of the
//! server's RSS (its arenas keep freed chunks resident and fragmented
//! between the runtime's threads) and spent about a tenth of the server's
//! CPU in its free lists (`malloc_consolidate`, `unlink_chunk`);
//! mimalloc's pages are per thread, freed pages go back to the OS, and
//! the same run measured under 300 MB (docs/benchmarks.md, "The Rust heap
//! on mimalloc"). The C code (SQLite, ring's few allocations) keeps
//! glibc's malloc (`malloc.rs` limits its arenas).

use std::alloc::{GlobalAlloc, Layout};

use mimalloc::MiMalloc;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The environment variable naming the file the figures go to.
pub const ENV: &str = "CAIPAN_MEMSTATS";

static ON: AtomicBool = AtomicBool::new(false);
static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);
static LIVE_BLOCKS: AtomicIsize = AtomicIsize::new(0);
/// Size classes of the live Rust heap: class `i` holds blocks of
/// `2^(i-1) < size <= 2^i` bytes (the last class everything larger).
const CLASSES: usize = 24;
static LIVE_BY_CLASS: [AtomicIsize; CLASSES] = [const { AtomicIsize::new(0) }; CLASSES];
/// Rust heap bytes at named moments of the start (`mark`).
static MARKS: Mutex<BTreeMap<String, i64>> = Mutex::new(BTreeMap::new());

/// mimalloc, counting live bytes while [`ON`].
pub struct Counting;

// SAFETY: every call is forwarded to `MiMalloc` unchanged; the counters are
// plain atomics and never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is MiMalloc's.
        let p = unsafe { MiMalloc.alloc(layout) };
        if !p.is_null() && ON.load(Ordering::Relaxed) {
            count(layout.size(), 1);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is MiMalloc's.
        let p = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() && ON.load(Ordering::Relaxed) {
            count(layout.size(), 1);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is MiMalloc's.
        unsafe { MiMalloc.dealloc(ptr, layout) };
        if ON.load(Ordering::Relaxed) {
            count(layout.size(), -1);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is MiMalloc's.
        let p = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() && ON.load(Ordering::Relaxed) {
            count(layout.size(), -1);
            count(new_size, 1);
        }
        p
    }
}

/// Counts `sign` (1: allocated, -1: freed) blocks of `size` bytes.
fn count(size: usize, sign: isize) {
    let bytes = size as isize * sign;
    LIVE_BYTES.fetch_add(bytes, Ordering::Relaxed);
    LIVE_BLOCKS.fetch_add(sign, Ordering::Relaxed);
    let class = (usize::BITS - size.saturating_sub(1).leading_zeros()) as usize;
    LIVE_BY_CLASS[class.min(CLASSES - 1)].fetch_add(bytes, Ordering::Relaxed);
}

/// Switches counting on when [`ENV`] names a file (call first in `main`).
pub fn init_from_env() {
    if std::env::var_os(ENV).is_some() {
        ON.store(true, Ordering::Relaxed);
    }
}

/// Records the Rust heap's live bytes now under `name` (nothing when
/// counting is off).
pub fn mark(name: &str) {
    if !ON.load(Ordering::Relaxed) {
        return;
    }
    let live = LIVE_BYTES.load(Ordering::Relaxed) as i64;
    if let Ok(mut m) = MARKS.lock() {
        m.insert(name.to_string(), live);
    }
}

/// One reading of the process's heap.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sample {
    /// Live bytes the Rust code asked for (the counting allocator).
    pub rust_heap_bytes: i64,
    /// Live Rust allocations.
    pub rust_blocks: i64,
    /// Live Rust heap bytes by block size: `"<=64"` holds the blocks of
    /// 33..=64 bytes (`"<=1"` also the empty ones, the last class all
    /// larger); empty classes left out.
    pub rust_heap_by_size: BTreeMap<String, i64>,
    /// Bytes the allocators have handed out and not got back: the Rust
    /// heap's (mimalloc's, as counted) and glibc malloc's (the C code:
    /// SQLite, the C parts of the TLS stack; `mallinfo2` uordblks +
    /// hblkhd).
    pub malloc_in_use_bytes: i64,
    /// Free bytes glibc keeps in its arenas (`mallinfo2` fordblks).
    /// mimalloc's free pages are not counted here (its own figures count
    /// reserved address space, not resident pages): they are part of
    /// the RSS the allocators' figures leave out.
    pub malloc_free_bytes: i64,
    /// Bytes SQLite's allocator holds (`sqlite3_memory_used`: page caches,
    /// prepared statements).
    pub sqlite_bytes: i64,
    /// Rust heap bytes at the start's marks (`config_loaded`,
    /// `server_started`).
    pub marks: BTreeMap<String, i64>,
    /// Catch-ups by changed tables sent so far to consoles that fell
    /// behind (`server::TOTALS`; not memory, read with it).
    #[serde(default)]
    pub console_catch_ups: u64,
    /// Whole snapshots sent so far to consoles that fell behind.
    #[serde(default)]
    pub console_whole_snapshots: u64,
    /// The server's reply times so far, bucket by bucket
    /// (`server::reply_time`; not memory, read with it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reply_time_counts: Vec<u64>,
    /// The same up to the committer's answer (`server::reply_time`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_time_counts: Vec<u64>,
    /// The markers of the server's background work (`store::markers`),
    /// oldest first (empty in a sample of the heap alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerSample>,
    /// Markers the ring let go (older than those kept).
    #[serde(default)]
    pub markers_dropped: u64,
}

/// A [`store::markers::Marker`] as JSON.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MarkerSample {
    pub kind: String,
    pub at_unix_ms: u64,
    pub ms: u32,
    pub n: u64,
}

/// This process's markers now (`store::markers`), and how many the ring
/// let go.
pub fn markers_now() -> (Vec<MarkerSample>, u64) {
    let (markers, dropped) = store::markers::snapshot();
    let markers = markers
        .into_iter()
        .map(|m| MarkerSample {
            kind: m.kind.to_string(),
            at_unix_ms: m.at_unix_ms,
            ms: m.ms,
            n: m.n,
        })
        .collect();
    (markers, dropped)
}

/// Reads the heap now.
pub fn sample() -> Sample {
    let (in_use, free) = malloc_totals();
    Sample {
        rust_heap_bytes: LIVE_BYTES.load(Ordering::Relaxed) as i64,
        rust_blocks: LIVE_BLOCKS.load(Ordering::Relaxed) as i64,
        rust_heap_by_size: by_size(),
        malloc_in_use_bytes: in_use,
        malloc_free_bytes: free,
        // SAFETY: sqlite3_memory_used only reads SQLite's counter.
        sqlite_bytes: unsafe { rusqlite::ffi::sqlite3_memory_used() },
        marks: MARKS.lock().map(|m| m.clone()).unwrap_or_default(),
        console_catch_ups: server::TOTALS.catch_ups.load(Ordering::Relaxed),
        console_whole_snapshots: server::TOTALS.whole_snapshots.load(Ordering::Relaxed),
        reply_time_counts: server::reply_time::REPLY_TIMES.counts(),
        answer_time_counts: server::reply_time::ANSWER_TIMES.counts(),
        markers: Vec::new(),
        markers_dropped: 0,
    }
}

fn by_size() -> BTreeMap<String, i64> {
    LIVE_BY_CLASS
        .iter()
        .enumerate()
        .map(|(i, c)| (i, c.load(Ordering::Relaxed) as i64))
        .filter(|(_, b)| *b != 0)
        .map(|(i, b)| {
            let name = if i == CLASSES - 1 {
                format!(">{}", 1u64 << (i - 1))
            } else {
                format!("<={:08}", 1u64 << i)
            };
            (name, b)
        })
        .collect()
}

/// In use (the counted Rust heap and glibc's) and free (glibc's; see
/// [`Sample`]).
fn malloc_totals() -> (i64, i64) {
    let (c_in_use, c_free) = glibc_totals();
    (c_in_use + LIVE_BYTES.load(Ordering::Relaxed) as i64, c_free)
}

/// The Rust heap's live bytes while counting is on (`None` when off):
/// the benches' heap figures (`table::load::procstat::set_heap_reader` in
/// `main`), glibc's malloc holding only the C code's.
pub fn rust_heap() -> Option<i64> {
    ON.load(Ordering::Relaxed)
        .then(|| LIVE_BYTES.load(Ordering::Relaxed) as i64)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn glibc_totals() -> (i64, i64) {
    // SAFETY: mallinfo2 takes no argument and returns a plain struct.
    let m = unsafe { libc::mallinfo2() };
    ((m.uordblks + m.hblkhd) as i64, m.fordblks as i64)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn glibc_totals() -> (i64, i64) {
    (0, 0)
}

/// The file whose appearance asks for a sample of `file`.
pub fn ask_path(file: &std::path::Path) -> PathBuf {
    file.with_extension("ask")
}

/// When [`ENV`] names a file: a thread that, when the file's
/// [`ask_path`] appears (it looks every 50 ms), writes a [`Sample`] to it
/// (aside and renamed, so a reader never sees half) and removes the ask.
/// Only on request: `mallinfo2` walks every arena's free lists under its
/// lock, which at 10,000 connections costs tens of ms and stalls the
/// server's allocations meanwhile.
pub fn spawn_writer_from_env() {
    let Some(path) = std::env::var_os(ENV).map(PathBuf::from) else {
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("memstats".into())
        .spawn(move || {
            let tmp = path.with_extension("tmp");
            let ask = ask_path(&path);
            loop {
                std::thread::sleep(Duration::from_millis(50));
                if !ask.exists() {
                    continue;
                }
                // The sample stalls the server's allocations (mallinfo2):
                // a marker of its own.
                let span = store::markers::Span::start("memory_probe");
                let mut s = sample();
                span.end(0);
                (s.markers, s.markers_dropped) = markers_now();
                if let Ok(text) = serde_json::to_string(&s) {
                    if std::fs::write(&tmp, text).is_ok() {
                        let _ = std::fs::rename(&tmp, &path);
                    }
                }
                let _ = std::fs::remove_file(&ask);
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("{ENV}: could not start the writer thread: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_round_trips_through_its_json() {
        let mut s = sample();
        s.marks.insert("server_started".into(), 12_345);
        let text = serde_json::to_string(&s).unwrap();
        for key in [
            "rust_heap_bytes",
            "malloc_in_use_bytes",
            "malloc_free_bytes",
            "sqlite_bytes",
            "marks",
        ] {
            assert!(text.contains(key), "{key} missing from {text}");
        }
        let back: Sample = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
    }
}
