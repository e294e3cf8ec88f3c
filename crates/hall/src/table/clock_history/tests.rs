//! The compact clock history against a plain list of wire samples: every
//! value comes back unchanged, the edges (u64::MAX clocks, time going
//! backwards, plies taken back or at u32::MAX) included.

use super::*;
use proptest::prelude::*;

fn sample(
    at_ms: u64,
    plies: u32,
    red_ms: u64,
    black_ms: u64,
    running: Option<Side>,
) -> ClockSample {
    ClockSample {
        at_ms,
        plies,
        clock: ClockState {
            red_ms,
            black_ms,
            running,
        },
    }
}

/// Pushes `s` into both, keeping at most `cap` samples as the table does.
fn push_capped(
    h: &mut ClockHistory,
    model: &mut VecDeque<ClockSample>,
    s: ClockSample,
    cap: usize,
) {
    if h.len() >= cap {
        assert_eq!(h.pop_front(), model.pop_front());
    }
    h.push_back(s);
    model.push_back(s);
}

fn same(h: &ClockHistory, model: &VecDeque<ClockSample>) {
    assert_eq!(
        h.iter().collect::<Vec<_>>(),
        model.iter().copied().collect::<Vec<_>>()
    );
    assert_eq!(h.len(), model.len());
    assert_eq!(h.is_empty(), model.is_empty());
    assert_eq!(h.front(), model.front().copied());
    assert_eq!(h.back(), model.back().copied());
    assert_eq!(
        h.inner.is_none(),
        model.is_empty(),
        "an empty history holds nothing"
    );
}

#[test]
fn a_wire_sample_is_40_bytes_and_the_table_holds_8() {
    assert_eq!(size_of::<ClockSample>(), 40);
    assert_eq!(size_of::<ClockHistory>(), 8);
}

/// A game's presses: 17 s apart, a ply each, one clock running down:
/// 3 bytes for the time, 1 for the plies and side, 3 and 1 for the clocks.
#[test]
fn a_game_takes_8_bytes_a_sample() {
    let mut h = ClockHistory::new();
    let mut model = VecDeque::new();
    let t0 = 1_764_900_000_000;
    for i in 0..300u32 {
        let running = [Some(Side::Red), Some(Side::Black)][i as usize % 2];
        let s = sample(
            t0 + u64::from(i) * 17_000,
            i,
            5_400_000 - u64::from(i / 2) * 17_000,
            5_400_000 - u64::from(i.saturating_sub(1) / 2) * 17_000,
            running,
        );
        push_capped(&mut h, &mut model, s, 256);
    }
    same(&h, &model);
    let per_sample = h.change_bytes() as f64 / (h.len() - 1) as f64;
    assert!(per_sample <= 8.0, "{per_sample} bytes a sample");
}

#[test]
fn values_at_the_edges_are_kept_exactly() {
    let base = 1_000_000;
    let edges = [
        // The wall clock went back.
        sample(base - 1, 1, 1, 1, None),
        sample(0, 1, 1, 1, None),
        // Far ahead, and the end of time.
        sample(base + u64::from(u32::MAX) + 1, 1, 1, 1, None),
        sample(u64::MAX, 1, 1, 1, Some(Side::Red)),
        // Clocks over u32::MAX ms.
        sample(base, 1, u64::from(u32::MAX) + 1, 0, Some(Side::Black)),
        sample(base, 1, 0, u64::MAX, None),
        sample(base, 1, u64::MAX, u64::MAX, Some(Side::Red)),
        // Plies at the top of their range, and taken back.
        sample(base, u32::MAX, 1, 1, Some(Side::Black)),
        sample(base, 0, 1, 1, None),
    ];
    for s in edges {
        for before in [
            sample(base, 0, 0, 0, None),
            sample(u64::MAX, u32::MAX, u64::MAX, 0, None),
        ] {
            let mut h: ClockHistory = [before, s, before].into_iter().collect();
            assert_eq!(h.iter().collect::<Vec<_>>(), [before, s, before]);
            assert_eq!(h.back(), Some(before));
            h.pop_front();
            assert_eq!(h.front(), Some(s));
            assert_eq!(h.pop_front(), Some(s));
            assert_eq!(h.iter().collect::<Vec<_>>(), [before]);
            assert_eq!(h.pop_front(), Some(before));
            assert!(h.inner.is_none(), "emptied, it holds nothing");
            assert_eq!(h.pop_front(), None);
        }
    }
}

#[test]
fn an_emptied_history_starts_again_from_its_next_sample() {
    let mut h = ClockHistory::new();
    h.push_back(sample(5_000_000_000_000, 9, 1, 1, None));
    h.pop_front();
    assert_eq!(h.heap_bytes(), 0);
    h.push_back(sample(7, 0, 1, 1, None));
    h.push_back(sample(8, 1, 1, 1, None));
    assert_eq!(h.iter().map(|s| s.at_ms).collect::<Vec<_>>(), [7, 8]);
    assert_eq!(h.change_bytes(), 4, "one byte each: time, plies, clocks");
}

/// A u64 that is often at an edge of the packed form.
fn edge_u64() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0),
        Just(u64::from(u32::MAX)),
        Just(u64::from(u32::MAX) + 1),
        Just(u64::MAX - 1),
        Just(u64::MAX),
        0..3_600_000u64,
        any::<u64>(),
    ]
}

fn edge_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0),
        Just(u32::MAX >> 2),
        Just(i32::MAX as u32 + 1),
        Just(u32::MAX),
        0..400u32,
        any::<u32>(),
    ]
}

/// Times: mostly a game going forward from a start, with jumps back,
/// far ahead and to the edges.
fn times() -> impl Strategy<Value = Vec<u64>> {
    #[derive(Debug, Clone)]
    enum Step {
        Forward(u64),
        Back(u64),
        To(u64),
    }
    let step = prop_oneof![
        8 => (0..5_000u64).prop_map(Step::Forward),
        1 => (0..5_000u64).prop_map(Step::Back),
        1 => edge_u64().prop_map(Step::To),
    ];
    (edge_u64(), prop::collection::vec(step, 0..80)).prop_map(|(start, steps)| {
        let mut at = start;
        steps
            .into_iter()
            .map(|step| {
                at = match step {
                    Step::Forward(d) => at.saturating_add(d),
                    Step::Back(d) => at.saturating_sub(d),
                    Step::To(t) => t,
                };
                at
            })
            .collect()
    })
}

fn running() -> impl Strategy<Value = Option<Side>> {
    prop_oneof![Just(None), Just(Some(Side::Red)), Just(Some(Side::Black))]
}

proptest! {
    #[test]
    fn every_sample_comes_back_unchanged(
        times in times(),
        values in prop::collection::vec((edge_u32(), edge_u64(), edge_u64(), running()), 80),
        cap in prop_oneof![1..6usize, Just(256)],
    ) {
        let mut h = ClockHistory::new();
        let mut model = VecDeque::new();
        for (at_ms, (plies, red_ms, black_ms, running)) in times.into_iter().zip(values) {
            push_capped(&mut h, &mut model, sample(at_ms, plies, red_ms, black_ms, running), cap);
            same(&h, &model);
        }
        let again: ClockHistory = h.iter().collect();
        same(&again, &model);
        while let Some(s) = h.pop_front() {
            prop_assert_eq!(Some(s), model.pop_front());
        }
        prop_assert!(model.is_empty());
        prop_assert!(h.inner.is_none());
    }
}
