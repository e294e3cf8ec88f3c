//! Table clients for the resilience benches: each plays a random legal game
//! (crates/xiangqi) as clock presses, keeps every event it generated (its
//! outbox), and after any reconnect resends from the server's high-water
//! mark (from the hello) in order. An event counts as acknowledged when an
//! `Ack` with its seq (or a later one) arrives: the server acknowledges only
//! after the commit.
//!
//! A client drops its connection and reconnects when acks stall (no
//! progress for [`STALL`] with events outstanding) or the connection ends;
//! given several addresses of the hall (an active server and a standby),
//! it then tries the next one.
//!
//! With a terminal disk (`bench powercut --terminal-cuts`) a client also
//! keeps the table terminal's real outbox file (crates/table) on a
//! power-cut disk: each event is recorded there (synced) before it is
//! sent, acks are noted unsynced, and when the bench cuts that terminal's
//! power the client drops its connection, the disk keeps, drops or tears
//! the unsynced writes, the outbox is reopened, every event recorded
//! before the cut must still be in it, and what the server has not
//! acknowledged is resent from it.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use proto::{ClientMsg, EventEnvelope, Hello, IccsMove, ServerMsg, Side, TableEvent};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// No ack progress for this long with events outstanding: reconnect.
pub const STALL: Duration = Duration::from_secs(3);
/// How long one connection attempt may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// Plies after which a table stops moving and offers/declines draws.
const MAX_PLIES: usize = 300;

/// Run control shared by the bench and its tables.
#[derive(Debug, Default)]
pub struct Control {
    /// Tables make no new events while set (to quiesce for a check).
    pub hold: AtomicBool,
    /// Tables make no new events and end once all they sent is acknowledged.
    pub finish: AtomicBool,
    /// Tables end now.
    pub abort: AtomicBool,
    /// Tables whose terminal loses power at its next tick.
    pub cut_terminals: Mutex<Vec<u16>>,
}

/// Counters over all tables.
#[derive(Debug, Default)]
pub struct Stats {
    /// Successful connections after the first (per table).
    pub reconnects: AtomicU64,
    /// Failed connection attempts.
    pub connect_failures: AtomicU64,
    /// Events sent again after a reconnect.
    pub resent: AtomicU64,
    /// Error replies received.
    pub errors: AtomicU64,
    /// A hello reporting a high-water mark below what was acknowledged.
    pub high_water_regressions: AtomicU64,
    /// Terminal power cuts carried out, and restarts after them.
    pub terminal_cuts: AtomicU64,
    /// Events recorded by a terminal before its power cut and gone from
    /// its outbox after it.
    pub terminal_lost: AtomicU64,
    /// Unsynced outbox writes kept, dropped, torn by the cuts.
    pub cut_kept: AtomicU64,
    /// See `cut_kept`.
    pub cut_dropped: AtomicU64,
    /// See `cut_kept`.
    pub cut_torn: AtomicU64,
}

/// Where a client keeps its terminal's outbox file (`--terminal-cuts`).
#[derive(Debug, Clone)]
pub struct TerminalDisk {
    /// The folder of the outbox files.
    pub dir: std::path::PathBuf,
    /// The power-cut disk they are on.
    pub disk: Arc<table::outbox::PowerCutDisk>,
}

/// One table's outbox and acknowledgement state.
#[derive(Debug, Clone)]
pub struct Outbox {
    /// Table number.
    pub table: u16,
    /// Epoch used for every event.
    pub epoch: u32,
    /// Every event generated, `sent[i].seq == i + 1`.
    pub sent: Vec<EventEnvelope>,
    /// Highest seq acknowledged.
    pub acked: u64,
}

impl Outbox {
    /// Everything generated is acknowledged.
    pub fn drained(&self) -> bool {
        self.acked >= self.sent.len() as u64
    }
}

/// A random legal game for one table.
struct Game {
    pos: xiangqi::Position,
    plies: usize,
    red_ms: u64,
    black_ms: u64,
    mono_ms: u64,
    offer: bool,
    rng: StdRng,
}

impl Game {
    fn new(seed: u64) -> Game {
        Game {
            pos: xiangqi::Position::new(),
            plies: 0,
            red_ms: 4_800_000,
            black_ms: 4_800_000,
            mono_ms: 1_000,
            offer: true,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    fn next(&mut self) -> TableEvent {
        let moves = self.pos.legal_moves();
        let spent = self.rng.random_range(200..3_000u64);
        self.mono_ms += spent;
        if self.plies < MAX_PLIES && !moves.is_empty() {
            let m = moves[self.rng.random_range(0..moves.len())];
            let by = match self.pos.turn() {
                xiangqi::Color::Red => Side::Red,
                xiangqi::Color::Black => Side::Black,
            };
            match by {
                Side::Red => self.red_ms = self.red_ms.saturating_sub(spent),
                Side::Black => self.black_ms = self.black_ms.saturating_sub(spent),
            }
            self.pos.play_unchecked(m);
            self.plies += 1;
            return TableEvent::ClockPress {
                by,
                mv: Some(IccsMove {
                    from: m.from.index() as u8,
                    to: m.to.index() as u8,
                }),
                red_ms: self.red_ms,
                black_ms: self.black_ms,
                terminal_mono_ms: self.mono_ms,
            };
        }
        self.offer = !self.offer;
        if self.offer {
            TableEvent::DrawDecline { by: Side::Black }
        } else {
            TableEvent::DrawOffer { by: Side::Red }
        }
    }
}

/// Everything a table client needs.
pub struct TableClient {
    /// Shared QUIC endpoint and trust.
    pub connector: Arc<proto::Connector>,
    /// Where to connect (the server, or a fault relay in front of it; with
    /// a standby, every address of the hall, tried in turn).
    pub addrs: Vec<SocketAddr>,
    /// Its token.
    pub token: String,
    /// Its outbox (read by the bench).
    pub outbox: Arc<Mutex<Outbox>>,
    /// Run control.
    pub control: Arc<Control>,
    /// Counters.
    pub stats: Arc<Stats>,
    /// Time between two events.
    pub pace: Duration,
    /// Seed of its game.
    pub seed: u64,
    /// Its terminal's outbox file, when the bench models one.
    pub terminal: Option<TerminalDisk>,
}

impl TableClient {
    /// Runs until `control.finish` and drained, or `control.abort`.
    pub async fn run(self) {
        let mut game = Game::new(self.seed);
        let mut connected_before = false;
        let table = self.outbox.lock().map(|o| o.table).unwrap_or(0);
        let mut file = match self.open_file(table) {
            Ok(f) => f,
            Err(e) => {
                tracing::error!(table, "outbox: {e}");
                return;
            }
        };
        let n = self.addrs.len().max(1);
        // The address tried last: every new attempt (after a failure or a
        // lost connection) moves on to the next.
        let mut cur = n - 1;
        // Spread the tables' ticks.
        let phase = self.seed % (self.pace.as_millis().max(1) as u64);
        tokio::time::sleep(Duration::from_millis(phase)).await;
        'connect: loop {
            if self.done() {
                return;
            }
            // A cut while not connected (the power goes off whatever the
            // terminal is doing).
            if self.take_cut(table) && !self.cut_power(table, &mut file) {
                return;
            }
            cur = (cur + 1) % n;
            let Some(&addr) = self.addrs.get(cur) else {
                return;
            };
            let Some(mut conn) = self.connect(addr, table).await else {
                continue 'connect;
            };
            if connected_before {
                self.stats.reconnects.fetch_add(1, Ordering::Relaxed);
            }
            connected_before = true;
            // Resend from the server's high-water mark.
            let Some(resend) = self.to_resend(conn.hello_ok.table.as_ref(), file.as_ref()) else {
                return;
            };
            self.stats
                .resent
                .fetch_add(resend.len() as u64, Ordering::Relaxed);
            for env in resend {
                if conn.queue(&ClientMsg::Event(env)).is_err() {
                    continue 'connect;
                }
            }
            if conn.flush().await.is_err() {
                continue 'connect;
            }
            let mut tick = tokio::time::interval(self.pace);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut progress = Instant::now();
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        if self.control.abort.load(Ordering::Relaxed) {
                            conn.close("bench over");
                            return;
                        }
                        if self.take_cut(table) {
                            conn.close("power cut");
                            if !self.cut_power(table, &mut file) {
                                return;
                            }
                            continue 'connect;
                        }
                        let Some((drained, next)) =
                            self.tick_event(&mut game, file.as_mut(), &mut progress)
                        else {
                            return;
                        };
                        if drained && self.control.finish.load(Ordering::Relaxed) {
                            conn.close("bench over");
                            return;
                        }
                        if let Some(env) = next {
                            if conn.send(&ClientMsg::Event(env)).await.is_err() {
                                continue 'connect;
                            }
                        }
                        if !drained && progress.elapsed() > STALL {
                            conn.close("acks stalled");
                            continue 'connect;
                        }
                    }
                    m = conn.recv() => match m {
                        Ok(ServerMsg::Ack(a)) => self.on_ack(&a, file.as_mut(), &mut progress),
                        Ok(ServerMsg::Error(e)) => {
                            self.stats.errors.fetch_add(1, Ordering::Relaxed);
                            tracing::warn!(table, error = %e.code, message = %i18n::texts::english(&e.message), "error reply");
                        }
                        Ok(_) => {}
                        Err(_) => continue 'connect,
                    }
                }
            }
        }
    }

    /// Opens the terminal's outbox file, if the bench models one.
    /// Connects to `addr` as `table`'s terminal; a failure is counted and
    /// waited out (200 ms) before the caller tries the next address.
    async fn connect(&self, addr: SocketAddr, table: u16) -> Option<proto::ClientConn> {
        let hello = Hello {
            protocol_version: proto::PROTOCOL_VERSION,
            token: self.token.clone(),
            client: format!("bench-table-{table}"),
        };
        let conn = tokio::time::timeout(CONNECT_TIMEOUT, self.connector.connect(addr, hello)).await;
        match conn {
            Ok(Ok(c)) => Some(c),
            _ => {
                self.stats.connect_failures.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(200)).await;
                None
            }
        }
    }

    /// A power cut of the terminal's outbox file: `false` when the file
    /// cannot be read back (the table stops).
    fn cut_power(&self, table: u16, file: &mut Option<table::outbox::Outbox>) -> bool {
        match self.power_cut(table, file.take()) {
            Ok(f) => {
                *file = f;
                true
            }
            Err(e) => {
                tracing::error!(table, "outbox after a power cut: {e}");
                false
            }
        }
    }

    /// What to send again on a new connection: everything after the
    /// server's high-water mark (a mark behind our acks is counted as a
    /// regression). `None`: the outbox is unusable.
    fn to_resend(
        &self,
        session: Option<&proto::TableSession>,
        file: Option<&table::outbox::Outbox>,
    ) -> Option<Vec<EventEnvelope>> {
        let Ok(mut o) = self.outbox.lock() else {
            return None;
        };
        let hw = match session {
            Some(s) if s.epoch == o.epoch => s.high_water,
            _ => 0,
        };
        if hw < o.acked {
            self.stats
                .high_water_regressions
                .fetch_add(1, Ordering::Relaxed);
        }
        o.acked = o.acked.max(hw);
        let from = usize::try_from(hw).unwrap_or(usize::MAX).min(o.sent.len());
        Some(match file {
            // What the server never acknowledged, from the file.
            Some(f) => f.from_seq(hw + 1).to_vec(),
            None => o.sent[from..].to_vec(),
        })
    }

    /// One tick: whether everything sent is acknowledged, and the next
    /// event to send (none while held or finishing), recorded in the
    /// outbox first. `None`: the outbox is unusable.
    fn tick_event(
        &self,
        game: &mut Game,
        file: Option<&mut table::outbox::Outbox>,
        progress: &mut Instant,
    ) -> Option<(bool, Option<EventEnvelope>)> {
        let Ok(mut o) = self.outbox.lock() else {
            return None;
        };
        let drained = o.drained();
        if drained {
            *progress = Instant::now();
        }
        let make = !self.control.hold.load(Ordering::Relaxed)
            && !self.control.finish.load(Ordering::Relaxed);
        let next = make.then(|| {
            let body = game.next();
            let env = match file {
                // Recorded (synced) before it is sent.
                Some(f) => f.append(body),
                None => Ok(EventEnvelope {
                    table: o.table,
                    epoch: o.epoch,
                    seq: o.sent.len() as u64 + 1,
                    body,
                }),
            };
            env.inspect(|env| o.sent.push(env.clone()))
        });
        match next.transpose() {
            Ok(n) => Some((drained, n)),
            Err(e) => {
                tracing::error!(table = o.table, "outbox: {e}");
                None
            }
        }
    }

    /// An acknowledgement: the outbox (and its file) move on.
    fn on_ack(
        &self,
        a: &proto::Ack,
        file: Option<&mut table::outbox::Outbox>,
        progress: &mut Instant,
    ) {
        if let Ok(mut o) = self.outbox.lock() {
            if a.epoch == o.epoch && a.seq > o.acked {
                o.acked = a.seq;
                *progress = Instant::now();
                if let Some(f) = file {
                    if let Err(e) = f.mark_acked(a.seq) {
                        tracing::warn!(table = o.table, "outbox: {e}");
                    }
                }
            }
        }
    }

    fn open_file(&self, table: u16) -> Result<Option<table::outbox::Outbox>, String> {
        let Some(t) = &self.terminal else {
            return Ok(None);
        };
        let epoch = self.outbox.lock().map(|o| o.epoch).unwrap_or(1);
        table::outbox::Outbox::open_on(&t.dir, table, epoch, t.disk.clone())
            .map(|(f, _)| Some(f))
            .map_err(|e| e.to_string())
    }

    /// Whether the bench cut this terminal's power (once).
    fn take_cut(&self, table: u16) -> bool {
        let Ok(mut cuts) = self.control.cut_terminals.lock() else {
            return false;
        };
        let before = cuts.len();
        cuts.retain(|&t| t != table);
        cuts.len() != before
    }

    /// The terminal's power goes off and comes back: its disk keeps what
    /// was synced (and some of the rest), the outbox is read back, and
    /// every event recorded before the cut must be in it.
    fn power_cut(
        &self,
        table: u16,
        file: Option<table::outbox::Outbox>,
    ) -> Result<Option<table::outbox::Outbox>, String> {
        let (Some(t), Some(f)) = (&self.terminal, file) else {
            return Ok(None);
        };
        let recorded = f.last_seq();
        let path = f
            .path()
            .map(|p| p.to_path_buf())
            .ok_or("outbox without a file")?;
        drop(f);
        let r = t.disk.cut(&path).map_err(|e| e.to_string())?;
        self.stats.terminal_cuts.fetch_add(1, Ordering::Relaxed);
        self.stats.cut_kept.fetch_add(r.kept, Ordering::Relaxed);
        self.stats
            .cut_dropped
            .fetch_add(r.dropped, Ordering::Relaxed);
        self.stats.cut_torn.fetch_add(r.torn, Ordering::Relaxed);
        let back = self.open_file(table)?;
        let kept = back.as_ref().map_or(0, |b| b.last_seq());
        self.stats
            .terminal_lost
            .fetch_add(recorded.saturating_sub(kept), Ordering::Relaxed);
        Ok(back)
    }

    fn done(&self) -> bool {
        if self.control.abort.load(Ordering::Relaxed) {
            return true;
        }
        self.control.finish.load(Ordering::Relaxed)
            && self.outbox.lock().map(|o| o.drained()).unwrap_or(true)
    }
}

/// Starts `tables` clients (tables `1..=tables`), each connecting to
/// the addresses `addr_of(table)` (tried in turn); returns their outboxes
/// and task handles.
pub fn spawn_tables(
    tables: u16,
    connector: Arc<proto::Connector>,
    addr_of: &dyn Fn(u16) -> Vec<SocketAddr>,
    control: Arc<Control>,
    stats: Arc<Stats>,
    pace: Duration,
    seed: u64,
) -> (Vec<Arc<Mutex<Outbox>>>, Vec<tokio::task::JoinHandle<()>>) {
    spawn_tables_on(tables, connector, addr_of, control, stats, pace, seed, None)
}

/// [`spawn_tables`], each table's terminal outbox file on `terminal` when
/// given.
#[allow(
    clippy::too_many_arguments,
    reason = "the bench's knobs, each a flag of the benches that call it"
)]
pub fn spawn_tables_on(
    tables: u16,
    connector: Arc<proto::Connector>,
    addr_of: &dyn Fn(u16) -> Vec<SocketAddr>,
    control: Arc<Control>,
    stats: Arc<Stats>,
    pace: Duration,
    seed: u64,
    terminal: Option<TerminalDisk>,
) -> (Vec<Arc<Mutex<Outbox>>>, Vec<tokio::task::JoinHandle<()>>) {
    let mut outboxes = Vec::new();
    let mut tasks = Vec::new();
    for t in 1..=tables {
        let outbox = Arc::new(Mutex::new(Outbox {
            table: t,
            epoch: 1,
            sent: Vec::new(),
            acked: 0,
        }));
        outboxes.push(outbox.clone());
        let client = TableClient {
            connector: connector.clone(),
            addrs: addr_of(t),
            token: super::fixture::table_token(t),
            outbox,
            control: control.clone(),
            stats: stats.clone(),
            pace,
            seed: seed.wrapping_mul(1_000_003).wrapping_add(u64::from(t)),
            terminal: terminal.clone(),
        };
        tasks.push(tokio::spawn(client.run()));
    }
    (outboxes, tasks)
}

/// Waits until every outbox is drained, at most `limit`; true if drained.
pub async fn wait_drained(outboxes: &[Arc<Mutex<Outbox>>], limit: Duration) -> bool {
    let start = Instant::now();
    loop {
        let all = outboxes
            .iter()
            .all(|o| o.lock().map(|o| o.drained()).unwrap_or(false));
        if all {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Copies of the outboxes.
pub fn outbox_copies(outboxes: &[Arc<Mutex<Outbox>>]) -> Vec<Outbox> {
    outboxes
        .iter()
        .filter_map(|o| o.lock().ok().map(|o| o.clone()))
        .collect()
}
