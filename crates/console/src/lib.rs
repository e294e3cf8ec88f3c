//! caipan arbiter console (裁判台): the ratatui TUI of the chief arbiter and
//! the deputies.
//!
//! Layers, gitui/bottom style:
//! - [`app`]: the state ([`App`]) — the hall as the server last described
//!   it (proto's `HallView`), where the arbiter is, open dialogs — changed
//!   only by server messages ([`App::on_server`]), keys ([`App::on_key`])
//!   and time ([`App::tick`]).
//! - [`ui`]: rendering, a pure function of the state (`ui::draw`).
//! - `net`: the QUIC client that signs in, subscribes, reconnects by itself
//!   and carries commands out (feeds the same `App` in the end-to-end test);
//!   one per hall for a console over several halls, listed in the console
//!   config that [`halls`] reads.
//! - `run`: the terminal loop — one `tokio::select!` over key events,
//!   network messages and a one-second tick aligned to the second.
//! - Helpers: [`i18n`] (中文/English), [`width`] (display-width padding for
//!   Chinese names), [`clock`] (live clocks), [`notation`] (move lists),
//!   [`keymap`] (every key, for `?`).

pub mod app;
pub mod clock;
pub mod colours;
#[doc(hidden)]
pub mod fixture;
pub mod halls;
pub mod i18n;
pub mod keymap;
pub mod net;
pub mod notation;
pub mod perm;
pub mod run;
pub mod ui;
pub mod walltime;
pub mod width;

pub use app::App;
pub use i18n::Lang;

/// Re-exported for tests and tools that drive the console (key events,
/// the in-memory backend) without depending on these crates themselves.
pub use crossterm;
pub use ratatui;
