//! Scoring of games and matches (AXF ch. 2 §4): game points 2/1/0,
//! two-game matches (small and big points), team matches (board points or
//! big/small points decide; match points 2/1/0).
//!
//! Results are seen from one participant ("A") as an [`Outcome`]; a game
//! between named players is a [`GameResult`] (Red's view), used by
//! [`mod@crate::standings`].

use crate::rule_id::RuleId;
use std::cmp::Ordering;
use std::fmt;
use xiangqi::Color;

/// Points for a win (AXF-SCORE-1).
pub const WIN_POINTS: u32 = 2;
/// Points for a draw.
pub const DRAW_POINTS: u32 = 1;
/// Points for a loss.
pub const LOSS_POINTS: u32 = 0;

/// A game or match from one participant's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Outcome {
    /// 2/1/0.
    pub fn points(self) -> u32 {
        match self {
            Outcome::Win => WIN_POINTS,
            Outcome::Draw => DRAW_POINTS,
            Outcome::Loss => LOSS_POINTS,
        }
    }

    /// The same game from the opponent's view.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    fn from_points(a: u32, b: u32) -> Outcome {
        match a.cmp(&b) {
            Ordering::Greater => Outcome::Win,
            Ordering::Equal => Outcome::Draw,
            Ordering::Less => Outcome::Loss,
        }
    }
}

/// The result of a game between Red and Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won over the board (or on time, or by a ruling).
    RedWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
    /// Black forfeited (no-show, withdrawal): Red gets the win.
    RedWinsByForfeit,
    /// Red forfeited.
    BlackWinsByForfeit,
    /// Both forfeited: both score a loss (AXF-FORFEIT-1).
    DoubleForfeit,
}

/// Text that is not a game result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game result {0:?}: expected 1-0, 0-1, 1/2-1/2, +/-, -/+ or -/-")]
pub struct ParseResultError(pub String);

impl GameResult {
    /// The outcome for `side`.
    pub fn outcome(self, side: Color) -> Outcome {
        let red = match self {
            GameResult::RedWins | GameResult::RedWinsByForfeit => Outcome::Win,
            GameResult::BlackWins | GameResult::BlackWinsByForfeit => Outcome::Loss,
            GameResult::Draw => Outcome::Draw,
            GameResult::DoubleForfeit => return Outcome::Loss,
        };
        match side {
            Color::Red => red,
            Color::Black => red.reversed(),
        }
    }

    /// Game points of `side` (2/1/0).
    pub fn points(self, side: Color) -> u32 {
        self.outcome(side).points()
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins | GameResult::RedWinsByForfeit => Some(Color::Red),
            GameResult::BlackWins | GameResult::BlackWinsByForfeit => Some(Color::Black),
            GameResult::Draw | GameResult::DoubleForfeit => None,
        }
    }

    /// Was the game decided by a forfeit rather than played?
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::RedWinsByForfeit
                | GameResult::BlackWinsByForfeit
                | GameResult::DoubleForfeit
        )
    }

    /// PGN-style text: `1-0`, `0-1`, `1/2-1/2`, `+/-`, `-/+`, `-/-`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::RedWinsByForfeit => "+/-",
            GameResult::BlackWinsByForfeit => "-/+",
            GameResult::DoubleForfeit => "-/-",
        }
    }

    /// Parses `1-0`, `0-1`, `1/2-1/2` (or `0.5-0.5`, `draw`), `red`, `black`,
    /// `+/-`, `-/+`, `-/-`.
    pub fn parse(text: &str) -> Result<GameResult, ParseResultError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "1-0" | "red" | "red_wins" => Ok(GameResult::RedWins),
            "0-1" | "black" | "black_wins" => Ok(GameResult::BlackWins),
            "1/2-1/2" | "0.5-0.5" | "½-½" | "draw" | "=" => Ok(GameResult::Draw),
            "+/-" | "+:-" => Ok(GameResult::RedWinsByForfeit),
            "-/+" | "-:+" => Ok(GameResult::BlackWinsByForfeit),
            "-/-" | "-:-" => Ok(GameResult::DoubleForfeit),
            _ => Err(ParseResultError(text.to_string())),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for GameResult {
    type Err = ParseResultError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameResult::parse(s)
    }
}

impl serde::Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for GameResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        GameResult::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// A two-game match between A and B (AXF-SCORE-2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoGameScore {
    /// Small (game) points of A and B: 2/1/0 per game.
    pub small: [u32; 2],
    /// Big (match) points of A and B: 2 for the winner (two wins, or a win
    /// and a draw), 1 each if equal, 0 for the loser.
    pub big: [u32; 2],
    /// The match from A's view.
    pub outcome: Outcome,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
}

/// Scores a two-game match from A's outcomes in its two games.
pub fn two_game_match(a: [Outcome; 2]) -> TwoGameScore {
    let sa: u32 = a.iter().map(|o| o.points()).sum();
    let sb: u32 = a.iter().map(|o| o.reversed().points()).sum();
    let outcome = Outcome::from_points(sa, sb);
    TwoGameScore {
        small: [sa, sb],
        big: [outcome.points(), outcome.reversed().points()],
        outcome,
        rule_ids: vec![RuleId::AXF_SCORE_2],
    }
}

/// A team match between teams A and B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamMatchScore {
    /// Board (game) points of A and B (one-game matches), or small points
    /// (two-game matches).
    pub board_points: [u32; 2],
    /// Big points of A and B (two-game matches; equal to `board_points`
    /// for one-game matches).
    pub big_points: [u32; 2],
    /// Match points 场分 of A and B: 2/1/0.
    pub match_points: [u32; 2],
    /// The match from A's view.
    pub outcome: Outcome,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
}

/// A one-game team match (AXF-SCORE-3) from A's outcome on each board: the
/// board points decide the match.
pub fn team_match(boards: &[Outcome]) -> TeamMatchScore {
    let a: u32 = boards.iter().map(|o| o.points()).sum();
    let b: u32 = boards.iter().map(|o| o.reversed().points()).sum();
    let outcome = Outcome::from_points(a, b);
    TeamMatchScore {
        board_points: [a, b],
        big_points: [a, b],
        match_points: [outcome.points(), outcome.reversed().points()],
        outcome,
        rule_ids: vec![RuleId::AXF_SCORE_3],
    }
}

/// A two-game team match (AXF-SCORE-4) from A's outcomes on each board:
/// big points (per board, 2/1/0 as a two-game match) decide, then small
/// points; equal in both: a drawn match.
pub fn team_two_game_match(boards: &[[Outcome; 2]]) -> TeamMatchScore {
    let mut big = [0u32; 2];
    let mut small = [0u32; 2];
    for board in boards {
        let m = two_game_match(*board);
        big[0] += m.big[0];
        big[1] += m.big[1];
        small[0] += m.small[0];
        small[1] += m.small[1];
    }
    let outcome = match big[0].cmp(&big[1]) {
        Ordering::Equal => Outcome::from_points(small[0], small[1]),
        _ => Outcome::from_points(big[0], big[1]),
    };
    TeamMatchScore {
        board_points: small,
        big_points: big,
        match_points: [outcome.points(), outcome.reversed().points()],
        outcome,
        rule_ids: vec![RuleId::AXF_SCORE_4, RuleId::AXF_SCORE_2],
    }
}
