//! glibc malloc's arenas for `caipan serve` (内存分配, issue 40).
//!
//! Since the Rust heap moved to mimalloc (`memstats.rs`) glibc's malloc
//! serves the C code alone (SQLite's page caches and statements); the
//! limit below still keeps its free bytes in two arenas.
//!
//! glibc gives each thread that meets a locked arena an arena of its own,
//! up to eight per core; freed bytes stay in the arena that held them.
//! The server's threads (the runtime's workers, the committer, the store
//! writer and checkpointer, quinn's I/O) spread 10,000 tables' allocations
//! over many arenas, and each keeps its own free bytes. With at most two
//! arenas the server held 2.2-2.8 KB less per connected table (RSS at
//! 2,000 and 10,000 tables; CPU per event unchanged within the runs'
//! spread; docs/benchmarks.md, "third pass"). Set once at the start of
//! `caipan serve`, before its threads; an operator's own
//! `GLIBC_TUNABLES=glibc.malloc.arena_max=N` wins. Only on glibc (musl and
//! other targets have no such setting).
//!
//! And no transparent huge pages (透明大页) for the server: mimalloc asks
//! the kernel for them on its arena (`madvise(MADV_HUGEPAGE)`), so a
//! 2 MiB region of which a few pages are in use is resident whole. At
//! 10,000 tables that held 16-19 MiB more, for 0-5 % less CPU a press
//! (docs/benchmarks.md, "Huge pages off, the start's garbage given back,
//! a smaller connection task"). Set once at the start
//! of `caipan serve` ([`no_huge_pages`]); an operator's own
//! `MIMALLOC_ALLOW_THP` wins (`=1` keeps them, `=0` is mimalloc's own way
//! to the same).

/// Arenas the server's malloc may use.
pub const SERVER_ARENAS: i32 = 2;

/// Limits glibc malloc to [`SERVER_ARENAS`] arenas unless the environment
/// already chose (`GLIBC_TUNABLES` naming `arena_max`). True if set.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn limit_arenas() -> bool {
    let chosen = std::env::var("GLIBC_TUNABLES").is_ok_and(|t| t.contains("arena_max"));
    if chosen {
        return false;
    }
    // SAFETY: mallopt takes two integers and changes a malloc parameter; it
    // is safe to call at any time (it takes the main arena's lock).
    unsafe { libc::mallopt(libc::M_ARENA_MAX, SERVER_ARENAS) == 1 }
}

/// Nothing to set outside glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn limit_arenas() -> bool {
    false
}

/// The environment variable by which an operator chooses huge pages
/// (mimalloc's own option; read by mimalloc when the process starts).
pub const THP_ENV: &str = "MIMALLOC_ALLOW_THP";

/// Turns transparent huge pages off for this process (`prctl`
/// `PR_SET_THP_DISABLE`: the kernel then backs none of its memory with
/// them, also the regions madvised for them) unless the environment chose
/// ([`THP_ENV`]). True if turned off.
#[cfg(target_os = "linux")]
pub fn no_huge_pages() -> bool {
    if std::env::var_os(THP_ENV).is_some() {
        return false;
    }
    let (on, unused): (libc::c_ulong, libc::c_ulong) = (1, 0);
    // SAFETY: prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) takes integers only
    // and sets a flag of this process's memory map; it touches no memory
    // of ours.
    unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, on, unused, unused, unused) == 0 }
}

/// No such setting outside Linux.
#[cfg(not(target_os = "linux"))]
pub fn no_huge_pages() -> bool {
    false
}

/// Gives the calling thread's freed pages back to the OS now (mimalloc's
/// `mi_collect`). mimalloc purges a page freed on a thread only when that
/// thread allocates again, and `caipan serve`'s main thread allocates
/// almost nothing once the server runs: what it freed while the hall was
/// built (the config of 10,000 tables parsed, its tables' states made,
/// the first snapshot cut) would stay resident for the server's life
/// (~40 MiB at 10,000 tables). Called once on that thread when the server
/// has started.
pub fn give_back_freed() {
    // SAFETY: mi_collect takes a flag and walks this thread's heap (and
    // the shared arenas under their own locks); no pointer of ours.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

/// mimalloc's `mi_option_purge_delay`: its place in `mi_option_e`
/// (mimalloc.h), which libmimalloc-sys does not name.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// The environment variable by which an operator chooses mimalloc's purge
/// delay (ms; read by mimalloc when the process starts).
pub const PURGE_ENV: &str = "MIMALLOC_PURGE_DELAY";

/// The purge delay (ms) while the committer takes a flood's batches
/// (`server::purge_pace`): the freed spans of one batch are there for the
/// next.
pub const FLOOD_PURGE_DELAY_MS: std::ffi::c_long = 1_000;

/// The purge delay outside a flood: mimalloc's own when the pacing began.
static QUIET_PURGE_DELAY_MS: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(10);

/// Lets the server's committer pace mimalloc's purges
/// (`server::purge_pace`): [`FLOOD_PURGE_DELAY_MS`] during a flood,
/// mimalloc's own delay otherwise, unless the environment chose one
/// ([`PURGE_ENV`]: the operator's delay holds throughout). True if paced.
pub fn pace_purges() -> bool {
    if std::env::var_os(PURGE_ENV).is_some() {
        return false;
    }
    // SAFETY: mi_option_get reads an option's value (initialising the
    // options from the environment on first use); no pointer of ours.
    let quiet = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
    #[allow(
        clippy::useless_conversion,
        reason = "c_long is i64 here, i32 on some targets"
    )]
    let quiet = i64::from(quiet);
    QUIET_PURGE_DELAY_MS.store(quiet, std::sync::atomic::Ordering::Relaxed);
    server::purge_pace::set_hook(set_purge_pace);
    true
}

/// The hook: mimalloc's purge delay for a flood or for a quiet hall.
fn set_purge_pace(flooded: bool) {
    let delay = if flooded {
        FLOOD_PURGE_DELAY_MS
    } else {
        let quiet = QUIET_PURGE_DELAY_MS.load(std::sync::atomic::Ordering::Relaxed);
        std::ffi::c_long::try_from(quiet).unwrap_or(10)
    };
    // SAFETY: mi_option_set stores an option's value; mimalloc reads the
    // purge delay each time it schedules a purge. No pointer of ours.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, delay) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The purge delay's option number is mimalloc's (its default, 10 ms,
    /// read back), and the pacing hook switches between the flood's delay
    /// and the quiet one.
    #[test]
    fn the_committer_paces_mimallocs_purges() {
        if std::env::var_os(PURGE_ENV).is_some() {
            assert!(!pace_purges(), "the operator's delay holds");
            return;
        }
        // SAFETY: as in `pace_purges`.
        let get = || unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert_eq!(get(), 10, "mimalloc's default purge delay");
        assert!(pace_purges());
        server::purge_pace::set_flooded(true);
        assert_eq!(get(), FLOOD_PURGE_DELAY_MS);
        server::purge_pace::set_flooded(false);
        assert_eq!(get(), 10);
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn glibc_takes_the_arena_limit_unless_the_environment_chose() {
        let chosen = std::env::var("GLIBC_TUNABLES").is_ok_and(|t| t.contains("arena_max"));
        assert_eq!(limit_arenas(), !chosen);
    }

    /// Resident bytes of this process (/proc/self/statm, Linux).
    #[cfg(target_os = "linux")]
    fn rss_bytes() -> usize {
        let statm = std::fs::read_to_string("/proc/self/statm").expect("statm");
        let pages: usize = statm
            .split_whitespace()
            .nth(1)
            .expect("rss")
            .parse()
            .expect("pages");
        pages * 4096
    }

    /// What a thread freed stays resident until it gives it back: 64 MiB
    /// of small blocks allocated, written and freed on one thread, then
    /// given back on that thread, leave the process at least 32 MiB
    /// smaller than before the give-back.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_thread_gives_back_what_it_freed() {
        let (before, after) = std::thread::spawn(|| {
            let blocks: Vec<Box<[u8; 1024]>> =
                (0..65_536).map(|i| Box::new([i as u8; 1024])).collect();
            assert_eq!(
                blocks.iter().map(|b| usize::from(b[0])).sum::<usize>() % 256,
                0
            );
            drop(blocks);
            let before = rss_bytes();
            give_back_freed();
            (before, rss_bytes())
        })
        .join()
        .expect("the thread");
        assert!(
            before.saturating_sub(after) >= 32 << 20,
            "resident {before} bytes before the give-back, {after} after"
        );
    }
}
