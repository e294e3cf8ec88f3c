//! Integration tests of the server's QUIC shell (`proto::shell`) over real
//! QUIC on loopback: plain quinn clients against a shell endpoint with the
//! server's own TLS and transport config (`ServerIdentity::shell`). They
//! check what the server's tasks rely on: bytes echoed in order over many
//! concurrent connections; connections that end are reported
//! (`closed`, `close_reason`) and forgotten (`open_connections`,
//! `wait_idle`); flow control holds a writer whose client does not read
//! and a client the server has not given credit; decisions on new
//! connections (refuse, retry, ignore, drop, an accept given up); garbage
//! datagrams; stream stop, reset and finish; and what dropping handles
//! (the last connection handle, the endpoint) does to the clients.

use proto::shell::{Connection, Endpoint};
use proto::tls::{client_config, transport_config, HELLO_WINDOW, SERVER_NAME, STREAM_WINDOW};
use proto::{ServerIdentity, Trust};
use quinn::{ConnectionError, TransportErrorCode, VarInt};
use std::future::Future;
use std::io::ErrorKind;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

/// Upper bound on anything that should happen promptly on loopback.
const PROMPT: Duration = Duration::from_secs(3);

/// How long something that must NOT happen is given to happen anyway.
const QUIET: Duration = Duration::from_millis(400);

async fn within<T>(what: &str, limit: Duration, f: impl Future<Output = T>) -> T {
    match tokio::time::timeout(limit, f).await {
        Ok(v) => v,
        Err(_) => panic!("{what}: not done within {limit:?}"),
    }
}

/// A small deterministic generator (xorshift64*) for payloads and sizes.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> usize {
        (self.next() % n) as usize
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Byte `i` of a long, checkable stream.
fn pattern(i: usize) -> u8 {
    (i % 251) as u8
}

struct Server {
    endpoint: Endpoint,
    addr: SocketAddr,
    trust: Trust,
}

fn server() -> Server {
    let identity = ServerIdentity::generate().unwrap();
    let endpoint = identity.shell("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = endpoint.local_addr().unwrap();
    Server {
        endpoint,
        addr,
        trust: Trust::Fingerprint(identity.fingerprint()),
    }
}

/// A plain quinn client endpoint on loopback with the clients' config.
#[derive(Clone)]
struct Client {
    endpoint: quinn::Endpoint,
    config: quinn::ClientConfig,
}

impl Client {
    fn new(trust: &Trust) -> Client {
        Client::with_transport(trust, transport_config())
    }

    fn with_transport(trust: &Trust, transport: quinn::TransportConfig) -> Client {
        let mut config = client_config(trust).unwrap();
        config.transport_config(Arc::new(transport));
        let endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
        Client { endpoint, config }
    }

    fn addr(&self) -> SocketAddr {
        self.endpoint.local_addr().unwrap()
    }

    fn connecting(&self, addr: SocketAddr) -> quinn::Connecting {
        self.endpoint
            .connect_with(self.config.clone(), addr, SERVER_NAME)
            .unwrap()
    }

    async fn connect(&self, addr: SocketAddr) -> quinn::Connection {
        within("client connect", PROMPT, self.connecting(addr))
            .await
            .unwrap()
    }
}

/// The next new connection, accepted.
async fn accept(endpoint: &Endpoint) -> Connection {
    let incoming = within("endpoint accept", PROMPT, endpoint.accept())
        .await
        .expect("endpoint open");
    within("incoming accept", PROMPT, incoming.accept())
        .await
        .unwrap()
}

/// A client connected and a server connection for it.
async fn pair(
    endpoint: &Endpoint,
    client: &Client,
    addr: SocketAddr,
) -> (quinn::Connection, Connection) {
    tokio::join!(client.connect(addr), accept(endpoint))
}

/// Opens the client's stream and sends `first` so the server sees it.
async fn open(conn: &quinn::Connection, first: &[u8]) -> (quinn::SendStream, quinn::RecvStream) {
    let (mut send, recv) = conn.open_bi().await.unwrap();
    send.write_all(first).await.unwrap();
    (send, recv)
}

/// Reads exactly `n` bytes from a server stream.
async fn read_n(recv: &mut proto::shell::RecvStream, n: usize) -> Vec<u8> {
    let mut buf = vec![0u8; n];
    within("server read", PROMPT, recv.read_exact(&mut buf))
        .await
        .unwrap();
    buf
}

fn is_app_close(e: &ConnectionError, code: u32, reason: &[u8]) -> bool {
    matches!(e, ConnectionError::ApplicationClosed(c)
        if c.error_code == VarInt::from_u32(code) && &c.reason[..] == reason)
}

fn is_refused(e: &ConnectionError) -> bool {
    matches!(e, ConnectionError::ConnectionClosed(c)
        if c.error_code == TransportErrorCode::CONNECTION_REFUSED)
}

/// Echoes the stream until the client finishes it, finishes ours, then
/// holds the connection until it ends; why it ended (checked against
/// `close_reason`).
async fn echo(conn: Connection) -> Option<ConnectionError> {
    let (mut send, mut recv) = conn.accept_bi().await.ok()?;
    let mut buf = vec![0u8; 3001];
    loop {
        match recv.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => send.write_all(&buf[..n]).await.ok()?,
            Err(_) => return None,
        }
    }
    send.finish().ok()?;
    drop((send, recv));
    let reason = conn.closed().await;
    assert_eq!(conn.close_reason(), Some(reason.clone()));
    Some(reason)
}

/// Accepts every new connection and echoes on it; each one's end goes to
/// `ended`.
async fn serve_echo(
    endpoint: Arc<Endpoint>,
    ended: mpsc::UnboundedSender<Option<ConnectionError>>,
) {
    while let Some(incoming) = endpoint.accept().await {
        let ended = ended.clone();
        tokio::spawn(async move {
            if let Ok(conn) = incoming.accept().await {
                let _ = ended.send(echo(conn).await);
            }
        });
    }
}

/// One client's run against an echo server: frames of odd sizes one at a
/// time, then a burst larger than the server's receive window written
/// while it is read back; everything must come back exactly, in order.
async fn echo_client(client: Client, addr: SocketAddr, seed: u64) {
    let conn = client.connect(addr).await;
    let mut rng = Rng::new(seed);
    let len = 1 + rng.below(100);
    let first = rng.bytes(len);
    let (mut send, mut recv) = open(&conn, &first).await;
    let mut back = vec![0u8; first.len()];
    recv.read_exact(&mut back).await.unwrap();
    assert_eq!(back, first, "client {seed}: first frame");
    for frame in 0..8 {
        let len = 1 + 2 * rng.below(4500);
        let bytes = rng.bytes(len);
        send.write_all(&bytes).await.unwrap();
        let mut back = vec![0u8; len];
        recv.read_exact(&mut back).await.unwrap();
        assert_eq!(back, bytes, "client {seed}: frame {frame} ({len} bytes)");
    }
    let burst = rng.bytes(3 * HELLO_WINDOW as usize + 17);
    let (wrote, read) = tokio::join!(
        async {
            send.write_all(&burst).await.unwrap();
            send.finish().unwrap();
        },
        recv.read_to_end(burst.len() + 1)
    );
    let () = wrote;
    assert!(
        read.unwrap() == burst,
        "client {seed}: burst came back altered"
    );
    conn.close(VarInt::from_u32(7), b"done");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_clients_each_get_exactly_their_own_bytes_back() {
    const CLIENTS: usize = 50;
    let s = server();
    let endpoint = Arc::new(s.endpoint);
    let (tx, mut ended) = mpsc::unbounded_channel();
    let acceptor = tokio::spawn(serve_echo(endpoint.clone(), tx));
    let clients: Vec<Client> = (0..5).map(|_| Client::new(&s.trust)).collect();
    let mut runs = tokio::task::JoinSet::new();
    for i in 0..CLIENTS {
        runs.spawn(echo_client(
            clients[i % clients.len()].clone(),
            s.addr,
            i as u64 + 1,
        ));
    }
    within("all clients", Duration::from_secs(4), async {
        while let Some(run) = runs.join_next().await {
            run.unwrap();
        }
    })
    .await;
    for _ in 0..CLIENTS {
        let reason = within("server side ends", PROMPT, ended.recv())
            .await
            .unwrap();
        let reason = reason.expect("the echo ran to the client's close");
        assert!(is_app_close(&reason, 7, b"done"), "{reason:?}");
    }
    within("wait_idle", PROMPT, endpoint.wait_idle()).await;
    assert_eq!(endpoint.open_connections(), 0);
    acceptor.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ended_connections_are_reported_and_forgotten() {
    let s = server();
    let client = Client::new(&s.trust);
    let mut pairs = Vec::new();
    for _ in 0..4 {
        let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
        assert_eq!(conn.remote_address(), client.addr());
        assert!(conn.close_reason().is_none());
        let (cs, cr) = open(&c, b"hi").await;
        let (ss, mut sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
        assert_eq!(read_n(&mut sr, 2).await, b"hi");
        pairs.push((c, conn, cs, cr, ss, sr));
    }
    assert_eq!(s.endpoint.open_connections(), 4);

    // Clients close three; two tasks wait on the first one's `closed`.
    let waiters: Vec<_> = (0..2)
        .map(|_| {
            let conn = pairs[0].1.clone();
            tokio::spawn(async move { conn.closed().await })
        })
        .collect();
    for p in &pairs[..3] {
        p.0.close(VarInt::from_u32(7), b"client bye");
    }
    for w in waiters {
        let reason = within("closed() waiter", PROMPT, w).await.unwrap();
        assert!(is_app_close(&reason, 7, b"client bye"), "{reason:?}");
    }
    for p in &pairs[..3] {
        let reason = within("server closed()", PROMPT, p.1.closed()).await;
        assert!(is_app_close(&reason, 7, b"client bye"), "{reason:?}");
        assert_eq!(p.1.close_reason(), Some(reason));
    }
    // The server closes the fourth.
    let (c, conn, _cs, _cr, mut ss, _sr) = pairs.pop().unwrap();
    conn.close(VarInt::from_u32(42), b"server bye");
    assert_eq!(conn.close_reason(), Some(ConnectionError::LocallyClosed));
    assert_eq!(conn.closed().await, ConnectionError::LocallyClosed);
    let write = ss.write_all(b"too late").await;
    assert!(write.is_err(), "a write after close must fail");
    let reason = within("client sees the server's close", PROMPT, c.closed()).await;
    assert!(is_app_close(&reason, 42, b"server bye"), "{reason:?}");

    // All drained and forgotten, though the tasks still hold handles.
    within("wait_idle", PROMPT, s.endpoint.wait_idle()).await;
    assert_eq!(s.endpoint.open_connections(), 0);
    drop(pairs);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_blocks_the_writer_instead_of_growing_buffers() {
    const TOTAL: usize = 4 << 20;
    const CLIENT_WINDOW: u32 = 256 * 1024;
    let s = server();
    let mut transport = transport_config();
    transport.stream_receive_window(VarInt::from_u32(CLIENT_WINDOW));
    let client = Client::with_transport(&s.trust, transport);
    let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
    let (mut cs, mut cr) = open(&c, b"go").await;
    let (mut ss, mut sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
    assert_eq!(read_n(&mut sr, 2).await, b"go");

    let written = Arc::new(AtomicUsize::new(0));
    let count = written.clone();
    let mut writer = tokio::spawn(async move {
        let mut off = 0;
        let chunk: Vec<u8> = (0..TOTAL).map(pattern).collect();
        while off < TOTAL {
            let n = ss.write(&chunk[off..]).await.unwrap();
            off += n;
            count.fetch_add(n, Ordering::SeqCst);
        }
        ss.finish().unwrap();
        off
    });
    // The client reads nothing: the writer must stay pending, holding no
    // more than the client's flow-control credit.
    assert!(
        tokio::time::timeout(QUIET, &mut writer).await.is_err(),
        "{TOTAL} bytes written to a client that reads nothing"
    );
    let held = written.load(Ordering::SeqCst);
    assert!(
        held <= CLIENT_WINDOW as usize,
        "the writer got {held} bytes past a {CLIENT_WINDOW}-byte window"
    );
    // The other direction still works meanwhile.
    cs.write_all(b"still here").await.unwrap();
    assert_eq!(read_n(&mut sr, 10).await, b"still here");
    assert!(!writer.is_finished());

    // The client reads: everything arrives, in order, and the writer ends.
    let got = within("client reads it all", PROMPT, cr.read_to_end(TOTAL + 1))
        .await
        .unwrap();
    assert_eq!(got.len(), TOTAL);
    assert!(got.iter().enumerate().all(|(i, b)| *b == pattern(i)));
    assert_eq!(within("writer ends", PROMPT, writer).await.unwrap(), TOTAL);
    assert!(conn.close_reason().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_receive_window_holds_a_client_until_the_server_raises_it() {
    let s = server();
    let client = Client::new(&s.trust);
    let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
    let (mut cs, _cr) = open(&c, b"x").await;
    let (_ss, mut sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
    assert_eq!(read_n(&mut sr, 1).await, b"x");

    // STREAM_WINDOW bytes more; the server reads none of them.
    let total = STREAM_WINDOW as usize - 1;
    let written = Arc::new(AtomicUsize::new(1));
    let count = written.clone();
    let mut writer = tokio::spawn(async move {
        let data: Vec<u8> = (0..total).map(pattern).collect();
        let mut off = 0;
        while off < total {
            let n = cs.write(&data[off..]).await.unwrap();
            off += n;
            count.fetch_add(n, Ordering::SeqCst);
        }
        cs
    });
    assert!(
        tokio::time::timeout(QUIET, &mut writer).await.is_err(),
        "the client sent past the connection's HELLO_WINDOW"
    );
    let sent = written.load(Ordering::SeqCst);
    assert!(
        sent <= HELLO_WINDOW as usize,
        "{sent} bytes past a {HELLO_WINDOW}-byte window"
    );

    // Raised (still unread): the rest fits in the stream's window.
    conn.set_receive_window(VarInt::from_u32(STREAM_WINDOW));
    let _cs = within("client write completes", PROMPT, writer)
        .await
        .unwrap();
    let got = read_n(&mut sr, total).await;
    assert!(got.iter().enumerate().all(|(i, b)| *b == pattern(i)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_only_reads_gives_credit_as_it_reads() {
    // Eight windows' worth, while the server sends nothing of its own that
    // could carry the new credit: its reads must.
    let total = 8 * HELLO_WINDOW as usize;
    let s = server();
    let client = Client::new(&s.trust);
    let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
    let data: Vec<u8> = (0..total).map(pattern).collect();
    let (mut cs, _cr) = open(&c, &data[..1]).await;
    let writer = tokio::spawn(async move {
        cs.write_all(&data[1..]).await.unwrap();
        cs.finish().unwrap();
        cs
    });
    let (_ss, mut sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
    let mut got = Vec::new();
    within("server reads it all", PROMPT, sr.read_to_end(&mut got))
        .await
        .unwrap();
    assert_eq!(got.len(), total);
    assert!(got.iter().enumerate().all(|(i, b)| *b == pattern(i)));
    let _cs = within("client write completes", PROMPT, writer)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_connection_fails_at_once() {
    let s = server();
    let client = Client::new(&s.trust);
    let connecting = client.connecting(s.addr);
    let incoming = within("accept", PROMPT, s.endpoint.accept()).await.unwrap();
    assert_eq!(incoming.remote_address(), client.addr());
    incoming.refuse();
    match within("refused connect", PROMPT, connecting).await {
        Err(e) if is_refused(&e) => {}
        other => panic!("expected CONNECTION_REFUSED, got {other:?}"),
    }
    assert_eq!(s.endpoint.open_connections(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_client_comes_back_validated_and_is_accepted() {
    let s = server();
    let client = Client::new(&s.trust);
    let connecting = client.connecting(s.addr);
    let first = within("accept", PROMPT, s.endpoint.accept()).await.unwrap();
    assert!(!first.remote_address_validated());
    assert!(first.may_retry());
    first.retry().unwrap();

    let second = within("accept after retry", PROMPT, s.endpoint.accept())
        .await
        .unwrap();
    assert_eq!(second.remote_address(), client.addr());
    assert!(second.remote_address_validated());
    assert!(!second.may_retry());
    // A second Retry is not allowed: refused, and the attempt ignored (the
    // client sends its Initial again).
    assert!(second.retry().is_err());
    let third = within("accept the resent Initial", PROMPT, s.endpoint.accept())
        .await
        .unwrap();
    assert!(third.remote_address_validated());
    let conn = within("accept", PROMPT, third.accept()).await.unwrap();
    let c = within("client connect", PROMPT, connecting).await.unwrap();
    let (mut cs, mut cr) = open(&c, b"ping").await;
    let (mut ss, mut sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
    assert_eq!(read_n(&mut sr, 4).await, b"ping");
    ss.write_all(b"pong").await.unwrap();
    ss.finish().unwrap();
    cs.finish().unwrap();
    let back = within("client read", PROMPT, cr.read_to_end(16))
        .await
        .unwrap();
    assert_eq!(back, b"pong");
    assert_eq!(s.endpoint.open_connections(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ignored_or_dropped_attempts_never_connect_and_the_endpoint_serves_on() {
    let s = server();
    let endpoint = Arc::new(s.endpoint);
    let client = Client::new(&s.trust);
    let (seen_tx, mut seen) = tokio::sync::watch::channel(0usize);
    let dropper = {
        let endpoint = endpoint.clone();
        tokio::spawn(async move {
            while let Some(incoming) = endpoint.accept().await {
                // The first is ignored, the next (the client's resent
                // Initials) dropped undecided.
                if *seen_tx.borrow() == 0 {
                    incoming.ignore();
                } else {
                    drop(incoming);
                }
                seen_tx.send_modify(|n| *n += 1);
            }
        })
    };
    let mut connecting = client.connecting(s.addr);
    // The client sends its Initial again (after its first PTO, about 1 s):
    // both answers are then given...
    within("the client tries again", PROMPT, seen.wait_for(|n| *n >= 2))
        .await
        .unwrap();
    // ...and neither connects it.
    if let Ok(Ok(_)) = tokio::time::timeout(QUIET, &mut connecting).await {
        panic!("connected though every attempt was ignored or dropped");
    }
    dropper.abort();
    assert_eq!(endpoint.open_connections(), 0);

    // Another client is served normally.
    let other = Client::new(&s.trust);
    let (c, conn) = tokio::join!(other.connect(s.addr), async {
        loop {
            let incoming = within("accept", PROMPT, endpoint.accept()).await.unwrap();
            if incoming.remote_address() == other.addr() {
                break within("accept", PROMPT, incoming.accept()).await.unwrap();
            }
        }
    });
    let (_cs, _cr) = open(&c, b"ok").await;
    let (_ss, mut sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
    assert_eq!(read_n(&mut sr, 2).await, b"ok");
    assert_eq!(endpoint.open_connections(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accept_given_up_closes_the_connection() {
    let s = server();
    let client = Client::new(&s.trust);
    let connecting = client.connecting(s.addr);
    let incoming = within("accept", PROMPT, s.endpoint.accept()).await.unwrap();
    // Polled once (the accept is asked for), then dropped.
    {
        let mut accepting = std::pin::pin!(incoming.accept());
        std::future::poll_fn(|cx| {
            // Usually pending; under load the handshake may even be done
            // by now (then the connection is dropped here: the same case).
            if let std::task::Poll::Ready(r) = accepting.as_mut().poll(cx) {
                eprintln!("accept done at its first poll: {:?}", r.map(drop));
            }
            std::task::Poll::Ready(())
        })
        .await;
    }
    // The client may complete its handshake, but is then closed.
    if let Ok(c) = within("client connect", PROMPT, connecting).await {
        let reason = within("client closed", PROMPT, c.closed()).await;
        assert!(is_app_close(&reason, 0, b""), "{reason:?}");
    }
    within("wait_idle", PROMPT, s.endpoint.wait_idle()).await;
    assert_eq!(s.endpoint.open_connections(), 0);
}

/// A decision taken once the endpoint is gone (its thread stopping or
/// ended) is answered at once: the accept fails as closed, it never hangs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accept_after_the_endpoint_is_gone_fails_at_once() {
    let s = server();
    let client = Client::new(&s.trust);
    let _connecting = client.connecting(s.addr);
    let incoming = within("accept", PROMPT, s.endpoint.accept()).await.unwrap();
    drop(s.endpoint);
    // Give the thread time to end (nothing to drain), then decide.
    tokio::time::sleep(QUIET).await;
    let r = within("an accept after the endpoint", PROMPT, incoming.accept()).await;
    assert!(matches!(r, Err(ConnectionError::LocallyClosed)), "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_datagrams_do_not_disturb_a_connected_client() {
    let s = server();
    let endpoint = Arc::new(s.endpoint);
    let (tx, _ended) = mpsc::unbounded_channel();
    let acceptor = tokio::spawn(serve_echo(endpoint.clone(), tx));
    let client = Client::new(&s.trust);
    let c = client.connect(s.addr).await;
    let (mut cs, mut cr) = open(&c, b"start").await;
    let mut back = [0u8; 5];
    cr.read_exact(&mut back).await.unwrap();

    let junk = UdpSocket::bind("127.0.0.1:0").unwrap();
    let mut rng = Rng::new(99);
    for round in 0..20u64 {
        for _ in 0..100 {
            let len = 1 + rng.below(1500);
            let mut d = rng.bytes(len);
            // Some look like QUIC headers: long (Initial of version 1,
            // other versions) or short.
            match rng.below(4) {
                0 => {
                    d[0] = 0xC0 | (d[0] & 0x0F);
                    if d.len() >= 5 {
                        d[1..5].copy_from_slice(&1u32.to_be_bytes());
                    }
                }
                1 => d[0] = 0x40 | (d[0] & 0x3F),
                _ => {}
            }
            junk.send_to(&d, s.addr).unwrap();
        }
        let len = 1 + rng.below(3000);
        let frame = rng.bytes(len);
        cs.write_all(&frame).await.unwrap();
        let mut back = vec![0u8; frame.len()];
        within("echo amid garbage", PROMPT, cr.read_exact(&mut back))
            .await
            .unwrap();
        assert_eq!(back, frame, "round {round}");
    }
    assert!(c.close_reason().is_none());
    assert_eq!(endpoint.open_connections(), 1);
    acceptor.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_endpoint_closes_its_connections_and_frees_the_port() {
    let s = server();
    let client = Client::new(&s.trust);
    let mut held = Vec::new();
    for _ in 0..3 {
        let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
        let (cs, cr) = open(&c, b"hi").await;
        let (ss, sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
        held.push((c, cs, cr, conn, ss, sr));
    }
    drop(s.endpoint);
    for (c, _, _, conn, ss, _) in &mut held {
        let reason = within("client closed", PROMPT, c.closed()).await;
        assert!(is_app_close(&reason, 0, b""), "{reason:?}");
        let ours = within("server handle closed", PROMPT, conn.closed()).await;
        assert_eq!(ours, ConnectionError::LocallyClosed);
        assert!(ss.write_all(b"after").await.is_err());
    }
    // The thread ends (at most CLOSE_GRACE after), closing its socket.
    within("port freed", proto::shell::CLOSE_GRACE + PROMPT, async {
        while UdpSocket::bind(s.addr).is_err() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_endpoint_closes_connections_and_refuses_new_ones() {
    let s = server();
    let client = Client::new(&s.trust);
    let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
    s.endpoint.close(VarInt::from_u32(5), b"shutting down");
    let reason = within("client closed", PROMPT, c.closed()).await;
    assert!(is_app_close(&reason, 5, b"shutting down"), "{reason:?}");
    assert_eq!(conn.close_reason(), Some(ConnectionError::LocallyClosed));
    assert!(within("accept after close", PROMPT, s.endpoint.accept())
        .await
        .is_none());
    match within("connect after close", PROMPT, client.connecting(s.addr)).await {
        Err(e) if is_refused(&e) => {}
        other => panic!("expected CONNECTION_REFUSED, got {other:?}"),
    }
    within("wait_idle", PROMPT, s.endpoint.wait_idle()).await;
    assert_eq!(s.endpoint.open_connections(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_last_server_handle_closes_the_connection() {
    let s = server();
    let client = Client::new(&s.trust);
    let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
    let (mut cs, mut cr) = open(&c, b"a").await;
    let (mut ss, mut sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
    assert_eq!(read_n(&mut sr, 1).await, b"a");

    // The Connection handle goes; the streams keep it open.
    drop(conn);
    cs.write_all(b"bc").await.unwrap();
    assert_eq!(read_n(&mut sr, 2).await, b"bc");
    ss.write_all(b"xyz").await.unwrap();
    let mut back = [0u8; 3];
    within("client read", PROMPT, cr.read_exact(&mut back))
        .await
        .unwrap();
    assert_eq!(&back, b"xyz");
    assert!(c.close_reason().is_none());

    // The send half dropped unfinished is finished: the client reads to
    // the end.
    ss.write_all(b"end").await.unwrap();
    drop(ss);
    let rest = within("client reads to the end", PROMPT, cr.read_to_end(16))
        .await
        .unwrap();
    assert_eq!(rest, b"end");
    cs.write_all(b"d").await.unwrap();
    assert_eq!(read_n(&mut sr, 1).await, b"d");
    assert!(c.close_reason().is_none());

    // The last handle: closed with code 0.
    drop(sr);
    let reason = within("client closed", PROMPT, c.closed()).await;
    assert!(is_app_close(&reason, 0, b""), "{reason:?}");
    within("wait_idle", PROMPT, s.endpoint.wait_idle()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_receive_half_stops_the_clients_stream() {
    let s = server();
    let client = Client::new(&s.trust);
    let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
    let (cs, mut cr) = open(&c, b"a").await;
    let (mut ss, sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
    drop(sr);
    let stopped = within("client send stopped", PROMPT, cs.stopped()).await;
    assert_eq!(stopped.unwrap(), Some(VarInt::from_u32(0)));
    // The other half and the connection live on.
    ss.write_all(b"still").await.unwrap();
    ss.finish().unwrap();
    within("finished stream acknowledged", PROMPT, ss.stopped()).await;
    let got = within("client read", PROMPT, cr.read_to_end(16))
        .await
        .unwrap();
    assert_eq!(got, b"still");
    assert!(conn.close_reason().is_none());
    assert!(c.close_reason().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_stop_or_reset_wakes_the_blocked_task() {
    let s = server();
    let client = Client::new(&s.trust);
    let (c, conn) = pair(&s.endpoint, &client, s.addr).await;
    let (mut cs, mut cr) = open(&c, b"a").await;
    let (mut ss, mut sr) = within("accept_bi", PROMPT, conn.accept_bi()).await.unwrap();
    assert_eq!(read_n(&mut sr, 1).await, b"a");

    // A writer blocked on a client that does not read, and a reader
    // waiting for bytes that do not come.
    let mut writer = tokio::spawn(async move {
        let chunk = vec![7u8; 64 * 1024];
        let error = loop {
            if let Err(e) = ss.write(&chunk).await {
                break e;
            }
        };
        ss.stopped().await;
        error
    });
    let mut reader = tokio::spawn(async move {
        let mut buf = [0u8; 16];
        sr.read(&mut buf).await
    });
    assert!(tokio::time::timeout(QUIET, &mut writer).await.is_err());
    assert!(tokio::time::timeout(Duration::ZERO, &mut reader)
        .await
        .is_err());

    cr.stop(VarInt::from_u32(7)).unwrap();
    let error = within("blocked writer woken by STOP_SENDING", PROMPT, writer)
        .await
        .unwrap();
    assert_eq!(error.kind(), ErrorKind::ConnectionReset, "{error}");

    cs.reset(VarInt::from_u32(9)).unwrap();
    let read = within("waiting reader woken by RESET_STREAM", PROMPT, reader)
        .await
        .unwrap();
    assert_eq!(read.unwrap_err().kind(), ErrorKind::ConnectionReset);
    assert!(conn.close_reason().is_none());
}
