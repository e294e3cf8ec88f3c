//! Dialog boxes: a confirmation (`y`/`n`), a choice by key, or a line of
//! text with a cursor, drawn centred over the screen. The filter (`/`) is
//! shown as a one-line prompt at the bottom instead, so the hall stays
//! visible while it narrows.

use super::{centered, theme};
use crate::app::{App, Dialog, DialogStep, Pending};
use crate::i18n::Words;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

/// Draws `d` over `area`.
pub fn draw(f: &mut Frame, app: &App, d: &Dialog, area: Rect) {
    let s = app.lang.s();
    if d.pending == Pending::Filter {
        if let DialogStep::Text { prompt, buffer, .. } = &d.step {
            let r = Rect {
                y: area.y + area.height.saturating_sub(1),
                height: 1.min(area.height),
                ..area
            };
            f.render_widget(Clear, r);
            f.render_widget(
                Paragraph::new(Line::from(vec![
                    Span::styled(format!(" {prompt} / "), theme::key()),
                    Span::raw(buffer.clone()),
                    Span::styled("█", theme::key()),
                ])),
                r,
            );
            return;
        }
    }
    let mut lines: Vec<Line> = Vec::new();
    match &d.step {
        DialogStep::Confirm { message } => {
            lines.push(Line::raw(message.clone()));
            lines.push(Line::raw(""));
            lines.push(Line::styled(s.yes_no.to_string(), theme::key()));
        }
        DialogStep::Choose { prompt, options } => {
            lines.push(Line::raw(format!("{prompt}:")));
            for o in options {
                lines.push(Line::from(vec![
                    Span::styled(format!("  {}  ", o.key), theme::key()),
                    Span::raw(o.label.clone()),
                ]));
            }
            lines.push(Line::styled("Esc".to_string(), theme::dim()));
        }
        DialogStep::Text { prompt, buffer, .. } => {
            lines.push(Line::raw(format!("{prompt}:")));
            lines.push(Line::from(vec![
                Span::raw(format!("> {buffer}")),
                Span::styled("█", theme::key()),
            ]));
            lines.push(Line::raw(""));
            lines.push(Line::styled(s.enter_esc.to_string(), theme::dim()));
        }
    }
    if let Some(e) = &d.error {
        lines.push(Line::styled(e.clone(), theme::alarm()));
    }
    let h = lines.len() as u16 + 2;
    let r = centered(area, 64, h + 1);
    f.render_widget(Clear, r);
    let block = Block::bordered().title(Span::styled(format!(" {} ", d.title), theme::title()));
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        r,
    );
}
