//! Store throughput: acknowledged events per second with group commit
//! (SQLite WAL, synchronous=FULL), for 1, 100 and 1000 tables appending
//! concurrently, each table waiting for its ack before its next event (as a
//! table terminal does). The hall goal is >= 20,000 acked events/s with
//! 1000 tables. Run: `cargo bench -p caipan-store --bench store`.
//! Measured figures: docs/benchmarks.md.

use std::cell::Cell;
use std::sync::Arc;

use divan::counter::ItemsCount;
use divan::Bencher;
use store::{EventKey, NewEvent, OpenOptions, SqliteStore, Store};

fn main() {
    divan::main();
}

const EVENTS_PER_ITERATION: u64 = 10_000;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime")
}

fn event(table: u32, epoch: u32, seq: u64) -> NewEvent {
    NewEvent {
        key: EventKey { table, epoch, seq },
        kind: "clock_press".into(),
        // About the size of an encoded clock press.
        payload: vec![0x5a; 48],
        received_at_ms: 1_700_000_000_000,
    }
}

/// `tables` concurrent appenders, one event at a time each.
#[divan::bench(args = [1, 100, 1000], sample_count = 5, sample_size = 1)]
fn append_acked(bencher: Bencher, tables: u32) {
    let rt = runtime();
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SqliteStore::open(dir.path(), OpenOptions::new("bench")).expect("open"));
    // One appender is fsync-bound (one commit per event): fewer events.
    let target = if tables == 1 {
        500
    } else {
        EVENTS_PER_ITERATION
    };
    let per_table = (target / u64::from(tables)).max(1);
    let total = per_table * u64::from(tables);
    let epoch = Cell::new(0u32);
    bencher.counter(ItemsCount::new(total)).bench_local(|| {
        epoch.set(epoch.get() + 1);
        let e = epoch.get();
        rt.block_on(async {
            let mut tasks = Vec::with_capacity(tables as usize);
            for t in 1..=tables {
                let store = store.clone();
                tasks.push(tokio::spawn(async move {
                    for s in 1..=per_table {
                        let out = store.append(event(t, e, s)).await.expect("append");
                        assert!(out.is_durable());
                    }
                }));
            }
            for task in tasks {
                task.await.expect("task");
            }
        });
    });
}

/// 100 tables sending batches of 10 events per request.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn append_batches_of_10(bencher: Bencher) {
    let rt = runtime();
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SqliteStore::open(dir.path(), OpenOptions::new("bench")).expect("open"));
    let tables = 100u32;
    let batches = EVENTS_PER_ITERATION / u64::from(tables) / 10;
    let epoch = Cell::new(0u32);
    bencher
        .counter(ItemsCount::new(u64::from(tables) * batches * 10))
        .bench_local(|| {
            epoch.set(epoch.get() + 1);
            let e = epoch.get();
            rt.block_on(async {
                let mut tasks = Vec::new();
                for t in 1..=tables {
                    let store = store.clone();
                    tasks.push(tokio::spawn(async move {
                        for b in 0..batches {
                            let evs = (1..=10).map(|i| event(t, e, b * 10 + i)).collect();
                            store.append_batch(evs).await.expect("append");
                        }
                    }));
                }
                for task in tasks {
                    task.await.expect("task");
                }
            });
        });
}
