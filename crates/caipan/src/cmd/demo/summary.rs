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

use proto::{HallView, Side, TableStatus, Verdict};
use std::collections::BTreeMap;
use std::fmt::Write;
use table::replay::ReplayReport;

use super::names::{alert_name, claim_name, result_text};
use super::rulings;

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

/// The summary text.
pub fn render(view: &HallView, report: &ReplayReport, speed: f64) -> String {
    let mut s = String::new();
    let total = view.tables.len();
    let _ = writeln!(
        s,
        "caipan demo: round {} of {} — {} tables at {speed}x, played in {:.1} s",
        view.round,
        view.tournament,
        total,
        report.elapsed.as_secs_f64()
    );
    let _ = writeln!(s, "games finished: {} of {total}", finished(view));

    let mut by_reason: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_result: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &view.tables {
        if let TableStatus::Finished { result, why, .. } = &t.status {
            *by_reason.entry(why.as_str()).or_default() += 1;
            *by_result.entry(result_text(*result)).or_default() += 1;
        }
    }
    let _ = writeln!(s, "results by reason:");
    for (reason, n) in &by_reason {
        let _ = writeln!(s, "  {reason:<18} {n:>3}");
    }
    let results: Vec<String> = by_result.iter().map(|(r, n)| format!("{r} ×{n}")).collect();
    let _ = writeln!(s, "results: {}", results.join(", "));

    let mut alerts: BTreeMap<&str, usize> = BTreeMap::new();
    for a in &view.alerts {
        *alerts.entry(alert_name(a.kind)).or_default() += 1;
    }
    let _ = writeln!(s, "alerts raised: {}", view.alerts.len());
    for (kind, n) in &alerts {
        let _ = writeln!(s, "  {kind:<36} {n:>3}");
    }
    let _ = writeln!(s, "claims: {}", view.claims.len());
    for c in &view.claims {
        let _ = writeln!(
            s,
            "  table {:>2} {} — recommended: {} ({})",
            c.table,
            claim_name(c.kind),
            verdict_text(c.recommended.verdict, c.recommended.must_change),
            c.recommended.rule_ids.join(", ")
        );
    }

    s.push_str(&rulings::render(view));

    let _ = writeln!(s, "tables:");
    for t in &view.tables {
        let (result, reason) = match &t.status {
            TableStatus::Finished { result, why, .. } => (
                result_text(*result),
                rulings::reason(view, t.table, why.as_str()),
            ),
            _ => ("*", "not finished".to_string()),
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
        let _ = writeln!(s, "terminal problems:");
        for p in problems {
            let _ = writeln!(s, "{p}");
        }
    }
    s
}
