//! Large reads (大件读取): a table's log served from a cache of encoded
//! frames, and a pace per principal for the reads that send a lot (table
//! logs and hall snapshots).
//!
//! A table's log is built from the hall's index by table (no scan of the
//! audit trail) under the hall lock only when the table's log changed
//! ([`Hall::table_log_version`]); it is encoded once, and every request
//! until the next change gets the same shared frame (an `Arc`, not a
//! copy). The cache is bounded in bytes ([`CACHE_BYTES`]). The public
//! display's copy (a viewer's: clocks, no audit trail, [`crate::viewer`])
//! is cached apart, so a viewer is never served the arbiters' copy.
//!
//! The pace is a token bucket per principal (all its connections
//! together): [`READ_BURST`] reads at once, then [`READS_PER_S`] a second.
//! A read past it is not refused: the connection's reader waits, reading
//! nothing meanwhile, so the peer is slowed by QUIC flow control.
//!
//! Subscriptions have a pace of their own, tighter: each one costs a
//! picture of the whole hall and its snapshot ([`SUBSCRIBE_BURST`] at once,
//! then one every [`SUBSCRIBE_EVERY_S`] s per principal). A subscription
//! past it is refused with the time to wait ([`subscribe_refusal`]), so a
//! principal whose connections keep being closed for not reading (and come
//! back, and subscribe again) cannot have the hall pictured many times a
//! second.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use proto::frame::{encode_frame, FrameError};
use proto::ServerMsg;

use crate::publish::Frame;
use hall::hall::Hall;

/// Table-log and snapshot reads per principal per second, once its burst
/// is spent.
pub const READS_PER_S: f64 = 50.0;
/// Reads a principal may make at once.
pub const READ_BURST: f64 = 100.0;
/// Subscriptions a principal may make at once (one per connection a
/// console token holds by default, `connections_per_token`).
pub const SUBSCRIBE_BURST: f64 = 8.0;
/// Seconds between a principal's subscriptions once its burst is spent.
pub const SUBSCRIBE_EVERY_S: f64 = 5.0;
/// Most bytes of encoded table logs kept.
pub const CACHE_BYTES: usize = 4 * 1024 * 1024;

/// A table's log as an encoded frame, or why not.
#[derive(Debug)]
pub enum LogFrame {
    /// The `TableLog` reply, shared.
    Frame(Frame),
    /// The table is not one of the round's.
    NoTable,
    /// The log does not fit in a frame.
    TooLarge(FrameError),
}

#[derive(Debug, Default)]
struct Cache {
    logs: HashMap<(u16, bool), ((u64, u64), Frame)>,
    bytes: usize,
}

/// Encoded table logs, by table.
#[derive(Debug, Default)]
pub struct TableLogs {
    cache: Mutex<Cache>,
}

impl TableLogs {
    /// Table `table`'s log: from the cache while the table's log is
    /// unchanged, else built (under the hall lock, through the index) and
    /// encoded once. Locks `hall` then the cache, never the other way.
    /// `public`: the viewer's copy ([`crate::viewer::table_log`]).
    pub fn get(&self, hall: &Mutex<Hall>, table: u16, public: bool) -> LogFrame {
        let key = (table, public);
        let log = {
            let Ok(h) = hall.lock() else {
                return LogFrame::NoTable;
            };
            let Some(version) = h.table_log_version(table) else {
                return LogFrame::NoTable;
            };
            if let Some(f) = self.cached(key, version) {
                return LogFrame::Frame(f);
            }
            match h.table_log(table) {
                Some(log) if public => (version, crate::viewer::table_log(log)),
                Some(log) => (version, log),
                None => return LogFrame::NoTable,
            }
        };
        let (version, log) = log;
        let frame = match encode_frame(&ServerMsg::TableLog(log)) {
            Ok(f) => Arc::new(f),
            Err(e) => return LogFrame::TooLarge(e),
        };
        self.keep(key, version, frame.clone());
        LogFrame::Frame(frame)
    }

    fn cached(&self, key: (u16, bool), version: (u64, u64)) -> Option<Frame> {
        let cache = self.cache.lock().ok()?;
        match cache.logs.get(&key) {
            Some((v, f)) if *v == version => Some(f.clone()),
            _ => None,
        }
    }

    fn keep(&self, key: (u16, bool), version: (u64, u64), frame: Frame) {
        let Ok(mut cache) = self.cache.lock() else {
            return;
        };
        if frame.len() > CACHE_BYTES {
            return;
        }
        if let Some((v, old)) = cache.logs.get(&key) {
            // A newer version got there first: keep it.
            if *v > version {
                return;
            }
            let n = old.len();
            cache.bytes -= n;
        }
        while cache.bytes + frame.len() > CACHE_BYTES {
            let Some(&t) = cache.logs.keys().next() else {
                break;
            };
            if let Some((_, f)) = cache.logs.remove(&t) {
                cache.bytes -= f.len();
            }
        }
        cache.bytes += frame.len();
        cache.logs.insert(key, (version, frame));
    }

    /// Bytes of encoded logs kept.
    pub fn bytes(&self) -> usize {
        self.cache.lock().map(|c| c.bytes).unwrap_or(0)
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// A pace per principal: a token bucket of `burst` tokens refilled at
/// `per_s` a second.
#[derive(Debug)]
pub struct Pace {
    burst: f64,
    per_s: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Pace {
    /// The pace of table-log and snapshot reads.
    pub fn reads() -> Pace {
        Pace::new(READ_BURST, READS_PER_S)
    }

    /// The pace of subscriptions.
    pub fn subscriptions() -> Pace {
        Pace::new(SUBSCRIBE_BURST, 1.0 / SUBSCRIBE_EVERY_S)
    }

    fn new(burst: f64, per_s: f64) -> Pace {
        Pace {
            burst,
            per_s,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// `who`'s bucket refilled up to `now`, given to `f`.
    fn with<T>(&self, who: &str, now: Instant, f: impl FnOnce(&mut f64) -> T) -> Option<T> {
        let mut buckets = self.buckets.lock().ok()?;
        let b = buckets.entry(who.to_string()).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let dt = now.saturating_duration_since(b.at).as_secs_f64();
        b.tokens = (b.tokens + dt * self.per_s).min(self.burst);
        b.at = now;
        Some(f(&mut b.tokens))
    }

    /// Counts one read of `who` at `now`; returns how long it must wait
    /// first (zero within the pace).
    pub fn wait(&self, who: &str, now: Instant) -> Duration {
        let per_s = self.per_s;
        self.with(who, now, |tokens| {
            *tokens -= 1.0;
            match *tokens >= 0.0 {
                true => Duration::ZERO,
                false => Duration::from_secs_f64(-*tokens / per_s),
            }
        })
        .unwrap_or(Duration::ZERO)
    }

    /// Takes one token of `who` at `now` if it has one; else how long
    /// until it has (nothing is taken: a refused request costs nothing).
    pub fn take(&self, who: &str, now: Instant) -> Result<(), Duration> {
        let per_s = self.per_s;
        self.with(who, now, |tokens| match *tokens >= 1.0 {
            true => {
                *tokens -= 1.0;
                Ok(())
            }
            false => Err(Duration::from_secs_f64((1.0 - *tokens) / per_s)),
        })
        .unwrap_or(Ok(()))
    }
}

/// Why `who`'s subscription is refused, and when to ask again.
pub fn subscribe_refusal(who: &str, wait: Duration) -> proto::Message {
    proto::refusals::subscribe_paced(
        who,
        SUBSCRIBE_BURST as u32,
        SUBSCRIBE_EVERY_S as u32,
        wait.as_secs_f64(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_principal_reads_its_burst_then_at_the_pace() {
        let p = Pace::reads();
        let t0 = Instant::now();
        for _ in 0..READ_BURST as u32 {
            assert_eq!(p.wait("viewer:x", t0), Duration::ZERO);
        }
        let w = p.wait("viewer:x", t0);
        assert!(
            w > Duration::ZERO && w <= Duration::from_millis(21),
            "{w:?}"
        );
        // Others have their own bucket; time refills it.
        assert_eq!(p.wait("chief:y", t0), Duration::ZERO);
        let later = t0 + Duration::from_secs(10);
        assert_eq!(p.wait("viewer:x", later), Duration::ZERO);
    }

    #[test]
    fn a_principal_subscribes_its_burst_then_is_refused_until_its_next_token() {
        let p = Pace::subscriptions();
        let t0 = Instant::now();
        for _ in 0..SUBSCRIBE_BURST as u32 {
            assert_eq!(p.take("viewer:x", t0), Ok(()));
        }
        let every = Duration::from_secs_f64(SUBSCRIBE_EVERY_S);
        // Refusals take nothing: the wait does not grow with them.
        for _ in 0..100 {
            assert_eq!(p.take("viewer:x", t0), Err(every));
        }
        assert_eq!(p.take("chief:y", t0), Ok(()));
        let half = t0 + every / 2;
        let left = p.take("viewer:x", half).expect_err("half a token");
        assert!(left <= every / 2 + Duration::from_millis(1), "{left:?}");
        let later = t0 + every + Duration::from_millis(1);
        assert_eq!(p.take("viewer:x", later), Ok(()));
        assert!(p.take("viewer:x", later).is_err());
        let why = subscribe_refusal("viewer:x", every);
        let why = i18n::texts::english(&why);
        assert!(why.contains("viewer:x") && why.contains("5.0 s"), "{why}");
    }
}
