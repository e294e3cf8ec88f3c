//! A running table terminal: the [`Engine`] and its connection in one Tokio
//! task, driven through a [`TerminalHandle`].
//!
//! The task owns the engine (no locks): it carries out actions sent by the
//! handle, checks the flag every `tick`, publishes the [`Screen`] on a watch
//! channel, and keeps the link: connect, learn the server's high-water mark
//! from `HelloOk`, resend the outbox from there, send new events as they are
//! stored, apply acks and controls, and reconnect with back-off when the
//! connection drops. The clock keeps running while offline and the screen
//! shows how many events wait. Given several addresses of one hall (an
//! active server and its standby), it tries them in turn and, after losing
//! a connection, the next one first; it also gives up on a server that
//! leaves events unacknowledged for [`LinkConfig::stall`] (a stopped server
//! keeps no QUIC promise for the idle timeout's 30 s) — with one address
//! too: it connects again, so a server restarted at once on its address is
//! noticed within the stall time, not the idle timeout.
//!
//! Only network trouble is retried. A permanent refusal (an unknown token,
//! a role that is not a table's, another protocol version, a server
//! certificate that does not match the pinned fingerprint) stops the link
//! with the cause on the screen. So does [`ServerMsg::TakenOver`]: another
//! terminal took the table, and this one connects again only when the
//! person at it confirms ([`TerminalHandle::take_table_back`]). A terminal
//! whose server record is ahead of it joins the game from that record
//! ([`Engine::join`]). A hello of a later round (the hall published the
//! next one and disconnected every terminal) makes it a fresh terminal
//! for its new pairing, with that round's own outbox
//! ([`Engine::next_round`]). A hello with no game for the table (the hall
//! went back to a round without a board there) says so and looks again
//! every [`NO_GAME_RETRY`].

use crate::engine::{Action, Engine, EngineError, Note, Screen, TableInfo};
use crate::link::LinkConfig;
use crate::timebase::Timebase;
use proto::{ClientConn, ClientMsg, EventEnvelope, ServerMsg};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// How often the flag is checked and the screen refreshed while idle.
pub const TICK: Duration = Duration::from_millis(100);

/// How soon a terminal whose table has no game in the hall's round signs
/// in again (the next publication may give it one).
pub const NO_GAME_RETRY: Duration = Duration::from_secs(10);

/// Why a handle call failed.
#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("the terminal has stopped")]
    Stopped,
}

/// Counters of one terminal's link.
#[derive(Debug, Clone, Default)]
pub struct LinkStats {
    /// Event frames sent (resends included).
    pub sent: u64,
    /// Ack frames received (one may acknowledge several events).
    pub acks: u64,
    pub connects: u64,
    pub controls: u64,
    /// Error replies from the server (text).
    pub errors: Vec<String>,
}

enum Cmd {
    Act(
        Action,
        oneshot::Sender<Result<Vec<EventEnvelope>, EngineError>>,
    ),
    Disconnect(Duration),
    /// The person at the terminal confirms: take the table back.
    TakeBack,
    Stop,
}

/// Controls a running terminal.
pub struct TerminalHandle {
    tx: mpsc::Sender<Cmd>,
    screen: watch::Receiver<Screen>,
    task: JoinHandle<(Engine, LinkStats)>,
    timebase: Timebase,
}

impl TerminalHandle {
    /// Carries out an action; the events it reported are in the outbox.
    pub async fn act(&self, action: Action) -> Result<Vec<EventEnvelope>, TerminalError> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Cmd::Act(action, tx))
            .await
            .map_err(|_| TerminalError::Stopped)?;
        Ok(rx.await.map_err(|_| TerminalError::Stopped)??)
    }

    /// The screen now.
    pub fn screen(&self) -> Screen {
        self.screen.borrow().clone()
    }

    /// A receiver of screen updates (the TUI).
    pub fn watch(&self) -> watch::Receiver<Screen> {
        self.screen.clone()
    }

    pub fn timebase(&self) -> Timebase {
        self.timebase
    }

    /// Waits (up to `timeout`) until the screen satisfies `pred`.
    pub async fn wait_for(
        &self,
        timeout: Duration,
        pred: impl Fn(&Screen) -> bool,
    ) -> Option<Screen> {
        let mut rx = self.screen.clone();
        let fut = async {
            loop {
                {
                    let s = rx.borrow_and_update();
                    if pred(&s) {
                        return Some(s.clone());
                    }
                }
                if rx.changed().await.is_err() {
                    return None;
                }
            }
        };
        tokio::time::timeout(timeout, fut).await.ok().flatten()
    }

    /// Drops the connection and stays offline for `d` (tests, incidents).
    pub async fn disconnect_for(&self, d: Duration) -> Result<(), TerminalError> {
        self.tx
            .send(Cmd::Disconnect(d))
            .await
            .map_err(|_| TerminalError::Stopped)
    }

    /// The person at a terminal that another one took the table from
    /// confirms that this one is the table's: it connects again (and takes
    /// the table over in turn).
    pub async fn take_table_back(&self) -> Result<(), TerminalError> {
        self.tx
            .send(Cmd::TakeBack)
            .await
            .map_err(|_| TerminalError::Stopped)
    }

    /// Stops the terminal; returns its engine and link counters.
    pub async fn stop(self) -> Result<(Engine, LinkStats), TerminalError> {
        let _ = self.tx.send(Cmd::Stop).await;
        self.task.await.map_err(|_| TerminalError::Stopped)
    }
}

/// Starts a terminal for `engine`, connecting with `link` (None: never
/// connects — a stand-alone clock).
pub fn spawn(engine: Engine, link: Option<LinkConfig>, timebase: Timebase) -> TerminalHandle {
    let (tx, rx) = mpsc::channel(64);
    let (screen_tx, screen) = watch::channel(engine.screen(timebase.now_ms()));
    let task = tokio::spawn(
        Task {
            engine,
            link,
            timebase,
            rx,
            screen: screen_tx,
            stats: LinkStats::default(),
            offline_until: None,
            stop: false,
            current: 0,
            stopped_link: false,
        }
        .run(),
    );
    TerminalHandle {
        tx,
        screen,
        task,
        timebase,
    }
}

struct Task {
    engine: Engine,
    link: Option<LinkConfig>,
    timebase: Timebase,
    rx: mpsc::Receiver<Cmd>,
    screen: watch::Sender<Screen>,
    stats: LinkStats,
    offline_until: Option<Instant>,
    stop: bool,
    /// Index of the address to try first.
    current: usize,
    /// The link stopped (a permanent refusal, or taken over): no
    /// reconnection until [`Cmd::TakeBack`].
    stopped_link: bool,
}

enum Wake {
    Cmd(Option<Cmd>),
    Tick,
    Msg(Box<Result<ServerMsg, proto::ConnError>>),
    Retry,
}

impl Task {
    async fn run(mut self) -> (Engine, LinkStats) {
        let mut backoff = self.link.as_ref().map(|l| l.backoff).unwrap_or_default();
        while !self.stop {
            let can_connect = self.link.is_some()
                && !self.stopped_link
                && self.offline_until.is_none_or(|t| Instant::now() >= t);
            if can_connect {
                match self.connect().await {
                    Ok(conn) => {
                        if let Some(l) = &self.link {
                            backoff = l.backoff;
                        }
                        self.connected(conn).await;
                        self.engine.set_online(false);
                        self.publish();
                        continue;
                    }
                    Err(e) if e.is_permanent() => {
                        tracing::error!(error = %e, "terminal: refused for good; not retrying");
                        self.stop_link(format!("not connecting: {e}"));
                    }
                    Err(e) => {
                        tracing::info!(error = %e, "terminal: cannot connect");
                        self.engine.set_message(format!("offline: {e}"));
                    }
                }
            }
            // Offline: keep the clock and the actions going until a retry.
            let wait = match self.offline_until {
                Some(t) if t > Instant::now() => t - Instant::now(),
                _ => backoff,
            };
            if self.link.is_some() && self.offline_until.is_none() {
                let max = self.link.as_ref().map(|l| l.max_backoff).unwrap_or(backoff);
                backoff = (backoff * 2).min(max);
            }
            self.offline(wait).await;
        }
        (self.engine, self.stats)
    }

    async fn connect(&mut self) -> Result<ClientConn, proto::ConnError> {
        let Some(link) = &self.link else {
            return Err(proto::ConnError::Protocol("no server".into()));
        };
        let (conn, i) = link.connect_any(self.current).await?;
        self.current = i;
        Ok(conn)
    }

    /// Stops connecting, with why on the screen.
    fn stop_link(&mut self, why: String) {
        self.stopped_link = true;
        self.engine.set_message(why.clone());
        self.engine.set_link_stopped(Some(why));
    }

    fn publish(&mut self) {
        let s = self.engine.screen(self.timebase.now_ms());
        self.screen.send_replace(s);
    }

    fn handle_cmd(&mut self, cmd: Option<Cmd>, conn: Option<&ClientConn>) {
        match cmd {
            None | Some(Cmd::Stop) => self.stop = true,
            Some(Cmd::Act(action, reply)) => {
                let r = self.engine.act(action, self.timebase.now_ms());
                if let Err(e) = &r {
                    self.engine.set_message(e.to_string());
                }
                // The screen shows the action's effect before the caller hears back.
                self.publish();
                let _ = reply.send(r);
            }
            Some(Cmd::TakeBack) => {
                if self.stopped_link {
                    self.stopped_link = false;
                    self.engine.set_link_stopped(None);
                    self.engine.set_message("taking the table back: connecting");
                }
            }
            Some(Cmd::Disconnect(d)) => {
                self.offline_until = Some(Instant::now() + d);
                if let Some(c) = conn {
                    c.close("disconnect requested");
                }
            }
        }
    }

    fn tick(&mut self) {
        if let Err(e) = self.engine.tick(self.timebase.now_ms()) {
            tracing::error!(error = %e, "terminal: flag event not stored");
            self.engine.set_message(e.to_string());
        }
    }

    async fn offline(&mut self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut tick = tokio::time::interval(TICK);
        while !self.stop && (Instant::now() < until || self.stopped_link) {
            let wake = tokio::select! {
                c = self.rx.recv() => Wake::Cmd(c),
                _ = tick.tick() => Wake::Tick,
                _ = tokio::time::sleep_until(until) => Wake::Retry,
            };
            match wake {
                Wake::Cmd(c) => {
                    let was_stopped = self.stopped_link;
                    self.handle_cmd(c, None);
                    if was_stopped && !self.stopped_link {
                        break;
                    }
                }
                Wake::Tick => self.tick(),
                _ => {}
            }
            self.publish();
        }
        if self.offline_until.is_some_and(|t| Instant::now() >= t) {
            self.offline_until = None;
        }
    }

    /// The hello's table session taken in (joining the game in progress
    /// when the server's record is ahead): the first event to resend, or
    /// `None` when this connection cannot serve (closed; offline for an
    /// hour, the cause on the screen).
    fn start_session(&mut self, conn: &mut ClientConn) -> Option<u64> {
        if !self.has_game(conn) {
            return None;
        }
        if !self.follow_round(conn) {
            return None;
        }
        match conn.hello_ok.table.as_ref() {
            Some(session) => match self.engine.on_session(session) {
                Ok(n) => {
                    if self.engine.join(session, self.timebase.now_ms()) {
                        tracing::info!(
                            table = session.table,
                            plies = session.moves.len(),
                            "terminal: joined the game in progress from the server's record"
                        );
                    }
                    Some(n)
                }
                Err(e) => {
                    tracing::error!(error = %e, "terminal: refused by its own check");
                    self.engine.set_message(e.to_string());
                    conn.close("superseded");
                    self.offline_until = Some(Instant::now() + Duration::from_secs(3600));
                    None
                }
            },
            None => {
                self.engine
                    .set_message("the server did not accept this token as a table");
                conn.close("not a table");
                self.offline_until = Some(Instant::now() + Duration::from_secs(3600));
                None
            }
        }
    }

    /// Whether the hello gives this table a game: a table token the hall
    /// accepted whose table has no board in the round it plays (the chief
    /// withdrew a published round and the round before had no game here)
    /// says so in the screen's languages, and looks again a little later
    /// (the next publication gives it one). False when this connection
    /// cannot serve (closed).
    fn has_game(&mut self, conn: &mut ClientConn) -> bool {
        let ok = &conn.hello_ok;
        let proto::Role::Table { table } = ok.role else {
            return true;
        };
        if ok.table.is_some() {
            return true;
        }
        let round = ok.hall.round;
        tracing::info!(
            table,
            round,
            "terminal: the table has no game in the hall's round"
        );
        self.engine.set_message(Note::Said(
            proto::Message::new("table-no-game-in-round")
                .int("table", table)
                .int("round", round),
        ));
        conn.close("no game in this round");
        self.offline_until = Some(Instant::now() + NO_GAME_RETRY);
        false
    }

    /// The hall's round at this hello: a later round than the engine's
    /// (the hall published the next one) makes the terminal a fresh one
    /// for its new pairing ([`Engine::next_round`]). An earlier one is
    /// followed only when it is a round the hall went back to — the chief
    /// withdrew the published round before it started, and the hall's
    /// round before has every result in, so the server's record of this
    /// table's game there is finished ([`Engine::back_to_round`]); any
    /// other earlier round (a server behind this terminal) is not served.
    /// False when this connection cannot serve (closed, the cause on the
    /// screen).
    fn follow_round(&mut self, conn: &mut ClientConn) -> bool {
        let (hall, ours) = (conn.hello_ok.hall.round, self.engine.round());
        let session = conn.hello_ok.table.as_ref();
        let went_back = hall < ours
            && session.is_some_and(|s| matches!(s.status, proto::TableStatus::Finished { .. }));
        if hall < ours && !went_back {
            tracing::warn!(hall, ours, "terminal: the server plays an earlier round");
            self.engine.set_message(format!(
                "the server plays round {hall}, this terminal round {ours}: not sending; call the arbiter"
            ));
            conn.close("earlier round");
            self.offline_until = Some(Instant::now() + Duration::from_secs(10));
            return false;
        }
        let Some(session) = session.filter(|_| hall != ours) else {
            return true;
        };
        let control = proto::convert::rule_time_control(&conn.hello_ok.hall.time_control);
        let now = self.timebase.now_ms();
        let next = match went_back {
            true => self.engine.back_to_round(hall, session, control, now),
            false => self.engine.next_round(hall, session, control, now),
        };
        match next {
            Ok(next) => {
                tracing::info!(
                    from = ours,
                    round = hall,
                    table = session.table,
                    went_back,
                    "terminal: the hall plays another round; a fresh game for its pairing"
                );
                self.engine = next;
                true
            }
            Err(e) => {
                tracing::error!(error = %e, "terminal: the round's outbox cannot be opened");
                self.engine
                    .set_message(format!("round {hall} cannot start here: {e}"));
                conn.close("no outbox");
                self.offline_until = Some(Instant::now() + Duration::from_secs(10));
                false
            }
        }
    }

    async fn connected(&mut self, mut conn: ClientConn) {
        self.stats.connects += 1;
        let round = self.engine.round();
        let Some(resend_from) = self.start_session(&mut conn) else {
            return;
        };
        self.engine.set_online(true);
        if self.engine.round() == round {
            self.engine
                .set_message(format!("connected; resending from event {resend_from}"));
        }
        let mut sent_upto = resend_from - 1;
        let mut tick = tokio::time::interval(TICK);
        let (servers, stall) = self
            .link
            .as_ref()
            .map_or((1, Duration::MAX), |l| (l.servers.len(), l.stall));
        let mut heard = Instant::now();
        loop {
            if self.send_new(&mut conn, &mut sent_upto).await.is_err() {
                break;
            }
            self.publish();
            if self.stop || self.offline_until.is_some() {
                break;
            }
            let wake = tokio::select! {
                c = self.rx.recv() => Wake::Cmd(c),
                _ = tick.tick() => Wake::Tick,
                m = conn.recv() => Wake::Msg(Box::new(m)),
            };
            match wake {
                Wake::Cmd(c) => self.handle_cmd(c, Some(&conn)),
                Wake::Tick => {
                    self.tick();
                    if self.engine.outbox().waiting() == 0 {
                        heard = Instant::now();
                    } else if heard.elapsed() >= stall {
                        // A server stopped or restarted at once on its
                        // address: without this, only QUIC's idle timeout
                        // (30 s) would tell.
                        tracing::info!(
                            waiting = self.engine.outbox().waiting(),
                            "terminal: no acknowledgement; connecting again"
                        );
                        self.engine.set_message(if servers > 1 {
                            "no answer from the server; trying the others"
                        } else {
                            "no answer from the server; connecting again"
                        });
                        self.current = (self.current + 1) % servers;
                        conn.close("no answer");
                        break;
                    }
                }
                Wake::Msg(m) => match *m {
                    Ok(msg) => {
                        heard = Instant::now();
                        let mut taken = self.on_msg(msg);
                        while let Some(Ok(msg)) = conn.try_recv_buffered() {
                            taken |= self.on_msg(msg);
                        }
                        if taken {
                            conn.close("taken over");
                            break;
                        }
                    }
                    Err(e) => {
                        if matches!(&e, proto::ConnError::Frame(f) if f.is_recoverable()) {
                            tracing::warn!(error = %e, "terminal: bad frame from server");
                            continue;
                        }
                        tracing::info!(error = %e, "terminal: connection lost");
                        self.engine.set_message(format!("connection lost: {e}"));
                        self.current = (self.current + 1) % servers.max(1);
                        break;
                    }
                },
                Wake::Retry => {}
            }
        }
        if self.stop {
            // Give queued frames a moment to leave before closing.
            let _ = tokio::time::timeout(Duration::from_millis(200), conn.flush()).await;
            conn.close("terminal stopped");
        }
    }

    async fn send_new(&mut self, conn: &mut ClientConn, sent_upto: &mut u64) -> Result<(), ()> {
        let pending: Vec<EventEnvelope> = self.engine.outbox().from_seq(*sent_upto + 1).to_vec();
        if pending.is_empty() {
            return Ok(());
        }
        for env in pending {
            let seq = env.seq;
            if conn.queue(&ClientMsg::Event(env)).is_err() {
                return Err(());
            }
            *sent_upto = seq;
            self.stats.sent += 1;
        }
        conn.flush().await.map_err(|e| {
            tracing::info!(error = %e, "terminal: send failed");
        })
    }

    /// Handles one message; true when another terminal took the table.
    fn on_msg(&mut self, msg: ServerMsg) -> bool {
        let now = self.timebase.now_ms();
        match msg {
            ServerMsg::TakenOver { table } => {
                tracing::warn!(table, "terminal: another terminal took the table over");
                self.stop_link(format!(
                    "another terminal took table {table} over: this one stopped connecting (F8 or :takeover takes the table back)"
                ));
                return true;
            }
            ServerMsg::Ack(a) => {
                self.stats.acks += 1;
                if let Err(e) = self.engine.on_ack(a.epoch, a.seq) {
                    tracing::warn!(error = %e, "terminal: ack not recorded");
                }
            }
            ServerMsg::Control { id, control, .. } => {
                self.stats.controls += 1;
                if let Err(e) = self.engine.control(id, &control, now) {
                    tracing::error!(error = %e, "terminal: control not stored");
                    self.engine.set_message(e.to_string());
                }
            }
            ServerMsg::Error(e) => {
                // Shown in the screen's languages; logged in English.
                let said = i18n::replies::refused(&e);
                let text = i18n::texts::english(&said);
                tracing::warn!(%text, re = ?e.re, "terminal: error reply");
                self.engine.set_message(said);
                self.stats.errors.push(text);
            }
            _ => {}
        }
        false
    }
}

/// Connects once to learn the table's facts (players, time control) and the
/// hall's, then closes; a terminal builds its [`Engine`] from them.
pub async fn fetch_info(link: &LinkConfig) -> Result<(TableInfo, proto::HelloOk), FetchError> {
    let (conn, _) = link.connect_any(0).await.map_err(FetchError::Connect)?;
    let hello = conn.hello_ok.clone();
    conn.close("info fetched");
    let Some(session) = hello.table.as_ref() else {
        return Err(FetchError::NotATable);
    };
    let info = TableInfo {
        table: session.table,
        red: session.red.clone(),
        black: session.black.clone(),
        control: proto::convert::rule_time_control(&hello.hall.time_control),
        round: hello.hall.round,
    };
    Ok((info, hello))
}

/// Why [`fetch_info`] failed.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("cannot reach the server: {0}")]
    Connect(proto::ConnError),
    #[error("the server did not accept this token as a table terminal's")]
    NotATable,
}
