//! `caipan bench hall`'s raw QUIC baseline on one or more echo servers
//! (`--raw-server`, issue 40): quinn's (`raw::EchoServer`: its endpoint
//! driver, a driver task per connection, the echo's task) and the I/O
//! shell over quinn-proto (`raw_shell::ShellEchoServer`: one thread),
//! one after the other on the same load (the same clients, connections,
//! message sizes and rate or window), each measured alone:
//! - echoes/s and, paced, the echo latencies;
//! - CPU µs per echo of the server's threads (`caipan-srv*`: quinn's on
//!   the bench's server runtime, the shell's own thread) and the clients'
//!   (`bench-client*`), over the whole run (connecting included, as the
//!   hall's `raw_server_cpu_us` always was) and over the echoing alone,
//!   and the connecting's CPU per connection (handshakes);
//! - the bench process's heap (glibc's `mallinfo2` and, with
//!   `CAIPAN_MEMSTATS` set, the counted Rust heap: the binary's allocator
//!   is mimalloc, `crate::memstats`) and RSS added per connection
//!   between before connecting and all connected. The process holds the
//!   clients' quinn connections AND the server's, so the figure is not the
//!   server's alone; the clients are the same for both servers, so the
//!   difference between the two servers' figures is the servers'
//!   difference;
//! - the shell's own counts per echo (wakes, datagrams, sends).
//!
//! Before each run the bench waits until the process's heap stops
//! shrinking (the previous run's client endpoints drain in the
//! background, quinn's echo server is waited for until idle), so one
//! run's teardown does not count in the next one's memory.
//!
//! `--raw-only` runs these alone, without the hall before them.

use anyhow::Context;
use std::process::ExitCode;
use std::time::Duration;

use proto::{ClientMsg, ServerMsg};
use table::load::raw::{self, EchoTarget};
use table::load::{self, procstat};

/// The raw baseline's echo servers (`--raw-server`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RawServer {
    /// quinn's endpoint, a task per connection (`raw::EchoServer`).
    Quinn,
    /// quinn-proto driven by one thread (`raw_shell::ShellEchoServer`).
    Proto,
    /// quinn, then proto.
    Both,
}

/// The baseline's load: which echo servers, in order (as given to
/// `--raw-server`), `--rate` (None: flood) and `--window`.
#[derive(Debug, Clone, Copy)]
pub struct Load<'a> {
    pub servers: &'a [RawServer],
    pub rate: Option<f64>,
    pub window: usize,
}

/// One echo server's run of the baseline.
#[derive(Debug, Clone)]
pub struct RawRun {
    /// `quinn` or `proto`.
    pub server: &'static str,
    pub report: raw::RawReport,
    /// CPU seconds of the server's and the clients' threads: the whole
    /// run, and the part before every connection was up.
    pub cpu_s: [f64; 2],
    pub connect_cpu_s: Option<[f64; 2]>,
    /// The shell's own counts (proto).
    pub shell: Option<table::load::raw_shell::ShellStats>,
}

impl RawRun {
    /// CPU µs per echo: the server's and the clients', whole run.
    pub fn cpu_us(&self) -> [f64; 2] {
        self.cpu_s.map(|c| per(c * 1e6, self.report.echoes))
    }

    /// CPU µs per echo while echoing (connecting left out).
    fn echoing_cpu_us(&self) -> Option<[f64; 2]> {
        let c = self.connect_cpu_s?;
        Some([0, 1].map(|i| per((self.cpu_s[i] - c[i]) * 1e6, self.report.echoes)))
    }

    fn json(&self) -> serde_json::Value {
        let r = &self.report;
        let [server, clients] = self.cpu_us();
        let echoing = self.echoing_cpu_us();
        let n = r.connections as u64;
        let shell = self.shell.map(|s| {
            let each = |x: u64| per(x as f64, r.echoes);
            serde_json::json!({
                "wakes_per_echo": each(s.wakes),
                "datagrams_in_per_echo": each(s.datagrams_in),
                "datagrams_out_per_echo": each(s.datagrams_out),
                "sends_per_echo": each(s.transmits),
                "recv_batches_per_echo": each(s.recv_batches),
                "send_failures": s.send_failures,
                "accepted": s.accepted,
            })
        });
        serde_json::json!({
            "server": self.server,
            "connections": r.connections,
            "duration_s": r.duration_s,
            "echoes": r.echoes,
            "echoes_per_s": r.echoes_per_s,
            "echo_ms": r.latency_ms.map(|[p50, p99, max]| {
                serde_json::json!({ "p50": p50, "p99": p99, "max": max })
            }),
            "server_cpu_us": server,
            "client_cpu_us": clients,
            "server_cpu_us_echoing": echoing.map(|e| e[0]),
            "client_cpu_us_echoing": echoing.map(|e| e[1]),
            "server_connect_cpu_us_per_connection":
                self.connect_cpu_s.map(|c| per(c[0] * 1e6, n)),
            "process_heap_bytes_per_connection":
                r.memory.and_then(|m| m.heap_per_connection(r.connections)),
            "process_rss_bytes_per_connection":
                r.memory.map(|m| m.rss_per_connection(r.connections)),
            "shell": shell,
        })
    }

    /// One line of the text output.
    pub fn line(&self) -> String {
        let r = &self.report;
        let [server, clients] = self.cpu_us();
        let latency = r
            .latency_ms
            .map(|[p50, p99, max]| format!("  echo ms p50 {p50:.2} p99 {p99:.2} max {max:.2}"))
            .unwrap_or_default();
        let heap = r
            .memory
            .and_then(|m| m.heap_per_connection(r.connections))
            .map(|h| format!("  heap {:.1} KB/connection (process)", h / 1000.0))
            .unwrap_or_default();
        format!(
            "{:<6} {:.0} echoes/s over {}  CPU µs/echo server {server:.2} clients {clients:.2}{latency}{heap}",
            self.server, r.echoes_per_s, r.connections
        )
    }
}

fn per(x: f64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        x / n as f64
    }
}

/// The echo servers to run, in order (none given: quinn's).
pub fn servers(given: &[RawServer]) -> Vec<RawServer> {
    let mut out = Vec::new();
    for s in given {
        match s {
            RawServer::Both => out.extend([RawServer::Quinn, RawServer::Proto]),
            s => out.push(*s),
        }
    }
    if out.is_empty() {
        out.push(RawServer::Quinn);
    }
    out
}

/// The request and reply sizes: a table's press event, the server's ack.
fn sizes() -> anyhow::Result<(usize, usize)> {
    let len = |b: Vec<u8>| b.len();
    let req = proto::frame::encode_frame(&ClientMsg::Event(load::bench_press(1, 1, 1, (1, 0))))?;
    let resp = proto::frame::encode_frame(&ServerMsg::Ack(proto::Ack {
        table: 1,
        epoch: 1,
        seq: 1,
        duplicate: false,
    }))?;
    Ok((len(req), len(resp)))
}

/// Runs the baseline's clients against `server` (paced with `--rate`,
/// else a flood).
fn clients(
    load: &Load,
    server: &impl EchoTarget,
    tables: usize,
    duration: Duration,
    (req, resp): (usize, usize),
    client_rt: &tokio::runtime::Runtime,
) -> anyhow::Result<raw::RawReport> {
    Ok(match load.rate {
        // Paced like the hall's run: its echo times are the transport's
        // floor under the hall's ack latencies at that rate.
        Some(rate) => {
            client_rt.block_on(raw::paced(server, tables, (req, resp), rate, duration))?
        }
        None => client_rt.block_on(raw::flood(server, tables, req, resp, load.window, duration))?,
    })
}

/// The longest wait for the previous run's connections to go.
const SETTLE_MAX: Duration = Duration::from_secs(10);

/// Waits (at most [`SETTLE_MAX`]) until this process's heap stops
/// shrinking: the connections of what ran before (the hall's load, the
/// previous echo server's clients, whose endpoints drain in the
/// background) are gone, so that this run's memory figures are its own.
fn settle() {
    let Some(mut last) = heap_or_rss() else {
        return;
    };
    let end = std::time::Instant::now() + SETTLE_MAX;
    while std::time::Instant::now() < end {
        std::thread::sleep(Duration::from_millis(500));
        let Some(now) = heap_or_rss() else {
            return;
        };
        if (last - now).abs() < 256 * 1024 {
            return;
        }
        last = now;
    }
}

/// The process's heap, or where the heap is not counted its RSS (the
/// Rust heap's allocator gives freed pages back to the OS).
fn heap_or_rss() -> Option<i64> {
    procstat::malloc_in_use()
        .or_else(|| procstat::memory_of(None).map(|m| (m.rss_mb * 1024.0 * 1024.0) as i64))
}

/// One run of the baseline on `which` echo server.
pub fn run_one(
    load: &Load,
    which: RawServer,
    tables: usize,
    duration: Duration,
    (server_rt, client_rt): (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
) -> anyhow::Result<RawRun> {
    let sizes = sizes()?;
    let localhost = (std::net::Ipv4Addr::LOCALHOST, 0).into();
    let cpu = || procstat::thread_cpu_by_prefix(&raw::CPU_GROUPS);
    settle();
    let (name, cpu0, report, cpu1, shell) = match which {
        RawServer::Proto => {
            #[cfg(unix)]
            {
                let echo =
                    table::load::raw_shell::ShellEchoServer::start(localhost, sizes.0, sizes.1)?;
                let cpu0 = cpu();
                let r = clients(load, &echo, tables, duration, sizes, client_rt)?;
                let cpu1 = cpu();
                let stats = echo.shutdown();
                ("proto", cpu0, r, cpu1, Some(stats))
            }
            #[cfg(not(unix))]
            anyhow::bail!("--raw-server proto needs a Unix system (poll(2))")
        }
        _ => {
            let echo = {
                let _g = server_rt.enter();
                raw::EchoServer::start(localhost, sizes.0, sizes.1)?
            };
            let cpu0 = cpu();
            let r = clients(load, &echo, tables, duration, sizes, client_rt)?;
            let cpu1 = cpu();
            echo.close();
            // Drained before the next run connects and reads the memory.
            let idle = server_rt
                .block_on(async { tokio::time::timeout(SETTLE_MAX, echo.wait_idle()).await });
            if idle.is_err() {
                tracing::warn!("quinn's echo server still had connections after 10 s");
            }
            ("quinn", cpu0, r, cpu1, None)
        }
    };
    let delta = |a: &Option<Vec<f64>>, b: &Option<Vec<f64>>| -> Option<[f64; 2]> {
        let (a, b) = (a.as_ref()?, b.as_ref()?);
        Some([b.first()? - a.first()?, b.get(1)? - a.get(1)?])
    };
    Ok(RawRun {
        server: name,
        cpu_s: delta(&cpu0, &cpu1).unwrap_or_default(),
        connect_cpu_s: delta(&cpu0, &report.connected_cpu_s),
        report,
        shell,
    })
}

/// Every echo server of `--raw-server` in turn.
pub fn run_all(
    load: &Load,
    tables: usize,
    duration: Duration,
    runtimes: (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
) -> anyhow::Result<Vec<RawRun>> {
    servers(load.servers)
        .into_iter()
        .map(|s| run_one(load, s, tables, duration, runtimes))
        .collect()
}

/// `raw_servers` of the JSON.
pub fn json(runs: &[RawRun]) -> serde_json::Value {
    runs.iter().map(RawRun::json).collect()
}

/// `--raw-only`: the baseline alone, over `tables` connections for
/// `duration`; one JSON object if `json_out`.
pub fn raw_only(
    load: &Load,
    (tables, duration): (usize, Duration),
    json_out: bool,
    runtimes: (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
) -> anyhow::Result<ExitCode> {
    let runs = run_all(load, tables, duration, runtimes).context("raw baseline")?;
    let mode = if load.rate.is_some() { "rate" } else { "flood" };
    if json_out {
        outln!(
            "{}",
            serde_json::json!({
                "tables": tables,
                "duration_s": duration.as_secs_f64(),
                "mode": mode,
                "rate_per_table": load.rate,
                "window": load.window,
                "raw_servers": json(&runs),
            })
        );
    } else {
        outln!(
            "caipan bench hall --raw-only: {tables} connections, {} s, {mode}",
            duration.as_secs_f64()
        );
        for r in &runs {
            outln!("  {}", r.line());
        }
    }
    Ok(ExitCode::SUCCESS)
}
