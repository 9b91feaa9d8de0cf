//! Binary log v4 events: the byte format, specified here once, and their encoder.
//!
//! ## File
//!
//! A binlog file is the magic `FE 62 69 6E` ("\xfebin") followed by events. The first event
//! is a Format_description; the last is a Rotate (naming the next file) or a Stop (clean
//! shutdown), or nothing after a crash.
//!
//! ## Event
//!
//! ```text
//! header (19 bytes, little-endian):
//!   timestamp u32   seconds since the epoch when the statement started
//!   type      u8    see the constants below
//!   server_id u32   @@server_id of the writer
//!   size      u32   whole event: header + post-header + body + checksum
//!   log_pos   u32   file offset just past this event (next event's start)
//!   flags     u16   0 (LOG_EVENT_BINLOG_IN_USE_F in the first FDE of an open file)
//! post-header (fixed length per type, from the FDE's table) and body
//! checksum u32      CRC-32 (IEEE, as zlib) of header + post-header + body, when
//!                   binlog_checksum=CRC32
//! ```
//!
//! ## The events Quire writes
//!
//! | type | name | post-header | body |
//! |---|---|---|---|
//! | 15 | Format_description | — | binlog_version u16 = 4, server_version [50] NUL-padded, create_timestamp u32, header_length u8 = 19, post-header lengths [38] (types 1..=38, MySQL 5.7's table), checksum_alg u8 (0 none, 1 CRC32) |
//! | 2 | Query | thread_id u32, exec_time u32, db_len u8, error_code u16, status_vars_len u16 | status vars, db NUL, query text (no NUL) |
//! | 16 | Xid | — | xid u64 |
//! | 19 | Table_map | table_id u48, flags u16 = 1 (bit 0: NO_FLAGS) | db_len u8, db NUL, table_len u8, table NUL, column_count lenenc, types [n], metadata_len lenenc, metadata, null_bitmap [(n+7)/8] |
//! | 23/24/25 | Write/Update/Delete_rows (v1) | table_id u48, flags u16 (1 = STMT_END_F on a statement's last rows event; 2 = NO_FOREIGN_KEY_CHECKS_F, always) | column_count lenenc, present bitmap [(n+7)/8] (all columns), Update: a second present bitmap for the after image; then rows |
//! | 4 | Rotate | position u64 = 4 | next file name (no NUL) |
//! | 3 | Stop | — | — |
//! | 28 | Ignorable (flags: LOG_EVENT_IGNORABLE_F 0x80): the *filler* | — | with checksums a 4-byte patch, then zeros (the checksum is 0) |
//! | 28 | Ignorable (flags: LOG_EVENT_IGNORABLE_F 0x80): a *private* transaction | — | "QUIREPRV", then the transaction's events, each complete with its checksum (placed at offset 0) |
//!
//! A private transaction is one a session ran with `sql_log_bin=0` while `log_bin=ON`: it
//! must be in the journal (recovery replays it) but not in the binary log readers see. So it
//! is written as one Ignorable event wrapping its events: `mysqlbinlog` prints
//! `# Ignorable event type 28` and replicas skip it, while recovery unwraps and replays it.
//! A filler is an Ignorable event whose body does not start with the private mark.
//!
//! The filler: while a file is open, the journal keeps its disk space allocated ahead of the
//! last event (so that a commit's fsync does not also have to write the file's new size) and
//! formats that space as one Ignorable event running from the end of the log to the end of
//! the file: readers of the open file (`mysqlbinlog`, replicas) see a valid event they
//! skip, and every group commit rewrites its 19-byte header after its own events, then 4
//! bytes that make the event's checksum zero (see [`Filler`]), so that the file's last 4
//! bytes stay zero. Closing the file cuts it off; recovery treats the first filler as the
//! end of the log.
//!
//! Query status variables written (code, value): `0` flags2 u32 (OPTION_AUTO_IS_NULL
//! 0x4000, OPTION_NOT_AUTOCOMMIT 0x80000, OPTION_NO_FOREIGN_KEY_CHECKS 0x4000000,
//! OPTION_RELAXED_UNIQUE_CHECKS 0x8000000), `1` sql_mode u64, `6` catalog (len u8 +
//! "std"), `4` charset: character_set_client, collation_connection, collation_server
//! (3 × u16 collation ids).
//!
//! **Foreign keys.** Every rows event carries NO_FOREIGN_KEY_CHECKS_F. The journal holds
//! every row a transaction changed, including those a foreign key's CASCADE or SET NULL
//! changed (see `sql::fk`), and each was checked when it was made; a reader that applied the
//! events with foreign key checks on would check again and, worse, cascade a second time
//! (then fail on the cascaded rows' own events). Setting the flag on all rows events rather
//! than on those of statements that cascaded keeps the writer free of per-statement state;
//! recovery ignores the flag (it never checks foreign keys).
//!
//! A row image is a NULL bitmap over the present columns (bit set = NULL), then each non-NULL
//! value in the column's binlog type (an Update row is the before image then the after
//! image). Column types, their Table_map metadata and value encodings:
//!
//! | SQL type | type code | metadata | value |
//! |---|---|---|---|
//! | TINYINT/SMALLINT/MEDIUMINT/INT/BIGINT | 1/2/9/3/8 | — | 1/2/3/4/8 bytes LE, two's complement |
//! | FLOAT / DOUBLE | 4 / 5 | u8 size (4 / 8) | IEEE 754 LE |
//! | DECIMAL(p,s) | 246 | u8 p, u8 s | MySQL's binary decimal (below) |
//! | CHAR(n) / BINARY(n) | 254 | u8 (254 ^ ((L & 0x300) >> 4)), u8 (L & 0xFF); L = n × max bytes per char | length u8 (u16 LE if L > 255), bytes |
//! | VARCHAR(n) / VARBINARY(n) | 15 | u16 LE L = n × max bytes per char | length u8 (u16 LE if L > 255), bytes |
//! | TINY/-/MEDIUM/LONG TEXT/BLOB, JSON | 252 | u8 length bytes 1/2/3/4 (JSON: 4) | length (that many bytes LE), bytes |
//! | DATE | 10 | — | 3 bytes LE: year×512 + month×32 + day |
//! | DATETIME(f) | 18 (DATETIME2) | u8 f | 5 bytes BE: 1<<39 \| (year×13+month)<<22 \| day<<17 \| hour<<12 \| minute<<6 \| second; then fraction |
//! | TIMESTAMP(f) | 17 (TIMESTAMP2) | u8 f | 4 bytes BE seconds since the epoch (TIMESTAMP columns store UTC, see `sql::temporal::Zone`); then fraction |
//! | TIME(f) | 19 (TIME2) | u8 f | MySQL's packed TIME2 (below) |
//! | YEAR | 13 | — | 1 byte: year − 1900 (0 for 0000) |
//! | ENUM | 254 | u8 247, u8 pack length (1 or 2) | 1-based index, pack-length bytes LE |
//! | SET | 254 | u8 248, u8 pack length ((members+7)/8) | member bitmap, pack-length bytes LE |
//! | BIT(n) | 16 | u8 n % 8, u8 n / 8 | (n+7)/8 bytes BE |
//!
//! Fractions (DATETIME2, TIMESTAMP2): f = 1–2: 1 byte (µs / 10000); 3–4: 2 bytes BE
//! (µs / 100); 5–6: 3 bytes BE (µs).
//!
//! Binary decimal: the integer part's digits (p − s) and the fraction's digits (s) are each cut
//! into groups of 9 (stored as 4 bytes BE); a partial group — leading for the integer part,
//! trailing for the fraction — of k digits takes [0,1,1,2,2,3,3,4,4,4][k] bytes BE. For a
//! negative number every byte is inverted; then the first byte's top bit is flipped.
//!
//! TIME2: with `packed = ((hour<<12 | minute<<6 | second) << 24) + µs`, negated for a negative
//! time: f = 0: (packed >> 24) + 0x800000 in 3 bytes BE; f = 1–2 / 3–4: the integer part
//! (packed >> 24, rounding down) + 0x800000 in 3 bytes BE, then the fraction (packed % 2^24
//! truncated toward zero, so negative for a negative time) in hundredths / ten-thousandths of
//! a second as a signed 1 / 2 bytes BE — a reader seeing a negative integer part and a
//! non-zero fraction adds 1 to the first and subtracts 2^8 / 2^16 from the second; f = 5–6:
//! packed + 0x800000000000 in 6 bytes BE.

use crate::sql::types::{BlobSize, IntWidth, SqlType};
use crate::sql::value::{DateTime, Value};
use crate::wire::binary::as_f64;
use bigdecimal::{BigDecimal, Signed};

pub const MAGIC: [u8; 4] = [0xFE, b'b', b'i', b'n'];
pub const HEADER_LEN: usize = 19;
pub const BINLOG_VERSION: u16 = 4;

pub const QUERY_EVENT: u8 = 2;
pub const STOP_EVENT: u8 = 3;
pub const ROTATE_EVENT: u8 = 4;
pub const FORMAT_DESCRIPTION_EVENT: u8 = 15;
pub const XID_EVENT: u8 = 16;
pub const TABLE_MAP_EVENT: u8 = 19;
pub const WRITE_ROWS_EVENT_V1: u8 = 23;
pub const UPDATE_ROWS_EVENT_V1: u8 = 24;
pub const DELETE_ROWS_EVENT_V1: u8 = 25;
pub const IGNORABLE_EVENT: u8 = 28;

/// Event flag: a reader that does not know the event may skip it.
pub const LOG_EVENT_IGNORABLE_F: u16 = 0x80;

/// The smallest filler: a header, a patch and a checksum (see [`Filler`]).
pub const FILLER_MIN: u64 = HEADER_LEN as u64 + 8;

/// The first bytes of a private transaction's Ignorable event body.
pub const PRIVATE_MARK: &[u8; 8] = b"QUIREPRV";

/// Is this Ignorable event a private transaction (`body` from the post-header on)?
pub fn is_private(ty: u8, flags: u16, body: &[u8]) -> bool {
    ty == IGNORABLE_EVENT && flags & LOG_EVENT_IGNORABLE_F != 0 && body.starts_with(PRIVATE_MARK)
}

/// Is this event the journal's filler (see the module doc)? `body`: from the post-header on
/// (a checksum may follow; it cannot be taken for the 8-byte mark of a private event).
pub fn is_filler(ty: u8, flags: u16, body: &[u8]) -> bool {
    ty == IGNORABLE_EVENT && flags & LOG_EVENT_IGNORABLE_F != 0 && !body.starts_with(PRIVATE_MARK)
}

/// Encodes fillers. Their checksum covers up to megabytes of zeros; it is computed from
/// the checksums of 2^k zero bytes (crc32fast's `combine`), not by reading zeros.
///
/// With checksums, the 4 bytes after the header (the *patch*) are chosen so that the
/// checksum of the whole event is 0: the file's last 4 bytes stay the zeros they already
/// are, and a group writes its events, the filler's header and the patch as one contiguous
/// run (one device write at its sync, not a second one for the file's last block). CRC-32
/// is affine over GF(2): changing the patch from zeros to P changes the checksum by
/// P(x)·x^(32+8n) mod G(x), n the zeros between patch and checksum. So the patch is the
/// checksum with zeros there, times x^-(32+8n) mod G (x is invertible mod G: G(0) = 1).
/// Polynomials are in CRC-32's reflected form (bit 31 is x^0), as in zlib's `multmodp`.
pub struct Filler {
    zeros: [u32; 40],
    /// x^-(2^j) mod G, for exponents up to 2^64.
    inverse_powers: [u32; 64],
}

/// CRC-32's generator without its x^32 term, reflected.
const CRC_POLY: u32 = 0xEDB8_8320;
/// 1 in the reflected form.
const X0: u32 = 1 << 31;

/// a·b mod G (reflected form).
fn mul_mod(a: u32, mut b: u32) -> u32 {
    let mut p = 0;
    for i in (0..32).rev() {
        if a & (1 << i) != 0 {
            p ^= b;
        }
        b = if b & 1 != 0 {
            (b >> 1) ^ CRC_POLY
        } else {
            b >> 1
        };
    }
    p
}

impl Default for Filler {
    fn default() -> Self {
        Filler::new()
    }
}

impl Filler {
    pub fn new() -> Filler {
        let mut zeros = [0u32; 40];
        zeros[0] = crc32fast::hash(&[0]);
        for k in 1..zeros.len() {
            let half = 1u64 << (k - 1);
            let mut h = crc32fast::Hasher::new_with_initial_len(zeros[k - 1], half);
            h.combine(&crc32fast::Hasher::new_with_initial_len(zeros[k - 1], half));
            zeros[k] = h.finalize();
        }
        // G = x·Q + 1, so x·Q = 1 mod G: Q = (G - 1) / x, which reflected is the
        // generator's coefficients moved up one degree, with G's x^32 as Q's x^31.
        let mut inverse_powers = [0u32; 64];
        inverse_powers[0] = (CRC_POLY << 1) | 1;
        for j in 1..inverse_powers.len() {
            inverse_powers[j] = mul_mod(inverse_powers[j - 1], inverse_powers[j - 1]);
        }
        Filler {
            zeros,
            inverse_powers,
        }
    }

    /// x^-k mod G.
    fn inverse_power(&self, k: u64) -> u32 {
        let mut p = X0;
        for (j, q) in self.inverse_powers.iter().enumerate() {
            if k & (1 << j) != 0 {
                p = mul_mod(*q, p);
            }
        }
        p
    }

    /// The header of a filler spanning file offsets `at..end` (at least [`FILLER_MIN`]
    /// bytes), and (with checksums) the patch that follows it. The bytes after them must be
    /// zero, the checksum included.
    pub fn event(
        &self,
        timestamp: u32,
        server_id: u32,
        at: u64,
        end: u64,
        checksum: bool,
    ) -> ([u8; HEADER_LEN], Option<[u8; 4]>) {
        let size = end - at;
        let h = ignorable_header(timestamp, server_id, at, end);
        if !checksum {
            return (h, None);
        }
        // The checksum with a zero patch: over the header, then the patch's and the
        // zeros' bytes.
        let mut crc = crc32fast::Hasher::new();
        crc.update(&h);
        let zeros = size - HEADER_LEN as u64 - 4;
        for k in 0..self.zeros.len() {
            if zeros & (1 << k) != 0 {
                crc.combine(&crc32fast::Hasher::new_with_initial_len(
                    self.zeros[k],
                    1 << k,
                ));
            }
        }
        let n = zeros - 4;
        let patch = mul_mod(crc.finalize(), self.inverse_power(32 + 8 * n));
        (h, Some(patch.to_le_bytes()))
    }
}

/// The header of an Ignorable event (LOG_EVENT_IGNORABLE_F) spanning file offsets
/// `at..end`: a filler or a private transaction.
pub fn ignorable_header(timestamp: u32, server_id: u32, at: u64, end: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..4].copy_from_slice(&timestamp.to_le_bytes());
    h[4] = IGNORABLE_EVENT;
    h[5..9].copy_from_slice(&server_id.to_le_bytes());
    h[9..13].copy_from_slice(&((end - at) as u32).to_le_bytes());
    h[13..17].copy_from_slice(&(end as u32).to_le_bytes());
    h[17..19].copy_from_slice(&LOG_EVENT_IGNORABLE_F.to_le_bytes());
    h
}

/// Post-header lengths of event types 1..=38 (MySQL 5.7's table).
const POST_HEADER_LENGTHS: [u8; 38] = [
    56, 13, 0, 8, 0, 18, 0, 4, 4, 4, 4, 18, 0, 0, 95, 0, 4, 26, 8, 0, 0, 0, 8, 8, 8, 2, 0, 0, 0,
    10, 10, 10, 42, 42, 0, 18, 52, 0,
];

/// `Query` status variable codes.
const Q_FLAGS2_CODE: u8 = 0;
const Q_SQL_MODE_CODE: u8 = 1;
const Q_CHARSET_CODE: u8 = 4;
const Q_CATALOG_NZ_CODE: u8 = 6;

/// `flags2` bits of a Query event.
pub const OPTION_NOT_AUTOCOMMIT: u32 = 0x80000;
pub const OPTION_NO_FOREIGN_KEY_CHECKS: u32 = 0x400_0000;
pub const OPTION_RELAXED_UNIQUE_CHECKS: u32 = 0x800_0000;

/// Rows event flag: the last rows event of a statement.
pub const STMT_END_F: u16 = 1;
/// Rows event flag: apply without foreign key checks (see the module doc).
pub const NO_FOREIGN_KEY_CHECKS_F: u16 = 2;

/// Where events are encoded: one transaction's (or one file header's) bytes.
///
/// Each event's `log_pos` is `base + end of the event in this buffer`; `base` is the file
/// offset the buffer will be appended at. A session encodes its transaction *unplaced*
/// ([`EventBuf::unplaced`]: `log_pos` 0, checksum slots zero) because only the journal writer
/// knows where it will land; [`EventBuf::place`] then fills in `log_pos` and the checksums.
#[derive(Clone, Debug)]
pub struct EventBuf {
    pub bytes: Vec<u8>,
    /// The file offset of `bytes[0]`, once placed.
    base: Option<u64>,
    server_id: u32,
    checksum: bool,
    /// Start of the event being written.
    open: Option<usize>,
}

/// What a Query event records about the session that ran the statement.
#[derive(Clone, Debug)]
pub struct QueryContext<'a> {
    pub thread_id: u32,
    pub exec_time: u32,
    pub db: &'a str,
    pub error_code: u16,
    pub flags2: u32,
    pub sql_mode: u64,
    /// character_set_client, collation_connection, collation_server (collation ids).
    pub charset: [u16; 3],
}

/// A table's description in Table_map events.
#[derive(Clone, Debug)]
pub struct TableMap<'a> {
    pub table_id: u64,
    pub db: &'a str,
    pub table: &'a str,
    /// Column types and nullability, in table order.
    pub columns: &'a [(SqlType, bool)],
}

/// Write, Update or Delete rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowsKind {
    Write,
    Update,
    Delete,
}

impl EventBuf {
    /// A buffer whose events will be written at file offset `base`.
    pub fn new(base: u64, server_id: u32, checksum: bool) -> EventBuf {
        EventBuf {
            bytes: Vec::new(),
            base: Some(base),
            server_id,
            checksum,
            open: None,
        }
    }

    /// A buffer whose file offset is not known yet (see [`EventBuf::place`]).
    pub fn unplaced(server_id: u32, checksum: bool) -> EventBuf {
        EventBuf {
            bytes: Vec::new(),
            base: None,
            server_id,
            checksum,
            open: None,
        }
    }

    /// An unplaced buffer holding complete events (a spilled transaction read back).
    pub fn from_events(bytes: Vec<u8>, server_id: u32, checksum: bool) -> EventBuf {
        EventBuf {
            bytes,
            ..EventBuf::unplaced(server_id, checksum)
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The file offset of the first byte, once placed.
    pub fn base(&self) -> Option<u64> {
        self.base
    }

    /// Forget the bytes (they have been written out): the next event goes at `base`.
    pub fn restart_at(&mut self, base: u64) {
        debug_assert!(self.open.is_none(), "restarted inside an event");
        self.bytes.clear();
        self.base = Some(base);
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn has_checksums(&self) -> bool {
        self.checksum
    }

    /// The file offset just past the buffer (0-based if unplaced).
    pub fn end_pos(&self) -> u64 {
        self.base.unwrap_or(0) + self.bytes.len() as u64
    }

    fn begin(&mut self, ty: u8, timestamp: u32, flags: u16) {
        debug_assert!(self.open.is_none(), "event begun inside another");
        self.open = Some(self.bytes.len());
        let b = &mut self.bytes;
        b.extend_from_slice(&timestamp.to_le_bytes());
        b.push(ty);
        b.extend_from_slice(&self.server_id.to_le_bytes());
        b.extend_from_slice(&[0; 8]); // size, log_pos: filled by `end`
        b.extend_from_slice(&flags.to_le_bytes());
    }

    fn end(&mut self) {
        let Some(start) = self.open.take() else {
            return;
        };
        let size = self.bytes.len() - start + if self.checksum { 4 } else { 0 };
        self.bytes[start + 9..start + 13].copy_from_slice(&(size as u32).to_le_bytes());
        if self.checksum {
            self.bytes.extend_from_slice(&[0; 4]);
        }
        if let Some(base) = self.base {
            seal(&mut self.bytes[start..], base + start as u64, self.checksum);
        }
    }

    /// Puts the buffer at file offset `base`: every event's `log_pos` and checksum are
    /// (re)written.
    pub fn place(&mut self, base: u64) {
        let mut at = 0;
        while at + HEADER_LEN <= self.bytes.len() {
            let size = event_size(&self.bytes[at..]);
            if size < HEADER_LEN || at + size > self.bytes.len() {
                break;
            }
            seal(
                &mut self.bytes[at..at + size],
                base + at as u64,
                self.checksum,
            );
            at += size;
        }
        self.base = Some(base);
    }

    /// Wrap this (unplaced) transaction into one private event (see the module doc).
    pub fn into_private(mut self, timestamp: u32) -> EventBuf {
        self.place(0);
        let mut out = EventBuf::unplaced(self.server_id, self.checksum);
        out.begin(IGNORABLE_EVENT, timestamp, LOG_EVENT_IGNORABLE_F);
        out.bytes.extend_from_slice(PRIVATE_MARK);
        out.bytes.extend_from_slice(&self.bytes);
        out.end();
        out
    }

    /// The Format_description event that starts every file. `in_use` sets
    /// LOG_EVENT_BINLOG_IN_USE_F (cleared when the file is closed properly).
    pub fn format_description(&mut self, timestamp: u32, server_version: &str, in_use: bool) {
        self.begin(
            FORMAT_DESCRIPTION_EVENT,
            timestamp,
            if in_use { 1 } else { 0 },
        );
        let b = &mut self.bytes;
        b.extend_from_slice(&BINLOG_VERSION.to_le_bytes());
        let mut version = [0u8; 50];
        let v = server_version.as_bytes();
        let n = v.len().min(49);
        version[..n].copy_from_slice(&v[..n]);
        b.extend_from_slice(&version);
        b.extend_from_slice(&timestamp.to_le_bytes());
        b.push(HEADER_LEN as u8);
        b.extend_from_slice(&POST_HEADER_LENGTHS);
        b.push(if self.checksum { 1 } else { 0 });
        self.end();
    }

    /// A Query event (`BEGIN`, DDL, …).
    pub fn query(&mut self, timestamp: u32, q: &QueryContext, text: &str) {
        self.begin(QUERY_EVENT, timestamp, 0);
        let db = &q.db.as_bytes()[..q.db.len().min(255)];
        let mut status = Vec::with_capacity(32);
        status.push(Q_FLAGS2_CODE);
        status.extend_from_slice(&q.flags2.to_le_bytes());
        status.push(Q_SQL_MODE_CODE);
        status.extend_from_slice(&q.sql_mode.to_le_bytes());
        status.push(Q_CATALOG_NZ_CODE);
        status.push(3);
        status.extend_from_slice(b"std");
        status.push(Q_CHARSET_CODE);
        for c in q.charset {
            status.extend_from_slice(&c.to_le_bytes());
        }
        let b = &mut self.bytes;
        b.extend_from_slice(&q.thread_id.to_le_bytes());
        b.extend_from_slice(&q.exec_time.to_le_bytes());
        b.push(db.len() as u8);
        b.extend_from_slice(&q.error_code.to_le_bytes());
        b.extend_from_slice(&(status.len() as u16).to_le_bytes());
        b.extend_from_slice(&status);
        b.extend_from_slice(db);
        b.push(0);
        b.extend_from_slice(text.as_bytes());
        self.end();
    }

    /// The Xid event that commits a transaction.
    pub fn xid(&mut self, timestamp: u32, xid: u64) {
        self.begin(XID_EVENT, timestamp, 0);
        self.bytes.extend_from_slice(&xid.to_le_bytes());
        self.end();
    }

    pub fn rotate(&mut self, timestamp: u32, next_file: &str) {
        self.begin(ROTATE_EVENT, timestamp, 0);
        self.bytes.extend_from_slice(&4u64.to_le_bytes());
        self.bytes.extend_from_slice(next_file.as_bytes());
        self.end();
    }

    pub fn stop(&mut self, timestamp: u32) {
        self.begin(STOP_EVENT, timestamp, 0);
        self.end();
    }

    pub fn table_map(&mut self, timestamp: u32, t: &TableMap) {
        self.begin(TABLE_MAP_EVENT, timestamp, 0);
        let b = &mut self.bytes;
        b.extend_from_slice(&t.table_id.to_le_bytes()[..6]);
        b.extend_from_slice(&1u16.to_le_bytes());
        for name in [t.db, t.table] {
            let n = &name.as_bytes()[..name.len().min(255)];
            b.push(n.len() as u8);
            b.extend_from_slice(n);
            b.push(0);
        }
        put_lenenc(b, t.columns.len() as u64);
        // At most 2 bytes of metadata a column: on the stack for up to 64 columns.
        let mut meta: smallvec::SmallVec<[u8; 128]> = smallvec::SmallVec::new();
        for (ty, _) in t.columns {
            let (code, m) = column_type(ty);
            b.push(code);
            meta.extend_from_slice(&m);
        }
        put_lenenc(b, meta.len() as u64);
        b.extend_from_slice(&meta);
        put_bitmap(b, t.columns.iter().map(|(_, nullable)| *nullable));
        self.end();
    }

    /// A rows event for `t` with full images. `rows` are row images (for Update: before,
    /// after, before, after, …). `last` marks the statement's last rows event (STMT_END_F).
    pub fn rows<'r>(
        &mut self,
        timestamp: u32,
        kind: RowsKind,
        t: &TableMap,
        rows: impl IntoIterator<Item = &'r [Value]>,
        last: bool,
    ) {
        let all = vec![true; t.columns.len()];
        self.rows_start(timestamp, kind, t, &all, &all);
        for row in rows {
            self.rows_image(t, &all, row);
        }
        self.rows_finish(last);
    }

    /// Start a rows event: `before` / `after` say which columns the images carry (the after
    /// bitmap is written for Update only; Write rows use `before` for their one image).
    pub fn rows_start(
        &mut self,
        timestamp: u32,
        kind: RowsKind,
        t: &TableMap,
        before: &[bool],
        after: &[bool],
    ) {
        let ty = match kind {
            RowsKind::Write => WRITE_ROWS_EVENT_V1,
            RowsKind::Update => UPDATE_ROWS_EVENT_V1,
            RowsKind::Delete => DELETE_ROWS_EVENT_V1,
        };
        self.begin(ty, timestamp, 0);
        let b = &mut self.bytes;
        b.extend_from_slice(&t.table_id.to_le_bytes()[..6]);
        b.extend_from_slice(&0u16.to_le_bytes());
        put_lenenc(b, t.columns.len() as u64);
        put_bitmap(b, before.iter().copied());
        if kind == RowsKind::Update {
            put_bitmap(b, after.iter().copied());
        }
    }

    /// One row image of the open rows event: the columns marked in `present`.
    pub fn rows_image(&mut self, t: &TableMap, present: &[bool], row: &[Value]) {
        put_row_image(&mut self.bytes, t.columns, present, row);
    }

    /// Bytes in the event being written.
    pub fn open_len(&self) -> usize {
        self.open.map(|s| self.bytes.len() - s).unwrap_or(0)
    }

    /// End the open rows event; `last` sets STMT_END_F (NO_FOREIGN_KEY_CHECKS_F is always
    /// set: see the module doc).
    pub fn rows_finish(&mut self, last: bool) {
        if let Some(start) = self.open {
            let flags = NO_FOREIGN_KEY_CHECKS_F | if last { STMT_END_F } else { 0 };
            self.bytes[start + HEADER_LEN + 6..start + HEADER_LEN + 8]
                .copy_from_slice(&flags.to_le_bytes());
        }
        self.end();
    }
}

/// A row image (the null bitmap of the present columns, then their values): the body of a
/// rows event's row, also the row format of checkpoints.
pub fn put_row_image(
    b: &mut Vec<u8>,
    columns: &[(SqlType, bool)],
    present: &[bool],
    row: &[Value],
) {
    let n = present.iter().filter(|p| **p).count();
    let at = b.len();
    b.resize(at + n.div_ceil(8), 0);
    let mut k = 0;
    for (i, (ty, _)) in columns.iter().enumerate() {
        if !present.get(i).copied().unwrap_or(false) {
            continue;
        }
        match row.get(i) {
            None | Some(Value::Null) => b[at + k / 8] |= 1 << (k % 8),
            Some(v) => put_value(b, ty, v),
        }
        k += 1;
    }
}

/// The `size` field of the event starting at `ev[0]`.
pub fn event_size(ev: &[u8]) -> usize {
    match ev.get(9..13) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
        None => 0,
    }
}

/// The checksum of a whole event (its last 4 bytes excluded). A Format_description's is
/// computed with LOG_EVENT_BINLOG_IN_USE_F cleared, as MySQL does, so closing a file (which
/// clears the flag in place) leaves the checksum valid.
pub fn event_crc(ev: &[u8]) -> u32 {
    let body = &ev[..ev.len().saturating_sub(4)];
    if body.len() > 17 && body[4] == FORMAT_DESCRIPTION_EVENT && body[17] & 1 != 0 {
        let mut h = crc32fast::Hasher::new();
        h.update(&body[..17]);
        h.update(&[body[17] & !1]);
        h.update(&body[18..]);
        h.finalize()
    } else {
        crc32fast::hash(body)
    }
}

/// Fill in `log_pos` (the event starts at file offset `at`) and the checksum of one event.
fn seal(ev: &mut [u8], at: u64, checksum: bool) {
    let log_pos = (at + ev.len() as u64) as u32;
    ev[13..17].copy_from_slice(&log_pos.to_le_bytes());
    if checksum {
        let crc = event_crc(ev);
        let n = ev.len();
        ev[n - 4..].copy_from_slice(&crc.to_le_bytes());
    }
}

/// Append `bits` as a bitmap, bit 0 of byte 0 first.
fn put_bitmap(b: &mut Vec<u8>, bits: impl ExactSizeIterator<Item = bool>) {
    let at = b.len();
    b.resize(at + bits.len().div_ceil(8), 0);
    for (i, _) in bits.enumerate().filter(|(_, x)| *x) {
        b[at + i / 8] |= 1 << (i % 8);
    }
}

fn put_lenenc(b: &mut Vec<u8>, v: u64) {
    crate::wire::packet::put_lenenc_int(b, v);
}

/// Bytes per character of a column's character set (1 for binary types).
fn max_bytes(ty: &SqlType) -> u32 {
    ty.collation().charset().max_len()
}

/// Length in bytes of a CHAR/VARCHAR/BINARY/VARBINARY column.
fn byte_len(ty: &SqlType, chars: u32) -> u32 {
    chars.saturating_mul(max_bytes(ty)).min(0xFFFF)
}

/// Bytes of an integer column's binlog value.
pub(crate) fn int_bytes(width: IntWidth) -> usize {
    match width {
        IntWidth::Tiny => 1,
        IntWidth::Small => 2,
        IntWidth::Medium => 3,
        IntWidth::Int => 4,
        IntWidth::Big => 8,
    }
}

pub(crate) fn blob_pack_len(size: BlobSize) -> u8 {
    match size {
        BlobSize::Tiny => 1,
        BlobSize::Normal => 2,
        BlobSize::Medium => 3,
        BlobSize::Long => 4,
    }
}

/// A column's Table_map metadata: at most 2 bytes.
pub type ColumnMeta = smallvec::SmallVec<[u8; 2]>;

/// A column's binlog type code and Table_map metadata.
pub fn column_type(ty: &SqlType) -> (u8, ColumnMeta) {
    use SqlType as T;
    use smallvec::smallvec as vec;
    match ty {
        T::Int { width, .. } => (
            match width {
                IntWidth::Tiny => 1,
                IntWidth::Small => 2,
                IntWidth::Medium => 9,
                IntWidth::Int => 3,
                IntWidth::Big => 8,
            },
            vec![],
        ),
        T::Bool => (1, vec![]),
        T::Null => (6, vec![]),
        T::Float { .. } => (4, vec![4]),
        T::Double { .. } => (5, vec![8]),
        T::Decimal {
            precision, scale, ..
        } => (246, vec![*precision, *scale]),
        T::Char { len, .. } | T::Binary { len } => {
            let l = byte_len(ty, *len);
            (254, vec![254 ^ ((l & 0x300) >> 4) as u8, (l & 0xFF) as u8])
        }
        T::VarChar { len, .. } | T::VarBinary { len } => (
            15,
            ColumnMeta::from_slice(&byte_len(ty, *len).to_le_bytes()[..2]),
        ),
        T::Text { size, .. } | T::Blob { size } => (252, vec![blob_pack_len(*size)]),
        T::Json => (252, vec![4]),
        T::Date => (10, vec![]),
        T::DateTime { fsp } => (18, vec![*fsp]),
        T::Timestamp { fsp } => (17, vec![*fsp]),
        T::Time { fsp } => (19, vec![*fsp]),
        T::Year => (13, vec![]),
        T::Enum { values, .. } => (254, vec![247, if values.len() > 255 { 2 } else { 1 }]),
        T::Set { values, .. } => (254, vec![248, values.len().div_ceil(8).clamp(1, 8) as u8]),
        T::Bit { len } => (16, vec![len % 8, len / 8]),
    }
}

/// Lenient numeric views (stored values already have their column's type).
fn as_i64(v: &Value) -> i64 {
    crate::wire::binary::as_i128(v) as i64
}

fn as_bytes(v: &Value) -> std::borrow::Cow<'_, [u8]> {
    crate::sql::convert::to_bytes(v)
}

fn put_be(b: &mut Vec<u8>, v: u64, n: usize) {
    b.extend_from_slice(&v.to_be_bytes()[8 - n..]);
}

fn put_fraction(b: &mut Vec<u8>, micro: u32, fsp: u8) {
    match fsp {
        1 | 2 => b.push((micro / 10_000) as u8),
        3 | 4 => put_be(b, (micro / 100) as u64, 2),
        5 | 6 => put_be(b, micro as u64, 3),
        _ => {}
    }
}

fn datetime_of(v: &Value) -> DateTime {
    match v {
        Value::Date(d) | Value::DateTime(d) => *d,
        _ => DateTime::ZERO,
    }
}

/// One value in its column's binlog encoding (see the module doc).
pub fn put_value(b: &mut Vec<u8>, ty: &SqlType, v: &Value) {
    use SqlType as T;
    match ty {
        T::Int { width, .. } => {
            let x = as_i64(v);
            let n = int_bytes(*width);
            b.extend_from_slice(&x.to_le_bytes()[..n]);
        }
        T::Bool => b.push(as_i64(v) as u8),
        T::Null => {}
        T::Float { .. } => b.extend_from_slice(&(as_f64(v) as f32).to_le_bytes()),
        T::Double { .. } => b.extend_from_slice(&as_f64(v).to_le_bytes()),
        T::Decimal {
            precision, scale, ..
        } => match v {
            Value::Decimal(d) => put_decimal(b, d, *precision, *scale),
            other => put_decimal(
                b,
                &BigDecimal::try_from(as_f64(other)).unwrap_or_default(),
                *precision,
                *scale,
            ),
        },
        T::Char { len, .. } | T::Binary { len } | T::VarChar { len, .. } | T::VarBinary { len } => {
            let s = as_bytes(v);
            let max = byte_len(ty, *len) as usize;
            let s = &s[..s.len().min(max)];
            if max > 255 {
                b.extend_from_slice(&(s.len() as u16).to_le_bytes());
            } else {
                b.push(s.len() as u8);
            }
            b.extend_from_slice(s);
        }
        T::Text { size, .. } | T::Blob { size } => {
            let s = as_bytes(v);
            let n = blob_pack_len(*size) as usize;
            b.extend_from_slice(&(s.len() as u32).to_le_bytes()[..n]);
            b.extend_from_slice(&s);
        }
        T::Json => {
            let s = as_bytes(v);
            b.extend_from_slice(&(s.len() as u32).to_le_bytes());
            b.extend_from_slice(&s);
        }
        T::Date => {
            let d = datetime_of(v);
            let x = d.year as u32 * 512 + d.month as u32 * 32 + d.day as u32;
            b.extend_from_slice(&x.to_le_bytes()[..3]);
        }
        T::DateTime { fsp } => {
            let d = datetime_of(v);
            let ym = d.year as u64 * 13 + d.month as u64;
            let x = (1u64 << 39)
                | ym << 22
                | (d.day as u64) << 17
                | (d.hour as u64) << 12
                | (d.minute as u64) << 6
                | d.second as u64;
            put_be(b, x, 5);
            put_fraction(b, d.micro, *fsp);
        }
        T::Timestamp { fsp } => {
            let d = datetime_of(v);
            let secs = if d.year == 0 {
                0
            } else {
                crate::sql::temporal::unix_micros_from_datetime(&d, 0).unwrap_or(0) / 1_000_000
            };
            put_be(b, secs.clamp(0, u32::MAX as i64) as u64, 4);
            put_fraction(b, d.micro, *fsp);
        }
        T::Time { fsp } => {
            let micros = match v {
                Value::Time(t) => t.micros,
                _ => 0,
            };
            put_time2(b, micros, *fsp);
        }
        T::Year => {
            let y = as_i64(v);
            b.push(if y == 0 {
                0
            } else {
                (y - 1900).clamp(0, 255) as u8
            });
        }
        T::Enum { values, .. } => {
            let s = as_bytes(v);
            let idx = values
                .iter()
                .position(|m| m.as_bytes().eq_ignore_ascii_case(&s))
                .map(|i| i + 1)
                .unwrap_or(0);
            let n = if values.len() > 255 { 2 } else { 1 };
            b.extend_from_slice(&(idx as u16).to_le_bytes()[..n]);
        }
        T::Set { values, .. } => {
            let s = as_bytes(v);
            let mut bits = 0u64;
            for part in s.split(|&c| c == b',').filter(|p| !p.is_empty()) {
                if let Some(i) = values
                    .iter()
                    .position(|m| m.as_bytes().eq_ignore_ascii_case(part))
                {
                    bits |= 1 << i.min(63);
                }
            }
            let n = values.len().div_ceil(8).clamp(1, 8);
            b.extend_from_slice(&bits.to_le_bytes()[..n]);
        }
        T::Bit { len } => {
            let x = as_i64(v) as u64;
            put_be(b, x, (*len as usize).div_ceil(8).clamp(1, 8));
        }
    }
}

/// Do two stored values of a column of type `ty` have the same binlog encoding?
pub fn same_value(ty: &SqlType, a: Option<&Value>, b: Option<&Value>) -> bool {
    let null = |v: Option<&Value>| v.is_none_or(Value::is_null);
    match (null(a), null(b)) {
        (true, true) => true,
        (false, false) => {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            put_value(&mut x, ty, a.unwrap_or(&Value::Null));
            put_value(&mut y, ty, b.unwrap_or(&Value::Null));
            x == y
        }
        _ => false,
    }
}

/// TIME2 (see the module doc).
fn put_time2(b: &mut Vec<u8>, micros: i64, fsp: u8) {
    let neg = micros < 0;
    let a = micros.unsigned_abs();
    let (secs, frac) = (a / 1_000_000, (a % 1_000_000) as i64);
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    let mut packed = (((h << 12) | (m << 6) | s) as i64) << 24 | frac;
    if neg {
        packed = -packed;
    }
    const INT_OFS: i64 = 0x80_0000;
    match fsp {
        1..=4 => {
            let (unit, bytes) = if fsp <= 2 { (10_000, 1) } else { (100, 2) };
            // MySQL's my_time_packed_to_binary: the integer part rounds down, the
            // fraction is the remainder truncated toward zero (negative for negative times).
            let int = packed >> 24;
            let f = (packed % (1 << 24)) / unit;
            put_be(b, (int + INT_OFS) as u64, 3);
            put_be(b, f as u64, bytes);
        }
        5 | 6 => put_be(b, (packed + 0x8000_0000_0000) as u64, 6),
        _ => put_be(b, ((packed >> 24) + INT_OFS) as u64, 3),
    }
}

const DIG2BYTES: [usize; 10] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

/// MySQL's binary DECIMAL(precision, scale) (see the module doc).
pub fn put_decimal(b: &mut Vec<u8>, d: &BigDecimal, precision: u8, scale: u8) {
    let (p, s) = (precision as usize, scale as usize);
    let intg = p.saturating_sub(s);
    let neg = d.is_negative();
    // |d| scaled to `scale` decimals, as digits, the integer part padded to `intg`.
    // Values stored in a column already have its scale: no rescaling copy then.
    let (digits, at) = d.as_bigint_and_scale();
    let digits = if at == s as i64 {
        digits
    } else {
        std::borrow::Cow::Owned(d.with_scale(s as i64).into_bigint_and_exponent().0)
    };
    let start = b.len();
    if p <= 38 && s <= p {
        use bigdecimal::ToPrimitive;
        // Fastest path, most stored values: the digits fit a u64, and so does 10^s.
        if s <= 18
            && let Some(v) = digits.magnitude().to_u64()
        {
            let v = if p < 20 { v % 10u64.pow(p as u32) } else { v };
            put_decimal_u64(b, v, intg, s);
            finish_decimal(b, start, neg);
            return;
        }
        // Fast path: the digits fit a u128 (10^38 < 2^128).
        if let Some(v) = digits.magnitude().to_u128() {
            put_decimal_u128(b, v % 10u128.pow(p as u32), intg, s);
            finish_decimal(b, start, neg);
            return;
        }
    }
    put_decimal_text(b, digits.magnitude(), p, s);
    finish_decimal(b, start, neg);
}

/// [`put_decimal`]'s groups for any magnitude, through its decimal text.
fn put_decimal_text(b: &mut Vec<u8>, digits: &bigdecimal::num_bigint::BigUint, p: usize, s: usize) {
    let intg = p.saturating_sub(s);
    let text = digits.to_string();
    let text = if text.len() < p {
        format!("{}{}", "0".repeat(p - text.len()), text)
    } else {
        text[text.len() - p..].to_string()
    };
    let (int_digits, frac_digits) = text.as_bytes().split_at(intg);
    let num = |ds: &[u8]| ds.iter().fold(0u64, |n, c| n * 10 + (c - b'0') as u64);
    // Integer part: leading partial group, then groups of 9.
    let lead = intg % 9;
    if lead > 0 {
        put_be(b, num(&int_digits[..lead]), DIG2BYTES[lead]);
    }
    for g in int_digits[lead..].chunks(9) {
        put_be(b, num(g), 4);
    }
    // Fraction: groups of 9, then a trailing partial group.
    let full = s / 9 * 9;
    for g in frac_digits[..full].chunks(9) {
        put_be(b, num(g), 4);
    }
    let trail = s % 9;
    if trail > 0 {
        put_be(b, num(&frac_digits[full..]), DIG2BYTES[trail]);
    }
}

/// [`put_decimal`]'s groups for a magnitude `v` below 10^38 with `intg` integer and `s`
/// fraction digits, computed arithmetically.
fn put_decimal_u128(b: &mut Vec<u8>, v: u128, intg: usize, s: usize) {
    const GROUP: u128 = 1_000_000_000;
    let ten = |n: usize| 10u128.pow(n as u32);
    let (mut int, frac) = (v / ten(s), v % ten(s));
    // Integer part, most significant first: a partial group of intg % 9 digits, then
    // groups of 9 (at most 38 digits: 4 full groups and a partial one).
    let mut groups = [0u64; 5];
    for g in groups.iter_mut().take(intg / 9) {
        *g = (int % GROUP) as u64;
        int /= GROUP;
    }
    let lead = intg % 9;
    if lead > 0 {
        put_be(b, (int % ten(lead)) as u64, DIG2BYTES[lead]);
    }
    for &g in groups[..intg / 9].iter().rev() {
        put_be(b, g, 4);
    }
    // Fraction: groups of 9 from the left, then a trailing partial group.
    let mut left = s;
    while left >= 9 {
        left -= 9;
        put_be(b, ((frac / ten(left)) % GROUP) as u64, 4);
    }
    if left > 0 {
        put_be(b, (frac % ten(left)) as u64, DIG2BYTES[left]);
    }
}

/// [`put_decimal_u128`] in 64-bit arithmetic (no 128-bit division calls) for a magnitude
/// that fits a u64, with at most 18 fraction digits.
fn put_decimal_u64(b: &mut Vec<u8>, v: u64, intg: usize, s: usize) {
    const GROUP: u64 = 1_000_000_000;
    let ten = |n: usize| 10u64.pow(n as u32);
    let (mut int, frac) = (v / ten(s), v % ten(s));
    // A u64 has at most 20 digits: two full integer groups and a partial one are left.
    let full = intg / 9;
    let mut groups = [0u64; 5];
    for g in groups.iter_mut().take(full) {
        *g = int % GROUP;
        int /= GROUP;
    }
    let lead = intg % 9;
    if lead > 0 {
        put_be(b, int % ten(lead), DIG2BYTES[lead]);
    }
    for &g in groups[..full].iter().rev() {
        put_be(b, g, 4);
    }
    let mut left = s;
    while left >= 9 {
        left -= 9;
        put_be(b, (frac / ten(left)) % GROUP, 4);
    }
    if left > 0 {
        put_be(b, frac % ten(left), DIG2BYTES[left]);
    }
}

/// Negative numbers have every bit inverted; the sign bit of the first byte is flipped.
fn finish_decimal(b: &mut [u8], start: usize, neg: bool) {
    if neg {
        for x in &mut b[start..] {
            *x = !*x;
        }
    }
    if let Some(first) = b.get_mut(start) {
        *first ^= 0x80;
    }
}

#[cfg(test)]
mod tests;
