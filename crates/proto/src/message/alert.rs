//! Alerts (警报) raised by the server for the arbiters.

use super::text::Message;
use bincode::{Decode, Encode};

/// What an alert is about.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlertKind {
    FlagFall,
    IllegalMove,
    /// A repetition cycle detected (with or without a claim).
    Repetition,
    NaturalLimit,
    /// A player absent 30 minutes after the start.
    NoShow,
    /// Clock times inconsistent (time grew without increment or adjustment, ...).
    ClockAnomaly,
    TableOffline,
    TableOnline,
    FoulThreshold,
    /// A sealed game not resumed 15 minutes after the appointed time.
    SealOverdue,
    /// A player called the arbiter.
    ArbiterCalled,
    /// A player made a claim that awaits a ruling.
    ClaimPending,
    /// A result was reported or set.
    GameOver,
    /// A principal keeps sending requests that are refused (table 0: the
    /// hall; the text names who).
    RefusedCommands,
    /// The declared move limit 限著 (ROC) is full, or a capture after its
    /// declaration asks the arbiter to cancel or reset it.
    MoveLimit,
    /// A stored record that did not decode on start was set aside by the
    /// operator's choice (`caipan serve --quarantine-undecodable`); table 0
    /// (hall-wide), the text names its gseq.
    RecordQuarantined,
    /// A newer terminal took over the table from a connected one (a laptop
    /// swap); the older one was told to stop.
    TerminalReplaced,
    /// Two terminals keep taking one table from each other (within
    /// seconds): raised once per fight, the takeovers counted.
    TwoTerminals,
    /// A signed-in client stopped reading what the server sends it and was
    /// disconnected (table 0: the hall; the text names who).
    StoppedReading,
}

/// One alert.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    pub id: u64,
    pub table: u16,
    pub kind: AlertKind,
    /// Server wall clock, Unix ms.
    pub at_ms: u64,
    /// What happened, as a catalogue message each client renders in its
    /// language (protocol 6; it was a `text_zh`/`text_en` pair).
    pub text: Message,
    pub rule_ids: Vec<String>,
    /// Who acknowledged it, once acknowledged.
    pub acked_by: Option<String>,
}
