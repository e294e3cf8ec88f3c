//! A tournament's rounds across its halls (一赛多厅，统一编排): each round
//! after the first is paired once, by the tournament's pairing hall, and
//! published in `tournament_rounds` (schema 3), one row per
//! `(tournament, round)`, append-only. The row holds the round as the
//! pairing hall published it (its bytes, in the hall's encoding: the store
//! does not read them) and the split the chief confirmed: which tables each
//! hall plays. A second publisher of the same round meets the primary key
//! and is refused with the hall that published it first.

use super::connect::durable_session;
use super::schema::{pg_io, pg_text};
use super::PgDatabase;
use crate::StoreError;

/// Which tables each hall of the tournament plays in a round: one entry
/// per hall, in the order given; no hall twice, no table in two halls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    halls: Vec<(String, Vec<u16>)>,
}

impl Split {
    /// A split of `halls`' tables, checked: hall ids non-empty and on one
    /// line without `": "`, no hall twice, no table in two halls.
    pub fn new(halls: Vec<(String, Vec<u16>)>) -> Result<Split, String> {
        let mut seen_tables = std::collections::BTreeMap::new();
        for (i, (hall, tables)) in halls.iter().enumerate() {
            if hall.is_empty() || hall.contains(['\n', '\r']) || hall.contains(": ") {
                return Err(format!("split: hall id {hall:?} cannot be recorded"));
            }
            if halls[..i].iter().any(|(h, _)| h == hall) {
                return Err(format!("split: hall {hall} is named twice"));
            }
            for t in tables {
                if let Some(other) = seen_tables.insert(*t, hall.as_str()) {
                    return Err(format!(
                        "split: table {t} is given to hall {other} and to hall {hall}"
                    ));
                }
            }
        }
        Ok(Split { halls })
    }

    /// Each hall's tables, in the order given.
    pub fn halls(&self) -> &[(String, Vec<u16>)] {
        &self.halls
    }

    /// The tables of `hall` (`None`: the split does not name it).
    pub fn tables_of(&self, hall: &str) -> Option<&[u16]> {
        self.halls
            .iter()
            .find(|(h, _)| h == hall)
            .map(|(_, t)| t.as_slice())
    }

    /// The stored text: one line per hall, `hall_id: 1,2,3`.
    pub fn encode(&self) -> String {
        self.halls
            .iter()
            .map(|(hall, tables)| {
                let tables: Vec<String> = tables.iter().map(u16::to_string).collect();
                format!("{hall}: {}\n", tables.join(","))
            })
            .collect()
    }

    /// Reads [`Split::encode`]'s text back (checked as [`Split::new`]).
    pub fn parse(text: &str) -> Result<Split, String> {
        let mut halls = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let Some((hall, tables)) = line.split_once(": ") else {
                return Err(format!(
                    "split line {}: no `hall: tables` in {line:?}",
                    n + 1
                ));
            };
            let tables = match tables.is_empty() {
                true => Vec::new(),
                false => tables
                    .split(',')
                    .map(|t| {
                        t.parse::<u16>()
                            .map_err(|_| format!("split line {}: bad table {t:?}", n + 1))
                    })
                    .collect::<Result<Vec<u16>, String>>()?,
            };
            halls.push((hall.to_string(), tables));
        }
        Split::new(halls)
    }
}

/// A round of a tournament as its pairing hall published it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRound {
    /// The tournament (`[store] tournament`).
    pub tournament: String,
    /// The round (2 or later: round 1 is every hall's config).
    pub round: u32,
    /// The hall that paired and published it.
    pub hall_id: String,
    /// The round as published, in the hall's encoding.
    pub proposal: Vec<u8>,
    /// Which tables each hall plays.
    pub split: Split,
    /// When it was published (ms since the epoch).
    pub at_ms: i64,
}

/// The unique violation's SQLSTATE.
const UNIQUE_VIOLATION: &str = "23505";

impl PgDatabase {
    /// Publishes `r` for every hall of its tournament: stored (committed
    /// with `synchronous_commit` at least `on`) before it answers. Refused
    /// when the round was published already (naming the hall that did),
    /// when the publishing hall is not a hall of the tournament in the
    /// database, or on a database of schema 2 (not migrated yet: a hall
    /// of this build migrates it when it starts).
    pub async fn publish_tournament_round(&self, r: &TournamentRound) -> Result<(), StoreError> {
        self.needs_tournament_rounds()?;
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::Io(format!("database: {e}")))?;
        durable_session(&client).await.map_err(pg_io)?;
        let recorded = client
            .query_opt(
                "SELECT tournament FROM halls WHERE hall_id = $1",
                &[&r.hall_id],
            )
            .await
            .map_err(pg_io)?;
        let in_tournament = recorded.and_then(|row| row.get::<_, Option<String>>(0));
        if in_tournament.as_deref() != Some(r.tournament.as_str()) {
            return Err(StoreError::Invalid(format!(
                "hall {} is not a hall of tournament {} in the database",
                r.hall_id, r.tournament
            )));
        }
        let inserted = client
            .execute(
                "INSERT INTO tournament_rounds (tournament, round, hall_id, proposal, split, at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &r.tournament,
                    &i64::from(r.round),
                    &r.hall_id,
                    &r.proposal,
                    &r.split.encode(),
                    &r.at_ms,
                ],
            )
            .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(e) if e.code().map(|c| c.code()) == Some(UNIQUE_VIOLATION) => {
                let by = self
                    .tournament_round(&r.tournament, r.round)
                    .await?
                    .map_or_else(
                        || "another hall".to_string(),
                        |p| format!("hall {}", p.hall_id),
                    );
                Err(StoreError::Invalid(format!(
                    "round {} of tournament {} was already published by {by}",
                    r.round, r.tournament
                )))
            }
            Err(e) => Err(StoreError::Io(pg_text(&e))),
        }
    }

    /// The published rounds of `tournament`, by round (none on a
    /// database of schema 2).
    pub async fn tournament_rounds(
        &self,
        tournament: &str,
    ) -> Result<Vec<TournamentRound>, StoreError> {
        self.read_rounds(tournament, None).await
    }

    /// Round `round` of `tournament`, if it was published.
    pub async fn tournament_round(
        &self,
        tournament: &str,
        round: u32,
    ) -> Result<Option<TournamentRound>, StoreError> {
        Ok(self.read_rounds(tournament, Some(round)).await?.pop())
    }

    async fn read_rounds(
        &self,
        tournament: &str,
        round: Option<u32>,
    ) -> Result<Vec<TournamentRound>, StoreError> {
        if self.needs_tournament_rounds().is_err() {
            return Ok(Vec::new());
        }
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::Io(format!("database: {e}")))?;
        let round = round.map(i64::from);
        let rows = client
            .query(
                "SELECT round, hall_id, proposal, split, at_ms FROM tournament_rounds
                 WHERE tournament = $1 AND ($2::bigint IS NULL OR round = $2)
                 ORDER BY round",
                &[&tournament, &round],
            )
            .await
            .map_err(pg_io)?;
        rows.iter()
            .map(|row| {
                let n: i64 = row.get(0);
                let bad = |what: String| {
                    StoreError::Io(format!("tournament {tournament}, round {n}: {what}"))
                };
                Ok(TournamentRound {
                    tournament: tournament.to_string(),
                    round: u32::try_from(n).map_err(|_| bad("bad round".into()))?,
                    hall_id: row.get(1),
                    proposal: row.get(2),
                    split: Split::parse(row.get(3)).map_err(bad)?,
                    at_ms: row.get(4),
                })
            })
            .collect()
    }

    /// Refuses a database whose schema has no `tournament_rounds` yet.
    fn needs_tournament_rounds(&self) -> Result<(), StoreError> {
        match self.version >= 3 {
            true => Ok(()),
            false => Err(StoreError::Invalid(format!(
                "the database's caipan schema is version {}: tournament rounds need version 3 (start a hall of this build once to migrate it)",
                self.version
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Split;

    #[test]
    fn a_split_reads_back_as_written_and_refuses_a_table_in_two_halls() {
        let s = Split::new(vec![
            ("room-a".into(), vec![1, 2, 3]),
            ("room-b".into(), vec![61, 62]),
            ("room-c".into(), vec![]),
        ])
        .unwrap();
        assert_eq!(s.encode(), "room-a: 1,2,3\nroom-b: 61,62\nroom-c: \n");
        assert_eq!(Split::parse(&s.encode()).unwrap(), s);
        assert_eq!(s.tables_of("room-b"), Some(&[61, 62][..]));
        assert_eq!(s.tables_of("room-d"), None);
        let twice = Split::new(vec![("a".into(), vec![1, 2]), ("b".into(), vec![2])]);
        assert_eq!(
            twice.unwrap_err(),
            "split: table 2 is given to hall a and to hall b"
        );
        let err = Split::parse("room-a: 1,x").unwrap_err();
        assert!(err.contains("bad table \"x\""), "{err}");
        let err = Split::parse("room-a 1,2").unwrap_err();
        assert!(err.contains("line 1"), "{err}");
        assert!(Split::new(vec![("a".into(), vec![]), ("a".into(), vec![])]).is_err());
    }
}
