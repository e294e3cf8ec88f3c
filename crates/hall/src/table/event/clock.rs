//! The game's clock (棋钟) as the terminal reports it: the clock started, a
//! press (with the move it ends, if reported with it), a flag fall. Every
//! report is checked against the mirror (`table::clock`): an anomaly is an
//! alert (AXF-CLOCK-5); a time at zero is a flag fall, an alert and a claim
//! proposing the loss (AXF-CLOCK-1), once per side and game.

use proto::{AlertKind, ClaimKind, IccsMove, Side, TableStatus};
use rulebook::{RuleId, RuleParams};

use super::{draw, TableState};
use crate::alerts::NewAlert;
use crate::book::Book;
use crate::loss::Loss;
use crate::table::clock::ClockAnomaly;
use crate::table::convert::color;
use crate::table::Raised;

/// `ClockStarted`: the game starts (no-show claims lapse: the players are
/// there) with the terminal's times.
pub(super) fn started(
    t: &mut TableState,
    (red_ms, black_ms): (u64, u64),
    terminal_mono_ms: u64,
    now: u64,
    book: &mut Book,
) {
    start(t, now);
    book.lapse(
        t.table,
        |c| c.kind == ClaimKind::NoShow,
        crate::audit::lapse::clock_started,
        now,
    );
    let turn = Some(t.board.turn());
    let anomalies = t
        .clock
        .report(None, red_ms, black_ms, terminal_mono_ms, now, turn);
    anomalies_alerted(t, anomalies, now, book);
    t.sample_clock(now);
}

/// `ClockPress`: the move it ends (if any) is played, a standing offer of
/// the other side is answered, the times are checked, and a time at zero
/// is a flag fall.
#[allow(
    clippy::too_many_arguments,
    reason = "a press carries the side, both times, the terminal clock and the move: each a field of the wire event"
)]
pub(super) fn press(
    t: &mut TableState,
    by: Side,
    mv: Option<IccsMove>,
    (red_ms, black_ms): (u64, u64),
    terminal_mono_ms: u64,
    now: u64,
    params: &RuleParams,
    book: &mut Book,
) {
    start(t, now);
    if let Some(m) = mv {
        t.play_move(by, m, now, params, book);
    }
    draw::answered_by_move(t, by);
    let anomalies = t.clock.report(
        Some(color(by)),
        red_ms,
        black_ms,
        terminal_mono_ms,
        now,
        None,
    );
    anomalies_alerted(t, anomalies, now, book);
    t.sample_clock(now);
    for (s, left) in [(Side::Red, red_ms), (Side::Black, black_ms)] {
        if left == 0 {
            t.flag_fall(s, now, book);
        }
    }
}

/// `FlagFell`: the terminal's times, then the flag fall.
pub(super) fn flag_fell(
    t: &mut TableState,
    side: Side,
    (red_ms, black_ms): (u64, u64),
    terminal_mono_ms: u64,
    now: u64,
    book: &mut Book,
) {
    let running = t.clock.running;
    t.clock
        .report(None, red_ms, black_ms, terminal_mono_ms, now, running);
    t.sample_clock(now);
    t.flag_fall(side, now, book);
}

/// The game is under way from its first clock report or move.
pub(super) fn start(t: &mut TableState, now: u64) {
    if t.started_at_ms.is_none() {
        t.started_at_ms = Some(now);
    }
    if t.status == TableStatus::Waiting {
        t.status = TableStatus::Playing;
    }
}

/// One alert per clock anomaly (AXF-CLOCK-5).
fn anomalies_alerted(t: &TableState, anomalies: Vec<ClockAnomaly>, now: u64, book: &mut Book) {
    let n = t.table;
    for a in anomalies {
        book.alert(
            NewAlert::new(
                n,
                AlertKind::ClockAnomaly,
                i18n::texts::clock_anomaly(n, i18n::texts::anomaly(&a)),
                &[RuleId::AXF_CLOCK_5],
            ),
            now,
        );
    }
}

impl TableState {
    /// A flag fell for `s` (once per game): alert and a claim proposing the loss.
    pub fn flag_fall(&mut self, s: Side, now: u64, book: &mut Book) {
        if self.finished() || !self.raised.insert(Raised::Flag(s)) {
            return;
        }
        self.flag = Some(s);
        book.propose_loss(self.table, Loss::FlagFall { side: s }, now);
    }
}
