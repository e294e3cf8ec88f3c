//! End-to-end tests of the table terminal against a real in-process server
//! on 127.0.0.1 with a temporary data dir:
//! - a short game through the terminal's engine (moves in ICCS, Chinese and
//!   WXF notation, presses, a natural-limit claim, a pause and a resume
//!   commanded from a console), then the server's stored record checked
//!   event by event and after a restart;
//! - the offline outbox: the server goes away, the terminal keeps playing,
//!   the server comes back on the same data dir and every event arrives
//!   exactly once and in order;
//! - the replayer: real games on 8 tables to their end with the incidents
//!   (40 tables: `cargo test --release -p caipan --test table -- --ignored`).

mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use proto::{AlertKind, ClaimKind, Command, Connector, IccsMove, Side, TableEvent, Trust};
use server::RunningServer;
use support::{connect, table_token, Hall, CHIEF};
use table::engine::{Action, Engine, Status};
use table::link::LinkConfig;
use table::terminal::{self, TerminalHandle};
use table::timebase::Timebase;
use table::Outbox;

/// The hall: `tables` tables, 红t against 黑t on table t.
fn hall(listen: &str, tables: u16) -> Hall {
    let names: Vec<(String, String)> = (1..=tables)
        .map(|t| (format!("红{t}"), format!("黑{t}")))
        .collect();
    let players: Vec<(&str, &str)> = names.iter().map(|(r, b)| (&r[..], &b[..])).collect();
    Hall::new("台端测试赛", listen).with_tables(&players)
}

async fn start(dir: &Path, listen: &str, tables: u16) -> RunningServer {
    hall(listen, tables).start(dir).await
}

fn free_udp_port() -> u16 {
    let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    s.local_addr().unwrap().port()
}

async fn terminal_for(
    srv_addr: SocketAddr,
    trust: &Trust,
    t: u16,
    outbox_dir: &Path,
) -> TerminalHandle {
    let connector = Connector::new(trust, false).unwrap();
    let link = LinkConfig::new(srv_addr, table_token(t), connector);
    let (info, hello) = terminal::fetch_info(&link).await.expect("table info");
    assert_eq!(info.control, rulebook::TimeControl::axf_fischer());
    let session = hello.table.unwrap();
    let (outbox, _) = Outbox::open(outbox_dir, t, session.epoch + 1).unwrap();
    let engine = Engine::new(info, outbox);
    terminal::spawn(engine, Some(link), Timebase::real(0))
}

fn stored_events(data: &Path, t: u16) -> Vec<proto::EventEnvelope> {
    let reader = store::StoreReader::open_dir(data).unwrap();
    reader
        .events_for_table(u32::from(t), 0)
        .unwrap()
        .into_iter()
        .map(
            |e| match hall::record::Record::decode(&e.payload).unwrap() {
                hall::record::Record::Event(env) => {
                    assert_eq!(
                        (u32::from(env.table), env.epoch, env.seq),
                        (e.key.table, e.key.epoch, e.key.seq)
                    );
                    env
                }
                other => panic!("not an event: {other:?}"),
            },
        )
        .collect()
}

const LONG: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_game_through_the_terminal_is_stored_by_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path(), "127.0.0.1:0", 2).await;
    let trust = Trust::Fingerprint(srv.fingerprint);
    let addr = srv.addr;
    let mut console = connect(addr, srv.fingerprint, CHIEF)
        .await
        .expect("console");
    console.subscribe().await;
    let term = terminal_for(addr, &trust, 1, &dir.path().join("outbox")).await;
    term.wait_for(LONG, |s| s.online).await.expect("online");

    term.act(Action::Arrived { side: Side::Red }).await.unwrap();
    term.act(Action::Arrived { side: Side::Black })
        .await
        .unwrap();
    term.act(Action::StartClock).await.unwrap();
    // ICCS.
    term.act(Action::Play("h2e2".into())).await.unwrap();
    // Chinese, entered then pressed.
    term.act(Action::EnterMove("马8进7".into())).await.unwrap();
    assert_eq!(term.screen().plies, 1, "entering is not playing");
    term.act(Action::Press).await.unwrap();
    // WXF.
    term.act(Action::Play("H2+3".into())).await.unwrap();
    // An illegal move is refused before any press.
    assert!(term.act(Action::Play("h2e9".into())).await.is_err());

    // The chief pauses the table from the console.
    console
        .command(
            1,
            Command::PauseTable {
                table: 1,
                reason: "noise in the hall".into(),
            },
        )
        .await
        .expect("paused");
    let paused = term
        .wait_for(LONG, |s| matches!(s.status, Status::Paused { .. }))
        .await
        .expect("paused at the terminal");
    match &paused.status {
        Status::Paused { by, reason } => {
            assert!(by.contains("王志明") || by.contains("chief"), "{by}");
            assert_eq!(reason, "noise in the hall");
        }
        other => panic!("{other:?}"),
    }
    assert!(term.act(Action::Play("i9h9".into())).await.is_err());
    let frozen = term.screen().black_ms;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        term.screen().black_ms,
        frozen,
        "the clock stands while paused"
    );
    console
        .command(2, Command::ResumeTable { table: 1 })
        .await
        .expect("resumed");
    term.wait_for(LONG, |s| s.status == Status::Running)
        .await
        .expect("resumed");
    term.act(Action::Play("车9平8".into())).await.unwrap();
    // A (false) natural-limit claim.
    term.act(Action::ClaimNaturalLimit { by: Side::Red })
        .await
        .unwrap();
    let done = term
        .wait_for(LONG, |s| s.waiting == 0)
        .await
        .expect("everything acknowledged");
    assert_eq!(done.plies, 4);

    // The live state.
    let view = srv.snapshot().unwrap();
    let t1 = view.tables.iter().find(|t| t.table == 1).unwrap();
    let moves: Vec<String> = t1.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert!(view.claims.iter().any(|c| c.table == 1
        && c.kind == ClaimKind::NaturalLimit
        && c.by == Some(Side::Red)
        && c.recommended.verdict == proto::Verdict::Continue));
    assert!(!view.alerts.iter().any(|a| a.kind == AlertKind::IllegalMove));

    let (engine, stats) = term.stop().await.unwrap();
    assert!(stats.errors.is_empty(), "{:?}", stats.errors);
    srv.shutdown().await.unwrap();

    // The stored record: exactly the terminal's events, in order.
    let data = dir.path().join("data");
    let stored = stored_events(&data, 1);
    let ours = engine.outbox().from_seq(1).to_vec();
    assert_eq!(stored, ours);
    let presses = stored
        .iter()
        .filter(|e| matches!(e.body, TableEvent::ClockPress { .. }))
        .count();
    assert_eq!(presses, 4);
    let applied = stored
        .iter()
        .filter(|e| matches!(e.body, TableEvent::ControlApplied { .. }))
        .count();
    assert_eq!(applied, 2, "pause and resume acknowledged");
    assert!(stored.iter().any(|e| matches!(
        e.body,
        TableEvent::ClockPress { mv: Some(m), .. } if m == IccsMove::parse("h9g7").unwrap()
    )));

    // Rebuilt from the store after a restart: the same game.
    let srv = start(dir.path(), "127.0.0.1:0", 2).await;
    let view = srv.snapshot().unwrap();
    let t1 = view.tables.iter().find(|t| t.table == 1).unwrap();
    assert_eq!(t1.moves.len(), 4);
    assert_eq!(t1.plies, 4);
    srv.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_events_arrive_exactly_once_and_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let listen = format!("127.0.0.1:{}", free_udp_port());
    let srv = start(dir.path(), &listen, 2).await;
    let trust = Trust::Fingerprint(srv.fingerprint);
    let addr = srv.addr;
    let term = terminal_for(addr, &trust, 2, &dir.path().join("outbox")).await;
    term.wait_for(LONG, |s| s.online).await.expect("online");
    term.act(Action::StartClock).await.unwrap();
    term.act(Action::Play("c3c4".into())).await.unwrap();
    term.act(Action::Play("c6c5".into())).await.unwrap();
    term.wait_for(LONG, |s| s.waiting == 0)
        .await
        .expect("acked");

    // The server goes away.
    srv.shutdown().await.unwrap();
    term.wait_for(LONG, |s| !s.online).await.expect("offline");
    let line = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
    for m in line {
        tokio::time::sleep(Duration::from_millis(150)).await;
        term.act(Action::Play(m.into())).await.unwrap();
    }
    term.act(Action::OfferDraw { by: Side::Red }).await.unwrap();
    let s = term.screen();
    assert!(!s.online);
    assert_eq!(s.waiting, 7, "offline — 7 events waiting");
    // The clock keeps running offline.
    let before = term.screen().red_ms;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(term.screen().red_ms < before);

    // The server returns on the same data dir and address.
    let srv = start(dir.path(), &listen, 2).await;
    assert!(srv.rebuilt_records > 0);
    term.wait_for(Duration::from_secs(20), |s| s.online && s.waiting == 0)
        .await
        .expect("resent and acknowledged");
    let (engine, stats) = term.stop().await.unwrap();
    assert!(stats.errors.is_empty(), "{:?}", stats.errors);
    assert!(stats.connects >= 2);
    let view = srv.snapshot().unwrap();
    let t2 = view.tables.iter().find(|t| t.table == 2).unwrap();
    assert_eq!(t2.plies, 8);
    srv.shutdown().await.unwrap();

    let stored = stored_events(&dir.path().join("data"), 2);
    let seqs: Vec<u64> = stored.iter().map(|e| e.seq).collect();
    let expected: Vec<u64> = (1..=engine.outbox().last_seq()).collect();
    assert_eq!(seqs, expected, "each event exactly once, in order");
    assert_eq!(stored, engine.outbox().from_seq(1).to_vec());
}

fn games() -> std::sync::Arc<Vec<xiangqi::Game>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/games/hu-ronghua-1391.pgn"
    );
    let text = std::fs::read_to_string(path).expect("game data set");
    std::sync::Arc::new(table::replay::games_from_pgn(&text).unwrap())
}

async fn replay_hall(tables: u16, speed: f64) {
    use table::replay::{Incident, ReplayOptions};
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path(), "127.0.0.1:0", tables).await;
    let trust = Trust::Fingerprint(srv.fingerprint);
    let list: Vec<(u16, String)> = (1..=tables).map(|t| (t, table_token(t))).collect();
    let mut opts = ReplayOptions::new(srv.addr, trust, list, games());
    opts.speed = speed;
    opts.incidents = true;
    opts.seed = 11;
    opts.ruling_wait = Duration::from_millis(500);
    opts.disconnect_for = Duration::from_millis(1500);
    let report = table::replay::run(opts).await.expect("replay runs");
    for t in &report.tables {
        assert!(t.errors.is_empty(), "table {}: {:?}", t.table, t.errors);
        assert!(
            t.result.is_some() && t.all_acked,
            "table {} not finished: {t:?}",
            t.table
        );
    }
    assert_eq!(report.finished(), usize::from(tables));
    let by_incident = |i: Incident| {
        report
            .tables
            .iter()
            .find(|t| t.incident == Some(i))
            .map(|t| t.table)
            .unwrap()
    };
    let view = srv.snapshot().unwrap();
    // Every game ended on the server as on the terminal.
    for t in &report.tables {
        let v = view.tables.iter().find(|v| v.table == t.table).unwrap();
        assert_eq!(v.plies as usize, t.plies, "table {}", t.table);
        assert!(
            matches!(v.status, proto::TableStatus::Finished { .. }),
            "table {}: {:?}",
            t.table,
            v.status
        );
    }
    let alerts = |kind: AlertKind| -> Vec<u16> {
        view.alerts
            .iter()
            .filter(|a| a.kind == kind)
            .map(|a| a.table)
            .collect()
    };
    assert_eq!(
        alerts(AlertKind::IllegalMove),
        vec![by_incident(Incident::IllegalMove)],
        "no illegal-move alert except the injected one"
    );
    let check = by_incident(Incident::PerpetualCheck);
    assert!(view.alerts.iter().any(|a| a.table == check
        && a.kind == AlertKind::Repetition
        && a.rule_ids.iter().any(|r| r == "AXF-D1")));
    assert!(alerts(AlertKind::Repetition).contains(&by_incident(Incident::PerpetualChase)));
    assert!(alerts(AlertKind::FlagFall).contains(&by_incident(Incident::FlagFall)));
    let claim = |t: u16| {
        view.claims
            .iter()
            .find(|c| c.table == t && c.kind == ClaimKind::NaturalLimit)
            .map(|c| c.recommended.verdict)
    };
    assert_eq!(
        claim(by_incident(Incident::TrueLimitClaim)),
        Some(proto::Verdict::Draw)
    );
    assert_eq!(
        claim(by_incident(Incident::FalseLimitClaim)),
        Some(proto::Verdict::Continue)
    );
    srv.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replayer_plays_eight_tables_with_incidents_to_their_end() {
    replay_hall(8, 1500.0).await;
}

/// 40 tables: `cargo test --release -p caipan --test table -- --ignored`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "40 tables take a while; run with --ignored"]
async fn the_replayer_plays_forty_tables_with_incidents_to_their_end() {
    replay_hall(40, 600.0).await;
}

/// A standby server of the same hall (same config, its own data dir and
/// address) announces the same hall id as the first, so a terminal's
/// default outbox folder is the same for both; another hall's differs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_outbox_is_the_halls_not_the_servers() {
    let (d1, d2, d3) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let main = start(d1.path(), "127.0.0.1:0", 2).await;
    let standby = start(d2.path(), "127.0.0.1:0", 2).await;
    let other = Hall::new("另一赛场", "127.0.0.1:0")
        .with_tables(&[("甲", "乙")])
        .start(d3.path())
        .await;
    assert_ne!(main.addr, standby.addr);
    let hall_id = |srv: &RunningServer| {
        let trust = Trust::Fingerprint(srv.fingerprint);
        let link = LinkConfig::new(
            srv.addr,
            table_token(1),
            Connector::new(&trust, false).unwrap(),
        );
        async move {
            let (_, hello) = terminal::fetch_info(&link).await.expect("table info");
            hello.hall.hall_id
        }
    };
    let (a, b, c) = (
        hall_id(&main).await,
        hall_id(&standby).await,
        hall_id(&other).await,
    );
    let root = Path::new("/home/arbiter/.local/share/caipan");
    let dir = |id: &str| table::paths::outbox_dir(root, id, 1).expect("a hex hall id");
    assert_eq!(dir(&a), dir(&b));
    assert_ne!(dir(&a), dir(&c));
    assert_eq!(a.len(), 16, "{a}");
}

/// The first game of data/games/hu-ronghua-1391.pgn with at least `plies`
/// moves from the start position, in ICCS.
fn real_game(plies: usize) -> Vec<String> {
    let start = xiangqi::Position::new();
    games()
        .iter()
        .find(|g| g.moves.len() >= plies && g.start == start)
        .expect("a long enough game")
        .moves
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// A terminal for table `t` started as `caipan table` starts one on a
/// laptop with an empty outbox folder.
async fn fresh_terminal(addr: SocketAddr, trust: &Trust, t: u16, dir: &Path) -> TerminalHandle {
    terminal_for(addr, trust, t, dir).await
}

/// A spare laptop replaces the terminal of a game at ply 40 (a real game):
/// the new one takes the table over (the old one is told and stops
/// connecting), joins the game from the server's record, paused, with the
/// server's clocks; the arbiter resumes it and play goes on from ply 40.
/// The only alert is "terminal replaced".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spare_terminal_joins_the_game_at_ply_40_with_its_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path(), "127.0.0.1:0", 2).await;
    let trust = Trust::Fingerprint(srv.fingerprint);
    let moves = real_game(41);
    let old = terminal_for(srv.addr, &trust, 1, &dir.path().join("old")).await;
    old.wait_for(LONG, |s| s.online).await.expect("online");
    old.act(Action::StartClock).await.unwrap();
    for m in &moves[..40] {
        old.act(Action::Play(m.clone())).await.unwrap();
    }
    let before = old
        .wait_for(LONG, |s| s.waiting == 0)
        .await
        .expect("everything acknowledged");
    assert_eq!((before.plies, before.to_move), (40, Side::Red));

    // The spare laptop, a moment later: an empty outbox.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let new = fresh_terminal(srv.addr, &trust, 1, &dir.path().join("new")).await;
    let joined = new
        .wait_for(LONG, |s| s.online && s.plies == 40)
        .await
        .expect("joined at ply 40");
    assert_eq!(joined.position, before.position);
    assert_eq!(joined.to_move, Side::Red);
    assert!(
        matches!(&joined.status, Status::Paused { by, reason } if by == "terminal" && reason.contains("ply 40")),
        "{:?}",
        joined.status
    );
    assert_eq!(joined.running, None, "paused until the arbiter resumes");
    // Black's clock stood at the old terminal's; Red's ran on at the server
    // until the hello, 1.5 s after `before` (the server counts from when it
    // received the last press, a few ms after the terminal's own time).
    assert_eq!(joined.black_ms, before.black_ms);
    assert!(
        joined.red_ms + 1_000 <= before.red_ms && before.red_ms - joined.red_ms < 6_000,
        "red {} then {}",
        before.red_ms,
        joined.red_ms
    );
    // The old one was told and stopped connecting.
    let told = old
        .wait_for(LONG, |s| s.link_stopped.is_some())
        .await
        .expect("the old terminal is told");
    assert!(
        told.link_stopped
            .as_deref()
            .unwrap_or("")
            .contains("took table 1 over"),
        "{:?}",
        told.link_stopped
    );
    assert!(
        old.act(Action::Play(moves[40].clone())).await.is_ok(),
        "the old one keeps its own clock, but sends nothing"
    );

    // The arbiter pauses and resumes the table; play goes on from ply 40.
    let mut chief = connect(srv.addr, srv.fingerprint, CHIEF)
        .await
        .expect("chief");
    chief
        .command(
            1,
            Command::PauseTable {
                table: 1,
                reason: "terminal replaced".into(),
            },
        )
        .await
        .expect("paused");
    chief
        .command(2, Command::ResumeTable { table: 1 })
        .await
        .expect("resumed");
    new.wait_for(LONG, |s| s.status == Status::Running)
        .await
        .expect("running again");
    new.act(Action::Play(moves[40].clone())).await.unwrap();
    let after = new
        .wait_for(LONG, |s| s.waiting == 0 && s.plies == 41)
        .await
        .expect("ply 41 acknowledged");
    // Red's clock went on from the joined time and gained the increment;
    // Black's runs from the joined time.
    let red_expected = joined.red_ms + 30_000;
    assert!(
        after.red_ms <= red_expected && red_expected - after.red_ms < 5_000,
        "red {} after joining at {}",
        after.red_ms,
        joined.red_ms
    );
    assert!(
        after.black_ms <= joined.black_ms && joined.black_ms - after.black_ms < 5_000,
        "black {} after joining at {}",
        after.black_ms,
        joined.black_ms
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let view = srv.snapshot().unwrap();
    let t1 = view.tables.iter().find(|t| t.table == 1).unwrap();
    let played: Vec<String> = t1.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(played, moves[..41].to_vec());
    let kinds: Vec<AlertKind> = view
        .alerts
        .iter()
        .filter(|a| a.table == 1)
        .map(|a| a.kind)
        .collect();
    assert_eq!(
        kinds,
        vec![AlertKind::TerminalReplaced],
        "{:?}",
        view.alerts
    );
    // Red's time at the server is the new terminal's, not grown.
    assert!(t1.clock.red_ms <= joined.red_ms + 30_000, "{:?}", t1.clock);
    let (_, stats) = new.stop().await.unwrap();
    assert!(stats.errors.is_empty(), "{:?}", stats.errors);
    let (_, old_stats) = old.stop().await.unwrap();
    assert_eq!(old_stats.connects, 1, "the old terminal did not come back");
    srv.shutdown().await.unwrap();
}

/// Two terminals that ignore the takeover notice (an old program, a
/// script) fight for table 1, reconnecting as fast as they can: the
/// records stored do not grow with the fight's length, and one alert "two
/// terminals for table 1" is raised; the count is one entry after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_terminals_fighting_leave_bounded_records_and_one_alert() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start(dir.path(), "127.0.0.1:0", 2).await;
    let (addr, fp) = (srv.addr, srv.fingerprint);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flips = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let fighter = |stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
                   flips: std::sync::Arc<std::sync::atomic::AtomicU64>| async move {
        use std::sync::atomic::Ordering;
        while !stop.load(Ordering::Relaxed) {
            let Ok(mut c) = connect(addr, fp, &table_token(1)).await else {
                continue;
            };
            flips.fetch_add(1, Ordering::Relaxed);
            // Hold the table until taken over, then come straight back.
            loop {
                match tokio::time::timeout(Duration::from_millis(500), c.c.recv()).await {
                    Ok(Ok(proto::ServerMsg::TakenOver { .. })) | Ok(Err(_)) => break,
                    Ok(Ok(_)) => {}
                    Err(_) if stop.load(Ordering::Relaxed) => break,
                    Err(_) => {}
                }
            }
        }
    };
    let a = tokio::spawn(fighter(stop.clone(), flips.clone()));
    let b = tokio::spawn(fighter(stop.clone(), flips.clone()));
    let data = dir.path().join("data");
    let records = || {
        store::StoreReader::open_dir(&data)
            .unwrap()
            .log_after(0)
            .unwrap()
            .len()
    };
    use std::sync::atomic::Ordering;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (r1, f1) = (records(), flips.load(Ordering::Relaxed));
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (r2, f2) = (records(), flips.load(Ordering::Relaxed));
    stop.store(true, Ordering::Relaxed);
    let _ = tokio::join!(a, b);
    assert!(
        f2 > f1 + 20,
        "the terminals fought: {f1} then {f2} connections"
    );
    assert_eq!(
        r2, r1,
        "records grew with the fight: {r1} after 2 s, {r2} after 5 s ({f2} connections)"
    );
    assert!(r2 <= 6, "{r2} records for {f2} connections");
    eprintln!("fight: {f1} connections after 2 s, {f2} after 5 s; records {r1} then {r2}");
    let view = srv.snapshot().unwrap();
    let fights: Vec<_> = view
        .alerts
        .iter()
        .filter(|a| a.kind == AlertKind::TwoTerminals)
        .collect();
    assert_eq!(fights.len(), 1, "{:?}", view.alerts);
    assert!(
        i18n::texts::english(&fights[0].text).contains("two terminals for table 1"),
        "{:?}",
        fights[0].text
    );
    // A clean stop appends the fight's count as one entry.
    srv.shutdown().await.unwrap();
    let log = store::StoreReader::open_dir(&data)
        .unwrap()
        .log_after(0)
        .unwrap();
    let counted: Vec<_> = log
        .iter()
        .filter_map(|e| match e {
            store::LogEntry::Audit(a) => match hall::record::Record::decode(&a.record.payload) {
                Ok(hall::record::Record::Note(hall::record::Note::TerminalsFought {
                    takeovers,
                    ..
                })) => Some(takeovers),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(counted.len(), 1, "one counted entry");
    assert!(
        counted[0] + 10 >= f2,
        "{} takeovers counted of {f2} connections",
        counted[0]
    );
}

/// `caipan token --out DIR` writes tokens that sign in as their tables on
/// a real server (derived from the hall secret).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tokens_caipan_token_writes_sign_in_as_their_tables() {
    let dir = tempfile::tempdir().unwrap();
    let mut hall = hall("127.0.0.1:0", 3);
    hall.table_tokens.clear();
    hall.table_secret = Some("a-hall-secret-for-the-token-test-0123".into());
    let cfg = dir.path().join("hall.toml");
    std::fs::write(&cfg, hall.toml()).unwrap();
    let srv = hall.start(dir.path()).await;
    let out = dir.path().join("tokens");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args([
            "token",
            "--config",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for t in 1..=3u16 {
        let token = std::fs::read_to_string(out.join(format!("table-{t}.token"))).unwrap();
        let c = connect(srv.addr, srv.fingerprint, token.trim())
            .await
            .expect("signs in");
        assert_eq!(c.hello.role, proto::Role::Table { table: t });
    }
    srv.shutdown().await.unwrap();
}

/// The hall's language (`[tournament] language`) reaches the terminal in
/// its hello over QUIC (protocol 9), for `caipan table` without `--lang`
/// to start in; a hall without one sends none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_halls_language_reaches_the_terminal_in_its_hello() {
    for (line, want) in [("language = \"zh-Hant\"\n", Some("zh-Hant")), ("", None)] {
        let dir = tempfile::tempdir().unwrap();
        let text = hall("127.0.0.1:0", 1).toml().replacen(
            "kind = \"swiss\"\n",
            &format!("kind = \"swiss\"\n{line}"),
            1,
        );
        let srv = support::start_with(dir.path(), support::config_from(&text, dir.path())).await;
        let connector = Connector::new(&Trust::Fingerprint(srv.fingerprint), false).unwrap();
        let link = LinkConfig::new(srv.addr, table_token(1), connector);
        let (_, hello) = terminal::fetch_info(&link).await.expect("table info");
        assert_eq!(hello.hall.language.as_deref(), want, "{line:?}");
        if let Some(tag) = want {
            assert_eq!(tag.parse::<i18n::Lang>(), Ok(i18n::Lang::ZhHant));
        }
        srv.shutdown().await.unwrap();
    }
}
