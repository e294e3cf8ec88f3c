//! Individual standings with the AXF tie-break orders (AXF ch. 2 §5).
//!
//! Input: the games of an event ([`GameRecord`]: round, Red, Black, result,
//! technical fouls of each side). Output: ranked [`StandingRow`]s with the
//! value of every tie-break that was needed.
//!
//! Orders (configurable with [`StandingsConfig::order`]):
//! - round robin 循环制 (AXF-RANK-1): points, then direct encounter, then
//!   opponent score of beaten opponents plus half of drawn opponents, then
//!   fewer technical fouls, then more wins with Black, then lots;
//! - points round robin 积分循环制 (AXF-RANK-2): points, then opponent score
//!   (sum of all opponents' points), then direct encounter, fewer technical
//!   fouls, more wins with Black, lots;
//! - Swiss 积分编排制: the source's lists were lost in extraction; the points
//!   round-robin order is used (configurable).
//!
//! FIDE's tie-breaks (C.07) are here too, for events paired by FIDE's
//! systems and for arbiters who ask for them: BH, BH-C1, SB, PS, DE, WIN,
//! BWG, BPG and ARO ([`TieBreak::from_code`] reads the codes; the values
//! come from `standings_fide`). They need the unplayed rounds (byes,
//! absences) and the ratings: [`standings_with`] takes them in
//! [`StandingsExtra`]. A bye counts as a win in points (AXF and FIDE
//! alike); in the AXF opponent score it adds
//! [`StandingsExtra::bye_opponent_score`], the figure the event's rules fix.
//!
//! Procedure: players with equal points form a group; the first criterion
//! splits it into subgroups by value; each subgroup still tied goes on to
//! the next criterion. Direct encounter is the points scored in the games
//! among the players still tied at that step (a mini-table). Lots come last:
//! the arbiter's drawn order ([`StandingsConfig::lots`]), else a
//! deterministic seeded draw ([`StandingsConfig::lot_seed`]). The champion is
//! never shared (AXF-RANK-6); other places stay shared when ties remain and
//! [`StandingsConfig::shared_ranks_allowed`] is set, otherwise lots decide.
//! Forfeit wins count as wins, but not as wins with Black (no game was
//! played); a double forfeit is a loss for both.

use crate::rule_id::RuleId;
use crate::scoring::{GameResult, Outcome};
use crate::standings_fide::{self, FideTable, RoundEntry};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use xiangqi::Color;

/// A tie-break criterion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Points in the games among the tied players (直接对局).
    DirectEncounter,
    /// Round-robin opponent score: beaten opponents' points plus half of
    /// drawn opponents' points (所胜对手之总积分及所和对手之半数积分).
    OpponentScoreBeaten,
    /// Points round-robin opponent score: all opponents' points (所遇对手积分之总和).
    OpponentScoreAll,
    /// Fewer technical fouls (技术犯规次数少者居前).
    FewerTechnicalFouls,
    /// More wins with Black (后手胜局多者居前).
    MoreBlackWins,
    /// Lots (抽签); always last.
    Lots,
    /// FIDE BH: Buchholz, the opponents' adjusted scores.
    Buchholz,
    /// FIDE BH-C1: Buchholz without the lowest opponent.
    BuchholzCut1,
    /// FIDE SB: Sonneborn-Berger, opponents' scores weighted by the result.
    SonnebornBerger,
    /// FIDE PS: progressive score (累进分), the sum of the running scores.
    ProgressiveScore,
    /// FIDE WIN: rounds won (also byes and forfeits worth a win).
    Wins,
    /// FIDE BPG: games played with Black.
    BlackGames,
    /// FIDE ARO: the average rating of the opponents of played games.
    AverageRatingOpponents,
}

impl TieBreak {
    /// Reads a tie-break code: FIDE's (`BH`, `BH-C1` or `BH/C1`, `SB`, `PS`,
    /// `DE`, `WIN`, `BWG`, `BPG`, `ARO`) or the AXF names of the config
    /// (`opponent_score_all`, …). `None` for an unknown code.
    pub fn from_code(code: &str) -> Option<TieBreak> {
        Some(match code.trim().to_ascii_uppercase().as_str() {
            "BH" => TieBreak::Buchholz,
            "BH-C1" | "BH/C1" => TieBreak::BuchholzCut1,
            "SB" => TieBreak::SonnebornBerger,
            "PS" => TieBreak::ProgressiveScore,
            "DE" | "DIRECT_ENCOUNTER" => TieBreak::DirectEncounter,
            "WIN" => TieBreak::Wins,
            "BWG" | "MORE_BLACK_WINS" => TieBreak::MoreBlackWins,
            "BPG" => TieBreak::BlackGames,
            "ARO" => TieBreak::AverageRatingOpponents,
            "OPPONENT_SCORE_BEATEN" => TieBreak::OpponentScoreBeaten,
            "OPPONENT_SCORE_ALL" => TieBreak::OpponentScoreAll,
            "FEWER_TECHNICAL_FOULS" => TieBreak::FewerTechnicalFouls,
            "LOTS" => TieBreak::Lots,
            _ => return None,
        })
    }

    /// The short code (FIDE's where there is one).
    pub fn code(self) -> &'static str {
        match self {
            TieBreak::DirectEncounter => "DE",
            TieBreak::OpponentScoreBeaten => "opponent_score_beaten",
            TieBreak::OpponentScoreAll => "opponent_score_all",
            TieBreak::FewerTechnicalFouls => "fewer_technical_fouls",
            TieBreak::MoreBlackWins => "BWG",
            TieBreak::Lots => "lots",
            TieBreak::Buchholz => "BH",
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::ProgressiveScore => "PS",
            TieBreak::Wins => "WIN",
            TieBreak::BlackGames => "BPG",
            TieBreak::AverageRatingOpponents => "ARO",
        }
    }
}

/// A round a player did not play over the board and was not paired for:
/// a bye or an absence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnplayedRound {
    /// Round number.
    pub round: u32,
    /// The player's id.
    pub player: String,
    /// Points scored for it (2/1/0 scale: a pairing-allocated or
    /// full-point bye 2, a half-point bye 1, an absence 0).
    pub points: u32,
}

/// What [`standings_with`] needs beyond the games for FIDE's tie-breaks
/// and byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StandingsExtra {
    /// Byes and absences.
    pub unplayed: Vec<UnplayedRound>,
    /// Ratings by player id (missing = unrated).
    pub ratings: HashMap<String, u32>,
    /// What a bye adds to the AXF opponent score (对手分), as the event's
    /// rules fix it (0 when they say nothing).
    pub bye_opponent_score: u32,
}

/// The kind of event, which gives the default tie-break order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum EventSystem {
    /// 循环制.
    #[default]
    RoundRobin,
    /// 积分循环制.
    PointsRoundRobin,
    /// 积分编排制 (order of the points round robin; see the module doc).
    Swiss,
}

impl EventSystem {
    /// The AXF order for this system (lots implied at the end).
    pub fn default_order(self) -> Vec<TieBreak> {
        match self {
            EventSystem::RoundRobin => vec![
                TieBreak::DirectEncounter,
                TieBreak::OpponentScoreBeaten,
                TieBreak::FewerTechnicalFouls,
                TieBreak::MoreBlackWins,
            ],
            EventSystem::PointsRoundRobin | EventSystem::Swiss => vec![
                TieBreak::OpponentScoreAll,
                TieBreak::DirectEncounter,
                TieBreak::FewerTechnicalFouls,
                TieBreak::MoreBlackWins,
            ],
        }
    }

    /// The rule cited for this order.
    pub fn rule_id(self) -> RuleId {
        match self {
            EventSystem::RoundRobin => RuleId::AXF_RANK_1,
            _ => RuleId::AXF_RANK_2,
        }
    }
}

/// How to rank (`[standings]` in config).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingsConfig {
    /// The event system.
    #[serde(default)]
    pub system: EventSystem,
    /// The tie-break order; the system's order when absent. `lots`, if
    /// given, must be last.
    #[serde(default)]
    pub order: Option<Vec<TieBreak>>,
    /// Player ids in the order drawn by lot (earlier ranks higher).
    #[serde(default)]
    pub lots: Vec<String>,
    /// Seed of the fallback draw for players not in `lots`.
    #[serde(default)]
    pub lot_seed: u64,
    /// Whether places other than first may be shared when all criteria but
    /// lots leave a tie (decided before the event, AXF-RANK-6).
    #[serde(default)]
    pub shared_ranks_allowed: bool,
}

/// One game of the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Round number.
    pub round: u32,
    /// Red's player id.
    pub red: String,
    /// Black's player id.
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// Technical fouls of Red and Black in this game.
    #[serde(default)]
    pub technical_fouls: [u32; 2],
}

/// Errors in the standings input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StandingsError {
    /// A game with the same player on both sides.
    #[error("round {round}: {player} is paired with themself")]
    SelfPairing {
        /// The round.
        round: u32,
        /// The player.
        player: String,
    },
    /// `lots` placed before other criteria.
    #[error("standings.order: \"lots\" must be the last tie-break")]
    LotsNotLast,
    /// A criterion given twice.
    #[error("standings.order: {0:?} is given twice")]
    Duplicate(TieBreak),
}

/// A tie-break value of a player (scaled: opponent scores are in half
/// points ×2 so that halves stay exact; "fewer fouls" is stored as is and
/// compared reversed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieBreakValue {
    /// The criterion.
    pub tie_break: TieBreak,
    /// Its value: points for direct encounter; opponent score ×2; fouls;
    /// black wins; for lots the drawn position (0 = best).
    pub value: u64,
}

/// One ranked player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingRow {
    /// Place, 1 = first. Shared places have the same rank.
    pub rank: u32,
    /// The place is shared with another player.
    pub shared: bool,
    /// Player id.
    pub player: String,
    /// Points (2/1/0 per game).
    pub points: u32,
    /// Games (including forfeits).
    pub games: u32,
    /// Wins (including forfeit wins).
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses (including forfeits and double forfeits).
    pub losses: u32,
    /// Wins with Black in played games.
    pub black_wins: u32,
    /// Technical fouls over all games.
    pub technical_fouls: u32,
    /// Round-robin opponent score ×2 (beaten + half drawn).
    pub opponent_score_beaten_x2: u64,
    /// Points round-robin opponent score (all opponents).
    pub opponent_score_all: u64,
    /// The criteria evaluated for this player, in order, with values.
    pub tie_breaks: Vec<TieBreakValue>,
    /// The criterion that separated this player from those tied with it on
    /// points (`None`: not tied, or still tied).
    pub decided_by: Option<TieBreak>,
    /// The value of every criterion of the order (lots aside) for this
    /// player, also where no tie needed it; direct encounter among the
    /// players on the same points. Not serialised (the exports show
    /// `tie_breaks`).
    #[serde(skip)]
    pub every_value: Vec<TieBreakValue>,
}

struct Stats {
    points: u32,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    black_wins: u32,
    fouls: u32,
}

/// A stable per-player lot number: FNV-1a over the seed and the id, then
/// the splitmix64 finaliser so that every bit of the seed moves the draw.
fn lot_hash(seed: u64, id: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.to_le_bytes().iter().chain(id.as_bytes()) {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = h ^ seed.rotate_left(17);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

struct Ctx<'a> {
    games: &'a [GameRecord],
    idx: HashMap<&'a str, usize>,
    stats: Vec<Stats>,
    opp_beaten_x2: Vec<u64>,
    opp_all: Vec<u64>,
    lots: HashMap<&'a str, usize>,
    seed: u64,
    names: Vec<&'a str>,
    fide: FideTable,
}

impl Ctx<'_> {
    /// A value where larger ranks higher: (shown, key).
    fn larger(&self, v: u64) -> (u64, i128) {
        (v, v as i128)
    }

    /// Value of a criterion for player `p` within `group`; larger is better.
    fn value(&self, tb: TieBreak, p: usize, group: &[usize]) -> (u64, i128) {
        match tb {
            TieBreak::DirectEncounter => {
                let mut pts = 0u64;
                for g in self.games {
                    let (r, b) = (self.idx[g.red.as_str()], self.idx[g.black.as_str()]);
                    if !(group.contains(&r) && group.contains(&b)) {
                        continue;
                    }
                    if r == p {
                        pts += g.result.points(Color::Red) as u64;
                    } else if b == p {
                        pts += g.result.points(Color::Black) as u64;
                    }
                }
                (pts, pts as i128)
            }
            TieBreak::OpponentScoreBeaten => {
                let v = self.opp_beaten_x2[p];
                (v, v as i128)
            }
            TieBreak::OpponentScoreAll => {
                let v = self.opp_all[p];
                (v, v as i128)
            }
            TieBreak::FewerTechnicalFouls => {
                let v = self.stats[p].fouls as u64;
                (v, -(v as i128))
            }
            TieBreak::MoreBlackWins => {
                let v = self.stats[p].black_wins as u64;
                (v, v as i128)
            }
            TieBreak::Buchholz => self.larger(self.fide.bh[p]),
            TieBreak::BuchholzCut1 => self.larger(self.fide.bh_c1[p]),
            TieBreak::SonnebornBerger => self.larger(self.fide.sb[p]),
            TieBreak::ProgressiveScore => self.larger(self.fide.ps[p]),
            TieBreak::Wins => self.larger(self.fide.wins[p]),
            TieBreak::BlackGames => self.larger(self.fide.black_games[p]),
            TieBreak::AverageRatingOpponents => self.larger(self.fide.aro[p]),
            TieBreak::Lots => {
                // Drawn players first in their drawn order, then the seeded draw.
                let name = self.names[p];
                match self.lots.get(name) {
                    Some(&pos) => (pos as u64, -(pos as i128)),
                    None => {
                        let h = lot_hash(self.seed, name);
                        // After every drawn player, ordered by hash.
                        (u64::MAX, -((1i128 << 64) + h as i128))
                    }
                }
            }
        }
    }
}

/// Computes the standings. `players` lists ids to include even without
/// games (order irrelevant); every id in `games` is included.
pub fn standings(
    games: &[GameRecord],
    players: &[String],
    cfg: &StandingsConfig,
) -> Result<Vec<StandingRow>, StandingsError> {
    standings_with(games, &StandingsExtra::default(), players, cfg)
}

/// [`standings`] with byes, absences and ratings ([`StandingsExtra`]).
pub fn standings_with(
    games: &[GameRecord],
    extra: &StandingsExtra,
    players: &[String],
    cfg: &StandingsConfig,
) -> Result<Vec<StandingRow>, StandingsError> {
    let (order, explicit_lots) = tie_break_order(cfg)?;
    let (names, idx) = player_index(games, extra, players);
    for g in games {
        if g.red == g.black {
            return Err(StandingsError::SelfPairing {
                round: g.round,
                player: g.red.clone(),
            });
        }
    }
    let stats = game_stats(games, extra, &idx, names.len());
    let mut opp_beaten_x2 = vec![0u64; names.len()];
    let mut opp_all = vec![0u64; names.len()];
    for u in &extra.unplayed {
        if u.points == 2 {
            opp_all[idx[u.player.as_str()]] += extra.bye_opponent_score as u64;
        }
    }
    let fide = fide_table(games, extra, &idx, &names);
    for g in games {
        let (r, b) = (idx[g.red.as_str()], idx[g.black.as_str()]);
        for (me, opp, side) in [(r, b, Color::Red), (b, r, Color::Black)] {
            let op = stats[opp].points as u64;
            opp_all[me] += op;
            match g.result.outcome(side) {
                Outcome::Win => opp_beaten_x2[me] += 2 * op,
                Outcome::Draw => opp_beaten_x2[me] += op,
                Outcome::Loss => {}
            }
        }
    }
    let lots: HashMap<&str, usize> = cfg
        .lots
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let ctx = Ctx {
        games,
        idx,
        stats,
        opp_beaten_x2,
        opp_all,
        lots,
        seed: cfg.lot_seed,
        names,
        fide,
    };
    let n = ctx.names.len();
    let mut evaluated: Vec<Vec<TieBreakValue>> = vec![Vec::new(); n];
    let mut decided: Vec<Option<TieBreak>> = vec![None; n];
    // Final order as a list of tied blocks.
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    for (gi, g) in point_groups(&ctx).into_iter().enumerate() {
        split(
            &ctx,
            &order,
            0,
            g,
            gi == 0,
            cfg.shared_ranks_allowed && !explicit_lots,
            &mut evaluated,
            &mut decided,
            &mut blocks,
        );
    }
    Ok(rows_of(&ctx, &order, blocks, &evaluated, &decided))
}

/// The tie-break order to apply (lots, if named, taken off the end) and
/// whether lots were named.
fn tie_break_order(cfg: &StandingsConfig) -> Result<(Vec<TieBreak>, bool), StandingsError> {
    let mut order = cfg
        .order
        .clone()
        .unwrap_or_else(|| cfg.system.default_order());
    let mut explicit_lots = false;
    if let Some(pos) = order.iter().position(|t| *t == TieBreak::Lots) {
        if pos + 1 != order.len() {
            return Err(StandingsError::LotsNotLast);
        }
        order.pop();
        explicit_lots = true;
    }
    for (i, t) in order.iter().enumerate() {
        if order[..i].contains(t) {
            return Err(StandingsError::Duplicate(*t));
        }
    }
    Ok((order, explicit_lots))
}

/// Every player once, in the order first met (listed players, then the
/// games' players, then the unplayed rounds'), and each one's index.
fn player_index<'a>(
    games: &'a [GameRecord],
    extra: &'a StandingsExtra,
    players: &'a [String],
) -> (Vec<&'a str>, HashMap<&'a str, usize>) {
    let mut names: Vec<&str> = Vec::new();
    let mut idx: HashMap<&str, usize> = HashMap::new();
    for n in players
        .iter()
        .map(String::as_str)
        .chain(
            games
                .iter()
                .flat_map(|g| [g.red.as_str(), g.black.as_str()]),
        )
        .chain(extra.unplayed.iter().map(|u| u.player.as_str()))
    {
        if !idx.contains_key(n) {
            idx.insert(n, names.len());
            names.push(n);
        }
    }
    (names, idx)
}

/// Each player's points, games, results and fouls (unplayed rounds' points
/// included).
fn game_stats(
    games: &[GameRecord],
    extra: &StandingsExtra,
    idx: &HashMap<&str, usize>,
    n: usize,
) -> Vec<Stats> {
    let mut stats: Vec<Stats> = (0..n)
        .map(|_| Stats {
            points: 0,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            black_wins: 0,
            fouls: 0,
        })
        .collect();
    for g in games {
        for side in Color::ALL {
            let p = idx[if side == Color::Red {
                g.red.as_str()
            } else {
                g.black.as_str()
            }];
            let s = &mut stats[p];
            let o = g.result.outcome(side);
            s.points += o.points();
            s.games += 1;
            s.fouls += g.technical_fouls[side.index()];
            match o {
                Outcome::Win => {
                    s.wins += 1;
                    if side == Color::Black && !g.result.is_forfeit() {
                        s.black_wins += 1;
                    }
                }
                Outcome::Draw => s.draws += 1,
                Outcome::Loss => s.losses += 1,
            }
        }
    }
    for u in &extra.unplayed {
        stats[idx[u.player.as_str()]].points += u.points;
    }
    stats
}

/// FIDE's tie-breaks over the round-by-round table of every player.
fn fide_table(
    games: &[GameRecord],
    extra: &StandingsExtra,
    idx: &HashMap<&str, usize>,
    names: &[&str],
) -> FideTable {
    let rounds = games
        .iter()
        .map(|g| g.round)
        .chain(extra.unplayed.iter().map(|u| u.round))
        .max()
        .unwrap_or(0) as usize;
    let mut table = vec![vec![RoundEntry::default(); rounds]; names.len()];
    for g in games {
        let (r, b) = (idx[g.red.as_str()], idx[g.black.as_str()]);
        let Some(slot) = (g.round as usize).checked_sub(1) else {
            continue;
        };
        for (me, opp, side) in [(r, b, Color::Red), (b, r, Color::Black)] {
            table[me][slot] = RoundEntry {
                opponent: Some(opp),
                played: !g.result.is_forfeit(),
                black: side == Color::Black,
                points: g.result.points(side),
            };
        }
    }
    for u in &extra.unplayed {
        if let Some(slot) = (u.round as usize).checked_sub(1) {
            table[idx[u.player.as_str()]][slot].points = u.points;
        }
    }
    standings_fide::compute(&table, &standings_fide::ratings_of(names, &extra.ratings))
}

/// The players grouped by points, best first.
fn point_groups(ctx: &Ctx<'_>) -> Vec<Vec<usize>> {
    let mut by_points: Vec<usize> = (0..ctx.names.len()).collect();
    by_points.sort_by(|&a, &b| {
        ctx.stats[b]
            .points
            .cmp(&ctx.stats[a].points)
            .then(a.cmp(&b))
    });
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for p in by_points {
        match groups.last_mut() {
            Some(g) if ctx.stats[g[0]].points == ctx.stats[p].points => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    groups
}

/// The table's rows, block by block (a block of several shares its rank).
fn rows_of(
    ctx: &Ctx<'_>,
    order: &[TieBreak],
    blocks: Vec<Vec<usize>>,
    evaluated: &[Vec<TieBreakValue>],
    decided: &[Option<TieBreak>],
) -> Vec<StandingRow> {
    let n = ctx.names.len();
    let mut rows = Vec::with_capacity(n);
    let mut place = 1u32;
    for block in blocks {
        let shared = block.len() > 1;
        for &p in &block {
            let s = &ctx.stats[p];
            rows.push(StandingRow {
                rank: place,
                shared,
                player: ctx.names[p].to_string(),
                points: s.points,
                games: s.games,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                black_wins: s.black_wins,
                technical_fouls: s.fouls,
                opponent_score_beaten_x2: ctx.opp_beaten_x2[p],
                opponent_score_all: ctx.opp_all[p],
                tie_breaks: evaluated[p].clone(),
                decided_by: decided[p],
                every_value: order
                    .iter()
                    .map(|&tb| {
                        let same: Vec<usize> = (0..n)
                            .filter(|&q| ctx.stats[q].points == s.points)
                            .collect();
                        TieBreakValue {
                            tie_break: tb,
                            value: ctx.value(tb, p, &same).0,
                        }
                    })
                    .collect(),
            });
        }
        place += block.len() as u32;
    }
    rows
}

#[allow(
    clippy::too_many_arguments,
    reason = "the recursion's state: the group, the criterion reached and the three outputs it fills"
)]
fn split(
    ctx: &Ctx<'_>,
    order: &[TieBreak],
    k: usize,
    group: Vec<usize>,
    first: bool,
    shared_allowed: bool,
    evaluated: &mut [Vec<TieBreakValue>],
    decided: &mut [Option<TieBreak>],
    blocks: &mut Vec<Vec<usize>>,
) {
    if group.len() == 1 {
        blocks.push(group);
        return;
    }
    let tb = match order.get(k) {
        Some(t) => *t,
        None if first || !shared_allowed => TieBreak::Lots,
        None => {
            blocks.push(group);
            return;
        }
    };
    // Shared places allowed: lots only pick the champion; the others share.
    let champion_only = tb == TieBreak::Lots && shared_allowed;
    let mut vals: Vec<(usize, u64, i128)> = group
        .iter()
        .map(|&p| {
            let (shown, key) = ctx.value(tb, p, &group);
            (p, shown, key)
        })
        .collect();
    for &(p, shown, _) in &vals {
        evaluated[p].push(TieBreakValue {
            tie_break: tb,
            value: shown,
        });
    }
    vals.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    let mut sub: Vec<Vec<usize>> = Vec::new();
    let mut last_key = None;
    for (p, _, key) in vals {
        if last_key == Some(key) {
            if let Some(s) = sub.last_mut() {
                s.push(p);
            }
        } else {
            sub.push(vec![p]);
            last_key = Some(key);
        }
    }
    if champion_only && sub.len() > 1 {
        let rest: Vec<usize> = sub[1..].iter().flatten().copied().collect();
        if sub[0].len() == 1 {
            decided[sub[0][0]] = Some(TieBreak::Lots);
        }
        blocks.push(sub[0].clone());
        blocks.push(rest);
        return;
    }
    let separated = sub.len() > 1;
    for (i, s) in sub.into_iter().enumerate() {
        if separated && s.len() == 1 {
            decided[s[0]] = Some(tb);
        }
        if tb == TieBreak::Lots {
            // Lots never leave a tie except for identical draws (impossible
            // for distinct ids but for a hash collision): keep them together.
            blocks.push(s);
            continue;
        }
        split(
            ctx,
            order,
            k + 1,
            s,
            first && i == 0,
            shared_allowed,
            evaluated,
            decided,
            blocks,
        );
    }
}

/// What a withdrawal does to a player's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawalEffect {
    /// Round robin, fewer than half of the games played: all the player's
    /// results are void, including the points the opponents scored
    /// (AXF-FORFEIT-3).
    VoidAll,
    /// The played results stand; the unplayed games are forfeits won by the
    /// opponents (AXF-FORFEIT-3 past half, AXF-FORFEIT-4 always).
    RemainingForfeited,
}

impl WithdrawalEffect {
    /// The rule cited.
    pub fn rule_id(self, system: EventSystem) -> RuleId {
        match system {
            EventSystem::RoundRobin => RuleId::AXF_FORFEIT_3,
            _ => RuleId::AXF_FORFEIT_4,
        }
    }
}

/// The effect of a withdrawal after `played` of `scheduled` games.
///
/// Reading: 000 says "已赛对手不足半数" (fewer than half played) voids, and
/// its second text (001) gives the example "应下八场，而只下了四场" (8
/// scheduled, 4 played) as "not more than half" — so exactly half also
/// voids; more than half keeps the results.
pub fn withdrawal_effect(system: EventSystem, played: u32, scheduled: u32) -> WithdrawalEffect {
    match system {
        EventSystem::RoundRobin if played.saturating_mul(2) <= scheduled => {
            WithdrawalEffect::VoidAll
        }
        _ => WithdrawalEffect::RemainingForfeited,
    }
}

/// Applies a withdrawal to the game list: with [`WithdrawalEffect::VoidAll`]
/// the player's games are removed; otherwise each unplayed pairing in
/// `unplayed` (round, Red, Black) involving the player becomes a forfeit won
/// by the opponent.
pub fn apply_withdrawal(
    games: &[GameRecord],
    player: &str,
    effect: WithdrawalEffect,
    unplayed: &[(u32, String, String)],
) -> Vec<GameRecord> {
    match effect {
        WithdrawalEffect::VoidAll => games
            .iter()
            .filter(|g| g.red != player && g.black != player)
            .cloned()
            .collect(),
        WithdrawalEffect::RemainingForfeited => {
            let mut out = games.to_vec();
            for (round, red, black) in unplayed {
                let result = if red == player {
                    GameResult::BlackWinsByForfeit
                } else if black == player {
                    GameResult::RedWinsByForfeit
                } else {
                    continue;
                };
                out.push(GameRecord {
                    round: *round,
                    red: red.clone(),
                    black: black.clone(),
                    result,
                    technical_fouls: [0, 0],
                });
            }
            out
        }
    }
}
