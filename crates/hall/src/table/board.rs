//! Board tracker (棋盘) of one table: the position, the moves played and the
//! counters the rules need.
//!
//! Every reported move is checked with crates/xiangqi. A legal move is
//! played and updates the counters (moves, plies since the last capture,
//! checks given by each side overall and over the capture-free stretch). An
//! illegal move is not played: it is returned with its reason so that the
//! table state raises an alert with the recommended ruling, and the board
//! waits for the correction.

use std::sync::{Arc, LazyLock};

use xiangqi::{Color, IllegalMove, IllegalReason, Move, Position};

/// The standard starting position, shared by the trackers that start
/// from it.
static STANDARD_START: LazyLock<Arc<Position>> = LazyLock::new(|| Arc::new(Position::new()));

/// `start` shared: the standard position's one copy, or a copy of its own.
fn shared_start(start: Position) -> Arc<Position> {
    if start == **STANDARD_START {
        STANDARD_START.clone()
    } else {
        Arc::new(start)
    }
}

/// Per-side counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PerSide {
    /// Red's count.
    pub red: u32,
    /// Black's count.
    pub black: u32,
}

impl PerSide {
    /// The count of `side`.
    pub fn get(&self, side: Color) -> u32 {
        match side {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }

    /// Adds one to `side`'s count.
    pub fn bump(&mut self, side: Color) {
        match side {
            Color::Red => self.red += 1,
            Color::Black => self.black += 1,
        }
    }
}

/// What playing a reported move did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveOutcome {
    /// The move was legal and played.
    Played {
        /// The side that moved.
        mover: Color,
        /// Whether it captured.
        capture: bool,
        /// Whether it gives check.
        check: bool,
    },
    /// The move is illegal and was not played.
    Illegal(IllegalMove),
}

/// The position of one table with its history and counters.
#[derive(Debug, Clone)]
pub struct BoardTracker {
    /// The position now.
    pub position: Position,
    /// The position the game started from: shared by every table that
    /// starts from the standard position (issue 40: a position is about
    /// 370 bytes, and 10,000 tables each held a copy of the same one).
    pub start: Arc<Position>,
    /// Every legal move played, in order.
    pub moves: Vec<Move>,
    /// Zobrist keys of the positions since the last capture: the position
    /// at ply `stretch_start` (the start, or right after the capture) and
    /// every one after it. A position before a capture cannot occur again
    /// (it has one piece more), so the repetition count needs no older key;
    /// the window is bounded by the capture-free stretch, not by the game.
    pub keys: Vec<u64>,
    /// Plies since the last capture (from the start FEN's halfmove field on).
    pub plies_since_capture: u32,
    /// Checks given by each side over the whole game.
    pub checks: PerSide,
    /// Checks given by each side since the last capture (AXF-LIMIT-2).
    pub checks_since_capture: PerSide,
    /// Index in `moves` of the first move after the last capture.
    pub stretch_start: usize,
}

impl Default for BoardTracker {
    fn default() -> Self {
        BoardTracker::new(Position::new())
    }
}

impl BoardTracker {
    /// A tracker starting from `start` (the standard position shared).
    pub fn new(start: Position) -> BoardTracker {
        let plies = start.halfmove_clock();
        let key = start.zobrist();
        BoardTracker {
            position: start.clone(),
            start: shared_start(start),
            moves: Vec::new(),
            keys: vec![key],
            plies_since_capture: plies,
            checks: PerSide::default(),
            checks_since_capture: PerSide::default(),
            stretch_start: 0,
        }
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// Number of plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Checks `m` and plays it when legal.
    pub fn play(&mut self, m: Move) -> MoveOutcome {
        let mover = self.position.turn();
        if let Err(e) = self.position.check_move(m) {
            return MoveOutcome::Illegal(e);
        }
        let check = self.position.gives_check(m);
        match self.position.play(m) {
            Ok(captured) => {
                let capture = captured.is_some();
                self.moves.push(m);
                if capture {
                    self.keys.clear();
                }
                self.keys.push(self.position.zobrist());
                if capture {
                    self.plies_since_capture = 0;
                    self.checks_since_capture = PerSide::default();
                    self.stretch_start = self.moves.len();
                } else {
                    self.plies_since_capture += 1;
                }
                if check {
                    self.checks.bump(mover);
                    // The capturing ply opens the stretch and is not counted in it.
                    if !capture {
                        self.checks_since_capture.bump(mover);
                    }
                }
                MoveOutcome::Played {
                    mover,
                    capture,
                    check,
                }
            }
            Err(e) => MoveOutcome::Illegal(e),
        }
    }

    /// How many times the current position occurred (this one included).
    pub fn occurrences_of_current(&self) -> usize {
        let Some(&now) = self.keys.last() else {
            return 0;
        };
        self.keys.iter().filter(|&&k| k == now).count()
    }
}

/// Whether an illegal move loses under AXF-G6 (ignores a check or exposes
/// the kings) rather than being corrected with a technical foul (AXF-PLAY-4A).
pub fn illegal_move_loses(reason: &IllegalReason) -> bool {
    matches!(
        reason,
        IllegalReason::LeavesKingInCheck | IllegalReason::KingsFacing
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        let from = s[0..2].parse().unwrap();
        let to = s[2..4].parse().unwrap();
        Move { from, to }
    }

    #[test]
    fn counts_plies_and_captures() {
        let mut b = BoardTracker::default();
        assert!(matches!(b.play(mv("h2e2")), MoveOutcome::Played { .. }));
        assert!(matches!(b.play(mv("h9g7")), MoveOutcome::Played { .. }));
        assert_eq!(b.plies_since_capture, 2);
        // The cannon takes the central pawn over the e3 pawn (no screen to the king: no check).
        let out = b.play(mv("e2e6"));
        assert!(matches!(
            out,
            MoveOutcome::Played {
                capture: true,
                check: false,
                ..
            }
        ));
        assert_eq!(b.plies_since_capture, 0);
        // Black's horse takes the cannon back.
        assert!(matches!(
            b.play(mv("g7e6")),
            MoveOutcome::Played { capture: true, .. }
        ));
        assert_eq!(b.checks.red, 0);
    }

    #[test]
    fn illegal_move_is_not_played() {
        let mut b = BoardTracker::default();
        let out = b.play(mv("a0a5"));
        assert!(matches!(out, MoveOutcome::Illegal(_)));
        assert_eq!(b.plies(), 0);
    }

    #[test]
    fn repetition_count() {
        let mut b = BoardTracker::default();
        for _ in 0..2 {
            for m in ["h2h3", "h7h6", "h3h2", "h6h7"] {
                b.play(mv(m));
            }
        }
        assert_eq!(b.occurrences_of_current(), 3);
    }
}
