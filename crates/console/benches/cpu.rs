//! CPU use of the console on a 500-table hall at 10 frames/s.
//!
//! Run: `cargo bench -p caipan-console --bench cpu`.
//! For 5 seconds: every 100 ms apply the deltas that streamed in (500
//! tables each pressing every 10 s = 50 presses/s, plus an alert every
//! second) and draw a frame through ratatui's crossterm backend into memory
//! (the ANSI output is generated in full, only not written to a tty). Prints
//! frame times (p50, p99, max) and the process CPU time used (getrusage) as
//! a share of one core. Goal (issue 6): >= 10 frames/s under 20 % of a core.

use console::fixture::{self, SERVER_MS};
use console::{ui, Lang};
use proto::{Alert, AlertKind, Delta, Role, ServerMsg, Side};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use std::time::{Duration, Instant};

fn cpu_time() -> Duration {
    // SAFETY: getrusage writes into the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Counts the terminal output instead of writing it to a tty.
struct Sink(std::rc::Rc<std::cell::Cell<usize>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.set(self.0.get() + buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn run(w: u16, h: u16, lang: Lang) {
    let mut app = fixture::app(lang, Role::Chief, fixture::hall(500));
    app.screen = (w, h);
    let written = std::rc::Rc::new(std::cell::Cell::new(0usize));
    let backend = CrosstermBackend::new(Sink(written.clone()));
    let mut term = Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, w, h)),
        },
    )
    .expect("terminal");
    let start = Instant::now();
    let cpu0 = cpu_time();
    let mut frames = Vec::new();
    let mut k = 0usize;
    let mut alert_id = 1_000u64;
    let secs = 5u64;
    for frame in 0..(secs * 10) {
        let due = start + Duration::from_millis(frame * 100);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let f0 = Instant::now();
        app.tick(frame * 100);
        for _ in 0..5 {
            let Some(mut t) = app.hall().map(|h| h.tables[k % 500].clone()) else {
                return;
            };
            k += 1;
            t.plies += 1;
            t.to_move = t.to_move.other();
            t.clock.running = Some(t.to_move);
            t.clock_at_ms = SERVER_MS + frame * 100;
            match t.to_move {
                Side::Red => t.clock.black_ms = t.clock.black_ms.saturating_sub(9_000),
                Side::Black => t.clock.red_ms = t.clock.red_ms.saturating_sub(9_000),
            }
            app.on_server(ServerMsg::Delta(Delta::Table(std::sync::Arc::new(t))));
        }
        if frame % 10 == 0 {
            alert_id += 1;
            app.on_server(ServerMsg::Delta(Delta::Alert(Alert {
                id: alert_id,
                table: (alert_id % 500) as u16 + 1,
                kind: AlertKind::ClockAnomaly,
                at_ms: SERVER_MS + frame * 100,
                text: i18n::texts::clock_anomaly(
                    (alert_id % 500) as u16 + 1,
                    proto::Message::new("clock-time-went-backwards").int("off", 40),
                ),
                rule_ids: Vec::new(),
                acked_by: None,
            })));
        }
        term.draw(|f| ui::draw(f, &app)).expect("draw");
        frames.push(f0.elapsed());
    }
    let wall = start.elapsed();
    let cpu = cpu_time() - cpu0;
    frames.sort();
    let pct = |p: f64| frames[((frames.len() - 1) as f64 * p) as usize];
    println!(
        "{w}x{h} {lang}: {} frames in {:.2} s ({:.1} frames/s); frame p50 {:?} p99 {:?} max {:?}; \
         CPU {:.3} s = {:.1} % of one core; {} KiB of terminal output/s",
        frames.len(),
        wall.as_secs_f64(),
        frames.len() as f64 / wall.as_secs_f64(),
        pct(0.5),
        pct(0.99),
        frames[frames.len() - 1],
        cpu.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64(),
        written.get() / 1024 / secs as usize,
    );
}

fn main() {
    // `cargo bench` passes `--bench`; under `cargo test --benches` (no
    // such argument) this only checks that it builds.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    run(200, 60, Lang::ZhHans);
    run(80, 24, Lang::En);
}
