//! Every message of the caipan protocol, version [`crate::PROTOCOL_VERSION`].
//!
//! Two top-level enums travel on the wire: [`ClientMsg`] (table terminals
//! and consoles to the server) and [`ServerMsg`] (the server to them). All
//! types are plain data (strings, integers, enums, vectors) with bincode
//! `Encode`/`Decode` derives; encoding lives in [`crate::codec`] only.
//!
//! Files: `common` (sides, moves, results, clocks), `hello` (handshake),
//! `table_event` (what terminals report), `command` (console commands),
//! `ruling` (recommended and decided rulings), `text` (messages for
//! people: catalogue ids and typed arguments), `move_limit` (the ROC
//! declared move limit), `round` (the next round's pairing), `alert`, `view` (hall view
//! for consoles), `step` (a table's compact delta from the view a console
//! holds), `reply` (acks, errors, deltas, table controls).

mod alert;
mod command;
mod common;
mod hello;
mod move_limit;
mod reply;
mod round;
mod ruling;
mod step;
mod table_event;
mod text;
mod view;

pub use alert::{Alert, AlertKind};
pub use command::Command;
pub use common::{
    ClockStage, ClockState, EndReason, FoulCount, FoulKind, GameResult, IccsMove, Side,
    TimeControl, SQUARES,
};
pub use hello::{HallInfo, Hello, HelloOk, Role, TableSession};
pub use move_limit::{MoveLimit, MoveLimitView};
pub use reply::{Ack, ControlToTable, Delta, ErrorCode, ErrorReply, RequestRef, ServerMsg};
pub use round::{RoundBoard, RoundChange, RoundProposal};
pub use ruling::{effect_en, ClaimPenalty, Decision, Ruling, Verdict};
pub use step::{played_board, StepError, TableStep, MAX_VIEW_MOVES};
pub use table_event::{EventEnvelope, TableEvent};
pub use text::{Arg, Message, PieceKind, MAX_DEPTH};
pub use view::{
    AuditEntry, ClaimKind, ClaimStatus, ClaimView, ClockSample, HallView, PauseInfo, RulingOutcome,
    SnapshotPage, StandingOrder, TableLog, TableStatus, TableView,
};

use bincode::{Decode, Encode};

/// Every client-to-server message.
///
/// The first frame of a connection must be `Hello`. Table terminals then
/// send `Event`s (answered by `Ack` or `Error` with `RequestRef::Event`),
/// consoles send `Command`s with a client-chosen `id` (answered by
/// `CommandOk { id }` or `Error` with `RequestRef::Command { id }`).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum ClientMsg {
    Hello(Hello),
    Event(EventEnvelope),
    Command {
        id: u64,
        command: Command,
    },
    /// Liveness/latency probe; answered by `ServerMsg::Pong` with the same nonce.
    Ping {
        nonce: u64,
    },
}
