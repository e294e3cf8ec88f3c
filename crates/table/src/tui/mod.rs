//! The terminal's screen (ratatui + crossterm): [`app`] holds the state
//! (the engine's [`crate::Screen`], the input line, the last notice),
//! [`keys`] turns key presses into actions, [`render`] draws the state
//! (a pure function of it), [`run`] is the event loop on a real terminal.

pub mod app;
pub mod bigclock;
pub mod keys;
pub mod render;
pub mod run;

pub use app::App;
pub use run::run;
