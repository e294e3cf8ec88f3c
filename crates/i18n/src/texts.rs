//! The hall's texts for people (大厅消息) as wire [`Message`]s: one
//! constructor per alert and ruling sentence, so that the code names each
//! id once and the catalogue test can check every one of them (with the
//! arguments it gives) against all four catalogues ([`every_text`]).
//!
//! The rulebook's explanations of its rulings (a repetition's analysis,
//! the order and the cycle repeated after it) are data
//! (`rulebook::explain`): [`ruling`] puts one on the wire as a message of
//! the `ruling-*` ids (`locales/rulings/*.ftl`). No code builds prose any
//! more: [`PROSE`] (`text-zh-en`, two finished texts verbatim, rendered as
//! the Chinese one in zh-Hans and zh-Hant and the English one in en and
//! vi) stays in the catalogues only so that rows and snapshots stored
//! before render as stored; the catalogue test checks that no crate
//! outside this one calls [`prose`].

use proto::{Arg, EndReason, FoulKind, GameResult, Message, Side};
use rulebook::clock::AnomalyKind;
use rulebook::explain::Explanation;
use rulebook::{ClockAnomaly, CyclesAfterOrder, Order};

use crate::ids;

/// The id of [`prose`].
pub const PROSE: &str = "text-zh-en";

/// A text written in Chinese and English (the form of rows stored
/// before the catalogue messages): rendered as `zh` in Chinese, `en`
/// otherwise. Only old data and the tests of its rendering build it.
pub fn prose(zh: impl Into<String>, en: impl Into<String>) -> Message {
    Message::new(PROSE).verbatim("zh", zh).verbatim("en", en)
}

/// An explanation with no words (`ruling-none`, empty in every
/// language): a ruling the arbiter gives without a sentence.
pub fn no_words() -> Message {
    Message::new("ruling-none")
}

/// A rulebook explanation (an id and typed facts) as a message.
pub fn ruling(e: &Explanation) -> Message {
    proto::convert::explanation(e)
}

/// The recommended order at a repetition (变着令) and the ruling it
/// rests on, with the arbiter's judgement it asks for: `ruling-order`.
pub fn order_ruling(r: &rulebook::Ruling, cycles: CyclesAfterOrder) -> Message {
    ruling(
        &Explanation::new("ruling-order")
            .part("order", Order::of(r).explain(cycles))
            .part("ruling", r.full_explanation()),
    )
}

/// The ruling on an illegal move `mv` by `side`: it loses (it ignored a
/// check or exposed the kings, AXF-G6) or it is corrected with one
/// technical foul (AXF-PLAY-4A).
pub fn illegal_ruling(loses: bool, side: Side, mv: &str) -> Message {
    let id = if loses {
        "ruling-illegal-loses"
    } else {
        "ruling-illegal-corrected"
    };
    Message::new(id).side("side", side).verbatim("move", mv)
}

/// The English text of a message: what the exports and logs quote.
pub fn english(m: &Message) -> String {
    crate::render(crate::Lang::En, m)
}

fn at(id: &str, table: u16) -> Message {
    Message::new(id).int("table", table)
}

fn nested(m: Message, name: &str, inner: Message) -> Message {
    m.arg(name, Arg::Message(Box::new(inner)))
}

/// A claim escalated to the chief, with the deputy's reason.
pub fn claim_escalated(table: u16, claim: u64, reason: &str) -> Message {
    at("alert-claim-escalated", table)
        .int("claim", claim as i64)
        .verbatim("reason", reason)
}

/// A newer terminal took the table over.
pub fn terminal_replaced(table: u16) -> Message {
    at("alert-terminal-replaced", table)
}

/// Two terminals keep taking one table from each other.
pub fn two_terminals(table: u16) -> Message {
    at("alert-two-terminals", table)
}

/// A console past the refused-commands threshold.
pub fn refused_commands(who: &str, threshold: u32, window_s: u32) -> Message {
    Message::new("alert-refused-commands")
        .verbatim("who", who)
        .int("threshold", threshold)
        .int("window", window_s)
}

/// A client that stopped reading was disconnected.
pub fn stopped_reading(who: &str, after_s: u32) -> Message {
    Message::new("alert-stopped-reading")
        .verbatim("who", who)
        .int("seconds", after_s)
}

/// A stored record set aside on start.
pub fn record_quarantined(gseq: u64, error: &str) -> Message {
    Message::new("alert-record-quarantined")
        .int("gseq", gseq as i64)
        .verbatim("error", error)
}

/// A table's terminal back online.
pub fn table_online(table: u16) -> Message {
    at("alert-table-online", table)
}

/// A table's terminal offline for `seconds`.
pub fn table_offline(table: u16, seconds: u64) -> Message {
    at("alert-table-offline", table).int("seconds", seconds as i64)
}

/// An illegal move `mv` by `side`, with why (an `illegal-*` message).
pub fn illegal_move(table: u16, side: Side, mv: &str, why: Message) -> Message {
    nested(
        at("alert-illegal-move", table)
            .side("side", side)
            .verbatim("move", mv),
        "why",
        why,
    )
}

/// Why a move is illegal: `id` one of the `illegal-*` reasons without
/// arguments ([`ILLEGAL_REASONS`]).
pub fn illegal_reason(id: &'static str) -> Message {
    Message::new(id)
}

/// The `illegal-*` reasons without arguments.
pub const ILLEGAL_REASONS: [&str; 7] = [
    "illegal-empty-square",
    "illegal-not-your-piece",
    "illegal-own-piece",
    "illegal-cannot-move-there",
    "illegal-leaves-check",
    "illegal-kings-facing",
    "illegal-generic",
];

/// A move text that is no move on the board.
pub fn illegal_not_a_move(mv: &str) -> Message {
    Message::new("illegal-not-a-move").verbatim("move", mv)
}

/// `side` moved while it was `turn`'s turn.
pub fn illegal_wrong_turn(side: Side, turn: Side) -> Message {
    Message::new("illegal-wrong-turn")
        .side("side", side)
        .side("turn", turn)
}

/// A repetition detected (the position occurred `count` times).
pub fn repetition(table: u16, count: u32, explanation: Message) -> Message {
    nested(
        at("alert-repetition", table).int("count", count),
        "explanation",
        explanation,
    )
}

/// A text about a table: "table 3: …" (natural limit, a limit claim).
pub fn at_table(table: u16, text: Message) -> Message {
    nested(at("alert-at-table", table), "text", text)
}

/// A standing order lapsed.
pub fn order_lapsed(table: u16, order: Message, claim: u64) -> Message {
    nested(
        at("alert-order-lapsed", table).int("claim", claim as i64),
        "order",
        order,
    )
}

/// The words of an order at a repetition (变着令): `must_change` must
/// change or loses after `cycles` more cycles (1 or 3, config
/// `cycles_after_order`); without a side, `cycles` more cycles are a
/// draw. A standing order and the control that shows it carry it.
pub fn order(must_change: Option<Side>, cycles: u32) -> Message {
    match must_change {
        Some(side) => Message::new("order-change")
            .side("side", side)
            .int("cycles", cycles),
        None => Message::new("order-draw").int("cycles", cycles),
    }
}

/// Why an order lapsed: `by` captured at `ply` (the cycle is broken), or
/// (`captured` false) `by` left the cycle at `ply`.
pub fn order_lapse(captured: bool, by: Side, ply: u64) -> Message {
    let id = if captured {
        "order-lapse-capture"
    } else {
        "order-lapse-left-cycle"
    };
    Message::new(id).side("side", by).int("ply", ply as i64)
}

/// The cycle repeated after an order.
pub fn order_repeated(table: u16, explanation: Message) -> Message {
    nested(
        at("alert-order-repeated", table),
        "explanation",
        explanation,
    )
}

/// A player called the arbiter, in their words.
pub fn arbiter_called(table: u16, side: Side, reason: &str) -> Message {
    at("alert-arbiter-called", table)
        .side("side", side)
        .verbatim("reason", reason)
}

/// A player claims a repetition ruling.
pub fn claim_repetition(table: u16, side: Side, explanation: Message) -> Message {
    nested(
        at("alert-claim-repetition", table).side("side", side),
        "explanation",
        explanation,
    )
}

/// A clock anomaly.
pub fn clock_anomaly(table: u16, description: Message) -> Message {
    nested(at("alert-clock-anomaly", table), "description", description)
}

/// The id of a clock anomaly's description (AXF-CLOCK-5).
pub fn anomaly_id(kind: AnomalyKind) -> &'static str {
    match kind {
        AnomalyKind::TimeWentBackwards => "clock-time-went-backwards",
        AnomalyKind::MovesDecreased => "clock-moves-decreased",
        AnomalyKind::TimeGrew => "clock-time-grew",
        AnomalyKind::RanTooFast => "clock-ran-too-fast",
        AnomalyKind::RanTooSlow => "clock-ran-too-slow",
        AnomalyKind::IdleSideChanged => "clock-idle-side-changed",
    }
}

/// A clock anomaly's description: its kind's message with the side
/// concerned and the figures the rulebook measured.
pub fn anomaly(a: &ClockAnomaly) -> Message {
    let mut m = Message::new(anomaly_id(a.kind));
    if let Some(c) = a.side {
        m = m.side("side", Side::from(c));
    }
    for (name, n) in &a.figures {
        m = m.int(name, *n);
    }
    m
}

/// The id of a result's words (红胜 / Red wins).
pub fn result_id(result: GameResult) -> &'static str {
    match result {
        GameResult::RedWins => "result-red-wins",
        GameResult::BlackWins => "result-black-wins",
        GameResult::Draw => "result-draw",
        GameResult::BothLose => "result-both-lose",
    }
}

/// Every result.
pub const RESULTS: [GameResult; 4] = [
    GameResult::RedWins,
    GameResult::BlackWins,
    GameResult::Draw,
    GameResult::BothLose,
];

/// A game over: the result, its end reason and the reason as written.
pub fn game_over(table: u16, result: GameResult, why: EndReason, reason: &str) -> Message {
    let m = nested(
        at("alert-game-over", table),
        "result",
        Message::new(result_id(result)),
    );
    nested(m, "why", Message::new(ids::end_reason(why))).verbatim("reason", reason)
}

/// The declared move limit is full.
pub fn move_limit_full(table: u16, explanation: Message) -> Message {
    nested(
        at("alert-move-limit-full", table),
        "explanation",
        explanation,
    )
}

/// A capture while the declared move limit runs.
pub fn move_limit_capture(table: u16, explanation: Message) -> Message {
    nested(
        at("alert-move-limit-capture", table),
        "explanation",
        explanation,
    )
}

/// A player claims the declared move limit.
pub fn claim_move_limit(table: u16, side: Side, explanation: Message) -> Message {
    nested(
        at("alert-claim-move-limit", table).side("side", side),
        "explanation",
        explanation,
    )
}

/// A repetition claim with no cycle to rule on.
pub fn ruling_no_cycle() -> Message {
    Message::new("ruling-no-cycle")
}

/// A move-limit claim with no limit declared.
pub fn ruling_no_move_limit(side: Side) -> Message {
    Message::new("ruling-no-move-limit").side("side", side)
}

/// A time limit in words: whole minutes as minutes (`15分钟`, `15
/// minutes`), else seconds (`90秒`, `90 s`).
pub fn time_limit(ms: u64) -> Message {
    if ms % 60_000 == 0 {
        Message::new("loss-minutes").int("minutes", (ms / 60_000) as i64)
    } else {
        Message::new("loss-seconds").int("seconds", (ms / 1000) as i64)
    }
}

/// `id` as an alert at `table` (`Some`: the alert's `*-alert` id, which
/// names the table) or as the ruling's explanation (`None`).
fn loss_at(alert: &str, explanation: &str, table: Option<u16>) -> Message {
    match table {
        Some(t) => at(alert, t),
        None => Message::new(explanation),
    }
}

/// `side`'s flag fell (AXF-CLOCK-1): the alert at `table`, or (`None`)
/// the explanation of the loss on time the hall recommends.
pub fn loss_flag_fall(table: Option<u16>, side: Side) -> Message {
    loss_at("loss-flag-fall-alert", "loss-flag-fall", table).side("side", side)
}

/// `side` reached `count` fouls of `kind` (AXF-PLAY-5, AXF-REC-6): the
/// alert at `table`, or (`None`) the loss's explanation.
pub fn loss_fouls(table: Option<u16>, side: Side, kind: FoulKind, count: u32) -> Message {
    let key = match kind {
        FoulKind::Technical => "technical",
        FoulKind::Violation => "violation",
    };
    loss_at("loss-fouls-alert", "loss-fouls", table)
        .side("side", side)
        .int("count", count)
        .verbatim("kind", key)
}

/// `side` not at the board `limit_ms` after the start (AXF-FORFEIT-1):
/// the alert at `table`, or (`None`) the forfeit's explanation.
pub fn loss_no_show(table: Option<u16>, side: Side, limit_ms: u64) -> Message {
    nested(
        loss_at("loss-no-show-alert", "loss-no-show", table).side("side", side),
        "limit",
        time_limit(limit_ms),
    )
}

/// `side` not at the board `limit_ms` after an adjourned game resumed
/// (AXF-REF-L): the alert at `table`, or (`None`) the forfeit's
/// explanation.
pub fn loss_late(table: Option<u16>, side: Side, limit_ms: u64) -> Message {
    nested(
        loss_at("loss-late-alert", "loss-late", table).side("side", side),
        "limit",
        time_limit(limit_ms),
    )
}

/// A game's end as the table terminal shows it: the result and its typed
/// end reason, with the words that came with it (a resignation's, the
/// arbiter's; none when empty) and who set it (an arbiter's result).
pub fn game_end(result: GameResult, why: EndReason, reason: &str, by: Option<&str>) -> Message {
    let id = match (by, reason.is_empty()) {
        (Some(_), _) => "game-end-set-by",
        (None, false) => "game-end-reason",
        (None, true) => "game-end",
    };
    let m = nested(Message::new(id), "result", Message::new(result_id(result)));
    let m = nested(m, "why", Message::new(ids::end_reason(why)));
    match by {
        Some(by) => m.verbatim("reason", reason).verbatim("by", by),
        None if reason.is_empty() => m,
        None => m.verbatim("reason", reason),
    }
}

/// Every message id of [`every_text`] (nested ones too) with the
/// arguments each is given (the catalogue test checks both against all
/// four catalogues, as it does `ids::every_id`).
pub fn every_text_id() -> Vec<(String, Vec<String>)> {
    ids_of(every_text())
}

/// The ids of `messages` (nested ones too) with the arguments each is
/// given, sorted, each once (the replies' too: `replies::every_reply`).
pub fn ids_of(messages: impl IntoIterator<Item = Message>) -> Vec<(String, Vec<String>)> {
    let mut ids = Vec::new();
    for m in messages {
        push_message(&mut ids, &m);
    }
    ids.sort();
    ids.dedup();
    ids
}

/// `m`'s id with its argument names, and those of the messages nested in
/// its arguments (a [`proto::convert::LIST`] gives only its items').
pub fn push_message(ids: &mut Vec<(String, Vec<String>)>, m: &Message) {
    // A list is the renderer's, not a catalogue message: its items are.
    if m.id != proto::convert::LIST {
        ids.push((
            m.id.clone(),
            m.args.iter().map(|(n, _)| n.clone()).collect(),
        ));
    }
    for (_, a) in &m.args {
        if let Arg::Message(inner) = a {
            push_message(ids, inner);
        }
    }
}

/// An anomaly of `kind` with the figures the rulebook names for it.
fn sample_anomaly(kind: AnomalyKind, side: bool) -> ClockAnomaly {
    ClockAnomaly {
        kind,
        side: side.then_some(Side::Red.into()),
        off_by_ms: 1,
        figures: kind.figure_names().iter().map(|n| (*n, 1)).collect(),
    }
}

/// A ruling of the rulebook on a real cycle (rooks checking and
/// escaping: Red's perpetual check), for the catalogue test.
fn sample_ruling() -> rulebook::Ruling {
    let start = xiangqi::Position::from_fen("5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1")
        .unwrap_or_else(|_| xiangqi::Position::new());
    let moves: Vec<xiangqi::Move> = [
        "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
    ]
    .iter()
    .filter_map(|m| xiangqi::parse_iccs(m).ok())
    .collect();
    match rulebook::judge_game(&start, &moves, rulebook::RuleSet::Axf) {
        Ok(Some(r)) => r,
        _ => unreachable!("the sample cycle is a perpetual check"),
    }
}

/// One of each text above, with sample arguments (for the catalogue test).
pub fn every_text() -> Vec<Message> {
    let p = || prose("中", "en");
    let mut out = vec![
        p(),
        claim_escalated(1, 2, "x"),
        terminal_replaced(1),
        two_terminals(1),
        refused_commands("x", 1, 2),
        record_quarantined(1, "x"),
        stopped_reading("x", 2),
        table_online(1),
        table_offline(1, 2),
        illegal_move(1, Side::Red, "a0a1", p()),
        illegal_not_a_move("x"),
        illegal_wrong_turn(Side::Red, Side::Black),
        repetition(1, 3, p()),
        at_table(1, p()),
        order_lapsed(1, order_lapse(true, Side::Red, 27), 2),
        order_lapsed(1, order_lapse(false, Side::Black, 27), 2),
        order(Some(Side::Red), 1),
        order(None, 3),
        order_repeated(1, p()),
        arbiter_called(1, Side::Red, "x"),
        claim_repetition(1, Side::Red, p()),
        clock_anomaly(1, p()),
        clock_anomaly(
            1,
            anomaly(&sample_anomaly(AnomalyKind::TimeWentBackwards, false)),
        ),
        clock_anomaly(
            1,
            anomaly(&sample_anomaly(AnomalyKind::MovesDecreased, true)),
        ),
        clock_anomaly(1, anomaly(&sample_anomaly(AnomalyKind::TimeGrew, true))),
        clock_anomaly(1, anomaly(&sample_anomaly(AnomalyKind::RanTooFast, false))),
        clock_anomaly(1, anomaly(&sample_anomaly(AnomalyKind::RanTooSlow, false))),
        clock_anomaly(
            1,
            anomaly(&sample_anomaly(AnomalyKind::IdleSideChanged, true)),
        ),
        move_limit_full(1, p()),
        move_limit_capture(1, p()),
        claim_move_limit(1, Side::Red, p()),
        ruling_no_cycle(),
        no_words(),
        ruling_no_move_limit(Side::Red),
        illegal_ruling(true, Side::Red, "h2e2"),
        illegal_ruling(false, Side::Black, "h2e2"),
        order_ruling(&sample_ruling(), CyclesAfterOrder::One),
    ];
    out.extend(ILLEGAL_REASONS.iter().map(|id| illegal_reason(id)));
    for table in [Some(1), None] {
        out.push(loss_flag_fall(table, Side::Red));
        for kind in [FoulKind::Technical, FoulKind::Violation] {
            out.push(loss_fouls(table, Side::Black, kind, 3));
        }
        for ms in [900_000, 90_000] {
            out.push(loss_no_show(table, Side::Red, ms));
            out.push(loss_late(table, Side::Black, ms));
        }
    }
    for (reason, by) in [("", None), ("x", None), ("x", Some("chief"))] {
        out.push(game_end(
            GameResult::RedWins,
            EndReason::Checkmate,
            reason,
            by,
        ));
    }
    for r in RESULTS {
        out.push(game_over(1, r, EndReason::Arbiter, "x"));
        out.push(Message::new(result_id(r)));
    }
    out
}
