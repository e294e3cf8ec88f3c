//! Move notations (记谱法) shared machinery: the error type, `parse_any`, and the
//! description of a move that WXF (`wxf.rs`) and Chinese (`chinese.rs`) text are
//! both written from and read into.
//!
//! Both descriptive notations name a move by *which piece* (role + the file it
//! stands on, or its place among pieces of its kind doubled on one file), a
//! *direction* (forward 进 `+`, backward 退 `-`, sideways 平 `.`) and a *number*
//! (distance for straight moves along a file, destination file otherwise).
//! Files are counted from each side's own right: for Red ICCS file `i` is 1 and
//! `a` is 9; for Black `a` is 1 and `i` is 9.
//!
//! Reading: each parser turns text into one or more [`MoveSpec`]s (alternative
//! readings of the same text), and [`resolve`] finds the one legal move they
//! denote in a position, or says precisely why there is none or more than one.
//! Writing: [`describe`] computes the canonical description of a move that both
//! writers render.

use crate::{chinese, iccs, wxf, Color, IllegalMove, Move, Piece, Position, Role, Square};

/// Why a move text could not be read (each variant names the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text does not have the shape of the notation.
    #[error("{text:?}: {reason}")]
    Syntax {
        /// The text (truncated to 40 characters).
        text: String,
        /// What is wrong with its shape.
        reason: String,
    },
    /// No piece of the side to move fits the description ("no red horse on file 8").
    #[error("{text:?}: {reason}")]
    NoPiece {
        /// The text.
        text: String,
        /// Which piece is missing.
        reason: String,
    },
    /// More than one legal move fits ("ambiguous: two red rooks on file 2").
    #[error("{text:?}: ambiguous: {reason}")]
    Ambiguous {
        /// The text.
        text: String,
        /// Which pieces could make the move.
        reason: String,
    },
    /// The piece exists but the description is not a move of that kind of piece
    /// ("a horse on file 8 cannot reach file 5").
    #[error("{text:?}: impossible: {reason}")]
    Impossible {
        /// The text.
        text: String,
        /// Why the piece cannot make such a move at all.
        reason: String,
    },
    /// The text denotes a definite move, but the rules forbid it in this position.
    #[error("{text:?}: illegal: {source}")]
    Illegal {
        /// The text.
        text: String,
        /// The move and the rule it breaks.
        source: IllegalMove,
    },
    /// `parse_any`: the text is none of ICCS, WXF or Chinese notation.
    #[error("{text:?}: not a move in ICCS, WXF or Chinese notation")]
    Unrecognized {
        /// The text.
        text: String,
    },
}

impl NotationError {
    /// True for [`NotationError::Syntax`]: the text is not in this notation at all.
    pub fn is_syntax(&self) -> bool {
        matches!(self, NotationError::Syntax { .. })
    }

    /// The move text the error is about.
    pub fn text(&self) -> &str {
        match self {
            NotationError::Syntax { text, .. }
            | NotationError::NoPiece { text, .. }
            | NotationError::Ambiguous { text, .. }
            | NotationError::Impossible { text, .. }
            | NotationError::Illegal { text, .. }
            | NotationError::Unrecognized { text } => text,
        }
    }

    /// The reason alone, without the text (`illegal: the piece cannot move there`).
    pub fn reason(&self) -> String {
        match self {
            NotationError::Syntax { reason, .. } | NotationError::NoPiece { reason, .. } => {
                reason.clone()
            }
            NotationError::Ambiguous { reason, .. } => format!("ambiguous: {reason}"),
            NotationError::Impossible { reason, .. } => format!("impossible: {reason}"),
            NotationError::Illegal { source, .. } => format!("illegal: {}", source.reason),
            NotationError::Unrecognized { .. } => {
                "not a move in ICCS, WXF or Chinese notation".to_string()
            }
        }
    }
}

/// The text as stored in an error: at most 40 characters.
pub(crate) fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().nth(40).is_some() {
        s.push('…');
    }
    s
}

/// A syntax error about `text`.
pub(crate) fn syntax(text: &str, reason: impl Into<String>) -> NotationError {
    NotationError::Syntax {
        text: clip(text),
        reason: reason.into(),
    }
}

/// Direction of a move as the mover sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// 进 `+`: towards the opponent.
    Forward,
    /// 退 `-`: towards one's own back rank.
    Backward,
    /// 平 `.`: along the rank.
    Sideways,
}

/// Which of the pieces of one kind doubled on a file is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// The front one (前, `+`).
    Front,
    /// The rear one (后, `-`).
    Rear,
    /// The middle one of three (or five) (中; WXF mid pawn).
    Middle,
    /// Counted from the front, 1-based (一兵, 二兵, …; pyffish's `17.8`).
    Ordinal(u8),
    /// WXF `P+`: front of two or three, second from the front of four or five.
    WxfFront,
    /// WXF `P-`: rear of two or three, second from the rear of four or five.
    WxfRear,
}

/// Which piece a description names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selector {
    /// The piece of the role on this file (own numbering 1..=9). If several
    /// stand there, the one that can make the move; `wxf_mid` prefers the middle
    /// pawn of three or five (WXF writes the mid pawn like a lone one).
    File { file: u8, wxf_mid: bool },
    /// A piece among several of the role on one file; the file is given when
    /// pawns are doubled on more than one file.
    Tandem { file: Option<u8>, pick: Pick },
}

/// One reading of a move text: which piece, which way, how far / to which file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveSpec {
    pub role: Role,
    pub selector: Selector,
    pub direction: Direction,
    /// Distance (straight moves along a file) or destination file (own numbering).
    pub number: u8,
}

/// The file number 1..=9 a side uses for the ICCS file 0..=8.
pub(crate) fn own_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The ICCS file 0..=8 of a side's own file number 1..=9 (None if out of range).
pub(crate) fn iccs_file(color: Color, own: u8) -> Option<u8> {
    if !(1..=9).contains(&own) {
        return None;
    }
    Some(match color {
        Color::Red => 9 - own,
        Color::Black => own - 1,
    })
}

/// How far forward (from `color`'s point of view) a rank is: 0 = own back rank.
fn forwardness(color: Color, rank: u8) -> u8 {
    match color {
        Color::Red => rank,
        Color::Black => 9 - rank,
    }
}

/// Squares of `color`'s pieces of `role` on ICCS `file`, front (most advanced) first.
pub(crate) fn on_file(pos: &Position, color: Color, role: Role, file: u8) -> Vec<Square> {
    let piece = Piece::new(color, role);
    let mut squares: Vec<Square> = (0..10u8)
        .filter_map(|rank| Square::new(file, rank))
        .filter(|&sq| pos.piece_at(sq) == Some(piece))
        .collect();
    squares.sort_by_key(|sq| std::cmp::Reverse(forwardness(color, sq.rank())));
    squares
}

/// ICCS files on which `color` has two or more pieces of `role`.
pub(crate) fn doubled_files(pos: &Position, color: Color, role: Role) -> Vec<u8> {
    (0..9u8)
        .filter(|&f| on_file(pos, color, role, f).len() >= 2)
        .collect()
}

/// Where a piece of `role` and `color` on `from` lands for a direction and number,
/// or why no such move of that kind of piece exists.
fn target(from: Square, piece: Piece, direction: Direction, number: u8) -> Result<Square, String> {
    let color = piece.color;
    let role = piece.role;
    let sign: i16 = match (direction, color) {
        (Direction::Forward, Color::Red) | (Direction::Backward, Color::Black) => 1,
        (Direction::Backward, Color::Red) | (Direction::Forward, Color::Black) => -1,
        (Direction::Sideways, _) => 0,
    };
    let from_own = own_file(color, from.file());
    let on_board = |file: i16, rank: i16| -> Option<Square> {
        if (0..9).contains(&file) && (0..10).contains(&rank) {
            Square::new(file as u8, rank as u8)
        } else {
            None
        }
    };
    match role {
        Role::Rook | Role::Cannon | Role::Pawn | Role::King => {
            if direction == Direction::Sideways {
                let file =
                    iccs_file(color, number).ok_or_else(|| format!("there is no file {number}"))?;
                if file == from.file() {
                    return Err(format!(
                        "{} on file {from_own} cannot move sideways to its own file",
                        a(role)
                    ));
                }
                Ok(on_board(file as i16, from.rank() as i16).ok_or("off the board")?)
            } else {
                if number == 0 {
                    return Err("a move of 0 points".to_string());
                }
                let rank = from.rank() as i16 + sign * number as i16;
                on_board(from.file() as i16, rank).ok_or_else(|| {
                    format!(
                        "{} on file {from_own} cannot move {number} point{} {} (off the board)",
                        a(role),
                        if number == 1 { "" } else { "s" },
                        if direction == Direction::Forward {
                            "forward"
                        } else {
                            "backward"
                        }
                    )
                })
            }
        }
        Role::Horse | Role::Advisor | Role::Elephant => {
            if direction == Direction::Sideways {
                return Err(format!("{} cannot move sideways", a(role)));
            }
            let file =
                iccs_file(color, number).ok_or_else(|| format!("there is no file {number}"))?;
            let df = (file as i16 - from.file() as i16).abs();
            let dr = match (role, df) {
                (Role::Horse, 1) => 2,
                (Role::Horse, 2) => 1,
                (Role::Advisor, 1) => 1,
                (Role::Elephant, 2) => 2,
                _ => {
                    return Err(format!(
                        "{} on file {from_own} cannot reach file {number}",
                        a(role)
                    ));
                }
            };
            on_board(file as i16, from.rank() as i16 + sign * dr).ok_or_else(|| {
                format!(
                    "{} on file {from_own} cannot reach file {number} (off the board)",
                    a(role)
                )
            })
        }
    }
}

/// The index into a front-first list of `n` pieces that `pick` names.
fn pick_index(pick: Pick, n: usize) -> Option<usize> {
    match pick {
        Pick::Front => (n >= 1).then_some(0),
        Pick::Rear => n.checked_sub(1),
        Pick::Middle => (n % 2 == 1 && n >= 3).then_some(n / 2),
        Pick::Ordinal(k) => {
            let k = k as usize;
            (k >= 1 && k <= n).then(|| k - 1)
        }
        Pick::WxfFront => match n {
            0 => None,
            1..=3 => Some(0),
            _ => Some(1),
        },
        Pick::WxfRear => match n {
            0 => None,
            1..=3 => Some(n - 1),
            _ => Some(n - 2),
        },
    }
}

fn pick_name(pick: Pick) -> String {
    match pick {
        Pick::Front | Pick::WxfFront => "front".to_string(),
        Pick::Rear | Pick::WxfRear => "rear".to_string(),
        Pick::Middle => "middle".to_string(),
        Pick::Ordinal(k) => format!("number {k} (from the front)"),
    }
}

/// "a rook", "an advisor", "an elephant".
fn a(role: Role) -> String {
    match role {
        Role::Advisor | Role::Elephant => format!("an {role}"),
        _ => format!("a {role}"),
    }
}

fn plural(role: Role) -> String {
    format!("{role}s")
}

fn count_word(n: usize) -> &'static str {
    match n {
        0 => "no",
        1 => "one",
        2 => "two",
        3 => "three",
        4 => "four",
        _ => "five",
    }
}

/// Resolves one reading of a text to the legal move it denotes in `pos`.
fn resolve_one(pos: &Position, text: &str, spec: &MoveSpec) -> Result<Move, NotationError> {
    let color = pos.turn();
    let role = spec.role;
    let piece = Piece::new(color, role);
    // Candidate pieces, each with a description used in messages.
    let candidates: Vec<Square> = match spec.selector {
        Selector::File { file, wxf_mid } => {
            let iccs = iccs_file(color, file)
                .ok_or_else(|| syntax(text, format!("there is no file {file}")))?;
            let here = on_file(pos, color, role, iccs);
            if here.is_empty() {
                return Err(NotationError::NoPiece {
                    text: clip(text),
                    reason: format!("no {color} {role} on file {file}"),
                });
            }
            if wxf_mid && role == Role::Pawn && (here.len() == 3 || here.len() == 5) {
                vec![here[here.len() / 2]]
            } else {
                here
            }
        }
        Selector::Tandem { file, pick } => {
            let files: Vec<u8> = match file {
                Some(f) => {
                    let iccs = iccs_file(color, f)
                        .ok_or_else(|| syntax(text, format!("there is no file {f}")))?;
                    vec![iccs]
                }
                None => doubled_files(pos, color, role),
            };
            let mut picked = Vec::new();
            let mut counts = Vec::new();
            for &f in &files {
                let here = on_file(pos, color, role, f);
                counts.push((f, here.len()));
                if here.len() < 2 {
                    continue;
                }
                if let Some(i) = pick_index(pick, here.len()) {
                    picked.push(here[i]);
                }
            }
            if picked.is_empty() {
                let reason = match file {
                    Some(f) => {
                        let n = counts.first().map_or(0, |c| c.1);
                        if n < 2 {
                            format!("no two {color} {} on file {f}", plural(role))
                        } else {
                            format!(
                                "no {} {role} among the {} {color} {} on file {f}",
                                pick_name(pick),
                                count_word(n),
                                plural(role)
                            )
                        }
                    }
                    None if files.is_empty() => {
                        format!("no two {color} {} on one file", plural(role))
                    }
                    None => format!(
                        "no {} {color} {role} on a file with several",
                        pick_name(pick)
                    ),
                };
                return Err(NotationError::NoPiece {
                    text: clip(text),
                    reason,
                });
            }
            picked
        }
    };
    let mut legal: Vec<Move> = Vec::new();
    let mut first_illegal: Option<IllegalMove> = None;
    let mut first_impossible: Option<String> = None;
    for &from in &candidates {
        match target(from, piece, spec.direction, spec.number) {
            Ok(to) => {
                let m = Move::new(from, to);
                match pos.check_move(m) {
                    Ok(()) => legal.push(m),
                    Err(e) => {
                        first_illegal.get_or_insert(e);
                    }
                }
            }
            Err(reason) => {
                first_impossible.get_or_insert(reason);
            }
        }
    }
    match legal.len() {
        1 => Ok(legal[0]),
        0 => {
            if let Some(e) = first_illegal {
                Err(NotationError::Illegal {
                    text: clip(text),
                    source: e,
                })
            } else {
                Err(NotationError::Impossible {
                    text: clip(text),
                    reason: first_impossible.unwrap_or_else(|| "no such move".to_string()),
                })
            }
        }
        n => {
            let files: Vec<u8> = legal
                .iter()
                .map(|m| own_file(color, m.from.file()))
                .collect();
            let same_file = files.windows(2).all(|w| w[0] == w[1]);
            let reason = if same_file {
                format!(
                    "{} {color} {} on file {} can make this move",
                    count_word(n),
                    plural(role),
                    files[0]
                )
            } else {
                format!(
                    "{} {color} {} can make this move",
                    count_word(n),
                    plural(role)
                )
            };
            Err(NotationError::Ambiguous {
                text: clip(text),
                reason,
            })
        }
    }
}

/// Resolves the readings of a text in order; the first that denotes a legal move
/// wins, otherwise the first reading's error is returned.
pub(crate) fn resolve(
    pos: &Position,
    text: &str,
    specs: &[MoveSpec],
) -> Result<Move, NotationError> {
    let mut first_err = None;
    for spec in specs {
        match resolve_one(pos, text, spec) {
            Ok(m) => return Ok(m),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or_else(|| syntax(text, "empty move")))
}

/// Where a piece stands among pieces of its kind doubled on its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tandem {
    /// 0 = front (most advanced).
    pub index: usize,
    /// How many of the mover's pieces of this role stand on the file (>= 2).
    pub count: usize,
    /// Pawns only: another file also holds two or more of the mover's pawns,
    /// so the file must be named too.
    pub multi_file: bool,
}

/// The canonical description of a move, from which WXF and Chinese text are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Description {
    pub piece: Piece,
    /// The mover's own file number 1..=9 of the starting square.
    pub file: u8,
    /// Set when the piece has to be told apart from others on its file.
    /// Advisors and elephants never need it (direction and destination already
    /// identify them), nor does the king.
    pub tandem: Option<Tandem>,
    pub direction: Direction,
    pub number: u8,
}

/// Describes `m` in `pos` (before the move). None when `from` is empty or the
/// geometry is not a move of that kind of piece (then it cannot be described).
pub(crate) fn describe(pos: &Position, m: Move) -> Option<Description> {
    let piece = pos.piece_at(m.from)?;
    let color = piece.color;
    let (from, to) = (m.from, m.to);
    if from == to {
        return None;
    }
    let df = (to.file() as i16 - from.file() as i16).abs();
    let dr = (to.rank() as i16 - from.rank() as i16).abs();
    let geometry_ok = match piece.role {
        Role::Rook | Role::Cannon | Role::Pawn | Role::King => df == 0 || dr == 0,
        Role::Horse => (df == 1 && dr == 2) || (df == 2 && dr == 1),
        Role::Advisor => df == 1 && dr == 1,
        Role::Elephant => df == 2 && dr == 2,
    };
    if !geometry_ok {
        return None;
    }
    let direction = if from.rank() == to.rank() {
        Direction::Sideways
    } else if forwardness(color, to.rank()) > forwardness(color, from.rank()) {
        Direction::Forward
    } else {
        Direction::Backward
    };
    let number = if from.file() == to.file() {
        dr as u8
    } else {
        own_file(color, to.file())
    };
    let tandem = match piece.role {
        Role::King | Role::Advisor | Role::Elephant => None,
        role => {
            let here = on_file(pos, color, role, from.file());
            let index = here.iter().position(|&s| s == from)?;
            if here.len() >= 2 {
                let multi_file = role == Role::Pawn
                    && doubled_files(pos, color, role)
                        .iter()
                        .any(|&f| f != from.file());
                Some(Tandem {
                    index,
                    count: here.len(),
                    multi_file,
                })
            } else {
                None
            }
        }
    };
    Some(Description {
        piece,
        file: own_file(color, from.file()),
        tandem,
        direction,
        number,
    })
}

/// Reads a move in any notation: ICCS (`h2e2`, `H2-E2`), then WXF (`C2.5`),
/// then Chinese (`炮二平五`), and checks that it is legal in `pos`.
///
/// The first notation whose *shape* the text has decides: a text that looks like
/// ICCS but is illegal gets the ICCS error, not a WXF attempt.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    match iccs::parse_iccs(text) {
        Ok(m) => {
            return pos
                .check_move(m)
                .map(|()| m)
                .map_err(|e| NotationError::Illegal {
                    text: clip(text),
                    source: e,
                })
        }
        Err(e) if !e.is_syntax() => return Err(e),
        Err(_) => {}
    }
    match wxf::parse_wxf(pos, text) {
        Err(e) if e.is_syntax() => {}
        other => return other,
    }
    match chinese::parse_chinese(pos, text) {
        Err(e) if e.is_syntax() => Err(NotationError::Unrecognized { text: clip(text) }),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random legal position with many doubled pieces (seeded xorshift).
    fn random_position(seed: u64) -> Option<Position> {
        let mut s = seed | 1;
        let mut next = move |n: u64| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s % n
        };
        let mut board = [[None::<char>; 9]; 10];
        let put = |board: &mut [[Option<char>; 9]; 10], c: char, squares: &[(u8, u8)], r: u64| {
            let (f, rk) = squares[r as usize % squares.len()];
            if board[rk as usize][f as usize].is_none() {
                board[rk as usize][f as usize] = Some(c);
            }
        };
        let palace = |red: bool| -> Vec<(u8, u8)> {
            let ranks = if red { 0..=2 } else { 7..=9 };
            ranks.flat_map(|r| (3..=5).map(move |f| (f, r))).collect()
        };
        let advisor_pts = |red: bool| -> Vec<(u8, u8)> {
            let b = if red { 0 } else { 7 };
            vec![(3, b), (5, b), (4, b + 1), (3, b + 2), (5, b + 2)]
        };
        let elephant_pts = |red: bool| -> Vec<(u8, u8)> {
            let pts = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];
            pts.iter()
                .map(|&(f, r)| if red { (f, r) } else { (f, 9 - r) })
                .collect()
        };
        let anywhere: Vec<(u8, u8)> = (0..10).flat_map(|r| (0..9).map(move |f| (f, r))).collect();
        // Pawns crowded on two files past the river, so tandem cases come up often.
        let pawn_pts = |red: bool, files: [u8; 2]| -> Vec<(u8, u8)> {
            let ranks: Vec<u8> = if red {
                (5..=9).collect()
            } else {
                (0..=4).collect()
            };
            files
                .iter()
                .flat_map(|&f| ranks.iter().map(move |&r| (f, r)))
                .collect()
        };
        for red in [true, false] {
            let case = |c: char| if red { c } else { c.to_ascii_lowercase() };
            let k = next(100);
            put(&mut board, case('K'), &palace(red), k);
            for _ in 0..next(3) {
                let r = next(100);
                put(&mut board, case('A'), &advisor_pts(red), r);
            }
            for _ in 0..next(3) {
                let r = next(100);
                put(&mut board, case('B'), &elephant_pts(red), r);
            }
            for role in ['R', 'N', 'C'] {
                for _ in 0..next(3) {
                    // Half the time on a shared file to make tandems likely.
                    let f = next(2) as u8 * 4;
                    let pts: Vec<(u8, u8)> = if next(2) == 0 {
                        anywhere.clone()
                    } else {
                        (0..10).map(|r| (f, r)).collect()
                    };
                    let r = next(1000);
                    put(&mut board, case(role), &pts, r);
                }
            }
            let files = [next(9) as u8, next(9) as u8];
            for _ in 0..next(6) {
                let r = next(1000);
                put(&mut board, case('P'), &pawn_pts(red, files), r);
            }
        }
        let rows: Vec<String> = (0..10)
            .rev()
            .map(|r| {
                let mut row = String::new();
                let mut empty = 0;
                for cell in board[r] {
                    match cell {
                        Some(c) => {
                            if empty > 0 {
                                row.push(char::from(b'0' + empty));
                            }
                            empty = 0;
                            row.push(c);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    row.push(char::from(b'0' + empty));
                }
                row
            })
            .collect();
        let side = if next(2) == 0 { 'w' } else { 'b' };
        Position::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))).ok()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// Every legal move of random positions crowded with doubled pieces is
        /// written and read back to the same move in WXF and Chinese.
        #[test]
        fn every_legal_move_roundtrips(seed in any::<u64>()) {
            if let Some(pos) = random_position(seed) {
                for &m in pos.legal_moves().iter() {
                    let w = wxf::to_wxf(&pos, m);
                    let c = chinese::to_chinese(&pos, m);
                    prop_assert_eq!(wxf::parse_wxf(&pos, &w), Ok(m), "{} {} {}", pos.to_fen(), m, w);
                    prop_assert_eq!(chinese::parse_chinese(&pos, &c), Ok(m), "{} {} {}", pos.to_fen(), m, c);
                    prop_assert_eq!(parse_any(&pos, &w), Ok(m));
                    prop_assert_eq!(parse_any(&pos, &c), Ok(m));
                    prop_assert_eq!(parse_any(&pos, &iccs::to_iccs(m)), Ok(m));
                }
            }
        }

        #[test]
        fn parse_any_never_panics(s in "\\PC{0,10}", seed in any::<u64>()) {
            let pos = random_position(seed).unwrap_or_default();
            let _ = parse_any(&pos, &s);
        }
    }

    #[test]
    fn random_positions_have_tandems() {
        let mut tandem = 0;
        let mut multi = 0;
        let mut positions = 0;
        for seed in 0..400u64 {
            let Some(pos) = random_position(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)) else {
                continue;
            };
            positions += 1;
            for &m in pos.legal_moves().iter() {
                if let Some(d) = describe(&pos, m) {
                    if let Some(t) = d.tandem {
                        tandem += 1;
                        multi += usize::from(t.multi_file);
                    }
                }
            }
        }
        assert!(positions > 100, "{positions}");
        assert!(tandem > 500 && multi > 50, "{tandem} {multi}");
    }

    #[test]
    fn file_numbering_is_from_each_sides_right() {
        assert_eq!(own_file(Color::Red, 8), 1); // i
        assert_eq!(own_file(Color::Red, 0), 9); // a
        assert_eq!(own_file(Color::Black, 0), 1);
        assert_eq!(own_file(Color::Black, 8), 9);
        for c in Color::ALL {
            for f in 0..9 {
                assert_eq!(iccs_file(c, own_file(c, f)), Some(f));
            }
        }
        assert_eq!(iccs_file(Color::Red, 0), None);
        assert_eq!(iccs_file(Color::Red, 10), None);
    }

    #[test]
    fn parse_any_tries_each_notation() {
        let pos = Position::new();
        let m = parse_any(&pos, "h2e2").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(parse_any(&pos, "C2.5").unwrap(), m);
        assert_eq!(parse_any(&pos, "炮二平五").unwrap(), m);
        assert_eq!(parse_any(&pos, "H2-E2").unwrap(), m);
        assert!(matches!(
            parse_any(&pos, "h2h8"),
            Err(NotationError::Illegal { .. })
        ));
        assert!(matches!(
            parse_any(&pos, "hello"),
            Err(NotationError::Unrecognized { .. })
        ));
        assert_eq!(parse_any(&pos, "H8+7").unwrap().to_string(), "b0c2");
        assert_eq!(parse_any(&pos, "马八进七").unwrap().to_string(), "b0c2");
    }

    #[test]
    fn errors_name_the_text_and_reason() {
        let pos = Position::new();
        let e = parse_any(&pos, "H5+7").unwrap_err();
        assert_eq!(e.to_string(), "\"H5+7\": no red horse on file 5");
        let e = parse_any(&pos, "H8+5").unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"H8+5\": impossible: a horse on file 8 cannot reach file 5"
        );
        let e = parse_any(&pos, "H8+6").unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"H8+6\": illegal: illegal move b0d1: the piece cannot move there"
        );
        let e = parse_any(&pos, "R9-1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"R9-1\": impossible: a rook on file 9 cannot move 1 point backward (off the board)"
        );
        let e = parse_any(&pos, "R9+3").unwrap_err();
        assert!(e.to_string().starts_with("\"R9+3\": illegal: "), "{e}");
    }
}
