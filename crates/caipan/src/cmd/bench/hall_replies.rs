//! `caipan bench hall`: how long the server itself took to answer the
//! tables' events over the load (`server::reply_time`: from a burst's
//! place in the committer's queue to the committer's answer, and to its
//! replies in the writer's hand), beside the ack time the tables
//! measured. Read from this process's counts when the server runs in it,
//! from the child's figures (`caipan::memstats`) when it is a child; the
//! load's share is the difference of the readings before and after it.
//!
//! A table's ack time less the reply time is what the server's part does
//! not explain: the sockets' queues, the QUIC thread's turn, the network
//! and the table's own wait for a CPU. The reply time less the answer
//! time is the writer task's wait to be woken and run.

use server::reply_time::{percentile_ms, since, total, ANSWER_TIMES, REPLY_TIMES};

/// The two histograms' counts, bucket by bucket.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Queued to the replies in the writer's hand.
    pub replied: Vec<u64>,
    /// Queued to the committer's answer.
    pub answered: Vec<u64>,
}

/// This process's counts now (an in-process server's).
pub fn here() -> Counts {
    Counts {
        replied: REPLY_TIMES.counts(),
        answered: ANSWER_TIMES.counts(),
    }
}

/// What was counted between `before` and `after`.
pub fn over(before: &Counts, after: &Counts) -> Counts {
    Counts {
        replied: since(&after.replied, &before.replied),
        answered: since(&after.answered, &before.answered),
    }
}

fn percentiles(counts: &[u64]) -> serde_json::Value {
    serde_json::json!({
        "events": total(counts),
        "p50": percentile_ms(counts, 50.0),
        "p99": percentile_ms(counts, 99.0),
        "max": percentile_ms(counts, 100.0),
    })
}

/// The load's figures as JSON: events counted, p50, p99 and max in ms of
/// the reply time, and the same of the answer time under `committed`
/// (each the upper bound of its bucket, at most an eighth over).
pub fn json(c: &Counts) -> serde_json::Value {
    let mut v = percentiles(&c.replied);
    v["committed"] = percentiles(&c.answered);
    v
}

/// The text output's line, if anything was counted.
pub fn line(c: &Counts) -> Option<String> {
    let p = |counts: &[u64], q| percentile_ms(counts, q);
    Some(format!(
        "p50 {:.2}  p99 {:.2}  max {:.2}  ({} events; committed p50 {:.2}  p99 {:.2})",
        p(&c.replied, 50.0)?,
        p(&c.replied, 99.0)?,
        p(&c.replied, 100.0)?,
        total(&c.replied),
        p(&c.answered, 50.0)?,
        p(&c.answered, 99.0)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use server::reply_time::{bucket, BUCKETS};

    #[test]
    fn the_loads_share_is_the_difference_of_two_readings() {
        let mut before = Counts {
            replied: vec![0u64; BUCKETS],
            answered: vec![0u64; BUCKETS],
        };
        before.replied[bucket(900)] = 5;
        before.answered[bucket(800)] = 5;
        let mut after = before.clone();
        after.replied[bucket(3_000)] += 99;
        after.replied[bucket(40_000)] += 1;
        after.answered[bucket(2_000)] += 100;
        let load = over(&before, &after);
        let v = json(&load);
        assert_eq!(v["events"], 100);
        let p50 = v["p50"].as_f64().unwrap_or(0.0);
        assert!((3.0..3.4).contains(&p50), "p50 {p50}");
        let max = v["max"].as_f64().unwrap_or(0.0);
        assert!((40.0..45.1).contains(&max), "max {max}");
        assert_eq!(v["committed"]["events"], 100);
        let c99 = v["committed"]["p99"].as_f64().unwrap_or(0.0);
        assert!((2.0..2.3).contains(&c99), "committed p99 {c99}");
        assert!(line(&load).is_some_and(|l| l.contains("(100 events;")));
        let none = over(&before, &before);
        assert_eq!(line(&none), None);
        assert_eq!(json(&none)["p99"], serde_json::Value::Null);
    }
}
