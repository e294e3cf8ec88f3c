//! End-to-end tests of `caipan demo --headless` (issue 7): the real binary
//! plays round 1 of the demo hall (embedded server, replayed tables with
//! the scripted incidents) into a data dir, then `caipan export` writes one
//! PGN per game; every record must replay legally with crates/xiangqi to
//! the final position the server held for that table (the FEN the demo
//! prints from the live server's hall view), and a server restarted on the
//! same data dir must rebuild the same positions from the store.
//!
//! Every run starts from an empty temporary folder (no source tree, no data
//! set in reach): the demo's hall and games are embedded in the binary.
//!
//! The test plays at the issue's `--speed 200` (about 35 s of real time for
//! the 8 games, little CPU: the time is the players' scaled think times).
//! By hand: `cargo run --release -- demo --headless --tables 8 --speed 200
//! --data /tmp/hall8`, then `cargo run --release -- export --data /tmp/hall8
//! --round 1 --format pgn --out /tmp/hall8-pgn`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_caipan");
const SPEED: &str = "200";

/// Runs the binary from an empty temporary folder, as a user who installed
/// it would: nothing of the source tree (config, games) is in reach, so the
/// demo must bring its hall and its games with it.
fn caipan(args: &[&str]) -> Output {
    let cwd = tempfile::tempdir().expect("an empty folder");
    Command::new(BIN)
        .args(args)
        .current_dir(cwd.path())
        .output()
        .expect("run caipan")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// What a failed demo left: its exit status, what it printed and the end
/// of its log file (where `--log` sends its errors and a panic's report).
fn failed_run(run: &Output, log: &Path) -> String {
    let logged = std::fs::read_to_string(log).unwrap_or_else(|e| format!("(no log: {e})"));
    let tail: Vec<&str> = logged.lines().rev().take(40).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    format!(
        "demo failed: {:?}\nstdout:\n{}\nstderr:\n{}\nlog {} (last 40 lines):\n{}",
        run.status,
        text(&run.stdout),
        text(&run.stderr),
        log.display(),
        tail.join("\n")
    )
}

/// One `table N | result | reason | P plies | FEN fen` line of the summary.
#[derive(Debug)]
struct Line {
    result: String,
    reason: String,
    plies: usize,
    fen: String,
}

fn table_lines(stdout: &str) -> BTreeMap<u32, Line> {
    let mut out = BTreeMap::new();
    for l in stdout.lines() {
        let Some(rest) = l.strip_prefix("table ") else {
            continue;
        };
        let parts: Vec<&str> = rest.split(" | ").collect();
        if parts.len() != 5 {
            continue;
        }
        let table: u32 = parts[0].trim().parse().expect("table number");
        let plies: usize = parts[3]
            .trim_end_matches(" plies")
            .trim()
            .parse()
            .expect("plies");
        let fen = parts[4].strip_prefix("FEN ").expect("FEN").to_string();
        out.insert(
            table,
            Line {
                result: parts[1].to_string(),
                reason: parts[2].to_string(),
                plies,
                fen,
            },
        );
    }
    out
}

fn server_fens(data: &Path) -> BTreeMap<u32, String> {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut config = export::stored::load_hall(data, None).expect("config copy");
        config.server.listen = "127.0.0.1:0".parse().unwrap();
        let srv = server::Server::start(config, data).await.expect("restart");
        let view = srv.snapshot().unwrap();
        srv.shutdown().await.unwrap();
        view.tables
            .iter()
            .map(|t| (u32::from(t.table), t.fen.clone()))
            .collect()
    })
}

#[test]
fn headless_demo_then_pgn_export_replays_to_the_servers_final_positions() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("hall8");
    let out = dir.path().join("pgn");
    let log = dir.path().join("demo.log");
    let run = caipan(&[
        "demo",
        "--headless",
        "--tables",
        "8",
        "--speed",
        SPEED,
        "--data",
        data.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    let stdout = text(&run.stdout);
    assert!(
        run.status.success(),
        "demo failed: {:?}\n{stdout}\n{}",
        run.status,
        text(&run.stderr)
    );
    assert!(stdout.contains("games finished: 8 of 8"), "{stdout}");
    let lines = table_lines(&stdout);
    assert_eq!(
        lines.keys().copied().collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>(),
        "{stdout}"
    );
    for (t, l) in &lines {
        assert_ne!(l.result, "*", "table {t} not finished: {l:?}");
        // Where the record ends, the side to move resigns.
        if l.reason == "resignation" {
            let to_move = l.fen.split(' ').nth(1);
            let expected = match to_move {
                Some("w") => "0-1",
                Some("b") => "1-0",
                other => panic!("table {t}: side to move {other:?} in {}", l.fen),
            };
            assert_eq!(
                l.result, expected,
                "table {t}: the wrong side resigned: {l:?}"
            );
        }
    }
    // The scripted incidents were raised on the server.
    assert!(stdout.contains("repetition"), "{stdout}");
    assert!(stdout.contains("flag fall"), "{stdout}");
    assert!(stdout.contains("illegal move"), "{stdout}");
    assert!(stdout.contains("natural move limit"), "{stdout}");
    assert!(lines.values().any(|l| l.reason == "flag"), "{stdout}");

    let export = caipan(&[
        "export",
        "--data",
        data.to_str().unwrap(),
        "--round",
        "1",
        "--format",
        "pgn",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(export.status.success(), "export: {}", text(&export.stderr));
    let mut files: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 8, "{files:?}");

    let restarted = server_fens(&data);
    for (t, line) in &lines {
        let path = out.join(format!("r1-t{t:02}.pgn"));
        let pgn = std::fs::read_to_string(&path).unwrap();
        let raw = xiangqi::read_pgn(&pgn).unwrap();
        assert_eq!(raw.len(), 1, "{}", path.display());
        let game = raw[0]
            .replay()
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert_eq!(game.moves.len(), line.plies, "table {t}: plies");
        let end = game.end_position().to_fen();
        assert_eq!(
            end, line.fen,
            "table {t}: the PGN's end is not the server's position"
        );
        assert_eq!(
            restarted.get(t),
            Some(&line.fen),
            "table {t}: the restarted server rebuilt another position"
        );
        if line.result != "0-0" {
            assert_eq!(
                raw[0].tag("Result"),
                Some(line.result.as_str()),
                "table {t}"
            );
        }
    }

    // The played data dir is not played again.
    let again = caipan(&[
        "demo",
        "--headless",
        "--tables",
        "2",
        "--data",
        data.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("already holds a played demo round"),
        "{}",
        text(&again.stderr)
    );
}

/// Issue 15: `--auto-rule` plays the chief, who accepts every
/// recommendation at once. Table 1's perpetual check is ordered to change,
/// goes on, and loses under AXF-G3 on the second claim; table 2's chase is
/// ordered, changes and plays on; table 3's true natural-limit claim ends
/// as a natural-limit draw. The summary lists the rulings per table and
/// the CSV export carries the typed reasons.
#[test]
fn auto_rule_orders_then_rules_and_the_csv_shows_the_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("hall8");
    let log = dir.path().join("demo.log");
    let run = caipan(&[
        "demo",
        "--headless",
        "--tables",
        "8",
        "--speed",
        SPEED,
        "--auto-rule",
        "--data",
        data.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    let stdout = text(&run.stdout);
    assert!(
        run.status.success(),
        "demo failed: {:?}\n{stdout}\n{}",
        run.status,
        text(&run.stderr)
    );
    assert!(stdout.contains("games finished: 8 of 8"), "{stdout}");
    let lines = table_lines(&stdout);

    // Table 1: the order, then the loss of the side ordered to change.
    let order_of = |t: u32| {
        let prefix = format!("  table {t:>2} repetition: order: ");
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .map(|rest| rest.split(' ').next().unwrap_or_default().to_string())
    };
    let checker = order_of(1).unwrap_or_else(|| panic!("no order at table 1:\n{stdout}"));
    let t1 = &lines[&1];
    assert!(
        t1.reason.starts_with("perpetual check (AXF-G3"),
        "table 1: {t1:?}\n{stdout}"
    );
    let loss = match checker.as_str() {
        "Red" => "0-1",
        "Black" => "1-0",
        other => panic!("ordered side {other:?}"),
    };
    assert_eq!(t1.result, loss, "the checking side loses: {t1:?}");
    assert!(
        stdout.contains(&format!(
            "  table  1 repetition: result {loss}, perpetual check [AXF-G3"
        )),
        "{stdout}"
    );

    // Table 2: ordered, changed, played on to the real game's end.
    assert!(order_of(2).is_some(), "no order at table 2:\n{stdout}");
    let t2 = &lines[&2];
    assert!(!t2.reason.starts_with("perpetual chase"), "table 2: {t2:?}");

    // Table 3: the true natural-limit claim ruled a draw.
    let t3 = &lines[&3];
    assert_eq!(t3.result, "1/2-1/2", "table 3: {t3:?}");
    assert!(
        t3.reason.starts_with("natural limit (AXF-LIMIT-1"),
        "table 3: {t3:?}\n{stdout}"
    );

    // The CSV export carries the typed reasons.
    let export = caipan(&[
        "export",
        "--data",
        data.to_str().unwrap(),
        "--round",
        "1",
        "--format",
        "csv",
    ]);
    assert!(export.status.success(), "export: {}", text(&export.stderr));
    let csv = text(&export.stdout);
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (table, result, reason) = (col("table"), col("result"), col("reason"));
    let by_table: BTreeMap<u32, (String, String)> = rows
        .map(|r| r.split(',').collect::<Vec<_>>())
        .map(|f| {
            (
                f[table].parse().expect("table number"),
                (f[result].to_string(), f[reason].to_string()),
            )
        })
        .collect();
    assert_eq!(
        by_table.get(&1),
        Some(&(loss.to_string(), "perpetual check".to_string())),
        "{csv}"
    );
    assert_eq!(
        by_table.get(&3),
        Some(&("1/2-1/2".to_string(), "natural limit".to_string())),
        "{csv}"
    );
}

#[test]
fn a_data_dir_of_another_hall_or_with_other_files_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("demo.log");
    // A store that belongs to another hall.
    let other = dir.path().join("other");
    drop(store::SqliteStore::open(&other, store::OpenOptions::new("0123456789abcdef")).unwrap());
    let run = caipan(&[
        "demo",
        "--headless",
        "--tables",
        "1",
        "--data",
        other.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let err = text(&run.stderr);
    assert!(
        err.contains("another hall (hall id 0123456789abcdef)"),
        "{err}"
    );
    assert!(
        err.contains("give a new or empty folder with --data"),
        "{err}"
    );

    // A folder with someone else's files.
    let busy = dir.path().join("busy");
    std::fs::create_dir_all(&busy).unwrap();
    std::fs::write(busy.join("notes.txt"), "mine").unwrap();
    let run = caipan(&[
        "demo",
        "--headless",
        "--data",
        busy.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        text(&run.stderr).contains("not empty"),
        "{}",
        text(&run.stderr)
    );
    assert_eq!(
        std::fs::read_dir(&busy).unwrap().count(),
        1,
        "nothing written"
    );

    // Bad arguments are named.
    let run = caipan(&["demo", "--headless", "--tables", "41"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        text(&run.stderr).contains("tables 1 to 40"),
        "{}",
        text(&run.stderr)
    );
    let run = caipan(&["demo", "--pgn", "/nonexistent/games.pgn", "--headless"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("/nonexistent/games.pgn"));
}

/// `caipan demo --headless` speaks its `--lang` (issue 33): a ROC hall in
/// Traditional Chinese and an AXF hall in Vietnamese, each summary in its
/// language (the fixed `table N | … | FEN` lines keep their form, the
/// reason in the language) and none of the English summary's words.
#[test]
fn the_headless_demo_prints_its_summary_in_the_language_asked() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("demo.log");
    let cases: [(&[&str], &[&str], &[&str]); 2] = [
        (
            &["--rules", "roc", "--lang", "zh-Hant"],
            &["已結束對局：4 / 4", "依終局原因：", "各台："],
            &["已结束对局", "按终局原因"],
        ),
        (
            &["--lang", "vi"],
            &["ván đã kết thúc: 4 / 4", "kết quả theo lý do:", "các bàn:"],
            &[],
        ),
    ];
    for (flags, want, not_wanted) in cases {
        let mut args = vec!["demo", "--headless", "--tables", "4", "--speed", SPEED];
        args.extend_from_slice(flags);
        args.extend(["--log", log.to_str().unwrap()]);
        let run = caipan(&args);
        let stdout = text(&run.stdout);
        assert!(
            run.status.success(),
            "{flags:?}: {:?}\n{stdout}\n{}",
            run.status,
            text(&run.stderr)
        );
        for w in want {
            assert!(stdout.contains(w), "{flags:?}: no {w:?} in\n{stdout}");
        }
        for w in not_wanted
            .iter()
            .chain(&["games finished:", "results by reason:"])
        {
            assert!(!stdout.contains(w), "{flags:?}: {w:?} in\n{stdout}");
        }
        let lines = table_lines(&stdout);
        assert_eq!(lines.len(), 4, "{stdout}");
        // The reasons are the catalogue's words in the language.
        let reasons: Vec<&str> = lines.values().map(|l| l.reason.as_str()).collect();
        assert!(
            reasons.iter().all(|r| !r.contains("resignation")),
            "{flags:?}: {reasons:?}"
        );
    }
}

/// `caipan demo --headless --rounds 2 --tables 8` (issue 36): round 1, the
/// demo's chief pairs round 2 with the tournament's system and publishes
/// it, round 2 is played, the standings after round 2 are printed with
/// their tie-break columns — the same as `caipan export --round 2 --format
/// standings-csv` of the data dir — and each round's closing lines point
/// at that round's export. At 1000x (about 13 s; the games are the same).
#[test]
fn headless_demo_plays_two_rounds_and_prints_the_standings_with_tie_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("hall8");
    let data_arg = data.to_str().unwrap();
    let log = dir.path().join("demo.log");
    let run = caipan(&[
        "demo",
        "--headless",
        "--rounds",
        "2",
        "--tables",
        "8",
        "--speed",
        "1000",
        "--data",
        data_arg,
        "--log",
        log.to_str().unwrap(),
    ]);
    let stdout = text(&run.stdout);
    assert!(
        run.status.success(),
        "demo failed: {:?}\n{stdout}\n{}",
        run.status,
        text(&run.stderr)
    );
    assert_eq!(
        stdout.matches("games finished: 8 of 8").count(),
        2,
        "{stdout}"
    );
    assert!(stdout.contains("round 2 paired ("), "{stdout}");
    assert!(stdout.contains("round 2 of "), "{stdout}");
    let hints: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("export: caipan export"))
        .collect();
    assert_eq!(hints.len(), 2, "{stdout}");
    assert!(hints[0].contains("--round 1 "), "{}", hints[0]);
    assert!(hints[1].contains("--round 2 "), "{}", hints[1]);
    let (_, standings) = stdout
        .split_once("standings after round 2:\n")
        .unwrap_or_else(|| panic!("no standings: {stdout}"));
    let header = standings.lines().next().unwrap_or_default();
    for column in [
        "rank",
        "points",
        "black_wins",
        "technical_fouls",
        "opponent_score_all",
        "decided_by",
    ] {
        assert!(header.split(',').any(|c| c == column), "{column}: {header}");
    }
    let rows: Vec<&str> = standings.lines().skip(1).collect();
    assert_eq!(rows.len(), 16, "every player of the 8 tables: {standings}");
    // Two games each.
    assert!(
        rows.iter().all(|r| r.split(',').nth(5) == Some("2")),
        "{standings}"
    );
    let export = caipan(&[
        "export",
        "--data",
        data_arg,
        "--round",
        "2",
        "--format",
        "standings-csv",
    ]);
    assert!(export.status.success(), "{}", text(&export.stderr));
    assert_eq!(
        text(&export.stdout).replace("\r\n", "\n").trim_end(),
        standings.trim_end(),
        "the printed standings are the export's"
    );
}

/// Issue 33: the exports of a real demo round in the hall's language.
/// `caipan export --lang vi` and `--lang zh-Hant` word the HTML page's
/// headings and end reasons in that language, the printed pairings in it
/// with English beside it, and the results CSV gains `reason_text`; the
/// export without a language is the page of before (Chinese and English,
/// `lang="zh"`); a `[tournament] language` in the data dir's config copy
/// is the export's language when `--lang` is not given.
#[test]
fn exports_of_a_demo_round_in_the_halls_language() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("hall2");
    let data_s = data.to_str().unwrap();
    let log = dir.path().join("demo.log");
    let run = caipan(&[
        "demo",
        "--headless",
        "--tables",
        "2",
        "--speed",
        "300",
        "--data",
        data_s,
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", failed_run(&run, &log));
    let export = |format: &str, lang: Option<&str>| -> String {
        let mut args = vec![
            "export", "--data", data_s, "--round", "1", "--format", format,
        ];
        if let Some(l) = lang {
            args.extend(["--lang", l]);
        }
        let out = caipan(&args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let plain = export("html", None);
    assert!(plain.contains("lang=\"zh\""), "{plain}");
    assert!(plain.contains("<h2>本轮成绩 Results</h2>"), "{plain}");
    assert!(plain.contains("<th>名次 Rank</th>"), "{plain}");

    let vi = export("html", Some("vi"));
    assert!(vi.contains("lang=\"vi\""), "{vi}");
    for want in [
        "· Vòng 1</title>",
        "<h2>Kết quả</h2>",
        "<th>Bàn</th><th>Đỏ</th>",
        "<h2>Xếp hạng sau vòng 1</h2>",
        "<th>Hạng</th>",
        "<h2>Bảng kết quả chéo</h2>",
    ] {
        assert!(vi.contains(want), "{want:?} not in {vi}");
    }
    assert!(!vi.contains("本轮成绩") && !vi.contains("Results"), "{vi}");
    let hant = export("html", Some("zh-Hant"));
    for want in [
        "lang=\"zh-Hant\"",
        "<h2>本輪成績</h2>",
        "<th>紅方</th>",
        "第1輪後排名",
    ] {
        assert!(hant.contains(want), "{want:?} not in {hant}");
    }
    assert!(!hant.contains("Results"), "{hant}");
    // The tie-break order in the page's language (lots always last); the
    // page without a language keeps its English names.
    assert!(plain.contains(" → lots</p>"), "{plain}");
    assert!(vi.contains(" → bốc thăm</p>"), "{vi}");
    assert!(hant.contains(" → 抽籤</p>"), "{hant}");
    for page in [&vi, &hant] {
        assert!(!page.contains("→ lots"), "{page}");
    }
    // The end reasons: each finished game's reason in the page's language
    // (the CSV's typed reason, worded by the catalogue).
    let csv = export("csv", Some("vi"));
    let mut rows = csv.lines();
    let head: Vec<&str> = rows.next().unwrap().split(',').collect();
    let at = |name: &str| head.iter().position(|h| *h == name).unwrap();
    assert_eq!(at("reason_text"), at("reason_zh") + 1, "{csv}");
    let mut reasons = 0;
    for row in rows.filter(|r| !r.is_empty()) {
        let cells: Vec<&str> = row.split(',').collect();
        let (typed, text_vi) = (cells[at("reason")], cells[at("reason_text")]);
        if typed.is_empty() {
            continue;
        }
        reasons += 1;
        assert_ne!(text_vi, typed, "{row}");
        assert!(
            vi.contains(&format!("<td>{text_vi}</td>")),
            "{text_vi} not in the page"
        );
    }
    assert!(reasons > 0, "no finished game in {csv}");
    assert!(!export("csv", None).contains("reason_text"));

    let pairings = export("pairings-html", Some("vi"));
    for want in [
        "Xếp cặp vòng 1 Round 1 pairings",
        "<h2>Theo bàn By table</h2>",
        "<th>Đối thủ Opponent</th>",
    ] {
        assert!(pairings.contains(want), "{want:?} not in {pairings}");
    }

    // The PGN comments quote the alerts and rulings in the export's
    // language (English without one); the moves are the same.
    let pgn = |lang: Option<&str>| -> String {
        let out_dir = dir.path().join(format!("pgn-{}", lang.unwrap_or("none")));
        let out_s = out_dir.to_str().unwrap().to_string();
        let mut args = vec![
            "export", "--data", data_s, "--round", "1", "--format", "pgn", "--out", &out_s,
        ];
        if let Some(l) = lang {
            args.extend(["--lang", l]);
        }
        let out = caipan(&args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        std::fs::read_to_string(out_dir.join("r1-t01.pgn")).unwrap()
    };
    let (pgn_en, pgn_vi) = (pgn(None), pgn(Some("vi")));
    assert!(pgn_en.contains("alert: table 1: "), "{pgn_en}");
    assert!(pgn_vi.contains("alert: bàn 1: "), "{pgn_vi}");
    assert!(!pgn_vi.contains("alert: table 1: "), "{pgn_vi}");
    let moves = |p: &str| -> Vec<String> {
        p.lines()
            .filter(|l| !l.starts_with('{'))
            .map(|l| l.split(" {").next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(moves(&pgn_en), moves(&pgn_vi));

    // The hall's own language, from the config copy the server keeps.
    let copy = data.join("hall-config.toml");
    let old = std::fs::read_to_string(&copy).unwrap();
    assert!(old.contains("[tournament]\n"), "{old}");
    std::fs::write(
        &copy,
        old.replacen("[tournament]\n", "[tournament]\nlanguage = \"vi\"\n", 1),
    )
    .unwrap();
    assert_eq!(
        export("html", None),
        vi,
        "the hall's language is the export's"
    );
    assert_eq!(
        export("html", Some("zh-Hant")),
        hant,
        "--lang is over the hall's"
    );
}
