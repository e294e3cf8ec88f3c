//! The terminal's board (棋盘): the position, the moves played, the last
//! move, and move entry in any notation (ICCS, WXF or Chinese), checked for
//! legality before the clock is pressed.

use xiangqi::{parse_any, Color, Move, Outcome, Position};

/// The game on the terminal.
#[derive(Debug, Clone)]
pub struct Board {
    start: Position,
    position: Position,
    moves: Vec<Move>,
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

    /// Reads a move typed in any notation and checks it is legal now.
    pub fn parse(&self, text: &str) -> Result<Move, BadMove> {
        parse_any(&self.position, text).map_err(|e| BadMove(e.to_string()))
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
}
