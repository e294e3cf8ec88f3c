//! Precomputed move geometry on 90-bit boards (`u128`, bit = square index).
//!
//! Tables are built at compile time: rays for rooks and cannons (车/炮), horse moves
//! with their legs (马腿), elephant moves with their eyes (象眼), advisor and king steps
//! inside the palace (九宫), pawn steps (兵), and the reverse tables used to detect
//! attacks on a king. Everything here is geometry only; `movegen.rs` applies it.

/// A set of squares: bit `i` is square index `i` (0..90).
pub(crate) type Bb = u128;

/// The set with every square.
pub(crate) const ALL: Bb = (1u128 << 90) - 1;

/// Sentinel for "no square" in tables.
pub(crate) const NONE: u8 = 0xFF;

/// The set holding only square index `sq` (0..128).
#[inline(always)]
pub(crate) const fn bit(sq: usize) -> Bb {
    BITS[sq & 127]
}

/// `1 << i` for every index of a 128-bit set: a load is cheaper than a
/// variable 128-bit shift, which takes a branch-free sequence of several
/// instructions.
static BITS: [Bb; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// Directions: 0 north (+rank), 1 east (+file), 2 south, 3 west.
/// North and east increase the index, south and west decrease it.
const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Diagonal steps.
const DIAGS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn idx(f: i32, r: i32) -> usize {
    (r * 9 + f) as usize
}

const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7) && on_board(f, r)
}

/// Squares strictly beyond `sq` in direction `d`, up to the edge.
pub(crate) static RAYS: [[Bb; 90]; 4] = {
    let mut t = [[0u128; 90]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 90 {
            let (df, dr) = DIRS[d];
            let mut f = (sq % 9) as i32 + df;
            let mut r = (sq / 9) as i32 + dr;
            let mut m = 0u128;
            while on_board(f, r) {
                m |= bit(idx(f, r));
                f += df;
                r += dr;
            }
            t[d][sq] = m;
            sq += 1;
        }
        d += 1;
    }
    t
};

/// The nearest square of `blockers` (non-empty, a subset of a ray in direction `d`).
#[inline(always)]
pub(crate) fn first_blocker(d: usize, blockers: Bb) -> usize {
    if d < 2 {
        lowest(blockers)
    } else {
        highest(blockers)
    }
}

/// The lowest square of a non-empty set, by its two 64-bit halves.
#[inline(always)]
pub(crate) fn lowest(b: Bb) -> usize {
    let low = b as u64;
    if low != 0 {
        low.trailing_zeros() as usize
    } else {
        64 + ((b >> 64) as u64).trailing_zeros() as usize
    }
}

/// The highest square of a non-empty set, by its two 64-bit halves.
#[inline(always)]
fn highest(b: Bb) -> usize {
    let high = (b >> 64) as u64;
    if high != 0 {
        127 - high.leading_zeros() as usize
    } else {
        63 - (b as u64).leading_zeros() as usize
    }
}

/// Same rank or file as the square (excluding the square itself).
pub(crate) static LINES: [Bb; 90] = {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq] = RAYS[0][sq] | RAYS[1][sq] | RAYS[2][sq] | RAYS[3][sq];
        sq += 1;
    }
    t
};

/// One-step targets from each square for four steps; with `palace`, only from a
/// palace square to another square of the same palace.
const fn step_table(steps: [(i32, i32); 4], palace: bool) -> [Bb; 90] {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut k = 0;
        while k < 4 {
            let (df, dr) = steps[k];
            let (tf, tr) = (f + df, r + dr);
            let ok = if palace {
                in_palace(f, r) && in_palace(tf, tr) && ((tr <= 4) == (r <= 4))
            } else {
                on_board(tf, tr)
            };
            if ok {
                t[sq] |= bit(idx(tf, tr));
            }
            k += 1;
        }
        sq += 1;
    }
    t
}

/// The four diagonal neighbours (the squares that can be a horse leg for an attack on it).
pub(crate) static DIAG_NEIGHBOURS: [Bb; 90] = step_table(DIAGS, false);

/// A horse's geometry seen from a square, per group `k`: the leg (马腿) and the
/// two far squares `[leg, end1, end2]`, as offsets.
type HorseGeometry = [[(i32, i32); 3]; 4];

/// Moves: the leg is an orthogonal neighbour; beyond it, one more step in the
/// same direction plus one sideways.
const HORSE_MOVE_GEOMETRY: HorseGeometry = {
    let mut g = [[(0, 0); 3]; 4];
    let mut k = 0;
    while k < 4 {
        let (df, dr) = DIRS[k];
        let (sf, sr) = (dr, df); // perpendicular
        g[k] = [
            (df, dr),
            (2 * df + sf, 2 * dr + sr),
            (2 * df - sf, 2 * dr - sr),
        ];
        k += 1;
    }
    g
};

/// Attacks: the leg is a diagonal neighbour `(a, b)` of the target; the horse
/// stands at `(a, 2b)` or `(2a, b)` from it.
const HORSE_ATTACK_GEOMETRY: HorseGeometry = {
    let mut g = [[(0, 0); 3]; 4];
    let mut k = 0;
    while k < 4 {
        let (a, b) = DIAGS[k];
        g[k] = [(a, b), (a, 2 * b), (2 * a, b)];
        k += 1;
    }
    g
};

/// `(leg, far squares)` per group and square (`leg == NONE` when off the board).
const fn horse_table(g: HorseGeometry) -> [[(u8, Bb); 4]; 90] {
    let mut t = [[(NONE, 0u128); 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut k = 0;
        while k < 4 {
            let [(lf, lr), (f1, r1), (f2, r2)] = g[k];
            if on_board(f + lf, r + lr) {
                let mut m = 0u128;
                if on_board(f + f1, r + r1) {
                    m |= bit(idx(f + f1, r + r1));
                }
                if on_board(f + f2, r + r2) {
                    m |= bit(idx(f + f2, r + r2));
                }
                t[sq][k] = (idx(f + lf, r + lr) as u8, m);
            }
            k += 1;
        }
        sq += 1;
    }
    t
}

/// Horse moves from a square, grouped by leg: `(leg, targets)` for each of the 4
/// orthogonal neighbours (`leg == NONE` when off the board).
pub(crate) static HORSE_MOVES: [[(u8, Bb); 4]; 90] = horse_table(HORSE_MOVE_GEOMETRY);

/// Horses attacking a square, grouped by leg: for each diagonal neighbour `leg` of the
/// target, the (up to two) squares from which a horse reaches the target through `leg`.
pub(crate) static HORSE_ATTACKERS: [[(u8, Bb); 4]; 90] = horse_table(HORSE_ATTACK_GEOMETRY);

/// The far squares of [`horse_table`] united per square.
const fn horse_union(g: HorseGeometry) -> [Bb; 90] {
    let t = horse_table(g);
    let mut u = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut k = 0;
        while k < 4 {
            u[sq] |= t[sq][k].1;
            k += 1;
        }
        sq += 1;
    }
    u
}

/// Every square from which a horse could attack a square (the union of
/// [`HORSE_ATTACKERS`]' far squares): one test skips the legs when no horse
/// stands there.
pub(crate) static HORSE_ATTACK_SQUARES: [Bb; 90] = horse_union(HORSE_ATTACK_GEOMETRY);

/// Every square a horse could jump to from a square, legs aside.
pub(crate) static HORSE_REACH: [Bb; 90] = horse_union(HORSE_MOVE_GEOMETRY);

/// Elephant moves: `(eye, target)` per diagonal, staying on the same side of the river.
pub(crate) static ELEPHANT_MOVES: [[(u8, u8); 4]; 90] = ELEPHANT_TABLE;

/// The table of [`ELEPHANT_MOVES`], as a constant for the tables built from it.
const ELEPHANT_TABLE: [[(u8, u8); 4]; 90] = {
    let mut t = [[(NONE, NONE); 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut k = 0;
        while k < 4 {
            let (a, b) = DIAGS[k];
            let (tf, tr) = (f + 2 * a, r + 2 * b);
            if on_board(tf, tr) && (tr <= 4) == (r <= 4) {
                t[sq][k] = (idx(f + a, r + b) as u8, idx(tf, tr) as u8);
            }
            k += 1;
        }
        sq += 1;
    }
    t
};

/// Every square an elephant could step to from a square, eyes aside.
pub(crate) static ELEPHANT_REACH: [Bb; 90] = {
    let t = ELEPHANT_TABLE;
    let mut u = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut k = 0;
        while k < 4 {
            if t[sq][k].1 != NONE {
                u[sq] |= bit(t[sq][k].1 as usize);
            }
            k += 1;
        }
        sq += 1;
    }
    u
};

/// Advisor steps: diagonal neighbours inside the palace of the square.
pub(crate) static ADVISOR_MOVES: [Bb; 90] = step_table(DIAGS, true);

/// King steps: orthogonal neighbours inside the palace of the square.
pub(crate) static KING_MOVES: [Bb; 90] = step_table(DIRS, true);

/// Pawn steps per colour: forward, plus sideways once across the river.
pub(crate) static PAWN_MOVES: [[Bb; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i32 = if c == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            let f = (sq % 9) as i32;
            let r = (sq / 9) as i32;
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            let mut m = 0u128;
            if on_board(f, r + fwd) {
                m |= bit(idx(f, r + fwd));
            }
            if crossed {
                if on_board(f - 1, r) {
                    m |= bit(idx(f - 1, r));
                }
                if on_board(f + 1, r) {
                    m |= bit(idx(f + 1, r));
                }
            }
            t[c][sq] = m;
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Squares from which a pawn of the colour attacks the square (reverse of `PAWN_MOVES`).
pub(crate) static PAWN_ATTACKERS: [[Bb; 90]; 2] = PAWN_ATTACKERS_TABLE;

/// The table of [`PAWN_ATTACKERS`], as a constant for the tables built from it.
const PAWN_ATTACKERS_TABLE: [[Bb; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut m = PAWN_MOVES[c][from];
            while m != 0 {
                let to = m.trailing_zeros() as usize;
                m &= m - 1;
                t[c][to] |= bit(from);
            }
            from += 1;
        }
        c += 1;
    }
    t
};

/// For each target `t` of `table`, the union of the entries of `table` at
/// the squares of `table[t]`: where a piece stands two steps of the table
/// away (e.g. from where a horse reaches, in one move, a square attacking
/// a king).
const fn two_steps(table: &[Bb; 90]) -> [Bb; 90] {
    let mut u = [0u128; 90];
    let mut t = 0;
    while t < 90 {
        let mut m = table[t];
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            u[t] |= table[s];
        }
        t += 1;
    }
    u
}

/// Where a horse may stand to give check to a king on the square in one
/// move (legs aside): a jump away from a square it attacks the king from.
pub(crate) static HORSE_CHECK_SOURCES: [Bb; 90] = two_steps(&horse_union(HORSE_ATTACK_GEOMETRY));

/// Per colour, where a pawn may stand to give check to a king on the
/// square in one move: a step away from a square it attacks the king from.
pub(crate) static PAWN_CHECK_SOURCES: [[Bb; 90]; 2] = [
    two_steps(&PAWN_ATTACKERS_TABLE[0]),
    two_steps(&PAWN_ATTACKERS_TABLE[1]),
];

/// Squares a piece of the colour may ever stand on, per role index (legal setups).
pub(crate) static ALLOWED: [[Bb; 7]; 2] = {
    let mut t = [[0u128; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 90 {
            let f = (sq % 9) as i32;
            // Work in Red's frame: rank as seen from this colour's side.
            let r = if c == 0 {
                (sq / 9) as i32
            } else {
                9 - (sq / 9) as i32
            };
            let b = bit(sq);
            if f >= 3 && f <= 5 && r <= 2 {
                t[c][0] |= b;
            }
            if (r == 1 && f == 4) || ((r == 0 || r == 2) && (f == 3 || f == 5)) {
                t[c][1] |= b;
            }
            if ((r == 0 || r == 4) && (f == 2 || f == 6)) || (r == 2 && f % 4 == 0) {
                t[c][2] |= b;
            }
            t[c][3] |= b;
            t[c][4] |= b;
            t[c][5] |= b;
            if r >= 5 || ((r == 3 || r == 4) && f % 2 == 0) {
                t[c][6] |= b;
            }
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Squares strictly between two squares on one rank or file (empty otherwise).
pub(crate) fn between(a: usize, b: usize) -> Bb {
    for rays in RAYS.iter() {
        if rays[a] & bit(b) != 0 {
            return rays[a] & !rays[b] & !bit(b);
        }
    }
    0
}

/// Iterates the square indices of a set.
#[inline(always)]
pub(crate) fn squares(mut b: Bb) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = lowest(b);
            b &= b - 1;
            Some(s)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The united tables say the same as the tables they unite.
    #[test]
    fn reach_tables_unite_the_move_tables() {
        for s in 0..90 {
            let jumps = HORSE_MOVES[s]
                .iter()
                .filter(|&&(leg, _)| leg != NONE)
                .fold(0, |t, &(_, m)| t | m);
            assert_eq!(HORSE_REACH[s], jumps, "horse from {s}");
            let from: Bb = (0..90)
                .filter(|&h| HORSE_REACH[h] & bit(s) != 0)
                .fold(0, |t, h| t | bit(h));
            assert_eq!(HORSE_ATTACK_SQUARES[s], from, "horses onto {s}");
            let steps = ELEPHANT_MOVES[s]
                .iter()
                .filter(|&&(_, to)| to != NONE)
                .fold(0, |t, &(_, to)| t | bit(to as usize));
            assert_eq!(ELEPHANT_REACH[s], steps, "elephant from {s}");
        }
        assert_eq!(
            HORSE_REACH[40].count_ones(),
            8,
            "a central horse jumps 8 ways"
        );
    }
}
