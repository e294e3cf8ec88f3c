//! The moves in the follower's notation (记谱): Chinese (炮二平五), WXF
//! (C2.5) or ICCS (h2e2), written once per game by the xiangqi crate's
//! writers while replaying the game from its start position, and kept with
//! the view so a page or an event never replays a game again.

use proto::IccsMove;
use serde::{Serialize, Serializer};
use xiangqi::{Move, Position, Square};

/// A notation a follower may choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// 中文纵线记谱: 炮二平五 (in the page's script: 傌/馬 for zh-Hant).
    Chinese,
    /// WXF: C2.5.
    Wxf,
    /// ICCS coordinates: h2e2.
    Iccs,
}

impl Notation {
    /// Every notation, in the order the page offers them.
    pub const ALL: [Notation; 3] = [Notation::Chinese, Notation::Wxf, Notation::Iccs];

    /// The name in a URL (`?notation=wxf`).
    pub fn key(self) -> &'static str {
        match self {
            Notation::Chinese => "zh",
            Notation::Wxf => "wxf",
            Notation::Iccs => "iccs",
        }
    }

    /// The notation a URL names.
    pub fn from_key(key: &str) -> Option<Notation> {
        Notation::ALL.into_iter().find(|n| n.key() == key)
    }
}

/// One notation's texts of a game's plies, written end to end in one
/// string with where each ends (issue 40: a `String` a ply was 24 bytes
/// of header and a heap block of its own, ~45 bytes for a 4-character
/// move; here it is the text and 4 bytes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Column {
    text: String,
    /// The end of each ply's text in `text`, non-decreasing.
    ends: Vec<u32>,
}

impl Column {
    /// No plies.
    pub const fn new() -> Column {
        Column {
            text: String::new(),
            ends: Vec::new(),
        }
    }

    /// The number of plies.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Bytes allocated past what the texts use.
    pub fn spare_bytes(&self) -> usize {
        self.text.capacity() - self.text.len() + (self.ends.capacity() - self.ends.len()) * 4
    }

    /// A copy with room for `more` plies of up to `bytes` each past these.
    pub fn with_room(&self, more: usize, bytes: usize) -> Column {
        let mut text = String::with_capacity(self.text.len() + more * bytes);
        text.push_str(&self.text);
        Column {
            text,
            ends: with_room(&self.ends, more),
        }
    }

    /// Whether it holds no ply.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The text of ply `i` (0-based).
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = match i {
            0 => 0,
            _ => self.ends.get(i - 1).map_or(0, |&e| e as usize),
        };
        self.text.get(start..end)
    }

    /// Appends the text of the next ply. A game whose texts would pass
    /// 4 GiB (hundreds of millions of plies: no game the hall accepts)
    /// gets empty texts from there on rather than wrong ones.
    pub fn push(&mut self, ply: &str) {
        let end = self.text.len() + ply.len();
        match u32::try_from(end) {
            Ok(end) => {
                self.text.push_str(ply);
                self.ends.push(end);
            }
            Err(_) => {
                let last = self.ends.last().copied().unwrap_or(0);
                self.ends.push(last);
            }
        }
    }

    /// The texts of the plies from `from` (none past the end).
    pub fn from(&self, from: usize) -> Tail<'_> {
        Tail { column: self, from }
    }

    /// Every ply's text, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The texts as a list of owned strings (tests and comparisons).
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_owned).collect()
    }
}

/// A column's plies from one on, written as a JSON list of strings.
#[derive(Debug, Clone, Copy)]
pub struct Tail<'a> {
    column: &'a Column,
    from: usize,
}

impl Tail<'_> {
    /// The texts, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (self.from..self.column.len()).filter_map(|i| self.column.get(i))
    }
}

impl Serialize for Tail<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl Serialize for Column {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.from(0).serialize(s)
    }
}

/// One game's moves written in WXF and in Chinese (Simplified).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Texts {
    /// WXF, one text per ply.
    pub wxf: Column,
    /// Chinese (Simplified characters), one text per ply.
    pub zh: Column,
}

impl Texts {
    /// No plies.
    pub const fn new() -> Texts {
        Texts {
            wxf: Column::new(),
            zh: Column::new(),
        }
    }

    /// A copy with room for `more` plies past these (a WXF move is at most
    /// 5 bytes, a Chinese one 4 characters of 3 bytes).
    pub fn with_room(&self, more: usize) -> Texts {
        Texts {
            wxf: self.wxf.with_room(more, 5),
            zh: self.zh.with_room(more, 12),
        }
    }

    /// Ply `i` (0-based) in notation `n`; ICCS from the move itself.
    pub fn get(&self, n: Notation, i: usize, moves: &[IccsMove], hant: bool) -> String {
        let text = match n {
            Notation::Iccs => None,
            Notation::Wxf => self.wxf.get(i).map(str::to_owned),
            Notation::Chinese if hant => self.zh.get(i).map(to_hant),
            Notation::Chinese => self.zh.get(i).map(str::to_owned),
        };
        text.or_else(|| moves.get(i).map(ToString::to_string))
            .unwrap_or_default()
    }
}

/// A copy of `v` with room for `more` items past its own, allocated once.
pub fn with_room<T: Copy>(v: &[T], more: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(v.len() + more);
    out.extend_from_slice(v);
    out
}

fn to_move(m: IccsMove) -> Option<Move> {
    Some(Move::new(
        Square::from_index(m.from)?,
        Square::from_index(m.to)?,
    ))
}

/// The texts of `moves` played from `start_fen`. A move that does not
/// replay (the server would not have accepted it) and every move after it
/// are written in ICCS in both.
pub fn texts(start_fen: &str, moves: &[IccsMove]) -> Texts {
    let mut pos = Position::from_fen(start_fen).ok();
    let mut out = Texts::new();
    extend(&mut out, &mut pos, moves);
    out
}

/// Appends the texts of `moves` played from `pos` (the position after the
/// moves `out` already holds; `None` once a move did not replay) and
/// leaves `pos` after them: a game's next moves are written without
/// replaying it from the start.
pub fn extend(out: &mut Texts, pos: &mut Option<Position>, moves: &[IccsMove]) {
    for &im in moves {
        let played = pos.as_mut().and_then(|p| {
            let m = to_move(im).filter(|m| p.is_legal(*m))?;
            let t = (xiangqi::to_wxf(p, m), xiangqi::to_chinese(p, m));
            p.play_unchecked(m);
            Some(t)
        });
        match played {
            Some((w, z)) => {
                out.wxf.push(&w);
                out.zh.push(&z);
            }
            None => {
                *pos = None;
                let iccs = im.to_string();
                out.wxf.push(&iccs);
                out.zh.push(&iccs);
            }
        }
    }
}

/// Chinese notation in Traditional characters (車 馬 帥 將 進 後); the
/// other glyphs of the notation are written alike in both scripts.
pub fn to_hant(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '车' => '車',
            '马' => '馬',
            '帅' => '帥',
            '将' => '將',
            '进' => '進',
            '后' => '後',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> IccsMove {
        IccsMove::parse(s).expect("ICCS")
    }

    #[test]
    fn writes_wxf_and_chinese_and_falls_back_to_iccs() {
        let start = Position::new().to_fen();
        let t = texts(&start, &[mv("h2e2"), mv("h9g7"), mv("a0a5")]);
        assert_eq!(
            t.wxf.to_vec()[..2],
            ["C2.5".to_string(), "H8+7".to_string()]
        );
        assert_eq!(t.zh.get(0), Some("炮二平五"));
        // a0a5 jumps over a pawn: not legal, written as it came.
        assert_eq!(t.wxf.get(2), Some("a0a5"));
        assert_eq!(t.wxf.get(3), None);
        let tail: Vec<&str> = t.zh.iter().skip(1).collect();
        assert_eq!(tail.len(), 2);
        assert_eq!(
            serde_json::to_string(&t.zh.from(1)).ok(),
            serde_json::to_string(&tail).ok()
        );
        assert_eq!(
            serde_json::to_string(&t.wxf.from(7)).ok().as_deref(),
            Some("[]")
        );
        assert_eq!(to_hant("马八进七"), "馬八進七");
        // Written on from where the game stands, the same texts.
        let mut pos = Position::from_fen(&start).ok();
        let mut parts = texts(&start, &[]);
        extend(&mut parts, &mut pos, &[mv("h2e2")]);
        extend(&mut parts, &mut pos, &[mv("h9g7"), mv("a0a5")]);
        assert_eq!(parts, t);
        let moves = [mv("h2e2")];
        assert_eq!(t.get(Notation::Iccs, 0, &moves, false), "h2e2");
        assert_eq!(t.get(Notation::Chinese, 0, &moves, true), "炮二平五");
    }
}
