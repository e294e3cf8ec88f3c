//! What a snapshot holds (快照内容): the state of one table
//! ([`TableSnap`]) and the hall-wide state ([`HallSnap`]: alerts, claims,
//! audit, id counters, the hall pause, the store's high-water marks and
//! the manifest of table snapshots making up the same cut), with the
//! conversions from and to the runtime types.
//!
//! These are the snapshot's own types, not the runtime's: a change to the
//! runtime state must show up here, with the server's snapshot codec
//! `VERSION` bumped (crates/server/src/snapshot/codec.rs).
//! What is derived is not stored: the board, the natural-limit counter and
//! the repetition watch are rebuilt by playing the game's moves again
//! (pure functions of the moves), and the time control comes from the
//! config (a snapshot of another config is not used).

use bincode::{Decode, Encode};
use proto::{
    Alert, AuditEntry, ClaimView, ClockSample, ControlToTable, EndReason, FoulCount, IccsMove,
    MoveLimit, PauseInfo, Side, TableStatus,
};
use rulebook::limit::PlyFact;
use rulebook::repetition::RepetitionWatch;
use rulebook::{LimitCounter, RuleParams};
use xiangqi::{ByColor, Position};

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::alerts::AlertBook;
use crate::book::Book;
use crate::claims::{Claim, ClaimBook, Ends, LimitClaimPenalty, Penalty};
use crate::hall::{Changes, Hall};
use crate::ply_clocks::PlyClocks;
use crate::table::board::BoardTracker;
use crate::table::convert::{color, game_move, side, wire_move};
use crate::table::move_limit::{declaration, DeclaredLimit};
use crate::table::order::TableOrder;
use crate::table::{PendingIllegal, Raised, Sealed, TableState};
use proto::roles::RulingAuthor;

/// One table's state.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct TableSnap {
    pub table: u16,
    pub red: String,
    pub black: String,
    pub epoch: u32,
    pub high_water: u64,
    pub clock: ClockSnap,
    pub flag: Option<Side>,
    pub start_fen: String,
    pub moves: Vec<IccsMove>,
    /// The board's counters ([`BoardTracker`]).
    pub plies_since_capture: u32,
    pub checks: [u32; 2],
    pub checks_since_capture: [u32; 2],
    pub stretch_start: u64,
    pub repetition_alerted: Vec<u64>,
    pub repetition_last_ply: Option<u64>,
    pub fouls_red: FoulCount,
    pub fouls_black: FoulCount,
    pub status: TableStatus,
    pub before_pause: Option<TableStatus>,
    pub paused_by_hall: bool,
    pub arrived: [bool; 2],
    pub started_at_ms: Option<u64>,
    pub sealed: Option<SealedSnap>,
    pub pending_illegal: Option<(IccsMove, Side, u64)>,
    pub draw_offer: Option<Side>,
    pub online: bool,
    pub last_heard_ms: u64,
    pub clock_history: Vec<ClockSample>,
    pub raised: Vec<RaisedSnap>,
    pub pending_controls: Vec<(u64, ControlToTable)>,
    pub seen_ms: [Option<u64>; 2],
    pub offline_since_ms: Option<u64>,
    pub resumed_at_ms: Option<u64>,
    pub seen_since_resume: [Option<u64>; 2],
    /// The declared move limit 限著 (ROC); its count is rebuilt from the moves.
    pub move_limit: Option<MoveLimit>,
    /// The last order given at a repetition, rebuilt from the moves.
    pub order: Option<OrderSnap>,
    /// `cycles_after_order` as a count (1 or 3).
    pub cycles_after_order: u8,
    /// The mover's time after each ply's press ([`TableState::ply_clocks`]).
    pub ply_clocks: Vec<Option<u64>>,
    /// Public events of the table so far ([`crate::public::PublicMark`]).
    pub public_version: u64,
}

/// The clock mirror (without its time control, which is the config's).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct ClockSnap {
    pub red_ms: u64,
    pub black_ms: u64,
    pub running: Option<Side>,
    pub reported_at_ms: u64,
    pub terminal_ms: Option<u64>,
    pub paused: bool,
    pub increment_ms: u64,
    pub started: bool,
    pub presses: [u32; 2],
}

/// The sealed move of an adjourned game.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct SealedSnap {
    pub mv: IccsMove,
    pub writer: Side,
    pub by: String,
    pub at_ms: u64,
}

/// An alert raised once only ([`Raised`]).
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RaisedSnap {
    Flag(bool),
    NoShow(bool),
    Limit(u64),
    TechnicalFouls(bool),
    Violations(bool),
    Offline(u64),
    LateResumption(u64, bool),
}

/// An order at a repetition ([`TableOrder`]): given at `at_ply`, the
/// watch rebuilt by feeding it the moves since.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct OrderSnap {
    pub at_ply: u64,
    pub must_change: Option<Side>,
    pub claim_id: u64,
    pub cycles: u8,
}

/// A claim with what the view does not show.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct ClaimSnap {
    pub view: ClaimView,
    pub penalty: PenaltySnap,
    pub ruled_by: Option<AuthorSnap>,
    /// [`Ends`]: a loss of Red, of Black, a draw.
    pub ends: [EndReason; 3],
}

/// [`Penalty`] (the false claim's fields in the order the format has had
/// since version 1: side, technical foul, deduction).
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PenaltySnap {
    None,
    FalseLimitClaim(LimitClaimPenalty),
}

/// [`RulingAuthor`].
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub enum AuthorSnap {
    Chief,
    Deputy(String),
}

/// The hall-wide state at a cut, and which table snapshots belong to it.
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct HallSnap {
    /// The store's hall id.
    pub hall_id: String,
    /// SHA-256 of the config the state was built with.
    pub config_sha256: String,
    /// The round.
    pub round: u32,
    /// First `gseq` of the round (0: the whole log).
    pub round_first_gseq: u64,
    /// The cut: every log row up to this one is in the state.
    pub upto_gseq: u64,
    /// Records of the round applied up to the cut.
    pub applied: u64,
    /// The store's high-water mark of every table with events up to the
    /// cut, every round included: `(table, epoch, seq)`.
    pub high_water: Vec<(u16, u32, u64)>,
    /// For each table of the round, the `upto_gseq` of its snapshot row
    /// that holds its state at this cut (a table unchanged since an earlier
    /// cut keeps its earlier row).
    pub manifest: Vec<(u16, u64)>,
    pub paused: Option<PauseInfo>,
    pub alerts_last_id: u64,
    /// Shared with the hall's book (`alerts.rs`); encoded as the alerts
    /// themselves.
    pub alerts: Vec<Arc<Alert>>,
    pub claims_last_id: u64,
    pub claims: Vec<ClaimSnap>,
    pub audit: Vec<AuditEntry>,
    pub next_audit: u64,
    pub next_control: u64,
}

fn red(s: Side) -> bool {
    s == Side::Red
}

fn side_of(red: bool) -> Side {
    if red {
        Side::Red
    } else {
        Side::Black
    }
}

fn raised_snap(r: &Raised) -> RaisedSnap {
    match *r {
        Raised::Flag(s) => RaisedSnap::Flag(red(s)),
        Raised::NoShow(s) => RaisedSnap::NoShow(red(s)),
        Raised::Limit(p) => RaisedSnap::Limit(p as u64),
        Raised::TechnicalFouls(s) => RaisedSnap::TechnicalFouls(red(s)),
        Raised::Violations(s) => RaisedSnap::Violations(red(s)),
        Raised::Offline(t) => RaisedSnap::Offline(t),
        Raised::LateResumption(t, s) => RaisedSnap::LateResumption(t, red(s)),
    }
}

fn raised_of(r: RaisedSnap) -> Raised {
    match r {
        RaisedSnap::Flag(s) => Raised::Flag(side_of(s)),
        RaisedSnap::NoShow(s) => Raised::NoShow(side_of(s)),
        RaisedSnap::Limit(p) => Raised::Limit(p as usize),
        RaisedSnap::TechnicalFouls(s) => Raised::TechnicalFouls(side_of(s)),
        RaisedSnap::Violations(s) => Raised::Violations(side_of(s)),
        RaisedSnap::Offline(t) => Raised::Offline(t),
        RaisedSnap::LateResumption(t, s) => Raised::LateResumption(t, side_of(s)),
    }
}

impl TableSnap {
    /// The snapshot of `t`.
    pub fn of(t: &TableState) -> TableSnap {
        let c = &t.clock;
        let mut repetition_alerted: Vec<u64> = t.repetition_alerted.iter().copied().collect();
        repetition_alerted.sort_unstable();
        let mut raised: Vec<RaisedSnap> = t.raised.iter().map(raised_snap).collect();
        raised.sort_unstable();
        TableSnap {
            table: t.table,
            red: t.red.clone(),
            black: t.black.clone(),
            epoch: t.epoch,
            high_water: t.high_water,
            clock: ClockSnap {
                red_ms: c.red_ms,
                black_ms: c.black_ms,
                running: c.running.map(side),
                reported_at_ms: c.reported_at_ms,
                terminal_ms: c.terminal_ms,
                paused: c.paused,
                increment_ms: c.increment_ms,
                started: c.started,
                presses: c.presses,
            },
            flag: t.flag,
            start_fen: t.board.start.to_fen(),
            moves: t.board.moves.iter().copied().map(wire_move).collect(),
            plies_since_capture: t.board.plies_since_capture,
            checks: [t.board.checks.red, t.board.checks.black],
            checks_since_capture: [
                t.board.checks_since_capture.red,
                t.board.checks_since_capture.black,
            ],
            stretch_start: t.board.stretch_start as u64,
            repetition_alerted,
            repetition_last_ply: t.repetition_last_ply.map(|p| p as u64),
            fouls_red: t.fouls.red,
            fouls_black: t.fouls.black,
            status: t.status.clone(),
            before_pause: t.before_pause.as_deref().cloned(),
            paused_by_hall: t.paused_by_hall,
            arrived: t.arrived.into(),
            started_at_ms: t.started_at_ms,
            sealed: t.sealed.as_ref().map(|s| SealedSnap {
                mv: s.mv,
                writer: s.writer,
                by: s.by.clone(),
                at_ms: s.at_ms,
            }),
            pending_illegal: t.pending_illegal.as_ref().map(|p| (p.mv, p.by, p.claim_id)),
            draw_offer: t.draw_offer,
            online: t.online,
            last_heard_ms: t.last_heard_ms,
            clock_history: t.clock_history.iter().collect(),
            raised,
            pending_controls: t.pending_controls.clone(),
            seen_ms: t.seen_ms.into(),
            offline_since_ms: t.offline_since_ms,
            resumed_at_ms: t.resumed_at_ms,
            seen_since_resume: t.seen_since_resume.into(),
            move_limit: t.move_limit.as_ref().map(|d| d.wire),
            order: t.order.as_ref().map(|o| OrderSnap {
                at_ply: o.watch.at_ply() as u64,
                must_change: o.must_change(),
                claim_id: o.claim_id,
                cycles: o.watch.cycles().count() as u8,
            }),
            cycles_after_order: t.cycles_after_order.count() as u8,
            ply_clocks: t.ply_clocks.times(),
            public_version: t.public.version,
        }
    }

    /// Writes this state into `t` (a table of the same number built from
    /// the config), playing the moves again to rebuild the board, the
    /// natural-limit counter and the repetition watch. Fails (leaving `t`
    /// as it was) when the snapshot does not fit: another table, other
    /// players, or a move that does not replay.
    pub fn restore_into(&self, t: &mut TableState, params: &RuleParams) -> Result<(), String> {
        if self.table != t.table || self.red != t.red || self.black != t.black {
            return Err(format!(
                "snapshot is of table {} ({} vs {}), the config has table {} ({} vs {})",
                self.table, self.red, self.black, t.table, t.red, t.black
            ));
        }
        let (board, limit, repetition) = self.rebuild_board(params)?;
        let move_limit = self.move_limit.map(|w| {
            Box::new(DeclaredLimit {
                wire: w,
                counter: count_declared(&board.start, &board.moves, &w),
            })
        });
        let cycles = |n: u8| {
            rulebook::CyclesAfterOrder::from_count(u64::from(n))
                .ok_or_else(|| format!("{n} cycles after an order"))
        };
        let order = match &self.order {
            Some(o) => Some(Box::new(TableOrder::rebuild(
                &board.start,
                &board.moves,
                o.at_ply as usize,
                o.must_change,
                params.rule_set,
                cycles(o.cycles)?,
                o.claim_id,
            )?)),
            None => None,
        };
        let cycles_after_order = cycles(self.cycles_after_order)?;
        let c = &self.clock;
        t.epoch = self.epoch;
        t.high_water = self.high_water;
        t.clock.red_ms = c.red_ms;
        t.clock.black_ms = c.black_ms;
        t.clock.running = c.running.map(color);
        t.clock.reported_at_ms = c.reported_at_ms;
        t.clock.terminal_ms = c.terminal_ms;
        t.clock.paused = c.paused;
        t.clock.increment_ms = c.increment_ms;
        t.clock.started = c.started;
        t.clock.presses = c.presses;
        t.flag = self.flag;
        t.board = board;
        t.limit = limit;
        t.move_limit = move_limit;
        t.repetition = repetition;
        t.repetition_alerted = self.repetition_alerted.iter().copied().collect();
        t.repetition_last_ply = self.repetition_last_ply.map(|p| p as usize);
        t.fouls = ByColor::new(self.fouls_red, self.fouls_black);
        t.status = self.status.clone();
        t.before_pause = self.before_pause.clone().map(Box::new);
        t.paused_by_hall = self.paused_by_hall;
        t.arrived = self.arrived.into();
        t.started_at_ms = self.started_at_ms;
        t.sealed = self.sealed.as_ref().map(|s| {
            Box::new(Sealed {
                mv: s.mv,
                writer: s.writer,
                by: s.by.clone(),
                at_ms: s.at_ms,
            })
        });
        t.pending_illegal = self
            .pending_illegal
            .map(|(mv, by, claim_id)| PendingIllegal { mv, by, claim_id });
        t.draw_offer = self.draw_offer;
        t.online = self.online;
        t.last_heard_ms = self.last_heard_ms;
        t.clock_history = self.clock_history.iter().copied().collect();
        t.raised = self.raised.iter().copied().map(raised_of).collect();
        t.pending_controls = self.pending_controls.clone();
        t.seen_ms = self.seen_ms.into();
        t.offline_since_ms = self.offline_since_ms;
        t.resumed_at_ms = self.resumed_at_ms;
        t.seen_since_resume = self.seen_since_resume.into();
        t.order = order;
        t.cycles_after_order = cycles_after_order;
        t.ply_clocks = PlyClocks::from_times(&self.ply_clocks);
        t.public = crate::table::public::mark(t, self.public_version);
        Ok(())
    }
}

/// The count of a declared limit after the game's moves (every ply is fed:
/// the plies before the declaration say whether the first counted one is a
/// reply to check).
fn count_declared(
    start: &Position,
    moves: &[xiangqi::Move],
    w: &MoveLimit,
) -> rulebook::roc_limit::RocLimitCounter {
    let mut c = rulebook::roc_limit::RocLimitCounter::new(declaration(w));
    let mut pos = start.clone();
    for &m in moves {
        c.record(PlyFact {
            by: pos.turn(),
            capture: pos.piece_at(m.to).is_some(),
            check: pos.gives_check(m),
        });
        pos.play_unchecked(m);
    }
    c
}

/// Positions with 2, 3 and 4 pieces, to walk a repetition watch to its
/// last reset cheaply (see [`TableSnap::rebuild_board`]).
const FEW_PIECES: [&str; 3] = [
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/3AKA3 w - - 0 1",
];

impl TableSnap {
    /// The board, the natural-limit counter and the repetition watch after
    /// the game's moves, as playing them one by one made them, without
    /// judging again the repetitions of earlier capture-free stretches:
    /// - the board's counters are the snapshot's; the positions and keys
    ///   are replayed (the moves were checked when played, and the
    ///   snapshot's checksum holds them);
    /// - the limit counter restarts at every capture, so only the plies
    ///   from the last capture on are counted again;
    /// - the repetition watch restarts (at the capture's ply) whenever the
    ///   number of pieces changes and only looks at the moves since: it is
    ///   walked to that restart with positions of alternating piece counts
    ///   (each push a restart, nothing judged), then given the moves since
    ///   the last capture.
    fn rebuild_board(
        &self,
        params: &RuleParams,
    ) -> Result<(BoardTracker, LimitCounter, RepetitionWatch), String> {
        let start = Position::from_fen(&self.start_fen)
            .map_err(|e| format!("start position {:?}: {e}", self.start_fen))?;
        let n = self.moves.len();
        let stretch = usize::try_from(self.stretch_start)
            .ok()
            .filter(|&s| s <= n)
            .ok_or_else(|| format!("stretch start {} beyond {n} moves", self.stretch_start))?;
        let mut moves = Vec::with_capacity(n);
        for (i, &w) in self.moves.iter().enumerate() {
            moves.push(game_move(w).ok_or_else(|| format!("move {i} ({w}) is off the board"))?);
        }
        let mut board = BoardTracker::new(start.clone());
        let mut limit = LimitCounter::new();
        let mut repetition = RepetitionWatch::new(&start, params.rule_set);
        let facts_from = stretch.saturating_sub(1);
        let mut pos = start;
        let mut at_reset = None;
        // The keys since the last capture only (see [`BoardTracker::keys`]).
        if stretch > 0 {
            board.keys.clear();
        }
        board.keys.reserve(n - stretch);
        for (i, &m) in moves.iter().enumerate() {
            if i >= facts_from {
                limit.record(PlyFact {
                    by: pos.turn(),
                    capture: pos.piece_at(m.to).is_some(),
                    check: pos.gives_check(m),
                });
            }
            pos.play_unchecked(m);
            if i + 1 >= stretch {
                board.keys.push(pos.zobrist());
            }
            if i + 1 == stretch {
                at_reset = Some(pos.clone());
            } else if i + 1 > stretch {
                if let Some(reset) = at_reset.take() {
                    walk_to_reset(&mut repetition, &reset, stretch, &moves, params)?;
                }
                let _ = repetition.push(m, &pos);
            }
        }
        if let Some(reset) = at_reset.take() {
            walk_to_reset(&mut repetition, &reset, stretch, &moves, params)?;
        }
        board.position = pos;
        board.moves = moves;
        board.plies_since_capture = self.plies_since_capture;
        board.checks.red = self.checks[0];
        board.checks.black = self.checks[1];
        board.checks_since_capture.red = self.checks_since_capture[0];
        board.checks_since_capture.black = self.checks_since_capture[1];
        board.stretch_start = stretch;
        Ok((board, limit, repetition))
    }
}

/// Makes `w` (fresh from the start position) as it is right after the
/// restart at ply `at` with `reset` (the position after the last capture):
/// `at` pushes of positions whose piece counts differ from one push to the
/// next, the last one `reset`.
fn walk_to_reset(
    w: &mut RepetitionWatch,
    reset: &Position,
    at: usize,
    moves: &[xiangqi::Move],
    params: &RuleParams,
) -> Result<(), String> {
    let k = reset.pieces().count();
    let few: Vec<Position> = FEW_PIECES
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .filter(|p| p.pieces().count() != k)
        .take(2)
        .collect();
    let [a, b] = few.as_slice() else {
        return Err("no positions to walk the repetition watch".into());
    };
    *w = RepetitionWatch::new(&Position::new(), params.rule_set);
    for i in 1..=at {
        let p = if i == at {
            reset
        } else if (at - i) % 2 == 1 {
            a
        } else {
            b
        };
        let _ = w.push(moves[i - 1], p);
    }
    Ok(())
}

impl ClaimSnap {
    fn of(c: &Claim) -> ClaimSnap {
        ClaimSnap {
            view: c.view.clone(),
            penalty: match c.penalty {
                Penalty::None => PenaltySnap::None,
                Penalty::FalseLimitClaim(p) => PenaltySnap::FalseLimitClaim(p),
            },
            ruled_by: c.ruled_by.as_ref().map(|a| match a {
                RulingAuthor::Chief => AuthorSnap::Chief,
                RulingAuthor::Deputy(n) => AuthorSnap::Deputy(n.clone()),
            }),
            ends: [c.ends.loss[0], c.ends.loss[1], c.ends.draw],
        }
    }

    fn claim(&self) -> Claim {
        Claim {
            view: self.view.clone(),
            penalty: match self.penalty {
                PenaltySnap::None => Penalty::None,
                PenaltySnap::FalseLimitClaim(p) => Penalty::FalseLimitClaim(p),
            },
            ruled_by: self.ruled_by.as_ref().map(|a| match a {
                AuthorSnap::Chief => RulingAuthor::Chief,
                AuthorSnap::Deputy(n) => RulingAuthor::Deputy(n.clone()),
            }),
            ends: Ends {
                loss: [self.ends[0], self.ends[1]],
                draw: self.ends[2],
            },
        }
    }
}

/// The book's part of a [`HallSnap`]: alerts, claims, audit, counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookSnap {
    pub alerts_last_id: u64,
    /// Shared with the hall's book (`alerts.rs`); encoded as the alerts
    /// themselves.
    pub alerts: Vec<Arc<Alert>>,
    pub claims_last_id: u64,
    pub claims: Vec<ClaimSnap>,
    pub audit: Vec<AuditEntry>,
    pub next_audit: u64,
    pub next_control: u64,
}

impl BookSnap {
    /// The snapshot of `book` (its pending effects are not part of it).
    pub fn of(book: &Book) -> BookSnap {
        let (next_audit, next_control) = book.counters();
        BookSnap {
            alerts_last_id: book.alerts.last_id(),
            alerts: book.alerts.shared().cloned().collect(),
            claims_last_id: book.claims.last_id(),
            claims: book.claims.claims().map(ClaimSnap::of).collect(),
            audit: book.audit.iter().cloned().collect(),
            next_audit,
            next_control,
        }
    }

    /// The book of `hall`.
    pub fn of_hall(h: &HallSnap) -> BookSnap {
        BookSnap {
            alerts_last_id: h.alerts_last_id,
            alerts: h.alerts.clone(),
            claims_last_id: h.claims_last_id,
            claims: h.claims.clone(),
            audit: h.audit.clone(),
            next_audit: h.next_audit,
            next_control: h.next_control,
        }
    }

    /// The runtime book.
    pub fn book(self) -> Book {
        let mut book = Book::default();
        book.alerts = AlertBook::restore(self.alerts_last_id, self.alerts);
        book.claims = ClaimBook::restore(
            self.claims_last_id,
            self.claims.iter().map(ClaimSnap::claim).collect(),
        );
        book.restore_audit(self.audit);
        book.set_counters(self.next_audit, self.next_control);
        book
    }
}

/// What a snapshot gives back to a hall made of the same setup: every
/// table's state, the book, the hall pause and the records applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restore {
    /// Every table of the round, by number.
    pub tables: BTreeMap<u16, TableSnap>,
    /// Alerts, claims, audit, counters.
    pub book: BookSnap,
    /// The hall pause.
    pub paused: Option<PauseInfo>,
    /// Records of the round applied up to the cut.
    pub applied: u64,
}

impl Restore {
    /// What a snapshot of `hall` holds now.
    pub fn of(hall: &Hall) -> Restore {
        Restore {
            tables: hall
                .tables
                .iter()
                .map(|(&n, t)| (n, TableSnap::of(t)))
                .collect(),
            book: BookSnap::of(&hall.book),
            paused: hall.paused.clone(),
            applied: hall.applied,
        }
    }
}

/// Why a snapshot was not restored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// A table of the round has no state in the snapshot.
    #[error("table {table}: not in the snapshot")]
    Missing {
        /// The table.
        table: u16,
    },
    /// The snapshot holds a table that is not the round's.
    #[error("table {table}: in the snapshot but not in the round")]
    NotInRound {
        /// The table.
        table: u16,
    },
    /// A table's state does not fit the table (see [`TableSnap::restore_into`]).
    #[error("table {table}: {why}")]
    Table {
        /// The table.
        table: u16,
        /// Why.
        why: String,
    },
}

impl Hall {
    /// Restores the state `snap` holds onto this hall (made of the same
    /// setup, before any record): every table, the book, the hall pause,
    /// the records applied; nothing has changed since. All or nothing: on
    /// an error the hall is as it was.
    pub fn restore(&mut self, snap: Restore) -> Result<(), RestoreError> {
        if let Some(&table) = snap.tables.keys().find(|n| !self.tables.contains_key(n)) {
            return Err(RestoreError::NotInRound { table });
        }
        let mut tables = BTreeMap::new();
        for &n in self.tables.keys() {
            let ts = snap
                .tables
                .get(&n)
                .ok_or(RestoreError::Missing { table: n })?;
            let mut t = self
                .setup
                .fresh_table(n)
                .ok_or(RestoreError::NotInRound { table: n })?;
            ts.restore_into(&mut t, &self.params)
                .map_err(|why| RestoreError::Table { table: n, why })?;
            tables.insert(n, std::sync::Arc::new(t));
        }
        self.public_seq = tables.values().map(|t| t.public.version).sum();
        self.tables = tables;
        self.views.clear();
        self.book = snap.book.book();
        self.paused = snap.paused;
        self.applied = snap.applied;
        self.changes = Changes::default();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proto::TableEvent;
    use rand::{Rng, SeedableRng};
    use xiangqi::Move;

    /// A seeded random game with captures, captures giving check, and
    /// shuffles (a move and its way back by both sides, twice) that repeat
    /// positions.
    fn game(seed: u64, plies: usize) -> Vec<Move> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut pos = Position::new();
        let mut out = Vec::new();
        while out.len() < plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            if rng.random_range(0..6) == 0 && out.len() >= 2 {
                // Shuffle: the last two moves back and forth.
                let (a, b) = (out[out.len() - 2], out[out.len() - 1]);
                let back = |m: Move| Move {
                    from: m.to,
                    to: m.from,
                };
                let mut p = pos.clone();
                let cycle = [back(a), back(b), a, b, back(a), back(b), a, b];
                if cycle.iter().all(|&m| {
                    let ok = p.is_legal(m) && p.piece_at(m.to).is_none();
                    if ok {
                        p.play_unchecked(m);
                    }
                    ok
                }) {
                    for m in cycle {
                        pos.play_unchecked(m);
                        out.push(m);
                    }
                    continue;
                }
            }
            // Prefer captures now and then, so that the game thins out.
            let caps: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let m = if !caps.is_empty() && rng.random_range(0..3) == 0 {
                caps[rng.random_range(0..caps.len())]
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            pos.play_unchecked(m);
            out.push(m);
        }
        out
    }

    fn play(t: &mut TableState, moves: &[Move], params: &RuleParams, book: &mut Book) {
        for &m in moves {
            let by = side(t.board.turn());
            let ev = TableEvent::Move {
                by,
                mv: wire_move(m),
            };
            t.apply_event(&ev, 0, params, book);
        }
    }

    /// The false claim's penalty is encoded as it was when its fields
    /// were the variant's own (format version unchanged).
    #[test]
    fn a_penalty_keeps_its_encoding() {
        #[derive(Encode)]
        enum Before {
            _None,
            FalseLimitClaim {
                side: Side,
                technical_foul: bool,
                deduct_ms: u64,
            },
        }
        let cfg = bincode::config::standard();
        let before = Before::FalseLimitClaim {
            side: Side::Black,
            technical_foul: true,
            deduct_ms: 60_000,
        };
        let now = PenaltySnap::FalseLimitClaim(LimitClaimPenalty {
            side: Side::Black,
            technical_foul: true,
            deduct_ms: 60_000,
        });
        assert_eq!(
            bincode::encode_to_vec(now, cfg).expect("encodes"),
            bincode::encode_to_vec(before, cfg).expect("encodes")
        );
    }

    #[test]
    fn restored_boards_counters_and_watches_go_on_like_the_played_ones() {
        let params = RuleParams::default();
        let mut capture_checks = 0;
        let mut repetitions = 0;
        for seed in 0..12 {
            let moves = game(seed, 160);
            let mut p = Position::new();
            for &m in &moves {
                if p.piece_at(m.to).is_some() && p.gives_check(m) {
                    capture_checks += 1;
                }
                p.play_unchecked(m);
            }
            for k in (0..moves.len()).step_by(5) {
                let mut book = Book::default();
                let mut played = TableState::new(1, "R", "B", 60_000, 0, &params);
                play(&mut played, &moves[..k], &params, &mut book);
                let mut restored = TableState::new(1, "R", "B", 60_000, 0, &params);
                TableSnap::of(&played)
                    .restore_into(&mut restored, &params)
                    .expect("restores");
                assert_eq!(
                    restored.board.position.to_fen(),
                    played.board.position.to_fen()
                );
                assert_eq!(restored.board.keys, played.board.keys);
                assert_eq!(restored.board.moves, played.board.moves);
                assert_eq!(restored.limit, played.limit, "seed {seed} ply {k}");
                assert_eq!(restored.repetition.ply(), played.repetition.ply());
                assert_eq!(TableSnap::of(&restored), TableSnap::of(&played));
                // The rest of the game raises the same alerts and claims.
                let (mut b1, mut b2) = (Book::default(), Book::default());
                play(&mut played, &moves[k..], &params, &mut b1);
                play(&mut restored, &moves[k..], &params, &mut b2);
                let a1: Vec<_> = b1.alerts.all().cloned().collect();
                let a2: Vec<_> = b2.alerts.all().cloned().collect();
                assert_eq!(a1, a2, "seed {seed} ply {k}");
                assert_eq!(
                    b1.claims.all().collect::<Vec<_>>(),
                    b2.claims.all().collect::<Vec<_>>()
                );
                assert_eq!(restored.limit, played.limit);
                if k == 0 {
                    repetitions += a1
                        .iter()
                        .filter(|a| a.kind == proto::AlertKind::Repetition)
                        .count();
                }
            }
        }
        assert!(capture_checks > 0, "some captures give check");
        assert!(repetitions > 0, "some positions repeat");
    }

    /// A declared ROC limit is restored with its count (rebuilt from the
    /// moves) and goes on like the played one.
    #[test]
    fn a_declared_move_limit_is_restored_with_its_count() {
        let params = rulebook::RuleSet::Roc.params();
        let mut restored_some = 0;
        for seed in 0..6 {
            let moves = game(seed, 120);
            for declared_at in [0usize, 7, 30] {
                let mut book = Book::default();
                let mut played = TableState::new(1, "R", "B", 60_000, 0, &params);
                play(&mut played, &moves[..declared_at], &params, &mut book);
                played.declare_move_limit(Some(Side::Black), Side::Red, seed % 2 == 0, &params);
                for k in (declared_at..moves.len()).step_by(9) {
                    let mut p = played.clone();
                    play(&mut p, &moves[declared_at..k], &params, &mut book);
                    let mut restored = TableState::new(1, "R", "B", 60_000, 0, &params);
                    TableSnap::of(&p)
                        .restore_into(&mut restored, &params)
                        .expect("restores");
                    assert_eq!(restored.move_limit, p.move_limit, "seed {seed} ply {k}");
                    let (mut b1, mut b2) = (Book::default(), Book::default());
                    play(&mut p, &moves[k..], &params, &mut b1);
                    play(&mut restored, &moves[k..], &params, &mut b2);
                    assert_eq!(restored.move_limit, p.move_limit);
                    let a1: Vec<_> = b1.alerts.all().cloned().collect();
                    let a2: Vec<_> = b2.alerts.all().cloned().collect();
                    assert_eq!(a1, a2, "seed {seed} ply {k}");
                    restored_some += 1;
                }
            }
        }
        assert!(restored_some > 0);
    }

    /// A wire sample with edge values for the compact clock history.
    fn edge_sample(i: u64, rng: &mut rand::rngs::StdRng) -> ClockSample {
        let edges = [
            0,
            1,
            u64::from(u32::MAX),
            u64::from(u32::MAX) + 1,
            u64::MAX - 1,
            u64::MAX,
        ];
        let mut value = |typical: u64| match rng.random_range(0..4) {
            0 => edges[rng.random_range(0..edges.len())],
            1 => rng.random(),
            _ => typical,
        };
        let t0 = 1_764_900_000_000;
        ClockSample {
            at_ms: value(t0 + i * 1_000),
            plies: u32::try_from(value(i)).unwrap_or(u32::MAX),
            clock: proto::ClockState {
                red_ms: value(600_000 - i),
                black_ms: value(600_000 - 2 * i),
                running: [None, Some(Side::Red), Some(Side::Black)][rng.random_range(0..3)],
            },
        }
    }

    /// Issue 40: the clock history is kept compact, and a snapshot holds
    /// the wire's samples. The codec's bytes of a table's snapshot are the
    /// same after its state went through the compact form (restored, then
    /// snapshotted again), edge values included (u64::MAX clocks, time
    /// going backwards, plies at u32::MAX), and a played table's snapshot
    /// holds the samples the plain history held.
    #[test]
    fn a_snapshot_keeps_its_bytes_through_the_compact_clock_history() {
        use crate::table::MAX_CLOCK_HISTORY;
        let params = RuleParams::default();
        let mut edges_seen = 0;
        for seed in 0..40u64 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let moves = game(seed, 30);
            let mut book = Book::default();
            let mut played = TableState::new(1, "R", "B", 600_000, 0, &params);
            let mut unpacked = std::collections::VecDeque::new();
            let n = [3, 60, MAX_CLOCK_HISTORY as u64 + 20][seed as usize % 3];
            for i in 0..n {
                if let Some(&m) = moves.get(i as usize) {
                    play(&mut played, &[m], &params, &mut book);
                }
                if unpacked.len() >= MAX_CLOCK_HISTORY {
                    unpacked.pop_front();
                }
                if seed % 2 == 0 {
                    let s = edge_sample(i, &mut rng);
                    if played.clock_history.len() >= MAX_CLOCK_HISTORY {
                        played.clock_history.pop_front();
                    }
                    played.clock_history.push_back(s);
                    unpacked.push_back(s);
                } else {
                    let at_ms = 1_764_900_000_000 + i * 997;
                    unpacked.push_back(ClockSample {
                        at_ms,
                        plies: played.board.plies() as u32,
                        clock: played.clock_state(),
                    });
                    played.sample_clock(at_ms);
                }
            }
            edges_seen += played
                .clock_history
                .iter()
                .filter(|s| s.clock.red_ms > u64::from(u32::MAX) || s.at_ms < 1_000_000)
                .count();
            let snap = TableSnap::of(&played);
            assert_eq!(snap.clock_history, Vec::from(unpacked), "seed {seed}");
            let bytes = proto::codec::encode_value(&snap).expect("encodes");
            let read: TableSnap =
                proto::codec::decode_value::<_, { 1 << 24 }>(&bytes).expect("decodes");
            let mut restored = TableState::new(1, "R", "B", 600_000, 0, &params);
            read.restore_into(&mut restored, &params).expect("restores");
            let again = proto::codec::encode_value(&TableSnap::of(&restored)).expect("encodes");
            assert_eq!(
                again, bytes,
                "seed {seed}: the same bytes after the compact form"
            );
        }
        assert!(edges_seen > 0, "some samples were at the edges");
    }
}
