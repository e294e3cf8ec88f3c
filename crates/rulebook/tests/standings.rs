//! Scoring (2/1/0, two-game and team matches) and standings with the AXF
//! tie-break orders (rulebook::scoring, rulebook::standings).

use rulebook::scoring::{team_match, team_two_game_match, two_game_match, GameResult, Outcome};
use rulebook::standings::{
    standings, EventSystem, GameRecord, StandingRow, StandingsConfig, StandingsError, TieBreak,
};
use rulebook::RuleId;
use xiangqi::Color::{Black, Red};

use Outcome::{Draw, Loss, Win};

fn g(round: u32, red: &str, black: &str, result: &str) -> GameRecord {
    GameRecord {
        round,
        red: red.into(),
        black: black.into(),
        result: GameResult::parse(result).unwrap(),
        technical_fouls: [0, 0],
    }
}

// The hand-worked six-player round robin (one game each pair, 15 games).
//
// ```text
//  Red-Black result     Red-Black result     Red-Black result
//  B-A  1-0             B-D  0-1             E-C  draw
//  C-A  draw            B-E  0-1             C-F  0-1
//  A-D  draw            B-F  1-0             E-D  draw
//  E-A  draw            D-C  0-1             F-D  draw
//  A-F  draw            B-C  1-0             E-F  draw
// ```
//
// Points (win 2, draw 1):
//   A: lost to B, drew C D E F            = 4
//   B: beat A C F, lost to D E            = 6
//   C: drew A E, lost to B, beat D, lost F = 4
//   D: drew A E F, beat B, lost to C      = 5
//   E: drew A C D F, beat B               = 6
//   F: drew A D E, lost to B, beat C      = 5     (total 30 = 15 games × 2)
//
// Ties: B=E (6), D=F (5), A=C (4).
// Round-robin order (AXF-RANK-1):
// - B/E, direct encounter: E beat B (B-E 0-1) → E 1st, B 2nd.
// - D/F, direct encounter: drawn (1-1). Opponent score = beaten opponents'
//   points + half of drawn opponents' points:
//     D: beat B (6) + half of A, E, F (4+6+5)/2 = 7.5 → 13.5
//     F: beat C (4) + half of A, D, E (4+5+6)/2 = 7.5 → 11.5
//   → D 3rd, F 4th.
// - A/C, direct encounter drawn; opponent score:
//     A: beat nobody + half of C, D, E, F (4+5+6+5)/2 = 10
//     C: beat D (5) + half of A, E (4+6)/2 = 5 → 10
//   equal → technical fouls decide (case 1: C has one → A 5th, C 6th);
//   with equal fouls, wins with Black decide: C won with Black (D-C 0-1),
//   A has none → C 5th, A 6th (case 2).
fn six() -> Vec<GameRecord> {
    [
        ("B", "A", "1-0"),
        ("C", "A", "1/2-1/2"),
        ("A", "D", "1/2-1/2"),
        ("E", "A", "1/2-1/2"),
        ("A", "F", "1/2-1/2"),
        ("B", "D", "0-1"),
        ("B", "E", "0-1"),
        ("B", "F", "1-0"),
        ("D", "C", "0-1"),
        ("B", "C", "1-0"),
        ("E", "C", "1/2-1/2"),
        ("C", "F", "0-1"),
        ("E", "D", "1/2-1/2"),
        ("F", "D", "1/2-1/2"),
        ("E", "F", "1/2-1/2"),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (r, b, res))| g(i as u32 / 3 + 1, r, b, res))
    .collect()
}

fn order(rows: &[StandingRow]) -> String {
    rows.iter().map(|r| r.player.as_str()).collect()
}

fn row<'a>(rows: &'a [StandingRow], p: &str) -> &'a StandingRow {
    rows.iter().find(|r| r.player == p).unwrap()
}

#[test]
fn six_matches_the_table() {
    // Every pair exactly once, and the fifteen results of the doc table.
    let games = six();
    assert_eq!(games.len(), 15);
    let mut pairs: Vec<(String, String)> = games
        .iter()
        .map(|g| {
            let mut p = [g.red.clone(), g.black.clone()];
            p.sort();
            (p[0].clone(), p[1].clone())
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 15);
    let has = |r: &str, b: &str, res: &str| {
        games
            .iter()
            .any(|g| g.red == r && g.black == b && g.result.as_str() == res)
    };
    for (r, b, res) in [
        ("B", "A", "1-0"),
        ("C", "A", "1/2-1/2"),
        ("A", "D", "1/2-1/2"),
        ("E", "A", "1/2-1/2"),
        ("A", "F", "1/2-1/2"),
        ("B", "D", "0-1"),
        ("B", "E", "0-1"),
        ("B", "F", "1-0"),
        ("D", "C", "0-1"),
        ("B", "C", "1-0"),
        ("E", "C", "1/2-1/2"),
        ("C", "F", "0-1"),
        ("E", "D", "1/2-1/2"),
        ("F", "D", "1/2-1/2"),
        ("E", "F", "1/2-1/2"),
    ] {
        assert!(has(r, b, res), "{r}-{b} {res}");
    }
}

#[test]
fn round_robin_tie_breaks_case_fouls() {
    let mut games = six();
    // C has one technical foul (in its game against E); A none.
    for x in games.iter_mut() {
        if x.red == "E" && x.black == "C" {
            x.technical_fouls = [0, 1];
        }
    }
    let rows = standings(&games, &[], &StandingsConfig::default()).unwrap();
    assert_eq!(order(&rows), "EBDFAC");
    let ranks: Vec<u32> = rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, vec![1, 2, 3, 4, 5, 6]);
    assert!(rows.iter().all(|r| !r.shared));
    let points: Vec<u32> = rows.iter().map(|r| r.points).collect();
    assert_eq!(points, vec![6, 6, 5, 5, 4, 4]);
    assert_eq!(row(&rows, "E").decided_by, Some(TieBreak::DirectEncounter));
    assert_eq!(row(&rows, "B").decided_by, Some(TieBreak::DirectEncounter));
    assert_eq!(
        row(&rows, "D").decided_by,
        Some(TieBreak::OpponentScoreBeaten)
    );
    assert_eq!(
        row(&rows, "F").decided_by,
        Some(TieBreak::OpponentScoreBeaten)
    );
    assert_eq!(
        row(&rows, "A").decided_by,
        Some(TieBreak::FewerTechnicalFouls)
    );
    assert_eq!(
        row(&rows, "C").decided_by,
        Some(TieBreak::FewerTechnicalFouls)
    );
    // Values worked out by hand (opponent score ×2).
    assert_eq!(row(&rows, "D").opponent_score_beaten_x2, 27);
    assert_eq!(row(&rows, "F").opponent_score_beaten_x2, 23);
    assert_eq!(row(&rows, "A").opponent_score_beaten_x2, 20);
    assert_eq!(row(&rows, "C").opponent_score_beaten_x2, 20);
    assert_eq!(row(&rows, "C").technical_fouls, 1);
    let d = &row(&rows, "D").tie_breaks;
    assert_eq!(d.len(), 2);
    assert_eq!((d[0].tie_break, d[0].value), (TieBreak::DirectEncounter, 1));
    assert_eq!(
        (d[1].tie_break, d[1].value),
        (TieBreak::OpponentScoreBeaten, 27)
    );
    let a: Vec<TieBreak> = row(&rows, "A")
        .tie_breaks
        .iter()
        .map(|t| t.tie_break)
        .collect();
    assert_eq!(
        a,
        vec![
            TieBreak::DirectEncounter,
            TieBreak::OpponentScoreBeaten,
            TieBreak::FewerTechnicalFouls
        ]
    );
    // E was not tied on the opponent score: only one criterion evaluated.
    assert_eq!(row(&rows, "E").tie_breaks.len(), 1);
    assert_eq!(row(&rows, "E").wins, 1);
    assert_eq!(row(&rows, "E").black_wins, 1);
    assert_eq!(row(&rows, "E").draws, 4);
}

#[test]
fn round_robin_tie_breaks_case_black_wins() {
    let rows = standings(&six(), &[], &StandingsConfig::default()).unwrap();
    assert_eq!(order(&rows), "EBDFCA");
    assert_eq!(row(&rows, "C").decided_by, Some(TieBreak::MoreBlackWins));
    assert_eq!(row(&rows, "C").black_wins, 1);
    assert_eq!(row(&rows, "A").black_wins, 0);
}

#[test]
fn points_round_robin_order_uses_all_opponents_first() {
    // In a complete round robin the sum of all opponents' points is the same
    // for players with equal points (30 − own points): it never separates
    // them here, so direct encounter, fouls, black wins and lots follow.
    // B/E: opponent score 24 each, E beat B → E, B.
    // D/F: 25 each, drew, no fouls, one black win each (D at B, F at C) → lots.
    // A/C: 26 each, drew, no fouls, C one black win → C, A.
    let cfg = StandingsConfig {
        system: EventSystem::PointsRoundRobin,
        lots: vec!["F".into(), "D".into()],
        ..StandingsConfig::default()
    };
    let rows = standings(&six(), &[], &cfg).unwrap();
    assert_eq!(order(&rows), "EBFDCA");
    assert_eq!(row(&rows, "E").opponent_score_all, 24);
    assert_eq!(row(&rows, "D").opponent_score_all, 25);
    assert_eq!(row(&rows, "A").opponent_score_all, 26);
    assert_eq!(row(&rows, "F").decided_by, Some(TieBreak::Lots));
    assert_eq!(row(&rows, "E").decided_by, Some(TieBreak::DirectEncounter));
    assert_eq!(
        EventSystem::Swiss.default_order(),
        EventSystem::PointsRoundRobin.default_order()
    );
    assert_eq!(EventSystem::Swiss.rule_id(), RuleId::AXF_RANK_2);
    assert_eq!(EventSystem::RoundRobin.rule_id(), RuleId::AXF_RANK_1);
}

/// Four players, every game drawn, colours balanced: every criterion ties
/// (3 points, mini-table 3, opponent score 4.5, no fouls, no black wins).
fn all_draws() -> Vec<GameRecord> {
    vec![
        g(1, "P", "Q", "1/2-1/2"),
        g(1, "R", "S", "1/2-1/2"),
        g(2, "S", "P", "1/2-1/2"),
        g(2, "Q", "R", "1/2-1/2"),
        g(3, "P", "R", "1/2-1/2"),
        g(3, "S", "Q", "1/2-1/2"),
    ]
}

#[test]
fn lots_decide_and_the_champion_is_never_shared() {
    let cfg = StandingsConfig {
        lots: vec!["R".into(), "P".into(), "S".into(), "Q".into()],
        ..StandingsConfig::default()
    };
    let rows = standings(&all_draws(), &[], &cfg).unwrap();
    assert_eq!(order(&rows), "RPSQ");
    assert!(rows.iter().all(|r| r.decided_by == Some(TieBreak::Lots)));
    assert_eq!(row(&rows, "P").opponent_score_beaten_x2, 9);
    // Shared places allowed: the champion is still drawn, the rest share 2nd.
    let shared = StandingsConfig {
        shared_ranks_allowed: true,
        ..cfg.clone()
    };
    let rows = standings(&all_draws(), &[], &shared).unwrap();
    assert_eq!(rows[0].player, "R");
    assert_eq!((rows[0].rank, rows[0].shared), (1, false));
    assert!(rows[1..].iter().all(|r| r.rank == 2 && r.shared));
    // Without a drawn order: a seeded draw, the same for the same seed.
    let seeded = |seed| {
        let c = StandingsConfig {
            lot_seed: seed,
            ..StandingsConfig::default()
        };
        order(&standings(&all_draws(), &[], &c).unwrap())
    };
    assert_eq!(seeded(7), seeded(7));
    let mut orders: Vec<String> = (0..20).map(seeded).collect();
    orders.sort();
    orders.dedup();
    assert!(orders.len() > 1, "the seed changes the draw");
    // A partial drawn order: drawn players first.
    let partial = StandingsConfig {
        lots: vec!["S".into()],
        ..StandingsConfig::default()
    };
    assert_eq!(
        standings(&all_draws(), &[], &partial).unwrap()[0].player,
        "S"
    );
}

#[test]
fn three_way_tie_uses_the_mini_table() {
    // X, Y, Z each 4 points: X beat Y, Y beat Z, Z beat X; each beat W...
    // except W beats nobody and draws nobody. Mini-table among X, Y, Z is
    // 2-2-2; the opponent score (beaten + half drawn) decides:
    //   X beat Y (4) and W (0) = 4; Y beat Z (4) and W = 4; Z beat X and W = 4.
    // All equal; fouls: Y 0, X 1, Z 2 → Y, X, Z.
    let mut games = vec![
        g(1, "X", "Y", "1-0"),
        g(1, "Z", "W", "1-0"),
        g(2, "Y", "Z", "1-0"),
        g(2, "W", "X", "0-1"),
        g(3, "Z", "X", "1-0"),
        g(3, "Y", "W", "1-0"),
    ];
    games[0].technical_fouls = [1, 0];
    games[1].technical_fouls = [2, 0];
    let rows = standings(&games, &["V".to_string()], &StandingsConfig::default()).unwrap();
    assert_eq!(&order(&rows)[..3], "YXZ");
    assert_eq!(rows.len(), 5);
    assert_eq!(row(&rows, "X").tie_breaks[0].value, 2, "mini-table points");
    assert_eq!(
        row(&rows, "Y").decided_by,
        Some(TieBreak::FewerTechnicalFouls)
    );
    // W (0 points) and V (no games) tie at 0: lots (seeded) decide; both listed.
    assert_eq!(row(&rows, "V").games, 0);
    assert_eq!(row(&rows, "W").losses, 3);
}

#[test]
fn forfeits_count_as_results_but_not_as_black_wins() {
    let games = vec![
        g(1, "A", "B", "+/-"),
        g(1, "C", "D", "-/+"),
        g(2, "A", "C", "-/-"),
        g(2, "B", "D", "0-1"),
    ];
    let rows = standings(&games, &[], &StandingsConfig::default()).unwrap();
    let d = row(&rows, "D");
    assert_eq!((d.points, d.wins, d.black_wins), (4, 2, 1));
    let a = row(&rows, "A");
    assert_eq!((a.points, a.wins, a.losses), (2, 1, 1));
    let c = row(&rows, "C");
    assert_eq!((c.points, c.losses), (0, 2));
}

#[test]
fn bad_input_is_an_error() {
    let cfg = StandingsConfig {
        order: Some(vec![TieBreak::Lots, TieBreak::DirectEncounter]),
        ..StandingsConfig::default()
    };
    assert_eq!(
        standings(&six(), &[], &cfg),
        Err(StandingsError::LotsNotLast)
    );
    let cfg = StandingsConfig {
        order: Some(vec![TieBreak::DirectEncounter, TieBreak::DirectEncounter]),
        ..StandingsConfig::default()
    };
    assert_eq!(
        standings(&six(), &[], &cfg),
        Err(StandingsError::Duplicate(TieBreak::DirectEncounter))
    );
    let e = standings(&[g(4, "A", "A", "1-0")], &[], &StandingsConfig::default()).unwrap_err();
    assert!(e.to_string().contains("round 4"), "{e}");
    assert!(standings(&[], &[], &StandingsConfig::default())
        .unwrap()
        .is_empty());
}

#[test]
fn custom_order_from_config() {
    let cfg: StandingsConfig = toml::from_str(
        "system = \"swiss\"\norder = [\"more_black_wins\", \"direct_encounter\", \"lots\"]\nlots = [\"A\"]",
    )
    .unwrap();
    let rows = standings(&six(), &[], &cfg).unwrap();
    // B/E: black wins B 0, E 1 → E. D/F: 1 each, drew → lots (seeded).
    // A/C: black wins A 0, C 1 → C.
    assert_eq!(&order(&rows)[..2], "EB");
    assert_eq!(&order(&rows)[4..], "CA");
    assert!(toml::from_str::<StandingsConfig>("order = [\"coin_toss\"]").is_err());
}

#[test]
fn game_results_parse_and_score() {
    for (t, r) in [
        ("1-0", GameResult::RedWins),
        ("0-1", GameResult::BlackWins),
        ("1/2-1/2", GameResult::Draw),
        ("draw", GameResult::Draw),
        ("+/-", GameResult::RedWinsByForfeit),
        ("-/+", GameResult::BlackWinsByForfeit),
        ("-/-", GameResult::DoubleForfeit),
    ] {
        assert_eq!(GameResult::parse(t), Ok(r), "{t}");
    }
    assert!(GameResult::parse("2-0").is_err());
    assert_eq!(GameResult::RedWins.points(Red), 2);
    assert_eq!(GameResult::RedWins.points(Black), 0);
    assert_eq!(GameResult::Draw.points(Black), 1);
    assert_eq!(GameResult::DoubleForfeit.points(Red), 0);
    assert_eq!(GameResult::DoubleForfeit.points(Black), 0);
    assert_eq!(GameResult::BlackWinsByForfeit.winner(), Some(Black));
    let json = serde_json::to_string(&GameResult::Draw).unwrap();
    assert_eq!(json, "\"1/2-1/2\"");
    let back: GameRecord =
        serde_json::from_str(r#"{"round":1,"red":"a","black":"b","result":"0-1"}"#).unwrap();
    assert_eq!(back.result, GameResult::BlackWins);
    assert_eq!(back.technical_fouls, [0, 0]);
}

#[test]
fn two_game_matches_small_and_big_points() {
    let m = two_game_match([Win, Win]);
    assert_eq!((m.small, m.big, m.outcome), ([4, 0], [2, 0], Win));
    let m = two_game_match([Win, Draw]);
    assert_eq!((m.small, m.big), ([3, 1], [2, 0]));
    let m = two_game_match([Win, Loss]);
    assert_eq!((m.small, m.big, m.outcome), ([2, 2], [1, 1], Draw));
    let m = two_game_match([Draw, Draw]);
    assert_eq!(m.big, [1, 1]);
    let m = two_game_match([Draw, Loss]);
    assert_eq!((m.small, m.big, m.outcome), ([1, 3], [0, 2], Loss));
    assert_eq!(m.rule_ids, vec![RuleId::AXF_SCORE_2]);
}

#[test]
fn team_matches_board_points_decide() {
    // Four boards: W, L, D, D → 4:4 board points, a drawn match.
    let t = team_match(&[Win, Loss, Draw, Draw]);
    assert_eq!((t.board_points, t.match_points), ([4, 4], [1, 1]));
    let t = team_match(&[Win, Draw, Draw, Loss, Win]);
    assert_eq!(
        (t.board_points, t.match_points, t.outcome),
        ([6, 4], [2, 0], Win)
    );
    assert_eq!(t.rule_ids, vec![RuleId::AXF_SCORE_3]);
    // Two-game team match: big points first, then small points.
    // Board 1: W W (big 2:0, small 4:0); board 2: L D (0:2, 1:3); board 3: W L (1:1, 2:2).
    // Big 3:3, small 7:5 → A wins on small points.
    let t = team_two_game_match(&[[Win, Win], [Loss, Draw], [Win, Loss]]);
    assert_eq!(t.big_points, [3, 3]);
    assert_eq!(t.board_points, [7, 5]);
    assert_eq!((t.match_points, t.outcome), ([2, 0], Win));
    // Big points decide even when small points say otherwise:
    // board 1: W W (2:0, 4:0); board 2: D L (0:2, 1:3); board 3: D L (0:2, 1:3).
    // Big 2:4 → B wins although small points are 6:6.
    let t = team_two_game_match(&[[Win, Win], [Draw, Loss], [Draw, Loss]]);
    assert_eq!((t.big_points, t.board_points), ([2, 4], [6, 6]));
    assert_eq!((t.match_points, t.outcome), ([0, 2], Loss));
    // Equal in both: a drawn match.
    let t = team_two_game_match(&[[Win, Loss], [Draw, Draw]]);
    assert_eq!((t.match_points, t.outcome), ([1, 1], Draw));
}

#[test]
fn withdrawal_voids_or_forfeits() {
    use rulebook::standings::{apply_withdrawal, withdrawal_effect, WithdrawalEffect};
    // 001: "应下八场，而只下了四场" — four of eight is not more than half: void.
    assert_eq!(
        withdrawal_effect(EventSystem::RoundRobin, 4, 8),
        WithdrawalEffect::VoidAll
    );
    assert_eq!(
        withdrawal_effect(EventSystem::RoundRobin, 5, 8),
        WithdrawalEffect::RemainingForfeited
    );
    assert_eq!(
        withdrawal_effect(EventSystem::PointsRoundRobin, 1, 8),
        WithdrawalEffect::RemainingForfeited
    );
    assert_eq!(
        WithdrawalEffect::VoidAll.rule_id(EventSystem::RoundRobin),
        RuleId::AXF_FORFEIT_3
    );
    // B withdraws from the six-player event after rounds 1-2 (games 1-6).
    let played: Vec<GameRecord> = six().into_iter().filter(|g| g.round <= 2).collect();
    let b_played = played
        .iter()
        .filter(|x| x.red == "B" || x.black == "B")
        .count() as u32;
    assert_eq!(b_played, 2);
    let effect = withdrawal_effect(EventSystem::RoundRobin, b_played, 5);
    let voided = apply_withdrawal(&played, "B", effect, &[]);
    assert!(voided.iter().all(|x| x.red != "B" && x.black != "B"));
    assert_eq!(voided.len(), played.len() - 2);
    // In a points round robin the rest become forfeits for the opponents.
    let unplayed = vec![
        (3, "B".to_string(), "F".to_string()),
        (4, "C".to_string(), "B".to_string()),
        (4, "A".to_string(), "D".to_string()),
    ];
    let effect = withdrawal_effect(EventSystem::PointsRoundRobin, b_played, 5);
    let out = apply_withdrawal(&played, "B", effect, &unplayed);
    assert_eq!(out.len(), played.len() + 2);
    let rows = standings(&out, &[], &StandingsConfig::default()).unwrap();
    assert_eq!(
        row(&rows, "F").black_wins,
        0,
        "a forfeit is not a black win"
    );
    assert_eq!(row(&rows, "C").wins, 1);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn games() -> impl Strategy<Value = Vec<GameRecord>> {
        let result = prop_oneof![
            Just("1-0"),
            Just("0-1"),
            Just("1/2-1/2"),
            Just("+/-"),
            Just("-/+"),
            Just("-/-")
        ];
        proptest::collection::vec((0u8..7, 0u8..7, result, 0u32..3, 0u32..3), 0..40).prop_map(|v| {
            v.into_iter()
                .enumerate()
                .filter(|(_, (r, b, ..))| r != b)
                .map(|(i, (r, b, res, fr, fb))| GameRecord {
                    round: i as u32,
                    red: format!("p{r}"),
                    black: format!("p{b}"),
                    result: GameResult::parse(res).unwrap(),
                    technical_fouls: [fr, fb],
                })
                .collect()
        })
    }

    proptest! {
        /// Any results: every player listed once, points never increase down
        /// the table, ranks are consistent, the champion is never shared, and
        /// points add up to 2 per decided or drawn game.
        #[test]
        fn standings_are_well_formed(
            games in games(),
            system in prop_oneof![Just(EventSystem::RoundRobin), Just(EventSystem::PointsRoundRobin), Just(EventSystem::Swiss)],
            shared in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let cfg = StandingsConfig { system, shared_ranks_allowed: shared, lot_seed: seed, ..StandingsConfig::default() };
            let rows = standings(&games, &[], &cfg).unwrap();
            let mut names: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
            names.sort();
            let before = names.len();
            names.dedup();
            prop_assert_eq!(before, names.len());
            for w in rows.windows(2) {
                prop_assert!(w[0].points >= w[1].points);
                prop_assert!(w[0].rank <= w[1].rank);
                if w[0].rank == w[1].rank { prop_assert!(w[0].shared && w[1].shared && w[0].points == w[1].points); }
            }
            for (i, r) in rows.iter().enumerate() {
                prop_assert!(r.rank as usize <= i + 1);
            }
            if let Some(first) = rows.first() { prop_assert!(!first.shared); prop_assert_eq!(first.rank, 1); }
            if !shared { prop_assert!(rows.iter().all(|r| !r.shared)); }
            let total: u32 = rows.iter().map(|r| r.points).sum();
            let expect: u32 = games.iter().map(|g| if g.result == GameResult::DoubleForfeit { 0 } else { 2 }).sum();
            prop_assert_eq!(total, expect);
        }
    }
}

#[test]
fn team_standings_by_match_points_then_tie_breaks() {
    use rulebook::team_standings::{
        team_standings, TeamBoards, TeamMatchRecord, TeamStandingsConfig, TeamTieBreak,
    };
    let m = |round, a: &str, b: &str, boards: Vec<Outcome>| TeamMatchRecord {
        round,
        team_a: a.into(),
        team_b: b.into(),
        boards: TeamBoards::OneGame(boards),
    };
    // Four teams, three boards, round robin:
    //   T1-T2 W W L (4:2)  T1 2, T2 0     T3-T4 D D D (3:3)  1 each
    //   T1-T3 L L D (1:5)  T3 2           T2-T4 W D D (4:2)  T2 2
    //   T1-T4 W D D (4:2)  T1 2           T2-T3 D D D (3:3)  1 each
    // Match points: T1 4, T2 3, T3 4, T4 1.
    // T1/T3 tied at 4: opponent score (sum of opponents' match points):
    //   T1: T2 3 + T3 4 + T4 1 = 8;  T3: T1 4 + T2 3 + T4 1 = 8 → equal;
    //   direct encounter: T3 beat T1 → T3 1st, T1 2nd.
    let matches = vec![
        m(1, "T1", "T2", vec![Win, Win, Loss]),
        m(1, "T3", "T4", vec![Draw, Draw, Draw]),
        m(2, "T1", "T3", vec![Loss, Loss, Draw]),
        m(2, "T2", "T4", vec![Win, Draw, Draw]),
        m(3, "T1", "T4", vec![Win, Draw, Draw]),
        m(3, "T2", "T3", vec![Draw, Draw, Draw]),
    ];
    let rows = team_standings(&matches, &TeamStandingsConfig::default());
    let order: Vec<&str> = rows.iter().map(|r| r.team.as_str()).collect();
    assert_eq!(order, vec!["T3", "T1", "T2", "T4"]);
    let mp: Vec<u32> = rows.iter().map(|r| r.match_points).collect();
    assert_eq!(mp, vec![4, 4, 3, 1]);
    assert_eq!(rows[0].decided_by, Some(TeamTieBreak::DirectEncounter));
    assert_eq!(rows[0].opponent_score, 8);
    assert_eq!(rows[1].opponent_score, 8);
    // T3 board points: 3 + 5 + 3 = 11; T1: 4 + 1 + 4 = 9.
    assert_eq!((rows[0].board_points, rows[1].board_points), (11, 9));
    assert_eq!((rows[0].won, rows[0].drawn, rows[0].lost), (1, 2, 0));
    // With board points first the order is the same but decided by them.
    let cfg = TeamStandingsConfig {
        order: vec![TeamTieBreak::BoardPoints],
        lots: vec![],
    };
    let rows = team_standings(&matches, &cfg);
    assert_eq!(rows[0].team, "T3");
    assert_eq!(rows[0].decided_by, Some(TeamTieBreak::BoardPoints));
    // Two-game team matches use big points, then small points.
    let two = vec![TeamMatchRecord {
        round: 1,
        team_a: "A".into(),
        team_b: "B".into(),
        boards: TeamBoards::TwoGame(vec![[Win, Loss], [Draw, Draw]]),
    }];
    let rows = team_standings(&two, &TeamStandingsConfig::default());
    assert_eq!(rows[0].match_points, 1);
    assert_eq!(rows[1].match_points, 1);
    // Everything equal: lots (drawn order) decide, the champion is not shared.
    let cfg = TeamStandingsConfig {
        lots: vec!["B".into(), "A".into()],
        ..TeamStandingsConfig::default()
    };
    let rows = team_standings(&two, &cfg);
    assert_eq!((rows[0].team.as_str(), rows[0].rank), ("B", 1));
    assert_eq!(rows[0].decided_by, Some(TeamTieBreak::Lots));
    assert_eq!(rows[1].rank, 2);
}
