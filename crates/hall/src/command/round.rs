//! The next round (下一轮): pairing it (a read: the server computes the
//! proposal, nothing changes) and publishing it (stored, audited, and the
//! hall moves to that round). Chief only (`Action::PairRound`).
//!
//! Publishing checks what a peer sent: the round is the hall's next, every
//! game of this round has a result, every table number is used once, every
//! player plays once, names and reasons are of bounded size. Carrying it
//! out replaces the round's tables with fresh ones (each keeps its
//! terminal's numbering and link: a terminal of the new round continues
//! the numbering the store holds), drops the alerts and claims of the
//! round before (their ids keep counting) and lifts a hall pause. It is a
//! record like any other, so a replay of the store crosses the round
//! boundary exactly as the live hall did; publishing a round the hall is
//! already in (a replay of the new round's range, which starts at this
//! record) changes nothing.

use std::collections::{BTreeMap, BTreeSet};

use proto::roles::{Action, Author};
use proto::{Message, RoundChange, RoundProposal};

use super::Refusal;
use crate::audit::nested;
use crate::hall::Hall;

/// Most boards of a published round (a hall's table numbers are u16, but
/// no hall has more than a few thousand boards).
pub const MAX_BOARDS: usize = 4_000;
/// Longest player name or registration id, in bytes.
pub const MAX_NAME: usize = 128;
/// Longest registration id (the TRF's id columns 58-68, as the config's
/// `MAX_PLAYER_ID`).
pub const MAX_ID: usize = 11;
/// Longest reason of a change, in bytes.
pub const MAX_REASON: usize = 256;
/// Most changes to a proposal.
pub const MAX_CHANGES: usize = 256;

/// Who may: the chief.
pub(super) fn action() -> Action {
    Action::PairRound
}

/// Every game of the round has a result.
pub(super) fn check_over(hall: &Hall) -> Result<(), Refusal> {
    let tables: Vec<u16> = hall
        .tables
        .values()
        .filter(|t| !t.finished())
        .map(|t| t.table)
        .collect();
    match tables.is_empty() {
        true => Ok(()),
        false => Err(Refusal::RoundNotOver {
            round: hall.info.round,
            tables,
        }),
    }
}

/// A count as a message argument.
fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A published round makes sense now (see the module docs).
pub(super) fn check_publish(
    hall: &Hall,
    round: &RoundProposal,
    changes: &[RoundChange],
) -> Result<(), Refusal> {
    if round.round == hall.info.round && hall.setup_matches(round) {
        // The record that started this round, replayed: nothing to do.
        return Ok(());
    }
    let bad = |why: Message| Refusal::BadRound {
        round: round.round,
        why,
    };
    if round.round != hall.info.round + 1 {
        return Err(bad(Message::new("why-round-not-next")
            .int("playing", hall.info.round)
            .int("next", i64::from(hall.info.round) + 1)));
    }
    check_over(hall)?;
    if round.boards.is_empty() || round.boards.len() > MAX_BOARDS {
        return Err(bad(Message::new("why-boards-count")
            .int("boards", count(round.boards.len()))
            .int("max", count(MAX_BOARDS))));
    }
    if changes.len() > MAX_CHANGES {
        return Err(bad(Message::new("why-changes-count")
            .int("changes", count(changes.len()))
            .int("max", count(MAX_CHANGES))));
    }
    if let Some(c) = changes.iter().find(|c| c.reason.trim().is_empty()) {
        return Err(bad(
            Message::new("why-change-no-reason").verbatim("change", c.what.id.to_string())
        ));
    }
    if changes.iter().any(|c| c.reason.len() > MAX_REASON) {
        return Err(bad(
            Message::new("why-a-reason-too-long").int("max", count(MAX_REASON))
        ));
    }
    let mut tables = BTreeSet::new();
    let mut players = BTreeSet::new();
    for b in &round.boards {
        if b.table == 0 || !tables.insert(b.table) {
            return Err(bad(
                Message::new("why-table-twice-or-zero").int("table", b.table)
            ));
        }
        let ids = [b.red_id.as_ref(), b.black_id.as_ref()];
        if b.red.len().max(b.black.len()) > MAX_NAME
            || ids.iter().flatten().any(|n| n.chars().count() > MAX_ID)
        {
            return Err(bad(Message::new("why-name-too-long")
                .int("table", b.table)
                .int("max_name", count(MAX_NAME))
                .int("max_id", count(MAX_ID))));
        }
        for name in [&b.red, &b.black] {
            if name.trim().is_empty() {
                return Err(bad(Message::new("why-player-no-name").int("table", b.table)));
            }
            if !players.insert(name.as_str()) {
                return Err(bad(
                    Message::new("why-plays-twice").verbatim("name", name.as_str())
                ));
            }
        }
    }
    if let Some(bye) = &round.bye {
        if bye.len() > MAX_NAME || players.contains(bye.as_str()) {
            return Err(bad(
                Message::new("why-bye-plays").verbatim("name", bye.as_str())
            ));
        }
    }
    Ok(())
}

/// In words, for the audit trail.
pub(super) fn describe(round: &RoundProposal, changes: &[RoundChange]) -> String {
    let mut s = format!(
        "publish round {} ({} boards, {}, seed {})",
        round.round,
        round.boards.len(),
        round.system,
        round.seed
    );
    for c in changes {
        s.push_str(&format!("; {} because {}", words(&c.what), c.reason));
    }
    s
}

/// A change's message in plain words (the audit trail is text).
fn words(m: &proto::Message) -> String {
    let args: Vec<String> = m
        .args
        .iter()
        .map(|(k, v)| match v {
            proto::Arg::Int(n) => format!("{k} {n}"),
            proto::Arg::Verbatim(t) => format!("{k} {t}"),
            other => format!("{k} {other:?}"),
        })
        .collect();
    format!("{} ({})", m.id, args.join(", "))
}

/// Typed ([`super::typed`]): each change's message nested (rendered in
/// the reader's language) beside its code words (`words`, which English
/// shows, as the trail did).
pub(super) fn typed(round: &RoundProposal, changes: &[RoundChange]) -> Message {
    let mut list = Message::new(proto::convert::LIST);
    for c in changes {
        let item = nested(Message::new("audit-round-change"), "change", c.what.clone())
            .verbatim("code", words(&c.what))
            .verbatim("reason", &c.reason);
        list = nested(list, "item", item);
    }
    let m = Message::new("audit-publish-round")
        .int("round", round.round)
        .int("boards", count(round.boards.len()))
        .verbatim("system", &round.system)
        .verbatim("seed", round.seed.to_string());
    nested(m, "changes", list)
}

/// Moves the hall to `round` (checked): fresh tables, the book's alerts
/// and claims dropped, the pause lifted.
pub(super) fn publish(hall: &mut Hall, _by: &Author, round: &RoundProposal) -> Result<(), Refusal> {
    if round.round == hall.info.round && hall.setup_matches(round) {
        return Ok(());
    }
    // The round before, as it ended, until this one starts (`withdraw.rs`).
    hall.keep_previous();
    hall.info.round = round.round;
    hall.setup.info.round = round.round;
    hall.setup.tables = round
        .boards
        .iter()
        .map(|b| (b.table, b.red.clone(), b.black.clone()))
        .collect();
    hall.setup.round_start_ms = None;
    hall.round_start_ms = None;
    let old: BTreeMap<u16, std::sync::Arc<crate::table::TableState>> =
        std::mem::take(&mut hall.tables);
    hall.views.clear();
    for b in &round.boards {
        let Some(mut t) = hall.setup.fresh_table(b.table) else {
            continue;
        };
        if let Some(before) = old.get(&b.table) {
            t.epoch = before.epoch;
            t.high_water = before.high_water;
            t.online = before.online;
            t.last_heard_ms = before.last_heard_ms;
        }
        hall.tables.insert(b.table, std::sync::Arc::new(t));
        hall.changes.table(b.table);
    }
    hall.book.alerts.new_round();
    hall.book.claims.new_round();
    hall.paused = None;
    Ok(())
}

impl Hall {
    /// Whether the hall plays `round` as published: its number and
    /// exactly its boards (a hall of a tournament checks that it plays the
    /// tournament's last publication of its round).
    pub fn plays(&self, round: &RoundProposal) -> bool {
        self.info.round == round.round && self.setup_matches(round)
    }

    /// Whether the hall's round has exactly `round`'s boards.
    fn setup_matches(&self, round: &RoundProposal) -> bool {
        self.setup.tables.len() == round.boards.len()
            && self
                .setup
                .tables
                .iter()
                .zip(&round.boards)
                .all(|((t, r, b), board)| *t == board.table && *r == board.red && *b == board.black)
    }
}
