//! Adjusting a table's clock (调整时间): both remaining times set by the
//! arbiter while the game goes on; the terminal is told the new times.

use proto::roles::{Action, Author};
use proto::{Arg, ControlToTable, Message};

use super::Refusal;
use crate::audit::at;
use crate::hall::Hall;

/// Who may: the table's arbiters.
pub(super) fn action(table: u16) -> Action {
    Action::AdjustClock {
        table: u32::from(table),
    }
}

/// In words.
pub(super) fn describe(table: u16, red_ms: u64, black_ms: u64, reason: &str) -> String {
    format!(
        "table {table}: set clocks Red {}, Black {}: {reason}",
        rulebook::clock_text(red_ms, rulebook::ClockForm::Short),
        rulebook::clock_text(black_ms, rulebook::ClockForm::Short)
    )
}

/// Typed ([`super::typed`]).
pub(super) fn typed(table: u16, red_ms: u64, black_ms: u64, reason: &str) -> Message {
    at("audit-adjust-clock", table)
        .arg("red", Arg::DurationMs(red_ms))
        .arg("black", Arg::DurationMs(black_ms))
        .verbatim("reason", reason)
}

/// A game that goes on.
pub(super) fn check(hall: &Hall, table: u16) -> Result<(), Refusal> {
    super::playing(hall, table).map(|_| ())
}

/// Sets both clocks: `(red_ms, black_ms)`.
pub(super) fn adjust(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    (red_ms, black_ms): (u64, u64),
    reason: &str,
    now: u64,
) -> Result<(), Refusal> {
    let t = super::table_mut(&mut hall.tables, table)?;
    t.clock.adjust(red_ms, black_ms, now);
    t.sample_clock(now);
    let control = ControlToTable::Adjust {
        by: by.who(),
        red_ms,
        black_ms,
        reason: reason.to_string(),
    };
    hall.book.control(table, control);
    hall.book.touch(table);
    Ok(())
}
