//! `caipan bench ...`: benchmarks and long-running resilience checks that
//! print figures (a summary table, or one JSON object with `--json`).
//!
//! Throughput (issue 5): `hall` (see `bench/hall.rs`).
//!
//! Resilience (issue 8): `crash` (SIGKILL the server under load, restart,
//! check the store and the rebuilt state), `faults` (a UDP fault relay
//! between tables and server), `soak` (many tables for a long time, server
//! memory). Their shared machinery is in `bench/resilience/`.
//!
//! PostgreSQL (issue 17): `failover` (the hall's database fails over to
//! its synchronous standby mid-stream; scripts/pg_standby.sh runs it).
//!
//! Pairing (issue 34): `pair` (the engines on a 1,000-player field).
//!
//! Power cuts (issue 37): `powercut` (the server's disk, or with
//! `--terminal-cuts` the terminals', loses what was not synced).

use std::process::ExitCode;

mod broadcast;
mod crash;
mod failover;
mod faults;
mod hall;
mod hall_clients;
mod hall_followers;
mod hall_memory;
mod hall_replies;
mod hall_sched;
mod hall_timeline;
mod pair;
mod powercut;
mod raw_bench;
pub(crate) mod resilience;
mod soak;

/// Arguments of `caipan bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

/// Which bench.
#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// Hall throughput: N tables pressing (flood or --rate) and a console; raw QUIC baseline.
    Hall(hall::Args),
    /// Internal: a share of `bench hall --client-processes`'s tables (its share on stdin).
    #[command(hide = true)]
    HallClients,
    /// Followers of the broadcast (child process) while the hall plays: delivery p50/p99/max, the hall's p99s beside them.
    Broadcast(broadcast::Args),
    /// SIGKILL the server N times under load; check nothing acknowledged is lost.
    Crash(crash::Args),
    /// The hall's PostgreSQL fails over to its synchronous standby mid-stream; check nothing acknowledged is lost.
    Failover(failover::Args),
    /// Tables behind a lossy, reordering, partitioning UDP relay; check nothing is lost.
    Faults(faults::Args),
    /// Many tables for a long time; server memory at start and end.
    Soak(soak::Args),
    /// Pair round R of a big random field with each system; time and peak memory.
    Pair(pair::Args),
    /// Cut the server's (or the terminals') power N times under load; check nothing acknowledged is lost.
    Powercut(powercut::Args),
}

/// Runs `caipan bench`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.what {
        What::Hall(a) => hall::run(a),
        What::HallClients => hall_clients::child_main(),
        What::Broadcast(a) => broadcast::run(a),
        What::Crash(a) => crash::run(a),
        What::Failover(a) => failover::run(a),
        What::Faults(a) => faults::run(a),
        What::Soak(a) => soak::run(a),
        What::Powercut(a) => powercut::run(a),
        What::Pair(a) => pair::run(a),
    }
}
