//! A console opens a 10,000-table hall (issue 40): real servers on
//! 127.0.0.1 with a generated 10,000-table round (no games played), a
//! chief's console fed by the real network client (`console::net`), and
//! the several-halls console over two such halls. The hall does not fit
//! in one frame (`proto::limits::MAX_SERVER_FRAME`): the snapshot comes in
//! pages (protocol 8, `proto::paging`), put together before the console
//! shows it; every table is in the console's state, and the screen
//! scrolled to the last row shows table 10000.

mod support;

use std::net::SocketAddr;

use console::App;
use proto::{ClientMsg, Command, ServerMsg};
use support::console::{Console, HallAt};
use support::{Hall, CHIEF, VIEWER};

/// Tables of each hall.
const TABLES: u16 = 10_000;

/// Hall `name`: tables 1..=[`TABLES`], each with two players (names long
/// enough to make the hall larger than a frame together), a viewer.
fn big_hall(name: &str) -> Hall {
    let players: Vec<(String, String)> = (1..=TABLES)
        .map(|t| (format!("红方选手{t:05}号"), format!("黑方选手{t:05}号")))
        .collect();
    let pairs: Vec<(&str, &str)> = players
        .iter()
        .map(|(r, b)| (r.as_str(), b.as_str()))
        .collect();
    let mut h = Hall::new(name, "127.0.0.1:0").with_tables(&pairs);
    h.viewer = Some(VIEWER.into());
    h
}

/// Every link signed in with its whole hall.
fn whole(a: &App) -> bool {
    a.connected()
        && a.links.iter().all(|l| {
            l.role.is_some()
                && l.hall
                    .as_ref()
                    .is_some_and(|h| h.tables.len() == TABLES as usize)
        })
}

/// The tables of hall `i` as the console holds them: 1..=TABLES, each once.
fn every_table(a: &App, i: usize) -> bool {
    a.links[i]
        .hall
        .as_ref()
        .is_some_and(|h| h.tables.iter().map(|t| t.table).eq(1..=TABLES))
}

/// A raw subscription by `token`: the pages it is sent (each a frame under
/// the limit, or the client would have failed to read it), put together.
async fn pages_of(addr: SocketAddr, fp: proto::Fingerprint, token: &str) -> (u32, proto::HallView) {
    let mut c = support::connect(addr, fp, token).await.expect("connects");
    c.send(ClientMsg::Command {
        id: 1,
        command: Command::Subscribe,
    })
    .await;
    let mut asm = proto::paging::Assembly::default();
    let mut pages = 0;
    loop {
        match c.recv().await {
            ServerMsg::SnapshotPage(p) => {
                pages = p.pages;
                if let Some(v) = asm.take(*p).expect("pages in order") {
                    return (pages, v);
                }
            }
            ServerMsg::Snapshot(v) => return (pages, *v),
            ServerMsg::Error(e) => panic!("subscribe refused: {e:?}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chief_console_opens_a_ten_thousand_table_hall() {
    let dir = tempfile::tempdir().unwrap();
    let s = big_hall("全国公开赛").start(dir.path()).await;

    // On the wire: pages, not one frame; the chief's and the viewer's.
    let (pages, view) = pages_of(s.addr, s.fingerprint, CHIEF).await;
    assert!(pages > 1, "a 10,000-table hall comes in pages ({pages})");
    assert_eq!(view.tables.len(), TABLES as usize);
    assert_eq!(view.tables, s.snapshot().expect("hall").tables);
    let (vpages, public) = pages_of(s.addr, s.fingerprint, VIEWER).await;
    assert!(vpages > 1, "{vpages}");
    assert_eq!(public.tables.len(), TABLES as usize);
    assert!(public.audit.is_empty(), "a viewer gets no audit trail");

    // The chief's console: every table, the last one on screen.
    let mut chief = Console::new(s.addr, s.fingerprint, CHIEF);
    chief.until("the whole hall", whole).await;
    assert!(every_table(&chief.app, 0));
    chief.key('G').await;
    assert_eq!(chief.app.selected(), Some((0, TABLES)));
    let screen = chief.screen();
    assert!(screen.contains("红方选手10000号"), "{screen}");
    assert!(screen.contains("10000"), "{screen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_several_halls_console_opens_two_ten_thousand_table_halls() {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let sa = big_hall("东厅").start(da.path()).await;
    let sb = big_hall("西厅").start(db.path()).await;
    let (aa, ab) = ([sa.addr], [sb.addr]);
    let mut chief = Console::halls(&[
        HallAt {
            name: "A",
            servers: &aa,
            fp: sa.fingerprint,
            token: CHIEF,
        },
        HallAt {
            name: "B",
            servers: &ab,
            fp: sb.fingerprint,
            token: CHIEF,
        },
    ]);
    chief.until("both whole halls", whole).await;
    assert!(every_table(&chief.app, 0) && every_table(&chief.app, 1));
    assert_eq!(
        console::app::table_rows(&chief.app).len(),
        2 * TABLES as usize
    );
    chief.key('G').await;
    assert_eq!(chief.app.selected(), Some((1, TABLES)));
    let screen = chief.screen();
    assert!(screen.contains("黑方选手10000号"), "{screen}");
}
