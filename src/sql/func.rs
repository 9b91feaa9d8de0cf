//! Built-in functions: name lookup, result types, evaluation.
//!
//! Functions are resolved at bind time to a [`Func`] (a plain enum, so calling one is a
//! `match`, not a string lookup). Arguments are evaluated here rather than by the caller so
//! that the control-flow functions (`IF`, `IFNULL`, `COALESCE`, `NULLIF`) can be lazy, as in
//! MySQL. Functions that read the session (`DATABASE()`, `LAST_INSERT_ID()`, `NOW()`…) read
//! it through [`Env`]; `NOW()` is the statement's start time, constant within a statement.

use super::builtins::{self, Builtin, FnCtx, TrimMode};
use super::convert;
use super::expr::{Env, Expr, round_half_up};
use super::types::{Collation, IntWidth, SqlType};
use super::value::{Row, Value};
use crate::error::{MyError, Result, code};
use bigdecimal::BigDecimal;

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
    // session
    Database,
    User,
    CurrentUser,
    Version,
    ConnectionId,
    LastInsertId,
    FoundRows,
    RowCount,
    Sleep,
    Cast(CastTo),
    /// `VALUES(col)` in ON DUPLICATE KEY UPDATE is bound to a column of the inserted row;
    /// this never reaches evaluation.
    Values,
    /// `TRIM([BOTH|LEADING|TRAILING] remstr FROM s)`: arguments (s, remstr).
    TrimWith(TrimMode),
    /// A DATETIME/TIMESTAMP/TIME argument with `fsp` fractional digits as the text a
    /// string function or CAST(… AS CHAR) sees (`CONCAT(dt3)` has 3 digits, as the column
    /// shows them; a bare value does not know its column's precision). Bound, not named.
    TemporalText(u8),
    /// Everything else: the function library (pure functions of their argument values).
    Builtin(BuiltinRef),
}

/// A library function, compared by identity, with the collation its string comparisons
/// use (bound from its arguments).
#[derive(Clone, Copy)]
pub struct BuiltinRef(pub &'static Builtin, pub Collation);

impl PartialEq for BuiltinRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for BuiltinRef {}

impl std::fmt::Debug for BuiltinRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

impl Func {
    pub fn lookup(name: &str) -> Option<Func> {
        Some(match name.to_ascii_lowercase().as_str() {
            "if" => Func::If,
            "ifnull" => Func::IfNull,
            "nullif" => Func::NullIf,
            "coalesce" => Func::Coalesce,
            "database" | "schema" => Func::Database,
            "user" | "session_user" | "system_user" => Func::User,
            "current_user" => Func::CurrentUser,
            "version" => Func::Version,
            "connection_id" => Func::ConnectionId,
            "last_insert_id" => Func::LastInsertId,
            "found_rows" => Func::FoundRows,
            "row_count" => Func::RowCount,
            "sleep" => Func::Sleep,
            "values" => Func::Values,
            other => {
                return builtins::lookup(other)
                    .map(|b| Func::Builtin(BuiltinRef(b, Collation::DEFAULT)));
            }
        })
    }

    /// The name errors use.
    pub fn name(self) -> String {
        match self {
            Func::Builtin(b) => b.0.name.to_string(),
            other => format!("{other:?}").to_ascii_lowercase(),
        }
    }

    /// Allowed argument counts (min, max).
    pub fn arity(self) -> (usize, usize) {
        use Func::*;
        match self {
            If => (3, 3),
            IfNull | NullIf => (2, 2),
            Coalesce => (1, usize::MAX),
            Database | User | CurrentUser | Version | ConnectionId | FoundRows | RowCount => (0, 0),
            LastInsertId => (0, 1),
            Sleep | Values | Cast(_) | TemporalText(_) => (1, 1),
            TrimWith(_) => (2, 2),
            Builtin(b) => (b.0.min_args, b.0.max_args),
        }
    }

    /// Same result for the same arguments throughout a statement (usable in index keys).
    pub fn is_deterministic_in_statement(self) -> bool {
        match self {
            Func::Sleep => false,
            Func::Builtin(b) => b.0.deterministic,
            _ => true,
        }
    }

    /// Result type given the argument types and the values of constant arguments.
    pub fn result_type(self, args: &[SqlType], consts: &[Option<Value>]) -> SqlType {
        use Func::*;
        let first = args.first().cloned().unwrap_or(SqlType::Null);
        match self {
            If => args.get(1).cloned().unwrap_or(SqlType::Null),
            IfNull | NullIf | Coalesce => first,
            TrimWith(_) => SqlType::varchar(first.char_len().clamp(1, 65535)),
            TemporalText(_) => SqlType::varchar(first.char_len().clamp(1, 65535)),
            ConnectionId | FoundRows | RowCount | Sleep => SqlType::BIGINT,
            LastInsertId => SqlType::BIGINT_UNSIGNED,
            Database | User | CurrentUser | Version => SqlType::varchar(64),
            Values => first,
            Builtin(b) => b.0.result_type(args, consts),
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

fn chars(b: &[u8]) -> Vec<&str> {
    match std::str::from_utf8(b) {
        Ok(s) => {
            let mut out = Vec::with_capacity(s.len());
            let idx = s.char_indices().peekable();
            for (i, c) in idx {
                out.push(&s[i..i + c.len_utf8()]);
            }
            out
        }
        Err(_) => b.iter().map(|_| "?").collect(),
    }
}

/// Call a library function: evaluate the arguments, then hand the values over.
fn call_builtin(
    b: &Builtin,
    coll: Collation,
    args: &[Expr],
    rows: &[Row],
    env: &mut Env,
) -> Result<Value> {
    let mut vals: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::with_capacity(args.len());
    for a in args {
        vals.push(a.eval(rows, env)?);
    }
    let ctx = &mut *env.ctx;
    let mut fcx = FnCtx {
        now_local: ctx.stmt_time(),
        now_unix_micros: ctx.stmt_unix_micros(),
        tz_offset_s: ctx.tz_offset_s,
        div_precision_increment: ctx.div_precision_increment,
        diag: &mut ctx.diag,
        coll,
    };
    (b.eval)(&vals, &mut fcx)
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
                crate::session::threads::blocking(|| std::thread::sleep(slice));
            }
            Value::Int(0)
        }
        Cast(to) => cast(arg(args, 0, rows, env)?, to, env)?,
        TemporalText(fsp) => temporal_text(arg(args, 0, rows, env)?, fsp),
        Builtin(b) => call_builtin(b.0, b.1, args, rows, env)?,
        TrimWith(mode) => {
            let s = arg(args, 0, rows, env)?;
            let r = arg(args, 1, rows, env)?;
            builtins::trim_with(&s, &r, mode)
        }
        Values => {
            return Err(MyError::internal(
                "VALUES() outside ON DUPLICATE KEY UPDATE",
            ));
        }
    })
}

/// A temporal value as text with `fsp` fractional digits (see [`Func::TemporalText`]);
/// anything else unchanged.
fn temporal_text(v: Value, fsp: u8) -> Value {
    let ty = match v {
        Value::DateTime(_) => SqlType::DateTime { fsp },
        Value::Time(_) => SqlType::Time { fsp },
        _ => return v,
    };
    let mut out = Vec::with_capacity(26);
    convert::to_text(&v, &ty, &mut out);
    Value::from_vec(out)
}

impl Func {
    /// Whether the call reads its arguments as strings: the string functions and
    /// CAST(… AS CHAR/BINARY). Their DATETIME/TIMESTAMP/TIME arguments with fractional
    /// seconds are bound through [`Func::TemporalText`].
    pub fn reads_text(self) -> bool {
        match self {
            Func::Cast(CastTo::Char(_) | CastTo::Binary(_)) => true,
            Func::Builtin(b) => builtins::is_string_function(b.0),
            _ => false,
        }
    }
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
                // MySQL gives the type's largest value of that sign (999.99 for (5,2)).
                let max = limit - BigDecimal::new(1.into(), s as i64);
                let negative = r.sign() == bigdecimal::num_bigint::Sign::Minus;
                return Ok(Value::decimal(if negative { -max } else { max }));
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
