//! A console's deltas per tick (一拍一帧, protocol 11): what the hall
//! published during one fan-out tick ([`TICK`]) leaves for each console as
//! one `ServerMsg::Deltas` frame (several when the tick is over a page),
//! instead of one frame per delta. [`coalesce`] keeps a table's last view
//! of the tick only and every other delta (alerts, claims, audit rows,
//! pauses) in order; [`frames`] cuts the tick into frames under the page
//! size ([`PAGE_BYTES`], far under `MAX_SERVER_FRAME`). The publisher
//! (`publish.rs`) gathers the deltas and runs the tick.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use proto::codec::encoded_len;
use proto::frame::encode_frame;
use proto::paging::PAGE_BYTES;
use proto::{Delta, ServerMsg};

/// An encoded frame shared by every console.
pub type Frame = Arc<Vec<u8>>;

/// How long deltas gather before they go out together (20 ms). The goal
/// is press→console under 50 ms at p99: the tick adds at most 20 ms to a
/// delta (10 on average), leaving 30 for the commit and the network; at
/// 10,000 tables pressing once a second a console gets 50 frames a second
/// (about 200 table views each) instead of 10,000. The first delta after
/// a quiet tick goes out at once (the tick starts then), so a quiet hall
/// has no latency floor at all.
pub const TICK: Duration = Duration::from_millis(20);

// A tick's frame (a page at most, or one delta alone) is far under the
// frame limit a client accepts.
const _: () = assert!(PAGE_BYTES * 4 <= proto::limits::MAX_SERVER_FRAME);

/// Bytes a frame spends besides its deltas: the length prefix, the
/// message's tag and the vector's length, with room to spare.
pub(crate) const FRAME_OVERHEAD: usize = 64;

/// The tick's deltas with each table's view only its last (at the place
/// of that last view); every other delta kept, in order. In place: the
/// tick's list is not copied (at 10,000 tables a 20-ms tick holds some
/// 200 deltas).
pub fn coalesce(mut deltas: Vec<Delta>) -> Vec<Delta> {
    let mut later: HashSet<u16> = HashSet::new();
    // Whether to keep each delta, from the last to the first.
    let keep_from_last: Vec<bool> = deltas
        .iter()
        .rev()
        .map(|d| match d {
            Delta::Table(t) => later.insert(t.table),
            _ => true,
        })
        .collect();
    let mut from_last = keep_from_last.iter().rev();
    deltas.retain(|_| from_last.next().copied().unwrap_or(true));
    deltas
}

/// The tick's deltas as `Deltas` frames, in order, each at most
/// `page_bytes` unless one delta alone is larger (then it is a frame
/// alone; one over the frame limit does not encode, is logged and left
/// out, the others kept); each frame with the index of its first delta.
pub fn frames(deltas: Vec<Delta>, page_bytes: usize) -> Vec<(usize, Arc<Vec<u8>>)> {
    cut(deltas, page_bytes).frames
}

/// One audience's tick (the arbiters' or the viewers'): its deltas and
/// the frames of a page each they were cut into ([`frames`]); a console
/// whose queue has no room for a frame is given the deltas from that
/// frame's first on to remember (`catchup.rs`).
#[derive(Debug, Default)]
pub struct Tick {
    /// The coalesced deltas, in order.
    pub deltas: Vec<Delta>,
    /// Each frame with the index of its first delta in `deltas`.
    pub frames: Vec<(usize, Arc<Vec<u8>>)>,
}

/// The tick of `deltas` in frames of a page each.
pub fn paged(deltas: Vec<Delta>) -> Tick {
    cut(deltas, PAGE_BYTES)
}

/// [`frames`], the deltas kept beside them (each chunk moved into its
/// message to be encoded, and back: nothing copied).
fn cut(deltas: Vec<Delta>, page_bytes: usize) -> Tick {
    let mut tick = Tick {
        deltas: Vec::with_capacity(deltas.len()),
        frames: Vec::new(),
    };
    let mut chunk: Vec<Delta> = Vec::new();
    let mut bytes = FRAME_OVERHEAD;
    for d in deltas {
        let size = encoded_len(&d);
        if !chunk.is_empty() && bytes.saturating_add(size) > page_bytes {
            encode(std::mem::take(&mut chunk), &mut tick);
            bytes = FRAME_OVERHEAD;
        }
        bytes = bytes.saturating_add(size);
        chunk.push(d);
    }
    if !chunk.is_empty() {
        encode(chunk, &mut tick);
    }
    tick
}

/// Encodes `chunk` as one frame of `tick` and adds its deltas to it.
fn encode(chunk: Vec<Delta>, tick: &mut Tick) {
    let n = chunk.len();
    let msg = ServerMsg::Deltas(chunk);
    match encode_frame(&msg) {
        Ok(f) => tick.frames.push((tick.deltas.len(), Arc::new(f))),
        Err(e) => {
            tracing::error!(error = %e, deltas = n, "a tick's deltas do not encode; not published");
        }
    }
    if let ServerMsg::Deltas(chunk) = msg {
        tick.deltas.extend(chunk);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proto::codec::WireMessage;
    use proto::limits::MAX_SERVER_FRAME;
    use proto::TableView;

    /// A table's view after `plies` plies (only what the tests look at).
    pub(crate) fn view(table: u16, plies: u32) -> Delta {
        let clock = proto::ClockState {
            red_ms: 600_000,
            black_ms: 600_000,
            running: None,
        };
        Delta::Table(Arc::new(TableView {
            table,
            red: format!("红{table}"),
            black: format!("黑{table}"),
            clock,
            clock_at_ms: 0,
            to_move: proto::Side::Red,
            flag: None,
            plies,
            plies_since_capture: 0,
            natural_limit_plies: 120,
            checks_red: 0,
            checks_black: 0,
            fouls_red: Default::default(),
            fouls_black: Default::default(),
            pending_claims: 1,
            status: proto::TableStatus::Playing,
            last_heard_ms: 0,
            online: true,
            last_move: None,
            fen: String::new(),
            moves: Vec::new(),
            move_limit: None,
            order: None,
        }))
    }

    /// Table `table`'s step from `from` plies to `to` ([`view`]s).
    pub(crate) fn step(table: u16, from: u32, to: u32) -> Delta {
        match (view(table, from), view(table, to)) {
            (Delta::Table(a), Delta::Table(b)) => {
                Delta::TableStep(proto::TableStep::between(&a, &b).expect("a step"))
            }
            _ => unreachable!("two views"),
        }
    }

    pub(crate) fn alert(id: u64) -> Delta {
        Delta::AlertAcked {
            id,
            by: format!("deputy {id}"),
        }
    }

    fn decode(f: &[u8]) -> Vec<Delta> {
        match ServerMsg::decode(&f[proto::limits::LEN_PREFIX..]) {
            Ok(ServerMsg::Deltas(ds)) => ds,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn five_views_of_a_table_in_a_tick_are_sent_once_alerts_kept_in_order() {
        let tick = vec![
            view(1, 1),
            view(2, 1),
            view(1, 2),
            alert(7),
            view(1, 3),
            view(3, 1),
            view(1, 4),
            Delta::HallPaused(None),
            view(1, 5),
        ];
        let sent = coalesce(tick);
        assert_eq!(
            sent,
            vec![
                view(2, 1),
                alert(7),
                view(3, 1),
                Delta::HallPaused(None),
                view(1, 5),
            ]
        );
    }

    /// In place, the same as keeping each table's last view by a copy
    /// made from the back, over many mixed ticks.
    #[test]
    fn coalescing_in_place_keeps_what_a_copy_from_the_back_keeps() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for len in 0..200 {
            let tick: Vec<Delta> = (0..len)
                .map(|i| match next() % 4 {
                    0 => alert(u64::from(next() % 50)),
                    _ => view((next() % 12) as u16, i),
                })
                .collect();
            let mut later = HashSet::new();
            let mut want: Vec<Delta> = tick
                .iter()
                .rev()
                .filter(|d| match d {
                    Delta::Table(t) => later.insert(t.table),
                    _ => true,
                })
                .cloned()
                .collect();
            want.reverse();
            assert_eq!(coalesce(tick), want, "a tick of {len}");
        }
    }

    #[test]
    fn a_tick_over_a_page_is_split_into_frames_under_the_limit() {
        let big = "字".repeat(2_000);
        let tick: Vec<Delta> = (0..200)
            .map(|i| Delta::AlertAcked {
                id: i,
                by: big.clone(),
            })
            .collect();
        let page = 64 * 1024;
        let fs: Vec<_> = frames(tick.clone(), page)
            .into_iter()
            .map(|(_, f)| f)
            .collect();
        assert!(fs.len() >= 9, "{} frames for 1.2 MB", fs.len());
        for f in &fs {
            assert!(
                f.len() <= page && f.len() <= MAX_SERVER_FRAME,
                "{}",
                f.len()
            );
        }
        let back: Vec<Delta> = fs.iter().flat_map(|f| decode(f)).collect();
        assert_eq!(back, tick);
        // One delta larger than the page is a frame alone.
        let huge = Delta::AlertAcked {
            id: 1,
            by: "x".repeat(page * 2),
        };
        let fs = frames(vec![alert(1), huge.clone(), alert(2)], page);
        assert_eq!(fs.len(), 3);
        assert_eq!(decode(&fs[1].1), vec![huge]);
        let firsts: Vec<usize> = fs.iter().map(|(i, _)| *i).collect();
        assert_eq!(firsts, vec![0, 1, 2]);
    }
}
