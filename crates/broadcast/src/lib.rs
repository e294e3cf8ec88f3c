//! caipan broadcast (转播): the hall's games live for relay sites and
//! followers — a read-only public HTTP listener on its own TCP port (never
//! the QUIC control plane), without a token.
//!
//! The server hands the hall's public events to it (`server::public`); the
//! events and the picture they continue are the hall's public projection
//! (`hall::public`: names, moves, clocks, results with their typed reason),
//! built from the table states and holding nothing private, so no token,
//! registration id, claim, alert, foul, ruling or audit text can reach a
//! public body.
//!
//! # Modules
//! - [`hub`]: the task between the server and the followers: the delay,
//!   the published [`view::View`] once per tick, the channel of ticks the
//!   streams follow.
//! - [`view`]: the games as shown (with when each changed, for catching
//!   a stream up) and their bodies, rendered on first ask;
//!   [`render`]: the bodies (round PGN through the export's writer, JSON,
//!   DGT's layout) with their ETags; [`json`]: the feeds' JSON pieces
//!   written from the view's own forms.
//! - [`http`]: the routes; [`sse`]: the one event stream (`/events`), a
//!   `tick` per hub tick written once by [`events`], resumable with
//!   `Last-Event-ID` (a `catchup` of the games changed since); [`listener`]: the per-address and
//!   total connection bounds.
//! - [`apart`]: the same on a thread and runtime of its own, below the
//!   hall's threads in priority (`caipan serve`).
//! - The follower's pages (issue 35): [`page`] renders `/`, `/board/T`,
//!   `/pairings` and `/display` on the server (readable without
//!   JavaScript), in the words of [`words`] (the i18n catalogues), moves
//!   in the [`notation`] chosen, peer text through [`html`]'s escaping;
//!   [`assets`]: the embedded script and style that draw the boards and
//!   follow `/events`.
//!
//! Dependencies: axum (hyper) and tower-http here only; the hall core and
//! the export never depend on them (checked in `.ci/run`).

pub mod apart;
pub mod assets;
pub mod events;
pub mod html;
pub mod http;
pub mod hub;
pub mod json;
pub mod listener;
pub mod notation;
pub mod page;
pub mod render;
pub mod sse;
pub mod view;
pub mod words;

#[cfg(test)]
mod feed_tests;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use config::{BroadcastConfig, HallConfig};
use server::public_feed::PublicFeed;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Why the broadcast could not start.
#[derive(Debug, thiserror::Error)]
pub enum BroadcastError {
    /// The address could not be bound (in use, not this machine's).
    #[error("broadcast.listen {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The broadcast's own thread or runtime could not be made
    /// ([`apart`]).
    #[error("the broadcast's thread: {0}")]
    Thread(std::io::Error),
}

/// Ticks a stream may be behind by default: 32 ticks of 200 ms, 6.4 s. A
/// stream further behind is caught up with the games changed since (at
/// most one entry per game), which is never more than the ticks it
/// missed; the channel holds a tick until every stream has read it, so
/// this bounds what a stalled follower keeps (at 10,000 tables pressing
/// once a second, a tick is about 2,000 games, some 400 KB).
pub const STREAM_BUFFER: usize = 32;

/// Choices beyond the config (tests).
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Connection bounds of the port.
    pub limits: listener::Limits,
    /// Ticks a stream may be behind before it is caught up with the games
    /// changed instead (`sse.rs`).
    pub stream_buffer: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limits: listener::Limits::default(),
            stream_buffer: STREAM_BUFFER,
        }
    }
}

/// A running broadcast.
#[derive(Debug)]
pub struct RunningBroadcast {
    /// The bound address.
    pub addr: SocketAddr,
    stop: watch::Sender<bool>,
    stopped: Stopped,
}

/// What a stop waits for: the listener's task on the caller's runtime, or
/// the end of the broadcast's own thread ([`apart`]).
#[derive(Debug)]
enum Stopped {
    Task(JoinHandle<()>),
    Thread(tokio::sync::oneshot::Receiver<()>),
}

impl RunningBroadcast {
    /// The URL followers open (`http://ADDR/`).
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops listening and ends the streams.
    pub async fn shutdown(self) {
        self.stop.send_replace(true);
        let wait = Duration::from_secs(2);
        match self.stopped {
            Stopped::Task(task) => {
                let _ = tokio::time::timeout(wait, task).await;
            }
            Stopped::Thread(done) => {
                let _ = tokio::time::timeout(wait, done).await;
            }
        }
    }
}

/// Starts the broadcast of `feed` on `settings.listen` (port 0: a free
/// one), its tasks on the caller's runtime ([`apart::start_apart`]: on a
/// thread of its own).
pub async fn start(
    feed: PublicFeed,
    config: Arc<HallConfig>,
    settings: BroadcastConfig,
    options: Options,
) -> Result<RunningBroadcast, BroadcastError> {
    let (addr, stop, task) = listen(feed, config, settings, options).await?;
    Ok(RunningBroadcast {
        addr,
        stop,
        stopped: Stopped::Task(task),
    })
}

/// Binds, starts the hub and the listener's task on this runtime: the
/// address, the stop and the task.
async fn listen(
    feed: PublicFeed,
    config: Arc<HallConfig>,
    settings: BroadcastConfig,
    options: Options,
) -> Result<(SocketAddr, watch::Sender<bool>, JoinHandle<()>), BroadcastError> {
    let bind = |source| BroadcastError::Bind {
        addr: settings.listen,
        source,
    };
    let tcp = tokio::net::TcpListener::bind(settings.listen)
        .await
        .map_err(bind)?;
    let addr = tcp.local_addr().map_err(bind)?;
    let (stop, stop_rx) = watch::channel(false);
    let out = hub::start(
        feed,
        config,
        Duration::from_secs(settings.delay_s),
        options.stream_buffer,
        stop_rx.clone(),
    );
    if settings.delay_s == 0 {
        // The first picture is due at once: serve from the first request.
        let mut view = out.view.clone();
        let _ = tokio::time::timeout(Duration::from_secs(5), view.wait_for(|v| v.is_some())).await;
    }
    let app = http::router(out);
    let mut wait = stop_rx;
    let task = tokio::spawn(async move {
        let serving = axum::serve(listener::Bounded::new(tcp, options.limits), app)
            .with_graceful_shutdown(async move {
                let _ = wait.wait_for(|s| *s).await;
            });
        if let Err(e) = serving.await {
            tracing::error!(error = %e, "broadcast stopped");
        }
    });
    tracing::info!(%addr, delay_s = settings.delay_s, "broadcast listening");
    Ok((addr, stop, task))
}
