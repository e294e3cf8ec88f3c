//! The page's words (页面文字) in the follower's language, from the i18n
//! catalogues (`web-*` ids, the sides' and end reasons' names), and how a
//! request chooses its language (`?lang=`, else `Accept-Language`, else
//! English).

use std::collections::BTreeMap;

use hall::public::PublicStatus;
use i18n::Lang;
use proto::{EndReason, GameResult, Message, Side};
use serde_json::{json, Value};

/// Every word the page and its script use, in one language.
#[derive(Debug, Clone)]
pub struct Words {
    /// The language.
    pub lang: Lang,
    /// `web-*` terms without arguments, by their id without `web-`.
    pub terms: BTreeMap<&'static str, String>,
    /// End reasons, by their name in the JSON (`checkmate`).
    pub reasons: BTreeMap<&'static str, String>,
}

/// The `web-*` terms without arguments.
const TERMS: [&str; 18] = [
    "waiting",
    "playing",
    "paused",
    "adjourned",
    "red-wins",
    "black-wins",
    "draw",
    "both-lose",
    "moves",
    "boards",
    "pairings",
    "results",
    "display",
    "notation",
    "language",
    "live",
    "reconnecting",
    "feeds",
];

impl Words {
    /// The words of `lang`.
    pub fn of(lang: Lang) -> Words {
        let mut terms: BTreeMap<&'static str, String> = TERMS
            .iter()
            .map(|t| (*t, i18n::term(lang, &format!("web-{t}"))))
            .collect();
        terms.insert("red", i18n::term(lang, i18n::ids::side(Side::Red)));
        terms.insert("black", i18n::term(lang, i18n::ids::side(Side::Black)));
        let reasons = EndReason::ALL
            .iter()
            .map(|r| (r.as_str(), i18n::term(lang, i18n::ids::end_reason(*r))))
            .collect();
        Words {
            lang,
            terms,
            reasons,
        }
    }

    /// A term (`"moves"`); the id itself when missing.
    pub fn t<'a>(&'a self, key: &'a str) -> &'a str {
        self.terms.get(key).map_or(key, String::as_str)
    }

    /// "Round N".
    pub fn round(&self, n: u32) -> String {
        i18n::render(self.lang, &Message::new("web-round").int("round", n))
    }

    /// "Table N".
    pub fn table(&self, n: u16) -> String {
        i18n::render(self.lang, &Message::new("web-table").int("table", n))
    }

    /// A status in words: "Red wins (checkmate)", "playing".
    pub fn status(&self, s: PublicStatus) -> String {
        match s {
            PublicStatus::Waiting => self.t("waiting").to_string(),
            PublicStatus::Playing => self.t("playing").to_string(),
            PublicStatus::Paused => self.t("paused").to_string(),
            PublicStatus::Adjourned => self.t("adjourned").to_string(),
            PublicStatus::Finished { result, why } => {
                let r = match result {
                    GameResult::RedWins => "red-wins",
                    GameResult::BlackWins => "black-wins",
                    GameResult::Draw => "draw",
                    GameResult::BothLose => "both-lose",
                };
                let why = self.reasons.get(why.as_str()).map_or("", String::as_str);
                format!("{} ({why})", self.t(r))
            }
        }
    }

    /// The words for the page's script.
    pub fn to_json(&self) -> Value {
        json!({ "lang": self.lang.tag(), "terms": self.terms, "reasons": self.reasons })
    }
}

/// The language of a request: `?lang=` when given (an unknown one is an
/// error naming the known ones), else the first of `Accept-Language` that
/// caipan has, else English.
pub fn choose(query: Option<&str>, accept: Option<&str>) -> Result<Lang, String> {
    if let Some(q) = query {
        return q.parse::<Lang>().map_err(|e| e.to_string());
    }
    let from_header = accept
        .into_iter()
        .flat_map(|a| a.split(','))
        .find_map(|item| {
            let tag = item.split(';').next().unwrap_or("").trim();
            if tag.is_empty() || tag == "*" {
                return None;
            }
            Lang::from_locale(tag)
        });
    Ok(from_header.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_come_from_the_catalogues_in_each_language() {
        for lang in Lang::ALL {
            let w = Words::of(lang);
            for t in TERMS {
                assert_ne!(w.t(t), format!("web-{t}"), "{lang:?} lacks web-{t}");
            }
            assert!(!w.round(3).contains("web-round"));
        }
        let zh = Words::of(Lang::ZhHans);
        let s = zh.status(PublicStatus::Finished {
            result: GameResult::RedWins,
            why: EndReason::Checkmate,
        });
        assert_eq!(s, "红胜 (将死)");
        assert_eq!(Words::of(Lang::En).table(4), "Table 4");
    }

    #[test]
    fn the_language_is_the_query_s_then_the_header_s() {
        assert_eq!(choose(Some("vi"), Some("en")), Ok(Lang::Vi));
        assert!(choose(Some("xx"), None).unwrap_err().contains("zh-Hans"));
        assert_eq!(choose(None, Some("fr, zh-TW;q=0.8")), Ok(Lang::ZhHant));
        assert_eq!(choose(None, Some("zh-CN,zh;q=0.9")), Ok(Lang::ZhHans));
        assert_eq!(choose(None, None), Ok(Lang::En));
    }
}
