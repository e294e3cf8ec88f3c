//! The two sides: Red (红, moves first, ranks 0-4) and Black (黑, ranks 5-9),
//! their names, and [`ByColor`]: one value for each side.

use std::fmt;
use std::ops::{Index, IndexMut};

/// A side of the game. Red (红方) moves first and sits on ranks 0-4; Black (黑方) on ranks 5-9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red (红), upper case in FEN, moves first.
    Red = 0,
    /// Black (黑), lower case in FEN.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black (table index).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Is this Red?
    #[inline]
    pub const fn is_red(self) -> bool {
        matches!(self, Color::Red)
    }

    /// The side's name in English texts: `Red` / `Black` (`Display` gives
    /// the lower-case word).
    pub const fn name_en(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }

    /// The side's name in lower case, as in JSON fields and what `Display`
    /// writes: `red` / `black`.
    pub const fn name_lower(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// The side's name in Chinese texts: 红方 / 黑方.
    pub const fn name_zh(self) -> &'static str {
        match self {
            Color::Red => "红方",
            Color::Black => "黑方",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name_lower())
    }
}

/// One value for each side (fouls, arrival times, ...): indexed by
/// [`Color`] (and by the protocol's side, in crates/proto).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Red's and Black's values.
    pub const fn new(red: T, black: T) -> ByColor<T> {
        ByColor { red, black }
    }

    /// Each value mapped by `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            red: f(self.red),
            black: f(self.black),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;

    fn index(&self, c: Color) -> &T {
        match c {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        }
    }
}

impl<T> From<[T; 2]> for ByColor<T> {
    /// `[red, black]`.
    fn from([red, black]: [T; 2]) -> ByColor<T> {
        ByColor { red, black }
    }
}

impl<T> From<ByColor<T>> for [T; 2] {
    /// `[red, black]`.
    fn from(p: ByColor<T>) -> [T; 2] {
        [p.red, p.black]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_indexed_by_colour_and_converts_to_red_black_arrays() {
        let mut p = ByColor::new(1, 2);
        p[Color::Black] += 10;
        assert_eq!((p[Color::Red], p[Color::Black]), (1, 12));
        assert_eq!(<[i32; 2]>::from(p), [1, 12]);
        assert_eq!(ByColor::from([3, 4]).map(|x| x * 2), ByColor::new(6, 8));
        assert_eq!(Color::Black.name_zh(), "黑方");
        assert_eq!(Color::Red.name_en(), "Red");
    }
}
