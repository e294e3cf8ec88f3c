//! The exports' own words (导出用语) in the hall's language: the HTML
//! pages' headings and column heads (`export-*` in
//! `crates/i18n/locales/export/*.ftl`) and the end reasons' terms.
//!
//! An export has a language when `caipan export --lang` gives one or the
//! hall config's `[tournament] language` sets it; without one every
//! export is worded exactly as before the hall had a language (Chinese
//! and English side by side, English text in the CSV and JSON), which is
//! what keeps the old data dirs' exports byte-identical (the fixture
//! chain). The printed pairings show the hall's language with English
//! beside it, for the players who read neither Chinese nor the hall's
//! language.

use i18n::Lang;
use proto::{EndReason, Message};

/// `today` (the words every export had before the hall had a language)
/// without a language, else the catalogue's `id` in `lang`.
pub fn head(lang: Option<Lang>, today: &str, id: &str) -> String {
    match lang {
        None => today.to_string(),
        Some(l) => i18n::term(l, id),
    }
}

/// The printed pairings' heading: `today` without a language, the
/// catalogue's `id` in `lang` with English after it otherwise (once when
/// the language is English).
pub fn with_english(lang: Option<Lang>, today: &str, id: &str) -> String {
    match lang {
        None => today.to_string(),
        Some(Lang::En) => i18n::term(Lang::En, id),
        Some(l) => format!("{} {}", i18n::term(l, id), i18n::term(Lang::En, id)),
    }
}

/// A message with arguments in the hall's language and English after it
/// (once when the language is English).
pub fn message_with_english(lang: Lang, m: &Message) -> String {
    if lang == Lang::En {
        i18n::render(Lang::En, m)
    } else {
        format!("{} {}", i18n::render(lang, m), i18n::render(Lang::En, m))
    }
}

/// An end reason's term in `lang` (将死 / 將死 / checkmate / chiếu bí).
pub fn reason(lang: Lang, r: EndReason) -> String {
    i18n::term(lang, i18n::ids::end_reason(r))
}

/// The `lang` attribute of a page (`zh` for the pages of before).
pub fn html_lang(lang: Option<Lang>) -> &'static str {
    lang.map_or("zh", Lang::tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_language_keeps_the_old_words_and_a_language_uses_the_catalogue() {
        assert_eq!(
            head(None, "本轮成绩 Results", "export-results"),
            "本轮成绩 Results"
        );
        assert_eq!(head(Some(Lang::En), "x", "export-results"), "Results");
        assert_ne!(head(Some(Lang::Vi), "x", "export-results"), "Results");
        let vi = with_english(Some(Lang::Vi), "x", "export-by-table");
        assert!(vi.ends_with(" By table"), "{vi}");
        assert_eq!(
            with_english(Some(Lang::En), "x", "export-by-table"),
            "By table"
        );
        assert_eq!(reason(Lang::ZhHant, EndReason::PerpetualCheck), "長將");
        assert_eq!(html_lang(None), "zh");
        assert_eq!(html_lang(Some(Lang::ZhHant)), "zh-Hant");
    }
}
