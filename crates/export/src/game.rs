//! Rebuilding the games of one round from the store (复盘一轮对局) with the
//! server's own state machine, so that exported results agree exactly with
//! what the server showed.
//!
//! The seam with the runtime is small and lives only here: the hall is
//! built with [`config::initial::hall_from_config`] for the exported round,
//! every stored [`Record`] of the round goes through the hall core's one
//! replay loop ([`Replay`], as the server's restart does), and as an
//! [`Observer`] of each record we read
//! the table states (`status`, `board`, `fouls_*`) and the effects
//! (alerts, claims) to collect what the exports need beyond the final
//! state: the mover's clock after each press (`[%clk]`), the arbiter's
//! actions, alerts and rulings as notes after the move they follow, the
//! time used by each side, and why the game ended ([`EndReason`], typed,
//! as the hall holds it with the result).

use proto::{
    AlertKind, ClaimKind, ClaimStatus, Command, Delta, FoulCount, GameResult, RulingOutcome, Side,
    TableEvent, TableStatus, Verdict,
};
use xiangqi::{Move, Position};

use config::{HallConfig, Pairing};
use hall::command::describe;
use hall::hall::Hall;
use hall::record::{Note, Record};
use hall::replay::{Observer, Replay};
use i18n::Lang;

/// Why a game ended (the results' `reason` column): the typed reason the
/// hall holds with the result ([`TableStatus::Finished`]).
pub use proto::EndReason;

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    /// The result as the server holds it.
    pub result: GameResult,
    /// Why.
    pub reason: EndReason,
    /// The server's reason text (e.g. "Red resigned: lost material").
    pub detail: String,
    /// Server time of the record that ended it (Unix ms).
    pub at_ms: u64,
}

/// One game of a round, rebuilt.
#[derive(Debug, Clone)]
pub struct PlayedGame {
    /// Round number.
    pub round: u32,
    /// The pairing (table, names, teams, ids).
    pub pairing: Pairing,
    /// Position before the first move.
    pub start: Position,
    /// Every move played on the server's board, in order.
    pub moves: Vec<Move>,
    /// The mover's remaining time (ms) after each ply's clock press, when
    /// the ply came with a press.
    pub clocks: Vec<Option<u64>>,
    /// Arbiter actions, alerts and rulings after each ply (index = ply).
    pub notes: Vec<Vec<String>>,
    /// Notes before the first move.
    pub initial_notes: Vec<String>,
    /// The end, if the game is over.
    pub end: Option<GameEnd>,
    /// Fouls of Red and Black.
    pub fouls: [FoulCount; 2],
    /// Time used by Red and Black (ms), see [`TimeTrack`].
    pub time_used_ms: [u64; 2],
    /// Server time the game started.
    pub started_at_ms: Option<u64>,
    /// The final position as the server holds it.
    pub final_position: Position,
}

impl PlayedGame {
    /// Number of plies.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Number of moves (a Red move and Black's answer count as one; the
    /// move numbers the record uses).
    pub fn full_moves(&self) -> u32 {
        match self.moves.len() {
            0 => 0,
            n => {
                xiangqi::pgn::move_number(&self.start, n - 1)
                    - xiangqi::pgn::move_number(&self.start, 0)
                    + 1
            }
        }
    }
}

/// Time used per side: each clock press by a side adds what its clock lost
/// during its turn: `remaining before the turn + increment - remaining after
/// the press` (never negative). Before-turn times come from the last clock
/// report (clock start, presses, flag fall, terminal acks of arbiter
/// controls, arbiter clock adjustments). A flag fall adds the flagged
/// side's rest. Time on a final turn ended without a press (a resignation,
/// an arbiter's result) is not counted.
#[derive(Debug, Clone, Copy)]
pub struct TimeTrack {
    last: [u64; 2],
    used: [u64; 2],
    increment_ms: u64,
}

impl TimeTrack {
    fn new(initial_ms: u64, increment_ms: u64) -> Self {
        TimeTrack {
            last: [initial_ms; 2],
            used: [0; 2],
            increment_ms,
        }
    }

    fn event(&mut self, ev: &TableEvent) {
        match ev {
            TableEvent::ClockStarted {
                red_ms, black_ms, ..
            }
            | TableEvent::ControlApplied {
                red_ms, black_ms, ..
            } => self.last = [*red_ms, *black_ms],
            TableEvent::ClockPress {
                by,
                red_ms,
                black_ms,
                ..
            } => {
                let i = side_index(*by);
                let after = if i == 0 { *red_ms } else { *black_ms };
                self.used[i] += (self.last[i] + self.increment_ms).saturating_sub(after);
                self.last = [*red_ms, *black_ms];
            }
            TableEvent::FlagFell {
                side,
                red_ms,
                black_ms,
                ..
            } => {
                let i = side_index(*side);
                let after = if i == 0 { *red_ms } else { *black_ms };
                self.used[i] += self.last[i].saturating_sub(after);
                self.last = [*red_ms, *black_ms];
            }
            _ => {}
        }
    }
}

fn side_index(s: Side) -> usize {
    match s {
        Side::Red => 0,
        Side::Black => 1,
    }
}

/// One stored record of the round: `(gseq, server time, encoded record)`.
pub type RawRecord = (u64, u64, Vec<u8>);

/// What a replay found besides the games.
#[derive(Debug, Default, Clone)]
pub struct ReplayStats {
    /// Records applied.
    pub records: u64,
    /// `gseq` of the records that do not decode and that the server set
    /// aside too (`caipan serve --quarantine-undecodable`): left out.
    pub quarantined: Vec<u64>,
}

/// Follows each game through the replay ([`Observer`]): what the tables
/// were before a record, then its notes, clocks and end after it.
struct Follow<'a> {
    tracks: &'a mut std::collections::BTreeMap<u16, Track>,
    /// `(table, plies, finished)` before the record, for the tables it concerns.
    before: Vec<(u16, usize, bool)>,
    /// Records the server noted as set aside.
    noted: std::collections::BTreeSet<u64>,
    /// The language of the alerts' and rulings' words in the notes.
    lang: Lang,
}

impl Observer for Follow<'_> {
    fn before(&mut self, hall: &Hall, rec: &Record, _at_ms: u64) {
        self.before = before_one(hall, self.tracks, rec);
    }

    fn after(&mut self, hall: &mut Hall, rec: &Record, at_ms: u64) {
        if let Record::Note(Note::RecordQuarantined { gseq, .. }) = rec {
            self.noted.insert(*gseq);
        }
        let before = std::mem::take(&mut self.before);
        after_one(hall, self.tracks, rec, at_ms, before, self.lang);
    }
}

struct Track {
    game: PlayedGame,
    time: TimeTrack,
}

/// Replays `records` (the round's, in store order) into the games of round
/// `round` of `config`. Tables of the round without any record come back
/// unplayed (no moves, no end). The notes quote the alerts and rulings in
/// the hall's language (`config.tournament.language`; the export's
/// `--lang` is set there), in English when it has none; the notes' own
/// frame (`alert:`, `claim 3 (repetition): recommended …`) is English.
pub fn replay_round(
    config: &HallConfig,
    round: u32,
    records: impl IntoIterator<Item = RawRecord>,
) -> Result<(Vec<PlayedGame>, ReplayStats), super::ExportError> {
    let r = config
        .round(round)
        .ok_or_else(|| super::ExportError::NoRound {
            round,
            detail: "no such [[round]] in the hall config".into(),
        })?;
    let mut cfg = config.clone();
    cfg.tournament.current_round = round;
    let hall = config::initial::hall_from_config(&cfg);
    let (_, initial_ms, increment_ms) = proto::convert::wire_time_control(&cfg.time_control);
    let mut tracks: std::collections::BTreeMap<u16, Track> = std::collections::BTreeMap::new();
    for p in &r.tables {
        let Ok(t) = u16::try_from(p.table) else {
            continue;
        };
        let start = hall
            .tables()
            .get(&t)
            .map(|s| Position::clone(&s.board.start))
            .unwrap_or_default();
        tracks.insert(
            t,
            Track {
                game: PlayedGame {
                    round,
                    pairing: p.clone(),
                    final_position: start.clone(),
                    start,
                    moves: Vec::new(),
                    clocks: Vec::new(),
                    notes: Vec::new(),
                    initial_notes: Vec::new(),
                    end: None,
                    fouls: [FoulCount::default(); 2],
                    time_used_ms: [0; 2],
                    started_at_ms: None,
                },
                time: TimeTrack::new(initial_ms, increment_ms),
            },
        );
    }
    // The hall core's one replay loop (the server's restart uses it too).
    // A record that does not decode is set aside here only if the server
    // set it aside too (its `RecordQuarantined` note is in the log);
    // otherwise the export fails naming it.
    let mut follow = Follow {
        tracks: &mut tracks,
        before: Vec::new(),
        noted: std::collections::BTreeSet::new(),
        lang: config.tournament.language.unwrap_or(Lang::En),
    };
    let mut replay = Replay::new(hall).quarantine(true);
    replay.feed_observed(records, &mut follow)?;
    let noted = follow.noted;
    let replayed = replay.finish();
    if let Some(q) = replayed
        .quarantined
        .iter()
        .find(|q| !noted.contains(&q.gseq))
    {
        return Err(super::ExportError::Undecodable(q.to_string()));
    }
    let stats = ReplayStats {
        records: replayed.records,
        quarantined: replayed.quarantined.iter().map(|q| q.gseq).collect(),
    };
    let hall = replayed.hall;
    let games = tracks
        .into_iter()
        .map(|(t, mut tr)| {
            if let Some(ts) = hall.tables().get(&t) {
                tr.game.fouls = ts.fouls.into();
                tr.game.final_position = ts.board.position.clone();
                tr.game.started_at_ms = ts.started_at_ms;
                tr.game.moves = ts.board.moves.clone();
                // The mover's time after each press, as the hall keeps it.
                tr.game.clocks = ts.ply_clocks.times();
                tr.game.clocks.resize(tr.game.moves.len(), None);
                tr.game.notes.resize(tr.game.moves.len(), Vec::new());
                if !ts.finished() {
                    tr.game.end = None;
                }
            }
            tr.game.time_used_ms = tr.time.used;
            tr.game
        })
        .collect();
    Ok((games, stats))
}

/// The tables a record concerns (a hall pause concerns every unfinished table).
fn tables_of(hall: &Hall, rec: &Record) -> Vec<u16> {
    match rec {
        Record::Command {
            command: Command::PauseHall { .. } | Command::ResumeHall,
            ..
        } => hall
            .tables()
            .values()
            .filter(|t| !t.finished())
            .map(|t| t.table)
            .collect(),
        _ => rec.table().into_iter().collect(),
    }
}

/// The tables `rec` concerns as they are before it; feeds the time tracks.
fn before_one(
    hall: &Hall,
    tracks: &mut std::collections::BTreeMap<u16, Track>,
    rec: &Record,
) -> Vec<(u16, usize, bool)> {
    let concerned = tables_of(hall, rec);
    let before: Vec<(u16, usize, bool)> = concerned
        .iter()
        .filter_map(|t| {
            hall.tables()
                .get(t)
                .map(|s| (*t, s.board.plies(), s.finished()))
        })
        .collect();
    if let Record::Event(env) = rec {
        if let Some(tr) = tracks.get_mut(&env.table) {
            tr.time.event(&env.body);
        }
    }
    if let Record::Command {
        command:
            Command::AdjustClock {
                table,
                red_ms,
                black_ms,
                ..
            },
        ..
    } = rec
    {
        if let Some(tr) = tracks.get_mut(table) {
            tr.time.last = [*red_ms, *black_ms];
        }
    }
    before
}

/// After `rec` was applied: its clocks, notes and the game's end.
fn after_one(
    hall: &mut Hall,
    tracks: &mut std::collections::BTreeMap<u16, Track>,
    rec: &Record,
    at: u64,
    before: Vec<(u16, usize, bool)>,
    lang: Lang,
) {
    let fx = hall.take_effects();
    for (t, _plies_before, finished_before) in before {
        let (Some(ts), Some(tr)) = (hall.tables().get(&t), tracks.get_mut(&t)) else {
            continue;
        };
        let g = &mut tr.game;
        let plies = ts.board.plies();
        g.notes.truncate(plies);
        g.notes.resize(plies, Vec::new());
        let mut notes = record_notes(rec, t);
        for d in &fx.deltas {
            notes.extend(delta_note(d, t, lang));
        }
        let slot = if plies == 0 {
            &mut g.initial_notes
        } else {
            &mut g.notes[plies - 1]
        };
        slot.extend(notes);
        if !finished_before && ts.finished() {
            if let TableStatus::Finished {
                result,
                why,
                reason,
            } = &ts.status
            {
                g.end = Some(GameEnd {
                    result: *result,
                    reason: *why,
                    detail: reason.clone(),
                    at_ms: at,
                });
            }
        } else if finished_before && !ts.finished() {
            g.end = None;
        }
    }
}

/// Notes for the record itself (arbiter commands, terminal reports).
fn record_notes(rec: &Record, table: u16) -> Vec<String> {
    match rec {
        Record::Command {
            author: who,
            command,
        } => match command {
            Command::Subscribe
            | Command::Unsubscribe
            | Command::GetTableLog { .. }
            | Command::AckAlert { .. }
            | Command::ExportRound
            // A correction is noted on the game it corrects (crate::corrections).
            | Command::CorrectResult { .. }
            // Rulings are noted from the claim they decide (with its rules).
            | Command::RuleOnClaim { .. } => Vec::new(),
            c => vec![format!("arbiter {who}: {}", describe(c))],
        },
        Record::Event(env) if env.table == table => match &env.body {
            TableEvent::FoulReport { side, kind, note } => vec![format!(
                "{} {} foul reported: {note}",
                side.name_en(),
                match kind {
                    proto::FoulKind::Technical => "technical",
                    proto::FoulKind::Violation => "recording",
                }
            )],
            TableEvent::DrawOffer { by } => vec![format!("{} offers a draw", by.name_en())],
            TableEvent::DrawDecline { by } => {
                vec![format!("{} declines the draw", by.name_en())]
            }
            TableEvent::Resign { by, reason } => {
                vec![format!("{} resigns: {reason}", by.name_en())]
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn rules_suffix(ids: &[String]) -> String {
    if ids.is_empty() {
        String::new()
    } else {
        format!(" [{}]", ids.join(", "))
    }
}

/// A note for an effect (alert, claim opened or ruled) on `table`.
fn delta_note(d: &Delta, table: u16, lang: Lang) -> Option<String> {
    match d {
        Delta::Alert(a) if a.table == table => match a.kind {
            AlertKind::TableOffline | AlertKind::TableOnline | AlertKind::ClaimPending => None,
            _ => Some(format!(
                "alert: {}{}",
                i18n::render(lang, &a.text),
                rules_suffix(&a.rule_ids)
            )),
        },
        Delta::Claim(c) if c.table == table => match &c.status {
            ClaimStatus::Pending => Some(format!(
                "claim {} ({}): recommended {}: {}{}",
                c.id,
                claim_word(c.kind),
                verdict_word(&c.recommended.verdict, c.recommended.must_change),
                i18n::render(lang, &c.recommended.explanation),
                rules_suffix(&c.recommended.rule_ids)
            )),
            ClaimStatus::Ruled { by, outcome, .. } => Some(match outcome {
                RulingOutcome::Accepted => format!(
                    "ruling by {by} on claim {}: {}{}",
                    c.id,
                    verdict_word(&c.recommended.verdict, c.recommended.must_change),
                    rules_suffix(&c.recommended.rule_ids)
                ),
                RulingOutcome::Overridden {
                    verdict,
                    must_change,
                    reason,
                } => format!(
                    "ruling by {by} on claim {} overrides the recommendation: {} ({reason})",
                    c.id,
                    verdict_word(verdict, *must_change)
                ),
            }),
            ClaimStatus::Lapsed { why, .. } => Some(format!(
                "claim {} lapsed: {}",
                c.id,
                i18n::render(lang, why)
            )),
            ClaimStatus::Escalated { by, reason, .. } => {
                Some(format!("claim {} escalated by {by}: {reason}", c.id))
            }
        },
        _ => None,
    }
}

fn claim_word(k: ClaimKind) -> &'static str {
    match k {
        ClaimKind::NaturalLimit => "natural limit",
        ClaimKind::Repetition => "repetition",
        ClaimKind::IllegalMove => "illegal move",
        ClaimKind::FoulThreshold => "fouls",
        ClaimKind::FlagFall => "flag fall",
        ClaimKind::NoShow => "no-show",
        ClaimKind::DrawOffer => "draw offer",
        ClaimKind::MoveLimit => "move limit",
    }
}

fn verdict_word(v: &Verdict, must_change: Option<Side>) -> String {
    match v {
        Verdict::Order => match must_change {
            Some(s) => format!("order: {} must change, one more cycle loses", s.name_en()),
            None => "announced: one more cycle is a draw".into(),
        },
        Verdict::Continue => "play on".into(),
        Verdict::Draw => "draw".into(),
        Verdict::Loss { side } => format!("{} loses", side.name_en()),
        Verdict::CorrectMove { side } => format!("{} corrects the move", side.name_en()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proto::roles::{Author, RoleKind};
    use proto::{Decision, EventEnvelope, IccsMove};

    const CONFIG: &str = r#"
[tournament]
name = "t"
date = "2026-11-29"
kind = "round_robin"
[credentials]
table_secret = "unit-test-secret-0123456789"
[credentials.chief]
name = "chief"
token = "unit-test-chief-0123456789"
[[round]]
number = 1
[[round.table]]
table = 1
red = "R"
black = "B"
"#;

    fn config() -> HallConfig {
        HallConfig::from_toml_str(CONFIG, std::path::Path::new("."), &|_| None).unwrap()
    }

    struct Log {
        recs: Vec<RawRecord>,
        seq: u64,
    }

    impl Log {
        fn new() -> Log {
            Log {
                recs: Vec::new(),
                seq: 0,
            }
        }
        fn push(&mut self, r: Record) {
            let g = self.recs.len() as u64 + 1;
            self.recs.push((g, 1_000 * g, r.encode().unwrap()));
        }
        fn ev(&mut self, body: TableEvent) {
            self.seq += 1;
            self.push(Record::Event(EventEnvelope {
                table: 1,
                epoch: 1,
                seq: self.seq,
                body,
            }));
        }
        fn moves(&mut self, first: Side, moves: &[&str]) {
            let mut by = first;
            for m in moves {
                self.ev(TableEvent::Move {
                    by,
                    mv: IccsMove::parse(m).unwrap(),
                });
                by = by.other();
            }
        }
        fn chief(&mut self, command: Command) {
            self.push(Record::Command {
                author: Author::new(RoleKind::Chief, "chief"),
                command,
            });
        }
        fn replay(&self) -> PlayedGame {
            let (mut g, stats) = replay_round(&config(), 1, self.recs.clone()).unwrap();
            assert!(stats.quarantined.is_empty());
            g.remove(0)
        }
    }

    #[test]
    fn an_undecodable_record_fails_the_export_naming_its_gseq() {
        let mut log = Log::new();
        log.moves(Side::Red, &["h2e2", "h9g7"]);
        log.recs.insert(1, (99, 1_500, vec![0xEE, 0, 1]));
        let e = replay_round(&config(), 1, log.recs.clone()).expect_err("refused");
        assert!(e.to_string().contains("gseq 99"), "{e}");
    }

    #[test]
    fn a_record_the_server_set_aside_is_left_out() {
        let mut log = Log::new();
        log.moves(Side::Red, &["h2e2"]);
        log.recs.push((99, 1_500, vec![0xEE, 0, 1]));
        log.push(Record::Note(Note::RecordQuarantined {
            gseq: 99,
            error: "unknown tag".into(),
        }));
        log.moves(Side::Black, &["h9g7"]);
        let (g, stats) = replay_round(&config(), 1, log.recs.clone()).expect("exported");
        assert_eq!(stats.quarantined, vec![99]);
        assert_eq!(g[0].plies(), 2);
    }

    fn claim_id(g: &PlayedGame, kind: &str) -> u64 {
        let all: Vec<&String> = g
            .initial_notes
            .iter()
            .chain(g.notes.iter().flatten())
            .collect();
        let needle = format!("({kind}): recommended");
        let note = all
            .iter()
            .find(|n| n.contains(&needle))
            .unwrap_or_else(|| panic!("no {kind} claim in {all:?}"));
        note.trim_start_matches("claim ")
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    #[test]
    fn perpetual_check_ruled_a_loss_is_perpetual_check() {
        let mut log = Log::new();
        log.moves(
            Side::Red,
            &[
                "g3g4", "a6a5", "h0g2", "a5a4", "g2f4", "a4a3", "f4g6", "a3b3", "g6e7", "b3c3",
                "e7g8",
            ],
        );
        for _ in 0..2 {
            log.moves(Side::Black, &["e9e8", "g8f6", "e8e9", "f6g8"]);
        }
        let g = log.replay();
        assert!(g.end.is_none());
        let id = claim_id(&g, "repetition");
        log.chief(Command::RuleOnClaim {
            table: 1,
            claim_id: id,
            decision: Decision::Override {
                verdict: Verdict::Loss { side: Side::Red },
                must_change: None,
                reason: "Red did not change after being told (AXF-G3)".into(),
            },
        });
        let g = log.replay();
        let end = g.end.expect("over");
        assert_eq!(end.result, GameResult::BlackWins);
        assert_eq!(end.reason, EndReason::PerpetualCheck);
        assert_eq!(g.moves.len(), 19);
        assert!(g
            .notes
            .iter()
            .flatten()
            .any(|n| n.contains("AXF-D1") || n.contains("AXF-S1")));
        // Moves without clock presses carry no clock stamp.
        assert!(g.clocks.iter().all(Option::is_none));
    }

    #[test]
    fn reasons_from_terminal_results_and_arbiters() {
        // A terminal's result with its own words.
        let mut log = Log::new();
        log.moves(Side::Red, &["h2e2", "h9g7"]);
        log.ev(TableEvent::Result {
            result: GameResult::RedWins,
            why: EndReason::Flag,
            reason: "Black lost on time".into(),
        });
        let end = log.replay().end.unwrap();
        assert_eq!(end.reason, EndReason::Flag);
        // The reason is the typed one, whatever the words say.
        let mut log = Log::new();
        log.ev(TableEvent::Result {
            result: GameResult::Draw,
            why: EndReason::Reported,
            reason: "checkmate, resigned, on time".into(),
        });
        assert_eq!(log.replay().end.unwrap().reason, EndReason::Reported);
        // A mate the terminal does not see is still not a mate the board does not show.
        let mut log = Log::new();
        log.ev(TableEvent::Result {
            result: GameResult::RedWins,
            why: EndReason::Checkmate,
            reason: "mate".into(),
        });
        assert_eq!(log.replay().end.unwrap().reason, EndReason::Reported);
        // The chief sets a result: arbiter, with the chief's reason kept.
        let mut log = Log::new();
        log.chief(Command::SetResult {
            table: 1,
            result: GameResult::BothLose,
            reason: "both absent".into(),
        });
        let g = log.replay();
        let end = g.end.as_ref().unwrap();
        assert_eq!(
            (end.reason, end.detail.as_str()),
            (EndReason::Arbiter, "both absent")
        );
        assert_eq!(crate::results::result_token(&g), "0-0");
        assert_eq!(
            crate::standings::rulebook_result(&g),
            Some(rulebook::GameResult::DoubleForfeit)
        );
    }

    #[test]
    fn no_show_ruled_is_a_forfeit_win() {
        let mut log = Log::new();
        log.ev(TableEvent::Arrived { side: Side::Red });
        log.push(Record::Note(hall::record::Note::NoShow {
            table: 1,
            side: Side::Black,
        }));
        let g = log.replay();
        let id = claim_id(&g, "no-show");
        log.chief(Command::RuleOnClaim {
            table: 1,
            claim_id: id,
            decision: Decision::Accept,
        });
        let g = log.replay();
        assert_eq!(g.end.as_ref().unwrap().reason, EndReason::Forfeit);
        assert_eq!(
            crate::standings::rulebook_result(&g),
            Some(rulebook::GameResult::RedWinsByForfeit)
        );
        assert!(g.moves.is_empty());
        assert!(g.initial_notes.iter().any(|n| n.contains("AXF-FORFEIT-1")));
    }

    #[test]
    fn time_used_follows_presses_increments_and_adjustments() {
        let mut t = TimeTrack::new(60_000, 5_000);
        let press = |by, red_ms, black_ms| TableEvent::ClockPress {
            by,
            mv: None,
            red_ms,
            black_ms,
            terminal_mono_ms: 0,
        };
        t.event(&press(Side::Red, 62_000, 60_000)); // thought 3 s, +5 s
        t.event(&press(Side::Black, 62_000, 55_000)); // thought 10 s
        t.event(&TableEvent::ControlApplied {
            control_id: 1,
            red_ms: 70_000,
            black_ms: 55_000,
            running: None,
            terminal_mono_ms: 0,
        });
        t.event(&press(Side::Red, 74_000, 55_000)); // 70 + 5 - 74 = 1 s
        t.event(&TableEvent::FlagFell {
            side: Side::Black,
            red_ms: 74_000,
            black_ms: 0,
            terminal_mono_ms: 0,
        });
        assert_eq!(t.used, [4_000, 65_000]);
    }
}
