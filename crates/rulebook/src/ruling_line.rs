//! The output line of `caipan adjudicate` for a repetition ruling, written
//! straight from the [`Ruling`] through typed fields instead of a
//! `serde_json::Value` tree (the common case of `adjudicate_line`, where that
//! tree and its map of string keys cost more than the ruling's own JSON).
//! The bytes are those of `adjudicate::ruling_fields` with `order` and
//! `procedure` set, serialized by `Value::to_string`: the same keys in the
//! same (sorted) order, the same escaping (one serializer); the test below
//! and the golden file (tests/data/golden/adjudicate.txt) compare them.

use crate::pattern::SidePattern;
use crate::procedure::Procedure;
use crate::ruling::Ruling;
use serde::Serialize;
use xiangqi::Color;

/// A ruling's line; fields in the key order of a JSON object map.
#[derive(Serialize)]
struct Line<'a> {
    arbiter: Option<Arbiter<'a>>,
    black: Pattern,
    cycle: CycleOut,
    error: Option<&'a str>,
    explanation_en: &'a str,
    explanation_zh: &'a str,
    must_change: Option<&'static str>,
    order: &'a serde_json::Value,
    procedure: Option<&'static str>,
    red: Pattern,
    rules: Vec<&'static str>,
    verdict: &'static str,
}

#[derive(Serialize)]
struct Arbiter<'a> {
    en: &'a str,
    zh: &'a str,
}

#[derive(Serialize)]
struct CycleOut {
    occurrences: usize,
    plies: usize,
    start_ply: usize,
}

/// A side's PATTERN (`adjudicate::pattern_json`).
#[derive(Serialize)]
struct Pattern {
    #[serde(skip_serializing_if = "Option::is_none")]
    attackers: Option<Vec<String>>,
    forbidden: bool,
    kind: &'static str,
    moves: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    targets: Option<Vec<String>>,
}

fn pattern(p: &SidePattern) -> Pattern {
    let squares = |v: &[xiangqi::Square]| v.iter().map(|s| s.to_string()).collect();
    let shown = !p.targets.is_empty();
    Pattern {
        attackers: shown.then(|| squares(&p.attackers)),
        forbidden: p.forbidden,
        kind: p.kind.name(),
        moves: p.moves.iter().map(|k| k.name()).collect(),
        targets: shown.then(|| squares(&p.targets)),
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The output line of ruling `r` with `order` (a JSON value, usually null)
/// and `procedure`.
pub fn ruling_line(r: &Ruling, order: &serde_json::Value, procedure: Option<Procedure>) -> String {
    let line = Line {
        arbiter: r.arbiter.as_ref().map(|(zh, en)| Arbiter { en, zh }),
        black: pattern(&r.black),
        cycle: CycleOut {
            occurrences: r.cycle.occurrences,
            plies: r.cycle.len(),
            start_ply: r.cycle.start,
        },
        error: None,
        explanation_en: &r.explanation_en,
        explanation_zh: &r.explanation_zh,
        must_change: r.must_change.map(color_name),
        order,
        procedure: procedure.map(Procedure::name),
        red: pattern(&r.red),
        rules: r.rules.iter().map(|id| id.as_str()).collect(),
        verdict: r.verdict.name(),
    };
    // Serializing plain strings, numbers and vectors cannot fail.
    serde_json::to_string(&line).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjudicate::ruling_json;
    use crate::repetition::judge_game;
    use crate::RuleSet;
    use xiangqi::{parse_iccs, Position};

    /// Every ruling of the three catalogues: the same bytes as the `Value` form,
    /// with a null order and with an order object.
    #[test]
    fn same_bytes_as_the_value_form() {
        let catalogues = [
            (RuleSet::Axf, include_str!("../tests/catalogue/axf.jsonl")),
            (RuleSet::Roc, include_str!("../tests/catalogue/roc.jsonl")),
            (RuleSet::Cxa, include_str!("../tests/catalogue/cxa.jsonl")),
        ];
        let order =
            serde_json::json!({"at_ply": 3, "side": "red", "status": "standing", "ply": null});
        let (mut n, mut arbiter) = (0, 0);
        for (set, text) in catalogues {
            for l in text.lines().filter(|l| !l.trim().is_empty()) {
                let case: serde_json::Value = serde_json::from_str(l).unwrap();
                let start = match case["fen"].as_str() {
                    Some(f) => Position::from_fen(f).unwrap(),
                    None => Position::new(),
                };
                let moves: Vec<_> = case["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| parse_iccs(m.as_str().unwrap()).unwrap())
                    .collect();
                let Ok(Some(mut r)) = judge_game(&start, &moves, set) else {
                    continue;
                };
                if n % 2 == 1 {
                    // A referral, with characters that need escaping.
                    r.arbiter = Some(("裁判\"判断\"\n".into(), format!("judge {n}\t\\ \u{1}")));
                }
                let p = Procedure::at_third_occurrence(&r);
                let mut v = ruling_json(&r);
                assert_eq!(
                    ruling_line(&r, &serde_json::Value::Null, Some(p)),
                    v.to_string()
                );
                v["order"] = order.clone();
                v["procedure"] = serde_json::Value::Null;
                assert_eq!(ruling_line(&r, &order, None), v.to_string());
                n += 1;
                arbiter += r.arbiter.is_some() as usize;
            }
        }
        assert!(n > 50 && arbiter > 20, "{n} rulings, {arbiter} referred");
    }
}
