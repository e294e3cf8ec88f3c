//! The hall record an end-to-end test runs on: the SQLite store in the data
//! dir, or a fresh PostgreSQL database (`[store]` in the hall config). A
//! test body written once as `async fn name(store: TestStore)` and listed
//! in [`on_both_stores!`](crate::on_both_stores) runs twice: `name::sqlite`
//! and `name::postgres` (a loud skip without PostgreSQL, a failure with
//! `CI` set; see `store::postgres::cluster`).

use std::path::Path;

use server::RunningServer;
use store::postgres::cluster::{test_database, TestDatabase};
use store::{AuditEntry, PgDatabase, StoreReader};

use super::{hall, Hall};

/// The hall id of a test hall on PostgreSQL.
pub const PG_HALL: &str = "room-a";
/// The tournament id of a test hall on PostgreSQL.
pub const PG_TOURNAMENT: &str = "test-tournament";

/// Where a test hall keeps its record.
pub enum TestStore {
    /// `hall.db` in the data dir.
    Sqlite,
    /// A database of its own (dropped with this value), as hall
    /// [`PG_HALL`] of tournament [`PG_TOURNAMENT`].
    Postgres(TestDatabase),
}

impl TestStore {
    /// A fresh PostgreSQL database for test `tag`, or `None` after a loud
    /// skip where there is no PostgreSQL.
    pub async fn postgres(tag: &str) -> Option<TestStore> {
        test_database(tag).await.map(TestStore::Postgres)
    }

    /// `h` with its record on this store.
    pub fn put(&self, h: Hall) -> Hall {
        match self {
            TestStore::Sqlite => h,
            TestStore::Postgres(db) => h.on_postgres(db.url(), PG_HALL, PG_TOURNAMENT),
        }
    }

    /// The standard test hall ([`hall`]) on this store, on a free port.
    pub fn hall(&self) -> Hall {
        self.put(hall("127.0.0.1:0"))
    }

    /// The standard test hall's config text.
    pub fn config_text(&self) -> String {
        self.hall().toml()
    }

    /// An in-process server for the standard test hall, data in `dir/data`.
    pub async fn start(&self, dir: &Path) -> RunningServer {
        self.hall().start(dir).await
    }

    /// The hall's audit trail as stored (the server stopped or running).
    pub async fn audit_entries(&self, dir: &Path) -> Vec<AuditEntry> {
        match self {
            TestStore::Sqlite => StoreReader::open_dir(&dir.join("data"))
                .expect("the store in the data dir")
                .audit_entries()
                .expect("audit entries"),
            TestStore::Postgres(db) => PgDatabase::connect(db.url(), None)
                .await
                .expect("the test database")
                .hall(PG_HALL)
                .audit_entries()
                .await
                .expect("audit entries"),
        }
    }
}

/// Runs each listed test body, `async fn name(store: TestStore)`, on
/// SQLite (`name::sqlite`) and on PostgreSQL (`name::postgres`).
#[macro_export]
macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name($crate::support::stores::TestStore::Sqlite).await
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let tag = stringify!($name);
                if let Some(store) = $crate::support::stores::TestStore::postgres(tag).await {
                    super::$name(store).await
                }
            }
        }
    )*};
}
