//! caipan table terminal (台端): the clock of record, move entry, the
//! offline outbox, the real-game replayer and the hall load generator.
//!
//! Layers, each usable without the ones above it:
//! - [`engine`]: the headless terminal — clock (crates/rulebook), board and
//!   move entry (crates/xiangqi), claims and offers, the server's controls —
//!   reporting every event through the [`outbox`] (stored before sent).
//! - [`link`]: the network side — connect, resend from the server's
//!   high-water mark, acks, controls, reconnect with back-off.
//! - [`terminal`]: engine + link in one task, driven through a handle; its
//!   screen is published as a [`engine::Screen`] value.
//! - [`tui`]: the ratatui screen (app state, key handling, pure rendering).
//! - [`replay`]: plays real games on many terminals (`caipan table replay`,
//!   `caipan demo`), with scripted incidents.
//! - [`load`]: `caipan bench hall`'s table and console load, and the raw
//!   QUIC baseline.

pub mod crc;
pub mod engine;
pub mod game;
pub mod link;
pub mod load;
pub mod move_limit;
pub mod outbox;
pub mod paths;
pub mod replay;
pub mod terminal;
pub mod timebase;
pub mod tui;

pub use engine::{Action, Engine, EngineError, Screen, Status, TableInfo};
pub use outbox::Outbox;
