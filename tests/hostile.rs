//! Hostile peers (issue 19), over real QUIC with quinn as the attacking
//! client; the memory figures are of `caipan serve` as a child process,
//! its resident set read from /proc.
//!
//! - (a) 50 connections that never send a Hello, each writing on every
//!   stream it can open: the server grows by at most 16 MiB and closes
//!   every one at the hello deadline.
//! - (b) 20 signed-in viewer connections with one token, writing on every
//!   stream they can open: at most 16 MiB, and the per-token limit refuses
//!   the excess with a clear error.
//! - (c) a viewer sending 10,000 forbidden commands with 16 KiB reasons:
//!   the store grows by at most 2 MiB, the audit holds the counted
//!   entries, one alert per principal per window reaches the chief, and a
//!   real table is acknowledged throughout.
//! - (d) a forged log line stays one escaped field.
//! - (e) a malformed frame before the Hello gets a generic error, with no
//!   Rust type name in it.
//! - (f) a 4 GiB length prefix closes that connection.
//! - (g) with `retry_threshold = 0` every handshake goes through a QUIC
//!   Retry and still signs in.
//! - (h) a signed-in viewer that never reads sends 10,000 `GetTableLog`
//!   on 8 connections for a table that played the data set's longest game
//!   (its public log, unbounded, would be tens of MiB of replies): at most
//!   16 MiB, and every connection is closed for not reading within 30 s,
//!   logged with the principal, one alert.
//! - (i) a viewer subscribed to the hall that never reads while tables
//!   play: at most 16 MiB, closed the same way, and the chief's console
//!   keeps receiving.
//!
//! The peers of (h) and (i) stop granting flow-control credit after
//! 64 KiB, as the issue's attacker did (issue 38).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use proto::conn::{CLOSE_PROTOCOL, CLOSE_REFUSED, CLOSE_STALLED};
use proto::{ClientMsg, ErrorCode, Hello, ServerMsg, Side, Trust, PROTOCOL_VERSION};

mod support;
use support::*;

const MIB: u64 = 1024 * 1024;

// ---------------------------------------------------------------- helpers

/// Resident set of process `pid` in bytes (VmRSS of /proc/PID/status).
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kib| kib * 1024)
        .unwrap_or(0)
}

/// Samples a process's RSS every 20 ms on a thread; keeps the peak.
struct Sampler {
    peak: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Sampler {
    fn start(pid: u32) -> Sampler {
        let peak = Arc::new(AtomicU64::new(rss(pid)));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (peak, stop) = (peak.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    peak.fetch_max(rss(pid), Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        };
        Sampler {
            peak,
            stop,
            thread: Some(thread),
        }
    }

    fn peak(mut self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.peak.load(Ordering::Relaxed)
    }
}

/// `caipan serve` as a child with its log (no colours) in `log`.
async fn spawn_logged(
    cfg: &Path,
    data: &Path,
    log: &Path,
) -> (std::process::Child, SocketAddr, proto::Fingerprint) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["serve", "--config"])
        .arg(cfg)
        .arg("--data")
        .arg(data)
        .env("NO_COLOR", "1")
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(log).expect("log file"))
        .spawn()
        .expect("spawn caipan serve");
    let stdout = child.stdout.take().expect("stdout");
    let (addr, fp) = tokio::task::spawn_blocking(move || {
        let mut addr = None;
        let mut fp = None;
        let mut lines = std::io::BufReader::new(stdout).lines();
        for line in lines.by_ref() {
            let line = line.expect("banner line");
            if let Some(a) = line.strip_prefix("listening on ") {
                addr = a.trim().parse::<SocketAddr>().ok();
            }
            if let Some(f) = line.strip_prefix("certificate sha256 fingerprint ") {
                fp = f.trim().parse::<proto::Fingerprint>().ok();
            }
            if addr.is_some() && fp.is_some() {
                break;
            }
        }
        std::thread::spawn(move || for _ in lines {});
        (addr.expect("address"), fp.expect("fingerprint"))
    })
    .await
    .expect("banner");
    (child, addr, fp)
}

/// Stops the child with SIGTERM and waits for it.
fn sigterm(mut child: std::process::Child) -> std::process::ExitStatus {
    let pid = i32::try_from(child.id()).expect("pid");
    // SAFETY: kill(2) with a pid we spawned and a valid signal number.
    unsafe {
        libc::kill(pid, libc::SIGTERM);
    }
    child.wait().expect("child exits")
}

/// The standard test hall (4 tables, a deputy, the viewer) written to
/// `dir/hall.toml`, with `extra` lines under `[server]`.
fn write_hall(dir: &Path, extra: &str) -> std::path::PathBuf {
    let text = hall("127.0.0.1:0")
        .toml()
        .replace("[server]\n", &format!("[server]\n{extra}"));
    let path = dir.join("hall.toml");
    std::fs::write(&path, text).expect("config written");
    path
}

/// A raw attacking endpoint that trusts the server's certificate.
fn attacker(fp: proto::Fingerprint) -> (quinn::Endpoint, quinn::ClientConfig) {
    let endpoint =
        quinn::Endpoint::client((std::net::Ipv4Addr::LOCALHOST, 0).into()).expect("endpoint");
    let config = proto::tls::client_config(&Trust::Fingerprint(fp)).expect("client config");
    (endpoint, config)
}

async fn raw_connect(
    endpoint: &quinn::Endpoint,
    config: &quinn::ClientConfig,
    addr: SocketAddr,
) -> quinn::Connection {
    endpoint
        .connect_with(config.clone(), addr, proto::tls::SERVER_NAME)
        .expect("connect")
        .await
        .expect("handshake")
}

fn frame(msg: &ClientMsg) -> Vec<u8> {
    proto::frame::encode_frame(msg).expect("encodes")
}

fn hello(token: &str) -> ClientMsg {
    ClientMsg::Hello(Hello {
        protocol_version: PROTOCOL_VERSION,
        token: token.into(),
        client: "hostile-test".into(),
    })
}

/// A raw connection that sent `hello(token)` on its stream and read the
/// answer: the connection, the stream's halves and the answer.
async fn raw_hello(
    endpoint: &quinn::Endpoint,
    config: &quinn::ClientConfig,
    addr: SocketAddr,
    token: &str,
) -> (
    quinn::Connection,
    quinn::SendStream,
    proto::FrameReader<quinn::RecvStream, ServerMsg>,
    ServerMsg,
) {
    let conn = raw_connect(endpoint, config, addr).await;
    let (mut send, recv) = conn.open_bi().await.expect("stream");
    send.write_all(&frame(&hello(token))).await.expect("hello");
    let mut rx = proto::FrameReader::<_, ServerMsg>::new(recv);
    let answer = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("answer")
        .expect("frame")
        .expect("message");
    (conn, send, rx, answer)
}

/// Writes `n` bytes of 0xAB on `stream` in 16 KiB pieces, counting every
/// byte the stream takes (the server has granted room for it) in `taken`.
async fn flood(mut stream: quinn::SendStream, n: usize, taken: Arc<AtomicU64>) {
    let chunk = vec![0xABu8; 16 * 1024];
    let mut left = n;
    while left > 0 {
        let k = left.min(chunk.len());
        match stream.write(&chunk[..k]).await {
            Ok(w) => {
                left -= w;
                taken.fetch_add(w as u64, Ordering::Relaxed);
            }
            Err(_) => return,
        }
    }
}

/// Opens every stream the server lets `conn` open (bidirectional and
/// unidirectional, up to 8 of each; an open that gets no credit within
/// 300 ms means there is none) and floods each with 1.2 MB; on the first
/// bidirectional stream, when `first` is given, those bytes go first
/// (e.g. a Hello). Returns the flooding tasks.
async fn open_and_flood(
    conn: &quinn::Connection,
    first: Option<Vec<u8>>,
    taken: &Arc<AtomicU64>,
) -> Vec<tokio::task::JoinHandle<()>> {
    const FLOOD: usize = 1_200_000;
    let mut tasks = Vec::new();
    let mut first = first;
    for _ in 0..8 {
        let Ok(Ok((mut send, recv))) =
            tokio::time::timeout(Duration::from_millis(300), conn.open_bi()).await
        else {
            break;
        };
        // Keep the receiving half open (dropping it would stop the stream).
        std::mem::forget(recv);
        if let Some(bytes) = first.take() {
            // The first stream: a frame header announcing the largest frame
            // and all of it but one byte, so the server waits for the rest.
            let _ = send.write_all(&bytes).await;
            let max = proto::limits::MAX_CLIENT_FRAME;
            let mut partial = (max as u32).to_be_bytes().to_vec();
            partial.resize(4 + max - 1, 0);
            let taken = taken.clone();
            tasks.push(tokio::spawn(async move {
                if send.write_all(&partial).await.is_ok() {
                    taken.fetch_add(partial.len() as u64, Ordering::Relaxed);
                }
                std::future::pending::<()>().await;
            }));
            continue;
        }
        tasks.push(tokio::spawn(flood(send, FLOOD, taken.clone())));
    }
    for _ in 0..8 {
        let Ok(Ok(send)) = tokio::time::timeout(Duration::from_millis(300), conn.open_uni()).await
        else {
            break;
        };
        tasks.push(tokio::spawn(flood(send, FLOOD, taken.clone())));
    }
    tasks
}

/// Waits until `taken` has not grown for 1.5 s (at most 60 s): the server
/// has granted all the room it will.
async fn settle(taken: &AtomicU64) -> u64 {
    let start = Instant::now();
    let mut last = taken.load(Ordering::Relaxed);
    let mut still = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let now = taken.load(Ordering::Relaxed);
        if now != last {
            last = now;
            still = Instant::now();
        } else if still.elapsed() >= Duration::from_millis(1500) {
            break;
        }
    }
    last
}

/// A hall warmed up: a table played a move and the chief's console read a
/// snapshot, so the allocator's pools exist before the baseline is taken.
async fn warm_up(addr: SocketAddr, fp: proto::Fingerprint) {
    let mut t1 = Terminal::open(addr, fp, 1).await;
    t1.play(&["h2e2"], Side::Red).await;
    let mut chief = connect(addr, fp, CHIEF).await.expect("chief");
    chief.subscribe().await;
    chief.c.close("warm");
    t1.c.c.close("warm");
    tokio::time::sleep(Duration::from_millis(500)).await;
}

// ---------------------------------------------------------------- (a)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_connections_without_a_hello_pin_little_memory_and_are_closed_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    // All 50 at once from this one address (the default lets 32 in at a time).
    let cfg = write_hall(dir.path(), "unauthenticated_per_address = 64\n");
    let (child, addr, fp) =
        spawn_logged(&cfg, &dir.path().join("data"), &dir.path().join("log")).await;
    let pid = child.id();
    warm_up(addr, fp).await;
    let baseline = rss(pid);
    let sampler = Sampler::start(pid);

    let (endpoint, config) = attacker(fp);
    let taken = Arc::new(AtomicU64::new(0));
    let mut conns = Vec::new();
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let conn = raw_connect(&endpoint, &config, addr).await;
        tasks.extend(open_and_flood(&conn, Some(Vec::new()), &taken).await);
        conns.push(conn);
    }
    let granted = settle(&taken).await;
    // Every connection is closed by the server for want of a Hello.
    for conn in &conns {
        let why = tokio::time::timeout(Duration::from_secs(60), conn.closed())
            .await
            .expect("closed by the server");
        match why {
            quinn::ConnectionError::ApplicationClosed(c) => {
                assert_eq!(c.error_code, CLOSE_PROTOCOL.into(), "{c:?}");
                assert_eq!(&c.reason[..], b"no hello");
            }
            other => panic!("closed for another reason: {other:?}"),
        }
    }
    let peak = sampler.peak();
    for t in tasks {
        t.abort();
    }
    let growth = peak.saturating_sub(baseline);
    eprintln!(
        "(a) 50 connections without a Hello: RSS {} MiB -> peak {} MiB (+{:.1} MiB); the server took {} KiB of their writes",
        baseline / MIB,
        peak / MIB,
        growth as f64 / MIB as f64,
        granted / 1024
    );
    assert!(growth <= 16 * MIB, "grew by {growth} bytes");
    sigterm(child);
}

// ---------------------------------------------------------------- (b)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_signed_in_viewers_pin_little_memory_and_the_excess_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_hall(dir.path(), "");
    let (child, addr, fp) =
        spawn_logged(&cfg, &dir.path().join("data"), &dir.path().join("log")).await;
    let pid = child.id();
    warm_up(addr, fp).await;
    let baseline = rss(pid);
    let sampler = Sampler::start(pid);

    let (endpoint, config) = attacker(fp);
    let taken = Arc::new(AtomicU64::new(0));
    let mut signed_in = Vec::new();
    let mut refused = Vec::new();
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (conn, mut send, rx, answer) = raw_hello(&endpoint, &config, addr, VIEWER).await;
        match answer {
            ServerMsg::HelloOk(_) => {
                // The partial frame on the one stream, then every other
                // stream the connection can open.
                let max = proto::limits::MAX_CLIENT_FRAME;
                let mut partial = (max as u32).to_be_bytes().to_vec();
                partial.resize(4 + max - 1, 0);
                send.write_all(&partial).await.expect("partial frame");
                taken.fetch_add(partial.len() as u64, Ordering::Relaxed);
                tasks.extend(open_and_flood(&conn, None, &taken).await);
                signed_in.push((conn, send, rx));
            }
            ServerMsg::Error(e) => refused.push((conn, e)),
            other => panic!("unexpected answer {other:?}"),
        }
    }
    let granted = settle(&taken).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let peak = sampler.peak();
    let growth = peak.saturating_sub(baseline);
    eprintln!(
        "(b) 20 signed-in viewers ({} kept, {} refused): RSS {} MiB -> peak {} MiB (+{:.1} MiB); the server took {} KiB of their writes",
        signed_in.len(),
        refused.len(),
        baseline / MIB,
        peak / MIB,
        growth as f64 / MIB as f64,
        granted / 1024
    );
    let limit = config::PeerLimits::default().connections_per_token;
    assert_eq!(signed_in.len(), limit, "the per-token limit");
    assert_eq!(refused.len(), 20 - limit);
    for (conn, e) in &refused {
        assert_eq!(e.code, ErrorCode::Unavailable, "{e:?}");
        let said = i18n::texts::english(&e.message);
        assert_eq!(e.message.id, "reply-too-many-connections");
        assert!(
            said.contains("too many connections with this token"),
            "a clear error: {said}"
        );
        let why = tokio::time::timeout(Duration::from_secs(10), conn.closed())
            .await
            .expect("the refused connection is closed");
        assert!(
            matches!(why, quinn::ConnectionError::ApplicationClosed(ref c) if c.error_code == CLOSE_REFUSED.into())
                || matches!(why, quinn::ConnectionError::LocallyClosed),
            "{why:?}"
        );
    }
    // The signed-in ones stay served while they stay.
    for (conn, ..) in &signed_in {
        assert!(conn.close_reason().is_none(), "still connected");
    }
    assert!(growth <= 16 * MIB, "grew by {growth} bytes");
    for t in tasks {
        t.abort();
    }
    sigterm(child);
}

// ---------------------------------------------------------------- (c), (d)

/// Bytes of the store's files in `data` (database, WAL, shared memory).
fn store_bytes(data: &Path) -> u64 {
    ["hall.db", "hall.db-wal", "hall.db-shm"]
        .iter()
        .filter_map(|f| std::fs::metadata(data.join(f)).ok())
        .map(|m| m.len())
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_forbidden_commands_are_counted_not_stored_and_alert_once() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let cfg = write_hall(dir.path(), "");
    let (child, addr, fp) = spawn_logged(&cfg, &data, &dir.path().join("log")).await;
    let mut chief = connect(addr, fp, CHIEF).await.expect("chief");
    chief.subscribe().await;
    let mut table = Terminal::open(addr, fp, 1).await;
    table.play(&["h2e2"], Side::Red).await;
    let before = store_bytes(&data);

    // The viewer pipelines 10 bursts of 1,000 forbidden commands with
    // 16 KiB reasons; a reader counts the refusals.
    let viewer = connect(addr, fp, VIEWER).await.expect("viewer");
    let (_conn, _hello, mut tx, mut rx) = viewer.c.split();
    let replies = tokio::spawn(async move {
        let mut refused = 0u32;
        while refused < 10_000 {
            match tokio::time::timeout(Duration::from_secs(60), rx.recv()).await {
                Ok(Ok(Some(ServerMsg::Error(e)))) => {
                    assert!(matches!(e.code, ErrorCode::Forbidden), "{e:?}");
                    refused += 1;
                }
                Ok(Ok(Some(_))) => {}
                other => panic!("viewer stream: {other:?}"),
            }
        }
        refused
    });
    let reason = "停".repeat(16 * 1024 / 3);
    let moves = [
        "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2c2", "a9b9", "b0a2", "b7b3", "a0b0",
    ];
    let mut side = Side::Black;
    let started = Instant::now();
    for (burst, mv) in moves.iter().enumerate() {
        for i in 0..1_000u64 {
            let id = burst as u64 * 1_000 + i;
            let command = if i % 2 == 0 {
                proto::Command::PauseHall {
                    reason: reason.clone(),
                }
            } else {
                proto::Command::PauseTable {
                    table: 1,
                    reason: reason.clone(),
                }
            };
            tx.queue(&ClientMsg::Command { id, command })
                .expect("queued");
            if tx.pending() > 256 * 1024 {
                tx.flush().await.expect("sent");
            }
        }
        tx.flush().await.expect("sent");
        // The real table is acknowledged throughout.
        let ack = table.event(press(side, mv, 4_000_000, 4_000_000)).await;
        assert_eq!(ack.seq, table.seq);
        side = side.other();
    }
    let refused = tokio::time::timeout(Duration::from_secs(300), replies)
        .await
        .expect("every command answered")
        .expect("reader");
    assert_eq!(refused, 10_000);
    let took = started.elapsed();
    // The alerts that reached the chief (drain what is already sent).
    let mut alerts = 0u32;
    while let Ok(Ok(m)) = tokio::time::timeout(Duration::from_secs(2), chief.c.recv()).await {
        for a in m.deltas() {
            let proto::Delta::Alert(a) = a else { continue };
            if a.kind == proto::AlertKind::RefusedCommands {
                assert!(
                    i18n::texts::english(&a.text).contains("viewer:大厅显示屏"),
                    "{a:?}"
                );
                alerts += 1;
            }
        }
    }
    assert!(sigterm(child).success());
    let after = store_bytes(&data);
    let grew = after.saturating_sub(before);

    let reader = store::StoreReader::open_dir(&data).expect("store");
    let audit: Vec<_> = reader
        .audit_entries()
        .expect("audit")
        .into_iter()
        .filter(|a| a.record.who.starts_with("viewer:"))
        .collect();
    let counted: Vec<u64> = audit
        .iter()
        .filter_map(|a| {
            a.record
                .action
                .strip_suffix(" refused requests in 60 s (counted, not stored one by one)")
                .or_else(|| {
                    a.record
                        .action
                        .split_once(" refused requests in ")
                        .map(|(n, _)| n)
                })
                .and_then(|n| n.parse().ok())
        })
        .collect();
    let one_by_one = audit.len() - counted.len();
    eprintln!(
        "(c) 10,000 forbidden commands in {:.1} s: store {} KiB -> {} KiB (+{} KiB); {} audit entries one by one, counted {:?}; {} alert(s) to the chief",
        took.as_secs_f64(),
        before / 1024,
        after / 1024,
        grew / 1024,
        one_by_one,
        counted,
        alerts
    );
    assert_eq!(
        one_by_one as u64 + counted.iter().sum::<u64>(),
        10_000,
        "every refusal is recorded, one by one or counted"
    );
    for a in &audit {
        assert!(
            a.record.action.len() <= 400,
            "what is cut: {}",
            a.record.action.len()
        );
        assert!(a.record.payload.len() <= 1_200, "payload is small");
        if let store::AuditOutcome::Refused { why } = &a.record.outcome {
            assert!(why.len() <= 400);
        }
    }
    assert!(!counted.is_empty());
    assert_eq!(
        alerts as usize,
        counted.len(),
        "one alert per principal per window"
    );
    if took < Duration::from_secs(59) {
        assert_eq!(alerts, 1, "all in one window");
    }
    assert!(grew <= 2 * MIB, "the store grew by {grew} bytes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_log_line_stays_one_escaped_field() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let cfg = write_hall(dir.path(), "");
    let (child, addr, fp) = spawn_logged(&cfg, &dir.path().join("data"), &log).await;
    let mut viewer = connect(addr, fp, VIEWER).await.expect("viewer");
    let forged = "x\n2026-12-02T09:00:00.000000Z ERROR caipan_server::store: FORGED store corrupt\r\x1b[31mred\x1b[0m";
    let refused = viewer
        .command(
            1,
            proto::Command::PauseHall {
                reason: forged.into(),
            },
        )
        .await;
    assert!(refused.is_err());
    assert!(sigterm(child).success());
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(!text.contains('\x1b'), "no raw escape in the log");
    assert!(!text.contains('\r'), "no raw carriage return in the log");
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("FORGED")).collect();
    assert_eq!(lines.len(), 1, "{text}");
    let line = lines[0];
    assert!(
        line.contains(" INFO ") && line.contains("refused"),
        "{line}"
    );
    assert!(
        line.contains(r"what=pause the hall: x\n2026-12-02T09:00:00.000000Z ERROR caipan_server::store: FORGED store corrupt\r\u{1b}[31mred\u{1b}[0m"),
        "one escaped field: {line}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("2026-12-02T09:00:00")),
        "no forged line"
    );
}

// ---------------------------------------------------------------- (e), (f)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_frame_before_the_hello_gets_a_generic_error() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let (endpoint, config) = attacker(s.fingerprint);
    // An undecodable payload, an unknown message variant, and a Hello
    // whose token is not UTF-8.
    let mut bad_utf8 = frame(&hello("toké"));
    let at = bad_utf8
        .windows(3)
        .position(|w| w == b"tok")
        .expect("token bytes");
    bad_utf8[at + 3] = 0xFF;
    let cases: Vec<Vec<u8>> = vec![
        vec![0, 0, 0, 5, 0xff, 0xfe, 0xfd, 0xfc, 0xfb],
        vec![0, 0, 0, 1, 0x7f],
        bad_utf8,
    ];
    for bytes in cases {
        let conn = raw_connect(&endpoint, &config, s.addr).await;
        let (mut send, recv) = conn.open_bi().await.expect("stream");
        send.write_all(&bytes).await.expect("write");
        let mut rx = proto::FrameReader::<_, ServerMsg>::new(recv);
        let m = tokio::time::timeout(Duration::from_secs(10), rx.recv())
            .await
            .expect("answer")
            .expect("frame")
            .expect("message");
        let ServerMsg::Error(e) = m else {
            panic!("expected an error, got {m:?}");
        };
        assert_eq!(e.code, ErrorCode::BadFrame, "{e:?}");
        assert_eq!(e.message, proto::refusals::malformed_frame());
        let shown = format!("{} {}", e.code, i18n::texts::english(&e.message));
        for internal in ["type_name", "Utf8", "Variant", "{", "::", "ClientMsg"] {
            assert!(!shown.contains(internal), "{shown}");
        }
    }
    s.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_4_gib_length_prefix_closes_the_connection() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let (endpoint, config) = attacker(s.fingerprint);
    let conn = raw_connect(&endpoint, &config, s.addr).await;
    let (mut send, recv) = conn.open_bi().await.expect("stream");
    send.write_all(&frame(&hello(&table_token(1))))
        .await
        .expect("hello");
    let mut rx = proto::FrameReader::<_, ServerMsg>::new(recv);
    let m = rx.recv().await.expect("frame").expect("message");
    assert!(matches!(m, ServerMsg::HelloOk(_)), "{m:?}");
    // A 4 GiB frame, and then as many bytes as the server takes.
    send.write_all(&u32::MAX.to_be_bytes())
        .await
        .expect("prefix");
    let taken = Arc::new(AtomicU64::new(0));
    let writer = tokio::spawn(flood(send, 64 * 1024 * 1024, taken.clone()));
    let m = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("answer")
        .expect("frame")
        .expect("message");
    let ServerMsg::Error(e) = m else {
        panic!("expected an error, got {m:?}");
    };
    assert!(
        matches!(e.code, ErrorCode::TooLarge { limit } if limit as usize == proto::limits::MAX_CLIENT_FRAME),
        "{e:?}"
    );
    let said = i18n::texts::english(&e.message);
    assert!(said.contains("the connection is closed"), "{said}");
    let why = tokio::time::timeout(Duration::from_secs(30), conn.closed())
        .await
        .expect("the server closes the connection");
    match why {
        quinn::ConnectionError::ApplicationClosed(c) => {
            assert_eq!(c.error_code, CLOSE_PROTOCOL.into(), "{c:?}");
            assert_eq!(&c.reason[..], b"frame too large");
        }
        other => panic!("closed for another reason: {other:?}"),
    }
    let _ = writer.await;
    assert!(
        taken.load(Ordering::Relaxed) < 64 * 1024 * 1024,
        "the server stopped taking the frame's bytes"
    );
    // Others are served.
    let mut t2 = Terminal::open(s.addr, s.fingerprint, 2).await;
    t2.play(&["h2e2"], Side::Red).await;
    s.shutdown().await.unwrap();
}

// ---------------------------------------------------------------- (g)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_retry_threshold_zero_every_handshake_goes_through_a_retry_and_signs_in() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = hall("127.0.0.1:0").toml();
    text = text.replace("[server]\n", "[server]\nretry_threshold = 0\n");
    let s = start_with(dir.path(), config_from(&text, dir.path())).await;
    assert_eq!(s.retries(), 0);
    let mut chief = connect(s.addr, s.fingerprint, CHIEF)
        .await
        .expect("chief signs in");
    chief.subscribe().await;
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    t1.play(&["h2e2", "h9g7"], Side::Red).await;
    let viewer = connect(s.addr, s.fingerprint, VIEWER)
        .await
        .expect("viewer signs in");
    assert_eq!(s.retries(), 3, "one Retry per handshake");
    drop(viewer);
    s.shutdown().await.unwrap();
}

// ---------------------------------------------------------------- (h), (i)

/// An attacking endpoint whose connections take at most 64 KiB unread
/// (stream and connection receive windows): once it stops reading, the
/// server can send it nothing more.
fn stingy_attacker(fp: proto::Fingerprint) -> (quinn::Endpoint, quinn::ClientConfig) {
    let (endpoint, mut config) = attacker(fp);
    let mut t = proto::tls::transport_config();
    t.stream_receive_window((64u32 * 1024).into());
    t.receive_window((64u32 * 1024).into());
    config.transport_config(Arc::new(t));
    (endpoint, config)
}

/// A viewer signed in over a raw connection: the stream's halves, its
/// `HelloOk` read and nothing after it ever (the receiving half is kept
/// open: dropping it would stop the stream).
async fn raw_viewer(
    endpoint: &quinn::Endpoint,
    config: &quinn::ClientConfig,
    addr: SocketAddr,
) -> (quinn::Connection, quinn::SendStream, quinn::RecvStream) {
    let (conn, send, rx, m) = raw_hello(endpoint, config, addr, VIEWER).await;
    assert!(matches!(m, ServerMsg::HelloOk(_)), "{m:?}");
    (conn, send, rx.into_inner())
}

/// Waits (at most `within`) until the server closes `conn` for not
/// reading; returns when.
async fn closed_for_not_reading(conn: &quinn::Connection, within: Duration) -> Instant {
    let why = tokio::time::timeout(within, conn.closed())
        .await
        .expect("closed by the server in time");
    match why {
        quinn::ConnectionError::ApplicationClosed(c) => {
            assert_eq!(c.error_code, CLOSE_STALLED.into(), "{c:?}");
            assert_eq!(&c.reason[..], server::stall::REASON);
        }
        other => panic!("closed for another reason: {other:?}"),
    }
    Instant::now()
}

/// The log's lines saying a viewer's connection was closed for not reading.
fn stall_lines(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .expect("log")
        .lines()
        .filter(|l| l.contains("peer stopped reading") && l.contains("who=viewer:"))
        .map(str::to_string)
        .collect()
}

/// Counts the chief's `StoppedReading` alerts and table deltas as they come.
fn chief_reader(
    mut chief: Client,
    alerts: Arc<AtomicU64>,
    deltas: Arc<AtomicU64>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Ok(m) = chief.c.recv().await {
            for d in m.deltas() {
                match d {
                    proto::Delta::Alert(a) if a.kind == proto::AlertKind::StoppedReading => {
                        assert!(i18n::texts::english(&a.text).contains("viewer:"), "{a:?}");
                        alerts.fetch_add(1, Ordering::Relaxed);
                    }
                    proto::Delta::Table(_) | proto::Delta::TableStep(_) => {
                        deltas.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {}
                }
            }
        }
    })
}

/// The data set's longest game (data/games, from the start position), as
/// ICCS moves.
fn longest_game() -> Vec<proto::IccsMove> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/games/hu-ronghua-1391.pgn");
    let text = std::fs::read_to_string(&path).expect("the data set");
    xiangqi::pgn::read_pgn(&text)
        .expect("data set reads")
        .iter()
        .filter_map(|g| g.replay().ok())
        .filter(|g| g.start == xiangqi::Position::new())
        .max_by_key(|g| g.moves.len())
        .expect("a game")
        .moves
        .iter()
        .map(|m| proto::IccsMove {
            from: m.from.index() as u8,
            to: m.to.index() as u8,
        })
        .collect()
}

/// Plays the longest game of the data set at `t`'s table, each press with
/// the thinking time taken off the mover's clock (80 minutes, 30 s a
/// move, as in the test hall); returns its plies.
async fn play_longest_game(t: &mut Terminal) -> usize {
    let moves = longest_game();
    let mut left = [80 * 60_000u64, 80 * 60_000];
    let mut mono = 0;
    for (ply, m) in moves.iter().enumerate() {
        let i = ply % 2;
        let think = 5_000 + 997 * (ply as u64 % 40);
        mono += think;
        left[i] = left[i] - think + 30_000;
        t.event(proto::TableEvent::ClockPress {
            by: if i == 0 { Side::Red } else { Side::Black },
            mv: Some(*m),
            red_ms: left[0],
            black_ms: left[1],
            terminal_mono_ms: mono,
        })
        .await;
    }
    moves.len()
}

/// Bytes of the frame a viewer gets for table `table`'s log.
async fn viewer_log_bytes(addr: SocketAddr, fp: proto::Fingerprint, table: u16) -> usize {
    let mut viewer = connect(addr, fp, VIEWER).await.expect("viewer");
    viewer
        .send(ClientMsg::Command {
            id: 1,
            command: proto::Command::GetTableLog { table },
        })
        .await;
    let log = viewer
        .until(|m| match m {
            ServerMsg::TableLog(l) => Some(l.clone()),
            _ => None,
        })
        .await;
    assert!(log.audit.is_empty(), "a viewer gets no audit trail");
    viewer.c.close("measured");
    // Its place among the token's connections is given back.
    tokio::time::sleep(Duration::from_millis(500)).await;
    proto::frame::encode_frame(&ServerMsg::TableLog(log))
        .expect("encodes")
        .len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_that_never_reads_its_table_logs_pins_little_memory_and_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let cfg = write_hall(dir.path(), "");
    let (child, addr, fp) = spawn_logged(&cfg, &dir.path().join("data"), &log).await;
    let pid = child.id();
    warm_up(addr, fp).await;
    // Table 2 plays the data set's longest game with its clock: a viewer's
    // log of it (the clock history; no audit trail since issue 31) is
    // what every request asks for.
    let mut t2 = Terminal::open(addr, fp, 2).await;
    let plies = play_longest_game(&mut t2).await;
    let reply = viewer_log_bytes(addr, fp, 2).await;
    let unbounded = 10_000 * reply as u64;
    assert!(
        unbounded > 2 * 16 * MIB,
        "the attack must be real: 10,000 replies of {reply} bytes are {unbounded} bytes"
    );
    let mut chief = connect(addr, fp, CHIEF).await.expect("chief");
    chief.subscribe().await;
    let (alerts, deltas) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let reader = chief_reader(chief, alerts.clone(), deltas);
    let baseline = rss(pid);
    let sampler = Sampler::start(pid);

    let (endpoint, config) = stingy_attacker(fp);
    let mut conns = Vec::new();
    let requests: Vec<u8> = (0..1_250u64)
        .flat_map(|id| {
            frame(&ClientMsg::Command {
                id,
                command: proto::Command::GetTableLog { table: 2 },
            })
        })
        .collect();
    let started = Instant::now();
    for _ in 0..8 {
        let (conn, mut send, recv) = raw_viewer(&endpoint, &config, addr).await;
        let requests = requests.clone();
        let writer = tokio::spawn(async move {
            let _ = send.write_all(&requests).await;
            let _ = send.write_all(&frame(&ClientMsg::Ping { nonce: 7 })).await;
            std::future::pending::<()>().await;
        });
        conns.push((conn, recv, writer));
    }
    let mut last = started;
    for (conn, ..) in &conns {
        last = last.max(closed_for_not_reading(conn, Duration::from_secs(30)).await);
    }
    let took = last - started;
    let peak = sampler.peak();
    tokio::time::sleep(Duration::from_millis(500)).await;
    for (_, _, w) in &conns {
        w.abort();
    }
    reader.abort();
    let growth = peak.saturating_sub(baseline);
    assert!(sigterm(child).success());
    let lines = stall_lines(&log);
    eprintln!(
        "(h) 8 viewer connections, 10,000 GetTableLog of a {plies}-ply game's log ({reply} bytes each, {} MiB unbounded), never read: RSS {} MiB -> peak {} MiB (+{:.1} MiB); all closed in {:.1} s; {} log lines, {} alert(s)",
        unbounded / MIB,
        baseline / MIB,
        peak / MIB,
        growth as f64 / MIB as f64,
        took.as_secs_f64(),
        lines.len(),
        alerts.load(Ordering::Relaxed)
    );
    assert!(took < Duration::from_secs(30), "closed in {took:?}");
    assert_eq!(lines.len(), 8, "one line per connection: {lines:?}");
    assert_eq!(alerts.load(Ordering::Relaxed), 1, "one alert per principal");
    assert!(growth < 16 * MIB, "grew by {growth} bytes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_console_that_never_reads_the_hall_pins_little_memory_and_others_keep_receiving() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let cfg = write_hall(dir.path(), "");
    let (child, addr, fp) = spawn_logged(&cfg, &dir.path().join("data"), &log).await;
    let pid = child.id();
    warm_up(addr, fp).await;
    let mut chief = connect(addr, fp, CHIEF).await.expect("chief");
    chief.subscribe().await;
    let (alerts, deltas) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let reader = chief_reader(chief, alerts.clone(), deltas.clone());
    // Three tables press their clocks as fast as they are acknowledged.
    let stop = Arc::new(AtomicBool::new(false));
    let mut players = Vec::new();
    for table in 2..=4u16 {
        let mut t = Terminal::open(addr, fp, table).await;
        let stop = stop.clone();
        players.push(tokio::spawn(async move {
            let mut ms = 1u64;
            while !stop.load(Ordering::Relaxed) {
                let body = table::load::bench_press(table, t.epoch, t.seq + 1, (ms, ms - 1)).body;
                t.event(body).await;
                ms += 1;
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let baseline = rss(pid);
    let sampler = Sampler::start(pid);

    let (endpoint, config) = stingy_attacker(fp);
    let (conn, mut send, _recv) = raw_viewer(&endpoint, &config, addr).await;
    send.write_all(&frame(&ClientMsg::Command {
        id: 1,
        command: proto::Command::Subscribe,
    }))
    .await
    .expect("subscribe");
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = deltas.load(Ordering::Relaxed);
    let closed = closed_for_not_reading(&conn, Duration::from_secs(30)).await;
    let during = deltas.load(Ordering::Relaxed) - before;
    // The chief's console still receives after the close.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = deltas.load(Ordering::Relaxed) - before - during;
    let peak = sampler.peak();
    stop.store(true, Ordering::Relaxed);
    for p in players {
        let _ = p.await;
    }
    reader.abort();
    let growth = peak.saturating_sub(baseline);
    assert!(sigterm(child).success());
    let lines = stall_lines(&log);
    eprintln!(
        "(i) a subscribed viewer that never reads while 3 tables press: RSS {} MiB -> peak {} MiB (+{:.1} MiB); closed in {:.1} s; the chief got {during} table deltas meanwhile and {after} in the second after; {} log line(s), {} alert(s)",
        baseline / MIB,
        peak / MIB,
        growth as f64 / MIB as f64,
        (closed - started).as_secs_f64(),
        lines.len(),
        alerts.load(Ordering::Relaxed)
    );
    assert!(closed - started < Duration::from_secs(30));
    assert!(during >= 100, "the chief kept receiving: {during}");
    assert!(after > 0, "and still does");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(alerts.load(Ordering::Relaxed), 1);
    assert!(growth < 16 * MIB, "grew by {growth} bytes");
}
