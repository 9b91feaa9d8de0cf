//! Mathematical functions (MySQL 8.0's `item_func.cc` semantics).
//!
//! Arguments are classified as MySQL classifies them by result type: integers stay exact
//! integers, DECIMALs stay exact decimals, everything else (DOUBLE, FLOAT, strings) is a
//! double. Temporals read as numbers (`20200102`, `20200102030405.5`).
//!
//! Rounding: `ROUND` on a DECIMAL or an integer rounds half away from zero and may take a
//! negative number of digits (`ROUND(1250, -2)` = 1300); on a DOUBLE it is MySQL's
//! `my_double_round`, i.e. C `rint` on the scaled value (half to even: `ROUND(2.5e0)` = 2,
//! `ROUND(0.125e0, 2)` = 0.12). Results that overflow a DOUBLE are errors (1690), as in
//! MySQL; a logarithm of a non-positive number is NULL with warning 3020; `SQRT` and
//! `ASIN`/`ACOS` outside their domain are NULL without a warning.
//!
//! `RAND(n)` is MySQL's own generator (`my_rnd`, seeded as `Item_func_rand::seed_random`),
//! so `RAND(1)` is 0.40540353712197724 as in MySQL. A call only sees its arguments, so
//! each `RAND(n)` call returns the *first* number of the sequence for `n` — what MySQL
//! returns for a non-constant seed and for the first row of a constant one; an evaluator
//! that wants MySQL's per-row sequence for a constant seed keeps a [`MyRnd`] per call site.
//!
//! `GREATEST`/`LEAST` compare as MySQL 8.0 aggregates the argument types (bug #83895 fix):
//! all integers → integers, any DOUBLE → doubles, any DECIMAL → decimals, a mix of numbers
//! and strings → strings (MariaDB compares that mix as numbers), all temporal → temporal.

use super::R;
use super::{
    Builtin, FnCtx, any_null, arg, bigint, char_len_of, const_int, f64_arg, int_arg, int_display,
    ret_double, text_type,
};
use crate::error::{MyError, code};
use crate::sql::collation;
use crate::sql::convert;
use crate::sql::temporal;
use crate::sql::types::{Collation, IntWidth, SqlType};
use crate::sql::value::{DateTime, Value};
use bigdecimal::num_bigint::Sign;
use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::sync::OnceLock;

/// `ER_INVALID_ARGUMENT_FOR_LOGARITHM` (not yet in `error::code`).
const ER_INVALID_ARGUMENT_FOR_LOGARITHM: u16 = 3020;

pub(super) static FUNCS: &[Builtin] = &[
    f!("abs", 1, 1, ret_abs, abs),
    f!("sign", 1, 1, |_, _| int_display(2), sign),
    f!("round", 1, 2, ret_round, round),
    f!("truncate", 2, 2, ret_truncate, truncate),
    f!("floor", 1, 1, ret_floor, floor),
    f!("ceil", 1, 1, ret_floor, ceil),
    f!("ceiling", 1, 1, ret_floor, ceil),
    f!("mod", 2, 2, ret_mod, mod_fn),
    f!("pow", 2, 2, ret_double, pow),
    f!("power", 2, 2, ret_double, pow),
    f!("sqrt", 1, 1, ret_double, sqrt),
    f!("exp", 1, 1, ret_double, exp),
    f!("ln", 1, 1, ret_double, ln),
    f!("log", 1, 2, ret_double, log),
    f!("log2", 1, 1, ret_double, log2),
    f!("log10", 1, 1, ret_double, log10),
    f!("pi", 0, 0, ret_double, pi),
    f!("sin", 1, 1, ret_double, sin),
    f!("cos", 1, 1, ret_double, cos),
    f!("tan", 1, 1, ret_double, tan),
    f!("asin", 1, 1, ret_double, asin),
    f!("acos", 1, 1, ret_double, acos),
    f!("atan", 1, 2, ret_double, atan),
    f!("atan2", 2, 2, ret_double, atan2),
    f!("cot", 1, 1, ret_double, cot),
    f!("degrees", 1, 1, ret_double, degrees),
    f!("radians", 1, 1, ret_double, radians),
    Builtin {
        name: "rand",
        min_args: 0,
        max_args: 1,
        ret: ret_double,
        eval: rand_fn,
        deterministic: false,
    },
    f!("greatest", 2, usize::MAX, ret_min_max, greatest),
    f!("least", 2, usize::MAX, ret_min_max, least),
    f!("crc32", 1, 1, ret_crc32, crc32),
    f!("bit_count", 1, 1, |_, _| bigint(2), bit_count),
];

// ---------------------------------------------------------------------------------------
// Classifying numbers.

/// A number as MySQL's numeric functions see it.
enum Num {
    Int(i128),
    Dec(BigDecimal),
    Dbl(f64),
}

fn num_of(v: &Value, ctx: &mut FnCtx) -> Option<Num> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => Num::Int(*i as i128),
        Value::UInt(u) => Num::Int(*u as i128),
        Value::Decimal(d) => Num::Dec((**d).clone()),
        Value::Date(_) => Num::Int(convert::to_i64(v, ctx.diag)? as i128),
        Value::DateTime(d) if d.micro == 0 => Num::Int(convert::to_i64(v, ctx.diag)? as i128),
        Value::Time(t) if t.micros % 1_000_000 == 0 => {
            Num::Int(convert::to_i64(v, ctx.diag)? as i128)
        }
        Value::DateTime(_) | Value::Time(_) => Num::Dec(convert::to_decimal(v, ctx.diag)?),
        Value::Float(_) | Value::Double(_) | Value::Bytes(_) => {
            Num::Dbl(convert::to_f64(v, ctx.diag)?)
        }
    })
}

/// An exact integer result: `Int` when it fits, then `UInt`, else an exact decimal.
fn int_value(i: i128) -> Value {
    if let Ok(v) = i64::try_from(i) {
        Value::Int(v)
    } else if let Ok(u) = u64::try_from(i) {
        Value::UInt(u)
    } else {
        Value::decimal(BigDecimal::from(i))
    }
}

fn out_of_range(kind: &str, expr: String) -> MyError {
    MyError::new(
        code::ER_DATA_OUT_OF_RANGE,
        format!("{kind} value is out of range in '{expr}'"),
    )
}

/// A double result, or MySQL's 1690 for infinities and NaN.
fn checked_double(x: f64, expr: impl FnOnce() -> String) -> R {
    if x.is_finite() {
        Ok(Value::Double(x))
    } else {
        Err(out_of_range("DOUBLE", expr()))
    }
}

fn show(v: &Value) -> String {
    convert::to_string_lossy(v)
}

// ---------------------------------------------------------------------------------------
// Result types.

fn numeric_kind(t: &SqlType) -> SqlType {
    match t {
        SqlType::Int { .. } => t.clone(),
        SqlType::Bool | SqlType::Year | SqlType::Bit { .. } => bigint(21),
        SqlType::Decimal { .. } => t.clone(),
        SqlType::Date => bigint(8),
        SqlType::DateTime { fsp: 0 } | SqlType::Timestamp { fsp: 0 } => bigint(14),
        SqlType::Time { fsp: 0 } => bigint(7),
        SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } => SqlType::Decimal {
            precision: 14 + fsp,
            scale: *fsp,
            unsigned: false,
        },
        SqlType::Time { fsp } => SqlType::Decimal {
            precision: 7 + fsp,
            scale: *fsp,
            unsigned: false,
        },
        _ => SqlType::DOUBLE,
    }
}

fn ret_abs(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    types.first().map_or(SqlType::DOUBLE, numeric_kind)
}

fn ret_round_impl(types: &[SqlType], consts: &[Option<Value>], truncate: bool) -> SqlType {
    let d = if types.len() > 1 {
        const_int(consts, 1)
    } else {
        Some(0)
    };
    match types.first().map(numeric_kind) {
        Some(
            t @ SqlType::Int {
                width, unsigned, ..
            },
        ) => match t {
            // A negative ROUND can add a digit: keep BIGINT for simplicity.
            _ if d.is_some_and(|d| d < 0) => SqlType::Int {
                width: IntWidth::Big,
                unsigned,
                zerofill: false,
                display: None,
            },
            _ => SqlType::Int {
                width,
                unsigned,
                zerofill: false,
                display: None,
            },
        },
        Some(SqlType::Decimal {
            precision, scale, ..
        }) => match d {
            Some(d) => {
                let target = d.clamp(0, 30);
                let delta = scale as i64 - target;
                let grow = (delta > 0 && !truncate) as i64;
                let p = (precision as i64 - delta + grow).clamp(target.max(1), 65);
                SqlType::Decimal {
                    precision: p as u8,
                    scale: target as u8,
                    unsigned: false,
                }
            }
            None => SqlType::Decimal {
                precision,
                scale,
                unsigned: false,
            },
        },
        _ => SqlType::DOUBLE,
    }
}

fn ret_round(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    ret_round_impl(types, consts, false)
}

fn ret_truncate(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    ret_round_impl(types, consts, true)
}

fn ret_floor(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    match types.first().map(numeric_kind) {
        Some(t @ SqlType::Int { .. }) => t,
        Some(SqlType::Decimal {
            precision, scale, ..
        }) => {
            let int_digits = precision.saturating_sub(scale);
            if int_digits <= 18 {
                bigint(int_digits as u32 + 2)
            } else {
                SqlType::Decimal {
                    precision: (int_digits + 1).min(65),
                    scale: 0,
                    unsigned: false,
                }
            }
        }
        _ => SqlType::DOUBLE,
    }
}

fn ret_mod(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    let kinds: Vec<SqlType> = types.iter().map(numeric_kind).collect();
    if kinds.iter().all(|t| matches!(t, SqlType::Int { .. })) {
        return SqlType::Int {
            width: IntWidth::Big,
            unsigned: types.first().is_some_and(SqlType::is_unsigned),
            zerofill: false,
            display: None,
        };
    }
    if kinds.iter().any(|t| matches!(t, SqlType::Double { .. })) {
        return SqlType::DOUBLE;
    }
    let scale = kinds
        .iter()
        .map(SqlType::decimals)
        .max()
        .unwrap_or(0)
        .min(30);
    SqlType::Decimal {
        precision: 65,
        scale,
        unsigned: false,
    }
}

fn ret_crc32(_: &[SqlType], _: &[Option<Value>]) -> SqlType {
    SqlType::Int {
        width: IntWidth::Int,
        unsigned: true,
        zerofill: false,
        display: Some(10),
    }
}

// ---------------------------------------------------------------------------------------
// ABS, SIGN, ROUND, TRUNCATE, FLOOR, CEIL, MOD.

fn abs(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(match arg(args, 0) {
        Value::Int(i) => match i.checked_abs() {
            Some(a) => Value::Int(a),
            None => return Err(out_of_range("BIGINT", format!("abs({i})"))),
        },
        Value::UInt(u) => Value::UInt(*u),
        v => match num_of(v, ctx) {
            None => Value::Null,
            Some(Num::Int(i)) => int_value(i.abs()),
            Some(Num::Dec(d)) => Value::decimal(d.abs()),
            Some(Num::Dbl(x)) => Value::Double(x.abs()),
        },
    })
}

fn sign(args: &[Value], ctx: &mut FnCtx) -> R {
    let s = match num_of(arg(args, 0), ctx) {
        None => return Ok(Value::Null),
        Some(Num::Int(i)) => i.signum() as i64,
        Some(Num::Dec(d)) => match d.sign() {
            Sign::Minus => -1,
            Sign::NoSign => 0,
            Sign::Plus => 1,
        },
        Some(Num::Dbl(x)) => {
            if x > 0.0 {
                1
            } else if x < 0.0 {
                -1
            } else {
                0
            }
        }
    };
    Ok(Value::Int(s))
}

/// Powers of ten as exact as a double can hold them (`1e22` is the last exact one; the
/// rest are the correctly rounded literals MySQL's `log_10` table holds).
fn pow10(n: u64) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..=308)
            .map(|k| format!("1e{k}").parse::<f64>().unwrap_or(f64::INFINITY))
            .collect()
    });
    table.get(n as usize).copied().unwrap_or(f64::INFINITY)
}

/// MySQL's `my_double_round`: scale, `rint` (or floor/ceil towards zero when truncating),
/// scale back.
pub(super) fn round_f64(value: f64, dec: i64, truncate: bool) -> f64 {
    let negative_dec = dec < 0;
    let tmp = pow10(dec.unsigned_abs());
    let div = value / tmp;
    let mul = value * tmp;
    if negative_dec && tmp.is_infinite() {
        0.0
    } else if !negative_dec && mul.is_infinite() {
        value
    } else if truncate {
        let f = if value >= 0.0 { f64::floor } else { f64::ceil };
        if negative_dec {
            f(div) * tmp
        } else {
            f(mul) / tmp
        }
    } else if negative_dec {
        div.round_ties_even() * tmp
    } else {
        mul.round_ties_even() / tmp
    }
}

/// Rounds (or truncates) an exact integer to `10^-dec`; `dec ≥ 0` leaves it unchanged.
fn round_int(i: i128, dec: i64, truncate: bool) -> i128 {
    if dec >= 0 {
        return i;
    }
    if dec < -38 {
        return 0;
    }
    let p = 10i128.pow(dec.unsigned_abs() as u32);
    let q = i / p;
    let r = i % p;
    let bump = !truncate && r.unsigned_abs() * 2 >= p.unsigned_abs();
    let q = if bump { q + i.signum() } else { q };
    q.saturating_mul(p)
}

fn round_decimal(d: &BigDecimal, dec: i64, truncate: bool) -> BigDecimal {
    let dec = dec.clamp(-90, 30);
    let mode = if truncate {
        RoundingMode::Down
    } else {
        RoundingMode::HalfUp
    };
    let r = d.with_scale_round(dec, mode);
    if dec < 0 { r.with_scale(0) } else { r }
}

fn round_impl(args: &[Value], ctx: &mut FnCtx, truncate: bool) -> R {
    let dec = if args.len() > 1 {
        match int_arg(args, 1, ctx) {
            Some(d) => d,
            None => return Ok(Value::Null),
        }
    } else {
        0
    };
    let v = arg(args, 0);
    Ok(match v {
        Value::Int(_) | Value::UInt(_) if dec >= 0 => v.clone(),
        _ => match num_of(v, ctx) {
            None => Value::Null,
            Some(Num::Int(i)) => int_value(round_int(i, dec, truncate)),
            Some(Num::Dec(d)) => Value::decimal(round_decimal(&d, dec, truncate)),
            Some(Num::Dbl(x)) => Value::Double(round_f64(x, dec, truncate)),
        },
    })
}

fn round(args: &[Value], ctx: &mut FnCtx) -> R {
    round_impl(args, ctx, false)
}

fn truncate(args: &[Value], ctx: &mut FnCtx) -> R {
    round_impl(args, ctx, true)
}

fn floor_ceil(args: &[Value], ctx: &mut FnCtx, up: bool) -> R {
    let v = arg(args, 0);
    Ok(match v {
        Value::Int(_) | Value::UInt(_) => v.clone(),
        _ => match num_of(v, ctx) {
            None => Value::Null,
            Some(Num::Int(i)) => int_value(i),
            Some(Num::Dec(d)) => {
                let mode = if up {
                    RoundingMode::Ceiling
                } else {
                    RoundingMode::Floor
                };
                let r = d.with_scale_round(0, mode);
                match r.to_i64() {
                    Some(i) => Value::Int(i),
                    None => Value::decimal(r),
                }
            }
            Some(Num::Dbl(x)) => Value::Double(if up { x.ceil() } else { x.floor() }),
        },
    })
}

fn floor(args: &[Value], ctx: &mut FnCtx) -> R {
    floor_ceil(args, ctx, false)
}

fn ceil(args: &[Value], ctx: &mut FnCtx) -> R {
    floor_ceil(args, ctx, true)
}

fn division_by_zero(ctx: &mut FnCtx) -> R {
    ctx.diag.warn(code::ER_DIVISION_BY_ZERO, "Division by 0");
    Ok(Value::Null)
}

fn mod_fn(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(a), Some(b)) = (num_of(arg(args, 0), ctx), num_of(arg(args, 1), ctx)) else {
        return Ok(Value::Null);
    };
    Ok(match (a, b) {
        (Num::Int(x), Num::Int(y)) => {
            if y == 0 {
                return division_by_zero(ctx);
            }
            // The result has the sign of the dividend (and its unsignedness).
            let r = x % y;
            if matches!(arg(args, 0), Value::UInt(_)) {
                Value::UInt(r as u64)
            } else {
                int_value(r)
            }
        }
        (a @ Num::Dbl(_), b) | (a, b @ Num::Dbl(_)) => {
            let (x, y) = (num_f64(&a), num_f64(&b));
            if y == 0.0 {
                return division_by_zero(ctx);
            }
            Value::Double(x % y)
        }
        (a, b) => {
            let (x, y) = (num_dec(a), num_dec(b));
            if y.is_zero() {
                return division_by_zero(ctx);
            }
            Value::decimal(x % y)
        }
    })
}

fn num_f64(n: &Num) -> f64 {
    match n {
        Num::Int(i) => *i as f64,
        Num::Dec(d) => convert::decimal_to_f64(d),
        Num::Dbl(x) => *x,
    }
}

fn num_dec(n: Num) -> BigDecimal {
    match n {
        Num::Int(i) => BigDecimal::from(i),
        Num::Dec(d) => d,
        Num::Dbl(x) => convert::f64_to_decimal(x),
    }
}

// ---------------------------------------------------------------------------------------
// Floating-point functions.

fn unary(args: &[Value], ctx: &mut FnCtx, f: impl FnOnce(f64) -> f64) -> R {
    Ok(f64_arg(args, 0, ctx).map_or(Value::Null, |x| Value::Double(f(x))))
}

fn pow(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(x), Some(y)) = (f64_arg(args, 0, ctx), f64_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    checked_double(x.powf(y), || {
        format!("pow({},{})", show(arg(args, 0)), show(arg(args, 1)))
    })
}

fn sqrt(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(match f64_arg(args, 0, ctx) {
        Some(x) if x >= 0.0 => Value::Double(x.sqrt()),
        _ => Value::Null,
    })
}

fn exp(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(x) = f64_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    checked_double(x.exp(), || format!("exp({})", show(arg(args, 0))))
}

fn bad_log(ctx: &mut FnCtx) -> R {
    ctx.diag.warn(
        ER_INVALID_ARGUMENT_FOR_LOGARITHM,
        "Invalid argument for logarithm",
    );
    Ok(Value::Null)
}

fn log_with(args: &[Value], ctx: &mut FnCtx, f: impl FnOnce(f64) -> f64) -> R {
    match f64_arg(args, 0, ctx) {
        None => Ok(Value::Null),
        Some(x) if x <= 0.0 => bad_log(ctx),
        Some(x) => Ok(Value::Double(f(x))),
    }
}

fn ln(args: &[Value], ctx: &mut FnCtx) -> R {
    log_with(args, ctx, f64::ln)
}

fn log(args: &[Value], ctx: &mut FnCtx) -> R {
    if args.len() < 2 {
        return ln(args, ctx);
    }
    let Some(base) = f64_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    if base <= 0.0 {
        return bad_log(ctx);
    }
    match f64_arg(args, 1, ctx) {
        None => Ok(Value::Null),
        Some(x) if x <= 0.0 || base == 1.0 => bad_log(ctx),
        Some(x) => Ok(Value::Double(x.ln() / base.ln())),
    }
}

fn log2(args: &[Value], ctx: &mut FnCtx) -> R {
    log_with(args, ctx, f64::log2)
}

fn log10(args: &[Value], ctx: &mut FnCtx) -> R {
    log_with(args, ctx, f64::log10)
}

fn pi(_: &[Value], _: &mut FnCtx) -> R {
    Ok(Value::Double(std::f64::consts::PI))
}

fn sin(args: &[Value], ctx: &mut FnCtx) -> R {
    unary(args, ctx, f64::sin)
}

fn cos(args: &[Value], ctx: &mut FnCtx) -> R {
    unary(args, ctx, f64::cos)
}

fn tan(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(x) = f64_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    checked_double(x.tan(), || format!("tan({})", show(arg(args, 0))))
}

fn asin(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(match f64_arg(args, 0, ctx) {
        Some(x) if (-1.0..=1.0).contains(&x) => Value::Double(x.asin()),
        _ => Value::Null,
    })
}

fn acos(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(match f64_arg(args, 0, ctx) {
        Some(x) if (-1.0..=1.0).contains(&x) => Value::Double(x.acos()),
        _ => Value::Null,
    })
}

fn atan(args: &[Value], ctx: &mut FnCtx) -> R {
    if args.len() < 2 {
        return unary(args, ctx, f64::atan);
    }
    atan2(args, ctx)
}

fn atan2(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(y), Some(x)) = (f64_arg(args, 0, ctx), f64_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    Ok(Value::Double(y.atan2(x)))
}

fn cot(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(x) = f64_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    let t = x.tan();
    let expr = || format!("cot({})", show(arg(args, 0)));
    if t == 0.0 {
        return Err(out_of_range("DOUBLE", expr()));
    }
    checked_double(1.0 / t, expr)
}

fn degrees(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(x) = f64_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    checked_double(x * (180.0 / std::f64::consts::PI), || {
        format!("degrees({})", show(arg(args, 0)))
    })
}

fn radians(args: &[Value], ctx: &mut FnCtx) -> R {
    unary(args, ctx, |x| x * (std::f64::consts::PI / 180.0))
}

// ---------------------------------------------------------------------------------------
// RAND.

/// MySQL's pseudo-random generator (`my_rnd`), seeded as `RAND(n)` seeds it.
#[derive(Clone, Copy, Debug)]
pub struct MyRnd {
    seed1: u64,
    seed2: u64,
}

impl MyRnd {
    const MAX_VALUE: u64 = 0x3FFF_FFFF;

    /// The generator `RAND(seed)` uses (`seed` as MySQL's `val_int` gives it).
    pub fn new(seed: i64) -> MyRnd {
        let tmp = seed as u32 as u64;
        let s1 = (tmp.wrapping_mul(0x10001).wrapping_add(55_555_555)) & 0xFFFF_FFFF;
        let s2 = tmp.wrapping_mul(0x1000_0001) & 0xFFFF_FFFF;
        MyRnd {
            seed1: s1 % Self::MAX_VALUE,
            seed2: s2 % Self::MAX_VALUE,
        }
    }

    /// The next number in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.seed1 = (self.seed1 * 3 + self.seed2) % Self::MAX_VALUE;
        self.seed2 = (self.seed1 + self.seed2 + 33) % Self::MAX_VALUE;
        self.seed1 as f64 / Self::MAX_VALUE as f64
    }
}

fn rand_fn(args: &[Value], ctx: &mut FnCtx) -> R {
    if args.is_empty() {
        return Ok(Value::Double(rand::random::<f64>()));
    }
    // MySQL seeds with 0 for a NULL seed.
    let seed = int_arg(args, 0, ctx).unwrap_or(0);
    Ok(Value::Double(MyRnd::new(seed).next_f64()))
}

// ---------------------------------------------------------------------------------------
// GREATEST, LEAST.

/// How `GREATEST`/`LEAST` compare, from the argument values (MySQL decides from the
/// types, which the values mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MinMaxKind {
    Int,
    Decimal,
    Double,
    String,
    Date,
    DateTime,
    Time,
}

/// MySQL 8.0 compares as temporals as soon as one argument is temporal (the one of
/// highest rank decides: DATETIME, or DATE with TIME, over DATE over TIME); otherwise by
/// the aggregated type.
fn min_max_kind(args: &[Value]) -> MinMaxKind {
    use MinMaxKind::*;
    let has = |f: fn(&Value) -> bool| args.iter().any(f);
    let (date, time) = (
        has(|v| matches!(v, Value::Date(_))),
        has(|v| matches!(v, Value::Time(_))),
    );
    if has(|v| matches!(v, Value::DateTime(_))) || (date && time) {
        DateTime
    } else if date {
        Date
    } else if time {
        Time
    } else if has(|v| matches!(v, Value::Bytes(_))) {
        String
    } else if has(|v| matches!(v, Value::Double(_) | Value::Float(_))) {
        Double
    } else if has(|v| matches!(v, Value::Decimal(_))) {
        Decimal
    } else {
        Int
    }
}

fn min_max(args: &[Value], ctx: &mut FnCtx, want: Ordering) -> R {
    if args.is_empty() || any_null(args) {
        return Ok(Value::Null);
    }
    let kind = min_max_kind(args);
    let mut best = 0;
    for i in 1..args.len() {
        let o = match kind {
            MinMaxKind::Int => {
                crate::sql::compare::compare(&args[i], &args[best], Collation::DEFAULT)
            }
            MinMaxKind::Decimal => {
                let a = convert::to_decimal(&args[i], ctx.diag);
                let b = convert::to_decimal(&args[best], ctx.diag);
                a.partial_cmp(&b)
            }
            MinMaxKind::Double => {
                let a = convert::to_f64(&args[i], ctx.diag);
                let b = convert::to_f64(&args[best], ctx.diag);
                a.partial_cmp(&b)
            }
            MinMaxKind::String => Some(collation::cmp(
                &convert::to_bytes(&args[i]),
                &convert::to_bytes(&args[best]),
                Collation::DEFAULT,
            )),
            MinMaxKind::Date | MinMaxKind::DateTime | MinMaxKind::Time => {
                return min_max_temporal(args, ctx, want, kind);
            }
        };
        if o == Some(want) {
            best = i;
        }
    }
    let v = &args[best];
    Ok(match kind {
        MinMaxKind::Int => v.clone(),
        MinMaxKind::Date | MinMaxKind::Time | MinMaxKind::DateTime => v.clone(),
        MinMaxKind::Decimal => convert::to_decimal(v, ctx.diag).map_or(Value::Null, Value::decimal),
        MinMaxKind::Double => Value::Double(convert::to_f64(v, ctx.diag).unwrap_or(0.0)),
        MinMaxKind::String => Value::bytes(&convert::to_bytes(v)),
    })
}

/// `GREATEST`/`LEAST` with a temporal argument: every argument read as that temporal
/// (strings parsed, a TIME on today's date), the winner returned in that form. An
/// argument that is no temporal makes the result NULL (with its 1292 warning).
fn min_max_temporal(args: &[Value], ctx: &mut FnCtx, want: Ordering, kind: MinMaxKind) -> R {
    let mut best: Option<Value> = None;
    for v in args {
        let value = match kind {
            MinMaxKind::Time => convert::to_time(v, ctx.diag).map(Value::Time),
            _ => {
                let d = match v {
                    Value::Time(t) => {
                        let today = ctx.now_local.date_part();
                        temporal::add_interval(today, temporal::IntervalUnit::Microsecond, t.micros)
                    }
                    _ => convert::to_datetime(v, ctx.diag),
                };
                d.map(|d| {
                    if kind == MinMaxKind::Date {
                        Value::Date(d.date_part())
                    } else {
                        Value::DateTime(d)
                    }
                })
            }
        };
        let Some(value) = value else {
            return Ok(Value::Null);
        };
        let better = match &best {
            None => true,
            Some(b) => temporal_key(&value).cmp(&temporal_key(b)) == want,
        };
        if better {
            best = Some(value);
        }
    }
    Ok(best.unwrap_or(Value::Null))
}

fn temporal_key(v: &Value) -> (DateTime, i64) {
    match v {
        Value::Date(d) | Value::DateTime(d) => (*d, 0),
        Value::Time(t) => (DateTime::ZERO, t.micros),
        _ => (DateTime::ZERO, 0),
    }
}

fn greatest(args: &[Value], ctx: &mut FnCtx) -> R {
    min_max(args, ctx, Ordering::Greater)
}

fn least(args: &[Value], ctx: &mut FnCtx) -> R {
    min_max(args, ctx, Ordering::Less)
}

fn ret_min_max(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    let ts: Vec<&SqlType> = types.iter().filter(|t| **t != SqlType::Null).collect();
    if ts.is_empty() {
        return SqlType::Null;
    }
    let max_len = ts.iter().map(|t| char_len_of(t)).max().unwrap_or(0);
    let fsp = ts.iter().map(|t| t.decimals()).max().unwrap_or(0).min(6);
    if ts.iter().all(|t| t.is_temporal()) {
        return if ts.iter().all(|t| **t == SqlType::Date) {
            SqlType::Date
        } else if ts.iter().all(|t| matches!(t, SqlType::Time { .. })) {
            SqlType::Time { fsp }
        } else {
            SqlType::DateTime { fsp }
        };
    }
    if ts.iter().any(|t| t.is_string() || t.is_temporal()) {
        // Mixed with a temporal the value is still a temporal, printed as one.
        return text_type(max_len);
    }
    if ts
        .iter()
        .any(|t| matches!(t, SqlType::Double { .. } | SqlType::Float { .. }))
    {
        return SqlType::DOUBLE;
    }
    if ts.iter().any(|t| matches!(t, SqlType::Decimal { .. })) {
        let scale = ts.iter().map(|t| t.decimals()).max().unwrap_or(0).min(30);
        let int_digits = ts
            .iter()
            .map(|t| match t {
                SqlType::Decimal {
                    precision, scale, ..
                } => precision.saturating_sub(*scale),
                _ => 20,
            })
            .max()
            .unwrap_or(1);
        return SqlType::Decimal {
            precision: (int_digits + scale).min(65),
            scale,
            unsigned: false,
        };
    }
    SqlType::Int {
        width: IntWidth::Big,
        unsigned: ts.iter().all(|t| t.is_unsigned()),
        zerofill: false,
        display: None,
    }
}

// ---------------------------------------------------------------------------------------
// Bits and checksums.

fn crc32(args: &[Value], _: &mut FnCtx) -> R {
    Ok(match arg(args, 0) {
        Value::Null => Value::Null,
        v => Value::Int(crc32fast::hash(&convert::to_bytes(v)) as i64),
    })
}

fn bit_count(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(match arg(args, 0) {
        Value::Null => Value::Null,
        Value::UInt(u) => Value::Int(u.count_ones() as i64),
        v => match convert::to_i64(v, ctx.diag) {
            Some(i) => Value::Int(i.count_ones() as i64),
            None => Value::Null,
        },
    })
}
