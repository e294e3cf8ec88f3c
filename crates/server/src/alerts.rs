//! Alerts (警报) of the hall: raised by the table state machines and the
//! ticker, numbered, kept newest last, acknowledged by arbiters.
//!
//! Alerts are derived state: they are rebuilt by replaying the store, so the
//! same sequence of stored records always yields the same alerts with the
//! same ids.

use proto::{Alert, AlertKind};

/// The most alerts kept in memory (the oldest acknowledged ones go first).
pub const MAX_ALERTS: usize = 10_000;

/// The hall's alert list.
#[derive(Debug, Clone, Default)]
pub struct AlertBook {
    next_id: u64,
    alerts: Vec<Alert>,
}

/// What an alert says, before it is numbered.
#[derive(Debug, Clone)]
pub struct NewAlert {
    /// The table it is about.
    pub table: u16,
    /// What kind of alert.
    pub kind: AlertKind,
    /// Chinese text.
    pub text_zh: String,
    /// English text.
    pub text_en: String,
    /// Rule ids cited.
    pub rule_ids: Vec<String>,
}

impl NewAlert {
    /// An alert with texts and rule ids.
    pub fn new(
        table: u16,
        kind: AlertKind,
        text_zh: impl Into<String>,
        text_en: impl Into<String>,
        rule_ids: &[&str],
    ) -> NewAlert {
        NewAlert {
            table,
            kind,
            text_zh: text_zh.into(),
            text_en: text_en.into(),
            rule_ids: rule_ids.iter().map(|s| s.to_string()).collect(),
        }
    }
}

impl AlertBook {
    /// Numbers and records `a` raised at `at_ms`; returns the stored alert.
    pub fn raise(&mut self, a: NewAlert, at_ms: u64) -> Alert {
        self.next_id += 1;
        let alert = Alert {
            id: self.next_id,
            table: a.table,
            kind: a.kind,
            at_ms,
            text_zh: a.text_zh,
            text_en: a.text_en,
            rule_ids: a.rule_ids,
            acked_by: None,
        };
        if self.alerts.len() >= MAX_ALERTS {
            let drop_at = self
                .alerts
                .iter()
                .position(|x| x.acked_by.is_some())
                .unwrap_or(0);
            self.alerts.remove(drop_at);
        }
        self.alerts.push(alert.clone());
        alert
    }

    /// Marks alert `id` acknowledged by `who`; returns it when it exists.
    pub fn ack(&mut self, id: u64, who: &str) -> Option<Alert> {
        let a = self.alerts.iter_mut().find(|a| a.id == id)?;
        if a.acked_by.is_none() {
            a.acked_by = Some(who.to_string());
        }
        Some(a.clone())
    }

    /// Whether an alert with `id` exists.
    pub fn contains(&self, id: u64) -> bool {
        self.alerts.iter().any(|a| a.id == id)
    }

    /// The table an alert is about.
    pub fn table_of(&self, id: u64) -> Option<u16> {
        self.alerts.iter().find(|a| a.id == id).map(|a| a.table)
    }

    /// All alerts, oldest first.
    pub fn all(&self) -> &[Alert] {
        &self.alerts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_acks() {
        let mut b = AlertBook::default();
        let a = b.raise(
            NewAlert::new(3, AlertKind::FlagFall, "落旗", "flag", &[]),
            5,
        );
        assert_eq!(a.id, 1);
        let a2 = b.raise(NewAlert::new(4, AlertKind::NoShow, "", "", &[]), 6);
        assert_eq!(a2.id, 2);
        assert_eq!(
            b.ack(1, "chief").unwrap().acked_by.as_deref(),
            Some("chief")
        );
        assert!(b.ack(9, "chief").is_none());
        assert_eq!(b.table_of(2), Some(4));
    }
}
