//! The local time zone's offset from UTC, so alert times read as the
//! hall's clock on the wall (the server sends Unix milliseconds). The zone
//! comes from jiff (the system's zone, `TZ` honoured), not the C library.

/// Seconds east of UTC right now in the machine's time zone.
pub fn local_utc_offset_s() -> i32 {
    jiff::ZonedDateTime::now().offset().seconds()
}

#[cfg(test)]
mod tests {
    #[test]
    fn offset_is_within_a_day() {
        let o = super::local_utc_offset_s();
        assert!((-14 * 3600..=14 * 3600).contains(&o), "{o}");
    }
}
