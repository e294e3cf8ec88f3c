//! Hand-built sample messages covering every variant of every protocol enum,
//! and exhaustive `variant` functions so a new variant without a sample
//! fails the coverage tests (shared by the codec and frame tests).
#![allow(dead_code, reason = "each test file uses its own part")]

use proto::*;

pub fn mv(s: &str) -> IccsMove {
    IccsMove::parse(s).unwrap()
}

pub fn clock() -> ClockState {
    ClockState {
        red_ms: 4_800_000,
        black_ms: 4_712_345,
        running: Some(Side::Black),
    }
}

pub fn fischer() -> TimeControl {
    TimeControl::Fischer {
        base_ms: 80 * 60_000,
        increment_ms: 30_000,
    }
}

pub fn traditional() -> TimeControl {
    TimeControl::Traditional {
        stages: vec![
            ClockStage {
                moves: 25,
                cumulative_ms: 3_600_000,
            },
            ClockStage {
                moves: 35,
                cumulative_ms: 4_500_000,
            },
        ],
        then_moves: 10,
        then_ms: 300_000,
    }
}

pub fn ruling() -> Ruling {
    Ruling {
        verdict: Verdict::Loss { side: Side::Red },
        must_change: Some(Side::Red),
        rule_ids: vec!["AXF-D1".into(), "AXF-P4".into()],
        explanation: Message::new("verdict-loss")
            .side("side", Side::Red)
            .arg(
                "nested",
                Arg::Message(Box::new(Message::new("term-perpetual-check"))),
            )
            .arg("rules", Arg::Rules(vec!["AXF-D1".into()]))
            .arg("clock", Arg::DurationMs(300_000)),
    }
}

pub fn all_statuses() -> Vec<TableStatus> {
    vec![
        TableStatus::Waiting,
        TableStatus::Playing,
        TableStatus::Paused(PauseInfo {
            by: "chief".into(),
            reason: "噪音".into(),
        }),
        TableStatus::Sealed {
            by: "deputy 李四".into(),
            at_ms: 1_700_000_000_000,
        },
        TableStatus::Finished {
            result: GameResult::BothLose,
            why: EndReason::Forfeit,
            reason: "no-show".into(),
        },
    ]
}

pub fn table_view(table: u16, status: TableStatus) -> TableView {
    TableView {
        table,
        red: "胡荣华".into(),
        black: "许银川".into(),
        clock: clock(),
        clock_at_ms: 1_700_000_000_123,
        to_move: Side::Black,
        flag: Some(Side::Red),
        plies: 42,
        plies_since_capture: 17,
        natural_limit_plies: 120,
        checks_red: 3,
        checks_black: 0,
        fouls_red: FoulCount {
            technical: 1,
            violations: 2,
        },
        fouls_black: FoulCount::default(),
        pending_claims: 1,
        status,
        last_heard_ms: 1_700_000_000_000,
        online: true,
        last_move: Some(mv("h2e2")),
        fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1".into(),
        moves: vec![mv("h2e2"), mv("h9g7"), mv("b0c2")],
        order: (table % 2 == 0).then(|| StandingOrder {
            must_change: Some(Side::Red),
            at_ply: 40,
            claim_id: 3,
            text: Message::new("order-change")
                .side("side", Side::Red)
                .int("cycles", 1),
        }),
        move_limit: (table % 2 == 0).then(|| MoveLimitView {
            limit: move_limit(),
            remaining_red: 12,
            remaining_black: 13,
            struck: 2,
            capture_at_ply: (table % 4 == 0).then_some(50),
        }),
    }
}

pub fn move_limit() -> MoveLimit {
    MoveLimit {
        at_ply: 30,
        requested_by: Some(Side::Black),
        limited: Side::Red,
        book_draw: false,
        moves_each: 40,
        reply_cap: 5,
    }
}

pub fn all_alert_kinds() -> Vec<AlertKind> {
    use AlertKind::*;
    vec![
        FlagFall,
        IllegalMove,
        Repetition,
        NaturalLimit,
        NoShow,
        ClockAnomaly,
        TableOffline,
        TableOnline,
        FoulThreshold,
        SealOverdue,
        ArbiterCalled,
        ClaimPending,
        GameOver,
        RefusedCommands,
        MoveLimit,
        RecordQuarantined,
        TerminalReplaced,
        TwoTerminals,
        StoppedReading,
    ]
}

pub fn alert(id: u64, kind: AlertKind) -> Alert {
    Alert {
        id,
        table: 7,
        kind,
        at_ms: 1_700_000_000_000 + id,
        text: Message::new("alert-at-table")
            .int("table", 7)
            .verbatim("text", "红方超时")
            .arg(
                "piece",
                Arg::Piece {
                    side: Side::Red,
                    kind: PieceKind::Chariot,
                },
            ),
        rule_ids: vec!["AXF-CLOCK-1".into()],
        acked_by: if id % 2 == 0 {
            Some("chief".into())
        } else {
            None
        },
    }
}

pub fn all_claim_statuses() -> Vec<ClaimStatus> {
    vec![
        ClaimStatus::Pending,
        ClaimStatus::Ruled {
            by: "chief".into(),
            outcome: RulingOutcome::Accepted,
            at_ms: 5,
        },
        ClaimStatus::Ruled {
            by: "deputy 李四".into(),
            outcome: RulingOutcome::Overridden {
                verdict: Verdict::Draw,
                must_change: None,
                reason: "双方均未违例".into(),
            },
            at_ms: 6,
        },
        ClaimStatus::Escalated {
            by: "deputy 李四".into(),
            reason: "unsure".into(),
            at_ms: 7,
        },
        ClaimStatus::Lapsed {
            why: Message::new("audit-lapse-moved").side("side", Side::Red),
            at_ms: 8,
        },
    ]
}

pub fn all_claim_kinds() -> Vec<ClaimKind> {
    use ClaimKind::*;
    vec![
        NaturalLimit,
        Repetition,
        IllegalMove,
        FoulThreshold,
        FlagFall,
        NoShow,
        DrawOffer,
        MoveLimit,
    ]
}

pub fn claim(id: u64, kind: ClaimKind, status: ClaimStatus) -> ClaimView {
    ClaimView {
        id,
        table: 3,
        kind,
        by: if id % 2 == 0 { Some(Side::Black) } else { None },
        raised_at_ms: 99,
        recommended: ruling(),
        penalty: (kind == ClaimKind::NaturalLimit).then_some(ClaimPenalty {
            side: Side::Black,
            technical_foul: true,
            deduct_ms: 300_000,
        }),
        status,
    }
}

pub fn audit(id: u64) -> AuditEntry {
    AuditEntry {
        id,
        at_ms: 1_700_000_000_000,
        who: "deputy 李四".into(),
        what: "pause table 3".into(),
        table: Some(3),
        refused: if id % 2 == 0 {
            Some("not assigned".into())
        } else {
            None
        },
        // Rows of protocol 10 are typed; older ones (odd ids) are not.
        what_msg: (id % 2 == 0).then(|| {
            Message::new("audit-pause-table")
                .int("table", 3)
                .verbatim("reason", "停电")
        }),
        refused_msg: (id % 2 == 0).then(|| Message::new("role-deputy-not-assigned")),
    }
}

pub fn hall() -> HallView {
    HallView {
        tournament: "2026 全国象棋个人赛".into(),
        round: 5,
        rule_set: "AXF-2008".into(),
        time_control: traditional(),
        paused: Some(PauseInfo {
            by: "chief".into(),
            reason: "fire drill".into(),
        }),
        tables: all_statuses()
            .into_iter()
            .enumerate()
            .map(|(i, s)| table_view(i as u16 + 1, s))
            .collect(),
        alerts: all_alert_kinds()
            .into_iter()
            .enumerate()
            .map(|(i, k)| alert(i as u64, k))
            .collect(),
        claims: all_claim_kinds()
            .into_iter()
            .zip(all_claim_statuses().into_iter().cycle())
            .enumerate()
            .map(|(i, (k, s))| claim(i as u64, k, s))
            .collect(),
        audit: (0..3).map(audit).collect(),
        server_ms: 1_700_000_000_999,
    }
}

pub fn all_verdicts() -> Vec<Verdict> {
    vec![
        Verdict::Continue,
        Verdict::Draw,
        Verdict::Loss { side: Side::Black },
        Verdict::CorrectMove { side: Side::Red },
        Verdict::Order,
    ]
}

pub fn all_table_events() -> Vec<TableEvent> {
    use TableEvent::*;
    vec![
        Arrived { side: Side::Red },
        ClockStarted {
            red_ms: 4_800_000,
            black_ms: 4_800_000,
            terminal_mono_ms: 12,
        },
        ClockPress {
            by: Side::Red,
            mv: Some(mv("h2e2")),
            red_ms: 4_810_000,
            black_ms: 4_800_000,
            terminal_mono_ms: 5_000,
        },
        ClockPress {
            by: Side::Black,
            mv: None,
            red_ms: 1,
            black_ms: 2,
            terminal_mono_ms: 3,
        },
        Move {
            by: Side::Black,
            mv: mv("h9g7"),
        },
        ClaimNaturalLimit { by: Side::Red },
        ClaimRepetition { by: Side::Black },
        DrawOffer { by: Side::Red },
        DrawAccept { by: Side::Black },
        DrawDecline { by: Side::Black },
        Resign {
            by: Side::Black,
            reason: "record ends".into(),
        },
        CallArbiter {
            by: Side::Red,
            reason: "对方长捉".into(),
        },
        FoulReport {
            side: Side::Red,
            kind: FoulKind::Technical,
            note: "touch-move".into(),
        },
        FoulReport {
            side: Side::Black,
            kind: FoulKind::Violation,
            note: String::new(),
        },
        FlagFell {
            side: Side::Red,
            red_ms: 0,
            black_ms: 100_000,
            terminal_mono_ms: 9_999_999,
        },
        Result {
            result: GameResult::RedWins,
            why: EndReason::Checkmate,
            reason: "checkmate".into(),
        },
        Result {
            result: GameResult::BlackWins,
            why: EndReason::Stalemate,
            reason: "stalemate".into(),
        },
        Result {
            result: GameResult::Draw,
            why: EndReason::Agreement,
            reason: "agreed".into(),
        },
        Result {
            result: GameResult::BothLose,
            why: EndReason::Reported,
            reason: "both absent".into(),
        },
        ControlApplied {
            control_id: 77,
            red_ms: 100,
            black_ms: 200,
            running: None,
            terminal_mono_ms: 1,
        },
    ]
}

pub fn table_event_variant(e: &TableEvent) -> usize {
    use TableEvent::*;
    match e {
        Arrived { .. } => 0,
        ClockStarted { .. } => 1,
        ClockPress { .. } => 2,
        Move { .. } => 3,
        ClaimNaturalLimit { .. } => 4,
        ClaimRepetition { .. } => 5,
        DrawOffer { .. } => 6,
        DrawAccept { .. } => 7,
        DrawDecline { .. } => 8,
        Resign { .. } => 9,
        CallArbiter { .. } => 10,
        FoulReport { .. } => 11,
        FlagFell { .. } => 12,
        Result { .. } => 13,
        ControlApplied { .. } => 14,
    }
}
pub const TABLE_EVENT_VARIANTS: usize = 15;

pub fn all_commands() -> Vec<Command> {
    use Command::*;
    vec![
        Subscribe,
        Unsubscribe,
        GetTableLog { table: 9 },
        PauseTable {
            table: 1,
            reason: "disturbance".into(),
        },
        ResumeTable { table: 1 },
        PauseHall {
            reason: "停电".into(),
        },
        ResumeHall,
        Seal {
            table: 2,
            sealed_move: mv("c3c4"),
        },
        Unseal { table: 2 },
        RuleOnClaim {
            table: 3,
            claim_id: 11,
            decision: Decision::Accept,
        },
        RuleOnClaim {
            table: 3,
            claim_id: 12,
            decision: Decision::Override {
                verdict: Verdict::Continue,
                must_change: Some(Side::Black),
                reason: "chase of a protected piece".into(),
            },
        },
        EscalateClaim {
            table: 3,
            claim_id: 12,
            reason: "to the chief".into(),
        },
        RecordFoul {
            table: 4,
            side: Side::Black,
            kind: FoulKind::Violation,
            note: "score sheet".into(),
        },
        AdjustClock {
            table: 5,
            red_ms: 60_000,
            black_ms: 120_000,
            reason: "clock fault".into(),
        },
        SetResult {
            table: 6,
            result: GameResult::Draw,
            reason: "natural limit".into(),
        },
        AckAlert { alert_id: 5 },
        ExportRound,
        DeclareMoveLimit {
            table: 7,
            requested_by: Some(Side::Red),
            limited: Side::Black,
            book_draw: true,
        },
        CancelMoveLimit { table: 7 },
        PairNextRound,
        PublishRound {
            round: Box::new(round_proposal()),
            changes: vec![proto::RoundChange {
                what: proto::Message::new("round-change-colours").int("table", 1),
                reason: "红方申请".into(),
            }],
        },
        CorrectResult {
            round: 1,
            table: 3,
            result: GameResult::BlackWins,
            reason: "申诉：红方超时".into(),
        },
        WithdrawRound {
            round: 2,
            reason: "更正后重新编排".into(),
        },
        EnterPlayer {
            name: "王五".into(),
            id: Some("CHN-42".into()),
            rating: Some(2150),
            federation: Some("CHN".into()),
            club: None,
        },
        WithdrawPlayer {
            player: "CHN-7".into(),
            from_round: 3,
            reason: "因病退赛".into(),
        },
    ]
}

/// A proposed round of two boards, one with why this pair.
pub fn round_proposal() -> proto::RoundProposal {
    proto::RoundProposal {
        round: 2,
        system: "xiangqi".into(),
        seed: 7,
        boards: vec![
            proto::RoundBoard {
                table: 1,
                red: "许银川".into(),
                black: "胡荣华".into(),
                red_id: Some("CHN-2".into()),
                black_id: None,
                why: vec![proto::Message::new("round-why-same-score").verbatim("points", "1.0")],
            },
            proto::RoundBoard {
                table: 2,
                red: "吕钦".into(),
                black: "赵国荣".into(),
                red_id: None,
                black_id: None,
                why: Vec::new(),
            },
        ],
        bye: Some("柳大华".into()),
        notes: Vec::new(),
    }
}

pub fn command_variant(c: &Command) -> usize {
    use Command::*;
    match c {
        Subscribe => 0,
        Unsubscribe => 1,
        GetTableLog { .. } => 2,
        PauseTable { .. } => 3,
        ResumeTable { .. } => 4,
        PauseHall { .. } => 5,
        ResumeHall => 6,
        Seal { .. } => 7,
        Unseal { .. } => 8,
        RuleOnClaim { .. } => 9,
        EscalateClaim { .. } => 10,
        RecordFoul { .. } => 11,
        AdjustClock { .. } => 12,
        SetResult { .. } => 13,
        AckAlert { .. } => 14,
        ExportRound => 15,
        DeclareMoveLimit { .. } => 16,
        CancelMoveLimit { .. } => 17,
        PairNextRound => 18,
        PublishRound { .. } => 19,
        CorrectResult { .. } => 20,
        WithdrawRound { .. } => 21,
        EnterPlayer { .. } => 22,
        WithdrawPlayer { .. } => 23,
    }
}
pub const COMMAND_VARIANTS: usize = 24;

pub fn hello(token: &str) -> Hello {
    Hello {
        protocol_version: PROTOCOL_VERSION,
        token: token.into(),
        client: "caipan-test 0.1.0".into(),
    }
}

pub fn all_client_msgs() -> Vec<ClientMsg> {
    let mut out = vec![
        ClientMsg::Hello(hello("t-7-secret")),
        ClientMsg::Ping { nonce: u64::MAX },
    ];
    for (i, body) in all_table_events().into_iter().enumerate() {
        out.push(ClientMsg::Event(EventEnvelope {
            table: 7,
            epoch: 2,
            seq: i as u64 + 1,
            body,
        }));
    }
    for (i, command) in all_commands().into_iter().enumerate() {
        out.push(ClientMsg::Command {
            id: 1000 + i as u64,
            command,
        });
    }
    out
}

pub fn client_variant(m: &ClientMsg) -> usize {
    match m {
        ClientMsg::Hello(_) => 0,
        ClientMsg::Event(_) => 1,
        ClientMsg::Command { .. } => 2,
        ClientMsg::Ping { .. } => 3,
    }
}
pub const CLIENT_VARIANTS: usize = 4;

pub fn all_error_codes() -> Vec<ErrorCode> {
    use ErrorCode::*;
    vec![
        BadFrame,
        TooLarge { limit: 65536 },
        BadVersion { server: 1 },
        Unauthenticated,
        Forbidden,
        WrongTable,
        Conflict,
        IllegalMove,
        NotFound,
        Invalid,
        Unexpected,
        Unavailable,
        Internal,
    ]
}

pub fn error_code_variant(c: &ErrorCode) -> usize {
    use ErrorCode::*;
    match c {
        BadFrame => 0,
        TooLarge { .. } => 1,
        BadVersion { .. } => 2,
        Unauthenticated => 3,
        Forbidden => 4,
        WrongTable => 5,
        Conflict => 6,
        IllegalMove => 7,
        NotFound => 8,
        Invalid => 9,
        Unexpected => 10,
        Unavailable => 11,
        Internal => 12,
    }
}
pub const ERROR_CODE_VARIANTS: usize = 13;

pub fn all_controls() -> Vec<ControlToTable> {
    use ControlToTable::*;
    vec![
        Pause {
            by: "chief".into(),
            reason: "hall paused".into(),
        },
        Resume { by: "chief".into() },
        Adjust {
            by: "deputy 李四".into(),
            red_ms: 1,
            black_ms: 2,
            reason: "fault".into(),
        },
        Seal { by: "chief".into() },
        Unseal {
            by: "chief".into(),
            sealed_move: mv("b2e2"),
            red_ms: 3,
            black_ms: 4,
        },
        SetResult {
            by: "chief".into(),
            result: GameResult::RedWins,
            why: EndReason::PerpetualCheck,
            reason: "AXF-D1".into(),
        },
        TakeBack {
            by: "chief".into(),
            reason: "illegal move".into(),
        },
        MoveLimit {
            by: "chief".into(),
            limit: Some(move_limit()),
        },
        MoveLimit {
            by: "chief".into(),
            limit: None,
        },
        Order {
            by: "chief".into(),
            must_change: Some(Side::Black),
            text: Message::new("order-draw").int("cycles", 3),
        },
        ClaimDecided {
            claim_id: 7,
            kind: ClaimKind::NaturalLimit,
            claimant: Some(Side::Black),
            verdict: Verdict::Continue,
            must_change: None,
            penalty: Some(ClaimPenalty {
                side: Side::Black,
                technical_foul: true,
                deduct_ms: 300_000,
            }),
        },
    ]
}

pub fn control_variant(c: &ControlToTable) -> usize {
    use ControlToTable::*;
    match c {
        Pause { .. } => 0,
        Resume { .. } => 1,
        Adjust { .. } => 2,
        Seal { .. } => 3,
        Unseal { .. } => 4,
        SetResult { .. } => 5,
        TakeBack { .. } => 6,
        MoveLimit { .. } => 7,
        Order { .. } => 8,
        ClaimDecided { .. } => 9,
    }
}
pub const CONTROL_VARIANTS: usize = 10;

pub fn all_deltas() -> Vec<Delta> {
    let mut out: Vec<Delta> = all_statuses()
        .into_iter()
        .map(|s| Delta::Table(std::sync::Arc::new(table_view(2, s))))
        .collect();
    out.extend(
        all_alert_kinds()
            .into_iter()
            .map(|k| Delta::Alert(alert(1, k))),
    );
    out.push(Delta::AlertAcked {
        id: 4,
        by: "chief".into(),
    });
    for (i, status) in all_claim_statuses().into_iter().enumerate() {
        out.push(Delta::Claim(claim(i as u64, ClaimKind::Repetition, status)));
    }
    out.push(Delta::Audit(audit(1)));
    out.push(Delta::Audit(audit(2)));
    out.push(Delta::HallPaused(None));
    out.push(Delta::HallPaused(Some(PauseInfo {
        by: "chief".into(),
        reason: "lunch".into(),
    })));
    // A table's step (protocol 12): two moves and a new board.
    let base = table_view(2, TableStatus::Playing);
    let mut next = base.clone();
    next.moves
        .extend([IccsMove { from: 1, to: 2 }, IccsMove { from: 80, to: 70 }]);
    next.fen.push_str(" 2");
    next.plies += 2;
    out.push(Delta::TableStep(
        TableStep::between(&base, &next).expect("a step"),
    ));
    out
}

pub fn delta_variant(d: &Delta) -> usize {
    match d {
        Delta::Table(_) => 0,
        Delta::Alert(_) => 1,
        Delta::AlertAcked { .. } => 2,
        Delta::Claim(_) => 3,
        Delta::Audit(_) => 4,
        Delta::HallPaused(_) => 5,
        Delta::TableStep(_) => 6,
    }
}
pub const DELTA_VARIANTS: usize = 7;

pub fn all_roles() -> Vec<Role> {
    vec![
        Role::Chief,
        Role::Deputy {
            name: "李四".into(),
            tables: vec![1, 2, 3],
        },
        Role::Table { table: 7 },
        Role::Viewer,
    ]
}

pub fn hello_ok(role: Role, with_table: bool) -> HelloOk {
    HelloOk {
        role,
        server_version: "caipan 0.1.0".into(),
        hall: HallInfo {
            hall_id: "0123456789abcdef".into(),
            tournament: "2026 全国象棋个人赛".into(),
            round: 5,
            rule_set: "AXF-2008".into(),
            time_control: fischer(),
            natural_limit_plies: 120,
            language: Some("zh-Hant".into()),
        },
        table: with_table.then(|| TableSession {
            table: 7,
            red: "胡荣华".into(),
            black: "许银川".into(),
            epoch: 3,
            high_water: 41,
            clock: clock(),
            status: TableStatus::Playing,
            moves: vec![mv("h2e2")],
            move_limit: Some(move_limit()),
        }),
        server_ms: 1,
    }
}

pub fn all_server_msgs() -> Vec<ServerMsg> {
    let mut out = Vec::new();
    for (i, role) in all_roles().into_iter().enumerate() {
        out.push(ServerMsg::HelloOk(hello_ok(role, i == 2)));
    }
    out.push(ServerMsg::Ack(Ack {
        table: 7,
        epoch: 3,
        seq: 42,
        duplicate: false,
    }));
    out.push(ServerMsg::Ack(Ack {
        table: 7,
        epoch: 3,
        seq: 42,
        duplicate: true,
    }));
    for (i, code) in all_error_codes().into_iter().enumerate() {
        let re = match i % 3 {
            0 => None,
            1 => Some(RequestRef::Event {
                table: 7,
                epoch: 3,
                seq: 43,
            }),
            _ => Some(RequestRef::Command { id: 9 }),
        };
        out.push(ServerMsg::Error(ErrorReply {
            code,
            message: refusals::no_table(i as u16),
            re,
        }));
    }
    out.push(ServerMsg::CommandOk {
        id: 9,
        note: "exported to round5.csv".into(),
    });
    out.push(ServerMsg::Snapshot(Box::new(hall())));
    out.extend(all_deltas().into_iter().map(ServerMsg::Delta));
    for (i, control) in all_controls().into_iter().enumerate() {
        out.push(ServerMsg::Control {
            id: i as u64,
            table: 7,
            control,
        });
    }
    out.push(ServerMsg::TableLog(TableLog {
        table: 7,
        audit: vec![audit(1)],
        clock_history: vec![ClockSample {
            at_ms: 1,
            plies: 2,
            clock: clock(),
        }],
    }));
    out.push(ServerMsg::Pong { nonce: 0 });
    out.push(ServerMsg::TakenOver { table: 7 });
    out.push(ServerMsg::RoundProposal {
        id: 3,
        proposal: Box::new(round_proposal()),
    });
    out.push(ServerMsg::SnapshotPage(Box::new(SnapshotPage {
        snapshot: 2,
        page: 1,
        pages: 3,
        view: hall(),
    })));
    out.push(ServerMsg::Deltas(all_deltas()));
    out.push(ServerMsg::Deltas(Vec::new()));
    out
}

pub fn server_variant(m: &ServerMsg) -> usize {
    match m {
        ServerMsg::HelloOk(_) => 0,
        ServerMsg::Ack(_) => 1,
        ServerMsg::Error(_) => 2,
        ServerMsg::CommandOk { .. } => 3,
        ServerMsg::Snapshot(_) => 4,
        ServerMsg::Delta(_) => 5,
        ServerMsg::Control { .. } => 6,
        ServerMsg::TableLog(_) => 7,
        ServerMsg::Pong { .. } => 8,
        ServerMsg::TakenOver { .. } => 9,
        ServerMsg::RoundProposal { .. } => 10,
        ServerMsg::SnapshotPage(_) => 11,
        ServerMsg::Deltas(_) => 12,
    }
}
pub const SERVER_VARIANTS: usize = 13;
