//! Xiangqi (象棋) rules of play: board, FEN, legal moves, notations, PGN, perft. Pure, no I/O.
//!
//! The core is [`Position`]: a legal position that generates legal moves
//! ([`Position::legal_moves`]), explains illegal ones ([`Position::check_move`]),
//! plays and takes back moves, detects check, mate and stalemate, and keeps an
//! incremental Zobrist hash for repetition detection. [`perft`] counts move trees.
//!
//! Coordinates are ICCS: files `a`..`i` from Red's left, ranks `0`..`9` from Red's side.
//!
//! # Modules
//!
//! The game (private, their types re-exported here):
//! - `square`: the 90 points (点), ICCS coordinates.
//! - `color`: the two sides (红/黑), their names, `ByColor`.
//! - `role`, `piece`: the seven kinds of piece (兵种) and a coloured piece
//!   (棋子), with their FEN letters and names.
//! - `mv`: a move (着法), shown in ICCS.
//! - `board`: which piece stands where (棋盘), mailbox and bit sets.
//! - `attacks`: move geometry on 90-bit sets, built at compile time.
//! - `position`: a legal position (局面), playing and taking back moves.
//! - `fen`: reading and writing FEN, with validation.
//! - `movegen`, `movelist`: legal move generation into a fixed-size list.
//! - `checking`: checks and captures alone, for the rulebook's searches.
//! - `evasion`: replies to a check, one at a time.
//! - `illegal`: why a move is illegal.
//! - `outcome`: mate and stalemate (困毙), how a game ends on the board.
//! - `zobrist`: the position hash for repetitions.
//! - `perft`: move-tree counts, the test of move generation.
//!
//! Notations and files (public):
//! - `notation`: what the move readers share, and their error type.
//! - `iccs`, `wxf`, `chinese`: the three notations (`h2e2`, `C2.5`,
//!   `炮二平五`); `any` (private) reads whichever is given.
//! - `vietnamese`: the Vietnamese notation (`P2-5`, `M8.7`, `X1/2`), read
//!   in a mode of its own since its texts collide with WXF's.
//! - `pgn`: game records (棋谱) in PGN, read and written.
//! - `encoding`: the text encodings of the files fed in (UTF-8, UTF-16,
//!   GB18030).

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
mod packed;
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
pub mod vietnamese;
pub mod wxf;

pub use color::{ByColor, Color};
pub use evasion::{Evasions, KingSteps};
pub use fen::FenError;
pub use illegal::{IllegalMove, IllegalReason};
pub use movelist::{MoveList, MAX_MOVES};
pub use mv::Move;
pub use outcome::{EndReason, Outcome};
pub use packed::PackedPosition;
pub use perft::{perft, perft_divide, perft_parallel};
pub use piece::Piece;
pub use position::{Position, Undo};
pub use role::Role;
pub use square::{ParseSquareError, Square};

pub use any::parse_any;
pub use chinese::{chinese_traditional, parse_chinese, to_chinese};
pub use iccs::{parse_iccs, to_iccs};
pub use notation::NotationError;
pub use pgn::{
    read_pgn, write_pgn, Format, Game, PgnError, PgnWarning, RawGame, RawMove, ReplayError,
};
pub use vietnamese::{parse_any_vietnamese, parse_vietnamese, to_vietnamese};
pub use wxf::{parse_wxf, to_wxf};
