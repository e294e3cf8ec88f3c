//! Deputies across rounds (副裁判的分台), at the next round: each deputy's
//! tables in the proposed round shown in the preview, and the config's
//! full coverage (`deputies_cover_all_tables`) checked when the round is
//! published (`config::deputies`). A deputy without a table of the new
//! round is reported in the preview (and so in the published round's
//! notes), not refused: the round can be played
//! and the deputy stands by; tables without a deputy are refused only when
//! the config asks for a deputy at every table, since the chief asked for
//! exactly that guarantee.

use std::collections::BTreeSet;

use config::deputies::{self, RoundDeputies};
use config::HallConfig;
use proto::{Message, RoundProposal};

/// The deputies' tables in `round`.
fn of(config: &HallConfig, round: &RoundProposal) -> RoundDeputies {
    let tables: BTreeSet<u32> = round.boards.iter().map(|b| u32::from(b.table)).collect();
    deputies::check(&config.credentials, &tables)
}

/// The preview's notes on the deputies of `round`: each deputy's tables
/// (or that it has none), and the tables no deputy covers when the config
/// asks for full coverage.
pub fn notes(config: &HallConfig, round: &RoundProposal) -> Vec<Message> {
    let r = of(config, round);
    let mut out: Vec<Message> = r
        .tables
        .iter()
        .map(|(name, tables)| match tables.is_empty() {
            true => Message::new("round-deputy-idle").verbatim("deputy", name.as_str()),
            false => Message::new("round-deputy-tables")
                .verbatim("deputy", name.as_str())
                .verbatim("tables", deputies::describe(tables.iter().copied())),
        })
        .collect();
    if r.cover_all && !r.uncovered.is_empty() {
        out.push(
            Message::new("round-deputy-uncovered")
                .verbatim("tables", deputies::describe(r.uncovered.iter().copied())),
        );
    }
    out
}

/// Why `round` cannot be published with the config's deputies: tables
/// without a deputy when full coverage is asked.
pub fn refusal(config: &HallConfig, round: &RoundProposal) -> Option<Message> {
    of(config, round).refusal(round.round)
}
