//! Admission (准入): how many connections peers may hold, so that no peer
//! can pin unbounded memory ([`config::PeerLimits`]).
//!
//! - Before sign-in: at most `unauthenticated` connections over all peers
//!   and `unauthenticated_per_address` per source IP, from the accept to
//!   the authenticated `Hello` ([`Pending`]). A connection over the limit
//!   waits (unaccepted) for a place until the hello deadline, then is
//!   refused.
//! - Handshakes: past `retry_threshold` handshakes in progress, a new one
//!   must first prove its address with a QUIC Retry ([`Admission::wants_retry`]).
//! - Pace (节流): at most `handshakes_per_second` handshakes start a second
//!   ([`Admission::pace`], a token bucket a tenth of a second deep): in a
//!   connect storm (a round start, every terminal back after an outage) the
//!   returning connections queue for their turn instead of taking the CPU
//!   from the tables already playing. A connection whose turn would come
//!   later than [`PACE_PATIENCE`] is dropped unanswered (`Incoming::ignore`,
//!   no packet sent): its client's QUIC sends the Initial again after its
//!   own backoff, and it queues then.
//! - After sign-in: at most `connections_per_token` connections per console
//!   token ([`Session`]); a table's new connection replaces its old one
//!   (in `connection`).
//!
//! Every slot is a guard that gives its place back when dropped, so no
//! path (error, panic, disconnect) leaks one.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

use config::PeerLimits;

/// The connection counts of one server.
#[derive(Debug)]
pub struct Admission {
    limits: PeerLimits,
    state: Mutex<State>,
    freed: Notify,
    handshakes: AtomicUsize,
    retries: AtomicU64,
    pace: Option<Mutex<Bucket>>,
    paced_away: AtomicU64,
}

/// How long a new connection may wait for its turn to start its
/// handshake: well inside a client's `proto::conn::HELLO_TIMEOUT` (10 s),
/// which also covers the handshake and the hello, and inside quinn's
/// buffering of the packets of an unaccepted connection.
pub const PACE_PATIENCE: Duration = Duration::from_secs(3);

/// The pace's token bucket: `tokens` may go below zero, each turn given
/// out ahead being a token owed (so turns come in order, `1/rate` apart).
#[derive(Debug)]
struct Bucket {
    rate: f64,
    depth: f64,
    tokens: f64,
    at: tokio::time::Instant,
}

impl Bucket {
    fn new(per_second: usize, now: tokio::time::Instant) -> Bucket {
        let rate = per_second as f64;
        let depth = (rate / 10.0).max(1.0);
        Bucket {
            rate,
            depth,
            tokens: depth,
            at: now,
        }
    }

    /// The wait until the next turn, taken, or `None` (nothing taken) if
    /// it is later than `patience`.
    fn turn(&mut self, now: tokio::time::Instant, patience: Duration) -> Option<Duration> {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.depth);
        self.at = now;
        let wait = match self.tokens >= 1.0 {
            true => Duration::ZERO,
            false => Duration::from_secs_f64((1.0 - self.tokens) / self.rate),
        };
        if wait > patience {
            return None;
        }
        self.tokens -= 1.0;
        Some(wait)
    }
}

#[derive(Debug, Default)]
struct State {
    unauthenticated: usize,
    by_address: HashMap<IpAddr, usize>,
    by_token: HashMap<String, usize>,
}

/// A place of a connection not yet signed in; given back on drop.
#[derive(Debug)]
pub struct Pending {
    admission: Arc<Admission>,
    ip: IpAddr,
}

/// A place of a signed-in console connection; given back on drop.
#[derive(Debug)]
pub struct Session {
    admission: Arc<Admission>,
    who: String,
}

/// A handshake in progress; counted until dropped.
#[derive(Debug)]
pub struct Handshake {
    admission: Arc<Admission>,
}

impl Admission {
    /// Counts for `limits`.
    pub fn new(limits: PeerLimits) -> Arc<Admission> {
        Arc::new(Admission {
            limits,
            state: Mutex::new(State::default()),
            freed: Notify::new(),
            handshakes: AtomicUsize::new(0),
            retries: AtomicU64::new(0),
            pace: (limits.handshakes_per_second > 0).then(|| {
                Mutex::new(Bucket::new(
                    limits.handshakes_per_second,
                    tokio::time::Instant::now(),
                ))
            }),
            paced_away: AtomicU64::new(0),
        })
    }

    /// The limits in force.
    pub fn limits(&self) -> PeerLimits {
        self.limits
    }

    /// A place for a new connection from `ip`, if one is free now.
    pub fn try_admit(self: &Arc<Self>, ip: IpAddr) -> Option<Pending> {
        let mut s = self.state.lock().ok()?;
        let from_ip = s.by_address.get(&ip).copied().unwrap_or(0);
        if s.unauthenticated >= self.limits.unauthenticated
            || from_ip >= self.limits.unauthenticated_per_address
        {
            return None;
        }
        s.unauthenticated += 1;
        *s.by_address.entry(ip).or_insert(0) += 1;
        Some(Pending {
            admission: self.clone(),
            ip,
        })
    }

    /// A place for a new connection from `ip`, waiting up to `patience`
    /// for one to be freed.
    pub async fn admit(self: &Arc<Self>, ip: IpAddr, patience: Duration) -> Option<Pending> {
        let until = tokio::time::Instant::now() + patience;
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            // Registered before the check: a place freed in between wakes us.
            freed.as_mut().enable();
            if let Some(p) = self.try_admit(ip) {
                return Some(p);
            }
            if tokio::time::timeout_at(until, freed).await.is_err() {
                return None;
            }
        }
    }

    /// A place for a signed-in console connection of `who`, or the limit
    /// when `who` already holds that many.
    pub fn sign_in(self: &Arc<Self>, who: &str) -> Result<Session, usize> {
        let limit = self.limits.connections_per_token;
        let Ok(mut s) = self.state.lock() else {
            return Err(limit);
        };
        let n = s.by_token.entry(who.to_string()).or_insert(0);
        if *n >= limit {
            return Err(limit);
        }
        *n += 1;
        Ok(Session {
            admission: self.clone(),
            who: who.to_string(),
        })
    }

    /// Counts a handshake until the guard is dropped.
    pub fn handshake(self: &Arc<Self>) -> Handshake {
        self.handshakes.fetch_add(1, Ordering::Relaxed);
        Handshake {
            admission: self.clone(),
        }
    }

    /// True when a new handshake should first go through a QUIC Retry.
    pub fn wants_retry(&self) -> bool {
        self.handshakes.load(Ordering::Relaxed) >= self.limits.retry_threshold
    }

    /// Notes a Retry sent.
    pub fn retried(&self) {
        self.retries.fetch_add(1, Ordering::Relaxed);
    }

    /// Retries sent since the start.
    pub fn retries(&self) -> u64 {
        self.retries.load(Ordering::Relaxed)
    }

    /// Waits for the turn of a new connection's handshake
    /// (`handshakes_per_second`); false (counted) when it would come later
    /// than [`PACE_PATIENCE`]: the caller drops the connection unanswered.
    pub async fn pace(&self) -> bool {
        let Some(bucket) = &self.pace else {
            return true;
        };
        let turn = match bucket.lock() {
            Ok(mut b) => b.turn(tokio::time::Instant::now(), PACE_PATIENCE),
            Err(_) => Some(Duration::ZERO),
        };
        match turn {
            Some(wait) if wait.is_zero() => true,
            Some(wait) => {
                tokio::time::sleep(wait).await;
                true
            }
            None => {
                self.paced_away.fetch_add(1, Ordering::Relaxed);
                false
            }
        }
    }

    /// Connections dropped unanswered by the pace since the start.
    pub fn paced_away(&self) -> u64 {
        self.paced_away.load(Ordering::Relaxed)
    }

    /// Connections not signed in now.
    pub fn unauthenticated(&self) -> usize {
        self.state.lock().map(|s| s.unauthenticated).unwrap_or(0)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Ok(mut s) = self.admission.state.lock() {
            s.unauthenticated = s.unauthenticated.saturating_sub(1);
            if let Some(n) = s.by_address.get_mut(&self.ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    s.by_address.remove(&self.ip);
                }
            }
        }
        self.admission.freed.notify_waiters();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(mut s) = self.admission.state.lock() {
            if let Some(n) = s.by_token.get_mut(&self.who) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    s.by_token.remove(&self.who);
                }
            }
        }
    }
}

impl Drop for Handshake {
    fn drop(&mut self) {
        self.admission.handshakes.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> PeerLimits {
        PeerLimits {
            connections_per_token: 2,
            unauthenticated: 3,
            unauthenticated_per_address: 2,
            retry_threshold: 1,
            handshakes_per_second: 0,
        }
    }

    #[test]
    fn places_are_bounded_per_address_overall_and_per_token_and_come_back() {
        let a = Admission::new(limits());
        let ip1: IpAddr = [10, 0, 0, 1].into();
        let ip2: IpAddr = [10, 0, 0, 2].into();
        let p1 = a.try_admit(ip1).expect("first");
        let _p2 = a.try_admit(ip1).expect("second");
        assert!(a.try_admit(ip1).is_none(), "per address");
        let _p3 = a.try_admit(ip2).expect("other address");
        assert!(a.try_admit([10, 0, 0, 3].into()).is_none(), "overall");
        drop(p1);
        assert!(a.try_admit(ip1).is_some(), "freed");
        let s1 = a.sign_in("viewer:x").expect("1");
        let _s2 = a.sign_in("viewer:x").expect("2");
        assert_eq!(a.sign_in("viewer:x").err(), Some(2));
        assert!(a.sign_in("viewer:y").is_ok());
        drop(s1);
        assert!(a.sign_in("viewer:x").is_ok());
        assert!(!a.wants_retry());
        let h = a.handshake();
        assert!(a.wants_retry());
        drop(h);
        assert!(!a.wants_retry());
    }

    #[test]
    fn the_pace_spaces_turns_and_gives_none_past_its_patience() {
        let t0 = tokio::time::Instant::now();
        let ms = Duration::from_millis;
        // 100 a second: a bucket 10 deep, then one turn every 10 ms.
        let mut b = Bucket::new(100, t0);
        for _ in 0..10 {
            assert_eq!(b.turn(t0, ms(50)), Some(Duration::ZERO));
        }
        let round = |d: Duration| (d.as_secs_f64() * 1000.0).round() as u64;
        let waits: Vec<u64> = (0..5)
            .map(|_| round(b.turn(t0, ms(50)).expect("a turn")))
            .collect();
        assert_eq!(waits, [10, 20, 30, 40, 50]);
        // The next would wait 60 ms: past the patience, and not taken.
        assert_eq!(b.turn(t0, ms(50)), None);
        assert_eq!(b.turn(t0, ms(60)).map(round), Some(60));
        // Time pays the owed turns back, and the bucket refills to its depth.
        let later = t0 + Duration::from_secs(5);
        for _ in 0..10 {
            assert_eq!(b.turn(later, ms(0)), Some(Duration::ZERO));
        }
        assert_eq!(b.turn(later, ms(0)), None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_paced_admission_lets_the_rate_through_and_drops_past_its_patience() {
        let a = Admission::new(PeerLimits {
            handshakes_per_second: 10,
            ..limits()
        });
        let t0 = tokio::time::Instant::now();
        // One immediately (the bucket is one deep at 10 a second), then
        // one every 100 ms up to the patience.
        for _ in 0..31 {
            assert!(a.pace().await);
        }
        let took = tokio::time::Instant::now() - t0;
        assert!(
            took >= Duration::from_secs(3) - Duration::from_millis(1),
            "{took:?}"
        );
        assert_eq!(a.paced_away(), 0);
        // Unpaced: never waits.
        let free = Admission::new(limits());
        let t1 = tokio::time::Instant::now();
        for _ in 0..1000 {
            assert!(free.pace().await);
        }
        assert_eq!(tokio::time::Instant::now(), t1);
    }

    #[tokio::test(start_paused = true)]
    async fn connections_past_the_pace_patience_are_counted_away() {
        let a = Admission::new(PeerLimits {
            handshakes_per_second: 10,
            ..limits()
        });
        // 40 at once: 1 now, 30 within the 3 s patience, 9 dropped.
        let tasks: Vec<_> = (0..40)
            .map(|_| {
                let a = a.clone();
                tokio::spawn(async move { a.pace().await })
            })
            .collect();
        let mut through = 0;
        for t in tasks {
            through += usize::from(t.await.unwrap());
        }
        assert_eq!(through, 31);
        assert_eq!(a.paced_away(), 9);
    }

    #[tokio::test]
    async fn a_waiting_connection_gets_the_place_that_is_freed() {
        let a = Admission::new(limits());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let p1 = a.try_admit(ip).unwrap();
        let _p2 = a.try_admit(ip).unwrap();
        let waiter = {
            let a = a.clone();
            tokio::spawn(async move { a.admit(ip, Duration::from_secs(60)).await.is_some() })
        };
        tokio::task::yield_now().await;
        drop(p1);
        assert!(waiter.await.unwrap());
    }
}
