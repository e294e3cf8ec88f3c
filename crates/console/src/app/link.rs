//! One hall the console follows ([`Link`]): who the arbiter is there (the
//! role of that hall's token), the hall as its server last described it,
//! and the state of the link. A console of one hall has one link; a
//! console over several halls one per hall, each fed by its own network
//! task. Applying a server message to a link changes only that hall.
//!
//! A table's step (`Delta::TableStep`, protocol 12) is applied to the view
//! the link holds; one whose base the link does not hold (it cannot be
//! placed: the server and the console disagree) leaves the table as it
//! was, marks it stale ([`Link::stale`]: its later steps are left alone
//! too) and asks for a fresh picture: the console subscribes again
//! (`App::on_server_from`), and the snapshot replaces the hall.

use super::ConnState;
use proto::{Delta, HallInfo, HallView, Role, TableView};

/// One hall's part of the console state.
#[derive(Debug, Clone)]
pub struct Link {
    /// Short name shown in the hall column (empty for a console of one hall).
    pub name: String,
    /// The signed-in role in this hall (from its server's `HelloOk`).
    pub role: Option<Role>,
    pub hall_info: Option<HallInfo>,
    /// The hall as last known (kept while disconnected, marked stale).
    pub hall: Option<HallView>,
    pub conn: ConnState,
    /// Why the link last failed (shown while retrying).
    pub last_error: Option<super::LinkError>,
    /// Local ms and this server's wall ms at its last snapshot, to
    /// estimate its clock.
    pub clock_ref: (u64, u64),
    /// A snapshot arriving in pages (protocol 8), shown once complete.
    pub paging: proto::paging::Assembly,
    /// Tables whose step could not be applied: their view is old until
    /// the next snapshot (a fresh picture is asked for once, [`Resync`]).
    pub stale: std::collections::BTreeSet<u16>,
    /// Where asking for a fresh picture stands.
    pub resync: Resync,
}

/// Whether the link needs a fresh picture of its hall (a step it could
/// not apply) and whether it asked for one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Resync {
    /// The picture is whole.
    #[default]
    Whole,
    /// A step did not apply: to ask for a fresh picture.
    Needed,
    /// Asked (subscribed again); waiting for the snapshot.
    Asked,
}

impl Link {
    /// A hall not yet connected.
    pub fn new(name: impl Into<String>) -> Link {
        Link {
            name: name.into(),
            role: None,
            hall_info: None,
            hall: None,
            conn: ConnState::Connecting { attempt: 1 },
            last_error: None,
            clock_ref: (0, 0),
            paging: proto::paging::Assembly::default(),
            stale: Default::default(),
            resync: Resync::Whole,
        }
    }

    /// A whole picture came (a snapshot): nothing stale any more.
    pub fn pictured(&mut self) {
        self.stale.clear();
        self.resync = Resync::Whole;
    }

    /// This server's wall clock (Unix ms) at local time `now_ms`.
    pub fn server_now_ms(&self, now_ms: u64) -> u64 {
        let (local, server) = self.clock_ref;
        server.saturating_add(now_ms.saturating_sub(local))
    }

    /// A table by number.
    pub fn table(&self, table: u16) -> Option<&TableView> {
        self.hall.as_ref()?.tables.iter().find(|t| t.table == table)
    }

    /// The connection state changed (from the network task).
    pub fn set_conn(&mut self, conn: ConnState) {
        match &conn {
            ConnState::Disconnected { error, .. } | ConnState::Refused { error } => {
                self.last_error = Some(error.clone())
            }
            ConnState::Connected => self.last_error = None,
            ConnState::Connecting { .. } => {}
        }
        if conn != ConnState::Connected {
            // The pages of a snapshot cut off by the link's loss.
            self.paging.reset();
            // The next connection subscribes afresh: no need to ask.
            if self.resync == Resync::Needed {
                self.resync = Resync::Asked;
            }
        }
        self.conn = conn;
    }

    /// Applies a delta to the hall; the audit entry, if it was one, for
    /// the open table's log.
    pub fn apply_delta(&mut self, delta: Delta) -> Option<proto::AuditEntry> {
        let Some(hall) = &mut self.hall else {
            // A delta before any snapshot cannot be placed; the next
            // snapshot carries it.
            return None;
        };
        const KEEP: usize = 2_000;
        match delta {
            Delta::Table(t) => {
                self.stale.remove(&t.table);
                // The server sends the tables in number order, so a
                // table's view is found by halving (a 10,000-table hall
                // sends thousands of views a second); a hall not in order
                // is still served right by the scan.
                let at = match hall.tables.binary_search_by_key(&t.table, |x| x.table) {
                    Ok(i) => Some(i),
                    Err(_) => hall.tables.iter().position(|x| x.table == t.table),
                };
                // Decoded from the wire, the view is this console's alone.
                let t = std::sync::Arc::unwrap_or_clone(t);
                match at {
                    Some(i) => hall.tables[i] = t,
                    None => hall.tables.push(t),
                }
            }
            Delta::Alert(a) => {
                if let Some(slot) = hall.alerts.iter_mut().find(|x| x.id == a.id) {
                    *slot = a;
                } else {
                    hall.alerts.push(a);
                }
                if hall.alerts.len() > KEEP {
                    let cut = hall.alerts.len() - KEEP;
                    hall.alerts.drain(..cut);
                }
            }
            Delta::AlertAcked { id, by } => {
                if let Some(a) = hall.alerts.iter_mut().find(|x| x.id == id) {
                    a.acked_by = Some(by);
                }
            }
            Delta::Claim(c) => {
                if let Some(slot) = hall.claims.iter_mut().find(|x| x.id == c.id) {
                    *slot = c;
                } else {
                    hall.claims.push(c);
                }
            }
            Delta::Audit(e) => {
                hall.audit.push(e.clone());
                if hall.audit.len() > KEEP {
                    let cut = hall.audit.len() - KEEP;
                    hall.audit.drain(..cut);
                }
                return Some(e);
            }
            Delta::HallPaused(p) => hall.paused = p,
            Delta::TableStep(step) => {
                if self.stale.contains(&step.table) {
                    return None;
                }
                if let Err(e) = step.apply_to(&mut hall.tables) {
                    tracing::warn!(error = %e, hall = %self.name, "a table step does not apply; asking for a fresh picture");
                    self.stale.insert(step.table);
                    if self.resync == Resync::Whole {
                        self.resync = Resync::Needed;
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    /// The tables' numbers and plies, in the order the link holds them.
    fn held(l: &Link) -> Vec<(u16, u32)> {
        l.hall
            .as_ref()
            .map(|h| h.tables.iter().map(|t| (t.table, t.plies)).collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_table_view_replaces_its_table_in_a_hall_in_order_or_not() {
        for order in [[1u16, 2, 3, 4], [3, 1, 4, 2]] {
            let mut l = Link::new("hall");
            let mut hall = fixture::hall(1);
            hall.tables = order
                .iter()
                .map(|&n| fixture::table(n, "红", "黑", 0))
                .collect();
            l.hall = Some(hall);
            for n in [4u16, 1, 3, 2, 1] {
                l.apply_delta(Delta::Table(std::sync::Arc::new(fixture::table(
                    n,
                    "红",
                    "黑",
                    usize::from(n) * 2,
                ))));
            }
            // Every table replaced where it stands, none twice; a table the
            // hall did not hold is added at the end.
            l.apply_delta(Delta::Table(std::sync::Arc::new(fixture::table(
                9, "红", "黑", 1,
            ))));
            let want: Vec<(u16, u32)> = order
                .iter()
                .map(|&n| (n, u32::from(n) * 2))
                .chain([(9, 1)])
                .collect();
            assert_eq!(held(&l), want, "hall in the order {order:?}");
        }
    }

    /// Table `n`'s step from `from` plies of the fixture's opening to `to`.
    fn step(n: u16, from: usize, to: usize) -> proto::TableStep {
        let (a, b) = (
            fixture::table(n, "红", "黑", from),
            fixture::table(n, "红", "黑", to),
        );
        proto::TableStep::between(&a, &b).expect("a step")
    }

    #[test]
    fn steps_apply_and_one_that_does_not_fit_asks_once_for_a_fresh_picture() {
        use crate::app::Resync;
        use proto::{Command, Role, ServerMsg};
        let mut hall = fixture::hall(1);
        hall.tables = (1..=3).map(|n| fixture::table(n, "红", "黑", 2)).collect();
        let mut app = fixture::app(crate::Lang::En, Role::Chief, hall.clone());
        // Steps of tables 1 and 3: each the view the whole one would be.
        let out = app.on_server(ServerMsg::Deltas(vec![
            Delta::TableStep(step(1, 2, 4)),
            Delta::TableStep(step(3, 2, 3)),
        ]));
        assert!(out.is_empty());
        let link = &app.links[0];
        assert_eq!(link.table(1), Some(&fixture::table(1, "红", "黑", 4)));
        assert_eq!(link.table(3), Some(&fixture::table(3, "红", "黑", 3)));
        // A step from a base the console does not hold (table 2 is at 2
        // plies, not 3): the table left as it was, marked stale, and the
        // console subscribes again — once.
        let out = app.on_server(ServerMsg::Deltas(vec![
            Delta::TableStep(step(2, 3, 4)),
            Delta::TableStep(step(1, 4, 5)),
        ]));
        let commands: Vec<&Command> = out.iter().map(|o| &o.command).collect();
        assert_eq!(commands, [&Command::Unsubscribe, &Command::Subscribe]);
        let link = &app.links[0];
        assert_eq!(link.table(2), Some(&fixture::table(2, "红", "黑", 2)));
        assert_eq!(link.table(1), Some(&fixture::table(1, "红", "黑", 5)));
        assert!(link.stale.contains(&2) && link.resync == Resync::Asked);
        // Its later steps are left alone, and nothing asked twice.
        let out = app.on_server(ServerMsg::Delta(Delta::TableStep(step(2, 4, 5))));
        assert!(out.is_empty());
        assert_eq!(
            app.links[0].table(2),
            Some(&fixture::table(2, "红", "黑", 2))
        );
        // The fresh snapshot: whole again, and steps apply.
        hall.tables[1] = fixture::table(2, "红", "黑", 5);
        let _ = app.on_server(ServerMsg::Snapshot(Box::new(hall)));
        assert!(app.links[0].stale.is_empty() && app.links[0].resync == Resync::Whole);
        let out = app.on_server(ServerMsg::Delta(Delta::TableStep(step(2, 5, 6))));
        assert!(out.is_empty());
        assert_eq!(
            app.links[0].table(2),
            Some(&fixture::table(2, "红", "黑", 6))
        );
    }
}
