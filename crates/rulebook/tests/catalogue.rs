//! The AXF repetition catalogue: every case of `tests/catalogue/axf.jsonl`
//! (FEN, moves, expected ruling) runs through the JSON-lines adjudication
//! engine, exactly as `caipan adjudicate` would see it.
//!
//! Case fields: `id`, `rule` (the rule the case shows), `also` (other rules it
//! shows), `source` (seed 001 example or own position), `fen`, `moves` (ICCS),
//! `moves_zh` (the seed's own Chinese move text, when the case is a seed
//! example: it must parse, move by move, to exactly `moves`), `note` (the
//! reading of the position), `expected` {verdict, must_change, rules (each
//! must be cited), red / black (pattern kinds, when given)}.

use rulebook::adjudicate_line;
use serde_json::{json, Value};
use xiangqi::{parse_chinese, Position};

fn cases() -> Vec<Value> {
    include_str!("catalogue/axf.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("catalogue line is JSON"))
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_case_rules_as_expected() {
    let mut failures = Vec::new();
    for case in cases() {
        let id = case["id"].as_str().unwrap_or("?").to_string();
        let input = json!({"fen": case["fen"], "moves": case["moves"]});
        let out: Value = serde_json::from_str(&adjudicate_line(&input.to_string())).unwrap();
        let exp = &case["expected"];
        let mut why = Vec::new();
        if out["verdict"] != exp["verdict"] {
            why.push(format!(
                "verdict {} (expected {})",
                out["verdict"], exp["verdict"]
            ));
        }
        if out["must_change"] != exp["must_change"] {
            why.push(format!(
                "must_change {} (expected {})",
                out["must_change"], exp["must_change"]
            ));
        }
        let cited = strings(&out["rules"]);
        for r in strings(&exp["rules"]) {
            if !cited.contains(&r) {
                why.push(format!("{r} not cited (cited {cited:?})"));
            }
        }
        for side in ["red", "black"] {
            if let Some(kind) = exp[side].as_str() {
                if out[side]["kind"] != kind {
                    why.push(format!(
                        "{side} pattern {} (expected {kind})",
                        out[side]["kind"]
                    ));
                }
            }
        }
        if !why.is_empty() {
            failures.push(format!("{id}: {}\n  output: {out}", why.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn seed_examples_use_the_seed_move_text() {
    for case in cases() {
        let zh = strings(&case["moves_zh"]);
        if zh.is_empty() {
            continue;
        }
        let mut pos = Position::from_fen(case["fen"].as_str().unwrap()).unwrap();
        let iccs = strings(&case["moves"]);
        assert_eq!(zh.len(), iccs.len(), "{}", case["id"]);
        for (z, i) in zh.iter().zip(&iccs) {
            let m = parse_chinese(&pos, z).unwrap_or_else(|e| panic!("{}: {z}: {e}", case["id"]));
            assert_eq!(&m.to_string(), i, "{}: {z}", case["id"]);
            pos.play(m).unwrap();
        }
    }
}

#[test]
fn every_case_is_legal_and_ends_in_a_third_occurrence() {
    for case in cases() {
        let mut pos = Position::from_fen(case["fen"].as_str().unwrap()).unwrap();
        let start = pos.zobrist();
        let mut seen = vec![start];
        for m in strings(&case["moves"]) {
            let mv = xiangqi::parse_iccs(&m).unwrap();
            pos.play(mv)
                .unwrap_or_else(|e| panic!("{}: {m}: {e}", case["id"]));
            seen.push(pos.zobrist());
        }
        let last = *seen.last().unwrap();
        assert!(
            seen.iter().filter(|&&h| h == last).count() >= 3,
            "{}",
            case["id"]
        );
    }
}

/// Rules with a catalogue case showing them (in `rule` or `also`, cited by the
/// engine for that case, and not referred to the arbiter — checked by `every_case_rules_as_expected` when
/// listed in `expected.rules`, and here against the output).
#[test]
fn coverage_of_principles_and_detail_rules() {
    let mut covered = std::collections::BTreeSet::new();
    for case in cases() {
        let input = json!({"fen": case["fen"], "moves": case["moves"]});
        let out: Value = serde_json::from_str(&adjudicate_line(&input.to_string())).unwrap();
        // A ruling referred to the arbiter never counts as covering its rules.
        if !out["arbiter"].is_null() {
            continue;
        }
        let cited = strings(&out["rules"]);
        let mut shown = strings(&case["also"]);
        shown.push(case["rule"].as_str().unwrap().to_string());
        for r in shown {
            if cited.contains(&r) {
                covered.insert(r);
            }
        }
    }
    let mut wanted: Vec<String> = (1..=4).map(|n| format!("AXF-P{n}")).collect();
    wanted.extend((1..=10).map(|n| format!("AXF-S{n}")));
    wanted.extend((1..=35).map(|n| format!("AXF-D{n}")));
    let missing: Vec<&String> = wanted.iter().filter(|r| !covered.contains(*r)).collect();
    assert!(missing.is_empty(), "rules without a case: {missing:?}");
}
