//! Clock text (钟面读数): a time in milliseconds as people read it on a
//! clock, `1:20:00` or `4:12`. The one writer of clock times for the
//! rulings' explanations, the console, the table terminal and the exports.

/// How a time is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockForm {
    /// `h:mm:ss` from one hour up, `m:ss` below; whole seconds rounded
    /// down (explanations, the table's big clock).
    Short,
    /// As [`ClockForm::Short`] with whole seconds rounded up: a running
    /// clock shows `0:00` only once its flag has fallen (the console).
    ShortRoundedUp,
    /// Always `h:mm:ss`, whole seconds rounded down (PGN `%clk`, result
    /// sheets).
    Long,
}

/// `ms` as clock text in `form`.
pub fn clock_text(ms: u64, form: ClockForm) -> String {
    let secs = match form {
        ClockForm::ShortRoundedUp => ms.div_ceil(1000),
        ClockForm::Short | ClockForm::Long => ms / 1000,
    };
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    if h > 0 || form == ClockForm::Long {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::{clock_text, ClockForm::*};

    #[test]
    fn forms() {
        assert_eq!(clock_text(0, Short), "0:00");
        assert_eq!(clock_text(300_000, Short), "5:00");
        assert_eq!(clock_text(59_999, Short), "0:59");
        assert_eq!(clock_text(4_830_999, Short), "1:20:30");
        assert_eq!(clock_text(59_001, ShortRoundedUp), "1:00");
        assert_eq!(clock_text(1, ShortRoundedUp), "0:01");
        assert_eq!(clock_text(0, ShortRoundedUp), "0:00");
        assert_eq!(clock_text(3_599_001, ShortRoundedUp), "1:00:00");
        assert_eq!(clock_text(3_723_999, Long), "1:02:03");
        assert_eq!(clock_text(300_000, Long), "0:05:00");
    }
}
