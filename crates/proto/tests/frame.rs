//! Framing tests over in-memory streams: batching, partial reads, oversize
//! and garbage frames (rejected, stream kept in step), truncation, EOF,
//! cancel safety, and random byte streams.

mod common;

use common::*;
use proptest::prelude::*;
use proto::frame::{encode_frame, FrameError, FrameReader, FrameWriter};
use proto::limits::MAX_CLIENT_FRAME;
use proto::*;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

fn raw_frame(payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

#[tokio::test]
async fn a_batch_of_frames_in_one_flush_reads_back_in_order() {
    let (a, b) = tokio::io::duplex(4096);
    let msgs: Vec<ClientMsg> = all_client_msgs().into_iter().cycle().take(5_000).collect();
    let expected = msgs.clone();
    let writer = tokio::spawn(async move {
        let mut w: FrameWriter<_, ClientMsg> = FrameWriter::new(a);
        for m in &msgs {
            w.queue(m).unwrap();
        }
        assert!(w.pending() > 0);
        w.flush().await.unwrap();
        assert_eq!(w.pending(), 0);
        // dropping `w` closes the stream
    });
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(b);
    for want in &expected {
        assert_eq!(&r.recv().await.unwrap().unwrap(), want);
    }
    assert!(
        r.recv().await.unwrap().is_none(),
        "clean EOF between frames"
    );
    writer.await.unwrap();
}

#[tokio::test]
async fn tiny_reads_reassemble_frames() {
    // A 3-byte pipe forces every frame to arrive in pieces.
    let (a, b) = tokio::io::duplex(3);
    let msgs = all_server_msgs();
    let expected = msgs.clone();
    tokio::spawn(async move {
        let mut w: FrameWriter<_, ServerMsg> = FrameWriter::new(a);
        for m in &msgs {
            w.send(m).await.unwrap();
        }
    });
    let mut r: FrameReader<_, ServerMsg> = FrameReader::new(b);
    for want in &expected {
        assert_eq!(&r.recv().await.unwrap().unwrap(), want);
    }
    assert!(r.recv().await.unwrap().is_none());
}

#[tokio::test]
async fn oversize_frame_is_rejected_and_skipped() {
    let mut stream = Vec::new();
    let len = MAX_CLIENT_FRAME + 1;
    stream.extend_from_slice(&(len as u32).to_be_bytes());
    stream.resize(stream.len() + len, 0xAB);
    stream.extend(encode_frame(&ClientMsg::Ping { nonce: 7 }).unwrap());
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(stream.as_slice());
    let err = r.recv().await.unwrap_err();
    assert!(
        matches!(err, FrameError::TooLarge { len: l, max } if l == len && max == MAX_CLIENT_FRAME)
    );
    assert!(err.is_recoverable());
    assert_eq!(r.recv().await.unwrap(), Some(ClientMsg::Ping { nonce: 7 }));
    assert_eq!(r.recv().await.unwrap(), None);
}

#[tokio::test]
async fn huge_length_then_eof_is_too_large_then_truncated() {
    let stream = u32::MAX.to_be_bytes().to_vec();
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(stream.as_slice());
    assert!(matches!(r.recv().await, Err(FrameError::TooLarge { .. })));
    assert!(matches!(r.recv().await, Err(FrameError::Truncated { .. })));
}

#[tokio::test]
async fn garbage_payload_is_a_recoverable_codec_error() {
    let mut stream = raw_frame(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
    stream.extend(encode_frame(&ClientMsg::Ping { nonce: 1 }).unwrap());
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(stream.as_slice());
    let err = r.recv().await.unwrap_err();
    assert!(
        matches!(err, FrameError::Codec(CodecError::Decode(_))),
        "{err:?}"
    );
    assert!(err.is_recoverable());
    assert_eq!(r.recv().await.unwrap(), Some(ClientMsg::Ping { nonce: 1 }));
}

#[tokio::test]
async fn eof_inside_a_frame_is_truncated() {
    let frame = encode_frame(&ClientMsg::Hello(hello("token"))).unwrap();
    for cut in 1..frame.len() {
        let mut r: FrameReader<_, ClientMsg> = FrameReader::new(&frame[..cut]);
        match r.recv().await {
            Err(FrameError::Truncated { buffered }) => assert_eq!(buffered, cut),
            other => panic!("cut {cut}: {other:?}"),
        }
    }
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(&[][..]);
    assert!(r.recv().await.unwrap().is_none());
}

#[tokio::test]
async fn writer_refuses_oversize_messages_and_keeps_its_queue() {
    let (a, b) = tokio::io::duplex(1 << 20);
    let mut w: FrameWriter<_, ClientMsg> = FrameWriter::new(a);
    w.queue(&ClientMsg::Ping { nonce: 1 }).unwrap();
    let before = w.pending();
    let big = ClientMsg::Command {
        id: 1,
        command: Command::PauseHall {
            reason: "长".repeat(MAX_CLIENT_FRAME),
        },
    };
    assert!(matches!(
        w.queue(&big),
        Err(FrameError::Codec(CodecError::TooLarge { .. }))
    ));
    assert_eq!(w.pending(), before);
    w.queue_raw(&encode_frame(&ClientMsg::Ping { nonce: 2 }).unwrap());
    w.flush().await.unwrap();
    drop(w);
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(b);
    assert_eq!(r.recv().await.unwrap(), Some(ClientMsg::Ping { nonce: 1 }));
    assert_eq!(r.recv().await.unwrap(), Some(ClientMsg::Ping { nonce: 2 }));
    assert_eq!(r.recv().await.unwrap(), None);
}

#[tokio::test]
async fn buffered_frames_drain_without_io() {
    let mut stream = Vec::new();
    for nonce in 0..100u64 {
        stream.extend(encode_frame(&ClientMsg::Ping { nonce }).unwrap());
    }
    // Half a frame at the end stays buffered.
    let extra = encode_frame(&ClientMsg::Ping { nonce: 100 }).unwrap();
    stream.extend_from_slice(&extra[..3]);
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(stream.as_slice());
    assert!(r.try_recv_buffered().is_none(), "nothing read yet");
    let mut got = vec![r.recv().await.unwrap().unwrap()];
    while let Some(m) = r.try_recv_buffered() {
        got.push(m.unwrap());
    }
    assert!(got.len() > 1, "a burst drains in one go");
    while got.len() < 100 {
        got.push(r.recv().await.unwrap().unwrap());
        while let Some(m) = r.try_recv_buffered() {
            got.push(m.unwrap());
        }
    }
    let want: Vec<ClientMsg> = (0..100u64).map(|nonce| ClientMsg::Ping { nonce }).collect();
    assert_eq!(got, want);
    assert!(matches!(
        r.recv().await,
        Err(FrameError::Truncated { buffered: 3 })
    ));
}

#[tokio::test]
async fn recv_is_cancel_safe() {
    let (mut a, b) = tokio::io::duplex(64);
    let msgs: Vec<ClientMsg> = all_client_msgs().into_iter().take(12).collect();
    let mut bytes = Vec::new();
    for m in &msgs {
        bytes.extend(encode_frame(m).unwrap());
    }
    tokio::spawn(async move {
        for chunk in bytes.chunks(5) {
            a.write_all(chunk).await.unwrap();
            tokio::time::sleep(Duration::from_micros(300)).await;
        }
    });
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(b);
    let mut got = Vec::new();
    let mut cancelled = 0;
    loop {
        tokio::select! {
            msg = r.recv() => match msg.unwrap() {
                Some(m) => got.push(m),
                None => break,
            },
            _ = tokio::time::sleep(Duration::from_micros(100)) => cancelled += 1,
        }
    }
    assert_eq!(got, msgs);
    assert!(cancelled > 0, "the test should have cancelled some reads");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn random_streams_end_in_an_error_or_eof(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(async {
            let mut r: FrameReader<_, ServerMsg> = FrameReader::new(bytes.as_slice());
            // Each call consumes at least a prefix, so this ends quickly.
            for _ in 0..=bytes.len() {
                match r.recv().await {
                    Ok(Some(_)) => {}
                    Ok(None) => return,
                    Err(e) if e.is_recoverable() => {}
                    Err(_) => return,
                }
            }
            panic!("reader did not reach the end");
        });
    }
}

/// A connection keeps a small read buffer while it is quiet (a table
/// sends a few hundred bytes a minute; 10,000 of them are a hall, issue
/// 40): none before the first read, and after a burst grew it, the
/// buffer is given back once the burst is read and small frames follow.
#[tokio::test]
async fn a_quiet_stream_keeps_a_small_read_buffer() {
    let (mut a, b) = tokio::io::duplex(64 * 1024);
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(b);
    assert_eq!(r.capacity(), 0, "nothing allocated before the first read");
    // A burst: 2,000 pings written at once grows the buffer.
    let mut burst = Vec::new();
    for nonce in 0..2_000u64 {
        burst.extend(encode_frame(&ClientMsg::Ping { nonce }).unwrap());
    }
    a.write_all(&burst).await.unwrap();
    let mut peak = 0;
    for nonce in 0..2_000u64 {
        assert_eq!(r.recv().await.unwrap().unwrap(), ClientMsg::Ping { nonce });
        peak = peak.max(r.capacity());
    }
    assert!(peak > 4 * 1024, "the burst grew the buffer to {peak}");
    // Then quiet: one small frame at a time, each read alone.
    for nonce in 0..8u64 {
        a.write_all(&encode_frame(&ClientMsg::Ping { nonce }).unwrap())
            .await
            .unwrap();
        assert_eq!(r.recv().await.unwrap().unwrap(), ClientMsg::Ping { nonce });
    }
    assert!(
        r.capacity() <= 2 * 1024,
        "a quiet stream keeps {} bytes (the burst had {peak})",
        r.capacity()
    );
}

/// A table's clock press with its move, late in a long game, is one small
/// frame: a quiet table connection reads each in one go and keeps a read
/// buffer of a few dozen bytes, not the 512 it held before (issue 40).
#[tokio::test]
async fn a_quiet_tables_presses_keep_a_read_buffer_of_128_bytes() {
    let (mut a, b) = tokio::io::duplex(64 * 1024);
    let mut r: FrameReader<_, ClientMsg> = FrameReader::new(b);
    for seq in 0..300u64 {
        let press = ClientMsg::Event(EventEnvelope {
            table: u16::MAX,
            epoch: u32::MAX,
            seq: 1_000_000 + seq,
            body: TableEvent::ClockPress {
                by: if seq % 2 == 0 { Side::Red } else { Side::Black },
                mv: Some(mv("h2e2")),
                red_ms: 4 * 3_600_000 - seq * 1_000,
                black_ms: 4 * 3_600_000 - seq * 900,
                terminal_mono_ms: 5 * 3_600_000 + seq * 30_000,
            },
        });
        let frame = encode_frame(&press).unwrap();
        assert!(frame.len() <= 64, "a press is a {}-byte frame", frame.len());
        a.write_all(&frame).await.unwrap();
        assert_eq!(r.recv().await.unwrap().unwrap(), press);
        assert!(
            r.capacity() <= 128,
            "the read buffer holds {}",
            r.capacity()
        );
    }
}
