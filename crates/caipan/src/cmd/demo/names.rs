//! Words for the headless demo's summary: result notation and the names
//! of alerts, claims and sides as the summary and its rulings section
//! print them.

use proto::{AlertKind, ClaimKind, GameResult};

/// Result notation (`1-0`, `0-1`, `1/2-1/2`, `0-0` when both lose).
pub fn result_text(r: GameResult) -> &'static str {
    match r {
        GameResult::RedWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::BothLose => "0-0",
    }
}

pub fn alert_name(k: AlertKind) -> &'static str {
    match k {
        AlertKind::FlagFall => "flag fall (超时)",
        AlertKind::IllegalMove => "illegal move (违规着法)",
        AlertKind::Repetition => "repetition (长将/长捉/循环)",
        AlertKind::NaturalLimit => "natural move limit (自然限着)",
        AlertKind::NoShow => "no-show (迟到弃权)",
        AlertKind::ClockAnomaly => "clock anomaly (计时异常)",
        AlertKind::TableOffline => "table offline (掉线)",
        AlertKind::TableOnline => "table back online (恢复连线)",
        AlertKind::FoulThreshold => "foul threshold (犯规累计)",
        AlertKind::SealOverdue => "sealed game not resumed (封棋超时)",
        AlertKind::ArbiterCalled => "arbiter called (请裁判)",
        AlertKind::ClaimPending => "claim pending (申诉待裁)",
        AlertKind::GameOver => "game over (终局)",
        AlertKind::RefusedCommands => "refused commands (拒绝指令)",
        AlertKind::MoveLimit => "declared move limit (限著)",
        AlertKind::RecordQuarantined => "stored record set aside (记录隔离)",
        AlertKind::TerminalReplaced => "terminal replaced (台端更换)",
        AlertKind::TwoTerminals => "two terminals for one table (一台两终端)",
        AlertKind::StoppedReading => "a client stopped reading (终端停止接收)",
    }
}

pub fn claim_name(k: ClaimKind) -> &'static str {
    match k {
        ClaimKind::NaturalLimit => "natural move limit",
        ClaimKind::Repetition => "repetition",
        ClaimKind::IllegalMove => "illegal move",
        ClaimKind::FoulThreshold => "foul threshold",
        ClaimKind::FlagFall => "flag fall",
        ClaimKind::NoShow => "no-show",
        ClaimKind::DrawOffer => "draw offer",
        ClaimKind::MoveLimit => "declared move limit",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_notation() {
        assert_eq!(result_text(GameResult::Draw), "1/2-1/2");
        assert_eq!(result_text(GameResult::BothLose), "0-0");
    }
}
