//! Authentication (身份): a presented token becomes a [`Principal`] by a
//! constant-time lookup ([`Authenticator`]). The roles and what each may
//! do ([`authorize`], [`Action`]) are the protocol's, in `proto::roles`,
//! shared with the console; they are re-exported here.

use std::fmt;

use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};

use config::HallConfig;

pub use proto::roles::*;

/// Maps presented tokens to principals. Every lookup compares the
/// presented token's SHA-256 with every known token's SHA-256 in constant
/// time (no early exit, no data-dependent branch), so timing reveals
/// neither which token matched nor how much of one did.
#[derive(Clone)]
pub struct Authenticator {
    entries: Vec<([u8; 32], Principal)>,
}

impl fmt::Debug for Authenticator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Authenticator")
            .field("principals", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl Authenticator {
    /// Every credential of a validated config (tokens are unique there).
    pub fn from_config(config: &HallConfig) -> Self {
        let c = &config.credentials;
        let mut a = Authenticator {
            entries: Vec::new(),
        };
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
        self.entries
            .iter()
            .any(|(_, p)| matches!(p, Principal::Table { table: t } if *t == u32::from(table)))
    }

    /// Adds a credential (for tests and tools that build one by hand).
    pub fn add(&mut self, token: &str, principal: Principal) {
        self.entries.push((digest(token.as_bytes()), principal));
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
        let d = digest(presented);
        let mut found = subtle::Choice::from(0);
        let mut index = 0u64;
        for (i, (known, _)) in self.entries.iter().enumerate() {
            let eq = d.ct_eq(known);
            index = u64::conditional_select(&index, &(i as u64), eq);
            found |= eq;
        }
        if bool::from(found) {
            usize::try_from(index)
                .ok()
                .and_then(|i| self.entries.get(i))
                .map(|(_, p)| p.clone())
        } else {
            None
        }
    }
}

fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}
