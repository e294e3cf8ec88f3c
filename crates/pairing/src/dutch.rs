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
//! - Floats (A.4, as gacrux reads it): down when paired with a lower
//!   score, or not playing but scoring more than a loss (PAB, forfeit
//!   win, full- or half-point bye); up when paired with a higher score;
//!   an absence or a forfeit loss is no float.
//! - The PAB (C9): the lowest score at which it keeps the round pairable
//!   (gacrux's PAB level) is fixed first; who of that score gets it is
//!   decided by pairing that bracket: an odd floater goes to the PAB, the
//!   fewest unplayed rounds first.
//! - A candidate's quality, compared in order (gacrux's weights): the
//!   floaters and next bracket left unpaired by a maximum matching (C8),
//!   the PAB receiver's unplayed rounds (C9), topscorers' colour
//!   difference and three-in-a-row (C10, C11, last round only, when
//!   `142`/`XXR` gives the rounds planned), colour preferences (C12, C13),
//!   resident downfloaters who floated down in the last two rounds (C14,
//!   C16), MDP opponents who floated up (C15, C17), those by score
//!   difference (C19, C21).
//! - Exchanges: after the transpositions of the plain split, single
//!   exchanges of one S1 and one S2 player in the handbook's order, then
//!   (beyond the handbook's order) any pairing of the remainder.
//!
//! Not done yet, so the result differs from FIDE's reference checker
//! (gacrux) in about a quarter of the rounds after round 1 (round 1
//! agrees; tests/pairing_gacrux.rs prints the figure): exchanges of two
//! or more players in the handbook's order, the scores of the
//! downfloaters (C7) beyond "pair the MDPs first", C8 by score, and the
//! exact candidate order of heterogeneous brackets. gacrux pairs each
//! bracket by a minimum-weight matching over the whole remaining field
//! with weights that encode C6-C21 and the candidate order (HE1-HE2,
//! HO1-HO5); doing the same is the way to full agreement.

use crate::field::{Field, ResultCode, Side};
use crate::lots::Lots;
use crate::matching::{maximum_matching, perfect};
use crate::{Draw, PairError, Pairing, Relaxation};

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
    // The first definition of A.6 that fits wins, in the text's order, as
    // FIDE's reference checker (gacrux) reads it: a difference below -1
    // or Black twice (unless the difference is over +1) means White.
    if diff < -1 || (diff <= 1 && twice && last == Side::Black) {
        (Strength::Absolute, Some(Side::Red))
    } else if diff > 1 || (diff >= -1 && twice && last == Side::Red) {
        (Strength::Absolute, Some(Side::Black))
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
    /// Position among this round's present players by start number, from 1.
    tpn: Vec<usize>,
    prefs: Vec<(Strength, Option<Side>)>,
    score: Vec<u32>,
    /// Colour difference (White minus Black games played).
    cod: Vec<i32>,
    /// Score level: the rank of the score among the distinct scores of
    /// the players present, 0 the lowest.
    level: Vec<usize>,
    /// Distinct scores among the players present.
    levels: usize,
    /// Topscorers (A.7): in the last round, over half the maximum score.
    top: Vec<bool>,
    /// May receive the PAB: no PAB nor forfeit win yet.
    eligible: Vec<bool>,
    /// The score of the PAB's receiver, when the round has a PAB.
    pab_score: Option<u32>,
    /// Rounds not played (C9).
    unplayed: Vec<usize>,
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
                    // Not played: a downfloat when it scored more than a
                    // loss or was the pairing-allocated bye (A.4.b); an
                    // absence or a forfeit loss is no float.
                    _ if e.result == ResultCode::PairingBye
                        || field.scoring.points(e.result) > field.scoring.loss =>
                    {
                        Float::Down
                    }
                    _ => Float::None,
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
        let round = field.rounds_held() + 1;
        let seqs: Vec<Vec<Side>> = (0..n).map(|i| field.colours(i)).collect();
        let score: Vec<u32> = (0..n).map(|i| field.score(i)).collect();
        let mut distinct: Vec<u32> = (0..n)
            .filter(|&i| field.present(i))
            .map(|i| score[i])
            .collect();
        distinct.sort_unstable();
        distinct.dedup();
        let level: Vec<usize> = score
            .iter()
            .map(|s| distinct.partition_point(|d| d < s))
            .collect();
        let last_round = field.rounds_planned > 0 && round >= field.rounds_planned;
        let top: Vec<bool> = score
            .iter()
            .map(|&s| last_round && 2 * s > field.scoring.win * (round - 1))
            .collect();
        let eligible: Vec<bool> = (0..n)
            .map(|i| {
                !field.history[i]
                    .iter()
                    .any(|e| matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin))
            })
            .collect();
        Ctx {
            field,
            eligible,
            pab_score: None,
            unplayed: (0..n)
                .map(|i| {
                    field.history[i]
                        .iter()
                        .filter(|e| !e.result.played())
                        .count()
                })
                .collect(),
            cod: seqs
                .iter()
                .map(|s| s.iter().map(|c| if *c == Side::Red { 1 } else { -1 }).sum())
                .collect(),
            level,
            levels: distinct.len().max(1),
            top,
            prefs: seqs.iter().map(|s| preference(s)).collect(),
            seqs,
            score,
            initial,
            floats: floats(field),
            tpn: {
                let mut t = vec![0; n];
                // Numbered among those present or paired in some round
                // before (gacrux's running count: only a player never paired
                // and absent now gives his number away).
                let paired_before = |i: usize| {
                    field.history[i]
                        .iter()
                        .any(|e| e.opponent.is_some() || e.result == ResultCode::PairingBye)
                };
                for (k, i) in (0..n)
                    .filter(|&i| field.present(i) || paired_before(i))
                    .enumerate()
                {
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
            .filter(|&i| self.eligible[i])
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
    let mut ctx = Ctx::new(field, initial);
    let mut order: Vec<usize> = (0..n).filter(|&i| field.present(i)).collect();
    if order.len() < 2 {
        return Err(PairError::TooFewPlayers {
            round,
            present: order.len(),
        });
    }
    order.sort_by(|&a, &b| ctx.score[b].cmp(&ctx.score[a]).then(a.cmp(&b)));
    // The PAB goes to a player of the lowest score that lets the rest be
    // paired (gacrux's PAB level); who of that score gets it is decided
    // by the pairing of that bracket (C9, then the candidates' order).
    if order.len() % 2 == 1 {
        let chosen = ctx
            .choose_bye(&order)
            .ok_or(PairError::NoPairing { round })?;
        ctx.pab_score = Some(ctx.score[chosen]);
    } else if !ctx.pairable(&order) {
        return Err(PairError::NoPairing { round });
    }
    let mut bye = None;
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
                if leaf.bye.is_some() {
                    bye = leaf.bye;
                }
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
    let boards = pairs
        .into_iter()
        .map(|(a, b)| {
            let (hi, lo) = if rank[a] < rank[b] { (a, b) } else { (b, a) };
            let (w, k) = ctx.colours(hi, lo);
            let (sa, sb) = (ctx.score[a], ctx.score[b]);
            (w, k, (sa.max(sb), sa + sb, rank[hi]))
        })
        .collect();
    Ok(Pairing {
        round,
        boards: crate::board_order(boards),
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
    /// The PAB's receiver, when this bracket gives it.
    bye: Option<usize>,
    quality: Quality,
}

/// A candidate's failures of the quality criteria, in the handbook's
/// order as gacrux weighs them: the players of this bracket's floaters
/// and the next bracket who cannot be paired there (C8, as the size of a
/// maximum matching of them tells), the PAB receiver's unplayed rounds (C9),
/// topscorers' colour differences beyond 2
/// and same colour three times (C10, C11), colour preferences (C12),
/// strong ones (C13), resident downfloaters who floated down last round
/// (C14), MDP opponents who floated up last round (C15), the same for
/// the round before (C16, C17), then those MDP opponents by score
/// difference, the largest first (C19, C21; C18 and C20 concern
/// residents, whose difference is nil). Smaller is better, compared in
/// order.
type Quality = Vec<usize>;

/// Fixed criteria before the per-level ones.
const FIXED: usize = 10;

impl Ctx<'_> {
    fn can_meet(&self, a: usize, b: usize) -> bool {
        if a == b || self.field.played(a, b) || self.field.forbidden(a, b) {
            return false;
        }
        let (pa, pb) = (self.prefs[a], self.prefs[b]);
        // C3: topscorers are exempt.
        self.top[a]
            || self.top[b]
            || !(pa.0 == Strength::Absolute && pb.0 == Strength::Absolute && pa.1 == pb.1)
    }

    /// Whether `players` can all be paired, one of them to the PAB when
    /// they are odd in number (a dummy joined to those who may get it).
    fn pairable(&self, players: &[usize]) -> bool {
        let n = players.len();
        let mut adj = self.adjacency(players);
        if n % 2 == 1 {
            let dummy: Vec<usize> = (0..n).filter(|&j| self.may_get_bye(players[j])).collect();
            for &j in &dummy {
                adj[j].push(n);
            }
            adj.push(dummy);
        }
        perfect(&adj)
    }

    /// Who of `players` may meet whom, by position.
    fn adjacency(&self, players: &[usize]) -> Vec<Vec<usize>> {
        players
            .iter()
            .map(|&a| {
                (0..players.len())
                    .filter(|&j| self.can_meet(a, players[j]))
                    .collect()
            })
            .collect()
    }

    fn may_get_bye(&self, p: usize) -> bool {
        self.eligible[p] && self.pab_score == Some(self.score[p])
    }

    /// The PAB of a candidate whose floaters are odd in number: the
    /// lowest-ranked floater who may get it and leaves the rest pairable.
    fn bye_of(&self, floats: &[usize], below: &[usize]) -> Option<usize> {
        if (floats.len() + below.len()) % 2 == 0 || self.pab_score.is_none() {
            return None;
        }
        floats.iter().rev().copied().find(|&b| {
            self.may_get_bye(b) && {
                let rest: Vec<usize> = floats
                    .iter()
                    .chain(below)
                    .copied()
                    .filter(|&x| x != b)
                    .collect();
                rest.is_empty() || self.pairable(&rest)
            }
        })
    }

    /// The quality of a bracket's candidate: its pairs and its floaters.
    fn quality(&self, pairs: &[(usize, usize)], floats: &[usize], bracket: usize) -> Quality {
        let levels = self.levels;
        let mut q = vec![0; FIXED + 2 * levels];
        for &p in floats {
            if self.level[p] == bracket {
                q[6] += usize::from(self.floats[p][0] == Float::Down);
                q[8] += usize::from(self.floats[p][1] == Float::Down);
            }
        }
        for &(a, b) in pairs {
            self.pair_into(&mut q, a, b);
        }
        q
    }

    /// Adds what the pair `a`-`b` fails to `q` (the pair-based criteria).
    fn pair_into(&self, q: &mut [usize], a: usize, b: usize) {
        let levels = self.levels;
        let (c, s) = self.pair_quality(a, b);
        q[4] += c;
        q[5] += s;
        if self.top[a] || self.top[b] {
            let (c10, c11) = self.topscorer_quality(a, b);
            q[2] += c10;
            q[3] += c11;
        }
        let (hi, lo) = match self.score[a].cmp(&self.score[b]) {
            std::cmp::Ordering::Greater => (a, b),
            std::cmp::Ordering::Less => (b, a),
            std::cmp::Ordering::Equal => return,
        };
        let psd = self.level[hi] - self.level[lo];
        let at = levels.saturating_sub(psd).min(levels - 1);
        if self.floats[lo][0] == Float::Up {
            q[7] += 1;
            q[FIXED + at] += 1;
        }
        if self.floats[lo][1] == Float::Up {
            q[9] += 1;
            q[FIXED + levels + at] += 1;
        }
    }

    /// C10 and C11 of a pair with a topscorer, as gacrux reads them.
    fn topscorer_quality(&self, a: usize, b: usize) -> (usize, usize) {
        let (ca, cb) = (self.cod[a], self.cod[b]);
        let c10 = usize::from(ca == cb && ca.abs() >= 2);
        let (pa, pb) = (self.prefs[a], self.prefs[b]);
        let mut c11 = 0;
        if let (Some(x), Some(y)) = (pa.1, pb.1) {
            if x == y {
                let last2 = |i: usize| -> Option<(Side, Side)> {
                    let s = &self.seqs[i];
                    (s.len() >= 2).then(|| (s[s.len() - 2], s[s.len() - 1]))
                };
                let twice = |i: usize, side: Side| last2(i) == Some((side, side));
                // Twice the colour other than the one both want.
                let opp = x.other();
                let strength = |p: (Strength, Option<Side>)| match p.0 {
                    Strength::Absolute => 2,
                    Strength::Strong => 1,
                    _ => 0,
                };
                let (an, bn) = (strength(pa), strength(pb));
                let same_twice =
                    last2(a) == last2(b) && (twice(a, Side::Red) || twice(b, Side::Black));
                if same_twice
                    || (an > bn && twice(b, opp))
                    || (bn > an && twice(a, opp))
                    || (an == 2
                        && bn == 2
                        && ((ca.abs() > cb.abs() && twice(b, opp))
                            || (cb.abs() > ca.abs() && twice(a, opp))))
                {
                    c11 = 1;
                }
            }
        }
        (c10, c11)
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
                bracket: residents.first().map_or(0, |&r| self.level[r]),
                score: residents.first().map_or(0, |&r| self.score[r]),
                below,
                next: next_group(below, &self.score),
                partial: vec![0; FIXED + 2 * self.levels],
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

/// The first score group of `below` (sorted by score, highest first).
fn next_group<'a>(below: &'a [usize], score: &[u32]) -> &'a [usize] {
    let n = below
        .iter()
        .take_while(|&&p| score[p] == score[below[0]])
        .count();
    &below[..n]
}

struct Search<'a, 'b> {
    ctx: &'a Ctx<'b>,
    /// The residents' score level.
    bracket: usize,
    /// The residents' score.
    score: u32,
    /// The next bracket's residents.
    next: &'a [usize],
    /// What the pairs of the branch being searched fail (a lower bound).
    partial: Quality,
    below: &'a [usize],
    nodes: usize,
    best: Option<Leaf>,
}

impl Search<'_, '_> {
    /// A complete candidate: kept when the rest can still be paired and
    /// it is better than the best so far. In the PAB's bracket an odd
    /// number of floaters gives one of them the PAB.
    fn offer(&mut self, pairs: &[(usize, usize)], mut floats: Vec<usize>) {
        // The quality first: the pairability check is the costly part,
        // and only a better candidate needs it. (The PAB is a float.)
        let mut quality = self.ctx.quality(pairs, &floats, self.bracket);
        let gives_bye = self.ctx.pab_score.is_some_and(|s| s == self.score)
            && (floats.len() + self.below.len()) % 2 == 1;
        quality[0] = self.next_unpaired(&floats);
        if gives_bye {
            quality[1] = floats
                .iter()
                .filter(|&&b| self.ctx.may_get_bye(b))
                .map(|&b| self.ctx.unplayed[b])
                .min()
                .unwrap_or(0);
        }
        if self.best.as_ref().is_some_and(|b| quality >= b.quality) {
            return;
        }
        let mut bye = None;
        if gives_bye {
            let Some(b) = self.ctx.bye_of(&floats, self.below) else {
                return;
            };
            floats.retain(|&x| x != b);
            quality[1] = self.ctx.unplayed[b];
            bye = Some(b);
        } else {
            let rest: Vec<usize> = floats.iter().chain(self.below).copied().collect();
            if !(rest.is_empty() || self.ctx.pairable(&rest)) {
                return;
            }
        }
        if self.best.as_ref().is_none_or(|b| quality < b.quality) {
            self.best = Some(Leaf {
                pairs: pairs.to_vec(),
                floats,
                bye,
                quality,
            });
        }
    }

    /// How many of `floats` and the next bracket's residents a maximum
    /// matching among them leaves unpaired (C8).
    fn next_unpaired(&self, floats: &[usize]) -> usize {
        if self.next.is_empty() || floats.is_empty() {
            return 0;
        }
        let set: Vec<usize> = floats.iter().chain(self.next).copied().collect();
        maximum_matching(&self.ctx.adjacency(&set))
            .iter()
            .filter(|m| m.is_none())
            .count()
    }

    /// Counts a search node; false when the search is over.
    fn enter(&mut self) -> bool {
        self.nodes += 1;
        !self.done()
    }

    fn done(&self) -> bool {
        self.nodes > BUDGET
            || self
                .best
                .as_ref()
                .is_some_and(|b| b.quality.iter().all(|&x| x == 0))
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
        if !self.enter() {
            return;
        }
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
            let base = pairs.clone();
            let found_before = self.best.is_some();
            // The remainder: as many pairs as can, fewer when needed.
            for q in (0..=remainder.len() / 2).rev() {
                let gives_bye = self.ctx.pab_score == Some(self.score);
                if self.below.is_empty() && q * 2 + usize::from(gives_bye) != remainder.len() {
                    continue;
                }
                for (s1r, s2r) in splits(&remainder, q) {
                    let mut used2 = vec![false; s2r.len()];
                    let mut p2 = base.clone();
                    self.homo(&s1r, 0, &s2r, &mut used2, &mut p2);
                    if self.done() {
                        break;
                    }
                }
                if self.best.is_none() && !self.done() {
                    // Beyond single exchanges: any pairing of the remainder,
                    // the highest players paired first.
                    let mut used2 = vec![false; remainder.len()];
                    let mut p2 = base.clone();
                    let mut fl = Vec::new();
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
        self.each_partner(s1[i], residents, used, pairs, |me, used, pairs| {
            me.assign_mdps(s1, i + 1, residents, used, pairs, unpaired_mdps)
        });
    }

    /// Pairs `a` with each unused player of `list` that it may meet, in
    /// turn, and goes on with `next`.
    fn each_partner(
        &mut self,
        a: usize,
        list: &[usize],
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        mut next: impl FnMut(&mut Self, &mut Vec<bool>, &mut Vec<(usize, usize)>),
    ) {
        for k in 0..list.len() {
            if used[k] || !self.ctx.can_meet(a, list[k]) {
                continue;
            }
            // Branch and bound: what the pairs so far fail is a lower
            // bound of any candidate that keeps them (the criteria that
            // depend on the floaters count as nil); a branch that cannot
            // beat the best so far is skipped.
            let saved = self.partial.clone();
            self.ctx.pair_into(&mut self.partial, a, list[k]);
            if self
                .best
                .as_ref()
                .is_some_and(|b| self.partial >= b.quality)
            {
                self.partial = saved;
                continue;
            }
            used[k] = true;
            pairs.push((a, list[k]));
            next(self, used, pairs);
            pairs.pop();
            used[k] = false;
            self.partial = saved;
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
        if !self.enter() {
            return;
        }
        let Some(i) = (0..players.len()).find(|&i| !used[i]) else {
            let fl = fl.clone();
            self.offer(pairs, fl);
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

    /// S1 of a homogeneous remainder against S2 in order; the S2
    /// players left over float.
    fn homo(
        &mut self,
        s1: &[usize],
        i: usize,
        s2: &[usize],
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
    ) {
        if !self.enter() {
            return;
        }
        if i == s1.len() {
            let floats: Vec<usize> = s2
                .iter()
                .enumerate()
                .filter(|(k, _)| !used[*k])
                .map(|(_, &p)| p)
                .collect();
            self.offer(pairs, floats);
            return;
        }
        self.each_partner(s1[i], s2, used, pairs, |me, used, pairs| {
            me.homo(s1, i + 1, s2, used, pairs)
        });
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
                // E.3: alternate from the latest game they had different
                // colours, their games played counted back from the last
                // (as gacrux reads "the most recent time").
                let (sh, sl) = (&self.seqs[hi], &self.seqs[lo]);
                for (a, b) in sh.iter().rev().zip(sl.iter().rev()) {
                    if a != b {
                        return hi_white(*a == Side::Black);
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
