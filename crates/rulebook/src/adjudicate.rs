//! The JSON-lines adjudication engine behind `caipan adjudicate` (pure: one
//! input line in, one output line out).
//!
//! Input: `{"fen": FEN, "moves": [ICCS, ...], "claim": CLAIM (optional),
//! "rules": "axf"|"roc"|"cxa" (optional),
//! "ordered_at_ply": N (optional), "ordered_side": "red"|"black"|"draw"
//! (optional), "cycles_after_order": 1|3 (optional)}`.
//! `fen` may be omitted (the start position). Moves are ICCS with ranks 0-9.
//! CLAIM is `{"type": "natural_limit", "by": "red"|"black"}` (the natural
//! limit of the rule set), or under `"rules": "roc"` the ROC declared limit
//! 限著 (`roc_limit.rs`): `{"type": "roc_limit", "declared_at_ply": N, "by":
//! "red"|"black"|"arbiter", "limited": "red"|"black" (the stronger side;
//! default the opponent of a requesting player, required when the arbiter
//! declared), "book_draw": bool (optional, 例和: 30 moves each)}`. Its verdict
//! is `draw` (full), `false_claim` (not full) or `reset_limit` (a capture
//! after the declaration: the arbiter cancels or resets it), with `limit`:
//! `{"declared_at_ply", "limited", "moves_each", "counted": {"red","black"},
//! "remaining": {"red","black"}, "struck_replies", "capture_at_ply"}`.
//!
//! Output: `{"verdict": "red_loses"|"black_loses"|"draw"|"none"|"false_claim"|"error",
//! "must_change": "red"|"black"|null, "red": PATTERN|null, "black": PATTERN|null,
//! "rules": [ids], "explanation_zh", "explanation_en", "arbiter": {"zh","en"}|null,
//! "cycle": {"start_ply", "plies", "occurrences"}|null, "error": MESSAGE|null,
//! "procedure": "order_change"|"announce_draw"|"result"|null, "order": ORDER|null}`.
//!
//! The verdict says who violates (the outcome if nobody changes); `procedure`
//! says what the arbiter does now (docs/rules.md, "Procedure"; `procedure.rs`):
//! at a third occurrence the violator is *ordered* to change
//! (`order_change`) or the arbiter announces that one more cycle is a draw
//! (`announce_draw`); `result` ends the game (mate, stalemate, a true
//! natural-limit claim, a cycle repeated after an order).
//!
//! After an order: `ordered_at_ply` is the ply (plies played, ≤ the number of
//! moves) at which the order reached the table, `ordered_side` what it
//! concerned (the side that must change, or `draw` for an announced draw;
//! absent: what the ruling at that ply recommends), `cycles_after_order` how
//! many more cycles give the result (1, the default, per 000 (G)3; 3 per
//! AXF-G3's wording). The moves after the order are then followed: the
//! ordered position recurring with only the cycle's moves gives the result
//! (the ordered side loses citing AXF-G3, or the announced draw); a move off
//! the cycle or a capture lapses the order and the rest is adjudicated as
//! usual; while the order stands, no new order is given (`none`). ORDER is
//! `{"at_ply", "side": "red"|"black"|null, "status": "standing"|"lapsed"|
//! "repeated", "ply": N|null (of the lapse or repetition), "lapse":
//! "capture"|"left_cycle"|null, "by": "red"|"black"|null (who lapsed it)}`.
//!
//! Precedence (issue 3): an illegal move or a bad FEN (including one where the
//! side not to move is in check) gives `error` (so does an `ordered_at_ply`
//! with no cycle to order on); a cycle repeated after an order gives its
//! result; checkmate or stalemate at the end gives the loser (AXF-G2); a
//! claim is judged at the end of the moves (`draw` if it holds,
//! `false_claim` if not; the FEN's halfmove field starts the count); if the
//! final position has occurred three times or more (and no order stands), the
//! verdict is the ruling on the repetition (its last three occurrences: the
//! last cycle, or both cycles when they differ, `cycle.judged_from_ply`), if
//! neither side changes; otherwise `none`.
//!
//! PATTERN: `{"kind": K, "forbidden": bool, "moves": [move kinds in order],
//! "attackers": [squares], "targets": [squares]}` — kinds are documented in
//! `pattern.rs`; move kinds are check, chase, mate_threat, material_threat,
//! exchange, offer, block, idle.

use crate::explain::Explanation;
use crate::limit::{judge_claim, LimitCounter, PlyFact};
use crate::pattern::SidePattern;
use crate::procedure::{CyclesAfterOrder, Lapse, Order, OrderState, OrderWatch, Procedure};
use crate::repetition::judge_final;
use crate::roc_limit::{Declarer, RocDeclaration, RocLimitCounter, RocLimitState};
use crate::rule_id::RuleId;
use crate::ruleset::RuleSet;
use crate::ruling::Ruling;
use serde_json::{json, Map, Value};
use xiangqi::{parse_iccs, Color, EndReason, Move, Outcome, Position, Square};

/// The JSON PATTERN of one side.
pub fn pattern_json(p: &SidePattern) -> Value {
    let mut m = Map::new();
    m.insert("kind".into(), json!(p.kind.name()));
    m.insert("forbidden".into(), json!(p.forbidden));
    let moves: Vec<&str> = p.moves.iter().map(|k| k.name()).collect();
    m.insert("moves".into(), json!(moves));
    if !p.targets.is_empty() {
        let a: Vec<String> = p.attackers.iter().map(|s| s.to_string()).collect();
        let t: Vec<String> = p.targets.iter().map(|s| s.to_string()).collect();
        m.insert("attackers".into(), json!(a));
        m.insert("targets".into(), json!(t));
    }
    Value::Object(m)
}

fn base() -> Map<String, Value> {
    let mut m = Map::new();
    for k in [
        "verdict",
        "must_change",
        "red",
        "black",
        "explanation_zh",
        "explanation_en",
        "arbiter",
        "cycle",
        "error",
        "procedure",
        "order",
    ] {
        m.insert(k.into(), Value::Null);
    }
    m.insert("rules".into(), json!([]));
    m
}

fn error_line(msg: &str) -> String {
    let mut m = base();
    m.insert("verdict".into(), json!("error"));
    m.insert("error".into(), json!(msg));
    Value::Object(m).to_string()
}

fn rules_json(rules: &[RuleId]) -> Value {
    json!(rules.iter().map(|r| r.as_str()).collect::<Vec<_>>())
}

/// The JSON object of a repetition ruling at a third occurrence (verdict =
/// the ruling's, procedure = the order it calls for).
pub fn ruling_json(r: &Ruling) -> Value {
    let mut v = ruling_fields(r);
    v["procedure"] = json!(Procedure::at_third_occurrence(r).name());
    v
}

/// The JSON object of a repetition ruling, without its procedure.
fn ruling_fields(r: &Ruling) -> Value {
    let mut m = base();
    m.insert("verdict".into(), json!(r.verdict.name()));
    m.insert(
        "must_change".into(),
        r.must_change
            .map(|c| json!(c.name_lower()))
            .unwrap_or(Value::Null),
    );
    m.insert("red".into(), pattern_json(&r.red));
    m.insert("black".into(), pattern_json(&r.black));
    m.insert("rules".into(), rules_json(&r.rules));
    m.insert("explanation_zh".into(), json!(r.explanation_zh));
    m.insert("explanation_en".into(), json!(r.explanation_en));
    if let Some((zh, en)) = &r.arbiter {
        m.insert("arbiter".into(), json!({"zh": zh, "en": en}));
    }
    let mut cycle = json!({"start_ply": r.cycle.start, "plies": r.cycle.len(), "occurrences": r.cycle.occurrences});
    if let Some(first) = r.whole_from {
        // The two cycles differ: both were classified, from this ply.
        cycle["judged_from_ply"] = json!(first);
    }
    m.insert("cycle".into(), cycle);
    Value::Object(m)
}

/// A parsed input line.
struct Request {
    start: Position,
    moves: Vec<Move>,
    claim: Option<Claim>,
    set: RuleSet,
    order: Option<OrderInput>,
}

/// A claim on an input line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    /// The rule set's natural limit, claimed by this side.
    NaturalLimit(Color),
    /// The ROC declared limit is full.
    RocLimit(RocDeclaration),
}

fn color_arg(v: Option<&Value>, what: &str) -> Result<Option<Color>, String> {
    match v.and_then(Value::as_str) {
        None if v.is_none_or(Value::is_null) => Ok(None),
        Some("red") => Ok(Some(Color::Red)),
        Some("black") => Ok(Some(Color::Black)),
        _ => Err(format!("{what} must be \"red\" or \"black\"")),
    }
}

/// The claim object (`set` is the rule set of the line).
fn parse_claim(c: &Map<String, Value>, set: RuleSet, plies: usize) -> Result<Claim, String> {
    match c.get("type").and_then(Value::as_str) {
        Some("natural_limit") if set == RuleSet::Roc => Err(
            "the ROC rules have no natural limit: the limit 限著 is declared (claim type \"roc_limit\" with \"declared_at_ply\")".into(),
        ),
        Some("natural_limit") => match color_arg(c.get("by"), "claim \"by\"")? {
            Some(by) => Ok(Claim::NaturalLimit(by)),
            None => Err("claim \"by\" must be \"red\" or \"black\"".into()),
        },
        Some("roc_limit") => {
            if set != RuleSet::Roc {
                return Err("a \"roc_limit\" claim needs \"rules\": \"roc\"".into());
            }
            let at = c
                .get("declared_at_ply")
                .and_then(Value::as_u64)
                .ok_or("roc_limit claim: \"declared_at_ply\" must be a number of plies")?;
            if at > plies as u64 {
                return Err(format!(
                    "roc_limit claim: declared_at_ply {at} is after the last move ({plies} plies)"
                ));
            }
            let by = match c.get("by").and_then(Value::as_str) {
                Some("arbiter") => Declarer::Arbiter,
                Some("red") => Declarer::Player(Color::Red),
                Some("black") => Declarer::Player(Color::Black),
                _ => {
                    return Err(
                        "roc_limit claim: \"by\" must be \"red\", \"black\" or \"arbiter\"".into(),
                    )
                }
            };
            let limited = color_arg(c.get("limited"), "roc_limit claim: \"limited\"")?;
            let book_draw = match c.get("book_draw") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err("roc_limit claim: \"book_draw\" must be true or false".into()),
            };
            RocDeclaration::new(at as u32, by, limited, book_draw)
                .map(Claim::RocLimit)
                .ok_or_else(|| {
                    "roc_limit claim: the arbiter's declaration must name \"limited\" (the stronger side)".into()
                })
        }
        Some(t) => Err(format!(
            "unknown claim type {t:?} (expected \"natural_limit\" or \"roc_limit\")"
        )),
        None => Err("claim without \"type\"".into()),
    }
}

/// The order an input line says was given.
#[derive(Debug, PartialEq, Eq)]
struct OrderInput {
    at_ply: usize,
    /// `None`: what the ruling at that ply recommends.
    order: Option<Order>,
    cycles: CyclesAfterOrder,
}

/// The usual shape of an input line, read without building a JSON tree.
/// Anything else (wrong types, repeated keys, ...) goes the general way of
/// [`parse_request`], which also words the errors.
/// Strings are borrowed from the line (no allocation per move); a string
/// with an escape in it cannot be, and sends the line the general way.
#[derive(serde::Deserialize)]
struct Plain<'a> {
    #[serde(borrow, default)]
    fen: Option<&'a str>,
    #[serde(borrow, default)]
    moves: Option<Vec<&'a str>>,
    #[serde(borrow, default)]
    rules: Option<&'a str>,
    #[serde(default)]
    claim: Option<Value>,
    #[serde(default)]
    ordered_at_ply: Option<Value>,
    #[serde(default)]
    ordered_side: Option<Value>,
    #[serde(default)]
    cycles_after_order: Option<Value>,
}

/// A [`Plain`] line read by hand, its moves read too.
#[derive(Debug, PartialEq, Eq)]
struct Lexed<'a> {
    fen: Option<&'a str>,
    moves: Option<Vec<Move>>,
    rules: Option<&'a str>,
}

/// An ICCS move in its usual form (`h2e2`, what `parse_iccs` reads first).
fn usual_iccs(t: &[u8]) -> Option<Move> {
    let &[f1 @ b'a'..=b'i', r1 @ b'0'..=b'9', f2 @ b'a'..=b'i', r2 @ b'0'..=b'9'] = t else {
        return None;
    };
    let from = Square::new(f1 - b'a', r1 - b'0')?;
    let to = Square::new(f2 - b'a', r2 - b'0')?;
    (from != to).then(|| Move::new(from, to))
}

/// A [`Plain`] line read by hand: an object with only `fen`, `moves` and
/// `rules`, each at most once, their strings without escapes or control
/// characters (borrowed as they are), every move in the usual ICCS form
/// (`h2e2`). `None` for anything else, which serde then reads
/// ([`parse_plain`]); what this accepts, serde and `parse_iccs` read the same.
fn lex_plain(line: &str) -> Option<Lexed<'_>> {
    let mut lx = Lexer {
        line,
        b: line.as_bytes(),
        i: 0,
    };
    let mut p = Lexed {
        fen: None,
        moves: None,
        rules: None,
    };
    let mut seen = [false; 3];
    lx.ws();
    if !lx.eat(b'{') {
        return None;
    }
    lx.ws();
    if !lx.eat(b'}') {
        loop {
            let key = lx.string()?;
            lx.ws();
            if !lx.eat(b':') {
                return None;
            }
            lx.ws();
            let k = ["fen", "moves", "rules"].iter().position(|&n| n == key)?;
            if std::mem::replace(&mut seen[k], true) {
                return None;
            }
            if !lx.null() {
                match k {
                    0 => p.fen = Some(lx.string()?),
                    2 => p.rules = Some(lx.string()?),
                    _ => p.moves = Some(lx.moves()?),
                }
            }
            lx.ws();
            if lx.eat(b'}') {
                break;
            }
            if !lx.eat(b',') {
                return None;
            }
            lx.ws();
        }
    }
    lx.ws();
    (lx.i == lx.b.len()).then_some(p)
}

/// [`lex_plain`]'s cursor over the line's bytes.
struct Lexer<'a> {
    line: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Lexer<'a> {
    /// Skips JSON whitespace.
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    /// Steps over `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        let here = self.b.get(self.i) == Some(&c);
        if here {
            self.i += 1;
        }
        here
    }

    /// A string without escapes or control characters, borrowed.
    fn string(&mut self) -> Option<&'a str> {
        let b = self.b;
        if b.get(self.i) != Some(&b'"') {
            return None;
        }
        let start = self.i + 1;
        let len = b[start..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if b[start + len] != b'"' {
            return None;
        }
        self.i = start + len + 1;
        self.line.get(start..start + len)
    }

    /// A move: `"h2e2"`.
    fn iccs(&mut self) -> Option<Move> {
        let [b'"', t @ .., b'"'] = self.b.get(self.i..self.i + 6)? else {
            return None;
        };
        let m = usual_iccs(t)?;
        self.i += 6;
        Some(m)
    }

    /// Steps over `null` if it is next.
    fn null(&mut self) -> bool {
        if self.b[self.i..].starts_with(b"null") {
            self.i += 4;
            true
        } else {
            false
        }
    }

    /// An array of moves: `["h2e2", "h9g7"]`.
    fn moves(&mut self) -> Option<Vec<Move>> {
        if !self.eat(b'[') {
            return None;
        }
        let mut moves = Vec::with_capacity(self.b.len() / 7);
        self.ws();
        if self.eat(b']') {
            return Some(moves);
        }
        loop {
            moves.push(self.iccs()?);
            self.ws();
            if self.eat(b']') {
                return Some(moves);
            }
            if !self.eat(b',') {
                return None;
            }
            self.ws();
        }
    }
}

/// The request of a lexed line.
fn lexed_request(p: Lexed<'_>) -> Result<Request, String> {
    let start = match p.fen {
        None => Position::new(),
        Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
    };
    let set = match p.rules {
        None => RuleSet::Axf,
        Some(s) => RuleSet::from_name(s).map_err(|e| e.to_string())?,
    };
    Ok(Request {
        start,
        moves: p.moves.unwrap_or_default(),
        claim: None,
        set,
        order: None,
    })
}

/// [`parse_request`] for a [`Plain`] line; `None` when it does not apply.
fn parse_plain(line: &str) -> Option<Result<Request, String>> {
    if let Some(p) = lex_plain(line) {
        return Some(lexed_request(p));
    }
    // A struct would also be read from a JSON array: objects only.
    if !line.trim_start().starts_with('{') {
        return None;
    }
    let p: Plain = serde_json::from_str(line).ok()?;
    if p.claim.is_some()
        || p.ordered_at_ply.is_some()
        || p.ordered_side.is_some()
        || p.cycles_after_order.is_some()
    {
        return None;
    }
    let start = match p.fen {
        None => Position::new(),
        Some(f) => match Position::from_fen(f) {
            Ok(pos) => pos,
            Err(e) => return Some(Err(format!("bad FEN: {e}"))),
        },
    };
    let texts = p.moves.unwrap_or_default();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        match parse_iccs(text) {
            Ok(m) => moves.push(m),
            Err(e) => return Some(Err(format!("move {} {text:?}: {e}", i + 1))),
        }
    }
    let set = match p.rules {
        None => RuleSet::Axf,
        Some(s) => match RuleSet::from_name(s) {
            Ok(set) => set,
            Err(e) => return Some(Err(e.to_string())),
        },
    };
    Some(Ok(Request {
        start,
        moves,
        claim: None,
        set,
        order: None,
    }))
}

fn parse_request(line: &str) -> Result<Request, String> {
    if let Some(r) = parse_plain(line) {
        return r;
    }
    let v: Value = serde_json::from_str(line).map_err(|e| format!("malformed JSON: {e}"))?;
    let obj = v.as_object().ok_or("the input line is not a JSON object")?;
    parse_general(obj)
}

/// The request in a JSON object, any shape (errors worded for the user).
fn parse_general(obj: &Map<String, Value>) -> Result<Request, String> {
    let start = match obj.get("fen") {
        None | Some(Value::Null) => Position::new(),
        Some(Value::String(f)) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
        Some(_) => return Err("\"fen\" must be a string".into()),
    };
    let moves = match obj.get("moves") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => {
            let mut out = Vec::with_capacity(a.len());
            for (i, m) in a.iter().enumerate() {
                let text = m
                    .as_str()
                    .ok_or_else(|| format!("move {} is not a string", i + 1))?;
                out.push(parse_iccs(text).map_err(|e| format!("move {} {text:?}: {e}", i + 1))?);
            }
            out
        }
        Some(_) => return Err("\"moves\" must be an array of ICCS strings".into()),
    };
    let set = match obj.get("rules") {
        None | Some(Value::Null) => RuleSet::Axf,
        Some(Value::String(s)) => RuleSet::from_name(s).map_err(|e| e.to_string())?,
        Some(_) => return Err("\"rules\" must be \"axf\", \"roc\" or \"cxa\"".into()),
    };
    let claim = match obj.get("claim") {
        None | Some(Value::Null) => None,
        Some(Value::Object(c)) => Some(parse_claim(c, set, moves.len())?),
        Some(_) => return Err("\"claim\" must be an object".into()),
    };
    let order = parse_order(obj, moves.len())?;
    Ok(Request {
        start,
        moves,
        claim,
        set,
        order,
    })
}

/// `ordered_at_ply`, `ordered_side` and `cycles_after_order`.
fn parse_order(obj: &Map<String, Value>, plies: usize) -> Result<Option<OrderInput>, String> {
    let present = |k: &str| !matches!(obj.get(k), None | Some(Value::Null));
    let at_ply = match obj.get("ordered_at_ply") {
        None | Some(Value::Null) => {
            if present("ordered_side") || present("cycles_after_order") {
                return Err(
                    "\"ordered_side\" and \"cycles_after_order\" need \"ordered_at_ply\"".into(),
                );
            }
            return Ok(None);
        }
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= plies)
            .ok_or_else(|| {
                format!("\"ordered_at_ply\" must be a ply from 0 to {plies} (the number of moves), not {v}")
            })?,
    };
    let order = match obj.get("ordered_side") {
        None | Some(Value::Null) => None,
        Some(v) => Some(match v.as_str() {
            Some("red") => Order::Change(Color::Red),
            Some("black") => Order::Change(Color::Black),
            Some("draw") => Order::Draw,
            _ => {
                return Err(format!(
                    "\"ordered_side\" must be \"red\", \"black\" or \"draw\", not {v}"
                ))
            }
        }),
    };
    let cycles = match obj.get("cycles_after_order") {
        None | Some(Value::Null) => CyclesAfterOrder::default(),
        Some(v) => v
            .as_u64()
            .and_then(CyclesAfterOrder::from_count)
            .ok_or_else(|| format!("\"cycles_after_order\" must be 1 or 3, not {v}"))?,
    };
    Ok(Some(OrderInput {
        at_ply,
        order,
        cycles,
    }))
}

/// The ORDER object of the output.
fn order_json(w: &OrderWatch) -> Value {
    let (status, ply, lapse, by) = match w.state() {
        OrderState::Standing => ("standing", None, None, None),
        OrderState::Lapsed(Lapse::Capture { ply, by }) => {
            ("lapsed", Some(*ply), Some("capture"), Some(*by))
        }
        OrderState::Lapsed(Lapse::LeftCycle { ply, by }) => {
            ("lapsed", Some(*ply), Some("left_cycle"), Some(*by))
        }
        OrderState::Repeated { ply, .. } => ("repeated", Some(*ply), None, None),
    };
    json!({
        "at_ply": w.at_ply(),
        "side": w.order().side().map(Color::name_lower),
        "status": status,
        "ply": ply,
        "lapse": lapse,
        "by": by.map(Color::name_lower),
    })
}

/// The verdict on a game ended by checkmate or stalemate: the side to move
/// loses (AXF-G2; ROC-9 and ROC-10 under ROC), with its explanation typed.
fn mate_fields(set: RuleSet, winner: Color, reason: EndReason) -> (Value, Explanation) {
    let loser = winner.other();
    let mut m = base();
    m.insert(
        "verdict".into(),
        json!(if loser == Color::Red {
            "red_loses"
        } else {
            "black_loses"
        }),
    );
    let (zh, en, id) = match reason {
        EndReason::Checkmate => ("被将死", "is checkmated", "ruling-checkmated"),
        _ => (
            "被困毙（无着可走）",
            "is stalemated (no legal move)",
            "ruling-stalemated",
        ),
    };
    // ROC-9 (an unanswered check loses) and ROC-10 (stalemate wins)
    // under ROC; the CXA list has no game rules: AXF-G2.
    let rule = match (set, reason) {
        (RuleSet::Roc, EndReason::Checkmate) => RuleId::ROC_9,
        (RuleSet::Roc, _) => RuleId::ROC_10,
        _ => RuleId::AXF_G2,
    };
    m.insert("rules".into(), rules_json(&[rule]));
    m.insert(
        "explanation_zh".into(),
        json!(format!("{}{zh}，判负（{rule}）。", loser.name_zh())),
    );
    m.insert(
        "explanation_en".into(),
        json!(format!("{} {en} and loses ({rule}).", loser.name_en())),
    );
    let typed = Explanation::new(id)
        .side("side", loser)
        .rules("rule", &[rule]);
    (Value::Object(m), typed)
}

/// The verdict on a claim under ROC's declared move limit.
fn roc_limit_fields(r: &RocLimitCounter, set: RuleSet) -> (Value, Option<Procedure>, Explanation) {
    let params = set.params();
    let v = r.judge(&params);
    let d = r.declaration();
    let (verdict, procedure) = match v.state {
        RocLimitState::Full => ("draw", Some(Procedure::Result)),
        RocLimitState::Running => ("false_claim", None),
        RocLimitState::Reset { .. } => ("reset_limit", None),
    };
    let mut m = base();
    m.insert("verdict".into(), json!(verdict));
    m.insert("rules".into(), rules_json(&v.rule_ids));
    m.insert("explanation_zh".into(), json!(v.explanation_zh));
    m.insert("explanation_en".into(), json!(v.explanation_en));
    m.insert(
        "limit".into(),
        json!({
            "declared_at_ply": d.at_ply,
            "limited": d.limited.name_lower(),
            "moves_each": d.moves_each(&params),
            "counted": {"red": v.counted[0], "black": v.counted[1]},
            "remaining": {"red": v.remaining[0], "black": v.remaining[1]},
            "struck_replies": v.struck,
            "capture_at_ply": match v.state {
                RocLimitState::Reset { at_ply } => json!(at_ply),
                _ => Value::Null,
            },
        }),
    );
    (Value::Object(m), procedure, v.explanation)
}

/// The verdict on a claim of the natural move limit.
fn natural_limit_fields(
    counter: &LimitCounter,
    claimant: Color,
    set: RuleSet,
) -> (Value, Option<Procedure>, Explanation) {
    let params = set.params();
    let v = judge_claim(counter, claimant, &params, false);
    let mut m = base();
    m.insert(
        "verdict".into(),
        json!(if v.holds { "draw" } else { "false_claim" }),
    );
    m.insert("rules".into(), rules_json(&v.rule_ids));
    m.insert("explanation_zh".into(), json!(v.explanation_zh));
    m.insert("explanation_en".into(), json!(v.explanation_en));
    let procedure = v.holds.then_some(Procedure::Result);
    (Value::Object(m), procedure, v.explanation)
}

/// No result yet: the arbiter's order still stands.
fn order_standing_fields(w: &OrderWatch) -> (Value, Explanation) {
    let (oz, oe) = w.order().words(w.cycles());
    let mut m = base();
    m.insert("verdict".into(), json!("none"));
    m.insert(
        "explanation_zh".into(),
        json!(format!(
            "第{}步的裁判员指令仍有效（{oz}），尚无结果。",
            w.at_ply()
        )),
    );
    m.insert(
        "explanation_en".into(),
        json!(format!(
            "The order given at ply {} stands ({oe}); no result yet.",
            w.at_ply()
        )),
    );
    let typed = Explanation::new("ruling-order-stands")
        .count("ply", w.at_ply())
        .part("order", w.order().explain(w.cycles()));
    (Value::Object(m), typed)
}

/// The watch over the arbiter's order, if the request gives one.
fn order_watch(req: &Request) -> Result<Option<OrderWatch>, String> {
    let Some(o) = &req.order else {
        return Ok(None);
    };
    let before = req.moves.get(..o.at_ply).unwrap_or_default();
    OrderWatch::new(&req.start, before, o.order, req.set, o.cycles)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// Adjudicates one JSON input line; returns one JSON output line (no newline).
pub fn adjudicate_line(line: &str) -> String {
    adjudicate_typed(line).line
}

/// One output line of [`adjudicate_typed`], with its explanation typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudged {
    /// The JSON output line (no newline), as [`adjudicate_line`] writes it.
    pub line: String,
    /// The explanation its `explanation_zh` / `explanation_en` say, as an
    /// id and typed facts (`None` for an error line): what a renderer in
    /// another language reads (`caipan adjudicate`, the i18n catalogues).
    pub explanation: Option<Explanation>,
}

/// Adjudicates one JSON input line: the output line and its explanation
/// typed.
pub fn adjudicate_typed(line: &str) -> Adjudged {
    let error = |e: &str| Adjudged {
        line: error_line(e),
        explanation: None,
    };
    let req = match parse_request(line) {
        Ok(r) => r,
        Err(e) => return error(&e),
    };
    let mut watch = match order_watch(&req) {
        Ok(w) => w,
        Err(e) => return error(&e),
    };
    let ordered_at = req.order.as_ref().map_or(usize::MAX, |o| o.at_ply);
    // Replay with the checks and captures the natural limit needs.
    let mut counter = LimitCounter::starting_at(req.start.halfmove_clock());
    let mut pos = req.start;
    let mut roc = match req.claim {
        Some(Claim::RocLimit(d)) => Some(RocLimitCounter::new(d)),
        _ => None,
    };
    let mut hashes = Vec::with_capacity(req.moves.len() + 1);
    let mut undos = Vec::with_capacity(req.moves.len());
    hashes.push(pos.zobrist());
    let mut last_capture = 0;
    for (i, &mv) in req.moves.iter().enumerate() {
        let by = pos.turn();
        let before = (i >= ordered_at).then(|| pos.clone());
        // `is_legal` is `check_move` without the reason, which only an
        // illegal move needs.
        if !pos.is_legal(mv) {
            if let Err(e) = pos.check_move(mv) {
                return error(&format!("illegal move {} {}: {e}", i + 1, mv));
            }
        }
        let captured = pos.piece_at(mv.to);
        // Quiet: the next ply's `is_legal` need not look for a check the
        // move cannot have given.
        undos.push(pos.play_unchecked_quiet(mv));
        if captured.is_some() {
            last_capture = i + 1;
        }
        hashes.push(pos.zobrist());
        // Only a claim reads the counts: no check test per ply otherwise.
        if req.claim.is_some() {
            let fact = PlyFact {
                by,
                capture: captured.is_some(),
                check: pos.is_check(),
            };
            counter.record(fact);
            if let Some(r) = roc.as_mut() {
                r.record(fact);
            }
        }
        if let (Some(w), Some(b)) = (watch.as_mut(), before) {
            w.push(&b, mv, &pos);
        }
    }
    let order = watch.as_ref().map_or(Value::Null, order_json);
    let finish = |mut v: Value, procedure: Option<Procedure>, typed: Explanation| {
        v["order"] = order.clone();
        v["procedure"] = procedure.map_or(Value::Null, |p| json!(p.name()));
        Adjudged {
            line: v.to_string(),
            explanation: Some(typed),
        }
    };
    // The cycle repeated after the order: the result (docs/rules.md, "Procedure").
    if let Some(OrderState::Repeated { ruling, .. }) = watch.as_ref().map(OrderWatch::state) {
        let typed = ruling.explanation.clone();
        return finish(ruling_fields(ruling), Some(Procedure::Result), typed);
    }
    // Checkmate or stalemate at the end: the side to move loses (AXF-G2).
    if let Some(Outcome::Win { winner, reason }) = pos.outcome() {
        let (fields, typed) = mate_fields(req.set, winner, reason);
        return finish(fields, Some(Procedure::Result), typed);
    }
    if let Some(r) = roc {
        let (fields, procedure, typed) = roc_limit_fields(&r, req.set);
        return finish(fields, procedure, typed);
    }
    if let Some(Claim::NaturalLimit(claimant)) = req.claim {
        let (fields, procedure, typed) = natural_limit_fields(&counter, claimant, req.set);
        return finish(fields, procedure, typed);
    }
    if let Some(w) = watch
        .as_ref()
        .filter(|w| *w.state() == OrderState::Standing)
    {
        let (fields, typed) = order_standing_fields(w);
        return finish(fields, None, typed);
    }
    match judge_final(pos, &req.moves, &undos, &hashes, last_capture, req.set) {
        Some(r) => {
            let procedure = Procedure::at_third_occurrence(&r);
            Adjudged {
                line: crate::ruling_line::ruling_line(&r, &order, Some(procedure)),
                explanation: Some(r.explanation),
            }
        }
        None => {
            let (fields, typed) = nothing_to_rule_fields();
            finish(fields, None, typed)
        }
    }
}

/// No third occurrence at the end, no claim, no order: nothing to rule.
fn nothing_to_rule_fields() -> (Value, Explanation) {
    let mut m = base();
    m.insert("verdict".into(), json!("none"));
    m.insert(
        "explanation_zh".into(),
        json!("终局未出现第三次重复局面，无须判决。"),
    );
    m.insert(
        "explanation_en".into(),
        json!("The final position has not occurred three times: nothing to rule."),
    );
    (Value::Object(m), Explanation::new("ruling-nothing-to-rule"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines read by the plain path give the same output as the general path.
    #[test]
    fn plain_and_general_parsing_agree() {
        let lines = [
            r#"{"moves": ["h2e2", "h9g7", "h0g2", "i9h9"]}"#,
            r#"{"fen": null, "moves": null, "rules": null, "claim": null}"#,
            r#"{"fen": "4k4/9/9/9/9/9/9/9/9/4K4 w", "moves": [], "rules": "cxa", "extra": 1}"#,
            r#"{"fen": "bad", "moves": ["zz"]}"#,
            r#"{"moves": ["h2e2", "zz"]}"#,
            r#"{"moves": [], "rules": "nope"}"#,
            r#"{"fen": 3}"#,
            r#"{"moves": [1]}"#,
            r#"[]"#,
            r#"[null, null]"#,
            r#"{"moves": ["h2e2"], "moves": []}"#,
            r#"{"moves": [], "ordered_at_ply": 0}"#,
        ];
        let mut plain_lines = 0;
        for line in lines {
            let Some(plain) = parse_plain(line) else {
                continue;
            };
            plain_lines += 1;
            let v: Value = serde_json::from_str(line).unwrap();
            let obj = v.as_object().unwrap();
            let reference = parse_general(obj);
            match (plain, reference) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.start, b.start, "{line}");
                    assert_eq!(a.moves, b.moves, "{line}");
                    assert_eq!(a.set, b.set, "{line}");
                    assert_eq!(a.claim, b.claim, "{line}");
                    assert_eq!(a.order, b.order, "{line}");
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{line}"),
                (a, b) => panic!("{line}: {:?} vs {:?}", a.is_ok(), b.is_ok()),
            }
        }
        assert_eq!(plain_lines, 6);
        assert!(parse_plain("[]").is_none());
        assert!(parse_plain(r#"{"moves": [1]}"#).is_none());
        assert!(parse_plain(r#"{"moves": [], "ordered_side": "red"}"#).is_none());
    }

    /// The hand lexer reads exactly what serde reads, or leaves the line to it.
    #[test]
    fn hand_lexer_agrees_with_serde() {
        let lines = [
            r#"{"moves": ["h2e2", "h9g7"]}"#,
            " \t{ \"fen\" :\"4k4/9/9/9/9/9/9/9/9/4K4 w\" , \"moves\":[ ] ,\"rules\":\"roc\"}\r\n",
            r#"{}"#,
            r#"{"fen": null, "moves": null, "rules": null}"#,
            r#"{"moves": ["h2e2",]}"#,
            r#"{"moves": ["h2e2"],}"#,
            r#"{"moves": ["h2e2"]} x"#,
            r#"{"moves": ["h2\u0065"]}"#,
            r#"{"moves": ["炮二平五"]}"#,
            r#"{"moves": ["h2e2"], "moves": []}"#,
            r#"{"moves": ["h2e2"], "claim": null}"#,
            r#"{"moves": nul}"#,
            r#"{"moves": [null]}"#,
            r#"{"fen": 3}"#,
            r#"{"moves": ["a"] "rules": "axf"}"#,
            "{\"moves\": [\"h2\te2\"]}",
            r#"{"moves": ["h2e2"]"#,
            r#"{"moves": ["H2-E2"]}"#,
            r#"{"moves": ["h2h2"]}"#,
            r#"{"moves": ["h2e"]}"#,
            r#"{"moves": ["j2e2"]}"#,
            r#"[]"#,
            "",
        ];
        let mut lexed = 0;
        for line in lines {
            let serde: Option<Plain> = serde_json::from_str(line).ok();
            let Some(a) = lex_plain(line) else {
                continue;
            };
            lexed += 1;
            let b = serde.unwrap_or_else(|| panic!("serde refuses {line:?}"));
            let moves = b.moves.map(|v| {
                v.iter()
                    .map(|t| parse_iccs(t).expect("a move the lexer read"))
                    .collect()
            });
            assert_eq!((a.fen, a.moves, a.rules), (b.fen, moves, b.rules), "{line}");
            assert!(b.claim.is_none() && b.ordered_at_ply.is_none(), "{line}");
        }
        assert_eq!(lexed, 4);
    }

    fn obj(line: &str) -> Map<String, Value> {
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn order_keys_are_checked() {
        let o = parse_order(
            &obj(r#"{"ordered_at_ply": 4, "ordered_side": "draw", "cycles_after_order": 3}"#),
            8,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            o,
            OrderInput {
                at_ply: 4,
                order: Some(Order::Draw),
                cycles: CyclesAfterOrder::Three
            }
        );
        assert_eq!(parse_order(&obj("{}"), 8), Ok(None));
        for (line, words) in [
            (r#"{"ordered_at_ply": 9}"#, "from 0 to 8"),
            (r#"{"ordered_at_ply": -1}"#, "from 0 to 8"),
            (
                r#"{"ordered_at_ply": 2, "ordered_side": "white"}"#,
                "\"red\", \"black\" or \"draw\"",
            ),
            (
                r#"{"ordered_at_ply": 2, "cycles_after_order": 2}"#,
                "1 or 3",
            ),
            (r#"{"ordered_side": "red"}"#, "need \"ordered_at_ply\""),
        ] {
            let e = parse_order(&obj(line), 8).unwrap_err();
            assert!(e.contains(words), "{line}: {e}");
        }
    }
}
