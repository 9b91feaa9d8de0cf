//! SQL script tests: `tests/sql/<name>.test` is run over the wire against a fresh server and
//! its output compared with `tests/sql/<name>.result` (mysqltest/toydb style).
//!
//! The point is that expected behaviour is *reviewed text*: run with `QUIRE_REGENERATE=1`
//! to rewrite the `.result` files and review the change as a diff. The same scripts run
//! against MariaDB (`QUIRE_TEST_TARGET=mariadb`), which is how expectations are checked
//! against the reference; if MariaDB's output legitimately differs from MySQL 8.0's for a
//! whole file, a `<name>.mariadb.result` holds MariaDB's and is used for that target only.
//!
//! ## Script format
//!
//! - A statement ends with `;` at the end of a line (it may span lines). It runs on the
//!   current session; `c2: <stmt>;` runs it on session `c2` without switching.
//! - `# text` lines are copied to the output; `-- text` (dash dash space) lines are ignored.
//! - Directives (`--name args`):
//!   - `--connection c2`: switch the current session. Sessions are separate connections,
//!     created on first use with the script's database selected; `c1` is the default.
//!   - `--send c2: <stmt>;` starts a statement on `c2` without waiting (it may block);
//!     `--reap c2` waits for it and prints its result; `--pending c2` prints whether it is
//!     still blocked (waits up to 300 ms for it to finish first).
//!   - `--error 1062` or `--error 1213,1205`: the next statement (or reap) must fail with
//!     one of these numbers. A statement failing without `--error` is also a failure.
//!   - `--sorted_result`: sort the rows of the next result.
//!   - `--show_warnings`: print `SHOW WARNINGS` after the next statement.
//!   - `--sleep 0.2`: seconds.
//!   - `--disconnect c2`: drop c2's TCP connection abruptly (no COM_QUIT), mid-transaction
//!     if one is open. Every session goes through a tiny in-process TCP proxy so this is
//!     possible with a driver that always says goodbye.
//!
//! ## Output format
//!
//! Each statement is echoed, then its result: a tab-separated table with a header line
//! (like `mariadb --batch`; NULL as `NULL`; tab, newline, backslash and NUL escaped as
//! `\t \n \\ \0`; non-UTF-8 values as `0x…`), or `affected rows: N` plus `info: …` when the
//! server sends an info string, or `ERROR <code> (<state>): <message>`; then a blank line.
//!
//! Each script gets its own server and a database `test_<name>`, so scripts are isolated
//! (global variables, SHOW DATABASES) and run in parallel as separate `#[test]`s.
//!
//! Environment: `QUIRE_REGENERATE=1` rewrites results; `QUIRE_SQL_IGNORE_MESSAGES=1`
//! compares error lines by number and SQLSTATE only (for differential runs when the
//! reviewed results carry MySQL 8.0's wording); `QUIRE_SQL_STMT_TIMEOUT_S` (default 60).

mod common;

use common::{Target, TestServer};
use mysql::prelude::Queryable;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

macro_rules! sql_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_script(stringify!($name));
            }
        )*
        const LISTED: &[&str] = &[$(stringify!($name)),*];
    };
}

sql_tests! {
    databases,
    create_table,
    column_types,
    ddl_alter_index,
    show_describe,
    show_create,
    insert,
    upsert_replace,
    update_delete,
    select_basic,
    select_aggregate,
    select_subquery,
    variables,
    transactions,
    collation,
    errors,
    isolation_repeatable_read,
    isolation_read_committed,
    locking_for_update,
    deadlock,
    lock_wait_timeout,
    disconnect_releases_locks,
    temporary_tables,
    foreign_key_locks,
    foreign_keys_ddl,
}

/// Every `tests/sql/*.test` must have a `#[test]` above (and vice versa).
#[test]
fn every_script_is_listed() {
    let mut on_disk: Vec<String> = std::fs::read_dir(sql_dir())
        .expect("read tests/sql")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".test").map(str::to_string)
        })
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = LISTED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "tests/sql/*.test and the sql_tests! list differ"
    );
}

#[test]
fn harness_parses_ready_lines() {
    assert_eq!(
        common::parse_port(
            "ready for connections. Version: '8.0.36'  socket: '/tmp/x.sock'  port: 3306  MySQL"
        ),
        Some(3306)
    );
    assert_eq!(
        common::parse_port(
            "ready for connections.\nVersion: '10.11.19-MariaDB'  socket: '/t/s'  port: 23456  Debian"
        ),
        Some(23456)
    );
    assert_eq!(common::parse_port("ready for connections. port: 0"), None);
}

fn sql_dir() -> PathBuf {
    common::tests_dir().join("sql")
}

fn stmt_timeout() -> Duration {
    let secs = std::env::var("QUIRE_SQL_STMT_TIMEOUT_S")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(60);
    Duration::from_secs(secs)
}

// ---------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------

#[derive(Debug)]
enum Item {
    /// `# …`, copied to the output.
    Comment(String),
    Stmt {
        session: Option<String>,
        sql: String,
        echo: String,
    },
    Connection(String),
    Send {
        session: String,
        sql: String,
        echo: String,
    },
    Reap(String),
    Pending(String),
    Error(Vec<u16>),
    SortedResult,
    ShowWarnings,
    Sleep(Duration),
    Disconnect(String),
}

/// Splits `c2: SELECT …` into (`c2`, `SELECT …`).
fn split_session_prefix(text: &str) -> (Option<String>, &str) {
    if let Some((name, rest)) = text.split_once(':') {
        let ok = !name.is_empty()
            && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && rest.starts_with(' ');
        if ok {
            return (Some(name.to_string()), rest.trim_start());
        }
    }
    (None, text)
}

fn parse_session_name(arg: &str, line_no: usize) -> String {
    let name = arg.trim();
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    assert!(ok, "line {line_no}: bad session name {name:?}");
    name.to_string()
}

/// Parses a script into (line number, item) pairs. Panics on malformed scripts.
fn parse_script(text: &str) -> Vec<(usize, Item)> {
    let mut items = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end()));
    // Reads a statement starting with `first`, continuing until a line ends with `;`.
    let read_stmt = |first: &str,
                     first_no: usize,
                     lines: &mut dyn Iterator<Item = (usize, &str)>| {
        let mut buf = first.to_string();
        while !buf.ends_with(';') {
            match lines.next() {
                Some((_, l)) => {
                    buf.push('\n');
                    buf.push_str(l);
                }
                None => panic!("line {first_no}: statement not terminated by `;` at end of line"),
            }
        }
        buf
    };
    while let Some((no, line)) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed == "#" || trimmed.starts_with("# ") {
            items.push((no, Item::Comment(trimmed.to_string())));
            continue;
        }
        if trimmed == "--" || trimmed.starts_with("-- ") {
            continue; // SQL comment, ignored
        }
        if let Some(directive) = trimmed.strip_prefix("--") {
            let (name, arg) = directive.split_once(' ').unwrap_or((directive, ""));
            let arg = arg.trim();
            let item = match name {
                "connection" => Item::Connection(parse_session_name(arg, no)),
                "reap" => Item::Reap(parse_session_name(arg, no)),
                "pending" => Item::Pending(parse_session_name(arg, no)),
                "disconnect" => Item::Disconnect(parse_session_name(arg, no)),
                "sorted_result" => Item::SortedResult,
                "show_warnings" => Item::ShowWarnings,
                "error" => Item::Error(
                    arg.split(',')
                        .map(|c| {
                            c.trim()
                                .parse::<u16>()
                                .unwrap_or_else(|_| panic!("line {no}: bad error number {c:?}"))
                        })
                        .collect(),
                ),
                "sleep" => Item::Sleep(Duration::from_secs_f64(
                    arg.parse::<f64>()
                        .ok()
                        .filter(|s| (0.0..=30.0).contains(s))
                        .unwrap_or_else(|| panic!("line {no}: bad sleep {arg:?}")),
                )),
                "send" => {
                    let full = read_stmt(arg, no, &mut lines);
                    let (session, sql) = split_session_prefix(&full);
                    let session = session
                        .unwrap_or_else(|| panic!("line {no}: --send needs `<session>: <stmt>;`"));
                    Item::Send {
                        sql: sql.trim_end_matches(';').to_string(),
                        echo: format!("--send {full}"),
                        session,
                    }
                }
                other => panic!("line {no}: unknown directive --{other}"),
            };
            items.push((no, item));
            continue;
        }
        let full = read_stmt(trimmed, no, &mut lines);
        let (session, sql) = split_session_prefix(&full);
        items.push((
            no,
            Item::Stmt {
                session,
                sql: sql.trim_end_matches(';').to_string(),
                echo: full.clone(),
            },
        ));
    }
    items
}

// ---------------------------------------------------------------------------------------
// Sessions: one worker thread per connection, behind a cuttable proxy
// ---------------------------------------------------------------------------------------

struct Job {
    sql: String,
    sorted: bool,
    show_warnings: bool,
}

#[derive(Debug)]
struct Outcome {
    text: String,
    /// Error number if the statement failed.
    error: Option<u16>,
}

/// A TCP relay between the driver and the server; `cut` drops both sides at once so the
/// server sees the client vanish without COM_QUIT.
struct Proxy {
    sockets: Vec<TcpStream>,
}

impl Proxy {
    fn cut(&self) {
        for s in &self.sockets {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

fn pump(mut from: TcpStream, mut to: TcpStream) {
    let _ = io::copy(&mut from, &mut to);
    let _ = to.shutdown(Shutdown::Write);
}

/// Listens on an ephemeral port; the first connection is relayed to `server_port`.
fn start_proxy(server_port: u16) -> (u16, mpsc::Receiver<io::Result<Proxy>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind proxy");
    let port = listener.local_addr().expect("proxy addr").port();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let result = (|| -> io::Result<Proxy> {
            listener.set_nonblocking(true)?;
            let deadline = Instant::now() + Duration::from_secs(30);
            let client = loop {
                match listener.accept() {
                    Ok((s, _)) => break s,
                    Err(e)
                        if e.kind() == io::ErrorKind::WouldBlock && Instant::now() < deadline =>
                    {
                        thread::sleep(Duration::from_millis(2))
                    }
                    Err(e) => return Err(e),
                }
            };
            client.set_nonblocking(false)?;
            let server = TcpStream::connect(("127.0.0.1", server_port))?;
            client.set_nodelay(true)?;
            server.set_nodelay(true)?;
            let (c2, s2) = (client.try_clone()?, server.try_clone()?);
            let sockets = vec![client.try_clone()?, server.try_clone()?];
            thread::spawn(move || pump(client, server));
            thread::spawn(move || pump(s2, c2));
            Ok(Proxy { sockets })
        })();
        let _ = tx.send(result);
    });
    (port, rx)
}

struct Session {
    jobs: Option<mpsc::Sender<Job>>,
    outcomes: mpsc::Receiver<Outcome>,
    proxy: Proxy,
    /// Echo of the statement sent with `--send` and not yet reaped.
    in_flight: Option<String>,
    /// Its outcome, if it arrived while checking `--pending`.
    arrived: Option<Outcome>,
}

impl Session {
    fn open(server: &TestServer, db: &str) -> Session {
        let (port, proxy_rx) = start_proxy(server.port());
        let opts = server.opts().tcp_port(port).db_name(Some(db));
        let mut conn = mysql::Conn::new(opts).unwrap_or_else(|e| panic!("session connect: {e}"));
        let proxy = proxy_rx
            .recv()
            .expect("proxy thread")
            .unwrap_or_else(|e| panic!("proxy: {e}"));
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let (out_tx, out_rx) = mpsc::channel::<Outcome>();
        thread::spawn(move || {
            for job in job_rx {
                let outcome = execute(&mut conn, &job);
                if out_tx.send(outcome).is_err() {
                    break;
                }
            }
            // Dropping `conn` sends COM_QUIT (lost if the proxy was cut, as intended).
        });
        Session {
            jobs: Some(job_tx),
            outcomes: out_rx,
            proxy,
            in_flight: None,
            arrived: None,
        }
    }

    fn submit(&mut self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // A dead worker shows up as a missing outcome.
            let _ = jobs.send(job);
        }
    }

    fn wait(&mut self, timeout: Duration) -> Option<Outcome> {
        if let Some(o) = self.arrived.take() {
            return Some(o);
        }
        match self.outcomes.recv_timeout(timeout) {
            Ok(o) => Some(o),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => Some(Outcome {
                text: "ERROR 2013: session worker ended (connection lost)\n".into(),
                error: Some(2013),
            }),
        }
    }

    /// Abrupt close: no COM_QUIT reaches the server.
    fn disconnect(mut self) {
        self.proxy.cut();
        self.jobs = None; // the worker ends after its current statement fails
    }
}

fn escape_value(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            let mut out = String::with_capacity(s.len());
            for ch in s.chars() {
                match ch {
                    '\t' => out.push_str("\\t"),
                    '\n' => out.push_str("\\n"),
                    '\\' => out.push_str("\\\\"),
                    '\0' => out.push_str("\\0"),
                    c => out.push(c),
                }
            }
            out
        }
        Err(_) => {
            let mut out = String::from("0x");
            for b in bytes {
                let _ = write!(out, "{b:02X}");
            }
            out
        }
    }
}

fn format_value(v: &mysql::Value) -> String {
    match v {
        mysql::Value::NULL => "NULL".into(),
        mysql::Value::Bytes(b) => escape_value(b),
        // The text protocol only sends bytes; anything else is the driver's conversion.
        other => other.as_sql(true),
    }
}

fn format_error(e: &mysql::Error) -> Outcome {
    match e {
        mysql::Error::MySqlError(e) => Outcome {
            text: format!("ERROR {} ({}): {}\n", e.code, e.state, e.message),
            error: Some(e.code),
        },
        mysql::Error::IoError(_) | mysql::Error::CodecError(_) => Outcome {
            text: "ERROR 2013: Lost connection to server during query\n".into(),
            error: Some(2013),
        },
        other => Outcome {
            text: format!("ERROR 2000: client error: {other}\n"),
            error: Some(2000),
        },
    }
}

/// Runs one statement (text protocol) and formats everything it returns.
fn execute(conn: &mut mysql::Conn, job: &Job) -> Outcome {
    let mut text = String::new();
    let mut error = None;
    match conn.query_iter(job.sql.as_str()) {
        Err(e) => return format_error(&e),
        Ok(mut result) => {
            while let Some(mut set) = result.iter() {
                let columns: Vec<String> = set
                    .columns()
                    .as_ref()
                    .iter()
                    .map(|c| c.name_str().into_owned())
                    .collect();
                if columns.is_empty() {
                    let _ = writeln!(text, "affected rows: {}", set.affected_rows());
                    let info = set.info_str().into_owned();
                    if !info.is_empty() {
                        let _ = writeln!(text, "info: {info}");
                    }
                    // Consume the (empty) set to move on.
                    for _ in set.by_ref() {}
                    continue;
                }
                let mut rows = Vec::new();
                let mut failed = None;
                for row in set.by_ref() {
                    match row {
                        Ok(row) => {
                            let cells: Vec<String> =
                                row.unwrap().iter().map(format_value).collect();
                            rows.push(cells.join("\t"));
                        }
                        Err(e) => {
                            failed = Some(format_error(&e));
                            break;
                        }
                    }
                }
                // An error after the column definitions (e.g. 1242 from a subquery) is shown
                // alone, like the mariadb client does: servers differ in when they send it.
                if let Some(o) = failed {
                    error = o.error;
                    text.push_str(&o.text);
                    continue;
                }
                if job.sorted {
                    rows.sort();
                }
                let _ = writeln!(text, "{}", columns.join("\t"));
                for r in rows {
                    let _ = writeln!(text, "{r}");
                }
            }
        }
    }
    if job.show_warnings {
        match conn.query_iter("SHOW WARNINGS") {
            Ok(mut result) => {
                let _ = writeln!(text, "warnings:");
                if let Some(set) = result.iter() {
                    for row in set.flatten() {
                        let cells: Vec<String> = row.unwrap().iter().map(format_value).collect();
                        let _ = writeln!(text, "{}", cells.join("\t"));
                    }
                }
            }
            Err(e) => text.push_str(&format_error(&e).text),
        }
    }
    Outcome { text, error }
}

// ---------------------------------------------------------------------------------------
// Running a script
// ---------------------------------------------------------------------------------------

struct Runner<'a> {
    server: &'a TestServer,
    db: String,
    sessions: BTreeMap<String, Session>,
    current: String,
    out: String,
    /// Broken expectations (`--error` not met, unexpected errors, timeouts).
    failures: Vec<String>,
    timeout: Duration,
}

impl Runner<'_> {
    fn session(&mut self, name: &str) -> &mut Session {
        if !self.sessions.contains_key(name) {
            let s = Session::open(self.server, &self.db);
            self.sessions.insert(name.to_string(), s);
        }
        self.sessions.get_mut(name).expect("inserted above")
    }

    fn check(&mut self, line: usize, outcome: &Outcome, expected: Option<Vec<u16>>) {
        match (expected, outcome.error) {
            (None, None) => {}
            (Some(codes), Some(code)) if codes.contains(&code) => {}
            (None, Some(_)) => self.failures.push(format!(
                "line {line}: unexpected error (add --error if intended): {}",
                outcome.text.trim_end()
            )),
            (Some(codes), Some(_)) => self.failures.push(format!(
                "line {line}: expected error {codes:?}, got: {}",
                outcome.text.lines().next().unwrap_or_default()
            )),
            (Some(codes), None) => self.failures.push(format!(
                "line {line}: expected error {codes:?}, but the statement succeeded"
            )),
        }
    }

    fn run(&mut self, items: Vec<(usize, Item)>) {
        let mut expect_error: Option<Vec<u16>> = None;
        let mut sorted = false;
        let mut show_warnings = false;
        for (line, item) in items {
            match item {
                Item::Comment(c) => {
                    self.out.push_str(&c);
                    self.out.push('\n');
                }
                Item::Error(codes) => expect_error = Some(codes),
                Item::SortedResult => sorted = true,
                Item::ShowWarnings => show_warnings = true,
                Item::Sleep(d) => thread::sleep(d),
                Item::Connection(name) => {
                    let _ = writeln!(self.out, "--connection {name}");
                    self.session(&name);
                    self.current = name;
                }
                Item::Stmt { session, sql, echo } => {
                    let name = session.unwrap_or_else(|| self.current.clone());
                    let _ = writeln!(self.out, "{echo}");
                    let timeout = self.timeout;
                    let s = self.session(&name);
                    if let Some(busy) = &s.in_flight {
                        panic!(
                            "line {line}: session {name} is still running `{busy}` (--reap it first)"
                        );
                    }
                    s.submit(Job {
                        sql,
                        sorted: std::mem::take(&mut sorted),
                        show_warnings: std::mem::take(&mut show_warnings),
                    });
                    match s.wait(timeout) {
                        Some(outcome) => {
                            self.out.push_str(&outcome.text);
                            self.out.push('\n');
                            self.check(line, &outcome, expect_error.take());
                        }
                        None => {
                            self.failures.push(format!(
                                "line {line}: statement on {name} did not finish within {timeout:?} (blocked?)"
                            ));
                            return;
                        }
                    }
                }
                Item::Send { session, sql, echo } => {
                    assert!(
                        expect_error.is_none(),
                        "line {line}: put --error before --reap, not --send"
                    );
                    let _ = writeln!(self.out, "{echo}");
                    let s = self.session(&session);
                    if let Some(busy) = &s.in_flight {
                        panic!("line {line}: session {session} is still running `{busy}`");
                    }
                    s.submit(Job {
                        sql,
                        sorted: std::mem::take(&mut sorted),
                        show_warnings: std::mem::take(&mut show_warnings),
                    });
                    s.in_flight = Some(echo);
                }
                Item::Pending(name) => {
                    let _ = writeln!(self.out, "--pending {name}");
                    let s = self.session(&name);
                    assert!(s.in_flight.is_some(), "line {line}: nothing sent on {name}");
                    if s.arrived.is_none() {
                        s.arrived = s.wait(Duration::from_millis(300));
                    }
                    let state = if s.arrived.is_some() {
                        "has finished"
                    } else {
                        "is blocked"
                    };
                    let _ = writeln!(self.out, "{name} {state}\n");
                }
                Item::Reap(name) => {
                    let _ = writeln!(self.out, "--reap {name}");
                    let timeout = self.timeout;
                    let s = self.session(&name);
                    assert!(
                        s.in_flight.take().is_some(),
                        "line {line}: nothing sent on {name}"
                    );
                    match s.wait(timeout) {
                        Some(outcome) => {
                            self.out.push_str(&outcome.text);
                            self.out.push('\n');
                            self.check(line, &outcome, expect_error.take());
                        }
                        None => {
                            self.failures.push(format!(
                                "line {line}: statement sent on {name} did not finish within {timeout:?}"
                            ));
                            return;
                        }
                    }
                }
                Item::Disconnect(name) => {
                    let _ = writeln!(self.out, "--disconnect {name}");
                    match self.sessions.remove(&name) {
                        Some(s) => s.disconnect(),
                        None => panic!("line {line}: no session {name}"),
                    }
                }
            }
        }
        for (name, s) in &self.sessions {
            if let Some(busy) = &s.in_flight {
                self.failures.push(format!(
                    "session {name}: `{busy}` was sent but never reaped"
                ));
            }
        }
    }
}

impl Drop for Runner<'_> {
    fn drop(&mut self) {
        // Cut every connection: a statement still blocked must not keep a thread waiting.
        for (_, s) in std::mem::take(&mut self.sessions) {
            if s.in_flight.is_some() {
                s.disconnect();
            }
        }
    }
}

fn strip_error_messages(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("ERROR ") {
                match l.find("): ") {
                    Some(i) => l.get(..i + 1).unwrap_or(l),
                    None => l,
                }
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn run_script(name: &str) {
    let test_path = sql_dir().join(format!("{name}.test"));
    let script = std::fs::read_to_string(&test_path)
        .unwrap_or_else(|e| panic!("read {}: {e}", test_path.display()));
    let items = parse_script(&script);

    let server = TestServer::start();
    let db = format!("test_{name}");
    let mut admin = server.mysql_conn();
    admin
        .query_drop(format!("CREATE DATABASE `{db}`"))
        .unwrap_or_else(|e| panic!("create {db}: {e}"));

    let mut runner = Runner {
        server: &server,
        db,
        sessions: BTreeMap::new(),
        current: "c1".into(),
        out: String::new(),
        failures: Vec::new(),
        timeout: stmt_timeout(),
    };
    runner.run(items);
    let produced = std::mem::take(&mut runner.out);
    let failures = std::mem::take(&mut runner.failures);
    drop(runner);

    let generic = sql_dir().join(format!("{name}.result"));
    let mariadb_specific = sql_dir().join(format!("{name}.mariadb.result"));
    let result_path = if server.target() == Target::MariaDb && mariadb_specific.exists() {
        mariadb_specific
    } else {
        generic
    };

    let regenerate = std::env::var("QUIRE_REGENERATE").is_ok_and(|v| v == "1");
    let mut problems = String::new();
    if regenerate {
        std::fs::write(&result_path, &produced)
            .unwrap_or_else(|e| panic!("write {}: {e}", result_path.display()));
        eprintln!("regenerated {}", result_path.display());
    } else {
        match std::fs::read_to_string(&result_path) {
            Ok(expected) => {
                let ignore_messages =
                    std::env::var("QUIRE_SQL_IGNORE_MESSAGES").is_ok_and(|v| v == "1");
                let (exp, got) = if ignore_messages {
                    (
                        strip_error_messages(&expected),
                        strip_error_messages(&produced),
                    )
                } else {
                    (expected.clone(), produced.clone())
                };
                if exp != got {
                    let diff = similar::TextDiff::from_lines(&exp, &got);
                    let _ = write!(
                        problems,
                        "output differs from {} (run with QUIRE_REGENERATE=1 to accept):\n{}",
                        result_path.display(),
                        diff.unified_diff()
                            .context_radius(3)
                            .header("expected", "actual")
                    );
                }
            }
            Err(_) => {
                let _ = write!(
                    problems,
                    "{} is missing; run with QUIRE_REGENERATE=1 to create it. Output was:\n{produced}",
                    result_path.display()
                );
            }
        }
    }
    if !failures.is_empty() {
        let _ = write!(
            problems,
            "\nbroken expectations in {}:\n",
            test_path.display()
        );
        for f in &failures {
            let _ = writeln!(problems, "  {f}");
        }
    }
    if !problems.is_empty() {
        panic!("{name}: {problems}");
    }
}
