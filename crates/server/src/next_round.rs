//! The next round in the running hall (下一轮): the hall's config gives
//! round 1; every later round is published from the chief's console and
//! lives in the store (`export::published`).
//!
//! - [`propose`]: `Command::PairNextRound` — the rounds so far as the
//!   export's TRF, paired with the tournament's system by the pairing
//!   crate, each board with *why this pair* (score group, colours,
//!   rematches avoided) as catalogue messages.
//! - [`started`]: called by the committer right after a `PublishRound`
//!   moved the hall to the new round (the record is the last of its
//!   batch, so its `gseq` is the round's first): the round start is
//!   recorded in the data dir, the snapshotter takes the new round's
//!   basis, the console export exports the new round, every console gets
//!   a fresh snapshot and every table terminal is disconnected, so that it
//!   signs in again and gets its new pairing in the hello.
//! - [`withdrawn`]: called by the committer right after a `WithdrawRound`
//!   put the hall back in the round before: the data dir's round starts
//!   mark the withdrawn round (so the round before keeps its records and
//!   a restart plays it; on PostgreSQL the withdrawal in the log says
//!   so), the export and the snapshotter go back to the round before,
//!   every console gets a fresh snapshot and every table terminal is
//!   disconnected: it signs in again into the round before
//!   (its game finished) and waits for the next publication.

use std::collections::HashMap;
use std::path::Path;

use config::{HallConfig, TournamentKind};
use export::published;
use pairing::{trf, PairError, Pairing};
use proto::{refusals, Message, RoundBoard, RoundProposal, Side};

use crate::shared::Shared;
use crate::snapshot::{Basis, Snapshotter};
use hall::hall::Hall;

/// The hall's system for the next round, by the config.
fn system(config: &HallConfig) -> pairing_system::System {
    use config::registry::PairingSystem;
    match (config.tournament.kind, config.tournament.pairing) {
        (TournamentKind::RoundRobin, _) | (_, PairingSystem::RoundRobin) => {
            pairing_system::System::RoundRobin
        }
        (_, PairingSystem::Dutch) => pairing_system::System::Dutch,
        (_, PairingSystem::Xiangqi) => pairing_system::System::Xiangqi,
    }
}

mod pairing_system {
    /// The system a hall pairs with.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum System {
        Xiangqi,
        Dutch,
        RoundRobin,
    }

    impl System {
        /// The name `caipan pair --system` takes.
        pub fn name(self) -> &'static str {
            match self {
                System::Xiangqi => "xiangqi",
                System::Dutch => "dutch",
                System::RoundRobin => "round-robin",
            }
        }
    }
}

/// Pairs the round after `config`'s current round from the record in
/// `data_dir`, onto the hall's table numbers `tables` (in order). The
/// error is the sentence the chief reads.
pub fn propose(
    data_dir: &Path,
    config: &HallConfig,
    tables: &[u16],
    seed: u64,
) -> Result<RoundProposal, Message> {
    let round = config.tournament.current_round;
    let options = export::RenderOptions::default();
    let words = |w: String| refusals::why_words(&w);
    let text = match export::render(data_dir, config, round, export::Format::Trf, options) {
        Ok(export::Rendered::Single(t)) => t,
        Ok(export::Rendered::Files(_)) => {
            return Err(words("the TRF export is not one file".into()))
        }
        Err(e) => return Err(words(format!("the rounds so far cannot be read: {e}"))),
    };
    propose_from_trf(&text, config, tables, seed)
}

/// The pairing engine's error as a `why-pairing-*` message; English
/// reads as the engine's own words (`PairError`'s `Display`).
pub fn pair_why(e: &PairError) -> Message {
    match e {
        PairError::TooFewPlayers { round, present } => {
            refusals::why_pairing_too_few_players(*round, *present)
        }
        PairError::NoPairing { round } => refusals::why_pairing_none(*round),
        PairError::RoundRobinSize { players, min, max } => {
            refusals::why_pairing_round_robin_size(*players, *min, *max)
        }
        PairError::RoundRobinRound {
            round,
            players,
            rounds,
        } => refusals::why_pairing_round_robin_round(*round, *players, *rounds),
        PairError::NotNextRound { asked, held } => refusals::why_pairing_not_next(*asked, *held),
    }
}

/// Pairs the round after `config`'s current round from `text`, the TRF
/// of the rounds so far (one hall's export, or a whole tournament's across
/// its halls, `crate::halls_round`), onto the table numbers `tables` (in
/// order). The error is why, as `reply-pairing-failed` nests it: the
/// pairing engine's error typed (`why-pairing-*`, [`pair_why`]), else
/// the words of what failed (`why-words`).
pub fn propose_from_trf(
    text: &str,
    config: &HallConfig,
    tables: &[u16],
    seed: u64,
) -> Result<RoundProposal, Message> {
    let round = config.tournament.current_round;
    let parsed = trf::parse(text, Some(round + 1))
        .map_err(|e| refusals::why_words(&format!("the rounds so far as a TRF: {e}")))?;
    let field = &parsed.field;
    let system = system(config);
    let paired: Result<Pairing, PairError> = match system {
        pairing_system::System::Xiangqi => pairing::xiangqi::pair(
            field,
            &pairing::xiangqi::Options {
                round1: pairing::xiangqi::Round1::Seeding,
                clubs: pairing::xiangqi::ClubRule::Never,
                seed,
            },
        ),
        pairing_system::System::Dutch => pairing::dutch::pair(
            field,
            &pairing::dutch::Options {
                top_colour: parsed.top_colour,
                seed,
            },
        ),
        pairing_system::System::RoundRobin => pairing::berger::pair(
            field.entrants.len() as u32,
            round + 1,
            pairing::berger::Cycles::Single,
        ),
    };
    let p = paired.map_err(|e| pair_why(&e))?;
    if p.boards.len() > tables.len() {
        return Err(refusals::why_pairing_too_few_tables(
            round + 1,
            p.boards.len(),
            tables,
        ));
    }
    let ids = ids_by_name(config);
    let name = |n: u32| -> String {
        field
            .entrants
            .get(n as usize - 1)
            .map_or_else(String::new, |e| e.name.clone())
    };
    let boards = p
        .boards
        .iter()
        .zip(tables)
        .map(|(b, &table)| {
            let (red, black) = (name(b.red), name(b.black));
            RoundBoard {
                table,
                red_id: ids.get(&red).cloned(),
                black_id: ids.get(&black).cloned(),
                why: why(
                    field,
                    b.red as usize - 1,
                    b.black as usize - 1,
                    &red,
                    &black,
                ),
                red,
                black,
            }
        })
        .collect();
    let notes = trf::relaxed_note(&p)
        .map(|n| vec![Message::new("round-note-relaxed").verbatim("what", n)])
        .unwrap_or_default();
    Ok(RoundProposal {
        round: round + 1,
        system: system.name().into(),
        seed: p.seed,
        boards,
        bye: p.bye.map(name),
        notes,
    })
}

/// The tournament's players as `config` holds them (the registry, every
/// round's pairings, the late entries) with the withdrawals: what an
/// entry or a withdrawal is checked against (`hall::command::Roster`).
pub fn roster(config: &HallConfig) -> hall::command::Roster {
    let t = &config.tournament;
    let mut keys: Vec<String> = t.players.iter().map(|p| p.id.clone()).collect();
    for r in &config.rounds {
        for p in &r.tables {
            keys.push(p.red_key().to_string());
            keys.push(p.black_key().to_string());
        }
    }
    keys.extend(
        t.late_entries
            .iter()
            .map(|p| config::Tournament::entry_key(p).to_string()),
    );
    let mut roster = hall::command::Roster::new(keys);
    for (player, from) in &t.withdrawals {
        roster.apply(&proto::Command::WithdrawPlayer {
            player: player.clone(),
            from_round: u16::try_from(*from).unwrap_or(u16::MAX),
            reason: String::new(),
        });
    }
    roster
}

/// Registration ids by name, from the registry and the rounds' pairings.
fn ids_by_name(config: &HallConfig) -> HashMap<String, String> {
    let mut ids: HashMap<String, String> = config
        .tournament
        .players
        .iter()
        .map(|p| (p.name.clone(), p.id.clone()))
        .collect();
    for p in &config.tournament.late_entries {
        if !p.id.is_empty() {
            ids.insert(p.name.clone(), p.id.clone());
        }
    }
    for r in &config.rounds {
        for t in &r.tables {
            for (n, id) in [(&t.red, &t.red_id), (&t.black, &t.black_id)] {
                if let Some(id) = id {
                    ids.insert(n.clone(), id.clone());
                }
            }
        }
    }
    ids
}

fn wire_side(s: pairing::Side) -> Side {
    match s {
        pairing::Side::Red => Side::Red,
        pairing::Side::Black => Side::Black,
    }
}

/// Why players `a` (Red) and `b` (Black) (indices) meet: their score
/// group, each one's last colour, and the rematches the pairing avoided
/// in their group.
fn why(field: &pairing::Field, a: usize, b: usize, red: &str, black: &str) -> Vec<Message> {
    let (sa, sb) = (field.score(a), field.score(b));
    let mut out = vec![match sa == sb {
        true => Message::new("round-why-same-score").verbatim("points", trf::points_text(sa)),
        false => Message::new("round-why-float")
            .verbatim("red-points", trf::points_text(sa))
            .verbatim("black-points", trf::points_text(sb)),
    }];
    for (i, player, now) in [(a, red, Side::Red), (b, black, Side::Black)] {
        if let Some(&last) = field.colours(i).last() {
            out.push(
                Message::new("round-why-colour")
                    .verbatim("player", player)
                    .side("last", wire_side(last))
                    .side("now", now),
            );
        }
    }
    for (i, player) in [(a, red), (b, black)] {
        let score = field.score(i);
        let met = (0..field.entrants.len())
            .filter(|&j| j != i && field.present(j) && field.score(j) == score && field.met(i, j))
            .count();
        if met > 0 {
            out.push(
                Message::new("round-why-rematches-avoided")
                    .verbatim("player", player)
                    .int("count", met as i64),
            );
        }
    }
    out
}

/// The hall moved to the published round `p`, whose record is its first
/// (see the module docs). Called by the committer with the hall locked.
pub(crate) fn started(
    shared: &Shared,
    hall: &mut Hall,
    snapshots: &mut Snapshotter,
    p: published::Published,
) {
    let (round, first_gseq) = (p.round.round, p.gseq);
    let config = shared.export.published(p);
    match config.store.is_none() {
        true => {
            let dir = shared.export.data_dir();
            if let Err(e) = export::stored::record_round_start(dir, round, first_gseq) {
                tracing::error!(round, error = %e, "the new round's start is not recorded in the data dir; the next start records it from the store");
            }
        }
        // Recorded with the hall in the database by `halls_round::follow`.
        false => {
            shared.round_started.send_replace(Some((round, first_gseq)));
        }
    }
    snapshots.new_round(Basis::of(&config, first_gseq));
    tracing::info!(round, first_gseq, "the hall plays the published round");
    shared
        .publisher
        .publish_snapshot(&hall.snapshot(crate::wallclock::now_ms()));
    shared.disconnect_tables("new round published");
}

/// The hall went back from the withdrawn round `round` to the round
/// before; `gseq` is the withdrawal's record (see the module docs). Called
/// by the committer with the hall locked.
pub(crate) fn withdrawn(
    shared: &Shared,
    hall: &mut Hall,
    snapshots: &mut Snapshotter,
    round: u32,
    gseq: u64,
) {
    let config = shared.export.withdrawn(round);
    // On PostgreSQL the round before starts where the snapshotter's basis
    // before the publication did (the database's round starts keep the
    // withdrawn round's start: the last start of a round counts, and the
    // withdrawal is in the log, `export::tournament`).
    let first_gseq = if config.store.is_some() {
        snapshots.round_before_first().unwrap_or_else(|| {
            tracing::warn!(
                round,
                "where the round before starts is not known: its snapshots replay the whole log"
            );
            0
        })
    } else {
        let dir = shared.export.data_dir();
        let withdrawal = published::Withdrawal {
            round,
            published_gseq: snapshots.round_first_gseq(),
            gseq,
        };
        if let Err(e) = export::stored::note_withdrawals(dir, &[withdrawal]) {
            tracing::error!(round, error = %e, "the withdrawal is not recorded in the data dir; the next start records it from the store");
        }
        // The round before starts where it started (its range now ends at
        // the withdrawn round's publication; the replay crosses both).
        export::stored::round_range(dir, config.tournament.current_round)
            .map_or(0, |(first, _)| first)
    };
    snapshots.new_round(Basis::of(&config, first_gseq));
    tracing::info!(
        round,
        back_to = hall.info().round,
        "the published round was withdrawn: the hall plays the round before"
    );
    shared
        .publisher
        .publish_snapshot(&hall.snapshot(crate::wallclock::now_ms()));
    shared.disconnect_tables("published round withdrawn");
}

#[cfg(test)]
mod tests {
    use super::*;
    use i18n::Lang;

    fn every_pair_error() -> Vec<PairError> {
        vec![
            PairError::TooFewPlayers {
                round: 4,
                present: 1,
            },
            PairError::NoPairing { round: 7 },
            PairError::RoundRobinSize {
                players: 30,
                min: 3,
                max: 24,
            },
            PairError::RoundRobinRound {
                round: 9,
                players: 6,
                rounds: 5,
            },
            PairError::NotNextRound { asked: 5, held: 2 },
        ]
    }

    #[test]
    fn a_pairing_error_reads_in_english_as_the_engine_wrote_it() {
        for e in every_pair_error() {
            let m = refusals::pairing_failed(pair_why(&e));
            assert_eq!(i18n::texts::english(&m), format!("pairing failed: {e}"));
        }
        let m = refusals::why_pairing_too_few_tables(3, 5, &[1, 2]);
        assert_eq!(
            i18n::texts::english(&m),
            "round 3 has 5 boards; the hall has 2 tables (1, 2)"
        );
    }

    #[test]
    fn a_pairing_error_reads_in_every_language() {
        let mut all: Vec<Message> = every_pair_error().iter().map(pair_why).collect();
        all.push(refusals::why_pairing_too_few_tables(3, 5, &[1, 2]));
        for m in all {
            let en = i18n::texts::english(&m);
            for lang in Lang::ALL {
                let text = i18n::render(lang, &refusals::pairing_failed(m.clone()));
                assert!(!text.contains("why-"), "{lang:?}: {text}");
                assert!(!text.contains('{'), "{lang:?}: {text}");
                if lang != Lang::En {
                    assert!(!text.contains(&en), "{lang:?} is translated: {text}");
                }
            }
        }
    }
}
