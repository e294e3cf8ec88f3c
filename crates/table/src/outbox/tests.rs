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

#[test]
fn a_power_cut_keeps_every_recorded_press_and_loses_only_unsynced_acks() {
    // Issue 37: the outbox on a disk that loses what was not synced. A
    // press is shown as recorded once `append` returns (it synced); acks
    // and controls are written unsynced and may be kept, dropped or torn.
    let mut lost_writes = 0;
    for seed in 0..30u64 {
        let dir = tempfile::tempdir().unwrap();
        let disk = Arc::new(PowerCutDisk::new(512, seed));
        let (mut ob, _) = Outbox::open_on(dir.path(), 3, 1, disk.clone()).unwrap();
        let presses = 3 + seed % 5;
        for n in 1..=presses {
            ob.append(press(n)).unwrap();
            ob.mark_acked(n.saturating_sub(1)).unwrap();
        }
        ob.mark_acked(presses).unwrap();
        let path = ob.path().unwrap().to_path_buf();
        assert!(disk.pending_writes() > 0, "seed {seed}: acks are unsynced");
        let cut = disk.cut(&path).unwrap();
        lost_writes += cut.dropped + cut.torn;
        drop(ob);
        let (back, _) = Outbox::open_on(dir.path(), 3, 1, disk.clone()).unwrap();
        assert_eq!(
            back.last_seq(),
            presses,
            "seed {seed}: a recorded press was lost"
        );
        assert!(back.acked() <= presses);
        // After power returns, what the server has not acknowledged is
        // resent from its high-water mark; the outbox still has it all.
        assert_eq!(back.from_seq(2).len() as u64, presses - 1);
        // And it keeps working: a new press follows the last.
        let mut back = back;
        assert_eq!(back.append(press(presses + 1)).unwrap().seq, presses + 1);
    }
    assert!(lost_writes > 0, "the cuts never hit an unsynced write");
}
