//! The headless demo's closing summary (总结): games finished, results by
//! reason, alerts and claims raised — all read from the server's hall view
//! at the end (what the arbiters would have seen), next to what each
//! replayed terminal reported.
//!
//! With `--auto-rule` a "rulings" section lists, per table, every claim
//! the chief ruled ([`super::rulings`]).
//!
//! One line per table ends with the final position's FEN as the server
//! holds it, in a fixed form that scripts (and tests/demo.rs) read:
//! `table  3 | 1-0 | checkmate | 87 plies | FEN <fen>`; when a ruling ended
//! the game the reason carries the rule ids it cited:
//! `table  1 | 0-1 | perpetual check (AXF-G3, AXF-D1) | 60 plies | FEN <fen>`.
//!
//! The summary speaks the demo's language (`--lang`, else the locale;
//! messages `demo-*` of the catalogues' screens): the fixed form keeps its
//! `table`, `|`, `plies` and `FEN` in every language, the reason is in
//! the language. In English the words are those above, alert kinds with
//! their Chinese term.

use proto::{HallView, Side, TableStatus, Verdict};
use std::collections::BTreeMap;
use std::fmt::Write;
use table::replay::ReplayReport;

use i18n::Lang;
use proto::{AlertKind, ClaimKind, EndReason, Message};

use super::names::{alert_name, claim_name, result_text};
use super::rulings;

/// The demo message `id` in `lang` with its arguments as given (numbers
/// already written, so no locale grouping creeps in).
fn say(lang: Lang, id: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let m = args.iter().fold(Message::new(id), |m, (name, v)| {
        m.verbatim(name, v.to_string())
    });
    i18n::render(lang, &m)
}

/// An end reason in `lang` (English: the wire's word, `checkmate`).
fn reason_word(lang: Lang, why: EndReason) -> String {
    i18n::term(lang, i18n::ids::end_reason(why))
}

/// An alert kind: English with its Chinese term, else the catalogue's.
fn alert_word(lang: Lang, k: AlertKind) -> String {
    match lang {
        Lang::En => alert_name(k).to_string(),
        _ => i18n::term(lang, i18n::ids::alert_kind(k)),
    }
}

/// A claim kind: the summary's English, else the catalogue's.
fn claim_word(lang: Lang, k: ClaimKind) -> String {
    match lang {
        Lang::En => claim_name(k).to_string(),
        _ => i18n::term(lang, i18n::ids::claim_kind(k)),
    }
}

/// A recommended ruling: the summary's English, else the console's words.
fn verdict_word(lang: Lang, v: Verdict, must_change: Option<Side>) -> String {
    match lang {
        Lang::En => verdict_text(v, must_change),
        _ => console::i18n::verdict_label(console::i18n::Words::s(lang), v, must_change),
    }
}

fn verdict_text(v: Verdict, must_change: Option<Side>) -> String {
    match v {
        Verdict::Order => match must_change {
            Some(s) => format!("order: {} must change", s.name_en()),
            None => "announce: one more cycle is a draw".into(),
        },
        Verdict::Continue => "play on".into(),
        Verdict::Draw => "draw".into(),
        Verdict::Loss { side } => format!("{} loses", side.name_en()),
        Verdict::CorrectMove { side } => format!("{} corrects the move", side.name_en()),
    }
}

/// Tables of the view whose game is over.
pub fn finished(view: &HallView) -> usize {
    view.tables
        .iter()
        .filter(|t| matches!(t.status, TableStatus::Finished { .. }))
        .count()
}

/// The results by reason and the results (`1-0 ×2`).
fn results(s: &mut String, view: &HallView, lang: Lang) {
    let mut by_reason: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_result: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &view.tables {
        if let TableStatus::Finished { result, why, .. } = &t.status {
            *by_reason.entry(reason_word(lang, *why)).or_default() += 1;
            *by_result.entry(result_text(*result)).or_default() += 1;
        }
    }
    let _ = writeln!(s, "{}", say(lang, "demo-results-by-reason", &[]));
    for (reason, n) in &by_reason {
        let pad = 18usize.saturating_sub(console::width::width(reason));
        let _ = writeln!(s, "  {reason}{} {n:>3}", " ".repeat(pad));
    }
    let results: Vec<String> = by_result.iter().map(|(r, n)| format!("{r} ×{n}")).collect();
    let results = results.join(", ");
    let _ = writeln!(s, "{}", say(lang, "demo-results", &[("results", &results)]));
}

/// The alerts raised by kind, and each claim with its recommendation.
fn alerts_and_claims(s: &mut String, view: &HallView, lang: Lang) {
    let mut alerts: BTreeMap<String, usize> = BTreeMap::new();
    for a in &view.alerts {
        *alerts.entry(alert_word(lang, a.kind)).or_default() += 1;
    }
    let count = view.alerts.len();
    let _ = writeln!(
        s,
        "{}",
        say(lang, "demo-alerts-raised", &[("count", &count)])
    );
    for (kind, n) in &alerts {
        let pad = 36usize.saturating_sub(console::width::width(kind));
        let _ = writeln!(s, "  {kind}{} {n:>3}", " ".repeat(pad));
    }
    let count = view.claims.len();
    let _ = writeln!(s, "{}", say(lang, "demo-claims", &[("count", &count)]));
    for c in &view.claims {
        let line = say(
            lang,
            "demo-claim-line",
            &[
                ("table", &format!("{:>2}", c.table)),
                ("claim", &claim_word(lang, c.kind)),
                (
                    "verdict",
                    &verdict_word(lang, c.recommended.verdict, c.recommended.must_change),
                ),
                ("rules", &c.recommended.rule_ids.join(", ")),
            ],
        );
        let _ = writeln!(s, "  {line}");
    }
}

/// The summary text in `lang`.
pub fn render(view: &HallView, report: &ReplayReport, speed: f64, lang: Lang) -> String {
    let mut s = String::new();
    let total = view.tables.len();
    let seconds = format!("{:.1}", report.elapsed.as_secs_f64());
    let head = say(
        lang,
        "demo-summary-head",
        &[
            ("round", &view.round),
            ("tournament", &view.tournament),
            ("tables", &total),
            ("speed", &speed),
            ("seconds", &seconds),
        ],
    );
    let _ = writeln!(s, "{head}");
    let finished_line = say(
        lang,
        "demo-games-finished",
        &[("finished", &finished(view)), ("total", &total)],
    );
    let _ = writeln!(s, "{finished_line}");

    results(&mut s, view, lang);
    alerts_and_claims(&mut s, view, lang);
    s.push_str(&rulings::render(view));

    let _ = writeln!(s, "{}", say(lang, "demo-tables", &[]));
    for t in &view.tables {
        let (result, reason) = match &t.status {
            TableStatus::Finished { result, why, .. } => (
                result_text(*result),
                rulings::reason(view, t.table, &reason_word(lang, *why)),
            ),
            _ => ("*", say(lang, "demo-not-finished", &[])),
        };
        let _ = writeln!(
            s,
            "table {:>2} | {result} | {reason} | {} plies | FEN {}",
            t.table, t.plies, t.fen
        );
    }
    let problems: Vec<String> = report
        .tables
        .iter()
        .filter(|t| !t.errors.is_empty() || !t.all_acked || t.result.is_none())
        .map(|t| {
            format!(
                "  table {}: {}{}{}",
                t.table,
                if t.result.is_none() {
                    "not finished; "
                } else {
                    ""
                },
                if t.all_acked {
                    ""
                } else {
                    "events not all acknowledged; "
                },
                t.errors.join("; ")
            )
        })
        .collect();
    if !problems.is_empty() {
        let _ = writeln!(s, "{}", say(lang, "demo-terminal-problems", &[]));
        for p in problems {
            let _ = writeln!(s, "{p}");
        }
    }
    s
}
