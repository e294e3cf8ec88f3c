//! Cross-checks the fast move generator against a slow, obviously-correct reference
//! written here from the rules alone (arrays and coordinate arithmetic, no tables):
//! legal moves, `check_move` and `is_legal`, check, checkers, gives-check, attackers, mate and
//! stalemate, make/unmake and the incremental Zobrist hash, on thousands of positions
//! reached by random play (biased towards captures to reach endgames).

use std::collections::BTreeSet;
use xiangqi::{Color, Move, Piece, Position, Role, Square};

type Grid = [[Option<Piece>; 9]; 10]; // [rank][file]

fn grid(pos: &Position) -> Grid {
    let mut g = [[None; 9]; 10];
    for (sq, p) in pos.pieces() {
        g[sq.rank() as usize][sq.file() as usize] = Some(p);
    }
    g
}

fn in_palace(c: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && match c {
            Color::Red => (0..=2).contains(&r),
            Color::Black => (7..=9).contains(&r),
        }
}

fn own_side(c: Color, r: i32) -> bool {
    match c {
        Color::Red => r <= 4,
        Color::Black => r >= 5,
    }
}

fn on(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

fn at(g: &Grid, f: i32, r: i32) -> Option<Piece> {
    g[r as usize][f as usize]
}

/// Squares the piece on (f, r) may move to by its movement rule (not own pieces).
fn pseudo(g: &Grid, f: i32, r: i32) -> Vec<(i32, i32)> {
    let p = at(g, f, r).unwrap();
    let c = p.color;
    let mut out = vec![];
    let orth = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    match p.role {
        Role::King => {
            for (df, dr) in orth {
                if in_palace(c, f + df, r + dr) {
                    out.push((f + df, r + dr));
                }
            }
        }
        Role::Advisor => {
            for (df, dr) in diag {
                if in_palace(c, f + df, r + dr) {
                    out.push((f + df, r + dr));
                }
            }
        }
        Role::Elephant => {
            for (df, dr) in diag {
                let (tf, tr) = (f + 2 * df, r + 2 * dr);
                if on(tf, tr) && own_side(c, tr) && at(g, f + df, r + dr).is_none() {
                    out.push((tf, tr));
                }
            }
        }
        Role::Horse => {
            for (lf, lr) in orth {
                if !on(f + lf, r + lr) || at(g, f + lf, r + lr).is_some() {
                    continue;
                }
                for side in [-1, 1] {
                    let (tf, tr) = if lf == 0 {
                        (f + side, r + 2 * lr)
                    } else {
                        (f + 2 * lf, r + side)
                    };
                    if on(tf, tr) {
                        out.push((tf, tr));
                    }
                }
            }
        }
        Role::Rook | Role::Cannon => {
            for (df, dr) in orth {
                let (mut tf, mut tr) = (f + df, r + dr);
                let mut screens = 0;
                while on(tf, tr) {
                    let occupied = at(g, tf, tr).is_some();
                    if p.role == Role::Rook {
                        out.push((tf, tr));
                        if occupied {
                            break;
                        }
                    } else if screens == 0 {
                        if occupied {
                            screens = 1;
                        } else {
                            out.push((tf, tr));
                        }
                    } else if occupied {
                        out.push((tf, tr));
                        break;
                    }
                    tf += df;
                    tr += dr;
                }
            }
        }
        Role::Pawn => {
            let fwd = if c == Color::Red { 1 } else { -1 };
            if on(f, r + fwd) {
                out.push((f, r + fwd));
            }
            if !own_side(c, r) {
                for df in [-1, 1] {
                    if on(f + df, r) {
                        out.push((f + df, r));
                    }
                }
            }
        }
    }
    out.retain(|&(tf, tr)| at(g, tf, tr).is_none_or(|q| q.color != c));
    out
}

fn king(g: &Grid, c: Color) -> (i32, i32) {
    for r in 0..10 {
        for f in 0..9 {
            if at(g, f, r) == Some(Piece::new(c, Role::King)) {
                return (f, r);
            }
        }
    }
    panic!("no king");
}

fn kings_facing(g: &Grid) -> bool {
    let (rf, rr) = king(g, Color::Red);
    let (bf, br) = king(g, Color::Black);
    rf == bf && (rr + 1..br).all(|r| at(g, rf, r).is_none())
}

/// Enemy pieces attacking `c`'s king, plus the enemy king when the kings face.
fn checkers(g: &Grid, c: Color) -> BTreeSet<(i32, i32)> {
    let k = king(g, c);
    let mut out = BTreeSet::new();
    for r in 0..10 {
        for f in 0..9 {
            if let Some(p) = at(g, f, r) {
                if p.color != c && pseudo(g, f, r).contains(&k) {
                    out.insert((f, r));
                }
            }
        }
    }
    if kings_facing(g) {
        out.insert(king(g, c.other()));
    }
    out
}

fn apply(g: &Grid, from: (i32, i32), to: (i32, i32)) -> Grid {
    let mut n = *g;
    n[to.1 as usize][to.0 as usize] = n[from.1 as usize][from.0 as usize].take();
    n
}

fn sq(f: i32, r: i32) -> Square {
    Square::new(f as u8, r as u8).unwrap()
}

fn reference_legal(g: &Grid, us: Color) -> BTreeSet<Move> {
    let mut out = BTreeSet::new();
    for r in 0..10 {
        for f in 0..9 {
            if at(g, f, r).is_some_and(|p| p.color == us) {
                for t in pseudo(g, f, r) {
                    if checkers(&apply(g, (f, r), t), us).is_empty() {
                        out.insert(Move::new(sq(f, r), sq(t.0, t.1)));
                    }
                }
            }
        }
    }
    out
}

/// Tiny deterministic PRNG (xorshift64*), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn check_position(pos: &Position) {
    let g = grid(pos);
    let us = pos.turn();
    let fen = pos.to_fen();
    let ours: BTreeSet<Move> = pos.legal_moves().iter().copied().collect();
    let reference = reference_legal(&g, us);
    assert_eq!(ours, reference, "legal moves differ in {fen}");

    let ref_checkers: Vec<Square> = checkers(&g, us).iter().map(|&(f, r)| sq(f, r)).collect();
    assert_eq!(pos.is_check(), !ref_checkers.is_empty(), "{fen}");
    let mut got = pos.checkers();
    got.sort();
    let mut want = ref_checkers.clone();
    want.sort();
    assert_eq!(got, want, "checkers in {fen}");

    assert_eq!(
        pos.is_checkmate(),
        ours.is_empty() && pos.is_check(),
        "{fen}"
    );
    assert_eq!(
        pos.is_stalemate(),
        ours.is_empty() && !pos.is_check(),
        "{fen}"
    );
    assert_eq!(pos.outcome().is_some(), ours.is_empty(), "{fen}");

    // check_move and is_legal agree with the move list on every from/to pair.
    for from in Square::all() {
        for to in Square::all() {
            let m = Move::new(from, to);
            assert_eq!(
                pos.check_move(m).is_ok(),
                ours.contains(&m),
                "check_move {m} in {fen}"
            );
            assert_eq!(pos.is_legal(m), ours.contains(&m), "is_legal {m} in {fen}");
        }
    }

    // The rulebook's generators: checking moves, captures and replies to
    // check are sublists of the legal moves, in their order, with exactly
    // the moves the reference says give check, take a piece, or parry.
    let in_order = pos.legal_moves();
    let gives = |m: Move| {
        let after = apply(
            &g,
            (m.from.file() as i32, m.from.rank() as i32),
            (m.to.file() as i32, m.to.rank() as i32),
        );
        !checkers(&after, us.other()).is_empty()
    };
    let want: Vec<Move> = in_order.iter().copied().filter(|&m| gives(m)).collect();
    assert_eq!(
        pos.checking_moves().to_vec(),
        want,
        "checking moves in {fen}"
    );
    let want: Vec<Move> = in_order
        .iter()
        .copied()
        .filter(|m| {
            at(&g, m.to.file() as i32, m.to.rank() as i32)
                .is_some_and(|p| p.color != us && p.role != Role::King)
        })
        .collect();
    assert_eq!(pos.captures().to_vec(), want, "captures in {fen}");
    let k = pos.king_square(us);
    let want: Vec<Move> = in_order.iter().copied().filter(|m| m.from != k).collect();
    match pos.evasions() {
        Some(e) => assert_eq!(e.to_vec(), want, "evasions in {fen}"),
        None => assert!(ref_checkers.is_empty(), "no evasions in check in {fen}"),
    }
    assert_eq!(pos.has_legal_move(), !ours.is_empty(), "{fen}");

    // gives_check, make/unmake and the hash.
    for &m in &ours {
        let after_ref = apply(
            &g,
            (m.from.file() as i32, m.from.rank() as i32),
            (m.to.file() as i32, m.to.rank() as i32),
        );
        assert_eq!(
            pos.gives_check(m),
            !checkers(&after_ref, us.other()).is_empty(),
            "gives_check {m} in {fen}"
        );
        let mut p = pos.clone();
        let undo = p.play_unchecked(m);
        let fresh = Position::from_fen(&p.to_fen()).expect("legal after a legal move");
        assert_eq!(p, fresh, "state after {m} in {fen}");
        assert_eq!(p.zobrist(), fresh.zobrist(), "hash after {m} in {fen}");
        // The remembered check flag follows the moves made and taken back.
        assert_eq!(
            p.is_check(),
            !checkers(&after_ref, us.other()).is_empty(),
            "is_check after {m} in {fen}"
        );
        p.unplay(m, undo);
        assert_eq!(&p, pos, "unplay {m} in {fen}");
        assert_eq!(p.zobrist(), pos.zobrist());
        assert_eq!(
            p.is_check(),
            !ref_checkers.is_empty(),
            "unplay {m} in {fen}"
        );
        let undo = p.play_unchecked(m);
        p.unplay(m, undo);
        assert_eq!(
            p.is_check(),
            !ref_checkers.is_empty(),
            "unplay {m} in {fen}"
        );
    }

    // attackers: by movement rule, on every square, for both colours.
    for t in Square::all() {
        let (tf, tr) = (t.file() as i32, t.rank() as i32);
        for by in [Color::Red, Color::Black] {
            let mut g2 = g;
            let target = at(&g, tf, tr);
            let enemy_king_here = target == Some(Piece::new(by.other(), Role::King));
            if target.is_some_and(|p| p.color == by) {
                // A defended piece: look at it as if it were an enemy.
                g2[tr as usize][tf as usize] = Some(Piece::new(by.other(), Role::Pawn));
            }
            let mut want = BTreeSet::new();
            for r in 0..10 {
                for f in 0..9 {
                    if at(&g2, f, r).is_some_and(|p| p.color == by)
                        && pseudo(&g2, f, r).contains(&(tf, tr))
                    {
                        want.insert(sq(f, r));
                    }
                }
            }
            if enemy_king_here && kings_facing(&g) {
                want.insert(pos.king_square(by));
            }
            let got: BTreeSet<Square> = pos.attackers(t, by).into_iter().collect();
            assert_eq!(got, want, "attackers of {t} by {by} in {fen}");
            let iterated: BTreeSet<Square> = pos.attackers_iter(t, by).collect();
            assert_eq!(iterated, want);
            assert_eq!(pos.is_attacked(t, by), !want.is_empty());
        }
    }
}

#[test]
fn random_games_agree_with_reference() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = 0;
    for _game in 0..40 {
        let mut pos = Position::new();
        for _ply in 0..160 {
            check_position(&pos);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.below(3) > 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play(m).unwrap();
        }
    }
    assert!(positions > 2_000, "only {positions} positions");
}

#[test]
fn special_positions_agree_with_reference() {
    for fen in [
        "4k4/4a4/4c4/2p1R1p2/4n4/2P1N1P2/4C4/9/4A4/4K4 w - - 0 1",
        "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
        "3k5/3P5/9/9/9/9/9/9/9/4K4 b - - 0 1",
    ] {
        check_position(&Position::from_fen(fen).unwrap());
    }
}
