//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm
//! with dual variables, after Galil's "Efficient algorithms for finding
//! maximum matching in graphs", 1986), on big-integer weights so that a
//! weight can encode many criteria lexicographically. The Dutch system
//! pairs a score bracket by a minimum-weight maximum-cardinality matching
//! over such weights, as FIDE's reference checker does.
//!
//! Deterministic: vertices and edges are visited in the order given.
//!
//! The arrays and their names (`mate`, `labelend`, `endpoint`,
//! `neighbend`, `dualvar`, `allowedge`, `blossombestedges` …) follow Joris
//! van Rantwijk's Python implementation of Galil's algorithm
//! (`mwmatching.py`, the one networkx's `max_weight_matching` descends
//! from), so the two can be read side by side; the code here is ours.

use num_bigint::{BigInt, Sign};

/// A maximum-weight matching of the graph on `n` vertices with weighted
/// `edges` (i, j, weight), among the matchings of maximum cardinality
/// when `max_cardinality`: `mate[v]` is v's partner or `None`. Weights
/// are integers; the computation is exact (in fixed-width integers wide
/// enough for the weights when there are such, big integers otherwise).
pub fn max_weight_matching(
    n: usize,
    edges: &[(usize, usize, BigInt)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    // Duals and slacks stay within a small multiple of the largest
    // weight: 16 bits of headroom and a sign bit.
    let bits = edges.iter().map(|e| e.2.bits()).max().unwrap_or(0) + 17;
    match bits.div_ceil(64) {
        0..=2 => solve::<Wide<2>>(n, edges, max_cardinality),
        3..=4 => solve::<Wide<4>>(n, edges, max_cardinality),
        5..=8 => solve::<Wide<8>>(n, edges, max_cardinality),
        9..=16 => solve::<Wide<16>>(n, edges, max_cardinality),
        17..=32 => solve::<Wide<32>>(n, edges, max_cardinality),
        _ => solve::<BigInt>(n, edges, max_cardinality),
    }
}

fn solve<W: Num>(
    n: usize,
    edges: &[(usize, usize, BigInt)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    let mut m = Matcher::<W>::new(n, edges, max_cardinality);
    m.run();
    (0..n).map(|v| m.mate[v].map(|p| m.endpoint[p])).collect()
}

/// A minimum-weight matching among those of maximum cardinality: each
/// weight replaced by (1 + the largest weight) minus it.
pub fn min_weight_matching(n: usize, edges: &[(usize, usize, BigInt)]) -> Vec<Option<usize>> {
    let Some(max) = edges.iter().map(|e| &e.2).max() else {
        return vec![None; n];
    };
    let top = max + 1;
    let inverted: Vec<(usize, usize, BigInt)> =
        edges.iter().map(|(i, j, w)| (*i, *j, &top - w)).collect();
    max_weight_matching(n, &inverted, true)
}

/// The arithmetic the matcher needs of its numbers.
trait Num: Clone + Ord {
    fn from_big(x: &BigInt) -> Self;
    fn zero() -> Self;
    fn plus(&self, o: &Self) -> Self;
    fn minus(&self, o: &Self) -> Self;
    /// Half of an even number.
    fn half(&self) -> Self;
}

impl Num for BigInt {
    fn from_big(x: &BigInt) -> Self {
        x.clone()
    }
    fn zero() -> Self {
        BigInt::from(0)
    }
    fn plus(&self, o: &Self) -> Self {
        self + o
    }
    fn minus(&self, o: &Self) -> Self {
        self - o
    }
    fn half(&self) -> Self {
        self / 2
    }
}

/// A signed integer of `L` 64-bit words, two's complement, least
/// significant word first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wide<const L: usize>([u64; L]);

impl<const L: usize> Ord for Wide<L> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        let (a, b) = (self.0[L - 1] as i64, o.0[L - 1] as i64);
        a.cmp(&b).then_with(|| {
            (0..L - 1)
                .rev()
                .map(|k| self.0[k].cmp(&o.0[k]))
                .find(|c| c.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl<const L: usize> Num for Wide<L> {
    fn from_big(x: &BigInt) -> Self {
        let (sign, digits) = x.to_u64_digits();
        let mut w = [0u64; L];
        for (k, d) in digits.into_iter().take(L).enumerate() {
            w[k] = d;
        }
        let v = Wide(w);
        if sign == Sign::Minus {
            Self::zero().minus(&v)
        } else {
            v
        }
    }
    fn zero() -> Self {
        Wide([0; L])
    }
    fn plus(&self, o: &Self) -> Self {
        let mut out = [0u64; L];
        let mut carry = false;
        for (k, slot) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[k].overflowing_add(o.0[k]);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *slot = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }
    fn minus(&self, o: &Self) -> Self {
        let mut out = [0u64; L];
        let mut borrow = false;
        for (k, slot) in out.iter_mut().enumerate() {
            let (s1, b1) = self.0[k].overflowing_sub(o.0[k]);
            let (s2, b2) = s1.overflowing_sub(u64::from(borrow));
            *slot = s2;
            borrow = b1 || b2;
        }
        Wide(out)
    }
    fn half(&self) -> Self {
        let mut out = [0u64; L];
        for (k, slot) in out.iter_mut().enumerate() {
            let high = if k + 1 < L { self.0[k + 1] << 63 } else { 0 };
            *slot = (self.0[k] >> 1) | high;
        }
        out[L - 1] = ((self.0[L - 1] as i64) >> 1) as u64;
        Wide(out)
    }
}

const NONE: usize = usize::MAX;

struct Matcher<W> {
    n: usize,
    /// The edges' ends.
    edges: Vec<(usize, usize)>,
    /// Twice each edge's weight.
    w2: Vec<W>,
    max_cardinality: bool,
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    /// The remote endpoint of v's matched edge.
    mate: Vec<Option<usize>>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

/// Python-style index into a cycle.
fn at(v: &[usize], j: isize) -> usize {
    let len = v.len() as isize;
    v[(((j % len) + len) % len) as usize]
}

impl<W: Num> Matcher<W> {
    fn new(n: usize, edges: &[(usize, usize, BigInt)], max_cardinality: bool) -> Self {
        let maxweight = edges
            .iter()
            .map(|e| e.2.clone())
            .max()
            .unwrap_or_default()
            .max(BigInt::from(0));
        let maxweight = W::from_big(&maxweight);
        let endpoint: Vec<usize> = (0..2 * edges.len())
            .map(|p| {
                if p % 2 == 0 {
                    edges[p / 2].0
                } else {
                    edges[p / 2].1
                }
            })
            .collect();
        let mut neighbend = vec![Vec::new(); n];
        for (k, (i, j, _)) in edges.iter().enumerate() {
            neighbend[*i].push(2 * k + 1);
            neighbend[*j].push(2 * k);
        }
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(W::zero(), n));
        Matcher {
            n,
            edges: edges.iter().map(|e| (e.0, e.1)).collect(),
            w2: edges.iter().map(|e| W::from_big(&(&e.2 * 2))).collect(),
            max_cardinality,
            endpoint,
            neighbend,
            mate: vec![None; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j) = self.edges[k];
        self.dualvar[i].plus(&self.dualvar[j]).minus(&self.w2[k])
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn mate_end(&self, v: usize) -> usize {
        self.mate[v].unwrap_or(NONE)
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let l = self.leaves_of(b);
            self.queue.extend(l);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate_end(base);
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = (self.edges[k].0, self.edges[k].1);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
                Some(l) => vec![l],
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j) = (self.edges[k].0, self.edges[k].1);
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.blossombestedges[bv] = None;
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &list {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(list);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        for s in self.blossomchilds[b].clone() {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let childs = self.blossomchilds[b].clone();
            let endps = self.blossomendps[b].clone();
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= childs.len() as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.endpoint[p ^ 1];
                self.label[q] = 0;
                let e = at(&endps, j - endptrick as isize);
                self.label[self.endpoint[e ^ endptrick ^ 1]] = 0;
                self.assign_label(q, 2, p);
                self.allowedge[e / 2] = true;
                j += jstep;
                p = at(&endps, j - endptrick as isize) ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = at(&childs, j);
            let q = self.endpoint[p ^ 1];
            self.label[q] = 2;
            self.label[bv] = 2;
            self.labelend[q] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(&childs, j) != entrychild {
                let bv = at(&childs, j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let leaves = self.leaves_of(bv);
                let v = leaves
                    .iter()
                    .copied()
                    .find(|&v| self.label[v] != 0)
                    .unwrap_or(*leaves.last().expect("a leaf"));
                if self.label[v] != 0 {
                    self.label[v] = 0;
                    let mb = self.mate_end(self.blossombase[bv]);
                    self.label[self.endpoint[mb]] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let i = childs.iter().position(|&c| c == t).expect("child");
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= childs.len() as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = at(&childs, j);
            let p = at(&endps, j - endptrick as isize) ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = at(&childs, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = Some(p ^ 1);
            self.mate[self.endpoint[p ^ 1]] = Some(p);
        }
        let mut c = childs[i..].to_vec();
        c.extend_from_slice(&childs[..i]);
        let mut e = endps[i..].to_vec();
        e.extend_from_slice(&endps[..i]);
        self.blossombase[b] = self.blossombase[c[0]];
        self.blossomchilds[b] = c;
        self.blossomendps[b] = e;
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = (self.edges[k].0, self.edges[k].1);
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = Some(p);
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = Some(self.labelend[bt]);
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    #[allow(
        clippy::too_many_lines,
        reason = "the primal-dual loop of Galil's paper in its own order: a stage of label growing, then the choice of the dual change among four kinds, then the dual update; the stages share a dozen arrays and read like the paper only together"
    )]
    fn run(&mut self) {
        let n = self.n;
        let zero = W::zero();
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v].is_none() && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = None;
                        if !self.allowedge[k] {
                            let s = self.slack(k);
                            if s <= zero {
                                self.allowedge[k] = true;
                            }
                            kslack = Some(s);
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            let s = kslack.clone().expect("slack computed");
                            if self.bestedge[b] == NONE || s < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0 {
                            let s = kslack.clone().expect("slack computed");
                            if self.bestedge[w] == NONE || s < self.slack(self.bestedge[w]) {
                                self.bestedge[w] = k;
                            }
                        }
                    }
                }
                if augmented {
                    break;
                }
                let mut deltatype = -1;
                let mut delta = W::zero();
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                if !self.max_cardinality {
                    deltatype = 1;
                    delta = self.dualvar[..n]
                        .iter()
                        .min()
                        .cloned()
                        .unwrap_or_else(W::zero);
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if deltatype == -1 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let kslack = self.slack(self.bestedge[b]);
                        let d = kslack.half();
                        if deltatype == -1 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && (deltatype == -1 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b].clone();
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == -1 {
                    deltatype = 1;
                    let m = self.dualvar[..n]
                        .iter()
                        .min()
                        .cloned()
                        .unwrap_or_else(W::zero);
                    delta = m.max(W::zero());
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v].minus(&delta),
                        2 => self.dualvar[v] = self.dualvar[v].plus(&delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b].plus(&delta),
                            2 => self.dualvar[b] = self.dualvar[b].minus(&delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        let (mut v, w) = (self.edges[deltaedge].0, self.edges[deltaedge].1);
                        if self.label[self.inblossom[v]] == 0 {
                            v = w;
                        }
                        self.allowedge[deltaedge] = true;
                        self.queue.push(v);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        self.queue.push(self.edges[deltaedge].0);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == zero
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(edges: &[(usize, usize, i64)]) -> Vec<(usize, usize, BigInt)> {
        edges
            .iter()
            .map(|&(i, j, x)| (i, j, BigInt::from(x)))
            .collect()
    }

    /// Brute force: the best matching by (cardinality, weight).
    fn brute(n: usize, edges: &[(usize, usize, i64)], maxcard: bool) -> (usize, i64) {
        fn go(
            k: usize,
            edges: &[(usize, usize, i64)],
            used: &mut Vec<bool>,
            card: usize,
            wt: i64,
            best: &mut (usize, i64),
            maxcard: bool,
        ) {
            if k == edges.len() {
                let cand = if maxcard { (card, wt) } else { (0, wt) };
                if cand > *best {
                    *best = cand;
                }
                return;
            }
            go(k + 1, edges, used, card, wt, best, maxcard);
            let (i, j, x) = edges[k];
            if !used[i] && !used[j] {
                used[i] = true;
                used[j] = true;
                go(k + 1, edges, used, card + 1, wt + x, best, maxcard);
                used[i] = false;
                used[j] = false;
            }
        }
        let mut best = (0, i64::MIN);
        go(0, edges, &mut vec![false; n], 0, 0, &mut best, maxcard);
        best
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut lots = crate::lots::Lots::new(7);
        for _ in 0..400 {
            let n = 2 + lots.below(9) as usize;
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if lots.below(3) > 0 {
                        edges.push((i, j, 1 + lots.below(20) as i64));
                    }
                }
            }
            for maxcard in [false, true] {
                let mate = max_weight_matching(n, &w(&edges), maxcard);
                let mut card = 0;
                let mut wt = 0;
                for &(i, j, x) in &edges {
                    if mate[i] == Some(j) {
                        assert_eq!(mate[j], Some(i));
                        card += 1;
                        wt += x;
                    }
                }
                let want = brute(n, &edges, maxcard);
                let got = if maxcard { (card, wt) } else { (0, wt) };
                if edges.is_empty() {
                    continue;
                }
                assert_eq!(got, want, "n {n} edges {edges:?} maxcard {maxcard}");
            }
        }
    }

    #[test]
    fn wide_integers_add_subtract_halve_and_order_as_big_ones() {
        let mut lots = crate::lots::Lots::new(11);
        let big = |lots: &mut crate::lots::Lots| {
            let mut x: BigInt = BigInt::from(lots.below(1 << 40)) << 90usize;
            x += BigInt::from(lots.below(1 << 50));
            if lots.below(2) == 0 {
                -x
            } else {
                x
            }
        };
        for _ in 0..500 {
            let (a, b) = (big(&mut lots), big(&mut lots));
            let (wa, wb) = (Wide::<4>::from_big(&a), Wide::<4>::from_big(&b));
            assert_eq!(wa.plus(&wb), Wide::from_big(&(&a + &b)));
            assert_eq!(wa.minus(&wb), Wide::from_big(&(&a - &b)));
            let even = &a * 2;
            assert_eq!(Wide::<4>::from_big(&even).half(), wa);
            assert_eq!(wa.cmp(&wb), a.cmp(&b), "{a} {b}");
        }
    }

    #[test]
    fn fixed_width_and_big_integer_matchings_agree() {
        let mut lots = crate::lots::Lots::new(12);
        for _ in 0..200 {
            let n = 2 + lots.below(12) as usize;
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if lots.below(3) > 0 {
                        let w: BigInt =
                            (BigInt::from(lots.below(4)) << 100usize) + lots.below(1000);
                        edges.push((i, j, w));
                    }
                }
            }
            assert_eq!(
                solve::<Wide<4>>(n, &edges, true),
                solve::<BigInt>(n, &edges, true)
            );
        }
    }
}
