//! A connection's room for replies (回复限额): a bound in bytes on what the
//! connection has queued for sending, with backpressure.
//!
//! The reader reserves room for each reply before queueing it
//! ([`Room::reserve`]), and waits while the connection is over its bound:
//! so while a peer does not take what it is sent, the server stops reading
//! its requests, and QUIC flow control pushes back on the peer (nothing
//! piles up in the server). The writer gives the room back once the bytes
//! are handed to QUIC (`writer.rs`), whose own send buffer is bounded by
//! the connection's send window ([`SEND_WINDOW`]). One reply larger than
//! the bound (a hall snapshot) takes the whole bound, so it goes out alone.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Bytes of replies a signed-in connection may have queued in the server
/// (in its queue and in its writer's buffer): 256 KiB.
pub const SIGNED_IN: usize = 256 * 1024;

/// Bytes QUIC may hold to send to a signed-in connection (its send
/// window: written and not yet acknowledged): 256 KiB. Before sign-in the
/// window is `proto::tls::SERVER_SEND_WINDOW` (64 KiB).
pub const SEND_WINDOW: u64 = 256 * 1024;

/// Bytes counted for a reply the pipeline has not given yet (an ack, a
/// command's answer).
pub const SMALL_REPLY: usize = 64;

/// The room of one connection.
#[derive(Debug, Clone)]
pub struct Room {
    bytes: Arc<Semaphore>,
    bound: usize,
}

/// Room taken by one queued reply, given back when dropped.
pub type Taken = OwnedSemaphorePermit;

impl Room {
    /// Room for `bound` bytes.
    pub fn new(bound: usize) -> Room {
        Room {
            bytes: Arc::new(Semaphore::new(bound)),
            bound,
        }
    }

    /// Waits until `bytes` (at most the bound) fit, and takes them; `None`
    /// once the room is closed (the writer is gone).
    pub async fn reserve(&self, bytes: usize) -> Option<Taken> {
        let n = u32::try_from(bytes.clamp(1, self.bound)).unwrap_or(u32::MAX);
        self.bytes.clone().acquire_many_owned(n).await.ok()
    }

    /// Bytes queued now.
    pub fn queued(&self) -> usize {
        self.bound.saturating_sub(self.bytes.available_permits())
    }

    /// Ends every wait (the connection is closing).
    pub fn close(&self) {
        self.bytes.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_room_makes_the_reader_wait_until_the_writer_gives_back() {
        let room = Room::new(1_000);
        let a = room.reserve(600).await.expect("room");
        let big = room.reserve(5_000);
        tokio::pin!(big);
        // Over the bound: the next reply waits (the reader reads nothing meanwhile).
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(50), &mut big)
                .await
                .is_err()
        );
        // The waiting reply holds what is left (first come, first served).
        assert_eq!(room.queued(), 1_000);
        drop(a);
        // A reply larger than the bound takes all of it, alone.
        let b = big.await.expect("room");
        assert_eq!(room.queued(), 1_000);
        drop(b);
        room.close();
        assert!(room.reserve(1).await.is_none());
    }
}
