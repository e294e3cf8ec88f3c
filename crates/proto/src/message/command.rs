//! Console commands (裁判指令), sent by the chief arbiter's, deputies' and
//! viewers' consoles. Each is authorized by role on the server and written to
//! the audit trail; the server answers `CommandOk` or `Error` quoting the
//! request id.

use super::common::{FoulKind, GameResult, IccsMove, Side};
use super::round::{RoundChange, RoundProposal};
use super::ruling::Decision;
use bincode::{Decode, Encode};

/// One console command.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Start receiving the hall: a `Snapshot`, then `Delta`s (deputies and
    /// viewers get what their role lets them see).
    Subscribe,
    /// Stop receiving deltas.
    Unsubscribe,
    /// Ask for a table's event/audit log and clock history (`TableLog` reply).
    GetTableLog {
        table: u16,
    },
    PauseTable {
        table: u16,
        reason: String,
    },
    ResumeTable {
        table: u16,
    },
    /// Chief only.
    PauseHall {
        reason: String,
    },
    /// Chief only.
    ResumeHall,
    /// Adjourn (封棋) with the sealed move, hidden from every console until unsealed.
    Seal {
        table: u16,
        sealed_move: IccsMove,
    },
    /// Resume an adjourned game: the sealed move is played.
    Unseal {
        table: u16,
    },
    RuleOnClaim {
        table: u16,
        claim_id: u64,
        decision: Decision,
    },
    /// Hand a claim (or a deputy's ruling) to the chief arbiter.
    EscalateClaim {
        table: u16,
        claim_id: u64,
        reason: String,
    },
    RecordFoul {
        table: u16,
        side: Side,
        kind: FoulKind,
        note: String,
    },
    AdjustClock {
        table: u16,
        red_ms: u64,
        black_ms: u64,
        reason: String,
    },
    SetResult {
        table: u16,
        result: GameResult,
        reason: String,
    },
    AckAlert {
        alert_id: u64,
    },
    /// Chief only: export the round's results; `CommandOk::note` names the files.
    ExportRound,
    /// Declare the move limit 限著 (ROC rules only, ROC-6) at the current
    /// ply, on a player's request (`requested_by`) or the arbiter's own
    /// judgement; a limit already declared is replaced (reset, ROC-7).
    DeclareMoveLimit {
        table: u16,
        requested_by: Option<Side>,
        /// The stronger side, which must win within the limit.
        limited: Side,
        /// A book draw 例和: 30 moves each instead of 40.
        book_draw: bool,
    },
    /// Cancel the declared move limit (a new development, ROC-7).
    CancelMoveLimit {
        table: u16,
    },
    /// Chief only, once every game of the round has a result: pair the
    /// next round with the tournament's system. Answered by
    /// `ServerMsg::RoundProposal` (nothing is stored: publishing is)
    /// (protocol version 6).
    PairNextRound,
    /// Chief only: publish the next round as given (the proposal, with
    /// the chief's changes applied) with every change and its reason.
    /// Stored and audited; the hall moves to that round (protocol version 6).
    PublishRound {
        round: Box<RoundProposal>,
        changes: Vec<RoundChange>,
    },
    /// Chief only: correct the result of a game of an earlier round (an
    /// appeal, an override once the round is over), with the reason
    /// (required). Stored and audited: the earlier result stays in the
    /// record, the export, the standings and the next pairing read the
    /// corrected one (protocol version 8). A game of the round being
    /// played is `SetResult`'s.
    CorrectResult {
        /// The earlier round.
        round: u32,
        /// The game's table in that round.
        table: u16,
        result: GameResult,
        reason: String,
    },
    /// Chief only: withdraw the published round `round` (the hall's
    /// current round, published from the console) before it has started —
    /// after a corrected result, to pair it again. Stored and audited with
    /// the reason (required); the hall goes back to the round before, every
    /// result in, and `PairNextRound` pairs again from the corrected record
    /// (protocol version 9). A round has started once a game of it has a
    /// move, a started clock or a result.
    WithdrawRound {
        round: u32,
        reason: String,
    },
    /// Chief only: enter a player late (补报, a late entry), from the next
    /// round on; the rounds already played count 0 points for them (not
    /// paired, `0000 - Z` in the TRF). Stored and audited; the next
    /// `PairNextRound` pairs them (protocol version 9). The registry's
    /// fields: the name (required), the registration id (the player's key
    /// across rounds and exports; the name when none), rating, federation,
    /// club.
    EnterPlayer {
        name: String,
        id: Option<String>,
        rating: Option<u16>,
        federation: Option<String>,
        club: Option<String>,
    },
    /// Chief only: withdraw a player (退赛) from round `from_round` on
    /// (after the round being played), with the reason (required). Stored
    /// and audited; from then on `PairNextRound` leaves them out (the TRF
    /// lists them `XXZ`, absent) (protocol version 9). `player` is the
    /// player's key: the registration id, or the name when the player has
    /// none.
    WithdrawPlayer {
        player: String,
        from_round: u16,
        reason: String,
    },
}

impl Command {
    /// The table the command concerns (`None` for hall-wide commands and
    /// alerts, whose table is the alert's).
    pub fn table(&self) -> Option<u16> {
        match self {
            Command::GetTableLog { table }
            | Command::PauseTable { table, .. }
            | Command::ResumeTable { table }
            | Command::Seal { table, .. }
            | Command::Unseal { table }
            | Command::RuleOnClaim { table, .. }
            | Command::EscalateClaim { table, .. }
            | Command::RecordFoul { table, .. }
            | Command::AdjustClock { table, .. }
            | Command::SetResult { table, .. }
            | Command::DeclareMoveLimit { table, .. }
            | Command::CancelMoveLimit { table } => Some(*table),
            Command::Subscribe
            | Command::Unsubscribe
            | Command::PauseHall { .. }
            | Command::ResumeHall
            | Command::AckAlert { .. }
            | Command::ExportRound
            | Command::PairNextRound
            | Command::PublishRound { .. }
            // A table of an earlier round, not this round's table.
            | Command::CorrectResult { .. }
            | Command::WithdrawRound { .. }
            | Command::EnterPlayer { .. }
            | Command::WithdrawPlayer { .. } => None,
        }
    }
}
