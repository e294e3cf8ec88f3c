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

/// The published rounds of `entries` (a store's `published_rounds`), in
/// store order: each entry's record is decoded and must be an accepted
/// `PublishRound` (another is skipped with a warning). A record that does
/// not decode is an error naming it.
pub fn read(entries: &[AuditEntry]) -> Result<Vec<Published>, ExportError> {
    let mut out = Vec::new();
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
        } else {
            tracing::warn!(
                gseq = e.id,
                "listed as a published round but is another record: skipped"
            );
        }
    }
    Ok(out)
}

/// The published rounds in the SQLite store of `data_dir` (none without a store).
pub fn read_dir(data_dir: &Path) -> Result<Vec<Published>, ExportError> {
    if !data_dir.join(store::DB_FILE).exists() {
        return Ok(Vec::new());
    }
    let reader = store::StoreReader::open_dir(data_dir)?;
    read(&reader.published_rounds()?)
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
