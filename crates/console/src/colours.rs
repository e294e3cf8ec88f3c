//! The console's colour mode, chosen once at start: [`Theme::Color`] or
//! [`Theme::Plain`] (`NO_COLOR`, `--theme plain`). The app state holds it;
//! `ui::theme` applies it after drawing. Its own module so that the app
//! state does not depend on the drawing code.

use std::str::FromStr;

/// How the console uses colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Theme {
    /// The colours of `ui::theme`.
    #[default]
    Color,
    /// No colour at all: see `ui::theme::make_plain`.
    Plain,
}

impl Theme {
    /// The theme asked for on the command line, else `Plain` when the
    /// `NO_COLOR` variable is set to anything but "" (no-color.org), else
    /// `Color`.
    pub fn choose(arg: Option<Theme>, no_color: Option<&str>) -> Theme {
        match (arg, no_color) {
            (Some(t), _) => t,
            (None, Some(v)) if !v.is_empty() => Theme::Plain,
            _ => Theme::Color,
        }
    }
}

/// A `--theme` value that is not `color` or `plain`.
#[derive(Debug, thiserror::Error)]
#[error("unknown theme {0:?} (expected color or plain)")]
pub struct UnknownTheme(String);

impl FromStr for Theme {
    type Err = UnknownTheme;
    fn from_str(s: &str) -> Result<Theme, UnknownTheme> {
        match s.to_ascii_lowercase().as_str() {
            "color" | "colour" => Ok(Theme::Color),
            "plain" | "none" => Ok(Theme::Plain),
            _ => Err(UnknownTheme(s.to_string())),
        }
    }
}
