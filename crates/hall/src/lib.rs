//! caipan hall core (大厅核心): the referee state machine of one hall,
//! deterministic and without I/O. The server (crates/server) stores each
//! record durably, then hands it here; replaying the stored records in
//! order rebuilds the same hall.
//!
//! # Modules
//! - [`hall`]: [`Hall`], every table's state, the alerts, the claims, the
//!   audit trail and the hall pause; [`Hall::apply`] takes one stored
//!   record and collects its [`Effects`] (deltas for consoles, controls for
//!   terminals) in the [`Book`].
//! - [`picture`]: the consoles' picture of the hall, every table's view
//!   kept shared so that a snapshot costs pointer copies under the hall
//!   lock ([`Hall::picture`], [`picture::Picture`]); [`views`]: those
//!   kept views.
//! - [`invariants`]: what is always true of a hall, checked
//!   ([`Hall::check_invariants`], after every record in debug builds).
//! - [`book`]: the [`Book`] (alerts, claims, audit trail, control
//!   numbering) and the [`Effects`] of the record being applied, written
//!   by the hall and by the tables.
//! - [`claims`]: the claims awaiting an arbiter's ruling and their
//!   history ([`claims::ClaimBook`]).
//! - [`command`]: the arbiters' commands, one module per family (pause,
//!   seal, claim and ruling, foul, clock, result, alert, move limit), each
//!   with who may give it, its check, its apply and its words for the
//!   audit trail; [`refusal`]: why one is refused ([`Refusal`]).
//! - [`loss`]: the losses the hall proposes on its own (flag fall, foul
//!   threshold, no-show, late resumption): the alert and the claim as one
//!   typed message, rendered to words in one place.
//! - `notes`: the server's own notes applied to the hall (connection
//!   coming and going, offline alert, flag fall, no-show, late
//!   resumption, refused commands, a quarantined record).
//! - [`due`]: the time-based notes due at a time ([`due::due_notes`]: flag
//!   fall not reported, offline terminal, no-show, late resumption), which
//!   the server's ticker stores and the fuzz target checks.
//! - [`record`]: what the server stores ([`Record`]: table events, accepted
//!   commands, refusals, server notes) and its byte encoding.
//! - [`replay`]: the one loop that rebuilds a hall from stored records
//!   ([`replay::Replay`]: decode, apply, count; an undecodable record is
//!   an error naming its `gseq`), used by the server's restart, the export
//!   and the fuzz target.
//! - [`table`]: one table's state machine (board, clock mirror, claims,
//!   fouls, sealing) and the wire↔game conversions it uses.
//! - [`alerts`]: the alert book and the grace periods of the server's own
//!   alerts.
//! - [`audit`]: the audit trail's typed words (`audit-*` messages beside
//!   the English the trail stored before).
//! - [`public`]: the public projection for the broadcast (names, moves,
//!   clocks, results; never claims, alerts, fouls, rulings or the audit)
//!   and the public events with their sequence numbers.
//! - [`fixture`]: the hall the tests and the fuzz target build
//!   ([`fixture::Fixture`]).
//! - [`snapshot`]: what a snapshot holds (plain data with bincode
//!   encoding) and the conversions from and to the runtime types.
//!
//! Dependencies: proto (plain data, no network), rulebook, xiangqi. No
//! tokio, quinn, rustls, SQLite or file system.

pub mod alerts;
pub mod audit;
pub mod book;
pub mod claims;
pub mod command;
pub mod due;
pub mod fixture;
pub mod hall;
pub mod invariants;
pub mod loss;
mod notes;
pub mod picture;
pub mod ply_clocks;
pub mod public;
pub mod record;
pub mod refusal;
pub mod replay;
pub mod snapshot;
#[cfg(test)]
mod states;
pub mod table;
pub mod views;

pub use crate::book::{Book, Effects};
pub use crate::hall::{Hall, HallSetup};
pub use crate::invariants::Broken;
pub use record::{Note, Record};
pub use refusal::Refusal;
pub use replay::{replay, Replay, ReplayError, Replayed};
