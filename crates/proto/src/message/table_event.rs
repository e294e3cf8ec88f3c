//! Events reported by a table terminal (台端事件): clock presses, moves,
//! claims, offers, resignations, fouls, results, and the acknowledgement of
//! the server's control commands.
//!
//! Every event travels in an [`EventEnvelope`] keyed by `(table, epoch, seq)`:
//! the server stores it durably, then acknowledges with the table's
//! high-water mark; a resent event already stored is acknowledged as a
//! duplicate, the same key with different content is `ErrorCode::Conflict`.

use super::common::{EndReason, FoulKind, GameResult, IccsMove, Side};
use bincode::{Decode, Encode};

/// One table event with its idempotency key.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct EventEnvelope {
    pub table: u16,
    /// Numbering run chosen by the terminal (see `TableSession::epoch`).
    pub epoch: u32,
    /// 1, 2, 3, ... within the epoch, without gaps.
    pub seq: u64,
    pub body: TableEvent,
}

/// What happened at the table. Times are the terminal's: remaining ms on
/// each clock and the terminal's monotonic clock in ms (`terminal_mono_ms`,
/// arbitrary origin, never going back within an epoch).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum TableEvent {
    /// A player is at the board (for the no-show rule: 30 minutes).
    Arrived {
        side: Side,
    },
    /// The game's clock was started (Black starts Red's clock).
    ClockStarted {
        red_ms: u64,
        black_ms: u64,
        terminal_mono_ms: u64,
    },
    /// A clock press by `by`, after playing `mv` (None: a press without a
    /// recorded move, e.g. on a board that reports moves separately).
    /// Times are those shown right after the press (increment included).
    ClockPress {
        by: Side,
        mv: Option<IccsMove>,
        red_ms: u64,
        black_ms: u64,
        terminal_mono_ms: u64,
    },
    /// A move reported without a clock press (e.g. from a board sensor, or a
    /// correction after an illegal move).
    Move {
        by: Side,
        mv: IccsMove,
    },
    /// Claim of the natural move limit (自然限着).
    ClaimNaturalLimit {
        by: Side,
    },
    /// Claim of a repetition (棋例) ruling.
    ClaimRepetition {
        by: Side,
    },
    DrawOffer {
        by: Side,
    },
    DrawAccept {
        by: Side,
    },
    DrawDecline {
        by: Side,
    },
    Resign {
        by: Side,
        reason: String,
    },
    /// The player asks for an arbiter (请裁判).
    CallArbiter {
        by: Side,
        reason: String,
    },
    /// A foul noticed at the terminal (e.g. a missed press reported by the player).
    FoulReport {
        side: Side,
        kind: FoulKind,
        note: String,
    },
    /// A flag fell on the terminal's clock.
    FlagFell {
        side: Side,
        red_ms: u64,
        black_ms: u64,
        terminal_mono_ms: u64,
    },
    /// A result the terminal determined (mate, stalemate, agreed draw, ...).
    Result {
        result: GameResult,
        /// Why, typed (mate and stalemate are checked by the server).
        why: EndReason,
        reason: String,
    },
    /// The terminal carried out the server's control `control_id` (pause,
    /// resume, adjust, seal, unseal, set result) and shows these times.
    ControlApplied {
        control_id: u64,
        red_ms: u64,
        black_ms: u64,
        running: Option<Side>,
        terminal_mono_ms: u64,
    },
}
