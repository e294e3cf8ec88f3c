//! Alerts (警报) of the hall: raised by the table state machines and the
//! ticker, numbered, kept newest last, acknowledged by arbiters.
//!
//! Alerts are derived state: they are rebuilt by replaying the store, so the
//! same sequence of stored records always yields the same alerts with the
//! same ids.
//!
//! Each alert is kept behind an `Arc` (issue 40): a snapshot cut takes the
//! book under the hall lock, and with the book full ([`MAX_ALERTS`])
//! copying every alert held that lock 22 ms at 10,000 tables; sharing
//! them costs a pointer each, and acknowledging one copies only that one
//! if a cut still holds it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use proto::{Alert, AlertKind};
use rulebook::RuleId;

/// The most alerts kept in memory (the oldest acknowledged ones go first,
/// then the oldest). Every alert stays in the store's log.
pub const MAX_ALERTS: usize = 10_000;

/// The most acknowledged alerts kept in memory: an acknowledged alert is
/// history (the console shows it dimmed); the oldest go first so that a
/// long round does not grow the hall without bound.
pub const MAX_ACKED_ALERTS: usize = 2_000;

/// The hall's alert list, by id (ids grow with time, so id order is age
/// order). Raising, acknowledging and finding an alert are O(log n).
#[derive(Debug, Clone, Default)]
pub struct AlertBook {
    next_id: u64,
    alerts: BTreeMap<u64, Arc<Alert>>,
    /// Ids of the acknowledged alerts kept, oldest first.
    acked: BTreeSet<u64>,
}

/// What an alert says, before it is numbered.
#[derive(Debug, Clone)]
pub struct NewAlert {
    /// The table it is about.
    pub table: u16,
    /// What kind of alert.
    pub kind: AlertKind,
    /// What happened (a catalogue message, `i18n::texts`).
    pub text: proto::Message,
    /// Rule ids cited.
    pub rule_ids: Vec<String>,
}

impl NewAlert {
    /// An alert with its text and rule ids.
    pub fn new(table: u16, kind: AlertKind, text: proto::Message, rule_ids: &[RuleId]) -> NewAlert {
        NewAlert {
            table,
            kind,
            text,
            rule_ids: rule_ids.iter().map(|r| r.as_str().to_string()).collect(),
        }
    }
}

impl AlertBook {
    /// A new round: every alert of the round before goes (the ids keep
    /// counting, so none is reused).
    pub fn new_round(&mut self) {
        self.alerts.clear();
        self.acked.clear();
    }

    /// Back to the round before (a published round withdrawn): its alerts
    /// as `before` kept them when the round was published; the ids keep
    /// counting, so none raised since is reused.
    pub fn back_to(&mut self, before: AlertBook) {
        let next_id = self.next_id.max(before.next_id);
        *self = before;
        self.next_id = next_id;
    }

    /// Numbers and records `a` raised at `at_ms`; returns the stored alert.
    pub fn raise(&mut self, a: NewAlert, at_ms: u64) -> Alert {
        self.next_id += 1;
        let alert = Alert {
            id: self.next_id,
            table: a.table,
            kind: a.kind,
            at_ms,
            text: a.text,
            rule_ids: a.rule_ids,
            acked_by: None,
        };
        if self.alerts.len() >= MAX_ALERTS {
            let drop = match self.acked.pop_first() {
                Some(id) => Some(id),
                None => self.alerts.keys().next().copied(),
            };
            if let Some(id) = drop {
                self.alerts.remove(&id);
            }
        }
        self.alerts.insert(alert.id, Arc::new(alert.clone()));
        alert
    }

    /// Marks alert `id` acknowledged by `who`; returns it when it exists.
    pub fn ack(&mut self, id: u64, who: &str) -> Option<Alert> {
        let a = self.alerts.get_mut(&id)?;
        if a.acked_by.is_none() {
            Arc::make_mut(a).acked_by = Some(who.to_string());
            self.acked.insert(id);
        }
        let out = Alert::clone(a);
        while self.acked.len() > MAX_ACKED_ALERTS {
            if let Some(old) = self.acked.pop_first() {
                self.alerts.remove(&old);
            }
        }
        Some(out)
    }

    /// Whether an alert with `id` exists.
    pub fn contains(&self, id: u64) -> bool {
        self.alerts.contains_key(&id)
    }

    /// The table an alert is about.
    pub fn table_of(&self, id: u64) -> Option<u16> {
        self.alerts.get(&id).map(|a| a.table)
    }

    /// All alerts kept, oldest first.
    pub fn all(&self) -> impl ExactSizeIterator<Item = &Alert> {
        self.alerts.values().map(|a| &**a)
    }

    /// All alerts kept, oldest first, shared (a snapshot's copy).
    pub fn shared(&self) -> impl ExactSizeIterator<Item = &Arc<Alert>> {
        self.alerts.values()
    }

    /// Number of alerts kept.
    pub fn len(&self) -> usize {
        self.alerts.len()
    }

    /// Whether no alert is kept.
    pub fn is_empty(&self) -> bool {
        self.alerts.is_empty()
    }

    /// The id the last raised alert got (0: none yet).
    pub fn last_id(&self) -> u64 {
        self.next_id
    }

    /// A book restored from a snapshot: the last id given and the alerts
    /// kept (any order).
    pub fn restore(last_id: u64, alerts: Vec<Arc<Alert>>) -> AlertBook {
        let mut book = AlertBook {
            next_id: last_id,
            ..AlertBook::default()
        };
        for a in alerts {
            if a.acked_by.is_some() {
                book.acked.insert(a.id);
            }
            book.alerts.insert(a.id, a);
        }
        book
    }
}

/// `[alerts]`: grace periods before the server raises its own alerts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlertTimings {
    /// A table terminal whose connection ended and that has not come back
    /// within this time is reported offline (`offline_grace_seconds`, 2 s;
    /// the QUIC idle timeout of 30 s already covers network blips).
    pub offline_grace_ms: u64,
    /// The server raises a flag fall itself this long after the running
    /// side's extrapolated time reached zero, when the terminal did not
    /// report it (`flag_grace_seconds`, 2 s).
    pub flag_grace_ms: u64,
}

impl Default for AlertTimings {
    fn default() -> Self {
        AlertTimings {
            offline_grace_ms: 2_000,
            flag_grace_ms: 2_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_acks() {
        let mut b = AlertBook::default();
        let a = b.raise(
            NewAlert::new(
                3,
                AlertKind::FlagFall,
                i18n::texts::loss_flag_fall(Some(3), proto::Side::Red),
                &[],
            ),
            5,
        );
        assert_eq!(a.id, 1);
        let a2 = b.raise(
            NewAlert::new(
                4,
                AlertKind::NoShow,
                i18n::texts::loss_no_show(Some(4), proto::Side::Black, 900_000),
                &[],
            ),
            6,
        );
        assert_eq!(a2.id, 2);
        assert_eq!(
            b.ack(1, "chief").unwrap().acked_by.as_deref(),
            Some("chief")
        );
        assert!(b.ack(9, "chief").is_none());
        assert_eq!(b.table_of(2), Some(4));
    }

    /// Red calls the arbiter at table 1.
    fn called() -> NewAlert {
        let text = i18n::texts::arbiter_called(1, proto::Side::Red, "");
        NewAlert::new(1, AlertKind::ArbiterCalled, text, &[])
    }

    #[test]
    fn caps_drop_acknowledged_first_then_oldest() {
        let mut b = AlertBook::default();
        for i in 0..MAX_ALERTS as u64 {
            b.raise(called(), i);
        }
        b.ack(5, "chief");
        b.raise(called(), 0);
        assert_eq!(b.len(), MAX_ALERTS);
        assert!(!b.contains(5), "the acknowledged one went first");
        assert!(b.contains(1));
        b.raise(called(), 0);
        assert!(!b.contains(1), "then the oldest");
        assert_eq!(b.all().next().map(|a| a.id), Some(2));
        // Acknowledged alerts beyond their cap go, oldest first.
        for id in 2..(MAX_ACKED_ALERTS as u64 + 12) {
            b.ack(id, "chief");
        }
        assert_eq!(
            b.all().filter(|a| a.acked_by.is_some()).count(),
            MAX_ACKED_ALERTS
        );
        assert!(!b.contains(2) && b.contains(MAX_ACKED_ALERTS as u64 + 11));
        let r = AlertBook::restore(b.last_id(), b.shared().cloned().collect());
        assert_eq!(r.all().collect::<Vec<_>>(), b.all().collect::<Vec<_>>());
        assert_eq!(r.acked, b.acked);
    }

    /// A snapshot's copy of the book shares every alert (a pointer each,
    /// issue 40); acknowledging one afterwards changes the book's alone,
    /// the copy keeps what it took.
    #[test]
    fn a_cut_shares_the_alerts_and_an_ack_after_it_leaves_the_cut_alone() {
        let mut b = AlertBook::default();
        for t in 1..=3 {
            b.raise(
                NewAlert::new(
                    t,
                    AlertKind::FlagFall,
                    i18n::texts::loss_flag_fall(Some(t), proto::Side::Red),
                    &[],
                ),
                u64::from(t),
            );
        }
        let cut: Vec<Arc<Alert>> = b.shared().cloned().collect();
        assert!(cut.iter().zip(b.shared()).all(|(c, h)| Arc::ptr_eq(c, h)));
        let acked = b.ack(2, "chief").expect("alert 2");
        assert_eq!(acked.acked_by.as_deref(), Some("chief"));
        assert_eq!(
            cut[1].acked_by, None,
            "the cut keeps alert 2 unacknowledged"
        );
        let now: Vec<&Arc<Alert>> = b.shared().collect();
        assert_eq!(now[1].acked_by.as_deref(), Some("chief"));
        assert!(!Arc::ptr_eq(&cut[1], now[1]), "alert 2 copied on write");
        assert!(Arc::ptr_eq(&cut[0], now[0]) && Arc::ptr_eq(&cut[2], now[2]));
    }
}
