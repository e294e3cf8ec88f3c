//! Vietnamese move notation (ký hiệu cờ tướng Việt Nam): `P2-5`, `M8.7`,
//! `X1/2`, `Tg5.1`, `Xt.1`.
//!
//! The piece (Tg Tướng, S Sĩ, T Tượng, X Xe, P Pháo, M Mã, B Binh/Tốt),
//! the file it stands on (each side counts files 1-9 from its own right,
//! as in WXF and Chinese), the direction (`.` tiến forward, `/` thoái
//! backward, `-` bình sideways) and a number: the distance for a straight
//! move along a file, the destination file otherwise. Two pieces of one
//! kind on a file are told apart by `t` (trước, front) and `s` (sau,
//! rear) in place of the file: `Xt.1`, `Ms/3`; the middle pawn of three
//! is written with its file, as WXF writes it.
//!
//! It collides with WXF: `P2-5` is a cannon moving sideways from file 2 to
//! file 5 here and a pawn going back 5 in WXF, and `P7.6` reads legally
//! in both (a cannon forward 6, a pawn sideways to 6). So Vietnamese is
//! never guessed: [`parse_any_vietnamese`] reads ICCS, then Vietnamese,
//! then Chinese, and never WXF — the terminal's Vietnamese mode.
//!
//! The reader accepts lower case, `+` for `.` is *not* accepted (that is
//! WXF's forward), and `K` is not a piece letter (Vietnamese writes Tg).
//! Pawns doubled on two files, and four or five pawns on a file, are
//! written with the file (the notation has no form of its own we could
//! source); such a text may be ambiguous and is then refused as such.

use crate::notation::descriptive::{Description, Descriptive, Direction, Pick, Reading, Selector};
use crate::notation::{syntax, NotationError};
use crate::{Move, Position, Role};

/// Vietnamese as a descriptive notation.
pub(crate) struct Vietnamese;

/// The Vietnamese letters of a role.
pub fn role_letters(role: Role) -> &'static str {
    match role {
        Role::King => "Tg",
        Role::Advisor => "S",
        Role::Elephant => "T",
        Role::Horse => "M",
        Role::Rook => "X",
        Role::Cannon => "P",
        Role::Pawn => "B",
    }
}

/// Reads a Vietnamese move and finds the legal move it denotes in `pos`.
pub fn parse_vietnamese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    Vietnamese::parse(pos, text)
}

/// Writes `m` (a legal move in `pos`, the position before it) in
/// Vietnamese notation (ICCS when it cannot be described).
pub fn to_vietnamese(pos: &Position, m: Move) -> String {
    Vietnamese::text(pos, m)
}

/// Reads a move in the Vietnamese mode: ICCS (`h2e2`), then Vietnamese
/// (`P2-5`), then Chinese (`炮二平五`); never WXF, whose texts collide.
pub fn parse_any_vietnamese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    crate::any::parse_with(pos, text, parse_vietnamese)
}

const SHAPE: &str = "not Vietnamese notation: expected a piece (Tg S T X P M B), a file 1-9 \
                     or t/s, a direction (. / -) and a number, like P2-5";

impl Descriptive for Vietnamese {
    fn read(text: &str) -> Result<Reading, NotationError> {
        let t = text.trim().trim_end_matches(['!', '?']);
        if !t.is_ascii() {
            return Err(syntax(text, SHAPE));
        }
        let lower = t.to_ascii_lowercase();
        let (role, rest) = if let Some(r) = lower.strip_prefix("tg") {
            (Role::King, r)
        } else {
            let mut chars = lower.chars();
            let role = match chars.next() {
                Some('s') => Role::Advisor,
                Some('t') => Role::Elephant,
                Some('x') => Role::Rook,
                Some('p') => Role::Cannon,
                Some('m') => Role::Horse,
                Some('b') => Role::Pawn,
                _ => return Err(syntax(text, SHAPE)),
            };
            (role, chars.as_str())
        };
        let [c1, c2, c3] = rest.as_bytes() else {
            return Err(syntax(text, SHAPE));
        };
        let direction = match c2 {
            b'.' => Direction::Forward,
            b'/' => Direction::Backward,
            b'-' => Direction::Sideways,
            _ => return Err(syntax(text, SHAPE)),
        };
        let number = match c3 {
            b'1'..=b'9' => c3 - b'0',
            _ => return Err(syntax(text, SHAPE)),
        };
        let selector = match c1 {
            b'1'..=b'9' => Selector::File {
                file: c1 - b'0',
                wxf_mid: true,
            },
            b't' => Selector::Tandem {
                file: None,
                pick: Pick::Front,
            },
            b's' => Selector::Tandem {
                file: None,
                pick: Pick::Rear,
            },
            _ => return Err(syntax(text, SHAPE)),
        };
        Ok(Reading {
            pieces: vec![(role, selector)],
            direction,
            number,
        })
    }

    fn write(d: &Description) -> String {
        let mut s = String::with_capacity(5);
        s.push_str(role_letters(d.piece.role));
        match d.tandem.map(|t| (t, t.place())) {
            Some((t, Pick::Front)) if !t.multi_file && t.count <= 3 => s.push('t'),
            Some((t, Pick::Rear)) if !t.multi_file && t.count <= 3 => s.push('s'),
            _ => s.push(char::from(b'0' + d.file)),
        }
        s.push(match d.direction {
            Direction::Forward => '.',
            Direction::Backward => '/',
            Direction::Sideways => '-',
        });
        s.push(char::from(b'0' + d.number));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::tests::{mv, pos};
    use crate::wxf::parse_wxf;

    #[test]
    fn opening_moves_read_and_write() {
        let p = Position::new();
        for (text, iccs) in [
            ("P2-5", "h2e2"),
            ("M2.3", "h0g2"),
            ("X1.1", "i0i1"),
            ("T3.5", "g0e2"),
            ("S4.5", "f0e1"),
            ("Tg5.1", "e0e1"),
            ("B7.1", "c3c4"),
        ] {
            let m = parse_vietnamese(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(m, mv(iccs), "{text}");
            assert_eq!(to_vietnamese(&p, m), text);
        }
        // Lower case and annotations are read.
        assert_eq!(parse_vietnamese(&p, "p2-5!").unwrap(), mv("h2e2"));
        // Black counts files from its own right: M8.7 is b9c7.
        let p = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
        assert_eq!(parse_vietnamese(&p, "M2.3").unwrap(), mv("b9c7"));
        assert_eq!(to_vietnamese(&p, mv("h9g7")), "M8.7");
    }

    #[test]
    fn backward_and_tandem() {
        // Two red rooks on file e (Red's 5).
        let p = pos("5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1");
        assert_eq!(parse_vietnamese(&p, "Xt-6").unwrap(), mv("e4d4"));
        assert_eq!(parse_vietnamese(&p, "Xs.1").unwrap(), mv("e2e3"));
        assert_eq!(parse_vietnamese(&p, "Xs/2").unwrap(), mv("e2e0"));
        assert_eq!(to_vietnamese(&p, mv("e4d4")), "Xt-6");
        assert_eq!(to_vietnamese(&p, mv("e2e0")), "Xs/2");
    }

    /// Texts that read legally both as WXF and as Vietnamese, for
    /// different moves: the Vietnamese mode must take the Vietnamese one.
    #[test]
    fn texts_legal_both_ways_read_as_vietnamese_in_its_mode() {
        // Red's pawn on file 7 (c5) has crossed the river, Red's cannon
        // stands behind it on c0 and a black pawn in front of it on c6.
        // `P7.6`: WXF "pawn 7 sideways to file 6" (c5d5); Vietnamese
        // "cannon 7 forward 6" (c0 takes c6 over the screen c5).
        let p = pos("4k4/9/9/2p6/2P6/9/9/9/9/2CK5 w - - 0 1");
        assert_eq!(parse_wxf(&p, "P7.6").unwrap(), mv("c5d5"));
        assert_eq!(parse_vietnamese(&p, "P7.6").unwrap(), mv("c0c6"));
        assert_eq!(parse_any_vietnamese(&p, "P7.6").unwrap(), mv("c0c6"));
        assert_eq!(crate::any::parse_any(&p, "P7.6").unwrap(), mv("c5d5"));
        // `P2-5` at the start: WXF reads a pawn (none on file 2: an error),
        // Vietnamese the central cannon.
        let start = Position::new();
        assert!(parse_wxf(&start, "P2-5").is_err());
        assert_eq!(parse_any_vietnamese(&start, "P2-5").unwrap(), mv("h2e2"));
        // ICCS and Chinese still read in the Vietnamese mode; WXF does not.
        assert_eq!(parse_any_vietnamese(&start, "h2e2").unwrap(), mv("h2e2"));
        assert_eq!(
            parse_any_vietnamese(&start, "炮二平五").unwrap(),
            mv("h2e2")
        );
        assert!(parse_any_vietnamese(&start, "C2.5").is_err());
    }

    #[test]
    fn errors_name_the_text() {
        let p = Position::new();
        for t in [
            "", "P2", "P2+5", "K5.1", "Q2-5", "P0-5", "P2-0", "炮二", "P2-55",
        ] {
            let e = parse_vietnamese(&p, t).unwrap_err();
            assert!(e.is_syntax(), "{t}: {e}");
        }
        let e = parse_vietnamese(&p, "M5.7").unwrap_err();
        assert!(e.to_string().contains("M5.7"), "{e}");
    }
}
