//! Zobrist keys for hashing positions (repetition detection, 重复局面).
//!
//! Keys are fixed pseudo-random numbers generated at compile time (SplitMix64), so a
//! position hashes to the same value in every build and process.

/// One key per (piece index 0..14, square 0..90).
pub(crate) static PIECE_KEYS: [[u64; 90]; 14] = {
    let mut t = [[0u64; 90]; 14];
    let mut state: u64 = 0x5851_F42D_4C95_7F2D;
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 90 {
            let (next, v) = splitmix64(state);
            state = next;
            t[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    t
};

/// XORed in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = splitmix64(0x1234_5678_9ABC_DEF0).1;

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Key of a piece (index 0..14) on a square (0..90).
#[inline(always)]
pub(crate) fn piece_key(piece: usize, sq: usize) -> u64 {
    PIECE_KEYS[piece][sq]
}
