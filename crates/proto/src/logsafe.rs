//! Peer-controlled text made safe for a log line: the ONE function every
//! log field that carries text a peer chose goes through ([`escaped`]).
//!
//! Control characters (newlines, carriage returns, tabs, ESC and so the
//! ANSI colour sequences, every other C0/C1 control, and Unicode format
//! and separator characters such as U+2028) are written as Rust escapes
//! (`\n`, `\u{1b}`), and backslashes are doubled, so a peer cannot end the
//! log line, start a forged one, or recolour the terminal: the whole text
//! stays one field. Printable text (Chinese names included) is unchanged.

use std::fmt;

/// Longest text kept in a log field, in bytes; the rest is cut at a char
/// boundary and the cut is marked (see [`truncate`]).
pub const MAX_LOGGED: usize = 256;

/// Displays a peer-controlled string escaped (see the module docs), cut to
/// [`MAX_LOGGED`] bytes. Use as `tracing::info!(what = %escaped(&s))`.
pub fn escaped(s: &str) -> Escaped<'_> {
    Escaped(s)
}

/// A string displayed escaped; made by [`escaped`].
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kept, cut) = split(self.0, MAX_LOGGED);
        for c in kept.chars() {
            match c {
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if needs_escape(c) => write!(f, "\\u{{{:x}}}", c as u32)?,
                c => fmt::Write::write_char(f, c)?,
            }
        }
        if cut > 0 {
            write!(f, "…[{cut} more bytes]")?;
        }
        Ok(())
    }
}

/// Control, format and separator characters that could break or disguise
/// a log line.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{2028}' | '\u{2029}' // line and paragraph separators
            | '\u{200b}'..='\u{200f}' // zero-width and direction marks
            | '\u{202a}'..='\u{202e}' // bidirectional embeddings and overrides
            | '\u{2066}'..='\u{2069}' // bidirectional isolates
            | '\u{feff}')
}

/// `s` cut to at most `max` bytes at a char boundary, and how many bytes
/// were cut.
fn split(s: &str, max: usize) -> (&str, usize) {
    if s.len() <= max {
        return (s, 0);
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    (&s[..end], s.len() - end)
}

/// `s` cut to at most `max` bytes (at a char boundary) with a marker
/// saying how much was cut: for texts a peer chose that are stored (the
/// audit trail's reasons), so none is stored at full length.
pub fn truncate(s: &str, max: usize) -> String {
    let (kept, cut) = split(s, max);
    if cut == 0 {
        kept.to_string()
    } else {
        format!("{kept}…[truncated, {cut} more bytes]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forged_line_stays_one_escaped_field() {
        let forged = "pause\n2026-12-02T10:00:00Z ERROR server: store corrupt\x1b[31m red\r\\";
        let out = escaped(forged).to_string();
        assert!(!out.contains('\n') && !out.contains('\r') && !out.contains('\x1b'));
        assert_eq!(
            out,
            "pause\\n2026-12-02T10:00:00Z ERROR server: store corrupt\\u{1b}[31m red\\r\\\\"
        );
    }

    #[test]
    fn printable_text_is_kept_and_long_text_is_cut_with_a_marker() {
        assert_eq!(escaped("停电 pause").to_string(), "停电 pause");
        assert_eq!(
            escaped("a\u{2028}b\u{202e}").to_string(),
            "a\\u{2028}b\\u{202e}"
        );
        let long = "象".repeat(200); // 600 bytes
        let out = escaped(&long).to_string();
        assert!(out.starts_with(&"象".repeat(85)));
        assert!(out.ends_with("…[345 more bytes]"), "{out}");
        assert_eq!(truncate("abc", 10), "abc");
        assert_eq!(truncate("abcdef", 4), "abcd…[truncated, 2 more bytes]");
        assert_eq!(truncate("象象", 4), "象…[truncated, 3 more bytes]");
    }
}
