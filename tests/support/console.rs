//! The arbiter console under test in the end-to-end tests: its `App` fed
//! by the real network client (`console::net`), no terminal; keys pressed
//! as an arbiter presses them, the screen drawn on a test backend. A
//! console over several halls ([`Console::halls`]) runs one network task
//! per hall, as `caipan console --halls` does.

use std::net::SocketAddr;
use std::time::Duration;

use console::app::Outgoing;
use console::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use console::net::{self, NetConfig, NetEvent};
use console::ratatui::{backend::TestBackend, Terminal};
use console::{App, Lang};
use proto::Trust;
use tokio::sync::mpsc;

/// The console under test: its state, the network tasks' channels, a clock.
pub struct Console {
    pub app: App,
    cmds: Vec<mpsc::Sender<Outgoing>>,
    events: mpsc::Receiver<(usize, NetEvent)>,
    start: std::time::Instant,
}

/// One hall of a console over several: name, addresses, certificate, token.
pub struct HallAt<'a> {
    pub name: &'a str,
    pub servers: &'a [SocketAddr],
    pub fp: proto::Fingerprint,
    pub token: &'a str,
}

impl Console {
    pub fn new(addr: SocketAddr, fp: proto::Fingerprint, token: &str) -> Console {
        Console::with_servers(&[addr], fp, token)
    }

    /// A console given several addresses of one hall (tried in turn).
    pub fn with_servers(servers: &[SocketAddr], fp: proto::Fingerprint, token: &str) -> Console {
        Console::halls(&[HallAt {
            name: "",
            servers,
            fp,
            token,
        }])
    }

    /// One console over several halls.
    pub fn halls(halls: &[HallAt]) -> Console {
        let (cmds, events) = net::spawn_halls(
            halls
                .iter()
                .map(|h| NetConfig {
                    servers: h.servers.iter().map(|a| a.to_string()).collect(),
                    token: h.token.into(),
                    trust: Trust::Fingerprint(h.fp),
                })
                .collect(),
        );
        Console {
            app: App::with_halls(Lang::En, halls.iter().map(|h| h.name.to_string()).collect()),
            cmds,
            events,
            start: std::time::Instant::now(),
        }
    }

    /// Hands each command to its hall's network task.
    pub async fn send(&mut self, out: Vec<Outgoing>) {
        for o in out {
            self.cmds[o.hall].send(o).await.expect("network task alive");
        }
    }

    /// Feeds network events into the app until `done` holds (10 s at most).
    pub async fn until(&mut self, what: &str, done: impl Fn(&App) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while !done(&self.app) {
            let ev = tokio::time::timeout_at(deadline, self.events.recv())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "timed out waiting for {what}; conn {:?}; screen:\n{}",
                        self.app.link().conn,
                        self.screen()
                    )
                })
                .expect("network task alive");
            self.app.tick(self.start.elapsed().as_millis() as u64);
            let (hall, ev) = ev;
            let out = match ev {
                NetEvent::Conn(c) => {
                    self.app.set_conn_in(hall, c);
                    Vec::new()
                }
                NetEvent::Msg(m) => self.app.on_server_from(hall, m),
            };
            self.send(out).await;
        }
    }

    /// Feeds network events into the app for `d`; the link states seen.
    pub async fn for_a_while(&mut self, d: Duration) -> Vec<console::app::ConnState> {
        let deadline = tokio::time::Instant::now() + d;
        let mut seen = Vec::new();
        while let Ok(Some((hall, ev))) = tokio::time::timeout_at(deadline, self.events.recv()).await
        {
            match ev {
                NetEvent::Conn(c) => {
                    seen.push(c.clone());
                    self.app.set_conn_in(hall, c);
                }
                NetEvent::Msg(m) => {
                    let out = self.app.on_server_from(hall, m);
                    self.send(out).await;
                }
            }
        }
        seen
    }

    /// Presses Enter (open the selected table, submit a text).
    pub async fn enter(&mut self) {
        let out = self
            .app
            .on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        self.send(out).await;
    }

    pub async fn key(&mut self, c: char) {
        let out = self
            .app
            .on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        self.send(out).await;
    }

    pub fn screen(&self) -> String {
        let mut term = Terminal::new(TestBackend::new(120, 30)).expect("backend");
        term.draw(|f| console::ui::draw(f, &self.app))
            .expect("draw");
        let buf = term.backend().buffer();
        let mut out = String::new();
        for y in 0..buf.area.height {
            let mut skip = 0;
            for x in 0..buf.area.width {
                let s = buf[(x, y)].symbol();
                if skip == 0 {
                    out.push_str(s);
                }
                skip = usize::max(skip, console::width::width(s)).saturating_sub(1);
            }
            out.push('\n');
        }
        out
    }
}
