//! `caipan bench hall`: N table connections pressing clocks and one
//! subscribed console against a hall server (in process with a temporary
//! data dir, or on PostgreSQL with `--store URL`, or `--server ADDR`), then a raw QUIC echo baseline of the same
//! message sizes over the same number of connections, in the same run.
//!
//! Reports acknowledged durable events/s (counted by the clients), ack
//! latency p50/p99/max, press-to-console latency p50/p99, the server's CPU
//! (its own threads, from /proc/self, in process only) and the process's
//! RSS, the raw baseline and the ratio, and (in process) where the time
//! went per acknowledged event: CPU µs of each thread group (connections,
//! committer, store writer, fsync, load generator) from `/proc`, the
//! committer's wall µs per stage (`server::stages`), and the raw
//! baseline's CPU µs per echo on each side. `--json` prints one JSON
//! object (the breakdown under `stages_us_per_event`).
//!
//! `--stalled-viewers N` runs the load a second time, in the same run,
//! while N viewer connections subscribe, ask for table logs and never read
//! (`table::load::stalled`; they connect again when the server closes them
//! for not reading), and reports the acks and the console's deltas quiet
//! and under attack side by side (`under_attack` in the JSON).

use anyhow::Context;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use proto::{ClientMsg, ServerMsg, Trust};
use table::load::stalled::{Stalled, StalledReport};
use table::load::{self, procstat, raw, LoadOptions, LoadReport};

use super::resilience::fixture;

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
    /// Run the load again with this many viewer connections that never
    /// read (subscribed, asking for table logs) and report both runs (the
    /// in-process hall only, or --server with a viewer in --config).
    #[arg(long, default_value_t = 0)]
    pub stalled_viewers: usize,
    /// Skip the raw QUIC baseline.
    #[arg(long)]
    pub no_baseline: bool,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Thread name prefixes of the in-process server (runtime, committer, the
/// store's SQLite writer and its WAL sync thread).
const SERVER_THREADS: &[&str] = &["caipan-srv", "caipan-commit", "store-writer", "store-sync"];

/// Thread groups of the breakdown: the server's (as [`SERVER_THREADS`])
/// and the load generator's.
const GROUPS: &[&str] = &[
    "caipan-srv",
    "caipan-commit",
    "store-writer",
    "store-sync",
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
/// (for `--stalled-viewers`).
type Target = (
    SocketAddr,
    Trust,
    Vec<(u16, String)>,
    String,
    Option<String>,
);

/// Starts a server in this process on a fresh config of `--tables` tables
/// in a temporary folder (returned, to remove at the end).
fn in_process_server(
    args: &Args,
    server_rt: &tokio::runtime::Runtime,
) -> anyhow::Result<(Target, server::RunningServer, PathBuf)> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let tmp =
        std::env::temp_dir().join(format!("caipan-bench-hall-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&tmp).context("temp dir")?;
    let mut text = fixture::config_text(args.tables, "127.0.0.1:0");
    if let Some(url) = &args.store {
        text.push_str(&fixture::store_section(url, &format!("bench-hall-{nanos}")));
    }
    let config = config::HallConfig::from_toml_str(&text, &tmp, &|_| None)
        .map_err(|e| anyhow::anyhow!("bench config: {e}"))?;
    let data = tmp.join("data");
    let srv = server_rt
        .block_on(server::Server::start(config, &data))
        .context("start the in-process server")?;
    let target = (
        srv.addr,
        Trust::Fingerprint(srv.fingerprint),
        (1..=args.tables)
            .map(|t| (t, fixture::table_token(t)))
            .collect::<Vec<_>>(),
        fixture::CHIEF_TOKEN.to_string(),
        Some(fixture::VIEWER_TOKEN.to_string()),
    );
    Ok((target, srv, tmp))
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
    Ok((
        addr,
        trust,
        tables,
        config.credentials.chief.token.expose().to_string(),
        viewer,
    ))
}

/// The same traffic against a bare QUIC echo server (no referee work): the
/// floor the hall's figures are read against; its CPU goes into
/// `breakdown`.
fn raw_baseline(
    args: &Args,
    tables: usize,
    duration: Duration,
    (server_rt, client_rt): (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
    breakdown: &mut Breakdown,
) -> anyhow::Result<raw::RawReport> {
    let req = frame_len(&ClientMsg::Event(load::bench_press(1, 1, 1, 1)))?;
    let resp = frame_len(&ServerMsg::Ack(proto::Ack {
        table: 1,
        epoch: 1,
        seq: 1,
        duplicate: false,
    }))?;
    let echo = {
        let _g = server_rt.enter();
        raw::EchoServer::start((std::net::Ipv4Addr::LOCALHOST, 0).into(), req, resp)?
    };
    let window = if args.rate.is_some() { 1 } else { args.window };
    let raw0 = procstat::thread_cpu_by_prefix(GROUPS);
    let r = client_rt.block_on(raw::flood(&echo, tables, req, resp, window, duration))?;
    let raw_cpu = cpu_delta(&raw0, &procstat::thread_cpu_by_prefix(GROUPS));
    breakdown.raw_server_cpu_us = Some(per_event(raw_cpu[0], r.echoes));
    breakdown.raw_client_cpu_us = Some(per_event(raw_cpu[4], r.echoes));
    echo.close();
    Ok(r)
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.tables == 0 || args.duration == 0 {
        anyhow::bail!("--tables and --duration must be at least 1");
    }
    let client_rt = runtime("bench-client").context("client runtime")?;
    let server_rt = runtime("caipan-srv").context("server runtime")?;
    let duration = Duration::from_secs(args.duration);

    let mut tmp_dir: Option<PathBuf> = None;
    let mut running = None;
    let (addr, trust, tables, console_token, viewer_token) = match args.server {
        None => {
            let (target, srv, tmp) = in_process_server(&args, &server_rt)?;
            tmp_dir = Some(tmp);
            running = Some(srv);
            target
        }
        Some(addr) => external_server(&args, addr)?,
    };

    let opts = LoadOptions {
        server: addr,
        trust,
        tables,
        console_token,
        duration,
        rate: args.rate,
        window: args.window,
        connect_parallel: 64,
    };
    let cpu0 = procstat::thread_cpu_seconds(SERVER_THREADS);
    let groups0 = procstat::thread_cpu_by_prefix(GROUPS);
    let stages0 = running.as_ref().map(|s| s.stages());
    let wall0 = std::time::Instant::now();
    let report = client_rt
        .block_on(load::run(opts.clone()))
        .context("hall load")?;
    let wall = wall0.elapsed().as_secs_f64();
    let cpu1 = procstat::thread_cpu_seconds(SERVER_THREADS);
    let groups = cpu_delta(&groups0, &procstat::thread_cpu_by_prefix(GROUPS));
    let mut breakdown = Breakdown {
        connections_cpu_us: per_event(groups[0], report.acked_events),
        committer_cpu_us: per_event(groups[1], report.acked_events),
        store_writer_cpu_us: per_event(groups[2], report.acked_events),
        store_sync_cpu_us: per_event(groups[3], report.acked_events),
        load_generator_cpu_us: per_event(groups[4], report.acked_events),
        ..Breakdown::default()
    };
    if let (Some(s0), Some(srv)) = (stages0, running.as_ref()) {
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
                .insert(st.name(), d.us_per_event(st, report.acked_events));
        }
    }
    let in_process = running.is_some();
    let server_cpu_pct = match (in_process, cpu0, cpu1) {
        (true, Some(a), Some(b)) => Some((b - a) / wall * 100.0),
        _ => None,
    };
    let rss = in_process.then(procstat::rss_mb).flatten();
    if let Some(srv) = running.take() {
        server_rt
            .block_on(srv.shutdown())
            .context("stop the in-process server")?;
    }
    let runtimes = (&server_rt, &client_rt);
    let attacked = attack(&args, runtimes, &opts, viewer_token, in_process)?;

    let baseline = if args.no_baseline {
        None
    } else {
        Some(raw_baseline(
            &args,
            report.tables,
            duration,
            runtimes,
            &mut breakdown,
        )?)
    };
    if let Some(dir) = tmp_dir {
        let _ = std::fs::remove_dir_all(dir);
    }
    let figures = Figures {
        report: &report,
        raw: baseline.as_ref(),
        cpu: server_cpu_pct,
        rss,
        stages: in_process.then_some(&breakdown),
        attacked: attacked.as_ref(),
    };
    print(&args, &figures);
    Ok(ExitCode::SUCCESS)
}

/// The run under attack (`--stalled-viewers`), if asked for: on a fresh
/// in-process server, or on the `--server` given.
fn attack(
    args: &Args,
    runtimes: (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
    quiet: &LoadOptions,
    viewer_token: Option<String>,
    in_process: bool,
) -> anyhow::Result<Option<(LoadReport, StalledReport)>> {
    Ok(match args.stalled_viewers {
        0 => None,
        n if in_process => Some(attack_in_process(args, runtimes, quiet, n)?),
        n => Some(under_attack(runtimes.1, quiet, viewer_token, n)?),
    })
}

/// The run under attack on a fresh in-process server like the quiet
/// run's (the same config, a new data dir): a second run of the load on
/// the first server's tables, whose sessions and clocks it already moved,
/// had its acks seconds late even with no attacker.
fn attack_in_process(
    args: &Args,
    (server_rt, client_rt): (&tokio::runtime::Runtime, &tokio::runtime::Runtime),
    quiet: &LoadOptions,
    n: usize,
) -> anyhow::Result<(LoadReport, StalledReport)> {
    let ((server, trust, tables, console_token, viewer), srv, tmp) =
        in_process_server(args, server_rt)?;
    let opts = LoadOptions {
        server,
        trust,
        tables,
        console_token,
        ..quiet.clone()
    };
    let r = under_attack(client_rt, &opts, viewer, n);
    server_rt
        .block_on(srv.shutdown())
        .context("stop the in-process server")?;
    let _ = std::fs::remove_dir_all(tmp);
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
        "errors": r.errors,
    });
    match v {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}

fn frame_len<M: proto::WireMessage>(m: &M) -> anyhow::Result<usize> {
    Ok(proto::frame::encode_frame(m)?.len())
}

/// What the run measured, for printing.
#[derive(Clone, Copy)]
struct Figures<'a> {
    report: &'a LoadReport,
    /// The raw QUIC baseline, unless skipped.
    raw: Option<&'a raw::RawReport>,
    /// The in-process server's CPU %.
    cpu: Option<f64>,
    /// The process's RSS in MiB (in process).
    rss: Option<f64>,
    /// Where the time went (in process).
    stages: Option<&'a Breakdown>,
    /// The run under attack (`--stalled-viewers`).
    attacked: Option<&'a (LoadReport, StalledReport)>,
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
        "raw_quic_per_s": raw_per_s,
        "ratio": ratio,
        "server_cpu_pct": f.cpu,
        "server_rss_mb": f.rss,
        "stages_us_per_event": f.stages,
        "under_attack": f.attacked.map(|a| attack_json(r, a)),
    });
    if let serde_json::Value::Object(rest) = rest {
        v.extend(rest);
    }
    v.into()
}

fn print(args: &Args, f: &Figures) {
    let Figures {
        report: r,
        raw,
        cpu,
        rss,
        stages,
        attacked,
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
    outln!("  connected in           {:.2} s", r.connect_s);
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
    outln!("  errors                 {}", r.errors);
    match cpu {
        Some(c) => outln!("  server CPU             {c:.0} % (its own threads)"),
        None => outln!("  server CPU             n/a (not in process)"),
    }
    if let Some(m) = rss {
        outln!("  process RSS            {m:.0} MiB (server and load generator)");
    }
    if let Some(b) = stages {
        outln!(
            "  CPU µs per event       connections {:.2}  committer {:.2}  store writer {:.2}  fsync {:.2}  load generator {:.2}",
            b.connections_cpu_us,
            b.committer_cpu_us,
            b.store_writer_cpu_us,
            b.store_sync_cpu_us,
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
        if let (Some(s), Some(c)) = (b.raw_server_cpu_us, b.raw_client_cpu_us) {
            outln!("  raw echo CPU µs        server {s:.2}  clients {c:.2}");
        }
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
