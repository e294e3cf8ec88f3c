//! Waiting for the hall as a standby server: try the hall's lock every
//! [`POLL`]; while another session holds it, say so once (log and the
//! caller's banner line), and end the holder's session when it has been
//! silent for the takeover time (the lease, `lease.rs`). Returns the
//! connection that holds the lock. A connection lost while waiting is made
//! again; the wait has no end of its own (a standby waits as long as the
//! active server serves).

use std::time::Duration;

use tokio_postgres::Client;

use super::connect::PgTarget;
use super::lease::{end_session, holder, stalled, Standby, POLL};
use super::schema::{pg_io, pg_text};
use super::writer::{is_lost, try_lock_hall};
use crate::StoreError;

/// Waits as a standby until `client` (or a connection made again) holds
/// `hall`'s lock.
pub(crate) async fn take_hall(
    target: &PgTarget,
    mut client: Client,
    hall: &str,
    standby: &Standby,
) -> Result<Client, StoreError> {
    let mut told = false;
    loop {
        match step(&client, hall, standby, &mut told).await {
            Ok(true) => {
                if told {
                    tracing::warn!(hall, "standby: the hall's lock is ours: taking over");
                }
                return Ok(client);
            }
            Ok(false) => tokio::time::sleep(POLL).await,
            Err(e) if is_lost(&e) => {
                tracing::warn!(hall, error = %pg_text(&e), "standby: lost the database connection; connecting again");
                tokio::time::sleep(Duration::from_secs(1)).await;
                match target.connect().await {
                    Ok(c) => client = c,
                    Err(e) => {
                        tracing::warn!(hall, error = %pg_text(&e), "standby: database unreachable")
                    }
                }
            }
            Err(e) => return Err(pg_io(e)),
        }
    }
}

/// One look: true when the lock is now ours.
async fn step(
    client: &Client,
    hall: &str,
    standby: &Standby,
    told: &mut bool,
) -> Result<bool, tokio_postgres::Error> {
    if try_lock_hall(client, hall).await? {
        return Ok(true);
    }
    let Some(h) = holder(client, hall).await? else {
        // Released between the two statements: try again.
        return Ok(false);
    };
    if !*told {
        *told = true;
        let line = format!(
            "standby: another server holds hall {hall} (database session {}); waiting to take over",
            h.pid
        );
        tracing::warn!("{line}");
        if let Some(f) = &standby.on_wait {
            f(&line);
        }
        if h.silent_ms.is_none() {
            tracing::warn!(
                hall,
                "standby: the holder's activity is not visible to this role (or track_activities is off): taking over only when its session ends"
            );
        }
    }
    if stalled(&h, standby.takeover_after) {
        tracing::warn!(
            hall,
            pid = h.pid,
            silent_ms = h.silent_ms,
            "standby: the active server stopped beating; ending its database session to take over"
        );
        end_session(client, h.pid).await?;
    }
    Ok(false)
}
