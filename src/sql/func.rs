//! Built-in functions: name lookup, result types, evaluation.
//!
//! Functions are resolved at bind time to a [`Func`] (a plain enum, so calling one is a
//! `match`, not a string lookup). Arguments are evaluated here rather than by the caller so
//! that the control-flow functions (`IF`, `IFNULL`, `COALESCE`, `NULLIF`) can be lazy, as in
//! MySQL. Functions that read the session (`DATABASE()`, `LAST_INSERT_ID()`, `NOW()`…) read
//! it through [`Env`]; `NOW()` is the statement's start time, constant within a statement.

use super::collation;
use super::convert;
use super::expr::{Env, Expr, round_half_up};
use super::types::{Collation, IntWidth, SqlType};
use super::value::{Row, Value};
use crate::error::{MyError, Result, code};
use bigdecimal::{BigDecimal, ToPrimitive};

/// CAST/CONVERT targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastTo {
    Signed,
    Unsigned,
    Char(Option<u32>),
    Binary(Option<u32>),
    Decimal(u8, u8),
    Double,
    Float,
    Date,
    DateTime(u8),
    Time(u8),
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    // control flow (lazy)
    If,
    IfNull,
    NullIf,
    Coalesce,
    // strings
    Concat,
    ConcatWs,
    Length,
    CharLength,
    Upper,
    Lower,
    Substring,
    Left,
    Right,
    Trim,
    LTrim,
    RTrim,
    Replace,
    Locate,
    Instr,
    Lpad,
    Rpad,
    Repeat,
    Reverse,
    Space,
    Hex,
    Ascii,
    // numbers
    Abs,
    Round,
    Truncate,
    Floor,
    Ceil,
    Mod,
    Pow,
    Sqrt,
    Sign,
    Greatest,
    Least,
    Rand,
    // time
    Now,
    CurDate,
    CurTime,
    UnixTimestamp,
    // session
    Database,
    User,
    CurrentUser,
    Version,
    ConnectionId,
    LastInsertId,
    FoundRows,
    RowCount,
    Uuid,
    Sleep,
    Cast(CastTo),
    /// `VALUES(col)` in ON DUPLICATE KEY UPDATE is bound to a column of the inserted row;
    /// this never reaches evaluation.
    Values,
}

impl Func {
    pub fn lookup(name: &str) -> Option<Func> {
        Some(match name.to_ascii_lowercase().as_str() {
            "if" => Func::If,
            "ifnull" => Func::IfNull,
            "nullif" => Func::NullIf,
            "coalesce" => Func::Coalesce,
            "concat" => Func::Concat,
            "concat_ws" => Func::ConcatWs,
            "length" | "octet_length" => Func::Length,
            "char_length" | "character_length" => Func::CharLength,
            "upper" | "ucase" => Func::Upper,
            "lower" | "lcase" => Func::Lower,
            "substring" | "substr" | "mid" => Func::Substring,
            "left" => Func::Left,
            "right" => Func::Right,
            "trim" => Func::Trim,
            "ltrim" => Func::LTrim,
            "rtrim" => Func::RTrim,
            "replace" => Func::Replace,
            "locate" | "position" => Func::Locate,
            "instr" => Func::Instr,
            "lpad" => Func::Lpad,
            "rpad" => Func::Rpad,
            "repeat" => Func::Repeat,
            "reverse" => Func::Reverse,
            "space" => Func::Space,
            "hex" => Func::Hex,
            "ascii" => Func::Ascii,
            "abs" => Func::Abs,
            "round" => Func::Round,
            "truncate" => Func::Truncate,
            "floor" => Func::Floor,
            "ceil" | "ceiling" => Func::Ceil,
            "mod" => Func::Mod,
            "pow" | "power" => Func::Pow,
            "sqrt" => Func::Sqrt,
            "sign" => Func::Sign,
            "greatest" => Func::Greatest,
            "least" => Func::Least,
            "rand" => Func::Rand,
            "now" | "current_timestamp" | "localtime" | "localtimestamp" | "sysdate" => Func::Now,
            "curdate" | "current_date" => Func::CurDate,
            "curtime" | "current_time" => Func::CurTime,
            "unix_timestamp" => Func::UnixTimestamp,
            "database" | "schema" => Func::Database,
            "user" | "session_user" | "system_user" => Func::User,
            "current_user" => Func::CurrentUser,
            "version" => Func::Version,
            "connection_id" => Func::ConnectionId,
            "last_insert_id" => Func::LastInsertId,
            "found_rows" => Func::FoundRows,
            "row_count" => Func::RowCount,
            "uuid" => Func::Uuid,
            "sleep" => Func::Sleep,
            "values" => Func::Values,
            _ => return None,
        })
    }

    /// Allowed argument counts (min, max).
    pub fn arity(self) -> (usize, usize) {
        use Func::*;
        match self {
            If => (3, 3),
            IfNull | NullIf => (2, 2),
            Coalesce | Concat => (1, usize::MAX),
            ConcatWs | Greatest | Least => (2, usize::MAX),
            Length | CharLength | Upper | Lower | Trim | LTrim | RTrim | Reverse | Space | Hex
            | Ascii => (1, 1),
            Substring => (2, 3),
            Left | Right | Repeat | Instr | Mod | Pow => (2, 2),
            Replace | Lpad | Rpad => (3, 3),
            Locate => (2, 3),
            Abs | Floor | Ceil | Sqrt | Sign => (1, 1),
            Round => (1, 2),
            Truncate => (2, 2),
            Rand => (0, 1),
            Now | CurTime => (0, 1),
            CurDate | Database | User | CurrentUser | Version | ConnectionId | FoundRows
            | RowCount | Uuid => (0, 0),
            UnixTimestamp | LastInsertId => (0, 1),
            Sleep | Values => (1, 1),
            Cast(_) => (1, 1),
        }
    }

    /// Same result for the same arguments throughout a statement (usable in index keys).
    pub fn is_deterministic_in_statement(self) -> bool {
        !matches!(self, Func::Rand | Func::Uuid | Func::Sleep)
    }

    /// Result type given the argument types.
    pub fn result_type(self, args: &[SqlType]) -> SqlType {
        use Func::*;
        let first = args.first().cloned().unwrap_or(SqlType::Null);
        match self {
            If => args.get(1).cloned().unwrap_or(SqlType::Null),
            IfNull | NullIf | Coalesce | Greatest | Least => first,
            Concat | ConcatWs | Upper | Lower | Substring | Left | Right | Trim | LTrim | RTrim
            | Replace | Lpad | Rpad | Repeat | Reverse | Space | Hex => SqlType::varchar(
                args.iter()
                    .map(|t| t.char_len())
                    .sum::<u32>()
                    .clamp(1, 65535),
            ),
            Length | CharLength | Locate | Instr | Ascii | ConnectionId | FoundRows | RowCount
            | Sign | Sleep => SqlType::BIGINT,
            LastInsertId => SqlType::BIGINT_UNSIGNED,
            Abs | Mod => first,
            Round | Truncate | Floor | Ceil => match first {
                SqlType::Double { .. } | SqlType::Float { .. } => SqlType::DOUBLE,
                SqlType::Decimal {
                    precision, scale, ..
                } if matches!(self, Round | Truncate) => SqlType::Decimal {
                    precision,
                    scale,
                    unsigned: false,
                },
                t if t.is_integer() => SqlType::BIGINT,
                t if t.is_string() => SqlType::DOUBLE,
                _ => SqlType::Decimal {
                    precision: 65,
                    scale: 0,
                    unsigned: false,
                },
            },
            Pow | Sqrt | Rand => SqlType::DOUBLE,
            Now => SqlType::DateTime { fsp: 0 },
            CurDate => SqlType::Date,
            CurTime => SqlType::Time { fsp: 0 },
            UnixTimestamp => SqlType::BIGINT,
            Database | User | CurrentUser | Version => SqlType::varchar(64),
            Uuid => SqlType::varchar(36),
            Values => first,
            Cast(t) => match t {
                CastTo::Signed => SqlType::BIGINT,
                CastTo::Unsigned => SqlType::BIGINT_UNSIGNED,
                CastTo::Char(n) => SqlType::VarChar {
                    len: n.unwrap_or(255),
                    collation: Collation::DEFAULT,
                },
                CastTo::Binary(n) => SqlType::VarBinary {
                    len: n.unwrap_or(255),
                },
                CastTo::Decimal(p, s) => SqlType::Decimal {
                    precision: p,
                    scale: s,
                    unsigned: false,
                },
                CastTo::Double => SqlType::DOUBLE,
                CastTo::Float => SqlType::Float { unsigned: false },
                CastTo::Date => SqlType::Date,
                CastTo::DateTime(fsp) => SqlType::DateTime { fsp },
                CastTo::Time(fsp) => SqlType::Time { fsp },
                CastTo::Json => SqlType::Json,
            },
        }
    }
}

fn arg(args: &[Expr], i: usize, rows: &[Row], env: &mut Env) -> Result<Value> {
    match args.get(i) {
        Some(e) => e.eval(rows, env),
        None => Ok(Value::Null),
    }
}

fn bytes_arg(args: &[Expr], i: usize, rows: &[Row], env: &mut Env) -> Result<Option<Vec<u8>>> {
    let v = arg(args, i, rows, env)?;
    Ok(if v.is_null() {
        None
    } else {
        Some(convert::to_bytes(&v).into_owned())
    })
}

fn int_arg(args: &[Expr], i: usize, rows: &[Row], env: &mut Env) -> Result<Option<i64>> {
    let v = arg(args, i, rows, env)?;
    Ok(convert::to_i64(&v, &mut env.ctx.diag))
}

fn chars(b: &[u8]) -> Vec<&str> {
    match std::str::from_utf8(b) {
        Ok(s) => {
            let mut out = Vec::with_capacity(s.len());
            let mut idx = s.char_indices().peekable();
            while let Some((i, c)) = idx.next() {
                out.push(&s[i..i + c.len_utf8()]);
            }
            out
        }
        Err(_) => b.iter().map(|_| "?").collect(),
    }
}

/// Upper bound on the size of a string built by a function (MySQL's max_allowed_packet
/// check; results above it are NULL with a warning).
const STRING_RESULT_MAX_BYTES: usize = 64 << 20;

fn too_big(env: &mut Env, f: &str) -> Value {
    env.ctx.diag.warn(
        code::ER_WARN_ALLOWED_PACKET_OVERFLOWED,
        format!("Result of {f}() was larger than max_allowed_packet ({STRING_RESULT_MAX_BYTES}) - truncated"),
    );
    Value::Null
}

pub fn call(f: Func, args: &[Expr], rows: &[Row], env: &mut Env) -> Result<Value> {
    use Func::*;
    Ok(match f {
        If => {
            let c = args[0].eval_bool(rows, env)?;
            if c == Some(true) {
                arg(args, 1, rows, env)?
            } else {
                arg(args, 2, rows, env)?
            }
        }
        IfNull => {
            let v = arg(args, 0, rows, env)?;
            if v.is_null() {
                arg(args, 1, rows, env)?
            } else {
                v
            }
        }
        NullIf => {
            let a = arg(args, 0, rows, env)?;
            let b = arg(args, 1, rows, env)?;
            if super::compare::compare(&a, &b, Collation::DEFAULT)
                == Some(std::cmp::Ordering::Equal)
            {
                Value::Null
            } else {
                a
            }
        }
        Coalesce => {
            for a in args {
                let v = a.eval(rows, env)?;
                if !v.is_null() {
                    return Ok(v);
                }
            }
            Value::Null
        }
        Concat => {
            let mut out = Vec::new();
            for i in 0..args.len() {
                match bytes_arg(args, i, rows, env)? {
                    Some(b) => out.extend_from_slice(&b),
                    None => return Ok(Value::Null),
                }
                if out.len() > STRING_RESULT_MAX_BYTES {
                    return Ok(too_big(env, "concat"));
                }
            }
            Value::from_vec(out)
        }
        ConcatWs => {
            let Some(sep) = bytes_arg(args, 0, rows, env)? else {
                return Ok(Value::Null);
            };
            let mut out = Vec::new();
            let mut first = true;
            for i in 1..args.len() {
                if let Some(b) = bytes_arg(args, i, rows, env)? {
                    if !first {
                        out.extend_from_slice(&sep);
                    }
                    first = false;
                    out.extend_from_slice(&b);
                }
                if out.len() > STRING_RESULT_MAX_BYTES {
                    return Ok(too_big(env, "concat_ws"));
                }
            }
            Value::from_vec(out)
        }
        Length => match bytes_arg(args, 0, rows, env)? {
            Some(b) => Value::Int(b.len() as i64),
            None => Value::Null,
        },
        CharLength => match bytes_arg(args, 0, rows, env)? {
            Some(b) => Value::Int(collation::char_len(&b) as i64),
            None => Value::Null,
        },
        Upper => match bytes_arg(args, 0, rows, env)? {
            Some(b) => Value::from_vec(collation::upper(&b)),
            None => Value::Null,
        },
        Lower => match bytes_arg(args, 0, rows, env)? {
            Some(b) => Value::from_vec(collation::lower(&b)),
            None => Value::Null,
        },
        Substring => {
            let Some(s) = bytes_arg(args, 0, rows, env)? else {
                return Ok(Value::Null);
            };
            let Some(pos) = int_arg(args, 1, rows, env)? else {
                return Ok(Value::Null);
            };
            let len = if args.len() > 2 {
                match int_arg(args, 2, rows, env)? {
                    Some(l) => Some(l),
                    None => return Ok(Value::Null),
                }
            } else {
                None
            };
            let cs = chars(&s);
            let n = cs.len() as i64;
            let start = if pos > 0 {
                pos - 1
            } else if pos < 0 {
                n + pos
            } else {
                return Ok(Value::str(""));
            };
            if start < 0 || start >= n {
                return Ok(Value::str(""));
            }
            let end = match len {
                Some(l) if l <= 0 => return Ok(Value::str("")),
                Some(l) => (start.saturating_add(l)).min(n),
                None => n,
            };
            Value::str(&cs[start as usize..end as usize].concat())
        }
        Left | Right => {
            let Some(s) = bytes_arg(args, 0, rows, env)? else {
                return Ok(Value::Null);
            };
            let Some(n) = int_arg(args, 1, rows, env)? else {
                return Ok(Value::Null);
            };
            let cs = chars(&s);
            let n = n.clamp(0, cs.len() as i64) as usize;
            if f == Left {
                Value::str(&cs[..n].concat())
            } else {
                Value::str(&cs[cs.len() - n..].concat())
            }
        }
        Trim | LTrim | RTrim => {
            let Some(s) = bytes_arg(args, 0, rows, env)? else {
                return Ok(Value::Null);
            };
            let mut b: &[u8] = &s;
            if f != RTrim {
                while let [b' ', rest @ ..] = b {
                    b = rest;
                }
            }
            if f != LTrim {
                while let [rest @ .., b' '] = b {
                    b = rest;
                }
            }
            Value::bytes(b)
        }
        Replace => {
            let Some(s) = bytes_arg(args, 0, rows, env)? else {
                return Ok(Value::Null);
            };
            let Some(from) = bytes_arg(args, 1, rows, env)? else {
                return Ok(Value::Null);
            };
            let Some(to) = bytes_arg(args, 2, rows, env)? else {
                return Ok(Value::Null);
            };
            if from.is_empty() {
                return Ok(Value::from_vec(s));
            }
            let mut out = Vec::with_capacity(s.len());
            let mut i = 0;
            while i < s.len() {
                if s[i..].starts_with(&from) {
                    out.extend_from_slice(&to);
                    i += from.len();
                    if out.len() > STRING_RESULT_MAX_BYTES {
                        return Ok(too_big(env, "replace"));
                    }
                } else {
                    out.push(s[i]);
                    i += 1;
                }
            }
            Value::from_vec(out)
        }
        Locate | Instr => {
            // LOCATE(substr, str[, pos]); INSTR(str, substr)
            let (a, b) = if f == Instr { (1, 0) } else { (0, 1) };
            let Some(sub) = bytes_arg(args, a, rows, env)? else {
                return Ok(Value::Null);
            };
            let Some(s) = bytes_arg(args, b, rows, env)? else {
                return Ok(Value::Null);
            };
            let start = if args.len() > 2 {
                int_arg(args, 2, rows, env)?.unwrap_or(1)
            } else {
                1
            };
            let hay = chars(&s);
            let needle = chars(&sub);
            if start < 1 {
                return Ok(Value::Int(0));
            }
            let lower = |v: &[&str]| v.iter().map(|c| c.to_lowercase()).collect::<Vec<_>>();
            let (h, n) = (lower(&hay), lower(&needle));
            let from = (start - 1) as usize;
            if n.is_empty() {
                return Ok(Value::Int(if from <= h.len() { start } else { 0 }));
            }
            for i in from..h.len() {
                if h.len() - i >= n.len() && h[i..i + n.len()] == n[..] {
                    return Ok(Value::Int(i as i64 + 1));
                }
            }
            Value::Int(0)
        }
        Lpad | Rpad => {
            let Some(s) = bytes_arg(args, 0, rows, env)? else {
                return Ok(Value::Null);
            };
            let Some(n) = int_arg(args, 1, rows, env)? else {
                return Ok(Value::Null);
            };
            let Some(pad) = bytes_arg(args, 2, rows, env)? else {
                return Ok(Value::Null);
            };
            if n < 0 {
                return Ok(Value::Null);
            }
            let n = n as usize;
            if n > STRING_RESULT_MAX_BYTES {
                return Ok(too_big(env, if f == Lpad { "lpad" } else { "rpad" }));
            }
            let cs = chars(&s);
            if cs.len() >= n {
                return Ok(Value::str(&cs[..n].concat()));
            }
            let pc = chars(&pad);
            if pc.is_empty() {
                return Ok(Value::Null);
            }
            let fill: String = (0..n - cs.len()).map(|i| pc[i % pc.len()]).collect();
            let body = cs.concat();
            Value::from_string(if f == Lpad {
                fill + &body
            } else {
                body + &fill
            })
        }
        Repeat => {
            let Some(s) = bytes_arg(args, 0, rows, env)? else {
                return Ok(Value::Null);
            };
            let Some(n) = int_arg(args, 1, rows, env)? else {
                return Ok(Value::Null);
            };
            let n = n.max(0) as usize;
            if s.len().saturating_mul(n) > STRING_RESULT_MAX_BYTES {
                return Ok(too_big(env, "repeat"));
            }
            Value::from_vec(s.repeat(n))
        }
        Reverse => match bytes_arg(args, 0, rows, env)? {
            Some(b) => Value::str(&chars(&b).into_iter().rev().collect::<String>()),
            None => Value::Null,
        },
        Space => match int_arg(args, 0, rows, env)? {
            Some(n) if (n.max(0) as usize) <= STRING_RESULT_MAX_BYTES => {
                Value::from_vec(vec![b' '; n.max(0) as usize])
            }
            Some(_) => too_big(env, "space"),
            None => Value::Null,
        },
        Hex => {
            let v = arg(args, 0, rows, env)?;
            match v {
                Value::Null => Value::Null,
                Value::Int(_)
                | Value::UInt(_)
                | Value::Double(_)
                | Value::Float(_)
                | Value::Decimal(_) => match convert::to_u64(&v, &mut env.ctx.diag) {
                    Some(u) => Value::from_string(format!("{u:X}")),
                    None => Value::Null,
                },
                other => Value::from_string(
                    convert::to_bytes(&other)
                        .iter()
                        .map(|b| format!("{b:02X}"))
                        .collect(),
                ),
            }
        }
        Ascii => match bytes_arg(args, 0, rows, env)? {
            Some(b) => Value::Int(b.first().copied().unwrap_or(0) as i64),
            None => Value::Null,
        },
        Abs => match arg(args, 0, rows, env)? {
            Value::Null => Value::Null,
            Value::Int(i) => match i.checked_abs() {
                Some(a) => Value::Int(a),
                None => {
                    return Err(MyError::new(
                        code::ER_DATA_OUT_OF_RANGE,
                        format!("BIGINT value is out of range in 'abs({i})'"),
                    ));
                }
            },
            Value::UInt(u) => Value::UInt(u),
            Value::Decimal(d) => Value::decimal(d.abs()),
            other => Value::Double(
                convert::to_f64(&other, &mut env.ctx.diag)
                    .unwrap_or(0.0)
                    .abs(),
            ),
        },
        Round | Truncate => {
            let v = arg(args, 0, rows, env)?;
            let places = if args.len() > 1 {
                match int_arg(args, 1, rows, env)? {
                    Some(p) => p.clamp(-30, 30),
                    None => return Ok(Value::Null),
                }
            } else {
                0
            };
            let mode = if f == Round {
                bigdecimal::RoundingMode::HalfUp
            } else {
                bigdecimal::RoundingMode::Down
            };
            match v {
                Value::Null => Value::Null,
                Value::Int(i) if places >= 0 => Value::Int(i),
                Value::UInt(u) if places >= 0 => Value::UInt(u),
                Value::Int(_) | Value::UInt(_) | Value::Decimal(_) => {
                    let d = convert::to_decimal(&v, &mut env.ctx.diag).unwrap_or_default();
                    let r = d.with_scale_round(places, mode);
                    if matches!(v, Value::Decimal(_)) {
                        Value::decimal(r.with_scale(places.max(0)))
                    } else {
                        Value::Int(r.to_i64().unwrap_or(0))
                    }
                }
                other => {
                    let x = convert::to_f64(&other, &mut env.ctx.diag).unwrap_or(0.0);
                    let m = 10f64.powi(places as i32);
                    let r = if f == Round {
                        let y = x * m;
                        // Round half away from zero, with the exact-decimal check MySQL uses.
                        (if y >= 0.0 {
                            (y + 0.5).floor()
                        } else {
                            (y - 0.5).ceil()
                        }) / m
                    } else {
                        (x * m).trunc() / m
                    };
                    Value::Double(r)
                }
            }
        }
        Floor | Ceil => match arg(args, 0, rows, env)? {
            Value::Null => Value::Null,
            v @ (Value::Int(_) | Value::UInt(_)) => v,
            Value::Decimal(d) => {
                let mode = if f == Floor {
                    bigdecimal::RoundingMode::Floor
                } else {
                    bigdecimal::RoundingMode::Ceiling
                };
                let r = d.with_scale_round(0, mode);
                match r.to_i64() {
                    Some(i) => Value::Int(i),
                    None => Value::decimal(r),
                }
            }
            other => {
                let x = convert::to_f64(&other, &mut env.ctx.diag).unwrap_or(0.0);
                Value::Double(if f == Floor { x.floor() } else { x.ceil() })
            }
        },
        Mod => {
            let a = arg(args, 0, rows, env)?;
            let b = arg(args, 1, rows, env)?;
            if a.is_null() {
                return Ok(Value::Null);
            }
            super::expr::arith(super::expr::ArithOp::Mod, a, b, env)?
        }
        Pow => {
            let a = arg(args, 0, rows, env)?;
            let b = arg(args, 1, rows, env)?;
            match (
                convert::to_f64(&a, &mut env.ctx.diag),
                convert::to_f64(&b, &mut env.ctx.diag),
            ) {
                (Some(x), Some(y)) => {
                    let r = x.powf(y);
                    if !r.is_finite() {
                        return Err(MyError::new(
                            code::ER_DATA_OUT_OF_RANGE,
                            format!("DOUBLE value is out of range in 'pow({x},{y})'"),
                        ));
                    }
                    Value::Double(r)
                }
                _ => Value::Null,
            }
        }
        Sqrt => match convert::to_f64(&arg(args, 0, rows, env)?, &mut env.ctx.diag) {
            Some(x) if x >= 0.0 => Value::Double(x.sqrt()),
            _ => Value::Null,
        },
        Sign => match convert::to_f64(&arg(args, 0, rows, env)?, &mut env.ctx.diag) {
            Some(x) => Value::Int(if x > 0.0 {
                1
            } else if x < 0.0 {
                -1
            } else {
                0
            }),
            None => Value::Null,
        },
        Greatest | Least => {
            let mut best: Option<Value> = None;
            for a in args {
                let v = a.eval(rows, env)?;
                if v.is_null() {
                    return Ok(Value::Null);
                }
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let o = super::compare::compare(&v, &b, Collation::DEFAULT)
                            .unwrap_or(std::cmp::Ordering::Equal);
                        let take = if f == Greatest {
                            o == std::cmp::Ordering::Greater
                        } else {
                            o == std::cmp::Ordering::Less
                        };
                        if take { v } else { b }
                    }
                });
            }
            best.unwrap_or(Value::Null)
        }
        Rand => Value::Double(rand::random::<f64>()),
        Now => {
            let fsp = int_arg(args, 0, rows, env)?.unwrap_or(0).clamp(0, 6) as u32;
            let mut dt = env.ctx.stmt_time();
            let unit = 10u32.pow(6 - fsp);
            dt.micro = dt.micro / unit * unit;
            Value::DateTime(dt)
        }
        CurDate => Value::Date(env.ctx.stmt_time().date_part()),
        CurTime => {
            let dt = env.ctx.stmt_time();
            Value::Time(super::value::Time {
                micros: ((dt.hour as i64 * 60 + dt.minute as i64) * 60 + dt.second as i64)
                    * 1_000_000,
            })
        }
        UnixTimestamp => {
            if args.is_empty() {
                Value::Int(env.ctx.stmt_unix_micros() / 1_000_000)
            } else {
                return Err(MyError::not_supported("UNIX_TIMESTAMP(expr)"));
            }
        }
        Database => match &env.ctx.db {
            Some(d) => Value::str(d),
            None => Value::Null,
        },
        User => Value::from_string(format!("{}@{}", env.ctx.user, env.ctx.host)),
        CurrentUser => Value::from_string(format!("{}@{}", env.ctx.priv_user, env.ctx.priv_host)),
        Version => Value::str(&env.ctx.server.version),
        ConnectionId => Value::Int(env.ctx.conn_id as i64),
        LastInsertId => {
            if args.is_empty() {
                Value::UInt(env.ctx.last_insert_id)
            } else {
                let v = arg(args, 0, rows, env)?;
                let id = convert::to_u64(&v, &mut env.ctx.diag).unwrap_or(0);
                env.ctx.last_insert_id = id;
                env.ctx.last_insert_id_set_explicitly = true;
                v
            }
        }
        FoundRows => Value::UInt(env.ctx.found_rows),
        RowCount => Value::Int(env.ctx.prev_row_count),
        Uuid => {
            let b: [u8; 16] = rand::random();
            let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
            Value::from_string(format!(
                "{}-{}-{}-{}-{}",
                &h[0..8],
                &h[8..12],
                &h[12..16],
                &h[16..20],
                &h[20..32]
            ))
        }
        Sleep => {
            let v = arg(args, 0, rows, env)?;
            let secs = convert::to_f64(&v, &mut env.ctx.diag)
                .unwrap_or(0.0)
                .clamp(0.0, 3.15e7);
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(secs);
            // Sleep in slices so KILL QUERY takes effect promptly.
            loop {
                if env.ctx.is_killed() {
                    return Ok(Value::Int(1));
                }
                let now = std::time::Instant::now();
                if now >= deadline {
                    break;
                }
                let slice = (deadline - now).min(std::time::Duration::from_millis(10));
                tokio::task::block_in_place(|| std::thread::sleep(slice));
            }
            Value::Int(0)
        }
        Cast(to) => cast(arg(args, 0, rows, env)?, to, env)?,
        Values => {
            return Err(MyError::internal(
                "VALUES() outside ON DUPLICATE KEY UPDATE",
            ));
        }
    })
}

/// CAST(v AS to), with MySQL's conversion warnings.
pub fn cast(v: Value, to: CastTo, env: &mut Env) -> Result<Value> {
    if v.is_null() {
        return Ok(Value::Null);
    }
    let diag = &mut env.ctx.diag;
    Ok(match to {
        CastTo::Signed => match v {
            Value::UInt(u) => Value::Int(u as i64),
            other => Value::Int(convert::to_i64(&other, diag).unwrap_or(0)),
        },
        CastTo::Unsigned => match v {
            Value::Int(i) => Value::UInt(i as u64),
            other => Value::UInt(convert::to_u64(&other, diag).unwrap_or(0)),
        },
        CastTo::Char(n) | CastTo::Binary(n) => {
            let b = convert::to_bytes(&v).into_owned();
            match n {
                Some(n) => {
                    let cs = chars(&b);
                    if cs.len() > n as usize {
                        diag.warn(
                            code::ER_TRUNCATED_WRONG_VALUE,
                            format!(
                                "Truncated incorrect CHAR({n}) value: '{}'",
                                String::from_utf8_lossy(&b)
                            ),
                        );
                        Value::str(&cs[..n as usize].concat())
                    } else {
                        Value::from_vec(b)
                    }
                }
                None => Value::from_vec(b),
            }
        }
        CastTo::Decimal(p, s) => {
            let d = convert::to_decimal(&v, diag).unwrap_or_default();
            let r = round_half_up(d, s as i64);
            let limit = BigDecimal::from(10u64).powi((p - s) as i64);
            if r.abs() >= limit {
                diag.warn(
                    code::ER_WARN_DATA_OUT_OF_RANGE,
                    "Out of range value for column 'cast' at row 1".to_string(),
                );
            }
            Value::decimal(r)
        }
        CastTo::Double => Value::Double(convert::to_f64(&v, diag).unwrap_or(0.0)),
        CastTo::Float => Value::Float(convert::to_f64(&v, diag).unwrap_or(0.0) as f32),
        CastTo::Date => match convert::to_datetime(&v, diag) {
            Some(d) => Value::Date(d.date_part()),
            None => Value::Null,
        },
        CastTo::DateTime(_) => match convert::to_datetime(&v, diag) {
            Some(d) => Value::DateTime(d),
            None => Value::Null,
        },
        CastTo::Time(_) => match convert::to_time(&v, diag) {
            Some(t) => Value::Time(t),
            None => Value::Null,
        },
        CastTo::Json => Value::from_vec(convert::to_bytes(&v).into_owned()),
    })
}

/// The integer type MySQL gives a literal of this magnitude (for metadata only).
pub fn int_literal_type(v: &Value) -> SqlType {
    let digits = match v {
        Value::Int(i) => i.unsigned_abs().to_string().len() as u32 + (*i < 0) as u32,
        Value::UInt(u) => u.to_string().len() as u32,
        _ => 1,
    };
    SqlType::Int {
        width: IntWidth::Big,
        unsigned: matches!(v, Value::UInt(_)),
        zerofill: false,
        display: Some(digits),
    }
}
