//! `log_output=TABLE`: the slow and general query logs as the tables `mysql.slow_log` and
//! `mysql.general_log`, with MySQL 8.0's columns.
//!
//! # Storage
//!
//! As in MySQL (whose log tables use the CSV engine), each table is a text file in the
//! data directory — `slow_log.CSV`, `general_log.CSV` — one row per line, fields separated
//! by commas: numbers bare, everything else in double quotes with `\\`, `\"`, `\n`, `\r` and
//! `\0` escaped. TIMESTAMP values are written in UTC (`"2026-11-22 10:11:12.123456"`) and
//! shown in the reading session's time zone, as a TIMESTAMP column is; TIME values as
//! `"hh:mm:ss.ffffff"`.
//!
//! Rows are written the way the log files are (see [`super`]): the session formats its row
//! outside any lock and hands it to the table's own writer thread (a [`super::sink::Sink`]
//! without header lines, same buffer size and full-buffer rule as the files). `log_output`
//! may name both: `FILE,TABLE` writes each entry to both.
//!
//! # Reading
//!
//! A statement that reads a log table first waits until every row handed over before it
//! is in the file (so it sees every entry logged before it, as in MySQL, where the row is
//! inserted before the statement returns), then reads the file and builds an in-memory
//! table for that statement: WHERE, joins, ORDER BY, aggregates work as on any table.
//! Plans that read a log table are not cached. A line that does not parse (the tail of a
//! write cut short by a full disk) is skipped.
//!
//! # What else
//!
//! `SHOW CREATE TABLE`/`DESCRIBE` show the definitions; `TRUNCATE TABLE` empties the file
//! (after the rows handed over before it are written). INSERT, UPDATE and DELETE are refused
//! with MySQL's error 1556 — only the server writes log tables. `FLUSH LOGS` does not touch
//! them (MySQL's doesn't either).
//!
//! # Columns
//!
//! `mysql.slow_log`: `start_time` (when the statement began), `user_host`
//! (`priv_user[user] @ host [ip]`, as the file's `# User@Host:` line), `query_time`,
//! `lock_time`, `rows_sent`, `rows_examined`, `db`, `last_insert_id`, `insert_id`,
//! `server_id`, `sql_text`, `thread_id`. `last_insert_id` and `insert_id` are always 0:
//! Quire does not record per statement which auto-increment values it used (the slow log
//! file leaves out the matching `SET insert_id=` line for the same reason). The summary
//! entry of `log_throttle_queries_not_using_indexes` goes to the file only.
//!
//! `mysql.general_log`: `event_time`, `user_host`, `thread_id`, `server_id`,
//! `command_type` (`Connect`, `Query`, `Execute`, …), `argument`.

use crate::sql::temporal;
use crate::sql::types::{BlobSize, Charset, Collation, IntWidth, SqlType};
use crate::sql::value::{Row, Time, Value};
use crate::storage::schema::{ColumnDef, ColumnDefault, TableDef};

/// One of the two log tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogTable {
    Slow,
    General,
}

impl LogTable {
    pub const ALL: [LogTable; 2] = [LogTable::General, LogTable::Slow];

    /// The log table `db`.`name` names, if any (names are case-sensitive, as table names
    /// are on Linux).
    pub fn named(db: &str, name: &str) -> Option<LogTable> {
        if !db.eq_ignore_ascii_case("mysql") {
            return None;
        }
        match name {
            "slow_log" => Some(LogTable::Slow),
            "general_log" => Some(LogTable::General),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LogTable::Slow => "slow_log",
            LogTable::General => "general_log",
        }
    }

    /// The file in the data directory.
    pub fn file_name(self) -> &'static str {
        match self {
            LogTable::Slow => "slow_log.CSV",
            LogTable::General => "general_log.CSV",
        }
    }

    /// MySQL 8.0's definition of the table.
    pub fn def(self) -> TableDef {
        let utf8 = Collation::Utf8mb3GeneralCi;
        let col =
            |name: &str, ty: SqlType, default: ColumnDefault, on_update_now: bool| ColumnDef {
                name: name.to_string(),
                ty,
                nullable: false,
                default,
                auto_increment: false,
                on_update_now,
                comment: String::new(),
            };
        let time = |name: &str| col(name, SqlType::Time { fsp: 6 }, ColumnDefault::None, false);
        let int = |name: &str| col(name, SqlType::INT, ColumnDefault::None, false);
        let text = |name: &str| {
            col(
                name,
                SqlType::Text {
                    size: BlobSize::Medium,
                    collation: utf8,
                },
                ColumnDefault::None,
                false,
            )
        };
        let blob = |name: &str| {
            col(
                name,
                SqlType::Blob {
                    size: BlobSize::Medium,
                },
                ColumnDefault::None,
                false,
            )
        };
        let stamp = |name: &str| {
            col(
                name,
                SqlType::Timestamp { fsp: 6 },
                ColumnDefault::CurrentTimestamp(6),
                true,
            )
        };
        let server_id = col(
            "server_id",
            SqlType::Int {
                width: IntWidth::Int,
                unsigned: true,
                zerofill: false,
                display: None,
            },
            ColumnDefault::None,
            false,
        );
        let thread_id = col(
            "thread_id",
            SqlType::BIGINT_UNSIGNED,
            ColumnDefault::None,
            false,
        );
        let (columns, comment) = match self {
            LogTable::Slow => (
                vec![
                    stamp("start_time"),
                    text("user_host"),
                    time("query_time"),
                    time("lock_time"),
                    int("rows_sent"),
                    int("rows_examined"),
                    col(
                        "db",
                        SqlType::VarChar {
                            len: 512,
                            collation: utf8,
                        },
                        ColumnDefault::None,
                        false,
                    ),
                    int("last_insert_id"),
                    int("insert_id"),
                    server_id,
                    blob("sql_text"),
                    thread_id,
                ],
                "Slow log",
            ),
            LogTable::General => (
                vec![
                    stamp("event_time"),
                    text("user_host"),
                    thread_id,
                    server_id,
                    col(
                        "command_type",
                        SqlType::VarChar {
                            len: 64,
                            collation: utf8,
                        },
                        ColumnDefault::None,
                        false,
                    ),
                    blob("argument"),
                ],
                "General log",
            ),
        };
        TableDef {
            db: "mysql".to_string(),
            name: self.name().to_string(),
            columns,
            primary: None,
            indexes: Vec::new(),
            engine: "CSV".to_string(),
            charset: Charset::Utf8mb3,
            collation: utf8,
            comment: comment.to_string(),
            auto_increment_start: 1,
            foreign_keys: Vec::new(),
        }
    }
}

/// The `user_host` value from the session's `# User@Host: …  Id: n` line.
pub fn user_host(line: &str) -> &str {
    let s = line.strip_prefix("# User@Host: ").unwrap_or(line);
    s.rsplit_once("  Id:").map_or(s.trim_end(), |(u, _)| u)
}

/// Appends a quoted, escaped string field.
fn push_str(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    let mut run = 0;
    for (i, &b) in s.iter().enumerate() {
        let esc = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            0 => b'0',
            _ => continue,
        };
        out.extend_from_slice(&s[run..i]);
        out.extend_from_slice(&[b'\\', esc]);
        run = i + 1;
    }
    out.extend_from_slice(&s[run..]);
    out.push(b'"');
}

fn push_u64(out: &mut Vec<u8>, v: u64) {
    crate::sql::convert::write_u64(v, out);
}

/// Appends a TIMESTAMP(6) field: the UTC date and time of `unix_us`.
fn push_stamp(out: &mut Vec<u8>, unix_us: i64) {
    let dt = temporal::datetime_from_unix_micros(unix_us, 0).unwrap_or_default();
    push_str(out, temporal::format_datetime(&dt, 6).as_bytes());
}

/// Appends a TIME(6) field of `us` microseconds (clamped to TIME's range).
fn push_time(out: &mut Vec<u8>, us: u64) {
    let t = Time {
        micros: us.min(Time::MAX_MICROS as u64) as i64,
    };
    push_str(out, temporal::format_time(t, 6).as_bytes());
}

/// A `mysql.slow_log` row.
pub struct SlowRow<'a> {
    pub start_us: i64,
    pub user_host: &'a str,
    pub query_us: u64,
    pub lock_us: u64,
    pub rows_sent: u64,
    pub rows_examined: u64,
    pub db: &'a str,
    pub server_id: u64,
    pub sql_text: &'a [u8],
    pub thread_id: u32,
}

/// Appends one `mysql.slow_log` row (a line).
pub fn format_slow(out: &mut Vec<u8>, r: &SlowRow) {
    push_stamp(out, r.start_us);
    out.push(b',');
    push_str(out, r.user_host.as_bytes());
    out.push(b',');
    push_time(out, r.query_us);
    out.push(b',');
    push_time(out, r.lock_us);
    for v in [r.rows_sent, r.rows_examined] {
        out.push(b',');
        push_u64(out, v.min(i32::MAX as u64));
    }
    out.push(b',');
    push_str(out, r.db.as_bytes());
    out.extend_from_slice(b",0,0,");
    push_u64(out, r.server_id);
    out.push(b',');
    push_str(out, r.sql_text);
    out.push(b',');
    push_u64(out, u64::from(r.thread_id));
    out.push(b'\n');
}

/// Appends one `mysql.general_log` row (a line).
pub fn format_general(
    out: &mut Vec<u8>,
    event_us: i64,
    user_host: &str,
    thread_id: u32,
    server_id: u64,
    command: &str,
    argument: &[u8],
) {
    push_stamp(out, event_us);
    out.push(b',');
    push_str(out, user_host.as_bytes());
    out.push(b',');
    push_u64(out, u64::from(thread_id));
    out.push(b',');
    push_u64(out, server_id);
    out.push(b',');
    push_str(out, command.as_bytes());
    out.push(b',');
    push_str(out, argument);
    out.push(b'\n');
}

/// The fields of one line: quoted fields unescaped, bare ones as they are. None if the
/// line is malformed.
fn fields(line: &[u8]) -> Option<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        let mut f = Vec::new();
        if line.get(i) == Some(&b'"') {
            i += 1;
            loop {
                match *line.get(i)? {
                    b'"' => {
                        i += 1;
                        break;
                    }
                    b'\\' => {
                        f.push(match *line.get(i + 1)? {
                            b'n' => b'\n',
                            b'r' => b'\r',
                            b'0' => 0,
                            c => c,
                        });
                        i += 2;
                    }
                    c => {
                        f.push(c);
                        i += 1;
                    }
                }
            }
        } else {
            let end = line[i..]
                .iter()
                .position(|&c| c == b',')
                .map_or(line.len(), |p| i + p);
            f.extend_from_slice(&line[i..end]);
            i = end;
        }
        out.push(f);
        match line.get(i) {
            None => return Some(out),
            Some(b',') => i += 1,
            Some(_) => return None,
        }
    }
}

/// A field as a value of column type `ty`; None if it does not parse.
fn value(f: &[u8], ty: &SqlType, tz_offset_s: i32) -> Option<Value> {
    Some(match ty {
        SqlType::Timestamp { .. } => {
            let utc = temporal::parse_datetime(f).ok()?.value;
            let us = temporal::unix_micros_from_datetime(&utc, 0)?;
            Value::DateTime(temporal::datetime_from_unix_micros(us, tz_offset_s)?)
        }
        SqlType::Time { .. } => Value::Time(temporal::parse_time(f).ok()?.value),
        SqlType::Int { unsigned: true, .. } => {
            Value::UInt(std::str::from_utf8(f).ok()?.parse().ok()?)
        }
        SqlType::Int { .. } => Value::Int(std::str::from_utf8(f).ok()?.parse().ok()?),
        _ => Value::bytes(f),
    })
}

/// The rows of a log table's file, with TIMESTAMPs in the time zone `tz_offset_s`.
pub fn parse(def: &TableDef, data: &[u8], tz_offset_s: i32) -> Vec<Row> {
    let mut rows = Vec::new();
    for line in data.split(|&b| b == b'\n') {
        if line.is_empty() {
            continue;
        }
        let Some(fs) = fields(line) else {
            continue;
        };
        if fs.len() != def.columns.len() {
            continue;
        }
        let row: Option<Vec<Value>> = fs
            .iter()
            .zip(&def.columns)
            .map(|(f, c)| value(f, &c.ty, tz_offset_s))
            .collect();
        if let Some(r) = row {
            rows.push(r.into());
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values have no `PartialEq`: compare what they print as.
    fn same(a: &Value, b: &Value) -> bool {
        format!("{a:?}") == format!("{b:?}")
    }

    #[test]
    fn slow_rows_read_back_as_written() {
        let def = LogTable::Slow.def();
        let mut out = Vec::new();
        format_slow(
            &mut out,
            &SlowRow {
                start_us: 1_715_363_076_400_424,
                user_host: "sb[sb] @  [127.0.0.1]",
                query_us: 1_500_002,
                lock_us: 7,
                rows_sent: 1,
                rows_examined: 10,
                db: "sbtest",
                server_id: 1,
                sql_text: b"SELECT \"a\\b\",\n'c,d'\0",
                thread_id: 12,
            },
        );
        out.extend_from_slice(b"\"2024-05-10 17:44:36.4\",\"cut sh"); // a torn last line
        let rows = parse(&def, &out, 3600);
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(
            temporal::format_datetime(
                match &r[0] {
                    Value::DateTime(d) => d,
                    v => panic!("{v:?}"),
                },
                6
            ),
            "2024-05-10 18:44:36.400424"
        );
        assert!(same(&r[1], &Value::str("sb[sb] @  [127.0.0.1]")));
        assert!(same(&r[2], &Value::Time(Time { micros: 1_500_002 })));
        assert!(same(&r[3], &Value::Time(Time { micros: 7 })));
        assert!(same(&r[4], &Value::Int(1)) && same(&r[5], &Value::Int(10)));
        assert!(same(&r[6], &Value::str("sbtest")));
        assert!(same(&r[7], &Value::Int(0)) && same(&r[8], &Value::Int(0)));
        assert!(same(&r[9], &Value::UInt(1)));
        assert!(same(&r[10], &Value::bytes(b"SELECT \"a\\b\",\n'c,d'\0")));
        assert!(same(&r[11], &Value::UInt(12)));
    }

    #[test]
    fn general_rows_read_back_as_written() {
        let def = LogTable::General.def();
        let mut out = Vec::new();
        format_general(
            &mut out,
            0,
            "u[u] @ localhost []",
            5,
            2,
            "Query",
            b"SELECT 1",
        );
        format_general(
            &mut out,
            1_000_000,
            "u[u] @ localhost []",
            5,
            2,
            "Quit",
            b"",
        );
        let rows = parse(&def, &out, 0);
        assert_eq!(rows.len(), 2);
        assert!(same(&rows[0][4], &Value::str("Query")));
        assert!(same(&rows[0][5], &Value::str("SELECT 1")));
        assert!(same(&rows[1][2], &Value::UInt(5)));
        assert!(same(&rows[1][5], &Value::str("")));
    }

    #[test]
    fn user_host_is_the_lines_middle() {
        assert_eq!(
            user_host("# User@Host: root[root] @ localhost []  Id:    12\n"),
            "root[root] @ localhost []"
        );
        assert_eq!(LogTable::named("mysql", "slow_log"), Some(LogTable::Slow));
        assert_eq!(LogTable::named("mysql", "SLOW_LOG"), None);
        assert_eq!(LogTable::named("test", "general_log"), None);
    }
}
