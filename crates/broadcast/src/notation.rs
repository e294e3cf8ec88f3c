//! The moves in the follower's notation (记谱): Chinese (炮二平五), WXF
//! (C2.5) or ICCS (h2e2), written once per game by the xiangqi crate's
//! writers while replaying the game from its start position, and kept with
//! the view so a page or an event never replays a game again.

use proto::IccsMove;
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

/// One game's moves written in WXF and in Chinese (Simplified).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Texts {
    /// WXF, one text per ply.
    pub wxf: Vec<String>,
    /// Chinese (Simplified characters), one text per ply.
    pub zh: Vec<String>,
}

impl Texts {
    /// Ply `i` (0-based) in notation `n`; ICCS from the move itself.
    pub fn get(&self, n: Notation, i: usize, moves: &[IccsMove], hant: bool) -> String {
        let text = match n {
            Notation::Iccs => None,
            Notation::Wxf => self.wxf.get(i).cloned(),
            Notation::Chinese if hant => self.zh.get(i).map(|t| to_hant(t)),
            Notation::Chinese => self.zh.get(i).cloned(),
        };
        text.or_else(|| moves.get(i).map(ToString::to_string))
            .unwrap_or_default()
    }
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
    let mut out = Texts {
        wxf: Vec::with_capacity(moves.len()),
        zh: Vec::with_capacity(moves.len()),
    };
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
                out.wxf.push(w);
                out.zh.push(z);
            }
            None => {
                *pos = None;
                out.wxf.push(im.to_string());
                out.zh.push(im.to_string());
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
        assert_eq!(t.wxf[..2], ["C2.5".to_string(), "H8+7".to_string()]);
        assert_eq!(t.zh[0], "炮二平五");
        // a0a5 jumps over a pawn: not legal, written as it came.
        assert_eq!(t.wxf[2], "a0a5");
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
