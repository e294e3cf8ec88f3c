//! FIDE's tie-breaks (C.07, the rules in force since 1 February 2026) for
//! [`crate::standings`]: Buchholz (BH), Buchholz cut 1 (BH-C1),
//! Sonneborn-Berger (SB), progressive score (PS, 累进分), wins (WIN),
//! games with Black (BPG) and the average rating of the opponents (ARO).
//! Direct encounter (DE) and wins with Black (BWG) are the criteria
//! [`crate::standings`] already had.
//!
//! Values are kept on the 2/1/0 scale of the standings (a FIDE point is 2),
//! so halves stay whole: BH and PS are twice FIDE's figure, SB four times.
//!
//! Unplayed rounds, as C.07 reads them:
//! - a round is *voluntarily unplayed* (VUR) when nothing was played and
//!   the player did not score a win for it (a zero- or half-point bye, an
//!   absence, a forfeit loss); a pairing-allocated or full-point bye and a
//!   forfeit win are not;
//! - a player's *adjusted score* (used as an opponent's score) counts each
//!   VUR after the player's last other round as a draw;
//! - in the player's own BH and SB, a round without a played game counts
//!   the player's own score, but (2026) no more than the forfeiting
//!   opponent's adjusted score, or, without an opponent, no more than a
//!   draw in every round;
//! - the cut of BH-C1 takes a voluntarily unplayed round first (the lowest
//!   of them), else the lowest opponent.

use std::collections::HashMap;

/// One round of one player, as the FIDE tie-breaks need it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RoundEntry {
    /// The opponent (index), also for a forfeit.
    pub opponent: Option<usize>,
    /// A game was played over the board.
    pub played: bool,
    /// Played with Black.
    pub black: bool,
    /// Points scored (2/1/0 scale).
    pub points: u32,
}

/// The FIDE values of every player.
#[derive(Clone, Debug, Default)]
pub(crate) struct FideTable {
    pub bh: Vec<u64>,
    pub bh_c1: Vec<u64>,
    pub sb: Vec<u64>,
    pub ps: Vec<u64>,
    pub wins: Vec<u64>,
    pub black_games: Vec<u64>,
    pub aro: Vec<u64>,
}

const WIN: u32 = 2;
const DRAW: u32 = 1;

/// Computes the table from `rounds[p][r]` (every player, every round;
/// a round without an entry is an absence) and ratings (0 = unrated).
pub(crate) fn compute(rounds: &[Vec<RoundEntry>], ratings: &[u32]) -> FideTable {
    let n = rounds.len();
    let count = rounds.iter().map(Vec::len).max().unwrap_or(0);
    let vur = |e: &RoundEntry| !e.played && e.points != WIN;
    let own: Vec<u64> = rounds
        .iter()
        .map(|r| r.iter().map(|e| e.points as u64).sum())
        .collect();
    let adjusted: Vec<u64> = rounds
        .iter()
        .map(|r| {
            let last = r.iter().rposition(|e| !vur(e)).map_or(0, |i| i + 1);
            r.iter()
                .enumerate()
                .map(|(i, e)| {
                    if i < last || e.opponent.is_some() {
                        e.points as u64
                    } else {
                        DRAW as u64
                    }
                })
                .sum::<u64>()
                + DRAW as u64 * (count - r.len()) as u64
        })
        .collect();
    let mut t = FideTable::default();
    for p in 0..n {
        // (score, SB value, voluntarily unplayed).
        let mut values: Vec<(u64, u64, bool)> = Vec::new();
        let mut ps = 0u64;
        let mut so_far = 0u64;
        let (mut wins, mut black_games) = (0u64, 0u64);
        let (mut rating_sum, mut rated) = (0u64, 0u64);
        for r in 0..count {
            let e = rounds[p].get(r).copied().unwrap_or_default();
            so_far += e.points as u64;
            ps += so_far;
            wins += u64::from(e.points == WIN);
            black_games += u64::from(e.played && e.black);
            let score = match e.opponent {
                Some(o) if e.played => {
                    if ratings[o] > 0 {
                        rating_sum += ratings[o] as u64;
                        rated += 1;
                    }
                    adjusted[o]
                }
                Some(o) => own[p].min(adjusted[o]),
                None => own[p].min(DRAW as u64 * count as u64),
            };
            values.push((score, score * e.points as u64, !e.played && vur(&e)));
        }
        let bh: u64 = values.iter().map(|v| v.0).sum();
        // The cut takes a voluntarily unplayed round first (the lowest of
        // them), else the lowest score.
        let cut = values
            .iter()
            .filter(|v| v.2)
            .map(|v| v.0)
            .min()
            .or_else(|| values.iter().map(|v| v.0).min())
            .unwrap_or(0);
        t.bh.push(bh);
        t.bh_c1.push(bh - cut);
        t.sb.push(values.iter().map(|v| v.1).sum());
        t.ps.push(ps);
        t.wins.push(wins);
        t.black_games.push(black_games);
        // Rounded half up.
        t.aro.push(if rated == 0 {
            0
        } else {
            (2 * rating_sum + rated) / (2 * rated)
        });
    }
    t
}

/// Ratings by player index from a map of ids (missing = unrated).
pub(crate) fn ratings_of(names: &[&str], ratings: &HashMap<String, u32>) -> Vec<u32> {
    names
        .iter()
        .map(|n| ratings.get(*n).copied().unwrap_or(0))
        .collect()
}
