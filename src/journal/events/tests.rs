use super::*;
use crate::sql::types::Collation;
use crate::sql::value::Time;
use std::process::Command;
use std::str::FromStr;
use std::sync::Arc;

fn dec(s: &str) -> BigDecimal {
    BigDecimal::from_str(s).unwrap()
}

fn decimal_bytes(s: &str, p: u8, sc: u8) -> Vec<u8> {
    let mut b = Vec::new();
    put_decimal(&mut b, &dec(s), p, sc);
    b
}

/// The example in MySQL's `decimal2bin` comment, and its negation.
#[test]
fn binary_decimal_matches_mysql() {
    assert_eq!(
        decimal_bytes("1234567890.1234", 14, 4),
        [0x81, 0x0D, 0xFB, 0x38, 0xD2, 0x04, 0xD2]
    );
    assert_eq!(
        decimal_bytes("-1234567890.1234", 14, 4),
        [0x7E, 0xF2, 0x04, 0xC7, 0x2D, 0xFB, 0x2D]
    );
    // DECIMAL(5,2): 3 integer digits (2 bytes) + 2 fraction digits (1 byte).
    assert_eq!(decimal_bytes("0", 5, 2), [0x80, 0x00, 0x00]);
    assert_eq!(decimal_bytes("1.5", 5, 2), [0x80, 0x01, 0x32]);
}

#[test]
fn events_have_size_log_pos_and_checksum() {
    let mut b = EventBuf::new(4, 7, true);
    b.format_description(1_700_000_000, "5.7.99-Quire-test", false);
    b.xid(1_700_000_000, 42);
    let fde_len = u32::from_le_bytes(b.bytes[9..13].try_into().unwrap()) as usize;
    assert_eq!(fde_len, 19 + 2 + 50 + 4 + 1 + 38 + 1 + 4);
    let log_pos = u32::from_le_bytes(b.bytes[13..17].try_into().unwrap());
    assert_eq!(log_pos as usize, 4 + fde_len);
    let crc = u32::from_le_bytes(b.bytes[fde_len - 4..fde_len].try_into().unwrap());
    assert_eq!(crc, crc32fast::hash(&b.bytes[..fde_len - 4]));
    assert_eq!(b.end_pos(), 4 + b.len() as u64);

    // Moving the buffer rewrites every log_pos and checksum.
    let mut moved = b.clone();
    moved.place(1000);
    let xid_at = fde_len;
    let xid_len = b.len() - fde_len;
    let pos = u32::from_le_bytes(moved.bytes[xid_at + 13..xid_at + 17].try_into().unwrap());
    assert_eq!(pos as usize, 1000 + b.len());
    let end = xid_at + xid_len;
    let crc = u32::from_le_bytes(moved.bytes[end - 4..end].try_into().unwrap());
    assert_eq!(crc, crc32fast::hash(&moved.bytes[xid_at..end - 4]));
}

fn columns() -> Vec<(SqlType, bool)> {
    let utf8 = Collation::Utf8mb4GeneralCi;
    vec![
        (
            SqlType::Int {
                width: IntWidth::Int,
                unsigned: false,
                zerofill: false,
                display: None,
            },
            false,
        ),
        (
            SqlType::Int {
                width: IntWidth::Big,
                unsigned: false,
                zerofill: false,
                display: None,
            },
            true,
        ),
        (
            SqlType::Decimal {
                precision: 10,
                scale: 2,
                unsigned: false,
            },
            true,
        ),
        (SqlType::Double { unsigned: false }, true),
        (
            SqlType::VarChar {
                len: 100,
                collation: utf8,
            },
            true,
        ),
        (
            SqlType::Char {
                len: 10,
                collation: utf8,
            },
            true,
        ),
        (
            SqlType::Text {
                size: BlobSize::Normal,
                collation: utf8,
            },
            true,
        ),
        (SqlType::Date, true),
        (SqlType::DateTime { fsp: 3 }, true),
        (SqlType::Time { fsp: 0 }, true),
        (SqlType::Year, true),
        (
            SqlType::Enum {
                values: vec!["red".into(), "green".into()],
                collation: utf8,
            },
            true,
        ),
    ]
}

fn text(s: &str) -> Value {
    Value::Bytes(Arc::from(s.as_bytes()))
}

/// A small file — format description, DDL, one transaction with an insert, an update and a
/// delete, a rotate — decoded by the real `mariadb-binlog -v`, with and without checksums.
#[test]
fn mariadb_binlog_decodes_what_we_write() {
    let have = Command::new("mariadb-binlog")
        .arg("--version")
        .output()
        .is_ok();
    if !have {
        if std::env::var("QUIRE_REQUIRE_EXTERNAL").is_ok_and(|v| v == "1") {
            panic!("mariadb-binlog is required (QUIRE_REQUIRE_EXTERNAL=1) but missing");
        }
        eprintln!("*** SKIPPED: mariadb-binlog is missing ***");
        return;
    }
    for checksum in [true, false] {
        let ts = 1_700_000_000;
        let mut b = EventBuf::new(4, 1, checksum);
        b.format_description(ts, "5.7.99-Quire-test", false);
        let q = QueryContext {
            thread_id: 9,
            exec_time: 0,
            db: "d",
            error_code: 0,
            flags2: 0,
            sql_mode: 0,
            charset: [45, 45, 45],
        };
        b.query(ts, &q, "CREATE TABLE t (a INT PRIMARY KEY)");
        b.query(ts, &q, "BEGIN");
        let cols = columns();
        let t = TableMap {
            table_id: 70,
            db: "d",
            table: "t",
            columns: &cols,
        };
        let row1 = vec![
            Value::Int(1),
            Value::Int(-5_000_000_000),
            Value::Decimal(Box::new(dec("-12345.67"))),
            Value::Double(2.5),
            text("héllo"),
            text("ab"),
            text("long text"),
            Value::Date(DateTime::date(2024, 2, 29)),
            Value::DateTime(DateTime {
                year: 2024,
                month: 12,
                day: 31,
                hour: 23,
                minute: 59,
                second: 58,
                micro: 123_000,
            }),
            Value::Time(Time {
                micros: -(3 * 3600 + 4 * 60 + 5) * 1_000_000,
            }),
            Value::Int(2021),
            text("green"),
        ];
        let mut row2 = vec![Value::Null; cols.len()];
        row2[0] = Value::Int(2);
        b.table_map(ts, &t);
        b.rows(
            ts,
            RowsKind::Write,
            &t,
            [row1.as_slice(), row2.as_slice()],
            true,
        );
        let mut row2b = row2.clone();
        row2b[1] = Value::Int(77);
        b.table_map(ts, &t);
        b.rows(
            ts,
            RowsKind::Update,
            &t,
            [row2.as_slice(), row2b.as_slice()],
            true,
        );
        b.table_map(ts, &t);
        b.rows(ts, RowsKind::Delete, &t, [row1.as_slice()], true);
        b.xid(ts, 5);
        b.rotate(ts, "binlog.000002");

        let dir =
            std::env::temp_dir().join(format!("quire-events-{}-{checksum}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("binlog.000001");
        let mut file = MAGIC.to_vec();
        file.extend_from_slice(&b.bytes);
        std::fs::write(&path, &file).unwrap();
        let out = Command::new("mariadb-binlog")
            .args(["--no-defaults", "-v", "--base64-output=decode-rows"])
            .arg(&path)
            .output()
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "checksum={checksum}: {stderr}\n{stdout}"
        );
        assert!(
            !stderr.contains("ERROR") && !stderr.contains("WARNING"),
            "{stderr}"
        );
        for want in [
            "CREATE TABLE t (a INT PRIMARY KEY)",
            "### INSERT INTO `d`.`t`",
            "###   @1=1",
            "###   @2=-5000000000",
            "###   @3=-12345.67",
            "###   @4=2.5",
            "###   @5='héllo'",
            "###   @6='ab'",
            "###   @7='long text'",
            "###   @8='2024:02:29'",
            "###   @9='2024-12-31 23:59:58.123'",
            "###   @10='-03:04:05'",
            "###   @11=2021",
            "###   @12=2",
            "###   @2=NULL",
            "### UPDATE `d`.`t`",
            "###   @2=77",
            "### DELETE FROM `d`.`t`",
            "Xid = 5",
            "Rotate to binlog.000002",
        ] {
            assert!(
                stdout.contains(want),
                "checksum={checksum}: no {want:?} in\n{stdout}"
            );
        }
    }
}

#[test]
fn filler_checksum_is_zero_with_its_patch() {
    let f = Filler::new();
    for (at, end) in [
        (4u64, 4 + FILLER_MIN),
        (4, 5 + FILLER_MIN),
        (100, 4096),
        (1234, 1 << 20),
        (7, 3 << 20 | 12345),
        (123, (1 << 28) | 77),
    ] {
        let (h, patch) = f.event(1_700_000_000, 9, at, end, true);
        let patch = patch.unwrap();
        let n = (end - at) as usize;
        // The event's bytes but its zeros: their checksum, carried over the zeros.
        let mut crc = crc32fast::Hasher::new();
        crc.update(&h);
        crc.update(&patch);
        let mut left = n - HEADER_LEN - 8;
        let zeros = vec![0u8; 1 << 20];
        while left > 0 {
            let k = left.min(zeros.len());
            crc.update(&zeros[..k]);
            left -= k;
        }
        assert_eq!(crc.finalize(), 0, "{at}..{end}");
        if n < 1 << 22 {
            let mut ev = vec![0u8; n];
            ev[..HEADER_LEN].copy_from_slice(&h);
            ev[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&patch);
            assert_eq!(event_size(&ev), n);
            assert_eq!(event_crc(&ev), 0, "{at}..{end}");
            assert!(is_filler(
                ev[4],
                u16::from_le_bytes([ev[17], ev[18]]),
                &ev[19..]
            ));
        }
    }
    assert_eq!(f.event(0, 1, 4, 100, false).1, None);
}

/// The arithmetic paths (precision ≤ 38; 64-bit for small values) give the same bytes as the decimal-text path.
#[test]
fn decimal_groups_agree_with_the_text_path() {
    use bigdecimal::num_bigint::BigUint;
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for p in 1..=38usize {
        for s in 0..=p.min(30) {
            for _ in 0..20 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v =
                    (u128::from(x) << 64 | u128::from(x.rotate_left(17))) % 10u128.pow(p as u32);
                let (mut fast, mut text) = (Vec::new(), Vec::new());
                put_decimal_u128(&mut fast, v, p - s, s);
                put_decimal_text(&mut text, &BigUint::from(v), p, s);
                assert_eq!(fast, text, "DECIMAL({p},{s}) digits {v}");
                // The 64-bit path, on the same digits cut to a u64 (and to p digits).
                let small = (v % (1u128 << 64)) % 10u128.pow(p as u32);
                if s <= 18 {
                    let (mut fast, mut text) = (Vec::new(), Vec::new());
                    put_decimal_u64(&mut fast, small as u64, p - s, s);
                    put_decimal_text(&mut text, &BigUint::from(small), p, s);
                    assert_eq!(fast, text, "DECIMAL({p},{s}) digits {small} (u64)");
                }
            }
        }
    }
}
