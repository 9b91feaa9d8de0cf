//! Tests: the MySQL 8.0 manual's examples, family by family (results as the `mysql`
//! client prints them), the registry, and a no-panic sweep of every function over hostile
//! arguments. The cross-check against a real MariaDB is `examples/crosscheck.rs`.

use super::*;
use crate::error::Level;
use crate::sql::temporal;
use crate::sql::value::Time;
use bigdecimal::BigDecimal;

/// Statement time of the tests: 2023-11-14 22:13:20.123456 UTC.
const NOW_MICROS: i64 = 1_700_000_000_123_456;

fn s(v: &str) -> Value {
    Value::str(v)
}

fn i(v: i64) -> Value {
    Value::Int(v)
}

fn d(v: &str) -> Value {
    Value::decimal(v.parse::<BigDecimal>().expect("decimal literal"))
}

fn f(v: f64) -> Value {
    Value::Double(v)
}

fn n() -> Value {
    Value::Null
}

fn date(v: &str) -> Value {
    Value::Date(temporal::parse_datetime(v.as_bytes()).expect("date").value)
}

fn tm(v: &str) -> Value {
    Value::Time(temporal::parse_time(v.as_bytes()).expect("time").value)
}

fn unit(name: &str) -> Value {
    Value::Int(interval_unit_code(
        temporal::IntervalUnit::from_name(name).expect("unit"),
    ))
}

/// The type a literal of this value has (what the binder would say).
fn lit_type(v: &Value) -> SqlType {
    match v {
        Value::Null => SqlType::Null,
        Value::Int(_) => SqlType::BIGINT,
        Value::UInt(_) => SqlType::BIGINT_UNSIGNED,
        Value::Float(_) | Value::Double(_) => SqlType::DOUBLE,
        Value::Decimal(d) => SqlType::Decimal {
            precision: 30,
            scale: d.fractional_digit_count().clamp(0, 30) as u8,
            unsigned: false,
        },
        Value::Bytes(b) => SqlType::varchar(b.len() as u32),
        Value::Date(_) => SqlType::Date,
        Value::DateTime(d) => SqlType::DateTime {
            fsp: if d.micro != 0 { 6 } else { 0 },
        },
        Value::Time(t) => SqlType::Time {
            fsp: if t.micros % 1_000_000 != 0 { 6 } else { 0 },
        },
    }
}

/// Evaluates `name(args)` with the test clock in UTC.
fn call(name: &str, args: &[Value]) -> (Result<Value, MyError>, Diagnostics) {
    let b = lookup(name).unwrap_or_else(|| panic!("no builtin {name}"));
    b.check_arity(args.len()).expect("arity");
    let mut diag = Diagnostics::default();
    let mut ctx = FnCtx {
        coll: crate::sql::types::Collation::DEFAULT,
        now_local: temporal::datetime_from_unix_micros(NOW_MICROS, 0).expect("now"),
        now_unix_micros: NOW_MICROS,
        tz_offset_s: 0,
        div_precision_increment: 4,
        diag: &mut diag,
    };
    let r = (b.eval)(args, &mut ctx);
    (r, diag)
}

/// `SELECT name(args)` as the client would see it ("NULL" for NULL).
fn show(name: &str, args: &[Value]) -> String {
    let b = lookup(name).expect("builtin");
    let types: Vec<SqlType> = args.iter().map(lit_type).collect();
    let consts: Vec<Option<Value>> = args.iter().cloned().map(Some).collect();
    let ty = b.result_type(&types, &consts);
    match call(name, args).0.expect("no error") {
        Value::Null => "NULL".into(),
        Value::Double(x) if double_display_decimals(name, &types, &consts).is_some() => {
            let dec = double_display_decimals(name, &types, &consts).unwrap_or(0) as usize;
            format!("{x:.dec$}")
        }
        v => {
            let mut out = Vec::new();
            convert::to_text(&v, &ty, &mut out);
            String::from_utf8_lossy(&out).into_owned()
        }
    }
}

fn warnings(name: &str, args: &[Value]) -> Vec<u16> {
    call(name, args).1.list.iter().map(|w| w.code).collect()
}

fn error(name: &str, args: &[Value]) -> u16 {
    call(name, args).0.expect_err("an error").code
}

macro_rules! check {
    ($name:literal ( $($a:expr),* ) => $want:expr) => {
        assert_eq!(show($name, &[$($a),*]), $want, "{}({})", $name, stringify!($($a),*));
    };
}

// ---------------------------------------------------------------------------------------
// Registry.

#[test]
fn lookup_is_case_insensitive_and_complete() {
    assert!(lookup("CONCAT").is_some());
    assert!(lookup("Date_Format").is_some());
    assert!(lookup("no_such_function").is_none());
    assert!(lookup(&"x".repeat(10_000)).is_none());
    assert!(lookup("sleep").is_none(), "SLEEP belongs to the executor");
    let mut names: Vec<&str> = all().map(|b| b.name).collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "duplicate names");
    for b in all() {
        assert_eq!(b.name, b.name.to_ascii_lowercase());
        assert!(b.min_args <= b.max_args, "{}", b.name);
    }
    let e = lookup("concat_ws")
        .expect("concat_ws")
        .check_arity(1)
        .expect_err("arity");
    assert_eq!(e.code, 1582);
    assert_eq!(
        e.message,
        "Incorrect parameter count in the call to native function 'concat_ws'"
    );
    for name in ["rand", "uuid", "uuid_short", "sysdate"] {
        assert!(!lookup(name).expect("builtin").deterministic, "{name}");
    }
    assert!(lookup("now").expect("now").deterministic);
}

#[test]
fn unit_codes_round_trip() {
    use temporal::IntervalUnit::*;
    for u in [
        Microsecond,
        Second,
        Day,
        Week,
        Quarter,
        YearMonth,
        DayMicrosecond,
    ] {
        assert_eq!(unit_from_code(interval_unit_code(u)), Some(u));
    }
    assert_eq!(unit_from_code(-1), None);
    assert_eq!(unit_from_code(20), None);
}

// ---------------------------------------------------------------------------------------
// Strings (MySQL 8.0 manual, "String Functions and Operators").

#[test]
fn string_examples() {
    check!("concat"(s("My"), s("S"), s("QL")) => "MySQL");
    check!("concat"(s("My"), n(), s("QL")) => "NULL");
    check!("concat"(d("14.3")) => "14.3");
    check!("concat_ws"(s(","), s("First name"), s("Second name"), s("Last Name"))
        => "First name,Second name,Last Name");
    check!("concat_ws"(s(","), s("First name"), n(), s("Last Name")) => "First name,Last Name");
    check!("length"(s("text")) => "4");
    check!("octet_length"(s("héllo")) => "6");
    check!("char_length"(s("héllo")) => "5");
    check!("bit_length"(s("text")) => "32");
    check!("lower"(s("QUADRATICALLY")) => "quadratically");
    check!("upper"(s("Hej")) => "HEJ");
    check!("substring"(s("Quadratically"), i(5)) => "ratically");
    check!("substring"(s("foobarbar"), i(4)) => "barbar");
    check!("substring"(s("Quadratically"), i(5), i(6)) => "ratica");
    check!("substring"(s("Sakila"), i(-3)) => "ila");
    check!("substring"(s("Sakila"), i(-5), i(3)) => "aki");
    check!("substring"(s("Sakila"), i(-4), i(2)) => "ki");
    check!("substring"(s("Sakila"), i(0)) => "");
    check!("substring"(s("Sakila"), i(-7)) => "");
    check!("substring"(s("日本語テキスト"), i(2), i(2)) => "本語");
    check!("substring_index"(s("www.mysql.com"), s("."), i(2)) => "www.mysql");
    check!("substring_index"(s("www.mysql.com"), s("."), i(-2)) => "mysql.com");
    check!("substring_index"(s("www.mysql.com"), s("."), i(0)) => "");
    check!("left"(s("foobarbar"), i(5)) => "fooba");
    check!("right"(s("foobarbar"), i(4)) => "rbar");
    check!("right"(s("foobarbar"), i(-4)) => "");
    check!("trim"(s("  bar   ")) => "bar");
    check!("ltrim"(s("  barbar")) => "barbar");
    check!("rtrim"(s("barbar   ")) => "barbar");
    check!("replace"(s("www.mysql.com"), s("w"), s("Ww")) => "WwWwWw.mysql.com");
    check!("locate"(s("bar"), s("foobarbar")) => "4");
    check!("locate"(s("xbar"), s("foobar")) => "0");
    check!("locate"(s("bar"), s("foobarbar"), i(5)) => "7");
    check!("locate"(s("B"), s("abc")) => "2");
    check!("locate"(s("É"), s("aéb")) => "2");
    check!("position"(s("bar"), s("foobarbar")) => "4");
    check!("instr"(s("foobarbar"), s("bar")) => "4");
    check!("instr"(s("xbar"), s("foobar")) => "0");
    check!("lpad"(s("hi"), i(4), s("??")) => "??hi");
    check!("lpad"(s("hi"), i(1), s("??")) => "h");
    check!("rpad"(s("hi"), i(5), s("?")) => "hi???");
    check!("rpad"(s("hi"), i(1), s("?")) => "h");
    check!("rpad"(s("hi"), i(5), s("")) => "NULL");
    check!("lpad"(s("hi"), i(-1), s("x")) => "NULL");
    check!("repeat"(s("MySQL"), i(3)) => "MySQLMySQLMySQL");
    check!("repeat"(s("MySQL"), i(0)) => "");
    check!("reverse"(s("abc")) => "cba");
    check!("reverse"(s("héllo")) => "olléh");
    check!("space"(i(6)) => "      ");
    check!("ascii"(s("2")) => "50");
    check!("ascii"(i(2)) => "50");
    check!("ascii"(s("dx")) => "100");
    check!("ascii"(s("")) => "0");
    check!("ord"(s("2")) => "50");
    check!("ord"(s("é")) => "50089");
    check!("char"(i(77), i(121), i(83), i(81), s("76")) => "MySQL");
    check!("hex"(s("abc")) => "616263");
    check!("format_pico_time"(i(5)) => "  5 ps");
    check!("format_pico_time"(i(3501)) => "3.50 ns");
    check!("format_pico_time"(i(188_732_396_662_000)) => "3.15 min");
    check!("format_pico_time"(d("90061000000000000")) => "1.04 d");
    check!("format_bytes"(i(512)) => " 512 bytes");
    check!("format_bytes"(d("18446644073709551615")) => "16.00 EiB");
    check!("format_bytes"(i(1536)) => "1.50 KiB");
    check!("hex"(i(255)) => "FF");
    check!("hex"(i(-1)) => "FFFFFFFFFFFFFFFF");
    assert_eq!(hex_of("char", &[i(1), i(0)]), "0100");
    assert_eq!(hex_of("char", &[i(256)]), "0100");
    assert_eq!(hex_of("char", &[i(1), i(0), i(0)]), "010000");
    assert_eq!(hex_of("char", &[i(256 * 256)]), "010000");
    check!("unhex"(s("4D7953514C")) => "MySQL");
    check!("unhex"(s("GG")) => "NULL");
    assert_eq!(hex_of("unhex", &[s("F")]), "0F");
    check!("insert"(s("Quadratic"), i(3), i(4), s("What")) => "QuWhattic");
    check!("insert"(s("Quadratic"), i(-1), i(4), s("What")) => "Quadratic");
    check!("insert"(s("Quadratic"), i(3), i(100), s("What")) => "QuWhat");
    check!("field"(s("Bb"), s("Aa"), s("Bb"), s("Cc"), s("Dd"), s("Ff")) => "2");
    check!("field"(s("Gg"), s("Aa"), s("Bb"), s("Cc"), s("Dd"), s("Ff")) => "0");
    check!("field"(s("bb"), s("Aa"), s("BB")) => "2");
    check!("field"(n(), s("Aa")) => "0");
    check!("find_in_set"(s("b"), s("a,b,c,d")) => "2");
    check!("find_in_set"(s("B"), s("a,b,c,d")) => "2");
    check!("find_in_set"(s(""), s("a,,b")) => "2");
    check!("find_in_set"(s("a,b"), s("a,b,c")) => "0");
    check!("elt"(i(1), s("Aa"), s("Bb"), s("Cc"), s("Dd")) => "Aa");
    check!("elt"(i(4), s("Aa"), s("Bb"), s("Cc"), s("Dd")) => "Dd");
    check!("elt"(i(5), s("Aa"), s("Bb")) => "NULL");
    check!("strcmp"(s("text"), s("text2")) => "-1");
    check!("strcmp"(s("text2"), s("text")) => "1");
    check!("strcmp"(s("text"), s("text")) => "0");
    check!("strcmp"(s("text"), s("TEXT")) => "0");
    check!("quote"(s("Don't!")) => "'Don\\'t!'");
    check!("quote"(n()) => "NULL");
    check!("format"(d("12332.123456"), i(4)) => "12,332.1235");
    check!("format"(d("12332.1"), i(4)) => "12,332.1000");
    check!("format"(d("12332.2"), i(0)) => "12,332");
    check!("format"(f(-1234567.891), i(2)) => "-1,234,567.89");
    check!("format"(i(100), i(-2)) => "100");
    check!("md5"(s("testing")) => "ae2b1fca515949e5d54fb22b8ed95575");
    check!("sha1"(s("abc")) => "a9993e364706816aba3e25717850c26c9cd0d89d");
    check!("sha2"(s("abc"), i(224)) => "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
    check!("sha2"(s("abc"), i(0))
        => "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check!("sha2"(s("abc"), i(7)) => "NULL");
    assert_eq!(warnings("sha2", &[s("abc"), i(7)]), [1583]);
    check!("crc32"(s("MySQL")) => "3259397556");
    check!("crc32"(s("mysql")) => "2501908538");
    check!("to_base64"(s("abc")) => "YWJj");
    check!("from_base64"(s("YWJj")) => "abc");
    check!("from_base64"(s("YW Jj\n")) => "abc");
    check!("from_base64"(s("YQ==")) => "a");
    check!("from_base64"(s("YWJ")) => "NULL");
    check!("from_base64"(s("YQ==YQ==")) => "NULL");
    check!("bin"(i(12)) => "1100");
    check!("oct"(i(12)) => "14");
    check!("conv"(s("a"), i(16), i(2)) => "1010");
    check!("conv"(s("6E"), i(18), i(8)) => "172");
    check!("conv"(i(-17), i(10), i(-18)) => "-H");
    check!("conv"(s(""), i(10), i(2)) => "NULL");
    check!("conv"(s("1"), i(37), i(2)) => "NULL");
}

fn hex_of(name: &str, args: &[Value]) -> String {
    match call(name, args).0.expect("value") {
        Value::Bytes(b) => b.iter().map(|c| format!("{c:02X}")).collect(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn trim_with_modes() {
    let t = |m, r: &str, v: &str| trim_with(&s(v), &s(r), m);
    assert_eq!(
        t(TrimMode::Leading, "x", "xxxbarxxx").as_bytes(),
        Some(&b"barxxx"[..])
    );
    assert_eq!(
        t(TrimMode::Both, "x", "xxxbarxxx").as_bytes(),
        Some(&b"bar"[..])
    );
    assert_eq!(
        t(TrimMode::Trailing, "xyz", "barxxyz").as_bytes(),
        Some(&b"barx"[..])
    );
    assert_eq!(t(TrimMode::Both, "", "xbx").as_bytes(), Some(&b"xbx"[..]));
    assert!(trim_with(&n(), &s("x"), TrimMode::Both).is_null());
}

#[test]
fn string_results_are_bounded() {
    // Larger than max_allowed_packet: NULL with warning 1301, as MySQL.
    check!("repeat"(s("ab"), i(40 << 20)) => "NULL");
    let w = call("repeat", &[s("ab"), i(40 << 20)]).1;
    assert_eq!(w.list[0].code, 1301);
    assert_eq!(
        w.list[0].message,
        "Result of repeat() was larger than max_allowed_packet (67108864) - truncated"
    );
    check!("space"(i(i64::MAX)) => "NULL");
    check!("lpad"(s("a"), i(20_000_000), s("b")) => "NULL");
    check!("rpad"(s("a"), i(i64::MAX), s("b")) => "NULL");
    assert_eq!(show("lpad", &[s("a"), i(1000), s("bc")]).len(), 1000);
}

#[test]
fn string_result_types() {
    let ty = |name: &str, args: &[Value]| {
        let types: Vec<SqlType> = args.iter().map(lit_type).collect();
        let consts: Vec<Option<Value>> = args.iter().cloned().map(Some).collect();
        lookup(name).expect("builtin").result_type(&types, &consts)
    };
    assert_eq!(ty("concat", &[s("ab"), s("cde")]), SqlType::varchar(5));
    assert_eq!(ty("lpad", &[s("a"), i(10), s("b")]), SqlType::varchar(10));
    assert!(matches!(
        ty("repeat", &[s("a"), i(100_000)]),
        SqlType::Text { .. }
    ));
    assert!(matches!(ty("unhex", &[s("41")]), SqlType::VarBinary { .. }));
    assert!(matches!(ty("length", &[s("a")]), SqlType::Int { .. }));
}

// ---------------------------------------------------------------------------------------
// Numbers (manual, "Mathematical Functions").

#[test]
fn numeric_examples() {
    check!("abs"(i(2)) => "2");
    check!("abs"(i(-32)) => "32");
    check!("abs"(d("-1.50")) => "1.50");
    check!("abs"(s("-2.5")) => "2.5");
    assert_eq!(error("abs", &[i(i64::MIN)]), 1690);
    check!("sign"(i(-32)) => "-1");
    check!("sign"(i(0)) => "0");
    check!("sign"(i(234)) => "1");
    check!("round"(d("-1.23")) => "-1");
    check!("round"(d("-1.58")) => "-2");
    check!("round"(d("1.58")) => "2");
    check!("round"(d("1.298"), i(1)) => "1.3");
    check!("round"(d("1.298"), i(0)) => "1");
    check!("round"(d("23.298"), i(-1)) => "20");
    check!("round"(d("150.000"), i(2)) => "150.00");
    check!("round"(i(150), i(2)) => "150");
    check!("round"(d("2.5")) => "3");
    check!("round"(f(2.5)) => "2");
    check!("round"(f(25e-1)) => "2");
    check!("round"(f(0.125), i(2)) => "0.12");
    check!("round"(f(1.5), i(2)) => "1.50");
    check!("round"(i(1250), i(-2)) => "1300");
    check!("round"(i(-1250), i(-2)) => "-1300");
    check!("round"(d("1.5"), i(3)) => "1.500");
    check!("truncate"(d("1.223"), i(1)) => "1.2");
    check!("truncate"(d("1.999"), i(1)) => "1.9");
    check!("truncate"(d("1.999"), i(0)) => "1");
    check!("truncate"(d("-1.999"), i(1)) => "-1.9");
    check!("truncate"(i(122), i(-2)) => "100");
    check!("truncate"(f(10.28 * 100.0), i(0)) => "1028");
    check!("floor"(d("1.23")) => "1");
    check!("floor"(d("-1.23")) => "-2");
    check!("ceiling"(d("1.23")) => "2");
    check!("ceil"(d("-1.23")) => "-1");
    check!("floor"(f(-1.5)) => "-2");
    check!("mod"(i(234), i(10)) => "4");
    check!("mod"(i(253), i(7)) => "1");
    check!("mod"(i(29), i(9)) => "2");
    check!("mod"(d("34.5"), i(3)) => "1.5");
    check!("mod"(i(-7), i(2)) => "-1");
    check!("mod"(i(5), i(0)) => "NULL");
    assert_eq!(warnings("mod", &[i(5), i(0)]), [1365]);
    check!("pow"(i(2), i(2)) => "4");
    check!("pow"(i(2), i(-2)) => "0.25");
    check!("power"(i(2), i(2)) => "4");
    assert_eq!(error("pow", &[i(2), i(10000)]), 1690);
    check!("sqrt"(i(4)) => "2");
    check!("sqrt"(i(20)) => "4.47213595499958");
    check!("sqrt"(i(-16)) => "NULL");
    assert_eq!(error("exp", &[i(1000)]), 1690);
    check!("log"(i(2), i(65536)) => "16");
    check!("log"(i(10), i(100)) => "2");
    check!("log"(i(1), i(100)) => "NULL");
    check!("log2"(i(65536)) => "16");
    check!("log2"(i(-100)) => "NULL");
    assert_eq!(warnings("log2", &[i(-100)]), [3020]);
    check!("log10"(i(100)) => "2");
    check!("ln"(i(0)) => "NULL");
    check!("pi"() => "3.141593");
    check!("degrees"(f(std::f64::consts::PI)) => "180");
    check!("degrees"(f(std::f64::consts::PI / 2.0)) => "90");
    check!("radians"(i(90)) => "1.5707963267948966");
    check!("atan"(i(2)) => "1.1071487177940904");
    check!("atan"(i(-2), i(2)) => "-0.7853981633974483");
    check!("atan2"(f(std::f64::consts::PI), i(0)) => "1.5707963267948966");
    check!("cot"(i(12)) => "-1.5726734063976893");
    assert_eq!(error("cot", &[i(0)]), 1690);
    check!("asin"(d("0.2")) => "0.2013579207903308");
    check!("asin"(s("foo")) => "0");
    check!("acos"(i(1)) => "0");
    check!("acos"(d("1.0001")) => "NULL");
    check!("cos"(f(std::f64::consts::PI)) => "-1");
    check!("sin"(i(0)) => "0");
    check!("tan"(d("1.0")) => "1.5574077246549023");
    check!("bit_count"(i(64)) => "1");
    check!("bit_count"(i(-1)) => "64");
    check!("crc32"(i(42)) => crc32fast::hash(b"42").to_string());
}

#[test]
fn rand_follows_mysql_sequence() {
    // SELECT RAND(1), RAND(2), RAND(3) in MySQL/MariaDB.
    check!("rand"(i(1)) => "0.40540353712197724");
    check!("rand"(i(2)) => "0.6555866465490187");
    check!("rand"(i(3)) => "0.9057697559760601");
    // The rows after the first of `SELECT RAND(3) FROM t` (the manual's example).
    let mut g = MyRnd::new(3);
    let seq: Vec<f64> = (0..3).map(|_| g.next_f64()).collect();
    assert_eq!(
        seq,
        [0.9057697559760601, 0.37307905813034536, 0.14808605345719125]
    );
    for _ in 0..100 {
        match call("rand", &[]).0 {
            Ok(Value::Double(x)) => assert!((0.0..1.0).contains(&x)),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn greatest_and_least() {
    check!("greatest"(i(2), i(0)) => "2");
    check!("greatest"(d("34.0"), d("3.0"), d("5.0"), d("767.0")) => "767.0");
    check!("greatest"(s("B"), s("A"), s("C")) => "C");
    check!("least"(i(2), i(0)) => "0");
    check!("least"(d("34.0"), d("3.0"), d("5.0"), d("767.0")) => "3.0");
    check!("least"(s("B"), s("A"), s("C")) => "A");
    check!("greatest"(i(1), n(), i(3)) => "NULL");
    check!("least"(f(1.5), i(2), d("0.5")) => "0.5");
    // MySQL 8.0: numbers and strings compare as strings (MariaDB: as numbers).
    check!("greatest"(i(2), s("10")) => "2");
    // With a temporal argument: compared and returned as that temporal.
    check!("greatest"(s("2020-00-10"), Value::DateTime(temporal::parse_datetime(b"2000-01-01").expect("dt").value)) => "2020-00-10 00:00:00");
    check!("greatest"(i(20201231235959), date("2020-01-02")) => "2020-12-31");
    check!("least"(date("2020-01-01"), date("2019-05-05")) => "2019-05-05");
}

// ---------------------------------------------------------------------------------------
// Dates and times (manual, "Date and Time Functions"). The clock is 2023-11-14 22:13:20.123456.

#[test]
fn clock_functions() {
    check!("now"() => "2023-11-14 22:13:20");
    check!("now"(i(3)) => "2023-11-14 22:13:20.123");
    check!("current_timestamp"(i(6)) => "2023-11-14 22:13:20.123456");
    check!("curdate"() => "2023-11-14");
    check!("curtime"() => "22:13:20");
    check!("curtime"(i(2)) => "22:13:20.12");
    check!("utc_timestamp"() => "2023-11-14 22:13:20");
    check!("utc_date"() => "2023-11-14");
    check!("utc_time"() => "22:13:20");
    check!("unix_timestamp"() => "1700000000");
    let e = call("now", &[i(7)]).0.expect_err("fsp 7");
    assert_eq!(e.code, 1426);
    assert_eq!(
        e.message,
        "Too-big precision 7 specified for 'now'. Maximum is 6."
    );
    match call("sysdate", &[]).0 {
        Ok(Value::DateTime(d)) => assert!(d.year >= 2024),
        other => panic!("{other:?}"),
    }
}

#[test]
fn date_parts() {
    check!("date"(s("2003-12-31 01:02:03")) => "2003-12-31");
    check!("time"(s("2003-12-31 01:02:03")) => "01:02:03");
    check!("time"(s("2003-12-31 01:02:03.000123")) => "01:02:03.000123");
    check!("timestamp"(s("2003-12-31")) => "2003-12-31 00:00:00");
    check!("timestamp"(s("2003-12-31 12:00:00"), s("12:00:00")) => "2004-01-01 00:00:00");
    check!("year"(s("1987-01-01")) => "1987");
    check!("month"(s("2008-02-03")) => "2");
    check!("month"(s("2008-00-03")) => "0");
    check!("dayofmonth"(s("2007-02-03")) => "3");
    check!("day"(s("2007-02-00")) => "0");
    check!("hour"(s("10:05:03")) => "10");
    check!("hour"(s("272:59:59")) => "272");
    check!("minute"(s("2008-02-03 10:05:03")) => "5");
    check!("second"(s("10:05:03")) => "3");
    check!("microsecond"(s("12:00:00.123456")) => "123456");
    check!("microsecond"(s("2019-12-31 23:59:59.000010")) => "10");
    check!("dayname"(s("2007-02-03")) => "Saturday");
    check!("monthname"(s("2008-02-03")) => "February");
    check!("monthname"(s("2008-00-03")) => "NULL");
    check!("dayofweek"(s("2007-02-03")) => "7");
    check!("weekday"(s("2008-02-03 22:23:00")) => "6");
    check!("weekday"(s("2007-11-06")) => "1");
    check!("dayofyear"(s("2007-02-03")) => "34");
    check!("quarter"(s("2008-04-01")) => "2");
    check!("to_days"(i(950501)) => "728779");
    check!("to_days"(s("2007-10-07")) => "733321");
    check!("to_days"(s("0000-00-00")) => "NULL");
    assert_eq!(warnings("to_days", &[s("0000-00-00")]), [1292]);
    check!("from_days"(i(730669)) => "2000-07-03");
    check!("to_seconds"(i(950501)) => "62966505600");
    check!("to_seconds"(s("2009-11-29")) => "63426672000");
    check!("to_seconds"(s("2009-11-29 13:43:32")) => "63426721412");
    check!("last_day"(s("2003-02-05")) => "2003-02-28");
    check!("last_day"(s("2004-02-05")) => "2004-02-29");
    check!("last_day"(s("2004-01-01 01:01:01")) => "2004-01-31");
    check!("last_day"(s("2003-03-32")) => "NULL");
    check!("makedate"(i(2011), i(31)) => "2011-01-31");
    check!("makedate"(i(2011), i(32)) => "2011-02-01");
    check!("makedate"(i(2011), i(365)) => "2011-12-31");
    check!("makedate"(i(2014), i(365)) => "2014-12-31");
    check!("makedate"(i(2011), i(0)) => "NULL");
    check!("maketime"(i(12), i(15), i(30)) => "12:15:30");
    check!("maketime"(i(12), i(15), d("30.5")) => "12:15:30.5");
    check!("maketime"(i(900), i(0), i(0)) => "838:59:59");
    assert_eq!(warnings("maketime", &[i(900), i(0), i(0)]), [1292]);
    check!("sec_to_time"(i(2378)) => "00:39:38");
    check!("sec_to_time"(d("-2378.5")) => "-00:39:38.5");
    check!("time_to_sec"(s("22:23:00")) => "80580");
    check!("time_to_sec"(s("00:39:38")) => "2378");
    check!("time_to_sec"(s("-00:39:38")) => "-2378");
    check!("period_add"(i(200801), i(2)) => "200803");
    check!("period_add"(i(9912), i(3)) => "200003");
    check!("period_diff"(i(200802), i(200703)) => "11");
    assert_eq!(error("period_add", &[i(200813), i(1)]), 1210);
}

#[test]
fn weeks() {
    check!("week"(s("2008-02-20")) => "7");
    check!("week"(s("2008-02-20"), i(0)) => "7");
    check!("week"(s("2008-02-20"), i(1)) => "8");
    check!("week"(s("2008-12-31"), i(1)) => "53");
    check!("week"(s("2000-01-01"), i(0)) => "0");
    check!("week"(s("2000-01-01"), i(2)) => "52");
    check!("yearweek"(s("2000-01-01")) => "199952");
    check!("yearweek"(s("1987-01-01")) => "198652");
    check!("weekofyear"(s("2008-02-20")) => "8");
    check!("date_format"(s("1999-01-01"), s("%X %V")) => "1998 52");
    // All modes on a year boundary (checked against MariaDB).
    let got: Vec<String> = (0..8)
        .map(|m| show("week", &[s("2019-12-30"), i(m)]))
        .collect();
    assert_eq!(got, ["52", "53", "52", "1", "53", "52", "1", "52"]);
}

#[test]
fn intervals() {
    check!("date_add"(s("2018-05-01"), i(1), unit("DAY")) => "2018-05-02");
    check!("date_sub"(s("2018-05-01"), i(1), unit("YEAR")) => "2017-05-01");
    check!("date_add"(s("2020-12-31 23:59:59"), i(1), unit("SECOND")) => "2021-01-01 00:00:00");
    check!("date_add"(s("2018-12-31 23:59:59"), i(1), unit("DAY")) => "2019-01-01 23:59:59");
    check!("date_add"(s("2100-12-31 23:59:59"), s("1:1"), unit("MINUTE_SECOND"))
        => "2101-01-01 00:01:00");
    check!("date_sub"(s("2025-01-01 00:00:00"), s("1 1:1:1"), unit("DAY_SECOND"))
        => "2024-12-30 22:58:59");
    check!("date_add"(s("1900-01-01 00:00:00"), s("-1 10"), unit("DAY_HOUR"))
        => "1899-12-30 14:00:00");
    check!("date_sub"(s("1998-01-02"), i(31), unit("DAY")) => "1997-12-02");
    check!("date_add"(s("1992-12-31 23:59:59.000002"), s("1.999999"), unit("SECOND_MICROSECOND"))
        => "1993-01-01 00:00:01.000001");
    check!("date_add"(s("2024-03-30"), i(1), unit("MONTH")) => "2024-04-30");
    check!("date_add"(s("2024-03-31"), i(1), unit("MONTH")) => "2024-04-30");
    check!("date_add"(s("2020-01-01"), s("3"), unit("SECOND_MICROSECOND")) => "2020-01-01 00:00:00.300000");
    check!("date_add"(s("2020-01-01"), d("1.5"), unit("DAY")) => "2020-01-03");
    check!("date_add"(s("2020-01-01"), d("1.5"), unit("SECOND")) => "2020-01-01 00:00:01.500000");
    check!("date_add"(date("9999-12-31"), i(1), unit("DAY")) => "NULL");
    assert_eq!(
        warnings("date_add", &[date("9999-12-31"), i(1), unit("DAY")]),
        [1441]
    );
    check!("date_add"(s("0000-00-00"), i(1), unit("DAY")) => "NULL");
    check!("adddate"(s("2008-01-02"), i(31)) => "2008-02-02");
    check!("subdate"(s("2008-01-02"), i(31)) => "2007-12-02");
    check!("timestampadd"(unit("MINUTE"), i(1), s("2003-01-02")) => "2003-01-02 00:01:00");
    check!("timestampadd"(unit("WEEK"), i(1), s("2003-01-02")) => "2003-01-09");
    check!("timestampdiff"(unit("MONTH"), s("2003-02-01"), s("2003-05-01")) => "3");
    check!("timestampdiff"(unit("YEAR"), s("2002-05-01"), s("2001-01-01")) => "-1");
    check!("timestampdiff"(unit("MINUTE"), s("2003-02-01"), s("2003-05-01 12:05:55")) => "128885");
    check!("datediff"(s("2007-12-31 23:59:59"), s("2007-12-30")) => "1");
    check!("datediff"(s("2010-11-30 23:59:59"), s("2010-12-31")) => "-31");
    check!("addtime"(s("2007-12-31 23:59:59.999999"), s("1 1:1:1.000002"))
        => "2008-01-02 01:01:01.000001");
    check!("addtime"(s("01:00:00.999999"), s("02:00:00.999998")) => "03:00:01.999997");
    check!("subtime"(s("2007-12-31 23:59:59.999999"), s("1 1:1:1.000002"))
        => "2007-12-30 22:58:58.999997");
    check!("subtime"(s("01:00:00.999999"), s("02:00:00.999998")) => "-00:59:59.999999");
    check!("timediff"(s("2000-01-01 00:00:00"), s("2000-01-01 00:00:00.000001"))
        => "-00:00:00.000001");
    check!("timediff"(s("2008-12-31 23:59:59.000001"), s("2008-12-30 01:01:01.000002"))
        => "46:58:57.999999");
    check!("timediff"(date("2008-12-31"), tm("10:00:00")) => "NULL");
    check!("extract"(unit("YEAR"), s("2019-07-02")) => "2019");
    check!("extract"(unit("YEAR_MONTH"), s("2019-07-02 01:02:03")) => "201907");
    check!("extract"(unit("DAY_MINUTE"), s("2019-07-02 01:02:03")) => "20102");
    check!("extract"(unit("MICROSECOND"), s("2003-01-02 10:30:00.000123")) => "123");
    check!("extract"(unit("HOUR"), tm("-100:00:00")) => "-100");
}

#[test]
fn interval_result_types() {
    let ty = |args: &[Value], types: &[SqlType]| {
        let consts: Vec<Option<Value>> = args.iter().cloned().map(Some).collect();
        lookup("date_add")
            .expect("date_add")
            .result_type(types, &consts)
    };
    let int = SqlType::BIGINT;
    assert_eq!(
        ty(
            &[n(), i(1), unit("DAY")],
            &[SqlType::Date, int.clone(), int.clone()]
        ),
        SqlType::Date
    );
    assert_eq!(
        ty(
            &[n(), i(1), unit("HOUR")],
            &[SqlType::Date, int.clone(), int.clone()]
        ),
        SqlType::DateTime { fsp: 0 }
    );
    assert_eq!(
        ty(
            &[n(), i(1), unit("MICROSECOND")],
            &[SqlType::DateTime { fsp: 2 }, int.clone(), int.clone()]
        ),
        SqlType::DateTime { fsp: 6 }
    );
    assert_eq!(
        ty(
            &[n(), i(1), unit("HOUR")],
            &[SqlType::Time { fsp: 0 }, int.clone(), int.clone()]
        ),
        SqlType::Time { fsp: 0 }
    );
    assert_eq!(
        ty(
            &[n(), i(1), unit("DAY")],
            &[SqlType::Time { fsp: 0 }, int.clone(), int.clone()]
        ),
        SqlType::DateTime { fsp: 0 }
    );
    assert!(matches!(
        ty(
            &[s("2020-01-01"), i(1), unit("DAY")],
            &[SqlType::varchar(10), int.clone(), int]
        ),
        SqlType::VarChar { .. }
    ));
}

#[test]
fn formatting_and_parsing() {
    check!("date_format"(s("2009-10-04 22:23:00"), s("%W %M %Y")) => "Sunday October 2009");
    check!("date_format"(s("2007-10-04 22:23:00"), s("%H:%i:%s")) => "22:23:00");
    check!("date_format"(s("1900-10-04 22:23:00"), s("%D %y %a %d %m %b %j"))
        => "4th 00 Thu 04 10 Oct 277");
    check!("date_format"(s("1997-10-04 22:23:00"), s("%H %k %I %r %T %S %w"))
        => "22 22 10 10:23:00 PM 22:23:00 00 6");
    check!("date_format"(s("2006-06-00"), s("%d")) => "00");
    check!("date_format"(s("2006-00-01"), s("%M")) => "NULL");
    check!("date_format"(s("2006-06-01"), s("")) => "NULL");
    check!("date_format"(s("2006-06-01"), s("%z%")) => "z%");
    check!("time_format"(s("100:00:00"), s("%H %k %h %I %l")) => "100 100 04 04 4");
    check!("time_format"(s("10:00:00"), s("%W")) => "NULL");
    check!("from_unixtime"(i(1447430881)) => "2015-11-13 16:08:01");
    check!("from_unixtime"(i(1447430881), s("%Y %D %M %h:%i:%s %x"))
        => "2015 13th November 04:08:01 2015");
    check!("from_unixtime"(d("1.5")) => "1970-01-01 00:00:01.5");
    check!("from_unixtime"(i(-1)) => "NULL");
    check!("unix_timestamp"(s("2015-11-13 10:20:19")) => "1447410019");
    check!("unix_timestamp"(s("2015-11-13 10:20:19.012")) => "1447410019.012");
    check!("unix_timestamp"(s("1960-01-01")) => "0");
    check!("get_format"(s("DATE"), s("EUR")) => "%d.%m.%Y");
    check!("get_format"(s("DATETIME"), s("USA")) => "%Y-%m-%d %H.%i.%s");
    check!("get_format"(s("TIME"), s("internal")) => "%H%i%s");
    check!("get_format"(s("DATE"), s("XYZ")) => "NULL");
    check!("str_to_date"(s("01,5,2013"), s("%d,%m,%Y")) => "2013-05-01");
    check!("str_to_date"(s("May 1, 2013"), s("%M %d,%Y")) => "2013-05-01");
    check!("str_to_date"(s("a09:30:17"), s("a%h:%i:%s")) => "09:30:17");
    check!("str_to_date"(s("a09:30:17"), s("%h:%i:%s")) => "NULL");
    check!("str_to_date"(s("09:30:17a"), s("%h:%i:%s")) => "09:30:17");
    assert_eq!(
        warnings("str_to_date", &[s("09:30:17a"), s("%h:%i:%s")]),
        [1292]
    );
    check!("str_to_date"(s("10:11:12 PM"), s("%r")) => "22:11:12");
    check!("str_to_date"(s("2013-05-01 10:11:12.5"), s("%Y-%m-%d %H:%i:%s.%f"))
        => "2013-05-01 10:11:12.500000");
    check!("str_to_date"(s("2020 15 Wed"), s("%X %V %a")) => "2020-04-15");
    check!("str_to_date"(s("2020 100"), s("%Y %j")) => "2020-04-09");
    // MySQL 8.0's default sql_mode: zero dates and impossible days are NULL.
    check!("str_to_date"(s("abc"), s("abc")) => "NULL");
    check!("str_to_date"(s("9"), s("%m")) => "NULL");
    check!("str_to_date"(s("04/31/2004"), s("%m/%d/%Y")) => "NULL");
    let w = call("str_to_date", &[s("abc"), s("%Y")]).1;
    assert_eq!(w.list[0].code, 1411);
    assert_eq!(
        w.list[0].message,
        "Incorrect datetime value: 'abc' for function str_to_date"
    );
}

#[test]
fn time_zones() {
    check!("convert_tz"(s("2004-01-01 12:00:00"), s("+00:00"), s("+10:00")) => "2004-01-01 22:00:00");
    check!("convert_tz"(s("2004-01-01 12:00:00"), s("GMT"), s("MET")) => "NULL");
    check!("convert_tz"(s("2050-01-01 12:00:00"), s("+00:00"), s("+10:00")) => "2050-01-01 12:00:00");
    check!("convert_tz"(s("2004-01-01 12:00:00"), s("+14:01"), s("+10:00")) => "NULL");
    // FROM_UNIXTIME and UNIX_TIMESTAMP read the session offset.
    let mut diag = Diagnostics::default();
    let mut ctx = FnCtx {
        coll: crate::sql::types::Collation::DEFAULT,
        now_local: DateTime::ZERO,
        now_unix_micros: 0,
        tz_offset_s: 3600,
        div_precision_increment: 4,
        diag: &mut diag,
    };
    let b = lookup("from_unixtime").expect("from_unixtime");
    match (b.eval)(&[i(0)], &mut ctx) {
        Ok(Value::DateTime(d)) => {
            assert_eq!(temporal::format_datetime(&d, 0), "1970-01-01 01:00:00")
        }
        other => panic!("{other:?}"),
    }
    let b = lookup("unix_timestamp").expect("unix_timestamp");
    assert!(matches!(
        (b.eval)(&[s("1970-01-01 01:00:01")], &mut ctx),
        Ok(Value::Int(1))
    ));
}

#[test]
fn invalid_dates_warn_and_give_null() {
    let (r, d) = call("dayofweek", &[s("2020-13-01")]);
    assert!(matches!(r, Ok(Value::Null)));
    assert_eq!(d.list[0].level, Level::Warning);
    assert_eq!(d.list[0].code, 1292);
    assert_eq!(d.list[0].message, "Incorrect datetime value: '2020-13-01'");
    check!("year"(s("not a date")) => "NULL");
    check!("date"(s("2021-02-29")) => "NULL");
}

// ---------------------------------------------------------------------------------------
// Miscellaneous.

#[test]
fn misc_examples() {
    check!("inet_aton"(s("10.0.5.9")) => "167773449");
    check!("inet_aton"(s("127.1")) => "2130706433");
    check!("inet_aton"(s("1.2.3.4.5")) => "NULL");
    assert_eq!(warnings("inet_aton", &[s("1.2.3.4.5")]), [1411]);
    check!("inet_ntoa"(i(167773449)) => "10.0.5.9");
    check!("inet_ntoa"(i(-1)) => "NULL");
    let u = s("6ccd780c-baba-1026-9564-5b8c656024db");
    assert_eq!(
        hex_of("uuid_to_bin", std::slice::from_ref(&u)),
        "6CCD780CBABA102695645B8C656024DB"
    );
    assert_eq!(
        hex_of("uuid_to_bin", &[u.clone(), i(1)]),
        "1026BABA6CCD780C95645B8C656024DB"
    );
    let bin = call("uuid_to_bin", &[u.clone(), i(1)]).0.expect("bin");
    check!("bin_to_uuid"(bin.clone(), i(1)) => "6ccd780c-baba-1026-9564-5b8c656024db");
    check!("bin_to_uuid"(bin) => "1026baba-6ccd-780c-9564-5b8c656024db");
    assert_eq!(error("uuid_to_bin", &[s("nope")]), 1411);
    assert_eq!(error("bin_to_uuid", &[s("short")]), 1411);
    check!("is_uuid"(u) => "1");
    check!("is_uuid"(s("6ccd780c-baba-1026-9564-5b8c6560")) => "0");
    check!("is_uuid"(s("6ccd780cbaba102695645b8c656024db")) => "1");
    check!("is_uuid"(s("{6ccd780c-baba-1026-9564-5b8c656024db}")) => "1");
    check!("is_uuid"(n()) => "NULL");
    check!("isnull"(n()) => "1");
    check!("isnull"(i(2)) => "0");
    check!("json_valid"(s("{\"a\": 1}")) => "1");
    check!("json_valid"(s("hello")) => "0");
    check!("json_valid"(s("\"hello\"")) => "1");
    check!("json_quote"(s("null")) => "\"null\"");
    check!("json_quote"(s("\"null\"")) => "\"\\\"null\\\"\"");
    check!("json_quote"(s("[1, 2, 3]")) => "\"[1, 2, 3]\"");
    check!("json_quote"(s("a\tb\u{1}")) => "\"a\\tb\\u0001\"");
    assert_eq!(error("json_quote", &[i(1)]), 3064);
}

#[test]
fn uuids_are_version_1_and_unique() {
    let mut seen = std::collections::HashSet::new();
    for _ in 0..1000 {
        let u = show("uuid", &[]);
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "1", "{u}");
        assert!("89ab".contains(&u[19..20]), "{u}");
        assert!(seen.insert(u));
    }
    let a = call("uuid_short", &[]).0.expect("uuid_short");
    let b = call("uuid_short", &[]).0.expect("uuid_short");
    match (a, b) {
        (Value::UInt(a), Value::UInt(b)) => assert!(b > a),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// No panics on any input.

/// Hostile argument values: NULL, extremes, invalid UTF-8, empty and long strings, odd
/// temporals, every unit code and some that are not.
fn hostile_values() -> Vec<Value> {
    let mut v = vec![
        n(),
        i(0),
        i(1),
        i(-1),
        i(2),
        i(7),
        i(19),
        i(20),
        i(53),
        i(i64::MAX),
        i(i64::MIN),
        i(i32::MAX as i64 + 1),
        Value::UInt(u64::MAX),
        f(0.0),
        f(-0.0),
        f(1e308),
        f(-1e308),
        f(5e-324),
        f(f64::NAN),
        f(f64::INFINITY),
        f(2.5),
        Value::Float(3.5),
        d("1e80"),
        d("-1e80"),
        d("1e-80"),
        d("-0.5"),
        d("123456789012345678901234567890.123456789"),
        s(""),
        s(" "),
        s("abc"),
        s("%"),
        s("%Y-%m-%d %H:%i:%s.%f %p %r %T %U %u %V %v %X %x %W %a %D %j %w"),
        s("%r%T%#%@%."),
        s("2020-01-02 03:04:05.678901"),
        s("0000-00-00 00:00:00"),
        s("9999-12-31 23:59:59.999999"),
        s("-838:59:59"),
        s("1 2:3:4.5"),
        s("99999999999999999999999999"),
        s("-9223372036854775808"),
        s("1e400"),
        s("+00:00"),
        s("-13:59"),
        s("6ccd780c-baba-1026-9564-5b8c656024db"),
        s("{\"a\":[1,2,{\"b\":null}]}"),
        s("[[[[[[[[[["),
        s("1.2.3.4"),
        s("日本語😀"),
        Value::bytes(&[0xFF, 0xFE, 0xC3]),
        Value::bytes(&[0xE2, 0x82]),
        Value::bytes(&[b'a', 0, b'b', 0x1A]),
        Value::from_vec(vec![b'x'; 100_000]),
        Value::from_vec("é".repeat(10_000).into_bytes()),
        Value::Date(DateTime::ZERO),
        Value::Date(DateTime::date(2020, 0, 0)),
        Value::Date(DateTime::date(9999, 12, 31)),
        Value::Date(DateTime::date(0, 1, 1)),
        Value::DateTime(DateTime {
            year: 9999,
            month: 12,
            day: 31,
            hour: 23,
            minute: 59,
            second: 59,
            micro: 999_999,
        }),
        Value::DateTime(DateTime {
            micro: 500_000,
            ..DateTime::date(2020, 2, 29)
        }),
        Value::Time(Time {
            micros: Time::MAX_MICROS,
        }),
        Value::Time(Time {
            micros: -Time::MAX_MICROS,
        }),
        Value::Time(Time { micros: -1 }),
    ];
    // Invalid field values that a corrupted row could carry must not panic either.
    v.push(Value::Date(DateTime::date(u16::MAX, 255, 255)));
    v.push(Value::DateTime(DateTime {
        year: 10_000,
        month: 13,
        day: 32,
        hour: 25,
        minute: 61,
        second: 61,
        micro: u32::MAX,
    }));
    // (Not i64::MIN: `temporal::round_time` negates it; no TIME can hold it anyway.)
    v.push(Value::Time(Time {
        micros: 1_000_000_000_000_000,
    }));
    v.push(Value::Time(Time {
        micros: -1_000_000_000_000_000,
    }));
    v
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn no_function_panics_on_hostile_arguments() {
    let pool = hostile_values();
    let types: Vec<SqlType> = pool.iter().map(lit_type).collect();
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let mut calls = 0usize;
    for b in all() {
        let max = b.max_args.min(b.min_args + 3);
        for arity in b.min_args..=max {
            // Every value in every position, plus random combinations.
            let rounds = pool.len() * arity.max(1) + 150;
            for r in 0..rounds {
                let idx: Vec<usize> = (0..arity)
                    .map(|k| {
                        if r < pool.len() * arity.max(1) && k == r / pool.len() {
                            r % pool.len()
                        } else {
                            (rng.next() % pool.len() as u64) as usize
                        }
                    })
                    .collect();
                let args: Vec<Value> = idx.iter().map(|&k| pool[k].clone()).collect();
                let arg_types: Vec<SqlType> = idx.iter().map(|&k| types[k].clone()).collect();
                let consts: Vec<Option<Value>> = args.iter().cloned().map(Some).collect();
                let _ = b.result_type(&arg_types, &consts);
                let _ = b.result_type(&arg_types, &[]);
                let mut diag = Diagnostics::default();
                let mut ctx = FnCtx {
                    coll: crate::sql::types::Collation::DEFAULT,
                    now_local: temporal::datetime_from_unix_micros(NOW_MICROS, 0).expect("now"),
                    now_unix_micros: NOW_MICROS,
                    tz_offset_s: (rng.next() % 100_000) as i32 - 50_000,
                    div_precision_increment: 4,
                    diag: &mut diag,
                };
                if let Ok(v) = (b.eval)(&args, &mut ctx) {
                    // Whatever comes out must print.
                    let ty = b.result_type(&arg_types, &consts);
                    let mut out = Vec::new();
                    convert::to_text(&v, &ty, &mut out);
                    assert!(out.len() <= MAX_ALLOWED_PACKET, "{}", b.name);
                }
                calls += 1;
            }
        }
    }
    assert!(calls > 10_000, "{calls}");
}

#[test]
fn string_edge_cases_match_mariadb() {
    // Each checked against MariaDB 10.11 (same results as MySQL 8.0's code).
    check!("char"(i(77), d("77.3"), s("77.3")) => "MMM");
    assert_eq!(warnings("char", &[i(77), d("77.3"), s("77.3")]), [1292]);
    check!("substring"(s("abc"), i(2_147_483_648)) => "");
    check!("substring"(s("abc"), i(1), i(2_147_483_648)) => "abc");
    check!("left"(s("abc"), Value::UInt(u64::MAX)) => "abc");
    assert_eq!(hex_of("char", &[i(-1)]), "FFFFFFFF");
    check!("repeat"(s(""), i(100_000_000)) => "");
    check!("insert"(s("abc"), i(2), i(-1), s("X")) => "aX");
    check!("lpad"(s("abc"), i(2), s("")) => "ab");
    check!("quote"(Value::bytes(b"a\0\x1a\\")) => "'a\\0\\Z\\\\'");
    check!("format"(d("-0.001"), i(2)) => "0.00");
    check!("round"(d("-0.001"), i(2)) => "0.00");
    check!("conv"(s("-1"), i(-10), i(16)) => "FFFFFFFFFFFFFFFF");
    check!("conv"(s("ff"), i(16), i(-10)) => "255");
    check!("elt"(d("2.5"), s("a"), s("b"), s("c")) => "c");
    check!("field"(i(1), s("1"), s("a")) => "1");
    check!("strcmp"(s("a"), s("a ")) => "0");
}
