//! The real-game replayer (对局回放): one terminal per table, each playing a
//! real game (game i of the list for the i-th table) with seeded think times
//! and clock presses, to the game's real end — mate or stalemate, or else
//! the side to move resigns with the reason "record ends". With incidents,
//! the first seven tables carry one scripted incident each (see
//! [`script::Incident`]).
//!
//! This is a library API so that `caipan table replay`, `caipan demo` and
//! the tests run the same code: [`run`]`(`[`ReplayOptions`]`) ->`
//! [`ReplayReport`].

mod player;
pub mod script;
pub mod think;

pub use script::{Incident, Script, Step};

use proto::{Connector, GameResult, Trust};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::Game;

/// What to replay and how.
#[derive(Clone)]
pub struct ReplayOptions {
    pub server: SocketAddr,
    /// The hall's other addresses (a standby server), tried after `server`.
    pub other_servers: Vec<SocketAddr>,
    pub trust: Trust,
    /// Tables to play, each with its token.
    pub tables: Vec<(u16, String)>,
    /// The games (e.g. from [`games_from_pgn`]); table at position i plays
    /// game i (modulo the count), incident tables the nearest game with a
    /// suitable spot.
    pub games: Arc<Vec<Game>>,
    /// Game time runs this many times faster than real time.
    pub speed: f64,
    /// Seed of the think times and the scripted walks.
    pub seed: u64,
    pub incidents: bool,
    /// Keep each terminal's outbox in this folder (None: in memory).
    pub outbox_dir: Option<PathBuf>,
    /// Real time a table waits for an arbiter's ruling (flag, limit claim)
    /// before the players settle it themselves.
    pub ruling_wait: Duration,
    /// Real time the "disconnect" incident stays offline.
    pub disconnect_for: Duration,
}

impl ReplayOptions {
    /// Options with the defaults: speed 30, seed 1, no incidents, outboxes
    /// in memory, 3 s ruling wait, 3 s disconnect.
    pub fn new(
        server: SocketAddr,
        trust: Trust,
        tables: Vec<(u16, String)>,
        games: Arc<Vec<Game>>,
    ) -> ReplayOptions {
        ReplayOptions {
            server,
            other_servers: Vec::new(),
            trust,
            tables,
            games,
            speed: 30.0,
            seed: 1,
            incidents: false,
            outbox_dir: None,
            ruling_wait: Duration::from_secs(3),
            disconnect_for: Duration::from_secs(3),
        }
    }
}

/// How one table's replay went.
#[derive(Debug, Clone)]
pub struct TableReport {
    pub table: u16,
    /// Index of the game played.
    pub game: usize,
    pub incident: Option<Incident>,
    /// Plies played on the board.
    pub plies: usize,
    /// The result the terminal shows at the end (None: not finished).
    pub result: Option<GameResult>,
    pub reason: String,
    /// Events reported by the terminal.
    pub events: u64,
    /// Every event acknowledged by the server.
    pub all_acked: bool,
    /// Errors (refusals by the engine, error replies from the server).
    pub errors: Vec<String>,
}

/// The whole replay.
#[derive(Debug, Clone)]
pub struct ReplayReport {
    pub tables: Vec<TableReport>,
    pub elapsed: Duration,
}

impl ReplayReport {
    /// Tables whose game reached its end with everything acknowledged.
    pub fn finished(&self) -> usize {
        self.tables
            .iter()
            .filter(|t| t.result.is_some() && t.all_acked)
            .count()
    }
}

/// Why the replay could not run.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("no games to replay")]
    NoGames,
    #[error(transparent)]
    Connect(#[from] proto::ConnError),
    #[error("no suitable game for the {0} incident")]
    NoIncidentSpot(&'static str),
    #[error("replay task failed: {0}")]
    Task(String),
}

/// Reads a PGN text and keeps every game that replays legally.
pub fn games_from_pgn(text: &str) -> Result<Vec<Game>, xiangqi::PgnError> {
    let raw = xiangqi::read_pgn(text)?;
    Ok(raw.iter().filter_map(|g| g.replay().ok()).collect())
}

/// The scripts of the tables (pure; the incident searches run here).
pub fn scripts(opts: &ReplayOptions) -> Result<Vec<Script>, ReplayError> {
    let games = &opts.games;
    if games.is_empty() {
        return Err(ReplayError::NoGames);
    }
    let mut out = Vec::with_capacity(opts.tables.len());
    for (i, _) in opts.tables.iter().enumerate() {
        let index = i % games.len();
        let script = match (opts.incidents, Incident::ALL.get(i)) {
            (true, Some(&inc)) => script::with_incident(games, index, inc, opts.seed)
                .ok_or(ReplayError::NoIncidentSpot(inc.name()))?,
            _ => script::plain(games, index),
        };
        out.push(script);
    }
    Ok(out)
}

/// Replays the games on every table at once; returns when all have ended.
pub async fn run(opts: ReplayOptions) -> Result<ReplayReport, ReplayError> {
    let started = Instant::now();
    let o = opts.clone();
    let scripts = tokio::task::spawn_blocking(move || scripts(&o))
        .await
        .map_err(|e| ReplayError::Task(e.to_string()))??;
    let connector = Connector::new(&opts.trust, opts.server.is_ipv6())?;
    let mut tasks = Vec::new();
    for ((table, token), script) in opts.tables.iter().cloned().zip(scripts) {
        let opts = opts.clone();
        let connector = connector.clone();
        tasks.push(tokio::spawn(async move {
            player::play(table, token, script, &opts, connector).await
        }));
    }
    let mut tables = Vec::new();
    for t in tasks {
        tables.push(t.await.map_err(|e| ReplayError::Task(e.to_string()))?);
    }
    Ok(ReplayReport {
        tables,
        elapsed: started.elapsed(),
    })
}
