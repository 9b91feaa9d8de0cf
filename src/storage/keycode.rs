//! Memcomparable key encoding (interim version; see the full specification when it lands).
//!
//! NULL → 0x00; otherwise 0x01 then: signed ints big-endian with the sign bit flipped,
//! unsigned big-endian, doubles with the sign trick, strings as escape-terminated weight keys.

use crate::sql::types::SqlType;
use crate::sql::value::Value;

pub fn encode(v: &Value, ty: &SqlType, out: &mut Vec<u8>) {
    encode_prefix(v, ty, usize::MAX, out)
}

pub fn encode_prefix(v: &Value, ty: &SqlType, prefix_chars: usize, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.push(0),
        Value::Int(i) => {
            out.push(1);
            if ty.is_unsigned() {
                out.extend_from_slice(&(*i as u64).to_be_bytes());
            } else {
                out.extend_from_slice(&((*i as u64) ^ (1 << 63)).to_be_bytes());
            }
        }
        Value::UInt(u) => {
            out.push(1);
            if ty.is_unsigned() {
                out.extend_from_slice(&u.to_be_bytes());
            } else {
                out.extend_from_slice(&(u ^ (1 << 63)).to_be_bytes());
            }
        }
        Value::Float(f) => encode_f64(*f as f64, out),
        Value::Double(f) => encode_f64(*f, out),
        Value::Decimal(d) => {
            // Interim: via f64 (lossy). Replaced by an exact encoding.
            use bigdecimal::ToPrimitive;
            encode_f64(d.to_f64().unwrap_or(0.0), out)
        }
        Value::Bytes(b) => {
            out.push(1);
            let coll = ty.collation();
            let mut s: &[u8] = b;
            if prefix_chars != usize::MAX {
                let mut chars = 0;
                let mut end = s.len();
                for (i, _) in String::from_utf8_lossy(s).char_indices() {
                    if chars == prefix_chars {
                        end = i;
                        break;
                    }
                    chars += 1;
                }
                s = &s[..end.min(s.len())];
            }
            if coll.pad_space() {
                while let [rest @ .., b' '] = s {
                    s = rest;
                }
            }
            for &c in s {
                let c = if coll.is_ci() {
                    c.to_ascii_uppercase()
                } else {
                    c
                };
                if c == 0 {
                    out.extend_from_slice(&[0, 0xff]);
                } else {
                    out.push(c);
                }
            }
            out.extend_from_slice(&[0, 0]);
        }
        Value::Date(d) | Value::DateTime(d) => {
            out.push(1);
            out.extend_from_slice(&d.year.to_be_bytes());
            out.extend_from_slice(&[d.month, d.day, d.hour, d.minute, d.second]);
            out.extend_from_slice(&d.micro.to_be_bytes());
        }
        Value::Time(t) => {
            out.push(1);
            out.extend_from_slice(&((t.micros as u64) ^ (1 << 63)).to_be_bytes());
        }
    }
}

fn encode_f64(f: f64, out: &mut Vec<u8>) {
    out.push(1);
    let f = if f == 0.0 { 0.0 } else { f };
    let bits = f.to_bits();
    let enc = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    out.extend_from_slice(&enc.to_be_bytes());
}

/// The smallest key greater than every key that starts with `key`.
pub fn prefix_successor(key: &[u8]) -> Option<Vec<u8>> {
    let mut k = key.to_vec();
    while let Some(last) = k.pop() {
        if last < 0xff {
            k.push(last + 1);
            return Some(k);
        }
    }
    None
}
