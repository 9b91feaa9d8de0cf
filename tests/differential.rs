//! Differential testing: every `tests/differential/*.sql` file runs against Quire and a
//! private MariaDB 10.11, and the outcomes are compared statement by statement (result
//! sets, affected rows, error numbers, warnings). The file format, the comparison rules and
//! the list of allowed differences are in `tests/differential/README.md`.
//!
//! `QUIRE_DIFF_SHOW=1` prints how each `-- todo:` statement differs.
//! `QUIRE_DIFF_MARK=1` rewrites the `-- todo:` markers instead of failing on them; `QUIRE_DIFF_ONLY=name`
//! runs one file.

mod common;

use common::*;
use mysql::prelude::*;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// MySQL 8.0's default sql_mode, set on both servers (MariaDB's default differs).
const SQL_MODE: &str = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,\
                        ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";

/// Most `-- allow:` markers the corpus may hold (issue 6's acceptance).
const MAX_ALLOWED: usize = 20;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mark {
    None,
    Allow,
    Todo,
}

/// One statement of a corpus file.
struct Stmt {
    /// Its text, without the final `;`.
    sql: String,
    /// 0-based line of its first line.
    first_line: usize,
    /// 0-based lines of its marker comments (directly above `first_line`).
    marker_lines: Vec<usize>,
    mark: Mark,
}

fn parse(text: &str) -> Vec<Stmt> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut buf = String::new();
    let mut first = None;
    let mut markers: Vec<(usize, Mark)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if first.is_none() {
            if t.is_empty() {
                markers.clear();
                continue;
            }
            if let Some(c) = t.strip_prefix("--") {
                let c = c.trim_start();
                if c.starts_with("allow:") {
                    markers.push((i, Mark::Allow));
                } else if c.starts_with("todo:") {
                    markers.push((i, Mark::Todo));
                } else {
                    markers.clear();
                }
                continue;
            }
            first = Some(i);
        }
        if !buf.is_empty() {
            buf.push('\n');
        }
        buf.push_str(line);
        if t.ends_with(';') {
            let sql = buf.trim_end().trim_end_matches(';').trim().to_string();
            let mark = markers.last().map_or(Mark::None, |m| m.1);
            out.push(Stmt {
                sql,
                first_line: first.take().unwrap_or(i),
                marker_lines: markers.drain(..).map(|m| m.0).collect(),
                mark,
            });
            buf.clear();
        }
    }
    assert!(
        buf.trim().is_empty(),
        "a statement at the end does not end with `;`: {buf}"
    );
    out
}

/// Does the outermost query end in ORDER BY (rows compared in order), or not (as multisets)?
fn ordered(sql: &str) -> bool {
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
type ResultSet = (Vec<String>, Vec<Vec<String>>);

/// What one statement did on one server, in comparable form.
#[derive(PartialEq, Eq, Debug, Clone)]
enum Outcome {
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

fn run(conn: &mut mysql::Conn, sql: &str) -> Outcome {
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

fn describe(o: &Outcome) -> String {
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

/// A session on `server` for corpus file `db`, as the README says.
fn session(server: &TestServer, db: &str) -> mysql::Conn {
    let opts = server
        .opts()
        .user(Some("sb"))
        .pass(Some("sb"))
        .db_name(Some(db))
        .read_timeout(Some(Duration::from_secs(60)))
        .init(vec![format!(
            "SET sql_mode = '{SQL_MODE}', time_zone = '+00:00'"
        )]);
    mysql::Conn::new(opts).unwrap_or_else(|e| panic!("connect to {}{db}: {e}", server.url()))
}

fn prepare(server: &TestServer, db: &str) {
    let mut c = server.mysql_conn();
    c.query_drop(format!("DROP DATABASE IF EXISTS {db}"))
        .unwrap();
    c.query_drop(format!("CREATE DATABASE {db}")).unwrap();
}

fn corpus() -> Vec<PathBuf> {
    let dir = tests_dir().join("differential");
    let only = std::env::var("QUIRE_DIFF_ONLY").ok();
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .filter(|p| {
            only.as_deref()
                .is_none_or(|o| p.file_stem().is_some_and(|s| s == o))
        })
        .collect();
    files.sort();
    files
}

/// The file with its `todo` markers rewritten to the outcome of this run.
fn remark(text: &str, stmts: &[Stmt], differs: &[bool]) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut drop = vec![false; lines.len()];
    let mut add_before = vec![false; lines.len()];
    for (s, &d) in stmts.iter().zip(differs) {
        match (s.mark, d) {
            (Mark::Todo, false) => {
                for &l in &s.marker_lines {
                    if lines[l]
                        .trim_start()
                        .trim_start_matches('-')
                        .trim_start()
                        .starts_with("todo:")
                    {
                        drop[l] = true;
                    }
                }
            }
            (Mark::None, true) => add_before[s.first_line] = true,
            _ => {}
        }
    }
    let mut out = String::with_capacity(text.len() + 64);
    for (i, l) in lines.iter().enumerate() {
        if add_before[i] {
            out.push_str("-- todo: differs\n");
        }
        if !drop[i] {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

struct Tally {
    statements: usize,
    allowed: Vec<String>,
    todo: Vec<String>,
    /// Unmarked statements that differ, and marked ones that no longer do.
    failures: Vec<String>,
}

fn run_file(
    path: &Path,
    quire: &mut TestServer,
    maria: &TestServer,
    mark: bool,
    tally: &mut Tally,
) {
    let name = path.file_stem().unwrap().to_string_lossy().to_string();
    let text = fs::read_to_string(path).unwrap();
    let stmts = parse(&text);
    let db = format!("d_{name}");
    prepare(quire, &db);
    prepare(maria, &db);
    let mut q = session(quire, &db);
    let mut m = session(maria, &db);
    let mut differs = Vec::with_capacity(stmts.len());
    let show_todo = std::env::var_os("QUIRE_DIFF_SHOW").is_some();
    for s in &stmts {
        let got = run(&mut q, &s.sql);
        let want = run(&mut m, &s.sql);
        if let Outcome::Lost(_) = got {
            quire.assert_alive(&format!(
                "{}:{}: {}",
                path.display(),
                s.first_line + 1,
                s.sql
            ));
            q = session(quire, &db);
        }
        if let Outcome::Lost(e) = &want {
            panic!(
                "MariaDB lost the connection at {name}:{}: {e}",
                s.first_line + 1
            );
        }
        let d = got != want;
        differs.push(d);
        let at = format!("{name}.sql:{}", s.first_line + 1);
        tally.statements += 1;
        match (s.mark, d) {
            (Mark::Allow, true) => tally.allowed.push(at),
            (Mark::Todo, true) => {
                if show_todo {
                    eprintln!(
                        "{at} (todo): {}\n  Quire:\n{}\n  MariaDB:\n{}",
                        s.sql,
                        describe(&got),
                        describe(&want)
                    );
                }
                tally.todo.push(at)
            }
            (Mark::None, false) => {}
            (Mark::None, true) => {
                if !mark {
                    tally.failures.push(format!(
                        "{at}: {}\n  Quire:\n{}\n  MariaDB:\n{}",
                        s.sql,
                        describe(&got),
                        describe(&want)
                    ));
                }
            }
            (_, false) => {
                if s.mark == Mark::Allow || !mark {
                    tally.failures.push(format!(
                        "{at}: marked `{:?}` but Quire and MariaDB now agree: remove the marker\n  {}",
                        s.mark, s.sql
                    ));
                }
            }
        }
    }
    if mark {
        let new = remark(&text, &stmts, &differs);
        if new != text {
            fs::write(path, new).unwrap();
        }
    }
}

#[test]
fn corpus_matches_mariadb() {
    if !require_tool("mariadbd") {
        return;
    }
    let mut quire = TestServer::start();
    let maria = TestServer::start_mariadb(&[]);
    for server in [&quire, &maria] {
        let mut c = server.mysql_conn();
        for sql in [
            "CREATE USER IF NOT EXISTS 'sb'@'%' IDENTIFIED BY 'sb'",
            "GRANT ALL ON *.* TO 'sb'@'%'",
        ] {
            c.query_drop(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
    }
    let mark = std::env::var_os("QUIRE_DIFF_MARK").is_some();
    let mut tally = Tally {
        statements: 0,
        allowed: Vec::new(),
        todo: Vec::new(),
        failures: Vec::new(),
    };
    let files = corpus();
    assert!(!files.is_empty(), "no corpus files");
    for f in &files {
        run_file(f, &mut quire, &maria, mark, &mut tally);
    }
    eprintln!(
        "differential corpus: {} files, {} statements; {} allowed differences, {} still to do",
        files.len(),
        tally.statements,
        tally.allowed.len(),
        tally.todo.len()
    );
    assert!(
        tally.failures.is_empty(),
        "{} statements differ from MariaDB:\n\n{}",
        tally.failures.len(),
        tally.failures.join("\n\n")
    );
    assert!(
        tally.allowed.len() <= MAX_ALLOWED,
        "{} allowed differences (at most {MAX_ALLOWED}): {:?}",
        tally.allowed.len(),
        tally.allowed
    );
}

#[test]
fn parser_and_order_detection() {
    let s = parse(
        "-- a comment\nSELECT 1;\n\n-- todo: x\nSELECT\n  2;\n-- allow: y\n-- more\nSELECT ';';\n",
    );
    assert_eq!(s.len(), 3);
    assert_eq!((s[0].mark, s[0].first_line), (Mark::None, 1));
    assert_eq!(
        (s[1].mark, s[1].first_line, s[1].sql.as_str()),
        (Mark::Todo, 4, "SELECT\n  2")
    );
    // A plain comment between the marker and the statement ends the marker.
    assert_eq!(s[2].mark, Mark::None);
    assert!(ordered("SELECT a FROM t ORDER BY a"));
    assert!(ordered(
        "(SELECT a FROM t) UNION (SELECT b FROM u) ORDER BY 1 LIMIT 2"
    ));
    assert!(!ordered(
        "SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 2) d"
    ));
    assert!(!ordered("SELECT GROUP_CONCAT(a ORDER BY a) FROM t"));
    assert!(!ordered("SELECT 'ORDER BY' FROM t"));
    let text = "SELECT 1;\n-- todo: differs\nSELECT 2;\nSELECT 3;\n";
    let st = parse(text);
    assert_eq!(
        remark(text, &st, &[false, false, true]),
        "SELECT 1;\nSELECT 2;\n-- todo: differs\nSELECT 3;\n"
    );
}
