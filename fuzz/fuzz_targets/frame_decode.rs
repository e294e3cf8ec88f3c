//! Fuzz target: frame and message decoding (proto). Arbitrary bytes are
//! (1) decoded as a client and as a server message, and whatever decodes
//! must encode and decode back to itself; (2) read as a stream of
//! length-prefixed client frames by `proto::FrameReader` (the server's
//! reader), which must end in a clean EOF or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use proto::codec::WireMessage;
use proto::{ClientMsg, FrameReader, ServerMsg};

thread_local! {
    static RT: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
}

fn round_trip<M: WireMessage + PartialEq + std::fmt::Debug>(data: &[u8]) {
    if let Ok(m) = M::decode(data) {
        let bytes = m.encode().expect("a decoded message encodes");
        let back = M::decode(&bytes).expect("an encoded message decodes");
        assert_eq!(back, m);
    }
}

fuzz_target!(|data: &[u8]| {
    round_trip::<ClientMsg>(data);
    round_trip::<ServerMsg>(data);
    RT.with(|rt| {
        rt.block_on(async {
            let mut reader: FrameReader<&[u8], ClientMsg> = FrameReader::new(data);
            for _ in 0..10_000 {
                match reader.recv().await {
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(e) if e.is_recoverable() => {}
                    Err(_) => break,
                }
            }
        })
    });
});
