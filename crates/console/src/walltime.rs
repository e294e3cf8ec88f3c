//! The local time zone's offset from UTC, so alert times read as the
//! hall's clock on the wall (the server sends Unix milliseconds).

/// Seconds east of UTC right now (0 if the C library cannot tell).
pub fn local_utc_offset_s() -> i32 {
    let now: libc::time_t = match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)
    {
        Ok(d) => d.as_secs() as libc::time_t,
        Err(_) => return 0,
    };
    // SAFETY: `localtime_r` writes only into the `tm` we pass and reads the
    // `time_t` we pass; both live on this stack frame.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let ok = unsafe { !libc::localtime_r(&now, &mut tm).is_null() };
    if ok {
        i32::try_from(tm.tm_gmtoff).unwrap_or(0)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn offset_is_within_a_day() {
        let o = super::local_utc_offset_s();
        assert!((-14 * 3600..=14 * 3600).contains(&o), "{o}");
    }
}
