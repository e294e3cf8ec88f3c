//! Fouls (犯规) reported at the table (a missed press the player owns up
//! to, …) or recorded by an arbiter's command: counted per side; at the
//! rule set's threshold (technical fouls AXF-PLAY-5, recording violations
//! AXF-REC-6) an alert and a claim proposing the loss, once per side.

use proto::{FoulKind, Side};
use rulebook::RuleParams;

use super::TableState;
use crate::book::Book;
use crate::loss::Loss;
use crate::table::Raised;

impl TableState {
    /// Records a foul and raises the threshold alert and claim when reached.
    pub fn add_foul(
        &mut self,
        s: Side,
        kind: FoulKind,
        note: &str,
        now: u64,
        params: &RuleParams,
        book: &mut Book,
    ) {
        let f = self.fouls_mut(s);
        let (count, limit, raised) = match kind {
            FoulKind::Technical => {
                f.technical += 1;
                let limit = params.fouls.technical_fouls_to_lose;
                (f.technical, limit, Raised::TechnicalFouls(s))
            }
            FoulKind::Violation => {
                f.violations += 1;
                let limit = params.fouls.recording_violations_to_lose;
                (f.violations, limit, Raised::Violations(s))
            }
        };
        tracing::debug!(table = self.table, ?s, ?kind, note, "foul recorded");
        if count < limit || self.finished() || !self.raised.insert(raised) {
            return;
        }
        let loss = Loss::Fouls {
            side: s,
            kind,
            count,
        };
        book.propose_loss(self.table, loss, now);
    }
}
