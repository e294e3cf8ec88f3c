//! Drawing lots (抽签) from a seed: a small deterministic generator
//! (splitmix64) so that the same seed always draws the same lots, on every
//! machine and in every version that keeps this module unchanged.

/// A deterministic stream of lots from a seed.
#[derive(Clone, Debug)]
pub struct Lots {
    state: u64,
}

impl Lots {
    /// Starts the stream at `seed`.
    pub fn new(seed: u64) -> Lots {
        Lots { state: seed }
    }

    /// The next 64-bit number (splitmix64).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`), without modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_draw_and_seeds_differ() {
        let draw = |seed| {
            let mut v: Vec<u32> = (1..=20).collect();
            Lots::new(seed).shuffle(&mut v);
            v
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        let mut sorted = draw(7);
        sorted.sort();
        assert_eq!(sorted, (1..=20).collect::<Vec<_>>());
    }
}
