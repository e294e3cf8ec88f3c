//! caipan's languages (语言 / 語言 / ngôn ngữ): the four message
//! catalogues in Fluent, embedded in the binary — `zh-Hans` (简体中文),
//! `zh-Hant` (繁體中文), `en`, `vi` (tiếng Việt) — and the renderer of the
//! wire's [`proto::Message`] (an id and typed arguments) in one of them.
//!
//! Parts: [`lang`] (the [`Lang`] enum, `--lang` values and the locale
//! mapping), [`catalogue`] (the embedded catalogues and rendering),
//! [`ids`] (the message ids of the wire's enums: sides, pieces, alert
//! kinds, claim kinds, end reasons, verdicts, foul kinds), [`texts`]
//! (the hall's alert and ruling sentences as messages), [`replies`]
//! (error replies: why a request was refused, and the error codes),
//! [`decided`] (a decided claim as the table terminal words it).
//!
//! Fluent's Unicode isolation marks (FSI/PDI around each placeable) are
//! off: the text goes into terminal cell grids, where the invisible marks
//! break display widths, and into exports where they are noise.

pub mod catalogue;
pub mod decided;
pub mod ids;
pub mod lang;
pub mod replies;
pub mod texts;

pub use catalogue::{render, term, Catalogue};
pub use lang::{Lang, UnknownLang};
