//! FEN (Forsyth–Edwards Notation) for Xiangqi: read and write, with validation.
//!
//! Format: `placement side castling en-passant halfmove fullmove`, placement from
//! Black's back rank (rank 9) down to Red's (rank 0), Red upper case, `K A B N R C P`
//! (`E`/`H` accepted for elephant/horse). Side `w` or `r` is Red, `b` is Black.
//! Missing trailing fields default to `- - 0 1`. Only legal positions are accepted.

use crate::attacks::{between, bit, ALLOWED};
use crate::board::Board;
use crate::{Color, Piece, Position, Role, Square};

/// Why a FEN string was rejected; each variant names the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// No placement field at all.
    #[error("FEN is empty")]
    Empty,
    /// The placement field does not have 10 ranks.
    #[error("FEN placement: expected 10 ranks separated by '/', found {found}")]
    RankCount {
        /// Ranks found.
        found: usize,
    },
    /// An unknown character in the placement field.
    #[error("FEN placement rank {rank}: unexpected character {ch:?}")]
    BadChar {
        /// ICCS rank 0..=9 (0 = Red's back rank; the FEN lists rank 9 first).
        rank: u8,
        /// The offending character.
        ch: char,
    },
    /// A rank that does not describe exactly 9 files.
    #[error("FEN placement rank {rank}: describes {files} files, expected 9")]
    RankWidth {
        /// ICCS rank 0..=9.
        rank: u8,
        /// Files described (capped).
        files: u32,
    },
    /// A piece on a square it can never reach (king or advisor outside the palace,
    /// elephant off its seven points, pawn behind its starting rank…).
    #[error("FEN placement rank {rank}: {piece} on {square} is impossible ({why})")]
    ImpossibleSquare {
        /// ICCS rank 0..=9.
        rank: u8,
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
        /// What rule it breaks.
        why: &'static str,
    },
    /// Too many pieces of one kind.
    #[error("FEN placement: {count} {color} {role}s, at most {max} allowed")]
    TooMany {
        /// Side.
        color: Color,
        /// Kind of piece.
        role: Role,
        /// How many were found.
        count: u32,
        /// The maximum.
        max: u32,
    },
    /// A side without a king.
    #[error("FEN placement: no {color} king")]
    MissingKing {
        /// The side without a king.
        color: Color,
    },
    /// The two kings face each other on an open file.
    #[error("FEN placement: the kings face each other on an open file (flying general)")]
    KingsFacing,
    /// The side field is not `w`, `r` or `b`.
    #[error("FEN side to move: expected 'w', 'r' or 'b', found {found:?}")]
    Side {
        /// The field's text (truncated).
        found: String,
    },
    /// The side that just moved is in check.
    #[error("FEN side to move: {color} is to move but {opponent} is in check")]
    OpponentInCheck {
        /// Side to move.
        color: Color,
        /// The side in check.
        opponent: Color,
    },
    /// Field 3 (castling) is not `-`.
    #[error("FEN castling field: expected '-', found {found:?}")]
    Castling {
        /// The field's text (truncated).
        found: String,
    },
    /// Field 4 (en passant) is not `-`.
    #[error("FEN en passant field: expected '-', found {found:?}")]
    EnPassant {
        /// The field's text (truncated).
        found: String,
    },
    /// Field 5 is not a non-negative integer.
    #[error("FEN halfmove clock: expected a non-negative integer, found {found:?}")]
    Halfmove {
        /// The field's text (truncated).
        found: String,
    },
    /// Field 6 is not a positive integer.
    #[error("FEN fullmove number: expected a positive integer, found {found:?}")]
    Fullmove {
        /// The field's text (truncated).
        found: String,
    },
    /// More than six fields.
    #[error("FEN: unexpected extra field {found:?} after the fullmove number")]
    ExtraField {
        /// The first extra field (truncated).
        found: String,
    },
}

fn short(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if s.chars().nth(24).is_some() {
        out.push('…');
    }
    out
}

/// Parses and validates a FEN.
pub(crate) fn parse(fen: &str) -> Result<Position, FenError> {
    match parse_usual(fen) {
        Some(pos) => Ok(pos),
        None => parse_general(fen),
    }
}

/// Piece code (index + 1) of each ASCII FEN letter, 0 for any other byte.
const CODES: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut c = 0;
    while c < 128 {
        if let Some(p) = Piece::from_fen_char(c as u8 as char) {
            t[c] = p.index() as u8 + 1;
        }
        c += 1;
    }
    t
};

/// [`parse`] for the usual shape, straight from the bytes: ASCII, fields
/// separated by single spaces, every rule met. `None` for anything else,
/// which [`parse_general`] then reads (and words the error); what this
/// accepts, that reads the same (the test `usual_and_general_agree`).
fn parse_usual(fen: &str) -> Option<Position> {
    let b = fen.as_bytes();
    let mut board = Board::empty();
    let mut counts = [0u32; 14];
    let (mut rank, mut file, mut i) = (9usize, 0usize, 0usize);
    while let Some(&c) = b.get(i) {
        i += 1;
        match c {
            b'1'..=b'9' => {
                file += usize::from(c - b'0');
                if file > 9 {
                    return None;
                }
            }
            b'/' => {
                if file != 9 || rank == 0 {
                    return None;
                }
                rank -= 1;
                file = 0;
            }
            b' ' => break,
            _ => {
                let code = *CODES.get(usize::from(c))?;
                if code == 0 || file >= 9 {
                    return None;
                }
                let p = usize::from(code) - 1;
                board.put(p, rank * 9 + file);
                counts[p] += 1;
                file += 1;
            }
        }
    }
    if rank != 0 || file != 9 {
        return None;
    }
    for color in Color::ALL {
        for role in Role::ALL {
            let n = counts[Piece::new(color, role).index()];
            if n > role.max_count() || (role == Role::King && n == 0) {
                return None;
            }
            // Every piece on a square it may stand on (once per kind).
            if board.pieces(color, role) & !ALLOWED[color.index()][role.index()] != 0 {
                return None;
            }
        }
    }
    let rest = fen.get(i..)?;
    let mut fields = rest.split(' ').filter(|_| i < b.len());
    let turn = match fields.next() {
        None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
        Some("b") | Some("B") => Color::Black,
        Some(_) => return None,
    };
    for _ in 0..2 {
        if !matches!(fields.next(), None | Some("-")) {
            return None;
        }
    }
    let halfmove = match fields.next() {
        None => 0,
        Some(f) => f.parse::<u32>().ok()?,
    };
    let fullmove = match fields.next() {
        None => 1,
        Some(f) => f.parse::<u32>().ok().filter(|&n| n >= 1)?,
    };
    if fields.next().is_some() {
        return None;
    }
    let pos = Position::from_board_unvalidated(board, turn, halfmove, fullmove);
    validate(&pos).ok()?;
    Some(pos)
}

/// [`parse`] for any input, with the errors.
fn parse_general(fen: &str) -> Result<Position, FenError> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or(FenError::Empty)?;
    let board = parse_placement(placement)?;

    let turn = match fields.next() {
        None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
        Some("b") | Some("B") => Color::Black,
        Some(other) => {
            return Err(FenError::Side {
                found: short(other),
            })
        }
    };
    if let Some(f) = fields.next() {
        if f != "-" {
            return Err(FenError::Castling { found: short(f) });
        }
    }
    if let Some(f) = fields.next() {
        if f != "-" {
            return Err(FenError::EnPassant { found: short(f) });
        }
    }
    let halfmove = match fields.next() {
        None => 0,
        Some(f) => f
            .parse::<u32>()
            .map_err(|_| FenError::Halfmove { found: short(f) })?,
    };
    let fullmove = match fields.next() {
        None => 1,
        Some(f) => match f.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(FenError::Fullmove { found: short(f) }),
        },
    };
    if let Some(f) = fields.next() {
        return Err(FenError::ExtraField { found: short(f) });
    }

    let pos = Position::from_board_unvalidated(board, turn, halfmove, fullmove);
    validate(&pos)?;
    Ok(pos)
}

fn parse_placement(placement: &str) -> Result<Board, FenError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 10 {
        return Err(FenError::RankCount { found: rows.len() });
    }
    let mut board = Board::empty();
    let mut counts = [0u32; 14];
    for (row_i, row) in rows.iter().enumerate() {
        let rank = 9 - row_i as u8;
        let mut file: u32 = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || !ch.is_ascii_digit() {
                    return Err(FenError::BadChar { rank, ch });
                }
                file += d;
                if file > 9 {
                    return Err(FenError::RankWidth { rank, files: file });
                }
                continue;
            }
            let piece = Piece::from_fen_char(ch).ok_or(FenError::BadChar { rank, ch })?;
            if file >= 9 {
                return Err(FenError::RankWidth {
                    rank,
                    files: file + 1,
                });
            }
            let sq = rank as usize * 9 + file as usize;
            let square = Square::from_index_unchecked(sq);
            if ALLOWED[piece.color.index()][piece.role.index()] & bit(sq) == 0 {
                let why = match piece.role {
                    Role::King => "a king stays in its palace",
                    Role::Advisor => "an advisor stays on the palace diagonals",
                    Role::Elephant => "an elephant stays on its seven points, not across the river",
                    Role::Pawn => "a pawn never moves backwards or sideways before the river",
                    _ => "unreachable square",
                };
                return Err(FenError::ImpossibleSquare {
                    rank,
                    piece,
                    square,
                    why,
                });
            }
            board.put(piece.index(), sq);
            counts[piece.index()] += 1;
            file += 1;
        }
        if file != 9 {
            return Err(FenError::RankWidth { rank, files: file });
        }
    }
    for color in Color::ALL {
        for role in Role::ALL {
            let count = counts[Piece::new(color, role).index()];
            if count > role.max_count() {
                return Err(FenError::TooMany {
                    color,
                    role,
                    count,
                    max: role.max_count(),
                });
            }
        }
        if counts[Piece::new(color, Role::King).index()] == 0 {
            return Err(FenError::MissingKing { color });
        }
    }
    Ok(board)
}

/// Checks the whole-position rules: kings not facing, opponent not in check.
fn validate(pos: &Position) -> Result<(), FenError> {
    let rk = pos.board.king(Color::Red);
    let bk = pos.board.king(Color::Black);
    let occ = pos.board.occupied();
    if rk % 9 == bk % 9 && between(rk, bk) & occ == 0 {
        return Err(FenError::KingsFacing);
    }
    let them = pos.turn.other();
    if pos.king_in_danger(them, pos.board.king(them), occ, 0) {
        return Err(FenError::OpponentInCheck {
            color: pos.turn,
            opponent: them,
        });
    }
    Ok(())
}

/// Writes the FEN of a position.
pub(crate) fn write(pos: &Position) -> String {
    let mut s = String::with_capacity(96);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match pos.board.piece_at(rank * 9 + file) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if pos.turn == Color::Red { 'w' } else { 'b' });
    s.push_str(" - - ");
    s.push_str(&pos.halfmove.to_string());
    s.push(' ');
    s.push_str(&pos.fullmove.to_string());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the byte reader accepts, the general reader reads the same, on
    /// usual FENs and on every one-byte change and deletion of them.
    #[test]
    fn usual_and_general_agree() {
        let fens = [
            Position::START_FEN,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
            "4kab2/4a4/4bc3/prC2nR2/4N3p/4P4/P3C2cP/4B4/1r2A4/R3K1B2 b - - 13 39",
            "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 12",
            "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 r - - 7 1",
            "3k5/9/9/9/9/9/9/9/9/4K4 B - - 0 1",
        ];
        let alphabet = b"0123456789/ -kKaArRnNhHcCpPbBeEwx\t+";
        let (mut usual, mut variants) = (0, 0);
        for fen in fens {
            let mut cases = vec![fen.to_string(), format!(" {fen}"), format!("{fen} ")];
            for i in 0..fen.len() {
                let mut cut = fen.as_bytes().to_vec();
                cut.remove(i);
                cases.push(String::from_utf8(cut).unwrap());
                for &c in alphabet {
                    let mut changed = fen.as_bytes().to_vec();
                    changed[i] = c;
                    cases.push(String::from_utf8(changed).unwrap());
                }
            }
            for case in cases {
                variants += 1;
                let general = parse_general(&case);
                if let Some(pos) = parse_usual(&case) {
                    usual += 1;
                    assert_eq!(general.as_ref(), Ok(&pos), "{case:?}");
                    let g = general.unwrap();
                    assert_eq!(
                        (g.zobrist(), g.halfmove_clock(), g.fullmove_number()),
                        (pos.zobrist(), pos.halfmove_clock(), pos.fullmove_number()),
                        "{case:?}"
                    );
                }
            }
        }
        // Most variants are refused, some change the position and still read.
        assert!(usual > 200 && usual < variants / 2, "{usual} of {variants}");
        for fen in fens {
            assert!(parse_usual(fen).is_some(), "{fen}");
        }
    }
}
