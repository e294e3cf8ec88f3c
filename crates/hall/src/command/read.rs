//! The commands that change nothing in the hall: subscribing, reading a
//! table's log and exporting the round (the export itself runs after the
//! command is stored, in the server's `export::command::after_commit`).

use proto::roles::{Action, Scope};
use proto::{Command, Message};

use super::Refusal;
use crate::audit::at;
use crate::hall::Hall;

/// Who may: anyone who reads the hall or the table; the chief exports.
pub(super) fn action(cmd: &Command) -> Action {
    match cmd {
        Command::GetTableLog { table } => Action::Subscribe {
            scope: Scope::Table(u32::from(*table)),
        },
        Command::ExportRound => Action::Export,
        _ => Action::Subscribe { scope: Scope::Hall },
    }
}

/// A table's log needs the table; the rest always makes sense.
pub(super) fn check(hall: &Hall, cmd: &Command) -> Result<(), Refusal> {
    match cmd {
        Command::GetTableLog { table } => super::table(hall, *table).map(|_| ()),
        _ => Ok(()),
    }
}

/// In words.
pub(super) fn describe(cmd: &Command) -> String {
    match cmd {
        Command::Subscribe => "subscribe".into(),
        Command::Unsubscribe => "unsubscribe".into(),
        Command::GetTableLog { table } => format!("read the log of table {table}"),
        Command::ExportRound => "export the round".into(),
        other => format!("{other:?}"),
    }
}

/// Typed ([`super::typed`]).
pub(super) fn typed(cmd: &Command) -> Message {
    match cmd {
        Command::Subscribe => Message::new("audit-subscribe"),
        Command::Unsubscribe => Message::new("audit-unsubscribe"),
        Command::GetTableLog { table } => at("audit-get-table-log", *table),
        Command::ExportRound => Message::new("audit-export-round"),
        other => super::typed(other),
    }
}
