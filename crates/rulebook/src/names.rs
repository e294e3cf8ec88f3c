//! Shared wording for explanations: side and piece names in Chinese and
//! English, numbers appended to a text, and durations written for people.
//! Private to the crate.

use xiangqi::{Color, Role};

/// 红方 / 黑方 ([`Color::name_zh`]).
pub fn side_zh(c: Color) -> &'static str {
    c.name_zh()
}

/// Red / Black ([`Color::name_en`]).
pub fn side_en(c: Color) -> &'static str {
    c.name_en()
}

/// Chinese piece name as printed on the piece (帅/将, 仕/士, 相/象, 马, 车, 炮, 兵/卒).
pub fn role_zh(color: Color, role: Role) -> &'static str {
    match (color, role) {
        (Color::Red, Role::King) => "帅",
        (Color::Black, Role::King) => "将",
        (Color::Red, Role::Advisor) => "仕",
        (Color::Black, Role::Advisor) => "士",
        (Color::Red, Role::Elephant) => "相",
        (Color::Black, Role::Elephant) => "象",
        (_, Role::Horse) => "马",
        (_, Role::Rook) => "车",
        (_, Role::Cannon) => "炮",
        (Color::Red, Role::Pawn) => "兵",
        (Color::Black, Role::Pawn) => "卒",
    }
}

/// English piece name.
pub fn role_en(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Advisor => "advisor",
        Role::Elephant => "elephant",
        Role::Horse => "horse",
        Role::Rook => "rook",
        Role::Cannon => "cannon",
        Role::Pawn => "pawn",
    }
}

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
