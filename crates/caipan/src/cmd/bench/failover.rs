//! `caipan bench failover --primary URL --standby URL --stop-primary CMD
//! --promote CMD`: the hall's database fails over to its synchronous
//! standby mid-stream (issue 17; run by scripts/pg_standby.sh, which sets
//! the two PostgreSQL servers up).
//!
//! Starts `caipan serve` (a child process) with its record on the primary
//! and `--tables` table clients playing (resilience/load.rs: each keeps an
//! outbox and resends from the server's high-water mark). After
//! `--before-ms` it runs `--stop-primary` (the primary dies:
//! `pg_ctl stop -m immediate`), kills the server (SIGKILL: it was waiting
//! on a dead database), runs `--promote` (`pg_ctl promote`) and then,
//! before any table resends anything, checks the promoted standby: every
//! event a table saw acknowledged must be there (`lost`), nothing twice or
//! different (`duplicated`). Then it points the hall at the standby
//! (`caipan serve` again, same address and data dir, the `[store]` URL the
//! standby's), lets the tables reconnect, resend and play `--after-ms`
//! more, and checks again: everything acknowledged stored once, the
//! server's view equal to a fresh replay of the standby's rows. Exit 1 when
//! anything acknowledged was lost or duplicated, or the views differ.

use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use super::resilience::child::{restart, ServeChild};
use super::resilience::load::{self, Control, Stats};
use super::resilience::verify::{self, Tally};
use super::resilience::{fixture, WorkDir};

/// Arguments of `caipan bench failover`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The primary database (`postgres://…`), where the hall starts.
    #[arg(long)]
    pub primary: String,
    /// The synchronous standby's database, promoted and then the hall's.
    #[arg(long)]
    pub standby: String,
    /// Shell command that stops the primary mid-stream
    /// (e.g. `pg_ctl -D … -m immediate stop`).
    #[arg(long)]
    pub stop_primary: String,
    /// Shell command that promotes the standby and waits until it is
    /// (e.g. `pg_ctl -D … -w promote`).
    #[arg(long)]
    pub promote: String,
    /// Tables playing.
    #[arg(long, default_value_t = 20)]
    pub tables: u16,
    /// Seed of the games.
    #[arg(long, default_value_t = 17)]
    pub seed: u64,
    /// Time between two events of one table (ms).
    #[arg(long, default_value_t = 40)]
    pub pace_ms: u64,
    /// Play on the primary this long before it is stopped (ms).
    #[arg(long, default_value_t = 5_000)]
    pub before_ms: u64,
    /// Play on the promoted standby this long before the end (ms).
    #[arg(long, default_value_t = 3_000)]
    pub after_ms: u64,
    /// Keep the data dir and the server log here (default: a temp dir,
    /// removed).
    #[arg(long)]
    pub dir: Option<std::path::PathBuf>,
    /// One JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// The figures of a failover.
#[derive(Debug, serde::Serialize)]
pub struct FailoverReport {
    /// Tables.
    pub tables: u16,
    /// The hall's id in both databases.
    pub hall: String,
    /// Right after the promotion, before any resend: acknowledged by the
    /// hall on the primary, stored on the standby, lost, duplicated.
    pub at_failover: Tally,
    /// At the end, after the hall resumed on the standby and every table
    /// resent what was not acknowledged.
    pub at_end: Tally,
    /// Events sent and never acknowledged when the primary stopped (the
    /// tables resend them to the standby).
    pub unacked_at_failover: u64,
    /// Table reconnects seeing a high-water mark below what they had
    /// acknowledged (a loss seen from the table).
    pub high_water_regressions: u64,
    /// From stopping the primary to the hall serving on the standby (ms).
    pub failover_ms: u64,
    /// The server's view on the standby equalled a fresh replay of its rows.
    pub state_matches_replay: bool,
    /// Plies on all boards in the replayed view.
    pub replayed_plies: u64,
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

impl FailoverReport {
    fn ok(&self) -> bool {
        self.at_failover.lost == 0
            && self.at_failover.duplicated == 0
            && self.at_end.lost == 0
            && self.at_end.duplicated == 0
            && self.high_water_regressions == 0
            && self.state_matches_replay
    }
}

/// Runs `caipan bench failover`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    let report = rt.block_on(failover(&args))?;
    print(&report, args.json)?;
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print(r: &FailoverReport, json: bool) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string(r)?);
        return Ok(());
    }
    outln!(
        "caipan bench failover: {} tables, hall {}",
        r.tables,
        r.hall
    );
    let tally = |t: &Tally| {
        format!(
            "acked {}, stored {}, lost {}, duplicated {}",
            t.acked, t.stored, t.lost, t.duplicated
        )
    };
    let rows: [(&str, String); 11] = [
        ("at failover (standby)", tally(&r.at_failover)),
        ("unacked at failover", r.unacked_at_failover.to_string()),
        ("at end (standby)", tally(&r.at_end)),
        (
            "high-water regressions",
            r.high_water_regressions.to_string(),
        ),
        ("failover ms", r.failover_ms.to_string()),
        ("state_matches_replay", r.state_matches_replay.to_string()),
        ("replayed plies", r.replayed_plies.to_string()),
        ("reconnects", r.reconnects.to_string()),
        ("events resent", r.resent.to_string()),
        ("error replies", r.errors.to_string()),
        ("seconds", format!("{:.1}", r.seconds)),
    ];
    for (k, v) in rows {
        outln!("  {k:<24} {v}");
    }
    for m in &r.mismatches {
        outln!("  mismatch: {m}");
    }
    outln!(
        "  {}",
        if r.ok() {
            "PASS: every acknowledged event is on the promoted standby, none twice"
        } else {
            "FAIL"
        }
    );
    Ok(())
}

/// Runs `command` with `sh -c`; fails when it fails.
async fn shell(what: &str, command: &str) -> anyhow::Result<()> {
    let c = command.to_string();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("sh")
            .args(["-c", &c])
            .stdin(std::process::Stdio::null())
            .output()
    })
    .await?
    .with_context(|| format!("running {what}"))?;
    if !out.status.success() {
        bail!(
            "{what} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// Writes the bench hall's config with its record in `url` as `hall`.
fn write_config(path: &std::path::Path, tables: u16, url: &str, hall: &str) -> anyhow::Result<()> {
    let mut text = fixture::config_text(tables, "127.0.0.1:0");
    text.push_str(&fixture::store_section(url, hall));
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

async fn failover(args: &Args) -> anyhow::Result<FailoverReport> {
    let started = Instant::now();
    let work = WorkDir::new(args.dir.clone(), "failover")?;
    let config_path = work.path.join("hall.toml");
    let data = work.path.join("data");
    let log = work.path.join("serve.log");
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let hall = format!("bench-failover-{nanos}");
    write_config(&config_path, args.tables, &args.primary, &hall)?;
    let child = ServeChild::spawn(&config_path, &data, None, &log)?;
    let addr = child.addr;
    let connector = Arc::new(proto::Connector::new(
        &proto::Trust::Fingerprint(child.fingerprint),
        false,
    )?);
    let control = Arc::new(Control::default());
    let stats = Arc::new(Stats::default());
    let (outboxes, tasks) = load::spawn_tables(
        args.tables,
        connector.clone(),
        &|_| vec![addr],
        control.clone(),
        stats.clone(),
        Duration::from_millis(args.pace_ms.max(1)),
        args.seed,
    );
    tokio::time::sleep(Duration::from_millis(args.before_ms)).await;

    // The primary dies mid-stream; the hall's server, waiting on it, too.
    let stopped = Instant::now();
    shell("--stop-primary", &args.stop_primary).await?;
    child.kill()?;
    // No server: nothing more can be acknowledged. What the tables saw
    // acknowledged must be on the standby once it is promoted, before any
    // resend could fill a gap.
    let at_failover = load::outbox_copies(&outboxes);
    shell("--promote", &args.promote).await?;
    let standby = verify::StoreAt::Pg {
        url: args.standby.clone(),
        hall: hall.clone(),
    };
    let tally_failover = verify::check_store_at(&standby, &at_failover).await?;
    let unacked_at_failover = at_failover
        .iter()
        .map(|o| (o.sent.len() as u64).saturating_sub(o.acked))
        .sum();

    // The hall now points at the standby.
    write_config(&config_path, args.tables, &args.standby, &hall)?;
    let child = restart(&config_path, &data, addr, &log).await?;
    let failover_ms = stopped.elapsed().as_millis() as u64;
    tokio::time::sleep(Duration::from_millis(args.after_ms)).await;

    let drain_limit = Duration::from_secs(60);
    control.hold.store(true, Ordering::SeqCst);
    let mut mismatches = Vec::new();
    let mut replayed_plies = 0;
    let mut state_matches_replay = false;
    if load::wait_drained(&outboxes, drain_limit).await {
        let config = fixture::load_config(&config_path)?;
        let (diffs, plies, _tries) =
            verify::compare_views(&connector, addr, &config, &standby).await?;
        replayed_plies = plies;
        state_matches_replay = diffs.is_empty();
        mismatches.extend(diffs.into_iter().take(5));
    } else {
        mismatches.push(format!("tables did not drain within {drain_limit:?}"));
    }
    control.finish.store(true, Ordering::SeqCst);
    load::wait_drained(&outboxes, drain_limit).await;
    control.abort.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    let code = child.terminate()?;
    if code != Some(0) {
        mismatches.push(format!("server exit code at the end: {code:?}"));
    }
    let at_end = verify::check_store_at(&standby, &load::outbox_copies(&outboxes)).await?;
    Ok(FailoverReport {
        tables: args.tables,
        hall,
        at_failover: tally_failover,
        at_end,
        unacked_at_failover,
        high_water_regressions: stats.high_water_regressions.load(Ordering::Relaxed),
        failover_ms,
        state_matches_replay,
        replayed_plies,
        reconnects: stats.reconnects.load(Ordering::Relaxed),
        resent: stats.resent.load(Ordering::Relaxed),
        errors: stats.errors.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
        mismatches,
    })
}
