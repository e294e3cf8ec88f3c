//! The store under test, SQLite or PostgreSQL, behind one face, so that
//! one test body runs against both ([`both_stores!`] writes a `sqlite` and
//! a `postgres` test for each body). The PostgreSQL side gets a fresh
//! database per test (`store::postgres::cluster::test_database`):
//! without PostgreSQL it is skipped loudly, or fails when `CI` is set.

use std::sync::Arc;

use store::postgres::cluster::{test_database, TestDatabase};
use store::{OpenOptions, PgOptions, PgStore, SqliteStore, Store, StoreError, StoreStats, DB_FILE};

/// The hall id the tests use.
pub const HALL: &str = "test-hall-0001";

/// Where the store lives.
pub enum Backend {
    /// A data dir.
    Sqlite(tempfile::TempDir),
    /// A fresh database.
    Postgres(TestDatabase),
}

/// An open store and its counters.
pub struct Opened {
    /// The store.
    pub store: Arc<dyn Store>,
    stats: Box<dyn Fn() -> StoreStats + Send + Sync>,
}

impl Opened {
    /// The writer's counters.
    pub fn stats(&self) -> StoreStats {
        (self.stats)()
    }
}

impl std::ops::Deref for Opened {
    type Target = dyn Store;
    fn deref(&self) -> &Self::Target {
        &*self.store
    }
}

impl Backend {
    /// A SQLite data dir.
    pub async fn sqlite() -> Option<Backend> {
        Some(Backend::Sqlite(tempfile::tempdir().ok()?))
    }

    /// A PostgreSQL database, or `None` (skipped) without PostgreSQL.
    pub async fn postgres(tag: &str) -> Option<Backend> {
        test_database(tag).await.map(Backend::Postgres)
    }

    /// Opens the store of [`HALL`].
    pub async fn open(&self) -> Opened {
        self.open_hall(HALL).await.expect("open the store")
    }

    /// Opens the store of `hall`.
    pub async fn open_hall(&self, hall: &str) -> Result<Opened, StoreError> {
        match self {
            Backend::Sqlite(dir) => {
                let s = Arc::new(SqliteStore::open(dir.path(), OpenOptions::new(hall))?);
                let c = s.clone();
                Ok(Opened {
                    store: s,
                    stats: Box::new(move || c.stats()),
                })
            }
            Backend::Postgres(db) => {
                let s = Arc::new(PgStore::open(db.url(), PgOptions::new(hall)).await?);
                let c = s.clone();
                Ok(Opened {
                    store: s,
                    stats: Box::new(move || c.stats()),
                })
            }
        }
    }

    /// Closes a store (waits for its writer) so that it can be reopened.
    pub async fn close(&self, opened: Opened) {
        opened.store.close().await;
        drop(opened);
    }

    /// Runs `sql` around the store, as the file's or database's owner.
    pub async fn tamper(&self, sql: &str) -> Result<(), String> {
        match self {
            Backend::Sqlite(dir) => {
                let conn = rusqlite::Connection::open(dir.path().join(DB_FILE))
                    .map_err(|e| e.to_string())?;
                conn.execute(sql, []).map(|_| ()).map_err(|e| e.to_string())
            }
            Backend::Postgres(db) => db.execute(sql).await,
        }
    }
}

/// For each `body(&Backend)` named, a test `sqlite::body` and a test
/// `postgres::body`.
#[macro_export]
macro_rules! both_stores {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let b = $crate::support::backend::Backend::sqlite().await.expect("temp dir");
                    super::$name(&b).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(b) = $crate::support::backend::Backend::postgres(stringify!($name)).await else {
                        return;
                    };
                    super::$name(&b).await;
                }
            )*
        }
    };
}
