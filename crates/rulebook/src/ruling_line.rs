//! The output line of `caipan adjudicate` for a repetition ruling, written
//! straight from the [`Ruling`] into one string instead of through a
//! `serde_json::Value` tree (the common case of `adjudicate_line`, where that
//! tree and its map of string keys cost more than the ruling's own JSON).
//! The bytes are those of `adjudicate::ruling_fields` with `order` and
//! `procedure` set, serialized by `Value::to_string`: the same keys in the
//! same (sorted) order, the same escaping as serde_json's (`"`, `\\`, the
//! short escapes `\b \t \n \f \r`, other control characters as `\u00xx`,
//! everything else as it is); the test below and the golden file
//! (tests/data/golden/adjudicate.txt) compare them.

use crate::names::push_num;
use crate::pattern::SidePattern;
use crate::procedure::Procedure;
use crate::ruling::Ruling;
use xiangqi::{Color, Square};

/// Whether the bytes need an escape: `b < 0x20 || b == b'"' || b == b'\\'`.
fn escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The first byte that needs an escape, eight bytes at a time: a word
/// with no byte below 0x20 and none equal to `"` or `\` (each test exact
/// for the word as a whole) is skipped whole.
fn escape_at(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for w in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        let x = u64::from_le_bytes(word);
        if below(x, 0x20)
            | below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1)
            != 0
        {
            return w.iter().position(|&b| escaped(b)).map(|i| at + i);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| escaped(b))
        .map(|i| at + i)
}

/// Appends `text` as a JSON string, escaped as serde_json does.
fn push_str(out: &mut String, text: &str) {
    out.push('"');
    let mut rest = text;
    // Split at each byte that needs an escape; the others go as they are.
    while let Some(i) = escape_at(rest.as_bytes()) {
        out.push_str(&rest[..i]);
        let b = rest.as_bytes()[i];
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
        // The escaped byte is ASCII: the rest starts on a character boundary.
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    out.push('"');
}

/// Appends `["a", "b", ...]`.
fn push_list<'a>(out: &mut String, items: impl Iterator<Item = &'a str>) {
    out.push('[');
    for (i, t) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, t);
    }
    out.push(']');
}

/// Appends a list of squares (`["e5","c7"]`).
fn push_squares(out: &mut String, squares: &[Square]) {
    out.push('[');
    for (i, sq) in squares.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push(sq.file_char());
        out.push(sq.rank_char());
        out.push('"');
    }
    out.push(']');
}

/// A side's PATTERN (`adjudicate::pattern_json`), keys in map order.
fn push_pattern(out: &mut String, p: &SidePattern) {
    let shown = !p.targets.is_empty();
    out.push('{');
    if shown {
        out.push_str("\"attackers\":");
        push_squares(out, &p.attackers);
        out.push(',');
    }
    out.push_str(if p.forbidden {
        "\"forbidden\":true,\"kind\":"
    } else {
        "\"forbidden\":false,\"kind\":"
    });
    push_str(out, p.kind.name());
    out.push_str(",\"moves\":");
    push_list(out, p.moves.iter().map(|k| k.name()));
    if shown {
        out.push_str(",\"targets\":");
        push_squares(out, &p.targets);
    }
    out.push('}');
}

/// Appends `"key":` then a string or `null`.
fn push_opt(out: &mut String, key: &str, value: Option<&str>) {
    out.push_str(key);
    match value {
        Some(v) => push_str(out, v),
        None => out.push_str("null"),
    }
}

/// The output line of ruling `r` with `order` (a JSON value, usually null)
/// and `procedure`.
pub fn ruling_line(r: &Ruling, order: &serde_json::Value, procedure: Option<Procedure>) -> String {
    let mut out = String::with_capacity(
        400 + r.explanation_zh.len()
            + r.explanation_en.len()
            + r.arbiter.as_ref().map_or(0, |(zh, en)| zh.len() + en.len()),
    );
    out.push_str("{\"arbiter\":");
    match &r.arbiter {
        Some((zh, en)) => {
            out.push_str("{\"en\":");
            push_str(&mut out, en);
            out.push_str(",\"zh\":");
            push_str(&mut out, zh);
            out.push('}');
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"black\":");
    push_pattern(&mut out, &r.black);
    out.push_str(",\"cycle\":{");
    if let Some(first) = r.whole_from {
        out.push_str("\"judged_from_ply\":");
        push_num(&mut out, first);
        out.push(',');
    }
    out.push_str("\"occurrences\":");
    push_num(&mut out, r.cycle.occurrences);
    out.push_str(",\"plies\":");
    push_num(&mut out, r.cycle.len());
    out.push_str(",\"start_ply\":");
    push_num(&mut out, r.cycle.start);
    out.push_str("},\"error\":null,\"explanation_en\":");
    push_str(&mut out, &r.explanation_en);
    out.push_str(",\"explanation_zh\":");
    push_str(&mut out, &r.explanation_zh);
    push_opt(
        &mut out,
        ",\"must_change\":",
        r.must_change.map(Color::name_lower),
    );
    out.push_str(",\"order\":");
    match order {
        serde_json::Value::Null => out.push_str("null"),
        v => out.push_str(&v.to_string()),
    }
    push_opt(&mut out, ",\"procedure\":", procedure.map(Procedure::name));
    out.push_str(",\"red\":");
    push_pattern(&mut out, &r.red);
    out.push_str(",\"rules\":");
    push_list(&mut out, r.rules.iter().map(|id| id.as_str()));
    out.push_str(",\"verdict\":");
    push_str(&mut out, r.verdict.name());
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjudicate::ruling_json;
    use crate::repetition::judge_game;
    use crate::RuleSet;
    use xiangqi::{parse_iccs, Position};

    /// The word-wise search finds the first byte to escape, wherever it is.
    #[test]
    fn escape_search_is_bytewise() {
        let base = "局面 ab\u{7f}é cdefghijklmnopqrstu".as_bytes();
        assert_eq!(escape_at(base), None);
        for at in 0..base.len() {
            for b in [0u8, 0x08, 0x1f, b'"', b'\\'] {
                let mut v = base.to_vec();
                v[at] = b;
                assert_eq!(escape_at(&v), Some(at), "{b} at {at}");
                v.push(b'"');
                assert_eq!(escape_at(&v), Some(at), "{b} at {at}");
            }
        }
        for c in 0x20u8..=0xff {
            let v = vec![c; 19];
            assert_eq!(escape_at(&v), v.iter().position(|&b| escaped(b)), "{c}");
        }
    }

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
                    r.arbiter = Some((
                        "裁判\"判断\"\n\u{7f}\u{8}\u{c}\r".into(),
                        format!("judge {n}\t\\ \u{1}\u{1f}é"),
                    ));
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
