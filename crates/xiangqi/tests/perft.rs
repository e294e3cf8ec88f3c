//! Perft node counts: the start position, and positions with flying-general, pin and
//! cannon-screen subtleties. Every count of a non-start position was cross-checked
//! with Fairy-Stockfish (pyffish) by `tests/oracle/perft_pyffish.py`.
//!
//! The slow ones are `#[ignore]`d; run them with
//! `cargo test -p caipan-xiangqi --release --test perft -- --ignored`.

use xiangqi::{perft, perft_divide, perft_parallel, Position};

fn count(fen: &str, depth: u32) -> u64 {
    let pos = Position::from_fen(fen).unwrap();
    perft_parallel(&pos, depth, 2)
}

/// (name, FEN, counts at depth 1, 2, …) — see tests/oracle/perft_pyffish.py.
const POSITIONS: &[(&str, &str, &[u64])] = &[
    (
        "midgame-1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        &[38, 1_128, 43_929, 1_339_047],
    ),
    (
        "midgame-2",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        &[7, 281, 8_620, 326_201],
    ),
    (
        "midgame-3",
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        &[30, 830, 22_787, 649_866],
    ),
    (
        // Hu Ronghua's games, game 51 after 34 plies.
        "hu-ronghua-51-ply34",
        "1n2kab2/4a4/2c1b1c2/4C1n2/p1p1P1r1p/9/P1P1R3P/2N1BC2N/4A4/3AK1B2 w - - 0 1",
        &[37, 1_040, 39_227, 1_221_782],
    ),
    (
        "efile-rook-pins",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        &[28, 516, 14_808, 395_483],
    ),
    (
        "efile-cannons",
        "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
        &[19, 583, 11_714, 376_467],
    ),
    (
        // Every piece between the kings on the e-file is pinned by the flying general.
        "flying-general-file",
        "r3k4/4a4/4c4/2p1R1p2/4n4/2P1N1P2/4C4/9/4A4/4K3R b - - 0 1",
        &[30, 1_167, 33_564, 1_355_237],
    ),
    (
        // Black is in check from the cannon e4 over its own elephant e7; the cannon e1
        // behind it checks as soon as the front cannon's screen changes.
        "discovered-cannon",
        "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1",
        &[2, 54, 294, 8_493, 62_295, 1_784_528],
    ),
    (
        "cannon-screens",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        &[28, 222, 6_241, 64_971, 1_914_306],
    ),
    (
        "horse-cannon-end",
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        &[23, 345, 8_124, 149_272, 3_513_104],
    ),
    (
        "rook-horse-end",
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        &[21, 364, 7_626, 162_837, 3_500_505],
    ),
    (
        "offset-kings-end",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        &[25, 424, 9_850, 202_884, 4_739_553],
    ),
];

/// Counts up to this many nodes run in the default test pass; larger ones are ignored.
const FAST_LIMIT: u64 = 2_000_000;

#[test]
fn start_position_to_depth_4() {
    let start = Position::new();
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 44);
    assert_eq!(perft(&start, 2), 1_920);
    assert_eq!(perft(&start, 3), 79_666);
    assert_eq!(perft_parallel(&start, 4, 2), 3_290_240);
}

#[test]
#[ignore = "133 M nodes: cargo test -p caipan-xiangqi --release --test perft -- --ignored"]
fn start_position_depth_5() {
    assert_eq!(perft_parallel(&Position::new(), 5, 2), 133_312_995);
}

#[test]
fn positions_up_to_two_million_nodes() {
    for (name, fen, counts) in POSITIONS {
        for (i, &expected) in counts.iter().enumerate() {
            if expected <= FAST_LIMIT {
                assert_eq!(count(fen, i as u32 + 1), expected, "{name} depth {}", i + 1);
            }
        }
    }
}

#[test]
#[ignore = "about 12 M nodes: cargo test -p caipan-xiangqi --release --test perft -- --ignored"]
fn positions_beyond_two_million_nodes() {
    for (name, fen, counts) in POSITIONS {
        for (i, &expected) in counts.iter().enumerate() {
            if expected > FAST_LIMIT {
                assert_eq!(count(fen, i as u32 + 1), expected, "{name} depth {}", i + 1);
            }
        }
    }
}

#[test]
fn divide_and_parallel_agree_with_perft() {
    for (name, fen, counts) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        let divided: u64 = perft_divide(&pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(divided, counts[2], "{name}");
        assert_eq!(perft(&pos, 3), counts[2], "{name}");
        assert_eq!(perft_parallel(&pos, 3, 3), counts[2], "{name}");
    }
}
