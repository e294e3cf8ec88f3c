//! `caipan bench soak --tables T --duration SECS [--pace-ms MS] [--json]`:
//! many tables for a long time against `caipan serve` in its own process
//! (issue 8). Reports the server's resident memory (RSS from
//! `/proc/PID/status`) idle, once every table is connected, at every
//! minute of play and at the end, and checks the store like the crash
//! bench: nothing acknowledged lost, nothing stored twice. Exit 1 on loss
//! or duplication.
//!
//! Whether memory levels off (issue 20) is read from the minutes:
//! `rss_per_minute_kib[m]` is the RSS `m` minutes into play (`[0]` when
//! every table was connected), and `rss_drift_from_min10_kib` is the last
//! minute's RSS minus minute 10's.
//!
//! Two figures of bytes per table, because neither alone is the answer:
//! - `bytes_per_table_connected`: (RSS with every table connected and
//!   playing its first move − RSS of the idle server with the same hall
//!   loaded) / tables. What one more connected table costs the server
//!   (its QUIC connection and buffers, its link, its first events): the
//!   idle server already holds every table's initial state, and later RSS
//!   also holds the store's page caches, which are per hall, not per table.
//! - `table_state_bytes`: the mean size of one table's state measured on
//!   the state itself ([`hall::table::TableState::approx_bytes`]) in the
//!   hall rebuilt from the store after the run, with the same replay the
//!   server's restart uses, so it is the state after the whole run: what
//!   the live state keeps per table once its windows are full.

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
    /// Server RSS with the hall loaded and no table connected (KiB).
    pub rss_idle_kib: u64,
    /// Server RSS once all tables were connected (KiB).
    pub rss_start_kib: u64,
    /// Server RSS at each minute of play (KiB): `[0]` once all tables were
    /// connected, `[m]` after `m` minutes.
    pub rss_per_minute_kib: Vec<u64>,
    /// The last minute's RSS minus minute 10's (KiB; runs of 11 minutes or
    /// more): how far memory still moves once the windows and the store's
    /// caches are full.
    pub rss_drift_from_min10_kib: Option<i64>,
    /// Server RSS at the end of play (KiB).
    pub rss_end_kib: u64,
    /// Highest RSS sampled (KiB).
    pub rss_peak_kib: u64,
    /// (RSS all connected − RSS idle) / tables, in bytes (see the module doc).
    pub bytes_per_table_connected: u64,
    /// Mean size of one table's state after the run, measured on the state
    /// rebuilt from the store (bytes; see the module doc).
    pub table_state_bytes: u64,
    /// Largest table state after the run (bytes).
    pub table_state_bytes_max: u64,
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
        outln!("{}", serde_json::to_string(&r)?);
    } else {
        outln!("caipan bench soak: {} tables, {} s", r.tables, r.duration_s);
        let minutes: Vec<String> = r
            .rss_per_minute_kib
            .iter()
            .map(|k| format!("{}", k / 1024))
            .collect();
        let rows: [(&str, String); 13] = [
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
            ("RSS per minute (MiB)", minutes.join(" ")),
            (
                "RSS last - minute 10",
                r.rss_drift_from_min10_kib
                    .map_or("-".into(), |d| format!("{d} KiB")),
            ),
            (
                "bytes/table connected",
                format!(
                    "{} (idle {} KiB)",
                    r.bytes_per_table_connected, r.rss_idle_kib
                ),
            ),
            (
                "table state bytes",
                format!(
                    "{} mean, {} max",
                    r.table_state_bytes, r.table_state_bytes_max
                ),
            ),
            (
                "reconnects/errors",
                format!("{}/{}", r.reconnects, r.errors),
            ),
        ];
        for (k, v) in rows {
            outln!("  {k:<22} {v}");
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
    // The hall loaded, listening, no table connected yet.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_idle = rss_kib(pid).unwrap_or(0);
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
    let mut per_minute = vec![rss_start];
    let end = start + Duration::from_secs(args.duration);
    while Instant::now() < end {
        let next_minute = start + Duration::from_secs(60 * per_minute.len() as u64);
        let wake = (Instant::now() + Duration::from_millis(500))
            .min(end)
            .min(next_minute);
        tokio::time::sleep_until(wake.into()).await;
        let rss = rss_kib(pid).unwrap_or(0);
        peak = peak.max(rss);
        if Instant::now() >= next_minute {
            per_minute.push(rss);
        }
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
    let config = fixture::load_config(&config_path)?;
    let hall = verify::replay_hall_at(&config, &verify::StoreAt::Dir(data.clone())).await?;
    let sizes: Vec<u64> = hall
        .tables()
        .values()
        .map(|t| t.approx_bytes() as u64)
        .collect();
    let drift = per_minute
        .get(10)
        .filter(|_| per_minute.len() > 11)
        .zip(per_minute.last())
        .map(|(&m10, &last)| last as i64 - m10 as i64);
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
        rss_idle_kib: rss_idle,
        rss_start_kib: rss_start,
        rss_per_minute_kib: per_minute,
        rss_drift_from_min10_kib: drift,
        rss_end_kib: rss_end,
        rss_peak_kib: peak,
        bytes_per_table_connected: rss_start.saturating_sub(rss_idle) * 1024
            / u64::from(args.tables.max(1)),
        table_state_bytes: sizes.iter().sum::<u64>() / (sizes.len().max(1) as u64),
        table_state_bytes_max: sizes.iter().copied().max().unwrap_or(0),
        reconnects: stats.reconnects.load(Ordering::Relaxed),
        errors: stats.errors.load(Ordering::Relaxed),
    })
}
