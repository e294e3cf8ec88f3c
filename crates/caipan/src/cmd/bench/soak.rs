//! `caipan bench soak --tables T --duration SECS [--pace-ms MS] [--json]`:
//! many tables for a long time against `caipan serve` in its own process
//! (issue 8). Reports the server's resident memory (RSS from
//! `/proc/PID/status`) once every table is connected and at the end, and
//! checks the store like the crash bench: nothing acknowledged lost,
//! nothing stored twice. Exit 1 on loss or duplication.

use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::resilience::child::ServeChild;
use super::resilience::load::{self, Control, Stats};
use super::resilience::{fixture, rss_kib, verify, WorkDir};

/// Arguments of `caipan bench soak`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Tables playing.
    #[arg(long, default_value_t = 1000)]
    pub tables: u16,
    /// Seconds of play.
    #[arg(long, default_value_t = 600)]
    pub duration: u64,
    /// Time between two events of one table (ms).
    #[arg(long, default_value_t = 1000)]
    pub pace_ms: u64,
    /// Seed of the games.
    #[arg(long, default_value_t = 8)]
    pub seed: u64,
    /// Keep the data dir here (default: a temp dir, removed).
    #[arg(long)]
    pub dir: Option<std::path::PathBuf>,
    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// The figures of a run.
#[derive(Debug, serde::Serialize)]
pub struct SoakReport {
    /// Tables.
    pub tables: u16,
    /// Seconds of play.
    pub duration_s: u64,
    /// Events acknowledged.
    pub acked: u64,
    /// Table events stored.
    pub stored: u64,
    /// Acknowledged but not stored.
    pub lost: u64,
    /// Stored twice or differently.
    pub duplicated: u64,
    /// Generated and never acknowledged.
    pub unacked: u64,
    /// Events per second acknowledged.
    pub events_per_s: f64,
    /// Server RSS once all tables were connected (KiB).
    pub rss_start_kib: u64,
    /// Server RSS at the end of play (KiB).
    pub rss_end_kib: u64,
    /// Highest RSS sampled (KiB).
    pub rss_peak_kib: u64,
    /// Table reconnects (none expected).
    pub reconnects: u64,
    /// Error replies.
    pub errors: u64,
}

/// Runs `caipan bench soak`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    let r = rt.block_on(soak(&args))?;
    if args.json {
        println!("{}", serde_json::to_string(&r)?);
    } else {
        println!("caipan bench soak: {} tables, {} s", r.tables, r.duration_s);
        let rows: [(&str, String); 9] = [
            ("acked", r.acked.to_string()),
            ("stored", r.stored.to_string()),
            ("lost", r.lost.to_string()),
            ("duplicated", r.duplicated.to_string()),
            ("unacked at end", r.unacked.to_string()),
            ("events/s", format!("{:.0}", r.events_per_s)),
            (
                "server RSS start/end",
                format!("{} / {} KiB", r.rss_start_kib, r.rss_end_kib),
            ),
            ("server RSS peak", format!("{} KiB", r.rss_peak_kib)),
            (
                "reconnects/errors",
                format!("{}/{}", r.reconnects, r.errors),
            ),
        ];
        for (k, v) in rows {
            println!("  {k:<22} {v}");
        }
    }
    Ok(if r.lost == 0 && r.duplicated == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

async fn soak(args: &Args) -> anyhow::Result<SoakReport> {
    let work = WorkDir::new(args.dir.clone(), "soak")?;
    let config_path = fixture::write_config(&work.path, args.tables)?;
    let data = work.path.join("data");
    let child = ServeChild::spawn(&config_path, &data, None, &work.path.join("serve.log"))?;
    let pid = child.pid();
    let connector = Arc::new(proto::Connector::new(
        &proto::Trust::Fingerprint(child.fingerprint),
        false,
    )?);
    let control = Arc::new(Control::default());
    let stats = Arc::new(Stats::default());
    let addr = child.addr;
    let (outboxes, tasks) = load::spawn_tables(
        args.tables,
        connector,
        &|_| vec![addr],
        control.clone(),
        stats.clone(),
        Duration::from_millis(args.pace_ms.max(1)),
        args.seed,
    );
    // Every table connected and sending: its first event acknowledged.
    let connect_limit = Instant::now() + Duration::from_secs(120);
    while Instant::now() < connect_limit
        && !load::outbox_copies(&outboxes).iter().all(|o| o.acked > 0)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let start = Instant::now();
    let acked_at_start: u64 = load::outbox_copies(&outboxes).iter().map(|o| o.acked).sum();
    let rss_start = rss_kib(pid).unwrap_or(0);
    let mut peak = rss_start;
    let end = start + Duration::from_secs(args.duration);
    while Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(500).min(end - Instant::now())).await;
        peak = peak.max(rss_kib(pid).unwrap_or(0));
    }
    let rss_end = rss_kib(pid).unwrap_or(0);
    let acked_at_end: u64 = load::outbox_copies(&outboxes).iter().map(|o| o.acked).sum();
    let secs = start.elapsed().as_secs_f64();
    control.finish.store(true, Ordering::SeqCst);
    load::wait_drained(&outboxes, Duration::from_secs(60)).await;
    control.abort.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    child.terminate()?;
    let finals = load::outbox_copies(&outboxes);
    let tally = verify::check_store(&data, &finals)?;
    Ok(SoakReport {
        tables: args.tables,
        duration_s: args.duration,
        acked: tally.acked,
        stored: tally.stored,
        lost: tally.lost,
        duplicated: tally.duplicated,
        unacked: finals
            .iter()
            .map(|o| (o.sent.len() as u64).saturating_sub(o.acked))
            .sum(),
        events_per_s: (acked_at_end.saturating_sub(acked_at_start)) as f64 / secs.max(1e-9),
        rss_start_kib: rss_start,
        rss_end_kib: rss_end,
        rss_peak_kib: peak,
        reconnects: stats.reconnects.load(Ordering::Relaxed),
        errors: stats.errors.load(Ordering::Relaxed),
    })
}
