//! The table states both test matrices run in (commands in
//! `command/tests.rs`, table events in `table/event/tests.rs`): table 1 not
//! started, running, paused, sealed (adjourned) or finished, each with and
//! without a pending claim (a no-show claim against Black, raised before
//! the table reached the state: the end of a game lapses it). Built from
//! the shared [`Fixture`] and real records, as the server applies them.

use proto::roles::{Author, RoleKind};
use proto::{
    AlertKind, Command, EventEnvelope, GameResult, IccsMove, Ruling, Side, TableEvent, Verdict,
};
use rulebook::ruleset::RuleSet;
use rulebook::RuleParams;

use crate::fixture::Fixture;
use crate::hall::Hall;
use crate::record::{Note, Record};
use crate::refusal::Refusal;
use crate::table::TableState;

/// The states of the table under test (table 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    NotStarted,
    Running,
    Paused,
    Sealed,
    Finished,
}
pub(crate) use State::*;

pub(crate) const STATES: [State; 5] = [NotStarted, Running, Paused, Sealed, Finished];
/// The table under test.
pub(crate) const T: u16 = 1;
/// When the command or event under test is applied.
pub(crate) const NOW: u64 = 50_000;

pub(crate) fn chief() -> Author {
    Author::new(RoleKind::Chief, "王")
}

pub(crate) fn apply(hall: &mut Hall, rec: Record, at: u64) -> Result<(), Refusal> {
    let r = hall.apply(&rec, at);
    hall.discard_effects();
    r
}

pub(crate) fn command(hall: &mut Hall, command: Command, at: u64) {
    let rec = Record::Command {
        author: chief(),
        command,
    };
    apply(hall, rec, at).expect("setup command applies");
}

/// Table 1's event `body` (numbered after the ones before).
pub(crate) fn event(hall: &mut Hall, body: TableEvent, at: u64) {
    let seq = hall.tables[&T].high_water + 1;
    let env = EventEnvelope {
        table: T,
        epoch: 1,
        seq,
        body,
    };
    apply(hall, Record::Event(env), at).expect("the event applies");
}

fn start(hall: &mut Hall, at: u64) {
    let body = TableEvent::ClockStarted {
        red_ms: 600_000,
        black_ms: 600_000,
        terminal_mono_ms: 0,
    };
    event(hall, body, at);
}

fn no_show_claim(hall: &mut Hall, at: u64) {
    let note = Note::NoShow {
        table: T,
        side: Side::Black,
    };
    apply(hall, Record::Note(note), at).expect("the note applies");
}

/// A hall of table 1 alone at one minute a side (the time-based notes'
/// and the replay's tests).
pub(crate) fn one_minute_hall() -> Hall {
    Fixture::default()
        .clock(60_000, 0)
        .tables(&[(T, "甲", "乙")])
        .hall()
}

/// A recommended ruling to play on, with no words.
pub(crate) fn play_on() -> Ruling {
    Ruling {
        verdict: Verdict::Continue,
        must_change: None,
        rule_ids: Vec::new(),
        explanation: i18n::texts::no_words(),
    }
}

pub(crate) fn h2e2() -> IccsMove {
    IccsMove::parse("h2e2").expect("a move")
}

/// A hall whose table 1 is in `state`, with a pending claim if `claim`.
pub(crate) fn hall_in(params: RuleParams, rule_set: &str, state: State, claim: bool) -> Hall {
    let mut h = Fixture::default().rules(params, rule_set).hall();
    if state != NotStarted {
        start(&mut h, 1_000);
    }
    if claim {
        no_show_claim(&mut h, 2_000);
    }
    let (table, reason) = (T, "test".to_string());
    match state {
        NotStarted | Running => {}
        Paused => command(&mut h, Command::PauseTable { table, reason }, 3_000),
        Sealed => {
            let sealed_move = h2e2();
            command(&mut h, Command::Seal { table, sealed_move }, 3_000);
        }
        Finished => {
            let result = GameResult::RedWins;
            command(
                &mut h,
                Command::SetResult {
                    table,
                    result,
                    reason,
                },
                3_000,
            );
        }
    }
    h
}

pub(crate) fn axf(state: State, claim: bool) -> Hall {
    hall_in(RuleParams::default(), "AXF-2008", state, claim)
}

pub(crate) fn roc(state: State, claim: bool) -> Hall {
    hall_in(RuleSet::Roc.params(), "ROC", state, claim)
}

pub(crate) fn table(h: &Hall) -> &TableState {
    &h.tables[&T]
}

pub(crate) fn claim_id(h: &Hall) -> u64 {
    h.book.claims.last_id().max(1)
}

pub(crate) fn no_show_alert(h: &Hall) -> u64 {
    h.book
        .alerts
        .all()
        .find(|a| a.kind == AlertKind::NoShow)
        .map_or(999, |a| a.id)
}

/// Every value of a wire enum `E`, one per variant, in variant order:
/// decoded from its bincode form (the variant's index, then zero bytes,
/// which every field of the protocol's types accepts), so that the list
/// grows with the enum without anyone writing it down. Ends at the first
/// index the enum does not have; any other failure to decode is a panic,
/// so that no variant is passed over.
pub(crate) fn every_variant<E: bincode::Decode<()>>() -> Vec<E> {
    let cfg = bincode::config::standard();
    let mut out = Vec::new();
    for i in 0u8..=250 {
        let mut bytes = vec![0u8; 256];
        bytes[0] = i;
        match bincode::decode_from_slice::<E, _>(&bytes, cfg) {
            Ok((e, _)) => out.push(e),
            Err(bincode::error::DecodeError::UnexpectedVariant { .. }) => break,
            Err(e) => panic!("variant {i} does not decode from zeros: {e}"),
        }
    }
    assert!(!out.is_empty(), "no variant decoded");
    out
}

/// Runs `f` in every state, with and without the claim: the words naming
/// the run, and two halls built alike in that state (one to keep as it
/// was, one to change). Returns how many runs.
pub(crate) fn in_every_state(
    name: &str,
    hall: fn(State, bool) -> Hall,
    mut f: impl FnMut(State, bool, &str, Hall, Hall),
) -> usize {
    let mut runs = 0;
    for state in STATES {
        for claim in [false, true] {
            let at = format!("{name} in {state:?}, claim {claim}");
            f(state, claim, &at, hall(state, claim), hall(state, claim));
            runs += 1;
        }
    }
    runs
}
