//! Chinese notation (中文记谱): `炮二平五`, `马8进7`, `前炮退一`, `中兵平四`.
//!
//! Four characters: piece, the file it stands on (each side counts from its own
//! right; Red writes Chinese numerals 一..九, Black digits 1..9), the direction
//! (进 forward, 退 backward, 平 sideways) and a number (distance for a straight
//! move along a file, destination file otherwise).
//!
//! Pieces of one kind on one file:
//! - two rooks, horses, cannons or pawns: 前/后 replace the file: `前炮平五`
//!   (also read: `炮前平五`). Advisors and elephants keep the file (`仕六进五`):
//!   direction and destination already tell them apart.
//! - three pawns: 前兵, 中兵, 后兵; four or five: 一兵, 二兵, … counted from the front.
//! - pawns doubled on two files: 前/中/后 followed by the file, without the piece
//!   name: `前七进一`, `后3平4` (also read: `前兵七进一`).
//!
//! Writer (documented choice): simplified glyphs; Red uses 车马相仕帅炮兵 and
//! Chinese numerals, Black uses 车马象士将炮卒 and ASCII digits (`马8进7`);
//! the ordinals of four or five pawns are Chinese numerals for both sides.
//!
//! Reader: simplified and traditional glyphs and the coloured variants
//! (车/車/俥, 马/馬/傌, 炮/砲/包, 帅/帥/将/將, 仕/士, 相/象, 兵/卒, 进/進, 后/後),
//! ASCII and full-width digits (`８`) and Chinese numerals for either side;
//! spaces are ignored. The glyph's colour is not checked: the side to move is.

use crate::notation::{
    describe, resolve, syntax, Direction, MoveSpec, NotationError, Pick, Selector,
};
use crate::{iccs, Color, Move, Position, Role};

/// One meaningful character of a Chinese move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Piece(Role),
    Number(u8),
    Place(Pick),
    Dir(Direction),
}

fn token(c: char) -> Option<Token> {
    use Token::*;
    Some(match c {
        '车' | '車' | '俥' | '伡' => Piece(Role::Rook),
        '马' | '馬' | '傌' | '㐷' => Piece(Role::Horse),
        '炮' | '砲' | '包' => Piece(Role::Cannon),
        '帅' | '帥' | '将' | '將' => Piece(Role::King),
        '仕' | '士' => Piece(Role::Advisor),
        '相' | '象' => Piece(Role::Elephant),
        '兵' | '卒' => Piece(Role::Pawn),
        '前' => Place(Pick::Front),
        '中' => Place(Pick::Middle),
        '后' | '後' => Place(Pick::Rear),
        '进' | '進' => Dir(Direction::Forward),
        '退' => Dir(Direction::Backward),
        '平' => Dir(Direction::Sideways),
        '一' | '１' | '1' => Number(1),
        '二' | '２' | '2' => Number(2),
        '三' | '３' | '3' => Number(3),
        '四' | '４' | '4' => Number(4),
        '五' | '伍' | '５' | '5' => Number(5),
        '六' | '６' | '6' => Number(6),
        '七' | '７' | '7' => Number(7),
        '八' | '８' | '8' => Number(8),
        '九' | '９' | '9' => Number(9),
        _ => return None,
    })
}

/// The readings of a Chinese move text.
pub(crate) fn read(text: &str) -> Result<Vec<MoveSpec>, NotationError> {
    let mut tokens = Vec::with_capacity(5);
    for c in text.chars() {
        if c.is_whitespace() {
            continue;
        }
        match token(c) {
            Some(t) if tokens.len() < 5 => tokens.push(t),
            Some(_) => return Err(syntax(text, "not Chinese notation: too long")),
            None => {
                return Err(syntax(
                    text,
                    format!("not Chinese notation: unexpected character {c:?}"),
                ))
            }
        }
    }
    use Token::*;
    let (direction, number) = match tokens[..] {
        [.., Dir(d), Number(n)] => (d, n),
        _ => return Err(syntax(
            text,
            "not Chinese notation: expected a move like 炮二平五 ending in 进/退/平 and a number",
        )),
    };
    let spec = |role, selector| MoveSpec {
        role,
        selector,
        direction,
        number,
    };
    let specs = match tokens[..tokens.len() - 2] {
        // 炮二
        [Piece(role), Number(file)] => vec![spec(
            role,
            Selector::File {
                file,
                wxf_mid: false,
            },
        )],
        // 前炮 / 炮前
        [Place(pick), Piece(role)] | [Piece(role), Place(pick)] => vec![spec(
            role,
            Selector::Tandem { file: None, pick },
        )],
        // 二兵
        [Number(k), Piece(role)] => vec![spec(
            role,
            Selector::Tandem {
                file: None,
                pick: Pick::Ordinal(k),
            },
        )],
        // 前七 (pawns doubled on two files)
        [Place(pick), Number(file)] => vec![spec(
            Role::Pawn,
            Selector::Tandem {
                file: Some(file),
                pick,
            },
        )],
        // 前兵七
        [Place(pick), Piece(role), Number(file)] => vec![spec(
            role,
            Selector::Tandem {
                file: Some(file),
                pick,
            },
        )],
        _ => {
            return Err(syntax(
                text,
                "not Chinese notation: expected a piece and its file (炮二), or 前/中/后 and a piece (前炮)",
            ))
        }
    };
    Ok(specs)
}

/// Reads a Chinese move and finds the legal move it denotes in `pos`.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let specs = read(text)?;
    resolve(pos, text, &specs)
}

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The name a side writes for a role (simplified glyphs).
pub fn role_name(color: Color, role: Role) -> char {
    match (color, role) {
        (_, Role::Rook) => '车',
        (_, Role::Horse) => '马',
        (_, Role::Cannon) => '炮',
        (Color::Red, Role::King) => '帅',
        (Color::Black, Role::King) => '将',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Black, Role::Advisor) => '士',
        (Color::Red, Role::Elephant) => '相',
        (Color::Black, Role::Elephant) => '象',
        (Color::Red, Role::Pawn) => '兵',
        (Color::Black, Role::Pawn) => '卒',
    }
}

/// A file number or distance 1..=9 as the side writes it.
fn numeral(color: Color, n: u8) -> char {
    let n = n.clamp(1, 9);
    match color {
        Color::Red => NUMERALS[usize::from(n - 1)],
        Color::Black => char::from(b'0' + n),
    }
}

/// Writes `m` (a legal move in `pos`, the position before it) in Chinese.
///
/// A move that no piece could make by its movement rule (empty starting square,
/// a rook moving diagonally…) cannot be described; it is written in ICCS instead.
pub fn to_chinese(pos: &Position, m: Move) -> String {
    let Some(d) = describe(pos, m) else {
        return iccs::to_iccs(m);
    };
    let color = d.piece.color;
    let name = role_name(color, d.piece.role);
    let mut s = String::with_capacity(16);
    let place = |index: usize, count: usize| -> char {
        match (index, count) {
            (0, _) => '前',
            (i, n) if i + 1 == n => '后',
            _ => '中',
        }
    };
    match d.tandem {
        None => {
            s.push(name);
            s.push(numeral(color, d.file));
        }
        Some(t) if t.multi_file => {
            s.push(place(t.index, t.count));
            s.push(numeral(color, d.file));
        }
        Some(t) if t.count <= 3 => {
            s.push(place(t.index, t.count));
            s.push(name);
        }
        Some(t) => {
            s.push(NUMERALS[t.index.min(8)]);
            s.push(name);
        }
    }
    s.push(match d.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    });
    s.push(numeral(color, d.number));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn mv(s: &str) -> Move {
        iccs::parse_iccs(s).unwrap()
    }

    fn both_ways(p: &Position, iccs_text: &str, text: &str) {
        let m = mv(iccs_text);
        assert!(p.is_legal(m), "{iccs_text} not legal in {}", p.to_fen());
        assert_eq!(to_chinese(p, m), text, "writing {iccs_text}");
        assert_eq!(parse_chinese(p, text).unwrap(), m, "reading {text}");
    }

    #[test]
    fn opening_moves() {
        let mut p = Position::new();
        both_ways(&p, "h2e2", "炮二平五");
        both_ways(&p, "h0g2", "马二进三");
        both_ways(&p, "g0e2", "相三进五");
        both_ways(&p, "f0e1", "仕四进五");
        both_ways(&p, "c3c4", "兵七进一");
        both_ways(&p, "i0i2", "车一进二");
        p.play(mv("h2e2")).unwrap();
        both_ways(&p, "h9g7", "马8进7");
        both_ways(&p, "b9c7", "马2进3");
        both_ways(&p, "c9e7", "象3进5");
        both_ways(&p, "d9e8", "士4进5");
        both_ways(&p, "e9e8", "将5进1");
        both_ways(&p, "g6g5", "卒7进1");
    }

    #[test]
    fn glyph_variants() {
        let p = Position::new();
        for (t, m) in [
            ("砲二平五", "h2e2"),
            ("包二平五", "h2e2"),
            ("炮2平5", "h2e2"),
            ("炮２平５", "h2e2"),
            ("炮 二 平 五", "h2e2"),
            ("炮二平伍", "h2e2"),
            ("馬二進三", "h0g2"),
            ("傌二进三", "h0g2"),
            ("俥一進二", "i0i2"),
            ("車一进二", "i0i2"),
            ("帥五進一", "e0e1"),
            ("士四进五", "f0e1"),
            ("象三进五", "g0e2"),
            ("卒七进一", "c3c4"),
        ] {
            assert_eq!(parse_chinese(&p, t).unwrap(), mv(m), "{t}");
        }
        let mut p = p;
        p.play(mv("h2e2")).unwrap();
        for (t, m) in [
            ("马８进７", "h9g7"),
            ("馬8進7", "h9g7"),
            ("将5进1", "e9e8"),
            ("將五進一", "e9e8"),
            ("包八平五", "h7e7"),
        ] {
            assert_eq!(parse_chinese(&p, t).unwrap(), mv(m), "{t}");
        }
    }

    #[test]
    fn tandem_pieces() {
        let p = pos("5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1");
        both_ways(&p, "e4d4", "前车平六");
        both_ways(&p, "e2e3", "后车进一");
        assert_eq!(parse_chinese(&p, "车前平六").unwrap(), mv("e4d4"));
        assert_eq!(parse_chinese(&p, "俥後進一").unwrap(), mv("e2e3"));
        let e = parse_chinese(&p, "车五平六").unwrap_err();
        assert!(matches!(e, NotationError::Ambiguous { .. }), "{e}");
        let p = pos("5k3/9/9/9/4c4/9/4c4/9/9/3K5 b - - 0 1");
        both_ways(&p, "e3e0", "前炮进3");
        both_ways(&p, "e5f5", "后炮平6");
        // Advisors keep their file.
        let p = pos("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
        both_ways(&p, "d0e1", "仕六进五");
        both_ways(&p, "d2e1", "仕六退五");
    }

    #[test]
    fn tandem_pawns() {
        let p = pos("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
        both_ways(&p, "c7b7", "前兵平八");
        both_ways(&p, "c6b6", "中兵平八");
        both_ways(&p, "c5b5", "后兵平八");
        let p = pos("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
        both_ways(&p, "c9b9", "一兵平八");
        both_ways(&p, "c8b8", "二兵平八");
        both_ways(&p, "c7b7", "三兵平八");
        both_ways(&p, "c6b6", "四兵平八");
        both_ways(&p, "c5b5", "五兵平八");
        assert_eq!(parse_chinese(&p, "前兵平八").unwrap(), mv("c9b9"));
        assert_eq!(parse_chinese(&p, "中兵平八").unwrap(), mv("c7b7"));
        assert_eq!(parse_chinese(&p, "后兵平八").unwrap(), mv("c5b5"));
        // Two files of black pawns: 3 on Black's file 3, 2 on file 7.
        let p = pos("4k4/9/9/9/9/2p3p2/2p3p2/2p6/9/3K5 b - - 0 1");
        both_ways(&p, "c2b2", "前3平2");
        both_ways(&p, "c3b3", "中3平2");
        both_ways(&p, "c4b4", "后3平2");
        both_ways(&p, "g3f3", "前7平6");
        both_ways(&p, "g4f4", "后7平6");
        assert_eq!(parse_chinese(&p, "前卒3平2").unwrap(), mv("c2b2"));
        assert_eq!(parse_chinese(&p, "后卒七平六").unwrap(), mv("g4f4"));
        // 前卒 alone is ambiguous when two files hold doubled pawns and both fronts can go.
        let e = parse_chinese(&p, "前卒进1").unwrap_err();
        assert!(matches!(e, NotationError::Ambiguous { .. }), "{e}");
    }

    #[test]
    fn errors() {
        let p = Position::new();
        let e = parse_chinese(&p, "马五进七").unwrap_err();
        assert_eq!(e.to_string(), "\"马五进七\": no red horse on file 5");
        let e = parse_chinese(&p, "车九进三").unwrap_err();
        assert!(e.to_string().starts_with("\"车九进三\": illegal: "), "{e}");
        for t in [
            "",
            "炮二平",
            "炮二平五五",
            "炮二左五",
            "hello",
            "炮炮平五",
            "二二平五",
        ] {
            assert!(parse_chinese(&p, t).unwrap_err().is_syntax(), "{t}");
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,8}") {
            let _ = parse_chinese(&Position::new(), &s);
        }

        #[test]
        fn never_panics_on_near_misses(s in "[车車俥马馬炮砲包帅将仕士相象兵卒前中后进進退平一二三四五六七八九1-9１-９ ]{0,6}") {
            let _ = parse_chinese(&Position::new(), &s);
        }
    }
}
