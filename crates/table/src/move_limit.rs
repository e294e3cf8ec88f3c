//! The declared move limit 限著 (ROC) at the terminal: the arbiter's
//! declaration comes as `ControlToTable::MoveLimit` (and in the session on
//! connecting); the terminal counts it from its own board with the
//! rulebook's counter, as the hall does, and shows each player's remaining
//! moves.

use crate::game::Board;
use proto::convert::color;
use proto::{MoveLimit, MoveLimitView, Side};
use rulebook::limit::PlyFact;
use rulebook::roc_limit::{roc_params, Declarer, RocDeclaration, RocLimitCounter, RocLimitState};
use xiangqi::Color;

/// Where `limit` stands after the moves on `board`.
pub fn count(board: &Board, limit: &MoveLimit) -> MoveLimitView {
    let decl = RocDeclaration {
        at_ply: limit.at_ply,
        by: match limit.requested_by {
            Some(s) => Declarer::Player(color(s)),
            None => Declarer::Arbiter,
        },
        limited: color(limit.limited),
        book_draw: limit.book_draw,
    };
    let params = roc_params(limit.moves_each, limit.reply_cap);
    let mut c = RocLimitCounter::new(decl);
    let mut pos = board.start().clone();
    for &m in board.moves() {
        c.record(PlyFact {
            by: pos.turn(),
            capture: pos.piece_at(m.to).is_some(),
            check: pos.gives_check(m),
        });
        pos.play_unchecked(m);
    }
    MoveLimitView {
        limit: *limit,
        remaining_red: c.remaining(Color::Red, &params),
        remaining_black: c.remaining(Color::Black, &params),
        struck: c.struck(&params),
        capture_at_ply: match c.state(&params) {
            RocLimitState::Reset { at_ply } => Some(at_ply),
            _ => None,
        },
    }
}

/// What the terminal shows beside `side`'s clock: its remaining moves in
/// the limit, the limited side marked.
pub fn side_words(v: &MoveLimitView, side: Side) -> String {
    let mark = if v.limit.limited == side {
        " limited 被限"
    } else {
        ""
    };
    let n = v.remaining(side);
    format!("· limit: {n} to go 限著余{n}步{mark}")
}

/// A line for the limit's end: full (a draw may be claimed) or stopped by
/// a capture (the arbiter resets it); `None` while it runs.
pub fn note(v: &MoveLimitView) -> Option<String> {
    if let Some(p) = v.capture_at_ply {
        return Some(format!(
            "move limit: capture at ply {p}, the arbiter resets it · 限著期间吃子，待裁判重定"
        ));
    }
    v.full()
        .then(|| "move limit full: a draw may be claimed · 限著已满，可申请判和".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_per_player_from_the_declaration() {
        let mut b = Board::default();
        let limit = MoveLimit {
            at_ply: 2,
            requested_by: Some(Side::Black),
            limited: Side::Red,
            book_draw: false,
            moves_each: 3,
            reply_cap: 5,
        };
        for m in ["h0g2", "h9g7", "g2h0", "g7h9", "h0g2"] {
            b.play(b.parse(m).unwrap()).unwrap();
        }
        let v = count(&b, &limit);
        assert_eq!((v.remaining_red, v.remaining_black), (1, 2));
        assert!(side_words(&v, Side::Red).contains("1 to go 限著余1步 limited"));
        assert!(side_words(&v, Side::Black).ends_with("余2步"));
        assert_eq!(note(&v), None);
        for m in ["h9g7", "g2h0", "g7h9"] {
            b.play(b.parse(m).unwrap()).unwrap();
        }
        let v = count(&b, &limit);
        assert!(v.full(), "{v:?}");
        assert!(note(&v).is_some_and(|n| n.contains("full")));
    }
}
