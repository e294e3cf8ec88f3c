//! The console's application state (状态): what the arbiter sees and where
//! they are, fed by server messages and keys, read by the renderer.
//!
//! The state is plain data. [`App::on_server`] applies a server message,
//! [`App::on_key`] (in `keys.rs`) turns a key into state changes and
//! outgoing commands, and `ui::draw` renders it without changing it. Time
//! comes in from outside ([`App::tick`]) so that tests are deterministic:
//! `now_ms` is the console's monotonic clock, and the server's wall clock is
//! estimated from the last snapshot (`server_now_ms`).

mod dialog;
mod keys;
pub mod move_limit;
pub mod perm;
mod rows;

pub use dialog::{Choice, Dialog, DialogStep, Pending};
pub use rows::{visible_count, visible_tables, SortKey};

use crate::i18n::Lang;
use proto::{
    Alert, ClaimView, Command, Delta, HallInfo, HallView, Role, ServerMsg, TableLog, TableView,
};

/// Which screen is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The hall overview (with side panels on a large screen).
    Hall,
    /// The alerts list.
    Alerts,
    /// The claims queue.
    Claims,
    /// One table in detail.
    Detail(u16),
}

/// How the move list is written (defined beside its writers).
pub use crate::notation::Notation;

/// The link to the server, as the console shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnState {
    /// Trying to connect (first attempt or retry `attempt`).
    Connecting { attempt: u32 },
    /// Signed in and subscribed.
    Connected,
    /// Lost; the next attempt is scheduled.
    Disconnected { attempt: u32, error: String },
}

/// A short message in the status line (command sent, refused, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
    /// Local monotonic ms when it was posted.
    pub at_ms: u64,
}

/// A command ready to send, with the id that its reply will quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    pub id: u64,
    pub command: Command,
}

/// How long a notice stays in the status line.
pub const NOTICE_MS: u64 = 8_000;

/// The whole console state.
#[derive(Debug, Clone)]
pub struct App {
    pub lang: Lang,
    /// The signed-in role (from the server's `HelloOk`).
    pub role: Option<Role>,
    pub hall_info: Option<HallInfo>,
    /// The hall as last known (kept while disconnected, marked stale).
    pub hall: Option<HallView>,
    pub conn: ConnState,
    /// Why the link last failed (shown while retrying).
    pub last_error: Option<String>,
    pub view: View,
    /// The help overlay is open.
    pub help: bool,
    pub help_scroll: u16,
    pub sort: SortKey,
    pub filter: String,
    /// Selected row in the hall overview (index into the visible rows).
    pub hall_sel: usize,
    /// First visible row of the hall overview.
    pub hall_offset: usize,
    pub alert_sel: usize,
    pub claim_sel: usize,
    /// Scroll of the detail view's log.
    pub log_scroll: u16,
    pub dialog: Option<Dialog>,
    pub notation: Notation,
    pub notice: Option<Notice>,
    /// The open table's log, when the server sent it.
    pub table_log: Option<TableLog>,
    /// Local monotonic ms (set by [`App::tick`]).
    pub now_ms: u64,
    /// Local ms and server wall ms at the last snapshot, to estimate the
    /// server's clock.
    pub clock_ref: (u64, u64),
    /// Offset of local time from UTC, seconds (for alert times).
    pub utc_offset_s: i32,
    /// Terminal size (columns, rows), for paging.
    pub screen: (u16, u16),
    /// Colour or plain ([`crate::colours::Theme`]).
    pub theme: crate::colours::Theme,
    pub quit: bool,
    next_id: u64,
    /// Commands sent and not yet answered: id → description.
    pub in_flight: Vec<(u64, String)>,
}

impl App {
    /// A fresh console in `lang`, not yet connected.
    pub fn new(lang: Lang) -> App {
        App {
            lang,
            role: None,
            hall_info: None,
            hall: None,
            conn: ConnState::Connecting { attempt: 1 },
            last_error: None,
            view: View::Hall,
            help: false,
            help_scroll: 0,
            sort: SortKey::Table,
            filter: String::new(),
            hall_sel: 0,
            hall_offset: 0,
            alert_sel: 0,
            claim_sel: 0,
            log_scroll: 0,
            dialog: None,
            notation: Notation::Chinese,
            notice: None,
            table_log: None,
            now_ms: 0,
            clock_ref: (0, 0),
            utc_offset_s: 0,
            screen: (80, 24),
            theme: crate::colours::Theme::Color,
            quit: false,
            next_id: 1,
            in_flight: Vec::new(),
        }
    }

    /// Sets the local monotonic time; returns true when the visible second
    /// changed or a notice expired (the caller redraws).
    pub fn tick(&mut self, now_ms: u64) -> bool {
        let changed = now_ms / 1000 != self.now_ms / 1000;
        self.now_ms = now_ms;
        if let Some(n) = &self.notice {
            if now_ms.saturating_sub(n.at_ms) > NOTICE_MS {
                self.notice = None;
                return true;
            }
        }
        changed
    }

    /// The server's wall clock now (Unix ms), estimated from the last
    /// snapshot and the local time since.
    pub fn server_now_ms(&self) -> u64 {
        let (local, server) = self.clock_ref;
        server.saturating_add(self.now_ms.saturating_sub(local))
    }

    /// Whether the console has a live link to the server.
    pub fn connected(&self) -> bool {
        self.conn == ConnState::Connected
    }

    /// The connection state changed (from the network task).
    pub fn set_conn(&mut self, conn: ConnState) {
        match &conn {
            ConnState::Disconnected { error, .. } => self.last_error = Some(error.clone()),
            ConnState::Connected => self.last_error = None,
            ConnState::Connecting { .. } => {}
        }
        self.conn = conn;
    }

    /// Posts a status-line notice.
    pub fn notify(&mut self, text: impl Into<String>, error: bool) {
        self.notice = Some(Notice {
            text: text.into(),
            error,
            at_ms: self.now_ms,
        });
    }

    /// Wraps `command` with a fresh request id and remembers it.
    pub fn outgoing(&mut self, command: Command, what: impl Into<String>) -> Outgoing {
        let id = self.next_id;
        self.next_id += 1;
        self.in_flight.push((id, what.into()));
        if self.in_flight.len() > 64 {
            self.in_flight.remove(0);
        }
        Outgoing { id, command }
    }

    /// Wraps a request whose answer is data, not `CommandOk` (the table
    /// log): not tracked as in flight.
    pub fn request(&mut self, command: Command) -> Outgoing {
        let id = self.next_id;
        self.next_id += 1;
        Outgoing { id, command }
    }

    /// A table by number.
    pub fn table(&self, table: u16) -> Option<&TableView> {
        self.hall.as_ref()?.tables.iter().find(|t| t.table == table)
    }

    /// Alerts the role sees, newest first.
    pub fn alerts(&self) -> Vec<&Alert> {
        let Some(hall) = &self.hall else {
            return Vec::new();
        };
        let mut v: Vec<&Alert> = hall
            .alerts
            .iter()
            .filter(|a| perm::sees_table(self.role.as_ref(), a.table))
            .collect();
        v.sort_by(|a, b| b.at_ms.cmp(&a.at_ms).then(b.id.cmp(&a.id)));
        v
    }

    /// Claims the role sees: open ones (pending, escalated) first, oldest
    /// first; then ruled ones, newest first.
    pub fn claims(&self) -> Vec<&ClaimView> {
        let Some(hall) = &self.hall else {
            return Vec::new();
        };
        let mut v: Vec<&ClaimView> = hall
            .claims
            .iter()
            .filter(|c| perm::sees_table(self.role.as_ref(), c.table))
            .collect();
        v.sort_by(|a, b| {
            let open = |c: &ClaimView| c.status.is_open();
            open(b)
                .cmp(&open(a))
                .then_with(|| {
                    if open(a) {
                        a.raised_at_ms.cmp(&b.raised_at_ms)
                    } else {
                        b.raised_at_ms.cmp(&a.raised_at_ms)
                    }
                })
                .then(a.id.cmp(&b.id))
        });
        v
    }

    /// Unacknowledged alerts of a table.
    pub fn open_alerts(&self, table: u16) -> usize {
        self.hall.as_ref().map_or(0, |h| {
            h.alerts
                .iter()
                .filter(|a| a.table == table && a.acked_by.is_none())
                .count()
        })
    }

    /// Applies one server message; returns commands to send (the open
    /// table's log again after a fresh snapshot).
    pub fn on_server(&mut self, msg: ServerMsg) -> Vec<Outgoing> {
        match msg {
            ServerMsg::HelloOk(ok) => {
                self.role = Some(ok.role);
                self.hall_info = Some(ok.hall);
                self.clock_ref = (self.now_ms, ok.server_ms);
            }
            ServerMsg::Snapshot(hall) => {
                self.clock_ref = (self.now_ms, hall.server_ms);
                self.hall = Some(*hall);
                self.conn = ConnState::Connected;
                self.clamp_selections();
                if let View::Detail(t) = self.view {
                    return vec![self.request(Command::GetTableLog { table: t })];
                }
            }
            ServerMsg::Delta(delta) => self.apply_delta(delta),
            ServerMsg::CommandOk { id, note } => {
                let what = self.take_in_flight(id);
                let s = self.lang.s();
                let text = match (what, note.is_empty()) {
                    (Some(w), true) => format!("{w}: {}", s.done),
                    (Some(w), false) => format!("{w}: {note}"),
                    (None, _) => note,
                };
                if !text.is_empty() {
                    self.notify(text, false);
                }
            }
            ServerMsg::Error(err) => {
                let what = match err.re {
                    Some(proto::RequestRef::Command { id }) => self.take_in_flight(id),
                    _ => None,
                };
                let s = self.lang.s();
                let text = match what {
                    Some(w) => {
                        format!("{w}: {} — {} ({})", s.server_refused, err.message, err.code)
                    }
                    None => format!("{} — {} ({})", s.server_refused, err.message, err.code),
                };
                self.notify(text, true);
            }
            ServerMsg::TableLog(log) => {
                if self.view == View::Detail(log.table) {
                    self.table_log = Some(log);
                }
            }
            ServerMsg::Ack(_) | ServerMsg::Control { .. } | ServerMsg::Pong { .. } => {}
        }
        Vec::new()
    }

    fn take_in_flight(&mut self, id: u64) -> Option<String> {
        let pos = self.in_flight.iter().position(|(i, _)| *i == id)?;
        Some(self.in_flight.remove(pos).1)
    }

    fn apply_delta(&mut self, delta: Delta) {
        let Some(hall) = &mut self.hall else {
            // A delta before any snapshot cannot be placed; the next
            // snapshot carries it.
            return;
        };
        match delta {
            Delta::Table(t) => {
                if let Some(slot) = hall.tables.iter_mut().find(|x| x.table == t.table) {
                    *slot = t;
                } else {
                    hall.tables.push(t);
                }
            }
            Delta::Alert(a) => {
                if let Some(slot) = hall.alerts.iter_mut().find(|x| x.id == a.id) {
                    *slot = a;
                } else {
                    hall.alerts.push(a);
                }
                const KEEP: usize = 2_000;
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
                if let (View::Detail(t), Some(log)) = (self.view, &mut self.table_log) {
                    if e.table == Some(t) && !log.audit.iter().any(|x| x.id == e.id) {
                        log.audit.push(e.clone());
                    }
                }
                hall.audit.push(e);
                const KEEP: usize = 2_000;
                if hall.audit.len() > KEEP {
                    let cut = hall.audit.len() - KEEP;
                    hall.audit.drain(..cut);
                }
            }
            Delta::HallPaused(p) => hall.paused = p,
        }
        self.clamp_selections();
    }

    /// Keeps every selection inside its list after the lists changed.
    pub fn clamp_selections(&mut self) {
        let rows = visible_count(self);
        self.hall_sel = self.hall_sel.min(rows.saturating_sub(1));
        self.hall_offset = self.hall_offset.min(self.hall_sel);
        let role = self.role.as_ref();
        let (alerts, claims) = self.hall.as_ref().map_or((0, 0), |h| {
            (
                h.alerts
                    .iter()
                    .filter(|a| perm::sees_table(role, a.table))
                    .count(),
                h.claims
                    .iter()
                    .filter(|c| perm::sees_table(role, c.table))
                    .count(),
            )
        });
        self.alert_sel = self.alert_sel.min(alerts.saturating_sub(1));
        self.claim_sel = self.claim_sel.min(claims.saturating_sub(1));
    }

    /// The table number of the selected hall row, or the open table.
    pub fn selected_table(&self) -> Option<u16> {
        match self.view {
            View::Detail(t) => Some(t),
            View::Claims => self.claims().get(self.claim_sel).map(|c| c.table),
            View::Alerts => self.alerts().get(self.alert_sel).map(|a| a.table),
            View::Hall => visible_tables(self).get(self.hall_sel).map(|t| t.table),
        }
    }

    /// Rows of the hall table that fit on screen (header, bars, borders
    /// taken off), for paging and scrolling.
    pub fn hall_page_rows(&self) -> usize {
        usize::from(self.screen.1).saturating_sub(6).max(1)
    }
}

impl App {
    /// Both clocks of `t` now (Red, Black), the running side extrapolated
    /// from the server's reading at `clock_at_ms`; a side whose flag fell
    /// shows zero.
    pub fn live_times(&self, t: &TableView) -> (i64, i64) {
        let running = match (
            &t.status,
            self.hall.as_ref().and_then(|h| h.paused.as_ref()),
        ) {
            (proto::TableStatus::Playing, None) => t.clock.running,
            _ => None,
        };
        let elapsed = self.server_now_ms().saturating_sub(t.clock_at_ms);
        let side_ms = |ms: u64, side: proto::Side| {
            let ms = i64::try_from(ms).unwrap_or(i64::MAX);
            if t.flag == Some(side) {
                0
            } else {
                crate::clock::live_ms(ms, running == Some(side), elapsed)
            }
        };
        (
            side_ms(t.clock.red_ms, proto::Side::Red),
            side_ms(t.clock.black_ms, proto::Side::Black),
        )
    }
}
