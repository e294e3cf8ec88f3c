//! Store throughput as the hall's committer drives it: one client (the
//! ingest committer) sends a batch of events spread over many tables, waits
//! for the durable answer, and sends the next (`serial`); or keeps two
//! batches in flight (`pipelined`, as a committer that plans batch N+1
//! while batch N is being committed). This is the load `caipan bench hall`
//! puts on the store with 1,000 tables in flood mode (batches of thousands
//! of events, one per table every few milliseconds), without QUIC and the
//! table state machine in the way. Every answer is checked to be `Stored`.
//! The store is first filled with 200,000 events (a round well under way:
//! the unique key index then has a hot page per table), and the CPU time
//! of the store's own threads (writer and sync) per event is printed after
//! each benchmark, which stays meaningful when the machine is shared.
//!
//! Run: `cargo bench -p caipan-store --bench store_hall`. Figures are in
//! docs/benchmarks.md.

use std::cell::Cell;
use std::sync::Arc;

use divan::counter::ItemsCount;
use divan::Bencher;
use store::{AppendOutcome, EventKey, NewEvent, OpenOptions, SqliteStore, Store};

fn main() {
    divan::main();
}

/// Events per measured iteration.
const EVENTS_PER_ITERATION: u64 = 60_000;
/// Tables appending (as in `caipan bench hall --tables 1000`).
const TABLES: u32 = 1_000;
/// Events stored before measuring.
const PREFILL: u64 = 200_000;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime")
}

/// About the size of an encoded clock-press record.
fn event(table: u32, epoch: u32, seq: u64) -> NewEvent {
    let mut payload = vec![0x5a; 72];
    payload[..4].copy_from_slice(&table.to_le_bytes());
    payload[4..12].copy_from_slice(&seq.to_le_bytes());
    NewEvent {
        key: EventKey { table, epoch, seq },
        kind: "event".into(),
        payload,
        received_at_ms: 1_700_000_000_000,
    }
}

/// Batches of `batch` events, round-robin over `tables` (a contiguous
/// range from `first`), for epoch `epoch`; `seq` per table from 1.
struct Feed {
    first: u32,
    tables: u32,
    epoch: u32,
    next: u64,
}

impl Feed {
    fn batch(&mut self, batch: u64) -> Vec<NewEvent> {
        (0..batch)
            .map(|_| {
                let i = self.next;
                self.next += 1;
                let t = self.first + (i % u64::from(self.tables)) as u32;
                let seq = i / u64::from(self.tables) + 1;
                event(t, self.epoch, seq)
            })
            .collect()
    }
}

async fn drive(store: Arc<SqliteStore>, mut feed: Feed, batch: u64, total: u64) {
    let mut sent = 0;
    while sent < total {
        let n = batch.min(total - sent);
        let out = store.append_batch(feed.batch(n)).await.expect("append");
        assert!(out
            .iter()
            .all(|o| matches!(o, AppendOutcome::Stored { .. })));
        sent += n;
    }
}

/// One committer, one batch in flight: `batch` events per request.
#[divan::bench(args = [512, 4096, 16384], sample_count = 5, sample_size = 1)]
fn serial(bencher: Bencher, batch: u64) {
    run(bencher, batch, 1);
}

/// Two batches in flight (two clients with disjoint halves of the tables).
#[divan::bench(args = [512, 4096], sample_count = 5, sample_size = 1)]
fn pipelined(bencher: Bencher, batch: u64) {
    run(bencher, batch, 2);
}

fn run(bencher: Bencher, batch: u64, in_flight: u32) {
    let rt = runtime();
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SqliteStore::open(dir.path(), OpenOptions::new("bench")).expect("open"));
    let prefill = Feed {
        first: 1,
        tables: TABLES,
        epoch: 1,
        next: 0,
    };
    rt.block_on(drive(store.clone(), prefill, 4096, PREFILL));
    let before = store.stats();
    let cpu0 = store_cpu_ns();
    let epoch = Cell::new(1u32);
    bencher
        .counter(ItemsCount::new(EVENTS_PER_ITERATION))
        .bench_local(|| {
            epoch.set(epoch.get() + 1);
            let e = epoch.get();
            rt.block_on(async {
                let per = TABLES / in_flight;
                let mut tasks = Vec::new();
                for c in 0..in_flight {
                    let feed = Feed {
                        first: 1 + c * per,
                        tables: per,
                        epoch: e,
                        next: 0,
                    };
                    tasks.push(tokio::spawn(drive(
                        store.clone(),
                        feed,
                        batch,
                        EVENTS_PER_ITERATION / u64::from(in_flight),
                    )));
                }
                for t in tasks {
                    t.await.expect("task");
                }
            });
        });
    let cpu = store_cpu_ns().saturating_sub(cpu0);
    let stats = store.stats();
    let rows = stats.rows - before.rows;
    eprintln!(
        "  [batch {batch}, {in_flight} in flight] {rows} events, {} commits, {} fsyncs, \
         store threads {:.2} µs CPU/event",
        stats.commits - before.commits,
        stats.syncs - before.syncs,
        cpu as f64 / 1000.0 / rows.max(1) as f64
    );
}

/// On-CPU nanoseconds of the store's threads (`/proc/self/task/*/schedstat`).
fn store_cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    let mut total = 0;
    for task in tasks.flatten() {
        let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if !name.starts_with("store-") {
            continue;
        }
        let stat = std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
        total += stat
            .split_whitespace()
            .next()
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0);
    }
    total
}
