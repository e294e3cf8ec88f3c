//! Keys to actions. Typing fills the input line; Enter enters the move
//! (checked for legality) or runs a `:command`; Space with an empty input
//! line presses the clock; function keys for claims and offers.
//!
//! | key | action |
//! |-----|--------|
//! | text + Enter | enter a move (ICCS `h2e2`, WXF `C2.5`, Chinese `炮二平五`) |
//! | Space / Enter on an empty line | press the clock (with the entered move) |
//! | F1 / `:start` | start the clock (Black starts Red's) |
//! | F2 / `:limit` | claim the move limit (side to move): the natural limit, or under ROC the declared limit 限著 |
//! | F3 / `:rep` | claim a repetition ruling (side to move) |
//! | F4 / `:draw` | offer a draw (side to move) |
//! | F5 / `:accept` | accept the standing draw offer |
//! | F6 / `:decline` | decline it |
//! | F7 / `:arbiter` | call the arbiter |
//! | `:resign` | the side to move resigns |
//! | F8 / `:takeover` | after another terminal took the table: this one takes it back |
//! | Esc | clear the input line and the entered move |
//! | Ctrl-C / F10 | quit |

use super::app::App;
use crate::engine::Action;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyOutcome {
    Nothing,
    Act(Action),
    /// The person confirms that this terminal is the table's (after
    /// another one took it over).
    TakeTableBack,
    Quit,
}

/// Handles one key on `app` (editing the input line in place).
pub fn on_key(app: &mut App, key: KeyEvent) -> KeyOutcome {
    let s = &app.screen;
    let to_move = s.to_move;
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return KeyOutcome::Quit;
    }
    match key.code {
        KeyCode::F(10) => KeyOutcome::Quit,
        KeyCode::F(8) if s.link_stopped.is_some() => KeyOutcome::TakeTableBack,
        KeyCode::F(1) => KeyOutcome::Act(Action::StartClock),
        KeyCode::F(2) => KeyOutcome::Act(Action::ClaimNaturalLimit { by: to_move }),
        KeyCode::F(3) => KeyOutcome::Act(Action::ClaimRepetition { by: to_move }),
        KeyCode::F(4) => KeyOutcome::Act(Action::OfferDraw { by: to_move }),
        KeyCode::F(5) => match s.draw_offer {
            Some(by) => KeyOutcome::Act(Action::AcceptDraw { by: by.other() }),
            None => {
                app.notice = Some("no draw offer to accept".into());
                KeyOutcome::Nothing
            }
        },
        KeyCode::F(6) => match s.draw_offer {
            Some(by) => KeyOutcome::Act(Action::DeclineDraw { by: by.other() }),
            None => KeyOutcome::Nothing,
        },
        KeyCode::F(7) => KeyOutcome::Act(Action::CallArbiter {
            by: to_move,
            reason: "called from the terminal".into(),
        }),
        KeyCode::Esc => {
            app.input.clear();
            KeyOutcome::Act(Action::ClearMove)
        }
        KeyCode::Backspace => {
            app.input.pop();
            KeyOutcome::Nothing
        }
        KeyCode::Char(' ') if app.input.is_empty() => KeyOutcome::Act(Action::Press),
        KeyCode::Enter if app.input.trim().is_empty() => {
            app.input.clear();
            KeyOutcome::Act(Action::Press)
        }
        KeyCode::Enter => {
            let text = std::mem::take(&mut app.input);
            command(app, text.trim())
        }
        KeyCode::Char(c) => {
            if app.input.chars().count() < 32 {
                app.input.push(c);
            }
            KeyOutcome::Nothing
        }
        _ => KeyOutcome::Nothing,
    }
}

fn command(app: &mut App, text: &str) -> KeyOutcome {
    let s = &app.screen;
    let to_move = s.to_move;
    let Some(cmd) = text.strip_prefix(':') else {
        return KeyOutcome::Act(Action::EnterMove(text.to_string()));
    };
    match cmd.trim() {
        "start" => KeyOutcome::Act(Action::StartClock),
        "limit" => KeyOutcome::Act(Action::ClaimNaturalLimit { by: to_move }),
        "rep" => KeyOutcome::Act(Action::ClaimRepetition { by: to_move }),
        "draw" => KeyOutcome::Act(Action::OfferDraw { by: to_move }),
        "accept" => match s.draw_offer {
            Some(by) => KeyOutcome::Act(Action::AcceptDraw { by: by.other() }),
            None => KeyOutcome::Nothing,
        },
        "decline" => match s.draw_offer {
            Some(by) => KeyOutcome::Act(Action::DeclineDraw { by: by.other() }),
            None => KeyOutcome::Nothing,
        },
        "arbiter" => KeyOutcome::Act(Action::CallArbiter {
            by: to_move,
            reason: "called from the terminal".into(),
        }),
        "resign" => KeyOutcome::Act(Action::Resign {
            by: to_move,
            reason: "resigned at the terminal".into(),
        }),
        "takeover" => KeyOutcome::TakeTableBack,
        "quit" | "q" => KeyOutcome::Quit,
        other => {
            app.notice = Some(format!("unknown command :{other}"));
            KeyOutcome::Nothing
        }
    }
}
