//! Restart from snapshots and rounds: a real server on 127.0.0.1 stores a
//! stream from QUIC table terminals and an arbiter's console (moves as clock
//! presses, an illegal move, a perpetual check, claims, rulings accepted
//! and overridden, table and hall pauses, seal and unseal, fouls, a clock
//! adjustment, alert acknowledgements, a resignation); then
//! - the state rebuilt from a snapshot plus the rows after it equals the
//!   state rebuilt by replaying the whole log, for a cut after every row of
//!   the stream and for the cuts the server itself took while running;
//! - a corrupt snapshot row makes the server replay the round and start;
//! - a restart in round 2 shows none of round 1's moves, clocks or alerts.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use config::HallConfig;
use hall::hall::Hall;
use hall::record::Record;
use proto::{
    AlertKind, ClaimKind, ClientMsg, Command, Decision, EventEnvelope, FoulKind, Hello, IccsMove,
    ServerMsg, Side, TableEvent, Trust, Verdict, PROTOCOL_VERSION,
};
use server::server::StartOptions;
use server::snapshot::state::{BookSnap, TableSnap};
use server::snapshot::{Basis, Policy, Snapshotter, HALL_ROW};
use server::{RunningServer, Server};
use store::{LogEntry, OpenOptions, Snapshot, SqliteStore, Store, StoreReader};

const CHIEF: &str = "restart-chief-token-0123456789";
const DEPUTY: &str = "restart-deputy-token-0123456789";

fn table_token(t: u16) -> String {
    format!("restart-table-{t}-token-0123456789")
}

fn config_text(round: u32) -> String {
    let mut s = format!(
        r#"
rules = "axf"
[tournament]
name = "重启测试"
site = "test hall"
date = "2026-11-30"
kind = "swiss"
current_round = {round}
[time_control]
kind = "fischer"
base_minutes = 80
increment_seconds = 30
[server]
listen = "127.0.0.1:0"
[credentials.chief]
name = "王志明"
token = "{CHIEF}"
[[credentials.deputy]]
name = "陈立新"
token = "{DEPUTY}"
tables = [1, 2]
"#
    );
    for t in 1..=4u16 {
        s.push_str(&format!(
            "[[credentials.table]]\ntable = {t}\ntoken = \"{}\"\n",
            table_token(t)
        ));
    }
    let names = [
        ("胡荣华", "许银川"),
        ("吕钦", "赵国荣"),
        ("徐天红", "柳大华"),
        ("李来群", "杨官璘"),
    ];
    for r in 1..=2 {
        s.push_str(&format!("[[round]]\nnumber = {r}\n"));
        for (i, (a, b)) in names.iter().enumerate() {
            let (red, black) = if r == 1 { (a, b) } else { (b, a) };
            s.push_str(&format!(
                "[[round.table]]\ntable = {}\nred = \"{red}\"\nblack = \"{black}\"\n",
                i + 1
            ));
        }
    }
    s
}

fn config(dir: &Path, round: u32) -> HallConfig {
    HallConfig::from_toml_str(&config_text(round), dir, &|_| None).expect("config")
}

/// A policy that cuts often, so the stream crosses many cuts.
fn often() -> StartOptions {
    StartOptions {
        snapshot_policy: Some(Policy {
            table_records: 4,
            hall_records: 9,
            records_per_table: 0,
            least_gap: Duration::ZERO,
        }),
        ..StartOptions::default()
    }
}

async fn start(dir: &Path, round: u32, opts: StartOptions) -> RunningServer {
    Server::start_with(config(dir, round), &dir.join("data"), opts)
        .await
        .expect("server starts")
}

struct Client {
    c: proto::ClientConn,
    hello: proto::HelloOk,
}

async fn connect(s: &RunningServer, token: &str) -> Client {
    let hello = Hello {
        protocol_version: PROTOCOL_VERSION,
        token: token.to_string(),
        client: "restart-test".into(),
    };
    let c = proto::connect(s.addr, &Trust::Fingerprint(s.fingerprint), hello)
        .await
        .expect("connects");
    let hello = c.hello_ok.clone();
    Client { c, hello }
}

impl Client {
    async fn until<T>(&mut self, mut f: impl FnMut(&ServerMsg) -> Option<T>) -> T {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), self.c.recv())
                .await
                .expect("reply within 10 s")
                .expect("message");
            if let Some(t) = f(&m) {
                return t;
            }
        }
    }

    async fn command(&mut self, id: u64, command: Command) {
        self.c
            .send(&ClientMsg::Command { id, command })
            .await
            .expect("send");
        self.until(|m| match m {
            ServerMsg::CommandOk { id: i, .. } if *i == id => Some(()),
            ServerMsg::Error(e) if e.re == Some(proto::RequestRef::Command { id }) => {
                panic!("command {id} refused: {e:?}")
            }
            _ => None,
        })
        .await
    }
}

struct Terminal {
    c: Client,
    table: u16,
    epoch: u32,
    seq: u64,
    red_ms: u64,
    black_ms: u64,
    mono: u64,
}

impl Terminal {
    async fn open(s: &RunningServer, table: u16) -> Terminal {
        let c = connect(s, &table_token(table)).await;
        let session = c.hello.table.clone().expect("table session");
        // A new terminal process: a new epoch after the one the server holds.
        Terminal {
            c,
            table,
            epoch: session.epoch + 1,
            seq: 0,
            red_ms: 4_800_000,
            black_ms: 4_800_000,
            mono: 0,
        }
    }

    async fn event(&mut self, body: TableEvent) {
        self.seq += 1;
        let env = EventEnvelope {
            table: self.table,
            epoch: self.epoch,
            seq: self.seq,
            body,
        };
        let seq = self.seq;
        self.c.c.send(&ClientMsg::Event(env)).await.expect("send");
        self.c
            .until(|m| match m {
                ServerMsg::Ack(a) if a.seq >= seq => Some(()),
                ServerMsg::Error(e) => panic!("event refused: {e:?}"),
                _ => None,
            })
            .await
    }

    /// Clock presses with moves; the mover spends a few seconds and gains
    /// the increment.
    async fn play(&mut self, moves: &[&str], first: Side) {
        let mut side = first;
        for m in moves {
            self.mono += 7_000;
            match side {
                Side::Red => self.red_ms = self.red_ms - 7_000 + 30_000,
                Side::Black => self.black_ms = self.black_ms - 7_000 + 30_000,
            }
            self.event(TableEvent::ClockPress {
                by: side,
                mv: Some(mv(m)),
                red_ms: self.red_ms,
                black_ms: self.black_ms,
                terminal_mono_ms: self.mono,
            })
            .await;
            side = side.other();
        }
    }
}

fn mv(s: &str) -> IccsMove {
    IccsMove::parse(s).expect("iccs")
}

/// Plays the whole stream against `s`.
async fn play_stream(s: &RunningServer) {
    let mut chief = connect(s, CHIEF).await;
    let mut deputy = connect(s, DEPUTY).await;
    let mut t1 = Terminal::open(s, 1).await;
    let mut t2 = Terminal::open(s, 2).await;
    let mut t3 = Terminal::open(s, 3).await;
    let mut t4 = Terminal::open(s, 4).await;
    for t in [&mut t1, &mut t2, &mut t3, &mut t4] {
        t.event(TableEvent::Arrived { side: Side::Red }).await;
        t.event(TableEvent::Arrived { side: Side::Black }).await;
        t.event(TableEvent::ClockStarted {
            red_ms: 4_800_000,
            black_ms: 4_800_000,
            terminal_mono_ms: 0,
        })
        .await;
    }
    // Table 1: a perpetual check by Red's horse (alert and claim without a claim).
    t1.play(
        &[
            "g3g4", "a6a5", "h0g2", "a5a4", "g2f4", "a4a3", "f4g6", "a3b3", "g6e7", "b3c3", "e7g8",
        ],
        Side::Red,
    )
    .await;
    for _ in 0..3 {
        t1.play(&["e9e8", "g8f6", "e8e9", "f6g8"], Side::Black)
            .await;
    }
    // Table 2: an illegal move (a correction and a technical foul), accepted.
    t2.play(&["h2e2", "h9g7"], Side::Red).await;
    t2.event(TableEvent::Move {
        by: Side::Red,
        mv: mv("a0a5"),
    })
    .await;
    let hall = s.snapshot().expect("view");
    let illegal = hall
        .claims
        .iter()
        .find(|c| c.table == 2 && c.kind == ClaimKind::IllegalMove)
        .expect("illegal-move claim")
        .id;
    deputy
        .command(
            1,
            Command::RuleOnClaim {
                table: 2,
                claim_id: illegal,
                decision: Decision::Accept,
            },
        )
        .await;
    t2.play(&["b0c2", "b9c7"], Side::Red).await;
    // A false natural-limit claim, overridden by the chief with a reason.
    t2.event(TableEvent::ClaimNaturalLimit { by: Side::Red })
        .await;
    let limit = s
        .snapshot()
        .expect("view")
        .claims
        .iter()
        .find(|c| c.table == 2 && c.kind == ClaimKind::NaturalLimit)
        .expect("limit claim")
        .id;
    chief
        .command(
            2,
            Command::RuleOnClaim {
                table: 2,
                claim_id: limit,
                decision: Decision::Override {
                    verdict: Verdict::Continue,
                    must_change: None,
                    reason: "误报，继续对弈".into(),
                },
            },
        )
        .await;
    // Table 3: paused and resumed, a foul report and a recorded foul, a
    // clock adjustment, a draw offer declined by a move; sealed, unsealed.
    t3.play(&["h2e2", "h9g7", "h0g2"], Side::Red).await;
    deputy
        .command(
            3,
            Command::PauseTable {
                table: 1,
                reason: "噪音".into(),
            },
        )
        .await;
    deputy.command(4, Command::ResumeTable { table: 1 }).await;
    t3.event(TableEvent::FoulReport {
        side: Side::Black,
        kind: FoulKind::Violation,
        note: "记录不全".into(),
    })
    .await;
    chief
        .command(
            5,
            Command::RecordFoul {
                table: 3,
                side: Side::Red,
                kind: FoulKind::Technical,
                note: "触子不走".into(),
            },
        )
        .await;
    chief
        .command(
            6,
            Command::AdjustClock {
                table: 3,
                red_ms: 4_500_000,
                black_ms: 4_400_000,
                reason: "钟故障".into(),
            },
        )
        .await;
    t3.event(TableEvent::DrawOffer { by: Side::Black }).await;
    t3.play(&["i9h9"], Side::Black).await;
    chief
        .command(
            7,
            Command::PauseHall {
                reason: "停电".into(),
            },
        )
        .await;
    chief.command(8, Command::ResumeHall).await;
    chief
        .command(
            9,
            Command::Seal {
                table: 3,
                sealed_move: mv("i0h0"),
            },
        )
        .await;
    chief.command(10, Command::Unseal { table: 3 }).await;
    t3.play(&["b9c7", "b0c2"], Side::Black).await;
    // Table 4: the arbiter is called (alert acknowledged), then Black resigns.
    t4.play(&["b2e2", "h9g7"], Side::Red).await;
    t4.event(TableEvent::CallArbiter {
        by: Side::Black,
        reason: "对方看手机".into(),
    })
    .await;
    let alert = s
        .snapshot()
        .expect("view")
        .alerts
        .iter()
        .find(|a| a.kind == AlertKind::ArbiterCalled)
        .expect("arbiter alert")
        .id;
    chief
        .command(11, Command::AckAlert { alert_id: alert })
        .await;
    t4.event(TableEvent::Resign {
        by: Side::Black,
        reason: "认输".into(),
    })
    .await;
    t1.play(&["e9e8", "g8f6"], Side::Black).await;
}

/// Everything the hall holds, comparable: the console's view, every
/// table's full state (snapshot form) with the rebuilt board, counters and
/// repetition watch, and the book with its counters.
#[derive(Debug, PartialEq)]
struct Full {
    view: proto::HallView,
    tables: Vec<(TableSnap, String, Vec<u64>, String, usize)>,
    book: BookSnap,
    applied: u64,
}

fn full(h: &Hall) -> Full {
    let mut view = h.snapshot(1);
    view.server_ms = 0;
    Full {
        view,
        tables: h
            .tables()
            .values()
            .map(|t| {
                (
                    TableSnap::of(t),
                    t.board.position.to_fen(),
                    t.board.keys.clone(),
                    format!("{:?} {:?}", t.limit, t.board.checks_since_capture),
                    t.repetition.ply(),
                )
            })
            .collect(),
        book: BookSnap::of(h.book()),
        applied: h.applied(),
    }
}

fn hw_bump(hw: &mut server::snapshot::HighWater, e: &LogEntry) {
    if let LogEntry::Event(e) = e {
        let m = hw.entry(e.key.table as u16).or_insert((0, 0));
        *m = (*m).max((e.key.epoch, e.key.seq));
    }
}

fn apply(hall: &mut Hall, e: &LogEntry) {
    let (at, body) = match e {
        LogEntry::Event(e) => (e.received_at_ms as u64, &e.payload),
        LogEntry::Audit(a) => (a.record.at_ms as u64, &a.record.payload),
    };
    let rec = Record::decode(body).expect("record decodes");
    let _ = hall.apply(&rec, at);
    hall.discard_effects();
}

/// The hall after the log rows up to `upto` (every row when `None`), by
/// full replay; the high-water marks too.
fn replay_upto(
    cfg: &HallConfig,
    log: &[LogEntry],
    upto: Option<u64>,
) -> (Hall, server::snapshot::HighWater) {
    let mut hall = server::rebuild::hall_from_config(cfg);
    let mut hw = server::snapshot::HighWater::default();
    for e in log.iter().filter(|e| upto.is_none_or(|u| e.gseq() <= u)) {
        hw_bump(&mut hw, e);
        apply(&mut hall, e);
    }
    for (&n, &(e, s)) in &hw {
        hall.set_high_water(n, e, s);
    }
    (hall, hw)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snapshot_and_tail_equal_a_full_replay_at_every_cut() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), 1);
    let data = dir.path().join("data");
    let s = start(dir.path(), 1, often()).await;
    play_stream(&s).await;
    // The cuts the server took while running are valid: restored with the
    // rows after them they give the state of a full replay. (A background
    // save takes milliseconds; one read shows one committed state.)
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Read again if a background save was between its table rows and its
    // hall row (the restore refuses such a torn cut, as a restart would).
    let mut live_rows = Vec::new();
    for _ in 0..20 {
        live_rows = StoreReader::open_dir(&data).unwrap().snapshots().unwrap();
        let mut probe = server::rebuild::hall_from_config(&cfg);
        let b = Basis::of(&cfg, 0);
        if matches!(
            server::snapshot::restore(live_rows.clone(), &b, &mut probe),
            server::snapshot::Restored::Hall { .. }
        ) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let live_view = s.snapshot().unwrap();
    s.shutdown().await.unwrap();
    assert!(
        live_rows.iter().any(|r| r.table == HALL_ROW),
        "the server took cuts while running"
    );

    let store = Arc::new(SqliteStore::open(&data, OpenOptions::new(cfg.hall_id())).unwrap());
    let log = store.reader().log_after(0).unwrap();
    assert!(log.len() > 60, "a real stream: {} rows", log.len());
    let basis = Basis::of(&cfg, 0);
    let (whole, _) = replay_upto(&cfg, &log, None);
    let expected = full(&whole);
    {
        let mut live = live_view.clone();
        live.server_ms = 0;
        let mut replayed = whole.snapshot(0);
        replayed.server_ms = 0;
        for t in live.tables.iter_mut().chain(replayed.tables.iter_mut()) {
            t.last_heard_ms = 0;
        }
        // Terminals were online live; the replay has their notes too.
        assert_eq!(live.claims, replayed.claims);
        assert_eq!(live.alerts.len(), replayed.alerts.len());
    }

    // The final cut of the clean shutdown: restored, nothing to replay.
    let hall = server::rebuild::hall_from_config(&cfg);
    let r = server::rebuild::rebuild_from_store(store.reader(), &basis, hall, Default::default())
        .unwrap();
    assert_eq!(r.records, 0, "the shutdown cut holds every row");
    assert_eq!(
        r.snapshot.as_ref().map(|s| s.0),
        log.last().map(|e| e.gseq())
    );
    assert_eq!(full(&r.hall), expected);

    // A live cut restored from the rows read while the server ran.
    let mut hall = server::rebuild::hall_from_config(&cfg);
    match server::snapshot::restore(live_rows, &basis, &mut hall) {
        server::snapshot::Restored::Hall { upto_gseq, .. } => {
            for e in log.iter().filter(|e| e.gseq() > upto_gseq) {
                apply(&mut hall, e);
            }
            let (_, hw) = replay_upto(&cfg, &log, None);
            for (&n, &(e, s)) in &hw {
                hall.set_high_water(n, e, s);
            }
            let mut got = full(&hall);
            let mut want = full(&whole);
            got.applied = 0;
            want.applied = 0;
            assert_eq!(got, want, "live cut at {upto_gseq} + tail");
        }
        other => panic!("the live cut did not restore: {other:?}"),
    }

    // A cut after every row of the stream (taken as the pipeline takes
    // them: one snapshotter, only the tables changed since their last row
    // rewritten), restored with the rest replayed by the server's rebuild.
    let rt = tokio::runtime::Handle::current();
    let mut sn = Snapshotter::new(basis.clone(), Policy::default(), store.clone(), rt, None);
    let mut at_cut = server::rebuild::hall_from_config(&cfg);
    let mut hw = server::snapshot::HighWater::default();
    let mut rewritten = Vec::new();
    for e in &log {
        let cut = e.gseq();
        hw_bump(&mut hw, e);
        apply(&mut at_cut, e);
        if let Some(&(ep, sq)) = hw.get(&(e.key_table())) {
            at_cut.set_high_water(e.key_table(), ep, sq);
        }
        sn.set_high_water(&hw);
        let rows = sn.cut(&mut at_cut, cut).expect("a cut");
        rewritten.push(rows.len() - 1);
        assert!(server::snapshot::save_rows(store.clone(), rows).await);
        let hall = server::rebuild::hall_from_config(&cfg);
        let r =
            server::rebuild::rebuild_from_store(store.reader(), &basis, hall, Default::default())
                .unwrap();
        assert_eq!(r.snapshot.as_ref().map(|s| s.0), Some(cut));
        assert_eq!(
            r.records as usize,
            log.iter().filter(|e| e.gseq() > cut).count()
        );
        assert_eq!(full(&r.hall), expected, "cut at gseq {cut}");
    }
    assert_eq!(rewritten[0], 4, "the first cut writes every table");
    assert!(
        rewritten.iter().skip(1).all(|&n| n <= 4)
            && rewritten.iter().filter(|&&n| n == 1).count() > 20,
        "later cuts write the changed tables only: {rewritten:?}"
    );
}

/// The stream played on a server in `dir` (round 1), shut down: the
/// config and the stored log.
async fn played_stream(dir: &Path) -> (HallConfig, Vec<LogEntry>) {
    let cfg = config(dir, 1);
    let s = start(dir, 1, StartOptions::default()).await;
    play_stream(&s).await;
    s.shutdown().await.unwrap();
    let log = StoreReader::open_dir(&dir.join("data"))
        .unwrap()
        .log_after(0)
        .unwrap();
    (cfg, log)
}

/// The hall's trigger of a cut counts records per table of the hall
/// (issue 40): with 4 tables, 5 records per table and a least trigger of
/// 3, the stream's hall is due after 20 records, not 3.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_is_due_after_records_per_table_of_the_hall() {
    let dir = tempfile::tempdir().unwrap();
    let (cfg, log) = played_stream(dir.path()).await;
    let policy = Policy {
        table_records: 1_000,
        hall_records: 3,
        records_per_table: 5,
        least_gap: Duration::ZERO,
    };
    let mut hall = server::rebuild::hall_from_config(&cfg);
    assert_eq!(policy.hall_trigger(hall.tables().len()), 20);
    let cuts = dir.path().join("cuts");
    let store = Arc::new(SqliteStore::open(&cuts, OpenOptions::new(cfg.hall_id())).unwrap());
    let rt = tokio::runtime::Handle::current();
    let sn = Snapshotter::new(Basis::of(&cfg, 0), policy, store, rt, None);
    let mut due_at = None;
    for e in &log {
        apply(&mut hall, e);
        if sn.due(&hall) {
            due_at = Some(hall.changes().records);
            break;
        }
    }
    assert!(log.len() > 20, "a real stream: {} rows", log.len());
    assert_eq!(due_at, Some(20), "due at 5 records per table of 4");
}

/// No cut after a batch sooner than the policy's least gap after the last
/// (issue 40: a flood's trigger passes every few milliseconds): with a gap
/// of an hour the hall stays due and uncut through the whole stream; with
/// none it is cut as soon as it is due, and again after as many records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_cut_after_a_batch_sooner_than_the_least_gap() {
    let dir = tempfile::tempdir().unwrap();
    let (cfg, log) = played_stream(dir.path()).await;
    for (gap, name) in [
        (Duration::from_secs(3_600), "held"),
        (Duration::ZERO, "cut"),
    ] {
        let policy = Policy {
            table_records: 1_000,
            hall_records: 5,
            records_per_table: 0,
            least_gap: gap,
        };
        let mut hall = server::rebuild::hall_from_config(&cfg);
        let cuts = dir.path().join(name);
        let store = Arc::new(SqliteStore::open(&cuts, OpenOptions::new(cfg.hall_id())).unwrap());
        let rt = tokio::runtime::Handle::current();
        let mut sn = Snapshotter::new(Basis::of(&cfg, 0), policy, store, rt, None);
        let hw = server::snapshot::HighWater::default();
        let mut taken = 0;
        for (i, e) in log.iter().enumerate() {
            apply(&mut hall, e);
            let before = hall.changes().records;
            sn.after_batch(&mut hall, i as u64 + 1, &hw);
            if hall.changes().records < before {
                taken += 1;
            }
            // One save at a time: let it end before the next batch.
            while sn.saving() {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
        assert!(log.len() > 20, "a real stream: {} rows", log.len());
        if gap.is_zero() {
            assert_eq!(taken, log.len() / 5, "a cut every 5 records");
        } else {
            assert_eq!(taken, 0, "no cut within the gap");
            assert_eq!(hall.changes().records, log.len() as u64);
            assert!(sn.due(&hall), "due all along");
        }
    }
}

trait KeyTable {
    fn key_table(&self) -> u16;
}

impl KeyTable for LogEntry {
    fn key_table(&self) -> u16 {
        match self {
            LogEntry::Event(e) => e.key.table as u16,
            LogEntry::Audit(_) => 0,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_snapshot_is_ignored_and_the_round_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), 1);
    let data = dir.path().join("data");
    let s = start(dir.path(), 1, StartOptions::default()).await;
    play_stream(&s).await;
    s.shutdown().await.unwrap();

    // A clean restart uses the shutdown's snapshot.
    let s = start(dir.path(), 1, StartOptions::default()).await;
    let cut = s.snapshot_cut.expect("restored from the snapshot");
    assert_eq!(s.replayed_records, 0);
    let before = s.snapshot().unwrap();
    let rebuilt = s.rebuilt_records;
    s.shutdown().await.unwrap();

    // One bit of table 3's row flipped: the checksum refuses it.
    {
        let store = SqliteStore::open(&data, OpenOptions::new(cfg.hall_id())).unwrap();
        let mut row: Snapshot = store
            .load_snapshot(3)
            .await
            .unwrap()
            .expect("row of table 3");
        let last = row.state.len() - 1;
        row.state[last] ^= 0x10;
        store.save_snapshot(row).await.unwrap();
    }
    let s = start(dir.path(), 1, StartOptions::default()).await;
    assert_eq!(s.snapshot_cut, None, "the corrupt snapshot is not used");
    assert!(s.rebuilt_records >= rebuilt);
    assert_eq!(s.replayed_records, s.rebuilt_records);
    let after = s.snapshot().unwrap();
    assert_eq!(after.tables.len(), before.tables.len());
    for (a, b) in after.tables.iter().zip(&before.tables) {
        assert_eq!(
            (&a.moves, &a.status, a.fouls_red, a.fouls_black),
            (&b.moves, &b.status, b.fouls_red, b.fouls_black)
        );
        assert_eq!(a.clock, b.clock);
    }
    assert_eq!(after.claims, before.claims);
    assert!(after.alerts.len() >= before.alerts.len());
    s.shutdown().await.unwrap();

    // Garbage for the hall row, and a table row of another cut: replayed too.
    {
        let store = SqliteStore::open(&data, OpenOptions::new(cfg.hall_id())).unwrap();
        let mut hall_row = store
            .load_snapshot(HALL_ROW)
            .await
            .unwrap()
            .expect("hall row");
        assert!(hall_row.upto_gseq >= cut);
        hall_row.state = b"not a snapshot".to_vec();
        store.save_snapshot(hall_row).await.unwrap();
    }
    let s = start(dir.path(), 1, StartOptions::default()).await;
    assert_eq!(s.snapshot_cut, None);
    assert_eq!(s.snapshot().unwrap().claims, before.claims);
    s.shutdown().await.unwrap();
    {
        let store = SqliteStore::open(&data, OpenOptions::new(cfg.hall_id())).unwrap();
        let mut row = store
            .load_snapshot(2)
            .await
            .unwrap()
            .expect("row of table 2");
        row.upto_gseq -= 1;
        store.save_snapshot(row).await.unwrap();
    }
    let s = start(dir.path(), 1, StartOptions::default()).await;
    assert_eq!(s.snapshot_cut, None, "a row not of the manifest's cut");
    assert_eq!(s.snapshot().unwrap().claims, before.claims);
    s.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_round_2_shows_nothing_of_round_1() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let note = |round: u32| {
        export::stored::note_hall_start(&data, &config_text(round), &config(dir.path(), round))
            .expect("hall start noted")
    };
    note(1);
    let s = start(dir.path(), 1, StartOptions::default()).await;
    let mut t1 = Terminal::open(&s, 1).await;
    t1.play(&["h2e2", "h9g7", "h0g2"], Side::Red).await;
    t1.event(TableEvent::CallArbiter {
        by: Side::Black,
        reason: "第一轮".into(),
    })
    .await;
    let r1 = s.snapshot().unwrap();
    assert_eq!(r1.tables[0].plies, 3);
    assert!(!r1.alerts.is_empty());
    let (epoch, seq) = (t1.epoch, t1.seq);
    drop(t1);
    s.shutdown().await.unwrap();

    // Round 2 in the same data dir (as `caipan serve` does it).
    note(2);
    let s = start(dir.path(), 2, StartOptions::default()).await;
    let check_fresh = |v: &proto::HallView| {
        assert_eq!(v.round, 2);
        for t in &v.tables {
            assert_eq!(t.plies, 0, "table {} shows round 1 moves", t.table);
            assert!(t.moves.is_empty());
            assert_eq!(
                t.clock.red_ms, 4_800_000,
                "round 1 clock on table {}",
                t.table
            );
            assert_eq!(t.status, proto::TableStatus::Waiting);
        }
        assert!(
            v.alerts
                .iter()
                .all(|a| !i18n::render(i18n::Lang::ZhHans, &a.text).contains("第一轮")),
            "round 1 alerts shown"
        );
    };
    check_fresh(&s.snapshot().unwrap());
    assert_eq!(s.snapshot().unwrap().tables[0].red, "许银川");
    // The terminal of round 2 continues the numbering the store holds.
    let mut t1 = Terminal::open(&s, 1).await;
    let session = t1.c.hello.table.clone().unwrap();
    assert_eq!((session.epoch, session.high_water), (epoch, seq));
    assert!(session.moves.is_empty());
    t1.play(&["b2e2"], Side::Red).await;
    drop(t1);
    s.shutdown().await.unwrap();

    // Restarts in round 2: from the snapshot, and by replay without it.
    for corrupt in [false, true] {
        if corrupt {
            let cfg = config(dir.path(), 2);
            let store = SqliteStore::open(&data, OpenOptions::new(cfg.hall_id())).unwrap();
            let mut row = store.load_snapshot(HALL_ROW).await.unwrap().unwrap();
            row.state.truncate(10);
            store.save_snapshot(row).await.unwrap();
        }
        let s = start(dir.path(), 2, StartOptions::default()).await;
        assert_eq!(s.snapshot_cut.is_some(), !corrupt);
        let v = s.snapshot().unwrap();
        assert_eq!(v.tables[0].plies, 1);
        assert_eq!(v.tables[0].moves, vec![mv("b2e2")]);
        assert!(v
            .alerts
            .iter()
            .all(|a| !i18n::render(i18n::Lang::ZhHans, &a.text).contains("第一轮")));
        for t in &v.tables[1..] {
            assert_eq!(t.plies, 0);
        }
        s.shutdown().await.unwrap();
    }
}

/// A large cut's rows are spread over its pace (issue 40), every row and
/// the hall row stored in the end, the hall row last; a shutdown's hurry
/// makes the rest go at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paced_save_spreads_its_rows_and_hurries_at_a_shutdown() {
    use server::snapshot::save::save_rows_paced;
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> =
        Arc::new(SqliteStore::open(&dir.path().join("a"), OpenOptions::new("paced")).unwrap());
    let rows = |upto_gseq: u64| -> Vec<Snapshot> {
        (1..=40u32)
            .chain([HALL_ROW])
            .map(|table| Snapshot {
                table,
                upto_epoch: 1,
                upto_seq: 7,
                upto_gseq,
                state: vec![table as u8; 300],
                saved_at_ms: 1,
            })
            .collect()
    };
    static NOT_HURRIED: AtomicBool = AtomicBool::new(false);
    let pace = Duration::from_millis(800);
    let t0 = std::time::Instant::now();
    let saving = tokio::spawn(save_rows_paced(
        store.clone(),
        rows(10),
        Some(pace),
        &NOT_HURRIED,
    ));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let midway = store.snapshots().await.unwrap();
    assert!(
        !midway.is_empty() && midway.len() < 41,
        "a third of the way, some rows and not the hall row: {}",
        midway.len()
    );
    assert!(midway.iter().all(|r| r.table != HALL_ROW));
    assert!(saving.await.unwrap());
    assert!(
        t0.elapsed() >= pace.mul_f64(39.0 / 40.0),
        "{:?}",
        t0.elapsed()
    );
    let all = store.snapshots().await.unwrap();
    assert_eq!(all.len(), 41);
    assert!(all
        .iter()
        .all(|r| r.upto_gseq == 10 && r.state.len() == 300));

    // Hurried: a pace of a minute ends at once.
    static HURRY: AtomicBool = AtomicBool::new(false);
    let t1 = std::time::Instant::now();
    let saving = tokio::spawn(save_rows_paced(
        store.clone(),
        rows(20),
        Some(Duration::from_secs(60)),
        &HURRY,
    ));
    tokio::time::sleep(Duration::from_millis(200)).await;
    HURRY.store(true, Ordering::Release);
    assert!(saving.await.unwrap());
    assert!(t1.elapsed() < Duration::from_secs(20), "{:?}", t1.elapsed());
    let all = store.snapshots().await.unwrap();
    assert_eq!(all.len(), 41);
    assert!(all.iter().all(|r| r.upto_gseq == 20));
}

/// A cut shares the hall's tables instead of copying them under the lock
/// (issue 40), so the hall may go on while the cut is encoded: the rows
/// encoded after the rest of the stream was applied are those of the
/// state at the cut, byte for byte (the tables written meanwhile were
/// copied on their write).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_encoded_after_later_records_holds_the_state_at_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), 1);
    let data = dir.path().join("data");
    let s = start(dir.path(), 1, StartOptions::default()).await;
    play_stream(&s).await;
    s.shutdown().await.unwrap();
    let log = StoreReader::open_dir(&data).unwrap().log_after(0).unwrap();
    assert!(log.len() > 20, "a real stream: {} rows", log.len());
    let half = log.len() / 2;
    let cut_at = log[half - 1].gseq();
    let store: Arc<dyn Store> = Arc::new(
        SqliteStore::open(&dir.path().join("cuts"), OpenOptions::new(cfg.hall_id())).unwrap(),
    );
    let basis = Basis::of(&cfg, 0);
    let rt = tokio::runtime::Handle::current();
    let (mut now, mut deferred) = (
        server::rebuild::hall_from_config(&cfg),
        server::rebuild::hall_from_config(&cfg),
    );
    for e in &log[..half] {
        apply(&mut now, e);
        apply(&mut deferred, e);
    }
    let mut a = Snapshotter::new(
        basis.clone(),
        Policy::default(),
        store.clone(),
        rt.clone(),
        None,
    );
    let mut b = Snapshotter::new(basis, Policy::default(), store, rt, None);
    let want = a.cut(&mut now, cut_at).expect("a cut");
    let taken = b.take(&mut deferred, cut_at).expect("a cut");
    for e in &log[half..] {
        apply(&mut deferred, e);
    }
    let got = taken.encode().expect("encodes");
    let bytes = |rows: &[Snapshot]| -> Vec<(u32, u64, Vec<u8>)> {
        rows.iter()
            .map(|r| (r.table, r.upto_gseq, r.state.clone()))
            .collect()
    };
    assert_eq!(bytes(&got), bytes(&want));
    assert!(
        deferred.applied() > now.applied(),
        "the hall went on after the cut"
    );
}

/// Calls of the give-back hook on the threads of the test below.
static GIVE_BACKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The name of the threads (workers and blocking pool) of the runtime of
/// the give-back test: the hook is process-wide and the other tests of
/// this file run servers whose cuts call it on their own runtimes' threads.
const GIVE_BACK_THREADS: &str = "give-back-test";

fn count_give_back() {
    if std::thread::current().name() == Some(GIVE_BACK_THREADS) {
        GIVE_BACKS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A background cut's rows are made on a blocking thread that gives its
/// freed pages back (the binary's hook, `server::give_back`) once their
/// save is over, not before and not never (issue 40: at 10,000 tables
/// ~10 MB stayed resident on the idle thread).
#[test]
fn a_background_cut_gives_its_encoding_threads_pages_back_after_the_save() {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(GIVE_BACK_THREADS)
        .enable_all()
        .build()
        .unwrap()
        .block_on(background_cut_gives_back());
}

async fn background_cut_gives_back() {
    let dir = tempfile::tempdir().unwrap();
    let (cfg, log) = played_stream(dir.path()).await;
    let mut hall = server::rebuild::hall_from_config(&cfg);
    for e in &log {
        apply(&mut hall, e);
    }
    let cuts = dir.path().join("cuts");
    let store = Arc::new(SqliteStore::open(&cuts, OpenOptions::new(cfg.hall_id())).unwrap());
    let basis = Basis::of(&cfg, 0);
    let rt = tokio::runtime::Handle::current();
    let mut sn = Snapshotter::new(basis.clone(), Policy::default(), store.clone(), rt, None);
    server::give_back::set_hook(count_give_back);
    let before = GIVE_BACKS.load(std::sync::atomic::Ordering::SeqCst);
    let last = log.last().map(|e| e.gseq()).expect("a stream");
    sn.cut_in_background(&mut hall, last);
    Snapshotter::wait_saved(&sn.in_flight(), Duration::from_secs(30)).await;
    assert_eq!(
        GIVE_BACKS.load(std::sync::atomic::Ordering::SeqCst) - before,
        1,
        "one give-back, by the time the save is over"
    );
    let r = server::rebuild::rebuild_from_store(
        store.reader(),
        &basis,
        server::rebuild::hall_from_config(&cfg),
        Default::default(),
    )
    .unwrap();
    assert_eq!(
        r.snapshot.as_ref().map(|s| s.0),
        Some(last),
        "the cut is saved"
    );
    assert_eq!(r.records, 0);
    // Nothing changed since: no rows, no thread, nothing to give back.
    sn.cut_in_background(&mut hall, last);
    Snapshotter::wait_saved(&sn.in_flight(), Duration::from_secs(30)).await;
    assert_eq!(
        GIVE_BACKS.load(std::sync::atomic::Ordering::SeqCst) - before,
        1
    );
}
