//! `caipan adjudicate [FILE]`: rules on positions and move sequences given as
//! JSON lines (AXF repetition rulings, natural-limit claims, mate/stalemate),
//! one output line per input line; the engine is `rulebook::adjudicate`
//! (its module doc gives the input and output format and every PATTERN kind).
//!
//! The explanation is rendered here from the rulebook's typed one
//! (`rulebook::adjudicate::adjudicate_typed`) through the catalogues:
//! `explanation_zh` (Simplified Chinese), `explanation_en`,
//! `explanation_zh_hant`, `explanation_vi`, with the message itself as
//! `explanation_id` and `explanation_args` (an object of its arguments: a
//! number, a side `red`/`black`, a piece `{"side", "piece"}`, a duration
//! `{"ms"}`, rule ids as a list, text, a nested message `{"id", "args"}`,
//! a list `{"id": "list", "sep", "items"}`). All four are `null` on an
//! error line.
//!
//! `caipan adjudicate --scan-pgn FILE` instead replays every game of a PGN
//! file through the incremental repetition checker and prints the figures:
//! cycles found, their rulings, and every game where a forfeit ruling came
//! before the game's real end.

use anyhow::Context;
use i18n::Lang;
use proto::{Arg, Message};
use rulebook::adjudicate::{adjudicate_typed, Adjudged};
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
        writeln!(out, "{}", rendered(adjudicate_typed(&line)))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The rulebook's line with its explanation rendered in the four
/// languages from the typed one, and the typed one itself.
fn rendered(a: Adjudged) -> String {
    let Ok(serde_json::Value::Object(mut v)) = serde_json::from_str(&a.line) else {
        // The rulebook writes JSON objects; anything else goes as it is.
        return a.line;
    };
    let m = a.explanation.as_ref().map(proto::convert::explanation);
    let text = |lang| {
        m.as_ref()
            .map_or(serde_json::Value::Null, |m| i18n::render(lang, m).into())
    };
    for (key, lang) in [
        ("explanation_zh", Lang::ZhHans),
        ("explanation_en", Lang::En),
        ("explanation_zh_hant", Lang::ZhHant),
        ("explanation_vi", Lang::Vi),
    ] {
        v.insert(key.into(), text(lang));
    }
    let (id, args) = match &m {
        Some(m) => (m.id.clone().into(), args_json(m)),
        None => (serde_json::Value::Null, serde_json::Value::Null),
    };
    v.insert("explanation_id".into(), id);
    v.insert("explanation_args".into(), args);
    serde_json::Value::Object(v).to_string()
}

/// A message's arguments as a JSON object (a list's items in order).
fn args_json(m: &Message) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for (name, arg) in &m.args {
        out.insert(name.clone(), arg_json(arg));
    }
    out.into()
}

fn arg_json(arg: &Arg) -> serde_json::Value {
    use serde_json::json;
    match arg {
        Arg::Int(n) => json!(n),
        Arg::Side(s) => json!(side_key(*s)),
        Arg::Piece { side, kind } => {
            // The catalogue's name of the kind: `piece-chariot` -> `chariot`.
            let piece = i18n::ids::piece(*kind).trim_start_matches("piece-");
            json!({"side": side_key(*side), "piece": piece})
        }
        Arg::DurationMs(ms) => json!({ "ms": ms }),
        Arg::Rules(r) => json!(r),
        Arg::Verbatim(t) => json!(t),
        Arg::Message(m) if m.id == proto::convert::LIST => {
            let sep = m
                .args
                .iter()
                .find(|(n, _)| n == "sep")
                .and_then(|(_, a)| match a {
                    Arg::Message(s) => Some(s.id.clone()),
                    _ => None,
                });
            let items: Vec<serde_json::Value> = m
                .args
                .iter()
                .filter(|(n, _)| n != "sep")
                .map(|(_, a)| arg_json(a))
                .collect();
            json!({"id": m.id, "sep": sep, "items": items})
        }
        Arg::Message(m) => json!({"id": m.id, "args": args_json(m)}),
    }
}

fn side_key(s: proto::Side) -> &'static str {
    match s {
        proto::Side::Red => "red",
        proto::Side::Black => "black",
    }
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
