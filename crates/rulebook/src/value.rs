//! Piece values used to judge chases (捉): which attacks "intend to win material".
//!
//! The AXF text never gives numbers; it ranks pieces by what they may chase
//! (a horse or cannon may not chase a rook even when it is protected, AXF-S6;
//! a rook may chase a protected cannon, AXF-D12; an uncrossed pawn may be
//! chased, AXF-S3). The scale below reproduces that order: rook above horse
//! and cannon (equal), those above advisor, elephant and crossed pawn (equal),
//! and an uncrossed pawn lowest. The CXA rule set ("a chase is an attack that
//! would win material", CXA-3) uses the same scale.

use xiangqi::{Color, Piece, Role, Square};

/// Material value of a piece standing on `sq` (pawns gain value after crossing the river).
pub fn value(piece: Piece, sq: Square) -> u32 {
    match piece.role {
        Role::King => 1000,
        Role::Rook => 9,
        Role::Horse | Role::Cannon => 4,
        Role::Advisor | Role::Elephant => 2,
        Role::Pawn => {
            if pawn_crossed(piece.color, sq) {
                2
            } else {
                1
            }
        }
    }
}

/// Whether a pawn of `color` on `sq` has crossed the river (过河兵/卒).
pub fn pawn_crossed(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank() >= 5,
        Color::Black => sq.rank() <= 4,
    }
}

/// Whether the piece on `sq` is a pawn that has not crossed the river (未过河兵卒),
/// which every rule set allows to be chased (AXF-S3, AXF-D20).
pub fn is_uncrossed_pawn(piece: Piece, sq: Square) -> bool {
    piece.role == Role::Pawn && !pawn_crossed(piece.color, sq)
}
