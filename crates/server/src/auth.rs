//! Authentication (身份): a presented token becomes a [`Principal`] by a
//! keyed lookup that reveals nothing of the known tokens through its
//! timing ([`Authenticator`]). The roles and what each may do
//! ([`authorize`], [`Action`]) are the protocol's, in `proto::roles`,
//! shared with the console; they are re-exported here.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasher, Hasher, RandomState};

use ring::hmac;
use subtle::ConstantTimeEq;

use config::HallConfig;

pub use proto::roles::*;

/// Maps presented tokens to principals, in time independent of the hall's
/// size (a connect storm signs 10,000 tables in again; the linear
/// constant-time scan this replaced cost each sign-in a compare with every
/// credential: `cargo bench -p caipan-server --bench auth`).
///
/// Each token is known by its HMAC-SHA256 under a key drawn at random when
/// the authenticator is made, never stored or shown. A sign-in looks its
/// presented token's tag up in a hash map and compares the tag found with
/// it in constant time. The lookup's timing depends only on tags, which a
/// peer can neither compute nor steer without the key, so it reveals
/// neither which token matched nor how much of one did.
#[derive(Clone)]
pub struct Authenticator {
    key: hmac::Key,
    entries: Vec<([u8; 32], Principal)>,
    by_tag: HashMap<[u8; 32], usize>,
    tables: HashSet<u32>,
}

impl fmt::Debug for Authenticator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Authenticator")
            .field("principals", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl Default for Authenticator {
    fn default() -> Self {
        Authenticator {
            key: hmac::Key::new(hmac::HMAC_SHA256, &random_key()),
            entries: Vec::new(),
            by_tag: HashMap::new(),
            tables: HashSet::new(),
        }
    }
}

impl Authenticator {
    /// Every credential of a validated config (tokens are unique there).
    pub fn from_config(config: &HallConfig) -> Self {
        let c = &config.credentials;
        let mut a = Authenticator::default();
        a.add(
            c.chief.token.expose(),
            Principal::Chief {
                name: c.chief.name.clone(),
            },
        );
        for d in &c.deputies {
            a.add(
                d.token.expose(),
                Principal::Deputy {
                    name: d.name.clone(),
                    tables: d.tables.clone(),
                },
            );
        }
        for v in &c.viewers {
            a.add(
                v.token.expose(),
                Principal::Viewer {
                    name: v.name.clone(),
                },
            );
        }
        for (table, token) in &c.tables {
            a.add(token.expose(), Principal::Table { table: *table });
        }
        a
    }

    /// Whether table `table` has a token (a terminal can sign in for it).
    pub fn has_table(&self, table: u16) -> bool {
        self.tables.contains(&u32::from(table))
    }

    /// Adds a credential (for tests and tools that build one by hand). A
    /// token added twice signs in as the principal added last.
    pub fn add(&mut self, token: &str, principal: Principal) {
        let tag = self.tag(token.as_bytes());
        if let Principal::Table { table } = &principal {
            self.tables.insert(*table);
        }
        self.by_tag.insert(tag, self.entries.len());
        self.entries.push((tag, principal));
    }

    /// Number of credentials.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no credentials.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The principal whose token is `presented`, if any.
    pub fn authenticate(&self, presented: &[u8]) -> Option<Principal> {
        let tag = self.tag(presented);
        let (known, principal) = self.entries.get(*self.by_tag.get(&tag)?)?;
        bool::from(known.ct_eq(&tag)).then(|| principal.clone())
    }

    fn tag(&self, token: &[u8]) -> [u8; 32] {
        let mut tag = [0u8; 32];
        tag.copy_from_slice(hmac::sign(&self.key, token).as_ref());
        tag
    }
}

/// 32 bytes for the authenticator's key from std's hasher keys, which the
/// standard library draws from the operating system's random source.
fn random_key() -> [u8; 32] {
    let mut key = [0u8; 32];
    for (i, chunk) in key.chunks_exact_mut(8).enumerate() {
        let mut h = RandomState::new().build_hasher();
        h.write_usize(i);
        chunk.copy_from_slice(&h.finish().to_le_bytes());
    }
    key
}
