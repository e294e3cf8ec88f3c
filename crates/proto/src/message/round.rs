//! The next round (下一轮编排) on the wire: the pairing the server proposes
//! to the chief arbiter (`Command::PairNextRound` → `ServerMsg::RoundProposal`),
//! with *why this pair* for every board, and the round the chief publishes
//! (`Command::PublishRound`), with every change made to the proposal and
//! its reason (protocol version 6).
//!
//! Names and registration ids are peer text: the server checks their sizes
//! and that every player appears once before it stores a published round.

use super::text::Message;
use bincode::{Decode, Encode};

/// One board of a proposed or published round.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct RoundBoard {
    /// Table number.
    pub table: u16,
    /// Red player (红方).
    pub red: String,
    /// Black player (黑方).
    pub black: String,
    /// Red's registration id, when the hall has one.
    pub red_id: Option<String>,
    /// Black's registration id, when the hall has one.
    pub black_id: Option<String>,
    /// Why this pair (score group, colours, floats, rematches avoided),
    /// as messages each client renders in its language.
    pub why: Vec<Message>,
}

/// A round: the boards in board order, the bye and how it was paired.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct RoundProposal {
    /// The round (the hall's current round + 1).
    pub round: u32,
    /// The pairing system used (`xiangqi`, `dutch`, `round-robin`).
    pub system: String,
    /// The seed every lot was drawn from (stored for the audit).
    pub seed: u64,
    /// The boards, in board order.
    pub boards: Vec<RoundBoard>,
    /// The player given the pairing-allocated bye (轮空), if any.
    pub bye: Option<String>,
    /// Notes on the whole pairing (a rule given way on).
    pub notes: Vec<Message>,
}

/// A change the chief made to the proposal before publishing, with the
/// reason (audited).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct RoundChange {
    /// What changed (`round-change-colours`, `round-change-exchange`).
    pub what: Message,
    /// The chief's reason, as typed.
    pub reason: String,
}
