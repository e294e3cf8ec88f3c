//! The mover's remaining time after each ply (每步用时, the records'
//! `[%clk]`), packed at 4 bytes a ply (issue 40).
//!
//! A table kept these as `Vec<Option<u64>>`, 16 bytes a ply: a 120-ply
//! game held 2 KiB where 512 bytes do, across 10,000 tables 15 MiB. A
//! clock's remaining time fits a `u32` of milliseconds (49 days) in every
//! real game; a value that does not is kept exactly all the same, in a
//! side list that no normal game ever fills, its place marked in the
//! packed list. Callers see `Option<u64>` a ply, as before: the snapshot,
//! the broadcast and the exports are unchanged.

use std::collections::BTreeMap;
use std::mem::size_of;

/// A ply without a time (played without the mover's press).
const NONE: u32 = u32::MAX;
/// A ply whose time is in [`PlyClocks::wide`].
const WIDE: u32 = u32::MAX - 1;

/// The mover's time after each ply, one entry a ply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlyClocks {
    /// A time a ply (ms), or [`NONE`], or [`WIDE`].
    packed: Vec<u32>,
    /// The times that do not pack, by ply (none in a normal game). Boxed:
    /// 8 bytes at every table for a map almost none ever fills.
    #[allow(
        clippy::box_collection,
        reason = "8 bytes inline at every table, the map rare"
    )]
    wide: Option<Box<BTreeMap<usize, u64>>>,
}

impl PlyClocks {
    /// No plies.
    pub fn new() -> PlyClocks {
        PlyClocks::default()
    }

    /// A copy with room for `more` plies past these: a copy that grows at
    /// once does not double its list (the broadcast copies a game it shows
    /// for each change while the view before still holds it).
    pub fn with_room(&self, more: usize) -> PlyClocks {
        let mut packed = Vec::with_capacity(self.packed.len() + more);
        packed.extend_from_slice(&self.packed);
        PlyClocks {
            packed,
            wide: self.wide.clone(),
        }
    }

    /// From one entry a ply.
    pub fn from_times(times: &[Option<u64>]) -> PlyClocks {
        let mut clocks = PlyClocks::new();
        clocks.resize(times.len());
        for (ply, ms) in times.iter().enumerate() {
            if let Some(ms) = ms {
                clocks.set(ply, *ms);
            }
        }
        clocks
    }

    /// How many plies it covers.
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    /// Whether it covers none.
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// The mover's time after `ply` (0-based), if that ply has one.
    pub fn get(&self, ply: usize) -> Option<u64> {
        match *self.packed.get(ply)? {
            NONE => None,
            WIDE => self.wide.as_ref()?.get(&ply).copied(),
            ms => Some(u64::from(ms)),
        }
    }

    /// Covers exactly `plies` plies: new ones without a time, the ones past
    /// the end (taken back) dropped with their times.
    pub fn resize(&mut self, plies: usize) {
        self.packed.resize(plies, NONE);
        if let Some(wide) = self.wide.as_mut() {
            wide.split_off(&plies);
            if wide.is_empty() {
                self.wide = None;
            }
        }
    }

    /// Records `ms` as the time after `ply`, which must be covered
    /// ([`PlyClocks::resize`]); a ply past the end is ignored.
    pub fn set(&mut self, ply: usize, ms: u64) {
        let Some(slot) = self.packed.get_mut(ply) else {
            return;
        };
        match u32::try_from(ms) {
            Ok(small) if small < WIDE => {
                *slot = small;
                if let Some(wide) = self.wide.as_mut() {
                    wide.remove(&ply);
                    if wide.is_empty() {
                        self.wide = None;
                    }
                }
            }
            _ => {
                *slot = WIDE;
                self.wide
                    .get_or_insert_with(Default::default)
                    .insert(ply, ms);
            }
        }
    }

    /// One entry a ply, from `from` on.
    pub fn times_from(&self, from: usize) -> Vec<Option<u64>> {
        (from..self.len()).map(|ply| self.get(ply)).collect()
    }

    /// One entry a ply.
    pub fn times(&self) -> Vec<Option<u64>> {
        self.times_from(0)
    }

    /// Heap bytes held (capacity; the side map counted by entry).
    pub fn heap_bytes(&self) -> usize {
        self.packed.capacity() * size_of::<u32>()
            + self
                .wide
                .as_ref()
                .map_or(0, |w| w.len() * (size_of::<usize>() + size_of::<u64>()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip_with_gaps_and_values_too_wide_to_pack() {
        let times = [
            Some(0),
            None,
            Some(299_000),
            Some(u64::from(WIDE)),
            Some(u64::from(NONE)),
            Some(u64::from(WIDE) - 1),
            Some(u64::MAX),
            None,
        ];
        let clocks = PlyClocks::from_times(&times);
        assert_eq!(clocks.len(), times.len());
        assert_eq!(clocks.times(), times.to_vec());
        for (ply, t) in times.iter().enumerate() {
            assert_eq!(clocks.get(ply), *t, "ply {ply}");
        }
        assert_eq!(clocks.get(times.len()), None);
        assert_eq!(clocks.times_from(5), times[5..].to_vec());
        assert_eq!(clocks.wide.as_ref().map(|w| w.len()), Some(3));
    }

    #[test]
    fn taking_plies_back_drops_their_times_wide_or_not() {
        let mut clocks = PlyClocks::from_times(&[Some(1), Some(u64::MAX), Some(3)]);
        clocks.resize(1);
        assert_eq!(clocks.times(), vec![Some(1)]);
        assert!(
            clocks.wide.is_none(),
            "the side map goes with its last entry"
        );
        clocks.resize(3);
        assert_eq!(clocks.times(), vec![Some(1), None, None]);
        clocks.set(2, 7);
        clocks.set(9, 7);
        assert_eq!(clocks.times(), vec![Some(1), None, Some(7)]);
    }

    #[test]
    fn a_ply_set_again_keeps_only_its_latest_time() {
        let mut clocks = PlyClocks::new();
        clocks.resize(2);
        clocks.set(0, u64::MAX);
        clocks.set(0, 5);
        assert_eq!(clocks.get(0), Some(5));
        assert!(clocks.wide.is_none());
        clocks.set(1, 5);
        clocks.set(1, u64::from(u32::MAX) + 1);
        assert_eq!(clocks.times(), vec![Some(5), Some(u64::from(u32::MAX) + 1)]);
    }

    #[test]
    fn a_ply_costs_four_bytes() {
        let mut clocks = PlyClocks::new();
        clocks.resize(128);
        for ply in 0..128 {
            clocks.set(ply, 300_000 - ply as u64 * 1000);
        }
        assert_eq!(clocks.heap_bytes(), 512);
    }
}
