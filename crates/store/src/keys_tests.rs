//! Tests of the key index written in passes (schema 5, `keys.rs`) through
//! a real store: resends are told apart from new events and conflicts
//! whether their row is keyed, in a pass being written or still waiting;
//! a table's events and high-water mark read the same from every part;
//! a reopened store (mid-pass) finds its tail again; and a schema-4 store
//! reads as it is and opens as schema 5 with every row keyed.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use rusqlite::Connection;

use super::{
    AppendOutcome, EventKey, KeyPassOptions, NewEvent, OpenOptions, SqliteStore, Store,
    StoreReader, DB_FILE,
};

const HALL: &str = "keys-hall";

fn ev(table: u32, seq: u64, payload: &str) -> NewEvent {
    NewEvent {
        key: EventKey {
            table,
            epoch: 1,
            seq,
        },
        kind: "clock_press".into(),
        payload: payload.as_bytes().to_vec(),
        received_at_ms: 1_700_000_000_000,
    }
}

/// A store whose passes begin every 5 rows and write 2 keys a commit.
fn small_passes(dir: &Path) -> SqliteStore {
    let mut opts = OpenOptions::new(HALL);
    opts.key_pass = KeyPassOptions {
        interval: Duration::from_secs(3600),
        rows: 5,
        per_row: 1,
        least: 2,
        per_commit: 2,
    };
    SqliteStore::open(dir, opts).unwrap()
}

/// `(rows, keys, horizon)` of the file.
fn counts(dir: &Path) -> (i64, i64, i64) {
    let c = Connection::open(dir.join(DB_FILE)).unwrap();
    c.query_row(
        &format!(
            "SELECT (SELECT count(*) FROM event_batches), (SELECT count(*) FROM event_keys),
                    {}",
            super::keys::KEYED_UPTO
        ),
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .unwrap()
}

/// What the store must hold: per table, seq -> (gseq, payload).
type Expected = BTreeMap<u32, BTreeMap<u64, (u64, String)>>;

/// Appends event `t/s` (new) and records it in `want`.
async fn store_new(store: &SqliteStore, want: &mut Expected, t: u32, s: u64, p: &str) {
    let out = store.append(ev(t, s, p)).await.unwrap();
    let AppendOutcome::Stored { gseq } = out else {
        panic!("{t}/{s} not stored: {out:?}");
    };
    want.entry(t).or_default().insert(s, (gseq, p.to_string()));
}

/// Every table's events and high-water mark, through the store and a
/// fresh reader, are those expected.
async fn check_reads(store: &SqliteStore, dir: &Path, want: &Expected) {
    let fresh = StoreReader::open_dir(dir).unwrap();
    for (&t, events) in want {
        let want_events: Vec<(u64, u64, Vec<u8>)> = events
            .iter()
            .map(|(&s, (g, p))| (*g, s, p.as_bytes().to_vec()))
            .collect();
        let mut want_events = want_events;
        want_events.sort();
        let live = store.events_for_table(t, 0).await.unwrap();
        let read = fresh.events_for_table(t, 0).unwrap();
        for got in [live, read] {
            let got: Vec<(u64, u64, Vec<u8>)> = got
                .into_iter()
                .map(|e| (e.gseq, e.key.seq, e.payload))
                .collect();
            assert_eq!(got, want_events, "table {t}");
        }
        let top = events.keys().max().copied();
        assert_eq!(store.high_water(t, 1).await.unwrap(), top, "table {t}");
        assert_eq!(fresh.high_water(t, 1).unwrap(), top, "table {t}");
        // After a gseq in the middle: the rest only.
        if let Some((_, (mid, _))) = events.iter().nth(events.len() / 2) {
            let n = store.events_for_table(t, *mid).await.unwrap().len();
            assert_eq!(n, events.values().filter(|(g, _)| g > mid).count());
        }
    }
}

/// Resends of every stored event: the same payload is a duplicate of its
/// gseq, another a conflict.
async fn check_resends(store: &SqliteStore, want: &Expected) {
    for (&t, events) in want {
        for (&s, (g, p)) in events {
            let again = store.append(ev(t, s, p)).await.unwrap();
            assert_eq!(again, AppendOutcome::Duplicate { gseq: *g }, "{t}/{s}");
            let other = store.append(ev(t, s, "other")).await.unwrap();
            assert!(
                matches!(other, AppendOutcome::Conflict { gseq, .. } if gseq == *g),
                "{t}/{s}: {other:?}"
            );
        }
    }
}

#[tokio::test]
async fn resends_are_told_apart_wherever_their_key_is_and_after_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let mut want: Expected = BTreeMap::new();
    {
        let store = small_passes(dir.path());
        // Tables 1-4, seqs 1-6, interleaved, one commit each; table 9
        // leaves a gap at 2.
        for s in 1..=6u64 {
            for t in 1..=4u32 {
                store_new(&store, &mut want, t, s, &format!("t{t}s{s}")).await;
            }
        }
        for s in [1u64, 3] {
            store_new(&store, &mut want, 9, s, &format!("t9s{s}")).await;
        }
        let (rows, keys, horizon) = counts(dir.path());
        assert_eq!(rows, 26);
        assert!(
            keys > 0 && horizon > 0,
            "passes ran: {keys} keys, horizon {horizon}"
        );
        assert!(keys < rows, "some rows wait for a pass: {keys} of {rows}");
        check_reads(&store, dir.path(), &want).await;
        check_resends(&store, &want).await;
        // The gap is filled, not taken for a resend.
        store_new(&store, &mut want, 9, 2, "t9s2").await;
        check_reads(&store, dir.path(), &want).await;
        store.close().await;
    }
    // Reopened: the tail is read back from the rows, a pass half written
    // is written again.
    let store = small_passes(dir.path());
    check_reads(&store, dir.path(), &want).await;
    check_resends(&store, &want).await;
    store_new(&store, &mut want, 1, 7, "t1s7").await;
    check_reads(&store, dir.path(), &want).await;
    store.close().await;
    drop(store);
    // A store whose every pass is one commit keys everything at its first.
    let mut opts = OpenOptions::new(HALL);
    opts.key_pass = KeyPassOptions {
        interval: Duration::ZERO,
        rows: 1,
        per_row: 1,
        least: 1_000,
        per_commit: 1_000,
    };
    let store = SqliteStore::open(dir.path(), opts).unwrap();
    store_new(&store, &mut want, 2, 7, "t2s7").await;
    let (rows, keys, horizon) = counts(dir.path());
    let last = i64::try_from(want[&2][&7].0).unwrap();
    assert_eq!((keys, horizon), (rows, last));
    check_reads(&store, dir.path(), &want).await;
    check_resends(&store, &want).await;
    store.close().await;
}

#[tokio::test]
async fn a_schema_4_store_reads_as_it_is_and_opens_keyed() {
    let dir = tempfile::tempdir().unwrap();
    let mut want: Expected = BTreeMap::new();
    {
        let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
        for s in 1..=5u64 {
            for t in [3u32, 1, 2] {
                store_new(&store, &mut want, t, s, &format!("t{t}s{s}")).await;
            }
        }
        store.close().await;
    }
    // As releases 11 and 12 left it: the keys an index of the rows.
    let file = dir.path().join(DB_FILE);
    Connection::open(&file)
        .unwrap()
        .execute_batch(
            "DROP TABLE event_keys;
             CREATE INDEX event_batches_key ON event_batches (table_no, epoch, last_seq);
             DELETE FROM meta WHERE key = 'keyed_upto';
             UPDATE meta SET value = '4' WHERE key = 'schema_version';",
        )
        .unwrap();
    let old = StoreReader::open(&file).unwrap();
    for (&t, events) in &want {
        let got: Vec<u64> = old
            .events_for_table(t, 0)
            .unwrap()
            .iter()
            .map(|e| e.gseq)
            .collect();
        let mut gseqs: Vec<u64> = events.values().map(|(g, _)| *g).collect();
        gseqs.sort_unstable();
        assert_eq!(got, gseqs, "table {t} of the schema-4 store");
        assert_eq!(old.high_water(t, 1).unwrap(), Some(5));
    }
    drop(old);
    let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
    let c = Connection::open(&file).unwrap();
    let (version, index): (String, i64) = c
        .query_row(
            "SELECT (SELECT value FROM meta WHERE key = 'schema_version'),
                    (SELECT count(*) FROM sqlite_master WHERE name = 'event_batches_key')",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((version.as_str(), index), ("5", 0));
    let (rows, keys, horizon) = counts(dir.path());
    assert_eq!(
        (keys, horizon),
        (rows, 15),
        "every row keyed, the last at 15"
    );
    let err = c.execute("DELETE FROM event_keys", []).unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    check_reads(&store, dir.path(), &want).await;
    check_resends(&store, &want).await;
    store.close().await;
}
