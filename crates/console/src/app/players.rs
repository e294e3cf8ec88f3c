//! Entering a player late (补报) and withdrawing a player (退赛), the
//! chief's dialogs: `A` asks for the name, the registration id, the
//! rating, the federation and the club (all but the name may be left
//! empty), then confirms and sends `EnterPlayer`; `D` asks for the player
//! (typed in part and picked from the players of the hall's round), a
//! reason, then confirms and sends `WithdrawPlayer` from the next round
//! (from the round the hall plays when it has not started: it is paired
//! again without them). A deputy's `A` or `D` is refused in the status
//! line with the roles table's words. Bad input is named in the dialog.
//!
//! A player withdrawn while the hall plays a published round that has not
//! started, on a board of it ("a withdrawal between pairing and start"):
//! once the server accepts it, the console offers at once to withdraw the
//! round and pair it again ([`Pending::Repair`]: `W` then `N` as one); on
//! `y` it sends `WithdrawRound`, and when that is done `PairNextRound`:
//! the preview shows the new pairing (without the player; a bye when the
//! count is odd, as the pairing system gives it).

use super::dialog::{choose, reason, send, text, Answer, Entry, Next, Pending};
use super::{App, Outgoing};
use crate::i18n::{say, word, Words};
use crate::perm::{self, Action};
use proto::{Command, Message, TableStatus};

/// The longest name, id or club the server takes (bytes; the hall's
/// `players::MAX_NAME`).
const MAX_NAME: usize = 64;
/// The longest federation code the server takes (bytes).
const MAX_FEDERATION: usize = 8;
/// The most players a pick offers (keys `1`–`9`).
const MAX_PICK: usize = 9;

/// A catalogue message with verbatim arguments, in `lang`.
fn said(lang: crate::i18n::Lang, id: &str, args: &[(&str, &str)]) -> String {
    let m = args
        .iter()
        .fold(Message::new(id), |m, (k, v)| m.verbatim(k, *v));
    ::i18n::render(lang, &m)
}

/// An optional text answer: `None` when empty; refused past `max` bytes or
/// with a control character, naming what was wrong.
fn optional(lang: crate::i18n::Lang, t: String, max: usize) -> Result<Option<String>, String> {
    let t = t.trim().to_string();
    if t.len() > max {
        return Err(say(lang, "console-entry-too-long", &[("max", max as i64)]));
    }
    if t.chars().any(char::is_control) {
        return Err(word(lang, "console-entry-control").to_string());
    }
    Ok((!t.is_empty()).then_some(t))
}

impl App {
    /// `A`: enter a player late.
    pub(super) fn start_entry(&mut self) -> Vec<Outgoing> {
        if !self.may_or_say(Action::EnterPlayer) {
            return Vec::new();
        }
        self.advance(Pending::Enter(Entry::default()))
    }

    /// `D`: withdraw a player.
    pub(super) fn start_leave(&mut self) -> Vec<Outgoing> {
        if !self.may_or_say(Action::WithdrawPlayer) {
            return Vec::new();
        }
        self.advance(Pending::Leave {
            query: None,
            player: None,
            reason: None,
        })
    }

    /// The round the hall plays when it is published and has not started
    /// (every game waiting, no move): a player may leave from it.
    fn unstarted_round(&self) -> Option<u32> {
        let h = self.hall()?;
        let unstarted = h.round > 1
            && h.tables
                .iter()
                .all(|t| t.moves.is_empty() && matches!(t.status, TableStatus::Waiting));
        unstarted.then_some(h.round)
    }

    /// The round a withdrawal of `player` takes effect from: the round the
    /// hall plays when it has not started and has them on a board, else
    /// the next.
    fn leaves_from(&self, player: &str) -> u32 {
        let round = self.hall().map_or(1, |h| h.round);
        match self.unstarted_round() {
            Some(r) if self.on_a_board(player) => r,
            _ => round + 1,
        }
    }

    /// Whether `player` is on a board of the hall's round.
    fn on_a_board(&self, player: &str) -> bool {
        self.hall().is_some_and(|h| {
            h.tables
                .iter()
                .any(|t| t.red == player || t.black == player)
        })
    }

    /// The players of the hall's round, by name.
    fn players(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .hall()
            .map(|h| {
                h.tables
                    .iter()
                    .flat_map(|t| [t.red.clone(), t.black.clone()])
                    .filter(|n| !n.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names.dedup();
        names
    }

    /// The players whose name holds `query` (just the one named exactly).
    fn matching(&self, query: &str) -> Vec<String> {
        let all = self.players();
        if all.iter().any(|n| n == query) {
            return vec![query.to_string()];
        }
        all.into_iter().filter(|n| n.contains(query)).collect()
    }

    /// The entry's next step.
    pub(super) fn enter_player(&self, e: &Entry) -> Next {
        let lang = self.lang;
        let ask = |id: &'static str, required: bool| text(word(lang, id), String::new(), required);
        let Some(name) = &e.name else {
            return ask("console-entry-name", true);
        };
        let Some(id) = &e.id else {
            return ask("console-entry-id", false);
        };
        let Some(rating) = e.rating else {
            return ask("console-entry-rating", false);
        };
        let Some(federation) = &e.federation else {
            return ask("console-entry-federation", false);
        };
        let Some(club) = &e.club else {
            return ask("console-entry-club", false);
        };
        let round = self.hall().map_or(2, |h| h.round + 1).to_string();
        let mut about: Vec<String> = id.iter().cloned().collect();
        about.extend(rating.map(|r| r.to_string()));
        about.extend(federation.iter().cloned());
        about.extend(club.iter().cloned());
        let who = match about.is_empty() {
            true => name.clone(),
            false => format!("{name} ({})", about.join(", ")),
        };
        let confirm = said(
            lang,
            "console-entry-confirm",
            &[("name", &who), ("round", &round)],
        );
        let command = Command::EnterPlayer {
            name: name.clone(),
            id: id.clone(),
            rating,
            federation: federation.clone(),
            club: club.clone(),
        };
        send(
            command,
            said(lang, "console-entry-sent", &[("name", name)]),
            Some(confirm),
        )
    }

    /// The withdrawal's next step.
    pub(super) fn leave(
        &self,
        query: &Option<String>,
        player: &Option<String>,
        why: &Option<String>,
    ) -> Next {
        let lang = self.lang;
        let Some(player) = player else {
            if let Some(q) = query {
                let options = self
                    .matching(q)
                    .into_iter()
                    .zip('1'..='9')
                    .map(|(n, k)| (k, n))
                    .collect();
                return choose(word(lang, "console-leave-several"), options);
            }
            return text(word(lang, "console-leave-player"), String::new(), true);
        };
        let Some(why) = why else {
            return reason(lang.s(), true);
        };
        let from = self.leaves_from(player);
        let round = from.to_string();
        let confirm = said(
            lang,
            "console-leave-confirm",
            &[("player", player), ("round", &round)],
        );
        let command = Command::WithdrawPlayer {
            player: player.clone(),
            from_round: u16::try_from(from).unwrap_or(u16::MAX),
            reason: why.clone(),
        };
        send(
            command,
            said(lang, "console-leave-sent", &[("player", player)]),
            Some(confirm),
        )
    }

    /// Withdraw round `round` to pair it again without `player`: confirm.
    pub(super) fn repair(&self, round: u32, player: &str) -> Next {
        let lang = self.lang;
        let r = round.to_string();
        let confirm = said(
            lang,
            "console-repair-offer",
            &[("player", player), ("round", &r)],
        );
        let command = Command::WithdrawRound {
            round,
            reason: said(lang, "console-repair-reason", &[("player", player)]),
        };
        send(
            command,
            say(
                lang,
                "console-withdraw-title",
                &[("round", i64::from(round))],
            ),
            Some(confirm),
        )
    }

    /// Fills the entry's or the withdrawal's answer, naming bad input.
    pub(super) fn fill_players(
        &mut self,
        pending: Pending,
        answer: Answer,
    ) -> Result<Pending, String> {
        let lang = self.lang;
        Ok(match (pending, answer) {
            (Pending::Enter(mut e), Answer::Text(t)) => {
                if e.name.is_none() {
                    e.name = Some(
                        optional(lang, t, MAX_NAME)?
                            .ok_or_else(|| lang.s().required.to_string())?,
                    );
                } else if e.id.is_none() {
                    e.id = Some(optional(lang, t, MAX_NAME)?);
                } else if e.rating.is_none() {
                    let t = t.trim();
                    e.rating =
                        Some(match t.is_empty() {
                            true => None,
                            false => Some(t.parse::<u16>().map_err(|_| {
                                said(lang, "console-entry-bad-rating", &[("text", t)])
                            })?),
                        });
                } else if e.federation.is_none() {
                    e.federation = Some(optional(lang, t, MAX_FEDERATION)?);
                } else {
                    e.club = Some(optional(lang, t, MAX_NAME)?);
                }
                Pending::Enter(e)
            }
            (Pending::Leave { player: None, .. }, Answer::Text(t)) => {
                let found = self.matching(&t);
                match found.len() {
                    0 => return Err(said(lang, "console-leave-no-player", &[("text", &t)])),
                    1 => Pending::Leave {
                        query: None,
                        player: found.into_iter().next(),
                        reason: None,
                    },
                    n if n > MAX_PICK => {
                        return Err(say(lang, "console-leave-too-many", &[("count", n as i64)]))
                    }
                    _ => Pending::Leave {
                        query: Some(t),
                        player: None,
                        reason: None,
                    },
                }
            }
            (Pending::Leave { query, .. }, Answer::Choice(c)) => {
                let found = self.matching(query.as_deref().unwrap_or_default());
                let i = c.to_digit(10).map_or(0, |d| d as usize).saturating_sub(1);
                Pending::Leave {
                    query: None,
                    player: found.get(i).cloned(),
                    reason: None,
                }
            }
            (Pending::Leave { player, .. }, Answer::Text(t)) => Pending::Leave {
                query: None,
                player,
                reason: Some(t),
            },
            (p, _) => p,
        })
    }

    /// After a player's withdrawal was done: when it takes effect from the
    /// round the hall plays, unstarted, with the player on a board of it,
    /// the console asks at once to withdraw the round and pair it again.
    pub(super) fn offer_repair(&mut self, player: &str, from: u16) {
        let Some(round) = self.unstarted_round() else {
            return;
        };
        if u32::from(from) != round
            || !self.on_a_board(player)
            || !perm::allowed(self.role(), Action::WithdrawRound, None)
        {
            return;
        }
        self.advance(Pending::Repair {
            round,
            player: player.to_string(),
        });
    }
}
