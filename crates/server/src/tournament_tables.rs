//! Table numbers unique across a tournament's halls, checked when a hall on
//! PostgreSQL starts (一赛多厅: 台号全赛唯一). The other halls of the same
//! tournament in the database left the config copy of their last start
//! there; if a round of this hall's config uses a table number one of them
//! uses in the same round, the server refuses to start, naming the round,
//! the table and the other hall. The check is the export's
//! ([`crate::export::tournament::tables_by_round`]), run before this
//! hall's own copy is written, so a refused start leaves the database as it
//! was and the other hall's next start is not refused in turn.
//!
//! Two halls started in the same instant may both pass; the export still
//! refuses the collision then.

use crate::export::tournament::{load_configs, tables_by_round};
use config::{HallConfig, StoreConfig};
use store::{PgDatabase, StoreError};

/// Why a hall's tables are refused.
#[derive(Debug, thiserror::Error)]
pub enum TablesError {
    /// A table number of a round is in another hall of the tournament.
    #[error("{0}")]
    Collision(String),
    /// The database could not be read.
    #[error("checking table numbers against the tournament's other halls: {0}")]
    Read(String),
}

/// Checks `config`'s tables against every other hall of `store`'s
/// tournament in its database. A database without a caipan schema (or
/// with an older one, whose halls kept no config copy) has nothing to
/// check against; so has a hall that kept no copy (it is skipped).
pub async fn check(config: &HallConfig, store: &StoreConfig) -> Result<(), TablesError> {
    let read = |e: &dyn std::fmt::Display| TablesError::Read(e.to_string());
    let db = match PgDatabase::connect_existing(store.url.expose(), store.ca_file.as_deref()).await
    {
        Ok(Some(db)) => db,
        Ok(None) => return Ok(()),
        Err(StoreError::Schema { found, supported }) if found < supported => return Ok(()),
        Err(e) => return Err(read(&e)),
    };
    let others = load_configs(&db, &store.tournament)
        .await
        .map_err(|e| read(&e))?;
    let mut halls: Vec<(&str, &HallConfig)> = Vec::new();
    for (hall_id, copy) in &others {
        match copy {
            Some(c) if *hall_id != store.hall => halls.push((hall_id, c)),
            Some(_) => {}
            None => {
                tracing::warn!(hall = %hall_id, "no config copy kept: its tables are not checked")
            }
        }
    }
    halls.push((&store.hall, config));
    tables_by_round(&halls)
        .map(|_| ())
        .map_err(|e| TablesError::Collision(e.to_string()))
}
