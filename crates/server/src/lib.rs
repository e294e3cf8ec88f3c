//! caipan hall server: the I/O around the hall core — QUIC endpoint, roles,
//! the ingest pipeline, publishing, snapshots and restart.
//!
//! # Modules
//! - [`server`]: [`Server`] start and shutdown, the ticker of time-based
//!   notes; [`rebuild`]: the hall rebuilt from the store on start.
//! - [`connection`]: one task per QUIC connection (sign-in, frames,
//!   bursts of events to the pipeline); [`writer`]: its writer (replies in
//!   order, acks coalesced, console deltas); [`outq`]: its queue, whose
//!   memory follows what it holds; [`room`]: the bound in bytes
//!   on a connection's queued replies, with backpressure; [`stall`]: a
//!   peer that stopped reading is closed; [`reads`]: table logs from a
//!   cache of shared frames, a pace per principal for large reads;
//!   [`admission`]: bounds on connections and handshakes;
//!   [`auth`]: tokens to principals and authorization.
//! - [`ingest`]: the committer (sequence check, durable commit of a batch, apply,
//!   reply); [`submit`]: the submitter handle and the reply; [`journal`]:
//!   records to store rows (what a commit promises); [`refusals`]: refusals stored per
//!   principal and minute; [`takeover`]: one terminal per table, a fight
//!   of two stored as one alert and one count.
//! - [`next_round`]: the rounds published from the console (the config
//!   they make, the chief's pairing proposal, the switch to a new round);
//!   [`deputies`]: the deputies' tables in the proposed round (preview
//!   notes) and the full coverage checked at publish.
//! - [`publish`]: snapshot then deltas to each subscribed console, a
//!   frame per fan-out tick ([`tick`]: coalesced, split under a page;
//!   [`steps`]: a table's change as a compact step to the consoles that
//!   hold its base);
//!   [`catchup`]: a console that fell behind caught up by the tables that
//!   changed, not a whole snapshot;
//!   [`viewer`]: what a viewer (the public display) is sent of them;
//!   [`shared`]: what the tasks share; [`snapshot`]: the snapshotter;
//!   [`wallclock`]: the time source of the snapshotter; [`stages`]: the
//!   committer's time per stage (for the bench's breakdown); [`public`]:
//!   the hall's public events to the broadcast (crates/broadcast);
//!   [`public_feed`]: the broadcast's subscription (picture, then events).
//! - [`export`]: the export crate re-exported, plus the console's export
//!   command ([`export::command`]).
//!
//! The hall config (crates/config), the event stores (crates/store) and
//! the hall core (crates/hall) are crates of their own, which users of the
//! server name directly; of these, only the server depends on quinn.

mod admission;
pub mod auth;
mod catchup;
pub mod export;

// Runtime (ingest, publish): see the module docs. Private but for what
// the binary, the benches and the tests reach: the start options and due
// notes (server), the rebuild and snapshots (restart tests, verify), the
// committer's clock (ingest) and stages (the hall bench's breakdown).
mod connection;
pub mod deputies;
mod gather;
pub mod give_back;
pub mod halls_round;
pub mod ingest;
mod journal;
pub mod next_round;
mod outq;
mod pages;
pub mod public;
pub mod public_feed;
mod publish;
pub mod purge_pace;
pub mod reads;
pub mod rebuild;
mod refusals;
pub mod reply_time;
mod room;
pub mod server;
mod shared;
pub mod snapshot;
pub mod stages;
pub mod stall;
mod steps;
mod submit;
mod takeover;
mod tick;
mod tournament_tables;
pub mod viewer;
mod wallclock;
mod writer;

pub use publish::{Totals, TOTALS};
pub use server::{RunningServer, Server, ServerError, ShutdownHandle, StartOptions};
