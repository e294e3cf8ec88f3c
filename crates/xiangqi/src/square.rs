//! Board squares (点): 9 files a..i from Red's left, 10 ranks 0..9 from Red's side (ICCS).

use std::fmt;
use std::str::FromStr;

/// One of the 90 points of the board. Index = rank * 9 + file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// Error parsing a square name such as `e0`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {text:?}: expected a file a-i and a rank 0-9, like \"e0\"")]
pub struct ParseSquareError {
    /// The text that failed to parse (truncated to 16 characters).
    pub text: String,
}

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 90;

    /// All squares in index order (a0, b0, …, i0, a1, …, i9).
    pub const ALL: [Square; 90] = {
        let mut all = [Square(0); 90];
        let mut i = 0;
        while i < 90 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square on `file` (0..=8, a..i) and `rank` (0..=9), if on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The square with index `i` (0..90), if any.
    #[inline]
    pub const fn from_index(i: u8) -> Option<Square> {
        if i < 90 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// Caller guarantees `i < 90`.
    #[inline]
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < 90);
        Square(i as u8)
    }

    /// Iterator over all 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }

    /// File 0..=8 (a..i from Red's left).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0..=9 (0 = Red's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// Index 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square reflected top to bottom (rank r becomes 9 - r).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square((9 - self.rank()) * 9 + self.file())
    }

    /// The square reflected left to right (file f becomes 8 - f).
    #[inline]
    pub const fn flip_file(self) -> Square {
        Square(self.rank() * 9 + (8 - self.file()))
    }

    /// ICCS file letter `a`..`i`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// ICCS rank digit `0`..`9`.
    pub const fn rank_char(self) -> char {
        (b'0' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError {
            text: s.chars().take(16).collect(),
        };
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(err());
        }
        let file = b[0].to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&file) || !b[1].is_ascii_digit() {
            return Err(err());
        }
        Square::new(file - b'a', b[1] - b'0').ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            let text = sq.to_string();
            assert_eq!(text.parse::<Square>(), Ok(sq));
            assert_eq!(text.to_uppercase().parse::<Square>(), Ok(sq));
            assert_eq!(Square::new(sq.file(), sq.rank()), Some(sq));
            assert_eq!(Square::from_index(sq.index() as u8), Some(sq));
            assert_eq!(sq.flip_rank().flip_rank(), sq);
            assert_eq!(sq.flip_file().flip_file(), sq);
        }
        assert_eq!(Square::ALL.len(), 90);
        assert_eq!("e0".parse::<Square>().unwrap().index(), 4);
        assert_eq!("i9".parse::<Square>().unwrap().index(), 89);
    }

    #[test]
    fn rejects_bad_names() {
        for bad in ["", "e", "j0", "e10", "0e", "ee", "e0 ", "é0", "e٣"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?}");
        }
        assert_eq!(Square::new(9, 0), None);
        assert_eq!(Square::new(0, 10), None);
        assert_eq!(Square::from_index(90), None);
        let err = "z9".parse::<Square>().unwrap_err();
        assert!(err.to_string().contains("\"z9\""));
    }
}
