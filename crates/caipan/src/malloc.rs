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

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn glibc_takes_the_arena_limit_unless_the_environment_chose() {
        let chosen = std::env::var("GLIBC_TUNABLES").is_ok_and(|t| t.contains("arena_max"));
        assert_eq!(limit_arenas(), !chosen);
    }
}
