//! The catalogue test (目录检查): every message id is in all four
//! catalogues with the same arguments; every id the code uses exists
//! (the vocabularies of `i18n::ids` and every `Message::new("…")`
//! literal in the workspace's sources); the translations are real — vi
//! and zh-Hant differ from en and zh-Hans except an allow-list — and each
//! Chinese catalogue keeps to its script: zh-Hant holds no Simplified-only
//! character and zh-Hans no Traditional-only one, by OpenCC's character
//! tables (crates/i18n/opencc/).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use i18n::catalogue::sources;
use i18n::{ids, Catalogue, Lang};

/// One parsed catalogue: id -> (variables used, literal text).
type Parsed = BTreeMap<String, (BTreeSet<String>, String)>;

fn parse(lang: Lang) -> Parsed {
    let mut out = Parsed::new();
    for text in sources(lang) {
        parse_into(lang, text, &mut out);
    }
    out
}

/// One Fluent source of `lang` added to `out` (an id defined twice, in
/// one file or across the language's files, fails).
fn parse_into(lang: Lang, text: &'static str, out: &mut Parsed) {
    let res = match fluent_syntax::parser::parse(text) {
        Ok(r) => r,
        Err((_, errors)) => panic!("{lang}: the catalogue does not parse: {errors:?}"),
    };
    for entry in res.body {
        match entry {
            Entry::Message(m) => {
                let mut vars = BTreeSet::new();
                let mut text = String::new();
                let value = m
                    .value
                    .unwrap_or_else(|| panic!("{lang}: {} has no value", m.id.name));
                walk(&value, &mut vars, &mut text);
                assert!(
                    m.attributes.is_empty(),
                    "{lang}: {} has attributes (not used by caipan)",
                    m.id.name
                );
                let dup = out.insert(m.id.name.to_string(), (vars, text));
                assert!(dup.is_none(), "{lang}: {} is defined twice", m.id.name);
            }
            Entry::Term(t) => panic!("{lang}: term -{} (caipan uses messages only)", t.id.name),
            Entry::Junk { content } => panic!("{lang}: junk in the catalogue: {content}"),
            _ => {}
        }
    }
}

fn walk(p: &Pattern<&str>, vars: &mut BTreeSet<String>, text: &mut String) {
    for e in &p.elements {
        match e {
            PatternElement::TextElement { value } => text.push_str(value),
            PatternElement::Placeable { expression } => expr(expression, vars, text),
        }
    }
}

fn expr(e: &Expression<&str>, vars: &mut BTreeSet<String>, text: &mut String) {
    match e {
        Expression::Select { selector, variants } => {
            inline(selector, vars, text);
            for v in variants {
                text.push('|');
                walk(&v.value, vars, text);
            }
        }
        Expression::Inline(i) => inline(i, vars, text),
    }
}

fn inline(i: &InlineExpression<&str>, vars: &mut BTreeSet<String>, text: &mut String) {
    match i {
        InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_string());
        }
        InlineExpression::StringLiteral { value } => text.push_str(value),
        InlineExpression::Placeable { expression } => expr(expression, vars, text),
        // NUMBER($count, type: "ordinal") (English ordinals, the rulings).
        InlineExpression::FunctionReference { id, arguments } if id.name == "NUMBER" => {
            for a in &arguments.positional {
                inline(a, vars, text);
            }
        }
        other => panic!("unsupported Fluent expression in a catalogue: {other:?}"),
    }
}

fn all() -> Vec<(Lang, Parsed)> {
    Lang::ALL.iter().map(|&l| (l, parse(l))).collect()
}

#[test]
fn every_id_is_in_all_four_catalogues_with_the_same_arguments() {
    let cats = all();
    let (_, reference) = &cats[0];
    assert!(reference.len() >= 64, "{} messages", reference.len());
    for (lang, cat) in &cats[1..] {
        let a: BTreeSet<&String> = reference.keys().collect();
        let b: BTreeSet<&String> = cat.keys().collect();
        assert_eq!(
            a.difference(&b).collect::<Vec<_>>(),
            Vec::<&&String>::new(),
            "ids of zh-Hans missing in {lang}"
        );
        assert_eq!(
            b.difference(&a).collect::<Vec<_>>(),
            Vec::<&&String>::new(),
            "ids of {lang} missing in zh-Hans"
        );
        for (id, (vars, _)) in reference {
            if id == i18n::texts::PROSE {
                continue; // each catalogue shows one of its two texts (below)
            }
            assert_eq!(
                &cat[id].0, vars,
                "{id}: arguments of {lang} and zh-Hans differ"
            );
        }
    }
}

#[test]
fn every_id_the_code_uses_exists_with_the_arguments_it_gives() {
    let cats = all();
    let c = Catalogue::get();
    for (id, args) in ids::every_id()
        .into_iter()
        .chain(i18n::texts::every_text_id())
        .chain(i18n::texts::ids_of(i18n::replies::every_reply()))
    {
        for (lang, cat) in &cats {
            let (vars, _) = cat.get(&id).unwrap_or_else(|| {
                panic!("{id} is used by i18n::ids, texts or replies but not in {lang}")
            });
            let given: BTreeSet<String> = args.iter().cloned().collect();
            if id == i18n::texts::PROSE {
                // The code's own Chinese and English text: the Chinese
                // catalogues show `zh`, the others `en`.
                let shown = if lang.is_chinese() { "zh" } else { "en" };
                assert_eq!(vars, &BTreeSet::from([shown.to_string()]), "{id} in {lang}");
                assert!(vars.is_subset(&given));
                continue;
            }
            assert_eq!(
                vars, &given,
                "{id} in {lang}: arguments differ from the code's"
            );
            assert!(c.has(*lang, &id));
        }
    }
    // Every `Message::new("…")` literal in the workspace's sources.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut used = Vec::new();
    scan(&root.join("crates"), &mut used);
    scan(&root.join("tests"), &mut used);
    for (file, id) in &used {
        if file.contains("i18n/src/catalogue.rs") || file.contains("i18n/tests/catalogue.rs") {
            continue; // ids made up by tests of the unknown-id path
        }
        for (lang, cat) in &cats {
            assert!(cat.contains_key(id), "{file}: {id} is not in {lang}");
        }
    }
}

/// No crate outside i18n builds prose (`text-zh-en`, two finished
/// texts): every alert, claim, ruling and control is a catalogue message;
/// the prose message stays only to render rows stored before.
#[test]
fn no_crate_outside_i18n_builds_prose() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let i18n = root.join("crates/i18n");
    let mut found = Vec::new();
    for dir in ["crates", "tests", "src"] {
        prose_calls(&root.join(dir), Some(&i18n), &mut found);
    }
    assert!(found.is_empty(), "prose built outside i18n: {found:#?}");
    // The scan does see a call: i18n's own (its sample for this test).
    let mut here = Vec::new();
    prose_calls(&i18n.join("src"), None, &mut here);
    assert!(
        here.iter().any(|f| f.contains("texts.rs")),
        "the scan finds i18n's own prose(): {here:?}"
    );
}

/// Lines of Rust sources under `dir` (comments aside, `skip` left out)
/// that call `prose(`: as `texts::prose(`, or imported and called bare.
fn prose_calls(dir: &Path, skip: Option<&Path>, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            let skipped = skip.is_some_and(|s| same_dir(&p, s));
            if !skipped && !p.ends_with("target") {
                prose_calls(&p, skip, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            for (n, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                let calls = code.match_indices("prose(").any(|(i, _)| {
                    // `prose(` as a name of its own, not `…_prose(`.
                    !code[..i]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                if calls {
                    out.push(format!("{}:{}: {}", p.display(), n + 1, code));
                }
            }
        }
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `Message::new("id")` and `Explanation::new("id")` literals under `dir`
/// (Rust sources).
fn scan(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if !p.ends_with("target") {
                scan(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            // Wire messages, and the rulebook's explanations (each becomes
            // a message of the same id, `proto::convert::explanation`).
            for lead in ["Message::new(\"", "Explanation::new(\""] {
                for (i, _) in text.match_indices(lead) {
                    let rest = &text[i + lead.len()..];
                    if let Some(end) = rest.find('"') {
                        out.push((p.display().to_string(), rest[..end].to_string()));
                    }
                }
            }
        }
    }
}

/// Messages whose zh-Hant text is rightly the same as zh-Hans (words
/// written alike in both scripts), or whose vi text is the same as en.
const SAME_ZH: &[&str] = &[
    "round-deputy-tables",         // 副裁判…：第…台, the same words in both
    "side-black",                  // 黑方 in both
    "piece-advisor",               // 仕/士 in both
    "piece-elephant",              // 相/象 in both
    "piece-soldier",               // 兵/卒 in both
    "alert-kind-refused-commands", // 指令被拒
    "alert-kind-move-limit",       // 限著 (the ROC term, in both)
    "claim-kind-repetition",       // 棋例
    "claim-kind-draw-offer",       // 提和
    "claim-kind-move-limit",       // 限著
    "end-reason-arbiter",          // 裁判判定
    "end-reason-move-limit",       // 限著
    "verdict-draw",                // 判和
    "term-protected-piece",        // 有根子
    "text-zh-en",                  // the code's own two texts, as written
    "alert-at-table",              // 第3台… (the text nested)
    "result-draw",                 // 和棋
    "illegal-not-your-piece",      // 走了非行棋方的棋子
    "illegal-own-piece",           // 吃了己方的棋子
    "loss-seconds",                // …秒
    "game-end",                    // result, end reason (issue 33's end words)
    "game-end-reason",             // result, end reason (words)
    "claim-effect-sep",            // ", " between a ruling's effects
    // The rulings (locales/rulings): separators, empty parts and
    // sentence frames made only of arguments and marks.
    "ruling-none",
    "ruling-sep-pieces",
    "ruling-sep-notes",
    "ruling-sep-reasons",
    "ruling-piece-at",
    "ruling-judgement",
    "ruling-whole-cited",
    "ruling-order",
    "ruling-chase",                      // （…捉…）
    "ruling-side",                       // side, pattern, parts
    "pattern-chase-and-material-threat", // 一捉一要抽吃 (written alike)
    "limit-one-side",                    // the side alone
    "roc-limit-book-draw",               // ，例和
    "roc-limit-verdict",                 // the counts, the outcome
];
const SAME_VI: &[&str] = &[
    "reply-link-words", // the transport's own words, as its crates give them
    "why-words",        // a database's or the system's own error text
    "text-zh-en",       // the code's own two texts, as written (en in vi)
    "claim-effect-sep", // ", " between a ruling's effects
    // The rulings' separators, empty parts and frames of marks.
    "ruling-none",
    "ruling-sep-pieces",
    "ruling-sep-notes",
    "ruling-sep-reasons",
    "ruling-judgement",
    "ruling-side",       // side: pattern, parts
    "limit-one-side",    // the side alone
    "roc-limit-verdict", // the counts, the outcome
];

/// The screens' words (locales/ui) written alike in both scripts: each
/// is made only of characters OpenCC leaves as they are (裁判台, 黑方,
/// 封棋, 限著, 回合, 和棋, 改判, 越南, …; the script test below checks
/// that no Simplified-only character hides among them).
const SAME_ZH_UI: &[&str] = &[
    "console-title",
    "console-entry-name", // 姓名, one word in both scripts
    "console-deputy",
    "console-detail",
    "console-table",
    "console-table-short",
    "console-black",
    "console-black-short",
    "console-to-move",
    "console-moves",
    "console-no-capture",
    "console-sealed",
    "console-sort",
    "console-overridden",
    "console-reason",
    "console-yes-no",
    "console-river-chu",
    "console-draw",
    "console-notation-chinese",
    "console-notation-wxf",
    "console-ago",
    "console-none",
    "console-moves-long",
    "console-pending-word",
    "console-lapsed-word",
    "console-done",
    "console-act-seal",
    "console-act-override",
    "console-prompt-reason",
    "console-waives",
    "console-ordered-word",
    "console-move-limit",
    "console-act-move-limit",
    "console-ml-black-arbiter",
    "console-ml-black-book",
    "console-ml-cancel",
    "console-ml-limited",
    "console-ml-short",
    "console-scope-everywhere",
    "console-hint-sort",
    "console-hint-override",
    "console-hint-seal",
    "console-round-boards",
    "console-notation-vietnamese",
    "demo-tables",
];
/// The replies (locales/replies) written alike in both scripts (呼叫裁判,
/// 同意和棋, 提和, 改判, 封棋, 不能: characters OpenCC leaves as they are;
/// refusal-no-order is the table and the rulebook's words).
const SAME_ZH_REPLIES: &[&str] = &[
    "why-field-name",   // 姓名 in both scripts
    "why-field-reason", // 理由 in both scripts
    "reply-link-words", // the transport's own words, as its crates give them
    "why-words",        // a database's or the system's own error text
    "action-call-arbiter",
    "action-draw-accept",
    "action-draw-offer",
    "action-override-ruling",
    "action-seal",
    "refusal-is-sealed",
    "refusal-no-order",
    "refusal-not-sealed",
    "role-deputy-cannot",
    "control-move-limit-cancelled", // 取消限著
    "control-sealed",               // 封棋
];

/// The exports' words (locales/export) written alike in both scripts:
/// column heads and marks made only of characters OpenCC leaves as they
/// are (原因, 回合, 名次, 姓名, 和, 交叉表, 黑, 黑方, 台, 局分).
const SAME_ZH_EXPORT: &[&str] = &[
    "export-col-reason",
    "export-col-moves",
    "export-col-rank",
    "export-col-player",
    "export-col-draws",
    "export-crosstable",
    "export-mark-black",
    "export-col-black",
    "export-col-name",
    "export-boards",
    "export-col-board-points", // 局分
];

/// The audit rows (locales/audit) written alike in both scripts: 取消限著
/// (限著 is the ROC word in both), and frames made only of marks and
/// characters OpenCC leaves as they are (；，理由：).
const SAME_ZH_AUDIT: &[&str] = &["audit-cancel-move-limit", "audit-round-change", "audit-sep"];

/// The audit rows that are marks in Vietnamese as in English.
const SAME_VI_AUDIT: &[&str] = &["audit-sep"];

/// The screens' words that are codes or marks in every language.
const SAME_VI_UI: &[&str] = &[
    "console-river-chu",    // 楚 河, on the board in every language
    "console-river-han",    // 漢 界 (汉 界 in zh-Hans)
    "console-notation-wxf", // WXF
    "console-none",         // —
];

#[test]
fn the_translations_are_real() {
    let cats: HashMap<Lang, Parsed> = all().into_iter().collect();
    for (lang, base, allowed) in [
        (
            Lang::ZhHant,
            Lang::ZhHans,
            [
                SAME_ZH,
                SAME_ZH_UI,
                SAME_ZH_REPLIES,
                SAME_ZH_EXPORT,
                SAME_ZH_AUDIT,
            ]
            .concat(),
        ),
        (
            Lang::Vi,
            Lang::En,
            [SAME_VI, SAME_VI_UI, SAME_VI_AUDIT].concat(),
        ),
    ] {
        let mut same = Vec::new();
        for (id, (_, text)) in &cats[&lang] {
            if *text == cats[&base][id].1 && !allowed.contains(&id.as_str()) {
                same.push(format!("{id} = {text}"));
            }
        }
        assert!(
            same.is_empty(),
            "{lang} repeats {base} word for word: {same:#?}"
        );
        for id in &allowed {
            assert!(
                cats[&lang].contains_key(*id),
                "allow-list names no message {id}"
            );
        }
    }
}

/// The characters an OpenCC character table maps only to other
/// characters (column 1 -> columns 2.. without itself).
fn one_way(table: &str) -> BTreeSet<char> {
    let mut out = BTreeSet::new();
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split(['\t', ' ']).filter(|c| !c.is_empty());
        let Some(from) = cols.next() else { continue };
        let targets: Vec<&str> = cols.collect();
        let mut chars = from.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            if !targets.contains(&from) {
                out.insert(c);
            }
        }
    }
    out
}

#[test]
fn each_chinese_catalogue_keeps_to_its_script() {
    let simplified_only = one_way(include_str!("../opencc/STCharacters.txt"));
    let traditional_only = one_way(include_str!("../opencc/TSCharacters.txt"));
    assert!(simplified_only.contains(&'将') && traditional_only.contains(&'將'));
    assert!(!simplified_only.contains(&'台') && !traditional_only.contains(&'著'));
    for (lang, forbidden, what) in [
        (Lang::ZhHant, &simplified_only, "Simplified-only"),
        (Lang::ZhHans, &traditional_only, "Traditional-only"),
    ] {
        let mut bad = Vec::new();
        for (id, (_, text)) in parse(lang) {
            let found: String = text.chars().filter(|c| forbidden.contains(c)).collect();
            if !found.is_empty() {
                bad.push(format!("{id}: {found}"));
            }
        }
        // The comments of the file too (the catalogue is read by people).
        let found: String = sources(lang)
            .concat()
            .chars()
            .filter(|c| forbidden.contains(c))
            .collect();
        assert!(bad.is_empty(), "{lang} holds {what} characters: {bad:?}");
        assert!(
            found.is_empty(),
            "{lang}'s file holds {what} characters: {found}"
        );
    }
}
