//! Dialogs (对话框): the steps that turn a key into a complete command —
//! choose an option, type a text (a reason, a sealed move, clock times),
//! confirm a drastic action with `y`.
//!
//! A [`Dialog`] holds the action being built ([`Pending`], with the values
//! collected so far) and the step now asked ([`DialogStep`]). `keys.rs`
//! fills the pending action from the answer and asks for the next missing
//! value until the command is complete.

use proto::{FoulKind, GameResult, IccsMove, Side, Verdict};

/// An action being built, with what has been collected so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    /// `/`: the filter text, applied as it is typed.
    Filter,
    /// Jump to a table by number.
    Goto,
    /// Pause one table: optional reason.
    PauseTable { table: u16, reason: Option<String> },
    /// Pause the whole hall: reason, then confirm.
    PauseHall { reason: Option<String> },
    /// Resume the whole hall: confirm.
    ResumeHall,
    /// Seal (封棋): the sealed move, then confirm.
    Seal { table: u16, mv: Option<IccsMove> },
    /// Unseal: confirm.
    Unseal { table: u16 },
    /// Record a foul: side and kind, then a note.
    Foul {
        table: u16,
        choice: Option<(Side, FoulKind)>,
        note: Option<String>,
    },
    /// Adjust a clock: both times, a reason, then confirm.
    Adjust {
        table: u16,
        times: Option<(u64, u64)>,
        reason: Option<String>,
    },
    /// Set a result: the result, a reason, then confirm.
    Result {
        table: u16,
        result: Option<GameResult>,
        reason: Option<String>,
    },
    /// Accept a claim's recommended ruling: confirm.
    Accept { table: u16, claim_id: u64 },
    /// Rule otherwise: verdict, a reason (required), then confirm.
    Override {
        table: u16,
        claim_id: u64,
        verdict: Option<(Verdict, Option<Side>)>,
        reason: Option<String>,
    },
    /// Hand a claim to the chief arbiter: a reason.
    Escalate {
        table: u16,
        claim_id: u64,
        reason: Option<String>,
    },
    /// Export the round's results: confirm.
    Export,
    /// Acknowledge every open alert (`X`): confirm.
    AckAll { count: usize },
    /// Declare or cancel the move limit 限著 (ROC): the choice, then confirm.
    MoveLimit {
        table: u16,
        choice: Option<super::move_limit::LimitChoice>,
    },
}

/// One option of a choice step, picked by its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub key: char,
    pub label: String,
}

/// What the dialog asks now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DialogStep {
    /// `y` carries the action out, `n`/Esc cancels.
    Confirm { message: String },
    /// Pick one option by key.
    Choose {
        prompt: String,
        options: Vec<Choice>,
    },
    /// Type a line; Enter submits. `required` refuses an empty line.
    Text {
        prompt: String,
        buffer: String,
        required: bool,
    },
}

/// An open dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    pub title: String,
    pub pending: Pending,
    pub step: DialogStep,
    /// Why the last answer was not taken (bad clock time, empty reason...).
    pub error: Option<String>,
}
