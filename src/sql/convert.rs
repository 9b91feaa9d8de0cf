//! Conversions between value representations (interim version until the full MySQL rules land).

use super::types::SqlType;
use super::value::{DateTime, Time, Value};
use crate::error::{Diagnostics, MyError};
use bigdecimal::{BigDecimal, ToPrimitive};
use std::borrow::Cow;
use std::str::FromStr;

pub fn to_text(v: &Value, ty: &SqlType, out: &mut Vec<u8>) {
    use std::io::Write;
    match v {
        Value::Null => {}
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::UInt(u) => {
            let _ = write!(out, "{u}");
        }
        Value::Float(f) => {
            let _ = write!(out, "{f}");
        }
        Value::Double(f) => {
            let _ = write!(out, "{f}");
        }
        Value::Decimal(d) => {
            let scale = match ty {
                SqlType::Decimal { scale, .. } => *scale as i64,
                _ => d.fractional_digit_count().max(0),
            };
            let _ = write!(out, "{}", d.with_scale(scale));
        }
        Value::Bytes(b) => out.extend_from_slice(b),
        Value::Date(d) => {
            let _ = write!(out, "{:04}-{:02}-{:02}", d.year, d.month, d.day);
        }
        Value::DateTime(d) => {
            let _ = write!(
                out,
                "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
                d.year, d.month, d.day, d.hour, d.minute, d.second
            );
            let fsp = ty.decimals().min(6) as u32;
            if fsp > 0 && ty.is_temporal() {
                let _ = write!(
                    out,
                    ".{:0w$}",
                    d.micro / 10u32.pow(6 - fsp),
                    w = fsp as usize
                );
            }
        }
        Value::Time(t) => {
            let m = t.micros.unsigned_abs();
            let s = m / 1_000_000;
            let sign = if t.micros < 0 { "-" } else { "" };
            let _ = write!(
                out,
                "{sign}{:02}:{:02}:{:02}",
                s / 3600,
                (s / 60) % 60,
                s % 60
            );
        }
    }
}

fn parse_num_prefix(b: &[u8]) -> (f64, bool) {
    let s = String::from_utf8_lossy(b);
    let t = s.trim();
    let mut end = 0;
    let bytes = t.as_bytes();
    while end < bytes.len() && (bytes[end].is_ascii_digit() || b"+-.eE".contains(&bytes[end])) {
        end += 1;
    }
    while end > 0 && t[..end].parse::<f64>().is_err() {
        end -= 1;
    }
    (
        t[..end].parse::<f64>().unwrap_or(0.0),
        end == t.len() && !t.is_empty(),
    )
}

pub fn to_f64(v: &Value, diag: &mut Diagnostics) -> Option<f64> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => *i as f64,
        Value::UInt(u) => *u as f64,
        Value::Float(f) => *f as f64,
        Value::Double(f) => *f,
        Value::Decimal(d) => d.to_f64().unwrap_or(0.0),
        Value::Bytes(b) => {
            let (f, clean) = parse_num_prefix(b);
            if !clean {
                diag.warn(
                    1292,
                    format!(
                        "Truncated incorrect DOUBLE value: '{}'",
                        String::from_utf8_lossy(b)
                    ),
                );
            }
            f
        }
        Value::Date(d) => (d.year as f64) * 10000.0 + d.month as f64 * 100.0 + d.day as f64,
        Value::DateTime(d) => {
            ((d.year as f64) * 10000.0 + d.month as f64 * 100.0 + d.day as f64) * 1e6
                + d.hour as f64 * 10000.0
                + d.minute as f64 * 100.0
                + d.second as f64
        }
        Value::Time(t) => t.micros as f64 / 1e6,
    })
}

pub fn to_i64(v: &Value, diag: &mut Diagnostics) -> Option<i64> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => *i,
        Value::UInt(u) => (*u).min(i64::MAX as u64) as i64,
        Value::Bytes(b) => {
            let s = String::from_utf8_lossy(b);
            match s.trim().parse::<i64>() {
                Ok(i) => i,
                Err(_) => to_f64(v, diag)?.round() as i64,
            }
        }
        other => to_f64(other, diag)?.round() as i64,
    })
}

pub fn to_u64(v: &Value, diag: &mut Diagnostics) -> Option<u64> {
    Some(match v {
        Value::UInt(u) => *u,
        other => to_i64(other, diag)?.max(0) as u64,
    })
}

pub fn to_decimal(v: &Value, diag: &mut Diagnostics) -> Option<BigDecimal> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => BigDecimal::from(*i),
        Value::UInt(u) => BigDecimal::from(*u),
        Value::Decimal(d) => (**d).clone(),
        Value::Bytes(b) => {
            BigDecimal::from_str(String::from_utf8_lossy(b).trim()).unwrap_or_else(|_| {
                BigDecimal::from_str(&to_f64(v, diag).unwrap_or(0.0).to_string())
                    .unwrap_or_default()
            })
        }
        other => BigDecimal::from_str(&to_f64(other, diag)?.to_string()).unwrap_or_default(),
    })
}

pub fn to_bool(v: &Value, diag: &mut Diagnostics) -> Option<bool> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => *i != 0,
        Value::UInt(u) => *u != 0,
        other => to_f64(other, diag)? != 0.0,
    })
}

pub fn to_bytes(v: &Value) -> Cow<'_, [u8]> {
    match v {
        Value::Bytes(b) => Cow::Borrowed(b),
        other => {
            let mut out = Vec::new();
            let ty = match other {
                Value::DateTime(d) if d.micro != 0 => SqlType::DateTime { fsp: 6 },
                _ => SqlType::Null,
            };
            to_text(other, &ty, &mut out);
            Cow::Owned(out)
        }
    }
}

pub fn to_datetime(v: &Value, _diag: &mut Diagnostics) -> Option<DateTime> {
    match v {
        Value::Date(d) | Value::DateTime(d) => Some(*d),
        _ => None,
    }
}

pub fn to_time(v: &Value, _diag: &mut Diagnostics) -> Option<Time> {
    match v {
        Value::Time(t) => Some(*t),
        _ => None,
    }
}

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
    Ok(match ty {
        SqlType::Int {
            width, unsigned, ..
        } => {
            let f = to_f64(&v, diag).unwrap_or(0.0);
            let (lo, hi) = width.range(*unsigned);
            let i = match &v {
                Value::Int(i) => *i as i128,
                Value::UInt(u) => *u as i128,
                _ => f.round() as i128,
            };
            if i < lo || i > hi {
                if strict {
                    return Err(MyError::new(
                        1264,
                        format!("Out of range value for column '{col}' at row {row}"),
                    ));
                }
                diag.warn(
                    1264,
                    format!("Out of range value for column '{col}' at row {row}"),
                );
            }
            let i = i.clamp(lo, hi);
            if *unsigned {
                Value::UInt(i as u64)
            } else {
                Value::Int(i as i64)
            }
        }
        SqlType::Bool | SqlType::Year | SqlType::Bit { .. } => {
            Value::Int(to_i64(&v, diag).unwrap_or(0))
        }
        SqlType::Double { .. } => Value::Double(to_f64(&v, diag).unwrap_or(0.0)),
        SqlType::Float { .. } => Value::Float(to_f64(&v, diag).unwrap_or(0.0) as f32),
        SqlType::Decimal { scale, .. } => Value::decimal(
            to_decimal(&v, diag)
                .unwrap_or_default()
                .with_scale(*scale as i64),
        ),
        SqlType::Char { len, .. } | SqlType::VarChar { len, .. } => {
            let b = to_bytes(&v).into_owned();
            let s = String::from_utf8_lossy(&b).into_owned();
            if s.chars().count() > *len as usize {
                if strict {
                    return Err(MyError::new(
                        1406,
                        format!("Data too long for column '{col}' at row {row}"),
                    ));
                }
                diag.warn(
                    1265,
                    format!("Data truncated for column '{col}' at row {row}"),
                );
                let t: String = s.chars().take(*len as usize).collect();
                return Ok(Value::from_string(t));
            }
            if matches!(ty, SqlType::Char { .. }) {
                return Ok(Value::str(s.trim_end_matches(' ')));
            }
            Value::from_vec(b)
        }
        t if t.is_string() => Value::from_vec(to_bytes(&v).into_owned()),
        _ => v,
    })
}
