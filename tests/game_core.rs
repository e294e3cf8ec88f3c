//! End-to-end tests of the game core (issue 2): the real 1,391-game data set
//! replays cleanly through `caipan verify`, every one of its moves survives
//! ICCS → Chinese → ICCS and ICCS → WXF → ICCS, PGN round-trips in every
//! notation, and corrupted copies of real games (an illegal move, a piece moved
//! through a screen, a king leaving the palace) or unreadable files make
//! `verify` fail with the right exit code and name the move or the line.
//!
//! The data set is the repository's own data/games/ (found from crates/caipan).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xiangqi::pgn::{read_pgn, write_pgn, Format, Game};
use xiangqi::{
    parse_chinese, parse_iccs, parse_wxf, to_chinese, to_iccs, to_wxf, Color, Move, Position, Role,
    Square,
};

fn dataset_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/games/hu-ronghua-1391.pgn")
}

fn dataset_text() -> String {
    std::fs::read_to_string(dataset_path()).expect("the data set data/games/hu-ronghua-1391.pgn")
}

/// All games of the data set, replayed.
fn dataset_games() -> Vec<Game> {
    read_pgn(&dataset_text())
        .expect("data set parses")
        .iter()
        .map(|g| g.replay().expect("data set game replays"))
        .collect()
}

fn caipan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(args)
        .output()
        .expect("run caipan")
}

fn verify_file(path: &Path) -> (i32, String, String) {
    let out = caipan(&["verify", path.to_str().expect("utf-8 temp path")]);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_pgn(content: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(".pgn")
        .tempfile()
        .expect("temp file");
    f.write_all(content).expect("write temp file");
    f.flush().expect("flush");
    f
}

/// A game in the data set's form (tags, numbered ICCS moves) with its moves
/// given explicitly, so that a corrupted move can be put in.
fn dataset_form(game: &Game, moves: &[Move]) -> String {
    let mut s = String::new();
    for (n, v) in &game.tags {
        s.push_str(&format!("[{n} \"{v}\"]\n"));
    }
    s.push('\n');
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(&to_iccs(*m));
        s.push(' ');
    }
    s.push_str("\n\n");
    s
}

#[test]
fn verify_accepts_the_whole_data_set() {
    let games = dataset_games();
    assert_eq!(games.len(), 1391);
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    assert!(plies > 50_000, "{plies} plies");
    let (code, stdout, stderr) = verify_file(&dataset_path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(
        stdout.trim(),
        format!("1391 games, {plies} moves, 0 illegal")
    );
}

#[test]
fn every_data_set_move_roundtrips_through_chinese_and_wxf() {
    let mut checked = 0usize;
    let mut tandem = 0usize;
    for (gi, game) in dataset_games().iter().enumerate() {
        let mut pos = game.start.clone();
        for &m in &game.moves {
            let iccs = to_iccs(m);
            assert_eq!(parse_iccs(&iccs).unwrap(), m);
            let wxf = to_wxf(&pos, m);
            let chinese = to_chinese(&pos, m);
            let ctx = || {
                format!(
                    "game {} {} {iccs} wxf {wxf} chinese {chinese}",
                    gi + 1,
                    pos.to_fen()
                )
            };
            assert_eq!(
                parse_wxf(&pos, &wxf).unwrap_or_else(|e| panic!("{}: {e}", ctx())),
                m,
                "{}",
                ctx()
            );
            assert_eq!(
                parse_chinese(&pos, &chinese).unwrap_or_else(|e| panic!("{}: {e}", ctx())),
                m,
                "{}",
                ctx()
            );
            if wxf.contains(['+', '-']) && !wxf[1..].starts_with(|c: char| c.is_ascii_digit()) {
                tandem += 1;
            }
            pos.play(m).unwrap();
            checked += 1;
        }
    }
    assert!(checked > 50_000);
    // Real games do double up rooks, cannons, horses and pawns on a file.
    assert!(tandem > 100, "only {tandem} tandem moves");
}

#[test]
fn data_set_games_roundtrip_through_pgn_in_every_format() {
    let games = dataset_games();
    let sample: Vec<&Game> = games.iter().step_by(25).collect();
    for format in [Format::Iccs, Format::Wxf, Format::Chinese] {
        let mut text = String::new();
        for g in &sample {
            text.push_str(&write_pgn(g, format));
            text.push('\n');
        }
        let back = read_pgn(&text).unwrap();
        assert_eq!(back.len(), sample.len());
        for (g, raw) in sample.iter().zip(&back) {
            assert_eq!(raw.format(), Some(format));
            let g2 = raw.replay().unwrap_or_else(|e| panic!("{format:?}: {e}"));
            assert_eq!(g2.moves, g.moves);
            assert_eq!(g2.tag("Red"), g.tag("Red"));
        }
    }
}

/// Finds, in the data set, the first ply at which `corrupt` offers a
/// replacement move, and returns (game, ply, replacement).
fn find_corruption(
    games: &[Game],
    corrupt: impl Fn(&Position) -> Option<Move>,
) -> (usize, usize, Move) {
    for (gi, g) in games.iter().enumerate() {
        let mut pos = g.start.clone();
        for (ply, &m) in g.moves.iter().enumerate() {
            if let Some(bad) = corrupt(&pos) {
                assert!(!pos.is_legal(bad));
                return (gi, ply, bad);
            }
            pos.play(m).unwrap();
        }
    }
    panic!("no position in the data set allows this corruption");
}

/// Writes games `gi-1, gi, gi+1` with move `ply` of game `gi` replaced, runs
/// verify and checks it names game 2 and the move.
fn assert_verify_names(games: &[Game], gi: usize, ply: usize, bad: Move, why: &str) {
    let gi = gi.max(1);
    let mut text = dataset_form(&games[gi - 1], &games[gi - 1].moves);
    let mut moves = games[gi].moves.clone();
    moves[ply] = bad;
    text.push_str(&dataset_form(&games[gi], &moves));
    text.push_str(&dataset_form(&games[gi + 1], &games[gi + 1].moves));
    let f = temp_pgn(text.as_bytes());
    let (code, stdout, stderr) = verify_file(f.path());
    assert_eq!(code, 3, "{why}: stdout {stdout} stderr {stderr}");
    let number = ply / 2 + 1;
    let dots = if ply % 2 == 0 { "." } else { "..." };
    let want = format!("game 2 [Event {:?}]", games[gi].tag("Event").unwrap_or(""));
    assert!(stderr.contains(&want), "{why}: {stderr}");
    let want = format!("move {number}{dots} {bad} ");
    assert!(stderr.contains(&want), "{why}: wanted {want:?} in {stderr}");
    assert!(
        stderr.contains("is not legal: illegal: "),
        "{why}: {stderr}"
    );
    assert!(stdout.starts_with("3 games, "), "{why}: {stdout}");
    assert!(stdout.trim().ends_with("1 illegal"), "{why}: {stdout}");
}

#[test]
fn verify_names_a_move_changed_to_an_illegal_one() {
    let games = dataset_games();
    // Ply 10 of game 2: move the piece that really moved to the first square it
    // cannot legally reach (for instance back onto one of its own pieces).
    let gi = 1;
    let ply = 10;
    let mut pos = games[gi].start.clone();
    for &m in &games[gi].moves[..ply] {
        pos.play(m).unwrap();
    }
    let real = games[gi].moves[ply];
    let bad = Square::all()
        .map(|to| Move::new(real.from, to))
        .find(|&m| m.to != m.from && !pos.is_legal(m))
        .unwrap();
    assert_verify_names(&games, gi, ply, bad, "illegal move");
}

/// A rook of the side to move jumping over exactly one piece (a screen) to an
/// empty square or an enemy piece: legal for no piece but a capturing cannon.
fn rook_through_screen(pos: &Position) -> Option<Move> {
    for (from, piece) in pos.pieces() {
        if piece.color != pos.turn() || piece.role != Role::Rook {
            continue;
        }
        for (df, dr) in [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)] {
            let mut screens = 0;
            let (mut f, mut r) = (from.file() as i8, from.rank() as i8);
            loop {
                f += df;
                r += dr;
                let Some(sq) = (f >= 0 && r >= 0)
                    .then(|| Square::new(f as u8, r as u8))
                    .flatten()
                else {
                    break;
                };
                match pos.piece_at(sq) {
                    None if screens == 1 => return Some(Move::new(from, sq)),
                    None => {}
                    Some(_) if screens == 0 => screens = 1,
                    Some(p) if p.color != piece.color => return Some(Move::new(from, sq)),
                    Some(_) => break,
                }
            }
        }
    }
    None
}

#[test]
fn verify_names_a_piece_moved_through_a_screen() {
    let games = dataset_games();
    let (gi, ply, bad) = find_corruption(&games[1..games.len() - 1], rook_through_screen);
    assert_verify_names(&games, gi + 1, ply, bad, "rook through a screen");
}

/// The king of the side to move stepping sideways out of the palace.
fn king_out_of_palace(pos: &Position) -> Option<Move> {
    let k = pos.king_square(pos.turn());
    let out = match k.file() {
        3 => 2,
        5 => 6,
        _ => return None,
    };
    let to = Square::new(out, k.rank())?;
    match pos.piece_at(to) {
        Some(p) if p.color == pos.turn() => None,
        _ => Some(Move::new(k, to)),
    }
}

#[test]
fn verify_names_a_king_leaving_the_palace() {
    let games = dataset_games();
    let (gi, ply, bad) = find_corruption(&games[1..games.len() - 1], king_out_of_palace);
    assert_verify_names(&games, gi + 1, ply, bad, "king out of the palace");
    // And the same corruption written in Chinese, xqbase style.
    let gi = gi + 1;
    let mut game = games[gi].clone();
    game.moves.truncate(ply);
    let mut text = write_pgn(&game, Format::Chinese);
    let mut pos = game.start.clone();
    for &m in &game.moves {
        pos.play(m).unwrap();
    }
    let king = xiangqi::Piece::new(pos.turn(), Role::King).name_zh();
    let (from, to) = (bad.from.file(), bad.to.file());
    let own = |f: u8| match pos.turn() {
        Color::Red => {
            ['一', '二', '三', '四', '五', '六', '七', '八', '九'][usize::from(8 - f)].to_string()
        }
        Color::Black => (f + 1).to_string(),
    };
    let bad_text = format!("{king}{}平{}", own(from), own(to));
    let number = ply / 2 + 1;
    text = text.trim_end().to_string();
    if ply % 2 == 0 {
        text.push_str(&format!(" {number}. {bad_text}\n"));
    } else if game.moves.is_empty() {
        text.push_str(&format!(" {number}... {bad_text}\n"));
    } else {
        text.push_str(&format!(" {bad_text}\n"));
    }
    let f = temp_pgn(text.as_bytes());
    let (code, _, stderr) = verify_file(f.path());
    assert_eq!(code, 3, "{text}\n{stderr}");
    let dots = if ply % 2 == 0 { "." } else { "..." };
    assert!(stderr.contains("game 1 "), "{stderr}");
    assert!(
        stderr.contains(&format!("move {number}{dots} {bad_text} ")),
        "{stderr}"
    );
    assert!(stderr.contains("the piece cannot move there"), "{stderr}");
}

#[test]
fn verify_exits_4_naming_the_line_of_an_unreadable_file() {
    let good = dataset_text();
    let head: String = good.lines().take(12).collect::<Vec<_>>().join("\n");
    let cases: Vec<(Vec<u8>, usize)> = vec![
        // A comment opened on line 14 and never closed.
        (
            format!("{head}\n\n1. h2e2 {{ never closed\n2. h0g2\n").into_bytes(),
            14,
        ),
        // A malformed tag on line 13.
        (
            format!("{head}\n[Red HU RongHua]\n\n1. h2e2\n").into_bytes(),
            13,
        ),
        // Bytes that are not UTF-8 on line 3.
        (b"[Event \"x\"]\n\n1. h2e2 \xff\xfe\n".to_vec(), 3),
    ];
    for (content, line) in cases {
        let f = temp_pgn(&content);
        let (code, stdout, stderr) = verify_file(f.path());
        assert_eq!(code, 4, "{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains(&format!("line {line}:")),
            "wanted line {line}: {stderr}"
        );
    }
    // A move that is no notation at all is a replay failure (exit 3), not a parse error (4).
    let f = temp_pgn(b"[Event \"x\"]\n\n1. h2e2 hello\n");
    let (code, _, stderr) = verify_file(f.path());
    assert_eq!(code, 3);
    assert!(stderr.contains("move 1... hello (line 3"), "{stderr}");
    // A missing file.
    let (code, _, _) = verify_file(Path::new("/nonexistent/caipan/none.pgn"));
    assert_eq!(code, 4);
}

#[test]
fn verify_counts_a_small_file_exactly() {
    let f = temp_pgn("[Game \"Chinese Chess\"]\n[Format \"Chinese\"]\n[Result \"*\"]\n1. 炮二平五 马８进７ 2. 马二进三 車9平8 *\n\n[Event \"two\"]\n\n1. C2.5 {[%clk 0:59:58]} H8+7\n".as_bytes());
    let (code, stdout, stderr) = verify_file(f.path());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "2 games, 6 moves, 0 illegal\n");
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/encoding")
        .join(name)
}

#[test]
fn verify_reads_a_malformed_tag_with_a_warning_and_exits_0() {
    let (code, stdout, stderr) = verify_file(&fixture("malformed-tag.pgn"));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "1 games, 6 moves, 0 illegal\n");
    assert!(
        stderr.contains("game 1: warning: line 2: tag Event: unescaped quote"),
        "{stderr}"
    );
    assert!(
        stderr.contains("game 1: warning: line 8: no result"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(fixture("malformed-tag.pgn")).unwrap();
    let games = read_pgn(&text).unwrap();
    assert_eq!(
        games[0].tag("Event"),
        Some("\"Huangshan Cup\" National GM,CM Tournament 2002")
    );
}

#[test]
fn a_gbk_pgn_reads_equal_to_its_utf8_twin() {
    let utf8 = std::fs::read(fixture("game-utf8.pgn")).unwrap();
    let gbk = std::fs::read(fixture("game-gbk.pgn")).unwrap();
    assert_ne!(utf8, gbk, "the fixtures differ in bytes");
    let read = |bytes: &[u8]| {
        let decoded = xiangqi::encoding::decode(bytes).unwrap();
        let games: Vec<Game> = read_pgn(&decoded.text)
            .unwrap()
            .iter()
            .map(|g| g.replay().unwrap())
            .collect();
        (decoded.encoding, games)
    };
    let (enc_utf8, games_utf8) = read(&utf8);
    let (enc_gbk, games_gbk) = read(&gbk);
    assert_eq!((enc_utf8, enc_gbk), ("UTF-8", "gb18030"));
    assert_eq!(games_gbk, games_utf8);
    assert_eq!(games_gbk.len(), 2);
    assert_eq!(games_gbk[0].tag("Red"), Some("胡荣华"));
    assert_eq!(games_gbk[0].tag("Black"), Some("杨官璘"));
    assert_eq!(games_gbk[0].comments[1].as_deref(), Some("中炮对屏风马"));
    for name in ["game-utf8.pgn", "game-gbk.pgn"] {
        let (code, stdout, stderr) = verify_file(&fixture(name));
        assert_eq!(code, 0, "{name}: {stderr}");
        assert_eq!(stdout, "2 games, 12 moves, 0 illegal\n", "{name}");
    }
}
