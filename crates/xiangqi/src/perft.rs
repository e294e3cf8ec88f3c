//! Perft: counts the leaf nodes of the legal move tree to a given depth — the
//! standard correctness and speed test of move generation (start position:
//! 44; 1,920; 79,666; 3,290,240; 133,312,995).

use crate::{Move, MoveList, Position};

/// Number of leaf nodes `depth` plies below `pos` (bulk-counted at depth 1).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut p = pos.clone();
    perft_mut(&mut p, depth)
}

fn perft_mut(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return pos.count_legal() as u64,
        _ => {}
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.play_unchecked(m);
        nodes += perft_mut(pos, depth - 1);
        pos.unplay(m, undo);
    }
    nodes
}

/// Perft split by root move: `(move, nodes below it)` in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut p = pos.clone();
    let list = p.legal_moves();
    list.iter()
        .map(|&m| {
            let undo = p.play_unchecked(m);
            let n = if depth <= 1 {
                1
            } else {
                perft_mut(&mut p, depth - 1)
            };
            p.unplay(m, undo);
            (m, n)
        })
        .collect()
}

/// Perft with the root moves shared among `threads` worker threads (same count as
/// [`perft`]). `threads == 0` or `1` runs on the calling thread.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 2 {
        return perft(pos, depth);
    }
    let list = pos.legal_moves();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut p = pos.clone();
                    let mut nodes = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&m) = list.get(i) else { break };
                        let undo = p.play_unchecked(m);
                        nodes += perft_mut(&mut p, depth - 1);
                        p.unplay(m, undo);
                    }
                    nodes
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let p = Position::new();
        assert_eq!(perft(&p, 0), 1);
        assert_eq!(perft(&p, 1), 44);
        assert_eq!(perft(&p, 2), 1_920);
        assert_eq!(perft(&p, 3), 79_666);
    }

    #[test]
    fn divide_sums_to_perft() {
        let p = Position::new();
        let total: u64 = perft_divide(&p, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 79_666);
        assert_eq!(perft_parallel(&p, 3, 2), 79_666);
    }
}
