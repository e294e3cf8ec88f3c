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

/// The read pace of every principal.
#[derive(Debug, Default)]
pub struct Pace {
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Pace {
    /// Counts one read of `who` at `now`; returns how long it must wait
    /// first (zero within the pace).
    pub fn wait(&self, who: &str, now: Instant) -> Duration {
        let Ok(mut buckets) = self.buckets.lock() else {
            return Duration::ZERO;
        };
        let b = buckets.entry(who.to_string()).or_insert(Bucket {
            tokens: READ_BURST,
            at: now,
        });
        let dt = now.saturating_duration_since(b.at).as_secs_f64();
        b.tokens = (b.tokens + dt * READS_PER_S).min(READ_BURST) - 1.0;
        b.at = now;
        if b.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-b.tokens / READS_PER_S)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_principal_reads_its_burst_then_at_the_pace() {
        let p = Pace::default();
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
}
