//! Date and time functions (MySQL 8.0's `item_timefunc.cc` semantics): the clock, the
//! field extractors, weeks, calendar and Unix-time conversions, periods, time zones.
//! Interval arithmetic is in `interval.rs`, formatting and parsing in `timefmt.rs`; both
//! read their arguments with the helpers here.
//!
//! ## Reading arguments
//!
//! MySQL reads a temporal argument in one of two ways, and so do we:
//!
//! - **as a date** ([`get_datetime`], MySQL's `get_date`): DATE/DATETIME values as they
//!   are, strings parsed (`'2020-01-02'`, `'20200102'`, `'2020-01-02 03:04:05.5'`),
//!   numbers as `YYYYMMDD[HHMMSS]`, a TIME on the statement's date (`now_local`). Zero
//!   parts (`'2020-00-00'`) are accepted ("fuzzy") except by the functions that need a real
//!   calendar day (`TO_DAYS`, `WEEK`, `DAYOFWEEK`, `DATE_ADD`, `TIMESTAMPDIFF`…: MySQL's
//!   `TIME_NO_ZERO_DATE` without `TIME_FUZZY_DATE`), which give NULL with warning 1292;
//! - **as a time** ([`get_time`], MySQL's `get_time`): TIME values, strings like
//!   `'12:34:56'`, `'838:59:59'`, `'1 12:00'`, numbers `HHMMSS`; a full datetime string
//!   (12 characters or more, `'2020-01-02 03:04:05'`) keeps its date, so
//!   `EXTRACT(DAY_MINUTE FROM '2019-07-02 01:02:03')` is 20102.
//!
//! A value that does not parse is NULL with warning 1292 `Incorrect datetime value: '…'`
//! (or `time`), as MySQL does in a SELECT. MySQL also rejects `'0000-00-00'` strings when
//! `NO_ZERO_DATE` is in `sql_mode`; this layer does not see `sql_mode` and accepts them,
//! as `convert::to_datetime` does.
//!
//! ## Week numbers
//!
//! `WEEK`, `YEARWEEK`, `%U %u %V %v %X %x` use MySQL's `calc_week` with the mode bits
//! (Monday first, week-of-year 1…53 or 0…53, first week = the one with a first weekday or
//! with four days) — see [`calc_week`].

use super::R;
use super::timefmt;
use super::{Builtin, FnCtx, any_null, arg, bigint, const_int, int_arg, int_display, text_type};
use crate::error::{MyError, code};
use crate::sql::convert;
use crate::sql::temporal::{self, IntervalUnit};
use crate::sql::types::SqlType;
use crate::sql::value::{DateTime, Time, Value};
use bigdecimal::num_bigint::Sign;
use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive};

pub(super) static FUNCS: &[Builtin] = &[
    f!("now", 0, 1, ret_now, now),
    f!("current_timestamp", 0, 1, ret_now, now),
    f!("localtime", 0, 1, ret_now, now),
    f!("localtimestamp", 0, 1, ret_now, now),
    Builtin {
        name: "sysdate",
        min_args: 0,
        max_args: 1,
        ret: ret_now,
        eval: sysdate,
        deterministic: false,
    },
    f!("curdate", 0, 0, |_, _| SqlType::Date, curdate),
    f!("current_date", 0, 0, |_, _| SqlType::Date, curdate),
    f!("curtime", 0, 1, ret_curtime, curtime),
    f!("current_time", 0, 1, ret_curtime, curtime),
    f!("utc_date", 0, 0, |_, _| SqlType::Date, utc_date),
    f!("utc_time", 0, 1, ret_curtime, utc_time),
    f!("utc_timestamp", 0, 1, ret_now, utc_timestamp),
    f!("date", 1, 1, |_, _| SqlType::Date, date),
    f!("time", 1, 1, ret_time, time),
    f!("timestamp", 1, 2, ret_timestamp, timestamp),
    f!("year", 1, 1, |_, _| int_display(4), year),
    f!("month", 1, 1, |_, _| int_display(2), month),
    f!("day", 1, 1, |_, _| int_display(2), day),
    f!("dayofmonth", 1, 1, |_, _| int_display(2), day),
    f!("hour", 1, 1, |_, _| int_display(3), hour),
    f!("minute", 1, 1, |_, _| int_display(2), minute),
    f!("second", 1, 1, |_, _| int_display(2), second),
    f!("microsecond", 1, 1, |_, _| bigint(6), microsecond),
    f!("dayofweek", 1, 1, |_, _| int_display(1), dayofweek),
    f!("weekday", 1, 1, |_, _| int_display(1), weekday),
    f!("dayofyear", 1, 1, |_, _| int_display(3), dayofyear),
    f!("dayname", 1, 1, |_, _| text_type(9), dayname),
    f!("monthname", 1, 1, |_, _| text_type(9), monthname),
    f!("quarter", 1, 1, |_, _| int_display(1), quarter),
    f!("week", 1, 2, |_, _| int_display(2), week),
    f!("weekofyear", 1, 1, |_, _| int_display(2), weekofyear),
    f!("yearweek", 1, 2, |_, _| int_display(6), yearweek),
    f!("last_day", 1, 1, |_, _| SqlType::Date, last_day),
    f!("makedate", 2, 2, |_, _| SqlType::Date, makedate),
    f!("maketime", 3, 3, ret_maketime, maketime),
    f!("to_days", 1, 1, |_, _| bigint(7), to_days),
    f!("from_days", 1, 1, |_, _| SqlType::Date, from_days),
    f!("to_seconds", 1, 1, |_, _| bigint(12), to_seconds),
    f!("datediff", 2, 2, |_, _| bigint(8), datediff),
    f!("unix_timestamp", 0, 1, ret_unix_timestamp, unix_timestamp),
    f!("from_unixtime", 1, 2, ret_from_unixtime, from_unixtime),
    f!("sec_to_time", 1, 1, ret_sec_to_time, sec_to_time),
    f!("time_to_sec", 1, 1, |_, _| bigint(10), time_to_sec),
    f!("period_add", 2, 2, |_, _| bigint(6), period_add),
    f!("period_diff", 2, 2, |_, _| bigint(6), period_diff),
    f!("convert_tz", 3, 3, ret_convert_tz, convert_tz),
];

const MICROS_PER_SECOND: i64 = 1_000_000;
/// `FROM_UNIXTIME`'s and `UNIX_TIMESTAMP`'s upper bound on 64-bit MySQL 8.0.28+
/// (3001-01-18 23:59:59 UTC).
const UNIX_TIME_MAX_SECONDS: i64 = 32_536_771_199;

// ---------------------------------------------------------------------------------------
// Reading temporal arguments.

/// What kind of temporal a value was read as (MySQL's `time_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Date,
    DateTime,
    Time,
}

fn warn_incorrect(ctx: &mut FnCtx, kind: &str, v: &Value) {
    let text = convert::to_string_lossy(v);
    let text: String = text.chars().take(128).collect();
    ctx.diag.warn(
        code::ER_TRUNCATED_WRONG_VALUE,
        format!("Incorrect {kind} value: '{text}'"),
    );
}

pub(super) fn warn_overflow(ctx: &mut FnCtx, what: &str) {
    ctx.diag.warn(
        code::ER_DATETIME_FUNCTION_OVERFLOW,
        format!("Datetime function: {what} field overflow"),
    );
}

/// A TIME on the statement's date (how MySQL turns a TIME into a DATETIME).
fn time_on_today(t: Time, ctx: &FnCtx) -> Option<DateTime> {
    let today = ctx.now_local.date_part();
    temporal::add_interval(today, IntervalUnit::Microsecond, t.micros)
}

/// The argument read as a date or datetime (MySQL's `get_date` with `TIME_FUZZY_DATE`).
pub(super) fn get_datetime(v: &Value, ctx: &mut FnCtx) -> Option<(DateTime, Kind)> {
    match v {
        Value::Null => None,
        Value::Date(d) => Some((*d, Kind::Date)),
        Value::DateTime(d) => Some((*d, Kind::DateTime)),
        Value::Time(t) => time_on_today(*t, ctx).map(|d| (d, Kind::DateTime)),
        Value::Bytes(s) => match temporal::parse_datetime(s) {
            Ok(p) => {
                if p.truncated {
                    ctx.diag.warn(
                        code::ER_TRUNCATED_WRONG_VALUE,
                        format!(
                            "Truncated incorrect datetime value: '{}'",
                            String::from_utf8_lossy(s)
                                .chars()
                                .take(128)
                                .collect::<String>()
                        ),
                    );
                }
                Some((
                    p.value,
                    if p.has_time {
                        Kind::DateTime
                    } else {
                        Kind::Date
                    },
                ))
            }
            Err(_) => {
                warn_incorrect(ctx, "datetime", v);
                None
            }
        },
        _ => {
            let d = convert::to_datetime(v, ctx.diag)?;
            let kind = match convert::to_i64(v, &mut Default::default()) {
                Some(n) if (0..=99_991_231).contains(&n) => Kind::Date,
                _ => Kind::DateTime,
            };
            Some((d, kind))
        }
    }
}

/// [`get_datetime`] for functions that need a real calendar day (MySQL's
/// `TIME_NO_ZERO_DATE` without `TIME_FUZZY_DATE`): zero month or day is NULL + 1292.
pub(super) fn get_date_strict(v: &Value, ctx: &mut FnCtx) -> Option<(DateTime, Kind)> {
    let (d, kind) = get_datetime(v, ctx)?;
    if d.month == 0 || d.day == 0 {
        warn_incorrect(ctx, "datetime", v);
        return None;
    }
    Some((d, kind))
}

/// A temporal read as a time (MySQL's `MYSQL_TIME` after `get_time`): for a TIME `hour`
/// is the total hours and `day` 0; for a datetime they are the hour and the day of month.
#[derive(Clone, Copy, Debug)]
pub(super) struct TimeParts {
    pub(super) neg: bool,
    pub(super) day: u32,
    pub(super) hour: u32,
    pub(super) minute: u32,
    pub(super) second: u32,
    pub(super) micro: u32,
    pub(super) kind: Kind,
    pub(super) date: DateTime,
}

impl TimeParts {
    fn of_time(t: Time) -> TimeParts {
        let a = t.micros.unsigned_abs();
        let secs = a / 1_000_000;
        TimeParts {
            neg: t.micros < 0,
            day: 0,
            hour: (secs / 3600) as u32,
            minute: (secs / 60 % 60) as u32,
            second: (secs % 60) as u32,
            micro: (a % 1_000_000) as u32,
            kind: Kind::Time,
            date: DateTime::ZERO,
        }
    }

    fn of_datetime(d: DateTime, kind: Kind) -> TimeParts {
        TimeParts {
            neg: false,
            day: d.day as u32,
            hour: d.hour as u32,
            minute: d.minute as u32,
            second: d.second as u32,
            micro: d.micro,
            kind,
            date: d,
        }
    }

    /// The signed time of day (or duration) in microseconds.
    pub(super) fn time_micros(&self) -> i64 {
        let m = ((self.hour as i64 * 60 + self.minute as i64) * 60 + self.second as i64)
            * MICROS_PER_SECOND
            + self.micro as i64;
        if self.neg { -m } else { m }
    }
}

/// Whether a string that parses as a datetime is one for `get_time` (MySQL's
/// `str_to_time` tries a full datetime only for 12+ characters, and with
/// `TIME_DATETIME_ONLY` delimiters need the date/time space).
fn time_string_as_datetime(s: &[u8]) -> Option<(DateTime, Kind)> {
    let body = s.trim_ascii();
    if body.len() < 12 {
        return None;
    }
    let all_digits = body.iter().all(|&c| c.is_ascii_digit() || c == b'.');
    if !all_digits && !body.contains(&b' ') {
        return None;
    }
    let p = temporal::parse_datetime(body).ok()?;
    Some((
        p.value,
        if p.has_time {
            Kind::DateTime
        } else {
            Kind::Date
        },
    ))
}

/// The argument read as a time (MySQL's `get_time`).
pub(super) fn get_time(v: &Value, ctx: &mut FnCtx) -> Option<TimeParts> {
    match v {
        Value::Null => None,
        Value::Time(t) => Some(TimeParts::of_time(*t)),
        Value::Date(d) => Some(TimeParts::of_datetime(*d, Kind::Date)),
        Value::DateTime(d) => Some(TimeParts::of_datetime(*d, Kind::DateTime)),
        Value::Bytes(s) => match time_string_as_datetime(s) {
            Some((d, kind)) => Some(TimeParts::of_datetime(d, kind)),
            None => convert::to_time(v, ctx.diag).map(TimeParts::of_time),
        },
        Value::Int(n) if *n >= 10_000_000_000 => match temporal::datetime_from_int(*n) {
            Ok((d, _)) => Some(TimeParts::of_datetime(d, Kind::DateTime)),
            Err(_) => convert::to_time(v, ctx.diag).map(TimeParts::of_time),
        },
        _ => convert::to_time(v, ctx.diag).map(TimeParts::of_time),
    }
}

/// Fractional digits MySQL gives a temporal read from an argument of type `t` (constant
/// value `k`): its own precision for temporals, the digits written in a constant string,
/// six for other strings and doubles, the scale of a decimal.
pub(super) fn temporal_precision(t: Option<&SqlType>, k: Option<&Value>) -> u8 {
    if let Some(Value::Bytes(s)) = k {
        // A string read both ways ('10:00:00.5' is also a (bad) datetime) has the digits
        // of either.
        let as_datetime = temporal::parse_datetime(s).ok().map(|p| p.frac_digits);
        let as_time = temporal::parse_time(s).ok().map(|p| p.frac_digits);
        return match (as_datetime, as_time) {
            (None, None) => 6,
            (a, b) => a.max(b).unwrap_or(0),
        }
        .min(6);
    }
    if let Some(Value::Decimal(d)) = k {
        return d.fractional_digit_count().clamp(0, 6) as u8;
    }
    match t {
        Some(SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } | SqlType::Time { fsp }) => {
            (*fsp).min(6)
        }
        Some(SqlType::Decimal { scale, .. }) => (*scale).min(6),
        Some(SqlType::Double { .. } | SqlType::Float { .. }) => 6,
        Some(t) if t.is_string() => 6,
        _ => 0,
    }
}

/// MySQL's `decimals` of an argument, capped at 6: the scale of a DECIMAL, 0 for
/// integers, 6 for strings and doubles ("not fixed"), the precision of a temporal. Unlike
/// [`temporal_precision`] a constant string is not looked into.
pub(super) fn arg_decimals(t: Option<&SqlType>, k: Option<&Value>) -> u8 {
    match (k, t) {
        (Some(Value::Decimal(d)), _) => d.fractional_digit_count().clamp(0, 6) as u8,
        (Some(Value::Int(_) | Value::UInt(_)), _) => 0,
        (_, Some(t)) if t.is_integer() => 0,
        (_, Some(SqlType::Null)) | (_, None) => 0,
        (_, Some(SqlType::Date)) => 0,
        (
            _,
            Some(SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } | SqlType::Time { fsp }),
        ) => (*fsp).min(6),
        (_, Some(SqlType::Decimal { scale, .. })) => (*scale).min(6),
        _ => 6,
    }
}

fn decimals_of(types: &[SqlType], consts: &[Option<Value>], i: usize) -> u8 {
    arg_decimals(types.get(i), consts.get(i).and_then(Option::as_ref))
}

pub(super) fn precision_of(types: &[SqlType], consts: &[Option<Value>], i: usize) -> u8 {
    temporal_precision(types.get(i), consts.get(i).and_then(Option::as_ref))
}

// ---------------------------------------------------------------------------------------
// Clock functions.

fn fsp_arg(args: &[Value], ctx: &mut FnCtx, name: &str) -> Result<u8, MyError> {
    if args.is_empty() {
        return Ok(0);
    }
    let fsp = int_arg(args, 0, ctx).unwrap_or(0);
    if !(0..=6).contains(&fsp) {
        return Err(MyError::new(
            code::ER_TOO_BIG_PRECISION,
            format!("Too-big precision {fsp} specified for '{name}'. Maximum is 6."),
        ));
    }
    Ok(fsp as u8)
}

fn ret_now(_: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    SqlType::DateTime {
        fsp: const_int(consts, 0).unwrap_or(0).clamp(0, 6) as u8,
    }
}

fn ret_curtime(_: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    SqlType::Time {
        fsp: const_int(consts, 0).unwrap_or(0).clamp(0, 6) as u8,
    }
}

fn now(args: &[Value], ctx: &mut FnCtx) -> R {
    let fsp = fsp_arg(args, ctx, "now")?;
    Ok(Value::DateTime(temporal::truncate_datetime(
        ctx.now_local,
        fsp,
    )))
}

fn system_local(ctx: &FnCtx) -> DateTime {
    temporal::datetime_from_unix_micros(temporal::now_unix_micros(), ctx.tz_offset_s)
        .unwrap_or(ctx.now_local)
}

fn sysdate(args: &[Value], ctx: &mut FnCtx) -> R {
    let fsp = fsp_arg(args, ctx, "sysdate")?;
    Ok(Value::DateTime(temporal::truncate_datetime(
        system_local(ctx),
        fsp,
    )))
}

fn curdate(_: &[Value], ctx: &mut FnCtx) -> R {
    Ok(Value::Date(ctx.now_local.date_part()))
}

fn curtime(args: &[Value], ctx: &mut FnCtx) -> R {
    let fsp = fsp_arg(args, ctx, "curtime")?;
    let d = temporal::truncate_datetime(ctx.now_local, fsp);
    Ok(Value::Time(temporal::time_of_day(&d)))
}

fn utc_now(ctx: &FnCtx) -> DateTime {
    temporal::datetime_from_unix_micros(ctx.now_unix_micros, 0).unwrap_or(DateTime::ZERO)
}

fn utc_date(_: &[Value], ctx: &mut FnCtx) -> R {
    Ok(Value::Date(utc_now(ctx).date_part()))
}

fn utc_time(args: &[Value], ctx: &mut FnCtx) -> R {
    let fsp = fsp_arg(args, ctx, "utc_time")?;
    let d = temporal::truncate_datetime(utc_now(ctx), fsp);
    Ok(Value::Time(temporal::time_of_day(&d)))
}

fn utc_timestamp(args: &[Value], ctx: &mut FnCtx) -> R {
    let fsp = fsp_arg(args, ctx, "utc_timestamp")?;
    Ok(Value::DateTime(temporal::truncate_datetime(
        utc_now(ctx),
        fsp,
    )))
}

// ---------------------------------------------------------------------------------------
// DATE(), TIME(), TIMESTAMP() and the field extractors.

fn ret_time(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    SqlType::Time {
        fsp: precision_of(types, consts, 0),
    }
}

fn ret_timestamp(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    SqlType::DateTime {
        fsp: precision_of(types, consts, 0).max(precision_of(types, consts, 1)),
    }
}

fn date(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(get_datetime(arg(args, 0), ctx).map_or(Value::Null, |(d, _)| Value::Date(d.date_part())))
}

fn time(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(get_time(arg(args, 0), ctx).map_or(Value::Null, |p| {
        Value::Time(Time {
            micros: p.time_micros(),
        })
    }))
}

fn timestamp(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some((d, _)) = get_datetime(arg(args, 0), ctx) else {
        return Ok(Value::Null);
    };
    if args.len() < 2 {
        return Ok(Value::DateTime(d));
    }
    let Some(t) = get_time(arg(args, 1), ctx) else {
        return Ok(Value::Null);
    };
    if t.kind != Kind::Time {
        return Ok(Value::Null);
    }
    Ok(add_micros(d, t.time_micros(), ctx).map_or(Value::Null, Value::DateTime))
}

/// `d` plus a signed number of microseconds; NULL (with 1441) outside the DATETIME range.
pub(super) fn add_micros(d: DateTime, micros: i64, ctx: &mut FnCtx) -> Option<DateTime> {
    let r = temporal::add_interval(d, IntervalUnit::Microsecond, micros);
    if r.is_none() {
        warn_overflow(ctx, "datetime");
    }
    r
}

fn date_field(args: &[Value], ctx: &mut FnCtx, f: impl FnOnce(&DateTime) -> i64) -> R {
    Ok(get_datetime(arg(args, 0), ctx).map_or(Value::Null, |(d, _)| Value::Int(f(&d))))
}

fn strict_date_field(args: &[Value], ctx: &mut FnCtx, f: impl FnOnce(&DateTime) -> i64) -> R {
    Ok(get_date_strict(arg(args, 0), ctx).map_or(Value::Null, |(d, _)| Value::Int(f(&d))))
}

fn time_field(args: &[Value], ctx: &mut FnCtx, f: impl FnOnce(&TimeParts) -> i64) -> R {
    Ok(get_time(arg(args, 0), ctx).map_or(Value::Null, |p| Value::Int(f(&p))))
}

fn year(args: &[Value], ctx: &mut FnCtx) -> R {
    date_field(args, ctx, |d| d.year as i64)
}

fn month(args: &[Value], ctx: &mut FnCtx) -> R {
    date_field(args, ctx, |d| d.month as i64)
}

fn day(args: &[Value], ctx: &mut FnCtx) -> R {
    date_field(args, ctx, |d| d.day as i64)
}

fn quarter(args: &[Value], ctx: &mut FnCtx) -> R {
    date_field(args, ctx, |d| (d.month as i64 + 2) / 3)
}

fn hour(args: &[Value], ctx: &mut FnCtx) -> R {
    time_field(args, ctx, |p| p.hour as i64)
}

fn minute(args: &[Value], ctx: &mut FnCtx) -> R {
    time_field(args, ctx, |p| p.minute as i64)
}

fn second(args: &[Value], ctx: &mut FnCtx) -> R {
    time_field(args, ctx, |p| p.second as i64)
}

fn microsecond(args: &[Value], ctx: &mut FnCtx) -> R {
    time_field(args, ctx, |p| p.micro as i64)
}

fn dayofweek(args: &[Value], ctx: &mut FnCtx) -> R {
    strict_date_field(args, ctx, |d| {
        calc_weekday(temporal::day_number(d), true) + 1
    })
}

fn weekday(args: &[Value], ctx: &mut FnCtx) -> R {
    strict_date_field(args, ctx, |d| calc_weekday(temporal::day_number(d), false))
}

fn dayofyear(args: &[Value], ctx: &mut FnCtx) -> R {
    strict_date_field(args, ctx, |d| {
        temporal::day_number(d) - temporal::to_days(d.year as u32, 1, 1) + 1
    })
}

pub(super) const DAY_NAMES: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

pub(super) const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn dayname(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(
        get_date_strict(arg(args, 0), ctx).map_or(Value::Null, |(d, _)| {
            let w = calc_weekday(temporal::day_number(&d), false) as usize;
            Value::str(DAY_NAMES.get(w).copied().unwrap_or(""))
        }),
    )
}

fn monthname(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(match get_datetime(arg(args, 0), ctx) {
        Some((d, _)) if d.month >= 1 => {
            Value::str(MONTH_NAMES.get(d.month as usize - 1).copied().unwrap_or(""))
        }
        _ => Value::Null,
    })
}

// ---------------------------------------------------------------------------------------
// Weeks.

pub(super) const WEEK_MONDAY_FIRST: u32 = 1;
pub(super) const WEEK_YEAR: u32 = 2;
pub(super) const WEEK_FIRST_WEEKDAY: u32 = 4;

/// MySQL's `calc_weekday`: 0 = Monday (or Sunday when `sunday_first`).
pub(super) fn calc_weekday(daynr: i64, sunday_first: bool) -> i64 {
    (daynr + 5 + sunday_first as i64).rem_euclid(7)
}

/// MySQL's `week_mode`: the `WEEK()` mode argument as `calc_week` flags.
pub(super) fn week_mode(mode: i64) -> u32 {
    let mut f = (mode & 7) as u32;
    if f & WEEK_MONDAY_FIRST == 0 {
        f ^= WEEK_FIRST_WEEKDAY;
    }
    f
}

/// MySQL's `calc_week`: the week number of `d` and the year it belongs to.
pub(super) fn calc_week(d: &DateTime, behaviour: u32) -> (i64, i64) {
    let daynr = temporal::day_number(d);
    let mut first_daynr = temporal::to_days(d.year as u32, 1, 1);
    let monday_first = behaviour & WEEK_MONDAY_FIRST != 0;
    let mut week_year = behaviour & WEEK_YEAR != 0;
    let first_weekday = behaviour & WEEK_FIRST_WEEKDAY != 0;
    let mut weekday = calc_weekday(first_daynr, !monday_first);
    let mut year = d.year as i64;
    if d.month == 1 && (d.day as i64) <= 7 - weekday {
        if !week_year && ((first_weekday && weekday != 0) || (!first_weekday && weekday >= 4)) {
            return (0, year);
        }
        week_year = true;
        year -= 1;
        let days = temporal::days_in_year(year.max(0) as u32) as i64;
        first_daynr -= days;
        weekday = (weekday + 53 * 7 - days).rem_euclid(7);
    }
    let days = if (first_weekday && weekday != 0) || (!first_weekday && weekday >= 4) {
        daynr - (first_daynr + (7 - weekday))
    } else {
        daynr - (first_daynr - weekday)
    };
    if week_year && days >= 52 * 7 {
        let wd = (weekday + temporal::days_in_year(year.max(0) as u32) as i64).rem_euclid(7);
        if (!first_weekday && wd < 4) || (first_weekday && wd == 0) {
            return (1, year + 1);
        }
    }
    (days.div_euclid(7) + 1, year)
}

fn week(args: &[Value], ctx: &mut FnCtx) -> R {
    let mode = if args.len() > 1 {
        match int_arg(args, 1, ctx) {
            Some(m) => m,
            None => return Ok(Value::Null),
        }
    } else {
        0 // @@default_week_format
    };
    strict_date_field(args, ctx, |d| calc_week(d, week_mode(mode)).0)
}

fn weekofyear(args: &[Value], ctx: &mut FnCtx) -> R {
    strict_date_field(args, ctx, |d| calc_week(d, week_mode(3)).0)
}

fn yearweek(args: &[Value], ctx: &mut FnCtx) -> R {
    let mode = if args.len() > 1 {
        match int_arg(args, 1, ctx) {
            Some(m) => m,
            None => return Ok(Value::Null),
        }
    } else {
        0
    };
    strict_date_field(args, ctx, |d| {
        let (w, y) = calc_week(d, week_mode(mode) | WEEK_YEAR);
        w + y * 100
    })
}

// ---------------------------------------------------------------------------------------
// Calendar functions.

fn last_day(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some((d, _)) = get_datetime(arg(args, 0), ctx) else {
        return Ok(Value::Null);
    };
    if d.month == 0 {
        warn_incorrect(ctx, "datetime", &Value::Date(d.date_part()));
        return Ok(Value::Null);
    }
    let dim = temporal::days_in_month(d.year as u32, d.month as u32);
    Ok(Value::Date(DateTime::date(d.year, d.month, dim as u8)))
}

fn year_2000(y: i64) -> i64 {
    if y < 70 { y + 2000 } else { y + 1900 }
}

fn makedate(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(y), Some(n)) = (int_arg(args, 0, ctx), int_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    if !(0..=9999).contains(&y) || n <= 0 || n > temporal::MAX_DAY_NUMBER {
        return Ok(Value::Null);
    }
    let y = if y < 100 { year_2000(y) } else { y };
    let days = temporal::to_days(y as u32, 1, 1) + n - 1;
    if !(0..=temporal::MAX_DAY_NUMBER).contains(&days) {
        return Ok(Value::Null);
    }
    Ok(Value::Date(temporal::from_days(days)))
}

fn from_days(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(n) = int_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    let d = temporal::from_days(n);
    if d.year > 9999 {
        warn_overflow(ctx, "from_days");
        return Ok(Value::Null);
    }
    Ok(Value::Date(d))
}

fn to_days(args: &[Value], ctx: &mut FnCtx) -> R {
    strict_date_field(args, ctx, temporal::day_number)
}

fn to_seconds(args: &[Value], ctx: &mut FnCtx) -> R {
    strict_date_field(args, ctx, |d| {
        temporal::day_number(d) * 86_400
            + d.hour as i64 * 3600
            + d.minute as i64 * 60
            + d.second as i64
    })
}

fn datediff(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some((a, _)) = get_date_strict(arg(args, 0), ctx) else {
        return Ok(Value::Null);
    };
    let Some((b, _)) = get_date_strict(arg(args, 1), ctx) else {
        return Ok(Value::Null);
    };
    Ok(Value::Int(
        temporal::day_number(&a) - temporal::day_number(&b),
    ))
}

// ---------------------------------------------------------------------------------------
// Unix time.

fn ret_unix_timestamp(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    if types.is_empty() {
        return bigint(11);
    }
    match precision_of(types, consts, 0) {
        0 => bigint(11),
        fsp => SqlType::Decimal {
            precision: 11 + fsp,
            scale: fsp,
            unsigned: false,
        },
    }
}

fn unix_timestamp(args: &[Value], ctx: &mut FnCtx) -> R {
    if args.is_empty() {
        return Ok(Value::Int(
            ctx.now_unix_micros.div_euclid(MICROS_PER_SECOND),
        ));
    }
    let v = arg(args, 0);
    if v.is_null() {
        return Ok(Value::Null);
    }
    // MySQL's `get_timeval`: a value that is no date, or out of range, is 0.
    let micros = get_datetime(v, ctx)
        .and_then(|(d, _)| temporal::unix_micros_from_datetime(&d, ctx.tz_offset_s))
        .filter(|m| (0..=UNIX_TIME_MAX_SECONDS * MICROS_PER_SECOND + 999_999).contains(m))
        .unwrap_or(0);
    Ok(if micros % MICROS_PER_SECOND == 0 {
        Value::Int(micros / MICROS_PER_SECOND)
    } else {
        Value::decimal(BigDecimal::new(micros.into(), 6))
    })
}

fn ret_from_unixtime(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    if types.len() > 1 {
        return text_type(255);
    }
    SqlType::DateTime {
        fsp: decimals_of(types, consts, 0),
    }
}

fn from_unixtime(args: &[Value], ctx: &mut FnCtx) -> R {
    let v = arg(args, 0);
    let (secs, nanos): (i64, i64) = match v {
        Value::Null => return Ok(Value::Null),
        Value::Int(_) | Value::UInt(_) => match convert::to_i64(v, ctx.diag) {
            Some(s) => (s, 0),
            None => return Ok(Value::Null),
        },
        _ => {
            let Some(d) = convert::to_decimal(v, ctx.diag) else {
                return Ok(Value::Null);
            };
            if d.sign() == Sign::Minus {
                return Ok(Value::Null);
            }
            let int = d.with_scale_round(0, RoundingMode::Down);
            let frac = ((&d - &int) * BigDecimal::from(1_000_000_000))
                .with_scale_round(0, RoundingMode::Down);
            (int.to_i64().unwrap_or(i64::MAX), frac.to_i64().unwrap_or(0))
        }
    };
    if !(0..=UNIX_TIME_MAX_SECONDS).contains(&secs) {
        return Ok(Value::Null);
    }
    let micros = secs * MICROS_PER_SECOND + (nanos + 500) / 1000;
    let Some(d) = temporal::datetime_from_unix_micros(micros, ctx.tz_offset_s) else {
        return Ok(Value::Null);
    };
    if args.len() < 2 {
        return Ok(Value::DateTime(d));
    }
    let Some(fmt) = super::str_arg(args, 1) else {
        return Ok(Value::Null);
    };
    Ok(timefmt::format_datetime_value(&d, &fmt, false))
}

fn ret_sec_to_time(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    SqlType::Time {
        fsp: decimals_of(types, consts, 0),
    }
}

fn sec_to_time(args: &[Value], ctx: &mut FnCtx) -> R {
    let v = arg(args, 0);
    let Some(d) = convert::to_decimal(v, ctx.diag) else {
        return Ok(Value::Null);
    };
    let micros =
        (&d * BigDecimal::from(MICROS_PER_SECOND)).with_scale_round(0, RoundingMode::HalfUp);
    let limit = temporal::TIME_MAX_MICROS;
    match micros.to_i64() {
        Some(m) if m.unsigned_abs() <= limit as u64 => Ok(Value::Time(Time { micros: m })),
        _ => {
            let mut text = Vec::new();
            convert::write_decimal(&d, None, &mut text);
            ctx.diag.warn(
                code::ER_TRUNCATED_WRONG_VALUE,
                format!(
                    "Truncated incorrect time value: '{}'",
                    String::from_utf8_lossy(&text)
                ),
            );
            let neg = d.sign() == Sign::Minus;
            Ok(Value::Time(Time {
                micros: if neg { -limit } else { limit },
            }))
        }
    }
}

fn time_to_sec(args: &[Value], ctx: &mut FnCtx) -> R {
    // MySQL 8.0 returns whole seconds (MariaDB keeps the fraction).
    time_field(args, ctx, |p| {
        let s = p.hour as i64 * 3600 + p.minute as i64 * 60 + p.second as i64;
        if p.neg { -s } else { s }
    })
}

// ---------------------------------------------------------------------------------------
// Periods.

fn valid_period(p: i64) -> bool {
    p > 0 && (1..=12).contains(&(p % 100))
}

fn period_to_month(p: i64) -> i64 {
    let mut y = p / 100;
    if y < 70 {
        y += 2000;
    } else if y < 100 {
        y += 1900;
    }
    y.saturating_mul(12).saturating_add(p % 100 - 1)
}

fn month_to_period(m: i64) -> i64 {
    if m <= 0 {
        return 0;
    }
    let mut y = m / 12;
    if y < 100 {
        y += if y < 70 { 2000 } else { 1900 };
    }
    y.saturating_mul(100).saturating_add(m % 12 + 1)
}

fn bad_period(name: &str) -> MyError {
    MyError::new(
        code::ER_WRONG_ARGUMENTS,
        format!("Incorrect arguments to {name}"),
    )
}

fn period_add(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(p), Some(n)) = (int_arg(args, 0, ctx), int_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    // MySQL 8.0.28+ rejects malformed periods (MariaDB computes something anyway).
    if !valid_period(p) {
        return Err(bad_period("period_add"));
    }
    Ok(Value::Int(month_to_period(
        period_to_month(p).saturating_add(n),
    )))
}

fn period_diff(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(a), Some(b)) = (int_arg(args, 0, ctx), int_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    if !valid_period(a) || !valid_period(b) {
        return Err(bad_period("period_diff"));
    }
    Ok(Value::Int(period_to_month(a) - period_to_month(b)))
}

// ---------------------------------------------------------------------------------------
// Time zones.

/// A time zone given as an offset, `'+HH:MM'` / `'-H:MM'`, in seconds (MySQL accepts
/// -13:59 … +14:00). Named zones need time zone tables, which Quire does not have.
fn parse_offset(s: &[u8]) -> Option<i32> {
    let s = s.trim_ascii();
    let (neg, rest) = match s.first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => return None,
    };
    let colon = rest.iter().position(|&c| c == b':')?;
    let (h, m) = (&rest[..colon], &rest[colon + 1..]);
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return None;
    }
    let num = |b: &[u8]| -> Option<i32> {
        b.iter().try_fold(0i32, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + (c - b'0') as i32)
        })
    };
    let (h, m) = (num(h)?, num(m)?);
    if m > 59 {
        return None;
    }
    let secs = (h * 60 + m) * 60;
    let secs = if neg { -secs } else { secs };
    (-(13 * 3600 + 59 * 60)..=14 * 3600)
        .contains(&secs)
        .then_some(secs)
}

fn ret_convert_tz(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    SqlType::DateTime {
        fsp: precision_of(types, consts, 0),
    }
}

fn convert_tz(args: &[Value], ctx: &mut FnCtx) -> R {
    if any_null(args) {
        return Ok(Value::Null);
    }
    let (Some(from), Some(to)) = (
        parse_offset(&convert::to_bytes(arg(args, 1))),
        parse_offset(&convert::to_bytes(arg(args, 2))),
    ) else {
        return Ok(Value::Null);
    };
    let Some((d, _)) = get_date_strict(arg(args, 0), ctx) else {
        return Ok(Value::Null);
    };
    // MySQL converts only values inside the TIMESTAMP range; others come back unchanged.
    let in_range = (1969..=2038).contains(&d.year)
        && !(d.year == 2038 && (d.month > 1 || d.day > 19))
        && !(d.year == 1969 && (d.month < 12 || d.day < 31));
    let utc_secs = temporal::unix_micros_from_datetime(&DateTime { micro: 0, ..d }, from)
        .map(|m| m / MICROS_PER_SECOND);
    match utc_secs {
        Some(s) if in_range && (1..=i32::MAX as i64).contains(&s) => {
            let out =
                temporal::datetime_from_unix_micros(s * MICROS_PER_SECOND, to).map(|r| DateTime {
                    micro: d.micro,
                    ..r
                });
            Ok(out.map_or(Value::Null, Value::DateTime))
        }
        _ => Ok(Value::DateTime(d)),
    }
}

// ---------------------------------------------------------------------------------------
// MAKETIME.

fn ret_maketime(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    SqlType::Time {
        fsp: decimals_of(types, consts, 2),
    }
}

fn maketime(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(h), Some(m)) = (int_arg(args, 0, ctx), int_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    let Some(s) = convert::to_decimal(arg(args, 2), ctx.diag) else {
        return Ok(Value::Null);
    };
    let s_micros = (&s * BigDecimal::from(MICROS_PER_SECOND))
        .with_scale_round(0, RoundingMode::HalfUp)
        .to_i64();
    let Some(s_micros) = s_micros.filter(|&x| (0..60 * MICROS_PER_SECOND).contains(&x)) else {
        return Ok(Value::Null);
    };
    if !(0..=59).contains(&m) || s.sign() == Sign::Minus {
        return Ok(Value::Null);
    }
    let total = (h.unsigned_abs() as u128 * 3600 + m as u128 * 60) * MICROS_PER_SECOND as u128
        + s_micros as u128;
    if total > temporal::TIME_MAX_MICROS as u128 {
        let mut text = format!("{h}:{m:02}:{:02}", s_micros / MICROS_PER_SECOND);
        let frac = s_micros % MICROS_PER_SECOND;
        if frac != 0 {
            text.push_str(&format!(".{frac:06}"));
        }
        ctx.diag.warn(
            code::ER_TRUNCATED_WRONG_VALUE,
            format!("Truncated incorrect time value: '{text}'"),
        );
        let limit = temporal::TIME_MAX_MICROS;
        return Ok(Value::Time(Time {
            micros: if h < 0 { -limit } else { limit },
        }));
    }
    let micros = total as i64;
    Ok(Value::Time(Time {
        micros: if h < 0 { -micros } else { micros },
    }))
}
