//! Team standings (团体赛): teams ranked by match points 场分 (2/1/0 per
//! match, AXF-SCORE-3/4), then configurable tie-breaks.
//!
//! The source's list for team events (积分编排制团体赛, 000 ch. 2 §5 item 5:
//! "场分相等时，则按以下顺序依次区分：") was lost in extraction. The default
//! follows the points round-robin order of the individual events as far as
//! it carries over to teams (AXF-RANK-2): opponent score (sum of all
//! opponents' match points), direct encounter (match points in the matches
//! among the tied teams), board points 局分 (small points in two-game
//! matches), big points (two-game matches), then lots; the champion is never
//! shared (AXF-RANK-6). Configurable with [`TeamStandingsConfig::order`].

use crate::rule_id::RuleId;
use crate::scoring::{team_match, team_two_game_match, Outcome, TeamMatchScore};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The boards of a team match from team A's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeamBoards {
    /// One game per board (AXF-SCORE-3).
    OneGame(Vec<Outcome>),
    /// Two games per board (AXF-SCORE-4).
    TwoGame(Vec<[Outcome; 2]>),
}

/// One team match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamMatchRecord {
    /// Round number.
    pub round: u32,
    /// Team A.
    pub team_a: String,
    /// Team B.
    pub team_b: String,
    /// The boards, from A's view.
    pub boards: TeamBoards,
}

impl TeamMatchRecord {
    /// The match's score.
    pub fn score(&self) -> TeamMatchScore {
        match &self.boards {
            TeamBoards::OneGame(b) => team_match(b),
            TeamBoards::TwoGame(b) => team_two_game_match(b),
        }
    }
}

/// A team tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamTieBreak {
    /// Sum of all opponents' match points.
    OpponentScore,
    /// Match points in the matches among the tied teams.
    DirectEncounter,
    /// Board points 局分 (small points in two-game matches).
    BoardPoints,
    /// Big points (two-game matches; equal to board points otherwise).
    BigPoints,
    /// Lots; always last.
    Lots,
}

/// How to rank teams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamStandingsConfig {
    /// Tie-breaks in order (lots implied last).
    #[serde(default = "default_team_order")]
    pub order: Vec<TeamTieBreak>,
    /// Team ids in the order drawn by lot.
    #[serde(default)]
    pub lots: Vec<String>,
}

fn default_team_order() -> Vec<TeamTieBreak> {
    vec![
        TeamTieBreak::OpponentScore,
        TeamTieBreak::DirectEncounter,
        TeamTieBreak::BoardPoints,
        TeamTieBreak::BigPoints,
    ]
}

impl Default for TeamStandingsConfig {
    fn default() -> Self {
        TeamStandingsConfig {
            order: default_team_order(),
            lots: Vec::new(),
        }
    }
}

/// One ranked team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRow {
    /// Place, 1 = first (never shared: lots decide remaining ties).
    pub rank: u32,
    /// Team id.
    pub team: String,
    /// Match points 场分.
    pub match_points: u32,
    /// Board points 局分 (small points).
    pub board_points: u32,
    /// Big points (two-game matches).
    pub big_points: u32,
    /// Matches won, drawn, lost.
    pub won: u32,
    /// Matches drawn.
    pub drawn: u32,
    /// Matches lost.
    pub lost: u32,
    /// Sum of all opponents' match points.
    pub opponent_score: u32,
    /// The tie-break that separated it from its tied teams.
    pub decided_by: Option<TeamTieBreak>,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
}

#[derive(Default, Clone)]
struct T {
    mp: u32,
    bp: u32,
    big: u32,
    w: u32,
    d: u32,
    l: u32,
    opp: u32,
}

/// Every team once, in the order first met, and each one's index.
fn team_index(matches: &[TeamMatchRecord]) -> (Vec<&str>, HashMap<&str, usize>) {
    let mut idx: HashMap<&str, usize> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    for m in matches {
        for n in [m.team_a.as_str(), m.team_b.as_str()] {
            if !idx.contains_key(n) {
                idx.insert(n, names.len());
                names.push(n);
            }
        }
    }
    (names, idx)
}

/// Each team's points, results and opponents' match points.
fn team_totals(
    matches: &[TeamMatchRecord],
    scores: &[TeamMatchScore],
    idx: &HashMap<&str, usize>,
    n: usize,
) -> Vec<T> {
    let mut t = vec![T::default(); n];
    for (m, s) in matches.iter().zip(scores) {
        for (k, name) in [(0usize, &m.team_a), (1, &m.team_b)] {
            let e = &mut t[idx[name.as_str()]];
            e.mp += s.match_points[k];
            e.bp += s.board_points[k];
            e.big += s.big_points[k];
            match (s.outcome, k) {
                (Outcome::Draw, _) => e.d += 1,
                (Outcome::Win, 0) | (Outcome::Loss, 1) => e.w += 1,
                _ => e.l += 1,
            }
        }
    }
    for m in matches {
        let (a, b) = (idx[m.team_a.as_str()], idx[m.team_b.as_str()]);
        let (ma, mb) = (t[a].mp, t[b].mp);
        t[a].opp += mb;
        t[b].opp += ma;
    }
    t
}

/// Teams sorted by match points (best first) grouped by equal points.
fn match_point_groups(sorted: Vec<usize>, t: &[T]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for p in sorted {
        match groups.last_mut() {
            Some(g) if t[g[0]].mp == t[p].mp => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    groups
}

/// Ranks teams from their matches. Ties that survive every criterion are
/// drawn by lot: the arbiter's order in `cfg.lots`, then team id order.
pub fn team_standings(matches: &[TeamMatchRecord], cfg: &TeamStandingsConfig) -> Vec<TeamRow> {
    let (names, idx) = team_index(matches);
    let scores: Vec<TeamMatchScore> = matches.iter().map(|m| m.score()).collect();
    let t = team_totals(matches, &scores, &idx, names.len());
    let lots: HashMap<&str, usize> = cfg
        .lots
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let order: Vec<TeamTieBreak> = cfg
        .order
        .iter()
        .copied()
        .filter(|x| *x != TeamTieBreak::Lots)
        .collect();
    let value = |tb: TeamTieBreak, p: usize, group: &[usize]| -> i64 {
        match tb {
            TeamTieBreak::OpponentScore => t[p].opp as i64,
            TeamTieBreak::BoardPoints => t[p].bp as i64,
            TeamTieBreak::BigPoints => t[p].big as i64,
            TeamTieBreak::DirectEncounter => matches
                .iter()
                .zip(&scores)
                .map(|(m, s)| {
                    let (a, b) = (idx[m.team_a.as_str()], idx[m.team_b.as_str()]);
                    if !(group.contains(&a) && group.contains(&b)) {
                        0
                    } else if a == p {
                        s.match_points[0] as i64
                    } else if b == p {
                        s.match_points[1] as i64
                    } else {
                        0
                    }
                })
                .sum(),
            TeamTieBreak::Lots => match lots.get(names[p]) {
                Some(&i) => -(i as i64),
                None => i64::MIN / 2,
            },
        }
    };
    let mut all: Vec<usize> = (0..names.len()).collect();
    all.sort_by(|&a, &b| t[b].mp.cmp(&t[a].mp).then(names[a].cmp(names[b])));
    let groups = match_point_groups(all, &t);
    let mut decided: Vec<Option<TeamTieBreak>> = vec![None; names.len()];
    let mut ranked: Vec<usize> = Vec::new();
    // Work list of (group, next criterion index), processed in rank order.
    let mut stack: Vec<(Vec<usize>, usize)> = groups.into_iter().rev().map(|g| (g, 0)).collect();
    while let Some((g, k)) = stack.pop() {
        if g.len() == 1 {
            ranked.push(g[0]);
            continue;
        }
        let tb = order.get(k).copied().unwrap_or(TeamTieBreak::Lots);
        let mut vals: Vec<(usize, i64)> = g.iter().map(|&p| (p, value(tb, p, &g))).collect();
        // Stable: equal lot values (undrawn teams) keep id order.
        vals.sort_by(|x, y| y.1.cmp(&x.1).then(names[x.0].cmp(names[y.0])));
        let mut subs: Vec<Vec<usize>> = Vec::new();
        let mut last = None;
        for (p, v) in vals {
            if last == Some(v) && tb != TeamTieBreak::Lots {
                if let Some(s) = subs.last_mut() {
                    s.push(p);
                }
            } else {
                subs.push(vec![p]);
                last = Some(v);
            }
        }
        if subs.len() > 1 {
            for s in &subs {
                if s.len() == 1 {
                    decided[s[0]] = Some(tb);
                }
            }
        }
        for s in subs.into_iter().rev() {
            stack.push((s, k + 1));
        }
    }
    ranked
        .into_iter()
        .enumerate()
        .map(|(i, p)| TeamRow {
            rank: i as u32 + 1,
            team: names[p].to_string(),
            match_points: t[p].mp,
            board_points: t[p].bp,
            big_points: t[p].big,
            won: t[p].w,
            drawn: t[p].d,
            lost: t[p].l,
            opponent_score: t[p].opp,
            decided_by: decided[p],
            rule_ids: vec![RuleId::AXF_SCORE_3, RuleId::AXF_RANK_2, RuleId::AXF_RANK_6],
        })
        .collect()
}
