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
        let b = big("1:0");
        assert_eq!(b[0], "  █     ███ ");
        assert_eq!(b.len(), 5);
    }
}
