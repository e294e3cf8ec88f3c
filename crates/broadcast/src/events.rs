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

use axum::body::Bytes;
use proto::IccsMove;
use serde::Serialize;

use crate::json::PlyTimes;
use crate::notation::Tail;
use crate::render::{self, Clock};
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
    /// The SSE event as written ([`wire`]), shared by every stream.
    pub event: Bytes,
}

/// One game's entry as the stream writes it: borrowed from the view and
/// written straight into the event's text (issue 40: a tick at 10,000
/// tables carries ~2,000 of them, and building a JSON value tree for each
/// to drop it right after was a third of the broadcast thread's time in
/// malloc and free). The keys are in the order serde_json's maps write
/// them (alphabetical), so the bytes are those the value tree wrote.
#[derive(Debug, Serialize)]
pub struct Entry<'a> {
    /// Server time (Unix ms) of the record of the game's last change.
    pub at_ms: u64,
    /// The clocks now.
    pub clock: Clock,
    /// The clock after each ply from `from` (ms; `null` where unknown).
    pub clocks_ms: PlyTimes<'a>,
    /// The first ply given (the follower truncates its moves to it).
    pub from: usize,
    /// The plies from `from`, ICCS.
    #[serde(serialize_with = "crate::json::iccs")]
    pub moves: &'a [IccsMove],
    /// The typed reason of the result (`null` before it).
    pub reason: Option<&'static str>,
    /// The PGN result token.
    pub result: &'static str,
    /// The game's status.
    pub status: &'static str,
    /// The table.
    pub table: u16,
    /// The plies from `from`, WXF.
    pub wxf: Tail<'a>,
    /// The plies from `from`, Chinese.
    pub zh: Tail<'a>,
}

/// One game's entry: its plies from the first one a follower shown
/// everything up to `since` lacks, and its state now.
pub fn entry(s: &Shown, since: u64) -> Entry<'_> {
    let g = &s.game;
    let from = s.first_unseen(since).min(g.moves.len());
    Entry {
        at_ms: s.at_ms,
        clock: render::clock(&g.clock, g.clock_at_ms),
        clocks_ms: PlyTimes::new(&g.ply_clocks, from),
        from,
        moves: g.moves.get(from..).unwrap_or_default(),
        reason: render::reason(g.status),
        result: render::result_token(g.status),
        status: g.status.as_str(),
        table: g.table,
        wxf: s.texts.wxf.from(from),
        zh: s.texts.zh.from(from),
    }
}

/// The data of a `tick` or `catchup` (keys alphabetical, as
/// [`Entry`]'s).
#[derive(Serialize)]
struct Changes<'a> {
    games: Vec<Entry<'a>>,
    round: u32,
    seq: u64,
    since: u64,
}

/// The data of a `tick` or `catchup`: the round, the id, the id it
/// continues, the entries of `tables`.
fn changes_of(view: &View, since: u64, tables: impl IntoIterator<Item = u16>) -> Changes<'_> {
    let games: Vec<Entry<'_>> = tables
        .into_iter()
        .filter_map(|t| view.games.get(&t))
        .map(|s| entry(s, since))
        .collect();
    Changes {
        games,
        round: view.round,
        seq: view.seq,
        since,
    }
}

/// [`changes_of`] as its JSON text (the tests' reference).
#[cfg(test)]
pub(crate) fn changes(view: &View, since: u64, tables: impl IntoIterator<Item = u16>) -> String {
    // Plain data of strings and numbers: it always serializes.
    serde_json::to_string(&changes_of(view, since, tables)).unwrap_or_else(|e| {
        tracing::error!(error = %e, "a tick's data does not serialize: sent empty");
        String::new()
    })
}

/// Bytes an entry takes in a tick, about (one without new plies: ~200),
/// for the tick's buffer: allocated once, not grown by doubling to half a
/// megabyte at 10,000 tables.
const ENTRY_BYTES: usize = 256;

/// The SSE event of `data` (a tick or a catch-up), its JSON written
/// straight into the event's buffer: the bytes [`wire`] writes for the
/// data's text (compact JSON has no line break: one `data:` line), without
/// the text between.
fn wire_changes(name: &str, id: u64, data: &Changes<'_>) -> Bytes {
    let mut out = Vec::with_capacity(data.games.len() * ENTRY_BYTES + 96);
    out.extend_from_slice(b"event: ");
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"\nid: ");
    out.extend_from_slice(id.to_string().as_bytes());
    out.push(b'\n');
    let lines = out.len();
    out.extend_from_slice(b"data: ");
    match serde_json::to_writer(&mut out, data) {
        Ok(()) => out.push(b'\n'),
        Err(e) => {
            // Plain data of strings and numbers: it always serializes.
            tracing::error!(error = %e, "a tick's data does not serialize: sent empty");
            out.truncate(lines);
        }
    }
    out.push(b'\n');
    Bytes::from(out)
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
    let data = changes_of(view, base, tables.iter().copied());
    Sent {
        id: view.seq,
        base,
        event: wire_changes("tick", event_id(view.round, view.seq), &data),
    }
}

/// The `catchup` of a stream shown everything up to `since`
/// (`view.continues(since)`): every game changed after it.
pub fn catch_up(view: &View, since: u64) -> Bytes {
    let data = changes_of(view, since, view.changed_since(since));
    wire_changes("catchup", event_id(view.round, view.seq), &data)
}

/// One SSE event as the stream writes it, the bytes axum's `Event` wrote
/// for `.event(name).id(id).data(data)`: `event:`, `id:`, a `data:` line
/// for each line of `data` (none for no data), a blank line. Frozen, so every stream sends
/// the same bytes, shared (issue 40: an axum `Event` is copied whole by
/// each clone, and each follower of a 10,000-table hall copied every
/// ~0.5 MB tick).
pub fn wire(name: &str, id: u64, data: &str) -> Bytes {
    let id = id.to_string();
    let mut out = String::with_capacity(name.len() + id.len() + data.len() + 24);
    out.push_str("event: ");
    out.push_str(name);
    out.push_str("\nid: ");
    out.push_str(&id);
    out.push('\n');
    // No data, no `data:` line (as axum): the follower's EventSource
    // then does not dispatch the event.
    for line in data.split('\n').filter(|_| !data.is_empty()) {
        out.push_str("data: ");
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    Bytes::from(out)
}
