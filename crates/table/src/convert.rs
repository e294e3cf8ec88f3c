//! Conversions between the wire types (crates/proto) and the game and rule
//! types (crates/xiangqi, crates/rulebook), in one place for the terminal.

use proto::{IccsMove, Side};
use rulebook::clock::{Block, Period, TraditionalControl};
use xiangqi::{Color, Move, Square};

/// Wire side to game colour.
pub fn color(side: Side) -> Color {
    match side {
        Side::Red => Color::Red,
        Side::Black => Color::Black,
    }
}

/// Game colour to wire side.
pub fn side(color: Color) -> Side {
    match color {
        Color::Red => Side::Red,
        Color::Black => Side::Black,
    }
}

/// Wire move to game move; `None` when a square is off the board.
pub fn game_move(m: IccsMove) -> Option<Move> {
    if !m.is_valid() {
        return None;
    }
    Some(Move {
        from: Square::from_index(m.from)?,
        to: Square::from_index(m.to)?,
    })
}

/// Game move to wire move.
pub fn wire_move(m: Move) -> IccsMove {
    IccsMove {
        from: m.from.index() as u8,
        to: m.to.index() as u8,
    }
}

/// The hall's time control (wire form) as the rulebook's clock control.
pub fn time_control(tc: &proto::TimeControl) -> rulebook::TimeControl {
    match tc {
        proto::TimeControl::Fischer {
            base_ms,
            increment_ms,
        } => rulebook::TimeControl::Fischer {
            base_ms: (*base_ms).max(1),
            increment_ms: *increment_ms,
        },
        proto::TimeControl::Traditional {
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

/// "Red" / "Black".
pub fn side_en(s: Side) -> &'static str {
    match s {
        Side::Red => "Red",
        Side::Black => "Black",
    }
}

/// "红方" / "黑方".
pub fn side_zh(s: Side) -> &'static str {
    match s {
        Side::Red => "红方",
        Side::Black => "黑方",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_controls_convert() {
        let w = IccsMove::parse("h2e2").unwrap();
        assert_eq!(wire_move(game_move(w).unwrap()), w);
        assert!(game_move(IccsMove { from: 95, to: 1 }).is_none());
        let tc = time_control(&proto::TimeControl::Fischer {
            base_ms: 4_800_000,
            increment_ms: 30_000,
        });
        assert_eq!(tc, rulebook::TimeControl::axf_fischer());
        assert_eq!(increment_ms(&tc), 30_000);
        let trad = time_control(&proto::TimeControl::Traditional {
            stages: vec![
                proto::ClockStage {
                    moves: 25,
                    cumulative_ms: 3_600_000,
                },
                proto::ClockStage {
                    moves: 35,
                    cumulative_ms: 4_500_000,
                },
            ],
            then_moves: 10,
            then_ms: 300_000,
        });
        assert!(
            matches!(trad, rulebook::TimeControl::Traditional(ref t) if t.periods.len() == 2 && t.block.is_some())
        );
        assert_eq!(color(side(Color::Black)), Color::Black);
    }
}
