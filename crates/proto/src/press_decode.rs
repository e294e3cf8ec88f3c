//! A hand decoder of the one frame a hall receives most (按钟, a clock
//! press): `ClientMsg::Event` holding `TableEvent::ClockPress` (issue 40).
//!
//! bincode's derived decoder took about a sixth of the connections' CPU in
//! a flood, through its generic reader and a cold call for every integer.
//! This one reads the same bytes by the same rules (bincode 2, standard
//! config: variant indices as `u32` varints, `Option` tag as one byte,
//! `u8` as itself, every integer a little-endian varint: a byte below 251
//! is the value, 251/252/253 announce 2/4/8 bytes, a width wider than the
//! field an error) and gives up — [`decode`] answers `None` — on anything
//! else: another message, another event, any byte it would have to judge.
//! The caller then decodes with bincode ([`crate::codec`]), so the frame's
//! meaning and its errors stay bincode's: whenever this answers, bincode
//! answers the same message (the tests hold every varint width, each byte
//! of a frame changed to each boundary value, and every truncation).

use crate::message::{ClientMsg, EventEnvelope, IccsMove, Side, TableEvent};

/// `ClientMsg::Event`'s variant index.
const EVENT: u64 = 1;
/// `TableEvent::ClockPress`'s variant index.
const CLOCK_PRESS: u64 = 2;

/// Bytes read one after another; `None` at the end.
struct Bytes<'a> {
    rest: &'a [u8],
}

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.rest.split_first()?;
        self.rest = rest;
        Some(b)
    }

    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.rest.split_first_chunk::<N>()?;
        self.rest = rest;
        Some(*head)
    }

    /// A varint no wider than `widest` bytes after its tag (2, 4 or 8).
    fn varint(&mut self, widest: usize) -> Option<u64> {
        match self.byte()? {
            b @ 0..=250 => Some(u64::from(b)),
            251 if widest >= 2 => self.take::<2>().map(|b| u64::from(u16::from_le_bytes(b))),
            252 if widest >= 4 => self.take::<4>().map(|b| u64::from(u32::from_le_bytes(b))),
            253 if widest >= 8 => self.take::<8>().map(u64::from_le_bytes),
            _ => None,
        }
    }

    fn side(&mut self) -> Option<Side> {
        match self.varint(4)? {
            0 => Some(Side::Red),
            1 => Some(Side::Black),
            _ => None,
        }
    }
}

/// The clock press `payload` holds, exactly as bincode would decode it, or
/// `None` when it is not one this decoder reads (then decode it with
/// bincode: it may still be a valid message, or an error to report).
pub fn decode(payload: &[u8]) -> Option<ClientMsg> {
    let mut r = Bytes { rest: payload };
    if r.varint(4)? != EVENT {
        return None;
    }
    let table = u16::try_from(r.varint(2)?).ok()?;
    let epoch = u32::try_from(r.varint(4)?).ok()?;
    let seq = r.varint(8)?;
    if r.varint(4)? != CLOCK_PRESS {
        return None;
    }
    let by = r.side()?;
    let mv = match r.byte()? {
        0 => None,
        1 => Some(IccsMove {
            from: r.byte()?,
            to: r.byte()?,
        }),
        _ => return None,
    };
    let red_ms = r.varint(8)?;
    let black_ms = r.varint(8)?;
    let terminal_mono_ms = r.varint(8)?;
    if !r.rest.is_empty() {
        return None;
    }
    Some(ClientMsg::Event(EventEnvelope {
        table,
        epoch,
        seq,
        body: TableEvent::ClockPress {
            by,
            mv,
            red_ms,
            black_ms,
            terminal_mono_ms,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::decode;
    use crate::codec::{decode_value, WireMessage};
    use crate::limits::MAX_CLIENT_FRAME;
    use crate::message::{ClientMsg, EventEnvelope, IccsMove, Side, TableEvent};
    use proptest::prelude::*;

    /// bincode's own answer (no hand decoder on this path).
    fn by_bincode(bytes: &[u8]) -> Option<ClientMsg> {
        decode_value::<ClientMsg, MAX_CLIENT_FRAME>(bytes).ok()
    }

    fn is_press(m: &ClientMsg) -> bool {
        matches!(
            m,
            ClientMsg::Event(EventEnvelope {
                body: TableEvent::ClockPress { .. },
                ..
            })
        )
    }

    /// The hand decoder and bincode agree on `bytes`: the same message, or
    /// the hand decoder declines what bincode refuses or is not a press.
    fn agree(bytes: &[u8]) {
        let theirs = by_bincode(bytes);
        match decode(bytes) {
            Some(ours) => assert_eq!(Some(ours), theirs, "{bytes:?}"),
            None => assert!(
                !theirs.as_ref().is_some_and(is_press),
                "a press bincode reads, declined: {bytes:?} {theirs:?}"
            ),
        }
    }

    /// Integers on each side of every varint width.
    const EDGES: [u64; 12] = [
        0,
        1,
        250,
        251,
        255,
        256,
        65_535,
        65_536,
        4_294_967_295,
        4_294_967_296,
        u64::MAX - 1,
        u64::MAX,
    ];

    fn press(table: u16, epoch: u32, seq: u64, ms: [u64; 3], mv: Option<IccsMove>) -> ClientMsg {
        ClientMsg::Event(EventEnvelope {
            table,
            epoch,
            seq,
            body: TableEvent::ClockPress {
                by: if seq % 2 == 0 { Side::Red } else { Side::Black },
                mv,
                red_ms: ms[0],
                black_ms: ms[1],
                terminal_mono_ms: ms[2],
            },
        })
    }

    fn edge() -> impl Strategy<Value = u64> {
        prop_oneof![prop::sample::select(EDGES.to_vec()), any::<u64>()]
    }

    proptest! {
        #[test]
        fn every_press_reads_as_bincode_reads_it(
            table in edge(),
            epoch in edge(),
            seq in edge(),
            ms in [edge(), edge(), edge()],
            mv in prop::option::of((any::<u8>(), any::<u8>())),
        ) {
            let m = press(
                table as u16,
                epoch as u32,
                seq,
                ms,
                mv.map(|(from, to)| IccsMove { from, to }),
            );
            let bytes = m.encode().expect("encodes");
            prop_assert_eq!(decode(&bytes), Some(m));
        }
    }

    /// Each byte of a press changed to each value a varint or tag treats
    /// apart, each truncation and a byte more: never a message bincode
    /// would not give.
    #[test]
    fn a_changed_or_cut_press_reads_as_bincode_reads_it_or_not_at_all() {
        let values = [0u8, 1, 2, 3, 5, 249, 250, 251, 252, 253, 254, 255];
        let mut read = 0;
        for m in [
            press(1, 0, 1, [0, 0, 0], None),
            press(
                251,
                251,
                251,
                [251, 251, 251],
                Some(IccsMove { from: 7, to: 89 }),
            ),
            press(65_535, 70_000, 5_000_000_000, [65_536, 1, u64::MAX], None),
            press(
                9_999,
                3,
                2,
                [599_000, 600_000, 12_345_678],
                Some(IccsMove { from: 255, to: 0 }),
            ),
        ] {
            let bytes = m.encode().expect("encodes");
            agree(&bytes);
            for i in 0..bytes.len() {
                for v in values {
                    let mut b = bytes.clone();
                    b[i] = v;
                    agree(&b);
                    read += usize::from(decode(&b).is_some());
                }
            }
            for n in 0..bytes.len() {
                assert_eq!(decode(&bytes[..n]), None, "cut at {n}");
                agree(&bytes[..n]);
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert_eq!(decode(&longer), None, "a byte more");
            agree(&longer);
        }
        assert!(read > 100, "changed presses still read: {read}");
    }

    /// `v` as a varint announced `width` bytes wide (0: one byte), whether
    /// or not bincode would write it so.
    fn varint_as(v: u64, width: usize) -> Vec<u8> {
        match width {
            0 => vec![v as u8],
            2 => [&[251u8][..], &(v as u16).to_le_bytes()].concat(),
            4 => [&[252u8][..], &(v as u32).to_le_bytes()].concat(),
            _ => [&[253u8][..], &v.to_le_bytes()].concat(),
        }
    }

    /// Every varint of a press (the message's and event's variants, the
    /// side, the table, epoch, seq and three times) in every width: read
    /// exactly when bincode reads it, a width wider than its field's
    /// declined.
    #[test]
    fn every_field_in_every_width_reads_as_bincode_reads_it() {
        // Variant, table, epoch, seq, variant, side, [mv], three times.
        let values = [1u64, 7, 300, 9, 2, 1, 60_000, 70_000, 5];
        let mut read = 0;
        for field in 0..values.len() {
            for width in [0, 2, 4, 8] {
                if width == 0 && values[field] > 250 {
                    continue;
                }
                let mut b = Vec::new();
                for (i, &v) in values.iter().enumerate() {
                    let w = if i == field {
                        width
                    } else {
                        usize::from(v > 250) * 4
                    };
                    b.extend(varint_as(v, w));
                    if i == 5 {
                        b.extend([1, 10, 20]);
                    }
                }
                agree(&b);
                let theirs = by_bincode(&b);
                assert_eq!(
                    decode(&b).is_some(),
                    theirs.is_some(),
                    "field {field} width {width}"
                );
                read += usize::from(theirs.is_some());
            }
        }
        assert!(read >= 20, "most widths read: {read}");
    }

    /// Any other message is bincode's to read.
    #[test]
    fn other_messages_are_left_to_bincode() {
        let others = [
            ClientMsg::Ping { nonce: 1 },
            ClientMsg::Event(EventEnvelope {
                table: 1,
                epoch: 0,
                seq: 1,
                body: TableEvent::Arrived { side: Side::Red },
            }),
            ClientMsg::Event(EventEnvelope {
                table: 1,
                epoch: 0,
                seq: 2,
                body: TableEvent::Move {
                    by: Side::Red,
                    mv: IccsMove { from: 1, to: 2 },
                },
            }),
        ];
        for m in others {
            let bytes = m.encode().expect("encodes");
            assert_eq!(decode(&bytes), None);
            assert_eq!(ClientMsg::decode(&bytes), Ok(m));
        }
    }
}
