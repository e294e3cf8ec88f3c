//! Shared machinery of the resilience benches (issue 8: "prove it holds"):
//! a generated hall ([`fixture`]), `caipan serve` as a child process that can
//! be SIGKILLed ([`child`]), table clients that keep an outbox and resend
//! from the server's high-water mark ([`load`]), a UDP fault relay
//! ([`relay`]), the checks against the store ([`verify`]), and the
//! server side of power cuts ([`powered`]).
//!
//! `caipan bench crash`, `caipan bench faults` and `caipan bench soak` are
//! built from these; tests/resilience.rs runs their short forms.

pub mod child;
pub mod fixture;
pub mod load;
pub mod powered;
pub mod relay;
pub mod verify;

/// Resident set size of a process in KiB (`VmRSS` from `/proc/PID/status`).
pub fn rss_kib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// A scratch directory for a bench run (removed on drop unless `keep`).
pub struct WorkDir {
    /// Its path.
    pub path: std::path::PathBuf,
    keep: bool,
}

impl WorkDir {
    /// `dir`, or a fresh directory under the system temp dir.
    pub fn new(dir: Option<std::path::PathBuf>, name: &str) -> anyhow::Result<WorkDir> {
        let (path, keep) = match dir {
            Some(d) => (d, true),
            None => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.subsec_nanos())
                    .unwrap_or(0);
                (
                    std::env::temp_dir()
                        .join(format!("caipan-{name}-{}-{nanos}", std::process::id())),
                    false,
                )
            }
        };
        std::fs::create_dir_all(&path)?;
        Ok(WorkDir { path, keep })
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}
