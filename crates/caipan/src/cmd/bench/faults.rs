//! `caipan bench faults --tables T --duration SECS [--loss PERCENT]
//! [--seed S] [--json]`: network faults (issue 8).
//!
//! Runs the server in process with a generated hall; every table connects
//! through its own UDP fault relay (resilience/relay.rs) that drops
//! `--loss` percent of datagrams both ways, duplicates `--dup` percent,
//! delays each by up to `--delay-ms` (so they arrive out of order), and
//! partitions one table (`--partition SECS`, longer than the 30 s QUIC
//! idle timeout so the server sees the table go offline) starting a
//! quarter into the run. The tables reconnect and resend from the server's
//! high-water mark; the chief's console, connected directly, must see the
//! partitioned table's offline and online alerts. Afterwards the faults
//! are healed, everything still outstanding is resent and acknowledged,
//! the server stops, and the store is checked: nothing acknowledged lost,
//! nothing stored twice or differently. Exit 1 on loss or duplication, or
//! when the console did not see the partition's offline/online alerts.

use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use proto::{AlertKind, ClientMsg, Command, Delta, Hello, ServerMsg};

use super::resilience::load::{self, Control, Stats};
use super::resilience::relay::{Faults, Relay};
use super::resilience::verify;
use super::resilience::{fixture, WorkDir};

/// Arguments of `caipan bench faults`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Tables playing.
    #[arg(long, default_value_t = 20)]
    pub tables: u16,
    /// Seconds of play under faults.
    #[arg(long, default_value_t = 120)]
    pub duration: u64,
    /// Datagrams dropped, percent (each way).
    #[arg(long, default_value_t = 5.0)]
    pub loss: f64,
    /// Datagrams duplicated, percent.
    #[arg(long, default_value_t = 2.0)]
    pub dup: f64,
    /// Largest delay of a datagram (ms); random delays reorder them.
    #[arg(long, default_value_t = 30)]
    pub delay_ms: u32,
    /// Seconds table 1 is cut off (0: no partition). Longer than the 30 s
    /// idle timeout makes the server see it offline.
    #[arg(long, default_value_t = 35)]
    pub partition: u64,
    /// Time between two events of one table (ms).
    #[arg(long, default_value_t = 100)]
    pub pace_ms: u64,
    /// Seed of the games and the faults.
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
pub struct FaultsReport {
    /// Tables.
    pub tables: u16,
    /// Seed.
    pub seed: u64,
    /// Events the tables saw acknowledged.
    pub acked: u64,
    /// Table events in the store.
    pub stored: u64,
    /// Acknowledged but not stored.
    pub lost: u64,
    /// Stored twice or differently.
    pub duplicated: u64,
    /// Generated but never acknowledged (should be 0 after healing).
    pub unacked: u64,
    /// Table reconnects.
    pub reconnects: u64,
    /// Events resent after reconnects.
    pub resent: u64,
    /// Datagrams through the relays.
    pub datagrams: u64,
    /// Datagrams dropped (loss and partition).
    pub datagrams_dropped: u64,
    /// Extra copies sent.
    pub datagrams_duplicated: u64,
    /// Datagrams delayed (and so reordered).
    pub datagrams_delayed: u64,
    /// Partitions applied.
    pub partitions: u32,
    /// Seconds of partition.
    pub partition_seconds: u64,
    /// "Table offline" alerts the console saw for the partitioned table.
    pub offline_alerts: u64,
    /// "Table back online" alerts the console saw for it.
    pub online_alerts: u64,
    /// Error replies the tables got.
    pub errors: u64,
    /// Seconds.
    pub seconds: f64,
}

impl FaultsReport {
    /// Nothing lost or duplicated, and a partition was seen by the console.
    pub fn ok(&self) -> bool {
        self.lost == 0
            && self.duplicated == 0
            && (self.partitions == 0 || (self.offline_alerts > 0 && self.online_alerts > 0))
    }
}

/// Runs `caipan bench faults`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Runtime::new().context("tokio runtime")?;
    let report = rt.block_on(faults(&args))?;
    if args.json {
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        let r = &report;
        outln!("caipan bench faults: {} tables, seed {}", r.tables, r.seed);
        let rows: [(&str, String); 14] = [
            ("acked", r.acked.to_string()),
            ("stored", r.stored.to_string()),
            ("lost", r.lost.to_string()),
            ("duplicated", r.duplicated.to_string()),
            ("unacked at end", r.unacked.to_string()),
            ("reconnects", r.reconnects.to_string()),
            ("events resent", r.resent.to_string()),
            ("datagrams", r.datagrams.to_string()),
            ("datagrams_dropped", r.datagrams_dropped.to_string()),
            ("datagrams_duplicated", r.datagrams_duplicated.to_string()),
            ("datagrams_delayed", r.datagrams_delayed.to_string()),
            (
                "partition",
                format!("{} x {} s", r.partitions, r.partition_seconds),
            ),
            (
                "offline/online alerts",
                format!("{}/{}", r.offline_alerts, r.online_alerts),
            ),
            ("seconds", format!("{:.1}", r.seconds)),
        ];
        for (k, v) in rows {
            outln!("  {k:<22} {v}");
        }
    }
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The chief's console, directly connected, counting `partitioned_table`'s
/// offline and online alerts into `offline_tx`.
async fn watch_alerts(
    connector: &proto::Connector,
    addr: std::net::SocketAddr,
    partitioned_table: u16,
    offline_tx: tokio::sync::watch::Sender<(u64, u64)>,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let hello = Hello {
        protocol_version: proto::PROTOCOL_VERSION,
        token: fixture::CHIEF_TOKEN.into(),
        client: "bench-console".into(),
    };
    let mut c = connector.connect(addr, hello).await?;
    c.send(&ClientMsg::Command {
        id: 1,
        command: Command::Subscribe,
    })
    .await?;
    Ok(tokio::spawn(async move {
        // Alerts by id: from deltas, and from a fresh snapshot if the
        // console fell behind.
        let mut seen = std::collections::HashSet::new();
        let (mut off, mut on) = (0u64, 0u64);
        let mut pages = proto::paging::Assembly::default();
        while let Ok(m) = c.recv().await {
            let alerts = match m {
                // A fan-out tick's alerts (protocol 11).
                ServerMsg::Delta(_) | ServerMsg::Deltas(_) => m
                    .unpacked()
                    .into_iter()
                    .filter_map(|m| match m {
                        ServerMsg::Delta(Delta::Alert(a)) => Some(a),
                        _ => None,
                    })
                    .collect(),
                ServerMsg::Snapshot(v) => v.alerts,
                ServerMsg::SnapshotPage(p) => match pages.take(*p) {
                    Ok(Some(v)) => v.alerts,
                    _ => continue,
                },
                _ => continue,
            };
            for a in alerts {
                if a.table != partitioned_table || !seen.insert(a.id) {
                    continue;
                }
                match a.kind {
                    AlertKind::TableOffline => off += 1,
                    AlertKind::TableOnline => on += 1,
                    _ => {}
                }
            }
            let _ = offline_tx.send((off, on));
        }
    }))
}

async fn faults(args: &Args) -> anyhow::Result<FaultsReport> {
    let started = Instant::now();
    let work = WorkDir::new(args.dir.clone(), "faults")?;
    let config_path = fixture::write_config(&work.path, args.tables)?;
    let config = fixture::load_config(&config_path)?;
    let data = work.path.join("data");
    let server = server::Server::start(config, &data).await?;
    let trust = proto::Trust::Fingerprint(server.fingerprint);
    let connector = Arc::new(proto::Connector::new(&trust, false)?);

    let mut relays = Vec::new();
    for t in 1..=args.tables {
        let f = Faults::new(args.loss, args.dup, args.delay_ms);
        relays
            .push(Relay::start(server.addr, f, args.seed.wrapping_add(u64::from(t) << 20)).await?);
    }
    let relay_addrs: Vec<_> = relays.iter().map(|r| r.addr).collect();

    // The chief's console, directly connected, counts table 1's alerts.
    let partitioned_table = 1u16;
    let (offline_tx, offline_rx) = tokio::sync::watch::channel((0u64, 0u64));
    let console = watch_alerts(&connector, server.addr, partitioned_table, offline_tx).await?;

    let control = Arc::new(Control::default());
    let stats = Arc::new(Stats::default());
    let (outboxes, tasks) = load::spawn_tables(
        args.tables,
        connector.clone(),
        &|t| vec![relay_addrs[usize::from(t - 1)]],
        control.clone(),
        stats.clone(),
        Duration::from_millis(args.pace_ms.max(1)),
        args.seed,
    );

    let run_for = Duration::from_secs(args.duration);
    let mut partitions = 0;
    if args.partition > 0 {
        tokio::time::sleep(run_for / 4).await;
        relays[0].faults.partitioned.store(true, Ordering::SeqCst);
        partitions += 1;
        tokio::time::sleep(Duration::from_secs(args.partition)).await;
        relays[0].faults.partitioned.store(false, Ordering::SeqCst);
    }
    let elapsed = started.elapsed();
    if elapsed < run_for {
        tokio::time::sleep(run_for - elapsed).await;
    }
    // Heal and drain: every generated event must be acknowledged.
    for r in &relays {
        r.faults.loss_ppm.store(0, Ordering::SeqCst);
        r.faults.dup_ppm.store(0, Ordering::SeqCst);
        r.faults.partitioned.store(false, Ordering::SeqCst);
    }
    control.finish.store(true, Ordering::SeqCst);
    load::wait_drained(&outboxes, Duration::from_secs(60)).await;
    // The console must have seen table 1 come back (give it a moment).
    if partitions > 0 {
        let mut rx = offline_rx.clone();
        let _ = tokio::time::timeout(Duration::from_secs(30), rx.wait_for(|(_, on)| *on > 0)).await;
    }
    control.abort.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    console.abort();
    server.shutdown().await?;
    let finals = load::outbox_copies(&outboxes);
    let tally = verify::check_store(&data, &finals)?;
    let sum = |f: &dyn Fn(&Relay) -> u64| relays.iter().map(f).sum::<u64>();
    let (off, on) = *offline_rx.borrow();
    Ok(FaultsReport {
        tables: args.tables,
        seed: args.seed,
        acked: tally.acked,
        stored: tally.stored,
        lost: tally.lost,
        duplicated: tally.duplicated,
        unacked: finals
            .iter()
            .map(|o| (o.sent.len() as u64).saturating_sub(o.acked))
            .sum(),
        reconnects: stats.reconnects.load(Ordering::Relaxed),
        resent: stats.resent.load(Ordering::Relaxed),
        datagrams: sum(&|r| r.stats.datagrams.load(Ordering::Relaxed)),
        datagrams_dropped: sum(&|r| r.stats.dropped.load(Ordering::Relaxed)),
        datagrams_duplicated: sum(&|r| r.stats.duplicated.load(Ordering::Relaxed)),
        datagrams_delayed: sum(&|r| r.stats.delayed.load(Ordering::Relaxed)),
        partitions,
        partition_seconds: if partitions > 0 { args.partition } else { 0 },
        offline_alerts: off,
        online_alerts: on,
        errors: stats.errors.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
    })
}
