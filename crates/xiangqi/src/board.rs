//! The board (棋盘): which piece stands on each of the 90 points.
//!
//! Kept twice for speed: a mailbox (`[u8; 90]`, piece index + 1, 0 = empty) for
//! "what is on this square", and 90-bit sets per piece and per colour for move
//! generation and attack detection. Knows nothing about turns or legality.

use crate::attacks::{bit, Bb};
use crate::{Color, Piece, Role, Square};

/// Piece placement. Invariant: mailbox and bit sets agree.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    mailbox: [u8; 90],
    by_piece: [Bb; 14],
    by_color: [Bb; 2],
}

impl Board {
    /// An empty board.
    pub(crate) const fn empty() -> Board {
        Board {
            mailbox: [0; 90],
            by_piece: [0; 14],
            by_color: [0; 2],
        }
    }

    /// Piece index + 1 on a square (0 when empty).
    #[inline(always)]
    pub(crate) fn code(&self, sq: usize) -> u8 {
        self.mailbox[sq]
    }

    /// Piece on a square.
    #[inline]
    pub(crate) fn piece_at(&self, sq: usize) -> Option<Piece> {
        match self.mailbox[sq] {
            0 => None,
            c => Piece::from_index(c as usize - 1),
        }
    }

    /// Squares of one kind of piece.
    #[inline(always)]
    pub(crate) fn pieces(&self, color: Color, role: Role) -> Bb {
        self.by_piece[color.index() * 7 + role.index()]
    }

    /// Squares of one colour.
    #[inline(always)]
    pub(crate) fn color(&self, color: Color) -> Bb {
        self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub(crate) fn occupied(&self) -> Bb {
        self.by_color[0] | self.by_color[1]
    }

    /// Square of a colour's king (index 0..90); 0 if there is none (never in a valid position).
    #[inline(always)]
    pub(crate) fn king(&self, color: Color) -> usize {
        let k = self.pieces(color, Role::King);
        if k == 0 {
            0
        } else {
            k.trailing_zeros() as usize
        }
    }

    /// Puts a piece (index 0..14) on an empty square.
    #[inline(always)]
    pub(crate) fn put(&mut self, piece: usize, sq: usize) {
        self.mailbox[sq] = piece as u8 + 1;
        self.by_piece[piece] |= bit(sq);
        self.by_color[piece / 7] |= bit(sq);
    }

    /// Moves the piece (index 0..14) on `from` to `to`, which holds no piece
    /// of its kind (empty, or an enemy piece already taken off the sets with
    /// [`Board::take_off`]): one toggle of each set it is in.
    #[inline(always)]
    pub(crate) fn shift(&mut self, piece: usize, from: usize, to: usize) {
        let both = bit(from) | bit(to);
        self.mailbox[from] = 0;
        self.mailbox[to] = piece as u8 + 1;
        self.by_piece[piece] ^= both;
        self.by_color[piece / 7] ^= both;
    }

    /// Takes the piece (index 0..14) on `sq` off the sets, leaving the
    /// mailbox to the piece that lands there.
    #[inline(always)]
    pub(crate) fn take_off(&mut self, piece: usize, sq: usize) {
        self.by_piece[piece] &= !bit(sq);
        self.by_color[piece / 7] &= !bit(sq);
    }

    /// Iterates the pieces on the board in square order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.mailbox.iter().enumerate().filter_map(|(i, &c)| {
            if c == 0 {
                None
            } else {
                Piece::from_index(c as usize - 1).map(|p| (Square::from_index_unchecked(i), p))
            }
        })
    }
}
