//! `caipan pair --trf IN.trf --round N --system xiangqi|dutch|round-robin
//! [--seed S] [--format pairs|trf|csv]` — pairs round N (编排) from a TRF
//! holding rounds 1..N-1, with the `pairing` crate.
//!
//! `--format pairs` prints exactly what JaVaFo and bbpPairings print: the
//! number of pairs (the bye line counted), then `WHITE BLACK` per board, a
//! bye as `ID 0` (Red = White). `trf` prints the TRF with round N appended;
//! `csv` the columns `caipan pairings import` reads. The seed of every lot
//! drawn goes to stderr, so it can be stored. Exit 0 with a pairing, 1
//! when no valid pairing exists, 2 for a bad file or argument.

use std::path::PathBuf;
use std::process::ExitCode;

use pairing::berger::Cycles;
use pairing::xiangqi::{ClubRule, Round1};
use pairing::{trf, PairError, Pairing};

/// The pairing system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum System {
    /// The Xiangqi Swiss (积分编排制).
    Xiangqi,
    /// FIDE's Dutch system (C.04.3), Red = White.
    Dutch,
    /// Berger tables (FIDE C.05 Annex 1).
    RoundRobin,
}

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// JaVaFo / bbpPairings: count line, then `WHITE BLACK`, bye as `ID 0`.
    Pairs,
    /// The TRF with round N appended.
    Trf,
    /// round,table,red,black,red_id,black_id (for `caipan pairings import`).
    Csv,
}

/// Arguments of `caipan pair`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The TRF holding rounds 1..N-1 (UTF-8 or GB18030).
    #[arg(long)]
    trf: PathBuf,
    /// The round to pair.
    #[arg(long)]
    round: u32,
    /// The pairing system.
    #[arg(long, value_enum)]
    system: System,
    /// The seed of every lot (default: drawn from the clock, printed on stderr).
    #[arg(long)]
    seed: Option<u64>,
    /// The output format.
    #[arg(long, value_enum, default_value = "pairs")]
    format: Format,
    /// Xiangqi: round 1 by start number or by lot.
    #[arg(long, value_enum, default_value = "seeding")]
    round1: Round1Arg,
    /// Xiangqi: keep players of one federation/club column apart.
    #[arg(long, value_enum, default_value = "never")]
    clubs: ClubArg,
    /// Round robin: a double round robin (colours reversed in the second cycle).
    #[arg(long)]
    double: bool,
}

/// Round 1 order (xiangqi).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Round1Arg {
    /// By start number.
    Seeding,
    /// By lot from the seed.
    Lot,
}

/// Club avoidance (xiangqi).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClubArg {
    /// Never.
    Never,
    /// Round 1 only.
    FirstRound,
    /// Every round.
    AllRounds,
}

const BAD_INPUT: u8 = 2;
const NO_PAIRING: u8 = 1;

fn bad(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("caipan pair: {message}");
    ExitCode::from(BAD_INPUT)
}

/// Runs `caipan pair`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.round == 0 {
        return Ok(bad("--round: rounds start at 1"));
    }
    let text = match super::input::read_text(&args.trf) {
        Ok(t) => t,
        Err(e) => return Ok(bad(format!("{e:#}"))),
    };
    let parsed = match trf::parse(&text, Some(args.round)) {
        Ok(t) => t,
        Err(e) => return Ok(bad(format!("{}: {e}", args.trf.display()))),
    };
    let field = &parsed.field;
    let held = field.rounds_held();
    if held >= args.round {
        let line = field
            .history
            .iter()
            .position(|h| h[args.round as usize - 1] != pairing::Entry::ABSENT)
            .map_or(parsed.player_lines[0], |i| parsed.player_lines[i]);
        return Ok(bad(format!(
            "{}: line {line}: the file already holds round {} (it holds rounds 1..{held}); pair round {} from a file of rounds 1..{}",
            args.trf.display(),
            args.round,
            args.round,
            args.round - 1
        )));
    }
    if held + 1 < args.round {
        return Ok(bad(format!(
            "{}: the file holds rounds 1..{held}; round {} needs rounds 1..{}",
            args.trf.display(),
            args.round,
            args.round - 1
        )));
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let result: Result<Pairing, PairError> = match args.system {
        System::Xiangqi => pairing::xiangqi::pair(
            field,
            &pairing::xiangqi::Options {
                round1: match args.round1 {
                    Round1Arg::Seeding => Round1::Seeding,
                    Round1Arg::Lot => Round1::Lot,
                },
                clubs: match args.clubs {
                    ClubArg::Never => ClubRule::Never,
                    ClubArg::FirstRound => ClubRule::FirstRound,
                    ClubArg::AllRounds => ClubRule::AllRounds,
                },
                seed,
            },
        ),
        System::Dutch => pairing::dutch::pair(
            field,
            &pairing::dutch::Options {
                top_colour: parsed.top_colour,
                seed,
            },
        ),
        System::RoundRobin => pairing::berger::pair(
            field.entrants.len() as u32,
            args.round,
            if args.double {
                Cycles::Double
            } else {
                Cycles::Single
            },
        ),
    };
    let p = match result {
        Ok(p) => p,
        Err(e) if asked_wrong(&e) => return Ok(bad(e)),
        Err(e) => {
            eprintln!("caipan pair: {e}");
            return Ok(ExitCode::from(NO_PAIRING));
        }
    };
    if !p.draws.is_empty() {
        eprintln!("caipan pair: seed {seed}, drawn: {:?}", p.draws);
    }
    if let Some(note) = trf::relaxed_note(&p) {
        eprintln!("caipan pair: round {}: {note}", p.round);
    }
    tracing::debug!(round = p.round, boards = p.boards.len(), seed, "paired");
    let out = match args.format {
        Format::Pairs => trf::pairs(&p),
        Format::Trf => trf::write(field, Some(&p)),
        Format::Csv => trf::csv(field, &p),
    };
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

/// A round or a round robin's size the command line asked for wrongly
/// (not a pairing that does not exist).
fn asked_wrong(e: &PairError) -> bool {
    matches!(
        e,
        PairError::RoundRobinSize { .. }
            | PairError::RoundRobinRound { .. }
            | PairError::NotNextRound { .. }
    )
}
