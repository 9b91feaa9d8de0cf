//! The audit log: JSON lines read back by Python's `json` (an independent parser), its
//! policy, account filter and strategies, and the hash chain checked by
//! `quire audit-verify` — intact across FLUSH LOGS, rename + SIGHUP and size rotation,
//! broken exactly where a record was edited or deleted.

mod common;

use common::*;
use mysql::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn quire_only() -> bool {
    if target() != Target::Quire {
        eprintln!("audit-log tests are Quire-only (QUIRE_TEST_TARGET=mariadb): not run");
        return false;
    }
    true
}

/// One audit record, as Python's `json` read it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rec {
    name: String,
    conn: u64,
    user: String,
    status: u64,
    class: String,
    rows: Option<u64>,
    db: String,
    sql: Option<String>,
}

/// Every line of `files` parsed as one JSON object (the test fails on any that is not).
fn records(files: &[PathBuf]) -> Vec<Rec> {
    let py = r#"
import json, sys
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            try:
                r = json.loads(line)
            except ValueError as e:
                sys.exit(f'{path}:{n}: not a JSON record: {e}: {line!r}')
            for k in ('timestamp', 'name', 'connection_id', 'user', 'host', 'ip', 'db', 'command_class', 'status'):
                if k not in r:
                    sys.exit(f'{path}:{n}: no {k}: {line!r}')
            print(json.dumps([r['name'], r['connection_id'], r['user'], r['status'], r['command_class'], r.get('rows'), r['db'], r.get('sqltext')]))
"#;
    let mut cmd = Command::new(find_tool("python3").expect("python3"));
    cmd.arg("-c").arg(py).args(files);
    let out = run_with_timeout(cmd, None, Duration::from_secs(120));
    assert_success("python3 (reading the audit log)", &out);
    // Each output line is a JSON array of plain values: split it by hand.
    let mut cmd = Command::new(find_tool("python3").expect("python3"));
    cmd.arg("-c").arg(
        "import json,sys\nfor l in sys.stdin:\n  a=json.loads(l)\n  print('\\x1f'.join('' if v is None else str(v).replace('\\n','\\\\n') for v in a))",
    );
    let flat = run_with_timeout(cmd, Some(&out.stdout), Duration::from_secs(120));
    assert_success("python3", &flat);
    String::from_utf8_lossy(&flat.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\x1f').collect();
            let opt = |s: &str| (!s.is_empty()).then(|| s.to_string());
            Rec {
                name: f[0].to_string(),
                conn: f[1].parse().expect("connection_id"),
                user: f[2].to_string(),
                status: f[3].parse().expect("status"),
                class: f[4].to_string(),
                rows: opt(f[5]).map(|r| r.parse().expect("rows")),
                db: f[6].to_string(),
                sql: f.get(7).and_then(|s| opt(s)),
            }
        })
        .collect()
}

fn quire_bin() -> PathBuf {
    std::env::var_os("QUIRE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_quire")))
}

/// `quire audit-verify FILES`: (exit code, stdout).
fn verify(files: &[PathBuf]) -> (i32, String) {
    let mut cmd = Command::new(quire_bin());
    cmd.arg("audit-verify").args(files);
    let out = run_with_timeout(cmd, None, Duration::from_secs(120));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn status(c: &mut mysql::Conn, name: &str) -> u64 {
    let v: Option<(String, u64)> = c
        .query_first(format!("SHOW GLOBAL STATUS LIKE '{name}'"))
        .expect("status");
    v.map(|v| v.1).unwrap_or(0)
}

#[test]
fn records_follow_policy_accounts_and_strategies() {
    if !quire_only() || !require_tool("python3") {
        return;
    }
    let dir = unique_temp_dir("audit-policy");
    let file = dir.join("audit.json");
    let mut server = TestServer::start_with(&[
        "--audit-log=ON",
        &format!("--audit-log-file={}", file.display()),
    ]);
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE au").expect("db");
    c.query_drop("CREATE USER app@'%' IDENTIFIED BY 'pw'")
        .expect("user");
    c.query_drop("GRANT ALL ON au.* TO app@'%'").expect("grant");
    c.query_drop("CREATE TABLE au.t (id INT PRIMARY KEY, v VARCHAR(20))")
        .expect("table");
    let app_opts = || {
        server
            .opts()
            .user(Some("app"))
            .pass(Some("pw"))
            .db_name(Some("au"))
    };
    {
        let mut a = mysql::Conn::new(app_opts()).expect("app");
        a.query_drop("INSERT INTO t VALUES (1, 'line\none \"quoted\"'), (2, 'b')")
            .expect("insert");
        let _: Vec<i64> = a.exec("SELECT id FROM t WHERE id > ?", (0,)).expect("exec");
        assert!(a.query_drop("SELECT nosuch FROM t").is_err());
    }
    // A failed login, once the session above has ended on the server (its Quit first).
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while status(&mut c, "Threads_connected") > 1 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(mysql::Conn::new(server.opts().user(Some("app")).pass(Some("wrong"))).is_err());
    c.query_drop("FLUSH LOGS").expect("flush"); // everything so far is in the file
    let recs = records(std::slice::from_ref(&file));
    // (The driver asks for `@@max_allowed_packet` and the like when it connects.)
    let app: Vec<&Rec> = recs
        .iter()
        .filter(|r| {
            r.user == "app" && !r.sql.as_deref().is_some_and(|s| s.starts_with("SELECT @@"))
        })
        .collect();
    let shapes: Vec<(&str, &str, u64)> = app
        .iter()
        .map(|r| (r.name.as_str(), r.class.as_str(), r.status))
        .collect();
    assert_eq!(
        shapes,
        [
            ("Connect", "connect", 0),
            ("Query", "insert", 0),
            ("Execute", "select", 0),
            ("Query", "select", 1054),
            ("Quit", "quit", 0),
            ("Connect", "connect", 1045),
        ],
        "{recs:#?}"
    );
    assert_eq!(app[1].rows, Some(2));
    assert_eq!(
        app[1].sql.as_deref(),
        Some("INSERT INTO t VALUES (1, 'line\\none \"quoted\"'), (2, 'b')")
    );
    assert_eq!(app[2].sql.as_deref(), Some("SELECT id FROM t WHERE id > 0"));
    assert_eq!(app[2].rows, Some(2));
    assert!(app[..5].iter().all(|r| r.conn == app[0].conn));
    // The session's database (it logged in to `au`); none for the refused login.
    assert!(app[..5].iter().all(|r| r.db == "au"), "{app:#?}");
    assert_eq!(app[5].db, "");

    // Policy and accounts are dynamic: LOGINS keeps statements out; an include list keeps
    // other accounts out; the lists exclude each other (as in Percona).
    let before = records(std::slice::from_ref(&file)).len();
    c.query_drop("SET GLOBAL audit_log_policy = 'LOGINS'")
        .expect("policy");
    {
        let mut a = mysql::Conn::new(app_opts()).expect("app");
        a.query_drop("SELECT 'not audited'").expect("q");
    }
    c.query_drop("SET GLOBAL audit_log_policy = 'ALL'")
        .expect("policy");
    c.query_drop("SET GLOBAL audit_log_include_accounts = 'app@%'")
        .expect("include");
    let e = c
        .query_drop("SET GLOBAL audit_log_exclude_accounts = 'root@%'")
        .expect_err("both lists");
    assert!(e.to_string().contains("1231"), "{e}");
    c.query_drop("SELECT 'root is not audited now'").expect("q");
    {
        let mut a = mysql::Conn::new(app_opts()).expect("app");
        a.query_drop("SELECT 'app is'").expect("q");
    }
    c.query_drop("SET GLOBAL audit_log_include_accounts = ''")
        .expect("include");
    c.query_drop("FLUSH LOGS").expect("flush");
    let recs = records(std::slice::from_ref(&file));
    let new: Vec<(String, String)> = recs[before..]
        .iter()
        .map(|r| (r.name.clone(), r.sql.clone().unwrap_or_default()))
        .collect();
    assert!(
        !new.iter()
            .any(|n| n.1.contains("not audited") || n.1.contains("root is not")),
        "{new:#?}"
    );
    assert!(new.iter().any(|n| n.1 == "SELECT 'app is'"), "{new:#?}");
    assert_eq!(
        new.iter().filter(|n| n.0 == "Connect").count(),
        2,
        "{new:#?}"
    );

    // COM_CHANGE_USER: the records after it carry the new account.
    {
        let mut r = server.mysql_conn();
        r.query_drop("SELECT 'as root'").expect("q");
        r.change_user(
            mysql::ChangeUserOpts::new()
                .with_user(Some("app".into()))
                .with_pass(Some("pw".into()))
                .with_db_name(Some("au".into())),
        )
        .expect("change user");
        r.query_drop("SELECT 'as app'").expect("q");
        // Each record has the session's database of its moment.
        r.query_drop("USE mysql").expect("use");
        r.query_drop("SELECT 'in mysql'").expect("q");
        r.query_drop("USE au").expect("use");
        r.query_drop("SELECT 'in au again'").expect("q");
    }
    c.query_drop("FLUSH LOGS").expect("flush");
    let recs = records(std::slice::from_ref(&file));
    let who = |text: &str| {
        recs.iter()
            .find(|r| r.sql.as_deref() == Some(text))
            .map(|r| r.user.clone())
    };
    let db = |text: &str| {
        recs.iter()
            .find(|r| r.sql.as_deref() == Some(text))
            .map(|r| r.db.clone())
    };
    assert_eq!(db("SELECT 'as root'").as_deref(), Some(""), "{recs:#?}");
    assert_eq!(db("SELECT 'as app'").as_deref(), Some("au"), "{recs:#?}");
    // (A record is written when its statement has ended: `USE`'s has the new database.)
    assert_eq!(db("USE mysql").as_deref(), Some("mysql"), "{recs:#?}");
    assert_eq!(
        db("SELECT 'in mysql'").as_deref(),
        Some("mysql"),
        "{recs:#?}"
    );
    assert_eq!(
        db("SELECT 'in au again'").as_deref(),
        Some("au"),
        "{recs:#?}"
    );
    assert_eq!(
        who("SELECT 'as root'").as_deref(),
        Some("root"),
        "{recs:#?}"
    );
    assert_eq!(who("SELECT 'as app'").as_deref(), Some("app"), "{recs:#?}");

    // SEMISYNCHRONOUS and SYNCHRONOUS: the record is in the file when the answer arrives.
    for strategy in ["SEMISYNCHRONOUS", "SYNCHRONOUS"] {
        c.query_drop(format!("SET GLOBAL audit_log_strategy = '{strategy}'"))
            .expect("strategy");
        for i in 0..20 {
            let marker = format!("{strategy} marker {i}");
            c.query_drop(format!("SELECT '{marker}'")).expect("q");
            let text = std::fs::read_to_string(&file).expect("audit log");
            assert!(text.contains(&marker), "{marker} not in the file yet");
        }
    }
    // PERFORMANCE drops what does not fit and counts it; nothing is half-written.
    c.query_drop("SET GLOBAL audit_log_strategy = 'PERFORMANCE'")
        .expect("strategy");
    c.query_drop("SET GLOBAL audit_log_buffer_size = 4096")
        .expect("buffer");
    let long = "x".repeat(3000);
    std::thread::scope(|s| {
        for _ in 0..4 {
            let opts = server.opts();
            let long = &long;
            s.spawn(move || {
                let mut c = mysql::Conn::new(opts).expect("connect");
                for _ in 0..200 {
                    c.query_drop(format!("SELECT '{long}'")).expect("q");
                }
            });
        }
    });
    // The four sessions' Quit records are handed over before they leave the session list.
    // The polls are audited too and may themselves be dropped: count them.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let mut polls = 1u64;
    while status(&mut c, "Threads_connected") > 1 && std::time::Instant::now() < deadline {
        polls += 1;
        std::thread::sleep(Duration::from_millis(10));
    }
    // Once this returns, its record and all before it are in the file.
    c.query_drop("SET GLOBAL audit_log_strategy = 'SEMISYNCHRONOUS'")
        .expect("strategy");
    let recs = records(std::slice::from_ref(&file));
    let written = status(&mut c, "Quire_audit_log_entries");
    let dropped = status(&mut c, "Quire_audit_log_dropped");
    assert_eq!(
        recs.len() as u64,
        written,
        "entries counted = records in the file"
    );
    // After the phase's SET: each session's Connect, the driver's
    // `SELECT @@max_allowed_packet`, 200 long SELECTs and Quit, then the polls.
    let phase = recs
        .iter()
        .position(|r| {
            r.sql
                .as_deref()
                .is_some_and(|s| s.contains("audit_log_buffer_size = 4096"))
        })
        .expect("the SET that starts the phase");
    let after = &recs[phase + 1..];
    let written_after = after
        .iter()
        .filter(|r| {
            !r.sql
                .as_deref()
                .is_some_and(|s| s.contains("audit_log_strategy = 'SEMISYNCHRONOUS'"))
        })
        .count() as u64;
    let long_recs = after
        .iter()
        .filter(|r| r.sql.as_deref().is_some_and(|s| s.len() > 3000))
        .count() as u64;
    assert!(long_recs < 800, "some long records were dropped");
    assert_eq!(
        written_after + dropped,
        4 * (1 + 1 + 200 + 1) + polls,
        "written {written_after} ({long_recs} long), dropped {dropped}, polls {polls}"
    );
    drop(c);
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hash_chained_log_verifies_and_shows_where_it_was_changed() {
    if !quire_only() || !require_tool("python3") {
        return;
    }
    let dir = unique_temp_dir("audit-chain");
    let file = dir.join("audit.log");
    let mut server = TestServer::start_with(&[
        "--audit-log=ON",
        "--audit-log-hash-chain=ON",
        "--audit-log-strategy=ASYNCHRONOUS",
        &format!("--audit-log-file={}", file.display()),
    ]);
    let pid = server.pid().expect("pid") as libc::pid_t;
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE ch").expect("db");
    c.query_drop("CREATE TABLE ch.t (id INT PRIMARY KEY, n INT)")
        .expect("table");
    for i in 0..4 {
        c.query_drop(format!("INSERT INTO ch.t VALUES ({i}, 0)"))
            .expect("insert");
    }
    // Four sessions write while the file is renamed + SIGHUPed, FLUSHed, and rotated by size.
    // The sessions go on until the renames and rotations are done (however fast the
    // server is), and count what they ran.
    let mut rotated = Vec::new();
    let events_done = std::sync::atomic::AtomicBool::new(false);
    let updates = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for t in 0..4 {
            let opts = server.opts();
            let (events_done, updates) = (&events_done, &updates);
            s.spawn(move || {
                let mut c = mysql::Conn::new(opts).expect("connect");
                let mut i = 0;
                while i < 150 || !events_done.load(std::sync::atomic::Ordering::Relaxed) {
                    c.query_drop(format!("UPDATE ch.t SET n = n + {i} WHERE id = {t}"))
                        .expect("update");
                    updates.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    i += 1;
                }
            });
        }
        for r in 0..6 {
            std::thread::sleep(Duration::from_millis(40));
            let to = dir.join(format!("audit.{r}"));
            match r {
                0 | 3 => {
                    if std::fs::rename(&file, &to).is_ok() {
                        rotated.push(to);
                    }
                    // SAFETY: kill(2) on the server this test started.
                    unsafe { libc::kill(pid, libc::SIGHUP) };
                }
                2 => c
                    .query_drop("SET GLOBAL audit_log_rotate_on_size = 8192")
                    .expect("size rotation"),
                _ => {
                    if std::fs::rename(&file, &to).is_ok() {
                        rotated.push(to);
                    }
                    c.query_drop("FLUSH LOGS").expect("flush logs");
                }
            }
        }
        // A last stretch written with size rotation on, until it has rotated a file.
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while std::time::Instant::now() < deadline && numbered_files(&dir).is_empty() {
            std::thread::sleep(Duration::from_millis(20));
        }
        events_done.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    c.query_drop("SET GLOBAL audit_log_rotate_on_size = 0")
        .expect("no size rotation");
    drop(c);
    server.stop();

    // The files in write order: renamed ones (each may have size-rotated pieces, written
    // before it was renamed away), then the current one.
    let numbered = numbered_files(&dir);
    assert!(!numbered.is_empty(), "size rotation made numbered files");
    let files = order_files(&rotated, &numbered, &file);
    let (code, out) = verify(&files);
    assert_eq!(code, 0, "the chain verifies: {out} ({files:?})");
    let recs = records(&files);
    assert_eq!(
        recs.iter().filter(|r| r.class == "update").count(),
        updates.into_inner(),
        "every UPDATE is in the chain"
    );
    assert!(
        out.contains(&format!("{} records verified", recs.len())),
        "{out}"
    );

    // Tampering: one file, one record changed / deleted; the report names that record.
    let one = files
        .iter()
        .max_by_key(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0))
        .expect("a file")
        .clone();
    let text = std::fs::read_to_string(&one).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10, "{one:?} has records");
    let k = lines.len() / 2;
    let tampered = dir.join("tampered.log");
    let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    edited[k] = edited[k].replacen("\"status\":0", "\"status\":1", 1);
    assert_ne!(edited[k], lines[k]);
    std::fs::write(&tampered, edited.join("\n") + "\n").expect("write");
    let (code, out) = verify(std::slice::from_ref(&tampered));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("tampered.log:{} ", k + 1)), "{out}");
    let mut deleted: Vec<&str> = lines.clone();
    deleted.remove(k);
    std::fs::write(&tampered, deleted.join("\n") + "\n").expect("write");
    let (code, out) = verify(std::slice::from_ref(&tampered));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("tampered.log:{} ", k + 1)), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The size-rotated pieces of `dir/audit.log`, in name order.
fn numbered_files(dir: &Path) -> Vec<PathBuf> {
    let mut numbered: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("audit.log.0"))
        })
        .collect();
    numbered.sort();
    numbered
}

/// The log's files in the order they were written: each renamed file is preceded by the
/// size-rotated pieces written before it (those with an older modification time).
fn order_files(renamed: &[PathBuf], numbered: &[PathBuf], current: &Path) -> Vec<PathBuf> {
    let mtime = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let mut all: Vec<PathBuf> = renamed
        .iter()
        .chain(numbered)
        .filter(|p| p.exists())
        .cloned()
        .collect();
    all.sort_by_key(|p| mtime(p));
    if current.exists() {
        all.push(current.to_path_buf());
    }
    all
}
