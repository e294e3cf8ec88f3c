//! caipan wire protocol: bincode messages, framing, versions, limits, TLS setup.
//!
//! # Layers
//! - [`message`]: every message type ([`ClientMsg`], [`ServerMsg`] and
//!   their parts). Plain data (strings, integers, enums, vectors); no I/O,
//!   no dependency on the game or rule crates.
//! - [`codec`]: the only place bincode is called; decoding is bounded by
//!   the direction's frame limit ([`WireMessage`]). [`press_decode`] reads
//!   the commonest frame, a clock press, by hand (bincode's rules, bincode
//!   deciding everything else).
//! - [`frame`]: `u32` big-endian length-prefixed frames over any async
//!   byte stream; [`FrameReader`] (bounded, cancel-safe, skips oversize
//!   frames) and [`FrameWriter`] (batching, cancel-safe flush).
//! - [`tls`]: the server's persisted self-signed identity and stateless
//!   reset key, [`Fingerprint`] pinning, quinn server/client configs.
//! - [`conn`]: client [`connect`]/[`Connector`] → [`ClientConn`], and the
//!   server-side [`accept_hello`] → [`ServerConn`].
//! - [`datadir`]: the file names of the server's TLS identity in its data
//!   dir (plain constants, also without `net`).
//! - [`durable`]: small files written to survive a power cut (temp,
//!   fsync, rename, fsync the directory); [`powercut`]: the model of a disk
//!   that forgets what was not synced, for the power-cut tests.
//! - [`convert`]: wire side and move to and from the game crate's colour and
//!   move (the one place proto uses crates/xiangqi), and the side names.
//! - [`logsafe`]: peer-controlled text escaped for log lines (one
//!   function, [`logsafe::escaped`]) and cut for storage.
//! - [`roles`]: who is connected ([`roles::Principal`]) and what each role
//!   may do ([`roles::authorize`]): the one roles table, used by the
//!   server's authorization and the console's key hints.
//!
//! # Features
//! Without features proto is plain data (messages, codec, conversions,
//! roles): what the hall core (crates/hall) and the fuzz targets need.
//! `frame` adds the async framing (tokio); `net` (default) adds TLS and the
//! QUIC connection (quinn, rustls).
//!
//! # Stream layout
//! One QUIC connection per client and ONE bidirectional stream on it,
//! opened by the client: [`ClientMsg`] frames up (the first is always
//! `Hello`), [`ServerMsg`] frames down (the hello answer, then replies and
//! pushes, in order). See [`conn`].
//!
//! # Versions and limits
//! ALPN [`ALPN`] (`caipan/1`) selects the protocol family, and
//! [`Hello::protocol_version`] must equal [`PROTOCOL_VERSION`]. Frame
//! limits are in [`limits`]: 64 KiB client-to-server, 4 MiB
//! server-to-client (hall snapshots).

pub mod message;
pub mod refusals;

pub use message::*;

/// Protocol version carried in [`Hello`]. Version 2 (not released between):
/// typed end reasons (issue 15) and the ROC declared move limit
/// (`Command::DeclareMoveLimit` / `CancelMoveLimit`, `ControlToTable::MoveLimit`,
/// `TableView::move_limit`, `TableSession::move_limit`, `ClaimKind::MoveLimit`,
/// `AlertKind::MoveLimit`). Version 3: `AlertKind::RecordQuarantined` (a
/// version-2 console could not decode that alert, so it is refused at the
/// hello instead of failing mid-session). Version 4: one [`Ack`] may answer
/// several events (the server coalesces consecutive acks of a table and
/// epoch into the last, whose `seq`, the table's high-water mark, covers
/// them all): a client counts acknowledged events by `seq`, never by acks.
/// Version 5: one terminal per table — [`ServerMsg::TakenOver`] tells a
/// table's older terminal that a newer one took the table (it stops
/// reconnecting for it unless the person at it confirms), and
/// `AlertKind::TerminalReplaced` / `AlertKind::TwoTerminals`; a joining
/// terminal rebuilds the game from `HelloOk.table` (whose clock the server
/// extrapolates to the hello); [`ControlToTable::ClaimDecided`] announces a
/// decided claim on the table's terminal, and `ClaimView::penalty` types
/// the penalty that accepting a recommendation adds. Version 5 was
/// released at ea22edc (tests/fixtures/v5 holds what it stored).
/// Version 6: texts for people travel as [`Message`]s, a catalogue id and
/// typed arguments (issue 33), rendered by each client in its own
/// language (zh-Hans, zh-Hant, en, vi); version 6 was released at 66551c5
/// (tests/fixtures/v6 holds what it stored). Version 7: standing orders
/// and clock anomalies as messages, rounds published in the running hall
/// (issue 36); released at ebee377 (tests/fixtures/v7). Version 8:
/// refusals, controls, end reasons and the rulebook's explanations as
/// messages (issue 33), the next round's corrections (issue 36), pictures
/// paged under the frame limit (issue 40); released at 5e553cb
/// (tests/fixtures/v8). Version 9: the hall's language in `HallInfo`
/// (issue 33), the withdrawal of a published round and the late entries
/// and withdrawals of players (`Command::WithdrawRound`,
/// `Command::EnterPlayer`, `Command::WithdrawPlayer`, issue 36); released
/// at 5608c35 (tests/fixtures/v9). Version 10: audit rows typed —
/// `AuditEntry::what_msg` (what was done, an `audit-*` message whose
/// English is `what`) and `AuditEntry::refused_msg` (the refusal's own
/// message, whose English is `refused`), appended to the struct; `None`
/// on rows stored before, which render as their text (issue 33); a
/// lapsed claim's reason typed — `ClaimStatus::Lapsed::why` is a
/// [`Message`] (an `audit-lapse-*` id) instead of English prose, rendered
/// by each reader in its language (issue 33); released at 340e8f4
/// (tests/fixtures/v10). Version 11: a console's deltas of one fan-out
/// tick in one frame, [`ServerMsg::Deltas`] (a table's view only its last
/// of the tick; issue 40), appended to `ServerMsg`; released at da83b01
/// (tests/fixtures/v11). Version 12: a table's compact delta,
/// `Delta::TableStep` ([`TableStep`]: the moves since the view the
/// console holds and the small fields, the board only when the receiver
/// cannot make it by playing the moves, [`played_board`];
/// the whole `Delta::Table` when the names, the move limit or the order
/// changed or moves were taken back), appended to `Delta`; the server
/// sends it only to a console that holds its base (issue 40); released
/// at 7d2b947 (tests/fixtures/v12). Version 13 (this release; every wire
/// change of it goes here, none into a 14): nothing yet.
pub const PROTOCOL_VERSION: u16 = 13;

/// TLS ALPN protocol id.
pub const ALPN: &[u8] = b"caipan/1";

#[cfg(feature = "net")]
pub mod chacha_keys;
#[cfg(all(test, feature = "net"))]
mod chacha_keys_tests;
pub mod codec;
pub mod convert;
pub mod datadir;
pub mod durable;
pub mod fingerprint;
#[cfg(feature = "frame")]
pub mod frame;
#[cfg(feature = "net")]
pub mod lean_session;
#[cfg(all(test, feature = "net"))]
mod lean_session_tests;
pub mod limits;
pub mod logsafe;
pub mod paging;
pub mod powercut;
pub mod press_decode;
pub mod roles;
#[cfg(feature = "net")]
pub mod tls;
#[cfg(feature = "net")]
pub mod udp;

pub use codec::{CodecError, WireMessage};
pub use fingerprint::{Fingerprint, ParseFingerprintError};
#[cfg(feature = "frame")]
pub use frame::{FrameError, FrameReader, FrameWriter};
#[cfg(feature = "net")]
pub use tls::{ServerIdentity, TlsError, Trust};
#[cfg(feature = "net")]
pub mod conn;
#[cfg(feature = "net")]
pub mod shell;

#[cfg(feature = "net")]
pub use conn::{accept_hello, connect, AcceptError, ClientConn, ConnError, Connector, ServerConn};
