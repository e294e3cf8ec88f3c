//! A UDP fault relay on loopback (网络故障): clients send to the relay's
//! address, the relay forwards each datagram to the server (one upstream
//! socket per client address, so the server sees distinct peers) and the
//! server's answers back, and on the way it drops, delays (and so
//! reorders) and duplicates datagrams, or drops everything while the relay
//! is partitioned. QUIC sees a bad network, not a mock: it retransmits, the
//! connection may time out, and the table client reconnects and resends.
//!
//! One relay per table lets a bench partition one table while the others
//! play on.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::net::UdpSocket;

/// The faults a relay applies (changeable while it runs).
#[derive(Debug, Default)]
pub struct Faults {
    /// Drop probability, parts per million.
    pub loss_ppm: AtomicU32,
    /// Duplicate probability, parts per million.
    pub dup_ppm: AtomicU32,
    /// Each datagram is delayed uniformly in `0..=max_delay_ms` (so
    /// datagrams overtake each other).
    pub max_delay_ms: AtomicU32,
    /// Drop everything, both ways.
    pub partitioned: AtomicBool,
}

impl Faults {
    /// Faults from percentages.
    pub fn new(loss_percent: f64, dup_percent: f64, max_delay_ms: u32) -> Faults {
        let ppm = |p: f64| (p.clamp(0.0, 100.0) * 10_000.0) as u32;
        Faults {
            loss_ppm: AtomicU32::new(ppm(loss_percent)),
            dup_ppm: AtomicU32::new(ppm(dup_percent)),
            max_delay_ms: AtomicU32::new(max_delay_ms),
            partitioned: AtomicBool::new(false),
        }
    }
}

/// What a relay did.
#[derive(Debug, Default)]
pub struct RelayStats {
    /// Datagrams received from either side.
    pub datagrams: AtomicU64,
    /// Dropped (loss or partition).
    pub dropped: AtomicU64,
    /// Extra copies sent.
    pub duplicated: AtomicU64,
    /// Sent later than received.
    pub delayed: AtomicU64,
}

/// A running relay.
pub struct Relay {
    /// Where clients send.
    pub addr: SocketAddr,
    /// Its faults.
    pub faults: Arc<Faults>,
    /// Its counters.
    pub stats: Arc<RelayStats>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Relay {
    /// A relay on 127.0.0.1 in front of `server`.
    pub async fn start(server: SocketAddr, faults: Faults, seed: u64) -> std::io::Result<Relay> {
        let front = Arc::new(UdpSocket::bind("127.0.0.1:0").await?);
        let addr = front.local_addr()?;
        let faults = Arc::new(faults);
        let stats = Arc::new(RelayStats::default());
        let rng = Arc::new(Mutex::new(StdRng::seed_from_u64(seed)));
        let task = tokio::spawn(run(front, server, faults.clone(), stats.clone(), rng));
        Ok(Relay {
            addr,
            faults,
            stats,
            task,
        })
    }
}

/// Where a datagram goes: a connected socket (to the server) or an address
/// via the front socket (to a client).
#[derive(Clone)]
enum Dest {
    Server(Arc<UdpSocket>),
    Client(Arc<UdpSocket>, SocketAddr),
}

impl Dest {
    async fn send(&self, buf: &[u8]) {
        let _ = match self {
            Dest::Server(s) => s.send(buf).await,
            Dest::Client(s, a) => s.send_to(buf, *a).await,
        };
    }
}

/// Forwards one datagram through the faults.
async fn forward(
    buf: Vec<u8>,
    dest: Dest,
    faults: &Faults,
    stats: &RelayStats,
    rng: &Mutex<StdRng>,
) {
    stats.datagrams.fetch_add(1, Ordering::Relaxed);
    let (drop, copies, delays) = {
        let Ok(mut r) = rng.lock() else { return };
        let drop = faults.partitioned.load(Ordering::Relaxed)
            || r.random_range(0..1_000_000u32) < faults.loss_ppm.load(Ordering::Relaxed);
        let copies = 1 + usize::from(
            r.random_range(0..1_000_000u32) < faults.dup_ppm.load(Ordering::Relaxed),
        );
        let max = faults.max_delay_ms.load(Ordering::Relaxed);
        let delays: Vec<u32> = (0..copies).map(|_| r.random_range(0..=max)).collect();
        (drop, copies, delays)
    };
    if drop {
        stats.dropped.fetch_add(1, Ordering::Relaxed);
        return;
    }
    if copies > 1 {
        stats
            .duplicated
            .fetch_add(copies as u64 - 1, Ordering::Relaxed);
    }
    for d in delays {
        if d == 0 {
            dest.send(&buf).await;
        } else {
            stats.delayed.fetch_add(1, Ordering::Relaxed);
            let (dest, buf) = (dest.clone(), buf.clone());
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(u64::from(d))).await;
                dest.send(&buf).await;
            });
        }
    }
}

async fn run(
    front: Arc<UdpSocket>,
    server: SocketAddr,
    faults: Arc<Faults>,
    stats: Arc<RelayStats>,
    rng: Arc<Mutex<StdRng>>,
) {
    let mut upstream: HashMap<SocketAddr, Arc<UdpSocket>> = HashMap::new();
    // The server -> client tasks end with the relay.
    let mut back = AbortAll(Vec::new());
    let mut buf = vec![0u8; 65_536];
    loop {
        let Ok((n, client)) = front.recv_from(&mut buf).await else {
            return;
        };
        let up = match upstream.get(&client) {
            Some(s) => s.clone(),
            None => {
                let Ok(s) = UdpSocket::bind("127.0.0.1:0").await else {
                    continue;
                };
                if s.connect(server).await.is_err() {
                    continue;
                }
                let s = Arc::new(s);
                upstream.insert(client, s.clone());
                // Server -> client.
                let (s2, front2, f2, st2, r2) = (
                    s.clone(),
                    front.clone(),
                    faults.clone(),
                    stats.clone(),
                    rng.clone(),
                );
                back.0.push(tokio::spawn(async move {
                    let mut b = vec![0u8; 65_536];
                    while let Ok(n) = s2.recv(&mut b).await {
                        let dest = Dest::Client(front2.clone(), client);
                        forward(b[..n].to_vec(), dest, &f2, &st2, &r2).await;
                    }
                }));
                s
            }
        };
        forward(buf[..n].to_vec(), Dest::Server(up), &faults, &stats, &rng).await;
    }
}

/// Aborts its tasks when dropped.
struct AbortAll(Vec<tokio::task::JoinHandle<()>>);

impl Drop for AbortAll {
    fn drop(&mut self) {
        for t in &self.0 {
            t.abort();
        }
    }
}
