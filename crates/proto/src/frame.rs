//! Length-prefixed frames over an async byte stream (a QUIC stream, or any
//! `AsyncRead`/`AsyncWrite` in tests).
//!
//! Wire format: `u32` big-endian payload length, then the payload (one
//! [`WireMessage`]). A length above the direction's limit is refused before
//! any of the payload is buffered: [`FrameReader`] reports
//! [`FrameError::TooLarge`] and then discards that many bytes, so the
//! stream stays in step and the connection can be kept (the fault is the
//! frame's). A payload that does not decode gives [`FrameError::Codec`],
//! also with the stream still in step.
//!
//! Both halves are cancel-safe: [`FrameReader::recv`] keeps partial reads
//! in its buffer and [`FrameWriter::flush`] remembers how much it wrote,
//! so either can sit in a `tokio::select!` branch.
//!
//! Writes batch: [`FrameWriter::queue`] encodes into a buffer, and one
//! [`FrameWriter::flush`] sends every queued frame in as few writes as the
//! stream takes (the key to throughput: one write per tiny message is ~10x
//! slower than 32 KiB writes).

use crate::codec::{CodecError, WireMessage};
use crate::limits::LEN_PREFIX;
use std::marker::PhantomData;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Most bytes asked of the stream per read (when reads keep filling what
/// they are given: a flood).
const READ_CHUNK: usize = 16 * 1024;

/// Fewest bytes asked of the stream per read, and the read buffer a quiet
/// connection keeps: a table terminal sends a few hundred bytes a minute,
/// and 10,000 of them each holding [`READ_CHUNK`] (or twice that after a
/// partial frame) cost the server 160-320 MiB (issue 40). A clock press
/// with its move is a frame of 30-50 bytes, so a quiet connection reads
/// each in one go from 128 bytes; 512 held 3.7 MiB more at 10,000 tables
/// for nothing. A longer frame takes a second read, and reads that fill
/// what they are given double the next one's size.
const MIN_READ_CHUNK: usize = 128;

/// Send-buffer capacity kept between flushes.
const KEEP_WRITE_CAPACITY: usize = 256 * 1024;

/// Why a frame could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The stream failed (reset, connection lost, ...).
    #[error("stream i/o: {0}")]
    Io(#[from] std::io::Error),
    /// The stream ended in the middle of a frame.
    #[error("stream ended inside a frame ({buffered} bytes of a frame buffered)")]
    Truncated { buffered: usize },
    /// A frame longer than the limit (its payload is skipped, not buffered).
    #[error("frame of {len} bytes exceeds the {max}-byte limit")]
    TooLarge { len: usize, max: usize },
    /// The payload did not decode (or the message did not encode).
    #[error(transparent)]
    Codec(#[from] CodecError),
}

impl FrameError {
    /// True when the stream is still in step after this error, so that the
    /// next frame can be read (the fault was one frame's, not the stream's).
    pub fn is_recoverable(&self) -> bool {
        matches!(self, FrameError::TooLarge { .. } | FrameError::Codec(_))
    }
}

/// Encodes `msg` as one complete frame (prefix + payload), e.g. to send the
/// same bytes to many peers with [`FrameWriter::queue_raw`].
pub fn encode_frame<M: WireMessage>(msg: &M) -> Result<Vec<u8>, FrameError> {
    let mut out = Vec::new();
    append_frame(msg, &mut out)?;
    Ok(out)
}

/// Appends one complete frame for `msg` to `out` (unchanged on error).
pub fn append_frame<M: WireMessage>(msg: &M, out: &mut Vec<u8>) -> Result<(), FrameError> {
    let start = out.len();
    out.extend_from_slice(&[0; LEN_PREFIX]);
    if let Err(e) = msg.encode_into(out) {
        out.truncate(start);
        return Err(e.into());
    }
    let len = out.len() - start - LEN_PREFIX;
    // encode_into enforces M::MAX_FRAME, which is far below u32::MAX.
    let Ok(len32) = u32::try_from(len) else {
        out.truncate(start);
        return Err(FrameError::TooLarge {
            len,
            max: M::MAX_FRAME,
        });
    };
    out[start..start + LEN_PREFIX].copy_from_slice(&len32.to_be_bytes());
    Ok(())
}

/// Reads frames of message type `M` from `R`, holding at most one frame
/// (bounded by `M::MAX_FRAME`) plus one read chunk in memory.
pub struct FrameReader<R, M> {
    inner: R,
    buf: Vec<u8>,
    /// Start of unconsumed data in `buf`.
    start: usize,
    /// Bytes of an oversize frame still to discard.
    skip: u64,
    /// Bytes asked of the next read: doubled (up to [`READ_CHUNK`]) when
    /// a read fills all it was given, halved (down to [`MIN_READ_CHUNK`])
    /// when one takes less than a quarter.
    chunk: usize,
    _msg: PhantomData<fn() -> M>,
}

impl<R: AsyncRead + Unpin, M: WireMessage> FrameReader<R, M> {
    pub fn new(inner: R) -> Self {
        FrameReader {
            inner,
            buf: Vec::new(),
            start: 0,
            skip: 0,
            chunk: MIN_READ_CHUNK,
            _msg: PhantomData,
        }
    }

    /// The underlying stream.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Gives back the stream (bytes buffered but not yet consumed are lost).
    pub fn into_inner(self) -> R {
        self.inner
    }

    fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        if self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
            // A quiet stream gives back what a burst or a big frame grew.
            if self.buf.capacity() > 2 * self.chunk.max(MIN_READ_CHUNK) {
                self.buf = Vec::new();
            }
        }
    }

    /// Bytes of the read buffer's allocation (tests: a quiet stream keeps
    /// little).
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Reads more bytes into the buffer; returns how many (0 at EOF).
    async fn fill(&mut self) -> Result<usize, FrameError> {
        if self.start > 0
            && (self.start >= self.buf.len() / 2
                || self.buf.capacity() - self.buf.len() < self.chunk)
        {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.reserve(self.chunk);
        let room = self.buf.capacity() - self.buf.len();
        // read_buf only appends what it read: cancel-safe.
        let n = self.inner.read_buf(&mut self.buf).await?;
        if n >= room {
            self.chunk = (self.chunk * 2).min(READ_CHUNK);
        } else if n < room / 4 {
            self.chunk = (self.chunk / 2).max(MIN_READ_CHUNK);
        }
        Ok(n)
    }

    /// The next message if a whole frame is already buffered, without any
    /// I/O; `None` when more bytes are needed. Lets a receiver drain a
    /// burst after [`FrameReader::recv`] and handle it as one batch (one
    /// group commit, one flush of the acks).
    pub fn try_recv_buffered(&mut self) -> Option<Result<M, FrameError>> {
        if self.skip > 0 {
            let n = self
                .buffered()
                .min(usize::try_from(self.skip).unwrap_or(usize::MAX));
            self.consume(n);
            self.skip -= n as u64;
            if self.skip > 0 {
                return None;
            }
        }
        if self.buffered() < LEN_PREFIX {
            return None;
        }
        let mut prefix = [0u8; LEN_PREFIX];
        prefix.copy_from_slice(&self.buf[self.start..self.start + LEN_PREFIX]);
        let len = u32::from_be_bytes(prefix) as usize;
        if len > M::MAX_FRAME {
            self.consume(LEN_PREFIX);
            self.skip = len as u64;
            return Some(Err(FrameError::TooLarge {
                len,
                max: M::MAX_FRAME,
            }));
        }
        if self.buffered() < LEN_PREFIX + len {
            // Room for the rest of this frame (bounded by the limit).
            self.buf.reserve(LEN_PREFIX + len - self.buffered());
            return None;
        }
        let from = self.start + LEN_PREFIX;
        let result = M::decode(&self.buf[from..from + len]);
        self.consume(LEN_PREFIX + len);
        Some(result.map_err(FrameError::from))
    }

    /// Next message; `Ok(None)` when the stream ended cleanly between frames.
    ///
    /// After a recoverable error ([`FrameError::is_recoverable`]) the next
    /// call reads the following frame.
    pub async fn recv(&mut self) -> Result<Option<M>, FrameError> {
        loop {
            if let Some(result) = self.try_recv_buffered() {
                return result.map(Some);
            }
            if self.fill().await? == 0 {
                return match (self.buffered(), self.skip) {
                    (0, 0) => Ok(None),
                    (buffered, _) => Err(FrameError::Truncated { buffered }),
                };
            }
        }
    }
}

/// Writes frames of message type `M` to `W`, batching queued frames.
pub struct FrameWriter<W, M> {
    inner: W,
    buf: Vec<u8>,
    /// Bytes of `buf` already written by an interrupted flush.
    written: usize,
    _msg: PhantomData<fn(M)>,
}

impl<W: AsyncWrite + Unpin, M: WireMessage> FrameWriter<W, M> {
    pub fn new(inner: W) -> Self {
        FrameWriter {
            inner,
            buf: Vec::new(),
            written: 0,
            _msg: PhantomData,
        }
    }

    /// The underlying stream (e.g. to `finish()` a QUIC send stream).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Gives back the stream; unflushed frames are dropped.
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// Encodes `msg` into the send buffer (nothing is written yet). The
    /// buffer is not bounded here: flush regularly (e.g. whenever
    /// [`FrameWriter::pending`] passes 32 KiB, and when the burst ends).
    pub fn queue(&mut self, msg: &M) -> Result<(), FrameError> {
        append_frame(msg, &mut self.buf)
    }

    /// Adds an already encoded complete frame (from [`encode_frame`]).
    pub fn queue_raw(&mut self, frame: &[u8]) {
        self.buf.extend_from_slice(frame);
    }

    /// Bytes queued and not yet written.
    pub fn pending(&self) -> usize {
        self.buf.len() - self.written
    }

    /// Writes every queued frame. Cancel-safe: a cancelled flush resumes
    /// where it stopped on the next call.
    pub async fn flush(&mut self) -> Result<(), FrameError> {
        while self.written < self.buf.len() {
            let n = self.inner.write(&self.buf[self.written..]).await?;
            if n == 0 {
                return Err(std::io::Error::from(std::io::ErrorKind::WriteZero).into());
            }
            self.written += n;
        }
        self.buf.clear();
        self.written = 0;
        // Don't keep a snapshot-sized buffer around per connection.
        if self.buf.capacity() > KEEP_WRITE_CAPACITY {
            self.buf.shrink_to(KEEP_WRITE_CAPACITY);
        }
        self.inner.flush().await?;
        Ok(())
    }

    /// Queues `msg` and flushes.
    pub async fn send(&mut self, msg: &M) -> Result<(), FrameError> {
        self.queue(msg)?;
        self.flush().await
    }
}
