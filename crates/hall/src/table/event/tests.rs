//! Table events at one table, with no network.

use proto::{AlertKind, ClaimKind, IccsMove, Ruling, Side, TableEvent, Verdict};
use rulebook::RuleParams;

use super::strs;
use crate::book::Book;
use crate::claims::Penalty;
use crate::table::convert::side;
use crate::table::TableState;

fn loss(side: Side) -> Ruling {
    Ruling {
        verdict: Verdict::Loss { side },
        must_change: None,
        rule_ids: strs(&["AXF-FORFEIT-1"]),
        explanation_zh: String::new(),
        explanation_en: String::new(),
    }
}

#[test]
fn claims_lapse_when_what_they_were_about_goes_away() {
    let params = RuleParams::default();
    let mut t = TableState::new(1, "R", "B", 60_000, 0, &params);
    let mut book = Book::default();
    let red = book.claim(
        1,
        ClaimKind::NoShow,
        None,
        0,
        loss(Side::Red),
        Penalty::None,
    );
    let black = book.claim(
        1,
        ClaimKind::NoShow,
        None,
        0,
        loss(Side::Black),
        Penalty::None,
    );
    let flag = book.claim(
        1,
        ClaimKind::FlagFall,
        None,
        0,
        loss(Side::Black),
        Penalty::None,
    );
    let other = book.claim(
        2,
        ClaimKind::NoShow,
        None,
        0,
        loss(Side::Red),
        Penalty::None,
    );
    let status = |book: &Book, id| book.claims.get(id).map(|c| c.view.status.clone());
    // Red moves: Red's no-show lapses, nothing else.
    let mv = IccsMove::parse("h2e2").expect("iccs");
    t.apply_event(
        &TableEvent::Move { by: Side::Red, mv },
        5,
        &params,
        &mut book,
    );
    assert!(
        matches!(
            status(&book, red),
            Some(proto::ClaimStatus::Lapsed { at_ms: 5, .. })
        ),
        "{:?}",
        status(&book, red)
    );
    assert_eq!(book.claims.open_count(1), 2);
    // The game ends: every open claim of the table closes with it.
    let resign = TableEvent::Resign {
        by: Side::Black,
        reason: "lost".into(),
    };
    t.apply_event(&resign, 9, &params, &mut book);
    for id in [black, flag] {
        match status(&book, id) {
            Some(proto::ClaimStatus::Lapsed { why, at_ms: 9 }) => {
                assert!(why.contains("resignation"), "{why}")
            }
            s => panic!("claim {id}: {s:?}"),
        }
    }
    assert_eq!(book.claims.open_count(1), 0);
    assert_eq!(book.claims.open_count(2), 1);
    assert_eq!(status(&book, other), Some(proto::ClaimStatus::Pending));
    assert_eq!(
        book.audit
            .iter()
            .filter(|e| e.what.contains("lapsed"))
            .count(),
        3
    );
}

#[test]
fn natural_limit_alert_is_raised_once_per_stretch() {
    let params = RuleParams::default();
    let mut t = TableState::new(1, "R", "B", 60_000, 0, &params);
    let mut book = Book::default();
    let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let need = params.limit.required_plies as usize;
    let mut first_at = None;
    for ply in 0..need + 40 {
        let m = shuffle[ply % 4];
        let by = side(t.board.turn());
        let mv = IccsMove::parse(m).expect("iccs");
        t.apply_event(&TableEvent::Move { by, mv }, 0, &params, &mut book);
        let n = book
            .alerts
            .all()
            .filter(|a| a.kind == AlertKind::NaturalLimit)
            .count();
        if n == 1 && first_at.is_none() {
            first_at = Some(ply + 1);
        }
        assert!(n <= 1, "one alert for the stretch, {n} at ply {}", ply + 1);
    }
    assert_eq!(t.board.plies(), need + 40);
    let at = first_at.expect("the limit alert was raised");
    assert!(at <= need, "raised at ply {at}, the limit is {need} plies");
}
