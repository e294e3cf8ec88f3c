//! A table's clock history, compact (时钟记录): the samples the console's
//! table log shows, kept in 16 bytes each instead of the wire's 40-byte
//! [`ClockSample`] (issue 40: up to [`MAX_CLOCK_HISTORY`](super::MAX_CLOCK_HISTORY)
//! samples at each of 10,000 tables).
//!
//! A sample is packed as its time in ms after the history's base (the
//! first sample's time, taken while the history is empty), the plies and
//! the running side in one word (plies × 4 + side: 0 none, 1 Red, 2 Black),
//! and both clocks in ms, each a `u32`. A sample that does not fit (a clock
//! over `u32::MAX` ms, a time before the base or more than 49 days after
//! it, over 2^30 − 1 plies) is kept whole, in order, in a rare wide list
//! beside the packed ones, and a marker (side 3) holds its place: every
//! value comes back exactly as it went in, never truncated nor saturated.
//! Conversion happens at the edges only: the wire (`TableLog`) and the
//! snapshot (`TableSnap::clock_history`) keep [`ClockSample`].

use std::collections::VecDeque;
use std::mem::size_of;

use proto::{ClockSample, ClockState, Side};

/// The side bits of a packed word that mark a wide sample.
const WIDE: u32 = 3;

/// The most plies a packed word holds (30 bits).
pub const MAX_PACKED_PLIES: u32 = u32::MAX >> 2;

/// One sample, packed (16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackedSample {
    /// Time after the history's base, ms.
    after_base_ms: u32,
    /// Plies × 4 + the running side (0 none, 1 Red, 2 Black; 3: a marker
    /// for the next wide sample, the other fields unused).
    plies_side: u32,
    /// Red's time, ms.
    red_ms: u32,
    /// Black's time, ms.
    black_ms: u32,
}

impl PackedSample {
    /// The marker holding a wide sample's place.
    const MARKER: PackedSample = PackedSample {
        after_base_ms: 0,
        plies_side: WIDE,
        red_ms: 0,
        black_ms: 0,
    };

    /// `s` packed against `base_ms`, or `None` when a value does not fit.
    fn pack(s: &ClockSample, base_ms: u64) -> Option<PackedSample> {
        let after_base_ms = u32::try_from(s.at_ms.checked_sub(base_ms)?).ok()?;
        if s.plies > MAX_PACKED_PLIES {
            return None;
        }
        let side = match s.clock.running {
            None => 0,
            Some(Side::Red) => 1,
            Some(Side::Black) => 2,
        };
        Some(PackedSample {
            after_base_ms,
            plies_side: (s.plies << 2) | side,
            red_ms: u32::try_from(s.clock.red_ms).ok()?,
            black_ms: u32::try_from(s.clock.black_ms).ok()?,
        })
    }

    /// Whether this holds a wide sample's place.
    fn is_marker(&self) -> bool {
        self.plies_side & 3 == WIDE
    }

    /// The sample, or `None` for a marker.
    fn unpack(&self, base_ms: u64) -> Option<ClockSample> {
        let running = match self.plies_side & 3 {
            0 => None,
            1 => Some(Side::Red),
            2 => Some(Side::Black),
            _ => return None,
        };
        Some(ClockSample {
            at_ms: base_ms + u64::from(self.after_base_ms),
            plies: self.plies_side >> 2,
            clock: ClockState {
                red_ms: u64::from(self.red_ms),
                black_ms: u64::from(self.black_ms),
                running,
            },
        })
    }
}

/// A table's clock samples, oldest first, packed (see the module's doc).
#[derive(Clone, Default)]
pub struct ClockHistory {
    /// The time the packed samples count from (Unix ms).
    base_ms: u64,
    /// Every sample in order, a marker for each wide one.
    packed: VecDeque<PackedSample>,
    /// The samples that do not pack, in order (none in a normal game).
    /// Boxed: 8 bytes inline at every table rather than an empty deque's
    /// 32, for a list almost no table ever fills.
    #[allow(
        clippy::box_collection,
        reason = "8 bytes inline at every table, the list rare"
    )]
    wide: Option<Box<VecDeque<ClockSample>>>,
}

impl ClockHistory {
    /// An empty history.
    pub fn new() -> ClockHistory {
        ClockHistory::default()
    }

    /// How many samples it holds.
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// How many samples are kept wide.
    pub fn wide_len(&self) -> usize {
        self.wide.as_ref().map_or(0, |w| w.len())
    }

    /// How many markers hold wide samples' places (equal to
    /// [`ClockHistory::wide_len`]: the invariants check it).
    pub fn markers(&self) -> usize {
        self.packed.iter().filter(|p| p.is_marker()).count()
    }

    /// Adds `s` as the newest sample.
    pub fn push_back(&mut self, s: ClockSample) {
        if self.packed.is_empty() {
            self.base_ms = s.at_ms;
        }
        match PackedSample::pack(&s, self.base_ms) {
            Some(p) => self.packed.push_back(p),
            None => {
                self.packed.push_back(PackedSample::MARKER);
                self.wide.get_or_insert_with(Box::default).push_back(s);
            }
        }
    }

    /// Takes the oldest sample out.
    pub fn pop_front(&mut self) -> Option<ClockSample> {
        let p = self.packed.pop_front()?;
        if !p.is_marker() {
            return p.unpack(self.base_ms);
        }
        let wide = self.wide.as_mut()?;
        let s = wide.pop_front();
        if wide.is_empty() {
            self.wide = None;
        }
        s
    }

    /// The oldest sample.
    pub fn front(&self) -> Option<ClockSample> {
        let p = self.packed.front()?;
        if p.is_marker() {
            self.wide.as_ref()?.front().copied()
        } else {
            p.unpack(self.base_ms)
        }
    }

    /// The newest sample.
    pub fn back(&self) -> Option<ClockSample> {
        let p = self.packed.back()?;
        if p.is_marker() {
            self.wide.as_ref()?.back().copied()
        } else {
            p.unpack(self.base_ms)
        }
    }

    /// The samples, oldest first, as the wire has them.
    pub fn iter(&self) -> impl Iterator<Item = ClockSample> + '_ {
        let mut wide = self.wide.iter().flat_map(|w| w.iter().copied());
        self.packed.iter().filter_map(move |p| {
            if p.is_marker() {
                wide.next()
            } else {
                p.unpack(self.base_ms)
            }
        })
    }

    /// Heap bytes held (allocated capacity, not only what is used).
    pub fn heap_bytes(&self) -> usize {
        self.packed.capacity() * size_of::<PackedSample>()
            + self.wide.as_ref().map_or(0, |w| {
                size_of::<VecDeque<ClockSample>>() + w.capacity() * size_of::<ClockSample>()
            })
    }
}

impl FromIterator<ClockSample> for ClockHistory {
    fn from_iter<I: IntoIterator<Item = ClockSample>>(samples: I) -> ClockHistory {
        let mut h = ClockHistory::new();
        for s in samples {
            h.push_back(s);
        }
        h
    }
}

impl std::fmt::Debug for ClockHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests;
