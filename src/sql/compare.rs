//! Value comparison (interim version).

use super::collation;
use super::convert;
use super::types::Collation;
use super::value::Value;
use crate::error::Diagnostics;
use std::cmp::Ordering;

pub fn compare(a: &Value, b: &Value, coll: Collation) -> Option<Ordering> {
    use Value::*;
    Some(match (a, b) {
        (Null, _) | (_, Null) => return None,
        (Int(x), Int(y)) => x.cmp(y),
        (UInt(x), UInt(y)) => x.cmp(y),
        (Int(x), UInt(y)) => (*x as i128).cmp(&(*y as i128)),
        (UInt(x), Int(y)) => (*x as i128).cmp(&(*y as i128)),
        (Bytes(x), Bytes(y)) => collation::cmp(x, y, coll),
        (Date(x) | DateTime(x), Date(y) | DateTime(y)) => x.cmp(y),
        (Time(x), Time(y)) => x.cmp(y),
        (Decimal(x), Decimal(y)) => x.cmp(y),
        _ => {
            let mut d = Diagnostics::default();
            let x = convert::to_f64(a, &mut d)?;
            let y = convert::to_f64(b, &mut d)?;
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    })
}

pub fn sort_cmp(a: &Value, b: &Value, coll: Collation) -> Ordering {
    match (a.is_null(), b.is_null()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => compare(a, b, coll).unwrap_or(Ordering::Equal),
    }
}

pub fn group_key(v: &Value, coll: Collation, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.push(0),
        Value::Int(i) => {
            out.push(1);
            out.extend_from_slice(&(*i as i128).to_be_bytes());
        }
        Value::UInt(u) => {
            out.push(1);
            out.extend_from_slice(&(*u as i128).to_be_bytes());
        }
        Value::Bytes(b) => {
            out.push(2);
            collation::weight_key(b, coll, out);
            out.extend_from_slice(&[0, 0]);
        }
        other => {
            out.push(3);
            out.extend_from_slice(&convert::to_bytes(other));
            out.extend_from_slice(&[0, 0]);
        }
    }
}
