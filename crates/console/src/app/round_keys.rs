//! The next round's keys (下一轮): `N` asks the server to pair the next
//! round (chief only: a deputy is told why not, as the roles table says);
//! in the proposal, `w` swaps a board's colours, `x` on two boards
//! exchanges their Black players (each with a reason), `P` publishes after
//! a confirmation, `Esc` leaves the draft for the hall (`N` pairs again).

use super::dialog::Pending;
use super::round::Change;
use super::{App, Outgoing, View};
use crate::i18n::Words;
use crate::perm::{self, Action};
use crossterm::event::{KeyCode, KeyEvent};
use proto::roles::{authorize, Principal};
use proto::Command;

impl App {
    /// `N`: pair the next round, or say why not.
    pub(super) fn start_next_round(&mut self) -> Vec<Outgoing> {
        self.aim();
        if let Some(role) = self.role() {
            if !perm::allowed(Some(role), Action::PairRound, None) {
                let why = authorize(&Principal::from(role), &proto::roles::Action::PairRound)
                    .err()
                    .map(|r| self.lang.text(&r.message))
                    .unwrap_or_default();
                let text = format!("{}: {why}", self.lang.s().not_allowed);
                let text = self.at_hall(self.focus, &text);
                self.notify(text, true);
                return Vec::new();
            }
        }
        if !self.may(Action::PairRound, None) {
            return Vec::new();
        }
        let what = crate::i18n::word(self.lang, "console-round-pair").to_string();
        vec![self.outgoing(Command::PairNextRound, what)]
    }

    /// A key in the proposal; `None` when it is not the proposal's.
    pub(super) fn round_key(&mut self, key: KeyEvent) -> Option<Vec<Outgoing>> {
        let sel = self.next_round.as_ref()?.sel;
        Some(match key.code {
            KeyCode::Char('w') => self.advance(Pending::RoundChange {
                change: Change::Colours(sel),
                reason: None,
            }),
            KeyCode::Char('x') => {
                let d = self.next_round.as_mut()?;
                match d.marked {
                    Some(m) if m != sel => self.advance(Pending::RoundChange {
                        change: Change::Exchange(m, sel),
                        reason: None,
                    }),
                    _ => {
                        d.marked = Some(sel);
                        Vec::new()
                    }
                }
            }
            KeyCode::Char('P') => self.advance(Pending::Publish),
            KeyCode::Esc => {
                self.view = View::Hall;
                Vec::new()
            }
            _ => return None,
        })
    }

    /// The table number of board `i` of the draft.
    pub(super) fn round_table(&self, i: usize) -> u16 {
        self.next_round
            .as_ref()
            .and_then(|d| d.round.boards.get(i))
            .map_or(0, |b| b.table)
    }
}
