//! Post-round export: the formatting lives in crates/export (re-exported
//! here, so `server::export::render` and friends keep their paths); the
//! server adds [`command`], the console's `ExportRound` run after its
//! commit.

pub use ::export::*;

pub mod command;
