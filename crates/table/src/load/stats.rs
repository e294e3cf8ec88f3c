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

    /// The samples as `(µs, count)` pairs in ascending order, each value
    /// rounded down to its first [`BUCKET_BITS`] significant bits (under
    /// 0.1 % lower): at most about 22,500 pairs however many samples, so
    /// another process can send its latencies in a bounded message
    /// (`caipan bench hall --client-processes`).
    pub fn buckets(&self) -> Vec<(u32, u64)> {
        self.buckets_with(BUCKET_BITS)
    }

    /// [`Samples::buckets`] keeping `bits` significant bits (fewer bits:
    /// fewer pairs, coarser values; the per-second timeline's histograms
    /// keep [`super::timeline::SECOND_BITS`]).
    pub fn buckets_with(&self, bits: u32) -> Vec<(u32, u64)> {
        let mut counts = std::collections::BTreeMap::<u32, u64>::new();
        for &us in &self.us {
            *counts.entry(bucket_of(us, bits)).or_insert(0) += 1;
        }
        counts.into_iter().collect()
    }

    /// Adds `count` samples of `us` µs (a bucket of [`Samples::buckets`]).
    pub fn push_bucket(&mut self, us: u32, count: u64) {
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        self.us.extend(std::iter::repeat_n(us, count));
    }
}

/// Significant bits a bucket of [`Samples::buckets`] keeps.
pub const BUCKET_BITS: u32 = 11;

/// `us` rounded down to its first `keep` significant bits.
fn bucket_of(us: u32, keep: u32) -> u32 {
    let bits = u32::BITS - us.leading_zeros();
    match bits.checked_sub(keep.max(1)) {
        Some(shift) if shift > 0 => (us >> shift) << shift,
        _ => us,
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

    #[test]
    fn buckets_keep_small_values_and_round_large_ones_by_under_a_thousandth() {
        let mut s = Samples::default();
        for us in [5u32, 5, 2047, 2048, 2049, 123_456_789, u32::MAX] {
            s.push(Duration::from_micros(u64::from(us)));
        }
        let b = s.buckets();
        assert_eq!(b[0], (5, 2));
        assert_eq!(b[1], (2047, 1));
        // 2048 and 2049 share the bucket of 2048 (12 bits, one dropped).
        assert_eq!(b[2], (2048, 2));
        assert_eq!(b.iter().map(|(_, n)| n).sum::<u64>(), 7);
        for &(us, _) in &b[3..] {
            let exact = if us > 100_000_000 && us < 200_000_000 {
                123_456_789
            } else {
                u32::MAX
            };
            assert!(us <= exact && f64::from(exact - us) < f64::from(exact) * 1e-3);
        }
        let mut back = Samples::default();
        for (us, n) in b {
            back.push_bucket(us, n);
        }
        assert_eq!(back.len(), 7);
        assert_eq!(back.percentile_ms(0.0), 0.005);
    }
}
