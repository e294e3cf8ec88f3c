//! Unit tests of the pipelined commit: every answer follows an fsync of the
//! WAL made through the store's VFS, a commit whose fsync failed is never
//! answered nor shown to the store's readers, and duplicates below a
//! table's high-water mark (kept in memory, reloaded on open) are still
//! told apart from conflicts and from never-stored gaps.

use super::{
    faults, AppendOutcome, AuditOutcome, AuditRecord, EventKey, LogEntry, NewEvent, OpenOptions,
    SqliteStore, Store, StoreError, StoreReader,
};

const HALL: &str = "unit-hall";

fn ev(table: u32, epoch: u32, seq: u64, payload: &[u8]) -> NewEvent {
    NewEvent {
        key: EventKey { table, epoch, seq },
        kind: "clock_press".into(),
        payload: payload.to_vec(),
        received_at_ms: 1_700_000_000_000,
    }
}

fn faulty(dir: &std::path::Path) -> (std::sync::Arc<faults::FaultPlan>, SqliteStore) {
    let plan = faults::arm(dir).unwrap();
    let mut opts = OpenOptions::new(HALL);
    opts.vfs = Some(faults::VFS_NAME.into());
    (plan, SqliteStore::open(dir, opts).unwrap())
}

#[tokio::test]
async fn every_answer_follows_a_wal_fsync_through_the_vfs() {
    let dir = tempfile::tempdir().unwrap();
    let (plan, store) = faulty(dir.path());
    for s in 1..=10 {
        let before = plan.syncs();
        let out = store.append(ev(1, 1, s, b"x")).await.unwrap();
        assert_eq!(out, AppendOutcome::Stored { gseq: s });
        assert!(
            plan.syncs() > before,
            "append {s} was answered without an fsync"
        );
    }
    let before = plan.syncs();
    store
        .append_audit(super::AuditRecord {
            who: "chief:王".into(),
            action: "pause_hall".into(),
            table: None,
            payload: b"cmd".to_vec(),
            at_ms: 1,
            outcome: super::AuditOutcome::Accepted,
            action_msg: None,
            why_msg: None,
        })
        .await
        .unwrap();
    assert!(
        plan.syncs() > before,
        "an audit entry was answered unsynced"
    );
    assert!(store.stats().syncs >= 11, "{:?}", store.stats());
}

#[tokio::test]
async fn a_commit_whose_fsync_failed_is_neither_answered_nor_shown() {
    let dir = tempfile::tempdir().unwrap();
    let (plan, store) = faulty(dir.path());
    for s in 1..=3 {
        store.append(ev(7, 1, s, b"ok")).await.unwrap();
    }
    plan.fail_syncs_after(0);
    let err = store.append(ev(7, 1, 4, b"unsynced")).await.unwrap_err();
    assert!(matches!(err, StoreError::Failed(_)), "{err}");
    // The transaction was committed to the WAL (a fresh reader finds it)
    // but never synced: the store's own reads stop at the durable horizon.
    let fresh = StoreReader::open(store.path()).unwrap();
    assert_eq!(fresh.events_for_table(7, 0).unwrap().len(), 4);
    let seen = store.events_for_table(7, 0).await.unwrap();
    assert_eq!(
        seen.iter().map(|e| e.key.seq).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(store.high_water(7, 1).await.unwrap(), Some(3));
    assert_eq!(store.reader().event_count().unwrap(), 3);
    assert_eq!(store.log_after(0).await.unwrap().len(), 3);
    // And nothing is answered any more, even when the disk heals.
    plan.heal();
    assert!(matches!(
        store.append(ev(7, 1, 5, b"later")).await,
        Err(StoreError::Failed(_))
    ));
}

#[tokio::test]
async fn duplicates_conflicts_and_gaps_around_the_high_water_mark() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
        for s in 1..=3 {
            store.append(ev(2, 1, s, b"a")).await.unwrap();
        }
        assert_eq!(
            store.append(ev(2, 1, 2, b"a")).await.unwrap(),
            AppendOutcome::Duplicate { gseq: 2 }
        );
        assert!(matches!(
            store.append(ev(2, 1, 2, b"other")).await.unwrap(),
            AppendOutcome::Conflict { gseq: 2, .. }
        ));
        // A gap: 10 is stored above the mark, then 5 below it (never
        // stored before) is stored too, not taken for a resend.
        assert_eq!(
            store.append(ev(2, 1, 10, b"a")).await.unwrap(),
            AppendOutcome::Stored { gseq: 4 }
        );
        assert_eq!(
            store.append(ev(2, 1, 5, b"a")).await.unwrap(),
            AppendOutcome::Stored { gseq: 5 }
        );
        // Another epoch of the same table has its own mark.
        assert_eq!(
            store.append(ev(2, 2, 1, b"a")).await.unwrap(),
            AppendOutcome::Stored { gseq: 6 }
        );
        // Within one batch: stored, then the same key again.
        let out = store
            .append_batch(vec![
                ev(2, 1, 11, b"b"),
                ev(2, 1, 11, b"b"),
                ev(2, 1, 11, b"c"),
            ])
            .await
            .unwrap();
        assert_eq!(out[0], AppendOutcome::Stored { gseq: 7 });
        assert_eq!(out[1], AppendOutcome::Duplicate { gseq: 7 });
        assert!(matches!(out[2], AppendOutcome::Conflict { gseq: 7, .. }));
    }
    // Reopened: the marks come back from the database.
    let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
    assert_eq!(
        store.append(ev(2, 1, 10, b"a")).await.unwrap(),
        AppendOutcome::Duplicate { gseq: 4 }
    );
    assert!(matches!(
        store.append(ev(2, 1, 5, b"z")).await.unwrap(),
        AppendOutcome::Conflict { gseq: 5, .. }
    ));
    assert_eq!(
        store.append(ev(2, 1, 7, b"a")).await.unwrap(),
        AppendOutcome::Stored { gseq: 8 }
    );
    assert_eq!(
        store.append(ev(2, 1, 12, b"a")).await.unwrap(),
        AppendOutcome::Stored { gseq: 9 }
    );
    assert_eq!(store.high_water(2, 1).await.unwrap(), Some(12));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_appenders_share_commits_and_fsyncs() {
    let dir = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap());
    let mut tasks = Vec::new();
    for t in 1..=50u32 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            for s in 1..=20 {
                let out = store.append(ev(t, 1, s, b"p")).await.unwrap();
                assert!(matches!(out, AppendOutcome::Stored { .. }));
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let stats = store.stats();
    assert_eq!(stats.rows, 1000);
    assert!(stats.commits < 1000, "{stats:?}");
    assert!(stats.syncs <= stats.commits, "{stats:?}");
    assert_eq!(store.reader().event_count().unwrap(), 1000);
}

fn audit(action: &str) -> super::AuditRecord {
    super::AuditRecord {
        who: "chief:王".into(),
        action: action.into(),
        table: None,
        payload: b"cmd".to_vec(),
        at_ms: 1,
        outcome: super::AuditOutcome::Accepted,
        action_msg: None,
        why_msg: None,
    }
}

/// Published rounds are a record of their own (schema 2): listed because
/// the writer recorded them, whatever their action says; a store of
/// schema 1 (release 6) gets its published rounds indexed from its audit
/// trail when a server opens it, and a reader of such a store not yet
/// migrated finds them too.
#[tokio::test]
async fn published_rounds_are_their_own_record_and_a_schema_1_store_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
        store.append_audit(audit("pause_hall")).await.unwrap();
        // The text alone does not make a published round any more.
        store
            .append_audit(audit("publish round 9 (a note that reads like one)"))
            .await
            .unwrap();
        let id = store
            .append_published(audit("publish round 2 (4 boards)"), 2)
            .await
            .unwrap();
        let listed = store.published_rounds().await.unwrap();
        assert_eq!(listed.iter().map(|e| e.id).collect::<Vec<_>>(), [id]);
        assert_eq!(listed[0].record, audit("publish round 2 (4 boards)"));
        store.close().await;
    }
    // Make it a schema-1 store as release 6 wrote it: no published_rounds,
    // a publication only in the audit trail.
    {
        let c = rusqlite::Connection::open(dir.path().join(crate::DB_FILE)).unwrap();
        c.execute_batch(
            "DROP TABLE published_rounds;
             UPDATE meta SET value = '1' WHERE key = 'schema_version';
             INSERT INTO audit (id, who, action, table_no, payload, at_ms, outcome, why)
             VALUES (10, 'chief:王', 'publish round 3 (4 boards, xiangqi, seed 1)', NULL, x'00', 1, 'accepted', NULL),
                    (11, 'chief:王', 'publish round 4 (refused)', NULL, x'00', 1, 'refused', 'no');",
        )
        .unwrap();
    }
    let file = dir.path().join(crate::DB_FILE);
    let before = StoreReader::open(&file)
        .unwrap()
        .published_rounds()
        .unwrap();
    assert_eq!(
        before.iter().map(|e| e.id).collect::<Vec<_>>(),
        [2, 3, 10],
        "a schema-1 store read by the legacy rule"
    );
    let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
    let after = store.published_rounds().await.unwrap();
    assert_eq!(
        after.iter().map(|e| e.id).collect::<Vec<_>>(),
        [2, 3, 10],
        "schema 1 -> 2 indexes what release 6 published"
    );
    let version: String = rusqlite::Connection::open(&file)
        .unwrap()
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, crate::schema::SCHEMA_VERSION.to_string());
    // And the index is append-only like the audit trail.
    let c = rusqlite::Connection::open(&file).unwrap();
    assert!(c.execute("DELETE FROM published_rounds", []).is_err());
}

/// The audit trail's typed messages (schema 3, issue 33): a row written
/// with them reads back with them; a store of schema 2 (releases 7 to 9)
/// is read as it is by a reader (no typed messages) and migrated by a
/// server, its rows kept as they were (NULL typed messages, their text
/// as stored), and the trail stays append-only.
#[tokio::test]
async fn typed_audit_rows_round_trip_and_a_schema_2_store_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(crate::DB_FILE);
    // A schema-2 store as release 9 wrote it.
    {
        let c = rusqlite::Connection::open(&file).unwrap();
        c.execute_batch(crate::schema::SCHEMA).unwrap();
        c.execute_batch(&format!(
            "INSERT INTO meta (key, value) VALUES ('schema_version', '2'), ('hall_id', '{HALL}'),
                                                   ('created_at_ms', '1');
             INSERT INTO audit (id, who, action, table_no, payload, at_ms, outcome, why)
             VALUES (1, 'chief:王', 'pause table 3: 停电', 3, x'00', 1, 'accepted', NULL),
                    (2, 'viewer:x', 'resume the hall', NULL, x'00', 2, 'refused', 'a viewer only reads');"
        ))
        .unwrap();
    }
    let old = StoreReader::open(&file).unwrap().audit_entries().unwrap();
    assert_eq!(old.len(), 2);
    assert_eq!(old[0].record.action, "pause table 3: 停电");
    assert!(old
        .iter()
        .all(|e| e.record.action_msg.is_none() && e.record.why_msg.is_none()));
    let store = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
    let typed = AuditRecord {
        outcome: AuditOutcome::Refused {
            why: "a viewer only reads".into(),
        },
        action_msg: Some(vec![1, 2, 3]),
        why_msg: Some(vec![4, 5]),
        ..audit("pause table 3: 停电")
    };
    let id = store.append_audit(typed.clone()).await.unwrap();
    let accepted = AuditRecord {
        action_msg: Some(vec![9]),
        ..audit("resume the hall")
    };
    store.append_audit(accepted.clone()).await.unwrap();
    let all = store.audit_entries().await.unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(all[0], old[0], "a row of schema 2 reads as it was stored");
    assert_eq!(all[1], old[1]);
    assert_eq!(all[2].id, id);
    assert_eq!(all[2].record, typed);
    assert_eq!(all[3].record, accepted);
    // The replay log and a fresh reader see the same rows.
    let log: Vec<AuditRecord> = store
        .log_after(0)
        .await
        .unwrap()
        .into_iter()
        .filter_map(|e| match e {
            LogEntry::Audit(a) => Some(a.record),
            LogEntry::Event(_) => None,
        })
        .collect();
    assert_eq!(
        log,
        all.iter().map(|e| e.record.clone()).collect::<Vec<_>>()
    );
    store.close().await;
    drop(store);
    let c = rusqlite::Connection::open(&file).unwrap();
    let version: String = c
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, crate::schema::SCHEMA_VERSION.to_string());
    assert!(c
        .execute("UPDATE audit SET action_msg = x'00' WHERE id = 1", [])
        .is_err());
    assert_eq!(
        StoreReader::open(&file).unwrap().audit_entries().unwrap(),
        all
    );
    // Opened again: already schema 3, nothing to migrate.
    let again = SqliteStore::open(dir.path(), OpenOptions::new(HALL)).unwrap();
    assert_eq!(again.audit_entries().await.unwrap(), all);
}
