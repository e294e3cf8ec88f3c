//! The descriptive notations' common ground: WXF (`wxf.rs`) and Chinese
//! (`chinese.rs`) both name a move by *which piece* (role + the file it stands
//! on, or its place among pieces of its kind doubled on one file), a
//! *direction* (forward 进 `+`, backward 退 `-`, sideways 平 `.`) and a *number*
//! (distance for straight moves along a file, destination file otherwise).
//! Files are counted from each side's own right: for Red ICCS file `i` is 1 and
//! `a` is 9; for Black `a` is 1 and `i` is 9.
//!
//! A notation implements [`Descriptive`]: it reads its text into a [`Reading`]
//! and writes a [`Description`]. Parsing (the reading resolved to the one legal
//! move it denotes, by `resolve.rs`) and writing (the canonical description
//! computed by [`describe`], ICCS where a move cannot be described) are shared.

mod resolve;

use super::NotationError;
use crate::{Color, Move, Piece, Position, Role, Square};
use resolve::resolve;

/// A notation that names a move by piece, direction and number (WXF, Chinese).
pub(crate) trait Descriptive {
    /// Reads a text into what it says, or a syntax error.
    fn read(text: &str) -> Result<Reading, NotationError>;

    /// Writes a description in this notation.
    fn write(d: &Description) -> String;

    /// Reads `text` and finds the legal move it denotes in `pos`.
    fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
        resolve(pos, text, &Self::read(text)?)
    }

    /// Writes `m` (a legal move in `pos`, the position before it). A move that
    /// no piece could make by its movement rule (empty starting square, a rook
    /// moving diagonally…) cannot be described; it is written in ICCS instead.
    fn text(pos: &Position, m: Move) -> String {
        match describe(pos, m) {
            Some(d) => Self::write(&d),
            None => m.to_string(), // ICCS (`Move`'s Display)
        }
    }
}

/// Direction of a move as the mover sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// 进 `+`: towards the opponent.
    Forward,
    /// 退 `-`: towards one's own back rank.
    Backward,
    /// 平 `.`: along the rank.
    Sideways,
}

/// Which of the pieces of one kind doubled on a file is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// The front one (前, `+`).
    Front,
    /// The rear one (后, `-`).
    Rear,
    /// The middle one of three (or five) (中; WXF mid pawn).
    Middle,
    /// Counted from the front, 1-based (一兵, 二兵, …; pyffish's `17.8`).
    Ordinal(u8),
    /// WXF `P+`: front of two or three, second from the front of four or five.
    WxfFront,
    /// WXF `P-`: rear of two or three, second from the rear of four or five.
    WxfRear,
}

/// Which piece a description names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selector {
    /// The piece of the role on this file (own numbering 1..=9). If several
    /// stand there, the one that can make the move; `wxf_mid` prefers the middle
    /// pawn of three or five (WXF writes the mid pawn like a lone one).
    File { file: u8, wxf_mid: bool },
    /// A piece among several of the role on one file; the file is given when
    /// pawns are doubled on more than one file.
    Tandem { file: Option<u8>, pick: Pick },
}

/// What a move text says: which piece, which way, how far / to which file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reading {
    /// The piece named: its role and how it is picked out. Several entries are
    /// alternative readings of the same text, tried in order.
    pub pieces: Vec<(Role, Selector)>,
    pub direction: Direction,
    /// Distance (straight moves along a file) or destination file (own numbering).
    pub number: u8,
}

/// The file number 1..=9 a side uses for the ICCS file 0..=8.
pub(crate) fn own_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The ICCS file 0..=8 of a side's own file number 1..=9 (None if out of range).
pub(crate) fn iccs_file(color: Color, own: u8) -> Option<u8> {
    if !(1..=9).contains(&own) {
        return None;
    }
    Some(match color {
        Color::Red => 9 - own,
        Color::Black => own - 1,
    })
}

/// How far forward (from `color`'s point of view) a rank is: 0 = own back rank.
fn forwardness(color: Color, rank: u8) -> u8 {
    match color {
        Color::Red => rank,
        Color::Black => 9 - rank,
    }
}

/// Squares of `color`'s pieces of `role` on ICCS `file`, front (most advanced) first.
pub(crate) fn on_file(pos: &Position, color: Color, role: Role, file: u8) -> Vec<Square> {
    let piece = Piece::new(color, role);
    let mut squares: Vec<Square> = (0..10u8)
        .filter_map(|rank| Square::new(file, rank))
        .filter(|&sq| pos.piece_at(sq) == Some(piece))
        .collect();
    squares.sort_by_key(|sq| std::cmp::Reverse(forwardness(color, sq.rank())));
    squares
}

/// ICCS files on which `color` has two or more pieces of `role`.
pub(crate) fn doubled_files(pos: &Position, color: Color, role: Role) -> Vec<u8> {
    (0..9u8)
        .filter(|&f| on_file(pos, color, role, f).len() >= 2)
        .collect()
}

/// Where a piece stands among pieces of its kind doubled on its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tandem {
    /// 0 = front (most advanced).
    pub index: usize,
    /// How many of the mover's pieces of this role stand on the file (>= 2).
    pub count: usize,
    /// Pawns only: another file also holds two or more of the mover's pawns,
    /// so the file must be named too.
    pub multi_file: bool,
}

impl Tandem {
    /// Front (前), rear (后), or one between them (中): the place both notations
    /// write for two or three pieces on a file.
    pub fn place(self) -> Pick {
        match self.index {
            0 => Pick::Front,
            i if i + 1 == self.count => Pick::Rear,
            _ => Pick::Middle,
        }
    }
}

/// The canonical description of a move, from which WXF and Chinese text are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Description {
    pub piece: Piece,
    /// The mover's own file number 1..=9 of the starting square.
    pub file: u8,
    /// Set when the piece has to be told apart from others on its file.
    /// Advisors and elephants never need it (direction and destination already
    /// identify them), nor does the king.
    pub tandem: Option<Tandem>,
    pub direction: Direction,
    pub number: u8,
}

/// Describes `m` in `pos` (before the move). None when `from` is empty or the
/// geometry is not a move of that kind of piece (then it cannot be described).
pub(crate) fn describe(pos: &Position, m: Move) -> Option<Description> {
    let piece = pos.piece_at(m.from)?;
    let color = piece.color;
    let (from, to) = (m.from, m.to);
    if from == to {
        return None;
    }
    let df = (to.file() as i16 - from.file() as i16).abs();
    let dr = (to.rank() as i16 - from.rank() as i16).abs();
    let geometry_ok = match piece.role {
        Role::Rook | Role::Cannon | Role::Pawn | Role::King => df == 0 || dr == 0,
        Role::Horse => (df == 1 && dr == 2) || (df == 2 && dr == 1),
        Role::Advisor => df == 1 && dr == 1,
        Role::Elephant => df == 2 && dr == 2,
    };
    if !geometry_ok {
        return None;
    }
    let direction = if from.rank() == to.rank() {
        Direction::Sideways
    } else if forwardness(color, to.rank()) > forwardness(color, from.rank()) {
        Direction::Forward
    } else {
        Direction::Backward
    };
    let number = if from.file() == to.file() {
        dr as u8
    } else {
        own_file(color, to.file())
    };
    let tandem = match piece.role {
        Role::King | Role::Advisor | Role::Elephant => None,
        role => {
            let here = on_file(pos, color, role, from.file());
            let index = here.iter().position(|&s| s == from)?;
            if here.len() >= 2 {
                let multi_file = role == Role::Pawn
                    && doubled_files(pos, color, role)
                        .iter()
                        .any(|&f| f != from.file());
                Some(Tandem {
                    index,
                    count: here.len(),
                    multi_file,
                })
            } else {
                None
            }
        }
    };
    Some(Description {
        piece,
        file: own_file(color, from.file()),
        tandem,
        direction,
        number,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_numbering_is_from_each_sides_right() {
        assert_eq!(own_file(Color::Red, 8), 1); // i
        assert_eq!(own_file(Color::Red, 0), 9); // a
        assert_eq!(own_file(Color::Black, 0), 1);
        assert_eq!(own_file(Color::Black, 8), 9);
        for c in Color::ALL {
            for f in 0..9 {
                assert_eq!(iccs_file(c, own_file(c, f)), Some(f));
            }
        }
        assert_eq!(iccs_file(Color::Red, 0), None);
        assert_eq!(iccs_file(Color::Red, 10), None);
    }

    #[test]
    fn tandem_places() {
        let t = |index, count| {
            Tandem {
                index,
                count,
                multi_file: false,
            }
            .place()
        };
        assert_eq!(t(0, 2), Pick::Front);
        assert_eq!(t(1, 2), Pick::Rear);
        assert_eq!(t(1, 3), Pick::Middle);
        assert_eq!(t(2, 3), Pick::Rear);
    }
}
