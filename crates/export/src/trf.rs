//! A TRF-16-style report (FIDE Tournament Report File 2016, adapted to
//! Xiangqi): header lines `012` tournament name, `022` city (the hall's
//! site), `032` federation (when configured), `042` start date, `052` date
//! of the last round exported, `062` number of players, `092` type of
//! tournament, `102` chief arbiter, `122` time control (the PGN
//! `TimeControl` value), `142` number of rounds (planned, else configured;
//! TRF-2026 adds this line), `132` round dates (round 1 at columns 92-99,
//! then every 10 columns, as the specification gives), then one `001` line
//! per player.
//!
//! `001` columns (1-based, as in TRF16): 1-3 `001`, 5-8 start rank, 15-47
//! name, 58-68 registration id (the config's `red_id`/`black_id`), 81-84
//! points, 86-89 rank, then for each round from column 92 a 10-column block
//! `  OOOO C R` (opponent's start rank, colour, result).
//!
//! A TRF never holds a blank result: [`super::render`] refuses a round with
//! an unfinished game, naming its tables, or leaves that round out when
//! asked to (`--allow-unfinished`).
//!
//! Adaptations (documented choices):
//! - colour: `w` = Red (红方, moves first), `b` = Black;
//! - points: the `001` points column is FIDE-style game points, AXF points
//!   divided by two (win 2 -> 1.0, draw 1 -> 0.5), so that TRF tools add up
//!   correctly; per-round results are `1`, `=`, `0`, forfeits `+`/`-`, a
//!   double forfeit `-` for both; the AXF 2/1/0 totals are in the standings
//!   and HTML exports;
//! - not paired in a round: `0000 - Z` (zero-point bye);
//! - players entered late from the console (`tournament.late_entries`)
//!   follow the players of the pairings, with `0000 - Z` (0 points) for
//!   each round they missed; players withdrawn from the console
//!   (`tournament.withdrawals`) from the round after `round` or earlier
//!   are listed on an `XXZ` line (absent in the next round, the
//!   JaVaFo/bbpPairings extension `caipan pair` reads), so that the next
//!   pairing leaves them out;
//! - start ranks: the order players first appear in the pairings (round by
//!   round, table by table, Red before Black), since the config has no seed
//!   list; players are told apart by registration id when one is given
//!   (two players named 王伟 stay two); names are written in UTF-8 and
//!   padded by character count.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rulebook::scoring::GameResult;

use super::game::PlayedGame;
use super::standings::{rulebook_result, Standings};
use super::{ExportError, RenderOptions};
use config::{HallConfig, TournamentKind};

/// Player keys ([`config::Pairing::red_key`]) in start-rank order:
/// first appearance in the pairings of `rounds`.
pub fn start_order(config: &HallConfig, rounds: &[u32]) -> Vec<String> {
    let mut rounds: Vec<_> = config
        .rounds
        .iter()
        .filter(|r| rounds.contains(&r.number))
        .collect();
    rounds.sort_by_key(|r| r.number);
    let mut out: Vec<String> = Vec::new();
    for r in rounds {
        let mut tables = r.tables.clone();
        tables.sort_by_key(|p| p.table);
        for p in tables {
            for key in [p.red_key(), p.black_key()] {
                if !out.iter().any(|k| k == key) {
                    out.push(key.to_string());
                }
            }
        }
    }
    out
}

fn pad_right(s: &str, width: usize) -> String {
    let mut out: String = s.chars().take(width).collect();
    let n = out.chars().count();
    out.extend(std::iter::repeat_n(' ', width - n));
    out
}

fn result_code(r: Option<GameResult>, red: bool) -> char {
    use GameResult::*;
    match (r, red) {
        (None, _) => ' ',
        (Some(RedWins), true) | (Some(BlackWins), false) => '1',
        (Some(RedWins), false) | (Some(BlackWins), true) => '0',
        (Some(Draw), _) => '=',
        (Some(RedWinsByForfeit), true) | (Some(BlackWinsByForfeit), false) => '+',
        (Some(RedWinsByForfeit), false) | (Some(BlackWinsByForfeit), true) => '-',
        (Some(DoubleForfeit), _) => '-',
    }
}

fn trf_date(d: &str) -> String {
    // YYYY-MM-DD -> YYYY/MM/DD (TRF16 header dates).
    d.replace('-', "/")
}

/// The TRF after `round` from the games of every round up to it (`missing`:
/// rounds not in the data dir, left out), with the standings computed from
/// the rounds it holds.
pub fn report(
    config: &HallConfig,
    games: Vec<PlayedGame>,
    missing: Vec<u32>,
    round: u32,
    options: RenderOptions,
) -> Result<String, ExportError> {
    let (games, rounds) = finished_rounds(config, games, &missing, round, options)?;
    let s = super::standings::compute(config, &games, round, missing)?;
    Ok(to_trf(config, &games, &s, round, &rounds))
}

/// The games and round numbers a TRF may hold: every round up to `round`
/// that is in the data dir, refused ([`ExportError::Unfinished`]) when one
/// of them has a game not over, or left out with `allow_unfinished`.
pub fn finished_rounds(
    config: &HallConfig,
    games: Vec<PlayedGame>,
    missing: &[u32],
    round: u32,
    options: RenderOptions,
) -> Result<(Vec<PlayedGame>, Vec<u32>), ExportError> {
    let mut unfinished: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
    for g in games.iter().filter(|g| g.end.is_none()) {
        unfinished.entry(g.round).or_default().push(g.pairing.table);
    }
    if !unfinished.is_empty() && !options.allow_unfinished {
        let mut list: Vec<(u32, Vec<u32>)> = unfinished.into_iter().collect();
        for (_, tables) in &mut list {
            tables.sort_unstable();
        }
        return Err(ExportError::Unfinished(list));
    }
    let rounds: Vec<u32> = config
        .rounds
        .iter()
        .map(|r| r.number)
        .filter(|n| *n <= round && !missing.contains(n) && !unfinished.contains_key(n))
        .collect();
    let games = games
        .into_iter()
        .filter(|g| rounds.contains(&g.round))
        .collect();
    Ok((games, rounds))
}

/// The `132` line: columns 1-89, then each date's block is "  yy/mm/dd" so
/// that round 1's date is at columns 92-99 like the `001` lines' round
/// blocks.
fn round_dates(config: &HallConfig, rounds: &[u32]) -> String {
    let mut dates = format!("{:<89}", "132");
    for n in rounds {
        let d = config
            .round(*n)
            .and_then(|r| r.date.clone())
            .unwrap_or_default();
        // yy/mm/dd, 8 columns, right-aligned in the 10-column block.
        let short = if d.len() == 10 {
            d[2..].replace('-', "/")
        } else {
            String::new()
        };
        let _ = write!(dates, "  {short:>8}");
    }
    dates.trim_end().to_string()
}

/// A player's round block in a `001` line: the opponent's start number,
/// the colour and the result, or a zero-point bye (`Z`) without a game.
fn round_block(games: &[PlayedGame], key: &str, n: u32, start: &BTreeMap<&str, usize>) -> String {
    let game = games
        .iter()
        .find(|g| g.round == n && (g.pairing.red_key() == key || g.pairing.black_key() == key));
    match game {
        None => "  0000 - Z".to_string(),
        Some(g) => {
            let red = g.pairing.red_key() == key;
            let opp = if red {
                g.pairing.black_key()
            } else {
                g.pairing.red_key()
            };
            let opp_no = start.get(opp).copied().unwrap_or(0);
            format!(
                "  {:>4} {} {}",
                opp_no,
                if red { 'w' } else { 'b' },
                result_code(rulebook_result(g), red)
            )
        }
    }
}

/// The report after round `round`, with the round blocks of `rounds` (the
/// rounds up to `round` whose games are all finished; the caller checks).
pub fn to_trf(
    config: &HallConfig,
    games: &[PlayedGame],
    standings: &Standings,
    round: u32,
    rounds: &[u32],
) -> String {
    let mut order = start_order(config, rounds);
    let late = &config.tournament.late_entries;
    for p in late {
        let key = config::Tournament::entry_key(p);
        if !order.iter().any(|k| k == key) {
            order.push(key.to_string());
        }
    }
    let start: BTreeMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i + 1))
        .collect();
    let mut rounds = rounds.to_vec();
    rounds.sort_unstable();
    let mut out = String::new();
    let t = &config.tournament;
    let _ = writeln!(out, "012 {}", t.name);
    let _ = writeln!(out, "022 {}", t.site);
    if let Some(f) = &t.federation {
        let _ = writeln!(out, "032 {f}");
    }
    let _ = writeln!(out, "042 {}", trf_date(&t.date));
    let last_date = config
        .round(round)
        .and_then(|r| r.date.clone())
        .unwrap_or_else(|| t.date.clone());
    let _ = writeln!(out, "052 {}", trf_date(&last_date));
    let _ = writeln!(out, "062 {}", order.len());
    let _ = writeln!(
        out,
        "092 {}",
        match t.kind {
            TournamentKind::RoundRobin => "Round robin (循环赛)",
            TournamentKind::Swiss => "Swiss (瑞士制)",
            TournamentKind::PointsRoundRobin => "Points round robin (积分循环赛)",
        }
    );
    let _ = writeln!(out, "102 {}", config.credentials.chief.name);
    let _ = writeln!(
        out,
        "122 {}",
        super::pgn::time_control_tag(&config.time_control)
    );
    let planned = t.rounds_planned.unwrap_or(config.rounds.len() as u32);
    let _ = writeln!(out, "142 {planned}");
    out.push_str(&round_dates(config, &rounds));
    out.push('\n');

    let rank_of: BTreeMap<&str, &rulebook::StandingRow> = standings
        .players
        .iter()
        .map(|r| (r.player.as_str(), r))
        .collect();
    for (i, key) in order.iter().enumerate() {
        let row = rank_of.get(key.as_str());
        let points_x2 = row.map(|r| r.points).unwrap_or(0);
        let fide_points = format!(
            "{}.{}",
            points_x2 / 2,
            if points_x2 % 2 == 1 { 5 } else { 0 }
        );
        let rank = row.map(|r| r.rank).unwrap_or(0);
        let entry = late
            .iter()
            .find(|p| config::Tournament::entry_key(p) == key.as_str());
        let (name, id) = match (row, entry) {
            (None, Some(p)) => (p.name.as_str(), p.id.as_str()),
            _ => (standings.name_of(key), standings.id_of(key)),
        };
        // Columns 1-89: "001 SSSS sTTT NAME(33) RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR".
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            i + 1,
            "",
            "",
            pad_right(name, 33),
            "",
            "",
            id,
            "",
            fide_points,
            rank
        );
        for n in &rounds {
            line.push_str(&round_block(games, key, *n, &start));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&absent_line(config, &start, round));
    out
}

/// The `XXZ` line (with its newline) of the players withdrawn from the
/// round after `round` or earlier, by start number; empty when none.
fn absent_line(config: &HallConfig, start: &BTreeMap<&str, usize>, round: u32) -> String {
    let mut absent: Vec<usize> = config
        .tournament
        .withdrawals
        .iter()
        .filter(|(_, from)| *from <= round + 1)
        .filter_map(|(key, _)| start.get(key.as_str()).copied())
        .collect();
    absent.sort_unstable();
    if absent.is_empty() {
        return String::new();
    }
    let list: Vec<String> = absent.iter().map(usize::to_string).collect();
    format!("XXZ {}\n", list.join(" "))
}
