//! Scanning a whole game for repetition alerts, as the server would see them
//! move by move (used by `caipan adjudicate --scan-pgn` and the all-games test).

use crate::repetition::{RepetitionAlert, RepetitionWatch};
use crate::ruleset::RuleSet;
use crate::ruling::Verdict;
use xiangqi::{Move, Position};

/// The alerts of one game.
#[derive(Clone, Debug)]
pub struct GameScan {
    /// Plies in the game.
    pub plies: usize,
    /// Every alert (a position occurring the third time or more), in order.
    pub alerts: Vec<RepetitionAlert>,
}

impl GameScan {
    /// The first alert whose ruling makes a side lose if it does not change,
    /// raised before the game's last move (the arbiter would ask for a change).
    pub fn first_forfeit_before_end(&self) -> Option<&RepetitionAlert> {
        self.alerts
            .iter()
            .find(|a| a.ruling.verdict != Verdict::Draw && a.ply < self.plies)
    }

    /// The first alert at which the side told to change has repeated the
    /// forbidden cycle once more (the position's fourth occurrence or later):
    /// under the procedure of 000 (referee duties (G)) the game ends there, a
    /// loss for that side; raised before the game's last move.
    pub fn first_forfeit_loss_before_end(&self) -> Option<&RepetitionAlert> {
        self.alerts.iter().find(|a| {
            a.ruling.verdict != Verdict::Draw
                && a.ruling.cycle.occurrences >= 4
                && a.ply < self.plies
        })
    }
}

/// Feeds the (legal) moves of a game to a [`RepetitionWatch`].
pub fn scan_game(start: &Position, moves: &[Move], set: RuleSet) -> GameScan {
    let mut watch = RepetitionWatch::new(start, set);
    let mut pos = start.clone();
    let mut alerts = Vec::new();
    for &mv in moves {
        pos.play_unchecked(mv);
        if let Some(a) = watch.push(mv, &pos) {
            alerts.push(a);
        }
    }
    GameScan {
        plies: moves.len(),
        alerts,
    }
}
