//! Tests of the PostgreSQL store that have no SQLite counterpart: several
//! halls in one database (isolated; one writer per hall), the server's
//! role unable to change audit rows, and the database stopped with
//! `pg_ctl stop -m immediate` mid-stream and restarted (nothing
//! acknowledged while it is down, nothing acknowledged lost, the store
//! resumes by itself). The bodies shared with SQLite are in `store.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use store::postgres::cluster::{test_database, Cluster};
use store::{
    AppendOutcome, AuditOutcome, AuditRecord, EventKey, NewEvent, PgDatabase, PgOptions, PgStore,
    Snapshot, Store, StoreError,
};

fn ev(table: u32, epoch: u32, seq: u64, payload: &[u8]) -> NewEvent {
    NewEvent {
        key: EventKey { table, epoch, seq },
        kind: "clock_press".into(),
        payload: payload.to_vec(),
        received_at_ms: 1_700_000_000_000 + seq as i64,
    }
}

fn audit(who: &str, action: &str) -> AuditRecord {
    AuditRecord {
        who: who.into(),
        action: action.into(),
        table: Some(1),
        payload: b"cmd".to_vec(),
        at_ms: 1_700_000_000_123,
        outcome: AuditOutcome::Accepted,
        action_msg: None,
        why_msg: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_halls_in_one_database_are_isolated_and_each_has_one_writer() {
    let Some(db) = test_database("two_halls").await else {
        return;
    };
    let mut a_opts = PgOptions::new("hall-a");
    a_opts.tournament = Some("league-2026".into());
    let a = PgStore::open(db.url(), a_opts).await.unwrap();
    let mut b_opts = PgOptions::new("hall-b");
    b_opts.tournament = Some("league-2026".into());
    let b = PgStore::open(db.url(), b_opts).await.unwrap();
    // The same key in both halls: two rows, each hall numbering its own.
    assert_eq!(
        a.append(ev(1, 1, 1, b"a1")).await.unwrap(),
        AppendOutcome::Stored { gseq: 1 }
    );
    assert_eq!(
        b.append(ev(1, 1, 1, b"b1")).await.unwrap(),
        AppendOutcome::Stored { gseq: 1 }
    );
    assert_eq!(
        a.append(ev(1, 1, 2, b"a2")).await.unwrap(),
        AppendOutcome::Stored { gseq: 2 }
    );
    assert_eq!(
        a.append_audit(audit("chief:王", "pause_hall"))
            .await
            .unwrap(),
        3
    );
    b.save_snapshot(Snapshot {
        table: 1,
        upto_epoch: 1,
        upto_seq: 1,
        upto_gseq: 1,
        state: b"b-state".to_vec(),
        saved_at_ms: 1,
    })
    .await
    .unwrap();
    let a_rows: Vec<_> = a
        .all_events()
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.payload)
        .collect();
    let b_rows: Vec<_> = b
        .all_events()
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.payload)
        .collect();
    assert_eq!(a_rows, [b"a1".to_vec(), b"a2".to_vec()]);
    assert_eq!(b_rows, [b"b1".to_vec()]);
    assert_eq!(a.high_water(1, 1).await.unwrap(), Some(2));
    assert_eq!(b.high_water(1, 1).await.unwrap(), Some(1));
    assert!(b.audit_entries().await.unwrap().is_empty());
    assert_eq!(a.log_after(0).await.unwrap().len(), 3);
    assert_eq!(b.log_after(0).await.unwrap().len(), 1);
    assert!(a.snapshots().await.unwrap().is_empty());
    assert_eq!(b.snapshots().await.unwrap().len(), 1);
    // Hall B's duplicate is judged against hall B's row only.
    assert!(matches!(
        b.append(ev(1, 1, 1, b"a1")).await.unwrap(),
        AppendOutcome::Conflict { gseq: 1, .. }
    ));

    // One writer per hall: a second store for hall A is refused.
    let mut again = PgOptions::new("hall-a");
    again.lock_wait = Duration::from_millis(300);
    let second = PgStore::open(db.url(), again).await;
    assert!(matches!(second, Err(StoreError::Locked(_))), "{second:?}");
    // A hall recorded in one tournament is not reused for another.
    a.close_store().await;
    let mut other = PgOptions::new("hall-a");
    other.tournament = Some("another-open".into());
    let err = PgStore::open(db.url(), other).await.unwrap_err();
    assert!(err.to_string().contains("league-2026"), "{err}");

    let offline = PgDatabase::connect(db.url(), None).await.unwrap();
    assert_eq!(
        offline.tournament_halls("league-2026").await.unwrap(),
        ["hall-a", "hall-b"]
    );
    assert_eq!(offline.hall("hall-a").event_count().await.unwrap(), 2);
    assert_eq!(offline.hall("hall-b").event_count().await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_role_cannot_update_or_delete_audit_rows() {
    let Some(db) = test_database("audit_role").await else {
        return;
    };
    let role = format!("srv_{}", db.name());
    db.execute(&format!(
        "CREATE ROLE \"{role}\" LOGIN PASSWORD 'pw'; ALTER DATABASE \"{}\" OWNER TO \"{role}\";",
        db.name()
    ))
    .await
    .unwrap();
    let url = db.url_as(&role, "pw");
    // The server's role creates the schema and writes.
    let store = PgStore::open(&url, PgOptions::new("hall-a")).await.unwrap();
    store.append(ev(1, 1, 1, b"x")).await.unwrap();
    let id = store
        .append_audit(audit("deputy:陈", "pause_table"))
        .await
        .unwrap();
    // The same role, around the store: no privilege to change history.
    let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    for sql in [
        "UPDATE audit SET who = 'someone else'",
        "DELETE FROM audit",
        "TRUNCATE audit",
        "UPDATE event_batches SET body = body",
        "DELETE FROM event_batches",
        "TRUNCATE event_batches",
    ] {
        let err = client.batch_execute(sql).await.unwrap_err();
        let db_err = err.as_db_error().expect("a database error");
        assert_eq!(db_err.code().code(), "42501", "{sql}: {db_err}");
        assert!(
            db_err.message().contains("permission denied"),
            "{sql}: {db_err}"
        );
    }
    // A superuser (who ignores privileges) still meets the trigger.
    for sql in [
        "UPDATE audit SET who = 'x'",
        "DELETE FROM audit",
        "TRUNCATE audit",
        "UPDATE event_batches SET n = n",
        "DELETE FROM event_batches",
    ] {
        let err = db.execute(sql).await.unwrap_err();
        assert!(err.contains("append-only"), "{sql}: {err}");
    }
    let entries = store.audit_entries().await.unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].id, id);
    assert_eq!(entries[0].record.who, "deputy:陈");
    store.close_store().await;
    drop(client);
    db.execute(&format!("DROP OWNED BY \"{role}\" CASCADE"))
        .await
        .ok();
}

/// Appenders on `tables` tables, each sending seq 1, 2, … until `stop`,
/// recording every acknowledged key.
fn spawn_appenders(
    store: Arc<PgStore>,
    tables: u32,
    acked: Arc<Mutex<BTreeSet<(u32, u64)>>>,
    count: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
) -> Vec<tokio::task::JoinHandle<()>> {
    (1..=tables)
        .map(|t| {
            let (store, acked, count, stop) =
                (store.clone(), acked.clone(), count.clone(), stop.clone());
            tokio::spawn(async move {
                let mut s = 1;
                while !stop.load(Ordering::Acquire) {
                    let payload = format!("table {t} seq {s}");
                    match store.append(ev(t, 1, s, payload.as_bytes())).await {
                        Ok(o) => {
                            assert!(o.is_durable(), "{o:?}");
                            acked.lock().unwrap().insert((t, s));
                            count.fetch_add(1, Ordering::AcqRel);
                            s += 1;
                        }
                        Err(e) => panic!("table {t} seq {s}: {e}"),
                    }
                }
            })
        })
        .collect()
}

async fn wait_for(count: &AtomicU64, at_least: u64, what: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(90);
    while count.load(Ordering::Acquire) < at_least {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_stopped_mid_stream_acknowledges_nothing_loses_nothing_and_resumes() {
    let cluster = match tokio::task::spawn_blocking(Cluster::start).await.unwrap() {
        Ok(c) => c,
        Err(why) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set and no PostgreSQL cluster could be started: {why}"
            );
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED database_stopped_mid_stream: no PostgreSQL ({why}) ***\n"
            );
            return;
        }
    };
    let cluster = Arc::new(Mutex::new(cluster));
    let url = cluster.lock().unwrap().url("postgres");
    let store = Arc::new(PgStore::open(&url, PgOptions::new("hall-a")).await.unwrap());
    let acked = Arc::new(Mutex::new(BTreeSet::new()));
    let count = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let tasks = spawn_appenders(
        store.clone(),
        20,
        acked.clone(),
        count.clone(),
        stop.clone(),
    );
    wait_for(&count, 300, "first acks").await;

    // Crash the database mid-stream.
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.lock().unwrap().stop_immediate())
        .await
        .unwrap()
        .unwrap();
    // What was answered before the stop is done; then nothing more.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let while_down = count.load(Ordering::Acquire);
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        count.load(Ordering::Acquire),
        while_down,
        "events were acknowledged while the database was down"
    );
    assert!(
        store.health().is_ok(),
        "a lost database must not fail the store"
    );

    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.lock().unwrap().start_again())
        .await
        .unwrap()
        .unwrap();
    // Resumes by itself.
    wait_for(&count, while_down + 300, "acks after the restart").await;
    stop.store(true, Ordering::Release);
    for t in tasks {
        t.await.unwrap();
    }
    assert!(store.reconnects() >= 1);
    store.close_store().await;

    // Every acknowledged key is stored, once, intact; gseq dense.
    let db = PgDatabase::connect(&url, None).await.unwrap();
    let stored = db.hall("hall-a").events_after(None, 0).await.unwrap();
    let mut by_key: BTreeMap<(u32, u64), usize> = BTreeMap::new();
    for (i, e) in stored.iter().enumerate() {
        assert_eq!(e.gseq, i as u64 + 1, "gseq has a hole");
        assert_eq!(
            e.payload,
            format!("table {} seq {}", e.key.table, e.key.seq).into_bytes()
        );
        *by_key.entry((e.key.table, e.key.seq)).or_default() += 1;
    }
    assert!(by_key.values().all(|n| *n == 1), "a key stored twice");
    let acked = acked.lock().unwrap().clone();
    let lost: Vec<_> = acked.iter().filter(|k| !by_key.contains_key(k)).collect();
    assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
    eprintln!(
        "restart test: {} acked ({} before the stop), {} stored",
        acked.len(),
        while_down,
        stored.len()
    );
    drop(db);
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.lock().unwrap().stop())
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_round_is_published_once_for_every_hall_and_kept_as_it_was() {
    use store::postgres::{Split, TournamentRound};
    let Some(db) = test_database("tournament_rounds").await else {
        return;
    };
    let mut halls = Vec::new();
    for hall in ["room-a", "room-b"] {
        let mut opts = PgOptions::new(hall);
        opts.tournament = Some("league-2026".into());
        halls.push(PgStore::open(db.url(), opts).await.unwrap());
    }
    let mut other = PgOptions::new("elsewhere");
    other.tournament = Some("cup-2026".into());
    halls.push(PgStore::open(db.url(), other).await.unwrap());
    let offline = PgDatabase::connect(db.url(), None).await.unwrap();
    assert_eq!(offline.schema_version(), store::postgres::PG_SCHEMA_VERSION);
    assert!(offline
        .tournament_rounds("league-2026")
        .await
        .unwrap()
        .is_empty());
    let split = Split::new(vec![
        ("room-a".into(), vec![1, 2]),
        ("room-b".into(), vec![61, 62]),
    ])
    .unwrap();
    let round = TournamentRound {
        tournament: "league-2026".into(),
        round: 2,
        hall_id: "room-a".into(),
        proposal: "第二轮".as_bytes().to_vec(),
        split: split.clone(),
        at_ms: 1_700_000_000_000,
        publication: 1,
        withdrawn: None,
    };
    offline.publish_tournament_round(&round).await.unwrap();
    // The other hall publishes the same round: refused, naming the first.
    let second = TournamentRound {
        hall_id: "room-b".into(),
        proposal: b"another pairing".to_vec(),
        ..round.clone()
    };
    let err = offline
        .publish_tournament_round(&second)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("round 2 of tournament league-2026 was already published by hall room-a"),
        "{err}"
    );
    // A hall of another tournament cannot publish this one's round 3.
    let stranger = TournamentRound {
        round: 3,
        hall_id: "elsewhere".into(),
        ..round.clone()
    };
    let err = offline
        .publish_tournament_round(&stranger)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("hall elsewhere is not a hall of tournament league-2026"),
        "{err}"
    );
    assert_eq!(
        offline.tournament_rounds("league-2026").await.unwrap(),
        std::slice::from_ref(&round)
    );
    assert_eq!(
        offline.tournament_round("league-2026", 2).await.unwrap(),
        Some(round.clone())
    );
    assert_eq!(
        offline.tournament_round("league-2026", 3).await.unwrap(),
        None
    );
    assert!(offline
        .tournament_rounds("cup-2026")
        .await
        .unwrap()
        .is_empty());
    // Append-only, for a superuser too.
    for sql in [
        "UPDATE tournament_rounds SET hall_id = 'room-b'",
        "DELETE FROM tournament_rounds",
        "TRUNCATE tournament_rounds",
        // With the withdrawals that refer to it (schema 4): their trigger.
        "TRUNCATE tournament_rounds, tournament_withdrawals",
    ] {
        let err = db.execute(sql).await.unwrap_err();
        // A plain TRUNCATE meets the withdrawals' foreign key first.
        assert!(
            err.contains("append-only") || err.contains("referenced in a foreign key"),
            "{sql}: {err}"
        );
    }
    assert_eq!(
        offline.tournament_rounds("league-2026").await.unwrap()[0].split,
        split
    );
    // Withdrawn (schema 4): published again as its second publication;
    // the last publication is what every hall reads.
    let w = store::TournamentWithdrawal {
        hall_id: "room-a".into(),
        reason: "编排有误".into(),
        at_ms: 1_700_000_100_000,
    };
    let err = offline
        .withdraw_tournament_round("league-2026", 3, &w)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("round 3 of tournament league-2026 was not published"),
        "{err}"
    );
    let stranger_w = store::TournamentWithdrawal {
        hall_id: "elsewhere".into(),
        ..w.clone()
    };
    let err = offline
        .withdraw_tournament_round("league-2026", 2, &stranger_w)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("hall elsewhere is not a hall of tournament league-2026"),
        "{err}"
    );
    offline
        .withdraw_tournament_round("league-2026", 2, &w)
        .await
        .unwrap();
    let err = offline
        .withdraw_tournament_round("league-2026", 2, &w)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("was withdrawn already"), "{err}");
    let withdrawn = offline
        .tournament_round("league-2026", 2)
        .await
        .unwrap()
        .expect("round 2");
    assert_eq!(withdrawn.withdrawn, Some(w.clone()));
    let again = TournamentRound {
        proposal: b"paired again".to_vec(),
        publication: 2,
        ..round.clone()
    };
    offline.publish_tournament_round(&again).await.unwrap();
    let err = offline
        .publish_tournament_round(&second)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("was already published by hall room-a"),
        "{err}"
    );
    assert_eq!(
        offline.tournament_round("league-2026", 2).await.unwrap(),
        Some(again.clone())
    );
    assert_eq!(
        offline.tournament_rounds("league-2026").await.unwrap(),
        vec![withdrawn, again]
    );
    for sql in [
        "UPDATE tournament_withdrawals SET reason = 'x'",
        "DELETE FROM tournament_withdrawals",
        "TRUNCATE tournament_withdrawals",
    ] {
        let err = db.execute(sql).await.unwrap_err();
        assert!(err.contains("append-only"), "{sql}: {err}");
    }
    for h in halls {
        h.close_store().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_2_database_is_read_as_it_is_and_a_newer_one_refused() {
    let Some(db) = test_database("schema_two").await else {
        return;
    };
    // What release 7 left (schema 2): its tables for the reader's queries.
    db.execute(
        "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL,
             applied_at timestamptz NOT NULL DEFAULT now());
         INSERT INTO schema_migrations (version, name) VALUES (1, 'v1'), (2, 'v2');
         CREATE TABLE halls (hall_id text PRIMARY KEY, tournament text,
             config_copy text);
         INSERT INTO halls VALUES ('room-a', 'league-2026', NULL);",
    )
    .await
    .unwrap();
    let offline = PgDatabase::connect(db.url(), None).await.unwrap();
    assert_eq!(offline.schema_version(), 2);
    assert_eq!(
        offline.tournament_halls("league-2026").await.unwrap(),
        ["room-a"]
    );
    assert!(offline
        .tournament_rounds("league-2026")
        .await
        .unwrap()
        .is_empty());
    let round = store::postgres::TournamentRound {
        tournament: "league-2026".into(),
        round: 2,
        hall_id: "room-a".into(),
        proposal: Vec::new(),
        split: store::postgres::Split::new(vec![("room-a".into(), vec![1])]).unwrap(),
        at_ms: 0,
        publication: 1,
        withdrawn: None,
    };
    let err = offline
        .publish_tournament_round(&round)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("schema is version 2"), "{err}");
    // A schema newer than this build is refused by name.
    db.execute("INSERT INTO schema_migrations (version, name) VALUES (99, 'future')")
        .await
        .unwrap();
    match PgDatabase::connect(db.url(), None).await {
        Err(StoreError::Schema { found: 99, .. }) => {}
        other => panic!("{:?}", other.map(|d| d.schema_version())),
    }
}

/// The audit trail's typed messages (schema 4, issue 33): a database of
/// schema 3 (release 9) is read as it is offline (no typed messages),
/// migrated by a server with its rows kept as they were (NULL typed
/// messages, their text as stored), and typed rows round-trip.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_audit_rows_round_trip_and_a_schema_3_database_is_migrated() {
    let Some(db) = test_database("typed_audit").await else {
        return;
    };
    let refused = |action: &str| AuditRecord {
        outcome: AuditOutcome::Refused {
            why: "a viewer only reads".into(),
        },
        ..audit("viewer:x", action)
    };
    // Release 9's rows, then its schema: no typed columns, version 3.
    {
        let store = PgStore::open(db.url(), PgOptions::new("room-a"))
            .await
            .unwrap();
        store
            .append_audit(audit("chief:王", "pause table 1: 停电"))
            .await
            .unwrap();
        store
            .append_audit(refused("resume the hall"))
            .await
            .unwrap();
        store.close_store().await;
    }
    // Schema 4's other change undone too (the publications of a round),
    // and schema 5's batched rows (back to one `events` row per event).
    db.execute(
        "DROP TABLE event_batches;
         CREATE TABLE events (hall_id text NOT NULL REFERENCES halls (hall_id),
             gseq bigint NOT NULL, table_no bigint NOT NULL, epoch bigint NOT NULL,
             seq bigint NOT NULL, kind text NOT NULL, payload bytea NOT NULL,
             payload_hash bytea NOT NULL, received_at_ms bigint NOT NULL,
             PRIMARY KEY (hall_id, gseq), UNIQUE (hall_id, table_no, epoch, seq));
         DELETE FROM schema_migrations WHERE version = 5;
         ALTER TABLE audit DROP COLUMN action_msg, DROP COLUMN why_msg;
         DROP TABLE tournament_withdrawals;
         ALTER TABLE tournament_rounds DROP CONSTRAINT tournament_rounds_pkey;
         ALTER TABLE tournament_rounds DROP COLUMN publication;
         ALTER TABLE tournament_rounds ADD PRIMARY KEY (tournament, round);
         DELETE FROM schema_migrations WHERE version = 4;",
    )
    .await
    .unwrap();
    let offline = PgDatabase::connect(db.url(), None).await.unwrap();
    assert_eq!(offline.schema_version(), 3);
    let old = offline.hall("room-a").audit_entries().await.unwrap();
    assert_eq!(old.len(), 2);
    assert_eq!(old[0].record, audit("chief:王", "pause table 1: 停电"));
    assert_eq!(old[1].record, refused("resume the hall"));
    // A server migrates it (3 -> 4) and writes typed rows.
    let store = PgStore::open(db.url(), PgOptions::new("room-a"))
        .await
        .unwrap();
    let typed = AuditRecord {
        action_msg: Some(vec![1, 2, 3]),
        why_msg: Some(vec![4, 5]),
        ..refused("pause table 1: 停电")
    };
    let accepted = AuditRecord {
        action_msg: Some(vec![9]),
        ..audit("chief:王", "resume the hall")
    };
    store.append_audit(typed.clone()).await.unwrap();
    store.append_audit(accepted.clone()).await.unwrap();
    let all = store.audit_entries().await.unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(
        all[..2],
        old[..],
        "rows of schema 3 read as they were stored"
    );
    assert_eq!(all[2].record, typed);
    assert_eq!(all[3].record, accepted);
    let offline = PgDatabase::connect(db.url(), None).await.unwrap();
    assert_eq!(offline.schema_version(), store::postgres::PG_SCHEMA_VERSION);
    assert_eq!(offline.hall("room-a").audit_entries().await.unwrap(), all);
    // Still append-only.
    let err = db
        .execute("UPDATE audit SET action_msg = NULL")
        .await
        .unwrap_err();
    assert!(err.contains("append-only"), "{err}");
    store.close_store().await;
}
