//! Alerts (警报): newest first, with table and time; unacknowledged ones
//! stand out, acknowledged ones are faint with who acknowledged them.
//! Shown as a full screen, as a side panel on a large screen, and as a
//! one-line ticker under the hall on a small one. A console over several
//! halls lists every hall's alerts in one queue, each labelled with its
//! hall.

use super::{text, theme};
use crate::app::{App, View};
use crate::i18n::Words;
use crate::width::{pad_right, truncate};
use proto::{Alert, AlertKind};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

fn style_of(a: &Alert) -> Style {
    if a.acked_by.is_some() {
        return theme::dim();
    }
    match a.kind {
        AlertKind::FlagFall
        | AlertKind::IllegalMove
        | AlertKind::Repetition
        | AlertKind::TableOffline
        | AlertKind::ClockAnomaly
        | AlertKind::ClaimPending
        | AlertKind::ArbiterCalled
        | AlertKind::RecordQuarantined
        | AlertKind::TwoTerminals => theme::alarm(),
        AlertKind::TableOnline | AlertKind::GameOver => Style::new(),
        _ => theme::warn(),
    }
}

/// One alert of hall `hall` as a line: time, (hall,) table, kind, text
/// (and rule ids).
fn line(app: &App, hall: usize, a: &Alert, cols: usize, with_ack: bool) -> Line<'static> {
    let s = app.lang.s();
    let mut msg = app.lang.text(&a.text);
    if !a.rule_ids.is_empty() {
        msg.push_str(&format!(" [{}]", a.rule_ids.join(", ")));
    }
    if with_ack {
        if let Some(by) = &a.acked_by {
            msg.push_str(&format!(" — {} {by}", s.acknowledged));
        }
    }
    let head = format!(
        "{} {}{}{:>3} {} ",
        text::time_of_day(a.at_ms, app.utc_offset_s),
        text::hall_label(app, hall),
        s.table_short,
        a.table,
        pad_right(&text::alert_kind(app.lang, a.kind), 12)
    );
    let mark = if a.acked_by.is_none() { "● " } else { "  " };
    let rest = cols.saturating_sub(crate::width::width(&head) + 2);
    Line::from(vec![
        Span::styled(mark.to_string(), style_of(a)),
        Span::styled(head, style_of(a)),
        Span::styled(truncate(&msg, rest), style_of(a)),
    ])
}

/// The alerts screen.
pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let s = app.lang.s();
    let alerts = app.alert_rows();
    let open = alerts.iter().filter(|(_, a)| a.acked_by.is_none()).count();
    let block = Block::bordered().title(Span::styled(
        format!(" {} ({open}/{}) ", s.alerts, alerts.len()),
        theme::title(),
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let rows = usize::from(inner.height);
    let cols = usize::from(inner.width);
    if alerts.is_empty() {
        f.render_widget(
            Paragraph::new(Line::styled(format!(" {}", s.no_alerts), theme::dim())),
            inner,
        );
        return;
    }
    let sel = app.alert_sel.min(alerts.len() - 1);
    let off = (sel + 1).saturating_sub(rows);
    let lines: Vec<Line> = alerts
        .iter()
        .enumerate()
        .skip(off)
        .take(rows)
        .map(|(i, (h, a))| {
            let mut l = line(app, *h, a, cols, true);
            if i == sel && app.view == View::Alerts {
                for sp in &mut l.spans {
                    sp.style = sp.style.patch(theme::selected());
                }
            }
            l
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// The side panel beside the hall: newest alerts, no selection.
pub fn draw_panel(f: &mut Frame, app: &App, area: Rect) {
    let s = app.lang.s();
    let alerts = app.alert_rows();
    let open = alerts.iter().filter(|(_, a)| a.acked_by.is_none()).count();
    let block = Block::bordered().title(Span::styled(
        format!(" {} ({open}) · a ", s.alerts),
        theme::title(),
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let cols = usize::from(inner.width);
    let lines: Vec<Line> = if alerts.is_empty() {
        vec![Line::styled(format!(" {}", s.no_alerts), theme::dim())]
    } else {
        alerts
            .iter()
            .take(usize::from(inner.height))
            .map(|(h, a)| line(app, *h, a, cols, false))
            .collect()
    };
    f.render_widget(Paragraph::new(lines), inner);
}

/// One line under the hall on a small screen: the newest open alert.
pub fn ticker(app: &App, cols: u16) -> Line<'static> {
    let alerts = app.alert_rows();
    let open: Vec<_> = alerts
        .iter()
        .filter(|(_, a)| a.acked_by.is_none())
        .collect();
    match open.first() {
        Some((h, a)) => {
            let mut l = line(app, *h, a, usize::from(cols).saturating_sub(6), false);
            if open.len() > 1 {
                l.spans
                    .push(Span::styled(format!(" +{}", open.len() - 1), theme::warn()));
            }
            l
        }
        None => Line::styled(format!("  {}", app.lang.s().no_alerts), theme::dim()),
    }
}
