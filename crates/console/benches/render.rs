//! Rendering benchmark: a 500-table hall with updates streaming in.
//!
//! Run: `cargo bench -p caipan-console --bench render`.
//! Each iteration applies a burst of 50 table deltas (clock presses; 500
//! tables pressing every 10 s send 50 per second, so one burst per frame
//! is ten times a real hall's rate at 10 frames/s) and draws a full frame
//! into an in-memory terminal, as the console does per frame. Goal (issue 6): at least 10 frames/s using under
//! 20 % of one core, i.e. a frame (with its updates) under 20 ms.

use console::app::View;
use console::fixture::{self, SERVER_MS};
use console::{ui, App, Lang};
use proto::{Delta, Role, ServerMsg, Side};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn main() {
    divan::main();
}

fn hall_app(lang: Lang) -> App {
    let mut app = fixture::app(lang, Role::Chief, fixture::hall(500));
    app.screen = (200, 60);
    app
}

/// Applies `n` clock-press deltas (tables round-robin from `start`).
fn stream(app: &mut App, start: usize, n: usize) {
    let tables = app.hall().map_or(0, |h| h.tables.len());
    for i in 0..n {
        let k = (start + i) % tables;
        let Some(mut t) = app.hall().map(|h| h.tables[k].clone()) else {
            return;
        };
        t.plies += 1;
        t.to_move = t.to_move.other();
        t.clock.running = Some(t.to_move);
        t.clock_at_ms = SERVER_MS + (start + i) as u64;
        match t.to_move {
            Side::Red => t.clock.black_ms = t.clock.black_ms.saturating_sub(7_000),
            Side::Black => t.clock.red_ms = t.clock.red_ms.saturating_sub(7_000),
        }
        app.on_server(ServerMsg::Delta(Delta::Table(std::sync::Arc::new(t))));
    }
}

#[divan::bench(args = [(200, 60), (80, 24)])]
fn hall_500_frame_with_50_updates(bencher: divan::Bencher, (w, h): (u16, u16)) {
    let mut app = hall_app(Lang::ZhHans);
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut i = 0usize;
    bencher.bench_local(|| {
        stream(&mut app, i, 50);
        i += 50;
        app.tick(i as u64 * 2);
        term.draw(|f| ui::draw(f, &app)).unwrap();
    });
}

#[divan::bench]
fn hall_500_sorted_by_time_left(bencher: divan::Bencher) {
    let mut app = hall_app(Lang::En);
    app.sort = console::app::SortKey::TimeLeft;
    let mut term = Terminal::new(TestBackend::new(200, 60)).unwrap();
    let mut i = 0usize;
    bencher.bench_local(|| {
        stream(&mut app, i, 50);
        i += 50;
        term.draw(|f| ui::draw(f, &app)).unwrap();
    });
}

#[divan::bench]
fn table_detail_frame(bencher: divan::Bencher) {
    let mut app = hall_app(Lang::ZhHans);
    app.view = View::Detail(1);
    let mut term = Terminal::new(TestBackend::new(200, 60)).unwrap();
    bencher.bench_local(|| {
        term.draw(|f| ui::draw(f, &app)).unwrap();
    });
}
