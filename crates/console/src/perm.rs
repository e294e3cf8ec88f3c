//! What the signed-in arbiter may do (权限), judged by the one roles table
//! (`proto::roles::authorize`, which the server authorizes with), so that
//! the console offers exactly the keys the server will accept.
//!
//! This is a convenience, not security: the server judges every command
//! again and answers `Forbidden` with the reason. The console's own choices
//! on top of the roles table are only about what it shows: the chief is
//! not offered to escalate a claim to themselves, and a deputy's overview
//! shows their assigned tables ([`sees_table`]).

use proto::roles::{self, authorize, Principal};
use proto::Role;

/// An action the console offers (a key).
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
    /// Pair and publish the next round (chief only).
    PairRound,
    /// Correct a result of an earlier round (chief only).
    CorrectResult,
    /// Withdraw the published round before it started (chief only).
    WithdrawRound,
    /// Enter a player late (chief only).
    EnterPlayer,
    /// Withdraw a player (chief only).
    WithdrawPlayer,
}

impl Action {
    /// Every action, for exhaustive tests.
    pub const ALL: [Action; 15] = [
        Action::PauseTable,
        Action::PauseHall,
        Action::Seal,
        Action::RecordFoul,
        Action::AdjustClock,
        Action::SetResult,
        Action::RuleOnClaim,
        Action::EscalateClaim,
        Action::AckAlert,
        Action::Export,
        Action::PairRound,
        Action::CorrectResult,
        Action::WithdrawRound,
        Action::EnterPlayer,
        Action::WithdrawPlayer,
    ];
}

/// The alerts of the hall itself (not of a table) carry table 0.
pub const HALL_ALERTS: u16 = 0;

/// The roles table's action for `action` at `table` (`None`: hall-wide).
/// A table action without a table is none.
pub fn judged(action: Action, table: Option<u16>) -> Option<roles::Action> {
    let at = table.map(u32::from);
    Some(match action {
        Action::PauseTable => roles::Action::PauseTable { table: at? },
        Action::Seal => roles::Action::Seal { table: at? },
        Action::RecordFoul => roles::Action::RecordFoul { table: at? },
        Action::AdjustClock => roles::Action::AdjustClock { table: at? },
        Action::SetResult => roles::Action::SetResult { table: at? },
        Action::RuleOnClaim | Action::EscalateClaim => roles::Action::RuleOnClaim { table: at? },
        Action::AckAlert => roles::Action::AckAlert {
            table: table.and_then(roles::alert_table),
        },
        Action::PauseHall => roles::Action::PauseHall,
        Action::Export => roles::Action::Export,
        Action::PairRound => roles::Action::PairRound,
        Action::CorrectResult => roles::Action::CorrectResult,
        Action::WithdrawRound => roles::Action::WithdrawRound,
        Action::EnterPlayer => roles::Action::EnterPlayer,
        Action::WithdrawPlayer => roles::Action::WithdrawPlayer,
    })
}

/// Whether `role` may do `action` on `table` (`None` for hall-wide actions
/// and the hall's own alerts).
pub fn allowed(role: Option<&Role>, action: Action, table: Option<u16>) -> bool {
    let Some(role) = role else {
        return false;
    };
    if action == Action::EscalateClaim && *role == Role::Chief {
        return false;
    }
    judged(action, table).is_some_and(|a| authorize(&Principal::from(role), &a).is_ok())
}

/// Whether the console offers `action` at all to `role` (hall-wide, or on
/// some table): what the help and the key hints list.
pub fn offers(role: Option<&Role>, action: Action) -> bool {
    let some_table = match role {
        Some(Role::Deputy { tables, .. }) => tables.first().copied(),
        _ => Some(1),
    };
    allowed(role, action, None) || allowed(role, action, some_table)
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
        assert!(allowed(Some(&chief), Action::AckAlert, Some(HALL_ALERTS)));
        assert!(!allowed(Some(&chief), Action::EscalateClaim, Some(1)));
        assert!(!offers(Some(&chief), Action::EscalateClaim));
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
        assert!(!allowed(Some(&d), Action::AckAlert, Some(HALL_ALERTS)));
        assert!(offers(Some(&d), Action::AckAlert));
        assert!(sees_table(Some(&d), 2));
        assert!(!sees_table(Some(&d), 3));
        let none = Role::Deputy {
            name: "王五".into(),
            tables: vec![],
        };
        assert!(!offers(Some(&none), Action::PauseTable));
    }

    #[test]
    fn viewer_and_unknown_roles_may_not_act() {
        assert!(!allowed(Some(&Role::Viewer), Action::AckAlert, None));
        assert!(!allowed(None, Action::PauseTable, Some(1)));
        assert!(Action::ALL.iter().all(|a| !offers(Some(&Role::Viewer), *a)));
        assert!(sees_table(Some(&Role::Viewer), 9));
    }
}
