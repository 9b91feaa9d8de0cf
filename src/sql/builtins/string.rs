//! String functions (MySQL 8.0's `item_strfunc.cc` semantics).
//!
//! Positions and lengths are in characters of UTF-8 text; an invalid byte counts as one
//! character, so no input can make a slice fall inside a character. Searches that MySQL
//! does under the argument collation (`LOCATE`, `INSTR`, `FIELD`, `FIND_IN_SET`, `STRCMP`)
//! use `utf8mb4_general_ci`; those MySQL always does byte-wise (`REPLACE`,
//! `SUBSTRING_INDEX`, `TRIM`'s remove string) compare bytes.
//!
//! Quirks kept on purpose (MySQL's): `LPAD(s, n, '')` is NULL only when padding is needed;
//! `SUBSTRING(s, 0)` is `''`; `CONCAT_WS` skips NULL arguments but not empty strings;
//! `SUBSTRING_INDEX` with a negative count finds non-overlapping delimiters from the right
//! (`SUBSTRING_INDEX('aaa', 'aa', -1)` is `''` in MySQL, `'a'` in MariaDB); `LOCATE`
//! compares byte runs as long as the needle, so `'e'` finds `'E'` but not `'é'`.

use super::R;
use super::{
    Builtin, FnCtx, arg, bigint, binary_type, char_len_of, const_int, first_len, fits_packet,
    int_arg, int_display, str_arg, text_type,
};
use crate::sql::collation;
use crate::sql::convert;
use crate::sql::types::{Collation, SqlType};
use crate::sql::value::Value;
use bigdecimal::RoundingMode;
use std::cmp::Ordering;

const MANY: usize = usize::MAX;

pub(super) static FUNCS: &[Builtin] = &[
    f!("concat", 1, MANY, ret_concat, concat),
    f!("concat_ws", 2, MANY, ret_concat, concat_ws),
    f!("length", 1, 1, ret_len, length),
    f!("octet_length", 1, 1, ret_len, length),
    f!("char_length", 1, 1, ret_len, char_length),
    f!("character_length", 1, 1, ret_len, char_length),
    f!("bit_length", 1, 1, ret_len, bit_length),
    f!("upper", 1, 1, ret_same_len, upper),
    f!("ucase", 1, 1, ret_same_len, upper),
    f!("lower", 1, 1, ret_same_len, lower),
    f!("lcase", 1, 1, ret_same_len, lower),
    f!("substring", 2, 3, ret_same_len, substring),
    f!("substr", 2, 3, ret_same_len, substring),
    f!("mid", 3, 3, ret_same_len, substring),
    f!("substring_index", 3, 3, ret_same_len, substring_index),
    f!("left", 2, 2, ret_same_len, left),
    f!("right", 2, 2, ret_same_len, right),
    f!("trim", 1, 1, ret_same_len, trim),
    f!("ltrim", 1, 1, ret_same_len, ltrim),
    f!("rtrim", 1, 1, ret_same_len, rtrim),
    f!("replace", 3, 3, ret_replace, replace),
    f!("locate", 2, 3, ret_pos, locate),
    f!("position", 2, 2, ret_pos, locate),
    f!("instr", 2, 2, ret_pos, instr),
    f!("lpad", 3, 3, ret_pad, lpad),
    f!("rpad", 3, 3, ret_pad, rpad),
    f!("repeat", 2, 2, ret_repeat, repeat),
    f!("reverse", 1, 1, ret_same_len, reverse),
    f!("space", 1, 1, ret_space, space),
    f!("ascii", 1, 1, |_, _| int_display(3), ascii),
    f!("ord", 1, 1, |_, _| bigint(21), ord),
    f!(
        "char",
        1,
        MANY,
        |t, _| binary_type(4 * t.len() as u64),
        char_fn
    ),
    f!("insert", 4, 4, ret_insert, insert),
    f!("field", 2, MANY, |_, _| bigint(3), field),
    f!("find_in_set", 2, 2, |_, _| bigint(3), find_in_set),
    f!("elt", 2, MANY, ret_elt, elt),
    f!("strcmp", 2, 2, |_, _| int_display(2), strcmp),
    f!("quote", 1, 1, |t, _| text_type(first_len(t) * 2 + 2), quote),
    f!("format", 2, 3, ret_format, format),
];

// ---------------------------------------------------------------------------------------
// Characters.

/// Length in bytes of the character starting at `i` (1 for an invalid byte, 0 past the end).
fn char_width(s: &[u8], i: usize) -> usize {
    let Some(&b) = s.get(i) else {
        return 0;
    };
    let n = match b {
        0x00..=0x7F => return 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return 1,
    };
    match s.get(i..i + n) {
        Some(seq) if std::str::from_utf8(seq).is_ok() => n,
        _ => 1,
    }
}

/// Byte offsets of every character start, plus the end (`len + 1` entries).
fn boundaries(s: &[u8]) -> Vec<usize> {
    let mut out = Vec::with_capacity(s.len() + 1);
    let mut i = 0;
    while i < s.len() {
        out.push(i);
        i += char_width(s, i);
    }
    out.push(s.len());
    out
}

/// Byte offset of character `n` (clamped to the end).
fn char_offset(s: &[u8], n: usize) -> usize {
    if s.is_ascii() {
        return n.min(s.len());
    }
    let mut i = 0;
    for _ in 0..n {
        if i >= s.len() {
            break;
        }
        i += char_width(s, i);
    }
    i
}

fn bytes_value(b: &[u8]) -> Value {
    Value::bytes(b)
}

fn empty() -> Value {
    Value::bytes(b"")
}

/// Finds `needle` in `hay` under `coll`, from character `from`; returns the 0-based
/// character position. As MySQL's `my_instr_mb`, each candidate is the run of *bytes* as
/// long as the needle starting at a character boundary, compared without PAD SPACE, so
/// `'e'` matches `'E'` but not `'é'` (a different byte length), and under unicode_ci `'ss'`
/// matches `'ß'` (two bytes, the same weights).
fn find_ci(hay: &[u8], needle: &[u8], from: usize, coll: Collation) -> Option<usize> {
    if coll.is_binary() || coll.name().ends_with("_bin") {
        // Exact: the byte offset found, as a character position.
        let hb = boundaries(hay);
        let start = *hb.get(from)?;
        let at = find_bytes(hay, needle, start)?;
        return hb.iter().position(|&b| b == at);
    }
    // ASCII case folding is the collation, except for unicode_ci's ignorable controls.
    let ignorable = |s: &[u8]| {
        s.iter()
            .any(|&b| b < b'\t' || (0x0E..0x20).contains(&b) || b == 0x7F)
    };
    if hay.is_ascii()
        && needle.is_ascii()
        && !(coll == Collation::Utf8mb4UnicodeCi && (ignorable(hay) || ignorable(needle)))
    {
        let h = hay.to_ascii_lowercase();
        let n = needle.to_ascii_lowercase();
        if n.is_empty() {
            return (from <= h.len()).then_some(from);
        }
        return h
            .get(from..)?
            .windows(n.len())
            .position(|w| w == n.as_slice())
            .map(|p| p + from);
    }
    let hb = boundaries(hay);
    let chars = hb.len() - 1;
    if needle.is_empty() {
        return (from <= chars).then_some(from);
    }
    // MySQL compares windows of the needle's byte length without PAD SPACE: 'o ' is not
    // 'ö' (same weight, but one character more).
    (from..chars).find(|&i| {
        hay.get(hb[i]..hb[i] + needle.len())
            .is_some_and(|w| collation::cmp_no_pad(w, needle, coll) == Ordering::Equal)
    })
}

/// Byte-wise search (`REPLACE`, `SUBSTRING_INDEX`).
fn find_bytes(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() {
        return Some(from);
    }
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

// ---------------------------------------------------------------------------------------
// Result types.

fn sum_len(types: &[SqlType]) -> u64 {
    types
        .iter()
        .map(char_len_of)
        .fold(0u64, u64::saturating_add)
}

fn ret_concat(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    let binary = types
        .iter()
        .any(|t| t.is_string() && t.collation().is_binary());
    if binary {
        binary_type(sum_len(types))
    } else {
        text_type(sum_len(types))
    }
}

fn ret_len(_: &[SqlType], _: &[Option<Value>]) -> SqlType {
    bigint(10)
}

fn ret_same_len(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    text_type(first_len(types))
}

fn ret_pos(_: &[SqlType], _: &[Option<Value>]) -> SqlType {
    bigint(11)
}

fn ret_replace(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    let to = types.get(2).map(char_len_of).unwrap_or(0).max(1);
    text_type(first_len(types).saturating_mul(to))
}

fn ret_pad(_: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    match const_int(consts, 1) {
        Some(n) if n >= 0 => text_type(n as u64),
        _ => text_type(u32::MAX as u64),
    }
}

fn ret_repeat(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    match const_int(consts, 1) {
        Some(n) => text_type(first_len(types).saturating_mul(n.max(0) as u64)),
        None => text_type(u32::MAX as u64),
    }
}

fn ret_space(_: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    match const_int(consts, 0) {
        Some(n) => text_type(n.max(0) as u64),
        None => text_type(u32::MAX as u64),
    }
}

fn ret_insert(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    text_type(first_len(types).saturating_add(types.get(3).map(char_len_of).unwrap_or(0)))
}

fn ret_elt(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    text_type(types.iter().skip(1).map(char_len_of).max().unwrap_or(0))
}

fn ret_format(types: &[SqlType], consts: &[Option<Value>]) -> SqlType {
    let digits = first_len(types).min(400);
    let dec = const_int(consts, 1).unwrap_or(30).clamp(0, 30) as u64;
    text_type(digits + digits / 3 + dec + 2)
}

// ---------------------------------------------------------------------------------------
// Concatenation, length, case.

fn concat(args: &[Value], ctx: &mut FnCtx) -> R {
    let mut out = Vec::new();
    for v in args {
        if v.is_null() {
            return Ok(Value::Null);
        }
        let b = convert::to_bytes(v);
        if !fits_packet(out.len().saturating_add(b.len()), "concat", ctx) {
            return Ok(Value::Null);
        }
        out.extend_from_slice(&b);
    }
    Ok(Value::from_vec(out))
}

fn concat_ws(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(sep) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let mut out = Vec::new();
    let mut first = true;
    for v in args.iter().skip(1).filter(|v| !v.is_null()) {
        let b = convert::to_bytes(v);
        let sep_len = if first { 0 } else { sep.len() };
        if !fits_packet(out.len() + sep_len + b.len(), "concat_ws", ctx) {
            return Ok(Value::Null);
        }
        if !first {
            out.extend_from_slice(&sep);
        }
        first = false;
        out.extend_from_slice(&b);
    }
    Ok(Value::from_vec(out))
}

fn length(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| Value::Int(s.len() as i64)))
}

fn char_length(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| Value::Int(collation::char_len(&s) as i64)))
}

fn bit_length(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| Value::Int(s.len() as i64 * 8)))
}

fn upper(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| Value::from_vec(collation::upper(&s))))
}

fn lower(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| Value::from_vec(collation::lower(&s))))
}

// ---------------------------------------------------------------------------------------
// Substrings.

fn substring(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let Some(pos) = int_arg(args, 1, ctx) else {
        return Ok(Value::Null);
    };
    let len = if args.len() > 2 {
        match int_arg(args, 2, ctx) {
            Some(l) if l <= 0 => return Ok(empty()),
            Some(l) => l.min(i32::MAX as i64),
            None => return Ok(Value::Null),
        }
    } else {
        i32::MAX as i64
    };
    // MySQL: positions outside the 32-bit range give the empty string.
    if !(i32::MIN as i64..=i32::MAX as i64).contains(&pos) {
        return Ok(empty());
    }
    let b = boundaries(&s);
    let n = (b.len() - 1) as i64;
    let start = match pos {
        0 => return Ok(empty()),
        p if p > 0 => p - 1,
        p => n + p,
    };
    if start < 0 || start >= n {
        return Ok(empty());
    }
    let end = start.saturating_add(len).min(n);
    Ok(bytes_value(&s[b[start as usize]..b[end as usize]]))
}

fn substring_index(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(s), Some(delim)) = (str_arg(args, 0), str_arg(args, 1)) else {
        return Ok(Value::Null);
    };
    let Some(count) = int_arg(args, 2, ctx) else {
        return Ok(Value::Null);
    };
    if count == 0 || delim.is_empty() {
        return Ok(empty());
    }
    if count > 0 {
        let mut offset = 0;
        let mut left = count;
        loop {
            let Some(at) = find_bytes(&s, &delim, offset) else {
                return Ok(bytes_value(&s));
            };
            left -= 1;
            if left == 0 {
                return Ok(bytes_value(&s[..at]));
            }
            offset = at + delim.len();
        }
    }
    // From the right: each match must end at or before the start of the previous one.
    let mut end = s.len();
    let mut left = count;
    loop {
        let Some(at) = rfind_bytes(&s[..end], &delim) else {
            return Ok(bytes_value(&s));
        };
        left += 1;
        if left == 0 {
            return Ok(bytes_value(&s[at + delim.len()..]));
        }
        end = at;
    }
}

fn rfind_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn left(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(s), Some(n)) = (str_arg(args, 0), int_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    let n = if matches!(arg(args, 1), Value::UInt(_)) {
        usize::MAX
    } else {
        n.max(0) as usize
    };
    Ok(bytes_value(&s[..char_offset(&s, n)]))
}

fn right(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(s), Some(n)) = (str_arg(args, 0), int_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    if n <= 0 && !matches!(arg(args, 1), Value::UInt(_)) {
        return Ok(empty());
    }
    let b = boundaries(&s);
    let chars = b.len() - 1;
    let take = (n.max(0) as u64).min(chars as u64) as usize;
    Ok(bytes_value(&s[b[chars - take]..]))
}

/// Which ends `TRIM(… FROM s)` removes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrimMode {
    Both,
    Leading,
    Trailing,
}

/// `TRIM([BOTH|LEADING|TRAILING] remstr FROM s)`: removes every repetition of `remstr`
/// (compared byte-wise, as MySQL does) from the chosen ends. NULL in gives NULL; an empty
/// `remstr` leaves `s` unchanged.
pub fn trim_with(s: &Value, remstr: &Value, mode: TrimMode) -> Value {
    if s.is_null() || remstr.is_null() {
        return Value::Null;
    }
    let s = convert::to_bytes(s);
    let r = convert::to_bytes(remstr);
    bytes_value(trim_bytes(&s, &r, mode))
}

fn trim_bytes<'a>(s: &'a [u8], r: &[u8], mode: TrimMode) -> &'a [u8] {
    if r.is_empty() {
        return s;
    }
    let mut out = s;
    if mode != TrimMode::Trailing {
        while let Some(rest) = out.strip_prefix(r) {
            out = rest;
        }
    }
    if mode != TrimMode::Leading {
        while let Some(rest) = out.strip_suffix(r) {
            out = rest;
        }
    }
    out
}

fn trim_spaces(args: &[Value], mode: TrimMode) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| bytes_value(trim_bytes(&s, b" ", mode))))
}

fn trim(args: &[Value], _: &mut FnCtx) -> R {
    trim_spaces(args, TrimMode::Both)
}

fn ltrim(args: &[Value], _: &mut FnCtx) -> R {
    trim_spaces(args, TrimMode::Leading)
}

fn rtrim(args: &[Value], _: &mut FnCtx) -> R {
    trim_spaces(args, TrimMode::Trailing)
}

fn replace(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(s), Some(from), Some(to)) = (str_arg(args, 0), str_arg(args, 1), str_arg(args, 2))
    else {
        return Ok(Value::Null);
    };
    if from.is_empty() {
        return Ok(bytes_value(&s));
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while let Some(at) = find_bytes(&s, &from, i) {
        out.extend_from_slice(&s[i..at]);
        if !fits_packet(out.len() + to.len(), "replace", ctx) {
            return Ok(Value::Null);
        }
        out.extend_from_slice(&to);
        i = at + from.len();
    }
    out.extend_from_slice(&s[i..]);
    Ok(Value::from_vec(out))
}

// ---------------------------------------------------------------------------------------
// Searching.

fn locate_impl(needle: &[u8], hay: &[u8], start: Option<i64>, coll: Collation) -> Value {
    let from = match start {
        None => 0,
        Some(p) => {
            let chars = collation::char_len(hay) as i64;
            match p.checked_sub(1) {
                Some(s) if (0..=chars).contains(&s) => s as usize,
                _ => return Value::Int(0),
            }
        }
    };
    Value::Int(find_ci(hay, needle, from, coll).map_or(0, |p| p as i64 + 1))
}

fn locate(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(needle), Some(hay)) = (str_arg(args, 0), str_arg(args, 1)) else {
        return Ok(Value::Null);
    };
    let start = if args.len() > 2 {
        match int_arg(args, 2, ctx) {
            Some(p) => Some(p),
            None => return Ok(Value::Null),
        }
    } else {
        None
    };
    Ok(locate_impl(&needle, &hay, start, ctx.coll))
}

fn instr(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(hay), Some(needle)) = (str_arg(args, 0), str_arg(args, 1)) else {
        return Ok(Value::Null);
    };
    Ok(locate_impl(&needle, &hay, None, ctx.coll))
}

fn field(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(first) = args.first() else {
        return Ok(Value::Int(0));
    };
    if first.is_null() {
        return Ok(Value::Int(0));
    }
    let all_strings = args.iter().all(|v| {
        matches!(
            v,
            Value::Null | Value::Bytes(_) | Value::Date(_) | Value::DateTime(_) | Value::Time(_)
        )
    });
    let all_ints = args
        .iter()
        .all(|v| matches!(v, Value::Null | Value::Int(_) | Value::UInt(_)));
    for (i, v) in args.iter().enumerate().skip(1) {
        if v.is_null() {
            continue;
        }
        let equal = if all_strings {
            collation::eq(&convert::to_bytes(first), &convert::to_bytes(v), ctx.coll)
        } else if all_ints {
            crate::sql::compare::compare(first, v, Collation::DEFAULT) == Some(Ordering::Equal)
        } else {
            let a = convert::to_f64(first, ctx.diag);
            let b = convert::to_f64(v, ctx.diag);
            a.is_some() && a == b
        };
        if equal {
            return Ok(Value::Int(i as i64));
        }
    }
    Ok(Value::Int(0))
}

fn find_in_set(args: &[Value], _: &mut FnCtx) -> R {
    let (Some(needle), Some(list)) = (str_arg(args, 0), str_arg(args, 1)) else {
        return Ok(Value::Null);
    };
    if list.is_empty() || needle.contains(&b',') {
        return Ok(Value::Int(0));
    }
    // Elements compare without PAD SPACE (MySQL uses `strnncoll`, not `strnncollsp`).
    let pos = list
        .split(|&b| b == b',')
        .position(|item| collation::eq(item, &needle, Collation::Utf8mb4_0900AiCi));
    Ok(Value::Int(pos.map_or(0, |p| p as i64 + 1)))
}

fn elt(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(n) = int_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    if n < 1 || n as u64 >= args.len() as u64 {
        return Ok(Value::Null);
    }
    Ok(str_arg(args, n as usize).map_or(Value::Null, |s| bytes_value(&s)))
}

fn strcmp(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(a), Some(b)) = (str_arg(args, 0), str_arg(args, 1)) else {
        return Ok(Value::Null);
    };
    Ok(Value::Int(match collation::cmp(&a, &b, ctx.coll) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }))
}

// ---------------------------------------------------------------------------------------
// Padding and building.

fn pad(args: &[Value], ctx: &mut FnCtx, left: bool) -> R {
    let name = if left { "lpad" } else { "rpad" };
    let (Some(s), Some(n), Some(p)) = (str_arg(args, 0), int_arg(args, 1, ctx), str_arg(args, 2))
    else {
        return Ok(Value::Null);
    };
    let n = if matches!(arg(args, 1), Value::UInt(_)) {
        i32::MAX as i64
    } else if n < 0 {
        return Ok(Value::Null);
    } else {
        n.min(i32::MAX as i64)
    } as usize;
    let have = collation::char_len(&s);
    if n <= have {
        return Ok(bytes_value(&s[..char_offset(&s, n)]));
    }
    // MySQL checks the worst case: n characters of up to four bytes.
    if !fits_packet(n.saturating_mul(4), name, ctx) {
        return Ok(Value::Null);
    }
    let pb = boundaries(&p);
    let pad_chars = pb.len() - 1;
    if pad_chars == 0 {
        return Ok(Value::Null);
    }
    let need = n - have;
    let mut fill = Vec::with_capacity(need.min(MAX_FILL_RESERVE));
    for k in 0..need {
        let c = k % pad_chars;
        fill.extend_from_slice(&p[pb[c]..pb[c + 1]]);
    }
    let mut out = Vec::with_capacity(s.len() + fill.len());
    if left {
        out.extend_from_slice(&fill);
        out.extend_from_slice(&s);
    } else {
        out.extend_from_slice(&s);
        out.extend_from_slice(&fill);
    }
    Ok(Value::from_vec(out))
}

/// Don't reserve more than this up front for a padding string (it grows as needed).
const MAX_FILL_RESERVE: usize = 1 << 20;

fn lpad(args: &[Value], ctx: &mut FnCtx) -> R {
    pad(args, ctx, true)
}

fn rpad(args: &[Value], ctx: &mut FnCtx) -> R {
    pad(args, ctx, false)
}

fn repeat(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(s), Some(n)) = (str_arg(args, 0), int_arg(args, 1, ctx)) else {
        return Ok(Value::Null);
    };
    let n = if matches!(arg(args, 1), Value::UInt(u) if *u > i64::MAX as u64) {
        u64::MAX
    } else if n <= 0 {
        return Ok(empty());
    } else {
        n as u64
    };
    if s.is_empty() {
        return Ok(empty());
    }
    let total = (s.len() as u64).saturating_mul(n);
    if !fits_packet(usize::try_from(total).unwrap_or(usize::MAX), "repeat", ctx) {
        return Ok(Value::Null);
    }
    Ok(Value::from_vec(s.repeat(n as usize)))
}

fn reverse(args: &[Value], _: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let b = boundaries(&s);
    let mut out = Vec::with_capacity(s.len());
    for w in b.windows(2).rev() {
        out.extend_from_slice(&s[w[0]..w[1]]);
    }
    Ok(Value::from_vec(out))
}

fn space(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(n) = int_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    if n <= 0 {
        return Ok(empty());
    }
    if !fits_packet(usize::try_from(n).unwrap_or(usize::MAX), "space", ctx) {
        return Ok(Value::Null);
    }
    Ok(Value::from_vec(vec![b' '; n as usize]))
}

fn insert(args: &[Value], ctx: &mut FnCtx) -> R {
    let (Some(s), Some(pos), Some(len), Some(new)) = (
        str_arg(args, 0),
        int_arg(args, 1, ctx),
        int_arg(args, 2, ctx),
        str_arg(args, 3),
    ) else {
        return Ok(Value::Null);
    };
    let b = boundaries(&s);
    let chars = (b.len() - 1) as i64;
    if pos < 1 || pos > chars {
        return Ok(bytes_value(&s));
    }
    let start = pos - 1;
    let len = if len < 0 || len > chars - start {
        chars - start
    } else {
        len
    };
    let (from, to) = (b[start as usize], b[(start + len) as usize]);
    if !fits_packet(s.len() - (to - from) + new.len(), "insert", ctx) {
        return Ok(Value::Null);
    }
    let mut out = Vec::with_capacity(s.len() + new.len());
    out.extend_from_slice(&s[..from]);
    out.extend_from_slice(&new);
    out.extend_from_slice(&s[to..]);
    Ok(Value::from_vec(out))
}

fn quote(args: &[Value], _: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::str("NULL"));
    };
    let mut out = Vec::with_capacity(s.len() + 2);
    crate::sql::value::push_quoted(&s, &mut out);
    Ok(Value::from_vec(out))
}

// ---------------------------------------------------------------------------------------
// Single characters and codes.

fn ascii(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| {
        Value::Int(s.first().copied().unwrap_or(0) as i64)
    }))
}

fn ord(args: &[Value], _: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let w = char_width(&s, 0);
    let code = s[..w].iter().fold(0i64, |acc, &b| (acc << 8) | b as i64);
    Ok(Value::Int(code))
}

fn char_fn(args: &[Value], ctx: &mut FnCtx) -> R {
    let mut out = Vec::with_capacity(args.len());
    for v in args {
        let Some(n) = convert::to_i64(v, ctx.diag) else {
            continue;
        };
        // MySQL keeps the low 32 bits and drops leading zero bytes.
        let be = (n as u32).to_be_bytes();
        let skip = be.iter().take(3).take_while(|&&b| b == 0).count();
        out.extend_from_slice(&be[skip..]);
    }
    Ok(Value::from_vec(out))
}

// ---------------------------------------------------------------------------------------
// FORMAT(x, d): en_US grouping.

/// Maximum decimals `FORMAT` prints (MySQL's limit).
const FORMAT_MAX_DECIMALS: i64 = 30;

fn format(args: &[Value], ctx: &mut FnCtx) -> R {
    let v = arg(args, 0);
    if v.is_null() {
        return Ok(Value::Null);
    }
    let Some(dec) = int_arg(args, 1, ctx) else {
        return Ok(Value::Null);
    };
    let dec = dec.clamp(0, FORMAT_MAX_DECIMALS) as usize;
    // The third argument (locale) is accepted; only en_US is implemented.
    let plain = match v {
        Value::Int(_) | Value::UInt(_) | Value::Decimal(_) => {
            let d = convert::to_decimal(v, ctx.diag).unwrap_or_default();
            let r = d.with_scale_round(dec as i64, RoundingMode::HalfUp);
            let mut out = Vec::new();
            convert::write_decimal(&r, Some(dec as u8), &mut out);
            String::from_utf8_lossy(&out).into_owned()
        }
        _ => {
            let x = convert::to_f64(v, ctx.diag).unwrap_or(0.0);
            let r = super::numeric::round_f64(x, dec as i64, false);
            format!("{r:.dec$}")
        }
    };
    Ok(Value::from_string(group_thousands(&plain)))
}

/// `-1234567.5` → `-1,234,567.5`.
fn group_thousands(plain: &str) -> String {
    let (sign, body) = match plain.strip_prefix('-') {
        Some(b) => ("-", b),
        None => ("", plain),
    };
    let (int, frac) = match body.find('.') {
        Some(p) => body.split_at(p),
        None => (body, ""),
    };
    let mut out = String::with_capacity(plain.len() + int.len() / 3);
    out.push_str(sign);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out.push_str(frac);
    out
}
