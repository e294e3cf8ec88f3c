//! The claims queue (申诉队列): open claims first (oldest first), then ruled
//! ones; the selected claim's recommended ruling with its rule ids and
//! explanation, and who ruled, escalated or overrode it and when. A
//! console over several halls queues every hall's claims together, each
//! labelled with its hall.

use super::{text, theme};
use crate::app::{App, View};
use crate::i18n::Words;
use crate::width::{pad_right, truncate};
use proto::{ClaimStatus, ClaimView, RulingOutcome, Verdict};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

/// A claim's state in words and its style.
fn state(app: &App, c: &ClaimView) -> (String, Style) {
    let s = app.lang.s();
    match &c.status {
        ClaimStatus::Pending => (s.pending_word.to_string(), theme::alarm()),
        ClaimStatus::Escalated { .. } => (s.escalated_word.to_string(), theme::warn()),
        ClaimStatus::Ruled { outcome, .. } => match outcome {
            RulingOutcome::Accepted if c.recommended.verdict == Verdict::Order => {
                (s.ordered_word.to_string(), theme::warn())
            }
            RulingOutcome::Overridden {
                verdict: Verdict::Order,
                ..
            } => (s.ordered_word.to_string(), theme::warn()),
            RulingOutcome::Accepted => (s.accepted.to_string(), theme::ok()),
            RulingOutcome::Overridden { .. } => (s.overridden.to_string(), theme::ok()),
        },
        ClaimStatus::Lapsed { .. } => (s.lapsed_word.to_string(), theme::ok()),
    }
}

/// The recommended ruling with the penalty accepting it adds.
fn recommended(app: &App, c: &ClaimView) -> String {
    let r = &c.recommended;
    text::ruling_label(app.lang.s(), r.verdict, r.must_change, c.penalty)
}

/// One claim of hall `hall` as a list line.
fn line(app: &App, hall: usize, c: &ClaimView, cols: usize) -> Line<'static> {
    let s = app.lang.s();
    let (st, style) = state(app, c);
    let by = c.by.map_or(s.none, |b| text::side(s, b));
    let head = format!(
        "{} {}{}{:>3} {} {} ",
        text::time_of_day(c.raised_at_ms, app.utc_offset_s),
        text::hall_label(app, hall),
        s.table_short,
        c.table,
        pad_right(&text::claim_kind(app.lang, c.kind), 13),
        pad_right(by, 6),
    );
    let rec = format!(
        "→ {} [{}]",
        recommended(app, c),
        c.recommended.rule_ids.join(", ")
    );
    let stw = 9;
    let rest = cols.saturating_sub(crate::width::width(&head) + stw + 1);
    Line::from(vec![
        Span::styled(format!("{} ", pad_right(&st, stw)), style),
        Span::raw(head),
        Span::raw(truncate(&rec, rest)),
    ])
}

/// The details of one claim of hall `hall`.
fn details(app: &App, hall: usize, c: &ClaimView) -> Vec<Line<'static>> {
    let s = app.lang.s();
    let label = |t: &str| Span::styled(format!("{t}: "), Style::new().add_modifier(Modifier::BOLD));
    let mut v = vec![
        Line::from(vec![
            label(s.table),
            Span::raw(format!("{}  ", app.at_hall(hall, &c.table.to_string()))),
            label(s.claimant),
            Span::raw(format!(
                "{}  {}",
                c.by.map_or(s.none, |b| text::side(s, b)),
                text::claim_kind(app.lang, c.kind)
            )),
        ]),
        Line::from(vec![
            label(s.recommended),
            Span::styled(recommended(app, c), theme::key()),
        ]),
        Line::from(vec![
            label(s.rules),
            Span::raw(c.recommended.rule_ids.join(", ")),
        ]),
        Line::raw(app.lang.text(&c.recommended.explanation)),
    ];
    let (st, style) = state(app, c);
    let when = |ms: u64| text::time_of_day(ms, app.utc_offset_s);
    match &c.status {
        ClaimStatus::Pending => v.push(Line::styled(st, style)),
        ClaimStatus::Escalated { by, reason, at_ms } => v.push(Line::styled(
            format!("{st}: {by} {} — {}: {reason}", when(*at_ms), s.reason),
            style,
        )),
        ClaimStatus::Lapsed { why, at_ms } => v.push(Line::styled(
            format!("{st} {} — {}", when(*at_ms), app.lang.text(why)),
            style,
        )),
        ClaimStatus::Ruled { by, outcome, at_ms } => {
            let mut t = format!("{st} — {} {by} {}", s.ruled_by, when(*at_ms));
            if let RulingOutcome::Overridden {
                verdict,
                must_change,
                reason,
            } = outcome
            {
                t.push_str(&format!(
                    ": {}{} — {}: {reason}",
                    text::verdict_label(s, *verdict, *must_change),
                    text::waived_label(s, c.penalty),
                    s.reason
                ));
            }
            v.push(Line::styled(t, style));
        }
    }
    v
}

/// The claims screen: list above, the selected claim below.
pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let s = app.lang.s();
    let claims = app.claim_rows();
    let open = claims.iter().filter(|(_, c)| c.status.is_open()).count();
    let [list, detail] = Layout::vertical([Constraint::Min(4), Constraint::Length(9)]).areas(area);
    let block = Block::bordered().title(Span::styled(
        format!(" {} ({open}/{}) ", s.claims, claims.len()),
        theme::title(),
    ));
    let inner = block.inner(list);
    f.render_widget(block, list);
    if claims.is_empty() {
        f.render_widget(
            Paragraph::new(Line::styled(format!(" {}", s.no_claims), theme::dim())),
            inner,
        );
        return;
    }
    let rows = usize::from(inner.height);
    let sel = app.claim_sel.min(claims.len() - 1);
    let off = (sel + 1).saturating_sub(rows);
    let lines: Vec<Line> = claims
        .iter()
        .enumerate()
        .skip(off)
        .take(rows)
        .map(|(i, (h, c))| {
            let mut l = line(app, *h, c, usize::from(inner.width));
            if i == sel && app.view == View::Claims {
                for sp in &mut l.spans {
                    sp.style = sp.style.patch(theme::selected());
                }
            }
            l
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
    let block =
        Block::bordered().title(Span::styled(format!(" {} ", s.recommended), theme::title()));
    let inner = block.inner(detail);
    f.render_widget(block, detail);
    f.render_widget(
        Paragraph::new(details(app, claims[sel].0, claims[sel].1)).wrap(Wrap { trim: false }),
        inner,
    );
}

/// The side panel beside the hall: open claims.
pub fn draw_panel(f: &mut Frame, app: &App, area: Rect) {
    let s = app.lang.s();
    let claims: Vec<_> = app
        .claim_rows()
        .into_iter()
        .filter(|(_, c)| c.status.is_open())
        .collect();
    let block = Block::bordered().title(Span::styled(
        format!(" {} ({}) · c ", s.claims, claims.len()),
        theme::title(),
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let mut lines = Vec::new();
    if claims.is_empty() {
        lines.push(Line::styled(format!(" {}", s.no_claims), theme::dim()));
    }
    let cols = usize::from(inner.width);
    for (h, c) in claims {
        lines.push(line(app, h, c, cols));
        let expl = app.lang.text(&c.recommended.explanation);
        lines.push(Line::styled(
            format!("          {}", truncate(&expl, cols.saturating_sub(10))),
            theme::dim(),
        ));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
