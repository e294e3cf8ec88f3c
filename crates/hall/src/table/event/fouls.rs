//! Fouls (犯规) reported at the table (a missed press the player owns up
//! to, …) or recorded by an arbiter's command: counted per side; at the
//! rule set's threshold (technical fouls AXF-PLAY-5, recording violations
//! AXF-REC-6) an alert and a claim proposing the loss, once per side.

use proto::{AlertKind, ClaimKind, FoulKind, Ruling, Side, Verdict};
use rulebook::RuleParams;

use super::{strs, TableState};
use crate::alerts::NewAlert;
use crate::book::Book;
use crate::claims::Penalty;
use crate::table::convert::{side_en, side_zh};
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
        let t = self.table;
        let f = self.fouls_mut(s);
        let (count, limit, raised, rules, zh_kind, en_kind) = match kind {
            FoulKind::Technical => {
                f.technical += 1;
                (
                    f.technical,
                    params.fouls.technical_fouls_to_lose,
                    Raised::TechnicalFouls(s),
                    ["AXF-PLAY-5"],
                    "技术犯规",
                    "technical fouls",
                )
            }
            FoulKind::Violation => {
                f.violations += 1;
                (
                    f.violations,
                    params.fouls.recording_violations_to_lose,
                    Raised::Violations(s),
                    ["AXF-REC-6"],
                    "违例",
                    "violations",
                )
            }
        };
        tracing::debug!(table = t, ?s, ?kind, note, "foul recorded");
        if count < limit || self.finished() || !self.raised.insert(raised) {
            return;
        }
        book.alert(
            NewAlert::new(
                t,
                AlertKind::FoulThreshold,
                format!("第{t}台{}{zh_kind}已达{count}次", side_zh(s)),
                format!("table {t}: {} has {count} {en_kind}", side_en(s)),
                &rules,
            ),
            now,
        );
        book.claim(
            t,
            ClaimKind::FoulThreshold,
            None,
            now,
            Ruling {
                verdict: Verdict::Loss { side: s },
                must_change: None,
                rule_ids: strs(&rules),
                explanation_zh: format!("{}{zh_kind}{count}次，判负。", side_zh(s)),
                explanation_en: format!("{} has {count} {en_kind}: loss.", side_en(s)),
            },
            Penalty::None,
        );
    }
}
