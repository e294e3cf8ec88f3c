//! The next round of a tournament of several halls on PostgreSQL (一赛多厅，
//! 统一编排): one hall pairs, every hall plays its part.
//!
//! - The pairing hall (`[store] pairing_hall`; default: the tournament's
//!   first hall by id in the database) pairs from the whole tournament's
//!   record ([`propose`]: the TRF `caipan export --store` builds, every
//!   hall's results), once every hall's round is over. Each hall keeps its
//!   round-1 table numbers (unique across the tournament): the boards go
//!   to the tables of all halls in table order, and the preview's notes
//!   say which tables each hall plays (the split).
//! - Publishing ([`publish`]) stores the tournament round with the split
//!   (`tournament_rounds`, append-only, one publisher per round), then the
//!   pairing hall's own part as its `PublishRound`.
//! - Every hall (the pairing hall too) [`follow`]s: every
//!   [`FOLLOW_EVERY`] it looks for the tournament round after the one it
//!   plays and stores its own part as a `PublishRound` (audited as the
//!   tournament chief's, from the pairing hall), moving to it as a hall on
//!   SQLite does. So a pairing hall that stopped between the two writes
//!   completes its part when it starts again, and a hall that was down
//!   takes its part when it is back. It also records each round start in
//!   the database (`hall_rounds`) for the export.
//! - Withdrawing ([`withdraw`]): the pairing hall's chief withdraws the
//!   tournament's round before any hall started it: the withdrawal is
//!   stored with the tournament round (`tournament_withdrawals`), then
//!   the pairing hall's own `WithdrawRound`. Every other hall, when it
//!   [`follow`]s, sees that the round it plays is withdrawn (or was
//!   published again) and stores its own `WithdrawRound` (audited as the
//!   tournament chief's, from the pairing hall), going back to the round
//!   before; then it takes its part of the round published again.
//! - Late entries and withdrawals of players are the pairing hall's too
//!   ([`players_refused`]): checked against the whole tournament's
//!   players and stored in its record, from which the tournament's TRF
//!   (and so the next pairing) reads them (`export::tournament`).

use std::sync::Arc;
use std::time::Duration;

use ::export::tournament::{self, HallRecord};
use config::HallConfig;
use hall::record::Record;
use proto::roles::{Author, RoleKind};
use proto::{refusals, Command, Message, RoundChange, RoundProposal};
use store::{PgDatabase, Split, Store, TournamentRound, TournamentWithdrawal};

use crate::shared::Shared;
use crate::submit::Reply;

/// How often a hall looks for a new round of its tournament.
pub const FOLLOW_EVERY: Duration = Duration::from_secs(2);

/// How long the pairing hall leaves its own withdrawal of a tournament
/// round to the chief's command before [`follow`] stores it.
const OWN_GRACE_MS: i64 = 10_000;

/// The database of a hall on PostgreSQL.
async fn database(config: &HallConfig) -> Result<PgDatabase, String> {
    let sc = config
        .store
        .as_ref()
        .ok_or("the hall's record is not in PostgreSQL")?;
    PgDatabase::connect(sc.url.expose(), sc.ca_file.as_deref())
        .await
        .map_err(|e| format!("the tournament's database: {e}"))
}

/// The tournament's pairing hall: `[store] pairing_hall`, else the first
/// hall of the tournament by id in the database (this hall when it is the
/// only one there).
pub async fn pairing_hall(config: &HallConfig, db: &PgDatabase) -> Result<String, String> {
    let sc = config
        .store
        .as_ref()
        .ok_or("the hall's record is not in PostgreSQL")?;
    if let Some(h) = &sc.pairing_hall {
        return Ok(h.clone());
    }
    let halls = db
        .tournament_halls(&sc.tournament)
        .await
        .map_err(|e| format!("the tournament's halls: {e}"))?;
    Ok(halls.into_iter().next().unwrap_or_else(|| sc.hall.clone()))
}

/// Where round `round` of this hall starts in its log: its last start the
/// database holds (`hall_rounds`) that is no start of a `withdrawn`
/// publication (`None`: unknown, or the database cannot be read).
pub async fn round_start(
    config: &HallConfig,
    round: u32,
    withdrawn: &[::export::published::Withdrawal],
) -> Option<u64> {
    let sc = config.store.as_ref()?;
    let db = database(config).await.ok()?;
    let starts = db.round_starts(&sc.hall).await.ok()?;
    starts
        .iter()
        .rev()
        .find(|(r, first)| {
            *r == round
                && !withdrawn
                    .iter()
                    .any(|w| w.round == *r && w.published_gseq == *first)
        })
        .map(|(_, first)| *first)
}

/// A hall's tables: those of the first round in its config (its round-1
/// tables, which it keeps in every round), in order.
fn own_tables(config: &HallConfig) -> Vec<u16> {
    let mut tables: Vec<u16> = config
        .rounds
        .iter()
        .min_by_key(|r| r.number)
        .map(|r| {
            r.tables
                .iter()
                .filter_map(|p| u16::try_from(p.table).ok())
                .collect()
        })
        .unwrap_or_default();
    tables.sort_unstable();
    tables
}

/// Every hall has played `round` to the end; else the first hall that has
/// not, with its tables without a result (none: it has not moved to
/// `round` yet).
fn check_over(halls: &[HallRecord], round: u32) -> Result<(), Message> {
    for h in halls {
        if h.config.tournament.current_round != round {
            return Err(refusals::round_not_over_in_hall(&h.hall_id, round, &[]));
        }
        let games = h.games(round).map_err(|e| {
            refusals::pairing_failed(refusals::why_words(&format!("hall {}: {e}", h.hall_id)))
        })?;
        let open: Vec<u32> = games
            .iter()
            .filter(|g| g.end.is_none())
            .map(|g| g.pairing.table)
            .collect();
        if !open.is_empty() {
            return Err(refusals::round_not_over_in_hall(&h.hall_id, round, &open));
        }
    }
    Ok(())
}

/// Which hall plays each board of `round`: by the halls' tables. Fails on
/// a board at no hall's table, and on a hall left without a board (a
/// hall's round has at least one).
pub fn split_of(round: &RoundProposal, halls: &[(String, Vec<u16>)]) -> Result<Split, String> {
    let mut parts: Vec<(String, Vec<u16>)> =
        halls.iter().map(|(h, _)| (h.clone(), Vec::new())).collect();
    for b in &round.boards {
        let Some(i) = halls.iter().position(|(_, t)| t.contains(&b.table)) else {
            return Err(format!("table {} is no hall's table", b.table));
        };
        parts[i].1.push(b.table);
    }
    if let Some((hall, _)) = parts.iter().find(|(_, t)| t.is_empty()) {
        return Err(format!(
            "hall {hall} gets no board of round {} (a hall's round needs at least one)",
            round.round
        ));
    }
    Split::new(parts)
}

/// The part of `round` played at `tables`: their boards, and the bye when
/// `with_bye` (the pairing hall's part).
fn part_of(round: &RoundProposal, tables: &[u16], with_bye: bool) -> RoundProposal {
    RoundProposal {
        boards: round
            .boards
            .iter()
            .filter(|b| tables.contains(&b.table))
            .cloned()
            .collect(),
        bye: round.bye.clone().filter(|_| with_bye),
        ..round.clone()
    }
}

/// `PairNextRound` in a hall on PostgreSQL: refused outside the pairing
/// hall (naming it) and until every hall's round is over (naming the
/// hall and its tables); else the proposal from the whole tournament's
/// record onto every hall's tables, with each hall's tables as notes.
pub async fn propose(config: HallConfig, seed: u64) -> Result<RoundProposal, Message> {
    let fail = |why: String| refusals::pairing_failed(refusals::why_words(&why));
    let sc = config
        .store
        .clone()
        .ok_or_else(|| fail("no [store]".into()))?;
    let db = database(&config).await.map_err(fail)?;
    let pairing = pairing_hall(&config, &db).await.map_err(fail)?;
    if pairing != sc.hall {
        return Err(refusals::pairing_other_hall(&pairing));
    }
    let round = config.tournament.current_round;
    let halls = tournament::load(&db, &sc.tournament)
        .await
        .map_err(|e| fail(format!("the tournament's record: {e}")))?;
    check_over(&halls, round)?;
    let options = ::export::RenderOptions {
        allow_unfinished: false,
        lang: None,
    };
    let text = match tournament::render(&halls, round, ::export::Format::Trf, options) {
        Ok(::export::Rendered::Single(t)) => t,
        Ok(::export::Rendered::Files(_)) => return Err(fail("the TRF is not one file".into())),
        Err(e) => return Err(fail(format!("the tournament's rounds so far: {e}"))),
    };
    let mut merged = tournament::merged_config(&halls).map_err(|e| fail(e.to_string()))?;
    merged.tournament = config.tournament.clone();
    let by_hall: Vec<(String, Vec<u16>)> = halls
        .iter()
        .map(|h| (h.hall_id.clone(), own_tables(&h.config)))
        .collect();
    let mut tables: Vec<u16> = by_hall.iter().flat_map(|(_, t)| t.clone()).collect();
    tables.sort_unstable();
    let mut p = tokio::task::spawn_blocking(move || {
        crate::next_round::propose_from_trf(&text, &merged, &tables, seed)
    })
    .await
    .map_err(|e| fail(e.to_string()))?
    .map_err(refusals::pairing_failed)?;
    for (hall, _) in &by_hall {
        let mine: Vec<u16> = p
            .boards
            .iter()
            .map(|b| b.table)
            .filter(|t| by_hall.iter().any(|(h, ts)| h == hall && ts.contains(t)))
            .collect();
        p.notes.push(
            Message::new("round-hall-tables")
                .verbatim("hall", hall.as_str())
                .verbatim("tables", refusals::list(&mine)),
        );
    }
    Ok(p)
}

/// `PublishRound` in a hall on PostgreSQL (checked by the hall already:
/// the round is its next, its own round is over): refused outside the
/// pairing hall; else the tournament round is stored with its split
/// (the other halls take their parts from it), and the record of this
/// hall's own part is returned for the pipeline to store.
pub async fn publish(
    shared: &Shared,
    author: Author,
    round: RoundProposal,
    changes: Vec<RoundChange>,
) -> Result<Record, Message> {
    let config = shared.export.config();
    let bad = |why: String| refusals::bad_round(round.round, refusals::why_words(&why));
    let sc = config
        .store
        .clone()
        .ok_or_else(|| bad("no [store]".into()))?;
    let db = database(&config).await.map_err(bad)?;
    let pairing = pairing_hall(&config, &db).await.map_err(bad)?;
    if pairing != sc.hall {
        return Err(refusals::pairing_other_hall(&pairing));
    }
    let mut halls = Vec::new();
    for (hall, copy) in tournament::load_configs(&db, &sc.tournament)
        .await
        .map_err(|e| bad(e.to_string()))?
    {
        let copy = copy.ok_or_else(|| bad(format!("hall {hall} has no config copy")))?;
        halls.push((hall, own_tables(&copy)));
    }
    let split = split_of(&round, &halls).map_err(bad)?;
    let own = part_of(&round, split.tables_of(&sc.hall).unwrap_or(&[]), true);
    if let Some(why) = crate::deputies::refusal(&config, &own) {
        return Err(refusals::bad_round(round.round, why));
    }
    let missing: Vec<u16> = own
        .boards
        .iter()
        .filter(|b| !shared.auth.has_table(b.table))
        .map(|b| b.table)
        .collect();
    if !missing.is_empty() {
        return Err(refusals::publish_no_tokens(round.round, &missing));
    }
    let whole = Record::Command {
        author: author.clone(),
        command: Command::PublishRound {
            round: Box::new(round.clone()),
            changes: changes.clone(),
        },
    };
    let r = TournamentRound {
        tournament: sc.tournament.clone(),
        round: round.round,
        hall_id: sc.hall.clone(),
        proposal: whole.encode().map_err(|e| bad(e.to_string()))?,
        split,
        at_ms: crate::wallclock::now_ms() as i64,
        publication: 0,
        withdrawn: None,
    };
    db.publish_tournament_round(&r)
        .await
        .map_err(|e| bad(e.to_string()))?;
    tracing::info!(round = round.round, split = %r.split.encode().replace('\n', "; "), "tournament round published");
    Ok(Record::Command {
        author,
        command: Command::PublishRound {
            round: Box::new(own),
            changes,
        },
    })
}

/// The tables of `round` started in any hall of the tournament (a move,
/// a started clock or a result), by hall: a round is withdrawn only
/// before any of them.
fn started_tables(halls: &[HallRecord], round: u32) -> Result<Vec<(String, Vec<u32>)>, String> {
    let mut started = Vec::new();
    for h in halls {
        if h.config.tournament.current_round != round {
            continue;
        }
        let games = h
            .games(round)
            .map_err(|e| format!("hall {}: {e}", h.hall_id))?;
        let tables: Vec<u32> = games
            .iter()
            .filter(|g| g.started_at_ms.is_some() || !g.moves.is_empty() || g.end.is_some())
            .map(|g| g.pairing.table)
            .collect();
        if !tables.is_empty() {
            started.push((h.hall_id.clone(), tables));
        }
    }
    Ok(started)
}

/// `WithdrawRound` in a hall on PostgreSQL (checked by the hall already:
/// the round is its own, published, not started): refused outside the
/// pairing hall and when another hall has started the round (naming it
/// and its tables); else the tournament's round is withdrawn in the
/// database (every hall goes back, [`follow`]) and the record of this
/// hall's own withdrawal is returned for the pipeline to store.
pub async fn withdraw(
    shared: &Shared,
    author: Author,
    round: u32,
    reason: String,
) -> Result<Record, Message> {
    let config = shared.export.config();
    let bad = |why: String| refusals::bad_withdrawal(round, refusals::why_words(&why));
    let sc = config
        .store
        .clone()
        .ok_or_else(|| bad("no [store]".into()))?;
    let db = database(&config).await.map_err(bad)?;
    let pairing = pairing_hall(&config, &db).await.map_err(bad)?;
    if pairing != sc.hall {
        return Err(refusals::pairing_other_hall(&pairing));
    }
    let halls = tournament::load(&db, &sc.tournament)
        .await
        .map_err(|e| bad(format!("the tournament's record: {e}")))?;
    let started = started_tables(&halls, round).map_err(bad)?;
    if let Some((hall, tables)) = started.first() {
        return Err(bad(format!(
            "hall {hall} has started the round (a move, a clock start or a result at table {})",
            refusals::list(tables)
        )));
    }
    let w = TournamentWithdrawal {
        hall_id: sc.hall.clone(),
        reason: reason.clone(),
        at_ms: crate::wallclock::now_ms() as i64,
    };
    db.withdraw_tournament_round(&sc.tournament, round, &w)
        .await
        .map_err(|e| bad(e.to_string()))?;
    tracing::info!(round, "tournament round withdrawn");
    Ok(Record::Command {
        author,
        command: Command::WithdrawRound { round, reason },
    })
}

/// Why a late entry or a withdrawal of a player cannot be stored in a
/// hall on PostgreSQL: outside the pairing hall (naming it), or against
/// the whole tournament's players as the database holds them (every
/// hall's registry and rounds, the pairing hall's entries and
/// withdrawals: `next_round::roster`).
pub async fn players_refused(config: &HallConfig, command: &Command) -> Option<Message> {
    let what = |why: String| match command {
        Command::EnterPlayer { name, .. } => refusals::bad_entry(name, refusals::why_words(&why)),
        Command::WithdrawPlayer { player, .. } => {
            refusals::bad_player_withdrawal(player, refusals::why_words(&why))
        }
        _ => refusals::pairing_failed(refusals::why_words(&why)),
    };
    let sc = config.store.as_ref()?;
    let db = match database(config).await {
        Ok(db) => db,
        Err(e) => return Some(what(e)),
    };
    match pairing_hall(config, &db).await {
        Ok(h) if h != sc.hall => return Some(refusals::pairing_other_hall(&h)),
        Ok(_) => {}
        Err(e) => return Some(what(e)),
    }
    let halls = match tournament::load(&db, &sc.tournament).await {
        Ok(h) => h,
        Err(e) => return Some(what(format!("the tournament's record: {e}"))),
    };
    let mut merged = match tournament::merged_config(&halls) {
        Ok(m) => m,
        Err(e) => return Some(what(e.to_string())),
    };
    merged.tournament.current_round = config.tournament.current_round;
    crate::next_round::roster(&merged)
        .check(command)
        .err()
        .map(|r| r.message())
}

/// Every hall on PostgreSQL, for as long as the server runs: takes its
/// part of each new tournament round (see the module docs) and records
/// each round start with the hall.
pub async fn follow(shared: Arc<Shared>, store: Arc<dyn Store>) {
    let config = shared.export.config();
    let Some(sc) = config.store.clone() else {
        return;
    };
    let mut started = shared.round_started.subscribe();
    let mut every = tokio::time::interval(FOLLOW_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut db: Option<PgDatabase> = None;
    let mut told = String::new();
    loop {
        tokio::select! {
            _ = every.tick() => {}
            changed = started.changed() => {
                if changed.is_err() {
                    return;
                }
                let last = *started.borrow_and_update();
                if let Some((round, first)) = last {
                    if let Err(e) = store.record_round_start(round, first).await {
                        tracing::warn!(round, error = %e, "the round's start is not recorded in the database; the next start records it");
                    }
                }
                continue;
            }
        }
        if db.is_none() {
            db = database(&config).await.ok();
        }
        let Some(d) = &db else { continue };
        let note = match withdraw_part(&shared, d, &sc).await {
            Ok(None) => take_part(&shared, d, &sc).await,
            other => other,
        };
        let note = match note {
            Ok(note) => note,
            Err(e) => {
                db = None;
                Some(e)
            }
        };
        match note {
            Some(n) if n != told => {
                tracing::warn!(note = %proto::logsafe::escaped(&n), "the tournament's next round is not taken yet");
                told = n;
            }
            Some(_) => {}
            None => told.clear(),
        }
    }
}

/// One look at the tournament round the hall plays: when it was
/// withdrawn (or withdrawn and published again, so that the hall plays a
/// withdrawn publication) and the hall can still withdraw it, the hall's
/// own `WithdrawRound` is stored (audited as the tournament chief's, from
/// the pairing hall). `Ok(None)` when nothing is to be done or it was
/// done now; `Ok(Some(why))` when it cannot be done (the round started
/// here); `Err` when the database cannot be read.
async fn withdraw_part(
    shared: &Shared,
    db: &PgDatabase,
    sc: &config::StoreConfig,
) -> Result<Option<String>, String> {
    let (current, can) = match shared.hall.lock() {
        Ok(h) => (h.info().round, h.can_withdraw()),
        Err(_) => return Ok(None),
    };
    if current < 2 {
        return Ok(None);
    }
    let Some(tr) = db
        .tournament_round(&sc.tournament, current)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(None);
    };
    let (by, reason) = match &tr.withdrawn {
        // The pairing hall stores its own withdrawal right after the
        // database's (`withdraw`): taken up here only when it did not
        // (it stopped between the two writes).
        Some(w)
            if w.hall_id == sc.hall
                && crate::wallclock::now_ms() as i64 - w.at_ms < OWN_GRACE_MS =>
        {
            return Ok(None);
        }
        Some(w) => (w.hall_id.clone(), w.reason.clone()),
        None => {
            // The last publication stands: does the hall play it?
            let Some(tables) = tr.split.tables_of(&sc.hall) else {
                return Ok(None);
            };
            let Command::PublishRound { round, .. } = decode_round(&tr)?.1 else {
                return Ok(None);
            };
            let own = part_of(&round, tables, tr.hall_id == sc.hall);
            match shared.hall.lock() {
                Ok(h) if h.plays(&own) => return Ok(None),
                Ok(_) => {}
                Err(_) => return Ok(None),
            }
            let why = format!("round {current} was published again");
            (tr.hall_id.clone(), why)
        }
    };
    if !can {
        return Ok(Some(format!(
            "round {current} of the tournament was withdrawn by hall {by}, but this hall cannot withdraw it (started, or not published from the console)"
        )));
    }
    let author = Author::new(RoleKind::Chief, format!("tournament chief (hall {by})"));
    let command = Command::WithdrawRound {
        round: current,
        reason,
    };
    match shared.hall.lock() {
        Ok(h) if h.check_command(&command).is_err() => return Ok(None),
        Ok(_) => {}
        Err(_) => return Ok(None),
    }
    let record = Record::Command { author, command };
    submit_own(
        shared,
        record,
        current,
        "this hall's part of the tournament round is withdrawn",
    )
    .await
}

/// The round a tournament round's row holds: its author and command.
fn decode_round(tr: &TournamentRound) -> Result<(Author, Command), String> {
    let record = Record::decode(&tr.proposal).map_err(|e| format!("round {}: {e}", tr.round))?;
    match record {
        Record::Command {
            author,
            command: command @ Command::PublishRound { .. },
        } => Ok((author, command)),
        _ => Err(format!(
            "round {}: the stored round is no PublishRound",
            tr.round
        )),
    }
}

/// Stores `record`, this hall's part of a tournament round (published or
/// withdrawn): `Ok(None)` once stored, `Ok(Some(why))` when refused.
async fn submit_own(
    shared: &Shared,
    record: Record,
    round: u32,
    done: &str,
) -> Result<Option<String>, String> {
    let Some(rx) = shared
        .submitter
        .submit(record, crate::wallclock::now_ms())
        .await
    else {
        return Ok(None);
    };
    match rx.await {
        Ok(Reply::Done(Ok(_))) => {
            tracing::info!(round, "{done}");
            Ok(None)
        }
        Ok(Reply::Done(Err((_, m)))) => {
            Ok(Some(format!("round {round}: {}", i18n::texts::english(&m))))
        }
        Ok(Reply::Error(e)) => Ok(Some(format!(
            "round {round}: {}",
            i18n::texts::english(&e.message)
        ))),
        Ok(Reply::Ack(_)) | Err(_) => Ok(None),
    }
}

/// One look for the tournament round after the hall's: `Ok(None)` when
/// there is none or this hall's part was stored now; `Ok(Some(why))` when
/// it waits (its round is not over, no table here); `Err` when the
/// database or the record cannot be read.
async fn take_part(
    shared: &Shared,
    db: &PgDatabase,
    sc: &config::StoreConfig,
) -> Result<Option<String>, String> {
    let current = match shared.hall.lock() {
        Ok(h) => h.info().round,
        Err(_) => return Ok(None),
    };
    let Some(tr) = db
        .tournament_round(&sc.tournament, current + 1)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(None);
    };
    if tr.withdrawn.is_some() {
        return Ok(None);
    }
    let Some(tables) = tr.split.tables_of(&sc.hall) else {
        return Ok(Some(format!(
            "round {} of tournament {} gives hall {} no table",
            tr.round, sc.tournament, sc.hall
        )));
    };
    let (author, command) = decode_round(&tr)?;
    let Command::PublishRound { round, changes } = command else {
        return Ok(None);
    };
    let own = tr.hall_id == sc.hall;
    let command = Command::PublishRound {
        round: Box::new(part_of(&round, tables, own)),
        changes,
    };
    let checked = match shared.hall.lock() {
        Ok(h) => h.check_command(&command),
        Err(_) => return Ok(None),
    };
    if let Err(r) = checked {
        let why = i18n::texts::english(&r.message());
        return Ok(Some(format!("round {} waits: {why}", tr.round)));
    }
    let author = match own {
        true => author,
        false => Author::new(
            RoleKind::Chief,
            format!("{} (hall {})", author.name, tr.hall_id),
        ),
    };
    let record = Record::Command { author, command };
    submit_own(
        shared,
        record,
        tr.round,
        "this hall's part of the tournament round is published",
    )
    .await
}
