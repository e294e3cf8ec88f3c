//! The raw baseline's I/O shell over quinn-proto (`load::raw_shell`,
//! issue 40) against real quinn clients over QUIC with TLS: several
//! connections echo a few hundred frames each written in odd pieces, one
//! connection closes midway and is removed, garbage datagrams change
//! nothing, a client that never reads is held back by flow control (the
//! shell reads no further than it can answer), the baseline's own clients
//! (`raw::flood`, `raw::paced`) run against it unchanged, and closing
//! drains every connection.
#![cfg(unix)]

use proto::Trust;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};
use table::load::raw;
use table::load::raw_shell::{ShellEchoServer, ShellStats, OWED_MAX};

/// A request and a reply of sizes that do not divide each other.
const REQ: usize = 37;
const RESP: usize = 21;

fn localhost() -> SocketAddr {
    (Ipv4Addr::LOCALHOST, 0).into()
}

/// A client endpoint and a connection to `server` with its stream.
async fn connect(
    endpoint: &quinn::Endpoint,
    server: &ShellEchoServer,
) -> (quinn::Connection, quinn::SendStream, quinn::RecvStream) {
    let config =
        proto::tls::client_config(&Trust::Fingerprint(server.fingerprint)).expect("client config");
    let conn = endpoint
        .connect_with(config, server.addr, proto::tls::SERVER_NAME)
        .expect("connect")
        .await
        .expect("handshake");
    let (send, recv) = conn.open_bi().await.expect("stream");
    (conn, send, recv)
}

/// Waits (up to 10 s) until the shell's figures satisfy `ok`.
async fn until(server: &ShellEchoServer, what: &str, ok: impl Fn(&ShellStats) -> bool) {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let s = server.stats();
        if ok(&s) {
            return;
        }
        assert!(Instant::now() < end, "{what}: {s:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Datagrams no QUIC endpoint would send: random bytes, a long header of
/// an unknown version (a version negotiation comes back), an Initial that
/// does not decrypt, a short header for no connection, empty and tiny
/// ones.
fn garbage() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut x: u32 = 0x9e37_79b9;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x as u8
    };
    for len in [0usize, 1, 5, 20, 100, 1200, 1400] {
        out.push((0..len).map(|_| next()).collect());
    }
    let mut unknown_version = vec![0xc0, 0xba, 0xba, 0xba, 0xba, 8];
    unknown_version.extend((0..8).map(|_| next()));
    unknown_version.push(0);
    unknown_version.resize(1200, 0);
    out.push(unknown_version);
    let mut bad_initial = vec![0xc0, 0, 0, 0, 1, 8];
    bad_initial.extend((0..8).map(|_| next()));
    bad_initial.extend([0, 0, 0x44, 0xb0]);
    bad_initial.extend((0..1180).map(|_| next()));
    out.push(bad_initial);
    let mut short = vec![0x40];
    short.extend((0..60).map(|_| next()));
    out.push(short);
    out
}

/// One client's echo: `frames` requests written in pieces of 1 to 3
/// requests' bytes (cut anywhere), every reply read back as zeros; then
/// the client finishes its side and the shell finishes its own.
async fn echo(send: &mut quinn::SendStream, recv: &mut quinn::RecvStream, frames: usize) {
    let data = vec![7u8; frames * REQ];
    let reader = async {
        let mut got = vec![0u8; frames * RESP];
        recv.read_exact(&mut got).await.expect("the replies");
        assert!(got.iter().all(|b| *b == 0), "replies are zeros");
        let rest = recv.read_to_end(1024).await.expect("the end of the stream");
        assert!(rest.is_empty(), "no reply beyond the requests");
    };
    let writer = async {
        let mut at = 0;
        let mut piece = 1;
        while at < data.len() {
            let end = (at + piece).min(data.len());
            send.write_all(&data[at..end]).await.expect("write");
            at = end;
            piece = piece % (3 * REQ) + 17;
        }
        send.finish().expect("finish");
    };
    tokio::join!(reader, writer);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shell_echoes_over_quic_and_removes_closed_connections() {
    let server = ShellEchoServer::start(localhost(), REQ, RESP).expect("start");
    let endpoint = quinn::Endpoint::client(localhost()).expect("client endpoint");
    let mut clients = Vec::new();
    for _ in 0..5 {
        clients.push(connect(&endpoint, &server).await);
    }
    until(&server, "five connections", |s| s.open == 5).await;

    // Garbage from a socket of its own, between the clients' traffic.
    let noise = UdpSocket::bind(localhost()).expect("noise socket");
    for d in garbage() {
        noise.send_to(&d, server.addr).expect("send garbage");
    }

    // The first client sends 60 requests, reads 30 replies and goes.
    let (first, mut send, mut recv) = clients.remove(0);
    send.write_all(&[7u8; 60 * REQ]).await.expect("write");
    let mut some = [0u8; 30 * RESP];
    recv.read_exact(&mut some).await.expect("read");
    first.close(0u32.into(), b"bye");

    let mut tasks = Vec::new();
    for (i, (conn, mut send, mut recv)) in clients.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            echo(&mut send, &mut recv, 200 + 50 * i).await;
            conn
        }));
    }
    let mut conns = Vec::new();
    for t in tasks {
        conns.push(t.await.expect("a client"));
    }
    until(&server, "the closed connection removed", |s| {
        s.closed == 1 && s.open == 4
    })
    .await;
    // More garbage, and the shell still echoes on a new connection.
    for d in garbage() {
        noise.send_to(&d, server.addr).expect("send garbage");
    }
    let (late, mut send, mut recv) = connect(&endpoint, &server).await;
    echo(&mut send, &mut recv, 300).await;

    // The shell publishes its figures at the end of a wake, after the
    // wake's replies went out: the client can read them first.
    let frames = 60 + (200 + 250 + 300 + 350) + 300;
    until(&server, "every request frame counted", |s| {
        s.frames >= frames
    })
    .await;
    let s = server.stats();
    assert_eq!(s.accepted, 6, "garbage made no connection: {s:?}");
    assert_eq!(s.frames, frames, "{s:?}");
    assert!(s.datagrams_in > 0 && s.datagrams_out > 0 && s.wakes > 0);

    // Clients that close are drained and removed; closing the shell ends it.
    late.close(0u32.into(), b"done");
    for c in &conns {
        c.close(0u32.into(), b"done");
    }
    until(&server, "every connection removed", |s| s.open == 0).await;
    let end = server.shutdown();
    assert_eq!(end.closed, 6, "{end:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_held_back() {
    let server = ShellEchoServer::start(localhost(), REQ, RESP).expect("start");
    let endpoint = quinn::Endpoint::client(localhost()).expect("client endpoint");
    let (conn, mut send, _recv) = connect(&endpoint, &server).await;
    let big = vec![7u8; 32 * 1024 * 1024];
    let wrote = tokio::time::timeout(Duration::from_secs(2), send.write_all(&big)).await;
    assert!(wrote.is_err(), "32 MiB went in although nothing was read");
    let s = server.stats();
    // What the shell read: what it could answer (the client's receive
    // window for the replies, the shell's send window, OWED_MAX) and no
    // more; with quinn's 1.25 MB default window about 3 MB of requests.
    let read = s.frames as usize * REQ;
    let bound = (2 * 1024 * 1024 + OWED_MAX) / RESP * REQ;
    assert!(read <= bound, "read {read} bytes of requests: {s:?}");
    assert!(s.frames > 0, "{s:?}");
    conn.close(0u32.into(), b"done");
    // Closing with a connection still up: it is closed and drained.
    let end = server.shutdown();
    assert_eq!(end.open, 0, "{end:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_baselines_clients_run_against_the_shell_unchanged() {
    let server = ShellEchoServer::start(localhost(), REQ, RESP).expect("start");
    let flood = raw::flood(&server, 4, REQ, RESP, 8, Duration::from_millis(700))
        .await
        .expect("flood");
    assert!(flood.echoes > 300, "{flood:?}");
    assert!(flood.latency_ms.is_none());
    let paced = raw::paced(&server, 6, (REQ, RESP), 20.0, Duration::from_secs(1))
        .await
        .expect("paced");
    assert!(paced.echoes >= 6 * 15, "{paced:?}");
    let [p50, p99, max] = paced.latency_ms.expect("latencies");
    assert!(p50 > 0.0 && p50 <= p99 && p99 <= max, "{paced:?}");
    let memory = paced.memory.expect("memory figures on Linux");
    assert!(memory.rss[0] > 0 && memory.rss[1] > 0);
    until(&server, "the clients' connections drained", |s| s.open == 0).await;
    assert_eq!(server.stats().accepted, 10);
}
