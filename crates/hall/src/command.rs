//! Arbiters' commands (指令) as the record and the audit trail see them:
//! the table a command concerns and its description in words. Shared by
//! [`crate::record`] and [`crate::hall`] (re-exported there), so neither
//! needs the other for it.

use proto::Command;

use crate::table::convert::side_en;

/// The table a command concerns.
pub fn command_table(cmd: &Command) -> Option<u16> {
    match cmd {
        Command::GetTableLog { table }
        | Command::PauseTable { table, .. }
        | Command::ResumeTable { table }
        | Command::Seal { table, .. }
        | Command::Unseal { table }
        | Command::RuleOnClaim { table, .. }
        | Command::EscalateClaim { table, .. }
        | Command::RecordFoul { table, .. }
        | Command::AdjustClock { table, .. }
        | Command::SetResult { table, .. }
        | Command::DeclareMoveLimit { table, .. }
        | Command::CancelMoveLimit { table } => Some(*table),
        _ => None,
    }
}

/// A command in words for the audit trail (a sealed move is never written out).
pub fn describe(cmd: &Command) -> String {
    match cmd {
        Command::Subscribe => "subscribe".into(),
        Command::Unsubscribe => "unsubscribe".into(),
        Command::GetTableLog { table } => format!("read the log of table {table}"),
        Command::PauseTable { table, reason } => format!("pause table {table}: {reason}"),
        Command::ResumeTable { table } => format!("resume table {table}"),
        Command::PauseHall { reason } => format!("pause the hall: {reason}"),
        Command::ResumeHall => "resume the hall".into(),
        Command::Seal { table, .. } => format!("seal table {table} (sealed move hidden)"),
        Command::Unseal { table } => format!("unseal table {table}"),
        Command::RuleOnClaim {
            table,
            claim_id,
            decision,
        } => match decision {
            proto::Decision::Accept => {
                format!("table {table}: accept the recommended ruling on claim {claim_id}")
            }
            proto::Decision::Override {
                verdict,
                must_change,
                reason,
            } => format!(
                "table {table}: override the ruling on claim {claim_id} with {verdict:?} (must change: {must_change:?}); reason: {reason}"
            ),
        },
        Command::EscalateClaim {
            table,
            claim_id,
            reason,
        } => format!("table {table}: escalate claim {claim_id} to the chief: {reason}"),
        Command::RecordFoul {
            table,
            side,
            kind,
            note,
        } => format!("table {table}: record a {kind:?} foul for {}: {note}", side_en(*side)),
        Command::AdjustClock {
            table,
            red_ms,
            black_ms,
            reason,
        } => format!("table {table}: set clocks Red {red_ms} ms, Black {black_ms} ms: {reason}"),
        Command::SetResult {
            table,
            result,
            reason,
        } => format!("table {table}: set result {result:?}: {reason}"),
        Command::AckAlert { alert_id } => format!("acknowledge alert {alert_id}"),
        Command::ExportRound => "export the round".into(),
        Command::DeclareMoveLimit {
            table,
            requested_by,
            limited,
            book_draw,
        } => format!(
            "table {table}: declare the move limit ({} limited{}{})",
            side_en(*limited),
            match requested_by {
                Some(s) => format!(", at {}'s request", side_en(*s)),
                None => String::new(),
            },
            if *book_draw { ", book draw" } else { "" },
        ),
        Command::CancelMoveLimit { table } => format!("table {table}: cancel the move limit"),
    }
}
