//! The terminal confirms a control of the server (pause, resume, adjust,
//! seal, unseal, set result, move limit): the control is no longer sent
//! again on reconnection, and the clock is what the terminal shows.

use proto::Side;

use super::TableState;
use crate::table::convert::color;

/// `ControlApplied`: forgets the control and takes the terminal's times.
pub(super) fn applied(
    t: &mut TableState,
    control_id: u64,
    (red_ms, black_ms): (u64, u64),
    running: Option<Side>,
    terminal_mono_ms: u64,
    now: u64,
) {
    t.pending_controls.retain(|(c, _)| *c != control_id);
    t.clock.red_ms = red_ms;
    t.clock.black_ms = black_ms;
    t.clock.terminal_ms = Some(terminal_mono_ms);
    t.clock.reported_at_ms = now;
    if let Some(r) = running {
        t.clock.running = Some(color(r));
    }
    t.sample_clock(now);
}
