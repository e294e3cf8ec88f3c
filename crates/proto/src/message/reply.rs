//! What the server sends: acknowledgements, errors, snapshots, deltas and
//! controls pushed to table terminals.

use super::alert::Alert;
use super::common::{EndReason, GameResult, IccsMove, Side};
use super::ruling::{ClaimPenalty, Verdict};
use super::step::TableStep;
use super::view::{AuditEntry, ClaimKind, ClaimView, HallView, PauseInfo, TableView};
use bincode::{Decode, Encode};
use std::fmt;
use std::sync::Arc;

/// A table event is durably stored (or was already: `duplicate`). Acks are
/// cumulative: one ack may answer several events of the table and epoch
/// (protocol version 4), those up to `seq`.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ack {
    pub table: u16,
    pub epoch: u32,
    /// The table's high-water mark: every seq up to this one is stored.
    pub seq: u64,
    pub duplicate: bool,
}

/// Why a request was refused.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum ErrorCode {
    /// The frame's payload does not decode.
    BadFrame,
    /// The frame is larger than `limit` bytes.
    TooLarge {
        limit: u32,
    },
    /// Protocol version not supported; the server speaks `server`.
    BadVersion {
        server: u16,
    },
    /// Unknown token (the connection is then closed).
    Unauthenticated,
    /// The role may not do this (why: the reply's message; protocol 8,
    /// it was a sentence here).
    Forbidden,
    /// A table reported an event for another table.
    WrongTable,
    /// The same `(table, epoch, seq)` was stored with different content, or
    /// a seq/epoch out of order.
    Conflict,
    /// A move that is not legal on the board.
    IllegalMove,
    /// No such table, claim or alert.
    NotFound,
    /// A command whose arguments make no sense in the current state.
    Invalid,
    /// A message not allowed at this point (e.g. anything before `Hello`).
    Unexpected,
    /// The server cannot serve now (e.g. store stopped).
    Unavailable,
    Internal,
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorCode::BadFrame => write!(f, "bad frame"),
            ErrorCode::TooLarge { limit } => write!(f, "frame too large (limit {limit} bytes)"),
            ErrorCode::BadVersion { server } => {
                write!(f, "unsupported protocol version (server speaks {server})")
            }
            ErrorCode::Unauthenticated => write!(f, "unauthenticated"),
            ErrorCode::Forbidden => write!(f, "forbidden"),
            ErrorCode::WrongTable => write!(f, "wrong table"),
            ErrorCode::Conflict => write!(f, "conflict"),
            ErrorCode::IllegalMove => write!(f, "illegal move"),
            ErrorCode::NotFound => write!(f, "not found"),
            ErrorCode::Invalid => write!(f, "invalid request"),
            ErrorCode::Unexpected => write!(f, "unexpected message"),
            ErrorCode::Unavailable => write!(f, "unavailable"),
            ErrorCode::Internal => write!(f, "internal error"),
        }
    }
}

/// Which request an error answers.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestRef {
    Event { table: u16, epoch: u32, seq: u64 },
    Command { id: u64 },
}

/// An error reply (拒绝): the code, and why as a catalogue message
/// (`refusal-*`, `reply-*`: an id and typed arguments, protocol 8; it was
/// an English sentence), rendered by each client in its own language and
/// in English in the server's log.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct ErrorReply {
    pub code: ErrorCode,
    pub message: super::text::Message,
    /// The request refused, when the error is about one.
    pub re: Option<RequestRef>,
}

/// A change to the hall view.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum Delta {
    /// A table's new state (replaces the old one). Shared: the hall's
    /// kept view, every console tick that carries it and the publisher's
    /// step bases are one allocation (encoded as the view itself, so the
    /// wire is unchanged).
    Table(Arc<TableView>),
    /// A new alert.
    Alert(Alert),
    AlertAcked {
        id: u64,
        by: String,
    },
    /// A new or changed claim (replaces the one with the same id).
    Claim(ClaimView),
    Audit(AuditEntry),
    /// The hall was paused (`Some`) or resumed (`None`).
    HallPaused(Option<PauseInfo>),
    /// A table's new state as a step from the view the console holds
    /// (protocol 12): the moves since its base and the small fields, not
    /// the names, board history and all (`step.rs`). Sent only to a
    /// console that holds the base; one that does not apply it
    /// ([`TableStep::apply`] fails) needs a fresh picture.
    TableStep(TableStep),
}

/// A command for a table terminal. The terminal carries it out and reports
/// `TableEvent::ControlApplied { control_id, .. }` with the times it shows.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum ControlToTable {
    /// Stop the clock and show why ("paused by the chief arbiter: ...").
    Pause {
        by: String,
        reason: String,
    },
    Resume {
        by: String,
    },
    /// Set both clocks.
    Adjust {
        by: String,
        red_ms: u64,
        black_ms: u64,
        reason: String,
    },
    /// Adjourned: stop the clock, show "sealed".
    Seal {
        by: String,
    },
    /// Resume an adjourned game: play `sealed_move`, set the clocks and run.
    Unseal {
        by: String,
        sealed_move: IccsMove,
        red_ms: u64,
        black_ms: u64,
    },
    /// The game is over.
    SetResult {
        by: String,
        result: GameResult,
        why: EndReason,
        reason: String,
    },
    /// Take back the last move (illegal move corrected, AXF-PLAY-4A).
    TakeBack {
        by: String,
        reason: String,
    },
    /// The move limit 限著 declared (`Some`, replacing any earlier one) or
    /// cancelled (`None`): the terminal shows each player's remaining moves.
    MoveLimit {
        by: String,
        limit: Option<super::move_limit::MoveLimit>,
    },
    /// The arbiter's order at a repetition (变着令), shown to both players
    /// until the next move: `must_change` must change (one more cycle
    /// loses), or, without a side, one more cycle is a draw.
    Order {
        by: String,
        must_change: Option<Side>,
        /// The order's words (`order-change` / `order-draw`), rendered in
        /// the terminal's languages (protocol 7; it was a
        /// `text_zh`/`text_en` pair).
        text: super::text::Message,
    },
    /// A claim of the table was decided (protocol version 5): the players
    /// are told what was claimed and what the ruling does — typed, so that
    /// the terminal words it: "play on, technical foul, 5:00 off" (a false
    /// natural-limit claim accepted), "play on, no penalty" (overridden),
    /// a change order, a result. Sent after the controls that carry the
    /// ruling out (result, order, clock adjustment), so that it is the
    /// last word on the terminal.
    ClaimDecided {
        /// The claim.
        claim_id: u64,
        /// What was claimed.
        kind: ClaimKind,
        /// The claimant; `None` when the server raised it.
        claimant: Option<Side>,
        /// What the ruling does to the game.
        verdict: Verdict,
        /// The side ordered to change (a repetition), if any.
        must_change: Option<Side>,
        /// The penalty that went with it; `None` for none (an override
        /// waives the recommended one).
        penalty: Option<ClaimPenalty>,
    },
}

/// Every server-to-client message.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum ServerMsg {
    HelloOk(super::hello::HelloOk),
    Ack(Ack),
    Error(ErrorReply),
    /// A console command was carried out; `note` may say more (e.g. export paths).
    CommandOk {
        id: u64,
        note: String,
    },
    /// The whole hall view (on subscribe, and to a console that fell behind).
    Snapshot(Box<HallView>),
    Delta(Delta),
    /// A control for the table terminal (only sent to table connections).
    Control {
        id: u64,
        table: u16,
        control: ControlToTable,
    },
    TableLog(super::view::TableLog),
    Pong {
        nonce: u64,
    },
    /// To a table's terminal: a newer terminal of the table signed in and
    /// took the table over; this connection is closed next. The terminal
    /// stops reconnecting for the table unless the person at it confirms
    /// (protocol version 5).
    TakenOver {
        table: u16,
    },
    /// The answer to `Command::PairNextRound`: the proposed pairing of the
    /// next round, with why this pair for every board (protocol version 6).
    RoundProposal {
        id: u64,
        proposal: Box<super::round::RoundProposal>,
    },
    /// One page of a hall snapshot larger than a page (protocol 8): sent
    /// instead of `Snapshot` when the hall does not fit in one
    /// ([`crate::paging`]).
    SnapshotPage(Box<super::view::SnapshotPage>),
    /// A console's deltas of one fan-out tick, in order (protocol 11): the
    /// server gathers what changed for a few milliseconds and sends each
    /// console one frame, a table's view only its last in the tick (a
    /// table that changed five times is sent once); alerts, claims, audit
    /// rows and pauses all kept, in order. A tick over a page is split
    /// into several frames. Applying them in order is applying each
    /// [`ServerMsg::Delta`] alone (still decodable, older clients' path).
    Deltas(Vec<Delta>),
}

impl ServerMsg {
    /// The deltas this message carries, in order: a `Delta`'s one, a
    /// `Deltas`' all, none for any other message.
    pub fn deltas(&self) -> &[Delta] {
        match self {
            ServerMsg::Delta(d) => std::slice::from_ref(d),
            ServerMsg::Deltas(ds) => ds,
            _ => &[],
        }
    }

    /// The message as one message per delta: a `Deltas` becomes a
    /// `Delta` each, in order; any other message is itself alone (for
    /// readers that handle one delta at a time).
    pub fn unpacked(self) -> Vec<ServerMsg> {
        match self {
            ServerMsg::Deltas(ds) => ds.into_iter().map(ServerMsg::Delta).collect(),
            m => vec![m],
        }
    }
}
