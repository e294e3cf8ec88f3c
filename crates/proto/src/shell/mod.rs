//! The server's QUIC transport (issue 40): quinn's deterministic core
//! (`quinn_proto`) driven by one OS thread of our own ([`THREAD_NAME`],
//! `driver.rs`) instead of quinn's tasks, with handles for the server's
//! tasks shaped as the part of quinn's API it uses ([`Endpoint::accept`],
//! [`Incoming`], [`Connection`], [`SendStream`], [`RecvStream`]).
//!
//! Why: with quinn's own I/O every connection has a driver task and an
//! unbounded channel from the endpoint's task (two 32-event blocks, about
//! 13 KB once 32 datagrams have passed, kept for the connection's life),
//! and every datagram wakes the endpoint's task, the connection's task and
//! the reader. Here a datagram is handed to its connection by the thread
//! that received it, and only the task that has something to do (a stream
//! became readable or writable, a stream was opened, the connection ended)
//! is woken; what a task writes is sent at the thread's next turn, all
//! that is due in one wake (docs/benchmarks.md measures both).
//!
//! The clients (table terminals, consoles, the load generator) keep quinn.

mod command;
mod conn;
mod driver;
mod hub;
pub mod io;
pub mod timers;

pub use conn::{Connection, RecvStream, SendStream};
pub use driver::CLOSE_GRACE;

use command::{Command, Commands};
use conn::Connected;
use hub::Hub;
use quinn_proto::{ConnectionError, EndpointConfig, ServerConfig, VarInt};
use std::net::{SocketAddr, UdpSocket};
use std::os::unix::net::UnixDatagram;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};

/// The shell thread's name: it starts with `caipan-srv`, so the benches
/// count its CPU with the server's connections.
pub const THREAD_NAME: &str = "caipan-srv-quic";

/// New connections waiting for the accepting task; more are refused.
pub const ACCEPT_QUEUE: usize = 1024;

/// A server endpoint over the shell.
pub struct Endpoint {
    commands: Arc<Commands>,
    local_addr: SocketAddr,
    incoming: tokio::sync::Mutex<mpsc::Receiver<Incoming>>,
    open: watch::Receiver<usize>,
}

impl Endpoint {
    /// Serves QUIC on the bound `socket` with these configs, on a new
    /// [`THREAD_NAME`] thread (which ends once this handle is dropped and
    /// its connections drained, or after [`CLOSE_GRACE`]).
    pub fn new(
        socket: UdpSocket,
        endpoint_config: EndpointConfig,
        server_config: ServerConfig,
    ) -> std::io::Result<Endpoint> {
        let local_addr = socket.local_addr()?;
        let io = io::Io::new(socket)?;
        let (wake, wake_thread) = UnixDatagram::pair()?;
        wake.set_nonblocking(true)?;
        wake_thread.set_nonblocking(true)?;
        let hub = Arc::new(Hub::new(wake));
        let commands = Arc::new(Commands::new(hub.clone()));
        let (incoming_tx, incoming_rx) = mpsc::channel(ACCEPT_QUEUE);
        let (open_tx, open_rx) = watch::channel(0usize);
        let endpoint = quinn_proto::Endpoint::new(
            Arc::new(endpoint_config),
            Some(Arc::new(server_config)),
            io.allow_mtud,
            None,
        );
        let driver = driver::Driver::new(
            io,
            wake_thread,
            hub,
            commands.clone(),
            endpoint,
            incoming_tx,
            open_tx,
        );
        std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                // A panic here is a bug of ours or quinn's: the thread's
                // connections end for their tasks (the driver's drop) and
                // `accept` returns `None`, which the server takes as fatal.
                let run = std::panic::AssertUnwindSafe(|| driver.run());
                if std::panic::catch_unwind(run).is_err() {
                    tracing::error!(
                        "the QUIC shell's thread panicked: no more datagrams are taken"
                    );
                }
            })?;
        Ok(Endpoint {
            commands,
            local_addr,
            incoming: tokio::sync::Mutex::new(incoming_rx),
            open: open_rx,
        })
    }

    /// The address it is bound to.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.local_addr)
    }

    /// The next new connection; `None` once the endpoint is closed.
    pub async fn accept(&self) -> Option<Incoming> {
        self.incoming.lock().await.recv().await
    }

    /// Closes every connection with `code` and `reason`, and refuses new
    /// ones.
    pub fn close(&self, code: VarInt, reason: &[u8]) {
        self.commands
            .push(Command::Close(code, bytes::Bytes::copy_from_slice(reason)));
    }

    /// Connections held now (handshakes included).
    pub fn open_connections(&self) -> usize {
        *self.open.borrow()
    }

    /// Waits until no connection is held (closed ones drained).
    pub async fn wait_idle(&self) {
        let mut open = self.open.clone();
        let _ = open.wait_for(|n| *n == 0).await;
    }
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        self.commands.push(Command::Stop);
    }
}

/// A connection attempt not yet accepted (quinn's `Incoming`): accept,
/// retry, refuse or ignore it. Dropped undecided, it is ignored.
pub struct Incoming {
    inner: Option<quinn_proto::Incoming>,
    commands: Arc<Commands>,
    remote: SocketAddr,
    validated: bool,
    may_retry: bool,
}

/// [`Incoming::retry`] on an attempt that may not be retried (it answered
/// a Retry already).
#[derive(Debug, thiserror::Error)]
#[error("this connection attempt may not be retried (it answered a Retry already)")]
pub struct RetryRefused;

impl Incoming {
    fn new(inner: quinn_proto::Incoming, commands: Arc<Commands>) -> Incoming {
        Incoming {
            remote: inner.remote_address(),
            validated: inner.remote_address_validated(),
            may_retry: inner.may_retry(),
            inner: Some(inner),
            commands,
        }
    }

    fn into_inner(mut self) -> Option<quinn_proto::Incoming> {
        self.inner.take()
    }

    fn decide(&mut self, c: impl FnOnce(quinn_proto::Incoming) -> Command) {
        if let Some(i) = self.inner.take() {
            self.commands.push(c(i));
        }
    }

    /// The peer's address.
    pub fn remote_address(&self) -> SocketAddr {
        self.remote
    }

    /// Whether the peer proved its address (answered a Retry).
    pub fn remote_address_validated(&self) -> bool {
        self.validated
    }

    /// Whether a Retry may be sent (none was yet).
    pub fn may_retry(&self) -> bool {
        self.may_retry
    }

    /// Answers with a QUIC Retry: the peer comes back proving its address.
    pub fn retry(mut self) -> Result<(), RetryRefused> {
        if !self.may_retry {
            self.decide(Command::Ignore);
            return Err(RetryRefused);
        }
        self.decide(Command::Retry);
        Ok(())
    }

    /// Refuses it (the peer is told at once).
    pub fn refuse(mut self) {
        self.decide(Command::Refuse);
    }

    /// Drops it unanswered (the peer sends again).
    pub fn ignore(mut self) {
        self.decide(Command::Ignore);
    }

    /// Accepts it; the connection once its handshake is done.
    pub async fn accept(mut self) -> Result<Connection, ConnectionError> {
        let (tx, rx): (Connected, _) = oneshot::channel();
        self.decide(|i| Command::Accept(i, tx));
        rx.await.unwrap_or(Err(ConnectionError::LocallyClosed))
    }
}

impl Drop for Incoming {
    fn drop(&mut self) {
        self.decide(Command::Ignore);
    }
}
