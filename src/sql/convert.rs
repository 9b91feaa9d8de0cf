//! Value conversions: text output, MySQL's implicit conversions, and coercion on write.
//!
//! Three jobs, all following MySQL 8.0:
//!
//! 1. **Printing** ([`to_text`]): the text-protocol form of a value of a column/expression
//!    type — what the `mysql` client shows. Integers in decimal (ZEROFILL pads to the display
//!    width), FLOAT/DOUBLE as MySQL's `my_gcvt` prints them (see [`write_double`]), DECIMAL
//!    with exactly the type's scale, temporals as `YYYY-MM-DD[ HH:MM:SS[.ffffff]]` /
//!    `[-]HH:MM:SS[.fff]` with the type's fractional digits, YEAR as four digits, BIT as its
//!    raw big-endian bytes (as MySQL sends it), strings raw.
//! 2. **Implicit conversion** ([`to_i64`], [`to_f64`], [`to_decimal`], [`to_bool`],
//!    [`to_datetime`], …): what an expression needs when it reads a value as another type.
//!    Strings convert by their longest numeric prefix with MySQL's 1292 warnings
//!    (`Truncated incorrect DOUBLE value: '12abc'`). NULL in, `None` out.
//! 3. **Coercion on write** ([`store`]): INSERT/UPDATE of a value into a column, with or
//!    without strict mode, yielding the column's canonical representation and MySQL's
//!    warnings/errors (1264, 1265, 1292, 1366, 1406, 3140).
//!
//! ## MySQL rules worth knowing (checked against MariaDB 10.11 where the two agree)
//!
//! - String → integer in expressions (`CAST('1e3' AS SIGNED)`, `to_i64`) reads only the
//!   integer prefix: `'12abc'` → 12, `'1e3'` → 1, `'2.5'` → 2, each with warning 1292
//!   `Truncated incorrect INTEGER value`. String → integer *column* (`store`) reads the whole
//!   number and rounds: `'1e3'` → 1000, `'2.5'` → 3 (no warning in MySQL 8.0; MariaDB adds a
//!   Note), `'12abc'` → 12 with 1265, `'abc'` → 0 with 1366.
//! - Double → integer rounds half to even (C `rint`): 2.5 → 2, 3.5 → 4. Decimal → integer
//!   rounds half away from zero: 2.5 → 3. Double → decimal goes through the shortest
//!   round-trip digits (1.005e0 → 1.005 → 1.01 in DECIMAL(5,2)).
//! - Fractional seconds are rounded to the column's precision (MySQL 8; MariaDB truncates).
//! - Zero dates and zero parts are accepted by `store`; `NO_ZERO_DATE`/`NO_ZERO_IN_DATE`
//!   belong to the caller. TIMESTAMP's 1970–2038 range depends on the session time zone and
//!   is checked by the caller too.
//!
//! Parts: this file (printing, reading numbers from strings, implicit conversions),
//! `convert/store.rs` (coercion on write, rule by rule) and `convert/json.rs` (the JSON
//! text validator behind JSON columns).
//!
//! Never: panic on any value or byte string (everything a client sends passes through
//! here), allocate when printing integers or strings or converting between numeric
//! representations (DECIMAL paths allocate: `BigDecimal` is rare on hot paths), or build a
//! number from more digits than MySQL could use (a string of a million digits costs a scan,
//! not a bignum: at most 100 significant digits are kept, and exponents beyond ±80 saturate
//! before any `BigDecimal` is made).

use super::temporal;
use super::types::SqlType;
use super::value::{DateTime, Time, Value};
use crate::error::{Diagnostics, code};
use bigdecimal::num_bigint::{BigInt, Sign};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use std::borrow::Cow;
use std::str::FromStr;

mod json;
mod store;

pub use json::validate_json;
pub use store::store;

// ---------------------------------------------------------------------------------------
// Number formatting.

/// Appends the decimal digits of `v`.
#[inline]
pub fn write_u64(v: u64, out: &mut Vec<u8>) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

#[inline]
pub fn write_i64(v: i64, out: &mut Vec<u8>) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(v.unsigned_abs(), out);
}

/// The decimal digits of a float: value = 0.d₁d₂…dₙ × 10^`decpt`, d₁ ≠ 0 (zero: one
/// digit `0`, decpt 1), no trailing zeros.
#[derive(Clone, Copy, Debug)]
pub struct FloatDigits {
    pub negative: bool,
    buf: [u8; 24],
    len: u8,
    pub decpt: i32,
}

impl FloatDigits {
    pub fn digits(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }

    pub fn is_zero(&self) -> bool {
        self.digits() == b"0"
    }

    /// Shortest digits that read back as `x` (what MySQL's `dtoa` mode 0 gives).
    pub fn shortest(x: f64) -> FloatDigits {
        Self::from_exp_format(x, None)
    }

    /// At most `precision` significant digits, correctly rounded (dtoa mode 2).
    pub fn with_precision(x: f64, precision: usize) -> FloatDigits {
        Self::from_exp_format(x, Some(precision.clamp(1, 17)))
    }

    fn from_exp_format(x: f64, precision: Option<usize>) -> FloatDigits {
        use std::io::Write;
        let mut text = [0u8; 40];
        let mut cursor = &mut text[..];
        let a = if x.is_finite() { x.abs() } else { 0.0 };
        let written = match precision {
            None => write!(cursor, "{a:e}"),
            Some(p) => write!(cursor, "{a:.*e}", p - 1),
        };
        let used = 40 - cursor.len();
        let text = if written.is_ok() {
            &text[..used]
        } else {
            &b"0e0"[..]
        };
        let mut fd = FloatDigits {
            negative: x.is_sign_negative() && x.is_finite(),
            buf: [0; 24],
            len: 0,
            decpt: 1,
        };
        let mut exp: i32 = 0;
        let mut exp_negative = false;
        let mut in_exp = false;
        for &c in text {
            match c {
                b'e' => in_exp = true,
                b'-' if in_exp => exp_negative = true,
                b'0'..=b'9' if in_exp => exp = exp * 10 + (c - b'0') as i32,
                b'0'..=b'9' if (fd.len as usize) < fd.buf.len() => {
                    fd.buf[fd.len as usize] = c;
                    fd.len += 1;
                }
                _ => {}
            }
        }
        while fd.len > 1 && fd.buf[fd.len as usize - 1] == b'0' {
            fd.len -= 1;
        }
        if fd.len == 0 {
            fd.buf[0] = b'0';
            fd.len = 1;
        }
        if fd.digits() == b"0" {
            fd.decpt = 1;
        } else {
            fd.decpt = if exp_negative { -exp } else { exp } + 1;
        }
        fd
    }

    /// MySQL's `my_gcvt` layout with a wide field: fixed notation unless the exponent is
    /// below -14 or the number is an integer of more than 15 digits; exponent notation is
    /// `d.ddde-N` / `deN` with no `+` and no zero padding.
    pub fn write(&self, out: &mut Vec<u8>) {
        const MAX_DECPT_FOR_F_FORMAT: i32 = 15;
        let digits = self.digits();
        let len = digits.len() as i32;
        let decpt = self.decpt;
        if self.negative {
            out.push(b'-');
        }
        if decpt > -MAX_DECPT_FOR_F_FORMAT && (decpt <= MAX_DECPT_FOR_F_FORMAT || len > decpt) {
            if decpt <= 0 {
                out.extend_from_slice(b"0.");
                out.extend(std::iter::repeat_n(b'0', (-decpt) as usize));
                out.extend_from_slice(digits);
            } else if decpt < len {
                out.extend_from_slice(&digits[..decpt as usize]);
                out.push(b'.');
                out.extend_from_slice(&digits[decpt as usize..]);
            } else {
                out.extend_from_slice(digits);
                out.extend(std::iter::repeat_n(b'0', (decpt - len) as usize));
            }
        } else {
            out.push(digits[0]);
            if len > 1 {
                out.push(b'.');
                out.extend_from_slice(&digits[1..]);
            }
            out.push(b'e');
            let e = decpt - 1;
            if e < 0 {
                out.push(b'-');
            }
            write_u64(e.unsigned_abs() as u64, out);
        }
    }
}

/// A DOUBLE as MySQL prints it: shortest round-trip digits, `0.1`, `3`, `-0`, `1e15`,
/// `1.2345678901234568e17`, `0.00001`, `1e-15`… (infinities and NaN, which MySQL never
/// stores, print as `0`, as `my_gcvt` does).
pub fn write_double(x: f64, out: &mut Vec<u8>) {
    FloatDigits::shortest(x).write(out);
}

/// A FLOAT as MySQL prints a FLOAT column: at most 6 significant digits (`FLT_DIG`),
/// `123456789` → `123457000`, `1.17549e-38`.
pub fn write_float(x: f32, out: &mut Vec<u8>) {
    FloatDigits::with_precision(x as f64, 6).write(out);
}

/// The digits and scale of a decimal: (negative, |unscaled| digits, scale).
fn decimal_digits(d: &BigDecimal) -> (bool, String, i64) {
    let (int, scale) = d.as_bigint_and_scale();
    let negative = int.sign() == Sign::Minus;
    (negative, int.magnitude().to_string(), scale)
}

/// Appends a decimal with exactly `scale` fractional digits (rounded half away from zero
/// if it has more), or its own scale when `scale` is `None`. Never exponent notation.
pub fn write_decimal(d: &BigDecimal, scale: Option<u8>, out: &mut Vec<u8>) {
    let rounded;
    let d = match scale {
        Some(s) if d.fractional_digit_count() > s as i64 => {
            rounded = d.with_scale_round(s as i64, RoundingMode::HalfUp);
            &rounded
        }
        _ => d,
    };
    let (negative, digits, own_scale) = decimal_digits(d);
    let digits = digits.as_bytes();
    let target = scale.map(|s| s as i64).unwrap_or(own_scale.max(0));
    let is_zero = digits.iter().all(|&c| c == b'0');
    if negative && !is_zero {
        out.push(b'-');
    }
    // value = digits × 10^-own_scale
    if own_scale <= 0 {
        out.extend_from_slice(digits);
        if !is_zero {
            out.extend(std::iter::repeat_n(b'0', (-own_scale).min(1000) as usize));
        }
        if target > 0 {
            out.push(b'.');
            out.extend(std::iter::repeat_n(b'0', target as usize));
        }
        return;
    }
    let own = own_scale as usize;
    if digits.len() > own {
        out.extend_from_slice(&digits[..digits.len() - own]);
    } else {
        out.push(b'0');
    }
    if target > 0 {
        out.push(b'.');
        if digits.len() < own {
            out.extend(std::iter::repeat_n(b'0', own - digits.len()));
            out.extend_from_slice(digits);
        } else {
            out.extend_from_slice(&digits[digits.len() - own..]);
        }
        if target as usize > own {
            out.extend(std::iter::repeat_n(b'0', target as usize - own));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Printing values.

/// Appends the text-protocol representation of `v` as a value of type `ty` (NULL appends
/// nothing: the wire layer encodes NULL itself). `ty` decides ZEROFILL, YEAR, BIT, DECIMAL
/// scale and temporal precision; when it is not a temporal type, temporal values print with
/// their natural precision (six fractional digits only if non-zero).
pub fn to_text(v: &Value, ty: &SqlType, out: &mut Vec<u8>) {
    match v {
        Value::Null => {}
        Value::Int(i) => int_text(*i as i128, ty, out),
        Value::UInt(u) => int_text(*u as i128, ty, out),
        Value::Float(f) => write_float(*f, out),
        Value::Double(d) => write_double(*d, out),
        Value::Decimal(d) => match ty {
            SqlType::Decimal { scale, .. } => write_decimal(d, Some(*scale), out),
            _ => write_decimal(d, None, out),
        },
        Value::Bytes(b) => out.extend_from_slice(b),
        Value::Date(d) | Value::DateTime(d) => match ty {
            SqlType::Date => temporal::write_date(d, out),
            SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } => {
                temporal::write_datetime(d, *fsp, out)
            }
            SqlType::Time { fsp } => temporal::write_time(temporal::time_of_day(d), *fsp, out),
            _ if matches!(v, Value::Date(_)) => temporal::write_date(d, out),
            _ => temporal::write_datetime(d, if d.micro != 0 { 6 } else { 0 }, out),
        },
        Value::Time(t) => match ty {
            SqlType::Time { fsp } => temporal::write_time(*t, *fsp, out),
            _ => temporal::write_time(*t, if t.micros % 1_000_000 != 0 { 6 } else { 0 }, out),
        },
    }
}

fn int_text(v: i128, ty: &SqlType, out: &mut Vec<u8>) {
    match ty {
        SqlType::Int {
            zerofill: true,
            width,
            unsigned,
            display,
        } => {
            // ZEROFILL implies UNSIGNED: no sign to place.
            let width = display.unwrap_or_else(|| width.display_width(*unsigned)) as usize;
            let v = v.clamp(0, u64::MAX as i128) as u64;
            out.extend(std::iter::repeat_n(
                b'0',
                width.saturating_sub(decimal_len(v)),
            ));
            write_u64(v, out);
        }
        SqlType::Year => {
            let y = v.clamp(0, 9999) as u64;
            out.extend(std::iter::repeat_n(b'0', 4 - decimal_len(y).min(4)));
            write_u64(y, out);
        }
        SqlType::Bit { len } => {
            let bytes = (*len as usize).div_ceil(8).clamp(1, 8);
            let be = (v as u64).to_be_bytes();
            out.extend_from_slice(&be[8 - bytes..]);
        }
        SqlType::Decimal { scale, .. } => {
            write_i128(v, out);
            if *scale > 0 {
                out.push(b'.');
                out.extend(std::iter::repeat_n(b'0', *scale as usize));
            }
        }
        _ => write_i128(v, out),
    }
}

fn write_i128(v: i128, out: &mut Vec<u8>) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(v.unsigned_abs().min(u64::MAX as u128) as u64, out);
}

fn decimal_len(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// The bytes of a value as a string: strings as they are, other values as [`to_text`]
/// prints them with their natural precision. NULL is empty.
pub fn to_bytes(v: &Value) -> Cow<'_, [u8]> {
    match v {
        Value::Bytes(b) => Cow::Borrowed(b),
        Value::Null => Cow::Borrowed(b""),
        other => {
            let mut out = Vec::with_capacity(24);
            to_text(other, &SqlType::Null, &mut out);
            Cow::Owned(out)
        }
    }
}

/// [`to_bytes`] as text, invalid UTF-8 replaced.
pub fn to_string_lossy(v: &Value) -> String {
    String::from_utf8_lossy(&to_bytes(v)).into_owned()
}

/// A value for an error message: MySQL quotes at most 128 characters.
fn quote_for_message(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    s.chars().take(128).collect()
}

// ---------------------------------------------------------------------------------------
// Reading numbers from strings.

/// The numeric prefix of a string as MySQL's `my_strtod` reads it:
/// `[spaces][+-]digits[.digits][e[+-]digits]`.
#[derive(Clone, Copy, Debug)]
struct NumScan {
    /// Byte range of the number, sign included (for `f64::from_str`).
    start: usize,
    end: usize,
    negative: bool,
    int: (usize, usize),
    frac: (usize, usize),
    /// The explicit exponent (saturated).
    exp: i64,
    has_digits: bool,
}

/// ASCII white space as MySQL's number parsers skip it.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

fn count_digits(s: &[u8], from: usize) -> usize {
    s.get(from..)
        .map(|t| t.iter().take_while(|b| b.is_ascii_digit()).count())
        .unwrap_or(0)
}

/// Skips an optional `-` or `+` at `s[*i]`; true for `-`.
pub(crate) fn skip_sign(s: &[u8], i: &mut usize) -> bool {
    match s.get(*i) {
        Some(b'-') => {
            *i += 1;
            true
        }
        Some(b'+') => {
            *i += 1;
            false
        }
        _ => false,
    }
}

fn scan_number(s: &[u8]) -> NumScan {
    let mut i = s.iter().position(|&b| !is_space(b)).unwrap_or(s.len());
    let start = i;
    let negative = skip_sign(s, &mut i);
    let int = (i, i + count_digits(s, i));
    i = int.1;
    let mut frac = (i, i);
    if s.get(i) == Some(&b'.') {
        let n = count_digits(s, i + 1);
        if n > 0 || int.1 > int.0 {
            frac = (i + 1, i + 1 + n);
            i = frac.1;
        }
    }
    let has_digits = int.1 > int.0 || frac.1 > frac.0;
    let mut exp: i64 = 0;
    if has_digits && matches!(s.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        let exp_negative = skip_sign(s, &mut j);
        let n = count_digits(s, j);
        if n > 0 {
            for &b in &s[j..j + n] {
                exp = exp.saturating_mul(10).saturating_add((b - b'0') as i64);
            }
            if exp_negative {
                exp = -exp;
            }
            i = j + n;
        }
    }
    NumScan {
        start,
        end: if has_digits { i } else { start },
        negative,
        int,
        frac,
        exp,
        has_digits,
    }
}

/// Whether anything but spaces follows the number.
fn has_garbage(s: &[u8], end: usize) -> bool {
    s.get(end..)
        .is_some_and(|t| t.iter().any(|&b| !is_space(b)))
}

/// Significant digits of a scanned number (at most `MAX_SIG` kept; later digits only
/// matter through the first dropped one, which is what half-up rounding looks at) and the
/// decimal point position: value = 0.d₁d₂… × 10^decpt.
const MAX_SIG: usize = 100;

struct SigDigits {
    buf: [u8; MAX_SIG + 1],
    len: usize,
    decpt: i64,
}

impl SigDigits {
    fn of(s: &[u8], n: &NumScan) -> SigDigits {
        let mut sd = SigDigits {
            buf: [0; MAX_SIG + 1],
            len: 0,
            decpt: 0,
        };
        let int = &s[n.int.0..n.int.1];
        let frac = &s[n.frac.0..n.frac.1];
        let mut seen_nonzero = false;
        let mut decpt: i64 = 0;
        for (k, &c) in int.iter().chain(frac.iter()).enumerate() {
            let in_int = k < int.len();
            if !seen_nonzero {
                if c == b'0' {
                    if !in_int {
                        decpt -= 1;
                    }
                    continue;
                }
                seen_nonzero = true;
            }
            if in_int {
                decpt += 1;
            }
            if sd.len < sd.buf.len() {
                sd.buf[sd.len] = c;
                sd.len += 1;
            }
        }
        while sd.len > 0 && sd.buf[sd.len - 1] == b'0' {
            sd.len -= 1;
        }
        sd.decpt = decpt.saturating_add(n.exp);
        sd
    }

    fn digits(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// The value rounded half away from zero to an integer; `None` if beyond ±2¹²⁷.
    fn round_to_int(&self, negative: bool) -> Option<i128> {
        let d = self.digits();
        if d.is_empty() || self.decpt < 0 {
            return Some(0);
        }
        if self.decpt > 39 {
            return None;
        }
        let mut v: i128 = 0;
        for k in 0..self.decpt as usize {
            let digit = d.get(k).map(|c| c - b'0').unwrap_or(0) as i128;
            v = v.checked_mul(10)?.checked_add(digit)?;
        }
        if d.get(self.decpt as usize).is_some_and(|&c| c >= b'5') {
            v = v.checked_add(1)?;
        }
        Some(if negative { -v } else { v })
    }

    /// The value as a decimal; `Err(())` if its magnitude is beyond 10^80 (no DECIMAL
    /// holds it: callers treat it as out of range). Tiny values become zero.
    fn to_decimal(&self, negative: bool) -> Result<BigDecimal, ()> {
        let d = self.digits();
        if d.is_empty() || self.decpt < -80 {
            return Ok(BigDecimal::zero());
        }
        if self.decpt > 80 {
            return Err(());
        }
        let int = BigInt::parse_bytes(d, 10).ok_or(())?;
        let int = if negative { -int } else { int };
        Ok(BigDecimal::new(int, d.len() as i64 - self.decpt))
    }
}

/// How a string read as a number went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct NumStatus {
    /// No digits at all (`'abc'`, `''`).
    no_digits: bool,
    /// Non-space characters after the number (`'12abc'`).
    garbage: bool,
    /// The number does not fit (saturated).
    overflow: bool,
}

impl NumStatus {
    fn truncated(&self) -> bool {
        self.no_digits || self.garbage || self.overflow
    }
}

/// String → double (`my_strtod`): the longest numeric prefix, saturating at ±DBL_MAX.
fn str_to_f64(s: &[u8]) -> (f64, NumStatus) {
    let n = scan_number(s);
    let mut st = NumStatus {
        no_digits: !n.has_digits,
        garbage: has_garbage(s, n.end),
        overflow: false,
    };
    if !n.has_digits {
        return (0.0, st);
    }
    let text = std::str::from_utf8(&s[n.start..n.end]).unwrap_or("0");
    let mut x = f64::from_str(text).unwrap_or(0.0);
    if x.is_infinite() {
        st.overflow = true;
        x = if x < 0.0 { -f64::MAX } else { f64::MAX };
    }
    (x, st)
}

/// String → integer prefix (`my_strtoll10`): spaces, sign, digits; no fraction, no exponent.
fn str_to_int_prefix(s: &[u8]) -> (i128, NumStatus) {
    let mut i = s.iter().position(|&b| !is_space(b)).unwrap_or(s.len());
    let negative = skip_sign(s, &mut i);
    let n = count_digits(s, i);
    let mut st = NumStatus {
        no_digits: n == 0,
        garbage: n > 0 && has_garbage(s, i + n),
        overflow: false,
    };
    let mut v: i128 = 0;
    for &c in &s[i..i + n] {
        v = v * 10 + (c - b'0') as i128;
        if v > u64::MAX as i128 {
            st.overflow = true;
            v = u64::MAX as i128 + 1;
        }
    }
    (if negative { -v } else { v }, st)
}

/// String → integer as an integer column reads it (`my_strntoull10rnd`): the whole number
/// including fraction and exponent, rounded half away from zero.
fn str_to_int_rounded(s: &[u8]) -> (i128, NumStatus) {
    let n = scan_number(s);
    let mut st = NumStatus {
        no_digits: !n.has_digits,
        garbage: has_garbage(s, n.end),
        overflow: false,
    };
    if !n.has_digits {
        return (0, st);
    }
    if n.frac.0 > n.int.1 && s.get(n.frac.1) == Some(&b'.') {
        // MySQL quirk (`my_strntoull10rnd_8bit`): a second '.' ends the number *and loses
        // the first one*, so '8.5138.5' reads as 85138 (MariaDB agrees).
        let digits = s[n.int.0..n.int.1].iter().chain(&s[n.frac.0..n.frac.1]);
        let mut v: i128 = 0;
        for &c in digits {
            v = v.saturating_mul(10).saturating_add((c - b'0') as i128);
        }
        if v > u64::MAX as i128 {
            st.overflow = true;
        }
        return (if n.negative { -v } else { v }, st);
    }
    match SigDigits::of(s, &n).round_to_int(n.negative) {
        Some(v) => (v, st),
        None => {
            st.overflow = true;
            (if n.negative { i128::MIN } else { i128::MAX }, st)
        }
    }
}

/// String → decimal (`str2my_decimal`). Overflow saturates at ±10⁸¹.
fn str_to_decimal(s: &[u8]) -> (BigDecimal, NumStatus) {
    let n = scan_number(s);
    let mut st = NumStatus {
        no_digits: !n.has_digits,
        garbage: has_garbage(s, n.end),
        overflow: false,
    };
    if !n.has_digits {
        return (BigDecimal::zero(), st);
    }
    match SigDigits::of(s, &n).to_decimal(n.negative) {
        Ok(d) => (d, st),
        Err(()) => {
            st.overflow = true;
            let big = BigDecimal::new(BigInt::from(1), -81);
            (if n.negative { -big } else { big }, st)
        }
    }
}

/// Double → decimal through the shortest round-trip digits (as MySQL's `double2decimal`).
pub fn f64_to_decimal(x: f64) -> BigDecimal {
    if !x.is_finite() || x == 0.0 {
        return BigDecimal::zero();
    }
    let fd = FloatDigits::shortest(x);
    let d = fd.digits();
    let int = BigInt::parse_bytes(d, 10).unwrap_or_default();
    let int = if fd.negative { -int } else { int };
    BigDecimal::new(int, d.len() as i64 - fd.decpt as i64)
}

/// Decimal → double, correctly rounded.
pub fn decimal_to_f64(d: &BigDecimal) -> f64 {
    let (int, scale) = d.as_bigint_and_scale();
    let text = format!("{}e{}", int, -scale);
    f64::from_str(&text).unwrap_or(0.0)
}

/// Decimal → integer, rounded half away from zero; `None` beyond ±2¹²⁷.
fn decimal_to_i128(d: &BigDecimal) -> Option<i128> {
    let r = d.with_scale_round(0, RoundingMode::HalfUp);
    let (int, _) = r.as_bigint_and_scale();
    i128::try_from(int.as_ref()).ok()
}

/// Double → integer, rounded half to even (C `rint`, as MySQL), saturating; the flag says
/// whether it saturated.
fn f64_to_i128(x: f64, min: i128, max: i128) -> (i128, bool) {
    let r = x.round_ties_even();
    if r.is_nan() {
        (0, true)
    } else if r < min as f64 {
        (min, true)
    } else if r >= max as f64 {
        // `max as f64` may round up past max: anything at or beyond it saturates.
        (max, r > max as f64)
    } else {
        (r as i128, false)
    }
}

/// The numeric value of a temporal as MySQL reads it in a number context:
/// DATE `YYYYMMDD`, DATETIME `YYYYMMDDHHMMSS.ffffff`, TIME `HHMMSS.ffffff`.
fn temporal_to_f64(v: &Value) -> f64 {
    match v {
        Value::Date(d) => temporal::date_to_number(d) as f64,
        Value::DateTime(d) => temporal::datetime_to_number(d) as f64 + d.micro as f64 / 1_000_000.0,
        Value::Time(t) => {
            temporal::time_to_number(*t) as f64 + (t.micros % 1_000_000) as f64 / 1_000_000.0
        }
        _ => 0.0,
    }
}

fn temporal_to_decimal(v: &Value) -> BigDecimal {
    // Integer-valued temporals convert with scale 0, others with 6 (MySQL's decimals).
    let (int, micro) = match v {
        Value::Date(d) => (temporal::date_to_number(d), 0),
        Value::DateTime(d) => (temporal::datetime_to_number(d), d.micro as i64),
        Value::Time(t) => (temporal::time_to_number(*t), t.micros % 1_000_000),
        _ => (0, 0),
    };
    if micro == 0 {
        BigDecimal::from(int)
    } else {
        BigDecimal::new(BigInt::from(int as i128 * 1_000_000 + micro as i128), 6)
    }
}

/// The integer value of a temporal, microseconds rounded (MySQL 8 rounds).
fn temporal_to_i128(v: &Value) -> i128 {
    match v {
        Value::Date(d) => temporal::date_to_number(d) as i128,
        Value::DateTime(d) => match temporal::round_datetime(*d, 0) {
            Some(r) => temporal::datetime_to_number(&r) as i128,
            None => temporal::datetime_to_number(d) as i128,
        },
        Value::Time(t) => temporal::time_to_number(temporal::round_time(*t, 0).0) as i128,
        _ => 0,
    }
}

// ---------------------------------------------------------------------------------------
// Implicit conversions.

fn warn_truncated(diag: &mut Diagnostics, kind: &str, s: &[u8]) {
    diag.warn(
        code::ER_TRUNCATED_WRONG_VALUE,
        format!(
            "Truncated incorrect {kind} value: '{}'",
            quote_for_message(s)
        ),
    );
}

fn warn_truncated_value(diag: &mut Diagnostics, kind: &str, v: &Value) {
    warn_truncated(diag, kind, &to_bytes(v));
}

/// The value as a signed integer (MySQL's `val_int`): strings by their integer prefix,
/// doubles rounded half to even, decimals half away from zero, temporals as numbers;
/// out of range saturates. Warnings: 1292 `Truncated incorrect INTEGER value`.
pub fn to_i64(v: &Value, diag: &mut Diagnostics) -> Option<i64> {
    const MIN: i128 = i64::MIN as i128;
    const MAX: i128 = i64::MAX as i128;
    let x: i128 = match v {
        Value::Null => return None,
        Value::Int(i) => return Some(*i),
        Value::UInt(u) => *u as i128,
        Value::Float(_) | Value::Double(_) => {
            let x = to_f64_opt(v, None).unwrap_or(0.0);
            // Past the range by at least one: saturate and warn.
            f64_to_i128(x, MIN - 1, MAX + 1).0
        }
        Value::Decimal(d) => decimal_to_i128(d).unwrap_or(if d.sign() == Sign::Minus {
            MIN - 1
        } else {
            MAX + 1
        }),
        Value::Bytes(s) => {
            let (x, st) = str_to_int_prefix(s);
            if st.truncated() || !(MIN..=MAX).contains(&x) {
                warn_truncated(diag, "INTEGER", s);
            }
            return Some(x.clamp(MIN, MAX) as i64);
        }
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => temporal_to_i128(v),
    };
    if !(MIN..=MAX).contains(&x) {
        warn_truncated_value(diag, "INTEGER", v);
    }
    Some(x.clamp(MIN, MAX) as i64)
}

/// The value as an unsigned integer, saturating at 0 and `u64::MAX` (with warning 1292).
/// Note: MySQL's `CAST(-1 AS UNSIGNED)` wraps instead; callers implementing CAST should
/// use [`to_i64`] and reinterpret.
pub fn to_u64(v: &Value, diag: &mut Diagnostics) -> Option<u64> {
    const MAX: i128 = u64::MAX as i128;
    let x: i128 = match v {
        Value::Null => return None,
        Value::UInt(u) => return Some(*u),
        Value::Int(i) => *i as i128,
        Value::Float(_) | Value::Double(_) => {
            f64_to_i128(to_f64_opt(v, None).unwrap_or(0.0), -1, MAX + 1).0
        }
        Value::Decimal(d) => {
            decimal_to_i128(d).unwrap_or(if d.sign() == Sign::Minus { -1 } else { MAX + 1 })
        }
        Value::Bytes(s) => {
            let (x, st) = str_to_int_prefix(s);
            if st.truncated() || !(0..=MAX).contains(&x) {
                warn_truncated(diag, "INTEGER", s);
            }
            return Some(x.clamp(0, MAX) as u64);
        }
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => temporal_to_i128(v),
    };
    if !(0..=MAX).contains(&x) {
        warn_truncated_value(diag, "INTEGER", v);
    }
    Some(x.clamp(0, MAX) as u64)
}

/// The value as a double (MySQL's `val_real`). Warnings: 1292
/// `Truncated incorrect DOUBLE value` for strings that are not entirely a number.
pub fn to_f64(v: &Value, diag: &mut Diagnostics) -> Option<f64> {
    to_f64_opt(v, Some(diag))
}

/// [`to_f64`] with warnings optional (comparisons without a diagnostics area).
pub(crate) fn to_f64_opt(v: &Value, diag: Option<&mut Diagnostics>) -> Option<f64> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => *i as f64,
        Value::UInt(u) => *u as f64,
        Value::Float(f) => *f as f64,
        Value::Double(d) => *d,
        Value::Decimal(d) => decimal_to_f64(d),
        Value::Bytes(s) => {
            let (x, st) = str_to_f64(s);
            if st.truncated()
                && let Some(diag) = diag
            {
                warn_truncated(diag, "DOUBLE", s);
            }
            x
        }
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => temporal_to_f64(v),
    })
}

/// The value as an exact decimal (MySQL's `val_decimal`). Doubles convert through their
/// shortest digits. Warnings: 1292 `Truncated incorrect DECIMAL value`.
pub fn to_decimal(v: &Value, diag: &mut Diagnostics) -> Option<BigDecimal> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => BigDecimal::from(*i),
        Value::UInt(u) => BigDecimal::from(*u),
        Value::Float(f) => f64_to_decimal(*f as f64),
        Value::Double(d) => f64_to_decimal(*d),
        Value::Decimal(d) => (**d).clone(),
        Value::Bytes(s) => {
            let (d, st) = str_to_decimal(s);
            if st.truncated() {
                warn_truncated(diag, "DECIMAL", s);
            }
            d
        }
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => temporal_to_decimal(v),
    })
}

/// Truth value, as `WHERE` and `IF()` read it: numbers are true when non-zero, strings are
/// converted to double (with 1292 warnings), temporals by their numeric value.
pub fn to_bool(v: &Value, diag: &mut Diagnostics) -> Option<bool> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => *i != 0,
        Value::UInt(u) => *u != 0,
        Value::Float(f) => *f != 0.0,
        Value::Double(d) => *d != 0.0,
        Value::Decimal(d) => !d.is_zero(),
        Value::Bytes(_) => to_f64(v, diag).is_some_and(|x| x != 0.0),
        Value::Date(d) | Value::DateTime(d) => !d.is_zero(),
        Value::Time(t) => t.micros != 0,
    })
}

/// Splits a non-negative number into its integer part and fraction in nanoseconds (for
/// numbers read as dates/times).
fn split_number(v: &Value) -> Option<(i64, u32, bool)> {
    match v {
        Value::Int(i) => Some((i.unsigned_abs().min(i64::MAX as u64) as i64, 0, *i < 0)),
        Value::UInt(u) => Some(((*u).min(i64::MAX as u64) as i64, 0, false)),
        Value::Float(_) | Value::Double(_) => {
            let x = match v {
                Value::Float(f) => *f as f64,
                Value::Double(d) => *d,
                _ => 0.0,
            };
            let a = x.abs();
            if a >= 1e18 {
                return Some((i64::MAX, 0, x < 0.0));
            }
            let int = a.trunc();
            Some((
                int as i64,
                ((a - int) * 1e9).round().min(999_999_999.0) as u32,
                x < 0.0,
            ))
        }
        Value::Decimal(d) => {
            let negative = d.sign() == Sign::Minus;
            let a = d.abs();
            let int = a.with_scale_round(0, RoundingMode::Down);
            let frac = (&a - &int) * BigDecimal::from(1_000_000_000);
            let int = decimal_to_i128(&int)?.min(i64::MAX as i128) as i64;
            let nanos = decimal_to_i128(&frac.with_scale_round(0, RoundingMode::HalfUp))
                .unwrap_or(0)
                .clamp(0, 999_999_999) as u32;
            Some((int, nanos, negative))
        }
        _ => None,
    }
}

/// A number read as a datetime (`YYYYMMDD[HHMMSS[.ffffff]]`), without warnings; `None`
/// if it is not one (negative, or not a valid date).
pub(crate) fn number_as_datetime(v: &Value) -> Option<DateTime> {
    match split_number(v)? {
        (int, nanos, false) => temporal::datetime_from_parts(int, nanos)
            .ok()
            .map(|(d, _)| d),
        _ => None,
    }
}

/// Today's date (UTC system clock) with a TIME's duration added: how MySQL turns a TIME
/// into a DATETIME (`CURRENT_DATE` + time; MySQL takes the date in the session's time zone,
/// which this layer does not know).
pub(crate) fn time_to_datetime(t: Time) -> Option<DateTime> {
    let today = temporal::now_utc().date_part();
    let days = t.micros.div_euclid(86_400_000_000);
    let rest = t.micros.rem_euclid(86_400_000_000);
    let base = temporal::add_interval(today, temporal::IntervalUnit::Day, days)?;
    temporal::add_interval(base, temporal::IntervalUnit::Microsecond, rest)
}

fn warn_incorrect_temporal(diag: &mut Diagnostics, kind: &str, v: &Value) {
    diag.warn(
        code::ER_TRUNCATED_WRONG_VALUE,
        format!(
            "Incorrect {kind} value: '{}'",
            quote_for_message(&to_bytes(v))
        ),
    );
}

/// The value as a DATETIME (MySQL's `get_date`): strings parsed (`'2020-01-02 03:04:05'`),
/// numbers as `YYYYMMDD[HHMMSS[.ffffff]]`, DATE at midnight, TIME on today's date.
/// Invalid values give `None` with warning 1292 `Incorrect datetime value: '…'`; trailing
/// garbage keeps the value with `Truncated incorrect datetime value`.
pub fn to_datetime(v: &Value, diag: &mut Diagnostics) -> Option<DateTime> {
    match v {
        Value::Null => None,
        Value::Date(d) | Value::DateTime(d) => Some(*d),
        Value::Time(t) => time_to_datetime(*t),
        Value::Bytes(s) => match temporal::parse_datetime(s) {
            Ok(p) => {
                if p.truncated {
                    warn_truncated(diag, "datetime", s);
                }
                Some(p.value)
            }
            Err(_) => {
                warn_incorrect_temporal(diag, "datetime", v);
                None
            }
        },
        _ => match split_number(v) {
            Some((int, nanos, false)) => match temporal::datetime_from_parts(int, nanos) {
                Ok((d, _)) => Some(d),
                Err(_) => {
                    warn_incorrect_temporal(diag, "datetime", v);
                    None
                }
            },
            _ => {
                warn_incorrect_temporal(diag, "datetime", v);
                None
            }
        },
    }
}

/// The value as a DATE: [`to_datetime`] without the time of day.
pub fn to_date(v: &Value, diag: &mut Diagnostics) -> Option<DateTime> {
    to_datetime(v, diag).map(|d| d.date_part())
}

/// The value as a TIME (MySQL's `get_time`): strings parsed (`'12:34:56'`, `'1 12:00'`),
/// numbers as `[-]HHMMSS[.ffffff]`, datetimes by their time of day. Values beyond
/// ±838:59:59 are clamped with 1292 `Truncated incorrect time value`; invalid values give
/// `None` with `Incorrect time value`.
pub fn to_time(v: &Value, diag: &mut Diagnostics) -> Option<Time> {
    match v {
        Value::Null => None,
        Value::Time(t) => Some(*t),
        Value::DateTime(d) | Value::Date(d) => Some(temporal::time_of_day(d)),
        Value::Bytes(s) => match temporal::parse_time(s) {
            Ok(p) => {
                if p.truncated || p.clamped {
                    warn_truncated(diag, "time", s);
                }
                Some(p.value)
            }
            Err(_) => {
                warn_incorrect_temporal(diag, "time", v);
                None
            }
        },
        _ => {
            let (int, nanos, negative) = split_number(v)?;
            match temporal::time_from_int(int) {
                Ok((t, clamped)) => {
                    if clamped {
                        warn_truncated_value(diag, "time", v);
                    }
                    let micros =
                        (t.micros + (nanos as i64 + 500) / 1000).min(temporal::TIME_MAX_MICROS);
                    Some(Time {
                        micros: if negative { -micros } else { micros },
                    })
                }
                Err(_) => {
                    warn_incorrect_temporal(diag, "time", v);
                    None
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::types::IntWidth;

    fn text(v: &Value, ty: &SqlType) -> String {
        let mut out = Vec::new();
        to_text(v, ty, &mut out);
        String::from_utf8(out).unwrap()
    }

    fn dbl(x: f64) -> String {
        text(&Value::Double(x), &SqlType::DOUBLE)
    }

    fn flt(x: f32) -> String {
        text(&Value::Float(x), &SqlType::Float { unsigned: false })
    }

    fn dec(s: &str) -> BigDecimal {
        s.parse().unwrap()
    }

    #[test]
    fn doubles_print_like_mysql() {
        // Each checked against MariaDB 10.11 (`SELECT 1e15, …` and DOUBLE columns).
        assert_eq!(dbl(1e5), "100000");
        assert_eq!(dbl(1e14), "100000000000000");
        assert_eq!(dbl(1e15), "1e15");
        assert_eq!(dbl(1e16), "1e16");
        assert_eq!(dbl(1e20), "1e20");
        assert_eq!(dbl(1e100), "1e100");
        assert_eq!(dbl(0.1), "0.1");
        assert_eq!(dbl(1e-4), "0.0001");
        assert_eq!(dbl(1e-5), "0.00001");
        assert_eq!(dbl(123456789012345678.0), "1.2345678901234568e17");
        assert_eq!(dbl(3.0), "3");
        assert_eq!(dbl(1.5e-7), "0.00000015");
        assert_eq!(dbl(12345.678), "12345.678");
        assert_eq!(dbl(1.7976931348623157e308), "1.7976931348623157e308");
        assert_eq!(dbl(2.2250738585072014e-308), "2.2250738585072014e-308");
        assert_eq!(dbl(5e-324), "5e-324");
        assert_eq!(dbl(123456789012345.6), "123456789012345.6");
        assert_eq!(dbl(1234567890123456.7), "1234567890123456.8");
        assert_eq!(dbl(0.00012345678901234567), "0.00012345678901234567");
        assert_eq!(dbl(1.2345678901234567e-10), "0.00000000012345678901234568");
        assert_eq!(dbl(1e-15), "0.000000000000001");
        assert_eq!(dbl(1e-16), "1e-16");
        assert_eq!(dbl(-2.5), "-2.5");
        assert_eq!(dbl(0.0), "0");
        // MySQL prints negative zero as -0 (`SELECT '0'/-4`).
        assert_eq!(dbl(-0.0), "-0");
    }

    #[test]
    fn floats_print_like_mysql() {
        // FLOAT columns in MariaDB 10.11 (same my_gcvt as MySQL 8.0).
        assert_eq!(flt(0.1), "0.1");
        assert_eq!(flt(1e20), "1e20");
        assert_eq!(flt(123456789.0), "123457000");
        assert_eq!(flt(3.0), "3");
        assert_eq!(flt(1e-5), "0.00001");
        assert_eq!(flt(3.4e38), "3.4e38");
        assert_eq!(flt(1.175_494_4e-38), "1.17549e-38");
        assert_eq!(flt(16777217.0), "16777200");
        assert_eq!(flt(1234567.0), "1234570");
        assert_eq!(flt(1234565.0), "1234560"); // exact tie: half to even
        assert_eq!(flt(0.0001234), "0.0001234");
        assert_eq!(flt(123.456), "123.456");
        assert_eq!(flt(1.4e-45), "1.4013e-45");
        assert_eq!(flt(1e-10), "0.0000000001");
    }

    #[test]
    fn integers_decimals_and_temporals_print() {
        assert_eq!(text(&Value::Int(-42), &SqlType::INT), "-42");
        assert_eq!(
            text(&Value::UInt(u64::MAX), &SqlType::BIGINT_UNSIGNED),
            "18446744073709551615"
        );
        let zf = SqlType::Int {
            width: IntWidth::Int,
            unsigned: true,
            zerofill: true,
            display: None,
        };
        assert_eq!(text(&Value::UInt(42), &zf), "0000000042");
        let zf5 = SqlType::Int {
            width: IntWidth::Small,
            unsigned: true,
            zerofill: true,
            display: Some(3),
        };
        assert_eq!(text(&Value::UInt(42), &zf5), "042");
        assert_eq!(text(&Value::UInt(12345), &zf5), "12345");
        assert_eq!(text(&Value::Int(0), &SqlType::Year), "0000");
        assert_eq!(text(&Value::Int(2020), &SqlType::Year), "2020");
        assert_eq!(text(&Value::UInt(5), &SqlType::Bit { len: 4 }), "\u{5}");
        let mut raw = Vec::new();
        to_text(&Value::UInt(0x1FF), &SqlType::Bit { len: 10 }, &mut raw);
        assert_eq!(raw, b"\x01\xff");
        let d102 = SqlType::Decimal {
            precision: 10,
            scale: 2,
            unsigned: false,
        };
        assert_eq!(text(&Value::decimal(dec("1.5")), &d102), "1.50");
        assert_eq!(text(&Value::decimal(dec("-0.5")), &d102), "-0.50");
        assert_eq!(text(&Value::decimal(dec("0")), &d102), "0.00");
        assert_eq!(text(&Value::decimal(dec("1.005")), &d102), "1.01");
        assert_eq!(text(&Value::decimal(dec("1e3")), &d102), "1000.00");
        assert_eq!(
            text(&Value::decimal(dec("123.4500")), &SqlType::Null),
            "123.4500"
        );
        assert_eq!(text(&Value::decimal(dec("1e3")), &SqlType::Null), "1000");
        assert_eq!(text(&Value::decimal(dec("0.001")), &SqlType::Null), "0.001");
        let d = temporal::parse_datetime(b"2020-01-02 03:04:05.123456")
            .unwrap()
            .value;
        assert_eq!(
            text(&Value::DateTime(d), &SqlType::DateTime { fsp: 0 }),
            "2020-01-02 03:04:05"
        );
        assert_eq!(
            text(&Value::DateTime(d), &SqlType::DateTime { fsp: 3 }),
            "2020-01-02 03:04:05.123"
        );
        assert_eq!(
            text(&Value::DateTime(d), &SqlType::Null),
            "2020-01-02 03:04:05.123456"
        );
        assert_eq!(
            text(&Value::DateTime(d.date_part()), &SqlType::Null),
            "2020-01-02 00:00:00"
        );
        assert_eq!(
            text(&Value::Date(d.date_part()), &SqlType::Date),
            "2020-01-02"
        );
        assert_eq!(
            text(&Value::Date(d.date_part()), &SqlType::Null),
            "2020-01-02"
        );
        let t = Time {
            micros: -(100 * 3600 + 5) * 1_000_000 - 250_000,
        };
        assert_eq!(
            text(&Value::Time(t), &SqlType::Time { fsp: 2 }),
            "-100:00:05.25"
        );
        assert_eq!(text(&Value::Time(t), &SqlType::Null), "-100:00:05.250000");
        assert_eq!(text(&Value::str("héllo"), &SqlType::varchar(5)), "héllo");
        assert_eq!(text(&Value::Null, &SqlType::INT), "");
    }

    #[test]
    fn implicit_integer_conversions() {
        let mut d = Diagnostics::default();
        assert_eq!(to_i64(&Value::str("12abc"), &mut d), Some(12));
        assert_eq!(d.list[0].code, code::ER_TRUNCATED_WRONG_VALUE);
        assert_eq!(
            d.list[0].message,
            "Truncated incorrect INTEGER value: '12abc'"
        );
        let mut d = Diagnostics::default();
        assert_eq!(to_i64(&Value::str(" 12"), &mut d), Some(12));
        assert_eq!(to_i64(&Value::str("12 "), &mut d), Some(12));
        assert_eq!(to_i64(&Value::str("-7"), &mut d), Some(-7));
        assert!(d.list.is_empty());
        // CAST('1e3' AS SIGNED) is 1 in MySQL: only the integer prefix is read.
        assert_eq!(to_i64(&Value::str("1e3"), &mut d), Some(1));
        assert_eq!(to_i64(&Value::str("2.5"), &mut d), Some(2));
        assert_eq!(to_i64(&Value::str("abc"), &mut d), Some(0));
        assert_eq!(d.list.len(), 3);
        let mut d = Diagnostics::default();
        assert_eq!(to_i64(&Value::Double(2.5), &mut d), Some(2));
        assert_eq!(to_i64(&Value::Double(3.5), &mut d), Some(4));
        assert_eq!(to_i64(&Value::Double(-2.5), &mut d), Some(-2));
        assert_eq!(to_i64(&Value::decimal(dec("2.5")), &mut d), Some(3));
        assert_eq!(to_i64(&Value::decimal(dec("-2.5")), &mut d), Some(-3));
        assert!(d.list.is_empty());
        assert_eq!(to_i64(&Value::UInt(u64::MAX), &mut d), Some(i64::MAX));
        assert_eq!(to_i64(&Value::Double(1e20), &mut d), Some(i64::MAX));
        assert_eq!(
            to_i64(&Value::str("99999999999999999999"), &mut d),
            Some(i64::MAX)
        );
        assert_eq!(d.list.len(), 3);
        assert_eq!(to_i64(&Value::Null, &mut d), None);
        let dt = temporal::parse_datetime(b"2020-01-02 03:04:05.6")
            .unwrap()
            .value;
        assert_eq!(to_i64(&Value::DateTime(dt), &mut d), Some(20200102030406));
        assert_eq!(to_i64(&Value::Date(dt.date_part()), &mut d), Some(20200102));
        let mut d = Diagnostics::default();
        assert_eq!(to_u64(&Value::Int(-1), &mut d), Some(0));
        assert_eq!(
            to_u64(&Value::str("18446744073709551615"), &mut d),
            Some(u64::MAX)
        );
        assert_eq!(d.list.len(), 1);
    }

    #[test]
    fn implicit_real_and_decimal_conversions() {
        let mut d = Diagnostics::default();
        assert_eq!(to_f64(&Value::str("1e3"), &mut d), Some(1000.0));
        assert_eq!(to_f64(&Value::str(" -1.5e-1x"), &mut d), Some(-0.15));
        assert_eq!(
            d.list[0].message,
            "Truncated incorrect DOUBLE value: ' -1.5e-1x'"
        );
        assert_eq!(to_f64(&Value::str(".5"), &mut d), Some(0.5));
        assert_eq!(to_f64(&Value::str("5."), &mut d), Some(5.0));
        assert_eq!(to_f64(&Value::str("1e"), &mut d), Some(1.0)); // warns: 'e' unread
        assert_eq!(to_f64(&Value::str("1e400"), &mut d), Some(f64::MAX));
        assert_eq!(to_f64(&Value::decimal(dec("0.1")), &mut d), Some(0.1));
        assert_eq!(d.list.len(), 3);
        let mut d = Diagnostics::default();
        assert_eq!(to_decimal(&Value::Double(0.1), &mut d), Some(dec("0.1")));
        assert_eq!(to_decimal(&Value::str("1.5abc"), &mut d), Some(dec("1.5")));
        assert_eq!(
            d.list[0].message,
            "Truncated incorrect DECIMAL value: '1.5abc'"
        );
        assert_eq!(
            to_decimal(&Value::str("-1.25e2"), &mut d),
            Some(dec("-125"))
        );
        assert_eq!(to_decimal(&Value::Int(-3), &mut d), Some(dec("-3")));
        let mut d = Diagnostics::default();
        assert_eq!(to_bool(&Value::str("0.5"), &mut d), Some(true));
        assert_eq!(to_bool(&Value::str("abc"), &mut d), Some(false));
        assert_eq!(to_bool(&Value::Int(0), &mut d), Some(false));
        assert_eq!(to_bool(&Value::decimal(dec("0.00")), &mut d), Some(false));
        assert_eq!(to_bool(&Value::Null, &mut d), None);
        assert_eq!(d.list.len(), 1);
    }

    #[test]
    fn implicit_temporal_conversions() {
        let mut d = Diagnostics::default();
        let f = |v: Option<DateTime>| v.map(|x| temporal::format_datetime(&x, 6));
        assert_eq!(
            f(to_datetime(&Value::str("2020-01-02 03:04:05"), &mut d)).unwrap(),
            "2020-01-02 03:04:05.000000"
        );
        assert_eq!(
            f(to_datetime(&Value::Int(20200102), &mut d)).unwrap(),
            "2020-01-02 00:00:00.000000"
        );
        assert_eq!(
            f(to_datetime(&Value::Double(20200102030405.25), &mut d)).unwrap(),
            "2020-01-02 03:04:05.250000"
        );
        assert!(d.list.is_empty());
        assert_eq!(to_datetime(&Value::str("2020-13-01"), &mut d), None);
        assert_eq!(d.list[0].message, "Incorrect datetime value: '2020-13-01'");
        assert_eq!(
            f(to_date(&Value::str("2020-01-02 03:04:05"), &mut d)).unwrap(),
            "2020-01-02 00:00:00.000000"
        );
        let mut d = Diagnostics::default();
        assert_eq!(
            to_time(&Value::str("12:34:56"), &mut d).unwrap().micros,
            45_296_000_000
        );
        assert_eq!(
            to_time(&Value::Int(-123456), &mut d).unwrap().micros,
            -45_296_000_000
        );
        assert_eq!(
            to_time(&Value::Double(123456.5), &mut d).unwrap().micros,
            45_296_500_000
        );
        assert!(d.list.is_empty());
        assert_eq!(
            to_time(&Value::str("900:00:00"), &mut d).unwrap().micros,
            temporal::TIME_MAX_MICROS
        );
        assert_eq!(to_time(&Value::str("abc"), &mut d), None);
        assert_eq!(d.list.len(), 2);
    }
}
