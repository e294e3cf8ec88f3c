//! The arbiters' rulings in the headless demo's summary (裁决): per table,
//! every claim ruled — the order at a repetition's third occurrence, the
//! result of the second claim, a natural-limit draw, a correction, a
//! penalty — with its rule ids and the reason, read from the hall view.
//! With `--auto-rule` the demo's chief accepts every recommendation, so
//! these are the rulebook's recommendations as the hall applied them;
//! without it nobody rules and the section is left out.

use proto::{
    ClaimStatus, ClaimView, GameResult, HallView, RulingOutcome, Side, TableStatus, Verdict,
};
use std::fmt::Write;

use super::names::{claim_name, result_text};

/// The verdict a ruled claim imposed (the recommendation when accepted)
/// and the side that must change; `None` while it is not ruled.
fn imposed(c: &ClaimView) -> Option<(Verdict, Option<Side>)> {
    match &c.status {
        ClaimStatus::Ruled {
            outcome: RulingOutcome::Accepted,
            ..
        } => Some((c.recommended.verdict, c.recommended.must_change)),
        ClaimStatus::Ruled {
            outcome:
                RulingOutcome::Overridden {
                    verdict,
                    must_change,
                    ..
                },
            ..
        } => Some((*verdict, *must_change)),
        _ => None,
    }
}

fn ends_game(v: Verdict) -> bool {
    matches!(v, Verdict::Draw | Verdict::Loss { .. })
}

/// The ruled claim that ended table `t`'s game, if a ruling did.
pub fn ending(view: &HallView, t: u16) -> Option<&ClaimView> {
    let table = view.tables.iter().find(|x| x.table == t)?;
    if !matches!(table.status, TableStatus::Finished { .. }) {
        return None;
    }
    view.claims
        .iter()
        .filter(|c| c.table == t)
        .filter(|c| imposed(c).is_some_and(|(v, _)| ends_game(v)))
        .max_by_key(|c| c.id)
}

/// The reason column of a table's summary line: the typed reason, and
/// when a ruling ended the game the rule ids it cited (or "overridden").
pub fn reason(view: &HallView, t: u16, why: &str) -> String {
    match ending(view, t) {
        Some(c)
            if matches!(
                c.status,
                ClaimStatus::Ruled {
                    outcome: RulingOutcome::Accepted,
                    ..
                }
            ) =>
        {
            format!("{why} ({})", c.recommended.rule_ids.join(", "))
        }
        Some(_) => format!("{why} (overridden)"),
        None => why.to_string(),
    }
}

fn rules(c: &ClaimView, overridden: bool) -> String {
    if overridden {
        "overridden".into()
    } else {
        c.recommended.rule_ids.join(", ")
    }
}

/// One ruling in words: `order: Red must change`, `result 0-1, perpetual
/// check`, `play on`, `Red corrects the move`.
fn what(view: &HallView, c: &ClaimView, verdict: Verdict, must_change: Option<Side>) -> String {
    match verdict {
        Verdict::Order => match must_change {
            Some(s) => format!("order: {} must change", s.name_en()),
            None => "order: one more cycle is a draw".into(),
        },
        Verdict::Draw | Verdict::Loss { .. } => {
            let result = match verdict {
                Verdict::Loss { side } => GameResult::win_for(side.other()),
                _ => GameResult::Draw,
            };
            let why = ending(view, c.table)
                .filter(|e| e.id == c.id)
                .and_then(|_| view.tables.iter().find(|x| x.table == c.table))
                .and_then(|x| match &x.status {
                    TableStatus::Finished { why, .. } => Some(why.as_str()),
                    _ => None,
                });
            match why {
                Some(why) => format!("result {}, {why}", result_text(result)),
                None => format!("result {}", result_text(result)),
            }
        }
        Verdict::Continue => "play on".into(),
        Verdict::CorrectMove { side } => format!("{} corrects the move", side.name_en()),
    }
}

/// The "rulings" section: per table, in the order the claims were raised.
/// Empty when nothing was ruled.
pub fn render(view: &HallView) -> String {
    let mut ruled: Vec<&ClaimView> = view
        .claims
        .iter()
        .filter(|c| imposed(c).is_some())
        .collect();
    if ruled.is_empty() {
        return String::new();
    }
    ruled.sort_by_key(|c| (c.table, c.id));
    let mut s = String::new();
    let _ = writeln!(s, "rulings: {}", ruled.len());
    for c in ruled {
        let Some((verdict, must_change)) = imposed(c) else {
            continue;
        };
        let overridden = matches!(
            c.status,
            ClaimStatus::Ruled {
                outcome: RulingOutcome::Overridden { .. },
                ..
            }
        );
        let _ = writeln!(
            s,
            "  table {:>2} {}: {} [{}] — {}",
            c.table,
            claim_name(c.kind),
            what(view, c, verdict, must_change),
            rules(c, overridden),
            i18n::texts::english(&c.recommended.explanation)
        );
    }
    s
}
