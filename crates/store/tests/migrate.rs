//! Store schema 3 -> 4 (issue 40): a data dir written with one `events`
//! row per event (schema 3, releases up to protocol 10) opens, its events
//! become batched rows, and every reader sees exactly what the old rows
//! held, in gseq order; the duplicate check answers resends of old events
//! as before. A read-only reader of the old file reads it unconverted. A
//! damaged batch body is an error naming the row, not a panic.

use std::path::Path;

use rusqlite::{params, Connection};
use store::{
    content_hash, AppendOutcome, AuditOutcome, AuditRecord, EventKey, LogEntry, NewEvent,
    OpenOptions, SqliteStore, Store, StoreError, StoreReader, DB_FILE,
};

const HALL: &str = "test-hall-0001";

/// The tables of schema 3, as that release created them.
const SCHEMA_3: &str = r#"
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    gseq INTEGER PRIMARY KEY, table_no INTEGER NOT NULL, epoch INTEGER NOT NULL,
    seq INTEGER NOT NULL, kind TEXT NOT NULL, payload BLOB NOT NULL,
    payload_hash BLOB NOT NULL, received_at_ms INTEGER NOT NULL,
    UNIQUE (table_no, epoch, seq)
);
CREATE TABLE audit (
    id INTEGER PRIMARY KEY, who TEXT NOT NULL, action TEXT NOT NULL, table_no INTEGER,
    payload BLOB NOT NULL, at_ms INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('accepted', 'refused')), why TEXT,
    action_msg BLOB, why_msg BLOB,
    CHECK ((outcome = 'refused') = (why IS NOT NULL))
);
CREATE TABLE snapshots (
    table_no INTEGER PRIMARY KEY, upto_epoch INTEGER NOT NULL, upto_seq INTEGER NOT NULL,
    upto_gseq INTEGER NOT NULL, state BLOB NOT NULL, saved_at_ms INTEGER NOT NULL
);
CREATE TABLE published_rounds (gseq INTEGER PRIMARY KEY, round INTEGER NOT NULL);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
INSERT INTO meta VALUES ('schema_version', '3'), ('hall_id', 'test-hall-0001'),
    ('created_at_ms', '1700000000000');
"#;

fn payload(table: u32, epoch: u32, seq: u64) -> Vec<u8> {
    format!("press {table}/{epoch}/{seq}")
        .into_bytes()
        .into_iter()
        .cycle()
        .take(20 + (seq % 40) as usize)
        .collect()
}

/// A schema-3 data dir: 12,000 events over 37 tables (two epochs on
/// table 5, a gap at table 3 seq 50), an audit entry every 97 gseqs.
/// Returns the keys written.
fn write_schema_3(dir: &Path) -> Vec<EventKey> {
    let conn = Connection::open(dir.join(DB_FILE)).unwrap();
    conn.execute_batch(SCHEMA_3).unwrap();
    let mut keys = Vec::new();
    let mut seqs = std::collections::HashMap::new();
    let tx = conn.unchecked_transaction().unwrap();
    let mut gseq: i64 = 0;
    let mut i: u32 = 0;
    while keys.len() < 12_000 {
        i += 1;
        gseq += 1;
        if gseq % 97 == 0 {
            tx.execute(
                "INSERT INTO audit (id, who, action, table_no, payload, at_ms, outcome, why)
                 VALUES (?1, 'chief:王', 'pause_table', 3, x'00', 1, 'accepted', NULL)",
                [gseq],
            )
            .unwrap();
            continue;
        }
        let table = (i * 7919) % 37 + 1;
        let epoch = if table == 5 && i > 6_000 { 2 } else { 1 };
        let seq = seqs.entry((table, epoch)).or_insert(0u64);
        *seq += 1;
        if table == 3 && *seq == 50 {
            *seq += 1;
        }
        let p = payload(table, epoch, *seq);
        let hash = content_hash("clock_press", &p);
        tx.execute(
            "INSERT INTO events VALUES (?1, ?2, ?3, ?4, 'clock_press', ?5, ?6, ?7)",
            params![
                gseq,
                table,
                epoch,
                *seq as i64,
                p,
                &hash[..],
                1_700_000_000_000 + gseq
            ],
        )
        .unwrap();
        keys.push(EventKey {
            table,
            epoch,
            seq: *seq,
        });
    }
    tx.commit().unwrap();
    keys
}

/// What every reader returns, to compare before and after.
fn read_all(r: &StoreReader) -> (Vec<LogEntry>, Vec<Vec<LogEntry>>, Vec<u64>) {
    let whole = r.log_after(0).unwrap();
    let mut pages = Vec::new();
    let mut after = 0;
    loop {
        let page = r.log_page(after, 1_000).unwrap();
        let Some(last) = page.last() else { break };
        after = last.gseq();
        pages.push(page);
    }
    let mut figures = vec![r.event_count().unwrap()];
    for (t, e) in [(3, 1), (5, 1), (5, 2), (37, 1), (38, 1)] {
        figures.push(r.high_water(t, e).unwrap().unwrap_or(0));
    }
    (whole, pages, figures)
}

fn ev(key: EventKey, payload: Vec<u8>) -> NewEvent {
    NewEvent {
        key,
        kind: "clock_press".into(),
        payload,
        received_at_ms: 1_800_000_000_000,
    }
}

#[tokio::test]
async fn a_schema_3_store_opens_batched_with_the_same_events_and_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let keys = write_schema_3(dir.path());
    let old = StoreReader::open_dir(dir.path()).unwrap();
    let before = read_all(&old);
    let old_all = old.all_events().unwrap();
    let old_t3 = old.events_for_table(3, 5_000).unwrap();
    drop(old);
    assert_eq!(before.2[0], 12_000);
    assert_eq!(old_all.len(), 12_000);

    let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
    // The old table and its triggers are gone; the rows are batched.
    let conn = Connection::open(dir.path().join(DB_FILE)).unwrap();
    let (rows, tables): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT count(*) FROM event_batches),
                    (SELECT count(*) FROM sqlite_master WHERE name = 'events')",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(tables, 0);
    assert!(rows > 37 && rows < 2_000, "{rows} rows for 12,000 events");
    let version: String = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, "5");
    let err = conn
        .execute("UPDATE event_batches SET body = body", [])
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");

    // Every reader sees what it saw.
    assert_eq!(read_all(store.reader()), before);
    assert_eq!(store.all_events().await.unwrap(), old_all);
    assert_eq!(store.events_for_table(3, 5_000).await.unwrap(), old_t3);
    let fresh = StoreReader::open_dir(dir.path()).unwrap();
    assert_eq!(read_all(&fresh), before);

    // Resends of old events: the same content is a duplicate of its row,
    // other content a conflict; the gap is filled; a new event follows.
    let last_gseq = before.0.last().map(LogEntry::gseq).unwrap();
    let mut outcomes = Vec::new();
    for (i, k) in keys.iter().enumerate().step_by(997) {
        let stored = old_all.iter().find(|e| e.key == *k).unwrap();
        let same = store.append(ev(*k, stored.payload.clone())).await.unwrap();
        assert_eq!(same, AppendOutcome::Duplicate { gseq: stored.gseq }, "{i}");
        let other = store.append(ev(*k, b"other".to_vec())).await.unwrap();
        assert_eq!(
            other,
            AppendOutcome::Conflict {
                gseq: stored.gseq,
                existing_hash: Box::new(stored.payload_hash)
            }
        );
        outcomes.push(same);
    }
    assert!(outcomes.len() >= 12);
    let gap = EventKey {
        table: 3,
        epoch: 1,
        seq: 50,
    };
    assert_eq!(
        store.append(ev(gap, b"late".to_vec())).await.unwrap(),
        AppendOutcome::Stored {
            gseq: last_gseq + 1
        }
    );
    let hw = before.2[1];
    let next = EventKey {
        table: 3,
        epoch: 1,
        seq: hw + 1,
    };
    let batch = store
        .append_batch(vec![
            ev(next, b"n".to_vec()),
            ev(gap, b"late".to_vec()),
            ev(next, b"n".to_vec()),
        ])
        .await
        .unwrap();
    assert_eq!(
        batch,
        [
            AppendOutcome::Stored {
                gseq: last_gseq + 2
            },
            AppendOutcome::Duplicate {
                gseq: last_gseq + 1
            },
            AppendOutcome::Duplicate {
                gseq: last_gseq + 2
            },
        ]
    );
    let id = store
        .append_audit(AuditRecord {
            who: "chief:王".into(),
            action: "note".into(),
            table: None,
            payload: vec![],
            at_ms: 2,
            outcome: AuditOutcome::Accepted,
            action_msg: None,
            why_msg: None,
        })
        .await
        .unwrap();
    assert_eq!(id, last_gseq + 3);
    let t3 = store.events_for_table(3, 0).await.unwrap();
    assert_eq!(
        t3.len(),
        old_all.iter().filter(|e| e.key.table == 3).count() + 2
    );
    drop(store);

    // Reopened: the same again, and the high-water marks hold.
    let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
    assert_eq!(
        store.append(ev(gap, b"late".to_vec())).await.unwrap(),
        AppendOutcome::Duplicate {
            gseq: last_gseq + 1
        }
    );
    assert_eq!(store.high_water(3, 1).await.unwrap(), Some(hw + 1));
    let all = store.all_events().await.unwrap();
    assert_eq!(all.len(), 12_002);
    assert!(all.windows(2).all(|w| w[0].gseq < w[1].gseq));
    assert_eq!(&all[..12_000], &old_all[..]);
}

#[tokio::test]
async fn a_damaged_batch_body_is_an_error_naming_its_row() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
        for s in 1..=3 {
            let key = EventKey {
                table: 9,
                epoch: 1,
                seq: s,
            };
            store.append(ev(key, payload(9, 1, s))).await.unwrap();
        }
        store.checkpoint_wal().unwrap();
    }
    let conn = Connection::open(dir.path().join(DB_FILE)).unwrap();
    conn.execute_batch(
        "DROP TRIGGER event_batches_no_update;
         UPDATE event_batches SET body = substr(body, 1, length(body) - 3) WHERE first_gseq = 2;",
    )
    .unwrap();
    drop(conn);
    let r = StoreReader::open_dir(dir.path()).unwrap();
    for err in [
        r.all_events().unwrap_err(),
        r.events_for_table(9, 0).unwrap_err(),
        r.log_page(0, 10).unwrap_err(),
    ] {
        match err {
            StoreError::Corrupt { row, why } => {
                assert!(row.starts_with("event batch 2 (table 9, epoch 1"), "{row}");
                assert!(!why.is_empty());
            }
            other => panic!("expected Corrupt, got {other:?}"),
        }
    }
    // The rows before it still read.
    assert_eq!(r.log_page(0, 1).unwrap().len(), 1);
}
