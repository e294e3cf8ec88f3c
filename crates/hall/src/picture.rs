//! The console's picture of the hall (大厅快照), cheap to take under the
//! hall lock: every table's view is kept as a shared, immutable copy
//! ([`crate::views::Views`], an `Arc<TableView>` per table), so taking a [`Picture`]
//! copies pointers, not move lists; the [`HallView`] a console is sent is
//! made from it after the lock is let go ([`Picture::into_view`]).
//!
//! A table's kept view is replaced whenever the hall builds the table's
//! delta ([`crate::Hall::take_effects`]: the same view, built once for
//! both), and forgotten when a change is discarded unseen (a replay), when
//! the round's tables are replaced and when a snapshot is restored; a
//! table with no kept view, or with a change not yet taken, gets a fresh
//! one. Debug builds check on every picture that each kept view is the
//! one the table would build now.

use std::sync::Arc;

use proto::{HallView, TableView};

use crate::hall::Hall;

/// Which parts of the hall a picture holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Everything (an arbiter's console).
    All,
    /// The tables and the hall's facts only, no alerts, claims or audit
    /// (the public display; `server::viewer` takes out the rest).
    Tables,
}

/// The hall at one moment, its tables shared with the hall: taken under
/// the hall lock ([`Hall::picture`]), made into a [`HallView`] after it.
#[derive(Debug, Clone)]
pub struct Picture {
    /// Everything but the tables (`tables` empty, `server_ms` 0).
    head: HallView,
    tables: Vec<Arc<TableView>>,
}

impl Picture {
    /// The hall view of this picture at server time `now_ms` (the tables'
    /// views copied out here, outside the hall lock).
    pub fn into_view(self, now_ms: u64) -> HallView {
        HallView {
            tables: self.tables.into_iter().map(Arc::unwrap_or_clone).collect(),
            server_ms: now_ms,
            ..self.head
        }
    }

    /// The picture's parts at server time `now_ms`: the hall view without
    /// its tables, and the tables' shared views (for a snapshot sent in
    /// pages, each page's tables copied out when it is encoded).
    pub fn into_parts(self, now_ms: u64) -> (HallView, Vec<Arc<TableView>>) {
        let head = HallView {
            server_ms: now_ms,
            ..self.head
        };
        (head, self.tables)
    }

    /// Tables in the picture.
    pub fn tables(&self) -> usize {
        self.tables.len()
    }
}

impl Hall {
    /// The hall as a console sees it now, `part` of it, its tables' views
    /// shared (the kept ones, or built fresh for a table that changed since
    /// its view was kept). Cheap: meant to be taken under the hall lock.
    pub fn picture(&mut self, part: Part) -> Picture {
        let numbers: Vec<u16> = self.tables.keys().copied().collect();
        let tables = self.views_of(&numbers);
        let (alerts, claims, audit) = match part {
            Part::All => self.book_parts(),
            Part::Tables => (Vec::new(), Vec::new(), Vec::new()),
        };
        Picture {
            head: HallView {
                tournament: self.info.tournament.clone(),
                round: self.info.round,
                rule_set: self.info.rule_set.clone(),
                time_control: self.info.time_control.clone(),
                paused: self.paused.clone(),
                tables: Vec::new(),
                alerts,
                claims,
                audit,
                server_ms: 0,
            },
            tables,
        }
    }
}

impl Hall {
    /// The views of `tables` now (those the hall has, in the order given),
    /// shared as in [`Hall::picture`]: what a console that fell behind is
    /// sent of the tables that changed since (`server::catchup`). Cheap:
    /// meant to be taken under the hall lock, for those tables only.
    pub fn views_of(&mut self, tables: &[u16]) -> Vec<Arc<TableView>> {
        let limit = self.info.natural_limit_plies;
        let untaken = &self.book.fx.touched;
        let mut out = Vec::with_capacity(tables.len());
        for &n in tables {
            let Some(ts) = self.tables.get(&n) else {
                continue;
            };
            let pending = || self.book.claims.open_count(n);
            let view = match self.views.get(n) {
                // A change not yet taken: its view is kept when it is.
                _ if untaken.contains(&n) => Arc::new(ts.view(limit, pending())),
                Some(v) => v.clone(),
                None => self.views.keep(n, ts.view(limit, pending())),
            };
            #[cfg(debug_assertions)]
            assert_eq!(
                *view,
                ts.view(limit, pending()),
                "table {n}: its kept view is not the table's (a change did not touch it)"
            );
            out.push(view);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Fixture;
    use crate::record::Record;
    use proto::{EventEnvelope, Side, TableEvent};

    fn event(hall: &mut Hall, table: u16, seq: u64, body: TableEvent) {
        let env = EventEnvelope {
            table,
            epoch: 1,
            seq,
            body,
        };
        hall.apply(&Record::Event(env), 1_000 * seq)
            .expect("the event applies");
    }

    #[test]
    fn a_picture_is_the_snapshot_and_shares_the_views_until_a_table_changes() {
        let mut hall = Fixture::default().hall();
        let start = TableEvent::ClockStarted {
            red_ms: 600_000,
            black_ms: 600_000,
            terminal_mono_ms: 0,
        };
        event(&mut hall, 1, 1, start);
        let _ = hall.take_effects();
        let a = hall.picture(Part::All);
        assert_eq!(a.tables(), 2);
        assert_eq!(a.clone().into_view(5), hall.snapshot(5));
        let b = hall.picture(Part::All);
        assert!(a
            .tables
            .iter()
            .zip(&b.tables)
            .all(|(x, y)| Arc::ptr_eq(x, y)));
        // Table 1 changes, not yet taken: a fresh view of table 1 only.
        event(&mut hall, 1, 2, press(Side::Red));
        let c = hall.picture(Part::All);
        assert!(!Arc::ptr_eq(&a.tables[0], &c.tables[0]));
        assert!(Arc::ptr_eq(&a.tables[1], &c.tables[1]));
        assert_eq!(c.clone().into_view(5), hall.snapshot(5));
        // The views of some tables (a lagging console's catch-up): the
        // same as the picture's, in the order asked, unknown ones left out.
        let some = hall.views_of(&[2, 99, 1]);
        assert_eq!(some.len(), 2);
        assert!(Arc::ptr_eq(&some[0], &c.tables[1]));
        assert_eq!(*some[1], *c.tables[0]);
        // Taken: the delta's view is the kept one, the same allocation.
        let fx = hall.take_effects();
        let d = hall.picture(Part::All);
        let sent = fx.deltas.iter().find_map(|d| match d {
            proto::Delta::Table(t) if t.table == 1 => Some(t.clone()),
            _ => None,
        });
        let sent = sent.expect("table 1's delta");
        assert!(
            Arc::ptr_eq(&sent, &d.tables[0]),
            "the delta shares the kept view"
        );
        assert_eq!(d.into_view(5), hall.snapshot(5));
        // Discarded unseen: forgotten, then built again.
        event(&mut hall, 1, 3, press(Side::Black));
        hall.discard_effects();
        assert_eq!(hall.views.len(), 1);
        assert_eq!(hall.picture(Part::All).into_view(5), hall.snapshot(5));
        let e = hall.picture(Part::Tables).into_view(5);
        assert!(e.alerts.is_empty() && e.claims.is_empty() && e.audit.is_empty());
        assert_eq!(e.tables, hall.snapshot(5).tables);
    }

    /// A press by `by`, without a move.
    fn press(by: Side) -> TableEvent {
        TableEvent::ClockPress {
            by,
            mv: None,
            red_ms: 599_000,
            black_ms: 599_000,
            terminal_mono_ms: 1_000,
        }
    }
}
