//! The events of the stream as sent (事件): each public event written
//! once, when the hub publishes it, as the SSE event every stream sends
//! (a move with its WXF and Chinese texts from the view after it).

use axum::response::sse::Event;
use hall::public::{PublicChange, PublicEvent};
use serde_json::json;

use crate::render;
use crate::view::View;

/// An event as every stream sends it, written once when the hub
/// publishes it.
#[derive(Debug, Clone)]
pub struct Sent {
    /// The public sequence (`id:`).
    pub id: u64,
    /// The SSE event.
    pub event: Event,
}

impl Sent {
    /// The event `e`, `view` being the view after it (for the move's
    /// notations).
    pub fn new(e: &PublicEvent, view: &View) -> Sent {
        Sent {
            id: e.id,
            event: event_of(e, view),
        }
    }
}

fn running(s: Option<proto::Side>) -> Option<&'static str> {
    match s {
        Some(proto::Side::Red) => Some("red"),
        Some(proto::Side::Black) => Some("black"),
        None => None,
    }
}

/// The SSE event of a public event; `view` is the view after it.
pub fn event_of(e: &PublicEvent, view: &View) -> Event {
    let (name, data) = match &e.change {
        PublicChange::Move {
            ply,
            mv,
            clock_ms,
            clock,
        } => {
            let texts = view.texts_of(e.table);
            let i = (*ply as usize).saturating_sub(1);
            (
                "move",
                json!({
                    "table": e.table,
                    "ply": ply,
                    "move": mv.to_string(),
                    "wxf": texts.wxf.get(i),
                    "zh": texts.zh.get(i),
                    "clock_ms": clock_ms,
                    "red_ms": clock.red_ms,
                    "black_ms": clock.black_ms,
                    "running": running(clock.running),
                    "at_ms": e.at_ms,
                }),
            )
        }
        PublicChange::Clock { clock, status } => (
            "clock",
            json!({
                "table": e.table,
                "red_ms": clock.red_ms,
                "black_ms": clock.black_ms,
                "running": running(clock.running),
                "status": status.as_str(),
                "at_ms": e.at_ms,
            }),
        ),
        PublicChange::Result { result, why } => (
            "result",
            json!({
                "table": e.table,
                "result": render::result_token(hall::public::PublicStatus::Finished {
                    result: *result,
                    why: *why,
                }),
                "reason": why.as_str(),
            }),
        ),
        PublicChange::Game(g) => ("game", render::game_value(g, &view.texts_of(g.table))),
    };
    Event::default()
        .event(name)
        .id(e.id.to_string())
        .data(data.to_string())
}
