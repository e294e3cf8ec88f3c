//! Repetition benchmarks (divan): adjudications per second on an 80-ply game
//! whose last 8 plies repeat (benches/game80.json: the first 72 plies of a
//! real game of ../shared/data/games, then a rook and a cannon shuffling), and
//! the per-move cost of the incremental checker the server runs after every
//! move. Run: `cargo bench -p rulebook --bench repetition`. The same input
//! through pyffish: `python3 tests/oracle/repetition_pyffish.py --bench`.

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
