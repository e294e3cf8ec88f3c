//! `caipan bench hall`: what the scheduler gave the server's threads over
//! the load, by group: the share of the wall time each group spent on a
//! CPU and the share it spent runnable but waiting for one
//! (`procstat::thread_sched_of`).
//!
//! A server whose threads wait for a CPU is held back by the machine (too
//! few cores, or cores shared with the bench's own load generator), not by
//! its own work: at 10,000 tables on a 2-core machine the QUIC thread,
//! with always work to do, waited more than half of every second
//! (docs/benchmarks.md). The figure tells a slow server from a full
//! machine.

use table::load::procstat::{self, SchedTime};

/// The server's thread groups, by name prefix: the QUIC shell's thread
/// before the runtime's (`caipan-srv`, which its name also starts with).
pub const GROUPS: &[&str] = &[
    proto::shell::THREAD_NAME,
    "caipan-srv",
    "caipan-commit",
    "store-writer",
    "store-sync",
    "store-check",
    broadcast::apart::THREAD_NAME,
];

/// One group's share of the wall time.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Share {
    /// The threads' name prefix.
    pub threads: &'static str,
    /// % of the wall time on a CPU (over 100 for a group of several
    /// threads that ran side by side).
    pub run_pct: f64,
    /// % of the wall time runnable and waiting for a CPU.
    pub wait_pct: f64,
}

/// The server's groups so far (`pid`: a child server; `None`: this
/// process).
pub fn read(pid: Option<u32>) -> Option<Vec<SchedTime>> {
    procstat::thread_sched_of(pid, GROUPS)
}

/// Each group's share of `wall_s` between `before` and `after`; `None`
/// unless both were read.
pub fn shares(
    before: Option<&[SchedTime]>,
    after: Option<&[SchedTime]>,
    wall_s: f64,
) -> Option<Vec<Share>> {
    let (before, after) = (before?, after?);
    if wall_s <= 0.0 || before.len() != GROUPS.len() || after.len() != GROUPS.len() {
        return None;
    }
    let pct = |s: f64| s / wall_s * 100.0;
    Some(
        GROUPS
            .iter()
            .zip(before.iter().zip(after))
            .map(|(threads, (b, a))| {
                let d = a.since(*b);
                Share {
                    threads,
                    run_pct: pct(d.run_s),
                    wait_pct: pct(d.wait_s),
                }
            })
            .collect(),
    )
}

/// The server's threads' total wait for a CPU, % of the wall time.
pub fn total_wait_pct(shares: &[Share]) -> f64 {
    shares.iter().map(|s| s.wait_pct).sum()
}

/// The human line: every group that ran, `name run/wait %`.
pub fn line(shares: &[Share]) -> String {
    let groups: Vec<String> = shares
        .iter()
        .filter(|s| s.run_pct > 0.0 || s.wait_pct > 0.0)
        .map(|s| format!("{} {:.0}/{:.0}", s.threads, s.run_pct, s.wait_pct))
        .collect();
    format!(
        "{}  (% of the wall time on a CPU / waiting for one; {:.0} % waited in all)",
        groups.join("  "),
        total_wait_pct(shares)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(run_s: f64, wait_s: f64) -> SchedTime {
        SchedTime { run_s, wait_s }
    }

    #[test]
    fn shares_are_the_differences_over_the_wall_time() {
        let before: Vec<SchedTime> = GROUPS.iter().map(|_| t(1.0, 1.0)).collect();
        let mut after = before.clone();
        after[0] = t(1.5, 2.0); // the QUIC thread: 0.5 s on a CPU, 1 s waiting
        after[2] = t(1.2, 1.0);
        let s = shares(Some(&before), Some(&after), 2.0).unwrap();
        assert_eq!(s.len(), GROUPS.len());
        assert_eq!(s[0].threads, proto::shell::THREAD_NAME);
        assert!((s[0].run_pct - 25.0).abs() < 1e-9);
        assert!((s[0].wait_pct - 50.0).abs() < 1e-9);
        assert!((s[2].run_pct - 10.0).abs() < 1e-9);
        assert_eq!(s[1].run_pct, 0.0);
        assert!((total_wait_pct(&s) - 50.0).abs() < 1e-9);
        let l = line(&s);
        assert!(
            l.starts_with("caipan-srv-quic 25/50  caipan-commit 10/0"),
            "{l}"
        );
        assert!(l.ends_with("50 % waited in all)"), "{l}");
    }

    #[test]
    fn no_shares_without_both_readings_or_a_wall_time() {
        let r: Vec<SchedTime> = GROUPS.iter().map(|_| t(1.0, 1.0)).collect();
        assert!(shares(None, Some(&r), 1.0).is_none());
        assert!(shares(Some(&r), None, 1.0).is_none());
        assert!(shares(Some(&r), Some(&r), 0.0).is_none());
        assert!(shares(Some(&r[..2]), Some(&r), 1.0).is_none());
    }

    #[test]
    fn the_quic_thread_is_counted_apart_from_the_runtime() {
        // A thread counts for the first prefix its name starts with.
        assert!(proto::shell::THREAD_NAME.starts_with(GROUPS[1]));
        assert_eq!(GROUPS[0], proto::shell::THREAD_NAME);
    }
}
