//! Tests of authentication (token → principal) and the authorization
//! matrix: every role against every action kind, table-driven.

use std::collections::BTreeSet;
use std::path::Path;

use config::HallConfig;
use server::auth::{
    authorize, Action, Authenticator, Principal, RulingAuthor, Scope, TableEventKind,
};

fn chief() -> Principal {
    Principal::Chief {
        name: "王志明".into(),
    }
}
fn deputy() -> Principal {
    Principal::Deputy {
        name: "陈立新".into(),
        tables: BTreeSet::from([1, 2]),
    }
}
fn table1() -> Principal {
    Principal::Table { table: 1 }
}
fn viewer() -> Principal {
    Principal::Viewer {
        name: "大厅显示屏".into(),
    }
}

/// Every action shape, with the expected answer for
/// [chief, deputy of tables 1-2, table 1, viewer] ('Y' allowed, 'N' refused).
/// Table 1 is the deputy's and the table's own; table 3 is neither.
fn matrix() -> Vec<(Action, &'static str)> {
    use Action::*;
    let mut m = vec![
        (Subscribe { scope: Scope::Hall }, "YYNY"),
        (
            Subscribe {
                scope: Scope::Table(1),
            },
            "YYNY",
        ),
        (
            Subscribe {
                scope: Scope::Table(3),
            },
            "YYNY",
        ),
        (PauseTable { table: 1 }, "YYNN"),
        (PauseTable { table: 3 }, "YNNN"),
        (ResumeTable { table: 1 }, "YYNN"),
        (ResumeTable { table: 3 }, "YNNN"),
        (PauseHall, "YNNN"),
        (ResumeHall, "YNNN"),
        (Seal { table: 1 }, "YYNN"),
        (Seal { table: 3 }, "YNNN"),
        (Unseal { table: 1 }, "YYNN"),
        (Unseal { table: 3 }, "YNNN"),
        (RuleOnClaim { table: 1 }, "YYNN"),
        (RuleOnClaim { table: 3 }, "YNNN"),
        (
            OverrideRuling {
                table: 1,
                ruled_by: RulingAuthor::Chief,
            },
            "YNNN",
        ),
        (
            OverrideRuling {
                table: 1,
                ruled_by: RulingAuthor::Deputy("陈立新".into()),
            },
            "YYNN",
        ),
        (
            OverrideRuling {
                table: 3,
                ruled_by: RulingAuthor::Deputy("陈立新".into()),
            },
            "YNNN",
        ),
        (
            OverrideRuling {
                table: 1,
                ruled_by: RulingAuthor::Deputy("刘建华".into()),
            },
            "YNNN",
        ),
        (RecordFoul { table: 1 }, "YYNN"),
        (RecordFoul { table: 3 }, "YNNN"),
        (AdjustClock { table: 1 }, "YYNN"),
        (AdjustClock { table: 3 }, "YNNN"),
        (SetResult { table: 1 }, "YYNN"),
        (SetResult { table: 3 }, "YNNN"),
        (AckAlert { table: Some(1) }, "YYNN"),
        (AckAlert { table: Some(3) }, "YNNN"),
        (AckAlert { table: None }, "YNNN"),
        (Export, "YNNN"),
        (PairRound, "YNNN"),
        (CorrectResult, "YNNN"),
        (WithdrawRound, "YNNN"),
        (EnterPlayer, "YNNN"),
        (WithdrawPlayer, "YNNN"),
    ];
    for kind in TableEventKind::ALL {
        m.push((TableEvent { table: 1, kind }, "YNYN"));
        m.push((TableEvent { table: 3, kind }, "YNNN"));
    }
    m
}

/// Fails to compile when an action variant is added without a matrix row.
fn variant_name(a: &Action) -> &'static str {
    match a {
        Action::TableEvent { .. } => "TableEvent",
        Action::Subscribe { .. } => "Subscribe",
        Action::PauseTable { .. } => "PauseTable",
        Action::ResumeTable { .. } => "ResumeTable",
        Action::PauseHall => "PauseHall",
        Action::ResumeHall => "ResumeHall",
        Action::Seal { .. } => "Seal",
        Action::Unseal { .. } => "Unseal",
        Action::RuleOnClaim { .. } => "RuleOnClaim",
        Action::OverrideRuling { .. } => "OverrideRuling",
        Action::RecordFoul { .. } => "RecordFoul",
        Action::AdjustClock { .. } => "AdjustClock",
        Action::SetResult { .. } => "SetResult",
        Action::AckAlert { .. } => "AckAlert",
        Action::Export => "Export",
        Action::PairRound => "PairRound",
        Action::CorrectResult => "CorrectResult",
        Action::WithdrawRound => "WithdrawRound",
        Action::EnterPlayer => "EnterPlayer",
        Action::WithdrawPlayer => "WithdrawPlayer",
    }
}

#[test]
fn authorization_matrix_every_role_against_every_action() {
    let principals = [chief(), deputy(), table1(), viewer()];
    let m = matrix();
    let mut checked = 0;
    for (action, expected) in &m {
        for (p, want) in principals.iter().zip(expected.chars()) {
            let got = authorize(p, action);
            match (want, &got) {
                ('Y', Ok(())) => {}
                ('N', Err(refusal)) => {
                    assert!(!i18n::texts::english(&refusal.message).is_empty());
                    assert!(refusal.to_string().starts_with("refused: "));
                }
                _ => panic!("{} on {action:?}: expected {want}, got {got:?}", p.who()),
            }
            checked += 1;
        }
    }
    // Every variant and every table event kind is in the matrix.
    let variants: BTreeSet<&str> = m.iter().map(|(a, _)| variant_name(a)).collect();
    assert_eq!(variants.len(), 20);
    let names: BTreeSet<&str> = m.iter().map(|(a, _)| a.name()).collect();
    assert_eq!(names.len(), 19 + TableEventKind::ALL.len());
    assert_eq!(checked, m.len() * 4);
}

#[test]
fn refusals_say_why() {
    let why =
        |p: &Principal, a: Action| i18n::texts::english(&authorize(p, &a).unwrap_err().message);
    assert!(why(&deputy(), Action::PauseHall).contains("only the chief"));
    assert!(why(&deputy(), Action::PauseTable { table: 7 })
        .contains("table 7 is not assigned to deputy 陈立新"));
    assert!(why(
        &deputy(),
        Action::OverrideRuling {
            table: 1,
            ruled_by: RulingAuthor::Chief
        }
    )
    .contains("chief's ruling"));
    assert!(why(
        &table1(),
        Action::TableEvent {
            table: 2,
            kind: TableEventKind::Move
        }
    )
    .contains("table 1 cannot report move for table 2"));
    assert!(why(&viewer(), Action::Seal { table: 1 }).contains("read-only"));
}

#[test]
fn action_tables_and_names() {
    assert_eq!(Action::PauseHall.table(), None);
    assert_eq!(Action::Seal { table: 9 }.table(), Some(9));
    assert_eq!(
        Action::Subscribe {
            scope: Scope::Table(4)
        }
        .table(),
        Some(4)
    );
    assert_eq!(Action::AckAlert { table: None }.table(), None);
    assert_eq!(
        Action::TableEvent {
            table: 2,
            kind: TableEventKind::ClaimNaturalLimit
        }
        .name(),
        "claim_natural_limit"
    );
    assert_eq!(deputy().who(), "deputy:陈立新");
    assert_eq!(table1().who(), "table:1");
    assert_eq!(chief().role(), "chief");
}

#[test]
fn tokens_of_the_example_config_map_to_their_principals() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/hall.toml");
    let config = HallConfig::load(&path).unwrap();
    let auth = Authenticator::from_config(&config);
    assert_eq!(auth.len(), 1 + 2 + 1 + 40);
    let c = &config.credentials;
    assert_eq!(
        auth.authenticate(c.chief.token.expose().as_bytes()),
        Some(Principal::Chief {
            name: "王志明".into()
        })
    );
    match auth.authenticate(c.deputies[1].token.expose().as_bytes()) {
        Some(Principal::Deputy { name, tables }) => {
            assert_eq!(name, "刘建华");
            assert_eq!(tables, (21..=40).collect());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        auth.authenticate(c.viewers[0].token.expose().as_bytes()),
        Some(Principal::Viewer {
            name: "大厅显示屏".into()
        })
    );
    for (table, token) in &c.tables {
        assert_eq!(
            auth.authenticate(token.expose().as_bytes()),
            Some(Principal::Table { table: *table })
        );
    }
    // Wrong, empty, prefix and extended tokens are refused.
    let chief = c.chief.token.expose();
    assert_eq!(auth.authenticate(b""), None);
    assert_eq!(auth.authenticate(b"wrong-token-000000000"), None);
    assert_eq!(
        auth.authenticate(&chief.as_bytes()[..chief.len() - 1]),
        None
    );
    assert_eq!(auth.authenticate(format!("{chief}x").as_bytes()), None);
    // Debug of the authenticator shows no token.
    assert!(!format!("{auth:?}").contains(chief));
}

#[test]
fn a_hall_of_10000_tables_signs_every_table_in_and_no_one_else() {
    let token = |t: u32| format!("tbl-{t:05}-9f3c2a7be1d04c58a6");
    let mut auth = Authenticator::default();
    auth.add("chief-token-0123456789", chief());
    for t in 1..=10_000 {
        auth.add(&token(t), Principal::Table { table: t });
    }
    assert_eq!(auth.len(), 10_001);
    for t in 1..=10_000 {
        assert_eq!(
            auth.authenticate(token(t).as_bytes()),
            Some(Principal::Table { table: t }),
            "table {t}"
        );
    }
    assert_eq!(auth.authenticate(b"chief-token-0123456789"), Some(chief()));
    // A token with its last byte changed (no table's), and the token a
    // table past the hall would have, are refused.
    let mut near = token(17).into_bytes();
    let last = near.len() - 1;
    near[last] ^= 1;
    assert_eq!(auth.authenticate(&near), None);
    assert_eq!(auth.authenticate(token(10_001).as_bytes()), None);
    assert!(auth.has_table(1) && auth.has_table(10_000));
    assert!(!auth.has_table(10_001) && !auth.has_table(0));
}

#[test]
fn a_token_added_twice_signs_in_as_the_principal_added_last() {
    let mut auth = Authenticator::default();
    auth.add("same-token-0123456789", viewer());
    auth.add("same-token-0123456789", chief());
    assert_eq!(auth.authenticate(b"same-token-0123456789"), Some(chief()));
    assert!(!auth.has_table(1));
    assert_eq!(auth.len(), 2);
}
