//! Reading binlog files: events, checksums, and row images back into values.
//!
//! The byte format is the one specified in [`super::events`]; this module is its inverse.
//! Recovery replays what it reads here, `quire binlog` prints it, and `SHOW BINLOG EVENTS`
//! lists it.

use super::events::{
    DELETE_ROWS_EVENT_V1, FORMAT_DESCRIPTION_EVENT, HEADER_LEN, MAGIC, UPDATE_ROWS_EVENT_V1,
    WRITE_ROWS_EVENT_V1, event_crc, event_size,
};
use crate::sql::types::SqlType;
use crate::sql::value::{DateTime, Time, Value};
use bigdecimal::BigDecimal;
use bigdecimal::num_bigint::BigInt;

/// What is wrong at a file offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The file ends inside an event (or its header).
    Truncated,
    /// The event's checksum does not match its bytes.
    Checksum,
    /// The event cannot be an event (size field out of range, body too short, …).
    Malformed(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Truncated => write!(f, "the file ends inside an event"),
            Fault::Checksum => write!(f, "event checksum mismatch"),
            Fault::Malformed(m) => write!(f, "malformed event: {m}"),
        }
    }
}

/// One event as it lies in the file.
#[derive(Clone, Copy, Debug)]
pub struct RawEvent<'a> {
    /// File offset of the event's first byte.
    pub offset: u64,
    pub timestamp: u32,
    pub ty: u8,
    pub server_id: u32,
    pub size: u32,
    pub log_pos: u32,
    pub flags: u16,
    /// Post-header and body, without the checksum.
    pub body: &'a [u8],
}

/// Iterates over the events of a whole file image.
pub struct Events<'a> {
    data: &'a [u8],
    at: usize,
    /// Whether events carry a CRC32 (known from the Format_description).
    checksum: bool,
    failed: bool,
}

impl<'a> Events<'a> {
    /// Start reading `data`, which must begin with the binlog magic.
    pub fn new(data: &'a [u8]) -> Result<Events<'a>, Fault> {
        if data.len() < MAGIC.len() {
            return Err(Fault::Truncated);
        }
        if data[..4] != MAGIC {
            return Err(Fault::Malformed(
                "not a binary log (bad magic number)".into(),
            ));
        }
        Ok(Events {
            data,
            at: 4,
            checksum: false,
            failed: false,
        })
    }

    /// Read events packed back to back with no file header, e.g. inside a private event
    /// (offsets are relative to `data`).
    pub fn embedded(data: &'a [u8], checksum: bool) -> Events<'a> {
        Events {
            data,
            at: 0,
            checksum,
            failed: false,
        }
    }

    /// Continue at `offset` (an event boundary further on), skipping what lies between.
    pub fn skip_to(&mut self, offset: u64) {
        if offset as usize > self.at {
            self.at = (offset as usize).min(self.data.len());
        }
    }

    /// Offset of the next event (after the last one returned).
    pub fn offset(&self) -> u64 {
        self.at as u64
    }

    pub fn checksums(&self) -> bool {
        self.checksum
    }

    fn read_one(&mut self) -> Result<RawEvent<'a>, Fault> {
        let rest = &self.data[self.at..];
        if rest.len() < HEADER_LEN {
            return Err(Fault::Truncated);
        }
        let size = event_size(rest);
        if !(HEADER_LEN..=1 << 30).contains(&size) {
            return Err(Fault::Malformed(format!("event size {size}")));
        }
        if rest.len() < size {
            return Err(Fault::Truncated);
        }
        let ev = &rest[..size];
        let ty = ev[4];
        let crc_ok = |ev: &[u8]| {
            ev.len() >= HEADER_LEN + 4
                && u32::from_le_bytes(ev[ev.len() - 4..].try_into().unwrap_or([0; 4]))
                    == event_crc(ev)
        };
        let body_end = if ty == FORMAT_DESCRIPTION_EVENT {
            // The algorithm byte precedes the (optional) checksum.
            if crc_ok(ev) && ev[size - 5] == 1 {
                self.checksum = true;
                size - 4
            } else if ev[size - 1] == 0 {
                self.checksum = false;
                size
            } else if ev.get(size - 5) == Some(&1) {
                return Err(Fault::Checksum);
            } else {
                return Err(Fault::Malformed("format description".into()));
            }
        } else if self.checksum {
            if !crc_ok(ev) {
                return Err(Fault::Checksum);
            }
            size - 4
        } else {
            size
        };
        let u32_at = |i: usize| u32::from_le_bytes([ev[i], ev[i + 1], ev[i + 2], ev[i + 3]]);
        Ok(RawEvent {
            offset: self.at as u64,
            timestamp: u32_at(0),
            ty,
            server_id: u32_at(5),
            size: size as u32,
            log_pos: u32_at(13),
            flags: u16::from_le_bytes([ev[17], ev[18]]),
            body: &ev[HEADER_LEN..body_end],
        })
    }
}

impl<'a> Iterator for Events<'a> {
    type Item = Result<RawEvent<'a>, (u64, Fault)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.at >= self.data.len() {
            return None;
        }
        match self.read_one() {
            Ok(ev) => {
                self.at += ev.size as usize;
                Some(Ok(ev))
            }
            Err(f) => {
                self.failed = true;
                Some(Err((self.at as u64, f)))
            }
        }
    }
}

/// A cursor over an event body.
pub struct Cur<'a> {
    b: &'a [u8],
}

type R<T> = Result<T, Fault>;

fn short() -> Fault {
    Fault::Malformed("event body too short".into())
}

impl<'a> Cur<'a> {
    pub fn new(b: &'a [u8]) -> Cur<'a> {
        Cur { b }
    }

    pub fn rest(&self) -> &'a [u8] {
        self.b
    }

    pub fn take(&mut self, n: usize) -> R<&'a [u8]> {
        if self.b.len() < n {
            return Err(short());
        }
        let (a, rest) = self.b.split_at(n);
        self.b = rest;
        Ok(a)
    }

    pub fn u8(&mut self) -> R<u8> {
        Ok(self.take(1)?[0])
    }

    /// `n` bytes little-endian.
    pub fn le(&mut self, n: usize) -> R<u64> {
        let b = self.take(n)?;
        Ok(b.iter().rev().fold(0u64, |v, &x| v << 8 | x as u64))
    }

    /// `n` bytes big-endian.
    pub fn be(&mut self, n: usize) -> R<u64> {
        let b = self.take(n)?;
        Ok(b.iter().fold(0u64, |v, &x| v << 8 | x as u64))
    }

    pub fn lenenc(&mut self) -> R<u64> {
        match self.u8()? {
            x @ 0..=250 => Ok(x as u64),
            0xFC => self.le(2),
            0xFD => self.le(3),
            0xFE => self.le(8),
            _ => Err(Fault::Malformed("length".into())),
        }
    }
}

/// A Query event's fields.
#[derive(Clone, Debug)]
pub struct QueryEvent<'a> {
    pub thread_id: u32,
    pub exec_time: u32,
    pub error_code: u16,
    pub db: &'a str,
    pub query: &'a str,
    /// Status variables Quire reads back (absent ones are 0).
    pub flags2: u32,
    pub sql_mode: u64,
}

/// A whole file, read-only: mapped (its pages come from the page cache as they are read, and
/// pages never read are never loaded), or empty.
pub enum FileBytes {
    Mapped(memmap2::Mmap),
    Empty,
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(m) => m,
            FileBytes::Empty => &[],
        }
    }
}

/// Map `path` for reading. The file must not shrink while it is mapped (recovery and
/// checkpoints read files nobody else writes).
pub fn map_file(path: &std::path::Path) -> std::io::Result<FileBytes> {
    let f = std::fs::File::open(path)?;
    if f.metadata()?.len() == 0 {
        return Ok(FileBytes::Empty);
    }
    // SAFETY: the mapping is read-only and private to this process; recovery and checkpoint
    // loading are the only users of these files while they are mapped, and they cut a file
    // only after they are done reading the part that goes.
    unsafe { memmap2::Mmap::map(&f) }.map(FileBytes::Mapped)
}

pub fn query(body: &[u8]) -> R<QueryEvent<'_>> {
    let mut c = Cur::new(body);
    let thread_id = c.le(4)? as u32;
    let exec_time = c.le(4)? as u32;
    let db_len = c.u8()? as usize;
    let error_code = c.le(2)? as u16;
    let status_len = c.le(2)? as usize;
    let mut st = Cur::new(c.take(status_len)?);
    let (mut flags2, mut sql_mode) = (0, 0);
    while !st.rest().is_empty() {
        match st.u8()? {
            0 => flags2 = st.le(4)? as u32,
            1 => sql_mode = st.le(8)?,
            2 => {
                let n = st.u8()? as usize;
                st.take(n)?;
            }
            3 => {
                st.take(4)?;
            }
            4 => {
                st.take(6)?;
            }
            5 => {
                let n = st.u8()? as usize;
                st.take(n)?;
            }
            6 => {
                let n = st.u8()? as usize;
                st.take(n)?;
            }
            _ => break, // unknown status variables end what we can read; the rest is skipped
        }
    }
    let db = c.take(db_len)?;
    c.take(1)?;
    Ok(QueryEvent {
        thread_id,
        exec_time,
        error_code,
        db: utf8(db)?,
        query: utf8(c.rest())?,
        flags2,
        sql_mode,
    })
}

fn utf8(b: &[u8]) -> R<&str> {
    std::str::from_utf8(b).map_err(|_| Fault::Malformed("text is not UTF-8".into()))
}

pub fn xid(body: &[u8]) -> R<u64> {
    Cur::new(body).le(8)
}

/// Rotate: (position in the next file, next file name).
pub fn rotate(body: &[u8]) -> R<(u64, String)> {
    let mut c = Cur::new(body);
    let pos = c.le(8)?;
    Ok((pos, String::from_utf8_lossy(c.rest()).into_owned()))
}

/// Format_description: the server version it names.
pub fn format_description(body: &[u8]) -> R<String> {
    let mut c = Cur::new(body);
    c.le(2)?;
    let v = c.take(50)?;
    let n = v.iter().position(|&x| x == 0).unwrap_or(v.len());
    Ok(String::from_utf8_lossy(&v[..n]).into_owned())
}

/// A Table_map event.
#[derive(Clone, Debug)]
pub struct TableMapEvent {
    pub table_id: u64,
    pub db: String,
    pub table: String,
    /// (binlog type code, metadata bytes) per column.
    pub columns: Vec<(u8, Vec<u8>)>,
    pub nullable: Vec<bool>,
}

/// Metadata length of each binlog type code.
fn meta_len(code: u8) -> usize {
    match code {
        4 | 5 | 17 | 18 | 19 | 252 | 245 => 1,
        246 | 254 | 15 | 16 | 253 => 2,
        _ => 0,
    }
}

pub fn table_map(body: &[u8]) -> R<TableMapEvent> {
    let mut c = Cur::new(body);
    let table_id = c.le(6)?;
    c.le(2)?;
    let mut name = || -> R<String> {
        let n = c.u8()? as usize;
        let s = String::from_utf8_lossy(c.take(n)?).into_owned();
        c.take(1)?;
        Ok(s)
    };
    let db = name()?;
    let table = name()?;
    let n = c.lenenc()? as usize;
    if n > 4096 {
        return Err(Fault::Malformed(format!("{n} columns")));
    }
    let codes = c.take(n)?.to_vec();
    let meta_total = c.lenenc()? as usize;
    let mut meta = Cur::new(c.take(meta_total)?);
    let mut columns = Vec::with_capacity(n);
    for code in codes {
        columns.push((code, meta.take(meta_len(code))?.to_vec()));
    }
    let bits = c.take(n.div_ceil(8))?;
    let nullable = (0..n).map(|i| bits[i / 8] & (1 << (i % 8)) != 0).collect();
    Ok(TableMapEvent {
        table_id,
        db,
        table,
        columns,
        nullable,
    })
}

/// A rows event, its images not yet decoded.
#[derive(Clone, Debug)]
pub struct RowsEvent<'a> {
    pub table_id: u64,
    pub flags: u16,
    pub column_count: usize,
    /// Columns present in the (before) image, and in the after image of an Update.
    pub present: Vec<bool>,
    pub present_after: Vec<bool>,
    /// The row images.
    pub rows: &'a [u8],
}

pub fn is_rows_event(ty: u8) -> bool {
    matches!(
        ty,
        WRITE_ROWS_EVENT_V1 | UPDATE_ROWS_EVENT_V1 | DELETE_ROWS_EVENT_V1
    )
}

pub fn rows_event(ty: u8, body: &[u8]) -> R<RowsEvent<'_>> {
    let mut c = Cur::new(body);
    let table_id = c.le(6)?;
    let flags = c.le(2)? as u16;
    let n = c.lenenc()? as usize;
    if n > 4096 {
        return Err(Fault::Malformed(format!("{n} columns")));
    }
    let bitmap = |c: &mut Cur| -> R<Vec<bool>> {
        let b = c.take(n.div_ceil(8))?;
        Ok((0..n).map(|i| b[i / 8] & (1 << (i % 8)) != 0).collect())
    };
    let present = bitmap(&mut c)?;
    let present_after = if ty == UPDATE_ROWS_EVENT_V1 {
        bitmap(&mut c)?
    } else {
        present.clone()
    };
    Ok(RowsEvent {
        table_id,
        flags,
        column_count: n,
        present,
        present_after,
        rows: c.rest(),
    })
}

/// Read one row image: `types[i]` for each present column; absent columns are `None`.
pub fn row_image(c: &mut Cur, present: &[bool], types: &[SqlType]) -> R<Vec<Option<Value>>> {
    let count = present.iter().filter(|p| **p).count();
    let nulls = c.take(count.div_ceil(8))?;
    let mut out = Vec::with_capacity(present.len());
    let mut k = 0;
    for (i, p) in present.iter().enumerate() {
        if !p {
            out.push(None);
            continue;
        }
        let is_null = nulls[k / 8] & (1 << (k % 8)) != 0;
        k += 1;
        let ty = types
            .get(i)
            .ok_or_else(|| Fault::Malformed("column count".into()))?;
        out.push(Some(if is_null {
            Value::Null
        } else {
            get_value(c, ty)?
        }));
    }
    Ok(out)
}

pub(super) fn sign_extend(x: u64, bytes: usize) -> i64 {
    let shift = 64 - 8 * bytes as u32;
    ((x << shift) as i64) >> shift
}

pub(super) fn get_fraction(c: &mut Cur, fsp: u8) -> R<u32> {
    Ok(match fsp {
        1 | 2 => c.be(1)? as u32 * 10_000,
        3 | 4 => c.be(2)? as u32 * 100,
        5 | 6 => c.be(3)? as u32,
        _ => 0,
    })
}

/// One value in its column's binlog encoding, as the column stores it (see
/// [`crate::sql::convert::store`] for the stored representation of each type).
pub fn get_value(c: &mut Cur, ty: &SqlType) -> R<Value> {
    use SqlType as T;
    Ok(match ty {
        T::Int {
            width, unsigned, ..
        } => {
            let n = super::events::int_bytes(*width);
            let x = c.le(n)?;
            if *unsigned {
                Value::UInt(x)
            } else {
                Value::Int(sign_extend(x, n))
            }
        }
        T::Bool => Value::Int(sign_extend(c.le(1)?, 1)),
        T::Null => Value::Null,
        T::Float { .. } => Value::Float(f32::from_le_bytes(
            c.take(4)?.try_into().map_err(|_| short())?,
        )),
        T::Double { .. } => Value::Double(f64::from_le_bytes(
            c.take(8)?.try_into().map_err(|_| short())?,
        )),
        T::Decimal {
            precision, scale, ..
        } => Value::Decimal(Box::new(get_decimal(c, *precision, *scale)?)),
        T::Char { len, .. } | T::Binary { len } | T::VarChar { len, .. } | T::VarBinary { len } => {
            let max = (*len)
                .saturating_mul(ty.collation().charset().max_len())
                .min(0xFFFF);
            Value::bytes(get_string(c, max)?)
        }
        T::Text { size, .. } | T::Blob { size } => {
            let n = c.le(super::events::blob_pack_len(*size) as usize)? as usize;
            Value::bytes(c.take(n)?)
        }
        T::Json => {
            let n = c.le(4)? as usize;
            Value::bytes(c.take(n)?)
        }
        T::Date => Value::Date(get_date(c)?),
        T::DateTime { fsp } => Value::DateTime(get_datetime2(c, *fsp)?),
        T::Timestamp { fsp } => {
            let secs = c.be(4)? as i64;
            let micro = get_fraction(c, *fsp)?;
            if secs == 0 && micro == 0 {
                Value::DateTime(DateTime::ZERO)
            } else {
                let d = crate::sql::temporal::datetime_from_unix_micros(
                    secs * 1_000_000 + micro as i64,
                    0,
                )
                .unwrap_or(DateTime::ZERO);
                Value::DateTime(d)
            }
        }
        T::Time { fsp } => Value::Time(Time {
            micros: get_time2(c, *fsp)?,
        }),
        T::Year => {
            let y = c.u8()?;
            Value::Int(if y == 0 { 0 } else { 1900 + y as i64 })
        }
        T::Enum { values, .. } => {
            let n = if values.len() > 255 { 2 } else { 1 };
            let i = c.le(n)? as usize;
            match i.checked_sub(1).and_then(|i| values.get(i)) {
                Some(m) => Value::str(m),
                None => Value::str(""),
            }
        }
        T::Set { values, .. } => {
            let n = values.len().div_ceil(8).clamp(1, 8);
            let bits = c.le(n)?;
            let members: Vec<&str> = values
                .iter()
                .enumerate()
                .filter(|(i, _)| *i < 64 && bits & (1 << i) != 0)
                .map(|(_, m)| m.as_str())
                .collect();
            Value::from_string(members.join(","))
        }
        T::Bit { len } => Value::UInt(c.be((*len as usize).div_ceil(8).clamp(1, 8))?),
    })
}

/// A CHAR/VARCHAR/BINARY/VARBINARY value of at most `max` bytes: its length (1 byte, 2 if
/// `max` > 255), then the bytes.
pub(super) fn get_string<'a>(c: &mut Cur<'a>, max: u32) -> R<&'a [u8]> {
    let n = if max > 255 { c.le(2)? } else { c.le(1)? } as usize;
    c.take(n)
}

/// DATE: 3 bytes LE, year×512 + month×32 + day.
pub(super) fn get_date(c: &mut Cur) -> R<DateTime> {
    let x = c.le(3)? as u32;
    Ok(DateTime {
        year: (x >> 9) as u16,
        month: ((x >> 5) & 15) as u8,
        day: (x & 31) as u8,
        ..DateTime::ZERO
    })
}

/// DATETIME2 with `fsp` fractional digits.
pub(super) fn get_datetime2(c: &mut Cur, fsp: u8) -> R<DateTime> {
    let x = c.be(5)?;
    let ym = (x >> 22) & 0x1FFFF;
    Ok(DateTime {
        year: (ym / 13) as u16,
        month: (ym % 13) as u8,
        day: ((x >> 17) & 31) as u8,
        hour: ((x >> 12) & 31) as u8,
        minute: ((x >> 6) & 63) as u8,
        second: (x & 63) as u8,
        micro: get_fraction(c, fsp)?,
    })
}

/// TIME2 back to signed microseconds (the inverse of the encoder's `put_time2`).
pub(super) fn get_time2(c: &mut Cur, fsp: u8) -> R<i64> {
    const INT_OFS: i64 = 0x80_0000;
    let hms = |packed_int: i64| {
        let a = packed_int.abs();
        let (h, m, s) = ((a >> 12) & 0x3FF, (a >> 6) & 63, a & 63);
        (h * 3600 + m * 60 + s) * 1_000_000
    };
    Ok(match fsp {
        1..=4 => {
            let (unit, bytes) = if fsp <= 2 { (10_000, 1) } else { (100, 2) };
            let mut int = c.be(3)? as i64 - INT_OFS;
            let mut f = c.be(bytes)? as i64;
            if int < 0 && f != 0 {
                int += 1;
                f -= 1 << (8 * bytes);
            }
            let packed = (int << 24) + f * unit;
            let neg = packed < 0;
            let a = packed.abs();
            let v = hms(a >> 24) + (a & 0xFF_FFFF);
            if neg { -v } else { v }
        }
        5 | 6 => {
            let packed = c.be(6)? as i64 - 0x8000_0000_0000;
            let neg = packed < 0;
            let a = packed.abs();
            let v = hms(a >> 24) + (a & 0xFF_FFFF);
            if neg { -v } else { v }
        }
        _ => {
            let int = c.be(3)? as i64 - INT_OFS;
            let v = hms(int);
            if int < 0 { -v } else { v }
        }
    })
}

const DIG2BYTES: [usize; 10] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

/// MySQL's binary DECIMAL back to a number with exactly `scale` decimals.
pub fn get_decimal(c: &mut Cur, precision: u8, scale: u8) -> R<BigDecimal> {
    let (p, s) = (precision as usize, scale as usize);
    let intg = p.saturating_sub(s);
    let len = intg / 9 * 4 + DIG2BYTES[intg % 9] + s / 9 * 4 + DIG2BYTES[s % 9];
    let mut b = c.take(len)?.to_vec();
    if b.is_empty() {
        return Ok(BigDecimal::new(BigInt::from(0), s as i64));
    }
    let neg = b[0] & 0x80 == 0;
    b[0] ^= 0x80;
    if neg {
        for x in &mut b {
            *x = !*x;
        }
    }
    let mut cur = Cur::new(&b);
    let mut digits = String::with_capacity(p + 1);
    let mut push = |v: u64, width: usize| digits.push_str(&format!("{v:0width$}"));
    let lead = intg % 9;
    if lead > 0 {
        push(cur.be(DIG2BYTES[lead])?, lead);
    }
    for _ in 0..intg / 9 {
        push(cur.be(4)?, 9);
    }
    for _ in 0..s / 9 {
        push(cur.be(4)?, 9);
    }
    if s % 9 > 0 {
        push(cur.be(DIG2BYTES[s % 9])?, s % 9);
    }
    let mut n: BigInt = digits.parse().unwrap_or_default();
    if neg {
        n = -n;
    }
    Ok(BigDecimal::new(n, s as i64))
}
