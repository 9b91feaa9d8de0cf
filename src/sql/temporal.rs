//! Dates and times: parsing, validation, formatting, rounding and calendar arithmetic, as
//! MySQL 8.0 does them.
//!
//! Values are [`DateTime`] (DATE, DATETIME, TIMESTAMP) and [`Time`] (a signed duration) from
//! `value.rs`. This module never touches the session (time zone, `sql_mode`): callers pass
//! offsets and decide what a warning means.
//!
//! ## Parsing (MySQL's `str_to_datetime`, `str_to_time`, `number_to_datetime`)
//!
//! - Delimited strings: `2020-01-02`, `2020-01-02 03:04:05.123456`, `2020-01-02T03:04:05`,
//!   `20-1-2` (two-digit year: 00–69 → 2000–2069, 70–99 → 1970–1999), any punctuation as a
//!   delimiter (`2020/01/02 03.04.05`), missing trailing time fields (`2020-01-02 03:04`).
//!   A field is read up to the next delimiter; spaces are only allowed between date and time.
//! - Undelimited digits: `20200102`, `200102`, `20200102030405`, `200102030405` (the count of
//!   leading digits decides: 4, 8 or ≥ 14 digits mean a four-digit year), optional `.frac`.
//! - Numbers: `20200102`, `200102`, `20200102030405` (`number_to_datetime`).
//! - TIME: `12:34:56`, `-838:59:59`, `1 12:00:00` (days), `123456` (HHMMSS), `12:34`
//!   (= 12:34:00), `34` (= 00:00:34), and full datetimes (their time part).
//! - Fractions: up to 6 digits are kept; a 7th digit rounds (MySQL 8 rounds, it does not
//!   truncate).
//!
//! Validation follows MySQL with `TIME_FUZZY_DATE`: month ≤ 12, day ≤ 31 and within its month
//! (leap years included), hour ≤ 23, minute and second ≤ 59. Zero parts (`2020-00-01`,
//! `0000-00-00`) are accepted here — `NO_ZERO_DATE`/`NO_ZERO_IN_DATE` are the caller's
//! business (see [`has_zero_in_date`]). Errors say which check failed ([`TemporalError`]).
//! Not supported (as in MySQL before 8.0.19 or at all): time zone offsets in literals
//! (`'2020-01-02 03:04:05+01:00'`) and AM/PM.
//!
//! ## Calendar
//!
//! Day numbers are MySQL's (`TO_DAYS`): `calc_daynr`, in which `0000-01-01` is day 1 and
//! year 0 counts as a leap year for the day count but not for `days_in_year` — quirks kept so
//! `TO_DAYS`/`FROM_DAYS` agree with MySQL exactly. Interval arithmetic is MySQL's
//! `date_add_interval`: day-and-below units go through day numbers; MONTH/QUARTER/YEAR clamp
//! the day to the end of the target month (`2020-01-31 + 1 MONTH = 2020-02-29`); results
//! outside 0000-01-01 … 9999-12-31 are `None` (MySQL returns NULL with a warning).

use super::value::{DateTime, Time};
use std::time::{SystemTime, UNIX_EPOCH};

/// `TO_DAYS('9999-12-31')`.
pub const MAX_DAY_NUMBER: i64 = 3_652_424;
/// `TO_DAYS('1970-01-01')`.
pub const DAYS_AT_UNIX_EPOCH: i64 = 719_528;
/// Largest TIME in microseconds (838:59:59).
pub const TIME_MAX_MICROS: i64 = Time::MAX_MICROS;

const DAYS_IN_MONTH: [u8; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MICROS_PER_SECOND: i64 = 1_000_000;
const SECONDS_PER_DAY: i64 = 86_400;
const POW10: [u32; 7] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/// Why a string or number is not a valid date/time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TemporalError {
    /// Not recognisable as a date/time at all: no leading digit, a field of more than six
    /// digits, a space where none may be (MySQL's `MYSQL_TIMESTAMP_NONE`).
    NotTemporal,
    /// Recognisable but a field is out of range: month 13, hour 24, minute 60, fewer than
    /// three date fields (MySQL's `MYSQL_TIME_WARN_TRUNCATED` + error).
    FieldOutOfRange,
    /// A day past the end of its month: `2021-02-29`, `2020-04-31`
    /// (`MYSQL_TIME_WARN_OUT_OF_RANGE`).
    DayOutOfRange,
}

/// A successfully parsed date or datetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedDateTime {
    pub value: DateTime,
    /// The input had time fields (a DATETIME), not just a date.
    pub has_time: bool,
    /// Non-space characters after the value were ignored (MySQL warns "truncated").
    pub truncated: bool,
    /// Fractional digits given (0–6; more are rounded away).
    pub frac_digits: u8,
}

/// A successfully parsed TIME.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedTime {
    pub value: Time,
    /// Non-space characters after the value were ignored.
    pub truncated: bool,
    /// The value was beyond ±838:59:59 and was clamped.
    pub clamped: bool,
    pub frac_digits: u8,
}

/// MySQL's `calc_days_in_year` leap rule (year 0 is not leap here).
pub fn is_leap_year(year: u32) -> bool {
    year & 3 == 0 && (!year.is_multiple_of(100) || (year.is_multiple_of(400) && year != 0))
}

pub fn days_in_year(year: u32) -> u32 {
    if is_leap_year(year) { 366 } else { 365 }
}

/// Days in `month` (1–12) of `year`; 0 for an invalid month.
pub fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        1..=12 => DAYS_IN_MONTH[month as usize - 1] as u32,
        _ => 0,
    }
}

/// `month`/`day` zero in a date that is not the zero date (what `NO_ZERO_IN_DATE` forbids).
pub fn has_zero_in_date(dt: &DateTime) -> bool {
    (dt.month == 0 || dt.day == 0) && !(dt.year == 0 && dt.month == 0 && dt.day == 0)
}

/// Whether the date part is a real calendar date (month and day non-zero, day within month).
pub fn is_valid_date(dt: &DateTime) -> bool {
    dt.month >= 1
        && dt.month <= 12
        && dt.day >= 1
        && (dt.day as u32) <= days_in_month(dt.year as u32, dt.month as u32)
}

/// MySQL's `check_date` with `TIME_FUZZY_DATE`: zero parts allowed, but a non-zero day must
/// exist in its (non-zero) month.
fn check_date(dt: &DateTime) -> Result<(), TemporalError> {
    if dt.month != 0 && dt.day as u32 > days_in_month(dt.year as u32, dt.month as u32) {
        return Err(TemporalError::DayOutOfRange);
    }
    Ok(())
}

fn fields_in_range(dt: &DateTime) -> bool {
    dt.year <= 9999
        && dt.month <= 12
        && dt.day <= 31
        && dt.hour <= 23
        && dt.minute <= 59
        && dt.second <= 59
        && dt.micro <= 999_999
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

#[inline]
fn is_punct(b: u8) -> bool {
    b.is_ascii_punctuation()
}

/// Parses a date or datetime string (MySQL's `str_to_datetime` with `TIME_FUZZY_DATE`).
pub fn parse_datetime(s: &[u8]) -> Result<ParsedDateTime, TemporalError> {
    parse_datetime_flags(s, false)
}

/// `datetime_only`: MySQL's `TIME_DATETIME_ONLY` (used when TIME parsing probes for a full
/// datetime): delimiters without a date/time space mean "not a datetime".
fn parse_datetime_flags(s: &[u8], datetime_only: bool) -> Result<ParsedDateTime, TemporalError> {
    const PARTS: usize = 8;
    let mut pos = s.iter().position(|&b| !is_space(b)).unwrap_or(s.len());
    if !s.get(pos).is_some_and(|b| b.is_ascii_digit()) {
        return Err(TemporalError::NotTemporal);
    }
    let digits = s[pos..]
        .iter()
        .take_while(|&&b| b.is_ascii_digit() || b == b'T')
        .count();
    let after_digits = s.get(pos + digits).copied();
    let internal = after_digits.is_none() || after_digits == Some(b'.');
    let mut year_length = 0usize;
    let mut field_length: u32 = if internal {
        year_length = if digits == 4 || digits == 8 || digits >= 14 {
            4
        } else {
            2
        };
        year_length as u32
    } else {
        4
    };
    // Spaces may follow the day (2) and the fraction (6).
    let allow_space: u32 = (1 << 2) | (1 << 6);

    let mut date = [0u32; PARTS];
    let mut date_len = [0usize; PARTS];
    let mut not_zero = false;
    let mut found_delimiter = false;
    let mut found_space = false;
    let mut last_field_pos = pos;
    let mut i = 0usize;
    while i < PARTS - 1 && s.get(pos).is_some_and(|b| b.is_ascii_digit()) {
        let start = pos;
        let mut value = (s[pos] - b'0') as u64;
        pos += 1;
        let scan_until_delim = !internal && i != 6;
        while let Some(&b) = s.get(pos) {
            if !b.is_ascii_digit() {
                break;
            }
            if !scan_until_delim {
                field_length = field_length.saturating_sub(1);
                if field_length == 0 {
                    break;
                }
            }
            value = value * 10 + (b - b'0') as u64;
            pos += 1;
            if value > 999_999 {
                // Keep scanning digits only to report NotTemporal below.
                value = 1_000_000;
            }
        }
        date_len[i] = pos - start;
        if value > 999_999 {
            return Err(TemporalError::NotTemporal);
        }
        date[i] = value as u32;
        not_zero |= value != 0;
        field_length = 2;
        last_field_pos = pos;
        let Some(&c) = s.get(pos) else {
            i += 1;
            break;
        };
        if i == 2 && c == b'T' {
            pos += 1;
            i += 1;
            continue;
        }
        if i == 5 {
            if c == b'.' {
                pos += 1;
                last_field_pos = pos;
                field_length = 6;
            } else if c.is_ascii_digit() {
                i += 1;
                break;
            }
            i += 1;
            continue;
        }
        while let Some(&b) = s.get(pos) {
            if !(is_punct(b) || is_space(b)) {
                break;
            }
            if is_space(b) {
                if allow_space & (1 << i) == 0 {
                    return Err(TemporalError::NotTemporal);
                }
                found_space = true;
            }
            pos += 1;
            found_delimiter = true;
        }
        if i == 6 {
            i += 1; // the AM/PM slot (unused)
        }
        last_field_pos = pos;
        i += 1;
    }
    if found_delimiter && !found_space && datetime_only {
        return Err(TemporalError::NotTemporal);
    }
    let rest = s.get(last_field_pos..).unwrap_or_default();
    let number_of_fields = i;
    if !internal {
        year_length = date_len[0];
        if year_length == 0 {
            return Err(TemporalError::NotTemporal);
        }
    }
    let frac_len = date_len[6].min(6);
    let micro = date[6] * POW10[6 - frac_len];
    let mut dt = DateTime {
        year: date[0].min(u16::MAX as u32) as u16,
        month: date[1].min(255) as u8,
        day: date[2].min(255) as u8,
        hour: date[3].min(255) as u8,
        minute: date[4].min(255) as u8,
        second: date[5].min(255) as u8,
        micro,
    };
    if year_length == 2 && not_zero {
        dt.year += if dt.year < 70 { 2000 } else { 1900 };
    }
    let in_range = date[0] <= 9999
        && date[1] <= 12
        && date[2] <= 31
        && date[3] <= 23
        && date[4] <= 59
        && date[5] <= 59;
    if number_of_fields < 3 || !in_range {
        return Err(TemporalError::FieldOutOfRange);
    }
    if not_zero {
        check_date(&dt)?;
    }
    // A seventh fractional digit rounds the microseconds (MySQL 8).
    let mut tail = rest;
    if frac_len == 6 && tail.first().is_some_and(|b| b.is_ascii_digit()) {
        let round_up = tail[0] >= b'5';
        let n = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        tail = &tail[n..];
        if round_up {
            dt = add_micros_carry(dt, 1).unwrap_or(dt);
        }
    }
    let truncated = tail.iter().any(|&b| !is_space(b));
    Ok(ParsedDateTime {
        value: dt,
        has_time: number_of_fields > 3,
        truncated,
        frac_digits: frac_len as u8,
    })
}

/// Parses a TIME string (MySQL's `str_to_time`). Full datetimes yield their time of day.
pub fn parse_time(s: &[u8]) -> Result<ParsedTime, TemporalError> {
    let mut pos = s.iter().position(|&b| !is_space(b)).unwrap_or(s.len());
    let negative = s.get(pos) == Some(&b'-');
    if negative {
        pos += 1;
    }
    if pos >= s.len() {
        return Err(TemporalError::NotTemporal);
    }
    let start = pos;
    if s.len() - pos >= 12 {
        match parse_datetime_flags(&s[pos..], true) {
            Ok(p) => {
                let v = p.value;
                let micros = ((v.hour as i64 * 60 + v.minute as i64) * 60 + v.second as i64)
                    * MICROS_PER_SECOND
                    + v.micro as i64;
                return Ok(ParsedTime {
                    value: Time { micros },
                    truncated: p.truncated,
                    clamped: false,
                    frac_digits: p.frac_digits,
                });
            }
            Err(TemporalError::NotTemporal) => {}
            Err(e) => return Err(e),
        }
    }
    let digit_run = |pos: &mut usize| -> u64 {
        let mut v: u64 = 0;
        while let Some(&b) = s.get(*pos) {
            if !b.is_ascii_digit() {
                break;
            }
            v = v.saturating_mul(10).saturating_add((b - b'0') as u64);
            *pos += 1;
        }
        v
    };
    // date[0] days, [1] hours, [2] minutes, [3] seconds, [4] micros.
    let mut date = [0u64; 5];
    let value = digit_run(&mut pos);
    if value > u32::MAX as u64 {
        return Err(TemporalError::NotTemporal);
    }
    let end_of_days = pos;
    while s.get(pos).is_some_and(|&b| is_space(b)) {
        pos += 1;
    }
    let remaining = s.len() - pos;
    let digit_at = |i: usize| s.get(i).is_some_and(|b| b.is_ascii_digit());
    let mut frac_only = false;
    let mut state;
    if remaining > 1 && pos != end_of_days && digit_at(pos) {
        date[0] = value;
        state = 1;
    } else if remaining > 1 && s.get(pos) == Some(&b':') && digit_at(pos + 1) {
        date[1] = value;
        state = 2;
        pos += 1;
    } else {
        // One number: HHMMSS.
        date[1] = value / 10000;
        date[2] = value / 100 % 100;
        date[3] = value % 100;
        state = 4;
        frac_only = true;
    }
    if !frac_only {
        loop {
            let v = digit_run(&mut pos);
            if let Some(slot) = date.get_mut(state) {
                *slot = v;
            }
            state += 1;
            if state == 4 || s.len() - pos < 2 || s.get(pos) != Some(&b':') || !digit_at(pos + 1) {
                break;
            }
            pos += 1;
        }
        if state < 4 {
            // `12:34` → 12:34:00; `1 12` → 1 day 12 hours.
            for slot in date.iter_mut().take(4).skip(state) {
                *slot = 0;
            }
        }
    }
    // Fraction.
    let mut frac_digits = 0u8;
    let mut round_up = false;
    if s.len() - pos >= 2 && s.get(pos) == Some(&b'.') && digit_at(pos + 1) {
        pos += 1;
        let mut v: u64 = 0;
        let mut n = 0;
        while let Some(&b) = s.get(pos) {
            if !b.is_ascii_digit() {
                break;
            }
            if n < 6 {
                v = v * 10 + (b - b'0') as u64;
            } else if n == 6 {
                round_up = b >= b'5';
            }
            n += 1;
            pos += 1;
        }
        frac_digits = n.min(6) as u8;
        date[4] = v * POW10[6 - n.min(6)] as u64;
    } else if s.len() - pos == 1 && s.get(pos) == Some(&b'.') {
        pos += 1;
    }
    // An exponent (from %g formatting of a time) is an error.
    if s.len() - pos > 1
        && matches!(s.get(pos), Some(b'e' | b'E'))
        && (digit_at(pos + 1) || (matches!(s.get(pos + 1), Some(b'-' | b'+')) && digit_at(pos + 2)))
    {
        return Err(TemporalError::NotTemporal);
    }
    if date[2] >= 60 || date[3] >= 60 {
        return Err(TemporalError::FieldOutOfRange);
    }
    let hours = date[0].saturating_mul(24).saturating_add(date[1]);
    let mut clamped = false;
    let mut micros: i64 = if hours > 838 {
        clamped = true;
        TIME_MAX_MICROS
    } else {
        ((hours as i64 * 60 + date[2] as i64) * 60 + date[3] as i64) * MICROS_PER_SECOND
            + date[4] as i64
    };
    if micros > TIME_MAX_MICROS {
        // 838:59:59.xxxxxx
        clamped = true;
        micros = TIME_MAX_MICROS;
    }
    if round_up && micros < TIME_MAX_MICROS {
        micros += 1;
    }
    let tail = s.get(pos..).unwrap_or_default();
    let truncated = tail.iter().any(|&b| !is_space(b));
    if truncated && pos == start {
        return Err(TemporalError::NotTemporal);
    }
    Ok(ParsedTime {
        value: Time {
            micros: if negative { -micros } else { micros },
        },
        truncated,
        clamped,
        frac_digits,
    })
}

/// A number as a date/datetime (MySQL's `number_to_datetime` with `TIME_FUZZY_DATE`):
/// `YYMMDD`, `YYYYMMDD`, `YYMMDDHHMMSS`, `YYYYMMDDHHMMSS`; 0 is the zero datetime.
/// Returns the value and whether it is a datetime (more than 8 digits).
pub fn datetime_from_int(n: i64) -> Result<(DateTime, bool), TemporalError> {
    const YY_PART_YEAR: i64 = 70;
    if n < 0 {
        return Err(TemporalError::NotTemporal);
    }
    let (nr, has_time) = if n == 0 || n >= 10_000_101_000_000 {
        if n > 99_999_999_999_999 {
            return Err(TemporalError::FieldOutOfRange);
        }
        (n, true)
    } else if n < 101 {
        return Err(TemporalError::NotTemporal);
    } else if n <= (YY_PART_YEAR - 1) * 10000 + 1231 {
        ((n + 20_000_000) * 1_000_000, false)
    } else if n < YY_PART_YEAR * 10000 + 101 {
        return Err(TemporalError::NotTemporal);
    } else if n <= 991231 {
        ((n + 19_000_000) * 1_000_000, false)
    } else if n <= 99_991_231 {
        (n * 1_000_000, false)
    } else if n < 101_000_000 {
        return Err(TemporalError::NotTemporal);
    } else if n <= (YY_PART_YEAR - 1) * 10_000_000_000 + 1_231_235_959 {
        (n + 20_000_000_000_000, true)
    } else if n < YY_PART_YEAR * 10_000_000_000 + 101_000_000 {
        return Err(TemporalError::NotTemporal);
    } else if n <= 991_231_235_959 {
        (n + 19_000_000_000_000, true)
    } else {
        (n, true)
    };
    let ymd = nr / 1_000_000;
    let hms = nr % 1_000_000;
    let dt = DateTime {
        year: (ymd / 10000) as u16,
        month: (ymd / 100 % 100) as u8,
        day: (ymd % 100) as u8,
        hour: (hms / 10000) as u8,
        minute: (hms / 100 % 100) as u8,
        second: (hms % 100) as u8,
        micro: 0,
    };
    if !fields_in_range(&dt) {
        return Err(TemporalError::FieldOutOfRange);
    }
    if nr != 0 {
        check_date(&dt)?;
    }
    Ok((dt, has_time))
}

/// A number with a fraction as a datetime: `int_part` as [`datetime_from_int`], `nanos` the
/// fraction in nanoseconds (rounded to microseconds, carrying into the seconds).
pub fn datetime_from_parts(int_part: i64, nanos: u32) -> Result<(DateTime, bool), TemporalError> {
    let (mut dt, has_time) = datetime_from_int(int_part)?;
    let micros = (nanos as i64 + 500) / 1000;
    if micros > 0 {
        dt = add_micros_carry(dt, micros.min(MICROS_PER_SECOND)).unwrap_or(dt);
    }
    Ok((dt, has_time))
}

/// A number as a TIME (MySQL's `number_to_time`): `[-]HHMMSS`; numbers of 11+ digits are
/// tried as datetimes. Returns the value and whether it was clamped to ±838:59:59.
pub fn time_from_int(n: i64) -> Result<(Time, bool), TemporalError> {
    const TIME_MAX_VALUE: i64 = 8_385_959;
    if n > TIME_MAX_VALUE {
        if n >= 10_000_000_000
            && let Ok((dt, _)) = datetime_from_int(n)
        {
            return Ok((time_of_day(&dt), false));
        }
        return Ok((
            Time {
                micros: TIME_MAX_MICROS,
            },
            true,
        ));
    }
    if n < -TIME_MAX_VALUE {
        return Ok((
            Time {
                micros: -TIME_MAX_MICROS,
            },
            true,
        ));
    }
    let a = n.abs();
    if a % 100 >= 60 || a / 100 % 100 >= 60 {
        return Err(TemporalError::FieldOutOfRange);
    }
    let micros = ((a / 10000 * 60 + a / 100 % 100) * 60 + a % 100) * MICROS_PER_SECOND;
    Ok((
        Time {
            micros: if n < 0 { -micros } else { micros },
        },
        false,
    ))
}

/// The time-of-day part of a datetime as a TIME.
pub fn time_of_day(dt: &DateTime) -> Time {
    Time {
        micros: ((dt.hour as i64 * 60 + dt.minute as i64) * 60 + dt.second as i64)
            * MICROS_PER_SECOND
            + dt.micro as i64,
    }
}

/// `YYYYMMDDHHMMSS` (microseconds dropped).
pub fn datetime_to_number(dt: &DateTime) -> i64 {
    (dt.year as i64 * 10000 + dt.month as i64 * 100 + dt.day as i64) * 1_000_000
        + dt.hour as i64 * 10000
        + dt.minute as i64 * 100
        + dt.second as i64
}

/// `YYYYMMDD`.
pub fn date_to_number(dt: &DateTime) -> i64 {
    dt.year as i64 * 10000 + dt.month as i64 * 100 + dt.day as i64
}

/// `[-]HHMMSS` (microseconds dropped).
pub fn time_to_number(t: Time) -> i64 {
    let a = t.micros.unsigned_abs() / 1_000_000;
    let n = (a / 3600 * 10000 + a / 60 % 60 * 100 + a % 60) as i64;
    if t.micros < 0 { -n } else { n }
}

// ---------------------------------------------------------------------------------------
// Formatting.

#[inline]
fn push2(out: &mut Vec<u8>, v: u32) {
    out.push(b'0' + (v / 10 % 10) as u8);
    out.push(b'0' + (v % 10) as u8);
}

fn push_frac(out: &mut Vec<u8>, micro: u32, fsp: u8) {
    let fsp = fsp.min(6) as usize;
    if fsp == 0 {
        return;
    }
    out.push(b'.');
    let v = micro.min(999_999) / POW10[6 - fsp];
    for k in (0..fsp).rev() {
        out.push(b'0' + (v / POW10[k] % 10) as u8);
    }
}

/// Appends `YYYY-MM-DD`.
pub fn write_date(dt: &DateTime, out: &mut Vec<u8>) {
    let y = dt.year as u32;
    push2(out, y / 100);
    push2(out, y);
    out.push(b'-');
    push2(out, dt.month as u32);
    out.push(b'-');
    push2(out, dt.day as u32);
}

/// Appends `YYYY-MM-DD HH:MM:SS[.fff]` with `fsp` fractional digits (truncated, as MySQL
/// prints a value that has already been rounded to its column's precision).
pub fn write_datetime(dt: &DateTime, fsp: u8, out: &mut Vec<u8>) {
    write_date(dt, out);
    out.push(b' ');
    push2(out, dt.hour as u32);
    out.push(b':');
    push2(out, dt.minute as u32);
    out.push(b':');
    push2(out, dt.second as u32);
    push_frac(out, dt.micro, fsp);
}

/// Appends `[-]HH:MM:SS[.fff]` (hours have at least two digits).
pub fn write_time(t: Time, fsp: u8, out: &mut Vec<u8>) {
    if t.micros < 0 {
        out.push(b'-');
    }
    let a = t.micros.unsigned_abs();
    let secs = a / 1_000_000;
    let hours = secs / 3600;
    if hours >= 100 {
        let mut buf = [0u8; 20];
        let mut n = hours;
        let mut k = buf.len();
        while n > 0 {
            k -= 1;
            buf[k] = b'0' + (n % 10) as u8;
            n /= 10;
        }
        out.extend_from_slice(&buf[k..]);
    } else {
        push2(out, hours as u32);
    }
    out.push(b':');
    push2(out, (secs / 60 % 60) as u32);
    out.push(b':');
    push2(out, (secs % 60) as u32);
    push_frac(out, (a % 1_000_000) as u32, fsp);
}

pub fn format_date(dt: &DateTime) -> String {
    let mut out = Vec::with_capacity(10);
    write_date(dt, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

pub fn format_datetime(dt: &DateTime, fsp: u8) -> String {
    let mut out = Vec::with_capacity(26);
    write_datetime(dt, fsp, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

pub fn format_time(t: Time, fsp: u8) -> String {
    let mut out = Vec::with_capacity(17);
    write_time(t, fsp, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

// ---------------------------------------------------------------------------------------
// Rounding to a fractional-seconds precision.

/// Adds `micros` (0 ≤ micros ≤ 1 s) to `dt`, carrying into seconds, minutes, … years.
/// `None` past 9999-12-31 23:59:59.999999, or when a carry reaches a date with zero parts.
fn add_micros_carry(dt: DateTime, micros: i64) -> Option<DateTime> {
    let mut out = dt;
    let total = dt.micro as i64 + micros;
    out.micro = (total % MICROS_PER_SECOND) as u32;
    if total < MICROS_PER_SECOND {
        return Some(out);
    }
    out.second += 1;
    if out.second < 60 {
        return Some(out);
    }
    out.second = 0;
    out.minute += 1;
    if out.minute < 60 {
        return Some(out);
    }
    out.minute = 0;
    out.hour += 1;
    if out.hour < 24 {
        return Some(out);
    }
    out.hour = 0;
    if out.month == 0 || out.day == 0 {
        return None;
    }
    out.day += 1;
    if out.day as u32 <= days_in_month(out.year as u32, out.month as u32) {
        return Some(out);
    }
    out.day = 1;
    out.month += 1;
    if out.month <= 12 {
        return Some(out);
    }
    out.month = 1;
    if out.year >= 9999 {
        return None;
    }
    out.year += 1;
    Some(out)
}

/// Rounds the microseconds to `fsp` digits, half up (MySQL 8 rounds when storing into a
/// column of lower precision). `None` when the carry leaves the DATETIME range (or crosses
/// a day boundary of a date with zero parts); callers then truncate and warn.
pub fn round_datetime(dt: DateTime, fsp: u8) -> Option<DateTime> {
    let fsp = fsp.min(6) as usize;
    let unit = POW10[6 - fsp];
    let rem = dt.micro % unit;
    if rem == 0 {
        return Some(dt);
    }
    let down = DateTime {
        micro: dt.micro - rem,
        ..dt
    };
    if rem * 2 < unit {
        Some(down)
    } else {
        add_micros_carry(down, unit as i64)
    }
}

/// Drops microsecond digits beyond `fsp`.
pub fn truncate_datetime(dt: DateTime, fsp: u8) -> DateTime {
    let unit = POW10[6 - fsp.min(6) as usize];
    DateTime {
        micro: dt.micro - dt.micro % unit,
        ..dt
    }
}

/// Rounds a TIME to `fsp` digits, half away from zero. Returns the value and whether it had
/// to be clamped to ±838:59:59.
pub fn round_time(t: Time, fsp: u8) -> (Time, bool) {
    let unit = POW10[6 - fsp.min(6) as usize] as i64;
    let a = t.micros.abs();
    let rem = a % unit;
    let mut r = a - rem;
    if rem * 2 >= unit {
        r += unit;
    }
    let clamped = r > TIME_MAX_MICROS;
    let r = r.min(TIME_MAX_MICROS);
    (
        Time {
            micros: if t.micros < 0 { -r } else { r },
        },
        clamped,
    )
}

// ---------------------------------------------------------------------------------------
// Calendar arithmetic.

/// MySQL's `calc_daynr` (`TO_DAYS`): days since year 0. `0000-00-00` → 0.
pub fn to_days(year: u32, month: u32, day: u32) -> i64 {
    if year == 0 && month == 0 {
        return 0;
    }
    let mut y = year as i64;
    let mut delsum = 365 * y + 31 * (month as i64 - 1) + day as i64;
    if month <= 2 {
        y -= 1;
    } else {
        delsum -= (month as i64 * 4 + 23) / 10;
    }
    let temp = ((y / 100 + 1) * 3) / 4;
    delsum + y / 4 - temp
}

/// `TO_DAYS` of a datetime's date.
pub fn day_number(dt: &DateTime) -> i64 {
    to_days(dt.year as u32, dt.month as u32, dt.day as u32)
}

/// MySQL's `get_date_from_daynr` (`FROM_DAYS`): the date of a day number; the zero date for
/// day numbers ≤ 365 or beyond 9999-12-31.
pub fn from_days(daynr: i64) -> DateTime {
    if daynr <= 365 || daynr >= 3_652_500 {
        return DateTime::ZERO;
    }
    let mut year = (daynr * 100 / 36525) as u32;
    let temp = (((year - 1) / 100 + 1) * 3) / 4;
    let mut day_of_year = (daynr - year as i64 * 365) as u32 - (year - 1) / 4 + temp;
    let mut diy = days_in_year(year);
    while day_of_year > diy {
        day_of_year -= diy;
        year += 1;
        diy = days_in_year(year);
    }
    let mut leap_day = 0;
    if diy == 366 && day_of_year > 31 + 28 {
        day_of_year -= 1;
        if day_of_year == 31 + 28 {
            leap_day = 1;
        }
    }
    let mut month = 1u32;
    for &dim in DAYS_IN_MONTH.iter() {
        if day_of_year <= dim as u32 {
            break;
        }
        day_of_year -= dim as u32;
        month += 1;
    }
    DateTime::date(year as u16, month as u8, (day_of_year + leap_day) as u8)
}

/// Day of the week, 0 = Monday … 6 = Sunday (MySQL's `WEEKDAY`).
pub fn weekday(dt: &DateTime) -> u32 {
    ((day_number(dt) + 5).rem_euclid(7)) as u32
}

/// Day of the year, 1–366 (MySQL's `DAYOFYEAR`).
pub fn day_of_year(dt: &DateTime) -> u32 {
    (day_number(dt) - to_days(dt.year as u32, 1, 1) + 1) as u32
}

/// Interval units of `DATE_ADD(… INTERVAL n unit)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntervalUnit {
    Microsecond,
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    Year,
    SecondMicrosecond,
    MinuteMicrosecond,
    MinuteSecond,
    HourMicrosecond,
    HourSecond,
    HourMinute,
    DayMicrosecond,
    DaySecond,
    DayMinute,
    DayHour,
    YearMonth,
}

impl IntervalUnit {
    pub fn from_name(name: &str) -> Option<IntervalUnit> {
        use IntervalUnit::*;
        Some(match name.to_ascii_uppercase().as_str() {
            "MICROSECOND" => Microsecond,
            "SECOND" => Second,
            "MINUTE" => Minute,
            "HOUR" => Hour,
            "DAY" => Day,
            "WEEK" => Week,
            "MONTH" => Month,
            "QUARTER" => Quarter,
            "YEAR" => Year,
            "SECOND_MICROSECOND" => SecondMicrosecond,
            "MINUTE_MICROSECOND" => MinuteMicrosecond,
            "MINUTE_SECOND" => MinuteSecond,
            "HOUR_MICROSECOND" => HourMicrosecond,
            "HOUR_SECOND" => HourSecond,
            "HOUR_MINUTE" => HourMinute,
            "DAY_MICROSECOND" => DayMicrosecond,
            "DAY_SECOND" => DaySecond,
            "DAY_MINUTE" => DayMinute,
            "DAY_HOUR" => DayHour,
            "YEAR_MONTH" => YearMonth,
            _ => return None,
        })
    }

    /// The fields of a composite unit's string form (`'1 2:3:4.5'` for DAY_MICROSECOND), in
    /// order: 0 years, 1 months, 2 days, 3 hours, 4 minutes, 5 seconds, 6 microseconds.
    fn fields(self) -> &'static [usize] {
        use IntervalUnit::*;
        match self {
            Microsecond => &[6],
            Second => &[5],
            Minute => &[4],
            Hour => &[3],
            Day => &[2],
            Week => &[2],
            Month => &[1],
            Quarter => &[1],
            Year => &[0],
            SecondMicrosecond => &[5, 6],
            MinuteMicrosecond => &[4, 5, 6],
            MinuteSecond => &[4, 5],
            HourMicrosecond => &[3, 4, 5, 6],
            HourSecond => &[3, 4, 5],
            HourMinute => &[3, 4],
            DayMicrosecond => &[2, 3, 4, 5, 6],
            DaySecond => &[2, 3, 4, 5],
            DayMinute => &[2, 3, 4],
            DayHour => &[2, 3],
            YearMonth => &[0, 1],
        }
    }
}

/// An interval broken into fields (MySQL's `Interval`), all non-negative, with a sign.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interval {
    pub negative: bool,
    pub years: u64,
    pub months: u64,
    pub days: u64,
    pub hours: u64,
    pub minutes: u64,
    pub seconds: u64,
    pub micros: u64,
}

impl Interval {
    /// `INTERVAL amount unit` for a single integer amount. For composite units the amount
    /// is the last field (`INTERVAL 5 DAY_HOUR` is 5 hours, as in MySQL).
    pub fn from_amount(unit: IntervalUnit, amount: i64) -> Interval {
        let mut iv = Interval {
            negative: amount < 0,
            ..Interval::default()
        };
        let a = amount.unsigned_abs();
        match unit {
            IntervalUnit::Week => iv.days = a.saturating_mul(7),
            IntervalUnit::Quarter => iv.months = a.saturating_mul(3),
            _ => {
                let last = unit.fields().last().copied().unwrap_or(6);
                iv.set(last, a);
            }
        }
        iv
    }

    fn set(&mut self, field: usize, v: u64) {
        match field {
            0 => self.years = v,
            1 => self.months = v,
            2 => self.days = v,
            3 => self.hours = v,
            4 => self.minutes = v,
            5 => self.seconds = v,
            _ => self.micros = v,
        }
    }

    /// `INTERVAL 'text' unit` (MySQL's `get_interval_value`): numbers separated by any
    /// non-digits, a leading `-` for negative; fewer numbers than fields fill from the right
    /// (`'2:3' DAY_SECOND` is 2 minutes 3 seconds); a microsecond field with fewer than six
    /// digits is scaled (`'1.5' SECOND_MICROSECOND` is 1.5 s). `None` if there are more
    /// numbers than fields or a number overflows.
    pub fn parse(unit: IntervalUnit, text: &[u8]) -> Option<Interval> {
        let mut pos = text
            .iter()
            .position(|&b| !is_space(b))
            .unwrap_or(text.len());
        let negative = text.get(pos) == Some(&b'-');
        if negative {
            pos += 1;
        }
        let fields = unit.fields();
        let mut values = [0u64; 7];
        let mut count = 0usize;
        let mut last_len = 0usize;
        while count < fields.len() {
            while text.get(pos).is_some_and(|b| !b.is_ascii_digit()) {
                pos += 1;
            }
            if pos >= text.len() {
                break;
            }
            let start = pos;
            let mut v: u64 = 0;
            while let Some(&b) = text.get(pos) {
                if !b.is_ascii_digit() {
                    break;
                }
                v = v.checked_mul(10)?.checked_add((b - b'0') as u64)?;
                pos += 1;
            }
            last_len = pos - start;
            values[count] = v;
            count += 1;
        }
        // Trailing digits beyond the last field are an error in MySQL.
        if text[pos.min(text.len())..]
            .iter()
            .any(|b| b.is_ascii_digit())
        {
            return None;
        }
        if fields.last() == Some(&6) && count == fields.len() && last_len < 6 && count > 1 {
            values[count - 1] = values[count - 1].checked_mul(POW10[6 - last_len] as u64)?;
        }
        let mut iv = Interval {
            negative,
            ..Interval::default()
        };
        let shift = fields.len() - count;
        for k in 0..count {
            iv.set(fields[k + shift], values[k]);
        }
        Some(iv)
    }
}

/// `dt + INTERVAL amount unit` (a negative amount subtracts).
pub fn add_interval(dt: DateTime, unit: IntervalUnit, amount: i64) -> Option<DateTime> {
    add_interval_parts(dt, &Interval::from_amount(unit, amount))
}

/// `dt + iv` as MySQL's `date_add_interval`. `None` when the result leaves
/// 0000-01-01 … 9999-12-31 (MySQL: NULL and a "datetime field overflow" warning).
pub fn add_interval_parts(dt: DateTime, iv: &Interval) -> Option<DateTime> {
    let sign: i128 = if iv.negative { -1 } else { 1 };
    let mut out = dt;
    if iv.days != 0 || iv.hours != 0 || iv.minutes != 0 || iv.seconds != 0 || iv.micros != 0 {
        // Microseconds since the first of the month, then back through day numbers.
        let micros = dt.micro as i128 + sign * iv.micros as i128;
        let mut extra_sec = micros.div_euclid(1_000_000);
        let micros = micros.rem_euclid(1_000_000);
        let interval_secs = iv.days as i128 * 86_400
            + iv.hours as i128 * 3_600
            + iv.minutes as i128 * 60
            + iv.seconds as i128;
        extra_sec += (dt.day as i128 - 1) * 86_400
            + dt.hour as i128 * 3_600
            + dt.minute as i128 * 60
            + dt.second as i128
            + sign * interval_secs;
        let days = extra_sec.div_euclid(86_400);
        let sec = extra_sec.rem_euclid(86_400);
        let daynr = to_days(dt.year as u32, dt.month as u32, 1) as i128 + days;
        if !(0..=MAX_DAY_NUMBER as i128).contains(&daynr) {
            return None;
        }
        let date = from_days(daynr as i64);
        out = DateTime {
            hour: (sec / 3600) as u8,
            minute: (sec / 60 % 60) as u8,
            second: (sec % 60) as u8,
            micro: micros as u32,
            ..date
        };
        if date.is_zero() && daynr != 0 {
            // Day numbers of year 0 have no calendar date in MySQL either.
            return None;
        }
    }
    if iv.years != 0 || iv.months != 0 {
        let period = out.year as i128 * 12 + sign * iv.years as i128 * 12 + out.month as i128 - 1
            + sign * iv.months as i128;
        if !(0..120_000).contains(&period) {
            return None;
        }
        out.year = (period / 12) as u16;
        out.month = (period % 12 + 1) as u8;
        let dim = days_in_month(out.year as u32, out.month as u32);
        if out.day as u32 > dim {
            out.day = dim as u8;
        }
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------
// Unix time.

/// The local datetime of a Unix time in microseconds, for a UTC offset in seconds.
/// `None` outside years 0001–9999.
pub fn datetime_from_unix_micros(unix_micros: i64, offset_secs: i32) -> Option<DateTime> {
    let local = unix_micros.checked_add(offset_secs as i64 * MICROS_PER_SECOND)?;
    let day_micros = SECONDS_PER_DAY * MICROS_PER_SECOND;
    let days = local.div_euclid(day_micros);
    let in_day = local.rem_euclid(day_micros);
    let date = from_days(days.checked_add(DAYS_AT_UNIX_EPOCH)?);
    if date.is_zero() {
        return None;
    }
    let secs = in_day / MICROS_PER_SECOND;
    Some(DateTime {
        hour: (secs / 3600) as u8,
        minute: (secs / 60 % 60) as u8,
        second: (secs % 60) as u8,
        micro: (in_day % MICROS_PER_SECOND) as u32,
        ..date
    })
}

/// The Unix time in microseconds of a local datetime with a UTC offset in seconds.
/// `None` for dates with zero parts.
pub fn unix_micros_from_datetime(dt: &DateTime, offset_secs: i32) -> Option<i64> {
    if dt.month == 0 || dt.day == 0 {
        return None;
    }
    let days = day_number(dt) - DAYS_AT_UNIX_EPOCH;
    let secs =
        days * SECONDS_PER_DAY + dt.hour as i64 * 3600 + dt.minute as i64 * 60 + dt.second as i64
            - offset_secs as i64;
    secs.checked_mul(MICROS_PER_SECOND)?
        .checked_add(dt.micro as i64)
}

// ---------------------------------------------------------------------------------------
// TIMESTAMP columns and the session time zone.
//
// A TIMESTAMP column stores an instant: Quire keeps its value as the UTC datetime (which is
// also what the binary log's TIMESTAMP2 encodes), converts a value written to it from the
// session's `time_zone` to UTC, and a value read from it back to the session's zone — so
// that the same row shows different times to sessions in different zones, as in MySQL.
// DATETIME is stored as written.

/// A session's `time_zone`: a fixed offset east of UTC in seconds, or the system's zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    Fixed(i32),
    System,
}

/// The oldest and newest TIMESTAMP values, UTC (MySQL's range).
pub const TIMESTAMP_MIN_UTC: DateTime = DateTime {
    year: 1970,
    month: 1,
    day: 1,
    hour: 0,
    minute: 0,
    second: 1,
    micro: 0,
};
pub const TIMESTAMP_MAX_UTC: DateTime = DateTime {
    year: 2038,
    month: 1,
    day: 19,
    hour: 3,
    minute: 14,
    second: 7,
    micro: 999_999,
};

impl Zone {
    /// Local time equals UTC at every instant (no conversion needed).
    pub fn is_utc(self) -> bool {
        match self {
            Zone::Fixed(s) => s == 0,
            Zone::System => system_is_utc(),
        }
    }

    /// The UTC datetime of a local datetime in this zone; the zero datetime stays zero.
    /// `None` outside years 0001–9999. A local time the system zone skips (a DST gap) is
    /// read with the offset before the gap.
    pub fn to_utc(self, local: &DateTime) -> Option<DateTime> {
        if local.is_zero() || self.is_utc() {
            return Some(*local);
        }
        let offset = match self {
            Zone::Fixed(s) => s,
            Zone::System => system_offset_at_local(local)?,
        };
        datetime_from_unix_micros(unix_micros_from_datetime(local, offset)?, 0)
    }

    /// The local datetime in this zone of a UTC datetime; the zero datetime stays zero.
    pub fn from_utc(self, utc: &DateTime) -> Option<DateTime> {
        if utc.is_zero() || self.is_utc() {
            return Some(*utc);
        }
        let us = unix_micros_from_datetime(utc, 0)?;
        let offset = match self {
            Zone::Fixed(s) => s,
            Zone::System => {
                use chrono::Offset;
                let t = chrono::DateTime::from_timestamp_micros(us)?;
                t.with_timezone(&chrono::Local)
                    .offset()
                    .fix()
                    .local_minus_utc()
            }
        };
        datetime_from_unix_micros(us, offset)
    }
}

/// The system zone's offset for a local datetime.
fn system_offset_at_local(local: &DateTime) -> Option<i32> {
    use chrono::{Offset, TimeZone};
    let naive = chrono::NaiveDate::from_ymd_opt(
        i32::from(local.year),
        u32::from(local.month),
        u32::from(local.day),
    )?
    .and_hms_micro_opt(
        u32::from(local.hour),
        u32::from(local.minute),
        u32::from(local.second),
        local.micro,
    )?;
    let probe = match chrono::Local.from_local_datetime(&naive) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => t,
        // In a gap: the offset an hour earlier (before the clocks moved).
        chrono::LocalResult::None => chrono::Local
            .from_local_datetime(&(naive - chrono::TimeDelta::hours(1)))
            .earliest()?,
    };
    Some(probe.offset().fix().local_minus_utc())
}

/// The system zone is UTC (offset 0 in winter and summer, then and now): checked once.
fn system_is_utc() -> bool {
    static UTC: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *UTC.get_or_init(|| {
        use chrono::Offset;
        // 1970, 2000 and 2024, January and July.
        [
            0i64,
            15_638_400,
            946_684_800,
            962_409_600,
            1_704_067_200,
            1_719_792_000,
        ]
        .iter()
        .all(|&secs| {
            chrono::DateTime::from_timestamp(secs, 0).is_some_and(|t| {
                t.with_timezone(&chrono::Local)
                    .offset()
                    .fix()
                    .local_minus_utc()
                    == 0
            })
        })
    })
}

/// Microseconds since the Unix epoch from the system clock.
pub fn now_unix_micros() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_micros().min(i64::MAX as u128) as i64,
        Err(e) => -(e.duration().as_micros().min(i64::MAX as u128) as i64),
    }
}

/// The current UTC datetime (microsecond precision) from the system clock.
pub fn now_utc() -> DateTime {
    datetime_from_unix_micros(now_unix_micros(), 0).unwrap_or(DateTime::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamp_zones() {
        let ist = Zone::Fixed(19_800);
        let local = dt("2024-01-15 15:50:30.25");
        let utc = ist.to_utc(&local).unwrap();
        assert_eq!(utc, dt("2024-01-15 10:20:30.25"));
        assert_eq!(ist.from_utc(&utc), Some(local));
        // Across midnight and the epoch.
        let west = Zone::Fixed(-36_000);
        assert_eq!(
            west.to_utc(&dt("1969-12-31 15:00:00")),
            Some(dt("1970-01-01 01:00:00"))
        );
        assert_eq!(
            west.from_utc(&dt("1970-01-01 01:00:00")),
            Some(dt("1969-12-31 15:00:00"))
        );
        // The zero datetime is no instant and stays as it is; UTC converts nothing.
        assert_eq!(ist.to_utc(&DateTime::ZERO), Some(DateTime::ZERO));
        assert_eq!(Zone::Fixed(0).to_utc(&local), Some(local));
        assert!(TIMESTAMP_MIN_UTC < TIMESTAMP_MAX_UTC);
    }

    fn dt(s: &str) -> DateTime {
        parse_datetime(s.as_bytes()).unwrap().value
    }

    fn fmt(s: &str) -> String {
        format_datetime(&dt(s), 6)
    }

    fn t(s: &str) -> String {
        format_time(parse_time(s.as_bytes()).unwrap().value, 6)
    }

    #[test]
    fn parses_datetime_strings() {
        assert_eq!(fmt("2020-01-02"), "2020-01-02 00:00:00.000000");
        assert_eq!(
            fmt("2020-01-02 03:04:05.123456"),
            "2020-01-02 03:04:05.123456"
        );
        assert_eq!(fmt("2020-01-02T03:04:05"), "2020-01-02 03:04:05.000000");
        assert_eq!(fmt("20200102"), "2020-01-02 00:00:00.000000");
        assert_eq!(fmt("200102"), "2020-01-02 00:00:00.000000");
        assert_eq!(fmt("20200102030405"), "2020-01-02 03:04:05.000000");
        assert_eq!(fmt("20200102030405.5"), "2020-01-02 03:04:05.500000");
        assert_eq!(fmt("200102030405"), "2020-01-02 03:04:05.000000");
        assert_eq!(fmt("20-1-2"), "2020-01-02 00:00:00.000000");
        assert_eq!(fmt("99-1-2"), "1999-01-02 00:00:00.000000");
        assert_eq!(fmt("2020/01/02 03.04.05"), "2020-01-02 03:04:05.000000");
        assert_eq!(fmt("2020-01-02 03:04"), "2020-01-02 03:04:00.000000");
        assert_eq!(fmt("  2020-1-2 3:4:5.6 "), "2020-01-02 03:04:05.600000");
        assert_eq!(fmt("0000-00-00"), "0000-00-00 00:00:00.000000");
        assert_eq!(fmt("2020-00-01"), "2020-00-01 00:00:00.000000");
        assert_eq!(fmt("2020-02-29"), "2020-02-29 00:00:00.000000");
        // A seventh digit rounds, carrying up to the year.
        assert_eq!(
            fmt("2020-12-31 23:59:59.9999995"),
            "2021-01-01 00:00:00.000000"
        );
        assert_eq!(
            fmt("2020-12-31 23:59:59.9999994"),
            "2020-12-31 23:59:59.999999"
        );
        let p = parse_datetime(b"2020-01-02").unwrap();
        assert!(!p.has_time && !p.truncated);
        let p = parse_datetime(b"2020-01-02 03:04:05x").unwrap();
        assert!(p.has_time && p.truncated);
        assert!(parse_datetime(b"2020-01-02 junk").unwrap().truncated);
    }

    #[test]
    fn rejects_bad_datetimes() {
        use TemporalError::*;
        assert_eq!(parse_datetime(b"abc"), Err(NotTemporal));
        assert_eq!(parse_datetime(b""), Err(NotTemporal));
        assert_eq!(parse_datetime(b"2020-13-01"), Err(FieldOutOfRange));
        assert_eq!(parse_datetime(b"2020-01-02 24:00:00"), Err(FieldOutOfRange));
        assert_eq!(parse_datetime(b"2020-01"), Err(FieldOutOfRange));
        assert_eq!(parse_datetime(b"2021-02-29"), Err(DayOutOfRange));
        assert_eq!(parse_datetime(b"2020-04-31"), Err(DayOutOfRange));
        assert_eq!(parse_datetime(b"1900-02-29"), Err(DayOutOfRange));
        assert!(parse_datetime(b"2000-02-29").is_ok());
        assert_eq!(parse_datetime(b"2020 -01-02"), Err(NotTemporal));
        assert_eq!(parse_datetime(b"2020-01-1234567"), Err(NotTemporal));
    }

    #[test]
    fn parses_times() {
        assert_eq!(t("12:34:56"), "12:34:56.000000");
        assert_eq!(t("-838:59:59"), "-838:59:59.000000");
        assert_eq!(t("1 12:00:00"), "36:00:00.000000");
        assert_eq!(t("123456"), "12:34:56.000000");
        assert_eq!(t("12:34"), "12:34:00.000000");
        assert_eq!(t("34"), "00:00:34.000000");
        assert_eq!(t("1:2:3.4567891"), "01:02:03.456789");
        assert_eq!(t("1:2:3.4567895"), "01:02:03.456790");
        assert_eq!(t("2020-01-02 03:04:05.5"), "03:04:05.500000");
        assert_eq!(t("12:34:56.123456"), "12:34:56.123456");
        let p = parse_time(b"900:00:00").unwrap();
        assert!(p.clamped);
        assert_eq!(p.value.micros, TIME_MAX_MICROS);
        assert!(parse_time(b"12:00:00abc").unwrap().truncated);
        assert_eq!(parse_time(b"abc"), Err(TemporalError::NotTemporal));
        assert_eq!(parse_time(b"12:61:00"), Err(TemporalError::FieldOutOfRange));
        assert_eq!(parse_time(b"1e5"), Err(TemporalError::NotTemporal));
        assert_eq!(parse_time(b""), Err(TemporalError::NotTemporal));
        assert_eq!(parse_time(b"-"), Err(TemporalError::NotTemporal));
    }

    #[test]
    fn numbers_as_datetimes() {
        let f = |n| datetime_from_int(n).map(|(d, _)| format_datetime(&d, 0));
        assert_eq!(f(20200102).unwrap(), "2020-01-02 00:00:00");
        assert_eq!(f(200102).unwrap(), "2020-01-02 00:00:00");
        assert_eq!(f(700101).unwrap(), "1970-01-01 00:00:00");
        assert_eq!(f(20200102030405).unwrap(), "2020-01-02 03:04:05");
        assert_eq!(f(0).unwrap(), "0000-00-00 00:00:00");
        assert_eq!(f(101).unwrap(), "2000-01-01 00:00:00");
        assert!(f(5).is_err());
        assert!(f(20201301).is_err());
        assert!(f(-1).is_err());
        let (d, _) = datetime_from_parts(20200102030405, 500_000_000).unwrap();
        assert_eq!(format_datetime(&d, 6), "2020-01-02 03:04:05.500000");
        assert_eq!(
            time_from_int(123456).unwrap().0.micros,
            (12 * 3600 + 34 * 60 + 56) * 1_000_000
        );
        assert!(time_from_int(1261).is_err());
        assert!(time_from_int(9_000_000).unwrap().1);
        assert_eq!(
            time_to_number(Time {
                micros: -((12 * 3600 + 34 * 60 + 56) * 1_000_000)
            }),
            -123456
        );
        assert_eq!(
            datetime_to_number(&dt("2020-01-02 03:04:05")),
            20200102030405
        );
    }

    #[test]
    fn formats() {
        let d = dt("2020-01-02 03:04:05.123456");
        assert_eq!(format_datetime(&d, 0), "2020-01-02 03:04:05");
        assert_eq!(format_datetime(&d, 3), "2020-01-02 03:04:05.123");
        assert_eq!(format_date(&d), "2020-01-02");
        assert_eq!(format_time(Time { micros: 5_000_000 }, 0), "00:00:05");
        assert_eq!(
            format_time(
                Time {
                    micros: -TIME_MAX_MICROS
                },
                2
            ),
            "-838:59:59.00"
        );
        assert_eq!(format_time(Time { micros: -500_000 }, 1), "-00:00:00.5");
    }

    #[test]
    fn rounding() {
        let d = dt("2020-01-02 03:04:05.5");
        assert_eq!(
            format_datetime(&round_datetime(d, 0).unwrap(), 0),
            "2020-01-02 03:04:06"
        );
        let d = dt("2020-01-02 03:04:05.123456");
        assert_eq!(
            format_datetime(&round_datetime(d, 3).unwrap(), 6),
            "2020-01-02 03:04:05.123000"
        );
        assert_eq!(
            format_datetime(&round_datetime(d, 4).unwrap(), 6),
            "2020-01-02 03:04:05.123500"
        );
        assert!(round_datetime(dt("9999-12-31 23:59:59.5"), 0).is_none());
        assert_eq!(
            format_datetime(&round_datetime(dt("2020-02-29 23:59:59.5"), 0).unwrap(), 0),
            "2020-03-01 00:00:00"
        );
        assert_eq!(
            round_time(Time { micros: -1_500_000 }, 0).0.micros,
            -2_000_000
        );
        assert_eq!(
            round_time(
                Time {
                    micros: TIME_MAX_MICROS + 600_000
                },
                0
            ),
            (
                Time {
                    micros: TIME_MAX_MICROS
                },
                true
            )
        );
    }

    #[test]
    fn day_numbers_match_mysql() {
        // SELECT TO_DAYS(...) in MySQL/MariaDB.
        assert_eq!(to_days(2020, 1, 1), 737790);
        assert_eq!(to_days(1970, 1, 1), DAYS_AT_UNIX_EPOCH);
        assert_eq!(to_days(9999, 12, 31), MAX_DAY_NUMBER);
        assert_eq!(to_days(0, 1, 1), 1);
        assert_eq!(to_days(0, 0, 0), 0);
        assert_eq!(from_days(737790), DateTime::date(2020, 1, 1));
        assert_eq!(from_days(365), DateTime::ZERO);
        assert_eq!(from_days(366), DateTime::date(1, 1, 1));
        for n in (366..MAX_DAY_NUMBER).step_by(997) {
            let d = from_days(n);
            assert_eq!(day_number(&d), n, "{d:?}");
        }
        assert_eq!(weekday(&DateTime::date(2020, 1, 6)), 0); // a Monday
        assert_eq!(weekday(&DateTime::date(2024, 3, 3)), 6); // a Sunday
        assert_eq!(day_of_year(&DateTime::date(2020, 12, 31)), 366);
    }

    #[test]
    fn intervals() {
        use IntervalUnit::*;
        let f = |s: &str, unit, n| add_interval(dt(s), unit, n).map(|d| format_datetime(&d, 6));
        assert_eq!(
            f("2020-01-31", Month, 1).unwrap(),
            "2020-02-29 00:00:00.000000"
        );
        assert_eq!(
            f("2019-01-31", Month, 1).unwrap(),
            "2019-02-28 00:00:00.000000"
        );
        assert_eq!(
            f("2020-02-29", Year, 1).unwrap(),
            "2021-02-28 00:00:00.000000"
        );
        assert_eq!(
            f("2020-03-31", Month, -1).unwrap(),
            "2020-02-29 00:00:00.000000"
        );
        assert_eq!(
            f("2020-01-01", Quarter, 1).unwrap(),
            "2020-04-01 00:00:00.000000"
        );
        assert_eq!(
            f("2020-12-31 23:59:59", Second, 1).unwrap(),
            "2021-01-01 00:00:00.000000"
        );
        assert_eq!(
            f("2020-01-01", Microsecond, -1).unwrap(),
            "2019-12-31 23:59:59.999999"
        );
        assert_eq!(
            f("2020-01-01", Day, -1).unwrap(),
            "2019-12-31 00:00:00.000000"
        );
        assert_eq!(
            f("2020-01-01", Week, 2).unwrap(),
            "2020-01-15 00:00:00.000000"
        );
        assert_eq!(
            f("2020-01-01 10:00:00", Hour, -34).unwrap(),
            "2019-12-31 00:00:00.000000"
        );
        assert!(f("9999-12-31", Day, 1).is_none());
        assert!(f("9999-12-31", Month, 1).is_none());
        let iv = Interval::parse(DaySecond, b"1 2:3:4").unwrap();
        assert_eq!((iv.days, iv.hours, iv.minutes, iv.seconds), (1, 2, 3, 4));
        let iv = Interval::parse(DaySecond, b"2:3").unwrap();
        assert_eq!((iv.days, iv.hours, iv.minutes, iv.seconds), (0, 0, 2, 3));
        let iv = Interval::parse(SecondMicrosecond, b"-1.5").unwrap();
        assert!(iv.negative);
        assert_eq!((iv.seconds, iv.micros), (1, 500_000));
        let iv = Interval::parse(YearMonth, b"1-2").unwrap();
        assert_eq!(
            format_datetime(&add_interval_parts(dt("2020-11-30"), &iv).unwrap(), 0),
            "2022-01-30 00:00:00"
        );
        assert!(Interval::parse(DayHour, b"1 2 3").is_none());
    }

    #[test]
    fn unix_time() {
        let d = datetime_from_unix_micros(1_577_934_245_123_456, 0).unwrap();
        assert_eq!(format_datetime(&d, 6), "2020-01-02 03:04:05.123456");
        assert_eq!(
            unix_micros_from_datetime(&d, 0),
            Some(1_577_934_245_123_456)
        );
        let d = datetime_from_unix_micros(0, -3600).unwrap();
        assert_eq!(format_datetime(&d, 0), "1969-12-31 23:00:00");
        assert_eq!(unix_micros_from_datetime(&d, -3600), Some(0));
        assert!(now_utc().year >= 2024);
    }
}
