//! Conversions between the wire types (crates/proto) and the game and rule
//! types (crates/xiangqi, crates/rulebook). The protocol keeps its own small
//! types so that its format only changes with its version; the server
//! converts at this one boundary.
//!
//! Side/colour and move conversions are shared with the
//! table terminal and live in `proto::convert`; they are re-exported here so the
//! server's modules name one place. The rulebook's verdict is the server's own.

pub use proto::convert::{color, game_move, side, wire_move};
use proto::{Side, Verdict};

/// A repetition verdict of the rulebook as a wire verdict.
pub fn repetition_verdict(v: rulebook::ruling::Verdict) -> Verdict {
    match v {
        rulebook::ruling::Verdict::RedLoses => Verdict::Loss { side: Side::Red },
        rulebook::ruling::Verdict::BlackLoses => Verdict::Loss { side: Side::Black },
        rulebook::ruling::Verdict::Draw => Verdict::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_verdicts() {
        use rulebook::ruling::Verdict as Rule;
        assert_eq!(
            repetition_verdict(Rule::RedLoses),
            Verdict::Loss { side: Side::Red }
        );
        assert_eq!(
            repetition_verdict(Rule::BlackLoses),
            Verdict::Loss { side: Side::Black }
        );
        assert_eq!(repetition_verdict(Rule::Draw), Verdict::Draw);
    }
}
