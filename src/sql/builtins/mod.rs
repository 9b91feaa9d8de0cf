//! Built-in scalar functions of MySQL 8.0: a table of [`Builtin`]s, looked up by name.
//!
//! This is a *library*: a function gets its already-evaluated argument values and a small
//! [`FnCtx`] (the statement's clock, the session time zone offset, a diagnostics area) and
//! returns a [`Value`]. It never reads the session, the catalog or the executor, and it never
//! sleeps or blocks (`SLEEP()` belongs to the executor; so do the lazy control-flow functions
//! `IF`, `IFNULL`, `COALESCE`, `NULLIF`, which must not evaluate every argument).
//!
//! ## How a call is made
//!
//! 1. Bind time: [`lookup`] the name (case-insensitive), check the argument count with
//!    [`Builtin::check_arity`] (MySQL's error 1582), and compute the result type with
//!    [`Builtin::ret`] from the argument types *and the values of constant arguments*
//!    (`NOW(3)` is `DATETIME(3)`, `ROUND(x, 2)` on a DECIMAL has scale 2,
//!    `DATE_ADD(d, INTERVAL 1 HOUR)` on a DATE is a DATETIME: MySQL fixes these at prepare
//!    time from constants, and so must we).
//! 2. Run time: [`Builtin::eval`] with the argument values. NULL in gives NULL out unless
//!    MySQL says otherwise (`CONCAT_WS` skips NULLs, `ISNULL`, `QUOTE(NULL)` is `'NULL'`…).
//!
//! Syntax that is not a plain call is mapped by the caller onto ordinary arguments:
//!
//! | SQL | call |
//! |---|---|
//! | `DATE_ADD(d, INTERVAL n unit)`, `d + INTERVAL n unit` | `date_add(d, n, unit_code)` |
//! | `DATE_SUB(d, INTERVAL n unit)`, `d - INTERVAL n unit` | `date_sub(d, n, unit_code)` |
//! | `ADDDATE(d, n)` / `SUBDATE(d, n)` | `adddate(d, n)` (n days) |
//! | `EXTRACT(unit FROM d)` | `extract(unit_code, d)` |
//! | `TIMESTAMPDIFF(unit, a, b)`, `TIMESTAMPADD(unit, n, d)` | unit as `unit_code` |
//! | `GET_FORMAT(DATE, 'EUR')` | `get_format('DATE', 'EUR')` |
//! | `POSITION(a IN b)` | `position(a, b)` |
//! | `TRIM([BOTH|LEADING|TRAILING] r FROM s)` | [`trim_with`] |
//! | `CHAR(… USING cs)` | `char(…)` (the charset is not kept) |
//!
//! where `unit_code` is [`interval_unit_code`] of the `temporal::IntervalUnit`.
//!
//! ## Values and types
//!
//! Results use the natural representation: `Value::Date` for DATE results,
//! `Value::DateTime`, `Value::Time`, `Value::Decimal` for exact numbers, `Value::Double` for
//! approximate ones, `Value::Int`/`UInt` for integers, `Value::Bytes` for strings. Functions
//! whose MySQL result type is a *string holding a temporal* (`DATE_ADD('2020-01-01', …)`,
//! `ADDTIME` on strings) return `Value::Date`/`DateTime`/`Time` with a VARCHAR result type;
//! `convert::to_text` prints those as MySQL does (a date, or a datetime with six fractional
//! digits only when they are non-zero).
//!
//! Character functions count UTF-8 characters (an invalid byte is one character) and compare
//! under `utf8mb4_general_ci`, Quire's default collation. Values do not say whether a string
//! is binary, so the functions MySQL makes byte-wise on binary strings (`SUBSTRING`,
//! `UPPER`, `LOCATE`… on a VARBINARY) treat every string as text.
//!
//! Where MySQL 8.0 and MariaDB 10.11 differ, MySQL wins; each such place says so in a
//! comment, and `examples/crosscheck.rs` lists the differences it meets.
//!
//! ## Limits
//!
//! Every string a function builds is bounded by [`MAX_ALLOWED_PACKET`] (64 MiB): larger
//! results are NULL with warning 1301, as MySQL does for `max_allowed_packet`. Every loop is
//! bounded by its input or by that limit. No function panics on any input (a property test
//! sweeps every function with hostile arguments).
//!
//! Parts: `string.rs` (string functions), `numeric.rs` (math), `time.rs` (dates and times),
//! `interval.rs` (interval arithmetic, `EXTRACT`, differences), `timefmt.rs` (`DATE_FORMAT`,
//! `STR_TO_DATE`), `misc.rs` (encodings, hashes, UUIDs, INET, JSON).

use super::convert;
use super::types::{BlobSize, Collation, IntWidth, SqlType};
use super::value::{DateTime, Value};
use crate::error::{Diagnostics, MyError, code};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The result of a function's evaluation.
type R = Result<Value, MyError>;

/// A deterministic [`Builtin`] table entry: `f!(name, min_args, max_args, ret, eval)`.
macro_rules! f {
    ($name:literal, $min:expr, $max:expr, $ret:expr, $eval:expr) => {
        Builtin {
            name: $name,
            min_args: $min,
            max_args: $max,
            ret: $ret,
            eval: $eval,
            deterministic: true,
        }
    };
}

mod interval;
pub(crate) mod misc;
mod numeric;
mod string;
mod time;
mod timefmt;

#[cfg(test)]
mod tests;

pub use interval::{interval_unit_code, unit_from_code};
pub use numeric::MyRnd;
pub use string::{TrimMode, trim_with};

/// Upper bound on any string a function builds (MySQL's `max_allowed_packet` check).
pub const MAX_ALLOWED_PACKET: usize = 64 << 20;

/// What a function may know about the statement and session.
pub struct FnCtx<'a> {
    /// Statement start in the session time zone (`NOW()`, `CURDATE()`…; constant within a
    /// statement).
    pub now_local: DateTime,
    /// Statement start, UTC epoch microseconds (`UNIX_TIMESTAMP()`).
    pub now_unix_micros: i64,
    /// Session time zone offset from UTC in seconds (`FROM_UNIXTIME`, `UNIX_TIMESTAMP(dt)`).
    pub tz_offset_s: i32,
    /// `@@div_precision_increment` (4 by default).
    pub div_precision_increment: u32,
    /// Warnings (MySQL's, e.g. 1292 for bad dates).
    pub diag: &'a mut Diagnostics,
    /// The collation string comparisons inside the call use (its string arguments'
    /// aggregate: `STRCMP`, `LOCATE`, `FIELD`, …).
    pub coll: crate::sql::types::Collation,
}

/// Evaluates a call: argument values in, value out.
pub type EvalFn = fn(&[Value], &mut FnCtx) -> Result<Value, MyError>;

/// Result type of a call from the argument types and, for arguments that are constants
/// (literals, folded expressions), their values (`None` when not constant; the slice may be
/// shorter than the types).
pub type RetFn = fn(&[SqlType], &[Option<Value>]) -> SqlType;

/// One built-in function.
pub struct Builtin {
    /// Lower-case SQL name.
    pub name: &'static str,
    pub min_args: usize,
    /// `usize::MAX` for variadic functions.
    pub max_args: usize,
    pub ret: RetFn,
    pub eval: EvalFn,
    /// Same arguments give the same result throughout a statement (false for `RAND()`,
    /// `UUID()`, `SYSDATE()`…).
    pub deterministic: bool,
}

impl Builtin {
    /// MySQL's error 1582 when the argument count is wrong.
    pub fn check_arity(&self, n: usize) -> Result<(), MyError> {
        if n < self.min_args || n > self.max_args {
            return Err(MyError::new(
                code::ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT,
                format!(
                    "Incorrect parameter count in the call to native function '{}'",
                    self.name
                ),
            ));
        }
        Ok(())
    }

    /// The result type (see [`RetFn`]).
    pub fn result_type(&self, types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
        (self.ret)(types, consts)
    }
}

fn registry() -> &'static HashMap<&'static str, &'static Builtin> {
    static REGISTRY: OnceLock<HashMap<&'static str, &'static Builtin>> = OnceLock::new();
    REGISTRY.get_or_init(|| all().map(|b| (b.name, b)).collect())
}

/// Every built-in function.
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    string::FUNCS
        .iter()
        .chain(numeric::FUNCS)
        .chain(time::FUNCS)
        .chain(interval::FUNCS)
        .chain(timefmt::FUNCS)
        .chain(misc::FUNCS)
}

/// One of the string functions (whose arguments are read as text).
pub fn is_string_function(b: &Builtin) -> bool {
    string::FUNCS.iter().any(|f| std::ptr::eq(f, b))
}

/// The function called `name` (case-insensitive), if there is one.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    // No built-in name is longer than 32 bytes; don't lower-case a long identifier.
    if name.len() > 32 {
        return None;
    }
    registry().get(name.to_ascii_lowercase().as_str()).copied()
}

/// How many fractional digits MySQL prints for a DOUBLE result, when it is fixed rather than
/// "as many as needed": `PI()` prints `3.141593`, `ROUND(1.5e0, 2)` prints `1.50`.
/// `SqlType::Double` cannot carry this yet; the caller can apply it when printing.
pub fn double_display_decimals(
    name: &str,
    types: &[SqlType],
    consts: &[Option<Value>],
) -> Option<u8> {
    match name.to_ascii_lowercase().as_str() {
        "pi" => Some(6),
        "round" | "truncate" => {
            if !matches!(
                types.first(),
                Some(SqlType::Double { .. } | SqlType::Float { .. })
            ) && !types.first().is_some_and(SqlType::is_string)
            {
                return None;
            }
            match const_int(consts, 1) {
                Some(d) => Some(d.clamp(0, 30) as u8),
                None if types.len() < 2 => Some(0),
                None => None,
            }
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// Argument access shared by the function families.

static NULL: Value = Value::Null;

/// Argument `i` (NULL when absent: arity is checked at bind time, not trusted here).
fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&NULL)
}

/// Argument `i` as a string (`None` for NULL); numbers and temporals print as MySQL prints
/// them.
fn str_arg(args: &[Value], i: usize) -> Option<Cow<'_, [u8]>> {
    match arg(args, i) {
        Value::Null => None,
        v => Some(convert::to_bytes(v)),
    }
}

/// Argument `i` as an integer (MySQL's `val_int`, with its 1292 warnings).
fn int_arg(args: &[Value], i: usize, ctx: &mut FnCtx) -> Option<i64> {
    convert::to_i64(arg(args, i), ctx.diag)
}

/// Argument `i` as a double (MySQL's `val_real`).
fn f64_arg(args: &[Value], i: usize, ctx: &mut FnCtx) -> Option<f64> {
    convert::to_f64(arg(args, i), ctx.diag)
}

fn any_null(args: &[Value]) -> bool {
    args.iter().any(Value::is_null)
}

/// The value of constant argument `i` as an integer, without warnings.
fn const_int(consts: &[Option<Value>], i: usize) -> Option<i64> {
    let v = consts.get(i)?.as_ref()?;
    let mut scratch = Diagnostics::default();
    convert::to_i64(v, &mut scratch)
}

/// Whether a string of `len_bytes` may be built; if not, pushes MySQL's warning 1301.
fn fits_packet(len_bytes: usize, func: &str, ctx: &mut FnCtx) -> bool {
    if len_bytes <= MAX_ALLOWED_PACKET {
        return true;
    }
    ctx.diag.warn(
        code::ER_WARN_ALLOWED_PACKET_OVERFLOWED,
        format!(
            "Result of {func}() was larger than max_allowed_packet ({MAX_ALLOWED_PACKET}) - truncated"
        ),
    );
    false
}

// ---------------------------------------------------------------------------------------
// Result types shared by the function families.

fn bigint(display: u32) -> SqlType {
    SqlType::Int {
        width: IntWidth::Big,
        unsigned: false,
        zerofill: false,
        display: Some(display),
    }
}

fn int_display(display: u32) -> SqlType {
    SqlType::Int {
        width: IntWidth::Int,
        unsigned: false,
        zerofill: false,
        display: Some(display),
    }
}

/// A character string result of at most `chars` characters: VARCHAR while it fits in a
/// row, else the TEXT size MySQL would pick.
fn text_type(chars: u64) -> SqlType {
    let bytes = chars.saturating_mul(4);
    let collation = Collation::DEFAULT;
    if bytes <= 65_535 {
        SqlType::VarChar {
            len: chars as u32,
            collation,
        }
    } else {
        SqlType::Text {
            size: blob_size(bytes),
            collation,
        }
    }
}

/// A binary string result of at most `bytes` bytes.
fn binary_type(bytes: u64) -> SqlType {
    if bytes <= 65_535 {
        SqlType::VarBinary { len: bytes as u32 }
    } else {
        SqlType::Blob {
            size: blob_size(bytes),
        }
    }
}

fn blob_size(bytes: u64) -> BlobSize {
    if bytes <= 65_535 {
        BlobSize::Normal
    } else if bytes <= 16_777_215 {
        BlobSize::Medium
    } else {
        BlobSize::Long
    }
}

/// The maximum length in characters of the first argument printed as a string.
pub(super) fn first_len(types: &[SqlType]) -> u64 {
    types.first().map(char_len_of).unwrap_or(0)
}

/// The maximum length in characters of a value of type `t` printed as a string.
fn char_len_of(t: &SqlType) -> u64 {
    t.char_len() as u64
}

fn ret_double(_: &[SqlType], _: &[Option<Value>]) -> SqlType {
    SqlType::DOUBLE
}
