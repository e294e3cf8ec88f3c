//! `caipan bench pair [--players N] [--round R] [--seed S] [--trf-out F]`:
//! how long the pairing engines take on a big field (issue 34). A field of
//! N players (ratings descending with the start number) plays rounds
//! 1..R-1 paired by the Xiangqi Swiss with random results drawn from the
//! seed (Red wins 40%, draws 30%, Black wins 30%); round R is then paired
//! once by each system, timed, with the process's peak resident memory
//! (VmHWM) after each. `--trf-out` writes the field's TRF, so that
//! `caipan pair` itself can be measured on it with `/usr/bin/time -v`.
//! Figures go in docs/benchmarks.md.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use pairing::{Entrant, Field, ResultCode, Scoring};

/// Arguments of `caipan bench pair`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Players in the field.
    #[arg(long, default_value_t = 1000)]
    pub players: u32,
    /// The round to pair (rounds before it are played first).
    #[arg(long, default_value_t = 7)]
    pub round: u32,
    /// Seed of the results and lots.
    #[arg(long, default_value_t = 34)]
    pub seed: u64,
    /// Write the field's TRF (rounds 1..R-1) here.
    #[arg(long)]
    pub trf_out: Option<std::path::PathBuf>,
    /// Skip the Dutch system (xiangqi only).
    #[arg(long)]
    pub no_dutch: bool,
}

/// The process's peak resident memory (KiB).
fn peak_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Runs `caipan bench pair`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.players >= 2, "--players: at least 2");
    anyhow::ensure!(args.round >= 1, "--round: rounds start at 1");
    let entrants: Vec<Entrant> = (1..=args.players)
        .map(|n| Entrant {
            number: n,
            name: format!("Player {n}"),
            rating: 2800u32.saturating_sub(n),
            club: String::new(),
            bye_eligible: true,
        })
        .collect();
    let mut field = Field::new(entrants, Scoring::FIDE);
    let mut lots = pairing::lots::Lots::new(args.seed);
    let swiss = pairing::xiangqi::Options {
        round1: pairing::xiangqi::Round1::Seeding,
        clubs: pairing::xiangqi::ClubRule::Never,
        seed: args.seed,
    };
    for r in 1..args.round {
        let p = pairing::xiangqi::pair(&field, &swiss)
            .with_context(|| format!("pairing round {r} of the field"))?;
        let boards: Vec<_> = p
            .boards
            .iter()
            .map(|b| {
                let result = match lots.below(10) {
                    0..=3 => ResultCode::Win,
                    4..=6 => ResultCode::Draw,
                    _ => ResultCode::Loss,
                };
                (*b, result)
            })
            .collect();
        field.push_round(&boards, p.bye);
    }
    if let Some(path) = &args.trf_out {
        std::fs::write(path, pairing::trf::write(&field, None))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    println!(
        "caipan bench pair: {} players, round {} (seed {})",
        args.players, args.round, args.seed
    );
    println!("| system | boards | time | peak RSS after |");
    println!("|--------|--------|------|----------------|");
    let mut systems: Vec<&str> = vec!["xiangqi"];
    if !args.no_dutch {
        systems.push("dutch");
    }
    for system in systems {
        let start = Instant::now();
        let p = match system {
            "xiangqi" => pairing::xiangqi::pair(&field, &swiss),
            _ => pairing::dutch::pair(
                &field,
                &pairing::dutch::Options {
                    top_colour: None,
                    seed: args.seed,
                },
            ),
        }
        .with_context(|| format!("{system}: round {}", args.round))?;
        let took = start.elapsed();
        println!(
            "| {system} | {} | {:.3} s | {} MiB |",
            p.boards.len(),
            took.as_secs_f64(),
            peak_kib().map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0))
        );
    }
    Ok(ExitCode::SUCCESS)
}
