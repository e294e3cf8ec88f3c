//! The console's link to the server (网络): sign in, subscribe, pass server
//! messages to the app, send its commands — and reconnect by itself.
//!
//! [`spawn`] starts one task that loops: connect (QUIC + TLS with the
//! pinned certificate, `Hello` with the token), subscribe, then relay until
//! the link breaks; it reports [`ConnState`] changes so the screen shows
//! "disconnected — retrying", waits with a growing backoff (0.5 s … 5 s) and
//! connects again. Only network trouble is retried: a permanent refusal
//! (an unknown token, a role not allowed, another protocol version, a
//! certificate that does not match the pinned fingerprint) stops the task
//! with [`ConnState::Refused`] naming the cause. Every new subscription brings a fresh snapshot, which
//! replaces the app's hall. Given several addresses of one hall (an active
//! server and its standby, README "A standby server") it tries them in
//! turn, the one that answered last first and, after a lost link, the next
//! one first; a server that answers no ping for [`SILENCE`] is taken for
//! gone (a stopped server keeps QUIC's promise for its idle timeout). A
//! console over several halls runs one such task per hall
//! ([`spawn_halls`]), each with its own addresses, certificate and token,
//! and sends each command to its hall's task. A command that arrives while the link is down is
//! answered locally with an `Unavailable` error, never queued for later: an
//! arbiter's action must not be carried out minutes after it was meant.

use crate::app::{ConnState, LinkError, Outgoing};
use crate::i18n::Lang;
use proto::{
    ClientMsg, Command, ConnError, Connector, ErrorCode, ErrorReply, Hello, RequestRef, ServerMsg,
    Trust, PROTOCOL_VERSION,
};
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;
use tokio::sync::mpsc;
use tracing::{debug, info, warn};

/// Where and how to connect.
#[derive(Debug, Clone)]
pub struct NetConfig {
    /// `host:port` of the hall's servers (resolved again at each attempt),
    /// tried in turn; at least one.
    pub servers: Vec<String>,
    pub token: String,
    pub trust: Trust,
}

/// One hall of a console over several halls: its short name (the hall
/// column; empty for a console of one hall) and how to reach it.
#[derive(Debug, Clone)]
pub struct HallLink {
    pub name: String,
    pub net: NetConfig,
}

/// What the network task reports to the app.
#[derive(Debug, Clone)]
#[allow(
    clippy::large_enum_variant,
    reason = "almost every event is a message: boxing it would box nearly all"
)]
pub enum NetEvent {
    /// The link's state changed.
    Conn(ConnState),
    /// A message from the server.
    Msg(ServerMsg),
}

/// Ids of the task's own commands (subscribe), apart from the app's.
const NET_IDS: u64 = 1 << 62;
/// Liveness probe period (the server's idle timeout is longer).
const PING_EVERY: Duration = Duration::from_secs(5);
/// Nothing heard from the server for this long (pings unanswered): the link
/// is lost.
pub const SILENCE: Duration = Duration::from_secs(12);
/// How long one connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
const BACKOFF_MIN: Duration = Duration::from_millis(500);
const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// The wait before attempt `attempt + 1`.
pub fn backoff(attempt: u32) -> Duration {
    let factor = 1u32 << attempt.saturating_sub(1).min(10);
    (BACKOFF_MIN * factor).min(BACKOFF_MAX)
}

/// Starts the network task on the current Tokio runtime. Commands go into
/// the returned sender; events come out of the receiver. The task ends when
/// the command sender is dropped.
pub fn spawn(cfg: NetConfig) -> (mpsc::Sender<Outgoing>, mpsc::Receiver<NetEvent>) {
    let (cmd_tx, cmd_rx) = mpsc::channel(256);
    let (ev_tx, ev_rx) = mpsc::channel(4096);
    tokio::spawn(run(cfg, cmd_rx, ev_tx));
    (cmd_tx, ev_rx)
}

/// Starts one network task per hall ([`spawn`]); hall `i`'s commands go
/// into the `i`th sender, and every hall's events come out of the one
/// receiver, tagged with the hall's index.
pub fn spawn_halls(
    halls: Vec<NetConfig>,
) -> (
    Vec<mpsc::Sender<Outgoing>>,
    mpsc::Receiver<(usize, NetEvent)>,
) {
    let (all_tx, all_rx) = mpsc::channel(4096);
    let mut senders = Vec::with_capacity(halls.len());
    for (i, cfg) in halls.into_iter().enumerate() {
        let (cmd_tx, mut ev_rx) = spawn(cfg);
        senders.push(cmd_tx);
        let all_tx = all_tx.clone();
        tokio::spawn(async move {
            while let Some(ev) = ev_rx.recv().await {
                if all_tx.send((i, ev)).await.is_err() {
                    break;
                }
            }
        });
    }
    (senders, all_rx)
}

fn resolve(server: &str) -> Result<SocketAddr, String> {
    server
        .to_socket_addrs()
        .map_err(|e| format!("{server}: {e}"))?
        .next()
        .ok_or_else(|| format!("{server}: no address"))
}

/// Why a connected session ended.
enum End {
    /// The app dropped its sender: stop.
    Quit,
    /// The link broke: retry.
    Lost(LinkError),
}

async fn run(cfg: NetConfig, mut cmds: mpsc::Receiver<Outgoing>, events: mpsc::Sender<NetEvent>) {
    let mut connector: Option<(bool, Connector)> = None;
    let mut attempt: u32 = 1;
    let mut next_id = NET_IDS;
    let mut current = 0usize;
    let n = cfg.servers.len().max(1);
    loop {
        if events
            .send(NetEvent::Conn(ConnState::Connecting { attempt }))
            .await
            .is_err()
        {
            return;
        }
        let error = match connect_any(&cfg, &mut connector, current).await {
            Err(Failure {
                error,
                permanent: true,
            }) => {
                warn!(servers = ?cfg.servers, error = %error.text(Lang::En), "refused for good; not retrying");
                return refused(&events, &mut cmds, error).await;
            }
            Ok((conn, i)) => {
                info!(server = %server_at(&cfg, i), "connected");
                attempt = 1;
                match session(conn, &mut cmds, &events, &mut next_id).await {
                    End::Quit => return,
                    End::Lost(e) => {
                        // The next attempt starts with the hall's next server.
                        current = (i + 1) % n;
                        e
                    }
                }
            }
            Err(f) => f.error,
        };
        warn!(servers = ?cfg.servers, attempt, error = %error.text(Lang::En), "link down");
        if events
            .send(NetEvent::Conn(ConnState::Disconnected {
                attempt,
                error: error.clone(),
            }))
            .await
            .is_err()
        {
            return;
        }
        // Wait, refusing any command that comes meanwhile.
        let wait = tokio::time::sleep(backoff(attempt));
        tokio::pin!(wait);
        loop {
            tokio::select! {
                _ = &mut wait => break,
                cmd = cmds.recv() => match cmd {
                    Some(o) => refuse(&events, o.id, &error).await,
                    None => return,
                },
            }
        }
        attempt = attempt.saturating_add(1);
    }
}

/// A connection attempt that failed: why, and whether trying again can
/// change it ([`ConnError::is_permanent`]).
struct Failure {
    error: LinkError,
    permanent: bool,
}

/// The link stopped for good: says so, then answers every command with
/// the cause until the app goes.
async fn refused(
    events: &mpsc::Sender<NetEvent>,
    cmds: &mut mpsc::Receiver<Outgoing>,
    error: LinkError,
) {
    let state = ConnState::Refused {
        error: error.clone(),
    };
    if events.send(NetEvent::Conn(state)).await.is_err() {
        return;
    }
    while let Some(o) = cmds.recv().await {
        refuse(events, o.id, &error).await;
    }
}

fn server_at(cfg: &NetConfig, i: usize) -> &str {
    cfg.servers.get(i).map_or("?", String::as_str)
}

/// Tries each address once, from index `from`; the connection and the
/// index that answered, or the errors of all. A server of the hall that
/// refuses for good (the token, the certificate) makes the failure
/// permanent: the hall's other server has the same credentials.
async fn connect_any(
    cfg: &NetConfig,
    connector: &mut Option<(bool, Connector)>,
    from: usize,
) -> Result<(proto::ClientConn, usize), Failure> {
    let n = cfg.servers.len();
    if n == 0 {
        return Err(Failure {
            error: LinkError::from("no server address"),
            permanent: true,
        });
    }
    let mut errors = Vec::new();
    let mut permanent = false;
    for k in 0..n {
        let i = (from + k) % n;
        match connect(server_at(cfg, i), &cfg.token, &cfg.trust, connector).await {
            Ok(c) => return Ok((c, i)),
            Err(f) if n == 1 => return Err(f),
            Err(f) => {
                debug!(server = server_at(cfg, i), error = %f.error.text(Lang::En), "no hall server here");
                permanent |= f.permanent;
                errors.push((server_at(cfg, i).to_string(), f.error));
            }
        }
    }
    // One server's refusal stays typed; several are listed in words.
    let error = match errors.as_slice() {
        [(_, e)] => e.clone(),
        _ => LinkError::Words(
            errors
                .iter()
                .map(|(s, e)| format!("{s}: {}", e.text(Lang::En)))
                .collect::<Vec<_>>()
                .join("; "),
        ),
    };
    Err(Failure { error, permanent })
}

async fn connect(
    server: &str,
    token: &str,
    trust: &Trust,
    connector: &mut Option<(bool, Connector)>,
) -> Result<proto::ClientConn, Failure> {
    let network = |error: String| Failure {
        error: LinkError::Words(error),
        permanent: false,
    };
    let addr = resolve(server).map_err(network)?;
    let v6 = addr.is_ipv6();
    if connector.as_ref().is_none_or(|(fam, _)| *fam != v6) {
        let c = Connector::new(trust, v6).map_err(|e| Failure {
            permanent: e.is_permanent(),
            error: LinkError::Words(e.to_string()),
        })?;
        *connector = Some((v6, c));
    }
    let Some((_, c)) = connector.as_ref() else {
        return Err(network("no connector".into()));
    };
    let hello = Hello {
        protocol_version: PROTOCOL_VERSION,
        token: token.to_string(),
        client: format!("caipan-console {}", env!("CARGO_PKG_VERSION")),
    };
    // A hall's LAN answers in milliseconds; a server that is down gives no
    // answer at all (UDP), so give up sooner than proto's hello timeout.
    match tokio::time::timeout(CONNECT_TIMEOUT, c.connect(addr, hello)).await {
        Err(_) => Err(network(format!(
            "no answer from {addr} within {CONNECT_TIMEOUT:?}"
        ))),
        Ok(r) => r.map_err(|e| Failure {
            permanent: e.is_permanent(),
            error: match e {
                // The server's refusal stays typed: the console words it
                // in its own language when it draws the link's state.
                ConnError::Refused(r) => LinkError::Refused(r),
                other => LinkError::Words(other.to_string()),
            },
        }),
    }
}

async fn session(
    conn: proto::ClientConn,
    cmds: &mut mpsc::Receiver<Outgoing>,
    events: &mpsc::Sender<NetEvent>,
    next_id: &mut u64,
) -> End {
    let (connection, hello_ok, mut tx, mut rx) = conn.split();
    if events
        .send(NetEvent::Msg(ServerMsg::HelloOk(hello_ok)))
        .await
        .is_err()
    {
        return End::Quit;
    }
    let sub = ClientMsg::Command {
        id: *next_id,
        command: Command::Subscribe,
    };
    *next_id += 1;
    if let Err(e) = tx.send(&sub).await {
        return End::Lost(LinkError::Words(e.to_string()));
    }
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut nonce = 0u64;
    let mut heard = tokio::time::Instant::now();
    let end = loop {
        tokio::select! {
            msg = rx.recv() => match msg {
                Ok(Some(m)) => {
                    heard = tokio::time::Instant::now();
                    if let ServerMsg::Snapshot(_) = &m {
                        debug!("snapshot");
                        if events.send(NetEvent::Conn(ConnState::Connected)).await.is_err() {
                            break End::Quit;
                        }
                    }
                    // Errors answering the task's own commands are logged
                    // here, not shown as the arbiter's.
                    if let ServerMsg::Error(ErrorReply { re: Some(RequestRef::Command { id }), message, .. }) = &m {
                        if *id >= NET_IDS {
                            let message = ::i18n::texts::english(message);
                            warn!(%message, "subscribe refused");
                            continue;
                        }
                    }
                    if let ServerMsg::CommandOk { id, .. } = &m {
                        if *id >= NET_IDS {
                            continue;
                        }
                    }
                    if events.send(NetEvent::Msg(m)).await.is_err() {
                        break End::Quit;
                    }
                }
                Ok(None) => break End::Lost(LinkError::Words(
                    connection
                        .close_reason()
                        .map_or_else(|| "closed by the server".to_string(), |r| r.to_string()),
                )),
                Err(e) if e.is_recoverable() => warn!(error = %e, "bad frame from server; skipped"),
                Err(e) => break End::Lost(LinkError::Words(
                    connection
                        .close_reason()
                        .map_or_else(|| e.to_string(), |r| r.to_string()),
                )),
            },
            cmd = cmds.recv() => match cmd {
                Some(o) => {
                    debug!(id = o.id, command = ?o.command, "send");
                    let msg = ClientMsg::Command { id: o.id, command: o.command };
                    if let Err(e) = tx.send(&msg).await {
                        let error = LinkError::Words(e.to_string());
                        refuse(events, o.id, &error).await;
                        break End::Lost(error);
                    }
                }
                None => {
                    connection.close(proto::conn::CLOSE_NORMAL.into(), b"console closed");
                    break End::Quit;
                }
            },
            _ = ping.tick() => {
                if heard.elapsed() >= SILENCE {
                    connection.close(proto::conn::CLOSE_NORMAL.into(), b"no answer");
                    break End::Lost(LinkError::Words(format!("no answer from the server for {SILENCE:?}")));
                }
                nonce += 1;
                if let Err(e) = tx.send(&ClientMsg::Ping { nonce }).await {
                    break End::Lost(LinkError::Words(e.to_string()));
                }
            }
        }
    };
    end
}

/// Answers command `id` locally: the link is down.
async fn refuse(events: &mpsc::Sender<NetEvent>, id: u64, why: &LinkError) {
    let _ = events
        .send(NetEvent::Msg(ServerMsg::Error(ErrorReply {
            code: ErrorCode::Unavailable,
            message: proto::refusals::not_sent(why.message()),
            re: Some(RequestRef::Command { id }),
        })))
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_to_a_cap() {
        assert_eq!(backoff(1), Duration::from_millis(500));
        assert_eq!(backoff(2), Duration::from_secs(1));
        assert_eq!(backoff(3), Duration::from_secs(2));
        assert_eq!(backoff(5), Duration::from_secs(5));
        assert_eq!(backoff(u32::MAX), Duration::from_secs(5));
    }

    #[test]
    fn resolves_addresses() {
        assert!(resolve("127.0.0.1:4433").is_ok());
        assert!(resolve("not an address").is_err());
    }
}
