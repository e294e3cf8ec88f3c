//! The raw QUIC baseline: a bare quinn echo over the same number of
//! connections, with messages of the same sizes as the hall's (a table's
//! press event up, the server's ack down) and the same pipelining window,
//! but no decoding, authentication, storage or state. Ingest divided by
//! this is the share of raw transport throughput the server achieves.
//!
//! Two echo servers speak it: [`EchoServer`] over quinn's tasks, and
//! `raw_shell::ShellEchoServer` over quinn's state machine on one thread
//! of its own (issue 40); the clients reach either through
//! [`EchoTarget`]. Each client run also notes the process's memory
//! before its connections and with all of them connected
//! ([`ConnectMemory`]), outside the timed window.

use proto::{ServerIdentity, Trust};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Result of the baseline.
#[derive(Debug, Clone, Default)]
pub struct RawReport {
    pub connections: usize,
    pub duration_s: f64,
    pub echoes: u64,
    pub echoes_per_s: f64,
    /// Request→echo ms of a paced run ([`paced`]): p50, p99 and max
    /// (`None` for a flood).
    pub latency_ms: Option<[f64; 3]>,
    /// This process's memory before connecting and with every connection
    /// up (client and server sides both, when the server runs here).
    pub memory: Option<ConnectMemory>,
    /// CPU seconds so far of each of [`CPU_GROUPS`] (this process's
    /// threads) when every connection was up: the bench splits the
    /// connecting's CPU from the echoing's with it.
    pub connected_cpu_s: Option<Vec<f64>>,
}

/// The thread-name prefixes whose CPU [`RawReport::connected_cpu_s`]
/// notes: the echo servers' (quinn's on `caipan bench hall`'s server
/// runtime, the shell's thread `caipan-srv-raw`) and the clients' (the
/// bench's client runtime).
pub const CPU_GROUPS: [&str; 2] = ["caipan-srv", "bench-client"];

/// This process's memory around the baseline's connecting.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ConnectMemory {
    /// Resident bytes before connecting and with all connected.
    pub rss: [i64; 2],
    /// Bytes malloc has handed out and not got back (glibc's `mallinfo2`),
    /// before and with all connected; `None` off glibc.
    pub heap: Option<[i64; 2]>,
}

impl ConnectMemory {
    /// Resident bytes per connection that connecting added.
    pub fn rss_per_connection(&self, connections: usize) -> f64 {
        (self.rss[1] - self.rss[0]) as f64 / connections.max(1) as f64
    }

    /// Heap bytes per connection that connecting added.
    pub fn heap_per_connection(&self, connections: usize) -> Option<f64> {
        self.heap
            .map(|[a, b]| (b - a) as f64 / connections.max(1) as f64)
    }
}

/// This process's resident and heap bytes now.
fn memory_now() -> Option<(i64, Option<i64>)> {
    let rss = super::procstat::memory_of(None)?.rss_mb * 1024.0 * 1024.0;
    Some((rss as i64, super::procstat::malloc_in_use()))
}

/// What a client needs of an echo server: where it is and the
/// certificate to pin.
pub trait EchoTarget {
    fn addr(&self) -> SocketAddr;
    fn fingerprint(&self) -> proto::Fingerprint;
}

impl EchoTarget for EchoServer {
    fn addr(&self) -> SocketAddr {
        self.addr
    }

    fn fingerprint(&self) -> proto::Fingerprint {
        self.fingerprint
    }
}

/// Why the baseline failed.
#[derive(Debug, thiserror::Error)]
pub enum RawError {
    #[error(transparent)]
    Tls(#[from] proto::TlsError),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    #[error("connect: {0}")]
    Connect(String),
}

/// A bare echo server: for every `req`-byte frame read, one `resp`-byte
/// frame back, batched per read.
pub struct EchoServer {
    pub addr: SocketAddr,
    pub fingerprint: proto::Fingerprint,
    endpoint: quinn::Endpoint,
}

impl EchoServer {
    /// Binds on `addr` (port 0: any) and serves on the current runtime.
    pub fn start(addr: SocketAddr, req: usize, resp: usize) -> Result<EchoServer, RawError> {
        let identity = ServerIdentity::generate()?;
        let endpoint = identity.bind_ring_suites(addr)?;
        let addr = endpoint.local_addr()?;
        let ep = endpoint.clone();
        tokio::spawn(async move {
            while let Some(incoming) = ep.accept().await {
                tokio::spawn(async move {
                    let Ok(conn) = incoming.await else { return };
                    let Ok((mut send, mut recv)) = conn.accept_bi().await else {
                        return;
                    };
                    let mut buf = vec![0u8; 64 * 1024];
                    let mut carry = 0usize;
                    let reply = vec![0u8; resp];
                    let mut out = Vec::with_capacity(64 * 1024);
                    loop {
                        let n = match recv.read(&mut buf[carry..]).await {
                            Ok(Some(n)) => n,
                            _ => return,
                        };
                        let have = carry + n;
                        let frames = have / req;
                        carry = have % req;
                        out.clear();
                        for _ in 0..frames {
                            out.extend_from_slice(&reply);
                        }
                        buf.copy_within(frames * req..have, 0);
                        if send.write_all(&out).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        Ok(EchoServer {
            addr,
            fingerprint: identity.fingerprint(),
            endpoint,
        })
    }

    pub fn close(&self) {
        self.endpoint.close(0u32.into(), b"done");
    }

    /// Waits until every connection is drained (after [`Self::close`]).
    pub async fn wait_idle(&self) {
        self.endpoint.wait_idle().await;
    }
}

/// Floods `server` over `connections` connections (one client endpoint)
/// with `window` requests in flight each, for `duration`.
pub async fn flood(
    server: &impl EchoTarget,
    connections: usize,
    req: usize,
    resp: usize,
    window: usize,
    duration: Duration,
) -> Result<RawReport, RawError> {
    let (endpoint, streams, memory) = connect_all(server, connections).await?;
    let connected_cpu_s = super::procstat::thread_cpu_by_prefix(&CPU_GROUPS);
    let start = Instant::now();
    let end = start + duration;
    let mut tasks = Vec::new();
    for (conn, mut send, mut recv) in streams {
        tasks.push(tokio::spawn(async move {
            let request = vec![7u8; req];
            let mut out = Vec::with_capacity(req * window);
            let mut buf = vec![0u8; 64 * 1024];
            let mut inflight = 0usize;
            let mut got_bytes = 0usize;
            let mut echoes = 0u64;
            loop {
                let now = Instant::now();
                if now >= end {
                    break;
                }
                out.clear();
                while inflight < window {
                    out.extend_from_slice(&request);
                    inflight += 1;
                }
                if !out.is_empty() && send.write_all(&out).await.is_err() {
                    break;
                }
                let read = tokio::time::timeout_at(end.into(), recv.read(&mut buf)).await;
                let n = match read {
                    Ok(Ok(Some(n))) => n,
                    _ => break,
                };
                got_bytes += n;
                let done = got_bytes / resp;
                got_bytes %= resp;
                inflight -= done.min(inflight);
                echoes += done as u64;
            }
            conn.close(0u32.into(), b"done");
            echoes
        }));
    }
    let mut echoes = 0;
    for t in tasks {
        echoes += t.await.unwrap_or(0);
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    endpoint.close(0u32.into(), b"done");
    Ok(RawReport {
        connections,
        duration_s: secs,
        echoes,
        echoes_per_s: echoes as f64 / secs,
        latency_ms: None,
        memory,
        connected_cpu_s,
    })
}

/// Paces `server` like the hall's paced load (`--rate`): every connection
/// sends one request each `1 / rate` seconds (the connections' first
/// sends spread over the first period), waits for its echo and records
/// the time from the request to the echo. The floor the hall's ack
/// latencies at the same rate are read against: the same connections,
/// messages and rate with no referee work at all.
pub async fn paced(
    server: &impl EchoTarget,
    connections: usize,
    (req, resp): (usize, usize),
    rate: f64,
    duration: Duration,
) -> Result<RawReport, RawError> {
    let (endpoint, streams, memory) = connect_all(server, connections).await?;
    let connected_cpu_s = super::procstat::thread_cpu_by_prefix(&CPU_GROUPS);
    let period = Duration::from_secs_f64(1.0 / rate.max(1e-3));
    let start = Instant::now();
    let end = start + duration;
    let n = streams.len().max(1) as u32;
    let mut tasks = Vec::new();
    for (i, (conn, mut send, mut recv)) in streams.into_iter().enumerate() {
        let first = start + period.mul_f64(f64::from(i as u32) / f64::from(n));
        tasks.push(tokio::spawn(async move {
            let request = vec![7u8; req];
            let mut buf = vec![0u8; 4 * 1024];
            let mut samples = super::stats::Samples::default();
            let mut due = first;
            'sends: while due < end {
                tokio::time::sleep_until(due.into()).await;
                let sent = Instant::now();
                if send.write_all(&request).await.is_err() {
                    break;
                }
                let mut got = 0usize;
                while got < resp {
                    let read = tokio::time::timeout_at(end.into(), recv.read(&mut buf)).await;
                    match read {
                        Ok(Ok(Some(k))) => got += k,
                        _ => break 'sends,
                    }
                }
                samples.push(sent.elapsed());
                due += period;
            }
            conn.close(0u32.into(), b"done");
            samples
        }));
    }
    let mut latency = super::stats::Samples::default();
    for t in tasks {
        if let Ok(s) = t.await {
            latency.extend(s);
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    endpoint.close(0u32.into(), b"done");
    let echoes = latency.len() as u64;
    Ok(RawReport {
        connections,
        duration_s: secs,
        echoes,
        echoes_per_s: echoes as f64 / secs,
        latency_ms: Some([
            latency.percentile_ms(50.0),
            latency.percentile_ms(99.0),
            latency.max_ms(),
        ]),
        memory,
        connected_cpu_s,
    })
}

/// A connection of the baseline's clients and its one stream.
type Stream = (quinn::Connection, quinn::SendStream, quinn::RecvStream);

/// Connects `connections` clients (one client endpoint, 64 handshakes at
/// a time), each with its one bidirectional stream open; the process's
/// memory before and after.
async fn connect_all(
    server: &impl EchoTarget,
    connections: usize,
) -> Result<(quinn::Endpoint, Vec<Stream>, Option<ConnectMemory>), RawError> {
    let before = memory_now();
    let trust = Trust::Fingerprint(server.fingerprint());
    let config = proto::tls::client_config(&trust)?;
    let endpoint = quinn::Endpoint::client((std::net::Ipv4Addr::UNSPECIFIED, 0).into())?;
    let mut streams: Vec<Stream> = Vec::with_capacity(connections);
    let sem = Arc::new(tokio::sync::Semaphore::new(64));
    let mut pending = Vec::new();
    for _ in 0..connections {
        let ep = endpoint.clone();
        let config = config.clone();
        let addr = server.addr();
        let sem = sem.clone();
        pending.push(tokio::spawn(async move {
            let _p = sem.acquire().await;
            let conn = ep
                .connect_with(config, addr, proto::tls::SERVER_NAME)
                .map_err(|e| RawError::Connect(e.to_string()))?
                .await
                .map_err(|e| RawError::Connect(e.to_string()))?;
            let (send, recv) = conn
                .open_bi()
                .await
                .map_err(|e| RawError::Connect(e.to_string()))?;
            Ok::<_, RawError>((conn, send, recv))
        }));
    }
    for p in pending {
        streams.push(p.await.map_err(|e| RawError::Connect(e.to_string()))??);
    }
    // Every connection's stream carries data only once the client writes,
    // so the server holds a connection, not yet its stream: what a table
    // that has signed in and waits costs.
    let memory = match (before, memory_now()) {
        (Some((r0, h0)), Some((r1, h1))) => Some(ConnectMemory {
            rss: [r0, r1],
            heap: h0.zip(h1).map(|(a, b)| [a, b]),
        }),
        _ => None,
    };
    Ok((endpoint, streams, memory))
}
