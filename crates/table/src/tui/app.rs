//! The TUI's state: the last screen published by the terminal, the input
//! line being typed, and a notice (the last refusal or confirmation).

use crate::engine::Screen;
use i18n::Lang;

/// Everything the TUI draws.
#[derive(Debug, Clone)]
pub struct App {
    pub screen: Screen,
    /// Text typed so far (a move, or a `:command`).
    pub input: String,
    /// The last local notice (e.g. why an action was refused).
    pub notice: Option<String>,
    /// Describes the time control (e.g. "Fischer 80 min + 30 s").
    pub control: String,
    /// No colours (`NO_COLOR`, `--theme plain`): see `render::strip_colour`.
    pub plain: bool,
    pub quit: bool,
    /// The two players' languages: the hall's first, then a second one
    /// (the same twice: one language only). Today's default: zh-Hans and
    /// English side by side.
    pub langs: [Lang; 2],
}

impl App {
    /// Takes the terminal's new screen. A local notice (a refused key, e.g.
    /// "paused by …") goes once the game's state or ply changes, so the
    /// status line never keeps what is no longer true.
    pub fn update(&mut self, screen: Screen) {
        if screen.status != self.screen.status || screen.plies != self.screen.plies {
            self.notice = None;
        }
        self.screen = screen;
    }

    pub fn new(screen: Screen, control: String) -> App {
        App {
            screen,
            input: String::new(),
            notice: None,
            control,
            plain: false,
            quit: false,
            langs: [Lang::ZhHans, Lang::En],
        }
    }

    /// A text in both languages, `first / second`, or once when the two
    /// languages are one or write it alike.
    pub fn two(&self, text: impl Fn(Lang) -> String) -> String {
        let [a, b] = self.langs.map(&text);
        if a == b {
            a
        } else {
            format!("{a} / {b}")
        }
    }
}

/// Words for a time control.
pub fn describe_control(tc: &rulebook::TimeControl) -> String {
    match tc {
        rulebook::TimeControl::Fischer {
            base_ms,
            increment_ms,
        } => {
            let base = base_ms / 60_000;
            let inc = increment_ms / 1000;
            if *increment_ms == 0 {
                format!("sudden death {base} min")
            } else {
                format!("Fischer {base} min + {inc} s")
            }
        }
        rulebook::TimeControl::Traditional(t) => {
            let first = t.periods.first();
            match first {
                Some(p) => format!(
                    "traditional: {} moves in {} min, …",
                    p.moves,
                    p.by_ms / 60_000
                ),
                None => "traditional".into(),
            }
        }
    }
}
