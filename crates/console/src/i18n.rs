//! The console's own words (界面文字 / 介面文字 / chữ trên màn hình) in
//! the four languages of the catalogues: titles, column heads, key help,
//! dialogs and status lines, each a message `console-*` of
//! crates/i18n/locales/ui/*.ftl.
//!
//! The language is [`i18n::Lang`] (zh-Hans, zh-Hant, en, vi): from
//! `--lang`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else the
//! hall's `[tournament] language`; the `L` key cycles through the four.
//! [`Words::s`] gives a language's [`Strings`], read from the catalogue
//! once per language and kept for the life of the process (the screen is
//! drawn every second; formatting ~200 Fluent messages per frame would
//! be waste). Fluent's isolation marks are off in the catalogues, so every
//! word pads exactly in a cell grid (`width`).

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

pub use ::i18n::Lang;
use proto::{ClaimPenalty, Message, Side, Verdict};

/// The console's use of a [`Lang`]: its words, wire messages rendered in
/// it, and a (zh, en) pair picked for it.
pub trait Words {
    /// The words of this language.
    fn s(self) -> &'static Strings;
    /// A wire message (an alert's text, a ruling's explanation) rendered
    /// in this language from the catalogues.
    fn text(self, m: &Message) -> String;
    /// The text in this language out of a (zh, en) pair the wire still
    /// carries as two texts (a standing order): Chinese for zh-Hans and
    /// zh-Hant, English for en and vi; the other one when empty.
    fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str;
}

impl Words for Lang {
    fn s(self) -> &'static Strings {
        let i = Lang::ALL.iter().position(|l| *l == self).unwrap_or(0);
        &TABLES[i]
    }

    fn text(self, m: &Message) -> String {
        ::i18n::render(self, m)
    }

    fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match (self.is_chinese(), zh.is_empty(), en.is_empty()) {
            (true, false, _) | (false, false, true) => zh,
            _ => en,
        }
    }
}

/// The message `id` (no arguments) in `lang`, read once and kept: the
/// key help and hints, drawn every frame.
pub fn word(lang: Lang, id: &'static str) -> &'static str {
    static CACHE: LazyLock<Mutex<HashMap<(Lang, &'static str), &'static str>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let mut cache = match CACHE.lock() {
        Ok(c) => c,
        Err(poisoned) => poisoned.into_inner(),
    };
    // The ids are the code's own literals, so the cache holds at most four
    // strings per id: the leak is bounded.
    cache
        .entry((lang, id))
        .or_insert_with(|| Box::leak(::i18n::term(lang, id).into_boxed_str()))
}

/// The message `id` in `lang` with integer arguments (`publish round 2`).
pub fn say(lang: Lang, id: &str, args: &[(&str, i64)]) -> String {
    let m = args
        .iter()
        .fold(Message::new(id), |m, (name, n)| m.int(name, *n));
    ::i18n::render(lang, &m)
}

/// Defines [`Strings`] and its reading from the catalogue: each field is
/// the message `console-<field>` (underscores written as dashes).
macro_rules! strings {
    ($($(#[$doc:meta])* $field:ident,)*) => {
        /// Every fixed text of the console, in one language.
        #[derive(Debug)]
        pub struct Strings {
            /// The language of this table.
            pub lang: Lang,
            $($(#[$doc])* pub $field: &'static str,)*
        }

        impl Strings {
            /// The message id of each field, in order.
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];

            fn load(lang: Lang) -> Strings {
                Strings {
                    lang,
                    $($field: leak(lang, stringify!($field)),)*
                }
            }
        }
    };
}

/// The catalogue id of a [`Strings`] field (`act_ack` -> `console-act-ack`).
pub fn field_id(field: &str) -> String {
    format!("console-{}", field.replace('_', "-"))
}

fn leak(lang: Lang, field: &str) -> &'static str {
    Box::leak(::i18n::term(lang, &field_id(field)).into_boxed_str())
}

static TABLES: LazyLock<[Strings; 4]> = LazyLock::new(|| Lang::ALL.map(Strings::load));

impl Strings {
    /// A penalty's time off in words ("5:00 off", "扣时 5:00").
    pub fn pen_off(&self, time: &str) -> String {
        ::i18n::render(
            self.lang,
            &Message::new("console-pen-off").verbatim("time", time),
        )
    }
}

strings! {
    title,
    chief,
    deputy,
    viewer,
    round,
    hall,
    alerts,
    claims,
    detail,
    help,
    table,
    table_short,
    /// Heading of the hall column (a console over several halls).
    hall_col,
    /// "all halls" (the hall filter off).
    all_halls,
    red,
    black,
    red_short,
    black_short,
    clock,
    to_move,
    moves,
    no_capture,
    fouls,
    pending,
    status,
    seen,
    playing,
    not_started,
    paused,
    sealed,
    finished,
    offline,
    hall_paused,
    disconnected,
    connecting,
    /// A snapshot arriving in pages ("loading n/m").
    loading,
    /// A permanent refusal: the link stops (no retry).
    refused_for_good,
    connected,
    sort,
    sort_table,
    sort_time,
    sort_alerts,
    filter,
    goto_table,
    no_tables,
    no_alerts,
    no_claims,
    acknowledged,
    recommended,
    rules,
    ruled_by,
    accepted,
    overridden,
    escalated,
    reason,
    claimant,
    move_list,
    clock_history,
    log,
    technical,
    violation,
    yes_no,
    confirm,
    input,
    enter_esc,
    river_chu,
    river_han,
    keys_title,
    not_allowed,
    sent,
    server_refused,
    draw,
    red_wins,
    black_wins,
    flag,
    notation_chinese,
    notation_wxf,
    ago,
    none,
    act_ack_all,
    to_move_long,
    moves_long,
    pending_word,
    escalated_word,
    lapsed_word,
    done,
    act_ack,
    act_pause_table,
    act_resume_table,
    act_pause_hall,
    act_resume_hall,
    act_seal,
    act_unseal,
    act_foul,
    act_adjust,
    act_result,
    act_accept,
    act_override,
    act_escalate,
    act_export,
    prompt_reason,
    prompt_sealed_move,
    prompt_times,
    prompt_note,
    choose_foul,
    choose_result,
    choose_verdict,
    /// Play on with no penalty: the one name of that effect.
    v_continue,
    /// Play on, before the penalty's words ("play on, technical foul, 5:00 off").
    v_play_on,
    /// A penalty's technical foul.
    pen_foul,
    /// What an override does not impose ("waives technical foul, 5:00 off").
    waives,
    v_red_change,
    v_order_red,
    v_order_black,
    v_order_draw,
    ordered_word,
    v_black_change,
    v_red_loses,
    v_black_loses,
    v_red_correct,
    v_black_correct,
    both_lose,
    required,
    no_such_table,
    bad_move,
    bad_time,
    sealed_hidden,
    /// The declared move limit 限著 (ROC).
    move_limit,
    act_move_limit,
    choose_move_limit,
    ml_red_at_black,
    ml_black_at_red,
    ml_red_arbiter,
    ml_black_arbiter,
    ml_red_book,
    ml_black_book,
    ml_cancel,
    ml_limited,
    ml_short,
    ml_full,
    ml_capture,
}

/// A ruling with the penalty that goes with it, in words: one name per
/// effect — "play on, technical foul, 5:00 off" (a false natural-limit
/// claim accepted) and "play on, no penalty" are never both "play on".
pub fn ruling_label(
    s: &Strings,
    v: Verdict,
    must_change: Option<Side>,
    penalty: Option<ClaimPenalty>,
) -> String {
    match penalty.and_then(|p| penalty_label(s, p)) {
        None => verdict_label(s, v, must_change),
        Some(p) if (v, must_change) == (Verdict::Continue, None) => {
            format!("{}, {p}", s.v_play_on)
        }
        Some(p) => format!("{}, {p}", verdict_label(s, v, must_change)),
    }
}

/// A penalty in words ("technical foul, 5:00 off"); `None` when it
/// imposes nothing.
pub fn penalty_label(s: &Strings, p: ClaimPenalty) -> Option<String> {
    let mut parts = Vec::new();
    if p.technical_foul {
        parts.push(s.pen_foul.to_string());
    }
    if p.deduct_ms > 0 {
        let time = rulebook::clock_text(p.deduct_ms, rulebook::ClockForm::Short);
        parts.push(s.pen_off(&time));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// What an override waives (" (waives technical foul, 5:00 off)"), or
/// nothing when accepting the recommendation adds no penalty.
pub fn waived_label(s: &Strings, penalty: Option<ClaimPenalty>) -> String {
    penalty
        .and_then(|p| penalty_label(s, p))
        .map(|p| format!(" ({} {p})", s.waives))
        .unwrap_or_default()
}

/// A ruling without a penalty in words, e.g. "play on, Black must
/// change", "play on, no penalty".
pub fn verdict_label(s: &Strings, v: Verdict, must_change: Option<Side>) -> String {
    match (v, must_change) {
        (Verdict::Continue, Some(Side::Red)) => s.v_red_change.to_string(),
        (Verdict::Continue, Some(Side::Black)) => s.v_black_change.to_string(),
        (Verdict::Continue, None) => s.v_continue.to_string(),
        (Verdict::Order, Some(Side::Red)) => s.v_order_red.to_string(),
        (Verdict::Order, Some(Side::Black)) => s.v_order_black.to_string(),
        (Verdict::Order, None) => s.v_order_draw.to_string(),
        (Verdict::Draw, _) => s.draw.to_string(),
        (Verdict::Loss { side: Side::Red }, _) => s.v_red_loses.to_string(),
        (Verdict::Loss { side: Side::Black }, _) => s.v_black_loses.to_string(),
        (Verdict::CorrectMove { side: Side::Red }, _) => s.v_red_correct.to_string(),
        (Verdict::CorrectMove { side: Side::Black }, _) => s.v_black_correct.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two kinds of "play on" have a name each, in every language.
    #[test]
    fn play_on_names_its_penalty_or_none() {
        let p = ClaimPenalty {
            side: Side::Black,
            technical_foul: true,
            deduct_ms: 300_000,
        };
        let en = Lang::En.s();
        let label = |s, p| ruling_label(s, Verdict::Continue, None, p);
        assert_eq!(label(en, Some(p)), "play on, technical foul, 5:00 off");
        assert_eq!(label(en, None), "play on, no penalty");
        let zh = Lang::ZhHans.s();
        assert_eq!(label(zh, Some(p)), "继续对局, 技术犯规, 扣时 5:00");
        assert_eq!(label(zh, None), "继续对局, 不处罚");
        let hant = Lang::ZhHant.s();
        assert_eq!(label(hant, Some(p)), "繼續對局, 技術犯規, 扣時 5:00");
        let vi = Lang::Vi.s();
        assert_eq!(label(vi, Some(p)), "đánh tiếp, lỗi kỹ thuật, trừ 5:00");
        let time_only = ClaimPenalty {
            technical_foul: false,
            ..p
        };
        assert_eq!(label(en, Some(time_only)), "play on, 5:00 off");
        let nothing = ClaimPenalty {
            technical_foul: false,
            deduct_ms: 0,
            ..p
        };
        assert_eq!(label(en, Some(nothing)), "play on, no penalty");
        // The terminal's words (proto::effect_en) are the console's English.
        let sides = [None, Some(Side::Red), Some(Side::Black)];
        for v in [
            Verdict::Continue,
            Verdict::Order,
            Verdict::Draw,
            Verdict::Loss { side: Side::Red },
            Verdict::CorrectMove { side: Side::Black },
        ] {
            for m in sides {
                let m = if matches!(v, Verdict::Continue | Verdict::Order) {
                    m
                } else {
                    None
                };
                for pen in [None, Some(p), Some(time_only), Some(nothing)] {
                    assert_eq!(
                        ruling_label(en, v, m, pen),
                        proto::effect_en(v, m, pen),
                        "{v:?} {m:?} {pen:?}"
                    );
                }
            }
        }
    }

    /// Every field of [`Strings`] is a message of all four catalogues,
    /// read as written there (not the id shown for a missing message).
    #[test]
    fn every_word_is_in_all_four_catalogues() {
        let c = ::i18n::Catalogue::get();
        for lang in Lang::ALL {
            for field in Strings::FIELDS {
                let id = field_id(field);
                assert!(c.has(lang, &id), "{id} is not in {lang}");
            }
            assert!(c.has(lang, "console-pen-off"), "{lang}");
            assert_eq!(lang.s().lang, lang);
        }
        assert_eq!(Lang::En.s().title, "caipan referee console");
        assert_eq!(Lang::ZhHant.s().chief, "裁判長");
        assert_eq!(Lang::Vi.s().claims, "Khiếu nại");
        assert_eq!(word(Lang::ZhHans, "console-hint-quit"), "退出");
    }

    #[test]
    fn pick_reads_chinese_in_both_scripts_and_english_otherwise() {
        assert_eq!(Lang::ZhHans.pick("长将", "perpetual check"), "长将");
        assert_eq!(Lang::ZhHant.pick("长将", "perpetual check"), "长将");
        assert_eq!(Lang::Vi.pick("长将", "perpetual check"), "perpetual check");
        assert_eq!(Lang::En.pick("长将", ""), "长将");
        assert_eq!(Lang::ZhHans.pick("", "x"), "x");
    }
}
