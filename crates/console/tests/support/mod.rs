//! What the console's integration tests share: drawing an [`App`] into
//! ratatui's `TestBackend`, the drawn buffer as text, and key presses.
#![allow(dead_code, reason = "each test file uses its own part")]

use console::app::Outgoing;
use console::ui;
use console::App;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use unicode_width::UnicodeWidthStr;

/// `app` drawn on a `w`×`h` test terminal.
pub fn render(app: &App, w: u16, h: u16) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    term.draw(|f| ui::draw(f, app)).expect("draw");
    term.backend().buffer().clone()
}

/// The buffer as text, one line per row (wide glyphs once).
pub fn text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut skip = 0usize;
        let mut line = String::new();
        for x in 0..buf.area.width {
            let sym = buf[(x, y)].symbol();
            if skip == 0 {
                line.push_str(sym);
            }
            skip = skip.max(sym.width()).saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `app` drawn on a `w`×`h` test terminal, as text.
pub fn screen(app: &App, w: u16, h: u16) -> String {
    text(&render(app, w, h))
}

/// One key press; what the app sends.
pub fn press(app: &mut App, code: KeyCode) -> Vec<Outgoing> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Each character of `s` pressed in turn; all the app sends.
pub fn keys(app: &mut App, s: &str) -> Vec<Outgoing> {
    let mut out = Vec::new();
    for c in s.chars() {
        out.extend(press(app, KeyCode::Char(c)));
    }
    out
}
