//! Messages for people (消息 / 訊息 / thông điệp) as they travel: a
//! catalogue id and typed arguments, never finished sentences, so that
//! every client renders them in its own language (zh-Hans, zh-Hant, en,
//! vi; the catalogues are the `caipan-i18n` crate's).
//!
//! An argument is typed so that a client can render it in its language
//! and script: a side (红方 / 紅方 / Red / Đỏ), a piece (车 / 俥 / rook /
//! Xe), a duration (m:ss), a count, rule ids, or a nested message. Text
//! that must never be translated or converted (a player's name, an
//! arbiter's typed reason, a square) travels as [`Arg::Verbatim`].
//!
//! A message from a peer is data like any other: its id may be unknown to
//! the client (rendered as the id and its arguments), its arguments may be
//! missing or of another type (rendered as Fluent renders a missing
//! argument); nothing here can fail on it. Its size is bounded by the
//! frame limit, and [`MAX_DEPTH`] bounds the nesting a renderer follows.

use super::common::Side;
use bincode::{Decode, Encode};

/// How deeply a renderer follows [`Arg::Message`] inside arguments (a
/// peer could nest messages as deep as the frame allows).
pub const MAX_DEPTH: usize = 12;

/// A message: a catalogue id (`alert-flag-fall`) and its named arguments.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Message {
    /// The catalogue id: lowercase ASCII words joined by `-`.
    pub id: String,
    /// Named arguments, in the order the code gave them.
    pub args: Vec<(String, Arg)>,
}

/// A piece kind as a message argument (the wire's own, so that proto
/// stays plain data).
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// 帅/将 (general, tướng).
    General,
    /// 仕/士 (advisor, sĩ).
    Advisor,
    /// 相/象 (elephant, tượng).
    Elephant,
    /// 马 (horse, mã).
    Horse,
    /// 车 (chariot, xe).
    Chariot,
    /// 炮 (cannon, pháo).
    Cannon,
    /// 兵/卒 (soldier, tốt).
    Soldier,
}

/// A typed argument.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq, Hash)]
pub enum Arg {
    /// A count or a number (plies, cycles, table numbers).
    Int(i64),
    /// A side, rendered as the language's 红方 / Red.
    Side(Side),
    /// A piece of a side, rendered in the language's glyphs or words.
    Piece {
        /// Whose piece (the glyph differs by side in Chinese).
        side: Side,
        /// Which piece.
        kind: PieceKind,
    },
    /// A duration in milliseconds, rendered as clock text (m:ss).
    DurationMs(u64),
    /// Rule ids (`AXF-D1`), rendered as a list; never translated.
    Rules(Vec<String>),
    /// Text rendered as it is: names, squares, an arbiter's typed reason.
    Verbatim(String),
    /// A nested message (a verdict inside a ruling, say).
    Message(Box<Message>),
}

impl Message {
    /// A message without arguments.
    pub fn new(id: impl Into<String>) -> Message {
        Message {
            id: id.into(),
            args: Vec::new(),
        }
    }

    /// This message with one more argument.
    pub fn arg(mut self, name: impl Into<String>, value: Arg) -> Message {
        self.args.push((name.into(), value));
        self
    }

    /// This message with a count argument.
    pub fn int(self, name: &str, n: impl Into<i64>) -> Message {
        self.arg(name, Arg::Int(n.into()))
    }

    /// This message with a side argument.
    pub fn side(self, name: &str, side: Side) -> Message {
        self.arg(name, Arg::Side(side))
    }

    /// This message with a verbatim text argument.
    pub fn verbatim(self, name: &str, text: impl Into<String>) -> Message {
        self.arg(name, Arg::Verbatim(text.into()))
    }

    /// The argument named `name`, if given.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }
}
