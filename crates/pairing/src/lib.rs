//! caipan-pairing: who plays whom in the next round (编排).
//!
//! Three systems, all pure functions of a [`Field`] (the players and the
//! rounds played so far) and options, without I/O:
//! - [`xiangqi`]: the Xiangqi Swiss (积分编排制) as the AXF 2008 text and
//!   Chinese practice describe it: same score meets same score (同分相对)
//!   before anything else the rules allow to give way;
//! - [`dutch`]: FIDE's Dutch system (C.04.3), Red = White;
//! - [`berger`]: round robins (循环制) by FIDE's Berger tables (C.05
//!   Annex 1), single and double.
//!
//! Every drawing of lots comes from a seed, and the seed and what was drawn
//! are returned with the [`Pairing`] so that an arbiter can store and audit
//! them. [`trf`] reads FIDE's tournament report files (TRF-16 with the
//! TRF-2026 and bbpPairings extensions) into a [`Field`] and writes
//! pairings in the formats JaVaFo and bbpPairings print.

pub mod berger;
pub mod blossom;
pub mod dutch;
pub mod field;
pub mod lots;
pub mod matching;
pub mod trf;
pub mod xiangqi;

pub use field::{Entrant, Entry, Field, ResultCode, Scoring, Side};

use serde::{Deserialize, Serialize};

/// One board of a pairing: start numbers of Red (White) and Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// Red's (White's) start number.
    pub red: u32,
    /// Black's start number.
    pub black: u32,
}

/// A drawing of lots (抽签) made while pairing, kept for the audit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Draw {
    /// The order of the players in round 1 drawn by lot (start numbers,
    /// first = number 1 of the draw).
    StartOrder(Vec<u32>),
    /// The colour of the top-ranked player in round 1.
    TopColour(Side),
}

/// How far a pairing had to give way on the rules that yield "when no
/// pairing exists otherwise".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Relaxation {
    /// Every rule held.
    None,
    /// Players of one club or team meet (no pairing avoids it).
    ClubMeets,
    /// A colour limit (three in a row, difference over 2) is broken.
    ColourLimits,
}

/// A round's pairing, with the seed and the lots drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The round paired (1-based).
    pub round: u32,
    /// Boards in board order.
    pub boards: Vec<Board>,
    /// The pairing-allocated bye (轮空), if any.
    pub bye: Option<u32>,
    /// The seed every lot of this pairing was drawn from.
    pub seed: u64,
    /// What was drawn, in drawing order.
    pub draws: Vec<Draw>,
    /// The rules given way on (xiangqi; [`Relaxation::None`] otherwise).
    pub relaxed: Relaxation,
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    /// Fewer than two players can play this round.
    #[error("round {round}: {present} player(s) present, at least 2 are needed")]
    TooFewPlayers {
        /// The round.
        round: u32,
        /// Players present.
        present: usize,
    },
    /// No pairing exists without a rematch (or a forbidden pair).
    #[error("round {round}: no pairing exists without a rematch or a forbidden pair")]
    NoPairing {
        /// The round.
        round: u32,
    },
    /// A round robin of a size no Berger table has.
    #[error("round robin: {players} players: Berger tables are for {min} to {max} players")]
    RoundRobinSize {
        /// Players entered.
        players: u32,
        /// The fewest a Berger table takes.
        min: u32,
        /// The most.
        max: u32,
    },
    /// A round robin has no such round.
    #[error(
        "round robin: round {round}: a round robin of {players} players has rounds 1 to {rounds}"
    )]
    RoundRobinRound {
        /// The round asked for.
        round: u32,
        /// Players entered.
        players: u32,
        /// Rounds the round robin has.
        rounds: usize,
    },
    /// The round asked for is not the next one.
    #[error("round {asked}: the field holds rounds 1..{held}; only round {} can be paired", held + 1)]
    NotNextRound {
        /// The round asked for.
        asked: u32,
        /// Rounds held.
        held: u32,
    },
}

/// Boards in board order: the higher score of the pair first, then the
/// key's second score (the sum or the lower), then the higher-ranked
/// player's rank. Each item is (Red, Black, (higher score, second score,
/// rank)), players by index.
pub(crate) fn board_order(mut boards: Vec<(usize, usize, (u32, u32, usize))>) -> Vec<Board> {
    boards.sort_by(|x, y| {
        y.2 .0
            .cmp(&x.2 .0)
            .then(y.2 .1.cmp(&x.2 .1))
            .then(x.2 .2.cmp(&y.2 .2))
    });
    boards
        .into_iter()
        .map(|(red, black, _)| Board {
            red: red as u32 + 1,
            black: black as u32 + 1,
        })
        .collect()
}
