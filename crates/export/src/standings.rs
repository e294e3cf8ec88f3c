//! Standings after a round (排名): individual standings with the AXF
//! tie-break order of the tournament type (crates/rulebook `standings`:
//! round robin AXF-RANK-1; points round robin and Swiss AXF-RANK-2), and,
//! when the hall is a team event, team match scores (AXF-SCORE-3: board
//! points decide each match, match points from the config, default 2/1/0).
//!
//! Input mapping: a game ended by a no-show ruling (forfeit) is a forfeit
//! win (it counts as a win but not as a win with Black); both players lost
//! = double forfeit; unfinished games are left out. Players are identified
//! by their key: the registration id when the config gives one, else the
//! name (two players named 王伟 with different ids stay two); the
//! [`Entrant`] map gives each key's name and id for display. Lots (the last criterion) use a seeded draw fixed per hall (the
//! seed comes from the hall id) until the arbiter draws real lots; places
//! after first stay shared when every criterion but lots ties (the champion
//! is never shared, AXF-RANK-6).
//!
//! Team ranking: match points, then board points, then a shared place. The
//! source's team tie-break list was lost in extraction (see docs/rules.md,
//! "Readings"); this order is documented, not taken from the AXF text.

use std::collections::{BTreeMap, BTreeSet};

use proto::GameResult as WireResult;
use rulebook::scoring::{team_match, GameResult, Outcome};
use rulebook::standings::{standings, EventSystem, GameRecord, StandingRow, StandingsConfig};
use serde::Serialize;

use super::game::{EndReason, PlayedGame};
use super::ExportError;
use config::{HallConfig, TeamMatch, TournamentKind};

/// The rulebook result of a finished game (forfeits told apart).
pub fn rulebook_result(g: &PlayedGame) -> Option<GameResult> {
    let e = g.end.as_ref()?;
    let forfeit = e.reason == EndReason::Forfeit;
    Some(match (e.result, forfeit) {
        (WireResult::RedWins, false) => GameResult::RedWins,
        (WireResult::BlackWins, false) => GameResult::BlackWins,
        (WireResult::RedWins, true) => GameResult::RedWinsByForfeit,
        (WireResult::BlackWins, true) => GameResult::BlackWinsByForfeit,
        (WireResult::Draw, _) => GameResult::Draw,
        (WireResult::BothLose, _) => GameResult::DoubleForfeit,
    })
}

/// The event system of a tournament kind.
pub fn system_of(kind: TournamentKind) -> EventSystem {
    match kind {
        TournamentKind::RoundRobin => EventSystem::RoundRobin,
        TournamentKind::PointsRoundRobin => EventSystem::PointsRoundRobin,
        TournamentKind::Swiss => EventSystem::Swiss,
    }
}

/// A team's line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamRow {
    /// Place (shared places have the same rank).
    pub rank: u32,
    /// Team name.
    pub team: String,
    /// Matches played.
    pub matches: u32,
    /// Matches won, drawn, lost.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
    /// Match points (场分).
    pub match_points: u32,
    /// Board points (局分, 2/1/0 per game).
    pub board_points: u32,
}

/// A player as the exports show them: name and registration id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entrant {
    /// Name as in the pairings.
    pub name: String,
    /// Registration id, when the config gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// Every player of rounds <= `round`, by key ([`config::Pairing::red_key`]).
pub fn entrants(config: &HallConfig, round: u32) -> BTreeMap<String, Entrant> {
    let mut out = BTreeMap::new();
    for r in config.rounds.iter().filter(|r| r.number <= round) {
        for p in &r.tables {
            for (key, name, id) in [
                (p.red_key(), &p.red, &p.red_id),
                (p.black_key(), &p.black, &p.black_id),
            ] {
                out.entry(key.to_string()).or_insert_with(|| Entrant {
                    name: name.clone(),
                    id: id.clone(),
                });
            }
        }
    }
    out
}

/// Standings after a round.
#[derive(Debug, Clone, Serialize)]
pub struct Standings {
    /// Tournament name.
    pub tournament: String,
    /// After this round.
    pub after_round: u32,
    /// Event system.
    pub system: EventSystem,
    /// The tie-break order used (lots last), in English words.
    pub tie_break_order: Vec<String>,
    /// The same order as tie-breaks (worded in the export's language by
    /// [`tie_break_id`]; not in the JSON, whose order stays the words).
    #[serde(skip)]
    pub tie_breaks: Vec<rulebook::TieBreak>,
    /// The rule id of that order.
    pub rule_id: String,
    /// Individual standings; `player` is the player's key.
    pub players: Vec<StandingRow>,
    /// Name and id of each player key.
    pub entrants: BTreeMap<String, Entrant>,
    /// Team standings (team events only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<Vec<TeamRow>>,
    /// Rounds up to `after_round` whose games are not in the data dir.
    pub missing_rounds: Vec<u32>,
    /// The games counted (round, Red, Black, result, fouls).
    #[serde(skip)]
    pub games: Vec<GameRecord>,
}

impl Standings {
    /// The display name of a player key (the key itself if unknown).
    pub fn name_of<'a>(&'a self, key: &'a str) -> &'a str {
        self.entrants.get(key).map_or(key, |e| e.name.as_str())
    }

    /// The registration id of a player key, or "".
    pub fn id_of(&self, key: &str) -> &str {
        self.entrants
            .get(key)
            .and_then(|e| e.id.as_deref())
            .unwrap_or("")
    }
}

fn lot_seed(config: &HallConfig) -> u64 {
    u64::from_str_radix(&config.hall_id(), 16).unwrap_or(0)
}

/// The games counted by the standings (finished games of rounds <= `round`).
pub fn game_records(games: &[PlayedGame], round: u32) -> Vec<GameRecord> {
    games
        .iter()
        .filter(|g| g.round <= round)
        .filter_map(|g| {
            Some(GameRecord {
                round: g.round,
                red: g.pairing.red_key().to_string(),
                black: g.pairing.black_key().to_string(),
                result: rulebook_result(g)?,
                technical_fouls: [g.fouls[0].technical, g.fouls[1].technical],
            })
        })
        .collect()
}

/// Computes the standings after `round` from the games of rounds <= `round`.
pub fn compute(
    config: &HallConfig,
    games: &[PlayedGame],
    round: u32,
    missing_rounds: Vec<u32>,
) -> Result<Standings, ExportError> {
    let system = system_of(config.tournament.kind);
    let cfg = StandingsConfig {
        system,
        order: None,
        lots: Vec::new(),
        lot_seed: lot_seed(config),
        shared_ranks_allowed: true,
    };
    let records = game_records(games, round);
    let entrants = entrants(config, round);
    let players: Vec<String> = entrants.keys().cloned().collect();
    let rows =
        standings(&records, &players, &cfg).map_err(|e| ExportError::Standings(e.to_string()))?;
    let mut tie_breaks: Vec<rulebook::TieBreak> = system.default_order().to_vec();
    tie_breaks.push(rulebook::TieBreak::Lots);
    let order: Vec<String> = tie_breaks
        .iter()
        .map(|t| tie_break_name(*t).to_string())
        .collect();
    let teams = config
        .tournament
        .team_match
        .as_ref()
        .map(|tm| team_standings(tm, games, round));
    Ok(Standings {
        tournament: config.tournament.name.clone(),
        after_round: round,
        system,
        tie_break_order: order,
        tie_breaks,
        rule_id: system.rule_id().as_str().to_string(),
        players: rows,
        entrants,
        teams,
        missing_rounds,
        games: records,
    })
}

/// The catalogue id of a tie-break's name (`export-tiebreak-*`), for the
/// HTML standings in the export's language.
pub fn tie_break_id(t: rulebook::TieBreak) -> &'static str {
    use rulebook::TieBreak::*;
    match t {
        DirectEncounter => "export-tiebreak-direct-encounter",
        OpponentScoreBeaten => "export-tiebreak-opponent-score-beaten",
        OpponentScoreAll => "export-tiebreak-opponent-score-all",
        FewerTechnicalFouls => "export-tiebreak-fewer-technical-fouls",
        MoreBlackWins => "export-tiebreak-more-black-wins",
        Lots => "export-tiebreak-lots",
        Buchholz => "export-tiebreak-buchholz",
        BuchholzCut1 => "export-tiebreak-buchholz-cut1",
        SonnebornBerger => "export-tiebreak-sonneborn-berger",
        ProgressiveScore => "export-tiebreak-progressive-score",
        Wins => "export-tiebreak-wins",
        BlackGames => "export-tiebreak-black-games",
        AverageRatingOpponents => "export-tiebreak-average-rating-opponents",
    }
}

/// A tie-break's name in `lang` (the catalogue's), or in English words
/// ([`tie_break_name`]) when the export has no language.
pub fn tie_break_words(t: rulebook::TieBreak, lang: Option<i18n::Lang>) -> String {
    match lang {
        Some(l) => i18n::render(l, &proto::Message::new(tie_break_id(t))),
        None => tie_break_name(t).to_string(),
    }
}

/// The English name of a tie-break.
pub fn tie_break_name(t: rulebook::TieBreak) -> &'static str {
    use rulebook::TieBreak::*;
    match t {
        DirectEncounter => "direct encounter",
        OpponentScoreBeaten => "opponent score (beaten + half drawn)",
        OpponentScoreAll => "opponent score (all opponents)",
        FewerTechnicalFouls => "fewer technical fouls",
        MoreBlackWins => "more wins with Black",
        Lots => "lots",
        Buchholz => "Buchholz (BH)",
        BuchholzCut1 => "Buchholz cut 1 (BH-C1)",
        SonnebornBerger => "Sonneborn-Berger (SB)",
        ProgressiveScore => "progressive score (PS)",
        Wins => "wins (WIN)",
        BlackGames => "games with Black (BPG)",
        AverageRatingOpponents => "average rating of opponents (ARO)",
    }
}

/// Team match scores and team standings after `round`. A match is every
/// finished game of a round between the same two teams.
pub fn team_standings(tm: &TeamMatch, games: &[PlayedGame], round: u32) -> Vec<TeamRow> {
    // (round, team a, team b) with a < b -> outcomes for team a.
    let mut matches: BTreeMap<(u32, String, String), Vec<Outcome>> = BTreeMap::new();
    let mut teams: BTreeSet<String> = BTreeSet::new();
    for g in games.iter().filter(|g| g.round <= round) {
        let (Some(rt), Some(bt)) = (&g.pairing.red_team, &g.pairing.black_team) else {
            continue;
        };
        teams.insert(rt.clone());
        teams.insert(bt.clone());
        if rt == bt {
            // Team-mates paired together: not a team match.
            continue;
        }
        let Some(res) = rulebook_result(g) else {
            continue;
        };
        let red_outcome = res.outcome(xiangqi::Color::Red);
        let black_outcome = res.outcome(xiangqi::Color::Black);
        let (key, o) = if rt <= bt {
            ((g.round, rt.clone(), bt.clone()), red_outcome)
        } else {
            ((g.round, bt.clone(), rt.clone()), black_outcome)
        };
        // Double forfeit: a loss for both; seen from team a it is a loss.
        matches.entry(key).or_default().push(o);
    }
    let mut rows: BTreeMap<String, TeamRow> = teams
        .iter()
        .map(|t| {
            (
                t.clone(),
                TeamRow {
                    rank: 0,
                    team: t.clone(),
                    matches: 0,
                    won: 0,
                    drawn: 0,
                    lost: 0,
                    match_points: 0,
                    board_points: 0,
                },
            )
        })
        .collect();
    for ((_, a, b), outcomes) in &matches {
        let s = team_match(outcomes);
        for (team, i) in [(a, 0usize), (b, 1usize)] {
            let o = if i == 0 {
                s.outcome
            } else {
                s.outcome.reversed()
            };
            if let Some(r) = rows.get_mut(team) {
                r.matches += 1;
                r.board_points += s.board_points[i];
                match o {
                    Outcome::Win => {
                        r.won += 1;
                        r.match_points += tm.match_points_win;
                    }
                    Outcome::Draw => {
                        r.drawn += 1;
                        r.match_points += tm.match_points_draw;
                    }
                    Outcome::Loss => r.lost += 1,
                }
            }
        }
    }
    let mut list: Vec<TeamRow> = rows.into_values().collect();
    list.sort_by(|x, y| {
        y.match_points
            .cmp(&x.match_points)
            .then(y.board_points.cmp(&x.board_points))
            .then(x.team.cmp(&y.team))
    });
    let mut prev: Option<(u32, u32, u32)> = None;
    for (i, r) in list.iter_mut().enumerate() {
        let key = (r.match_points, r.board_points);
        r.rank = match prev {
            Some((mp, bp, rank)) if (mp, bp) == key => rank,
            _ => i as u32 + 1,
        };
        prev = Some((key.0, key.1, r.rank));
    }
    list
}

/// Standings as CSV (one line per player; tie-break values as computed).
pub fn to_csv(s: &Standings) -> String {
    use super::results::csv_field;
    let mut out = String::from(
        "rank,shared,player,id,points,games,wins,draws,losses,black_wins,technical_fouls,opponent_score_beaten,opponent_score_all,decided_by\r\n",
    );
    for r in &s.players {
        let fields = [
            r.rank.to_string(),
            if r.shared {
                "yes".into()
            } else {
                String::new()
            },
            s.name_of(&r.player).to_string(),
            s.id_of(&r.player).to_string(),
            r.points.to_string(),
            r.games.to_string(),
            r.wins.to_string(),
            r.draws.to_string(),
            r.losses.to_string(),
            r.black_wins.to_string(),
            r.technical_fouls.to_string(),
            half(r.opponent_score_beaten_x2),
            r.opponent_score_all.to_string(),
            r.decided_by
                .map(|t| tie_break_name(t).to_string())
                .unwrap_or_default(),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&line.join(","));
        out.push_str("\r\n");
    }
    out
}

/// A value stored ×2 written with its half (`7`, `7.5`).
pub fn half(x2: u64) -> String {
    if x2 % 2 == 0 {
        (x2 / 2).to_string()
    } else {
        format!("{}.5", x2 / 2)
    }
}

/// Standings as pretty JSON.
pub fn to_json(s: &Standings) -> String {
    serde_json::to_string_pretty(s).unwrap_or_default() + "\n"
}
