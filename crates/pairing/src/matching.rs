//! Maximum cardinality matching in a general graph (Edmonds' blossom
//! algorithm): whether the players still to pair can all be paired, and a
//! pairing that does it. The systems use it as their completion test: a
//! choice is kept only when the rest of the round can still be paired.

use std::collections::VecDeque;

/// A maximum matching of the graph on `n` vertices with the adjacency
/// lists `adj`: `mate[v]` is v's partner or `None`.
pub fn maximum_matching(adj: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = adj.len();
    let mut mate: Vec<Option<usize>> = vec![None; n];
    // A greedy start: most vertices are matched before any search.
    for v in 0..n {
        if mate[v].is_none() {
            if let Some(&u) = adj[v].iter().find(|&&u| mate[u].is_none() && u != v) {
                mate[v] = Some(u);
                mate[u] = Some(v);
            }
        }
    }
    let mut search = Search::new(n);
    for root in 0..n {
        if mate[root].is_none() {
            if let Some(end) = search.find_path(adj, &mate, root) {
                search.augment(&mut mate, end);
            }
        }
    }
    mate
}

/// Whether every vertex can be matched.
pub fn perfect(adj: &[Vec<usize>]) -> bool {
    adj.len() % 2 == 0 && maximum_matching(adj).iter().all(Option::is_some)
}

struct Search {
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: VecDeque<usize>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            parent: vec![None; n],
            base: (0..n).collect(),
            used: vec![false; n],
            blossom: vec![false; n],
            queue: VecDeque::new(),
        }
    }

    fn lca(&self, mate: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; mate.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            match mate[a].and_then(|m| self.parent[m]) {
                Some(p) => a = p,
                None => break,
            }
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            // b is an outer vertex below the root, so it has a mate with a
            // parent; the root is marked seen and ends the walk.
            match mate[b].and_then(|m| self.parent[m]) {
                Some(p) => b = p,
                None => return b,
            }
        }
    }

    fn mark_path(&mut self, mate: &[Option<usize>], mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            let Some(m) = mate[v] else { return };
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[m]] = true;
            self.parent[v] = Some(child);
            child = m;
            match self.parent[m] {
                Some(p) => v = p,
                None => return,
            }
        }
    }

    fn find_path(
        &mut self,
        adj: &[Vec<usize>],
        mate: &[Option<usize>],
        root: usize,
    ) -> Option<usize> {
        let n = adj.len();
        self.used.iter_mut().for_each(|x| *x = false);
        self.parent.iter_mut().for_each(|x| *x = None);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.queue.clear();
        self.used[root] = true;
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for &to in &adj[v] {
                if self.base[v] == self.base[to] || mate[v] == Some(to) {
                    continue;
                }
                let to_outer = to == root || mate[to].is_some_and(|m| self.parent[m].is_some());
                if to_outer {
                    let cur = self.lca(mate, v, to);
                    self.blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(mate, v, cur, to);
                    self.mark_path(mate, to, cur, v);
                    for i in 0..n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to].is_none() {
                    self.parent[to] = Some(v);
                    match mate[to] {
                        None => return Some(to),
                        Some(m) => {
                            self.used[m] = true;
                            self.queue.push_back(m);
                        }
                    }
                }
            }
        }
        None
    }

    fn augment(&self, mate: &mut [Option<usize>], end: usize) {
        let mut v = Some(end);
        while let Some(x) = v {
            let Some(pv) = self.parent[x] else { break };
            let ppv = mate[pv];
            mate[x] = Some(pv);
            mate[pv] = Some(x);
            v = ppv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a].push(b);
            adj[b].push(a);
        }
        adj
    }

    #[test]
    fn finds_perfect_matchings_through_blossoms() {
        // A star 0-1, 0-2, 0-3 beside 4-5: no perfect matching.
        let adj = graph(6, &[(0, 1), (0, 2), (0, 3), (4, 5)]);
        assert!(!perfect(&adj));
        let adj = graph(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (1, 4), (4, 5), (3, 5)]);
        let m = maximum_matching(&adj);
        assert!(m.iter().all(Option::is_some));
        for (v, u) in m.iter().enumerate() {
            let u = u.expect("matched");
            assert_eq!(m[u], Some(v));
            assert!(adj[v].contains(&u));
        }
        // Two triangles joined by one edge: perfect only through it.
        let adj = graph(6, &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)]);
        assert!(perfect(&adj));
        let adj = graph(6, &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]);
        assert!(!perfect(&adj));
    }

    #[test]
    fn matches_brute_force_on_small_random_graphs() {
        let mut lots = crate::lots::Lots::new(11);
        for _ in 0..300 {
            let n = 2 + lots.below(9) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if lots.below(3) == 0 {
                        edges.push((a, b));
                    }
                }
            }
            let adj = graph(n, &edges);
            let size = maximum_matching(&adj)
                .iter()
                .filter(|m| m.is_some())
                .count()
                / 2;
            assert_eq!(size, brute(&edges, 0, &mut vec![false; n]), "{n} {edges:?}");
        }
    }

    fn brute(edges: &[(usize, usize)], from: usize, used: &mut [bool]) -> usize {
        let mut best = 0;
        for (i, &(a, b)) in edges.iter().enumerate().skip(from) {
            if !used[a] && !used[b] {
                used[a] = true;
                used[b] = true;
                best = best.max(1 + brute(edges, i + 1, used));
                used[a] = false;
                used[b] = false;
            }
        }
        best
    }
}
