//! Helpers shared by the end-to-end test files (tests/server.rs,
//! tests/server_alerts.rs, tests/resilience.rs, tests/console.rs,
//! tests/table.rs, tests/export.rs): test hall configs, an in-process server,
//! QUIC clients as consoles and table terminals, `caipan serve` as a child
//! process; [`stores`]: a test body run on SQLite and on PostgreSQL.
//! Included with `mod support;`.
#![allow(dead_code, reason = "each test file uses its own part")]

pub mod console;
pub mod stores;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use config::HallConfig;
use proto::{
    Alert, ClaimView, ClientMsg, Command, Delta, ErrorCode, EventEnvelope, HallView, Hello,
    IccsMove, ServerMsg, Side, TableEvent, Trust, PROTOCOL_VERSION,
};
use server::{RunningServer, Server};

pub const CHIEF: &str = "test-chief-token-0123456789";
pub const DEPUTY: &str = "test-deputy-token-0123456789";
pub const VIEWER: &str = "test-viewer-token-0123456789";

pub fn table_token(t: u16) -> String {
    format!("test-table-{t}-token-0123456789")
}

/// A test hall as TOML: AXF rules (or `rules`), Fischer 80 min + 30 s, the chief 王志明,
/// optionally a deputy, a viewer and a table secret, the listed table tokens
/// and the rounds' games. Each test file sets what it needs and writes it
/// with [`Hall::toml`].
pub struct Hall {
    pub name: String,
    pub site: String,
    pub listen: String,
    /// `data_dir = "data"` under `[server]`.
    pub data_dir: bool,
    pub table_secret: Option<String>,
    pub chief: String,
    /// The deputy 陈立新's token and tables.
    pub deputy: Option<(String, Vec<u16>)>,
    /// The hall display's token.
    pub viewer: Option<String>,
    /// `[[credentials.table]]` entries: table and token.
    pub table_tokens: Vec<(u16, String)>,
    pub rounds: Vec<Round>,
    /// A `[store]` section (TOML text) putting the hall record in
    /// PostgreSQL; `None`: SQLite in the data dir.
    pub store: Option<String>,
    /// The rule set (`rules = "axf"` unless set).
    pub rules: String,
}

/// One round: its number, date, and the game (red, black) of table 1, 2, ….
pub struct Round {
    pub number: u32,
    pub date: Option<String>,
    pub games: Vec<(String, String)>,
    /// The number of the first game's table (1 unless set).
    pub first_table: u16,
}

impl Round {
    pub fn new(number: u32, players: &[(&str, &str)]) -> Round {
        Round {
            number,
            date: None,
            first_table: 1,
            games: players
                .iter()
                .map(|(r, b)| (r.to_string(), b.to_string()))
                .collect(),
        }
    }
}

/// A TOML basic string.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

impl Hall {
    /// A hall with the chief's token `CHIEF` and nothing else.
    pub fn new(name: &str, listen: &str) -> Hall {
        Hall {
            name: name.into(),
            site: "test hall".into(),
            listen: listen.into(),
            data_dir: true,
            table_secret: None,
            chief: CHIEF.into(),
            deputy: None,
            viewer: None,
            table_tokens: Vec::new(),
            rounds: Vec::new(),
            store: None,
            rules: "axf".into(),
        }
    }

    /// Tables 1..=n with tokens from [`table_token`] and round 1 playing
    /// `players` (one pair per table).
    pub fn with_tables(mut self, players: &[(&str, &str)]) -> Hall {
        let n = players.len() as u16;
        self.table_tokens = (1..=n).map(|t| (t, table_token(t))).collect();
        self.rounds = vec![Round::new(1, players)];
        self
    }

    pub fn toml(&self) -> String {
        let mut s = format!(
            "\nrules = {}\n[tournament]\nname = {}\nsite = {}\ndate = \"2026-11-29\"\n\
             kind = \"swiss\"\ncurrent_round = 1\n[time_control]\nkind = \"fischer\"\n\
             base_minutes = 80\nincrement_seconds = 30\n[server]\nlisten = {}\n",
            quoted(&self.rules),
            quoted(&self.name),
            quoted(&self.site),
            quoted(&self.listen)
        );
        if self.data_dir {
            s.push_str("data_dir = \"data\"\n");
        }
        if let Some(secret) = &self.table_secret {
            s.push_str(&format!(
                "[credentials]\ntable_secret = {}\n",
                quoted(secret)
            ));
        }
        s.push_str(&format!(
            "[credentials.chief]\nname = \"王志明\"\ntoken = {}\n",
            quoted(&self.chief)
        ));
        if let Some((token, tables)) = &self.deputy {
            s.push_str(&format!(
                "[[credentials.deputy]]\nname = \"陈立新\"\ntoken = {}\ntables = {tables:?}\n",
                quoted(token)
            ));
        }
        if let Some(token) = &self.viewer {
            s.push_str(&format!(
                "[[credentials.viewer]]\nname = \"大厅显示屏\"\ntoken = {}\n",
                quoted(token)
            ));
        }
        for (t, token) in &self.table_tokens {
            s.push_str(&format!(
                "[[credentials.table]]\ntable = {t}\ntoken = {}\n",
                quoted(token)
            ));
        }
        for round in &self.rounds {
            s.push_str(&format!("[[round]]\nnumber = {}\n", round.number));
            if let Some(date) = &round.date {
                s.push_str(&format!("date = {}\n", quoted(date)));
            }
            for (i, (r, b)) in round.games.iter().enumerate() {
                s.push_str(&format!(
                    "[[round.table]]\ntable = {}\nred = {}\nblack = {}\n",
                    usize::from(round.first_table) + i,
                    quoted(r),
                    quoted(b)
                ));
            }
        }
        if let Some(store) = &self.store {
            s.push_str(store);
        }
        s
    }

    /// This hall with its record in the PostgreSQL database at `url`, as
    /// hall `hall` of tournament `tournament`.
    pub fn on_postgres(mut self, url: &str, hall: &str, tournament: &str) -> Hall {
        self.store = Some(format!(
            "[store]\nurl = {}\nhall = {}\ntournament = {}\n",
            quoted(url),
            quoted(hall),
            quoted(tournament)
        ));
        self
    }

    pub fn config(&self, dir: &Path) -> HallConfig {
        config_from(&self.toml(), dir)
    }

    /// An in-process server for this hall, its data in `dir/data` (and
    /// its record in PostgreSQL when [`Hall::store`] says so, with the
    /// config copy kept there for exports).
    pub async fn start(&self, dir: &Path) -> RunningServer {
        let options = server::StartOptions {
            config_text: Some(self.toml()),
            ..Default::default()
        };
        Server::start_with(self.config(dir), &dir.join("data"), options)
            .await
            .expect("server starts")
    }
}

/// The players of the standard test hall's round 1.
pub const PLAYERS: [(&str, &str); 4] = [
    ("胡荣华", "许银川"),
    ("吕钦", "赵国荣"),
    ("徐天红", "柳大华"),
    ("李来群", "杨官璘"),
];

/// The standard test hall: 4 tables, a deputy for tables 1 and 2, a viewer.
pub fn hall(listen: &str) -> Hall {
    let mut h = Hall::new("测试赛", listen).with_tables(&PLAYERS);
    h.deputy = Some((DEPUTY.into(), vec![1, 2]));
    h.viewer = Some(VIEWER.into());
    h
}

pub fn config_text(listen: &str) -> String {
    hall(listen).toml()
}

pub fn config_from(text: &str, dir: &Path) -> HallConfig {
    HallConfig::from_toml_str(text, dir, &|_| None).expect("test config")
}

pub fn config(dir: &Path) -> HallConfig {
    config_from(&config_text("127.0.0.1:0"), dir)
}

pub async fn start(dir: &Path) -> RunningServer {
    start_with(dir, config(dir)).await
}

/// An in-process server for `config`, its data in `dir/data`.
pub async fn start_with(dir: &Path, config: HallConfig) -> RunningServer {
    Server::start(config, &dir.join("data"))
        .await
        .expect("server starts")
}

/// A connected client.
pub struct Client {
    pub c: proto::ClientConn,
    pub hello: proto::HelloOk,
    /// The rest of a fan-out tick's deltas (protocol 11), given by
    /// [`Client::recv`] one `Delta` at a time.
    held: std::collections::VecDeque<ServerMsg>,
    /// The tables as this client was last sent them (its snapshot, whole
    /// views, steps applied): a table's step (protocol 12) is given to the
    /// test as the whole view it makes ([`Client::take`]).
    views: std::collections::BTreeMap<u16, proto::TableView>,
    /// Table steps received and applied.
    pub steps: u64,
    /// Whole table views received in deltas.
    pub wholes: u64,
    /// Bytes of the delta messages received (their encoding).
    pub delta_bytes: u64,
    /// Bytes of the table deltas received (whole views and steps).
    pub table_bytes: u64,
    /// Bytes the same table deltas would have been as whole views.
    pub table_bytes_whole: u64,
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
    Ok(Client {
        c,
        hello,
        held: Default::default(),
        views: Default::default(),
        steps: 0,
        wholes: 0,
        delta_bytes: 0,
        table_bytes: 0,
        table_bytes_whole: 0,
    })
}

impl Client {
    pub async fn send(&mut self, m: ClientMsg) {
        self.c.send(&m).await.expect("send");
    }

    /// The next message; a tick's `Deltas` (protocol 11) is given as one
    /// `Delta` message each, in order.
    pub async fn recv(&mut self) -> ServerMsg {
        loop {
            if let Some(m) = self.held.pop_front() {
                return m;
            }
            let m = tokio::time::timeout(Duration::from_secs(10), self.c.recv())
                .await
                .expect("reply within 10 s")
                .expect("message");
            let ms = self.take(m);
            self.held.extend(ms);
        }
    }

    /// A message as received, as the tests read it: a tick's `Deltas`
    /// (protocol 11) one `Delta` each, in order, and a table's step
    /// (protocol 12) applied to the client's view of the table and given
    /// as the whole view it makes. A step whose base the client does not
    /// hold fails the test (the server must never send one).
    pub fn take(&mut self, m: ServerMsg) -> Vec<ServerMsg> {
        match &m {
            ServerMsg::Snapshot(v) => {
                self.views = v.tables.iter().map(|t| (t.table, t.clone())).collect();
            }
            ServerMsg::SnapshotPage(p) => {
                if p.page == 0 {
                    self.views.clear();
                }
                let tables = p.view.tables.iter().map(|t| (t.table, t.clone()));
                self.views.extend(tables);
            }
            ServerMsg::Delta(_) | ServerMsg::Deltas(_) => {
                self.delta_bytes += proto::codec::encoded_len(&m) as u64;
            }
            _ => {}
        }
        m.unpacked()
            .into_iter()
            .map(|m| match m {
                ServerMsg::Delta(Delta::Table(t)) => {
                    self.wholes += 1;
                    let whole = Delta::Table(t);
                    let len = proto::codec::encoded_len(&whole) as u64;
                    (self.table_bytes, self.table_bytes_whole) =
                        (self.table_bytes + len, self.table_bytes_whole + len);
                    if let Delta::Table(t) = &whole {
                        self.views.insert(t.table, proto::TableView::clone(t));
                    }
                    ServerMsg::Delta(whole)
                }
                ServerMsg::Delta(Delta::TableStep(step)) => {
                    self.steps += 1;
                    let Some(view) = self.views.get_mut(&step.table) else {
                        panic!("a step of table {} the client holds no view of", step.table);
                    };
                    if let Err(e) = step.apply(view) {
                        panic!("a step the client cannot apply: {e}");
                    }
                    let whole = Delta::Table(std::sync::Arc::new(view.clone()));
                    self.table_bytes += proto::codec::encoded_len(&Delta::TableStep(step)) as u64;
                    self.table_bytes_whole += proto::codec::encoded_len(&whole) as u64;
                    ServerMsg::Delta(whole)
                }
                m => m,
            })
            .collect()
    }

    /// The tables as this client holds them, in number order.
    pub fn tables(&self) -> Vec<proto::TableView> {
        self.views.values().cloned().collect()
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
                Some(Err((e.code.clone(), i18n::texts::english(&e.message))))
            }
            _ => None,
        })
        .await
    }

    /// The next alert pushed to this console that `f` accepts.
    pub async fn alert_where(&mut self, f: impl Fn(&Alert) -> bool) -> Alert {
        self.until(|m| match m {
            ServerMsg::Delta(Delta::Alert(a)) if f(a) => Some(a.clone()),
            _ => None,
        })
        .await
    }

    /// The next claim pushed to this console that `f` accepts.
    pub async fn claim_where(&mut self, f: impl Fn(&ClaimView) -> bool) -> ClaimView {
        self.until(|m| match m {
            ServerMsg::Delta(Delta::Claim(c)) if f(c) => Some(c.clone()),
            _ => None,
        })
        .await
    }

    pub async fn subscribe(&mut self) -> HallView {
        self.command(1_000_000, Command::Subscribe)
            .await
            .expect("subscribe");
        self.snapshot().await
    }

    /// The next whole snapshot: one `Snapshot`, or the pages of one put
    /// together (protocol 8).
    pub async fn snapshot(&mut self) -> HallView {
        let mut pages = proto::paging::Assembly::default();
        self.until(|m| match m {
            ServerMsg::Snapshot(v) => Some((**v).clone()),
            ServerMsg::SnapshotPage(p) => pages.take((**p).clone()).expect("pages in order"),
            _ => None,
        })
        .await
    }
}

/// The chief's console, subscribed to the hall.
pub async fn chief(s: &RunningServer) -> Client {
    let mut c = connect(s.addr, s.fingerprint, CHIEF)
        .await
        .expect("chief connects");
    c.subscribe().await;
    c
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

    /// Sends ICCS moves as clock presses (Red first) without waiting for
    /// their acks; returns the envelopes sent.
    pub async fn send_presses(&mut self, moves: &[&str]) -> Vec<EventEnvelope> {
        let mut sent = Vec::new();
        let mut side = Side::Red;
        for m in moves {
            let env = self.env(press(side, m, 4_000_000, 4_000_000));
            sent.push(env.clone());
            self.c.send(ClientMsg::Event(env)).await;
            side = side.other();
        }
        sent
    }

    /// Reads until an ack of `seq` or later; returns the last acked seq.
    pub async fn acked_through(&mut self, seq: u64) -> u64 {
        let mut acked = 0;
        while acked < seq {
            if let ServerMsg::Ack(a) = self.c.recv().await {
                acked = a.seq;
            }
        }
        acked
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

/// The chief sets each table's result over a raw console connection (as
/// from the result sheets, 结果单).
pub async fn close_round(s: &RunningServer, results: &[(u16, proto::GameResult)]) {
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    for (i, (table, result)) in results.iter().enumerate() {
        chief
            .command(
                i as u64 + 1,
                Command::SetResult {
                    table: *table,
                    result: *result,
                    reason: "结果单".into(),
                },
            )
            .await
            .expect("result set");
    }
}

/// Runs the `caipan` binary with `args`; its stdout (it must succeed).
pub fn caipan(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(args)
        .output()
        .expect("run caipan");
    assert!(
        out.status.success(),
        "caipan {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}
