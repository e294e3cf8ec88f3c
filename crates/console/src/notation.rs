//! Moves in the arbiter's notation (记谱): Chinese (炮二平五; under zh-Hant
//! in the ROC text's glyphs, 傌八進七), WXF (C2=5), Vietnamese (P2-5) or
//! ICCS (h2e2), written by crates/xiangqi's notation writers while replaying
//! a table's moves from the start position; and reading a typed move (the
//! sealed move) in any of them.

use proto::{IccsMove, TableView};
use xiangqi::{Move, Position, Square};

/// How the move list is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// 中文纵线记谱: 炮二平五.
    Chinese,
    /// WXF: C2=5.
    Wxf,
    /// Vietnamese: P2-5 (ký hiệu Việt Nam; `.` tiến, `/` thoái, `-` bình).
    Vietnamese,
    /// ICCS coordinates: h2e2.
    Iccs,
}

impl Notation {
    /// The next notation of the `n` key's cycle.
    pub fn next(self) -> Notation {
        match self {
            Notation::Chinese => Notation::Wxf,
            Notation::Wxf => Notation::Vietnamese,
            Notation::Vietnamese => Notation::Iccs,
            Notation::Iccs => Notation::Chinese,
        }
    }
}

fn to_move(m: IccsMove) -> Option<Move> {
    Some(Move::new(
        Square::from_index(m.from)?,
        Square::from_index(m.to)?,
    ))
}

fn from_move(m: Move) -> Option<IccsMove> {
    IccsMove::new(
        u8::try_from(m.from.index()).ok()?,
        u8::try_from(m.to.index()).ok()?,
    )
}

/// The table's moves in notation `n`, one text per ply. A move that does
/// not replay (which the server would not have accepted) and every move
/// after it are given in ICCS.
pub fn move_texts(moves: &[IccsMove], n: Notation) -> Vec<String> {
    let mut pos = Some(Position::new());
    moves
        .iter()
        .map(|&im| {
            let Some(p) = pos.as_mut() else {
                return im.to_string();
            };
            let Some(m) = to_move(im).filter(|m| p.is_legal(*m)) else {
                pos = None;
                return im.to_string();
            };
            let text = match n {
                Notation::Chinese => xiangqi::to_chinese(p, m),
                Notation::Wxf => xiangqi::to_wxf(p, m),
                Notation::Vietnamese => xiangqi::to_vietnamese(p, m),
                Notation::Iccs => im.to_string(),
            };
            p.play_unchecked(m);
            text
        })
        .collect()
}

/// The table's moves in notation `n` as a reader of `lang` writes them:
/// Chinese notation in the ROC text's Traditional glyphs under zh-Hant
/// ([`xiangqi::chinese_traditional`]).
pub fn move_texts_in(moves: &[IccsMove], n: Notation, lang: i18n::Lang) -> Vec<String> {
    let mut texts = move_texts(moves, n);
    if n == Notation::Chinese && lang == i18n::Lang::ZhHant {
        for (ply, t) in texts.iter_mut().enumerate() {
            let mover = if ply % 2 == 0 {
                xiangqi::Color::Red
            } else {
                xiangqi::Color::Black
            };
            *t = xiangqi::chinese_traditional(t, mover);
        }
    }
    texts
}

/// Reads a typed move for `table`: ICCS always; WXF and Chinese on the
/// table's current position.
pub fn parse_move(table: Option<&TableView>, text: &str) -> Option<IccsMove> {
    if let Some(m) = IccsMove::parse(text) {
        return Some(m);
    }
    let pos = Position::from_fen(&table?.fen).ok()?;
    from_move(xiangqi::parse_any(&pos, text).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> IccsMove {
        IccsMove::parse(s).unwrap()
    }

    #[test]
    fn writes_chinese_and_wxf() {
        let moves = [mv("h2e2"), mv("h9g7")];
        let zh = move_texts(&moves, Notation::Chinese);
        assert_eq!(zh[0], "炮二平五");
        assert_eq!(zh.len(), 2);
        let wxf = move_texts(&moves, Notation::Wxf);
        assert!(wxf[0].starts_with('C'), "{wxf:?}");
        assert_eq!(move_texts(&moves, Notation::Iccs), ["h2e2", "h9g7"]);
    }

    #[test]
    fn writes_vietnamese_and_traditional_glyphs() {
        let moves = [mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("b7e7")];
        assert_eq!(
            move_texts(&moves, Notation::Vietnamese),
            ["P2-5", "M8.7", "M2.3", "P2-5"]
        );
        let hant = move_texts_in(&moves, Notation::Chinese, i18n::Lang::ZhHant);
        assert_eq!(hant, ["炮二平五", "馬8進7", "傌二進三", "包2平5"]);
        let hans = move_texts_in(&moves, Notation::Chinese, i18n::Lang::ZhHans);
        assert_eq!(hans, ["炮二平五", "马8进7", "马二进三", "炮2平5"]);
    }

    #[test]
    fn an_unplayable_move_falls_back_to_iccs() {
        let moves = [mv("a0a5"), mv("h2e2")];
        assert_eq!(move_texts(&moves, Notation::Chinese), ["a0a5", "h2e2"]);
    }
}
