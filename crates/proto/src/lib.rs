//! caipan wire protocol: bincode messages, framing, versions, limits, TLS setup.
//!
//! # Layers
//! - [`message`]: every message type ([`ClientMsg`], [`ServerMsg`] and
//!   their parts). Plain data; no I/O.
//! - `codec`: the only place bincode is called (size-limited decode).
//! - `frame`: length-prefixed frames over any async byte stream (QUIC streams).
//! - `tls`: certificates, fingerprints, quinn server/client configs.
//! - `conn`: client `connect` and server-side accept helpers.
//!
//! # Versions and limits
//! ALPN [`ALPN`] (`caipan/1`) selects the protocol family, and
//! [`Hello::protocol_version`] must equal [`PROTOCOL_VERSION`].

pub mod message;

pub use message::*;

/// Protocol version carried in [`Hello`].
pub const PROTOCOL_VERSION: u16 = 1;

/// TLS ALPN protocol id.
pub const ALPN: &[u8] = b"caipan/1";

pub mod codec;
pub mod fingerprint;
pub mod frame;
pub mod limits;
pub mod tls;

pub use codec::{CodecError, WireMessage};
pub use fingerprint::{Fingerprint, ParseFingerprintError};
pub use frame::{FrameError, FrameReader, FrameWriter};
pub use tls::{ServerIdentity, TlsError, Trust};
pub mod conn;

pub use conn::{accept_hello, connect, AcceptError, ClientConn, ConnError, Connector, ServerConn};
