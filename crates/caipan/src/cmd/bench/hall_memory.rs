//! The child server's memory by component for `caipan bench hall
//! --child-server` (issue 40): the child writes its heap figures to a file
//! when asked (`crate::memstats`), the bench reads them with the child's RSS at each
//! phase of the load (server started; tables connected, idle; consoles
//! subscribed; a second before the load's end, every connection still
//! open) and splits that RSS:
//!
//! - `process_and_config`: the Rust heap once the config is loaded (the
//!   binary's statics, the parsed config);
//! - `hall_and_store`: the Rust heap the server's start added until it
//!   serves (the hall's table state, the store's caches and indexes, the
//!   QUIC endpoint);
//! - `table_connections`: what connecting the tables added (each
//!   connection's QUIC state machine and buffers in the server's shell,
//!   `proto::shell`, its TLS keys, its task, queues and session);
//! - `consoles`: what subscribing the consoles added (their connections
//!   and subscriptions);
//! - `load`: what the presses added (clock histories, audit, replies in
//!   flight, grown buffers);
//! - `sqlite`: SQLite's own allocator (page caches, statements);
//! - `c_heap_other`: the rest of what glibc's malloc handed out (C code
//!   other than SQLite);
//! - `malloc_free`: free bytes glibc keeps in its arenas;
//! - `outside_malloc`: RSS not in the counted heaps (code, stacks, mapped
//!   files, and mimalloc's pages that hold no live Rust block: its size
//!   classes' slack and the free pages it has not yet given back), which
//!   can be negative where glibc's free bytes are not resident.
//!
//! Each answer also carries the markers of the server's background work
//! (`store::markers`); the probe keeps the last answer's for the bench's
//! timeline (`hall_timeline`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::memstats::{MarkerSample, Sample};

const MIB: f64 = 1024.0 * 1024.0;

/// One phase's reading.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Reading {
    pub phase: &'static str,
    pub rss_mb: Option<f64>,
    pub heap: Sample,
}

/// Reads the child's figures at the load's phases.
#[derive(Clone)]
pub struct Probe {
    pid: u32,
    file: PathBuf,
    readings: Arc<Mutex<Vec<Reading>>>,
    /// The last answer's markers, and how many the child's ring let go.
    markers: Arc<Mutex<(Vec<MarkerSample>, u64)>>,
}

impl Probe {
    /// A probe of child `pid` writing to `file`.
    pub fn new(pid: u32, file: PathBuf) -> Probe {
        Probe {
            pid,
            file,
            readings: Arc::default(),
            markers: Arc::default(),
        }
    }

    /// Asks the child for its figures (at most 10 s) and records the
    /// phase's with its RSS (none if no answer came).
    pub fn read(&self, phase: &'static str) {
        let ask = crate::memstats::ask_path(&self.file);
        let _ = std::fs::remove_file(&self.file);
        if std::fs::write(&ask, phase).is_err() {
            return;
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while ask.exists() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let Some(mut heap) = std::fs::read_to_string(&self.file)
            .ok()
            .and_then(|t| serde_json::from_str::<Sample>(&t).ok())
        else {
            tracing::warn!(file = %self.file.display(), "no memory figures from the child server");
            return;
        };
        let rss_mb = table::load::procstat::memory_of(Some(self.pid)).map(|m| m.rss_mb);
        if let Ok(mut m) = self.markers.lock() {
            *m = (
                std::mem::take(&mut heap.markers),
                std::mem::take(&mut heap.markers_dropped),
            );
        }
        if let Ok(mut r) = self.readings.lock() {
            r.push(Reading {
                phase,
                rss_mb,
                heap,
            });
        }
    }

    /// The hook for `LoadOptions::on_phase`.
    pub fn hook(&self) -> table::load::PhaseHook {
        let p = self.clone();
        Arc::new(move |phase| p.read(phase))
    }

    /// The markers of the child's last answer, and how many its ring let
    /// go.
    pub fn markers(&self) -> (Vec<MarkerSample>, u64) {
        self.markers.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// The readings so far.
    pub fn readings(&self) -> Vec<Reading> {
        self.readings.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

/// The split of the last reading by component (MiB), per table (bytes),
/// and the readings themselves, as JSON; `None` without the four phases.
pub fn components_json(readings: &[Reading], tables: usize) -> Option<serde_json::Value> {
    let at = |phase: &str| readings.iter().find(|r| r.phase == phase);
    let started = at("started")?;
    let connected = at("tables_connected")?;
    let subscribed = at("consoles_subscribed")?;
    let done = at("load_end")?;
    let heap = |r: &Reading| r.heap.rust_heap_bytes as f64;
    let mark = |name: &str| done.heap.marks.get(name).copied().unwrap_or(0) as f64;
    let end = &done.heap;
    let rss = done.rss_mb.unwrap_or(0.0) * MIB;
    let in_malloc = (end.malloc_in_use_bytes + end.malloc_free_bytes) as f64;
    let parts: [(&str, f64); 9] = [
        ("process_and_config", mark("config_loaded")),
        ("hall_and_store", heap(started) - mark("config_loaded")),
        ("table_connections", heap(connected) - heap(started)),
        ("consoles", heap(subscribed) - heap(connected)),
        ("load", heap(done) - heap(subscribed)),
        ("sqlite", end.sqlite_bytes as f64),
        (
            "c_heap_other",
            (end.malloc_in_use_bytes - end.rust_heap_bytes - end.sqlite_bytes) as f64,
        ),
        ("malloc_free", end.malloc_free_bytes as f64),
        ("outside_malloc", rss - in_malloc),
    ];
    let n = tables.max(1) as f64;
    let mb: serde_json::Map<String, serde_json::Value> = parts
        .iter()
        .map(|(k, v)| ((*k).to_string(), round1(v / MIB).into()))
        .collect();
    let per_table: serde_json::Map<String, serde_json::Value> = parts
        .iter()
        .map(|(k, v)| ((*k).to_string(), (v / n).round().into()))
        .chain([("rss".to_string(), (rss / n).round().into())])
        .collect();
    Some(serde_json::json!({
        "rss_mb": done.rss_mb,
        "rust_heap_mb": round1(heap(done) / MIB),
        "malloc_in_use_mb": round1(end.malloc_in_use_bytes as f64 / MIB),
        "components_mb": mb,
        "bytes_per_table": per_table,
        "phases": readings,
    }))
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(phase: &'static str, rss_mb: f64, heap: i64) -> Reading {
        let mut s = Sample {
            rust_heap_bytes: heap,
            malloc_in_use_bytes: heap + 3 * 1_048_576,
            malloc_free_bytes: 1_048_576,
            sqlite_bytes: 2 * 1_048_576,
            ..Sample::default()
        };
        s.marks.insert("config_loaded".into(), 1_048_576);
        s.marks.insert("server_started".into(), 5 * 1_048_576);
        Reading {
            phase,
            rss_mb: Some(rss_mb),
            heap: s,
        }
    }

    #[test]
    fn the_split_names_every_component_and_adds_up_to_the_rss() {
        let mb = 1_048_576;
        let readings = [
            reading("started", 20.0, 5 * mb),
            reading("tables_connected", 40.0, 15 * mb),
            reading("consoles_subscribed", 42.0, 17 * mb),
            reading("load_end", 50.0, 20 * mb),
        ];
        let v = components_json(&readings, 100).expect("four phases");
        let parts = v["components_mb"].as_object().expect("components");
        let want = [
            ("process_and_config", 1.0),
            ("hall_and_store", 4.0),
            ("table_connections", 10.0),
            ("consoles", 2.0),
            ("load", 3.0),
            ("sqlite", 2.0),
            ("c_heap_other", 1.0),
            ("malloc_free", 1.0),
            ("outside_malloc", 26.0),
        ];
        for (k, mb) in want {
            assert_eq!(parts[k].as_f64(), Some(mb), "{k}");
        }
        // Every byte of the RSS is in one component.
        let sum: f64 = parts.values().filter_map(|x| x.as_f64()).sum();
        assert!((sum - 50.0).abs() < 0.05, "sum {sum}");
        assert_eq!(
            v["bytes_per_table"]["table_connections"].as_f64(),
            Some(104_858.0)
        );
        assert_eq!(v["phases"].as_array().map(Vec::len), Some(4));
        assert!(components_json(&readings[..3], 100).is_none());
    }
}
