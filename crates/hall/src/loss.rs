//! Losses the hall proposes on its own (判负建议): a flag fall, a foul
//! threshold reached, a player absent at the start or at the resumption
//! of an adjourned game. Each raises the same pair, an alert for the
//! arbiters and a claim recommending the loss ([`Book::propose_loss`]);
//! [`Loss`] is that pair as a message id with typed arguments, and
//! [`Loss::render`] the one place that turns it into words (Chinese and
//! English today).

use proto::{AlertKind, ClaimKind, FoulKind, Ruling, Side, Verdict};
use rulebook::RuleId;

use crate::alerts::NewAlert;
use crate::book::Book;
use crate::claims::NewClaim;

/// A language the hall's own texts are rendered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// 中文.
    Zh,
    /// English.
    En,
}

/// Which text of a proposed loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The alert (it names the table).
    Alert,
    /// The recommended ruling's explanation.
    Explanation,
}

/// A loss the hall proposes, with what the texts say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// `side`'s time ran out (AXF-CLOCK-1).
    FlagFall {
        /// Whose flag fell.
        side: Side,
    },
    /// `side` reached the threshold of fouls of `kind` (AXF-PLAY-5, AXF-REC-6).
    Fouls {
        /// Who fouled.
        side: Side,
        /// Technical fouls or recording violations.
        kind: FoulKind,
        /// How many now.
        count: u32,
    },
    /// `side` not at the board `limit_ms` after the start (AXF-FORFEIT-1).
    NoShow {
        /// Who is absent.
        side: Side,
        /// The no-show time (ms).
        limit_ms: u64,
    },
    /// `side` not at the board `limit_ms` after an adjourned game resumed
    /// (AXF-REF-L).
    LateResumption {
        /// Who is absent.
        side: Side,
        /// The time allowed (ms).
        limit_ms: u64,
    },
}

impl Loss {
    /// The side that loses.
    pub fn side(self) -> Side {
        match self {
            Loss::FlagFall { side }
            | Loss::Fouls { side, .. }
            | Loss::NoShow { side, .. }
            | Loss::LateResumption { side, .. } => side,
        }
    }

    /// The alert's kind.
    pub fn alert_kind(self) -> AlertKind {
        match self {
            Loss::FlagFall { .. } => AlertKind::FlagFall,
            Loss::Fouls { .. } => AlertKind::FoulThreshold,
            Loss::NoShow { .. } => AlertKind::NoShow,
            Loss::LateResumption { .. } => AlertKind::SealOverdue,
        }
    }

    /// The claim's kind.
    pub fn claim_kind(self) -> ClaimKind {
        match self {
            Loss::FlagFall { .. } => ClaimKind::FlagFall,
            Loss::Fouls { .. } => ClaimKind::FoulThreshold,
            Loss::NoShow { .. } | Loss::LateResumption { .. } => ClaimKind::NoShow,
        }
    }

    /// The rule the alert and the claim cite.
    pub fn rule(self) -> RuleId {
        match self {
            Loss::FlagFall { .. } => RuleId::AXF_CLOCK_1,
            Loss::Fouls {
                kind: FoulKind::Technical,
                ..
            } => RuleId::AXF_PLAY_5,
            Loss::Fouls {
                kind: FoulKind::Violation,
                ..
            } => RuleId::AXF_REC_6,
            Loss::NoShow { .. } => RuleId::AXF_FORFEIT_1,
            Loss::LateResumption { .. } => RuleId::AXF_REF_L,
        }
    }

    /// The text `part` of this loss at `table` in `lang`.
    pub fn render(self, table: u16, part: Part, lang: Lang) -> String {
        let t = table;
        let s = match lang {
            Lang::Zh => self.side().name_zh(),
            Lang::En => self.side().name_en(),
        };
        match (self, part, lang) {
            (Loss::FlagFall { .. }, Part::Alert, Lang::Zh) => format!("第{t}台{s}超时落旗"),
            (Loss::FlagFall { .. }, Part::Alert, Lang::En) => {
                format!("table {t}: {s}'s flag fell")
            }
            (Loss::FlagFall { .. }, Part::Explanation, Lang::Zh) => {
                format!("{s}用时已尽，超时判负。")
            }
            (Loss::FlagFall { .. }, Part::Explanation, Lang::En) => {
                format!("{s}'s time ran out: loss on time.")
            }
            (Loss::Fouls { kind, count, .. }, part, Lang::Zh) => {
                let k = match kind {
                    FoulKind::Technical => "技术犯规",
                    FoulKind::Violation => "违例",
                };
                match part {
                    Part::Alert => format!("第{t}台{s}{k}已达{count}次"),
                    Part::Explanation => format!("{s}{k}{count}次，判负。"),
                }
            }
            (Loss::Fouls { kind, count, .. }, part, Lang::En) => {
                let k = match kind {
                    FoulKind::Technical => "technical fouls",
                    FoulKind::Violation => "violations",
                };
                match part {
                    Part::Alert => format!("table {t}: {s} has {count} {k}"),
                    Part::Explanation => format!("{s} has {count} {k}: loss."),
                }
            }
            (Loss::NoShow { limit_ms, .. }, part, Lang::Zh) => {
                let lim = limit_words(limit_ms, Lang::Zh);
                match part {
                    Part::Alert => format!("第{t}台{s}开赛{lim}未到"),
                    Part::Explanation => format!("{s}开赛后逾时{lim}未到，作弃权论。"),
                }
            }
            (Loss::NoShow { limit_ms, .. }, part, Lang::En) => {
                let lim = limit_words(limit_ms, Lang::En);
                match part {
                    Part::Alert => format!("table {t}: {s} absent {lim} after the start"),
                    Part::Explanation => {
                        format!("{s} not at the board {lim} after the start: forfeit.")
                    }
                }
            }
            (Loss::LateResumption { limit_ms, .. }, part, Lang::Zh) => {
                let lim = limit_words(limit_ms, Lang::Zh);
                match part {
                    Part::Alert => format!("第{t}台封棋续赛后{lim}{s}未到"),
                    Part::Explanation => format!("{s}续赛时逾时{lim}未到，作弃权论。"),
                }
            }
            (Loss::LateResumption { limit_ms, .. }, part, Lang::En) => {
                let lim = limit_words(limit_ms, Lang::En);
                match part {
                    Part::Alert => {
                        format!("table {t}: adjourned game resumed, {s} absent after {lim}")
                    }
                    Part::Explanation => {
                        format!("{s} not at the board {lim} after the resumption: forfeit.")
                    }
                }
            }
        }
    }
}

/// A time limit in words: whole minutes as minutes, else seconds.
fn limit_words(ms: u64, lang: Lang) -> String {
    match (ms % 60_000 == 0, lang) {
        (true, Lang::Zh) => format!("{}分钟", ms / 60_000),
        (true, Lang::En) => format!("{} minutes", ms / 60_000),
        (false, Lang::Zh) => format!("{}秒", ms / 1000),
        (false, Lang::En) => format!("{} s", ms / 1000),
    }
}

impl Book {
    /// Raises the alert of `loss` at `table` and opens its claim
    /// recommending the loss; returns the claim's id.
    pub fn propose_loss(&mut self, table: u16, loss: Loss, at_ms: u64) -> u64 {
        let rule = loss.rule();
        let text = |part, lang| loss.render(table, part, lang);
        self.alert(
            NewAlert::new(
                table,
                loss.alert_kind(),
                i18n::texts::prose(text(Part::Alert, Lang::Zh), text(Part::Alert, Lang::En)),
                &[rule],
            ),
            at_ms,
        );
        let ruling = Ruling {
            verdict: Verdict::Loss { side: loss.side() },
            must_change: None,
            rule_ids: vec![rule.as_str().to_string()],
            explanation: i18n::texts::prose(
                text(Part::Explanation, Lang::Zh),
                text(Part::Explanation, Lang::En),
            ),
        };
        self.claim(NewClaim::new(table, loss.claim_kind(), ruling), at_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_spelled_in_minutes_when_whole() {
        assert_eq!(limit_words(900_000, Lang::Zh), "15分钟");
        assert_eq!(limit_words(900_000, Lang::En), "15 minutes");
        assert_eq!(limit_words(90_000, Lang::Zh), "90秒");
        assert_eq!(limit_words(90_000, Lang::En), "90 s");
    }

    /// The words as they were written beside each alert before this
    /// module: exports and golden files keep them to the byte.
    #[test]
    fn texts_are_the_ones_stored_before() {
        let r = |l: Loss, p, lang| l.render(7, p, lang);
        let flag = Loss::FlagFall { side: Side::Black };
        assert_eq!(r(flag, Part::Alert, Lang::Zh), "第7台黑方超时落旗");
        assert_eq!(r(flag, Part::Alert, Lang::En), "table 7: Black's flag fell");
        assert_eq!(
            r(flag, Part::Explanation, Lang::Zh),
            "黑方用时已尽，超时判负。"
        );
        let fouls = Loss::Fouls {
            side: Side::Red,
            kind: FoulKind::Violation,
            count: 4,
        };
        assert_eq!(r(fouls, Part::Alert, Lang::Zh), "第7台红方违例已达4次");
        assert_eq!(
            r(fouls, Part::Explanation, Lang::En),
            "Red has 4 violations: loss."
        );
        let late = Loss::LateResumption {
            side: Side::Red,
            limit_ms: 900_000,
        };
        assert_eq!(
            r(late, Part::Alert, Lang::En),
            "table 7: adjourned game resumed, Red absent after 15 minutes"
        );
        let absent = Loss::NoShow {
            side: Side::Black,
            limit_ms: 1_800_000,
        };
        assert_eq!(
            r(absent, Part::Explanation, Lang::Zh),
            "黑方开赛后逾时30分钟未到，作弃权论。"
        );
        assert_eq!(absent.rule(), RuleId::AXF_FORFEIT_1);
    }
}
