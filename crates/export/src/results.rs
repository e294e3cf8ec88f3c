//! The results table of a round (成绩表): one row per table with the
//! players, result, reason, points (2/1/0, AXF-SCORE-1), moves, time used
//! and fouls of each side; written as CSV (RFC 4180 quoting, UTF-8, CRLF
//! line ends; `caipan export --bom` puts a byte-order mark first for Excel)
//! or JSON.
//!
//! With a language (`caipan export --lang`, `[tournament] language`) each
//! row also carries the end reason in that language: the CSV column
//! `reason_text` after `reason_zh`, the JSON key `reason_text`, and the
//! JSON document its `lang`; without one the columns and keys are exactly
//! those of before.

use proto::GameResult;
use serde::Serialize;

use super::game::PlayedGame;
use i18n::Lang;
use rulebook::{clock_text, ClockForm};

/// One row of the results table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResultRow {
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// Red player.
    pub red: String,
    /// Black player.
    pub black: String,
    /// Red's registration id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub red_id: Option<String>,
    /// Black's registration id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_id: Option<String>,
    /// Red's team (team events).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub red_team: Option<String>,
    /// Black's team (team events).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_team: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0` (both lose) or `*` (not finished).
    pub result: String,
    /// Why the game ended (`checkmate`, `resignation`, ...; empty if not finished).
    pub reason: String,
    /// The Chinese term for the reason.
    pub reason_zh: String,
    /// The reason in the export's language (only when it has one; empty
    /// while the game is not finished).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_text: Option<String>,
    /// The server's own words for the end.
    pub detail: String,
    /// Red's points (2/1/0), `None` if not finished.
    pub red_points: Option<u32>,
    /// Black's points.
    pub black_points: Option<u32>,
    /// Moves (move numbers used).
    pub moves: u32,
    /// Plies.
    pub plies: u32,
    /// Time used by Red (ms).
    pub red_time_ms: u64,
    /// Time used by Black (ms).
    pub black_time_ms: u64,
    /// Red's technical fouls.
    pub red_fouls: u32,
    /// Black's technical fouls.
    pub black_fouls: u32,
    /// Red's recording violations.
    pub red_violations: u32,
    /// Black's recording violations.
    pub black_violations: u32,
    /// Final position (FEN).
    pub final_fen: String,
}

/// The PGN result token of a game (`*` while it is not over).
pub fn result_token(g: &PlayedGame) -> &'static str {
    match g.end.as_ref().map(|e| e.result) {
        Some(GameResult::RedWins) => "1-0",
        Some(GameResult::BlackWins) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        Some(GameResult::BothLose) => "0-0",
        None => "*",
    }
}

/// Points of Red and Black (2/1/0; both lose: 0 each).
pub fn points(result: GameResult) -> (u32, u32) {
    match result {
        GameResult::RedWins => (2, 0),
        GameResult::BlackWins => (0, 2),
        GameResult::Draw => (1, 1),
        GameResult::BothLose => (0, 0),
    }
}

impl ResultRow {
    /// The row of a game.
    pub fn of(g: &PlayedGame) -> ResultRow {
        let pts = g.end.as_ref().map(|e| points(e.result));
        ResultRow {
            round: g.round,
            table: g.pairing.table,
            red: g.pairing.red.clone(),
            black: g.pairing.black.clone(),
            red_id: g.pairing.red_id.clone(),
            black_id: g.pairing.black_id.clone(),
            red_team: g.pairing.red_team.clone(),
            black_team: g.pairing.black_team.clone(),
            result: result_token(g).to_string(),
            reason: g
                .end
                .as_ref()
                .map(|e| e.reason.as_str().to_string())
                .unwrap_or_default(),
            reason_zh: g
                .end
                .as_ref()
                .map(|e| e.reason.as_zh().to_string())
                .unwrap_or_default(),
            reason_text: None,
            detail: g.end.as_ref().map(|e| e.detail.clone()).unwrap_or_default(),
            red_points: pts.map(|p| p.0),
            black_points: pts.map(|p| p.1),
            moves: g.full_moves(),
            plies: g.plies() as u32,
            red_time_ms: g.time_used_ms[0],
            black_time_ms: g.time_used_ms[1],
            red_fouls: g.fouls[0].technical,
            black_fouls: g.fouls[1].technical,
            red_violations: g.fouls[0].violations,
            black_violations: g.fouls[1].violations,
            final_fen: g.final_position.to_fen(),
        }
    }
}

/// The rows of a round, by table.
pub fn rows(games: &[PlayedGame]) -> Vec<ResultRow> {
    rows_in(games, None)
}

/// The rows of a round, by table, with the reason in `lang` when given.
pub fn rows_in(games: &[PlayedGame], lang: Option<Lang>) -> Vec<ResultRow> {
    let mut rows: Vec<ResultRow> = games
        .iter()
        .map(|g| {
            let mut row = ResultRow::of(g);
            row.reason_text = lang.map(|l| {
                g.end
                    .as_ref()
                    .map(|e| crate::words::reason(l, e.reason))
                    .unwrap_or_default()
            });
            row
        })
        .collect();
    rows.sort_by_key(|r| (r.round, r.table));
    rows
}

/// One CSV field, quoted when it holds a comma, quote, CR, LF or outer space.
pub fn csv_field(s: &str) -> String {
    let needs = s.contains([',', '"', '\n', '\r'])
        || s.starts_with(char::is_whitespace)
        || s.ends_with(char::is_whitespace);
    if needs {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// CSV header of [`to_csv`].
pub const CSV_HEADER: &[&str] = &[
    "round",
    "table",
    "red",
    "red_id",
    "red_team",
    "black",
    "black_id",
    "black_team",
    "result",
    "reason",
    "reason_zh",
    "red_points",
    "black_points",
    "moves",
    "plies",
    "red_time_used",
    "black_time_used",
    "red_fouls",
    "black_fouls",
    "red_violations",
    "black_violations",
    "detail",
];

/// Where [`to_csv`] puts `reason_text` when the export has a language:
/// after `reason_zh`.
const REASON_TEXT_AT: usize = 11;

/// The results as CSV (header line first; times as `h:mm:ss`); with
/// `lang`, the column `reason_text` after `reason_zh`.
pub fn to_csv(rows: &[ResultRow], lang: Option<Lang>) -> String {
    let mut header: Vec<&str> = CSV_HEADER.to_vec();
    if lang.is_some() {
        header.insert(REASON_TEXT_AT, "reason_text");
    }
    let mut out = header.join(",");
    out.push_str("\r\n");
    let opt = |p: Option<u32>| p.map(|p| p.to_string()).unwrap_or_default();
    for r in rows {
        let mut fields = vec![
            r.round.to_string(),
            r.table.to_string(),
            r.red.clone(),
            r.red_id.clone().unwrap_or_default(),
            r.red_team.clone().unwrap_or_default(),
            r.black.clone(),
            r.black_id.clone().unwrap_or_default(),
            r.black_team.clone().unwrap_or_default(),
            r.result.clone(),
            r.reason.clone(),
            r.reason_zh.clone(),
            opt(r.red_points),
            opt(r.black_points),
            r.moves.to_string(),
            r.plies.to_string(),
            clock_text(r.red_time_ms, ClockForm::Long),
            clock_text(r.black_time_ms, ClockForm::Long),
            r.red_fouls.to_string(),
            r.black_fouls.to_string(),
            r.red_violations.to_string(),
            r.black_violations.to_string(),
            r.detail.clone(),
        ];
        if lang.is_some() {
            fields.insert(REASON_TEXT_AT, r.reason_text.clone().unwrap_or_default());
        }
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&line.join(","));
        out.push_str("\r\n");
    }
    out
}

/// The JSON document of a round's results.
#[derive(Debug, Serialize)]
pub struct ResultsDoc<'a> {
    /// Tournament name.
    pub tournament: &'a str,
    /// Round.
    pub round: u32,
    /// The language of the `reason_text` keys (only when it has one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<&'static str>,
    /// The rows.
    pub results: &'a [ResultRow],
}

/// The results as pretty JSON (with `lang`: its tag and each row's
/// `reason_text`, from [`rows_in`]).
pub fn to_json(tournament: &str, round: u32, rows: &[ResultRow], lang: Option<Lang>) -> String {
    let doc = ResultsDoc {
        tournament,
        round,
        lang: lang.map(Lang::tag),
        results: rows,
    };
    // Serialising plain strings and numbers cannot fail.
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_text_is_a_column_only_with_a_language() {
        assert_eq!(CSV_HEADER[REASON_TEXT_AT - 1], "reason_zh");
        let plain = to_csv(&[], None);
        assert_eq!(plain, CSV_HEADER.join(",") + "\r\n");
        let vi = to_csv(&[], Some(Lang::Vi));
        assert!(vi.contains("reason_zh,reason_text,red_points"), "{vi}");
        assert!(!to_json("t", 1, &[], None).contains("lang"));
        assert!(to_json("t", 1, &[], Some(Lang::Vi)).contains("\"lang\": \"vi\""));
    }

    #[test]
    fn csv_quoting() {
        assert_eq!(csv_field("王天一"), "王天一");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_field(" pad"), "\" pad\"");
    }
}
