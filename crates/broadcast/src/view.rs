//! What the broadcast shows (公开画面): the round's games as followers see
//! them after the delay, at a public sequence number, with the bodies of
//! every feed rendered once, when first asked for, and kept until the next
//! change. Requests read a published [`View`]; they never take the hall's
//! lock.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use config::HallConfig;
use hall::public::{PublicChange, PublicEvent, PublicGame, PublicStatus};
use proto::IccsMove;

use sha2::{Digest, Sha256};

use xiangqi::{PackedPosition, Position};

use crate::notation::{with_room, Texts};

/// A rendered body with its content type and strong ETag.
#[derive(Debug, Clone)]
pub struct Body {
    /// The bytes.
    pub bytes: bytes_of::Bytes,
    /// `Content-Type`, with the charset.
    pub content_type: &'static str,
    /// The strong ETag (quoted): a hash of the bytes, so it changes exactly
    /// when the body does.
    pub etag: String,
}

/// `Bytes` under a short name (axum's body type).
pub mod bytes_of {
    pub use axum::body::Bytes;
}

/// Content type of the PGN.
pub const PGN: &str = "application/x-chess-pgn; charset=utf-8";
/// Content type of the JSON feeds.
pub const JSON: &str = "application/json; charset=utf-8";

impl Body {
    /// A body of `text`.
    pub fn new(text: String, content_type: &'static str) -> Body {
        let digest = Sha256::digest(text.as_bytes());
        let etag = format!(
            "\"{}\"",
            digest[..12]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        );
        Body {
            bytes: text.into(),
            content_type,
            etag,
        }
    }
}

/// One game as shown, with what a stream's catch-up needs: when each ply
/// was shown and when the game last changed, so "what changed since id
/// S" is the game's plies after S and its clocks and status now.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The game.
    pub game: PublicGame,
    /// Its moves in WXF and Chinese (written on as moves come, never
    /// replayed from the start but after a take-back).
    pub texts: Texts,
    /// The public sequence at which each ply was shown, as its distance
    /// from [`Shown::replaced`] (0: with the game given whole, or already
    /// in the hub's first picture of the round), non-decreasing (4 bytes
    /// a ply instead of 8; a distance past a u32 gives the game whole).
    ply_ids: Vec<u32>,
    /// The sequence of the game's last change (0: none since the first
    /// picture).
    pub changed: u64,
    /// The sequence at which the game was last given whole (a move taken
    /// back, a result withdrawn, a picture that does not continue it): a
    /// stream behind it gets every ply again.
    pub replaced: u64,
    /// Server time (Unix ms) of the record of its last change.
    pub at_ms: u64,
    /// The position after the last move, packed (100 bytes, not ~380:
    /// one for each game of the hall; `None` once a move did not
    /// replay: the texts are ICCS from there on).
    pos: Option<PackedPosition>,
}

impl Shown {
    /// `game` as first shown, every ply and the game itself at `at`.
    pub fn new(game: PublicGame, at: u64) -> Shown {
        let mut s = Shown {
            texts: Texts::new(),
            ply_ids: vec![0; game.moves.len()],
            changed: at,
            replaced: at,
            at_ms: game.clock_at_ms,
            pos: None,
            game,
        };
        s.rewrite();
        s
    }

    /// A copy with room for `more` plies: the hub copies a game for each
    /// change while the view before still holds it, and a copy made with
    /// no room doubled each of its lists at the next ply (issue 40: at
    /// 10,000 tables pressing once a second, every game).
    fn with_room(&self, more: usize) -> Shown {
        let g = &self.game;
        Shown {
            game: PublicGame {
                table: g.table,
                red: g.red.clone(),
                black: g.black.clone(),
                start_fen: g.start_fen.clone(),
                moves: with_room(&g.moves, more),
                ply_clocks: g.ply_clocks.with_room(more),
                clock: g.clock,
                clock_at_ms: g.clock_at_ms,
                status: g.status,
            },
            texts: self.texts.with_room(more),
            ply_ids: with_room(&self.ply_ids, more),
            changed: self.changed,
            replaced: self.replaced,
            at_ms: self.at_ms,
            pos: self.pos.clone(),
        }
    }

    /// Bytes its lists hold allocated past what they use.
    pub fn spare_bytes(&self) -> usize {
        let g = &self.game;
        let spare = |cap: usize, len: usize, size: usize| (cap - len) * size;
        spare(g.moves.capacity(), g.moves.len(), size_of::<IccsMove>())
            + g.ply_clocks
                .heap_bytes()
                .saturating_sub(g.ply_clocks.len() * 4)
            + spare(self.ply_ids.capacity(), self.ply_ids.len(), 4)
            + self.texts.wxf.spare_bytes()
            + self.texts.zh.spare_bytes()
    }

    /// The texts of every move, from the start position.
    fn rewrite(&mut self) {
        self.texts = Texts::new();
        let mut pos = Position::from_fen(&self.game.start_fen).ok();
        crate::notation::extend(&mut self.texts, &mut pos, &self.game.moves);
        self.pos = pos.as_ref().map(Position::pack);
    }

    /// The first ply a follower that was shown everything up to `since`
    /// lacks (every ply when the game was given whole after it).
    pub fn first_unseen(&self, since: u64) -> usize {
        if self.replaced > since {
            return 0;
        }
        let after = since - self.replaced;
        self.ply_ids.partition_point(|&d| u64::from(d) <= after)
    }

    /// The sequence at which ply `i` (0-based) was shown.
    pub fn ply_id(&self, i: usize) -> Option<u64> {
        self.ply_ids.get(i).map(|&d| self.replaced + u64::from(d))
    }

    /// The game given whole at `id`: every ply shown at it.
    fn give_whole(&mut self, id: u64) {
        self.replaced = id;
        self.ply_ids.clear();
        self.ply_ids.resize(self.game.moves.len(), 0);
    }

    /// Plies up to the game's length, those past `kept` shown at `id`.
    fn show_plies(&mut self, kept: usize, id: u64) {
        match u32::try_from(id.saturating_sub(self.replaced)) {
            Ok(d) => {
                self.ply_ids.truncate(kept);
                self.ply_ids.resize(self.game.moves.len(), d);
            }
            Err(_) => self.give_whole(id),
        }
    }

    /// Applies one public event of this game.
    pub fn apply(&mut self, e: &PublicEvent) {
        let before = self.game.moves.len();
        apply(&mut self.game, e);
        match &e.change {
            PublicChange::Game(_) => {
                self.give_whole(e.id);
                self.rewrite();
            }
            PublicChange::Move { ply, .. } => {
                let kept = (*ply as usize).saturating_sub(1).min(before);
                self.show_plies(kept, e.id);
                if kept < before {
                    self.rewrite();
                } else {
                    let new = self.game.moves.get(before..).unwrap_or_default();
                    write_on(&mut self.texts, &mut self.pos, new);
                }
            }
            PublicChange::Clock { .. } | PublicChange::Result { .. } => {}
        }
        self.changed = e.id;
        self.at_ms = e.at_ms;
    }

    /// This game as the picture `fresh` at `seq` has it: `None` when
    /// unchanged (the time its clocks were read aside), its new plies only
    /// when `fresh` continues it, else whole.
    fn resync(&self, fresh: &PublicGame, seq: u64) -> Option<Shown> {
        let same = PublicGame {
            clock_at_ms: self.game.clock_at_ms,
            ..fresh.clone()
        };
        if same == self.game {
            return None;
        }
        let n = self.game.moves.len();
        let continues = fresh.moves.len() >= n
            && fresh.moves[..n] == self.game.moves[..]
            && fresh.start_fen == self.game.start_fen;
        if !continues {
            return Some(Shown::new(fresh.clone(), seq));
        }
        let mut s = self.clone();
        s.game = fresh.clone();
        s.show_plies(n, seq);
        s.at_ms = fresh.clock_at_ms;
        write_on(&mut s.texts, &mut s.pos, &fresh.moves[n..]);
        s.changed = seq;
        Some(s)
    }
}

/// Appends the texts of `moves` played on from `pos` (the position after
/// the moves `texts` holds, packed), leaving `pos` after them.
fn write_on(texts: &mut Texts, pos: &mut Option<PackedPosition>, moves: &[IccsMove]) {
    if moves.is_empty() {
        return;
    }
    let mut now = pos.as_ref().map(PackedPosition::unpack);
    crate::notation::extend(texts, &mut now, moves);
    *pos = now.as_ref().map(Position::pack);
}

/// The texts of a game not in the view.
static NO_TEXTS: Texts = Texts::new();

/// The games as shown, and their rendered bodies.
#[derive(Debug)]
pub struct View {
    /// The round.
    pub round: u32,
    /// The public sequence the view holds at (id of its last event).
    pub seq: u64,
    /// The sequence of the hub's first picture of this round: a stream at
    /// an id from `base` to `seq` is caught up with the games changed
    /// since; one below it (or past `seq`) gets a snapshot.
    pub base: u64,
    /// Every game, by table (shared with the views before it while it
    /// does not change).
    pub games: BTreeMap<u16, Arc<Shown>>,
    /// The hall config (names, teams, time control, tags of the PGN).
    pub config: Arc<HallConfig>,
    pub(crate) pgn: OnceLock<Body>,
    pub(crate) state: OnceLock<Body>,
    /// The `snapshot` event (`sse::snapshot`), written once.
    pub(crate) snapshot_event: OnceLock<bytes_of::Bytes>,
    pub(crate) index: OnceLock<Body>,
    pub(crate) pairings: OnceLock<Body>,
    pub(crate) games_json: OnceLock<BTreeMap<u16, Body>>,
}

impl View {
    /// A view of `games` at `seq`, the first of its round (`base` = `seq`).
    pub fn new(config: Arc<HallConfig>, round: u32, seq: u64, games: Vec<PublicGame>) -> View {
        let games = games
            .into_iter()
            .map(|g| (g.table, Arc::new(Shown::new(g, 0))))
            .collect();
        View::with(config, round, seq, seq, games)
    }

    fn with(
        config: Arc<HallConfig>,
        round: u32,
        seq: u64,
        base: u64,
        games: BTreeMap<u16, Arc<Shown>>,
    ) -> View {
        View {
            round,
            seq,
            base,
            games,
            config,
            pgn: OnceLock::new(),
            state: OnceLock::new(),
            snapshot_event: OnceLock::new(),
            index: OnceLock::new(),
            pairings: OnceLock::new(),
            games_json: OnceLock::new(),
        }
    }

    /// Every game, in table order.
    pub fn all(&self) -> impl Iterator<Item = &PublicGame> {
        self.games.values().map(|s| &s.game)
    }

    /// The game of `table`.
    pub fn board(&self, table: u16) -> Option<&PublicGame> {
        self.games.get(&table).map(|s| &s.game)
    }

    /// The view after `events` (those at or before `seq` are already in
    /// it), with the tables they changed.
    pub fn after<'a>(
        &self,
        events: impl IntoIterator<Item = &'a PublicEvent>,
    ) -> (View, BTreeSet<u16>) {
        let events: Vec<&PublicEvent> = events.into_iter().filter(|e| e.id > self.seq).collect();
        let mut games = self.games.clone();
        // Each changed game copied once, with room for its new plies.
        let mut plies: BTreeMap<u16, usize> = BTreeMap::new();
        for e in &events {
            let more = plies.entry(e.table).or_default();
            if matches!(e.change, PublicChange::Move { .. }) {
                *more += 1;
            }
        }
        for (table, more) in plies {
            if let Some(s) = games.get_mut(&table) {
                if Arc::get_mut(s).is_none() {
                    *s = Arc::new(s.with_room(more));
                }
            }
        }
        let mut seq = self.seq;
        let mut changed = BTreeSet::new();
        for e in events {
            if let Some(s) = games.get_mut(&e.table) {
                Arc::make_mut(s).apply(e);
                changed.insert(e.table);
            }
            seq = seq.max(e.id);
        }
        let view = View::with(self.config.clone(), self.round, seq, self.base, games);
        (view, changed)
    }

    /// The view at a fresh picture of the same round (the hub took one
    /// after falling behind the hall), with the tables that differ; `None`
    /// when the picture does not continue this view (another round, other
    /// boards, an earlier sequence): then it is a new start.
    pub fn resync(
        &self,
        round: u32,
        seq: u64,
        fresh: &[PublicGame],
    ) -> Option<(View, BTreeSet<u16>)> {
        if round != self.round || seq < self.seq || fresh.len() != self.games.len() {
            return None;
        }
        let mut games = self.games.clone();
        let mut changed = BTreeSet::new();
        for g in fresh {
            let table = g.table;
            let now = games.get_mut(&table)?;
            if seq == self.seq {
                // The same sequence is the same public state.
                continue;
            }
            if let Some(s) = now.resync(g, seq) {
                *now = Arc::new(s);
                changed.insert(table);
            }
        }
        let view = View::with(self.config.clone(), self.round, seq, self.base, games);
        Some((view, changed))
    }

    /// Whether a stream shown everything up to `since` of this round can
    /// be caught up from this view by the games changed since.
    pub fn continues(&self, since: u64) -> bool {
        (self.base..=self.seq).contains(&since)
    }

    /// The tables whose game changed after `since` (a scan of the games'
    /// last changes: 10,000 comparisons, for a stream that fell behind).
    pub fn changed_since(&self, since: u64) -> Vec<u16> {
        self.games
            .iter()
            .filter(|(_, s)| s.changed > since)
            .map(|(&t, _)| t)
            .collect()
    }

    /// The texts of `table`'s moves (empty for a table not in the view).
    pub fn texts_of(&self, table: u16) -> &Texts {
        self.games.get(&table).map_or(&NO_TEXTS, |s| &s.texts)
    }
}

/// Applies one public event to the game it concerns.
pub fn apply(g: &mut PublicGame, e: &PublicEvent) {
    if !matches!(
        e.change,
        PublicChange::Result { .. } | PublicChange::Game(_)
    ) {
        g.clock_at_ms = e.at_ms;
    }
    match &e.change {
        PublicChange::Move {
            ply,
            mv,
            clock_ms,
            clock,
        } => {
            let at = (*ply as usize).saturating_sub(1);
            g.moves.truncate(at);
            g.ply_clocks.resize(at);
            g.moves.push(*mv);
            g.ply_clocks.resize(at + 1);
            if let Some(ms) = clock_ms {
                g.ply_clocks.set(at, *ms);
            }
            g.clock = *clock;
            if g.status == PublicStatus::Waiting {
                g.status = PublicStatus::Playing;
            }
        }
        PublicChange::Clock { clock, status } => {
            g.clock = *clock;
            g.status = *status;
        }
        PublicChange::Result { result, why } => {
            g.status = PublicStatus::Finished {
                result: *result,
                why: *why,
            };
            g.clock.running = None;
        }
        PublicChange::Game(whole) => *g = (**whole).clone(),
    }
}
