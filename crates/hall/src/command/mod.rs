//! Arbiters' commands (指令), one module per family: who may give it (the
//! [`Action`] that `proto::roles::authorize` judges), in which table state
//! it makes sense (its check, refused with a typed [`Refusal`]), what it
//! changes (its apply) and its words for the audit trail.
//!
//! - [`read`]: subscribe, a table's log, the export (nothing changes);
//! - [`pause`]: pause and resume a table or the whole hall;
//! - [`seal`]: adjourn with a sealed move (封棋) and resume;
//! - [`claim`]: rule on a claim or escalate it, with [`ruling`] carrying
//!   out the verdict;
//! - [`foul`], [`clock`], [`result`], [`alert`], [`move_limit`]: one
//!   command (or a declare/cancel pair) each;
//! - [`round`]: pairing and publishing the next round;
//! - [`correct`]: correcting a result of an earlier round;
//! - [`withdraw`]: withdrawing a published round that has not started;
//! - [`players`]: late entries and withdrawals of players ([`Roster`]).
//!
//! This module only dispatches. The server checks a command before storing
//! it ([`Hall::check_command`]) and the hall applies it once stored
//! ([`Hall::apply_command`], through `Hall::apply`); the apply checks again,
//! so a replay refuses what the live hall refused.

mod alert;
mod claim;
mod clock;
mod correct;
mod foul;
mod move_limit;
mod pause;
pub mod players;
mod read;
mod result;
mod round;
mod ruling;
mod seal;
mod withdraw;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod typed_tests;

pub use crate::refusal::Refusal;
pub use players::Roster;

use std::collections::BTreeMap;
use std::sync::Arc;

use proto::roles::{Action, Author};
use proto::{Command, Message};

use crate::book::Words;
use crate::hall::Hall;
use crate::table::TableState;

/// A command in words for the audit trail (a sealed move is never written out).
pub fn describe(cmd: &Command) -> String {
    match cmd {
        Command::Subscribe
        | Command::Unsubscribe
        | Command::GetTableLog { .. }
        | Command::ExportRound => read::describe(cmd),
        Command::PauseTable { .. }
        | Command::ResumeTable { .. }
        | Command::PauseHall { .. }
        | Command::ResumeHall => pause::describe(cmd),
        Command::Seal { table, .. } => seal::describe_seal(*table),
        Command::Unseal { table } => seal::describe_unseal(*table),
        Command::RuleOnClaim {
            table,
            claim_id,
            decision,
        } => claim::describe_rule(*table, *claim_id, decision),
        Command::EscalateClaim {
            table,
            claim_id,
            reason,
        } => claim::describe_escalate(*table, *claim_id, reason),
        Command::RecordFoul {
            table,
            side,
            kind,
            note,
        } => foul::describe(*table, *side, *kind, note),
        Command::AdjustClock {
            table,
            red_ms,
            black_ms,
            reason,
        } => clock::describe(*table, *red_ms, *black_ms, reason),
        Command::SetResult {
            table,
            result,
            reason,
        } => result::describe(*table, *result, reason),
        Command::AckAlert { alert_id } => alert::describe(*alert_id),
        Command::DeclareMoveLimit { .. } | Command::CancelMoveLimit { .. } => {
            move_limit::describe(cmd)
        }
        Command::PairNextRound => "pair the next round".into(),
        Command::PublishRound { round: r, changes } => round::describe(r, changes),
        Command::CorrectResult {
            round,
            table,
            result,
            reason,
        } => correct::describe(*round, *table, *result, reason),
        Command::WithdrawRound { round, reason } => withdraw::describe(*round, reason),
        Command::EnterPlayer { .. } | Command::WithdrawPlayer { .. } => players::describe(cmd),
    }
}

/// A command as a typed message for the audit trail (`audit-*`): its
/// English is [`describe`]'s text, byte for byte (tested over every
/// command kind); other languages render it in their words.
pub fn typed(cmd: &Command) -> Message {
    match cmd {
        Command::Subscribe
        | Command::Unsubscribe
        | Command::GetTableLog { .. }
        | Command::ExportRound => read::typed(cmd),
        Command::PauseTable { .. }
        | Command::ResumeTable { .. }
        | Command::PauseHall { .. }
        | Command::ResumeHall => pause::typed(cmd),
        Command::Seal { table, .. } => seal::typed_seal(*table),
        Command::Unseal { table } => seal::typed_unseal(*table),
        Command::RuleOnClaim {
            table,
            claim_id,
            decision,
        } => claim::typed_rule(*table, *claim_id, decision),
        Command::EscalateClaim {
            table,
            claim_id,
            reason,
        } => claim::typed_escalate(*table, *claim_id, reason),
        Command::RecordFoul {
            table,
            side,
            kind,
            note,
        } => foul::typed(*table, *side, *kind, note),
        Command::AdjustClock {
            table,
            red_ms,
            black_ms,
            reason,
        } => clock::typed(*table, *red_ms, *black_ms, reason),
        Command::SetResult {
            table,
            result,
            reason,
        } => result::typed(*table, *result, reason),
        Command::AckAlert { alert_id } => alert::typed(*alert_id),
        Command::DeclareMoveLimit { .. } | Command::CancelMoveLimit { .. } => {
            move_limit::typed(cmd)
        }
        Command::PairNextRound => Message::new("audit-pair-next-round"),
        Command::PublishRound { round: r, changes } => round::typed(r, changes),
        Command::CorrectResult {
            round,
            table,
            result,
            reason,
        } => correct::typed(*round, *table, *result, reason),
        Command::WithdrawRound { round, reason } => withdraw::typed(*round, reason),
        Command::EnterPlayer { .. } | Command::WithdrawPlayer { .. } => players::typed(cmd),
    }
}

/// A table of the round.
fn table(hall: &Hall, table: u16) -> Result<&TableState, Refusal> {
    hall.tables
        .get(&table)
        .map(|t| &**t)
        .ok_or(Refusal::NoTable { table })
}

/// A table of the round, to change (borrowing the tables only, so that
/// the hall's book can be written meanwhile).
fn table_mut(
    tables: &mut BTreeMap<u16, Arc<TableState>>,
    table: u16,
) -> Result<&mut TableState, Refusal> {
    tables
        .get_mut(&table)
        .map(Arc::make_mut)
        .ok_or(Refusal::NoTable { table })
}

/// A table that exists and whose game is not over.
fn playing(hall: &Hall, n: u16) -> Result<&TableState, Refusal> {
    let t = table(hall, n)?;
    match t.finished() {
        true => Err(Refusal::GameOver { table: n }),
        false => Ok(t),
    }
}

impl Hall {
    /// Who may give `cmd`: the action `proto::roles::authorize` judges
    /// (reads included).
    pub fn action_of(&self, cmd: &Command) -> Action {
        match cmd {
            Command::Subscribe
            | Command::Unsubscribe
            | Command::GetTableLog { .. }
            | Command::ExportRound => read::action(cmd),
            Command::PauseTable { .. }
            | Command::ResumeTable { .. }
            | Command::PauseHall { .. }
            | Command::ResumeHall => pause::action(cmd),
            Command::Seal { table, .. } => seal::action_seal(*table),
            Command::Unseal { table } => seal::action_unseal(*table),
            Command::RuleOnClaim {
                table, claim_id, ..
            } => claim::action_rule(self, *table, *claim_id),
            Command::EscalateClaim { table, .. } => claim::action_escalate(*table),
            Command::RecordFoul { table, .. } => foul::action(*table),
            Command::AdjustClock { table, .. } => clock::action(*table),
            Command::SetResult { table, .. } => result::action(*table),
            Command::AckAlert { alert_id } => alert::action(self, *alert_id),
            Command::DeclareMoveLimit { table, .. } | Command::CancelMoveLimit { table } => {
                move_limit::action(*table)
            }
            Command::PairNextRound | Command::PublishRound { .. } => round::action(),
            Command::CorrectResult { .. } => correct::action(),
            Command::WithdrawRound { .. } => withdraw::action(),
            Command::EnterPlayer { .. } | Command::WithdrawPlayer { .. } => players::action(cmd),
        }
    }

    /// Checks that `cmd` makes sense now (before it is stored).
    pub fn check_command(&self, cmd: &Command) -> Result<(), Refusal> {
        match cmd {
            Command::Subscribe
            | Command::Unsubscribe
            | Command::GetTableLog { .. }
            | Command::ExportRound => read::check(self, cmd),
            Command::PauseTable { table, .. } => pause::check_pause_table(self, *table),
            Command::ResumeTable { table } => pause::check_resume_table(self, *table),
            Command::PauseHall { .. } => pause::check_pause_hall(self),
            Command::ResumeHall => pause::check_resume_hall(self),
            Command::Seal { table, sealed_move } => seal::check_seal(self, *table, *sealed_move),
            Command::Unseal { table } => seal::check_unseal(self, *table),
            Command::RuleOnClaim {
                table,
                claim_id,
                decision,
            } => claim::check_rule(self, *table, *claim_id, decision),
            Command::EscalateClaim {
                table, claim_id, ..
            } => claim::check_escalate(self, *table, *claim_id),
            Command::RecordFoul { table, .. } => foul::check(self, *table),
            Command::AdjustClock { table, .. } => clock::check(self, *table),
            Command::SetResult { table, .. } => result::check(self, *table),
            Command::AckAlert { alert_id } => alert::check(self, *alert_id),
            Command::DeclareMoveLimit { table, .. } => move_limit::check_declare(self, *table),
            Command::CancelMoveLimit { table } => move_limit::check_cancel(self, *table),
            Command::PairNextRound => round::check_over(self),
            Command::PublishRound { round: r, changes } => round::check_publish(self, r, changes),
            Command::CorrectResult {
                round,
                table,
                reason,
                ..
            } => correct::check(self, *round, *table, reason),
            Command::WithdrawRound { round, reason } => withdraw::check(self, *round, reason),
            Command::EnterPlayer { .. } | Command::WithdrawPlayer { .. } => {
                players::check(self, cmd)
            }
        }
    }

    /// Applies a stored command given by `author` at server time `now`:
    /// checked again, written to the audit trail, then carried out.
    pub fn apply_command(
        &mut self,
        author: &Author,
        cmd: &Command,
        now: u64,
    ) -> Result<(), Refusal> {
        self.check_command(cmd)?;
        let what = Words::typed(describe(cmd), typed(cmd));
        self.book.audit(now, &author.who(), what, cmd.table(), None);
        self.carry_out(author, cmd, now)
    }

    /// The change a checked command makes.
    fn carry_out(&mut self, by: &Author, cmd: &Command, now: u64) -> Result<(), Refusal> {
        match cmd {
            Command::Subscribe
            | Command::Unsubscribe
            | Command::GetTableLog { .. }
            | Command::ExportRound => Ok(()),
            Command::PauseTable { table, reason } => {
                pause::pause_table(self, by, *table, reason, now)
            }
            Command::ResumeTable { table } => pause::resume_table(self, by, *table, now),
            Command::PauseHall { reason } => pause::pause_hall(self, by, reason, now),
            Command::ResumeHall => pause::resume_hall(self, by, now),
            Command::Seal { table, sealed_move } => seal::seal(self, by, *table, *sealed_move, now),
            Command::Unseal { table } => seal::unseal(self, by, *table, now),
            Command::RuleOnClaim {
                table,
                claim_id,
                decision,
            } => ruling::rule(self, by, *table, *claim_id, decision, now),
            Command::EscalateClaim {
                table,
                claim_id,
                reason,
            } => claim::escalate(self, by, *table, *claim_id, reason, now),
            Command::RecordFoul {
                table,
                side,
                kind,
                note,
            } => foul::record(self, *table, *side, *kind, note, now),
            Command::AdjustClock {
                table,
                red_ms,
                black_ms,
                reason,
            } => clock::adjust(self, by, *table, (*red_ms, *black_ms), reason, now),
            Command::SetResult {
                table,
                result,
                reason,
            } => result::set(self, by, *table, *result, reason, now),
            Command::AckAlert { alert_id } => alert::ack(self, by, *alert_id),
            Command::DeclareMoveLimit {
                table,
                requested_by,
                limited,
                book_draw,
            } => move_limit::declare(self, by, *table, *requested_by, *limited, *book_draw),
            Command::CancelMoveLimit { table } => move_limit::cancel(self, by, *table),
            // A correction changes the record of an earlier round only; an
            // entry or a withdrawal the next pairing only.
            Command::PairNextRound
            | Command::CorrectResult { .. }
            | Command::EnterPlayer { .. }
            | Command::WithdrawPlayer { .. } => Ok(()),
            Command::PublishRound { round: r, .. } => round::publish(self, by, r),
            Command::WithdrawRound { .. } => withdraw::withdraw(self),
        }
    }
}
