//! A connection's writer (写端): sends what the connection's reader and
//! the server queue for it ([`Outbound`]), in order: messages as they
//! are, pipeline replies once committed (awaited in request order),
//! console deltas (once the subscription comes through the same queue),
//! and to a console that fell behind its catch-up by the tables that
//! changed (`catchup.rs`; a whole snapshot only when nothing less will
//! do); every frame that is ready goes out in one write. It runs in the
//! connection's own task, beside the reader (`connection.rs`).
//! Acknowledgements are coalesced ([`Replies`]):
//! consecutive acks of one table and epoch, with the same duplicate flag,
//! leave as the last one, whose `seq` (the table's high-water mark) covers
//! the others (protocol version 4). The reader is `connection.rs`.
//!
//! The room a reply holds in the connection's bound (`room.rs`) is given
//! back once its bytes are handed to QUIC. A write that hands nothing to
//! QUIC for [`STALL`] (the peer gives no credit, acknowledges nothing) ends
//! the writer, and the connection is closed (`stall.rs`).

use std::sync::Arc;

use proto::conn::ServerSender;
use proto::logsafe::escaped;
use proto::{Ack, ErrorCode, ErrorReply, FrameError, RequestRef, ServerMsg};
use tokio::sync::mpsc;

use crate::catchup::Missed;
use crate::ingest::{now_ms, BurstReplies, Reply};
use crate::outq;
use crate::publish::{Frame, Subscriber};
use crate::reply_time::REPLY_TIMES;
use crate::room::{Room, Taken};
use crate::shared::{Outbound, Shared};
use crate::stall::STALL;

/// The connection a writer sends to.
#[derive(Debug)]
pub struct Peer {
    /// The QUIC connection (closed if the peer stops reading).
    pub connection: proto::shell::Connection,
    /// Its principal's audit name.
    pub who: String,
    /// Its room for replies (closed when the writer ends).
    pub room: Room,
}

/// What [`write_loop`] needs (boxed: see `connection::run`).
pub struct Writing {
    pub shared: Arc<Shared>,
    pub peer: Peer,
    pub sender: ServerSender,
    pub out: outq::Receiver<Outbound>,
}

/// Sends everything queued for the connection, in order; awaits pipeline
/// replies in order; forwards console deltas and catches a lagged console
/// up.
/// Closes the connection if the peer stopped reading.
pub async fn write_loop(writing: Box<Writing>) {
    let Writing {
        shared,
        peer,
        sender,
        out,
    } = *writing;
    let mut sender = Replies::new(sender);
    let end = write_all(&shared, &peer.who, &mut sender, out).await;
    peer.room.close();
    if let Err(Stop::Stalled) = end {
        let queued = sender.sender.pending() + peer.room.queued();
        let (stalls, submitter) = (&shared.stalls, &shared.submitter);
        // Boxed: rare, and larger than the loop's own future (issue 40).
        Box::pin(crate::stall::close(
            stalls,
            submitter,
            &peer.connection,
            &peer.who,
            queued,
            now_ms(),
        ))
        .await;
    }
}

/// Why the writer stopped early.
#[derive(Debug)]
enum Stop {
    /// The stream failed or the hall lock is poisoned.
    Gone,
    /// Nothing was handed to QUIC for [`STALL`] with bytes to send.
    Stalled,
}

async fn write_all(
    shared: &Shared,
    who: &str,
    sender: &mut Replies,
    mut out: outq::Receiver<Outbound>,
) -> Result<(), Stop> {
    let mut console: Option<(Arc<Subscriber>, mpsc::Receiver<Frame>)> = None;
    loop {
        let item = tokio::select! {
            biased;
            o = out.recv() => match o {
                Some(o) => Item::Out(o),
                // Boxed: once per connection (issue 40).
                None => return Box::pin(finish(sender)).await,
            },
            f = recv_frame(&mut console) => match f {
                Some(f) => Item::Frame(f),
                None => { console = None; continue; }
            },
        };
        let mut queued = 0usize;
        handle(item, sender, &mut console, &mut queued).await?;
        // Batch: take everything ready without waiting.
        while queued < 256 * 1024 {
            let next = match out.try_recv() {
                Some(o) => Item::Out(o),
                None => match console.as_mut().map(|(_, rx)| rx.try_recv()) {
                    Some(Ok(f)) => Item::Frame(f),
                    _ => break,
                },
            };
            handle(next, sender, &mut console, &mut queued).await?;
        }
        if let Some((sub, rx)) = console.as_mut() {
            // Boxed: rare, and its future would otherwise be part of
            // every connection's (issue 40).
            if sub.lagged() && !Box::pin(catch_up(shared, who, sender, sub, rx)).await? {
                console = None;
            }
        }
        sender.flush().await?;
    }
}

/// What a console that fell behind is sent ([`Publisher::catch_up`]):
/// the frames its queue held, then the deltas it missed other than
/// tables' views and the current view of each table that changed, read
/// under the hall lock for those tables only, in `Deltas` frames of a page
/// each (each page queued once the one before was handed to QUIC); or, when
/// nothing short of one will do, a whole snapshot ([`resnapshot`]). False
/// if the console was unsubscribed (its snapshot does not encode).
///
/// [`Publisher::catch_up`]: crate::publish::Publisher::catch_up
async fn catch_up(
    shared: &Shared,
    who: &str,
    sender: &mut Replies,
    sub: &Subscriber,
    rx: &mut mpsc::Receiver<Frame>,
) -> Result<bool, Stop> {
    enum Send {
        Whole(hall::picture::Picture),
        Changed(Vec<Frame>, crate::catchup::Pages, usize),
    }
    // Under the hall lock only what was missed and the views (shared).
    let send = {
        let Ok(mut hall) = shared.hall.lock() else {
            return Err(Stop::Gone);
        };
        match shared.publisher.catch_up(sub, rx) {
            Missed::Whole => Send::Whole(hall.picture(sub.part())),
            Missed::Changed {
                queued,
                held,
                tables,
            } => {
                let views = hall.views_of(&tables);
                let n = views.len();
                let pages = crate::catchup::Pages::new(held, views, sub.public());
                Send::Changed(queued, pages, n)
            }
        }
    };
    let (queued, mut pages, tables) = match send {
        Send::Whole(picture) => return resnapshot(shared, who, sender, sub, picture).await,
        Send::Changed(queued, pages, tables) => (queued, pages, tables),
    };
    tracing::debug!(
        sub = sub.id,
        tables,
        "console fell behind: catch-up by changed tables"
    );
    for f in &queued {
        sender.queue_raw(f);
    }
    let mut first = true;
    while let Some(frames) = pages.next_page() {
        if !first {
            sender.flush().await?;
        }
        first = false;
        for f in &frames {
            sender.queue_raw(f);
        }
    }
    Ok(true)
}

/// A fresh snapshot of `picture` (taken under the hall lock by
/// [`catch_up`]) for a console that fell behind, sent in pages when the
/// hall does not fit in one (`pages.rs`: each page encoded once the one
/// before was handed to QUIC, so the writer holds one page at a time);
/// false if a page does not fit in a frame: then the console is
/// unsubscribed and sent an error saying so (never a silent drop).
async fn resnapshot(
    shared: &Shared,
    who: &str,
    sender: &mut Replies,
    sub: &Subscriber,
    picture: hall::picture::Picture,
) -> Result<bool, Stop> {
    let mut pages = crate::pages::Pages::new(picture, sub.public(), now_ms());
    tracing::info!(
        sub = sub.id,
        pages = pages.count(),
        "console fell behind: fresh snapshot"
    );
    let tables = pages.tables();
    let paged = pages.count() > 1;
    let error = loop {
        match pages.next_frame() {
            None => return Ok(true),
            Some(Ok(f)) => {
                sender.queue_raw(&f);
                if paged {
                    sender.flush().await?;
                }
            }
            Some(Err(e)) => break e.to_string(),
        }
    };
    shared.publisher.unsubscribe(sub.id);
    tracing::error!(who = %escaped(who), tables, error = %escaped(&error), "the hall's snapshot does not encode: console unsubscribed");
    let reply = ServerMsg::Error(ErrorReply {
        code: ErrorCode::Internal,
        message: proto::refusals::snapshot_too_large(tables, &error, true),
        re: None,
    });
    match sender.queue(&reply) {
        Ok(()) => Ok(false),
        Err(_) => Err(Stop::Gone),
    }
}

/// The writer's frames: an `Ack` is held back while the next reply may
/// replace it (same table, epoch and duplicate flag: its seq, the table's
/// high-water mark, acknowledges everything the held one did) and queued
/// before any other frame and at every flush.
struct Replies {
    sender: ServerSender,
    ack: Option<Ack>,
    /// The room of the replies queued since the last flush.
    held: Vec<Taken>,
}

impl Replies {
    fn new(sender: ServerSender) -> Replies {
        Replies {
            sender,
            ack: None,
            held: Vec::new(),
        }
    }

    fn put_ack(&mut self) {
        if let Some(a) = self.ack.take() {
            if self.sender.queue(&ServerMsg::Ack(a)).is_err() {
                tracing::error!("ack does not encode");
            }
        }
    }

    fn ack(&mut self, a: Ack) {
        match self.ack {
            Some(held)
                if (held.table, held.epoch, held.duplicate) == (a.table, a.epoch, a.duplicate) =>
            {
                self.ack = Some(Ack {
                    seq: held.seq.max(a.seq),
                    ..a
                });
            }
            _ => {
                self.put_ack();
                self.ack = Some(a);
            }
        }
    }

    fn queue(&mut self, msg: &ServerMsg) -> Result<(), FrameError> {
        self.put_ack();
        self.sender.queue(msg)
    }

    fn queue_raw(&mut self, frame: &[u8]) {
        self.put_ack();
        self.sender.queue_raw(frame);
    }

    /// Hands everything queued to QUIC, then gives back its room; stops
    /// when QUIC takes nothing for [`STALL`] (the flush is cancel-safe, so
    /// a timed-out one resumes where it was).
    async fn flush(&mut self) -> Result<(), Stop> {
        self.put_ack();
        let mut progress = tokio::time::Instant::now();
        loop {
            let before = self.sender.pending();
            match tokio::time::timeout(STALL_CHECK, self.sender.flush()).await {
                Ok(Ok(())) => break,
                Ok(Err(_)) => return Err(Stop::Gone),
                Err(_) if self.sender.pending() != before => {
                    progress = tokio::time::Instant::now();
                }
                Err(_) if progress.elapsed() >= STALL => return Err(Stop::Stalled),
                Err(_) => {}
            }
        }
        self.held.clear();
        Ok(())
    }
}

enum Item {
    Out(Outbound),
    Frame(Frame),
}

async fn recv_frame(
    console: &mut Option<(Arc<Subscriber>, mpsc::Receiver<Frame>)>,
) -> Option<Frame> {
    match console {
        Some((_, rx)) => rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn finish(sender: &mut Replies) -> Result<(), Stop> {
    sender.flush().await?;
    let _ = sender.sender.get_mut().finish();
    // Let the last replies (e.g. why the connection is closed) reach the
    // peer before the connection is closed; not long.
    let _ = tokio::time::timeout(FINISH_GRACE, sender.sender.get_mut().stopped()).await;
    Ok(())
}

/// How often a blocked flush looks whether QUIC took anything.
const STALL_CHECK: std::time::Duration = std::time::Duration::from_secs(1);

/// How long a finished stream's last bytes may take to be acknowledged.
const FINISH_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

async fn handle(
    item: Item,
    sender: &mut Replies,
    console: &mut Option<(Arc<Subscriber>, mpsc::Receiver<Frame>)>,
    queued: &mut usize,
) -> Result<(), Stop> {
    use tokio::sync::oneshot::error::TryRecvError;
    match item {
        Item::Out(Outbound::Msg(m)) => {
            if sender.queue(&m).is_err() {
                tracing::error!("reply does not encode");
            }
        }
        Item::Out(Outbound::Frame { frame, room }) => {
            *queued += frame.len();
            sender.queue_raw(&frame);
            sender.held.push(room);
        }
        Item::Out(Outbound::Wait { mut rx, re, room }) => {
            let reply = match rx.try_recv() {
                Ok(r) => Some(r),
                Err(TryRecvError::Closed) => None,
                Err(TryRecvError::Empty) => {
                    // Not committed yet: send what is ready, then wait.
                    sender.flush().await?;
                    rx.await.ok()
                }
            };
            queue_reply(reply, re, sender);
            sender.held.push(room);
        }
        Item::Out(Outbound::Burst { mut rx, res, room }) => {
            let answered = match rx.try_recv() {
                Ok(r) => Some(r),
                Err(TryRecvError::Closed) => None,
                Err(TryRecvError::Empty) => {
                    sender.flush().await?;
                    rx.await.ok()
                }
            };
            let replies = match answered {
                Some(BurstReplies { replies, queued_at }) => {
                    REPLY_TIMES.record(queued_at.elapsed(), replies.len());
                    replies
                }
                None => Vec::new(),
            };
            *queued += 64 * res.len();
            // A reply missing (the pipeline stopped) is answered as such.
            let mut replies = replies.into_iter();
            for re in res {
                queue_reply(replies.next(), re, sender);
            }
            sender.held.push(room);
        }
        Item::Out(Outbound::Subscribe(sub, rx)) => *console = Some((sub, rx)),
        Item::Out(Outbound::Unsubscribe) => *console = None,
        Item::Frame(f) => {
            *queued += f.len();
            sender.queue_raw(&f);
            if let Some((sub, _)) = console.as_ref() {
                sub.taken(f.len());
            }
        }
    }
    *queued += 64;
    Ok(())
}

fn queue_reply(reply: Option<Reply>, re: RequestRef, sender: &mut Replies) {
    let msg = match reply {
        Some(Reply::Ack(a)) => return sender.ack(a),
        Some(Reply::Error(e)) => ServerMsg::Error(e),
        Some(Reply::Done(Ok(note))) => match re {
            RequestRef::Command { id } => ServerMsg::CommandOk { id, note },
            RequestRef::Event { .. } => return,
        },
        Some(Reply::Done(Err((code, message)))) => ServerMsg::Error(ErrorReply {
            code,
            message,
            re: Some(re),
        }),
        None => ServerMsg::Error(ErrorReply {
            code: ErrorCode::Unavailable,
            message: proto::refusals::stopped_before_storing(),
            re: Some(re),
        }),
    };
    if sender.queue(&msg).is_err() {
        tracing::error!("reply does not encode");
    }
}
