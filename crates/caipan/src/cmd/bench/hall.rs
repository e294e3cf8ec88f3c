//! `caipan bench hall`: N table connections pressing clocks and three
//! subscribed consoles (the chief's and, from two tables, the two
//! deputies' of the bench's hall, each covering half the tables; every
//! console's deltas count in the press-to-console figures, each console's
//! p99 in `console_p99_each_ms`) against a hall server (in process with a temporary
//! data dir, or on PostgreSQL with `--store URL`; a child `caipan serve`
//! on a fresh temporary config and data dir with `--child-server`; or
//! `--server ADDR`), then a raw QUIC echo baseline of the same message
//! sizes over the same number of connections, in the same run (paced at
//! the same rate with `--rate`: its echo times, `raw_echo_ms`, are the
//! transport's floor under the hall's ack latencies).
//!
//! Reports acknowledged durable events/s (counted by the clients), ack
//! latency p50/p99/max, press-to-console latency p50/p99, the server's CPU
//! (its own threads by name, from /proc/self in process or /proc/PID of the
//! child), memory, the raw baseline and the ratio, and where the time went
//! per acknowledged event: CPU µs of each thread group (connections,
//! committer, store writer, fsync, load generator) from `/proc`, their
//! server part summed (`server_cpu_us_per_event`) beside the raw echo
//! server's CPU per echo, the committer's wall µs per stage
//! (`server::stages`, in process only), and the raw baseline's CPU µs per
//! echo on each side. `--json` prints one JSON object (the breakdown under
//! `stages_us_per_event`).
//!
//! Memory: in process the one figure is the bench process's
//! (`process_rss_mb`: the server AND the load generator); with
//! `--child-server` the server's own (`server_rss_mb` at the end of the
//! load, `server_rss_peak_mb` its peak, from the child's VmRSS and VmHWM)
//! and the bench process's apart (`client_rss_mb`), and the server's
//! memory by component a second before the load's end (`server_memory`,
//! see `hall_memory`: the child counts its own heap).
//!
//! `--stalled-viewers N` runs the load a second time, in the same run,
//! while N viewer connections subscribe, ask for table logs and never read
//! (`table::load::stalled`; they connect again when the server closes them
//! for not reading), and reports the acks and the console's deltas quiet
//! and under attack side by side (`under_attack` in the JSON).
//!
//! When the slow acks happen (`hall_timeline`): the JSON's `timeline`
//! holds each second of the window (acks: count, p50, p99, max; console
//! deltas: p99, max), merged over every client process, and
//! `ack_worst_seconds` the five worst seconds by ack p99 with the server's
//! markers of them (snapshot cuts, WAL checkpoints, slow commits and
//! fsyncs, console catch-ups, the memory probe: `server_markers`, from a
//! server this bench started); the text output prints the worst seconds
//! in one line. `connect_s` is connecting alone; the memory probe's
//! time is `probe_s`.
//!
//! Whether the machine held the server back (`hall_sched`): the JSON's
//! `server_sched` gives each of the server's thread groups (the QUIC
//! thread apart) its % of the wall time on a CPU and runnable but waiting
//! for one, and `server_cpu_wait_pct` their total wait.
//!
//! `--followers N` (with `--child-server`) turns the child's public
//! broadcast on and holds its live feed open with N followers while the
//! load runs (`hall_followers`): the server then does what it does in a
//! real hall with followers, and their delivery delays are reported
//! (`broadcast` in the JSON).

use anyhow::Context;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use proto::Trust;
use table::load::stalled::{Stalled, StalledReport};
use table::load::{self, procstat, raw, LoadOptions, LoadReport};

use super::raw_bench::{self, RawServer};
use super::resilience::child::ServeChild;
use super::resilience::{fixture, WorkDir};
use super::{hall_clients, hall_followers, hall_memory, hall_replies, hall_sched, hall_timeline};

/// Arguments of `caipan bench hall`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Table connections.
    #[arg(long, default_value_t = 100)]
    pub tables: u16,
    /// Seconds of measurement (each of the hall run and the baseline).
    #[arg(long, default_value_t = 10)]
    pub duration: u64,
    /// Presses per table per second (without it: flood, as fast as acks allow).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Events in flight per connection in flood mode.
    #[arg(long, default_value_t = 32)]
    pub window: usize,
    /// Target a running server instead (needs --config for tokens and a trust option).
    #[arg(long)]
    pub server: Option<SocketAddr>,
    /// Hall config with the tokens (with --server).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Server certificate file (with --server).
    #[arg(long, conflicts_with = "fingerprint")]
    pub cert: Option<PathBuf>,
    /// Server certificate SHA-256 fingerprint (with --server).
    #[arg(long)]
    pub fingerprint: Option<String>,
    /// The in-process server keeps its record in this PostgreSQL database
    /// (`postgres://…`; a fresh hall id per run) instead of SQLite in a
    /// temporary data dir.
    #[arg(long, conflicts_with = "server")]
    pub store: Option<String>,
    /// Run the server as a child `caipan serve` process on a fresh
    /// temporary config and data dir (instead of in this process), so its
    /// memory and CPU are its own.
    #[arg(long, conflicts_with = "server")]
    pub child_server: bool,
    /// Run the load again with this many viewer connections that never
    /// read (subscribed, asking for table logs) and report both runs (the
    /// in-process hall only, or --server with a viewer in --config).
    #[arg(long, default_value_t = 0)]
    pub stalled_viewers: usize,
    /// Halfway through the run every table drops its connection and
    /// connects again at once, resending what it had in flight; reports
    /// how long they took to be back and the acks meanwhile
    /// (`connect_storm` in the JSON).
    #[arg(long)]
    pub connect_storm: bool,
    /// Play the tables in this many child processes (each a share of
    /// them, `caipan bench hall-clients`), the consoles staying in this
    /// one; 1: everything in this process. Not with --stalled-viewers.
    #[arg(long, default_value_t = 1)]
    pub client_processes: usize,
    /// Play each child process's tables (--client-processes 2 or more) on
    /// one thread driving quinn's state machine (`table::load::lean`)
    /// instead of a tokio task per table over quinn's endpoint: the same
    /// connections, hello, presses and ack timing for far less of the
    /// machine's CPU. With --rate, not with --connect-storm.
    #[arg(long)]
    pub lean_tables: bool,
    /// Turn the child server's public broadcast on and hold its live feed
    /// open with this many followers (a child process) while the load
    /// runs; their delivery delays go into the JSON (`broadcast`). With
    /// --child-server; at most 32.
    #[arg(long, default_value_t = 0)]
    pub followers: usize,
    /// The bench hall's `[server] handshakes_per_second` (the handshake
    /// pace of a connect storm; 0: not paced; without it the default).
    #[arg(long)]
    pub handshakes_per_second: Option<usize>,
    /// The bench hall's `[server] unauthenticated_per_address`: every
    /// bench table connects from this machine's one address, where a
    /// hall's terminals each have their own (or share a router's, behind
    /// NAT); without it the default (32).
    #[arg(long)]
    pub unauthenticated_per_address: Option<usize>,
    /// Skip the raw QUIC baseline.
    #[arg(long)]
    pub no_baseline: bool,
    /// The raw baseline's echo server(s), in the order given: `quinn`
    /// (quinn's endpoint and tasks; the default), `proto` (quinn-proto
    /// driven by one thread of its own, `table::load::raw_shell`), `both`
    /// (quinn, then proto); a list such as `proto,quinn` runs them in that
    /// order on the same load. Given, the JSON gains `raw_servers` (each
    /// one's echoes/s, CPU µs per echo on each side, echo latencies,
    /// memory per connection; see `raw_bench`).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        conflicts_with = "no_baseline"
    )]
    pub raw_server: Vec<RawServer>,
    /// Run the raw baseline alone (no hall, no server): `--tables`
    /// connections, `--rate` or flood, `--duration`.
    #[arg(long, conflicts_with_all = ["server", "child_server", "no_baseline", "stalled_viewers", "connect_storm", "followers"])]
    pub raw_only: bool,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Thread name prefixes of the in-process server (runtime, committer, the
/// store's SQLite writer, its WAL sync thread, and the public broadcast's
/// thread of a child server: `broadcast::apart`).
const SERVER_THREADS: &[&str] = &[
    "caipan-srv",
    "caipan-commit",
    "store-writer",
    "store-sync",
    broadcast::apart::THREAD_NAME,
];

/// Thread groups of the breakdown: the server's (as [`SERVER_THREADS`])
/// and the load generator's.
const GROUPS: &[&str] = &[
    "caipan-srv",
    "caipan-commit",
    "store-writer",
    "store-sync",
    broadcast::apart::THREAD_NAME,
    "bench-client",
];

/// Where the time of the flood went, per acknowledged event.
#[derive(Debug, Default, serde::Serialize)]
pub struct Breakdown {
    /// CPU µs per event of the server's runtime threads: QUIC and TLS,
    /// framing, decoding, authorisation, submitting, writing replies and
    /// console deltas.
    pub connections_cpu_us: f64,
    /// CPU µs per event of the committer thread (all its stages below,
    /// less the time it waited for the store).
    pub committer_cpu_us: f64,
    /// CPU µs per event of the store's writer thread (SQLite inserts).
    pub store_writer_cpu_us: f64,
    /// CPU µs per event of the store's WAL sync thread (fsync calls).
    pub store_sync_cpu_us: f64,
    /// CPU µs per event of the public broadcast's thread (a child server
    /// with `--followers`; 0 without the broadcast).
    pub broadcast_cpu_us: f64,
    /// CPU µs per event of the load generator (the table terminals and the
    /// console, in this process).
    pub load_generator_cpu_us: f64,
    /// Wall µs per event of each committer stage (`server::stages`):
    /// plan, store (written and synced), apply, publish, snapshot.
    pub committer_stage_us: std::collections::BTreeMap<&'static str, f64>,
    /// Batches committed, and events per batch.
    pub batches: u64,
    /// Mean submissions per batch.
    pub per_batch: f64,
    /// CPU µs per echo of the raw baseline: its echo server (on the
    /// server's runtime threads) and its clients.
    pub raw_server_cpu_us: Option<f64>,
    /// The raw baseline's clients, CPU µs per echo.
    pub raw_client_cpu_us: Option<f64>,
}

impl Breakdown {
    /// The server's CPU µs per acknowledged event: connections, committer,
    /// store writer, sync and the broadcast's thread (not the load
    /// generator).
    pub fn server_cpu_us(&self) -> f64 {
        self.connections_cpu_us
            + self.committer_cpu_us
            + self.store_writer_cpu_us
            + self.store_sync_cpu_us
            + self.broadcast_cpu_us
    }

    /// The raw echo server's CPU per echo over the server's per event
    /// (1.0: the hall costs what bare QUIC does).
    pub fn raw_to_server_cpu(&self) -> Option<f64> {
        let server = self.server_cpu_us();
        self.raw_server_cpu_us
            .filter(|_| server > 0.0)
            .map(|raw| raw / server)
    }
}

/// CPU seconds so far of each of [`GROUPS`]: the server's thread groups
/// from the child `pid` (or this process), the load generator's from this
/// process.
fn groups_cpu(pid: Option<u32>) -> Option<Vec<f64>> {
    match pid {
        None => procstat::thread_cpu_by_prefix(GROUPS),
        Some(pid) => {
            let mut v = procstat::thread_cpu_of(Some(pid), SERVER_THREADS)?;
            v.extend(procstat::thread_cpu_of(
                None,
                &GROUPS[SERVER_THREADS.len()..],
            )?);
            Some(v)
        }
    }
}

fn cpu_delta(before: &Option<Vec<f64>>, after: &Option<Vec<f64>>) -> Vec<f64> {
    match (before, after) {
        (Some(a), Some(b)) => a.iter().zip(b).map(|(a, b)| b - a).collect(),
        _ => vec![0.0; GROUPS.len()],
    }
}

fn per_event(cpu_s: f64, events: u64) -> f64 {
    if events == 0 {
        0.0
    } else {
        cpu_s * 1e6 / events as f64
    }
}

/// Runs `caipan bench hall`.
/// Where the load goes: the server's address, how to trust it, the
/// tables with their tokens, the chief arbiter's token, a viewer's token
/// (for `--stalled-viewers`), the deputies' tokens (subscribed beside the
/// chief, at most two).
type Target = (
    SocketAddr,
    Trust,
    Vec<(u16, String)>,
    String,
    Option<String>,
    Vec<String>,
);

/// The server the load goes to.
enum Hosted {
    /// In this process, with its temporary folder.
    InProcess(server::RunningServer, PathBuf),
    /// A child `caipan serve` (`--child-server`), with its work dir and
    /// the probe of its memory.
    Child(ServeChild, WorkDir, hall_memory::Probe),
    /// `--server`: started by someone else.
    External,
}

impl Hosted {
    /// The child server's memory probe.
    fn probe(&self) -> Option<&hall_memory::Probe> {
        match self {
            Hosted::Child(_, _, p) => Some(p),
            _ => None,
        }
    }

    /// The child server's process id.
    fn child_pid(&self) -> Option<u32> {
        match self {
            Hosted::Child(c, ..) => Some(c.pid()),
            _ => None,
        }
    }

    /// The lines of the child server's log that hold `text` (`None`
    /// for a server without a log here).
    fn log_lines(&self, text: &str) -> Option<u64> {
        match self {
            Hosted::Child(_, work, _) => {
                let log = std::fs::read_to_string(work.path.join("serve.log")).ok()?;
                Some(log.lines().filter(|l| l.contains(text)).count() as u64)
            }
            _ => None,
        }
    }

    /// Stops a server this bench started and removes its folder.
    fn stop(self, server_rt: &tokio::runtime::Runtime) -> anyhow::Result<()> {
        match self {
            Hosted::InProcess(srv, tmp) => {
                server_rt
                    .block_on(srv.shutdown())
                    .context("stop the in-process server")?;
                let _ = std::fs::remove_dir_all(tmp);
            }
            Hosted::Child(child, _work, _) => {
                let code = child.terminate()?;
                if code != Some(0) {
                    anyhow::bail!("the child caipan serve exited with {code:?}");
                }
            }
            Hosted::External => {}
        }
        Ok(())
    }
}

/// A fresh server of `--tables` tables for the bench (a child process with
/// `--child-server`, else in this process on `server_rt`).
fn start_server(
    args: &Args,
    server_rt: &tokio::runtime::Runtime,
    public: Option<SocketAddr>,
) -> anyhow::Result<(Target, Hosted)> {
    if args.child_server {
        child_server(args, public)
    } else {
        in_process_server(args, server_rt)
    }
}

/// The tables `1..=n` of the bench's config with their tokens, the chief's
/// and the viewer's tokens.
fn fixture_target(addr: SocketAddr, trust: Trust, n: u16) -> Target {
    (
        addr,
        trust,
        (1..=n).map(|t| (t, fixture::table_token(t))).collect(),
        fixture::CHIEF_TOKEN.to_string(),
        Some(fixture::VIEWER_TOKEN.to_string()),
        fixture::deputy_tokens(n),
    )
}

/// The bench hall's config `text` with `--handshakes-per-second` and
/// `--unauthenticated-per-address` in its `[server]` section, if given.
fn with_pace(args: &Args, text: String) -> String {
    let knobs = [
        ("handshakes_per_second", args.handshakes_per_second),
        (
            "unauthenticated_per_address",
            args.unauthenticated_per_address,
        ),
    ];
    let lines: String = knobs
        .iter()
        .filter_map(|(key, value)| value.map(|n| format!("{key} = {n}\n")))
        .collect();
    text.replacen("[server]\n", &format!("[server]\n{lines}"), 1)
}

/// Starts `caipan serve` as a child process on a fresh config of
/// `--tables` tables and a fresh data dir in a work dir (removed at the
/// end, with the server's log); its broadcast on at `public` if given.
fn child_server(args: &Args, public: Option<SocketAddr>) -> anyhow::Result<(Target, Hosted)> {
    let work = WorkDir::new(None, "bench-hall")?;
    let config_path = fixture::write_config(&work.path, args.tables)?;
    let mut text = with_pace(args, std::fs::read_to_string(&config_path)?);
    if let Some(url) = &args.store {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        text.push_str(&fixture::store_section(url, &format!("bench-hall-{nanos}")));
    }
    if let Some(addr) = public {
        text.push_str(&hall_followers::config_section(addr));
    }
    std::fs::write(&config_path, text)?;
    let data = work.path.join("data");
    let memstats = work.path.join("memstats.json");
    let child =
        ServeChild::spawn_measured(&config_path, &data, &work.path.join("serve.log"), &memstats)
            .context("start the child caipan serve")?;
    let probe = hall_memory::Probe::new(child.pid(), memstats);
    probe.read("started");
    let target = fixture_target(
        child.addr,
        Trust::Fingerprint(child.fingerprint),
        args.tables,
    );
    Ok((target, Hosted::Child(child, work, probe)))
}

/// Starts a server in this process on a fresh config of `--tables` tables
/// in a temporary folder (removed when it stops).
fn in_process_server(
    args: &Args,
    server_rt: &tokio::runtime::Runtime,
) -> anyhow::Result<(Target, Hosted)> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let tmp =
        std::env::temp_dir().join(format!("caipan-bench-hall-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&tmp).context("temp dir")?;
    let mut text = with_pace(args, fixture::config_text(args.tables, "127.0.0.1:0"));
    if let Some(url) = &args.store {
        text.push_str(&fixture::store_section(url, &format!("bench-hall-{nanos}")));
    }
    let config = config::HallConfig::from_toml_str(&text, &tmp, &|_| None)
        .map_err(|e| anyhow::anyhow!("bench config: {e}"))?;
    let data = tmp.join("data");
    // Paced as `caipan serve` paces its purges (`malloc.rs`).
    crate::malloc::pace_purges();
    let srv = server_rt
        .block_on(server::Server::start(config, &data))
        .context("start the in-process server")?;
    let target = fixture_target(srv.addr, Trust::Fingerprint(srv.fingerprint), args.tables);
    Ok((target, Hosted::InProcess(srv, tmp)))
}

/// A server already running (`--server`), its tokens from `--config`.
fn external_server(args: &Args, addr: SocketAddr) -> anyhow::Result<Target> {
    let path = args
        .config
        .as_ref()
        .context("--server needs --config (for the tokens)")?;
    let config =
        config::HallConfig::load(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let trust = match (&args.cert, &args.fingerprint) {
        (Some(c), _) => Trust::CertFile(c.clone()),
        (None, Some(f)) => Trust::Fingerprint(f.parse().context("--fingerprint")?),
        (None, None) => anyhow::bail!("--server needs --cert or --fingerprint"),
    };
    let tables: Vec<(u16, String)> = config
        .credentials
        .tables
        .iter()
        .filter_map(|(t, tok)| Some((u16::try_from(*t).ok()?, tok.expose().to_string())))
        .take(usize::from(args.tables))
        .collect();
    let viewer = config
        .credentials
        .viewers
        .first()
        .map(|v| v.token.expose().to_string());
    let deputies = config
        .credentials
        .deputies
        .iter()
        .take(2)
        .map(|d| d.token.expose().to_string())
        .collect();
    Ok((
        addr,
        trust,
        tables,
        config.credentials.chief.token.expose().to_string(),
        viewer,
        deputies,
    ))
}

/// The same traffic against bare QUIC echo servers (no referee work,
/// `--raw-server`, quinn's alone by default): the floor the hall's figures
/// are read against. The CPU of quinn's run (else the first) goes into
/// `breakdown`; every run is returned.
fn raw_baseline(
    args: &Args,
    tables: usize,
    duration: Duration,
    runtimes: (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
    breakdown: &mut Breakdown,
) -> anyhow::Result<Vec<raw_bench::RawRun>> {
    let runs = raw_bench::run_all(&raw_load(args), tables, duration, runtimes)?;
    let main = runs.iter().find(|r| r.server == "quinn").or(runs.first());
    if let Some(r) = main {
        let [server, clients] = r.cpu_us();
        breakdown.raw_server_cpu_us = Some(server);
        breakdown.raw_client_cpu_us = Some(clients);
    }
    Ok(runs)
}

/// The raw baseline's load as the arguments give it.
fn raw_load(args: &Args) -> raw_bench::Load<'_> {
    raw_bench::Load {
        servers: &args.raw_server,
        rate: args.rate,
        window: args.window,
    }
}

/// A runtime of two worker threads named `name` (the CPU figures read the
/// threads by name).
fn runtime(name: &str) -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(name)
        .enable_all()
        .build()
}

/// The options that do not go together, refused before anything starts.
fn check_args(args: &Args) -> anyhow::Result<()> {
    if args.tables == 0 || args.duration == 0 || args.client_processes == 0 {
        anyhow::bail!("--tables, --duration and --client-processes must be at least 1");
    }
    if args.client_processes > 1 && args.stalled_viewers > 0 {
        anyhow::bail!("--client-processes above 1 does not go with --stalled-viewers");
    }
    if args.lean_tables && (args.client_processes < 2 || args.rate.is_none() || args.connect_storm)
    {
        anyhow::bail!(
            "--lean-tables needs --client-processes 2 or more and --rate, and does not go with --connect-storm"
        );
    }
    hall_followers::check(args.followers, args.child_server)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_args(&args)?;
    let client_rt = runtime(raw::CPU_GROUPS[1]).context("client runtime")?;
    let server_rt = runtime(raw::CPU_GROUPS[0]).context("server runtime")?;
    if args.raw_only {
        let size = (usize::from(args.tables), Duration::from_secs(args.duration));
        return raw_bench::raw_only(&raw_load(&args), size, args.json, (&server_rt, &client_rt));
    }
    let duration = Duration::from_secs(args.duration);
    let public = match args.followers {
        0 => None,
        _ => Some(hall_followers::free_addr()?),
    };

    let ((addr, trust, tables, console_token, viewer_token, deputies), hosted) = match args.server {
        None => start_server(&args, &server_rt, public)?,
        Some(addr) => (external_server(&args, addr)?, Hosted::External),
    };
    let followers = match public {
        Some(a) => Some(hall_followers::Followers::start(a, args.followers)?),
        None => None,
    };

    let opts = LoadOptions {
        server: addr,
        trust,
        tables,
        console_token,
        more_consoles: deputies,
        on_phase: hosted.probe().map(hall_memory::Probe::hook),
        duration,
        rate: args.rate,
        window: args.window,
        connect_parallel: 64,
        connect_storm: args.connect_storm.then(|| duration / 2),
    };
    let measured = measure(
        &client_rt,
        &opts,
        &hosted,
        (args.client_processes, args.lean_tables),
    )?;
    let Measured {
        report,
        mut breakdown,
        cpu,
        memory,
        components,
        clients,
        lagging,
        replies,
        markers,
        sched,
    } = measured;
    let mut followed = followers
        .map(hall_followers::Followers::finish)
        .transpose()
        .context("the broadcast's followers")?;
    if let Some(f) = followed.as_mut() {
        // How often the broadcast fell behind the server's tap and took a
        // fresh picture under the hall lock (`server::public`).
        f["fresh_pictures"] = hosted.log_lines(server::public::FELL_BEHIND).into();
    }
    let measured_server = !matches!(hosted, Hosted::External);
    hosted.stop(&server_rt)?;
    let runtimes = (&server_rt, &client_rt);
    let attacked = attack(&args, runtimes, &opts, viewer_token, measured_server)?;

    let raw_runs = if args.no_baseline {
        Vec::new()
    } else {
        raw_baseline(&args, report.tables, duration, runtimes, &mut breakdown)?
    };
    let baseline = raw_runs
        .iter()
        .find(|r| r.server == "quinn")
        .or(raw_runs.first())
        .map(|r| &r.report);
    let figures = Figures {
        report: &report,
        raw: baseline,
        raw_runs: (!args.raw_server.is_empty()).then_some(raw_runs.as_slice()),
        cpu,
        memory,
        components: components.as_ref(),
        stages: measured_server.then_some(&breakdown),
        attacked: attacked.as_ref(),
        clients: clients.as_ref(),
        followers: followed.as_ref(),
        lagging,
        replies: replies.as_ref(),
        markers: markers.as_ref(),
        sched: sched.as_deref(),
    };
    print(&args, &figures);
    Ok(ExitCode::SUCCESS)
}

/// What one run of the load measured on the server it ran against.
struct Measured {
    report: LoadReport,
    breakdown: Breakdown,
    /// The server's CPU % (a server this bench started).
    cpu: Option<f64>,
    memory: Memory,
    /// The child server's memory by component (`hall_memory`).
    components: Option<serde_json::Value>,
    /// The load generator's child processes (`--client-processes`).
    clients: Option<hall_clients::ClientsFigures>,
    /// What the server sent consoles that fell behind (a server this
    /// bench started).
    lagging: Option<Lagging>,
    /// The server's own reply times over the load (`hall_replies`; a
    /// server this bench started).
    replies: Option<hall_replies::Counts>,
    /// The server's markers (a server this bench started).
    markers: Option<hall_timeline::ServerMarkers>,
    /// What the scheduler gave the server's threads (a server this bench
    /// started).
    sched: Option<Vec<hall_sched::Share>>,
}

/// What the server sent consoles that fell behind during the load
/// (`server::TOTALS`: counted by the server, read from the child's
/// figures with `--child-server`).
#[derive(Debug, Clone, Copy, Default)]
struct Lagging {
    /// Catch-ups by the tables that changed.
    catch_ups: u64,
    /// Whole snapshots instead.
    whole_snapshots: u64,
}

impl Lagging {
    /// This process's totals so far.
    fn here() -> Lagging {
        use std::sync::atomic::Ordering::Relaxed;
        Lagging {
            catch_ups: server::TOTALS.catch_ups.load(Relaxed),
            whole_snapshots: server::TOTALS.whole_snapshots.load(Relaxed),
        }
    }

    fn since(self, before: Lagging) -> Lagging {
        Lagging {
            catch_ups: self.catch_ups.saturating_sub(before.catch_ups),
            whole_snapshots: self.whole_snapshots.saturating_sub(before.whole_snapshots),
        }
    }
}

/// Runs the load against `hosted` and reads the server's CPU by thread
/// group, the committer's stages (in process) and the memory figures.
fn measure(
    client_rt: &tokio::runtime::Runtime,
    opts: &LoadOptions,
    hosted: &Hosted,
    (client_processes, lean): (usize, bool),
) -> anyhow::Result<Measured> {
    let pid = hosted.child_pid();
    let groups0 = groups_cpu(pid);
    let sched0 = hall_sched::read(pid);
    let stages0 = match hosted {
        Hosted::InProcess(srv, _) => Some(srv.stages()),
        _ => None,
    };
    let lagging0 = Lagging::here();
    let replies0 = hall_replies::here();
    let wall0 = std::time::Instant::now();
    let (report, clients) = if client_processes > 1 {
        let (r, c) = client_rt
            .block_on(hall_clients::run(opts.clone(), client_processes, lean))
            .context("hall load in child processes")?;
        (r, Some(c))
    } else {
        let r = client_rt
            .block_on(load::run(opts.clone()))
            .context("hall load")?;
        (r, None)
    };
    let wall = wall0.elapsed().as_secs_f64();
    let mut groups = cpu_delta(&groups0, &groups_cpu(pid));
    let sched = match hosted {
        Hosted::External => None,
        _ => hall_sched::shares(sched0.as_deref(), hall_sched::read(pid).as_deref(), wall),
    };
    let (lagging, replies) = counted(hosted, lagging0, &replies0);
    let markers = match hosted {
        Hosted::InProcess(..) => Some(crate::memstats::markers_now()),
        Hosted::Child(_, _, probe) => Some(probe.markers()),
        Hosted::External => None,
    }
    .map(|(list, dropped)| hall_timeline::ServerMarkers { list, dropped });
    // The load generator's CPU: this process's and its children's.
    groups[5] += clients.as_ref().map_or(0.0, |c| c.cpu_s);
    let components = hosted
        .probe()
        .and_then(|p| hall_memory::components_json(&p.readings(), report.tables));
    let acked = report.acked_events;
    let mut breakdown = Breakdown {
        connections_cpu_us: per_event(groups[0], acked),
        committer_cpu_us: per_event(groups[1], acked),
        store_writer_cpu_us: per_event(groups[2], acked),
        store_sync_cpu_us: per_event(groups[3], acked),
        broadcast_cpu_us: per_event(groups[4], acked),
        load_generator_cpu_us: per_event(groups[5], acked),
        ..Breakdown::default()
    };
    if let (Some(s0), Hosted::InProcess(srv, _)) = (stages0, hosted) {
        let d = srv.stages().since(&s0);
        breakdown.batches = d.batches;
        breakdown.per_batch = if d.batches == 0 {
            0.0
        } else {
            d.records as f64 / d.batches as f64
        };
        for st in server::stages::Stage::ALL {
            breakdown
                .committer_stage_us
                .insert(st.name(), d.us_per_event(st, acked));
        }
    }
    let server_cpu_s: f64 = groups[..SERVER_THREADS.len()].iter().sum();
    let (cpu, memory) = match hosted {
        Hosted::External => (None, Memory::apart(None)),
        Hosted::InProcess(..) => (
            groups0.map(|_| server_cpu_s / wall * 100.0),
            Memory {
                process: procstat::memory_of(None),
                ..Memory::default()
            },
        ),
        Hosted::Child(..) => (
            groups0.map(|_| server_cpu_s / wall * 100.0),
            Memory::apart(pid),
        ),
    };
    Ok(Measured {
        report,
        breakdown,
        cpu,
        memory,
        components,
        clients,
        lagging,
        replies,
        markers,
        sched,
    })
}

/// What the server counted over the load: the catch-ups it sent lagging
/// consoles and its reply times (read from the child after the load, or
/// from this process since `lagging0` and `replies0`).
fn counted(
    hosted: &Hosted,
    lagging0: Lagging,
    replies0: &hall_replies::Counts,
) -> (Option<Lagging>, Option<hall_replies::Counts>) {
    match hosted {
        Hosted::InProcess(..) => (
            Some(Lagging::here().since(lagging0)),
            Some(hall_replies::over(replies0, &hall_replies::here())),
        ),
        Hosted::Child(_, _, probe) => {
            probe.read("after_load");
            let readings = probe.readings();
            let at = |phase: &str| readings.iter().rev().find(|r| r.phase == phase);
            let after = at("after_load");
            let lagging = after.map(|r| Lagging {
                catch_ups: r.heap.console_catch_ups,
                whole_snapshots: r.heap.console_whole_snapshots,
            });
            let counts = |r: &hall_memory::Reading| hall_replies::Counts {
                replied: r.heap.reply_time_counts.clone(),
                answered: r.heap.answer_time_counts.clone(),
            };
            let replies = at("started")
                .zip(after)
                .map(|(before, after)| hall_replies::over(&counts(before), &counts(after)));
            (lagging, replies)
        }
        Hosted::External => (None, None),
    }
}

/// Resident memory at the end of the load: in process one figure for the
/// bench process (server and load generator), otherwise the server's own
/// (a child) and the bench process's apart.
#[derive(Debug, Clone, Copy, Default)]
struct Memory {
    /// This process, holding the server and the load generator.
    process: Option<procstat::Memory>,
    /// The child server alone.
    server: Option<procstat::Memory>,
    /// This process, the load generator without the server.
    client: Option<procstat::Memory>,
}

impl Memory {
    /// The server `pid`'s (if a child) and this process's as the client's.
    fn apart(pid: Option<u32>) -> Memory {
        Memory {
            process: None,
            server: pid.and_then(|p| procstat::memory_of(Some(p))),
            client: procstat::memory_of(None),
        }
    }
}

/// The run under attack (`--stalled-viewers`), if asked for: on a fresh
/// in-process server, or on the `--server` given.
fn attack(
    args: &Args,
    runtimes: (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
    quiet: &LoadOptions,
    viewer_token: Option<String>,
    own_server: bool,
) -> anyhow::Result<Option<(LoadReport, StalledReport)>> {
    Ok(match args.stalled_viewers {
        0 => None,
        n if own_server => Some(attack_fresh(args, runtimes, quiet, n)?),
        n => Some(under_attack(runtimes.1, quiet, viewer_token, n)?),
    })
}

/// The run under attack on a fresh server like the quiet run's (in
/// process or a child; the same config, a new data dir): a second run of
/// the load on the first server's tables, whose sessions and clocks it
/// already moved, had its acks seconds late even with no attacker.
fn attack_fresh(
    args: &Args,
    (server_rt, client_rt): (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
    quiet: &LoadOptions,
    n: usize,
) -> anyhow::Result<(LoadReport, StalledReport)> {
    let ((server, trust, tables, console_token, viewer, deputies), hosted) =
        start_server(args, server_rt, None)?;
    let opts = LoadOptions {
        server,
        trust,
        tables,
        console_token,
        more_consoles: deputies,
        on_phase: None,
        ..quiet.clone()
    };
    let r = under_attack(client_rt, &opts, viewer, n);
    hosted.stop(server_rt)?;
    r
}

/// The load again, while `n` viewers with `token` ask for table logs and
/// never read (`--stalled-viewers`): its report and the viewers'.
fn under_attack(
    client_rt: &tokio::runtime::Runtime,
    opts: &LoadOptions,
    token: Option<String>,
    n: usize,
) -> anyhow::Result<(LoadReport, StalledReport)> {
    let Some(token) = token else {
        anyhow::bail!("--stalled-viewers needs a viewer token in the config");
    };
    let n_tables = u16::try_from(opts.tables.len()).unwrap_or(u16::MAX);
    let opts = opts.clone();
    client_rt.block_on(async move {
        let attack = Stalled::start(opts.server, &opts.trust, &token, n, n_tables)?;
        // Let them fill what the server gives them first.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let r = load::run(opts).await.context("hall load under attack");
        let s = attack.stop();
        anyhow::Ok((r?, s))
    })
}

/// The run under attack beside the quiet one: its figures, the stalled
/// viewers' and the ratios of the p99s (under attack / quiet).
fn attack_json(quiet: &LoadReport, (r, s): &(LoadReport, StalledReport)) -> serde_json::Value {
    let ratio = |a: f64, q: f64| (q > 0.0).then(|| a / q);
    let mut v = latencies_json(r);
    v.extend([
        ("stalled_viewers".into(), s.viewers.into()),
        ("stalled_connections".into(), s.connections.into()),
        (
            "closed_for_not_reading".into(),
            s.closed_for_not_reading.into(),
        ),
        ("log_requests_taken".into(), s.log_requests.into()),
        (
            "ack_p99_ratio".into(),
            ratio(r.ack_p99_ms, quiet.ack_p99_ms).into(),
        ),
        (
            "console_p99_ratio".into(),
            ratio(r.console_p99_ms, quiet.console_p99_ms).into(),
        ),
    ]);
    v.into()
}

/// A run's acks and console deltas: how many, how fast, how late.
/// `total` bytes per console per event (0 without consoles or events).
fn per(total: u64, consoles: usize, events: u64) -> f64 {
    match (consoles, events) {
        (0, _) | (_, 0) => 0.0,
        (c, e) => total as f64 / (c as f64 * e as f64),
    }
}

fn latencies_json(r: &LoadReport) -> serde_json::Map<String, serde_json::Value> {
    let v = serde_json::json!({
        "sent_events": r.sent_events,
        "acked_events": r.acked_events,
        "acked_per_s": r.acked_per_s,
        "ack_p50_ms": r.ack_p50_ms,
        "ack_p99_ms": r.ack_p99_ms,
        "ack_max_ms": r.ack_max_ms,
        "console_samples": r.console_samples,
        "console_p50_ms": r.console_p50_ms,
        "console_p99_ms": r.console_p99_ms,
        "console_snapshots": r.console_snapshots,
        "consoles": r.consoles,
        // Per console: what a press costs it on the wire (issue 40,
        // compact table deltas).
        "console_delta_bytes_per_press": per(r.console_delta_bytes, r.consoles, r.acked_events),
        "console_rx_bytes_per_press": per(r.console_rx_bytes, r.consoles, r.acked_events),
        "console_rx_datagrams_per_s": r.console_rx_datagrams as f64
            / (r.consoles.max(1) as f64 * r.duration_s.max(1e-9)),
        "console_p99_each_ms": r.console_p99_each_ms,
        "errors": r.errors,
    });
    match v {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}

/// The connect storm's figures (`--connect-storm`).
fn storm_json(s: &load::storm::StormReport) -> serde_json::Value {
    serde_json::json!({
        "at_s": s.at_s,
        "tables": s.tables,
        "reconnected": s.reconnected,
        "attempts": s.attempts,
        "reconnect_p50_s": s.reconnect_p50_s,
        "reconnect_p99_s": s.reconnect_p99_s,
        "reconnect_max_s": s.reconnect_max_s,
        "acks": s.acks,
        "ack_p50_ms": s.ack_p50_ms,
        "ack_p99_ms": s.ack_p99_ms,
        "ack_max_ms": s.ack_max_ms,
    })
}

/// The tables' QUIC packets (client side: what they sent the server
/// received), in all and per `per` (acked events, or tables).
fn packets_json(p: &load::Packets, per: u64) -> serde_json::Value {
    let each = |n: u64| (per > 0).then(|| n as f64 / per as f64);
    serde_json::json!({
        "udp_tx": p.udp_tx,
        "udp_rx": p.udp_rx,
        "udp_tx_each": each(p.udp_tx),
        "udp_rx_each": each(p.udp_rx),
        "ack_frames_tx": p.acks_tx,
        "ack_frames_rx": p.acks_rx,
        "pings_tx": p.pings_tx,
        "pings_rx": p.pings_rx,
        "mtu_probes_tx": p.mtu_probes_tx,
        "lost": p.lost,
    })
}

/// What the run measured, for printing.
#[derive(Clone, Copy)]
struct Figures<'a> {
    report: &'a LoadReport,
    /// The raw QUIC baseline (quinn's echo server, or the first asked
    /// for), unless skipped.
    raw: Option<&'a raw::RawReport>,
    /// Every echo server's run, when `--raw-server` was given.
    raw_runs: Option<&'a [raw_bench::RawRun]>,
    /// The server's CPU % (a server this bench started).
    cpu: Option<f64>,
    /// Resident memory, the server's apart when it is a child.
    memory: Memory,
    /// The child server's memory by component.
    components: Option<&'a serde_json::Value>,
    /// Where the time went (a server this bench started).
    stages: Option<&'a Breakdown>,
    /// The run under attack (`--stalled-viewers`).
    attacked: Option<&'a (LoadReport, StalledReport)>,
    /// The load generator's child processes (`--client-processes`).
    clients: Option<&'a hall_clients::ClientsFigures>,
    /// What the broadcast's followers saw (`--followers`).
    followers: Option<&'a serde_json::Value>,
    /// What the server sent consoles that fell behind.
    lagging: Option<Lagging>,
    /// The server's own reply times over the load.
    replies: Option<&'a hall_replies::Counts>,
    /// The server's markers (a server this bench started).
    markers: Option<&'a hall_timeline::ServerMarkers>,
    /// What the scheduler gave the server's threads.
    sched: Option<&'a [hall_sched::Share]>,
}

/// The figures as one JSON object (`--json`).
fn json(args: &Args, f: &Figures) -> serde_json::Value {
    let r = f.report;
    let raw_per_s = f.raw.map(|b| b.echoes_per_s);
    let ratio = raw_per_s.filter(|b| *b > 0.0).map(|b| r.acked_per_s / b);
    let mut v = latencies_json(r);
    let rest = serde_json::json!({
        "tables": r.tables,
        "duration_s": r.duration_s,
        "mode": if args.rate.is_some() { "rate" } else { "flood" },
        "rate_per_table": args.rate,
        "window": args.window,
        "connect_s": r.connect_s,
        "probe_s": r.probe_s,
        "raw_quic_per_s": raw_per_s,
        "raw_echo_ms": f.raw.and_then(|b| b.latency_ms).map(|[p50, p99, max]| {
            serde_json::json!({ "p50": p50, "p99": p99, "max": max })
        }),
        "ratio": ratio,
        "server_cpu_pct": f.cpu,
        "server_sched": f.sched,
        "server_cpu_wait_pct": f.sched.map(hall_sched::total_wait_pct),
        "server_cpu_us_per_event": f.stages.map(Breakdown::server_cpu_us),
        "raw_server_cpu_us": f.stages.and_then(|b| b.raw_server_cpu_us),
        "raw_to_server_cpu_ratio": f.stages.and_then(Breakdown::raw_to_server_cpu),
        "process_rss_mb": f.memory.process.map(|m| m.rss_mb),
        "server_rss_mb": f.memory.server.map(|m| m.rss_mb),
        "server_rss_peak_mb": f.memory.server.map(|m| m.peak_mb),
        "client_rss_mb": f.memory.client.map(|m| m.rss_mb),
        "server_memory": f.components,
        "stages_us_per_event": f.stages,
        "under_attack": f.attacked.map(|a| attack_json(r, a)),
        "connect_storm": r.storm.as_ref().map(storm_json),
        "broadcast": f.followers,
        "table_packets": packets_json(&r.packets, r.acked_events),
        "table_connect_packets": packets_json(&r.connect_packets, r.tables as u64),
        "console_catchups": f.lagging.map(|l| l.catch_ups),
        "console_whole_snapshots": f.lagging.map(|l| l.whole_snapshots),
        "server_reply_ms": f.replies.map(hall_replies::json),
    });
    if let serde_json::Value::Object(rest) = rest {
        v.extend(rest);
    }
    if let Some(runs) = f.raw_runs {
        v.insert("raw_servers".into(), raw_bench::json(runs));
    }
    v.extend(hall_timeline::json(r, f.markers));
    if let Some(c) = f.clients {
        // The bench's RSS is then this process's and its children's.
        let own = f.memory.client.map_or(0.0, |m| m.rss_mb);
        v.extend([
            ("client_processes".into(), c.processes.into()),
            ("lean_tables".into(), c.lean.into()),
            (
                "client_rss_mb".into(),
                (own + c.rss_mb.iter().sum::<f64>()).into(),
            ),
            ("client_shares".into(), c.shares.clone().into()),
        ]);
    }
    v.into()
}

fn print(args: &Args, f: &Figures) {
    let Figures {
        report: r,
        raw,
        raw_runs,
        cpu,
        memory,
        components,
        stages,
        attacked,
        clients,
        followers,
        lagging,
        replies,
        markers,
        sched,
    } = *f;
    let raw_per_s = raw.map(|b| b.echoes_per_s);
    let ratio = raw_per_s.filter(|b| *b > 0.0).map(|b| r.acked_per_s / b);
    if args.json {
        outln!("{}", json(args, f));
        return;
    }
    let mode = match args.rate {
        Some(rate) => format!("{rate} presses/table/s"),
        None => format!("flood, window {}", args.window),
    };
    outln!(
        "caipan bench hall: {} tables, {} s, {mode}",
        r.tables,
        r.duration_s
    );
    outln!(
        "  connected in           {:.2} s  (memory probe {:.2} s apart)",
        r.connect_s,
        r.probe_s
    );
    outln!(
        "  sent / acked events    {} / {}",
        r.sent_events,
        r.acked_events
    );
    outln!("  acked durable events/s {:.0}", r.acked_per_s);
    outln!(
        "  ack latency ms         p50 {:.2}  p99 {:.2}  max {:.2}",
        r.ack_p50_ms,
        r.ack_p99_ms,
        r.ack_max_ms
    );
    outln!(
        "  press-to-console ms    p50 {:.2}  p99 {:.2}  ({} samples, {} resync snapshots)",
        r.console_p50_ms,
        r.console_p99_ms,
        r.console_samples,
        r.console_snapshots
    );
    if let Some(line) = replies.and_then(hall_replies::line) {
        outln!("  server's own reply ms  {line}");
    }
    if let Some(l) = lagging {
        outln!(
            "  lagging consoles       {} catch-ups by changed tables, {} whole snapshots (server)",
            l.catch_ups,
            l.whole_snapshots
        );
    }
    outln!("  errors                 {}", r.errors);
    if let Some(line) = hall_timeline::worst_line(r, markers) {
        outln!("  worst seconds (ack)    {line}");
    }
    print_packets(r);
    if let Some(b) = followers {
        print_followers(b);
    }
    print_cpu(cpu, sched);
    print_memory(&memory, clients);
    if let Some(c) = components {
        outln!("  server memory, MiB     {}", c["components_mb"]);
        outln!("  server bytes/table     {}", c["bytes_per_table"]);
    }
    if let Some(b) = stages {
        print_stages(b);
    }
    if let Some(a) = attacked {
        print_attack(r, a);
    }
    if let (Some(b), Some(q)) = (raw, ratio) {
        outln!(
            "  raw QUIC echo/s        {:.0} over {} connections  (ingest/raw = {:.2})",
            b.echoes_per_s,
            b.connections,
            q
        );
        if let Some([p50, p99, max]) = b.latency_ms {
            outln!("  raw QUIC echo ms       p50 {p50:.2}  p99 {p99:.2}  max {max:.2}");
        }
    }
    for run in raw_runs.unwrap_or_default() {
        outln!("  raw echo server        {}", run.line());
    }
}

/// The server's CPU, and what the scheduler gave its threads.
fn print_cpu(cpu: Option<f64>, sched: Option<&[hall_sched::Share]>) {
    match cpu {
        Some(c) => outln!("  server CPU             {c:.0} % (its own threads)"),
        None => outln!("  server CPU             n/a (not started by the bench)"),
    }
    if let Some(s) = sched {
        outln!("  server threads         {}", hall_sched::line(s));
    }
}

/// The tables' QUIC datagrams per acknowledged event, and the connect
/// storm's line if there was one.
fn print_packets(r: &LoadReport) {
    if let Some(s) = &r.storm {
        print_storm(s);
    }
    if r.acked_events == 0 {
        return;
    }
    let per = |n: u64| n as f64 / r.acked_events as f64;
    outln!(
        "  QUIC datagrams/event   tables sent {:.2}  received {:.2}  (ACK frames {:.2} / {:.2}, pings {} / {}, MTU probes {})",
        per(r.packets.udp_tx),
        per(r.packets.udp_rx),
        per(r.packets.acks_tx),
        per(r.packets.acks_rx),
        r.packets.pings_tx,
        r.packets.pings_rx,
        r.packets.mtu_probes_tx
    );
}

/// The connect storm's line (`--connect-storm`).
/// Where the time went, per acknowledged event.
fn print_stages(b: &Breakdown) {
    outln!(
        "  CPU µs per event       connections {:.2}  committer {:.2}  store writer {:.2}  fsync {:.2}  broadcast {:.2}  load generator {:.2}",
        b.connections_cpu_us,
        b.committer_cpu_us,
        b.store_writer_cpu_us,
        b.store_sync_cpu_us,
        b.broadcast_cpu_us,
        b.load_generator_cpu_us
    );
    let st: Vec<String> = b
        .committer_stage_us
        .iter()
        .map(|(k, v)| format!("{k} {v:.2}"))
        .collect();
    outln!(
        "  committer wall µs/event {}  ({} batches, {:.0} per batch)",
        st.join("  "),
        b.batches,
        b.per_batch
    );
    outln!(
        "  server CPU µs/event    {:.2}  (connections + committer + store writer + fsync)",
        b.server_cpu_us()
    );
    if let (Some(s), Some(c)) = (b.raw_server_cpu_us, b.raw_client_cpu_us) {
        outln!("  raw echo CPU µs        server {s:.2}  clients {c:.2}");
    }
    if let Some(q) = b.raw_to_server_cpu() {
        outln!("  raw echo / server CPU  {q:.2}");
    }
}

/// What the broadcast's followers saw (`--followers`).
fn print_followers(b: &serde_json::Value) {
    outln!(
        "  broadcast followers    {} of {} connected; delivery ms p50 {}  p99 {}  max {}  ({} samples, {} snapshots, {} catch-ups, {} fresh pictures)",
        b["connected"], b["followers"], b["p50_ms"], b["p99_ms"], b["max_ms"], b["samples"], b["snapshots"], b["catchups"], b["fresh_pictures"]
    );
}

fn print_storm(s: &load::storm::StormReport) {
    outln!(
        "  connect storm at {:.0} s  {} of {} tables back in {:.2} s (p50 {:.2} s, {} attempts); acks meanwhile p99 {:.1} ms max {:.1} ms ({})",
        s.at_s,
        s.reconnected,
        s.tables,
        s.reconnect_max_s,
        s.reconnect_p50_s,
        s.attempts,
        s.ack_p99_ms,
        s.ack_max_ms,
        s.acks
    );
}

/// The memory lines: the one process's, or the server's and the bench's
/// (and its child processes').
fn print_memory(m: &Memory, clients: Option<&hall_clients::ClientsFigures>) {
    if let Some(c) = clients {
        outln!(
            "  load generator         {} child processes, RSS {:?} MiB",
            c.processes,
            c.rss_mb.iter().map(|m| m.round()).collect::<Vec<_>>()
        );
    }
    if let Some(p) = m.process {
        outln!(
            "  process RSS            {:.0} MiB (server and load generator in one process)",
            p.rss_mb
        );
    }
    if let Some(s) = m.server {
        outln!(
            "  server RSS             {:.0} MiB at the end, peak {:.0} MiB (the child caipan serve alone)",
            s.rss_mb,
            s.peak_mb
        );
    }
    if let Some(c) = m.client {
        outln!(
            "  bench RSS              {:.0} MiB (the load generator)",
            c.rss_mb
        );
    }
}

/// The run under attack, with the quiet run's p99s beside its own.
fn print_attack(r: &LoadReport, (a, s): &(LoadReport, StalledReport)) {
    outln!(
        "  under attack           {} stalled viewers ({} connections, {} closed for not reading, {} log requests taken)",
        s.viewers,
        s.connections,
        s.closed_for_not_reading,
        s.log_requests
    );
    outln!(
        "    ack latency ms       p50 {:.2}  p99 {:.2}  max {:.2}  (quiet p99 {:.2})",
        a.ack_p50_ms,
        a.ack_p99_ms,
        a.ack_max_ms,
        r.ack_p99_ms
    );
    outln!(
        "    press-to-console ms  p50 {:.2}  p99 {:.2}  (quiet p99 {:.2}; {} samples, {} resync snapshots)",
        a.console_p50_ms,
        a.console_p99_ms,
        r.console_p99_ms,
        a.console_samples,
        a.console_snapshots
    );
    outln!(
        "    acked events/s       {:.0}  errors {}",
        a.acked_per_s,
        a.errors
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn parse(words: &[&str]) -> Result<Args, clap::Error> {
        let mut all = vec!["hall"];
        all.extend_from_slice(words);
        Cli::try_parse_from(all).map(|c| c.args)
    }

    #[test]
    fn the_raw_server_option_parses_in_the_order_given() {
        let a = parse(&[]).expect("no option");
        assert!(a.raw_server.is_empty() && !a.raw_only);
        assert_eq!(raw_bench::servers(&a.raw_server), [RawServer::Quinn]);
        let a = parse(&["--raw-server", "both"]).expect("both");
        assert_eq!(
            raw_bench::servers(&a.raw_server),
            [RawServer::Quinn, RawServer::Proto]
        );
        let a = parse(&["--raw-server", "proto,quinn"]).expect("a list");
        assert_eq!(
            raw_bench::servers(&a.raw_server),
            [RawServer::Proto, RawServer::Quinn]
        );
        let a = parse(&["--raw-server", "proto", "--raw-only", "--tables", "10000"])
            .expect("the baseline alone");
        assert!(a.raw_only);
        assert_eq!(raw_bench::servers(&a.raw_server), [RawServer::Proto]);
    }

    #[test]
    fn a_wrong_raw_server_option_is_refused() {
        let e = parse(&["--raw-server", "tokio"]).expect_err("no such server");
        assert!(e.to_string().contains("tokio"), "{e}");
        parse(&["--raw-server", "proto", "--no-baseline"]).expect_err("no baseline to run");
        parse(&["--raw-only", "--server", "127.0.0.1:4433"]).expect_err("no hall to target");
    }

    #[test]
    fn the_server_knobs_land_in_the_bench_halls_config() {
        let text = fixture::config_text(4, "127.0.0.1:0");
        let plain = with_pace(&parse(&[]).expect("no option"), text.clone());
        assert_eq!(plain, text);
        let a = parse(&[
            "--handshakes-per-second",
            "400",
            "--unauthenticated-per-address",
            "256",
        ])
        .expect("both knobs");
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("hall.toml");
        std::fs::write(&path, with_pace(&a, text)).expect("config written");
        let config = config::HallConfig::load(&path).expect("a valid config");
        assert_eq!(config.server.limits.handshakes_per_second, 400);
        assert_eq!(config.server.limits.unauthenticated_per_address, 256);
    }
}
