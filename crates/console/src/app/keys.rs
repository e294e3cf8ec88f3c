//! Key handling (按键): one key in, state changes and commands to send out.
//!
//! The same path serves the terminal and the tests (the end-to-end test
//! presses keys on an [`App`] fed by the real network client). A key is
//! looked up in the key table (`crate::keymap`, also what `?` shows) and
//! its [`Intent`] carried out here: movement works with arrows and vim
//! keys; actions check the role first ([`crate::perm`]) and open a dialog
//! (`dialog.rs`) for whatever they still need.

use super::dialog::Pending;
use super::{table_rows, App, Outgoing, View};
use crate::i18n::Words;
use crate::keymap::{intent_of, Intent};
use crate::perm::{self, Action};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use proto::{ClaimStatus, Command, TableStatus};

impl App {
    /// Handles one key; returns the commands to send.
    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Outgoing> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        let intent = intent_of(&key);
        // Ctrl-C quits from anywhere, a dialog or the help included.
        if intent == Some(Intent::Quit) && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return Vec::new();
        }
        if let Some(dialog) = self.dialog.take() {
            return self.dialog_key(dialog, key);
        }
        if self.help {
            self.help_key(key);
            return Vec::new();
        }
        if self.view == View::Round {
            if let Some(out) = self.round_key(key) {
                return out;
            }
        }
        match intent {
            Some(intent) => self.act(intent),
            None => Vec::new(),
        }
    }

    /// A key while the help is open: close or scroll it.
    fn help_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char('?') | KeyCode::Esc | KeyCode::Char('q') | KeyCode::Enter => {
                self.help = false
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.help_scroll = self.help_scroll.saturating_add(1)
            }
            KeyCode::Up | KeyCode::Char('k') => {
                self.help_scroll = self.help_scroll.saturating_sub(1)
            }
            KeyCode::PageDown => self.help_scroll = self.help_scroll.saturating_add(10),
            KeyCode::PageUp => self.help_scroll = self.help_scroll.saturating_sub(10),
            _ => {}
        }
    }

    /// Carries out what a key of [`crate::keymap::KEYS`] asks for.
    fn act(&mut self, intent: Intent) -> Vec<Outgoing> {
        let page = self.hall_page_rows() as isize;
        let detail = matches!(self.view, View::Detail(_));
        match intent {
            Intent::Quit => self.quit = true,
            Intent::Help => {
                self.help = true;
                self.help_scroll = 0;
            }
            Intent::Language => self.lang = self.lang.next(),
            Intent::NextView => return self.switch_view(self.next_view(true)),
            Intent::PreviousView => return self.switch_view(self.next_view(false)),
            Intent::Alerts => return self.switch_view(View::Alerts),
            Intent::Claims => return self.switch_view(View::Claims),
            Intent::Close if detail => return self.switch_view(View::Hall),
            Intent::Close => {}
            Intent::Back => {
                if self.view != View::Hall {
                    return self.switch_view(View::Hall);
                }
                self.filter.clear();
                self.clamp_selections();
            }
            Intent::Filter => self.open_filter(),
            Intent::Goto => self.open_goto(),
            Intent::Sort => {
                let keep = self.selected();
                self.sort = self.sort.next();
                self.select_row(keep);
            }
            Intent::HallFilter if self.multi() && !detail => self.next_hall_filter(),
            Intent::HallFilter => {}
            Intent::Notation => self.notation = self.notation.next(),
            Intent::Up => self.move_sel(-1),
            Intent::Down => self.move_sel(1),
            Intent::PageUp => self.move_sel(-page),
            Intent::PageDown => self.move_sel(page),
            Intent::HalfPageUp => self.move_sel(-page / 2),
            Intent::HalfPageDown => self.move_sel(page / 2),
            Intent::First => self.move_sel(isize::MIN / 2),
            Intent::Last => self.move_sel(isize::MAX / 2),
            Intent::Open => {
                if let Some((hall, t)) = self.selected() {
                    if !detail {
                        self.focus = hall;
                        return self.switch_view(View::Detail(t));
                    }
                }
            }
            Intent::AckAlert => return self.ack_alert(),
            Intent::AckAll => return self.ack_all_alerts(),
            Intent::Accept => return self.start_claim(ClaimAction::Accept),
            Intent::Override => return self.start_claim(ClaimAction::Override),
            Intent::Escalate => return self.start_claim(ClaimAction::Escalate),
            Intent::PauseTable => return self.start_pause_table(),
            Intent::PauseHall => return self.start_pause_hall(),
            Intent::Seal => return self.start_seal(),
            Intent::Foul => {
                return self.start_table_action(Action::RecordFoul, |table| Pending::Foul {
                    table,
                    choice: None,
                    note: None,
                })
            }
            Intent::AdjustClock => {
                return self.start_table_action(Action::AdjustClock, |table| Pending::Adjust {
                    table,
                    times: None,
                    reason: None,
                })
            }
            Intent::SetResult => {
                return self.start_table_action(Action::SetResult, |table| Pending::Result {
                    table,
                    result: None,
                    reason: None,
                })
            }
            Intent::MoveLimit => {
                return self.start_table_action(Action::RuleOnClaim, |table| Pending::MoveLimit {
                    table,
                    choice: None,
                })
            }
            Intent::NextRound | Intent::CorrectResult | Intent::WithdrawRound => {
                return self.start_round_key(intent)
            }
            Intent::EnterPlayer => return self.start_entry(),
            Intent::WithdrawPlayer => return self.start_leave(),
            Intent::Export => {
                self.aim();
                if self.may(Action::Export, None) {
                    return self.advance(Pending::Export);
                }
            }
        }
        Vec::new()
    }

    /// `H`: all halls, then each hall alone, then all again.
    fn next_hall_filter(&mut self) {
        let keep = self.selected();
        self.hall_filter = match self.hall_filter {
            None => Some(0),
            Some(h) if h + 1 < self.links.len() => Some(h + 1),
            Some(_) => None,
        };
        self.hall_sel = 0;
        self.hall_offset = 0;
        self.alert_sel = 0;
        self.claim_sel = 0;
        self.select_row(keep);
        self.clamp_selections();
    }

    /// Focuses the hall of the selected row (where an action goes);
    /// returns the row.
    pub(super) fn aim(&mut self) -> Option<(usize, u16)> {
        let sel = self.selected();
        if let Some((hall, _)) = sel {
            self.focus = hall;
        }
        sel
    }

    fn next_view(&self, forward: bool) -> View {
        let order = [View::Hall, View::Claims, View::Alerts];
        let i = order.iter().position(|v| *v == self.view).unwrap_or(0);
        let n = order.len();
        order[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }

    /// Shows `view`; opening a table asks the server for its log.
    pub fn switch_view(&mut self, view: View) -> Vec<Outgoing> {
        if let View::Detail(t) = self.view {
            // Coming back to the hall lands on the table just seen.
            if view == View::Hall {
                self.view = view;
                self.select_row(Some((self.focus, t)));
                self.table_log = None;
                return Vec::new();
            }
        }
        self.view = view;
        self.clamp_selections();
        if let View::Detail(t) = view {
            self.table_log = None;
            self.log_scroll = 0;
            if self.connected_to(self.focus) {
                return vec![self.request(Command::GetTableLog { table: t })];
            }
        }
        Vec::new()
    }

    /// Selects the hall row of `table` of the focused hall (if shown) and
    /// scrolls to it.
    pub fn select_table(&mut self, table: Option<u16>) {
        self.select_row(table.map(|t| (self.focus, t)));
    }

    /// Selects the hall row of (hall, table) (if shown) and scrolls to it.
    pub fn select_row(&mut self, row: Option<(usize, u16)>) {
        let Some((hall, table)) = row else { return };
        if let Some(i) = table_rows(self)
            .iter()
            .position(|(h, t)| *h == hall && t.table == table)
        {
            self.hall_sel = i;
            self.scroll_to_selection();
        }
    }

    fn scroll_to_selection(&mut self) {
        let rows = self.hall_page_rows();
        if self.hall_sel < self.hall_offset {
            self.hall_offset = self.hall_sel;
        } else if self.hall_sel >= self.hall_offset + rows {
            self.hall_offset = self.hall_sel + 1 - rows;
        }
    }

    fn move_sel(&mut self, by: isize) {
        let step = |sel: usize, len: usize| -> usize {
            if len == 0 {
                return 0;
            }
            let target = sel as isize + by;
            target.clamp(0, len as isize - 1) as usize
        };
        match self.view {
            View::Hall => {
                let len = super::visible_count(self);
                self.hall_sel = step(self.hall_sel, len);
                self.scroll_to_selection();
            }
            View::Alerts => self.alert_sel = step(self.alert_sel, self.alerts().len()),
            View::Claims => self.claim_sel = step(self.claim_sel, self.claims().len()),
            View::Detail(_) => {
                self.log_scroll = (self.log_scroll as isize + by).clamp(0, u16::MAX as isize) as u16
            }
            View::Round => {
                if let Some(d) = self.next_round.as_mut() {
                    d.sel = step(d.sel, d.round.boards.len());
                }
            }
        }
    }

    /// Whether the role in the focused hall may do `action`; posts a
    /// notice when not, or when there is no link to that hall.
    pub(super) fn may(&mut self, action: Action, table: Option<u16>) -> bool {
        if !perm::allowed(self.role(), action, table) {
            let text = self.at_hall(self.focus, self.lang.s().not_allowed);
            self.notify(text, true);
            return false;
        }
        if !self.connected_to(self.focus) {
            let text = self.lang.s().disconnected.to_string();
            self.notify(text, true);
            return false;
        }
        true
    }

    fn ack_alert(&mut self) -> Vec<Outgoing> {
        if self.view != View::Alerts {
            return Vec::new();
        }
        let Some((hall, id, table, acked)) = self
            .alert_rows()
            .get(self.alert_sel)
            .map(|(h, a)| (*h, a.id, a.table, a.acked_by.is_some()))
        else {
            return Vec::new();
        };
        self.focus = hall;
        if acked || !self.may(Action::AckAlert, Some(table)) {
            return Vec::new();
        }
        let what = format!("{} {table}: {}", self.lang.s().table, self.lang.s().act_ack);
        let what = self.at_hall(hall, &what);
        vec![self.outgoing(Command::AckAlert { alert_id: id }, what)]
    }

    /// `X`: acknowledge every open alert the role may (after confirming).
    fn ack_all_alerts(&mut self) -> Vec<Outgoing> {
        if self.view != View::Alerts {
            return Vec::new();
        }
        let shown: Vec<usize> = (0..self.links.len())
            .filter(|h| self.shows_hall(*h))
            .collect();
        if !shown
            .iter()
            .any(|h| perm::offers(self.role_in(*h), Action::AckAlert))
        {
            let text = self.lang.s().not_allowed.to_string();
            self.notify(text, true);
            return Vec::new();
        }
        if !shown.iter().any(|h| self.connected_to(*h)) {
            let text = self.lang.s().disconnected.to_string();
            self.notify(text, true);
            return Vec::new();
        }
        let n = self.open_alert_ids().len();
        if n == 0 {
            return Vec::new();
        }
        self.advance(Pending::AckAll { count: n })
    }

    /// Open alerts the role in their hall may acknowledge, of halls
    /// connected now: (hall, alert id, table).
    pub(super) fn open_alert_ids(&self) -> Vec<(usize, u64, u16)> {
        self.alert_rows()
            .iter()
            .filter(|(_, a)| a.acked_by.is_none())
            .filter(|(h, a)| perm::allowed(self.role_in(*h), Action::AckAlert, Some(a.table)))
            .filter(|(h, _)| self.connected_to(*h))
            .map(|(h, a)| (*h, a.id, a.table))
            .collect()
    }

    fn start_claim(&mut self, what: ClaimAction) -> Vec<Outgoing> {
        if self.view != View::Claims {
            return Vec::new();
        }
        let Some((hall, claim_id, table, status)) = self
            .claim_rows()
            .get(self.claim_sel)
            .map(|(h, c)| (*h, c.id, c.table, c.status.clone()))
        else {
            return Vec::new();
        };
        self.focus = hall;
        let chief = matches!(self.role(), Some(proto::Role::Chief));
        match what {
            ClaimAction::Accept => {
                // Open claims only; a ruled claim is changed by overriding.
                if !status.is_open() {
                    return Vec::new();
                }
                if !self.may(Action::RuleOnClaim, Some(table)) {
                    return Vec::new();
                }
                self.advance(Pending::Accept { table, claim_id })
            }
            ClaimAction::Override => {
                // A ruled claim can be overridden by the chief only.
                if matches!(status, ClaimStatus::Ruled { .. }) && !chief {
                    let text = self.at_hall(hall, self.lang.s().not_allowed);
                    self.notify(text, true);
                    return Vec::new();
                }
                if !self.may(Action::RuleOnClaim, Some(table)) {
                    return Vec::new();
                }
                self.advance(Pending::Override {
                    table,
                    claim_id,
                    verdict: None,
                    reason: None,
                })
            }
            ClaimAction::Escalate => {
                if matches!(status, ClaimStatus::Escalated { .. })
                    || !self.may(Action::EscalateClaim, Some(table))
                {
                    return Vec::new();
                }
                self.advance(Pending::Escalate {
                    table,
                    claim_id,
                    reason: None,
                })
            }
        }
    }

    fn start_table_action(
        &mut self,
        action: Action,
        make: impl FnOnce(u16) -> Pending,
    ) -> Vec<Outgoing> {
        let Some((_, table)) = self.aim() else {
            return Vec::new();
        };
        if !self.may(action, Some(table)) {
            return Vec::new();
        }
        self.advance(make(table))
    }

    fn start_pause_table(&mut self) -> Vec<Outgoing> {
        let Some((_, table)) = self.aim() else {
            return Vec::new();
        };
        if !self.may(Action::PauseTable, Some(table)) {
            return Vec::new();
        }
        let paused = self
            .table(table)
            .is_some_and(|t| matches!(t.status, TableStatus::Paused(_)));
        if paused {
            let what = format!(
                "{} {table}: {}",
                self.lang.s().table,
                self.lang.s().act_resume_table
            );
            return vec![self.outgoing(Command::ResumeTable { table }, what)];
        }
        self.advance(Pending::PauseTable {
            table,
            reason: None,
        })
    }

    fn start_pause_hall(&mut self) -> Vec<Outgoing> {
        self.aim();
        if !self.may(Action::PauseHall, None) {
            return Vec::new();
        }
        let paused = self.hall().is_some_and(|h| h.paused.is_some());
        if paused {
            self.advance(Pending::ResumeHall)
        } else {
            self.advance(Pending::PauseHall { reason: None })
        }
    }

    fn start_seal(&mut self) -> Vec<Outgoing> {
        let Some((_, table)) = self.aim() else {
            return Vec::new();
        };
        if !self.may(Action::Seal, Some(table)) {
            return Vec::new();
        }
        let sealed = self
            .table(table)
            .is_some_and(|t| matches!(t.status, TableStatus::Sealed { .. }));
        if sealed {
            self.advance(Pending::Unseal { table })
        } else {
            self.advance(Pending::Seal { table, mv: None })
        }
    }
}

/// The claim keys of the claims queue.
#[derive(Debug, Clone, Copy)]
enum ClaimAction {
    Accept,
    Override,
    Escalate,
}
