//! Batched durable records in PostgreSQL (schema 5, issue 40): a database
//! of schema 4 (the release of protocol 11: `tests/fixtures/v11/postgres.sql`
//! restored, and two more halls of thousands of one-row-per-event `events`
//! written beside its hall as that schema stored them) reads the same
//! through every reader before and after a server converts it; resent old
//! events are answered Duplicate / Conflict with their stored gseq; two
//! servers opening the old database at once convert it once; a damaged
//! batch body is `StoreError::Corrupt` naming the hall and the row.
//!
//! Needs PostgreSQL (`. scripts/ci_postgres.sh`); skipped loudly without it.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use store::postgres::cluster::{find_bin, test_database, TestDatabase};
use store::postgres::HallReads;
use store::{AppendOutcome, EventKey, NewEvent, PgDatabase, PgOptions, PgStore, Store, StoreError};
use tokio_postgres::{Client, NoTls};

/// One old event as written: `(gseq, key, kind, payload)`.
type OldEvent = (u64, EventKey, String, Vec<u8>);

/// Restores the dump of fixture `version` (its hall `hall-a`).
fn restore(db: &TestDatabase, version: &str) {
    let dump = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(version)
        .join("postgres.sql");
    let bin = find_bin().expect("PostgreSQL binaries");
    let o = std::process::Command::new(bin.join("psql"))
        .args(["-q", "-v", "ON_ERROR_STOP=1", "-d", db.url(), "-f"])
        .arg(&dump)
        .output()
        .expect("psql runs");
    assert!(
        o.status.success(),
        "{}: {}",
        dump.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

async fn connect(url: &str) -> Client {
    let (client, conn) = tokio_postgres::connect(url, NoTls).await.unwrap();
    tokio::spawn(conn);
    client
}

/// Writes hall `hall` as schema 4 stored it: `n` gseqs, every tenth an
/// audit row, the rest events on `tables` tables (tables 1-3 in a second
/// epoch for the second half), each `(table, epoch)` numbered 1, 2, … but
/// with some neighbours swapped (a resend that filled a gap: seq order is
/// not gseq order).
async fn write_old_hall(client: &Client, hall: &str, n: u64, tables: u32) -> Vec<OldEvent> {
    client
        .execute(
            "INSERT INTO halls (hall_id, next_gseq, created_at_ms) VALUES ($1, $2, 0)",
            &[&hall, &(n as i64 + 1)],
        )
        .await
        .unwrap();
    let mut events: Vec<OldEvent> = Vec::new();
    let mut next: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    let mut audits = Vec::new();
    for g in 1..=n {
        if g % 10 == 0 {
            audits.push(g as i64);
            continue;
        }
        let table = (g % u64::from(tables)) as u32 + 1;
        let epoch = if g > n / 2 && table <= 3 { 2 } else { 1 };
        let seq = next.entry((table, epoch)).or_insert(0);
        *seq += 1;
        let kind = if g % 3 == 0 { "move" } else { "clock_press" };
        let key = EventKey {
            table,
            epoch,
            seq: *seq,
        };
        events.push((g, key, kind.into(), Vec::new()));
    }
    // Swap the seqs of some neighbours of a (table, epoch).
    let mut at: BTreeMap<(u32, u32), Vec<usize>> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        at.entry((e.1.table, e.1.epoch)).or_default().push(i);
    }
    for idx in at.values() {
        for k in (5..idx.len().saturating_sub(1)).step_by(17) {
            let (a, b) = (idx[k], idx[k + 1]);
            let s = events[a].1.seq;
            events[a].1.seq = events[b].1.seq;
            events[b].1.seq = s;
        }
    }
    for e in &mut events {
        e.3 = format!(
            "{hall} t{} e{} s{} {}",
            e.1.table,
            e.1.epoch,
            e.1.seq,
            "x".repeat((e.0 % 40) as usize)
        )
        .into_bytes();
    }
    for chunk in events.chunks(5000) {
        let gseq: Vec<i64> = chunk.iter().map(|e| e.0 as i64).collect();
        let table: Vec<i64> = chunk.iter().map(|e| i64::from(e.1.table)).collect();
        let epoch: Vec<i64> = chunk.iter().map(|e| i64::from(e.1.epoch)).collect();
        let seq: Vec<i64> = chunk.iter().map(|e| e.1.seq as i64).collect();
        let kind: Vec<&str> = chunk.iter().map(|e| e.2.as_str()).collect();
        let payload: Vec<&[u8]> = chunk.iter().map(|e| e.3.as_slice()).collect();
        let hash: Vec<Vec<u8>> = chunk
            .iter()
            .map(|e| store::content_hash(&e.2, &e.3).to_vec())
            .collect();
        let at: Vec<i64> = chunk
            .iter()
            .map(|e| 1_700_000_000_000 + e.0 as i64)
            .collect();
        client
            .execute(
                "INSERT INTO events
                   (hall_id, gseq, table_no, epoch, seq, kind, payload, payload_hash, received_at_ms)
                 SELECT $1, * FROM unnest($2::int8[], $3::int8[], $4::int8[], $5::int8[],
                                          $6::text[], $7::bytea[], $8::bytea[], $9::int8[])",
                &[&hall, &gseq, &table, &epoch, &seq, &kind, &payload, &hash, &at],
            )
            .await
            .unwrap();
    }
    client
        .execute(
            "INSERT INTO audit (hall_id, id, who, action, table_no, payload, at_ms, outcome)
             SELECT $1, id, 'chief:王', 'note ' || id, 1, '\\x00'::bytea, id, 'accepted'
             FROM unnest($2::int8[]) AS a(id)",
            &[&hall, &audits],
        )
        .await
        .unwrap();
    events
}

/// What every reader of hall `reads` answers, as text: every event, each
/// table's events after several points, pages of several sizes across
/// row boundaries, the replay log whole and in pages, the audit trail,
/// the high-water marks and the count.
async fn readings(reads: &HallReads, tables: u32) -> Vec<String> {
    let mut out = Vec::new();
    let all = reads.events_after(None, 0).await.unwrap();
    let last = all.last().map_or(0, |e| e.gseq);
    out.push(format!("{all:?}"));
    for t in 1..=tables {
        for after in [0, 1, last / 3, last / 2 + 1, last] {
            out.push(format!(
                "{:?}",
                reads.events_after(Some(t), after).await.unwrap()
            ));
        }
        out.push(format!(
            "{:?}",
            reads.events_page(Some(t), 7, 5).await.unwrap()
        ));
        for epoch in 1..=3 {
            out.push(format!("{:?}", reads.high_water(t, epoch).await.unwrap()));
        }
    }
    for (after, limit) in [
        (0, 1),
        (0, 100),
        (9, 13),
        (last / 2, 4097),
        (last.saturating_sub(3), 10),
        (last, 5),
    ] {
        out.push(format!(
            "{:?}",
            reads.events_page(None, after, limit).await.unwrap()
        ));
        out.push(format!("{:?}", reads.log_page(after, limit).await.unwrap()));
    }
    out.push(format!("{:?}", reads.log_after(0).await.unwrap()));
    out.push(format!("{:?}", reads.log_after(last / 2).await.unwrap()));
    out.push(format!("{:?}", reads.audit_entries().await.unwrap()));
    out.push(format!("{:?}", reads.event_count().await.unwrap()));
    out
}

fn resend(e: &OldEvent, payload: &[u8]) -> NewEvent {
    NewEvent {
        key: e.1,
        kind: e.2.clone().into(),
        payload: payload.to_vec(),
        received_at_ms: 1,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_4_database_is_converted_to_batches_and_every_reader_sees_the_same() {
    let Some(db) = test_database("batch_migration").await else {
        return;
    };
    restore(&db, "v11");
    let admin = connect(db.url()).await;
    let old_b = write_old_hall(&admin, "old-b", 3000, 7).await;
    let old_c = write_old_hall(&admin, "old-c", 2500, 9).await;
    let halls = [("hall-a", 8), ("old-b", 7), ("old-c", 9)];

    let offline = PgDatabase::connect(db.url(), None).await.unwrap();
    assert_eq!(offline.schema_version(), 4);
    let mut before = Vec::new();
    for (hall, tables) in halls {
        before.push(readings(&offline.hall(hall), tables).await);
    }
    assert_eq!(offline.hall("old-b").event_count().await.unwrap(), 2700);

    // Two servers open halls of the old database at once: one converts
    // every hall under the migration lock, the other waits and finds
    // schema 5.
    let (b, c) = tokio::join!(
        PgStore::open(db.url(), PgOptions::new("old-b")),
        PgStore::open(db.url(), PgOptions::new("old-c")),
    );
    let (b, c) = (b.unwrap(), c.unwrap());
    let offline = PgDatabase::connect(db.url(), None).await.unwrap();
    assert_eq!(offline.schema_version(), store::postgres::PG_SCHEMA_VERSION);
    for ((hall, tables), was) in halls.into_iter().zip(&before) {
        assert_eq!(
            &readings(&offline.hall(hall), tables).await,
            was,
            "hall {hall}"
        );
    }
    // The running stores read the same.
    assert_eq!(&readings(b.reads(), 7).await, &before[1]);
    assert_eq!(
        format!("{:?}", c.all_events().await.unwrap()),
        before[2][0],
        "hall old-c through Store"
    );
    let c_before = &before[2];
    assert_eq!(
        format!("{:?}", c.log_after(0).await.unwrap()),
        c_before[c_before.len() - 4],
        "hall old-c's replay log through Store"
    );
    // Converted, not copied: `events` is gone, every event is in exactly
    // one batch row, far fewer rows than events.
    let rows = admin
        .query(
            "SELECT hall_id, sum(n)::int8, count(*) FROM event_batches GROUP BY hall_id ORDER BY hall_id",
            &[],
        )
        .await
        .unwrap();
    let counts: Vec<(String, i64, i64)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    assert_eq!(counts[1].0, "old-b");
    assert_eq!(counts[1].1, 2700);
    assert_eq!(counts[2].1, 2250);
    assert!(counts[1].2 <= 10, "{counts:?}");
    let gone: bool = admin
        .query_one("SELECT to_regclass('events') IS NULL", &[])
        .await
        .unwrap()
        .get(0);
    assert!(gone);

    // Resent old events: Duplicate with the stored gseq when the same,
    // Conflict when not; a new one follows the hall's counter.
    let picks: Vec<&OldEvent> = old_b.iter().step_by(97).collect();
    let mut batch: Vec<NewEvent> = picks.iter().map(|e| resend(e, &e.3)).collect();
    batch.extend(picks.iter().map(|e| resend(e, b"changed")));
    let fresh = NewEvent {
        key: EventKey {
            table: 1,
            epoch: 1,
            seq: 10_000,
        },
        ..resend(picks[0], b"new")
    };
    batch.push(fresh);
    let answers = b.append_batch(batch).await.unwrap();
    for (i, e) in picks.iter().enumerate() {
        assert_eq!(
            answers[i],
            AppendOutcome::Duplicate { gseq: e.0 },
            "{:?}",
            e.1
        );
        match &answers[picks.len() + i] {
            AppendOutcome::Conflict {
                gseq,
                existing_hash,
            } => {
                assert_eq!(*gseq, e.0);
                assert_eq!(**existing_hash, store::content_hash(&e.2, &e.3));
            }
            other => panic!("{:?}: {other:?}", e.1),
        }
    }
    assert_eq!(answers.last(), Some(&AppendOutcome::Stored { gseq: 3001 }));
    // Resent once more after that commit: still the old gseqs.
    let again = b
        .append_batch(vec![resend(picks[3], &picks[3].3), resend(picks[3], b"")])
        .await
        .unwrap();
    assert_eq!(again[0], AppendOutcome::Duplicate { gseq: picks[3].0 });
    assert!(matches!(again[1], AppendOutcome::Conflict { gseq, .. } if gseq == picks[3].0));
    b.close_store().await;

    // A damaged body: readers answer Corrupt naming the hall and the row,
    // and a resend that needs the row fails the store rather than guess.
    let victim = old_c[40].clone();
    let first: i64 = admin
        .query_one(
            "SELECT first_gseq FROM event_batches WHERE hall_id = 'old-c' AND table_no = $1
               AND epoch = $2 AND first_seq <= $3 AND last_seq >= $3",
            &[
                &i64::from(victim.1.table),
                &i64::from(victim.1.epoch),
                &(victim.1.seq as i64),
            ],
        )
        .await
        .unwrap()
        .get(0);
    db.execute(&format!(
        "ALTER TABLE event_batches DISABLE TRIGGER event_batches_append_only;
         UPDATE event_batches SET body = substring(body from 1 for length(body) - 5)
           WHERE hall_id = 'old-c' AND first_gseq = {first};
         ALTER TABLE event_batches ENABLE TRIGGER event_batches_append_only;"
    ))
    .await
    .unwrap();
    let err = offline
        .hall("old-c")
        .events_after(None, 0)
        .await
        .unwrap_err();
    match &err {
        StoreError::Corrupt { row, .. } => {
            assert!(
                row.contains("hall old-c") && row.contains(&format!("event batch {first} ")),
                "{row}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        c.events_for_table(victim.1.table, 0).await,
        Err(StoreError::Corrupt { .. })
    ));
    // Other tables' events still read.
    let other_table = victim.1.table % 9 + 1;
    assert!(c.events_for_table(other_table, 0).await.is_ok());
    let r = c.append(resend(&victim, &victim.3)).await;
    assert!(
        matches!(&r, Err(StoreError::Failed(why)) if why.contains("event batch")),
        "{r:?}"
    );
    c.close_store().await;
}

/// The conversion's cost: 100,000 events of 1,000 tables in one hall
/// (`cargo test -p caipan-store --test store_pg_batches -- --ignored
/// --nocapture`; docs/benchmarks.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement"]
async fn converting_100000_events() {
    let Some(db) = test_database("batch_conversion").await else {
        return;
    };
    restore(&db, "v11");
    let admin = connect(db.url()).await;
    let t = Instant::now();
    write_old_hall(&admin, "big", 111_112, 1000).await;
    let written = t.elapsed();
    let offline = PgDatabase::connect(db.url(), None).await.unwrap();
    let n = offline.hall("big").event_count().await.unwrap();
    let t = Instant::now();
    let store = PgStore::open(db.url(), PgOptions::new("big"))
        .await
        .unwrap();
    let opened = t.elapsed();
    let rows: i64 = admin
        .query_one(
            "SELECT count(*) FROM event_batches WHERE hall_id = 'big'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    println!(
        "{n} events written as schema 4 in {written:?}; converted into {rows} rows, the store opened in {opened:?}"
    );
    assert_eq!(store.reads().event_count().await.unwrap(), n);
    store.close_store().await;
}
