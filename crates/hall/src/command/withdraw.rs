//! Withdrawing a published round (撤回已发布的轮次): after a result of an
//! earlier round was corrected (`correct.rs`), the chief withdraws the
//! round the hall was moved to, before it has started, and pairs it again
//! from the corrected record. Chief only (`Action::WithdrawRound`), the
//! reason required.
//!
//! **Started** (已开始): a round has started once any game of it has a
//! move, a started clock (`TableState::started_at_ms`) or a result. A
//! pause, a terminal signing in or a player's arrival does not start it.
//! Only a round published from the console (by `PublishRound` in this
//! hall's record) can be withdrawn; the config's round cannot.
//!
//! Publishing keeps the round before as it ended ([`PreviousRound`]) until
//! the new round starts; withdrawing puts it back: the round number, the
//! pairings and the tables with their finished games. Each table keeps the
//! higher of its two terminal numberings (epoch, high-water mark: a
//! terminal continues the numbering the store holds). The alerts and
//! claims the publication dropped come back as they were (their ids keep
//! counting), and so does a hall pause it lifted: the round before is
//! given back whole; what was raised in the withdrawn round goes with it.

use proto::roles::Action;
use proto::Message;

use super::round::MAX_REASON;
use super::Refusal;
use crate::hall::{Hall, PreviousRound};
use crate::table::TableState;

/// Who may: the chief.
pub(super) fn action() -> Action {
    Action::WithdrawRound
}

/// In words, for the audit trail.
pub(super) fn describe(round: u32, reason: &str) -> String {
    format!("withdraw round {round} (published, not started) because {reason}")
}

/// Typed ([`super::typed`]).
pub(super) fn typed(round: u32, reason: &str) -> Message {
    Message::new("audit-withdraw-round")
        .int("round", round)
        .verbatim("reason", reason)
}

/// Whether a game of the table has begun: a move, a started clock or a result.
pub(crate) fn table_started(t: &TableState) -> bool {
    t.started_at_ms.is_some() || t.board.plies() > 0 || t.finished()
}

/// The published round `round` is the hall's, it has not started, the
/// round before is at hand, the reason is given and of bounded size.
pub(super) fn check(hall: &Hall, round: u32, reason: &str) -> Result<(), Refusal> {
    let bad = |why: Message| Refusal::BadWithdrawal { round, why };
    if round != hall.info.round {
        return Err(bad(
            Message::new("why-withdraw-not-current").int("playing", hall.info.round)
        ));
    }
    let started: Vec<String> = hall
        .tables
        .values()
        .filter(|t| table_started(t))
        .map(|t| t.table.to_string())
        .collect();
    if !started.is_empty() {
        return Err(bad(
            Message::new("why-round-started").verbatim("tables", started.join(", "))
        ));
    }
    if hall.previous.is_none() {
        return Err(bad(Message::new("why-config-round")));
    }
    if reason.trim().is_empty() {
        return Err(bad(Message::new("why-reason-required")));
    }
    if reason.len() > MAX_REASON {
        return Err(bad(
            Message::new("why-reason-too-long").int("max", MAX_REASON as i64)
        ));
    }
    Ok(())
}

/// Puts the round before back (checked).
pub(super) fn withdraw(hall: &mut Hall) -> Result<(), Refusal> {
    let Some(prev) = hall.previous.take() else {
        return Err(Refusal::BadWithdrawal {
            round: hall.info.round,
            why: Message::new("why-no-round-before"),
        });
    };
    let PreviousRound {
        setup,
        info,
        mut tables,
        round_start_ms,
        alerts,
        claims,
        paused,
    } = *prev;
    let unstarted = std::mem::take(&mut hall.tables);
    for (n, t) in &mut tables {
        if let Some(now) = unstarted.get(n) {
            let t = std::sync::Arc::make_mut(t);
            if (now.epoch, now.high_water) > (t.epoch, t.high_water) {
                t.epoch = now.epoch;
                t.high_water = now.high_water;
            }
            t.online = now.online;
            t.last_heard_ms = t.last_heard_ms.max(now.last_heard_ms);
        }
        hall.changes.table(*n);
    }
    hall.setup = setup;
    hall.info = info;
    hall.round_start_ms = round_start_ms;
    hall.tables = tables;
    hall.views.clear();
    hall.book.alerts.back_to(alerts);
    hall.book.claims.back_to(claims);
    hall.paused = paused;
    Ok(())
}

impl Hall {
    /// Whether the round the hall plays has started (see the module docs).
    pub fn round_started(&self) -> bool {
        self.tables.values().any(|t| table_started(t))
    }

    /// Whether the round the hall plays can be withdrawn now (published
    /// from the console and not started): what the console offers.
    pub fn can_withdraw(&self) -> bool {
        self.previous.is_some() && !self.round_started()
    }

    /// Keeps the round before as it ended (a round is being published).
    pub(crate) fn keep_previous(&mut self) {
        self.previous = Some(Box::new(PreviousRound {
            setup: self.setup.clone(),
            info: self.info.clone(),
            tables: self.tables.clone(),
            round_start_ms: self.round_start_ms,
            alerts: self.book.alerts.clone(),
            claims: self.book.claims.clone(),
            paused: self.paused.clone(),
        }));
    }

    /// Lets go of the round before once the record started a game of the
    /// round (it cannot be withdrawn any more).
    pub(crate) fn forget_previous_once_started(&mut self, rec: &crate::record::Record) {
        if self.previous.is_none() {
            return;
        }
        if let Some(t) = rec.table().and_then(|t| self.tables.get(&t)) {
            if table_started(t) {
                self.previous = None;
            }
        }
    }

    /// Takes the round before from `other`, the same hall rebuilt from the
    /// start of the round before through the publication (the server,
    /// after a restart in an unstarted published round), when both play
    /// the same round and this one has not started.
    pub fn adopt_previous(&mut self, mut other: Hall) {
        if self.previous.is_none() && !self.round_started() && other.info.round == self.info.round {
            self.previous = other.previous.take();
        }
    }
}
