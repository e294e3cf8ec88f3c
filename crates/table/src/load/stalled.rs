//! Stalled viewers for `caipan bench hall --stalled-viewers N`: N viewer
//! connections that subscribe to the hall and ask for table logs as fast
//! as the server takes their requests, and never read a byte after their
//! `HelloOk` (their connection takes at most 64 KiB unread, as a peer that
//! stops granting flow-control credit). When the server closes one for
//! not reading, it connects again and goes on. The bench measures the
//! tables' acks and the console's deltas while they run.

use proto::frame::encode_frame;
use proto::{ClientMsg, Command, Hello, ServerMsg, Trust, PROTOCOL_VERSION};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Bytes a stalled viewer's connection takes unread.
pub const UNREAD: u32 = 64 * 1024;

/// What the stalled viewers did.
#[derive(Debug, Clone, Default)]
pub struct StalledReport {
    pub viewers: usize,
    /// Connections signed in (reconnections included).
    pub connections: u64,
    /// Connections the server closed for not reading.
    pub closed_for_not_reading: u64,
    /// `GetTableLog` requests the server's QUIC stack took.
    pub log_requests: u64,
}

#[derive(Default)]
struct Counts {
    connections: AtomicU64,
    closed: AtomicU64,
    requests: AtomicU64,
}

/// The running stalled viewers.
pub struct Stalled {
    tasks: Vec<tokio::task::JoinHandle<()>>,
    counts: Arc<Counts>,
}

impl Stalled {
    /// Starts `n` stalled viewers with `token` against `server`, asking for
    /// the logs of tables `1..=tables`.
    pub fn start(
        server: SocketAddr,
        trust: &Trust,
        token: &str,
        n: usize,
        tables: u16,
    ) -> Result<Stalled, proto::ConnError> {
        let mut config = proto::tls::client_config(trust)?;
        let mut t = proto::tls::transport_config();
        t.stream_receive_window(UNREAD.into());
        t.receive_window(UNREAD.into());
        config.transport_config(Arc::new(t));
        let bind = if server.is_ipv6() {
            (std::net::Ipv6Addr::UNSPECIFIED, 0).into()
        } else {
            (std::net::Ipv4Addr::UNSPECIFIED, 0).into()
        };
        let endpoint = quinn::Endpoint::client(bind).map_err(proto::ConnError::Bind)?;
        let counts = Arc::new(Counts::default());
        let tasks = (0..n)
            .map(|i| {
                let (endpoint, config) = (endpoint.clone(), config.clone());
                let (token, counts) = (token.to_string(), counts.clone());
                let first = (i as u16 % tables.max(1)) + 1;
                tokio::spawn(async move {
                    loop {
                        let r =
                            stall_once(&endpoint, &config, server, &token, first, tables, &counts)
                                .await;
                        if r.is_err() {
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                    }
                })
            })
            .collect();
        Ok(Stalled { tasks, counts })
    }

    /// Stops them; what they did.
    pub fn stop(self) -> StalledReport {
        for t in &self.tasks {
            t.abort();
        }
        StalledReport {
            viewers: self.tasks.len(),
            connections: self.counts.connections.load(Ordering::Relaxed),
            closed_for_not_reading: self.counts.closed.load(Ordering::Relaxed),
            log_requests: self.counts.requests.load(Ordering::Relaxed),
        }
    }
}

/// One connection: sign in, subscribe, ask for logs until the server
/// closes it.
async fn stall_once(
    endpoint: &quinn::Endpoint,
    config: &quinn::ClientConfig,
    server: SocketAddr,
    token: &str,
    first: u16,
    tables: u16,
    counts: &Counts,
) -> Result<(), String> {
    let conn = endpoint
        .connect_with(config.clone(), server, proto::tls::SERVER_NAME)
        .map_err(|e| e.to_string())?
        .await
        .map_err(|e| e.to_string())?;
    let (mut send, recv) = conn.open_bi().await.map_err(|e| e.to_string())?;
    let frame = |m: &ClientMsg| encode_frame(m).map_err(|e| e.to_string());
    let hello = ClientMsg::Hello(Hello {
        protocol_version: PROTOCOL_VERSION,
        token: token.to_string(),
        client: "caipan-bench-stalled".into(),
    });
    send.write_all(&frame(&hello)?)
        .await
        .map_err(|e| e.to_string())?;
    let mut rx = proto::FrameReader::<_, ServerMsg>::new(recv);
    match tokio::time::timeout(proto::conn::HELLO_TIMEOUT, rx.recv()).await {
        Ok(Ok(Some(ServerMsg::HelloOk(_)))) => {}
        other => return Err(format!("no HelloOk: {other:?}")),
    }
    // Kept open, never read again.
    let _unread = rx.into_inner();
    counts.connections.fetch_add(1, Ordering::Relaxed);
    let subscribe = ClientMsg::Command {
        id: 0,
        command: Command::Subscribe,
    };
    send.write_all(&frame(&subscribe)?)
        .await
        .map_err(|e| e.to_string())?;
    let mut table = first;
    for id in 1u64.. {
        let m = ClientMsg::Command {
            id,
            command: Command::GetTableLog { table },
        };
        if send.write_all(&frame(&m)?).await.is_err() {
            break;
        }
        counts.requests.fetch_add(1, Ordering::Relaxed);
        table = table % tables.max(1) + 1;
    }
    if let quinn::ConnectionError::ApplicationClosed(c) = conn.closed().await {
        if c.error_code == proto::conn::CLOSE_STALLED.into() {
            counts.closed.fetch_add(1, Ordering::Relaxed);
        }
    }
    Ok(())
}
