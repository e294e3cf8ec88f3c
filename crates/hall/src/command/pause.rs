//! Pausing (暂停) and resuming one table or the whole hall. A table paused
//! by the hall pause is resumed with the hall; one paused on its own stays
//! paused. A finished, sealed or paused table is left alone by the hall
//! pause and refused by the table pause.

use proto::roles::{Action, Author};
use proto::{Command, ControlToTable, Delta, Message, PauseInfo, TableStatus};

use super::Refusal;
use crate::audit::at;
use crate::hall::Hall;

/// Who may: the table's arbiters for a table, the chief for the hall.
pub(super) fn action(cmd: &Command) -> Action {
    match cmd {
        Command::PauseTable { table, .. } => Action::PauseTable {
            table: u32::from(*table),
        },
        Command::ResumeTable { table } => Action::ResumeTable {
            table: u32::from(*table),
        },
        Command::ResumeHall => Action::ResumeHall,
        _ => Action::PauseHall,
    }
}

/// In words.
pub(super) fn describe(cmd: &Command) -> String {
    match cmd {
        Command::PauseTable { table, reason } => format!("pause table {table}: {reason}"),
        Command::ResumeTable { table } => format!("resume table {table}"),
        Command::PauseHall { reason } => format!("pause the hall: {reason}"),
        Command::ResumeHall => "resume the hall".into(),
        other => format!("{other:?}"),
    }
}

/// Typed ([`super::typed`]).
pub(super) fn typed(cmd: &Command) -> Message {
    match cmd {
        Command::PauseTable { table, reason } => {
            at("audit-pause-table", *table).verbatim("reason", reason)
        }
        Command::ResumeTable { table } => at("audit-resume-table", *table),
        Command::PauseHall { reason } => {
            Message::new("audit-pause-hall").verbatim("reason", reason)
        }
        Command::ResumeHall => Message::new("audit-resume-hall"),
        other => super::typed(other),
    }
}

/// A table pauses while its game goes on (not finished, sealed or paused).
pub(super) fn check_pause_table(hall: &Hall, table: u16) -> Result<(), Refusal> {
    match &super::table(hall, table)?.status {
        TableStatus::Finished { .. } => Err(Refusal::GameOver { table }),
        TableStatus::Paused(_) => Err(Refusal::AlreadyPaused { table }),
        TableStatus::Sealed { .. } => Err(Refusal::IsSealed { table }),
        _ => Ok(()),
    }
}

/// Only a paused table resumes.
pub(super) fn check_resume_table(hall: &Hall, table: u16) -> Result<(), Refusal> {
    match &super::table(hall, table)?.status {
        TableStatus::Paused(_) => Ok(()),
        _ => Err(Refusal::NotPaused { table }),
    }
}

/// The hall pauses once.
pub(super) fn check_pause_hall(hall: &Hall) -> Result<(), Refusal> {
    match hall.paused {
        Some(_) => Err(Refusal::HallAlreadyPaused),
        None => Ok(()),
    }
}

/// Only a paused hall resumes.
pub(super) fn check_resume_hall(hall: &Hall) -> Result<(), Refusal> {
    match hall.paused {
        Some(_) => Ok(()),
        None => Err(Refusal::HallNotPaused),
    }
}

/// Pauses one table.
pub(super) fn pause_table(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    reason: &str,
    now: u64,
) -> Result<(), Refusal> {
    let info = PauseInfo {
        by: by.who(),
        reason: reason.to_string(),
    };
    pause(hall, table, info, false, now)
}

/// Resumes one table.
pub(super) fn resume_table(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    now: u64,
) -> Result<(), Refusal> {
    resume(hall, table, &by.who(), now)
}

/// Pauses every table whose game goes on.
pub(super) fn pause_hall(
    hall: &mut Hall,
    by: &Author,
    reason: &str,
    now: u64,
) -> Result<(), Refusal> {
    let info = PauseInfo {
        by: by.who(),
        reason: reason.to_string(),
    };
    hall.paused = Some(info.clone());
    let going_on: Vec<u16> = hall
        .tables
        .values()
        .filter(|t| {
            !t.finished() && t.sealed.is_none() && !matches!(t.status, TableStatus::Paused(_))
        })
        .map(|t| t.table)
        .collect();
    for t in going_on {
        pause(hall, t, info.clone(), true, now)?;
    }
    hall.book.fx.deltas.push(Delta::HallPaused(Some(info)));
    Ok(())
}

/// Resumes the tables the hall pause paused.
pub(super) fn resume_hall(hall: &mut Hall, by: &Author, now: u64) -> Result<(), Refusal> {
    hall.paused = None;
    let by_hall: Vec<u16> = hall
        .tables
        .values()
        .filter(|t| t.paused_by_hall)
        .map(|t| t.table)
        .collect();
    let who = by.who();
    for t in by_hall {
        resume(hall, t, &who, now)?;
    }
    hall.book.fx.deltas.push(Delta::HallPaused(None));
    Ok(())
}

fn pause(
    hall: &mut Hall,
    table: u16,
    info: PauseInfo,
    by_hall: bool,
    now: u64,
) -> Result<(), Refusal> {
    let t = super::table_mut(&mut hall.tables, table)?;
    let old = std::mem::replace(&mut t.status, TableStatus::Paused(info.clone()));
    t.before_pause = Some(Box::new(old));
    t.paused_by_hall = by_hall;
    t.clock.pause(now);
    t.sample_clock(now);
    hall.book.control(
        table,
        ControlToTable::Pause {
            by: info.by,
            reason: info.reason,
        },
    );
    hall.book.touch(table);
    Ok(())
}

fn resume(hall: &mut Hall, table: u16, who: &str, now: u64) -> Result<(), Refusal> {
    let t = super::table_mut(&mut hall.tables, table)?;
    t.status = t.before_pause.take().map_or(TableStatus::Playing, |s| *s);
    t.paused_by_hall = false;
    t.clock.resume(now);
    t.sample_clock(now);
    let by = who.to_string();
    hall.book.control(table, ControlToTable::Resume { by });
    hall.book.touch(table);
    Ok(())
}
