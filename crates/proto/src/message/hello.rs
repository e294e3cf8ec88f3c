//! The handshake: the client's first frame ([`Hello`]) and the server's
//! answer ([`HelloOk`], or an `Error` followed by the connection closing).

use super::common::{ClockState, TimeControl};
use super::view::TableStatus;
use bincode::{Decode, Encode};

/// The client's first frame on the connection's stream.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    /// Must equal [`crate::PROTOCOL_VERSION`]; otherwise the server answers
    /// `ErrorCode::BadVersion` and closes.
    pub protocol_version: u16,
    /// Credential from the hall config (a table's, a deputy's, the chief's
    /// or a viewer's token).
    pub token: String,
    /// Free text naming the client software, e.g. `caipan-table 0.1.0`.
    pub client: String,
}

/// What the authenticated peer may do (see the roles table in docs/architecture.md).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// 裁判长: everything.
    Chief,
    /// 副裁判 with the tables assigned in the config.
    Deputy { name: String, tables: Vec<u16> },
    /// A table terminal, reporting for `table` only.
    Table { table: u16 },
    /// Read-only hall view (public display).
    Viewer,
}

/// Hall-wide facts every client needs.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct HallInfo {
    /// The hall's stable id (16 hex digits from the tournament's name, site
    /// and date): a table terminal keys its outbox by it, so a standby
    /// server of the same hall finds the same outbox. Peer text: a client
    /// checks it before using it in a path.
    pub hall_id: String,
    pub tournament: String,
    pub round: u32,
    /// Rule set id, e.g. `AXF-2008`.
    pub rule_set: String,
    pub time_control: TimeControl,
    /// Plies that make the natural move limit (自然限着), e.g. 120 (60 rounds).
    pub natural_limit_plies: u32,
    /// The hall's language (`[tournament] language`) as a BCP 47 tag
    /// (`zh-Hans`, `zh-Hant`, `en`, `vi`), the table terminal's first
    /// language when it is given none; `None`: the hall has none (protocol
    /// 9). Peer text: a client reads a tag it knows and ignores any other.
    pub language: Option<String>,
}

/// For a table terminal: where the server's record of its table stands, so
/// that the terminal resends its outbox from `high_water + 1` (same epoch)
/// and resumes the clock.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct TableSession {
    pub table: u16,
    pub red: String,
    pub black: String,
    /// The latest epoch the server has stored for this table (0: none yet).
    /// An epoch is a numbering run of `seq`s chosen by the terminal; a
    /// terminal that lost its outbox starts a new, higher epoch.
    pub epoch: u32,
    /// Highest `seq` stored in that epoch (0: none).
    pub high_water: u64,
    /// The server's last known clock (the terminal is the clock of record;
    /// this is for a terminal that restarted without its own state).
    pub clock: ClockState,
    pub status: TableStatus,
    /// Moves played so far (ICCS), so a restarted terminal can rebuild its board.
    pub moves: Vec<super::common::IccsMove>,
    /// The declared move limit 限著 (ROC), if any.
    pub move_limit: Option<super::move_limit::MoveLimit>,
}

/// The server's answer to an accepted [`Hello`].
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct HelloOk {
    pub role: Role,
    /// Server software version (free text).
    pub server_version: String,
    pub hall: HallInfo,
    /// Present when `role` is `Table`.
    pub table: Option<TableSession>,
    /// Server wall clock at the answer (Unix ms), for display offsets.
    pub server_ms: u64,
}
