//! Sign-in (身份验证) at hall sizes: [`Authenticator::authenticate`] of a
//! table's token among 40, 1,000 and 10,000 tables' credentials (a
//! connect storm signs every table in again), beside the linear
//! constant-time scan it replaced (issue 40), measured in the same run.
//!
//! Run: `cargo bench -p caipan-server --bench auth`.
//! Measured figures: docs/benchmarks.md ("Sign-in at 10,000 tables").

use divan::Bencher;
use server::auth::{Authenticator, Principal};
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};

const SIZES: [u32; 3] = [40, 1_000, 10_000];

fn token(table: u32) -> String {
    format!("table-token-{table:05}-0123456789abcdef0123456789")
}

fn main() {
    divan::main();
}

#[divan::bench(args = SIZES)]
fn authenticate(bencher: Bencher, tables: u32) {
    let mut auth = Authenticator::default();
    for t in 1..=tables {
        auth.add(&token(t), Principal::Table { table: t });
    }
    let presented = token(tables / 2 + 1);
    bencher.bench(|| auth.authenticate(divan::black_box(presented.as_bytes())));
}

/// The scan before issue 40: the presented token's SHA-256 compared in
/// constant time with every credential's.
#[divan::bench(args = SIZES)]
fn linear_scan_before(bencher: Bencher, tables: u32) {
    let entries: Vec<([u8; 32], Principal)> = (1..=tables)
        .map(|t| {
            (
                Sha256::digest(token(t)).into(),
                Principal::Table { table: t },
            )
        })
        .collect();
    let presented = token(tables / 2 + 1);
    bencher.bench(|| {
        let d: [u8; 32] = Sha256::digest(divan::black_box(presented.as_bytes())).into();
        let mut found = subtle::Choice::from(0);
        let mut index = 0u64;
        for (i, (known, _)) in entries.iter().enumerate() {
            let eq = d.ct_eq(known);
            index = u64::conditional_select(&index, &(i as u64), eq);
            found |= eq;
        }
        bool::from(found).then(|| entries[index as usize].1.clone())
    });
}
