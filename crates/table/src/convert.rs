//! The hall's time control as the terminal's clock of record needs it: the
//! wire form (crates/proto) to the rulebook's control. Side/colour and move
//! conversions are shared with the server and live in `proto::convert`.

use rulebook::clock::{Block, Period, TraditionalControl};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_convert() {
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
    }
}
