//! Checking moves (将军着法) and replies to check, fast, for the threat
//! searches of `threat.rs` (杀, 要抽吃), which spend nearly all their time here.
//!
//! The lists are exactly those of the game core, in its order: the checking
//! moves are the legal moves (`Position::legal_moves`) that give check, kept
//! in generation order; the replies to check are generated lazily, the king's
//! steps first (the game core lists them first too, by ascending square), so a
//! search that finds an escape among them never generates the rest.
//!
//! Checking moves are not found by generating every move: after a legal move
//! of side A, the king K of side B is attacked only (a) by the moved piece
//! itself — a rook or cannon landing on K's rank or file, a horse landing a
//! horse-jump away, a pawn landing next to K (advisors and elephants never
//! reach K; kings may not face) — or (b) by a piece that did not move,
//! through the changed occupancy: a rook or cannon uncovered on a line of K
//! where the move left a square, a cannon given a screen on a line of K where
//! the move arrived, or a horse whose leg (a diagonal neighbour of K) was
//! vacated. [`candidates`] lists the moves that fit one of these cases; each
//! is then tested exactly (legal, and the king attacked once it is played).
//! The tests compare the result with the game core's on many positions, and
//! the classifications of every move of data/games/hu-ronghua-1391.pgn did
//! not change.

use xiangqi::{Move, MoveList, Position, Role, Square};

/// Direction of `s` from `k` along a rank or file (0 up, 1 down, 2 right, 3 left).
#[inline]
fn ray(k: Square, s: Square) -> Option<usize> {
    let (kf, kr, sf, sr) = (k.file(), k.rank(), s.file(), s.rank());
    if kf == sf {
        if sr > kr {
            Some(0)
        } else if sr < kr {
            Some(1)
        } else {
            None
        }
    } else if kr == sr {
        Some(if sf > kf { 2 } else { 3 })
    } else {
        None
    }
}

/// Whether the legal move `m` gives check; `pos` is restored afterwards.
#[inline]
pub fn gives_check(pos: &mut Position, m: Move) -> bool {
    let undo = pos.play_unchecked(m);
    let check = pos.is_check();
    pos.unplay(m, undo);
    check
}

const HORSE: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ELEPHANT: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const STEP: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// The square at (file, rank) if on the board.
#[inline]
fn square(f: i32, r: i32) -> Option<Square> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Square::new(f as u8, r as u8)
    } else {
        None
    }
}

/// One side's rooks, cannons, horses and pawns (the pieces that can give a
/// direct check), followed through a search by [`Men::moved`] and
/// [`Men::captured`] instead of scanning the board at every node. A legal
/// position has at most 2 + 2 + 2 + 5 of them per side (the game core's FEN
/// reader enforces the counts, and play never adds pieces): 16 slots suffice.
#[derive(Clone, Debug)]
pub struct Men {
    list: [(Square, Role); 16],
    len: usize,
}

impl Men {
    /// The pieces of `color` in `pos`.
    pub fn of(pos: &Position, color: xiangqi::Color) -> Men {
        let mut men = Men {
            list: [(pos.king_square(color), Role::King); 16],
            len: 0,
        };
        for (sq, p) in pos.pieces() {
            if p.color == color
                && matches!(p.role, Role::Rook | Role::Cannon | Role::Horse | Role::Pawn)
                && men.len < men.list.len()
            {
                men.list[men.len] = (sq, p.role);
                men.len += 1;
            }
        }
        men
    }

    fn iter(&self) -> std::slice::Iter<'_, (Square, Role)> {
        self.list[..self.len].iter()
    }

    /// A piece of ours moves: returns what [`Men::unmoved`] needs.
    pub fn moved(&mut self, m: Move) -> Option<usize> {
        let i = self.list[..self.len]
            .iter()
            .position(|&(s, _)| s == m.from)?;
        self.list[i].0 = m.to;
        Some(i)
    }

    /// Takes back [`Men::moved`].
    pub fn unmoved(&mut self, token: Option<usize>, m: Move) {
        if let Some(i) = token {
            self.list[i].0 = m.from;
        }
    }

    /// A piece of ours on `sq` may be captured: returns what [`Men::restored`] needs.
    pub fn captured(&mut self, sq: Square) -> Option<(usize, (Square, Role))> {
        let i = self.list[..self.len].iter().position(|&(s, _)| s == sq)?;
        let gone = self.list[i];
        self.len -= 1;
        self.list.swap(i, self.len);
        Some((i, gone))
    }

    /// Takes back [`Men::captured`].
    pub fn restored(&mut self, token: Option<(usize, (Square, Role))>) {
        if let Some((i, gone)) = token {
            self.list[self.len] = self.list[i];
            self.list[i] = gone;
            self.len += 1;
        }
    }
}

/// The legal checking moves of the side to move, in the game core's order.
/// `pos` is only used as scratch and comes back unchanged.
///
/// Candidates come straight from the geometry instead of a full move
/// generation. Walking each line out from the enemy king K to its first
/// four pieces o1-o4: a piece of ours on o1 uncovers a check when o2 is
/// our rook or o3 our cannon, one on o2 when o3 is our cannon (every move of
/// such a piece off the line, or taking on it, is a candidate); when o1 is
/// our cannon, any piece of ours moving between it and K makes a screen; a
/// rook on o2 may take o1, a cannon on o1 take o3, a cannon on o4 take o2. Off the lines: rooks and cannons to the squares
/// where their lines cross K's, horses and pawns to the squares from which
/// they attack K, and any move of a piece on a horse leg (a diagonal
/// neighbour of K) when we have a horse. Each candidate is kept if it is
/// legal and gives check.
pub fn checking_moves(pos: &mut Position) -> MoveList {
    let men = Men::of(pos, pos.turn());
    checking_moves_of(pos, &men)
}

/// [`checking_moves`] with the side to move's rooks, cannons, horses and
/// pawns given (kept up to date by the caller as moves are played).
pub fn checking_moves_of(pos: &mut Position, men: &Men) -> MoveList {
    let mut out = MoveList::new();
    for m in candidates(pos, men) {
        if pos.is_legal(m) && gives_check(pos, m) {
            out.push(m);
        }
    }
    out
}

/// The candidate checking moves (a superset of the legal checking moves,
/// possibly with illegal moves), in the game core's order.
pub fn candidates(pos: &Position, men: &Men) -> impl Iterator<Item = Move> {
    let us = pos.turn();
    let k = pos.king_square(us.other());
    let own = pos.king_square(us);
    let in_check = pos.is_check();
    let mut keys: Vec<u32> = Vec::with_capacity(48);
    let mut add = |from: Square, to: Square| {
        if from != to && to != k {
            keys.push(generation_order(own, in_check, Move { from, to }));
        }
    };
    let (kf, kr) = (k.file(), k.rank());
    let mut has_horse = false;
    for &(sq, role) in men.iter() {
        let (f, r) = (sq.file(), sq.rank());
        match role {
            // Off the king's lines: where the rook's or cannon's lines cross them.
            Role::Rook | Role::Cannon if f != kf && r != kr => {
                // From there the rook needs a clear line to K, the cannon one screen.
                let screens = usize::from(role == Role::Cannon);
                for to in [Square::new(f, kr), Square::new(kf, r)]
                    .into_iter()
                    .flatten()
                {
                    if between(to, k)
                        .filter(|&b| pos.piece_at(b).is_some())
                        .count()
                        == screens
                    {
                        add(sq, to);
                    }
                }
            }
            Role::Horse => {
                has_horse = true;
                let (df, dr) = (f.abs_diff(kf), r.abs_diff(kr));
                if df <= 4 && dr <= 4 {
                    // Squares a jump from K and a jump from the horse.
                    for (jf, jr) in HORSE {
                        let (tf, tr) = (kf as i32 + jf, kr as i32 + jr);
                        let (ef, er) = ((tf - f as i32).abs(), (tr - r as i32).abs());
                        // The leg of the jump from there to K must be empty.
                        let leg = if jf.abs() == 2 {
                            square(tf - jf.signum(), tr)
                        } else {
                            square(tf, tr - jr.signum())
                        };
                        let free = leg.is_some_and(|l| pos.piece_at(l).is_none());
                        if free && ((ef == 1 && er == 2) || (ef == 2 && er == 1)) {
                            if let Some(to) = square(tf, tr) {
                                add(sq, to);
                            }
                        }
                    }
                }
            }
            // Two steps from K: the squares next to K and next to the pawn.
            Role::Pawn if f.abs_diff(kf) + r.abs_diff(kr) == 2 => {
                for (jf, jr) in STEP {
                    let (tf, tr) = (kf as i32 + jf, kr as i32 + jr);
                    if (tf - f as i32).abs() + (tr - r as i32).abs() == 1 {
                        if let Some(to) = square(tf, tr) {
                            add(sq, to);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if has_horse {
        for leg in reach(k, Role::Advisor) {
            if let Some(p) = pos.piece_at(leg) {
                if p.color == us {
                    for to in reach(leg, p.role) {
                        add(leg, to);
                    }
                }
            }
        }
    }
    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let mut line: [Option<Square>; 9] = [None; 9];
        let mut n = 0;
        let mut first: [Option<(Square, xiangqi::Piece)>; 4] = [None; 4];
        let mut found = 0;
        let mut empty_before_first = 0;
        let (mut f, mut r) = (k.file() as i32 + df, k.rank() as i32 + dr);
        while (0..9).contains(&f) && (0..10).contains(&r) {
            let Some(t) = Square::new(f as u8, r as u8) else {
                break;
            };
            line[n] = Some(t);
            n += 1;
            match pos.piece_at(t) {
                Some(p) if found < 4 => {
                    first[found] = Some((t, p));
                    found += 1;
                }
                None if found == 0 => empty_before_first += 1,
                _ => {}
            }
            f += df;
            r += dr;
        }
        let ours = |i: usize| first[i].filter(|(_, p)| p.color == us);
        let theirs = |i: usize| first[i].is_some_and(|(_, p)| p.color != us);
        let is = |i: usize, role: Role| ours(i).is_some_and(|(_, p)| p.role == role);
        let at = |i: usize| first[i].map(|(sq, _)| sq);
        let dir = ray(k, line[0].unwrap_or(k));
        // Moving along the line without taking keeps the count of pieces
        // between K and the piece beyond: only moves off the line, or takes
        // on it, can uncover a check.
        let mut uncover = |s: Square, role: Role, take: Option<Square>| {
            for to in reach(s, role) {
                if ray(k, to) != dir || Some(to) == take {
                    add(s, to);
                }
            }
        };
        // A check uncovered by moving o1 (a rook on o2, or a cannon on o3
        // over o2, which o1 may take) or o2 (a cannon on o3, o2 may take o1).
        if let Some((s1, p1)) = ours(0) {
            if is(1, Role::Rook) || is(2, Role::Cannon) {
                uncover(s1, p1.role, at(1).filter(|_| theirs(1)));
            }
        }
        if let Some((s2, p2)) = ours(1) {
            if is(2, Role::Cannon) {
                uncover(s2, p2.role, at(0).filter(|_| theirs(0)));
            }
        }
        // A new screen for our cannon on o1.
        if is(0, Role::Cannon) {
            for &t in line[..empty_before_first].iter().flatten() {
                for from in pos.attackers_iter(t, us) {
                    add(from, t);
                }
            }
        }
        // Our rooks and cannons taking along the line: a rook on o2 takes
        // o1; a cannon on o1 takes o3 over o2, one on o4 takes o2 over o3.
        // (Any other move along the line leaves no clear line or not one
        // screen.)
        for (by, role, victim) in [
            (1, Role::Rook, 0),
            (0, Role::Cannon, 2),
            (3, Role::Cannon, 1),
        ] {
            if is(by, role) && theirs(victim) {
                if let (Some(from), Some(to)) = (at(by), at(victim)) {
                    add(from, to);
                }
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter().filter_map(decode)
}

/// Sort key giving the game core's generation order of legal moves: the
/// king's steps first, then by origin square; from a square off the king's
/// lines and horse legs (when not in check), the targets off the king's lines
/// before those on them; otherwise by target square. The move is in the key
/// (origin in bits 8-14, target in bits 0-6; see [`decode`]).
pub(crate) fn generation_order(own_king: Square, in_check: bool, m: Move) -> u32 {
    let (from, to) = (m.from.index() as u32, m.to.index() as u32);
    if m.from == own_king {
        return (from << 8) | to;
    }
    let line =
        |s: Square| s != own_king && (s.file() == own_king.file() || s.rank() == own_king.rank());
    let diag = m.from.file().abs_diff(own_king.file()) == 1
        && m.from.rank().abs_diff(own_king.rank()) == 1;
    let tested_all = in_check || line(m.from) || diag;
    let later = !tested_all && line(m.to);
    (1 << 20) | (from << 8) | ((later as u32) << 7) | to
}

/// The move in a [`generation_order`] key.
pub(crate) fn decode(key: u32) -> Option<Move> {
    let sq = |i: u32| Square::from_index((i & 0x7f) as u8);
    match (sq(key >> 8), sq(key)) {
        (Some(from), Some(to)) => Some(Move { from, to }),
        _ => None,
    }
}

/// The king's steps of the side to move, by ascending square, as the game
/// core lists them (legal or not: test with `is_legal`).
fn king_steps(pos: &Position) -> impl Iterator<Item = Move> {
    let k = pos.king_square(pos.turn());
    let (f, r) = (k.file() as i32, k.rank() as i32);
    // Ascending square index = rank * 9 + file.
    [(0, -1), (-1, 0), (1, 0), (0, 1)]
        .into_iter()
        .filter_map(move |(df, dr)| {
            let (nf, nr) = (f + df, r + dr);
            if (0..9).contains(&nf) && (0..10).contains(&nr) {
                Square::new(nf as u8, nr as u8)
            } else {
                None
            }
        })
        .map(move |to| Move { from: k, to })
}

/// Squares strictly between `a` and `b` on a rank or file (empty otherwise).
fn between(a: Square, b: Square) -> impl Iterator<Item = Square> {
    let (af, ar, bf, br) = (a.file(), a.rank(), b.file(), b.rank());
    let range = |x: u8, y: u8| (x.min(y) + 1)..x.max(y);
    let on_file = (af == bf).then(|| range(ar, br).filter_map(move |r| Square::new(af, r)));
    let on_rank =
        (ar == br && af != bf).then(|| range(af, bf).filter_map(move |f| Square::new(f, ar)));
    on_file
        .into_iter()
        .flatten()
        .chain(on_rank.into_iter().flatten())
}

/// Every square a piece of `role` on `from` could reach on some board (a
/// superset of its moves: rank and file for rook and cannon, the jumps of
/// horse and elephant, the diagonal steps of an advisor, the steps of a pawn
/// or king).
fn reach(from: Square, role: Role) -> impl Iterator<Item = Square> {
    let jumps: &'static [(i32, i32)] = match role {
        Role::Horse => &HORSE,
        Role::Elephant => &ELEPHANT,
        Role::Advisor => &DIAGONAL,
        Role::Pawn | Role::King => &STEP,
        Role::Rook | Role::Cannon => &[],
    };
    let (f, r) = (from.file(), from.rank());
    let line = matches!(role, Role::Rook | Role::Cannon);
    let n = if line { 19 } else { 0 };
    let lines = (0..n).filter_map(move |i| {
        let s = if i < 10 {
            Square::new(f, i)
        } else {
            Square::new(i - 10, r)
        };
        s.filter(|&s| s != from)
    });
    let jumped = jumps
        .iter()
        .filter_map(move |&(df, dr)| square(f as i32 + df, r as i32 + dr));
    lines.chain(jumped)
}

/// The legal replies to check other than the king's steps, in the game core's
/// order (for the side in check every move is tested, so the list is sorted by
/// origin square, then by target square). Every such reply captures a
/// checker, or lands between a rook or cannon checker and the king (a block,
/// or a second screen), or on the leg of a horse checker; so the candidates
/// are the pieces that can move to those squares (`Position::attackers_iter`),
/// kept when legal. A cannon checking over a screen of the side in check is
/// also parried by moving that screen anywhere: every square its movement
/// rule could reach is tried. `None` when the side to move is not in check.
pub fn evasions(pos: &Position) -> Option<MoveList> {
    let mut found: Vec<Move> = Vec::with_capacity(16);
    let in_check = each_evasion(pos, |m| {
        if !found.contains(&m) {
            found.push(m);
        }
        false
    });
    if !in_check {
        return None;
    }
    found.sort_unstable_by_key(|m| (m.from.index(), m.to.index()));
    let mut out = MoveList::new();
    for m in found {
        out.push(m);
    }
    Some(out)
}

/// Calls `f` on each legal reply to check other than the king's steps (a
/// move may come more than once), until `f` returns true. Returns whether the
/// side to move is in check at all.
fn each_evasion(pos: &Position, mut f: impl FnMut(Move) -> bool) -> bool {
    let us = pos.turn();
    let k = pos.king_square(us);
    let mut any_checker = false;
    let try_move = |m: Move, f: &mut dyn FnMut(Move) -> bool| pos.is_legal(m) && f(m);
    let try_square = |t: Square, f: &mut dyn FnMut(Move) -> bool| {
        pos.attackers_iter(t, us)
            .filter(|&from| from != k)
            .any(|from| try_move(Move { from, to: t }, f))
    };
    for c in pos.attackers_iter(k, us.other()) {
        any_checker = true;
        if try_square(c, &mut f) {
            return true;
        }
        let role = pos.piece_at(c).map(|p| p.role);
        match role {
            Some(Role::Rook) | Some(Role::Cannon) | Some(Role::King) => {
                for s in between(c, k) {
                    if role == Some(Role::Cannon) {
                        if let Some(p) = pos.piece_at(s) {
                            if p.color == us && p.role != Role::King {
                                // Our own screen: moving it off the line parries.
                                for to in reach(s, p.role) {
                                    if pos.is_legal(Move { from: s, to }) && f(Move { from: s, to })
                                    {
                                        return true;
                                    }
                                }
                            }
                        }
                    }
                    if try_square(s, &mut f) {
                        return true;
                    }
                }
            }
            Some(Role::Horse) => {
                // The leg: one step from the horse towards the king along the long side.
                let (cf, cr, kf, kr) = (
                    c.file() as i32,
                    c.rank() as i32,
                    k.file() as i32,
                    k.rank() as i32,
                );
                let (df, dr) = (kf - cf, kr - cr);
                let leg = if df.abs() == 2 {
                    square(cf + df.signum(), cr)
                } else {
                    square(cf, cr + dr.signum())
                };
                if let Some(leg) = leg {
                    if try_square(leg, &mut f) {
                        return true;
                    }
                }
            }
            _ => {}
        }
    }
    any_checker
}

/// Whether the side to move has no legal move (mated or stalemated — both a
/// loss, AXF-G2). Tries the king's steps, then the other replies to check,
/// before generating every move.
pub fn no_legal_move(pos: &Position) -> bool {
    if king_steps(pos).any(|m| pos.is_legal(m)) {
        return false;
    }
    if pos.is_check() {
        let mut found = false;
        each_evasion(pos, |_| {
            found = true;
            true
        });
        return !found;
    }
    pos.legal_moves().is_empty()
}

/// The legal moves of the side to move in the game core's order, produced
/// lazily: the king's steps first, then (only if asked for more) the rest.
pub struct Replies {
    steps: [Option<Move>; 4],
    step: usize,
    rest: Option<(MoveList, usize)>,
}

impl Replies {
    /// The replies of the side to move of `pos`.
    pub fn new(pos: &Position) -> Replies {
        let mut steps = [None; 4];
        for (slot, m) in steps.iter_mut().zip(king_steps(pos)) {
            *slot = Some(m);
        }
        Replies {
            steps,
            step: 0,
            rest: None,
        }
    }

    /// The next legal reply in `pos` (the same position as given to `new`).
    pub fn next(&mut self, pos: &Position) -> Option<Move> {
        while self.step < self.steps.len() {
            let m = self.steps[self.step];
            self.step += 1;
            if let Some(m) = m {
                if pos.is_legal(m) {
                    return Some(m);
                }
            }
        }
        let k = pos.king_square(pos.turn());
        let (list, i) = self
            .rest
            .get_or_insert_with(|| (evasions(pos).unwrap_or_else(|| pos.legal_moves()), 0));
        while *i < list.len() {
            let m = list[*i];
            *i += 1;
            if m.from != k {
                return Some(m);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 9] = [
        Position::START_FEN,
        "4k4/9/4P4/9/5C3/9/9/3ARA3/9/3K5 w - - 0 1",
        "2b1k4/9/4r4/7c1/2p3C2/9/9/9/4K1p2/9 w - - 0 1",
        "3k5/4c4/9/9/4R4/8c/9/9/4A4/4K4 w - - 0 1",
        "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
        "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    ];

    /// Positions reached by a few plies of every legal move from `FENS`.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for fen in FENS {
            let p = Position::from_fen(fen).unwrap();
            out.push(p.clone());
            for &m in p.legal_moves().iter() {
                let mut q = p.clone();
                q.play_unchecked(m);
                for &r in q.legal_moves().iter().take(6) {
                    let mut s = q.clone();
                    s.play_unchecked(r);
                    out.push(s);
                }
                out.push(q);
            }
        }
        out
    }

    /// `checking_moves` is the game core's list of checking moves in its order.
    #[test]
    fn checking_moves_are_exact() {
        let mut checks = 0;
        for p in positions() {
            let want: Vec<Move> = p
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| p.gives_check(m))
                .collect();
            let mut q = p.clone();
            assert_eq!(checking_moves(&mut q).to_vec(), want, "{p:?}");
            assert_eq!(q, p);
            checks += want.len();
        }
        assert!(checks > 100, "the sample has checks ({checks})");
    }

    /// Lazy replies are the legal moves in the game core's order.
    #[test]
    fn replies_are_the_legal_moves_in_order() {
        let mut in_check = 0;
        for p in positions() {
            let mut r = Replies::new(&p);
            let mut got = Vec::new();
            while let Some(m) = r.next(&p) {
                got.push(m);
            }
            assert_eq!(got, p.legal_moves().to_vec(), "{p:?}");
            assert_eq!(no_legal_move(&p), got.is_empty());
            if let Some(e) = evasions(&p) {
                let k = p.king_square(p.turn());
                let want: Vec<Move> = got.iter().copied().filter(|m| m.from != k).collect();
                assert_eq!(e.to_vec(), want, "{p:?}");
            }
            in_check += p.is_check() as usize;
        }
        assert!(
            in_check > 20,
            "the sample has positions in check ({in_check})"
        );
    }
}
