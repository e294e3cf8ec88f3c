//! The console's application state (状态): what the arbiter sees and where
//! they are, fed by server messages and keys, read by the renderer.
//!
//! The state is plain data. [`App::on_server`] applies a server message,
//! [`App::on_key`] (in `keys.rs`) turns a key into state changes and
//! outgoing commands, and `ui::draw` renders it without changing it. Time
//! comes in from outside ([`App::tick`]) so that tests are deterministic:
//! `now_ms` is the console's monotonic clock, and the server's wall clock is
//! estimated from the last snapshot (`server_now_ms`).
//!
//! Each hall the console follows is a [`Link`] (one for a console of one
//! hall; one per hall for a console over several halls, README "One
//! console for several halls"). Tables, alerts and claims are listed
//! together, each with its hall's index; the hall of the selected row is
//! the [`App::focus`], where a table is opened and every action goes
//! ([`Outgoing::hall`]), judged by that hall's role.

mod correct;
mod dialog;
mod keys;
mod link;
pub mod move_limit;
mod players;
pub mod round;
mod round_keys;

mod rows;

pub use dialog::{Choice, Dialog, DialogStep, Entry, Pending};
pub use link::{Link, Resync};
pub use rows::{table_rows, visible_count, visible_tables, SortKey};

use crate::i18n::{Lang, Words};
use crate::perm;
use proto::{Alert, ClaimView, Command, HallInfo, HallView, Role, ServerMsg, TableLog, TableView};

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
    /// The next round's proposal (chief only), until it is published.
    Round,
}

/// How the move list is written (defined beside its writers).
pub use crate::notation::Notation;

/// Why a link is down or refused: the transport's own words, or the
/// server's typed refusal of the hello (wrong version, unknown token, role
/// refused), rendered in the console's language when drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// The transport's words (QUIC, TLS, I/O: the English their crates
    /// give; an address, a time-out).
    Words(String),
    /// The server's refusal (an error reply to the hello): its id and
    /// typed arguments, and its code.
    Refused(proto::ErrorReply),
}

impl LinkError {
    /// The error in `lang`: a refusal worded by the catalogues (why, then
    /// the code in brackets), the transport's words as they are.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            LinkError::Words(w) => w.clone(),
            LinkError::Refused(r) => ::i18n::replies::error_text(lang, r),
        }
    }

    /// The error as a message (a command answered locally quotes it).
    pub fn message(&self) -> proto::Message {
        match self {
            LinkError::Words(w) => proto::refusals::link_words(w),
            LinkError::Refused(r) => ::i18n::replies::refused(r),
        }
    }
}

impl From<&str> for LinkError {
    fn from(words: &str) -> Self {
        LinkError::Words(words.to_string())
    }
}

impl From<String> for LinkError {
    fn from(words: String) -> Self {
        LinkError::Words(words)
    }
}

/// The link to the server, as the console shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnState {
    /// Trying to connect (first attempt or retry `attempt`).
    Connecting { attempt: u32 },
    /// Signed in and subscribed.
    Connected,
    /// Lost; the next attempt is scheduled.
    Disconnected { attempt: u32, error: LinkError },
    /// Refused for good (the token, the role, the protocol version, the
    /// certificate's fingerprint): trying again cannot change it, so the
    /// link stops; `error` names the cause.
    Refused { error: LinkError },
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
    /// The index of the hall whose server it goes to ([`App::links`]).
    pub hall: usize,
}

/// How long a notice stays in the status line.
pub const NOTICE_MS: u64 = 8_000;

/// The whole console state.
#[derive(Debug, Clone)]
pub struct App {
    pub lang: Lang,
    /// The halls followed, in the config's order; never empty.
    pub links: Vec<Link>,
    /// The hall the arbiter works in: the open table's, the one an action
    /// goes to (set from the selected row when a table is opened or an
    /// action starts). Always 0 for a console of one hall.
    pub focus: usize,
    /// Show only this hall's tables, alerts and claims (`H` cycles).
    pub hall_filter: Option<usize>,
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
    /// The request id of the last correction sent (`correct.rs`: its
    /// answer offers to withdraw an unstarted round).
    pub correction: Option<u64>,
    /// The last withdrawal of a player sent: its request id, the player
    /// and the round they leave from (`players.rs`: its answer may offer
    /// to withdraw the unstarted round and pair it again).
    pub player_withdrawal: Option<(u64, String, u16)>,
    /// The request id of the round withdrawn to pair it again without a
    /// withdrawn player (`players.rs`: its answer pairs the next round).
    pub repairing: Option<u64>,
    /// The next round's draft, while the chief reviews it.
    pub next_round: Option<round::Draft>,
}

impl App {
    /// A fresh console of one hall in `lang`, not yet connected.
    pub fn new(lang: Lang) -> App {
        App::with_halls(lang, vec![String::new()])
    }

    /// A fresh console over the halls named `names` (at least one).
    pub fn with_halls(lang: Lang, names: Vec<String>) -> App {
        let mut links: Vec<Link> = names.into_iter().map(Link::new).collect();
        if links.is_empty() {
            links.push(Link::new(""));
        }
        App {
            lang,
            links,
            focus: 0,
            hall_filter: None,
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
            utc_offset_s: 0,
            screen: (80, 24),
            theme: crate::colours::Theme::Color,
            quit: false,
            next_id: 1,
            in_flight: Vec::new(),
            correction: None,
            player_withdrawal: None,
            repairing: None,
            next_round: None,
        }
    }

    /// Whether the console follows several halls (the hall column shows).
    pub fn multi(&self) -> bool {
        self.links.len() > 1
    }

    /// The focused hall's link (the only one of a single-hall console).
    pub fn link(&self) -> &Link {
        let i = self.focus.min(self.links.len().saturating_sub(1));
        &self.links[i]
    }

    /// The focused hall as last known.
    pub fn hall(&self) -> Option<&HallView> {
        self.link().hall.as_ref()
    }

    /// The role in the focused hall.
    pub fn role(&self) -> Option<&Role> {
        self.link().role.as_ref()
    }

    /// The role in hall `hall`.
    pub fn role_in(&self, hall: usize) -> Option<&Role> {
        self.links.get(hall)?.role.as_ref()
    }

    /// What the focused hall's server said about itself.
    pub fn hall_info(&self) -> Option<&HallInfo> {
        self.link().hall_info.as_ref()
    }

    /// Hall `hall`'s name ("" for a console of one hall).
    pub fn hall_name(&self, hall: usize) -> &str {
        self.links.get(hall).map_or("", |l| l.name.as_str())
    }

    /// Whether hall `hall` is shown (the hall filter).
    pub fn shows_hall(&self, hall: usize) -> bool {
        self.hall_filter.is_none_or(|h| h == hall)
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

    /// The focused hall's server clock now (Unix ms), estimated from its
    /// last snapshot and the local time since.
    pub fn server_now_ms(&self) -> u64 {
        self.link().server_now_ms(self.now_ms)
    }

    /// Hall `hall`'s server clock now (Unix ms).
    pub fn server_now_ms_in(&self, hall: usize) -> u64 {
        self.links
            .get(hall)
            .map_or(0, |l| l.server_now_ms(self.now_ms))
    }

    /// Whether the console has a live link to every hall.
    pub fn connected(&self) -> bool {
        self.links.iter().all(|l| l.conn == ConnState::Connected)
    }

    /// Whether hall `hall`'s link is live.
    pub fn connected_to(&self, hall: usize) -> bool {
        self.links
            .get(hall)
            .is_some_and(|l| l.conn == ConnState::Connected)
    }

    /// The first hall's connection state changed.
    pub fn set_conn(&mut self, conn: ConnState) {
        self.set_conn_in(0, conn);
    }

    /// Hall `hall`'s connection state changed (from its network task).
    pub fn set_conn_in(&mut self, hall: usize, conn: ConnState) {
        if let Some(l) = self.links.get_mut(hall) {
            l.set_conn(conn);
        }
    }

    /// Why the console stops: every hall it follows refused it for good
    /// (the causes, one per hall); `None` while some hall may still answer.
    pub fn refused(&self) -> Option<String> {
        let mut causes = Vec::new();
        for (i, l) in self.links.iter().enumerate() {
            match &l.conn {
                ConnState::Refused { error } => {
                    causes.push(self.at_hall(i, &error.text(self.lang)))
                }
                _ => return None,
            }
        }
        (!causes.is_empty()).then(|| causes.join("; "))
    }

    /// Posts a status-line notice.
    pub fn notify(&mut self, text: impl Into<String>, error: bool) {
        self.notice = Some(Notice {
            text: text.into(),
            error,
            at_ms: self.now_ms,
        });
    }

    /// Wraps `command` for the focused hall with a fresh request id and
    /// remembers it.
    pub fn outgoing(&mut self, command: Command, what: impl Into<String>) -> Outgoing {
        self.outgoing_to(self.focus, command, what)
    }

    /// Wraps `command` for hall `hall` with a fresh request id and
    /// remembers it.
    pub fn outgoing_to(
        &mut self,
        hall: usize,
        command: Command,
        what: impl Into<String>,
    ) -> Outgoing {
        let id = self.next_id;
        self.next_id += 1;
        if matches!(command, Command::CorrectResult { .. }) {
            self.correction = Some(id);
        }
        if let Command::WithdrawPlayer {
            player, from_round, ..
        } = &command
        {
            self.player_withdrawal = Some((id, player.clone(), *from_round));
        }
        self.in_flight.push((id, what.into()));
        if self.in_flight.len() > 64 {
            self.in_flight.remove(0);
        }
        Outgoing { id, command, hall }
    }

    /// Wraps a request to the focused hall whose answer is data, not
    /// `CommandOk` (the table log): not tracked as in flight.
    pub fn request(&mut self, command: Command) -> Outgoing {
        let id = self.next_id;
        self.next_id += 1;
        Outgoing {
            id,
            command,
            hall: self.focus,
        }
    }

    /// A table of the focused hall by number.
    pub fn table(&self, table: u16) -> Option<&TableView> {
        self.link().table(table)
    }

    /// A table of hall `hall` by number.
    pub fn table_in(&self, hall: usize, table: u16) -> Option<&TableView> {
        self.links.get(hall)?.table(table)
    }

    /// Alerts the roles see, newest first, each with its hall's index.
    pub fn alert_rows(&self) -> Vec<(usize, &Alert)> {
        let mut v: Vec<(usize, &Alert)> = Vec::new();
        for (i, l) in self.links.iter().enumerate() {
            let Some(hall) = &l.hall else { continue };
            if !self.shows_hall(i) {
                continue;
            }
            v.extend(
                hall.alerts
                    .iter()
                    .filter(|a| perm::sees_table(l.role.as_ref(), a.table))
                    .map(|a| (i, a)),
            );
        }
        v.sort_by(|(ha, a), (hb, b)| b.at_ms.cmp(&a.at_ms).then(ha.cmp(hb)).then(b.id.cmp(&a.id)));
        v
    }

    /// Alerts the roles see, newest first.
    pub fn alerts(&self) -> Vec<&Alert> {
        self.alert_rows().into_iter().map(|(_, a)| a).collect()
    }

    /// Claims the roles see, each with its hall's index: open ones
    /// (pending, escalated) first, oldest first; then ruled ones, newest
    /// first.
    pub fn claim_rows(&self) -> Vec<(usize, &ClaimView)> {
        let mut v: Vec<(usize, &ClaimView)> = Vec::new();
        for (i, l) in self.links.iter().enumerate() {
            let Some(hall) = &l.hall else { continue };
            if !self.shows_hall(i) {
                continue;
            }
            v.extend(
                hall.claims
                    .iter()
                    .filter(|c| perm::sees_table(l.role.as_ref(), c.table))
                    .map(|c| (i, c)),
            );
        }
        v.sort_by(|(ha, a), (hb, b)| {
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
                .then(ha.cmp(hb))
                .then(a.id.cmp(&b.id))
        });
        v
    }

    /// Claims the roles see, in queue order.
    pub fn claims(&self) -> Vec<&ClaimView> {
        self.claim_rows().into_iter().map(|(_, c)| c).collect()
    }

    /// Unacknowledged alerts of a table of the focused hall.
    pub fn open_alerts(&self, table: u16) -> usize {
        self.open_alerts_in(self.focus, table)
    }

    /// Unacknowledged alerts of table `table` of hall `hall`.
    pub fn open_alerts_in(&self, hall: usize, table: u16) -> usize {
        self.links
            .get(hall)
            .and_then(|l| l.hall.as_ref())
            .map_or(0, |h| {
                h.alerts
                    .iter()
                    .filter(|a| a.table == table && a.acked_by.is_none())
                    .count()
            })
    }

    /// Applies one message from the first hall's server.
    pub fn on_server(&mut self, msg: ServerMsg) -> Vec<Outgoing> {
        self.on_server_from(0, msg)
    }

    /// Applies one message from hall `hall`'s server; returns commands to
    /// send (the open table's log again after a fresh snapshot).
    pub fn on_server_from(&mut self, hall: usize, msg: ServerMsg) -> Vec<Outgoing> {
        let now = self.now_ms;
        let Some(link) = self.links.get_mut(hall) else {
            return Vec::new();
        };
        match msg {
            ServerMsg::HelloOk(ok) => {
                link.role = Some(ok.role);
                link.hall_info = Some(ok.hall);
                link.clock_ref = (now, ok.server_ms);
            }
            ServerMsg::Snapshot(view) => {
                link.paging.reset();
                return self.snapshot(hall, *view);
            }
            ServerMsg::SnapshotPage(page) => match link.paging.take(*page) {
                Ok(Some(view)) => return self.snapshot(hall, view),
                Ok(None) => {}
                Err(e) => {
                    let text = self.at_hall(hall, &e.to_string());
                    self.notify(text, true);
                }
            },
            ServerMsg::Delta(delta) => {
                self.apply_delta(hall, delta);
                self.clamp_selections();
                return self.resync(hall);
            }
            // A fan-out tick's deltas (protocol 11), in order.
            ServerMsg::Deltas(deltas) => {
                for delta in deltas {
                    self.apply_delta(hall, delta);
                }
                self.clamp_selections();
                return self.resync(hall);
            }
            ServerMsg::RoundProposal { id, proposal } => {
                self.take_in_flight(id);
                self.next_round = Some(round::Draft::new(*proposal));
                self.view = View::Round;
            }
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
                if self.correction == Some(id) {
                    self.correction = None;
                    self.offer_withdrawal();
                }
                if let Some((_, player, from)) =
                    self.player_withdrawal.take_if(|(pid, _, _)| *pid == id)
                {
                    self.offer_repair(&player, from);
                }
                if self.repairing == Some(id) {
                    self.repairing = None;
                    return self.start_next_round();
                }
            }
            ServerMsg::Error(err) => {
                let what = match err.re {
                    Some(proto::RequestRef::Command { id }) => self.take_in_flight(id),
                    _ => None,
                };
                let s = self.lang.s();
                // Why and the code, in the console's language (protocol 8:
                // a catalogue message, not the server's sentence).
                let why = ::i18n::replies::error_text(self.lang, &err);
                let text = match what {
                    Some(w) => format!("{w}: {} — {why}", s.server_refused),
                    None => {
                        let at = self.at_hall(hall, s.server_refused);
                        format!("{at} — {why}")
                    }
                };
                self.notify(text, true);
            }
            ServerMsg::TableLog(log) => {
                if self.view == View::Detail(log.table) && hall == self.focus {
                    self.table_log = Some(log);
                }
            }
            ServerMsg::Ack(_)
            | ServerMsg::Control { .. }
            | ServerMsg::Pong { .. }
            | ServerMsg::TakenOver { .. } => {}
        }
        Vec::new()
    }

    /// Applies one delta to hall `hall`'s picture; an audit row of the
    /// open table goes to its log too.
    fn apply_delta(&mut self, hall: usize, delta: proto::Delta) {
        let Some(link) = self.links.get_mut(hall) else {
            return;
        };
        if let Some(e) = link.apply_delta(delta) {
            if let (View::Detail(t), Some(log), true) =
                (self.view, &mut self.table_log, hall == self.focus)
            {
                if e.table == Some(t) && !log.audit.iter().any(|x| x.id == e.id) {
                    log.audit.push(e);
                }
            }
        }
    }

    /// The commands that ask hall `hall`'s server for a fresh picture when
    /// a table step did not apply there (the link's [`Resync`]): the
    /// subscription ended and taken again, whose snapshot replaces the
    /// hall; asked once until it comes.
    fn resync(&mut self, hall: usize) -> Vec<Outgoing> {
        let Some(link) = self.links.get_mut(hall) else {
            return Vec::new();
        };
        if link.resync != Resync::Needed {
            return Vec::new();
        }
        link.resync = Resync::Asked;
        let mut out = Vec::with_capacity(2);
        for command in [Command::Unsubscribe, Command::Subscribe] {
            let id = self.next_id;
            self.next_id += 1;
            out.push(Outgoing { id, command, hall });
        }
        out
    }

    /// Hall `hall`'s whole picture came (in one frame or its last page):
    /// shown, and the open table's log asked for again.
    fn snapshot(&mut self, hall: usize, view: proto::HallView) -> Vec<Outgoing> {
        let now = self.now_ms;
        let Some(link) = self.links.get_mut(hall) else {
            return Vec::new();
        };
        link.clock_ref = (now, view.server_ms);
        link.hall = Some(view);
        link.pictured();
        link.set_conn(ConnState::Connected);
        self.clamp_selections();
        if let View::Detail(t) = self.view {
            if hall == self.focus {
                return vec![self.request(Command::GetTableLog { table: t })];
            }
        }
        Vec::new()
    }

    /// `text` said of hall `hall`: prefixed with its name when the console
    /// follows several halls.
    pub fn at_hall(&self, hall: usize, text: &str) -> String {
        if self.multi() {
            format!("{} · {text}", self.hall_name(hall))
        } else {
            text.to_string()
        }
    }

    fn take_in_flight(&mut self, id: u64) -> Option<String> {
        let pos = self.in_flight.iter().position(|(i, _)| *i == id)?;
        Some(self.in_flight.remove(pos).1)
    }

    /// Keeps every selection inside its list after the lists changed.
    pub fn clamp_selections(&mut self) {
        let rows = visible_count(self);
        self.hall_sel = self.hall_sel.min(rows.saturating_sub(1));
        self.hall_offset = self.hall_offset.min(self.hall_sel);
        let (mut alerts, mut claims) = (0, 0);
        for (i, l) in self.links.iter().enumerate() {
            let (Some(h), true) = (&l.hall, self.shows_hall(i)) else {
                continue;
            };
            let role = l.role.as_ref();
            alerts += h
                .alerts
                .iter()
                .filter(|a| perm::sees_table(role, a.table))
                .count();
            claims += h
                .claims
                .iter()
                .filter(|c| perm::sees_table(role, c.table))
                .count();
        }
        self.alert_sel = self.alert_sel.min(alerts.saturating_sub(1));
        self.claim_sel = self.claim_sel.min(claims.saturating_sub(1));
    }

    /// The hall and number of the selected row (hall overview, claims,
    /// alerts), or of the open table.
    pub fn selected(&self) -> Option<(usize, u16)> {
        match self.view {
            View::Detail(t) => Some((self.focus, t)),
            View::Claims => self
                .claim_rows()
                .get(self.claim_sel)
                .map(|(h, c)| (*h, c.table)),
            View::Alerts => self
                .alert_rows()
                .get(self.alert_sel)
                .map(|(h, a)| (*h, a.table)),
            View::Hall => table_rows(self)
                .get(self.hall_sel)
                .map(|(h, t)| (*h, t.table)),
            View::Round => None,
        }
    }

    /// The table number of the selected row, or the open table.
    pub fn selected_table(&self) -> Option<u16> {
        self.selected().map(|(_, t)| t)
    }

    /// Rows of the hall table that fit on screen (header, bars, borders
    /// taken off), for paging and scrolling.
    pub fn hall_page_rows(&self) -> usize {
        usize::from(self.screen.1).saturating_sub(6).max(1)
    }
}

impl App {
    /// Both clocks of `t` of the focused hall now.
    pub fn live_times(&self, t: &TableView) -> (i64, i64) {
        self.live_times_in(self.focus, t)
    }

    /// Both clocks of `t` of hall `hall` now (Red, Black), the running side
    /// extrapolated from the server's reading at `clock_at_ms`; a side
    /// whose flag fell shows zero.
    pub fn live_times_in(&self, hall: usize, t: &TableView) -> (i64, i64) {
        let paused = self
            .links
            .get(hall)
            .and_then(|l| l.hall.as_ref())
            .and_then(|h| h.paused.as_ref());
        // A hall whose link is down: its clocks stay as last heard (the
        // row is marked), rather than ticking on a guess.
        let running = match (&t.status, paused) {
            (proto::TableStatus::Playing, None) if self.connected_to(hall) => t.clock.running,
            _ => None,
        };
        let elapsed = self.server_now_ms_in(hall).saturating_sub(t.clock_at_ms);
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
