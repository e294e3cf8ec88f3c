//! Results corrected after their round (更正成绩): a `Command::CorrectResult`
//! stored while the hall plays a later round (an appeal upheld, an
//! override). The round's own records still end the game as it ended at
//! the table; the correction, stored later, replaces the result the
//! exports, the standings and the next pairing read. The game's note says
//! who corrected it and why, and the earlier result stays in the record
//! (and in the audit trail) before it.
//!
//! [`collect`] picks the corrections of a round out of the records after
//! it; [`apply`] sets them on the round's rebuilt games, the last
//! correction of a game counting.

use hall::record::Record;
use proto::{Command, EndReason, GameResult};

use crate::game::{GameEnd, PlayedGame, RawRecord};

/// One stored correction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    /// `gseq` of its record.
    pub gseq: u64,
    /// Server time it was stored (Unix ms).
    pub at_ms: u64,
    /// Who corrected it (`chief:王`).
    pub by: String,
    /// The game's table in its round.
    pub table: u16,
    /// The corrected result.
    pub result: GameResult,
    /// The chief's reason.
    pub reason: String,
}

/// The corrections of round `round` among `records` (the records stored
/// after the round, in store order; any other record is passed over). A
/// record that does not decode is passed over too: the round's own replay
/// is where an undecodable record is an error.
pub fn collect<'a>(
    round: u32,
    records: impl IntoIterator<Item = &'a RawRecord>,
) -> Vec<Correction> {
    records
        .into_iter()
        .filter_map(|(gseq, at_ms, payload)| {
            let Ok(Record::Command { author, command }) = Record::decode(payload) else {
                return None;
            };
            match command {
                Command::CorrectResult {
                    round: r,
                    table,
                    result,
                    reason,
                } if r == round => Some(Correction {
                    gseq: *gseq,
                    at_ms: *at_ms,
                    by: author.who(),
                    table,
                    result,
                    reason,
                }),
                _ => None,
            }
        })
        .collect()
}

/// Sets every correction on its game of `games` (one round's), in order:
/// the result, the arbiter as the reason, the chief's words as the detail,
/// and a note after the game's last move. A correction naming no game of
/// the round changes nothing (logged).
pub fn apply(games: &mut [PlayedGame], corrections: &[Correction]) {
    for c in corrections {
        let Some(g) = games
            .iter_mut()
            .find(|g| g.pairing.table == u32::from(c.table))
        else {
            tracing::warn!(
                table = c.table,
                gseq = c.gseq,
                "a corrected result names no game of its round: passed over"
            );
            continue;
        };
        let was = g
            .end
            .as_ref()
            .map_or_else(|| "no result".to_string(), |e| format!("{:?}", e.result));
        let note = format!(
            "arbiter {}: result corrected from {was} to {:?} because {}",
            c.by, c.result, c.reason
        );
        match g.notes.last_mut() {
            Some(last) if !g.moves.is_empty() => last.push(note),
            _ => g.initial_notes.push(note),
        }
        g.end = Some(GameEnd {
            result: c.result,
            reason: EndReason::Arbiter,
            detail: format!("result corrected: {}", c.reason),
            at_ms: c.at_ms,
        });
    }
}
