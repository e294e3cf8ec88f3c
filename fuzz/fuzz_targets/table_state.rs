//! Fuzz target: the hall's table state machines (server::hall::Hall::apply,
//! what ingest and rebuild run for every stored record). The input is cut
//! into chunks (a length byte, then that many bytes); each chunk that
//! decodes as a client message becomes a record: an event as the table's
//! event, a command as the chief's accepted command, a ping as a server
//! note. Applying any sequence must never panic; the hall's view and the
//! time-based notes are computed after each record.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use proto::codec::WireMessage;
use proto::ClientMsg;
use server::config::HallConfig;
use server::record::{Note, Record};

const CONFIG: &str = r#"
rules = "axf"
[tournament]
name = "fuzz"
site = "fuzz"
date = "2026-11-29"
kind = "swiss"
current_round = 1
[time_control]
kind = "fischer"
base_minutes = 80
increment_seconds = 30
[server]
listen = "127.0.0.1:0"
data_dir = "data"
[credentials.chief]
name = "chief"
token = "fuzz-chief-token-0123456789"
[[credentials.table]]
table = 1
token = "fuzz-table-1-token-0123456789"
[[credentials.table]]
table = 2
token = "fuzz-table-2-token-0123456789"
[[round]]
number = 1
[[round.table]]
table = 1
red = "甲"
black = "乙"
[[round.table]]
table = 2
red = "丙"
black = "丁"
"#;

fn config() -> &'static HallConfig {
    static C: OnceLock<HallConfig> = OnceLock::new();
    C.get_or_init(|| {
        HallConfig::from_toml_str(CONFIG, std::path::Path::new("/tmp"), &|_| None)
            .expect("fuzz config")
    })
}

fuzz_target!(|data: &[u8]| {
    let mut hall = server::rebuild::hall_from_config(config());
    let mut now = 1_764_400_000_000u64;
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        let len = usize::from(len).min(tail.len());
        let (chunk, tail) = tail.split_at(len);
        rest = tail;
        let rec = match ClientMsg::decode(chunk) {
            Ok(ClientMsg::Event(env)) => Record::Event(env),
            Ok(ClientMsg::Command { command, .. }) => Record::Command {
                who: "chief:chief".into(),
                role: "chief".into(),
                command,
            },
            Ok(ClientMsg::Ping { nonce }) => Record::Note(match nonce % 4 {
                0 => Note::Online {
                    table: (nonce >> 8) as u16 % 3,
                    online: nonce & 16 != 0,
                },
                1 => Note::FlagFall {
                    table: (nonce >> 8) as u16 % 3,
                    side: proto::Side::Red,
                },
                2 => Note::NoShow {
                    table: (nonce >> 8) as u16 % 3,
                    side: proto::Side::Black,
                },
                _ => Note::OfflineAlert {
                    table: (nonce >> 8) as u16 % 3,
                    since_ms: nonce >> 16,
                },
            }),
            _ => continue,
        };
        now += u64::from(len as u8) * 1_000;
        let _ = hall.apply(&rec, now);
        let _ = hall.take_effects();
        let _ = server::server::due_notes(&hall, now);
        let _ = hall.snapshot(now);
    }
});
