//! The codec: the ONLY module that calls bincode (advisory RUSTSEC-2025-0141:
//! bincode is unmaintained, so it stays swappable behind this file). Besides
//! the wire messages, [`encode_value`] and [`decode_value`] serve other
//! bincode-derived values (the server's snapshots), so no other crate calls
//! bincode itself.
//!
//! Decoding is bounded with `config::standard().with_limit::<N>()` where `N`
//! is the direction's frame limit ([`crate::limits`]), so a hostile length
//! inside a payload cannot make the decoder allocate more than a frame's
//! worth; trailing bytes after a message are an error.

use crate::limits::{MAX_CLIENT_FRAME, MAX_SERVER_FRAME};
use crate::message::{ClientMsg, ServerMsg};
use bincode::config;

/// Why a payload did not encode or decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// The encoded message is larger than the direction's limit.
    #[error("message of {len} bytes exceeds the {max}-byte limit")]
    TooLarge { len: usize, max: usize },
    /// The payload is not a valid message.
    #[error("undecodable payload: {0}")]
    Decode(String),
    /// The payload holds a valid message followed by `extra` stray bytes.
    #[error("{extra} trailing bytes after the message")]
    TrailingBytes { extra: usize },
    /// Encoding failed (should not happen for well-formed values).
    #[error("encode failed: {0}")]
    Encode(String),
}

/// A message type that travels in one direction of the protocol, with that
/// direction's frame limit.
pub trait WireMessage: Sized {
    /// Largest payload in bytes.
    const MAX_FRAME: usize;
    /// Appends the encoded message to `out` (no length prefix). On error `out`
    /// is left as it was.
    fn encode_into(&self, out: &mut Vec<u8>) -> Result<(), CodecError>;
    /// Decodes exactly one message from `payload`.
    fn decode(payload: &[u8]) -> Result<Self, CodecError>;
    /// Encodes into a fresh buffer.
    fn encode(&self) -> Result<Vec<u8>, CodecError> {
        let mut out = Vec::new();
        self.encode_into(&mut out)?;
        Ok(out)
    }
}

macro_rules! wire_message {
    ($ty:ty, $max:expr, $fast:expr) => {
        impl WireMessage for $ty {
            const MAX_FRAME: usize = $max;

            fn encode_into(&self, out: &mut Vec<u8>) -> Result<(), CodecError> {
                let start = out.len();
                let cfg = config::standard().with_limit::<{ $max }>();
                if let Err(e) = bincode::encode_into_std_write(self, out, cfg) {
                    out.truncate(start);
                    return Err(CodecError::Encode(e.to_string()));
                }
                let len = out.len() - start;
                if len > $max {
                    out.truncate(start);
                    return Err(CodecError::TooLarge { len, max: $max });
                }
                Ok(())
            }

            fn decode(payload: &[u8]) -> Result<Self, CodecError> {
                if payload.len() > $max {
                    return Err(CodecError::TooLarge {
                        len: payload.len(),
                        max: $max,
                    });
                }
                if let Some(msg) = $fast(payload) {
                    return Ok(msg);
                }
                let cfg = config::standard().with_limit::<{ $max }>();
                let (msg, used): (Self, usize) = bincode::decode_from_slice(payload, cfg)
                    .map_err(|e| CodecError::Decode(e.to_string()))?;
                if used != payload.len() {
                    return Err(CodecError::TrailingBytes {
                        extra: payload.len() - used,
                    });
                }
                Ok(msg)
            }
        }
    };
}

// A clock press, the frame a hall receives most, is read by hand
// (`press_decode.rs`: the same bytes to the same message, or `None` and
// bincode decides).
wire_message!(ClientMsg, MAX_CLIENT_FRAME, crate::press_decode::decode);
wire_message!(ServerMsg, MAX_SERVER_FRAME, |_: &[u8]| None::<ServerMsg>);

/// `ClientMsg::Event(env)` borrowed: encodes as that message does, byte for
/// byte (the variant's index, then the envelope), without cloning the
/// envelope into a message first. The store's record of every table event
/// is this encoding (`hall::record`), made once per event (issue 40).
struct EventMsg<'a>(&'a crate::EventEnvelope);

/// `ClientMsg::Event`'s variant index (the second variant, after `Hello`);
/// the test `a_borrowed_event_encodes_as_its_message` holds them equal.
const EVENT_VARIANT: u32 = 1;

impl bincode::Encode for EventMsg<'_> {
    fn encode<E: bincode::enc::Encoder>(
        &self,
        encoder: &mut E,
    ) -> Result<(), bincode::error::EncodeError> {
        bincode::Encode::encode(&EVENT_VARIANT, encoder)?;
        bincode::Encode::encode(self.0, encoder)
    }
}

/// Appends the encoding of `ClientMsg::Event(env)` to `out` (what
/// [`WireMessage::encode_into`] of that message appends, with its limit),
/// without building the message. On error `out` is left as it was.
pub fn encode_event_into(env: &crate::EventEnvelope, out: &mut Vec<u8>) -> Result<(), CodecError> {
    let start = out.len();
    let cfg = config::standard().with_limit::<{ MAX_CLIENT_FRAME }>();
    if let Err(e) = bincode::encode_into_std_write(EventMsg(env), out, cfg) {
        out.truncate(start);
        return Err(CodecError::Encode(e.to_string()));
    }
    let len = out.len() - start;
    if len > MAX_CLIENT_FRAME {
        out.truncate(start);
        return Err(CodecError::TooLarge {
            len,
            max: MAX_CLIENT_FRAME,
        });
    }
    Ok(())
}

/// Encodes any bincode-derived value (not a wire message: no frame limit).
pub fn encode_value<T: bincode::Encode>(value: &T) -> Result<Vec<u8>, CodecError> {
    bincode::encode_to_vec(value, config::standard()).map_err(|e| CodecError::Encode(e.to_string()))
}

/// Decodes exactly one value written by [`encode_value`] from `bytes`, reading
/// at most `LIMIT` bytes of declared lengths; trailing bytes are an error.
pub fn decode_value<T: bincode::Decode<()>, const LIMIT: usize>(
    bytes: &[u8],
) -> Result<T, CodecError> {
    let cfg = config::standard().with_limit::<LIMIT>();
    let (value, used): (T, usize) =
        bincode::decode_from_slice(bytes, cfg).map_err(|e| CodecError::Decode(e.to_string()))?;
    if used != bytes.len() {
        return Err(CodecError::TrailingBytes {
            extra: bytes.len() - used,
        });
    }
    Ok(value)
}

/// Bytes `value` takes encoded (as a wire message's part or by
/// [`encode_value`]), without encoding it into memory.
pub fn encoded_len<T: bincode::Encode>(value: &T) -> usize {
    let mut size = bincode::enc::write::SizeWriter::default();
    match bincode::encode_into_writer(value, &mut size, config::standard()) {
        Ok(()) => size.bytes_written,
        Err(_) => usize::MAX,
    }
}
