//! Values: what a column holds and what an expression evaluates to.
//!
//! A [`Value`] is untyped on its own: its meaning (which collation compares it, how many
//! fractional digits a DATETIME prints with, whether an integer is a YEAR) comes from the
//! [`SqlType`](super::types::SqlType) of the column or expression it belongs to. What a value
//! does carry is its *representation*, chosen so that the common cases are cheap:
//!
//! - integers as `i64`/`u64` (BIGINT UNSIGNED needs the full `u64` range);
//! - DECIMAL as an exact `BigDecimal` (boxed: it is rare on hot paths and large);
//! - strings and binary data as shared, immutable bytes ([`Str`]); cloning one is a reference
//!   count increment, never a copy, so rows can hand out column values freely;
//! - temporal values as broken-down fields ([`DateTime`], [`Time`]) whose derived ordering is
//!   chronological.
//!
//! Rows are `Arc<[Value]>` ([`Row`]): one allocation, shared by every snapshot that sees it.
//!
//! Conversions between representations follow MySQL's rules and live in
//! [`convert`](super::convert); comparison lives in [`compare`](super::compare).

use bigdecimal::BigDecimal;
use std::sync::Arc;

/// Immutable shared bytes: character data (utf8mb4) or binary data.
pub type Str = Arc<[u8]>;

/// A stored row: one value per column, in table column order.
pub type Row = Arc<[Value]>;

#[derive(Clone, Debug, Default)]
pub enum Value {
    #[default]
    Null,
    Int(i64),
    UInt(u64),
    /// FLOAT columns keep single precision so they print as MySQL prints them.
    Float(f32),
    Double(f64),
    Decimal(Box<BigDecimal>),
    Bytes(Str),
    /// DATE (time fields zero).
    Date(DateTime),
    /// DATETIME and TIMESTAMP.
    DateTime(DateTime),
    /// TIME: a signed duration.
    Time(Time),
}

/// A calendar date and time of day with microseconds. Field order makes the derived
/// `Ord` chronological. MySQL's zero date (`0000-00-00`) is all zeros.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    pub year: u16,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub micro: u32,
}

impl DateTime {
    pub const ZERO: DateTime = DateTime {
        year: 0,
        month: 0,
        day: 0,
        hour: 0,
        minute: 0,
        second: 0,
        micro: 0,
    };

    pub fn date(year: u16, month: u8, day: u8) -> DateTime {
        DateTime {
            year,
            month,
            day,
            ..DateTime::ZERO
        }
    }

    pub fn is_zero(&self) -> bool {
        *self == DateTime::ZERO
    }

    /// The date part only (time fields zeroed).
    pub fn date_part(&self) -> DateTime {
        DateTime {
            year: self.year,
            month: self.month,
            day: self.day,
            ..DateTime::ZERO
        }
    }
}

/// A TIME value: a signed duration in microseconds (MySQL's range is ±838:59:59.000000).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    pub micros: i64,
}

impl Time {
    pub const MAX_MICROS: i64 = (838 * 3600 + 59 * 60 + 59) * 1_000_000;
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn str(s: &str) -> Value {
        Value::Bytes(Arc::from(s.as_bytes()))
    }

    pub fn bytes(b: &[u8]) -> Value {
        Value::Bytes(Arc::from(b))
    }

    pub fn from_string(s: String) -> Value {
        Value::Bytes(Arc::from(s.into_bytes().into_boxed_slice()))
    }

    pub fn from_vec(v: Vec<u8>) -> Value {
        Value::Bytes(Arc::from(v.into_boxed_slice()))
    }

    pub fn decimal(d: BigDecimal) -> Value {
        Value::Decimal(Box::new(d))
    }

    /// The bytes of a string value, if it is one.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    pub fn bool(b: bool) -> Value {
        Value::Int(b as i64)
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<u64> for Value {
    fn from(v: u64) -> Value {
        Value::UInt(v)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Double(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::str(v)
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::from_string(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map(Into::into).unwrap_or(Value::Null)
    }
}

/// The bytes a quoted SQL literal escapes: `\`, `'`, NUL, ^Z.
pub(crate) const ESCAPED: crate::bytes::ByteSet = crate::bytes::ByteSet {
    below: i8::MIN,
    any: [b'\\', b'\'', 0, 0x1A],
};

/// Appends `s` as a single-quoted SQL string literal, escaped as QUOTE() does (`\\`, `\'`,
/// `\0`, `\Z`).
pub fn push_quoted(s: &[u8], out: &mut Vec<u8>) {
    out.reserve(s.len() + 2);
    out.push(b'\'');
    let mut rest = s;
    // Runs that need no escape are copied whole.
    while let Some(i) = ESCAPED.first_in(rest) {
        out.extend_from_slice(rest.get(..i).unwrap_or_default());
        out.extend_from_slice(match rest.get(i) {
            Some(b'\\') => b"\\\\",
            Some(b'\'') => b"\\'",
            Some(0) => b"\\0",
            _ => b"\\Z",
        });
        rest = rest.get(i + 1..).unwrap_or_default();
    }
    out.extend_from_slice(rest);
    out.push(b'\'');
}

/// Appends `v` as an SQL literal: numbers as they print, NULL, and strings and temporal
/// values quoted (for the query logs' view of a prepared statement's parameters).
pub fn push_literal(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.extend_from_slice(b"NULL"),
        Value::Bytes(b) => push_quoted(b, out),
        // Integers straight to their digits: `to_text` would give the same for a typeless
        // value, after its dispatch on the type (a logged execution's parameters, often).
        Value::Int(i) => super::convert::write_i64(*i, out),
        Value::UInt(u) => super::convert::write_u64(*u, out),
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => {
            let mut t = Vec::new();
            super::convert::to_text(v, &super::types::SqlType::Null, &mut t);
            push_quoted(&t, out);
        }
        v => super::convert::to_text(v, &super::types::SqlType::Null, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_is_small() {
        // Rows hold many values: keep the enum at three words.
        assert!(
            std::mem::size_of::<Value>() <= 24,
            "{}",
            std::mem::size_of::<Value>()
        );
    }

    #[test]
    fn literals_are_quoted_and_escaped_as_quote_does() {
        let lit = |v: Value| {
            let mut out = Vec::new();
            push_literal(&v, &mut out);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(lit(Value::Int(-42)), "-42");
        assert_eq!(lit(Value::UInt(u64::MAX)), "18446744073709551615");
        assert_eq!(lit(Value::Null), "NULL");
        assert_eq!(lit(Value::Bytes(Arc::from(&b""[..]))), "''");
        assert_eq!(
            lit(Value::Bytes(Arc::from(&b"it's a \\ \0 \x1a end"[..]))),
            "'it\\'s a \\\\ \\0 \\Z end'"
        );
        assert_eq!(lit(Value::Bytes(Arc::from(&b"''"[..]))), "'\\'\\''");
    }

    #[test]
    fn datetime_orders_chronologically() {
        let a = DateTime {
            year: 2020,
            month: 1,
            day: 31,
            hour: 23,
            ..DateTime::ZERO
        };
        let b = DateTime::date(2020, 2, 1);
        assert!(a < b);
        assert!(DateTime::ZERO < b);
    }
}
