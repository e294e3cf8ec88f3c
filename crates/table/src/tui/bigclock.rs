//! Large clock digits (3 columns x 5 rows per glyph) so both times can be
//! read from across the table.

const GLYPHS: [[&str; 5]; 11] = [
    ["███", "█ █", "█ █", "█ █", "███"],
    ["  █", "  █", "  █", "  █", "  █"],
    ["███", "  █", "███", "█  ", "███"],
    ["███", "  █", "███", "  █", "███"],
    ["█ █", "█ █", "███", "  █", "  █"],
    ["███", "█  ", "███", "  █", "███"],
    ["███", "█  ", "███", "█ █", "███"],
    ["███", "  █", "  █", "  █", "  █"],
    ["███", "█ █", "███", "█ █", "███"],
    ["███", "█ █", "███", "  █", "███"],
    ["   ", " █ ", "   ", " █ ", "   "],
];

/// `h:mm:ss` (or `m:ss` under an hour) of a time in ms, rounded down.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// Five lines of large digits for `text` (digits and `:` only).
pub fn big(text: &str) -> [String; 5] {
    let mut rows: [String; 5] = Default::default();
    for c in text.chars() {
        let g = match c {
            '0'..='9' => GLYPHS[(c as u8 - b'0') as usize],
            ':' => GLYPHS[10],
            _ => continue,
        };
        for (row, part) in rows.iter_mut().zip(g) {
            row.push_str(part);
            row.push(' ');
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_draws() {
        assert_eq!(clock_text(4_800_000), "1:20:00");
        assert_eq!(clock_text(59_999), "0:59");
        let b = big("1:0");
        assert_eq!(b[0], "  █     ███ ");
        assert_eq!(b.len(), 5);
    }
}
