//! Roles and authorization (身份与权限): who is connected (a [`Principal`]:
//! chief, deputy, table terminal or viewer; the server establishes it from
//! the presented token) and whether that principal may perform an
//! [`Action`] ([`authorize`]). The one roles table: the server authorizes
//! with it and the console offers its keys by it.
//!
//! [`Action`] has one variant per protocol message kind (table events are
//! one variant carrying a [`TableEventKind`]), so the connection code maps
//! each decoded message onto an action, calls [`authorize`], and on refusal
//! answers with [`Refusal::message`] and writes the refusal to the audit trail.
//!
//! The rules (docs/architecture.md, "Roles"):
//! - chief: everything.
//! - deputy: reads the whole hall; on assigned tables only: pause/resume the
//!   table, seal/unseal, rule on claims, record fouls, adjust clocks, set
//!   results, acknowledge alerts; may override only rulings they made
//!   themselves (never the chief's, nor another deputy's: that goes to the
//!   chief); never hall pause/resume or export.
//! - table: reports events for its own table only; nothing else.
//! - viewer: subscribes (reads) only.

use std::collections::BTreeSet;

use crate::message::Message;
use crate::refusals as r;

/// Who is connected, as established by its token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Principal {
    /// The chief arbiter (裁判长).
    Chief {
        /// Name from the config.
        name: String,
    },
    /// A deputy referee (副裁判) with the tables assigned in the config.
    Deputy {
        /// Name from the config.
        name: String,
        /// Assigned tables.
        tables: BTreeSet<u32>,
    },
    /// A table terminal (台位终端).
    Table {
        /// Its table number.
        table: u32,
    },
    /// A read-only viewer (public display).
    Viewer {
        /// Name from the config.
        name: String,
    },
}

impl Principal {
    /// The role, without its name or tables.
    pub fn kind(&self) -> RoleKind {
        match self {
            Principal::Chief { .. } => RoleKind::Chief,
            Principal::Deputy { .. } => RoleKind::Deputy,
            Principal::Table { .. } => RoleKind::Table,
            Principal::Viewer { .. } => RoleKind::Viewer,
        }
    }

    /// The role's name: `chief`, `deputy`, `table` or `viewer`.
    pub fn role(&self) -> &'static str {
        self.kind().name()
    }

    /// The principal as the author of a command (a table by its number).
    pub fn author(&self) -> Author {
        let name = match self {
            Principal::Chief { name }
            | Principal::Deputy { name, .. }
            | Principal::Viewer { name } => name.clone(),
            Principal::Table { table } => table.to_string(),
        };
        Author {
            role: self.kind(),
            name,
        }
    }

    /// How the audit trail names this principal: `chief:王志明`,
    /// `deputy:陈立新`, `table:7`, `viewer:大厅显示屏`.
    pub fn who(&self) -> String {
        match self {
            Principal::Chief { name } => format!("chief:{name}"),
            Principal::Deputy { name, .. } => format!("deputy:{name}"),
            Principal::Table { table } => format!("table:{table}"),
            Principal::Viewer { name } => format!("viewer:{name}"),
        }
    }
}

impl From<&crate::Role> for Principal {
    /// The principal a client learns from its `HelloOk` (the chief's and a
    /// viewer's names are not in it: they only appear in refusal texts).
    fn from(role: &crate::Role) -> Principal {
        match role {
            crate::Role::Chief => Principal::Chief {
                name: String::new(),
            },
            crate::Role::Deputy { name, tables } => Principal::Deputy {
                name: name.clone(),
                tables: tables.iter().copied().map(u32::from).collect(),
            },
            crate::Role::Table { table } => Principal::Table {
                table: u32::from(*table),
            },
            crate::Role::Viewer => Principal::Viewer {
                name: String::new(),
            },
        }
    }
}

/// The table whose arbiters may acknowledge an alert of `table`: `None`
/// for the hall's own alerts (table 0), which the chief acknowledges.
pub fn alert_table(table: u16) -> Option<u32> {
    (table != 0).then_some(u32::from(table))
}

/// A role without its name or assigned tables: what a stored command
/// records of its author.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoleKind {
    /// The chief arbiter (裁判长).
    Chief,
    /// A deputy referee (副裁判).
    Deputy,
    /// A table terminal (台位终端).
    Table,
    /// A read-only viewer.
    Viewer,
}

impl RoleKind {
    /// Every role, for exhaustive tests.
    pub const ALL: [RoleKind; 4] = [
        RoleKind::Chief,
        RoleKind::Deputy,
        RoleKind::Table,
        RoleKind::Viewer,
    ];

    /// The role's name: `chief`, `deputy`, `table` or `viewer`.
    pub fn name(self) -> &'static str {
        match self {
            RoleKind::Chief => "chief",
            RoleKind::Deputy => "deputy",
            RoleKind::Table => "table",
            RoleKind::Viewer => "viewer",
        }
    }

    /// The role named `name` (as [`RoleKind::name`] spells it), if any.
    pub fn from_name(name: &str) -> Option<RoleKind> {
        RoleKind::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl std::fmt::Display for RoleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Who gave a command: the role and the name (a table terminal by its
/// number). Displayed as the audit trail names it: `chief:王志明`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    /// The role.
    pub role: RoleKind,
    /// The name from the config.
    pub name: String,
}

impl Author {
    /// An author of `role` named `name`.
    pub fn new(role: RoleKind, name: impl Into<String>) -> Author {
        Author {
            role,
            name: name.into(),
        }
    }

    /// The audit name, `role:name`.
    pub fn who(&self) -> String {
        self.to_string()
    }

    /// The author as a claim records its ruling: the chief, or a deputy
    /// (anyone else) by name.
    pub fn ruling_author(&self) -> RulingAuthor {
        match self.role {
            RoleKind::Chief => RulingAuthor::Chief,
            _ => RulingAuthor::Deputy(self.name.clone()),
        }
    }
}

impl std::fmt::Display for Author {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.role, self.name)
    }
}

/// Kinds of events a table terminal reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableEventKind {
    /// A player arrived / is seated.
    Arrived,
    /// A clock press, with the move and both remaining times.
    ClockPress,
    /// A move entered on the board.
    Move,
    /// Claim of the natural move limit (自然限着).
    ClaimNaturalLimit,
    /// Claim of a repetition ruling (棋例).
    ClaimRepetition,
    /// Draw offer.
    DrawOffer,
    /// Draw accepted.
    DrawAccept,
    /// Resignation.
    Resign,
    /// A player calls the arbiter.
    CallArbiter,
    /// A foul reported from the table.
    FoulReport,
    /// The result as signed at the table.
    Result,
    /// The sealed move (封棋) entered at the table.
    SealedMove,
    /// The terminal acknowledges a command (pause, resume, adjust) with the
    /// times it shows.
    CommandAck,
}

impl TableEventKind {
    /// Every kind, for exhaustive tests.
    pub const ALL: [TableEventKind; 13] = [
        TableEventKind::Arrived,
        TableEventKind::ClockPress,
        TableEventKind::Move,
        TableEventKind::ClaimNaturalLimit,
        TableEventKind::ClaimRepetition,
        TableEventKind::DrawOffer,
        TableEventKind::DrawAccept,
        TableEventKind::Resign,
        TableEventKind::CallArbiter,
        TableEventKind::FoulReport,
        TableEventKind::Result,
        TableEventKind::SealedMove,
        TableEventKind::CommandAck,
    ];

    /// Snake-case name (for logs and the audit trail).
    pub fn name(self) -> &'static str {
        match self {
            TableEventKind::Arrived => "arrived",
            TableEventKind::ClockPress => "clock_press",
            TableEventKind::Move => "move",
            TableEventKind::ClaimNaturalLimit => "claim_natural_limit",
            TableEventKind::ClaimRepetition => "claim_repetition",
            TableEventKind::DrawOffer => "draw_offer",
            TableEventKind::DrawAccept => "draw_accept",
            TableEventKind::Resign => "resign",
            TableEventKind::CallArbiter => "call_arbiter",
            TableEventKind::FoulReport => "foul_report",
            TableEventKind::Result => "result",
            TableEventKind::SealedMove => "sealed_move",
            TableEventKind::CommandAck => "command_ack",
        }
    }
}

/// What a subscription covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The whole hall.
    Hall,
    /// One table.
    Table(u32),
}

/// Who made a ruling that someone wants to override.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulingAuthor {
    /// The chief arbiter.
    Chief,
    /// A deputy, by name.
    Deputy(String),
}

/// Everything a peer can ask the server to do: one variant per protocol
/// message kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A table terminal's event for `table`.
    TableEvent {
        /// Table the event is for.
        table: u32,
        /// Which event.
        kind: TableEventKind,
    },
    /// Subscribe to live views.
    Subscribe {
        /// Hall or one table.
        scope: Scope,
    },
    /// Pause one table's clock.
    PauseTable {
        /// Table.
        table: u32,
    },
    /// Resume one table's clock.
    ResumeTable {
        /// Table.
        table: u32,
    },
    /// Pause every table.
    PauseHall,
    /// Resume every table.
    ResumeHall,
    /// Seal (封棋) the game at a table.
    Seal {
        /// Table.
        table: u32,
    },
    /// Unseal the game at a table.
    Unseal {
        /// Table.
        table: u32,
    },
    /// Rule on a pending claim (accept the recommendation or override it
    /// with a reason).
    RuleOnClaim {
        /// Table.
        table: u32,
    },
    /// Override a ruling already made, by `ruled_by`.
    OverrideRuling {
        /// Table.
        table: u32,
        /// Who made the ruling being overridden.
        ruled_by: RulingAuthor,
    },
    /// Record a foul (犯规).
    RecordFoul {
        /// Table.
        table: u32,
    },
    /// Adjust a clock.
    AdjustClock {
        /// Table.
        table: u32,
    },
    /// Set the result of a game.
    SetResult {
        /// Table.
        table: u32,
    },
    /// Acknowledge an alert (of a table, or a hall-wide one).
    AckAlert {
        /// The alert's table; `None` for hall-wide alerts.
        table: Option<u32>,
    },
    /// Export results and records.
    Export,
    /// Pair and publish the next round (chief only).
    PairRound,
    /// Correct the result of a game of an earlier round (chief only).
    CorrectResult,
    /// Withdraw a published round that has not started (chief only).
    WithdrawRound,
    /// Enter a player late (chief only).
    EnterPlayer,
    /// Withdraw a player from the tournament (chief only).
    WithdrawPlayer,
}

impl Action {
    /// Snake-case name of the action (audit `action` column).
    pub fn name(&self) -> &'static str {
        match self {
            Action::TableEvent { kind, .. } => kind.name(),
            Action::Subscribe { .. } => "subscribe",
            Action::PauseTable { .. } => "pause_table",
            Action::ResumeTable { .. } => "resume_table",
            Action::PauseHall => "pause_hall",
            Action::ResumeHall => "resume_hall",
            Action::Seal { .. } => "seal",
            Action::Unseal { .. } => "unseal",
            Action::RuleOnClaim { .. } => "rule_on_claim",
            Action::OverrideRuling { .. } => "override_ruling",
            Action::RecordFoul { .. } => "record_foul",
            Action::AdjustClock { .. } => "adjust_clock",
            Action::SetResult { .. } => "set_result",
            Action::AckAlert { .. } => "ack_alert",
            Action::Export => "export",
            Action::PairRound => "pair_round",
            Action::CorrectResult => "correct_result",
            Action::WithdrawRound => "withdraw_round",
            Action::EnterPlayer => "enter_player",
            Action::WithdrawPlayer => "withdraw_player",
        }
    }

    /// The table the action concerns, if any.
    pub fn table(&self) -> Option<u32> {
        match self {
            Action::TableEvent { table, .. }
            | Action::PauseTable { table }
            | Action::ResumeTable { table }
            | Action::Seal { table }
            | Action::Unseal { table }
            | Action::RuleOnClaim { table }
            | Action::OverrideRuling { table, .. }
            | Action::RecordFoul { table }
            | Action::AdjustClock { table }
            | Action::SetResult { table } => Some(*table),
            Action::Subscribe {
                scope: Scope::Table(table),
            } => Some(*table),
            Action::AckAlert { table } => *table,
            Action::Subscribe { scope: Scope::Hall }
            | Action::PauseHall
            | Action::ResumeHall
            | Action::Export
            | Action::PairRound
            | Action::CorrectResult
            | Action::WithdrawRound
            | Action::EnterPlayer
            | Action::WithdrawPlayer => None,
        }
    }

    /// True for the arbiter commands a deputy may give on an assigned table.
    fn is_table_command(&self) -> bool {
        matches!(
            self,
            Action::PauseTable { .. }
                | Action::ResumeTable { .. }
                | Action::Seal { .. }
                | Action::Unseal { .. }
                | Action::RuleOnClaim { .. }
                | Action::RecordFoul { .. }
                | Action::AdjustClock { .. }
                | Action::SetResult { .. }
        )
    }
}

/// Why an action was refused; goes into the error reply (a catalogue
/// message, [`crate::refusals`]) and, in English, the audit trail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("refused: {}", message.id)]
pub struct Refusal {
    /// Why, as a catalogue message (`role-*`).
    pub message: Message,
}

fn refuse(message: Message) -> Result<(), Refusal> {
    Err(Refusal { message })
}

/// May `principal` perform `action`?
pub fn authorize(principal: &Principal, action: &Action) -> Result<(), Refusal> {
    match principal {
        Principal::Chief { .. } => Ok(()),
        Principal::Viewer { .. } => match action {
            Action::Subscribe { .. } => Ok(()),
            other => refuse(r::viewer_read_only(other.name())),
        },
        Principal::Table { table: own } => match action {
            Action::TableEvent { table, .. } if table == own => Ok(()),
            Action::TableEvent { table, kind } => {
                refuse(r::table_other_table(*own, kind.name(), *table))
            }
            other => refuse(r::table_only_events(other.name())),
        },
        Principal::Deputy { name, tables } => deputy(name, tables, action),
    }
}

/// May deputy `name` of `tables` perform `action`?
fn deputy(name: &str, tables: &BTreeSet<u32>, action: &Action) -> Result<(), Refusal> {
    let assigned = |t: u32| -> Result<(), Refusal> {
        if tables.contains(&t) {
            Ok(())
        } else {
            let list: Vec<u32> = tables.iter().copied().collect();
            refuse(r::deputy_not_assigned(t, name, &list))
        }
    };
    match action {
        Action::Subscribe { .. } => Ok(()),
        Action::TableEvent { kind, .. } => refuse(r::deputy_table_event(kind.name())),
        a if a.is_table_command() => match a.table() {
            Some(t) => assigned(t),
            None => refuse(r::deputy_no_table()),
        },
        Action::OverrideRuling { table, ruled_by } => match ruled_by {
            RulingAuthor::Chief => refuse(r::deputy_chief_ruling(name)),
            RulingAuthor::Deputy(by) if by != name => refuse(r::deputy_other_deputy(name, by)),
            RulingAuthor::Deputy(_) => assigned(*table),
        },
        Action::AckAlert { table: Some(t) } => assigned(*t),
        Action::AckAlert { table: None } => refuse(r::deputy_hall_alert()),
        Action::PauseHall | Action::ResumeHall => refuse(r::deputy_chief_only(action.name(), name)),
        Action::Export => refuse(r::deputy_export()),
        Action::PairRound => refuse(r::deputy_pair_round(name)),
        Action::CorrectResult => refuse(r::deputy_correct_result(name)),
        Action::WithdrawRound => refuse(r::deputy_withdraw_round(name)),
        Action::EnterPlayer => refuse(r::deputy_enter_player(name)),
        Action::WithdrawPlayer => refuse(r::deputy_withdraw_player(name)),
        // Every table command was handled above.
        other => refuse(r::deputy_cannot(name, other.name())),
    }
}
