//! Colours and styles of the console, in one place so that the rendering
//! tests can check them by name (e.g. a clock under five minutes is
//! [`clock_style`] of `Urgency::Low`).
//!
//! [`Theme::Plain`] (`NO_COLOR`, `--theme plain`, 16-colour terminals) is
//! applied after drawing by [`make_plain`]: every cell's colours go back to
//! the terminal's own, and where colour carried meaning weight and reverse
//! video carry it instead (red text and Red's pieces bold, highlighted and
//! alarm backgrounds reversed); pieces stay apart by glyph (俥 車, 傌 馬, ...).

use crate::clock::Urgency;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

pub use crate::colours::{Theme, UnknownTheme};

/// Whether a foreground colour is one of the reds (Red's side, alarms).
fn is_red(c: Color) -> bool {
    match c {
        Color::Red | Color::LightRed => true,
        Color::Rgb(r, g, b) => r >= 150 && g < 80 && b < 80,
        _ => false,
    }
}

/// Turns a drawn frame into the plain theme (see the module doc).
pub fn make_plain(buf: &mut Buffer) {
    for cell in buf.content.iter_mut() {
        let mut m = cell.modifier;
        if is_red(cell.fg) {
            m |= Modifier::BOLD;
        }
        if cell.bg != Color::Reset && cell.bg != BOARD_BG {
            m |= Modifier::REVERSED;
        }
        cell.fg = Color::Reset;
        cell.bg = Color::Reset;
        cell.modifier = m;
    }
}

/// Red pieces and Red's side (红).
pub const RED: Color = Color::LightRed;
/// The board's background (wood).
pub const BOARD_BG: Color = Color::Rgb(222, 184, 135);
/// Black pieces on the board.
pub const BOARD_BLACK: Color = Color::Black;
/// Red pieces on the board.
pub const BOARD_RED: Color = Color::Rgb(180, 0, 0);

/// Column headers.
pub fn header() -> Style {
    Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
}

/// The selected row.
pub fn selected() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

/// Panel titles and the title bar.
pub fn title() -> Style {
    Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
}

/// Faint text (hints, empty lists, acknowledged alerts).
pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

/// A clock by urgency; `running` adds bold.
pub fn clock_style(u: Urgency, running: bool) -> Style {
    let s = match u {
        Urgency::Normal => Style::new(),
        Urgency::Low => Style::new().fg(Color::Yellow),
        Urgency::Critical => Style::new().fg(Color::LightRed),
        Urgency::Flagged => Style::new()
            .fg(Color::White)
            .bg(Color::Red)
            .add_modifier(Modifier::BOLD),
    };
    if running {
        s.add_modifier(Modifier::BOLD)
    } else {
        s
    }
}

/// Red's name and marks.
pub fn red() -> Style {
    Style::new().fg(RED)
}

/// A warning (pending claims, fouls, paused, stale data).
pub fn warn() -> Style {
    Style::new().fg(Color::Yellow)
}

/// An alarm (offline, refused command, flag).
pub fn alarm() -> Style {
    Style::new()
        .fg(Color::LightRed)
        .add_modifier(Modifier::BOLD)
}

/// Good news (connected, finished).
pub fn ok() -> Style {
    Style::new().fg(Color::Green)
}

/// The disconnected banner.
pub fn banner() -> Style {
    Style::new()
        .fg(Color::White)
        .bg(Color::Red)
        .add_modifier(Modifier::BOLD)
}

/// The hall-paused banner.
pub fn paused_banner() -> Style {
    Style::new()
        .fg(Color::Black)
        .bg(Color::Yellow)
        .add_modifier(Modifier::BOLD)
}

/// Sealed games.
pub fn sealed() -> Style {
    Style::new().fg(Color::Magenta)
}

/// Key names in hints and help.
pub fn key() -> Style {
    Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
}
