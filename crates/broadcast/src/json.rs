//! Pieces of the feeds' JSON written straight from the view's own forms
//! (the ticks', the catch-ups' and the picture's entries): a game's ply
//! times from the hall's compact list, moves as their ICCS texts, without
//! a list or a `String` between.

use std::fmt::Display;

use hall::ply_clocks::PlyClocks;
use proto::IccsMove;
use serde::{Serialize, Serializer};

/// A game's ply times from one ply on, written as a JSON list (`null`
/// where a ply has none).
#[derive(Debug, Clone, Copy)]
pub struct PlyTimes<'a> {
    clocks: &'a PlyClocks,
    from: usize,
}

impl PlyTimes<'_> {
    /// The times of `clocks` from ply `from`.
    pub fn new(clocks: &PlyClocks, from: usize) -> PlyTimes<'_> {
        PlyTimes { clocks, from }
    }
}

impl Serialize for PlyTimes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.from..self.clocks.len()).map(|i| self.clocks.get(i)))
    }
}

/// Moves as their ICCS texts, each written as it is formatted.
pub fn iccs<S: Serializer>(moves: &&[IccsMove], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(moves.iter().map(Text))
}

/// A value written as its `Display` text, without a `String` between.
struct Text<'a, T>(&'a T);

impl<T: Display> Serialize for Text<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}
