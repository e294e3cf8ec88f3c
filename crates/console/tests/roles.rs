//! One roles table: for the chief, a deputy (on an assigned table, on
//! another table, hall-wide) and a viewer, the console allows a key
//! exactly when the server would authorize the command the key sends (the
//! hall core names the command's action, `proto::roles::authorize` judges
//! it, as the server's connection does). The one difference is the
//! console's own: the chief is not offered to escalate a claim to the chief.

use console::perm::{self, Action};
use hall::fixture::Fixture;
use hall::{Hall, Note, Record};
use proto::roles::{authorize, Principal};
use proto::{Command, Decision, GameResult, IccsMove, Role, Side};

const OWN: u16 = 1;
const OTHER: u16 = 3;
const HALL: u16 = 0;

/// Tables 1-3, each with a pending claim and an alert, and an alert of the
/// hall itself (table 0).
fn hall() -> Hall {
    let tables: Vec<(u16, String, String)> = (1..=3u16)
        .map(|n| (n, format!("红{n}"), format!("黑{n}")))
        .collect();
    let mut h = Fixture {
        tables,
        ..Fixture::default()
    }
    .hall();
    for table in 1..=3 {
        let note = Note::NoShow {
            table,
            side: Side::Black,
        };
        h.apply(&Record::Note(note), 1_000).expect("a claim");
    }
    let note = Note::RefusedCommands {
        who: "viewer:屏".into(),
        threshold: 10,
        window_s: 60,
    };
    h.apply(&Record::Note(note), 2_000).expect("a hall alert");
    h
}

/// The commands a console key sends at `table` (`None`: hall-wide).
fn commands(h: &Hall, action: Action, table: Option<u16>) -> Vec<Command> {
    let Some(t) = table else {
        return match action {
            Action::PauseHall => vec![
                Command::PauseHall { reason: "r".into() },
                Command::ResumeHall,
            ],
            Action::Export => vec![Command::ExportRound],
            Action::PairRound => vec![Command::PairNextRound],
            Action::EnterPlayer => vec![Command::EnterPlayer {
                name: "王五".into(),
                id: None,
                rating: None,
                federation: None,
                club: None,
            }],
            Action::WithdrawPlayer => vec![Command::WithdrawPlayer {
                player: "甲".into(),
                from_round: 2,
                reason: "r".into(),
            }],
            _ => Vec::new(),
        };
    };
    let claim_id = h
        .book()
        .claims
        .all()
        .find(|c| c.table == t)
        .map_or(0, |c| c.id);
    let reason = || "r".to_string();
    match action {
        Action::PauseTable => vec![
            Command::PauseTable {
                table: t,
                reason: reason(),
            },
            Command::ResumeTable { table: t },
        ],
        Action::Seal => vec![
            Command::Seal {
                table: t,
                sealed_move: IccsMove::parse("h2e2").expect("a move"),
            },
            Command::Unseal { table: t },
        ],
        Action::RecordFoul => vec![Command::RecordFoul {
            table: t,
            side: Side::Red,
            kind: proto::FoulKind::Technical,
            note: reason(),
        }],
        Action::AdjustClock => vec![Command::AdjustClock {
            table: t,
            red_ms: 1,
            black_ms: 1,
            reason: reason(),
        }],
        Action::SetResult => vec![Command::SetResult {
            table: t,
            result: GameResult::Draw,
            reason: reason(),
        }],
        Action::RuleOnClaim => vec![
            Command::RuleOnClaim {
                table: t,
                claim_id,
                decision: Decision::Accept,
            },
            // The move-limit key is a ruling at the table too.
            Command::DeclareMoveLimit {
                table: t,
                requested_by: None,
                limited: Side::Red,
                book_draw: false,
            },
            Command::CancelMoveLimit { table: t },
        ],
        Action::EscalateClaim => vec![Command::EscalateClaim {
            table: t,
            claim_id,
            reason: reason(),
        }],
        Action::AckAlert => h
            .book()
            .alerts
            .all()
            .filter(|a| a.table == t)
            .map(|a| Command::AckAlert { alert_id: a.id })
            .collect(),
        Action::PauseHall
        | Action::Export
        | Action::PairRound
        | Action::CorrectResult
        | Action::WithdrawRound
        | Action::EnterPlayer
        | Action::WithdrawPlayer => Vec::new(),
    }
}

fn roles() -> Vec<(&'static str, Role)> {
    vec![
        ("chief", Role::Chief),
        (
            "deputy",
            Role::Deputy {
                name: "李四".into(),
                tables: vec![OWN, 2],
            },
        ),
        ("viewer", Role::Viewer),
    ]
}

#[test]
fn the_console_offers_exactly_what_the_server_authorizes() {
    let h = hall();
    let mut judged = 0;
    for (name, role) in roles() {
        let principal = Principal::from(&role);
        for action in Action::ALL {
            for table in [Some(OWN), Some(OTHER), Some(HALL), None] {
                let console = perm::allowed(Some(&role), action, table);
                for cmd in commands(&h, action, table) {
                    let server = authorize(&principal, &h.action_of(&cmd)).is_ok();
                    let chief_escalates = role == Role::Chief && action == Action::EscalateClaim;
                    let want = server && !chief_escalates;
                    assert_eq!(
                        console, want,
                        "{name}, {action:?} at {table:?}: console {console}, server {server} for {cmd:?}"
                    );
                    judged += 1;
                }
            }
        }
    }
    // Every role judged on every key where it sends something.
    assert!(judged > 3 * 20, "{judged}");
}

#[test]
fn the_deputy_split_own_other_hall_wide() {
    let h = hall();
    let (_, deputy) = roles().swap_remove(1);
    let ack = |table| perm::allowed(Some(&deputy), Action::AckAlert, Some(table));
    assert!(ack(OWN));
    assert!(!ack(OTHER));
    assert!(!ack(HALL), "the hall's alerts are the chief's");
    let hall_alert = h
        .book()
        .alerts
        .all()
        .find(|a| a.table == HALL)
        .expect("a hall alert");
    let refused = authorize(
        &Principal::from(&deputy),
        &h.action_of(&Command::AckAlert {
            alert_id: hall_alert.id,
        }),
    )
    .expect_err("refused");
    let why = i18n::texts::english(&refused.message);
    assert!(why.contains("hall-wide"), "{why}");
    // The keys the help lists: everything but the hall's own commands.
    assert!(perm::offers(Some(&deputy), Action::AckAlert));
    assert!(!perm::offers(Some(&deputy), Action::PauseHall));
    assert!(!perm::offers(Some(&deputy), Action::Export));
}
