//! Encodings, hashes, UUIDs, IPv4 addresses, JSON helpers and `ISNULL`.
//!
//! - `HEX` of a number prints its 64-bit two's complement (`HEX(-1)` is sixteen `F`s; a
//!   DOUBLE or DECIMAL is rounded first), of anything else its bytes; `UNHEX` reads an odd
//!   length with an implicit leading zero and is NULL on a non-hex digit.
//! - `TO_BASE64` breaks lines every 76 characters (MySQL's mysys base64); `FROM_BASE64`
//!   skips white space anywhere and is NULL on anything else that is not base64.
//! - `CONV` reads its number as a string in the source base (`CONV(-1, 10, 2)` is 64
//!   ones; a negative source base reads it signed) and prints upper-case digits (a negative
//!   target base prints signed); `BIN(n)` and `OCT(n)` are `CONV(n, 10, 2|8)`, as in MySQL.
//! - `MD5`, `SHA1`/`SHA`, `SHA2(s, bits)` print lower-case hex; `SHA2` with a length other
//!   than 0 (= 256), 224, 256, 384, 512 is NULL with warning 1583, as in MySQL.
//! - `UUID()` is a version-1 UUID as MySQL makes it: a 60-bit count of 100 ns since
//!   1582-10-15 (strictly increasing within the process), a random clock sequence with the
//!   RFC 4122 variant, and a random node id with the multicast bit set (MySQL uses a MAC
//!   address when it finds one). `UUID_SHORT()` is MySQL's
//!   `(server_id << 56) + (start_time << 24) + counter` with server id 0.
//! - `UUID_TO_BIN`/`BIN_TO_UUID` take MySQL's three text forms (32 hex digits, 8-4-4-4-12,
//!   the latter in braces) and the optional swap flag that moves the time-high group first;
//!   bad input is error 1411, as in MySQL.
//! - `INET_ATON` accepts MySQL's short forms (`'127.1'` is 127.0.0.1) and is NULL for
//!   anything else; `INET_NTOA` is NULL outside 0 … 2³²−1.
//! - `JSON_VALID` is 1 for valid JSON text, 0 otherwise (non-string arguments included);
//!   `JSON_QUOTE` quotes a string (error 3064 for other types, as MySQL).

use super::R;
use super::{
    Builtin, FnCtx, any_null, arg, binary_type, first_len, fits_packet, int_arg, int_display,
    str_arg, text_type,
};
use crate::error::{MyError, code};
use crate::sql::convert;
use crate::sql::types::{IntWidth, SqlType};
use crate::sql::value::Value;
use sha1::Digest;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

pub(super) static FUNCS: &[Builtin] = &[
    f!("hex", 1, 1, ret_hex, hex),
    f!(
        "format_pico_time",
        1,
        1,
        |_, _| text_type(11),
        format_pico_time_fn
    ),
    f!("format_bytes", 1, 1, |_, _| text_type(11), format_bytes_fn),
    f!(
        "unhex",
        1,
        1,
        |t, _| binary_type(first_len(t) / 2 + 1),
        unhex
    ),
    f!(
        "from_base64",
        1,
        1,
        |t, _| binary_type(first_len(t) * 3 / 4 + 1),
        from_base64
    ),
    f!("to_base64", 1, 1, ret_to_base64, to_base64),
    f!("bin", 1, 1, |_, _| text_type(64), bin),
    f!("oct", 1, 1, |_, _| text_type(64), oct),
    f!("conv", 3, 3, |_, _| text_type(65), conv),
    f!("md5", 1, 1, |_, _| text_type(32), md5),
    f!("sha1", 1, 1, |_, _| text_type(40), sha1),
    f!("sha", 1, 1, |_, _| text_type(40), sha1),
    f!("sha2", 2, 2, |_, _| text_type(128), sha2),
    Builtin {
        name: "uuid",
        min_args: 0,
        max_args: 0,
        ret: |_, _| text_type(36),
        eval: uuid,
        deterministic: false,
    },
    Builtin {
        name: "uuid_short",
        min_args: 0,
        max_args: 0,
        ret: |_, _| SqlType::BIGINT_UNSIGNED,
        eval: uuid_short,
        deterministic: false,
    },
    f!("uuid_to_bin", 1, 2, |_, _| binary_type(16), uuid_to_bin),
    f!("bin_to_uuid", 1, 2, |_, _| text_type(36), bin_to_uuid),
    f!("is_uuid", 1, 1, |_, _| int_display(1), is_uuid),
    f!("isnull", 1, 1, |_, _| int_display(1), isnull),
    f!("inet_aton", 1, 1, ret_inet_aton, inet_aton),
    f!("inet_ntoa", 1, 1, |_, _| text_type(15), inet_ntoa),
    f!("json_valid", 1, 1, |_, _| int_display(1), json_valid),
    f!(
        "json_quote",
        1,
        1,
        |t, _| text_type(t.first().map_or(0, |t| t.char_len() as u64) * 6 + 2),
        json_quote
    ),
];

fn ret_inet_aton(_: &[SqlType], _: &[Option<Value>]) -> SqlType {
    SqlType::Int {
        width: IntWidth::Big,
        unsigned: true,
        zerofill: false,
        display: Some(21),
    }
}

fn lower_hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for &c in b {
        s.push(char::from_digit((c >> 4) as u32, 16).unwrap_or('0'));
        s.push(char::from_digit((c & 15) as u32, 16).unwrap_or('0'));
    }
    s
}

// ---------------------------------------------------------------------------------------
// Hashes.

fn md5(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| {
        Value::from_string(lower_hex(&md5::Md5::digest(&*s)))
    }))
}

fn sha1(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| {
        Value::from_string(lower_hex(&sha1::Sha1::digest(&*s)))
    }))
}

fn sha2(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let Some(bits) = int_arg(args, 1, ctx) else {
        return Ok(Value::Null);
    };
    let digest = match bits {
        224 => sha2::Sha224::digest(&*s).to_vec(),
        0 | 256 => sha2::Sha256::digest(&*s).to_vec(),
        384 => sha2::Sha384::digest(&*s).to_vec(),
        512 => sha2::Sha512::digest(&*s).to_vec(),
        _ => {
            ctx.diag.warn(
                code::ER_WRONG_PARAMETERS_TO_NATIVE_FCT,
                "Incorrect parameters in the call to native function 'sha2'",
            );
            return Ok(Value::Null);
        }
    };
    Ok(Value::from_string(lower_hex(&digest)))
}

// ---------------------------------------------------------------------------------------
// UUIDs.

/// 100 ns intervals between 1582-10-15 and 1970-01-01.
const UUID_TIME_OFFSET: u64 = 0x01B2_1DD2_1381_4000;

/// Clock sequence (with the RFC 4122 variant bits) and node id, fixed per process.
fn uuid_node() -> &'static (u16, [u8; 6]) {
    static NODE: OnceLock<(u16, [u8; 6])> = OnceLock::new();
    NODE.get_or_init(|| {
        let seq: u16 = rand::random::<u16>() & 0x3FFF | 0x8000;
        let mut node: [u8; 6] = rand::random();
        node[0] |= 0x01; // multicast bit: not a real MAC address
        (seq, node)
    })
}

/// The next UUID timestamp: the clock in 100 ns units, but always past the last one.
fn uuid_time() -> u64 {
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now = (crate::sql::temporal::now_unix_micros().max(0) as u64)
        .saturating_mul(10)
        .saturating_add(UUID_TIME_OFFSET);
    let mut prev = LAST.load(Ordering::Relaxed);
    loop {
        let next = now.max(prev.saturating_add(1));
        match LAST.compare_exchange_weak(prev, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(p) => prev = p,
        }
    }
}

fn uuid(_: &[Value], _: &mut FnCtx) -> R {
    let t = uuid_time();
    let (seq, node) = uuid_node();
    let time_low = t & 0xFFFF_FFFF;
    let time_mid = (t >> 32) & 0xFFFF;
    let time_hi = ((t >> 48) & 0x0FFF) | 0x1000;
    Ok(Value::from_string(format!(
        "{time_low:08x}-{time_mid:04x}-{time_hi:04x}-{seq:04x}-{}",
        lower_hex(node)
    )))
}

fn uuid_short(_: &[Value], _: &mut FnCtx) -> R {
    static COUNTER: OnceLock<AtomicU64> = OnceLock::new();
    let c = COUNTER.get_or_init(|| {
        let start_s = (crate::sql::temporal::now_unix_micros() / 1_000_000).max(0) as u64;
        AtomicU64::new((start_s & 0xFFFF_FFFF) << 24)
    });
    Ok(Value::UInt(c.fetch_add(1, Ordering::Relaxed)))
}

/// The 16 bytes of a UUID in one of MySQL's text forms.
fn parse_uuid(s: &[u8]) -> Option<[u8; 16]> {
    let hex: Vec<u8> = match s.len() {
        32 => s.to_vec(),
        36 => {
            if [8, 13, 18, 23].iter().any(|&i| s[i] != b'-') {
                return None;
            }
            s.iter().copied().filter(|&c| c != b'-').collect()
        }
        38 => {
            if s[0] != b'{' || s[37] != b'}' {
                return None;
            }
            return parse_uuid(&s[1..37]);
        }
        _ => return None,
    };
    if hex.len() != 32 {
        return None;
    }
    let mut out = [0u8; 16];
    for (k, pair) in hex.chunks(2).enumerate() {
        let h = (pair[0] as char).to_digit(16)?;
        let l = (pair[1] as char).to_digit(16)?;
        out[k] = (h * 16 + l) as u8;
    }
    Some(out)
}

fn format_uuid(b: &[u8; 16]) -> String {
    let h = lower_hex(b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

fn wrong_string(s: &[u8], func: &str) -> MyError {
    let shown: String = String::from_utf8_lossy(s).chars().take(128).collect();
    MyError::new(
        code::ER_WRONG_VALUE_FOR_TYPE,
        format!("Incorrect string value: '{shown}' for function {func}"),
    )
}

fn swap_flag(args: &[Value], ctx: &mut FnCtx) -> bool {
    args.len() > 1 && int_arg(args, 1, ctx).is_some_and(|x| x != 0)
}

fn uuid_to_bin(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let Some(mut b) = parse_uuid(&s) else {
        return Err(wrong_string(&s, "uuid_to_bin"));
    };
    if swap_flag(args, ctx) {
        // time-low(4) time-mid(2) time-high(2) … → time-high time-mid time-low …
        let mut t = [0u8; 8];
        t[0..2].copy_from_slice(&b[6..8]);
        t[2..4].copy_from_slice(&b[4..6]);
        t[4..8].copy_from_slice(&b[0..4]);
        b[..8].copy_from_slice(&t);
    }
    Ok(Value::bytes(&b))
}

fn bin_to_uuid(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let Ok(mut b) = <[u8; 16]>::try_from(&*s) else {
        return Err(wrong_string(&s, "bin_to_uuid"));
    };
    if swap_flag(args, ctx) {
        let mut t = [0u8; 8];
        t[0..4].copy_from_slice(&b[4..8]);
        t[4..6].copy_from_slice(&b[2..4]);
        t[6..8].copy_from_slice(&b[0..2]);
        b[..8].copy_from_slice(&t);
    }
    Ok(Value::from_string(format_uuid(&b)))
}

fn is_uuid(args: &[Value], _: &mut FnCtx) -> R {
    Ok(str_arg(args, 0).map_or(Value::Null, |s| Value::bool(parse_uuid(&s).is_some())))
}

fn isnull(args: &[Value], _: &mut FnCtx) -> R {
    Ok(Value::bool(arg(args, 0).is_null()))
}

// ---------------------------------------------------------------------------------------
// IPv4.

/// MySQL's `INET_ATON`: dotted decimal bytes, short forms expanded, NULL otherwise.
fn parse_inet_aton(s: &[u8]) -> Option<u64> {
    let mut result: u64 = 0;
    let mut byte: u64 = 0;
    let mut dots = 0;
    let mut last = b'.';
    for &c in s {
        last = c;
        match c {
            b'0'..=b'9' => {
                byte = byte * 10 + (c - b'0') as u64;
                if byte > 255 {
                    return None;
                }
            }
            b'.' => {
                dots += 1;
                result = (result << 8).wrapping_add(byte);
                byte = 0;
            }
            _ => return None,
        }
    }
    if last == b'.' || dots > 3 {
        return None;
    }
    match dots {
        1 => result <<= 16,
        2 => result <<= 8,
        _ => {}
    }
    Some((result << 8) + byte)
}

/// MySQL 8.0's warning for a bad `INET_*` argument (MariaDB stays silent). MySQL prints
/// the argument expression; we print the value as a literal.
fn warn_wrong_value(ctx: &mut FnCtx, kind: &str, v: &Value, func: &str) {
    let text = convert::to_string_lossy(v);
    let shown = match v {
        Value::Bytes(_) => format!("'{}'", text.replace('\'', "''")),
        _ => text,
    };
    let shown: String = shown.chars().take(200).collect();
    ctx.diag.warn(
        code::ER_WRONG_VALUE_FOR_TYPE,
        format!("Incorrect {kind} value: '{shown}' for function {func}"),
    );
}

fn inet_aton(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    Ok(match parse_inet_aton(&s) {
        Some(n) => Value::Int(n as i64),
        None => {
            warn_wrong_value(ctx, "string", arg(args, 0), "inet_aton");
            Value::Null
        }
    })
}

fn inet_ntoa(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(n) = int_arg(args, 0, ctx) else {
        return Ok(Value::Null);
    };
    // MySQL reads the argument as unsigned: negative numbers are out of range too.
    if !(0..=0xFFFF_FFFF).contains(&n) {
        warn_wrong_value(ctx, "integer", arg(args, 0), "inet_ntoa");
        return Ok(Value::Null);
    }
    let b = (n as u32).to_be_bytes();
    Ok(Value::from_string(format!(
        "{}.{}.{}.{}",
        b[0], b[1], b[2], b[3]
    )))
}

// ---------------------------------------------------------------------------------------
// JSON.

fn json_valid(args: &[Value], _: &mut FnCtx) -> R {
    Ok(match arg(args, 0) {
        Value::Null => Value::Null,
        Value::Bytes(s) => Value::bool(convert::validate_json(s).is_ok()),
        _ => Value::Int(0),
    })
}

fn json_quote(args: &[Value], _: &mut FnCtx) -> R {
    let s = match arg(args, 0) {
        Value::Null => return Ok(Value::Null),
        Value::Bytes(s) => s,
        _ => {
            return Err(MyError::new(
                code::ER_INCORRECT_TYPE,
                "Incorrect type for argument 1 in function json_quote.",
            ));
        }
    };
    let mut out = Vec::with_capacity(s.len() + 2);
    out.push(b'"');
    for &c in s.iter() {
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            c if c < 0x20 => out.extend_from_slice(format!("\\u{c:04x}").as_bytes()),
            c => out.push(c),
        }
    }
    out.push(b'"');
    Ok(Value::from_vec(out))
}

// ---------------------------------------------------------------------------------------
// HEX, UNHEX.

fn ret_to_base64(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    let n = first_len(types).saturating_mul(4);
    text_type((n.div_ceil(3) * 4 + n / 57).max(4))
}

fn ret_hex(types: &[SqlType], _: &[Option<Value>]) -> SqlType {
    match types.first() {
        Some(t) if t.is_numeric() => text_type(16),
        _ => text_type(first_len(types).saturating_mul(2)),
    }
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

fn hex_bytes(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len() * 2);
    for &c in b {
        out.push(HEX_UPPER[(c >> 4) as usize]);
        out.push(HEX_UPPER[(c & 15) as usize]);
    }
    out
}

fn hex(args: &[Value], ctx: &mut FnCtx) -> R {
    let v = arg(args, 0);
    let n: u64 = match v {
        Value::Null => return Ok(Value::Null),
        Value::Int(i) => *i as u64,
        Value::UInt(u) => *u,
        Value::Double(_) | Value::Float(_) | Value::Decimal(_) => {
            let x = convert::to_f64(v, ctx.diag).unwrap_or(0.0);
            if x <= i64::MIN as f64 || x >= u64::MAX as f64 || x.is_nan() {
                u64::MAX
            } else if x < 0.0 {
                (x - 0.5) as i64 as u64
            } else {
                (x + 0.5) as u64
            }
        }
        other => {
            let b = convert::to_bytes(other);
            if !fits_packet(b.len().saturating_mul(2), "hex", ctx) {
                return Ok(Value::Null);
            }
            return Ok(Value::from_vec(hex_bytes(&b)));
        }
    };
    Ok(Value::from_string(format!("{n:X}")))
}

fn hex_digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

fn unhex(args: &[Value], _: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let mut out = Vec::with_capacity(s.len() / 2 + 1);
    // An odd length means an implicit leading zero nibble.
    let (head, rest) = if s.len() % 2 == 1 {
        s.split_at(1)
    } else {
        s.split_at(0)
    };
    if let Some(&c) = head.first() {
        match hex_digit(c) {
            Some(d) => out.push(d),
            None => return Ok(Value::Null),
        }
    }
    for pair in rest.chunks(2) {
        match (hex_digit(pair[0]), pair.get(1).and_then(|&c| hex_digit(c))) {
            (Some(h), Some(l)) => out.push(h << 4 | l),
            _ => return Ok(Value::Null),
        }
    }
    Ok(Value::from_vec(out))
}

// ---------------------------------------------------------------------------------------
// Base64 (MySQL's mysys base64: 76-character lines; lenient about white space only).

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn to_base64(args: &[Value], ctx: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    let quads = s.len().div_ceil(3);
    if !fits_packet(quads * 4 + quads / 19, "to_base64", ctx) {
        return Ok(Value::Null);
    }
    let mut out = Vec::with_capacity(quads * 4 + quads / 19);
    let mut line = 0;
    for chunk in s.chunks(3) {
        if line == 76 {
            out.push(b'\n');
            line = 0;
        }
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        out.push(B64[(n >> 18) as usize & 63]);
        out.push(B64[(n >> 12) as usize & 63]);
        out.push(if chunk.len() > 1 {
            B64[(n >> 6) as usize & 63]
        } else {
            b'='
        });
        out.push(if chunk.len() > 2 {
            B64[n as usize & 63]
        } else {
            b'='
        });
        line += 4;
    }
    Ok(Value::from_vec(out))
}

fn b64_value(c: u8) -> Option<u32> {
    B64.iter().position(|&x| x == c).map(|p| p as u32)
}

fn is_b64_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

/// MySQL's `base64_decode` without multiple chunks: groups of four characters, white space
/// skipped anywhere, `=` padding only in the last two places of the last group, nothing
/// but white space after it.
fn decode_base64(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3 + 3);
    let mut chars = s.iter().copied().filter(|&c| !is_b64_space(c));
    loop {
        let Some(c0) = chars.next() else {
            return Some(out);
        };
        let group = [c0, chars.next()?, chars.next()?, chars.next()?];
        let mut n: u32 = 0;
        let mut pad = 0usize;
        for (k, &c) in group.iter().enumerate() {
            n <<= 6;
            match b64_value(c) {
                Some(v) if pad == 0 => n |= v,
                None if c == b'=' && k >= 2 => pad += 1,
                _ => return None,
            }
        }
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8][..3 - pad]);
        if pad > 0 {
            return chars.next().is_none().then_some(out);
        }
    }
}

fn from_base64(args: &[Value], _: &mut FnCtx) -> R {
    let Some(s) = str_arg(args, 0) else {
        return Ok(Value::Null);
    };
    Ok(decode_base64(&s).map_or(Value::Null, Value::from_vec))
}

// ---------------------------------------------------------------------------------------
// CONV, BIN, OCT.

/// MySQL's `my_strntoull`/`my_strntoll`: spaces, sign, digits of `base`; stops at the first
/// other character. Signed: saturates at the i64 range; unsigned: `u64::MAX` on overflow,
/// a leading `-` negates modulo 2⁶⁴.
fn str_to_int_base(s: &[u8], base: u32, signed: bool) -> u64 {
    let mut i = s
        .iter()
        .position(|&c| !convert::is_space(c))
        .unwrap_or(s.len());
    let negative = convert::skip_sign(s, &mut i);
    let mut v: u64 = 0;
    let mut overflow = false;
    for &c in s.get(i..).unwrap_or_default() {
        let Some(d) = (c as char).to_digit(36).filter(|&d| d < base) else {
            break;
        };
        match v
            .checked_mul(base as u64)
            .and_then(|x| x.checked_add(d as u64))
        {
            Some(x) if !overflow => v = x,
            _ => overflow = true,
        }
    }
    if signed {
        let limit = if negative {
            i64::MIN.unsigned_abs()
        } else {
            i64::MAX as u64
        };
        if overflow || v > limit {
            return if negative {
                i64::MIN as u64
            } else {
                i64::MAX as u64
            };
        }
    } else if overflow {
        return u64::MAX;
    }
    if negative { v.wrapping_neg() } else { v }
}

/// MySQL's `longlong2str`: a negative radix prints the value as signed.
fn int_to_str_base(v: u64, radix: i64) -> Vec<u8> {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let base = radix.unsigned_abs();
    let (negative, mut u) = if radix < 0 && (v as i64) < 0 {
        (true, (v as i64).unsigned_abs())
    } else {
        (false, v)
    };
    let mut digits = Vec::with_capacity(65);
    loop {
        digits.push(DIGITS[(u % base) as usize]);
        u /= base;
        if u == 0 {
            break;
        }
    }
    if negative {
        digits.push(b'-');
    }
    digits.reverse();
    digits
}

fn conv_impl(v: &Value, from: i64, to: i64) -> Value {
    let valid = |b: i64| (2..=36).contains(&b.unsigned_abs());
    if v.is_null() || !valid(from) || !valid(to) {
        return Value::Null;
    }
    let s = convert::to_bytes(v);
    if s.is_empty() {
        return Value::Null;
    }
    let n = str_to_int_base(&s, from.unsigned_abs() as u32, from < 0);
    Value::from_vec(int_to_str_base(n, to))
}

fn conv(args: &[Value], ctx: &mut FnCtx) -> R {
    if any_null(args) {
        return Ok(Value::Null);
    }
    let (Some(from), Some(to)) = (int_arg(args, 1, ctx), int_arg(args, 2, ctx)) else {
        return Ok(Value::Null);
    };
    Ok(conv_impl(arg(args, 0), from, to))
}

fn bin(args: &[Value], _: &mut FnCtx) -> R {
    Ok(conv_impl(arg(args, 0), 10, 2))
}

fn oct(args: &[Value], _: &mut FnCtx) -> R {
    Ok(conv_impl(arg(args, 0), 10, 8))
}

/// MySQL's `FORMAT_PICO_TIME`: the largest unit the value reaches, two decimals (whole
/// picoseconds, width 3, below a nanosecond).
pub fn format_pico_time(ps: f64) -> String {
    const UNITS: [(f64, &str); 7] = [
        (86_400e12, "d"),
        (3_600e12, "h"),
        (60e12, "min"),
        (1e12, "s"),
        (1e9, "ms"),
        (1e6, "us"),
        (1e3, "ns"),
    ];
    for (div, unit) in UNITS {
        if ps.abs() >= div {
            return format!("{:3.2} {unit}", ps / div);
        }
    }
    format!("{:3} ps", ps as i64)
}

/// MySQL's `FORMAT_BYTES`: binary units, two decimals (whole bytes, width 4, below 1 KiB).
pub fn format_bytes(n: f64) -> String {
    const UNITS: [&str; 6] = ["EiB", "PiB", "TiB", "GiB", "MiB", "KiB"];
    for (i, unit) in UNITS.iter().enumerate() {
        let div = 1024f64.powi(6 - i as i32);
        if n.abs() >= div {
            return format!("{:4.2} {unit}", n / div);
        }
    }
    format!("{:4} bytes", n as i64)
}

fn format_pico_time_fn(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(match super::f64_arg(args, 0, ctx) {
        Some(x) => Value::from_string(format_pico_time(x)),
        None => Value::Null,
    })
}

fn format_bytes_fn(args: &[Value], ctx: &mut FnCtx) -> R {
    Ok(match super::f64_arg(args, 0, ctx) {
        Some(x) => Value::from_string(format_bytes(x)),
        None => Value::Null,
    })
}
