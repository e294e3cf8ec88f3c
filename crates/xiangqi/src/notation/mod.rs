//! Move notations (记谱法): the error type every reader returns and what
//! the readers share; `any.rs` (`parse_any`) tries ICCS, WXF and Chinese
//! text in turn.
//!
//! WXF (`wxf.rs`) and Chinese (`chinese.rs`) are both *descriptive* notations:
//! they name a move by piece, file or place among doubled pieces, direction and
//! number. What they share (the description of a move, and finding the legal
//! move a reading denotes) lives in [`descriptive`] (and its `resolve`); each of the
//! two notations only turns its characters into a reading and a description
//! into its characters.

pub(crate) mod descriptive;
#[cfg(test)]
pub(crate) mod tests;

use crate::IllegalMove;

/// Why a move text could not be read (each variant names the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text does not have the shape of the notation.
    #[error("{text:?}: {reason}")]
    Syntax {
        /// The text (truncated to 40 characters).
        text: String,
        /// What is wrong with its shape.
        reason: String,
    },
    /// No piece of the side to move fits the description ("no red horse on file 8").
    #[error("{text:?}: {reason}")]
    NoPiece {
        /// The text.
        text: String,
        /// Which piece is missing.
        reason: String,
    },
    /// More than one legal move fits ("ambiguous: two red rooks on file 2").
    #[error("{text:?}: ambiguous: {reason}")]
    Ambiguous {
        /// The text.
        text: String,
        /// Which pieces could make the move.
        reason: String,
    },
    /// The piece exists but the description is not a move of that kind of piece
    /// ("a horse on file 8 cannot reach file 5").
    #[error("{text:?}: impossible: {reason}")]
    Impossible {
        /// The text.
        text: String,
        /// Why the piece cannot make such a move at all.
        reason: String,
    },
    /// The text denotes a definite move, but the rules forbid it in this position.
    #[error("{text:?}: illegal: {source}")]
    Illegal {
        /// The text.
        text: String,
        /// The move and the rule it breaks.
        source: IllegalMove,
    },
    /// `parse_any`: the text is none of ICCS, WXF or Chinese notation.
    #[error("{text:?}: not a move in ICCS, WXF or Chinese notation")]
    Unrecognized {
        /// The text.
        text: String,
    },
}

impl NotationError {
    /// True for [`NotationError::Syntax`]: the text is not in this notation at all.
    pub fn is_syntax(&self) -> bool {
        matches!(self, NotationError::Syntax { .. })
    }

    /// The move text the error is about.
    pub fn text(&self) -> &str {
        match self {
            NotationError::Syntax { text, .. }
            | NotationError::NoPiece { text, .. }
            | NotationError::Ambiguous { text, .. }
            | NotationError::Impossible { text, .. }
            | NotationError::Illegal { text, .. }
            | NotationError::Unrecognized { text } => text,
        }
    }

    /// The reason alone, without the text (`illegal: the piece cannot move there`).
    pub fn reason(&self) -> String {
        match self {
            NotationError::Syntax { reason, .. } | NotationError::NoPiece { reason, .. } => {
                reason.clone()
            }
            NotationError::Ambiguous { reason, .. } => format!("ambiguous: {reason}"),
            NotationError::Impossible { reason, .. } => format!("impossible: {reason}"),
            NotationError::Illegal { source, .. } => format!("illegal: {}", source.reason),
            NotationError::Unrecognized { .. } => {
                "not a move in ICCS, WXF or Chinese notation".to_string()
            }
        }
    }
}

/// The text as stored in an error: at most 40 characters.
pub(crate) fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().nth(40).is_some() {
        s.push('…');
    }
    s
}

/// A syntax error about `text`.
pub(crate) fn syntax(text: &str, reason: impl Into<String>) -> NotationError {
    NotationError::Syntax {
        text: clip(text),
        reason: reason.into(),
    }
}
