//! The slow and general query logs, read by the real tools: pt-query-digest (percona-toolkit)
//! must parse them without a warning and count each statement shape exactly as often as the
//! workload ran it — also while the files are renamed and reopened (FLUSH LOGS, SIGHUP)
//! under concurrent sessions.

mod common;

use common::*;
use mysql::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `pt-query-digest --output json` over `files`: statement count per fingerprint. Fails the
/// test on a non-zero exit or anything on stderr (pt-query-digest's warnings).
fn digest(files: &[PathBuf], genlog: bool) -> BTreeMap<String, u64> {
    let mut cmd = Command::new(find_tool("pt-query-digest").expect("pt-query-digest"));
    cmd.args(["--limit", "100%:100000", "--output", "json"]);
    if genlog {
        cmd.args(["--type", "genlog"]);
    }
    cmd.args(files);
    let out = run_with_timeout(cmd, None, std::time::Duration::from_secs(300));
    assert_success("pt-query-digest", &out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.trim().is_empty(),
        "pt-query-digest warned:\n{stderr}"
    );
    // One line per class: count, tab, fingerprint.
    let py = "import json,sys\nd=json.load(sys.stdin)\nfor c in d.get('classes',[]):\n  print(str(c['query_count'])+'\\t'+c['fingerprint'].replace('\\n',' '))";
    let python = find_tool("python3").expect("python3");
    let mut cmd = Command::new(python);
    cmd.args(["-c", py]);
    let parsed = run_with_timeout(cmd, Some(&out.stdout), std::time::Duration::from_secs(60));
    assert_success("python3 (reading pt-query-digest's JSON)", &parsed);
    let mut counts = BTreeMap::new();
    for line in String::from_utf8_lossy(&parsed.stdout).lines() {
        let (n, fp) = line.split_once('\t').expect("count<TAB>fingerprint");
        *counts.entry(fp.to_string()).or_insert(0) += n.parse::<u64>().expect("count");
    }
    counts
}

fn count(counts: &BTreeMap<String, u64>, fingerprint: &str) -> u64 {
    counts.get(fingerprint).copied().unwrap_or(0)
}

/// These tests read Quire's log files and use its settings: against the MariaDB target
/// (whose slow log has another format) they do not apply.
fn quire_only() -> bool {
    if target() != Target::Quire {
        eprintln!("query-log tests are Quire-only (QUIRE_TEST_TARGET=mariadb): not run");
        return false;
    }
    true
}

fn tools() -> bool {
    quire_only() && require_tool("pt-query-digest") && require_tool("python3")
}

fn log_files(dir: &Path) -> (PathBuf, PathBuf) {
    (dir.join("q-slow.log"), dir.join("q-general.log"))
}

fn start(logs: &Path) -> TestServer {
    let (slow, general) = log_files(logs);
    TestServer::start_with(&[
        "--slow-query-log",
        "--long-query-time=0",
        "--general-log",
        &format!("--slow-query-log-file={}", slow.display()),
        &format!("--general-log-file={}", general.display()),
    ])
}

#[test]
fn pt_query_digest_counts_every_statement_of_a_workload() {
    if !tools() {
        return;
    }
    let logs = unique_temp_dir("qlog-digest");
    let mut server = start(&logs);
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE qlog").expect("create db");
    c.query_drop("USE qlog").expect("use");
    c.query_drop("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20), k INT)")
        .expect("create table");
    for i in 0..15 {
        c.query_drop(format!("INSERT INTO t VALUES ({i}, 'x{i}', {i})"))
            .expect("insert");
    }
    for i in 0..40 {
        let _: Vec<String> = c
            .query(format!("SELECT v FROM t WHERE id = {}", i % 15))
            .expect("select");
    }
    for i in 0..25 {
        c.query_drop(format!("UPDATE t SET k = k + 1 WHERE id = {}", i % 15))
            .expect("update");
    }
    for i in 0..20 {
        let _: Vec<i64> = c
            .exec("SELECT k FROM t WHERE id = ?", (i % 15,))
            .expect("prepared select");
    }
    for i in 0..5 {
        // Two statements in one COM_QUERY: two entries.
        c.query_drop(format!(
            "DELETE FROM t WHERE id = {}; DELETE FROM t WHERE id = {}",
            100 + i,
            200 + i
        ))
        .expect("multi-statement");
    }
    let bad = c.query_drop("SELECT nope FROM t WHERE id = 1");
    assert!(bad.is_err(), "an unknown column is an error");
    drop(c);
    // A clean shutdown writes every pending entry.
    server.stop();
    let (slow, general) = log_files(&logs);

    let s = digest(std::slice::from_ref(&slow), false);
    assert_eq!(count(&s, "insert into t values(?+)"), 15, "{s:#?}");
    assert_eq!(count(&s, "select v from t where id = ?"), 40, "{s:#?}");
    assert_eq!(
        count(&s, "update t set k = k ? ? where id = ?"),
        25,
        "{s:#?}"
    );
    // Prepared executions are logged with their values, so they fingerprint as text.
    assert_eq!(count(&s, "select k from t where id = ?"), 20, "{s:#?}");
    assert_eq!(count(&s, "delete from t where id = ?"), 10, "{s:#?}");
    assert_eq!(count(&s, "select nope from t where id = ?"), 1, "{s:#?}");
    let text = std::fs::read_to_string(&slow).expect("slow log");
    assert!(
        text.contains("SELECT k FROM t WHERE id = 7;\n"),
        "an execution with its value"
    );
    assert!(text.contains("\nuse qlog;\nSET timestamp="), "use lines");
    let entries = text.matches("\n# Time: ").count() + usize::from(text.starts_with("# Time: "));
    assert_eq!(
        entries as u64,
        s.values().sum::<u64>(),
        "every entry parsed"
    );

    let g = digest(std::slice::from_ref(&general), true);
    assert_eq!(count(&g, "insert into t values(?+)"), 15, "{g:#?}");
    assert_eq!(count(&g, "select v from t where id = ?"), 40, "{g:#?}");
    assert_eq!(
        count(&g, "update t set k = k ? ? where id = ?"),
        25,
        "{g:#?}"
    );
    assert_eq!(count(&g, "delete from t where id = ?"), 10, "{g:#?}");
    // The general log writes a statement when it arrives, so the failing one is there too.
    assert_eq!(count(&g, "select nope from t where id = ?"), 1, "{g:#?}");
    // pt-query-digest reads Execute lines as administrator commands.
    assert_eq!(count(&g, "administrator command: Execute"), 20, "{g:#?}");
    let gtext = std::fs::read_to_string(&general).expect("general log");
    assert!(
        gtext.contains(" Execute\tSELECT k FROM t WHERE id = 3\n"),
        "{gtext}"
    );
    assert!(
        gtext.contains(" Prepare\tSELECT k FROM t WHERE id = ?\n"),
        "{gtext}"
    );
    assert!(gtext.contains(" Connect\troot@"), "{gtext}");
    assert!(gtext.contains(" Quit\t\n"), "{gtext}");
    let _ = std::fs::remove_dir_all(&logs);
}

/// `mysqldumpslow` output: statement count per abstracted statement, and the `user@host`
/// it attributes each class to.
fn dumpslow(file: &Path) -> BTreeMap<String, (u64, String)> {
    let mut cmd = Command::new(find_tool("mysqldumpslow").expect("mysqldumpslow"));
    cmd.args(["-s", "c"]).arg(file);
    let out = run_with_timeout(cmd, None, std::time::Duration::from_secs(120));
    assert_success("mysqldumpslow", &out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .lines()
            .all(|l| l.trim().is_empty() || l.starts_with("Reading mysql slow query log from")),
        "mysqldumpslow warned:\n{stderr}"
    );
    // Blocks: "Count: N  Time=… user@host" then the statement, indented, then a blank line.
    let mut classes = BTreeMap::new();
    let text = String::from_utf8_lossy(&out.stdout);
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let (head, stmt) = block.split_once('\n').expect("count line and statement");
        let n: u64 = head
            .strip_prefix("Count: ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("not a Count line: {head}"));
        let who = head.rsplit(' ').next().unwrap_or_default().to_string();
        let stmt = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
        let e = classes.entry(stmt).or_insert((0, who));
        e.0 += n;
    }
    classes
}

/// Acceptance 1's `mysqldumpslow` part. Debian ships MariaDB's mysqldumpslow, which
/// understands the `# Time:` line of MySQL 5.6 and MariaDB but not MySQL 8.0's ISO-8601
/// one (MySQL 8.0's own mysqldumpslow does); `quire_slow_log_time_format=LEGACY` writes the
/// former. With it, mysqldumpslow groups the statements and counts each shape exactly.
#[test]
fn mysqldumpslow_counts_every_statement_with_the_legacy_time_line() {
    if !(quire_only() && require_tool("mysqldumpslow")) {
        return;
    }
    let logs = unique_temp_dir("qlog-dumpslow");
    let slow = logs.join("dump-slow.log");
    let mut server = TestServer::start_with(&[
        "--slow-query-log",
        "--long-query-time=0",
        "--quire-slow-log-time-format=LEGACY",
        &format!("--slow-query-log-file={}", slow.display()),
    ]);
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE dump").expect("create db");
    c.query_drop("USE dump").expect("use");
    c.query_drop("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20), k INT)")
        .expect("create table");
    for i in 0..12 {
        c.query_drop(format!("INSERT INTO t VALUES ({i}, 'x{i}', {i})"))
            .expect("insert");
    }
    for i in 0..30 {
        let _: Vec<String> = c
            .query(format!("SELECT v FROM t WHERE id = {}", i % 12))
            .expect("select");
    }
    for i in 0..9 {
        let _: Vec<i64> = c
            .exec("SELECT k FROM t WHERE v = ?", (format!("x{i}"),))
            .expect("prepared select");
    }
    drop(c);
    server.stop();
    let text = std::fs::read_to_string(&slow).expect("slow log");
    assert!(
        text.lines()
            .any(|l| l.len() == "# Time: 261122 10:11:12".len()
                && l.starts_with("# Time: ")
                && l.as_bytes()[14] == b' '),
        "{text}"
    );
    let classes = dumpslow(&slow);
    let get = |stmt: &str| classes.get(stmt).map_or(0, |c| c.0);
    assert_eq!(get("INSERT INTO t VALUES (N, 'S', N)"), 12, "{classes:#?}");
    assert_eq!(get("SELECT v FROM t WHERE id = N"), 30, "{classes:#?}");
    assert_eq!(get("SELECT k FROM t WHERE v = 'S'"), 9, "{classes:#?}");
    // User@Host was read (the ISO time line would have hidden it: "0users@0hosts").
    let who = classes
        .get("SELECT v FROM t WHERE id = N")
        .map(|c| c.1.as_str())
        .unwrap_or_default();
    assert!(who.starts_with("root[root]@"), "{classes:#?}");
    let entries = text.matches("# Time: ").count() as u64;
    assert_eq!(
        classes.values().map(|c| c.0).sum::<u64>(),
        entries,
        "{classes:#?}"
    );
    let _ = std::fs::remove_dir_all(&logs);
}

#[test]
fn entries_stay_whole_and_counted_across_reopens() {
    if !tools() {
        return;
    }
    let logs = unique_temp_dir("qlog-rotate");
    let mut server = start(&logs);
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE rot").expect("create db");
    c.query_drop("CREATE TABLE rot.t (id INT PRIMARY KEY, n INT)")
        .expect("create table");
    for i in 0..8 {
        c.query_drop(format!("INSERT INTO rot.t VALUES ({i}, 0)"))
            .expect("insert");
    }
    const THREADS: usize = 8;
    const EACH: usize = 300;
    let (slow, general) = log_files(&logs);
    let pid = server.pid().expect("server pid") as libc::pid_t;
    let mut rotated = Vec::new();
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let opts = server.opts();
            s.spawn(move || {
                let mut c = mysql::Conn::new(opts).expect("connect");
                for i in 0..EACH {
                    if i % 2 == 0 {
                        c.query_drop(format!("UPDATE rot.t SET n = n + 1 WHERE id = {t}"))
                            .expect("update");
                    } else {
                        let _: Vec<i64> = c
                            .query(format!("SELECT n FROM rot.t WHERE id = {t}"))
                            .expect("select");
                    }
                }
            });
        }
        // Meanwhile: logrotate's way (rename, then SIGHUP) and FLUSH LOGS, in turns.
        for r in 0..10 {
            std::thread::sleep(std::time::Duration::from_millis(30));
            let (s_to, g_to) = (
                logs.join(format!("slow.{r}")),
                logs.join(format!("gen.{r}")),
            );
            if std::fs::rename(&slow, &s_to).is_ok() {
                rotated.push((s_to, true));
            }
            if std::fs::rename(&general, &g_to).is_ok() {
                rotated.push((g_to, false));
            }
            let how = if r % 2 == 0 {
                // SAFETY: kill(2) on the server we started.
                unsafe { libc::kill(pid, libc::SIGHUP) };
                "SIGHUP"
            } else {
                c.query_drop("FLUSH LOGS").expect("flush logs");
                "FLUSH LOGS"
            };
            // The files come back once reopened. Waiting for that keeps a late SIGHUP from
            // reopening the next file in place: its header would then follow an entry, and
            // pt-query-digest (with MySQL's and MariaDB's logs alike) reads such a header as
            // part of that entry.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            while !(slow.exists() && general.exists()) {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the logs were not reopened after {how}"
                );
                c.query_drop("DO 0").expect("do");
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    });
    drop(c);
    server.stop();
    let mut slow_files: Vec<PathBuf> = rotated
        .iter()
        .filter(|r| r.1)
        .map(|r| r.0.clone())
        .collect();
    let mut gen_files: Vec<PathBuf> = rotated
        .iter()
        .filter(|r| !r.1)
        .map(|r| r.0.clone())
        .collect();
    slow_files.push(slow);
    gen_files.push(general);
    slow_files.retain(|p| p.exists());
    gen_files.retain(|p| p.exists());
    assert_eq!(
        slow_files.len(),
        11,
        "every rename was followed by a reopen: {slow_files:?}"
    );
    assert_eq!(
        gen_files.len(),
        11,
        "every rename was followed by a reopen: {gen_files:?}"
    );

    let expected = (THREADS * EACH / 2) as u64;
    let s = digest(&slow_files, false);
    assert_eq!(
        count(&s, "update rot.t set n = n ? ? where id = ?"),
        expected,
        "{s:#?}"
    );
    assert_eq!(
        count(&s, "select n from rot.t where id = ?"),
        expected,
        "{s:#?}"
    );
    let g = digest(&gen_files, true);
    assert_eq!(
        count(&g, "update rot.t set n = n ? ? where id = ?"),
        expected,
        "{g:#?}"
    );
    assert_eq!(
        count(&g, "select n from rot.t where id = ?"),
        expected,
        "{g:#?}"
    );
    // Every line of the general logs is a whole entry (or a header line).
    for f in &gen_files {
        for line in std::fs::read_to_string(f).expect("general log").lines() {
            let header = line.contains("mysqld, Version:")
                || line.starts_with("Tcp port:")
                || line.starts_with("Time                 Id Command");
            let entry = line.len() > 28
                && line.as_bytes()[4] == b'-'
                && line.as_bytes()[10] == b'T'
                && line[27..].starts_with('\t');
            assert!(
                header || entry,
                "{}: not a whole line: {line:?}",
                f.display()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&logs);
}

#[test]
fn switches_are_dynamic_and_sessions_can_opt_out() {
    if !quire_only() {
        return;
    }
    let logs = unique_temp_dir("qlog-dynamic");
    let slow = logs.join("dyn-slow.log");
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop(format!(
        "SET GLOBAL slow_query_log_file = '{}'",
        slow.display()
    ))
    .expect("file");
    c.query_drop("SET GLOBAL slow_query_log = ON").expect("on");
    // long_query_time applies to sessions that start after the change (as in MySQL) and to
    // the session that sets its own.
    c.query_drop("SET SESSION long_query_time = 0")
        .expect("session lqt");
    c.query_drop("SELECT 'logged-1'").expect("q");
    c.query_drop("SET SESSION slow_query_log = OFF")
        .expect("session off");
    c.query_drop("SELECT 'not-logged'").expect("q");
    c.query_drop("SET SESSION slow_query_log = ON")
        .expect("session on");
    c.query_drop("SET GLOBAL log_output = 'NONE'")
        .expect("none");
    c.query_drop("SELECT 'not-logged-either'").expect("q");
    c.query_drop("SET GLOBAL log_output = 'FILE'")
        .expect("file");
    c.query_drop("SELECT 'logged-2'").expect("q");
    // NONE wins over the others, as in MySQL.
    c.query_drop("SET GLOBAL log_output = 'FILE,NONE'")
        .expect("file,none");
    c.query_drop("SELECT 'not-logged-with-none'").expect("q");
    let e = c
        .query_drop("SET GLOBAL log_output = 'DISK'")
        .expect_err("not a log_output value");
    assert!(e.to_string().contains("1231"), "{e}");
    c.query_drop("SET GLOBAL log_output = 'FILE'")
        .expect("file");
    c.query_drop("FLUSH SLOW LOGS").expect("flush");
    let text = std::fs::read_to_string(&slow).expect("slow log");
    assert!(text.contains("SELECT 'logged-1';"), "{text}");
    assert!(text.contains("SELECT 'logged-2';"), "{text}");
    assert!(!text.contains("not-logged"), "{text}");
    let status: Vec<(String, String)> = c
        .query("SHOW GLOBAL STATUS LIKE 'Quire_slow_log_%'")
        .expect("status");
    let entries: u64 = status
        .iter()
        .find(|(n, _)| n == "Quire_slow_log_entries")
        .map(|(_, v)| v.parse().expect("number"))
        .expect("Quire_slow_log_entries");
    assert!(entries >= 4, "{status:?}");
    drop(c);
    server.stop();
    let _ = std::fs::remove_dir_all(&logs);
}

/// `log_output=TABLE`: `mysql.slow_log` and `mysql.general_log` hold the same entries as
/// the files, readable at once by the next statement, with MySQL's columns; TIMESTAMPs in
/// the session's time zone; TRUNCATE empties them; nobody else writes them (1556).
#[test]
fn log_tables_hold_the_entries_the_files_hold() {
    if !quire_only() {
        return;
    }
    let logs = unique_temp_dir("qlog-tables");
    let (slow, general) = log_files(&logs);
    let mut server = TestServer::start_with(&[
        "--log-output=FILE,TABLE",
        "--slow-query-log",
        "--long-query-time=0",
        "--general-log",
        &format!("--slow-query-log-file={}", slow.display()),
        &format!("--general-log-file={}", general.display()),
    ]);
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE lt").expect("create db");
    c.query_drop("USE lt").expect("use");
    c.query_drop("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))")
        .expect("create table");
    for i in 0..6 {
        c.query_drop(format!("INSERT INTO t VALUES ({i}, 'v{i}')"))
            .expect("insert");
    }
    let odd = "SELECT 'a \"quoted\", comma', 'back\\slash',\n  'two lines'";
    c.query_drop(odd).expect("odd text");
    for i in 0..4 {
        let _: Vec<String> = c
            .exec("SELECT v FROM t WHERE id = ?", (i,))
            .expect("prepared select");
    }
    // The row of the statement just before is there (the read waits for the writer).
    let last: Vec<(String, u64, u64, String, u64)> = c
        .query(
            "SELECT sql_text, rows_sent, rows_examined, db, thread_id FROM mysql.slow_log \
             WHERE sql_text LIKE 'SELECT v FROM t WHERE id = %' ORDER BY start_time",
        )
        .expect("read slow_log");
    let id: u64 = c
        .query_first("SELECT CONNECTION_ID()")
        .expect("id")
        .expect("row");
    assert_eq!(last.len(), 4, "{last:?}");
    for (i, (text, sent, examined, db, thread)) in last.iter().enumerate() {
        assert_eq!(text, &format!("SELECT v FROM t WHERE id = {i}"));
        assert_eq!((*sent, *examined, db.as_str(), *thread), (1, 1, "lt", id));
    }
    let odd_rows: Vec<String> = c
        .query("SELECT sql_text FROM mysql.slow_log WHERE sql_text LIKE '%two lines%'")
        .expect("odd row");
    assert_eq!(odd_rows, vec![odd.to_string()], "text kept byte for byte");
    let user_host: String = c
        .query_first("SELECT user_host FROM mysql.slow_log LIMIT 1")
        .expect("user_host")
        .expect("row");
    assert!(user_host.starts_with("root[root] @ "), "{user_host}");
    // query_time and lock_time are TIME(6); start_time a TIMESTAMP(6) in the session's zone.
    // (Each count sees the rows of the statements before it, not its own.)
    let all: u64 = c
        .query_first("SELECT COUNT(*) FROM mysql.slow_log")
        .expect("count")
        .expect("row");
    let recent: u64 = c
        .query_first(
            "SELECT COUNT(*) FROM mysql.slow_log WHERE start_time BETWEEN NOW(6) - INTERVAL 10 MINUTE \
             AND NOW(6) AND query_time < '00:01:00' AND lock_time < '00:01:00'",
        )
        .expect("recent")
        .expect("row");
    assert_eq!(
        recent,
        all + 1,
        "every row is recent in the session's time zone"
    );
    c.query_drop("SET time_zone = '+05:00'").expect("tz");
    let shifted: u64 = c
        .query_first(
            "SELECT COUNT(*) FROM mysql.slow_log WHERE start_time BETWEEN NOW(6) - INTERVAL 10 MINUTE \
             AND NOW(6)",
        )
        .expect("shifted")
        .expect("row");
    assert_eq!(shifted, all + 3, "shown in the new zone");
    c.query_drop("SET time_zone = SYSTEM").expect("tz back");
    // The same entries as the file: every statement until the count, plus the count itself
    // (its row is written when it ends).
    let before: u64 = c
        .query_first("SELECT COUNT(*) FROM mysql.slow_log")
        .expect("count")
        .expect("row");
    c.query_drop("FLUSH SLOW LOGS").expect("flush");
    let text = std::fs::read_to_string(&slow).expect("slow log");
    let entries = text.matches("# Time: ").count() as u64;
    assert_eq!(entries, before + 1, "{text}");

    // Neither a cached plan nor a prepared statement freezes the rows.
    let stmt = c
        .prep("SELECT COUNT(*) FROM mysql.slow_log WHERE thread_id = ?")
        .expect("prepare");
    let first: u64 = c.exec_first(&stmt, (id,)).expect("exec").expect("row");
    let second: u64 = c.exec_first(&stmt, (id,)).expect("exec").expect("row");
    assert_eq!(second, first + 1);

    let commands: Vec<(String, String)> = c
        .query(format!(
            "SELECT command_type, argument FROM mysql.general_log WHERE thread_id = {id} \
             ORDER BY event_time"
        ))
        .expect("read general_log");
    let has = |cmd: &str, arg: &str| commands.iter().any(|(c, a)| c == cmd && a == arg);
    assert!(has("Query", "CREATE DATABASE lt"), "{commands:?}");
    assert!(has("Query", odd), "{commands:?}");
    assert!(
        has("Prepare", "SELECT v FROM t WHERE id = ?"),
        "{commands:?}"
    );
    assert!(
        has("Execute", "SELECT v FROM t WHERE id = 3"),
        "{commands:?}"
    );
    assert!(
        commands
            .iter()
            .any(|(c, a)| c == "Connect" && a.starts_with("root@")),
        "{commands:?}"
    );
    c.query_drop("FLUSH GENERAL LOGS").expect("flush");
    let gtext = std::fs::read_to_string(&general).expect("general log");
    assert!(
        gtext.contains("\tSELECT v FROM t WHERE id = 3\n"),
        "{gtext}"
    );

    let create: (String, String) = c
        .query_first("SHOW CREATE TABLE mysql.general_log")
        .expect("show create")
        .expect("row");
    assert!(
        create.1.contains("`argument` mediumblob NOT NULL"),
        "{}",
        create.1
    );
    assert!(create.1.contains("ENGINE=CSV"), "{}", create.1);
    for dml in [
        "INSERT INTO mysql.slow_log (sql_text) VALUES ('fake')",
        "DELETE FROM mysql.general_log",
        "UPDATE mysql.slow_log SET rows_sent = 0",
    ] {
        let e = c
            .query_drop(dml)
            .expect_err("only the server writes log tables");
        assert!(e.to_string().contains("1556"), "{dml}: {e}");
    }
    // TRUNCATE empties the table; its own row comes after.
    c.query_drop("TRUNCATE TABLE mysql.slow_log")
        .expect("truncate");
    let left: Vec<String> = c
        .query("SELECT sql_text FROM mysql.slow_log")
        .expect("after truncate");
    assert_eq!(left, vec!["TRUNCATE TABLE mysql.slow_log".to_string()]);
    // TABLE only: the file stops growing, the table goes on.
    c.query_drop("SET GLOBAL log_output = 'TABLE'")
        .expect("table only");
    c.query_drop("FLUSH SLOW LOGS").expect("flush");
    let size = std::fs::metadata(&slow).expect("slow log").len();
    c.query_drop("SELECT 'table-only'").expect("q");
    let n: u64 = c
        .query_first(
            "SELECT COUNT(*) FROM mysql.slow_log WHERE sql_text = 'SELECT \\'table-only\\''",
        )
        .expect("count")
        .expect("row");
    assert_eq!(n, 1);
    c.query_drop("FLUSH SLOW LOGS").expect("flush");
    assert_eq!(std::fs::metadata(&slow).expect("slow log").len(), size);
    drop(c);
    // The rows are in the data directory: still there after a restart.
    server.restart();
    let mut c = server.mysql_conn();
    let n: u64 = c
        .query_first("SELECT COUNT(*) FROM mysql.slow_log WHERE sql_text LIKE 'TRUNCATE%'")
        .expect("count")
        .expect("row");
    assert_eq!(n, 1, "log table rows survive a restart");
    drop(c);
    server.stop();
    let _ = std::fs::remove_dir_all(&logs);
}

/// Acceptance 2 of the query-log issue: sysbench oltp_read_write at 64 threads with the slow
/// log (`long_query_time=0`), the general log and the audit log all on, the files reopened
/// 20 times by FLUSH LOGS and twice by rename + SIGHUP during the run: every entry of each
/// log parses, and each log holds exactly as many statements as sysbench executed.
#[test]
fn sysbench_with_every_log_on_keeps_every_statement_across_rotations() {
    if !tools() || !require_tool("sysbench") {
        return;
    }
    let logs = unique_temp_dir("qlog-sysbench");
    let (slow, general, audit) = (
        logs.join("sb-slow.log"),
        logs.join("sb-general.log"),
        logs.join("sb-audit.log"),
    );
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE sbtest").expect("db");
    let sb = |extra: &[&str]| {
        let mut a = vec![
            "oltp_read_write",
            "--mysql-db=sbtest",
            "--tables=2",
            "--table-size=10000",
        ];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let args = sb(&["prepare"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_success("sysbench prepare", &server.sysbench(&args));
    // This session (a user of its own) keeps out of the logs it rotates.
    c.query_drop("CREATE USER rot@'%'").expect("user");
    c.query_drop("GRANT ALL ON *.* TO rot@'%'").expect("grant");
    drop(c);
    let mut rot =
        mysql::Conn::new(server.opts().user(Some("rot")).pass(None::<String>)).expect("rot");
    rot.query_drop("SET SESSION sql_log_off = 1, SESSION slow_query_log = 0")
        .expect("session off");
    for set in [
        format!("slow_query_log_file = '{}'", slow.display()),
        format!("general_log_file = '{}'", general.display()),
        format!("audit_log_file = '{}'", audit.display()),
        "audit_log_exclude_accounts = 'rot'".to_string(),
        "long_query_time = 0".to_string(),
        "slow_query_log = ON".to_string(),
        "general_log = ON".to_string(),
        "audit_log = ON".to_string(),
    ] {
        rot.query_drop(format!("SET GLOBAL {set}"))
            .expect("set global");
    }
    let pid = server.pid().expect("pid") as libc::pid_t;
    let mut renamed: Vec<[PathBuf; 3]> = Vec::new();
    let report = std::thread::scope(|s| {
        let run = s.spawn(|| {
            let args = sb(&["--threads=64", "--time=6", "run"]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = server.sysbench(&args);
            assert_success("sysbench run", &out);
            String::from_utf8_lossy(&out.stdout).into_owned()
        });
        std::thread::sleep(std::time::Duration::from_millis(500));
        for r in 0..22 {
            std::thread::sleep(std::time::Duration::from_millis(220));
            if r == 7 || r == 15 {
                let to = [&slow, &general, &audit].map(|p| {
                    let mut s = p.as_os_str().to_owned();
                    s.push(format!(".r{r}"));
                    PathBuf::from(s)
                });
                for (from, to) in [&slow, &general, &audit].iter().zip(&to) {
                    std::fs::rename(from, to).expect("rename a log");
                }
                renamed.push(to);
                // SAFETY: kill(2) on the server this test started.
                unsafe { libc::kill(pid, libc::SIGHUP) };
            } else {
                rot.query_drop("FLUSH LOGS").expect("flush logs");
            }
        }
        run.join().expect("sysbench thread")
    });
    let field = |label: &str| -> u64 {
        report
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(label))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("sysbench report lacks {label}:\n{report}"))
    };
    // Statements that failed with an ignorable error (a deadlock) ran too; sysbench counts
    // them apart.
    let executed = field("total:") + field("ignored errors:");
    let transactions = field("transactions:");
    assert!(transactions > 0, "{report}");
    rot.query_drop(
        "SET GLOBAL slow_query_log = OFF, GLOBAL general_log = OFF, GLOBAL audit_log = OFF",
    )
    .expect("off");
    drop(rot);
    server.stop();
    let files = |i: usize, current: &Path| -> Vec<PathBuf> {
        let mut f: Vec<PathBuf> = renamed.iter().map(|r| r[i].clone()).collect();
        f.push(current.to_path_buf());
        f
    };

    // Slow log: pt-query-digest reads every entry without a warning; one per statement.
    let s = digest(&files(0, &slow), false);
    let slow_entries: u64 = s.values().sum();
    let mut raw_entries = 0;
    for f in files(0, &slow) {
        let text = std::fs::read_to_string(&f).expect("slow log");
        raw_entries +=
            text.matches("\n# Time: ").count() + usize::from(text.starts_with("# Time: "));
    }
    assert_eq!(raw_entries as u64, slow_entries, "every slow entry parsed");
    assert_eq!(
        slow_entries, executed,
        "slow log entries = statements ({report}) {s:#?}"
    );

    // General log: every line whole; one Query/Execute line per statement.
    let mut general_statements = 0;
    for f in files(1, &general) {
        for line in std::fs::read_to_string(&f).expect("general log").lines() {
            let header = line.contains("mysqld, Version:")
                || line.starts_with("Tcp port:")
                || line.starts_with("Time                 Id Command");
            if header {
                continue;
            }
            let (time, rest) = line.split_at_checked(27).expect("a whole line");
            assert!(
                time.as_bytes()[10] == b'T' && time.ends_with('Z') && rest.starts_with('\t'),
                "{}: not a whole line: {line:?}",
                f.display()
            );
            let (_id, command) = rest[1..].trim_start().split_once(' ').expect("id command");
            let command = command.split('\t').next().unwrap_or("");
            assert!(
                [
                    "Connect",
                    "Quit",
                    "Query",
                    "Prepare",
                    "Execute",
                    "Close stmt",
                    "Reset stmt"
                ]
                .contains(&command),
                "{line:?}"
            );
            general_statements += u64::from(command == "Query" || command == "Execute");
        }
    }
    assert_eq!(
        general_statements, executed,
        "general log statements ({report})"
    );
    let g = digest(&files(1, &general), true);
    assert!(
        g.values().sum::<u64>() >= executed,
        "pt-query-digest --type genlog read it"
    );

    // Audit log: every line a JSON object; one Query/Execute record per statement, a
    // Connect and a Quit per sysbench connection.
    let py = "import json,sys,collections\nc=collections.Counter()\nfor p in sys.argv[1:]:\n  for l in open(p,encoding='utf-8'):\n    c[json.loads(l)['name']]+=1\nfor k,v in c.items(): print(k, v)";
    let mut cmd = Command::new(find_tool("python3").expect("python3"));
    cmd.arg("-c").arg(py).args(files(2, &audit));
    let out = run_with_timeout(cmd, None, std::time::Duration::from_secs(120));
    assert_success("python3 (reading the audit log)", &out);
    let mut names = BTreeMap::new();
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        let (k, v) = l.split_once(' ').expect("name count");
        names.insert(k.to_string(), v.parse::<u64>().expect("count"));
    }
    let n = |k: &str| names.get(k).copied().unwrap_or(0);
    assert_eq!(n("Query") + n("Execute"), executed, "{names:?} ({report})");
    assert_eq!(n("Connect"), 64, "{names:?}");
    assert_eq!(n("Quit"), 64, "{names:?}");
    let _ = std::fs::remove_dir_all(&logs);
}

/// A client that got a statement's answer and asks on another connection finds the
/// statement in every record at once (the session records a statement before it answers):
/// the slow log table and file (after FLUSH SLOW LOGS), the session's statement history,
/// the statement digests and the global counters — over the text protocol and prepared
/// statements, for small and large answers.
#[test]
fn an_answered_statement_is_already_recorded_for_other_connections() {
    if !quire_only() {
        return;
    }
    let logs = unique_temp_dir("qlog-answered");
    let (slow, _) = log_files(&logs);
    let mut server = TestServer::start_with(&[
        "--log-output=FILE,TABLE",
        "--slow-query-log",
        "--long-query-time=0",
        &format!("--slow-query-log-file={}", slow.display()),
    ]);
    let mut a = server.mysql_conn();
    let mut b = server.mysql_conn();
    let a_id: u64 = a
        .query_first("SELECT CONNECTION_ID()")
        .expect("id")
        .expect("row");
    let shape = |c: &mut mysql::Conn| -> u64 {
        let n: Option<u64> = c
            .query_first(
                "SELECT SUM(COUNT_STAR) FROM performance_schema.events_statements_summary_by_digest \
                 WHERE DIGEST_TEXT LIKE 'SELECT ? AS `answered` , REPEAT %'",
            )
            .expect("digest")
            .expect("row");
        n.unwrap_or(0)
    };
    let executes = |c: &mut mysql::Conn| -> u64 {
        let (_, v): (String, String) = c
            .query_first("SHOW GLOBAL STATUS LIKE 'Com_stmt_execute'")
            .expect("status")
            .expect("row");
        v.parse().expect("number")
    };
    let (shape0, executes0) = (shape(&mut b), executes(&mut b));
    for i in 0..60u64 {
        // Every third answer is 3 MB, more than a socket buffer takes at once.
        let pad = if i % 3 == 2 { 3 << 20 } else { 8 };
        let text = format!("SELECT {i} AS answered, REPEAT('x', {pad})");
        let got: (u64, String) = a.query_first(&text).expect("text").expect("row");
        assert_eq!((got.0, got.1.len() as u64), (i, pad));
        let history: u64 = b
            .query_first(format!(
                "SELECT COUNT(*) FROM performance_schema.events_statements_history \
                 WHERE THREAD_ID = {a_id} AND SQL_TEXT = \"{text}\""
            ))
            .expect("history")
            .expect("row");
        assert_eq!(history, 1, "{text} in the history");
        let logged: u64 = b
            .query_first(format!(
                "SELECT COUNT(*) FROM mysql.slow_log WHERE sql_text = \"{text}\""
            ))
            .expect("slow_log")
            .expect("row");
        assert_eq!(logged, 1, "{text} in mysql.slow_log");
        let got: (u64, String) = a
            .exec_first("SELECT ? AS answered, REPEAT('y', ?)", (i, pad))
            .expect("prepared")
            .expect("row");
        assert_eq!((got.0, got.1.len() as u64), (i, pad));
        assert_eq!(shape(&mut b), shape0 + 2 * (i + 1), "digest count");
        assert_eq!(executes(&mut b), executes0 + i + 1, "Com_stmt_execute");
        if i % 10 == 9 {
            b.query_drop("FLUSH SLOW LOGS").expect("flush");
            let file = std::fs::read_to_string(&slow).expect("slow log file");
            assert!(file.contains(&format!("{text};")), "{text} in the file");
        }
    }
    server.assert_alive("after the reads");
    let _ = std::fs::remove_dir_all(&logs);
}
