//! Think times (思考时间) of replayed players: a seeded distribution shaped
//! like tournament play — quick opening moves, then a log-normal spread
//! around ~45 s with long thinks now and then — never more than a share of
//! the time left, so a replayed player does not lose on time by accident.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Think times of one table's players.
#[derive(Debug)]
pub struct Thinker {
    rng: StdRng,
}

impl Thinker {
    pub fn new(seed: u64) -> Thinker {
        Thinker {
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Game time (ms) the player takes for ply `ply` with `remaining_ms`
    /// on its clock and `increment_ms` to come.
    pub fn think_ms(&mut self, ply: usize, remaining_ms: u64, increment_ms: u64) -> u64 {
        let raw = if ply < 16 {
            self.rng.random_range(2_000..15_000)
        } else {
            // Log-normal: median 45 s, sigma 0.8 (Box-Muller normal).
            let u1: f64 = self.rng.random_range(f64::EPSILON..1.0);
            let u2: f64 = self.rng.random_range(0.0..1.0);
            let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
            (45_000.0 * (0.8 * z).exp()) as u64
        };
        let cap = (remaining_ms / 8 + increment_ms / 2).clamp(1_000, 600_000);
        raw.clamp(1_000, cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_bounded() {
        let a: Vec<u64> = {
            let mut t = Thinker::new(7);
            (0..200).map(|p| t.think_ms(p, 4_800_000, 30_000)).collect()
        };
        let b: Vec<u64> = {
            let mut t = Thinker::new(7);
            (0..200).map(|p| t.think_ms(p, 4_800_000, 30_000)).collect()
        };
        assert_eq!(a, b);
        assert!(a.iter().all(|&ms| (1_000..=600_000).contains(&ms)));
        let late: u64 = a[16..].iter().sum::<u64>() / (a.len() as u64 - 16);
        assert!((20_000..120_000).contains(&late), "mean {late}");
        let mut t = Thinker::new(1);
        assert!(t.think_ms(40, 16_000, 0) <= 2_000, "short of time: quick");
    }
}
