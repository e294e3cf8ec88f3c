//! Finding repetition cycles (循环) from position hashes.
//!
//! `hashes[i]` is the Zobrist hash (side to move included) of the position
//! after `i` plies, `hashes[0]` the starting position. The software's alert
//! (docs/rules.md, "The repetition procedure"): a position occurring for the
//! third time. The cycle reported is the one between its last two
//! occurrences; the moves classified are those of the whole repetition, from
//! the occurrence before it ([`earlier_occurrence`]) to the last, when its two
//! cycles differ (`repetition.rs`).

/// A cycle: plies `start..end` (move `i` leads from position `i` to `i + 1`)
/// lead from a position back to the same position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Index of the position where the cycle starts (its previous occurrence).
    pub start: usize,
    /// Index of the position where it ends (the repeated position).
    pub end: usize,
    /// How many times that position has occurred, this one included.
    pub occurrences: usize,
}

impl Cycle {
    /// Plies in the cycle.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the cycle is empty (never for a cycle found here).
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// The cycle ending at the last position when that position has occurred at
/// least `min_occurrences` times (3 for the AXF alert).
pub fn final_cycle(hashes: &[u64], min_occurrences: usize) -> Option<Cycle> {
    let (&last, rest) = hashes.split_last()?;
    let occurrences = 1 + rest.iter().filter(|&&h| h == last).count();
    if occurrences < min_occurrences.max(2) {
        return None;
    }
    let start = rest.iter().rposition(|&h| h == last)?;
    Some(Cycle {
        start,
        end: hashes.len() - 1,
        occurrences,
    })
}

/// The index of the occurrence of the repeated position before `cycle.start`
/// in `hashes` (the ones `cycle` was found in): where the repetition of three
/// occurrences ending at `cycle.end` began. `None` with fewer than three.
pub fn earlier_occurrence(hashes: &[u64], cycle: &Cycle) -> Option<usize> {
    let repeated = *hashes.get(cycle.end)?;
    hashes
        .get(..cycle.start)?
        .iter()
        .rposition(|&h| h == repeated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn third_occurrence_gives_the_last_cycle() {
        let h = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        let c = final_cycle(&h, 3).unwrap();
        assert_eq!((c.start, c.end, c.occurrences, c.len()), (4, 8, 3, 4));
        assert!(final_cycle(&h[..5], 3).is_none());
        assert_eq!(final_cycle(&h[..5], 2).unwrap().start, 0);
        assert!(final_cycle(&[], 3).is_none());
        assert_eq!(earlier_occurrence(&h, &c), Some(0));
        let four = [1, 2, 1, 3, 1, 2, 1];
        let c = final_cycle(&four, 3).unwrap();
        assert_eq!((c.start, c.occurrences), (4, 4));
        assert_eq!(earlier_occurrence(&four, &c), Some(2));
        let c2 = final_cycle(&four[..3], 2).unwrap();
        assert_eq!(earlier_occurrence(&four[..3], &c2), None);
    }
}
