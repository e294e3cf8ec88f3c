//! caipan hall server: QUIC endpoint, roles, durable event store, table state, alerts.

pub mod auth;
pub mod config;
pub mod store;
