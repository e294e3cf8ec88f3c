//! The public projection of the hall (公开视图) for the broadcast: what
//! followers may see of each game — the players' names, the moves, each
//! ply's clock, the clocks, the public status and the result with its typed
//! reason — and the public events, in order, that change it.
//!
//! Built field by field from a table's state (`table::public`), never
//! from the console's view with fields blanked: claims, alerts, fouls,
//! rulings, the audit trail, arbiters' names, the sealed move and the words
//! of a pause or a result are not in these types, so they cannot leak.
//!
//! Every table counts its public events ([`PublicMark::version`], kept in
//! the snapshot), and the hall's public sequence is their sum: each event
//! adds one, so the broadcast's event ids increase by one per event, are
//! the same after a restart (snapshot plus replay) or on a standby that
//! rebuilt the hall from the store, and, unlike the store's gseq, show no
//! gap where arbiters acted.

use proto::{ClockState, EndReason, GameResult, IccsMove, TableStatus};

use crate::ply_clocks::PlyClocks;

/// A game's status as followers see it (no pause reasons, no names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PublicStatus {
    /// Not started.
    Waiting,
    /// Being played.
    Playing,
    /// Stopped by an arbiter (the reason is not public).
    Paused,
    /// Adjourned with a sealed move (封棋; the move is not public).
    Adjourned,
    /// Over.
    Finished {
        /// The result.
        result: GameResult,
        /// Why, typed (the words that came with it are not public).
        why: EndReason,
    },
}

impl PublicStatus {
    /// The public status of a table's status.
    pub fn of(s: &TableStatus) -> PublicStatus {
        match s {
            TableStatus::Waiting => PublicStatus::Waiting,
            TableStatus::Playing => PublicStatus::Playing,
            TableStatus::Paused(_) => PublicStatus::Paused,
            TableStatus::Sealed { .. } => PublicStatus::Adjourned,
            TableStatus::Finished { result, why, .. } => PublicStatus::Finished {
                result: *result,
                why: *why,
            },
        }
    }

    /// Whether the game is over.
    pub fn finished(self) -> bool {
        matches!(self, PublicStatus::Finished { .. })
    }

    /// The name in the broadcast's JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            PublicStatus::Waiting => "waiting",
            PublicStatus::Playing => "playing",
            PublicStatus::Paused => "paused",
            PublicStatus::Adjourned => "adjourned",
            PublicStatus::Finished { .. } => "finished",
        }
    }
}

/// One game as followers see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicGame {
    /// Table (board) number.
    pub table: u16,
    /// Red's name (from the pairing).
    pub red: String,
    /// Black's name.
    pub black: String,
    /// The position before the first move (FEN).
    pub start_fen: String,
    /// The moves (ICCS), in order.
    pub moves: Vec<IccsMove>,
    /// The mover's remaining time (ms) after each ply's clock press (the
    /// table's own compact form: 4 bytes a ply).
    pub ply_clocks: PlyClocks,
    /// Both clocks at the last report, and the side whose clock runs.
    pub clock: ClockState,
    /// Server time (Unix ms) at which `clock` held.
    pub clock_at_ms: u64,
    /// The public status.
    pub status: PublicStatus,
}

/// What one public event says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublicChange {
    /// A move was played (ply is 1-based).
    Move {
        /// The ply's number (1: the first move).
        ply: u32,
        /// The move.
        mv: IccsMove,
        /// The mover's remaining time after the press, when reported.
        clock_ms: Option<u64>,
        /// Both clocks after it.
        clock: ClockState,
    },
    /// The clocks or the status changed without a move (start, pause,
    /// resumption, an adjustment, an adjournment).
    Clock {
        /// Both clocks.
        clock: ClockState,
        /// The status.
        status: PublicStatus,
    },
    /// The game ended.
    Result {
        /// The result.
        result: GameResult,
        /// Why, typed.
        why: EndReason,
    },
    /// The game is not the continuation of what was shown (a move taken
    /// back, a result withdrawn): here it is whole.
    Game(Box<PublicGame>),
}

/// One public event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicEvent {
    /// The hall's public sequence number after it (the broadcast's id).
    pub id: u64,
    /// Server time (Unix ms) of the record that caused it.
    pub at_ms: u64,
    /// The table.
    pub table: u16,
    /// What changed.
    pub change: PublicChange,
}

/// Where a table's public picture stands: what was last published and how
/// many public events the table has had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicMark {
    /// Public events of this table so far (kept in the snapshot).
    pub version: u64,
    /// Plies published.
    pub plies: usize,
    /// Clocks published.
    pub clock: ClockState,
    /// Status published.
    pub status: PublicStatus,
}
