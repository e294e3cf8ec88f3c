//! caipan hall server: QUIC endpoint, roles, durable event store, table state, alerts.

pub mod admission;
pub mod auth;
pub mod config;
pub mod export;
pub mod pairings;
pub mod store;

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
pub mod submit;
pub mod wallclock;

// The deterministic hall core lives in crates/hall; its modules keep their
// old paths here (`server::hall`, `server::record`, ...).
pub use ::hall::{alerts, hall, record, table};

pub use server::{RunningServer, Server, ServerError, ShutdownHandle, StartOptions};
