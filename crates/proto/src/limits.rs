//! Size limits of the protocol (one place, so the server, the clients and
//! the docs agree).
//!
//! A frame is a 4-byte big-endian payload length followed by the payload
//! (one bincode-encoded message). The length excludes the 4-byte prefix.

/// Largest client-to-server payload ([`crate::ClientMsg`]): 64 KiB. The
/// biggest legitimate client message is a command with a few text fields.
pub const MAX_CLIENT_FRAME: usize = 64 * 1024;

/// Largest server-to-client payload ([`crate::ServerMsg`]): 4 MiB, for hall
/// snapshots (a 1,000-table hall with full move lists is under 1 MiB).
pub const MAX_SERVER_FRAME: usize = 4 * 1024 * 1024;

/// Bytes of the length prefix.
pub const LEN_PREFIX: usize = 4;
