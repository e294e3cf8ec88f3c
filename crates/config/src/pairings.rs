//! Pairings import (编排导入): a CSV file with the columns
//! `round,table,red,black` and optionally `red_team,black_team,red_id,
//! black_id` (a header line names them, in any order) becomes `[[round]]`
//! blocks of the hall config.
//!
//! [`parse_csv_bytes`] detects the file's encoding (UTF-8 with or without a
//! byte-order mark, or GB18030/GBK) and hands the text to [`parse_csv`].
//! [`parse_csv`] checks every row and reports every problem with its line
//! and column: a round or table that is not a positive number, an empty
//! name, a table given twice in a round, a player twice in a round (or
//! against themself). [`to_toml`] prints the rounds as TOML;
//! [`update_config`] rewrites the rounds in a config text in place (other
//! rounds, keys and comments are kept; a round's `date` and `start` stay)
//! and the caller validates the result with `HallConfig` before saving.

use std::collections::BTreeMap;

use crate::Pairing;

/// One problem in the CSV: 1-based line, the column, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvProblem {
    /// Line number (1-based; the header is line 1).
    pub line: usize,
    /// Column name (or `-` for a whole-line problem).
    pub column: String,
    /// What is wrong.
    pub problem: String,
}

impl std::fmt::Display for CsvProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.problem
        )
    }
}

/// Why an import failed.
#[derive(Debug, thiserror::Error)]
pub enum PairingsError {
    /// Problems in the CSV (all of them).
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Csv(Vec<CsvProblem>),
    /// The config text could not be edited.
    #[error("hall config: {0}")]
    Config(String),
}

/// Splits CSV text into records of fields (RFC 4180: quoted fields may hold
/// commas, doubled quotes and line breaks). Returns each record with its
/// starting line number.
pub fn split_csv(text: &str) -> Result<Vec<(usize, Vec<String>)>, CsvProblem> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    let mut line = 1usize;
    let mut start_line = 1usize;
    let mut quoted_field = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                '\n' => {
                    line += 1;
                    field.push('\n');
                }
                c => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() && !quoted_field => {
                in_quotes = true;
                quoted_field = true;
            }
            '"' => {
                return Err(CsvProblem {
                    line,
                    column: (fields.len() + 1).to_string(),
                    problem: "a quote inside an unquoted field (quote the whole field)".into(),
                })
            }
            ',' => {
                fields.push(std::mem::take(&mut field));
                quoted_field = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                fields.push(std::mem::take(&mut field));
                quoted_field = false;
                let rec = std::mem::take(&mut fields);
                if !(rec.len() == 1 && rec[0].trim().is_empty()) {
                    out.push((start_line, rec));
                }
                line += 1;
                start_line = line;
            }
            c => {
                if quoted_field {
                    if c.is_whitespace() {
                        continue;
                    }
                    return Err(CsvProblem {
                        line,
                        column: (fields.len() + 1).to_string(),
                        problem: "text after a closing quote".into(),
                    });
                }
                field.push(c)
            }
        }
    }
    if in_quotes {
        return Err(CsvProblem {
            line: start_line,
            column: (fields.len() + 1).to_string(),
            problem: "a quoted field is not closed".into(),
        });
    }
    if !field.is_empty() || !fields.is_empty() {
        fields.push(field);
        if !(fields.len() == 1 && fields[0].trim().is_empty()) {
            out.push((start_line, fields));
        }
    }
    Ok(out)
}

/// [`parse_csv`] of a file's bytes: UTF-8 (with or without a byte-order
/// mark) or GB18030/GBK (what Excel on Chinese Windows saves), detected by
/// `xiangqi::encoding`.
pub fn parse_csv_bytes(
    bytes: &[u8],
    only_round: Option<u32>,
) -> Result<BTreeMap<u32, Vec<Pairing>>, PairingsError> {
    let decoded = xiangqi::encoding::decode(bytes).map_err(|e| {
        PairingsError::Csv(vec![CsvProblem {
            line: e.line,
            column: "-".into(),
            problem: format!("byte {}: neither UTF-8 nor GB18030/GBK text", e.byte),
        }])
    })?;
    parse_csv(&decoded.text, only_round)
}

const REQUIRED: [&str; 4] = ["round", "table", "red", "black"];
const OPTIONAL: [&str; 4] = ["red_team", "black_team", "red_id", "black_id"];

/// Parses and checks a pairings CSV. With `only_round`, rows of other
/// rounds are skipped (and at least one row of that round must be there).
/// Returns the pairings of each round, by round number, in file order.
pub fn parse_csv(
    text: &str,
    only_round: Option<u32>,
) -> Result<BTreeMap<u32, Vec<Pairing>>, PairingsError> {
    let one = |line, column: &str, problem: String| {
        PairingsError::Csv(vec![CsvProblem {
            line,
            column: column.into(),
            problem,
        }])
    };
    let records = split_csv(text).map_err(|p| PairingsError::Csv(vec![p]))?;
    let Some(((_, header), rows)) = records.split_first() else {
        return Err(one(
            1,
            "-",
            "empty file: expected a header line round,table,red,black".into(),
        ));
    };
    let header: Vec<String> = header.iter().map(|h| h.trim().to_lowercase()).collect();
    let col = header_columns(&header).map_err(PairingsError::Csv)?;
    let mut problems = Vec::new();
    let mut rounds: BTreeMap<u32, Vec<Pairing>> = BTreeMap::new();
    let mut seen = Seen::default();
    for (line, fields) in rows {
        let line = *line;
        if fields.len() != header.len() {
            problems.push(CsvProblem {
                line,
                column: "-".into(),
                problem: format!("{} fields, the header has {}", fields.len(), header.len()),
            });
            continue;
        }
        let get = |name: &str| col.get(name).map(|&i| fields[i].trim().to_string());
        let number = |name: &str, problems: &mut Vec<CsvProblem>| -> Option<u32> {
            let v = get(name).unwrap_or_default();
            match v.parse::<u32>() {
                Ok(n) if n >= 1 => Some(n),
                _ => {
                    problems.push(CsvProblem {
                        line,
                        column: name.into(),
                        problem: format!("{v:?} is not a positive whole number"),
                    });
                    None
                }
            }
        };
        let round = number("round", &mut problems);
        let table = number("table", &mut problems);
        if let (Some(r), Some(want)) = (round, only_round) {
            if r != want {
                continue;
            }
        }
        let opt = |name: &str| get(name).filter(|v| !v.is_empty());
        let red = get("red").unwrap_or_default();
        let black = get("black").unwrap_or_default();
        for (name, v) in [("red", &red), ("black", &black)] {
            if v.is_empty() {
                problems.push(CsvProblem {
                    line,
                    column: name.into(),
                    problem: "empty player name".into(),
                });
            }
        }
        let (Some(round), Some(table)) = (round, table) else {
            continue;
        };
        seen.check(line, round, table, &red, &black, &mut problems);
        rounds.entry(round).or_default().push(Pairing {
            table,
            red,
            black,
            red_team: opt("red_team"),
            black_team: opt("black_team"),
            red_id: opt("red_id"),
            black_id: opt("black_id"),
        });
    }
    if let Some(r) = only_round {
        if problems.is_empty() && !rounds.contains_key(&r) {
            problems.push(CsvProblem {
                line: 1,
                column: "round".into(),
                problem: format!("no row of round {r}"),
            });
        }
    }
    if !problems.is_empty() {
        problems.sort_by_key(|p| p.line);
        return Err(PairingsError::Csv(problems));
    }
    Ok(rounds)
}

/// The column of each known header name; every unknown, doubled or
/// missing required column is a problem.
fn header_columns(header: &[String]) -> Result<BTreeMap<&'static str, usize>, Vec<CsvProblem>> {
    let mut problems = Vec::new();
    let mut col: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (i, h) in header.iter().enumerate() {
        match REQUIRED.iter().chain(OPTIONAL.iter()).find(|n| *n == h) {
            Some(n) => {
                if col.insert(n, i).is_some() {
                    problems.push(CsvProblem {
                        line: 1,
                        column: h.clone(),
                        problem: "column given twice".into(),
                    });
                }
            }
            None => problems.push(CsvProblem {
                line: 1,
                column: if h.is_empty() {
                    (i + 1).to_string()
                } else {
                    h.clone()
                },
                problem: format!(
                    "unknown column (expected {} and optionally {})",
                    REQUIRED.join(","),
                    OPTIONAL.join(",")
                ),
            }),
        }
    }
    for r in REQUIRED {
        if !col.contains_key(r) {
            problems.push(CsvProblem {
                line: 1,
                column: r.into(),
                problem: "required column missing from the header".into(),
            });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(col)
}

/// The rows read so far: (round, table) -> line; (round, player) -> line.
#[derive(Default)]
struct Seen {
    tables: BTreeMap<(u32, u32), usize>,
    players: BTreeMap<(u32, String), usize>,
}

impl Seen {
    /// A table twice in a round, a player against themself or twice in a
    /// round: a problem each.
    fn check(
        &mut self,
        line: usize,
        round: u32,
        table: u32,
        red: &str,
        black: &str,
        problems: &mut Vec<CsvProblem>,
    ) {
        if let Some(first) = self.tables.insert((round, table), line) {
            problems.push(CsvProblem {
                line,
                column: "table".into(),
                problem: format!("table {table} of round {round} is also on line {first}"),
            });
        }
        if !red.is_empty() && red == black {
            problems.push(CsvProblem {
                line,
                column: "black".into(),
                problem: format!("{red} cannot play against themself"),
            });
        } else {
            for (name, v) in [("red", &red), ("black", &black)] {
                if v.is_empty() {
                    continue;
                }
                if let Some(first) = self.players.insert((round, v.to_string()), line) {
                    problems.push(CsvProblem {
                        line,
                        column: name.into(),
                        problem: format!("{v} already plays in round {round} (line {first})"),
                    });
                }
            }
        }
    }
}

fn table_item(p: &Pairing) -> toml_edit::Table {
    let mut t = toml_edit::Table::new();
    t.insert("table", toml_edit::value(i64::from(p.table)));
    t.insert("red", toml_edit::value(p.red.clone()));
    t.insert("black", toml_edit::value(p.black.clone()));
    for (k, v) in [
        ("red_team", &p.red_team),
        ("black_team", &p.black_team),
        ("red_id", &p.red_id),
        ("black_id", &p.black_id),
    ] {
        if let Some(v) = v {
            t.insert(k, toml_edit::value(v.clone()));
        }
    }
    t
}

fn round_tables(pairings: &[Pairing]) -> toml_edit::ArrayOfTables {
    let mut arr = toml_edit::ArrayOfTables::new();
    for p in pairings {
        arr.push(table_item(p));
    }
    arr
}

/// The rounds as TOML `[[round]]` blocks (to paste into a hall config).
pub fn to_toml(rounds: &BTreeMap<u32, Vec<Pairing>>) -> String {
    let mut doc = toml_edit::DocumentMut::new();
    let mut arr = toml_edit::ArrayOfTables::new();
    for (n, ps) in rounds {
        let mut r = toml_edit::Table::new();
        r.insert("number", toml_edit::value(i64::from(*n)));
        r.insert("table", toml_edit::Item::ArrayOfTables(round_tables(ps)));
        arr.push(r);
    }
    doc.insert("round", toml_edit::Item::ArrayOfTables(arr));
    doc.to_string()
}

/// Replaces (or adds) the pairings of each round in a config text, keeping
/// everything else. Returns the new text (not yet validated).
pub fn update_config(
    config_text: &str,
    rounds: &BTreeMap<u32, Vec<Pairing>>,
) -> Result<String, PairingsError> {
    let mut doc: toml_edit::DocumentMut = config_text
        .parse()
        .map_err(|e| PairingsError::Config(format!("not TOML: {e}")))?;
    if doc.get("round").is_none() {
        doc.insert(
            "round",
            toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()),
        );
    }
    let arr = doc
        .get_mut("round")
        .and_then(|i| i.as_array_of_tables_mut())
        .ok_or_else(|| PairingsError::Config("`round` is not a list of [[round]] tables".into()))?;
    for (n, ps) in rounds {
        let existing = arr.iter_mut().find(|t| {
            t.get("number")
                .and_then(|v| v.as_integer())
                .is_some_and(|v| v == i64::from(*n))
        });
        match existing {
            Some(t) => {
                t.insert("table", toml_edit::Item::ArrayOfTables(round_tables(ps)));
            }
            None => {
                let mut r = toml_edit::Table::new();
                r.insert("number", toml_edit::value(i64::from(*n)));
                r.insert("table", toml_edit::Item::ArrayOfTables(round_tables(ps)));
                arr.push(r);
            }
        }
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_quoted_fields_and_teams() {
        let csv = "round,table,red,black,red_team,black_team\r\n1,1,王天一,\"Lü, Qin\",北京,\"广东 \"\"A\"\"\"\r\n1,2,郑惟桐,许银川,四川,广东\n";
        let r = parse_csv(csv, None).unwrap();
        let ps = &r[&1];
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].black, "Lü, Qin");
        assert_eq!(ps[0].black_team.as_deref(), Some("广东 \"A\""));
        assert_eq!(ps[1].red_team.as_deref(), Some("四川"));
    }

    #[test]
    fn reports_line_and_column() {
        let csv = "round,table,red,black\n1,1,A,B\n1,1,C,D\n1,2,,E\n1,3,A,F\n1,4,G,G\nx,5,H,I\n";
        let PairingsError::Csv(ps) = parse_csv(csv, None).unwrap_err() else {
            panic!()
        };
        let text: Vec<String> = ps.iter().map(ToString::to_string).collect();
        assert!(
            text.contains(
                &"line 3, column table: table 1 of round 1 is also on line 2".to_string()
            ),
            "{text:?}"
        );
        assert!(
            text.contains(&"line 4, column red: empty player name".to_string()),
            "{text:?}"
        );
        assert!(
            text.contains(&"line 5, column red: A already plays in round 1 (line 2)".to_string()),
            "{text:?}"
        );
        assert!(
            text.contains(&"line 6, column black: G cannot play against themself".to_string()),
            "{text:?}"
        );
        assert!(
            text.contains(
                &"line 7, column round: \"x\" is not a positive whole number".to_string()
            ),
            "{text:?}"
        );
    }

    #[test]
    fn header_problems() {
        let PairingsError::Csv(ps) = parse_csv("round,table,red,colour\n", None).unwrap_err()
        else {
            panic!()
        };
        assert!(ps.iter().any(|p| p.column == "colour"));
        assert!(ps.iter().any(|p| p.column == "black"));
        assert!(parse_csv("round,table,red,black\n1,1,\"A,B\n", None).is_err());
    }

    #[test]
    fn round_filter_and_toml() {
        let csv = "round,table,red,black\n1,1,A,B\n2,1,B,A\n";
        let r = parse_csv(csv, Some(2)).unwrap();
        assert_eq!(r.len(), 1);
        let t = to_toml(&r);
        assert!(t.contains("[[round]]\nnumber = 2"), "{t}");
        assert!(
            t.contains("[[round.table]]\ntable = 1\nred = \"B\"\nblack = \"A\""),
            "{t}"
        );
        assert!(parse_csv(csv, Some(3)).is_err());
    }

    #[test]
    fn update_keeps_comments_and_other_rounds() {
        let text = "# top comment\n[tournament]\nname = \"x\"\n\n[[round]]\nnumber = 1\ndate = \"2026-01-01\"\n[[round.table]]\ntable = 1\nred = \"A\"\nblack = \"B\"\n\n[[round]]\nnumber = 2\n";
        let r = parse_csv("round,table,red,black\n1,1,C,D\n3,1,E,F\n", None).unwrap();
        let out = update_config(text, &r).unwrap();
        assert!(out.contains("# top comment"));
        assert!(out.contains("date = \"2026-01-01\""));
        assert!(out.contains("red = \"C\""));
        assert!(!out.contains("red = \"A\""));
        assert!(out.contains("number = 2"));
        assert!(out.contains("number = 3"));
    }
}
