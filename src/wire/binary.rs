//! The binary protocol: prepared statements (COM_STMT_PREPARE's answer, COM_STMT_EXECUTE's
//! parameters, COM_STMT_SEND_LONG_DATA) and binary result rows.
//!
//! ## COM_STMT_EXECUTE
//!
//! ```text
//! 0x17 | stmt_id u32 | flags u8 | iteration_count u32 (always 1)
//! if num_params > 0:
//!   null_bitmap: (num_params + 7) / 8 bytes, bit i = parameter i is NULL
//!   new_params_bound u8
//!   if new_params_bound == 1: num_params × (type u8, flags u8 — 0x80 = unsigned)
//!   values of the parameters that are neither NULL nor long data, in order
//! ```
//!
//! - Types are sent with the first execution and whenever the client rebinds; otherwise
//!   `new_params_bound` is 0 and the types remembered from the last execution apply (the
//!   session keeps them per statement; executing without ever sending them is
//!   `ER_WRONG_ARGUMENTS`).
//! - A parameter that received COM_STMT_SEND_LONG_DATA since the last execution takes those
//!   bytes; the client sends *no* value for it in the execute packet and its NULL bit is
//!   ignored (MySQL's and MariaDB's `insert_params` skip long-data parameters entirely).
//!   The long data is consumed: the session must clear what is left of it after every
//!   execution, successful or not, and bound its total size by `max_allowed_packet`.
//! - `flags` asks for a cursor (`CURSOR_TYPE_READ_ONLY` …). Quire supports only
//!   `CURSOR_TYPE_NO_CURSOR`: a cursor request is executed as if no cursor had been asked
//!   for, i.e. the rows follow the metadata directly and `SERVER_STATUS_CURSOR_EXISTS` is
//!   never set. libmysql/libmariadb handle this (MySQL itself does it for statements that
//!   cannot have a cursor); COM_STMT_FETCH is then answered with an error by the session.
//! - MariaDB's "execute the last prepared statement" id `0xFFFF_FFFF` is passed through
//!   unchanged; only the session knows which statement that is.
//!
//! ## Values in parameters and rows
//!
//! | type | bytes |
//! |---|---|
//! | TINY | 1 | SHORT, YEAR | 2 | LONG, INT24 | 4 | LONGLONG | 8 (little-endian) |
//! | FLOAT | 4 (IEEE) | DOUBLE | 8 (IEEE) |
//! | DECIMAL, NEWDECIMAL | lenenc string, decimal text |
//! | DATE, DATETIME, TIMESTAMP | len u8 (0, 4, 7, 11), year u16, month, day, hour, minute, second, micro u32 |
//! | TIME | len u8 (0, 8, 12), negative u8, days u32, hour, minute, second, micro u32 |
//! | strings, BLOBs, ENUM, SET, JSON, BIT, GEOMETRY | lenenc bytes |
//!
//! A binary row is `0x00 | null_bitmap | values`, whose NULL bitmap is
//! `(columns + 7 + 2) / 8` bytes with bit `i + 2` for column `i` (the two-bit offset is
//! historical). Rows are written for the *column's* protocol type, converting a value whose
//! representation differs (an integer in a DOUBLE column, a string in a DATETIME column):
//! the client decodes by column type, so writing the value's own representation would be
//! garbage to it. The executor normally hands values in the column's representation; the
//! conversions here are a safety net, not a second type system.

use super::packet::{Cursor, PacketWriter, ProtoError, put_lenenc_bytes, put_lenenc_with};
use super::proto::{write_column_def, write_eof};
use crate::error::MyError;
use crate::sql::convert::to_text;
use crate::sql::types::{ColumnMeta, SqlType};
use crate::sql::value::{DateTime, Time, Value};
use bigdecimal::{BigDecimal, ToPrimitive};
use mysql_common::constants::{CapabilityFlags, ColumnFlags, ColumnType, StatusFlags};
use std::str::FromStr;

/// MySQL's `ER_PS_MANY_PARAM`.
pub const ER_PS_MANY_PARAM: u16 = 1390;
/// MySQL's `ER_TOO_MANY_FIELDS`.
pub const ER_TOO_MANY_FIELDS: u16 = 1117;
/// The unsigned bit in a parameter's type flags.
pub const PARAM_UNSIGNED: u8 = 0x80;
/// Longest DECIMAL parameter text parsed as a decimal (65 digits, sign, point, slack);
/// anything longer or not plain decimal syntax is passed on as a string.
const DECIMAL_TEXT_MAX_BYTES: usize = 80;

/// COM_STMT_PREPARE_OK:
///
/// ```text
/// 0x00 | stmt_id u32 | num_columns u16 | num_params u16 | 0x00 | warnings u16
/// [num_params × column definition, EOF unless DEPRECATE_EOF]
/// [num_columns × column definition, EOF unless DEPRECATE_EOF]
/// ```
///
/// More than 65,535 parameters or columns cannot be described: `ER_PS_MANY_PARAM` /
/// `ER_TOO_MANY_FIELDS`, and nothing is written.
pub fn write_prepare_ok(
    w: &mut PacketWriter,
    caps: CapabilityFlags,
    stmt_id: u32,
    params: &[ColumnMeta],
    columns: &[ColumnMeta],
    warnings: u16,
    status: StatusFlags,
) -> Result<(), MyError> {
    let num_params = u16::try_from(params.len()).map_err(|_| {
        MyError::new(
            ER_PS_MANY_PARAM,
            "Prepared statement contains too many placeholders",
        )
    })?;
    let num_columns = u16::try_from(columns.len())
        .map_err(|_| MyError::new(ER_TOO_MANY_FIELDS, "Too many columns"))?;
    w.begin();
    w.put_u8(0x00);
    w.put_u32_le(stmt_id);
    w.put_u16_le(num_columns);
    w.put_u16_le(num_params);
    w.put_u8(0x00);
    w.put_u16_le(warnings);
    w.end();
    let eofs = !caps.contains(CapabilityFlags::CLIENT_DEPRECATE_EOF);
    for defs in [params, columns] {
        if defs.is_empty() {
            continue;
        }
        for d in defs {
            write_column_def(w, d);
        }
        if eofs {
            write_eof(w, caps, 0, status);
        }
    }
    Ok(())
}

/// A parsed COM_STMT_EXECUTE.
#[derive(Clone, Debug)]
pub struct Execute {
    pub stmt_id: u32,
    /// The cursor flags as sent (ignored: see the module doc).
    pub flags: u8,
    pub iteration_count: u32,
    /// One value per parameter, in placeholder order.
    pub params: Vec<Value>,
}

/// Parses COM_STMT_EXECUTE (whole payload, command byte included) for a statement with
/// `num_params` placeholders. `prev_types` holds the types the client bound last time
/// (updated when it sends new ones); `long_data[i]` holds the bytes sent with
/// COM_STMT_SEND_LONG_DATA for parameter `i`, which are taken.
pub fn parse_execute(
    payload: &[u8],
    num_params: usize,
    prev_types: &mut Vec<(ColumnType, bool)>,
    long_data: &mut [Option<Vec<u8>>],
) -> Result<Execute, ProtoError> {
    let mut c = Cursor::new(payload);
    c.u8()?;
    let stmt_id = c.u32()?;
    let flags = c.u8()?;
    let iteration_count = c.u32()?;
    let mut params = Vec::with_capacity(num_params);
    if num_params > 0 {
        let null_bitmap = c.bytes(num_params.div_ceil(8))?;
        let new_params_bound = c.u8()?;
        if new_params_bound == 1 {
            let types = c.bytes(num_params * 2)?;
            prev_types.clear();
            for pair in types.chunks_exact(2) {
                let (t, f) = (pair[0], pair[1]);
                let ty = ColumnType::try_from(t).map_err(|_| ProtoError::BadParamType(t))?;
                prev_types.push((ty, f & PARAM_UNSIGNED != 0));
            }
        } else if prev_types.len() != num_params {
            return Err(ProtoError::NoParamTypes);
        }
        for (i, &(ty, unsigned)) in prev_types.iter().enumerate() {
            if let Some(data) = long_data.get_mut(i).and_then(Option::take) {
                params.push(Value::from_vec(data));
                continue;
            }
            let is_null = null_bitmap
                .get(i / 8)
                .is_some_and(|byte| byte & (1 << (i % 8)) != 0);
            if is_null {
                params.push(Value::Null);
            } else {
                params.push(read_param(&mut c, ty, unsigned)?);
            }
        }
    }
    Ok(Execute {
        stmt_id,
        flags,
        iteration_count,
        params,
    })
}

fn read_param(c: &mut Cursor<'_>, ty: ColumnType, unsigned: bool) -> Result<Value, ProtoError> {
    use ColumnType::*;
    let int = |signed: i64, unsigned_v: u64| {
        if unsigned {
            Value::UInt(unsigned_v)
        } else {
            Value::Int(signed)
        }
    };
    Ok(match ty {
        MYSQL_TYPE_NULL => Value::Null,
        MYSQL_TYPE_TINY => {
            let b = c.u8()?;
            int(b as i8 as i64, b as u64)
        }
        MYSQL_TYPE_SHORT | MYSQL_TYPE_YEAR => {
            let v = c.u16()?;
            int(v as i16 as i64, v as u64)
        }
        MYSQL_TYPE_LONG | MYSQL_TYPE_INT24 => {
            let v = c.u32()?;
            int(v as i32 as i64, v as u64)
        }
        MYSQL_TYPE_LONGLONG => {
            let v = c.u64()?;
            int(v as i64, v)
        }
        MYSQL_TYPE_FLOAT => Value::Float(c.f32()?),
        MYSQL_TYPE_DOUBLE => Value::Double(c.f64()?),
        MYSQL_TYPE_DECIMAL | MYSQL_TYPE_NEWDECIMAL => {
            let text = c.lenenc_bytes()?;
            match parse_decimal_text(text) {
                Some(d) => Value::decimal(d),
                None => Value::bytes(text),
            }
        }
        MYSQL_TYPE_DATE | MYSQL_TYPE_NEWDATE => Value::Date(read_datetime(c)?.date_part()),
        MYSQL_TYPE_DATETIME
        | MYSQL_TYPE_TIMESTAMP
        | MYSQL_TYPE_DATETIME2
        | MYSQL_TYPE_TIMESTAMP2 => Value::DateTime(read_datetime(c)?),
        MYSQL_TYPE_TIME | MYSQL_TYPE_TIME2 => Value::Time(read_time(c)?),
        MYSQL_TYPE_VARCHAR
        | MYSQL_TYPE_VAR_STRING
        | MYSQL_TYPE_STRING
        | MYSQL_TYPE_TINY_BLOB
        | MYSQL_TYPE_MEDIUM_BLOB
        | MYSQL_TYPE_LONG_BLOB
        | MYSQL_TYPE_BLOB
        | MYSQL_TYPE_ENUM
        | MYSQL_TYPE_SET
        | MYSQL_TYPE_JSON
        | MYSQL_TYPE_BIT
        | MYSQL_TYPE_GEOMETRY
        | MYSQL_TYPE_VECTOR => Value::bytes(c.lenenc_bytes()?),
        MYSQL_TYPE_TYPED_ARRAY | MYSQL_TYPE_UNKNOWN => {
            return Err(ProtoError::BadParamType(ty as u8));
        }
    })
}

/// Plain decimal syntax only (`[+-]digits[.digits]`), bounded length: exponents and other
/// forms are left to the SQL layer's string conversion, so a client cannot make a
/// `1e999999999` decimal that later formats into gigabytes.
fn parse_decimal_text(text: &[u8]) -> Option<BigDecimal> {
    if text.is_empty() || text.len() > DECIMAL_TEXT_MAX_BYTES {
        return None;
    }
    let digits = match text.first() {
        Some(b'+' | b'-') => &text[1..],
        _ => text,
    };
    let mut dots = 0;
    let mut any_digit = false;
    for &b in digits {
        match b {
            b'0'..=b'9' => any_digit = true,
            b'.' => dots += 1,
            _ => return None,
        }
    }
    if !any_digit || dots > 1 {
        return None;
    }
    BigDecimal::from_str(std::str::from_utf8(text).ok()?).ok()
}

/// DATE/DATETIME/TIMESTAMP: a length byte, then as many fields as it covers. Like MySQL,
/// any length is accepted and fields beyond it are zero.
fn read_datetime(c: &mut Cursor<'_>) -> Result<DateTime, ProtoError> {
    let len = c.u8()? as usize;
    let mut f = Cursor::new(c.bytes(len)?);
    let mut d = DateTime::ZERO;
    if len >= 4 {
        d.year = f.u16()?;
        d.month = f.u8()?;
        d.day = f.u8()?;
    }
    if len >= 7 {
        d.hour = f.u8()?;
        d.minute = f.u8()?;
        d.second = f.u8()?;
    }
    if len >= 11 {
        d.micro = f.u32()?.min(999_999);
    }
    Ok(d)
}

/// TIME: a length byte (0, 8, 12), then sign, days, hours, minutes, seconds, micros.
/// Out-of-range values are clamped to ±838:59:59, as MySQL does.
fn read_time(c: &mut Cursor<'_>) -> Result<Time, ProtoError> {
    let len = c.u8()? as usize;
    let mut f = Cursor::new(c.bytes(len)?);
    if len < 8 {
        return Ok(Time { micros: 0 });
    }
    let negative = f.u8()? != 0;
    let days = f.u32()? as i64;
    let hours = f.u8()? as i64;
    let minutes = f.u8()? as i64;
    let seconds = f.u8()? as i64;
    let micro = if len >= 12 {
        (f.u32()?.min(999_999)) as i64
    } else {
        0
    };
    // days < 2^32, so the seconds fit in i64; clamp them before scaling to micros.
    let secs = (days * 86_400 + hours * 3_600 + minutes * 60 + seconds).min(839 * 3_600);
    let micros = (secs * 1_000_000 + micro).min(Time::MAX_MICROS);
    Ok(Time {
        micros: if negative { -micros } else { micros },
    })
}

/// COM_STMT_SEND_LONG_DATA: `0x18 | stmt_id u32 | param_id u16 | data (rest)`. No response
/// is ever sent for this command, not even an error (errors surface at execution).
pub fn parse_send_long_data(payload: &[u8]) -> Result<(u32, u16, &[u8]), ProtoError> {
    let mut c = Cursor::new(payload);
    c.u8()?;
    let stmt_id = c.u32()?;
    let param_id = c.u16()?;
    Ok((stmt_id, param_id, c.rest()))
}

// ───────────────────────────── binary rows ─────────────────────────────

/// A binary-protocol row (see the module doc), each value encoded for its column's type.
pub fn write_binary_row(w: &mut PacketWriter, values: &[Value], cols: &[ColumnMeta]) {
    debug_assert_eq!(values.len(), cols.len(), "binary row: values vs columns");
    w.begin();
    let buf = w.buf_mut();
    buf.push(0x00);
    let bitmap_pos = buf.len();
    let bitmap_len = (cols.len() + 7 + 2) / 8;
    buf.resize(bitmap_pos + bitmap_len, 0);
    for (i, (v, col)) in values.iter().zip(cols).enumerate() {
        if v.is_null() || col.column_type == ColumnType::MYSQL_TYPE_NULL {
            let bit = i + 2;
            buf[bitmap_pos + bit / 8] |= 1 << (bit % 8);
        } else {
            put_binary_value(buf, v, col);
        }
    }
    w.end();
}

fn put_binary_value(buf: &mut Vec<u8>, v: &Value, col: &ColumnMeta) {
    use ColumnType::*;
    let unsigned = col.flags.contains(ColumnFlags::UNSIGNED_FLAG);
    match col.column_type {
        MYSQL_TYPE_LONGLONG => put_int(buf, v, 8, unsigned),
        MYSQL_TYPE_LONG | MYSQL_TYPE_INT24 => put_int(buf, v, 4, unsigned),
        MYSQL_TYPE_SHORT | MYSQL_TYPE_YEAR => put_int(buf, v, 2, unsigned),
        MYSQL_TYPE_TINY => put_int(buf, v, 1, unsigned),
        MYSQL_TYPE_DOUBLE => buf.extend_from_slice(&as_f64(v).to_le_bytes()),
        MYSQL_TYPE_FLOAT => {
            let f = match v {
                Value::Float(f) => *f,
                v => as_f64(v) as f32,
            };
            buf.extend_from_slice(&f.to_le_bytes());
        }
        MYSQL_TYPE_DECIMAL | MYSQL_TYPE_NEWDECIMAL => {
            let ty = SqlType::Decimal {
                precision: 65,
                scale: col.decimals.min(30),
                unsigned,
            };
            put_lenenc_with(buf, |out| to_text(v, &ty, out));
        }
        MYSQL_TYPE_DATE | MYSQL_TYPE_NEWDATE => put_datetime(buf, as_datetime(v).date_part()),
        MYSQL_TYPE_DATETIME
        | MYSQL_TYPE_TIMESTAMP
        | MYSQL_TYPE_DATETIME2
        | MYSQL_TYPE_TIMESTAMP2 => put_datetime(buf, as_datetime(v)),
        MYSQL_TYPE_TIME | MYSQL_TYPE_TIME2 => put_time(buf, as_time(v)),
        MYSQL_TYPE_BIT => match v {
            Value::Bytes(b) => put_lenenc_bytes(buf, b),
            v => {
                let n = as_i128(v).clamp(0, u64::MAX as i128) as u64;
                let width = col.length.div_ceil(8).clamp(1, 8) as usize;
                put_lenenc_bytes(buf, &n.to_be_bytes()[8 - width..]);
            }
        },
        _ => match v {
            Value::Bytes(b) => put_lenenc_bytes(buf, b),
            v => {
                let ty = SqlType::varchar(col.length);
                put_lenenc_with(buf, |out| to_text(v, &ty, out));
            }
        },
    }
}

/// An integer of `width` bytes, clamped to the column's range.
#[inline]
fn put_int(buf: &mut Vec<u8>, v: &Value, width: usize, unsigned: bool) {
    let bits = (width * 8) as u32;
    let (min, max) = if unsigned {
        (0i128, (1i128 << bits) - 1)
    } else {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    };
    let n = match *v {
        Value::Int(i) => i as i128,
        Value::UInt(u) => u as i128,
        ref v => as_i128(v),
    }
    .clamp(min, max);
    buf.extend_from_slice(&(n as u64).to_le_bytes()[..width]);
}

pub(crate) fn as_i128(v: &Value) -> i128 {
    match v {
        Value::Null => 0,
        Value::Int(i) => *i as i128,
        Value::UInt(u) => *u as i128,
        Value::Float(f) => f.round() as i128,
        Value::Double(d) => d.round() as i128,
        Value::Decimal(d) => d.round(0).to_i128().unwrap_or(0),
        Value::Bytes(b) => {
            let s = std::str::from_utf8(b).unwrap_or("").trim();
            s.parse::<i128>()
                .ok()
                .or_else(|| s.parse::<f64>().ok().map(|f| f.round() as i128))
                .unwrap_or(0)
        }
        Value::Date(d) | Value::DateTime(d) => datetime_number(d),
        Value::Time(t) => {
            let neg = t.micros < 0;
            let s = (t.micros.unsigned_abs() / 1_000_000) as i128;
            let n = (s / 3600) * 10_000 + (s / 60 % 60) * 100 + s % 60;
            if neg { -n } else { n }
        }
    }
}

fn datetime_number(d: &DateTime) -> i128 {
    let date = d.year as i128 * 10_000 + d.month as i128 * 100 + d.day as i128;
    if d.hour == 0 && d.minute == 0 && d.second == 0 {
        date
    } else {
        date * 1_000_000 + d.hour as i128 * 10_000 + d.minute as i128 * 100 + d.second as i128
    }
}

pub(crate) fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Float(f) => *f as f64,
        Value::Double(d) => *d,
        Value::Int(i) => *i as f64,
        Value::UInt(u) => *u as f64,
        Value::Decimal(d) => d.to_f64().unwrap_or(0.0),
        Value::Bytes(b) => std::str::from_utf8(b)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0.0),
        v => as_i128(v) as f64,
    }
}

fn as_datetime(v: &Value) -> DateTime {
    match v {
        Value::Date(d) | Value::DateTime(d) => *d,
        Value::Bytes(b) => parse_datetime_text(b).unwrap_or(DateTime::ZERO),
        Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Float(_) | Value::Double(_) => {
            datetime_from_number(as_i128(v))
        }
        Value::Null | Value::Time(_) => DateTime::ZERO,
    }
}

/// `YYYYMMDD` or `YYYYMMDDhhmmss`.
fn datetime_from_number(n: i128) -> DateTime {
    if n <= 0 {
        return DateTime::ZERO;
    }
    let (date, time) = if n < 100_000_000 {
        (n, 0)
    } else {
        (n / 1_000_000, n % 1_000_000)
    };
    DateTime {
        year: (date / 10_000).min(9999) as u16,
        month: (date / 100 % 100) as u8,
        day: (date % 100) as u8,
        hour: (time / 10_000 % 100) as u8,
        minute: (time / 100 % 100) as u8,
        second: (time % 100) as u8,
        micro: 0,
    }
}

/// `YYYY-MM-DD[ hh:mm:ss[.ffffff]]` (separators: any non-digit).
fn parse_datetime_text(b: &[u8]) -> Option<DateTime> {
    let mut nums = [0u32; 7];
    let mut n = 0;
    let mut i = 0;
    let mut frac_digits = 0;
    while i < b.len() && n < 7 {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let mut v: u32 = 0;
        let mut digits = 0;
        while i < b.len() && b[i].is_ascii_digit() && digits < 9 {
            v = v * 10 + (b[i] - b'0') as u32;
            digits += 1;
            i += 1;
        }
        nums[n] = v;
        if n == 6 {
            frac_digits = digits;
        }
        n += 1;
    }
    if n < 3 {
        return None;
    }
    let mut micro = nums[6];
    for _ in frac_digits..6 {
        micro = micro.saturating_mul(10);
    }
    for _ in 6..frac_digits {
        micro /= 10;
    }
    Some(DateTime {
        year: nums[0].min(9999) as u16,
        month: nums[1].min(99) as u8,
        day: nums[2].min(99) as u8,
        hour: nums[3].min(99) as u8,
        minute: nums[4].min(99) as u8,
        second: nums[5].min(99) as u8,
        micro: micro.min(999_999),
    })
}

fn as_time(v: &Value) -> Time {
    match v {
        Value::Time(t) => *t,
        Value::DateTime(d) | Value::Date(d) => Time {
            micros: ((d.hour as i64 * 60 + d.minute as i64) * 60 + d.second as i64) * 1_000_000
                + d.micro as i64,
        },
        Value::Bytes(b) => parse_time_text(b),
        Value::Null => Time { micros: 0 },
        v => {
            let n = as_i128(v).clamp(-8_385_959, 8_385_959) as i64;
            let a = n.abs();
            let micros = ((a / 10_000) * 3600 + (a / 100 % 100) * 60 + a % 100) * 1_000_000;
            Time {
                micros: if n < 0 { -micros } else { micros },
            }
        }
    }
}

/// `[-][D ]hh:mm:ss[.ffffff]`.
fn parse_time_text(b: &[u8]) -> Time {
    let s = std::str::from_utf8(b).unwrap_or("").trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (days, s) = match s.split_once(' ') {
        Some((d, rest)) => (d.parse::<i64>().unwrap_or(0).min(34), rest),
        None => (0, s),
    };
    let (hms, frac) = s.split_once('.').unwrap_or((s, ""));
    let mut parts = hms
        .split(':')
        .map(|p| p.parse::<i64>().unwrap_or(0).min(9999));
    let h = parts.next().unwrap_or(0);
    let m = parts.next().unwrap_or(0);
    let sec = parts.next().unwrap_or(0);
    let mut micro: i64 = 0;
    for (k, ch) in frac.bytes().take(6).enumerate() {
        if ch.is_ascii_digit() {
            micro += (ch - b'0') as i64 * 10i64.pow(5 - k as u32);
        }
    }
    let micros = (((days * 24 + h) * 60 + m) * 60 + sec) * 1_000_000 + micro;
    let micros = micros.min(Time::MAX_MICROS);
    Time {
        micros: if neg { -micros } else { micros },
    }
}

/// The shortest form: 0 (zero date), 4 (date), 7 (+ time), 11 (+ micros).
fn put_datetime(buf: &mut Vec<u8>, d: DateTime) {
    let len: u8 = if d.micro != 0 {
        11
    } else if d.hour != 0 || d.minute != 0 || d.second != 0 {
        7
    } else if d.year != 0 || d.month != 0 || d.day != 0 {
        4
    } else {
        0
    };
    let mut b = [0u8; 12];
    b[0] = len;
    b[1..3].copy_from_slice(&d.year.to_le_bytes());
    b[3] = d.month;
    b[4] = d.day;
    b[5] = d.hour;
    b[6] = d.minute;
    b[7] = d.second;
    b[8..12].copy_from_slice(&d.micro.to_le_bytes());
    buf.extend_from_slice(&b[..1 + len as usize]);
}

/// The shortest form: 0 (zero), 8 (no micros), 12.
fn put_time(buf: &mut Vec<u8>, t: Time) {
    let abs = t.micros.unsigned_abs();
    let micro = (abs % 1_000_000) as u32;
    let secs = abs / 1_000_000;
    let days = (secs / 86_400).min(u32::MAX as u64) as u32;
    let len: u8 = if micro != 0 {
        12
    } else if secs != 0 {
        8
    } else {
        0
    };
    let mut b = [0u8; 13];
    b[0] = len;
    b[1] = (t.micros < 0) as u8;
    b[2..6].copy_from_slice(&days.to_le_bytes());
    b[6] = (secs / 3600 % 24) as u8;
    b[7] = (secs / 60 % 60) as u8;
    b[8] = (secs % 60) as u8;
    b[9..13].copy_from_slice(&micro.to_le_bytes());
    buf.extend_from_slice(&b[..1 + len as usize]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::types::IntWidth;
    use crate::wire::proto::tests::payloads;
    use mysql_common::io::ParseBuf;
    use mysql_common::packets::{Column, ComStmtExecuteRequestBuilder};
    use mysql_common::proto::{Binary, MyDeserialize, MySerialize};
    use mysql_common::row::RowDeserializer;
    use mysql_common::value::ServerSide;
    use std::sync::Arc;

    const CAPS41: CapabilityFlags = CapabilityFlags::CLIENT_PROTOCOL_41;

    /// An execute packet built by hand: `types` as (type, flags), then raw value bytes.
    fn execute_packet(
        stmt_id: u32,
        nulls: &[u8],
        types: Option<&[(u8, u8)]>,
        values: &[u8],
    ) -> Vec<u8> {
        let mut p = vec![0x17];
        p.extend_from_slice(&stmt_id.to_le_bytes());
        p.push(0);
        p.extend_from_slice(&1u32.to_le_bytes());
        p.extend_from_slice(nulls);
        match types {
            Some(t) => {
                p.push(1);
                for (ty, fl) in t {
                    p.push(*ty);
                    p.push(*fl);
                }
            }
            None => p.push(0),
        }
        p.extend_from_slice(values);
        p
    }

    fn one(ty: ColumnType, flags: u8, bytes: &[u8]) -> Result<Value, ProtoError> {
        let p = execute_packet(1, &[0], Some(&[(ty as u8, flags)]), bytes);
        let mut prev = Vec::new();
        parse_execute(&p, 1, &mut prev, &mut []).map(|e| e.params.into_iter().next().unwrap())
    }

    fn dbg(v: Result<Value, ProtoError>) -> String {
        format!("{:?}", v.unwrap())
    }

    #[test]
    fn every_parameter_type() {
        use ColumnType::*;
        assert_eq!(dbg(one(MYSQL_TYPE_TINY, 0, &[0xFF])), "Int(-1)");
        assert_eq!(dbg(one(MYSQL_TYPE_TINY, 0x80, &[0xFF])), "UInt(255)");
        assert_eq!(
            dbg(one(MYSQL_TYPE_SHORT, 0, &(-2i16).to_le_bytes())),
            "Int(-2)"
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_SHORT, 0x80, &[0xFF, 0xFF])),
            "UInt(65535)"
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_YEAR, 0x80, &2024u16.to_le_bytes())),
            "UInt(2024)"
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_LONG, 0, &(-3i32).to_le_bytes())),
            "Int(-3)"
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_INT24, 0, &70000i32.to_le_bytes())),
            "Int(70000)"
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_LONG, 0x80, &u32::MAX.to_le_bytes())),
            "UInt(4294967295)"
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_LONGLONG, 0, &i64::MIN.to_le_bytes())),
            format!("Int({})", i64::MIN)
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_LONGLONG, 0x80, &u64::MAX.to_le_bytes())),
            format!("UInt({})", u64::MAX)
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_FLOAT, 0, &1.5f32.to_le_bytes())),
            "Float(1.5)"
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_DOUBLE, 0, &(-0.25f64).to_le_bytes())),
            "Double(-0.25)"
        );
        match one(MYSQL_TYPE_NEWDECIMAL, 0, b"\x06-12.50").unwrap() {
            Value::Decimal(d) => assert_eq!(d.to_string(), "-12.50"),
            v => panic!("{v:?}"),
        }
        // Not plain decimal syntax: kept as a string for the SQL layer.
        assert!(
            matches!(one(MYSQL_TYPE_DECIMAL, 0, b"\x0b1e999999999").unwrap(), Value::Bytes(b) if &b[..] == b"1e999999999")
        );
        assert!(matches!(
            one(MYSQL_TYPE_NEWDECIMAL, 0, b"\x03abc").unwrap(),
            Value::Bytes(_)
        ));
        for ty in [
            MYSQL_TYPE_STRING,
            MYSQL_TYPE_VAR_STRING,
            MYSQL_TYPE_VARCHAR,
            MYSQL_TYPE_BLOB,
            MYSQL_TYPE_TINY_BLOB,
            MYSQL_TYPE_MEDIUM_BLOB,
            MYSQL_TYPE_LONG_BLOB,
            MYSQL_TYPE_ENUM,
            MYSQL_TYPE_SET,
            MYSQL_TYPE_JSON,
            MYSQL_TYPE_BIT,
            MYSQL_TYPE_GEOMETRY,
        ] {
            assert!(
                matches!(one(ty, 0, b"\x03a\0b").unwrap(), Value::Bytes(b) if &b[..] == b"a\0b"),
                "{ty:?}"
            );
        }
        // Dates: every length form.
        let dt = |len: u8| {
            let mut b = vec![len];
            b.extend_from_slice(
                &[0xE8, 0x07, 2, 29, 13, 14, 15, 0x40, 0xE2, 0x01, 0x00][..len as usize],
            );
            b
        };
        assert_eq!(
            dbg(one(MYSQL_TYPE_DATE, 0, &dt(0))),
            format!("{:?}", Value::Date(DateTime::ZERO))
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_DATE, 0, &dt(4))),
            format!("{:?}", Value::Date(DateTime::date(2024, 2, 29)))
        );
        // A DATE parameter sent with a time part keeps only the date, as MySQL.
        assert_eq!(
            dbg(one(MYSQL_TYPE_DATE, 0, &dt(7))),
            format!("{:?}", Value::Date(DateTime::date(2024, 2, 29)))
        );
        let full = DateTime {
            year: 2024,
            month: 2,
            day: 29,
            hour: 13,
            minute: 14,
            second: 15,
            micro: 123_456,
        };
        assert_eq!(
            dbg(one(MYSQL_TYPE_DATETIME, 0, &dt(11))),
            format!("{:?}", Value::DateTime(full))
        );
        assert_eq!(
            dbg(one(MYSQL_TYPE_TIMESTAMP, 0, &dt(7))),
            format!("{:?}", Value::DateTime(DateTime { micro: 0, ..full }))
        );
        // Times.
        assert_eq!(
            dbg(one(MYSQL_TYPE_TIME, 0, &[0])),
            "Time(Time { micros: 0 })"
        );
        let t8 = [8, 1, 1, 0, 0, 0, 2, 3, 4];
        assert_eq!(
            dbg(one(MYSQL_TYPE_TIME, 0, &t8)),
            format!(
                "Time(Time {{ micros: {} }})",
                -((26 * 3600 + 3 * 60 + 4) * 1_000_000i64)
            )
        );
        let t12 = [12, 0, 0, 0, 0, 0, 1, 2, 3, 0x07, 0, 0, 0];
        assert_eq!(
            dbg(one(MYSQL_TYPE_TIME, 0, &t12)),
            format!("Time(Time {{ micros: {} }})", (3723 * 1_000_000i64) + 7)
        );
        // Huge day counts clamp to 838:59:59 instead of overflowing.
        let huge = [8, 0, 0xFF, 0xFF, 0xFF, 0xFF, 23, 59, 59];
        assert_eq!(
            dbg(one(MYSQL_TYPE_TIME, 0, &huge)),
            format!("Time(Time {{ micros: {} }})", Time::MAX_MICROS)
        );
        assert_eq!(dbg(one(MYSQL_TYPE_NULL, 0, &[])), "Null");
        assert_eq!(
            one(MYSQL_TYPE_TYPED_ARRAY, 0, &[]).unwrap_err(),
            ProtoError::BadParamType(20)
        );
        let p = execute_packet(1, &[0], Some(&[(0x99, 0)]), &[]);
        assert_eq!(
            parse_execute(&p, 1, &mut Vec::new(), &mut []).unwrap_err(),
            ProtoError::BadParamType(0x99)
        );
    }

    #[test]
    fn truncated_parameters_are_errors() {
        use ColumnType::*;
        let cases: &[(ColumnType, &[u8])] = &[
            (MYSQL_TYPE_TINY, &[1]),
            (MYSQL_TYPE_SHORT, &[1, 2]),
            (MYSQL_TYPE_LONG, &[1, 2, 3, 4]),
            (MYSQL_TYPE_LONGLONG, &[1, 2, 3, 4, 5, 6, 7, 8]),
            (MYSQL_TYPE_DOUBLE, &[1, 2, 3, 4, 5, 6, 7, 8]),
            (MYSQL_TYPE_VAR_STRING, b"\x05hello"),
            (MYSQL_TYPE_DATETIME, &[7, 0xE8, 0x07, 1, 2, 3, 4, 5]),
            (MYSQL_TYPE_TIME, &[8, 0, 1, 0, 0, 0, 2, 3, 4]),
        ];
        for (ty, bytes) in cases {
            assert!(one(*ty, 0, bytes).is_ok());
            for cut in 0..bytes.len() {
                assert_eq!(
                    one(*ty, 0, &bytes[..cut]).unwrap_err(),
                    ProtoError::Truncated,
                    "{ty:?} cut {cut}"
                );
            }
        }
        // Header truncations.
        let p = execute_packet(1, &[0], Some(&[(8, 0)]), &[0; 8]);
        for cut in 0..p.len() {
            assert!(
                parse_execute(&p[..cut], 1, &mut Vec::new(), &mut []).is_err(),
                "cut {cut}"
            );
        }
    }

    #[test]
    fn null_bitmap_and_remembered_types() {
        // 10 parameters: the bitmap takes two bytes; NULL at 0, 8 and 9.
        let types: Vec<(u8, u8)> = (0..10)
            .map(|_| (ColumnType::MYSQL_TYPE_TINY as u8, 0))
            .collect();
        let values: Vec<u8> = (1..=7).collect();
        let p = execute_packet(42, &[0b0000_0001, 0b0000_0011], Some(&types), &values);
        let mut prev = Vec::new();
        let e = parse_execute(&p, 10, &mut prev, &mut []).unwrap();
        assert_eq!(e.stmt_id, 42);
        assert_eq!(e.iteration_count, 1);
        let shown: Vec<String> = e.params.iter().map(|v| format!("{v:?}")).collect();
        assert_eq!(
            shown,
            [
                "Null", "Int(1)", "Int(2)", "Int(3)", "Int(4)", "Int(5)", "Int(6)", "Int(7)",
                "Null", "Null"
            ]
        );
        assert_eq!(prev.len(), 10);
        // Re-execution without types uses the remembered ones.
        let p = execute_packet(42, &[0, 0b10], None, &[9, 8, 7, 6, 5, 4, 3, 2, 1]);
        let e = parse_execute(&p, 10, &mut prev, &mut []).unwrap();
        assert_eq!(format!("{:?}", e.params[0]), "Int(9)");
        assert_eq!(format!("{:?}", e.params[9]), "Null");
        // Without types ever sent: an error the client sees as ER_WRONG_ARGUMENTS.
        let err = parse_execute(&p, 10, &mut Vec::new(), &mut []).unwrap_err();
        assert_eq!(err, ProtoError::NoParamTypes);
        assert_eq!(err.to_my_error().code, 1210);
        // No parameters: nothing after the iteration count.
        let p = execute_packet(3, &[], None, &[]);
        let p = &p[..10];
        assert!(
            parse_execute(p, 0, &mut Vec::new(), &mut [])
                .unwrap()
                .params
                .is_empty()
        );
    }

    #[test]
    fn long_data_parameters_are_not_in_the_packet() {
        // Three BLOB parameters; #1 got long data. Its NULL bit is set (ignored) and no
        // value for it follows.
        let types = [(ColumnType::MYSQL_TYPE_BLOB as u8, 0); 3];
        let p = execute_packet(5, &[0b010], Some(&types), b"\x01a\x01c");
        let mut long = vec![None, Some(b"long data".to_vec()), None];
        let e = parse_execute(&p, 3, &mut Vec::new(), &mut long).unwrap();
        let got: Vec<Vec<u8>> = e
            .params
            .iter()
            .map(|v| v.as_bytes().unwrap().to_vec())
            .collect();
        assert_eq!(got, [b"a".to_vec(), b"long data".to_vec(), b"c".to_vec()]);
        assert!(long.iter().all(Option::is_none), "long data is consumed");
        let (id, param, data) = parse_send_long_data(b"\x18\x05\0\0\0\x01\0chunk").unwrap();
        assert_eq!((id, param, data), (5, 1, &b"chunk"[..]));
        assert_eq!(
            parse_send_long_data(b"\x18\x05\0\0\0\x01"),
            Err(ProtoError::Truncated)
        );
    }

    #[test]
    fn mysql_common_client_packets_parse() {
        use mysql_common::Value as V;
        let params = vec![
            V::Int(-7),
            V::UInt(u64::MAX),
            V::Float(0.5),
            V::Double(1e100),
            V::Bytes(b"text".to_vec()),
            V::NULL,
            V::Date(2023, 12, 31, 23, 59, 58, 999_999),
            V::Time(true, 2, 3, 4, 5, 6),
        ];
        let (req, _) = ComStmtExecuteRequestBuilder::new(77).build(&params);
        let mut bytes = Vec::new();
        req.serialize(&mut bytes);
        let mut prev = Vec::new();
        let e = parse_execute(&bytes, params.len(), &mut prev, &mut []).unwrap();
        assert_eq!(e.stmt_id, 77);
        let shown: Vec<String> = e.params.iter().map(|v| format!("{v:?}")).collect();
        let dt = DateTime {
            year: 2023,
            month: 12,
            day: 31,
            hour: 23,
            minute: 59,
            second: 58,
            micro: 999_999,
        };
        let t = -(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1_000_000i64 + 6);
        assert_eq!(
            shown,
            [
                "Int(-7)".to_string(),
                format!("UInt({})", u64::MAX),
                "Float(0.5)".into(),
                "Double(1e100)".into(),
                format!("{:?}", Value::str("text")),
                "Null".into(),
                format!("{:?}", Value::DateTime(dt)),
                format!("Time(Time {{ micros: {t} }})"),
            ]
        );
    }

    fn meta(ty: &SqlType) -> ColumnMeta {
        ColumnMeta::for_type(ty, true)
    }

    fn mc_cols(cols: &[ColumnMeta]) -> Arc<[Column]> {
        cols.iter()
            .map(|c| {
                Column::new(c.column_type)
                    .with_flags(c.flags)
                    .with_decimals(c.decimals)
                    .with_column_length(c.length)
            })
            .collect()
    }

    #[test]
    fn binary_rows_read_back() {
        use mysql_common::Value as V;
        let int = |width, unsigned| SqlType::Int {
            width,
            unsigned,
            zerofill: false,
            display: None,
        };
        let cols = vec![
            meta(&SqlType::BIGINT),
            meta(&int(IntWidth::Int, true)),
            meta(&int(IntWidth::Medium, false)),
            meta(&int(IntWidth::Small, false)),
            meta(&int(IntWidth::Tiny, false)),
            meta(&SqlType::Year),
            meta(&SqlType::DOUBLE),
            meta(&SqlType::Float { unsigned: false }),
            meta(&SqlType::Decimal {
                precision: 10,
                scale: 2,
                unsigned: false,
            }),
            meta(&SqlType::Date),
            meta(&SqlType::DateTime { fsp: 6 }),
            meta(&SqlType::Timestamp { fsp: 0 }),
            meta(&SqlType::Time { fsp: 6 }),
            meta(&SqlType::varchar(10)),
            meta(&SqlType::Bit { len: 12 }),
            meta(&SqlType::Null),
            meta(&SqlType::Blob {
                size: crate::sql::types::BlobSize::Long,
            }),
        ];
        let dt = DateTime {
            year: 2024,
            month: 2,
            day: 29,
            hour: 1,
            minute: 2,
            second: 3,
            micro: 4,
        };
        let values = vec![
            Value::Int(i64::MIN),
            Value::UInt(4_000_000_000),
            Value::Int(-8_000_000),
            Value::Int(-300),
            Value::Int(-100),
            Value::UInt(2024),
            Value::Double(6.25),
            Value::Float(-1.5),
            Value::decimal(BigDecimal::from_str("123.45").unwrap()),
            Value::Date(DateTime::date(2024, 2, 29)),
            Value::DateTime(dt),
            Value::DateTime(DateTime { micro: 0, ..dt }),
            Value::Time(Time {
                micros: -((26 * 3600 + 1) * 1_000_000 + 5),
            }),
            Value::str("hi"),
            Value::UInt(0xABC),
            Value::Null,
            Value::Null,
        ];
        let mut w = PacketWriter::new();
        write_binary_row(&mut w, &values, &cols);
        let p = payloads(&w);
        // 17 columns + 2 offset bits = 3 bitmap bytes; columns 15 and 16 are NULL.
        assert_eq!(&p[0][..4], &[0x00, 0, 0, 0b0000_0110]);
        let row: mysql_common::Row = RowDeserializer::<ServerSide, Binary>::deserialize(
            mc_cols(&cols),
            &mut ParseBuf(&p[0]),
        )
        .unwrap()
        .into();
        // (mysql_common widens unsigned values narrower than LONGLONG to Int.)
        let expect = [
            V::Int(i64::MIN),
            V::Int(4_000_000_000),
            V::Int(-8_000_000),
            V::Int(-300),
            V::Int(-100),
            V::Int(2024),
            V::Double(6.25),
            V::Float(-1.5),
            V::Bytes(b"123.45".to_vec()),
            V::Date(2024, 2, 29, 0, 0, 0, 0),
            V::Date(2024, 2, 29, 1, 2, 3, 4),
            V::Date(2024, 2, 29, 1, 2, 3, 0),
            V::Time(true, 1, 2, 0, 1, 5),
            V::Bytes(b"hi".to_vec()),
            V::Bytes(vec![0x0A, 0xBC]),
            V::NULL,
            V::NULL,
        ];
        for (i, e) in expect.iter().enumerate() {
            assert_eq!(row.as_ref(i), Some(e), "column {i}");
        }
        // Shortest forms: DATE is 4 bytes, a zero datetime 0, a zero time 0.
        let mut w = PacketWriter::new();
        write_binary_row(
            &mut w,
            &[
                Value::DateTime(DateTime::ZERO),
                Value::Time(Time { micros: 0 }),
            ],
            &[
                meta(&SqlType::DateTime { fsp: 0 }),
                meta(&SqlType::Time { fsp: 0 }),
            ],
        );
        assert_eq!(payloads(&w)[0], [0, 0, 0, 0]);
    }

    #[test]
    fn binary_rows_convert_mismatched_values() {
        use mysql_common::Value as V;
        let cols = vec![
            meta(&SqlType::DOUBLE),
            meta(&SqlType::BIGINT),
            meta(&SqlType::Int {
                width: IntWidth::Tiny,
                unsigned: true,
                zerofill: false,
                display: None,
            }),
            meta(&SqlType::DateTime { fsp: 0 }),
            meta(&SqlType::Time { fsp: 0 }),
            meta(&SqlType::varchar(10)),
            meta(&SqlType::Decimal {
                precision: 10,
                scale: 1,
                unsigned: false,
            }),
            meta(&SqlType::Date),
        ];
        let values = vec![
            Value::Int(3),
            Value::Double(2.6),
            Value::Int(1000), // clamps to 255
            Value::str("2020-01-02 03:04:05.5"),
            Value::str("-1 02:03:04"),
            Value::Int(77),
            Value::Int(5),
            Value::Int(20200102),
        ];
        let mut w = PacketWriter::new();
        write_binary_row(&mut w, &values, &cols);
        let row: mysql_common::Row = RowDeserializer::<ServerSide, Binary>::deserialize(
            mc_cols(&cols),
            &mut ParseBuf(&payloads(&w)[0]),
        )
        .unwrap()
        .into();
        let expect = [
            V::Double(3.0),
            V::Int(3),
            V::Int(255),
            V::Date(2020, 1, 2, 3, 4, 5, 500_000),
            V::Time(true, 1, 2, 3, 4, 0),
            V::Bytes(b"77".to_vec()),
            V::Bytes(b"5.0".to_vec()),
            V::Date(2020, 1, 2, 0, 0, 0, 0),
        ];
        for (i, e) in expect.iter().enumerate() {
            assert_eq!(row.as_ref(i), Some(e), "column {i}");
        }
    }

    #[test]
    fn prepare_ok_layout() {
        let params = vec![ColumnMeta::expr("?", &SqlType::varchar(0), true); 2];
        let cols = vec![ColumnMeta::expr("a", &SqlType::BIGINT, false)];
        for caps in [CAPS41, CAPS41 | CapabilityFlags::CLIENT_DEPRECATE_EOF] {
            let mut w = PacketWriter::new();
            w.set_seq(1);
            write_prepare_ok(
                &mut w,
                caps,
                9,
                &params,
                &cols,
                1,
                StatusFlags::SERVER_STATUS_AUTOCOMMIT,
            )
            .unwrap();
            let p = payloads(&w);
            assert_eq!(p[0], [0, 9, 0, 0, 0, 1, 0, 2, 0, 0, 1, 0]);
            let eofs = !caps.contains(CapabilityFlags::CLIENT_DEPRECATE_EOF);
            assert_eq!(p.len(), 1 + 2 + 1 + 2 * eofs as usize);
            if eofs {
                assert_eq!(p[3][0], 0xFE);
                assert_eq!(p[5][0], 0xFE);
            }
        }
        let mut w = PacketWriter::new();
        let many = vec![ColumnMeta::expr("?", &SqlType::varchar(0), true); 65_536];
        let err =
            write_prepare_ok(&mut w, CAPS41, 1, &many, &[], 0, StatusFlags::empty()).unwrap_err();
        assert_eq!(err.code, ER_PS_MANY_PARAM);
        assert_eq!(w.buffered_len(), 0);
    }
}
