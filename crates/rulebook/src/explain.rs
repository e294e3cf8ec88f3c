//! A ruling's explanation as data (裁决说明): a catalogue id and typed
//! facts — sides, pieces, squares, counts, rule ids, nested parts and
//! lists of parts — instead of finished sentences, so that every client
//! renders it in its own language (the `caipan-i18n` catalogues,
//! `locales/rulings/*.ftl`).
//!
//! The type lives here, in the rulebook, because the rulebook is what
//! knows the facts and it depends on nothing but `xiangqi`: `proto`
//! (which already depends on the rulebook for its conversions) turns an
//! [`Explanation`] into a wire `proto::Message`, and `i18n` renders that.
//! The dependencies keep pointing one way: rulebook ← proto ← i18n.

use crate::rule_id::RuleId;
use xiangqi::{Color, Piece, Square};

/// An explanation: the id of its sentence and the facts it names, in the
/// order the sentence's arguments are given.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Explanation {
    /// The catalogue id (`ruling-repetition`).
    pub id: &'static str,
    /// Named facts.
    pub facts: Vec<(&'static str, Fact)>,
}

/// One fact of an explanation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// A count: plies, occurrences, cycles, a ply number.
    Count(i64),
    /// A time in milliseconds, shown as a clock shows it (`5:00`).
    Duration(u64),
    /// A side (红方 / Red).
    Side(Color),
    /// A piece of a side.
    Piece(Piece),
    /// A square (`b2`), never translated.
    Square(Square),
    /// Rule ids (`AXF-D1`), never translated.
    Rules(Vec<RuleId>),
    /// A nested part.
    Part(Box<Explanation>),
    /// Parts joined by the separator `sep` names (a catalogue id: `、` in
    /// Chinese and `, ` in English for pieces).
    List {
        /// The separator's id.
        sep: &'static str,
        /// The parts.
        items: Vec<Explanation>,
    },
}

/// The separator of a list of pieces: `、` / `, `.
pub const SEP_PIECES: &str = "ruling-sep-pieces";
/// The separator of notes appended to a ruling: nothing in Chinese, a
/// space in English (each note is a sentence).
pub const SEP_NOTES: &str = "ruling-sep-notes";
/// The separator of the arbiter's reasons: `；` / `; `.
pub const SEP_REASONS: &str = "ruling-sep-reasons";

impl Explanation {
    /// An explanation without facts.
    pub fn new(id: &'static str) -> Explanation {
        Explanation {
            id,
            facts: Vec::new(),
        }
    }

    /// This explanation with one more fact.
    pub fn fact(mut self, name: &'static str, fact: Fact) -> Explanation {
        self.facts.push((name, fact));
        self
    }

    /// With a count.
    pub fn count(self, name: &'static str, n: usize) -> Explanation {
        self.fact(name, Fact::Count(i64::try_from(n).unwrap_or(i64::MAX)))
    }

    /// With a side.
    pub fn side(self, name: &'static str, side: Color) -> Explanation {
        self.fact(name, Fact::Side(side))
    }

    /// With a nested part.
    pub fn part(self, name: &'static str, part: Explanation) -> Explanation {
        self.fact(name, Fact::Part(Box::new(part)))
    }

    /// With rule ids.
    pub fn rules(self, name: &'static str, rules: &[RuleId]) -> Explanation {
        self.fact(name, Fact::Rules(rules.to_vec()))
    }

    /// With a list of parts.
    pub fn list(
        self,
        name: &'static str,
        sep: &'static str,
        items: Vec<Explanation>,
    ) -> Explanation {
        self.fact(name, Fact::List { sep, items })
    }

    /// The fact named `name`, if given.
    pub fn get(&self, name: &str) -> Option<&Fact> {
        self.facts.iter().find(|(n, _)| *n == name).map(|(_, f)| f)
    }

    /// This explanation and every part nested in it, depth first (for
    /// tests and for checking ids against the catalogues).
    pub fn walk<'a>(&'a self, out: &mut Vec<&'a Explanation>) {
        out.push(self);
        for (_, f) in &self.facts {
            match f {
                Fact::Part(p) => p.walk(out),
                Fact::List { items, .. } => items.iter().for_each(|i| i.walk(out)),
                _ => {}
            }
        }
    }
}

/// A piece on its square (`车(b2)` / `rook b2`).
pub fn piece_at(piece: Piece, square: Square) -> Explanation {
    Explanation::new("ruling-piece-at")
        .fact("piece", Fact::Piece(piece))
        .fact("square", Fact::Square(square))
}
