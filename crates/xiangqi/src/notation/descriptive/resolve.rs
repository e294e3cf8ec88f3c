//! Finding the legal move a descriptive reading (WXF or Chinese) denotes: the
//! candidate pieces its selector names, where each would land for the direction
//! and number, and which of those moves the rules allow, with a precise reason
//! when there is none ("no red horse on file 5", "impossible: …", "illegal: …")
//! or more than one ("ambiguous: two red rooks on file 5 …").

use super::{doubled_files, iccs_file, on_file, own_file, Direction, Pick, Reading, Selector};
use crate::notation::{clip, syntax, NotationError};
use crate::{Color, IllegalMove, Move, Piece, Position, Role, Square};

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

/// The pieces of the side to move that a reading's selector picks out
/// (an error naming what is missing when there is none).
fn candidates(
    pos: &Position,
    text: &str,
    role: Role,
    selector: Selector,
) -> Result<Vec<Square>, NotationError> {
    let color = pos.turn();
    Ok(match selector {
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
    })
}

/// Resolves one reading of a text to the legal move it denotes in `pos`.
fn resolve_one(
    pos: &Position,
    text: &str,
    (role, selector): (Role, Selector),
    reading: &Reading,
) -> Result<Move, NotationError> {
    let color = pos.turn();
    let piece = Piece::new(color, role);
    let candidates = candidates(pos, text, role, selector)?;
    let mut legal: Vec<Move> = Vec::new();
    let mut first_illegal: Option<IllegalMove> = None;
    let mut first_impossible: Option<String> = None;
    for &from in &candidates {
        match target(from, piece, reading.direction, reading.number) {
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
    reading: &Reading,
) -> Result<Move, NotationError> {
    let mut first_err = None;
    for &piece in &reading.pieces {
        match resolve_one(pos, text, piece, reading) {
            Ok(m) => return Ok(m),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or_else(|| syntax(text, "empty move")))
}
