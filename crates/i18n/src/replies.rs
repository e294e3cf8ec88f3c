//! Replies (回复 / 回覆 / trả lời): an error reply rendered in a language
//! ([`error_text`]: why, then the code in brackets), the ids of the
//! protocol's error codes, and every refusal the code can send
//! ([`every_reply`], with sample arguments) for the catalogue test. The
//! sentences themselves are built by [`proto::refusals`]; their words are
//! in `locales/replies/*.ftl`.

use std::collections::BTreeSet;

use proto::refusals as r;
use proto::roles::{authorize, Action, Principal, RulingAuthor, Scope, TableEventKind};
use proto::{Arg, ControlToTable, EndReason, ErrorCode, ErrorReply, GameResult, Message, Side};

use crate::lang::Lang;

/// The id of an error code's words (`code-not-found`).
pub fn code_id(code: &ErrorCode) -> &'static str {
    match code {
        ErrorCode::BadFrame => "code-bad-frame",
        ErrorCode::TooLarge { .. } => "code-too-large",
        ErrorCode::BadVersion { .. } => "code-bad-version",
        ErrorCode::Unauthenticated => "code-unauthenticated",
        ErrorCode::Forbidden => "code-forbidden",
        ErrorCode::WrongTable => "code-wrong-table",
        ErrorCode::Conflict => "code-conflict",
        ErrorCode::IllegalMove => "code-illegal-move",
        ErrorCode::NotFound => "code-not-found",
        ErrorCode::Invalid => "code-invalid",
        ErrorCode::Unexpected => "code-unexpected",
        ErrorCode::Unavailable => "code-unavailable",
        ErrorCode::Internal => "code-internal",
    }
}

/// Every error code (with sample fields).
pub fn every_code() -> Vec<ErrorCode> {
    vec![
        ErrorCode::BadFrame,
        ErrorCode::TooLarge { limit: 1 },
        ErrorCode::BadVersion { server: 1 },
        ErrorCode::Unauthenticated,
        ErrorCode::Forbidden,
        ErrorCode::WrongTable,
        ErrorCode::Conflict,
        ErrorCode::IllegalMove,
        ErrorCode::NotFound,
        ErrorCode::Invalid,
        ErrorCode::Unexpected,
        ErrorCode::Unavailable,
        ErrorCode::Internal,
    ]
}

/// An error reply in `lang`: why, then the code (`no table 9 (not found)`).
pub fn error_text(lang: Lang, e: &ErrorReply) -> String {
    format!(
        "{} ({})",
        crate::render(lang, &e.message),
        crate::term(lang, code_id(&e.code))
    )
}

/// An error reply as one message: why, with the code (`reply-refused`:
/// "server refused: … (…)"), for a screen that shows it among others.
pub fn refused(e: &ErrorReply) -> Message {
    Message::new("reply-refused")
        .arg("why", Arg::Message(Box::new(e.message.clone())))
        .arg(
            "code",
            Arg::Message(Box::new(Message::new(code_id(&e.code)))),
        )
}

fn nest(m: Message, name: &str, inner: Message) -> Message {
    m.arg(name, Arg::Message(Box::new(inner)))
}

/// What a control of the arbiter says on the table's terminal
/// (`control-*`): who did what, the arbiter's own reason verbatim; a
/// decided claim as [`crate::decided::claim_decided`] words it.
pub fn control(c: &ControlToTable) -> Message {
    let said = |id: &str, by: &str| Message::new(id).verbatim("by", by);
    match c {
        ControlToTable::Pause { by, reason } => {
            said("control-paused", by).verbatim("reason", reason)
        }
        ControlToTable::Resume { by } => said("control-resumed", by),
        ControlToTable::Adjust { by, reason, .. } => {
            said("control-adjusted", by).verbatim("reason", reason)
        }
        ControlToTable::Seal { by } => said("control-sealed", by),
        ControlToTable::Unseal {
            by, sealed_move, ..
        } => said("control-unsealed", by).verbatim("move", sealed_move.to_string()),
        ControlToTable::SetResult {
            by,
            result,
            why,
            reason,
        } => {
            let m = nest(
                said("control-result", by),
                "result",
                Message::new(crate::texts::result_id(*result)),
            );
            nest(m, "why", Message::new(crate::ids::end_reason(*why))).verbatim("reason", reason)
        }
        ControlToTable::TakeBack { by, reason } => {
            said("control-taken-back", by).verbatim("reason", reason)
        }
        ControlToTable::MoveLimit { by, limit } => match limit {
            Some(l) => said("control-move-limit", by).int("moves", l.moves_each),
            None => said("control-move-limit-cancelled", by),
        },
        ControlToTable::Order { by, text, .. } => {
            nest(said("control-order", by), "order", text.clone())
        }
        ControlToTable::ClaimDecided {
            kind,
            claimant,
            verdict,
            must_change,
            penalty,
            ..
        } => crate::decided::claim_decided(*kind, *claimant, *verdict, *must_change, *penalty),
    }
}

/// An unsealed move that is not legal on the terminal's board.
pub fn unsealed_illegal(by: &str, mv: &str) -> Message {
    Message::new("control-unsealed-illegal")
        .verbatim("by", by)
        .verbatim("move", mv)
}

/// A sample of every control's words (for the catalogue test).
fn every_control() -> Vec<Message> {
    let by = || "chief".to_string();
    let controls = vec![
        ControlToTable::Pause {
            by: by(),
            reason: "x".into(),
        },
        ControlToTable::Resume { by: by() },
        ControlToTable::Adjust {
            by: by(),
            red_ms: 1,
            black_ms: 2,
            reason: "x".into(),
        },
        ControlToTable::Seal { by: by() },
        ControlToTable::Unseal {
            by: by(),
            sealed_move: proto::IccsMove { from: 7, to: 4 },
            red_ms: 1,
            black_ms: 2,
        },
        ControlToTable::SetResult {
            by: by(),
            result: GameResult::Draw,
            why: EndReason::Agreement,
            reason: "x".into(),
        },
        ControlToTable::TakeBack {
            by: by(),
            reason: "x".into(),
        },
        ControlToTable::MoveLimit {
            by: by(),
            limit: Some(proto::MoveLimit {
                at_ply: 0,
                requested_by: Some(Side::Red),
                limited: Side::Black,
                book_draw: false,
                moves_each: 30,
                reply_cap: 30,
            }),
        },
        ControlToTable::MoveLimit {
            by: by(),
            limit: None,
        },
        ControlToTable::Order {
            by: by(),
            must_change: None,
            text: crate::texts::order(None, 3),
        },
    ];
    let mut out: Vec<Message> = controls.iter().map(control).collect();
    out.push(unsealed_illegal("chief", "h2e2"));
    out.extend(crate::decided::every_decided());
    out
}

/// Every action of the roles table, with sample tables.
fn every_action() -> Vec<Action> {
    let mut out: Vec<Action> = TableEventKind::ALL
        .iter()
        .map(|&kind| Action::TableEvent { table: 2, kind })
        .collect();
    out.extend([
        Action::Subscribe { scope: Scope::Hall },
        Action::PauseTable { table: 9 },
        Action::ResumeTable { table: 9 },
        Action::PauseHall,
        Action::ResumeHall,
        Action::Seal { table: 9 },
        Action::Unseal { table: 9 },
        Action::RuleOnClaim { table: 9 },
        Action::OverrideRuling {
            table: 9,
            ruled_by: RulingAuthor::Chief,
        },
        Action::OverrideRuling {
            table: 9,
            ruled_by: RulingAuthor::Deputy("x".into()),
        },
        Action::RecordFoul { table: 9 },
        Action::AdjustClock { table: 9 },
        Action::SetResult { table: 9 },
        Action::AckAlert { table: Some(9) },
        Action::AckAlert { table: None },
        Action::Export,
        Action::PairRound,
        Action::CorrectResult,
        Action::WithdrawRound,
        Action::EnterPlayer,
        Action::WithdrawPlayer,
    ]);
    out
}

/// Every refusal of the roles table: each principal against each action
/// (a deputy with tables and one without).
fn every_role_refusal() -> Vec<Message> {
    let principals = [
        Principal::Viewer { name: "v".into() },
        Principal::Table { table: 1 },
        Principal::Deputy {
            name: "d".into(),
            tables: BTreeSet::from([1, 2]),
        },
        Principal::Deputy {
            name: "e".into(),
            tables: BTreeSet::new(),
        },
    ];
    let mut out = Vec::new();
    for p in &principals {
        for a in every_action() {
            if let Err(refusal) = authorize(p, &a) {
                out.push(refusal.message);
            }
        }
    }
    // Every action's words, whoever is refused them.
    for a in every_action() {
        out.push(r::action(a.name()));
    }
    out.push(r::deputy_no_table());
    out
}

/// Every reply the code sends, with sample arguments (for the catalogue
/// test: each id in all four catalogues with the arguments given).
pub fn every_reply() -> Vec<Message> {
    let mut out = vec![
        r::bad_version(8),
        r::hello_first(),
        r::hello_again(),
        r::frame_too_large(70_000, 65_536),
        r::malformed_frame(),
        r::unknown_token(),
        r::too_many_connections(4),
        r::does_not_fit("x"),
        r::stopping(),
        r::not_stored_stopping(),
        r::stopped_before_storing(),
        r::seq_from_one(),
        r::conflict_sent(),
        r::conflict_stored(),
        r::behind(1, 2, 3, 4),
        r::out_of_order(1, 2, 3, 4),
        r::server_error("x"),
        r::table_log_too_large(1),
        r::pairing_other_hall("room-a"),
        r::round_not_over_in_hall("room-b", 1, &[3, 4]),
        r::pairing_failed(r::why_words("x")),
        r::pairing_failed(r::why_pairing_too_few_players(3, 1)),
        r::why_pairing_none(3),
        r::why_pairing_round_robin_size(30, 3, 24),
        r::why_pairing_round_robin_round(9, 6, 5),
        r::why_pairing_not_next(5, 2),
        r::why_pairing_too_few_tables(3, 5, &[1, 2]),
        r::publish_no_tokens(2, &[3, 4]),
        r::subscribe_paced("viewer:x", 8, 5, 4.25),
        r::snapshot_too_large(1000, "x", false),
        r::snapshot_too_large(1000, "x", true),
        r::export_failed("x"),
        r::not_sent(r::link_words("x")),
        r::not_sent(r::bad_version(10)),
        r::link_words("x"),
        r::no_table(1),
        r::no_table_in_round(1),
        r::no_claim(1, 2),
        r::no_alert(1),
        r::game_over(1),
        r::already_paused(1),
        r::not_paused(1),
        r::is_sealed(1),
        r::hall_already_paused(),
        r::hall_not_paused(),
        r::cannot_seal(1),
        r::illegal_sealed_move(1, "h2e2"),
        r::not_sealed(1),
        r::already_ruled(1),
        r::lapsed(1),
        r::no_reason(),
        r::no_order(1, r::why_no_cycle(5)),
        r::no_order(
            1,
            r::why_order_illegal_move(5, "h2e2", r::why_illegal("own-piece")),
        ),
        r::why_order_illegal_move(5, "h2e2", r::why_words("x")),
        r::no_declared_limit("AXF"),
        r::round_not_over(1, &[2, 3]),
        r::bad_round(1, r::why_words("x")),
        r::bad_withdrawal(2, r::why_words("x")),
        r::bad_entry("x", r::why_words("y")),
        r::bad_player_withdrawal("x", r::why_words("y")),
        r::why_words("x"),
        r::bad_correction(1, 2, r::why_words("x")),
        r::no_move_limit(1),
    ];
    // A late entry's or a withdrawal's fields, named in `why-field-*`
    // (hall::command::players builds their ids from the field).
    for field in [
        "name",
        "registration-id",
        "federation",
        "club",
        "player",
        "reason",
    ] {
        out.push(Message::new(format!("why-field-{field}")));
    }
    // An illegal move's reasons in a refused order (hall::table::order).
    out.extend(r::WHY_ILLEGAL.iter().map(|kind| r::why_illegal(kind)));
    out.extend(every_role_refusal());
    out.extend(every_control());
    out.push(refused(&ErrorReply {
        code: ErrorCode::Invalid,
        message: r::no_reason(),
        re: None,
    }));
    out.extend(every_code().iter().map(|c| Message::new(code_id(c))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_reads_in_each_language_with_its_code() {
        let e = ErrorReply {
            code: ErrorCode::Invalid,
            message: r::already_paused(7),
            re: None,
        };
        assert_eq!(
            error_text(Lang::En, &e),
            "table 7 is already paused (invalid request)"
        );
        assert_eq!(error_text(Lang::ZhHans, &e), "第 7 台已经暂停 (请求无效)");
        assert_eq!(error_text(Lang::ZhHant, &e), "第 7 台已經暫停 (請求無效)");
        assert_eq!(
            error_text(Lang::Vi, &e),
            "bàn 7 đã tạm dừng rồi (yêu cầu không hợp lệ)"
        );
    }

    #[test]
    fn a_role_refusal_names_the_action_in_the_language() {
        let deputy = Principal::Deputy {
            name: "陈立新".into(),
            tables: BTreeSet::from([1, 2]),
        };
        let m = authorize(&deputy, &Action::PauseHall).unwrap_err().message;
        assert_eq!(
            crate::render(Lang::En, &m),
            "only the chief can do that: pausing the hall (deputy 陈立新)"
        );
        assert_eq!(
            crate::render(Lang::ZhHant, &m),
            "只有裁判長才能全場暫停（副裁判 陈立新）"
        );
        assert_eq!(
            crate::render(Lang::Vi, &m),
            "chỉ trọng tài trưởng mới được tạm dừng toàn phòng đấu (phó trọng tài 陈立新)"
        );
    }
}
