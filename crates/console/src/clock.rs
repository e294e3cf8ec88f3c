//! Live game clocks on the console (计时显示).
//!
//! The table terminal is the clock of record; the server sends both remaining
//! times and which side is running. The console extrapolates the running
//! side from the moment it received those times (its own monotonic
//! milliseconds, [`crate::app::App::now_ms`]), so clocks tick every second
//! without a message from the server. This module is pure: times in, text
//! and urgency out.

/// Below this the clock is shown in warning colour (five minutes).
pub const LOW_TIME_MS: i64 = 5 * 60 * 1000;
/// Below this the clock is shown in danger colour (one minute).
pub const CRITICAL_TIME_MS: i64 = 60 * 1000;

/// How urgent a remaining time is, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Urgency {
    /// Five minutes or more.
    Normal,
    /// Under five minutes.
    Low,
    /// Under one minute.
    Critical,
    /// Zero: the flag has fallen.
    Flagged,
}

/// The urgency of `remaining_ms`.
pub fn urgency(remaining_ms: i64) -> Urgency {
    if remaining_ms <= 0 {
        Urgency::Flagged
    } else if remaining_ms < CRITICAL_TIME_MS {
        Urgency::Critical
    } else if remaining_ms < LOW_TIME_MS {
        Urgency::Low
    } else {
        Urgency::Normal
    }
}

/// The remaining time of a clock `elapsed_ms` after a reading of
/// `reading_ms`, if it is running; never below zero.
pub fn live_ms(reading_ms: i64, running: bool, elapsed_ms: u64) -> i64 {
    if !running {
        return reading_ms.max(0);
    }
    let elapsed = i64::try_from(elapsed_ms).unwrap_or(i64::MAX);
    reading_ms.saturating_sub(elapsed).max(0)
}

/// Clock text: `H:MM:SS` from one hour up, `M:SS` below; whole seconds are
/// rounded up while the clock runs (a clock showing 0:00 has fallen).
/// Negative times read 0:00 ([`rulebook::clock_text`] writes it).
pub fn format_ms(ms: i64) -> String {
    let ms = u64::try_from(ms).unwrap_or(0);
    rulebook::clock_text(ms, rulebook::ClockForm::ShortRoundedUp)
}

/// A signed time difference for adjustments and history: `+0:30`, `-1:05`.
pub fn format_delta_ms(ms: i64) -> String {
    let sign = if ms < 0 { '-' } else { '+' };
    format!("{sign}{}", format_ms(ms.saturating_abs()))
}

/// An age ("last heard 7 s ago") in compact form: `3s`, `2m`, `1h`.
pub fn format_age_ms(ms: u64) -> String {
    let s = ms / 1000;
    if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        format!("{}m", s / 60)
    } else {
        format!("{}h", s / 3600)
    }
}

/// Parses an arbiter's clock entry: an absolute time `M:SS` / `H:MM:SS` /
/// plain minutes `M`, or a change `+SS`, `-M:SS`. Returns `(is_delta, ms)`.
pub fn parse_clock_entry(text: &str) -> Option<(bool, i64)> {
    let t = text.trim();
    let (delta, sign, body) = match t.as_bytes().first() {
        Some(b'+') => (true, 1, &t[1..]),
        Some(b'-') => (true, -1, &t[1..]),
        _ => (false, 1, t),
    };
    if body.is_empty() {
        return None;
    }
    let parts: Vec<&str> = body.split(':').collect();
    let nums: Option<Vec<i64>> = parts
        .iter()
        .map(|p| {
            if p.is_empty() || p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit()) {
                None
            } else {
                p.parse::<i64>().ok()
            }
        })
        .collect();
    let nums = nums?;
    let secs = match nums.as_slice() {
        // A bare number: seconds for a change, minutes for a new time.
        [n] if delta => *n,
        [m] => *m * 60,
        [m, s] if *s < 60 => *m * 60 + *s,
        [h, m, s] if *m < 60 && *s < 60 => *h * 3600 + *m * 60 + *s,
        _ => return None,
    };
    Some((delta, sign * secs * 1000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_clock_times() {
        assert_eq!(format_ms(0), "0:00");
        assert_eq!(format_ms(-5), "0:00");
        assert_eq!(format_ms(1), "0:01");
        assert_eq!(format_ms(59_001), "1:00");
        assert_eq!(format_ms(300_000), "5:00");
        assert_eq!(format_ms(3_600_000), "1:00:00");
        assert_eq!(format_ms(5_400_000 + 7_000), "1:30:07");
        assert_eq!(format_delta_ms(-65_000), "-1:05");
        assert_eq!(format_delta_ms(30_000), "+0:30");
        assert_eq!(format_age_ms(7_400), "7s");
        assert_eq!(format_age_ms(125_000), "2m");
    }

    #[test]
    fn running_side_is_extrapolated_and_stops_at_zero() {
        assert_eq!(live_ms(10_000, true, 3_000), 7_000);
        assert_eq!(live_ms(10_000, false, 3_000), 10_000);
        assert_eq!(live_ms(1_000, true, 3_000), 0);
        assert_eq!(live_ms(1_000, true, u64::MAX), 0);
    }

    #[test]
    fn urgency_thresholds() {
        assert_eq!(urgency(LOW_TIME_MS), Urgency::Normal);
        assert_eq!(urgency(LOW_TIME_MS - 1), Urgency::Low);
        assert_eq!(urgency(CRITICAL_TIME_MS - 1), Urgency::Critical);
        assert_eq!(urgency(0), Urgency::Flagged);
    }

    #[test]
    fn parses_clock_entries() {
        assert_eq!(parse_clock_entry("5:00"), Some((false, 300_000)));
        assert_eq!(parse_clock_entry("12"), Some((false, 720_000)));
        assert_eq!(parse_clock_entry("1:02:03"), Some((false, 3_723_000)));
        assert_eq!(parse_clock_entry("+30"), Some((true, 30_000)));
        assert_eq!(parse_clock_entry("-1:00"), Some((true, -60_000)));
        assert_eq!(parse_clock_entry("1:60"), None);
        assert_eq!(parse_clock_entry("abc"), None);
        assert_eq!(parse_clock_entry("+"), None);
        assert_eq!(parse_clock_entry(""), None);
        assert_eq!(parse_clock_entry("99999999999"), None);
    }
}
