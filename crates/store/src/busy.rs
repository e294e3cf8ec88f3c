//! Fine-grained waits for a SQLite lock (issue 40).
//!
//! SQLite's own busy handler (`sqlite3_busy_timeout`) sleeps 1, 2, 5, 10,
//! 15, 20, 25 … ms between tries. The writer and the checkpointer meet at
//! one lock: the settling FULL checkpoint (`checkpointer.rs`) must take
//! the WAL's write lock in a gap between the writer's transactions, and
//! the writer then waits while the checkpoint copies its last pages. With
//! those steps each side overslept the other: at 10,000 tables × 1
//! press/s the settle took 19-22 ms (1 + 2 + 5 + 10 ms of sleeps before
//! it found a gap) and the writer's next commit 34-44 ms (sleeping in
//! steps while the checkpoint held the lock for a few), a second whose
//! acks' p99 went to 25-57 ms every few seconds. Here a waiter tries
//! again every [`FINE_STEP`] for the first [`FINE_FOR`], then every
//! millisecond, until its timeout.

use std::time::Duration;

/// The pause between tries while a wait is young.
pub(crate) const FINE_STEP: Duration = Duration::from_micros(100);

/// How long a wait tries every [`FINE_STEP`] before every millisecond.
pub(crate) const FINE_FOR: Duration = Duration::from_millis(50);

/// The pause between tries once a wait is older than [`FINE_FOR`].
pub(crate) const COARSE_STEP: Duration = Duration::from_millis(1);

/// Tries every [`FINE_STEP`] (the sleeps' nominal time, not the clock:
/// SQLite counts tries).
const FINE_TRIES: i32 = (FINE_FOR.as_micros() / FINE_STEP.as_micros()) as i32;

/// The pause before try `n + 1` of a wait of at most `timeout` (by the
/// sleeps' nominal sum), or `None` once it is spent.
pub(crate) fn pause(n: i32, timeout: Duration) -> Option<Duration> {
    let n = u32::try_from(n).ok()?;
    let fine = u32::try_from(FINE_TRIES).unwrap_or(0);
    let slept = if n <= fine {
        FINE_STEP * n
    } else {
        FINE_FOR + COARSE_STEP * (n - fine)
    };
    if slept >= timeout {
        return None;
    }
    Some(if n < fine { FINE_STEP } else { COARSE_STEP })
}

/// Installs the fine-grained busy handler with a 5-second timeout (the
/// writer's, [`crate::schema::configure_writer`]).
pub(crate) fn five_seconds(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    fn handler(n: i32) -> bool {
        wait(n, Duration::from_secs(5))
    }
    conn.busy_handler(Some(handler))
}

/// Installs the fine-grained busy handler with a 100-ms timeout (the
/// checkpointer's settle).
pub(crate) fn settle_wait(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    fn handler(n: i32) -> bool {
        wait(n, Duration::from_millis(100))
    }
    conn.busy_handler(Some(handler))
}

fn wait(n: i32, timeout: Duration) -> bool {
    match pause(n, timeout) {
        Some(d) => {
            std::thread::sleep(d);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tries' pauses: fine while young, never longer than a
    /// millisecond, and their sum the timeout (to a step).
    #[test]
    fn pauses_are_fine_then_a_millisecond_and_end_at_the_timeout() {
        for timeout in [Duration::from_millis(100), Duration::from_secs(5)] {
            let mut total = Duration::ZERO;
            let mut n = 0;
            while let Some(d) = pause(n, timeout) {
                assert!(d <= COARSE_STEP, "try {n}: {d:?}");
                if total < FINE_FOR {
                    assert_eq!(d, FINE_STEP, "try {n}");
                }
                total += d;
                n += 1;
                assert!(n < 1_000_000, "a wait that never ends");
            }
            assert!(total >= timeout, "{total:?} < {timeout:?}");
            assert!(total <= timeout + COARSE_STEP, "{total:?} for {timeout:?}");
        }
        assert_eq!(pause(-1, Duration::from_secs(1)), None);
        assert_eq!(pause(0, Duration::ZERO), None);
    }

    /// A writer waits for another connection's write transaction and gets
    /// the lock once it ends (not a BUSY error, not a sleep past the
    /// timeout): the handler is SQLite's busy handler in fact.
    #[test]
    fn a_second_writer_waits_for_the_first_and_then_writes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("busy.db");
        let a = rusqlite::Connection::open(&path).expect("open");
        a.execute_batch("PRAGMA journal_mode=WAL; CREATE TABLE t (x INTEGER);")
            .expect("schema");
        let b = rusqlite::Connection::open(&path).expect("open");
        five_seconds(&b).expect("handler");
        a.execute_batch("BEGIN IMMEDIATE; INSERT INTO t VALUES (1);")
            .expect("a holds the write lock");
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            tx.send(()).expect("send");
            b.execute("INSERT INTO t VALUES (2)", [])
        });
        rx.recv().expect("started");
        std::thread::sleep(Duration::from_millis(30));
        a.execute_batch("COMMIT").expect("commit");
        assert_eq!(waiter.join().expect("joins").expect("b wrote"), 1);
        let n: i64 = a
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .expect("count");
        assert_eq!(n, 2);
    }
}
