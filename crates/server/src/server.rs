//! The server (服务器): start (identity, store, rebuild from the latest
//! snapshot and the current round's rows after it, pipeline thread, QUIC
//! endpoint, accept loop with admission and Retry, ticker) and graceful
//! shutdown (stop accepting, append the counted refusals, commit what is
//! queued, save a final snapshot, checkpoint the store so `hall.db` alone
//! is complete, close).
//!
//! Embedding API (the demo, the bench and the tests run the server in
//! process):
//!
//! ```no_run
//! # async fn f(config: config::HallConfig) -> Result<(), server::ServerError> {
//! let running = server::Server::start(config, std::path::Path::new("data/hall")).await?;
//! println!("{} {}", running.addr, running.fingerprint);
//! running.shutdown().await?;
//! # Ok(()) }
//! ```

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use proto::{Fingerprint, ServerIdentity};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::auth::Authenticator;
use crate::ingest::{now_ms, run_committer, Stopped, Submitter, QUEUE};
use crate::journal::{Journal, StoreJournal};
use crate::shared::Shared;
use crate::snapshot::{Basis, Snapshotter};
use config::HallConfig;
use hall::hall::Hall;
use hall::record::{Note, Record};
use store::{OpenOptions, PgOptions, PgStore, SqliteStore, Store};

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// TLS identity or endpoint.
    #[error("tls: {0}")]
    Tls(#[from] proto::TlsError),
    /// The store.
    #[error(transparent)]
    Store(#[from] crate::journal::JournalError),
    /// A fatal error while running (e.g. a failed fsync).
    #[error("server stopped: {0}")]
    Fatal(String),
    /// Opening the event store.
    #[error(transparent)]
    OpenStore(#[from] store::StoreError),
    /// Other I/O.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// The hall could not be rebuilt from the store (a stored record that
    /// does not decode is named by its gseq).
    #[error("rebuild: {0}")]
    Rebuild(#[from] crate::rebuild::RebuildError),
    /// This hall's table numbers collide with another hall's of the
    /// tournament (or could not be checked).
    #[error(transparent)]
    Tables(#[from] crate::tournament_tables::TablesError),
}

/// Namespace of [`Server::start`].
pub struct Server;

/// A running server.
pub struct RunningServer {
    /// The bound UDP address.
    pub addr: SocketAddr,
    /// SHA-256 fingerprint of the certificate (for clients that pin it).
    pub fingerprint: Fingerprint,
    /// The certificate, DER.
    pub cert_der: Vec<u8>,
    /// The certificate file in the data dir.
    pub cert_path: Option<PathBuf>,
    /// Records of the round the rebuilt hall holds (from its snapshot and
    /// replayed).
    pub rebuilt_records: u64,
    /// Records replayed from the log on start (after the snapshot, if any).
    pub replayed_records: u64,
    /// The snapshot cut the hall was restored from (`None`: replayed the round).
    pub snapshot_cut: Option<u64>,
    shared: Arc<Shared>,
    stop_tx: watch::Sender<bool>,
    task: JoinHandle<Result<(), ServerError>>,
}

/// Stops a server from elsewhere (Ctrl-C handler, tests).
#[derive(Clone)]
pub struct ShutdownHandle(watch::Sender<bool>);

impl ShutdownHandle {
    /// Asks the server to stop.
    pub fn shutdown(&self) {
        self.0.send_replace(true);
    }
}

impl RunningServer {
    /// A handle that stops the server.
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        ShutdownHandle(self.stop_tx.clone())
    }

    /// QUIC Retries sent since the start (address validation under load).
    pub fn retries(&self) -> u64 {
        self.shared.admission.retries()
    }

    /// The committer's time per stage so far (`caipan bench hall`).
    pub fn stages(&self) -> crate::stages::StageFigures {
        self.shared.stages.figures()
    }

    /// Catch-ups and whole snapshots sent so far to consoles that fell
    /// behind (tests, `caipan bench hall`).
    pub fn lagging_consoles(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let p = &self.shared.publisher;
        (p.catch_ups.load(Relaxed), p.whole_snapshots.load(Relaxed))
    }

    /// Frames consoles' queues had no room for so far (each marks its
    /// console lagged; tests).
    pub fn console_frames_dropped(&self) -> u64 {
        self.shared
            .publisher
            .dropped
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The hall's public picture and events, for the broadcast.
    pub fn public_feed(&self) -> crate::public_feed::PublicFeed {
        crate::public_feed::PublicFeed::new(self.shared.clone())
    }

    /// A copy of the hall view now (tests, tools).
    pub fn snapshot(&self) -> Option<proto::HallView> {
        self.shared.hall.lock().ok().map(|h| h.snapshot(now_ms()))
    }

    /// Stops the server and waits until everything queued is stored.
    pub async fn shutdown(self) -> Result<(), ServerError> {
        self.stop_tx.send_replace(true);
        self.wait().await
    }

    /// Waits until the server stops (by a shutdown or a fatal error).
    pub async fn wait(self) -> Result<(), ServerError> {
        match self.task.await {
            Ok(r) => r,
            Err(e) => Err(ServerError::Fatal(format!("server task: {e}"))),
        }
    }
}

/// Options of [`Server::start_with`] (tests and benches).
#[derive(Debug, Clone, Default)]
pub struct StartOptions {
    /// SQLite VFS for the store's writing connection (`None`: the default).
    /// Storage-fault tests pass [`store::faults::VFS_NAME`] after
    /// `faults::arm(data_dir)` to make fsync or writes fail under a running
    /// server.
    pub store_vfs: Option<String>,
    /// When to take snapshots (`None`: [`crate::snapshot::Policy::default`]).
    pub snapshot_policy: Option<crate::snapshot::Policy>,
    /// The config text (on PostgreSQL, its secret-free copy is kept with
    /// the hall for `caipan export --store`; with SQLite `caipan serve`
    /// writes it to the data dir itself).
    pub config_text: Option<String>,
    /// On PostgreSQL, how to wait while another server holds the hall (a
    /// standby, README "A standby server"; `None`: the defaults).
    pub standby: Option<store::postgres::Standby>,
    /// A stored record that does not decode on start: refuse to start
    /// (the default) or set it aside and raise an alert
    /// (`caipan serve --quarantine-undecodable`).
    pub quarantine: crate::rebuild::Quarantine,
}

impl Server {
    /// Starts a server for `config` with its store and certificate in `data_dir`
    /// (listening on `config.server.listen`; port 0 picks a free port).
    pub async fn start(config: HallConfig, data_dir: &Path) -> Result<RunningServer, ServerError> {
        Self::start_with(config, data_dir, StartOptions::default()).await
    }

    /// [`Server::start`] with [`StartOptions`].
    pub async fn start_with(
        config: HallConfig,
        data_dir: &Path,
        options: StartOptions,
    ) -> Result<RunningServer, ServerError> {
        let identity = ServerIdentity::load_or_create(data_dir)?;
        let (store, round_first) = open_store(&config, data_dir, &options).await?;
        // The rounds published from the console follow the config's round.
        let (config, round_first) =
            effective(config, data_dir, store.as_ref(), round_first).await?;
        let rt = tokio::runtime::Handle::current();
        let policy = options.snapshot_policy.unwrap_or_default();
        let basis = Basis::of(&config, round_first);
        let hall = crate::rebuild::hall_from_config(&config);
        let t0 = std::time::Instant::now();
        let rebuilt =
            crate::rebuild::rebuild_from(&*store, &basis, hall, options.quarantine).await?;
        let mut hall = rebuilt.hall;
        let before = round_before(&config, data_dir, &*store, &hall, options.quarantine).await?;
        let before_first = before.as_ref().map(|(_, first)| *first);
        if let Some((before, _)) = before {
            hall.adopt_previous(before);
        }
        tracing::info!(
            records = rebuilt.records,
            quarantined = rebuilt.quarantined.len(),
            other_rounds = rebuilt.other_rounds,
            snapshot_cut = rebuilt.snapshot.as_ref().map(|s| s.0),
            round_first_gseq = basis.round_first_gseq,
            ms = t0.elapsed().as_millis() as u64,
            "hall rebuilt from the store"
        );
        let rebuilt_records = hall.applied();
        let mut journal = StoreJournal::new(store.clone(), rt.clone());
        journal.set_position(rebuilt.upto_gseq);
        let mut snapshots = Snapshotter::new(
            basis,
            policy,
            store.clone(),
            rt.clone(),
            rebuilt.snapshot.clone(),
        );
        snapshots.set_high_water(&rebuilt.high_water);
        if let Some(first) = before_first {
            snapshots.set_round_before_first(first);
        }
        // After a long replay, a cut now keeps the next start short.
        if rebuilt.records > 0
            && (rebuilt.snapshot.is_none()
                || rebuilt.records >= policy.hall_trigger(hall.tables().len()) / 2)
        {
            snapshots.cut_in_background(&mut hall, rebuilt.upto_gseq);
        }
        let tables_in_round = hall.tables().len();
        let was_online: Vec<u16> = hall
            .tables()
            .values()
            .filter(|t| t.online)
            .map(|t| t.table)
            .collect();

        // The parts first, then the shared state, complete.
        let (tx, rx) = mpsc::channel(QUEUE);
        let submitter = Submitter::new(tx);
        let export = Arc::new(crate::export::command::Source::new(
            data_dir,
            config.clone(),
        ));
        let shared = Arc::new(Shared::new(
            hall,
            Authenticator::from_config(&config),
            config.server.limits,
            submitter.clone(),
            export,
        ));
        let committer = {
            let shared = shared.clone();
            let hw = rebuilt.high_water.clone();
            let journal: Box<dyn Journal> = Box::new(journal);
            std::thread::Builder::new()
                .name("caipan-commit".into())
                .spawn(move || run_committer(journal, rx, shared, hw, snapshots))?
        };
        note_restart(&submitter, was_online, &rebuilt.quarantined).await?;

        let endpoint = identity
            .shell_with_receive_buffer(config.server.listen, udp_receive_buffer(tables_in_round))?;
        let addr = endpoint.local_addr()?;
        let (stop_tx, stop_rx) = watch::channel(false);
        let task = tokio::spawn(run(shared.clone(), endpoint, stop_rx, committer, store));
        Ok(RunningServer {
            addr,
            fingerprint: identity.fingerprint(),
            cert_der: identity.cert_der().to_vec(),
            cert_path: identity.cert_path().map(Path::to_path_buf),
            rebuilt_records,
            replayed_records: rebuilt.records,
            snapshot_cut: rebuilt.snapshot.as_ref().map(|s| s.0),
            shared,
            stop_tx,
            task,
        })
    }
}

/// What a start notes before anyone connects: the terminals connected
/// before the stop are not connected now, and each record set aside by
/// the operator's choice is stored as a note (the audit trail keeps it)
/// that raises a hall-wide alert.
async fn note_restart(
    submitter: &Submitter,
    was_online: Vec<u16>,
    quarantined: &[hall::replay::ReplayError],
) -> Result<(), ServerError> {
    // Terminals connected before the stop are not connected now.
    for t in was_online {
        submitter.note_online(t, false, now_ms()).await;
    }

    // Records set aside by the operator's choice: each stored as a note
    // (the audit trail keeps it) that raises a hall-wide alert, in
    // place before anyone connects.
    for q in quarantined {
        tracing::error!(gseq = q.gseq, error = %q.error, "stored record set aside (--quarantine-undecodable)");
        let note = Note::RecordQuarantined {
            gseq: q.gseq,
            error: q.error.to_string(),
        };
        let stored = match submitter.submit(Record::Note(note), now_ms()).await {
            Some(rx) => rx.await.ok(),
            None => None,
        };
        if !matches!(stored, Some(crate::ingest::Reply::Done(_))) {
            submitter.stop().await;
            return Err(ServerError::Fatal(format!(
                "the note of the record set aside at gseq {} was not stored",
                q.gseq
            )));
        }
    }
    Ok(())
}

async fn run(
    shared: Arc<Shared>,
    endpoint: proto::shell::Endpoint,
    mut stop: watch::Receiver<bool>,
    committer: std::thread::JoinHandle<Stopped>,
    store: Arc<dyn Store>,
) -> Result<(), ServerError> {
    let mut fatal = shared.fatal_tx.subscribe();
    let submitter = shared.submitter.clone();
    let ticker = tokio::spawn(tick_loop(shared.clone()));
    // The consoles' deltas, one frame per fan-out tick (publish.rs).
    let fan_out = {
        let shared = shared.clone();
        tokio::spawn(async move { shared.publisher.run_ticks().await })
    };
    // A hall on PostgreSQL follows its tournament's rounds (halls_round).
    let follower = tokio::spawn(crate::halls_round::follow(shared.clone(), store.clone()));
    // A store that fails on its own (its writer lost the hall to a standby)
    // stops the server even when nothing is being committed.
    let mut store_failed = store.failure();
    let mut store_watch = true;
    loop {
        tokio::select! {
            incoming = endpoint.accept() => {
                let Some(incoming) = incoming else {
                    // Only closing ends it, and that comes after this loop.
                    shared.fatal("the QUIC transport stopped: its thread ended".into());
                    break;
                };
                admit(&shared, incoming);
            }
            _ = stop.changed() => break,
            _ = fatal.changed() => break,
            changed = store_failed.changed(), if store_watch => {
                if changed.is_err() {
                    store_watch = false;
                    continue;
                }
                let why = store_failed.borrow().clone();
                if let Some(why) = why {
                    shared.fatal(format!("store failed: {why}"));
                    break;
                }
            }
        }
    }
    tracing::info!("shutting down: no new connections");
    ticker.abort();
    follower.abort();
    fan_out.abort();
    // Refusals counted in windows still open are appended, not lost.
    let now = now_ms();
    for rec in shared
        .refusals
        .flush(now)
        .into_iter()
        .chain(shared.takeovers.flush())
    {
        submitter.submit_quiet(rec, now).await;
    }
    endpoint.close(0u32.into(), b"server shutting down");
    // Commit everything queued before the stop marker, then let the committer end.
    submitter.stop().await;
    drop(submitter);
    let stopped = tokio::task::spawn_blocking(move || committer.join())
        .await
        .ok()
        .and_then(|r| r.ok());
    let (store_error, snapshots) = match stopped {
        Some(Stopped { error, snapshots }) => (error, Some(snapshots)),
        None => (Some("the committer thread panicked".into()), None),
    };
    if let (None, Some(mut snapshots)) = (&store_error, snapshots) {
        if shared.fatal_tx.borrow().is_none() {
            final_snapshot(&shared, &mut snapshots).await;
        }
    }
    if store_error.is_none() && shared.fatal_tx.borrow().is_none() {
        // hall.db alone is then complete (safe to copy after the round).
        let checkpointed = tokio::task::spawn_blocking(move || store.checkpoint()).await;
        match checkpointed {
            Ok(Ok(())) => tracing::info!("store checkpointed: hall.db holds every stored record"),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "store not checkpointed; keep hall.db-wal with hall.db")
            }
            Err(e) => tracing::warn!(error = %e, "store checkpoint task failed"),
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), endpoint.wait_idle()).await;
    let why = shared.fatal_tx.borrow().clone();
    match (store_error, why) {
        (Some(e), _) => Err(ServerError::Fatal(e)),
        (None, Some(w)) => Err(ServerError::Fatal(w)),
        (None, None) => Ok(()),
    }
}

/// A new connection attempt: a QUIC Retry first when too many handshakes
/// are in progress and the address is not validated yet; then a place
/// among the connections not signed in (waiting up to the hello deadline
/// for one, else refused), its turn in the handshake pace (else dropped
/// unanswered), the handshake, and the connection served.
fn admit(shared: &Arc<Shared>, incoming: proto::shell::Incoming) {
    let remote = incoming.remote_address();
    let admission = shared.admission.clone();
    if admission.wants_retry() && !incoming.remote_address_validated() && incoming.may_retry() {
        match incoming.retry() {
            Ok(()) => admission.retried(),
            Err(e) => tracing::info!(%remote, error = %e, "retry not sent"),
        }
        return;
    }
    let handshake = admission.handshake();
    let shared = shared.clone();
    tokio::spawn(async move {
        let patience = proto::conn::SERVER_HELLO_DEADLINE;
        let Some(pending) = admission.admit(remote.ip(), patience).await else {
            tracing::warn!(%remote, "too many connections not signed in: refused");
            incoming.refuse();
            return;
        };
        // Its turn among the handshakes of a storm (admission's pace); too
        // late a turn: dropped unanswered, its client sends again.
        if !admission.pace().await {
            tracing::debug!(%remote, "handshake paced away: its client will send again");
            incoming.ignore();
            return;
        }
        let connecting = incoming.accept().await;
        drop(handshake);
        match connecting {
            // Its own task: this one's state (the admission's, the
            // handshake's) would stay in the connection's for its whole
            // life (issue 40).
            Ok(conn) => drop(tokio::spawn(crate::connection::serve(
                shared, conn, pending,
            ))),
            Err(e) => tracing::info!(%remote, error = %e, "handshake failed"),
        }
    });
}

/// The snapshot of a clean shutdown (after the pipeline stopped): the next
/// start restores it and replays nothing.
async fn final_snapshot(shared: &Shared, snapshots: &mut Snapshotter) {
    snapshots.hurry();
    Snapshotter::wait_saved(&snapshots.in_flight(), Duration::from_secs(30)).await;
    let cut = {
        let Ok(mut hall) = shared.hall.lock() else {
            return;
        };
        snapshots.final_cut(&mut hall)
    };
    if let Some((store, rows)) = cut {
        if !crate::snapshot::save_rows(store, rows).await {
            tracing::warn!("final snapshot not saved: the next start replays more");
        }
    }
}

/// The config with the rounds published from the console in `store`
/// (`export::published`) added, and the first `gseq` of the round the
/// hall plays: the last published round's record, else `round_first` (the
/// config's round as the store found it on PostgreSQL) or the data dir's
/// round starts (SQLite). On PostgreSQL a published round whose start the
/// database does not hold yet (the server stopped right after publishing
/// it) is recorded now.
async fn effective(
    mut config: HallConfig,
    data_dir: &Path,
    store: &dyn Store,
    round_first: u64,
) -> Result<(HallConfig, u64), ServerError> {
    let entries = store.published_rounds().await?;
    let found =
        ::export::published::read(&entries).map_err(|e| ServerError::Fatal(e.to_string()))?;
    let counted = ::export::published::apply(&mut config, &found);
    let players =
        ::export::published::players(&entries).map_err(|e| ServerError::Fatal(e.to_string()))?;
    ::export::published::apply_players(&mut config, &players);
    if let Some(last) = counted.last() {
        tracing::info!(
            round = last.round.round,
            gseq = last.gseq,
            "the hall plays a round published from the console"
        );
    }
    if config.store.is_some() {
        for p in &counted {
            store.record_round_start(p.round.round, p.gseq).await?;
        }
        return Ok((config, counted.last().map_or(round_first, |p| p.gseq)));
    }
    // Withdrawals first: a round published again after its withdrawal
    // has a start of its own.
    let withdrawn = ::export::published::withdrawals(&entries)
        .map_err(|e| ServerError::Fatal(e.to_string()))?;
    if let Err(e) = crate::export::stored::note_withdrawals(data_dir, &withdrawn) {
        tracing::warn!(error = %e, "the withdrawn rounds are not marked in the round starts");
    }
    if let Err(e) = crate::export::stored::note_published_starts(data_dir, &counted) {
        tracing::warn!(error = %e, "the published rounds' starts are not recorded");
    }
    let first = round_first_gseq(data_dir, &config);
    Ok((config, first))
}

/// When the hall plays a round published from the console that has not
/// started, the same hall rebuilt from the start of the round before
/// through the publication, which keeps the round before as it ended (so
/// that the chief may still withdraw the round: hall `command::withdraw`),
/// and where the round before starts.
async fn round_before(
    config: &HallConfig,
    data_dir: &Path,
    store: &dyn Store,
    hall: &Hall,
    quarantine: crate::rebuild::Quarantine,
) -> Result<Option<(Hall, u64)>, ServerError> {
    let round = config.tournament.current_round;
    if round <= 1 || hall.round_started() {
        return Ok(None);
    }
    let entries = store.published_rounds().await?;
    let found =
        ::export::published::read(&entries).map_err(|e| ServerError::Fatal(e.to_string()))?;
    if found.last().map(|p| p.round.round) != Some(round) {
        return Ok(None);
    }
    let mut before = config.clone();
    ::export::published::withdraw(&mut before, round);
    let back = before.tournament.current_round;
    let first = match config.store.is_some() {
        true => {
            let withdrawn = ::export::published::withdrawals(&entries)
                .map_err(|e| ServerError::Fatal(e.to_string()))?;
            crate::halls_round::round_start(config, back, &withdrawn).await
        }
        false => crate::export::stored::round_range(data_dir, back)
            .ok()
            .map(|(first, _)| first),
    };
    let Some(first) = first else {
        return Ok(None);
    };
    let basis = Basis::of(&before, first);
    let start = crate::rebuild::hall_from_config(&before);
    let rebuilt = crate::rebuild::rebuild_from(store, &basis, start, quarantine).await?;
    Ok(Some((rebuilt.hall, first)))
}

/// Opens the hall's store (PostgreSQL when the config has `[store]`, else
/// SQLite in `data_dir`) and finds where the current round starts in it.
async fn open_store(
    config: &HallConfig,
    data_dir: &Path,
    options: &StartOptions,
) -> Result<(Arc<dyn Store>, u64), ServerError> {
    match &config.store {
        None => {
            let opts = OpenOptions {
                config_sha256: Some(config.config_sha256.clone()),
                vfs: options.store_vfs.clone(),
                ..OpenOptions::new(config.hall_id())
            };
            let store = Arc::new(SqliteStore::open(data_dir, opts)?);
            // Where the round starts is known once the rounds published
            // in the store are (crate::next_round::effective).
            Ok((store, 0))
        }
        Some(sc) => {
            crate::tournament_tables::check(config, sc).await?;
            let copy = match &options.config_text {
                Some(text) => Some(
                    crate::export::stored::sanitize_config(text)
                        .map_err(|e| ServerError::Fatal(format!("config copy: {e}")))?,
                ),
                None => None,
            };
            let opts = PgOptions {
                tournament: Some(sc.tournament.clone()),
                config_sha256: Some(config.config_sha256.clone()),
                ca_file: sc.ca_file.clone(),
                round: Some(config.tournament.current_round),
                config_copy: copy,
                standby: Some(options.standby.clone().unwrap_or_default()),
                ..PgOptions::new(sc.hall.clone())
            };
            let store = PgStore::open(sc.url.expose(), opts).await?;
            let first = store.round_first_gseq().unwrap_or(0);
            Ok((Arc::new(store), first))
        }
    }
}

/// The first `gseq` of the config's round in `data_dir` (0: the whole log
/// is the round), from the round starts `caipan serve` records
/// (`export::stored`). A data dir without that record is one round. A
/// round the record does not know yet starts now, and is recorded so that
/// a restart finds it. An unreadable record: the whole log, with a warning.
pub fn round_first_gseq(data_dir: &Path, config: &HallConfig) -> u64 {
    use crate::export::{stored, ExportError};
    let round = config.tournament.current_round;
    match stored::round_range(data_dir, round) {
        Ok((first, end)) => {
            // A withdrawn round's start ends the round before's range
            // (`stored::round_range`) but is no later round played.
            let later = stored::rounds_started(data_dir)
                .ok()
                .and_then(|played| {
                    let i = played.iter().rposition(|r| r.round == round)?;
                    played.get(i + 1).map(|_| ())
                })
                .is_some();
            if let Some(end) = end.filter(|_| later) {
                tracing::warn!(
                    round,
                    first,
                    end,
                    "a later round was started in this data dir; this round's rows are replayed from its start"
                );
            }
            first
        }
        Err(ExportError::NoRound { .. }) => {
            let started = stored::next_gseq(data_dir)
                .and_then(|next| stored::record_round_start(data_dir, round, next).map(|()| next));
            match started {
                Ok(next) => next,
                Err(e) => {
                    tracing::warn!(round, error = %e, "round start not recorded: replaying the whole log");
                    0
                }
            }
        }
        Err(e) => {
            tracing::warn!(round, error = %e, "round starts not readable: replaying the whole log");
            0
        }
    }
}

/// Time-based alerts: flag fall by extrapolation, offline terminals,
/// no-show, late resumption of an adjourned game.
async fn tick_loop(shared: Arc<Shared>) {
    let mut every = tokio::time::interval(TICK);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        every.tick().await;
        let now = now_ms();
        let notes = match shared.hall.lock() {
            Ok(h) => due_notes(&h, now),
            Err(_) => return,
        };
        for n in notes {
            shared.submitter.submit_quiet(Record::Note(n), now).await;
        }
        for rec in shared
            .refusals
            .due(now)
            .into_iter()
            .chain(shared.takeovers.due(now))
        {
            shared.submitter.submit_quiet(rec, now).await;
        }
    }
}

/// The least UDP receive buffer the server asks for (4 MiB; Linux caps it
/// at `net.core.rmem_max`, often 208 KiB, unless the server may force it:
/// `proto::udp`, README, Troubleshooting). In a 1,000-table flood the
/// default buffer let the kernel drop about 8,000 datagrams a second, each
/// one a QUIC retransmission timeout for the acks it carried; with this
/// one a quarter of that (docs/benchmarks.md).
pub const UDP_RECEIVE_BUFFER: usize = 4 << 20;

/// Receive buffer per table of the round: 512 bytes (issue 40). It was
/// 2 KiB, about a datagram's footprint in the kernel's queue, to ride out
/// a 100-150 ms hiccup of a 10,000-table hall at 1 press/s without drops;
/// but what the buffer holds waits, and in a reconnect storm (every table's
/// handshake at once, each ~250 µs of CPU) the tables still playing waited
/// behind 20 MiB of handshakes: their acks p99 8.4-9.2 s against 0.24 s
/// with 4 MiB (docs/benchmarks.md). The hiccups the big buffer was for
/// (snapshot cuts that held the hall 50-130 ms) are gone.
pub const UDP_RECEIVE_BUFFER_PER_TABLE: usize = 512;

/// The most the server asks for (64 MiB).
pub const UDP_RECEIVE_BUFFER_MAX: usize = 64 << 20;

/// The UDP receive buffer for a round of `tables` tables:
/// [`UDP_RECEIVE_BUFFER_PER_TABLE`] a table, at least
/// [`UDP_RECEIVE_BUFFER`], at most [`UDP_RECEIVE_BUFFER_MAX`]; 4 MiB up to
/// 8,192 tables, ~4.9 MiB at 10,000 (~190 ms of that hall's datagrams at
/// 1 press/s). Larger holds a longer hiccup without a drop and makes every
/// datagram behind a burst wait longer (a connect storm's handshakes); the
/// kernel uses it only while datagrams wait.
pub fn udp_receive_buffer(tables: usize) -> usize {
    tables
        .saturating_mul(UDP_RECEIVE_BUFFER_PER_TABLE)
        .clamp(UDP_RECEIVE_BUFFER, UDP_RECEIVE_BUFFER_MAX)
}

/// How often the ticker looks for time-based alerts.
pub const TICK: Duration = Duration::from_millis(250);

// The time-based notes due at a time are the hall core's (crates/hall,
// `due`); the ticker stores what it answers.
pub use ::hall::due::due_notes;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_udp_receive_buffer_grows_with_the_round_between_its_bounds() {
        assert_eq!(udp_receive_buffer(0), UDP_RECEIVE_BUFFER);
        assert_eq!(udp_receive_buffer(8), UDP_RECEIVE_BUFFER);
        assert_eq!(udp_receive_buffer(2_048), UDP_RECEIVE_BUFFER);
        assert_eq!(udp_receive_buffer(8_192), UDP_RECEIVE_BUFFER);
        assert_eq!(udp_receive_buffer(10_000), 10_000 * 512);
        assert_eq!(udp_receive_buffer(65_535), 65_535 * 512);
        assert_eq!(udp_receive_buffer(usize::MAX), UDP_RECEIVE_BUFFER_MAX);
    }
}
