//! Moves in the arbiter's notation (记谱): Chinese (炮二平五), WXF (C2=5) or
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
    /// ICCS coordinates: h2e2.
    Iccs,
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
                Notation::Iccs => im.to_string(),
            };
            p.play_unchecked(m);
            text
        })
        .collect()
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
    fn an_unplayable_move_falls_back_to_iccs() {
        let moves = [mv("a0a5"), mv("h2e2")];
        assert_eq!(move_texts(&moves, Notation::Chinese), ["a0a5", "h2e2"]);
    }
}
