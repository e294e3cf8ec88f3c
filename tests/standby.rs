//! A hall served from more than one address (README "A standby server"):
//! table terminals and consoles given several addresses try them in turn
//! and follow the hall to whichever server answers, resending their outbox
//! from that server's high-water mark.
//!
//! - Clients that follow (no database needed): a terminal and a console
//!   given a dead address first and a live one second connect; the server
//!   stops, another starts on the other address with the same data dir
//!   (so the same certificate), and both reconnect by themselves, the
//!   terminal's moves stored once.
//! - A standby server (PostgreSQL: `CAIPAN_TEST_PG_URL`, or a cluster the
//!   test starts; skipped loudly without): a second `caipan serve` of the
//!   hall waits as standby; the active one SIGKILLed mid-stream with 20
//!   tables replaying, the standby takes over, every game ends, every
//!   event the terminals saw acknowledged is stored exactly once and the
//!   console (given both addresses) shows the same games; the active one
//!   SIGSTOPped is replaced within 15 s, and after SIGCONT it acknowledges
//!   nothing and exits with an error naming the lost lock.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use proto::{ClientMsg, Connector, EventEnvelope, ServerMsg, Side, TableEvent, Trust};
use store::postgres::cluster::test_database;
use store::PgDatabase;
use table::engine::Action;
use table::engine::Engine;
use table::link::LinkConfig;
use table::terminal::{self, TerminalHandle};
use table::timebase::Timebase;
use table::Outbox;

mod support;
use support::console::Console;
use support::*;

const LONG: Duration = Duration::from_secs(30);

fn free_udp_addr() -> SocketAddr {
    let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    s.local_addr().unwrap()
}

/// A table terminal given `servers` in this order.
async fn terminal_for(
    servers: &[SocketAddr],
    trust: &Trust,
    t: u16,
    outbox: &Path,
) -> TerminalHandle {
    let connector = Connector::new(trust, false).unwrap();
    let mut link = LinkConfig::with_servers(servers.to_vec(), table_token(t), connector);
    link.connect_timeout = Duration::from_millis(800);
    link.stall = Duration::from_secs(2);
    let (info, hello) = terminal::fetch_info(&link).await.expect("table info");
    let session = hello.table.unwrap();
    let (outbox, _) = Outbox::open(outbox, t, session.epoch + 1).unwrap();
    terminal::spawn(Engine::new(info, outbox), Some(link), Timebase::real(0))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_and_a_console_follow_the_hall_to_its_other_address() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (free_udp_addr(), free_udp_addr());
    // Only b serves at first; a is dead and listed first.
    let first = hall(&b.to_string()).start(dir.path()).await;
    assert_eq!(first.addr, b);
    let fp = first.fingerprint;
    let trust = Trust::Fingerprint(fp);
    let term = terminal_for(&[a, b], &trust, 1, &dir.path().join("outbox")).await;
    term.wait_for(LONG, |s| s.online)
        .await
        .expect("online via b");
    let mut console = Console::with_servers(&[a, b], fp, CHIEF);
    console
        .until("the console connected via b", |app| {
            matches!(app.link().conn, ::console::app::ConnState::Connected) && app.hall().is_some()
        })
        .await;

    term.act(Action::Arrived { side: Side::Red }).await.unwrap();
    term.act(Action::Arrived { side: Side::Black })
        .await
        .unwrap();
    term.act(Action::StartClock).await.unwrap();
    term.act(Action::Play("h2e2".into())).await.unwrap();
    term.act(Action::Play("h9g7".into())).await.unwrap();
    term.wait_for(LONG, |s| s.waiting == 0)
        .await
        .expect("acknowledged by b");

    // b stops; the hall comes back on a, from the same data dir (the same
    // certificate, so the pinned fingerprint holds).
    first.shutdown().await.unwrap();
    let second = hall(&a.to_string()).start(dir.path()).await;
    assert_eq!((second.addr, second.fingerprint), (a, fp));
    // Moves made while the hall moves are kept and resent.
    term.act(Action::Play("h0g2".into())).await.unwrap();
    term.act(Action::Play("i9h9".into())).await.unwrap();
    term.wait_for(LONG, |s| s.online && s.waiting == 0)
        .await
        .expect("the terminal followed the hall to a");
    console
        .until(
            "the console followed the hall to a with the new moves",
            |app| {
                matches!(app.link().conn, ::console::app::ConnState::Connected)
                    && app
                        .hall()
                        .is_some_and(|h| h.tables.iter().any(|t| t.table == 1 && t.plies == 4))
            },
        )
        .await;
    let view = second.snapshot().unwrap();
    assert_eq!(
        view.tables[0].plies, 4,
        "every move stored once on the hall"
    );
    let (_, stats) = term.stop().await.unwrap();
    assert!(stats.connects >= 2, "{stats:?}");
    assert!(stats.errors.is_empty(), "{:?}", stats.errors);
    second.shutdown().await.unwrap();
}

/// `caipan serve` as a child process, its stdout lines in a channel and its
/// log in a file.
struct Serve {
    child: std::process::Child,
    lines: tokio::sync::mpsc::UnboundedReceiver<String>,
    log: std::path::PathBuf,
}

impl Serve {
    fn spawn(cfg: &Path, data: &Path, listen: SocketAddr, log: std::path::PathBuf) -> Serve {
        use std::io::BufRead;
        let err = std::fs::File::create(&log).unwrap();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
            .args(["serve", "--config"])
            .arg(cfg)
            .arg("--data")
            .arg(data)
            .arg("--listen")
            .arg(listen.to_string())
            .env("RUST_LOG", "info")
            .stdout(std::process::Stdio::piped())
            .stderr(err)
            .spawn()
            .expect("spawn caipan serve");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = tokio::sync::mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send(line);
            }
        });
        Serve { child, lines, log }
    }

    /// The next stdout line starting with `prefix` (the rest of it).
    async fn line(&mut self, prefix: &str, within: Duration) -> String {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            match tokio::time::timeout_at(deadline, self.lines.recv()).await {
                Ok(Some(l)) => {
                    if let Some(rest) = l.strip_prefix(prefix) {
                        return rest.trim().to_string();
                    }
                }
                other => panic!(
                    "no line {prefix:?} within {within:?} ({other:?}); log:\n{}",
                    self.log_text()
                ),
            }
        }
    }

    /// Waits for the serving banner: the fingerprint.
    async fn serving(&mut self) -> proto::Fingerprint {
        self.line("listening on ", LONG).await;
        self.line("certificate sha256 fingerprint ", LONG)
            .await
            .parse()
            .unwrap()
    }

    fn signal(&self, sig: libc::c_int) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: kill(2) on our own child, not yet reaped.
        assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
    }

    /// Waits (polling) for the exit status.
    async fn exit(&mut self, within: Duration) -> std::process::ExitStatus {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "caipan serve still runs after {within:?}; log:\n{}",
                self.log_text()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tables` tables on PostgreSQL hall `room-a`.
fn pg_hall(url: &str, tables: u16) -> Hall {
    let names: Vec<(String, String)> = (1..=tables)
        .map(|t| (format!("红{t}"), format!("黑{t}")))
        .collect();
    let players: Vec<(&str, &str)> = names.iter().map(|(r, b)| (&r[..], &b[..])).collect();
    Hall::new("候补测试赛", "127.0.0.1:0")
        .with_tables(&players)
        .on_postgres(url, "room-a", "test-tournament")
}

/// The stored events of table `t`: `(epoch, seq)` keys.
async fn stored_keys(url: &str, t: u32) -> Vec<(u32, u64)> {
    let pg = PgDatabase::connect(url, None).await.unwrap();
    pg.hall("room-a")
        .events_after(Some(t), 0)
        .await
        .unwrap()
        .iter()
        .map(|e| (e.key.epoch, e.key.seq))
        .collect()
}

fn games() -> std::sync::Arc<Vec<xiangqi::Game>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/games/hu-ronghua-1391.pgn"
    );
    let text = std::fs::read_to_string(path).expect("game data set");
    std::sync::Arc::new(table::replay::games_from_pgn(&text).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_standby_takes_over_from_a_sigkilled_server_with_20_tables_replaying() {
    let Some(db) = test_database("standby_sigkill").await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tables = 20u16;
    let cfg = dir.path().join("hall.toml");
    std::fs::write(&cfg, pg_hall(db.url(), tables).toml()).unwrap();
    let data = dir.path().join("data");
    let (pa, pb) = (free_udp_addr(), free_udp_addr());
    let mut a = Serve::spawn(&cfg, &data, pa, dir.path().join("a.log"));
    let fp = a.serving().await;
    // The standby shares the data dir: the same certificate.
    let mut b = Serve::spawn(&cfg, &data, pb, dir.path().join("b.log"));
    let said = b.line("standby: ", LONG).await;
    assert!(said.contains("room-a"), "{said}");

    let mut console = Console::with_servers(&[pa, pb], fp, CHIEF);
    console
        .until("the console on a", |app| app.hall().is_some())
        .await;
    let list: Vec<(u16, String)> = (1..=tables).map(|t| (t, table_token(t))).collect();
    let mut opts = table::replay::ReplayOptions::new(pa, Trust::Fingerprint(fp), list, games());
    opts.other_servers = vec![pb];
    opts.speed = 300.0;
    opts.seed = 18;
    let replay = tokio::spawn(table::replay::run(opts));
    console
        .until("40 plies played on a", |app| {
            app.hall()
                .is_some_and(|h| h.tables.iter().map(|t| u64::from(t.plies)).sum::<u64>() >= 40)
        })
        .await;
    a.signal(libc::SIGKILL);
    let killed = std::time::Instant::now();
    b.serving().await;
    let takeover = killed.elapsed();
    assert!(
        takeover < Duration::from_secs(15),
        "took over after {takeover:?}"
    );

    let report = tokio::time::timeout(Duration::from_secs(300), replay)
        .await
        .expect("the replay ends")
        .unwrap()
        .expect("replay runs");
    for t in &report.tables {
        assert!(
            t.result.is_some() && t.all_acked,
            "table {} not finished with everything acknowledged: {t:?}",
            t.table
        );
        // Exactly once: the terminal's every event, each key once.
        let keys = stored_keys(db.url(), u32::from(t.table)).await;
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            keys.len(),
            "table {}: a key stored twice",
            t.table
        );
        assert_eq!(keys.len() as u64, t.events, "table {}: {keys:?}", t.table);
    }
    // The console followed the hall to b, which shows every game as played.
    console
        .until("every game over on b", |app| {
            matches!(app.link().conn, ::console::app::ConnState::Connected)
                && app.hall().is_some_and(|h| {
                    report.tables.iter().all(|r| {
                        h.tables
                            .iter()
                            .any(|t| t.table == r.table && t.plies as usize == r.plies)
                    })
                })
        })
        .await;
    b.signal(libc::SIGTERM);
    assert!(b.exit(LONG).await.success(), "{}", b.log_text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigstopped_server_is_replaced_within_15_s_and_acknowledges_nothing_after_sigcont() {
    let Some(db) = test_database("standby_sigstop").await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("hall.toml");
    std::fs::write(&cfg, pg_hall(db.url(), 4).toml()).unwrap();
    let data = dir.path().join("data");
    let (pa, pb) = (free_udp_addr(), free_udp_addr());
    let mut a = Serve::spawn(&cfg, &data, pa, dir.path().join("a.log"));
    let fp = a.serving().await;
    let mut b = Serve::spawn(&cfg, &data, pb, dir.path().join("b.log"));
    b.line("standby: ", LONG).await;
    let trust = Trust::Fingerprint(fp);
    let term = terminal_for(&[pa, pb], &trust, 1, &dir.path().join("outbox")).await;
    term.act(Action::Arrived { side: Side::Red }).await.unwrap();
    term.act(Action::Arrived { side: Side::Black })
        .await
        .unwrap();
    term.act(Action::StartClock).await.unwrap();
    term.act(Action::Play("h2e2".into())).await.unwrap();
    term.wait_for(LONG, |s| s.online && s.waiting == 0)
        .await
        .expect("acknowledged by a");

    // a stalls with its sockets (and its database session) open.
    a.signal(libc::SIGSTOP);
    let stopped = std::time::Instant::now();
    term.act(Action::Play("h9g7".into())).await.unwrap();
    term.act(Action::Play("h0g2".into())).await.unwrap();
    b.serving().await;
    let replaced = stopped.elapsed();
    assert!(
        replaced < Duration::from_secs(15),
        "replaced after {replaced:?}"
    );
    term.wait_for(LONG, |s| s.online && s.waiting == 0)
        .await
        .expect("the terminal moved to b, which acknowledged the moves");

    // a resumes: it acknowledges nothing and stops by itself.
    a.signal(libc::SIGCONT);
    let hello = proto::Hello {
        protocol_version: proto::PROTOCOL_VERSION,
        token: table_token(2),
        client: "standby-test".into(),
    };
    if let Ok(Ok(mut c)) =
        tokio::time::timeout(Duration::from_secs(3), proto::connect(pa, &trust, hello)).await
    {
        let epoch = c.hello_ok.table.as_ref().map_or(0, |s| s.epoch) + 1;
        let env = EventEnvelope {
            table: 2,
            epoch,
            seq: 1,
            body: TableEvent::Arrived { side: Side::Red },
        };
        if c.send(&ClientMsg::Event(env)).await.is_ok() {
            let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
            while let Ok(Ok(m)) = tokio::time::timeout_at(deadline, c.recv()).await {
                assert!(
                    !matches!(m, ServerMsg::Ack(_)),
                    "the resumed server acknowledged an event: {m:?}"
                );
            }
        }
    }
    let status = a.exit(Duration::from_secs(30)).await;
    assert!(!status.success(), "{status:?}");
    let log = a.log_text();
    assert!(
        log.contains("another server holds the hall's lock"),
        "the resumed server names the lost lock:\n{log}"
    );
    assert!(
        stored_keys(db.url(), 2).await.is_empty(),
        "nothing of table 2 was stored"
    );
    // Every acknowledged move once, on b.
    let keys = stored_keys(db.url(), 1).await;
    let (engine, _) = term.stop().await.unwrap();
    assert_eq!(engine.outbox().waiting(), 0);
    let mut unique = keys.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "{keys:?}");
    let epoch = engine.outbox().epoch();
    let expected: Vec<(u32, u64)> = (1..=engine.outbox().last_seq())
        .map(|q| (epoch, q))
        .collect();
    unique.retain(|k| k.0 == epoch);
    assert_eq!(unique, expected, "every event of the terminal, once");
    assert!(
        expected.len() >= 6,
        "arrivals, start, three moves: {keys:?}"
    );
    b.signal(libc::SIGTERM);
    assert!(b.exit(LONG).await.success(), "{}", b.log_text());
}
