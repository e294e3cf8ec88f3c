//! The declared move limit 限著 (ROC rules, ROC-6/7): declared by the
//! arbiter at the current ply (a limit already declared is replaced) and
//! cancelled at a new development. Rule sets whose natural limit applies
//! have none. Declaring or cancelling it is a ruling at the table.

use proto::roles::{Action, Author};
use proto::{Command, ControlToTable, Message, Side};

use super::Refusal;
use crate::audit::at;
use crate::hall::Hall;
use crate::table::event::declared_limit;

/// Who may: whoever may rule at the table.
pub(super) fn action(table: u16) -> Action {
    Action::RuleOnClaim {
        table: u32::from(table),
    }
}

/// In words.
pub(super) fn describe(cmd: &Command) -> String {
    match cmd {
        Command::DeclareMoveLimit {
            table,
            requested_by,
            limited,
            book_draw,
        } => format!(
            "table {table}: declare the move limit ({} limited{}{})",
            limited.name_en(),
            match requested_by {
                Some(s) => format!(", at {}'s request", s.name_en()),
                None => String::new(),
            },
            if *book_draw { ", book draw" } else { "" },
        ),
        Command::CancelMoveLimit { table } => format!("table {table}: cancel the move limit"),
        other => format!("{other:?}"),
    }
}

/// Typed ([`super::typed`]).
pub(super) fn typed(cmd: &Command) -> Message {
    match cmd {
        Command::DeclareMoveLimit {
            table,
            requested_by,
            limited,
            book_draw,
        } => {
            let m = match requested_by {
                Some(s) => {
                    at("audit-declare-move-limit-requested", *table).side("requested_by", *s)
                }
                None => at("audit-declare-move-limit", *table),
            };
            m.side("limited", *limited)
                .int("book", i64::from(*book_draw))
        }
        Command::CancelMoveLimit { table } => at("audit-cancel-move-limit", *table),
        other => super::typed(other),
    }
}

/// Rules with a declared limit and a game that goes on.
pub(super) fn check_declare(hall: &Hall, table: u16) -> Result<(), Refusal> {
    super::table(hall, table)?;
    if !declared_limit(&hall.params) {
        let rule_set = hall.info.rule_set.clone();
        return Err(Refusal::NoDeclaredLimit { rule_set });
    }
    super::playing(hall, table).map(|_| ())
}

/// A limit declared.
pub(super) fn check_cancel(hall: &Hall, table: u16) -> Result<(), Refusal> {
    match super::table(hall, table)?.move_limit {
        Some(_) => Ok(()),
        None => Err(Refusal::NoMoveLimit { table }),
    }
}

/// Declares (or replaces) the limit.
pub(super) fn declare(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    requested_by: Option<Side>,
    limited: Side,
    book_draw: bool,
) -> Result<(), Refusal> {
    let params = hall.params;
    let t = super::table_mut(&mut hall.tables, table)?;
    let limit = t.declare_move_limit(requested_by, limited, book_draw, &params);
    let control = ControlToTable::MoveLimit {
        by: by.who(),
        limit: Some(limit),
    };
    hall.book.control(table, control);
    hall.book.touch(table);
    Ok(())
}

/// Cancels the limit.
pub(super) fn cancel(hall: &mut Hall, by: &Author, table: u16) -> Result<(), Refusal> {
    super::table_mut(&mut hall.tables, table)?.move_limit = None;
    let control = ControlToTable::MoveLimit {
        by: by.who(),
        limit: None,
    };
    hall.book.control(table, control);
    hall.book.touch(table);
    Ok(())
}
