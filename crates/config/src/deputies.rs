//! Deputies across rounds (副裁判的分台): how a deputy's tables are given in
//! the config and what they are in a round published later.
//!
//! A deputy's tables are table numbers, set once in the config, in one of
//! two forms:
//!
//! - a list, `tables = [1, 2, 3]`: *the same tables as before* — every
//!   number must be a table of the config's round, and the deputy keeps
//!   those numbers in every round, whoever plays there;
//! - ranges, `tables = "1-20"` or `"1-10, 15, 31-40"`: the deputy covers
//!   those table numbers in every round; numbers of the range the round
//!   does not use are simply not played (at least one must be a table of
//!   the config's round, so that a typo is not a deputy without tables).
//!
//! With `[credentials] deputies_cover_all_tables = true` every table of a
//! round must have a deputy: checked when the config loads (for its round)
//! and again when a round is published ([`check`], refused then). A deputy
//! left without a table of a new round (fewer boards after a withdrawal) is
//! reported in the preview and the log, never refused: the round can be
//! played, the deputy stands by.

use std::collections::BTreeSet;
use std::fmt;

use proto::Message;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use crate::Credentials;

/// The largest table number: the wire's u16 (as the validation's).
const MAX_TABLE: u32 = u16::MAX as u32;

/// How a deputy's tables were given in the config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assignment {
    /// A list of table numbers of the config's round: the same tables in
    /// every round.
    Same,
    /// Table ranges as written (e.g. `1-20`): those numbers in every round.
    Ranges(String),
}

/// `tables` of a `[[credentials.deputy]]` as written: a list of numbers
/// or a string of ranges.
#[derive(Debug, Clone)]
pub(crate) enum RawTables {
    /// `tables = [1, 2, 3]`.
    List(Vec<u32>),
    /// `tables = "1-20"`.
    Ranges(String),
}

impl<'de> Deserialize<'de> for RawTables {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawTables;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of table numbers ([1, 2, 3]) or table ranges (\"1-20\")")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawTables, E> {
                Ok(RawTables::Ranges(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawTables, A::Error> {
                let mut out = Vec::new();
                while let Some(t) = seq.next_element::<u32>()? {
                    out.push(t);
                }
                Ok(RawTables::List(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// Parses table ranges: `1-20`, `1-10, 15, 31-40` (numbers 1..=65535, each
/// range from low to high, no number twice). The error names the part
/// (a `config-*` catalogue message).
pub fn parse_ranges(text: &str) -> Result<BTreeSet<u32>, Message> {
    let mut out = BTreeSet::new();
    let number = |s: &str| -> Result<u32, Message> {
        match s.trim().parse::<u32>() {
            Ok(n) if (1..=MAX_TABLE).contains(&n) => Ok(n),
            Ok(n) => Err(Message::new("config-table-out-of-range")
                .int("table", n)
                .int("max", MAX_TABLE)),
            Err(_) => Err(Message::new("config-not-a-table-number").verbatim("value", s.trim())),
        }
    };
    for part in text.split(',').map(str::trim) {
        if part.is_empty() {
            return Err(Message::new("config-ranges-empty-part").verbatim("ranges", text));
        }
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(part)?;
                (n, n)
            }
        };
        if a > b {
            return Err(Message::new("config-range-backwards")
                .verbatim("range", part)
                .int("low", b)
                .int("high", a));
        }
        for t in a..=b {
            if !out.insert(t) {
                return Err(Message::new("config-ranges-table-twice")
                    .int("table", t)
                    .verbatim("ranges", text));
            }
        }
    }
    Ok(out)
}

/// Table numbers in short: `1-4, 7, 9-10`.
pub fn describe(tables: impl IntoIterator<Item = u32>) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for t in tables {
        match runs.last_mut() {
            Some((_, b)) if t == *b + 1 => *b = t,
            _ => runs.push((t, t)),
        }
    }
    runs.iter()
        .map(|&(a, b)| match a == b {
            true => a.to_string(),
            false => format!("{a}-{b}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The deputies' tables in one round.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundDeputies {
    /// Each deputy's name and its tables in the round (empty: none).
    pub tables: Vec<(String, Vec<u32>)>,
    /// Tables of the round no deputy covers.
    pub uncovered: Vec<u32>,
    /// Whether the config asks for every table to have a deputy.
    pub cover_all: bool,
}

impl RoundDeputies {
    /// The deputies without a table of the round.
    pub fn idle(&self) -> impl Iterator<Item = &str> {
        self.tables
            .iter()
            .filter(|(_, t)| t.is_empty())
            .map(|(n, _)| n.as_str())
    }

    /// Why the round cannot be played with these deputies: tables without
    /// a deputy when the config asks for full coverage.
    pub fn refusal(&self, round: u32) -> Option<Message> {
        (self.cover_all && !self.uncovered.is_empty()).then(|| {
            Message::new("config-tables-without-deputy")
                .int("round", round)
                .verbatim("tables", describe(self.uncovered.iter().copied()))
        })
    }
}

/// The deputies' tables in a round played on `round_tables`.
pub fn check(credentials: &Credentials, round_tables: &BTreeSet<u32>) -> RoundDeputies {
    let tables: Vec<(String, Vec<u32>)> = credentials
        .deputies
        .iter()
        .map(|d| {
            let mine = d.tables.intersection(round_tables).copied().collect();
            (d.name.clone(), mine)
        })
        .collect();
    let uncovered = match credentials.deputies.is_empty() {
        // No deputies at all: the chief referees every table.
        true if !credentials.deputies_cover_all_tables => Vec::new(),
        _ => round_tables
            .iter()
            .filter(|t| !credentials.deputies.iter().any(|d| d.tables.contains(t)))
            .copied()
            .collect(),
    };
    RoundDeputies {
        tables,
        uncovered,
        cover_all: credentials.deputies_cover_all_tables,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_and_bad_ones_are_named() {
        let parse_ranges = |t: &str| parse_ranges(t).map_err(|m| i18n::texts::english(&m));
        let t = parse_ranges("1-3, 7 ,10-11").unwrap();
        assert_eq!(t.into_iter().collect::<Vec<_>>(), vec![1, 2, 3, 7, 10, 11]);
        assert_eq!(describe([1, 2, 3, 7, 10, 11]), "1-3, 7, 10-11");
        assert!(parse_ranges("5-2").unwrap_err().contains("runs backwards"));
        assert!(parse_ranges("1-4, 3")
            .unwrap_err()
            .contains("table 3 is given twice"));
        assert!(parse_ranges("0-4").unwrap_err().contains("out of range"));
        assert!(parse_ranges("1-70000").unwrap_err().contains("70000"));
        assert!(parse_ranges("a-4").unwrap_err().contains("\"a\""));
        assert!(parse_ranges("").unwrap_err().contains("empty part"));
        assert!(parse_ranges("1,,2").unwrap_err().contains("empty part"));
    }
}
