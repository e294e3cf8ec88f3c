//! Conversions between the wire types and the game types of crates/xiangqi
//! (side ↔ colour, wire move ↔ game move: the `From`/`TryFrom` impls and
//! the functions naming them), and between the wire time control and the
//! rulebook's clock control (both ways: the config's control on the wire,
//! the wire's control as the table terminal's clock of record).
//!
//! The protocol keeps its own small types ([`Side`], [`IccsMove`],
//! [`TimeControl`]) so that its format only changes with its version; the
//! server and the table terminal convert at this one boundary. The message
//! types themselves ([`crate::message`]) depend on neither crate.

use crate::{Arg, ClockStage, IccsMove, Message, PieceKind, Side, TimeControl};
use rulebook::clock::{Block, Period, TraditionalControl};
use std::ops::{Index, IndexMut};
use xiangqi::{ByColor, Color, Move, Role, Square};

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::Red => Color::Red,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::Red => Side::Red,
            Color::Black => Side::Black,
        }
    }
}

impl<T> Index<Side> for ByColor<T> {
    type Output = T;

    fn index(&self, s: Side) -> &T {
        &self[Color::from(s)]
    }
}

impl<T> IndexMut<Side> for ByColor<T> {
    fn index_mut(&mut self, s: Side) -> &mut T {
        &mut self[Color::from(s)]
    }
}

/// A wire move with a square off the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("move {0:?} has a square off the board")]
pub struct OffBoard(pub IccsMove);

impl TryFrom<IccsMove> for Move {
    type Error = OffBoard;

    fn try_from(m: IccsMove) -> Result<Move, OffBoard> {
        let square = |i| Square::from_index(i).ok_or(OffBoard(m));
        if !m.is_valid() {
            return Err(OffBoard(m));
        }
        Ok(Move {
            from: square(m.from)?,
            to: square(m.to)?,
        })
    }
}

impl From<Move> for IccsMove {
    fn from(m: Move) -> IccsMove {
        IccsMove {
            from: m.from.index() as u8,
            to: m.to.index() as u8,
        }
    }
}

/// Wire side to game colour.
pub fn color(side: Side) -> Color {
    side.into()
}

/// Game colour to wire side.
pub fn side(color: Color) -> Side {
    color.into()
}

/// Wire move to game move; `None` when a square is off the board.
pub fn game_move(m: IccsMove) -> Option<Move> {
    Move::try_from(m).ok()
}

/// Game move to wire move.
pub fn wire_move(m: Move) -> IccsMove {
    m.into()
}

/// The rulebook's clock control (from the hall config) in its wire form,
/// with each side's initial time and the increment per move (ms).
pub fn wire_time_control(tc: &rulebook::TimeControl) -> (TimeControl, u64, u64) {
    match tc {
        rulebook::TimeControl::Fischer {
            base_ms,
            increment_ms,
        } => (
            TimeControl::Fischer {
                base_ms: *base_ms,
                increment_ms: *increment_ms,
            },
            *base_ms,
            *increment_ms,
        ),
        rulebook::TimeControl::Traditional(t) => {
            let stages: Vec<ClockStage> = t
                .periods
                .iter()
                .map(|p| ClockStage {
                    moves: p.moves,
                    cumulative_ms: p.by_ms,
                })
                .collect();
            let initial = stages.first().map(|s| s.cumulative_ms).unwrap_or(0);
            let (then_moves, then_ms) = t.block.map(|b| (b.moves, b.ms)).unwrap_or((0, 0));
            (
                TimeControl::Traditional {
                    stages,
                    then_moves,
                    then_ms,
                },
                initial,
                0,
            )
        }
    }
}

/// The hall's time control (wire form) as the rulebook's clock control,
/// for the table terminal's clock of record: a base of at least 1 ms, the
/// AXF traditional control when no stage came.
pub fn rule_time_control(tc: &TimeControl) -> rulebook::TimeControl {
    match tc {
        TimeControl::Fischer {
            base_ms,
            increment_ms,
        } => rulebook::TimeControl::Fischer {
            base_ms: (*base_ms).max(1),
            increment_ms: *increment_ms,
        },
        TimeControl::Traditional {
            stages,
            then_moves,
            then_ms,
        } => {
            let periods: Vec<Period> = stages
                .iter()
                .map(|s| Period {
                    moves: s.moves,
                    by_ms: s.cumulative_ms,
                })
                .collect();
            if periods.is_empty() {
                return rulebook::TimeControl::axf_traditional();
            }
            let block = (*then_moves > 0 && *then_ms > 0).then_some(Block {
                moves: *then_moves,
                ms: *then_ms,
            });
            rulebook::TimeControl::Traditional(TraditionalControl { periods, block })
        }
    }
}

/// Increment per move of a control (0 for traditional controls).
pub fn increment_ms(tc: &rulebook::TimeControl) -> u64 {
    match tc {
        rulebook::TimeControl::Fischer { increment_ms, .. } => *increment_ms,
        rulebook::TimeControl::Traditional(_) => 0,
    }
}

/// The id of a list of messages on the wire: its first argument `sep` is
/// the separator (a message), every other argument an `item`; renderers
/// join the items with the separator (`rulebook::explain::Fact::List`).
pub const LIST: &str = "list";

/// A rulebook explanation (an id and typed facts) as a wire message: a
/// side as [`Arg::Side`], a piece as [`Arg::Piece`], a square as verbatim
/// text (`b2`), rule ids as [`Arg::Rules`], a part as a nested message, a
/// list as a [`LIST`] message.
pub fn explanation(e: &rulebook::explain::Explanation) -> Message {
    let mut m = Message::new(e.id);
    for (name, fact) in &e.facts {
        m = m.arg(*name, fact_arg(fact));
    }
    m
}

fn fact_arg(fact: &rulebook::explain::Fact) -> Arg {
    use rulebook::explain::Fact;
    match fact {
        Fact::Count(n) => Arg::Int(*n),
        Fact::Duration(ms) => Arg::DurationMs(*ms),
        Fact::Side(c) => Arg::Side(side(*c)),
        Fact::Piece(p) => Arg::Piece {
            side: side(p.color),
            kind: piece_kind(p.role),
        },
        Fact::Square(s) => Arg::Verbatim(format!("{}{}", s.file_char(), s.rank_char())),
        Fact::Rules(rules) => Arg::Rules(rules.iter().map(|r| r.as_str().to_string()).collect()),
        Fact::Part(p) => Arg::Message(Box::new(explanation(p))),
        Fact::List { sep, items } => {
            let mut list =
                Message::new(LIST).arg("sep", Arg::Message(Box::new(Message::new(*sep))));
            for item in items {
                list = list.arg("item", Arg::Message(Box::new(explanation(item))));
            }
            Arg::Message(Box::new(list))
        }
    }
}

/// The wire's piece kind of a role.
pub fn piece_kind(role: Role) -> PieceKind {
    match role {
        Role::King => PieceKind::General,
        Role::Advisor => PieceKind::Advisor,
        Role::Elephant => PieceKind::Elephant,
        Role::Horse => PieceKind::Horse,
        Role::Rook => PieceKind::Chariot,
        Role::Cannon => PieceKind::Cannon,
        Role::Pawn => PieceKind::Soldier,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip() {
        let w = IccsMove::parse("h2e2").unwrap();
        let g = game_move(w).unwrap();
        assert_eq!(g.to_string(), "h2e2");
        assert_eq!(wire_move(g), w);
        for i in 0..crate::message::SQUARES {
            let from = Square::from_index(i).unwrap();
            let to = Square::from_index((i + 1) % crate::message::SQUARES).unwrap();
            assert_eq!(
                game_move(wire_move(Move { from, to })),
                Some(Move { from, to })
            );
        }
        assert!(game_move(IccsMove { from: 200, to: 1 }).is_none());
        assert!(game_move(IccsMove { from: 95, to: 1 }).is_none());
    }

    #[test]
    fn sides_round_trip() {
        for s in [Side::Red, Side::Black] {
            assert_eq!(side(color(s)), s);
        }
        assert_eq!(color(Side::Black), Color::Black);
        assert_eq!(Side::Red.name_en(), "Red");
        assert_eq!(Side::Black.name_zh(), "黑方");
    }

    #[test]
    fn time_controls_convert_both_ways() {
        let axf = rulebook::TimeControl::axf_fischer();
        let (wire, initial, inc) = wire_time_control(&axf);
        assert_eq!((initial, inc), (4_800_000, 30_000));
        assert_eq!(rule_time_control(&wire), axf);
        assert_eq!(increment_ms(&axf), 30_000);
        let trad = rulebook::TimeControl::axf_traditional();
        let (wire, initial, inc) = wire_time_control(&trad);
        assert_eq!((initial, inc), (3_600_000, 0));
        assert_eq!(rule_time_control(&wire), trad);
        let empty = TimeControl::Traditional {
            stages: Vec::new(),
            then_moves: 0,
            then_ms: 0,
        };
        assert_eq!(rule_time_control(&empty), trad);
    }
}
