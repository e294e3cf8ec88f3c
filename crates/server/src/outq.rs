//! A connection's writer queue (写队列, issue 40): a bounded
//! many-senders, one-receiver queue whose memory follows what it holds.
//!
//! tokio's `mpsc` keeps its items in blocks of 32 slots, allocates the
//! first when the channel is made and, once 32 items have passed, a
//! second, and keeps both for the channel's life (a block read to the end
//! is put back at the tail for reuse). With 48-byte [`Outbound`] slots
//! that was about 1.6 KB per connection at the start and 3.2 KB once it
//! had carried 32 replies: 32 MB at 10,000 tables pressing, where a table
//! has one or two replies queued at a time. This queue is a `VecDeque`
//! under a lock (nothing until the first item, 4 slots for a table's
//! handful, given back whenever it empties),
//! a semaphore of the bound's permits (a sender waits for room as with
//! `mpsc::Sender::send`) and a [`Notify`] waking the receiver.
//!
//! Semantics kept from `tokio::sync::mpsc` (bounded): FIFO; `send` waits
//! for room and fails once the receiver is gone; `try_send` fails when
//! full or closed; `recv` yields every item sent, then `None` once every
//! sender is gone; `recv` is cancel-safe (the receiver's `select!`).
//!
//! [`Outbound`]: crate::shared::Outbound

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{Notify, Semaphore};

struct Inner<T> {
    items: Mutex<VecDeque<T>>,
    /// One permit per free place; closed when the receiver is gone.
    room: Semaphore,
    /// Wakes the receiver (an item, or the last sender gone).
    ready: Notify,
    senders: AtomicUsize,
}

impl<T> Inner<T> {
    fn items(&self) -> MutexGuard<'_, VecDeque<T>> {
        // A panic while pushing or popping leaves the deque whole.
        self.items.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The sending side (cloned for the table's link).
pub struct Sender<T> {
    inner: Arc<Inner<T>>,
}

/// The receiving side (the connection's writer).
pub struct Receiver<T> {
    inner: Arc<Inner<T>>,
}

/// Why `try_send` gave the item back.
#[derive(Debug, PartialEq, Eq)]
pub enum TrySendError<T> {
    /// The queue holds its bound.
    Full(T),
    /// The receiver is gone.
    Closed(T),
}

/// A queue of at most `bound` items.
pub fn channel<T>(bound: usize) -> (Sender<T>, Receiver<T>) {
    let inner = Arc::new(Inner {
        items: Mutex::new(VecDeque::new()),
        room: Semaphore::new(bound),
        ready: Notify::new(),
        senders: AtomicUsize::new(1),
    });
    (
        Sender {
            inner: inner.clone(),
        },
        Receiver { inner },
    )
}

impl<T> Sender<T> {
    /// Queues `item`, waiting for room; gives it back if the receiver is
    /// gone.
    pub async fn send(&self, item: T) -> Result<(), T> {
        match self.inner.room.acquire().await {
            Ok(permit) => {
                permit.forget();
                self.push(item);
                Ok(())
            }
            Err(_) => Err(item),
        }
    }

    /// Queues `item` if there is room now.
    pub fn try_send(&self, item: T) -> Result<(), TrySendError<T>> {
        match self.inner.room.try_acquire() {
            Ok(permit) => {
                permit.forget();
                self.push(item);
                Ok(())
            }
            Err(tokio::sync::TryAcquireError::NoPermits) => Err(TrySendError::Full(item)),
            Err(tokio::sync::TryAcquireError::Closed) => Err(TrySendError::Closed(item)),
        }
    }

    fn push(&self, item: T) {
        self.inner.items().push_back(item);
        self.inner.ready.notify_one();
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        self.inner.senders.fetch_add(1, Ordering::Relaxed);
        Sender {
            inner: self.inner.clone(),
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        if self.inner.senders.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.inner.ready.notify_one();
        }
    }
}

impl<T> std::fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("outq::Sender")
            .field("free", &self.inner.room.available_permits())
            .finish()
    }
}

impl<T> Receiver<T> {
    /// The next item, waiting for one; `None` once the queue is empty and
    /// every sender gone. Cancel-safe: an item is only taken when returned.
    pub async fn recv(&mut self) -> Option<T> {
        loop {
            if let Some(item) = self.try_recv() {
                return Some(item);
            }
            if self.inner.senders.load(Ordering::Acquire) == 0 {
                // A last item may have come before the last sender left.
                return self.try_recv();
            }
            self.inner.ready.notified().await;
        }
    }

    /// The next item if one is queued.
    pub fn try_recv(&mut self) -> Option<T> {
        let mut items = self.inner.items();
        let item = items.pop_front()?;
        if items.is_empty() {
            // Given back whenever it empties: an idle connection holds no
            // slots (4 × 48 bytes at 10,000 tables were 1.9 MiB), for an
            // allocation and a free a burst of replies.
            *items = VecDeque::new();
        }
        drop(items);
        self.inner.room.add_permits(1);
        Some(item)
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        self.inner.room.close();
        let items = std::mem::take(&mut *self.inner.items());
        drop(items);
    }
}

impl<T> std::fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("outq::Receiver").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn items_come_out_in_order_then_none_once_every_sender_is_gone() {
        let (tx, mut rx) = channel::<u32>(8);
        let tx2 = tx.clone();
        tx.send(1).await.unwrap();
        tx2.try_send(2).unwrap();
        tx.send(3).await.unwrap();
        drop(tx);
        assert_eq!(rx.recv().await, Some(1));
        assert_eq!(rx.try_recv(), Some(2));
        drop(tx2);
        assert_eq!(rx.recv().await, Some(3));
        assert_eq!(rx.recv().await, None);
    }

    #[tokio::test]
    async fn a_full_queue_refuses_try_send_and_makes_send_wait_for_room() {
        let (tx, mut rx) = channel::<u32>(2);
        tx.try_send(1).unwrap();
        tx.try_send(2).unwrap();
        assert_eq!(tx.try_send(3), Err(TrySendError::Full(3)));
        let waiting = tokio::spawn({
            let tx = tx.clone();
            async move { tx.send(3).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "send waited for room");
        assert_eq!(rx.recv().await, Some(1));
        assert_eq!(waiting.await.unwrap(), Ok(()));
        assert_eq!(rx.recv().await, Some(2));
        assert_eq!(rx.recv().await, Some(3));
    }

    #[tokio::test]
    async fn sends_fail_once_the_receiver_is_gone() {
        let (tx, rx) = channel::<u32>(1);
        tx.try_send(1).unwrap();
        let waiting = tokio::spawn({
            let tx = tx.clone();
            async move { tx.send(2).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(rx);
        assert_eq!(waiting.await.unwrap(), Err(2));
        assert_eq!(tx.send(3).await, Err(3));
        assert_eq!(tx.try_send(4), Err(TrySendError::Closed(4)));
    }

    #[tokio::test]
    async fn a_waiting_receiver_wakes_for_an_item_and_for_the_last_sender_leaving() {
        let (tx, mut rx) = channel::<u32>(4);
        let got = tokio::spawn(async move {
            let first = rx.recv().await;
            let end = rx.recv().await;
            (first, end)
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        tx.send(7).await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(tx);
        let got = tokio::time::timeout(Duration::from_secs(5), got)
            .await
            .expect("the receiver woke")
            .unwrap();
        assert_eq!(got, (Some(7), None));
    }

    #[tokio::test]
    async fn a_cancelled_recv_loses_nothing() {
        let (tx, mut rx) = channel::<u32>(4);
        for _ in 0..3 {
            let r = tokio::time::timeout(Duration::from_millis(5), rx.recv()).await;
            assert!(r.is_err(), "nothing queued yet");
        }
        tx.send(9).await.unwrap();
        assert_eq!(rx.recv().await, Some(9));
    }

    #[test]
    fn the_buffer_follows_what_the_queue_holds() {
        let (tx, mut rx) = channel::<[u8; 48]>(1024);
        assert_eq!(
            tx.inner.items().capacity(),
            0,
            "nothing before the first item"
        );
        for _ in 0..2 {
            tx.try_send([0; 48]).unwrap();
            tx.try_send([0; 48]).unwrap();
            assert!(tx.inner.items().capacity() <= 4, "a table's handful");
            assert!(rx.try_recv().is_some());
            assert!(rx.try_recv().is_some());
            assert_eq!(tx.inner.items().capacity(), 0, "an idle queue holds none");
        }
        for _ in 0..100 {
            tx.try_send([0; 48]).unwrap();
        }
        while rx.try_recv().is_some() {}
        assert_eq!(
            tx.inner.items().capacity(),
            0,
            "a burst's buffer given back"
        );
    }

    #[tokio::test]
    async fn many_senders_lose_nothing_and_keep_each_ones_order() {
        let (tx, mut rx) = channel::<(u32, u32)>(16);
        let mut tasks = Vec::new();
        for s in 0..4u32 {
            let tx = tx.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..1000u32 {
                    tx.send((s, i)).await.unwrap();
                }
            }));
        }
        drop(tx);
        let mut next = [0u32; 4];
        while let Some((s, i)) = rx.recv().await {
            assert_eq!(next[s as usize], i, "sender {s}'s order");
            next[s as usize] += 1;
        }
        assert_eq!(next, [1000; 4]);
        for t in tasks {
            t.await.unwrap();
        }
    }
}
