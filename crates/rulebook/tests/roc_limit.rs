//! The ROC declared move limit (限著, ROC-6 to ROC-8) through the JSON-lines
//! engine of `caipan adjudicate`: counted per player from the declaration,
//! five of the limited side's replies to check at most, a capture after the
//! declaration sends it back to the arbiter.

use rulebook::adjudicate_line;
use serde_json::{json, Value};

/// Red: king d0, rook a4; Black: king f9, rook i8. Red (the stronger side)
/// is limited at Black's request.
const FEN: &str = "5k3/8r/9/9/9/R8/9/9/9/3K5 w - - 0 1";

/// Red's first move, eight rounds in which Black checks from d8 and Red's
/// king steps aside (eight replies to check), then `quiet` pairs of quiet
/// moves (Black first). Every move is legal.
fn game(quiet: usize) -> Vec<&'static str> {
    let mut moves = vec!["a4a3"];
    for _ in 0..8 {
        moves.extend(["i8d8", "d0e0", "d8i8", "e0d0"]);
    }
    let cycle = [["i8i7", "a3a4"], ["i7i8", "a4a3"]];
    for k in 0..quiet {
        moves.extend(cycle[k % 2]);
    }
    moves
}

fn claim(moves: &[&str], extra: Value) -> Value {
    let mut c = json!({"type": "roc_limit", "declared_at_ply": 0, "by": "black"});
    if let (Some(c), Some(e)) = (c.as_object_mut(), extra.as_object()) {
        c.extend(e.clone());
    }
    let line = json!({"fen": FEN, "moves": moves, "rules": "roc", "claim": c});
    serde_json::from_str(&adjudicate_line(&line.to_string())).unwrap()
}

/// After 33 + 2k plies Red made 17 + k moves, 8 of them replies to check (3
/// struck: 14 + k counted), Black 16 + k: full at k = 26.
#[test]
fn the_limit_reached_is_a_draw() {
    let out = claim(&game(26), json!({}));
    assert_eq!(out["verdict"], "draw", "{out}");
    assert_eq!(out["procedure"], "result");
    assert_eq!(out["limit"]["counted"], json!({"red": 40, "black": 42}));
    assert_eq!(out["limit"]["struck_replies"], 3);
    assert_eq!(out["limit"]["limited"], "red");
    assert_eq!(out["rules"], json!(["ROC-6", "ROC-7", "ROC-8"]));
}

#[test]
fn one_move_short_is_a_false_claim() {
    let out = claim(&game(25), json!({}));
    assert_eq!(out["verdict"], "false_claim", "{out}");
    assert_eq!(out["limit"]["remaining"], json!({"red": 1, "black": 0}));
    // ROC sets no penalty for it (docs/rules.md): none is announced.
    assert!(out["explanation_en"]
        .as_str()
        .unwrap()
        .contains("sets no penalty"));
    // Without the five-reply cap Red would be done: the cap decides.
    let out = claim(&game(23), json!({}));
    assert_eq!(out["limit"]["remaining"]["red"], 3);
}

/// Declared later, the count starts later; declared by the arbiter, the
/// limited side must be named; in a book draw 30 moves each suffice.
#[test]
fn the_count_starts_at_the_declaration() {
    let out = claim(&game(26), json!({"declared_at_ply": 2}));
    assert_eq!(out["verdict"], "false_claim", "{out}");
    assert_eq!(out["limit"]["counted"], json!({"red": 39, "black": 41}));
    let out = claim(&game(26), json!({"by": "arbiter"}));
    assert_eq!(out["verdict"], "error");
    assert!(out["error"].as_str().unwrap().contains("limited"), "{out}");
    let out = claim(
        &game(16),
        json!({"by": "arbiter", "limited": "red", "book_draw": true}),
    );
    assert_eq!(out["verdict"], "draw", "{out}");
    assert_eq!(out["limit"]["moves_each"], 30);
}

#[test]
fn a_capture_after_the_declaration_asks_the_arbiter_to_reset() {
    let fen = "5k3/8r/9/p8/9/R8/9/9/9/3K5 w - - 0 1";
    let moves = ["a4a3", "i8i7", "a3a4", "i7i8", "a4a6", "i8i7"];
    let line = json!({"fen": fen, "moves": moves, "rules": "roc",
        "claim": {"type": "roc_limit", "declared_at_ply": 2, "by": "black"}});
    let out: Value = serde_json::from_str(&adjudicate_line(&line.to_string())).unwrap();
    assert_eq!(out["verdict"], "reset_limit", "{out}");
    assert_eq!(out["limit"]["capture_at_ply"], 5);
    assert!(out["explanation_zh"]
        .as_str()
        .unwrap()
        .contains("取消原限著"));
}

#[test]
fn bad_roc_limit_claims_are_named() {
    let line = |claim: Value, rules: &str| {
        let l = json!({"fen": FEN, "moves": ["a4a3"], "rules": rules, "claim": claim});
        let out: Value = serde_json::from_str(&adjudicate_line(&l.to_string())).unwrap();
        assert_eq!(out["verdict"], "error", "{out}");
        out["error"].as_str().unwrap().to_string()
    };
    let ok = json!({"type": "roc_limit", "declared_at_ply": 0, "by": "red"});
    assert!(line(ok, "axf").contains("\"rules\": \"roc\""));
    let late = json!({"type": "roc_limit", "declared_at_ply": 5, "by": "red"});
    assert!(line(late, "roc").contains("after the last move"));
    let who = json!({"type": "roc_limit", "declared_at_ply": 0, "by": "referee"});
    assert!(line(who, "roc").contains("arbiter"));
    let bd = json!({"type": "roc_limit", "declared_at_ply": 0, "by": "red", "book_draw": 1});
    assert!(line(bd, "roc").contains("book_draw"));
    // ROC has no natural limit: its limit is declared.
    let natural = json!({"type": "natural_limit", "by": "red"});
    assert!(line(natural, "roc").contains("declared"));
}
