//! The TUI's event loop on a real terminal: raw mode and the alternate
//! screen, keys from crossterm's event stream, redraws on every screen
//! update from the terminal task (and at least every 100 ms for the
//! running clock). stdout is the screen: logs go to a file.

use super::app::App;
use super::keys::{on_key, KeyOutcome};
use super::render::render;
use crate::terminal::TerminalHandle;
use crossterm::event::{Event, EventStream, KeyEventKind};
use futures::StreamExt;
use std::time::Duration;

/// Runs the screen until the user quits. `control` describes the time
/// control; `plain` draws without colours.
pub async fn run(
    handle: &TerminalHandle,
    control: String,
    plain: bool,
    langs: [i18n::Lang; 2],
) -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, handle, control, plain, langs).await;
    ratatui::restore();
    result
}

async fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    handle: &TerminalHandle,
    control: String,
    plain: bool,
    langs: [i18n::Lang; 2],
) -> std::io::Result<()> {
    let mut app = App::new(handle.screen(), control);
    app.plain = plain;
    app.langs = langs;
    let mut screens = handle.watch();
    let mut keys = EventStream::new();
    let mut redraw = tokio::time::interval(Duration::from_millis(100));
    while !app.quit {
        app.update(handle.screen());
        terminal.draw(|f| render(f, &app))?;
        tokio::select! {
            _ = redraw.tick() => {}
            changed = screens.changed() => {
                if changed.is_err() {
                    break;
                }
            }
            ev = keys.next() => match ev {
                Some(Ok(Event::Key(k))) if k.kind != KeyEventKind::Release => {
                    match on_key(&mut app, k) {
                        KeyOutcome::Quit => app.quit = true,
                        KeyOutcome::Act(a) => {
                            app.notice = match handle.act(a).await {
                                Ok(_) => None,
                                Err(e) => Some(e.to_string()),
                            };
                        }
                        KeyOutcome::TakeTableBack => {
                            app.notice = handle.take_table_back().await.err().map(|e| e.to_string());
                        }
                        KeyOutcome::Nothing => {}
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e),
                None => break,
            },
        }
    }
    Ok(())
}
