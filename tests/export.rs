//! Post-round export end to end: a short round is played through a real
//! in-process server (QUIC table terminals sending real master games from
//! the data set, a chief's console ruling on claims), then every export
//! format is read back and checked: results agree with the games and the
//! server, the PGN files replay legally to the server's final positions,
//! standings and TRF agree, and the HTML page parses as XML. The tie-break
//! part is checked on a hand-worked round robin (constructed results), and
//! the command line (`caipan export`, `caipan pairings import`) is run.

mod support;

use std::path::{Path, PathBuf};

use config::{HallConfig, Pairing};
use export::{self, EndReason, Format, GameEnd, PlayedGame, Rendered};
use proto::{
    ClaimKind, ClaimStatus, Command, Decision, EventEnvelope, FoulCount, FoulKind, GameResult,
    IccsMove, Side, TableEvent,
};
use server::Server;
use support::{connect, Client, Hall, Round, Terminal, CHIEF};
use xiangqi::pgn::read_pgn;
use xiangqi::{Move, Position};

const BASE_MS: u64 = 80 * 60_000;
const INC_MS: u64 = 30_000;

const PLAYERS: [(&str, &str); 4] = [
    ("胡荣华", "许银川"),
    ("吕钦", "赵国荣 <B&B>"),
    ("徐天红", "柳大华"),
    ("李来群", "杨官璘"),
];

/// The hall: four tables with the players above, a table secret, round 1's
/// date; no `data_dir` (the export is given its data dir).
fn hall() -> Hall {
    let mut h = Hall::new("导出测试赛 \"Export\" & co", "127.0.0.1:0").with_tables(&PLAYERS);
    h.site = "上海".into();
    h.data_dir = false;
    h.table_secret = Some("export-table-secret-0123456789".into());
    h.rounds[0].date = Some("2026-11-29".into());
    h
}

fn config_text() -> String {
    hall().toml()
}

fn dataset_games(n: usize) -> Vec<Vec<Move>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/games/hu-ronghua-1391.pgn");
    let text = std::fs::read_to_string(&path).expect("the data set");
    read_pgn(&text)
        .expect("data set reads")
        .iter()
        .filter_map(|g| g.replay().ok())
        .filter(|g| g.start == Position::new() && g.moves.len() >= 50)
        .take(n)
        .map(|g| g.moves)
        .collect()
}

/// What the test expects of one table.
struct Expected {
    moves: Vec<Move>,
    clocks: Vec<u64>,
    used: [u64; 2],
    result: GameResult,
    reason: EndReason,
    fouls: [FoulCount; 2],
}

/// Waits for a pending claim of `kind` on `table` and accepts it (command `id`).
async fn accept_pending_claim(chief: &mut Client, id: u64, table: u16, kind: ClaimKind) {
    let claim = chief
        .claim_where(|c| c.table == table && c.kind == kind && c.status == ClaimStatus::Pending)
        .await;
    chief
        .command(
            id,
            Command::RuleOnClaim {
                table,
                claim_id: claim.id,
                decision: Decision::Accept,
            },
        )
        .await
        .expect("claim accepted");
}

/// Plays `moves` as clock presses; the mover thinks `7 s + 1 s x ply`.
async fn play(t: &mut Terminal, moves: &[Move]) -> (Vec<u64>, [u64; 2], [u64; 2]) {
    t.event(TableEvent::Arrived { side: Side::Red }).await;
    t.event(TableEvent::Arrived { side: Side::Black }).await;
    t.event(TableEvent::ClockStarted {
        red_ms: BASE_MS,
        black_ms: BASE_MS,
        terminal_mono_ms: 0,
    })
    .await;
    let mut left = [BASE_MS, BASE_MS];
    let mut used = [0u64; 2];
    let mut clocks = Vec::new();
    let mut mono = 0;
    for (ply, m) in moves.iter().enumerate() {
        let i = ply % 2;
        let think = 7_000 + 1_000 * ply as u64;
        mono += think;
        left[i] = left[i] - think + INC_MS;
        used[i] += think;
        clocks.push(left[i]);
        t.event(TableEvent::ClockPress {
            by: if i == 0 { Side::Red } else { Side::Black },
            mv: Some(IccsMove {
                from: m.from.index() as u8,
                to: m.to.index() as u8,
            }),
            red_ms: left[0],
            black_ms: left[1],
            terminal_mono_ms: mono,
        })
        .await;
    }
    (clocks, used, left)
}

fn side_to_move(plies: usize) -> Side {
    if plies % 2 == 0 {
        Side::Red
    } else {
        Side::Black
    }
}

/// Plays round 1 through a real server; returns the data dir's parent
/// (kept alive), the expectations and the server's final FENs by table.
async fn play_round(dir: &Path) -> (Vec<Expected>, Vec<String>) {
    let data = dir.join("data");
    let text = config_text();
    let config = HallConfig::from_toml_str(&text, dir, &|_| None).expect("config");
    // What the server runtime does at start (see export::stored).
    export::stored::note_hall_start(&data, &text, &config).expect("note hall start");
    let s = Server::start(config, &data).await.expect("server starts");
    let mut chief = connect(s.addr, s.fingerprint, CHIEF)
        .await
        .expect("chief connects");
    chief.subscribe().await;

    let games = dataset_games(4);
    let mut expected = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let table = i as u16 + 1;
        let plies = 30 + 3 * i;
        let moves = game[..plies].to_vec();
        let mut t = Terminal::open(s.addr, s.fingerprint, table).await;
        let (clocks, mut used, left) = play(&mut t, &moves).await;
        let to_move = side_to_move(plies);
        let mut fouls = [FoulCount::default(); 2];
        let (result, reason) = match table {
            1 => {
                t.event(TableEvent::Resign {
                    by: to_move,
                    reason: "lost material".into(),
                })
                .await;
                (GameResult::win_for(to_move.other()), EndReason::Resignation)
            }
            2 => {
                t.event(TableEvent::DrawOffer {
                    by: to_move.other(),
                })
                .await;
                t.event(TableEvent::DrawAccept { by: to_move }).await;
                (GameResult::Draw, EndReason::Agreement)
            }
            3 => {
                chief
                    .command(
                        10,
                        Command::AdjustClock {
                            table,
                            red_ms: left[0],
                            black_ms: left[1] + 60_000,
                            reason: "clock fault: one minute given back".into(),
                        },
                    )
                    .await
                    .expect("clock adjusted");
                for _ in 0..2 {
                    t.event(TableEvent::FoulReport {
                        side: Side::Black,
                        kind: FoulKind::Technical,
                        note: "touched a piece and moved another".into(),
                    })
                    .await;
                }
                fouls[1].technical = 2;
                accept_pending_claim(&mut chief, 11, table, ClaimKind::FoulThreshold).await;
                (GameResult::RedWins, EndReason::Fouls)
            }
            _ => {
                let i = if to_move == Side::Red { 0 } else { 1 };
                let (mut r, mut b) = (left[0], left[1]);
                used[i] += left[i];
                if i == 0 {
                    r = 0
                } else {
                    b = 0
                }
                t.event(TableEvent::FlagFell {
                    side: to_move,
                    red_ms: r,
                    black_ms: b,
                    terminal_mono_ms: 9_999_999,
                })
                .await;
                accept_pending_claim(&mut chief, 20, table, ClaimKind::FlagFall).await;
                (GameResult::win_for(to_move.other()), EndReason::Flag)
            }
        };
        expected.push(Expected {
            moves,
            clocks,
            used,
            result,
            reason,
            fouls,
        });
    }
    let view = s.snapshot().expect("hall view");
    let fens: Vec<String> = (1..=4u16)
        .map(|t| {
            view.tables
                .iter()
                .find(|v| v.table == t)
                .expect("table in view")
                .fen
                .clone()
        })
        .collect();
    for (t, v) in view.tables.iter().enumerate() {
        assert!(
            matches!(v.status, proto::TableStatus::Finished { .. }),
            "table {} not finished on the server: {:?}",
            t + 1,
            v.status
        );
    }
    s.shutdown().await.expect("clean shutdown");
    (expected, fens)
}

fn single(r: Rendered) -> String {
    match r {
        Rendered::Single(s) => s,
        Rendered::Files(_) => panic!("expected one document"),
    }
}

fn fen_after(moves: &[Move]) -> String {
    let mut p = Position::new();
    for m in moves {
        p.play(*m).expect("legal");
    }
    p.to_fen()
}

fn hms(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// Checks that `html` is well-formed XML (every element closed, entities valid).
fn assert_well_formed(html: &str) {
    let body = html
        .strip_prefix("<!DOCTYPE html>\n")
        .expect("doctype first");
    let mut reader = quick_xml::Reader::from_str(body);
    let mut depth = 0i32;
    let mut elements = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(_)) => {
                depth += 1;
                elements += 1;
            }
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(quick_xml::events::Event::Empty(_)) => elements += 1,
            Ok(quick_xml::events::Event::Text(t)) => {
                t.decode().expect("text decodes");
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!(
                "HTML is not well-formed at {}: {e}",
                reader.buffer_position()
            ),
        }
    }
    assert_eq!(depth, 0, "unclosed elements");
    assert!(elements > 50, "a real page, not an empty one");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_played_through_the_server_exports_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let (expected, fens) = play_round(dir.path()).await;
    let data = dir.path().join("data");
    if let Some(keep) = std::env::var_os("EXPORT_TEST_KEEP") {
        // For tests/oracle/export_pyffish.py and manual inspection: keep a
        // copy of the data dir (the store is closed: the server has stopped).
        let keep = PathBuf::from(keep);
        std::fs::create_dir_all(&keep).unwrap();
        for e in std::fs::read_dir(&data).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), keep.join(e.file_name())).unwrap();
        }
    }
    let config = export::stored::load_hall(&data, None).expect("config copy loads");
    assert!(
        !std::fs::read_to_string(data.join(export::stored::HALL_COPY_FILE))
            .unwrap()
            .contains(CHIEF),
        "the config copy holds no token of the hall"
    );

    // Results (JSON): every column against what was played.
    let json = single(export::render(&data, &config, 1, Format::Json, Default::default()).unwrap());
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON parses");
    let rows = doc["results"].as_array().expect("rows");
    assert_eq!(rows.len(), 4);
    for (i, (row, e)) in rows.iter().zip(&expected).enumerate() {
        let table = i + 1;
        assert_eq!(row["table"], table, "{row}");
        assert_eq!(row["red"], PLAYERS[i].0);
        assert_eq!(row["black"], PLAYERS[i].1);
        let (token, pts) = match e.result {
            GameResult::RedWins => ("1-0", (2, 0)),
            GameResult::BlackWins => ("0-1", (0, 2)),
            GameResult::Draw => ("1/2-1/2", (1, 1)),
            GameResult::BothLose => ("0-0", (0, 0)),
        };
        assert_eq!(row["result"], token, "table {table}: {row}");
        assert_eq!(row["reason"], e.reason.as_str(), "table {table}: {row}");
        assert_eq!(row["red_points"], pts.0);
        assert_eq!(row["black_points"], pts.1);
        assert_eq!(row["plies"], e.moves.len());
        assert_eq!(row["moves"], e.moves.len().div_ceil(2));
        assert_eq!(row["red_time_ms"], e.used[0], "table {table}");
        assert_eq!(row["black_time_ms"], e.used[1], "table {table}");
        assert_eq!(row["red_fouls"], e.fouls[0].technical);
        assert_eq!(row["black_fouls"], e.fouls[1].technical);
        assert_eq!(row["final_fen"], fens[i].as_str());
    }

    // Results (CSV): header + one line per table, quoted where needed.
    let csv = single(export::render(&data, &config, 1, Format::Csv, Default::default()).unwrap());
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 5, "{csv}");
    assert!(lines[0]
        .starts_with("round,table,red,red_id,red_team,black,black_id,black_team,result,reason"));
    assert!(
        lines[1].starts_with("1,1,胡荣华,,,许银川,,,"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains(",1/2-1/2,agreement,议和,1,1,"),
        "{}",
        lines[2]
    );
    assert!(lines[3].contains(",1-0,fouls,犯规,2,0,"), "{}", lines[3]);

    // PGN: one file per game; each replays legally to the server's position,
    // with the clock stamps sent and the arbiter's actions as comments.
    let Rendered::Files(files) =
        export::render(&data, &config, 1, Format::Pgn, Default::default()).unwrap()
    else {
        panic!("pgn is one file per game")
    };
    assert_eq!(files.len(), 4);
    for (i, ((name, text), e)) in files.iter().zip(&expected).enumerate() {
        let table = i + 1;
        assert_eq!(name, &format!("r1-t{table:02}.pgn"));
        let raw = read_pgn(text).expect("PGN reads");
        assert_eq!(raw.len(), 1);
        let g = raw[0].replay().expect("every move legal");
        assert_eq!(g.moves, e.moves, "table {table}");
        assert_eq!(g.end_position().to_fen(), fens[i], "table {table}");
        assert_eq!(g.end_position().to_fen(), fen_after(&e.moves));
        assert_eq!(g.tag("Game"), Some("Chinese Chess"));
        assert_eq!(g.tag("Round"), Some(format!("1.{table}").as_str()));
        assert_eq!(g.tag("Red"), Some(PLAYERS[i].0));
        assert_eq!(g.tag("Black"), Some(PLAYERS[i].1));
        assert_eq!(g.tag("Format"), Some("ICCS"));
        assert_eq!(g.tag("Date"), Some("2026.11.29"));
        assert_eq!(g.tag("TimeControl"), Some("4800+30"));
        assert_eq!(g.tag("FEN"), None);
        for (ply, clk) in e.clocks.iter().enumerate() {
            let c = g.comments[ply].as_deref().unwrap_or("");
            assert!(
                c.starts_with(&format!("[%clk {}]", hms(*clk))),
                "table {table} ply {ply}: {c:?}"
            );
        }
        let last = g.comments.last().cloned().flatten().unwrap_or_default();
        assert!(
            last.contains(&format!("end: {}", e.reason.as_str())),
            "{last}"
        );
        if table == 3 {
            assert!(
                text.contains("set clocks Red"),
                "arbiter adjustment noted: {text}"
            );
            assert!(
                text.contains("AXF-PLAY-5"),
                "the foul rule is cited: {text}"
            );
            assert!(text.contains("ruling by chief:王志明"), "{text}");
        }
    }

    // Standings after round 1 (Swiss: points, opponent score, ...).
    let st = single(
        export::render(&data, &config, 1, Format::StandingsJson, Default::default()).unwrap(),
    );
    let st: serde_json::Value = serde_json::from_str(&st).unwrap();
    let players = st["players"].as_array().unwrap();
    assert_eq!(players.len(), 8);
    let points = |name: &str| {
        players
            .iter()
            .find(|p| p["player"] == name)
            .map(|p| p["points"].as_u64().unwrap())
            .unwrap()
    };
    for (i, e) in expected.iter().enumerate() {
        let (r, b) = match e.result {
            GameResult::RedWins => (2, 0),
            GameResult::BlackWins => (0, 2),
            GameResult::Draw => (1, 1),
            GameResult::BothLose => (0, 0),
        };
        assert_eq!(points(PLAYERS[i].0), r);
        assert_eq!(points(PLAYERS[i].1), b);
    }
    assert_eq!(players[0]["points"], 2);
    assert_eq!(players[7]["points"], 0);

    // TRF: a 001 line per player with FIDE-style points and the round block.
    let trf = single(export::render(&data, &config, 1, Format::Trf, Default::default()).unwrap());
    let p001: Vec<&str> = trf.lines().filter(|l| l.starts_with("001 ")).collect();
    assert_eq!(p001.len(), 8, "{trf}");
    assert!(trf.starts_with("012 导出测试赛"));
    let hu = p001.iter().find(|l| l.contains("胡荣华")).unwrap();
    let chars: Vec<char> = hu.chars().collect();
    let col = |a: usize, b: usize| chars[a - 1..b].iter().collect::<String>();
    assert_eq!(col(5, 8), "   1");
    let hu_pts = if expected[0].result == GameResult::RedWins {
        " 1.0"
    } else {
        " 0.0"
    };
    assert_eq!(col(81, 84), hu_pts);
    assert_eq!(
        col(92, 99),
        "   2 w 1".replace(" 1", if hu_pts == " 1.0" { " 1" } else { " 0" })
    );

    // HTML: well-formed, names escaped.
    let html = single(export::render(&data, &config, 1, Format::Html, Default::default()).unwrap());
    assert_well_formed(&html);
    assert!(html.contains("赵国荣 &lt;B&amp;B&gt;"));
    assert!(!html.contains("<B&B>"));

    // The command line: pgn to a folder, csv to stdout, pgn without --out refused.
    let bin = env!("CARGO_BIN_EXE_caipan");
    let out_dir = dir.path().join("out");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .output()
            .expect("caipan runs")
    };
    let d = data.to_str().unwrap();
    let o = run(&[
        "export",
        "--data",
        d,
        "--round",
        "1",
        "--format",
        "pgn",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut written: Vec<PathBuf> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    written.sort();
    assert_eq!(written.len(), 4);
    assert_eq!(std::fs::read_to_string(&written[0]).unwrap(), files[0].1);
    let o = run(&["export", "--data", d, "--round", "1", "--format", "csv"]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8(o.stdout).unwrap(), csv);
    let o = run(&[
        "export", "--data", d, "--round", "1", "--format", "csv", "--bom",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        &o.stdout[..3],
        b"\xEF\xBB\xBF",
        "a UTF-8 byte-order mark first"
    );
    assert_eq!(String::from_utf8(o.stdout[3..].to_vec()).unwrap(), csv);
    let o = run(&["export", "--data", d, "--round", "1", "--format", "pgn"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
    let o = run(&["export", "--data", d, "--round", "2", "--format", "csv"]);
    assert!(!o.status.success(), "round 2 is not configured");
}

fn pairing(table: u32, red: &str, black: &str) -> Pairing {
    Pairing {
        table,
        red: red.into(),
        black: black.into(),
        red_team: None,
        black_team: None,
        red_id: None,
        black_id: None,
    }
}

fn finished(round: u32, p: Pairing, result: GameResult, fouls: [u32; 2]) -> PlayedGame {
    PlayedGame {
        round,
        pairing: p,
        start: Position::new(),
        moves: Vec::new(),
        clocks: Vec::new(),
        notes: Vec::new(),
        initial_notes: Vec::new(),
        end: Some(GameEnd {
            result,
            reason: EndReason::Arbiter,
            detail: String::new(),
            at_ms: 0,
        }),
        fouls: [
            FoulCount {
                technical: fouls[0],
                violations: 0,
            },
            FoulCount {
                technical: fouls[1],
                violations: 0,
            },
        ],
        time_used_ms: [0, 0],
        started_at_ms: None,
        final_position: Position::new(),
    }
}

fn rr_config(kind: &str, team: bool) -> HallConfig {
    let mut s = format!(
        "[tournament]\nname = \"RR\"\ndate = \"2026-12-01\"\nkind = \"{kind}\"\n{}[credentials]\ntable_secret = \"rr-secret-0123456789abcdef\"\n[credentials.chief]\nname = \"c\"\ntoken = \"rr-chief-0123456789abcdef\"\n",
        if team { "[tournament.team_match]\nboards = 2\n" } else { "" }
    );
    let rounds: [[(&str, &str); 2]; 3] = [
        [("A", "B"), ("C", "D")],
        [("A", "C"), ("B", "D")],
        [("D", "A"), ("B", "C")],
    ];
    for (i, r) in rounds.iter().enumerate() {
        s.push_str(&format!("[[round]]\nnumber = {}\n", i + 1));
        for (t, (red, black)) in r.iter().enumerate() {
            s.push_str(&format!(
                "[[round.table]]\ntable = {}\nred = \"{red}\"\nblack = \"{black}\"\n",
                t + 1
            ));
            if team {
                let team_of = |p: &str| if p == "A" || p == "D" { "X" } else { "Y" };
                s.push_str(&format!(
                    "red_team = \"{}\"\nblack_team = \"{}\"\n",
                    team_of(red),
                    team_of(black)
                ));
            }
        }
    }
    HallConfig::from_toml_str(&s, Path::new("."), &|_| None).expect("rr config")
}

/// The hand-worked round robin (4 players, 3 rounds):
/// R1 A-B 1-0, C-D 1-0; R2 A-C draw, B-D 1-0; R3 D-A 0-1, B-C `r3_bc`.
fn rr_games(r3_bc: GameResult, c_fouls_r2: u32) -> Vec<PlayedGame> {
    vec![
        finished(1, pairing(1, "A", "B"), GameResult::RedWins, [0, 0]),
        finished(1, pairing(2, "C", "D"), GameResult::RedWins, [0, 0]),
        finished(2, pairing(1, "A", "C"), GameResult::Draw, [0, c_fouls_r2]),
        finished(2, pairing(2, "B", "D"), GameResult::RedWins, [0, 0]),
        finished(3, pairing(1, "D", "A"), GameResult::BlackWins, [0, 0]),
        finished(3, pairing(2, "B", "C"), r3_bc, [0, 0]),
    ]
}

#[test]
fn round_robin_tie_breaks_match_the_hand_worked_example() {
    use rulebook::TieBreak;
    let config = rr_config("round_robin", false);
    // A: 2 + 1 + 2 = 5; C: 2 + 1 + 2 (wins with Black vs B) = 5; B: 0 + 2 + 0 = 2; D: 0.
    // A vs C drew: direct encounter 1-1. Opponent score (beaten + half of drawn):
    // A beat B (2) and D (0), drew C (5/2) = 4.5; C beat D (0), B (2), drew A = 4.5.
    // C has one technical foul: A is first by fewer technical fouls (AXF-RANK-1).
    let games = rr_games(GameResult::BlackWins, 1);
    let s = export::standings::compute(&config, &games, 3, Vec::new()).unwrap();
    let order: Vec<(&str, u32, u32)> = s
        .players
        .iter()
        .map(|r| (r.player.as_str(), r.rank, r.points))
        .collect();
    assert_eq!(
        order,
        vec![("A", 1, 5), ("C", 2, 5), ("B", 3, 2), ("D", 4, 0)]
    );
    assert_eq!(s.players[0].opponent_score_beaten_x2, 9);
    assert_eq!(s.players[1].opponent_score_beaten_x2, 9);
    assert_eq!(s.players[0].decided_by, Some(TieBreak::FewerTechnicalFouls));
    assert_eq!(s.rule_id, "AXF-RANK-1");

    // Without the foul, A's win with Black (R3 vs D) decides; C won B as Red here.
    let s = export::standings::compute(&config, &rr_games(GameResult::BlackWins, 0), 3, vec![])
        .unwrap();
    // C won with Black against B too: still tied on black wins -> lots decide
    // (the champion is never shared).
    assert_eq!(s.players[0].points, 5);
    assert_eq!(s.players[0].decided_by, Some(TieBreak::Lots));
    assert!(!s.players[0].shared);
    // Make C's R3 win a Red win: B-C becomes C-B 1-0 in effect (C is Red).
    let mut g = rr_games(GameResult::BlackWins, 0);
    g[5] = finished(3, pairing(2, "C", "B"), GameResult::RedWins, [0, 0]);
    let s = export::standings::compute(&config, &g, 3, vec![]).unwrap();
    assert_eq!(s.players[0].player, "A");
    assert_eq!(s.players[0].decided_by, Some(TieBreak::MoreBlackWins));

    // Points round robin: opponent score over all opponents first (A 7, C 7),
    // then direct encounter (1-1), then fouls.
    let config = rr_config("points_round_robin", false);
    let s = export::standings::compute(&config, &rr_games(GameResult::BlackWins, 1), 3, vec![])
        .unwrap();
    assert_eq!(s.players[0].player, "A");
    assert_eq!(s.players[0].opponent_score_all, 7);
    assert_eq!(s.players[0].decided_by, Some(TieBreak::FewerTechnicalFouls));
    assert_eq!(s.rule_id, "AXF-RANK-2");

    // HTML and TRF of the example.
    let html = export::html::to_html(&config, 3, &games[4..], &games, &s, None);
    assert_well_formed(&html);
    let trf = export::trf::to_trf(&config, &games, &s, 3, &[1, 2, 3]);
    let a = trf.lines().find(|l| l.starts_with("001    1")).unwrap();
    // A: start rank 1, 2.5 FIDE points, rank 1; R1 vs B(2) as Red won, R2 vs C(3) Red draw,
    // R3 vs D(4) as Black won.
    assert!(a.contains(" 2.5    1  "), "{a}");
    assert!(a.ends_with("  2 w 1     3 w =     4 b 1"), "{a}");
}

#[test]
fn team_match_scores() {
    let config = rr_config("round_robin", true);
    // Team X = A, D; team Y = B, C. Round 1: A-B 1-0 (X), C-D 1-0 (Y): board
    // points 2-2, a drawn match (1 match point each). Round 2: A-C draw, B-D
    // 1-0 (Y): board points X 1, Y 3, Y wins (2). Y: 3 match points, 5 board
    // points; X: 1 and 3 (AXF-SCORE-3).
    let mut games = rr_games(GameResult::BlackWins, 0);
    for g in &mut games {
        // The pairings with their teams, as the export takes them from the config.
        g.pairing = config.round(g.round).unwrap().tables[g.pairing.table as usize - 1].clone();
    }
    let s = export::standings::compute(&config, &games, 2, vec![]).unwrap();
    let teams = s.teams.expect("team standings");
    let t: Vec<(&str, u32, u32, u32, u32)> = teams
        .iter()
        .map(|t| {
            (
                t.team.as_str(),
                t.rank,
                t.match_points,
                t.board_points,
                t.matches,
            )
        })
        .collect();
    assert_eq!(t, vec![("Y", 1, 3, 5, 2), ("X", 2, 1, 3, 2)]);
}

/// Two rounds in one data dir, written to the real store with the records
/// the runtime writes (table events, an arbiter's command): each round's
/// export sees only its own records, and the standings after round 2
/// count both rounds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rounds_sharing_a_data_dir_are_exported_apart() {
    use hall::record::Record;
    use proto::roles::{Author, RoleKind};
    use store::{AuditOutcome, AuditRecord, EventKey, NewEvent, OpenOptions, SqliteStore, Store};
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // Round 2: the same players, colours reversed.
    let mut h = hall();
    let reversed: Vec<(&str, &str)> = PLAYERS.iter().map(|&(r, b)| (b, r)).collect();
    let mut round2 = Round::new(2, &reversed);
    round2.date = Some("2026-11-30".into());
    h.rounds.push(round2);
    let text = h.toml();
    let games = dataset_games(2);
    for round in 1..=2u32 {
        let round_text = text.replace("current_round = 1", &format!("current_round = {round}"));
        let config = HallConfig::from_toml_str(&round_text, dir.path(), &|_| None).unwrap();
        export::stored::note_hall_start(&data, &round_text, &config).unwrap();
        let store = SqliteStore::open(&data, OpenOptions::new(config.hall_id())).unwrap();
        let mut seq = 0u64;
        let mut events = Vec::new();
        let moves = &games[round as usize - 1][..20];
        let mut ev = |table: u16, body: TableEvent| {
            seq += 1;
            let env = EventEnvelope {
                table,
                epoch: round,
                seq,
                body,
            };
            NewEvent {
                key: EventKey {
                    table: u32::from(table),
                    epoch: round,
                    seq,
                },
                kind: "event".into(),
                payload: Record::Event(env).encode().unwrap(),
                received_at_ms: 1_000 + seq as i64,
            }
        };
        for (ply, m) in moves.iter().enumerate() {
            events.push(ev(
                1,
                TableEvent::Move {
                    by: side_to_move(ply),
                    mv: IccsMove {
                        from: m.from.index() as u8,
                        to: m.to.index() as u8,
                    },
                },
            ));
        }
        // Table 1: Black resigns (round 1) / Red resigns (round 2).
        let loser = if round == 1 { Side::Black } else { Side::Red };
        events.push(ev(
            1,
            TableEvent::Resign {
                by: loser,
                reason: "test".into(),
            },
        ));
        store.append_batch(events).await.unwrap();
        // Table 2: the chief sets a draw.
        let cmd = Record::Command {
            author: Author::new(RoleKind::Chief, "王志明"),
            command: Command::SetResult {
                table: 2,
                result: GameResult::Draw,
                reason: "both players agreed before the start".into(),
            },
        };
        store
            .append_audit(AuditRecord {
                who: "chief:王志明".into(),
                action: "set_result".into(),
                table: Some(2),
                payload: cmd.encode().unwrap(),
                at_ms: 5_000,
                outcome: AuditOutcome::Accepted,
                action_msg: None,
                why_msg: None,
            })
            .await
            .unwrap();
        drop(store);
    }
    let starts = export::stored::rounds_started(&data).unwrap();
    assert_eq!(starts.len(), 2);
    assert_eq!(starts[0].first_gseq, 1);
    assert_eq!(
        starts[1].first_gseq, 23,
        "after 22 records: 20 moves, a resignation, a command"
    );
    let config = export::stored::load_hall(&data, None).unwrap();
    for round in 1..=2u32 {
        let g = export::load_round(&data, &config, round).unwrap();
        assert_eq!(g.len(), 4);
        assert_eq!(
            g[0].moves,
            games[round as usize - 1][..20].to_vec(),
            "round {round}"
        );
        let end = g[0].end.as_ref().expect("table 1 over");
        assert_eq!(end.reason, EndReason::Resignation);
        let winner = if round == 1 {
            GameResult::RedWins
        } else {
            GameResult::BlackWins
        };
        assert_eq!(end.result, winner, "胡荣华 wins as Red, then as Black");
        let end2 = g[1].end.as_ref().expect("table 2 over");
        assert_eq!(
            (end2.result, end2.reason),
            (GameResult::Draw, EndReason::Arbiter)
        );
        assert!(
            g[2].end.is_none() && g[2].moves.is_empty(),
            "table 3 not played"
        );
    }
    // Standings after round 2: 胡荣华 won both games (4 points).
    let s = single(
        export::render(&data, &config, 2, Format::StandingsJson, Default::default()).unwrap(),
    );
    let s: serde_json::Value = serde_json::from_str(&s).unwrap();
    assert_eq!(s["players"][0]["player"], "胡荣华");
    assert_eq!(s["players"][0]["points"], 4);
    assert_eq!(s["players"][0]["games"], 2);
    assert_eq!(s["missing_rounds"].as_array().unwrap().len(), 0);
    // A round that was never started in this data dir is refused.
    let mut t3 = text.clone();
    t3.push_str("[[round]]\nnumber = 3\n[[round.table]]\ntable = 1\nred = \"a\"\nblack = \"b\"\n");
    let c3 = HallConfig::from_toml_str(&t3, dir.path(), &|_| None).unwrap();
    let err = export::load_round(&data, &c3, 3).unwrap_err().to_string();
    assert!(err.contains("round 3") && err.contains("1, 2"), "{err}");
}

#[test]
fn pairings_import_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_caipan");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .output()
            .expect("caipan runs")
    };
    let cfg = dir.path().join("hall.toml");
    std::fs::write(&cfg, format!("# keep this comment\n{}", config_text())).unwrap();
    let csv = dir.path().join("r2.csv");
    std::fs::write(
        &csv,
        "round,table,red,black\n2,1,许银川,胡荣华\n2,2,\"赵国荣 <B&B>\",吕钦\n2,3,柳大华,徐天红\n2,4,杨官璘,李来群\n",
    )
    .unwrap();
    let import_into_config = || {
        run(&[
            "pairings",
            "import",
            csv.to_str().unwrap(),
            "--config",
            cfg.to_str().unwrap(),
        ])
    };
    // To stdout as TOML.
    let o = run(&["pairings", "import", csv.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let toml = String::from_utf8(o.stdout).unwrap();
    assert!(toml.contains("[[round]]\nnumber = 2"), "{toml}");
    // Into the config: round 2 added, the config still loads, comments kept.
    let o = import_into_config();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&cfg).unwrap();
    assert!(text.starts_with("# keep this comment"));
    let c = HallConfig::load(&cfg).unwrap();
    let r2 = c.round(2).expect("round 2");
    assert_eq!(r2.tables.len(), 4);
    assert_eq!(r2.tables[1].red, "赵国荣 <B&B>");
    assert_eq!(c.round(1).unwrap().tables[0].red, "胡荣华", "round 1 kept");
    // Bad rows: every problem with its line and column; nothing written.
    std::fs::write(
        &csv,
        "round,table,red,black\n2,1,A,B\n2,1,C,D\n2,2,,E\n2,3,A,F\n",
    )
    .unwrap();
    let before = std::fs::read_to_string(&cfg).unwrap();
    let o = import_into_config();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 3, column table: table 1 of round 2 is also on line 2"),
        "{err}"
    );
    assert!(
        err.contains("line 4, column red: empty player name"),
        "{err}"
    );
    assert!(
        err.contains("line 5, column red: A already plays in round 2 (line 2)"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&cfg).unwrap(), before);
}

/// The console's export (`E`, `Command::ExportRound`): the chief's command
/// writes every format of the current round into
/// `<data_dir>/exports/round-1/`, the same files and content as
/// `export::render`; it is audited; a second export overwrites; a deputy is
/// refused by the role check and nothing is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chief_exports_the_round_from_the_console() {
    use std::collections::BTreeMap;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut h = hall();
    h.deputy = Some((support::DEPUTY.into(), vec![1, 2]));
    let text = h.toml();
    let config = HallConfig::from_toml_str(&text, dir.path(), &|_| None).expect("config");
    export::stored::note_hall_start(&data, &text, &config).expect("note hall start");
    let s = Server::start(config.clone(), &data)
        .await
        .expect("server starts");
    let mut chief = support::chief(&s).await;
    let folder = server::export::command::round_folder(&data, 1);

    // A short game at table 1: 12 plies of a master game, then Red resigns.
    let game = &dataset_games(1)[0];
    let mut t = Terminal::open(s.addr, s.fingerprint, 1).await;
    play(&mut t, &game[..12]).await;
    t.event(TableEvent::Resign {
        by: Side::Red,
        reason: "lost material".into(),
    })
    .await;

    // The deputy may not export: refused by the role check, nothing written.
    let mut deputy = connect(s.addr, s.fingerprint, support::DEPUTY)
        .await
        .expect("deputy connects");
    let (code, why) = deputy
        .command(1, Command::ExportRound)
        .await
        .expect_err("a deputy's export is refused");
    assert!(
        matches!(code, proto::ErrorCode::Forbidden),
        "{code:?}: {why}"
    );
    assert!(!folder.exists(), "a refused export writes nothing");

    let note = chief
        .command(20, Command::ExportRound)
        .await
        .expect("the chief exports");
    assert!(
        note.contains(&folder.display().to_string()),
        "the reply names the folder: {note}"
    );
    // Tables 2 to 4 have not played: the report leaves the round out, and
    // the reply says so.
    assert!(
        note.contains("; warning: report.trf leaves out round 1 (tables ")
            && note.contains(" not finished)"),
        "the reply warns of the round left out: {note}"
    );

    // What export::render gives for the round, file by file.
    let expected = || {
        let mut files = BTreeMap::new();
        for (_, format) in Format::ALL {
            let options = export::RenderOptions {
                allow_unfinished: true,
                ..Default::default()
            };
            match export::render(&data, &config, 1, *format, options).expect("renders") {
                Rendered::Single(text) => {
                    files.insert(
                        server::export::command::file_name(*format).to_string(),
                        text,
                    );
                }
                Rendered::Files(many) => files.extend(many),
            }
        }
        files
    };
    let on_disk = || -> BTreeMap<String, String> {
        std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().into_string().unwrap();
                (name, std::fs::read_to_string(e.path()).unwrap())
            })
            .collect()
    };
    let want = expected();
    assert_eq!(on_disk(), want, "the folder holds what render gives");
    assert!(
        note.contains(&format!("{} files", want.len())),
        "the reply counts the files: {note}"
    );
    // A real export: table 1's PGN with its moves and result, the results
    // with its players.
    let pgn = want.get("r1-t01.pgn").expect("a PGN for table 1");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(want["results.csv"].contains("胡荣华"));

    // Audited like any other command: the chief's export and the deputy's refusal.
    let audit = s.snapshot().unwrap().audit;
    assert!(
        audit
            .iter()
            .any(|a| a.what == "export the round" && a.refused.is_none()),
        "{audit:?}"
    );
    assert!(
        audit
            .iter()
            .any(|a| a.what == "export the round" && a.refused.is_some()),
        "{audit:?}"
    );

    // A second export after another move overwrites, leaving no temp file.
    let mut t2 = Terminal::open(s.addr, s.fingerprint, 2).await;
    play(&mut t2, &game[..4]).await;
    let again = chief
        .command(21, Command::ExportRound)
        .await
        .expect("second export");
    let want2 = expected();
    assert_ne!(want2, want, "table 2's game changed the export");
    assert_eq!(on_disk(), want2, "the second export overwrote the first");
    assert!(again.contains(&format!("{} files", want2.len())), "{again}");

    // A failed write (a file where the exports folder goes) is an error
    // reply naming what failed; the server goes on and the next export works.
    let exports = data.join(server::export::command::EXPORTS_DIR);
    std::fs::remove_dir_all(&exports).unwrap();
    std::fs::write(&exports, "in the way").unwrap();
    let (code, why) = chief
        .command(22, Command::ExportRound)
        .await
        .expect_err("the export cannot write");
    assert_eq!(code, proto::ErrorCode::Internal, "{why}");
    assert!(
        why.contains("export failed") && why.contains("exports"),
        "{why}"
    );
    std::fs::remove_file(&exports).unwrap();
    chief
        .command(23, Command::ExportRound)
        .await
        .expect("the server still exports");
    assert_eq!(on_disk(), expected());
}

/// Two rounds of four players with registration ids, two of them both
/// named 王伟; round 2 table 2 optionally unfinished.
fn id_config() -> HallConfig {
    let mut s = String::from(
        "[tournament]\nname = \"TRF 测试\"\nsite = \"Beijing\"\ndate = \"2026-12-01\"\nkind = \"swiss\"\nrounds_planned = 3\nfederation = \"CHN\"\n[time_control]\nbase_minutes = 60\nincrement_seconds = 30\n[credentials]\ntable_secret = \"trf-secret-0123456789abcdef\"\n[credentials.chief]\nname = \"王志明\"\ntoken = \"trf-chief-0123456789abcdef\"\n",
    );
    let rounds = [
        (
            "2026-12-01",
            [
                ("王伟", "11000001", "李强", "11000002"),
                ("王伟", "21000003", "赵敏", "CHN-0004"),
            ],
        ),
        (
            "2026-12-02",
            [
                ("王伟", "21000003", "王伟", "11000001"),
                ("李强", "11000002", "赵敏", "CHN-0004"),
            ],
        ),
    ];
    for (i, (date, tables)) in rounds.iter().enumerate() {
        s.push_str(&format!(
            "[[round]]\nnumber = {}\ndate = \"{date}\"\n",
            i + 1
        ));
        for (t, (red, red_id, black, black_id)) in tables.iter().enumerate() {
            s.push_str(&format!(
                "[[round.table]]\ntable = {}\nred = \"{red}\"\nred_id = \"{red_id}\"\nblack = \"{black}\"\nblack_id = \"{black_id}\"\n",
                t + 1
            ));
        }
    }
    HallConfig::from_toml_str(&s, Path::new("."), &|_| None).expect("id config")
}

fn id_games(config: &HallConfig, round2_table2_done: bool) -> Vec<PlayedGame> {
    let p =
        |round: u32, table: u32| config.round(round).unwrap().tables[table as usize - 1].clone();
    let mut games = vec![
        finished(1, p(1, 1), GameResult::RedWins, [0, 0]),
        finished(1, p(1, 2), GameResult::Draw, [0, 0]),
        finished(2, p(2, 1), GameResult::BlackWins, [0, 0]),
        finished(2, p(2, 2), GameResult::RedWins, [0, 0]),
    ];
    if !round2_table2_done {
        games[3].end = None;
    }
    games
}

#[test]
fn trf_matches_its_golden_file() {
    let config = id_config();
    let trf = export::trf::report(
        &config,
        id_games(&config, true),
        Vec::new(),
        2,
        Default::default(),
    )
    .expect("all finished");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/golden/two-rounds.trf");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &trf).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("the golden file");
    assert_eq!(
        trf, golden,
        "TRF differs from tests/data/golden/two-rounds.trf (UPDATE_GOLDEN=1 rewrites it)"
    );

    // The columns the specification gives, checked apart from the file.
    let line = |tag: &str| trf.lines().find(|l| l.starts_with(tag)).unwrap_or_default();
    let col =
        |l: &str, a: usize, b: usize| l.chars().skip(a - 1).take(b + 1 - a).collect::<String>();
    assert_eq!(line("032"), "032 CHN");
    assert_eq!(line("122"), "122 3600+30");
    assert_eq!(line("142"), "142 3");
    let dates = line("132");
    assert_eq!(col(dates, 92, 99), "26/12/01");
    assert_eq!(col(dates, 102, 109), "26/12/02");
    // Two players named 王伟 stay two, each with their id in 58-68.
    let wangs: Vec<&str> = trf
        .lines()
        .filter(|l| l.starts_with("001") && l.contains("王伟"))
        .collect();
    assert_eq!(wangs.len(), 2, "{trf}");
    assert_eq!(col(wangs[0], 58, 68), "   11000001");
    assert_eq!(col(wangs[1], 58, 68), "   21000003");
    // Start rank 1 (王伟 11000001) beat 李强 in round 1 with Red and beat
    // the other 王伟 (start rank 3) with Black in round 2.
    assert_eq!(col(wangs[0], 92, 99), "   2 w 1");
    assert_eq!(col(wangs[0], 102, 109), "   3 b 1");
    assert_eq!(col(wangs[0], 81, 84), " 2.0");
}

#[test]
fn trf_refuses_an_unfinished_game_or_leaves_its_round_out() {
    let config = id_config();
    let err = export::trf::report(
        &config,
        id_games(&config, false),
        Vec::new(),
        2,
        Default::default(),
    )
    .expect_err("a blank result is refused");
    let msg = err.to_string();
    assert!(msg.contains("round 2 table 2"), "{msg}");
    assert!(msg.contains("--allow-unfinished"), "{msg}");

    let options = export::RenderOptions {
        allow_unfinished: true,
        ..Default::default()
    };
    let trf = export::trf::report(&config, id_games(&config, false), Vec::new(), 2, options)
        .expect("round 2 left out");
    for l in trf.lines().filter(|l| l.starts_with("001")) {
        assert!(l.chars().count() <= 99, "only round 1's block: {l:?}");
        assert!(!l.ends_with(' '));
    }
    let dates = trf.lines().find(|l| l.starts_with("132")).unwrap();
    assert!(dates.ends_with("26/12/01"), "{dates:?}");
    // The standings behind it count round 1 alone: 1.0 for the winner.
    let first = trf.lines().find(|l| l.starts_with("001    1")).unwrap();
    assert_eq!(first.chars().skip(80).take(4).collect::<String>(), " 1.0");
}

#[test]
fn players_are_keyed_by_id_in_results_and_standings() {
    let config = id_config();
    let games = id_games(&config, true);
    let s = export::standings::compute(&config, &games, 2, Vec::new()).unwrap();
    assert_eq!(s.players.len(), 4, "two 王伟 are two players");
    let csv = export::standings::to_csv(&s);
    assert!(csv.starts_with("rank,shared,player,id,points,"), "{csv}");
    assert_eq!(csv.matches(",王伟,").count(), 2, "{csv}");
    assert!(csv.contains(",王伟,21000003,"), "{csv}");
    let rows = export::results::rows(&games);
    let results = export::results::to_csv(&rows, None);
    assert!(
        results.contains(",王伟,21000003,,王伟,11000001,"),
        "{results}"
    );
}

#[test]
fn the_command_line_writes_a_bom_and_refuses_it_for_other_formats() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    // An empty data dir with a config: the store check fails after the
    // flags are read, so the flag errors come first.
    let bin = env!("CARGO_BIN_EXE_caipan");
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).output().unwrap();
    let d = data.to_str().unwrap();
    let o = run(&[
        "export", "--data", d, "--round", "1", "--format", "pgn", "--bom",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--bom is for the CSV formats"));
    let o = run(&["export", "--data", d, "--round", "1", "--format", "xls"]);
    assert_eq!(o.status.code(), Some(2), "clap refuses an unknown format");
    assert!(String::from_utf8_lossy(&o.stderr).contains("standings-csv"));
}
