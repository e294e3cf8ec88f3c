//! Recording a foul (犯规) against a side, at any table of the round (a
//! foul may be recorded after the game, too). The table counts it and
//! raises the alerts and claims its thresholds call for.

use proto::roles::Action;
use proto::{FoulKind, Message, Side};

use super::Refusal;
use crate::audit::{self, at, nested};
use crate::hall::Hall;

/// Who may: the table's arbiters.
pub(super) fn action(table: u16) -> Action {
    Action::RecordFoul {
        table: u32::from(table),
    }
}

/// In words.
pub(super) fn describe(table: u16, side: Side, kind: FoulKind, note: &str) -> String {
    format!(
        "table {table}: record a {kind:?} foul for {}: {note}",
        side.name_en()
    )
}

/// Typed ([`super::typed`]).
pub(super) fn typed(table: u16, side: Side, kind: FoulKind, note: &str) -> Message {
    nested(
        at("audit-record-foul", table),
        "kind",
        audit::foul_kind(kind),
    )
    .side("side", side)
    .verbatim("note", note)
}

/// Any table of the round.
pub(super) fn check(hall: &Hall, table: u16) -> Result<(), Refusal> {
    super::table(hall, table).map(|_| ())
}

/// Counts the foul at the table.
pub(super) fn record(
    hall: &mut Hall,
    table: u16,
    side: Side,
    kind: FoulKind,
    note: &str,
    now: u64,
) -> Result<(), Refusal> {
    let params = hall.params;
    let t = super::table_mut(&mut hall.tables, table)?;
    t.add_foul(side, kind, note, now, &params, &mut hall.book);
    hall.book.touch(table);
    Ok(())
}
