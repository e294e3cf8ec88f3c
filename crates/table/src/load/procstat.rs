//! CPU time of a process's threads by name, and its resident memory, from
//! `/proc/self` or `/proc/PID` (Linux). `caipan bench hall` runs the server
//! on threads named `caipan-srv*` (plus its `caipan-commit` thread) so that
//! the server's share of the CPU can be told from the load generator's; with
//! `--child-server` it reads the same names from the child `caipan serve`.

use std::path::PathBuf;

/// Seconds of CPU (user + system) used so far by threads whose name starts
/// with one of `prefixes`; `None` where `/proc` is not available.
pub fn thread_cpu_seconds(prefixes: &[&str]) -> Option<f64> {
    Some(thread_cpu_by_prefix(prefixes)?.iter().sum())
}

/// Seconds of CPU used so far by the threads of each prefix of
/// `prefixes` (a thread counts for the first prefix its name starts
/// with); `None` where `/proc` is not available.
pub fn thread_cpu_by_prefix(prefixes: &[&str]) -> Option<Vec<f64>> {
    thread_cpu_of(None, prefixes)
}

/// [`thread_cpu_by_prefix`] of process `pid` (`None`: this process).
pub fn thread_cpu_of(pid: Option<u32>, prefixes: &[&str]) -> Option<Vec<f64>> {
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let ticks = if ticks > 0 { ticks as f64 } else { 100.0 };
    let mut total = vec![0u64; prefixes.len()];
    for entry in std::fs::read_dir(proc_dir(pid).join("task"))
        .ok()?
        .flatten()
    {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if let Some((name, used)) = parse_stat(&stat) {
            if let Some(i) = prefixes.iter().position(|p| name.starts_with(p)) {
                total[i] += used;
            }
        }
    }
    Some(total.into_iter().map(|t| t as f64 / ticks).collect())
}

/// What the scheduler gave a group of threads: time on a CPU, and time
/// runnable but waiting for one (`/proc/PID/task/TID/schedstat`). A thread
/// that waits for a CPU is one the machine is too small (or too shared)
/// for, whatever its own code costs.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SchedTime {
    /// Seconds on a CPU.
    pub run_s: f64,
    /// Seconds runnable, waiting on a run queue.
    pub wait_s: f64,
}

impl SchedTime {
    /// The time between `before` and `self`.
    pub fn since(self, before: SchedTime) -> SchedTime {
        SchedTime {
            run_s: (self.run_s - before.run_s).max(0.0),
            wait_s: (self.wait_s - before.wait_s).max(0.0),
        }
    }
}

/// [`SchedTime`] so far of the threads of each prefix of `prefixes` (a
/// thread counts for the first prefix its name starts with) in process
/// `pid` (`None`: this process); `None` where `/proc` or the kernel's
/// scheduler statistics are not available.
pub fn thread_sched_of(pid: Option<u32>, prefixes: &[&str]) -> Option<Vec<SchedTime>> {
    let mut total = vec![SchedTime::default(); prefixes.len()];
    let mut any = false;
    for entry in std::fs::read_dir(proc_dir(pid).join("task"))
        .ok()?
        .flatten()
    {
        let path = entry.path();
        let (Ok(comm), Ok(stat)) = (
            std::fs::read_to_string(path.join("comm")),
            std::fs::read_to_string(path.join("schedstat")),
        ) else {
            continue;
        };
        let Some((run_ns, wait_ns)) = parse_schedstat(&stat) else {
            continue;
        };
        any = true;
        let name = comm.trim_end_matches('\n');
        if let Some(i) = prefixes.iter().position(|p| name.starts_with(p)) {
            total[i].run_s += run_ns as f64 / 1e9;
            total[i].wait_s += wait_ns as f64 / 1e9;
        }
    }
    any.then_some(total)
}

/// (ns on a CPU, ns waiting on a run queue) from a `schedstat` line
/// (`run wait timeslices`).
fn parse_schedstat(line: &str) -> Option<(u64, u64)> {
    let mut fields = line.split_whitespace();
    let run = fields.next()?.parse().ok()?;
    let wait = fields.next()?.parse().ok()?;
    Some((run, wait))
}

/// (thread name, utime + stime in ticks) from a `stat` line.
fn parse_stat(stat: &str) -> Option<(&str, u64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?;
    let rest: Vec<&str> = stat.get(close + 2..)?.split_whitespace().collect();
    // Fields after the name start at field 3 (state); utime is 14, stime 15.
    let utime: u64 = rest.get(11)?.parse().ok()?;
    let stime: u64 = rest.get(12)?.parse().ok()?;
    Some((name, utime + stime))
}

fn proc_dir(pid: Option<u32>) -> PathBuf {
    match pid {
        Some(p) => PathBuf::from(format!("/proc/{p}")),
        None => PathBuf::from("/proc/self"),
    }
}

/// Resident memory of the process in MiB.
pub fn rss_mb() -> Option<f64> {
    Some(memory_of(None)?.rss_mb)
}

/// A process's resident memory: now and its peak so far.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Memory {
    /// `VmRSS`, MiB.
    pub rss_mb: f64,
    /// `VmHWM` (the peak resident set), MiB.
    pub peak_mb: f64,
}

/// The resident memory of process `pid` (`None`: this process) from its
/// `status` file; `None` where it cannot be read.
pub fn memory_of(pid: Option<u32>) -> Option<Memory> {
    let status = std::fs::read_to_string(proc_dir(pid).join("status")).ok()?;
    parse_memory(&status)
}

/// The heap of a global allocator other than glibc's malloc, as the
/// binary that chose it reads it ([`set_heap_reader`]).
static HEAP_READER: std::sync::OnceLock<fn() -> Option<i64>> = std::sync::OnceLock::new();

/// Names how to read the live bytes of the binary's own global allocator
/// (`caipan`: its counted Rust heap, `None` while not counted), added to
/// glibc's figure by [`malloc_in_use`]. The first call wins.
pub fn set_heap_reader(read: fn() -> Option<i64>) {
    let _ = HEAP_READER.set(read);
}

/// Bytes this process's heap holds: glibc malloc's handed out and not got
/// back (`mallinfo2`: `uordblks + hblkhd`; the C code's alone where the
/// binary's global allocator is another) plus what that allocator holds
/// ([`set_heap_reader`]); `None` off glibc, or when that allocator's
/// figure cannot be read (half a heap is no figure). `mallinfo2` walks every arena
/// under its lock: tens of ms at 10,000 connections, so call it between
/// phases, never in a timed window.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn malloc_in_use() -> Option<i64> {
    // SAFETY: mallinfo2 takes no argument and returns a plain struct.
    let m = unsafe { libc::mallinfo2() };
    let own = match HEAP_READER.get() {
        Some(read) => read()?,
        None => 0,
    };
    i64::try_from(m.uordblks + m.hblkhd).ok().map(|c| c + own)
}

/// Nothing to read off glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn malloc_in_use() -> Option<i64> {
    None
}

fn parse_memory(status: &str) -> Option<Memory> {
    let field = |name: &str| -> Option<f64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / 1024.0)
    };
    let rss_mb = field("VmRSS:")?;
    Some(Memory {
        rss_mb,
        peak_mb: field("VmHWM:").unwrap_or(rss_mb),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_stat_line() {
        let line = "1234 (caipan-srv 1) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 4 0";
        assert_eq!(parse_stat(line), Some(("caipan-srv 1", 300)));
        assert!(parse_stat("garbage").is_none());
    }

    #[test]
    fn parses_a_schedstat_line() {
        assert_eq!(
            parse_schedstat("1500000000 250000000 812\n"),
            Some((1_500_000_000, 250_000_000))
        );
        assert!(parse_schedstat("12").is_none());
        assert!(parse_schedstat("x 1 2").is_none());
    }

    #[test]
    fn a_spinning_thread_is_seen_running_and_the_figures_only_grow() {
        if !std::path::Path::new("/proc/self/task").exists() {
            return;
        }
        let names = ["procstat-sched", "no-such-thread"];
        let before = thread_sched_of(None, &names);
        let during = std::thread::Builder::new()
            .name("procstat-sched".into())
            .spawn(move || {
                spin();
                thread_sched_of(Some(std::process::id()), &names)
            })
            .unwrap()
            .join()
            .unwrap();
        // A kernel without scheduler statistics reads as None, both times.
        let (Some(before), Some(during)) = (before, during) else {
            return;
        };
        assert_eq!(during.len(), 2);
        assert!(during[0].run_s > 0.0, "the spinning thread ran: {during:?}");
        assert_eq!(during[1], SchedTime::default(), "no thread of that name");
        assert_eq!(before[0], SchedTime::default(), "not started yet");
        let d = during[0].since(before[0]);
        assert!(d.run_s > 0.0 && d.wait_s >= 0.0);
        assert_eq!(before[0].since(during[0]), SchedTime::default());
    }

    #[test]
    fn parses_a_status_file() {
        let status = "Name:\tcaipan\nVmHWM:\t  20480 kB\nVmRSS:\t  10240 kB\n";
        assert_eq!(
            parse_memory(status),
            Some(Memory {
                rss_mb: 10.0,
                peak_mb: 20.0
            })
        );
        assert!(parse_memory("Name:\tcaipan\n").is_none());
    }

    /// Some CPU time on this thread.
    fn spin() {
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
    }

    #[test]
    fn reads_this_process() {
        if std::path::Path::new("/proc/self/task").exists() {
            let t = std::thread::Builder::new()
                .name("procstat-probe".into())
                .spawn(|| {
                    spin();
                    let by_pid = thread_cpu_of(Some(std::process::id()), &["procstat-probe"]);
                    assert_eq!(by_pid.map(|v| v.len()), Some(1), "read by pid");
                    thread_cpu_seconds(&["procstat-probe"])
                })
                .unwrap();
            let by = std::thread::Builder::new()
                .name("procstat-other".into())
                .spawn(|| {
                    spin();
                    thread_cpu_by_prefix(&["procstat-other", "no-such-thread"])
                })
                .unwrap()
                .join()
                .unwrap()
                .unwrap();
            assert_eq!(by.len(), 2);
            assert_eq!(by[1], 0.0, "no thread of that name");
            assert!(t.join().unwrap().is_some());
            assert!(rss_mb().unwrap() > 0.0);
            let own = memory_of(Some(std::process::id())).unwrap();
            assert!(own.peak_mb >= own.rss_mb && own.rss_mb > 0.0);
        }
    }
}
