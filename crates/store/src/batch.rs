//! Batched durable records (批量事件记录, issue 40): the body of one row of
//! SQLite's `event_batches`, which holds the events of one `(table,
//! epoch)` written by one commit (and, in a store migrated from schema 3
//! or earlier, the events of one table in a stretch of the old log).
//!
//! A row's columns say where it sits (`first_gseq`, `last_gseq`,
//! `commit_gseq`, `table_no`, `epoch`, `first_seq`, `last_seq`, `n`); its
//! `body` holds the events themselves:
//!
//! ```text
//! body  = version:u8 (= 2) event{n}
//! event = gseq_delta:varint seq:varint kind_len:varint kind
//!         payload_len:varint payload received_at_ms:zigzag-varint
//! ```
//!
//! Format 1 (written until 2026-12-06) carried each event's content hash
//! (SHA-256 of kind, a zero byte and payload: [`crate::content_hash`])
//! after its payload, `hash:[u8; 32]`; it is still read. Format 2 leaves
//! the hash out: it is a function of what the body holds, so a reader
//! computes it ([`StoredEvent::payload_hash`]), and the writer compares a
//! resend with what it wrote (or computes the hash) only when a resend
//! comes. That took 32 of the ~75 bytes of a clock press off the log and
//! a SHA-256 per event off the writer (docs/benchmarks.md).
//!
//! `varint` is unsigned LEB128 (at most 10 bytes for a u64);
//! `gseq_delta` is the gap to the previous event's gseq (the first event's
//! from `first_gseq`, so 0). Events are in gseq order, which is not their
//! seq order when a resend filled a gap. The events of a table in one
//! commit are not contiguous in gseq (other tables' events and audit rows
//! come between), so a row covers `[first_gseq, last_gseq]` with holes.
//!
//! Decoding checks everything against the row's columns (version, count,
//! bounds of every length, gseqs rising from `first_gseq` to `last_gseq`,
//! seqs within `[first_seq, last_seq]`, the kind UTF-8 and at most 64
//! bytes, no trailing bytes): a damaged body is an error naming the row,
//! never a panic or a wrong event.

use super::{EventKey, StoredEvent};

/// The body format written by this build.
pub(crate) const BODY_VERSION: u8 = 2;

/// The first body format: each event's content hash after its payload.
const BODY_V1: u8 = 1;

/// Longest kind name (as `NewEvent::kind` allows).
const MAX_KIND: usize = 64;

/// The columns of one batch row, the body still encoded.
#[derive(Debug, Clone)]
pub(crate) struct BatchRow {
    pub first_gseq: u64,
    pub last_gseq: u64,
    pub table: u32,
    pub epoch: u32,
    pub first_seq: u64,
    pub last_seq: u64,
    pub n: u64,
    pub body: Vec<u8>,
}

/// One event of a row being written: what the duplicate check of a later
/// event of the same commit needs (its kind and payload are where the
/// row's body holds them: [`RowBuilder::content_hash`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Written {
    pub seq: u64,
    pub gseq: u64,
    /// The kind's bytes in the body.
    kind: (usize, usize),
    /// The payload's bytes in the body.
    payload: (usize, usize),
}

/// The row of one `(table, epoch)` that the writer fills during a commit.
#[derive(Debug)]
pub(crate) struct RowBuilder {
    pub table: u32,
    pub epoch: u32,
    pub first_gseq: u64,
    pub last_gseq: u64,
    pub first_seq: u64,
    pub last_seq: u64,
    pub events: Vec<Written>,
    pub body: Vec<u8>,
}

impl RowBuilder {
    /// An empty row of `(table, epoch)` whose first event will be `gseq`.
    pub(crate) fn new(table: u32, epoch: u32, gseq: u64) -> Self {
        let mut body = Vec::with_capacity(256);
        body.push(BODY_VERSION);
        RowBuilder {
            table,
            epoch,
            first_gseq: gseq,
            last_gseq: gseq,
            first_seq: u64::MAX,
            last_seq: 0,
            events: Vec::new(),
            body,
        }
    }

    /// Appends an event (gseqs must rise).
    pub(crate) fn push(
        &mut self,
        gseq: u64,
        seq: u64,
        kind: &str,
        payload: &[u8],
        received_at_ms: i64,
    ) {
        let prev = match self.events.last() {
            Some(w) => w.gseq,
            None => self.first_gseq,
        };
        put_varint(&mut self.body, gseq.saturating_sub(prev));
        put_varint(&mut self.body, seq);
        put_varint(&mut self.body, kind.len() as u64);
        let kind_at = self.body.len();
        self.body.extend_from_slice(kind.as_bytes());
        put_varint(&mut self.body, payload.len() as u64);
        let payload_at = self.body.len();
        self.body.extend_from_slice(payload);
        put_varint(&mut self.body, zigzag(received_at_ms));
        self.last_gseq = gseq;
        self.first_seq = self.first_seq.min(seq);
        self.last_seq = self.last_seq.max(seq);
        self.events.push(Written {
            seq,
            gseq,
            kind: (kind_at, kind.len()),
            payload: (payload_at, payload.len()),
        });
    }

    /// The content hash of an event written in this row
    /// ([`crate::content_hash`] of its kind and payload).
    pub(crate) fn content_hash(&self, w: &Written) -> [u8; 32] {
        let part = |(at, len): (usize, usize)| self.body.get(at..at + len).unwrap_or_default();
        crate::hash_parts(part(w.kind), part(w.payload))
    }

    /// The event of `seq` written in this row, if any.
    pub(crate) fn find(&self, seq: u64) -> Option<&Written> {
        if seq < self.first_seq || seq > self.last_seq {
            return None;
        }
        self.events.iter().find(|w| w.seq == seq)
    }
}

/// Why a body does not decode (the caller names the row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BodyError(pub String);

impl BatchRow {
    /// Where the row is, for an error message.
    pub(crate) fn name(&self) -> String {
        format!(
            "event batch {} (table {}, epoch {}, gseq {}..={})",
            self.first_gseq, self.table, self.epoch, self.first_gseq, self.last_gseq
        )
    }

    /// The row's events, checked against its columns.
    pub(crate) fn decode(&self) -> Result<Vec<StoredEvent>, BodyError> {
        let mut r = Cursor {
            buf: &self.body,
            at: 0,
        };
        let version = r.byte()?;
        // Every event takes at least 5 bytes (36 with its hash in format
        // 1): a count beyond that is a lie.
        let least = match version {
            BODY_VERSION => 5,
            BODY_V1 => 36,
            _ => {
                return Err(BodyError(format!(
                    "body format {version} is not known (this build reads {BODY_V1} and {BODY_VERSION})"
                )))
            }
        };
        let most = self.body.len() / least;
        let n = usize::try_from(self.n)
            .ok()
            .filter(|&n| n >= 1 && n <= most)
            .ok_or_else(|| {
                BodyError(format!(
                    "{} events cannot fit in {} bytes",
                    self.n,
                    self.body.len()
                ))
            })?;
        let mut events = Vec::with_capacity(n);
        let mut gseq = self.first_gseq;
        for i in 0..n {
            let delta = r.varint()?;
            if (i == 0) != (delta == 0) {
                return Err(BodyError(format!("event {i}: gseq gap {delta}")));
            }
            gseq = gseq
                .checked_add(delta)
                .filter(|&g| g <= self.last_gseq)
                .ok_or_else(|| BodyError(format!("event {i}: gseq past the row's last")))?;
            let seq = r.varint()?;
            if seq < self.first_seq || seq > self.last_seq || i64::try_from(seq).is_err() {
                return Err(BodyError(format!(
                    "event {i}: seq {seq} outside the row's range"
                )));
            }
            let kind_len = r.len(MAX_KIND)?;
            let kind = std::str::from_utf8(r.take(kind_len)?)
                .map_err(|_| BodyError(format!("event {i}: kind is not UTF-8")))?
                .to_string();
            let payload_len = r.len(usize::MAX)?;
            let payload = r.take(payload_len)?.to_vec();
            let mut payload_hash = [0u8; 32];
            if version == BODY_V1 {
                payload_hash.copy_from_slice(r.take(32)?);
            } else {
                payload_hash = crate::content_hash(&kind, &payload);
            }
            let received_at_ms = unzigzag(r.varint()?);
            events.push(StoredEvent {
                gseq,
                key: EventKey {
                    table: self.table,
                    epoch: self.epoch,
                    seq,
                },
                kind,
                payload,
                payload_hash,
                received_at_ms,
            });
        }
        if gseq != self.last_gseq {
            return Err(BodyError(format!(
                "the last event is gseq {gseq}, the row says {}",
                self.last_gseq
            )));
        }
        if r.at != self.body.len() {
            return Err(BodyError(format!(
                "{} bytes after the last event",
                self.body.len() - r.at
            )));
        }
        Ok(events)
    }
}

/// Reads a body, every read bounded by what is left.
struct Cursor<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn byte(&mut self) -> Result<u8, BodyError> {
        let b = *self
            .buf
            .get(self.at)
            .ok_or_else(|| BodyError(format!("ends at byte {}", self.at)))?;
        self.at += 1;
        Ok(b)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], BodyError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(|| BodyError(format!("{n} bytes wanted at byte {}", self.at)))?;
        let s = &self.buf[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn varint(&mut self) -> Result<u64, BodyError> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(BodyError(format!("varint overflows at byte {}", self.at)));
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(BodyError(format!("varint too long at byte {}", self.at)))
    }

    /// A length of at most `max` that fits in what is left.
    fn len(&mut self, max: usize) -> Result<usize, BodyError> {
        let v = self.varint()?;
        usize::try_from(v)
            .ok()
            .filter(|&n| n <= max && n <= self.buf.len() - self.at)
            .ok_or_else(|| BodyError(format!("length {v} too large at byte {}", self.at)))
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content_hash;

    fn row(events: &[(u64, u64, &str, &[u8], i64)]) -> BatchRow {
        let mut b = RowBuilder::new(7, 2, events[0].0);
        for &(g, s, k, p, t) in events {
            b.push(g, s, k, p, t);
        }
        BatchRow {
            first_gseq: b.first_gseq,
            last_gseq: b.last_gseq,
            table: 7,
            epoch: 2,
            first_seq: b.first_seq,
            last_seq: b.last_seq,
            n: b.events.len() as u64,
            body: b.body,
        }
    }

    #[test]
    fn a_row_decodes_to_what_was_written() {
        let r = row(&[
            (10, 5, "clock_press", b"abc", 1_700_000_000_000),
            (13, 7, "move", &[0u8; 300], -4),
            (20, 6, "clock_press", b"", i64::MAX),
        ]);
        let ev = r.decode().unwrap();
        assert_eq!(
            ev.iter().map(|e| (e.gseq, e.key.seq)).collect::<Vec<_>>(),
            [(10, 5), (13, 7), (20, 6)]
        );
        assert_eq!(ev[1].payload, vec![0u8; 300]);
        assert_eq!(ev[1].received_at_ms, -4);
        assert_eq!(ev[2].received_at_ms, i64::MAX);
        assert_eq!(ev[0].payload_hash, content_hash("clock_press", b"abc"));
        assert_eq!((ev[0].key.table, ev[0].key.epoch), (7, 2));
        assert_eq!((r.first_seq, r.last_seq), (5, 7));
    }

    #[test]
    fn every_damage_is_an_error_not_a_panic() {
        let good = row(&[
            (10, 5, "clock_press", b"abc", 1),
            (11, 6, "clock_press", b"defg", 2),
        ]);
        // Every truncation, and every byte flipped, either decodes to a
        // consistent row or is refused; none panics.
        for cut in 0..good.body.len() {
            let mut r = good.clone();
            r.body.truncate(cut);
            assert!(r.decode().is_err(), "cut at {cut}");
        }
        for i in 0..good.body.len() {
            for bit in 0..8 {
                let mut r = good.clone();
                r.body[i] ^= 1 << bit;
                let _ = r.decode();
            }
        }
        let mut r = good.clone();
        r.body[0] = 9;
        assert!(r.decode().unwrap_err().0.contains("format 9"));
        let mut r = good.clone();
        r.n = 3;
        assert!(r.decode().is_err());
        let mut r = good.clone();
        r.last_gseq = 12;
        assert!(r.decode().is_err());
        let mut r = good.clone();
        r.body.push(0);
        assert!(r.decode().unwrap_err().0.contains("after the last event"));
        let mut r = good;
        r.n = u64::MAX;
        assert!(r.decode().is_err());
    }

    /// A body of format 1 as the builds before format 2 wrote it: each
    /// event's content hash after its payload.
    fn v1_body(events: &[(u64, u64, &str, &[u8], i64)]) -> Vec<u8> {
        let mut body = vec![BODY_V1];
        let mut prev = events[0].0;
        for &(g, s, k, p, t) in events {
            put_varint(&mut body, g - prev);
            prev = g;
            put_varint(&mut body, s);
            put_varint(&mut body, k.len() as u64);
            body.extend_from_slice(k.as_bytes());
            put_varint(&mut body, p.len() as u64);
            body.extend_from_slice(p);
            body.extend_from_slice(&content_hash(k, p));
            put_varint(&mut body, zigzag(t));
        }
        body
    }

    #[test]
    fn format_1_bodies_still_decode_and_format_2_drops_the_hash() {
        let events: [(u64, u64, &str, &[u8], i64); 3] = [
            (10, 5, "clock_press", b"abc", 1_700_000_000_000),
            (13, 7, "move", &[7u8; 40], -4),
            (20, 6, "event", b"", 9),
        ];
        let v2 = row(&events);
        assert_eq!(v2.body[0], BODY_VERSION);
        let mut v1 = v2.clone();
        v1.body = v1_body(&events);
        // The same events either way, the hash read or computed.
        assert_eq!(v1.decode().unwrap(), v2.decode().unwrap());
        for (e, (_, _, k, p, _)) in v2.decode().unwrap().iter().zip(events) {
            assert_eq!(e.payload_hash, content_hash(k, p));
        }
        // 32 bytes an event fewer.
        assert_eq!(v1.body.len() - v2.body.len(), 32 * events.len());
        // A format-1 hash that does not match its content is read as
        // stored (format 1 kept what its writer hashed).
        let mut odd = v1.clone();
        let at = odd.body.len() - 1 - 32;
        odd.body[at] ^= 1;
        assert_ne!(
            odd.decode().unwrap()[2].payload_hash,
            content_hash("event", b"")
        );
        // Format 1's damage is refused as format 2's is.
        for cut in 0..v1.body.len() {
            let mut r = v1.clone();
            r.body.truncate(cut);
            assert!(r.decode().is_err(), "format 1 cut at {cut}");
        }
    }

    #[test]
    fn a_written_events_hash_is_its_contents() {
        let mut b = RowBuilder::new(1, 1, 100);
        b.push(100, 1, "event", b"first", 0);
        b.push(101, 2, "clock_press", &[1, 2, 3], 0);
        b.push(105, 3, "", b"", 0);
        assert_eq!(
            b.content_hash(&b.events[0]),
            content_hash("event", b"first")
        );
        let w = b.find(2).copied().unwrap();
        assert_eq!(b.content_hash(&w), content_hash("clock_press", &[1, 2, 3]));
        let w = b.find(3).copied().unwrap();
        assert_eq!(b.content_hash(&w), content_hash("", b""));
        assert!(b.find(4).is_none());
    }

    #[test]
    fn varints_and_zigzag_round_trip() {
        for v in [0u64, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut b = Vec::new();
            put_varint(&mut b, v);
            let mut c = Cursor { buf: &b, at: 0 };
            assert_eq!(c.varint().unwrap(), v);
            assert_eq!(c.at, b.len());
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        let mut c = Cursor {
            buf: &[0xff; 11],
            at: 0,
        };
        assert!(c.varint().is_err());
    }
}
