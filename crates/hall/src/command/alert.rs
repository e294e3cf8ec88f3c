//! Acknowledging an alert (确认警报): who may depends on the alert's table
//! (a hall-wide alert is the chief's); acknowledging twice changes nothing.

use proto::roles::{alert_table, Action, Author};
use proto::{Delta, Message};

use super::Refusal;
use crate::audit::count;
use crate::hall::Hall;

/// Who may: the arbiters of the alert's table, the chief for a hall-wide
/// (or unknown) alert.
pub(super) fn action(hall: &Hall, alert_id: u64) -> Action {
    Action::AckAlert {
        table: hall.book.alerts.table_of(alert_id).and_then(alert_table),
    }
}

/// In words.
pub(super) fn describe(alert_id: u64) -> String {
    format!("acknowledge alert {alert_id}")
}

/// Typed ([`super::typed`]).
pub(super) fn typed(alert_id: u64) -> Message {
    Message::new("audit-ack-alert").int("alert", count(alert_id))
}

/// An alert of the hall.
pub(super) fn check(hall: &Hall, alert_id: u64) -> Result<(), Refusal> {
    match hall.book.alerts.contains(alert_id) {
        true => Ok(()),
        false => Err(Refusal::NoAlert { alert_id }),
    }
}

/// Marks the alert acknowledged by `by`.
pub(super) fn ack(hall: &mut Hall, by: &Author, alert_id: u64) -> Result<(), Refusal> {
    if let Some(a) = hall.book.alerts.ack(alert_id, &by.who()) {
        let by = a.acked_by.unwrap_or_default();
        hall.book.fx.deltas.push(Delta::AlertAcked { id: a.id, by });
    }
    Ok(())
}
