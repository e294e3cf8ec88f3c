//! The JSON-lines adjudication engine behind `caipan adjudicate` (pure: one
//! input line in, one output line out).
//!
//! Input: `{"fen": FEN, "moves": [ICCS, ...], "claim": {"type": "natural_limit",
//! "by": "red"|"black"} (optional), "rules": "axf"|"roc"|"cxa" (optional)}`.
//! `fen` may be omitted (the start position). Moves are ICCS with ranks 0-9.
//!
//! Output: `{"verdict": "red_loses"|"black_loses"|"draw"|"none"|"false_claim"|"error",
//! "must_change": "red"|"black"|null, "red": PATTERN|null, "black": PATTERN|null,
//! "rules": [ids], "explanation_zh", "explanation_en", "arbiter": {"zh","en"}|null,
//! "cycle": {"start_ply", "plies", "occurrences"}|null, "error": MESSAGE|null}`.
//!
//! Precedence (issue 3): an illegal move or a bad FEN (including one where the
//! side not to move is in check) gives `error`; checkmate or stalemate at the
//! end gives the loser (AXF-G2); a claim is judged at the end of the moves
//! (`draw` if it holds, `false_claim` if not; the FEN's halfmove field starts
//! the count); if the final position has occurred three times or more, the
//! verdict is the ruling on the cycle between its last two occurrences, if
//! neither side changes; otherwise `none`.
//!
//! PATTERN: `{"kind": K, "forbidden": bool, "moves": [move kinds in order],
//! "attackers": [squares], "targets": [squares]}` — kinds are documented in
//! `pattern.rs`; move kinds are check, chase, mate_threat, material_threat,
//! exchange, offer, block, idle.

use crate::limit::{judge_claim, LimitCounter, PlyFact};
use crate::names::{side_en, side_zh};
use crate::pattern::SidePattern;
use crate::repetition::judge_replayed;
use crate::rule_id::RuleId;
use crate::ruleset::RuleSet;
use crate::ruling::Ruling;
use serde_json::{json, Map, Value};
use xiangqi::{parse_iccs, Color, EndReason, Move, Outcome, Position};

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The JSON PATTERN of one side.
pub fn pattern_json(p: &SidePattern) -> Value {
    let mut m = Map::new();
    m.insert("kind".into(), json!(p.kind.name()));
    m.insert("forbidden".into(), json!(p.forbidden));
    let moves: Vec<&str> = p.moves.iter().map(|k| k.name()).collect();
    m.insert("moves".into(), json!(moves));
    if !p.targets.is_empty() {
        let a: Vec<String> = p.attackers.iter().map(|s| s.to_string()).collect();
        let t: Vec<String> = p.targets.iter().map(|s| s.to_string()).collect();
        m.insert("attackers".into(), json!(a));
        m.insert("targets".into(), json!(t));
    }
    Value::Object(m)
}

fn base() -> Map<String, Value> {
    let mut m = Map::new();
    for k in [
        "verdict",
        "must_change",
        "red",
        "black",
        "explanation_zh",
        "explanation_en",
        "arbiter",
        "cycle",
        "error",
    ] {
        m.insert(k.into(), Value::Null);
    }
    m.insert("rules".into(), json!([]));
    m
}

fn error_line(msg: &str) -> String {
    let mut m = base();
    m.insert("verdict".into(), json!("error"));
    m.insert("error".into(), json!(msg));
    Value::Object(m).to_string()
}

fn rules_json(rules: &[RuleId]) -> Value {
    json!(rules.iter().map(|r| r.as_str()).collect::<Vec<_>>())
}

/// The JSON object of a repetition ruling (verdict = the ruling's).
pub fn ruling_json(r: &Ruling) -> Value {
    let mut m = base();
    m.insert("verdict".into(), json!(r.verdict.name()));
    m.insert(
        "must_change".into(),
        r.must_change
            .map(|c| json!(color_name(c)))
            .unwrap_or(Value::Null),
    );
    m.insert("red".into(), pattern_json(&r.red));
    m.insert("black".into(), pattern_json(&r.black));
    m.insert("rules".into(), rules_json(&r.rules));
    m.insert("explanation_zh".into(), json!(r.explanation_zh));
    m.insert("explanation_en".into(), json!(r.explanation_en));
    if let Some((zh, en)) = &r.arbiter {
        m.insert("arbiter".into(), json!({"zh": zh, "en": en}));
    }
    m.insert(
        "cycle".into(),
        json!({"start_ply": r.cycle.start, "plies": r.cycle.len(), "occurrences": r.cycle.occurrences}),
    );
    Value::Object(m)
}

/// A parsed input line.
struct Request {
    start: Position,
    moves: Vec<Move>,
    claim: Option<Color>,
    set: RuleSet,
}

/// The usual shape of an input line, read without building a JSON tree.
/// Anything else (wrong types, repeated keys, ...) goes the general way of
/// [`parse_request`], which also words the errors.
#[derive(serde::Deserialize)]
struct Plain<'a> {
    #[serde(borrow, default)]
    fen: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    moves: Option<Vec<std::borrow::Cow<'a, str>>>,
    #[serde(borrow, default)]
    rules: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    claim: Option<Value>,
}

/// [`parse_request`] for a [`Plain`] line; `None` when it does not apply.
fn parse_plain(line: &str) -> Option<Result<Request, String>> {
    // A struct would also be read from a JSON array: objects only.
    if !line.trim_start().starts_with('{') {
        return None;
    }
    let p: Plain = serde_json::from_str(line).ok()?;
    if p.claim.is_some() {
        return None;
    }
    let start = match p.fen.as_deref() {
        None => Position::new(),
        Some(f) => match Position::from_fen(f) {
            Ok(pos) => pos,
            Err(e) => return Some(Err(format!("bad FEN: {e}"))),
        },
    };
    let texts = p.moves.unwrap_or_default();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        match parse_iccs(text) {
            Ok(m) => moves.push(m),
            Err(e) => return Some(Err(format!("move {} {text:?}: {e}", i + 1))),
        }
    }
    let set = match p.rules.as_deref() {
        None => RuleSet::Axf,
        Some(s) => match RuleSet::from_name(s) {
            Ok(set) => set,
            Err(e) => return Some(Err(e.to_string())),
        },
    };
    Some(Ok(Request {
        start,
        moves,
        claim: None,
        set,
    }))
}

fn parse_request(line: &str) -> Result<Request, String> {
    if let Some(r) = parse_plain(line) {
        return r;
    }
    let v: Value = serde_json::from_str(line).map_err(|e| format!("malformed JSON: {e}"))?;
    let obj = v.as_object().ok_or("the input line is not a JSON object")?;
    parse_general(obj)
}

/// The request in a JSON object, any shape (errors worded for the user).
fn parse_general(obj: &Map<String, Value>) -> Result<Request, String> {
    let start = match obj.get("fen") {
        None | Some(Value::Null) => Position::new(),
        Some(Value::String(f)) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
        Some(_) => return Err("\"fen\" must be a string".into()),
    };
    let moves = match obj.get("moves") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => {
            let mut out = Vec::with_capacity(a.len());
            for (i, m) in a.iter().enumerate() {
                let text = m
                    .as_str()
                    .ok_or_else(|| format!("move {} is not a string", i + 1))?;
                out.push(parse_iccs(text).map_err(|e| format!("move {} {text:?}: {e}", i + 1))?);
            }
            out
        }
        Some(_) => return Err("\"moves\" must be an array of ICCS strings".into()),
    };
    let set = match obj.get("rules") {
        None | Some(Value::Null) => RuleSet::Axf,
        Some(Value::String(s)) => RuleSet::from_name(s).map_err(|e| e.to_string())?,
        Some(_) => return Err("\"rules\" must be \"axf\", \"roc\" or \"cxa\"".into()),
    };
    let claim = match obj.get("claim") {
        None | Some(Value::Null) => None,
        Some(Value::Object(c)) => {
            match c.get("type").and_then(Value::as_str) {
                Some("natural_limit") => {}
                Some(t) => {
                    return Err(format!(
                        "unknown claim type {t:?} (expected \"natural_limit\")"
                    ))
                }
                None => return Err("claim without \"type\"".into()),
            }
            match c.get("by").and_then(Value::as_str) {
                Some("red") => Some(Color::Red),
                Some("black") => Some(Color::Black),
                _ => return Err("claim \"by\" must be \"red\" or \"black\"".into()),
            }
        }
        Some(_) => return Err("\"claim\" must be an object".into()),
    };
    Ok(Request {
        start,
        moves,
        claim,
        set,
    })
}

/// Adjudicates one JSON input line; returns one JSON output line (no newline).
pub fn adjudicate_line(line: &str) -> String {
    let req = match parse_request(line) {
        Ok(r) => r,
        Err(e) => return error_line(&e),
    };
    // Replay with the checks and captures the natural limit needs.
    let mut pos = req.start.clone();
    let mut counter = LimitCounter::starting_at(req.start.halfmove_clock());
    let mut hashes = Vec::with_capacity(req.moves.len() + 1);
    hashes.push(pos.zobrist());
    let mut last_capture = 0;
    for (i, &mv) in req.moves.iter().enumerate() {
        let by = pos.turn();
        match pos.play(mv) {
            Ok(captured) => {
                if captured.is_some() {
                    last_capture = i + 1;
                }
                hashes.push(pos.zobrist());
                counter.record(PlyFact {
                    by,
                    capture: captured.is_some(),
                    check: pos.is_check(),
                })
            }
            Err(e) => return error_line(&format!("illegal move {} {}: {e}", i + 1, mv)),
        }
    }
    // Checkmate or stalemate at the end: the side to move loses (AXF-G2).
    if let Some(Outcome::Win { winner, reason }) = pos.outcome() {
        let loser = winner.other();
        let mut m = base();
        m.insert(
            "verdict".into(),
            json!(if loser == Color::Red {
                "red_loses"
            } else {
                "black_loses"
            }),
        );
        let (zh, en) = match reason {
            EndReason::Checkmate => ("被将死", "is checkmated"),
            _ => ("被困毙（无着可走）", "is stalemated (no legal move)"),
        };
        m.insert("rules".into(), rules_json(&[RuleId::AXF_G2]));
        m.insert(
            "explanation_zh".into(),
            json!(format!("{}{zh}，判负（AXF-G2）。", side_zh(loser))),
        );
        m.insert(
            "explanation_en".into(),
            json!(format!("{} {en} and loses (AXF-G2).", side_en(loser))),
        );
        return Value::Object(m).to_string();
    }
    if let Some(claimant) = req.claim {
        let params = req.set.params();
        let v = judge_claim(&counter, claimant, &params, false);
        let mut m = base();
        m.insert(
            "verdict".into(),
            json!(if v.holds { "draw" } else { "false_claim" }),
        );
        m.insert("rules".into(), rules_json(&v.rule_ids));
        m.insert("explanation_zh".into(), json!(v.explanation_zh));
        m.insert("explanation_en".into(), json!(v.explanation_en));
        return Value::Object(m).to_string();
    }
    match judge_replayed(&req.start, &req.moves, &hashes, last_capture, req.set) {
        Some(r) => ruling_json(&r).to_string(),
        None => {
            let mut m = base();
            m.insert("verdict".into(), json!("none"));
            m.insert(
                "explanation_zh".into(),
                json!("终局未出现第三次重复局面，无须判决。"),
            );
            m.insert(
                "explanation_en".into(),
                json!("The final position has not occurred three times: nothing to rule."),
            );
            Value::Object(m).to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines read by the plain path give the same output as the general path.
    #[test]
    fn plain_and_general_parsing_agree() {
        let lines = [
            r#"{"moves": ["h2e2", "h9g7", "h0g2", "i9h9"]}"#,
            r#"{"fen": null, "moves": null, "rules": null, "claim": null}"#,
            r#"{"fen": "4k4/9/9/9/9/9/9/9/9/4K4 w", "moves": [], "rules": "cxa", "extra": 1}"#,
            r#"{"fen": "bad", "moves": ["zz"]}"#,
            r#"{"moves": ["h2e2", "zz"]}"#,
            r#"{"moves": [], "rules": "nope"}"#,
            r#"{"fen": 3}"#,
            r#"{"moves": [1]}"#,
            r#"[]"#,
            r#"[null, null]"#,
            r#"{"moves": ["h2e2"], "moves": []}"#,
        ];
        let mut plain_lines = 0;
        for line in lines {
            let Some(plain) = parse_plain(line) else {
                continue;
            };
            plain_lines += 1;
            let v: Value = serde_json::from_str(line).unwrap();
            let obj = v.as_object().unwrap();
            let reference = parse_general(obj);
            match (plain, reference) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.start, b.start, "{line}");
                    assert_eq!(a.moves, b.moves, "{line}");
                    assert_eq!(a.set, b.set, "{line}");
                    assert_eq!(a.claim, b.claim, "{line}");
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{line}"),
                (a, b) => panic!("{line}: {:?} vs {:?}", a.is_ok(), b.is_ok()),
            }
        }
        assert_eq!(plain_lines, 6);
        assert!(parse_plain("[]").is_none());
        assert!(parse_plain(r#"{"moves": [1]}"#).is_none());
    }
}
