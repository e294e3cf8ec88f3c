//! FIDE's tournament report file (TRF) in and out.
//!
//! In: TRF-16 `001` player lines (start number, name, rating, federation,
//! FIDE id and birth date may be blank; points; then per round the
//! opponent, the colour `w`/`b`/`-` and the result `1 0 = + - U H F Z`, or
//! `W D L` for unrated games), with TRF-2026's `142` (rounds), `152`
//! (round 1's top colour), `162` (game scoring), `240` (half- and
//! full-point byes of a round), `260` (prohibited pairings) and
//! bbpPairings' / gacrux's `XXR` (rounds), `XXC white1|black1` (top
//! colour), `XXP` (a forbidden group) and `XXZ` (absent next round). Other
//! lines are read over. Columns count characters, so a UTF-8 name in
//! Chinese keeps the columns after it in place.
//!
//! Every fact is checked: a start number out of order or twice, an
//! opponent who does not exist or does not name the player back, colours
//! or results that do not match, and points that do not recompute from
//! the results, are refused with the line and the player.
//!
//! Out: [`pairs`] prints what JaVaFo and bbpPairings print; [`csv`] the
//! `round,table,red,black` columns `caipan pairings import` reads;
//! [`write`] a TRF of the field with the paired round appended.

use crate::field::{Entrant, Entry, Field, ResultCode, Scoring, Side};
use crate::{Pairing, Relaxation};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A TRF problem: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct TrfError {
    /// 1-based line number (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        message: message.into(),
    }
}

/// What a TRF holds besides the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trf {
    /// Players and rounds.
    pub field: Field,
    /// Round 1's top colour, when the file gives it (`152`, `XXC`).
    pub top_colour: Option<Side>,
    /// The `001` line of each player (1-based), for messages.
    pub player_lines: Vec<usize>,
}

/// Characters `from..to` (0-based) of a line, trimmed; "" past the end.
fn cols(chars: &[char], from: usize, to: usize) -> String {
    if from >= chars.len() {
        return String::new();
    }
    chars[from..to.min(chars.len())]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

/// Tenths of a point from "2.5" / "3" / "1,5".
fn tenths(s: &str) -> Option<u32> {
    let s = s.trim().replace(',', ".");
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let int: u32 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let frac = frac.trim_end_matches('0');
    let f: u32 = match frac.len() {
        0 => 0,
        1 => frac.parse().ok()?,
        _ => return None,
    };
    int.checked_mul(10)?.checked_add(f)
}

/// Shows tenths as "2.5" / "3.0".
pub fn points_text(t: u32) -> String {
    format!("{}.{}", t / 10, t % 10)
}

struct RawPlayer {
    line: usize,
    entrant: Entrant,
    points: Option<u32>,
    rounds: Vec<(Option<u32>, Option<Side>, ResultCode, usize)>,
}

/// Reads a TRF. `next_round` is the round about to be paired: byes and
/// absences the file lists for it are read into [`Field::absent_next`],
/// prohibited pairings in force in it into [`Field::forbidden`].
pub fn parse(text: &str, next_round: Option<u32>) -> Result<Trf, TrfError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut raw: Vec<RawPlayer> = Vec::new();
    let mut scoring = Scoring::FIDE;
    let mut top_colour = None;
    let mut rounds_planned = 0;
    let mut byes: Vec<(u32, ResultCode, u32, usize)> = Vec::new();
    let mut absent: Vec<(u32, usize)> = Vec::new();
    let mut prohibited: Vec<(u32, u32, Vec<u32>, usize)> = Vec::new();
    for (li, line) in text.lines().enumerate() {
        let ln = li + 1;
        let line = line.trim_end_matches('\r');
        let chars: Vec<char> = line.chars().collect();
        let code: String = chars.iter().take(3).collect();
        let rest = cols(&chars, 3, chars.len());
        match code.as_str() {
            "001" => raw.push(parse_player(&chars, ln)?),
            "142" | "XXR" => {
                rounds_planned = rest.parse().map_err(|_| {
                    err(ln, format!("{code}: \"{rest}\" is not a number of rounds"))
                })?;
            }
            "152" => {
                top_colour = Some(match rest.to_ascii_uppercase().as_str() {
                    "W" => Side::Red,
                    "B" => Side::Black,
                    _ => return Err(err(ln, format!("152: \"{rest}\" is not W or B"))),
                })
            }
            "XXC" => {
                for word in rest.split_whitespace() {
                    match word {
                        "white1" => top_colour = Some(Side::Red),
                        "black1" => top_colour = Some(Side::Black),
                        _ => {}
                    }
                }
            }
            "162" => scoring = parse_scoring(&chars, ln)?,
            "240" => byes.extend(parse_byes(&chars, ln)?),
            "260" => {
                let first: u32 = cols(&chars, 4, 7)
                    .parse()
                    .map_err(|_| err(ln, "260: the first round (columns 5-7) is not a number"))?;
                let last: u32 = cols(&chars, 8, 11).parse().unwrap_or(0);
                let who = numbers(&cols(&chars, 11, chars.len()), ln, "260")?;
                prohibited.push((first, if last == 0 { first } else { last }, who, ln));
            }
            "XXP" => {
                let who = numbers(&rest, ln, "XXP")?;
                prohibited.push((1, u32::MAX, who, ln));
            }
            "XXZ" => {
                for n in numbers(&rest, ln, "XXZ")? {
                    absent.push((n, ln));
                }
            }
            _ => {}
        }
    }
    if raw.is_empty() {
        return Err(err(0, "no 001 player lines"));
    }
    raw.sort_by_key(|p| p.entrant.number);
    check_start_numbers(&raw)?;
    let n = raw.len() as u32;
    let held = raw.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let mut field = Field::new(raw.iter().map(|p| p.entrant.clone()).collect(), scoring);
    field.rounds_planned = rounds_planned;
    for (i, p) in raw.iter().enumerate() {
        for r in 0..held {
            let e = match p.rounds.get(r) {
                Some(&(opp, side, result, _)) => Entry {
                    opponent: opp,
                    side,
                    result,
                },
                None => Entry::ABSENT,
            };
            field.history[i].push(e);
        }
    }
    check_history(&raw, &field)?;
    let next = next_round.unwrap_or(held as u32 + 1);
    next_round_limits(&mut field, next, n, byes, absent, prohibited)?;
    Ok(Trf {
        field,
        top_colour,
        player_lines: raw.iter().map(|p| p.line).collect(),
    })
}

/// A `240` line: the byes of one round (H, F or Z) for the numbers listed,
/// each with the round, the kind and the line.
fn parse_byes(chars: &[char], ln: usize) -> Result<Vec<(u32, ResultCode, u32, usize)>, TrfError> {
    let kind = match chars.get(4).copied().unwrap_or(' ') {
        'H' | 'h' => ResultCode::HalfBye,
        'F' | 'f' => ResultCode::FullBye,
        ' ' | 'Z' | 'z' => ResultCode::ZeroBye,
        c => return Err(err(ln, format!("240: bye type '{c}' is not H, F or Z"))),
    };
    let round: u32 = cols(chars, 6, 9)
        .parse()
        .map_err(|_| err(ln, "240: the round (columns 7-9) is not a number"))?;
    Ok(numbers(&cols(chars, 9, chars.len()), ln, "240")?
        .into_iter()
        .map(|n| (round, kind, n, ln))
        .collect())
}

/// The start numbers (sorted) run 1..n without gaps or repeats.
fn check_start_numbers(raw: &[RawPlayer]) -> Result<(), TrfError> {
    for (i, p) in raw.iter().enumerate() {
        if p.entrant.number != i as u32 + 1 {
            return Err(err(
                p.line,
                format!(
                    "start number {} where {} was expected (numbers run 1..{} without gaps or repeats)",
                    p.entrant.number,
                    i + 1,
                    raw.len()
                ),
            ));
        }
    }
    Ok(())
}

/// Every round of every player: opponents exist and name the player back,
/// colours and results match; the points a line states are the results'.
fn check_history(raw: &[RawPlayer], field: &Field) -> Result<(), TrfError> {
    for (i, p) in raw.iter().enumerate() {
        let me = i as u32 + 1;
        for r in 0..p.rounds.len() {
            check_meeting(raw, field, i, r)?;
        }
        if let Some(points) = p.points {
            let computed = field.score(i);
            if computed != points {
                return Err(err(
                    p.line,
                    format!(
                        "player {me} ({}): the line says {} points, the results give {}",
                        p.entrant.name,
                        points_text(points),
                        points_text(computed)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Player `i`'s round `r`: the opponent exists and names the player back,
/// the colours and the results match.
fn check_meeting(raw: &[RawPlayer], field: &Field, i: usize, r: usize) -> Result<(), TrfError> {
    let n = raw.len() as u32;
    let p = &raw[i];
    let me = i as u32 + 1;
    let (opp, side, result, _) = p.rounds[r];
    let Some(o) = opp else {
        if result.played() || matches!(result, ResultCode::ForfeitWin | ResultCode::ForfeitLoss) {
            return Err(err(
                p.line,
                format!(
                    "player {me}, round {}: a game result without an opponent",
                    r + 1
                ),
            ));
        }
        return Ok(());
    };
    if o == 0 || o > n {
        return Err(err(
            p.line,
            format!(
                "player {me}, round {}: opponent {o} is not a start number (1..{n})",
                r + 1
            ),
        ));
    }
    if o == me {
        return Err(err(
            p.line,
            format!("player {me}, round {}: paired with themself", r + 1),
        ));
    }
    let theirs = field.history[o as usize - 1][r];
    let want = match result {
        ResultCode::Win => Some(ResultCode::Loss),
        ResultCode::Loss => Some(ResultCode::Win),
        ResultCode::Draw => Some(ResultCode::Draw),
        ResultCode::ForfeitWin => Some(ResultCode::ForfeitLoss),
        ResultCode::ForfeitLoss => Some(ResultCode::ForfeitWin),
        _ => None,
    };
    let sides_ok = match (side, theirs.side) {
        (Some(a), Some(b)) => a != b,
        (None, None) => true,
        _ => !result.played(),
    };
    let result_ok = match want {
        Some(w) => {
            theirs.result == w
                || (result == ResultCode::ForfeitLoss && theirs.result == ResultCode::ForfeitLoss)
        }
        None => false,
    };
    if theirs.opponent != Some(me) || !sides_ok || !result_ok {
        return Err(err(
            p.line,
            format!(
                "player {me}, round {}: meets {o}, but player {o}'s line (line {}) does not match (opponent, colour or result)",
                r + 1,
                raw[o as usize - 1].line
            ),
        ));
    }
    Ok(())
}

/// Byes (`240`) and absences (`XXZ`) for round `next` into
/// [`Field::absent_next`], prohibited pairings (`260`, `XXP`) in force in
/// it into [`Field::forbidden`]; every number named must be a start
/// number.
fn next_round_limits(
    field: &mut Field,
    next: u32,
    n: u32,
    byes: Vec<(u32, ResultCode, u32, usize)>,
    absent: Vec<(u32, usize)>,
    prohibited: Vec<(u32, u32, Vec<u32>, usize)>,
) -> Result<(), TrfError> {
    for (round, kind, who, ln) in byes {
        if who == 0 || who > n {
            return Err(err(
                ln,
                format!("240: {who} is not a start number (1..{n})"),
            ));
        }
        if round == next {
            field.absent_next.insert(who, kind);
        }
    }
    for (who, ln) in absent {
        if who == 0 || who > n {
            return Err(err(
                ln,
                format!("XXZ: {who} is not a start number (1..{n})"),
            ));
        }
        field.absent_next.entry(who).or_insert(ResultCode::ZeroBye);
    }
    for (first, last, who, ln) in prohibited {
        if let Some(&bad) = who.iter().find(|&&w| w == 0 || w > n) {
            return Err(err(
                ln,
                format!("prohibited pairing: {bad} is not a start number (1..{n})"),
            ));
        }
        if (first..=last).contains(&next) {
            for (k, &a) in who.iter().enumerate() {
                for &b in &who[k + 1..] {
                    if a != b {
                        field.forbidden.insert((a.min(b), a.max(b)));
                    }
                }
            }
        }
    }
    Ok(())
}

fn numbers(s: &str, ln: usize, what: &str) -> Result<Vec<u32>, TrfError> {
    s.split_whitespace()
        .map(|w| {
            w.parse()
                .map_err(|_| err(ln, format!("{what}: \"{w}\" is not a start number")))
        })
        .collect()
}

fn parse_scoring(chars: &[char], ln: usize) -> Result<Scoring, TrfError> {
    let mut s = Scoring::FIDE;
    let mut pos = 5;
    while pos < chars.len() {
        let sym = chars[pos].to_ascii_uppercase();
        let value = cols(chars, pos + 1, pos + 5);
        if sym != ' ' {
            let t = tenths(&value).ok_or_else(|| {
                err(
                    ln,
                    format!("162: \"{value}\" after '{sym}' is not a number of points"),
                )
            })?;
            match sym {
                'W' => {
                    s.win = t;
                    s.full_bye = t;
                }
                'D' => {
                    s.draw = t;
                    s.half_bye = t;
                }
                'L' => s.loss = t,
                'P' => s.pairing_bye = t,
                'A' | 'Z' => s.zero_bye = t,
                _ => {}
            }
        }
        pos += 9;
    }
    Ok(s)
}

fn parse_player(chars: &[char], ln: usize) -> Result<RawPlayer, TrfError> {
    let number_text = cols(chars, 4, 8);
    let number: u32 = number_text.parse().map_err(|_| {
        err(
            ln,
            format!("001: start number \"{number_text}\" (columns 5-8) is not a number"),
        )
    })?;
    let name = cols(chars, 14, 47);
    let rating_text = cols(chars, 48, 52);
    let rating = if rating_text.is_empty() {
        0
    } else {
        rating_text.parse().map_err(|_| {
            err(
                ln,
                format!("001: player {number}: rating \"{rating_text}\" is not a number"),
            )
        })?
    };
    let club = cols(chars, 53, 56);
    let points_text = cols(chars, 80, 84);
    let points = if points_text.is_empty() {
        None
    } else {
        Some(tenths(&points_text).ok_or_else(|| {
            err(ln, format!("001: player {number}: points \"{points_text}\" (columns 81-84) is not a number"))
        })?)
    };
    let mut rounds = Vec::new();
    let mut at = 91;
    while at < chars.len() {
        let r = rounds.len() + 1;
        let opp_text = cols(chars, at, at + 4);
        let colour = chars.get(at + 5).copied().unwrap_or(' ');
        let res = chars.get(at + 7).copied().unwrap_or(' ');
        let opponent = if opp_text.is_empty() || opp_text.chars().all(|c| c == '0') {
            None
        } else {
            Some(opp_text.parse::<u32>().map_err(|_| {
                err(
                    ln,
                    format!(
                        "001: player {number}, round {r}: opponent \"{opp_text}\" is not a number"
                    ),
                )
            })?)
        };
        let side = match colour {
            'w' | 'W' => Some(Side::Red),
            'b' | 'B' => Some(Side::Black),
            '-' | ' ' => None,
            c => {
                return Err(err(
                    ln,
                    format!("001: player {number}, round {r}: colour '{c}' is not w, b or -"),
                ))
            }
        };
        let result = ResultCode::from_trf(res).ok_or_else(|| {
            err(ln, format!("001: player {number}, round {r}: result '{res}' is not one of 1 0 = + - U H F Z W D L"))
        })?;
        if result.played() && (side.is_none() || opponent.is_none()) {
            return Err(err(
                ln,
                format!(
                    "001: player {number}, round {r}: a played game needs an opponent and a colour"
                ),
            ));
        }
        rounds.push((opponent, side, result, ln));
        at += 10;
    }
    Ok(RawPlayer {
        line: ln,
        entrant: Entrant {
            number,
            name,
            rating,
            club,
            bye_eligible: true,
        },
        points,
        rounds,
    })
}

/// The JaVaFo / bbpPairings output: the number of pairs (the bye line
/// counted) on the first line, then `WHITE BLACK` per board in board
/// order, the bye as `ID 0`.
pub fn pairs(p: &Pairing) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", p.boards.len() + usize::from(p.bye.is_some()));
    for b in &p.boards {
        let _ = writeln!(out, "{} {}", b.red, b.black);
    }
    if let Some(bye) = p.bye {
        let _ = writeln!(out, "{bye} 0");
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The pairing as the CSV `caipan pairings import` reads (the bye is no
/// table and is left out).
pub fn csv(field: &Field, p: &Pairing) -> String {
    let name = |n: u32| {
        let e = &field.entrants[n as usize - 1];
        if e.name.is_empty() {
            n.to_string()
        } else {
            e.name.clone()
        }
    };
    let mut out = String::from("round,table,red,black,red_id,black_id\n");
    for (t, b) in p.boards.iter().enumerate() {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{}",
            p.round,
            t + 1,
            csv_field(&name(b.red)),
            csv_field(&name(b.black)),
            b.red,
            b.black
        );
    }
    out
}

/// The next round's entry per start number: opponent (0 for none),
/// colour, and the result when it is known already (the bye, absences).
fn next_entries(
    field: &Field,
    next: Option<&Pairing>,
) -> BTreeMap<u32, (u32, char, Option<ResultCode>)> {
    let mut next_entry = BTreeMap::new();
    if let Some(p) = next {
        for b in &p.boards {
            next_entry.insert(b.red, (b.black, 'w', None));
            next_entry.insert(b.black, (b.red, 'b', None));
        }
        if let Some(b) = p.bye {
            next_entry.insert(b, (0, '-', Some(ResultCode::PairingBye)));
        }
        for (&who, &code) in &field.absent_next {
            next_entry.entry(who).or_insert((0, '-', Some(code)));
        }
    }
    next_entry
}

/// A round entry's opponent, columns 92-95 (TRF-16): the start number
/// right-aligned in four columns, `0000` when there is none (a bye or an
/// absence).
fn opponent_text(number: u32) -> String {
    if number == 0 {
        "0000".to_string()
    } else {
        format!("{number:>4}")
    }
}

/// A TRF of the field: `012`, `142`, `162`, then a `001` line per player
/// with points and rank; with `next`, its round appended (opponent and
/// colour, the result left blank; the bye as `0000 - U`, absences as the
/// file gave them).
pub fn write(field: &Field, next: Option<&Pairing>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "012 caipan");
    // 142 never says fewer rounds than the file holds.
    let held =
        field.history.iter().map(Vec::len).max().unwrap_or(0) as u32 + u32::from(next.is_some());
    if field.rounds_planned > 0 {
        let _ = writeln!(out, "142 {}", field.rounds_planned.max(held));
    }
    let s = &field.scoring;
    let _ = writeln!(
        out,
        "162  W{:>4}    D{:>4}    L{:>4}    A{:>4}    P{:>4}",
        points_text(s.win),
        points_text(s.draw),
        points_text(s.loss),
        points_text(s.zero_bye),
        points_text(s.pairing_bye)
    );
    let next_entry = next_entries(field, next);
    // The points column counts every result the line holds: the next
    // round's bye and absences are results already (gacrux refuses a line
    // whose points differ from its results).
    let total: Vec<u32> = (0..field.entrants.len())
        .map(|i| {
            let known = next_entry
                .get(&field.entrants[i].number)
                .and_then(|&(_, _, code)| code)
                .map_or(0, |code| s.points(code));
            field.score(i) + known
        })
        .collect();
    let mut order: Vec<usize> = (0..total.len()).collect();
    order.sort_by(|&a, &b| total[b].cmp(&total[a]).then(a.cmp(&b)));
    let mut rank = vec![0; total.len()];
    for (pos, &i) in order.iter().enumerate() {
        rank[i] = pos + 1;
    }
    for (i, e) in field.entrants.iter().enumerate() {
        let name: String = e.name.chars().take(33).collect();
        let pad = 33usize.saturating_sub(name.chars().count());
        let rating = if e.rating > 0 {
            e.rating.to_string()
        } else {
            String::new()
        };
        let club: String = e.club.chars().take(3).collect();
        let _ = write!(
            out,
            "001 {:>4}      {}{} {:>4} {:<3} {:>11} {:>10} {:>4} {:>4}",
            e.number,
            name,
            " ".repeat(pad),
            rating,
            club,
            "",
            "",
            points_text(total[i]),
            rank[i]
        );
        for h in &field.history[i] {
            let colour = match h.side {
                Some(Side::Red) => 'w',
                Some(Side::Black) => 'b',
                None => '-',
            };
            let _ = write!(
                out,
                "  {} {} {}",
                opponent_text(h.opponent.unwrap_or(0)),
                colour,
                h.result.to_trf()
            );
        }
        let mut games = !field.history[i].is_empty();
        if let Some(&(opp, colour, result)) = next_entry.get(&e.number) {
            let result = result.map_or(' ', ResultCode::to_trf);
            let _ = write!(out, "  {} {} {}", opponent_text(opp), colour, result);
            games = true;
        }
        // A round's entry keeps its full ten columns, the blank result of
        // a round paired but not played included: gacrux reads an entry
        // only when the line reaches its result column.
        if !games {
            let trimmed = out.trim_end_matches(' ').len();
            out.truncate(trimmed);
        }
        out.push('\n');
    }
    out
}

/// Whether a pairing kept every rule (for messages).
pub fn relaxed_note(p: &Pairing) -> Option<&'static str> {
    match p.relaxed {
        Relaxation::None => None,
        Relaxation::ClubMeets => Some("players of one club meet: no pairing keeps them apart"),
        Relaxation::ColourLimits => Some("a colour limit is broken: no pairing keeps them"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "012 test\n\
XXR 5\n\
001    1      Player    1                       2236            2170             1.5    1     3 w 1     2 b =\n\
001    2      Player    2                       2228            2190             1.5    2     4 b 1     1 w =\n\
001    3      Player    3                       2224            2180             1.0    3     1 b 0  0000 - U\n\
001    4      Player    4                       2173            2140             0.0    4     2 w 0  0000 - Z\n";

    #[test]
    fn reads_players_rounds_and_checks_points() {
        let t = parse(SAMPLE, None).expect("valid");
        assert_eq!(t.field.entrants.len(), 4);
        assert_eq!(t.field.rounds_held(), 2);
        assert_eq!(t.field.rounds_planned, 5);
        assert_eq!(t.field.score(0), 15);
        assert!(t.field.met(0, 1));
        assert_eq!(t.field.byes(2), 1);
        let bad = SAMPLE.replace("1.0    3", "2.0    3");
        let e = parse(&bad, None).expect_err("points wrong");
        assert_eq!(e.line, 5);
        assert!(e.message.contains("player 3"), "{e}");
        let bad = SAMPLE.replace("2 b =", "2 w =");
        let e = parse(&bad, None).expect_err("colours wrong");
        assert!(e.message.contains("does not match"), "{e}");
    }

    #[test]
    fn writes_what_it_reads() {
        let t = parse(SAMPLE, None).expect("valid");
        let again = parse(&write(&t.field, None), None).expect("own output reads");
        assert_eq!(again.field.history, t.field.history);
        assert_eq!(again.field.scoring, t.field.scoring);
    }
}
