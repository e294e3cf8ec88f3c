//! A PostgreSQL error as text and as [`StoreError`], for every module of
//! the PostgreSQL store (kept apart so that the schema's migration steps,
//! `migrate.rs`, use them without a module cycle).

use crate::StoreError;

/// An error's text with the server's message and detail when there is one.
pub fn pg_text(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => match db.detail() {
            Some(d) => format!("{}: {} ({d})", db.code().code(), db.message()),
            None => format!("{}: {}", db.code().code(), db.message()),
        },
        None => e.to_string(),
    }
}

/// A PostgreSQL error as [`StoreError::Io`].
pub fn pg_io(e: tokio_postgres::Error) -> StoreError {
    StoreError::Io(pg_text(&e))
}
