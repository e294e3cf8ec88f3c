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
