//! The terminal's board (棋盘): the position, the moves played, the last
//! move, and move entry in any notation (ICCS, WXF or Chinese; or, in the
//! Vietnamese mode, ICCS, Vietnamese or Chinese), checked for legality
//! before the clock is pressed.

use std::str::FromStr;

use xiangqi::{parse_any, parse_any_vietnamese, Color, Move, Outcome, Position};

/// The terminal's notation setting: how typed moves are read and how the
/// moves are shown. Vietnamese is a mode of its own, never guessed, since
/// its texts collide with WXF's (`P2-5` is a cannon sideways there and a
/// pawn going back in WXF).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Notation {
    /// ICCS, WXF or Chinese typed; moves shown in Chinese (`炮二平五`).
    #[default]
    Standard,
    /// ICCS, Vietnamese (`P2-5`) or Chinese typed; moves shown in
    /// Vietnamese notation.
    Vietnamese,
}

impl Notation {
    /// `m` (legal in `before`) as this setting shows it.
    pub fn text(self, before: &Position, m: Move) -> String {
        match self {
            Notation::Standard => xiangqi::to_chinese(before, m),
            Notation::Vietnamese => xiangqi::to_vietnamese(before, m),
        }
    }
}

/// A `--notation` value that is neither `standard` nor `vietnamese`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation {0:?}: use standard (ICCS, WXF, Chinese) or vietnamese (P2-5)")]
pub struct UnknownNotation(pub String);

impl FromStr for Notation {
    type Err = UnknownNotation;
    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        match s.to_ascii_lowercase().as_str() {
            "standard" | "wxf" | "chinese" | "zh" => Ok(Notation::Standard),
            "vietnamese" | "vi" => Ok(Notation::Vietnamese),
            _ => Err(UnknownNotation(s.to_string())),
        }
    }
}

/// The game on the terminal.
#[derive(Debug, Clone)]
pub struct Board {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    notation: Notation,
}

impl Default for Board {
    fn default() -> Self {
        Board::new(Position::new())
    }
}

/// Why an entered move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadMove(pub String);

impl Board {
    /// A board at `start`.
    pub fn new(start: Position) -> Board {
        Board {
            position: start.clone(),
            start,
            moves: Vec::new(),
            notation: Notation::Standard,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// The notation setting.
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// Sets how typed moves are read and moves are shown.
    pub fn set_notation(&mut self, n: Notation) {
        self.notation = n;
    }

    /// Reads a move typed in a notation of the setting and checks it is
    /// legal now.
    pub fn parse(&self, text: &str) -> Result<Move, BadMove> {
        match self.notation {
            Notation::Standard => parse_any(&self.position, text),
            Notation::Vietnamese => parse_any_vietnamese(&self.position, text),
        }
        .map_err(|e| BadMove(e.to_string()))
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) -> Result<(), BadMove> {
        self.position
            .play(m)
            .map_err(|e| BadMove(format!("{m}: {e}")))?;
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move (an arbiter's correction).
    pub fn take_back(&mut self) -> Option<Move> {
        let last = self.moves.pop()?;
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        self.position = pos;
        Some(last)
    }

    /// Mate or stalemate on the board.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_every_notation_and_take_back() {
        let mut b = Board::default();
        let m = b.parse("h2e2").unwrap();
        b.play(m).unwrap();
        let m = b.parse("马8进7").unwrap();
        assert_eq!(m.to_string(), "h9g7");
        b.play(m).unwrap();
        let m = b.parse("H2+3").unwrap();
        assert_eq!(m.to_string(), "h0g2");
        b.play(m).unwrap();
        assert!(b.parse("h9g7").is_err(), "not Black's horse any more");
        assert!(b.parse("nonsense").is_err());
        assert_eq!(b.moves().len(), 3);
        assert_eq!(b.take_back().map(|m| m.to_string()), Some("h0g2".into()));
        assert_eq!(b.turn(), Color::Red);
        assert_eq!(b.last_move().map(|m| m.to_string()), Some("h9g7".into()));
    }

    #[test]
    fn the_vietnamese_mode_reads_vietnamese_and_never_wxf() {
        let mut b = Board::default();
        // Standard: `P2-5` is WXF (a pawn on file 2 going back: none there).
        assert!(b.parse("P2-5").is_err());
        b.set_notation("vi".parse().unwrap());
        assert_eq!(b.notation(), Notation::Vietnamese);
        assert_eq!(b.parse("P2-5").unwrap().to_string(), "h2e2");
        assert_eq!(b.parse("h2e2").unwrap().to_string(), "h2e2");
        assert_eq!(b.parse("炮二平五").unwrap().to_string(), "h2e2");
        assert!(
            b.parse("C2.5").is_err(),
            "WXF is not read in the Vietnamese mode"
        );
        assert!("klingon".parse::<Notation>().is_err());
    }
}
