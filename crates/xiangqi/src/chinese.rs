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

use crate::notation::descriptive::{Description, Descriptive, Direction, Pick, Reading, Selector};
use crate::notation::{syntax, NotationError};
use crate::{Color, Move, Position, Role};

/// Chinese notation as a descriptive notation (see `notation/descriptive.rs`).
pub(crate) struct Chinese;

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

/// Reads a Chinese move and finds the legal move it denotes in `pos`.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    Chinese::parse(pos, text)
}

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

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
    Chinese::text(pos, m)
}

/// A Chinese move text (as [`to_chinese`] writes it, Simplified) in the
/// glyphs of the ROC rules 中華民國象棋棋規 (docs/glossary.md): Red's
/// 俥 傌 帥, Black's 車 馬 將 包, and 進, 後. The ROC text cuts Red's and
/// Black's chariot, horse and cannon apart as Taiwanese boards do, so the
/// glyph tells the side: `mover` is the side that made the move. A text
/// in ICCS (the writer's fall-back) has none of these characters and is
/// kept as it is. [`parse_chinese`] reads the result back.
pub fn chinese_traditional(text: &str, mover: Color) -> String {
    let red = mover == Color::Red;
    text.chars()
        .map(|c| match (c, red) {
            ('车', true) => '俥',
            ('车', false) => '車',
            ('马', true) => '傌',
            ('马', false) => '馬',
            ('炮', false) => '包',
            ('帅', _) => '帥',
            ('将', _) => '將',
            ('进', _) => '進',
            ('后', _) => '後',
            (c, _) => c,
        })
        .collect()
}

/// 前, 中 or 后 for a place among doubled pieces.
fn place_name(pick: Pick) -> char {
    match pick {
        Pick::Front => '前',
        Pick::Rear => '后',
        _ => '中',
    }
}

impl Descriptive for Chinese {
    /// What a Chinese move text says.
    fn read(text: &str) -> Result<Reading, NotationError> {
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
        let (role, selector) = match tokens[..tokens.len() - 2] {
        // 炮二
        [Piece(role), Number(file)] => (
            role,
            Selector::File {
                file,
                wxf_mid: false,
            },
        ),
        // 前炮 / 炮前
        [Place(pick), Piece(role)] | [Piece(role), Place(pick)] => {
            (role, Selector::Tandem { file: None, pick })
        }
        // 二兵
        [Number(k), Piece(role)] => (
            role,
            Selector::Tandem {
                file: None,
                pick: Pick::Ordinal(k),
            },
        ),
        // 前七 (pawns doubled on two files)
        [Place(pick), Number(file)] => (
            Role::Pawn,
            Selector::Tandem {
                file: Some(file),
                pick,
            },
        ),
        // 前兵七
        [Place(pick), Piece(role), Number(file)] => (
            role,
            Selector::Tandem {
                file: Some(file),
                pick,
            },
        ),
        _ => {
            return Err(syntax(
                text,
                "not Chinese notation: expected a piece and its file (炮二), or 前/中/后 and a piece (前炮)",
            ))
        }
    };
        Ok(Reading {
            pieces: vec![(role, selector)],
            direction,
            number,
        })
    }

    /// Writes a description in Chinese.
    fn write(d: &Description) -> String {
        let color = d.piece.color;
        let name = crate::Piece::new(color, d.piece.role).name_zh();
        let mut s = String::with_capacity(16);
        match d.tandem {
            None => {
                s.push(name);
                s.push(numeral(color, d.file));
            }
            Some(t) if t.multi_file => {
                s.push(place_name(t.place()));
                s.push(numeral(color, d.file));
            }
            Some(t) if t.count <= 3 => {
                s.push(place_name(t.place()));
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
}

#[cfg(test)]
mod tests {
    //! Chinese-only cases; moves written and read in both notations are in
    //! `notation/tests.rs`.
    use super::*;
    use crate::notation::tests::{mv, pos};
    use proptest::prelude::*;

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
    fn the_roc_glyphs_read_back_as_the_same_moves() {
        let mut p = Position::new();
        for (m, want) in [
            ("h2e2", "炮二平五"),
            ("h9g7", "馬8進7"),
            ("h0g2", "傌二進三"),
            ("b7e7", "包2平5"),
            ("i0i1", "俥一進一"),
            ("i9h9", "車9平8"),
        ] {
            let text = chinese_traditional(&to_chinese(&p, mv(m)), p.turn());
            assert_eq!(text, want);
            assert_eq!(parse_chinese(&p, &text).unwrap(), mv(m), "{text}");
            p.play(mv(m)).unwrap();
        }
        assert_eq!(chinese_traditional("h2e2", Color::Red), "h2e2");
    }

    #[test]
    fn tandem_readings() {
        let p = pos("5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1");
        assert_eq!(parse_chinese(&p, "车前平六").unwrap(), mv("e4d4"));
        assert_eq!(parse_chinese(&p, "俥後進一").unwrap(), mv("e2e3"));
        let e = parse_chinese(&p, "车五平六").unwrap_err();
        assert!(matches!(e, NotationError::Ambiguous { .. }), "{e}");
        // 前/中/后 also name the first, middle and last of five pawns.
        let p = pos("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(parse_chinese(&p, "前兵平八").unwrap(), mv("c9b9"));
        assert_eq!(parse_chinese(&p, "中兵平八").unwrap(), mv("c7b7"));
        assert_eq!(parse_chinese(&p, "后兵平八").unwrap(), mv("c5b5"));
        // Two files of black pawns: 3 on Black's file 3, 2 on file 7.
        let p = pos("4k4/9/9/9/9/2p3p2/2p3p2/2p6/9/3K5 b - - 0 1");
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
        fn never_panics_on_near_misses(s in "[车車俥马馬炮砲包帅将仕士相象兵卒前中后进進退平一二三四五六七八九1-9１-９ ]{0,6}") {
            let _ = parse_chinese(&Position::new(), &s);
        }
    }
}
