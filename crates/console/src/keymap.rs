//! Every key of the console (按键表) as data: each row carries its keys
//! (code and modifiers), what each key means ([`Intent`]), its help text
//! and where it works. `App::on_key` looks a pressed key up in these rows
//! ([`intent_of`]); the help screen (`?`) and the hint line render the same
//! rows, so the two cannot drift apart.
//!
//! Keys of actions the role may not take are left out of the help, so a
//! deputy's help does not offer pausing the hall (over several halls: a key
//! is offered when the role in some hall may; the server of the selected
//! row's hall judges). `H`, the hall filter, is listed only for a console
//! over several halls. The key test (tests/keys.rs,
//! `every_listed_key_reacts`) presses every key of every row.

use crate::i18n::{Lang, Words};
use crate::perm::{self, Action};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proto::Role;

/// Where a key works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Everywhere,
    Hall,
    Alerts,
    Claims,
    Detail,
}

/// What a key asks for (意图); `App::on_key` carries it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    Help,
    Quit,
    NextView,
    PreviousView,
    Alerts,
    Claims,
    /// Back to the hall; in the hall, clear the filter.
    Back,
    Up,
    Down,
    PageUp,
    PageDown,
    HalfPageUp,
    HalfPageDown,
    First,
    Last,
    Language,
    /// Open the selected table.
    Open,
    Sort,
    Filter,
    Goto,
    HallFilter,
    /// From a table back to the hall.
    Close,
    Notation,
    AckAlert,
    AckAll,
    Accept,
    Override,
    Escalate,
    PauseTable,
    Seal,
    Foul,
    AdjustClock,
    MoveLimit,
    SetResult,
    PauseHall,
    Export,
    /// Pair the next round (chief only).
    NextRound,
    /// Correct a result of an earlier round (chief only).
    CorrectResult,
    /// Withdraw the published round before it started (chief only).
    WithdrawRound,
    /// Enter a player late (chief only).
    EnterPlayer,
    /// Withdraw a player (chief only).
    WithdrawPlayer,
}

/// One key: its code, whether it needs Ctrl, and what it asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    /// The key is Ctrl and `code` (Shift is never required: terminals
    /// report capitals with or without it).
    pub ctrl: bool,
    pub intent: Intent,
}

impl Key {
    /// The key as pressed (for tests and the hint line).
    pub fn event(&self) -> KeyEvent {
        let mods = if self.ctrl {
            KeyModifiers::CONTROL
        } else {
            KeyModifiers::NONE
        };
        KeyEvent::new(self.code, mods)
    }

    /// The key's name as the help writes it: `q`, `Ctrl-B`, `PgUp`, `↑`.
    pub fn name(&self) -> String {
        let base = match self.code {
            KeyCode::Char(c) if self.ctrl => c.to_ascii_uppercase().to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::F(n) => format!("F{n}"),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "Shift-Tab".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Backspace => "Backspace".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            other => format!("{other:?}"),
        };
        if self.ctrl {
            format!("Ctrl-{base}")
        } else {
            base
        }
    }
}

/// One help line: its keys in groups (a group's keys are written apart by
/// one space, groups by two: `↑ ↓  k j`).
#[derive(Debug, Clone, Copy)]
pub struct KeyHelp {
    pub keys: &'static [&'static [Key]],
    /// The catalogue id of the key's help text (`console-key-*`).
    pub id: &'static str,
    pub scope: Scope,
    /// The action the key starts, if any (hidden when the role may not).
    pub action: Option<Action>,
    /// Only for a console over several halls.
    pub halls_only: bool,
}

impl KeyHelp {
    /// The keys as the help writes them.
    pub fn keys_text(&self) -> String {
        self.keys
            .iter()
            .map(|group| group.iter().map(Key::name).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("  ")
    }

    /// Every key of the row.
    pub fn each_key(&self) -> impl Iterator<Item = &'static Key> {
        self.keys.iter().flat_map(|g| g.iter())
    }
}

const fn ch(c: char, intent: Intent) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
        intent,
    }
}

const fn ctrl(c: char, intent: Intent) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
        intent,
    }
}

const fn key(code: KeyCode, intent: Intent) -> Key {
    Key {
        code,
        ctrl: false,
        intent,
    }
}

const fn k(keys: &'static [&'static [Key]], id: &'static str, scope: Scope) -> KeyHelp {
    KeyHelp {
        keys,
        id,
        scope,
        action: None,
        halls_only: false,
    }
}

/// A row of one key that starts `action`.
const fn act(
    keys: &'static [&'static [Key]],
    id: &'static str,
    scope: Scope,
    action: Action,
) -> KeyHelp {
    KeyHelp {
        keys,
        id,
        scope,
        action: Some(action),
        halls_only: false,
    }
}

use Intent as I;

/// Every key, in help order.
pub const KEYS: &[KeyHelp] = &[
    k(
        &[&[ch('?', I::Help)], &[key(KeyCode::F(1), I::Help)]],
        "console-key-help",
        Scope::Everywhere,
    ),
    k(
        &[&[ch('q', I::Quit)], &[ctrl('c', I::Quit)]],
        "console-key-quit",
        Scope::Everywhere,
    ),
    k(
        &[
            &[key(KeyCode::Tab, I::NextView)],
            &[key(KeyCode::BackTab, I::PreviousView)],
        ],
        "console-key-views",
        Scope::Everywhere,
    ),
    k(
        &[&[ch('a', I::Alerts)]],
        "console-key-alerts",
        Scope::Everywhere,
    ),
    k(
        &[&[ch('c', I::Claims)]],
        "console-key-claims",
        Scope::Everywhere,
    ),
    k(
        &[
            &[key(KeyCode::Esc, I::Back)],
            &[key(KeyCode::Backspace, I::Back)],
        ],
        "console-key-back",
        Scope::Everywhere,
    ),
    k(
        &[
            &[key(KeyCode::Up, I::Up), key(KeyCode::Down, I::Down)],
            &[ch('k', I::Up), ch('j', I::Down)],
        ],
        "console-key-select",
        Scope::Everywhere,
    ),
    k(
        &[
            &[
                key(KeyCode::PageUp, I::PageUp),
                key(KeyCode::PageDown, I::PageDown),
            ],
            &[ctrl('b', I::PageUp), ctrl('f', I::PageDown)],
        ],
        "console-key-page",
        Scope::Everywhere,
    ),
    k(
        &[&[ctrl('u', I::HalfPageUp), ctrl('d', I::HalfPageDown)]],
        "console-key-half-page",
        Scope::Everywhere,
    ),
    k(
        &[
            &[key(KeyCode::Home, I::First)],
            &[key(KeyCode::End, I::Last), ch('G', I::Last)],
        ],
        "console-key-first-last",
        Scope::Everywhere,
    ),
    k(
        &[&[ch('L', I::Language)]],
        "console-key-language",
        Scope::Everywhere,
    ),
    k(
        &[
            &[key(KeyCode::Enter, I::Open)],
            &[key(KeyCode::Right, I::Open), ch('l', I::Open)],
        ],
        "console-key-open",
        Scope::Hall,
    ),
    k(&[&[ch('s', I::Sort)]], "console-key-sort", Scope::Hall),
    k(&[&[ch('/', I::Filter)]], "console-key-filter", Scope::Hall),
    k(
        &[&[ch('g', I::Goto)], &[ch(':', I::Goto)]],
        "console-key-goto",
        Scope::Hall,
    ),
    KeyHelp {
        keys: &[&[ch('H', I::HallFilter)]],
        id: "console-key-hall-filter",
        scope: Scope::Everywhere,
        action: None,
        halls_only: true,
    },
    k(
        &[&[key(KeyCode::Left, I::Close), ch('h', I::Close)]],
        "console-key-close",
        Scope::Detail,
    ),
    k(
        &[&[ch('n', I::Notation)]],
        "console-key-notation",
        Scope::Detail,
    ),
    act(
        &[&[ch('x', I::AckAlert)]],
        "console-key-ack",
        Scope::Alerts,
        Action::AckAlert,
    ),
    act(
        &[&[ch('X', I::AckAll)]],
        "console-key-ack-all",
        Scope::Alerts,
        Action::AckAlert,
    ),
    act(
        &[&[ch('y', I::Accept)]],
        "console-key-accept",
        Scope::Claims,
        Action::RuleOnClaim,
    ),
    act(
        &[&[ch('o', I::Override)]],
        "console-key-override",
        Scope::Claims,
        Action::RuleOnClaim,
    ),
    act(
        &[&[ch('e', I::Escalate)]],
        "console-key-escalate",
        Scope::Claims,
        Action::EscalateClaim,
    ),
    act(
        &[&[ch('p', I::PauseTable)]],
        "console-key-pause-table",
        Scope::Detail,
        Action::PauseTable,
    ),
    act(
        &[&[ch('S', I::Seal)]],
        "console-key-seal",
        Scope::Detail,
        Action::Seal,
    ),
    act(
        &[&[ch('f', I::Foul)]],
        "console-key-foul",
        Scope::Detail,
        Action::RecordFoul,
    ),
    act(
        &[&[ch('t', I::AdjustClock)]],
        "console-key-adjust",
        Scope::Detail,
        Action::AdjustClock,
    ),
    act(
        &[&[ch('m', I::MoveLimit)]],
        "console-key-move-limit",
        Scope::Detail,
        Action::RuleOnClaim,
    ),
    act(
        &[&[ch('r', I::SetResult)]],
        "console-key-result",
        Scope::Detail,
        Action::SetResult,
    ),
    act(
        &[&[ch('P', I::PauseHall)]],
        "console-key-pause-hall",
        Scope::Everywhere,
        Action::PauseHall,
    ),
    act(
        &[&[ch('E', I::Export)]],
        "console-key-export",
        Scope::Everywhere,
        Action::Export,
    ),
    act(
        &[&[ch('N', I::NextRound)]],
        "console-key-next-round",
        Scope::Everywhere,
        Action::PairRound,
    ),
    act(
        &[&[ch('C', I::CorrectResult)]],
        "console-key-correct-result",
        Scope::Everywhere,
        Action::CorrectResult,
    ),
    act(
        &[&[ch('W', I::WithdrawRound)]],
        "console-key-withdraw-round",
        Scope::Everywhere,
        Action::WithdrawRound,
    ),
    act(
        &[&[ch('A', I::EnterPlayer)]],
        "console-key-enter-player",
        Scope::Everywhere,
        Action::EnterPlayer,
    ),
    act(
        &[&[ch('D', I::WithdrawPlayer)]],
        "console-key-withdraw-player",
        Scope::Everywhere,
        Action::WithdrawPlayer,
    ),
];

/// What a pressed key asks for, looked up in [`KEYS`]: a Ctrl key first
/// among the Ctrl rows, then by its code alone (so Ctrl-F pages and `f`
/// records a foul, and Shift or other modifiers do not hide a key).
pub fn intent_of(event: &KeyEvent) -> Option<Intent> {
    let all = || KEYS.iter().flat_map(KeyHelp::each_key);
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    all()
        .find(|k| ctrl && k.ctrl && k.code == event.code)
        .or_else(|| all().find(|k| !k.ctrl && k.code == event.code))
        .map(|k| k.intent)
}

/// The keys offered to `role` in a console of one hall.
pub fn keys_for(role: Option<&Role>) -> impl Iterator<Item = &'static KeyHelp> + '_ {
    keys_offered(vec![role], false)
}

/// The keys offered in a console whose roles (one per hall) are `roles`:
/// an action's key when the role in some hall may take it; `H` when
/// `halls` (several halls).
pub fn keys_offered(
    roles: Vec<Option<&Role>>,
    halls: bool,
) -> impl Iterator<Item = &'static KeyHelp> + '_ {
    KEYS.iter().filter(move |k| {
        (halls || !k.halls_only)
            && k.action
                .is_none_or(|a| roles.iter().any(|r| perm::offers(*r, a)))
    })
}

/// A key's description in `lang`.
pub fn describe(k: &KeyHelp, lang: Lang) -> &'static str {
    crate::i18n::word(lang, k.id)
}

/// Scope heading in `lang`.
pub fn scope_name(scope: Scope, lang: Lang) -> &'static str {
    let s = lang.s();
    match scope {
        Scope::Everywhere => crate::i18n::word(lang, "console-scope-everywhere"),
        Scope::Hall => s.hall,
        Scope::Alerts => s.alerts,
        Scope::Claims => s.claims,
        Scope::Detail => crate::i18n::word(lang, "console-scope-detail"),
    }
}
