//! FIDE's Dutch system (C.04.3), Red = White.
//!
//! What this module does, in the handbook's terms:
//! - Players are ranked by score, then pairing (start) number; the
//!   pairing-allocated bye (PAB) goes to a player who has had neither a
//!   PAB nor a forfeit win (C.04.1.d), from the lowest score and rank up,
//!   as long as the rest can still be paired (completion, C4).
//! - Absolute criteria: no rematch of a played game (C1); two players with
//!   the same absolute colour preference do not meet (C3).
//! - Score brackets from the top. A homogeneous bracket splits into S1
//!   (the top half) and S2; a heterogeneous one pairs its moved-down
//!   players (MDPs) first against the residents in S2 order, then the
//!   remainder as a homogeneous bracket. Candidates are S2 transpositions
//!   in order (4.2); the first one keeps the rest of the round pairable
//!   (C4) and has the fewest unsatisfied colour preferences, then the
//!   fewest unsatisfied strong ones (C12, C13) wins. When the bracket
//!   cannot pair all, the number of pairs goes down by one and the lowest
//!   float down.
//! - Colours by C.04.3 E: both preferences; the stronger; alternation to
//!   the last round they differed; the higher-ranked player's preference;
//!   the initial colour by the pairing number's parity.
//! - Board order: higher score of the pair, sum of scores, higher rank;
//!   the PAB last.
//!
//! - Floats (C14-C17): a player floats down when paired with a lower
//!   score or not playing (bye, forfeit, absence), up when paired with a
//!   higher score; repeating last round's or the round before's float
//!   counts against a candidate.
//! - Exchanges: after the transpositions of the plain split, single
//!   exchanges of one S1 and one S2 player in the handbook's order, then
//!   (beyond the handbook's order) any pairing of the remainder.
//!
//! Not done yet, so the result differs from FIDE's reference checker
//! (gacrux) in about a quarter of the rounds after round 1 (round 1
//! agrees): exchanges of two or more players in the handbook's order, the
//! score-difference criteria (C7, C18-C21), the next-bracket and PAB
//! criteria (C8, C9), topscorers of the last round (C10, C11), and the
//! exact candidate order of heterogeneous brackets.

use crate::field::{Field, ResultCode, Side};
use crate::lots::Lots;
use crate::matching::perfect;
use crate::{Board, Draw, PairError, Pairing, Relaxation};

/// Options of the Dutch system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Round 1's colour of the top-ranked player (drawn from the seed when
    /// neither given nor readable from round 1).
    pub top_colour: Option<Side>,
    /// The seed of the lot.
    pub seed: u64,
}

/// A colour preference (C.04.3 A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No games yet.
    None,
    /// Colour difference 0: alternate.
    Mild,
    /// Colour difference ±1.
    Strong,
    /// Difference beyond ±1 or the same colour twice in a row.
    Absolute,
}

/// A player's preference: strength and side.
pub fn preference(seq: &[Side]) -> (Strength, Option<Side>) {
    let Some(&last) = seq.last() else {
        return (Strength::None, None);
    };
    let diff: i32 = seq
        .iter()
        .map(|s| if *s == Side::Red { 1 } else { -1 })
        .sum();
    let twice = seq.len() >= 2 && seq[seq.len() - 2] == last;
    if diff > 1 || (twice && last == Side::Red) {
        (Strength::Absolute, Some(Side::Black))
    } else if diff < -1 || (twice && last == Side::Black) {
        (Strength::Absolute, Some(Side::Red))
    } else if diff == 1 {
        (Strength::Strong, Some(Side::Black))
    } else if diff == -1 {
        (Strength::Strong, Some(Side::Red))
    } else {
        (Strength::Mild, Some(last.other()))
    }
}

/// Search nodes per bracket and size before giving up on the size.
const BUDGET: usize = 50_000;

struct Ctx<'a> {
    field: &'a Field,
    seqs: Vec<Vec<Side>>,
    /// Colours per round (`None`: no game played that round).
    by_round: Vec<Vec<Option<Side>>>,
    /// Position among this round's present players by start number, from 1.
    tpn: Vec<usize>,
    prefs: Vec<(Strength, Option<Side>)>,
    score: Vec<u32>,
    initial: Side,
    /// Floats of the last round and the one before (index 0 = last).
    floats: Vec<[Float; 2]>,
}

/// How a player floated in a round (C.04.3 A.4): down when paired with a
/// lower score or not playing at all, up when paired with a higher score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    /// Neither.
    None,
    /// Downfloat.
    Down,
    /// Upfloat.
    Up,
}

/// Every player's floats in the last two rounds.
fn floats(field: &Field) -> Vec<[Float; 2]> {
    let n = field.entrants.len();
    let rounds = field.rounds_held() as usize;
    // before[i][r]: score before round r+1.
    let mut before = vec![vec![0u32; rounds + 1]; n];
    for (i, h) in field.history.iter().enumerate() {
        for (r, e) in h.iter().enumerate() {
            before[i][r + 1] = before[i][r] + field.scoring.points(e.result);
        }
    }
    (0..n)
        .map(|i| {
            let mut out = [Float::None; 2];
            for (k, slot) in out.iter_mut().enumerate() {
                let Some(r) = rounds.checked_sub(k + 1) else {
                    break;
                };
                let e = field.history[i][r];
                *slot = match e.opponent {
                    Some(o) if e.result.played() => {
                        let (me, them) = (before[i][r], before[o as usize - 1][r]);
                        if me > them {
                            Float::Down
                        } else if me < them {
                            Float::Up
                        } else {
                            Float::None
                        }
                    }
                    _ => Float::Down,
                };
            }
            out
        })
        .collect()
}

impl<'a> Ctx<'a> {
    /// What the pairing reads of `field`, with the initial colour.
    fn new(field: &'a Field, initial: Side) -> Self {
        let n = field.entrants.len();
        let seqs: Vec<Vec<Side>> = (0..n).map(|i| field.colours(i)).collect();
        Ctx {
            field,
            prefs: seqs.iter().map(|s| preference(s)).collect(),
            seqs,
            score: (0..n).map(|i| field.score(i)).collect(),
            initial,
            floats: floats(field),
            by_round: field
                .history
                .iter()
                .map(|h| {
                    h.iter()
                        .map(|e| if e.result.played() { e.side } else { None })
                        .collect()
                })
                .collect(),
            tpn: {
                let mut t = vec![0; n];
                for (k, i) in (0..n).filter(|&i| field.present(i)).enumerate() {
                    t[i] = k + 1;
                }
                t
            },
        }
    }

    /// The bye: the lowest-ranked player in `order` (lowest score, then
    /// highest number) who had no bye nor forfeit win and without whom
    /// the rest can be paired.
    fn choose_bye(&self, order: &[usize]) -> Option<usize> {
        let mut candidates: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| {
                !self.field.history[i]
                    .iter()
                    .any(|e| matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin))
            })
            .collect();
        candidates.sort_by(|&a, &b| self.score[a].cmp(&self.score[b]).then(b.cmp(&a)));
        candidates.into_iter().find(|&c| {
            let rest: Vec<usize> = order.iter().copied().filter(|&i| i != c).collect();
            self.pairable(&rest)
        })
    }
}

/// Pairs the next round of `field`.
pub fn pair(field: &Field, opts: &Options) -> Result<Pairing, PairError> {
    let round = field.rounds_held() + 1;
    let n = field.entrants.len();
    let mut draws = Vec::new();
    let initial = match opts.top_colour.or_else(|| initial_from_round_one(field)) {
        Some(s) => s,
        None => {
            let s = if Lots::new(opts.seed).below(2) == 0 {
                Side::Red
            } else {
                Side::Black
            };
            draws.push(Draw::TopColour(s));
            s
        }
    };
    let ctx = Ctx::new(field, initial);
    let mut order: Vec<usize> = (0..n).filter(|&i| field.present(i)).collect();
    if order.len() < 2 {
        return Err(PairError::TooFewPlayers {
            round,
            present: order.len(),
        });
    }
    order.sort_by(|&a, &b| ctx.score[b].cmp(&ctx.score[a]).then(a.cmp(&b)));
    let mut bye = None;
    if order.len() % 2 == 1 {
        let chosen = ctx
            .choose_bye(&order)
            .ok_or(PairError::NoPairing { round })?;
        order.retain(|&i| i != chosen);
        bye = Some(chosen);
    } else if !ctx.pairable(&order) {
        return Err(PairError::NoPairing { round });
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &p in &order {
        match groups.last_mut() {
            Some(g) if ctx.score[g[0]] == ctx.score[p] => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut mdps: Vec<usize> = Vec::new();
    for gi in 0..groups.len() {
        let below: Vec<usize> = groups[gi + 1..].iter().flatten().copied().collect();
        let residents = &groups[gi];
        match ctx.pair_bracket(&mdps, residents, &below) {
            Some(leaf) => {
                pairs.extend(leaf.pairs);
                mdps = leaf.floats;
            }
            None => {
                return Err(PairError::NoPairing { round });
            }
        }
    }
    if !mdps.is_empty() {
        return Err(PairError::NoPairing { round });
    }
    let mut rank = vec![0; n];
    for (pos, &i) in order.iter().enumerate() {
        rank[i] = pos;
    }
    let mut boards: Vec<(Board, (u32, u32, usize))> = pairs
        .into_iter()
        .map(|(a, b)| {
            let (hi, lo) = if rank[a] < rank[b] { (a, b) } else { (b, a) };
            let (w, k) = ctx.colours(hi, lo);
            let key = (
                ctx.score[a].max(ctx.score[b]),
                ctx.score[a] + ctx.score[b],
                rank[hi],
            );
            (
                Board {
                    red: w as u32 + 1,
                    black: k as u32 + 1,
                },
                key,
            )
        })
        .collect();
    boards.sort_by(|x, y| {
        y.1 .0
            .cmp(&x.1 .0)
            .then(y.1 .1.cmp(&x.1 .1))
            .then(x.1 .2.cmp(&y.1 .2))
    });
    Ok(Pairing {
        round,
        boards: boards.into_iter().map(|b| b.0).collect(),
        bye: bye.map(|b| b as u32 + 1),
        seed: opts.seed,
        draws,
        relaxed: Relaxation::None,
    })
}

/// The initial colour read from round 1: the colour of the lowest-numbered
/// player paired in round 1 (he is the higher of his pair).
fn initial_from_round_one(field: &Field) -> Option<Side> {
    if field.rounds_held() == 0 {
        return None;
    }
    field.history.iter().enumerate().find_map(|(i, h)| {
        let e = h[0];
        let opp = e.opponent? as usize - 1;
        let side = e.side?;
        Some(if opp > i { side } else { side.other() })
    })
}

/// S1 and S2 of a homogeneous remainder with `q` pairs: the plain split
/// first, then the single exchanges of one S1 and one S2 player in the
/// handbook's order (4.3: the smallest difference of their bracket
/// sequence numbers, then the highest S1 player moved, then the lowest S2
/// player moved).
fn splits(remainder: &[usize], q: usize) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut out = vec![(remainder[..q].to_vec(), remainder[q..].to_vec())];
    let mut ex: Vec<(usize, usize)> = Vec::new();
    for i in 0..q {
        for j in q..remainder.len() {
            ex.push((i, j));
        }
    }
    ex.sort_by(|a, b| {
        (a.1 - a.0)
            .cmp(&(b.1 - b.0))
            .then(b.0.cmp(&a.0))
            .then(a.1.cmp(&b.1))
    });
    for (i, j) in ex {
        let mut s1: Vec<usize> = remainder[..q].to_vec();
        let mut s2: Vec<usize> = remainder[q..].to_vec();
        std::mem::swap(&mut s1[i], &mut s2[j - q]);
        // Both halves stay in bracket order.
        let pos = |p: &usize| remainder.iter().position(|x| x == p);
        s1.sort_by_key(pos);
        s2.sort_by_key(pos);
        out.push((s1, s2));
    }
    out
}

/// One candidate of a bracket.
struct Leaf {
    pairs: Vec<(usize, usize)>,
    floats: Vec<usize>,
    quality: Quality,
}

/// A candidate's failures of the quality criteria, in the handbook's
/// order: colour preferences (C12), strong ones (C13), repeated
/// downfloats and upfloats of the last round (C14, C15) and of the round
/// before (C16, C17). Smaller is better, compared in order.
type Quality = [usize; 6];

impl Ctx<'_> {
    fn can_meet(&self, a: usize, b: usize) -> bool {
        if a == b || self.field.played(a, b) || self.field.forbidden(a, b) {
            return false;
        }
        let (pa, pb) = (self.prefs[a], self.prefs[b]);
        !(pa.0 == Strength::Absolute && pb.0 == Strength::Absolute && pa.1 == pb.1)
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

    /// The quality of a bracket's candidate: its pairs and its floaters.
    fn quality(&self, pairs: &[(usize, usize)], floats: &[usize]) -> Quality {
        let mut q = [0; 6];
        let down = |p: usize, q: &mut Quality| {
            q[2] += usize::from(self.floats[p][0] == Float::Down);
            q[4] += usize::from(self.floats[p][1] == Float::Down);
        };
        for &p in floats {
            down(p, &mut q);
        }
        for &(a, b) in pairs {
            let (c, s) = self.pair_quality(a, b);
            q[0] += c;
            q[1] += s;
            let (hi, lo) = match self.score[a].cmp(&self.score[b]) {
                std::cmp::Ordering::Greater => (a, b),
                std::cmp::Ordering::Less => (b, a),
                std::cmp::Ordering::Equal => continue,
            };
            down(hi, &mut q);
            q[3] += usize::from(self.floats[lo][0] == Float::Up);
            q[5] += usize::from(self.floats[lo][1] == Float::Up);
        }
        q
    }

    /// (unsatisfied preferences, unsatisfied strong-or-absolute ones) of a pair.
    fn pair_quality(&self, a: usize, b: usize) -> (usize, usize) {
        let (pa, pb) = (self.prefs[a], self.prefs[b]);
        match (pa.1, pb.1) {
            (Some(x), Some(y)) if x == y => {
                let weaker = pa.0.min(pb.0);
                (1, usize::from(weaker >= Strength::Strong))
            }
            _ => (0, 0),
        }
    }

    /// Pairs a bracket: the MDPs first against the residents, then the
    /// remainder homogeneously. Returns the pairs and the players who
    /// float down.
    fn pair_bracket(&self, mdps: &[usize], residents: &[usize], below: &[usize]) -> Option<Leaf> {
        let mut best: Option<Leaf> = None;
        // M1: how many MDPs are paired, most first.
        for m1 in (0..=mdps.len().min(residents.len())).rev() {
            let s1 = &mdps[..m1];
            let unpaired_mdps = &mdps[m1..];
            let mut search = Search {
                ctx: self,
                below,
                nodes: 0,
                best: None,
            };
            search.hetero(s1, residents, unpaired_mdps);
            if let Some(leaf) = search.best {
                best = Some(leaf);
                break;
            }
        }
        best
    }
}

struct Search<'a, 'b> {
    ctx: &'a Ctx<'b>,
    below: &'a [usize],
    nodes: usize,
    best: Option<Leaf>,
}

impl Search<'_, '_> {
    fn done(&self) -> bool {
        self.nodes > BUDGET || self.best.as_ref().is_some_and(|b| b.quality == [0; 6])
    }

    /// MDPs `s1` against residents in S2 order, then the remainder.
    fn hetero(&mut self, s1: &[usize], residents: &[usize], unpaired_mdps: &[usize]) {
        let mut used = vec![false; residents.len()];
        let mut pairs = Vec::new();
        self.assign_mdps(s1, 0, residents, &mut used, &mut pairs, unpaired_mdps);
    }

    fn assign_mdps(
        &mut self,
        s1: &[usize],
        i: usize,
        residents: &[usize],
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        unpaired_mdps: &[usize],
    ) {
        if self.done() {
            return;
        }
        self.nodes += 1;
        if i == s1.len() {
            // MDPs not paired with a resident join the remainder first.
            let remainder: Vec<usize> = unpaired_mdps
                .iter()
                .copied()
                .chain(
                    residents
                        .iter()
                        .enumerate()
                        .filter(|(k, _)| !used[*k])
                        .map(|(_, &p)| p),
                )
                .collect();
            let unpaired_mdps: &[usize] = &[];
            let base = pairs.clone();
            let found_before = self.best.is_some();
            // The remainder: as many pairs as can, fewer when needed.
            for q in (0..=remainder.len() / 2).rev() {
                if self.below.is_empty() && q * 2 != remainder.len() {
                    continue;
                }
                for (s1r, s2r) in splits(&remainder, q) {
                    let mut used2 = vec![false; s2r.len()];
                    let mut p2 = base.clone();
                    self.homo(&s1r, 0, &s2r, &mut used2, &mut p2, unpaired_mdps);
                    if self.done() {
                        break;
                    }
                }
                if self.best.is_none() && !self.done() {
                    // Beyond single exchanges: any pairing of the remainder,
                    // the highest players paired first.
                    let mut used2 = vec![false; remainder.len()];
                    let mut p2 = base.clone();
                    let mut fl = unpaired_mdps.to_vec();
                    self.general(
                        &remainder,
                        &mut used2,
                        &mut p2,
                        &mut fl,
                        remainder.len() - 2 * q,
                    );
                }
                if self.best.is_some() && !found_before || self.done() {
                    break;
                }
                if self.best.is_some() {
                    break;
                }
            }
            return;
        }
        for k in 0..residents.len() {
            if used[k] || !self.ctx.can_meet(s1[i], residents[k]) {
                continue;
            }
            used[k] = true;
            pairs.push((s1[i], residents[k]));
            self.assign_mdps(s1, i + 1, residents, used, pairs, unpaired_mdps);
            pairs.pop();
            used[k] = false;
            if self.done() {
                return;
            }
        }
    }

    /// Pairs `players` in any way, the first unused with each later one
    /// in turn, `floats` of them left over.
    fn general(
        &mut self,
        players: &[usize],
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        fl: &mut Vec<usize>,
        floats: usize,
    ) {
        if self.done() {
            return;
        }
        self.nodes += 1;
        let Some(i) = (0..players.len()).find(|&i| !used[i]) else {
            let rest: Vec<usize> = fl.iter().chain(self.below).copied().collect();
            if rest.is_empty() || self.ctx.pairable(&rest) {
                let quality = self.ctx.quality(pairs, fl);
                if self.best.as_ref().is_none_or(|b| quality < b.quality) {
                    self.best = Some(Leaf {
                        pairs: pairs.clone(),
                        floats: fl.clone(),
                        quality,
                    });
                }
            }
            return;
        };
        used[i] = true;
        for j in i + 1..players.len() {
            if used[j] || !self.ctx.can_meet(players[i], players[j]) {
                continue;
            }
            used[j] = true;
            pairs.push((players[i], players[j]));
            self.general(players, used, pairs, fl, floats);
            pairs.pop();
            used[j] = false;
            if self.done() || self.best.is_some() {
                used[i] = false;
                return;
            }
        }
        if floats > 0 {
            fl.push(players[i]);
            self.general(players, used, pairs, fl, floats - 1);
            fl.pop();
        }
        used[i] = false;
    }

    fn homo(
        &mut self,
        s1: &[usize],
        i: usize,
        s2: &[usize],
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        unpaired_mdps: &[usize],
    ) {
        if self.done() {
            return;
        }
        self.nodes += 1;
        if i == s1.len() {
            let mut floats: Vec<usize> = unpaired_mdps.to_vec();
            floats.extend(
                s2.iter()
                    .enumerate()
                    .filter(|(k, _)| !used[*k])
                    .map(|(_, &p)| p),
            );
            let rest: Vec<usize> = floats.iter().chain(self.below).copied().collect();
            if !(rest.is_empty() || self.ctx.pairable(&rest)) {
                return;
            }
            let quality = self.ctx.quality(pairs, &floats);
            if self.best.as_ref().is_none_or(|b| quality < b.quality) {
                self.best = Some(Leaf {
                    pairs: pairs.clone(),
                    floats,
                    quality,
                });
            }
            return;
        }
        for k in 0..s2.len() {
            if used[k] || !self.ctx.can_meet(s1[i], s2[k]) {
                continue;
            }
            used[k] = true;
            pairs.push((s1[i], s2[k]));
            self.homo(s1, i + 1, s2, used, pairs, unpaired_mdps);
            pairs.pop();
            used[k] = false;
            if self.done() {
                return;
            }
        }
    }
}

impl Ctx<'_> {
    /// White and Black of a pair, `hi` ranked above `lo` (C.04.3 E).
    fn colours(&self, hi: usize, lo: usize) -> (usize, usize) {
        let (ph, pl) = (self.prefs[hi], self.prefs[lo]);
        let hi_white = |white: bool| if white { (hi, lo) } else { (lo, hi) };
        match (ph.1, pl.1) {
            (Some(x), Some(y)) if x != y => return hi_white(x == Side::Red),
            (Some(x), None) => return hi_white(x == Side::Red),
            (None, Some(y)) => return hi_white(y == Side::Black),
            (Some(x), Some(_)) => {
                // E.2: the stronger preference.
                if ph.0 != pl.0 {
                    let hi_gets = ph.0 > pl.0;
                    return hi_white((x == Side::Red) == hi_gets);
                }
                if ph.0 == Strength::Absolute {
                    // Both absolute (topscorers): the wider difference.
                    let d = |i: usize| -> i32 {
                        self.seqs[i]
                            .iter()
                            .map(|s| if *s == Side::Red { 1 } else { -1 })
                            .sum::<i32>()
                            .abs()
                    };
                    if d(hi) != d(lo) {
                        return hi_white((x == Side::Red) == (d(hi) > d(lo)));
                    }
                }
                // E.3: alternate from the latest round they differed.
                let (sh, sl) = (&self.by_round[hi], &self.by_round[lo]);
                for r in (0..sh.len().min(sl.len())).rev() {
                    match (sh[r], sl[r]) {
                        (a, b) if a == b => {}
                        (Some(Side::Black), _) | (_, Some(Side::Red)) => return hi_white(true),
                        _ => return hi_white(false),
                    }
                }
                // E.4: the higher-ranked player's preference.
                return hi_white(x == Side::Red);
            }
            (None, None) => {}
        }
        // E.5: the initial colour by the pairing number's parity.
        let odd = self.tpn[hi] % 2 == 1;
        let colour = if odd {
            self.initial
        } else {
            self.initial.other()
        };
        hi_white(colour == Side::Red)
    }
}
