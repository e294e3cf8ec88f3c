//! PGN for Xiangqi: reading and writing game records (棋谱).
//!
//! Two dialects are read by the same reader:
//! - the data set's form: tag pairs, then numbered ICCS moves with 0-based ranks
//!   (`1. h2e2 h9g7 2. ...`), no `Result` tag and no result token; a game ends
//!   where the next tag section begins;
//! - the xqbase convention: `[Game "Chinese Chess"]`, `[Format "ICCS"|"WXF"|
//!   "Chinese"]`, optional `[FEN]`, `[Red]`, `[Black]`, `[RedTeam]`,
//!   `[BlackTeam]`, `[Result]` and a result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
//!
//! Reading is in two steps: [`read_pgn`] splits the text into [`RawGame`]s (tags,
//! move texts with their line numbers, comments), failing with a [`PgnError`]
//! that carries the line number only when the text cannot be read at all
//! (an unclosed comment or variation, a tag line that is no tag). What real
//! archives contain and common readers accept is read with a [`PgnWarning`]
//! (line and what was done) on the game instead: a tag value with unescaped
//! inner quotes (`[Event ""Huangshan Cup" 2002"]`, read as python-chess reads
//! it, up to the last quote before `]`), a stray `)`, `]` or `}` in the move
//! text (skipped), a missing result token (the `Result` tag's value is used).
//! Stray whitespace of any kind (tabs, CR, U+3000, blank lines) is ignored.
//! [`RawGame::replay`] then resolves the move texts against the position (in the notation the `Format` tag names, or any
//! notation if there is none) and yields a [`Game`] of [`Move`]s, or a
//! [`ReplayError`] naming the first move that is not legal.
//!
//! Comments in `{}` (and `;` to the end of the line) stay attached to the move
//! they follow (clock stamps `{[%clk 0:59:58]}`, arbiter notes); a comment before
//! the first move is the game's `initial_comment`. Several comments after one
//! move are joined with a space. Variations in `()` are skipped (only the main
//! line is kept), as are NAGs (`$1`) and `%` escape lines.
//!
//! [`write_pgn`] writes a [`Game`] in the chosen [`Format`].

use crate::notation::{clip, NotationError};
use crate::{chinese, iccs, wxf, Color, FenError, Move, Position};
use std::fmt::Write as _;

/// Why a PGN text could not be read (every variant carries the 1-based line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// A tag pair that is not `[Name "value"]`.
    #[error("line {line}: bad tag: {reason}")]
    BadTag {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A `{` comment or `(` variation that is never closed.
    #[error("line {line}: {what} opened here is never closed")]
    Unterminated {
        /// 1-based line of the opening character.
        line: usize,
        /// "comment" or "variation".
        what: &'static str,
    },
}

/// Something a real archive contains that the reader tolerated (and read as
/// common readers do) instead of refusing the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnWarning {
    /// 1-based line number.
    pub line: usize,
    /// What was tolerated and how it was read.
    pub message: String,
}

impl std::fmt::Display for PgnWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl PgnError {
    /// The 1-based line number the error is about.
    pub fn line(&self) -> usize {
        match self {
            PgnError::BadTag { line, .. } | PgnError::Unterminated { line, .. } => *line,
        }
    }
}

/// The notation moves are written in (the xqbase `Format` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `h2e2` (the `[Format "ICCS"]` value). [`Format::write`] gives the
    /// compact `h2e2`; [`write_pgn`] writes xqbase's `H2-E2`.
    Iccs,
    /// `C2.5`.
    Wxf,
    /// `炮二平五`.
    Chinese,
}

impl Format {
    /// The value of the `Format` tag: `ICCS`, `WXF` or `Chinese`.
    pub fn tag_value(self) -> &'static str {
        match self {
            Format::Iccs => "ICCS",
            Format::Wxf => "WXF",
            Format::Chinese => "Chinese",
        }
    }

    /// Reads a `Format` tag value (case-insensitive; `Chinese`/`CHN`/`中文`).
    pub fn from_tag(value: &str) -> Option<Format> {
        match value.trim().to_ascii_lowercase().as_str() {
            "iccs" => Some(Format::Iccs),
            "wxf" | "axf" => Some(Format::Wxf),
            "chinese" | "chn" | "中文" => Some(Format::Chinese),
            _ => None,
        }
    }

    /// Reads one move text in this notation and checks it is legal in `pos`.
    pub fn parse(self, pos: &Position, text: &str) -> Result<Move, NotationError> {
        match self {
            Format::Iccs => {
                let m = iccs::parse_iccs(text)?;
                pos.check_move(m)
                    .map(|()| m)
                    .map_err(|e| NotationError::Illegal {
                        text: clip(text),
                        source: e,
                    })
            }
            Format::Wxf => wxf::parse_wxf(pos, text),
            Format::Chinese => chinese::parse_chinese(pos, text),
        }
    }

    /// Writes a legal move of `pos` in this notation.
    pub fn write(self, pos: &Position, m: Move) -> String {
        match self {
            Format::Iccs => iccs::to_iccs(m),
            Format::Wxf => wxf::to_wxf(pos, m),
            Format::Chinese => chinese::to_chinese(pos, m),
        }
    }
}

/// One move as read from the file, before it is resolved against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawMove {
    /// The move text (`h2e2`, `C2.5`, `炮二平五`).
    pub text: String,
    /// 1-based line it is on.
    pub line: usize,
    /// Comment(s) following the move, without braces.
    pub comment: Option<String>,
}

/// A game as read from the file: tags and move texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Comment before the first move.
    pub initial_comment: Option<String>,
    /// Moves of the main line.
    pub moves: Vec<RawMove>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if the movetext has one.
    pub result: Option<String>,
    /// 1-based line where the game starts.
    pub line: usize,
    /// What the reader tolerated in this game (see [`PgnWarning`]).
    pub warnings: Vec<PgnWarning>,
}

/// Why a game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The `FEN` tag is not a valid position.
    #[error("line {line}: bad FEN tag: {error}")]
    Fen {
        /// Line of the game's start.
        line: usize,
        /// Why the FEN is invalid.
        error: FenError,
    },
    /// A move that cannot be read or is not legal.
    #[error("line {line}: move {number}{} {text}: {error}", if *side == Color::Black { "..." } else { "." })]
    Move {
        /// 0-based ply index in the game.
        ply: usize,
        /// Move number as printed in PGN (`12` for `12. ...` or `12... ...`).
        number: u32,
        /// Who was to move.
        side: Color,
        /// The move text.
        text: String,
        /// 1-based line.
        line: usize,
        /// Why it is not a legal move.
        error: NotationError,
    },
}

/// A game replayed: every move is legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Tag pairs in order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move (`FEN` tag, or the start position).
    pub start: Position,
    /// The moves, all legal in turn.
    pub moves: Vec<Move>,
    /// Comment after each move (same length as `moves` when read; the writer
    /// treats missing entries as no comment).
    pub comments: Vec<Option<String>>,
    /// Comment before the first move.
    pub initial_comment: Option<String>,
    /// Result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if known.
    pub result: Option<String>,
}

impl Game {
    /// An empty game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            initial_comment: None,
            result: None,
        }
    }

    /// The value of a tag (case-sensitive name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag(&self.tags, name)
    }

    /// Sets a tag, replacing an existing one of that name in place.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        set_tag(&mut self.tags, name, value);
    }

    /// The position after all moves.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            if pos.play(m).is_err() {
                break;
            }
        }
        pos
    }
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn set_tag(tags: &mut Vec<(String, String)>, name: &str, value: &str) {
    match tags.iter_mut().find(|(n, _)| n == name) {
        Some(t) => t.1 = value.to_string(),
        None => tags.push((name.to_string(), value.to_string())),
    }
}

impl RawGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag(&self.tags, name)
    }

    /// The notation the `Format` tag names (None: absent or unknown, then any
    /// notation is accepted move by move).
    pub fn format(&self) -> Option<Format> {
        self.tag("Format").and_then(Format::from_tag)
    }

    /// The start position: the `FEN` tag, or the standard start.
    pub fn start_position(&self) -> Result<Position, ReplayError> {
        match self.tag("FEN") {
            Some(fen) => Position::from_fen(fen).map_err(|error| ReplayError::Fen {
                line: self.line,
                error,
            }),
            None => Ok(Position::new()),
        }
    }

    /// Replays the moves from the start position; fails at the first move that
    /// cannot be read or is not legal.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let start = self.start_position()?;
        let format = self.format();
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut comments = Vec::with_capacity(self.moves.len());
        for (ply, raw) in self.moves.iter().enumerate() {
            let parsed = match format {
                Some(f) => f.parse(&pos, &raw.text),
                None => crate::any::parse_any(&pos, &raw.text),
            };
            let m = match parsed {
                Ok(m) => m,
                Err(error) => {
                    return Err(ReplayError::Move {
                        ply,
                        number: move_number(&start, ply),
                        side: pos.turn(),
                        text: raw.text.clone(),
                        line: raw.line,
                        error,
                    })
                }
            };
            if let Err(e) = pos.play(m) {
                // parse_* only return legal moves; kept for robustness.
                return Err(ReplayError::Move {
                    ply,
                    number: move_number(&start, ply),
                    side: pos.turn(),
                    text: raw.text.clone(),
                    line: raw.line,
                    error: NotationError::Illegal {
                        text: clip(&raw.text),
                        source: e,
                    },
                });
            }
            moves.push(m);
            comments.push(raw.comment.clone());
        }
        Ok(Game {
            tags: self.tags.clone(),
            start,
            moves,
            comments,
            initial_comment: self.initial_comment.clone(),
            result: self.result.clone(),
        })
    }
}

/// The PGN move number of ply `ply` (0-based) from `start`.
pub fn move_number(start: &Position, ply: usize) -> u32 {
    let offset = usize::from(start.turn() == Color::Black);
    let n = start.fullmove_number().max(1) as usize + (ply + offset) / 2;
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A character cursor over the text that counts lines.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Text up to (not including) the end of the line.
    fn rest_of_line(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// The rest of a `{…}` comment (after its `{`), without the `}`.
    fn braced_comment(&mut self, line: usize) -> Result<String, PgnError> {
        let mut comment = String::new();
        loop {
            match self.bump() {
                Some('}') => return Ok(comment),
                Some(c) => comment.push(c),
                None => {
                    return Err(PgnError::Unterminated {
                        line,
                        what: "comment",
                    })
                }
            }
        }
    }

    /// Skips the rest of a `(…)` variation (after its `(`), nested
    /// variations and comments included.
    fn skip_variation(&mut self, line: usize) -> Result<(), PgnError> {
        let unterminated = PgnError::Unterminated {
            line,
            what: "variation",
        };
        let mut depth = 1usize;
        while depth > 0 {
            match self.bump() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => loop {
                    match self.bump() {
                        Some('}') => break,
                        Some(_) => {}
                        None => return Err(unterminated),
                    }
                },
                Some(_) => {}
                None => return Err(unterminated),
            }
        }
        Ok(())
    }

    /// A move-text token: up to whitespace or a delimiter.
    fn token(&mut self) -> String {
        let mut token = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';') {
                break;
            }
            token.push(c);
            self.bump();
        }
        token
    }
}

fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Splits a move-number prefix off a token: `12.` → ("", true), `12.h2e2` →
/// ("h2e2", true), `12...` → ("", true). WXF moves that start with digits
/// (`33.4`, `3+.4`) are left alone.
fn strip_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return token;
    }
    let rest = &token[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if dots == 0 {
        return token;
    }
    let after = &rest[dots..];
    // `33.4` is a WXF pawn move, not move 33 followed by "4".
    if token.len() == 4 && dots == 1 && after.len() == 1 {
        return token;
    }
    after
}

/// Reads every game of a PGN text.
pub fn read_pgn(text: &str) -> Result<Vec<RawGame>, PgnError> {
    let mut cur = Cursor {
        chars: text.chars().peekable(),
        line: 1,
    };
    let mut games = Vec::new();
    let mut game = RawGame {
        line: 1,
        ..RawGame::default()
    };
    // The current game has move text (or a result), so a tag starts a new game.
    let mut in_movetext = false;
    let mut at_line_start = true;
    while let Some(c) = cur.peek() {
        let line = cur.line;
        let line_start = at_line_start;
        at_line_start = false;
        match c {
            '\n' => {
                cur.bump();
                at_line_start = true;
            }
            '\u{feff}' => {
                cur.bump();
                at_line_start = line_start;
            }
            c if c.is_whitespace() => {
                cur.bump();
                at_line_start = line_start;
            }
            '%' if line_start => {
                cur.rest_of_line();
            }
            '[' => {
                if in_movetext {
                    finish_game(&mut games, &mut game, line);
                    in_movetext = false;
                }
                if game.tags.is_empty() && game.moves.is_empty() {
                    game.line = line;
                }
                cur.bump();
                let body = cur.rest_of_line();
                read_tags(&mut game, &body, line)?;
            }
            '{' => {
                cur.bump();
                let comment = cur.braced_comment(line)?;
                attach_comment(&mut game, comment);
            }
            ';' => {
                cur.bump();
                let comment = cur.rest_of_line();
                attach_comment(&mut game, comment);
            }
            '(' => {
                cur.bump();
                cur.skip_variation(line)?;
            }
            ')' | ']' | '}' => {
                cur.bump();
                game.warnings.push(PgnWarning {
                    line,
                    message: format!("stray {c:?} in the move text, skipped"),
                });
            }
            '$' => {
                cur.bump();
                while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                    cur.bump();
                }
            }
            _ => {
                let token = cur.token();
                if game.result.is_some() {
                    // Move text after a result token: a game without tags follows.
                    finish_game(&mut games, &mut game, line);
                }
                in_movetext = true;
                push_token(&mut game, &token, line);
            }
        }
    }
    finish_game(&mut games, &mut game, cur.line);
    Ok(games)
}

/// Ends the current game (keeping it if it has anything) and starts a new
/// one at `line`.
fn finish_game(games: &mut Vec<RawGame>, game: &mut RawGame, line: usize) {
    let mut done = std::mem::replace(
        game,
        RawGame {
            line,
            ..RawGame::default()
        },
    );
    check_result(&mut done);
    if !done.tags.is_empty()
        || !done.moves.is_empty()
        || done.result.is_some()
        || done.initial_comment.is_some()
    {
        games.push(done);
    }
}

/// Attaches a comment to the last move read, or before the first move.
fn attach_comment(game: &mut RawGame, comment: String) {
    let comment = comment.trim().to_string();
    let slot = match game.moves.last_mut() {
        Some(m) => &mut m.comment,
        None => &mut game.initial_comment,
    };
    match slot {
        Some(c) if !comment.is_empty() => {
            c.push(' ');
            c.push_str(&comment);
        }
        Some(_) => {}
        None => *slot = Some(comment),
    }
}

/// Reads the tags of a tag line (after its `[`): usually one tag per line,
/// but `[A "x"] [B "y"]` is read too.
fn read_tags(game: &mut RawGame, body: &str, line: usize) -> Result<(), PgnError> {
    let mut rest = body;
    loop {
        let strict = parse_tag(rest).and_then(|(name, value, tail)| {
            let tail = tail.trim();
            if tail.is_empty() || tail.starts_with('[') {
                Ok((name, value, tail))
            } else {
                Err(format!("unexpected text after the tag: {:?}", clip(tail)))
            }
        });
        let (name, value, tail) = match strict {
            Ok(t) => t,
            Err(reason) => match parse_tag_inner_quotes(rest) {
                Some((name, value)) => {
                    game.warnings.push(PgnWarning {
                        line,
                        message: format!(
                            "tag {name}: unescaped quote inside the value, read up to the last quote before ']'"
                        ),
                    });
                    (name, value, "")
                }
                None => return Err(PgnError::BadTag { line, reason }),
            },
        };
        game.tags.push((name, value));
        let Some(next) = tail.strip_prefix('[') else {
            return Ok(());
        };
        rest = next;
    }
}

/// Adds a move-text token to the game: a result, a move (its move number
/// stripped), or nothing (a bare move number or stray dots).
fn push_token(game: &mut RawGame, token: &str, line: usize) {
    if is_result(token) {
        game.result = Some(token.to_string());
        return;
    }
    let mv = strip_move_number(token);
    if mv.is_empty() {
        return;
    }
    if let Some(result) = mv.strip_prefix("..") {
        // `1...` already stripped; stray dots are not moves.
        if result.is_empty() {
            return;
        }
    }
    game.moves.push(RawMove {
        text: mv.to_string(),
        line,
        comment: None,
    });
}

/// The tag name at the start of `body` (letters, digits, `_`) and the rest.
fn tag_name(body: &str) -> (&str, &str) {
    let name_len = body
        .char_indices()
        .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
        .map_or(body.len(), |(i, _)| i);
    body.split_at(name_len)
}

/// A tag whose value holds unescaped quotes, `[Event ""Huangshan Cup" 2002"]`,
/// read as python-chess reads it: the value runs from the first quote to the
/// last quote before the closing `]` at the end of the line (`\"` and `\\`
/// still unescaped). None when the line is not of that shape.
fn parse_tag_inner_quotes(body: &str) -> Option<(String, String)> {
    let (name, rest) = tag_name(body.trim());
    if name.is_empty() {
        return None;
    }
    let rest = rest.trim_start().strip_prefix('"')?;
    let rest = rest.trim_end().strip_suffix(']')?;
    let inner = rest.trim_end().strip_suffix('"')?;
    let value = inner.replace("\\\\", "\\").replace("\\\"", "\"");
    Some((name.to_string(), value))
}

/// Compares the result token with the `Result` tag: a missing token takes the
/// tag's value, a disagreement keeps the token; both are warned about.
fn check_result(game: &mut RawGame) {
    let Some(tagged) = game.tag("Result").map(str::trim).filter(|r| is_result(r)) else {
        return;
    };
    let tagged = tagged.to_string();
    let line = game.moves.last().map_or(game.line, |m| m.line);
    match &game.result {
        None => {
            game.warnings.push(PgnWarning {
                line,
                message: format!(
                    "no result at the end of the moves; the Result tag's {tagged} is used"
                ),
            });
            game.result = Some(tagged);
        }
        Some(token) if *token != tagged => {
            let message = format!("result {token} at the end of the moves differs from the Result tag's {tagged}; {token} is used");
            game.warnings.push(PgnWarning { line, message });
        }
        Some(_) => {}
    }
}

/// Parses a tag after its `[`: `Name "value"]`; returns the text after the `]`.
fn parse_tag(body: &str) -> Result<(String, String, &str), String> {
    let (name, rest) = tag_name(body.trim());
    if name.is_empty() {
        return Err("expected a tag name after '['".to_string());
    }
    let rest = rest.trim_start();
    let Some(rest) = rest.strip_prefix('"') else {
        return Err(format!("expected a quoted value after {name}"));
    };
    let mut value = String::new();
    let mut chars = rest.chars();
    loop {
        match chars.next() {
            Some('\\') => match chars.next() {
                Some(c) => value.push(c),
                None => return Err(format!("value of {name} is not closed with '\"'")),
            },
            Some('"') => break,
            Some(c) => value.push(c),
            None => return Err(format!("value of {name} is not closed with '\"'")),
        }
    }
    let Some(tail) = chars.as_str().trim_start().strip_prefix(']') else {
        return Err(format!("expected ']' after the value of {name}"));
    };
    Ok((name.to_string(), value, tail))
}

fn quote(value: &str) -> String {
    let mut s = String::with_capacity(value.len() + 2);
    s.push('"');
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// A comment as written between braces: `}` (which PGN cannot escape) becomes `)`.
fn brace(comment: &str) -> String {
    format!("{{{}}}", comment.replace('}', ")"))
}

/// Writes a game in the chosen notation.
///
/// Tags are written in order, with `Format` set to the notation, `FEN` set when
/// the start is not the standard position, and `Result` set when the result is
/// known. Without a known result no result token is written (the data set's
/// form). Moves are numbered; a Black move that follows a comment is numbered
/// again (`1... H9-G7`). Lines are wrapped at 80 columns. Under
/// `[Format "ICCS"]` moves are written as xqbase writes them, upper case
/// with a dash (`H2-E2`); the reader takes that form and the data set's
/// `h2e2` alike.
///
/// `game.moves` should all be legal in turn (a replayed game's are). If one is
/// not, it and every move after it are written in ICCS, since there is no
/// position left to describe them from.
pub fn write_pgn(game: &Game, format: Format) -> String {
    let mut tags = game.tags.clone();
    set_tag(&mut tags, "Format", format.tag_value());
    if game.start != Position::new() {
        set_tag(&mut tags, "FEN", &game.start.to_fen());
    } else {
        tags.retain(|(n, _)| n != "FEN");
    }
    if let Some(r) = &game.result {
        set_tag(&mut tags, "Result", r);
    }
    let mut out = String::new();
    for (name, value) in &tags {
        let name: String = name
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let _ = writeln!(
            out,
            "[{} {}]",
            if name.is_empty() { "Tag" } else { &name },
            quote(value)
        );
    }
    out.push('\n');

    let mut words: Vec<String> = Vec::new();
    if let Some(c) = &game.initial_comment {
        words.push(brace(c));
    }
    let mut pos = game.start.clone();
    let mut legal = true;
    let mut after_comment = game.initial_comment.is_some();
    for (ply, &m) in game.moves.iter().enumerate() {
        let number = move_number(&game.start, ply);
        let red = pos.turn() == Color::Red;
        if red {
            words.push(format!("{number}."));
        } else if ply == 0 || after_comment {
            words.push(format!("{number}..."));
        }
        let text = if legal && format != Format::Iccs {
            format.write(&pos, m)
        } else {
            iccs::to_iccs_dashed(m)
        };
        words.push(text);
        if legal && pos.play(m).is_err() {
            legal = false;
        }
        after_comment = false;
        if let Some(Some(c)) = game.comments.get(ply) {
            words.push(brace(c));
            after_comment = true;
        }
    }
    if let Some(r) = &game.result {
        words.push(r.clone());
    }
    let mut width = 0;
    for w in words {
        let len = w.chars().count();
        if width > 0 && width + 1 + len > 80 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(&w);
        width += len;
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DATASET_STYLE: &str = "[Event \"China Team Championship 1998\"]
[Red \"HU RongHua\"]
[Black \"XU TianHong\"]

1. g0e2 b9c7 2. g3g4 c6c5 3. h0g2 c7d5

[Event \"Second\"]
[Red \"A\"]
[Black \"B\"]

1. h2e2 h9g7 2. h0g2
";

    #[test]
    fn reads_dataset_form() {
        let games = read_pgn(DATASET_STYLE).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("China Team Championship 1998"));
        assert_eq!(games[0].moves.len(), 6);
        assert_eq!(games[0].moves[5].text, "c7d5");
        assert_eq!(games[0].moves[5].line, 5);
        assert_eq!(games[1].line, 7);
        assert_eq!(games[1].moves.len(), 3);
        assert_eq!(games[1].result, None);
        let g = games[0].replay().unwrap();
        assert_eq!(g.moves.len(), 6);
        assert_eq!(g.moves[0].to_string(), "g0e2");
    }

    const XQBASE_STYLE: &str = "[Game \"Chinese Chess\"]
[Event \"Test\"]
[Red \"Red Player\"]
[RedTeam \"Team A\"]
[Black \"Black Player\"]
[BlackTeam \"Team B\"]
[Result \"1-0\"]
[Format \"WXF\"]
{opening comment}
1. C2.5 {[%clk 1:29:58]} H8+7 {[%clk 1:29:50]}
2. H2+3 R9.8 ; a line comment
3. R1.2 (3. R1+1 {var} H2+3) C8+4 $1 1-0
";

    #[test]
    fn reads_xqbase_form_with_comments() {
        let games = read_pgn(XQBASE_STYLE).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.format(), Some(Format::Wxf));
        assert_eq!(g.result.as_deref(), Some("1-0"));
        assert_eq!(g.initial_comment.as_deref(), Some("opening comment"));
        let texts: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "C8+4"]);
        assert_eq!(g.moves[0].comment.as_deref(), Some("[%clk 1:29:58]"));
        assert_eq!(g.moves[1].comment.as_deref(), Some("[%clk 1:29:50]"));
        assert_eq!(g.moves[3].comment.as_deref(), Some("a line comment"));
        let game = g.replay().unwrap();
        let iccs: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(iccs, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]);
    }

    #[test]
    fn write_and_read_back_in_every_format() {
        let games = read_pgn(XQBASE_STYLE).unwrap();
        let game = games[0].replay().unwrap();
        for format in [Format::Iccs, Format::Wxf, Format::Chinese] {
            let text = write_pgn(&game, format);
            let back = read_pgn(&text).unwrap();
            assert_eq!(back.len(), 1, "{text}");
            assert_eq!(back[0].format(), Some(format));
            let g2 = back[0].replay().unwrap();
            assert_eq!(g2.moves, game.moves, "{text}");
            assert_eq!(g2.comments, game.comments, "{text}");
            assert_eq!(g2.initial_comment, game.initial_comment);
            assert_eq!(g2.result, game.result);
            assert_eq!(g2.tag("RedTeam"), Some("Team A"));
        }
        let chinese = write_pgn(&game, Format::Chinese);
        assert!(
            chinese.contains("1. 炮二平五 {[%clk 1:29:58]} 1... 马8进7"),
            "{chinese}"
        );
        assert!(chinese.contains("[Format \"Chinese\"]"));
        assert!(chinese.trim_end().ends_with("1-0"));
    }

    #[test]
    fn fen_start_and_black_first() {
        let fen = "4k4/9/9/9/9/9/9/9/4A4/5K3 b - - 0 7";
        let mut game = Game::new(Position::from_fen(fen).unwrap());
        game.moves.push(iccs::parse_iccs("e9d9").unwrap());
        game.moves.push(iccs::parse_iccs("e1f2").unwrap());
        game.set_tag("Event", "quote \" and \\ backslash");
        let text = write_pgn(&game, Format::Wxf);
        assert!(text.contains("7... K5.4 8. A5+4"), "{text}");
        let back = read_pgn(&text).unwrap();
        let g2 = back[0].replay().unwrap();
        assert_eq!(g2.start, game.start);
        assert_eq!(g2.moves, game.moves);
        assert_eq!(g2.tag("Event"), Some("quote \" and \\ backslash"));
    }

    #[test]
    fn replay_names_the_bad_move() {
        let text = "[Event \"x\"]\n\n1. h2e2 h9g7\n2. h0g2 a9a6\n";
        let g = &read_pgn(text).unwrap()[0];
        let e = g.replay().unwrap_err();
        match &e {
            ReplayError::Move {
                ply,
                number,
                side,
                text,
                line,
                error,
            } => {
                assert_eq!(
                    (*ply, *number, *side, text.as_str(), *line),
                    (3, 2, Color::Black, "a9a6", 4)
                );
                assert!(matches!(error, NotationError::Illegal { .. }));
            }
            other => panic!("{other:?}"),
        }
        assert!(e.to_string().starts_with("line 4: move 2... a9a6: "), "{e}");
    }

    #[test]
    fn errors_carry_the_line() {
        let cases = [
            ("[Event \"x\"]\n\n1. h2e2 {never closed\n", 3),
            ("[Event \"x\"]\n[Red x]\n", 2),
            ("[Event \"x]\n", 1),
            ("[Event \"x\"]\n\n\n1. h2e2 (1. b0c2\n", 4),
            ("[\"x\"]\n", 1),
            ("[Event \"x\"] trailing\n", 1),
        ];
        for (text, line) in cases {
            let e = read_pgn(text).unwrap_err();
            assert_eq!(e.line(), line, "{text:?}: {e}");
            assert!(e.to_string().starts_with(&format!("line {line}: ")));
        }
    }

    #[test]
    fn unescaped_inner_quotes_are_read_with_a_warning() {
        let text = "[Game \"Chinese Chess\"]\n[Event \"\"Huangshan Cup\" National GM,CM Tournament 2002\"]\n[Red \"A\"] \n\n1. h2e2 h9g7\n";
        let games = read_pgn(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(
            g.tag("Event"),
            Some("\"Huangshan Cup\" National GM,CM Tournament 2002")
        );
        assert_eq!(g.tag("Red"), Some("A"));
        assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
        assert_eq!(g.warnings[0].line, 2);
        assert!(g.warnings[0]
            .to_string()
            .starts_with("line 2: tag Event: unescaped quote"));
        assert_eq!(g.replay().unwrap().moves.len(), 2);
    }

    #[test]
    fn stray_whitespace_closers_and_a_missing_result() {
        let text = "\u{feff}  [Event \"x\"]\r\n\t[Result \"1-0\"]\r\n \r\n1.\th2e2\u{3000}h9g7 }\r\n  2. h0g2  )\r\n";
        let games = read_pgn(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        let texts: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(g.result.as_deref(), Some("1-0"));
        let warnings: Vec<String> = g.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].starts_with("line 4: stray '}'"), "{warnings:?}");
        assert!(warnings[1].starts_with("line 5: stray ')'"), "{warnings:?}");
        assert!(warnings[2].starts_with("line 5: no result"), "{warnings:?}");
        // The xqbase form whose token and tag agree has no warning.
        assert!(read_pgn(XQBASE_STYLE).unwrap()[0].warnings.is_empty());
    }

    #[test]
    fn several_tags_on_one_line() {
        let games = read_pgn("[Event \"a\"] [Red \"b\"]\n[Black \"c\"]\n1. h2e2\n").unwrap();
        assert_eq!(games[0].tags.len(), 3);
        assert_eq!(games[0].tag("Red"), Some("b"));
    }

    #[test]
    fn move_numbers() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12..."), "");
        assert_eq!(strip_move_number("1.h2e2"), "h2e2");
        assert_eq!(strip_move_number("33.4"), "33.4");
        assert_eq!(strip_move_number("3+.4"), "3+.4");
        assert_eq!(strip_move_number("h2e2"), "h2e2");
        let p = Position::new();
        assert_eq!(move_number(&p, 0), 1);
        assert_eq!(move_number(&p, 1), 1);
        assert_eq!(move_number(&p, 2), 2);
    }

    /// A random game of up to `plies` moves from the start, with some comments.
    fn random_game(seed: u64, plies: usize, comments: &[String]) -> Game {
        let mut s = seed | 1;
        let mut next = move |n: usize| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % n.max(1) as u64) as usize
        };
        let mut game = Game::new(Position::new());
        let mut pos = Position::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[next(moves.len())];
            pos.play(m).unwrap();
            game.moves.push(m);
            let c = (!comments.is_empty() && next(3) == 0)
                .then(|| comments[next(comments.len())].clone());
            game.comments.push(c);
        }
        game.set_tag("Game", "Chinese Chess");
        game.set_tag("Red", "红方");
        game.result = Some(["1-0", "0-1", "1/2-1/2", "*"][next(4)].to_string());
        game
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_games_roundtrip_in_every_format(
            seed in any::<u64>(),
            plies in 0usize..120,
            comments in proptest::collection::vec("[a-z0-9%:\\[\\] 炮]{1,12}", 0..4),
        ) {
            let comments: Vec<String> = comments.iter().map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect();
            let game = random_game(seed, plies, &comments);
            for format in [Format::Iccs, Format::Wxf, Format::Chinese] {
                let text = write_pgn(&game, format);
                let back = read_pgn(&text).unwrap();
                prop_assert_eq!(back.len(), 1);
                let g2 = back[0].replay().unwrap();
                prop_assert_eq!(&g2.moves, &game.moves);
                prop_assert_eq!(&g2.comments, &game.comments);
                prop_assert_eq!(&g2.result, &game.result);
                prop_assert_eq!(g2.tag("Red"), Some("红方"));
            }
        }
    }

    proptest! {
        #[test]
        fn reader_never_panics(s in "\\PC{0,200}") {
            if let Ok(games) = read_pgn(&s) {
                for g in games {
                    let _ = g.replay();
                }
            }
        }

        #[test]
        fn reader_never_panics_on_pgn_like_text(s in "[\\[\\]{}();$%\"\\\\a-i0-9. \n\\-+=KRHCPAE炮二平五*/]{0,200}") {
            if let Ok(games) = read_pgn(&s) {
                for g in games {
                    let _ = g.replay();
                }
            }
        }
    }
}
