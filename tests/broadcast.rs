//! The broadcast (issue 32) end to end: a real server, the real public
//! listener on its own TCP port, requests over plain TCP.
//!
//! - The event stream's contract: `tick`s with increasing ids;
//!   `Last-Event-ID` resumes exactly after the id with a `catchup` of the
//!   games changed since (nothing lost, nothing repeated), across a server
//!   restart too (ids are the hall's public sequence, rebuilt from the
//!   store); an id it never gave gets a snapshot.
//! - `delay_s` holds back moves and clocks alike.
//! - Through a real headless demo round with every scripted incident and
//!   the auto-ruling chief: the relay's view (poll `/round/1.pgn` every
//!   second with `If-None-Match`, count the 304s, replay every game of the
//!   final file with the xiangqi crate, results equal to the export's), and
//!   the leak test (no token, table secret, derived token, registration
//!   id, rule id or alert/claim/ruling/foul/audit text in any public body,
//!   the stream's bytes included).

mod support;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use proto::{Side, TableEvent};
use support::{press, Terminal};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One HTTP answer.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: BTreeMap<String, String>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
}

/// `GET path` over a fresh connection (HTTP/1.1, closed after).
async fn get(addr: SocketAddr, path: &str, extra: &[(&str, &str)]) -> Answer {
    let mut s = TcpStream::connect(addr).await.expect("connects");
    let mut req = format!("GET {path} HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n");
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).await.expect("writes");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(6), s.read_to_end(&mut raw))
        .await
        .expect("answers within a relay's 6 s")
        .expect("reads");
    let text = String::from_utf8(raw).expect("UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").expect("a head");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .expect("a status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

/// One Server-Sent Event.
#[derive(Debug, Clone)]
struct Sse {
    id: Option<u64>,
    event: String,
    data: String,
}

/// An open `/events` stream, read line by line.
struct Stream {
    r: tokio::io::BufReader<TcpStream>,
    /// Every byte read (for the leak test).
    raw: String,
}

impl Stream {
    async fn open(addr: SocketAddr, last: Option<&str>) -> Stream {
        let mut s = TcpStream::connect(addr).await.expect("connects");
        let mut req =
            "GET /events HTTP/1.1\r\nHost: relay\r\nAccept: text/event-stream\r\n".to_string();
        if let Some(l) = last {
            req.push_str(&format!("Last-Event-ID: {l}\r\n"));
        }
        req.push_str("\r\n");
        s.write_all(req.as_bytes()).await.expect("writes");
        let mut st = Stream {
            r: tokio::io::BufReader::new(s),
            raw: String::new(),
        };
        let status = st.line().await;
        assert!(status.contains(" 200 "), "{status}");
        while !st.line().await.is_empty() {}
        st
    }

    async fn line(&mut self) -> String {
        let mut l = String::new();
        let n = self.r.read_line(&mut l).await.expect("reads");
        assert!(n > 0, "the stream ended");
        self.raw.push_str(&l);
        l.trim_end_matches(['\r', '\n']).to_string()
    }

    /// The next event (chunk sizes and keep-alive comments skipped).
    async fn next(&mut self) -> Sse {
        let mut e = Sse {
            id: None,
            event: String::new(),
            data: String::new(),
        };
        loop {
            let l = tokio::time::timeout(Duration::from_secs(20), self.line())
                .await
                .expect("an event within 20 s");
            if l.is_empty() {
                if !e.event.is_empty() {
                    return e;
                }
                continue;
            }
            if let Some(v) = l.strip_prefix("id:") {
                e.id = Some(v.trim().parse().expect("an integer id"));
            } else if let Some(v) = l.strip_prefix("event:") {
                e.event = v.trim().to_string();
            } else if let Some(v) = l.strip_prefix("data:") {
                e.data.push_str(v.trim_start());
            }
            // Anything else: a chunk size or a comment.
        }
    }
}

async fn start_broadcast(
    running: &server::RunningServer,
    config: config::HallConfig,
    delay_s: u64,
) -> broadcast::RunningBroadcast {
    broadcast::start(
        running.public_feed(),
        Arc::new(config),
        config::BroadcastConfig {
            listen: "127.0.0.1:0".parse().unwrap(),
            delay_s,
        },
        broadcast::Options::default(),
    )
    .await
    .expect("broadcast starts")
}

const MOVES: [&str; 8] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "c6c5",
];

async fn started(t: &mut Terminal) {
    t.event(TableEvent::ClockStarted {
        red_ms: 4_000_000,
        black_ms: 4_000_000,
        terminal_mono_ms: 1,
    })
    .await;
}

/// Table 1's plies as the `tick`s and `catchup`s of `events` leave them
/// (from the plies before them): what the page's script does.
fn plies_of(mut plies: Vec<String>, events: &[Sse]) -> Vec<String> {
    for e in events
        .iter()
        .filter(|e| e.event == "tick" || e.event == "catchup")
    {
        let d: serde_json::Value = serde_json::from_str(&e.data).expect("JSON");
        for g in d["games"].as_array().expect("games") {
            if g["table"] == 1 {
                plies.truncate(g["from"].as_u64().expect("from") as usize);
                plies.extend(
                    g["moves"]
                        .as_array()
                        .expect("moves")
                        .iter()
                        .map(|m| m.as_str().expect("a move").to_string()),
                );
            }
        }
    }
    plies
}

/// Waits until `/state.json` holds `n` plies of table 1 (the hub ticked).
async fn shown(addr: SocketAddr, n: usize) {
    for _ in 0..100 {
        let a = get(addr, "/state.json", &[]).await;
        let v: serde_json::Value = serde_json::from_str(&a.body).expect("JSON");
        if v["games"][0]["moves"].as_array().map(Vec::len) == Some(n) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("table 1 never showed {n} plies");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn last_event_id_resumes_exactly_even_across_a_server_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = support::config(dir.path());
    let running = support::start_with(dir.path(), config.clone()).await;
    let b = start_broadcast(&running, config.clone(), 0).await;
    let mut s = Stream::open(b.addr, None).await;
    let first = s.next().await;
    assert_eq!(first.event, "snapshot");
    let base = first.id.expect("the snapshot has an id");

    let mut t = Terminal::open(running.addr, running.fingerprint, 1).await;
    started(&mut t).await;
    t.play(&MOVES[..2], Side::Red).await;
    let mut seen: Vec<Sse> = Vec::new();
    while plies_of(Vec::new(), &seen).len() < 2 {
        seen.push(s.next().await);
    }
    let ids: Vec<u64> = seen.iter().map(|e| e.id.expect("id")).collect();
    assert!(
        ids[0] > base && ids.windows(2).all(|w| w[1] > w[0]),
        "{seen:?}"
    );
    assert!(seen.iter().all(|e| e.event == "tick"), "{seen:?}");
    // Leave after the second move; two more are played while away.
    let cut = *ids.last().unwrap();
    drop(s);
    t.play(&MOVES[2..4], Side::Red).await;
    shown(b.addr, 4).await;
    let mut s = Stream::open(b.addr, Some(&cut.to_string())).await;
    let resumed = vec![s.next().await];
    assert_eq!(resumed[0].event, "catchup", "{resumed:?}");
    let last = resumed[0].id.expect("id");
    assert!(last > cut);
    // Only what changed after the cut: table 1 from its third ply.
    let d: serde_json::Value = serde_json::from_str(&resumed[0].data).unwrap();
    assert_eq!(d["games"].as_array().map(Vec::len), Some(1), "{d}");
    assert_eq!(d["games"][0]["from"], 2, "{d}");
    assert_eq!(plies_of(plies_of(Vec::new(), &seen), &resumed), MOVES[..4]);

    // An id it never gave (ahead of it, or not a number): a snapshot.
    for forged in ["99999999", "12abc", "-1"] {
        let mut f = Stream::open(b.addr, Some(forged)).await;
        let e = f.next().await;
        assert_eq!(e.event, "snapshot", "{forged}");
        assert_eq!(e.id, Some(last));
    }

    // A server restart: the same ids go on.
    drop(t);
    drop(s);
    b.shutdown().await;
    running.shutdown().await.expect("stops");
    let running = support::start_with(dir.path(), config.clone()).await;
    let b = start_broadcast(&running, config, 0).await;
    let mut s = Stream::open(b.addr, Some(&last.to_string())).await;
    let mut t = Terminal::open(running.addr, running.fingerprint, 1).await;
    t.play(&MOVES[4..6], Side::Red).await;
    let mut after = Vec::new();
    while plies_of(MOVES[..4].iter().map(|m| m.to_string()).collect(), &after).len() < 6 {
        after.push(s.next().await);
    }
    assert!(after.iter().all(|e| e.event == "tick"), "{after:?}");
    let after_ids: Vec<u64> = after.iter().map(|e| e.id.unwrap()).collect();
    assert!(after_ids[0] > last, "{after:?}");
    assert!(after_ids.windows(2).all(|w| w[1] > w[0]), "{after:?}");
    let d: serde_json::Value = serde_json::from_str(&after[0].data).unwrap();
    assert_eq!(d["games"][0]["from"], 4, "{d}");
    assert_eq!(d["games"][0]["moves"][0], "i0h0", "{d}");
    assert_eq!(
        plies_of(MOVES[..4].iter().map(|m| m.to_string()).collect(), &after),
        MOVES[..6]
    );
    b.shutdown().await;
    running.shutdown().await.expect("stops");
}

/// The threads of this process named as the broadcast's own, each with
/// its nice value (Linux: `/proc/self/task/*/stat`, field 19).
fn broadcast_threads() -> Vec<i64> {
    let mut out = Vec::new();
    for task in std::fs::read_dir("/proc/self/task")
        .expect("/proc")
        .flatten()
    {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim_end() != broadcast::apart::THREAD_NAME {
            continue;
        }
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        let after = stat.rsplit_once(") ").map(|(_, r)| r).unwrap_or_default();
        let nice = after.split(' ').nth(16).and_then(|n| n.parse().ok());
        out.push(nice.expect("a nice value"));
    }
    out
}

/// `caipan serve`'s broadcast (issue 40) runs on a thread of its own,
/// below the hall's threads in priority: a follower gets the same stream
/// from it, and a stop ends the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_broadcast_apart_runs_on_its_own_niced_thread_and_stops_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let config = support::config(dir.path());
    let running = support::start_with(dir.path(), config.clone()).await;
    assert!(broadcast_threads().is_empty());
    let b = broadcast::apart::start_apart(
        running.public_feed(),
        Arc::new(config),
        config::BroadcastConfig {
            listen: "127.0.0.1:0".parse().unwrap(),
            delay_s: 0,
        },
        broadcast::Options::default(),
    )
    .await
    .expect("the broadcast starts on its thread");
    assert_eq!(
        broadcast_threads(),
        vec![i64::from(broadcast::apart::NICE)],
        "one thread, niced"
    );
    let mut s = Stream::open(b.addr, None).await;
    assert_eq!(s.next().await.event, "snapshot");
    let mut t = Terminal::open(running.addr, running.fingerprint, 1).await;
    started(&mut t).await;
    t.play(&MOVES[..2], Side::Red).await;
    let mut seen: Vec<Sse> = Vec::new();
    while plies_of(Vec::new(), &seen).len() < 2 {
        seen.push(s.next().await);
    }
    assert!(seen.iter().all(|e| e.event == "tick"), "{seen:?}");
    assert_eq!(plies_of(Vec::new(), &seen), MOVES[..2]);
    drop(s);
    b.shutdown().await;
    let gone = Instant::now() + Duration::from_secs(5);
    while !broadcast_threads().is_empty() {
        assert!(
            Instant::now() < gone,
            "the broadcast's thread outlived its stop"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(t);
    running.shutdown().await.expect("stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delay_holds_back_moves_and_clocks_alike() {
    let dir = tempfile::tempdir().unwrap();
    let config = support::config(dir.path());
    let running = support::start_with(dir.path(), config.clone()).await;
    let b = start_broadcast(&running, config, 2).await;
    let early = get(b.addr, "/state.json", &[]).await;
    assert_eq!(
        early.status, 503,
        "the first picture waits for the delay too"
    );
    let mut waited = 0;
    while get(b.addr, "/state.json", &[]).await.status == 503 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    assert!(waited >= 10, "the picture came out after {waited} x 100 ms");
    let mut events = Stream::open(b.addr, None).await;
    assert_eq!(events.next().await.event, "snapshot");
    let mut t = Terminal::open(running.addr, running.fingerprint, 2).await;
    started(&mut t).await;
    let t0 = Instant::now();
    t.event(press(Side::Red, "h2e2", 3_990_000, 4_000_000))
        .await;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    // Neither the start of the clock nor the move nor its clock is out.
    let mid = get(b.addr, "/state.json", &[]).await;
    assert_eq!(mid.status, 200);
    let v: serde_json::Value = serde_json::from_str(&mid.body).unwrap();
    let g = &v["games"][1];
    assert_eq!(g["table"], 2);
    assert!(
        t0.elapsed() < Duration::from_millis(1_900),
        "the machine is too slow for this check"
    );
    assert_eq!(g["moves"].as_array().map(Vec::len), Some(0), "{g}");
    assert_eq!(g["clock"]["red_ms"], 4_800_000, "{g}");
    assert_eq!(g["status"], "waiting", "{g}");
    // The stream gives the move (and the clock's start) after the delay.
    loop {
        let e = events.next().await;
        if e.event == "tick" && e.data.contains("\"h2e2\"") {
            assert!(
                t0.elapsed() >= Duration::from_secs(2),
                "move after {:?}",
                t0.elapsed()
            );
            assert!(e.data.contains("3990000"), "{e:?}");
            break;
        }
        assert!(
            t0.elapsed() >= Duration::from_millis(1_950),
            "{e:?} after {:?}",
            t0.elapsed()
        );
    }
    let late = get(b.addr, "/state.json", &[]).await;
    let v: serde_json::Value = serde_json::from_str(&late.body).unwrap();
    let g = &v["games"][1];
    assert_eq!(g["moves"][0], "h2e2", "{g}");
    assert_eq!(g["clock"]["red_ms"], 3_990_000, "{g}");
    b.shutdown().await;
    running.shutdown().await.expect("stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_requests_get_a_clear_4xx_and_one_address_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let config = support::config(dir.path());
    let running = support::start_with(dir.path(), config.clone()).await;
    let b = start_broadcast(&running, config, 0).await;
    for path in [
        "/round/2.pgn",
        "/round/01.pgn",
        "/round/1/game-9.json",
        "/round/1/../../etc/passwd",
        "/../../etc/passwd",
        "/round/%2e%2e/hall.db",
        "/hall.db",
    ] {
        let a = get(b.addr, path, &[]).await;
        assert_eq!(a.status, 404, "{path}: {a:?}");
        assert!(a.header("location").is_none());
    }
    let long = format!("/round/{}", "9".repeat(5_000));
    assert_eq!(get(b.addr, &long, &[]).await.status, 414);
    // Connections from one address past the bound are closed unread.
    let mut held = Vec::new();
    for _ in 0..broadcast::listener::Limits::default().per_address {
        held.push(TcpStream::connect(b.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut extra = TcpStream::connect(b.addr).await.unwrap();
    let _ = extra
        .write_all(b"GET /state.json HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let mut buf = Vec::new();
    let n = tokio::time::timeout(Duration::from_secs(5), extra.read_to_end(&mut buf))
        .await
        .expect("closed at once");
    assert!(
        n.map(|_| buf.is_empty()).unwrap_or(true),
        "answered past the bound"
    );
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(get(b.addr, "/state.json", &[]).await.status, 200);
    b.shutdown().await;
    running.shutdown().await.expect("stops");
}

/// Every secret and private text of the demo hall and its round.
fn private_texts(data: &Path) -> Vec<String> {
    let cfg_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/hall.toml");
    let text = std::fs::read_to_string(&cfg_path).expect("config/hall.toml");
    let cfg = config::HallConfig::from_toml_str(&text, Path::new("."), &|_| None)
        .expect("the demo config");
    let mut out: Vec<String> = Vec::new();
    let c = &cfg.credentials;
    out.push(c.chief.token.expose().to_string());
    out.extend(c.tables.values().map(|t| t.expose().to_string()));
    for d in &c.deputies {
        out.push(d.token.expose().to_string());
        out.push(d.name.clone());
    }
    for v in &c.viewers {
        out.push(v.token.expose().to_string());
    }
    out.push(c.chief.name.clone());
    let raw: toml::Value = toml::from_str(&text).expect("TOML");
    let secret = raw["credentials"]["table_secret"]
        .as_str()
        .expect("a table secret");
    out.push(secret.to_string());
    for p in &cfg.current_round().tables {
        out.extend(p.red_id.clone());
        out.extend(p.black_id.clone());
    }
    out.extend(["AXF-", "ROC-", "CXA-"].map(String::from));
    // Every alert, claim, ruling, foul and arbiter action the round
    // produced, as the export's notes and end words hold them.
    let stored = export::stored::load_hall(data, None).expect("the stored hall");
    let games = export::load_round(data, &stored, 1).expect("the round");
    let mut notes = 0;
    for g in &games {
        for n in g.notes.iter().flatten().chain(&g.initial_notes) {
            out.push(n.clone());
            notes += 1;
        }
        if let Some(e) = &g.end {
            if !e.detail.is_empty() {
                out.push(e.detail.clone());
            }
        }
    }
    assert!(
        notes >= 8,
        "the round produced alerts and rulings ({notes} notes)"
    );
    out.retain(|s| s.chars().count() >= 4);
    out
}

#[test]
fn a_relay_follows_a_demo_round_and_nothing_private_leaks() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("hall8");
    let mut child = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .current_dir(dir.path())
        .args([
            "demo",
            "--headless",
            "--tables",
            "8",
            "--speed",
            "200",
            "--auto-rule",
        ])
        .args(["--broadcast", "127.0.0.1:0", "--data"])
        .arg(&data)
        .arg("--log")
        .arg(dir.path().join("demo.log"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the demo starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let url = loop {
        let l = lines.next().expect("a line").expect("reads");
        if let Some(u) = l.strip_prefix("broadcast: ") {
            break u.to_string();
        }
    };
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("http://ADDR/");
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });

    let rt = tokio::runtime::Runtime::new().unwrap();
    let (bodies, pgn, polls, not_modified, moves) = rt.block_on(async move {
        let mut stream = Stream::open(addr, None).await;
        let reader = tokio::spawn(async move {
            let mut events = Vec::new();
            while let Ok(Some(e)) =
                tokio::time::timeout(Duration::from_secs(60), stream.next_or_end()).await
            {
                events.push(e);
            }
            (events, stream.raw)
        });
        let mut bodies = Vec::new();
        let (mut etag, mut pgn) = (String::new(), String::new());
        let (mut polls, mut not_modified) = (0, 0);
        loop {
            let a = match tokio::time::timeout(
                Duration::from_secs(6),
                try_get(addr, "/round/1.pgn", &etag),
            )
            .await
            {
                Ok(Some(a)) => a,
                _ => break, // the demo ended
            };
            polls += 1;
            match a.status {
                304 => not_modified += 1,
                200 => {
                    assert!(a
                        .header("content-type")
                        .unwrap_or("")
                        .contains("charset=utf-8"));
                    let tag = a.header("etag").expect("an ETag").to_string();
                    assert_ne!(tag, etag, "a 200 with the same ETag");
                    etag = tag;
                    pgn = a.body.clone();
                    bodies.push(a.body);
                    // 304 to the same ETag at once.
                    let again = get(addr, "/round/1.pgn", &[("If-None-Match", &etag)]).await;
                    if again.status == 304 {
                        not_modified += 1;
                    } else {
                        assert_eq!(again.status, 200);
                    }
                }
                s => panic!("status {s}"),
            }
            for p in [
                "/state.json",
                "/round/1/index.json",
                "/pairings.json",
                "/round/1/game-3.json",
            ] {
                if let Some(a) = try_get(addr, p, "").await {
                    if p == "/state.json" && a.status == 200 {
                        serde_json::from_str::<serde_json::Value>(&a.body)
                            .expect("state.json parses");
                    }
                    bodies.push(a.body);
                }
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        let (events, raw) = reader.await.expect("reader");
        bodies.push(raw);
        // The ticks' ids and the plies they carry.
        let moves: Vec<(u64, usize)> = events
            .iter()
            .filter(|e| e.event == "tick")
            .map(|e| {
                let d: serde_json::Value = serde_json::from_str(&e.data).expect("JSON");
                let plies = d["games"]
                    .as_array()
                    .expect("games")
                    .iter()
                    .map(|g| g["moves"].as_array().map_or(0, Vec::len))
                    .sum();
                (e.id.expect("an id"), plies)
            })
            .collect();
        (bodies, pgn, polls, not_modified, moves)
    });
    let status = child.wait().expect("the demo ends");
    let out = rest.join().unwrap().join("\n");
    let errors = errors.join().unwrap();
    assert!(status.success(), "{status:?}\n{errors}\n{out}");
    assert!(out.contains("games finished: 8 of 8"), "{out}");

    // The stream: ticks with increasing integer ids, the moves in them.
    let plies: usize = moves.iter().map(|m| m.1).sum();
    assert!(plies > 100, "{plies} plies in {} ticks", moves.len());
    assert!(moves.windows(2).all(|w| w[1].0 > w[0].0));
    // The relay: polls, 304s between moves, the final file replays.
    assert!(
        polls >= 10 && not_modified >= 5,
        "{polls} polls, {not_modified} 304s"
    );
    println!(
        "relay: {polls} polls, {not_modified} answered 304, {plies} plies in {} ticks",
        moves.len()
    );
    let games = xiangqi::pgn::read_pgn(&pgn).expect("the round PGN reads");
    assert_eq!(games.len(), 8);
    let stored = export::stored::load_hall(&data, None).unwrap();
    let exported = export::load_round(&data, &stored, 1).unwrap();
    for raw in &games {
        let g = raw.replay().expect("every move legal");
        let round = raw.tag("Round").expect("Round").to_string();
        let table: u32 = round
            .strip_prefix("1.")
            .and_then(|t| t.parse().ok())
            .expect("1.t");
        let e = exported
            .iter()
            .find(|e| e.pairing.table == table)
            .expect("exported");
        assert_eq!(g.moves, e.moves, "table {table}");
        let want = match e.end.as_ref().map(|x| x.result) {
            Some(proto::GameResult::RedWins) => "1-0",
            Some(proto::GameResult::BlackWins) => "0-1",
            Some(proto::GameResult::Draw) => "1/2-1/2",
            _ => "*",
        };
        assert_eq!(g.result.as_deref(), Some(want), "table {table}");
        assert!(raw.tag("RedClock").is_some() && raw.tag("BlackClock").is_some());
    }
    // Nothing private in any public body.
    let private = private_texts(&data);
    for body in &bodies {
        for p in &private {
            assert!(!body.contains(p.as_str()), "a public body holds {p:?}");
        }
    }
    println!(
        "leak test: {} bodies scanned for {} private texts",
        bodies.len(),
        private.len()
    );
}

/// `GET` with `If-None-Match` when given; `None` when the port is closed.
async fn try_get(addr: SocketAddr, path: &str, etag: &str) -> Option<Answer> {
    TcpStream::connect(addr).await.ok()?;
    let extra: Vec<(&str, &str)> = if etag.is_empty() {
        vec![]
    } else {
        vec![("If-None-Match", etag)]
    };
    let a = tokio::spawn({
        let path = path.to_string();
        let extra: Vec<(String, String)> = extra
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        async move {
            let e: Vec<(&str, &str)> = extra
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            get(addr, &path, &e).await
        }
    })
    .await
    .ok()?;
    Some(a)
}

impl Stream {
    /// The next event, or `None` when the stream ends.
    async fn next_or_end(&mut self) -> Option<Sse> {
        let mut e = Sse {
            id: None,
            event: String::new(),
            data: String::new(),
        };
        loop {
            let mut l = String::new();
            if self.r.read_line(&mut l).await.ok()? == 0 {
                return None;
            }
            self.raw.push_str(&l);
            let l = l.trim_end_matches(['\r', '\n']);
            if l.is_empty() {
                if !e.event.is_empty() {
                    return Some(e);
                }
                continue;
            }
            if let Some(v) = l.strip_prefix("id:") {
                e.id = v.trim().parse().ok();
            } else if let Some(v) = l.strip_prefix("event:") {
                e.event = v.trim().to_string();
            } else if let Some(v) = l.strip_prefix("data:") {
                e.data.push_str(v.trim_start());
            }
        }
    }
}
