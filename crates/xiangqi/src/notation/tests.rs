//! Tests of the notations together: one table of moves written and read in both
//! WXF and Chinese, every legal move of random crowded positions round-tripped
//! through both and `parse_any`, and `parse_any`'s choice of notation. Also the
//! helpers the notation files' own tests use.

use super::descriptive::describe;
use super::*;
use crate::{chinese, iccs, parse_any, wxf, Move, Position};
use proptest::prelude::*;

/// A position from FEN.
pub(crate) fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

/// A move from ICCS text.
pub(crate) fn mv(s: &str) -> Move {
    iccs::parse_iccs(s).unwrap()
}

/// One move as ICCS, WXF and Chinese text.
type Texts = (&'static str, &'static str, &'static str);

/// Moves, each as ICCS, WXF and Chinese, in positions given by FEN (after the
/// ICCS moves listed with them).
const BOTH_WAYS: &[(&str, &[&str], &[Texts])] = &[
    (
        Position::START_FEN,
        &[],
        &[
            ("h2e2", "C2.5", "炮二平五"),
            ("h0g2", "H2+3", "马二进三"),
            ("b0c2", "H8+7", "马八进七"),
            ("i0i1", "R1+1", "车一进一"),
            ("i0i2", "R1+2", "车一进二"),
            ("g0e2", "E3+5", "相三进五"),
            ("f0e1", "A4+5", "仕四进五"),
            ("e0e1", "K5+1", "帅五进一"),
            ("c3c4", "P7+1", "兵七进一"),
        ],
    ),
    (
        Position::START_FEN,
        &["h2e2"],
        &[
            ("h9g7", "H8+7", "马8进7"),
            ("b9c7", "H2+3", "马2进3"),
            ("b7e7", "C2.5", "炮2平5"),
            ("c9e7", "E3+5", "象3进5"),
            ("d9e8", "A4+5", "士4进5"),
            ("e9e8", "K5+1", "将5进1"),
            ("g6g5", "P7+1", "卒7进1"),
            ("a9a8", "R1+1", "车1进1"),
        ],
    ),
    // Two rooks on one file.
    (
        "5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1",
        &[],
        &[
            ("e4d4", "R+.6", "前车平六"),
            ("e2d2", "R-.6", "后车平六"),
            ("e4e6", "R++2", "前车进二"),
            ("e2e3", "R-+1", "后车进一"),
        ],
    ),
    // Only one of the two can make the step: still written as a tandem.
    (
        "5k3/9/9/9/9/9/4R4/9/9/3KR4 w - - 0 1",
        &[],
        &[("e3e1", "R+-2", "前车退二")],
    ),
    // Black: front is towards Red.
    (
        "5k3/9/9/9/4n4/9/4n4/9/9/3K5 b - - 0 1",
        &[],
        &[("e3d1", "H++4", "前马进4"), ("e5f7", "H--6", "后马退6")],
    ),
    (
        "5k3/9/9/9/4c4/9/4c4/9/9/3K5 b - - 0 1",
        &[],
        &[("e3e0", "C++3", "前炮进3"), ("e5f5", "C-.6", "后炮平6")],
    ),
    // Advisors and elephants keep their file.
    (
        "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1",
        &[],
        &[("d0e1", "A6+5", "仕六进五"), ("d2e1", "A6-5", "仕六退五")],
    ),
    (
        "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1",
        &[],
        &[("c0e2", "E7+5", "相七进五"), ("c4e2", "E7-5", "相七退五")],
    ),
    // Two, three, four and five pawns on one file.
    (
        "4k4/9/9/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
        &[],
        &[("c6c7", "P++1", "前兵进一"), ("c5b5", "P-.8", "后兵平八")],
    ),
    (
        "4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
        &[],
        &[
            ("c7b7", "P+.8", "前兵平八"),
            ("c6b6", "P7.8", "中兵平八"),
            ("c5b5", "P-.8", "后兵平八"),
        ],
    ),
    (
        "4k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
        &[],
        &[
            ("c8b8", "++.8", "一兵平八"),
            ("c7b7", "P+.8", "二兵平八"),
            ("c6b6", "P-.8", "三兵平八"),
            ("c5b5", "--.8", "四兵平八"),
        ],
    ),
    (
        "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
        &[],
        &[
            ("c9b9", "++.8", "一兵平八"),
            ("c8b8", "P+.8", "二兵平八"),
            ("c7b7", "P7.8", "三兵平八"),
            ("c6b6", "P-.8", "四兵平八"),
            ("c5b5", "--.8", "五兵平八"),
        ],
    ),
    // Pawns doubled on two files: three on Black's file 3, two on file 7.
    (
        "4k4/9/9/9/9/2p3p2/2p3p2/2p6/9/3K5 b - - 0 1",
        &[],
        &[
            ("c2b2", "3+.2", "前3平2"),
            ("c3b3", "33.2", "中3平2"),
            ("c4b4", "3-.2", "后3平2"),
            ("g3f3", "7+.6", "前7平6"),
            ("g4f4", "7-.6", "后7平6"),
            ("g3g2", "7++1", "前7进1"),
        ],
    ),
];

#[test]
fn moves_written_and_read_in_both_notations() {
    for &(fen, before, moves) in BOTH_WAYS {
        let mut p = pos(fen);
        for m in before {
            p.play(mv(m)).unwrap();
        }
        for &(iccs_text, wxf_text, chinese_text) in moves {
            let m = mv(iccs_text);
            assert!(p.is_legal(m), "{iccs_text} not legal in {}", p.to_fen());
            assert_eq!(wxf::to_wxf(&p, m), wxf_text, "writing {iccs_text}");
            assert_eq!(
                chinese::to_chinese(&p, m),
                chinese_text,
                "writing {iccs_text}"
            );
            assert_eq!(wxf::parse_wxf(&p, wxf_text), Ok(m), "reading {wxf_text}");
            assert_eq!(
                chinese::parse_chinese(&p, chinese_text),
                Ok(m),
                "reading {chinese_text}"
            );
            for text in [wxf_text, chinese_text] {
                assert_eq!(parse_any(&p, text), Ok(m), "reading {text}");
            }
        }
    }
}

/// A random legal position with many doubled pieces (seeded xorshift).
fn random_position(seed: u64) -> Option<Position> {
    let mut s = seed | 1;
    let mut next = move |n: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % n
    };
    let mut board = [[None::<char>; 9]; 10];
    let put = |board: &mut [[Option<char>; 9]; 10], c: char, squares: &[(u8, u8)], r: u64| {
        let (f, rk) = squares[r as usize % squares.len()];
        if board[rk as usize][f as usize].is_none() {
            board[rk as usize][f as usize] = Some(c);
        }
    };
    let palace = |red: bool| -> Vec<(u8, u8)> {
        let ranks = if red { 0..=2 } else { 7..=9 };
        ranks.flat_map(|r| (3..=5).map(move |f| (f, r))).collect()
    };
    let advisor_pts = |red: bool| -> Vec<(u8, u8)> {
        let b = if red { 0 } else { 7 };
        vec![(3, b), (5, b), (4, b + 1), (3, b + 2), (5, b + 2)]
    };
    let elephant_pts = |red: bool| -> Vec<(u8, u8)> {
        let pts = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];
        pts.iter()
            .map(|&(f, r)| if red { (f, r) } else { (f, 9 - r) })
            .collect()
    };
    let anywhere: Vec<(u8, u8)> = (0..10).flat_map(|r| (0..9).map(move |f| (f, r))).collect();
    // Pawns crowded on two files past the river, so tandem cases come up often.
    let pawn_pts = |red: bool, files: [u8; 2]| -> Vec<(u8, u8)> {
        let ranks: Vec<u8> = if red {
            (5..=9).collect()
        } else {
            (0..=4).collect()
        };
        files
            .iter()
            .flat_map(|&f| ranks.iter().map(move |&r| (f, r)))
            .collect()
    };
    for red in [true, false] {
        let case = |c: char| if red { c } else { c.to_ascii_lowercase() };
        let k = next(100);
        put(&mut board, case('K'), &palace(red), k);
        for _ in 0..next(3) {
            let r = next(100);
            put(&mut board, case('A'), &advisor_pts(red), r);
        }
        for _ in 0..next(3) {
            let r = next(100);
            put(&mut board, case('B'), &elephant_pts(red), r);
        }
        for role in ['R', 'N', 'C'] {
            for _ in 0..next(3) {
                // Half the time on a shared file to make tandems likely.
                let f = next(2) as u8 * 4;
                let pts: Vec<(u8, u8)> = if next(2) == 0 {
                    anywhere.clone()
                } else {
                    (0..10).map(|r| (f, r)).collect()
                };
                let r = next(1000);
                put(&mut board, case(role), &pts, r);
            }
        }
        let files = [next(9) as u8, next(9) as u8];
        for _ in 0..next(6) {
            let r = next(1000);
            put(&mut board, case('P'), &pawn_pts(red, files), r);
        }
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut empty = 0;
            for cell in board[r] {
                match cell {
                    Some(c) => {
                        if empty > 0 {
                            row.push(char::from(b'0' + empty));
                        }
                        empty = 0;
                        row.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push(char::from(b'0' + empty));
            }
            row
        })
        .collect();
    let side = if next(2) == 0 { 'w' } else { 'b' };
    Position::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// Every legal move of random positions crowded with doubled pieces is
    /// written and read back to the same move in WXF and Chinese.
    #[test]
    fn every_legal_move_roundtrips(seed in any::<u64>()) {
        if let Some(pos) = random_position(seed) {
            for &m in pos.legal_moves().iter() {
                let w = wxf::to_wxf(&pos, m);
                let c = chinese::to_chinese(&pos, m);
                prop_assert_eq!(wxf::parse_wxf(&pos, &w), Ok(m), "{} {} {}", pos.to_fen(), m, w);
                prop_assert_eq!(chinese::parse_chinese(&pos, &c), Ok(m), "{} {} {}", pos.to_fen(), m, c);
                prop_assert_eq!(parse_any(&pos, &w), Ok(m));
                prop_assert_eq!(parse_any(&pos, &c), Ok(m));
                prop_assert_eq!(parse_any(&pos, &iccs::to_iccs(m)), Ok(m));
            }
        }
    }

    #[test]
    fn parse_any_never_panics(s in "\\PC{0,10}", seed in any::<u64>()) {
        let pos = random_position(seed).unwrap_or_default();
        let _ = parse_any(&pos, &s);
    }
}

#[test]
fn random_positions_have_tandems() {
    let mut tandem = 0;
    let mut multi = 0;
    let mut positions = 0;
    for seed in 0..400u64 {
        let Some(pos) = random_position(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)) else {
            continue;
        };
        positions += 1;
        for &m in pos.legal_moves().iter() {
            if let Some(d) = describe(&pos, m) {
                if let Some(t) = d.tandem {
                    tandem += 1;
                    multi += usize::from(t.multi_file);
                }
            }
        }
    }
    assert!(positions > 100, "{positions}");
    assert!(tandem > 500 && multi > 50, "{tandem} {multi}");
}

#[test]
fn parse_any_tries_each_notation() {
    let pos = Position::new();
    let m = parse_any(&pos, "h2e2").unwrap();
    assert_eq!(m.to_string(), "h2e2");
    assert_eq!(parse_any(&pos, "C2.5").unwrap(), m);
    assert_eq!(parse_any(&pos, "炮二平五").unwrap(), m);
    assert_eq!(parse_any(&pos, "H2-E2").unwrap(), m);
    assert!(matches!(
        parse_any(&pos, "h2h8"),
        Err(NotationError::Illegal { .. })
    ));
    assert!(matches!(
        parse_any(&pos, "hello"),
        Err(NotationError::Unrecognized { .. })
    ));
    assert_eq!(parse_any(&pos, "H8+7").unwrap().to_string(), "b0c2");
    assert_eq!(parse_any(&pos, "马八进七").unwrap().to_string(), "b0c2");
}

#[test]
fn errors_name_the_text_and_reason() {
    let pos = Position::new();
    let e = parse_any(&pos, "H5+7").unwrap_err();
    assert_eq!(e.to_string(), "\"H5+7\": no red horse on file 5");
    let e = parse_any(&pos, "H8+5").unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"H8+5\": impossible: a horse on file 8 cannot reach file 5"
    );
    let e = parse_any(&pos, "H8+6").unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"H8+6\": illegal: illegal move b0d1: the piece cannot move there"
    );
    let e = parse_any(&pos, "R9-1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"R9-1\": impossible: a rook on file 9 cannot move 1 point backward (off the board)"
    );
    let e = parse_any(&pos, "R9+3").unwrap_err();
    assert!(e.to_string().starts_with("\"R9+3\": illegal: "), "{e}");
}

proptest! {
    #[test]
    fn readers_never_panic(s in "\\PC{0,8}") {
        let _ = wxf::parse_wxf(&Position::new(), &s);
        let _ = chinese::parse_chinese(&Position::new(), &s);
    }
}
