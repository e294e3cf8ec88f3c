//! Correcting a result of an earlier round (更正成绩) and withdrawing the
//! published round (撤回本轮), the chief's dialogs: `C` asks for the round
//! (the one before the hall's, offered), the table, the result and a
//! reason, then confirms and sends `CorrectResult`; `W` asks for a reason,
//! then confirms and sends `WithdrawRound` for the round the hall plays.
//! A deputy's `C` or `W` is refused in the status line with the roles
//! table's words, as the server would refuse it. When a correction is
//! done while the hall plays a round that has not started (every game
//! waiting, no move), the status line offers `W` ([`App::offer_withdrawal`]).

use super::dialog::{choose, reason, result_label, send, text, Answer, Next, Pending};
use super::{App, Outgoing};
use crate::i18n::{say, word, Words};
use crate::perm::{self, Action};
use proto::roles::{authorize, Principal};
use proto::{Command, GameResult, TableStatus};

impl App {
    /// Whether the role may take `action`; if not, the status line says why
    /// in the roles table's words.
    pub(super) fn may_or_say(&mut self, action: Action) -> bool {
        self.aim();
        if let Some(role) = self.role() {
            if !perm::allowed(Some(role), action, None) {
                let why = perm::judged(action, None)
                    .and_then(|a| authorize(&Principal::from(role), &a).err())
                    .map(|r| self.lang.text(&r.message))
                    .unwrap_or_default();
                let text = format!("{}: {why}", self.lang.s().not_allowed);
                let text = self.at_hall(self.focus, &text);
                self.notify(text, true);
                return false;
            }
        }
        self.may(action, None)
    }

    /// `N`, `C` or `W` (`intent`): pair the next round, or the
    /// correction's or the withdrawal's dialog.
    pub(super) fn start_round_key(&mut self, intent: crate::keymap::Intent) -> Vec<Outgoing> {
        match intent {
            crate::keymap::Intent::WithdrawRound => self.start_withdrawal(),
            crate::keymap::Intent::CorrectResult => self.start_correction(),
            _ => self.start_next_round(),
        }
    }

    /// `C`: correct a result of an earlier round.
    fn start_correction(&mut self) -> Vec<Outgoing> {
        if !self.may_or_say(Action::CorrectResult) {
            return Vec::new();
        }
        self.advance(Pending::Correct {
            round: None,
            table: None,
            result: None,
            reason: None,
        })
    }

    /// `W`: withdraw the round the hall plays.
    fn start_withdrawal(&mut self) -> Vec<Outgoing> {
        if !self.may_or_say(Action::WithdrawRound) {
            return Vec::new();
        }
        let Some(round) = self.hall().map(|h| h.round) else {
            return Vec::new();
        };
        self.advance(Pending::Withdraw {
            round,
            reason: None,
        })
    }

    /// The correction's next step.
    pub(super) fn correct(
        &self,
        round: Option<u32>,
        table: Option<u16>,
        result: Option<GameResult>,
        why: &Option<String>,
    ) -> Next {
        let (s, lang) = (self.lang.s(), self.lang);
        let Some(round) = round else {
            let before = self.hall().map_or(1, |h| h.round.saturating_sub(1).max(1));
            return text(
                word(lang, "console-correct-round"),
                before.to_string(),
                true,
            );
        };
        let Some(table) = table else {
            return text(word(lang, "console-correct-table"), String::new(), true);
        };
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
        let at = [("round", i64::from(round)), ("table", i64::from(table))];
        let confirm = format!(
            "{} {}?",
            say(lang, "console-correct-confirm", &at),
            result_label(s, result)
        );
        let command = Command::CorrectResult {
            round,
            table,
            result,
            reason: why.clone(),
        };
        send(
            command,
            say(lang, "console-correct-sent", &at),
            Some(confirm),
        )
    }

    /// The withdrawal's next step.
    pub(super) fn withdraw(&self, round: u32, why: &Option<String>) -> Next {
        let Some(why) = why else {
            return reason(self.lang.s(), true);
        };
        let r = [("round", i64::from(round))];
        let confirm = say(self.lang, "console-withdraw-confirm", &r);
        let command = Command::WithdrawRound {
            round,
            reason: why.clone(),
        };
        send(
            command,
            say(self.lang, "console-withdraw-title", &r),
            Some(confirm),
        )
    }

    /// Fills the correction's or the withdrawal's answer.
    pub(super) fn fill_correction(
        &mut self,
        pending: Pending,
        answer: Answer,
    ) -> Result<Pending, String> {
        let lang = self.lang;
        Ok(match (pending, answer) {
            (Pending::Correct { round: None, .. }, Answer::Text(t)) => Pending::Correct {
                round: Some(
                    t.parse::<u32>()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| word(lang, "console-correct-bad-round").to_string())?,
                ),
                table: None,
                result: None,
                reason: None,
            },
            (
                Pending::Correct {
                    round, table: None, ..
                },
                Answer::Text(t),
            ) => Pending::Correct {
                round,
                table: Some(
                    t.parse::<u16>()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| word(lang, "console-correct-bad-table").to_string())?,
                ),
                result: None,
                reason: None,
            },
            (Pending::Correct { round, table, .. }, Answer::Choice(c)) => Pending::Correct {
                round,
                table,
                result: Some(match c {
                    '1' => GameResult::RedWins,
                    '2' => GameResult::BlackWins,
                    '3' => GameResult::Draw,
                    _ => GameResult::BothLose,
                }),
                reason: None,
            },
            (
                Pending::Correct {
                    round,
                    table,
                    result,
                    ..
                },
                Answer::Text(t),
            ) => Pending::Correct {
                round,
                table,
                result,
                reason: Some(t),
            },
            (Pending::Withdraw { round, .. }, Answer::Text(t)) => Pending::Withdraw {
                round,
                reason: Some(t),
            },
            (p, _) => p,
        })
    }

    /// After a correction was done: when the hall plays a round after the
    /// first that has not started (every game waiting, no move), the status
    /// line offers to withdraw it (`W`) and pair again.
    pub(super) fn offer_withdrawal(&mut self) {
        let Some(h) = self.hall() else {
            return;
        };
        let unstarted = h.round > 1
            && h.tables
                .iter()
                .all(|t| t.moves.is_empty() && matches!(t.status, TableStatus::Waiting));
        if unstarted && perm::allowed(self.role(), Action::WithdrawRound, None) {
            let text = say(
                self.lang,
                "console-withdraw-offer",
                &[("round", i64::from(h.round))],
            );
            let text = self.at_hall(self.focus, &text);
            self.notify(text, false);
        }
    }
}
