//! The next round's proposal (下一轮编排): every board with its table,
//! Red and Black, and *why this pair* (the server's catalogue messages in
//! the console's language), the changes made with their reasons, and the
//! keys. Rendering only: the draft is `app::round`.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::app::App;
use crate::i18n::{say, word, Words};
use crate::width::{pad_right, truncate};

/// Draws the proposal in `area`.
pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let Some(d) = &app.next_round else {
        return;
    };
    let lang = app.lang;
    let s = app.lang.s();
    let changes = d.changes.len() as u16;
    let [boards, notes] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(changes.min(6) + 3)]).areas(area);
    let cols = usize::from(boards.width.saturating_sub(2));
    let mut lines = Vec::new();
    for (i, b) in d.round.boards.iter().enumerate() {
        let why: Vec<String> = b.why.iter().map(|m| i18n::render(lang, m)).collect();
        let mark = match d.marked == Some(i) {
            true => "x",
            false => " ",
        };
        let text = format!(
            "{mark}{:>3} {} {} {} {}",
            b.table,
            pad_right(&truncate(&b.red, 14), 14),
            word(lang, "console-round-versus"),
            pad_right(&truncate(&b.black, 14), 14),
            why.join(" · ")
        );
        let style = match i == d.sel {
            true => Style::default().add_modifier(Modifier::REVERSED),
            false => Style::default(),
        };
        lines.push(Line::styled(truncate(&text, cols), style));
    }
    let title = format!(
        " {} {} · {} · {} · seed {} ",
        s.round,
        d.round.round,
        d.round.system,
        say(
            lang,
            "console-round-boards",
            &[("boards", d.round.boards.len() as i64)]
        ),
        d.round.seed
    );
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        boards,
    );
    let mut notes_lines: Vec<Line> = Vec::new();
    if let Some(bye) = &d.round.bye {
        notes_lines.push(Line::raw(format!(
            "{}: {bye}",
            word(lang, "console-round-bye")
        )));
    }
    for n in &d.round.notes {
        notes_lines.push(Line::raw(i18n::render(lang, n)));
    }
    for c in &d.changes {
        notes_lines.push(Line::raw(format!(
            "{} — {}",
            i18n::render(lang, &c.what),
            c.reason
        )));
    }
    if notes_lines.is_empty() {
        notes_lines.push(Line::raw(word(lang, "console-round-no-changes")));
    }
    let title = format!(" {} ", word(lang, "console-round-notes"));
    f.render_widget(
        Paragraph::new(notes_lines).block(Block::default().borders(Borders::ALL).title(title)),
        notes,
    );
}
