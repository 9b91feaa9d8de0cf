//! Packets: MySQL's framing, and the byte-level readers and writers every other part of the
//! wire layer is built on.
//!
//! ## Framing (the one spec; other modules link here)
//!
//! ```text
//! ┌──────────────┬─────────┬──────────────────────────┐
//! │ length: u24  │ seq: u8 │ payload: `length` bytes  │   length little-endian
//! └──────────────┴─────────┴──────────────────────────┘
//! ```
//!
//! - A *logical* packet (one command, one row, one OK …) of `n` bytes travels as
//!   `n / 0xFF_FFFF` chunks of exactly `0xFF_FFFF` bytes followed by one chunk of
//!   `n % 0xFF_FFFF` bytes — which is empty when `n` is an exact multiple. A chunk of less
//!   than `0xFF_FFFF` bytes ends the logical packet. Example: 0x1_000_000 (16 MiB) bytes
//!   = `FF FF FF s` + 16,777,215 bytes, then `01 00 00 s+1` + 1 byte.
//! - `seq` counts chunks within one exchange and wraps at 256. Every command from the
//!   client starts at 0; the server's response continues the count (its first packet
//!   carries the request's seq + 1); a multi-round exchange (authentication, LOAD DATA
//!   LOCAL) keeps counting in both directions. A wrong seq means the two sides disagree
//!   about where they are: `ER_NET_PACKETS_OUT_OF_ORDER` (1156) and close, as MySQL does.
//! - `max_allowed_packet` bounds a logical packet the server *receives*. A longer one is
//!   refused as soon as its header announces it — the payload is never buffered — with
//!   `ER_NET_PACKET_TOO_LARGE` (1153) and the connection is closed (MySQL does the same:
//!   the rest of the packet is still in flight, so the stream cannot be resynchronised).
//!   A packet of exactly `max_allowed_packet` bytes is accepted.
//!
//! ## Integers and strings inside payloads
//!
//! Fixed-width integers are little-endian. A *length-encoded integer* is one byte
//! `< 0xFB`, or `0xFC` + u16, `0xFD` + u24, `0xFE` + u64 (`0xFB` is NULL in rows, `0xFF`
//! starts an ERR packet; neither is a valid integer). A *length-encoded string* is a
//! length-encoded integer followed by that many bytes; a *NUL string* ends at the first
//! 0 byte; a *rest string* runs to the end of the payload.
//!
//! ## Rules this module keeps
//!
//! - Reading never panics and never trusts a client length: every [`Cursor`] read checks
//!   the remaining bytes and returns [`ProtoError::Truncated`].
//! - Reading is buffered (one `read` syscall serves many small packets: pipelined
//!   commands, the many packets of a LOAD DATA upload) and the payload buffer is reused,
//!   so the steady state allocates nothing; a buffer that a huge packet grew past 1 MiB
//!   is given back before the next read.
//! - Writing only appends to one `Vec<u8>`; a whole response (header, rows, OK) goes out
//!   with one `write_all` when the caller [`flush`](PacketWriter::flush)es. Large result
//!   sets flush whenever [`buffered_len`](PacketWriter::buffered_len) passes
//!   [`FLUSH_HINT_BYTES`], which bounds memory per connection.
//! - [`PacketReader::read`] is not cancellation-safe: if its future is dropped half way
//!   (a timeout), the stream position is lost and the connection must be closed.

use crate::error::{MyError, code};
use std::fmt;
use std::io;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

/// Payload bytes in one full chunk; a chunk this long continues in the next one.
pub const MAX_CHUNK_BYTES: usize = 0xFF_FFFF;
/// Bytes in a packet header (u24 length + u8 sequence id).
pub const HEADER_BYTES: usize = 4;
/// Size of the read buffer between the socket and the packet reader.
pub const READ_BUFFER_BYTES: usize = 16 * 1024;
/// Initial capacity of the payload and output buffers.
pub const INITIAL_BUFFER_BYTES: usize = 16 * 1024;
/// A payload buffer grown beyond this by a huge packet is shrunk before the next read.
pub const READ_SHRINK_ABOVE_BYTES: usize = 1 << 20;
/// An output buffer grown beyond this is shrunk after it is flushed (larger than the flush
/// hint so that a result set flushed at the hint does not reallocate every time).
pub const WRITE_SHRINK_ABOVE_BYTES: usize = 4 << 20;
/// Callers streaming a result set flush once [`PacketWriter::buffered_len`] passes this.
pub const FLUSH_HINT_BYTES: usize = 1 << 20;
/// MySQL 8.0's default `max_allowed_packet` (64 MiB).
pub const DEFAULT_MAX_ALLOWED_PACKET: usize = 64 << 20;
/// MySQL's `ER_MALFORMED_PACKET` (not yet in `crate::error::code`).
pub const ER_MALFORMED_PACKET: u16 = 1835;

/// A failure of the packet stream itself. All of these end the connection; the ones with
/// a [`to_my_error`](PacketError::to_my_error) are reported to the client first.
#[derive(Debug)]
pub enum PacketError {
    Io(io::Error),
    /// The peer closed the connection in the middle of a packet.
    UnexpectedEof,
    /// A chunk carried the wrong sequence id.
    OutOfOrder {
        expected: u8,
        got: u8,
    },
    /// A logical packet longer than `max_allowed_packet`.
    TooLarge {
        max_bytes: usize,
    },
}

impl PacketError {
    /// The error to send before closing, if the client can still hear one.
    pub fn to_my_error(&self) -> Option<MyError> {
        match self {
            PacketError::Io(_) | PacketError::UnexpectedEof => None,
            PacketError::OutOfOrder { .. } => Some(MyError::new(
                code::ER_NET_PACKETS_OUT_OF_ORDER,
                "Got packets out of order",
            )),
            PacketError::TooLarge { .. } => Some(MyError::new(
                code::ER_NET_PACKET_TOO_LARGE,
                "Got a packet bigger than 'max_allowed_packet' bytes",
            )),
        }
    }
}

impl fmt::Display for PacketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PacketError::Io(e) => write!(f, "i/o error: {e}"),
            PacketError::UnexpectedEof => {
                f.write_str("connection closed in the middle of a packet")
            }
            PacketError::OutOfOrder { expected, got } => {
                write!(f, "packet out of order: expected seq {expected}, got {got}")
            }
            PacketError::TooLarge { max_bytes } => {
                write!(
                    f,
                    "packet larger than max_allowed_packet ({max_bytes} bytes)"
                )
            }
        }
    }
}

impl std::error::Error for PacketError {}

impl From<io::Error> for PacketError {
    fn from(e: io::Error) -> PacketError {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            PacketError::UnexpectedEof
        } else {
            PacketError::Io(e)
        }
    }
}

/// A payload that does not parse: truncated, inconsistent, or asking for something Quire
/// does not do. The connection survives these unless they happen during the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtoError {
    /// The payload ended before a field did.
    Truncated,
    /// A field has an impossible value.
    Malformed(&'static str),
    /// The client sent an SSLRequest; Quire does not advertise CLIENT_SSL.
    SslRequested,
    /// COM_STMT_EXECUTE without parameter types, and none were sent before.
    NoParamTypes,
    /// COM_STMT_EXECUTE with a parameter type code that is not a MySQL type.
    BadParamType(u8),
}

impl ProtoError {
    /// The error MySQL sends for this kind of bad packet.
    pub fn to_my_error(&self) -> MyError {
        match self {
            ProtoError::Truncated | ProtoError::Malformed(_) => {
                MyError::new(ER_MALFORMED_PACKET, "Malformed communication packet.")
            }
            ProtoError::SslRequested => MyError::new(code::ER_HANDSHAKE_ERROR, "Bad handshake"),
            ProtoError::NoParamTypes | ProtoError::BadParamType(_) => MyError::new(
                code::ER_WRONG_ARGUMENTS,
                "Incorrect arguments to mysqld_stmt_execute",
            ),
        }
    }
}

impl fmt::Display for ProtoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtoError::Truncated => f.write_str("truncated packet"),
            ProtoError::Malformed(what) => write!(f, "malformed packet: {what}"),
            ProtoError::SslRequested => f.write_str("client requested SSL"),
            ProtoError::NoParamTypes => f.write_str("no parameter types bound"),
            ProtoError::BadParamType(t) => write!(f, "unknown parameter type {t}"),
        }
    }
}

impl std::error::Error for ProtoError {}

// ───────────────────────────── reading ─────────────────────────────

/// Reads logical packets from a byte stream, checking sequence ids and the size limit.
pub struct PacketReader<R> {
    inner: BufReader<R>,
    buf: Vec<u8>,
    /// The sequence id the next chunk must carry.
    seq: u8,
    max_packet_bytes: usize,
}

impl<R: AsyncRead + Unpin> PacketReader<R> {
    pub fn new(inner: R) -> PacketReader<R> {
        PacketReader {
            inner: BufReader::with_capacity(READ_BUFFER_BYTES, inner),
            buf: Vec::with_capacity(INITIAL_BUFFER_BYTES),
            seq: 0,
            max_packet_bytes: DEFAULT_MAX_ALLOWED_PACKET,
        }
    }

    /// Sets `max_allowed_packet` for packets read from now on.
    pub fn set_max_packet_bytes(&mut self, max_bytes: usize) {
        self.max_packet_bytes = max_bytes;
    }

    pub fn max_packet_bytes(&self) -> usize {
        self.max_packet_bytes
    }

    /// Expect sequence id 0 next: call before reading each new command.
    pub fn reset_seq(&mut self) {
        self.seq = 0;
    }

    /// Expect `seq` next (after the server wrote packets in a multi-round exchange, pass
    /// [`PacketWriter::seq`]).
    pub fn set_seq(&mut self, seq: u8) {
        self.seq = seq;
    }

    /// The sequence id the next packet must carry — which is also the one the response to
    /// the packet just read must start with ([`PacketWriter::set_seq`]).
    pub fn seq(&self) -> u8 {
        self.seq
    }

    /// Bytes already received but not yet returned as packets (pipelined commands).
    pub fn buffered_bytes(&self) -> usize {
        self.inner.buffer().len()
    }

    pub fn get_ref(&self) -> &R {
        self.inner.get_ref()
    }

    pub fn get_mut(&mut self) -> &mut R {
        self.inner.get_mut()
    }

    /// Reads one logical packet into the reader's own buffer and returns its payload;
    /// `Ok(None)` when the peer closed the connection cleanly between packets. The payload
    /// borrows the reader: to keep it while using the reader again (its sequence id, more
    /// packets of LOAD DATA), read with [`read_into`](Self::read_into) into a buffer the
    /// session owns — no copy, no allocation.
    pub async fn read(&mut self) -> Result<Option<&[u8]>, PacketError> {
        let mut buf = std::mem::take(&mut self.buf);
        let res = self.read_into(&mut buf).await;
        self.buf = buf;
        match res {
            Ok(true) => Ok(Some(&self.buf)),
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Waits until bytes (or EOF) can be read, consuming nothing: cancel-safe, for a
    /// `select!` with other events.
    pub async fn wait_readable(&mut self) {
        use tokio::io::AsyncBufReadExt;
        let _ = self.inner.fill_buf().await;
    }

    /// Like [`read`](Self::read) but into a buffer the caller owns (cleared first; shrunk
    /// if a previous huge packet grew it past [`READ_SHRINK_ABOVE_BYTES`]). Returns
    /// `false` on a clean EOF between packets.
    pub async fn read_into(&mut self, out: &mut Vec<u8>) -> Result<bool, PacketError> {
        out.clear();
        if out.capacity() > READ_SHRINK_ABOVE_BYTES {
            out.shrink_to(INITIAL_BUFFER_BYTES);
        }
        let mut first_chunk = true;
        loop {
            let mut header = [0u8; HEADER_BYTES];
            let mut got = 0;
            while got < HEADER_BYTES {
                let n = self.inner.read(&mut header[got..]).await?;
                if n == 0 {
                    if first_chunk && got == 0 {
                        return Ok(false);
                    }
                    return Err(PacketError::UnexpectedEof);
                }
                got += n;
            }
            let [l0, l1, l2, seq] = header;
            let len = u32::from_le_bytes([l0, l1, l2, 0]) as usize;
            if seq != self.seq {
                return Err(PacketError::OutOfOrder {
                    expected: self.seq,
                    got: seq,
                });
            }
            self.seq = self.seq.wrapping_add(1);
            let old_len = out.len();
            let new_len = old_len + len;
            if new_len > self.max_packet_bytes {
                return Err(PacketError::TooLarge {
                    max_bytes: self.max_packet_bytes,
                });
            }
            out.resize(new_len, 0);
            self.inner.read_exact(&mut out[old_len..]).await?;
            if len < MAX_CHUNK_BYTES {
                return Ok(true);
            }
            first_chunk = false;
        }
    }
}

/// A read position in a payload. Every read checks the remaining length and fails with
/// [`ProtoError::Truncated`] instead of panicking.
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    buf: &'a [u8],
}

/// The result of a [`Cursor`] read.
pub type PResult<T> = Result<T, ProtoError>;

impl<'a> Cursor<'a> {
    pub fn new(buf: &'a [u8]) -> Cursor<'a> {
        Cursor { buf }
    }

    pub fn remaining(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> PResult<[u8; N]> {
        let (head, rest) = self
            .buf
            .split_first_chunk::<N>()
            .ok_or(ProtoError::Truncated)?;
        self.buf = rest;
        Ok(*head)
    }

    #[inline]
    pub fn u8(&mut self) -> PResult<u8> {
        let (&b, rest) = self.buf.split_first().ok_or(ProtoError::Truncated)?;
        self.buf = rest;
        Ok(b)
    }

    #[inline]
    pub fn u16(&mut self) -> PResult<u16> {
        self.array().map(u16::from_le_bytes)
    }

    #[inline]
    pub fn u24(&mut self) -> PResult<u32> {
        let [a, b, c] = self.array()?;
        Ok(u32::from_le_bytes([a, b, c, 0]))
    }

    #[inline]
    pub fn u32(&mut self) -> PResult<u32> {
        self.array().map(u32::from_le_bytes)
    }

    #[inline]
    pub fn u64(&mut self) -> PResult<u64> {
        self.array().map(u64::from_le_bytes)
    }

    #[inline]
    pub fn f32(&mut self) -> PResult<f32> {
        self.array().map(f32::from_le_bytes)
    }

    #[inline]
    pub fn f64(&mut self) -> PResult<f64> {
        self.array().map(f64::from_le_bytes)
    }

    /// The next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> PResult<&'a [u8]> {
        let (head, rest) = self.buf.split_at_checked(n).ok_or(ProtoError::Truncated)?;
        self.buf = rest;
        Ok(head)
    }

    pub fn skip(&mut self, n: usize) -> PResult<()> {
        self.bytes(n).map(|_| ())
    }

    /// A length-encoded integer (`0xFB` and `0xFF` are not integers: malformed).
    #[inline]
    pub fn lenenc_int(&mut self) -> PResult<u64> {
        match self.u8()? {
            b @ 0..=0xFA => Ok(b as u64),
            0xFC => self.u16().map(u64::from),
            0xFD => self.u24().map(u64::from),
            0xFE => self.u64(),
            _ => Err(ProtoError::Malformed("bad length-encoded integer")),
        }
    }

    /// A length-encoded string.
    #[inline]
    pub fn lenenc_bytes(&mut self) -> PResult<&'a [u8]> {
        let len = self.lenenc_int()?;
        let len = usize::try_from(len).map_err(|_| ProtoError::Truncated)?;
        self.bytes(len)
    }

    /// A NUL-terminated string (the NUL is consumed, not returned).
    pub fn nul_str(&mut self) -> PResult<&'a [u8]> {
        let end = self
            .buf
            .iter()
            .position(|&b| b == 0)
            .ok_or(ProtoError::Truncated)?;
        let s = self.bytes(end)?;
        self.skip(1)?;
        Ok(s)
    }

    /// A NUL-terminated string, or the rest of the payload if no NUL follows (old clients
    /// omit the NUL after the last field).
    pub fn nul_str_or_rest(&mut self) -> &'a [u8] {
        match self.nul_str() {
            Ok(s) => s,
            Err(_) => self.rest(),
        }
    }

    /// Everything that is left.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.buf)
    }
}

// ───────────────────────────── writing ─────────────────────────────

/// Appends a length-encoded integer.
#[inline(always)]
pub fn put_lenenc_int(buf: &mut Vec<u8>, v: u64) {
    if v < 0xFB {
        buf.push(v as u8);
    } else {
        put_lenenc_int_long(buf, v);
    }
}

#[inline(never)]
fn put_lenenc_int_long(buf: &mut Vec<u8>, v: u64) {
    if v <= 0xFFFF {
        buf.push(0xFC);
        buf.extend_from_slice(&(v as u16).to_le_bytes());
    } else if v <= 0xFF_FFFF {
        buf.push(0xFD);
        buf.extend_from_slice(&(v as u32).to_le_bytes()[..3]);
    } else {
        buf.push(0xFE);
        buf.extend_from_slice(&v.to_le_bytes());
    }
}

/// Bytes a length-encoded integer prefix for `v` takes.
#[inline]
pub fn lenenc_int_len(v: u64) -> usize {
    if v < 0xFB {
        1
    } else if v <= 0xFFFF {
        3
    } else if v <= 0xFF_FFFF {
        4
    } else {
        9
    }
}

/// Appends a length-encoded string.
#[inline(always)]
pub fn put_lenenc_bytes(buf: &mut Vec<u8>, s: &[u8]) {
    buf.reserve(s.len() + 9);
    put_lenenc_int(buf, s.len() as u64);
    buf.extend_from_slice(s);
}

/// Appends a length-encoded string produced by `fill`, which appends its bytes to the
/// buffer directly: one length byte is reserved and, in the rare case the text is 251
/// bytes or longer, the text is moved up to make room for the longer prefix. This avoids
/// formatting into a scratch buffer and copying.
#[inline]
pub fn put_lenenc_with(buf: &mut Vec<u8>, fill: impl FnOnce(&mut Vec<u8>)) {
    let len_pos = buf.len();
    buf.push(0);
    fill(buf);
    let start = len_pos + 1;
    let n = buf.len() - start;
    if n < 0xFB {
        buf[len_pos] = n as u8;
        return;
    }
    let prefix = lenenc_int_len(n as u64);
    let extra = prefix - 1;
    let end = buf.len();
    buf.resize(end + extra, 0);
    buf.copy_within(start..end, start + extra);
    let n = n as u64;
    let prefix_bytes: &mut [u8] = &mut buf[len_pos..len_pos + prefix];
    match prefix {
        3 => {
            prefix_bytes[0] = 0xFC;
            prefix_bytes[1..].copy_from_slice(&(n as u16).to_le_bytes());
        }
        4 => {
            prefix_bytes[0] = 0xFD;
            prefix_bytes[1..].copy_from_slice(&(n as u32).to_le_bytes()[..3]);
        }
        _ => {
            prefix_bytes[0] = 0xFE;
            prefix_bytes[1..].copy_from_slice(&n.to_le_bytes());
        }
    }
}

/// Buffers outgoing packets. `begin()`, append the payload, `end()`; then
/// [`flush`](Self::flush) writes everything with one `write_all`.
///
/// Invariant: at most one packet is open (between `begin` and `end`) at a time, and none
/// is open at `flush`.
#[derive(Debug)]
pub struct PacketWriter {
    buf: Vec<u8>,
    seq: u8,
    /// Offset of the open packet's header.
    open: Option<usize>,
    /// Bytes flushed (or split off to be sent elsewhere) so far.
    flushed_bytes: u64,
}

impl Default for PacketWriter {
    fn default() -> Self {
        PacketWriter::new()
    }
}

/// A point to roll back to: see [`PacketWriter::mark`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    len: usize,
    seq: u8,
}

impl Mark {
    /// The sequence id of the first packet after the mark.
    pub fn seq(&self) -> u8 {
        self.seq
    }
}

impl PacketWriter {
    pub fn new() -> PacketWriter {
        PacketWriter {
            buf: Vec::with_capacity(INITIAL_BUFFER_BYTES),
            seq: 0,
            open: None,
            flushed_bytes: 0,
        }
    }

    /// Bytes of responses produced so far: flushed, split off, or buffered.
    pub fn total_bytes(&self) -> u64 {
        self.flushed_bytes + self.buf.len() as u64
    }

    /// The sequence id the next packet will carry.
    pub fn seq(&self) -> u8 {
        self.seq
    }

    pub fn set_seq(&mut self, seq: u8) {
        self.seq = seq;
    }

    pub fn reset_seq(&mut self) {
        self.seq = 0;
    }

    /// Bytes buffered and not yet flushed.
    pub fn buffered_len(&self) -> usize {
        self.buf.len()
    }

    /// The bytes buffered and not yet flushed (whole packets, headers included).
    pub fn buffered(&self) -> &[u8] {
        &self.buf
    }

    /// Starts a packet: reserves its header.
    #[inline]
    pub fn begin(&mut self) {
        assert!(
            self.open.is_none(),
            "PacketWriter::begin with a packet open"
        );
        self.open = Some(self.buf.len());
        self.buf.extend_from_slice(&[0; HEADER_BYTES]);
    }

    /// Ends the open packet: fills in its header, splitting a payload of `0xFF_FFFF` bytes
    /// or more into continuation chunks (with a trailing empty chunk when the payload is an
    /// exact multiple), each taking the next sequence id.
    pub fn end(&mut self) {
        let Some(start) = self.open.take() else {
            panic!("PacketWriter::end without begin");
        };
        let payload_len = self.buf.len() - start - HEADER_BYTES;
        if payload_len < MAX_CHUNK_BYTES {
            self.write_header(start, payload_len);
            return;
        }
        // Split: chunk i (0..=full) moves from start+4+i*MAX to start+4+i*(MAX+4). Moving
        // the last chunk first never overwrites bytes not yet moved, because each chunk's
        // destination starts at or after the end of the preceding chunk's source.
        let full = payload_len / MAX_CHUNK_BYTES;
        let old_end = self.buf.len();
        self.buf.resize(old_end + full * HEADER_BYTES, 0);
        for i in (1..=full).rev() {
            let src = start + HEADER_BYTES + i * MAX_CHUNK_BYTES;
            let len = if i == full {
                payload_len - full * MAX_CHUNK_BYTES
            } else {
                MAX_CHUNK_BYTES
            };
            let dst = start + i * (MAX_CHUNK_BYTES + HEADER_BYTES) + HEADER_BYTES;
            self.buf.copy_within(src..src + len, dst);
        }
        for i in 0..=full {
            let len = if i == full {
                payload_len - full * MAX_CHUNK_BYTES
            } else {
                MAX_CHUNK_BYTES
            };
            self.write_header(start + i * (MAX_CHUNK_BYTES + HEADER_BYTES), len);
        }
    }

    #[inline]
    fn write_header(&mut self, at: usize, len: usize) {
        debug_assert!(len <= MAX_CHUNK_BYTES);
        let [a, b, c, _] = (len as u32).to_le_bytes();
        self.buf[at..at + HEADER_BYTES].copy_from_slice(&[a, b, c, self.seq]);
        self.seq = self.seq.wrapping_add(1);
    }

    /// One whole packet with the given payload.
    pub fn packet(&mut self, payload: &[u8]) {
        self.begin();
        self.buf.extend_from_slice(payload);
        self.end();
    }

    /// The output buffer, for appending payload bytes directly (only between `begin` and
    /// `end`).
    #[inline]
    pub fn buf_mut(&mut self) -> &mut Vec<u8> {
        debug_assert!(self.open.is_some(), "payload written outside a packet");
        &mut self.buf
    }

    #[inline]
    pub fn put_u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    #[inline]
    pub fn put_u16_le(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    #[inline]
    pub fn put_u24_le(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes()[..3]);
    }

    #[inline]
    pub fn put_u32_le(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    #[inline]
    pub fn put_u64_le(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    #[inline]
    pub fn put_bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    #[inline]
    pub fn put_lenenc_int(&mut self, v: u64) {
        put_lenenc_int(&mut self.buf, v);
    }

    #[inline]
    pub fn put_lenenc_bytes(&mut self, s: &[u8]) {
        put_lenenc_bytes(&mut self.buf, s);
    }

    /// Appends `s` and a NUL. `s` must not contain NUL (it is cut at the first one).
    pub fn put_nul_str(&mut self, s: &[u8]) {
        let s = match s.iter().position(|&b| b == 0) {
            Some(i) => &s[..i],
            None => s,
        };
        self.buf.extend_from_slice(s);
        self.buf.push(0);
    }

    /// Remembers the current end of the buffer and sequence id, so that a response that
    /// fails half way (before anything was flushed) can be replaced by an ERR packet.
    pub fn mark(&self) -> Mark {
        assert!(self.open.is_none(), "PacketWriter::mark with a packet open");
        Mark {
            len: self.buf.len(),
            seq: self.seq,
        }
    }

    /// Discards everything buffered after `mark`. Returns false (and changes nothing) if
    /// the buffer was flushed since, in which case the partial response is already out.
    pub fn rollback(&mut self, mark: Mark) -> bool {
        if self.buf.len() < mark.len || self.open.is_some() {
            return false;
        }
        self.buf.truncate(mark.len);
        self.seq = mark.seq;
        true
    }

    /// Takes the whole packets buffered after `mark` (a response, to be sent elsewhere),
    /// leaving what came before it. `None` (and nothing changes) if the buffer was flushed
    /// since `mark`.
    pub fn split_off(&mut self, mark: Mark) -> Option<Vec<u8>> {
        assert!(
            self.open.is_none(),
            "PacketWriter::split_off with a packet open"
        );
        let taken = (self.buf.len() >= mark.len).then(|| self.buf.split_off(mark.len));
        self.flushed_bytes += taken.as_ref().map_or(0, |t| t.len() as u64);
        taken
    }

    /// Appends bytes that are already framed (the rest of a response sent in part).
    pub fn push_framed(&mut self, bytes: &[u8]) {
        assert!(
            self.open.is_none(),
            "PacketWriter::push_framed with a packet open"
        );
        // These bytes were counted when split off; they are counted again when flushed.
        self.flushed_bytes = self.flushed_bytes.saturating_sub(bytes.len() as u64);
        self.buf.extend_from_slice(bytes);
    }

    /// Drops everything buffered (after a write error the connection is closed anyway).
    pub fn clear(&mut self) {
        self.buf.clear();
        self.open = None;
    }

    /// Hands everything buffered to `write` (a blocking write of all of it), then clears
    /// the buffer as [`PacketWriter::flush`] does.
    pub fn flush_with(&mut self, write: impl FnOnce(&[u8]) -> io::Result<()>) -> io::Result<()> {
        assert!(
            self.open.is_none(),
            "PacketWriter::flush_with with a packet open"
        );
        if !self.buf.is_empty() {
            write(&self.buf)?;
            self.clear_flushed();
        }
        Ok(())
    }

    fn clear_flushed(&mut self) {
        self.flushed_bytes += self.buf.len() as u64;
        self.buf.clear();
        if self.buf.capacity() > WRITE_SHRINK_ABOVE_BYTES {
            self.buf.shrink_to(INITIAL_BUFFER_BYTES);
        }
    }

    /// Writes everything buffered with one `write_all`, then clears the buffer (shrinking
    /// it if a huge response grew it past [`WRITE_SHRINK_ABOVE_BYTES`]).
    pub async fn flush<W: AsyncWrite + Unpin>(&mut self, w: &mut W) -> io::Result<()> {
        assert!(
            self.open.is_none(),
            "PacketWriter::flush with a packet open"
        );
        if !self.buf.is_empty() {
            w.write_all(&self.buf).await?;
            self.clear_flushed();
        }
        w.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader fed by a task that flushes `w` through a small duplex pipe, so the reader
    /// sees the bytes arrive in pieces.
    fn through_pipe(w: PacketWriter) -> PacketReader<tokio::io::DuplexStream> {
        let (mut a, b) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            let mut w = w;
            w.flush(&mut a).await.unwrap();
        });
        PacketReader::new(b)
    }

    fn reader_over(bytes: Vec<u8>) -> PacketReader<std::io::Cursor<Vec<u8>>> {
        PacketReader::new(std::io::Cursor::new(bytes))
    }

    #[tokio::test]
    async fn small_packets_round_trip() {
        let mut w = PacketWriter::new();
        w.packet(b"\x03select 1");
        w.packet(b"");
        w.begin();
        w.put_lenenc_bytes(b"abc");
        w.put_u16_le(0x1234);
        w.end();
        assert_eq!(w.seq(), 3);
        let bytes = w.buf.clone();
        assert_eq!(&bytes[..4], &[9, 0, 0, 0]);
        let mut r = reader_over(bytes);
        assert_eq!(r.read().await.unwrap().unwrap(), b"\x03select 1");
        assert_eq!(r.read().await.unwrap().unwrap(), b"");
        assert_eq!(r.read().await.unwrap().unwrap(), b"\x03abc\x34\x12");
        assert!(r.read().await.unwrap().is_none());
        assert_eq!(r.seq(), 3);
    }

    #[tokio::test]
    async fn bad_sequence_id_is_an_error() {
        let mut w = PacketWriter::new();
        w.set_seq(5);
        w.packet(b"\x0e");
        let mut r = reader_over(w.buf.clone());
        match r.read().await {
            Err(
                e @ PacketError::OutOfOrder {
                    expected: 0,
                    got: 5,
                },
            ) => {
                assert_eq!(e.to_my_error().unwrap().code, 1156);
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn eof_mid_header_and_mid_payload() {
        let mut r = reader_over(vec![5, 0]);
        assert!(matches!(r.read().await, Err(PacketError::UnexpectedEof)));
        let mut r = reader_over(vec![5, 0, 0, 0, b'a', b'b']);
        assert!(matches!(r.read().await, Err(PacketError::UnexpectedEof)));
        let mut r = reader_over(vec![]);
        assert!(r.read().await.unwrap().is_none());
    }

    #[tokio::test]
    async fn oversized_packet_is_refused_without_buffering() {
        // Header announces 1000 bytes; only 10 follow. The limit check must fire on the
        // header, before waiting for (or buffering) the payload.
        let mut bytes = vec![0xE8, 0x03, 0x00, 0x00];
        bytes.extend_from_slice(&[0u8; 10]);
        let mut r = reader_over(bytes);
        r.set_max_packet_bytes(999);
        match r.read().await {
            Err(e @ PacketError::TooLarge { max_bytes: 999 }) => {
                let my = e.to_my_error().unwrap();
                assert_eq!(my.code, 1153);
                assert_eq!(my.state, "08S01");
            }
            other => panic!("{other:?}"),
        }
        // Exactly at the limit is fine.
        let mut w = PacketWriter::new();
        w.packet(&[7u8; 999]);
        let mut r = reader_over(w.buf.clone());
        r.set_max_packet_bytes(999);
        assert_eq!(r.read().await.unwrap().unwrap().len(), 999);
    }

    #[tokio::test]
    async fn limit_applies_to_the_logical_packet_across_chunks() {
        let mut w = PacketWriter::new();
        w.packet(&vec![1u8; MAX_CHUNK_BYTES + 10]);
        let mut r = reader_over(w.buf.clone());
        r.set_max_packet_bytes(MAX_CHUNK_BYTES + 5);
        assert!(matches!(r.read().await, Err(PacketError::TooLarge { .. })));
    }

    fn pattern(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i % 251) as u8).collect()
    }

    #[tokio::test]
    async fn split_16mib_packets_round_trip() {
        for n in [
            MAX_CHUNK_BYTES - 1,
            MAX_CHUNK_BYTES,
            MAX_CHUNK_BYTES + 1,
            2 * MAX_CHUNK_BYTES,
            2 * MAX_CHUNK_BYTES + 7,
        ] {
            let data = pattern(n);
            let mut w = PacketWriter::new();
            w.set_seq(254);
            w.packet(b"x");
            w.packet(&data);
            w.packet(b"y");
            let chunks = n / MAX_CHUNK_BYTES + 1;
            // seq: 254 for "x", then `chunks` ids wrapping past 255, then one for "y".
            assert_eq!(w.seq(), 254u8.wrapping_add(2 + chunks as u8), "n={n}");
            // Headers of the split chunks.
            let first = 5; // after "x" packet (4 + 1 bytes)
            let first_len = n.min(MAX_CHUNK_BYTES);
            assert_eq!(
                w.buf[first..first + 4],
                [
                    first_len as u8,
                    (first_len >> 8) as u8,
                    (first_len >> 16) as u8,
                    255
                ]
            );
            let last_hdr = first + (chunks - 1) * (MAX_CHUNK_BYTES + 4);
            let last_len = n % MAX_CHUNK_BYTES;
            assert_eq!(
                w.buf[last_hdr..last_hdr + 4],
                [
                    last_len as u8,
                    (last_len >> 8) as u8,
                    (last_len >> 16) as u8,
                    255u8.wrapping_add(chunks as u8 - 1)
                ]
            );
            let mut r = through_pipe(w);
            r.set_seq(254);
            r.set_max_packet_bytes(3 * MAX_CHUNK_BYTES);
            assert_eq!(r.read().await.unwrap().unwrap(), b"x");
            let got = r.read().await.unwrap().unwrap();
            assert_eq!(got.len(), n);
            assert!(got == &data[..], "payload differs for n={n}");
            assert_eq!(r.read().await.unwrap().unwrap(), b"y");
            assert!(r.read().await.unwrap().is_none());
            // The next read after a huge packet gives the memory back.
            let mut r2 = reader_over(vec![1, 0, 0, 0, 9]);
            let mut big = Vec::with_capacity(8 << 20);
            assert!(r2.read_into(&mut big).await.unwrap());
            assert!(big.capacity() <= READ_SHRINK_ABOVE_BYTES);
        }
    }

    #[tokio::test]
    async fn flush_writes_everything_and_shrinks() {
        let mut w = PacketWriter::new();
        w.packet(&vec![0u8; 5 << 20]);
        w.packet(b"abc");
        let (mut a, mut b) = tokio::io::duplex(64 << 20);
        w.flush(&mut a).await.unwrap();
        assert_eq!(w.buffered_len(), 0);
        assert!(w.buf.capacity() <= WRITE_SHRINK_ABOVE_BYTES);
        drop(a);
        let mut all = Vec::new();
        b.read_to_end(&mut all).await.unwrap();
        assert_eq!(all.len(), (5 << 20) + 4 + 3 + 4);
    }

    #[test]
    fn mark_and_rollback() {
        let mut w = PacketWriter::new();
        w.set_seq(1);
        w.packet(b"keep");
        let m = w.mark();
        w.packet(b"row1");
        w.packet(b"row2");
        assert!(w.rollback(m));
        assert_eq!(w.seq(), 2);
        assert_eq!(w.buffered_len(), 8);
    }

    #[test]
    fn split_off_takes_the_response_after_a_mark() {
        let mut w = PacketWriter::new();
        w.set_seq(1);
        w.packet(b"first");
        let m = w.mark();
        w.packet(b"ok");
        assert_eq!(w.split_off(m).unwrap(), [2, 0, 0, 2, b'o', b'k']);
        assert_eq!(w.buffered(), [5, 0, 0, 1, b'f', b'i', b'r', b's', b't']);
        w.clear();
        assert_eq!(w.split_off(m), None, "flushed since the mark");
    }

    #[test]
    fn lenenc_ints() {
        for (v, len) in [
            (0u64, 1),
            (250, 1),
            (251, 3),
            (0xFFFF, 3),
            (0x1_0000, 4),
            (0xFF_FFFF, 4),
            (0x100_0000, 9),
            (u64::MAX, 9),
        ] {
            let mut b = Vec::new();
            put_lenenc_int(&mut b, v);
            assert_eq!(b.len(), len, "{v}");
            assert_eq!(lenenc_int_len(v), len);
            let mut c = Cursor::new(&b);
            assert_eq!(c.lenenc_int().unwrap(), v);
            assert!(c.is_empty());
            // Every truncation is a clean error.
            for cut in 0..b.len() {
                assert_eq!(
                    Cursor::new(&b[..cut]).lenenc_int(),
                    Err(ProtoError::Truncated)
                );
            }
        }
        assert!(matches!(
            Cursor::new(&[0xFB]).lenenc_int(),
            Err(ProtoError::Malformed(_))
        ));
        assert!(matches!(
            Cursor::new(&[0xFF]).lenenc_int(),
            Err(ProtoError::Malformed(_))
        ));
    }

    #[test]
    fn lenenc_with_moves_long_text() {
        for n in [0usize, 1, 250, 251, 252, 65535, 65536, 70000] {
            let mut b = vec![9u8];
            put_lenenc_with(&mut b, |out| out.extend(pattern(n)));
            let mut c = Cursor::new(&b);
            assert_eq!(c.u8().unwrap(), 9);
            assert_eq!(c.lenenc_bytes().unwrap(), &pattern(n)[..]);
            assert!(c.is_empty());
        }
    }

    #[test]
    fn cursor_reads_and_truncation() {
        let data = b"\x01\x02\x03\x04\x05\x06\x07\x08abc\0rest";
        let mut c = Cursor::new(data);
        assert_eq!(c.u8().unwrap(), 1);
        assert_eq!(c.u16().unwrap(), 0x0302);
        assert_eq!(c.u24().unwrap(), 0x060504);
        assert_eq!(c.bytes(2).unwrap(), b"\x07\x08");
        assert_eq!(c.nul_str().unwrap(), b"abc");
        assert_eq!(c.remaining(), 4);
        assert_eq!(c.u32().unwrap(), u32::from_le_bytes(*b"rest"));
        assert_eq!(c.u8(), Err(ProtoError::Truncated));
        assert_eq!(c.u64(), Err(ProtoError::Truncated));
        assert_eq!(c.bytes(1), Err(ProtoError::Truncated));
        assert_eq!(Cursor::new(b"no nul").nul_str(), Err(ProtoError::Truncated));
        assert_eq!(Cursor::new(b"no nul").nul_str_or_rest(), b"no nul");
        // A huge length-encoded length never panics or allocates.
        let mut c = Cursor::new(b"\xFE\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFFab");
        assert_eq!(c.lenenc_bytes(), Err(ProtoError::Truncated));
    }

    #[test]
    fn nul_str_is_cut_at_embedded_nul() {
        let mut w = PacketWriter::new();
        w.begin();
        w.put_nul_str(b"ab\0cd");
        w.end();
        assert_eq!(&w.buf[4..], b"ab\0");
    }
}
