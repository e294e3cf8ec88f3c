//! The server's wall clock (服务器时间): Unix ms, the time stamped on
//! every stored record and snapshot. The hall core has no clock of its own.

/// Server wall clock, Unix ms.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
