//! What the signed-in arbiter may do (权限), mirrored from the roles table in
//! docs/architecture.md so that the console only offers allowed actions.
//!
//! This is a convenience, not security: the server judges every command
//! again and answers `Forbidden` with the reason.

use proto::Role;

/// An action the console can offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    PauseTable,
    PauseHall,
    Seal,
    RecordFoul,
    AdjustClock,
    SetResult,
    RuleOnClaim,
    EscalateClaim,
    AckAlert,
    Export,
}

/// Whether `role` may do `action` on `table` (`None` for hall-wide actions).
pub fn allowed(role: Option<&Role>, action: Action, table: Option<u16>) -> bool {
    match role {
        Some(Role::Chief) => action != Action::EscalateClaim,
        Some(Role::Deputy { tables, .. }) => match action {
            Action::PauseHall | Action::Export => false,
            Action::AckAlert => table.is_none_or(|t| tables.contains(&t)),
            _ => table.is_some_and(|t| tables.contains(&t)),
        },
        Some(Role::Viewer) | Some(Role::Table { .. }) | None => false,
    }
}

/// Whether the console offers `action` at all to `role` (on some table):
/// what the help and the key hints list.
pub fn offers(role: Option<&Role>, action: Action) -> bool {
    match role {
        Some(Role::Deputy { tables, .. }) => match action {
            Action::PauseHall | Action::Export => false,
            _ => !tables.is_empty(),
        },
        _ => allowed(role, action, None) || allowed(role, action, Some(0)),
    }
}

/// Whether `role` sees `table` in its hall overview: a deputy sees the
/// tables assigned to them, everyone else the whole hall.
pub fn sees_table(role: Option<&Role>, table: u16) -> bool {
    match role {
        Some(Role::Deputy { tables, .. }) => tables.contains(&table),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chief_may_do_everything_but_escalate() {
        let chief = Role::Chief;
        assert!(allowed(Some(&chief), Action::PauseHall, None));
        assert!(allowed(Some(&chief), Action::Export, None));
        assert!(allowed(Some(&chief), Action::Seal, Some(40)));
        assert!(!allowed(Some(&chief), Action::EscalateClaim, Some(1)));
    }

    #[test]
    fn deputy_acts_on_assigned_tables_only() {
        let d = Role::Deputy {
            name: "李四".into(),
            tables: vec![1, 2],
        };
        assert!(allowed(Some(&d), Action::PauseTable, Some(1)));
        assert!(!allowed(Some(&d), Action::PauseTable, Some(3)));
        assert!(!allowed(Some(&d), Action::PauseHall, None));
        assert!(!allowed(Some(&d), Action::Export, None));
        assert!(allowed(Some(&d), Action::EscalateClaim, Some(2)));
        assert!(sees_table(Some(&d), 2));
        assert!(!sees_table(Some(&d), 3));
    }

    #[test]
    fn viewer_and_unknown_roles_may_not_act() {
        assert!(!allowed(Some(&Role::Viewer), Action::AckAlert, None));
        assert!(!allowed(None, Action::PauseTable, Some(1)));
        assert!(sees_table(Some(&Role::Viewer), 9));
    }
}
