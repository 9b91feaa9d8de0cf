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
            if r % 2 == 0 {
                // SAFETY: kill(2) on the server we started.
                unsafe { libc::kill(pid, libc::SIGHUP) };
            } else {
                c.query_drop("FLUSH LOGS").expect("flush logs");
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
    assert!(
        slow_files.len() >= 5,
        "the slow log was reopened: {slow_files:?}"
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
    let e = c
        .query_drop("SET GLOBAL log_output = 'TABLE'")
        .expect_err("TABLE is not supported yet");
    assert!(e.to_string().contains("1235"), "{e}");
    let output: Option<String> = c.query_first("SELECT @@global.log_output").expect("read");
    assert_eq!(
        output.as_deref(),
        Some("FILE"),
        "a refused value is not set"
    );
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
