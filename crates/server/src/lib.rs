//! caipan hall server: the I/O around the hall core — QUIC endpoint, roles,
//! the ingest pipeline, publishing, snapshots and restart.
//!
//! # Modules
//! - [`server`]: [`Server`] start and shutdown, the ticker of time-based
//!   notes; [`rebuild`]: the hall rebuilt from the store on start.
//! - [`connection`]: one task per QUIC connection (sign-in, frames,
//!   bursts of events to the pipeline); [`writer`]: its writer (replies in
//!   order, acks coalesced, console deltas); [`admission`]: bounds on connections and handshakes;
//!   [`auth`]: tokens to principals and authorization.
//! - [`ingest`]: the committer (sequence check, durable commit of a batch, apply,
//!   reply); [`submit`]: the submitter handle and the reply; [`journal`]:
//!   records to store rows (what a commit promises); [`refusals`]: refusals stored per
//!   principal and minute; [`takeover`]: one terminal per table, a fight
//!   of two stored as one alert and one count.
//! - [`publish`]: snapshot then deltas to each subscribed console;
//!   [`viewer`]: what a viewer (the public display) is sent of them;
//!   [`shared`]: what the tasks share; [`snapshot`]: the snapshotter;
//!   [`wallclock`]: the time source of the snapshotter; [`stages`]: the
//!   committer's time per stage (for the bench's breakdown).
//! - [`export`]: the export crate re-exported, plus the console's export
//!   command ([`export::command`]).
//!
//! Crates of their own, re-exported under their old paths: [`config`]
//! (crates/config: the hall config, pairings import, the hall a config
//! describes), [`store`] (crates/store: SQLite and PostgreSQL event
//! stores), the hall core (crates/hall: [`hall`], [`record`], [`table`],
//! [`alerts`]). Of these, only the server depends on quinn.

pub mod admission;
pub mod auth;
pub mod export;

// Runtime (ingest, publish): see the module docs.
pub mod connection;
pub mod ingest;
pub mod journal;
pub mod publish;
pub mod rebuild;
pub mod refusals;
pub mod server;
pub mod shared;
pub mod snapshot;
pub mod stages;
pub mod submit;
pub mod takeover;
pub mod tournament_tables;
pub mod viewer;
pub mod wallclock;
pub mod writer;

// The hall config and the event store are crates of their own
// (crates/config, crates/store); they keep their old paths here
// (`server::config`, `server::store`, `server::pairings`).
pub use ::config::{self, pairings};
pub use ::store;

// The deterministic hall core lives in crates/hall; its modules keep their
// old paths here (`server::hall`, `server::record`, ...).
pub use ::hall::{alerts, command, hall, record, replay, table};

pub use server::{RunningServer, Server, ServerError, ShutdownHandle, StartOptions};
