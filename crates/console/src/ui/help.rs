//! The help overlay (`?`): every key the signed-in role can use (over
//! several halls: the role in any hall, and the hall filter), grouped by
//! where it works, in the console's language.

use super::{centered, theme};
use crate::app::App;
use crate::i18n::Words;
use crate::keymap::{describe, keys_offered, scope_name, Scope};
use crate::width::pad_right;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

/// The help lines for the app's role and language.
pub fn lines(app: &App) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let scopes = [
        Scope::Everywhere,
        Scope::Hall,
        Scope::Alerts,
        Scope::Claims,
        Scope::Detail,
    ];
    for scope in scopes {
        let roles = app.links.iter().map(|l| l.role.as_ref()).collect();
        let keys: Vec<_> = keys_offered(roles, app.multi())
            .filter(|k| k.scope == scope)
            .collect();
        if keys.is_empty() {
            continue;
        }
        out.push(Line::styled(
            scope_name(scope, app.lang).to_string(),
            theme::header(),
        ));
        for k in keys {
            out.push(Line::from(vec![
                Span::styled(format!("  {}", pad_right(&k.keys_text(), 26)), theme::key()),
                Span::raw(describe(k, app.lang).to_string()),
            ]));
        }
    }
    out
}

/// Draws the overlay over `area`.
pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let s = app.lang.s();
    let body = lines(app);
    let h = (body.len() as u16 + 2).min(area.height);
    let r = centered(area, 76, h);
    f.render_widget(Clear, r);
    let block = Block::bordered().title(Span::styled(
        format!(" {} · ? Esc ", s.keys_title),
        theme::title(),
    ));
    let max_scroll = (body.len() as u16).saturating_sub(r.height.saturating_sub(2));
    f.render_widget(
        Paragraph::new(body)
            .block(block)
            .scroll((app.help_scroll.min(max_scroll), 0)),
        r,
    );
}
