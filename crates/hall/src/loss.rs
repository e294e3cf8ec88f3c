//! Losses the hall proposes on its own (判负建议): a flag fall, a foul
//! threshold reached, a player absent at the start or at the resumption
//! of an adjourned game. Each raises the same pair, an alert for the
//! arbiters and a claim recommending the loss ([`Book::propose_loss`]);
//! [`Loss`] is that pair typed; [`Loss::alert_text`] and
//! [`Loss::explanation`] put it into words as catalogue messages
//! (`loss-*`, `i18n::texts::loss_*`), rendered in each reader's language.

use proto::{AlertKind, ClaimKind, FoulKind, Message, Ruling, Side, Verdict};
use rulebook::RuleId;

use crate::alerts::NewAlert;
use crate::book::Book;
use crate::claims::NewClaim;

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

    /// The alert's words at `table` (a catalogue message: `loss-*-alert`).
    pub fn alert_text(self, table: u16) -> Message {
        self.text(Some(table))
    }

    /// The recommended ruling's explanation (`loss-*`).
    pub fn explanation(self) -> Message {
        self.text(None)
    }

    fn text(self, table: Option<u16>) -> Message {
        use i18n::texts as t;
        match self {
            Loss::FlagFall { side } => t::loss_flag_fall(table, side),
            Loss::Fouls { side, kind, count } => t::loss_fouls(table, side, kind, count),
            Loss::NoShow { side, limit_ms } => t::loss_no_show(table, side, limit_ms),
            Loss::LateResumption { side, limit_ms } => t::loss_late(table, side, limit_ms),
        }
    }
}

impl Book {
    /// Raises the alert of `loss` at `table` and opens its claim
    /// recommending the loss; returns the claim's id.
    pub fn propose_loss(&mut self, table: u16, loss: Loss, at_ms: u64) -> u64 {
        let rule = loss.rule();
        self.alert(
            NewAlert::new(table, loss.alert_kind(), loss.alert_text(table), &[rule]),
            at_ms,
        );
        let ruling = Ruling {
            verdict: Verdict::Loss { side: loss.side() },
            must_change: None,
            rule_ids: vec![rule.as_str().to_string()],
            explanation: loss.explanation(),
        };
        self.claim(NewClaim::new(table, loss.claim_kind(), ruling), at_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use i18n::Lang;

    /// The words as they were written beside each alert before they were
    /// catalogue messages: exports and golden files keep them to the byte
    /// in English and Simplified Chinese.
    #[test]
    fn texts_are_the_ones_stored_before() {
        let r = |l: Loss, alert: bool, lang| {
            let m = if alert {
                l.alert_text(7)
            } else {
                l.explanation()
            };
            i18n::render(lang, &m)
        };
        let flag = Loss::FlagFall { side: Side::Black };
        assert_eq!(r(flag, true, Lang::ZhHans), "第7台黑方超时落旗");
        assert_eq!(r(flag, true, Lang::En), "table 7: Black's flag fell");
        assert_eq!(r(flag, false, Lang::ZhHans), "黑方用时已尽，超时判负。");
        assert_eq!(
            r(flag, false, Lang::En),
            "Black's time ran out: loss on time."
        );
        assert_eq!(r(flag, true, Lang::ZhHant), "第7台黑方超時落旗");
        assert_eq!(r(flag, true, Lang::Vi), "bàn 7: Đen hết giờ");
        let fouls = Loss::Fouls {
            side: Side::Red,
            kind: FoulKind::Violation,
            count: 4,
        };
        assert_eq!(r(fouls, true, Lang::ZhHans), "第7台红方违例已达4次");
        assert_eq!(r(fouls, false, Lang::En), "Red has 4 violations: loss.");
        let technical = Loss::Fouls {
            side: Side::Red,
            kind: FoulKind::Technical,
            count: 4,
        };
        assert_eq!(
            r(technical, true, Lang::En),
            "table 7: Red has 4 technical fouls"
        );
        assert_eq!(r(technical, false, Lang::ZhHans), "红方技术犯规4次，判负。");
        assert_eq!(r(technical, false, Lang::ZhHant), "紅方技術犯規4次，判負。");
        let late = Loss::LateResumption {
            side: Side::Red,
            limit_ms: 900_000,
        };
        assert_eq!(
            r(late, true, Lang::En),
            "table 7: adjourned game resumed, Red absent after 15 minutes"
        );
        assert_eq!(r(late, true, Lang::ZhHans), "第7台封棋续赛后15分钟红方未到");
        assert_eq!(
            r(late, false, Lang::En),
            "Red not at the board 15 minutes after the resumption: forfeit."
        );
        let absent = Loss::NoShow {
            side: Side::Black,
            limit_ms: 1_800_000,
        };
        assert_eq!(
            r(absent, false, Lang::ZhHans),
            "黑方开赛后逾时30分钟未到，作弃权论。"
        );
        assert_eq!(
            r(absent, false, Lang::ZhHant),
            "黑方開賽後逾時30分鐘未到，作棄權論。"
        );
        let brief = Loss::NoShow {
            side: Side::Red,
            limit_ms: 90_000,
        };
        assert_eq!(
            r(brief, true, Lang::En),
            "table 7: Red absent 90 s after the start"
        );
        assert_eq!(r(brief, true, Lang::ZhHans), "第7台红方开赛90秒未到");
        assert_eq!(
            r(brief, true, Lang::Vi),
            "bàn 7: Đỏ vắng mặt 90 giây sau giờ bắt đầu"
        );
        assert_eq!(absent.rule(), RuleId::AXF_FORFEIT_1);
    }
}
