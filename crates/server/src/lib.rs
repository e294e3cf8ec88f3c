//! caipan hall server: QUIC endpoint, roles, durable event store, table state, alerts.

pub mod auth;
pub mod config;
pub mod export;
pub mod pairings;
pub mod store;

// Runtime (ingest, table state, publish): see the module docs.
pub mod alerts;
pub mod connection;
pub mod hall;
pub mod ingest;
pub mod journal;
pub mod publish;
pub mod rebuild;
pub mod record;
pub mod server;
pub mod shared;
pub mod snapshot;
pub mod table;

pub use server::{RunningServer, Server, ServerError, ShutdownHandle};
