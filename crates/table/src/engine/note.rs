//! The terminal's note on the status line (状态栏提示): either words the
//! terminal itself wrote (its link's state, a local error, as text), or a
//! catalogue message (a control of the arbiter, a refusal of the server)
//! that the screen renders in each of its two languages.

use i18n::Lang;
use proto::Message;

/// A note for the status line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Note {
    /// Nothing to say.
    #[default]
    None,
    /// The terminal's own words, shown as they are.
    Text(String),
    /// A catalogue message, rendered in the screen's languages.
    Said(Message),
}

impl Note {
    /// The note in `lang` (text as it is).
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Note::None => String::new(),
            Note::Text(t) => t.clone(),
            Note::Said(m) => i18n::render(lang, m),
        }
    }

    /// Whether the note says nothing.
    pub fn is_empty(&self) -> bool {
        match self {
            Note::None => true,
            Note::Text(t) => t.is_empty(),
            Note::Said(_) => false,
        }
    }

    /// Whether the note's English words contain `pat` (logs and tests).
    pub fn contains(&self, pat: &str) -> bool {
        self.render(Lang::En).contains(pat)
    }
}

/// The English words (logs and tests).
impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

impl From<String> for Note {
    fn from(t: String) -> Note {
        Note::Text(t)
    }
}

impl From<&str> for Note {
    fn from(t: &str) -> Note {
        Note::Text(t.to_string())
    }
}

impl From<Message> for Note {
    fn from(m: Message) -> Note {
        Note::Said(m)
    }
}
