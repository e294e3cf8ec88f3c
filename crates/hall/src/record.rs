//! What the server writes to the store (记录): table events, accepted
//! console commands (who, role, command), refusals for the audit trail, and
//! server notes (a terminal going offline or online, time-based alerts from
//! the ticker). Replaying these records in store order rebuilds the hall.
//!
//! Encoding: a one-byte tag, then for events and commands the protocol's
//! own wire encoding (`proto::WireMessage`, so bincode stays inside
//! proto's codec) and for refusals and notes JSON.

use proto::codec::WireMessage;
use proto::roles::{Author, RoleKind};
use proto::{ClientMsg, Command, EventEnvelope, Message, Side};
use serde::{Deserialize, Serialize};

/// A server note: something the server itself observed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Note {
    /// A table terminal connected (`true`) or its connection ended.
    Online {
        /// Table.
        table: u16,
        /// Connected or not.
        online: bool,
    },
    /// The running side's clock reached zero by the server's extrapolation.
    FlagFall {
        /// Table.
        table: u16,
        /// The side whose flag fell.
        #[serde(with = "side_serde")]
        side: Side,
    },
    /// A player absent at the no-show time after the start.
    NoShow {
        /// Table.
        table: u16,
        /// The absent side.
        #[serde(with = "side_serde")]
        side: Side,
    },
    /// A terminal disconnected and not back within the grace period.
    OfflineAlert {
        /// Table.
        table: u16,
        /// Since when it is disconnected.
        since_ms: u64,
    },
    /// A principal passed the threshold of refused requests in one window
    /// (`server::refusals`): raises one alert to the arbiters. The
    /// refusals past the threshold are stored as one counted entry when
    /// the window ends.
    RefusedCommands {
        /// Audit name of the principal (`viewer:大厅显示屏`).
        who: String,
        /// Refusals stored one by one in the window before this note.
        threshold: u32,
        /// Length of the window, seconds.
        window_s: u32,
    },
    /// A stored record that did not decode on start was set aside by the
    /// operator's choice (`caipan serve --quarantine-undecodable`): the
    /// hall's state does not include it. Raises one hall-wide alert per
    /// record.
    RecordQuarantined {
        /// Where the record is in the store.
        gseq: u64,
        /// Why it does not decode.
        error: String,
    },
    /// A side not at the board when the adjourned game's resumption limit
    /// passed (AXF-REF-L).
    LateResumption {
        /// Table.
        table: u16,
        /// When the game was resumed (unsealed).
        resumed_at_ms: u64,
        /// The absent side.
        #[serde(with = "side_serde")]
        side: Side,
    },
    /// A newer terminal of the table signed in while an older one was
    /// connected, and took the table over (a laptop swap; the older one was
    /// told to stop). Raises a "terminal replaced" alert.
    TerminalReplaced {
        /// Table.
        table: u16,
    },
    /// Two terminals keep taking the table from each other (a takeover
    /// within seconds of the last): stored once per fight, raising one
    /// "two terminals" alert; the fight's takeovers are counted, not stored.
    TerminalsFighting {
        /// Table.
        table: u16,
    },
    /// A signed-in client stopped reading what the server sent it and was
    /// disconnected (`server::stall`): one hall-wide alert, at most one
    /// per principal a minute.
    StoppedReading {
        /// Audit name of the principal (`viewer:大厅显示屏`).
        who: String,
        /// Seconds without progress before it was closed.
        after_s: u32,
    },
    /// The count of a fight that ended (no takeover for a while): one
    /// entry for all its takeovers.
    TerminalsFought {
        /// Table.
        table: u16,
        /// Takeovers counted in the fight (after the first).
        takeovers: u64,
        /// How long it lasted, seconds.
        seconds: u64,
    },
}

mod side_serde {
    use proto::Side;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(s: &Side, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(match s {
            Side::Red => "red",
            Side::Black => "black",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        match String::deserialize(d)?.as_str() {
            "red" => Ok(Side::Red),
            "black" => Ok(Side::Black),
            other => Err(serde::de::Error::custom(format!("bad side {other:?}"))),
        }
    }
}

/// One stored record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// A table terminal's event.
    Event(EventEnvelope),
    /// An accepted console command.
    Command {
        /// Who gave it (stored as the audit name `chief:王` and the role
        /// name `chief`).
        author: Author,
        /// The command.
        command: Command,
    },
    /// A refused request (authorization or state), for the audit trail.
    Refused {
        /// Who asked.
        who: String,
        /// What was asked, in words.
        what: String,
        /// The table concerned.
        table: Option<u16>,
        /// Why it was refused.
        why: String,
        /// What was asked, typed (`audit-*`; `what` is its English);
        /// `None` in a record stored before protocol 10.
        what_msg: Option<Message>,
        /// Why, typed (the refusal's own message; `why` is its English);
        /// `None` in a record stored before protocol 10.
        why_msg: Option<Message>,
    },
    /// A server note.
    Note(Note),
}

/// A refused record as stored: JSON, the typed messages (since protocol
/// 10) as hex of their bincode encoding (standard config, `proto::codec`),
/// left out when absent so that a record without them is stored byte for
/// byte as before.
#[derive(Serialize, Deserialize)]
struct RefusedJson {
    who: String,
    what: String,
    table: Option<u16>,
    why: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    what_msg: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    why_msg: Option<String>,
}

/// Longest encoded message read back from a stored record (a refusal's
/// texts are cut to a few hundred bytes before they are stored).
const MAX_MESSAGE: usize = 64 * 1024;

/// A message as hex of its bincode encoding.
fn message_hex(m: &Message) -> Result<String, RecordError> {
    let bytes = encode_message(m)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A message read back from [`message_hex`].
fn message_of_hex(hex: &str) -> Result<Message, RecordError> {
    let bad = || RecordError::Corrupt("a typed message is not hex".into());
    if hex.len() % 2 != 0 || hex.len() > 2 * MAX_MESSAGE {
        return Err(bad());
    }
    let bytes = (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(bad)?;
    decode_message(&bytes)
}

/// A typed audit message as the store keeps it (the audit table's
/// `action_msg` / `why_msg` columns): bincode, standard config.
pub fn encode_message(m: &Message) -> Result<Vec<u8>, RecordError> {
    proto::codec::encode_value(m).map_err(|e| RecordError::Corrupt(e.to_string()))
}

/// A typed audit message read back from [`encode_message`]'s bytes.
pub fn decode_message(bytes: &[u8]) -> Result<Message, RecordError> {
    proto::codec::decode_value::<Message, MAX_MESSAGE>(bytes)
        .map_err(|e| RecordError::Corrupt(format!("a typed message does not decode: {e}")))
}

/// Why a stored record could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Empty or unknown tag.
    #[error("record: unknown tag {0:?}")]
    Tag(Option<u8>),
    /// The payload is corrupt.
    #[error("record: corrupt payload: {0}")]
    Corrupt(String),
}

const TAG_EVENT: u8 = 1;
const TAG_COMMAND: u8 = 2;
const TAG_REFUSED: u8 = 3;
const TAG_NOTE: u8 = 4;

impl Record {
    /// Encodes the record for the store.
    pub fn encode(&self) -> Result<Vec<u8>, RecordError> {
        let bad = |e: &dyn std::fmt::Display| RecordError::Corrupt(e.to_string());
        let mut out = Vec::with_capacity(64);
        match self {
            Record::Event(env) => {
                out.push(TAG_EVENT);
                proto::codec::encode_event_into(env, &mut out).map_err(|e| bad(&e))?;
            }
            Record::Command { author, command } => {
                out.push(TAG_COMMAND);
                for s in [&author.who(), author.role.name()] {
                    let b = s.as_bytes();
                    let len = u16::try_from(b.len()).map_err(|e| bad(&e))?;
                    out.extend_from_slice(&len.to_be_bytes());
                    out.extend_from_slice(b);
                }
                ClientMsg::Command {
                    id: 0,
                    command: command.clone(),
                }
                .encode_into(&mut out)
                .map_err(|e| bad(&e))?;
            }
            Record::Refused {
                who,
                what,
                table,
                why,
                what_msg,
                why_msg,
            } => {
                out.push(TAG_REFUSED);
                let j = RefusedJson {
                    who: who.clone(),
                    what: what.clone(),
                    table: *table,
                    why: why.clone(),
                    what_msg: what_msg.as_ref().map(message_hex).transpose()?,
                    why_msg: why_msg.as_ref().map(message_hex).transpose()?,
                };
                serde_json::to_writer(&mut out, &j).map_err(|e| bad(&e))?;
            }
            Record::Note(n) => {
                out.push(TAG_NOTE);
                serde_json::to_writer(&mut out, n).map_err(|e| bad(&e))?;
            }
        }
        Ok(out)
    }

    /// Decodes a stored record.
    pub fn decode(bytes: &[u8]) -> Result<Record, RecordError> {
        let bad = |e: &dyn std::fmt::Display| RecordError::Corrupt(e.to_string());
        let (&tag, rest) = bytes.split_first().ok_or(RecordError::Tag(None))?;
        match tag {
            TAG_EVENT => match ClientMsg::decode(rest).map_err(|e| bad(&e))? {
                ClientMsg::Event(env) => Ok(Record::Event(env)),
                _ => Err(RecordError::Corrupt("event record without an event".into())),
            },
            TAG_COMMAND => {
                let mut at = 0usize;
                let mut strs = Vec::with_capacity(2);
                for _ in 0..2 {
                    let len_bytes = rest
                        .get(at..at + 2)
                        .ok_or_else(|| RecordError::Corrupt("short command header".into()))?;
                    let len = u16::from_be_bytes([len_bytes[0], len_bytes[1]]) as usize;
                    at += 2;
                    let s = rest
                        .get(at..at + len)
                        .ok_or_else(|| RecordError::Corrupt("short command header".into()))?;
                    strs.push(String::from_utf8(s.to_vec()).map_err(|e| bad(&e))?);
                    at += len;
                }
                let role = strs.pop().unwrap_or_default();
                let who = strs.pop().unwrap_or_default();
                let author = author_of(&who, &role)?;
                match ClientMsg::decode(&rest[at..]).map_err(|e| bad(&e))? {
                    ClientMsg::Command { command, .. } => Ok(Record::Command { author, command }),
                    _ => Err(RecordError::Corrupt(
                        "command record without a command".into(),
                    )),
                }
            }
            TAG_REFUSED => {
                let j: RefusedJson = serde_json::from_slice(rest).map_err(|e| bad(&e))?;
                Ok(Record::Refused {
                    who: j.who,
                    what: j.what,
                    table: j.table,
                    why: j.why,
                    what_msg: j.what_msg.as_deref().map(message_of_hex).transpose()?,
                    why_msg: j.why_msg.as_deref().map(message_of_hex).transpose()?,
                })
            }
            TAG_NOTE => Ok(Record::Note(
                serde_json::from_slice(rest).map_err(|e| bad(&e))?,
            )),
            other => Err(RecordError::Tag(Some(other))),
        }
    }

    /// The table the record concerns, if any.
    pub fn table(&self) -> Option<u16> {
        match self {
            Record::Event(e) => Some(e.table),
            Record::Command { command, .. } => command.table(),
            Record::Refused { table, .. } => *table,
            Record::Note(
                Note::Online { table, .. }
                | Note::FlagFall { table, .. }
                | Note::NoShow { table, .. }
                | Note::OfflineAlert { table, .. }
                | Note::LateResumption { table, .. }
                | Note::TerminalReplaced { table }
                | Note::TerminalsFighting { table }
                | Note::TerminalsFought { table, .. },
            ) => Some(*table),
            Record::Note(
                Note::RefusedCommands { .. }
                | Note::RecordQuarantined { .. }
                | Note::StoppedReading { .. },
            ) => None,
        }
    }
}

/// The author of a stored command: the role by its name, the name after
/// the role in the audit name (`chief:王` → 王).
fn author_of(who: &str, role: &str) -> Result<Author, RecordError> {
    let role = RoleKind::from_name(role)
        .ok_or_else(|| RecordError::Corrupt(format!("unknown role {role:?}")))?;
    let name = who.split_once(':').map_or(who, |(_, n)| n);
    Ok(Author::new(role, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proto::TableEvent;

    #[test]
    fn every_kind_round_trips() {
        let recs = vec![
            Record::Event(EventEnvelope {
                table: 3,
                epoch: 1,
                seq: 9,
                body: TableEvent::Arrived { side: Side::Red },
            }),
            Record::Command {
                author: Author::new(RoleKind::Chief, "王"),
                command: Command::PauseHall {
                    reason: "停电".into(),
                },
            },
            Record::Refused {
                who: "viewer:x".into(),
                what: "pause".into(),
                table: Some(2),
                why: "read-only".into(),
                what_msg: None,
                why_msg: None,
            },
            Record::Refused {
                who: "viewer:x".into(),
                what: "pause table 2: 停电".into(),
                table: Some(2),
                why: "read-only".into(),
                what_msg: Some(
                    Message::new("audit-pause-table")
                        .int("table", 2)
                        .verbatim("reason", "停电"),
                ),
                why_msg: Some(proto::refusals::viewer_read_only("pause_table")),
            },
            Record::Note(Note::NoShow {
                table: 4,
                side: Side::Black,
            }),
            Record::Note(Note::RefusedCommands {
                who: "viewer:大厅显示屏".into(),
                threshold: 10,
                window_s: 60,
            }),
            Record::Note(Note::RecordQuarantined {
                gseq: 17,
                error: "record: unknown tag Some(238)".into(),
            }),
            Record::Note(Note::TerminalReplaced { table: 5 }),
            Record::Note(Note::TerminalsFighting { table: 5 }),
            Record::Note(Note::StoppedReading {
                who: "viewer:大厅显示屏".into(),
                after_s: 10,
            }),
            Record::Note(Note::TerminalsFought {
                table: 5,
                takeovers: 3_920,
                seconds: 4,
            }),
        ];
        for r in recs {
            let b = r.encode().unwrap();
            assert_eq!(Record::decode(&b).unwrap(), r);
        }
        assert!(Record::decode(&[]).is_err());
        assert!(Record::decode(&[2, 0]).is_err());
        // A refusal without typed messages is stored as before protocol 10.
        let old = Record::Refused {
            who: "viewer:x".into(),
            what: "pause".into(),
            table: Some(2),
            why: "read-only".into(),
            what_msg: None,
            why_msg: None,
        };
        let b = old.encode().unwrap();
        assert_eq!(
            &b[1..],
            br#"{"who":"viewer:x","what":"pause","table":2,"why":"read-only"}"#
        );
        // A damaged typed message is an error, not a panic.
        let bad = br#"{"who":"v","what":"p","table":null,"why":"w","why_msg":"zz"}"#;
        let mut rec = vec![TAG_REFUSED];
        rec.extend_from_slice(bad);
        assert!(Record::decode(&rec).is_err());
        assert!(Record::decode(&[9]).is_err());
    }

    #[test]
    fn a_command_is_stored_with_its_audit_name_and_role_name() {
        let r = Record::Command {
            author: Author::new(RoleKind::Deputy, "李"),
            command: Command::ResumeHall,
        };
        let b = r.encode().unwrap();
        let who = "deputy:李".as_bytes();
        let mut head = vec![TAG_COMMAND, 0, who.len() as u8];
        head.extend_from_slice(who);
        head.extend_from_slice(&[0, 6]);
        head.extend_from_slice(b"deputy");
        assert_eq!(&b[..head.len()], &head[..]);
        // A role no principal has does not decode.
        let mut bad = b.clone();
        let at = head.len() - 6;
        bad[at..head.len()].copy_from_slice(b"deputx");
        let err = Record::decode(&bad).unwrap_err();
        assert!(err.to_string().contains("unknown role"), "{err}");
    }
}
