//! Move-generation speed: perft from the start position and a middlegame, reported
//! as nodes per second (divan `counter`). Run with `cargo bench -p caipan-xiangqi`.
//! The full perft(5) figure (133,312,995 nodes) comes from
//! `cargo run --release -- perft --depth 5` (time and nodes/s on stderr).

use divan::counter::ItemsCount;
use divan::Bencher;
use xiangqi::{perft, Move, Position};

fn main() {
    divan::main();
}

const MIDGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

/// perft(4) from the start position: 3,290,240 nodes, one thread.
#[divan::bench(sample_count = 10)]
fn perft4_start(bencher: Bencher) {
    let pos = Position::new();
    bencher
        .counter(ItemsCount::new(3_290_240u64))
        .bench(|| perft(divan::black_box(&pos), 4));
}

/// perft(4) from a middlegame: 1,339,047 nodes, one thread.
#[divan::bench(sample_count = 10)]
fn perft4_midgame(bencher: Bencher) {
    let pos = Position::from_fen(MIDGAME).unwrap();
    bencher
        .counter(ItemsCount::new(1_339_047u64))
        .bench(|| perft(divan::black_box(&pos), 4));
}

/// One legal-move generation (the unit of work behind chase detection).
#[divan::bench]
fn legal_moves_midgame(bencher: Bencher) {
    let pos = Position::from_fen(MIDGAME).unwrap();
    bencher.bench(|| divan::black_box(&pos).legal_moves().len());
}

/// Attack queries on every square for both sides (what chase detection re-examines).
#[divan::bench]
fn attackers_all_squares(bencher: Bencher) {
    let pos = Position::from_fen(MIDGAME).unwrap();
    bencher.bench(|| {
        let mut n = 0;
        for sq in xiangqi::Square::all() {
            n += pos.attackers(sq, xiangqi::Color::Red).len();
            n += pos.attackers(sq, xiangqi::Color::Black).len();
        }
        n
    });
}

/// Make and unmake of every legal move.
#[divan::bench]
fn play_unplay_all(bencher: Bencher) {
    let pos = Position::from_fen(MIDGAME).unwrap();
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    bencher.bench(|| {
        let mut p = pos.clone();
        let mut h = 0u64;
        for &m in &moves {
            let u = p.play_unchecked(m);
            h ^= p.zobrist();
            p.unplay(m, u);
        }
        h
    });
}
