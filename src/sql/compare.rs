//! Comparing values: `=`/`<` in expressions, `ORDER BY`, and `GROUP BY`/`DISTINCT` keys.
//!
//! [`compare`] follows MySQL 8.0's comparison rules (the manual's "Type Conversion in
//! Expression Evaluation"); NULL against anything is unknown (`None`):
//!
//! | operands | compared as |
//! |---|---|
//! | integer, integer (signed or not) | exact integers (`-1 < 18446744073709551615`) |
//! | integer or decimal, decimal | exact decimals |
//! | FLOAT/DOUBLE with any number | doubles |
//! | number, string | doubles (the string's numeric prefix) |
//! | string, string | by the collation passed in |
//! | DATE/DATETIME, DATE/DATETIME | chronologically (a DATE is midnight) |
//! | TIME, DATE/DATETIME | the TIME on today's date, as MySQL (today in UTC: MySQL uses the session's time zone) |
//! | temporal, string | the string parsed as that temporal; as strings if it does not parse |
//! | DATE/DATETIME, number | the number as `YYYYMMDD[HHMMSS[.ffffff]]`; numerically if it is no date |
//! | TIME, number | numerically (`HHMMSS.ffffff`) |
//!
//! **Warnings.** MySQL pushes 1292 `Truncated incorrect DOUBLE value: '1abc'` when a
//! comparison converts a non-numeric string. [`compare`] has no diagnostics area and stays
//! silent; [`compare_warn`] is the same comparison with those warnings, for the expression
//! evaluator to use once per row where MySQL would warn.
//!
//! **Sorting** ([`sort_cmp`]) must be a total order (Rust's sorts may panic otherwise), which
//! MySQL's mixed-type rules are not (`'a' = 0` and `0 = '0'` but `'a' ≠ '0'`). So
//! `sort_cmp` puts NULL first, orders values of different classes by class (numbers, then
//! DATE/DATETIME, then TIME, then strings — the executor casts mixed expressions to one type
//! first, as MySQL does, so this only matters for malformed input), and compares numbers
//! exactly by their *canonical decimal value*: integers and decimals as they are, a
//! FLOAT/DOUBLE as its shortest round-trip decimal (`0.1`, not `0.1000000000000000055…`).
//! Within a class it agrees with `compare`, except that numbers which are equal only after
//! rounding to double (`9007199254740993 = 9007199254740992e0`) are ordered, not tied.
//!
//! **Group keys** ([`group_key`]) are byte strings equal exactly when `sort_cmp` says equal:
//! `Int 1`, `UInt 1`, `Double 1.0` and `Decimal 1.00` share a key, as do `'a'`, `'A'` and
//! `'a '` under `utf8mb4_general_ci`. Layout: one class byte (`00` NULL, `01` number,
//! `02` DATE/DATETIME, `03` TIME, `04` string), then the number's order-preserving decimal
//! encoding (`storage::keycode`), the fixed-width temporal fields, or the string's collation
//! weight key. Keys are self-delimiting, so composite keys are concatenations.
//!
//! Nothing here allocates except for DECIMAL operands (digit strings) and the string
//! fallbacks of temporal comparisons.

use super::collation;
use super::convert::{self, FloatDigits};
use super::temporal;
use super::types::Collation;
use super::value::{DateTime, Time, Value};
use crate::error::Diagnostics;
use crate::storage::keycode;
use bigdecimal::BigDecimal;
use bigdecimal::num_bigint::Sign;
use std::cmp::Ordering;

/// Compares two values with MySQL's rules; `None` if either is NULL.
pub fn compare(a: &Value, b: &Value, coll: Collation) -> Option<Ordering> {
    compare_impl(a, b, coll, None)
}

/// [`compare`], pushing MySQL's 1292 warnings for strings that convert to numbers badly.
pub fn compare_warn(
    a: &Value,
    b: &Value,
    coll: Collation,
    diag: &mut Diagnostics,
) -> Option<Ordering> {
    compare_impl(a, b, coll, Some(diag))
}

#[inline]
fn compare_impl(
    a: &Value,
    b: &Value,
    coll: Collation,
    mut diag: Option<&mut Diagnostics>,
) -> Option<Ordering> {
    use Value::*;
    Some(match (a, b) {
        (Null, _) | (_, Null) => return None,
        (Int(x), Int(y)) => x.cmp(y),
        (UInt(x), UInt(y)) => x.cmp(y),
        (Int(x), UInt(y)) => (*x as i128).cmp(&(*y as i128)),
        (UInt(x), Int(y)) => (*x as i128).cmp(&(*y as i128)),
        (Bytes(x), Bytes(y)) => collation::cmp(x, y, coll),
        (Double(x), Double(y)) => cmp_f64(*x, *y),
        (Decimal(x), Decimal(y)) => x.as_ref().cmp(y.as_ref()),
        (Int(_) | UInt(_), Decimal(d)) => integer_vs_decimal(a, d),
        (Decimal(d), Int(_) | UInt(_)) => integer_vs_decimal(b, d).reverse(),
        (Date(x) | DateTime(x), Date(y) | DateTime(y)) => x.cmp(y),
        (Time(x), Time(y)) => x.cmp(y),
        (Time(t), Date(d) | DateTime(d)) => time_vs_datetime(*t, d),
        (Date(d) | DateTime(d), Time(t)) => time_vs_datetime(*t, d).reverse(),
        (Date(_) | DateTime(_) | Time(_), Bytes(s)) => temporal_vs_string(a, s, coll),
        (Bytes(s), Date(_) | DateTime(_) | Time(_)) => temporal_vs_string(b, s, coll).reverse(),
        (Date(_) | DateTime(_) | Time(_), _) => temporal_vs_number(a, b),
        (_, Date(_) | DateTime(_) | Time(_)) => temporal_vs_number(b, a).reverse(),
        // Numbers with a FLOAT/DOUBLE, or a number and a string: as doubles.
        _ => {
            let x = convert::to_f64_opt(a, diag.as_deref_mut())?;
            let y = convert::to_f64_opt(b, diag)?;
            cmp_f64(x, y)
        }
    })
}

/// Doubles compare numerically (-0 = 0); NaN, which MySQL never produces, sorts last.
#[inline]
fn cmp_f64(x: f64, y: f64) -> Ordering {
    match x.partial_cmp(&y) {
        Some(o) => o,
        None => x.is_nan().cmp(&y.is_nan()),
    }
}

fn integer_vs_decimal(i: &Value, d: &BigDecimal) -> Ordering {
    let x = match i {
        Value::Int(v) => BigDecimal::from(*v),
        Value::UInt(v) => BigDecimal::from(*v),
        _ => return Ordering::Equal,
    };
    x.cmp(d)
}

fn time_vs_datetime(t: Time, d: &DateTime) -> Ordering {
    match convert::time_to_datetime(t) {
        Some(td) => td.cmp(d),
        // Only beyond year 9999: the TIME is later.
        None => (t.micros > 0).cmp(&false),
    }
}

/// A temporal against a string: the string read as that temporal type, or both as strings
/// when it is not one.
fn temporal_vs_string(t: &Value, s: &[u8], coll: Collation) -> Ordering {
    match t {
        Value::Date(d) | Value::DateTime(d) => {
            if let Ok(p) = temporal::parse_datetime(s) {
                return d.cmp(&p.value);
            }
        }
        Value::Time(x) => {
            if let Ok(p) = temporal::parse_time(s) {
                return x.cmp(&p.value);
            }
        }
        _ => {}
    }
    collation::cmp(&convert::to_bytes(t), s, coll)
}

/// A temporal against a number (`n` is numeric).
fn temporal_vs_number(t: &Value, n: &Value) -> Ordering {
    if let Value::Date(d) | Value::DateTime(d) = t
        && let Some(nd) = convert::number_as_datetime(n)
    {
        return d.cmp(&nd);
    }
    let x = convert::to_f64_opt(t, None).unwrap_or(0.0);
    let y = convert::to_f64_opt(n, None).unwrap_or(0.0);
    cmp_f64(x, y)
}

// ---------------------------------------------------------------------------------------
// Sorting.

/// Value classes for [`sort_cmp`] across types.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Number,
    Date,
    Time,
    String,
}

fn class(v: &Value) -> Class {
    match v {
        Value::Date(_) | Value::DateTime(_) => Class::Date,
        Value::Time(_) => Class::Time,
        Value::Bytes(_) => Class::String,
        _ => Class::Number,
    }
}

/// `ORDER BY` order: a total order with NULL first (smallest). See the module doc.
pub fn sort_cmp(a: &Value, b: &Value, coll: Collation) -> Ordering {
    use Value::*;
    match (a, b) {
        (Null, Null) => Ordering::Equal,
        (Null, _) => Ordering::Less,
        (_, Null) => Ordering::Greater,
        (Int(x), Int(y)) => x.cmp(y),
        (UInt(x), UInt(y)) => x.cmp(y),
        (Int(x), UInt(y)) => (*x as i128).cmp(&(*y as i128)),
        (UInt(x), Int(y)) => (*x as i128).cmp(&(*y as i128)),
        (Double(x), Double(y)) => cmp_f64(*x, *y),
        (Float(x), Float(y)) => cmp_f64(*x as f64, *y as f64),
        (Float(x), Double(y)) => cmp_f64(*x as f64, *y),
        (Double(x), Float(y)) => cmp_f64(*x, *y as f64),
        (Bytes(x), Bytes(y)) => collation::cmp(x, y, coll),
        (Date(x) | DateTime(x), Date(y) | DateTime(y)) => x.cmp(y),
        (Time(x), Time(y)) => x.cmp(y),
        _ => {
            let (ca, cb) = (class(a), class(b));
            if ca != cb {
                return ca.cmp(&cb);
            }
            match (NumParts::of(a), NumParts::of(b)) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => Ordering::Equal,
            }
        }
    }
}

/// A number as sign, significant digits and decimal point: 0.d₁d₂… × 10^decpt, no leading
/// or trailing zeros (zero: no digits). The canonical value of [`sort_cmp`] and
/// [`group_key`].
struct NumParts {
    negative: bool,
    stack: [u8; 24],
    len: usize,
    heap: Vec<u8>,
    decpt: i64,
}

impl NumParts {
    fn digits(&self) -> &[u8] {
        if self.heap.is_empty() {
            &self.stack[..self.len]
        } else {
            &self.heap
        }
    }

    fn from_u64(negative: bool, v: u64) -> NumParts {
        let mut p = NumParts {
            negative,
            stack: [0; 24],
            len: 0,
            heap: Vec::new(),
            decpt: 0,
        };
        let mut buf = [0u8; 20];
        let mut i = buf.len();
        let mut n = v;
        while n > 0 {
            i -= 1;
            buf[i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
        let digits = &buf[i..];
        p.decpt = digits.len() as i64;
        let sig = digits.iter().rposition(|&c| c != b'0').map_or(0, |k| k + 1);
        if sig <= p.stack.len() {
            p.stack[..sig].copy_from_slice(&digits[..sig]);
            p.len = sig;
        } else {
            p.heap = digits[..sig].to_vec();
        }
        p
    }

    fn from_float(x: f64) -> NumParts {
        let fd = FloatDigits::shortest(x);
        let mut p = NumParts {
            negative: fd.negative,
            stack: [0; 24],
            len: 0,
            heap: Vec::new(),
            decpt: fd.decpt as i64,
        };
        if !fd.is_zero() {
            let d = fd.digits();
            p.stack[..d.len()].copy_from_slice(d);
            p.len = d.len();
        }
        p
    }

    fn from_decimal(d: &BigDecimal) -> NumParts {
        let (int, scale) = d.as_bigint_and_scale();
        let negative = int.sign() == Sign::Minus;
        let text = int.magnitude().to_string();
        let digits = text.as_bytes();
        let lead = digits
            .iter()
            .position(|&c| c != b'0')
            .unwrap_or(digits.len());
        let sig_end = digits
            .iter()
            .rposition(|&c| c != b'0')
            .map_or(lead, |k| k + 1);
        NumParts {
            negative,
            stack: [0; 24],
            len: 0,
            heap: digits[lead..sig_end].to_vec(),
            decpt: (digits.len() - lead) as i64 - scale,
        }
    }

    fn of(v: &Value) -> Option<NumParts> {
        Some(match v {
            Value::Int(i) => Self::from_u64(*i < 0, i.unsigned_abs()),
            Value::UInt(u) => Self::from_u64(false, *u),
            Value::Float(f) => Self::from_float(*f as f64),
            Value::Double(d) => Self::from_float(*d),
            Value::Decimal(d) => Self::from_decimal(d),
            _ => return None,
        })
    }

    fn signum(&self) -> i8 {
        if self.digits().is_empty() {
            0
        } else if self.negative {
            -1
        } else {
            1
        }
    }

    fn cmp(&self, other: &NumParts) -> Ordering {
        let (sa, sb) = (self.signum(), other.signum());
        if sa != sb || sa == 0 {
            return sa.cmp(&sb);
        }
        let magnitude = self
            .decpt
            .cmp(&other.decpt)
            .then_with(|| self.digits().cmp(other.digits()));
        if sa < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

// ---------------------------------------------------------------------------------------
// Group keys.

const GROUP_NULL: u8 = 0x00;
const GROUP_NUMBER: u8 = 0x01;
const GROUP_DATE: u8 = 0x02;
const GROUP_TIME: u8 = 0x03;
const GROUP_STRING: u8 = 0x04;

/// Appends the `GROUP BY`/`DISTINCT` key of `v`: equal bytes exactly when [`sort_cmp`]
/// says equal (see the module doc). Strings use `coll`.
pub fn group_key(v: &Value, coll: Collation, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.push(GROUP_NULL),
        Value::Bytes(s) => {
            out.push(GROUP_STRING);
            collation::weight_key(s, coll, out);
        }
        Value::Date(d) | Value::DateTime(d) => {
            out.push(GROUP_DATE);
            keycode::push_datetime_fields(d, out);
        }
        Value::Time(t) => {
            out.push(GROUP_TIME);
            out.extend_from_slice(&((t.micros as u64) ^ (1 << 63)).to_be_bytes());
        }
        _ => {
            out.push(GROUP_NUMBER);
            if let Some(p) = NumParts::of(v) {
                keycode::encode_decimal_parts(p.negative, p.digits(), p.decpt, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Collation::*;
    use Ordering::*;

    fn dec(s: &str) -> Value {
        Value::decimal(s.parse().unwrap())
    }

    fn dt(s: &str) -> Value {
        Value::DateTime(temporal::parse_datetime(s.as_bytes()).unwrap().value)
    }

    fn date(s: &str) -> Value {
        Value::Date(temporal::parse_datetime(s.as_bytes()).unwrap().value)
    }

    fn time(s: &str) -> Value {
        Value::Time(temporal::parse_time(s.as_bytes()).unwrap().value)
    }

    fn c(a: &Value, b: &Value) -> Option<Ordering> {
        let o = compare(a, b, Utf8mb4GeneralCi);
        assert_eq!(
            compare(b, a, Utf8mb4GeneralCi),
            o.map(Ordering::reverse),
            "{a:?} {b:?}"
        );
        o
    }

    fn gk(v: &Value) -> Vec<u8> {
        let mut out = Vec::new();
        group_key(v, Utf8mb4GeneralCi, &mut out);
        out
    }

    #[test]
    fn integers_and_decimals() {
        assert_eq!(c(&Value::Int(-1), &Value::UInt(u64::MAX)), Some(Less));
        assert_eq!(c(&Value::Int(5), &Value::UInt(5)), Some(Equal));
        assert_eq!(c(&Value::Int(1), &dec("1.00")), Some(Equal));
        assert_eq!(
            c(&Value::Int(1), &dec("1.000000000000000000000000001")),
            Some(Less)
        );
        assert_eq!(
            c(&Value::UInt(u64::MAX), &dec("18446744073709551615.5")),
            Some(Less)
        );
        assert_eq!(c(&dec("0.1"), &Value::Double(0.1)), Some(Equal));
        assert_eq!(c(&Value::Int(1), &Value::Double(1.5)), Some(Less));
        assert_eq!(c(&Value::Double(-0.0), &Value::Int(0)), Some(Equal));
        assert_eq!(c(&Value::Float(0.5), &Value::Double(0.5)), Some(Equal));
        assert_eq!(c(&Value::Null, &Value::Int(1)), None);
        assert_eq!(c(&Value::Null, &Value::Null), None);
    }

    #[test]
    fn numbers_against_strings() {
        assert_eq!(c(&Value::Int(1), &Value::str("1abc")), Some(Equal));
        assert_eq!(c(&Value::Int(0), &Value::str("abc")), Some(Equal));
        assert_eq!(c(&Value::Int(1000), &Value::str("1e3")), Some(Equal));
        assert_eq!(c(&Value::Int(12), &Value::str(" 12 ")), Some(Equal));
        assert_eq!(c(&Value::Int(2), &Value::str("10")), Some(Less));
        let mut diag = Diagnostics::default();
        assert_eq!(
            compare_warn(
                &Value::Int(1),
                &Value::str("1abc"),
                Utf8mb4GeneralCi,
                &mut diag
            ),
            Some(Equal)
        );
        assert_eq!(diag.list.len(), 1);
        assert_eq!(
            diag.list[0].message,
            "Truncated incorrect DOUBLE value: '1abc'"
        );
        // Strings compare as strings, by collation.
        assert_eq!(c(&Value::str("2"), &Value::str("10")), Some(Greater));
        assert_eq!(c(&Value::str("a"), &Value::str("A ")), Some(Equal));
        assert_eq!(
            compare(&Value::str("a"), &Value::str("A"), Utf8mb4Bin),
            Some(Greater)
        );
    }

    #[test]
    fn temporals() {
        assert_eq!(
            c(&date("2020-01-02"), &dt("2020-01-02 00:00:00")),
            Some(Equal)
        );
        assert_eq!(
            c(&date("2020-01-02"), &dt("2020-01-02 00:00:01")),
            Some(Less)
        );
        assert_eq!(
            c(&date("2020-01-02"), &Value::str("2020-01-02")),
            Some(Equal)
        );
        assert_eq!(c(&date("2020-01-02"), &Value::str("2020-1-2")), Some(Equal));
        assert_eq!(
            c(
                &dt("2020-01-02 03:04:05"),
                &Value::str("2020-01-02 03:04:05.000")
            ),
            Some(Equal)
        );
        // A string that is no date compares as a string.
        assert_eq!(c(&date("2020-01-02"), &Value::str("abc")), Some(Less));
        assert_eq!(c(&date("2020-01-02"), &Value::Int(20200102)), Some(Equal));
        assert_eq!(c(&date("2020-01-02"), &Value::Int(200102)), Some(Equal));
        assert_eq!(
            c(&date("2020-01-02"), &Value::Int(20200102000000)),
            Some(Equal)
        );
        assert_eq!(
            c(
                &dt("2020-01-02 03:04:05.5"),
                &Value::Double(20200102030405.5)
            ),
            Some(Equal)
        );
        assert_eq!(c(&time("12:00:00"), &Value::Int(120000)), Some(Equal));
        assert_eq!(c(&time("12:00:00"), &Value::str("12:00")), Some(Equal));
        assert_eq!(c(&time("-01:00:00"), &time("00:00:00")), Some(Less));
        // TIME against DATETIME: on today's date.
        let today = temporal::now_utc().date_part();
        let noon = Value::DateTime(DateTime { hour: 12, ..today });
        assert_eq!(c(&time("12:00:00"), &noon), Some(Equal));
    }

    #[test]
    fn sorting_is_total_with_nulls_first() {
        let values = vec![
            Value::Null,
            Value::Int(-5),
            Value::UInt(u64::MAX),
            Value::Double(0.1),
            dec("0.1"),
            dec("-7.25"),
            Value::Float(0.1),
            Value::Int(9007199254740993),
            Value::Double(9007199254740992.0),
            Value::str("b"),
            Value::str("A"),
            date("2020-01-02"),
            dt("2020-01-01 12:00:00"),
            time("10:00:00"),
        ];
        let coll = Utf8mb4GeneralCi;
        for a in &values {
            for b in &values {
                assert_eq!(sort_cmp(a, b, coll), sort_cmp(b, a, coll).reverse());
                for x in &values {
                    // Transitivity.
                    if sort_cmp(a, b, coll) != Greater && sort_cmp(b, x, coll) != Greater {
                        assert_ne!(sort_cmp(a, x, coll), Greater, "{a:?} {b:?} {x:?}");
                    }
                }
                // Group keys are equal exactly when sort_cmp says equal.
                assert_eq!(gk(a) == gk(b), sort_cmp(a, b, coll) == Equal, "{a:?} {b:?}");
            }
        }
        let mut sorted = values.clone();
        sorted.sort_by(|a, b| sort_cmp(a, b, coll));
        assert!(sorted[0].is_null());
        assert_eq!(sort_cmp(&Value::Double(0.1), &dec("0.1"), coll), Equal);
        assert_eq!(
            sort_cmp(
                &Value::Int(9007199254740993),
                &Value::Double(9007199254740992.0),
                coll
            ),
            Greater
        );
        assert_eq!(sort_cmp(&Value::Int(3), &dec("2.99"), coll), Greater);
    }

    #[test]
    fn group_keys() {
        let one = gk(&Value::Int(1));
        assert_eq!(gk(&Value::UInt(1)), one);
        assert_eq!(gk(&Value::Double(1.0)), one);
        assert_eq!(gk(&dec("1.00")), one);
        assert_eq!(gk(&Value::Float(1.0)), one);
        assert_ne!(gk(&Value::Int(10)), one);
        assert_eq!(gk(&Value::Double(-0.0)), gk(&Value::Int(0)));
        assert_eq!(gk(&Value::Int(100)), gk(&dec("1e2")));
        assert_eq!(gk(&Value::str("a")), gk(&Value::str("A ")));
        assert_eq!(gk(&Value::str("ä")), gk(&Value::str("a")));
        assert_ne!(gk(&Value::str("a")), gk(&Value::str("b")));
        assert_ne!(gk(&Value::str("1")), one);
        assert_eq!(gk(&date("2020-01-02")), gk(&dt("2020-01-02 00:00:00")));
        assert_ne!(gk(&Value::Null), gk(&Value::str("")));
        let mut bin_a = Vec::new();
        group_key(&Value::str("a"), Utf8mb4Bin, &mut bin_a);
        let mut bin_upper = Vec::new();
        group_key(&Value::str("A"), Utf8mb4Bin, &mut bin_upper);
        assert_ne!(bin_a, bin_upper);
    }
}
