//! The hall's books (账簿) and what one record changed: the alerts, the
//! claims, the audit trail and the control numbering ([`Book`]), with the
//! [`Effects`] of the record being applied (deltas for consoles, controls
//! for table terminals). Written by the hall (`hall.rs`) and by each table's
//! state machine (`table/`), so it depends on neither.
//!
//! The audit trail keeps an index by table (the ids of each table's
//! entries), so that a table's log is read without scanning the trail.

use std::collections::{BTreeSet, HashMap, VecDeque};

use proto::{AuditEntry, ControlToTable, Delta, Message};

use crate::alerts::{AlertBook, NewAlert};
use crate::claims::{ClaimBook, NewClaim};

/// Most audit entries kept in memory (all of them are in the store).
pub const MAX_AUDIT: usize = 5_000;

/// Most open claims of one kind at one table. A terminal that keeps
/// reporting what opens a claim (an illegal move after an illegal move, a
/// call after a call) would otherwise grow the open claims without bound
/// (ruled claims are capped by `claims::MAX_DECIDED`); past this the
/// oldest open claim of that kind at that table lapses, in the audit
/// trail. No arbiter rules sixteen claims of one kind at one board.
pub const MAX_OPEN_PER_KIND: usize = 16;

/// A text of the audit trail: its English (stored as text, as before
/// protocol 10) and, on rows written since, the catalogue message it is
/// the English of (`audit-*`, or a refusal's own message), which consoles
/// render in their language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    /// The English text.
    pub text: String,
    /// The typed message (`None`: a row stored before, shown as `text`).
    pub msg: Option<Message>,
}

impl Words {
    /// `text` with the message it is the English of.
    pub fn typed(text: String, msg: Message) -> Words {
        Words {
            text,
            msg: Some(msg),
        }
    }

    /// A message and its English.
    pub fn of(msg: Message) -> Words {
        Words::typed(i18n::texts::english(&msg), msg)
    }
}

impl From<String> for Words {
    /// Text alone (a row stored before protocol 10).
    fn from(text: String) -> Words {
        Words { text, msg: None }
    }
}

/// What one applied record changed.
#[derive(Debug, Default)]
pub struct Effects {
    /// Deltas for the consoles, in order.
    pub deltas: Vec<Delta>,
    /// Controls for table terminals: (table, control id, control).
    pub controls: Vec<(u16, u64, ControlToTable)>,
    /// Tables whose view changed (a `Delta::Table` is added for each at the end).
    pub touched: BTreeSet<u16>,
    /// Public events for the broadcast, in order (`public.rs`).
    pub public: Vec<crate::public::PublicEvent>,
}

/// Alerts, claims, audit and control numbering, plus the effects being collected.
#[derive(Debug, Default)]
pub struct Book {
    /// The alerts.
    pub alerts: AlertBook,
    /// The claims.
    pub claims: ClaimBook,
    /// The audit trail (most recent; ids increasing). Written through
    /// [`Book::audit`] and [`Book::restore_audit`], which keep the index.
    pub audit: VecDeque<AuditEntry>,
    /// The ids of each table's entries in `audit`, oldest first.
    by_table: HashMap<u16, VecDeque<u64>>,
    next_audit: u64,
    next_control: u64,
    /// Effects of the record being applied.
    pub fx: Effects,
}

impl Book {
    /// Raises an alert.
    pub fn alert(&mut self, a: NewAlert, at_ms: u64) {
        let alert = self.alerts.raise(a, at_ms);
        self.fx.deltas.push(Delta::Alert(alert));
    }

    /// Opens claim `c` raised at `at_ms`; returns its id.
    pub fn claim(&mut self, c: NewClaim, at_ms: u64) -> u64 {
        let (table, kind) = (c.table, c.kind);
        let open = self.claims.open_of(table, |c| c.kind == kind);
        if open.len() >= MAX_OPEN_PER_KIND {
            let cutoff = open[open.len() - MAX_OPEN_PER_KIND];
            self.lapse(
                table,
                |c| c.kind == kind && c.id <= cutoff,
                || crate::audit::lapse::too_many(MAX_OPEN_PER_KIND, table),
                at_ms,
            );
        }
        let view = self.claims.open(c, at_ms);
        let id = view.id;
        self.fx.deltas.push(Delta::Claim(view));
        self.fx.touched.insert(table);
        id
    }

    /// Closes the open claims of `table` that `which` selects without a
    /// ruling (status lapsed, `why`), each in the audit trail. `why` is
    /// only spelled out when a claim lapses (it is asked on every move).
    pub fn lapse(
        &mut self,
        table: u16,
        which: impl Fn(&proto::ClaimView) -> bool,
        why: impl FnOnce() -> Message,
        now: u64,
    ) {
        let ids = self.claims.open_of(table, which);
        if ids.is_empty() {
            return;
        }
        let why_msg = why();
        let why = i18n::texts::english(&why_msg);
        for id in ids {
            let status = proto::ClaimStatus::Lapsed {
                why: why_msg.clone(),
                at_ms: now,
            };
            if let Some(v) = self.claims.set_status(id, status, None) {
                self.fx.deltas.push(Delta::Claim(v));
                let what = crate::audit::claim_lapsed(table, id, why_msg.clone());
                let text = format!("table {table}: claim {id} lapsed: {why}");
                self.audit(now, "server", Words::typed(text, what), Some(table), None);
                self.fx.touched.insert(table);
            }
        }
    }

    /// Writes an audit entry: what was done and, when refused, why (each
    /// its English and, since protocol 10, its typed message).
    pub fn audit(
        &mut self,
        at_ms: u64,
        who: &str,
        what: Words,
        table: Option<u16>,
        refused: Option<Words>,
    ) {
        self.next_audit += 1;
        let (refused, refused_msg) = match refused {
            Some(w) => (Some(w.text), w.msg),
            None => (None, None),
        };
        let e = AuditEntry {
            id: self.next_audit,
            at_ms,
            who: who.to_string(),
            what: what.text,
            table,
            refused,
            what_msg: what.msg,
            refused_msg,
        };
        if self.audit.len() >= MAX_AUDIT {
            if let Some(old) = self.audit.pop_front() {
                self.unindex(&old);
            }
        }
        if let Some(t) = table {
            self.by_table.entry(t).or_default().push_back(e.id);
        }
        self.audit.push_back(e.clone());
        self.fx.deltas.push(Delta::Audit(e));
    }

    /// Drops an entry that left the trail from its table's index.
    fn unindex(&mut self, old: &AuditEntry) {
        let Some(t) = old.table else { return };
        if let Some(ids) = self.by_table.get_mut(&t) {
            if ids.front() == Some(&old.id) {
                ids.pop_front();
            }
            if ids.is_empty() {
                self.by_table.remove(&t);
            }
        }
    }

    /// Sets the audit trail (a book restored from a snapshot), indexing it.
    pub fn restore_audit(&mut self, entries: impl IntoIterator<Item = AuditEntry>) {
        self.audit = entries.into_iter().collect();
        self.by_table.clear();
        for e in &self.audit {
            if let Some(t) = e.table {
                self.by_table.entry(t).or_default().push_back(e.id);
            }
        }
    }

    /// Table `table`'s entries in the trail, oldest first, found through
    /// the index (no scan of the trail).
    pub fn table_audit(&self, table: u16) -> impl Iterator<Item = &AuditEntry> + '_ {
        self.by_table
            .get(&table)
            .into_iter()
            .flatten()
            .filter_map(|id| {
                let at = self.audit.binary_search_by_key(id, |e| e.id).ok()?;
                self.audit.get(at)
            })
    }

    /// The id of table `table`'s newest entry in the trail (0: none).
    pub fn table_audit_last(&self, table: u16) -> u64 {
        self.by_table
            .get(&table)
            .and_then(|ids| ids.back().copied())
            .unwrap_or(0)
    }

    /// Queues a control for a table terminal; returns its id.
    pub fn control(&mut self, table: u16, c: ControlToTable) -> u64 {
        self.next_control += 1;
        self.fx.controls.push((table, self.next_control, c));
        self.next_control
    }

    /// Marks a table's view as changed.
    pub fn touch(&mut self, table: u16) {
        self.fx.touched.insert(table);
    }

    /// The last audit id and the last control id given.
    pub fn counters(&self) -> (u64, u64) {
        (self.next_audit, self.next_control)
    }

    /// Sets the last audit id and the last control id given (a book
    /// restored from a snapshot).
    pub fn set_counters(&mut self, next_audit: u64, next_control: u64) {
        self.next_audit = next_audit;
        self.next_control = next_control;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tables_entries_come_from_the_index_as_the_trail_turns_over() {
        let mut b = Book::default();
        for i in 0..(MAX_AUDIT as u64 + 7) {
            let table = match i % 3 {
                0 => Some(1),
                1 => Some(2),
                _ => None,
            };
            b.audit(i, "server", format!("entry {i}").into(), table, None);
        }
        let scan = |t: u16| -> Vec<u64> {
            b.audit
                .iter()
                .filter(|e| e.table == Some(t))
                .map(|e| e.id)
                .collect()
        };
        for t in [1, 2, 3] {
            let indexed: Vec<u64> = b.table_audit(t).map(|e| e.id).collect();
            assert_eq!(indexed, scan(t), "table {t}");
        }
        assert!(b.table_audit(1).count() > 0);
        assert_eq!(b.table_audit_last(3), 0);
        assert_eq!(b.table_audit_last(1), scan(1).last().copied().unwrap_or(0));
        // A restored trail is indexed the same.
        let mut r = Book::default();
        r.restore_audit(b.audit.iter().cloned());
        let again: Vec<u64> = r.table_audit(2).map(|e| e.id).collect();
        assert_eq!(again, scan(2));
    }
}
