//! End-to-end tests of the rulebook's repetition half: `caipan adjudicate`
//! as a process (JSON lines in, JSON lines out, precedence of verdicts), the
//! incremental checker against whole-game adjudication on real games, and
//! (ignored, long) the scan of all 1,391 games of data/games:
//! `cargo test --release --test rulebook -- --ignored --nocapture`.

use rulebook::repetition::{judge_game, RepetitionWatch};
use rulebook::scan::scan_game;
use rulebook::{RuleSet, Verdict};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const PGN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/games/hu-ronghua-1391.pgn"
);

fn run_adjudicate(input: &str) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .arg("adjudicate")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn adjudicate_json_lines_with_precedence() {
    let perpetual = r#"{"fen": "5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1", "moves": ["h8h9","f9f8","h9h8","f8f9","h8h9","f9f8","h9h8","f8f9"]}"#;
    let lines = [
        perpetual,
        "this is not json",
        r#"{"moves": ["h2e2", "h9g7", "e2e9"]}"#,
        // Black (not to move) is in check: not a legal position.
        r#"{"fen": "4k4/9/9/9/9/9/9/9/9/4RK3 w - - 0 1", "moves": []}"#,
        // Checkmate at the end (d8 covered by the rook a8, e9 by the flying general).
        r#"{"fen": "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "moves": ["b0b9"]}"#,
        // A claim: 100 plies without capture from the FEN's halfmove field 96 + 4 plies.
        r#"{"fen": "3k5/9/9/9/9/9/9/9/9/4K4 w - - 96 60", "moves": ["e0f0", "d9d8", "f0e0", "d8d9"], "claim": {"type": "natural_limit", "by": "red"}}"#,
        r#"{"fen": "3k5/9/9/9/9/9/9/9/9/4K4 w - - 10 60", "moves": ["e0f0", "d9d8"], "claim": {"type": "natural_limit", "by": "black"}}"#,
        r#"{"moves": ["h2e2", "h9g7"]}"#,
        r#"{"fen": "5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1", "moves": ["h8h9","f9f8","h9h8","f8f9","h8h9","f9f8","h9h8","f8f9"], "rules": "roc"}"#,
    ];
    let out = run_adjudicate(&(lines.join("\n") + "\n"));
    assert_eq!(out.len(), lines.len());
    assert_eq!(out[0]["verdict"], "red_loses");
    assert_eq!(out[0]["must_change"], "red");
    assert_eq!(out[0]["red"]["kind"], "perpetual_check");
    assert!(out[0]["rules"]
        .as_array()
        .unwrap()
        .contains(&Value::from("AXF-D1")));
    assert!(out[0]["explanation_zh"].as_str().unwrap().contains("长将"));
    assert_eq!(out[1]["verdict"], "error");
    assert!(out[1]["error"].as_str().unwrap().contains("JSON"));
    assert_eq!(out[2]["verdict"], "error");
    assert!(
        out[2]["error"].as_str().unwrap().contains("move 3"),
        "{}",
        out[2]
    );
    assert_eq!(out[3]["verdict"], "error");
    assert!(
        out[3]["error"].as_str().unwrap().contains("FEN"),
        "{}",
        out[3]
    );
    assert_eq!(out[4]["verdict"], "black_loses", "{}", out[4]);
    assert_eq!(out[5]["verdict"], "draw", "{}", out[5]);
    assert_eq!(out[6]["verdict"], "false_claim", "{}", out[6]);
    assert_eq!(out[7]["verdict"], "none");
    assert_eq!(out[8]["verdict"], "red_loses");
    assert!(
        out[8]["rules"]
            .as_array()
            .unwrap()
            .contains(&Value::from("ROC-16")),
        "{}",
        out[8]
    );
}

fn games(limit: usize) -> Vec<xiangqi::Game> {
    let text = std::fs::read_to_string(PGN).expect("the games file");
    xiangqi::read_pgn(&text)
        .expect("PGN")
        .iter()
        .take(limit)
        .map(|g| g.replay().expect("legal game"))
        .collect()
}

/// The server's incremental checker raises an alert exactly where the final
/// position of the prefix has occurred three times, with the same ruling as
/// adjudicating the whole prefix.
#[test]
fn incremental_watch_matches_whole_game_adjudication() {
    let mut alerts = 0;
    for g in games(200) {
        let mut w = RepetitionWatch::new(&g.start, RuleSet::Axf);
        let mut pos = g.start.clone();
        for (i, &m) in g.moves.iter().enumerate() {
            pos.play_unchecked(m);
            let alert = w.push(m, &pos);
            let whole = judge_game(&g.start, &g.moves[..=i], RuleSet::Axf).unwrap();
            match (&alert, &whole) {
                (Some(a), Some(r)) => {
                    alerts += 1;
                    assert_eq!(a.ruling.verdict, r.verdict);
                    assert_eq!(a.ruling.rules, r.rules);
                    assert_eq!(a.ruling.cycle, r.cycle);
                }
                (None, None) => {}
                _ => panic!("watch and whole-game adjudication differ at ply {}", i + 1),
            }
        }
    }
    assert!(alerts > 0, "the first 200 games contain repetitions");
}

/// Game 754 (Li Laiqun - Hu Ronghua, 1988): Black's chases are all made while
/// escaping check, so whether they "intend capture" is the arbiter's call and
/// it decides the verdict: the ruling stays referred and names the other
/// reading (no chase: a draw). Rulings whose verdict the intent cannot change
/// are not referred (the catalogue's D9/D33/D34/P3 cases, checked there).
#[test]
fn referral_stays_where_intent_decides_the_verdict() {
    let text = std::fs::read_to_string(PGN).expect("the games file");
    let raw = xiangqi::read_pgn(&text).expect("PGN");
    let g = raw[753].replay().expect("legal game");
    let s = scan_game(&g.start, &g.moves, RuleSet::Axf);
    let a = s
        .alerts
        .iter()
        .find(|a| a.ruling.cycle.occurrences == 3)
        .expect("game 754 has a repetition");
    assert_eq!(a.ruling.verdict, Verdict::BlackLoses);
    let (zh, en) = a.ruling.arbiter.as_ref().expect("referred to the arbiter");
    assert!(en.contains("out of check"), "{en}");
    assert!(en.contains("the ruling is a draw"), "{en}");
    assert!(zh.contains("和棋"), "{zh}");
}

/// All 1,391 games: cycles found, rulings, forfeits before the real end.
/// `cargo test --release --test rulebook -- --ignored --nocapture`
#[test]
#[ignore]
fn all_games_scan() {
    let all = games(usize::MAX);
    assert_eq!(all.len(), 1391);
    let (mut cycles, mut games_with, mut forfeit_games, mut lost_games) = (0, 0, 0, 0);
    let mut by_verdict = std::collections::BTreeMap::new();
    for (n, g) in all.iter().enumerate() {
        let s = scan_game(&g.start, &g.moves, RuleSet::Axf);
        if !s.alerts.is_empty() {
            games_with += 1;
        }
        for a in s.alerts.iter().filter(|a| a.ruling.cycle.occurrences == 3) {
            cycles += 1;
            *by_verdict.entry(a.ruling.verdict.name()).or_insert(0) += 1;
        }
        if s.first_forfeit_before_end().is_some() {
            forfeit_games += 1;
        }
        if let Some(a) = s.first_forfeit_loss_before_end() {
            lost_games += 1;
            let loser = if a.ruling.verdict == Verdict::RedLoses {
                "red"
            } else {
                "black"
            };
            println!(
                "game {}: ply {} of {}: {loser} must change: {}",
                n + 1,
                a.ply,
                s.plies,
                a.ruling.explanation_en
            );
        }
    }
    println!(
        "games with alerts {games_with}, cycles {cycles}, verdicts {by_verdict:?}, \
         told to change before the end {forfeit_games}, would have lost before the end {lost_games}"
    );
    assert!(cycles > 0);
}

/// The procedure around a repetition ruling (docs/rules.md, "Procedure"): at
/// the third occurrence an order, not a result; after `ordered_at_ply` the
/// cycle repeated once more gives the result (AXF-G3), a change lapses the
/// order, an announced draw that repeats is a draw.
#[test]
fn adjudicate_follows_the_order_procedure() {
    let fen = "5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let check = ["\"h8h9\"", "\"f9f8\"", "\"h9h8\"", "\"f8f9\""];
    let idle = ["\"h0g2\"", "\"h9g7\"", "\"g2h0\"", "\"g7h9\""];
    let seq = |c: &[&str; 4], n: usize, extra: &[&str]| -> String {
        let mut v: Vec<&str> = c.iter().cycle().take(n).copied().collect();
        v.extend_from_slice(extra);
        v.join(",")
    };
    let lines = [
        format!(r#"{{"fen": "{fen}", "moves": [{}]}}"#, seq(&check, 8, &[])),
        // Ordered at ply 8; Red checks once more around the cycle.
        format!(
            r#"{{"fen": "{fen}", "moves": [{}], "ordered_at_ply": 8}}"#,
            seq(&check, 12, &[])
        ),
        // Ordered at ply 8; Red changes (its king steps aside).
        format!(
            r#"{{"fen": "{fen}", "moves": [{}], "ordered_at_ply": 8}}"#,
            seq(&check, 8, &["\"e0d0\"", "\"f9e9\""])
        ),
        format!(r#"{{"moves": [{}]}}"#, seq(&idle, 8, &[])),
        format!(
            r#"{{"moves": [{}], "ordered_at_ply": 8}}"#,
            seq(&idle, 12, &[])
        ),
        // Ordered, three plies of the cycle since: the order stands.
        format!(
            r#"{{"fen": "{fen}", "moves": [{}], "ordered_at_ply": 8}}"#,
            seq(&check, 11, &[])
        ),
        // An order needs a cycle.
        format!(
            r#"{{"fen": "{fen}", "moves": [{}], "ordered_at_ply": 5}}"#,
            seq(&check, 5, &[])
        ),
        // AXF-G3's wording: three more cycles.
        format!(
            r#"{{"fen": "{fen}", "moves": [{}], "ordered_at_ply": 8, "cycles_after_order": 3}}"#,
            seq(&check, 12, &[])
        ),
    ];
    let out = run_adjudicate(&(lines.join("\n") + "\n"));
    assert_eq!(out.len(), lines.len());
    // Third occurrence: the verdict says who violates, the procedure orders.
    assert_eq!(out[0]["verdict"], "red_loses", "{}", out[0]);
    assert_eq!(out[0]["must_change"], "red");
    assert_eq!(out[0]["procedure"], "order_change");
    assert_eq!(out[0]["order"], Value::Null);
    // Order -> repeat: the result, citing AXF-G3 first.
    assert_eq!(out[1]["verdict"], "red_loses", "{}", out[1]);
    assert_eq!(out[1]["procedure"], "result");
    assert_eq!(out[1]["rules"][0], "AXF-G3");
    assert!(out[1]["rules"]
        .as_array()
        .unwrap()
        .contains(&Value::from("AXF-D1")));
    assert_eq!(out[1]["order"]["status"], "repeated");
    assert_eq!(out[1]["order"]["side"], "red");
    assert_eq!(out[1]["order"]["ply"], 12);
    assert_eq!(out[1]["cycle"]["occurrences"], 4);
    // Order -> change: nothing to rule, the order lapsed.
    assert_eq!(out[2]["verdict"], "none", "{}", out[2]);
    assert_eq!(out[2]["procedure"], Value::Null);
    assert_eq!(out[2]["order"]["status"], "lapsed");
    assert_eq!(out[2]["order"]["lapse"], "left_cycle");
    assert_eq!(out[2]["order"]["by"], "red");
    assert_eq!(out[2]["order"]["ply"], 9);
    // No violation: the arbiter announces a draw on one more cycle ...
    assert_eq!(out[3]["verdict"], "draw", "{}", out[3]);
    assert_eq!(out[3]["procedure"], "announce_draw");
    // ... and the cycle repeats: draw.
    assert_eq!(out[4]["verdict"], "draw", "{}", out[4]);
    assert_eq!(out[4]["procedure"], "result");
    assert_eq!(out[4]["order"]["side"], Value::Null);
    assert_eq!(out[4]["order"]["status"], "repeated");
    assert_eq!(out[5]["verdict"], "none", "{}", out[5]);
    assert_eq!(out[5]["order"]["status"], "standing");
    assert_eq!(out[6]["verdict"], "error", "{}", out[6]);
    assert!(out[6]["error"].as_str().unwrap().contains("no cycle"));
    assert_eq!(out[7]["verdict"], "none", "{}", out[7]);
    assert_eq!(out[7]["order"]["status"], "standing");
}

/// `caipan adjudicate` renders the explanation from the rulebook's typed
/// one (issue 33): every key of the rulebook's own line is there with the
/// same value (`explanation_zh` / `explanation_en` byte for byte), and
/// beside them the explanation in Traditional Chinese and Vietnamese, its
/// message id and its typed arguments.
#[test]
fn adjudicate_explains_in_four_languages_with_the_typed_message() {
    let lines = [
        r#"{"fen": "5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1", "moves": ["h8h9","f9f8","h9h8","f8f9","h8h9","f9f8","h9h8","f8f9"]}"#,
        r#"{"fen": "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "moves": ["b0b9"]}"#,
        r#"{"moves": ["h2e2", "h9g7"]}"#,
        r#"{"fen": "3k5/9/9/9/9/9/9/9/9/4K4 w - - 10 60", "moves": ["e0f0", "d9d8"], "claim": {"type": "natural_limit", "by": "black"}}"#,
        "this is not json",
    ];
    let out = run_adjudicate(&(lines.join("\n") + "\n"));
    assert_eq!(out.len(), lines.len());
    for (line, got) in lines.iter().zip(&out) {
        let own: Value = serde_json::from_str(&rulebook::adjudicate_line(line)).unwrap();
        for (key, value) in own.as_object().unwrap() {
            assert_eq!(&got[key], value, "{key} of {line}");
        }
    }
    let perpetual = &out[0];
    assert_eq!(perpetual["explanation_id"], "ruling-repetition");
    assert_eq!(perpetual["explanation_args"]["count"], 3);
    assert_eq!(perpetual["explanation_args"]["red"]["args"]["side"], "red");
    let hant = perpetual["explanation_zh_hant"].as_str().unwrap();
    assert!(
        hant.contains("紅方長將") && hant.contains("必須變著"),
        "{hant}"
    );
    let vi = perpetual["explanation_vi"].as_str().unwrap();
    assert!(vi.contains("Đỏ: chiếu mãi"), "{vi}");
    assert_eq!(out[1]["explanation_id"], "ruling-checkmated");
    assert_eq!(
        out[1]["explanation_vi"],
        "Đen bị chiếu bí và bị xử thua (AXF-G2)."
    );
    assert_eq!(out[2]["explanation_id"], "ruling-nothing-to-rule");
    assert_eq!(out[3]["explanation_args"]["side"], "black");
    // An error line explains nothing, in no language.
    for key in [
        "explanation_zh_hant",
        "explanation_vi",
        "explanation_id",
        "explanation_args",
    ] {
        assert!(out[4][key].is_null(), "{key}: {}", out[4]);
    }
}
