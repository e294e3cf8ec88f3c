//! Why the hall refuses a command (拒绝理由): one variant per reason, each
//! with the protocol's [`ErrorCode`] and the catalogue message the arbiter
//! reads in the console's language ([`proto::refusals`], `refusal-*`).
//! The command checks return it; the server turns it into the error reply
//! ([`Refusal::reply`]) and the audit entry (`Display`: the English text).

use proto::refusals as r;
use proto::{ErrorCode, IccsMove, Message};

/// A refused command (or a record naming no known table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A table event for a table not in the round.
    UnknownEventTable {
        /// The table.
        table: u16,
    },
    /// A command for a table not in the round.
    NoTable {
        /// The table.
        table: u16,
    },
    /// No such claim at the table.
    NoClaim {
        /// The table.
        table: u16,
        /// The claim.
        claim_id: u64,
    },
    /// No such alert.
    NoAlert {
        /// The alert.
        alert_id: u64,
    },
    /// The game at the table is over.
    GameOver {
        /// The table.
        table: u16,
    },
    /// The table is paused already.
    AlreadyPaused {
        /// The table.
        table: u16,
    },
    /// The table is not paused.
    NotPaused {
        /// The table.
        table: u16,
    },
    /// The table is sealed (adjourned).
    IsSealed {
        /// The table.
        table: u16,
    },
    /// The hall is paused already.
    HallAlreadyPaused,
    /// The hall is not paused.
    HallNotPaused,
    /// The game is over or already sealed.
    CannotSeal {
        /// The table.
        table: u16,
    },
    /// The sealed move is not legal in the position.
    IllegalSealedMove {
        /// The table.
        table: u16,
        /// The move.
        mv: IccsMove,
    },
    /// The table is not sealed.
    NotSealed {
        /// The table.
        table: u16,
    },
    /// Accepting a claim that is already ruled.
    AlreadyRuled {
        /// The claim.
        claim_id: u64,
    },
    /// Accepting a claim that lapsed.
    Lapsed {
        /// The claim.
        claim_id: u64,
    },
    /// An override without a reason.
    NoReason,
    /// No change order can be given at the table's position.
    NoOrder {
        /// The table.
        table: u16,
        /// The rulebook's reason (`why-no-cycle`, `why-order-illegal-move`:
        /// [`crate::table::order::order_why`]).
        why: Message,
    },
    /// The rule set has no declared move limit.
    NoDeclaredLimit {
        /// The hall's rule set.
        rule_set: String,
    },
    /// Pairing or publishing the next round while games of this round
    /// have no result.
    RoundNotOver {
        /// The round being played.
        round: u32,
        /// Its tables without a result.
        tables: Vec<u16>,
    },
    /// A published round that cannot be the hall's next round.
    BadRound {
        /// The round given.
        round: u32,
        /// What is wrong with it (a `why-*` message, nested).
        why: Message,
    },
    /// A correction of an earlier round's result that cannot be made.
    BadCorrection {
        /// The round given.
        round: u32,
        /// The table given.
        table: u16,
        /// What is wrong with it (a `why-*` message, nested).
        why: Message,
    },
    /// Withdrawing a published round that cannot be withdrawn (not the
    /// hall's round, started, the config's, no reason).
    BadWithdrawal {
        /// The round given.
        round: u32,
        /// What is wrong (a `why-*` message, nested).
        why: Message,
    },
    /// A late entry that cannot be made (the name empty or too long, a
    /// player already).
    BadEntry {
        /// The name given.
        name: String,
        /// What is wrong (a `why-*` message, nested).
        why: Message,
    },
    /// A player's withdrawal that cannot be made (no such player,
    /// withdrawn already, a round not after the round being played, no
    /// reason).
    BadPlayerWithdrawal {
        /// The player given.
        player: String,
        /// What is wrong (a `why-*` message, nested).
        why: Message,
    },
    /// Cancelling a move limit that was not declared.
    NoMoveLimit {
        /// The table.
        table: u16,
    },
}

impl Refusal {
    /// The protocol's error code for the reply.
    pub fn code(&self) -> ErrorCode {
        match self {
            Refusal::UnknownEventTable { .. }
            | Refusal::NoTable { .. }
            | Refusal::NoClaim { .. }
            | Refusal::NoAlert { .. } => ErrorCode::NotFound,
            Refusal::IllegalSealedMove { .. } => ErrorCode::IllegalMove,
            _ => ErrorCode::Invalid,
        }
    }

    /// Why, as the reply carries it: a catalogue message (protocol 8),
    /// rendered by each client in its language.
    pub fn message(&self) -> Message {
        match self {
            Refusal::UnknownEventTable { table } => r::no_table(*table),
            Refusal::NoTable { table } => r::no_table_in_round(*table),
            Refusal::NoClaim { table, claim_id } => r::no_claim(*table, *claim_id),
            Refusal::NoAlert { alert_id } => r::no_alert(*alert_id),
            Refusal::GameOver { table } => r::game_over(*table),
            Refusal::AlreadyPaused { table } => r::already_paused(*table),
            Refusal::NotPaused { table } => r::not_paused(*table),
            Refusal::IsSealed { table } => r::is_sealed(*table),
            Refusal::HallAlreadyPaused => r::hall_already_paused(),
            Refusal::HallNotPaused => r::hall_not_paused(),
            Refusal::CannotSeal { table } => r::cannot_seal(*table),
            Refusal::IllegalSealedMove { table, mv } => {
                r::illegal_sealed_move(*table, &mv.to_string())
            }
            Refusal::NotSealed { table } => r::not_sealed(*table),
            Refusal::AlreadyRuled { claim_id } => r::already_ruled(*claim_id),
            Refusal::Lapsed { claim_id } => r::lapsed(*claim_id),
            Refusal::NoReason => r::no_reason(),
            Refusal::NoOrder { table, why } => r::no_order(*table, why.clone()),
            Refusal::NoDeclaredLimit { rule_set } => r::no_declared_limit(rule_set),
            Refusal::RoundNotOver { round, tables } => r::round_not_over(*round, tables),
            Refusal::BadRound { round, why } => r::bad_round(*round, why.clone()),
            Refusal::BadCorrection { round, table, why } => {
                r::bad_correction(*round, *table, why.clone())
            }
            Refusal::BadWithdrawal { round, why } => r::bad_withdrawal(*round, why.clone()),
            Refusal::BadEntry { name, why } => r::bad_entry(name, why.clone()),
            Refusal::BadPlayerWithdrawal { player, why } => {
                r::bad_player_withdrawal(player, why.clone())
            }
            Refusal::NoMoveLimit { table } => r::no_move_limit(*table),
        }
    }

    /// The code and the message, as the server's reply carries them.
    pub fn reply(&self) -> (ErrorCode, Message) {
        (self.code(), self.message())
    }
}

/// The English sentence (the server's log and audit trail).
impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&i18n::texts::english(&self.message()))
    }
}

impl std::error::Error for Refusal {}
