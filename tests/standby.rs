//! A hall served from more than one address (README "A standby server"):
//! table terminals and consoles given several addresses try them in turn
//! and follow the hall to whichever server answers, resending their outbox
//! from that server's high-water mark.
//!
//! - Clients that follow (no database needed): a terminal and a console
//!   given a dead address first and a live one second connect; the server
//!   stops, another starts on the other address with the same data dir
//!   (so the same certificate), and both reconnect by themselves, the
//!   terminal's moves stored once.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use proto::{Connector, Side, Trust};
use table::engine::Action;
use table::engine::Engine;
use table::link::LinkConfig;
use table::terminal::{self, TerminalHandle};
use table::timebase::Timebase;
use table::Outbox;

mod support;
use support::console::Console;
use support::*;

const LONG: Duration = Duration::from_secs(30);

fn free_udp_addr() -> SocketAddr {
    let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    s.local_addr().unwrap()
}

/// A table terminal given `servers` in this order.
async fn terminal_for(
    servers: &[SocketAddr],
    trust: &Trust,
    t: u16,
    outbox: &Path,
) -> TerminalHandle {
    let connector = Connector::new(trust, false).unwrap();
    let mut link = LinkConfig::with_servers(servers.to_vec(), table_token(t), connector);
    link.connect_timeout = Duration::from_millis(800);
    link.stall = Duration::from_secs(2);
    let (info, hello) = terminal::fetch_info(&link).await.expect("table info");
    let session = hello.table.unwrap();
    let (outbox, _) = Outbox::open(outbox, t, session.epoch + 1).unwrap();
    terminal::spawn(Engine::new(info, outbox), Some(link), Timebase::real(0))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_and_a_console_follow_the_hall_to_its_other_address() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (free_udp_addr(), free_udp_addr());
    // Only b serves at first; a is dead and listed first.
    let first = hall(&b.to_string()).start(dir.path()).await;
    assert_eq!(first.addr, b);
    let fp = first.fingerprint;
    let trust = Trust::Fingerprint(fp);
    let term = terminal_for(&[a, b], &trust, 1, &dir.path().join("outbox")).await;
    term.wait_for(LONG, |s| s.online)
        .await
        .expect("online via b");
    let mut console = Console::with_servers(&[a, b], fp, CHIEF);
    console
        .until("the console connected via b", |app| {
            matches!(app.conn, ::console::app::ConnState::Connected) && app.hall.is_some()
        })
        .await;

    term.act(Action::Arrived { side: Side::Red }).await.unwrap();
    term.act(Action::Arrived { side: Side::Black })
        .await
        .unwrap();
    term.act(Action::StartClock).await.unwrap();
    term.act(Action::Play("h2e2".into())).await.unwrap();
    term.act(Action::Play("h9g7".into())).await.unwrap();
    term.wait_for(LONG, |s| s.waiting == 0)
        .await
        .expect("acknowledged by b");

    // b stops; the hall comes back on a, from the same data dir (the same
    // certificate, so the pinned fingerprint holds).
    first.shutdown().await.unwrap();
    let second = hall(&a.to_string()).start(dir.path()).await;
    assert_eq!((second.addr, second.fingerprint), (a, fp));
    // Moves made while the hall moves are kept and resent.
    term.act(Action::Play("h0g2".into())).await.unwrap();
    term.act(Action::Play("i9h9".into())).await.unwrap();
    term.wait_for(LONG, |s| s.online && s.waiting == 0)
        .await
        .expect("the terminal followed the hall to a");
    console
        .until(
            "the console followed the hall to a with the new moves",
            |app| {
                matches!(app.conn, ::console::app::ConnState::Connected)
                    && app
                        .hall
                        .as_ref()
                        .is_some_and(|h| h.tables.iter().any(|t| t.table == 1 && t.plies == 4))
            },
        )
        .await;
    let view = second.snapshot().unwrap();
    assert_eq!(
        view.tables[0].plies, 4,
        "every move stored once on the hall"
    );
    let (_, stats) = term.stop().await.unwrap();
    assert!(stats.connects >= 2, "{stats:?}");
    assert!(stats.errors.is_empty(), "{:?}", stats.errors);
    second.shutdown().await.unwrap();
}
