//! `caipan bench broadcast` (issue 35): how many followers one machine
//! serves. An in-process hall of `--tables` tables with its broadcast; the
//! followers (`--subscribers` open `/events` streams) in a child process
//! (one process cannot hold them and the server within the file limit).
//! Three runs: the hall at 1 press per table per second without followers
//! (ack p99, press→console p99: the reference); with the followers
//! connected, the hall at `--rate` (a hall's real pace) measuring delivery
//! from the record's server time to a follower's receipt (p50/p99/max, by
//! the child); and the hall at 1 press per table per second again, with
//! the followers connected. Goals: delivery p99 < 1 s, the hall's p99s
//! under 50 ms.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use proto::Trust;
use table::load::{self, LoadOptions, LoadReport};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

use super::resilience::fixture;

/// Arguments of `caipan bench broadcast`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Table connections pressing clocks.
    #[arg(long, default_value_t = 1000)]
    pub tables: u16,
    /// Followers holding `/events` open (in a child process).
    #[arg(long, default_value_t = 10_000)]
    pub subscribers: usize,
    /// Presses per table per second while delivery is measured (0.05: a
    /// move per table every 20 s, a hall's real pace).
    #[arg(long, default_value_t = 0.05)]
    pub rate: f64,
    /// Seconds of each run.
    #[arg(long, default_value_t = 20)]
    pub duration: u64,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Internal: be the followers' process, following this broadcast.
    #[arg(long, hide = true)]
    pub follow: Option<SocketAddr>,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Adds one to a count shared by the streams.
fn count(n: &Mutex<u64>) {
    if let Ok(mut n) = n.lock() {
        *n += 1;
    }
}

/// The record times (`at_ms`) of the games of a `tick`'s data.
fn tick_times(data: &str) -> Vec<u64> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(data) else {
        return Vec::new();
    };
    v["games"]
        .as_array()
        .map(|games| games.iter().filter_map(|g| g["at_ms"].as_u64()).collect())
        .unwrap_or_default()
}

/// The child: `n` streams; on each stdin line prints the delays (ms,
/// from the server's record time of a game's last change to receipt) of
/// the games of the ticks seen since the last line, and the snapshots
/// and catch-ups received, then forgets them; ends at EOF.
fn follow(addr: SocketAddr, n: usize) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let delays: Arc<Mutex<Vec<u64>>> = Arc::default();
    let snapshots: Arc<Mutex<u64>> = Arc::default();
    let catchups: Arc<Mutex<u64>> = Arc::default();
    let connected = rt.block_on(async {
        let mut ok = 0usize;
        for _ in 0..n {
            let Ok(mut s) = tokio::net::TcpStream::connect(addr).await else {
                continue;
            };
            if s.write_all(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
                .await
                .is_err()
            {
                continue;
            }
            ok += 1;
            let delays = delays.clone();
            let snapshots = snapshots.clone();
            let catchups = catchups.clone();
            tokio::spawn(async move {
                let mut lines = tokio::io::BufReader::new(s).lines();
                let mut event = String::new();
                while let Ok(Some(l)) = lines.next_line().await {
                    if let Some(e) = l.strip_prefix("event: ") {
                        event = e.to_string();
                        continue;
                    }
                    let Some(data) = l.strip_prefix("data: ") else {
                        continue;
                    };
                    match event.as_str() {
                        // Each game of a tick: from its last change's
                        // record time (server) to receipt.
                        "tick" => {
                            let now = now_ms();
                            let at = tick_times(data);
                            if let Ok(mut d) = delays.lock() {
                                d.extend(at.into_iter().map(|a| now.saturating_sub(a)));
                            }
                        }
                        // A snapshot (on connecting, or after a new round)
                        // and a catch-up (a follower that fell behind) are
                        // counted apart: their games are older.
                        "snapshot" => count(&snapshots),
                        "catchup" => count(&catchups),
                        _ => {}
                    }
                }
            });
        }
        ok
    });
    outln!("connected {connected}");
    for line in std::io::stdin().lock().lines() {
        if line.is_err() {
            break;
        }
        let mut d = delays
            .lock()
            .map(|mut d| std::mem::take(&mut *d))
            .unwrap_or_default();
        d.sort_unstable();
        let snaps = snapshots
            .lock()
            .map(|mut s| std::mem::take(&mut *s))
            .unwrap_or(0);
        let caught = catchups
            .lock()
            .map(|mut s| std::mem::take(&mut *s))
            .unwrap_or(0);
        outln!(
            "{}",
            serde_json::json!({
                "samples": d.len(),
                "snapshots": snaps,
                "catchups": caught,
                "p50_ms": quantile(&d, 0.5),
                "p99_ms": quantile(&d, 0.99),
                "max_ms": d.last().copied().unwrap_or(0),
            })
        );
    }
    rt.shutdown_timeout(Duration::from_secs(1));
    Ok(ExitCode::SUCCESS)
}

/// The in-process hall of `--tables` tables in `tmp` and its broadcast,
/// bounded for `--subscribers` followers from one address.
fn hall(
    args: &Args,
    server_rt: &tokio::runtime::Runtime,
    tmp: &std::path::Path,
) -> anyhow::Result<(server::RunningServer, broadcast::RunningBroadcast)> {
    let text = fixture::config_text(args.tables, "127.0.0.1:0");
    let config = config::HallConfig::from_toml_str(&text, tmp, &|_| None)
        .map_err(|e| anyhow::anyhow!("bench config: {e}"))?;
    let srv = server_rt
        .block_on(server::Server::start(config.clone(), &tmp.join("data")))
        .context("start the in-process server")?;
    let options = broadcast::Options {
        limits: broadcast::listener::Limits {
            per_address: args.subscribers + 16,
            total: args.subscribers + 64,
        },
        ..broadcast::Options::default()
    };
    let settings = config::BroadcastConfig {
        listen: "127.0.0.1:0".parse()?,
        delay_s: 0,
    };
    let b = server_rt
        .block_on(broadcast::start(
            srv.public_feed(),
            Arc::new(config),
            settings,
            options,
        ))
        .context("start the broadcast")?;
    Ok((srv, b))
}

/// Runs `caipan bench broadcast`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(addr) = args.follow {
        return follow(addr, args.subscribers);
    }
    if args.tables == 0 || args.duration == 0 {
        anyhow::bail!("--tables and --duration must be at least 1");
    }
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("caipan-srv")
        .enable_all()
        .build()?;
    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-client")
        .enable_all()
        .build()?;
    let tmp = std::env::temp_dir().join(format!("caipan-bench-broadcast-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).context("temp dir")?;
    let (srv, b) = hall(&args, &server_rt, &tmp)?;
    let load = |rate: f64| -> anyhow::Result<LoadReport> {
        let opts = LoadOptions {
            server: srv.addr,
            trust: Trust::Fingerprint(srv.fingerprint),
            tables: (1..=args.tables)
                .map(|t| (t, fixture::table_token(t)))
                .collect(),
            console_token: fixture::CHIEF_TOKEN.to_string(),
            more_consoles: Vec::new(),
            on_phase: None,
            duration: Duration::from_secs(args.duration),
            rate: Some(rate),
            window: 1,
            connect_parallel: 64,
            connect_storm: None,
        };
        client_rt.block_on(load::run(opts)).context("hall load")
    };
    let alone = load(1.0)?;
    let mut child = Command::new(std::env::current_exe()?)
        .args(["bench", "broadcast", "--subscribers"])
        .arg(args.subscribers.to_string())
        .arg("--follow")
        .arg(b.addr.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("the followers' process")?;
    let mut to_child = child.stdin.take().context("child stdin")?;
    let mut from_child = BufReader::new(child.stdout.take().context("child stdout")?).lines();
    let connected: usize = from_child
        .next()
        .and_then(Result::ok)
        .and_then(|l| l.strip_prefix("connected ").and_then(|n| n.parse().ok()))
        .context("the followers did not connect")?;
    let mut ask = || -> anyhow::Result<serde_json::Value> {
        writeln!(to_child, "report")?;
        let line = from_child.next().context("the followers ended")??;
        Ok(serde_json::from_str(&line)?)
    };
    ask()?; // forget the connection's snapshots
    let paced = load(args.rate)?;
    let delivery = ask()?;
    let busy = load(1.0)?;
    let delivery_busy = ask()?;
    drop(to_child);
    let _ = child.wait();
    server_rt.block_on(b.shutdown());
    let _ = server_rt.block_on(srv.shutdown());
    let _ = std::fs::remove_dir_all(&tmp);
    let v = serde_json::json!({
        "tables": args.tables,
        "subscribers": args.subscribers,
        "connected": connected,
        "rate_per_table": args.rate,
        "duration_s": args.duration,
        "delivery_ms": delivery,
        "paced_acked": paced.acked_events,
        "delivery_at_1_per_s_ms": delivery_busy,
        "alone": { "acked": alone.acked_events, "ack_p99_ms": alone.ack_p99_ms, "console_p99_ms": alone.console_p99_ms },
        "with_followers": { "acked": busy.acked_events, "ack_p99_ms": busy.ack_p99_ms, "console_p99_ms": busy.console_p99_ms },
    });
    if args.json {
        outln!("{v}");
    } else {
        outln!("{}", serde_json::to_string_pretty(&v)?);
    }
    Ok(ExitCode::SUCCESS)
}
