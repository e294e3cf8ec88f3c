//! The audit trail's typed words (审计记录的消息, issue 33): each row the
//! hall writes carries a catalogue message (`audit-*`,
//! crates/i18n/locales/audit) beside its English text, so that a console
//! renders it in its user's language. The commands' messages are built
//! beside their English (`command::describe` / `command::typed`, one per
//! command module); this module holds the shared pieces (a nested message,
//! a count, the codes English shows for enums) and the rows that are not
//! commands: a claim that lapses, an order to change.
//!
//! The English of every message equals the text stored before, byte for
//! byte (the tests compare them over every command kind), so an English
//! reader of the trail sees no change, and rows stored before (text only)
//! render as stored.

use proto::{Arg, EndReason, FoulKind, GameResult, Message, Side, Verdict};

/// `m` with `inner` nested as argument `name`.
pub(crate) fn nested(m: Message, name: &str, inner: Message) -> Message {
    m.arg(name, Arg::Message(Box::new(inner)))
}

/// A count or id as a message argument (an id past `i64::MAX` shows as
/// `i64::MAX`; the hall's ids and counts never get there).
pub(crate) fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// `id` with the table's number.
pub(crate) fn at(id: &str, table: u16) -> Message {
    Message::new(id).int("table", table)
}

/// A verdict as the trail names it (English: its code, `Loss { side: Red }`).
pub(crate) fn verdict(v: Verdict) -> Message {
    match v {
        Verdict::Continue => Message::new("audit-verdict-continue"),
        Verdict::Draw => Message::new("audit-verdict-draw"),
        Verdict::Loss { side } => Message::new("audit-verdict-loss").side("side", side),
        Verdict::CorrectMove { side } => {
            Message::new("audit-verdict-correct-move").side("side", side)
        }
        Verdict::Order => Message::new("audit-verdict-order"),
    }
}

/// The side that must change, if any (English: `Some(Red)`, `None`).
pub(crate) fn must_change(s: Option<Side>) -> Message {
    match s {
        Some(side) => Message::new("audit-must-change").side("side", side),
        None => Message::new("audit-must-change-none"),
    }
}

/// A result as the trail names it (English: its code, `RedWins`).
pub(crate) fn result(r: GameResult) -> Message {
    Message::new(match r {
        GameResult::RedWins => "audit-result-red-wins",
        GameResult::BlackWins => "audit-result-black-wins",
        GameResult::Draw => "audit-result-draw",
        GameResult::BothLose => "audit-result-both-lose",
    })
}

/// A foul kind as the trail names it (English: its code, `Technical`).
pub(crate) fn foul_kind(k: FoulKind) -> Message {
    Message::new(match k {
        FoulKind::Technical => "audit-foul-technical",
        FoulKind::Violation => "audit-foul-violation",
    })
}

/// Why open claims lapse (their status keeps the English:
/// [`i18n::texts::english`]).
pub mod lapse {
    use super::*;

    /// More than `max` open claims of one kind at `table`: the oldest lapses.
    pub fn too_many(max: usize, table: u16) -> Message {
        Message::new("audit-lapse-too-many")
            .int("max", count(max as u64))
            .int("table", table)
    }

    /// The clock started: the players are at the board (a no-show claim).
    pub fn clock_started() -> Message {
        Message::new("audit-lapse-clock-started")
    }

    /// The game ended, for `why`.
    pub fn game_ended(why: EndReason) -> Message {
        nested(
            Message::new("audit-lapse-game-ended"),
            "why",
            Message::new(i18n::ids::end_reason(why)),
        )
    }

    /// `side` is at the board and moved (a no-show claim against it).
    pub fn moved(side: Side) -> Message {
        Message::new("audit-lapse-moved").side("side", side)
    }
}

/// Claim `claim` of `table` lapsed, for `why`.
pub fn claim_lapsed(table: u16, claim: u64, why: Message) -> Message {
    nested(
        at("audit-claim-lapsed", table).int("claim", count(claim)),
        "why",
        why,
    )
}

/// An order to change given at `ply` on claim `claim` of `table`.
pub fn order(table: u16, ply: usize, claim: u64, order: Message) -> Message {
    nested(
        at("audit-order", table)
            .int("ply", count(ply as u64))
            .int("claim", count(claim)),
        "order",
        order,
    )
}

/// The texts of a row: English (stored as text, as before) and the typed
/// message it is the English of.
pub fn row(m: Message) -> (String, Option<Message>) {
    (i18n::texts::english(&m), Some(m))
}

/// What a refused request asked, for the rows the server writes itself
/// (a command refused is [`crate::command::typed`]).
pub mod asked {
    use super::*;

    /// A table terminal's report of `action` (its code name, `clock_press`)
    /// for `table`, refused: English shows the code, the others the
    /// action's words (`action-*`).
    pub fn report(action: &str, table: u16) -> Message {
        nested(
            at("audit-report", table).verbatim("code", action),
            "action",
            proto::refusals::action(action),
        )
    }

    /// Publishing round `round` (`None`: a round the hall could not name).
    pub fn publish_round(round: Option<u32>) -> Message {
        match round {
            Some(r) => Message::new("audit-publish-round-refused").int("round", r),
            None => Message::new("audit-publish-a-round"),
        }
    }

    /// Withdrawing round `round`.
    pub fn withdraw_round(round: u32) -> Message {
        Message::new("audit-withdraw-round-refused").int("round", round)
    }

    /// Correcting the result of `round` at `table`.
    pub fn correct_result(round: u32, table: u16) -> Message {
        Message::new("audit-correct-result-refused")
            .int("round", round)
            .int("table", table)
    }

    /// `n` refusals of one principal counted in `secs` seconds, and why
    /// they were counted rather than stored: more than `threshold` in a
    /// window.
    pub fn counted(n: u64, secs: u64, threshold: u32) -> (Message, Message) {
        (
            Message::new("audit-refusals-counted")
                .int("count", count(n))
                .int("secs", count(secs)),
            Message::new("audit-refusals-counted-why").int("threshold", threshold),
        )
    }

    /// A server note's row in the store (`action` column `note`).
    pub fn note() -> Message {
        Message::new("audit-note")
    }
}
