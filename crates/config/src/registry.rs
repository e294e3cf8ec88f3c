//! The player registry (参赛名单): `[[tournament.player]]` lists every
//! player once (id, name, optional rating, federation, club, team, and
//! whether the player may get the pairing-allocated bye), and gives the
//! start numbers the pairing engines use: by rating then name (unrated
//! last), or as listed (`tournament.start_order = "listed"`). A round's
//! pairing may name a registered player by id (`red = "P001"`): the name
//! comes from the registry. A config without a registry loads as before
//! (players are whoever the pairings name).

use proto::Message;
use serde::Deserialize;

/// `[[tournament.player]]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlayer {
    pub id: String,
    pub name: String,
    pub rating: Option<u32>,
    pub federation: Option<String>,
    pub club: Option<String>,
    pub team: Option<String>,
    /// May receive the pairing-allocated bye (default yes).
    pub bye: Option<bool>,
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Start number (1-based).
    pub start_number: u32,
    /// Registration id (unique).
    pub id: String,
    /// Name.
    pub name: String,
    /// Rating, when given.
    pub rating: Option<u32>,
    /// Federation code.
    pub federation: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Team.
    pub team: Option<String>,
    /// May receive the pairing-allocated bye.
    pub bye_eligible: bool,
}

/// How the pairing engine pairs a `swiss` event (`tournament.pairing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PairingSystem {
    /// The Xiangqi Swiss (积分编排制), the default for `swiss`.
    #[default]
    Xiangqi,
    /// FIDE's Dutch system.
    Dutch,
    /// Berger tables (the only one for round robins).
    RoundRobin,
}

/// Highest rating accepted (a typo guard).
const MAX_RATING: u32 = 4000;

/// Checks the registry and numbers it; problems go to `add(key, problem)`
/// (typed: `config-*` catalogue messages).
pub(super) fn validate(
    raw: &[RawPlayer],
    start_order: Option<&str>,
    add: &mut dyn FnMut(String, Message),
) -> Vec<Player> {
    let listed = match start_order {
        None | Some("rating") => false,
        Some("listed") => true,
        Some(other) => {
            add(
                "tournament.start_order".into(),
                Message::new("config-unknown-start-order").verbatim("value", other),
            );
            false
        }
    };
    let mut seen = std::collections::BTreeMap::new();
    let mut players = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let key = format!("tournament.player[{i}]");
        let id = r.id.trim();
        if id.is_empty() || id.chars().count() > super::MAX_PLAYER_ID {
            add(
                format!("{key}.id"),
                Message::new("config-player-id-length").int("max", super::MAX_PLAYER_ID as i64),
            );
        } else if let Some(prev) = seen.insert(id.to_string(), i) {
            add(
                format!("{key}.id"),
                Message::new("config-player-id-twice")
                    .verbatim("id", id)
                    .verbatim("other", format!("tournament.player[{prev}]")),
            );
        }
        if r.name.trim().is_empty() {
            add(format!("{key}.name"), Message::new("config-empty-player"));
        }
        if let Some(rating) = r.rating.filter(|&x| x > MAX_RATING) {
            add(
                format!("{key}.rating"),
                Message::new("config-rating-too-high")
                    .int("rating", rating)
                    .int("max", MAX_RATING),
            );
        }
        players.push(Player {
            start_number: 0,
            id: id.to_string(),
            name: r.name.trim().to_string(),
            rating: r.rating,
            federation: r.federation.clone(),
            club: r.club.clone(),
            team: r.team.clone(),
            bye_eligible: r.bye.unwrap_or(true),
        });
    }
    if !listed {
        players.sort_by(|a, b| {
            b.rating
                .unwrap_or(0)
                .cmp(&a.rating.unwrap_or(0))
                .then(a.name.cmp(&b.name))
                .then(a.id.cmp(&b.id))
        });
    }
    for (i, p) in players.iter_mut().enumerate() {
        p.start_number = i as u32 + 1;
    }
    players
}

/// Reads `tournament.pairing`.
pub(super) fn pairing_system(
    raw: Option<&str>,
    kind: super::TournamentKind,
    add: &mut dyn FnMut(String, Message),
) -> PairingSystem {
    match (kind, raw) {
        (super::TournamentKind::Swiss, None | Some("xiangqi")) => PairingSystem::Xiangqi,
        (super::TournamentKind::Swiss, Some("dutch")) => PairingSystem::Dutch,
        (_, None | Some("round-robin")) => PairingSystem::RoundRobin,
        (_, Some(other)) => {
            add(
                "tournament.pairing".into(),
                Message::new("config-pairing-not-for-kind")
                    .verbatim("value", other)
                    .verbatim("kind", kind.key()),
            );
            PairingSystem::default()
        }
    }
}

/// Pairings that name a registered player by id get the registry's name
/// and the id.
pub(super) fn resolve(rounds: &mut [super::Round], players: &[Player]) {
    if players.is_empty() {
        return;
    }
    for t in rounds.iter_mut().flat_map(|r| r.tables.iter_mut()) {
        for (name, id) in [(&mut t.red, &mut t.red_id), (&mut t.black, &mut t.black_id)] {
            if id.is_none() {
                if let Some(p) = players.iter().find(|p| p.id == *name) {
                    *id = Some(p.id.clone());
                    *name = p.name.clone();
                }
            }
        }
    }
}
