//! A tournament's rounds across its halls (一赛多厅，统一编排): each round
//! after the first is paired once, by the tournament's pairing hall, and
//! published in `tournament_rounds` (schema 3), one row per
//! `(tournament, round)`, append-only. The row holds the round as the
//! pairing hall published it (its bytes, in the hall's encoding: the store
//! does not read them) and the split the chief confirmed: which tables each
//! hall plays. A second publisher of the same round meets the primary key
//! and is refused with the hall that published it first.
//!
//! A round withdrawn before it started (schema 4) is a row of
//! `tournament_withdrawals` naming the publication it withdraws; the
//! round may then be published again (its next `publication`). Every hall
//! reads the last publication of a round and whether it stands.

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
    /// Which publication of the round (1, 2, … after withdrawals); set by
    /// the store when it publishes.
    pub publication: u32,
    /// Why it was withdrawn, and by which hall (`None`: it stands).
    pub withdrawn: Option<TournamentWithdrawal>,
}

/// A tournament round's publication withdrawn before it started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentWithdrawal {
    /// The hall that withdrew it (the pairing hall).
    pub hall_id: String,
    /// The chief's reason.
    pub reason: String,
    /// When (ms since the epoch).
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
        let round = i64::from(r.round);
        let split = r.split.encode();
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 6] = [
            &r.tournament,
            &round,
            &r.hall_id,
            &r.proposal,
            &split,
            &r.at_ms,
        ];
        let sql = match self.version >= 4 {
            // The next publication, unless the last one stands.
            true => {
                "INSERT INTO tournament_rounds
                     (tournament, round, hall_id, proposal, split, at_ms, publication)
                 SELECT $1, $2, $3, $4, $5, $6, coalesce(max(p.publication), 0) + 1
                 FROM tournament_rounds p WHERE p.tournament = $1 AND p.round = $2
                 HAVING NOT EXISTS (
                     SELECT 1 FROM tournament_rounds s
                     WHERE s.tournament = $1 AND s.round = $2
                       AND NOT EXISTS (SELECT 1 FROM tournament_withdrawals w
                           WHERE w.tournament = s.tournament AND w.round = s.round
                             AND w.publication = s.publication))"
            }
            false => {
                "INSERT INTO tournament_rounds (tournament, round, hall_id, proposal, split, at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6)"
            }
        };
        let inserted = client.execute(sql, &params).await;
        match inserted {
            Ok(1) => Ok(()),
            Ok(_) => Err(self.published_already(r).await),
            Err(e) if e.code().map(|c| c.code()) == Some(UNIQUE_VIOLATION) => {
                Err(self.published_already(r).await)
            }
            Err(e) => Err(StoreError::Io(pg_text(&e))),
        }
    }

    /// The refusal of a second publication of `r`'s round: naming the
    /// hall that published the round as it stands.
    async fn published_already(&self, r: &TournamentRound) -> StoreError {
        let by = match self.tournament_round(&r.tournament, r.round).await {
            Ok(Some(p)) => format!("hall {}", p.hall_id),
            Ok(None) => "another hall".to_string(),
            Err(e) => return e,
        };
        StoreError::Invalid(format!(
            "round {} of tournament {} was already published by {by}",
            r.round, r.tournament
        ))
    }

    /// Withdraws the last publication of round `round` of `tournament`
    /// (it must stand), for every hall of the tournament: stored (committed
    /// with `synchronous_commit` at least `on`) before it answers. The
    /// round may be published again after. Refused on a database of schema
    /// 3 or older, when the round was not published or its last
    /// publication is withdrawn already, and when the withdrawing hall is
    /// not a hall of the tournament.
    pub async fn withdraw_tournament_round(
        &self,
        tournament: &str,
        round: u32,
        w: &TournamentWithdrawal,
    ) -> Result<(), StoreError> {
        if self.version < 4 {
            return Err(StoreError::Invalid(format!(
                "the database's caipan schema is version {}: withdrawing a tournament round needs version 4 (start a hall of this build once to migrate it)",
                self.version
            )));
        }
        let Some(last) = self.tournament_round(tournament, round).await? else {
            return Err(StoreError::Invalid(format!(
                "round {round} of tournament {tournament} was not published"
            )));
        };
        if last.withdrawn.is_some() {
            return Err(StoreError::Invalid(format!(
                "round {round} of tournament {tournament} was withdrawn already"
            )));
        }
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::Io(format!("database: {e}")))?;
        durable_session(&client).await.map_err(pg_io)?;
        let inserted = client
            .execute(
                "INSERT INTO tournament_withdrawals (tournament, round, publication, hall_id, reason, at_ms)
                 SELECT $1, $2, $3, $4, $5, $6 FROM halls WHERE hall_id = $4 AND tournament = $1",
                &[
                    &tournament,
                    &i64::from(round),
                    &i64::from(last.publication),
                    &w.hall_id,
                    &w.reason,
                    &w.at_ms,
                ],
            )
            .await;
        match inserted {
            Ok(1) => Ok(()),
            Ok(_) => Err(StoreError::Invalid(format!(
                "hall {} is not a hall of tournament {tournament} in the database",
                w.hall_id
            ))),
            Err(e) if e.code().map(|c| c.code()) == Some(UNIQUE_VIOLATION) => {
                Err(StoreError::Invalid(format!(
                    "round {round} of tournament {tournament} was withdrawn already"
                )))
            }
            Err(e) => Err(StoreError::Io(pg_text(&e))),
        }
    }

    /// The publications of `tournament`'s rounds, by round and
    /// publication, each with its withdrawal if it was withdrawn (none on
    /// a database of schema 2).
    pub async fn tournament_rounds(
        &self,
        tournament: &str,
    ) -> Result<Vec<TournamentRound>, StoreError> {
        self.read_rounds(tournament, None).await
    }

    /// The last publication of round `round` of `tournament`, if it was
    /// published (withdrawn or standing: see its `withdrawn`).
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
        let query = match self.version >= 4 {
            true => {
                "SELECT r.round, r.hall_id, r.proposal, r.split, r.at_ms, r.publication,
                        w.hall_id, w.reason, w.at_ms
                 FROM tournament_rounds r LEFT JOIN tournament_withdrawals w
                   ON w.tournament = r.tournament AND w.round = r.round
                  AND w.publication = r.publication
                 WHERE r.tournament = $1 AND ($2::bigint IS NULL OR r.round = $2)
                 ORDER BY r.round, r.publication"
            }
            false => {
                "SELECT round, hall_id, proposal, split, at_ms, 1::bigint,
                        NULL::text, NULL::text, NULL::bigint
                 FROM tournament_rounds
                 WHERE tournament = $1 AND ($2::bigint IS NULL OR round = $2)
                 ORDER BY round"
            }
        };
        let rows = client
            .query(query, &[&tournament, &round])
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
                    publication: u32::try_from(row.get::<_, i64>(5))
                        .map_err(|_| bad("bad publication".into()))?,
                    withdrawn: row.get::<_, Option<String>>(6).map(|hall_id| {
                        TournamentWithdrawal {
                            hall_id,
                            reason: row.get::<_, Option<String>>(7).unwrap_or_default(),
                            at_ms: row.get::<_, Option<i64>>(8).unwrap_or_default(),
                        }
                    }),
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
