//! The server over real QUIC with its hall record in a real PostgreSQL
//! (`[store]` in the hall config), beyond the server's own suite (which
//! tests/server.rs runs on both stores): two halls of one tournament in one
//! database, isolated, exported as one; a hall whose table numbers collide
//! with another hall's of the tournament refused at start; the console's
//! export of a hall on PostgreSQL; and the database stopped with
//! `pg_ctl stop -m immediate` mid-stream: nothing sent while it is down is
//! acknowledged before it is back, every acknowledged event is stored
//! once, and the server resumes by itself.
//!
//! Each test gets a fresh database (`CAIPAN_TEST_PG_URL`, or a cluster the
//! test process starts); without PostgreSQL they are skipped loudly, or fail
//! when `CI` is set.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proto::{ClientMsg, EventEnvelope, ServerMsg, Side, TableEvent};
use store::postgres::cluster::{test_database, Cluster};
use store::PgDatabase;

mod support;
use support::*;

/// The standard test hall (4 tables) as hall `hall_id` in `url`.
fn pg_hall(url: &str, hall_id: &str) -> Hall {
    hall("127.0.0.1:0").on_postgres(url, hall_id, "test-tournament")
}

/// Hall `hall_id` playing `players` on tables `first`, `first + 1`, ….
fn room(url: &str, hall_id: &str, first: u16, players: &[(&str, &str)]) -> Hall {
    let mut h = Hall::new("两厅赛", "127.0.0.1:0");
    h.site = format!("厅 {hall_id}");
    let tables: Vec<u16> = (first..first + players.len() as u16).collect();
    h.table_tokens = tables.iter().map(|t| (*t, table_token(*t))).collect();
    let mut r = Round::new(1, players);
    r.first_table = first;
    h.rounds = vec![r];
    h.on_postgres(url, hall_id, "two-rooms")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_halls_in_one_database_are_isolated_and_export_as_one_tournament() {
    let Some(db) = test_database("two_halls").await else {
        return;
    };
    let (da, dbb) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = room(db.url(), "room-a", 1, &PLAYERS[..2]);
    let b = room(db.url(), "room-b", 3, &PLAYERS[2..]);
    let sa = a.start(da.path()).await;
    let sb = b.start(dbb.path()).await;
    // Hall A, table 1: Black resigns after three moves (胡荣华 wins).
    let mut ta = Terminal::open(sa.addr, sa.fingerprint, 1).await;
    ta.play(&["h2e2", "h9g7", "h0g2"], Side::Red).await;
    ta.event(TableEvent::Resign {
        by: Side::Black,
        reason: "test".into(),
    })
    .await;
    // Hall B, table 3: a draw agreed after one move.
    let mut tb = Terminal::open(sb.addr, sb.fingerprint, 3).await;
    tb.play(&["c3c4"], Side::Red).await;
    tb.event(TableEvent::DrawOffer { by: Side::Black }).await;
    tb.event(TableEvent::DrawAccept { by: Side::Red }).await;
    // A table of the other hall is not this hall's: its token is refused.
    assert!(connect(sb.addr, sb.fingerprint, &table_token(1))
        .await
        .is_err());
    drop((ta, tb));
    sa.shutdown().await.unwrap();
    sb.shutdown().await.unwrap();

    // Each restarted hall rebuilds its own tables from its own rows.
    let sb = b.start(dbb.path()).await;
    let view = sb.snapshot().unwrap();
    let tables: Vec<(u16, u32)> = view.tables.iter().map(|t| (t.table, t.plies)).collect();
    assert_eq!(tables, vec![(3, 1), (4, 0)]);
    sb.shutdown().await.unwrap();
    let sa = a.start(da.path()).await;
    let view = sa.snapshot().unwrap();
    let tables: Vec<(u16, u32)> = view.tables.iter().map(|t| (t.table, t.plies)).collect();
    assert_eq!(tables, vec![(1, 3), (2, 0)]);
    sa.shutdown().await.unwrap();

    let pg = PgDatabase::connect(db.url(), None).await.unwrap();
    let tables_of = |events: &[store::StoredEvent]| {
        let mut m: BTreeMap<u32, usize> = BTreeMap::new();
        for e in events {
            *m.entry(e.key.table).or_default() += 1;
        }
        m
    };
    let ea = pg.hall("room-a").events_after(None, 0).await.unwrap();
    let eb = pg.hall("room-b").events_after(None, 0).await.unwrap();
    assert_eq!(tables_of(&ea), BTreeMap::from([(1, 4)]));
    assert_eq!(tables_of(&eb), BTreeMap::from([(3, 3)]));
    assert_eq!(
        pg.tournament_halls("two-rooms").await.unwrap(),
        vec!["room-a".to_string(), "room-b".to_string()]
    );

    // One tournament across the two halls, exported as one.
    let export = |format: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
            .args(["export", "--store", db.url(), "--tournament", "two-rooms"])
            .args(["--round", "1", "--format", format])
            .output()
            .expect("caipan export runs");
        assert!(
            out.status.success(),
            "export {format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let csv = export("csv");
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let summary: Vec<(&str, &str, &str, &str)> =
        rows.iter().map(|r| (r[1], r[2], r[5], r[8])).collect();
    assert_eq!(
        summary,
        vec![
            ("1", "胡荣华", "许银川", "1-0"),
            ("2", "吕钦", "赵国荣", "*"),
            ("3", "徐天红", "柳大华", "1/2-1/2"),
            ("4", "李来群", "杨官璘", "*"),
        ],
        "{csv}"
    );
    let standings: serde_json::Value =
        serde_json::from_str(&export("standings-json")).expect("standings JSON");
    let text = standings.to_string();
    for (red, black) in PLAYERS {
        assert!(text.contains(red) && text.contains(black), "{text}");
    }
    // The PGN comments (the alerts' words) follow --lang as the data-dir
    // export's do; without it, the hall's own language (none: English).
    let pgn = |lang: Option<&str>| {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"));
        cmd.args(["export", "--store", db.url(), "--tournament", "two-rooms"])
            .args(["--round", "1", "--format", "pgn", "--out"])
            .arg(dir.path());
        if let Some(l) = lang {
            cmd.args(["--lang", l]);
        }
        let out = cmd.output().expect("caipan export runs");
        assert!(
            out.status.success(),
            "export pgn: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(dir.path().join("r1-t01.pgn")).expect("table 1's game")
    };
    let (plain, en, vi, hant) = (
        pgn(None),
        pgn(Some("en")),
        pgn(Some("vi")),
        pgn(Some("zh-Hant")),
    );
    assert!(plain.contains("table 1: game over"), "{plain}");
    assert_eq!(en, plain, "English is the default's words");
    assert!(vi.contains("bàn 1: ván đấu kết thúc"), "{vi}");
    assert!(!vi.contains("game over"), "{vi}");
    assert!(hant.contains("第1台對局結束"), "{hant}");
    // The TRF of a round with games not over is refused, naming them in
    // both halls (a TRF never holds a blank result).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["export", "--store", db.url(), "--tournament", "two-rooms"])
        .args(["--round", "1", "--format", "trf"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let why = String::from_utf8_lossy(&out.stderr);
    assert!(why.contains("round 1 table 2, 4"), "{why}");
    // A tournament not in the database is an error naming the ones there.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["export", "--store", db.url(), "--tournament", "nope"])
        .args(["--round", "1", "--format", "csv"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("two-rooms"));
}

/// A cluster of this test's own (it is crashed), or `None` after a loud
/// skip where PostgreSQL is missing (a failure with `CI` set).
async fn own_cluster(tag: &str) -> Option<Cluster> {
    match tokio::task::spawn_blocking(Cluster::start).await.unwrap() {
        Ok(c) => Some(c),
        Err(why) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set and no PostgreSQL cluster could be started: {why}"
            );
            eprintln!("\n*** SKIPPED {tag}: no PostgreSQL ({why}) ***\n");
            None
        }
    }
}

/// The phases of the database-crash test, as seen by the ack reader.
const UP: u8 = 0;
const DOWN: u8 = 1;
const RESTARTED: u8 = 2;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_stopped_immediately_mid_stream_acknowledges_nothing_loses_nothing_and_resumes() {
    let Some(cluster) = own_cluster("database_stopped_immediately").await else {
        return;
    };
    let cluster = Arc::new(Mutex::new(cluster));
    let url = cluster.lock().unwrap().url("postgres");
    let dir = tempfile::tempdir().unwrap();
    let h = pg_hall(&url, "room-a");
    let s = h.start(dir.path()).await;

    let c = connect(s.addr, s.fingerprint, &table_token(2))
        .await
        .unwrap();
    let epoch = c.hello.table.clone().unwrap().epoch.max(1);
    let (_conn, _hello, mut tx, mut rx) = c.c.split();
    // Every ack, with the phase it arrived in.
    let phase = Arc::new(AtomicU8::new(UP));
    let acks: Arc<Mutex<Vec<(u64, u8)>>> = Arc::default();
    let reader = {
        let (phase, acks) = (phase.clone(), acks.clone());
        tokio::spawn(async move {
            while let Ok(Some(m)) = rx.recv().await {
                match m {
                    ServerMsg::Ack(a) => acks
                        .lock()
                        .unwrap()
                        .push((a.seq, phase.load(Ordering::Acquire))),
                    ServerMsg::Error(e) => panic!("event refused: {e:?}"),
                    _ => {}
                }
            }
        })
    };
    let body = |seq: u64| {
        if seq % 2 == 1 {
            TableEvent::DrawOffer { by: Side::Red }
        } else {
            TableEvent::DrawDecline { by: Side::Black }
        }
    };
    let highest = |acks: &Mutex<Vec<(u64, u8)>>| {
        acks.lock()
            .unwrap()
            .iter()
            .map(|(s, _)| *s)
            .max()
            .unwrap_or(0)
    };
    let mut seq = 0u64;
    let mut send = |n: u64| {
        let from = seq + 1;
        seq += n;
        (from..=seq)
            .map(|s| EventEnvelope {
                table: 2,
                epoch,
                seq: s,
                body: body(s),
            })
            .collect::<Vec<_>>()
    };
    for env in send(200) {
        tx.send(&ClientMsg::Event(env)).await.unwrap();
    }
    wait_until(|| highest(&acks) >= 50, "first acks").await;

    // Crash the database mid-stream, then keep sending.
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.lock().unwrap().stop_immediate())
        .await
        .unwrap()
        .unwrap();
    let sent_before_down = 200;
    phase.store(DOWN, Ordering::Release);
    for env in send(100) {
        tx.send(&ClientMsg::Event(env)).await.unwrap();
    }
    // Give a wrong acknowledgement every chance to show up.
    tokio::time::sleep(Duration::from_secs(2)).await;
    phase.store(RESTARTED, Ordering::Release);
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.lock().unwrap().start_again())
        .await
        .unwrap()
        .unwrap();
    // Resumes by itself.
    wait_until(|| highest(&acks) >= 300, "acks after the restart").await;
    for env in send(100) {
        tx.send(&ClientMsg::Event(env)).await.unwrap();
    }
    wait_until(
        || highest(&acks) >= 400,
        "acks of events sent after the restart",
    )
    .await;

    let acked = acks.lock().unwrap().clone();
    let early: Vec<u64> = acked
        .iter()
        .filter(|(s, p)| *s > sent_before_down && *p == DOWN)
        .map(|(s, _)| *s)
        .collect();
    assert!(
        early.is_empty(),
        "sent while the database was down and acknowledged before it was back: {early:?}"
    );
    reader.abort();
    drop(tx);
    s.shutdown().await.unwrap();

    let pg = PgDatabase::connect(&url, None).await.unwrap();
    let stored = pg.hall("room-a").events_after(Some(2), 0).await.unwrap();
    let mut count: BTreeMap<u64, usize> = BTreeMap::new();
    for e in &stored {
        *count.entry(e.key.seq).or_default() += 1;
    }
    assert!(count.values().all(|n| *n == 1), "an event stored twice");
    let lost: Vec<u64> = acked
        .iter()
        .map(|(s, _)| *s)
        .filter(|s| !count.contains_key(s))
        .collect();
    assert!(lost.is_empty(), "acknowledged but not stored: {lost:?}");
    assert_eq!(count.len(), 400, "every event sent is stored once");
    drop(pg);
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.lock().unwrap().stop())
        .await
        .unwrap()
        .unwrap();
}

/// Polls `done` until it holds (at most 120 s: a hang is a failure, not a
/// measurement).
async fn wait_until(done: impl Fn() -> bool, what: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hall_whose_tables_collide_with_another_hall_of_the_tournament_refuses_to_start() {
    let Some(db) = test_database("table_collision").await else {
        return;
    };
    let (da, dbb) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = room(db.url(), "room-a", 1, &PLAYERS[..2]);
    let sa = a.start(da.path()).await;
    sa.shutdown().await.unwrap();
    // Hall B's round 1 plays tables 2 and 3: table 2 is hall A's.
    let b = room(db.url(), "room-b", 2, &PLAYERS[2..]);
    let options = server::StartOptions {
        config_text: Some(b.toml()),
        ..Default::default()
    };
    let refused =
        server::Server::start_with(b.config(dbb.path()), &dbb.path().join("data"), options)
            .await
            .err()
            .expect("hall B refuses to start");
    let why = refused.to_string();
    assert!(
        why.contains("round 1") && why.contains("table 2") && why.contains("room-a"),
        "{why}"
    );
    // `caipan serve` says the same and exits with an error.
    let cfg = dbb.path().join("hall.toml");
    std::fs::write(&cfg, b.toml()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["serve", "--config"])
        .arg(&cfg)
        .arg("--data")
        .arg(dbb.path().join("data"))
        .output()
        .expect("caipan serve runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("round 1") && stderr.contains("table 2") && stderr.contains("room-a"),
        "{stderr}"
    );
    // Nothing of hall B was written; hall A still starts; B with other
    // table numbers starts too.
    let pg = PgDatabase::connect(db.url(), None).await.unwrap();
    assert_eq!(
        pg.halls().await.unwrap(),
        vec![("room-a".to_string(), Some("two-rooms".to_string()))]
    );
    let sa = a.start(da.path()).await;
    sa.shutdown().await.unwrap();
    let b = room(db.url(), "room-b", 3, &PLAYERS[2..]);
    let sb = b.start(dbb.path()).await;
    sb.shutdown().await.unwrap();
}

/// The console's export (`E`, `Command::ExportRound`) of a hall on
/// PostgreSQL reads the hall's rows in the database: every format of the
/// round in `<data_dir>/exports/round-1/`, the results the same as
/// `caipan export --store URL --tournament ID` gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_export_of_a_hall_on_postgres_reads_the_database() {
    let Some(db) = test_database("console_export").await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let h = pg_hall(db.url(), "room-a");
    let s = h.start(dir.path()).await;
    let mut chief = chief(&s).await;
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    t1.play(&["h2e2", "h9g7", "h0g2"], Side::Red).await;
    t1.event(TableEvent::Resign {
        by: Side::Black,
        reason: "test".into(),
    })
    .await;
    let note = chief
        .command(20, proto::Command::ExportRound)
        .await
        .expect("the chief exports");
    let folder = server::export::command::round_folder(&dir.path().join("data"), 1);
    assert!(note.contains(&folder.display().to_string()), "{note}");
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).expect(name);
    let csv = read("results.csv");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args([
            "export",
            "--store",
            db.url(),
            "--tournament",
            "test-tournament",
        ])
        .args(["--round", "1", "--format", "csv"])
        .output()
        .expect("caipan export runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(csv, String::from_utf8(out.stdout).unwrap());
    let first: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(
        (first[1], first[2], first[8]),
        ("1", "胡荣华", "1-0"),
        "{csv}"
    );
    let pgn: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".pgn"))
        .collect();
    assert!(
        pgn.iter()
            .any(|n| read(n).contains("胡荣华") && read(n).contains("1-0")),
        "{pgn:?}"
    );
    for name in [
        "results.json",
        "standings.csv",
        "standings.json",
        "standings.html",
    ] {
        assert!(!read(name).is_empty(), "{name}");
    }
    s.shutdown().await.unwrap();
}
