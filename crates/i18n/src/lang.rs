//! The four languages (四种语言) and how one is chosen: `--lang` values
//! (`zh-Hans`, `zh-Hant`, `en`, `vi`; `zh` stays an alias of zh-Hans) and
//! the locale environment (`LC_ALL`, then `LC_MESSAGES`, then `LANG`):
//! zh_TW, zh_HK and zh_MO read Traditional characters, the other zh
//! locales (zh_CN, zh_SG, …) Simplified, vi_VN Vietnamese, anything else
//! English.

use std::fmt;
use std::str::FromStr;

/// A language of the catalogues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Lang {
    /// 简体中文 (the AXF and CXA texts' script).
    ZhHans,
    /// 繁體中文 (the ROC text's script; Chinese Taipei, Hong Kong, Macau).
    ZhHant,
    /// English.
    #[default]
    En,
    /// Tiếng Việt.
    Vi,
}

impl Lang {
    /// Every language, in the order a language key cycles through them.
    pub const ALL: [Lang; 4] = [Lang::ZhHans, Lang::ZhHant, Lang::En, Lang::Vi];

    /// The BCP 47 tag (`zh-Hans`).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::ZhHans => "zh-Hans",
            Lang::ZhHant => "zh-Hant",
            Lang::En => "en",
            Lang::Vi => "vi",
        }
    }

    /// The language's own name (a menu shows each in its own script).
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::ZhHans => "简体中文",
            Lang::ZhHant => "繁體中文",
            Lang::En => "English",
            Lang::Vi => "Tiếng Việt",
        }
    }

    /// The next language of [`Lang::ALL`] (after vi comes zh-Hans again).
    pub fn next(self) -> Lang {
        let i = Lang::ALL.iter().position(|l| *l == self).unwrap_or(0);
        Lang::ALL[(i + 1) % Lang::ALL.len()]
    }

    /// Whether the language is written in Chinese characters.
    pub fn is_chinese(self) -> bool {
        matches!(self, Lang::ZhHans | Lang::ZhHant)
    }

    /// The language the locale environment asks for (`LC_ALL`,
    /// `LC_MESSAGES`, `LANG`, the first one set and not empty), or `None`.
    pub fn from_env() -> Option<Lang> {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let locale = get("LC_ALL")
            .or_else(|| get("LC_MESSAGES"))
            .or_else(|| get("LANG"));
        locale.as_deref().and_then(Lang::from_locale)
    }

    /// The language of one POSIX locale string (`zh_TW.UTF-8`,
    /// `vi_VN`, `zh_Hant_HK`, `en_GB@euro`); `None` for `C`, `POSIX` and
    /// languages without a catalogue.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let base = locale
            .split(['.', '@'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
            .replace('-', "_");
        let mut parts = base.split('_');
        match parts.next()? {
            "zh" => {
                let rest: Vec<&str> = parts.collect();
                let traditional = rest
                    .iter()
                    .any(|p| matches!(*p, "hant" | "tw" | "hk" | "mo"))
                    && !rest.contains(&"hans");
                Some(if traditional {
                    Lang::ZhHant
                } else {
                    Lang::ZhHans
                })
            }
            "vi" => Some(Lang::Vi),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

/// A `--lang` value that names no catalogue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {0:?}: use zh-Hans, zh-Hant, en or vi (zh is zh-Hans)")]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;

    /// `zh-Hans`, `zh-Hant`, `en`, `vi` (any case, `_` for `-`), `zh` (an
    /// alias of zh-Hans), or a locale such as `zh_TW` or `vi_VN`.
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        let l = s.trim().to_ascii_lowercase().replace('_', "-");
        match l.as_str() {
            "zh" | "zh-hans" | "zh-cn" | "cn" => Ok(Lang::ZhHans),
            "zh-hant" | "zh-tw" | "zh-hk" | "zh-mo" => Ok(Lang::ZhHant),
            "en" => Ok(Lang::En),
            "vi" => Ok(Lang::Vi),
            _ => Lang::from_locale(s).ok_or_else(|| UnknownLang(s.to_string())),
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locales_map_to_the_four_languages() {
        let cases = [
            ("zh_TW.UTF-8", Some(Lang::ZhHant)),
            ("zh_HK", Some(Lang::ZhHant)),
            ("zh_MO.UTF-8", Some(Lang::ZhHant)),
            ("zh_Hant_HK", Some(Lang::ZhHant)),
            ("zh_CN.UTF-8", Some(Lang::ZhHans)),
            ("zh_SG", Some(Lang::ZhHans)),
            ("zh", Some(Lang::ZhHans)),
            ("vi_VN.UTF-8", Some(Lang::Vi)),
            ("en_GB@euro", Some(Lang::En)),
            ("C", None),
            ("POSIX", None),
            ("fr_FR.UTF-8", None),
        ];
        for (locale, want) in cases {
            assert_eq!(Lang::from_locale(locale), want, "{locale}");
        }
    }

    #[test]
    fn lang_values_parse_and_zh_is_simplified() {
        assert_eq!("zh".parse::<Lang>(), Ok(Lang::ZhHans));
        assert_eq!("zh-Hans".parse::<Lang>(), Ok(Lang::ZhHans));
        assert_eq!("zh-Hant".parse::<Lang>(), Ok(Lang::ZhHant));
        assert_eq!("ZH_TW".parse::<Lang>(), Ok(Lang::ZhHant));
        assert_eq!("vi".parse::<Lang>(), Ok(Lang::Vi));
        assert_eq!("en".parse::<Lang>(), Ok(Lang::En));
        let e = "fr".parse::<Lang>().unwrap_err();
        assert!(e.to_string().contains("zh-Hant"), "{e}");
        for l in Lang::ALL {
            assert_eq!(l.tag().parse::<Lang>(), Ok(l));
        }
    }

    #[test]
    fn the_language_key_cycles_through_all_four() {
        let mut seen = vec![Lang::ZhHans];
        let mut l = Lang::ZhHans;
        for _ in 0..3 {
            l = l.next();
            seen.push(l);
        }
        assert_eq!(seen, Lang::ALL.to_vec());
        assert_eq!(l.next(), Lang::ZhHans);
    }
}
