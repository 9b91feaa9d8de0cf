//! `DATE_FORMAT`, `TIME_FORMAT`, `STR_TO_DATE` and `GET_FORMAT`: MySQL's
//! `make_date_time` and `extract_date_time`, specifier by specifier.
//!
//! Formatting (`%Y %y %m %c %M %b %d %e %D %j %H %k %h %I %l %i %s %S %f %p %r %T %W %a
//! %w %U %u %V %v %X %x %%`; any other `%c` prints `c`) never fails except where MySQL
//! gives NULL: a month name of month 0, a weekday of the zero date, and the date
//! specifiers of `TIME_FORMAT` (`%W %a %D %j %U %u %V %v %X %x %w`). Names are English
//! (`lc_time_names = en_US`).
//!
//! Parsing (`STR_TO_DATE`) walks the format: white space in the format matches nothing
//! (white space in the input is skipped before every element), a literal must match
//! exactly, numbers are read with at most their field width (`%Y` four digits, `%j`
//! three, `%f` six), names by unambiguous prefix (`'Jan'`, `'janu'`; `'Ju'` is an
//! error). `%p` needs a 12-hour specifier before it. The result type follows the format
//! (`fix_from_format`): date specifiers only → DATE, time only → TIME, both → DATETIME,
//! `%f` adds microseconds. Errors are NULL with warning 1411 `Incorrect datetime value:
//! '…' for function str_to_date`; trailing characters give 1292 and keep the value. As in
//! MySQL 8.0 with its default `sql_mode` (`NO_ZERO_DATE`, `NO_ZERO_IN_DATE`), a date with
//! a zero year, month or day is NULL (MariaDB's default mode returns it).

use super::R;
use super::time::{
    DAY_NAMES, MONTH_NAMES, WEEK_FIRST_WEEKDAY, WEEK_MONDAY_FIRST, WEEK_YEAR, calc_week,
    calc_weekday,
};
use super::{Builtin, FnCtx, arg, fits_packet, str_arg, text_type};
use crate::error::code;
use crate::sql::convert;
use crate::sql::temporal;
use crate::sql::types::SqlType;
use crate::sql::value::{DateTime, Time, Value};

pub(super) static FUNCS: &[Builtin] = &[
    Builtin {
        name: "date_format",
        min_args: 2,
        max_args: 2,
        ret: ret_format,
        eval: date_format,
        deterministic: true,
    },
    Builtin {
        name: "time_format",
        min_args: 2,
        max_args: 2,
        ret: ret_format,
        eval: time_format,
        deterministic: true,
    },
    Builtin {
        name: "str_to_date",
        min_args: 2,
        max_args: 2,
        ret: ret_str_to_date,
        eval: str_to_date,
        deterministic: true,
    },
    Builtin {
        name: "get_format",
        min_args: 2,
        max_args: 2,
        ret: |_, _| text_type(17),
        eval: get_format,
        deterministic: true,
    },
];

const AB_DAY_NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const AB_MONTH_NAMES: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

// ---------------------------------------------------------------------------------------
// Formatting.

/// The broken-down value `make_date_time` prints.
struct Parts {
    neg: bool,
    year: u32,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    micro: u32,
}

impl Parts {
    fn datetime(&self) -> DateTime {
        DateTime {
            year: self.year.min(9999) as u16,
            month: self.month.min(12) as u8,
            day: self.day.min(31) as u8,
            ..DateTime::ZERO
        }
    }

    fn daynr(&self) -> i64 {
        temporal::to_days(self.year, self.month, self.day)
    }
}

fn push_num(out: &mut Vec<u8>, v: i64, width: usize) {
    let s = v.unsigned_abs().to_string();
    if v < 0 {
        out.push(b'-');
    }
    out.extend(std::iter::repeat_n(b'0', width.saturating_sub(s.len())));
    out.extend_from_slice(s.as_bytes());
}

/// MySQL's `make_date_time`; `None` where MySQL's result is NULL.
fn make_date_time(fmt: &[u8], p: &Parts, is_time: bool) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(fmt.len() * 2);
    if p.neg {
        out.push(b'-');
    }
    let hour12 = (p.hour % 24 + 11) % 12 + 1;
    let mut i = 0;
    while let Some(&c) = fmt.get(i) {
        i += 1;
        if c != b'%' || i == fmt.len() {
            out.push(c);
            continue;
        }
        let spec = fmt[i];
        i += 1;
        let no_date = is_time || (p.month == 0 && p.year == 0);
        match spec {
            b'M' | b'b' => {
                let m = p.month.checked_sub(1)? as usize;
                let names: &[&str] = if spec == b'M' {
                    &MONTH_NAMES
                } else {
                    &AB_MONTH_NAMES
                };
                out.extend_from_slice(names.get(m)?.as_bytes());
            }
            b'W' | b'a' => {
                if no_date {
                    return None;
                }
                let w = calc_weekday(p.daynr(), false) as usize;
                let names: &[&str] = if spec == b'W' {
                    &DAY_NAMES
                } else {
                    &AB_DAY_NAMES
                };
                out.extend_from_slice(names.get(w)?.as_bytes());
            }
            b'D' => {
                if is_time {
                    return None;
                }
                push_num(&mut out, p.day as i64, 1);
                let suffix = match p.day {
                    10..=19 => "th",
                    d if d % 10 == 1 => "st",
                    d if d % 10 == 2 => "nd",
                    d if d % 10 == 3 => "rd",
                    _ => "th",
                };
                out.extend_from_slice(suffix.as_bytes());
            }
            b'Y' => push_num(&mut out, p.year as i64, 4),
            b'y' => push_num(&mut out, (p.year % 100) as i64, 2),
            b'm' => push_num(&mut out, p.month as i64, 2),
            b'c' => push_num(&mut out, p.month as i64, 1),
            b'd' => push_num(&mut out, p.day as i64, 2),
            b'e' => push_num(&mut out, p.day as i64, 1),
            b'f' => push_num(&mut out, p.micro as i64, 6),
            b'H' => push_num(&mut out, p.hour as i64, 2),
            b'h' | b'I' => push_num(&mut out, hour12 as i64, 2),
            b'i' => push_num(&mut out, p.minute as i64, 2),
            b'j' => {
                if is_time {
                    return None;
                }
                let doy = p.daynr() - temporal::to_days(p.year, 1, 1) + 1;
                push_num(&mut out, doy, 3);
            }
            b'k' => push_num(&mut out, p.hour as i64, 1),
            b'l' => push_num(&mut out, hour12 as i64, 1),
            b'p' => out.extend_from_slice(if p.hour % 24 < 12 { b"AM" } else { b"PM" }),
            b'r' => {
                push_num(&mut out, ((p.hour + 11) % 12 + 1) as i64, 2);
                out.push(b':');
                push_num(&mut out, p.minute as i64, 2);
                out.push(b':');
                push_num(&mut out, p.second as i64, 2);
                out.extend_from_slice(if p.hour % 24 < 12 { b" AM" } else { b" PM" });
            }
            b'S' | b's' => push_num(&mut out, p.second as i64, 2),
            b'T' => {
                push_num(&mut out, p.hour as i64, 2);
                out.push(b':');
                push_num(&mut out, p.minute as i64, 2);
                out.push(b':');
                push_num(&mut out, p.second as i64, 2);
            }
            b'U' | b'u' | b'V' | b'v' | b'X' | b'x' => {
                if is_time {
                    return None;
                }
                let flags = match spec {
                    b'U' => WEEK_FIRST_WEEKDAY,
                    b'u' => WEEK_MONDAY_FIRST,
                    b'V' | b'X' => WEEK_YEAR | WEEK_FIRST_WEEKDAY,
                    _ => WEEK_YEAR | WEEK_MONDAY_FIRST,
                };
                let (week, year) = calc_week(&p.datetime(), flags);
                if matches!(spec, b'X' | b'x') {
                    push_num(&mut out, year, 4);
                } else {
                    push_num(&mut out, week, 2);
                }
            }
            b'w' => {
                if no_date {
                    return None;
                }
                push_num(&mut out, calc_weekday(p.daynr(), true), 1);
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// `DATE_FORMAT` of a datetime (also `FROM_UNIXTIME(ts, fmt)`).
pub(super) fn format_datetime_value(d: &DateTime, fmt: &[u8], is_time: bool) -> Value {
    if fmt.is_empty() {
        return Value::Null;
    }
    let p = Parts {
        neg: false,
        year: d.year as u32,
        month: d.month as u32,
        day: d.day as u32,
        hour: d.hour as u32,
        minute: d.minute as u32,
        second: d.second as u32,
        micro: d.micro,
    };
    make_date_time(fmt, &p, is_time).map_or(Value::Null, Value::from_vec)
}

/// `Item_func_date_format::format_length`: the longest result of a constant format.
fn format_length(fmt: &[u8]) -> u64 {
    let mut n = 0u64;
    let mut i = 0;
    while let Some(&c) = fmt.get(i) {
        i += 1;
        if c != b'%' || i == fmt.len() {
            n += 1;
            continue;
        }
        n += match fmt[i] {
            b'M' | b'W' => 64,
            b'D' | b'Y' | b'x' | b'X' => 4,
            b'a' | b'b' => 32,
            b'j' => 3,
            b'U' | b'u' | b'V' | b'v' | b'y' | b'm' | b'd' | b'h' | b'I' | b'i' | b'l' | b'p'
            | b'S' | b's' | b'c' | b'e' => 2,
            b'k' | b'H' => 7,
            b'r' => 11,
            b'T' => 8,
            b'f' => 6,
            _ => 1,
        };
        i += 1;
    }
    n
}

fn ret_format(_: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    match consts.get(1) {
        Some(Some(v)) if !v.is_null() => text_type(format_length(&convert::to_bytes(v)).max(1)),
        _ => text_type(u32::MAX as u64),
    }
}

fn date_format(args: &[Value], ctx: &mut FnCtx) -> R {
    let v = arg(args, 0);
    if v.is_null() {
        return Ok(Value::Null);
    }
    let Some(fmt) = str_arg(args, 1) else {
        return Ok(Value::Null);
    };
    let d = match v {
        Value::Time(t) => temporal::add_interval(
            ctx.now_local.date_part(),
            temporal::IntervalUnit::Microsecond,
            t.micros,
        ),
        _ => convert::to_datetime(v, ctx.diag),
    };
    let Some(d) = d else {
        return Ok(Value::Null);
    };
    let out = format_datetime_value(&d, &fmt, false);
    if let Value::Bytes(b) = &out
        && !fits_packet(b.len(), "date_format", ctx)
    {
        return Ok(Value::Null);
    }
    Ok(out)
}

fn time_format(args: &[Value], ctx: &mut FnCtx) -> R {
    let v = arg(args, 0);
    let Some(fmt) = str_arg(args, 1) else {
        return Ok(Value::Null);
    };
    if fmt.is_empty() {
        return Ok(Value::Null);
    }
    let t = match v {
        Value::Null => return Ok(Value::Null),
        Value::Date(d) | Value::DateTime(d) => temporal::time_of_day(d),
        _ => match convert::to_time(v, ctx.diag) {
            Some(t) => t,
            None => return Ok(Value::Null),
        },
    };
    let a = t.micros.unsigned_abs();
    let secs = a / 1_000_000;
    let p = Parts {
        neg: t.micros < 0,
        year: 0,
        month: 0,
        day: 0,
        hour: (secs / 3600) as u32,
        minute: (secs / 60 % 60) as u32,
        second: (secs % 60) as u32,
        micro: (a % 1_000_000) as u32,
    };
    Ok(make_date_time(&fmt, &p, true).map_or(Value::Null, Value::from_vec))
}

// ---------------------------------------------------------------------------------------
// GET_FORMAT.

/// `GET_FORMAT({DATE|TIME|DATETIME|TIMESTAMP}, 'USA'|'JIS'|'ISO'|'EUR'|'INTERNAL')`.
fn get_format(args: &[Value], _: &mut FnCtx) -> R {
    let (Some(kind), Some(name)) = (str_arg(args, 0), str_arg(args, 1)) else {
        return Ok(Value::Null);
    };
    const FORMATS: [(&str, [&str; 3]); 5] = [
        ("USA", ["%m.%d.%Y", "%Y-%m-%d %H.%i.%s", "%h:%i:%s %p"]),
        ("JIS", ["%Y-%m-%d", "%Y-%m-%d %H:%i:%s", "%H:%i:%s"]),
        ("ISO", ["%Y-%m-%d", "%Y-%m-%d %H:%i:%s", "%H:%i:%s"]),
        ("EUR", ["%d.%m.%Y", "%Y-%m-%d %H.%i.%s", "%H.%i.%s"]),
        ("INTERNAL", ["%Y%m%d", "%Y%m%d%H%i%s", "%H%i%s"]),
    ];
    let column = match kind.to_ascii_uppercase().as_slice() {
        b"DATE" => 0,
        b"DATETIME" | b"TIMESTAMP" => 1,
        b"TIME" => 2,
        _ => return Ok(Value::Null),
    };
    Ok(FORMATS
        .iter()
        .find(|(n, _)| n.as_bytes().eq_ignore_ascii_case(&name))
        .map_or(Value::Null, |(_, f)| Value::str(f[column])))
}

// ---------------------------------------------------------------------------------------
// STR_TO_DATE.

/// Which temporal a format produces (`Item_func_str_to_date::fix_from_format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Produces {
    Date,
    DateTime(u8),
    Time(u8),
}

fn produces(fmt: &[u8]) -> Produces {
    const TIME_PARTS: &[u8] = b"HISThiklrs";
    const DATE_PARTS: &[u8] = b"MVUXYWabcjmvuxyw";
    let (mut date, mut time, mut frac) = (false, false, false);
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] == b'%' && i + 1 < fmt.len() {
            i += 1;
            let c = fmt[i];
            if c == b'f' {
                frac = true;
                time = true;
            } else if TIME_PARTS.contains(&c) {
                time = true;
            } else if DATE_PARTS.contains(&c) {
                date = true;
            }
        }
        i += 1;
    }
    match (date, time, frac) {
        (true, _, true) => Produces::DateTime(6),
        (false, _, true) => Produces::Time(6),
        (true, true, false) => Produces::DateTime(0),
        (false, true, false) => Produces::Time(0),
        _ => Produces::Date,
    }
}

fn ret_str_to_date(_: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    match consts.get(1) {
        Some(Some(v)) if !v.is_null() => match produces(&convert::to_bytes(v)) {
            Produces::Date => SqlType::Date,
            Produces::DateTime(fsp) => SqlType::DateTime { fsp },
            Produces::Time(fsp) => SqlType::Time { fsp },
        },
        _ => SqlType::DateTime { fsp: 6 },
    }
}

/// The fields `extract_date_time` fills (signed: a `-` in a number is accepted and then
/// fails the range check, as in MySQL).
#[derive(Clone, Copy, Debug, Default)]
struct Fields {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    micro: i64,
}

/// MySQL's `my_strtoll10` over at most `max` bytes: optional blanks and sign, then
/// digits. Returns (value, bytes used); `None` if there is no digit.
fn strtoll10(s: &[u8], max: usize) -> Option<(i64, usize)> {
    let s = &s[..max.min(s.len())];
    let mut i = s.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    let neg = convert::skip_sign(s, &mut i);
    let start = i;
    let mut v: i64 = 0;
    while let Some(&c) = s.get(i).filter(|c| c.is_ascii_digit()) {
        v = v.saturating_mul(10).saturating_add((c - b'0') as i64);
        i += 1;
    }
    if i == start {
        return None;
    }
    Some((if neg { -v } else { v }, i))
}

/// MySQL's `check_word`: an alphabetic word matched case-insensitively against `names`,
/// exactly or as an unambiguous prefix. Returns (1-based index, bytes used).
fn check_word(names: &[&str], s: &[u8]) -> Option<(i64, usize)> {
    let len = s.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    if len == 0 {
        return None;
    }
    let word = &s[..len];
    let mut found = None;
    let mut count = 0;
    for (k, name) in names.iter().enumerate() {
        let n = name.as_bytes();
        if n.len() >= len && n[..len].eq_ignore_ascii_case(word) {
            if n.len() == len {
                return Some((k as i64 + 1, len));
            }
            found = Some(k);
            count += 1;
        }
    }
    if count == 1 {
        found.map(|k| (k as i64 + 1, len))
    } else {
        None
    }
}

/// Why parsing stopped: `Bad` pushes the 1411 warning with this kind ("datetime" for the
/// whole value, "time" inside `%r`/`%T`).
struct Bad(&'static str);

/// MySQL's `extract_date_time`. With `sub`, parses a `%r`/`%T` sub-pattern and returns
/// the bytes consumed without the final checks.
fn extract(fmt: &[u8], val: &[u8], f: &mut Fields, sub: bool) -> Result<usize, Bad> {
    let kind = if sub { "time" } else { "datetime" };
    let bad = || Bad(kind);
    let (mut weekday, mut yearday, mut daypart) = (0i64, 0i64, 0i64);
    let mut week_number: i64 = -1;
    let mut strict_year: i64 = -1;
    let (mut usa_time, mut sunday_first, mut strict_week, mut strict_year_type) =
        (false, false, false, false);
    let (mut p, mut v) = (0usize, 0usize);
    while p < fmt.len() && v < val.len() {
        while v < val.len() && convert::is_space(val[v]) {
            v += 1;
        }
        if v >= val.len() {
            break;
        }
        let rest = &val[v..];
        if fmt[p] == b'%' && p + 1 < fmt.len() {
            p += 1;
            let num = |max: usize| strtoll10(rest, max).ok_or_else(bad);
            match fmt[p] {
                b'Y' => {
                    let (n, used) = num(4)?;
                    f.year = if used <= 2 { year_2000(n) } else { n };
                    v += used;
                }
                b'y' => {
                    let (n, used) = num(2)?;
                    f.year = year_2000(n);
                    v += used;
                }
                b'm' | b'c' => {
                    let (n, used) = num(2)?;
                    f.month = n;
                    v += used;
                }
                b'M' | b'b' => {
                    let names: &[&str] = if fmt[p] == b'M' {
                        &MONTH_NAMES
                    } else {
                        &AB_MONTH_NAMES
                    };
                    let (n, used) = check_word(names, rest).ok_or_else(bad)?;
                    f.month = n;
                    v += used;
                }
                b'd' | b'e' => {
                    let (n, used) = num(2)?;
                    f.day = n;
                    v += used;
                }
                b'D' => {
                    let (n, used) = num(2)?;
                    f.day = n;
                    // Skip the 'st', 'nd', 'th'… suffix.
                    v += used + (rest.len() - used).min(2);
                }
                c @ (b'h' | b'I' | b'l' | b'k' | b'H') => {
                    usa_time |= matches!(c, b'h' | b'I' | b'l');
                    let (n, used) = num(2)?;
                    f.hour = n;
                    v += used;
                }
                b'i' => {
                    let (n, used) = num(2)?;
                    f.minute = n;
                    v += used;
                }
                b's' | b'S' => {
                    let (n, used) = num(2)?;
                    f.second = n;
                    v += used;
                }
                b'f' => {
                    let (n, used) = num(6)?;
                    let digits = used.min(6);
                    f.micro = n.saturating_mul(10i64.pow(6 - digits as u32));
                    v += used;
                }
                b'p' => {
                    if rest.len() < 2 || !usa_time {
                        return Err(bad());
                    }
                    match &rest[..2].to_ascii_uppercase()[..] {
                        b"PM" => daypart = 12,
                        b"AM" => {}
                        _ => return Err(bad()),
                    }
                    v += 2;
                }
                b'W' | b'a' => {
                    let names: &[&str] = if fmt[p] == b'W' {
                        &DAY_NAMES
                    } else {
                        &AB_DAY_NAMES
                    };
                    let (n, used) = check_word(names, rest).ok_or_else(bad)?;
                    weekday = n;
                    v += used;
                }
                b'w' => {
                    let (n, used) = num(1)?;
                    if !(0..7).contains(&n) {
                        return Err(bad());
                    }
                    weekday = if n == 0 { 7 } else { n };
                    v += used;
                }
                b'j' => {
                    let (n, used) = num(3)?;
                    yearday = n;
                    v += used;
                }
                c @ (b'V' | b'U' | b'v' | b'u') => {
                    sunday_first = matches!(c, b'U' | b'V');
                    strict_week = matches!(c, b'V' | b'v');
                    let (n, used) = num(2)?;
                    if n < 0 || (strict_week && n == 0) || n > 53 {
                        return Err(bad());
                    }
                    week_number = n;
                    v += used;
                }
                c @ (b'X' | b'x') => {
                    strict_year_type = c == b'X';
                    let (n, used) = num(4)?;
                    strict_year = n;
                    v += used;
                }
                b'r' => v += extract(b"%I:%i:%S %p", rest, f, true)?,
                b'T' => v += extract(b"%H:%i:%S", rest, f, true)?,
                b'.' => v += rest.iter().take_while(|c| c.is_ascii_punctuation()).count(),
                b'@' => v += rest.iter().take_while(|c| c.is_ascii_alphabetic()).count(),
                b'#' => v += rest.iter().take_while(|c| c.is_ascii_digit()).count(),
                _ => return Err(bad()),
            }
        } else if !convert::is_space(fmt[p]) {
            if rest[0] != fmt[p] {
                return Err(bad());
            }
            v += 1;
        }
        p += 1;
    }
    if usa_time {
        if !(1..=12).contains(&f.hour) {
            return Err(bad());
        }
        f.hour = f.hour % 12 + daypart;
    }
    if sub {
        return Ok(v);
    }
    if yearday > 0 {
        let days = temporal::to_days(f.year.clamp(0, 9999) as u32, 1, 1) + yearday - 1;
        if days <= 0 || days > temporal::MAX_DAY_NUMBER || !(0..=9999).contains(&f.year) {
            return Err(bad());
        }
        set_date(f, temporal::from_days(days));
    }
    if week_number >= 0 && weekday != 0 {
        if (strict_week && (strict_year < 0 || strict_year_type != sunday_first))
            || (!strict_week && strict_year >= 0)
        {
            return Err(bad());
        }
        let y = if strict_week { strict_year } else { f.year };
        if !(0..=9999).contains(&y) {
            return Err(bad());
        }
        let mut days = temporal::to_days(y as u32, 1, 1);
        let weekday_b = calc_weekday(days, sunday_first);
        days += if sunday_first {
            (if weekday_b == 0 { 0 } else { 7 }) - weekday_b + (week_number - 1) * 7 + weekday % 7
        } else {
            (if weekday_b <= 3 { 0 } else { 7 }) - weekday_b + (week_number - 1) * 7 + weekday - 1
        };
        if days <= 0 || days > temporal::MAX_DAY_NUMBER {
            return Err(bad());
        }
        set_date(f, temporal::from_days(days));
    }
    Ok(v)
}

fn set_date(f: &mut Fields, d: DateTime) {
    f.year = d.year as i64;
    f.month = d.month as i64;
    f.day = d.day as i64;
}

fn year_2000(y: i64) -> i64 {
    if y < 70 {
        y + 2000
    } else if y < 100 {
        y + 1900
    } else {
        y
    }
}

fn warn_bad_str_to_date(ctx: &mut FnCtx, kind: &str, val: &[u8]) {
    let shown = String::from_utf8_lossy(&val[..val.len().min(127)]).into_owned();
    ctx.diag.warn(
        code::ER_WRONG_VALUE_FOR_TYPE,
        format!("Incorrect {kind} value: '{shown}' for function str_to_date"),
    );
}

fn str_to_date(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(val), Some(fmt)) = (str_arg(args, 0), str_arg(args, 1)) else {
        return Ok(Value::Null);
    };
    let target = produces(&fmt);
    let mut f = Fields::default();
    let used = match extract(&fmt, &val, &mut f, false) {
        Ok(used) => used,
        Err(Bad(kind)) => {
            warn_bad_str_to_date(ctx, kind, &val);
            return Ok(Value::Null);
        }
    };
    // check_datetime_range, then check_date with NO_ZERO_IN_DATE / NO_ZERO_DATE.
    let in_range = (0..=9999).contains(&f.year)
        && (0..=12).contains(&f.month)
        && (0..=31).contains(&f.day)
        && (0..=23).contains(&f.hour)
        && (0..=59).contains(&f.minute)
        && (0..=59).contains(&f.second)
        && (0..=999_999).contains(&f.micro);
    let date_zero = f.year == 0 && f.month == 0 && f.day == 0;
    let is_time = matches!(target, Produces::Time(_));
    let bad_date = if !date_zero {
        f.month == 0
            || f.day == 0
            || f.day as u32 > temporal::days_in_month(f.year as u32, f.month as u32)
            || (!is_time && f.year == 0)
    } else {
        !is_time
    };
    if !in_range || bad_date {
        warn_bad_str_to_date(ctx, "datetime", &val);
        return Ok(Value::Null);
    }
    if val[used..].iter().any(|&c| !convert::is_space(c)) {
        let kind = match target {
            Produces::Date => "date",
            Produces::DateTime(_) => "datetime",
            Produces::Time(_) => "time",
        };
        let shown = String::from_utf8_lossy(&val[..val.len().min(128)]).into_owned();
        ctx.diag.warn(
            code::ER_TRUNCATED_WRONG_VALUE,
            format!("Truncated incorrect {kind} value: '{shown}'"),
        );
    }
    let d = DateTime {
        year: f.year as u16,
        month: f.month as u8,
        day: f.day as u8,
        hour: f.hour as u8,
        minute: f.minute as u8,
        second: f.second as u8,
        micro: f.micro as u32,
    };
    Ok(match target {
        Produces::Date => Value::Date(d.date_part()),
        Produces::DateTime(_) => Value::DateTime(d),
        Produces::Time(_) => {
            let hours = f.day * 24 + f.hour;
            let micros = ((hours * 60 + f.minute) * 60 + f.second) * 1_000_000 + f.micro;
            Value::Time(Time {
                micros: micros.min(temporal::TIME_MAX_MICROS),
            })
        }
    })
}
