//! When the slow acks happen (issue 40): the per-second timeline of
//! `caipan bench hall` beside the server's markers.
//!
//! The load measures each second of its window (second 0 starts at the
//! first press; a press counts in the second it was sent in): acks (count,
//! p50, p99, max) and console deltas (p99, max), merged over every client
//! process (`table::load::timeline`). The server marks its background work
//! on the wall clock (`store::markers`: snapshot cuts and saves, WAL
//! checkpoints, slow commits and fsyncs, catch-ups and whole snapshots of
//! lagging consoles, the memory probe); read from the child server's
//! memory figures (`hall_memory`) or this process's own, the markers are
//! set on the load's clock (`at_s`: seconds since the first press).
//!
//! JSON: `timeline` (one object a second, with the markers that started in
//! it by kind), `ack_worst_seconds` (the [`WORST`] seconds by ack p99,
//! each with the markers that ran during it: started in it, or earlier and
//! still running), and `server_markers` (every marker of the window, with
//! counts by kind). A second's own markers, not those of the whole time its
//! slowest press waited: at a backlog of seconds that would be every
//! marker of the run.

use crate::memstats::MarkerSample;
use std::collections::BTreeMap;
use table::load::timeline::{self, Second};
use table::load::LoadReport;

/// Worst seconds reported.
pub const WORST: usize = 5;

/// Seconds before the window and after it whose markers are kept (the
/// connect phase's end, the last acks).
const MARGIN_S: f64 = 10.0;

/// The server's markers as read (Unix ms), and how many its ring let go.
#[derive(Debug, Clone, Default)]
pub struct ServerMarkers {
    pub list: Vec<MarkerSample>,
    pub dropped: u64,
}

/// A marker on the load's clock.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Marker {
    pub kind: String,
    /// Seconds since the first press (negative: before it).
    pub at_s: f64,
    /// How long it took, ms.
    pub ms: u32,
    /// How much it did (rows, tables, batches: by kind).
    pub n: u64,
}

impl Marker {
    fn end_s(&self) -> f64 {
        self.at_s + f64::from(self.ms) / 1000.0
    }
}

/// The markers from `MARGIN_S` before the window of `duration_s` to
/// `MARGIN_S` after it, on the clock of a load whose first press was at
/// `started_unix_ms`.
pub fn on_clock(markers: &[MarkerSample], started_unix_ms: u64, duration_s: f64) -> Vec<Marker> {
    markers
        .iter()
        .map(|m| Marker {
            kind: m.kind.clone(),
            at_s: (m.at_unix_ms as f64 - started_unix_ms as f64) / 1000.0,
            ms: m.ms,
            n: m.n,
        })
        .filter(|m| m.end_s() >= -MARGIN_S && m.at_s <= duration_s + MARGIN_S)
        .collect()
}

/// The markers that ran during `second`: started in it, or before it and
/// still running at its start.
pub fn during(markers: &[Marker], second: usize) -> Vec<&Marker> {
    let from = second as f64;
    markers
        .iter()
        .filter(|m| m.end_s() >= from && m.at_s < from + 1.0)
        .collect()
}

/// `markers` by kind in one short text: `slow_sync 5× ≤71 ms,
/// snapshot_cut 108 ms` (the count when more than one, the longest).
fn by_kind(markers: &[&Marker]) -> String {
    let mut kinds = BTreeMap::<&str, (u64, u32)>::new();
    for m in markers {
        let k = kinds.entry(m.kind.as_str()).or_insert((0, 0));
        k.0 += 1;
        k.1 = k.1.max(m.ms);
    }
    kinds
        .into_iter()
        .map(|(kind, (count, ms))| match count {
            1 => format!("{kind} {ms} ms"),
            _ => format!("{kind} {count}× ≤{ms} ms"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kinds of the markers that started in `second`, counted.
fn started_in(markers: &[Marker], second: usize) -> BTreeMap<&str, u64> {
    let mut kinds = BTreeMap::new();
    for m in markers
        .iter()
        .filter(|m| m.at_s >= second as f64 && m.at_s < second as f64 + 1.0)
    {
        *kinds.entry(m.kind.as_str()).or_insert(0) += 1;
    }
    kinds
}

/// The run's [`WORST`] seconds by ack p99.
pub fn worst(r: &LoadReport) -> Vec<(usize, Second)> {
    timeline::worst(&r.ack_seconds, WORST)
}

/// `timeline`, `ack_worst_seconds` and `server_markers` (`null` for a
/// server not started by the bench).
pub fn json(
    r: &LoadReport,
    server: Option<&ServerMarkers>,
) -> serde_json::Map<String, serde_json::Value> {
    let markers = server.map_or_else(Vec::new, |s| {
        on_clock(&s.list, r.started_unix_ms, r.duration_s)
    });
    let seconds: Vec<serde_json::Value> = r
        .ack_seconds
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let c = r.console_seconds.get(i).copied().unwrap_or_default();
            let mut v = serde_json::json!({
                "s": i,
                "acks": a.count,
                "ack_p50_ms": a.p50_ms,
                "ack_p99_ms": a.p99_ms,
                "ack_max_ms": a.max_ms,
                "console_samples": c.count,
                "console_p99_ms": c.p99_ms,
                "console_max_ms": c.max_ms,
            });
            let kinds = started_in(&markers, i);
            if !kinds.is_empty() {
                v["markers"] = serde_json::json!(kinds);
            }
            v
        })
        .collect();
    let worst: Vec<serde_json::Value> = worst(r)
        .into_iter()
        .map(|(i, s)| {
            serde_json::json!({
                "s": i,
                "acks": s.count,
                "ack_p50_ms": s.p50_ms,
                "ack_p99_ms": s.p99_ms,
                "ack_max_ms": s.max_ms,
                "console_p99_ms": r.console_seconds.get(i).map(|c| c.p99_ms),
                "markers": during(&markers, i),
            })
        })
        .collect();
    let server_markers = server.map(|s| {
        let mut counts = BTreeMap::<&str, u64>::new();
        for m in &markers {
            *counts.entry(m.kind.as_str()).or_insert(0) += 1;
        }
        serde_json::json!({
            "dropped": s.dropped,
            "counts": counts,
            "list": markers,
        })
    });
    let mut out = serde_json::Map::new();
    out.insert("timeline".into(), seconds.into());
    out.insert("ack_worst_seconds".into(), worst.into());
    out.insert("server_markers".into(), server_markers.into());
    out
}

/// The worst seconds in one line: `12 s p99 340 ms max 900 ms
/// [snapshot_cut 85 ms, slow_sync 3× ≤40 ms]; …` (`None` without acks).
pub fn worst_line(r: &LoadReport, server: Option<&ServerMarkers>) -> Option<String> {
    let markers = server.map_or_else(Vec::new, |s| {
        on_clock(&s.list, r.started_unix_ms, r.duration_s)
    });
    let parts: Vec<String> = worst(r)
        .into_iter()
        .map(|(i, s)| {
            let during = during(&markers, i);
            let during = if during.is_empty() {
                String::new()
            } else {
                format!(" [{}]", by_kind(&during))
            };
            format!(
                "{i} s p99 {:.1} ms max {:.1} ms{during}",
                s.p99_ms, s.max_ms
            )
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(kind: &str, at_unix_ms: u64, ms: u32, n: u64) -> MarkerSample {
        MarkerSample {
            kind: kind.into(),
            at_unix_ms,
            ms,
            n,
        }
    }

    fn second(count: usize, p99_ms: f64, max_ms: f64) -> Second {
        Second {
            count,
            p50_ms: 1.0,
            p99_ms,
            max_ms,
        }
    }

    #[test]
    fn the_worst_seconds_name_the_markers_that_ran_during_them() {
        let started = 1_000_000_000;
        let server = ServerMarkers {
            list: vec![
                // Long before the window: left out.
                sample("snapshot_cut", started - 60_000, 40, 100),
                // Second 2: a cut of 300 ms.
                sample("snapshot_cut", started + 2_400, 300, 10_000),
                // Second 2 again, twice: by kind in the text.
                sample("slow_sync", started + 2_500, 12, 1),
                sample("slow_sync", started + 2_600, 40, 1),
                // Second 3: not second 2's, though its slowest ack waited.
                sample("console_catch_up", started + 3_200, 0, 7),
                // Second 4: a slow fsync only second 4 waited through.
                sample("slow_sync", started + 4_500, 30, 2),
            ],
            dropped: 0,
        };
        let r = LoadReport {
            duration_s: 5.0,
            started_unix_ms: started,
            ack_seconds: vec![
                second(100, 2.0, 3.0),
                second(100, 2.5, 3.0),
                second(100, 800.0, 900.0),
                second(100, 3.0, 4.0),
                second(100, 50.0, 60.0),
            ],
            console_seconds: vec![second(300, 4.0, 5.0); 5],
            ..LoadReport::default()
        };
        let v = json(&r, Some(&server));
        let worst = v["ack_worst_seconds"].as_array().expect("worst");
        assert_eq!(worst.len(), 5);
        assert_eq!(worst[0]["s"], 2);
        let kinds: Vec<&str> = worst[0]["markers"]
            .as_array()
            .expect("markers")
            .iter()
            .filter_map(|m| m["kind"].as_str())
            .collect();
        assert_eq!(kinds, ["snapshot_cut", "slow_sync", "slow_sync"]);
        assert_eq!(worst[0]["markers"][0]["at_s"], 2.4);
        assert_eq!(worst[0]["markers"][0]["n"], 10_000);
        assert_eq!(worst[1]["s"], 4);
        assert_eq!(worst[1]["markers"][0]["kind"], "slow_sync");
        // The quiet seconds waited through nothing.
        assert_eq!(worst[4]["s"], 0);
        assert_eq!(worst[4]["markers"].as_array().map(Vec::len), Some(0));
        // The timeline: a second each, with the markers started in it.
        let t = v["timeline"].as_array().expect("timeline");
        assert_eq!(t.len(), 5);
        assert_eq!(t[2]["markers"]["snapshot_cut"], 1);
        assert!(t[0].get("markers").is_none());
        assert_eq!(t[3]["console_p99_ms"], 4.0);
        assert_eq!(v["server_markers"]["counts"]["snapshot_cut"], 1);
        assert_eq!(
            v["server_markers"]["list"].as_array().map(Vec::len),
            Some(5)
        );
        // Second 3 ran only its own (the cut of second 2 ended before it).
        assert_eq!(worst[2]["s"], 3);
        let third = worst[2]["markers"].as_array().expect("markers");
        assert_eq!(third.len(), 1);
        assert_eq!(third[0]["kind"], "console_catch_up");
        let line = worst_line(&r, Some(&server)).expect("a line");
        assert!(
            line.starts_with(
                "2 s p99 800.0 ms max 900.0 ms [slow_sync 2× ≤40 ms, snapshot_cut 300 ms]; 4 s"
            ),
            "{line}"
        );
        // Without a server of its own: the timeline, no markers.
        let v = json(&r, None);
        assert!(v["server_markers"].is_null());
        assert_eq!(v["timeline"].as_array().map(Vec::len), Some(5));
        assert!(worst_line(&LoadReport::default(), None).is_none());
    }
}
