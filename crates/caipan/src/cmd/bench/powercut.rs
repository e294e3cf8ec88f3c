//! `caipan bench powercut --cuts N --tables T [--sector B] [--seed S]
//! [--terminal-cuts] [--json]`: power cuts under load (issue 37, 断电).
//!
//! Like `bench crash`, but the server loses power instead of being
//! killed: it runs as a child process with its SQLite store on the
//! power-cut VFS (`caipan serve --power-cut-test`, resilience/powered.rs),
//! tables play random legal games, and at a random moment (seeded) the
//! power goes off — every write the store made since the last sync of its
//! file is kept, dropped or torn (sectors of `--sector` bytes), the `-shm`
//! is gone, the process stops. Then, before the server restarts and
//! before any table can resend: the store is opened through the real VFS
//! (`PRAGMA integrity_check`), and every event a table saw acknowledged
//! must be in it (`high_water_regressions` counts the tables for which
//! one is missing; `lost` the events). The server restarts, the tables
//! resend from its high-water mark, and once they are quiet the server's
//! view must equal a fresh replay of the store.
//!
//! `--terminal-cuts` cuts the table terminals' power instead (their
//! outbox files on the same disk model, bench/powercut/terminal.rs).
//!
//! `dropped_writes` / `torn_writes`: pending writes (to the WAL and the
//! database file; with `--terminal-cuts`, to the outboxes) the cuts
//! dropped or tore, over the run. Exit 1 when anything acknowledged was
//! lost, duplicated, a check failed, or the store was not sound.

use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::resilience::child::{restart_with, ServeChild};
use super::resilience::load::{self, Control, Stats};
use super::resilience::powered::Spec;
use super::resilience::verify::{self, StoreAt, Tally};
use super::resilience::{fixture, WorkDir};

mod terminal;

/// Arguments of `caipan bench powercut`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many times the power goes off.
    #[arg(long, default_value_t = 20)]
    pub cuts: u32,
    /// Tables playing.
    #[arg(long, default_value_t = 20)]
    pub tables: u16,
    /// Seed of the games, the cut moments and each unsynced write's fate.
    #[arg(long, default_value_t = 37)]
    pub seed: u64,
    /// Sector size of the modelled disk (bytes written whole; a power of
    /// two, 512 to 65536).
    #[arg(long, default_value_t = 4096)]
    pub sector: usize,
    /// Time between two events of one table (ms).
    #[arg(long, default_value_t = 40)]
    pub pace_ms: u64,
    /// Longest run time between two cuts (ms); each gap is random in
    /// [max/5, max].
    #[arg(long, default_value_t = 2_500)]
    pub max_gap_ms: u64,
    /// Cut the table terminals' power (their outboxes) instead of the
    /// server's.
    #[arg(long)]
    pub terminal_cuts: bool,
    /// Keep the work dir here (default: a temp dir, removed).
    #[arg(long)]
    pub dir: Option<std::path::PathBuf>,
    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// The figures of a run.
#[derive(Debug, Default, serde::Serialize)]
pub struct PowerCutReport {
    /// `server` or `terminal` (whose power was cut).
    pub mode: &'static str,
    /// Tables.
    pub tables: u16,
    /// Seed.
    pub seed: u64,
    /// Sector size (bytes).
    pub sector: usize,
    /// Power cuts.
    pub cuts: u32,
    /// Restarts after a cut (server or terminal).
    pub restarts: u32,
    /// Events the tables saw acknowledged.
    pub acked: u64,
    /// Table events in the store.
    pub stored: u64,
    /// Acknowledged but not stored (after any cut, or at the end); with
    /// `--terminal-cuts` also recorded by a terminal but gone from its
    /// outbox after its cut and never stored.
    pub lost: u64,
    /// Stored twice or differently.
    pub duplicated: u64,
    /// Checks after a cut, before any resend, that found a table's
    /// acknowledged events not all stored (and hellos reporting a
    /// high-water mark below what a table saw acknowledged).
    pub high_water_regressions: u64,
    /// Every `PRAGMA integrity_check` after a cut passed.
    pub integrity_ok: bool,
    /// Each restarted server's view equalled a fresh replay of the store.
    pub state_matches_replay: bool,
    /// Pending writes the cuts dropped whole.
    pub dropped_writes: u64,
    /// Pending writes the cuts tore (some sectors new, some old).
    pub torn_writes: u64,
    /// Pending writes the cuts kept whole.
    pub kept_writes: u64,
    /// Events the tables generated and never saw acknowledged.
    pub unacked: u64,
    /// Plies on all boards in the last replayed view.
    pub replayed_plies: u64,
    /// State comparisons made.
    pub state_checks: u32,
    /// Table reconnects.
    pub reconnects: u64,
    /// Events resent after reconnects.
    pub resent: u64,
    /// Error replies the tables got.
    pub errors: u64,
    /// Seconds.
    pub seconds: f64,
    /// First differences found, if any.
    pub mismatches: Vec<String>,
}

impl PowerCutReport {
    fn ok(&self) -> bool {
        self.lost == 0
            && self.duplicated == 0
            && self.high_water_regressions == 0
            && self.integrity_ok
            && self.state_matches_replay
    }

    fn mismatch(&mut self, m: String) {
        if self.mismatches.len() < 8 {
            self.mismatches.push(m);
        }
    }

    /// Folds a store check into the report (the worst check counts).
    fn tally(&mut self, t: Tally) {
        self.lost = self.lost.max(t.lost);
        self.duplicated = self.duplicated.max(t.duplicated);
    }
}

/// Runs `caipan bench powercut`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    Spec::parse(&format!("seed=0,sector={},report=-", args.sector))?;
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    let report = if args.terminal_cuts {
        rt.block_on(terminal::run(&args))?
    } else {
        rt.block_on(server_cuts(&args))?
    };
    print(&report, args.json)?;
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print(r: &PowerCutReport, json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string(r)?);
        return Ok(());
    }
    println!(
        "caipan bench powercut ({} power): {} tables, seed {}, sectors of {} bytes",
        r.mode, r.tables, r.seed, r.sector
    );
    let rows: [(&str, String); 14] = [
        ("cuts", r.cuts.to_string()),
        ("restarts", r.restarts.to_string()),
        ("acked", r.acked.to_string()),
        ("stored", r.stored.to_string()),
        ("lost", r.lost.to_string()),
        ("duplicated", r.duplicated.to_string()),
        (
            "high_water_regressions",
            r.high_water_regressions.to_string(),
        ),
        ("integrity_ok", r.integrity_ok.to_string()),
        (
            "state_matches_replay",
            format!("{} ({} checks)", r.state_matches_replay, r.state_checks),
        ),
        (
            "unsynced writes",
            format!(
                "{} dropped, {} torn, {} kept",
                r.dropped_writes, r.torn_writes, r.kept_writes
            ),
        ),
        ("unacked at end", r.unacked.to_string()),
        ("reconnects", r.reconnects.to_string()),
        ("events resent", r.resent.to_string()),
        ("seconds", format!("{:.1}", r.seconds)),
    ];
    for (k, v) in rows {
        println!("  {k:<24} {v}");
    }
    for m in &r.mismatches {
        println!("  mismatch: {m}");
    }
    Ok(())
}

/// The run's fixed parts: the work dir, the hall, the tables.
struct Hall {
    work: WorkDir,
    config_path: std::path::PathBuf,
    config: config::HallConfig,
    data: std::path::PathBuf,
    log: std::path::PathBuf,
    at: StoreAt,
}

impl Hall {
    fn new(args: &Args, name: &str) -> anyhow::Result<Hall> {
        let work = WorkDir::new(args.dir.clone(), name)?;
        let config_path = fixture::write_config(&work.path, args.tables)?;
        let config = fixture::load_config(&config_path)?;
        let data = work.path.join("data");
        let log = work.path.join("serve.log");
        let at = StoreAt::Dir(data.clone());
        Ok(Hall {
            work,
            config_path,
            config,
            data,
            log,
            at,
        })
    }

    fn report(&self, args: &Args, mode: &'static str) -> PowerCutReport {
        PowerCutReport {
            mode,
            tables: args.tables,
            seed: args.seed,
            sector: args.sector,
            integrity_ok: true,
            state_matches_replay: true,
            ..PowerCutReport::default()
        }
    }
}

async fn server_cuts(args: &Args) -> anyhow::Result<PowerCutReport> {
    let started = Instant::now();
    let hall = Hall::new(args, "powercut")?;
    let counts = hall.work.path.join("power-cuts.txt");
    let spec = |i: u32| {
        Spec {
            seed: args.seed.wrapping_mul(7919).wrapping_add(u64::from(i)),
            sector: args.sector,
            report: counts.clone(),
        }
        .to_arg()
    };
    let first = spec(0);
    let (c, d, l) = (
        hall.config_path.clone(),
        hall.data.clone(),
        hall.log.clone(),
    );
    let mut child =
        tokio::task::spawn_blocking(move || ServeChild::spawn_with(&c, &d, None, &l, Some(&first)))
            .await??;
    let connector = Arc::new(proto::Connector::new(
        &proto::Trust::Fingerprint(child.fingerprint),
        false,
    )?);
    let control = Arc::new(Control::default());
    let stats = Arc::new(Stats::default());
    let addr = child.addr;
    let (outboxes, tasks) = load::spawn_tables(
        args.tables,
        connector.clone(),
        &|_| vec![addr],
        control.clone(),
        stats.clone(),
        Duration::from_millis(args.pace_ms.max(1)),
        args.seed,
    );
    let mut rng = StdRng::seed_from_u64(args.seed ^ 0x9C07_u64);
    let mut report = hall.report(args, "server");
    for i in 0..args.cuts {
        let max = args.max_gap_ms.max(5);
        tokio::time::sleep(Duration::from_millis(rng.random_range(max / 5..=max))).await;
        let addr = child.addr;
        tokio::task::spawn_blocking(move || child.cut_power(Duration::from_secs(10))).await??;
        report.cuts += 1;
        // Power is back. Before the server restarts (so before any table
        // can resend): the store as the disk kept it.
        if let Some(p) = verify::integrity_problem(&hall.data) {
            report.integrity_ok = false;
            report.mismatch(format!("after cut {}: {p}", i + 1));
        }
        let acked = load::outbox_copies(&outboxes);
        report.high_water_regressions +=
            verify::high_water_regressions_at(&hall.at, &acked).await?;
        report.tally(verify::check_store_at(&hall.at, &acked).await?);
        child = restart_with(
            &hall.config_path,
            &hall.data,
            addr,
            &hall.log,
            Some(spec(i + 1)),
        )
        .await?;
        report.restarts += 1;
        quiet_check(
            &control,
            &outboxes,
            &connector,
            child.addr,
            &hall,
            &mut report,
        )
        .await?;
    }
    // Finish: stop making events, let everything be acknowledged, compare
    // once more, stop the server gracefully and check the store.
    tokio::time::sleep(Duration::from_millis(500)).await;
    finish(
        &control,
        &outboxes,
        tasks,
        &connector,
        child.addr,
        &hall,
        &mut report,
    )
    .await?;
    let code = child.terminate()?;
    if code != Some(0) {
        report.mismatch(format!("server exit code at the end: {code:?}"));
    }
    let text = std::fs::read_to_string(&counts).unwrap_or_default();
    for line in text.lines() {
        let n: Vec<u64> = line.split(' ').filter_map(|x| x.parse().ok()).collect();
        if let [kept, dropped, torn] = n[..] {
            report.kept_writes += kept;
            report.dropped_writes += dropped;
            report.torn_writes += torn;
        }
    }
    close(&outboxes, &stats, &hall, &mut report, started).await?;
    Ok(report)
}

/// With the tables quiet and everything resent: the store holds every
/// acknowledged event once, and the live view equals a replay.
async fn quiet_check(
    control: &Control,
    outboxes: &[Arc<std::sync::Mutex<load::Outbox>>],
    connector: &proto::Connector,
    addr: std::net::SocketAddr,
    hall: &Hall,
    report: &mut PowerCutReport,
) -> anyhow::Result<()> {
    let limit = Duration::from_secs(60);
    control.hold.store(true, Ordering::SeqCst);
    let drained = load::wait_drained(outboxes, limit).await;
    report.tally(verify::check_store_at(&hall.at, &load::outbox_copies(outboxes)).await?);
    if drained {
        compare(connector, addr, hall, report).await?;
    } else {
        report.state_matches_replay = false;
        report.mismatch(format!(
            "state not compared: tables did not drain within {limit:?}"
        ));
    }
    control.hold.store(false, Ordering::SeqCst);
    Ok(())
}

/// Stops the tables once everything is acknowledged (one last state
/// comparison first).
async fn finish(
    control: &Control,
    outboxes: &[Arc<std::sync::Mutex<load::Outbox>>],
    tasks: Vec<tokio::task::JoinHandle<()>>,
    connector: &proto::Connector,
    addr: std::net::SocketAddr,
    hall: &Hall,
    report: &mut PowerCutReport,
) -> anyhow::Result<()> {
    let limit = Duration::from_secs(60);
    control.hold.store(true, Ordering::SeqCst);
    if load::wait_drained(outboxes, limit).await {
        compare(connector, addr, hall, report).await?;
    }
    control.finish.store(true, Ordering::SeqCst);
    load::wait_drained(outboxes, limit).await;
    control.abort.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    Ok(())
}

/// The final tally and counters.
async fn close(
    outboxes: &[Arc<std::sync::Mutex<load::Outbox>>],
    stats: &Stats,
    hall: &Hall,
    report: &mut PowerCutReport,
    started: Instant,
) -> anyhow::Result<()> {
    let finals = load::outbox_copies(outboxes);
    let t = verify::check_store_at(&hall.at, &finals).await?;
    report.acked = t.acked;
    report.stored = t.stored;
    report.tally(t);
    report.unacked = finals
        .iter()
        .map(|o| (o.sent.len() as u64).saturating_sub(o.acked))
        .sum();
    report.high_water_regressions += stats.high_water_regressions.load(Ordering::Relaxed);
    report.reconnects = stats.reconnects.load(Ordering::Relaxed);
    report.resent = stats.resent.load(Ordering::Relaxed);
    report.errors = stats.errors.load(Ordering::Relaxed);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(())
}

/// The live view of the server against a fresh replay of its store.
async fn compare(
    connector: &proto::Connector,
    addr: std::net::SocketAddr,
    hall: &Hall,
    report: &mut PowerCutReport,
) -> anyhow::Result<()> {
    report.state_checks += 1;
    // A slow hello (a loaded machine) is retried, not taken for a failure
    // of the run; three in a row are reported.
    let mut tries = 0;
    let (diffs, plies, _) = loop {
        match verify::compare_views(connector, addr, &hall.config, &hall.at).await {
            Ok(r) => break r,
            Err(e) if tries < 2 => {
                tries += 1;
                tracing::warn!("state comparison failed, retrying: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(e) => break (vec![format!("state not compared: {e}")], 0, 0),
        }
    };
    report.replayed_plies = plies;
    if !diffs.is_empty() {
        report.state_matches_replay = false;
        for d in diffs {
            report.mismatch(d);
        }
    }
    Ok(())
}
