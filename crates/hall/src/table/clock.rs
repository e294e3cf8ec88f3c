//! Clock mirror (棋钟镜像) of one table.
//!
//! The table terminal is the clock of record: every press reports both
//! remaining times (ms) and the terminal's own monotonic timestamp. The
//! server keeps the last report, extrapolates the running side for display
//! and checks consistency: a side's time never grows except by the
//! increment after its own move or by an arbiter's adjustment. A report that
//! breaks this (or a terminal clock that runs backwards) is an anomaly that
//! the table state turns into an alert.

use rulebook::clock::{check_report_times, AnomalyKind, ClockReport, TimeControl};
use xiangqi::Color;

pub use rulebook::clock::ClockAnomaly;

/// Slack for rounding and jitter on the terminal (ms) before a report
/// counts as an anomaly.
pub const GROWTH_TOLERANCE_MS: u64 = 1_000;

/// The anomalies the server raises: those about the times themselves.
/// `RanTooFast` / `RanTooSlow` compare the clock with the terminal's own
/// monotonic time, which synthetic feeds (tests, replays of stored games)
/// do not keep; they are left out until every terminal reports real time.
fn raised(kind: AnomalyKind) -> bool {
    matches!(
        kind,
        AnomalyKind::TimeWentBackwards
            | AnomalyKind::MovesDecreased
            | AnomalyKind::TimeGrew
            | AnomalyKind::IdleSideChanged
    )
}

/// The mirrored clock of one table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockMirror {
    /// Red's remaining time at the last report (ms).
    pub red_ms: u64,
    /// Black's remaining time at the last report (ms).
    pub black_ms: u64,
    /// The side whose clock runs, if any.
    pub running: Option<Color>,
    /// Server time (ms since the Unix epoch) of the last report.
    pub reported_at_ms: u64,
    /// The terminal's monotonic timestamp of the last report (ms).
    pub terminal_ms: Option<u64>,
    /// Paused by an arbiter (the terminal confirmed or was told so).
    pub paused: bool,
    /// Increment added after each move (ms).
    pub increment_ms: u64,
    /// Whether any report has been seen (before it, times are the initial ones).
    pub started: bool,
    /// The time control (for the increments the rulebook's check allows).
    pub control: TimeControl,
    /// Presses (moves) reported by Red and Black.
    pub presses: [u32; 2],
}

impl ClockMirror {
    /// A clock at the start of the game: both sides with `initial_ms`, not running.
    pub fn new(initial_ms: u64, increment_ms: u64) -> ClockMirror {
        ClockMirror {
            red_ms: initial_ms,
            black_ms: initial_ms,
            running: None,
            reported_at_ms: 0,
            terminal_ms: None,
            paused: false,
            increment_ms,
            started: false,
            control: TimeControl::Fischer {
                base_ms: initial_ms,
                increment_ms,
            },
            presses: [0, 0],
        }
    }

    /// Remaining time of `side` at the last report.
    pub fn reported(&self, side: Color) -> u64 {
        match side {
            Color::Red => self.red_ms,
            Color::Black => self.black_ms,
        }
    }

    /// Remaining time of `side` at server time `now_ms`, extrapolating the running side.
    pub fn remaining_at(&self, side: Color, now_ms: u64) -> u64 {
        let base = self.reported(side);
        if self.paused || self.running != Some(side) {
            return base;
        }
        base.saturating_sub(now_ms.saturating_sub(self.reported_at_ms))
    }

    /// Applies a press (or any time report) from the terminal.
    ///
    /// `pressed_by` is the side that just completed a move (and may gain the
    /// increment); `None` for a report without a move (start, pause ack).
    /// The new running side is the other side of `pressed_by`, or `running`
    /// when given. The report is checked with the rulebook's
    /// [`check_report_times`] against the previous one (a side's time never grows
    /// except by its increments; a side that neither ran nor pressed keeps
    /// its time; the terminal's time never goes backwards). Returns the
    /// anomalies found; the report is mirrored anyway (the terminal is the
    /// clock of record).
    pub fn report(
        &mut self,
        pressed_by: Option<Color>,
        red_ms: u64,
        black_ms: u64,
        terminal_ms: u64,
        now_ms: u64,
        running: Option<Color>,
    ) -> Vec<ClockAnomaly> {
        let prev = ClockReport {
            at_ms: self.terminal_ms.unwrap_or(terminal_ms),
            remaining_ms: [self.red_ms, self.black_ms],
            running: if self.paused || !self.started {
                None
            } else {
                self.running
            },
            moves: self.presses,
        };
        if let Some(p) = pressed_by {
            self.presses[p.index()] = self.presses[p.index()].saturating_add(1);
        }
        let new_running = match (running, pressed_by) {
            (Some(r), _) => Some(r),
            (None, Some(p)) => Some(p.other()),
            (None, None) => self.running,
        };
        let next = ClockReport {
            at_ms: terminal_ms,
            remaining_ms: [red_ms, black_ms],
            running: new_running,
            moves: self.presses,
        };
        // The rate's kinds are not raised, so not looked for.
        let anomalies: Vec<ClockAnomaly> =
            check_report_times(&self.control, &prev, &next, [0, 0], GROWTH_TOLERANCE_MS)
                .into_iter()
                .filter(|a| raised(a.kind))
                .collect();
        self.red_ms = red_ms;
        self.black_ms = black_ms;
        self.terminal_ms = Some(terminal_ms);
        self.reported_at_ms = now_ms;
        self.started = true;
        self.running = new_running;
        anomalies
    }

    /// An arbiter's adjustment: sets the times without any consistency check.
    pub fn adjust(&mut self, red_ms: u64, black_ms: u64, now_ms: u64) {
        self.red_ms = red_ms;
        self.black_ms = black_ms;
        self.reported_at_ms = now_ms;
    }

    /// Freezes the running side's time at `now_ms` and marks the clock paused.
    pub fn pause(&mut self, now_ms: u64) {
        if self.paused {
            return;
        }
        if let Some(side) = self.running {
            let left = self.remaining_at(side, now_ms);
            match side {
                Color::Red => self.red_ms = left,
                Color::Black => self.black_ms = left,
            }
        }
        self.reported_at_ms = now_ms;
        self.paused = true;
    }

    /// Lets the running side's clock run again from `now_ms`.
    pub fn resume(&mut self, now_ms: u64) {
        if !self.paused {
            return;
        }
        self.reported_at_ms = now_ms;
        self.paused = false;
    }

    /// The side whose (extrapolated) time is zero at `now_ms`, if any.
    pub fn flag_fallen(&self, now_ms: u64) -> Option<Color> {
        [Color::Red, Color::Black]
            .into_iter()
            .find(|&s| self.started && self.remaining_at(s, now_ms) == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mover_may_gain_the_increment_only() {
        let mut c = ClockMirror::new(60_000, 30_000);
        assert!(c
            .report(Some(Color::Red), 80_000, 60_000, 10_000, 1_000, None)
            .is_empty());
        assert_eq!(c.running, Some(Color::Black));
        let a = c.report(Some(Color::Black), 80_000, 95_000, 20_000, 2_000, None);
        assert_eq!(a.len(), 1, "{a:?}");
        assert_eq!(a[0].kind, AnomalyKind::TimeGrew);
        assert_eq!(a[0].side, Some(Color::Black));
        // Red (running since Black's press) gains time without a press.
        let a = c.report(Some(Color::Black), 91_000, 90_000, 30_000, 3_000, None);
        assert!(
            a.iter()
                .any(|x| x.kind == AnomalyKind::TimeGrew && x.side == Some(Color::Red)),
            "{a:?}"
        );
    }

    #[test]
    fn idle_side_losing_time_is_an_anomaly() {
        let mut c = ClockMirror::new(60_000, 0);
        c.report(None, 60_000, 60_000, 0, 0, Some(Color::Red));
        // Red runs (no press yet); Black, idle, loses 5 s.
        let a = c.report(None, 55_000, 55_000, 5_000, 5_000, Some(Color::Red));
        assert!(
            a.iter()
                .any(|x| x.kind == AnomalyKind::IdleSideChanged && x.side == Some(Color::Black)),
            "{a:?}"
        );
    }

    #[test]
    fn terminal_time_backwards_is_an_anomaly() {
        let mut c = ClockMirror::new(60_000, 0);
        c.report(Some(Color::Red), 60_000, 60_000, 100, 0, None);
        let a = c.report(Some(Color::Black), 60_000, 59_000, 50, 10, None);
        assert_eq!(a[0].kind, AnomalyKind::TimeWentBackwards);
    }

    #[test]
    fn extrapolates_running_side_and_freezes_on_pause() {
        let mut c = ClockMirror::new(10_000, 0);
        c.report(Some(Color::Red), 10_000, 10_000, 0, 1_000, None);
        assert_eq!(c.remaining_at(Color::Black, 4_000), 7_000);
        assert_eq!(c.remaining_at(Color::Red, 4_000), 10_000);
        c.pause(4_000);
        assert_eq!(c.remaining_at(Color::Black, 9_000), 7_000);
        c.resume(9_000);
        assert_eq!(c.remaining_at(Color::Black, 16_000), 0);
        assert_eq!(c.flag_fallen(16_000), Some(Color::Black));
    }
}
