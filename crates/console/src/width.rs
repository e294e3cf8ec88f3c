//! Display-width text helpers: pad and truncate by terminal columns, not by
//! `char` count.
//!
//! Chinese player names (e.g. 胡荣华) take two columns per character; a hall
//! row aligns only if every cell is cut and padded by its display width
//! (unicode-width). A cut that would split a wide character leaves a space
//! instead, and a truncated text ends with `…` so the arbiter sees that it
//! was cut.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Display width of `s` in terminal columns.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Cuts `s` to at most `max` columns; a cut text ends with `…`.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    // Keep one column for the ellipsis.
    let budget = max - 1;
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > budget {
            break;
        }
        out.push(c);
        used += w;
    }
    // A wide character that did not fit leaves a gap: fill it so the cell
    // keeps its width.
    while used < budget {
        out.push(' ');
        used += 1;
    }
    out.push('…');
    out
}

/// Cuts `s` to `cols` columns and pads it with spaces on the right to
/// exactly `cols` columns.
pub fn pad_right(s: &str, cols: usize) -> String {
    let mut out = truncate(s, cols);
    let w = width(&out);
    out.extend(std::iter::repeat_n(' ', cols.saturating_sub(w)));
    out
}

/// Cuts `s` to `cols` columns and pads it with spaces on the left to exactly
/// `cols` columns (for numbers and clocks).
pub fn pad_left(s: &str, cols: usize) -> String {
    let cut = truncate(s, cols);
    let w = width(&cut);
    let mut out: String = std::iter::repeat_n(' ', cols.saturating_sub(w)).collect();
    out.push_str(&cut);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_words_pad_exactly_in_all_four_languages() {
        // Vietnamese diacritics take no column of their own, precomposed
        // (NFC) or as combining marks (NFD); CJK takes two.
        assert_eq!(width("Tướng"), 5);
        assert_eq!(width("Tu\u{31b}\u{301}o\u{302}ng"), 5);
        assert_eq!(
            pad_right("Tu\u{31b}\u{301}o\u{302}ng", 3),
            "Tu\u{31b}\u{301}…"
        );
        assert_eq!(width("長將"), 4);
        for lang in i18n::Lang::ALL {
            for k in i18n::ids::ALERT_KINDS {
                let word = i18n::term(lang, i18n::ids::alert_kind(k));
                assert!(!word.contains(['\u{2068}', '\u{2069}']), "{lang}: {word:?}");
                for cols in [4, 7, 12, 30] {
                    let cell = pad_right(&word, cols);
                    assert_eq!(width(&cell), cols, "{lang} {word:?} in {cols} columns");
                }
            }
        }
    }

    #[test]
    fn the_consoles_own_words_pad_exactly_in_all_four_languages() {
        use crate::i18n::{field_id, Strings};
        for lang in i18n::Lang::ALL {
            for field in Strings::FIELDS {
                let word = i18n::term(lang, &field_id(field));
                assert!(!word.contains(['\u{2068}', '\u{2069}']), "{lang}: {word:?}");
                for cols in [2, 5, 9, 16, 40] {
                    assert_eq!(width(&pad_right(&word, cols)), cols, "{lang} {word:?}");
                    assert_eq!(width(&pad_left(&word, cols)), cols, "{lang} {word:?}");
                }
            }
        }
    }

    #[test]
    fn chinese_names_count_two_columns_each() {
        assert_eq!(width("胡荣华"), 6);
        assert_eq!(width("Hu"), 2);
        assert_eq!(pad_right("胡荣华", 8), "胡荣华  ");
        assert_eq!(width(&pad_right("胡荣华", 8)), 8);
    }

    #[test]
    fn truncation_never_splits_a_wide_character() {
        // 5 columns: two characters (4 columns) would leave 0 for "…";
        // budget 4 holds two characters, then the ellipsis.
        assert_eq!(truncate("胡荣华", 5), "胡荣…");
        // 4 columns: budget 3 holds one character plus a filling space.
        assert_eq!(truncate("胡荣华", 4), "胡 …");
        assert_eq!(width(&truncate("胡荣华", 4)), 4);
        assert_eq!(truncate("胡荣华", 6), "胡荣华");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn pads_align_mixed_scripts() {
        let a = pad_right("许银川", 7);
        let b = pad_right("Lu Qin", 7);
        assert_eq!(width(&a), width(&b));
        assert_eq!(pad_left("5", 3), "  5");
        assert_eq!(pad_left("12345", 3), "12…");
    }
}
