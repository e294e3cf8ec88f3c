//! A table's state is bounded by design (issue 20): whatever grows with the
//! number of events is kept for a window only, and the rulings that need
//! history still have it. A game of thousands of plies keeps its position
//! keys and repetition marks for the current capture-free stretch only; a
//! terminal that drops and comes back a thousand times leaves no mark per
//! outage; a terminal reporting illegal moves one after another keeps a
//! bounded number of open claims; and after the window was cut at a
//! capture, a perpetual check is still detected and named.

use proto::{
    AlertKind, ClaimKind, ClaimStatus, EndReason, EventEnvelope, IccsMove, Side, TableEvent,
};

use hall::fixture::Fixture;
use hall::table::{Raised, TableState};
use hall::{Hall, Note, Record};

const T: u16 = 1;

fn hall() -> Hall {
    Fixture::default().tables(&[(T, "甲", "乙")]).hall()
}

struct Game {
    hall: Hall,
    seq: u64,
    at: u64,
}

impl Game {
    fn new() -> Game {
        Game {
            hall: hall(),
            seq: 0,
            at: 1_000,
        }
    }

    fn table(&self) -> &TableState {
        &self.hall.tables()[&T]
    }

    fn apply(&mut self, rec: Record) {
        self.at += 10;
        self.hall.apply(&rec, self.at).expect("applies");
        self.hall.discard_effects();
    }

    fn event(&mut self, body: TableEvent) {
        self.seq += 1;
        let env = EventEnvelope {
            table: T,
            epoch: 1,
            seq: self.seq,
            body,
        };
        self.apply(Record::Event(env));
    }

    fn moves(&mut self, moves: &[&str]) {
        for m in moves {
            let by = hall::table::convert::side(self.table().board.turn());
            let mv = IccsMove::parse(m).expect("iccs");
            let plies = self.table().board.plies();
            self.event(TableEvent::Move { by, mv });
            assert_eq!(self.table().board.plies(), plies + 1, "{m} is played");
        }
    }

    fn alerts(&self, kind: AlertKind) -> usize {
        self.hall
            .book()
            .alerts
            .all()
            .filter(|a| a.kind == kind)
            .count()
    }
}

#[test]
fn a_long_game_keeps_the_stretch_and_a_perpetual_check_is_still_ruled() {
    let mut g = Game::new();
    // 4,000 plies without a capture: the horses go out and back.
    for _ in 0..1_000 {
        g.moves(&["b0c2", "b9c7", "c2b0", "c7b9"]);
    }
    let t = g.table();
    assert_eq!(t.board.plies(), 4_000);
    // The stretch is the whole game so far: every key is of it.
    assert_eq!(t.board.keys.len(), 4_001);
    assert_eq!(t.board.occurrences_of_current(), 1_001);
    assert!(!t.repetition_alerted.is_empty());
    assert!(
        t.raised.contains(&Raised::Limit(0)),
        "the natural limit was reached"
    );
    assert_eq!(g.alerts(AlertKind::NaturalLimit), 1);
    let repetitions = g.alerts(AlertKind::Repetition);
    assert_eq!(repetitions, 1, "one alert for the whole cycle");

    // Black's pawn walks over and takes Red's c3 pawn: the window is cut.
    g.moves(&[
        "g3g4", "a6a5", "h0g2", "a5a4", "g2f4", "a4a3", "f4g6", "a3b3", "g6e7",
    ]);
    g.moves(&["b3c3"]);
    let t = g.table();
    assert_eq!(t.board.plies_since_capture, 0);
    assert_eq!(t.board.keys.len(), 1, "only the position after the capture");
    assert!(t.repetition_alerted.is_empty());
    assert!(!t.raised.iter().any(|r| matches!(r, Raised::Limit(_))));
    // The whole game is still the record (the terminal, the console and the
    // snapshot read it).
    assert_eq!(t.board.moves.len(), 4_010);

    // Red's horse checks from g8 and f6 while Black's king steps back and
    // forth: the third occurrence is detected and ruled a perpetual check.
    g.moves(&["e7g8"]);
    for _ in 0..2 {
        g.moves(&["e9e8", "g8f6", "e8e9", "f6g8"]);
    }
    assert_eq!(g.alerts(AlertKind::Repetition), repetitions + 1);
    let claim = g
        .hall
        .book()
        .claims
        .claims()
        .last()
        .expect("the repetition claim");
    assert_eq!(claim.view.kind, proto::ClaimKind::Repetition);
    assert_eq!(claim.ends.loss[0], EndReason::PerpetualCheck, "Red checks");
    let t = g.table();
    assert_eq!(t.board.keys.len(), 10);
    assert_eq!(t.board.occurrences_of_current(), 3);
}

#[test]
fn a_flapping_terminal_leaves_no_mark_per_outage() {
    let mut g = Game::new();
    g.event(TableEvent::Arrived { side: Side::Red });
    for _ in 0..1_000 {
        g.apply(Record::Note(Note::Online {
            table: T,
            online: true,
        }));
        g.apply(Record::Note(Note::Online {
            table: T,
            online: false,
        }));
        let since_ms = g.table().offline_since_ms.expect("offline");
        g.apply(Record::Note(Note::OfflineAlert { table: T, since_ms }));
        // Raised once per outage, not twice.
        g.apply(Record::Note(Note::OfflineAlert { table: T, since_ms }));
    }
    assert_eq!(g.alerts(AlertKind::TableOffline), 1_000);
    assert_eq!(g.alerts(AlertKind::TableOnline), 999);
    let t = g.table();
    assert_eq!(
        t.raised.len(),
        1,
        "the current outage's mark: {:?}",
        t.raised
    );
    g.apply(Record::Note(Note::Online {
        table: T,
        online: true,
    }));
    assert_eq!(g.alerts(AlertKind::TableOnline), 1_000);
    assert!(g.table().raised.is_empty());
}

#[test]
fn illegal_moves_one_after_another_keep_a_bounded_number_of_open_claims() {
    let mut g = Game::new();
    let n = 1_000;
    for _ in 0..n {
        // The rook cannot pass its own pawn on a3: never legal.
        g.event(TableEvent::Move {
            by: Side::Red,
            mv: IccsMove::parse("a0a5").expect("iccs"),
        });
    }
    let claims: Vec<_> = g
        .hall
        .book()
        .claims
        .all()
        .filter(|c| c.kind == ClaimKind::IllegalMove)
        .collect();
    let open: Vec<_> = claims
        .iter()
        .filter(|c| matches!(c.status, ClaimStatus::Pending))
        .collect();
    assert_eq!(open.len(), hall::book::MAX_OPEN_PER_KIND);
    // The newest is open and is the one the table waits on.
    let newest = claims.iter().map(|c| c.id).max().expect("claims");
    assert!(open.iter().any(|c| c.id == newest));
    let pending = g.table().pending_illegal.as_ref().expect("pending");
    assert_eq!(pending.claim_id, newest);
    // Every illegal move was still alerted; the older claims lapsed.
    assert_eq!(g.alerts(AlertKind::IllegalMove), n);
    let lapsed = claims
        .iter()
        .filter(|c| matches!(c.status, ClaimStatus::Lapsed { .. }))
        .count();
    assert_eq!(lapsed + open.len(), claims.len());
    assert!(lapsed > 0);
}
