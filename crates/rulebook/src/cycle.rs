//! Finding repetition cycles (循环) from position hashes.
//!
//! `hashes[i]` is the Zobrist hash (side to move included) of the position
//! after `i` plies, `hashes[0]` the starting position. The software's alert
//! (docs/rules.md, "The repetition procedure"): a position occurring for the
//! third time; the cycle classified is the one between its last two occurrences.

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
    }
}
