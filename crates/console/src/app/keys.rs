//! Key handling (按键): one key in, state changes and commands to send out.
//!
//! The same path serves the terminal and the tests (the end-to-end test
//! presses keys on an [`App`] fed by the real network client). Movement keys
//! work with arrows and vim keys; actions check the role first
//! ([`super::perm`]) and open a [`Dialog`] for whatever they still need.
//! The full list of keys is in `crate::keymap` (shown by `?`).

use super::dialog::{Choice, Dialog, DialogStep, Pending};
use super::move_limit;
use super::perm::{self, Action};
use super::{table_rows, App, Notation, Outgoing, View};
use crate::clock::{format_ms, parse_clock_entry};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use proto::{ClaimStatus, Command, Decision, FoulKind, GameResult, Side, TableStatus, Verdict};

impl App {
    /// Handles one key; returns the commands to send.
    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Outgoing> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            self.quit = true;
            return Vec::new();
        }
        if let Some(dialog) = self.dialog.take() {
            return self.dialog_key(dialog, key);
        }
        if self.help {
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
            return Vec::new();
        }
        let page = self.hall_page_rows() as isize;
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('?') | KeyCode::F(1) => {
                self.help = true;
                self.help_scroll = 0;
            }
            KeyCode::Char('L') => self.lang = self.lang.other(),
            KeyCode::Tab => return self.switch_view(self.next_view(true)),
            KeyCode::BackTab => return self.switch_view(self.next_view(false)),
            KeyCode::Char('a') => return self.switch_view(View::Alerts),
            KeyCode::Char('c') => return self.switch_view(View::Claims),
            KeyCode::Char('h') | KeyCode::Left if matches!(self.view, View::Detail(_)) => {
                return self.switch_view(View::Hall)
            }
            KeyCode::Esc | KeyCode::Backspace => {
                if self.view != View::Hall {
                    return self.switch_view(View::Hall);
                }
                self.filter.clear();
                self.clamp_selections();
            }
            KeyCode::Char('/') => {
                self.open(
                    Pending::Filter,
                    DialogStep::Text {
                        prompt: self.lang.s().filter.to_string(),
                        buffer: self.filter.clone(),
                        required: false,
                    },
                );
            }
            KeyCode::Char('g') | KeyCode::Char(':') => {
                self.open(
                    Pending::Goto,
                    DialogStep::Text {
                        prompt: self.lang.s().goto_table.to_string(),
                        buffer: String::new(),
                        required: true,
                    },
                );
            }
            KeyCode::Char('s') => {
                let keep = self.selected();
                self.sort = self.sort.next();
                self.select_row(keep);
            }
            KeyCode::Char('H') if self.multi() && !matches!(self.view, View::Detail(_)) => {
                self.next_hall_filter()
            }
            KeyCode::Char('n') => {
                self.notation = match self.notation {
                    Notation::Chinese => Notation::Wxf,
                    Notation::Wxf => Notation::Iccs,
                    Notation::Iccs => Notation::Chinese,
                }
            }
            KeyCode::Up | KeyCode::Char('k') => self.move_sel(-1),
            KeyCode::Down | KeyCode::Char('j') => self.move_sel(1),
            KeyCode::PageUp => self.move_sel(-page),
            KeyCode::PageDown => self.move_sel(page),
            KeyCode::Char('b') if ctrl => self.move_sel(-page),
            KeyCode::Char('f') if ctrl => self.move_sel(page),
            KeyCode::Char('u') if ctrl => self.move_sel(-page / 2),
            KeyCode::Char('d') if ctrl => self.move_sel(page / 2),
            KeyCode::Home => self.move_sel(isize::MIN / 2),
            KeyCode::End | KeyCode::Char('G') => self.move_sel(isize::MAX / 2),
            KeyCode::Enter | KeyCode::Char('l') | KeyCode::Right => {
                if let Some((hall, t)) = self.selected() {
                    if !matches!(self.view, View::Detail(_)) {
                        self.focus = hall;
                        return self.switch_view(View::Detail(t));
                    }
                }
            }
            KeyCode::Char('x') => return self.ack_alert(),
            KeyCode::Char('X') => return self.ack_all_alerts(),
            KeyCode::Char('y') => return self.start_claim(ClaimAction::Accept),
            KeyCode::Char('o') => return self.start_claim(ClaimAction::Override),
            KeyCode::Char('e') => return self.start_claim(ClaimAction::Escalate),
            KeyCode::Char('p') => return self.start_pause_table(),
            KeyCode::Char('P') => return self.start_pause_hall(),
            KeyCode::Char('S') => return self.start_seal(),
            KeyCode::Char('f') => {
                return self.start_table_action(Action::RecordFoul, |table| Pending::Foul {
                    table,
                    choice: None,
                    note: None,
                })
            }
            KeyCode::Char('t') => {
                return self.start_table_action(Action::AdjustClock, |table| Pending::Adjust {
                    table,
                    times: None,
                    reason: None,
                })
            }
            KeyCode::Char('r') => {
                return self.start_table_action(Action::SetResult, |table| Pending::Result {
                    table,
                    result: None,
                    reason: None,
                })
            }
            KeyCode::Char('m') => {
                return self.start_table_action(Action::RuleOnClaim, |table| Pending::MoveLimit {
                    table,
                    choice: None,
                })
            }
            KeyCode::Char('E') => {
                self.aim();
                if self.may(Action::Export, None) {
                    return self.advance(Pending::Export);
                }
            }
            _ => {}
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
    fn aim(&mut self) -> Option<(usize, u16)> {
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
        }
    }

    /// Whether the role in the focused hall may do `action`; posts a
    /// notice when not, or when there is no link to that hall.
    fn may(&mut self, action: Action, table: Option<u16>) -> bool {
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
    fn open_alert_ids(&self) -> Vec<(usize, u64, u16)> {
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

    fn open(&mut self, pending: Pending, step: DialogStep) {
        let title = self.title_of(&pending);
        self.dialog = Some(Dialog {
            title,
            pending,
            step,
            error: None,
        });
    }

    /// Asks for the next missing value of `pending`, asks to confirm a
    /// drastic action, or builds and returns the command.
    fn advance(&mut self, pending: Pending) -> Vec<Outgoing> {
        if let Some(step) = self.ask(&pending) {
            self.open(pending, step);
            return Vec::new();
        }
        if let Some(message) = self.confirm_message(&pending) {
            self.open(pending, DialogStep::Confirm { message });
            return Vec::new();
        }
        self.finish(pending)
    }

    fn dialog_key(&mut self, mut dialog: Dialog, key: KeyEvent) -> Vec<Outgoing> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match &mut dialog.step {
            DialogStep::Confirm { .. } => match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => return self.finish(dialog.pending),
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {}
                _ => self.dialog = Some(dialog),
            },
            DialogStep::Choose { options, .. } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Char(c) if options.iter().any(|o| o.key == c) => {
                    match self.fill(dialog.pending.clone(), Answer::Choice(c)) {
                        Ok(p) => return self.advance(p),
                        Err(e) => {
                            dialog.error = Some(e);
                            self.dialog = Some(dialog);
                        }
                    }
                }
                _ => self.dialog = Some(dialog),
            },
            DialogStep::Text {
                buffer, required, ..
            } => {
                match key.code {
                    KeyCode::Esc => {
                        if dialog.pending == Pending::Filter {
                            self.filter.clear();
                            self.clamp_selections();
                        }
                        return Vec::new();
                    }
                    KeyCode::Enter => {
                        if *required && buffer.trim().is_empty() {
                            dialog.error = Some(self.lang.s().required.to_string());
                            self.dialog = Some(dialog);
                            return Vec::new();
                        }
                        let text = buffer.trim().to_string();
                        match self.fill(dialog.pending.clone(), Answer::Text(text)) {
                            Ok(p) => return self.advance(p),
                            Err(e) => {
                                dialog.error = Some(e);
                                self.dialog = Some(dialog);
                                return Vec::new();
                            }
                        }
                    }
                    KeyCode::Backspace => {
                        buffer.pop();
                    }
                    KeyCode::Char('u') if ctrl => buffer.clear(),
                    KeyCode::Char(c) if !ctrl && buffer.chars().count() < 200 => buffer.push(c),
                    _ => {}
                }
                if dialog.pending == Pending::Filter {
                    self.filter = buffer.clone();
                    self.hall_sel = 0;
                    self.hall_offset = 0;
                    self.clamp_selections();
                }
                dialog.error = None;
                self.dialog = Some(dialog);
            }
        }
        Vec::new()
    }

    /// The step that asks for the first missing value, if any.
    fn ask(&self, pending: &Pending) -> Option<DialogStep> {
        let s = self.lang.s();
        let text = |prompt: &str, buffer: String, required: bool| {
            Some(DialogStep::Text {
                prompt: prompt.to_string(),
                buffer,
                required,
            })
        };
        let choose = |prompt: &str, options: Vec<(char, String)>| {
            Some(DialogStep::Choose {
                prompt: prompt.to_string(),
                options: options
                    .into_iter()
                    .map(|(key, label)| Choice { key, label })
                    .collect(),
            })
        };
        match pending {
            Pending::Filter | Pending::Goto => None,
            Pending::PauseTable { reason: None, .. } | Pending::PauseHall { reason: None } => {
                text(s.prompt_reason, String::new(), false)
            }
            Pending::Escalate { reason: None, .. } => text(s.prompt_reason, String::new(), true),
            Pending::Seal { mv: None, .. } => text(s.prompt_sealed_move, String::new(), true),
            Pending::Foul { choice: None, .. } => choose(
                s.choose_foul,
                vec![
                    ('1', format!("{} {}", s.red, s.technical)),
                    ('2', format!("{} {}", s.red, s.violation)),
                    ('3', format!("{} {}", s.black, s.technical)),
                    ('4', format!("{} {}", s.black, s.violation)),
                ],
            ),
            Pending::Foul { note: None, .. } => text(s.prompt_note, String::new(), false),
            Pending::Adjust {
                table, times: None, ..
            } => {
                let now = self
                    .table(*table)
                    .map(|t| self.live_times(t))
                    .unwrap_or((0, 0));
                text(
                    s.prompt_times,
                    format!("{} {}", format_ms(now.0), format_ms(now.1)),
                    true,
                )
            }
            Pending::Adjust { reason: None, .. } => text(s.prompt_reason, String::new(), true),
            Pending::Result { result: None, .. } => choose(
                s.choose_result,
                vec![
                    ('1', format!("1-0  {}", s.red_wins)),
                    ('2', format!("0-1  {}", s.black_wins)),
                    ('3', format!("½-½  {}", s.draw)),
                    ('4', format!("0-0  {}", s.both_lose)),
                ],
            ),
            Pending::Result { reason: None, .. } => text(s.prompt_reason, String::new(), true),
            Pending::Override { verdict: None, .. } => choose(
                s.choose_verdict,
                vec![
                    ('1', s.v_continue.to_string()),
                    ('2', s.v_red_change.to_string()),
                    ('3', s.v_black_change.to_string()),
                    ('4', s.draw.to_string()),
                    ('5', s.v_red_loses.to_string()),
                    ('6', s.v_black_loses.to_string()),
                ],
            ),
            Pending::Override { reason: None, .. } => text(s.prompt_reason, String::new(), true),
            Pending::MoveLimit {
                table,
                choice: None,
            } => {
                let declared = self.table(*table).is_some_and(|t| t.move_limit.is_some());
                choose(s.choose_move_limit, move_limit::options(s, declared))
            }
            _ => None,
        }
    }

    /// Fills the value just answered into `pending`.
    fn fill(&mut self, pending: Pending, answer: Answer) -> Result<Pending, String> {
        let s = self.lang.s();
        Ok(match (pending, answer) {
            (Pending::Filter, Answer::Text(t)) => {
                self.filter = t;
                self.clamp_selections();
                return Ok(Pending::Filter);
            }
            (Pending::Goto, Answer::Text(t)) => {
                let n: u16 = t.parse().map_err(|_| s.no_such_table.to_string())?;
                // The focused hall's table first, else the first shown
                // hall's that has it.
                let has = |h: usize| {
                    self.shows_hall(h)
                        && self.table_in(h, n).is_some()
                        && perm::sees_table(self.role_in(h), n)
                };
                let hall = std::iter::once(self.focus)
                    .chain(0..self.links.len())
                    .find(|h| has(*h))
                    .ok_or_else(|| s.no_such_table.to_string())?;
                // The table may be hidden by the filter: clear it.
                if !table_rows(self)
                    .iter()
                    .any(|(h, t)| *h == hall && t.table == n)
                {
                    self.filter.clear();
                }
                self.view = View::Hall;
                self.select_row(Some((hall, n)));
                Pending::Goto
            }
            (Pending::PauseTable { table, .. }, Answer::Text(t)) => Pending::PauseTable {
                table,
                reason: Some(t),
            },
            (Pending::PauseHall { .. }, Answer::Text(t)) => Pending::PauseHall { reason: Some(t) },
            (
                Pending::Escalate {
                    table, claim_id, ..
                },
                Answer::Text(t),
            ) => Pending::Escalate {
                table,
                claim_id,
                reason: Some(t),
            },
            (Pending::Seal { table, .. }, Answer::Text(t)) => {
                let mv = crate::notation::parse_move(self.table(table), &t)
                    .ok_or_else(|| s.bad_move.to_string())?;
                Pending::Seal {
                    table,
                    mv: Some(mv),
                }
            }
            (Pending::Foul { table, .. }, Answer::Choice(c)) => {
                let choice = match c {
                    '1' => (Side::Red, FoulKind::Technical),
                    '2' => (Side::Red, FoulKind::Violation),
                    '3' => (Side::Black, FoulKind::Technical),
                    _ => (Side::Black, FoulKind::Violation),
                };
                Pending::Foul {
                    table,
                    choice: Some(choice),
                    note: None,
                }
            }
            (Pending::Foul { table, choice, .. }, Answer::Text(t)) => Pending::Foul {
                table,
                choice,
                note: Some(t),
            },
            (
                Pending::Adjust {
                    table, times: None, ..
                },
                Answer::Text(t),
            ) => {
                let now = self
                    .table(table)
                    .map(|t| self.live_times(t))
                    .unwrap_or((0, 0));
                let times = parse_times(&t, now).ok_or_else(|| s.bad_time.to_string())?;
                Pending::Adjust {
                    table,
                    times: Some(times),
                    reason: None,
                }
            }
            (Pending::Adjust { table, times, .. }, Answer::Text(t)) => Pending::Adjust {
                table,
                times,
                reason: Some(t),
            },
            (Pending::Result { table, .. }, Answer::Choice(c)) => Pending::Result {
                table,
                result: Some(match c {
                    '1' => GameResult::RedWins,
                    '2' => GameResult::BlackWins,
                    '3' => GameResult::Draw,
                    _ => GameResult::BothLose,
                }),
                reason: None,
            },
            (Pending::Result { table, result, .. }, Answer::Text(t)) => Pending::Result {
                table,
                result,
                reason: Some(t),
            },
            (
                Pending::Override {
                    table, claim_id, ..
                },
                Answer::Choice(c),
            ) => {
                let v = match c {
                    '1' => (Verdict::Continue, None),
                    '2' => (Verdict::Continue, Some(Side::Red)),
                    '3' => (Verdict::Continue, Some(Side::Black)),
                    '4' => (Verdict::Draw, None),
                    '5' => (Verdict::Loss { side: Side::Red }, None),
                    _ => (Verdict::Loss { side: Side::Black }, None),
                };
                Pending::Override {
                    table,
                    claim_id,
                    verdict: Some(v),
                    reason: None,
                }
            }
            (
                Pending::Override {
                    table,
                    claim_id,
                    verdict,
                    ..
                },
                Answer::Text(t),
            ) => Pending::Override {
                table,
                claim_id,
                verdict,
                reason: Some(t),
            },
            (Pending::MoveLimit { table, .. }, Answer::Choice(c)) => Pending::MoveLimit {
                table,
                choice: Some(move_limit::choice(c)),
            },
            (p, _) => p,
        })
    }

    /// The confirmation question for a drastic action, once complete.
    fn confirm_message(&self, pending: &Pending) -> Option<String> {
        let s = self.lang.s();
        let on = |t: &u16| format!("{} {t}", s.table);
        Some(match pending {
            Pending::PauseHall { .. } => format!("{}?", s.act_pause_hall),
            Pending::ResumeHall => format!("{}?", s.act_resume_hall),
            Pending::Seal {
                table,
                mv: Some(mv),
            } => {
                format!(
                    "{} — {}: {} ({mv})?",
                    on(table),
                    s.act_seal,
                    s.sealed_hidden
                )
            }
            Pending::Unseal { table } => format!("{} — {}?", on(table), s.act_unseal),
            Pending::Adjust {
                table,
                times: Some((r, b)),
                ..
            } => format!(
                "{} — {}: {} {} / {} {}?",
                on(table),
                s.act_adjust,
                s.red,
                format_ms(*r as i64),
                s.black,
                format_ms(*b as i64)
            ),
            Pending::Result {
                table,
                result: Some(r),
                ..
            } => format!("{} — {}: {}?", on(table), s.act_result, result_label(s, *r)),
            Pending::Accept { table, claim_id } => {
                let rec = self
                    .hall()
                    .and_then(|h| h.claims.iter().find(|c| c.id == *claim_id))
                    .map(|c| {
                        crate::i18n::verdict_label(
                            s,
                            c.recommended.verdict,
                            c.recommended.must_change,
                        )
                    })
                    .unwrap_or_default();
                format!("{} — {}: {rec}?", on(table), s.act_accept)
            }
            Pending::Override {
                table,
                verdict: Some((v, m)),
                ..
            } => format!(
                "{} — {}: {}?",
                on(table),
                s.act_override,
                crate::i18n::verdict_label(s, *v, *m)
            ),
            Pending::Export => format!("{}?", s.act_export),
            Pending::AckAll { count } => format!("{} ({count})?", s.act_ack_all),
            Pending::MoveLimit {
                table,
                choice: Some(c),
            } => format!(
                "{} — {}: {}?",
                on(table),
                s.move_limit,
                move_limit::label(s, *c)
            ),
            _ => return None,
        })
    }

    /// Builds the command of a complete pending action.
    fn finish(&mut self, pending: Pending) -> Vec<Outgoing> {
        let s = self.lang.s();
        let on = |t: u16, act: &str| format!("{} {t}: {act}", s.table);
        let (command, what) = match pending {
            Pending::Filter | Pending::Goto => return Vec::new(),
            Pending::PauseTable { table, reason } => (
                Command::PauseTable {
                    table,
                    reason: reason.unwrap_or_default(),
                },
                on(table, s.act_pause_table),
            ),
            Pending::PauseHall { reason } => (
                Command::PauseHall {
                    reason: reason.unwrap_or_default(),
                },
                s.act_pause_hall.to_string(),
            ),
            Pending::ResumeHall => (Command::ResumeHall, s.act_resume_hall.to_string()),
            Pending::Seal { table, mv } => {
                let Some(sealed_move) = mv else {
                    return Vec::new();
                };
                (Command::Seal { table, sealed_move }, on(table, s.act_seal))
            }
            Pending::Unseal { table } => (Command::Unseal { table }, on(table, s.act_unseal)),
            Pending::Foul {
                table,
                choice,
                note,
            } => {
                let Some((side, kind)) = choice else {
                    return Vec::new();
                };
                (
                    Command::RecordFoul {
                        table,
                        side,
                        kind,
                        note: note.unwrap_or_default(),
                    },
                    on(table, s.act_foul),
                )
            }
            Pending::Adjust {
                table,
                times,
                reason,
            } => {
                let Some((red_ms, black_ms)) = times else {
                    return Vec::new();
                };
                (
                    Command::AdjustClock {
                        table,
                        red_ms,
                        black_ms,
                        reason: reason.unwrap_or_default(),
                    },
                    on(table, s.act_adjust),
                )
            }
            Pending::Result {
                table,
                result,
                reason,
            } => {
                let Some(result) = result else {
                    return Vec::new();
                };
                (
                    Command::SetResult {
                        table,
                        result,
                        reason: reason.unwrap_or_default(),
                    },
                    on(table, s.act_result),
                )
            }
            Pending::Accept { table, claim_id } => (
                Command::RuleOnClaim {
                    table,
                    claim_id,
                    decision: Decision::Accept,
                },
                on(table, s.act_accept),
            ),
            Pending::Override {
                table,
                claim_id,
                verdict,
                reason,
            } => {
                let Some((verdict, must_change)) = verdict else {
                    return Vec::new();
                };
                (
                    Command::RuleOnClaim {
                        table,
                        claim_id,
                        decision: Decision::Override {
                            verdict,
                            must_change,
                            reason: reason.unwrap_or_default(),
                        },
                    },
                    on(table, s.act_override),
                )
            }
            Pending::Escalate {
                table,
                claim_id,
                reason,
            } => (
                Command::EscalateClaim {
                    table,
                    claim_id,
                    reason: reason.unwrap_or_default(),
                },
                on(table, s.act_escalate),
            ),
            Pending::Export => (Command::ExportRound, s.act_export.to_string()),
            Pending::MoveLimit { table, choice } => {
                let Some(c) = choice else {
                    return Vec::new();
                };
                (move_limit::command(table, c), on(table, s.act_move_limit))
            }
            Pending::AckAll { .. } => {
                let ids = self.open_alert_ids();
                let out: Vec<Outgoing> = ids
                    .into_iter()
                    .map(|(hall, id, table)| {
                        let what =
                            self.at_hall(hall, &format!("{} {table}: {}", s.table, s.act_ack));
                        self.outgoing_to(hall, Command::AckAlert { alert_id: id }, what)
                    })
                    .collect();
                let sent = format!("{}: {}", s.act_ack_all, s.sent);
                self.notify(sent, false);
                return out;
            }
        };
        let what = self.at_hall(self.focus, &what);
        let sent = format!("{what}: {}", s.sent);
        self.notify(sent, false);
        vec![self.outgoing(command, what)]
    }

    /// The dialog's title, naming the hall the action goes to when the
    /// console follows several.
    fn title_of(&self, pending: &Pending) -> String {
        let title = self.bare_title_of(pending);
        match pending {
            // These are not one hall's.
            Pending::Filter | Pending::Goto | Pending::AckAll { .. } => title,
            _ => self.at_hall(self.focus, &title),
        }
    }

    fn bare_title_of(&self, pending: &Pending) -> String {
        let s = self.lang.s();
        let on = |t: &u16, act: &str| format!("{} {t} · {act}", s.table);
        match pending {
            Pending::Filter => s.filter.to_string(),
            Pending::Goto => s.goto_table.to_string(),
            Pending::PauseTable { table, .. } => on(table, s.act_pause_table),
            Pending::PauseHall { .. } => s.act_pause_hall.to_string(),
            Pending::ResumeHall => s.act_resume_hall.to_string(),
            Pending::Seal { table, .. } => on(table, s.act_seal),
            Pending::Unseal { table } => on(table, s.act_unseal),
            Pending::Foul { table, .. } => on(table, s.act_foul),
            Pending::Adjust { table, .. } => on(table, s.act_adjust),
            Pending::Result { table, .. } => on(table, s.act_result),
            Pending::Accept { table, .. } => on(table, s.act_accept),
            Pending::Override { table, .. } => on(table, s.act_override),
            Pending::Escalate { table, .. } => on(table, s.act_escalate),
            Pending::Export => s.act_export.to_string(),
            Pending::AckAll { .. } => s.act_ack_all.to_string(),
            Pending::MoveLimit { table, .. } => on(table, s.act_move_limit),
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

/// An answer to a dialog step.
enum Answer {
    Choice(char),
    Text(String),
}

/// Parses "RED BLACK" clock entries; each absolute (`45:00`) or a change
/// (`+30`, `-1:00`) of the current time in `now`.
fn parse_times(text: &str, now: (i64, i64)) -> Option<(u64, u64)> {
    let mut parts = text.split_whitespace();
    let one = |part: Option<&str>, current: i64| -> Option<u64> {
        let (delta, ms) = parse_clock_entry(part?)?;
        let v = if delta {
            current.saturating_add(ms)
        } else {
            ms
        };
        u64::try_from(v).ok()
    };
    let red = one(parts.next(), now.0)?;
    let black = one(parts.next(), now.1)?;
    if parts.next().is_some() {
        return None;
    }
    Some((red, black))
}

/// A result in words, e.g. `1-0 Red wins`.
pub fn result_label(s: &crate::i18n::Strings, r: GameResult) -> String {
    match r {
        GameResult::RedWins => format!("1-0 {}", s.red_wins),
        GameResult::BlackWins => format!("0-1 {}", s.black_wins),
        GameResult::Draw => format!("½-½ {}", s.draw),
        GameResult::BothLose => format!("0-0 {}", s.both_lose),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times_parse_absolute_and_relative() {
        assert_eq!(
            parse_times("45:00 38:12", (0, 0)),
            Some((2_700_000, 2_292_000))
        );
        assert_eq!(
            parse_times("+30 -1:00", (60_000, 120_000)),
            Some((90_000, 60_000))
        );
        assert_eq!(parse_times("-2:00 5:00", (60_000, 0)), None);
        assert_eq!(parse_times("5:00", (0, 0)), None);
        assert_eq!(parse_times("5:00 5:00 5:00", (0, 0)), None);
    }
}
