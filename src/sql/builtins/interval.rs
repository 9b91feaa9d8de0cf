//! Interval arithmetic: `DATE_ADD`/`DATE_SUB`/`ADDDATE`/`SUBDATE`, `TIMESTAMPADD`,
//! `TIMESTAMPDIFF`, `TIMEDIFF`, `ADDTIME`/`SUBTIME` and `EXTRACT` (MySQL 8.0's
//! `Item_date_add_interval`, `get_interval_value`, `Item_func_timestamp_diff`,
//! `Item_extract`).
//!
//! The unit of `INTERVAL n unit` reaches these functions as an integer argument,
//! [`interval_unit_code`]; the binder maps the keyword with `IntervalUnit::from_name` and
//! passes the code as a constant, so result types can depend on it.
//!
//! The amount is read as MySQL's `get_interval_value` reads it: an integer for simple
//! units (`1.5 DAY` is 2 days), a decimal for `SECOND` (`1.5 SECOND`), a string of numbers
//! for composite units (`'1 2:30' DAY_MINUTE`, see [`parse_interval`]). The result type
//! follows `Item_date_add_interval::resolve_type`: DATE stays DATE for YEAR…DAY units and
//! becomes DATETIME for time units; TIME stays TIME for time units (MySQL's enum order
//! makes `DAY_MICROSECOND` one of them) and becomes a DATETIME on today's date otherwise;
//! other arguments give a string holding a date or a datetime. Results outside
//! 0000-01-01 … 9999-12-31 are NULL with warning 1441.
//!
//! Differences (`TIMEDIFF`, `TIMESTAMPDIFF`) are computed in microseconds from day numbers;
//! `TIMESTAMPDIFF` in months counts whole months as MySQL does (day and time of day
//! decide whether the last month is complete). `TIMEDIFF` of a date and a TIME, or of two
//! values of different kinds, is NULL.

use super::R;
use super::time::{
    Kind, add_micros, arg_decimals, calc_week, get_date_strict, get_datetime, get_time,
    precision_of, warn_overflow, week_mode,
};
use super::{Builtin, FnCtx, any_null, arg, bigint, const_int, int_arg, text_type};
use crate::error::code;
use crate::sql::convert;
use crate::sql::temporal::{self, Interval, IntervalUnit};
use crate::sql::types::SqlType;
use crate::sql::value::{DateTime, Time, Value};
use bigdecimal::num_bigint::Sign;
use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive};

pub(super) static FUNCS: &[Builtin] = &[
    f!("timediff", 2, 2, ret_timediff, timediff),
    f!("timestampdiff", 3, 3, |_, _| bigint(21), timestampdiff),
    f!("timestampadd", 3, 3, ret_timestampadd, timestampadd),
    f!("date_add", 3, 3, ret_date_add, date_add),
    f!("date_sub", 3, 3, ret_date_add, date_sub),
    f!("adddate", 2, 3, ret_date_add, date_add),
    f!("subdate", 2, 3, ret_date_add, date_sub),
    f!("addtime", 2, 2, ret_addtime, addtime),
    f!("subtime", 2, 2, ret_addtime, subtime),
    f!("extract", 2, 2, ret_extract, extract),
];

const MICROS_PER_SECOND: i64 = 1_000_000;
const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SECOND;

// ---------------------------------------------------------------------------------------
// Interval unit codes.

/// Units in code order: the code of a unit is its index here (stable: it is part of the
/// contract with the expression binder).
const UNITS: [IntervalUnit; 20] = [
    IntervalUnit::Microsecond,
    IntervalUnit::Second,
    IntervalUnit::Minute,
    IntervalUnit::Hour,
    IntervalUnit::Day,
    IntervalUnit::Week,
    IntervalUnit::Month,
    IntervalUnit::Quarter,
    IntervalUnit::Year,
    IntervalUnit::SecondMicrosecond,
    IntervalUnit::MinuteMicrosecond,
    IntervalUnit::MinuteSecond,
    IntervalUnit::HourMicrosecond,
    IntervalUnit::HourSecond,
    IntervalUnit::HourMinute,
    IntervalUnit::DayMicrosecond,
    IntervalUnit::DaySecond,
    IntervalUnit::DayMinute,
    IntervalUnit::DayHour,
    IntervalUnit::YearMonth,
];

/// The integer that stands for `u` in `date_add(d, n, code)`, `extract(code, d)`,
/// `timestampdiff(code, a, b)` and `timestampadd(code, n, d)`.
pub fn interval_unit_code(u: IntervalUnit) -> i64 {
    UNITS.iter().position(|&x| x == u).unwrap_or(0) as i64
}

/// The inverse of [`interval_unit_code`].
pub fn unit_from_code(code: i64) -> Option<IntervalUnit> {
    usize::try_from(code)
        .ok()
        .and_then(|i| UNITS.get(i).copied())
}

/// Units whose result on a DATE stays a DATE (MySQL: `<= INTERVAL_DAY` or `YEAR_MONTH`).
fn is_date_unit(u: IntervalUnit) -> bool {
    use IntervalUnit::*;
    matches!(u, Year | Quarter | Month | Week | Day | YearMonth)
}

/// Units whose result on a TIME stays a TIME (MySQL: `HOUR..MICROSECOND` or
/// `HOUR_MINUTE..SECOND_MICROSECOND` in its enum order, which puts `DAY_MICROSECOND` there).
fn is_time_unit(u: IntervalUnit) -> bool {
    use IntervalUnit::*;
    matches!(
        u,
        Hour | Minute
            | Second
            | Microsecond
            | HourMinute
            | HourSecond
            | MinuteSecond
            | DayMicrosecond
            | HourMicrosecond
            | MinuteMicrosecond
            | SecondMicrosecond
    )
}

fn has_micro_field(u: IntervalUnit) -> bool {
    use IntervalUnit::*;
    matches!(
        u,
        Microsecond | DayMicrosecond | HourMicrosecond | MinuteMicrosecond | SecondMicrosecond
    )
}

fn unit_arg(args: &[Value], i: usize, ctx: &mut FnCtx) -> Option<IntervalUnit> {
    unit_from_code(int_arg(args, i, ctx)?)
}

/// Microseconds since day 0 of a datetime.
fn datetime_micros(d: &DateTime) -> i64 {
    temporal::day_number(d) * MICROS_PER_DAY + temporal::time_of_day(d).micros
}

/// A duration as a TIME, clamped to ±838:59:59 with MySQL's 1292 warning.
fn clamp_time(micros: i64, ctx: &mut FnCtx) -> Time {
    if micros.unsigned_abs() > temporal::TIME_MAX_MICROS as u64 {
        let text = temporal::format_time(
            Time { micros },
            if micros % MICROS_PER_SECOND != 0 {
                6
            } else {
                0
            },
        );
        ctx.diag.warn(
            code::ER_TRUNCATED_WRONG_VALUE,
            format!("Truncated incorrect time value: '{text}'"),
        );
        return Time {
            micros: micros.signum() * temporal::TIME_MAX_MICROS,
        };
    }
    Time { micros }
}

fn ret_timediff(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    SqlType::Time {
        fsp: precision_of(types, consts, 0).max(precision_of(types, consts, 1)),
    }
}

fn has_date(v: &Value) -> bool {
    matches!(v, Value::Date(_) | Value::DateTime(_))
}

fn timediff(args: &[Value], ctx: &mut FnCtx) -> R {
    let (a, b) = (arg(args, 0), arg(args, 1));
    if a.is_null() || b.is_null() {
        return Ok(Value::Null);
    }
    // A date against a TIME is an incompatible pair (MySQL checks the types).
    if (has_date(a) && matches!(b, Value::Time(_))) || (has_date(b) && matches!(a, Value::Time(_)))
    {
        return Ok(Value::Null);
    }
    let diff = if has_date(a) || has_date(b) {
        let (Some((x, kx)), Some((y, ky))) = (get_datetime(a, ctx), get_datetime(b, ctx)) else {
            return Ok(Value::Null);
        };
        if kx != ky {
            return Ok(Value::Null);
        }
        datetime_micros(&x) - datetime_micros(&y)
    } else {
        let (Some(x), Some(y)) = (get_time(a, ctx), get_time(b, ctx)) else {
            return Ok(Value::Null);
        };
        if x.kind != y.kind {
            return Ok(Value::Null);
        }
        if x.kind == Kind::Time {
            x.time_micros() - y.time_micros()
        } else {
            datetime_micros(&x.date) - datetime_micros(&y.date)
        }
    };
    Ok(Value::Time(clamp_time(diff, ctx)))
}

fn timestampdiff(args: &[Value], ctx: &mut FnCtx) -> R {
    if any_null(args) {
        return Ok(Value::Null);
    }
    let Some(unit) = unit_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    let Some((a, _)) = get_date_strict(arg(args, 1), ctx) else {
        return Ok(Value::Null);
    };
    let Some((b, _)) = get_date_strict(arg(args, 2), ctx) else {
        return Ok(Value::Null);
    };
    let diff = datetime_micros(&b) - datetime_micros(&a);
    let neg: i64 = if diff < 0 { -1 } else { 1 };
    let abs = diff.abs();
    let seconds = abs / MICROS_PER_SECOND;
    let months = || {
        let (beg, end) = if neg < 0 { (&b, &a) } else { (&a, &b) };
        let sec = |d: &DateTime| d.hour as i64 * 3600 + d.minute as i64 * 60 + d.second as i64;
        let before = end.month < beg.month || (end.month == beg.month && end.day < beg.day);
        let mut years = end.year as i64 - beg.year as i64;
        if before {
            years -= 1;
        }
        let mut m = 12 * years;
        if before {
            m += 12 - (beg.month as i64 - end.month as i64);
        } else {
            m += end.month as i64 - beg.month as i64;
        }
        if end.day < beg.day
            || (end.day == beg.day
                && (sec(end) < sec(beg) || (sec(end) == sec(beg) && end.micro < beg.micro)))
        {
            m -= 1;
        }
        m
    };
    use IntervalUnit::*;
    let v = match unit {
        Year => months() / 12,
        Quarter => months() / 3,
        Month => months(),
        Week => seconds / 86_400 / 7,
        Day => seconds / 86_400,
        Hour => seconds / 3600,
        Minute => seconds / 60,
        Second => seconds,
        Microsecond => abs,
        _ => return Ok(Value::Null),
    };
    Ok(Value::Int(v * neg))
}

// ---------------------------------------------------------------------------------------
// DATE_ADD and friends.

/// MySQL's `get_interval_value`: the amount of `INTERVAL amount unit`. `None` with
/// warning 1441 when it cannot be read (NULL gives `None` silently).
fn get_interval(amount: &Value, unit: IntervalUnit, ctx: &mut FnCtx) -> Option<Interval> {
    use IntervalUnit::*;
    if amount.is_null() {
        return None;
    }
    let iv = match unit {
        Second
            if matches!(
                amount,
                Value::Decimal(_) | Value::Double(_) | Value::Float(_) | Value::Bytes(_)
            ) =>
        {
            let d = convert::to_decimal(amount, ctx.diag)?;
            decimal_seconds_interval(&d)
        }
        Microsecond | Second | Minute | Hour | Day | Week | Month | Quarter | Year => {
            let n = convert::to_i64(amount, ctx.diag)?;
            if n == i64::MIN {
                None
            } else {
                Some(Interval::from_amount(unit, n))
            }
        }
        _ => parse_interval(unit, &convert::to_bytes(amount)),
    };
    if iv.is_none() {
        warn_overflow(ctx, "date_add_interval");
    }
    iv
}

/// The fields of a composite unit in order: 0 years, 1 months, 2 days, 3 hours,
/// 4 minutes, 5 seconds, 6 microseconds.
fn unit_fields(unit: IntervalUnit) -> &'static [usize] {
    use IntervalUnit::*;
    match unit {
        YearMonth => &[0, 1],
        DayHour => &[2, 3],
        DayMinute => &[2, 3, 4],
        DaySecond => &[2, 3, 4, 5],
        HourMinute => &[3, 4],
        HourSecond => &[3, 4, 5],
        MinuteSecond => &[4, 5],
        DayMicrosecond => &[2, 3, 4, 5, 6],
        HourMicrosecond => &[3, 4, 5, 6],
        MinuteMicrosecond => &[4, 5, 6],
        SecondMicrosecond => &[5, 6],
        _ => &[],
    }
}

/// `INTERVAL 'text' unit` for composite units, as MySQL's `get_interval_info`: numbers
/// separated by any non-digits, a leading `-` for negative; fewer numbers than fields fill
/// from the right; the microsecond field is scaled by the digits of the *last number
/// given* (`'3' SECOND_MICROSECOND` is 0.3 s, `'1.5'` is 1.5 s); anything left over is
/// an error.
fn parse_interval(unit: IntervalUnit, text: &[u8]) -> Option<Interval> {
    let fields = unit_fields(unit);
    let count = fields.len();
    let mut pos = text.iter().take_while(|c| c.is_ascii_whitespace()).count();
    let negative = text.get(pos) == Some(&b'-');
    if negative {
        pos += 1;
    }
    let skip_non_digits = |pos: &mut usize| {
        while text.get(*pos).is_some_and(|c| !c.is_ascii_digit()) {
            *pos += 1;
        }
    };
    skip_non_digits(&mut pos);
    let mut values = [0u64; 5];
    let mut last_len = 0usize;
    for k in 0..count {
        let start = pos;
        let mut v: u64 = 0;
        while let Some(&c) = text.get(pos).filter(|c| c.is_ascii_digit()) {
            if v > (i64::MAX as u64 - 10) / 10 {
                return None;
            }
            v = v * 10 + (c - b'0') as u64;
            pos += 1;
        }
        last_len = pos - start;
        values[k] = v;
        skip_non_digits(&mut pos);
        if pos >= text.len() && k + 1 < count {
            // Fewer numbers than fields: they are the rightmost fields.
            let given = k + 1;
            values.copy_within(0..given, count - given);
            values[..count - given].iter_mut().for_each(|x| *x = 0);
            break;
        }
    }
    if pos < text.len() {
        return None;
    }
    if fields.last() == Some(&6) && last_len < 6 {
        values[count - 1] = values[count - 1].checked_mul(10u64.pow(6 - last_len as u32))?;
    }
    let mut iv = Interval {
        negative,
        ..Interval::default()
    };
    for (k, &field) in fields.iter().enumerate() {
        let v = values[k];
        match field {
            0 => iv.years = v,
            1 => iv.months = v,
            2 => iv.days = v,
            3 => iv.hours = v,
            4 => iv.minutes = v,
            5 => iv.seconds = v,
            _ => iv.micros = v,
        }
    }
    Some(iv)
}

fn decimal_seconds_interval(d: &BigDecimal) -> Option<Interval> {
    let negative = d.sign() == Sign::Minus;
    let a = d.abs();
    let secs = a.with_scale_round(0, RoundingMode::Down);
    let micros = ((&a - &secs) * BigDecimal::from(MICROS_PER_SECOND))
        .with_scale_round(0, RoundingMode::Down)
        .to_u64()?;
    Some(Interval {
        negative,
        seconds: secs.to_u64()?,
        micros,
        ..Interval::default()
    })
}

/// An interval of time units as signed microseconds (`None` if it overflows).
fn interval_micros(iv: &Interval) -> Option<i64> {
    let secs = iv
        .days
        .checked_mul(86_400)?
        .checked_add(iv.hours.checked_mul(3600)?)?
        .checked_add(iv.minutes.checked_mul(60)?)?
        .checked_add(iv.seconds)?;
    let m = secs
        .checked_mul(MICROS_PER_SECOND as u64)?
        .checked_add(iv.micros)?;
    let m = i64::try_from(m).ok()?;
    Some(if iv.negative { -m } else { m })
}

fn ret_date_add(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    let unit = if types.len() < 3 {
        Some(IntervalUnit::Day)
    } else {
        const_int(consts, 2).and_then(unit_from_code)
    };
    date_add_type(
        types.first(),
        types.get(1),
        unit,
        consts.get(1).and_then(Option::as_ref),
    )
}

fn ret_timestampadd(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    let unit = const_int(consts, 0).and_then(unit_from_code);
    date_add_type(
        types.get(2),
        types.get(1),
        unit,
        consts.get(1).and_then(Option::as_ref),
    )
}

/// `Item_date_add_interval::resolve_type`.
fn date_add_type(
    arg: Option<&SqlType>,
    amount: Option<&SqlType>,
    unit: Option<IntervalUnit>,
    amount_const: Option<&Value>,
) -> SqlType {
    let Some(unit) = unit else {
        return text_type(29);
    };
    let interval_dec = if has_micro_field(unit) {
        6
    } else if unit == IntervalUnit::Second {
        arg_decimals(amount, amount_const)
    } else {
        0
    };
    match arg {
        Some(SqlType::DateTime { fsp } | SqlType::Timestamp { fsp }) => SqlType::DateTime {
            fsp: (*fsp).max(interval_dec),
        },
        Some(SqlType::Date) if is_date_unit(unit) => SqlType::Date,
        Some(SqlType::Date) => SqlType::DateTime { fsp: interval_dec },
        Some(SqlType::Time { fsp }) if is_time_unit(unit) => SqlType::Time {
            fsp: (*fsp).max(interval_dec),
        },
        Some(SqlType::Time { fsp }) => SqlType::DateTime {
            fsp: (*fsp).max(interval_dec),
        },
        _ => text_type(29),
    }
}

fn date_add_impl(
    v: &Value,
    amount: &Value,
    unit: IntervalUnit,
    subtract: bool,
    ctx: &mut FnCtx,
) -> R {
    if v.is_null() {
        return Ok(Value::Null);
    }
    if let Value::Time(t) = v
        && is_time_unit(unit)
    {
        let Some(mut iv) = get_interval(amount, unit, ctx) else {
            return Ok(Value::Null);
        };
        if subtract {
            iv.negative = !iv.negative;
        }
        let sum = interval_micros(&iv).and_then(|m| t.micros.checked_add(m));
        return Ok(match sum {
            Some(m) if m.unsigned_abs() <= temporal::TIME_MAX_MICROS as u64 => {
                Value::Time(Time { micros: m })
            }
            _ => {
                warn_overflow(ctx, "time");
                Value::Null
            }
        });
    }
    // MySQL reads the date before the interval (its warnings come first).
    let Some((d, kind)) = get_date_strict(v, ctx) else {
        return Ok(Value::Null);
    };
    let Some(mut iv) = get_interval(amount, unit, ctx) else {
        return Ok(Value::Null);
    };
    if subtract {
        iv.negative = !iv.negative;
    }
    let Some(r) = temporal::add_interval_parts(d, &iv) else {
        warn_overflow(ctx, "datetime");
        return Ok(Value::Null);
    };
    Ok(if kind == Kind::Date && is_date_unit(unit) {
        Value::Date(r.date_part())
    } else {
        Value::DateTime(r)
    })
}

fn date_add_args(args: &[Value], ctx: &mut FnCtx, subtract: bool) -> R {
    let unit = if args.len() < 3 {
        IntervalUnit::Day
    } else {
        match unit_arg(args, 2, ctx) {
            Some(u) => u,
            None => return Ok(Value::Null),
        }
    };
    date_add_impl(arg(args, 0), arg(args, 1), unit, subtract, ctx)
}

fn date_add(args: &[Value], ctx: &mut FnCtx) -> R {
    date_add_args(args, ctx, false)
}

fn date_sub(args: &[Value], ctx: &mut FnCtx) -> R {
    date_add_args(args, ctx, true)
}

fn timestampadd(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(unit) = unit_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    date_add_impl(arg(args, 2), arg(args, 1), unit, false, ctx)
}

fn ret_addtime(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    let fsp = precision_of(types, consts, 0).max(precision_of(types, consts, 1));
    match types.first() {
        Some(SqlType::Time { .. }) => SqlType::Time { fsp },
        Some(SqlType::DateTime { .. } | SqlType::Timestamp { .. } | SqlType::Date) => {
            SqlType::DateTime { fsp }
        }
        _ => text_type(29),
    }
}

/// `ADDTIME`/`SUBTIME`: a TIME or datetime plus (minus) a TIME.
fn add_time(args: &[Value], ctx: &mut FnCtx, sign: i64) -> R {
    let (Some(a), Some(b)) = (get_time(arg(args, 0), ctx), get_time(arg(args, 1), ctx)) else {
        return Ok(Value::Null);
    };
    if b.kind != Kind::Time {
        return Ok(Value::Null);
    }
    let delta = b.time_micros() * sign;
    if a.kind == Kind::Time {
        let Some(m) = a.time_micros().checked_add(delta) else {
            return Ok(Value::Null);
        };
        return Ok(Value::Time(clamp_time(m, ctx)));
    }
    Ok(add_micros(a.date, delta, ctx).map_or(Value::Null, Value::DateTime))
}

fn addtime(args: &[Value], ctx: &mut FnCtx) -> R {
    add_time(args, ctx, 1)
}

fn subtime(args: &[Value], ctx: &mut FnCtx) -> R {
    add_time(args, ctx, -1)
}

fn ret_extract(_: &[SqlType], _: &[Option<Value>]) -> SqlType {
    bigint(21)
}

/// `EXTRACT(unit FROM v)` as `Item_extract::val_int`.
fn extract(args: &[Value], ctx: &mut FnCtx) -> R {
    use IntervalUnit::*;
    if any_null(args) {
        return Ok(Value::Null);
    }
    let Some(unit) = unit_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    let v = arg(args, 1);
    if matches!(unit, Year | YearMonth | Quarter | Month | Week | Day) {
        let Some((d, _)) = get_datetime(v, ctx) else {
            return Ok(Value::Null);
        };
        return Ok(Value::Int(match unit {
            Year => d.year as i64,
            YearMonth => d.year as i64 * 100 + d.month as i64,
            Quarter => (d.month as i64 + 2) / 3,
            Month => d.month as i64,
            Week => calc_week(&d, week_mode(0)).0,
            _ => d.day as i64,
        }));
    }
    let Some(p) = get_time(v, ctx) else {
        return Ok(Value::Null);
    };
    let (day, h, m, s, us) = (
        p.day as i64,
        p.hour as i64,
        p.minute as i64,
        p.second as i64,
        p.micro as i64,
    );
    let hms = h * 10_000 + m * 100 + s;
    let r = match unit {
        DayHour => day * 100 + h,
        DayMinute => day * 10_000 + h * 100 + m,
        DaySecond => day * 1_000_000 + hms,
        Hour => h,
        HourMinute => h * 100 + m,
        HourSecond => hms,
        Minute => m,
        MinuteSecond => m * 100 + s,
        Second => s,
        Microsecond => us,
        DayMicrosecond => (day * 1_000_000 + hms) * 1_000_000 + us,
        HourMicrosecond => hms * 1_000_000 + us,
        MinuteMicrosecond => (m * 100 + s) * 1_000_000 + us,
        SecondMicrosecond => s * 1_000_000 + us,
        _ => 0,
    };
    Ok(Value::Int(if p.neg { -r } else { r }))
}
