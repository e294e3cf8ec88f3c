//! Giving a thread's freed heap pages back to the OS (释放内存), a hook
//! the binary sets (issue 40): the server does not know which allocator
//! the binary chose, the binary does (`caipan/src/malloc.rs`: mimalloc's
//! `mi_collect`).
//!
//! Why the server needs it: an allocator that keeps its pages per thread
//! (mimalloc) purges a page freed by other threads only when the thread
//! that owns it calls into it again. A snapshot's rows (10 MB at 10,000
//! tables) are made on a blocking thread and freed on the store's writer
//! over the save that follows, and the blocking thread then sleeps in the
//! pool: those pages stayed resident until the pool let the thread go and
//! another thread took its segments over. The encoding thread now waits
//! for the save and gives its pages back when it is over
//! ([`crate::snapshot`]).

use std::sync::OnceLock;

static HOOK: OnceLock<fn()> = OnceLock::new();

/// Sets what [`give_back`] calls (once; later calls are ignored).
pub fn set_hook(hook: fn()) {
    let _ = HOOK.set(hook);
}

/// Gives the calling thread's freed pages back, if the binary said how.
pub fn give_back() {
    if let Some(hook) = HOOK.get() {
        hook();
    }
}
