//! One connection (连接): hello, authentication, then a framed read loop with
//! size limits, and beside it, in the same task (`tokio::join!`), the
//! writer that sends replies in request order (`writer.rs`). One task per
//! connection, its rare steps boxed when they come (the hello, a refusal,
//! a command, a lagging console's fresh snapshot), and no channel a table
//! does not use: a table's connection is held for hours by each of up to
//! 65,535 tables (issue 40; the size is a test).
//!
//! The reader never waits for a commit: it hands each event or command to
//! the pipeline and queues the reply's receiver for the writer, which sends
//! replies in order as commits complete, batching every frame that is ready
//! into one write. The table events found in one read (up to
//! [`MAX_BURST`]) go to the pipeline as one burst with one reply receiver;
//! anything else read between them (a command, a ping, a refused event)
//! first sends the burst before it, so replies keep the request order. The
//! writer (`writer.rs`) coalesces the acks. A frame that does not decode
//! is answered with an error and the connection is kept (the fault is the
//! frame's); a frame longer than the limit is answered with an error and
//! the connection is closed (its payload is neither buffered nor drained);
//! a failed authentication closes the connection; nothing a peer sends can
//! panic the server.
//!
//! Limits (`admission`): the connection holds a place among those not
//! signed in until its `Hello` is authenticated; then a console takes one
//! of its token's places (over the limit it is refused with a clear
//! error) and a table's connection replaces the table's older one. After
//! sign-in the connection's receive window is raised from one frame to
//! two, and its send window to `room::SEND_WINDOW`. Every peer-chosen text
//! that reaches the log goes through `proto::logsafe::escaped`.
//!
//! Memory per connection (`room.rs`): every reply is encoded as the reader
//! queues it and holds room in the connection's bound in bytes
//! ([`room::SIGNED_IN`]) until the writer hands it to QUIC; while the
//! connection is over the bound the reader waits and reads nothing, so a
//! peer that does not read is slowed by QUIC flow control, and one that
//! takes nothing for a while is closed (`stall.rs`). Table logs come from
//! a cache of shared frames, and table-log and snapshot reads keep a pace
//! per principal (`reads.rs`).

use std::sync::Arc;

use proto::conn::{ServerReceiver, ServerSender, CLOSE_NORMAL, CLOSE_PROTOCOL, CLOSE_REFUSED};
use proto::logsafe::{escaped, truncate};
use proto::{
    refusals, ClientMsg, Command, ErrorCode, ErrorReply, EventEnvelope, FrameError, HelloOk,
    Message, RequestRef, Role, RoundProposal, ServerMsg, TableEvent,
};

use crate::admission::Pending;
use crate::auth::{authorize, Action, Principal, TableEventKind};
use crate::ingest::{now_ms, Submitter};
use crate::outq;
use crate::publish::Frame;
use crate::reads::LogFrame;
use crate::refusals::{Verdict as RefusalVerdict, MAX_TEXT};
use crate::room::{self, Room, SMALL_REPLY};
use crate::shared::{Outbound, Shared, TableLink};
use crate::takeover::{self, Claim, Held, Verdict};
use crate::writer::{write_loop, Peer, Writing};
use hall::book::Words;
use hall::command::describe;
use hall::record::Record;

/// Items a connection may have queued for its writer (replies are bounded
/// in bytes by its room first; this bounds the server's own pushes).
pub const OUT_QUEUE: usize = 8_192;

/// How long a table's older connection, taken over by a newer one, has to
/// receive its [`ServerMsg::TakenOver`] before it is closed.
pub const TAKEN_OVER_CLOSE: std::time::Duration = std::time::Duration::from_millis(250);

/// One read of the client's stream: a message, its end, or what was wrong.
type Read = Result<Option<ClientMsg>, FrameError>;

pub use crate::submit::MAX_BURST;

/// Serves one QUIC connection to its end.
/// `pending` is its place among the connections not signed in, given back
/// once the hello is authenticated.
pub fn serve(
    shared: Arc<Shared>,
    connection: proto::shell::Connection,
    pending: Pending,
) -> impl std::future::Future<Output = ()> + Send {
    // The sign-in boxed now, taking the arguments with it: an async fn's
    // arguments stay in its future for its whole life, and this one is
    // the connection's task (issue 40). Boxed, as the other steps that run
    // once: their futures would otherwise be part of the connection's.
    let signing_in = Box::pin(sign_in(shared.clone(), connection, pending));
    async move {
        let Some(signed_in) = signing_in.await else {
            return;
        };
        run(shared, signed_in).await;
    }
}

/// A connection whose hello was authenticated and answered: what the rest
/// of its life needs of the sign-in.
struct SignedIn {
    remote: std::net::SocketAddr,
    connection: proto::shell::Connection,
    sender: ServerSender,
    receiver: ServerReceiver,
    principal: Principal,
    conn_id: u64,
    /// A console's place among its token's connections (none for a table).
    session: Option<crate::admission::Session>,
}

/// The hello read, authenticated and answered; `None` once the connection
/// was refused or lost. Boxed for the caller: a box is what the
/// connection's future holds of it, rather than room for its fields twice
/// (the argument and its fields bound in [`run`]).
async fn sign_in(
    shared: Arc<Shared>,
    connection: proto::shell::Connection,
    pending: Pending,
) -> Option<Box<SignedIn>> {
    let remote = connection.remote_address();
    let (conn, hello) = match proto::accept_hello(connection).await {
        Ok(x) => x,
        Err(e) => {
            let error = e.to_string();
            tracing::info!(%remote, error = %escaped(&error), "connection dropped before hello");
            return None;
        }
    };
    let Some(principal) = shared.auth.authenticate(hello.token.as_bytes()) else {
        tracing::warn!(%remote, "authentication failed");
        conn.refuse(ErrorReply {
            code: ErrorCode::Unauthenticated,
            message: refusals::unknown_token(),
            re: None,
        })
        .await;
        return None;
    };
    drop(pending);
    let session = match &principal {
        Principal::Table { .. } => None,
        _ => match shared.admission.sign_in(&principal.who()) {
            Ok(session) => Some(session),
            Err(limit) => {
                tracing::warn!(%remote, who = %principal.who(), limit, "too many connections with one token: refused");
                conn.refuse(ErrorReply {
                    code: ErrorCode::Unavailable,
                    message: refusals::too_many_connections(limit),
                    re: None,
                })
                .await;
                return None;
            }
        },
    };
    conn.connection
        .set_receive_window(proto::tls::STREAM_WINDOW.into());
    conn.connection.set_send_window(room::SEND_WINDOW);
    let conn_id = shared.conn_id();
    let hello_ok = hello_ok_for(&shared, &principal)?;
    let proto::ServerConn {
        connection,
        mut sender,
        receiver,
    } = conn;
    if sender.send(&ServerMsg::HelloOk(hello_ok)).await.is_err() {
        return None;
    }
    tracing::info!(%remote, who = %principal.who(), "connected");
    Some(Box::new(SignedIn {
        remote,
        connection,
        sender,
        receiver,
        principal,
        conn_id,
        session,
    }))
}

/// A signed-in connection's life: its reader and writer, then its close.
async fn run(shared: Arc<Shared>, signed_in: Box<SignedIn>) {
    let connection = signed_in.connection.clone();
    // Boxed, and what it binds lives in it: the connection's future keeps
    // three boxes of it, not room for every local it had (issue 40).
    let (reading, writing, ending) = Box::pin(start(&shared, signed_in)).await;
    // The reader and the writer in this one task (issue 40): a task less
    // per connection, and a reply queued by the reader wakes the task it
    // runs in rather than another. The writer ends once every sender of
    // its queue is gone: the reader's (dropped when it ends) and the
    // table's link (removed by `table_offline`).
    let (close, ()) = tokio::join!(read_then_leave(reading, &connection), write_loop(writing));
    match close {
        Some(reason) => connection.close(CLOSE_PROTOCOL.into(), reason),
        None => connection.close(CLOSE_NORMAL.into(), b"bye"),
    }
    let Ending { remote, session } = *ending;
    drop(session);
    tracing::info!(%remote, "disconnected");
}

/// What a connection keeps for its close.
struct Ending {
    remote: std::net::SocketAddr,
    /// A console's place among its token's connections, given back once
    /// the connection is closed.
    session: Option<crate::admission::Session>,
}

/// A signed-in connection's start: its queue and room, its table online,
/// and what its reader, writer and close need. Their state goes to them
/// boxed: an async fn's arguments stay in its future beside the locals
/// they are bound to, so a box is the one copy kept (issue 40).
async fn start(
    shared: &Arc<Shared>,
    signed_in: Box<SignedIn>,
) -> (Box<Reading>, Box<Writing>, Box<Ending>) {
    let SignedIn {
        remote,
        connection,
        sender,
        receiver,
        principal,
        conn_id,
        session,
    } = *signed_in;
    let (out_tx, out_rx) = outq::channel::<Outbound>(OUT_QUEUE);
    let room = Room::new(room::SIGNED_IN);
    let peer = Peer {
        connection: connection.clone(),
        who: principal.who(),
        room: room.clone(),
    };
    let own_table = match &principal {
        Principal::Table { table } => u16::try_from(*table).ok(),
        _ => None,
    };
    if let Some(t) = own_table {
        table_online(shared, t, conn_id, &out_tx, &connection).await;
    }
    let reader = Reader {
        shared: shared.clone(),
        submitter: shared.submitter.clone(),
        principal,
        out: out_tx,
        room,
        burst: Vec::new(),
        burst_res: Vec::new(),
        last_burst: 0,
        subscribed: None,
    };
    let reading = Reading {
        reader,
        receiver,
        own_table,
        conn_id,
    };
    let writing = Writing {
        shared: shared.clone(),
        peer,
        sender,
        out: out_rx,
    };
    (
        Box::new(reading),
        Box::new(writing),
        Box::new(Ending { remote, session }),
    )
}

/// What [`read_then_leave`] needs.
struct Reading {
    reader: Reader,
    receiver: ServerReceiver,
    own_table: Option<u16>,
    conn_id: u64,
}

/// Runs the reader to the end of the stream, then takes the connection out
/// of the hall (its subscription, its table's link and online note); the
/// reason to close with [`CLOSE_PROTOCOL`], if any.
async fn read_then_leave(
    reading: Box<Reading>,
    connection: &proto::shell::Connection,
) -> Option<&'static [u8]> {
    let Reading {
        mut reader,
        mut receiver,
        own_table,
        conn_id,
    } = *reading;
    let close = reader.run(&mut receiver, connection).await;
    drop(receiver);
    let shared = reader.shared.clone();
    if let Some(id) = reader.subscribed.take() {
        shared.publisher.unsubscribe(id);
    }
    // The reader's queue sender goes before the table's link is removed:
    // the writer then ends as soon as nothing can queue for it.
    drop(reader);
    if let Some(t) = own_table {
        Box::pin(table_offline(&shared, t, conn_id)).await;
    }
    close
}

/// The hello's answer: the principal's role, the hall and, for a table,
/// its session (the running side's time extrapolated to now). `None` if
/// the hall lock is poisoned.
fn hello_ok_for(shared: &Shared, principal: &Principal) -> Option<HelloOk> {
    let Ok(hall) = shared.hall.lock() else {
        return None;
    };
    let table = match principal {
        Principal::Table { table } => u16::try_from(*table)
            .ok()
            .and_then(|t| hall.table(t))
            .map(|t| t.session_at(now_ms())),
        _ => None,
    };
    Some(HelloOk {
        role: role_of(principal),
        server_version: format!("caipan-server {}", env!("CARGO_PKG_VERSION")),
        hall: hall.info().clone(),
        table,
        server_ms: now_ms(),
    })
}

/// A table's terminal connected: it becomes the table's link (taking it
/// over from another connection), and the table is noted online — unless
/// two terminals are fighting over it (then the fight's alert instead).
async fn table_online(
    shared: &Shared,
    t: u16,
    conn_id: u64,
    out_tx: &outq::Sender<Outbound>,
    connection: &proto::shell::Connection,
) {
    let claim = link_table(shared, t, conn_id, out_tx, connection);
    if claim == Claim::Stale {
        return;
    }
    let now = now_ms();
    let mut online = true;
    if claim == Claim::TakeOver {
        let (ended, verdict) = shared.takeovers.note(t, now);
        let mut records: Vec<Record> = ended.into_iter().collect();
        match verdict {
            Verdict::Replaced(rec) => records.push(rec),
            Verdict::Fight { alert } => {
                online = false;
                if alert.is_some() {
                    tracing::warn!(
                        table = t,
                        "two terminals keep taking the table from each other"
                    );
                }
                records.extend(alert);
            }
        }
        for rec in records {
            shared.submitter.submit_quiet(rec, now).await;
        }
    }
    if online {
        shared.submitter.note_online(t, true, now).await;
    }
}

/// A table's terminal disconnected: noted offline if it was still the
/// table's link and no fight is going on.
async fn table_offline(shared: &Shared, t: u16, conn_id: u64) {
    let still_ours = shared
        .links
        .lock()
        .map(|mut l| match l.get(&t) {
            Some(link) if link.conn == conn_id => {
                l.remove(&t);
                true
            }
            _ => false,
        })
        .unwrap_or(false);
    if still_ours && !shared.takeovers.fighting(t, now_ms()) {
        shared.submitter.note_online(t, false, now_ms()).await;
    }
}

/// Registers the terminal's writer for controls and queues, in order, every
/// control it has not confirmed with `ControlApplied` (controls given while
/// it was away, or sent to a connection that ended before the ack).
///
/// Both happen under the hall lock, which the pipeline also holds from
/// applying a command to forwarding its controls: so every control is
/// either in the pending list queued here or forwarded live after it,
/// never both, never lost, and in order.
///
/// The table's older connection, if any, is told it was taken over
/// ([`ServerMsg::TakenOver`]) and closed: one connection per table. A
/// connection that finds a newer one already linked (their tasks raced)
/// is the one told, and links nothing ([`takeover::claim`]). Returns the
/// claim.
fn link_table(
    shared: &Shared,
    table: u16,
    conn_id: u64,
    out: &outq::Sender<Outbound>,
    connection: &proto::shell::Connection,
) -> Claim {
    let Ok(hall) = shared.hall.lock() else {
        return Claim::Stale;
    };
    let Ok(mut links) = shared.links.lock() else {
        return Claim::Stale;
    };
    let held = links.get(&table).map(|l| Held {
        conn: l.conn,
        closing: l.connection.close_reason().is_some(),
    });
    let verdict = takeover::claim(held, conn_id);
    if verdict == Claim::Stale {
        tracing::debug!(
            table,
            "a newer connection of the table linked first: this one is taken over"
        );
        taken_over(table, out.clone(), connection.clone());
        return verdict;
    }
    let older = links.insert(
        table,
        TableLink {
            conn: conn_id,
            tx: out.clone(),
            connection: connection.clone(),
        },
    );
    if let (Claim::TakeOver, Some(older)) = (verdict, older) {
        tracing::debug!(
            table,
            "a newer connection of the table takes it over from the older one"
        );
        taken_over(table, older.tx, older.connection);
    }
    if let Some(ts) = hall.table(table) {
        for (id, control) in &ts.pending_controls {
            let msg = ServerMsg::Control {
                id: *id,
                table,
                control: control.clone(),
            };
            if out.try_send(Outbound::Msg(Box::new(msg))).is_err() {
                tracing::warn!(
                    table,
                    id,
                    "too many pending controls to queue; the rest at the next connection"
                );
                break;
            }
        }
        if !ts.pending_controls.is_empty() {
            tracing::info!(
                table,
                n = ts.pending_controls.len(),
                "pending controls resent"
            );
        }
    }
    verdict
}

/// Tells a table's connection it was taken over, and closes it a moment
/// later (so that the notice leaves).
fn taken_over(table: u16, tx: outq::Sender<Outbound>, connection: proto::shell::Connection) {
    let _ = tx.try_send(Outbound::Msg(Box::new(ServerMsg::TakenOver { table })));
    tokio::spawn(async move {
        tokio::time::sleep(TAKEN_OVER_CLOSE).await;
        connection.close(
            CLOSE_REFUSED.into(),
            b"taken over by a newer terminal of this table",
        );
    });
}

fn role_of(p: &Principal) -> Role {
    match p {
        Principal::Chief { .. } => Role::Chief,
        Principal::Deputy { name, tables } => Role::Deputy {
            name: name.clone(),
            tables: tables
                .iter()
                .filter_map(|t| u16::try_from(*t).ok())
                .collect(),
        },
        Principal::Table { table } => Role::Table {
            table: u16::try_from(*table).unwrap_or(u16::MAX),
        },
        Principal::Viewer { .. } => Role::Viewer,
    }
}

/// The kind of a table event, for authorization.
pub fn event_kind(e: &TableEvent) -> TableEventKind {
    match e {
        TableEvent::Arrived { .. } => TableEventKind::Arrived,
        TableEvent::ClockStarted { .. }
        | TableEvent::ClockPress { .. }
        | TableEvent::FlagFell { .. } => TableEventKind::ClockPress,
        TableEvent::Move { .. } => TableEventKind::Move,
        TableEvent::ClaimNaturalLimit { .. } => TableEventKind::ClaimNaturalLimit,
        TableEvent::ClaimRepetition { .. } => TableEventKind::ClaimRepetition,
        TableEvent::DrawOffer { .. } | TableEvent::DrawDecline { .. } => TableEventKind::DrawOffer,
        TableEvent::DrawAccept { .. } => TableEventKind::DrawAccept,
        TableEvent::Resign { .. } => TableEventKind::Resign,
        TableEvent::CallArbiter { .. } => TableEventKind::CallArbiter,
        TableEvent::FoulReport { .. } => TableEventKind::FoulReport,
        TableEvent::Result { .. } => TableEventKind::Result,
        TableEvent::ControlApplied { .. } => TableEventKind::CommandAck,
    }
}

struct Reader {
    shared: Arc<Shared>,
    /// The pipeline.
    submitter: Submitter,
    principal: Principal,
    out: outq::Sender<Outbound>,
    /// The connection's room for queued replies, in bytes.
    room: Room,
    /// Table events read and checked, not yet handed to the pipeline.
    burst: Vec<EventEnvelope>,
    /// The requests of `burst`.
    burst_res: Vec<RequestRef>,
    /// The size of the last burst sent: the next one's room is made at
    /// its first event, not grown by copies as a flood's events come in.
    last_burst: u16,
    subscribed: Option<u64>,
}

impl Reader {
    /// Encodes a reply and queues it once there is room; false when the
    /// writer is gone. The reply is encoded when this is called, so the
    /// future holds its frame, not the message (a `ServerMsg` is 400
    /// bytes, and this future is part of every connection's: issue 40).
    fn send(&self, msg: ServerMsg) -> impl std::future::Future<Output = bool> + Send + '_ {
        let frame = self.encoded(msg);
        async move {
            match frame {
                Some(f) => self.send_frame(f).await,
                None => true,
            }
        }
    }

    /// A reply's frame, or, if it does not encode, the frame of an error
    /// saying so (logged with the principal); `None` if that does not
    /// encode either.
    fn encoded(&self, msg: ServerMsg) -> Option<Frame> {
        match proto::frame::encode_frame(&msg) {
            Ok(f) => Some(Arc::new(f)),
            Err(e) => {
                let error = e.to_string();
                let who = self.principal.who();
                tracing::error!(who = %escaped(&who), error = %escaped(&error), "reply does not encode: the client is sent an error");
                let re = match msg {
                    ServerMsg::Error(e) => e.re,
                    _ => None,
                };
                let m = ServerMsg::Error(ErrorReply {
                    code: ErrorCode::Internal,
                    message: refusals::does_not_fit(&error),
                    re,
                });
                proto::frame::encode_frame(&m).ok().map(Arc::new)
            }
        }
    }

    /// Queues an encoded reply once there is room (the reader reads nothing
    /// while it waits); false when the writer is gone.
    async fn send_frame(&self, frame: Frame) -> bool {
        let Some(room) = self.room.reserve(frame.len()).await else {
            return false;
        };
        self.out.send(Outbound::Frame { frame, room }).await.is_ok()
    }

    /// Waits for the principal's pace of large reads (`reads.rs`).
    async fn pace(&self) {
        let wait = self
            .shared
            .reads
            .wait(&self.principal.who(), std::time::Instant::now());
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
    }

    /// An error reply (see [`Reader::send`]).
    fn error(
        &self,
        code: ErrorCode,
        message: Message,
        re: Option<RequestRef>,
    ) -> impl std::future::Future<Output = bool> + Send + '_ {
        self.send(ServerMsg::Error(ErrorReply { code, message, re }))
    }

    /// Reads and handles frames until the stream ends; the reason to close
    /// the connection with [`CLOSE_PROTOCOL`] once the replies are sent,
    /// if the peer broke the protocol.
    async fn run(
        &mut self,
        receiver: &mut ServerReceiver,
        connection: &proto::shell::Connection,
    ) -> Option<&'static [u8]> {
        loop {
            let mut next = Some(receiver.recv().await);
            while let Some(read) = next {
                // Boxed past the common case (a table event this
                // principal may send, added to the burst): the other
                // reads' future is large, and inline its size would be
                // every connection's for its whole life (issue 40).
                if let Err(read) = self.event_at_once(read) {
                    if let Some(end) = Box::pin(self.frame(read, connection)).await {
                        self.send_burst().await;
                        return end;
                    }
                }
                if self.burst.len() >= MAX_BURST && !self.send_burst().await {
                    return None;
                }
                // What else the same read brought, without waiting.
                next = receiver.try_recv_buffered().map(|r| r.map(Some));
            }
            if !self.send_burst().await {
                return None;
            }
        }
    }

    /// The common read, a table event the principal may send with a
    /// sequence number, added to the burst without waiting; any other
    /// read back, for [`Reader::frame`].
    fn event_at_once(&mut self, read: Read) -> Result<(), Read> {
        match read {
            Ok(Some(ClientMsg::Event(env))) if env.seq != 0 => {
                let action = Action::TableEvent {
                    table: u32::from(env.table),
                    kind: event_kind(&env.body),
                };
                if authorize(&self.principal, &action).is_err() {
                    return Err(Ok(Some(ClientMsg::Event(env))));
                }
                let re = RequestRef::Event {
                    table: env.table,
                    epoch: env.epoch,
                    seq: env.seq,
                };
                self.add_to_burst(env, re);
                Ok(())
            }
            other => Err(other),
        }
    }

    /// Handles one read: `Some(end)` when the connection ends (closed with
    /// [`CLOSE_PROTOCOL`] and that reason, if any, once the replies are
    /// sent). Anything but a table event to add to the burst first sends
    /// the burst, so that replies keep the order of the requests.
    async fn frame(
        &mut self,
        read: Read,
        connection: &proto::shell::Connection,
    ) -> Option<Option<&'static [u8]>> {
        if !matches!(read, Ok(Some(ClientMsg::Event(_)))) && !self.send_burst().await {
            return Some(None);
        }
        let msg = match read {
            Ok(Some(m)) => m,
            Ok(None) => return Some(None),
            Err(FrameError::TooLarge { len, max }) => {
                // Not drained: the connection ends here (the stream is
                // stopped when the receiver drops).
                tracing::info!(who = %self.principal.who(), len, max, "frame too large: closing the connection");
                let limit = u32::try_from(max).unwrap_or(u32::MAX);
                let m = refusals::frame_too_large(len, max);
                self.error(ErrorCode::TooLarge { limit }, m, None).await;
                return Some(Some(b"frame too large"));
            }
            Err(e @ FrameError::Codec(_)) => {
                let error = e.to_string();
                tracing::info!(who = %self.principal.who(), error = %escaped(&error), "malformed frame");
                if !self
                    .error(ErrorCode::BadFrame, refusals::malformed_frame(), None)
                    .await
                {
                    return Some(None);
                }
                return None;
            }
            Err(e) => {
                let error = e.to_string();
                tracing::info!(error = %escaped(&error), who = %self.principal.who(), "stream ended");
                if matches!(e, FrameError::Truncated { .. }) {
                    connection.close(CLOSE_PROTOCOL.into(), b"truncated frame");
                }
                return Some(None);
            }
        };
        let ok = match msg {
            ClientMsg::Hello(_) => {
                self.error(ErrorCode::Unexpected, refusals::hello_again(), None)
                    .await
            }
            ClientMsg::Ping { nonce } => self.send(ServerMsg::Pong { nonce }).await,
            ClientMsg::Event(env) => self.event(env).await,
            // Boxed: a command's future (a subscription's pages, a
            // pairing, an export) is large and rare; inline, its size
            // would be every connection's, a table's too, for its whole
            // life (issue 40).
            ClientMsg::Command { id, command } => Box::pin(self.command(id, command)).await,
        };
        (!ok).then_some(None)
    }

    /// Hands the burst to the pipeline and its replies' receiver to the
    /// writer; false when the writer is gone.
    async fn send_burst(&mut self) -> bool {
        if self.burst.is_empty() {
            return true;
        }
        // Taken, not replaced by vectors of the same capacity: a quiet
        // connection holds none while it waits for its next event.
        let n = self.burst.len();
        self.last_burst = u16::try_from(n).unwrap_or(u16::MAX);
        let events = std::mem::take(&mut self.burst);
        let res = std::mem::take(&mut self.burst_res);
        let Some(room) = self.room.reserve(SMALL_REPLY * n).await else {
            return false;
        };
        match self.submitter.submit_burst(events, now_ms()).await {
            Some(rx) => self
                .out
                .send(Outbound::Burst { rx, res, room })
                .await
                .is_ok(),
            None => Box::pin(self.stopping(res)).await,
        }
    }

    /// The pipeline is stopping: each request of the burst is told so;
    /// false when the writer is gone.
    async fn stopping(&self, res: Vec<RequestRef>) -> bool {
        for re in res {
            if !self
                .error(ErrorCode::Unavailable, refusals::stopping(), Some(re))
                .await
            {
                return false;
            }
        }
        true
    }

    async fn event(&mut self, env: EventEnvelope) -> bool {
        let re = RequestRef::Event {
            table: env.table,
            epoch: env.epoch,
            seq: env.seq,
        };
        let action = Action::TableEvent {
            table: u32::from(env.table),
            kind: event_kind(&env.body),
        };
        if let Err(refusal) = authorize(&self.principal, &action) {
            if !self.send_burst().await {
                return false;
            }
            let code = match self.principal {
                Principal::Table { .. } => ErrorCode::WrongTable,
                _ => ErrorCode::Forbidden,
            };
            self.refused(
                Words::of(hall::audit::asked::report(action.name(), env.table)),
                Some(env.table),
                &refusal.message,
            )
            .await;
            return self.error(code, refusal.message, Some(re)).await;
        }
        if env.seq == 0 {
            return self.send_burst().await
                && self
                    .error(ErrorCode::Invalid, refusals::seq_from_one(), Some(re))
                    .await;
        }
        self.add_to_burst(env, re);
        true
    }

    /// Adds a checked table event and its request to the burst, making
    /// room for as many as the last burst held at the first.
    fn add_to_burst(&mut self, env: EventEnvelope, re: RequestRef) {
        if self.burst.is_empty() {
            let room = usize::from(self.last_burst).clamp(1, MAX_BURST);
            self.burst.reserve_exact(room);
            self.burst_res.reserve_exact(room);
        }
        self.burst.push(env);
        self.burst_res.push(re);
    }

    /// Records a refusal in the audit trail, bounded per principal
    /// (`refusals`): stored (texts cut, logged escaped) before the error
    /// reply goes out, or past the threshold only counted. Boxed: rare,
    /// and its future (a record, its texts, the commit's wait) would
    /// otherwise be part of every connection's for its whole life.
    fn refused<'a>(
        &'a self,
        what: Words,
        table: Option<u16>,
        why_msg: &'a Message,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>> {
        Box::pin(self.refused_now(what, table, why_msg))
    }

    async fn refused_now(&self, what: Words, table: Option<u16>, why_msg: &Message) {
        // The log and the audit trail's text keep English; the typed
        // messages go beside them (protocol 10), bounded like the texts.
        let why = &i18n::texts::english(why_msg);
        let (what, what_msg) = (what.text, what.msg);
        let who = self.principal.who();
        let now = now_ms();
        let (ended, verdict) = self.shared.refusals.note(&who, now);
        if let Some(rec) = ended {
            self.submitter.submit_quiet(rec, now).await;
        }
        match verdict {
            RefusalVerdict::Store => {
                tracing::info!(who = %who, what = %escaped(&what), why = %escaped(why), "refused");
                let rec = Record::Refused {
                    who,
                    what: truncate(&what, MAX_TEXT),
                    table,
                    why: truncate(why, MAX_TEXT),
                    what_msg: what_msg.as_ref().and_then(crate::refusals::bounded),
                    why_msg: crate::refusals::bounded(why_msg),
                };
                // The refusal is in the audit trail before the error reply goes out.
                if let Some(rx) = self.submitter.submit(rec, now).await {
                    let _ = rx.await;
                }
            }
            RefusalVerdict::Count { alert: Some(note) } => {
                tracing::warn!(who = %who, "refused requests past the threshold: counted from now on, one entry per window");
                self.submitter.submit_quiet(note, now).await;
            }
            RefusalVerdict::Count { alert: None } => {}
        }
    }

    async fn command(&mut self, id: u64, command: Command) -> bool {
        let re = RequestRef::Command { id };
        let checked = {
            let Ok(hall) = self.shared.hall.lock() else {
                return false;
            };
            let action = hall.action_of(&command);
            match authorize(&self.principal, &action) {
                Err(r) => Err((ErrorCode::Forbidden, r.message, true)),
                Ok(()) => hall
                    .check_command(&command)
                    .map_err(|r| (r.code(), r.message(), false)),
            }
        };
        if let Err((code, why, forbidden)) = checked {
            let what = Words::typed(describe(&command), hall::command::typed(&command));
            let table = command.table();
            if forbidden
                || !matches!(
                    command,
                    Command::Subscribe | Command::Unsubscribe | Command::GetTableLog { .. }
                )
            {
                self.refused(what, table, &why).await;
            }
            return self.error(code, why, Some(re)).await;
        }
        if let Some((what, why)) = self.refused_here(&command) {
            self.refused(what, None, &why).await;
            return self.error(ErrorCode::Invalid, why, Some(re)).await;
        }
        match command {
            Command::Subscribe => self.subscribe(id).await,
            Command::Unsubscribe => {
                if let Some(s) = self.subscribed.take() {
                    self.shared.publisher.unsubscribe(s);
                    // Its queued deltas are not sent after this.
                    if self.out.send(Outbound::Unsubscribe).await.is_err() {
                        return false;
                    }
                }
                self.send(ServerMsg::CommandOk {
                    id,
                    note: String::new(),
                })
                .await
            }
            Command::GetTableLog { table } => {
                self.pace().await;
                // The public display gets the clocks, not the audit trail:
                // its own cached copy (crate::viewer).
                let public = matches!(self.principal, Principal::Viewer { .. });
                match self.shared.table_logs.get(&self.shared.hall, table, public) {
                    LogFrame::Frame(f) => self.send_frame(f).await,
                    LogFrame::NoTable => {
                        self.error(ErrorCode::NotFound, refusals::no_table(table), Some(re))
                            .await
                    }
                    LogFrame::TooLarge(e) => {
                        let error = e.to_string();
                        tracing::error!(table, error = %escaped(&error), "table log does not encode");
                        self.error(
                            ErrorCode::Internal,
                            refusals::table_log_too_large(table),
                            Some(re),
                        )
                        .await
                    }
                }
            }
            Command::PairNextRound => self.pair_next_round(id, re).await,
            command @ (Command::PublishRound { .. }
            | Command::WithdrawRound { .. }
            | Command::EnterPlayer { .. }
            | Command::WithdrawPlayer { .. })
                if self.shared.export.config().store.is_some() =>
            {
                self.tournament_command(command, re).await
            }
            other => {
                let exporting = matches!(other, Command::ExportRound);
                let record = Record::Command {
                    author: self.principal.author(),
                    command: other,
                };
                self.store_command(record, exporting, re).await
            }
        }
    }

    /// A command of the tournament's in a hall on PostgreSQL (publishing
    /// or withdrawing a round, entering or withdrawing a player): checked
    /// and recorded with the tournament first (`halls_round`), then stored
    /// as the hall's own record; or refused, naming why.
    async fn tournament_command(&mut self, command: Command, re: RequestRef) -> bool {
        let author = self.principal.author();
        let what = Words::typed(describe(&command), hall::command::typed(&command));
        let checked = match command {
            Command::PublishRound { round, changes } => {
                crate::halls_round::publish(&self.shared, author, *round, changes).await
            }
            Command::WithdrawRound { round, reason } => {
                crate::halls_round::withdraw(&self.shared, author, round, reason).await
            }
            command => {
                let config = self.shared.export.config();
                match crate::halls_round::players_refused(&config, &command).await {
                    Some(why) => Err(why),
                    None => Ok(Record::Command { author, command }),
                }
            }
        };
        match checked {
            Ok(record) => self.store_command(record, false, re).await,
            Err(why) => {
                self.refused(what, None, &why).await;
                self.error(ErrorCode::Invalid, why, Some(re)).await
            }
        }
    }

    /// Stores a command's `record` and answers once it is stored and
    /// applied (and, for `exporting`, once the export ran).
    async fn store_command(&mut self, record: Record, exporting: bool, re: RequestRef) -> bool {
        match self.submitter.submit(record, now_ms()).await {
            Some(rx) => {
                // The export runs once the command is stored; its
                // reply keeps its place among this connection's replies.
                let rx = match exporting {
                    true => crate::export::command::after_commit(self.shared.export.clone(), rx),
                    false => rx,
                };
                let Some(room) = self.room.reserve(SMALL_REPLY).await else {
                    return false;
                };
                self.out.send(Outbound::Wait { rx, re, room }).await.is_ok()
            }
            None => {
                self.error(ErrorCode::Unavailable, refusals::stopping(), Some(re))
                    .await
            }
        }
    }

    /// `PairNextRound`: the proposal, computed off the runtime from the
    /// record (`next_round::propose`), or an error naming why not.
    async fn pair_next_round(&mut self, id: u64, re: RequestRef) -> bool {
        let tables: Vec<u16> = match self.shared.hall.lock() {
            Ok(h) => h.tables().keys().copied().collect(),
            Err(_) => return false,
        };
        let source = self.shared.export.clone();
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let config = source.config();
        if config.store.is_some() {
            let proposed = crate::halls_round::propose(config.clone(), seed)
                .await
                .map(|mut p| {
                    p.notes.extend(crate::deputies::notes(&config, &p));
                    p
                });
            return self.proposal_reply(id, re, proposed).await;
        }
        let proposed = tokio::task::spawn_blocking(move || {
            let config = source.config();
            let mut p = crate::next_round::propose(source.data_dir(), &config, &tables, seed)
                .map_err(refusals::pairing_failed)?;
            p.notes.extend(crate::deputies::notes(&config, &p));
            Ok(p)
        })
        .await
        .unwrap_or_else(|e| {
            Err(refusals::pairing_failed(refusals::why_words(
                &e.to_string(),
            )))
        });
        self.proposal_reply(id, re, proposed).await
    }

    /// The reply to `PairNextRound`: the proposal, or why not.
    async fn proposal_reply(
        &mut self,
        id: u64,
        re: RequestRef,
        proposed: Result<RoundProposal, Message>,
    ) -> bool {
        match proposed {
            Ok(p) => {
                tracing::info!(
                    round = p.round,
                    boards = p.boards.len(),
                    seed = p.seed,
                    "next round proposed"
                );
                self.send(ServerMsg::RoundProposal {
                    id,
                    proposal: Box::new(p),
                })
                .await
            }
            Err(why) => self.error(ErrorCode::Invalid, why, Some(re)).await,
        }
    }

    /// Why the server refuses `command` beyond the hall's own check (what
    /// needs the config: the published round's tables, the round of a
    /// correction), with the words for the audit trail.
    fn refused_here(&self, command: &Command) -> Option<(Words, Message)> {
        use hall::audit::asked;
        match command {
            Command::PublishRound { round, .. } => self
                .publish_refused(round)
                .map(|why| (Words::of(asked::publish_round(Some(round.round))), why)),
            Command::EnterPlayer { .. } | Command::WithdrawPlayer { .. } => {
                self.players_refused(command)
            }
            Command::CorrectResult { round, table, .. } => {
                self.correction_refused(*round, *table).map(|why| {
                    let what = Words::of(asked::correct_result(*round, *table));
                    (what, why)
                })
            }
            _ => None,
        }
    }

    /// Why an entry or a withdrawal of a player cannot be stored: the
    /// tournament's players as the record holds them
    /// (`next_round::roster`): an entry of a player already there, a
    /// withdrawal of no player or of one withdrawn already. A hall on
    /// PostgreSQL checks against the whole tournament's players when the
    /// command is handled (`halls_round::players_refused`).
    fn players_refused(&self, command: &Command) -> Option<(Words, Message)> {
        let config = self.shared.export.config();
        if config.store.is_some() {
            return None;
        }
        let what = Words::typed(
            hall::command::describe(command),
            hall::command::typed(command),
        );
        let refusal = crate::next_round::roster(&config)
            .check(command)
            .err()?
            .message();
        Some((what, refusal))
    }

    /// Why a published round cannot be stored here (beyond the hall's own
    /// check): a hall on PostgreSQL, tables without a deputy when the
    /// config asks for one at every table, or a table without a token.
    fn publish_refused(&self, round: &proto::RoundProposal) -> Option<Message> {
        let config = self.shared.export.config();
        if config.store.is_some() {
            // A tournament's round: its own part is checked when it is
            // published (halls_round::publish).
            return None;
        }
        if let Some(why) = crate::deputies::refusal(&config, round) {
            // The config's typed words (config-*) inside the catalogue's frame.
            return Some(refusals::bad_round(round.round, why));
        }
        let missing: Vec<u16> = round
            .boards
            .iter()
            .filter(|b| !self.shared.auth.has_table(b.table))
            .map(|b| b.table)
            .collect();
        (!missing.is_empty()).then(|| refusals::publish_no_tokens(round.round, &missing))
    }

    /// Why a correction of round `round`'s result at `table` cannot be
    /// stored (beyond the hall's own check, which knows only the round it
    /// plays): the table was no board of that round.
    fn correction_refused(&self, round: u32, table: u16) -> Option<Message> {
        let config = self.shared.export.config();
        let Some(r) = config.round(round) else {
            let why = Message::new("why-not-a-round-of-hall").int("round", round);
            return Some(refusals::bad_correction(round, table, why));
        };
        match r.tables.iter().any(|p| p.table == u32::from(table)) {
            true => None,
            false => Some(refusals::bad_correction(
                round,
                table,
                Message::new("why-no-game-at-table")
                    .int("round", round)
                    .int("table", table)
                    .verbatim(
                        "tables",
                        r.tables
                            .iter()
                            .map(|p| p.table.to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
            )),
        }
    }

    async fn subscribe(&mut self, id: u64) -> bool {
        if self.subscribed.is_some() {
            return self
                .send(ServerMsg::CommandOk {
                    id,
                    note: "already subscribed".into(),
                })
                .await;
        }
        let public = matches!(self.principal, Principal::Viewer { .. });
        // The public token (handed to displays) is paced and refused past
        // its pace; an arbiter's console (a secret token, a closed list of
        // officials) always gets its picture back after a reconnect, paced
        // only by the large-read pace below, which waits and never refuses.
        let who = self.principal.who();
        if public {
            let now = std::time::Instant::now();
            if let Err(wait) = self.shared.subscriptions.take(&who, now) {
                // Recorded and logged as every refusal is (bounded per principal).
                let why = crate::reads::subscribe_refusal(&who, wait);
                let what = Words::of(hall::command::typed(&Command::Subscribe));
                self.refused(what, None, &why).await;
                let re = Some(RequestRef::Command { id });
                return self.error(ErrorCode::Unavailable, why, re).await;
            }
        }
        self.pace().await;
        // Under the hall lock only the registration and the picture (the
        // tables' shared views): the snapshot is made from it after.
        let (sub, rx, picture) = {
            let Ok(mut hall) = self.shared.hall.lock() else {
                return false;
            };
            let (sub, rx) = self.shared.publisher.subscribe(public);
            let picture = hall.picture(sub.part());
            (sub, rx, picture)
        };
        let mut pages = crate::pages::Pages::new(picture, public, now_ms());
        let first = pages.next_frame();
        if let Some(Err(e)) = first {
            return self.snapshot_refused(id, sub.id, pages.tables(), e).await;
        }
        self.subscribed = Some(sub.id);
        // The snapshot goes out before any delta: both through the writer,
        // in order, its pages one at a time (each waits for room).
        if !self
            .send(ServerMsg::CommandOk {
                id,
                note: String::new(),
            })
            .await
        {
            return false;
        }
        let mut frame = first;
        while let Some(f) = frame {
            match f {
                Ok(f) => {
                    if !self.send_frame(Arc::new(f)).await {
                        return false;
                    }
                }
                Err(e) => {
                    self.subscribed = None;
                    return self.snapshot_refused(id, sub.id, pages.tables(), e).await;
                }
            }
            frame = pages.next_frame();
        }
        self.out.send(Outbound::Subscribe(sub, rx)).await.is_ok()
    }

    /// A snapshot that does not encode (a part over the frame limit):
    /// never a silent drop — not subscribed, told why, logged.
    async fn snapshot_refused(&mut self, id: u64, sub: u64, tables: usize, e: FrameError) -> bool {
        self.shared.publisher.unsubscribe(sub);
        let who = self.principal.who();
        let error = e.to_string();
        tracing::error!(who = %escaped(&who), tables, error = %escaped(&error), "the hall's snapshot does not encode: subscription refused");
        let why = refusals::snapshot_too_large(tables, &error, false);
        self.error(ErrorCode::Internal, why, Some(RequestRef::Command { id }))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of the future an async fn of three arguments returns.
    fn future_bytes<A, B, C, F: std::future::Future>(_: impl FnOnce(A, B, C) -> F) -> usize {
        std::mem::size_of::<F>()
    }

    /// A connection's task (its reader and writer, for its whole life) is
    /// held by every connected table: the rare steps (the hello, a
    /// refusal, a command, a console's fresh snapshot) are boxed when they
    /// come, so it stays small (issue 40: 3,648 bytes for the reader's
    /// task and 1,152 for the writer's before they were one, 3,800
    /// after; 2,752 once a table event went into the burst without the
    /// other reads' future and a burst's job was made after its place in
    /// the queue; 1,848 once the admission's and the sign-in's state left
    /// it and the reader's and writer's arguments went to them boxed).
    /// Tokio's task cell adds ~150 bytes and is 128-aligned: at ≤ 1,900
    /// the cell is 2,048 bytes, mimalloc's 2,048 size class, where 2,752
    /// (in the admission's task, 3,328) took its 3,584.
    #[test]
    fn a_connections_task_stays_small() {
        let bytes = future_bytes(serve);
        eprintln!("a connection's task: {bytes} bytes");
        assert!(bytes <= 1_900, "a connection's future is {bytes} bytes");
        // Every slot of the queue's first block (32 of them) is this big.
        let slot = std::mem::size_of::<Outbound>();
        assert!(slot <= 48, "an Outbound is {slot} bytes");
    }
}
