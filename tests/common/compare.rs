//! Running one statement on two servers and comparing what each did: the part of the
//! differential corpus (`tests/differential.rs`) that the random query generator
//! (`tests/random_queries.rs`) shares. Rules in `tests/differential/README.md`: result sets
//! as multisets unless the outermost query ends in ORDER BY, errors by number, warnings by
//! (level, code).

use super::{MYSQL8_SQL_MODE, TestServer};
use mysql::prelude::*;
use std::fmt::Write as _;
use std::time::Duration;

/// Does the outermost query end in ORDER BY (rows compared in order), or not (as multisets)?
pub fn ordered(sql: &str) -> bool {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut top = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            if c == '\\' && q != '`' {
                chars.next();
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => top.push(c.to_ascii_uppercase()),
            _ => top.push(' '),
        }
    }
    let words: Vec<&str> = top.split_whitespace().collect();
    words.windows(2).any(|w| w == ["ORDER", "BY"])
}

/// A result set: column names and rows, values as text.
pub type ResultSet = (Vec<String>, Vec<Vec<String>>);

/// What one statement did on one server, in comparable form.
#[derive(PartialEq, Eq, Debug, Clone)]
pub enum Outcome {
    Error(u16),
    Done {
        sets: Vec<ResultSet>,
        affected: u64,
        warnings: Vec<(String, u16)>,
    },
    /// The connection broke (the statement may or may not have run).
    Lost(String),
}

fn text(v: &mysql::Value) -> String {
    match v {
        mysql::Value::NULL => "NULL".to_string(),
        mysql::Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => s.to_string(),
            Err(_) => format!(
                "0x{}",
                b.iter().map(|x| format!("{x:02X}")).collect::<String>()
            ),
        },
        other => other.as_sql(true),
    }
}

/// Runs `sql` (text protocol) and returns what it did, rows sorted unless [`ordered`].
pub fn run(conn: &mut mysql::Conn, sql: &str) -> Outcome {
    let result = (|| -> mysql::Result<Vec<ResultSet>> {
        let mut sets = Vec::new();
        let mut res = conn.query_iter(sql)?;
        while let Some(set) = res.iter() {
            let cols: Vec<String> = set
                .columns()
                .as_ref()
                .iter()
                .map(|c| c.name_str().into_owned())
                .collect();
            let mut rows = Vec::new();
            for row in set {
                let row = row?;
                rows.push((0..row.len()).map(|i| text(&row[i])).collect());
            }
            if !cols.is_empty() {
                sets.push((cols, rows));
            }
        }
        Ok(sets)
    })();
    match result {
        Ok(mut sets) => {
            if !ordered(sql) {
                for (_, rows) in &mut sets {
                    rows.sort();
                }
            }
            let affected = conn.affected_rows();
            let warnings = if conn.warnings() > 0 {
                conn.query::<(String, u16, String), _>("SHOW WARNINGS")
                    .map(|w| w.into_iter().map(|(l, c, _)| (l, c)).collect())
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            Outcome::Done {
                sets,
                affected,
                warnings,
            }
        }
        Err(mysql::Error::MySqlError(e)) => Outcome::Error(e.code),
        Err(e) => Outcome::Lost(e.to_string()),
    }
}

/// An outcome for a failure message (at most a dozen rows per set).
pub fn describe(o: &Outcome) -> String {
    const MAX: usize = 12;
    match o {
        Outcome::Error(n) => format!("ERROR {n}"),
        Outcome::Lost(e) => format!("connection lost: {e}"),
        Outcome::Done {
            sets,
            affected,
            warnings,
        } => {
            let mut s = String::new();
            for (cols, rows) in sets {
                let _ = writeln!(s, "    [{}]", cols.join(" | "));
                for r in rows.iter().take(MAX) {
                    let _ = writeln!(s, "    {}", r.join(" | "));
                }
                if rows.len() > MAX {
                    let _ = writeln!(s, "    … {} rows in all", rows.len());
                }
            }
            if sets.is_empty() {
                let _ = writeln!(s, "    affected rows: {affected}");
            }
            if !warnings.is_empty() {
                let _ = writeln!(s, "    warnings: {warnings:?}");
            }
            s.trim_end().to_string()
        }
    }
}

/// The account both servers' comparison sessions use (root has no password on either,
/// but a plain user makes the two servers' privilege checks the same).
pub fn create_compare_user(server: &TestServer) {
    let mut c = server.mysql_conn();
    for sql in [
        "CREATE USER IF NOT EXISTS 'sb'@'%' IDENTIFIED BY 'sb'",
        "GRANT ALL ON *.* TO 'sb'@'%'",
    ] {
        c.query_drop(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

/// A fresh, empty database `db` on `server`.
pub fn fresh_database(server: &TestServer, db: &str) {
    let mut c = server.mysql_conn();
    c.query_drop(format!("DROP DATABASE IF EXISTS {db}"))
        .unwrap();
    c.query_drop(format!("CREATE DATABASE {db}")).unwrap();
}

/// A comparison session on `server` in database `db`: MySQL 8.0's sql_mode (MariaDB's
/// default differs) and UTC, as `tests/differential/README.md` says.
pub fn compare_session(server: &TestServer, db: &str) -> mysql::Conn {
    let opts = server
        .opts()
        .user(Some("sb"))
        .pass(Some("sb"))
        .db_name(Some(db))
        .read_timeout(Some(Duration::from_secs(60)))
        .init(vec![format!(
            "SET sql_mode = '{MYSQL8_SQL_MODE}', time_zone = '+00:00'"
        )]);
    mysql::Conn::new(opts).unwrap_or_else(|e| panic!("connect to {}{db}: {e}", server.url()))
}
