//! Late entries and withdrawals of players (补报与退赛): the chief enters a
//! player after round 1 (`Command::EnterPlayer`) or withdraws one from a
//! round on (`Command::WithdrawPlayer`). Chief only, stored and audited;
//! neither changes the round being played: the next pairing reads them
//! from the record (the server's TRF for `PairNextRound` lists an entered
//! player with 0 points for the rounds missed, and a withdrawn one as
//! absent, `XXZ`).
//!
//! The hall checks what it can see (a name non-empty and bounded, a
//! reason, `from_round` after the round being played, or the round being
//! played while it can still be withdrawn: published, not started, so that
//! the chief withdraws it and pairs it again without the player); whether
//! the player
//! exists and is not withdrawn already is a question of the tournament's
//! players, which the record holds across rounds: [`Roster`], built by the
//! server from the registry, the rounds' pairings and the stored entries
//! and withdrawals, checks it before the command is stored.

use std::collections::BTreeMap;

use proto::roles::Action;
use proto::{Command, Message};

use super::round::MAX_REASON;
use super::Refusal;
use crate::audit::nested;
use crate::hall::Hall;

/// The longest name, registration id or club accepted (bytes).
pub const MAX_NAME: usize = 64;
/// The longest federation code accepted (bytes).
pub const MAX_FEDERATION: usize = 8;

/// Who may: the chief.
pub(super) fn action(cmd: &Command) -> Action {
    match cmd {
        Command::EnterPlayer { .. } => Action::EnterPlayer,
        _ => Action::WithdrawPlayer,
    }
}

/// In words, for the audit trail.
pub(super) fn describe(cmd: &Command) -> String {
    match cmd {
        Command::EnterPlayer {
            name,
            id,
            rating,
            federation,
            club,
        } => {
            let mut extra: Vec<String> = Vec::new();
            extra.extend(id.iter().map(|i| format!("id {i}")));
            extra.extend(rating.iter().map(|r| format!("rating {r}")));
            extra.extend(federation.iter().cloned());
            extra.extend(club.iter().cloned());
            let extra = match extra.is_empty() {
                true => String::new(),
                false => format!(" ({})", extra.join(", ")),
            };
            format!("enter player {name}{extra} late, from the next round")
        }
        Command::WithdrawPlayer {
            player,
            from_round,
            reason,
        } => format!("withdraw player {player} from round {from_round} because {reason}"),
        _ => String::new(),
    }
}

/// Typed ([`super::typed`]): the details given, in `describe`'s order.
pub(super) fn typed(cmd: &Command) -> Message {
    match cmd {
        Command::EnterPlayer {
            name,
            id,
            rating,
            federation,
            club,
        } => {
            let mut details: Vec<Message> = Vec::new();
            details.extend(
                id.iter()
                    .map(|i| Message::new("audit-player-id").verbatim("id", i)),
            );
            details.extend(
                rating
                    .iter()
                    .map(|r| Message::new("audit-player-rating").int("rating", *r)),
            );
            details.extend(
                federation
                    .iter()
                    .map(|f| Message::new("audit-player-federation").verbatim("federation", f)),
            );
            details.extend(
                club.iter()
                    .map(|c| Message::new("audit-player-club").verbatim("club", c)),
            );
            if details.is_empty() {
                return Message::new("audit-enter-player").verbatim("name", name);
            }
            let mut list = nested(
                Message::new(proto::convert::LIST),
                "sep",
                Message::new("audit-sep"),
            );
            for d in details {
                list = nested(list, "item", d);
            }
            let m = Message::new("audit-enter-player-details").verbatim("name", name);
            nested(m, "details", list)
        }
        Command::WithdrawPlayer {
            player,
            from_round,
            reason,
        } => Message::new("audit-withdraw-player")
            .verbatim("player", player)
            .int("round", *from_round)
            .verbatim("reason", reason),
        other => super::typed(other),
    }
}

/// A text field that must be given and bounded.
fn bounded(what: &str, text: &str, max: usize) -> Result<(), Message> {
    let field = |id: &str| {
        Message::new(id).arg(
            "field",
            proto::Arg::Message(Box::new(Message::new(format!("why-field-{what}")))),
        )
    };
    if text.trim().is_empty() {
        return Err(field("why-field-empty"));
    }
    if text.len() > max {
        return Err(field("why-field-too-long").int("max", i64::try_from(max).unwrap_or(i64::MAX)));
    }
    if text.chars().any(char::is_control) {
        return Err(field("why-field-control"));
    }
    Ok(())
}

/// What the hall sees of an entry or a withdrawal (see the module docs).
pub(super) fn check(hall: &Hall, cmd: &Command) -> Result<(), Refusal> {
    match cmd {
        Command::EnterPlayer {
            name,
            id,
            federation,
            club,
            ..
        } => {
            let bad = |why: Message| Refusal::BadEntry {
                name: name.clone(),
                why,
            };
            bounded("name", name, MAX_NAME).map_err(bad)?;
            if let Some(id) = id {
                bounded("registration-id", id, MAX_NAME).map_err(bad)?;
            }
            if let Some(f) = federation {
                bounded("federation", f, MAX_FEDERATION).map_err(bad)?;
            }
            if let Some(c) = club {
                bounded("club", c, MAX_NAME).map_err(bad)?;
            }
            Ok(())
        }
        Command::WithdrawPlayer {
            player,
            from_round,
            reason,
        } => {
            let bad = |why: Message| Refusal::BadPlayerWithdrawal {
                player: player.clone(),
                why,
            };
            bounded("player", player, MAX_NAME).map_err(bad)?;
            let playing = hall.info.round;
            // From the round the hall plays only while it can still be
            // withdrawn (published, not started): the chief withdraws it
            // next and pairs it again without the player.
            let repairable = u32::from(*from_round) == playing && hall.can_withdraw();
            if u32::from(*from_round) <= playing && !repairable {
                return Err(bad(Message::new("why-player-not-after")
                    .int("round", *from_round)
                    .int("playing", playing)));
            }
            bounded("reason", reason, MAX_REASON).map_err(bad)
        }
        _ => Ok(()),
    }
}

/// The tournament's players as the record holds them, by key (the
/// registration id, or the name when none), each with the round it was
/// withdrawn from, if withdrawn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roster {
    players: BTreeMap<String, Option<u16>>,
}

impl Roster {
    /// The roster of the players `keys` (the registry's and the pairings'),
    /// none withdrawn.
    pub fn new<I: IntoIterator<Item = String>>(keys: I) -> Self {
        Roster {
            players: keys.into_iter().map(|k| (k, None)).collect(),
        }
    }

    /// The key an entry gives its player.
    pub fn entry_key(cmd: &Command) -> Option<&str> {
        match cmd {
            Command::EnterPlayer { name, id, .. } => Some(id.as_deref().unwrap_or(name)),
            _ => None,
        }
    }

    /// Whether `key` is a player of the tournament.
    pub fn contains(&self, key: &str) -> bool {
        self.players.contains_key(key)
    }

    /// The round `key` was withdrawn from, if withdrawn.
    pub fn withdrawn_from(&self, key: &str) -> Option<u16> {
        self.players.get(key).copied().flatten()
    }

    /// Whether `cmd` (an entry or a withdrawal) fits this roster: an entry
    /// of a player not yet a player, a withdrawal of a player who is one
    /// and is not withdrawn already.
    pub fn check(&self, cmd: &Command) -> Result<(), Refusal> {
        match cmd {
            Command::EnterPlayer { name, .. } => match Roster::entry_key(cmd) {
                Some(key) if self.contains(key) => Err(Refusal::BadEntry {
                    name: name.clone(),
                    why: Message::new("why-player-already").verbatim("key", key),
                }),
                _ => Ok(()),
            },
            Command::WithdrawPlayer { player, .. } => {
                let bad = |why: Message| Refusal::BadPlayerWithdrawal {
                    player: player.clone(),
                    why,
                };
                match self.players.get(player) {
                    None => Err(bad(Message::new("why-no-such-player"))),
                    Some(Some(r)) => {
                        Err(bad(Message::new("why-withdrawn-already").int("round", *r)))
                    }
                    Some(None) => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// Adds what `cmd` (a stored entry or withdrawal) changes.
    pub fn apply(&mut self, cmd: &Command) {
        match cmd {
            Command::EnterPlayer { .. } => {
                if let Some(key) = Roster::entry_key(cmd) {
                    self.players.entry(key.to_string()).or_insert(None);
                }
            }
            Command::WithdrawPlayer {
                player, from_round, ..
            } => {
                if let Some(w) = self.players.get_mut(player) {
                    w.get_or_insert(*from_round);
                }
            }
            _ => {}
        }
    }
}
