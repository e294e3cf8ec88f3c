//! One console over several halls against real servers (README "One
//! console for several halls"): two in-process `server::Server`s on
//! 127.0.0.1, each its own hall (config, data dir, certificate), and a
//! console with one network task per hall (`console::net::spawn_halls`,
//! as `caipan console --halls` runs it), fed into one `App`, keys pressed
//! as an arbiter presses them.
//!
//! The chief sees both halls' tables in one overview; pausing hall B's
//! table 2 reaches hall B's server only (hall A's state is unchanged). A
//! deputy of hall A (a viewer in hall B) acts on hall A's tables, is
//! offered nothing on hall B's, and a command forced to hall B anyway is
//! refused by hall B's server.

mod support;

use std::net::SocketAddr;

use console::App;
use proto::{Command, HallView, TableStatus};
use support::console::{Console, HallAt};
use support::{Hall, CHIEF, DEPUTY, VIEWER};

/// Hall `name`: three tables, a deputy for tables 1 and 2, a viewer.
fn hall(name: &str, players: &[(&str, &str)]) -> Hall {
    let mut h = Hall::new(name, "127.0.0.1:0").with_tables(players);
    h.deputy = Some((DEPUTY.into(), vec![1, 2]));
    h.viewer = Some(VIEWER.into());
    h
}

/// One hall of the console config.
fn at<'a>(
    name: &'a str,
    servers: &'a [SocketAddr],
    fp: proto::Fingerprint,
    token: &'a str,
) -> HallAt<'a> {
    HallAt {
        name,
        servers,
        fp,
        token,
    }
}

/// Both halls signed in and described.
fn ready(a: &App) -> bool {
    a.connected() && a.links.iter().all(|l| l.hall.is_some() && l.role.is_some())
}

fn paused(h: &HallView, table: u16) -> bool {
    h.tables
        .iter()
        .any(|t| t.table == table && matches!(t.status, TableStatus::Paused(_)))
}

/// The rows of the overview as (hall, table).
fn rows(a: &App) -> Vec<(usize, u16)> {
    console::app::table_rows(a)
        .iter()
        .map(|(h, t)| (*h, t.table))
        .collect()
}

/// Moves the overview's selection to (hall, table) with `j`.
async fn select(con: &mut Console, row: (usize, u16)) {
    for _ in 0..20 {
        if con.app.selected() == Some(row) {
            return;
        }
        con.key('j').await;
    }
    panic!("row {row:?} not reached; rows {:?}", rows(&con.app));
}

/// Pauses the selected table with a reason, as the arbiter does.
async fn pause_selected(con: &mut Console, reason: &str) {
    con.key('p').await;
    assert!(con.app.dialog.is_some(), "asks for a reason");
    for c in reason.chars() {
        con.key(c).await;
    }
    con.enter().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_console_over_two_halls_routes_each_action_to_its_hall() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let sa = hall(
        "东厅赛",
        &[("胡荣华", "许银川"), ("吕钦", "赵国荣"), ("蒋川", "洪智")],
    )
    .start(da.path())
    .await;
    let sb = hall(
        "西厅赛",
        &[("王天一", "郑惟桐"), ("谢靖", "孟辰"), ("赵鑫鑫", "汪洋")],
    )
    .start(db.path())
    .await;
    let (aa, ab) = ([sa.addr], [sb.addr]);

    // The chief: both halls' tables in one overview, with the hall column.
    let mut chief = Console::halls(&[
        at("A", &aa, sa.fingerprint, CHIEF),
        at("B", &ab, sb.fingerprint, CHIEF),
    ]);
    chief.until("both halls", ready).await;
    assert_eq!(
        rows(&chief.app),
        [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3)]
    );
    let screen = chief.screen();
    for name in ["胡荣华", "蒋川", "王天一", "赵鑫鑫"] {
        assert!(screen.contains(name), "{name}:\n{screen}");
    }
    assert!(
        screen.contains("A: chief arbiter · B: chief arbiter"),
        "{screen}"
    );

    // Pause hall B's table 2: it reaches hall B only.
    let a_before = sa.snapshot().expect("hall A");
    select(&mut chief, (1, 2)).await;
    pause_selected(&mut chief, "B only").await;
    chief
        .until("B's table 2 paused", |a| {
            a.links[1].hall.as_ref().is_some_and(|h| paused(h, 2))
        })
        .await;
    chief
        .until("the command's answer", |a| a.in_flight.is_empty())
        .await;
    assert!(
        chief.app.notice.as_ref().is_some_and(|n| !n.error),
        "{:?}",
        chief.app.notice
    );
    let b_after = sb.snapshot().expect("hall B");
    assert!(paused(&b_after, 2), "hall B's server paused its table 2");
    let a_after = sa.snapshot().expect("hall A");
    assert_eq!(
        a_after.tables, a_before.tables,
        "hall A's tables are unchanged"
    );
    assert_eq!(
        a_after.audit.len(),
        a_before.audit.len(),
        "nothing audited in A"
    );
    assert!(
        chief.app.links[0]
            .hall
            .as_ref()
            .is_some_and(|h| !h.tables.iter().any(|t| paused(h, t.table))),
        "the console shows no pause in A"
    );

    // A deputy of hall A, a viewer in hall B.
    let mut dep = Console::halls(&[
        at("A", &aa, sa.fingerprint, DEPUTY),
        at("B", &ab, sb.fingerprint, VIEWER),
    ]);
    dep.until("both halls for the deputy", ready).await;
    assert_eq!(
        rows(&dep.app),
        [(0, 1), (0, 2), (1, 1), (1, 2), (1, 3)],
        "A's assigned tables, all of B's"
    );
    let screen = dep.screen();
    assert!(screen.contains("A: deputy 陈立新 · B: viewer"), "{screen}");
    // In hall A, on an assigned table: done, in hall A.
    select(&mut dep, (0, 1)).await;
    pause_selected(&mut dep, "deputy in A").await;
    dep.until("A's table 1 paused", |a| {
        a.links[0].hall.as_ref().is_some_and(|h| paused(h, 1))
    })
    .await;
    assert!(paused(&sa.snapshot().expect("hall A"), 1));
    assert!(!paused(&sb.snapshot().expect("hall B"), 1));
    // In hall B: nothing is offered, nothing is sent.
    select(&mut dep, (1, 1)).await;
    for k in ['p', 'f', 't', 'r', 'S', 'P'] {
        dep.key(k).await;
        assert!(dep.app.dialog.is_none(), "{k} offers nothing in B");
        assert!(dep.app.in_flight.is_empty(), "{k} sent nothing");
        let n = dep.app.notice.as_ref().expect("a notice");
        assert!(n.error && n.text.starts_with("B · "), "{k}: {n:?}");
    }
    // A command forced to hall B anyway: its server refuses it.
    let forced = dep.app.outgoing_to(
        1,
        Command::PauseTable {
            table: 1,
            reason: "forced".into(),
        },
        "forced pause",
    );
    dep.send(vec![forced]).await;
    dep.until("hall B's answer", |a| a.in_flight.is_empty())
        .await;
    let n = dep.app.notice.clone().expect("the refusal");
    assert!(n.error && n.text.contains("forbidden"), "{n:?}");
    assert!(!paused(&sb.snapshot().expect("hall B"), 1), "B unchanged");

    drop((chief, dep));
    sa.shutdown().await.expect("hall A stops");
    sb.shutdown().await.expect("hall B stops");
}
