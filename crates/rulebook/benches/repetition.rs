//! Repetition benchmarks (divan): adjudications per second on an 80-ply game
//! whose last 8 plies repeat (benches/game80.json: the first 72 plies of a
//! real game of data/games/hu-ronghua-1391.pgn, then a rook and a cannon
//! shuffling), and
//! the per-move cost of the incremental checker the server runs after every
//! move, without a repetition and while one goes on (an alert every ply).
//! Run: `cargo bench -p caipan-rulebook --bench repetition`. The same input through
//! pyffish in the same run, with the ratios:
//! `python3 tests/oracle/repetition_bench.py`.

use rulebook::repetition::{judge_game, RepetitionWatch};
use rulebook::RuleSet;
use xiangqi::{parse_iccs, Move, Position};

fn main() {
    divan::main();
}

const GAME80: &str = include_str!("game80.json");

fn game() -> (Position, Vec<Move>) {
    let v: serde_json::Value = serde_json::from_str(GAME80).expect("game80.json");
    let pos = Position::from_fen(v["fen"].as_str().expect("fen")).expect("fen");
    let moves = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| parse_iccs(m.as_str().expect("move")).expect("iccs"))
        .collect();
    (pos, moves)
}

/// One `caipan adjudicate` input line, parsed, replayed and ruled (JSON in, JSON out).
#[divan::bench]
fn adjudicate_line_80_plies(bencher: divan::Bencher) {
    let line =
        serde_json::to_string(&serde_json::from_str::<serde_json::Value>(GAME80).unwrap()).unwrap();
    bencher.bench(|| rulebook::adjudicate_line(divan::black_box(&line)));
}

/// Replay + cycle detection + ruling, without JSON.
#[divan::bench]
fn judge_game_80_plies(bencher: divan::Bencher) {
    let (pos, moves) = game();
    bencher.bench(|| {
        judge_game(
            divan::black_box(&pos),
            divan::black_box(&moves),
            RuleSet::Axf,
        )
    });
}

/// The incremental checker over the first 72 plies (no repetition yet):
/// the per-move cost the server pays after every move (throughput in moves).
#[divan::bench]
fn watch_per_move(bencher: divan::Bencher) {
    let (start, moves) = game();
    let moves = &moves[..72];
    let mut positions = Vec::with_capacity(moves.len());
    let mut p = start.clone();
    for &m in moves {
        p.play_unchecked(m);
        positions.push(p.clone());
    }
    bencher
        .counter(divan::counter::ItemsCount::new(moves.len()))
        .bench(|| {
            let mut w = RepetitionWatch::new(&start, RuleSet::Axf);
            for (m, pos) in moves.iter().zip(&positions) {
                divan::black_box(w.push(*m, pos));
            }
        });
}

/// The incremental checker while a repetition goes on: the 80-ply game, then
/// its last cycle played five more times; every one of these 20 plies raises
/// an alert with a ruling (throughput in moves, timed from ply 80 on).
#[divan::bench]
fn watch_repeating_per_move(bencher: divan::Bencher) {
    let (start, mut moves) = game();
    let n = moves.len();
    let cycle: Vec<Move> = moves[n - 4..].to_vec();
    for _ in 0..5 {
        moves.extend_from_slice(&cycle);
    }
    let mut positions = Vec::with_capacity(moves.len());
    let mut p = start.clone();
    for &m in &moves {
        p.play_unchecked(m);
        positions.push(p.clone());
    }
    let mut warm = RepetitionWatch::new(&start, RuleSet::Axf);
    for (m, pos) in moves[..n].iter().zip(&positions) {
        warm.push(*m, pos);
    }
    bencher
        .counter(divan::counter::ItemsCount::new(moves.len() - n))
        .with_inputs(|| warm.clone())
        .bench_local_values(|mut w| {
            for (m, pos) in moves[n..].iter().zip(&positions[n..]) {
                divan::black_box(w.push(*m, pos));
            }
            w
        });
}
