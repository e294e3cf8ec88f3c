//! Dialogs (对话框): the steps that turn a key into a complete command —
//! choose an option, type a text (a reason, a sealed move, clock times),
//! confirm a drastic action with `y`.
//!
//! A [`Dialog`] holds the action being built ([`Pending`], with the values
//! collected so far) and the step now asked ([`DialogStep`]). Each pending
//! action has one function here (`pause_table`, `seal`, `foul` ...) that
//! says what comes next from the values collected: the step asking for the
//! first missing one, or the command, with the question to confirm it
//! when the action is drastic. An answer fills the next missing value
//! (`fill`) and the dialog advances until the command is sent.

use super::move_limit;
use super::{table_rows, App, Outgoing, View};
use crate::clock::{format_ms, parse_clock_entry};
use crate::i18n::{say, word, Strings, Words};
use crate::perm;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proto::{Command, Decision, FoulKind, GameResult, IccsMove, Side, Verdict};

/// An action being built, with what has been collected so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    /// `/`: the filter text, applied as it is typed.
    Filter,
    /// Jump to a table by number.
    Goto,
    /// Pause one table: optional reason.
    PauseTable { table: u16, reason: Option<String> },
    /// Pause the whole hall: reason, then confirm.
    PauseHall { reason: Option<String> },
    /// Resume the whole hall: confirm.
    ResumeHall,
    /// Seal (封棋): the sealed move, then confirm.
    Seal { table: u16, mv: Option<IccsMove> },
    /// Unseal: confirm.
    Unseal { table: u16 },
    /// Record a foul: side and kind, then a note.
    Foul {
        table: u16,
        choice: Option<(Side, FoulKind)>,
        note: Option<String>,
    },
    /// Adjust a clock: both times, a reason, then confirm.
    Adjust {
        table: u16,
        times: Option<(u64, u64)>,
        reason: Option<String>,
    },
    /// Set a result: the result, a reason, then confirm.
    Result {
        table: u16,
        result: Option<GameResult>,
        reason: Option<String>,
    },
    /// Accept a claim's recommended ruling: confirm.
    Accept { table: u16, claim_id: u64 },
    /// Rule otherwise: verdict, a reason (required), then confirm.
    Override {
        table: u16,
        claim_id: u64,
        verdict: Option<(Verdict, Option<Side>)>,
        reason: Option<String>,
    },
    /// Hand a claim to the chief arbiter: a reason.
    Escalate {
        table: u16,
        claim_id: u64,
        reason: Option<String>,
    },
    /// Export the round's results: confirm.
    Export,
    /// Acknowledge every open alert (`X`): confirm.
    AckAll { count: usize },
    /// Declare or cancel the move limit 限著 (ROC): the choice, then confirm.
    MoveLimit {
        table: u16,
        choice: Option<super::move_limit::LimitChoice>,
    },
    /// Change the next round's draft: the reason (required).
    RoundChange {
        change: super::round::Change,
        reason: Option<String>,
    },
    /// Publish the next round's draft: confirm.
    Publish,
    /// Correct a result of an earlier round: the round, the table, the
    /// result, a reason (required), then confirm (`correct.rs`).
    Correct {
        round: Option<u32>,
        table: Option<u16>,
        result: Option<GameResult>,
        reason: Option<String>,
    },
    /// Withdraw the published round `round` before it started: a reason
    /// (required), then confirm (`correct.rs`).
    Withdraw { round: u32, reason: Option<String> },
    /// Enter a player late: name, id, rating, federation, club (each but
    /// the name may be left empty), then confirm (`players.rs`).
    Enter(Entry),
    /// Withdraw a player: the player (picked from the hall's players), a
    /// reason (required), then confirm (`players.rs`).
    Leave {
        query: Option<String>,
        player: Option<String>,
        reason: Option<String>,
    },
    /// After `player` was withdrawn from round `round`, which has not
    /// started and has them on a board: withdraw it and pair it again
    /// (`W` then `N` as one), confirmed (`players.rs`).
    Repair { round: u32, player: String },
}

/// A late entry being built (`players.rs`): each field `None` until
/// asked, then the answer (`Some(None)`: left empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    pub name: Option<String>,
    pub id: Option<Option<String>>,
    pub rating: Option<Option<u16>>,
    pub federation: Option<Option<String>>,
    pub club: Option<Option<String>>,
}

/// One option of a choice step, picked by its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub key: char,
    pub label: String,
}

/// What the dialog asks now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DialogStep {
    /// `y` carries the action out, `n`/Esc cancels.
    Confirm { message: String },
    /// Pick one option by key.
    Choose {
        prompt: String,
        options: Vec<Choice>,
    },
    /// Type a line; Enter submits. `required` refuses an empty line.
    Text {
        prompt: String,
        buffer: String,
        required: bool,
    },
}

/// An open dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    pub title: String,
    pub pending: Pending,
    pub step: DialogStep,
    /// Why the last answer was not taken (bad clock time, empty reason...).
    pub error: Option<String>,
}

/// What a dialog does next, from the values collected so far.
pub(super) enum Next {
    /// Ask for the next missing value.
    Ask(DialogStep),
    /// Complete: send `command` (`what` describes it), after asking
    /// `confirm` when the action is drastic.
    Send {
        command: Command,
        what: String,
        confirm: Option<String>,
    },
    /// `X` complete: acknowledge every open alert after asking `confirm`.
    AckAll { confirm: String },
    /// Nothing to send (the filter, going to a table).
    Close,
}

/// An answer to a dialog step.
pub(super) enum Answer {
    Choice(char),
    Text(String),
}

pub(super) fn text(prompt: &str, buffer: String, required: bool) -> Next {
    Next::Ask(DialogStep::Text {
        prompt: prompt.to_string(),
        buffer,
        required,
    })
}

pub(super) fn reason(s: &Strings, required: bool) -> Next {
    text(s.prompt_reason, String::new(), required)
}

pub(super) fn choose(prompt: &str, options: Vec<(char, String)>) -> Next {
    Next::Ask(DialogStep::Choose {
        prompt: prompt.to_string(),
        options: options
            .into_iter()
            .map(|(key, label)| Choice { key, label })
            .collect(),
    })
}

/// Table `t`, as a confirmation question starts.
fn on(s: &Strings, t: u16) -> String {
    format!("{} {t}", s.table)
}

/// A table's action as the status line and the in-flight list name it.
fn done(s: &Strings, t: u16, act: &str) -> String {
    format!("{} {t}: {act}", s.table)
}

pub(super) fn send(command: Command, what: String, confirm: Option<String>) -> Next {
    Next::Send {
        command,
        what,
        confirm,
    }
}

impl App {
    /// `/`: the filter, applied as it is typed.
    pub(super) fn open_filter(&mut self) {
        let step = DialogStep::Text {
            prompt: self.lang.s().filter.to_string(),
            buffer: self.filter.clone(),
            required: false,
        };
        self.open(Pending::Filter, step);
    }

    /// `g`: go to a table by number.
    pub(super) fn open_goto(&mut self) {
        let step = DialogStep::Text {
            prompt: self.lang.s().goto_table.to_string(),
            buffer: String::new(),
            required: true,
        };
        self.open(Pending::Goto, step);
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
    /// drastic action, or sends the command.
    pub(super) fn advance(&mut self, pending: Pending) -> Vec<Outgoing> {
        match self.next(&pending) {
            Next::Ask(step) => self.open(pending, step),
            Next::Send {
                confirm: Some(message),
                ..
            }
            | Next::AckAll { confirm: message } => {
                self.open(pending, DialogStep::Confirm { message })
            }
            Next::Send {
                command,
                what,
                confirm: None,
            } => return self.send(command, what),
            Next::Close => {}
        }
        Vec::new()
    }

    /// `y` on a confirmation: sends the complete action (a withdrawal to
    /// pair again remembers its id: its answer pairs the next round).
    fn confirmed(&mut self, pending: Pending) -> Vec<Outgoing> {
        match self.next(&pending) {
            Next::Send { command, what, .. } => {
                let out = self.send(command, what);
                if matches!(pending, Pending::Repair { .. }) {
                    self.repairing = out.first().map(|o| o.id);
                }
                out
            }
            Next::AckAll { .. } => self.send_ack_all(),
            // A confirmation is asked of a complete action only.
            Next::Ask(_) | Next::Close => Vec::new(),
        }
    }

    /// What comes next for `pending`: the function of its dialog.
    fn next(&self, pending: &Pending) -> Next {
        match pending {
            Pending::Filter | Pending::Goto => Next::Close,
            Pending::PauseTable { table, reason } => self.pause_table(*table, reason),
            Pending::PauseHall { reason } => self.pause_hall(reason),
            Pending::ResumeHall => self.resume_hall(),
            Pending::Seal { table, mv } => self.seal(*table, *mv),
            Pending::Unseal { table } => self.unseal(*table),
            Pending::Foul {
                table,
                choice,
                note,
            } => self.foul(*table, *choice, note),
            Pending::Adjust {
                table,
                times,
                reason,
            } => self.adjust(*table, *times, reason),
            Pending::Result {
                table,
                result,
                reason,
            } => self.result(*table, *result, reason),
            Pending::Accept { table, claim_id } => self.accept(*table, *claim_id),
            Pending::Override {
                table,
                claim_id,
                verdict,
                reason,
            } => self.override_claim(*table, *claim_id, *verdict, reason),
            Pending::Escalate {
                table,
                claim_id,
                reason,
            } => self.escalate(*table, *claim_id, reason),
            Pending::Export => self.export(),
            Pending::AckAll { count } => self.ack_all(*count),
            Pending::MoveLimit { table, choice } => self.move_limit(*table, *choice),
            Pending::RoundChange { reason: None, .. } => reason(self.lang.s(), true),
            Pending::RoundChange { .. } => Next::Close,
            Pending::Publish => self.publish_round(),
            Pending::Correct {
                round,
                table,
                result,
                reason,
            } => self.correct(*round, *table, *result, reason),
            Pending::Withdraw { round, reason } => self.withdraw(*round, reason),
            Pending::Enter(e) => self.enter_player(e),
            Pending::Leave {
                query,
                player,
                reason,
            } => self.leave(query, player, reason),
            Pending::Repair { round, player } => self.repair(*round, player),
        }
    }

    /// Publish the draft: confirm, then `PublishRound` with its changes.
    fn publish_round(&self) -> Next {
        let Some(d) = &self.next_round else {
            return Next::Close;
        };
        let round = i64::from(d.round.round);
        let what = say(self.lang, "console-round-publish", &[("round", round)]);
        let confirm = say(
            self.lang,
            "console-round-publish-confirm",
            &[
                ("round", round),
                ("boards", d.round.boards.len() as i64),
                ("changes", d.changes.len() as i64),
            ],
        );
        send(
            Command::PublishRound {
                round: Box::new(d.round.clone()),
                changes: d.changes.clone(),
            },
            what,
            Some(confirm),
        )
    }

    /// Pause one table: an optional reason.
    fn pause_table(&self, table: u16, why: &Option<String>) -> Next {
        let s = self.lang.s();
        let Some(why) = why else {
            return reason(s, false);
        };
        let command = Command::PauseTable {
            table,
            reason: why.clone(),
        };
        send(command, done(s, table, s.act_pause_table), None)
    }

    /// Pause the whole hall: an optional reason, then confirm.
    fn pause_hall(&self, why: &Option<String>) -> Next {
        let s = self.lang.s();
        let Some(why) = why else {
            return reason(s, false);
        };
        let command = Command::PauseHall {
            reason: why.clone(),
        };
        let confirm = format!("{}?", s.act_pause_hall);
        send(command, s.act_pause_hall.to_string(), Some(confirm))
    }

    /// Resume the whole hall: confirm.
    fn resume_hall(&self) -> Next {
        let s = self.lang.s();
        let confirm = format!("{}?", s.act_resume_hall);
        send(
            Command::ResumeHall,
            s.act_resume_hall.to_string(),
            Some(confirm),
        )
    }

    /// Seal (封棋): the sealed move, then confirm.
    fn seal(&self, table: u16, mv: Option<IccsMove>) -> Next {
        let s = self.lang.s();
        let Some(sealed_move) = mv else {
            return text(s.prompt_sealed_move, String::new(), true);
        };
        let confirm = format!(
            "{} — {}: {} ({sealed_move})?",
            on(s, table),
            s.act_seal,
            s.sealed_hidden
        );
        let command = Command::Seal { table, sealed_move };
        send(command, done(s, table, s.act_seal), Some(confirm))
    }

    /// Unseal: confirm.
    fn unseal(&self, table: u16) -> Next {
        let s = self.lang.s();
        let confirm = format!("{} — {}?", on(s, table), s.act_unseal);
        send(
            Command::Unseal { table },
            done(s, table, s.act_unseal),
            Some(confirm),
        )
    }

    /// Record a foul: side and kind, then a note.
    fn foul(&self, table: u16, choice: Option<(Side, FoulKind)>, note: &Option<String>) -> Next {
        let s = self.lang.s();
        let Some((side, kind)) = choice else {
            return choose(
                s.choose_foul,
                vec![
                    ('1', format!("{} {}", s.red, s.technical)),
                    ('2', format!("{} {}", s.red, s.violation)),
                    ('3', format!("{} {}", s.black, s.technical)),
                    ('4', format!("{} {}", s.black, s.violation)),
                ],
            );
        };
        let Some(note) = note else {
            return text(s.prompt_note, String::new(), false);
        };
        let command = Command::RecordFoul {
            table,
            side,
            kind,
            note: note.clone(),
        };
        send(command, done(s, table, s.act_foul), None)
    }

    /// Adjust a clock: both times, a reason, then confirm.
    fn adjust(&self, table: u16, times: Option<(u64, u64)>, why: &Option<String>) -> Next {
        let s = self.lang.s();
        let Some((red_ms, black_ms)) = times else {
            let now = self.times_now(table);
            let buffer = format!("{} {}", format_ms(now.0), format_ms(now.1));
            return text(s.prompt_times, buffer, true);
        };
        let Some(why) = why else {
            return reason(s, true);
        };
        let confirm = format!(
            "{} — {}: {} {} / {} {}?",
            on(s, table),
            s.act_adjust,
            s.red,
            format_ms(red_ms as i64),
            s.black,
            format_ms(black_ms as i64)
        );
        let command = Command::AdjustClock {
            table,
            red_ms,
            black_ms,
            reason: why.clone(),
        };
        send(command, done(s, table, s.act_adjust), Some(confirm))
    }

    /// Set a result: the result, a reason, then confirm.
    fn result(&self, table: u16, result: Option<GameResult>, why: &Option<String>) -> Next {
        let s = self.lang.s();
        let Some(result) = result else {
            return choose(
                s.choose_result,
                vec![
                    ('1', format!("1-0  {}", s.red_wins)),
                    ('2', format!("0-1  {}", s.black_wins)),
                    ('3', format!("½-½  {}", s.draw)),
                    ('4', format!("0-0  {}", s.both_lose)),
                ],
            );
        };
        let Some(why) = why else {
            return reason(s, true);
        };
        let confirm = format!(
            "{} — {}: {}?",
            on(s, table),
            s.act_result,
            result_label(s, result)
        );
        let command = Command::SetResult {
            table,
            result,
            reason: why.clone(),
        };
        send(command, done(s, table, s.act_result), Some(confirm))
    }

    /// Accept a claim's recommended ruling: confirm.
    fn accept(&self, table: u16, claim_id: u64) -> Next {
        let s = self.lang.s();
        let rec = self
            .hall()
            .and_then(|h| h.claims.iter().find(|c| c.id == claim_id))
            .map(|c| {
                let r = &c.recommended;
                crate::i18n::ruling_label(s, r.verdict, r.must_change, c.penalty)
            })
            .unwrap_or_default();
        let confirm = format!("{} — {}: {rec}?", on(s, table), s.act_accept);
        let command = Command::RuleOnClaim {
            table,
            claim_id,
            decision: Decision::Accept,
        };
        send(command, done(s, table, s.act_accept), Some(confirm))
    }

    /// Rule otherwise: the verdict, a reason (required), then confirm.
    fn override_claim(
        &self,
        table: u16,
        claim_id: u64,
        verdict: Option<(Verdict, Option<Side>)>,
        why: &Option<String>,
    ) -> Next {
        let s = self.lang.s();
        let Some((verdict, must_change)) = verdict else {
            return choose(
                s.choose_verdict,
                vec![
                    ('1', s.v_continue.to_string()),
                    ('2', s.v_red_change.to_string()),
                    ('3', s.v_black_change.to_string()),
                    ('4', s.draw.to_string()),
                    ('5', s.v_red_loses.to_string()),
                    ('6', s.v_black_loses.to_string()),
                ],
            );
        };
        let Some(why) = why else {
            return reason(s, true);
        };
        // An override never carries the recommendation's penalty: say so.
        let waived = self
            .hall()
            .and_then(|h| h.claims.iter().find(|c| c.id == claim_id))
            .map(|c| crate::i18n::waived_label(s, c.penalty))
            .unwrap_or_default();
        let confirm = format!(
            "{} — {}: {}{waived}?",
            on(s, table),
            s.act_override,
            crate::i18n::verdict_label(s, verdict, must_change)
        );
        let command = Command::RuleOnClaim {
            table,
            claim_id,
            decision: Decision::Override {
                verdict,
                must_change,
                reason: why.clone(),
            },
        };
        send(command, done(s, table, s.act_override), Some(confirm))
    }

    /// Hand a claim to the chief arbiter: a reason (required).
    fn escalate(&self, table: u16, claim_id: u64, why: &Option<String>) -> Next {
        let s = self.lang.s();
        let Some(why) = why else {
            return reason(s, true);
        };
        let command = Command::EscalateClaim {
            table,
            claim_id,
            reason: why.clone(),
        };
        send(command, done(s, table, s.act_escalate), None)
    }

    /// Export the round's results: confirm.
    fn export(&self) -> Next {
        let s = self.lang.s();
        let confirm = format!("{}?", s.act_export);
        send(
            Command::ExportRound,
            s.act_export.to_string(),
            Some(confirm),
        )
    }

    /// Acknowledge every open alert (`X`): confirm.
    fn ack_all(&self, count: usize) -> Next {
        let s = self.lang.s();
        Next::AckAll {
            confirm: format!("{} ({count})?", s.act_ack_all),
        }
    }

    /// Declare or cancel the move limit 限著 (ROC): the choice, then confirm.
    fn move_limit(&self, table: u16, choice: Option<move_limit::LimitChoice>) -> Next {
        let s = self.lang.s();
        let Some(c) = choice else {
            let declared = self.table(table).is_some_and(|t| t.move_limit.is_some());
            return choose(s.choose_move_limit, move_limit::options(s, declared));
        };
        let confirm = format!(
            "{} — {}: {}?",
            on(s, table),
            s.move_limit,
            move_limit::label(s, c)
        );
        let command = move_limit::command(table, c);
        send(command, done(s, table, s.act_move_limit), Some(confirm))
    }

    /// Both clocks of `table` now (0:00 for a table not known).
    fn times_now(&self, table: u16) -> (i64, i64) {
        self.table(table)
            .map(|t| self.live_times(t))
            .unwrap_or((0, 0))
    }

    /// Sends `command` to the focused hall and says so in the status line.
    fn send(&mut self, command: Command, what: String) -> Vec<Outgoing> {
        let what = self.at_hall(self.focus, &what);
        let sent = format!("{what}: {}", self.lang.s().sent);
        self.notify(sent, false);
        vec![self.outgoing(command, what)]
    }

    /// Acknowledges every open alert the role may, each to its hall.
    fn send_ack_all(&mut self) -> Vec<Outgoing> {
        let s = self.lang.s();
        let ids = self.open_alert_ids();
        let out: Vec<Outgoing> = ids
            .into_iter()
            .map(|(hall, id, table)| {
                let what = self.at_hall(hall, &format!("{} {table}: {}", s.table, s.act_ack));
                self.outgoing_to(hall, Command::AckAlert { alert_id: id }, what)
            })
            .collect();
        let sent = format!("{}: {}", s.act_ack_all, s.sent);
        self.notify(sent, false);
        out
    }

    /// A key while a dialog is open.
    pub(super) fn dialog_key(&mut self, mut dialog: Dialog, key: KeyEvent) -> Vec<Outgoing> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match &mut dialog.step {
            DialogStep::Confirm { .. } => match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => return self.confirmed(dialog.pending),
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

    /// Fills the value just answered into `pending`.
    #[allow(
        clippy::too_many_lines,
        reason = "one flat match with an arm per (dialog, answer) pair: every dialog's next step reads in one place"
    )]
    fn fill(&mut self, pending: Pending, answer: Answer) -> Result<Pending, String> {
        let s = self.lang.s();
        Ok(match (pending, answer) {
            (Pending::Filter, Answer::Text(t)) => {
                self.filter = t;
                self.clamp_selections();
                return Ok(Pending::Filter);
            }
            (Pending::Goto, Answer::Text(t)) => {
                self.goto(&t)?;
                Pending::Goto
            }
            (Pending::PauseTable { table, .. }, Answer::Text(t)) => Pending::PauseTable {
                table,
                reason: Some(t),
            },
            (Pending::PauseHall { .. }, Answer::Text(t)) => Pending::PauseHall { reason: Some(t) },
            (Pending::RoundChange { change, .. }, Answer::Text(t)) => {
                if let Some(d) = self.next_round.as_mut() {
                    d.apply(change, &t);
                    d.marked = None;
                }
                Pending::RoundChange {
                    change,
                    reason: Some(t),
                }
            }
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
                let times =
                    parse_times(&t, self.times_now(table)).ok_or_else(|| s.bad_time.to_string())?;
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
            (p @ (Pending::Correct { .. } | Pending::Withdraw { .. }), a) => {
                self.fill_correction(p, a)?
            }
            (p @ (Pending::Enter(_) | Pending::Leave { .. }), a) => self.fill_players(p, a)?,
            (p, _) => p,
        })
    }

    /// Goes to table `text` (a number) in the hall overview: the focused
    /// hall's table first, else the first shown hall's that has it.
    fn goto(&mut self, text: &str) -> Result<(), String> {
        let s = self.lang.s();
        let n: u16 = text.parse().map_err(|_| s.no_such_table.to_string())?;
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
        Ok(())
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
            Pending::RoundChange {
                change: super::round::Change::Colours(i),
                ..
            } => format!(
                "{} {} · {}",
                s.table,
                self.round_table(*i),
                word(self.lang, "console-round-swap")
            ),
            Pending::RoundChange {
                change: super::round::Change::Exchange(a, b),
                ..
            } => format!(
                "{} {} ⇄ {} · {}",
                s.table,
                self.round_table(*a),
                self.round_table(*b),
                word(self.lang, "console-round-exchange")
            ),
            Pending::Publish => word(self.lang, "console-round-publish-next").to_string(),
            Pending::Correct { .. } => word(self.lang, "console-correct-title").to_string(),
            Pending::Withdraw { round, .. } | Pending::Repair { round, .. } => say(
                self.lang,
                "console-withdraw-title",
                &[("round", i64::from(*round))],
            ),
            Pending::Enter(_) => word(self.lang, "console-entry-title").to_string(),
            Pending::Leave { .. } => word(self.lang, "console-leave-title").to_string(),
        }
    }
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
