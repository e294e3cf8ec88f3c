//! Latency samples and their percentiles.

/// Latency samples in microseconds.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    us: Vec<u32>,
}

impl Samples {
    pub fn push(&mut self, d: std::time::Duration) {
        self.us
            .push(u32::try_from(d.as_micros()).unwrap_or(u32::MAX));
    }

    pub fn extend(&mut self, other: Samples) {
        self.us.extend(other.us);
    }

    pub fn len(&self) -> usize {
        self.us.len()
    }

    pub fn is_empty(&self) -> bool {
        self.us.is_empty()
    }

    /// The `p`-th percentile (0..=100) in ms (0 when empty).
    pub fn percentile_ms(&mut self, p: f64) -> f64 {
        if self.us.is_empty() {
            return 0.0;
        }
        self.us.sort_unstable();
        let rank = ((p / 100.0) * (self.us.len() - 1) as f64).round() as usize;
        self.us[rank.min(self.us.len() - 1)] as f64 / 1000.0
    }

    pub fn max_ms(&self) -> f64 {
        self.us.iter().max().map_or(0.0, |&m| m as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn percentiles() {
        let mut s = Samples::default();
        assert_eq!(s.percentile_ms(50.0), 0.0);
        for ms in 1..=100u64 {
            s.push(Duration::from_millis(ms));
        }
        assert_eq!(s.percentile_ms(50.0), 51.0);
        assert_eq!(s.percentile_ms(99.0), 99.0);
        assert_eq!(s.max_ms(), 100.0);
        assert_eq!(s.len(), 100);
    }
}
