//! Rounds published from the console (已发布的轮次): the config file holds
//! the registry and the first round; every later round is a
//! `Command::PublishRound` stored in the hall's record, its audit entry
//! listed among the store's published rounds (`Store::published_rounds`,
//! SQLite's `published_rounds` table). [`read`] decodes them, and [`apply`]
//! adds them to the config the server and the export build the hall from
//! (in memory: nobody rewrites the config file).
//!
//! A published round counts when it was accepted and follows the round
//! before it (the config's current round, or the last published one); each
//! starts at its own record's `gseq`, which the data dir's round starts
//! (`hall-rounds.json`) record (`crate::stored::note_published_starts`).
//!
//! A published round the chief withdrew before it started
//! (`Command::WithdrawRound`, listed among the published rounds too) does
//! not count: [`read`] leaves it out, [`withdrawals`] names it, and the
//! data dir's round starts mark it withdrawn
//! (`crate::stored::note_withdrawals`), so that no export takes it for a
//! round and the round before it keeps its records.
//!
//! Late entries and withdrawals of players (`Command::EnterPlayer`,
//! `Command::WithdrawPlayer`) are listed there too: [`players`] reads
//! them and [`apply_players`] adds them to the config's
//! `tournament.late_entries` and `tournament.withdrawals` (in memory), which
//! the TRF the next round is paired from reads (`crate::trf`).

use std::path::Path;

use config::{HallConfig, Pairing, Round};
use hall::record::Record;
use proto::{Command, RoundProposal};
use store::{AuditEntry, AuditOutcome};

use crate::ExportError;

/// A published round and where it starts in the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// `gseq` of the record that published it: the round's first record.
    pub gseq: u64,
    /// The round as published.
    pub round: RoundProposal,
}

/// A published round withdrawn before it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Withdrawal {
    /// The round.
    pub round: u32,
    /// `gseq` of the record that published it (its start).
    pub published_gseq: u64,
    /// `gseq` of the record that withdrew it.
    pub gseq: u64,
}

/// The published rounds of `entries` (a store's `published_rounds`), in
/// store order, without the withdrawn ones: each entry's record is decoded
/// and must be an accepted `PublishRound` or `WithdrawRound` (another is
/// skipped with a warning). A record that does not decode is an error
/// naming it.
pub fn read(entries: &[AuditEntry]) -> Result<Vec<Published>, ExportError> {
    Ok(read_all(entries)?.0)
}

/// The withdrawals among `entries` (a store's `published_rounds`).
pub fn withdrawals(entries: &[AuditEntry]) -> Result<Vec<Withdrawal>, ExportError> {
    Ok(read_all(entries)?.1)
}

/// The entries and withdrawals of players among `entries` (a store's
/// `published_rounds`), in store order.
pub fn players(entries: &[AuditEntry]) -> Result<Vec<Command>, ExportError> {
    Ok(read_all(entries)?.2)
}

/// What `read_all` found: the rounds that count, the withdrawn rounds,
/// the players' entries and withdrawals.
type Found = (Vec<Published>, Vec<Withdrawal>, Vec<Command>);

/// The rounds that count, the withdrawals and the players' commands, in
/// store order.
fn read_all(entries: &[AuditEntry]) -> Result<Found, ExportError> {
    let mut out: Vec<Published> = Vec::new();
    let mut withdrawn = Vec::new();
    let mut players = Vec::new();
    for e in entries {
        if e.record.outcome != AuditOutcome::Accepted {
            continue;
        }
        let rec = Record::decode(&e.record.payload).map_err(|err| {
            ExportError::Undecodable(format!("published round at gseq {}: {err}", e.id))
        })?;
        if let Record::Command {
            command: Command::PublishRound { round, .. },
            ..
        } = rec
        {
            out.push(Published {
                gseq: e.id,
                round: *round,
            });
        } else if let Record::Command {
            command: Command::WithdrawRound { round, .. },
            ..
        } = rec
        {
            match out.iter().rposition(|p| p.round.round == round) {
                Some(i) => withdrawn.push(Withdrawal {
                    round,
                    published_gseq: out.remove(i).gseq,
                    gseq: e.id,
                }),
                None => tracing::warn!(
                    gseq = e.id,
                    round,
                    "a withdrawal of a round that was not published: passed over"
                ),
            }
        } else if let Record::Command {
            command: command @ (Command::EnterPlayer { .. } | Command::WithdrawPlayer { .. }),
            ..
        } = rec
        {
            players.push(command);
        } else {
            tracing::warn!(
                gseq = e.id,
                "listed as a published round but is another record: skipped"
            );
        }
    }
    Ok((out, withdrawn, players))
}

/// `config` with the players' entries and withdrawals of `commands` (in
/// store order) added to `tournament.late_entries` and
/// `tournament.withdrawals`: an entry whose key is there already, or a
/// second withdrawal of a player, is passed over (the server refuses both
/// before storing).
pub fn apply_players(config: &mut HallConfig, commands: &[Command]) {
    let t = &mut config.tournament;
    for c in commands {
        match c {
            Command::EnterPlayer {
                name,
                id,
                rating,
                federation,
                club,
            } => {
                let p = config::registry::Player {
                    start_number: 0,
                    id: id.clone().unwrap_or_default(),
                    name: name.clone(),
                    rating: rating.map(u32::from),
                    federation: federation.clone(),
                    club: club.clone(),
                    team: None,
                    bye_eligible: true,
                };
                let key = config::Tournament::entry_key(&p);
                if !t
                    .late_entries
                    .iter()
                    .any(|q| config::Tournament::entry_key(q) == key)
                {
                    t.late_entries.push(p);
                }
            }
            Command::WithdrawPlayer {
                player, from_round, ..
            } if !t.withdrawals.iter().any(|(k, _)| k == player) => {
                t.withdrawals.push((player.clone(), u32::from(*from_round)));
            }
            _ => {}
        }
    }
}

/// The published rounds in the SQLite store of `data_dir` (none without a store).
pub fn read_dir(data_dir: &Path) -> Result<Vec<Published>, ExportError> {
    if !data_dir.join(store::DB_FILE).exists() {
        return Ok(Vec::new());
    }
    let reader = store::StoreReader::open_dir(data_dir)?;
    read(&reader.published_rounds()?)
}

/// The withdrawn rounds in the SQLite store of `data_dir` (none without a store).
pub fn withdrawals_dir(data_dir: &Path) -> Result<Vec<Withdrawal>, ExportError> {
    if !data_dir.join(store::DB_FILE).exists() {
        return Ok(Vec::new());
    }
    let reader = store::StoreReader::open_dir(data_dir)?;
    withdrawals(&reader.published_rounds()?)
}

/// `config` without the withdrawn round `round` (a `[[round]]` added by
/// [`apply`]): the round before is the current round again.
pub fn withdraw(config: &mut HallConfig, round: u32) {
    if config.tournament.current_round != round || round <= 1 {
        return;
    }
    config.rounds.retain(|r| r.number != round);
    config.tournament.current_round = round - 1;
}

/// `config` with the published rounds that follow its current round added
/// as `[[round]]`s, the last of them the current round. Returns the rounds
/// that counted.
pub fn apply(config: &mut HallConfig, published: &[Published]) -> Vec<Published> {
    let mut counted = Vec::new();
    for p in published {
        if p.round.round != config.tournament.current_round + 1 {
            if p.round.round > config.tournament.current_round {
                tracing::warn!(
                    round = p.round.round,
                    current = config.tournament.current_round,
                    gseq = p.gseq,
                    "a published round does not follow the round before it: not used"
                );
            }
            continue;
        }
        config.rounds.retain(|r| r.number != p.round.round);
        config.rounds.push(round_of(&p.round));
        config.tournament.current_round = p.round.round;
        counted.push(p.clone());
    }
    counted
}

/// A published round as the config's `[[round]]`.
pub fn round_of(p: &RoundProposal) -> Round {
    Round {
        number: p.round,
        date: None,
        start: None,
        tables: p
            .boards
            .iter()
            .map(|b| Pairing {
                table: u32::from(b.table),
                red: b.red.clone(),
                black: b.black.clone(),
                red_team: None,
                black_team: None,
                red_id: b.red_id.clone(),
                black_id: b.black_id.clone(),
            })
            .collect(),
    }
}
