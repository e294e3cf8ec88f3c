//! Why a request was refused (拒绝理由 / 拒絕理由 / lý do từ chối), as
//! the wire carries it in [`crate::ErrorReply::message`] (protocol 8): a
//! catalogue id and typed arguments, one constructor per sentence, so
//! that every site names its id once and the catalogue test
//! (`caipan-i18n`, `replies::every_reply`) checks each one, with the
//! arguments it gives, against the four catalogues
//! (crates/i18n/locales/replies/*.ftl). Each client renders the message
//! in its own language; the server's log and audit trail keep English.
//!
//! Ids: `reply-*` the connection's and the server's own refusals,
//! `refusal-*` the hall's (`hall::Refusal`), `role-*` the roles
//! table's ([`crate::roles::authorize`]), `action-*` the actions those
//! name. Peer text (a name, an error's words) travels as
//! [`Arg::Verbatim`], rendered as it is with control characters
//! replaced.

use crate::message::{Arg, Message};

fn nested(m: Message, name: &str, inner: Message) -> Message {
    m.arg(name, Arg::Message(Box::new(inner)))
}

fn table(id: &str, table: u16) -> Message {
    Message::new(id).int("table", table)
}

/// A list of numbers as one verbatim argument (`3, 7, 12`).
pub fn list<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

// ---- the connection (hello, frames) --------------------------------------

/// A hello of another protocol version.
pub fn bad_version(server: u16) -> Message {
    Message::new("reply-bad-version").int("server", server)
}

/// Something else than a hello first.
pub fn hello_first() -> Message {
    Message::new("reply-hello-first")
}

/// A second hello.
pub fn hello_again() -> Message {
    Message::new("reply-hello-again")
}

/// A frame over the limit; the connection is closed.
pub fn frame_too_large(len: usize, limit: usize) -> Message {
    Message::new("reply-frame-too-large")
        .int("len", i64::try_from(len).unwrap_or(i64::MAX))
        .int("limit", i64::try_from(limit).unwrap_or(i64::MAX))
}

/// A frame that does not decode.
pub fn malformed_frame() -> Message {
    Message::new("reply-malformed-frame")
}

/// An unknown token.
pub fn unknown_token() -> Message {
    Message::new("reply-unknown-token")
}

/// Too many connections with one token.
pub fn too_many_connections(limit: usize) -> Message {
    Message::new("reply-too-many-connections")
        .int("limit", i64::try_from(limit).unwrap_or(i64::MAX))
}

/// A reply that does not fit in a frame (the encoder's error as written).
pub fn does_not_fit(error: &str) -> Message {
    Message::new("reply-does-not-fit").verbatim("error", error)
}

/// The server is stopping.
pub fn stopping() -> Message {
    Message::new("reply-stopping")
}

/// The server could not store a request and is stopping.
pub fn not_stored_stopping() -> Message {
    Message::new("reply-not-stored-stopping")
}

/// The server stopped before storing a request.
pub fn stopped_before_storing() -> Message {
    Message::new("reply-stopped-before-storing")
}

/// A table event numbered 0.
pub fn seq_from_one() -> Message {
    Message::new("reply-seq-from-one")
}

// ---- the store's order of a table's events -------------------------------

/// The same key sent twice with different content.
pub fn conflict_sent() -> Message {
    Message::new("reply-conflict-sent")
}

/// The same key stored before with different content.
pub fn conflict_stored() -> Message {
    Message::new("reply-conflict-stored")
}

/// An old key never stored.
pub fn behind(seq: u64, epoch: u32, high_epoch: u32, high_seq: u64) -> Message {
    Message::new("reply-behind")
        .int("seq", i64::try_from(seq).unwrap_or(i64::MAX))
        .int("epoch", epoch)
        .int("high-epoch", high_epoch)
        .int("high-seq", i64::try_from(high_seq).unwrap_or(i64::MAX))
}

/// An event out of order.
pub fn out_of_order(table: u16, epoch: u32, expected: u64, got: u64) -> Message {
    Message::new("reply-out-of-order")
        .int("table", table)
        .int("epoch", epoch)
        .int("expected", i64::try_from(expected).unwrap_or(i64::MAX))
        .int("got", i64::try_from(got).unwrap_or(i64::MAX))
}

/// The server's own failure, in its words (a store's or encoder's error).
pub fn server_error(error: &str) -> Message {
    Message::new("reply-server-error").verbatim("error", error)
}

// ---- commands the server answers itself ----------------------------------

/// A table's log does not fit in a frame.
pub fn table_log_too_large(table_no: u16) -> Message {
    table("reply-table-log-too-large", table_no)
}

/// Pairing or publishing in a hall of a tournament on PostgreSQL that is
/// not its pairing hall: `hall` pairs and publishes the rounds.
pub fn pairing_other_hall(hall: &str) -> Message {
    Message::new("reply-pairing-other-hall").verbatim("hall", hall)
}

/// Another hall of the tournament has not finished its part of `round`:
/// its `tables` have no result (or it has not moved to `round` yet, with
/// no tables).
pub fn round_not_over_in_hall(hall: &str, round: u32, tables: &[u32]) -> Message {
    Message::new("reply-round-not-over-in-hall")
        .verbatim("hall", hall)
        .int("round", round)
        .verbatim("tables", list(tables))
}

/// The pairing failed (`why`: a `why-pairing-*` message, the pairing
/// engine's error typed; [`why_words`] for a database's or the system's).
pub fn pairing_failed(why: Message) -> Message {
    nested(Message::new("reply-pairing-failed"), "why", why)
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Fewer than two players present in `round`.
pub fn why_pairing_too_few_players(round: u32, present: usize) -> Message {
    Message::new("why-pairing-too-few-players")
        .int("round", round)
        .int("present", count(present))
}

/// No pairing of `round` without a rematch or a forbidden pair.
pub fn why_pairing_none(round: u32) -> Message {
    Message::new("why-pairing-none").int("round", round)
}

/// A round robin of `players`: Berger tables are for `min` to `max`.
pub fn why_pairing_round_robin_size(players: u32, min: u32, max: u32) -> Message {
    Message::new("why-pairing-round-robin-size")
        .int("players", players)
        .int("min", min)
        .int("max", max)
}

/// A round robin of `players` has rounds 1 to `rounds`, not `round`.
pub fn why_pairing_round_robin_round(round: u32, players: u32, rounds: usize) -> Message {
    Message::new("why-pairing-round-robin-round")
        .int("round", round)
        .int("players", players)
        .int("rounds", count(rounds))
}

/// Round `asked` is not the next one: the field holds rounds 1..`held`.
pub fn why_pairing_not_next(asked: u32, held: u32) -> Message {
    Message::new("why-pairing-not-next")
        .int("asked", asked)
        .int("held", held)
        .int("next", i64::from(held) + 1)
}

/// `round` has `boards` boards, more than the hall's `tables`.
pub fn why_pairing_too_few_tables(round: u32, boards: usize, tables: &[u16]) -> Message {
    Message::new("why-pairing-too-few-tables")
        .int("round", round)
        .int("boards", count(boards))
        .int("count", count(tables.len()))
        .verbatim("tables", list(tables))
}

/// A published round with tables that have no token.
pub fn publish_no_tokens(round: u32, tables: &[u16]) -> Message {
    Message::new("reply-publish-no-tokens")
        .int("round", round)
        .verbatim("tables", list(tables))
}

/// Subscriptions past the principal's pace: `burst` at once, then one
/// every `every_s` seconds; again in `wait_s` (one decimal).
pub fn subscribe_paced(who: &str, burst: u32, every_s: u32, wait_s: f64) -> Message {
    Message::new("reply-subscribe-paced")
        .verbatim("who", who)
        .int("burst", burst)
        .int("every", every_s)
        .verbatim("wait", format!("{wait_s:.1}"))
}

/// The hall's snapshot does not fit in a frame: not subscribed
/// (`unsubscribed` false) or a lagging console unsubscribed.
pub fn snapshot_too_large(tables: usize, error: &str, unsubscribed: bool) -> Message {
    let id = if unsubscribed {
        "reply-snapshot-too-large-unsubscribed"
    } else {
        "reply-snapshot-too-large"
    };
    Message::new(id)
        .int("tables", i64::try_from(tables).unwrap_or(i64::MAX))
        .verbatim("error", error)
}

/// An export that failed (the export's error as written).
pub fn export_failed(error: &str) -> Message {
    Message::new("reply-export-failed").verbatim("error", error)
}

/// A command the console could not send: the link's error (its words as
/// [`link_words`], or the server's typed refusal of the hello).
pub fn not_sent(why: Message) -> Message {
    nested(Message::new("reply-not-sent"), "why", why)
}

/// The link's own words (a transport error: QUIC, TLS, I/O, in the
/// English their crates give) as a message.
pub fn link_words(words: &str) -> Message {
    Message::new("reply-link-words").verbatim("words", words)
}

// ---- the hall's refusals (hall::Refusal) ---------------------------------

/// No such table (an event's, or a table log's).
pub fn no_table(table_no: u16) -> Message {
    table("refusal-no-table", table_no)
}

/// No such table in the round (a command's).
pub fn no_table_in_round(table_no: u16) -> Message {
    table("refusal-no-table-in-round", table_no)
}

/// No such claim at the table.
pub fn no_claim(table_no: u16, claim: u64) -> Message {
    table("refusal-no-claim", table_no).int("claim", i64::try_from(claim).unwrap_or(i64::MAX))
}

/// No such alert.
pub fn no_alert(alert: u64) -> Message {
    Message::new("refusal-no-alert").int("alert", i64::try_from(alert).unwrap_or(i64::MAX))
}

/// The game at the table is over.
pub fn game_over(table_no: u16) -> Message {
    table("refusal-game-over", table_no)
}

/// The table is paused already.
pub fn already_paused(table_no: u16) -> Message {
    table("refusal-already-paused", table_no)
}

/// The table is not paused.
pub fn not_paused(table_no: u16) -> Message {
    table("refusal-not-paused", table_no)
}

/// The table is sealed.
pub fn is_sealed(table_no: u16) -> Message {
    table("refusal-is-sealed", table_no)
}

/// The hall is paused already.
pub fn hall_already_paused() -> Message {
    Message::new("refusal-hall-already-paused")
}

/// The hall is not paused.
pub fn hall_not_paused() -> Message {
    Message::new("refusal-hall-not-paused")
}

/// The game cannot be sealed now.
pub fn cannot_seal(table_no: u16) -> Message {
    table("refusal-cannot-seal", table_no)
}

/// The sealed move is not legal.
pub fn illegal_sealed_move(table_no: u16, mv: &str) -> Message {
    table("refusal-illegal-sealed-move", table_no).verbatim("move", mv)
}

/// The table is not sealed.
pub fn not_sealed(table_no: u16) -> Message {
    table("refusal-not-sealed", table_no)
}

/// Accepting a claim already ruled.
pub fn already_ruled(claim: u64) -> Message {
    Message::new("refusal-already-ruled").int("claim", i64::try_from(claim).unwrap_or(i64::MAX))
}

/// Accepting a claim that lapsed.
pub fn lapsed(claim: u64) -> Message {
    Message::new("refusal-lapsed").int("claim", i64::try_from(claim).unwrap_or(i64::MAX))
}

/// An override without a reason.
pub fn no_reason() -> Message {
    Message::new("refusal-no-reason")
}

/// No change order at the table's position (`why`: [`why_no_cycle`] or
/// [`why_order_illegal_move`], the rulebook's `OrderError` typed; nested:
/// no wire change, the argument was text before).
pub fn no_order(table_no: u16, why: Message) -> Message {
    nested(table("refusal-no-order", table_no), "why", why)
}

/// No position occurred three times since the last capture, at or before
/// `ply`: there is no cycle to order on.
pub fn why_no_cycle(ply: usize) -> Message {
    Message::new("why-no-cycle").int("ply", i64::try_from(ply).unwrap_or(i64::MAX))
}

/// The game's move `ply` (counted from 1), `mv`, is illegal (`reason`:
/// [`why_illegal`]).
pub fn why_order_illegal_move(ply: usize, mv: &str, reason: Message) -> Message {
    nested(
        Message::new("why-order-illegal-move")
            .int("ply", i64::try_from(ply).unwrap_or(i64::MAX))
            .verbatim("move", mv),
        "reason",
        reason,
    )
}

/// Why a move is illegal, in the rulebook's words (`why-illegal-*`;
/// `kind`: `empty-square`, `not-your-piece`, `own-piece`,
/// `cannot-move-there`, `leaves-check`, `kings-facing`).
pub fn why_illegal(kind: &str) -> Message {
    Message::new(format!("why-illegal-{kind}"))
}

/// The kinds [`why_illegal`] takes (the catalogue test renders each).
pub const WHY_ILLEGAL: [&str; 6] = [
    "empty-square",
    "not-your-piece",
    "own-piece",
    "cannot-move-there",
    "leaves-check",
    "kings-facing",
];

/// The rule set has no declared move limit.
pub fn no_declared_limit(rule_set: &str) -> Message {
    Message::new("refusal-no-declared-limit").verbatim("rules", rule_set)
}

/// The round is not over.
pub fn round_not_over(round: u32, tables: &[u16]) -> Message {
    Message::new("refusal-round-not-over")
        .int("round", round)
        .verbatim("tables", list(tables))
}

/// A published round that cannot be the next one; `why` is the check's
/// reason as a message of its own (`why-*`, nested: no wire change, an
/// argument was already a message or text).
pub fn bad_round(round: u32, why: Message) -> Message {
    nested(
        Message::new("refusal-bad-round").int("round", round),
        "why",
        why,
    )
}

/// A published round that cannot be withdrawn (`why`: a `why-*` message).
pub fn bad_withdrawal(round: u32, why: Message) -> Message {
    nested(
        Message::new("refusal-bad-withdrawal").int("round", round),
        "why",
        why,
    )
}

/// A late entry that cannot be made (`why`: a `why-*` message).
pub fn bad_entry(name: &str, why: Message) -> Message {
    nested(
        Message::new("refusal-bad-entry").verbatim("name", name),
        "why",
        why,
    )
}

/// A player's withdrawal that cannot be made (`why`: a `why-*` message).
pub fn bad_player_withdrawal(player: &str, why: Message) -> Message {
    nested(
        Message::new("refusal-bad-player-withdrawal").verbatim("player", player),
        "why",
        why,
    )
}

/// The words of a reason that has none of its own in the catalogues (a
/// database's or the system's error text, as those give it; the pairing
/// engine's errors are `why-pairing-*`), nested where a `why-*` message
/// goes.
pub fn why_words(words: &str) -> Message {
    Message::new("why-words").verbatim("words", words)
}

/// A correction of an earlier round's result that cannot be made
/// (`why`: a `why-*` message).
pub fn bad_correction(round: u32, table: u16, why: Message) -> Message {
    nested(
        Message::new("refusal-bad-correction")
            .int("round", round)
            .int("table", table),
        "why",
        why,
    )
}

/// No move limit declared at the table.
pub fn no_move_limit(table_no: u16) -> Message {
    table("refusal-no-move-limit", table_no)
}

// ---- the roles table (roles::authorize) ----------------------------------

/// An action's words (`action-pause-table`): `name` is the action's
/// snake-case name ([`crate::roles::Action::name`]).
pub fn action(name: &str) -> Message {
    Message::new(format!("action-{}", name.replace('_', "-")))
}

/// A viewer asked for more than reading.
pub fn viewer_read_only(action_name: &str) -> Message {
    nested(
        Message::new("role-viewer-read-only"),
        "action",
        action(action_name),
    )
}

/// A table terminal reported for another table.
pub fn table_other_table(own: u32, kind: &str, other: u32) -> Message {
    nested(
        Message::new("role-table-other-table").int("own", own),
        "kind",
        action(kind),
    )
    .int("table", other)
}

/// A table terminal asked for something else than its events.
pub fn table_only_events(action_name: &str) -> Message {
    nested(
        Message::new("role-table-only-events"),
        "action",
        action(action_name),
    )
}

/// A table not assigned to the deputy (`assigned`: the deputy's tables).
pub fn deputy_not_assigned(table_no: u32, deputy: &str, assigned: &[u32]) -> Message {
    let m = Message::new("role-deputy-not-assigned")
        .int("table", table_no)
        .verbatim("deputy", deputy);
    if assigned.is_empty() {
        nested(m, "assigned", Message::new("role-assigned-none"))
    } else {
        m.verbatim("assigned", list(assigned))
    }
}

/// A deputy sent a table terminal's event.
pub fn deputy_table_event(kind: &str) -> Message {
    nested(
        Message::new("role-deputy-table-event"),
        "kind",
        action(kind),
    )
}

/// A table command without a table.
pub fn deputy_no_table() -> Message {
    Message::new("role-deputy-no-table")
}

/// A deputy overriding the chief's ruling.
pub fn deputy_chief_ruling(deputy: &str) -> Message {
    Message::new("role-deputy-chief-ruling").verbatim("deputy", deputy)
}

/// A deputy overriding another deputy's ruling.
pub fn deputy_other_deputy(deputy: &str, by: &str) -> Message {
    Message::new("role-deputy-other-deputy")
        .verbatim("deputy", deputy)
        .verbatim("by", by)
}

/// A deputy acknowledging a hall-wide alert.
pub fn deputy_hall_alert() -> Message {
    Message::new("role-deputy-hall-alert")
}

/// A chief's action asked by a deputy.
pub fn deputy_chief_only(action_name: &str, deputy: &str) -> Message {
    nested(
        Message::new("role-deputy-chief-only"),
        "action",
        action(action_name),
    )
    .verbatim("deputy", deputy)
}

/// A deputy exporting.
pub fn deputy_export() -> Message {
    Message::new("role-deputy-export")
}

/// A deputy pairing the next round.
pub fn deputy_pair_round(deputy: &str) -> Message {
    Message::new("role-deputy-pair-round").verbatim("deputy", deputy)
}

/// A deputy correcting a result of an earlier round.
pub fn deputy_correct_result(deputy: &str) -> Message {
    Message::new("role-deputy-correct-result").verbatim("deputy", deputy)
}

/// A deputy withdrawing a published round.
pub fn deputy_withdraw_round(deputy: &str) -> Message {
    Message::new("role-deputy-withdraw-round").verbatim("deputy", deputy)
}

/// A deputy entering a player late.
pub fn deputy_enter_player(deputy: &str) -> Message {
    Message::new("role-deputy-enter-player").verbatim("deputy", deputy)
}

/// A deputy withdrawing a player.
pub fn deputy_withdraw_player(deputy: &str) -> Message {
    Message::new("role-deputy-withdraw-player").verbatim("deputy", deputy)
}

/// Anything else a deputy may not do.
pub fn deputy_cannot(deputy: &str, action_name: &str) -> Message {
    nested(
        Message::new("role-deputy-cannot").verbatim("deputy", deputy),
        "action",
        action(action_name),
    )
}
