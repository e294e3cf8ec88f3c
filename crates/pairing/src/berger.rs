//! Round robins (循环制) by FIDE's Berger tables (C.05 Annex 1).
//!
//! For an even number N of places (an odd number of players adds a place
//! whose opponent has the bye), players 1..N-1 stand on a ring. In round r
//! player N meets the player `a` with 2a ≡ r+1 (mod N-1) on board 1, with
//! the colour alternating (odd rounds `a` has Red, even rounds N), and on
//! board j+1 the player j steps after `a` on the ring (Red) meets the
//! player j steps before it (Black). This gives FIDE's published tables
//! exactly (the test compares them for 3-16 players). A double round robin
//! plays the tables twice, the second cycle with the colours reversed.

use crate::{Board, PairError, Pairing, Relaxation};

/// Single or double round robin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cycles {
    /// Everybody meets everybody once.
    Single,
    /// Twice, colours reversed in the second cycle.
    Double,
}

/// The smallest and largest numbers of players (or teams) supported.
pub const PLAYERS: std::ops::RangeInclusive<u32> = 3..=24;

/// Rounds of a round robin of `players` players.
pub fn rounds(players: u32, cycles: Cycles) -> u32 {
    let places = players + players % 2;
    let single = places - 1;
    match cycles {
        Cycles::Single => single,
        Cycles::Double => 2 * single,
    }
}

/// The table of one round of a single cycle for `places` (even) places:
/// boards in order, as (Red, Black) places.
fn table_round(places: u32, round: u32) -> Vec<(u32, u32)> {
    let ring = places - 1;
    // Positions on the ring are 1..=ring; `wrap` maps any integer there.
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(ring as i64) + 1) as u32 };
    // 2a ≡ r+1 (mod ring): ring is odd, so 2 has the inverse (ring+1)/2.
    let a = wrap((round as i64 + 1) * ((ring as i64 + 1) / 2));
    let mut boards = Vec::with_capacity(places as usize / 2);
    if round % 2 == 1 {
        boards.push((a, places));
    } else {
        boards.push((places, a));
    }
    for j in 1..places / 2 {
        boards.push((wrap(a as i64 + j as i64), wrap(a as i64 - j as i64)));
    }
    boards
}

/// FIDE's Berger table for `players` players: every round's boards as
/// (Red, Black) start numbers; a number above `players` is the bye.
pub fn table(players: u32, cycles: Cycles) -> Result<Vec<Vec<(u32, u32)>>, PairError> {
    if !PLAYERS.contains(&players) {
        return Err(PairError::RoundRobinSize {
            players,
            min: *PLAYERS.start(),
            max: *PLAYERS.end(),
        });
    }
    let places = players + players % 2;
    let single: Vec<Vec<(u32, u32)>> = (1..places).map(|r| table_round(places, r)).collect();
    Ok(match cycles {
        Cycles::Single => single,
        Cycles::Double => {
            let second = single
                .iter()
                .map(|r| r.iter().map(|&(w, b)| (b, w)).collect())
                .collect::<Vec<_>>();
            single.into_iter().chain(second).collect()
        }
    })
}

/// Pairs round `round` of a round robin of `players` players (start
/// numbers are the Berger numbers). With an odd number of players the
/// player drawn against the missing place has the bye.
pub fn pair(players: u32, round: u32, cycles: Cycles) -> Result<Pairing, PairError> {
    let t = table(players, cycles)?;
    let Some(boards) = round.checked_sub(1).and_then(|r| t.get(r as usize)) else {
        return Err(PairError::RoundRobinRound {
            round,
            players,
            rounds: t.len(),
        });
    };
    let mut out = Pairing {
        round,
        boards: Vec::new(),
        bye: None,
        seed: 0,
        draws: Vec::new(),
        relaxed: Relaxation::None,
    };
    for &(red, black) in boards {
        if red > players {
            out.bye = Some(black);
        } else if black > players {
            out.bye = Some(red);
        } else {
            out.boards.push(Board { red, black });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everybody_meets_everybody_once_with_balanced_colours() {
        for n in 3..=24u32 {
            let t = table(n, Cycles::Single).expect("size in range");
            let places = n + n % 2;
            let mut met = std::collections::BTreeSet::new();
            let mut reds = vec![0i32; places as usize + 1];
            for round in &t {
                for &(w, b) in round {
                    assert!(met.insert((w.min(b), w.max(b))), "{n}: {w}-{b} twice");
                    reds[w as usize] += 1;
                    reds[b as usize] -= 1;
                }
            }
            assert_eq!(met.len() as u32, places * (places - 1) / 2);
            // Every place has Red as often as Black, or one more or less.
            assert!(reds.iter().all(|d| d.abs() <= 1), "{n}: {reds:?}");
            let d = table(n, Cycles::Double).expect("size in range");
            assert_eq!(d.len(), 2 * t.len());
            assert_eq!(d[t.len()][0], (t[0][0].1, t[0][0].0));
        }
    }

    #[test]
    fn sizes_and_rounds_out_of_range_are_refused() {
        assert!(table(2, Cycles::Single).is_err());
        assert!(table(25, Cycles::Single).is_err());
        assert!(pair(6, 6, Cycles::Single).is_err());
        assert!(pair(6, 0, Cycles::Single).is_err());
        let p = pair(5, 1, Cycles::Single).expect("round 1");
        assert_eq!(p.bye, Some(1));
        assert_eq!(p.boards.len(), 2);
    }
}
