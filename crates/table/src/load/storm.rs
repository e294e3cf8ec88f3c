//! A connect storm for `caipan bench hall --connect-storm` (issue 40): at
//! one moment of the run every table drops its connection and connects
//! again at once (the end of a Wi-Fi outage, a round start), resending the
//! presses it had in flight (same sequence numbers and payloads, as a
//! terminal's outbox does). Reported: how long each table took to be back
//! (drop to `HelloOk`), the attempts it needed, and the acks of the presses
//! sent from the storm until the last table was back.

use super::stats::Samples;
use super::{bench_press, hello};
use proto::{ClientMsg, Connector};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// How long a table keeps trying to connect again.
const GIVE_UP_AFTER: Duration = Duration::from_secs(120);

/// Where and when the storm happens.
#[derive(Clone)]
pub struct Storm {
    pub connector: Connector,
    pub server: SocketAddr,
    /// When every table drops its connection.
    pub at: Instant,
}

/// What one table saw of the storm.
#[derive(Debug, Default)]
pub struct TableStorm {
    /// The storm reached this table (its connection was dropped).
    pub hit: bool,
    /// Drop to signed in again; `None` if it never came back.
    pub reconnect: Option<Duration>,
    /// Connection attempts it took.
    pub attempts: u64,
    /// (sent, ack latency) of each press sent from the storm on.
    pub acks: Vec<(Instant, Duration)>,
}

/// The storm's figures over all tables.
#[derive(Debug, Clone, Default)]
pub struct StormReport {
    /// Seconds into the run the storm came.
    pub at_s: f64,
    /// Tables whose connection was dropped.
    pub tables: usize,
    /// Of them, back (signed in again).
    pub reconnected: usize,
    /// Connection attempts in all (more than `tables`: refused or timed out
    /// attempts tried again).
    pub attempts: u64,
    /// Drop to signed in again, per table: p50, p99, max (the last table
    /// back: the storm's length).
    pub reconnect_p50_s: f64,
    pub reconnect_p99_s: f64,
    pub reconnect_max_s: f64,
    /// Acks of the presses sent from the storm until the last table was
    /// back (resent ones counted from their first sending).
    pub acks: usize,
    pub ack_p50_ms: f64,
    pub ack_p99_ms: f64,
    pub ack_max_ms: f64,
}

/// Drops `conn`, connects again with `token` (trying until
/// [`GIVE_UP_AFTER`]), resends the presses in flight (`(seq, sent, t_ms)`)
/// and flushes them; `false` if the table could not come back.
pub async fn rejoin(
    storm: &Storm,
    conn: &mut proto::ClientConn,
    token: &str,
    (table, epoch): (u16, u32),
    inflight: &VecDeque<super::Inflight>,
    seen: &mut TableStorm,
) -> bool {
    let dropped = Instant::now();
    seen.hit = true;
    conn.close("connect storm");
    let fresh = loop {
        seen.attempts += 1;
        match storm.connector.connect(storm.server, hello(token)).await {
            Ok(c) => break c,
            Err(_) if dropped.elapsed() < GIVE_UP_AFTER => {
                // Spread the retries (100..300 ms) so they do not come back
                // as one wave.
                let jitter = (u64::from(table) * 37 + seen.attempts * 11) % 200;
                tokio::time::sleep(Duration::from_millis(100 + jitter)).await;
            }
            Err(_) => return false,
        }
    };
    *conn = fresh;
    seen.reconnect = Some(dropped.elapsed());
    for &(seq, _, times) in inflight {
        let press = ClientMsg::Event(bench_press(table, epoch, seq, times));
        if conn.queue(&press).is_err() {
            return false;
        }
    }
    inflight.is_empty() || conn.flush().await.is_ok()
}

/// The storm's figures from every table's.
pub fn summarize(storm_at_s: f64, at: Instant, tables: &[TableStorm]) -> StormReport {
    let mut back = Samples::default();
    let mut report = StormReport {
        at_s: storm_at_s,
        ..StormReport::default()
    };
    for t in tables.iter().filter(|t| t.hit) {
        report.tables += 1;
        report.attempts += t.attempts;
        if let Some(d) = t.reconnect {
            report.reconnected += 1;
            back.push(d);
        }
    }
    report.reconnect_p50_s = back.percentile_ms(50.0) / 1000.0;
    report.reconnect_p99_s = back.percentile_ms(99.0) / 1000.0;
    report.reconnect_max_s = back.max_ms() / 1000.0;
    let until = at + Duration::from_secs_f64(report.reconnect_max_s);
    let mut acks = Samples::default();
    for (_, lat) in tables
        .iter()
        .flat_map(|t| &t.acks)
        .filter(|(sent, _)| *sent <= until)
    {
        acks.push(*lat);
    }
    report.acks = acks.len();
    report.ack_p50_ms = acks.percentile_ms(50.0);
    report.ack_p99_ms = acks.percentile_ms(99.0);
    report.ack_max_ms = acks.max_ms();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_storm_counts_the_acks_sent_until_the_last_table_was_back() {
        let at = Instant::now();
        let ms = Duration::from_millis;
        let tables = [
            TableStorm {
                hit: true,
                reconnect: Some(ms(500)),
                attempts: 1,
                acks: vec![(at, ms(600)), (at + ms(2000), ms(5))],
            },
            TableStorm {
                hit: true,
                reconnect: Some(ms(1000)),
                attempts: 3,
                acks: vec![(at + ms(900), ms(150))],
            },
            TableStorm::default(),
        ];
        let r = summarize(30.0, at, &tables);
        assert_eq!((r.tables, r.reconnected, r.attempts), (2, 2, 4));
        assert_eq!(r.reconnect_max_s, 1.0);
        // The press sent 2 s after the storm, once every table was back,
        // is not the storm's.
        assert_eq!(r.acks, 2);
        assert_eq!(r.ack_max_ms, 600.0);
    }
}
