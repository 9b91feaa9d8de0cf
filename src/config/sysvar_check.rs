//! Validation of values assigned to system variables: MySQL 8.0's `Sys_var_*::do_check`,
//! one function per [`Kind`], returning the value in its stored form (see the table in
//! `sysvars.rs`).
//!
//! The assigned value arrives as an evaluated [`Value`]; what MySQL calls its "result type"
//! decides what a variable accepts:
//!
//! | value                      | MySQL result type | accepted by                          |
//! |----------------------------|-------------------|--------------------------------------|
//! | `Int`, `UInt`              | INT               | integers, doubles, booleans, enums, sets, sql_mode, charsets, collations, locales |
//! | `Double`, `Float`, `Decimal` | REAL / DECIMAL  | doubles only                          |
//! | `Bytes`                    | STRING            | everything but integers and doubles   |
//! | `Null`                     | STRING (NULL)     | nullable variables; else 1231 'NULL', or 1232 for numbers |
//! | temporal values            | —                 | nothing (1232)                        |
//!
//! A value a variable does not accept at all fails with 1232 "Incorrect argument type to
//! variable 'x'". Every function here is total: bounded loops over the client's text, no
//! panics, no allocation beyond the result and error text.

use super::sql_mode::SqlMode;
use super::sysvar_defs::{ENGINES, ISOLATION_NAMES, LOCALES};
use super::sysvars::{Kind, NullPolicy, VarId, def, vars};
use crate::error::{Diagnostics, MyError, code};
use crate::sql::types::{Charset, Collation};
use crate::sql::value::Value;
use std::borrow::Cow;

/// MySQL's `ER_UNKNOWN_LOCALE` (not yet in `crate::error::code`).
pub const ER_UNKNOWN_LOCALE: u16 = 1649;

/// Longest string Quire stores in a variable; longer values fail with 1231.
pub const STR_LEN_MAX: usize = 65_536;

/// What [`check`] needs to know about the statement's session.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckCtx<'a> {
    /// The session's `sql_mode`: under STRICT_ALL_TABLES an out-of-range number is an error
    /// (1231) instead of a clamp with warning 1292.
    pub sql_mode: SqlMode,
    /// The session's `pseudo_replica_mode`: removed sql_mode bits are dropped with a warning
    /// instead of failing (binlog replay of old events).
    pub pseudo_replica_mode: bool,
    /// For `optimizer_switch`, which is edited in place: the value being edited…
    pub current: Option<&'a Value>,
    /// …and what its `default` restores (the global value for a session, the compiled
    /// default for the global). `None` means the compiled default for both.
    pub default: Option<&'a Value>,
}

/// A value that was adjusted to fit: the text of the value as given.
pub(crate) struct Adjusted(pub String);

/// Validates and normalises `value` for variable `id`, as `SET` does. A clamped number adds
/// warning 1292 to `diag` (or fails under STRICT_ALL_TABLES).
pub fn check(
    id: VarId,
    value: &Value,
    ctx: &CheckCtx<'_>,
    diag: &mut Diagnostics,
) -> Result<Value, MyError> {
    let (stored, adjusted) = check_adjusting(id, value, ctx, diag)?;
    if let Some(Adjusted(original)) = adjusted {
        let name = def(id).name;
        if ctx.sql_mode.contains(SqlMode::STRICT_ALL_TABLES) {
            return Err(MyError::wrong_value_for_var(name, &original));
        }
        diag.warn(
            code::ER_TRUNCATED_WRONG_VALUE,
            format!("Truncated incorrect {name} value: '{original}'"),
        );
    }
    Ok(stored)
}

/// [`check`] without deciding what to do with an adjustment: returns the stored value and,
/// if the value was clamped or rounded, the original's text. (The option parser reports
/// adjustments its own way.)
pub(crate) fn check_adjusting(
    id: VarId,
    value: &Value,
    ctx: &CheckCtx<'_>,
    diag: &mut Diagnostics,
) -> Result<(Value, Option<Adjusted>), MyError> {
    let v = def(id);
    let name = v.name;
    let arg = Arg::of(value);
    let wrong_type = || {
        MyError::new(
            code::ER_WRONG_TYPE_FOR_VAR,
            format!("Incorrect argument type to variable '{name}'"),
        )
    };
    let wrong_value = |text: &str| MyError::wrong_value_for_var(name, text);

    // NULL first: the variable's policy, else MySQL's error for its kind.
    if let Arg::Null = arg {
        return match v.null {
            NullPolicy::Keep => Ok((Value::Null, None)),
            NullPolicy::Empty => Ok((Value::str(""), None)),
            NullPolicy::Reject => match v.kind {
                Kind::Int { .. } | Kind::UInt { .. } | Kind::Double { .. } => Err(wrong_type()),
                _ => Err(wrong_value("NULL")),
            },
        };
    }

    match v.kind {
        Kind::Bool => match arg {
            Arg::Int(0) => Ok((Value::Int(0), None)),
            Arg::Int(1) => Ok((Value::Int(1), None)),
            Arg::Int(i) => Err(wrong_value(&i.to_string())),
            Arg::Str(s) if s.eq_ignore_ascii_case("ON") => Ok((Value::Int(1), None)),
            Arg::Str(s) if s.eq_ignore_ascii_case("OFF") => Ok((Value::Int(0), None)),
            Arg::Str(s) => Err(wrong_value(&s)),
            _ => Err(wrong_type()),
        },

        Kind::UInt { min, max, block } => match arg {
            Arg::Int(i) => {
                let stored = clamp_unsigned(i, min, max, block);
                let adjusted = (i128::from(stored) != i).then(|| Adjusted(i.to_string()));
                Ok((Value::UInt(stored), adjusted))
            }
            _ => Err(wrong_type()),
        },

        Kind::Int { min, max } => match arg {
            Arg::Int(i) => {
                let stored = i.clamp(i128::from(min), i128::from(max)) as i64;
                let adjusted = (i128::from(stored) != i).then(|| Adjusted(i.to_string()));
                Ok((Value::Int(stored), adjusted))
            }
            _ => Err(wrong_type()),
        },

        Kind::Double { min, max } => {
            let d = match arg {
                Arg::Int(i) => i as f64,
                Arg::Real(d) => d,
                _ => return Err(wrong_type()),
            };
            if d.is_nan() {
                return Err(wrong_value("NaN"));
            }
            let stored = d.clamp(min, max);
            let adjusted = (stored != d).then(|| Adjusted(format_double(d)));
            if id == vars::TIMESTAMP {
                // MySQL's check_timestamp: 0 resets to "now"; below 1 is invalid.
                if stored == 0.0 {
                    return Ok((Value::Null, adjusted));
                }
                if stored < 1.0 {
                    return Err(wrong_value(&format_double(d)));
                }
            }
            Ok((Value::Double(stored), adjusted))
        }

        Kind::Str => match arg {
            Arg::Str(s) if s.len() > STR_LEN_MAX => Err(wrong_value(&truncate_for_error(&s))),
            Arg::Str(s) => Ok((Value::str(&s), None)),
            _ => Err(wrong_type()),
        },

        Kind::Enum(names) => match arg {
            Arg::Int(i) => usize::try_from(i)
                .ok()
                .and_then(|i| names.get(i))
                .map(|n| (Value::str(n), None))
                .ok_or_else(|| wrong_value(&i.to_string())),
            Arg::Str(s) => names
                .iter()
                .find(|n| n.eq_ignore_ascii_case(&s))
                .map(|n| (Value::str(n), None))
                .ok_or_else(|| wrong_value(&s)),
            _ => Err(wrong_type()),
        },

        Kind::Set(names) => {
            let bits = match &arg {
                Arg::Int(i) => {
                    let i = *i;
                    if i < 0 || i >= (1i128 << names.len()) {
                        return Err(wrong_value(&i.to_string()));
                    }
                    i as u64
                }
                Arg::Str(s) => {
                    let mut bits = 0u64;
                    for element in s.trim_end_matches(' ').split(',') {
                        if element.is_empty() {
                            continue;
                        }
                        let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(element))
                        else {
                            return Err(wrong_value(element));
                        };
                        bits |= 1 << i;
                    }
                    bits
                }
                _ => return Err(wrong_type()),
            };
            // The one SET variable, log_output, may not be empty (MySQL's check_log_output).
            if bits == 0 {
                return Err(wrong_value(&arg.text()));
            }
            let text: Vec<&str> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .map(|(_, n)| *n)
                .collect();
            Ok((Value::from_string(text.join(",")), None))
        }

        Kind::Flags(flags) => {
            let compiled_default = flags_default_bits(flags);
            let stored_bits = |v: Option<&Value>| match v {
                Some(Value::Bytes(b)) => flags_bits(flags, &String::from_utf8_lossy(b)),
                _ => compiled_default,
            };
            let bits = match arg {
                Arg::Int(i) => {
                    if i < 0 || i >= (1i128 << flags.len()) {
                        return Err(wrong_value(&i.to_string()));
                    }
                    i as u64
                }
                Arg::Str(s) => parse_flags(
                    flags,
                    &s,
                    stored_bits(ctx.current),
                    stored_bits(ctx.default),
                )
                .map_err(wrong_value)?,
                _ => return Err(wrong_type()),
            };
            Ok((Value::from_string(flags_to_string(flags, bits)), None))
        }

        Kind::SqlMode => {
            let mode = match arg {
                Arg::Int(i) if ctx.pseudo_replica_mode && (0..1i128 << 33).contains(&i) => {
                    SqlMode::strip_removed(SqlMode::from_bits_retain(i as u64), diag)
                }
                Arg::Int(i) => SqlMode::from_number(i)?,
                Arg::Str(s) if ctx.pseudo_replica_mode => {
                    SqlMode::strip_removed(SqlMode::parse_names(&s)?, diag)
                }
                Arg::Str(s) => SqlMode::parse(&s)?,
                _ => return Err(wrong_type()),
            };
            Ok((Value::UInt(mode.bits()), None))
        }

        Kind::Charset => {
            let charset = match &arg {
                Arg::Int(i) => u16::try_from(*i)
                    .ok()
                    .and_then(Collation::from_id)
                    .map(Collation::charset),
                Arg::Str(s) => Charset::from_name(s),
                _ => return Err(wrong_type()),
            };
            charset
                .map(|c| (Value::str(c.name()), None))
                .ok_or_else(|| {
                    MyError::new(
                        code::ER_UNKNOWN_CHARACTER_SET,
                        format!("Unknown character set: '{}'", arg.text()),
                    )
                })
        }

        Kind::Collation => {
            let collation = match &arg {
                Arg::Int(i) => u16::try_from(*i).ok().and_then(Collation::from_id),
                Arg::Str(s) => collation_from_name(s),
                _ => return Err(wrong_type()),
            };
            collation
                .map(|c| (Value::str(c.name()), None))
                .ok_or_else(|| {
                    MyError::new(
                        code::ER_UNKNOWN_COLLATION,
                        format!("Unknown collation: '{}'", arg.text()),
                    )
                })
        }

        Kind::TimeZone => match arg {
            Arg::Str(s) => parse_time_zone(&s)
                .map(|canonical| (Value::from_string(canonical), None))
                .ok_or_else(|| {
                    MyError::new(
                        code::ER_UNKNOWN_TIME_ZONE,
                        format!(
                            "Unknown or incorrect time zone: '{}'",
                            truncate_for_error(&s)
                        ),
                    )
                }),
            _ => Err(wrong_type()),
        },

        Kind::Locale => {
            let locale = match &arg {
                Arg::Int(i) => usize::try_from(*i).ok().and_then(|i| LOCALES.get(i)),
                Arg::Str(s) => LOCALES.iter().find(|l| l.eq_ignore_ascii_case(s)),
                _ => return Err(wrong_type()),
            };
            locale.map(|l| (Value::str(l), None)).ok_or_else(|| {
                MyError::new(
                    ER_UNKNOWN_LOCALE,
                    format!("Unknown locale: '{}'", arg.text()),
                )
            })
        }

        Kind::Engine => match arg {
            Arg::Str(s) => engine_from_name(&s)
                .map(|e| (Value::str(e), None))
                .ok_or_else(|| {
                    MyError::new(
                        code::ER_UNKNOWN_STORAGE_ENGINE,
                        format!("Unknown storage engine '{}'", truncate_for_error(&s)),
                    )
                }),
            _ => Err(wrong_type()),
        },
    }
}

/// The assigned value as MySQL's `Item` would present it.
enum Arg<'a> {
    Int(i128),
    Real(f64),
    Str(Cow<'a, str>),
    Null,
    Other,
}

impl<'a> Arg<'a> {
    fn of(value: &'a Value) -> Arg<'a> {
        match value {
            Value::Null => Arg::Null,
            Value::Int(i) => Arg::Int(i128::from(*i)),
            Value::UInt(u) => Arg::Int(i128::from(*u)),
            Value::Float(f) => Arg::Real(f64::from(*f)),
            Value::Double(d) => Arg::Real(*d),
            Value::Decimal(d) => Arg::Real(d.to_string().parse().unwrap_or(f64::NAN)),
            Value::Bytes(b) => Arg::Str(String::from_utf8_lossy(b)),
            Value::Date(_) | Value::DateTime(_) | Value::Time(_) => Arg::Other,
        }
    }

    /// The value as the error message quotes it (MySQL's `val_str`).
    fn text(&self) -> String {
        match self {
            Arg::Int(i) => i.to_string(),
            Arg::Real(d) => format_double(*d),
            Arg::Str(s) => truncate_for_error(s),
            Arg::Null => "NULL".to_string(),
            Arg::Other => String::new(),
        }
    }
}

/// MySQL quotes at most 64-ish characters of a value in messages; keep errors bounded.
fn truncate_for_error(s: &str) -> String {
    s.chars().take(128).collect()
}

/// A double as MySQL's `%g`-like `my_gcvt` prints it in messages: `-1`, `0.5`, `1e300`.
pub(crate) fn format_double(d: f64) -> String {
    let abs = d.abs();
    if abs != 0.0 && !(1e-5..1e15).contains(&abs) {
        format!("{d:e}")
    } else {
        format!("{d}")
    }
}

/// MySQL's `getopt_ull_limit_value`: clamp into `[min, max]` (both first aligned to the
/// block: min rounded up, max rounded down) and round down to a multiple of `block`.
/// Negative input counts as 0.
pub(crate) fn clamp_unsigned(input: i128, min: u64, max: u64, block: u64) -> u64 {
    let block = block.max(1);
    let max = max - max % block;
    let min = match min % block {
        0 => min,
        r => min.saturating_add(block - r).min(max),
    };
    let mut num = u64::try_from(input.max(0)).unwrap_or(u64::MAX).min(max);
    num -= num % block;
    num.max(min)
}

fn collation_from_name(name: &str) -> Option<Collation> {
    // `Collation::from_name` maps the `utf8_` prefix to `utf8mb3_`; only a real prefix
    // counts (not e.g. "xutf8_bin").
    let lower = name.to_ascii_lowercase();
    let canonical = match lower.strip_prefix("utf8_") {
        Some(rest) => format!("utf8mb3_{rest}"),
        None => lower,
    };
    Collation::ALL.into_iter().find(|c| c.name() == canonical)
}

fn engine_from_name(name: &str) -> Option<&'static str> {
    ENGINES
        .iter()
        .find(|(canonical, aliases)| {
            canonical.eq_ignore_ascii_case(name)
                || aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
        .map(|(canonical, _)| *canonical)
}

// --- optimizer_switch-style flags -----------------------------------------------------------

pub(crate) fn flags_default_bits(flags: &[(&str, bool)]) -> u64 {
    flags
        .iter()
        .enumerate()
        .filter(|(_, (_, on))| *on)
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

/// `name=on,name=off,…` → bits, for a value Quire stored (unknown parts are ignored).
pub(crate) fn flags_bits(flags: &[(&str, bool)], text: &str) -> u64 {
    let mut bits = flags_default_bits(flags);
    for element in text.split(',') {
        let Some((name, value)) = element.split_once('=') else {
            continue;
        };
        if let Some(i) = flags.iter().position(|(n, _)| *n == name) {
            match value {
                "on" => bits |= 1 << i,
                "off" => bits &= !(1 << i),
                _ => {}
            }
        }
    }
    bits
}

pub(crate) fn flags_to_string(flags: &[(&str, bool)], bits: u64) -> String {
    let parts: Vec<String> = flags
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            let on = bits & (1 << i) != 0;
            format!("{name}={}", if on { "on" } else { "off" })
        })
        .collect();
    parts.join(",")
}

/// MySQL's `find_set_from_flags`: a comma list of `default` and `flag=on|off|default`,
/// applied to `current` (or to `default` if the list says `default`). Setting a flag twice,
/// or `default` twice, is an error. Returns the offending element on error.
fn parse_flags<'t>(
    flags: &[(&str, bool)],
    text: &'t str,
    current: u64,
    default: u64,
) -> Result<u64, &'t str> {
    let (mut to_set, mut to_clear, mut use_default) = (0u64, 0u64, false);
    for element in text.split(',') {
        if element.eq_ignore_ascii_case("default") {
            if use_default {
                return Err(element);
            }
            use_default = true;
            continue;
        }
        let (name, value) = element.split_once('=').ok_or(element)?;
        let i = flags
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or(element)?;
        let bit = 1u64 << i;
        if (to_set | to_clear) & bit != 0 {
            return Err(element);
        }
        let on = if value.eq_ignore_ascii_case("on") {
            true
        } else if value.eq_ignore_ascii_case("off") {
            false
        } else if value.eq_ignore_ascii_case("default") {
            default & bit != 0
        } else {
            return Err(element);
        };
        if on {
            to_set |= bit;
        } else {
            to_clear |= bit;
        }
    }
    let base = if use_default { default } else { current };
    Ok((base | to_set) & !to_clear)
}

// --- time zones -----------------------------------------------------------------------------

/// A session's time zone, as the server converts TIMESTAMP values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeZone {
    /// The operating system's local time.
    System,
    /// A fixed offset east of UTC, in seconds (`+05:30` = 19800; `UTC` = 0).
    Offset { seconds: i32 },
}

/// The time zone of a stored `time_zone` value (anything unparsable is `System`).
pub fn time_zone(value: &Value) -> TimeZone {
    let text = match value {
        Value::Bytes(b) => std::str::from_utf8(b).unwrap_or(""),
        _ => "",
    };
    if text.eq_ignore_ascii_case("UTC") {
        return TimeZone::Offset { seconds: 0 };
    }
    match parse_offset(text) {
        Some(seconds) => TimeZone::Offset { seconds },
        None => TimeZone::System,
    }
}

/// `SYSTEM`, `UTC` or an offset, in canonical spelling (`+1:00` → `+01:00`).
fn parse_time_zone(text: &str) -> Option<String> {
    if text.eq_ignore_ascii_case("SYSTEM") {
        return Some("SYSTEM".to_string());
    }
    if text.eq_ignore_ascii_case("UTC") {
        return Some("UTC".to_string());
    }
    let seconds = parse_offset(text)?;
    let abs = seconds.unsigned_abs();
    Some(format!(
        "{}{:02}:{:02}",
        if seconds < 0 { '-' } else { '+' },
        abs / 3600,
        abs % 3600 / 60
    ))
}

/// MySQL's `str_to_offset`: `[+-]H+:M+`, minutes ≤ 59, within -13:59..=+14:00 (8.0.19+).
fn parse_offset(text: &str) -> Option<i32> {
    let bytes = text.as_bytes();
    if bytes.len() < 4 {
        return None;
    }
    let negative = match bytes.first()? {
        b'+' => false,
        b'-' => true,
        _ => return None,
    };
    let rest = bytes.get(1..)?;
    let colon = rest.iter().position(|&b| b == b':')?;
    let (hours, minutes) = (rest.get(..colon)?, rest.get(colon + 1..)?);
    if minutes.is_empty() {
        return None;
    }
    let number = |digits: &[u8]| -> Option<i64> {
        digits.iter().try_fold(0i64, |n, &d| {
            if d.is_ascii_digit() {
                n.checked_mul(10)?.checked_add(i64::from(d - b'0'))
            } else {
                None
            }
        })
    };
    let (hours, minutes) = (number(hours)?, number(minutes)?);
    if minutes > 59 {
        return None;
    }
    let mut offset = hours.checked_mul(3600)?.checked_add(minutes * 60)?;
    if negative {
        offset = -offset;
    }
    if !(-14 * 3600 + 1..=14 * 3600).contains(&offset) {
        return None;
    }
    i32::try_from(offset).ok()
}

// --- isolation levels -----------------------------------------------------------------------

/// `transaction_isolation`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsolationLevel {
    ReadUncommitted,
    ReadCommitted,
    RepeatableRead,
    Serializable,
}

impl IsolationLevel {
    const ALL: [IsolationLevel; 4] = [
        IsolationLevel::ReadUncommitted,
        IsolationLevel::ReadCommitted,
        IsolationLevel::RepeatableRead,
        IsolationLevel::Serializable,
    ];

    /// The variable's spelling: `REPEATABLE-READ`.
    pub fn name(self) -> &'static str {
        ISOLATION_NAMES
            .get(self as usize)
            .copied()
            .unwrap_or("REPEATABLE-READ")
    }

    /// From the variable's spelling, any case.
    pub fn from_name(name: &str) -> Option<IsolationLevel> {
        Self::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chk(id: VarId, v: Value) -> Result<(Value, Vec<(u16, String)>), MyError> {
        chk_ctx(id, v, &CheckCtx::default())
    }

    fn chk_ctx(
        id: VarId,
        v: Value,
        ctx: &CheckCtx<'_>,
    ) -> Result<(Value, Vec<(u16, String)>), MyError> {
        let mut d = Diagnostics::default();
        let out = check(id, &v, ctx, &mut d)?;
        Ok((
            out,
            d.list.into_iter().map(|w| (w.code, w.message)).collect(),
        ))
    }

    fn ok(id: VarId, v: Value) -> Value {
        let (value, warnings) = chk(id, v).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        value
    }

    fn text(v: &Value) -> &str {
        match v {
            Value::Bytes(b) => std::str::from_utf8(b).unwrap(),
            other => panic!("not text: {other:?}"),
        }
    }

    fn err(id: VarId, v: Value) -> (u16, &'static str, String) {
        let e = chk(id, v).unwrap_err();
        (e.code, e.state, e.message)
    }

    #[test]
    fn booleans() {
        for (input, expected) in [
            (Value::Int(1), 1),
            (Value::Int(0), 0),
            (Value::UInt(1), 1),
            (Value::str("ON"), 1),
            (Value::str("on"), 1),
            (Value::str("Off"), 0),
        ] {
            assert!(matches!(ok(vars::AUTOCOMMIT, input), Value::Int(i) if i == expected));
        }
        for (input, shown) in [
            (Value::Int(2), "2"),
            (Value::Int(-1), "-1"),
            (Value::str("true"), "true"),
            (Value::str("1"), "1"),
            (Value::str("on "), "on "),
            (Value::Null, "NULL"),
        ] {
            assert_eq!(
                err(vars::AUTOCOMMIT, input),
                (
                    1231,
                    "42000",
                    format!("Variable 'autocommit' can't be set to the value of '{shown}'")
                )
            );
        }
        assert_eq!(
            err(vars::AUTOCOMMIT, Value::Double(1.0)),
            (
                1232,
                "42000",
                "Incorrect argument type to variable 'autocommit'".to_string()
            )
        );
    }

    #[test]
    fn unsigned_integers_clamp_with_warning() {
        assert!(matches!(
            ok(vars::MAX_CONNECTIONS, Value::Int(500)),
            Value::UInt(500)
        ));
        let (v, w) = chk(vars::MAX_ALLOWED_PACKET, Value::Int(100)).unwrap();
        assert!(matches!(v, Value::UInt(1024)));
        assert_eq!(
            w,
            vec![(
                1292,
                "Truncated incorrect max_allowed_packet value: '100'".to_string()
            )]
        );
        // block size: rounded down, with the same warning
        let (v, w) = chk(vars::MAX_ALLOWED_PACKET, Value::Int(1025)).unwrap();
        assert!(matches!(v, Value::UInt(1024)));
        assert_eq!(w.len(), 1);
        let (v, w) = chk(vars::MAX_ALLOWED_PACKET, Value::Int(-5)).unwrap();
        assert!(matches!(v, Value::UInt(1024)));
        assert_eq!(w[0].1, "Truncated incorrect max_allowed_packet value: '-5'");
        let (v, _) = chk(vars::MAX_ALLOWED_PACKET, Value::UInt(u64::MAX)).unwrap();
        assert!(matches!(v, Value::UInt(1_073_741_824)));
        let (v, w) = chk(vars::MAX_CONNECTIONS, Value::Int(0)).unwrap();
        assert!(matches!(v, Value::UInt(1)));
        assert_eq!(w[0].1, "Truncated incorrect max_connections value: '0'");
        // in range, no warning; u64::MAX accepted where allowed
        assert!(matches!(
            ok(vars::SQL_SELECT_LIMIT, Value::UInt(u64::MAX)),
            Value::UInt(u64::MAX)
        ));
        // STRICT_ALL_TABLES turns the clamp into an error
        let ctx = CheckCtx {
            sql_mode: SqlMode::STRICT_ALL_TABLES,
            ..CheckCtx::default()
        };
        let e = chk_ctx(vars::MAX_ALLOWED_PACKET, Value::Int(100), &ctx).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (
                1231,
                "Variable 'max_allowed_packet' can't be set to the value of '100'"
            )
        );
        // STRICT_TRANS_TABLES does not
        let ctx = CheckCtx {
            sql_mode: SqlMode::DEFAULT,
            ..CheckCtx::default()
        };
        assert!(chk_ctx(vars::MAX_ALLOWED_PACKET, Value::Int(100), &ctx).is_ok());
    }

    #[test]
    fn integers_reject_other_types() {
        for v in [
            Value::str("100"),
            Value::Double(1.5),
            Value::Null,
            Value::Date(crate::sql::value::DateTime::date(2020, 1, 1)),
        ] {
            assert_eq!(
                err(vars::MAX_CONNECTIONS, v),
                (
                    1232,
                    "42000",
                    "Incorrect argument type to variable 'max_connections'".to_string()
                )
            );
        }
    }

    #[test]
    fn signed_integers() {
        assert!(matches!(
            ok(vars::PERFORMANCE_SCHEMA_DIGESTS_SIZE, Value::Int(-1)),
            Value::Int(-1)
        ));
        let (v, w) = chk(vars::PERFORMANCE_SCHEMA_DIGESTS_SIZE, Value::Int(-7)).unwrap();
        assert!(matches!(v, Value::Int(-1)));
        assert_eq!(w.len(), 1);
        let (v, _) = chk(vars::PERFORMANCE_SCHEMA_DIGESTS_SIZE, Value::UInt(u64::MAX)).unwrap();
        assert!(matches!(v, Value::Int(1_048_576)));
    }

    #[test]
    fn clamp_matches_getopt() {
        assert_eq!(clamp_unsigned(1025, 1024, 1_073_741_824, 1024), 1024);
        assert_eq!(clamp_unsigned(2047, 1024, 1_073_741_824, 1024), 1024);
        assert_eq!(clamp_unsigned(5000, 1024, 4095, 1024), 3072);
        assert_eq!(clamp_unsigned(-1, 0, 10, 1), 0);
        assert_eq!(clamp_unsigned(i128::MAX, 0, u64::MAX, 1), u64::MAX);
        assert_eq!(
            clamp_unsigned(i128::MAX, 4096, u64::MAX - 4095, 4096),
            u64::MAX - 4095
        );
        // min not a multiple of the block: rounded up
        assert_eq!(clamp_unsigned(0, 1000, 100_000, 1024), 1024);
    }

    #[test]
    fn doubles() {
        assert!(matches!(
            ok(vars::LONG_QUERY_TIME, Value::Double(0.5)),
            Value::Double(d) if d == 0.5
        ));
        assert!(matches!(
            ok(vars::LONG_QUERY_TIME, Value::Int(2)),
            Value::Double(d) if d == 2.0
        ));
        let dec = Value::decimal("1.25".parse().unwrap());
        assert!(matches!(ok(vars::LONG_QUERY_TIME, dec), Value::Double(d) if d == 1.25));
        let (v, w) = chk(vars::LONG_QUERY_TIME, Value::Int(-1)).unwrap();
        assert!(matches!(v, Value::Double(d) if d == 0.0));
        assert_eq!(
            w,
            vec![(
                1292,
                "Truncated incorrect long_query_time value: '-1'".to_string()
            )]
        );
        assert_eq!(err(vars::LONG_QUERY_TIME, Value::str("1")).0, 1232);
        assert_eq!(err(vars::LONG_QUERY_TIME, Value::Null).0, 1232);
    }

    #[test]
    fn timestamp() {
        assert!(matches!(
            ok(vars::TIMESTAMP, Value::Double(1_700_000_000.25)),
            Value::Double(d) if d == 1_700_000_000.25
        ));
        // 0 resets to "now"
        assert!(ok(vars::TIMESTAMP, Value::Int(0)).is_null());
        assert_eq!(err(vars::TIMESTAMP, Value::Double(0.5)).0, 1231);
        assert_eq!(err(vars::TIMESTAMP, Value::str("2020-01-01")).0, 1232);
    }

    #[test]
    fn strings() {
        assert_eq!(
            text(&ok(vars::INIT_CONNECT, Value::str("SET x=1"))),
            "SET x=1"
        );
        assert_eq!(text(&ok(vars::INIT_CONNECT, Value::Null)), "");
        assert_eq!(err(vars::INIT_CONNECT, Value::Int(5)).0, 1232);
        assert_eq!(
            err(vars::SESSION_TRACK_SYSTEM_VARIABLES, Value::Null),
            (
                1231,
                "42000",
                "Variable 'session_track_system_variables' can't be set to the value of 'NULL'"
                    .to_string()
            )
        );
        let long = Value::from_string("x".repeat(STR_LEN_MAX + 1));
        assert_eq!(err(vars::INIT_CONNECT, long).0, 1231);
        // invalid UTF-8 is stored lossily, never panics
        let v = ok(vars::INIT_CONNECT, Value::bytes(&[0xff, b'a']));
        assert_eq!(text(&v), "\u{fffd}a");
    }

    #[test]
    fn enums() {
        assert_eq!(
            text(&ok(
                vars::TRANSACTION_ISOLATION,
                Value::str("read-committed")
            )),
            "READ-COMMITTED"
        );
        assert_eq!(
            text(&ok(vars::TRANSACTION_ISOLATION, Value::Int(3))),
            "SERIALIZABLE"
        );
        assert_eq!(
            err(vars::TRANSACTION_ISOLATION, Value::Int(7)),
            (
                1231,
                "42000",
                "Variable 'transaction_isolation' can't be set to the value of '7'".to_string()
            )
        );
        assert_eq!(
            err(vars::TRANSACTION_ISOLATION, Value::str("read committed")).2,
            "Variable 'transaction_isolation' can't be set to the value of 'read committed'"
        );
        assert_eq!(err(vars::TRANSACTION_ISOLATION, Value::Double(1.0)).0, 1232);
        assert_eq!(text(&ok(vars::BINLOG_FORMAT, Value::Int(2))), "ROW");
        assert_eq!(text(&ok(vars::BINLOG_FORMAT, Value::str("mixed"))), "MIXED");
        assert_eq!(
            text(&ok(vars::INNODB_DEFAULT_ROW_FORMAT, Value::str("DYNAMIC"))),
            "dynamic"
        );
        assert_eq!(
            IsolationLevel::from_name("repeatable-read"),
            Some(IsolationLevel::RepeatableRead)
        );
        assert_eq!(IsolationLevel::Serializable.name(), "SERIALIZABLE");
    }

    #[test]
    fn sets() {
        assert_eq!(
            text(&ok(vars::LOG_OUTPUT, Value::str("table,file"))),
            "FILE,TABLE"
        );
        assert_eq!(
            text(&ok(vars::LOG_OUTPUT, Value::Int(7))),
            "NONE,FILE,TABLE"
        );
        assert_eq!(
            err(vars::LOG_OUTPUT, Value::str("")).2,
            "Variable 'log_output' can't be set to the value of ''"
        );
        assert_eq!(
            err(vars::LOG_OUTPUT, Value::str("FILE,DISK")).2,
            "Variable 'log_output' can't be set to the value of 'DISK'"
        );
        assert_eq!(err(vars::LOG_OUTPUT, Value::Int(8)).0, 1231);
    }

    #[test]
    fn sql_mode_values() {
        assert!(matches!(
            ok(vars::SQL_MODE, Value::str("ansi_quotes")),
            Value::UInt(4)
        ));
        assert!(matches!(
            ok(vars::SQL_MODE, Value::Int(1_168_113_696)),
            Value::UInt(1_168_113_696)
        ));
        assert!(matches!(ok(vars::SQL_MODE, Value::str("")), Value::UInt(0)));
        assert_eq!(
            err(vars::SQL_MODE, Value::Null).2,
            "Variable 'sql_mode' can't be set to the value of 'NULL'"
        );
        assert_eq!(err(vars::SQL_MODE, Value::Double(1.5)).0, 1232);
        assert_eq!(err(vars::SQL_MODE, Value::Int(-1)).0, 1231);
        assert_eq!(err(vars::SQL_MODE, Value::str("NOT_USED_29")).0, 3899);
        // binlog replay: removed modes are dropped with a warning
        let ctx = CheckCtx {
            pseudo_replica_mode: true,
            ..CheckCtx::default()
        };
        let (v, w) = chk_ctx(vars::SQL_MODE, Value::Int(0x1000_0000 | 0x20_0000), &ctx).unwrap();
        assert!(matches!(v, Value::UInt(0x20_0000)));
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn charsets_and_collations() {
        assert_eq!(
            text(&ok(vars::CHARACTER_SET_CLIENT, Value::str("UTF8MB4"))),
            "utf8mb4"
        );
        assert_eq!(
            text(&ok(vars::CHARACTER_SET_CLIENT, Value::str("utf8"))),
            "utf8mb3"
        );
        assert_eq!(
            text(&ok(vars::CHARACTER_SET_CLIENT, Value::Int(33))),
            "utf8mb3"
        );
        assert_eq!(
            text(&ok(vars::CHARACTER_SET_CLIENT, Value::Int(255))),
            "utf8mb4"
        );
        assert_eq!(
            err(vars::CHARACTER_SET_CLIENT, Value::str("nope")),
            (1115, "42000", "Unknown character set: 'nope'".to_string())
        );
        assert_eq!(
            err(vars::CHARACTER_SET_CLIENT, Value::Int(9999)).2,
            "Unknown character set: '9999'"
        );
        assert_eq!(
            err(vars::CHARACTER_SET_CLIENT, Value::Null).2,
            "Variable 'character_set_client' can't be set to the value of 'NULL'"
        );
        assert!(ok(vars::CHARACTER_SET_RESULTS, Value::Null).is_null());
        assert_eq!(
            text(&ok(
                vars::COLLATION_CONNECTION,
                Value::str("utf8_general_ci")
            )),
            "utf8mb3_general_ci"
        );
        assert_eq!(
            text(&ok(vars::COLLATION_CONNECTION, Value::Int(255))),
            "utf8mb4_0900_ai_ci"
        );
        assert_eq!(
            err(vars::COLLATION_CONNECTION, Value::str("nope")),
            (1273, "HY000", "Unknown collation: 'nope'".to_string())
        );
        assert_eq!(
            err(vars::COLLATION_CONNECTION, Value::str("xutf8_bin")).0,
            1273
        );
        assert_eq!(err(vars::COLLATION_CONNECTION, Value::Double(8.0)).0, 1232);
    }

    #[test]
    fn time_zones() {
        for (input, canonical) in [
            ("SYSTEM", "SYSTEM"),
            ("system", "SYSTEM"),
            ("UTC", "UTC"),
            ("+1:00", "+01:00"),
            ("-00:00", "+00:00"),
            ("+14:00", "+14:00"),
            ("-13:59", "-13:59"),
            ("+05:3", "+05:03"),
            ("+005:30", "+05:30"),
        ] {
            assert_eq!(
                text(&ok(vars::TIME_ZONE, Value::str(input))),
                canonical,
                "{input}"
            );
        }
        for bad in [
            "+14:01",
            "-14:00",
            "+05:60",
            "+5",
            "+05:30 ",
            " +05:30",
            "Europe/Paris",
            "",
            "+99999999999999999999:00",
            "+:",
            "+1:",
        ] {
            assert_eq!(
                err(vars::TIME_ZONE, Value::str(bad)),
                (
                    1298,
                    "HY000",
                    format!("Unknown or incorrect time zone: '{bad}'")
                ),
                "{bad}"
            );
        }
        assert_eq!(err(vars::TIME_ZONE, Value::Int(5)).0, 1232);
        assert_eq!(err(vars::TIME_ZONE, Value::Null).0, 1231);
        assert_eq!(time_zone(&Value::str("SYSTEM")), TimeZone::System);
        assert_eq!(
            time_zone(&Value::str("-05:30")),
            TimeZone::Offset { seconds: -19800 }
        );
        assert_eq!(
            time_zone(&Value::str("UTC")),
            TimeZone::Offset { seconds: 0 }
        );
    }

    #[test]
    fn locales_and_engines() {
        assert_eq!(text(&ok(vars::LC_TIME_NAMES, Value::str("fr_fr"))), "fr_FR");
        assert_eq!(text(&ok(vars::LC_TIME_NAMES, Value::Int(0))), "en_US");
        assert_eq!(text(&ok(vars::LC_TIME_NAMES, Value::Int(3))), "sv_SE");
        assert_eq!(
            err(vars::LC_TIME_NAMES, Value::str("xx_YY")),
            (1649, "HY000", "Unknown locale: 'xx_YY'".to_string())
        );
        assert_eq!(
            err(vars::LC_TIME_NAMES, Value::Int(111)).2,
            "Unknown locale: '111'"
        );
        assert_eq!(
            text(&ok(vars::DEFAULT_STORAGE_ENGINE, Value::str("myisam"))),
            "MyISAM"
        );
        assert_eq!(
            text(&ok(vars::DEFAULT_STORAGE_ENGINE, Value::str("heap"))),
            "MEMORY"
        );
        assert_eq!(
            err(vars::DEFAULT_STORAGE_ENGINE, Value::str("foo")),
            (1286, "42000", "Unknown storage engine 'foo'".to_string())
        );
        assert_eq!(err(vars::DEFAULT_STORAGE_ENGINE, Value::Int(1)).0, 1232);
        assert_eq!(err(vars::DEFAULT_STORAGE_ENGINE, Value::Null).0, 1231);
    }

    #[test]
    fn flags() {
        let flags: &[(&str, bool)] = &[("a", true), ("b", false), ("c", true)];
        assert_eq!(flags_default_bits(flags), 0b101);
        assert_eq!(flags_to_string(flags, 0b011), "a=on,b=on,c=off");
        assert_eq!(flags_bits(flags, "a=on,b=on,c=off"), 0b011);
        assert_eq!(parse_flags(flags, "b=on", 0b000, 0b101), Ok(0b010));
        assert_eq!(parse_flags(flags, "default,b=on", 0b000, 0b101), Ok(0b111));
        assert_eq!(parse_flags(flags, "c=default", 0b000, 0b101), Ok(0b100));
        assert_eq!(parse_flags(flags, "B=ON", 0b000, 0b101), Ok(0b010));
        assert_eq!(parse_flags(flags, "b=on,b=off", 0, 0), Err("b=off"));
        assert_eq!(parse_flags(flags, "default,default", 0, 0), Err("default"));
        assert_eq!(parse_flags(flags, "d=on", 0, 0), Err("d=on"));
        assert_eq!(parse_flags(flags, "a", 0, 0), Err("a"));
        assert_eq!(parse_flags(flags, "a=yes", 0, 0), Err("a=yes"));
    }

    #[test]
    fn hostile_values_never_panic() {
        let values = [
            Value::Null,
            Value::Int(i64::MIN),
            Value::Int(i64::MAX),
            Value::UInt(u64::MAX),
            Value::Double(f64::NAN),
            Value::Double(f64::INFINITY),
            Value::Double(f64::NEG_INFINITY),
            Value::Float(-0.0),
            Value::str(""),
            Value::str(","),
            Value::str("=,=,default,default"),
            Value::str("+"),
            Value::str("-:"),
            Value::str("+\u{1F600}:00"),
            Value::from_string("é".repeat(40_000)),
            Value::bytes(&[0xff, 0xfe, 0x00]),
            Value::Time(crate::sql::value::Time { micros: -1 }),
        ];
        for i in 0..crate::config::sysvars::all().count() {
            let id = VarId(i as u16);
            for v in &values {
                for ctx in [
                    CheckCtx::default(),
                    CheckCtx {
                        sql_mode: SqlMode::STRICT_ALL_TABLES,
                        pseudo_replica_mode: true,
                        ..CheckCtx::default()
                    },
                ] {
                    let mut d = Diagnostics::default();
                    if let Ok(stored) = check(id, v, &ctx, &mut d) {
                        // whatever is stored displays and selects
                        let _ = crate::config::sysvars::display(id, &stored);
                        let _ = crate::config::sysvars::select_value(id, &stored);
                    }
                }
            }
        }
    }

    #[test]
    fn double_formatting_in_messages() {
        assert_eq!(format_double(-1.0), "-1");
        assert_eq!(format_double(0.5), "0.5");
        assert_eq!(format_double(1e300), "1e300");
    }
}
