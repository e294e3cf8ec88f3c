//! The console's picture of the hall (大厅视图): a snapshot is a
//! [`HallView`]; later changes come as deltas of these same types.
//!
//! A sealed move is never part of any view (only "sealed" is shown).

use super::alert::Alert;
use super::common::{ClockState, EndReason, FoulCount, GameResult, IccsMove, Side, TimeControl};
use super::ruling::{ClaimPenalty, Ruling, Verdict};
use super::text::Message;
use bincode::{Decode, Encode};

/// Who paused and why.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct PauseInfo {
    /// Display name of the arbiter (e.g. `chief`, `deputy 李四`).
    pub by: String,
    pub reason: String,
}

/// State of a table's game.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum TableStatus {
    /// Not started yet.
    Waiting,
    Playing,
    Paused(PauseInfo),
    /// Adjourned with a sealed move (封棋).
    Sealed {
        by: String,
        at_ms: u64,
    },
    Finished {
        result: GameResult,
        /// Why, typed (from the event or ruling that ended the game).
        why: EndReason,
        /// The words that came with it (a resignation's, an arbiter's reason).
        reason: String,
    },
}

/// An order standing at a table (变着令): from the ply at which it reached
/// the table until the cycle repeats or a move leaves it.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct StandingOrder {
    /// The side ordered to change; `None`: one more cycle is a draw.
    pub must_change: Option<Side>,
    /// Plies played when the order was given.
    pub at_ply: u32,
    /// The claim whose ruling gave it.
    pub claim_id: u64,
    /// The order's words (`order-change` / `order-draw`: the side, the
    /// cycles left), rendered in each client's language (protocol 7; it
    /// was a `text_zh`/`text_en` pair).
    pub text: super::text::Message,
}

/// One table as the console shows it.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct TableView {
    pub table: u16,
    pub red: String,
    pub black: String,
    /// Clock times as last reported (extrapolate the running side from
    /// `clock_at_ms` when `clock.running` is set).
    pub clock: ClockState,
    /// Server wall clock (Unix ms) at which `clock` held.
    pub clock_at_ms: u64,
    pub to_move: Side,
    /// A side whose flag fell.
    pub flag: Option<Side>,
    /// Plies played.
    pub plies: u32,
    pub plies_since_capture: u32,
    pub natural_limit_plies: u32,
    pub checks_red: u32,
    pub checks_black: u32,
    pub fouls_red: FoulCount,
    pub fouls_black: FoulCount,
    pub pending_claims: u32,
    pub status: TableStatus,
    /// Server wall clock when the terminal was last heard from (0: never).
    pub last_heard_ms: u64,
    pub online: bool,
    pub last_move: Option<IccsMove>,
    /// Board position (FEN); a sealed move is not applied here.
    pub fen: String,
    /// All moves (ICCS), from the start position.
    pub moves: Vec<IccsMove>,
    /// The declared move limit 限著 (ROC) and where it stands.
    pub move_limit: Option<super::move_limit::MoveLimitView>,
    /// The order standing at the table, if any.
    pub order: Option<StandingOrder>,
}

/// What a claim is about.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimKind {
    NaturalLimit,
    Repetition,
    /// Raised by the server for an illegal move on the board.
    IllegalMove,
    /// Raised by the server when fouls reach a threshold.
    FoulThreshold,
    FlagFall,
    NoShow,
    DrawOffer,
    /// A claim that the declared move limit 限著 (ROC) is full.
    MoveLimit,
}

/// How a ruled claim was decided.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum RulingOutcome {
    Accepted,
    Overridden {
        verdict: Verdict,
        must_change: Option<Side>,
        reason: String,
    },
}

/// Where a claim stands.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum ClaimStatus {
    Pending,
    Ruled {
        by: String,
        outcome: RulingOutcome,
        at_ms: u64,
    },
    /// Handed to the chief arbiter.
    Escalated {
        by: String,
        reason: String,
        at_ms: u64,
    },
    /// Closed without a ruling: what it was about went away (the absent
    /// player's clock started, the game ended). `why` is a catalogue
    /// message (an `audit-lapse-*` id, since protocol 10), rendered by each
    /// reader in its language.
    Lapsed {
        why: Message,
        at_ms: u64,
    },
}

impl ClaimStatus {
    /// Whether an arbiter still has to decide it (pending or escalated).
    pub fn is_open(&self) -> bool {
        matches!(self, ClaimStatus::Pending | ClaimStatus::Escalated { .. })
    }
}

/// A claim with its recommended ruling.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct ClaimView {
    pub id: u64,
    pub table: u16,
    pub kind: ClaimKind,
    /// The claiming side; `None` when the server raised it.
    pub by: Option<Side>,
    pub raised_at_ms: u64,
    pub recommended: Ruling,
    /// The penalty that accepting `recommended` adds (a false natural-limit
    /// claim's technical foul and time off); an override waives it
    /// (protocol version 5).
    pub penalty: Option<ClaimPenalty>,
    pub status: ClaimStatus,
}

/// One line of the audit trail (审计记录).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: u64,
    /// Server wall clock, Unix ms.
    pub at_ms: u64,
    /// Who acted (e.g. `chief`, `deputy 李四`, `table 7`).
    pub who: String,
    /// What was done or attempted, in words.
    pub what: String,
    pub table: Option<u16>,
    /// `Some(why)` when the action was refused.
    pub refused: Option<String>,
    /// What was done, typed (an `audit-*` catalogue message each client
    /// renders in its language; `what` is its English). `None` on a row
    /// stored before protocol 10: it renders as `what` (protocol 10).
    pub what_msg: Option<Message>,
    /// Why it was refused, typed (the refusal's own message, `refusal-*`,
    /// `role-*`, `reply-*`); `None` when accepted or stored before
    /// protocol 10 (then `refused` is shown as stored).
    pub refused_msg: Option<Message>,
}

/// One clock sample in a table's history.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockSample {
    /// Server wall clock, Unix ms.
    pub at_ms: u64,
    pub plies: u32,
    pub clock: ClockState,
}

/// The whole hall.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct HallView {
    pub tournament: String,
    pub round: u32,
    pub rule_set: String,
    pub time_control: TimeControl,
    /// Set while the whole hall is paused.
    pub paused: Option<PauseInfo>,
    pub tables: Vec<TableView>,
    /// Recent alerts, newest last.
    pub alerts: Vec<Alert>,
    /// Open (pending or escalated) and recently ruled claims.
    pub claims: Vec<ClaimView>,
    /// Recent audit entries, newest last.
    pub audit: Vec<AuditEntry>,
    /// Server wall clock at the snapshot (Unix ms).
    pub server_ms: u64,
}

/// One page of a hall snapshot too large for one frame (protocol 8): the
/// pages of one snapshot share `snapshot` (its number on the connection)
/// and `pages`, and come in order `0..pages`; each holds the hall's head
/// (tournament, round, rules, pause, server time) and its share of the
/// tables, then alerts, claims and audit, in the snapshot's order. The
/// client applies the snapshot once its last page is in
/// ([`crate::paging::Assembly`]); deltas sent after it follow the last page.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct SnapshotPage {
    /// Which snapshot these pages make up (a fresh one restarts the count).
    pub snapshot: u64,
    /// This page, from 0.
    pub page: u32,
    /// Pages of this snapshot.
    pub pages: u32,
    /// The head and this page's share of the vectors.
    pub view: HallView,
}

/// A table's detail log (reply to `Command::GetTableLog`).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct TableLog {
    pub table: u16,
    pub audit: Vec<AuditEntry>,
    pub clock_history: Vec<ClockSample>,
}
