//! FIDE's Dutch system (C.04.3), Red = White.
//!
//! What this module does, in the handbook's terms:
//! - Players are ranked by score, then pairing (start) number; the
//!   pairing-allocated bye (PAB) goes to a player who has had neither a
//!   PAB nor a forfeit win (C.04.1.d), from the lowest score and rank up,
//!   as long as the rest can still be paired (completion, C4).
//! - Absolute criteria: no rematch of a played game (C1); two players with
//!   the same absolute colour preference do not meet (C3).
//! - Score brackets from the top, each paired by a minimum-weight
//!   matching of maximum cardinality over every player still unpaired
//!   (weighted Edmonds blossom, [`crate::blossom`]), with big-integer
//!   weights that put the quality criteria C6-C21 in order of importance
//!   and below them the bracket's candidate order (the MDPs first, HE1-HE2,
//!   then the homogeneous remainder's transpositions and exchanges,
//!   HO1-HO5), as FIDE's reference checker gacrux does: see
//!   `dutch/weighted.rs`. That is equal to gacrux's pairing in every round
//!   of the tournaments tests/pairing_gacrux.rs generates.
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
//!   decided by the matchings (a dummy player of score level 0 stands for
//!   it): the fewest unplayed rounds first (C9), then the brackets' order.
//! - The quality criteria as gacrux weighs them: downfloaters and their
//!   scores (C6, C7), the next bracket's (C8), C9, topscorers' colour
//!   difference and three-in-a-row (C10, C11, last round only, when
//!   `142`/`XXR` gives the rounds planned), colour preferences (C12, C13),
//!   floats of the last two rounds (C14-C17) and their score differences
//!   (C18-C21).

mod weighted;

use crate::field::{Field, ResultCode, Side};
use crate::lots::Lots;
use crate::matching::perfect;
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
    let (pairs, bye) = weighted::pair_round(&ctx).ok_or(PairError::NoPairing { round })?;
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
