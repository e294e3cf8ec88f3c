//! Golden file of every repetition ruling (issue 20): the rulings must not
//! change when the searches behind them (mate and material threats, chases)
//! are made faster. `tests/data/golden/adjudicate.txt` (at the repository
//! root) holds, one line per ruling, in a fixed order:
//!
//! - `cat <set> <id> <ruling>`: every case of the repetition catalogues
//!   (`tests/catalogue/*.jsonl`) through `adjudicate_line`, exactly as
//!   `caipan adjudicate` sees it;
//! - `scan <game> <ply> <ruling>`: every alert of the incremental watch over
//!   the 1,391 games of `data/games/hu-ronghua-1391.pgn` (what `caipan
//!   adjudicate --scan-pgn` counts), AXF rules;
//! - `line <game> <ply> <ruling>`: at the third occurrence of each cycle, the
//!   game's moves up to there as one `caipan adjudicate` input line.
//!
//! A ruling is its JSON output without the explanation texts, which are
//! replaced by `"text"`: a 64-bit FNV-1a hash of them (any wording change
//! still shows, the file stays small).
//!
//! The whole file is compared byte for byte in the default test run (0.25 s
//! in a debug build, 0.18 s in release, measured); on a difference the test
//! prints the first differing lines. To regenerate after an intended change
//! of rulings: `CAIPAN_BLESS=1 cargo test -p caipan-rulebook --test golden`,
//! and say in the commit message why the rulings changed.

use rulebook::adjudicate::ruling_json;
use rulebook::adjudicate_line;
use rulebook::scan::scan_game;
use rulebook::RuleSet;
use serde_json::{json, Value};

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/golden/adjudicate.txt"
);
const PGN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/games/hu-ronghua-1391.pgn"
);
const CATALOGUES: [(&str, &str); 3] = [
    ("axf", include_str!("catalogue/axf.jsonl")),
    ("roc", include_str!("catalogue/roc.jsonl")),
    ("cxa", include_str!("catalogue/cxa.jsonl")),
];
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A ruling's JSON with its texts folded into one hash.
fn compact(mut v: Value) -> String {
    if let Some(m) = v.as_object_mut() {
        let mut text = String::new();
        for key in ["explanation_zh", "explanation_en", "arbiter"] {
            if let Some(t) = m.remove(key) {
                text.push_str(&t.to_string());
                text.push('\u{1f}');
            }
        }
        m.insert("text".into(), json!(format!("{:016x}", fnv1a(&text))));
    }
    v.to_string()
}

fn catalogue_lines() -> Vec<String> {
    let mut out = Vec::new();
    for (set, text) in CATALOGUES {
        for l in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(l).expect("catalogue line is JSON");
            let input = json!({"fen": case["fen"], "moves": case["moves"], "rules": set});
            let out_line = adjudicate_line(&input.to_string());
            let v: Value = serde_json::from_str(&out_line).expect("output is JSON");
            let id = case["id"].as_str().expect("case id");
            out.push(format!("cat {set} {id} {}", compact(v)));
        }
    }
    out
}

/// The lines of every game.
fn game_lines() -> Vec<String> {
    let text = std::fs::read_to_string(PGN).expect("read the PGN");
    let games = xiangqi::read_pgn(&text).expect("parse the PGN");
    let mut out = Vec::new();
    for (i, raw) in games.iter().enumerate() {
        let n = i + 1;
        let game = raw.replay().expect("every game replays");
        let scan = scan_game(&game.start, &game.moves, RuleSet::Axf);
        for a in &scan.alerts {
            out.push(format!(
                "scan {n} {} {}",
                a.ply,
                compact(ruling_json(&a.ruling))
            ));
        }
        for a in scan
            .alerts
            .iter()
            .filter(|a| a.ruling.cycle.occurrences == 3)
        {
            let moves: Vec<String> = game.moves[..a.ply]
                .iter()
                .map(|&m| xiangqi::to_iccs(m))
                .collect();
            let input = json!({"fen": game.start.to_fen(), "moves": moves});
            let v: Value =
                serde_json::from_str(&adjudicate_line(&input.to_string())).expect("output is JSON");
            out.push(format!("line {n} {} {}", a.ply, compact(v)));
        }
    }
    out
}

/// Compares `got` with the golden file, or writes it under `CAIPAN_BLESS=1`.
fn compare(got: &[String]) {
    if std::env::var_os("CAIPAN_BLESS").is_some() {
        std::fs::write(GOLDEN, got.join("\n") + "\n").expect("write the golden file");
        return;
    }
    let text = std::fs::read_to_string(GOLDEN).expect("read tests/data/golden/adjudicate.txt");
    let want: Vec<&str> = text.lines().collect();
    let first = want
        .iter()
        .zip(got)
        .position(|(w, g)| *w != g.as_str())
        .or((want.len() != got.len()).then(|| want.len().min(got.len())));
    if let Some(i) = first {
        let show = |lines: Vec<&str>| lines.join("\n   ");
        panic!(
            "rulings differ from tests/data/golden/adjudicate.txt at line {} \
             ({} lines expected, {} produced)\nexpected:\n   {}\nproduced:\n   {}\n\
             (regenerate only for an intended change: CAIPAN_BLESS=1 cargo test \
             -p caipan-rulebook --test golden)",
            i + 1,
            want.len(),
            got.len(),
            show(want.iter().skip(i).take(3).copied().collect()),
            show(got.iter().skip(i).take(3).map(String::as_str).collect()),
        );
    }
    assert_eq!(text, got.join("\n") + "\n", "byte-identical golden file");
}

/// Every ruling of the catalogues and the 1,391 games, against the golden file.
#[test]
fn golden_rulings() {
    let mut got = catalogue_lines();
    got.extend(game_lines());
    assert!(
        got.len() > 600,
        "catalogue and games gave {} rulings",
        got.len()
    );
    compare(&got);
}
