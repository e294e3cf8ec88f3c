//! Clock mirror (棋钟镜像) of one table.
//!
//! The table terminal is the clock of record: every press reports both
//! remaining times (ms) and the terminal's own monotonic timestamp. The
//! server keeps the last report, extrapolates the running side for display
//! and checks consistency: a side's time never grows except by the
//! increment after its own move or by an arbiter's adjustment. A report that
//! breaks this (or a terminal clock that runs backwards) is an anomaly that
//! the table state turns into an alert.

use xiangqi::Color;

/// Slack for rounding on the terminal (ms) before growth counts as an anomaly.
pub const GROWTH_TOLERANCE_MS: u64 = 50;

/// One inconsistency found in a clock report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockAnomaly {
    /// A side's remaining time grew by more than it may.
    TimeGrew {
        /// The side whose time grew.
        side: Color,
        /// Time before the report (ms).
        before_ms: u64,
        /// Time in the report (ms).
        after_ms: u64,
        /// The most it may have grown by (ms).
        allowed_ms: u64,
    },
    /// The terminal's monotonic timestamp went backwards.
    TerminalTimeBackwards {
        /// Previous terminal timestamp (ms).
        before_ms: u64,
        /// Reported terminal timestamp (ms).
        after_ms: u64,
    },
}

impl ClockAnomaly {
    /// A one-line explanation for the alert text.
    pub fn describe(&self) -> String {
        match self {
            ClockAnomaly::TimeGrew {
                side,
                before_ms,
                after_ms,
                allowed_ms,
            } => format!(
                "{} clock grew from {} ms to {} ms (at most +{} ms allowed)",
                side_name(*side),
                before_ms,
                after_ms,
                allowed_ms
            ),
            ClockAnomaly::TerminalTimeBackwards {
                before_ms,
                after_ms,
            } => format!("terminal clock went backwards from {before_ms} ms to {after_ms} ms"),
        }
    }
}

/// English name of a side, for alert texts.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
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
    /// when given. Returns the anomalies found; the report is mirrored anyway
    /// (the terminal is the clock of record).
    pub fn report(
        &mut self,
        pressed_by: Option<Color>,
        red_ms: u64,
        black_ms: u64,
        terminal_ms: u64,
        now_ms: u64,
        running: Option<Color>,
    ) -> Vec<ClockAnomaly> {
        let mut anomalies = Vec::new();
        if let Some(prev) = self.terminal_ms {
            if terminal_ms < prev {
                anomalies.push(ClockAnomaly::TerminalTimeBackwards {
                    before_ms: prev,
                    after_ms: terminal_ms,
                });
            }
        }
        for (side, after) in [(Color::Red, red_ms), (Color::Black, black_ms)] {
            let before = self.reported(side);
            let allowed = if pressed_by == Some(side) {
                self.increment_ms
            } else {
                0
            } + GROWTH_TOLERANCE_MS;
            if after > before.saturating_add(allowed) {
                anomalies.push(ClockAnomaly::TimeGrew {
                    side,
                    before_ms: before,
                    after_ms: after,
                    allowed_ms: allowed - GROWTH_TOLERANCE_MS,
                });
            }
        }
        self.red_ms = red_ms;
        self.black_ms = black_ms;
        self.terminal_ms = Some(terminal_ms);
        self.reported_at_ms = now_ms;
        self.started = true;
        self.running = match (running, pressed_by) {
            (Some(r), _) => Some(r),
            (None, Some(p)) => Some(p.other()),
            (None, None) => self.running,
        };
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
            .report(Some(Color::Red), 80_000, 60_000, 10, 1_000, None)
            .is_empty());
        assert_eq!(c.running, Some(Color::Black));
        let a = c.report(Some(Color::Black), 80_000, 95_000, 20, 2_000, None);
        assert_eq!(a.len(), 1);
        assert!(matches!(
            a[0],
            ClockAnomaly::TimeGrew {
                side: Color::Black,
                ..
            }
        ));
        let a = c.report(Some(Color::Black), 81_000, 90_000, 30, 3_000, None);
        assert!(matches!(
            a[0],
            ClockAnomaly::TimeGrew {
                side: Color::Red,
                ..
            }
        ));
    }

    #[test]
    fn terminal_time_backwards_is_an_anomaly() {
        let mut c = ClockMirror::new(60_000, 0);
        c.report(Some(Color::Red), 60_000, 60_000, 100, 0, None);
        let a = c.report(Some(Color::Black), 59_000, 60_000, 50, 10, None);
        assert!(matches!(a[0], ClockAnomaly::TerminalTimeBackwards { .. }));
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
