//! Codec and framing micro-benchmarks: how fast table events encode and
//! decode, one by one and as batched frames.
//!
//! Run: `cargo bench -p caipan-proto --bench codec`.

use divan::{black_box, Bencher};
use proto::frame::{append_frame, FrameReader};
use proto::*;

fn main() {
    divan::main();
}

fn press(seq: u64) -> ClientMsg {
    ClientMsg::Event(EventEnvelope {
        table: 417,
        epoch: 1,
        seq,
        body: TableEvent::ClockPress {
            by: Side::Red,
            mv: IccsMove::parse("h2e2"),
            red_ms: 4_321_000,
            black_ms: 4_123_000,
            terminal_mono_ms: 123_456_789,
        },
    })
}

#[divan::bench]
fn encode_press(b: Bencher) {
    let msg = press(12_345);
    let mut out = Vec::with_capacity(64);
    b.bench_local(|| {
        out.clear();
        black_box(&msg).encode_into(&mut out).unwrap();
        black_box(out.len())
    });
}

/// A press as the server reads it (the hand decoder, `press_decode.rs`).
#[divan::bench]
fn decode_press(b: Bencher) {
    let bytes = press(12_345).encode().unwrap();
    b.bench_local(|| ClientMsg::decode(black_box(&bytes)).unwrap());
}

/// The same press by bincode alone (what `decode_press` was before the
/// hand decoder): the comparison in one run.
#[divan::bench]
fn decode_press_by_bincode(b: Bencher) {
    let bytes = press(12_345).encode().unwrap();
    b.bench_local(|| {
        codec::decode_value::<ClientMsg, { limits::MAX_CLIENT_FRAME }>(black_box(&bytes)).unwrap()
    });
}

#[divan::bench]
fn encode_ack(b: Bencher) {
    let msg = ServerMsg::Ack(Ack {
        table: 417,
        epoch: 1,
        seq: 12_345,
        duplicate: false,
    });
    let mut out = Vec::with_capacity(64);
    b.bench_local(|| {
        out.clear();
        black_box(&msg).encode_into(&mut out).unwrap();
        black_box(out.len())
    });
}

/// 1,000 presses framed into one buffer (what a batched flush writes).
#[divan::bench]
fn frame_batch_1000(b: Bencher) {
    let msgs: Vec<ClientMsg> = (1..=1000).map(press).collect();
    let mut out = Vec::with_capacity(32 * 1024);
    b.counter(divan::counter::ItemsCount::new(1000usize))
        .bench_local(|| {
            out.clear();
            for m in &msgs {
                append_frame(m, &mut out).unwrap();
            }
            black_box(out.len())
        });
}

/// 1,000 framed presses read back through a FrameReader.
#[divan::bench]
fn read_batch_1000(b: Bencher) {
    let mut bytes = Vec::new();
    for seq in 1..=1000 {
        append_frame(&press(seq), &mut bytes).unwrap();
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    b.counter(divan::counter::ItemsCount::new(1000usize))
        .bench_local(|| {
            rt.block_on(async {
                let mut r: FrameReader<_, ClientMsg> = FrameReader::new(bytes.as_slice());
                let mut n = 0;
                while let Some(m) = r.recv().await.unwrap() {
                    black_box(m);
                    n += 1;
                }
                n
            })
        });
}
