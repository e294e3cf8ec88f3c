//! `caipan adjudicate [FILE]`: rules on positions and move sequences given as
//! JSON lines (AXF repetition rulings, natural-limit claims, mate/stalemate),
//! one output line per input line; the engine is `rulebook::adjudicate`
//! (its module doc gives the input and output format and every PATTERN kind).
//!
//! `caipan adjudicate --scan-pgn FILE` instead replays every game of a PGN
//! file through the incremental repetition checker and prints the figures:
//! cycles found, their rulings, and every game where a forfeit ruling came
//! before the game's real end.

use anyhow::Context;
use rulebook::adjudicate::adjudicate_line;
use rulebook::scan::scan_game;
use rulebook::{RuleSet, Verdict};
use std::collections::BTreeMap;
use std::io::{BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `caipan adjudicate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// JSON-lines input (stdin when absent).
    pub file: Option<PathBuf>,
    /// Scan every game of this PGN file for repetition alerts instead.
    #[arg(long, value_name = "PGN")]
    pub scan_pgn: Option<PathBuf>,
    /// Rule set for --scan-pgn: axf, roc or cxa.
    #[arg(long, default_value = "axf")]
    pub rules: String,
}

/// Runs `caipan adjudicate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(pgn) = &args.scan_pgn {
        let set = RuleSet::from_name(&args.rules)?;
        return scan(pgn, set);
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let input: Box<dyn BufRead> = match &args.file {
        Some(p) => Box::new(std::io::BufReader::new(
            std::fs::File::open(p).with_context(|| format!("cannot read {}", p.display()))?,
        )),
        None => Box::new(std::io::BufReader::new(std::io::stdin())),
    };
    for line in input.lines() {
        let line = line.context("cannot read the input")?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(out, "{}", adjudicate_line(&line))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn scan(path: &std::path::Path, set: RuleSet) -> anyhow::Result<ExitCode> {
    let text = super::input::read_text(path)?;
    let games = xiangqi::read_pgn(&text).with_context(|| format!("{}", path.display()))?;
    let mut alerts = 0usize;
    let mut games_with = 0usize;
    let mut by_verdict: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_pattern: BTreeMap<String, usize> = BTreeMap::new();
    let mut bad = 0usize;
    let mut forfeits = Vec::new();
    let mut warned = 0usize;
    let mut referred = 0usize;
    for (i, raw) in games.iter().enumerate() {
        let game = match raw.replay() {
            Ok(g) => g,
            Err(e) => {
                bad += 1;
                eprintln!("game {}: {e}", i + 1);
                continue;
            }
        };
        let s = scan_game(&game.start, &game.moves, set);
        if !s.alerts.is_empty() {
            games_with += 1;
        }
        // Count each cycle once: at its third occurrence.
        for a in s.alerts.iter().filter(|a| a.ruling.cycle.occurrences == 3) {
            alerts += 1;
            if a.ruling.arbiter.is_some() {
                referred += 1;
            }
            *by_verdict.entry(a.ruling.verdict.name()).or_default() += 1;
            *by_pattern
                .entry(format!(
                    "{} / {}",
                    a.ruling.red.kind.name(),
                    a.ruling.black.kind.name()
                ))
                .or_default() += 1;
        }
        if let Some(a) = s.first_forfeit_before_end() {
            warned += 1;
            if let Some(l) = s.first_forfeit_loss_before_end() {
                forfeits.push((i + 1, game.tags.clone(), s.plies, l.clone(), a.ply));
            }
        }
    }
    println!("games: {} ({} could not be replayed)", games.len(), bad);
    println!("games with a repetition alert: {games_with}");
    println!("cycles ruled (positions reaching a third occurrence): {alerts}");
    for (v, n) in &by_verdict {
        println!("  verdict {v}: {n}");
    }
    println!("  referred to the arbiter (the verdict depends on intent, or a search ran out): {referred}");
    println!("patterns (red / black):");
    for (p, n) in &by_pattern {
        println!("  {p}: {n}");
    }
    println!(
        "games where a side was told to change (forbidden cycle, third occurrence) before the end: {warned}"
    );
    println!(
        "games a forfeit would have ended before their real end (the forbidden cycle repeated after the third occurrence): {}",
        forfeits.len()
    );
    for (n, tags, plies, a, first) in &forfeits {
        let tag = |k: &str| {
            tags.iter()
                .find(|(t, _)| t == k)
                .map(|(_, v)| v.as_str())
                .unwrap_or("?")
        };
        let loser = if a.ruling.verdict == Verdict::RedLoses {
            "red"
        } else {
            "black"
        };
        println!(
            "- game {n} ({}; {} - {}): told to change at ply {first}, loses at ply {} of {plies} (occurrence {}); {loser} loses; rules {}",
            tag("Event"),
            tag("Red"),
            tag("Black"),
            a.ply,
            a.ruling.cycle.occurrences,
            a.ruling.rules.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(",")
        );
        println!("    {}", a.ruling.explanation_en);
        if let Some((_, why)) = &a.ruling.arbiter {
            println!("    arbiter: {why}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
