//! Memcomparable index keys: values encoded so that comparing the bytes with `memcmp`
//! orders and equates them exactly as [`compare`](crate::sql::compare::compare) does.
//!
//! Indexes are ordered maps from key bytes to rows. A key is the concatenation of one
//! *encoded column* per key part; each encoding is self-delimiting (fixed width, or
//! terminated), so the byte order of a composite key is the column-by-column order, and a
//! key prefix (the first n columns) is a byte prefix of every key that starts with those
//! values. Encodings are by column type and assume the value was coerced to that type by
//! [`store`](crate::sql::convert::store) (an out-of-range integer is clamped, a value of
//! another representation is converted first).
//!
//! The format is not persisted: checkpoints store rows, and indexes are rebuilt on load.
//! It can change freely between versions.
//!
//! ## Format
//!
//! Every column starts with a marker: `00` for NULL (nothing follows: NULL sorts first, as
//! in MySQL indexes) and `01` for a value, followed by:
//!
//! | type | encoding |
//! |---|---|
//! | TINYINT…BIGINT, BOOL | big endian in the type's width (1, 2, 3, 4, 8 bytes); signed types with the sign bit flipped (value − min) |
//! | YEAR | 2 bytes big endian |
//! | BIT(n) | ⌈n/8⌉ bytes big endian |
//! | FLOAT, DOUBLE | the double's bits, big endian: sign bit set for ≥ 0, all bits inverted for < 0; −0 is encoded as 0 |
//! | DECIMAL | order-preserving decimal, below |
//! | strings, ENUM, SET, JSON | the collation weight key ([`collation::weight_key`]): self-delimiting, `memcmp`-ordered, equal for `'a'`/`'A '` under `_ci` PAD SPACE collations; `binary` for BINARY/VARBINARY/BLOB. ENUM/SET keys follow their *string* order, as `compare` does (MySQL orders ENUM indexes by member number; an executor that wants that order must sort by index itself) |
//! | DATE | year (2 bytes), month, day |
//! | DATETIME, TIMESTAMP | year (2), month, day, hour, minute, second, microsecond (3) |
//! | TIME | microseconds + 2⁴⁷ as 6 bytes big endian |
//!
//! **Decimals.** A decimal is `±0.d₁d₂…dₙ × 10^e` with d₁ ≠ 0 and no trailing zeros
//! (normalised, so 1.5 and 1.50 encode the same). Encoding: a sign byte (`40` negative,
//! `80` zero — nothing follows — `C0` positive); the exponent `e` as a 16-bit two's
//! complement number with the top bit flipped, big endian; the digits in pairs, each pair
//! `10·a + b` stored as one byte `pair + 1` (1…100; a lone last digit `a` is `10·a + 1`);
//! a terminator `00`. A bigger exponent is a bigger magnitude; with equal exponents the
//! digit bytes decide, and a shorter digit string (a prefix) is smaller because `00` sorts
//! below every pair byte. Negative numbers invert every byte after the sign byte (their
//! terminator becomes `FF`), so bigger magnitudes sort first. Worked examples:
//!
//! ```text
//!  123.45  = +0.12345 × 10^3 → 01 C0 80 03 0D 23 33 00
//!                               │  │  └─┬─┘ │  │  │  └ end
//!                               │  │    │   12 34 5(0)  (+1 each)
//!                               │  │    e = 3 (0x0003 ^ 0x8000)
//!                               │  positive
//!                               not NULL
//! -123.45                    → 01 40 7F FC F2 DC CC FF
//!    0.05  = +0.5 × 10^-1    → 01 C0 7F FF 33 00
//!    0                       → 01 80
//! ```
//!
//! Exponents beyond ±32767 are clamped (no DECIMAL comes near: at most 65 digits).
//!
//! **Strings.** See the weight key format in `sql/collation.rs`: tokens per character,
//! a `00` terminator for NO PAD collations (so `'a' < 'ab'`: a prefix sorts first) and a
//! run/end encoding of spaces for PAD SPACE collations.
//!
//! ## Range scans
//!
//! [`prefix_successor`] gives the smallest key greater than every key starting with a given
//! prefix, so `[prefix, successor)` is a prefix scan.

use crate::error::Diagnostics;
use crate::sql::collation;
use crate::sql::convert;
use crate::sql::types::{Collation, SqlType};
use crate::sql::value::{DateTime, Value};
use bigdecimal::BigDecimal;
use bigdecimal::num_bigint::Sign;

/// Marker of a NULL key column.
pub const NULL: u8 = 0x00;
/// Marker of a non-NULL key column.
pub const NOT_NULL: u8 = 0x01;

const DEC_NEGATIVE: u8 = 0x40;
const DEC_ZERO: u8 = 0x80;
const DEC_POSITIVE: u8 = 0xC0;
const TIME_BIAS: i64 = 1 << 47;

/// Appends the encoding of one key column `v` of type `ty`.
pub fn encode(v: &Value, ty: &SqlType, out: &mut Vec<u8>) {
    if v.is_null() {
        out.push(NULL);
        return;
    }
    out.push(NOT_NULL);
    match ty {
        SqlType::Int {
            width, unsigned, ..
        } => encode_int(v, width.bytes() as usize, *unsigned, out),
        SqlType::Bool => encode_int(v, 1, false, out),
        SqlType::Year => encode_int(v, 2, true, out),
        SqlType::Bit { len } => encode_int(v, (*len as usize).div_ceil(8).clamp(1, 8), true, out),
        SqlType::Float { .. } | SqlType::Double { .. } => {
            let x = match v {
                Value::Double(d) => *d,
                Value::Float(f) => *f as f64,
                other => convert::to_f64(other, &mut Diagnostics::default()).unwrap_or(0.0),
            };
            encode_f64(x, out);
        }
        SqlType::Decimal { .. } => match v {
            Value::Decimal(d) => encode_decimal(d, out),
            other => {
                let d = convert::to_decimal(other, &mut Diagnostics::default()).unwrap_or_default();
                encode_decimal(&d, out);
            }
        },
        SqlType::Date => {
            let d = as_datetime(v);
            out.extend_from_slice(&d.year.to_be_bytes());
            out.push(d.month);
            out.push(d.day);
        }
        SqlType::DateTime { .. } | SqlType::Timestamp { .. } => {
            push_datetime_fields(&as_datetime(v), out)
        }
        SqlType::Time { .. } => {
            let t = match v {
                Value::Time(t) => *t,
                other => convert::to_time(other, &mut Diagnostics::default()).unwrap_or_default(),
            };
            let biased = (t.micros.clamp(-TIME_BIAS, TIME_BIAS - 1) + TIME_BIAS) as u64;
            out.extend_from_slice(&biased.to_be_bytes()[2..]);
        }
        SqlType::Null => collation::weight_key(&convert::to_bytes(v), Collation::Binary, out),
        // Strings, ENUM, SET, JSON, binary strings.
        _ => collation::weight_key(&convert::to_bytes(v), ty.collation(), out),
    }
}

/// Appends the encoding of a prefix key part (`KEY (c(n))`): string values keep only their
/// first `prefix_len` characters (bytes for BINARY/VARBINARY/BLOB), as MySQL's prefix
/// indexes do; values of other types are encoded whole.
pub fn encode_prefix(v: &Value, ty: &SqlType, prefix_len: usize, out: &mut Vec<u8>) {
    let Value::Bytes(b) = v else {
        return encode(v, ty, out);
    };
    let prefix = match ty {
        SqlType::Binary { .. } | SqlType::VarBinary { .. } | SqlType::Blob { .. } => {
            b.get(..prefix_len).unwrap_or(b)
        }
        _ if ty.is_string() => collation::truncate_chars(b, prefix_len),
        _ => return encode(v, ty, out),
    };
    out.push(NOT_NULL);
    collation::weight_key(prefix, ty.collation(), out);
}

/// Appends the encodings of a composite key, column by column (`values` and `types` pair
/// up; extra entries of the longer slice are ignored).
pub fn encode_key(values: &[Value], types: &[&SqlType], out: &mut Vec<u8>) {
    debug_assert_eq!(
        values.len(),
        types.len(),
        "key values and types must pair up"
    );
    for (v, ty) in values.iter().zip(types) {
        encode(v, ty, out);
    }
}

/// The smallest key greater than every key that starts with `key` (for prefix range
/// scans): drop trailing `FF` bytes and increment the last byte. `None` when there is no
/// such key (empty, or all `FF`): scan to the end.
pub fn prefix_successor(key: &[u8]) -> Option<Vec<u8>> {
    let end = key.iter().rposition(|&b| b != 0xFF)?;
    let mut next = key[..=end].to_vec();
    next[end] += 1;
    Some(next)
}

fn as_datetime(v: &Value) -> DateTime {
    match v {
        Value::Date(d) | Value::DateTime(d) => *d,
        other => convert::to_datetime(other, &mut Diagnostics::default()).unwrap_or_default(),
    }
}

/// The 10 fixed bytes of a DATETIME: year (2), month, day, hour, minute, second,
/// microsecond (3).
pub fn push_datetime_fields(d: &DateTime, out: &mut Vec<u8>) {
    out.extend_from_slice(&d.year.to_be_bytes());
    out.extend_from_slice(&[d.month, d.day, d.hour, d.minute, d.second]);
    out.extend_from_slice(&d.micro.min(0xFF_FFFF).to_be_bytes()[1..]);
}

fn encode_int(v: &Value, bytes: usize, unsigned: bool, out: &mut Vec<u8>) {
    let bits = (bytes * 8) as u32;
    let x: i128 = match v {
        Value::Int(i) => *i as i128,
        Value::UInt(u) => *u as i128,
        other => {
            let mut diag = Diagnostics::default();
            if unsigned {
                convert::to_u64(other, &mut diag).unwrap_or(0) as i128
            } else {
                convert::to_i64(other, &mut diag).unwrap_or(0) as i128
            }
        }
    };
    let biased: u64 = if unsigned {
        let max = if bits >= 64 {
            u64::MAX as i128
        } else {
            (1i128 << bits) - 1
        };
        x.clamp(0, max) as u64
    } else {
        let half = 1i128 << (bits - 1);
        (x.clamp(-half, half - 1) + half) as u64
    };
    out.extend_from_slice(&biased.to_be_bytes()[8 - bytes..]);
}

/// Appends the order-preserving 8 bytes of a double.
pub fn encode_f64(x: f64, out: &mut Vec<u8>) {
    let x = if x == 0.0 { 0.0 } else { x };
    let bits = x.to_bits();
    let key = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    out.extend_from_slice(&key.to_be_bytes());
}

/// Appends a decimal in the order-preserving decimal format (see the module doc).
pub fn encode_decimal(d: &BigDecimal, out: &mut Vec<u8>) {
    let (int, scale) = d.as_bigint_and_scale();
    let negative = int.sign() == Sign::Minus;
    let text = int.magnitude().to_string();
    let digits = text.as_bytes();
    encode_decimal_parts(negative, digits, digits.len() as i64 - scale, out);
}

/// Appends ±0.`digits` × 10^`decpt` in the order-preserving decimal format. `digits` are
/// ASCII; leading and trailing zeros are skipped, so any spelling of a value encodes the
/// same. No digits (or only zeros) is zero, whatever the sign.
pub fn encode_decimal_parts(negative: bool, digits: &[u8], decpt: i64, out: &mut Vec<u8>) {
    let lead = digits
        .iter()
        .position(|&c| c != b'0')
        .unwrap_or(digits.len());
    let end = digits
        .iter()
        .rposition(|&c| c != b'0')
        .map_or(lead, |k| k + 1);
    let digits = &digits[lead..end];
    if digits.is_empty() {
        out.push(DEC_ZERO);
        return;
    }
    let exp = (decpt - lead as i64).clamp(i16::MIN as i64, i16::MAX as i64) as i16;
    let inv: u8 = if negative { 0xFF } else { 0x00 };
    let e = ((exp as u16) ^ 0x8000).to_be_bytes();
    out.reserve(digits.len() / 2 + 5);
    out.extend_from_slice(&[
        if negative { DEC_NEGATIVE } else { DEC_POSITIVE },
        e[0] ^ inv,
        e[1] ^ inv,
    ]);
    let digit = |c: u8| c.wrapping_sub(b'0').min(9);
    out.extend(digits.chunks(2).map(|pair| {
        let lo = if pair.len() > 1 { digit(pair[1]) } else { 0 };
        (digit(pair[0]) * 10 + lo + 1) ^ inv
    }));
    out.push(inv);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::compare::compare;
    use crate::sql::types::{BlobSize, IntWidth};
    use crate::sql::value::Time;
    use std::cmp::Ordering;

    fn key(v: &Value, ty: &SqlType) -> Vec<u8> {
        let mut out = Vec::new();
        encode(v, ty, &mut out);
        out
    }

    fn dec(s: &str) -> Value {
        Value::decimal(s.parse().unwrap())
    }

    #[test]
    fn worked_examples() {
        let ty = SqlType::Decimal {
            precision: 10,
            scale: 2,
            unsigned: false,
        };
        assert_eq!(
            key(&dec("123.45"), &ty),
            [0x01, 0xC0, 0x80, 0x03, 0x0D, 0x23, 0x33, 0x00]
        );
        assert_eq!(
            key(&dec("-123.45"), &ty),
            [0x01, 0x40, 0x7F, 0xFC, 0xF2, 0xDC, 0xCC, 0xFF]
        );
        assert_eq!(key(&dec("0.05"), &ty), [0x01, 0xC0, 0x7F, 0xFF, 0x33, 0x00]);
        assert_eq!(key(&dec("0.00"), &ty), [0x01, 0x80]);
        assert_eq!(key(&dec("1.50"), &ty), key(&dec("1.5"), &ty));
        assert_eq!(key(&Value::Null, &ty), [0x00]);
        assert_eq!(
            key(&Value::Int(-1), &SqlType::INT),
            [0x01, 0x7F, 0xFF, 0xFF, 0xFF]
        );
        assert_eq!(
            key(&Value::Int(0), &SqlType::BIGINT),
            [0x01, 0x80, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            key(&Value::Double(-0.0), &SqlType::DOUBLE),
            key(&Value::Double(0.0), &SqlType::DOUBLE)
        );
    }

    #[test]
    fn prefix_key_parts() {
        let ty = SqlType::varchar(20);
        let k = |v: &str, n| {
            let mut out = Vec::new();
            encode_prefix(&Value::str(v), &ty, n, &mut out);
            out
        };
        assert_eq!(k("abcdef", 3), key(&Value::str("abc"), &ty));
        assert_eq!(k("ABCxyz", 3), k("abcdef", 3));
        assert_eq!(k("éé😀x", 3), key(&Value::str("éé😀"), &ty));
        assert_eq!(k("ab", 3), key(&Value::str("ab"), &ty));
        let blob = SqlType::Blob {
            size: BlobSize::Normal,
        };
        let mut out = Vec::new();
        encode_prefix(&Value::str("é"), &blob, 1, &mut out);
        assert_eq!(out, key(&Value::bytes(b"\xc3"), &blob));
        let mut out = Vec::new();
        encode_prefix(&Value::Int(5), &SqlType::INT, 1, &mut out);
        assert_eq!(out, key(&Value::Int(5), &SqlType::INT));
    }

    #[test]
    fn successor() {
        assert_eq!(prefix_successor(b"\x01\x02"), Some(b"\x01\x03".to_vec()));
        assert_eq!(prefix_successor(b"\x01\xff\xff"), Some(b"\x02".to_vec()));
        assert_eq!(prefix_successor(b"\xff\xff"), None);
        assert_eq!(prefix_successor(b""), None);
        // Every key starting with the prefix is below the successor.
        let ty = SqlType::varchar(10);
        let mut prefix = Vec::new();
        encode(&Value::Int(7), &SqlType::INT, &mut prefix);
        let succ = prefix_successor(&prefix).unwrap();
        for s in ["", "a", "zzzz", "\u{10FFFF}"] {
            let mut k = prefix.clone();
            encode(&Value::str(s), &ty, &mut k);
            assert!(k.as_slice() < succ.as_slice() && k.starts_with(&prefix));
        }
    }

    /// A small xorshift generator for the property test.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }

        fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
            &items[self.below(items.len() as u64) as usize]
        }
    }

    /// A random value for `ty`, coerced by `store` (non-strict) as a column would hold it.
    fn random_value(rng: &mut Rng, ty: &SqlType) -> Value {
        if rng.below(12) == 0 {
            return Value::Null;
        }
        let raw = match ty {
            SqlType::Int { .. } | SqlType::Bool | SqlType::Year | SqlType::Bit { .. } => {
                match rng.below(4) {
                    0 => Value::Int(rng.below(7) as i64 - 3),
                    1 => Value::Int(rng.next() as i64),
                    2 => Value::UInt(rng.next()),
                    _ => Value::Int((rng.next() % 200_000) as i64 - 100_000),
                }
            }
            SqlType::Decimal { .. } => {
                let digits = rng.below(12) as usize;
                let mut s = String::new();
                if rng.below(2) == 0 {
                    s.push('-');
                }
                for _ in 0..digits.max(1) {
                    s.push((b'0' + rng.below(10) as u8) as char);
                }
                let point = rng.below(digits as u64 + 1) as usize;
                s.insert(s.len() - point.min(s.len().saturating_sub(1)), '.');
                Value::str(&s)
            }
            SqlType::Float { .. } | SqlType::Double { .. } => match rng.below(4) {
                0 => Value::Double(f64::from_bits(rng.next()) % 1e300),
                1 => Value::Double(rng.below(21) as f64 / 4.0 - 2.5),
                2 => Value::Double(-0.0),
                _ => Value::Double((rng.next() as i64 >> 20) as f64 * 1e-3),
            },
            SqlType::Date | SqlType::DateTime { .. } | SqlType::Timestamp { .. } => {
                Value::DateTime(DateTime {
                    year: *rng.pick(&[0u16, 1, 1970, 1999, 2000, 2020, 9999]),
                    month: rng.below(13) as u8,
                    day: rng.below(29) as u8,
                    hour: rng.below(24) as u8,
                    minute: rng.below(60) as u8,
                    second: rng.below(60) as u8,
                    micro: *rng.pick(&[0u32, 1, 500_000, 999_999, 123_456]),
                })
            }
            SqlType::Time { .. } => Value::Time(Time {
                micros: (rng.next() as i64) % (Time::MAX_MICROS + 1),
            }),
            SqlType::Enum { values, .. } | SqlType::Set { values, .. } => {
                Value::str(rng.pick(values.as_slice()).as_str())
            }
            _ => {
                let alphabet = [
                    "a", "A", "b", " ", "\t", "é", "E", "ß", "s", "😀", "\u{0}", "z", "\u{ff}",
                ];
                let n = rng.below(5);
                let s: String = (0..n).map(|_| *rng.pick(&alphabet)).collect();
                if matches!(
                    ty,
                    SqlType::Binary { .. } | SqlType::VarBinary { .. } | SqlType::Blob { .. }
                ) && rng.below(3) == 0
                {
                    Value::bytes(&[0xFF, 0x00, 0xFE][..rng.below(4) as usize])
                } else {
                    Value::str(&s)
                }
            }
        };
        let mut diag = Diagnostics::default();
        convert::store(raw, ty, "c", 1, false, &mut diag).unwrap_or(Value::Null)
    }

    fn types() -> Vec<SqlType> {
        let int = |width, unsigned| SqlType::Int {
            width,
            unsigned,
            zerofill: false,
            display: None,
        };
        let mut v = vec![
            int(IntWidth::Tiny, false),
            int(IntWidth::Small, true),
            int(IntWidth::Medium, false),
            int(IntWidth::Int, false),
            int(IntWidth::Big, false),
            int(IntWidth::Big, true),
            SqlType::Bool,
            SqlType::Year,
            SqlType::Bit { len: 10 },
            SqlType::Decimal {
                precision: 12,
                scale: 4,
                unsigned: false,
            },
            SqlType::Decimal {
                precision: 65,
                scale: 30,
                unsigned: false,
            },
            SqlType::Float { unsigned: false },
            SqlType::Double { unsigned: false },
            SqlType::Date,
            SqlType::DateTime { fsp: 6 },
            SqlType::Timestamp { fsp: 0 },
            SqlType::Time { fsp: 3 },
            SqlType::Binary { len: 3 },
            SqlType::VarBinary { len: 8 },
            SqlType::Blob {
                size: BlobSize::Tiny,
            },
            SqlType::Json,
            SqlType::Enum {
                values: vec!["b".into(), "a".into(), "C".into()],
                collation: Collation::Utf8mb4GeneralCi,
            },
        ];
        for collation in Collation::ALL {
            v.push(SqlType::VarChar { len: 6, collation });
            v.push(SqlType::Char { len: 4, collation });
        }
        v
    }

    #[test]
    fn property_memcmp_matches_compare() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut seen = [0usize; 3];
        for ty in types() {
            let coll = ty.collation();
            for _ in 0..400 {
                let (a, b) = (random_value(&mut rng, &ty), random_value(&mut rng, &ty));
                let (ka, kb) = (key(&a, &ty), key(&b, &ty));
                let expected = match (a.is_null(), b.is_null()) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    _ => compare(&a, &b, coll).unwrap(),
                };
                assert_eq!(
                    ka.cmp(&kb),
                    expected,
                    "{ty:?}: {a:?} vs {b:?}\n{ka:02x?}\n{kb:02x?}"
                );
                seen[(expected as i8 + 1) as usize] += 1;
            }
        }
        // The generator produces all three outcomes in quantity (not just NULLs or ties).
        assert!(seen.iter().all(|&n| n > 2000), "{seen:?}");
    }

    #[test]
    fn composite_keys_order_column_by_column() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let t1 = SqlType::varchar(4);
        let t2 = SqlType::INT;
        let t3 = SqlType::Decimal {
            precision: 8,
            scale: 2,
            unsigned: false,
        };
        let types = [&t1, &t2, &t3];
        for _ in 0..2000 {
            let a: Vec<Value> = types.iter().map(|t| random_value(&mut rng, t)).collect();
            let b: Vec<Value> = types.iter().map(|t| random_value(&mut rng, t)).collect();
            let (mut ka, mut kb) = (Vec::new(), Vec::new());
            encode_key(&a, &types, &mut ka);
            encode_key(&b, &types, &mut kb);
            let mut expected = Ordering::Equal;
            for (i, ty) in types.iter().enumerate() {
                let o = match (a[i].is_null(), b[i].is_null()) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    _ => compare(&a[i], &b[i], ty.collation()).unwrap(),
                };
                if o != Ordering::Equal {
                    expected = o;
                    break;
                }
            }
            assert_eq!(ka.cmp(&kb), expected, "{a:?} {b:?}");
            // A key prefix (first column) is a byte prefix.
            let mut p = Vec::new();
            encode(&a[0], &t1, &mut p);
            assert!(ka.starts_with(&p));
        }
    }
}
