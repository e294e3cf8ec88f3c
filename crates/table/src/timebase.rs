//! The terminal's monotonic time in ms: real time (a hall terminal), or
//! real time scaled by a speed factor (the replayer plays hours of games in
//! minutes, and the clock of record runs at the same scale).

use std::time::{Duration, Instant};

/// A monotonic ms clock with an origin, a base and a speed.
#[derive(Debug, Clone, Copy)]
pub struct Timebase {
    origin: Instant,
    base_ms: u64,
    speed: f64,
}

impl Timebase {
    /// Real time starting at `base_ms` now.
    pub fn real(base_ms: u64) -> Timebase {
        Timebase::scaled(base_ms, 1.0)
    }

    /// Time running `speed` times faster than real time (at least 0.001).
    pub fn scaled(base_ms: u64, speed: f64) -> Timebase {
        Timebase {
            origin: Instant::now(),
            base_ms,
            speed: if speed.is_finite() {
                speed.max(0.001)
            } else {
                1.0
            },
        }
    }

    /// The time now.
    pub fn now_ms(&self) -> u64 {
        let game = self.origin.elapsed().as_secs_f64() * 1000.0 * self.speed;
        self.base_ms.saturating_add(game as u64)
    }

    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Real time that `game_ms` of this time take.
    pub fn real_for(&self, game_ms: u64) -> Duration {
        Duration::from_secs_f64(game_ms as f64 / 1000.0 / self.speed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_time_runs_faster() {
        let t = Timebase::scaled(1_000, 100.0);
        assert!(t.now_ms() >= 1_000);
        assert_eq!(t.real_for(100_000), Duration::from_secs(1));
        std::thread::sleep(Duration::from_millis(20));
        assert!(t.now_ms() >= 3_000);
        assert_eq!(Timebase::scaled(0, f64::NAN).speed(), 1.0);
    }
}
