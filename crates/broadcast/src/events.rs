//! The events of the stream as sent (事件): one `tick` per hub tick
//! (`hub::TICK`) carrying the games that changed in it, each once in its
//! latest public state, written once when the hub publishes it; and the
//! `catchup` of a stream that fell behind or resumed, the games changed
//! since its last id, written for it alone.
//!
//! Both carry the same entries: a game's plies from the first one the
//! follower lacks (`from`; 0 when the game was given whole after its last
//! id: a move taken back, a result withdrawn), with their WXF and Chinese
//! texts and clocks, then the game's clocks, status and result now. A
//! follower truncates its moves to `from` and appends: the same code for
//! both, and a result is a game's status, never a separate event that a
//! coalescing could drop.

use std::collections::BTreeSet;

use axum::response::sse::Event;
use serde_json::{json, Value};

use crate::render;
use crate::view::{Shown, View};

/// A tick as every stream sends it, written once when the hub publishes
/// it.
#[derive(Debug, Clone)]
pub struct Sent {
    /// The public sequence (`id:`): the id of the tick's last event.
    pub id: u64,
    /// The sequence the tick continues (the id before it): a stream at
    /// another sequence cannot take it and is caught up instead.
    pub base: u64,
    /// The SSE event.
    pub event: Event,
}

/// One game's entry: its plies from the first one a follower shown
/// everything up to `since` lacks, and its state now.
pub fn entry(s: &Shown, since: u64) -> Value {
    let g = &s.game;
    let from = s.first_unseen(since).min(g.moves.len());
    let tail = |v: &[String]| v.get(from..).unwrap_or_default().to_vec();
    json!({
        "table": g.table,
        "from": from,
        "moves": g.moves[from..].iter().map(ToString::to_string).collect::<Vec<_>>(),
        "wxf": tail(&s.texts.wxf),
        "zh": tail(&s.texts.zh),
        "clocks_ms": g.ply_clocks.get(from..).unwrap_or_default(),
        "clock": render::clock(&g.clock, g.clock_at_ms),
        "status": g.status.as_str(),
        "result": render::result_token(g.status),
        "reason": render::reason(g.status),
        "at_ms": s.at_ms,
    })
}

/// The data of a `tick` or `catchup`: the round, the id, the id it
/// continues, the entries of `tables`.
fn changes(view: &View, since: u64, tables: impl IntoIterator<Item = u16>) -> String {
    let games: Vec<Value> = tables
        .into_iter()
        .filter_map(|t| view.games.get(&t))
        .map(|s| entry(s, since))
        .collect();
    json!({
        "round": view.round,
        "seq": view.seq,
        "since": since,
        "games": games,
    })
    .to_string()
}

/// Bits of an event id that hold the public sequence (2^40: a trillion
/// public events in one round); the round is above them.
pub const SEQ_BITS: u32 = 40;
const SEQ_MASK: u64 = (1 << SEQ_BITS) - 1;
/// The largest round an id can name (2^24 - 1).
const ROUND_MASK: u32 = (1 << (64 - SEQ_BITS)) - 1;

/// The SSE `id:` of public sequence `seq` of `round`: the round in the
/// high bits, so ids go up across rounds too and a follower's id from an
/// earlier round cannot fall in this round's range (each round's public
/// sequence starts again near 0).
pub fn event_id(round: u32, seq: u64) -> u64 {
    (u64::from(round.min(ROUND_MASK)) << SEQ_BITS) | seq.min(SEQ_MASK)
}

/// The round and public sequence of an [`event_id`].
pub fn split_event_id(id: u64) -> (u32, u64) {
    ((id >> SEQ_BITS) as u32, id & SEQ_MASK)
}

/// The `tick` from the view at `base` to `view`: the games of `tables`
/// (those its events changed).
pub fn tick(view: &View, base: u64, tables: &BTreeSet<u16>) -> Sent {
    let data = changes(view, base, tables.iter().copied());
    Sent {
        id: view.seq,
        base,
        event: Event::default()
            .event("tick")
            .id(event_id(view.round, view.seq).to_string())
            .data(data),
    }
}

/// The `catchup` of a stream shown everything up to `since`
/// (`view.continues(since)`): every game changed after it.
pub fn catch_up(view: &View, since: u64) -> Event {
    let data = changes(view, since, view.changed_since(since));
    Event::default()
        .event("catchup")
        .id(event_id(view.round, view.seq).to_string())
        .data(data)
}
