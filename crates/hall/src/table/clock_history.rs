//! A table's clock history, compact (时钟记录): the samples the console's
//! table log shows, kept as the change from one sample to the next in
//! 5-9 bytes instead of the wire's 40-byte [`ClockSample`] (issue 40: up
//! to [`MAX_CLOCK_HISTORY`](super::MAX_CLOCK_HISTORY) samples at each of
//! 10,000 tables; 16 bytes a sample in the packed form before this one).
//!
//! The oldest and the newest sample are kept whole; each one after the
//! oldest is kept as its difference from the one before: the time, the
//! plies (with the running side in the low two bits: 0 none, 1 Red,
//! 2 Black) and both clocks, each a zigzag LEB128 varint of the wrapping
//! difference. In a game a press moves the time by seconds, the plies by
//! one and one clock by seconds, so most samples take 6-8 bytes; any value
//! at all (a clock of `u64::MAX` ms, time going backwards, plies taken
//! back) comes back exactly as it went in, never truncated nor saturated.
//! An empty history holds nothing on the heap and 8 bytes in the table.
//! Conversion happens at the edges only: the wire (`TableLog`) and the
//! snapshot (`TableSnap::clock_history`) keep [`ClockSample`].

use std::collections::VecDeque;
use std::mem::size_of;

use proto::{ClockSample, ClockState, Side};

/// A table's clock samples, oldest first (see the module's doc).
#[derive(Clone, Default)]
pub struct ClockHistory {
    /// `None` while empty. Boxed: 8 bytes inline at every table.
    inner: Option<Box<Inner>>,
}

#[derive(Clone)]
struct Inner {
    /// The oldest sample.
    front: ClockSample,
    /// The newest sample (what the next one is told against).
    back: ClockSample,
    /// How many samples, `front` and `back` included.
    len: usize,
    /// Each sample after the oldest, as its change from the one before.
    changes: VecDeque<u8>,
}

/// The side's two bits.
fn side_bits(running: Option<Side>) -> u64 {
    match running {
        None => 0,
        Some(Side::Red) => 1,
        Some(Side::Black) => 2,
    }
}

/// The side of two bits (3 never written).
fn side_of(bits: u64) -> Option<Side> {
    match bits & 3 {
        1 => Some(Side::Red),
        2 => Some(Side::Black),
        _ => None,
    }
}

fn zigzag(d: u64) -> u64 {
    let d = d as i64;
    ((d << 1) ^ (d >> 63)) as u64
}

fn unzigzag(z: u64) -> u64 {
    ((z >> 1) as i64 ^ -((z & 1) as i64)) as u64
}

fn zigzag32(d: u32) -> u32 {
    let d = d as i32;
    ((d << 1) ^ (d >> 31)) as u32
}

fn unzigzag32(z: u32) -> u32 {
    ((z >> 1) as i32 ^ -((z & 1) as i32)) as u32
}

fn put_varint(out: &mut VecDeque<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push_back((v as u8) | 0x80);
        v >>= 7;
    }
    out.push_back(v as u8);
}

/// A varint from `bytes`, counting what it read into `used`.
fn take_varint(bytes: &mut impl Iterator<Item = u8>, used: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = bytes.next()?;
        *used += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// Appends the change from `prev` to `s`.
fn put_change(out: &mut VecDeque<u8>, prev: &ClockSample, s: &ClockSample) {
    put_varint(out, zigzag(s.at_ms.wrapping_sub(prev.at_ms)));
    let plies = u64::from(zigzag32(s.plies.wrapping_sub(prev.plies)));
    put_varint(out, (plies << 2) | side_bits(s.clock.running));
    put_varint(out, zigzag(s.clock.red_ms.wrapping_sub(prev.clock.red_ms)));
    put_varint(
        out,
        zigzag(s.clock.black_ms.wrapping_sub(prev.clock.black_ms)),
    );
}

/// The sample after `prev` read from `bytes` (and the bytes it took).
fn take_change(
    bytes: &mut impl Iterator<Item = u8>,
    prev: &ClockSample,
) -> Option<(ClockSample, usize)> {
    let mut used = 0;
    let at = unzigzag(take_varint(bytes, &mut used)?);
    let plies_side = take_varint(bytes, &mut used)?;
    let red = unzigzag(take_varint(bytes, &mut used)?);
    let black = unzigzag(take_varint(bytes, &mut used)?);
    let plies = unzigzag32(u32::try_from(plies_side >> 2).ok()?);
    let s = ClockSample {
        at_ms: prev.at_ms.wrapping_add(at),
        plies: prev.plies.wrapping_add(plies),
        clock: ClockState {
            red_ms: prev.clock.red_ms.wrapping_add(red),
            black_ms: prev.clock.black_ms.wrapping_add(black),
            running: side_of(plies_side),
        },
    };
    Some((s, used))
}

impl ClockHistory {
    /// An empty history.
    pub fn new() -> ClockHistory {
        ClockHistory::default()
    }

    /// How many samples it holds.
    pub fn len(&self) -> usize {
        self.inner.as_ref().map_or(0, |i| i.len)
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.inner.is_none()
    }

    /// Adds `s` as the newest sample.
    pub fn push_back(&mut self, s: ClockSample) {
        match self.inner.as_mut() {
            None => {
                self.inner = Some(Box::new(Inner {
                    front: s,
                    back: s,
                    len: 1,
                    changes: VecDeque::new(),
                }));
            }
            Some(i) => {
                put_change(&mut i.changes, &i.back, &s);
                i.back = s;
                i.len += 1;
            }
        }
    }

    /// Takes the oldest sample out.
    pub fn pop_front(&mut self) -> Option<ClockSample> {
        let i = self.inner.as_mut()?;
        let oldest = i.front;
        if i.len == 1 {
            self.inner = None;
            return Some(oldest);
        }
        match take_change(&mut i.changes.iter().copied(), &oldest) {
            Some((next, used)) => {
                i.changes.drain(..used);
                i.front = next;
                i.len -= 1;
                debug_assert!(i.len > 1 || i.changes.is_empty());
            }
            // Never: every change was written whole. Were one not, the
            // history would be cut to its newest sample, not misread.
            None => {
                i.front = i.back;
                i.len = 1;
                i.changes.clear();
            }
        }
        Some(oldest)
    }

    /// The oldest sample.
    pub fn front(&self) -> Option<ClockSample> {
        self.inner.as_ref().map(|i| i.front)
    }

    /// The newest sample.
    pub fn back(&self) -> Option<ClockSample> {
        self.inner.as_ref().map(|i| i.back)
    }

    /// The samples, oldest first, as the wire has them.
    pub fn iter(&self) -> impl Iterator<Item = ClockSample> + '_ {
        let mut at = self.inner.as_deref().map(|i| {
            let bytes = i.changes.iter().copied();
            (i.front, bytes, i.len)
        });
        std::iter::from_fn(move || {
            let (prev, bytes, left) = at.as_mut()?;
            if *left == 0 {
                return None;
            }
            let out = *prev;
            *left -= 1;
            if *left > 0 {
                match take_change(bytes, prev) {
                    Some((next, _)) => *prev = next,
                    None => *left = 0,
                }
            }
            Some(out)
        })
    }

    /// Bytes of the changes (what the samples after the oldest take).
    pub fn change_bytes(&self) -> usize {
        self.inner.as_ref().map_or(0, |i| i.changes.len())
    }

    /// Heap bytes held (allocated capacity, not only what is used).
    pub fn heap_bytes(&self) -> usize {
        self.inner
            .as_ref()
            .map_or(0, |i| size_of::<Inner>() + i.changes.capacity())
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
