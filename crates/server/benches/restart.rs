//! Restart time (重启): rebuilding the hall from a store of 100,000 and
//! 300,000 table events (400 tables, seeded random legal games as clock
//! presses; a table whose game is mated calls the arbiter on every later
//! event, so the hall fills its alert list past its cap, as in the
//! `restart_time_of_a_large_store` figure of tests/server_alerts.rs).
//!
//! Run: `cargo bench -p caipan-server --bench restart`.
//!
//! - `full_replay`: the whole round replayed (no snapshot: the first start
//!   after an upgrade, or a corrupt snapshot);
//! - `snapshot_and_tail`: the hall restored from its snapshot taken 2,000
//!   records before the end, then the tail replayed (a normal restart).
//!
//! The stores are written once per size into a temp dir (not timed). The
//! heap the rebuilt hall holds is printed (a counting allocator).
//!
//! Measured figures: docs/benchmarks.md ("Restart time").
//!
//! A restore plays every game's moves again for the board's positions and
//! keys, and the moves since the last capture through the natural-limit
//! counter and the repetition watch, which judges the repetitions found
//! there again: in these random 750-ply games with long capture-free
//! endgames that is most of its time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use config::HallConfig;
use divan::Bencher;
use hall::record::Record;
use proto::{EventEnvelope, Side, TableEvent};
use rand::{Rng, SeedableRng};
use server::snapshot::{Basis, Snapshotter};
use store::{EventKey, LogEntry, NewEvent, OpenOptions, SqliteStore, Store, StoreReader};

/// Counts live heap bytes, to report what the rebuilt hall holds.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator and only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size(), Ordering::Relaxed);
        // SAFETY: same layout as asked.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: allocated by `alloc` above with this layout.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new, Ordering::Relaxed);
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: `p` was allocated with `l`.
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    divan::main();
}

const TABLES: u16 = 400;

fn config_text() -> String {
    let mut text = String::from(
        r#"rules = "axf"
[tournament]
name = "restart bench"
site = "bench"
date = "2026-11-30"
kind = "swiss"
[server]
listen = "127.0.0.1:0"
[credentials]
table_secret = "restart-bench-secret-0123456789"
[credentials.chief]
name = "chief"
token = "restart-bench-chief-0123456789"
[[round]]
number = 1
"#,
    );
    for t in 1..=TABLES {
        text.push_str(&format!(
            "[[round.table]]\ntable = {t}\nred = \"红{t}\"\nblack = \"黑{t}\"\n"
        ));
    }
    text
}

/// A data dir holding `events` table events, and its config.
struct Fixture {
    _dir: tempfile::TempDir,
    data: PathBuf,
    config: HallConfig,
}

fn fixture(events: u64) -> &'static Fixture {
    static F100: OnceLock<Fixture> = OnceLock::new();
    static F300: OnceLock<Fixture> = OnceLock::new();
    let cell = if events <= 100_000 { &F100 } else { &F300 };
    cell.get_or_init(|| build(events))
}

fn build(events: u64) -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = HallConfig::from_toml_str(&config_text(), dir.path(), &|_| None).expect("config");
    let data = dir.path().join("data");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let store = SqliteStore::open(&data, OpenOptions::new(config.hall_id())).expect("store");
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let per_table = events / u64::from(TABLES);
    let at = 1_764_460_800_000u64;
    let mut games: Vec<(xiangqi::Position, Side, u64, u64)> = (0..TABLES)
        .map(|_| (xiangqi::Position::new(), Side::Red, 4_800_000, 4_800_000))
        .collect();
    // Interleaved as a hall plays: every table's n-th event, then the next.
    let mut batch = Vec::new();
    for seq in 1..=per_table {
        for t in 1..=TABLES {
            let (pos, side, red, black) = &mut games[usize::from(t - 1)];
            let moves = pos.legal_moves();
            let body = if moves.is_empty() {
                TableEvent::CallArbiter {
                    by: *side,
                    reason: "no legal move".into(),
                }
            } else {
                let m = moves[rng.random_range(0..moves.len())];
                pos.play(m).expect("legal");
                let used = rng.random_range(1_000..20_000u64);
                match side {
                    Side::Red => *red = red.saturating_sub(used) + 30_000,
                    Side::Black => *black = black.saturating_sub(used) + 30_000,
                }
                let ev = TableEvent::ClockPress {
                    by: *side,
                    mv: Some(hall::table::convert::wire_move(m)),
                    red_ms: *red,
                    black_ms: *black,
                    terminal_mono_ms: seq * 10_000,
                };
                *side = side.other();
                ev
            };
            let env = EventEnvelope {
                table: t,
                epoch: 1,
                seq,
                body,
            };
            batch.push(NewEvent {
                key: EventKey {
                    table: u32::from(t),
                    epoch: 1,
                    seq,
                },
                kind: "event".into(),
                payload: Record::Event(env).encode().expect("encodes"),
                received_at_ms: (at + seq * 10_000) as i64,
            });
            if batch.len() >= 5_000 {
                rt.block_on(store.append_batch(std::mem::take(&mut batch)))
                    .expect("append");
            }
        }
    }
    rt.block_on(store.append_batch(batch)).expect("append");
    drop(store);
    Fixture {
        _dir: dir,
        data,
        config,
    }
}

fn basis(f: &Fixture) -> Basis {
    Basis::of(&f.config, 0)
}

/// The hall rebuilt by replaying the whole round (no usable snapshot).
#[divan::bench(args = [100_000, 300_000], sample_count = 3, sample_size = 1)]
fn full_replay(bencher: Bencher, events: u64) {
    let f = fixture(events);
    let reader = StoreReader::open_dir(&f.data).expect("reader");
    // Another config hash: the snapshot (if any) is of another config.
    let mut b = basis(f);
    b.config_sha256.push('x');
    {
        let before = LIVE.load(Ordering::Relaxed);
        let hall = server::rebuild::hall_from_config(&f.config);
        let hall = server::rebuild::rebuild_from_store(&reader, &b, hall, Default::default())
            .expect("rebuild")
            .hall;
        let held = LIVE.load(Ordering::Relaxed).saturating_sub(before);
        eprintln!(
            "hall after {events} events: {:.1} MB on the heap ({} alerts, {} claims kept)",
            held as f64 / 1e6,
            hall.book().alerts.len(),
            hall.book().claims.all().count()
        );
    }
    bencher.bench_local(|| {
        let hall = server::rebuild::hall_from_config(&f.config);
        let r = server::rebuild::rebuild_from_store(&reader, &b, hall, Default::default())
            .expect("rebuild");
        assert!(r.snapshot.is_none());
        assert!(r.records >= events - u64::from(TABLES));
        r.hall
    });
}

/// The hall restored from a snapshot taken [`TAIL`] rows before the end,
/// then the tail replayed: a restart after a crash (a clean stop leaves a
/// snapshot of everything and replays nothing).
#[divan::bench(args = [100_000, 300_000], sample_count = 5, sample_size = 1)]
fn snapshot_and_tail(bencher: Bencher, events: u64) {
    let f = fixture(events);
    let b = basis(f);
    take_snapshot(f, &b);
    let reader = StoreReader::open_dir(&f.data).expect("reader");
    bencher.bench_local(|| {
        let hall = server::rebuild::hall_from_config(&f.config);
        let r = server::rebuild::rebuild_from_store(&reader, &b, hall, Default::default())
            .expect("rebuild");
        assert!(r.snapshot.is_some());
        assert_eq!(r.records, TAIL);
        r.hall
    });
}

/// Rows after the snapshot in [`snapshot_and_tail`].
const TAIL: u64 = 2_000;

/// Saves a snapshot at `TAIL` rows before the end (as the server takes them).
fn take_snapshot(f: &Fixture, b: &Basis) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let store =
        Arc::new(SqliteStore::open(&f.data, OpenOptions::new(f.config.hall_id())).expect("store"));
    let log = store.reader().log_after(0).expect("log");
    let cut = log.len() - TAIL as usize;
    let mut hall = server::rebuild::hall_from_config(&f.config);
    let mut hw = server::snapshot::HighWater::default();
    for e in &log[..cut] {
        if let LogEntry::Event(e) = e {
            let m = hw.entry(e.key.table as u16).or_insert((0, 0));
            *m = (*m).max((e.key.epoch, e.key.seq));
            let rec = Record::decode(&e.payload).expect("record");
            let _ = hall.apply(&rec, e.received_at_ms as u64);
            hall.discard_effects();
        }
    }
    for (&n, &(e, s)) in &hw {
        hall.set_high_water(n, e, s);
    }
    let upto = log[cut - 1].gseq();
    let mut sn = Snapshotter::new(
        b.clone(),
        Default::default(),
        store.clone(),
        rt.handle().clone(),
        None,
    );
    sn.set_high_water(&hw);
    let t0 = std::time::Instant::now();
    let rows = sn.cut(&mut hall, upto).expect("cut");
    let taken = t0.elapsed();
    let bytes: usize = rows.iter().map(|r| r.state.len()).sum();
    let n = rows.len();
    assert!(rt.block_on(server::snapshot::save_rows(store, rows)));
    eprintln!(
        "snapshot of {events} rows: {n} rows, {bytes} bytes, taken in {taken:?}, saved in {:?}",
        t0.elapsed() - taken,
        events = log.len()
    );
}
