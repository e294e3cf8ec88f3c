//! Shared wording for explanations: numbers appended to a text
//! (durations are `crate::clock_text`) (side and piece names are the xiangqi
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
}
