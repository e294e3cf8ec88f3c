//! Fuzz target: the hall's table state machines (`hall::Hall::apply`,
//! what ingest runs for every stored record) through the one replay loop
//! the restart and the export use (`hall::Replay`). The input is cut into
//! chunks (a length byte, then that many bytes); each chunk that decodes as
//! a client message becomes a record: an event as the table's event, a
//! command as the chief's accepted command, a ping as a server note. Each
//! record is encoded as the server stores it and replayed. Replaying any
//! sequence must never panic nor fail to decode what was encoded; the
//! record's effects, the hall's view and the time-based notes are computed
//! after each record, and every invariant of the hall is checked
//! (`Hall::check_invariants`).
#![no_main]

use hall::fixture::Fixture;
use hall::{Hall, Note, Record};
use libfuzzer_sys::fuzz_target;
use proto::codec::WireMessage;
use proto::roles::{Author, RoleKind};
use proto::ClientMsg;

/// Fischer 80 min + 30 s (AXF-CLOCK-1), as the default hall config.
const BASE_MS: u64 = 80 * 60_000;
const INCREMENT_MS: u64 = 30_000;

/// The hall of a two-table round under the AXF defaults, built with the
/// hall core alone (no config, no server: nothing of quinn is built).
fn fresh_hall() -> Hall {
    Fixture::default().clock(BASE_MS, INCREMENT_MS).hall()
}

/// After each record: its effects, the time-based notes, the hall's view,
/// and every invariant of the hall (`hall::invariants`), so that a wrong
/// state is found, not only a panic.
struct Probe;

impl hall::replay::Observer for Probe {
    fn after(&mut self, hall: &mut Hall, rec: &Record, at_ms: u64) {
        let _ = hall.take_effects();
        let _ = hall::due::due_notes(hall, at_ms);
        let _ = hall.snapshot(at_ms);
        if let Err(broken) = hall.check_invariants() {
            panic!("after {rec:?}: {broken}");
        }
    }
}

/// The record a chunk stands for, if it decodes as a client message.
fn record(chunk: &[u8]) -> Option<Record> {
    Some(match ClientMsg::decode(chunk).ok()? {
        ClientMsg::Event(env) => Record::Event(env),
        ClientMsg::Command { command, .. } => Record::Command {
            author: Author::new(RoleKind::Chief, "chief"),
            command,
        },
        ClientMsg::Ping { nonce } => Record::Note(match nonce % 4 {
            0 => Note::Online {
                table: (nonce >> 8) as u16 % 3,
                online: nonce & 16 != 0,
            },
            1 => Note::FlagFall {
                table: (nonce >> 8) as u16 % 3,
                side: proto::Side::Red,
            },
            2 => Note::NoShow {
                table: (nonce >> 8) as u16 % 3,
                side: proto::Side::Black,
            },
            _ => Note::OfflineAlert {
                table: (nonce >> 8) as u16 % 3,
                since_ms: nonce >> 16,
            },
        }),
        _ => return None,
    })
}

fuzz_target!(|data: &[u8]| {
    let mut stored = Vec::new();
    let mut now = 1_764_400_000_000u64;
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        let len = usize::from(len).min(tail.len());
        let (chunk, tail) = tail.split_at(len);
        rest = tail;
        let Some(bytes) = record(chunk).and_then(|r| r.encode().ok()) else {
            continue;
        };
        now += u64::from(len as u8) * 1_000;
        stored.push((stored.len() as u64 + 1, now, bytes));
    }
    let mut replay = hall::Replay::new(fresh_hall());
    if let Err(e) = replay.feed_observed(stored, &mut Probe) {
        panic!("a record the server encoded does not decode: {e}");
    }
});
