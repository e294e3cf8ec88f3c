//! `caipan standings --trf IN.trf --tiebreaks BH,DE,… [--format csv|values]`
//! — the standings (名次) of the rounds in a TRF, ranked by points and the
//! tie-breaks given in order (FIDE's codes BH, BH-C1, SB, PS, DE, WIN,
//! BWG, BPG, ARO, or the AXF ones such as `opponent_score_all`), computed
//! by `rulebook::standings`. `csv` prints the export's `standings-csv`
//! format (players named by start number and name); `values` prints, per
//! start number, the rank, the points and each tie-break's value in FIDE's
//! units (as gacrux's tie-break checker prints them). An unknown code or a
//! bad file exits with 2 and names it.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::ExitCode;

use ::export::standings::{to_csv, Entrant, Standings};
use pairing::{trf, Field, ResultCode, Side};
use rulebook::scoring::GameResult;
use rulebook::standings::EventSystem;
use rulebook::{GameRecord, StandingRow, StandingsConfig, StandingsExtra, TieBreak, UnplayedRound};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The export's standings-csv.
    Csv,
    /// Start number, rank, points and each tie-break value (tab-separated).
    Values,
}

/// Arguments of `caipan standings`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The TRF with the rounds played (UTF-8 or GB18030).
    #[arg(long)]
    trf: PathBuf,
    /// Tie-breaks in order, comma-separated (BH,BH-C1,SB,PS,DE,WIN,BWG,BPG,ARO, or AXF names).
    #[arg(long, value_delimiter = ',')]
    tiebreaks: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
}

fn bad(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("caipan standings: {message}");
    ExitCode::from(2)
}

/// The games of a TRF's field as the standings read them (each once, from
/// Red's line), and the rounds a player did not play with their points.
fn records(field: &Field) -> (Vec<GameRecord>, Vec<UnplayedRound>) {
    let id = |i: usize| (i + 1).to_string();
    let mut games = Vec::new();
    let mut unplayed = Vec::new();
    // Points on the standings' 2/1/0 scale from the file's scoring.
    let win = field.scoring.win.max(1);
    let scaled = |code: ResultCode| (2 * field.scoring.points(code)).div_ceil(win);
    for (i, h) in field.history.iter().enumerate() {
        for (r, e) in h.iter().enumerate() {
            let round = r as u32 + 1;
            match (e.opponent, e.side) {
                (Some(o), Some(Side::Red)) => {
                    let result = match e.result {
                        ResultCode::Win => GameResult::RedWins,
                        ResultCode::Loss => GameResult::BlackWins,
                        ResultCode::Draw => GameResult::Draw,
                        ResultCode::ForfeitWin => GameResult::RedWinsByForfeit,
                        ResultCode::ForfeitLoss
                            if field.history[o as usize - 1][r].result
                                == ResultCode::ForfeitLoss =>
                        {
                            GameResult::DoubleForfeit
                        }
                        ResultCode::ForfeitLoss => GameResult::BlackWinsByForfeit,
                        _ => continue,
                    };
                    games.push(GameRecord {
                        round,
                        red: id(i),
                        black: o.to_string(),
                        result,
                        technical_fouls: [0, 0],
                    });
                }
                (Some(_), _) => {}
                (None, _) => unplayed.push(UnplayedRound {
                    round,
                    player: id(i),
                    points: scaled(e.result),
                }),
            }
        }
    }
    (games, unplayed)
}

/// The `values` format: per start number, the rank, the points and each
/// tie-break's value in FIDE's units.
fn values(rows: &[StandingRow], order: &[TieBreak]) -> String {
    let mut by_number: Vec<_> = rows.iter().collect();
    by_number.sort_by_key(|r| r.player.parse::<u32>().unwrap_or(u32::MAX));
    let mut out = String::from("StartNo\tRank\tPTS");
    for t in order {
        out.push('\t');
        out.push_str(t.code());
    }
    out.push('\n');
    for r in by_number {
        out.push_str(&format!(
            "{}\t{}\t{}",
            r.player,
            r.rank,
            fide_units(r.points as u64, 2)
        ));
        for (t, v) in order.iter().zip(r.every_value.iter().map(|v| v.value)) {
            out.push('\t');
            out.push_str(&match t {
                TieBreak::Buchholz | TieBreak::BuchholzCut1 | TieBreak::ProgressiveScore => {
                    fide_units(v, 2)
                }
                TieBreak::SonnebornBerger => fide_units(v, 4),
                TieBreak::DirectEncounter => fide_units(v, 2),
                _ => v.to_string(),
            });
        }
        out.push('\n');
    }
    out
}

/// Runs `caipan standings`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut order = Vec::new();
    for code in &args.tiebreaks {
        match TieBreak::from_code(code) {
            Some(t) => order.push(t),
            None => {
                return Ok(bad(format!(
                    "--tiebreaks: unknown tie-break \"{code}\" (known: BH, BH-C1, SB, PS, DE, WIN, BWG, BPG, ARO, opponent_score_all, opponent_score_beaten, fewer_technical_fouls, lots)"
                )))
            }
        }
    }
    let text = match super::input::read_text(&args.trf) {
        Ok(t) => t,
        Err(e) => return Ok(bad(format!("{e:#}"))),
    };
    let parsed = match trf::parse(&text, None) {
        Ok(t) => t,
        Err(e) => return Ok(bad(format!("{}: {e}", args.trf.display()))),
    };
    let field = &parsed.field;
    let id = |i: usize| (i + 1).to_string();
    let (games, unplayed) = records(field);
    let extra = StandingsExtra {
        unplayed,
        ratings: field
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (id(i), e.rating))
            .collect::<HashMap<_, _>>(),
        bye_opponent_score: 0,
    };
    let players: Vec<String> = (0..field.entrants.len()).map(id).collect();
    let cfg = StandingsConfig {
        system: EventSystem::Swiss,
        order: Some(order.clone()),
        lots: Vec::new(),
        lot_seed: 0,
        shared_ranks_allowed: true,
    };
    let rows = match rulebook::standings_with(&games, &extra, &players, &cfg) {
        Ok(r) => r,
        Err(e) => return Ok(bad(format!("{}: {e}", args.trf.display()))),
    };
    match args.format {
        Format::Csv => {
            let entrants: BTreeMap<String, Entrant> = field
                .entrants
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    (
                        id(i),
                        Entrant {
                            name: e.name.clone(),
                            id: Some(id(i)),
                        },
                    )
                })
                .collect();
            let s = Standings {
                tournament: args.trf.display().to_string(),
                after_round: field.rounds_held(),
                system: EventSystem::Swiss,
                tie_break_order: order.iter().map(|t| t.code().to_string()).collect(),
                tie_breaks: order.clone(),
                rule_id: String::new(),
                players: rows,
                entrants,
                teams: None,
                missing_rounds: Vec::new(),
                games,
            };
            print!("{}", to_csv(&s));
        }
        Format::Values => {
            let out = values(&rows, &order);
            print!("{out}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A value on the 2/1/0 scale (`div` 2) or SB's (`div` 4) in FIDE's units.
fn fide_units(v: u64, div: u64) -> String {
    let whole = v / div;
    let frac = v % div;
    match (div, frac) {
        (_, 0) => format!("{whole}.0"),
        (2, 1) | (4, 2) => format!("{whole}.5"),
        (4, 1) => format!("{whole}.25"),
        _ => format!("{whole}.75"),
    }
}
