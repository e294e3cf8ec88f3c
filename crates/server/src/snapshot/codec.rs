//! The snapshot codec (快照编码): the snapshot header and checksum around a
//! body encoded by proto's `codec.rs`, the one module that calls bincode
//! (swappable, see docs/architecture.md on advisory RUSTSEC-2025-0141); the
//! server only derives bincode's `Encode`/`Decode` on its snapshot types.
//!
//! A stored snapshot is `MAGIC` (4 bytes), the format [`VERSION`] (u16
//! LE), the SHA-256 of the body (32 bytes), then the body (bincode,
//! standard config). Decoding checks all three and that the body is read
//! to its end, so an old, torn or bit-flipped snapshot is refused instead
//! of being believed: a snapshot is a cache, and a refused one only costs a
//! longer replay.

use bincode::{Decode, Encode};
use sha2::{Digest, Sha256};

/// The first bytes of every snapshot.
pub const MAGIC: &[u8; 4] = b"CPSN";

/// The snapshot format version. Bump it whenever a snapshot type or the
/// meaning of a field changes: snapshots of another version are ignored
/// (the server replays the round instead).
/// 4: typed end reasons (issue 15) and a table's declared move limit
/// (`TableSnap::move_limit`).
/// 5: the per-table marks are bounded (issue 20): a table's repetition
/// marks and natural-limit mark are of the current capture-free stretch,
/// its offline mark of the current outage.
/// 6: a claim's view carries the penalty accepting it adds
/// (`ClaimView::penalty`, issue 31).
/// 7: each table's ply clocks and public event count (the broadcast,
/// issue 32).
/// 8: alerts' texts and rulings' explanations are catalogue messages
/// (`Alert::text`, `Ruling::explanation`; protocol 6, issue 33).
/// 9: audit entries carry their typed messages (`AuditEntry::what_msg`,
/// `refused_msg`; protocol 10, issue 33), and a lapsed claim's reason
/// (`ClaimStatus::Lapsed::why`, a message since protocol 10). A version-8 snapshot is not
/// read: the server replays the round from the store instead, as for
/// every older version (a snapshot is a cache).
pub const VERSION: u16 = 9;

/// The largest body decoded (a hall of a thousand tables is a few MB).
pub const MAX_BODY: usize = 256 << 20;

const HEADER: usize = 4 + 2 + 32;

/// Why a stored snapshot was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotCodecError {
    /// Not a snapshot, or cut short.
    #[error("not a snapshot (bad magic or too short)")]
    NotASnapshot,
    /// Written by another format version.
    #[error("snapshot format version {found}, this build reads {VERSION}")]
    Version {
        /// Version in the snapshot.
        found: u16,
    },
    /// The body does not match its checksum.
    #[error("snapshot checksum mismatch (corrupt)")]
    Checksum,
    /// The body does not decode.
    #[error("snapshot body does not decode: {0}")]
    Decode(String),
    /// Encoding failed.
    #[error("snapshot does not encode: {0}")]
    Encode(String),
}

/// Encodes `value` with the header.
pub fn encode<T: Encode>(value: &T) -> Result<Vec<u8>, SnapshotCodecError> {
    let body =
        proto::codec::encode_value(value).map_err(|e| SnapshotCodecError::Encode(e.to_string()))?;
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&Sha256::digest(&body));
    out.extend_from_slice(&body);
    Ok(out)
}

/// Decodes a value written by [`encode`], checking magic, version and checksum.
pub fn decode<T: Decode<()>>(bytes: &[u8]) -> Result<T, SnapshotCodecError> {
    if bytes.len() < HEADER || &bytes[..4] != MAGIC {
        return Err(SnapshotCodecError::NotASnapshot);
    }
    let found = u16::from_le_bytes([bytes[4], bytes[5]]);
    if found != VERSION {
        return Err(SnapshotCodecError::Version { found });
    }
    let body = &bytes[HEADER..];
    if Sha256::digest(body).as_slice() != &bytes[6..HEADER] {
        return Err(SnapshotCodecError::Checksum);
    }
    proto::codec::decode_value::<T, MAX_BODY>(body)
        .map_err(|e| SnapshotCodecError::Decode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Encode, Decode, Debug, PartialEq)]
    struct T {
        a: u64,
        s: String,
    }

    #[test]
    fn round_trips_and_refuses_damage() {
        let v = T {
            a: 7,
            s: "棋".into(),
        };
        let b = encode(&v).unwrap();
        assert_eq!(decode::<T>(&b).unwrap(), v);
        let mut flipped = b.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert_eq!(decode::<T>(&flipped), Err(SnapshotCodecError::Checksum));
        let mut old = b.clone();
        old[4] = 0;
        assert!(matches!(
            decode::<T>(&old),
            Err(SnapshotCodecError::Version { .. })
        ));
        assert_eq!(decode::<T>(&b[..10]), Err(SnapshotCodecError::NotASnapshot));
        assert_eq!(
            decode::<T>(b"garbage"),
            Err(SnapshotCodecError::NotASnapshot)
        );
    }
}
