//! What the broadcast shows (公开画面): the round's games as followers see
//! them after the delay, at a public sequence number, with the bodies of
//! every feed rendered once, when first asked for, and kept until the next
//! change. Requests read a published [`View`]; they never take the hall's
//! lock.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use config::HallConfig;
use hall::public::{PublicChange, PublicEvent, PublicGame, PublicStatus};

use sha2::{Digest, Sha256};

use crate::notation::{texts, Texts};

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

/// The games as shown, and their rendered bodies.
#[derive(Debug)]
pub struct View {
    /// The round.
    pub round: u32,
    /// The public sequence the view holds at (id of its last event).
    pub seq: u64,
    /// Every game, by table.
    pub games: BTreeMap<u16, PublicGame>,
    /// The hall config (names, teams, time control, tags of the PGN).
    pub config: Arc<HallConfig>,
    /// Each game's moves in WXF and Chinese, by table (written once: a
    /// later view keeps those of the games that did not change).
    pub texts: BTreeMap<u16, Arc<Texts>>,
    pub(crate) pgn: OnceLock<Body>,
    pub(crate) state: OnceLock<Body>,
    pub(crate) index: OnceLock<Body>,
    pub(crate) pairings: OnceLock<Body>,
    pub(crate) games_json: OnceLock<BTreeMap<u16, Body>>,
}

impl View {
    /// A view of `games` at `seq`.
    pub fn new(config: Arc<HallConfig>, round: u32, seq: u64, games: Vec<PublicGame>) -> View {
        let games: BTreeMap<u16, PublicGame> = games.into_iter().map(|g| (g.table, g)).collect();
        let texts = games
            .values()
            .map(|g| (g.table, Arc::new(texts(&g.start_fen, &g.moves))))
            .collect();
        View::with_texts(config, round, seq, games, texts)
    }

    fn with_texts(
        config: Arc<HallConfig>,
        round: u32,
        seq: u64,
        games: BTreeMap<u16, PublicGame>,
        texts: BTreeMap<u16, Arc<Texts>>,
    ) -> View {
        View {
            round,
            seq,
            games,
            config,
            texts,
            pgn: OnceLock::new(),
            state: OnceLock::new(),
            index: OnceLock::new(),
            pairings: OnceLock::new(),
            games_json: OnceLock::new(),
        }
    }

    /// The view after `events` (those at or before `seq` are already in it).
    pub fn after(&self, events: &[PublicEvent]) -> View {
        let mut games = self.games.clone();
        let mut texts = self.texts.clone();
        let mut seq = self.seq;
        let mut moved = BTreeSet::new();
        for e in events.iter().filter(|e| e.id > self.seq) {
            if let Some(g) = games.get_mut(&e.table) {
                apply(g, e);
                if matches!(e.change, PublicChange::Move { .. } | PublicChange::Game(_)) {
                    moved.insert(e.table);
                }
            }
            seq = e.id;
        }
        for t in moved {
            if let Some(g) = games.get(&t) {
                texts.insert(t, Arc::new(crate::notation::texts(&g.start_fen, &g.moves)));
            }
        }
        View::with_texts(self.config.clone(), self.round, seq, games, texts)
    }

    /// The texts of `table`'s moves (empty for a table not in the view).
    pub fn texts_of(&self, table: u16) -> Arc<Texts> {
        self.texts.get(&table).cloned().unwrap_or_default()
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
            g.ply_clocks.truncate(at);
            g.ply_clocks.resize(at, None);
            g.moves.push(*mv);
            g.ply_clocks.push(*clock_ms);
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
