//! A position packed for keeping (紧凑局面): what a [`Position`] is made
//! of (the piece on each square, the side to move, the move counters) in
//! 100 bytes instead of its ~380 (bitboards by piece and colour, the hash
//! and the check cache are computed again when it is unpacked). For code
//! that holds one position per game for long and plays a move on it now
//! and then: the broadcast keeps one for each game of a 10,000-table hall.

use crate::board::Board;
use crate::color::Color;
use crate::position::Position;

/// A [`Position`] packed: [`PackedPosition::unpack`] gives it back equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackedPosition {
    /// Piece index + 1 on each square (0 when empty), as the board's
    /// mailbox.
    mailbox: [u8; 90],
    turn: Color,
    halfmove: u32,
    fullmove: u32,
}

impl Position {
    /// This position packed.
    pub fn pack(&self) -> PackedPosition {
        let mut mailbox = [0; 90];
        for (sq, code) in mailbox.iter_mut().enumerate() {
            *code = self.board.code(sq);
        }
        PackedPosition {
            mailbox,
            turn: self.turn,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
    }
}

impl PackedPosition {
    /// The position it was packed from.
    pub fn unpack(&self) -> Position {
        let mut board = Board::empty();
        for (sq, &code) in self.mailbox.iter().enumerate() {
            if code != 0 {
                board.put(usize::from(code) - 1, sq);
            }
        }
        Position::from_board_unvalidated(board, self.turn, self.halfmove, self.fullmove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position of a walk through the first legal moves (each ply
    /// takes the move at a changing index, captures included) unpacks
    /// equal to itself, with its hash, counters and moves.
    #[test]
    fn every_position_of_a_game_unpacks_equal() {
        let mut pos = Position::new();
        let mut seen = 0;
        for ply in 0..200usize {
            let packed = pos.pack();
            let back = packed.unpack();
            assert_eq!(back, pos, "ply {ply}");
            assert_eq!(back.zobrist(), pos.zobrist());
            assert_eq!(back.to_fen(), pos.to_fen());
            assert_eq!(back.legal_moves().len(), pos.legal_moves().len());
            assert!(size_of::<PackedPosition>() <= 100);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(ply * 7 + 3) % moves.len()];
            pos.play(m).expect("a legal move");
            seen += 1;
        }
        assert!(seen > 20, "the walk played {seen} plies");
    }
}
