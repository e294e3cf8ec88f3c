//! State shared by the server's tasks: the hall behind its lock, the console
//! publisher, the authenticator, the connection counts (admission), the
//! links to connected table terminals (for controls), the pipeline's
//! submitter, the console export's source and the fatal-error signal.
//!
//! Built complete, once: the server builds every part first (the hall
//! rebuilt, the submitter's channel, the export source) and then this
//! struct; nothing in it is set or swapped later. The snapshotter is not
//! here: the committer owns it (`ingest.rs`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use proto::{ControlToTable, RequestRef, ServerMsg};
use tokio::sync::{mpsc, oneshot, watch};

use crate::export::command::Source;

use crate::admission::Admission;
use crate::auth::Authenticator;
use crate::publish::{Frame, Publisher, Subscriber};
use crate::reads::{Pace, TableLogs};
use crate::refusals::Refusals;
use crate::room::Taken;
use crate::stages::Stages;
use crate::stall::Stalls;
use crate::submit::{BurstReplies, Reply, Submitter};
use crate::takeover::Takeovers;
use config::PeerLimits;
use hall::hall::Hall;

/// Something a connection's writer sends, in order. The reader's replies
/// hold their room in the connection's bound (`room.rs`) until the writer
/// has handed them to QUIC; the server's own pushes (controls, the
/// takeover notice) are few and small, bounded by the queue's length.
#[derive(Debug)]
pub enum Outbound {
    /// A message of the server's own to send as is.
    Msg(Box<ServerMsg>),
    /// A reply, encoded (shared when it is a cached table log).
    Frame {
        /// The frame.
        frame: Frame,
        /// Its room.
        room: Taken,
    },
    /// Wait for the pipeline's reply to a request, then send it.
    Wait {
        /// The reply to come.
        rx: oneshot::Receiver<Reply>,
        /// The request it answers.
        re: RequestRef,
        /// Its room.
        room: Taken,
    },
    /// Wait for the pipeline's replies to a burst of table events (one
    /// per event, in order), then send them.
    Burst {
        /// The replies to come.
        rx: oneshot::Receiver<BurstReplies>,
        /// The requests they answer, in order.
        res: Vec<RequestRef>,
        /// Its room (given back once the replies are written).
        room: Taken,
    },
    /// The console subscribed: from here on the writer also forwards its
    /// deltas (after the snapshot pages queued before this). Sent through
    /// this queue, not a channel of its own, so that a table's connection,
    /// which never subscribes, holds no second channel (issue 40).
    Subscribe(Arc<Subscriber>, mpsc::Receiver<Frame>),
    /// The console unsubscribed: the writer drops its queue here, so that
    /// nothing queued for that subscription follows what comes after (a
    /// console subscribing again for a fresh picture gets its snapshot,
    /// then only the new subscription's deltas).
    Unsubscribe,
}

/// The writer queue of one connected table terminal.
#[derive(Debug, Clone)]
pub struct TableLink {
    /// Connection id (a newer connection of the same table replaces it).
    pub conn: u64,
    /// The connection's writer queue.
    pub tx: crate::outq::Sender<Outbound>,
    /// The connection (closed when a newer one of the table replaces it).
    pub connection: proto::shell::Connection,
}

/// Shared by every task of one server.
#[derive(Debug)]
pub struct Shared {
    /// The hall.
    pub hall: Mutex<Hall>,
    /// Console fan-out.
    pub publisher: Publisher,
    /// The broadcast's public events (`public.rs`).
    pub public: crate::public::PublicTaps,
    /// Tokens to principals.
    pub auth: Authenticator,
    /// Connection counts and limits.
    pub admission: Arc<Admission>,
    /// Refusals per principal and window (bounded audit entries).
    pub refusals: Refusals,
    /// Takeovers of a table by a newer terminal (bounded audit entries).
    pub takeovers: Takeovers,
    /// Connected table terminals.
    pub links: Mutex<HashMap<u16, TableLink>>,
    /// The pipeline (each task clones the handle it needs).
    pub submitter: Submitter,
    /// Set once when the server must stop because of a fatal error.
    pub fatal_tx: watch::Sender<Option<String>>,
    /// Where the console's `ExportRound` exports from.
    pub export: Arc<Source>,
    /// Time per stage of the pipeline (the committer adds to it).
    pub stages: Stages,
    /// Encoded table logs.
    pub table_logs: TableLogs,
    /// The pace of each principal's large reads.
    pub reads: Pace,
    /// The pace of each principal's subscriptions (refused past it).
    pub subscriptions: Pace,
    /// Stall alerts per principal.
    pub stalls: Stalls,
    /// The last round published in the running hall and its first `gseq`
    /// (a hall on PostgreSQL records it with the hall, `halls_round`).
    pub round_started: watch::Sender<Option<(u32, u64)>>,
    next_conn: AtomicU64,
}

impl Shared {
    /// Shared state for a hall, from its parts: the rebuilt `hall`, the
    /// authenticator, the connection limits, the pipeline's `submitter`
    /// and the export source.
    pub fn new(
        hall: Hall,
        auth: Authenticator,
        limits: PeerLimits,
        submitter: Submitter,
        export: Arc<Source>,
    ) -> Shared {
        let (fatal_tx, _) = watch::channel(None);
        Shared {
            hall: Mutex::new(hall),
            publisher: Publisher::default(),
            public: crate::public::PublicTaps::default(),
            auth,
            admission: Admission::new(limits),
            refusals: Refusals::default(),
            takeovers: Takeovers::default(),
            links: Mutex::new(HashMap::new()),
            submitter,
            fatal_tx,
            export,
            stages: Stages::default(),
            table_logs: TableLogs::default(),
            reads: Pace::reads(),
            subscriptions: Pace::subscriptions(),
            stalls: Stalls::default(),
            round_started: watch::channel(None).0,
            next_conn: AtomicU64::new(0),
        }
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Signals a fatal error: the server stops.
    pub fn fatal(&self, why: String) {
        self.fatal_tx.send_replace(Some(why));
    }

    /// Closes every table terminal's connection with `why` (a new round:
    /// each signs in again and gets its new pairing in the hello).
    pub fn disconnect_tables(&self, why: &str) {
        let Ok(links) = self.links.lock() else {
            return;
        };
        for l in links.values() {
            l.connection.close(0u32.into(), why.as_bytes());
        }
    }

    /// Forwards controls to the table terminals that are connected (without waiting).
    pub fn send_controls(&self, controls: Vec<(u16, u64, ControlToTable)>) {
        if controls.is_empty() {
            return;
        }
        let Ok(links) = self.links.lock() else {
            return;
        };
        for (table, id, control) in controls {
            if let Some(l) = links.get(&table) {
                let msg = ServerMsg::Control { id, table, control };
                if l.tx.try_send(Outbound::Msg(Box::new(msg))).is_err() {
                    tracing::warn!(
                        table,
                        id,
                        "table terminal's queue is full or closed; control not sent now"
                    );
                }
            }
        }
    }
}
