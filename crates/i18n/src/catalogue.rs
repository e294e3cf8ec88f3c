//! The embedded catalogues (消息目录) and the renderer: one Fluent
//! resource per language (`locales/*.ftl`, compiled into the binary),
//! parsed once, with Unicode isolation marks off.
//!
//! [`render`] turns a wire [`Message`] into text in one language: each
//! typed argument is rendered in that language first (a side as 红方 /
//! 紅方 / Red / Đỏ, a piece in the language's glyphs, a duration as m:ss,
//! rule ids as a list, a nested message recursively), then the message's
//! pattern is formatted. A message from a peer cannot make it fail: an
//! unknown id renders as the id with its arguments, control characters
//! in verbatim text become U+FFFD, nesting stops at [`proto::MAX_DEPTH`].

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use proto::{Arg, Message, Side};
use rulebook::{clock_text, ClockForm};

use crate::ids;
use crate::lang::Lang;

/// The Fluent source of each language, as embedded.
pub fn source(lang: Lang) -> &'static str {
    match lang {
        Lang::ZhHans => include_str!("../locales/zh-Hans.ftl"),
        Lang::ZhHant => include_str!("../locales/zh-Hant.ftl"),
        Lang::En => include_str!("../locales/en.ftl"),
        Lang::Vi => include_str!("../locales/vi.ftl"),
    }
}

/// The Fluent source of each language's screens (`locales/ui/*.ftl`):
/// the console's and the terminal's own words, apart from the hall's
/// messages so the two grow without touching each other.
pub fn ui_source(lang: Lang) -> &'static str {
    match lang {
        Lang::ZhHans => include_str!("../locales/ui/zh-Hans.ftl"),
        Lang::ZhHant => include_str!("../locales/ui/zh-Hant.ftl"),
        Lang::En => include_str!("../locales/ui/en.ftl"),
        Lang::Vi => include_str!("../locales/ui/vi.ftl"),
    }
}

/// The Fluent source of each language's rulings (`locales/rulings/*.ftl`):
/// the rulebook's explanations (`rulebook::explain`), sentence by sentence
/// with their facts.
pub fn rulings_source(lang: Lang) -> &'static str {
    match lang {
        Lang::ZhHans => include_str!("../locales/rulings/zh-Hans.ftl"),
        Lang::ZhHant => include_str!("../locales/rulings/zh-Hant.ftl"),
        Lang::En => include_str!("../locales/rulings/en.ftl"),
        Lang::Vi => include_str!("../locales/rulings/vi.ftl"),
    }
}

/// The Fluent source of each language's replies (`locales/replies/*.ftl`):
/// why a request was refused (the wire's `ErrorReply`, protocol 8), the
/// error codes, the actions the roles table names.
pub fn replies_source(lang: Lang) -> &'static str {
    match lang {
        Lang::ZhHans => include_str!("../locales/replies/zh-Hans.ftl"),
        Lang::ZhHant => include_str!("../locales/replies/zh-Hant.ftl"),
        Lang::En => include_str!("../locales/replies/en.ftl"),
        Lang::Vi => include_str!("../locales/replies/vi.ftl"),
    }
}

/// The Fluent source of each language's command line (`locales/cli/*.ftl`):
/// what `caipan check` and `caipan serve` tell a user — the hall config's
/// typed problems (`config-*`) and the commands' own lines.
pub fn cli_source(lang: Lang) -> &'static str {
    match lang {
        Lang::ZhHans => include_str!("../locales/cli/zh-Hans.ftl"),
        Lang::ZhHant => include_str!("../locales/cli/zh-Hant.ftl"),
        Lang::En => include_str!("../locales/cli/en.ftl"),
        Lang::Vi => include_str!("../locales/cli/vi.ftl"),
    }
}

/// The Fluent source of each language's export words
/// (`locales/export/*.ftl`): the HTML pages' headings and column heads
/// when an export has a language (`export-*`).
pub fn export_source(lang: Lang) -> &'static str {
    match lang {
        Lang::ZhHans => include_str!("../locales/export/zh-Hans.ftl"),
        Lang::ZhHant => include_str!("../locales/export/zh-Hant.ftl"),
        Lang::En => include_str!("../locales/export/en.ftl"),
        Lang::Vi => include_str!("../locales/export/vi.ftl"),
    }
}

/// The Fluent source of each language's audit rows
/// (`locales/audit/*.ftl`): what a command did, typed (`audit-*`, one id
/// per command kind and per row the hall or the server writes itself;
/// the English is the audit trail's English as stored before, byte for
/// byte).
pub fn audit_source(lang: Lang) -> &'static str {
    match lang {
        Lang::ZhHans => include_str!("../locales/audit/zh-Hans.ftl"),
        Lang::ZhHant => include_str!("../locales/audit/zh-Hant.ftl"),
        Lang::En => include_str!("../locales/audit/en.ftl"),
        Lang::Vi => include_str!("../locales/audit/vi.ftl"),
    }
}

/// Every Fluent source of a language: the hall's messages, the screens'
/// words, the rulings, the replies, the command line, the exports, the
/// audit rows (one bundle; an id is defined in one of them only).
pub fn sources(lang: Lang) -> [&'static str; 7] {
    [
        source(lang),
        ui_source(lang),
        rulings_source(lang),
        replies_source(lang),
        cli_source(lang),
        export_source(lang),
        audit_source(lang),
    ]
}

/// The four parsed catalogues.
pub struct Catalogue {
    bundles: Vec<(Lang, FluentBundle<FluentResource>)>,
}

static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(Catalogue::load);

impl Catalogue {
    /// The embedded catalogues, parsed once.
    pub fn get() -> &'static Catalogue {
        &CATALOGUE
    }

    /// Parses the embedded sources. They are part of the binary and the
    /// catalogue test parses each one without error, so a parse error
    /// here is a build that was never tested: the entries that did parse
    /// are kept (Fluent recovers per entry) and the rest render as ids.
    fn load() -> Catalogue {
        let bundles = Lang::ALL
            .iter()
            .map(|&lang| {
                let id = unic_langid::LanguageIdentifier::from_bytes(lang.tag().as_bytes())
                    .unwrap_or_default();
                let mut bundle = FluentBundle::new_concurrent(vec![id]);
                bundle.set_use_isolating(false);
                // NUMBER(…, type: "ordinal"): English ordinals (3rd).
                let _ = bundle.add_builtins();
                for text in sources(lang) {
                    let resource = match FluentResource::try_new(text.to_string()) {
                        Ok(r) => r,
                        Err((partial, _)) => partial,
                    };
                    // Ids are unique across a language's files (the
                    // catalogue test checks it), so adding cannot clash.
                    let _ = bundle.add_resource(resource);
                }
                (lang, bundle)
            })
            .collect();
        Catalogue { bundles }
    }

    fn bundle(&self, lang: Lang) -> Option<&FluentBundle<FluentResource>> {
        self.bundles
            .iter()
            .find(|(l, _)| *l == lang)
            .map(|(_, b)| b)
    }

    /// Whether `id` is a message of `lang`'s catalogue.
    pub fn has(&self, lang: Lang, id: &str) -> bool {
        self.bundle(lang).is_some_and(|b| b.has_message(id))
    }

    /// `message` in `lang`.
    pub fn render(&self, lang: Lang, message: &Message) -> String {
        self.render_at(lang, message, 0)
    }

    fn render_at(&self, lang: Lang, message: &Message, depth: usize) -> String {
        if depth > proto::MAX_DEPTH {
            return "…".into();
        }
        if message.id == proto::convert::LIST {
            return self.render_list(lang, message, depth);
        }
        let mut args = FluentArgs::new();
        for (name, arg) in &message.args {
            args.set(name.clone(), self.value(lang, arg, depth));
        }
        self.format(lang, &message.id, &args)
            .unwrap_or_else(|| unknown(message, &args))
    }

    /// A [`proto::convert::LIST`]: its items joined by its separator.
    fn render_list(&self, lang: Lang, message: &Message, depth: usize) -> String {
        let mut sep = String::new();
        let mut items = Vec::new();
        for (name, arg) in &message.args {
            // A list holds messages only (anything else from a peer is
            // left out).
            let Arg::Message(m) = arg else { continue };
            let text = self.render_at(lang, m, depth + 1);
            if name == "sep" {
                sep = text;
            } else {
                items.push(text);
            }
        }
        items.join(&sep)
    }

    /// The pattern of `id` formatted with `args`, or `None` when `lang`
    /// has no such message.
    fn format(&self, lang: Lang, id: &str, args: &FluentArgs) -> Option<String> {
        let bundle = self.bundle(lang)?;
        let pattern = bundle.get_message(id)?.value()?;
        let mut errors = Vec::new();
        Some(
            bundle
                .format_pattern(pattern, Some(args), &mut errors)
                .into_owned(),
        )
    }

    /// One argument rendered in `lang` as a Fluent value.
    fn value(&self, lang: Lang, arg: &Arg, depth: usize) -> FluentValue<'static> {
        match arg {
            Arg::Int(n) => FluentValue::from(*n),
            Arg::Side(s) => self
                .render_at(lang, &Message::new(ids::side(*s)), depth + 1)
                .into(),
            Arg::Piece { side, kind } => self
                .render_at(
                    lang,
                    &Message::new(ids::piece(*kind)).verbatim("side", side_key(*side)),
                    depth + 1,
                )
                .into(),
            Arg::DurationMs(ms) => clock_text(*ms, ClockForm::Short).into(),
            Arg::Rules(rules) => rules
                .iter()
                .map(|r| clean(r))
                .collect::<Vec<_>>()
                .join(", ")
                .into(),
            Arg::Verbatim(text) => clean(text).into(),
            Arg::Message(m) => self.render_at(lang, m, depth + 1).into(),
        }
    }
}

/// `message` in `lang` (the embedded catalogues).
pub fn render(lang: Lang, message: &Message) -> String {
    Catalogue::get().render(lang, message)
}

/// The message `id` without arguments in `lang` (a term: 长将, chiếu mãi).
pub fn term(lang: Lang, id: &str) -> String {
    render(lang, &Message::new(id))
}

/// The selector key of a side in the catalogues (`red`, `black`).
fn side_key(side: Side) -> &'static str {
    match side {
        Side::Red => "red",
        Side::Black => "black",
    }
}

/// Peer text with control characters replaced (they would move a
/// terminal's cursor or forge log lines).
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect()
}

/// A message no catalogue knows: its id and arguments, as they came.
fn unknown(message: &Message, args: &FluentArgs) -> String {
    let mut out = clean(&message.id);
    if !message.args.is_empty() {
        let shown: Vec<String> = args
            .iter()
            .map(|(name, value)| {
                let v = match value {
                    FluentValue::String(s) => s.to_string(),
                    FluentValue::Number(n) => n.as_string().to_string(),
                    _ => String::new(),
                };
                format!("{}={}", clean(name), v)
            })
            .collect();
        out.push('(');
        out.push_str(&shown.join(", "));
        out.push(')');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proto::{EndReason, PieceKind, Verdict};

    #[test]
    fn typed_arguments_render_in_each_language() {
        let m = ids::verdict(Verdict::Loss { side: Side::Red });
        assert_eq!(render(Lang::ZhHans, &m), "红方负");
        assert_eq!(render(Lang::ZhHant, &m), "紅方負");
        assert_eq!(render(Lang::En, &m), "Red loses");
        assert_eq!(render(Lang::Vi, &m), "Đỏ thua");
        let rook = Message::new("x").arg(
            "p",
            Arg::Piece {
                side: Side::Red,
                kind: PieceKind::Chariot,
            },
        );
        let c = Catalogue::get();
        assert_eq!(
            c.value(Lang::ZhHant, &rook.args[0].1, 0),
            FluentValue::from("俥")
        );
        assert_eq!(
            c.value(Lang::ZhHans, &rook.args[0].1, 0),
            FluentValue::from("车")
        );
        assert_eq!(
            c.value(Lang::Vi, &rook.args[0].1, 0),
            FluentValue::from("Xe")
        );
        assert_eq!(
            term(Lang::ZhHant, ids::end_reason(EndReason::PerpetualCheck)),
            "長將"
        );
    }

    #[test]
    fn no_isolation_marks_and_hostile_messages_render_without_failing() {
        let m = ids::verdict(Verdict::CorrectMove { side: Side::Black });
        for lang in Lang::ALL {
            let text = render(lang, &m);
            assert!(!text.contains(['\u{2068}', '\u{2069}']), "{lang}: {text:?}");
        }
        // An unknown id, a control character, deep nesting.
        let mut deep = Message::new("verdict-draw");
        for _ in 0..100 {
            deep = Message::new("nope").arg("m", Arg::Message(Box::new(deep)));
        }
        let text = render(Lang::En, &deep);
        assert!(text.starts_with("nope(m=nope(m="), "{text}");
        assert!(text.contains('…'), "{text}");
        let evil = Message::new("bad\u{1b}[2J").verbatim("who", "x\u{7}\ny");
        assert_eq!(
            render(Lang::Vi, &evil),
            "bad\u{FFFD}[2J(who=x\u{FFFD}\u{FFFD}y)"
        );
    }
}
