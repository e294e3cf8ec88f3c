//! The bench's tables on one thread (issue 40): every table connection of
//! a load process driven by quinn's state machine (`quinn_proto`) on one
//! OS thread over one UDP socket (`proto::shell::io`), the presses and
//! their acks handled on that thread too, instead of one tokio task per
//! table over quinn's endpoint and connection tasks.
//!
//! Why: a table pressing once a second costs the load generator about as
//! much CPU as it costs the server (docs/benchmarks.md, "Whether the
//! machine holds the server back"); on a 2-core machine the bench's
//! clients take the cores the server under test needs. The tables are
//! the same to the server: real QUIC with TLS, one connection and one
//! stream each, the same hello, the same press events
//! ([`super::bench_press`]) at the same phases, acks timed the same way
//! ([`super::on_reply`]). Rate mode only (no flood window, no connect
//! storm); the consoles keep quinn.

use super::TablesReport;
use super::{bench_press, hello, on_reply, Inflight, LoadOptions, Packets, TableResult};
use bytes::{Bytes, BytesMut};
use proto::shell::io::{handle, receive, wait, Datagrams, Io};
use proto::shell::timers::{disarm, Timers};
use proto::{ClientMsg, ServerMsg, WireMessage};
use quinn_proto::{
    ClientConfig, ConnectionHandle, DatagramEvent, Dir, Endpoint, EndpointConfig, Event,
    StreamEvent, StreamId, VarInt,
};
use quinn_udp::RecvMeta;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The thread's name (its CPU is the load generator's).
pub const THREAD_NAME: &str = "bench-lean";

/// Datagrams a connection may send per drive.
const TRANSMITS_PER_DRIVE: usize = 20;

/// Longest sleep between looks at the start signal.
const LOOK: Duration = Duration::from_millis(20);

/// Every table signed in within this, or the load fails.
const SIGN_IN_WITHIN: Duration = Duration::from_secs(120);

/// Where a table's connection is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Not connecting yet (queued, or waiting to try again).
    Waiting,
    /// Waiting for the TLS handshake.
    Handshake,
    /// Hello sent, waiting for `HelloOk`.
    Hello,
    /// Signed in: presses once started.
    Ready,
    /// Lost or refused.
    Gone,
}

/// One table's connection and what it measured.
struct Table {
    table: u16,
    token: String,
    /// Its connection (none before the first try).
    conn: Option<(ConnectionHandle, quinn_proto::Connection)>,
    phase: Phase,
    /// Connection tries so far.
    tries: u32,
    /// Signed in once (a later loss is the load's error, not a retry).
    signed_in: bool,
    stream: Option<StreamId>,
    /// Bytes read from the stream, not yet a whole frame.
    rx: Vec<u8>,
    /// Encoded frames not yet taken by the stream (flow control).
    tx: Vec<u8>,
    epoch: u32,
    seq: u64,
    prev_t: u64,
    /// Its presses' phase in the interval.
    phase_offset: Duration,
    next_send: Instant,
    inflight: VecDeque<Inflight>,
    r: TableResult,
    /// Its quinn deadline as armed in the timer heap.
    armed: Option<Instant>,
    marked: bool,
    /// Why it failed.
    failure: Option<String>,
}

/// The start signal: the presses' time origin and the first press's time.
pub type Go = (Instant, Instant);

/// The tables of one load process on their thread, connected; `play`
/// runs the load.
pub struct LeanTables {
    go: mpsc::Sender<Go>,
    done: std::thread::JoinHandle<(TablesReport, f64)>,
    /// How many are signed in.
    pub connected: usize,
}

/// Why the lean tables could not run.
#[derive(Debug, thiserror::Error)]
pub enum LeanError {
    #[error("lean tables: {0}")]
    Setup(String),
    #[error("table {0}: {1}")]
    Table(u16, String),
}

impl LeanTables {
    /// Connects and signs in `opts.tables` (`connect_parallel` at a time,
    /// [`TRIES`] tries each), on a new [`THREAD_NAME`] thread; `first_index` is the index
    /// of the first among all the load's tables (its press phase). Blocks
    /// until every table is signed in or one failed.
    pub fn connect(opts: &LoadOptions, first_index: usize) -> Result<LeanTables, LeanError> {
        if opts.rate.is_none_or(|r| r <= 0.0) || opts.connect_storm.is_some() {
            return Err(LeanError::Setup(
                "rate mode without a connect storm only".into(),
            ));
        }
        let setup = |e: &dyn std::fmt::Display| LeanError::Setup(e.to_string());
        let config = proto::tls::client_config(&opts.trust).map_err(|e| setup(&e))?;
        let bind: std::net::SocketAddr = if opts.server.is_ipv6() {
            (std::net::Ipv6Addr::UNSPECIFIED, 0).into()
        } else {
            (std::net::Ipv4Addr::UNSPECIFIED, 0).into()
        };
        // One socket takes what a task's endpoint each took for its share.
        let buffer = proto::conn::CLIENT_RECEIVE_BUFFER * 4;
        let (socket, _) =
            proto::udp::bind_with_receive_buffer(bind, buffer).map_err(|e| setup(&e))?;
        let io = Io::new(socket).map_err(|e| setup(&e))?;
        let (ready_tx, ready_rx) = mpsc::channel();
        let (go_tx, go_rx) = mpsc::channel();
        let opts = opts.clone();
        let done = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let mut shell = Shell::new(io, config, &opts, first_index);
                let part = shell.run(opts.duration, &ready_tx, &go_rx);
                (part, own_cpu_seconds())
            })
            .map_err(|e| setup(&e))?;
        match ready_rx.recv() {
            Ok(Ok(connected)) => Ok(LeanTables {
                go: go_tx,
                done,
                connected,
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(LeanError::Setup("the tables' thread ended".into())),
        }
    }

    /// Starts the presses (`origin`: their time's zero; `started`: when
    /// the first is due) and waits for the load's end (its duration, then
    /// its last acks or 5 s). With the report, the CPU seconds the
    /// tables' thread used in all (the thread has ended: a count of the
    /// process's threads now no longer holds it).
    pub fn play(self, go: Go) -> Result<(TablesReport, f64), LeanError> {
        let _ = self.go.send(go);
        self.done
            .join()
            .map_err(|_| LeanError::Setup("the tables' thread panicked".into()))
    }
}

/// The calling thread's CPU time so far, in seconds.
fn own_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which lives across the
    // call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// The thread's state.
struct Shell {
    io: Io,
    endpoint: Endpoint,
    tables: Vec<Table>,
    /// Connection handle → table index.
    by_handle: Vec<Option<usize>>,
    timers: Timers,
    /// (due, table index) of the next presses.
    presses: BinaryHeap<Reverse<(Instant, usize)>>,
    interval: Duration,
    dirty: Vec<usize>,
    send_buf: Vec<u8>,
    resp_buf: Vec<u8>,
    /// Set once the load started: (origin, first press, end).
    clock: Option<Clock>,
    config: ClientConfig,
    server: std::net::SocketAddr,
    /// Tables not yet connecting, in order.
    queued: VecDeque<usize>,
    /// Tables to connect again after a failed try: (when, table index).
    retries: VecDeque<(Instant, usize)>,
    /// Connections opened at once while connecting.
    parallel: usize,
}

/// Tries a table's connection gets (as `connect_tables`), and the pause
/// between two.
const TRIES: u32 = 5;
const RETRY_AFTER: Duration = Duration::from_millis(200);

/// The presses' time origin, the first press's time and the load's end.
type Clock = (Instant, Instant, Instant);

impl Shell {
    fn new(io: Io, config: ClientConfig, opts: &LoadOptions, first_index: usize) -> Shell {
        let endpoint = Endpoint::new(
            Arc::new(EndpointConfig::default()),
            None,
            io.allow_mtud,
            None,
        );
        let interval = Duration::from_secs_f64(1.0 / opts.rate.unwrap_or(1.0));
        let tables = opts
            .tables
            .iter()
            .enumerate()
            .map(|(i, (table, token))| {
                // The tables' phases spread over one interval, as the tasks'.
                let phase = interval.mul_f64(((first_index + i) as f64 * 0.618_033_988_7) % 1.0);
                Table::new(*table, token.clone(), phase)
            })
            .collect::<Vec<_>>();
        Shell {
            io,
            endpoint,
            queued: (0..tables.len()).collect(),
            tables,
            by_handle: Vec::new(),
            timers: Timers::default(),
            presses: BinaryHeap::new(),
            interval,
            dirty: Vec::new(),
            send_buf: Vec::new(),
            resp_buf: Vec::new(),
            clock: None,
            config,
            server: opts.server,
            retries: VecDeque::new(),
            parallel: opts.connect_parallel.max(1),
        }
    }

    /// Starts connections while fewer than `parallel` are under way, and
    /// the retries that are due.
    fn connect_more(&mut self, now: Instant) {
        let under_way = |t: &Table| matches!(t.phase, Phase::Handshake | Phase::Hello);
        let mut busy = self.tables.iter().filter(|t| under_way(t)).count();
        while busy < self.parallel {
            let due = self.retries.front().is_some_and(|(at, _)| *at <= now);
            let next = if due {
                self.retries.pop_front().map(|(_, i)| i)
            } else {
                self.queued.pop_front()
            };
            let Some(i) = next else { break };
            self.open(i, now);
            busy += 1;
        }
    }

    /// A new connection for table `i` (its old one, if any, forgotten).
    fn open(&mut self, i: usize, now: Instant) {
        let made = self.endpoint.connect(
            now,
            self.config.clone(),
            self.server,
            proto::tls::SERVER_NAME,
        );
        let Some(t) = self.tables.get_mut(i) else {
            return;
        };
        if let Some((old, _)) = t.conn.take() {
            if let Some(slot) = self.by_handle.get_mut(old.0) {
                *slot = None;
            }
        }
        t.tries += 1;
        match made {
            Ok((h, conn)) => {
                t.conn = Some((h, conn));
                t.phase = Phase::Handshake;
                t.stream = None;
                t.rx.clear();
                t.tx.clear();
                t.armed = None;
                if self.by_handle.len() <= h.0 {
                    self.by_handle.resize(h.0 + 1, None);
                }
                self.by_handle[h.0] = Some(i);
                self.mark(i);
            }
            Err(e) => t.fail(e.to_string()),
        }
    }

    fn mark(&mut self, i: usize) {
        if let Some(t) = self.tables.get_mut(i) {
            if !t.marked {
                t.marked = true;
                self.dirty.push(i);
            }
        }
    }

    fn run(
        &mut self,
        duration: Duration,
        ready: &mpsc::Sender<Result<usize, LeanError>>,
        go: &mpsc::Receiver<Go>,
    ) -> TablesReport {
        let deadline = Instant::now() + SIGN_IN_WITHIN;
        let mut told = false;
        loop {
            let now = Instant::now();
            self.fire_timers(now);
            self.drive_dirty(now);
            if !told {
                self.connect_more(now);
                self.drive_dirty(now);
                if let Some(result) = self.readiness(now, deadline) {
                    told = true;
                    let failed = result.is_err();
                    let _ = ready.send(result);
                    if failed {
                        return TablesReport::default();
                    }
                }
            }
            if told && self.clock.is_none() {
                match go.try_recv() {
                    Ok((origin, started)) => self.start((origin, started, started + duration)),
                    Err(mpsc::TryRecvError::Empty) => {}
                    Err(mpsc::TryRecvError::Disconnected) => return TablesReport::default(),
                }
            }
            if let Some((_, _, end)) = self.clock {
                // Only past the end: the scan of every table's in-flight
                // presses is not for each wake of the load.
                if now >= end
                    && (now > end + Duration::from_secs(5)
                        || self.tables.iter().all(|t| t.inflight.is_empty()))
                {
                    return self.finish(now);
                }
            }
            let mut timeout = self
                .next_deadline()
                .map(|at| at.saturating_duration_since(now));
            if self.clock.is_none() {
                timeout = Some(timeout.map_or(LOOK, |t| t.min(LOOK)));
            }
            if let Some((at, _)) = self.retries.front() {
                let until = at.saturating_duration_since(now);
                timeout = Some(timeout.map_or(until, |t| t.min(until)));
            }
            let [readable] = wait([(&self.io.socket, libc::POLLIN)], timeout);
            if readable {
                receive(self);
            }
        }
    }

    /// `Some` once every table is signed in (their count) or one cannot
    /// be.
    /// A table that failed to sign in is tried again later (up to
    /// [`TRIES`] times).
    fn readiness(&mut self, now: Instant, deadline: Instant) -> Option<Result<usize, LeanError>> {
        for (i, t) in self.tables.iter_mut().enumerate() {
            if t.phase != Phase::Gone {
                continue;
            }
            if t.signed_in || t.tries >= TRIES {
                let why = t
                    .failure
                    .clone()
                    .unwrap_or_else(|| "connection lost".into());
                return Some(Err(LeanError::Table(t.table, why)));
            }
            t.phase = Phase::Waiting;
            self.retries.push_back((now + RETRY_AFTER, i));
        }
        let waiting = self.tables.iter().find(|t| t.phase != Phase::Ready);
        match waiting {
            None => Some(Ok(self.tables.len())),
            Some(t) if now >= deadline => Some(Err(LeanError::Table(
                t.table,
                "not signed in in time".into(),
            ))),
            Some(_) => None,
        }
    }

    /// The load starts: each table's first press at its phase after the
    /// first press's time.
    fn start(&mut self, clock: Clock) {
        let (_, started, _) = clock;
        for (i, t) in self.tables.iter_mut().enumerate() {
            t.next_send = started + t.phase_offset;
            t.r.connect_packets = t.packets();
            self.presses.push(Reverse((t.next_send, i)));
        }
        self.clock = Some(clock);
    }

    /// Sends every press that is due, and handles every quinn deadline
    /// that passed.
    fn fire_timers(&mut self, now: Instant) {
        while let Some(Reverse((at, i))) = self.presses.peek().copied() {
            if at > now {
                break;
            }
            self.presses.pop();
            self.press(i);
        }
        loop {
            let tables = &mut self.tables;
            let due = self.timers.pop_due(now, |h, at| {
                disarm(tables.get_mut(h).map(|t| &mut t.armed), at)
            });
            let Some(i) = due else { break };
            if let Some((_, conn)) = self.tables.get_mut(i).and_then(|t| t.conn.as_mut()) {
                conn.handle_timeout(now);
            }
            self.mark(i);
        }
    }

    /// Table `i`'s press, and when its next one is due.
    fn press(&mut self, i: usize) {
        let Some((origin, _, end)) = self.clock else {
            return;
        };
        let interval = self.interval;
        let Some(t) = self.tables.get_mut(i) else {
            return;
        };
        let now = Instant::now();
        if t.phase != Phase::Ready || now >= end {
            return;
        }
        t.seq += 1;
        let t_ms = origin.elapsed().as_millis() as u64;
        let msg = ClientMsg::Event(bench_press(t.table, t.epoch, t.seq, (t_ms, t.prev_t)));
        if proto::frame::append_frame(&msg, &mut t.tx).is_err() {
            t.fail("a press does not encode".into());
            return;
        }
        t.inflight.push_back((t.seq, now, (t_ms, t.prev_t)));
        t.prev_t = t_ms;
        t.r.sent += 1;
        t.write();
        t.next_send += interval;
        if t.next_send < end {
            self.presses.push(Reverse((t.next_send, i)));
        }
        self.mark(i);
    }

    fn next_deadline(&mut self) -> Option<Instant> {
        let tables = &self.tables;
        let quinn = self
            .timers
            .next_deadline(|h| tables.get(h).and_then(|t| t.armed));
        let press = self.presses.peek().map(|Reverse((at, _))| *at);
        match (quinn, press) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn drive_dirty(&mut self, now: Instant) {
        while let Some(i) = self.dirty.pop() {
            self.drive(i, now);
        }
        let tables = &self.tables;
        self.timers
            .compact(tables.len(), |h| tables.get(h).and_then(|t| t.armed));
    }

    /// Drives table `i`'s connection: its events, its endpoint events,
    /// its datagrams, its deadline.
    fn drive(&mut self, i: usize, now: Instant) {
        let clock = self.clock;
        let Some(t) = self.tables.get_mut(i) else {
            return;
        };
        t.marked = false;
        loop {
            while let Some(event) = t.conn.as_mut().and_then(|(_, c)| c.poll()) {
                t.on_event(event, clock);
            }
            let Some((h, conn)) = t.conn.as_mut() else {
                return;
            };
            let mut again = false;
            while let Some(event) = conn.poll_endpoint_events() {
                if let Some(back) = self.endpoint.handle_event(*h, event) {
                    conn.handle_event(back);
                    again = true;
                }
            }
            if !again {
                break;
            }
        }
        let Some((_, conn)) = t.conn.as_mut() else {
            return;
        };
        let mut sent = 0;
        while sent < TRANSMITS_PER_DRIVE {
            self.send_buf.clear();
            match conn.poll_transmit(now, self.io.gso, &mut self.send_buf) {
                Some(tx) => self.io.send(&tx, &self.send_buf),
                None => break,
            }
            sent += 1;
        }
        let deadline = conn.poll_timeout();
        self.timers.arm(i, &mut t.armed, deadline);
        if sent == TRANSMITS_PER_DRIVE {
            self.mark(i);
        }
    }

    /// The load's figures; every connection closed.
    fn finish(&mut self, now: Instant) -> TablesReport {
        let mut part = TablesReport::default();
        for t in &mut self.tables {
            let mut r = std::mem::take(&mut t.r);
            if t.phase != Phase::Ready {
                r.errors += 1;
            }
            r.packets = t.packets().since(r.connect_packets);
            super::add_table(&mut part, r);
            if let Some((_, conn)) = t.conn.as_mut() {
                conn.close(now, VarInt::from_u32(0), Bytes::from_static(b"bench done"));
            }
        }
        for i in 0..self.tables.len() {
            self.drive(i, now);
        }
        part
    }
}

impl Datagrams for Shell {
    fn io(&mut self) -> &mut Io {
        &mut self.io
    }

    fn datagram(&mut self, now: Instant, meta: &RecvMeta, data: BytesMut) {
        match handle(&mut self.endpoint, now, meta, data, &mut self.resp_buf) {
            Some(DatagramEvent::ConnectionEvent(h, event)) => {
                if let Some(i) = self.by_handle.get(h.0).copied().flatten() {
                    let conn = self.tables.get_mut(i).and_then(|t| t.conn.as_mut());
                    if let Some((_, conn)) = conn.filter(|(own, _)| *own == h) {
                        conn.handle_event(event);
                        self.mark(i);
                    }
                }
            }
            Some(DatagramEvent::Response(t)) => self.io.send(&t, &self.resp_buf),
            // A client accepts no connections.
            Some(DatagramEvent::NewConnection(incoming)) => self.endpoint.ignore(incoming),
            None => {}
        }
    }

    fn drive_all(&mut self, now: Instant) {
        self.drive_dirty(now);
    }
}

impl Table {
    fn new(table: u16, token: String, phase_offset: Duration) -> Table {
        Table {
            table,
            token,
            conn: None,
            phase: Phase::Waiting,
            tries: 0,
            signed_in: false,
            stream: None,
            rx: Vec::new(),
            tx: Vec::new(),
            epoch: 1,
            seq: 0,
            prev_t: 0,
            phase_offset,
            next_send: Instant::now(),
            inflight: VecDeque::new(),
            r: TableResult::default(),
            armed: None,
            marked: false,
            failure: None,
        }
    }

    fn fail(&mut self, why: String) {
        self.phase = Phase::Gone;
        self.failure = Some(why);
    }

    /// Its connection's packet counts so far.
    fn packets(&self) -> Packets {
        self.conn
            .as_ref()
            .map_or_else(Packets::default, |(_, c)| Packets::from_stats(&c.stats()))
    }

    fn on_event(&mut self, event: Event, clock: Option<Clock>) {
        match event {
            Event::Connected => {
                let opened = self
                    .conn
                    .as_mut()
                    .and_then(|(_, c)| c.streams().open(Dir::Bi));
                let Some(id) = opened else {
                    self.fail("the server allows no stream".into());
                    return;
                };
                self.stream = Some(id);
                let msg = ClientMsg::Hello(hello(&self.token));
                match proto::frame::append_frame(&msg, &mut self.tx) {
                    Ok(()) => {
                        self.phase = Phase::Hello;
                        self.write();
                    }
                    Err(e) => self.fail(format!("hello: {e}")),
                }
            }
            Event::ConnectionLost { reason } if self.phase != Phase::Gone => {
                self.fail(reason.to_string());
            }
            Event::Stream(StreamEvent::Readable { id }) if Some(id) == self.stream => {
                self.read(clock);
            }
            Event::Stream(StreamEvent::Writable { id }) if Some(id) == self.stream => self.write(),
            _ => {}
        }
    }

    /// Hands the stream what it takes of the frames waiting.
    fn write(&mut self) {
        let (Some(id), Some((_, conn))) = (self.stream, self.conn.as_mut()) else {
            return;
        };
        if self.tx.is_empty() || self.phase == Phase::Gone {
            return;
        }
        match conn.send_stream(id).write(&self.tx) {
            Ok(n) => {
                self.tx.drain(..n);
            }
            Err(quinn_proto::WriteError::Blocked) => {}
            Err(e) => self.fail(format!("write: {e}")),
        }
    }

    /// Reads what the stream has and handles each whole frame.
    fn read(&mut self, clock: Option<Clock>) {
        let (Some(id), Some((_, conn))) = (self.stream, self.conn.as_mut()) else {
            return;
        };
        let mut ended = false;
        {
            let mut stream = conn.recv_stream(id);
            let Ok(mut chunks) = stream.read(true) else {
                return;
            };
            loop {
                match chunks.next(usize::MAX) {
                    Ok(Some(chunk)) => self.rx.extend_from_slice(&chunk.bytes),
                    Ok(None) => {
                        ended = true;
                        break;
                    }
                    Err(quinn_proto::ReadError::Blocked) => break,
                    Err(_) => {
                        ended = true;
                        break;
                    }
                }
            }
            // The flow-control credit goes out with the next transmit.
            let _ = chunks.finalize();
        }
        let mut at = 0;
        while let Some(prefix) = self.rx.get(at..at + 4) {
            let len = u32::from_be_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
            if len > ServerMsg::MAX_FRAME {
                self.fail(format!("a frame of {len} bytes"));
                return;
            }
            let Some(body) = self.rx.get(at + 4..at + 4 + len) else {
                break;
            };
            let msg = ServerMsg::decode(body);
            at += 4 + len;
            self.on_message(msg, clock);
        }
        self.rx.drain(..at);
        if ended && self.phase != Phase::Gone {
            self.fail("the server ended the stream".into());
        }
    }

    fn on_message(&mut self, msg: Result<ServerMsg, proto::CodecError>, clock: Option<Clock>) {
        match (self.phase, msg) {
            (Phase::Hello, Ok(ServerMsg::HelloOk(ok))) => {
                self.epoch = ok.table.as_ref().map_or(0, |s| s.epoch) + 1;
                self.phase = Phase::Ready;
                self.signed_in = true;
            }
            (Phase::Hello, Ok(ServerMsg::Error(e))) => self.fail(format!("refused: {e:?}")),
            (Phase::Hello, Ok(other)) => self.fail(format!(
                "expected HelloOk, got {}",
                proto::conn::server_msg_name(&other)
            )),
            (Phase::Ready, msg) => {
                let Some((_, started, end)) = clock else {
                    return;
                };
                let msg = msg.map_err(|e| proto::ConnError::from(proto::FrameError::from(e)));
                if !on_reply(msg, &mut self.inflight, (started, end, None), &mut self.r) {
                    self.fail("a reply does not decode".into());
                }
            }
            (_, Err(e)) => self.fail(format!("a reply does not decode: {e}")),
            _ => {}
        }
    }
}
