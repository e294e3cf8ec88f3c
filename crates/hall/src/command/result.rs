//! Setting a game's result (判定结果) by the arbiter, at any table of the
//! round (a result already set is replaced); the end reason is the
//! arbiter's.

use proto::roles::{Action, Author};
use proto::{ControlToTable, EndReason, GameResult, Message};

use super::Refusal;
use crate::audit::{self, at, nested};
use crate::hall::Hall;

/// Who may: the table's arbiters.
pub(super) fn action(table: u16) -> Action {
    Action::SetResult {
        table: u32::from(table),
    }
}

/// In words.
pub(super) fn describe(table: u16, result: GameResult, reason: &str) -> String {
    format!("table {table}: set result {result:?}: {reason}")
}

/// Typed ([`super::typed`]).
pub(super) fn typed(table: u16, result: GameResult, reason: &str) -> Message {
    nested(
        at("audit-set-result", table),
        "result",
        audit::result(result),
    )
    .verbatim("reason", reason)
}

/// Any table of the round.
pub(super) fn check(hall: &Hall, table: u16) -> Result<(), Refusal> {
    super::table(hall, table).map(|_| ())
}

/// Ends the game with `result`.
pub(super) fn set(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    result: GameResult,
    reason: &str,
    now: u64,
) -> Result<(), Refusal> {
    let t = super::table_mut(&mut hall.tables, table)?;
    t.finish(result, EndReason::Arbiter, reason, now, &mut hall.book);
    let control = ControlToTable::SetResult {
        by: by.who(),
        result,
        why: EndReason::Arbiter,
        reason: reason.to_string(),
    };
    hall.book.control(table, control);
    hall.book.touch(table);
    Ok(())
}
