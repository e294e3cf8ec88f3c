//! The hall load generator behind `caipan bench hall`: N table connections
//! pressing clocks and subscribed consoles (the chief's, and more such as
//! deputies'), against a running server;
//! plus the raw QUIC baseline ([`raw`]), process figures ([`procstat`]) and
//! viewers that never read ([`stalled`]).
//!
//! Each table connection is a lean terminal (no outbox: the bench measures
//! the server) that sends `ClockPress` events, either as fast as
//! acknowledgements allow with a pipelining window (flood), or at a fixed
//! rate per table with a random phase. Every press carries its send time
//! in its clock times (`red_ms = black_ms = BASE - t`, which only ever go
//! down, as a real clock's do), so the console can tell how long each press
//! took to reach it from the `Delta::Table` (or `Delta::TableStep`) it
//! receives. Acknowledged counts and latencies are what the clients saw,
//! over the whole run and second by second ([`timeline`]).

#[cfg(unix)]
pub mod lean;
pub mod procstat;
pub mod raw;
#[cfg(unix)]
pub mod raw_shell;
pub mod stalled;
pub mod stats;
pub mod storm;
pub mod timeline;

use proto::{
    ClientMsg, Command, Connector, Delta, EventEnvelope, Hello, ServerMsg, Side, TableEvent, Trust,
    PROTOCOL_VERSION,
};
use stats::Samples;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use timeline::Timeline;
use tokio::sync::Semaphore;

/// Clock value the press times count down from (ms): the base of the
/// bench hall's time control (80 minutes, Fischer), so a table's first
/// press finds the clocks where the server's control starts them.
pub const CLOCK_BASE_MS: u64 = 80 * 60_000;

/// What to run.
#[derive(Clone)]
pub struct LoadOptions {
    pub server: SocketAddr,
    pub trust: Trust,
    /// Tables with their tokens.
    pub tables: Vec<(u16, String)>,
    /// A console token (chief, deputy or viewer) to subscribe with.
    pub console_token: String,
    /// More consoles subscribed beside it (e.g. two deputies' tokens);
    /// their deltas count in the press-to-console figures too.
    pub more_consoles: Vec<String>,
    /// Called (on a blocking thread, awaited) after each phase of the
    /// start: `"tables_connected"` and `"consoles_subscribed"`, and a second
    /// before the end (`"load_end"`, every connection still open); `bench hall
    /// --child-server` reads the server's memory there.
    pub on_phase: Option<PhaseHook>,
    pub duration: Duration,
    /// Presses per table per second; `None`: flood.
    pub rate: Option<f64>,
    /// Flood: events in flight per connection.
    pub window: usize,
    /// Connections opened at once while connecting.
    pub connect_parallel: usize,
    /// A connect storm this long after the load's start: every table
    /// drops its connection and connects again at once ([`storm`]).
    pub connect_storm: Option<Duration>,
}

/// See [`LoadOptions::on_phase`].
pub type PhaseHook = Arc<dyn Fn(&'static str) + Send + Sync>;

/// Runs `opts.on_phase` for `phase`, if set, off the runtime's threads;
/// the time it took (the memory probe's, not the load's).
pub async fn phase(opts: &LoadOptions, phase: &'static str) -> Duration {
    let t0 = Instant::now();
    if let Some(hook) = opts.on_phase.clone() {
        let _ = tokio::task::spawn_blocking(move || hook(phase)).await;
    }
    t0.elapsed()
}

/// What the clients measured.
#[derive(Debug, Clone, Default)]
pub struct LoadReport {
    pub tables: usize,
    pub duration_s: f64,
    pub sent_events: u64,
    pub acked_events: u64,
    pub acked_per_s: f64,
    pub ack_p50_ms: f64,
    pub ack_p99_ms: f64,
    pub ack_max_ms: f64,
    pub console_samples: usize,
    pub console_p50_ms: f64,
    pub console_p99_ms: f64,
    /// Fresh snapshots the consoles got for falling behind.
    pub console_snapshots: u64,
    /// Bytes of the delta messages the consoles got (their payloads,
    /// every console's together).
    pub console_delta_bytes: u64,
    /// UDP datagrams and bytes the consoles' connections received while
    /// they read the load (every console's together).
    pub console_rx_datagrams: u64,
    pub console_rx_bytes: u64,
    /// Consoles subscribed (the chief's and `more_consoles`).
    pub consoles: usize,
    /// Each console's press-to-console p99 (ms), the chief's first.
    pub console_p99_each_ms: Vec<f64>,
    pub errors: u64,
    /// Connecting the tables and subscribing the consoles (without the
    /// phase hooks between them: the memory probe's time is `probe_s`).
    pub connect_s: f64,
    /// Seconds spent in the phase hooks ([`LoadOptions::on_phase`]: the
    /// child server's memory probe), the one a second before the end
    /// included.
    pub probe_s: f64,
    /// When the first press was due (second 0 of the timelines), Unix ms:
    /// the server's markers are set against it.
    pub started_unix_ms: u64,
    /// The acks by the second their press was sent in (`timeline`).
    pub ack_seconds: Vec<timeline::Second>,
    /// The consoles' deltas by the second their press was sent in.
    pub console_seconds: Vec<timeline::Second>,
    /// The connect storm's figures, if there was one.
    pub storm: Option<storm::StormReport>,
    /// The tables' QUIC packets while they pressed (from the first press
    /// to the end, storm reconnections included).
    pub packets: Packets,
    /// The tables' QUIC packets of connecting (handshake, hello, MTU
    /// probes: from the connection's start to its first press).
    pub connect_packets: Packets,
}

/// Why the load could not run.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Connect(#[from] proto::ConnError),
    #[error("table {0}: {1}")]
    Table(u16, String),
    #[error("task: {0}")]
    Task(String),
}

/// The press event a bench table sends at `t_ms` after the start, its
/// press before having been at `prev_t_ms` (0 for the first). The side
/// that presses reads the press's time counted down from
/// [`CLOCK_BASE_MS`]; the other side's clock is as its own last press left
/// it, as on a real clock. A console reads the press's time from the lower
/// of the two. (Issue 40: the times counted down from 100 hours, and each
/// table's first press grew both clocks from the control's 80 minutes: two
/// clock-anomaly alerts a table that no real hall raises, 20,000 at 10,000
/// tables, kept up to the alert book's 10,000.)
pub fn bench_press(
    table: u16,
    epoch: u32,
    seq: u64,
    (t_ms, prev_t_ms): (u64, u64),
) -> EventEnvelope {
    let pressed = CLOCK_BASE_MS.saturating_sub(t_ms);
    let idle = CLOCK_BASE_MS.saturating_sub(prev_t_ms);
    let by = if seq % 2 == 1 { Side::Red } else { Side::Black };
    let (red_ms, black_ms) = match by {
        Side::Red => (pressed, idle),
        Side::Black => (idle, pressed),
    };
    EventEnvelope {
        table,
        epoch,
        seq,
        body: TableEvent::ClockPress {
            by,
            mv: None,
            red_ms,
            black_ms,
            terminal_mono_ms: t_ms,
        },
    }
}

fn hello(token: &str) -> Hello {
    Hello {
        protocol_version: PROTOCOL_VERSION,
        token: token.to_string(),
        client: "caipan-bench".into(),
    }
}

#[derive(Default)]
pub struct TableResult {
    sent: u64,
    acked: u64,
    /// Each ack: the second of the window its press was sent in, and its
    /// latency in µs.
    lat: Vec<(u32, u32)>,
    errors: u64,
    storm: storm::TableStorm,
    /// The table's connection's packets before its first press.
    connect_packets: Packets,
    /// What the table's connections sent and received while it pressed.
    packets: Packets,
}

/// QUIC datagrams and frames of the tables' connections (quinn's
/// `Connection::stats()`, the client side: what it sent the server
/// received, less losses): per acknowledged event they say how many
/// packets an event costs each way, and what the keep-alives, ACKs and MTU
/// probes take of them (issue 40).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Packets {
    /// UDP datagrams sent (to the server) and received (from it).
    pub udp_tx: u64,
    pub udp_rx: u64,
    /// ACK frames sent and received.
    pub acks_tx: u64,
    pub acks_rx: u64,
    /// PING frames (keep-alives; MTU probes are PINGs too) sent, received.
    pub pings_tx: u64,
    pub pings_rx: u64,
    /// MTU discovery probes sent (by the client).
    pub mtu_probes_tx: u64,
    /// Packets the client found lost.
    pub lost: u64,
}

impl Packets {
    /// A connection's counts since it was made.
    pub fn of(connection: &quinn::Connection) -> Packets {
        Packets::from_stats(&connection.stats())
    }

    /// The counts in a connection's statistics.
    pub fn from_stats(s: &quinn::ConnectionStats) -> Packets {
        Packets {
            udp_tx: s.udp_tx.datagrams,
            udp_rx: s.udp_rx.datagrams,
            acks_tx: s.frame_tx.acks,
            acks_rx: s.frame_rx.acks,
            pings_tx: s.frame_tx.ping,
            pings_rx: s.frame_rx.ping,
            mtu_probes_tx: s.path.sent_plpmtud_probes,
            lost: s.path.lost_packets,
        }
    }

    /// The counts as an array (the child processes' wire).
    pub fn to_array(self) -> [u64; 8] {
        [
            self.udp_tx,
            self.udp_rx,
            self.acks_tx,
            self.acks_rx,
            self.pings_tx,
            self.pings_rx,
            self.mtu_probes_tx,
            self.lost,
        ]
    }

    /// [`Packets::to_array`] back.
    pub fn from_array(a: [u64; 8]) -> Packets {
        let [udp_tx, udp_rx, acks_tx, acks_rx, pings_tx, pings_rx, mtu_probes_tx, lost] = a;
        Packets {
            udp_tx,
            udp_rx,
            acks_tx,
            acks_rx,
            pings_tx,
            pings_rx,
            mtu_probes_tx,
            lost,
        }
    }

    /// The counts of `self` less those of `before` (of the same
    /// connection).
    pub fn since(self, before: Packets) -> Packets {
        let a = self.to_array();
        let b = before.to_array();
        Packets::from_array(std::array::from_fn(|i| a[i].saturating_sub(b[i])))
    }

    /// Adds another connection's counts.
    pub fn add(&mut self, other: Packets) {
        let a = self.to_array();
        let b = other.to_array();
        *self = Packets::from_array(std::array::from_fn(|i| a[i] + b[i]));
    }
}

pub struct ConsoleResult {
    lat: Samples,
    /// The same latencies by the second of the window their press was
    /// sent in.
    seconds: Timeline,
    snapshots: u64,
    /// Bytes of its delta messages, UDP datagrams and bytes received.
    traffic: [u64; 3],
}

/// Every table connected (`connect_parallel` at a time, five tries each).
pub async fn connect_tables(
    connector: &Connector,
    opts: &LoadOptions,
) -> Result<Vec<(u16, proto::ClientConn)>, LoadError> {
    let sem = Arc::new(Semaphore::new(opts.connect_parallel.max(1)));
    let mut conns = Vec::with_capacity(opts.tables.len());
    let mut pending = Vec::new();
    for (table, token) in opts.tables.iter().cloned() {
        let c = connector.clone();
        let sem = sem.clone();
        let addr = opts.server;
        pending.push(tokio::spawn(async move {
            let _permit = sem.acquire().await;
            let mut last = None;
            for _ in 0..5 {
                match c.connect(addr, hello(&token)).await {
                    Ok(conn) => return Ok((table, conn)),
                    Err(e) => last = Some(e.to_string()),
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(LoadError::Table(table, last.unwrap_or_default()))
        }));
    }
    for p in pending {
        conns.push(p.await.map_err(|e| LoadError::Task(e.to_string()))??);
    }
    Ok(conns)
}

/// A console signed in with `token`, subscribed, once the subscription's
/// snapshot came.
async fn subscribe_console(
    connector: &Connector,
    opts: &LoadOptions,
    token: &str,
) -> Result<proto::ClientConn, LoadError> {
    let mut console = connector.connect(opts.server, hello(token)).await?;
    console
        .send(&ClientMsg::Command {
            id: 1,
            command: Command::Subscribe,
        })
        .await?;
    // Wait for the subscription's snapshot (whole, or its last page)
    // before starting.
    let mut pages = proto::paging::Assembly::default();
    loop {
        match console.recv().await? {
            ServerMsg::Snapshot(_) => break,
            ServerMsg::SnapshotPage(p) => match pages.take(*p) {
                Ok(Some(_)) => break,
                Ok(None) => {}
                Err(e) => return Err(LoadError::Task(format!("subscribe: {e}"))),
            },
            ServerMsg::Error(e) => {
                return Err(LoadError::Task(format!(
                    "subscribe: {}",
                    i18n::replies::error_text(i18n::Lang::En, &e)
                )))
            }
            _ => {}
        }
    }
    Ok(console)
}

/// Runs the load; returns when the duration is over and the in-flight
/// events are answered (or 5 s passed).
pub async fn run(opts: LoadOptions) -> Result<LoadReport, LoadError> {
    let connector = Connector::new(&opts.trust, opts.server.is_ipv6())?;
    let connect_started = Instant::now();
    let conns = connect_tables(&connector, &opts).await?;
    let mut probe = phase(&opts, "tables_connected").await;
    let consoles = subscribe_consoles(&connector, &opts).await?;
    let connect_s = (connect_started.elapsed().saturating_sub(probe)).as_secs_f64();
    probe += phase(&opts, "consoles_subscribed").await;

    let n = conns.len();
    let (origin, origin_unix) = (Instant::now(), SystemTime::now());
    // Every task is spawned before the first press is due.
    let started = origin + SPAWN_MARGIN;
    let end = started + opts.duration;
    let opts = Arc::new(opts);
    let tables = spawn_tables(conns, &connector, &opts, 0, (origin, started));
    let consoles = spawn_consoles(consoles, origin, (started, end));
    // The server's figures near the end, every connection still open.
    let last_second = opts.duration.saturating_sub(Duration::from_secs(1));
    tokio::time::sleep_until((started + last_second).into()).await;
    probe += phase(&opts, "load_end").await;
    let mut report = LoadReport {
        tables: n,
        duration_s: opts.duration.as_secs_f64(),
        connect_s,
        probe_s: probe.as_secs_f64(),
        started_unix_ms: unix_ms(origin_unix + SPAWN_MARGIN),
        ..LoadReport::default()
    };
    let mut part = tables.finish().await?;
    report.storm = opts
        .connect_storm
        .map(|after| storm::summarize(after.as_secs_f64(), started + after, &part.storms));
    report.add_tables(&mut part);
    report.add_consoles(consoles.finish().await?);
    Ok(report)
}

/// Time between the load's origin and its first press, so that every
/// table's task is spawned before it.
pub const SPAWN_MARGIN: Duration = Duration::from_millis(50);

/// `t` in ms since the Unix epoch (0 before it).
pub fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Every console (`console_token` and `more_consoles`) signed in and
/// subscribed, one after the other.
pub async fn subscribe_consoles(
    connector: &Connector,
    opts: &LoadOptions,
) -> Result<Vec<proto::ClientConn>, LoadError> {
    let mut consoles = Vec::with_capacity(1 + opts.more_consoles.len());
    for token in std::iter::once(&opts.console_token).chain(&opts.more_consoles) {
        consoles.push(subscribe_console(connector, opts, token).await?);
    }
    Ok(consoles)
}

/// What a set of tables measured (one process's share of the load, or
/// all of it).
#[derive(Debug, Default)]
pub struct TablesReport {
    pub sent: u64,
    pub acked: u64,
    pub errors: u64,
    /// Every ack's latency.
    pub lat: Samples,
    /// The same by the second of the window their press was sent in.
    pub seconds: Timeline,
    /// What each table saw of the connect storm (empty without one).
    pub storms: Vec<storm::TableStorm>,
    /// The tables' QUIC packets while they pressed.
    pub packets: Packets,
    /// The tables' QUIC packets of connecting (before the first press).
    pub connect_packets: Packets,
}

impl TablesReport {
    /// Adds another set's figures (another process's tables).
    pub fn merge(&mut self, other: TablesReport) {
        self.sent += other.sent;
        self.acked += other.acked;
        self.errors += other.errors;
        self.lat.extend(other.lat);
        self.seconds.merge(other.seconds);
        self.storms.extend(other.storms);
        self.packets.add(other.packets);
        self.connect_packets.add(other.connect_packets);
    }
}

/// The tables' tasks of a running load.
pub struct TablesRun(Vec<tokio::task::JoinHandle<TableResult>>);

impl TablesRun {
    /// Waits for every table's task (the duration, then its last acks or
    /// 5 s) and sums what they measured.
    pub async fn finish(self) -> Result<TablesReport, LoadError> {
        let mut part = TablesReport::default();
        for t in self.0 {
            add_table(
                &mut part,
                t.await.map_err(|e| LoadError::Task(e.to_string()))?,
            );
        }
        Ok(part)
    }
}

/// Adds what one table measured to `part`.
fn add_table(part: &mut TablesReport, r: TableResult) {
    part.sent += r.sent;
    part.acked += r.acked;
    part.errors += r.errors;
    for (second, us) in r.lat {
        let d = Duration::from_micros(u64::from(us));
        part.lat.push(d);
        part.seconds.push(second as usize, d);
    }
    part.storms.push(r.storm);
    part.packets.add(r.packets);
    part.connect_packets.add(r.connect_packets);
}

/// Spawns one task per connected table, pressing from `started` for
/// `opts.duration`; `first_index` is the index of `conns[0]` among all
/// the load's tables (its press phase and token in `opts.tables`).
/// Press times count from `origin` (shared with the consoles, which read
/// each press's time from its clocks).
pub fn spawn_tables(
    conns: Vec<(u16, proto::ClientConn)>,
    connector: &Connector,
    opts: &Arc<LoadOptions>,
    first_index: usize,
    (origin, started): (Instant, Instant),
) -> TablesRun {
    let end = started + opts.duration;
    let tasks = conns
        .into_iter()
        .enumerate()
        .map(|(i, (table, conn))| {
            let storm = opts.connect_storm.map(|after| storm::Storm {
                connector: connector.clone(),
                server: opts.server,
                at: started + after,
            });
            let opts = opts.clone();
            tokio::spawn(async move {
                tokio::time::sleep_until(started.into()).await;
                drive_table(
                    table,
                    conn,
                    &opts,
                    (origin, end, storm),
                    (i, first_index + i),
                )
                .await
            })
        })
        .collect();
    TablesRun(tasks)
}

/// The consoles' tasks of a running load.
pub struct ConsolesRun(Vec<tokio::task::JoinHandle<ConsoleResult>>);

/// What the consoles measured.
#[derive(Debug, Default)]
pub struct ConsolesReport {
    /// Every console's samples, the chief's first.
    each: Vec<(Samples, u64)>,
    /// All consoles' samples by second.
    seconds: Timeline,
    /// Every console's delta bytes, UDP datagrams and bytes received.
    traffic: Vec<[u64; 3]>,
}

impl ConsolesRun {
    /// Waits for every console (2 s past the end) and collects their
    /// samples.
    pub async fn finish(self) -> Result<ConsolesReport, LoadError> {
        let mut each = Vec::with_capacity(self.0.len());
        let mut seconds = Timeline::default();
        let mut traffic = Vec::with_capacity(self.0.len());
        for t in self.0 {
            let c = t.await.map_err(|e| LoadError::Task(e.to_string()))?;
            each.push((c.lat, c.snapshots));
            seconds.merge(c.seconds);
            traffic.push(c.traffic);
        }
        Ok(ConsolesReport {
            each,
            seconds,
            traffic,
        })
    }
}

/// Spawns a task per subscribed console, reading its deltas until 2 s
/// past `end`; press times count from `origin`, the timeline's seconds
/// from `started` (the first press).
pub fn spawn_consoles(
    consoles: Vec<proto::ClientConn>,
    origin: Instant,
    (started, end): (Instant, Instant),
) -> ConsolesRun {
    ConsolesRun(
        consoles
            .into_iter()
            .map(|console| tokio::spawn(drive_console(console, origin, (started, end))))
            .collect(),
    )
}

impl LoadReport {
    /// Takes the tables' figures (acks counted, their latencies).
    pub fn add_tables(&mut self, part: &mut TablesReport) {
        self.sent_events += part.sent;
        self.acked_events += part.acked;
        self.errors += part.errors;
        self.acked_per_s = self.acked_events as f64 / self.duration_s.max(1e-9);
        self.ack_p50_ms = part.lat.percentile_ms(50.0);
        self.ack_p99_ms = part.lat.percentile_ms(99.0);
        self.ack_max_ms = part.lat.max_ms();
        self.ack_seconds = part.seconds.summary(self.window_seconds());
        self.packets.add(part.packets);
        self.connect_packets.add(part.connect_packets);
    }

    /// Takes the consoles' figures.
    pub fn add_consoles(&mut self, consoles: ConsolesReport) {
        let mut cl = Samples::default();
        self.consoles = consoles.each.len();
        for (mut lat, snapshots) in consoles.each {
            self.console_p99_each_ms.push(lat.percentile_ms(99.0));
            self.console_snapshots += snapshots;
            cl.extend(lat);
        }
        for [deltas, datagrams, bytes] in consoles.traffic {
            self.console_delta_bytes += deltas;
            self.console_rx_datagrams += datagrams;
            self.console_rx_bytes += bytes;
        }
        self.console_samples = cl.len();
        self.console_p50_ms = cl.percentile_ms(50.0);
        self.console_p99_ms = cl.percentile_ms(99.0);
        let mut seconds = consoles.seconds;
        self.console_seconds = seconds.summary(self.window_seconds());
    }

    /// Seconds of the measured window (the timelines' length).
    fn window_seconds(&self) -> usize {
        self.duration_s.ceil() as usize
    }
}

/// A press in flight: its sequence number, when it was sent, and its
/// time and the time of the press before it (a resend is the same event).
type Inflight = (u64, Instant, (u64, u64));

/// Queues a clock press of `table` and notes it in flight; `false` if the
/// connection is gone.
fn queue_press(
    conn: &mut proto::ClientConn,
    (table, epoch, seq): (u16, u32, u64),
    prev_t: &mut u64,
    origin: Instant,
    inflight: &mut VecDeque<Inflight>,
) -> bool {
    let t = origin.elapsed().as_millis() as u64;
    let ok = conn
        .queue(&ClientMsg::Event(bench_press(
            table,
            epoch,
            seq,
            (t, *prev_t),
        )))
        .is_ok();
    inflight.push_back((seq, Instant::now(), (t, *prev_t)));
    *prev_t = t;
    ok
}

/// A reply to a table: an ack answers every event up to its sequence
/// number (counted when before `end`, timed always). `false` if the
/// connection is gone.
fn on_reply(
    m: Result<ServerMsg, proto::ConnError>,
    inflight: &mut VecDeque<Inflight>,
    (started, end, storm_at): (Instant, Instant, Option<Instant>),
    r: &mut TableResult,
) -> bool {
    match m {
        Ok(ServerMsg::Ack(a)) => {
            let at = Instant::now();
            while inflight.front().is_some_and(|(s, ..)| *s <= a.seq) {
                if let Some((_, sent, _)) = inflight.pop_front() {
                    if at <= end {
                        r.acked += 1;
                    }
                    let second = timeline::second_of(sent.saturating_duration_since(started));
                    let us = u32::try_from((at - sent).as_micros()).unwrap_or(u32::MAX);
                    r.lat.push((u32::try_from(second).unwrap_or(u32::MAX), us));
                    if storm_at.is_some_and(|s| sent >= s) {
                        r.storm.acks.push((sent, at - sent));
                    }
                }
            }
            true
        }
        Ok(ServerMsg::Error(_)) => {
            r.errors += 1;
            true
        }
        Ok(_) => true,
        Err(_) => false,
    }
}

/// The presses one table sends: the next sequence number, the time of the
/// last press, and when (rate mode) the next press is due.
struct Presses {
    seq: u64,
    prev_t: u64,
    window: usize,
    interval: Option<Duration>,
    next_send: Instant,
}

impl Presses {
    fn new(opts: &LoadOptions, index: usize) -> Presses {
        let interval = opts
            .rate
            .filter(|r| *r > 0.0)
            .map(|r| Duration::from_secs_f64(1.0 / r));
        // Rate mode: spread the tables' phases over one interval.
        let next_send = match interval {
            Some(iv) => Instant::now() + iv.mul_f64((index as f64 * 0.618_033_988_7) % 1.0),
            None => Instant::now(),
        };
        Presses {
            seq: 0,
            prev_t: 0,
            window: opts.window.max(1),
            interval,
            next_send,
        }
    }

    /// Queues what is due (flood: up to the window; rate: one press when
    /// its time came) and flushes; `false` if the connection is gone.
    async fn send_due(
        &mut self,
        conn: &mut proto::ClientConn,
        (table, epoch): (u16, u32),
        origin: Instant,
        inflight: &mut VecDeque<Inflight>,
        r: &mut TableResult,
    ) -> bool {
        let mut queued = false;
        let due = match self.interval {
            None => self.window.saturating_sub(inflight.len()),
            Some(iv) if Instant::now() >= self.next_send => {
                self.next_send += iv;
                1
            }
            Some(_) => 0,
        };
        for _ in 0..due {
            self.seq += 1;
            if !queue_press(
                conn,
                (table, epoch, self.seq),
                &mut self.prev_t,
                origin,
                inflight,
            ) {
                return false;
            }
            r.sent += 1;
            queued = true;
        }
        !queued || conn.flush().await.is_ok()
    }
}

async fn drive_table(
    table: u16,
    mut conn: proto::ClientConn,
    opts: &LoadOptions,
    (origin, end, storm): (Instant, Instant, Option<storm::Storm>),
    (index, phase_index): (usize, usize),
) -> TableResult {
    let epoch = conn.hello_ok.table.as_ref().map_or(0, |s| s.epoch) + 1;
    let mut r = TableResult {
        connect_packets: Packets::of(&conn.connection),
        ..TableResult::default()
    };
    // The counts of the connection now in use, from this mark on.
    let mut mark = r.connect_packets;
    let mut inflight: VecDeque<Inflight> = VecDeque::new();
    let mut presses = Presses::new(opts, phase_index);
    let mut storm_due = storm.as_ref().map(|s| s.at).filter(|at| *at < end);
    let storm_at = storm_due;
    let started = end.checked_sub(opts.duration).unwrap_or(origin);
    let played = 'play: loop {
        let now = Instant::now();
        let sending = now < end;
        if !sending && (inflight.is_empty() || now > end + Duration::from_secs(5)) {
            break 'play true;
        }
        if let (Some(s), Some(at)) = (&storm, storm_due) {
            if now >= at {
                storm_due = None;
                let token = &opts.tables[index].1;
                r.packets.add(Packets::of(&conn.connection).since(mark));
                mark = Packets::of(&conn.connection);
                if !storm::rejoin(s, &mut conn, token, (table, epoch), &inflight, &mut r.storm)
                    .await
                {
                    break 'play false;
                }
                // The new connection's counts from its start (its
                // handshake is the storm's).
                mark = Packets::default();
            }
        }
        if sending
            && !presses
                .send_due(&mut conn, (table, epoch), origin, &mut inflight, &mut r)
                .await
        {
            break 'play false;
        }
        let mut wait_until = match presses.interval {
            Some(_) if sending => presses.next_send.min(end),
            _ => end + Duration::from_secs(5),
        };
        if let Some(at) = storm_due {
            wait_until = wait_until.min(at);
        }
        let msg = tokio::select! {
            m = conn.recv() => Some(m),
            _ = tokio::time::sleep_until(wait_until.into()) => None,
        };
        let Some(msg) = msg else { continue };
        let mut next = Some(msg);
        while let Some(m) = next {
            if !on_reply(m, &mut inflight, (started, end, storm_at), &mut r) {
                break 'play false;
            }
            next = conn.try_recv_buffered();
        }
    };
    r.packets.add(Packets::of(&conn.connection).since(mark));
    if !played {
        r.errors += 1;
        return r;
    }
    conn.close("bench done");
    r
}

async fn drive_console(
    mut console: proto::ClientConn,
    origin: Instant,
    (started, end): (Instant, Instant),
) -> ConsoleResult {
    let mut out = ConsoleResult {
        lat: Samples::default(),
        seconds: Timeline::default(),
        snapshots: 0,
        traffic: [0; 3],
    };
    let started_ms = started.saturating_duration_since(origin).as_millis() as u64;
    let rx = console.connection.stats().udp_rx;
    let deadline = end + Duration::from_secs(2);
    // Only the first view showing a press counts (later deltas of the same
    // table, e.g. online notes, repeat its clock).
    let mut seen: std::collections::HashMap<u16, u64> = std::collections::HashMap::new();
    // Each table view of a tick's frame (protocol 11) is timed as it
    // arrives, as a lone `Delta` is.
    // A table's step (protocol 12) carries the clock as a whole view does.
    let mut on_delta = |d: &Delta, out: &mut ConsoleResult| {
        let (table, clock) = match d {
            Delta::Table(v) => (v.table, v.clock),
            Delta::TableStep(s) => (s.table, s.clock),
            _ => return,
        };
        // The side that pressed last reads the lowest time.
        let pressed = clock.red_ms.min(clock.black_ms);
        if seen.insert(table, pressed) == Some(pressed) {
            return;
        }
        let sent_ms = CLOCK_BASE_MS.saturating_sub(pressed);
        let now_ms = origin.elapsed().as_millis() as u64;
        if pressed < CLOCK_BASE_MS && now_ms >= sent_ms {
            let d = Duration::from_millis(now_ms - sent_ms);
            out.lat.push(d);
            let since = Duration::from_millis(sent_ms.saturating_sub(started_ms));
            out.seconds.push(timeline::second_of(since), d);
        }
    };
    let mut on = |m: ServerMsg, out: &mut ConsoleResult| match m {
        ServerMsg::Delta(_) | ServerMsg::Deltas(_) => {
            out.traffic[0] += proto::codec::encoded_len(&m) as u64;
            for d in m.deltas() {
                on_delta(d, out);
            }
        }
        ServerMsg::Snapshot(_) => out.snapshots += 1,
        // A paged snapshot counts once, at its last page.
        ServerMsg::SnapshotPage(p) if p.page + 1 == p.pages => out.snapshots += 1,
        _ => {}
    };
    loop {
        let m = tokio::select! {
            m = console.recv() => m,
            _ = tokio::time::sleep_until(deadline.into()) => break,
        };
        let Ok(m) = m else { break };
        on(m, &mut out);
        while let Some(Ok(m)) = console.try_recv_buffered() {
            on(m, &mut out);
        }
    }
    let now = console.connection.stats().udp_rx;
    out.traffic[1] = now.datagrams.saturating_sub(rx.datagrams);
    out.traffic[2] = now.bytes.saturating_sub(rx.bytes);
    console.close("bench done");
    out
}

#[cfg(test)]
mod press_tests {
    use super::*;
    use rulebook::clock::{check_report, AnomalyKind, ClockReport, TimeControl};
    use xiangqi::Color;

    /// The bench's presses are what a real clock reports: checked as the
    /// server checks them (its raised kinds) against the bench hall's
    /// control, from the first press on, none is an anomaly; and a console
    /// reads each press's time back from the lower clock.
    #[test]
    fn bench_presses_read_as_a_real_clock() {
        // The bench hall's control (`bench::resilience::fixture`): the
        // server's mirror starts both clocks at its base.
        let control = TimeControl::axf_fischer();
        let TimeControl::Fischer { base_ms, .. } = control else {
            panic!("Fischer");
        };
        let mut prev = ClockReport {
            at_ms: 0,
            remaining_ms: [base_ms, base_ms],
            running: None,
            moves: [0, 0],
        };
        let mut prev_t = 0;
        for seq in 1..=40u64 {
            let t = seq * 997 + seq % 3;
            let e = bench_press(7, 1, seq, (t, prev_t));
            let TableEvent::ClockPress {
                by,
                red_ms,
                black_ms,
                terminal_mono_ms,
                ..
            } = e.body
            else {
                panic!("a press");
            };
            let by = match by {
                Side::Red => Color::Red,
                Side::Black => Color::Black,
            };
            let mut moves = prev.moves;
            moves[by.index()] += 1;
            let next = ClockReport {
                at_ms: terminal_mono_ms,
                remaining_ms: [red_ms, black_ms],
                running: Some(by.other()),
                moves,
            };
            let raised: Vec<_> = check_report(&control, &prev, &next, [0, 0], 0)
                .into_iter()
                .filter(|a| {
                    matches!(
                        a.kind,
                        AnomalyKind::TimeWentBackwards
                            | AnomalyKind::MovesDecreased
                            | AnomalyKind::TimeGrew
                            | AnomalyKind::IdleSideChanged
                    )
                })
                .collect();
            assert!(raised.is_empty(), "press {seq}: {raised:?}");
            assert_eq!(CLOCK_BASE_MS - red_ms.min(black_ms), t, "press {seq}");
            prev = next;
            prev_t = t;
        }
    }
}
