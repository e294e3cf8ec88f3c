//! Saving a cut's rows: a few at a time, and a large cut spread out.
//!
//! The store's writer takes its queue in order and groups what waits into
//! one transaction, so a whole cut queued at once (a thousand rows,
//! megabytes) became one large transaction that every table event queued
//! behind it waited for (the 1,000-table rate-1 bench on PostgreSQL: ack
//! p99 49 ms, max 240 ms, at the cut). [`ROWS_IN_FLIGHT`] rows at a time
//! keep each transaction small and let events in between.
//!
//! A large cut (at least [`PACED_FROM_ROWS`] table rows) is also spread
//! over time (issue 40): at 10,000 tables × 1 press/s a cut of every
//! table's row saved as fast as the writer took it kept a save running
//! nearly all the time, and the acks queued behind its rows and the WAL
//! checkpoints it caused by seconds. Its rows go out evenly over
//! [`pace_for`] — half the time since the cut before (or since the server
//! started), at least [`PACED_ROWS_PER_SECOND`]'s worth, at most
//! [`MAX_PACE`] — so the next cut (due after as many records again)
//! finds it done. The first cut of a run saved unpaced (10,000 rows in
//! 0.8-1.1 s) once held the acks behind it for 3 s. A shutdown hurries a paced save (the flag given to
//! [`save_rows_paced`]): its rows then go as fast as they can.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use store::{Snapshot, Store};

/// Table rows of a cut in flight at once.
pub const ROWS_IN_FLIGHT: usize = 8;

/// A cut of at least this many table rows is spread over time.
pub const PACED_FROM_ROWS: usize = 2_000;

/// The longest a paced save is spread over.
pub const MAX_PACE: Duration = Duration::from_secs(60);

/// The most table rows a paced save writes a second (a cut of 10,000
/// rows takes at least 5 s).
pub const PACED_ROWS_PER_SECOND: u32 = 2_000;

/// How long to spread a cut of `table_rows` rows over, taken `since_last`
/// after the cut before (or after the server started): half that time,
/// at least [`PACED_ROWS_PER_SECOND`]'s worth, at most [`MAX_PACE`].
pub fn pace_for(table_rows: usize, since_last: Duration) -> Option<Duration> {
    if table_rows < PACED_FROM_ROWS {
        return None;
    }
    let rows = u32::try_from(table_rows).unwrap_or(u32::MAX);
    let least = Duration::from_secs(1) * rows / PACED_ROWS_PER_SECOND;
    Some((since_last / 2).max(least).min(MAX_PACE))
}

/// Saves the rows of a cut as fast as the store takes them: the table
/// rows, [`ROWS_IN_FLIGHT`] at a time, then the hall row. False when any
/// failed.
pub async fn save_rows(store: Arc<dyn Store>, rows: Vec<Snapshot>) -> bool {
    save_rows_paced(store, rows, None, &AtomicBool::new(false)).await
}

/// [`save_rows`], the table rows spread evenly over `pace` (if any) until
/// `hurry` is set. The hall row goes last, after every table row is saved:
/// a cut is complete only then.
pub async fn save_rows_paced(
    store: Arc<dyn Store>,
    mut rows: Vec<Snapshot>,
    pace: Option<Duration>,
    hurry: &AtomicBool,
) -> bool {
    let Some(hall_row) = rows.pop() else {
        return true;
    };
    let n = rows.len();
    let t0 = Instant::now();
    let span = store::markers::Span::start("snapshot_saved");
    let mut set = tokio::task::JoinSet::new();
    let mut ok = true;
    for (i, r) in rows.into_iter().enumerate() {
        if let Some(pace) = pace {
            let due = t0 + pace.mul_f64(i as f64 / n as f64);
            if !hurry.load(Ordering::Acquire) && due > Instant::now() {
                tokio::time::sleep_until(due.into()).await;
            }
        }
        if set.len() >= ROWS_IN_FLIGHT {
            if let Some(res) = set.join_next().await {
                ok &= matches!(res, Ok(Ok(())));
            }
        }
        let s = store.clone();
        set.spawn(async move { s.save_snapshot(r).await });
    }
    while let Some(res) = set.join_next().await {
        ok &= matches!(res, Ok(Ok(())));
    }
    let upto = hall_row.upto_gseq;
    if ok {
        ok = store.save_snapshot(hall_row).await.is_ok();
    }
    span.end(n as u64);
    if ok {
        tracing::debug!(
            tables = n,
            upto_gseq = upto,
            ms = t0.elapsed().as_millis() as u64,
            paced_ms = pace.map(|p| p.as_millis() as u64),
            "snapshot saved"
        );
    } else {
        tracing::warn!(
            upto_gseq = upto,
            "snapshot not saved; the next cut writes every table again"
        );
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_large_cut_is_paced_over_half_the_time_since_the_last() {
        let s = Duration::from_secs;
        assert_eq!(pace_for(PACED_FROM_ROWS - 1, s(30)), None);
        assert_eq!(pace_for(PACED_FROM_ROWS, s(30)), Some(s(15)));
        assert_eq!(pace_for(PACED_FROM_ROWS, Duration::ZERO), Some(s(1)));
        assert_eq!(pace_for(10_000, Duration::ZERO), Some(s(5)));
        assert_eq!(pace_for(10_000, s(4)), Some(s(5)));
        assert_eq!(pace_for(10_000, s(600)), Some(MAX_PACE));
        assert_eq!(pace_for(usize::MAX, s(1)), Some(MAX_PACE));
    }
}
