//! Codec tests: every message variant round-trips; random values round-trip
//! (proptest); random bytes, truncations and hostile lengths give errors,
//! never panics or big allocations.

mod common;

use common::*;
use proptest::prelude::*;
use proto::limits::{MAX_CLIENT_FRAME, MAX_SERVER_FRAME};
use proto::*;
use std::collections::BTreeSet;

fn roundtrip<M: WireMessage + PartialEq + std::fmt::Debug>(msg: &M) {
    let bytes = msg.encode().unwrap();
    assert!(bytes.len() <= M::MAX_FRAME);
    let back = M::decode(&bytes).unwrap();
    assert_eq!(&back, msg);
}

#[test]
fn samples_cover_every_variant() {
    let covered = |ids: Vec<usize>, n: usize, what: &str| {
        let set: BTreeSet<usize> = ids.into_iter().collect();
        assert_eq!(
            set,
            (0..n).collect::<BTreeSet<_>>(),
            "{what}: a variant has no sample"
        );
    };
    covered(
        all_client_msgs().iter().map(client_variant).collect(),
        CLIENT_VARIANTS,
        "ClientMsg",
    );
    covered(
        all_server_msgs().iter().map(server_variant).collect(),
        SERVER_VARIANTS,
        "ServerMsg",
    );
    covered(
        all_table_events().iter().map(table_event_variant).collect(),
        TABLE_EVENT_VARIANTS,
        "TableEvent",
    );
    covered(
        all_commands().iter().map(command_variant).collect(),
        COMMAND_VARIANTS,
        "Command",
    );
    covered(
        all_error_codes().iter().map(error_code_variant).collect(),
        ERROR_CODE_VARIANTS,
        "ErrorCode",
    );
    covered(
        all_controls().iter().map(control_variant).collect(),
        CONTROL_VARIANTS,
        "ControlToTable",
    );
    covered(
        all_deltas().iter().map(delta_variant).collect(),
        DELTA_VARIANTS,
        "Delta",
    );
}

#[test]
fn every_client_message_round_trips() {
    for msg in all_client_msgs() {
        roundtrip(&msg);
    }
}

#[test]
fn every_server_message_round_trips() {
    for msg in all_server_msgs() {
        roundtrip(&msg);
    }
}

#[test]
fn every_strict_prefix_of_a_valid_message_is_an_error() {
    for msg in all_client_msgs() {
        let bytes = msg.encode().unwrap();
        for cut in 0..bytes.len() {
            assert!(
                ClientMsg::decode(&bytes[..cut]).is_err(),
                "{msg:?} cut at {cut}"
            );
        }
    }
    for msg in all_server_msgs() {
        let bytes = msg.encode().unwrap();
        for cut in (0..bytes.len()).step_by(7) {
            assert!(
                ServerMsg::decode(&bytes[..cut]).is_err(),
                "{msg:?} cut at {cut}"
            );
        }
    }
}

#[test]
fn trailing_bytes_are_an_error() {
    let mut bytes = ClientMsg::Ping { nonce: 5 }.encode().unwrap();
    bytes.push(0);
    assert_eq!(
        ClientMsg::decode(&bytes),
        Err(CodecError::TrailingBytes { extra: 1 })
    );
}

#[test]
fn hostile_string_length_is_refused_without_allocating() {
    // ClientMsg::Hello (tag 0), protocol_version 1, then a string whose
    // varint length claims 2^60 bytes (0xFD = u64 marker).
    let mut bytes = vec![0u8, 1, 0xFD];
    bytes.extend_from_slice(&(1u64 << 60).to_le_bytes());
    bytes.extend_from_slice(b"abc");
    assert!(matches!(
        ClientMsg::decode(&bytes),
        Err(CodecError::Decode(_))
    ));
    // A length just over the frame limit is refused too, even with the bytes present.
    let mut bytes = vec![0u8, 1, 0xFC];
    bytes.extend_from_slice(&((MAX_CLIENT_FRAME as u32) + 1).to_le_bytes());
    bytes.resize(bytes.len() + MAX_CLIENT_FRAME / 2, b'a');
    assert!(ClientMsg::decode(&bytes).is_err());
}

#[test]
fn oversize_messages_do_not_encode_and_payloads_over_the_limit_do_not_decode() {
    let msg = ClientMsg::Command {
        id: 1,
        command: Command::PauseHall {
            reason: "x".repeat(MAX_CLIENT_FRAME),
        },
    };
    let mut out = vec![1, 2, 3];
    assert!(matches!(
        msg.encode_into(&mut out),
        Err(CodecError::TooLarge { .. })
    ));
    assert_eq!(out, vec![1, 2, 3], "buffer unchanged on error");
    let big = vec![0u8; MAX_CLIENT_FRAME + 1];
    assert!(matches!(
        ClientMsg::decode(&big),
        Err(CodecError::TooLarge { .. })
    ));
    // The same text fits the server's larger limit.
    let note = "x".repeat(MAX_CLIENT_FRAME);
    roundtrip(&ServerMsg::CommandOk { id: 1, note });
    assert!(matches!(
        ServerMsg::decode(&vec![0u8; MAX_SERVER_FRAME + 1]),
        Err(CodecError::TooLarge { .. })
    ));
}

#[test]
fn a_thousand_table_snapshot_fits_the_server_limit() {
    let mut hall = hall();
    let long_game: Vec<IccsMove> = (0..300u32)
        .map(|i| IccsMove {
            from: (i % 90) as u8,
            to: ((i + 1) % 90) as u8,
        })
        .collect();
    hall.tables = (1..=1000u16)
        .map(|t| {
            let mut v = table_view(t, TableStatus::Playing);
            v.moves = long_game.clone();
            v
        })
        .collect();
    let msg = ServerMsg::Snapshot(Box::new(hall));
    let bytes = msg.encode().unwrap();
    assert!(
        bytes.len() < MAX_SERVER_FRAME / 4,
        "snapshot is {} bytes",
        bytes.len()
    );
    roundtrip(&msg);
}

// ---- proptest strategies ----

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Red), Just(Side::Black)]
}

fn any_move() -> impl Strategy<Value = IccsMove> {
    (any::<u8>(), any::<u8>()).prop_map(|(from, to)| IccsMove { from, to })
}

fn text() -> impl Strategy<Value = String> {
    "\\PC{0,24}"
}

fn result() -> impl Strategy<Value = GameResult> {
    prop_oneof![
        Just(GameResult::RedWins),
        Just(GameResult::BlackWins),
        Just(GameResult::Draw),
        Just(GameResult::BothLose)
    ]
}

fn end_reason() -> impl Strategy<Value = EndReason> {
    proptest::sample::select(EndReason::ALL.to_vec())
}

fn foul_kind() -> impl Strategy<Value = FoulKind> {
    prop_oneof![Just(FoulKind::Technical), Just(FoulKind::Violation)]
}

fn verdict() -> impl Strategy<Value = Verdict> {
    prop_oneof![
        Just(Verdict::Continue),
        Just(Verdict::Draw),
        side().prop_map(|side| Verdict::Loss { side }),
        side().prop_map(|side| Verdict::CorrectMove { side }),
        Just(Verdict::Order),
    ]
}

fn table_event() -> impl Strategy<Value = TableEvent> {
    use TableEvent::*;
    prop_oneof![
        side().prop_map(|side| Arrived { side }),
        (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(
            |(red_ms, black_ms, terminal_mono_ms)| {
                ClockStarted {
                    red_ms,
                    black_ms,
                    terminal_mono_ms,
                }
            }
        ),
        (
            side(),
            proptest::option::of(any_move()),
            any::<u64>(),
            any::<u64>(),
            any::<u64>()
        )
            .prop_map(|(by, mv, red_ms, black_ms, terminal_mono_ms)| ClockPress {
                by,
                mv,
                red_ms,
                black_ms,
                terminal_mono_ms
            }),
        (side(), any_move()).prop_map(|(by, mv)| Move { by, mv }),
        side().prop_map(|by| ClaimNaturalLimit { by }),
        side().prop_map(|by| ClaimRepetition { by }),
        side().prop_map(|by| DrawOffer { by }),
        side().prop_map(|by| DrawAccept { by }),
        side().prop_map(|by| DrawDecline { by }),
        (side(), text()).prop_map(|(by, reason)| Resign { by, reason }),
        (side(), text()).prop_map(|(by, reason)| CallArbiter { by, reason }),
        (side(), foul_kind(), text()).prop_map(|(side, kind, note)| FoulReport {
            side,
            kind,
            note
        }),
        (side(), any::<u64>(), any::<u64>(), any::<u64>()).prop_map(
            |(side, red_ms, black_ms, terminal_mono_ms)| FlagFell {
                side,
                red_ms,
                black_ms,
                terminal_mono_ms
            }
        ),
        (result(), end_reason(), text()).prop_map(|(result, why, reason)| Result {
            result,
            why,
            reason
        }),
        (
            any::<u64>(),
            any::<u64>(),
            any::<u64>(),
            proptest::option::of(side()),
            any::<u64>()
        )
            .prop_map(
                |(control_id, red_ms, black_ms, running, terminal_mono_ms)| ControlApplied {
                    control_id,
                    red_ms,
                    black_ms,
                    running,
                    terminal_mono_ms
                }
            ),
    ]
}

fn decision() -> impl Strategy<Value = Decision> {
    prop_oneof![
        Just(Decision::Accept),
        (verdict(), proptest::option::of(side()), text()).prop_map(
            |(verdict, must_change, reason)| {
                Decision::Override {
                    verdict,
                    must_change,
                    reason,
                }
            }
        ),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    use Command::*;
    prop_oneof![
        Just(Subscribe),
        Just(Unsubscribe),
        any::<u16>().prop_map(|table| GetTableLog { table }),
        (any::<u16>(), text()).prop_map(|(table, reason)| PauseTable { table, reason }),
        any::<u16>().prop_map(|table| ResumeTable { table }),
        text().prop_map(|reason| PauseHall { reason }),
        Just(ResumeHall),
        (any::<u16>(), any_move()).prop_map(|(table, sealed_move)| Seal { table, sealed_move }),
        any::<u16>().prop_map(|table| Unseal { table }),
        (any::<u16>(), any::<u64>(), decision()).prop_map(|(table, claim_id, decision)| {
            RuleOnClaim {
                table,
                claim_id,
                decision,
            }
        }),
        (any::<u16>(), any::<u64>(), text()).prop_map(|(table, claim_id, reason)| EscalateClaim {
            table,
            claim_id,
            reason
        }),
        (any::<u16>(), side(), foul_kind(), text()).prop_map(|(table, side, kind, note)| {
            RecordFoul {
                table,
                side,
                kind,
                note,
            }
        }),
        (any::<u16>(), any::<u64>(), any::<u64>(), text()).prop_map(
            |(table, red_ms, black_ms, reason)| AdjustClock {
                table,
                red_ms,
                black_ms,
                reason
            }
        ),
        (any::<u16>(), result(), text()).prop_map(|(table, result, reason)| SetResult {
            table,
            result,
            reason
        }),
        any::<u64>().prop_map(|alert_id| AckAlert { alert_id }),
        Just(ExportRound),
        (any::<u32>(), any::<u16>(), result(), text()).prop_map(
            |(round, table, result, reason)| CorrectResult {
                round,
                table,
                result,
                reason
            }
        ),
    ]
}

fn client_msg() -> impl Strategy<Value = ClientMsg> {
    prop_oneof![
        (any::<u16>(), text(), text()).prop_map(|(protocol_version, token, client)| {
            ClientMsg::Hello(Hello {
                protocol_version,
                token,
                client,
            })
        }),
        (any::<u16>(), any::<u32>(), any::<u64>(), table_event()).prop_map(
            |(table, epoch, seq, body)| ClientMsg::Event(EventEnvelope {
                table,
                epoch,
                seq,
                body
            })
        ),
        (any::<u64>(), command()).prop_map(|(id, command)| ClientMsg::Command { id, command }),
        any::<u64>().prop_map(|nonce| ClientMsg::Ping { nonce }),
    ]
}

fn clock_state() -> impl Strategy<Value = ClockState> {
    (any::<u64>(), any::<u64>(), proptest::option::of(side())).prop_map(
        |(red_ms, black_ms, running)| ClockState {
            red_ms,
            black_ms,
            running,
        },
    )
}

fn table_view_any() -> impl Strategy<Value = TableView> {
    (
        (
            any::<u16>(),
            text(),
            text(),
            clock_state(),
            any::<u64>(),
            side(),
            proptest::option::of(side()),
        ),
        (
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
        ),
        (
            any::<bool>(),
            any::<u64>(),
            proptest::option::of(any_move()),
            text(),
            proptest::collection::vec(any_move(), 0..50),
        ),
    )
        .prop_map(
            |(
                (table, red, black, clock, clock_at_ms, to_move, flag),
                (plies, since, limit, cr, cb, claims),
                (online, heard, last_move, fen, moves),
            )| TableView {
                table,
                red,
                black,
                clock,
                clock_at_ms,
                to_move,
                flag,
                plies,
                plies_since_capture: since,
                natural_limit_plies: limit,
                checks_red: cr,
                checks_black: cb,
                fouls_red: FoulCount {
                    technical: cr,
                    violations: cb,
                },
                fouls_black: FoulCount {
                    technical: cb,
                    violations: cr,
                },
                pending_claims: claims,
                status: TableStatus::Playing,
                last_heard_ms: heard,
                online,
                last_move,
                fen: fen.clone(),
                moves,
                move_limit: None,
                order: online.then(|| StandingOrder {
                    must_change: flag.map(|_| to_move),
                    at_ply: plies,
                    claim_id: heard,
                    text: Message::new("order-change")
                        .verbatim("fen", fen)
                        .int("cycles", plies),
                }),
            },
        )
}

fn server_msg() -> impl Strategy<Value = ServerMsg> {
    prop_oneof![
        (any::<u16>(), any::<u32>(), any::<u64>(), any::<bool>()).prop_map(
            |(table, epoch, seq, duplicate)| ServerMsg::Ack(Ack {
                table,
                epoch,
                seq,
                duplicate
            })
        ),
        (any::<u32>(), text(), any::<u64>()).prop_map(|(limit, message, id)| ServerMsg::Error(
            ErrorReply {
                code: ErrorCode::TooLarge { limit },
                message: Message::new("reply-server-error").verbatim("error", message),
                re: Some(RequestRef::Command { id }),
            }
        )),
        (
            any::<u64>(),
            any::<u16>(),
            any::<u64>(),
            any::<u64>(),
            text()
        )
            .prop_map(|(id, table, red_ms, black_ms, reason)| ServerMsg::Control {
                id,
                table,
                control: ControlToTable::Adjust {
                    by: "chief".into(),
                    red_ms,
                    black_ms,
                    reason
                },
            }),
        table_view_any().prop_map(|v| ServerMsg::Delta(Delta::Table(std::sync::Arc::new(v)))),
        (
            table_view_any(),
            proptest::collection::vec(any_move(), 0..8),
            text()
        )
            .prop_map(|(v, moves, fen)| {
                let mut next = v.clone();
                next.moves.extend(moves);
                next.fen = fen;
                let step = TableStep::between(&v, &next).expect("a step");
                ServerMsg::Deltas(vec![
                    Delta::TableStep(step),
                    Delta::Table(std::sync::Arc::new(next)),
                ])
            }),
        proptest::collection::vec(table_view_any(), 0..8).prop_map(|tables| {
            let mut h = hall();
            h.tables = tables;
            ServerMsg::Snapshot(Box::new(h))
        }),
        any::<u64>().prop_map(|nonce| ServerMsg::Pong { nonce }),
        any::<u16>().prop_map(|table| ServerMsg::TakenOver { table }),
    ]
}

/// `codec::encode_event_into` (the store's event record, issue 40) appends
/// exactly what `ClientMsg::Event(env).encode_into` appends, after bytes
/// already in the buffer, for every sample event.
#[test]
fn a_borrowed_event_encodes_as_its_message() {
    for (i, body) in all_table_events().into_iter().enumerate() {
        let env = EventEnvelope {
            table: 9_999,
            epoch: 3,
            seq: 1 + i as u64 * 1_000_003,
            body,
        };
        let mut borrowed = vec![7u8];
        codec::encode_event_into(&env, &mut borrowed).unwrap();
        let mut owned = vec![7u8];
        ClientMsg::Event(env.clone())
            .encode_into(&mut owned)
            .unwrap();
        assert_eq!(borrowed, owned, "{env:?}");
    }
}

proptest! {
    #[test]
    fn random_borrowed_events_encode_as_their_message(body in table_event(), table in any::<u16>(), seq in any::<u64>()) {
        let env = EventEnvelope { table, epoch: 1, seq, body };
        let mut borrowed = Vec::new();
        codec::encode_event_into(&env, &mut borrowed).unwrap();
        prop_assert_eq!(borrowed, ClientMsg::Event(env).encode().unwrap());
    }

    #[test]
    fn random_client_messages_round_trip(msg in client_msg()) {
        let bytes = msg.encode().unwrap();
        prop_assert_eq!(ClientMsg::decode(&bytes).unwrap(), msg);
    }

    #[test]
    fn random_server_messages_round_trip(msg in server_msg()) {
        let bytes = msg.encode().unwrap();
        prop_assert_eq!(ServerMsg::decode(&bytes).unwrap(), msg);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = ClientMsg::decode(&bytes);
        let _ = ServerMsg::decode(&bytes);
    }

    #[test]
    fn corrupted_valid_messages_never_panic(msg in client_msg(), pos in any::<usize>(), byte in any::<u8>()) {
        let mut bytes = msg.encode().unwrap();
        let i = pos % bytes.len();
        bytes[i] = byte;
        if let Ok(decoded) = ClientMsg::decode(&bytes) {
            // Whatever decodes is a valid message: it re-encodes and
            // decodes to itself (bytes may differ: bincode accepts
            // non-canonical varints).
            let again = decoded.encode().unwrap();
            prop_assert_eq!(ClientMsg::decode(&again).unwrap(), decoded);
        }
    }
}
