//! The hall's lease between its active server and a standby (README "A
//! standby server").
//!
//! Who is active is decided by the hall's session advisory lock, held by
//! the writer's connection, through which every commit goes. A lock alone
//! does not notice a server that stalls: a SIGSTOPped process keeps its TCP
//! connection, and so its lock, for as long as it is stopped. So the active
//! server also *beats*: its writer sends a statement through the
//! lock-holding connection every [`BEAT`], which PostgreSQL records as that
//! session's `pg_stat_activity.state_change`. A standby waits for the lock
//! and watches the holder's session: silent for [`Standby::takeover_after`]
//! (and not running a statement), the holder is taken for stalled; the
//! standby ends its session (`pg_terminate_backend`, which releases the
//! lock and rolls back anything in flight) and takes the lock. A stalled
//! server that resumes finds its connection gone and the lock held by
//! another session: its writer fails, it acknowledges nothing more and
//! stops.
//!
//! No table is written for the beat: the database's own view of its
//! sessions is the record (it needs `track_activities`, on by default, and
//! both servers connecting as the same role, or the standby's role having
//! `pg_read_all_stats` and `pg_signal_backend`).

use std::sync::Arc;
use std::time::Duration;

use tokio_postgres::Client;

/// How often the active server beats.
pub const BEAT: Duration = Duration::from_secs(1);

/// How often a standby looks at the lock and its holder.
pub const POLL: Duration = Duration::from_millis(200);

/// Called with a line to show (the standby's banner).
pub type Notify = Arc<dyn Fn(&str) + Send + Sync>;

/// How a server waits for its hall when another server holds it.
#[derive(Clone)]
pub struct Standby {
    /// The holder's session silent this long: it is ended and the hall
    /// taken over (default 5 s: five missed beats).
    pub takeover_after: Duration,
    /// Told once, when the server starts waiting (a line for its banner).
    pub on_wait: Option<Notify>,
}

impl Default for Standby {
    fn default() -> Self {
        Standby {
            takeover_after: Duration::from_secs(5),
            on_wait: None,
        }
    }
}

impl std::fmt::Debug for Standby {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Standby")
            .field("takeover_after", &self.takeover_after)
            .finish_non_exhaustive()
    }
}

/// The session holding a hall's lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holder {
    /// Its backend's process id.
    pub pid: i32,
    /// Milliseconds since its last statement began or ended (`None`: not
    /// visible to this role, or `track_activities` is off).
    pub silent_ms: Option<i64>,
    /// It is running a statement now.
    pub running: bool,
}

/// The session holding `hall`'s lock in this database, if any.
pub async fn holder(client: &Client, hall: &str) -> Result<Option<Holder>, tokio_postgres::Error> {
    let row = client
        .query_opt(
            "SELECT l.pid,
                    (EXTRACT(EPOCH FROM clock_timestamp() - a.state_change) * 1000)::int8,
                    coalesce(a.state = 'active', false)
             FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
               AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
               AND ((l.classid::int8 << 32) | l.objid::int8)
                   = hashtextextended('caipan hall ' || $1, 0)
             LIMIT 1",
            &[&hall],
        )
        .await?;
    Ok(row.map(|r| Holder {
        pid: r.get(0),
        silent_ms: r.get(1),
        running: r.get(2),
    }))
}

/// Ends the session `pid` (its lock is released, its open transaction
/// rolled back); true when it was signalled.
pub async fn end_session(client: &Client, pid: i32) -> Result<bool, tokio_postgres::Error> {
    let row = client
        .query_one("SELECT pg_terminate_backend($1)", &[&pid])
        .await?;
    Ok(row.get(0))
}

/// This connection's backend process id.
pub async fn own_pid(client: &Client) -> Result<i32, tokio_postgres::Error> {
    Ok(client
        .query_one("SELECT pg_backend_pid()", &[])
        .await?
        .get(0))
}

/// Whether a standby should take over from `h`.
pub fn stalled(h: &Holder, takeover_after: Duration) -> bool {
    let limit = i64::try_from(takeover_after.as_millis()).unwrap_or(i64::MAX);
    !h.running && h.silent_ms.is_some_and(|ms| ms >= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_silent_idle_holder_is_stalled() {
        let five = Duration::from_secs(5);
        let h = |silent_ms, running| Holder {
            pid: 7,
            silent_ms,
            running,
        };
        assert!(stalled(&h(Some(5_000), false), five));
        assert!(!stalled(&h(Some(4_999), false), five));
        assert!(
            !stalled(&h(Some(60_000), true), five),
            "a long statement is not a stall"
        );
        assert!(!stalled(&h(None, false), five), "unseen: never taken over");
    }
}
