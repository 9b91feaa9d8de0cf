//! Coercion on write: [`store`] turns a value into what a column of a given type holds,
//! as MySQL 8.0 does for INSERT/UPDATE, with and without strict mode.
//!
//! The rules, by target type (checked against MariaDB 10.11 where it agrees with MySQL):
//!
//! - **Integers**: out of range → 1264 (strict: error; else clamp + warning). Strings are
//!   read whole and rounded (`'1e3'` → 1000, `'2.5'` → 3); no digits → 1366 `Incorrect
//!   integer value` (0 when not strict); trailing garbage → 1265 `Data truncated`. Doubles
//!   round half to even (`rint`), decimals half away from zero.
//! - **DECIMAL(p,s)**: rounded half away from zero to `s` digits (a Note 1265 when digits
//!   are lost, in every mode); beyond `10^(p-s) - 10^-s` → 1264 and clamp; strings as for
//!   integers with `Incorrect decimal value`.
//! - **FLOAT/DOUBLE**: beyond FLT_MAX/DBL_MAX or negative into UNSIGNED → 1264 and clamp.
//! - **CHAR/VARCHAR/TEXT**: length in characters (TEXT: bytes); too long → 1406 `Data too
//!   long` in strict mode, else truncate + 1265 — unless only spaces are cut (silent for
//!   CHAR, a Note for VARCHAR/TEXT). CHAR drops trailing spaces. Invalid UTF-8 (or 4-byte
//!   characters in utf8mb3, non-ASCII in ascii) → 1366 `Incorrect string value`.
//! - **BINARY/VARBINARY/BLOB**: length in bytes; BINARY(n) is right-padded with `00`.
//! - **DATE/DATETIME/TIMESTAMP/TIME**: strings and numbers parsed by `temporal`;
//!   fractional seconds rounded to the column's precision; invalid → strict 1292 `Incorrect
//!   datetime value: 'x' for column 'c' at row N`, else the zero value + 1265 (1264 for a
//!   day past the end of its month); a DATE given a time of day keeps the date (Note 1265).
//! - **YEAR**: 1901–2155 and 0; 1–69 → 20xx, 70–99 → 19xx; `'0'`/`'00'` → 2000.
//! - **ENUM/SET**: members matched by the column's collation and stored in the list's
//!   spelling (SET members in list order); numbers are 1-based indexes (ENUM) or bit masks
//!   (SET); unknown → 1265 (strict: error; else `''` / the known members).
//! - **BIT(n)**: integers, or strings as big-endian bytes; too big → strict 1406, else all
//!   ones + 1264.
//! - **JSON**: valid JSON text is stored as given; anything else is error 3140 in every mode.

use super::{
    decimal_to_i128, f64_to_decimal, f64_to_i128, quote_for_message, split_number, str_to_decimal,
    str_to_f64, str_to_int_rounded, temporal_to_decimal, temporal_to_i128, time_to_datetime,
    to_bytes, to_f64_opt, validate_json,
};
use crate::error::{Diagnostics, MyError, code};
use crate::sql::collation;
use crate::sql::temporal::{self, TemporalError};
use crate::sql::types::{BlobSize, Charset, Collation, SqlType};
use crate::sql::value::{DateTime, Time, Value};
use bigdecimal::num_bigint::{BigInt, Sign};
use bigdecimal::{BigDecimal, RoundingMode, Zero};

/// Where a value is being written, for messages and strictness.
struct Target<'a> {
    col: &'a str,
    row: u64,
    strict: bool,
}

impl Target<'_> {
    fn out_of_range(&self, diag: &mut Diagnostics) -> Result<(), MyError> {
        let msg = format!(
            "Out of range value for column '{}' at row {}",
            self.col, self.row
        );
        if self.strict {
            return Err(MyError::new(code::ER_WARN_DATA_OUT_OF_RANGE, msg));
        }
        diag.warn(code::ER_WARN_DATA_OUT_OF_RANGE, msg);
        Ok(())
    }

    fn truncated_msg(&self) -> String {
        format!(
            "Data truncated for column '{}' at row {}",
            self.col, self.row
        )
    }

    /// 1265: an error in strict mode, a warning otherwise.
    fn truncated(&self, diag: &mut Diagnostics) -> Result<(), MyError> {
        if self.strict {
            return Err(MyError::new(
                code::WARN_DATA_TRUNCATED,
                self.truncated_msg(),
            ));
        }
        diag.warn(code::WARN_DATA_TRUNCATED, self.truncated_msg());
        Ok(())
    }

    /// 1265 as a Note, in both modes (rounding, trailing spaces, a dropped time of day).
    fn note_truncated(&self, diag: &mut Diagnostics) {
        diag.note(code::WARN_DATA_TRUNCATED, self.truncated_msg());
    }

    fn too_long(&self, diag: &mut Diagnostics) -> Result<(), MyError> {
        if self.strict {
            return Err(MyError::new(
                code::ER_DATA_TOO_LONG,
                format!(
                    "Data too long for column '{}' at row {}",
                    self.col, self.row
                ),
            ));
        }
        diag.warn(code::WARN_DATA_TRUNCATED, self.truncated_msg());
        Ok(())
    }

    /// 1366 `Incorrect integer value: 'abc' for column 'c' at row 1`.
    fn incorrect_value(&self, kind: &str, s: &[u8], diag: &mut Diagnostics) -> Result<(), MyError> {
        let msg = format!(
            "Incorrect {kind} value: '{}' for column '{}' at row {}",
            quote_for_message(s),
            self.col,
            self.row
        );
        if self.strict {
            return Err(MyError::new(code::ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, msg));
        }
        diag.warn(code::ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, msg);
        Ok(())
    }

    /// A bad temporal: strict → 1292 `Incorrect datetime value: 'x' for column 'c' at row
    /// N`; otherwise a warning `nonstrict_code` (1265 truncated or 1264 out of range).
    fn bad_temporal(
        &self,
        kind: &str,
        v: &Value,
        nonstrict_code: u16,
        diag: &mut Diagnostics,
    ) -> Result<(), MyError> {
        if self.strict {
            return Err(MyError::new(
                code::ER_TRUNCATED_WRONG_VALUE,
                format!(
                    "Incorrect {kind} value: '{}' for column '{}' at row {}",
                    quote_for_message(&to_bytes(v)),
                    self.col,
                    self.row
                ),
            ));
        }
        if nonstrict_code == code::ER_WARN_DATA_OUT_OF_RANGE {
            self.out_of_range(diag)
        } else {
            self.truncated(diag)
        }
    }
}

/// Coerces `v` for writing into a column of type `ty` named `col` (row `row`, 1-based, for
/// messages), as MySQL 8.0 does with (`strict`: `STRICT_TRANS_TABLES`/`STRICT_ALL_TABLES`)
/// or without strict mode. Returns the column's canonical representation:
///
/// | type | result |
/// |---|---|
/// | TINYINT…BIGINT, BOOL, YEAR | `Int` (signed, YEAR) or `UInt` (unsigned) |
/// | BIT(n) | `UInt` |
/// | DECIMAL(p,s) | `Decimal` with scale exactly `s` |
/// | FLOAT / DOUBLE | `Float` / `Double` |
/// | CHAR, VARCHAR, TEXT, ENUM, SET, JSON, BINARY, VARBINARY, BLOB | `Bytes` |
/// | DATE / DATETIME, TIMESTAMP / TIME | `Date` / `DateTime` / `Time` |
///
/// NULL passes through (NOT NULL is the caller's check). Errors are those of strict mode
/// (1264, 1265, 1292, 1366, 1406) and invalid JSON (3140, in every mode).
pub fn store(
    v: Value,
    ty: &SqlType,
    col: &str,
    row: u64,
    strict: bool,
    diag: &mut Diagnostics,
) -> Result<Value, MyError> {
    if v.is_null() {
        return Ok(v);
    }
    let t = Target { col, row, strict };
    match ty {
        SqlType::Null => Ok(v),
        SqlType::Int {
            width, unsigned, ..
        } => {
            let (min, max) = width.range(*unsigned);
            let x = store_integer(&v, min, max, &t, diag)?;
            Ok(if *unsigned {
                Value::UInt(x as u64)
            } else {
                Value::Int(x as i64)
            })
        }
        SqlType::Bool => Ok(Value::Int(store_integer(&v, -128, 127, &t, diag)? as i64)),
        SqlType::Decimal {
            precision,
            scale,
            unsigned,
        } => store_decimal(&v, *precision, *scale, *unsigned, &t, diag),
        SqlType::Float { unsigned } => {
            let mut x = store_real(&v, *unsigned, &t, diag)?;
            if x.abs() > f32::MAX as f64 {
                t.out_of_range(diag)?;
                x = f32::MAX as f64 * x.signum();
            }
            Ok(Value::Float(x as f32))
        }
        SqlType::Double { unsigned } => Ok(Value::Double(store_real(&v, *unsigned, &t, diag)?)),
        SqlType::Char { len, collation } => store_text(
            v,
            TextLimit::Chars(*len as usize),
            true,
            *collation,
            &t,
            diag,
        ),
        SqlType::VarChar { len, collation } => store_text(
            v,
            TextLimit::Chars(*len as usize),
            false,
            *collation,
            &t,
            diag,
        ),
        SqlType::Text { size, collation } => store_text(
            v,
            TextLimit::Bytes(size.max_bytes() as usize),
            false,
            *collation,
            &t,
            diag,
        ),
        SqlType::Binary { len } => store_binary(v, *len as usize, true, &t, diag),
        SqlType::VarBinary { len } => store_binary(v, *len as usize, false, &t, diag),
        SqlType::Blob { size } => store_binary(v, blob_len(*size), false, &t, diag),
        SqlType::Date => store_datetime(&v, true, 0, &t, diag),
        SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } => {
            store_datetime(&v, false, *fsp, &t, diag)
        }
        SqlType::Time { fsp } => store_time(&v, *fsp, &t, diag),
        SqlType::Year => store_year(&v, &t, diag),
        SqlType::Enum { values, collation } => store_enum(&v, values, *collation, &t, diag),
        SqlType::Set { values, collation } => store_set(&v, values, *collation, &t, diag),
        SqlType::Json => store_json(v, &t),
        SqlType::Bit { len } => store_bit(&v, *len, &t, diag),
    }
}

fn blob_len(size: BlobSize) -> usize {
    size.max_bytes().min(usize::MAX as u64) as usize
}

/// Integer columns: range-checked, rounded, strings read whole (`my_strntoull10rnd`).
fn store_integer(
    v: &Value,
    min: i128,
    max: i128,
    t: &Target,
    diag: &mut Diagnostics,
) -> Result<i128, MyError> {
    let x: i128 = match v {
        Value::Int(i) => *i as i128,
        Value::UInt(u) => *u as i128,
        Value::Float(f) => f64_to_i128(*f as f64, i128::MIN / 2, i128::MAX / 2).0,
        Value::Double(d) => f64_to_i128(*d, i128::MIN / 2, i128::MAX / 2).0,
        Value::Decimal(d) => decimal_to_i128(d).unwrap_or(if d.sign() == Sign::Minus {
            i128::MIN
        } else {
            i128::MAX
        }),
        Value::Bytes(s) => {
            let (x, st) = str_to_int_rounded(s);
            if x < min || x > max {
                t.out_of_range(diag)?;
                return Ok(x.clamp(min, max));
            }
            if st.no_digits {
                t.incorrect_value("integer", s, diag)?;
                return Ok(0i128.clamp(min, max));
            }
            if st.garbage {
                t.truncated(diag)?;
            }
            return Ok(x);
        }
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => temporal_to_i128(v),
        Value::Null => 0,
    };
    if x < min || x > max {
        t.out_of_range(diag)?;
        return Ok(x.clamp(min, max));
    }
    Ok(x)
}

fn store_decimal(
    v: &Value,
    precision: u8,
    scale: u8,
    unsigned: bool,
    t: &Target,
    diag: &mut Diagnostics,
) -> Result<Value, MyError> {
    let scale = scale.min(30) as i64;
    let precision = (precision as i64).clamp(1, 65).max(scale);
    let mut overflow = false;
    let d: BigDecimal = match v {
        Value::Int(i) => BigDecimal::from(*i),
        Value::UInt(u) => BigDecimal::from(*u),
        Value::Float(f) => f64_to_decimal(*f as f64),
        Value::Double(d) => f64_to_decimal(*d),
        Value::Decimal(d) => (**d).clone(),
        Value::Bytes(s) => {
            let (d, st) = str_to_decimal(s);
            if st.no_digits {
                t.incorrect_value("decimal", s, diag)?;
                return Ok(Value::decimal(BigDecimal::zero().with_scale(scale)));
            }
            overflow = st.overflow;
            if st.garbage && !overflow {
                t.truncated(diag)?;
            }
            d
        }
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => temporal_to_decimal(v),
        Value::Null => BigDecimal::zero(),
    };
    // Largest magnitude: 10^(p-s) - 10^-s.
    let max = BigDecimal::new(BigInt::from(10).pow((precision) as u32) - 1, scale);
    if !overflow && unsigned && d.sign() == Sign::Minus {
        // Rounding to zero is not out of range (-0.001 → 0.00 with a note).
        let r = d.with_scale_round(scale, RoundingMode::HalfUp);
        if r.is_zero() {
            t.note_truncated(diag);
            return Ok(Value::decimal(r));
        }
        t.out_of_range(diag)?;
        return Ok(Value::decimal(BigDecimal::zero().with_scale(scale)));
    }
    let r = if overflow {
        None
    } else {
        Some(d.with_scale_round(scale, RoundingMode::HalfUp))
    };
    match r {
        Some(r) if r.abs() <= max => {
            if r != d {
                t.note_truncated(diag);
            }
            Ok(Value::decimal(r))
        }
        _ => {
            t.out_of_range(diag)?;
            Ok(Value::decimal(if d.sign() == Sign::Minus {
                -max
            } else {
                max
            }))
        }
    }
}

/// FLOAT/DOUBLE columns: the value as a double, unsigned clamped at 0.
fn store_real(
    v: &Value,
    unsigned: bool,
    t: &Target,
    diag: &mut Diagnostics,
) -> Result<f64, MyError> {
    let x = match v {
        Value::Bytes(s) => {
            let (x, st) = str_to_f64(s);
            if st.overflow {
                t.out_of_range(diag)?;
            } else if st.no_digits {
                t.incorrect_value("double", s, diag)?;
            } else if st.garbage {
                t.truncated(diag)?;
            }
            x
        }
        other => to_f64_opt(other, None).unwrap_or(0.0),
    };
    if unsigned && x < 0.0 {
        t.out_of_range(diag)?;
        return Ok(0.0);
    }
    Ok(x)
}

enum TextLimit {
    Chars(usize),
    Bytes(usize),
}

/// `\xF0\x9F\x98\x80` for MySQL's "Incorrect string value" message.
fn printable_bad_bytes(b: &[u8]) -> String {
    let mut s = String::new();
    for &c in b.iter().take(6) {
        if c.is_ascii_graphic() || c == b' ' {
            s.push(c as char);
        } else {
            s.push_str(&format!("\\x{c:02X}"));
        }
    }
    if b.len() > 6 {
        s.push_str("...");
    }
    s
}

/// The first byte offset where `s` is not valid text of `charset` (utf8mb3 has no 4-byte
/// characters, ascii only 7-bit).
fn invalid_text_at(s: &[u8], charset: Charset) -> Option<usize> {
    if s.is_ascii() {
        return None;
    }
    match charset {
        Charset::Ascii => s.iter().position(|&b| b >= 0x80),
        _ => match std::str::from_utf8(s) {
            Err(e) => Some(e.valid_up_to()),
            Ok(text) if charset == Charset::Utf8mb3 => text
                .char_indices()
                .find(|(_, c)| c.len_utf8() == 4)
                .map(|(i, _)| i),
            Ok(_) => None,
        },
    }
}

fn store_text(
    v: Value,
    limit: TextLimit,
    is_char: bool,
    coll: Collation,
    t: &Target,
    diag: &mut Diagnostics,
) -> Result<Value, MyError> {
    let original = match &v {
        Value::Bytes(b) => Some(b.clone()),
        _ => None,
    };
    let bytes_cow = to_bytes(&v);
    let mut bytes: &[u8] = &bytes_cow;
    if let Some(bad) = invalid_text_at(bytes, coll.charset()) {
        let msg = format!(
            "Incorrect string value: '{}' for column '{}' at row {}",
            printable_bad_bytes(&bytes[bad..]),
            t.col,
            t.row
        );
        if t.strict {
            return Err(MyError::new(code::ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, msg));
        }
        diag.warn(code::ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, msg);
        bytes = &bytes[..bad];
    }
    let keep = match limit {
        TextLimit::Chars(n) => collation::truncate_chars(bytes, n),
        TextLimit::Bytes(n) if bytes.len() > n => {
            // Cut at a character boundary at or below n bytes.
            let mut end = n;
            while end > 0 && bytes.get(end).is_some_and(|&b| b & 0xC0 == 0x80) {
                end -= 1;
            }
            &bytes[..end]
        }
        TextLimit::Bytes(_) => bytes,
    };
    if keep.len() < bytes.len() {
        let excess = &bytes[keep.len()..];
        if excess.iter().all(|&b| b == b' ') {
            // Trailing spaces: silently for CHAR, a note for VARCHAR/TEXT (any mode).
            if !is_char {
                t.note_truncated(diag);
            }
        } else {
            t.too_long(diag)?;
        }
        bytes = keep;
    }
    if is_char {
        let end = bytes.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
        bytes = &bytes[..end];
    }
    if let Some(orig) = original
        && orig.len() == bytes.len()
    {
        return Ok(Value::Bytes(orig));
    }
    Ok(Value::bytes(bytes))
}

fn store_binary(
    v: Value,
    max: usize,
    pad: bool,
    t: &Target,
    diag: &mut Diagnostics,
) -> Result<Value, MyError> {
    let original = match &v {
        Value::Bytes(b) => Some(b.clone()),
        _ => None,
    };
    let bytes_cow = to_bytes(&v);
    let mut bytes: &[u8] = &bytes_cow;
    if bytes.len() > max {
        t.too_long(diag)?;
        bytes = &bytes[..max];
    }
    if pad && bytes.len() < max {
        let mut padded = Vec::with_capacity(max);
        padded.extend_from_slice(bytes);
        padded.resize(max, 0);
        return Ok(Value::from_vec(padded));
    }
    if let Some(orig) = original
        && orig.len() == bytes.len()
    {
        return Ok(Value::Bytes(orig));
    }
    Ok(Value::bytes(bytes))
}

fn store_datetime(
    v: &Value,
    is_date: bool,
    fsp: u8,
    t: &Target,
    diag: &mut Diagnostics,
) -> Result<Value, MyError> {
    let kind = if is_date { "date" } else { "datetime" };
    let zero = || {
        if is_date {
            Value::Date(DateTime::ZERO)
        } else {
            Value::DateTime(DateTime::ZERO)
        }
    };
    let dt: DateTime = match v {
        Value::Date(d) | Value::DateTime(d) => *d,
        Value::Time(tm) => match time_to_datetime(*tm) {
            Some(d) => d,
            None => {
                t.bad_temporal(kind, v, code::ER_WARN_DATA_OUT_OF_RANGE, diag)?;
                return Ok(zero());
            }
        },
        Value::Bytes(s) => match temporal::parse_datetime(s) {
            Ok(p) => {
                if p.truncated {
                    t.bad_temporal(kind, v, code::WARN_DATA_TRUNCATED, diag)?;
                }
                p.value
            }
            Err(e) => {
                let code = if e == TemporalError::DayOutOfRange {
                    code::ER_WARN_DATA_OUT_OF_RANGE
                } else {
                    code::WARN_DATA_TRUNCATED
                };
                t.bad_temporal(kind, v, code, diag)?;
                return Ok(zero());
            }
        },
        _ => match split_number(v) {
            Some((int, nanos, false)) => match temporal::datetime_from_parts(int, nanos) {
                Ok((d, _)) => d,
                Err(_) => {
                    t.bad_temporal(kind, v, code::WARN_DATA_TRUNCATED, diag)?;
                    return Ok(zero());
                }
            },
            _ => {
                t.bad_temporal(kind, v, code::WARN_DATA_TRUNCATED, diag)?;
                return Ok(zero());
            }
        },
    };
    if is_date {
        if dt.hour != 0 || dt.minute != 0 || dt.second != 0 || dt.micro != 0 {
            t.note_truncated(diag);
        }
        return Ok(Value::Date(dt.date_part()));
    }
    let rounded = match temporal::round_datetime(dt, fsp) {
        Some(r) => r,
        None => {
            t.bad_temporal(kind, v, code::ER_WARN_DATA_OUT_OF_RANGE, diag)?;
            temporal::truncate_datetime(dt, fsp)
        }
    };
    Ok(Value::DateTime(rounded))
}

fn store_time(v: &Value, fsp: u8, t: &Target, diag: &mut Diagnostics) -> Result<Value, MyError> {
    let zero = Value::Time(Time { micros: 0 });
    let tm: Time = match v {
        Value::Time(x) => *x,
        Value::DateTime(d) | Value::Date(d) => temporal::time_of_day(d),
        Value::Bytes(s) => match temporal::parse_time(s) {
            Ok(p) => {
                if p.clamped {
                    t.bad_temporal("time", v, code::ER_WARN_DATA_OUT_OF_RANGE, diag)?;
                } else if p.truncated {
                    t.bad_temporal("time", v, code::WARN_DATA_TRUNCATED, diag)?;
                }
                p.value
            }
            Err(_) => {
                t.bad_temporal("time", v, code::WARN_DATA_TRUNCATED, diag)?;
                return Ok(zero);
            }
        },
        _ => {
            let Some((int, nanos, negative)) = split_number(v) else {
                return Ok(zero);
            };
            match temporal::time_from_int(int) {
                Ok((x, clamped)) => {
                    if clamped {
                        t.bad_temporal("time", v, code::ER_WARN_DATA_OUT_OF_RANGE, diag)?;
                    }
                    let micros = if clamped {
                        x.micros
                    } else {
                        (x.micros + (nanos as i64 + 500) / 1000).min(temporal::TIME_MAX_MICROS)
                    };
                    Time {
                        micros: if negative { -micros } else { micros },
                    }
                }
                Err(_) => {
                    t.bad_temporal("time", v, code::WARN_DATA_TRUNCATED, diag)?;
                    return Ok(zero);
                }
            }
        }
    };
    let (rounded, clamped) = temporal::round_time(tm, fsp);
    if clamped {
        t.bad_temporal("time", v, code::ER_WARN_DATA_OUT_OF_RANGE, diag)?;
    }
    Ok(Value::Time(rounded))
}

/// YEAR: 1901–2155 or 0; 1–69 → 2001–2069, 70–99 → 1970–1999; the strings `'0'`, `'00'`
/// and `'000'` are 2000 while the number 0 and `'0000'` are 0.
fn store_year(v: &Value, t: &Target, diag: &mut Diagnostics) -> Result<Value, MyError> {
    let map = |n: i128| -> Option<i64> {
        match n {
            0 => Some(0),
            1..=69 => Some(2000 + n as i64),
            70..=99 => Some(1900 + n as i64),
            1901..=2155 => Some(n as i64),
            _ => None,
        }
    };
    let n: i128 = match v {
        Value::Date(d) | Value::DateTime(d) => d.year as i128,
        Value::Time(_) => temporal::now_utc().year as i128,
        Value::Bytes(s) => {
            let (n, st) = str_to_int_rounded(s);
            if map(n).is_none() || st.overflow {
                t.out_of_range(diag)?;
                return Ok(Value::Int(0));
            }
            if st.no_digits {
                t.incorrect_value("integer", s, diag)?;
                return Ok(Value::Int(0));
            }
            if st.garbage {
                t.truncated(diag)?;
            }
            if n == 0 && s.len() != 4 {
                return Ok(Value::Int(2000));
            }
            n
        }
        other => store_integer(other, i128::MIN / 2, i128::MAX / 2, t, diag)?,
    };
    match map(n) {
        Some(y) => Ok(Value::Int(y)),
        None => {
            t.out_of_range(diag)?;
            Ok(Value::Int(0))
        }
    }
}

/// An ENUM/SET member index from a number value (1-based), if integral and in range.
fn member_number(v: &Value) -> Option<i128> {
    match v {
        Value::Int(i) => Some(*i as i128),
        Value::UInt(u) => Some(*u as i128),
        Value::Float(f) => Some(f64_to_i128(*f as f64, i64::MIN as i128, i64::MAX as i128).0),
        Value::Double(d) => Some(f64_to_i128(*d, i64::MIN as i128, i64::MAX as i128).0),
        Value::Decimal(d) => decimal_to_i128(d),
        _ => None,
    }
}

fn trim_trailing_spaces(s: &[u8]) -> &[u8] {
    let end = s.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    &s[..end]
}

fn store_enum(
    v: &Value,
    values: &[String],
    coll: Collation,
    t: &Target,
    diag: &mut Diagnostics,
) -> Result<Value, MyError> {
    let by_index = |n: i128| -> Option<Value> {
        usize::try_from(n)
            .ok()
            .filter(|&i| i >= 1)
            .and_then(|i| values.get(i - 1))
            .map(|s| Value::str(s))
    };
    let found = match member_number(v) {
        Some(n) => by_index(n),
        None => {
            let text = to_bytes(v);
            let s = trim_trailing_spaces(&text);
            match values
                .iter()
                .find(|m| collation::eq(s, trim_trailing_spaces(m.as_bytes()), coll))
            {
                Some(m) => Some(Value::str(m)),
                None if !s.is_empty() && s.len() < 6 && s.iter().all(u8::is_ascii_digit) => {
                    let n = s.iter().fold(0i128, |a, &c| a * 10 + (c - b'0') as i128);
                    by_index(n)
                }
                None => None,
            }
        }
    };
    match found {
        Some(value) => Ok(value),
        None => {
            t.truncated(diag)?;
            Ok(Value::str(""))
        }
    }
}

fn store_set(
    v: &Value,
    values: &[String],
    coll: Collation,
    t: &Target,
    diag: &mut Diagnostics,
) -> Result<Value, MyError> {
    let count = values.len().min(64);
    let all: u64 = if count >= 64 {
        u64::MAX
    } else {
        (1u64 << count) - 1
    };
    let mut mask: u64 = 0;
    let mut bad = false;
    match member_number(v) {
        Some(n) => {
            if n < 0 || n > all as i128 {
                bad = true;
            }
            mask = (n.clamp(0, u64::MAX as i128) as u64) & all;
        }
        None => {
            let text = to_bytes(v);
            if !text.is_empty() {
                for part in text.split(|&b| b == b',') {
                    let part = trim_trailing_spaces(part);
                    match values
                        .iter()
                        .take(count)
                        .position(|m| collation::eq(part, trim_trailing_spaces(m.as_bytes()), coll))
                    {
                        Some(i) => mask |= 1 << i,
                        None => bad = true,
                    }
                }
                if bad && text.iter().all(u8::is_ascii_digit) && text.len() <= 20 {
                    // A number as a string is a member bit mask.
                    let n = text.iter().fold(0u128, |a, &c| a * 10 + (c - b'0') as u128);
                    bad = n > all as u128;
                    mask = (n.min(u64::MAX as u128) as u64) & all;
                }
            }
        }
    }
    if bad {
        t.truncated(diag)?;
    }
    let mut out = Vec::new();
    for (i, m) in values.iter().take(count).enumerate() {
        if mask & (1 << i) != 0 {
            if !out.is_empty() {
                out.push(b',');
            }
            out.extend_from_slice(m.as_bytes());
        }
    }
    Ok(Value::from_vec(out))
}

fn store_bit(v: &Value, len: u8, t: &Target, diag: &mut Diagnostics) -> Result<Value, MyError> {
    let max: u64 = if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len.max(1)) - 1
    };
    let (x, overflow): (u64, bool) = match v {
        Value::Int(i) => (*i as u64, false),
        Value::UInt(u) => (*u, false),
        Value::Float(_) | Value::Double(_) | Value::Decimal(_) => {
            let n = member_number(v).unwrap_or(0);
            (
                n.clamp(i64::MIN as i128, u64::MAX as i128) as i64 as u64,
                n > u64::MAX as i128,
            )
        }
        // Strings are big-endian bytes (b'101' and x'05' literals arrive as strings).
        Value::Bytes(b) => {
            let start = b.iter().position(|&c| c != 0).unwrap_or(b.len());
            let significant = &b[start..];
            if significant.len() > 8 {
                (u64::MAX, true)
            } else {
                (
                    significant.iter().fold(0u64, |a, &c| (a << 8) | c as u64),
                    false,
                )
            }
        }
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => (temporal_to_i128(v) as u64, false),
        Value::Null => (0, false),
    };
    if overflow || x > max {
        if t.strict {
            return Err(MyError::new(
                code::ER_DATA_TOO_LONG,
                format!("Data too long for column '{}' at row {}", t.col, t.row),
            ));
        }
        t.out_of_range(diag)?;
        return Ok(Value::UInt(max));
    }
    Ok(Value::UInt(x))
}

fn store_json(v: Value, t: &Target) -> Result<Value, MyError> {
    let error = |reason: &str, pos: usize| {
        MyError::new(
            code::ER_INVALID_JSON_TEXT,
            format!(
                "Invalid JSON text: \"{reason}\" at position {pos} in value for column '{}'.",
                t.col
            ),
        )
    };
    match &v {
        Value::Bytes(b) => match validate_json(b) {
            Ok(()) => Ok(v),
            Err((reason, pos)) => Err(error(reason, pos)),
        },
        // MySQL accepts only JSON text (or JSON values) in a JSON column.
        _ => Err(error("not a JSON text, may need CAST", 0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Level;
    use crate::sql::convert::to_text;
    use crate::sql::types::IntWidth;
    use std::sync::Arc;

    fn text(v: &Value, ty: &SqlType) -> String {
        let mut out = Vec::new();
        to_text(v, ty, &mut out);
        String::from_utf8(out).unwrap()
    }

    fn dec(s: &str) -> BigDecimal {
        s.parse().unwrap()
    }

    fn int_ty(width: IntWidth, unsigned: bool) -> SqlType {
        SqlType::Int {
            width,
            unsigned,
            zerofill: false,
            display: None,
        }
    }

    /// `store` non-strict: (value text, warnings as "Level code message").
    fn st(v: Value, ty: &SqlType) -> (String, Vec<String>) {
        let mut diag = Diagnostics::default();
        let out = store(v, ty, "c", 1, false, &mut diag).unwrap();
        let warnings = diag
            .list
            .iter()
            .map(|w| format!("{} {} {}", w.level.name(), w.code, w.message))
            .collect();
        (text(&out, ty), warnings)
    }

    /// `store` strict: Ok(text) or Err((code, message)).
    fn strict(v: Value, ty: &SqlType) -> Result<String, (u16, String)> {
        let mut diag = Diagnostics::default();
        store(v, ty, "c", 1, true, &mut diag)
            .map(|out| text(&out, ty))
            .map_err(|e| (e.code, e.message))
    }

    #[test]
    fn store_integers() {
        let int = SqlType::INT;
        assert_eq!(
            st(Value::str("12abc"), &int),
            (
                "12".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::str("abc"), &int),
            (
                "0".into(),
                vec!["Warning 1366 Incorrect integer value: 'abc' for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::str("1.5"), &int), ("2".into(), vec![]));
        assert_eq!(st(Value::str(" 12"), &int), ("12".into(), vec![]));
        assert_eq!(st(Value::str("12 "), &int), ("12".into(), vec![]));
        assert_eq!(st(Value::str("1e3"), &int), ("1000".into(), vec![]));
        assert_eq!(st(Value::str("-0.5"), &int), ("-1".into(), vec![]));
        assert_eq!(st(Value::str(".5"), &int), ("1".into(), vec![]));
        assert_eq!(st(Value::str("+5"), &int).0, "5");
        assert_eq!(
            st(Value::str(""), &int).1[0],
            "Warning 1366 Incorrect integer value: '' for column 'c' at row 1"
        );
        assert_eq!(st(Value::str("0x10"), &int).0, "0");
        // A second '.' drops the first (MySQL's my_strntoull10rnd quirk, as MariaDB).
        assert_eq!(st(Value::str(" 8.5138.5"), &int).0, "85138");
        assert_eq!(st(Value::str("8.5."), &int).0, "85");
        assert_eq!(
            st(Value::Double(1e20), &int),
            (
                "2147483647".into(),
                vec!["Warning 1264 Out of range value for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::str("9999999999999999999999"), &int).0,
            "2147483647"
        );
        assert_eq!(st(Value::Int(-1), &int_ty(IntWidth::Int, true)).0, "0");
        assert_eq!(
            st(Value::Double(2.5), &int_ty(IntWidth::Tiny, false)).0,
            "2"
        );
        assert_eq!(
            st(Value::Double(3.5), &int_ty(IntWidth::Tiny, false)).0,
            "4"
        );
        assert_eq!(
            st(Value::decimal(dec("2.5")), &int_ty(IntWidth::Tiny, false)),
            ("3".into(), vec![])
        );
        assert_eq!(
            st(Value::decimal(dec("-2.5")), &int_ty(IntWidth::Tiny, false)).0,
            "-3"
        );
        assert_eq!(
            st(Value::UInt(u64::MAX), &SqlType::BIGINT_UNSIGNED).0,
            "18446744073709551615"
        );
        assert_eq!(
            st(Value::UInt(u64::MAX), &SqlType::BIGINT).0,
            "9223372036854775807"
        );
        assert_eq!(st(Value::Int(1), &SqlType::Bool).0, "1");
        // Strict mode turns them into errors.
        assert_eq!(
            strict(Value::str("12abc"), &int),
            Err((1265, "Data truncated for column 'c' at row 1".into()))
        );
        assert_eq!(
            strict(Value::str("abc"), &int),
            Err((
                1366,
                "Incorrect integer value: 'abc' for column 'c' at row 1".into()
            ))
        );
        assert_eq!(
            strict(Value::Double(1e20), &int),
            Err((1264, "Out of range value for column 'c' at row 1".into()))
        );
        assert_eq!(
            strict(Value::Int(-1), &int_ty(IntWidth::Big, true))
                .unwrap_err()
                .0,
            1264
        );
        assert_eq!(strict(Value::str("12"), &int), Ok("12".into()));
        // Canonical representation.
        let mut d = Diagnostics::default();
        assert!(matches!(
            store(
                Value::Int(5),
                &SqlType::BIGINT_UNSIGNED,
                "c",
                1,
                true,
                &mut d
            ),
            Ok(Value::UInt(5))
        ));
        assert!(matches!(
            store(Value::UInt(5), &SqlType::INT, "c", 1, true, &mut d),
            Ok(Value::Int(5))
        ));
        assert!(matches!(
            store(Value::Null, &SqlType::INT, "c", 1, true, &mut d),
            Ok(Value::Null)
        ));
    }

    #[test]
    fn store_decimals_and_reals() {
        let d52 = SqlType::Decimal {
            precision: 5,
            scale: 2,
            unsigned: false,
        };
        assert_eq!(
            st(Value::decimal(dec("1.005")), &d52),
            (
                "1.01".into(),
                vec!["Note 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::decimal(dec("1.5")), &d52),
            ("1.50".into(), vec![])
        );
        assert_eq!(st(Value::Double(1.005), &d52).0, "1.01");
        assert_eq!(st(Value::Double(1.015), &d52).0, "1.02");
        assert_eq!(st(Value::str("-1.005"), &d52).0, "-1.01");
        assert_eq!(
            st(Value::str("1.2abc"), &d52),
            (
                "1.20".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::str("abc"), &d52),
            (
                "0.00".into(),
                vec!["Warning 1366 Incorrect decimal value: 'abc' for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::Int(12345), &d52),
            (
                "999.99".into(),
                vec!["Warning 1264 Out of range value for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::Int(-12345), &d52).0, "-999.99");
        assert_eq!(st(Value::str("1e100"), &d52).0, "999.99");
        assert_eq!(st(Value::str("1e-100"), &d52).0, "0.00");
        assert_eq!(st(Value::str("1e2"), &d52), ("100.00".into(), vec![]));
        assert_eq!(st(Value::str("999.995"), &d52).0, "999.99");
        assert_eq!(st(Value::str("1e99999999999999999999"), &d52).0, "999.99");
        assert_eq!(strict(Value::str("1.2abc"), &d52).unwrap_err().0, 1265);
        assert_eq!(
            strict(Value::str("abc"), &d52).unwrap_err(),
            (
                1366,
                "Incorrect decimal value: 'abc' for column 'c' at row 1".into()
            )
        );
        assert_eq!(strict(Value::Int(12345), &d52).unwrap_err().0, 1264);
        assert_eq!(
            strict(Value::decimal(dec("1.005")), &d52),
            Ok("1.01".into())
        );
        let unsigned = SqlType::Decimal {
            precision: 5,
            scale: 2,
            unsigned: true,
        };
        assert_eq!(st(Value::Int(-1), &unsigned).0, "0.00");

        let f = SqlType::Float { unsigned: false };
        let dbl = SqlType::DOUBLE;
        assert_eq!(
            st(Value::str("abc"), &f),
            (
                "0".into(),
                vec!["Warning 1366 Incorrect double value: 'abc' for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::str("1.5x"), &f),
            (
                "1.5".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::Double(1e39), &f),
            (
                "3.40282e38".into(),
                vec!["Warning 1264 Out of range value for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::str("1e400"), &dbl).0, "1.7976931348623157e308");
        assert_eq!(
            st(Value::Int(-1), &SqlType::Double { unsigned: true }).0,
            "0"
        );
        assert_eq!(st(Value::decimal(dec("0.1")), &dbl).0, "0.1");
        assert_eq!(st(Value::Int(123456789), &f).0, "123457000");
        assert_eq!(strict(Value::str("abc"), &dbl).unwrap_err().0, 1366);
    }

    #[test]
    fn store_strings() {
        let c3 = SqlType::Char {
            len: 3,
            collation: Collation::Utf8mb4GeneralCi,
        };
        let v3 = SqlType::varchar(3);
        assert_eq!(
            st(Value::str("abcd"), &c3),
            (
                "abc".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::str("ab  "), &c3), ("ab".into(), vec![]));
        assert_eq!(st(Value::str("abc  "), &c3), ("abc".into(), vec![]));
        assert_eq!(
            st(Value::str("abc  "), &v3),
            (
                "abc".into(),
                vec!["Note 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::str("ab "), &v3), ("ab ".into(), vec![]));
        assert_eq!(st(Value::str("héé"), &v3), ("héé".into(), vec![]));
        assert_eq!(st(Value::str("😀😀😀😀"), &v3).0, "😀😀😀");
        assert_eq!(st(Value::Int(20200102), &v3).0, "202");
        assert_eq!(st(Value::Double(0.5), &v3).0, "0.5");
        assert_eq!(
            strict(Value::str("abcd"), &c3),
            Err((1406, "Data too long for column 'c' at row 1".into()))
        );
        assert_eq!(strict(Value::str("abcd"), &v3).unwrap_err().0, 1406);
        assert_eq!(strict(Value::str("abc   "), &v3), Ok("abc".into()));
        assert_eq!(
            strict(Value::bytes(b"\xffab"), &v3),
            Err((
                1366,
                "Incorrect string value: '\\xFFab' for column 'c' at row 1".into()
            ))
        );
        assert_eq!(st(Value::bytes(b"a\xffb"), &v3).0, "a");
        let mb3 = SqlType::VarChar {
            len: 5,
            collation: Collation::Utf8mb3GeneralCi,
        };
        assert_eq!(
            strict(Value::str("a😀"), &mb3).unwrap_err().1,
            "Incorrect string value: '\\xF0\\x9F\\x98\\x80' for column 'c' at row 1"
        );
        let tiny = SqlType::Text {
            size: BlobSize::Tiny,
            collation: Collation::Utf8mb4GeneralCi,
        };
        let long = "é".repeat(200); // 400 bytes
        let (v, w) = st(Value::str(&long), &tiny);
        assert_eq!(v.len(), 254);
        assert_eq!(w.len(), 1);
        // Unchanged strings keep their allocation.
        let s: Arc<[u8]> = Arc::from(&b"xy"[..]);
        let mut d = Diagnostics::default();
        match store(Value::Bytes(s.clone()), &v3, "c", 1, true, &mut d).unwrap() {
            Value::Bytes(b) => assert!(Arc::ptr_eq(&b, &s)),
            other => panic!("{other:?}"),
        }

        let b3 = SqlType::Binary { len: 3 };
        let vb3 = SqlType::VarBinary { len: 3 };
        assert_eq!(st(Value::str("a"), &b3).0.as_bytes(), b"a\0\0");
        assert_eq!(
            st(Value::str("abcd"), &vb3),
            (
                "abc".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::str("ab "), &vb3).0, "ab ");
        assert_eq!(strict(Value::str("abc "), &vb3).unwrap_err().0, 1406);
        let mut d = Diagnostics::default();
        match store(Value::bytes(b"\xff\xfe"), &vb3, "c", 1, true, &mut d).unwrap() {
            Value::Bytes(b) => assert_eq!(&*b, b"\xff\xfe"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn store_temporals() {
        let date = SqlType::Date;
        let dt0 = SqlType::DateTime { fsp: 0 };
        let dt3 = SqlType::DateTime { fsp: 3 };
        let tm = SqlType::Time { fsp: 0 };
        assert_eq!(
            st(Value::str("2020-01-02"), &dt0),
            ("2020-01-02 00:00:00".into(), vec![])
        );
        assert_eq!(
            st(Value::str("2020-01-02 03:04:05.6"), &dt0).0,
            "2020-01-02 03:04:06"
        );
        assert_eq!(
            st(Value::str("2020-01-02 03:04:05.1236"), &dt3).0,
            "2020-01-02 03:04:05.124"
        );
        assert_eq!(
            st(Value::str("2020-01-02 23:59:59.5"), &dt0).0,
            "2020-01-03 00:00:00"
        );
        assert_eq!(st(Value::Int(20200102), &dt0).0, "2020-01-02 00:00:00");
        assert_eq!(st(Value::Int(200102), &dt0).0, "2020-01-02 00:00:00");
        assert_eq!(
            st(Value::Double(20200102030405.5), &dt0).0,
            "2020-01-02 03:04:06"
        );
        assert_eq!(
            st(Value::str("0000-00-00"), &dt0),
            ("0000-00-00 00:00:00".into(), vec![])
        );
        assert_eq!(st(Value::Int(0), &date), ("0000-00-00".into(), vec![]));
        assert_eq!(
            st(Value::str("2020-00-01"), &date),
            ("2020-00-01".into(), vec![])
        );
        assert_eq!(
            st(Value::str("2020-13-01"), &dt0),
            (
                "0000-00-00 00:00:00".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::str("2020-02-30"), &date),
            (
                "0000-00-00".into(),
                vec!["Warning 1264 Out of range value for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::str("2020-01-02 03:04:05"), &date),
            (
                "2020-01-02".into(),
                vec!["Note 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::str("2020-01-02 03:04:05x"), &dt0),
            (
                "2020-01-02 03:04:05".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::Int(5), &dt0).1.len(), 1);
        assert_eq!(
            strict(Value::str("2020-13-01"), &dt0),
            Err((
                1292,
                "Incorrect datetime value: '2020-13-01' for column 'c' at row 1".into()
            ))
        );
        assert_eq!(
            strict(Value::str("2020-02-30"), &date),
            Err((
                1292,
                "Incorrect date value: '2020-02-30' for column 'c' at row 1".into()
            ))
        );
        assert_eq!(
            strict(Value::Int(20201301), &date).unwrap_err().1,
            "Incorrect date value: '20201301' for column 'c' at row 1"
        );
        assert_eq!(
            strict(Value::str("2020-01-02 03:04:05x"), &dt0)
                .unwrap_err()
                .0,
            1292
        );
        assert_eq!(
            strict(Value::str("9999-12-31 23:59:59.5"), &dt0)
                .unwrap_err()
                .0,
            1292
        );

        assert_eq!(st(Value::str("12:34:56"), &tm), ("12:34:56".into(), vec![]));
        assert_eq!(st(Value::str("1 12:00:00"), &tm).0, "36:00:00");
        assert_eq!(st(Value::Int(123456), &tm).0, "12:34:56");
        assert_eq!(st(Value::str("1:2:3.5"), &tm).0, "01:02:04");
        assert_eq!(st(Value::str("-838:59:59"), &tm).0, "-838:59:59");
        assert_eq!(
            st(Value::str("900:00:00"), &tm),
            (
                "838:59:59".into(),
                vec!["Warning 1264 Out of range value for column 'c' at row 1".into()]
            )
        );
        assert_eq!(
            st(Value::str("abc"), &tm),
            (
                "00:00:00".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::str("12:00:00abc"), &tm).0, "12:00:00");
        assert_eq!(st(Value::Int(1261), &tm).0, "00:00:00");
        assert_eq!(
            strict(Value::str("abc"), &tm),
            Err((
                1292,
                "Incorrect time value: 'abc' for column 'c' at row 1".into()
            ))
        );
        assert_eq!(strict(Value::str("900:00:00"), &tm).unwrap_err().0, 1292);
        assert_eq!(strict(Value::str("12:00:00abc"), &tm).unwrap_err().0, 1292);
        let dt = temporal::parse_datetime(b"2020-01-02 03:04:05")
            .unwrap()
            .value;
        assert_eq!(st(Value::DateTime(dt), &tm).0, "03:04:05");
        assert_eq!(
            st(Value::Date(dt.date_part()), &dt0).0,
            "2020-01-02 00:00:00"
        );
    }

    #[test]
    fn store_year_enum_set_bit_json() {
        let y = SqlType::Year;
        for (input, expected) in [
            (Value::Int(0), "0000"),
            (Value::str("0"), "2000"),
            (Value::str("00"), "2000"),
            (Value::str("0000"), "0000"),
            (Value::str("69"), "2069"),
            (Value::Int(70), "1970"),
            (Value::Int(99), "1999"),
            (Value::Int(1), "2001"),
            (Value::str("2155"), "2155"),
            (Value::Int(1901), "1901"),
            (Value::Double(2020.4), "2020"),
        ] {
            assert_eq!(
                st(input.clone(), &y),
                (expected.into(), vec![]),
                "{input:?}"
            );
        }
        assert_eq!(
            st(Value::Int(3000), &y),
            (
                "0000".into(),
                vec!["Warning 1264 Out of range value for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::Int(1900), &y).0, "0000");
        assert_eq!(
            st(Value::str("abc"), &y),
            (
                "0000".into(),
                vec!["Warning 1366 Incorrect integer value: 'abc' for column 'c' at row 1".into()]
            )
        );
        assert_eq!(strict(Value::Int(1900), &y).unwrap_err().0, 1264);

        let e = SqlType::Enum {
            values: vec!["a".into(), "B".into(), "c".into()],
            collation: Collation::Utf8mb4GeneralCi,
        };
        assert_eq!(st(Value::str("b"), &e), ("B".into(), vec![]));
        assert_eq!(st(Value::str("b  "), &e).0, "B");
        assert_eq!(st(Value::Int(2), &e).0, "B");
        assert_eq!(st(Value::str("3"), &e).0, "c");
        assert_eq!(
            st(Value::str("d"), &e),
            (
                "".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::Int(0), &e).0, "");
        assert_eq!(
            strict(Value::str("d"), &e),
            Err((1265, "Data truncated for column 'c' at row 1".into()))
        );
        assert_eq!(strict(Value::Int(4), &e).unwrap_err().0, 1265);

        let s = SqlType::Set {
            values: vec!["x".into(), "y".into(), "z".into()],
            collation: Collation::Utf8mb4GeneralCi,
        };
        assert_eq!(st(Value::str("z,x"), &s), ("x,z".into(), vec![]));
        assert_eq!(st(Value::str("Z,x,z"), &s).0, "x,z");
        assert_eq!(st(Value::str(""), &s), ("".into(), vec![]));
        assert_eq!(st(Value::Int(5), &s).0, "x,z");
        assert_eq!(
            st(Value::str("z,w"), &s),
            (
                "z".into(),
                vec!["Warning 1265 Data truncated for column 'c' at row 1".into()]
            )
        );
        assert_eq!(st(Value::Int(9), &s).0, "x");
        assert_eq!(strict(Value::str("z,w"), &s).unwrap_err().0, 1265);

        let b4 = SqlType::Bit { len: 4 };
        let mut d = Diagnostics::default();
        assert!(matches!(
            store(Value::Int(5), &b4, "c", 1, true, &mut d),
            Ok(Value::UInt(5))
        ));
        assert!(matches!(
            store(Value::bytes(b"\x05"), &b4, "c", 1, true, &mut d),
            Ok(Value::UInt(5))
        ));
        assert_eq!(
            st(Value::Int(17), &b4).1,
            vec!["Warning 1264 Out of range value for column 'c' at row 1".to_string()]
        );
        assert!(matches!(
            store(Value::Int(17), &b4, "c", 1, false, &mut d),
            Ok(Value::UInt(15))
        ));
        assert_eq!(
            strict(Value::Int(17), &b4),
            Err((1406, "Data too long for column 'c' at row 1".into()))
        );
        assert!(matches!(
            store(
                Value::Int(-1),
                &SqlType::Bit { len: 64 },
                "c",
                1,
                true,
                &mut d
            ),
            Ok(Value::UInt(u64::MAX))
        ));

        let j = SqlType::Json;
        assert_eq!(
            strict(
                Value::str(r#"{"a": [1, 2.5e3, true, null, "x\n\u00e9"]}"#),
                &j
            )
            .unwrap(),
            r#"{"a": [1, 2.5e3, true, null, "x\n\u00e9"]}"#
        );
        assert_eq!(
            strict(Value::str(r#"{"a":1"#), &j),
            Err((3140, "Invalid JSON text: \"Missing a comma or '}' after an object member.\" at position 6 in value for column 'c'.".into()))
        );
        let mut d = Diagnostics::default();
        assert_eq!(
            store(Value::str("nul"), &j, "c", 1, false, &mut d)
                .unwrap_err()
                .code,
            3140
        );
        assert_eq!(
            store(Value::Int(1), &j, "c", 1, false, &mut d)
                .unwrap_err()
                .code,
            3140
        );
    }

    #[test]
    fn levels_are_right() {
        let mut d = Diagnostics::default();
        let d52 = SqlType::Decimal {
            precision: 5,
            scale: 2,
            unsigned: false,
        };
        store(Value::decimal(dec("1.005")), &d52, "c", 7, false, &mut d).unwrap();
        assert_eq!(d.list[0].level, Level::Note);
        assert_eq!(d.list[0].message, "Data truncated for column 'c' at row 7");
    }
}
