//! Helpers shared by the end-to-end test files (tests/server.rs,
//! tests/resilience.rs): a test hall config, an in-process server, QUIC
//! clients as consoles and table terminals, `caipan serve` as a child
//! process. Included with `mod support;`.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use proto::{
    ClientMsg, Command, ErrorCode, EventEnvelope, HallView, Hello, IccsMove, ServerMsg, Side,
    TableEvent, Trust, PROTOCOL_VERSION,
};
use server::config::HallConfig;
use server::{RunningServer, Server};

pub const CHIEF: &str = "test-chief-token-0123456789";
pub const DEPUTY: &str = "test-deputy-token-0123456789";
pub const VIEWER: &str = "test-viewer-token-0123456789";

pub fn table_token(t: u16) -> String {
    format!("test-table-{t}-token-0123456789")
}

pub fn config_text(listen: &str) -> String {
    let mut s = format!(
        r#"
rules = "axf"
[tournament]
name = "测试赛"
site = "test hall"
date = "2026-11-29"
kind = "swiss"
current_round = 1
[time_control]
kind = "fischer"
base_minutes = 80
increment_seconds = 30
[server]
listen = "{listen}"
data_dir = "data"
[credentials.chief]
name = "王志明"
token = "{CHIEF}"
[[credentials.deputy]]
name = "陈立新"
token = "{DEPUTY}"
tables = [1, 2]
[[credentials.viewer]]
name = "大厅显示屏"
token = "{VIEWER}"
"#
    );
    for t in 1..=4u16 {
        s.push_str(&format!(
            "[[credentials.table]]\ntable = {t}\ntoken = \"{}\"\n",
            table_token(t)
        ));
    }
    s.push_str("[[round]]\nnumber = 1\n");
    let names = [
        ("胡荣华", "许银川"),
        ("吕钦", "赵国荣"),
        ("徐天红", "柳大华"),
        ("李来群", "杨官璘"),
    ];
    for (i, (r, b)) in names.iter().enumerate() {
        s.push_str(&format!(
            "[[round.table]]\ntable = {}\nred = \"{r}\"\nblack = \"{b}\"\n",
            i + 1
        ));
    }
    s
}

pub fn config(dir: &Path) -> HallConfig {
    HallConfig::from_toml_str(&config_text("127.0.0.1:0"), dir, &|_| None).expect("test config")
}

pub async fn start(dir: &Path) -> RunningServer {
    Server::start(config(dir), &dir.join("data"))
        .await
        .expect("server starts")
}

/// A connected client.
pub struct Client {
    pub c: proto::ClientConn,
    pub hello: proto::HelloOk,
}

pub async fn connect(
    addr: SocketAddr,
    fp: proto::Fingerprint,
    token: &str,
) -> Result<Client, proto::ConnError> {
    let hello = Hello {
        protocol_version: PROTOCOL_VERSION,
        token: token.to_string(),
        client: "server-test".into(),
    };
    let c = proto::connect(addr, &Trust::Fingerprint(fp), hello).await?;
    let hello = c.hello_ok.clone();
    Ok(Client { c, hello })
}

impl Client {
    pub async fn send(&mut self, m: ClientMsg) {
        self.c.send(&m).await.expect("send");
    }

    pub async fn recv(&mut self) -> ServerMsg {
        tokio::time::timeout(Duration::from_secs(10), self.c.recv())
            .await
            .expect("reply within 10 s")
            .expect("message")
    }

    /// The next message matching `f`, skipping others.
    pub async fn until<T>(&mut self, mut f: impl FnMut(&ServerMsg) -> Option<T>) -> T {
        loop {
            let m = self.recv().await;
            if let Some(t) = f(&m) {
                return t;
            }
        }
    }

    pub async fn command(
        &mut self,
        id: u64,
        command: Command,
    ) -> Result<String, (ErrorCode, String)> {
        self.send(ClientMsg::Command { id, command }).await;
        self.until(|m| match m {
            ServerMsg::CommandOk { id: i, note } if *i == id => Some(Ok(note.clone())),
            ServerMsg::Error(e) if e.re == Some(proto::RequestRef::Command { id }) => {
                Some(Err((e.code.clone(), e.message.clone())))
            }
            _ => None,
        })
        .await
    }

    pub async fn subscribe(&mut self) -> HallView {
        self.command(1_000_000, Command::Subscribe)
            .await
            .expect("subscribe");
        self.until(|m| match m {
            ServerMsg::Snapshot(v) => Some((**v).clone()),
            _ => None,
        })
        .await
    }
}

/// A table terminal numbering its events.
pub struct Terminal {
    pub c: Client,
    pub table: u16,
    pub epoch: u32,
    pub seq: u64,
}

impl Terminal {
    pub async fn open(addr: SocketAddr, fp: proto::Fingerprint, table: u16) -> Terminal {
        let c = connect(addr, fp, &table_token(table))
            .await
            .expect("table connects");
        let s = c.hello.table.clone().expect("table session");
        let epoch = s.epoch.max(1);
        let seq = if s.epoch == 0 { 0 } else { s.high_water };
        Terminal {
            c,
            table,
            epoch,
            seq,
        }
    }

    pub fn env(&mut self, body: TableEvent) -> EventEnvelope {
        self.seq += 1;
        EventEnvelope {
            table: self.table,
            epoch: self.epoch,
            seq: self.seq,
            body,
        }
    }

    /// Sends an event and waits for its ack.
    pub async fn event(&mut self, body: TableEvent) -> proto::Ack {
        let env = self.env(body);
        let seq = env.seq;
        self.c.send(ClientMsg::Event(env)).await;
        self.c
            .until(|m| match m {
                ServerMsg::Ack(a) if a.seq >= seq => Some(*a),
                ServerMsg::Error(e) => panic!("event refused: {e:?}"),
                _ => None,
            })
            .await
    }

    /// Plays ICCS moves as clock presses with plausible times.
    pub async fn play(&mut self, moves: &[&str], first: Side) {
        let mut side = first;
        for m in moves {
            self.event(press(side, m, 4_000_000, 4_000_000)).await;
            side = side.other();
        }
    }
}

pub fn mv(s: &str) -> IccsMove {
    IccsMove::parse(s).expect("iccs")
}

pub fn press(by: Side, m: &str, red_ms: u64, black_ms: u64) -> TableEvent {
    TableEvent::ClockPress {
        by,
        mv: Some(mv(m)),
        red_ms,
        black_ms,
        terminal_mono_ms: 0,
    }
}

pub async fn delta_until<T>(console: &mut Client, f: impl FnMut(&ServerMsg) -> Option<T>) -> T {
    console.until(f).await
}

/// `caipan serve --config CFG --data DATA` as a child process, with the
/// address and fingerprint it printed.
pub async fn spawn_serve(
    cfg: &Path,
    data: &Path,
) -> (std::process::Child, SocketAddr, proto::Fingerprint) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["serve", "--config"])
        .arg(cfg)
        .arg("--data")
        .arg(data)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn caipan serve");
    let stdout = child.stdout.take().unwrap();
    let (addr, fp) = tokio::task::spawn_blocking(move || {
        let mut addr = None;
        let mut fp = None;
        let mut lines = std::io::BufReader::new(stdout).lines();
        for line in lines.by_ref() {
            let line = line.unwrap();
            if let Some(a) = line.strip_prefix("listening on ") {
                addr = Some(a.trim().parse::<SocketAddr>().unwrap());
            }
            if let Some(f) = line.strip_prefix("certificate sha256 fingerprint ") {
                fp = Some(f.trim().parse::<proto::Fingerprint>().unwrap());
            }
            if addr.is_some() && fp.is_some() {
                break;
            }
        }
        // Keep draining stdout so the child never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        (addr.unwrap(), fp.unwrap())
    })
    .await
    .unwrap();
    (child, addr, fp)
}
