//! Outbox tests: durability across reopen, torn tails, corruption, acks.

use super::*;
use proto::{IccsMove, Side};
use std::io::Write;

fn press(n: u64) -> TableEvent {
    TableEvent::ClockPress {
        by: if n % 2 == 1 { Side::Red } else { Side::Black },
        mv: IccsMove::parse("h2e2"),
        red_ms: 1_000_000 - n,
        black_ms: 1_000_000,
        terminal_mono_ms: n * 10,
    }
}

#[test]
fn events_survive_reopen_with_acks_and_controls() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (mut ob, rec) = Outbox::open(dir.path(), 7, 42).unwrap();
        assert!(rec.created);
        for n in 1..=5 {
            let env = ob.append(press(n)).unwrap();
            assert_eq!((env.table, env.epoch, env.seq), (7, 42, n));
        }
        ob.note_control(
            9,
            &ControlToTable::Pause {
                by: "chief".into(),
                reason: "r".into(),
            },
        )
        .unwrap();
        ob.append(press(6)).unwrap();
        ob.mark_acked(3).unwrap();
        ob.mark_acked(2).unwrap();
        assert_eq!(ob.waiting(), 3);
    }
    let (ob, rec) = Outbox::open(dir.path(), 7, 99).unwrap();
    assert!(!rec.created);
    assert_eq!(rec.dropped_bytes, 0);
    assert_eq!(ob.epoch(), 42, "the stored epoch wins over a new one");
    assert_eq!(ob.last_seq(), 6);
    assert_eq!(ob.acked(), 3);
    assert_eq!(ob.from_seq(4).len(), 3);
    assert_eq!(ob.from_seq(4)[0].seq, 4);
    assert_eq!(ob.from_seq(99).len(), 0);
    assert_eq!(ob.history().len(), 7);
    assert!(matches!(ob.history()[5], Entry::Control { id: 9, .. }));
}

#[test]
fn torn_last_record_is_dropped_and_the_rest_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = {
        let (mut ob, _) = Outbox::open(dir.path(), 1, 5).unwrap();
        for n in 1..=3 {
            ob.append(press(n)).unwrap();
        }
        ob.path().unwrap().to_path_buf()
    };
    let full = std::fs::read(&path).unwrap();
    // Every possible tear inside the last record.
    let (ob, _) = Outbox::open(dir.path(), 1, 5).unwrap();
    drop(ob);
    let mut cut_points = Vec::new();
    {
        let (mut ob, _) = Outbox::open(dir.path(), 1, 5).unwrap();
        let before = std::fs::metadata(&path).unwrap().len();
        ob.append(press(4)).unwrap();
        let after = std::fs::metadata(&path).unwrap().len();
        for cut in before + 1..after {
            cut_points.push(cut);
        }
    }
    let with4 = std::fs::read(&path).unwrap();
    assert!(with4.len() > full.len());
    for cut in cut_points {
        std::fs::write(&path, &with4[..cut as usize]).unwrap();
        let (mut ob, rec) = Outbox::open(dir.path(), 1, 5).unwrap();
        assert_eq!(ob.last_seq(), 3, "cut at {cut}");
        assert!(rec.dropped_bytes > 0);
        // Appending after the cut continues cleanly.
        ob.append(press(4)).unwrap();
        drop(ob);
        let (ob, rec) = Outbox::open(dir.path(), 1, 5).unwrap();
        assert_eq!(ob.last_seq(), 4);
        assert_eq!(rec.dropped_bytes, 0);
    }
}

#[test]
fn flipped_byte_in_last_record_fails_its_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let path = {
        let (mut ob, _) = Outbox::open(dir.path(), 2, 5).unwrap();
        for n in 1..=3 {
            ob.append(press(n)).unwrap();
        }
        ob.path().unwrap().to_path_buf()
    };
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let (ob, rec) = Outbox::open(dir.path(), 2, 5).unwrap();
    assert_eq!(ob.last_seq(), 2);
    assert!(rec.dropped_bytes > 0);
}

#[test]
fn wrong_table_and_garbage_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = {
        let (ob, _) = Outbox::open(dir.path(), 3, 5).unwrap();
        ob.path().unwrap().to_path_buf()
    };
    std::fs::rename(&path, dir.path().join("table-4.outbox")).unwrap();
    assert!(matches!(
        Outbox::open(dir.path(), 4, 5),
        Err(OutboxError::WrongTable {
            found: 3,
            expected: 4,
            ..
        })
    ));
    let mut f = std::fs::File::create(dir.path().join("table-5.outbox")).unwrap();
    f.write_all(&[0xAB; 64]).unwrap();
    drop(f);
    assert!(matches!(
        Outbox::open(dir.path(), 5, 5),
        Err(OutboxError::Corrupt { .. })
    ));
}

#[test]
fn memory_outbox_numbers_and_acks() {
    let mut ob = Outbox::memory(9, 1);
    for n in 1..=4 {
        ob.append(press(n)).unwrap();
    }
    ob.mark_acked(10).unwrap();
    assert_eq!(ob.acked(), 4);
    assert_eq!(ob.waiting(), 0);
    assert!(ob.path().is_none());
}
