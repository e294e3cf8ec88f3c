//! Shared wording for explanations: side names in Chinese and English, and
//! durations written for people. Private helpers of the non-repetition modules.

use xiangqi::Color;

/// 红方 / 黑方.
pub(crate) fn side_zh(c: Color) -> &'static str {
    match c {
        Color::Red => "红方",
        Color::Black => "黑方",
    }
}

/// Red / Black.
pub(crate) fn side_en(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// A duration in ms as `m:ss` (or `h:mm:ss`), truncated to whole seconds.
pub(crate) fn duration(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations() {
        assert_eq!(super::duration(0), "0:00");
        assert_eq!(super::duration(300_000), "5:00");
        assert_eq!(super::duration(4_830_999), "1:20:30");
    }
}
