//! `caipan bench crash --kills N --tables T [--seed S] [--json]`: crash
//! resilience under load (issue 8).
//!
//! Starts `caipan serve` as a child process with a generated hall of `T`
//! tables, drives every table with a client that plays a random legal game
//! and resends from the server's high-water mark after reconnecting
//! (resilience/load.rs), and SIGKILLs the server `N` times at random moments
//! (seeded), restarting it on the same address and data dir each time.
//! After each restart, with the tables quiet and everything resent: every
//! acknowledged event is in the store, nothing is stored twice or
//! differently, and the restarted server's hall view equals a fresh replay
//! of the store in this process. `--store URL` runs the server on
//! PostgreSQL (a fresh hall in that database) instead of SQLite.
//! `--failover` (with `--store`) runs a standby server beside it on a
//! second address (the tables know both): each kill is of the active
//! server, the standby takes over, and the killed one comes back as the new
//! standby; `takeover_p50_ms` / `takeover_max_ms` are the times from the
//! SIGKILL to the standby serving (rebuilt from the database, listening).
//! Right after each kill, before the server restarts and so before any
//! table can resend (a resend would store a lost event again and hide the
//! loss), every event a table saw acknowledged must be in the store:
//! `high_water_regressions` counts the tables for which one is missing
//! (and hellos reporting a high-water mark below a table's acknowledged
//! seq). With `--failover` the standby is already up at that moment.
//! Exit 1 when anything acknowledged was lost, duplicated, a high-water
//! mark went back, or a state check failed.

use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::resilience::child::{restart, ServeChild};
use super::resilience::load::{self, Control, Outbox, Stats};
use super::resilience::verify::{self, Tally};
use super::resilience::{fixture, WorkDir};

/// Arguments of `caipan bench crash`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many times to SIGKILL the server.
    #[arg(long, default_value_t = 20)]
    pub kills: u32,
    /// Tables playing.
    #[arg(long, default_value_t = 20)]
    pub tables: u16,
    /// Seed of the games and the kill moments.
    #[arg(long, default_value_t = 8)]
    pub seed: u64,
    /// Time between two events of one table (ms).
    #[arg(long, default_value_t = 40)]
    pub pace_ms: u64,
    /// Longest run time between two kills (ms); each gap is random in
    /// [max/5, max].
    #[arg(long, default_value_t = 2_500)]
    pub max_gap_ms: u64,
    /// Keep the data dir here (default: a temp dir, removed).
    #[arg(long)]
    pub dir: Option<std::path::PathBuf>,
    /// The server keeps its record in this PostgreSQL database
    /// (`postgres://…`; a fresh hall id per run) instead of SQLite in the
    /// data dir.
    #[arg(long)]
    pub store: Option<String>,
    /// With --store: a standby server takes over after each kill (the
    /// killed server comes back as the next standby).
    #[arg(long, requires = "store")]
    pub failover: bool,
    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// The figures of a run.
#[derive(Debug, serde::Serialize)]
pub struct CrashReport {
    /// Tables.
    pub tables: u16,
    /// Seed.
    pub seed: u64,
    /// SIGKILLs.
    pub kills: u32,
    /// Restarts after a kill.
    pub restarts: u32,
    /// Takeovers by the standby after a kill (`--failover`).
    pub takeovers: u32,
    /// Median time from a SIGKILL of the active server to the standby
    /// serving, ms (`--failover`).
    pub takeover_p50_ms: Option<u64>,
    /// Longest such time, ms (`--failover`).
    pub takeover_max_ms: Option<u64>,
    /// Events the tables saw acknowledged.
    pub acked: u64,
    /// Table events in the store.
    pub stored: u64,
    /// Acknowledged but not stored (after any restart, or at the end).
    pub lost: u64,
    /// Stored twice or differently.
    pub duplicated: u64,
    /// Checks right after a kill, before any resend, that found a table's
    /// acknowledged events not all stored, plus hellos reporting a
    /// high-water mark below what a table saw acknowledged.
    pub high_water_regressions: u64,
    /// Events the tables generated and never saw acknowledged.
    pub unacked: u64,
    /// Each restarted server's view equalled a fresh replay of the store.
    pub state_matches_replay: bool,
    /// Plies on all boards in the last replayed view (the comparison is
    /// not of empty halls).
    pub replayed_plies: u64,
    /// State comparisons made.
    pub state_checks: u32,
    /// Tries those comparisons took: one each when the live hall stood
    /// still; more when it moved (or differed) while it was compared.
    pub state_tries: u32,
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

/// Runs `caipan bench crash`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    let report = rt.block_on(crash(&args))?;
    print(&report, args.json)?;
    Ok(
        if report.lost == 0
            && report.duplicated == 0
            && report.high_water_regressions == 0
            && report.state_matches_replay
        {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        },
    )
}

fn print(r: &CrashReport, json: bool) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string(r)?);
        return Ok(());
    }
    outln!("caipan bench crash: {} tables, seed {}", r.tables, r.seed);
    let ms = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |m| m.to_string());
    let rows: [(&str, String); 16] = [
        ("kills (SIGKILL)", r.kills.to_string()),
        ("restarts", r.restarts.to_string()),
        ("takeovers (standby)", r.takeovers.to_string()),
        (
            "takeover p50 / max ms",
            format!("{} / {}", ms(r.takeover_p50_ms), ms(r.takeover_max_ms)),
        ),
        ("acked", r.acked.to_string()),
        ("stored", r.stored.to_string()),
        ("lost", r.lost.to_string()),
        ("duplicated", r.duplicated.to_string()),
        (
            "high_water_regressions",
            r.high_water_regressions.to_string(),
        ),
        ("unacked at end", r.unacked.to_string()),
        (
            "state_matches_replay",
            format!(
                "{} ({} checks, {} tries)",
                r.state_matches_replay, r.state_checks, r.state_tries
            ),
        ),
        ("replayed plies", r.replayed_plies.to_string()),
        ("reconnects", r.reconnects.to_string()),
        ("events resent", r.resent.to_string()),
        ("error replies", r.errors.to_string()),
        ("seconds", format!("{:.1}", r.seconds)),
    ];
    for (k, v) in rows {
        outln!("  {k:<22} {v}");
    }
    for m in &r.mismatches {
        outln!("  mismatch: {m}");
    }
    Ok(())
}

impl CrashReport {
    /// The figures before the first kill.
    fn empty(args: &Args) -> Self {
        CrashReport {
            tables: args.tables,
            seed: args.seed,
            kills: 0,
            restarts: 0,
            takeovers: 0,
            takeover_p50_ms: None,
            takeover_max_ms: None,
            acked: 0,
            stored: 0,
            lost: 0,
            duplicated: 0,
            high_water_regressions: 0,
            unacked: 0,
            state_matches_replay: true,
            replayed_plies: 0,
            state_checks: 0,
            state_tries: 0,
            reconnects: 0,
            resent: 0,
            errors: 0,
            seconds: 0.0,
            mismatches: Vec::new(),
        }
    }
}

/// Where the server stores: the data folder, or (`--store`) a PostgreSQL
/// hall of its own, added to the config.
fn store_at(
    args: &Args,
    config_path: &std::path::Path,
    data: &std::path::Path,
) -> anyhow::Result<verify::StoreAt> {
    Ok(match &args.store {
        Some(url) => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            let hall = format!("bench-crash-{nanos}");
            let mut text = std::fs::read_to_string(config_path)?;
            text.push_str(&fixture::store_section(url, &hall));
            std::fs::write(config_path, text)?;
            verify::StoreAt::Pg {
                url: url.clone(),
                hall,
            }
        }
        None => verify::StoreAt::Dir(data.to_path_buf()),
    })
}

/// Stops the server (and the standby) gracefully; an exit code other than
/// 0 is a mismatch.
fn stop_servers(
    child: ServeChild,
    standby: Option<ServeChild>,
    report: &mut CrashReport,
) -> anyhow::Result<()> {
    let code = child.terminate()?;
    if code != Some(0) {
        report
            .mismatches
            .push(format!("server exit code at the end: {code:?}"));
    }
    if let Some(s) = standby {
        let code = s.terminate()?;
        if code != Some(0) {
            report
                .mismatches
                .push(format!("standby exit code at the end: {code:?}"));
        }
    }
    Ok(())
}

/// The store checked against every outbox at the end, and the load's
/// counters, into the report.
async fn final_tally(
    at: &verify::StoreAt,
    outboxes: &[Arc<std::sync::Mutex<Outbox>>],
    stats: &Stats,
    report: &mut CrashReport,
) -> anyhow::Result<()> {
    let finals = load::outbox_copies(outboxes);
    let Tally {
        acked,
        stored,
        lost,
        duplicated,
    } = verify::check_store_at(at, &finals).await?;
    report.acked = acked;
    report.stored = stored;
    report.lost = report.lost.max(lost);
    report.duplicated = report.duplicated.max(duplicated);
    report.unacked = finals
        .iter()
        .map(|o| (o.sent.len() as u64).saturating_sub(o.acked))
        .sum();
    report.high_water_regressions += stats.high_water_regressions.load(Ordering::Relaxed);
    report.reconnects = stats.reconnects.load(Ordering::Relaxed);
    report.resent = stats.resent.load(Ordering::Relaxed);
    report.errors = stats.errors.load(Ordering::Relaxed);
    Ok(())
}

async fn crash(args: &Args) -> anyhow::Result<CrashReport> {
    let started = Instant::now();
    let work = WorkDir::new(args.dir.clone(), "crash")?;
    let config_path = fixture::write_config(&work.path, args.tables)?;
    let data = work.path.join("data");
    let at = store_at(args, &config_path, &data)?;
    let config = fixture::load_config(&config_path)?;
    let log = work.path.join("serve.log");
    let mut child = ServeChild::spawn(&config_path, &data, None, &log)?;
    let mut standby = if args.failover {
        let listen = std::net::UdpSocket::bind("127.0.0.1:0")?.local_addr()?;
        Some(standby_on(&config_path, &data, listen, child.fingerprint, &log).await?)
    } else {
        None
    };
    let addrs: Vec<std::net::SocketAddr> = std::iter::once(child.addr)
        .chain(standby.as_ref().map(|s| s.addr))
        .collect();
    let connector = Arc::new(proto::Connector::new(
        &proto::Trust::Fingerprint(child.fingerprint),
        false,
    )?);
    let control = Arc::new(Control::default());
    let stats = Arc::new(Stats::default());
    let (outboxes, tasks) = load::spawn_tables(
        args.tables,
        connector.clone(),
        &|_| addrs.clone(),
        control.clone(),
        stats.clone(),
        Duration::from_millis(args.pace_ms.max(1)),
        args.seed,
    );
    let mut rng = StdRng::seed_from_u64(args.seed ^ 0xC4A5_u64);
    let mut report = CrashReport::empty(args);
    let drain_limit = Duration::from_secs(60);
    let mut takeovers: Vec<u64> = Vec::new();
    for _ in 0..args.kills {
        let max = args.max_gap_ms.max(5);
        let gap = rng.random_range(max / 5..=max);
        tokio::time::sleep(Duration::from_millis(gap)).await;
        let killed = child.addr;
        child.kill()?;
        let killed_at = Instant::now();
        report.kills += 1;
        report.high_water_regressions +=
            verify::high_water_regressions_at(&at, &load::outbox_copies(&outboxes)).await?;
        match standby.take() {
            Some(mut s) => {
                s = tokio::task::spawn_blocking(move || {
                    s.wait_serving(Duration::from_secs(60)).map(|()| s)
                })
                .await??;
                takeovers.push(u64::try_from(killed_at.elapsed().as_millis()).unwrap_or(u64::MAX));
                report.takeovers += 1;
                child = s;
                // The killed server comes back as the next standby.
                standby =
                    Some(standby_on(&config_path, &data, killed, child.fingerprint, &log).await?);
            }
            None => {
                child = restart(&config_path, &data, killed, &log).await?;
                report.restarts += 1;
            }
        }
        // Quiesce: no new events until everything sent is acknowledged.
        control.hold.store(true, Ordering::SeqCst);
        let drained = load::wait_drained(&outboxes, drain_limit).await;
        let tally = verify::check_store_at(&at, &load::outbox_copies(&outboxes)).await?;
        report.lost = report.lost.max(tally.lost);
        report.duplicated = report.duplicated.max(tally.duplicated);
        if drained {
            compare(&connector, child.addr, &config, &at, &mut report).await?;
        } else {
            // Events still in flight: a comparison would be a race.
            tracing::warn!("tables did not drain within {drain_limit:?}: state not compared");
            report.state_matches_replay = false;
            report.mismatches.push(format!(
                "state not compared: tables did not drain within {drain_limit:?}"
            ));
        }
        control.hold.store(false, Ordering::SeqCst);
    }
    // Finish: stop making events, let everything be acknowledged, compare
    // once more, stop the server gracefully and check the store.
    tokio::time::sleep(Duration::from_millis(500)).await;
    control.hold.store(true, Ordering::SeqCst);
    if load::wait_drained(&outboxes, drain_limit).await {
        compare(&connector, child.addr, &config, &at, &mut report).await?;
    }
    control.finish.store(true, Ordering::SeqCst);
    load::wait_drained(&outboxes, drain_limit).await;
    control.abort.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    stop_servers(child, standby, &mut report)?;
    takeovers.sort_unstable();
    report.takeover_p50_ms = takeovers.get(takeovers.len() / 2).copied();
    report.takeover_max_ms = takeovers.last().copied();
    final_tally(&at, &outboxes, &stats, &mut report).await?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Starts a standby server on `addr` (the port may take a moment to free)
/// and waits until it stands by.
async fn standby_on(
    config: &std::path::Path,
    data: &std::path::Path,
    addr: std::net::SocketAddr,
    fingerprint: proto::Fingerprint,
    log: &std::path::Path,
) -> anyhow::Result<ServeChild> {
    let mut last = None;
    for _ in 0..20 {
        let (c, d, l) = (config.to_path_buf(), data.to_path_buf(), log.to_path_buf());
        match tokio::task::spawn_blocking(move || {
            ServeChild::spawn_standby(&c, &d, addr, fingerprint, &l)
        })
        .await?
        {
            Ok(child) => return Ok(child),
            Err(e) => {
                last = Some(e);
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        }
    }
    Err(last.unwrap_or_else(|| anyhow::anyhow!("standby failed")))
}

/// The live view of the restarted server against a fresh replay of its
/// store ([`verify::compare_views`]), counted into the report.
async fn compare(
    connector: &proto::Connector,
    addr: std::net::SocketAddr,
    config: &config::HallConfig,
    at: &verify::StoreAt,
    report: &mut CrashReport,
) -> anyhow::Result<()> {
    report.state_checks += 1;
    let (diffs, plies, tries) = verify::compare_views(connector, addr, config, at).await?;
    report.state_tries += tries;
    report.replayed_plies = plies;
    if !diffs.is_empty() {
        report.state_matches_replay = false;
        let room = 5usize.saturating_sub(report.mismatches.len());
        report.mismatches.extend(diffs.into_iter().take(room));
    }
    Ok(())
}
