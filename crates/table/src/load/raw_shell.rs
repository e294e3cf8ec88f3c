//! The raw baseline's second echo server (issue 40): the echo of
//! [`super::raw::EchoServer`] (for every `req`-byte frame read, one
//! `resp`-byte frame back) with the same TLS and transport settings
//! (`proto::ServerIdentity::server_config_ring_suites`, its endpoint config), so the
//! same clients ([`super::raw::flood`], [`super::raw::paced`]) run against
//! it unchanged — but over quinn's deterministic core (`quinn_proto`:
//! `Endpoint`, `Connection`) driven by ONE named OS thread of our own
//! ([`THREAD_NAME`], inside the `caipan-srv` group the bench counts)
//! instead of quinn's tasks (an endpoint driver task, a driver task and an
//! unbounded event channel per connection, and the echo's own task).
//!
//! The thread (I/O 外壳 over the 状态机 core):
//! - sleeps in `poll(2)` on the UDP socket and a wake socket, with the
//!   earliest connection deadline as its timeout: one wake per burst of
//!   datagrams or per due timer, nothing in between (no runtime, no task
//!   wakes, no channel: the fewest wakes a blocking design gives;
//!   `poll(2)` rather than mio or a Tokio current-thread runtime because
//!   one thread waiting on two descriptors needs no registration at all);
//! - receives with `quinn_udp` in batches (`recvmmsg`, GRO where the
//!   kernel has it), feeds each datagram to `Endpoint::handle`, accepts
//!   every new connection (as quinn's `Incoming` does) into a `Vec`
//!   indexed by the connection's handle;
//! - drives each connection that had something happen (once per batch):
//!   its events drained, the echo's stream read and the replies written
//!   (reading stops while [`OWED_MAX`] reply bytes wait for the send
//!   window, so a peer that never reads is held back by flow control, and
//!   per connection the shell keeps two counters, not a buffer), its
//!   endpoint events handed to the endpoint, its datagrams polled and sent
//!   (GSO where the kernel has it);
//! - runs timers from one heap of (deadline, handle) (`proto::shell::timers`): a connection
//!   whose deadline moved pushes the new one, entries that no longer match
//!   their connection's deadline are skipped when they come up, and the
//!   heap is compacted when stale entries outnumber the connections;
//! - removes a connection when it reports itself drained (its endpoint
//!   events handed over first).
//!
//! [`ShellEchoServer::close`] closes every connection and refuses new
//! ones; the thread ends when all are drained (or after [`CLOSE_GRACE`]).
//! Nothing a peer sends can panic it: datagrams go to quinn's parser,
//! stream bytes are only counted.

use super::raw::{EchoTarget, RawError};
use bytes::{Bytes, BytesMut};
use proto::shell::io::{handle, receive, wait, Datagrams, Io};
use proto::shell::timers::{disarm, Timers};
use proto::ServerIdentity;
use quinn_proto::{
    ConnectionHandle, DatagramEvent, Dir, Endpoint, Incoming, ReadError, StreamId, WriteError,
};
use quinn_udp::RecvMeta;
use std::collections::VecDeque;
use std::net::{SocketAddr, UdpSocket};
use std::os::unix::net::UnixDatagram;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The shell thread's name: it starts with `caipan-srv`, so the bench
/// counts its CPU with the raw server's (`procstat` groups by prefix).
pub const THREAD_NAME: &str = "caipan-srv-raw";

/// Reply bytes a connection may owe (written to neither the stream nor
/// its send buffer yet) before the shell stops reading its requests.
pub const OWED_MAX: usize = 64 * 1024;

/// How long a closing shell waits for its connections to drain.
pub const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// Datagrams one connection may send per drive before the others have
/// their turn (quinn's connection driver stops at 20 too).
const TRANSMITS_PER_DRIVE: usize = 20;

/// The replies' bytes (the echo sends zeros, as [`super::raw::EchoServer`]).
static ZEROS: [u8; 4096] = [0; 4096];

/// What the shell did so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ShellStats {
    /// Returns from `poll(2)`: the thread's wakes.
    pub wakes: u64,
    /// `recvmmsg` calls that returned datagrams.
    pub recv_batches: u64,
    /// Datagrams received (GRO segments counted one by one).
    pub datagrams_in: u64,
    /// Send calls (one per transmit, several datagrams with GSO).
    pub transmits: u64,
    /// Datagrams sent.
    pub datagrams_out: u64,
    /// Transmits dropped because the socket stayed full or failed.
    pub send_failures: u64,
    /// Connections accepted.
    pub accepted: u64,
    /// Connections drained and removed.
    pub closed: u64,
    /// Connections held now.
    pub open: u64,
    /// Request frames read (whole ones).
    pub frames: u64,
}

/// The shell's figures, published by its thread once per wake.
#[derive(Debug, Default)]
struct Published([AtomicU64; 10]);

impl Published {
    fn store(&self, s: &ShellStats) {
        let v = [
            s.wakes,
            s.recv_batches,
            s.datagrams_in,
            s.transmits,
            s.datagrams_out,
            s.send_failures,
            s.accepted,
            s.closed,
            s.open,
            s.frames,
        ];
        for (a, v) in self.0.iter().zip(v) {
            a.store(v, Relaxed);
        }
    }

    fn load(&self) -> ShellStats {
        let v: Vec<u64> = self.0.iter().map(|a| a.load(Relaxed)).collect();
        ShellStats {
            wakes: v[0],
            recv_batches: v[1],
            datagrams_in: v[2],
            transmits: v[3],
            datagrams_out: v[4],
            send_failures: v[5],
            accepted: v[6],
            closed: v[7],
            open: v[8],
            frames: v[9],
        }
    }
}

/// The echo server over `quinn_proto`, on its own thread.
pub struct ShellEchoServer {
    pub addr: SocketAddr,
    pub fingerprint: proto::Fingerprint,
    /// A byte here asks the thread to close.
    wake: UnixDatagram,
    published: Arc<Published>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl EchoTarget for ShellEchoServer {
    fn addr(&self) -> SocketAddr {
        self.addr
    }

    fn fingerprint(&self) -> proto::Fingerprint {
        self.fingerprint
    }
}

impl ShellEchoServer {
    /// Binds on `addr` (port 0: any) and serves the echo of `req`-byte
    /// requests with `resp`-byte replies on the [`THREAD_NAME`] thread.
    pub fn start(addr: SocketAddr, req: usize, resp: usize) -> Result<ShellEchoServer, RawError> {
        if req == 0 {
            return Err(RawError::Connect("the request frame is empty".into()));
        }
        let identity = ServerIdentity::generate()?;
        let server_config = Arc::new(identity.server_config_ring_suites()?);
        let endpoint_config = Arc::new(identity.endpoint_config());
        let socket = UdpSocket::bind(addr)?;
        let addr = socket.local_addr()?;
        let io = Io::new(socket)?;
        let (wake, wake_thread) = UnixDatagram::pair()?;
        wake.set_nonblocking(true)?;
        wake_thread.set_nonblocking(true)?;
        let published = Arc::new(Published::default());
        let out = published.clone();
        let thread = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let endpoint =
                    Endpoint::new(endpoint_config, Some(server_config), io.allow_mtud, None);
                Shell {
                    io,
                    wake: wake_thread,
                    endpoint,
                    conns: Vec::new(),
                    timers: Timers::default(),
                    dirty: VecDeque::new(),
                    send_buf: Vec::new(),
                    resp_buf: Vec::new(),
                    echo: (req, resp),
                    closing: None,
                    stats: ShellStats::default(),
                    published: out,
                }
                .run();
            })?;
        Ok(ShellEchoServer {
            addr,
            fingerprint: identity.fingerprint(),
            wake,
            published,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// What the shell did so far (as of its last wake).
    pub fn stats(&self) -> ShellStats {
        self.published.load()
    }

    /// Closes every connection and refuses new ones; returns at once (the
    /// thread ends when they are drained).
    pub fn close(&self) {
        let _ = self.wake.send(&[1]);
    }

    /// Closes and waits for the thread to end; its last figures.
    pub fn shutdown(&self) -> ShellStats {
        self.close();
        let thread = self.thread.lock().ok().and_then(|mut t| t.take());
        if let Some(t) = thread {
            if t.join().is_err() {
                tracing::error!("the raw shell's thread panicked");
            }
        }
        self.stats()
    }
}

impl Drop for ShellEchoServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// One connection and its echo.
struct Conn {
    conn: quinn_proto::Connection,
    /// The echo's stream (the client opens one; the next one is taken
    /// when it ends).
    stream: Option<StreamId>,
    /// Bytes of a request not yet whole.
    carry: usize,
    /// Reply bytes not yet written.
    owed: usize,
    /// The stream's receiving side finished, was reset or is gone.
    recv_done: bool,
    /// The deadline this connection has in the heap.
    armed: Option<Instant>,
    /// In the shell's list of connections to drive.
    dirty: bool,
}

impl Conn {
    /// Drains the application events and takes the client's stream.
    fn events(&mut self) {
        while self.conn.poll().is_some() {}
        if self.stream.is_none() {
            self.stream = self.conn.streams().accept(Dir::Bi);
        }
    }

    /// Reads what came on the stream (while little is owed) and writes the
    /// replies; returns the whole requests read. A finished stream is
    /// finished in turn and the next one taken.
    fn echo(&mut self, (req, resp): (usize, usize)) -> u64 {
        let Some(id) = self.stream else { return 0 };
        self.flush(id);
        let mut frames = 0u64;
        if !self.recv_done && self.owed < OWED_MAX {
            match self.conn.recv_stream(id).read(true) {
                Ok(mut chunks) => {
                    while self.owed < OWED_MAX {
                        match chunks.next(usize::MAX) {
                            Ok(Some(chunk)) => {
                                let have = self.carry + chunk.bytes.len();
                                let whole = have / req;
                                self.carry = have % req;
                                self.owed = self.owed.saturating_add(whole.saturating_mul(resp));
                                frames += whole as u64;
                            }
                            Ok(None) | Err(ReadError::Reset(_)) => {
                                self.recv_done = true;
                                break;
                            }
                            Err(ReadError::Blocked) => break,
                        }
                    }
                    // What to tell the peer goes out with the next poll
                    // of transmits, after this drive.
                    let _ = chunks.finalize();
                }
                Err(_) => self.recv_done = true,
            }
            self.flush(id);
        }
        if self.recv_done && self.owed == 0 {
            let _ = self.conn.send_stream(id).finish();
            self.stream = None;
            self.carry = 0;
            self.recv_done = false;
            self.stream = self.conn.streams().accept(Dir::Bi);
        }
        frames
    }

    /// Writes owed reply bytes while the stream takes them.
    fn flush(&mut self, id: StreamId) {
        while self.owed > 0 {
            let n = self.owed.min(ZEROS.len());
            match self.conn.send_stream(id).write(&ZEROS[..n]) {
                Ok(0) | Err(WriteError::Blocked) => break,
                Ok(k) => self.owed -= k.min(self.owed),
                Err(_) => {
                    // Stopped by the peer, or gone: nothing more to echo.
                    self.owed = 0;
                    self.recv_done = true;
                }
            }
        }
    }
}

/// The thread's state.
struct Shell {
    io: Io,
    wake: UnixDatagram,
    endpoint: Endpoint,
    /// Connections by handle (`ConnectionHandle.0`).
    conns: Vec<Option<Conn>>,
    /// (deadline, handle), earliest first; stale entries skipped.
    timers: Timers,
    /// Connections to drive.
    dirty: VecDeque<usize>,
    send_buf: Vec<u8>,
    resp_buf: Vec<u8>,
    /// (request, reply) frame sizes.
    echo: (usize, usize),
    /// When the close began.
    closing: Option<Instant>,
    stats: ShellStats,
    published: Arc<Published>,
}

impl Shell {
    fn run(mut self) {
        loop {
            let now = Instant::now();
            self.fire_timers(now);
            self.drive_dirty(now);
            self.compact_timers();
            self.publish();
            if let Some(since) = self.closing {
                if self.stats.open == 0 || now >= since + CLOSE_GRACE {
                    break;
                }
            }
            let timeout = self
                .next_deadline()
                .map(|at| at.saturating_duration_since(now));
            let timeout = match self.closing {
                Some(since) => {
                    let left = (since + CLOSE_GRACE).saturating_duration_since(now);
                    Some(timeout.map_or(left, |t| t.min(left)))
                }
                None => timeout,
            };
            let ready = wait(
                [(&self.io.socket, libc::POLLIN), (&self.wake, libc::POLLIN)],
                timeout,
            );
            self.stats.wakes += 1;
            if ready[1] {
                let mut b = [0u8; 16];
                while self.wake.recv(&mut b).is_ok() {}
                if self.closing.is_none() {
                    self.begin_close(Instant::now());
                }
            }
            if ready[0] {
                receive(&mut self);
            }
        }
        self.publish();
    }

    /// The figures, the socket's counts with the shell's.
    fn publish(&mut self) {
        let c = self.io.counts;
        self.stats.recv_batches = c.recv_batches;
        self.stats.datagrams_in = c.datagrams_in;
        self.stats.transmits = c.transmits;
        self.stats.datagrams_out = c.datagrams_out;
        self.stats.send_failures = c.send_failures;
        self.published.store(&self.stats);
    }

    /// Closes every connection (CONNECTION_CLOSE, code 0, "done").
    fn begin_close(&mut self, now: Instant) {
        self.closing = Some(now);
        for h in 0..self.conns.len() {
            if let Some(c) = self.conns[h].as_mut() {
                c.conn.close(now, 0u32.into(), Bytes::from_static(b"done"));
                self.mark(h);
            }
        }
    }

    fn mark(&mut self, h: usize) {
        if let Some(c) = self.conns.get_mut(h).and_then(Option::as_mut) {
            if !c.dirty {
                c.dirty = true;
                self.dirty.push_back(h);
            }
        }
    }

    /// Handles every deadline that has passed.
    fn fire_timers(&mut self, now: Instant) {
        while let Some(h) = self.timers.pop_due(now, |h, at| {
            let armed = self.conns.get_mut(h).and_then(Option::as_mut);
            disarm(armed.map(|c| &mut c.armed), at)
        }) {
            if let Some(c) = self.conns.get_mut(h).and_then(Option::as_mut) {
                c.conn.handle_timeout(now);
            }
            self.mark(h);
        }
    }

    /// A live connection's armed deadline.
    fn armed(conns: &[Option<Conn>], h: usize) -> Option<Instant> {
        conns.get(h).and_then(Option::as_ref).and_then(|c| c.armed)
    }

    /// The earliest live deadline.
    fn next_deadline(&mut self) -> Option<Instant> {
        let conns = &self.conns;
        self.timers.next_deadline(|h| Self::armed(conns, h))
    }

    /// Drops the stale entries once they outnumber the connections.
    fn compact_timers(&mut self) {
        let conns = &self.conns;
        let live = self.stats.open as usize;
        self.timers.compact(live, |h| Self::armed(conns, h));
    }

    /// Accepts a new connection (refuses it while closing).
    fn incoming(&mut self, now: Instant, incoming: Incoming) {
        self.resp_buf.clear();
        if self.closing.is_some() {
            let t = self.endpoint.refuse(incoming, &mut self.resp_buf);
            self.io.send(&t, &self.resp_buf);
            return;
        }
        match self
            .endpoint
            .accept(incoming, now, &mut self.resp_buf, None)
        {
            Ok((h, conn)) => {
                if self.conns.len() <= h.0 {
                    self.conns.resize_with(h.0 + 1, || None);
                }
                self.conns[h.0] = Some(Conn {
                    conn,
                    stream: None,
                    carry: 0,
                    owed: 0,
                    recv_done: false,
                    armed: None,
                    dirty: false,
                });
                self.stats.accepted += 1;
                self.stats.open += 1;
                self.mark(h.0);
            }
            Err(e) => {
                if let Some(t) = e.response {
                    self.io.send(&t, &self.resp_buf);
                }
            }
        }
    }

    fn drive_dirty(&mut self, now: Instant) {
        while let Some(h) = self.dirty.pop_front() {
            self.drive(h, now);
        }
    }

    /// Drives connection `h`: events, echo, endpoint events, transmits,
    /// its deadline; removes it once drained.
    fn drive(&mut self, h: usize, now: Instant) {
        let Shell {
            conns,
            endpoint,
            io,
            send_buf,
            timers,
            dirty,
            stats,
            echo,
            ..
        } = self;
        let Some(c) = conns.get_mut(h).and_then(Option::as_mut) else {
            return;
        };
        c.dirty = false;
        let mut drained = false;
        loop {
            c.events();
            stats.frames += c.echo(*echo);
            let mut again = false;
            while let Some(event) = c.conn.poll_endpoint_events() {
                drained |= event.is_drained();
                if let Some(back) = endpoint.handle_event(ConnectionHandle(h), event) {
                    c.conn.handle_event(back);
                    again = true;
                }
            }
            if !again {
                break;
            }
        }
        let mut sent = 0;
        loop {
            if sent == TRANSMITS_PER_DRIVE {
                // More to send: after the others' turn.
                c.dirty = true;
                dirty.push_back(h);
                break;
            }
            send_buf.clear();
            match c.conn.poll_transmit(now, io.gso, send_buf) {
                Some(t) => io.send(&t, send_buf),
                None => break,
            }
            sent += 1;
        }
        let deadline = c.conn.poll_timeout();
        timers.arm(h, &mut c.armed, deadline);
        if drained {
            conns[h] = None;
            stats.open = stats.open.saturating_sub(1);
            stats.closed += 1;
        }
    }
}

impl Datagrams for Shell {
    fn io(&mut self) -> &mut Io {
        &mut self.io
    }

    /// One datagram to the endpoint, and what it says to do.
    fn datagram(&mut self, now: Instant, meta: &RecvMeta, data: BytesMut) {
        match handle(&mut self.endpoint, now, meta, data, &mut self.resp_buf) {
            Some(DatagramEvent::ConnectionEvent(h, event)) => {
                if let Some(c) = self.conns.get_mut(h.0).and_then(Option::as_mut) {
                    c.conn.handle_event(event);
                    self.mark(h.0);
                }
            }
            Some(DatagramEvent::NewConnection(incoming)) => self.incoming(now, incoming),
            Some(DatagramEvent::Response(t)) => {
                self.io.send(&t, &self.resp_buf);
            }
            None => {}
        }
    }

    fn drive_all(&mut self, now: Instant) {
        self.drive_dirty(now);
    }
}
