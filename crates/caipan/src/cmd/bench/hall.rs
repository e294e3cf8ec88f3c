//! `caipan bench hall`: N table connections pressing clocks and one
//! subscribed console against a hall server (in process with a temporary
//! data dir, or on PostgreSQL with `--store URL`, or `--server ADDR`), then a raw QUIC echo baseline of the same
//! message sizes over the same number of connections, in the same run.
//!
//! Reports acknowledged durable events/s (counted by the clients), ack
//! latency p50/p99/max, press-to-console latency p50/p99, the server's CPU
//! (its own threads, from /proc/self, in process only) and the process's
//! RSS, the raw baseline and the ratio. `--json` prints one JSON object.

use anyhow::Context;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use proto::{ClientMsg, ServerMsg, Trust};
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

/// Runs `caipan bench hall`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.tables == 0 || args.duration == 0 {
        anyhow::bail!("--tables and --duration must be at least 1");
    }
    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-client")
        .enable_all()
        .build()
        .context("client runtime")?;
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("caipan-srv")
        .enable_all()
        .build()
        .context("server runtime")?;
    let duration = Duration::from_secs(args.duration);

    let mut tmp_dir: Option<PathBuf> = None;
    let mut running = None;
    let (addr, trust, tables, console_token) = match args.server {
        None => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            let tmp = std::env::temp_dir()
                .join(format!("caipan-bench-hall-{}-{nanos}", std::process::id()));
            std::fs::create_dir_all(&tmp).context("temp dir")?;
            tmp_dir = Some(tmp.clone());
            let mut text = fixture::config_text(args.tables, "127.0.0.1:0");
            if let Some(url) = &args.store {
                text.push_str(&fixture::store_section(url, &format!("bench-hall-{nanos}")));
            }
            let config = server::config::HallConfig::from_toml_str(&text, &tmp, &|_| None)
                .map_err(|e| anyhow::anyhow!("bench config: {e}"))?;
            let data = tmp.join("data");
            let srv = server_rt
                .block_on(server::Server::start(config, &data))
                .context("start the in-process server")?;
            let out = (
                srv.addr,
                Trust::Fingerprint(srv.fingerprint),
                (1..=args.tables)
                    .map(|t| (t, fixture::table_token(t)))
                    .collect::<Vec<_>>(),
                fixture::CHIEF_TOKEN.to_string(),
            );
            running = Some(srv);
            out
        }
        Some(addr) => {
            let path = args
                .config
                .as_ref()
                .context("--server needs --config (for the tokens)")?;
            let config = server::config::HallConfig::load(path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
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
            (
                addr,
                trust,
                tables,
                config.credentials.chief.token.expose().to_string(),
            )
        }
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
    let wall0 = std::time::Instant::now();
    let report = client_rt.block_on(load::run(opts)).context("hall load")?;
    let wall = wall0.elapsed().as_secs_f64();
    let cpu1 = procstat::thread_cpu_seconds(SERVER_THREADS);
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

    let baseline = if args.no_baseline {
        None
    } else {
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
        let r = client_rt.block_on(raw::flood(
            &echo,
            report.tables,
            req,
            resp,
            window,
            duration,
        ))?;
        echo.close();
        Some(r)
    };
    if let Some(dir) = tmp_dir {
        let _ = std::fs::remove_dir_all(dir);
    }
    print(&args, &report, baseline.as_ref(), server_cpu_pct, rss);
    Ok(ExitCode::SUCCESS)
}

fn frame_len<M: proto::WireMessage>(m: &M) -> anyhow::Result<usize> {
    Ok(proto::frame::encode_frame(m)?.len())
}

fn print(
    args: &Args,
    r: &LoadReport,
    raw: Option<&raw::RawReport>,
    cpu: Option<f64>,
    rss: Option<f64>,
) {
    let raw_per_s = raw.map(|b| b.echoes_per_s);
    let ratio = raw_per_s.filter(|b| *b > 0.0).map(|b| r.acked_per_s / b);
    if args.json {
        let v = serde_json::json!({
            "tables": r.tables,
            "duration_s": r.duration_s,
            "mode": if args.rate.is_some() { "rate" } else { "flood" },
            "rate_per_table": args.rate,
            "window": args.window,
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
            "connect_s": r.connect_s,
            "raw_quic_per_s": raw_per_s,
            "ratio": ratio,
            "server_cpu_pct": cpu,
            "server_rss_mb": rss,
        });
        println!("{v}");
        return;
    }
    let mode = match args.rate {
        Some(rate) => format!("{rate} presses/table/s"),
        None => format!("flood, window {}", args.window),
    };
    println!(
        "caipan bench hall: {} tables, {} s, {mode}",
        r.tables, r.duration_s
    );
    println!("  connected in           {:.2} s", r.connect_s);
    println!(
        "  sent / acked events    {} / {}",
        r.sent_events, r.acked_events
    );
    println!("  acked durable events/s {:.0}", r.acked_per_s);
    println!(
        "  ack latency ms         p50 {:.2}  p99 {:.2}  max {:.2}",
        r.ack_p50_ms, r.ack_p99_ms, r.ack_max_ms
    );
    println!(
        "  press-to-console ms    p50 {:.2}  p99 {:.2}  ({} samples, {} resync snapshots)",
        r.console_p50_ms, r.console_p99_ms, r.console_samples, r.console_snapshots
    );
    println!("  errors                 {}", r.errors);
    match cpu {
        Some(c) => println!("  server CPU             {c:.0} % (its own threads)"),
        None => println!("  server CPU             n/a (not in process)"),
    }
    if let Some(m) = rss {
        println!("  process RSS            {m:.0} MiB (server and load generator)");
    }
    if let (Some(b), Some(q)) = (raw, ratio) {
        println!(
            "  raw QUIC echo/s        {:.0} over {} connections  (ingest/raw = {:.2})",
            b.echoes_per_s, b.connections, q
        );
    }
}
