//! One replayed table: a terminal playing its script with think times, to
//! the end of the game.

use super::script::{Script, Step};
use super::think::Thinker;
use super::{ReplayOptions, TableReport};
use crate::engine::{Action, Engine, EngineError, Screen, Status};
use crate::link::LinkConfig;
use crate::terminal::{self, TerminalError, TerminalHandle};
use crate::timebase::Timebase;
use crate::Outbox;
use proto::{Connector, GameResult};
use std::time::Duration;
use xiangqi::Move;

/// Longest a table waits for an arbiter to resume a paused game.
const PAUSE_LIMIT: Duration = Duration::from_secs(24 * 3600);

pub(super) async fn play(
    table: u16,
    token: String,
    script: Script,
    opts: &ReplayOptions,
    connector: Connector,
) -> TableReport {
    let mut report = TableReport {
        table,
        game: script.game,
        incident: script.incident,
        plies: 0,
        result: None,
        reason: String::new(),
        events: 0,
        all_acked: false,
        errors: Vec::new(),
    };
    let mut servers = vec![opts.server];
    servers.extend(opts.other_servers.iter().copied());
    let link = LinkConfig::with_servers(servers, token, connector);
    let mut fetched = None;
    for _ in 0..20 {
        match terminal::fetch_info(&link).await {
            Ok(x) => {
                fetched = Some(x);
                break;
            }
            Err(e) => {
                report.errors.push(e.to_string());
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
    let Some((info, hello)) = fetched else {
        report.reason = "could not connect".into();
        return report;
    };
    report.errors.clear();
    let epoch = hello.table.as_ref().map_or(0, |s| s.epoch) + 1;
    let outbox = match &opts.outbox_dir {
        Some(dir) => match Outbox::open(dir, table, epoch) {
            Ok((ob, _)) => ob,
            Err(e) => {
                report.reason = format!("outbox: {e}");
                return report;
            }
        },
        None => Outbox::memory(table, epoch),
    };
    let engine = Engine::new(info, outbox);
    let handle = terminal::spawn(engine, Some(link), Timebase::scaled(0, opts.speed));
    let mut player = Player {
        h: &handle,
        thinker: Thinker::new(opts.seed ^ (u64::from(table) << 32)),
        opts,
        errors: Vec::new(),
    };
    player.run(&script).await;
    let acked = handle
        .wait_for(Duration::from_secs(60), |s| s.online && s.waiting == 0)
        .await
        .is_some();
    let screen = handle.screen();
    report.plies = screen.plies;
    if let Status::Finished { result, .. } = &screen.status {
        report.result = Some(*result);
        report.reason = screen.status.end_english();
    }
    report.errors = player.errors;
    match handle.stop().await {
        Ok((engine, stats)) => {
            report.events = engine.outbox().last_seq();
            report.all_acked = acked && engine.outbox().waiting() == 0;
            report.errors.extend(stats.errors);
        }
        Err(e) => report.errors.push(e.to_string()),
    }
    report
}

struct Player<'a> {
    h: &'a TerminalHandle,
    thinker: Thinker,
    opts: &'a ReplayOptions,
    errors: Vec<String>,
}

fn over(s: &Screen) -> bool {
    matches!(s.status, Status::Finished { .. } | Status::Flagged { .. })
}

impl Player<'_> {
    async fn act(&mut self, a: Action) -> Result<(), TerminalError> {
        let r = self.h.act(a.clone()).await.map(|_| ());
        if let Err(e) = &r {
            tracing::info!(error = %e, ?a, "replay: action refused");
        }
        r
    }

    /// Waits while the game is paused or sealed; false when it is over.
    async fn ready(&self) -> bool {
        let s = self
            .h
            .wait_for(PAUSE_LIMIT, |s| {
                matches!(
                    s.status,
                    Status::Running | Status::Finished { .. } | Status::Flagged { .. }
                )
            })
            .await;
        s.is_some_and(|s| !over(&s))
    }

    async fn think(&mut self) {
        let s = self.h.screen();
        let remaining = match s.to_move {
            proto::Side::Red => s.red_ms,
            proto::Side::Black => s.black_ms,
        };
        let ms = self.thinker.think_ms(s.plies, remaining, s.increment_ms);
        tokio::time::sleep(self.h.timebase().real_for(ms)).await;
    }

    /// Thinks, then plays `m` (waiting out a pause or a seal); `false` when
    /// the game cannot go on.
    async fn play_move(&mut self, m: Move) -> bool {
        self.think().await;
        loop {
            match self.act(Action::Play(m.to_string())).await {
                Ok(()) => return true,
                Err(TerminalError::Engine(EngineError::Paused { .. }))
                | Err(TerminalError::Engine(EngineError::Sealed { .. })) => {
                    if !self.ready().await {
                        return false;
                    }
                }
                Err(e) => {
                    if !over(&self.h.screen()) {
                        self.errors.push(format!("{m}: {e}"));
                    }
                    return false;
                }
            }
        }
    }

    /// Waits for the flag to fall, then for the arbiter's result; without
    /// one, the terminal reports the loss on time.
    async fn flag(&mut self) {
        let s = self.h.screen();
        let left = s.red_ms.max(s.black_ms);
        let wait = self.h.timebase().real_for(left) + Duration::from_secs(10);
        if self
            .h
            .wait_for(wait, |s| matches!(s.status, Status::Flagged { .. }))
            .await
            .is_none()
        {
            self.errors.push("the flag did not fall".into());
            return;
        }
        let loser = match self.h.screen().status {
            Status::Flagged { side } => side,
            _ => return,
        };
        if self.ruled().await {
            return;
        }
        let _ = self
            .act(Action::ReportResult {
                result: GameResult::win_for(loser.other()),
                why: proto::EndReason::Flag,
                reason: "flag fell: loss on time (AXF-CLOCK-1)".into(),
            })
            .await;
    }

    async fn run(&mut self, script: &Script) {
        if self
            .h
            .wait_for(Duration::from_secs(30), |s| s.online)
            .await
            .is_none()
        {
            self.errors.push("not online after 30 s".into());
        }
        for side in [proto::Side::Red, proto::Side::Black] {
            let _ = self.act(Action::Arrived { side }).await;
        }
        if let Err(e) = self.act(Action::StartClock).await {
            self.errors.push(e.to_string());
        }
        for step in &script.steps {
            if !self.ready().await {
                return;
            }
            match step {
                Step::Play(m) => {
                    if !self.play_move(*m).await {
                        return;
                    }
                }
                Step::ClaimLimit => {
                    let by = self.h.screen().to_move;
                    let _ = self.act(Action::ClaimNaturalLimit { by }).await;
                }
                Step::Sensor(mv) => {
                    self.think().await;
                    if self.act(Action::SensorMove { mv: *mv }).await.is_ok() {
                        // The player waits for the arbiter's ruling (the
                        // take-back) before correcting the move.
                        let _ = self
                            .h
                            .wait_for(self.opts.ruling_wait, |s| !s.sensor_pending || over(s))
                            .await;
                    }
                }
                Step::AwaitOrder => {
                    let _ = self
                        .h
                        .wait_for(self.opts.ruling_wait, |s| s.order.is_some() || over(s))
                        .await;
                }
                Step::AwaitRuling => {
                    let _ = self.ruled().await;
                }
                Step::Disconnect => {
                    let _ = self.h.disconnect_for(self.opts.disconnect_for).await;
                }
                Step::Flag => {
                    self.flag().await;
                    return;
                }
                Step::ConcludeLimit => {
                    let claimant = self.h.screen().to_move;
                    if self.ruled().await {
                        return;
                    }
                    let _ = self.act(Action::OfferDraw { by: claimant }).await;
                    let _ = self
                        .act(Action::AcceptDraw {
                            by: claimant.other(),
                        })
                        .await;
                    return;
                }
            }
        }
        let s = self.h.screen();
        if !over(&s) {
            let _ = self
                .act(Action::Resign {
                    by: s.to_move,
                    reason: "record ends".into(),
                })
                .await;
        }
    }

    /// Waits `ruling_wait` for an arbiter's result; true when one came.
    async fn ruled(&self) -> bool {
        self.h
            .wait_for(self.opts.ruling_wait, |s| {
                matches!(s.status, Status::Finished { .. })
            })
            .await
            .is_some()
    }
}
