//! Why the hall refuses a command (拒绝理由): one variant per reason, each
//! with the protocol's [`ErrorCode`] and the sentence the arbiter reads.
//! The command checks return it; the server turns it into the error reply
//! and the audit entry ([`Refusal::code`], `Display`).

use proto::{ErrorCode, IccsMove};

/// A refused command (or a record naming no known table).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A table event for a table not in the round.
    #[error("no table {table}")]
    UnknownEventTable {
        /// The table.
        table: u16,
    },
    /// A command for a table not in the round.
    #[error("no table {table} in this round")]
    NoTable {
        /// The table.
        table: u16,
    },
    /// No such claim at the table.
    #[error("no claim {claim_id} at table {table}")]
    NoClaim {
        /// The table.
        table: u16,
        /// The claim.
        claim_id: u64,
    },
    /// No such alert.
    #[error("no alert {alert_id}")]
    NoAlert {
        /// The alert.
        alert_id: u64,
    },
    /// The game at the table is over.
    #[error("table {table}: the game is over")]
    GameOver {
        /// The table.
        table: u16,
    },
    /// The table is paused already.
    #[error("table {table} is already paused")]
    AlreadyPaused {
        /// The table.
        table: u16,
    },
    /// The table is not paused.
    #[error("table {table} is not paused")]
    NotPaused {
        /// The table.
        table: u16,
    },
    /// The table is sealed (adjourned).
    #[error("table {table} is sealed")]
    IsSealed {
        /// The table.
        table: u16,
    },
    /// The hall is paused already.
    #[error("the hall is already paused")]
    HallAlreadyPaused,
    /// The hall is not paused.
    #[error("the hall is not paused")]
    HallNotPaused,
    /// The game is over or already sealed.
    #[error("table {table} cannot be sealed now")]
    CannotSeal {
        /// The table.
        table: u16,
    },
    /// The sealed move is not legal in the position.
    #[error("sealed move {mv} is not legal at table {table}")]
    IllegalSealedMove {
        /// The table.
        table: u16,
        /// The move.
        mv: IccsMove,
    },
    /// The table is not sealed.
    #[error("table {table} is not sealed")]
    NotSealed {
        /// The table.
        table: u16,
    },
    /// Accepting a claim that is already ruled.
    #[error("claim {claim_id} is already ruled; override it with a reason")]
    AlreadyRuled {
        /// The claim.
        claim_id: u64,
    },
    /// Accepting a claim that lapsed.
    #[error("claim {claim_id} lapsed; rule otherwise with a reason")]
    Lapsed {
        /// The claim.
        claim_id: u64,
    },
    /// An override without a reason.
    #[error("an override needs a reason")]
    NoReason,
    /// No change order can be given at the table's position.
    #[error("table {table}: {why}")]
    NoOrder {
        /// The table.
        table: u16,
        /// The rulebook's reason.
        why: String,
    },
    /// The rule set has no declared move limit.
    #[error("the {rule_set} rules have no declared move limit (their natural limit applies)")]
    NoDeclaredLimit {
        /// The hall's rule set.
        rule_set: String,
    },
    /// Pairing or publishing the next round while games of this round
    /// have no result.
    #[error("round {round} is not over: tables {} have no result", list(tables))]
    RoundNotOver {
        /// The round being played.
        round: u32,
        /// Its tables without a result.
        tables: Vec<u16>,
    },
    /// A published round that cannot be the hall's next round.
    #[error("round {round} cannot be published: {why}")]
    BadRound {
        /// The round given.
        round: u32,
        /// What is wrong with it.
        why: String,
    },
    /// A correction of an earlier round's result that cannot be made.
    #[error("round {round} table {table}: the result cannot be corrected: {why}")]
    BadCorrection {
        /// The round given.
        round: u32,
        /// The table given.
        table: u16,
        /// What is wrong with it.
        why: String,
    },
    /// Cancelling a move limit that was not declared.
    #[error("table {table} has no move limit declared")]
    NoMoveLimit {
        /// The table.
        table: u16,
    },
}

fn list(tables: &[u16]) -> String {
    let v: Vec<String> = tables.iter().map(u16::to_string).collect();
    v.join(", ")
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

    /// The code and the sentence, as the server's reply carries them.
    pub fn reply(&self) -> (ErrorCode, String) {
        (self.code(), self.to_string())
    }
}
