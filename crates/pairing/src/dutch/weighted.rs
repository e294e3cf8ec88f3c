//! The Dutch system's brackets paired by weighted matching, the way FIDE's
//! reference checker gacrux does it (and bbpPairings before it): each
//! score bracket, from the top, is paired by a minimum-weight matching of
//! maximum cardinality over every player still unpaired, with big-integer
//! edge weights that encode the quality criteria C6-C21 of C.04.3
//! lexicographically (the most important criterion in the highest
//! digits, each digit wide enough for the count it can reach), below them
//! the candidate order of the bracket:
//! - first the moved-down players (MDPs) are paired (the heterogeneous
//!   part, HE1-HE2: every MDP paired in the bracket, the highest MDP with
//!   the lowest-numbered resident it can have);
//! - then the residents left (the homogeneous remainder, HO1-HO5: S1 and
//!   S2 as the transpositions and exchanges of C.04.3 4.2-4.3 order them).
//!
//! Players are "nodes" with a score level (1 for the lowest score, 0 for
//! the dummy that stands for the pairing-allocated bye, PAB); the bracket
//! at level S holds every node of level S or more still unpaired.

use num_bigint::BigInt;

use super::{Ctx, Float, Strength};
use crate::blossom::min_weight_matching;

/// A node: a player (index) or the PAB's dummy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// Player index, or `None` for the dummy.
    player: Option<usize>,
    /// Score level: the dummy 0, the lowest score 1.
    level: usize,
    /// gacrux's competitor id: start number, the dummy 0.
    cid: usize,
}

/// Positions of the criteria in the weight, most significant first.
struct Layout {
    /// The weight of each slot.
    weight: Vec<BigInt>,
    /// The product of all depths (the multiplier of the part below).
    total: BigInt,
}

/// Cascades `depths` (most significant first) into weights: the last
/// slot weighs 1, each one before it the weight after it times that
/// slot's depth.
fn cascade(depths: &[usize]) -> Layout {
    let mut weight = vec![BigInt::from(0); depths.len()];
    let mut w = BigInt::from(1);
    for k in (0..depths.len()).rev() {
        weight[k] = w.clone();
        w *= depths[k];
    }
    Layout { weight, total: w }
}

/// Slot indices of the C-criteria for a bracket with `maxpsd` levels of
/// MDPs above it.
struct CSlots {
    c6: usize,
    c7: usize,
    n8: usize,
    c8: usize,
    c9: usize,
    c10: usize,
    c14: usize,
    c18: usize,
    maxpsd: usize,
}

impl CSlots {
    fn new(maxpsd: usize) -> Self {
        let c6 = 0;
        let c7 = 1;
        let n8 = c7 + maxpsd;
        let c8 = n8 + 1;
        let c9 = c8 + maxpsd + 1;
        let c10 = c9 + 1;
        // c10 c11 c12 c13, then c14 c15 c16 c17.
        let c14 = c10 + 4;
        let c18 = c14 + 4;
        CSlots {
            c6,
            c7,
            n8,
            c8,
            c9,
            c10,
            c14,
            c18,
            maxpsd,
        }
    }
    fn len(&self) -> usize {
        self.c18 + 4 * self.maxpsd
    }
}

/// A round's pairs (player indices) and the PAB's receiver.
pub(super) type RoundPairs = (Vec<(usize, usize)>, Option<usize>);

/// Pairs the round.
pub(super) fn pair_round(ctx: &Ctx) -> Option<RoundPairs> {
    let field = ctx.field;
    let n = field.entrants.len();
    let mut players: Vec<usize> = (0..n).filter(|&i| field.present(i)).collect();
    players.sort_by(|&a, &b| ctx.score[b].cmp(&ctx.score[a]).then(a.cmp(&b)));
    let mut nodes: Vec<Node> = players
        .iter()
        .map(|&p| Node {
            player: Some(p),
            level: ctx.level[p] + 1,
            cid: p + 1,
        })
        .collect();
    let pab_level = ctx.pab_score.map_or(0, |s| {
        players
            .iter()
            .find(|&&p| ctx.score[p] == s)
            .map_or(0, |&p| ctx.level[p] + 1)
    });
    if players.len() % 2 == 1 {
        nodes.push(Node {
            player: None,
            level: 0,
            cid: 0,
        });
    }
    let w = Weigher { ctx, pab_level };
    let mut pairs: Vec<(Node, Node)> = Vec::new();
    let top = nodes.first().map_or(0, |n| n.level);
    for s in (0..=top).rev() {
        if nodes.is_empty() {
            break;
        }
        let made = w.bracket(s, &nodes)?;
        nodes.retain(|x| !made.iter().any(|(a, b)| a == x || b == x));
        pairs.extend(made);
    }
    if !nodes.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut bye = None;
    for (a, b) in pairs {
        match (a.player, b.player) {
            (Some(x), Some(y)) => out.push((x, y)),
            (Some(x), None) | (None, Some(x)) => bye = Some(x),
            (None, None) => {}
        }
    }
    Some((out, bye))
}

/// Bracket sequence numbers (from 1) of `list`, by cid.
fn numbering(list: &[Node]) -> Vec<Option<usize>> {
    let mut out = vec![None; list.iter().map(|x| x.cid + 1).max().unwrap_or(0)];
    for (k, x) in list.iter().enumerate() {
        out[x.cid] = Some(k + 1);
    }
    out
}

struct Weigher<'a, 'b> {
    ctx: &'a Ctx<'b>,
    /// The PAB's score level (0 without a PAB).
    pab_level: usize,
}

impl Weigher<'_, '_> {
    fn can_meet(&self, a: Node, b: Node) -> bool {
        match (a.player, b.player) {
            (Some(x), Some(y)) => self.ctx.can_meet(x, y),
            (Some(x), None) | (None, Some(x)) => {
                self.ctx.may_get_bye(x) && self.ctx.level[x] + 1 == self.pab_level
            }
            (None, None) => false,
        }
    }

    fn flag(&self, n: Node, k: usize, f: Float) -> bool {
        n.player.is_some_and(|p| self.ctx.floats[p][k] == f)
    }

    fn score(&self, n: Node) -> i64 {
        n.player.map_or(-1, |p| self.ctx.score[p] as i64)
    }

    /// Whether `nodes` can all be paired.
    fn perfect(&self, nodes: &[Node]) -> bool {
        let adj: Vec<Vec<usize>> = nodes
            .iter()
            .map(|&a| {
                (0..nodes.len())
                    .filter(|&j| self.can_meet(a, nodes[j]))
                    .collect()
            })
            .collect();
        crate::matching::perfect(&adj)
    }

    /// C9 applies in this bracket (gacrux's apply_c9).
    fn pab_bracket(&self, s: usize, nodes: &[Node]) -> bool {
        if s > self.pab_level {
            return false;
        }
        if s <= 1 {
            return true;
        }
        let c9: Vec<Node> = nodes
            .iter()
            .copied()
            .filter(|x| x.level >= s || x.player.is_none())
            .collect();
        if c9.len() % 2 == 1 {
            return false;
        }
        let rest: Vec<Node> = nodes
            .iter()
            .copied()
            .filter(|x| x.level < s && x.player.is_some())
            .collect();
        self.perfect(&c9) && self.perfect(&rest)
    }

    /// Pairs bracket `s` of `nodes` (sorted by level, then cid): the
    /// pairs made in it.
    #[allow(
        clippy::too_many_lines,
        reason = "one bracket's matchings in the order FIDE C.04.3 fixes them (the bracket's own, then the moved-down players', then the transpositions and exchanges); each stage narrows the edges the next one sees, so apart they would pass the edge set and the fixed pairs between six functions"
    )]
    fn bracket(&self, s: usize, nodes: &[Node]) -> Option<Vec<(Node, Node)>> {
        let mut edges: Vec<(Node, Node)> = Vec::new();
        for i in 0..nodes.len() {
            for j in i + 1..nodes.len() {
                if self.can_meet(nodes[i], nodes[j]) {
                    let (a, b) = if nodes[i].cid < nodes[j].cid {
                        (nodes[i], nodes[j])
                    } else {
                        (nodes[j], nodes[i])
                    };
                    edges.push((a, b));
                }
            }
        }
        if !edges.iter().any(|(a, b)| a.level >= s && b.level >= s) {
            // Nobody of the bracket can meet: all float.
            return Some(Vec::new());
        }
        edges.sort_by_key(|(a, b)| {
            (
                std::cmp::Reverse(a.level.min(b.level)),
                std::cmp::Reverse(a.level.max(b.level)),
                a.cid,
                b.cid,
            )
        });
        let pab = self.pab_bracket(s, nodes);
        let maxpsd = nodes[0].level - s;
        let mut mdp = vec![0usize; maxpsd];
        for x in nodes {
            if x.level <= s {
                break;
            }
            mdp[maxpsd - (x.level - s)] += 1;
        }
        let slots = CSlots::new(maxpsd);
        let c = self.c_layout(s, nodes, &slots, &mdp, pab);
        let qc: Vec<BigInt> = edges
            .iter()
            .map(|&(a, b)| self.qc_weight(s, a, b, &slots, &c, pab))
            .collect();
        let mut made = Vec::new();
        // HE: the MDPs.
        let bsne: Vec<Node> = nodes.iter().copied().filter(|x| x.level >= s).collect();
        let m: usize = mdp.iter().sum();
        let mut numpairs;
        let resident_pairs = |mate: &[(Node, Node)]| {
            mate.iter()
                .filter(|(a, b)| a.level == s && b.level == s)
                .count()
        };
        if m > 0 {
            let elen = bsne.len() + 1;
            let mut depths = vec![2; m];
            depths.extend(std::iter::repeat_n(elen - m, m));
            let he = cascade(&depths);
            let by_cid = numbering(&bsne);
            let bsn = |x: Node| by_cid.get(x.cid).copied().flatten().unwrap_or(elen);
            let weights: Vec<BigInt> = edges
                .iter()
                .zip(&qc)
                .map(|(&(a, b), q)| {
                    let (mut absn, mut bbsn) = (bsn(a), bsn(b));
                    let (mut al, mut bl) = (a.level, b.level);
                    if absn > bbsn {
                        std::mem::swap(&mut absn, &mut bbsn);
                        std::mem::swap(&mut al, &mut bl);
                    }
                    let mut w = q * &he.total;
                    if al > s && bl <= s {
                        let e0 = absn;
                        if bbsn == elen {
                            w += &he.weight[e0 - 1];
                        } else {
                            w += &he.weight[m + e0 - 1] * (bbsn - m);
                        }
                    }
                    w
                })
                .collect();
            let matched = self.matching(&edges, &weights);
            numpairs = resident_pairs(&matched);
            for (a, b) in matched {
                let (hi, lo) = if a.level >= b.level { (a, b) } else { (b, a) };
                if hi.level > s && lo.level == s {
                    made.push((a, b));
                }
            }
        } else {
            let residents = nodes.iter().filter(|x| x.level == s).count();
            numpairs = residents / 2;
        }
        // HO: the residents left.
        let mut gone = vec![false; nodes.iter().map(|x| x.cid + 1).max().unwrap_or(0)];
        for (a, b) in &made {
            gone[a.cid] = true;
            gone[b.cid] = true;
        }
        let taken = |x: &Node| gone[x.cid];
        let rest_edges: Vec<(Node, Node)> = edges
            .iter()
            .copied()
            .filter(|(a, b)| !taken(a) && !taken(b))
            .collect();
        let rest_qc: Vec<BigInt> = edges
            .iter()
            .zip(&qc)
            .filter(|((a, b), _)| !taken(a) && !taken(b))
            .map(|(_, q)| q.clone())
            .collect();
        let bsno: Vec<Node> = nodes
            .iter()
            .copied()
            .filter(|x| x.level == s && !taken(x))
            .collect();
        let mut last = Vec::new();
        for _ in 0..8 {
            let weights = self.ho_weights(s, &rest_edges, &rest_qc, &bsno, numpairs);
            let matched = self.matching(&rest_edges, &weights);
            let paired = resident_pairs(&matched);
            last = matched;
            if paired == numpairs {
                break;
            }
            numpairs = paired;
        }
        for (a, b) in last {
            if a.level == s && b.level == s {
                made.push((a, b));
            }
        }
        Some(made)
    }

    /// The weights of the homogeneous remainder: `bsno` its residents in
    /// order, `q` the pairs it is to make.
    fn ho_weights(
        &self,
        s: usize,
        edges: &[(Node, Node)],
        qc: &[BigInt],
        bsno: &[Node],
        q: usize,
    ) -> Vec<BigInt> {
        let b = bsno.len();
        let b3 = q;
        let b4 = b.saturating_sub(q);
        let b5 = b.saturating_sub(1);
        let ho2: usize = (q + 1..b)
            .rev()
            .step_by(2)
            .filter(|x| *x > q)
            .take(q)
            .sum::<usize>()
            + 1;
        let mut depths = vec![q + 1, ho2];
        depths.extend(std::iter::repeat_n(2, b3 + b4));
        depths.extend((1..=b5).rev());
        let ho = cascade(&depths);
        let (w1, w2) = (&ho.weight[0], &ho.weight[1]);
        let w3 = &ho.weight[2..2 + b3];
        let w4 = &ho.weight[2 + b3..2 + b3 + b4];
        let w5 = &ho.weight[2 + b3 + b4..];
        let base: BigInt = w4.iter().sum();
        let by_cid = numbering(bsno);
        let bsn = |x: Node| by_cid.get(x.cid).copied().flatten();
        edges
            .iter()
            .zip(qc)
            .map(|(&(x, y), qw)| {
                let mut w = qw * &ho.total + &base;
                if x.level == s && y.level == s {
                    if let (Some(mut a), Some(mut c)) = (bsn(x), bsn(y)) {
                        if a > c {
                            std::mem::swap(&mut a, &mut c);
                        }
                        if a > q {
                            w += w1;
                        }
                        w += w2 * (a - 1);
                        if a <= q {
                            w += &w3[q - a];
                        } else {
                            w -= &w4[a - q - 1];
                        }
                        w += &w5[a - 1] * (c - a);
                    }
                }
                w
            })
            .collect()
    }

    /// A minimum-weight maximum-cardinality matching of `edges`, the
    /// vertices numbered as networkx numbers them (gacrux's matcher).
    fn matching(&self, edges: &[(Node, Node)], weights: &[BigInt]) -> Vec<(Node, Node)> {
        // The graph's nodes in order of first appearance, and its edges
        // listed node by node (networkx's Graph.edges), which is the
        // order the inverted graph is built in.
        let mut order: Vec<Node> = Vec::new();
        let mut adj: Vec<Vec<(usize, usize)>> = Vec::new();
        let top = edges.iter().map(|(a, b)| a.cid.max(b.cid) + 1).max();
        let mut index: Vec<Option<usize>> = vec![None; top.unwrap_or(0)];
        let mut id = |order: &mut Vec<Node>, adj: &mut Vec<Vec<(usize, usize)>>, x: Node| {
            *index[x.cid].get_or_insert_with(|| {
                order.push(x);
                adj.push(Vec::new());
                order.len() - 1
            })
        };
        for (k, &(a, b)) in edges.iter().enumerate() {
            let (i, j) = (id(&mut order, &mut adj, a), id(&mut order, &mut adj, b));
            adj[i].push((j, k));
            adj[j].push((i, k));
        }
        let mut listed: Vec<(usize, usize, usize)> = Vec::new();
        let mut seen = vec![false; order.len()];
        for u in 0..order.len() {
            seen[u] = true;
            for &(v, k) in &adj[u] {
                if !seen[v] {
                    listed.push((u, v, k));
                }
            }
        }
        let mut inv_order: Vec<usize> = Vec::new();
        let mut inv_id = vec![usize::MAX; order.len()];
        let mut inv_edges = Vec::new();
        for &(u, v, k) in &listed {
            for x in [u, v] {
                if inv_id[x] == usize::MAX {
                    inv_id[x] = inv_order.len();
                    inv_order.push(x);
                }
            }
            inv_edges.push((inv_id[u], inv_id[v], weights[k].clone()));
        }
        let mate = min_weight_matching(inv_order.len(), &inv_edges);
        let mut out = Vec::new();
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                if v < u {
                    out.push((order[inv_order[v]], order[inv_order[u]]));
                }
            }
        }
        out
    }

    /// The C-criteria's weights for bracket `s`.
    fn c_layout(
        &self,
        s: usize,
        nodes: &[Node],
        slots: &CSlots,
        mdp: &[usize],
        pab: bool,
    ) -> Layout {
        let count = |f: &dyn Fn(&Node) -> bool| nodes.iter().filter(|x| f(x)).count() + 1;
        let bsize = nodes.iter().filter(|x| x.level >= s).count();
        let mut d = vec![1usize; slots.len()];
        d[slots.c6] = bsize + 1;
        for (i, &m) in mdp.iter().enumerate() {
            d[slots.c7 + i] = m + 1;
            d[slots.c8 + i] = m + 1;
            for k in 0..4 {
                d[slots.c18 + k * slots.maxpsd + i] = m + 1;
            }
        }
        d[slots.n8] = count(&|x| x.level + 1 >= s);
        d[slots.c8 + slots.maxpsd] = bsize + 1 - mdp.iter().sum::<usize>();
        d[slots.c9] = if s <= usize::from(pab) { bsize + 1 } else { 1 };
        let top = count(&|x| x.level >= s && x.player.is_some_and(|p| self.ctx.top[p]));
        d[slots.c10] = top;
        d[slots.c10 + 1] = top;
        d[slots.c10 + 2] = nodes.len() + 1;
        d[slots.c10 + 3] = nodes.len() + 1;
        d[slots.c14] = count(&|x| x.level >= s && self.flag(*x, 0, Float::Down));
        d[slots.c14 + 1] = count(&|x| x.level <= s && self.flag(*x, 0, Float::Up));
        d[slots.c14 + 2] = count(&|x| x.level >= s && self.flag(*x, 1, Float::Down));
        d[slots.c14 + 3] = count(&|x| x.level <= s && self.flag(*x, 1, Float::Up));
        cascade(&d)
    }

    /// The C-part of an edge's weight in bracket `s` (gacrux's
    /// update_edge).
    fn qc_weight(
        &self,
        s: usize,
        a: Node,
        b: Node,
        slots: &CSlots,
        c: &Layout,
        pab: bool,
    ) -> BigInt {
        let ctx = self.ctx;
        let (a, b) = if a.level < b.level { (b, a) } else { (a, b) };
        let w = &c.weight;
        let mut out = BigInt::from(0);
        let maxpsd = slots.maxpsd;
        let level = a.level as isize - s as isize;
        let (mut c14, mut c15, mut c16, mut c17) = (false, false, false, false);
        let unplayed = |x: Node| x.player.map_or(0, |p| ctx.unplayed[p]);
        if a.level >= s && b.level == s {
            if pab && b.level == 0 {
                out += &w[slots.c9] * unplayed(a);
            }
            if let (Some(x), Some(y)) = (a.player, b.player) {
                if ctx.top[x] || ctx.top[y] {
                    let (c10, c11) = ctx.topscorer_quality(x, y);
                    out += &w[slots.c10] * c10;
                    out += &w[slots.c10 + 1] * c11;
                }
                let (px, py) = (ctx.prefs[x], ctx.prefs[y]);
                if px.1.is_some() && px.1 == py.1 {
                    out += &w[slots.c10 + 2];
                    if px.0 >= Strength::Strong && py.0 >= Strength::Strong {
                        out += &w[slots.c10 + 3];
                    }
                }
            }
            let (sa, sb) = (self.score(a), self.score(b));
            c15 =
                (sa < sb && self.flag(a, 0, Float::Up)) || (sa > sb && self.flag(b, 0, Float::Up));
            c17 =
                (sa < sb && self.flag(a, 1, Float::Up)) || (sa > sb && self.flag(b, 1, Float::Up));
            if c15 {
                out += &w[slots.c14 + 1];
            }
            if c17 {
                out += &w[slots.c14 + 3];
            }
        } else if a.level >= s && b.level < s {
            out += &w[slots.c6];
            if level > 0 {
                out += &w[slots.c7 + maxpsd - level as usize];
            }
            if pab && b.level == 0 {
                out += &w[slots.c9] * unplayed(a);
            }
            c14 = self.flag(a, 0, Float::Down);
            if c14 && s == a.level {
                out += &w[slots.c14];
            }
            c16 = self.flag(a, 1, Float::Down);
            if c16 && s == a.level {
                out += &w[slots.c14 + 2];
            }
        }
        if level > 0 {
            for (k, on) in [c14, c15, c16, c17].into_iter().enumerate() {
                if on {
                    out += &w[slots.c18 + k * maxpsd + maxpsd - level as usize];
                }
            }
        }
        // QN8 and C8: floaters of the next bracket.
        if a.level + 1 >= s && (b.level + 1) < s {
            out += &w[slots.n8];
            let level2 = a.level + 1 - s;
            if level2 > 0 {
                out += &w[slots.c8 + maxpsd + 1 - level2];
            }
        }
        out
    }
}
