//! Xiangqi (象棋) rules of play: board, FEN, legal moves, notations, PGN, perft. Pure, no I/O.
//!
//! The core is [`Position`]: a legal position that generates legal moves
//! ([`Position::legal_moves`]), explains illegal ones ([`Position::check_move`]),
//! plays and takes back moves, detects check, mate and stalemate, and keeps an
//! incremental Zobrist hash for repetition detection. [`perft`] counts move trees.
//!
//! Coordinates are ICCS: files `a`..`i` from Red's left, ranks `0`..`9` from Red's side.

mod any;
mod attacks;
mod board;
mod checking;
mod color;
mod evasion;
mod fen;
mod illegal;
mod movegen;
mod movelist;
mod mv;
mod outcome;
mod perft;
mod piece;
mod position;
mod role;
mod square;
mod zobrist;

pub mod chinese;
pub mod encoding;
pub mod iccs;
pub mod notation;
pub mod pgn;
pub mod wxf;

pub use color::{ByColor, Color};
pub use evasion::{Evasions, KingSteps};
pub use fen::FenError;
pub use illegal::{IllegalMove, IllegalReason};
pub use movelist::{MoveList, MAX_MOVES};
pub use mv::Move;
pub use outcome::{EndReason, Outcome};
pub use perft::{perft, perft_divide, perft_parallel};
pub use piece::Piece;
pub use position::{Position, Undo};
pub use role::Role;
pub use square::{ParseSquareError, Square};

pub use any::parse_any;
pub use chinese::{parse_chinese, to_chinese};
pub use iccs::{parse_iccs, to_iccs};
pub use notation::NotationError;
pub use pgn::{
    read_pgn, write_pgn, Format, Game, PgnError, PgnWarning, RawGame, RawMove, ReplayError,
};
pub use wxf::{parse_wxf, to_wxf};
