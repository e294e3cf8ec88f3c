//! Shared wording for explanations: numbers appended to a text and
//! durations written for people (side and piece names are the xiangqi
//! types' own: `Color::name_zh`, `Piece::name_zh`, `Role::name_en`).
//! Private to the crate.

/// Appends a number in decimal (what `format!("{n}")` writes).
pub(crate) fn push_num(out: &mut String, n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
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
    fn numbers() {
        for n in [0, 7, 10, 99, 100, 12_345, usize::MAX] {
            let mut s = String::from("x");
            super::push_num(&mut s, n);
            assert_eq!(s, format!("x{n}"));
        }
    }

    #[test]
    fn durations() {
        assert_eq!(super::duration(0), "0:00");
        assert_eq!(super::duration(300_000), "5:00");
        assert_eq!(super::duration(4_830_999), "1:20:30");
    }
}
