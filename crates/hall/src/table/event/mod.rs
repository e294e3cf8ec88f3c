//! Table events (台端事件) applied to a [`TableState`], one module per
//! family, like the arbiters' commands (`crate::command`): each family
//! says in which table state an event is heeded (its check, a typed
//! [`Heed`]) and what it changes (its apply).
//!
//! - [`presence`]: a player at the board (arrival, any report of a side),
//!   which lapses a no-show claim against that side;
//! - [`clock`]: the clock started, a press (with its move), a flag fall;
//! - [`moves`]: a move played or found illegal, the counters, the
//!   repetition and natural-limit checks, an order being followed;
//! - [`claims`]: a player's natural-limit or repetition claim, a call for
//!   the arbiter;
//! - [`draw`]: draw offers (求和) and their answers;
//! - [`results`]: a resignation or a reported result, and the end of a
//!   game (also reached by the arbiters' commands);
//! - [`fouls`]: a foul reported at the table (also recorded by an
//!   arbiter's command), and the threshold's loss claim;
//! - [`control`]: the terminal confirms a control of the server.
//!
//! This module only dispatches. A table event is never refused (the
//! terminal is the clock of record and the event is stored): an event the
//! table's state does not call for is [`Heed::Ignored`], and changes
//! nothing but when the terminal was last heard and who was seen.

pub mod claims;
pub mod clock;
pub mod control;
pub mod draw;
pub mod fouls;
pub mod moves;
pub mod presence;
pub mod results;

#[cfg(test)]
mod tests;

use proto::TableEvent;
use rulebook::RuleParams;

use super::TableState;
use crate::book::Book;

pub use claims::{order_ruling, repetition_ruling};

/// What a table event does in the table's state (its check).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heed {
    /// The event changes the table as it says.
    Applies,
    /// The event changes nothing beyond the terminal being heard.
    Ignored(Ignored),
}

/// Why a table event changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ignored {
    /// A draw accepted or declined with no offer of the other side standing.
    NoOffer,
}

/// Whether the rule set's limit is declared by the arbiter (ROC) rather
/// than counted from the last capture.
pub fn declared_limit(params: &RuleParams) -> bool {
    params.limit.counts_from == rulebook::ruleset::LimitStart::Declaration
}

impl TableState {
    /// What `ev` does in this table's state (its family's check).
    pub fn check_event(&self, ev: &TableEvent) -> Heed {
        match ev {
            TableEvent::DrawOffer { .. }
            | TableEvent::DrawAccept { .. }
            | TableEvent::DrawDecline { .. } => draw::check(self, ev),
            TableEvent::Arrived { .. }
            | TableEvent::ClockStarted { .. }
            | TableEvent::ClockPress { .. }
            | TableEvent::Move { .. }
            | TableEvent::ClaimNaturalLimit { .. }
            | TableEvent::ClaimRepetition { .. }
            | TableEvent::Resign { .. }
            | TableEvent::CallArbiter { .. }
            | TableEvent::FoulReport { .. }
            | TableEvent::FlagFell { .. }
            | TableEvent::Result { .. }
            | TableEvent::ControlApplied { .. } => Heed::Applies,
        }
    }

    /// Applies one stored table event received at server time `now`.
    pub fn apply_event(&mut self, ev: &TableEvent, now: u64, params: &RuleParams, book: &mut Book) {
        self.last_heard_ms = now;
        presence::heard(self, ev, now, book);
        if let Heed::Ignored(why) = self.check_event(ev) {
            tracing::debug!(table = self.table, ?why, "table event ignored");
            book.touch(self.table);
            return;
        }
        match ev {
            TableEvent::Arrived { side } => presence::arrived(self, *side),
            TableEvent::ClockStarted {
                red_ms,
                black_ms,
                terminal_mono_ms,
            } => clock::started(self, (*red_ms, *black_ms), *terminal_mono_ms, now, book),
            TableEvent::ClockPress {
                by,
                mv,
                red_ms,
                black_ms,
                terminal_mono_ms,
            } => clock::press(
                self,
                *by,
                *mv,
                (*red_ms, *black_ms),
                *terminal_mono_ms,
                now,
                params,
                book,
            ),
            TableEvent::Move { by, mv } => moves::reported(self, *by, *mv, now, params, book),
            TableEvent::ClaimNaturalLimit { by } => {
                claims::natural_limit(self, *by, now, params, book)
            }
            TableEvent::ClaimRepetition { by } => claims::repetition(self, *by, now, params, book),
            TableEvent::CallArbiter { by, reason } => {
                claims::call_arbiter(self, *by, reason, now, book)
            }
            TableEvent::DrawOffer { by } => draw::offer(self, *by),
            TableEvent::DrawAccept { by } => draw::accept(self, *by, now, book),
            TableEvent::DrawDecline { by } => draw::decline(self, *by),
            TableEvent::Resign { by, reason } => results::resign(self, *by, reason, now, book),
            TableEvent::Result {
                result,
                why,
                reason,
            } => results::reported(self, *result, *why, reason, now, book),
            TableEvent::FoulReport { side, kind, note } => {
                self.add_foul(*side, *kind, note, now, params, book)
            }
            TableEvent::FlagFell {
                side,
                red_ms,
                black_ms,
                terminal_mono_ms,
            } => clock::flag_fell(
                self,
                *side,
                (*red_ms, *black_ms),
                *terminal_mono_ms,
                now,
                book,
            ),
            TableEvent::ControlApplied {
                control_id,
                red_ms,
                black_ms,
                running,
                terminal_mono_ms,
            } => control::applied(
                self,
                *control_id,
                (*red_ms, *black_ms),
                *running,
                *terminal_mono_ms,
                now,
            ),
        }
        book.touch(self.table);
    }
}

/// Rule ids as the wire has them.
fn ids(rules: &[rulebook::RuleId]) -> Vec<String> {
    rules.iter().map(|r| r.as_str().to_string()).collect()
}
