//! `caipan bench powercut --terminal-cuts`: the table terminals lose
//! power instead of the server. Each table client keeps the terminal's
//! real outbox file (crates/table) on one power-cut disk
//! (`table::outbox::PowerCutDisk`, sectors of `--sector` bytes); at each
//! cut one table, chosen from the seed, loses power: its connection drops,
//! its unsynced outbox writes are kept, dropped or torn, the outbox is
//! read back (every press recorded before the cut must be there, else
//! `lost`), and it resends from the server's high-water mark what the
//! server never acknowledged. The server runs on its ordinary store.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::super::resilience::child::ServeChild;
use super::super::resilience::load::{self, Control, Stats, TerminalDisk};
use super::super::resilience::verify;
use super::{close, finish, quiet_check, Args, Hall, PowerCutReport};

/// Runs the terminal-cut form.
pub async fn run(args: &Args) -> anyhow::Result<PowerCutReport> {
    let started = Instant::now();
    let hall = Hall::new(args, "powercut-terminal")?;
    let (c, d, l) = (
        hall.config_path.clone(),
        hall.data.clone(),
        hall.log.clone(),
    );
    let child = tokio::task::spawn_blocking(move || ServeChild::spawn(&c, &d, None, &l)).await??;
    let connector = Arc::new(proto::Connector::new(
        &proto::Trust::Fingerprint(child.fingerprint),
        false,
    )?);
    let control = Arc::new(Control::default());
    let stats = Arc::new(Stats::default());
    let terminal = TerminalDisk {
        dir: hall.work.path.join("terminals"),
        disk: Arc::new(table::outbox::PowerCutDisk::new(args.sector, args.seed)),
    };
    let addr = child.addr;
    let (outboxes, tasks) = load::spawn_tables_on(
        args.tables,
        connector.clone(),
        &|_| vec![addr],
        control.clone(),
        stats.clone(),
        Duration::from_millis(args.pace_ms.max(1)),
        args.seed,
        Some(terminal),
    );
    let mut rng = StdRng::seed_from_u64(args.seed ^ 0x7E57_u64);
    let mut report = hall.report(args, "terminal");
    for i in 0..args.cuts {
        let max = args.max_gap_ms.max(5);
        tokio::time::sleep(Duration::from_millis(rng.random_range(max / 5..=max))).await;
        let table = rng.random_range(1..=args.tables.max(1));
        let before = stats.terminal_cuts.load(Ordering::SeqCst);
        if let Ok(mut cuts) = control.cut_terminals.lock() {
            cuts.push(table);
        }
        let asked = Instant::now();
        while stats.terminal_cuts.load(Ordering::SeqCst) == before {
            if asked.elapsed() > Duration::from_secs(10) {
                anyhow::bail!(
                    "table {table} did not lose power within 10 s (cut {})",
                    i + 1
                );
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        report.cuts += 1;
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
    if let Some(p) = verify::integrity_problem(&hall.data) {
        report.integrity_ok = false;
        report.mismatch(p);
    }
    close(&outboxes, &stats, &hall, &mut report, started).await?;
    report.lost += stats.terminal_lost.load(Ordering::Relaxed);
    report.kept_writes = stats.cut_kept.load(Ordering::Relaxed);
    report.dropped_writes = stats.cut_dropped.load(Ordering::Relaxed);
    report.torn_writes = stats.cut_torn.load(Ordering::Relaxed);
    Ok(report)
}
