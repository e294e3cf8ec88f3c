//! Why a move is illegal in a position (used by `Position::check_move` and `play`).

use crate::Move;

/// The rule a move breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IllegalReason {
    /// There is no piece on the `from` square.
    #[error("no piece on the starting square")]
    EmptySquare,
    /// The piece on `from` belongs to the side not to move.
    #[error("the piece belongs to the side not to move")]
    NotYourPiece,
    /// The target square holds a piece of the mover's own side.
    #[error("the target square holds one of the mover's own pieces")]
    OwnPieceOnTarget,
    /// The move breaks the piece's movement rule (palace, river, elephant eye,
    /// horse leg, cannon screen, pawn direction, blocked path…).
    #[error("the piece cannot move there")]
    PieceCannotMoveThere,
    /// The move leaves (or puts) the mover's own king in check.
    #[error("the move leaves the mover's king in check")]
    LeavesKingInCheck,
    /// Flying general (对面笑): the move leaves the two kings facing on an open file.
    #[error("the move leaves the two kings facing each other on an open file")]
    KingsFacing,
}

/// An illegal move and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// The move that was refused.
    pub mv: Move,
    /// Why.
    pub reason: IllegalReason,
}
