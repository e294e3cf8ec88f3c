//! The terminal loop (主循环): one `tokio::select!` over the keyboard
//! (crossterm's `EventStream`), the network task's events and a one-second
//! tick aligned to the wall clock's second, redrawing only when something
//! changed — never in a busy loop. Bursts of server messages are applied
//! together and drawn at most every [`MIN_FRAME`]. Over several halls there
//! is one network task per hall (`net::spawn_halls`); their events arrive
//! tagged with the hall, and each command goes to its hall's task only
//! ([`Outgoing::hall`]).
//!
//! The terminal is restored on every way out: normal exit, error, and
//! panic (ratatui's `init` installs a panic hook that restores it first).

use crate::app::{App, Outgoing};
use crate::i18n::{Lang, Words};
use crate::net::{self, HallLink, NetEvent};
use crate::ui;
use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::mpsc::Sender;
use tokio::time::{interval_at, sleep_until, MissedTickBehavior};
use tracing::{error, info};

/// The shortest time between two frames while messages stream in.
pub const MIN_FRAME: Duration = Duration::from_millis(50);

/// Console failures that end it.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("terminal: {0}")]
    Terminal(#[from] std::io::Error),
    /// Every hall refused the console for good (the token, the role, the
    /// protocol version, the certificate's fingerprint): it stops.
    #[error("refused by the server, not retrying: {0}")]
    Refused(String),
}

/// Options of one console session.
#[derive(Debug, Clone)]
pub struct Options {
    /// The halls followed (one, with an empty name, for a console of one
    /// hall).
    pub halls: Vec<HallLink>,
    pub lang: Lang,
    pub theme: crate::colours::Theme,
}

/// Time until the wall clock's next whole second.
fn until_next_second() -> Duration {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    Duration::from_millis(1000 - u64::from(now.subsec_millis()))
}

/// Runs the console in this terminal until the arbiter quits.
pub async fn run(opts: Options) -> Result<(), RunError> {
    let nets = opts.halls.iter().map(|h| h.net.clone()).collect();
    let (cmd_tx, mut net_rx) = net::spawn_halls(nets);
    let mut terminal = ratatui::try_init()?;
    let result = event_loop(&mut terminal, opts, &cmd_tx, &mut net_rx).await;
    ratatui::try_restore()?;
    if let Err(e) = &result {
        error!(error = %e, "console stopped");
    }
    result
}

async fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    opts: Options,
    cmd_tx: &[Sender<Outgoing>],
    net_rx: &mut tokio::sync::mpsc::Receiver<(usize, NetEvent)>,
) -> Result<(), RunError> {
    let start = Instant::now();
    let names = opts.halls.iter().map(|h| h.name.clone()).collect();
    let mut app = App::with_halls(opts.lang, names);
    app.theme = opts.theme;
    app.utc_offset_s = crate::walltime::local_utc_offset_s();
    let size = terminal.size()?;
    app.screen = (size.width, size.height);
    let mut keys = EventStream::new();
    let first = tokio::time::Instant::now() + until_next_second();
    let mut tick = interval_at(first, Duration::from_secs(1));
    tick.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut last_draw = tokio::time::Instant::now();
    let mut dirty = true;
    let now_ms = |start: Instant| u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    info!("console started");
    loop {
        app.tick(now_ms(start));
        if app.quit {
            break;
        }
        if let Some(why) = app.refused() {
            // Trying again cannot change a permanent refusal: stop, and
            // say why once the terminal is restored.
            error!(%why, "refused by the server for good; the console stops");
            return Err(RunError::Refused(why));
        }
        if dirty {
            let due = last_draw + MIN_FRAME;
            let now = tokio::time::Instant::now();
            if now >= due {
                terminal.draw(|f| ui::draw(f, &app))?;
                last_draw = now;
                dirty = false;
            }
        }
        let draw_at = last_draw + MIN_FRAME;
        tokio::select! {
            ev = keys.next() => match ev {
                Some(Ok(Event::Key(k))) => {
                    app.tick(now_ms(start));
                    for o in app.on_key(k) {
                        if let Err(e) = send(cmd_tx, o) {
                            app.notify(format!("{}: {e}", app.lang.s().server_refused), true);
                        }
                    }
                    dirty = true;
                    // Keys are drawn at once.
                    last_draw = tokio::time::Instant::now() - MIN_FRAME;
                }
                Some(Ok(Event::Resize(w, h))) => {
                    app.screen = (w, h);
                    dirty = true;
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
                None => break,
            },
            ev = net_rx.recv() => {
                let Some(ev) = ev else { break };
                app.tick(now_ms(start));
                apply(&mut app, ev, cmd_tx);
                // Apply the rest of a burst before drawing.
                let mut n = 0;
                while n < 10_000 {
                    match net_rx.try_recv() {
                        Ok(ev) => apply(&mut app, ev, cmd_tx),
                        Err(_) => break,
                    }
                    n += 1;
                }
                dirty = true;
            }
            _ = tick.tick() => dirty = true,
            _ = sleep_until(draw_at), if dirty => {}
        }
    }
    info!("console quit");
    Ok(())
}

/// Hands `o` to its hall's network task.
fn send(cmd_tx: &[Sender<Outgoing>], o: Outgoing) -> Result<(), String> {
    match cmd_tx.get(o.hall) {
        Some(tx) => tx.try_send(o).map_err(|e| e.to_string()),
        None => Err(format!("no hall {}", o.hall)),
    }
}

fn apply(app: &mut App, (hall, ev): (usize, NetEvent), cmd_tx: &[Sender<Outgoing>]) {
    match ev {
        NetEvent::Conn(c) => app.set_conn_in(hall, c),
        NetEvent::Msg(m) => {
            for o in app.on_server_from(hall, m) {
                let _ = send(cmd_tx, o);
            }
        }
    }
}
