//! The Xiangqi Swiss (积分编排制), as the AXF 2008 competition rules (第四
//! 节 对局开始, 第五节 名次) and Chinese practice describe it.
//!
//! - Round 1 by seeding (start numbers) or by lot (拈筹, drawn from the
//!   seed): 1 v 2, 3 v 4 …, the odd number (the higher of the pair) Red.
//! - Later rounds: players ranked by score, then start number, paired score
//!   group by score group from the top. **Same score meets same score
//!   first** (同分相对): a player leaves his group (floats down) only when
//!   the group cannot be paired within itself, and as few float as can;
//!   within a group each player meets the nearest-ranked player he may
//!   meet. No rematch ever (a forfeit counts as a meeting).
//! - Colours: Red and Black alternate as far as possible (the previous
//!   round's Red gets Black); never three times the same colour in a row,
//!   and Reds minus Blacks stays within ±2, unless no pairing exists
//!   otherwise ([`Relaxation::ColourLimits`]).
//! - Players of one club or team are kept apart in round 1 or in every
//!   round when asked, unless no pairing exists otherwise
//!   ([`Relaxation::ClubMeets`]).
//! - An odd field: the bye (轮空) goes to the lowest-ranked eligible player
//!   with the fewest byes so far (none, as long as someone has none) whose
//!   absence leaves the rest pairable. It scores as the event's
//!   [`crate::Scoring::pairing_bye`] says (AXF: a win).
//!
//! The order of the rules is the point of this system: the colour limits
//! are absolute, but same-score pairing comes before alternating colours,
//! which is what chess programs get wrong for Xiangqi.

use crate::field::{Field, Side};
use crate::lots::Lots;
use crate::matching::perfect;
use crate::{Draw, PairError, Pairing, Relaxation};
use serde::{Deserialize, Serialize};

/// How round 1 is ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Round1 {
    /// By start number (seeding, 种子).
    #[default]
    Seeding,
    /// By lot (拈筹) from the seed.
    Lot,
}

/// When players of one club or team are kept apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClubRule {
    /// Never.
    #[default]
    Never,
    /// In round 1 only.
    FirstRound,
    /// In every round.
    AllRounds,
}

/// Options of the Xiangqi Swiss.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Round 1 order.
    pub round1: Round1,
    /// Club avoidance.
    pub clubs: ClubRule,
    /// The seed of every lot.
    pub seed: u64,
}

/// Search nodes allowed per score group and number of floaters before the
/// group is handed to the matching (which still pairs everyone).
const BUDGET: usize = 20_000;

/// Pairs the next round of `field`.
pub fn pair(field: &Field, opts: &Options) -> Result<Pairing, PairError> {
    let round = field.rounds_held() + 1;
    let mut draws = Vec::new();
    let mut order: Vec<usize> = (0..field.entrants.len())
        .filter(|&i| field.present(i))
        .collect();
    if order.len() < 2 {
        return Err(PairError::TooFewPlayers {
            round,
            present: order.len(),
        });
    }
    if round == 1 && opts.round1 == Round1::Lot {
        Lots::new(opts.seed).shuffle(&mut order);
        draws.push(Draw::StartOrder(
            order.iter().map(|&i| i as u32 + 1).collect(),
        ));
    } else {
        order.sort_by(|&a, &b| field.score(b).cmp(&field.score(a)).then(a.cmp(&b)));
    }
    let colours: Vec<Colours> = (0..field.entrants.len())
        .map(|i| Colours::of(&field.colours(i)))
        .collect();
    for level in [
        Relaxation::None,
        Relaxation::ClubMeets,
        Relaxation::ColourLimits,
    ] {
        let ctx = Ctx {
            field,
            colours: &colours,
            level,
            clubs: match opts.clubs {
                ClubRule::Never => false,
                ClubRule::FirstRound => round == 1,
                ClubRule::AllRounds => true,
            },
        };
        if level == Relaxation::ClubMeets && !ctx.clubs {
            continue;
        }
        if let Some((pairs, bye)) = ctx.pair_ranked(&order) {
            let rank: Vec<usize> = {
                let mut r = vec![0; field.entrants.len()];
                for (pos, &i) in order.iter().enumerate() {
                    r[i] = pos;
                }
                r
            };
            let boards = crate::board_order(
                pairs
                    .into_iter()
                    .map(|(a, b)| {
                        let (red, black) = ctx.sides(a, b, &rank);
                        let (sa, sb) = (field.score(a), field.score(b));
                        (red, black, (sa.max(sb), sa.min(sb), rank[a].min(rank[b])))
                    })
                    .collect(),
            );
            return Ok(Pairing {
                round,
                boards,
                bye: bye.map(|b| b as u32 + 1),
                seed: opts.seed,
                draws,
                relaxed: level,
            });
        }
    }
    Err(PairError::NoPairing { round })
}

/// A player's colour history, summed up.
#[derive(Clone, Copy, Debug, Default)]
pub struct Colours {
    /// Reds minus Blacks.
    pub diff: i32,
    /// The last colour played.
    pub last: Option<Side>,
    /// The last two games had the same colour (`last`).
    pub twice: bool,
}

impl Colours {
    /// Sums up a colour sequence.
    pub fn of(seq: &[Side]) -> Colours {
        let diff = seq
            .iter()
            .map(|s| if *s == Side::Red { 1 } else { -1 })
            .sum();
        let last = seq.last().copied();
        let twice = seq.len() >= 2 && seq[seq.len() - 1] == seq[seq.len() - 2];
        Colours { diff, last, twice }
    }

    /// Whether playing `side` next keeps within the colour limits.
    pub fn allows(&self, side: Side) -> bool {
        let d = self.diff + if side == Side::Red { 1 } else { -1 };
        d.abs() <= 2 && !(self.twice && self.last == Some(side))
    }

    /// The colour wanted next (the other of the last), and how strongly:
    /// 2 when the limits force it, 1 when the difference leans to it, 0
    /// for plain alternation.
    fn wish(&self) -> Option<(Side, u8)> {
        let side = self.last?.other();
        if !self.allows(side.other()) {
            Some((side, 2))
        } else if (side == Side::Red && self.diff < 0) || (side == Side::Black && self.diff > 0) {
            Some((side, 1))
        } else {
            Some((side, 0))
        }
    }
}

/// The pairs (player indices) and the bye of a round.
type Paired = (Vec<(usize, usize)>, Option<usize>);

struct Ctx<'a> {
    field: &'a Field,
    colours: &'a [Colours],
    level: Relaxation,
    clubs: bool,
}

impl Ctx<'_> {
    fn can_meet(&self, a: usize, b: usize) -> bool {
        if a == b || self.field.met(a, b) || self.field.forbidden(a, b) {
            return false;
        }
        if self.clubs && self.level < Relaxation::ClubMeets {
            let (ca, cb) = (&self.field.entrants[a].club, &self.field.entrants[b].club);
            if !ca.is_empty() && ca == cb {
                return false;
            }
        }
        if self.level < Relaxation::ColourLimits {
            let (x, y) = (self.colours[a], self.colours[b]);
            let red_black = x.allows(Side::Red) && y.allows(Side::Black);
            let black_red = x.allows(Side::Black) && y.allows(Side::Red);
            return red_black || black_red;
        }
        true
    }

    fn pairable(&self, players: &[usize]) -> bool {
        let adj: Vec<Vec<usize>> = players
            .iter()
            .map(|&a| {
                (0..players.len())
                    .filter(|&j| self.can_meet(a, players[j]))
                    .collect()
            })
            .collect();
        perfect(&adj)
    }

    /// Pairs players in rank order: the bye, then the score groups.
    fn pair_ranked(&self, order: &[usize]) -> Option<Paired> {
        let mut rest: Vec<usize> = order.to_vec();
        let mut bye = None;
        if rest.len() % 2 == 1 {
            let mut candidates: Vec<usize> = order
                .iter()
                .rev()
                .copied()
                .filter(|&i| self.field.entrants[i].bye_eligible)
                .collect();
            candidates.sort_by_key(|&i| self.field.byes(i));
            let chosen = candidates.into_iter().find(|&c| {
                let others: Vec<usize> = order.iter().copied().filter(|&i| i != c).collect();
                self.pairable(&others)
            })?;
            rest.retain(|&i| i != chosen);
            bye = Some(chosen);
        } else if !self.pairable(&rest) {
            return None;
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for &p in &rest {
            match groups.last_mut() {
                Some(g) if self.field.score(g[0]) == self.field.score(p) => g.push(p),
                _ => groups.push(vec![p]),
            }
        }
        let mut pairs = Vec::new();
        let mut carry: Vec<usize> = Vec::new();
        for gi in 0..groups.len() {
            let mut members = std::mem::take(&mut carry);
            members.extend_from_slice(&groups[gi]);
            let below: Vec<usize> = groups[gi + 1..].iter().flatten().copied().collect();
            let mut found = None;
            let max_float = if below.is_empty() { 0 } else { members.len() };
            for floats in (members.len() % 2..=max_float).step_by(2) {
                let mut s = GroupSearch {
                    ctx: self,
                    members: &members,
                    below: &below,
                    used: vec![false; members.len()],
                    pairs: Vec::new(),
                    floats: Vec::new(),
                    nodes: 0,
                };
                if s.run(0, floats) {
                    found = Some((s.pairs, s.floats));
                    break;
                }
            }
            match found {
                Some((p, f)) => {
                    pairs.extend(p);
                    carry = f;
                }
                None => {
                    // The search ran out of budget: the matching pairs
                    // everyone left (it is known to be possible).
                    let all: Vec<usize> = members.iter().chain(&below).copied().collect();
                    let adj: Vec<Vec<usize>> = all
                        .iter()
                        .map(|&a| {
                            (0..all.len())
                                .filter(|&j| self.can_meet(a, all[j]))
                                .collect()
                        })
                        .collect();
                    let mate = crate::matching::maximum_matching(&adj);
                    for (v, m) in mate.iter().enumerate() {
                        match m {
                            Some(u) if v < *u => pairs.push((all[v], all[*u])),
                            Some(_) => {}
                            None => return None,
                        }
                    }
                    return Some((pairs, bye));
                }
            }
        }
        if !carry.is_empty() {
            return None;
        }
        Some((pairs, bye))
    }

    /// Red and Black of a pair of indices: the limits first, then the
    /// stronger wish, then the higher-ranked player's wish; with no
    /// history the higher-ranked player has Red.
    fn sides(&self, a: usize, b: usize, rank: &[usize]) -> (usize, usize) {
        let (x, y) = (self.colours[a], self.colours[b]);
        let limits = self.level < Relaxation::ColourLimits;
        let ok = |red_first: bool| {
            !limits
                || if red_first {
                    x.allows(Side::Red) && y.allows(Side::Black)
                } else {
                    x.allows(Side::Black) && y.allows(Side::Red)
                }
        };
        let hi = if rank[a] <= rank[b] { a } else { b };
        let a_red = match (x.wish(), y.wish()) {
            (Some((wa, sa)), Some((wb, sb))) if wa == wb => {
                let a_gets = if sa != sb { sa > sb } else { hi == a };
                (wa == Side::Red) == a_gets
            }
            (Some((wa, _)), _) => wa == Side::Red,
            (None, Some((wb, _))) => wb == Side::Black,
            (None, None) => hi == a,
        };
        let a_red = if ok(a_red) { a_red } else { !a_red };
        if a_red {
            (a, b)
        } else {
            (b, a)
        }
    }
}

struct GroupSearch<'a, 'b> {
    ctx: &'a Ctx<'b>,
    members: &'a [usize],
    below: &'a [usize],
    used: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    floats: Vec<usize>,
    nodes: usize,
}

impl GroupSearch<'_, '_> {
    /// Pairs the group from position `at` on with `floats` players left
    /// to float down; true when the rest of the round stays pairable.
    fn run(&mut self, at: usize, floats: usize) -> bool {
        self.nodes += 1;
        if self.nodes > BUDGET {
            return false;
        }
        let Some(i) = (at..self.members.len()).find(|&i| !self.used[i]) else {
            let rest: Vec<usize> = self.floats.iter().chain(self.below).copied().collect();
            return rest.is_empty() || self.ctx.pairable(&rest);
        };
        self.used[i] = true;
        let a = self.members[i];
        for j in i + 1..self.members.len() {
            if self.used[j] || !self.ctx.can_meet(a, self.members[j]) {
                continue;
            }
            self.used[j] = true;
            self.pairs.push((a, self.members[j]));
            if self.run(i + 1, floats) {
                return true;
            }
            self.pairs.pop();
            self.used[j] = false;
        }
        if floats > 0 {
            self.floats.push(a);
            if self.run(i + 1, floats - 1) {
                return true;
            }
            self.floats.pop();
        }
        self.used[i] = false;
        false
    }
}
