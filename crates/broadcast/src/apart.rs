//! The broadcast on a thread of its own, below the hall in priority
//! (issue 40): `caipan serve` runs the public listener, its hub and every
//! follower's stream on one thread (`caipan-pub`) with a runtime of its
//! own, niced by [`NICE`], so that building a tick (at 10,000 tables some
//! 2,000 games and 400 KB of JSON every 200 ms) and writing it to each
//! follower never holds a runtime thread that acknowledges the tables'
//! presses. When the machine is busy the followers wait (they are seconds
//! behind by design, `broadcast.delay_s`); the clock of record does not.
//!
//! The same listener as [`crate::start`], only elsewhere: tests and tools
//! that want it on their own runtime keep calling that.

use std::sync::Arc;

use config::{BroadcastConfig, HallConfig};
use server::public_feed::PublicFeed;
use tokio::sync::oneshot;

use crate::{BroadcastError, Options, RunningBroadcast, Stopped};

/// The thread's name: the benches count its CPU under it.
pub const THREAD_NAME: &str = "caipan-pub";

/// How much nicer than the server the broadcast's thread is (Linux: a
/// thread's own nice value; 10 gives it about a tenth of a core the
/// hall's threads want, all of one they leave idle).
pub const NICE: i32 = 10;

/// Starts the broadcast of `feed` on its own thread (see the module
/// comment); the same errors as [`crate::start`], and
/// [`BroadcastError::Thread`] if no thread or runtime could be made.
pub async fn start_apart(
    feed: PublicFeed,
    config: Arc<HallConfig>,
    settings: BroadcastConfig,
    options: Options,
) -> Result<RunningBroadcast, BroadcastError> {
    let (ready_tx, ready_rx) = oneshot::channel();
    let (done_tx, done_rx) = oneshot::channel();
    std::thread::Builder::new()
        .name(THREAD_NAME.into())
        .spawn(move || {
            lower_priority();
            let rt = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(BroadcastError::Thread(e)));
                    return;
                }
            };
            rt.block_on(async move {
                match crate::listen(feed, config, settings, options).await {
                    Ok((addr, stop, task)) => {
                        if ready_tx.send(Ok((addr, stop))).is_ok() {
                            let _ = task.await;
                        }
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                }
            });
            // The runtime (the hub and any stream still open) ends here.
            drop(rt);
            let _ = done_tx.send(());
        })
        .map_err(BroadcastError::Thread)?;
    match ready_rx.await {
        Ok(Ok((addr, stop))) => Ok(RunningBroadcast {
            addr,
            stop,
            stopped: Stopped::Thread(done_rx),
        }),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(BroadcastError::Thread(std::io::Error::other(
            "the broadcast's thread ended before it listened",
        ))),
    }
}

/// Lowers this thread's priority by [`NICE`]; a failure is logged and
/// changes nothing else (the broadcast then competes as an equal).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority take plain integers and touch
        // no memory of ours; on Linux PRIO_PROCESS with a thread id sets
        // that thread's nice value alone.
        let rc = unsafe {
            let tid = libc::gettid();
            libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, NICE)
        };
        if rc != 0 {
            tracing::warn!(
                error = %std::io::Error::last_os_error(),
                "the broadcast's thread keeps the server's priority"
            );
        }
    }
}
