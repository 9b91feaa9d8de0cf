//! The journal (binary log): durability across crashes and restarts, the files read by
//! Debian's `mariadb-binlog` and replayed into a real MariaDB, the SQL statements over the
//! log, and recovery from torn or corrupt files as `journal::recover`'s failure model says.

mod common;

use common::{Target, TestServer, assert_success, find_tool, require_tool, run_with_timeout};
use mysql::prelude::Queryable;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

/// These tests read Quire's files and options: against the MariaDB target they do not apply.
fn quire_only() -> bool {
    if common::target() != Target::Quire {
        eprintln!("journal tests are Quire-only (QUIRE_TEST_TARGET=mariadb): not run");
        return false;
    }
    true
}

/// Quire is the target and the MariaDB tools to check its log with are installed.
fn quire_with_mariadb_tools() -> bool {
    quire_only()
        && ["mariadb-binlog", "mariadb", "mariadbd"]
            .iter()
            .all(|t| require_tool(t))
}

/// Every row of a table in primary-key order, as text (NULL as `\N`).
fn dump(conn: &mut mysql::Conn, table: &str) -> Vec<String> {
    let rows: Vec<mysql::Row> = conn
        .query(format!("SELECT * FROM {table} ORDER BY 1"))
        .unwrap_or_else(|e| panic!("dump {table}: {e}"));
    rows.into_iter()
        .map(|r| {
            (0..r.len())
                .map(|i| match r.as_ref(i) {
                    Some(mysql::Value::NULL) | None => "\\N".to_string(),
                    Some(mysql::Value::Bytes(b)) => String::from_utf8_lossy(b).into_owned(),
                    Some(v) => v.as_sql(true),
                })
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}

const TYPES_DDL: &str = "CREATE TABLE j.types (
    id INT PRIMARY KEY AUTO_INCREMENT,
    ti TINYINT, si SMALLINT UNSIGNED, mi MEDIUMINT, bi BIGINT UNSIGNED,
    d DECIMAL(12,3), f FLOAT, db DOUBLE,
    c CHAR(5), vc VARCHAR(40), vb VARBINARY(10), tx TEXT, bl BLOB,
    dt DATE, dtm DATETIME(6), ts TIMESTAMP(3) NULL, tm TIME(2), y YEAR,
    e ENUM('x','y','z'), st SET('a','b','c'), bt BIT(10),
    KEY (vc))";

const TYPES_ROWS: &str = "INSERT INTO j.types
    (ti, si, mi, bi, d, f, db, c, vc, vb, tx, bl, dt, dtm, ts, tm, y, e, st, bt) VALUES
    (-5, 65535, -8388608, 18446744073709551615, -123456789.125, 1.5, -2.25e100,
     'ab', 'héllo wörld', x'00ff10', 'long text', x'deadbeef', '2024-02-29',
     '2001-02-03 04:05:06.789012', '2020-01-01 00:00:00.125', '-12:34:56.78', 2155,
     'y', 'a,c', b'1010101010'),
    (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (127, 0, 8388607, 0, 0.001, -0.5, 0, '', '', '', '', '', '1000-01-01',
     '9999-12-31 23:59:59', NULL, '838:59:59', 1901, 'x', '', b'0')";

/// A database exercising every column type, updates, deletes, transactions and DDL.
fn make_history(conn: &mut mysql::Conn) {
    conn.query_drop("CREATE DATABASE j").unwrap();
    conn.query_drop(TYPES_DDL).unwrap();
    conn.query_drop(TYPES_ROWS).unwrap();
    conn.query_drop("UPDATE j.types SET vc = CONCAT(vc, '!'), d = d * 2 WHERE id <> 2")
        .unwrap();
    conn.query_drop("CREATE TABLE j.nopk (a INT, b VARCHAR(10))")
        .unwrap();
    conn.query_drop("INSERT INTO j.nopk VALUES (1,'a'),(2,'b'),(2,'b'),(3,NULL)")
        .unwrap();
    conn.query_drop("DELETE FROM j.nopk WHERE a = 1").unwrap();
    conn.query_drop("UPDATE j.nopk SET b = 'x' WHERE a = 3")
        .unwrap();
    conn.query_drop("BEGIN").unwrap();
    conn.query_drop("INSERT INTO j.nopk VALUES (10, 'in txn')")
        .unwrap();
    conn.query_drop("UPDATE j.types SET id = 100 WHERE id = 3")
        .unwrap();
    conn.query_drop("COMMIT").unwrap();
    conn.query_drop("BEGIN").unwrap();
    conn.query_drop("INSERT INTO j.nopk VALUES (11, 'undone')")
        .unwrap();
    conn.query_drop("ROLLBACK").unwrap();
    conn.query_drop("ALTER TABLE j.nopk ADD COLUMN c INT DEFAULT 7")
        .unwrap();
    conn.query_drop("INSERT INTO j.nopk (a) VALUES (20)")
        .unwrap();
    conn.query_drop("CREATE TABLE j.gone (x INT PRIMARY KEY)")
        .unwrap();
    conn.query_drop("INSERT INTO j.gone VALUES (1)").unwrap();
    conn.query_drop("DROP TABLE j.gone").unwrap();
    conn.query_drop("CREATE TABLE j.trunc (x INT PRIMARY KEY)")
        .unwrap();
    conn.query_drop("INSERT INTO j.trunc VALUES (1),(2)")
        .unwrap();
    conn.query_drop("TRUNCATE TABLE j.trunc").unwrap();
    conn.query_drop("INSERT INTO j.trunc VALUES (3)").unwrap();
}

fn snapshot(conn: &mut mysql::Conn) -> Vec<Vec<String>> {
    ["j.types", "j.nopk", "j.trunc"]
        .iter()
        .map(|t| dump(conn, t))
        .collect()
}

#[test]
fn committed_work_survives_crash_and_restart() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let before = {
        let mut c = server.mysql_conn();
        make_history(&mut c);
        snapshot(&mut c)
    };
    assert_eq!(before[0].len(), 3, "types rows: {:?}", before[0]);
    server.crash_restart();
    let mut c = server.mysql_conn();
    assert_eq!(snapshot(&mut c), before, "after kill -9");
    let tables: Vec<String> = c.query("SHOW TABLES FROM j").unwrap();
    assert_eq!(tables, vec!["nopk", "trunc", "types"]);
    // AUTO_INCREMENT continues after the highest replayed value.
    c.query_drop("INSERT INTO j.types (ti) VALUES (1)").unwrap();
    let id: u64 = c.query_first("SELECT LAST_INSERT_ID()").unwrap().unwrap();
    assert_eq!(id, 101);
    let after_insert = snapshot(&mut c);
    drop(c);
    server.restart();
    let mut c = server.mysql_conn();
    assert_eq!(snapshot(&mut c), after_insert, "after a clean restart");
    // Each start begins a new file, as MySQL does; a clean stop ends one with Stop.
    let logs: Vec<(String, u64, String)> = c.query("SHOW BINARY LOGS").unwrap();
    let names: Vec<&str> = logs.iter().map(|l| l.0.as_str()).collect();
    assert_eq!(names, ["binlog.000001", "binlog.000002", "binlog.000003"]);
    let events: Vec<(String, u64, String, u64, u64, String)> =
        c.query("SHOW BINLOG EVENTS IN 'binlog.000002'").unwrap();
    assert_eq!(events.first().map(|e| e.2.as_str()), Some("Format_desc"));
    assert_eq!(events.last().map(|e| e.2.as_str()), Some("Stop"));
    server.stop();
}

/// Runs `mariadb-binlog` on `files`; panics on a failure or any error/warning it prints.
fn mariadb_binlog(files: &[PathBuf], args: &[&str]) -> Vec<u8> {
    let mut cmd = Command::new(find_tool("mariadb-binlog").expect("checked by caller"));
    cmd.args(args).args(files);
    let out = run_with_timeout(cmd, None, Duration::from_secs(120));
    assert_success("mariadb-binlog", &out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.to_ascii_lowercase().contains("error")
            && !err.to_ascii_lowercase().contains("warning"),
        "mariadb-binlog complained: {err}"
    );
    out.stdout
}

/// Decode each file with `mariadb-binlog -v` (no error or warning), then replay them all
/// with `mariadb-binlog FILES | mariadb` into a fresh private MariaDB, which is returned.
fn replay_into_mariadb(files: &[PathBuf], maria_args: &[&str]) -> TestServer {
    for f in files {
        mariadb_binlog(
            std::slice::from_ref(f),
            &["-v", "--base64-output=decode-rows"],
        );
    }
    let replay = mariadb_binlog(files, &[]);
    let maria = TestServer::start_mariadb(maria_args);
    let mut cmd = Command::new(find_tool("mariadb").unwrap());
    cmd.arg("-h127.0.0.1")
        .arg(format!("-P{}", maria.port()))
        .arg("-uroot");
    let out = run_with_timeout(cmd, Some(&replay), Duration::from_secs(300));
    assert_success("mariadb < replay", &out);
    maria
}

fn binlog_files(datadir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(datadir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("binlog.0"))
        })
        .collect();
    v.sort();
    v
}

/// Acceptance 1 of the journal: a 64-thread sysbench read/write run plus DDL, every file
/// decoded by `mariadb-binlog -v`, and the whole log replayed into a fresh MariaDB gives
/// the same tables.
#[test]
fn mariadb_binlog_decodes_and_replays_the_log() {
    if !quire_only() {
        return;
    }
    for tool in ["mariadb-binlog", "mariadb", "sysbench", "mariadbd"] {
        if !require_tool(tool) {
            return;
        }
    }
    let mut server = TestServer::start_with(&["--max-binlog-size=1M"]);
    let mut c = server.mysql_conn();
    make_history(&mut c);
    c.query_drop("CREATE DATABASE sbtest").unwrap();
    let sb = |cmd: &str, extra: &[&str]| {
        let mut s = Command::new(find_tool("sysbench").unwrap());
        s.arg("oltp_read_write")
            .arg("--mysql-host=127.0.0.1")
            .arg(format!("--mysql-port={}", server.port()))
            .arg("--mysql-user=root")
            .arg("--mysql-db=sbtest")
            .arg("--tables=2")
            .arg("--table-size=2000")
            .args(extra)
            .arg(cmd);
        let out = run_with_timeout(s, None, Duration::from_secs(120));
        assert_success(&format!("sysbench {cmd}"), &out);
    };
    sb("prepare", &[]);
    sb("run", &["--threads=64", "--time=4"]);
    c.query_drop("ALTER TABLE sbtest.sbtest1 ADD COLUMN extra INT DEFAULT 5")
        .unwrap();
    c.query_drop("UPDATE sbtest.sbtest1 SET extra = id % 7 WHERE id < 100")
        .unwrap();
    // The open file, with its preallocated space formatted as the filler, reads cleanly.
    let open = binlog_files(&server.datadir()).pop().unwrap();
    let text = mariadb_binlog(&[open], &["-v", "--base64-output=decode-rows"]);
    assert!(
        String::from_utf8_lossy(&text).contains("Ignorable"),
        "the filler is shown as an Ignorable event"
    );
    c.query_drop("FLUSH BINARY LOGS").unwrap();
    let files = binlog_files(&server.datadir());
    assert!(files.len() > 2, "max_binlog_size=1M rotates: {files:?}");
    let maria = replay_into_mariadb(&files, &[]);
    let mut m = maria.mysql_conn();
    for t in [
        "j.types",
        "j.nopk",
        "j.trunc",
        "sbtest.sbtest1",
        "sbtest.sbtest2",
    ] {
        let (a, b) = (dump(&mut c, t), dump(&mut m, t));
        assert_eq!(a.len(), b.len(), "{t}: row counts");
        assert!(a == b, "{t} differs after replay into MariaDB");
    }
    drop(c);
    server.stop();
}

#[test]
fn binlog_statements_and_counters() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    let (file, pos): (String, u64) = c
        .query_first("SHOW MASTER STATUS")
        .unwrap()
        .map(|r: mysql::Row| (r.get(0).unwrap(), r.get(1).unwrap()))
        .unwrap();
    assert_eq!(file, "binlog.000001");
    c.query_drop("CREATE DATABASE s").unwrap();
    c.query_drop("CREATE TABLE s.t (a INT PRIMARY KEY)")
        .unwrap();
    c.query_drop("INSERT INTO s.t VALUES (1),(2)").unwrap();
    let after: u64 = c
        .query_first::<mysql::Row, _>("SHOW BINARY LOG STATUS")
        .unwrap()
        .unwrap()
        .get(1)
        .unwrap();
    assert!(after > pos, "position moved: {pos} -> {after}");
    let counters: Vec<(String, u64)> = c.query("SHOW GLOBAL STATUS LIKE 'Binlog_%'").unwrap();
    let get = |n: &str| counters.iter().find(|s| s.0 == n).map(|s| s.1).unwrap_or(0);
    assert!(get("Binlog_commits") >= 3, "{counters:?}");
    assert!(
        get("Binlog_group_commits") >= 1 && get("Binlog_group_commits") <= get("Binlog_commits")
    );
    assert!(get("Binlog_bytes_written") > 0);

    let events: Vec<(String, u64, String, u64, u64, String)> =
        c.query("SHOW BINLOG EVENTS").unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.2.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "Format_desc",
            "Query",
            "Query",
            "Query",
            "Table_map",
            "Write_rows_v1",
            "Xid"
        ]
    );
    assert_eq!(events[2].5, "CREATE TABLE s.t (a INT PRIMARY KEY)");
    assert_eq!(
        events[4].5,
        format!(
            "table_id: {} (s.t)",
            events[4].5[10..].split(' ').next().unwrap()
        )
    );
    // FROM and LIMIT.
    let from: Vec<(String, u64, String, u64, u64, String)> = c
        .query(format!(
            "SHOW BINLOG EVENTS FROM {} LIMIT 1, 2",
            events[3].1
        ))
        .unwrap();
    assert_eq!(from.len(), 2);
    assert_eq!(from[0].1, events[4].1);

    c.query_drop("FLUSH BINARY LOGS").unwrap();
    let logs: Vec<(String, u64, String)> = c.query("SHOW BINARY LOGS").unwrap();
    assert_eq!(logs.len(), 2);
    assert_eq!(
        logs[0].1,
        std::fs::metadata(server.datadir().join("binlog.000001"))
            .unwrap()
            .len()
    );
    let rotate: Vec<(String, u64, String, u64, u64, String)> =
        c.query("SHOW BINLOG EVENTS IN 'binlog.000001'").unwrap();
    assert_eq!(rotate.last().unwrap().5, "binlog.000002;pos=4");
    // Recovery still needs binlog.000001 (no checkpoint yet): kept, with a warning.
    c.query_drop("PURGE BINARY LOGS TO 'binlog.000002'")
        .unwrap();
    let warnings: Vec<(String, u32, String)> = c.query("SHOW WARNINGS").unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].1, 1867);
    assert!(server.datadir().join("binlog.000001").exists());
    let e = c
        .query_drop("PURGE BINARY LOGS TO 'nope.000001'")
        .unwrap_err();
    assert!(e.to_string().contains("1373"), "{e}");
    let e = c
        .query_drop("SHOW BINLOG EVENTS IN 'nope.000001'")
        .unwrap_err();
    assert!(e.to_string().contains("1220"), "{e}");

    // The durability settings are dynamic: with flush=0 and sync_binlog=0 commits do not
    // fsync; back at the defaults every commit does.
    let fsyncs = |c: &mut mysql::Conn| status(c, "Quire_journal_fsyncs");
    c.query_drop("SET GLOBAL innodb_flush_log_at_trx_commit = 0, GLOBAL sync_binlog = 0")
        .unwrap();
    let before = fsyncs(&mut c);
    for i in 10..30 {
        c.query_drop(format!("INSERT INTO s.t VALUES ({i})"))
            .unwrap();
    }
    assert!(fsyncs(&mut c) - before < 5, "fsyncs in mode 0");
    c.query_drop(
        "SET GLOBAL innodb_flush_log_at_trx_commit = DEFAULT, GLOBAL sync_binlog = DEFAULT",
    )
    .unwrap();
    let before = fsyncs(&mut c);
    for i in 30..40 {
        c.query_drop(format!("INSERT INTO s.t VALUES ({i})"))
            .unwrap();
    }
    assert!(
        fsyncs(&mut c) - before >= 10,
        "one fsync per serial durable commit"
    );
    drop(c);
    server.stop();
}

/// `binlog_group_commit_sync_delay` holds a lone commit back for the delay;
/// `binlog_group_commit_sync_no_delay_count` commits end the wait early, as one group.
#[test]
fn group_commit_delay_waits_and_the_count_ends_it() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE g").unwrap();
    c.query_drop("CREATE TABLE g.t (a INT PRIMARY KEY)")
        .unwrap();
    c.query_drop(
        "SET GLOBAL binlog_group_commit_sync_delay = 1000000, \
         GLOBAL binlog_group_commit_sync_no_delay_count = 4",
    )
    .unwrap();
    let counters = |c: &mut mysql::Conn| -> (u64, u64) {
        let v: Vec<(String, u64)> = c
            .query("SHOW GLOBAL STATUS LIKE 'Binlog_%commits'")
            .unwrap();
        let get = |n: &str| v.iter().find(|s| s.0 == n).map(|s| s.1).unwrap();
        (get("Binlog_commits"), get("Binlog_group_commits"))
    };

    let t = std::time::Instant::now();
    c.query_drop("INSERT INTO g.t VALUES (0)").unwrap();
    let lone = t.elapsed();
    assert!(
        lone >= Duration::from_millis(950),
        "a lone commit waited {lone:?}"
    );

    let before = counters(&mut c);
    let go = Arc::new(std::sync::Barrier::new(4));
    let t = std::time::Instant::now();
    let workers: Vec<_> = (1..=4)
        .map(|i| {
            let mut w = server.mysql_conn();
            let go = go.clone();
            std::thread::spawn(move || {
                go.wait();
                w.query_drop(format!("INSERT INTO g.t VALUES ({i})"))
                    .unwrap();
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let four = t.elapsed();
    let after = counters(&mut c);
    assert_eq!(after.0 - before.0, 4, "{before:?} -> {after:?}");
    assert_eq!(after.1 - before.1, 1, "one group: {before:?} -> {after:?}");
    assert!(
        four < Duration::from_millis(800),
        "the fourth commit should end the 1 s wait, took {four:?}"
    );
    let n: u64 = c.query_first("SELECT COUNT(*) FROM g.t").unwrap().unwrap();
    assert_eq!(n, 5);
}

#[test]
fn skip_log_bin_hides_the_log_but_keeps_commits() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start_with(&["--skip-log-bin"]);
    let mut c = server.mysql_conn();
    let e = c.query_drop("SHOW BINARY LOGS").unwrap_err();
    assert!(e.to_string().contains("1381"), "{e}");
    let e = c.query_drop("RESET MASTER").unwrap_err();
    assert!(e.to_string().contains("1186"), "{e}");
    let rows: Vec<mysql::Row> = c.query("SHOW MASTER STATUS").unwrap();
    assert!(rows.is_empty());
    let log_bin: Option<(String, String)> = c.query_first("SHOW VARIABLES LIKE 'log_bin'").unwrap();
    assert_eq!(log_bin.unwrap().1, "OFF");
    c.query_drop("CREATE DATABASE k").unwrap();
    c.query_drop("CREATE TABLE k.t (a INT PRIMARY KEY, b TEXT)")
        .unwrap();
    c.query_drop("INSERT INTO k.t VALUES (1,'one'),(2,'two')")
        .unwrap();
    drop(c);
    server.crash_restart();
    let mut c = server.mysql_conn();
    assert_eq!(dump(&mut c, "k.t"), ["1|one", "2|two"]);
    server.stop();
}

/// The last file of a crashed server: everything up to the last complete transaction.
fn crashed_server_with_log() -> (TestServer, PathBuf, Vec<String>) {
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE r").unwrap();
    c.query_drop("CREATE TABLE r.t (a INT PRIMARY KEY, b VARCHAR(50))")
        .unwrap();
    for i in 0..20 {
        c.query_drop(format!("INSERT INTO r.t VALUES ({i}, 'row {i}')"))
            .unwrap();
    }
    let rows = dump(&mut c, "r.t");
    drop(c);
    server.kill();
    let file = server.datadir().join("binlog.000001");
    (server, file, rows)
}

fn start_after_damage(server: &mut TestServer) -> Vec<String> {
    server.crash_restart();
    let mut c = server.mysql_conn();
    dump(&mut c, "r.t")
}

/// The last transaction's BEGIN offset and the end of the log: where the filler starts
/// (the Ignorable event with LOG_EVENT_IGNORABLE_F that fills the preallocated rest of an
/// open file), or the end of the file.
fn last_txn_and_log_end(file: &Path) -> (usize, usize) {
    let data = std::fs::read(file).unwrap();
    let mut at = 4usize;
    let mut last_begin = 0;
    while at + 19 <= data.len() {
        let size = u32::from_le_bytes(data[at + 9..at + 13].try_into().unwrap()) as usize;
        if data[at + 4] == 28 && data[at + 17] & 0x80 != 0 {
            break;
        }
        if data[at + 4] == 2 && data[at..at + size].windows(5).any(|w| w == b"BEGIN") {
            last_begin = at;
        }
        at += size;
    }
    (last_begin, at)
}

#[test]
fn torn_tail_is_cut_at_every_position_of_the_last_event() {
    if !quire_only() {
        return;
    }
    let (mut server, file, rows) = crashed_server_with_log();
    let full = std::fs::read(&file).unwrap();
    let (begin, len) = last_txn_and_log_end(&file);
    assert!(len < full.len(), "an open file ends with the filler");
    // Every cut inside the last transaction loses exactly that transaction. (Positions are
    // sampled on a stride to keep the test short; the first and last bytes always.) Two
    // shapes of damage: the file ends there (no preallocation), or the rest of the write
    // never reached the disk and the preallocated space still holds zeros and the filler's
    // checksum.
    let mut cuts: Vec<usize> = (begin + 1..len).step_by(7).collect();
    cuts.push(len - 1);
    for cut in cuts {
        for zeroed in [false, true] {
            let damaged = if zeroed {
                let mut d = full.clone();
                d[cut..len + 19].fill(0);
                d
            } else {
                full[..cut].to_vec()
            };
            std::fs::write(&file, &damaged).unwrap();
            let got = start_after_damage(&mut server);
            assert_eq!(
                got,
                rows[..rows.len() - 1],
                "cut at {cut} of {len} (zeros after: {zeroed})"
            );
            server.kill();
            // Restart appended a new file: drop it again so the next cut is the last file.
            reset_to_one_file(&server, &file, &full);
        }
    }
}

/// Put back a single-file journal with `bytes` as binlog.000001.
fn reset_to_one_file(server: &TestServer, file: &Path, bytes: &[u8]) {
    for f in binlog_files(&server.datadir()) {
        std::fs::remove_file(f).unwrap();
    }
    std::fs::write(file, bytes).unwrap();
    std::fs::write(server.datadir().join("binlog.index"), "./binlog.000001\n").unwrap();
}

#[test]
fn flipped_bytes_tail_versus_middle() {
    if !quire_only() {
        return;
    }
    let (mut server, file, rows) = crashed_server_with_log();
    let full = std::fs::read(&file).unwrap();
    // A flipped byte in the last event (the final Xid): a torn write; the transaction goes.
    let mut damaged = full.clone();
    let (begin, n) = last_txn_and_log_end(&file);
    damaged[n - 6] ^= 0x40;
    reset_to_one_file(&server, &file, &damaged);
    assert_eq!(start_after_damage(&mut server), rows[..rows.len() - 1]);
    server.kill();

    // A flipped byte in the middle: start-up stops, naming the file and the offset.
    let mut damaged = full.clone();
    let mid = begin / 2;
    damaged[mid] ^= 0x01;
    reset_to_one_file(&server, &file, &damaged);
    let out = run_quire_once(&server);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'binlog.000001' is corrupt at offset")
            && err.contains("--journal-recovery=truncate"),
        "{err}"
    );
    // With the explicit option the log is kept up to the corrupt event.
    server.set_extra_args(&["--journal-recovery=truncate"]);
    let got = start_after_damage(&mut server);
    assert!(got.len() < rows.len() && rows.starts_with(&got), "{got:?}");
    server.stop();
}

#[test]
fn index_and_files_disagree() {
    if !quire_only() {
        return;
    }
    let (mut server, file, rows) = crashed_server_with_log();
    let full = std::fs::read(&file).unwrap();
    // A file after the last indexed one, holding only a header (a crash while rotating):
    // removed at start-up.
    std::fs::write(server.datadir().join("binlog.000002"), &full[..4 + 123]).unwrap();
    assert_eq!(start_after_damage(&mut server), rows);
    server.kill();
    reset_to_one_file(&server, &file, &full);
    // An index that lost its entry for a file with transactions: start-up stops.
    std::fs::write(server.datadir().join("binlog.index"), "").unwrap();
    let out = run_quire_once(&server);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("binlog.000001") && err.contains("not name it"),
        "{err}"
    );
    // No index at all, files present: start-up stops too.
    std::fs::remove_file(server.datadir().join("binlog.index")).unwrap();
    let out = run_quire_once(&server);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("binlog.index"),
        "{err}"
    );
    reset_to_one_file(&server, &file, &full);
    assert_eq!(start_after_damage(&mut server), rows);
    server.stop();
}

fn quire_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_quire"))
}

/// Start quire on the server's data directory expecting it to stop at once (start-up error).
fn run_quire_once(server: &TestServer) -> std::process::Output {
    let mut cmd = Command::new(quire_bin());
    cmd.arg(format!("--datadir={}", server.datadir().display()))
        .arg("--port=0")
        .arg("--bind-address=127.0.0.1")
        .arg(format!(
            "--socket={}",
            server.dir().join("x.sock").display()
        ));
    let out = run_with_timeout(cmd, None, Duration::from_secs(60));
    assert!(!out.status.success(), "expected a start-up error");
    out
}

fn status(c: &mut mysql::Conn, name: &str) -> u64 {
    c.query_first::<(String, u64), _>(format!("SHOW GLOBAL STATUS LIKE '{name}'"))
        .unwrap()
        .map(|r| r.1)
        .unwrap_or(0)
}

/// Wait (up to 30 s) until `Quire_checkpoints` reaches `n`.
fn wait_checkpoints(c: &mut mysql::Conn, n: u64) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while status(c, "Quire_checkpoints") < n {
        assert!(
            std::time::Instant::now() < deadline,
            "no checkpoint {n} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn checkpoint_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with("quire_checkpoint."))
        .collect();
    v.sort();
    v
}

/// The last start's line about recovery.
fn recovery_note(server: &TestServer) -> String {
    server
        .stderr_log()
        .lines()
        .rfind(|l| l.contains("journal: "))
        .unwrap_or("")
        .to_string()
}

/// Rows and definition of a table after ALTER TABLE … MODIFY / CHANGE / RENAME.
fn altered(c: &mut mysql::Conn) -> (Vec<String>, String) {
    let def: (String, String) = c.query_first("SHOW CREATE TABLE j.alt").unwrap().unwrap();
    (dump(c, "j.alt"), def.1)
}

/// ALTER TABLE that converts rows (MODIFY to a narrower type under a non-strict sql_mode,
/// CHANGE, RENAME COLUMN/INDEX, a column moved FIRST) is replayed from the journal after
/// kill -9 to the same rows and definition, and a checkpoint taken after it reloads them.
#[test]
fn altered_columns_survive_crash_and_checkpoint() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE j").unwrap();
    c.query_drop("CREATE TABLE j.alt (id INT PRIMARY KEY, name VARCHAR(10), qty INT, KEY k (qty))")
        .unwrap();
    c.query_drop("INSERT INTO j.alt VALUES (1, 'one', 10), (2, 'seventeen', NULL), (3, NULL, 300)")
        .unwrap();
    // Non-strict: 'seventeen' is cut to 'sev' and NULL becomes 0, with warnings; the replay
    // runs under the statement's own sql_mode, so it cuts the same way.
    c.query_drop("SET SESSION sql_mode = ''").unwrap();
    c.query_drop("ALTER TABLE j.alt MODIFY name VARCHAR(3), MODIFY qty BIGINT NOT NULL")
        .unwrap();
    c.query_drop("SET SESSION sql_mode = DEFAULT").unwrap();
    assert!(
        c.query_drop("ALTER TABLE j.alt MODIFY qty TINYINT")
            .is_err(),
        "300 does not fit a TINYINT under strict mode"
    );
    c.query_drop("ALTER TABLE j.alt CHANGE qty quantity BIGINT NOT NULL FIRST")
        .unwrap();
    c.query_drop("ALTER TABLE j.alt RENAME COLUMN name TO label, RENAME INDEX k TO kq")
        .unwrap();
    c.query_drop("INSERT INTO j.alt (id, label, quantity) VALUES (4, 'new', 40)")
        .unwrap();
    let before = altered(&mut c);
    assert_eq!(
        before.0,
        vec!["0|2|sev", "10|1|one", "40|4|new", "300|3|\\N"],
        "rows after the ALTERs (ordered by the first column, quantity)"
    );
    assert!(before.1.contains("KEY `kq` (`quantity`)"), "{}", before.1);
    drop(c);

    server.crash_restart();
    let mut c = server.mysql_conn();
    assert_eq!(altered(&mut c), before, "journal replay after kill -9");
    c.query_drop("SET GLOBAL quire_checkpoint_interval = 1")
        .unwrap();
    let done = status(&mut c, "Quire_checkpoints");
    wait_checkpoints(&mut c, done + 1);
    c.query_drop("SET GLOBAL quire_checkpoint_interval = 0")
        .unwrap();
    drop(c);

    server.crash_restart();
    assert!(
        recovery_note(&server).contains("loaded quire_checkpoint."),
        "{}",
        recovery_note(&server)
    );
    let mut c = server.mysql_conn();
    assert_eq!(altered(&mut c), before, "checkpoint reload after kill -9");
}

/// Temporary tables are not journaled (MySQL 8 with binlog_format=ROW): neither their DDL
/// nor their rows, also inside a transaction that writes a base table; DROP TABLE of a
/// temporary and a base table is logged naming the base one. After kill -9 the base table
/// is as committed and the temporary ones are gone.
#[test]
fn temporary_tables_stay_out_of_the_journal() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE s").unwrap();
    c.query_drop("CREATE TABLE s.base (a INT PRIMARY KEY)")
        .unwrap();
    c.query_drop("CREATE TABLE s.other (a INT)").unwrap();
    c.query_drop("CREATE TEMPORARY TABLE s.tmp (a INT)")
        .unwrap();
    c.query_drop("INSERT INTO s.tmp VALUES (1), (2)").unwrap();
    c.query_drop("BEGIN").unwrap();
    c.query_drop("INSERT INTO s.tmp VALUES (3)").unwrap();
    c.query_drop("INSERT INTO s.base SELECT a FROM s.tmp")
        .unwrap();
    c.query_drop("COMMIT").unwrap();
    c.query_drop("CREATE TEMPORARY TABLE s.tmp2 AS SELECT a FROM s.base")
        .unwrap();
    c.query_drop("ALTER TABLE s.tmp2 ADD COLUMN b INT").unwrap();
    c.query_drop("DROP TABLE s.tmp, s.other").unwrap();
    let events: Vec<(String, u64, String, u64, u64, String)> =
        c.query("SHOW BINLOG EVENTS").unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.2.as_str()).collect();
    let texts: Vec<&str> = events.iter().map(|e| e.5.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "Format_desc",
            "Query",
            "Query",
            "Query",
            "Query",
            "Table_map",
            "Write_rows_v1",
            "Xid",
            "Query"
        ],
        "{texts:?}"
    );
    assert!(events[5].5.ends_with("(s.base)"), "{texts:?}");
    assert_eq!(events[8].5, "DROP TABLE `s`.`other`");
    let rows: Vec<u32> = c.query("SELECT a FROM s.tmp2 ORDER BY a").unwrap();
    assert_eq!(rows, [1, 2, 3]);
    drop(c);

    server.crash_restart();
    let mut c = server.mysql_conn();
    let rows: Vec<u32> = c.query("SELECT a FROM s.base ORDER BY a").unwrap();
    assert_eq!(rows, [1, 2, 3]);
    let tables: Vec<String> = c.query("SHOW TABLES FROM s").unwrap();
    assert_eq!(tables, ["base"]);
}

#[test]
fn checkpoint_plus_journal_restores_everything() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    make_history(&mut c);
    c.query_drop("SET GLOBAL quire_checkpoint_interval = 1")
        .unwrap();
    wait_checkpoints(&mut c, 1);
    // Work after the first checkpoint, a second one, and work after that: recovery loads
    // the newest and replays what follows it.
    c.query_drop("INSERT INTO j.types (ti, vc) VALUES (1, 'after one')")
        .unwrap();
    c.query_drop("UPDATE j.nopk SET b = 'changed' WHERE a = 2")
        .unwrap();
    wait_checkpoints(&mut c, 2);
    c.query_drop("SET GLOBAL quire_checkpoint_interval = 0")
        .unwrap();
    c.query_drop("INSERT INTO j.types (ti, vc) VALUES (2, 'after two')")
        .unwrap();
    c.query_drop("ALTER TABLE j.trunc ADD COLUMN y VARCHAR(5) DEFAULT 'new'")
        .unwrap();
    c.query_drop("DELETE FROM j.nopk WHERE a = 20").unwrap();
    let before = snapshot(&mut c);
    let next_id: u64 = c
        .query_first::<mysql::Row, _>("SHOW TABLE STATUS FROM j LIKE 'types'")
        .unwrap()
        .unwrap()
        .get(10)
        .unwrap();
    drop(c);
    assert_eq!(checkpoint_files(&server.datadir()).len(), 2);

    server.crash_restart();
    let note = recovery_note(&server);
    assert!(
        note.contains("loaded quire_checkpoint.") && !note.contains("replayed 0 transactions"),
        "{note}"
    );
    let mut c = server.mysql_conn();
    assert_eq!(
        snapshot(&mut c),
        before,
        "checkpoint + journal after kill -9"
    );
    c.query_drop("INSERT INTO j.types (ti) VALUES (3)").unwrap();
    let id: u64 = c.query_first("SELECT LAST_INSERT_ID()").unwrap().unwrap();
    assert_eq!(id, next_id, "AUTO_INCREMENT continues");
    c.query_drop(format!("DELETE FROM j.types WHERE id = {id}"))
        .unwrap();
    drop(c);

    // The newest checkpoint damaged: set aside, the older one plus more journal is used.
    let cps = checkpoint_files(&server.datadir());
    let newest = server.datadir().join(cps.last().unwrap());
    let mut bytes = std::fs::read(&newest).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&newest, &bytes).unwrap();
    server.crash_restart();
    assert!(
        server
            .stderr_log()
            .contains("is invalid (checksum mismatch)"),
        "{}",
        server.stderr_tail()
    );
    let mut c = server.mysql_conn();
    assert_eq!(snapshot(&mut c), before, "older checkpoint + journal");
    drop(c);

    // A clean stop leaves a checkpoint at the end of the journal: nothing to replay.
    server.restart();
    let note = recovery_note(&server);
    assert!(
        note.contains("replayed 0 transactions and 0 statements"),
        "{note}"
    );
    let mut c = server.mysql_conn();
    assert_eq!(snapshot(&mut c), before, "after a clean restart");
    drop(c);
    server.stop();
}

#[test]
fn journal_stays_bounded_without_binlog_and_purge_follows_checkpoints() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start_with(&["--skip-log-bin"]);
    let mut c = server.mysql_conn();
    c.query_drop("SET GLOBAL quire_checkpoint_log_size = 1048576")
        .unwrap();
    c.query_drop("CREATE DATABASE b").unwrap();
    c.query_drop("CREATE TABLE b.t (id INT PRIMARY KEY, pad VARCHAR(1000))")
        .unwrap();
    c.query_drop("INSERT INTO b.t VALUES (1, '')").unwrap();
    let pad = "x".repeat(900);
    let journal_bytes = |dir: &Path| -> (usize, u64) {
        let files: Vec<u64> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .filter(|e| {
                let n = e.file_name().into_string().unwrap_or_default();
                n.starts_with("binlog.0")
            })
            .map(|e| e.metadata().unwrap().len())
            .collect();
        (files.len(), files.iter().sum())
    };
    let mut most = 0;
    // 20 rounds of ~1 MB of updates each: 20 MB of journal in all.
    for round in 0..20 {
        for i in 0..1000 {
            c.query_drop(format!(
                "UPDATE b.t SET pad = '{pad}{round}.{i}' WHERE id = 1"
            ))
            .unwrap();
        }
        if round >= 2 {
            wait_checkpoints(&mut c, round as u64 - 1);
        }
        most = most.max(journal_bytes(&server.datadir()).1);
    }
    let (files, _) = journal_bytes(&server.datadir());
    assert!(files <= 4, "{files} journal files left");
    // The open file is preallocated 4 MB at a time; closed files hold what checkpoints do
    // not cover yet.
    assert!(
        most < 12 << 20,
        "journal reached {most} bytes for 20 MB written"
    );
    assert!(checkpoint_files(&server.datadir()).len() <= 2);
    let last = dump(&mut c, "b.t");
    drop(c);
    server.crash_restart();
    let mut c = server.mysql_conn();
    assert_eq!(dump(&mut c, "b.t"), last);
    drop(c);
    server.stop();

    // log_bin=ON: PURGE removes what the checkpoints cover, without a warning.
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE p").unwrap();
    c.query_drop("CREATE TABLE p.t (a INT PRIMARY KEY)")
        .unwrap();
    c.query_drop("SET GLOBAL quire_checkpoint_interval = 1")
        .unwrap();
    for i in 0..3 {
        c.query_drop(format!("INSERT INTO p.t VALUES ({i})"))
            .unwrap();
        c.query_drop("FLUSH BINARY LOGS").unwrap();
        wait_checkpoints(&mut c, i + 1);
    }
    let logs: Vec<(String, u64, String)> = c.query("SHOW BINARY LOGS").unwrap();
    let current = logs.last().unwrap().0.clone();
    c.query_drop(format!("PURGE BINARY LOGS TO '{current}'"))
        .unwrap();
    let warnings: Vec<(String, u32, String)> = c.query("SHOW WARNINGS").unwrap();
    let left: Vec<(String, u64, String)> = c.query("SHOW BINARY LOGS").unwrap();
    // The older kept checkpoint was taken before the last FLUSH: its file stays.
    assert!(left.len() <= 2, "{left:?}");
    assert!(warnings.iter().all(|w| w.1 == 1867), "{warnings:?}");
    assert!(!server.datadir().join("binlog.000001").exists());
    let rows: Vec<i32> = c.query("SELECT a FROM p.t ORDER BY a").unwrap();
    drop(c);
    server.crash_restart();
    let mut c = server.mysql_conn();
    let again: Vec<i32> = c.query("SELECT a FROM p.t ORDER BY a").unwrap();
    assert_eq!(again, rows);
    drop(c);
    server.stop();
}

/// One crash-loop writer's transaction: a row in `c.a`, a transfer between two accounts,
/// a row in `c.b` — all or nothing.
fn crash_txn(c: &mut mysql::Conn, w: u32, s: u32) -> Result<(), mysql::Error> {
    let x = (w * 7 + s) % 64;
    let y = (x + 1 + s % 63) % 64;
    let (lo, hi, dl) = if x < y { (x, y, -1) } else { (y, x, 1) };
    c.query_drop("BEGIN")?;
    let r = (|| {
        c.query_drop(format!("INSERT INTO c.a VALUES ({w}, {s})"))?;
        c.query_drop(format!(
            "UPDATE c.acct SET bal = bal + {dl} WHERE id = {lo}"
        ))?;
        c.query_drop(format!(
            "UPDATE c.acct SET bal = bal - {dl} WHERE id = {hi}"
        ))?;
        c.query_drop(format!(
            "INSERT INTO c.b VALUES ({w}, {s}, REPEAT('p', {}))",
            (w + s) % 300
        ))?;
        c.query_drop("COMMIT")
    })();
    if r.is_err() {
        let _ = c.query_drop("ROLLBACK");
    }
    r
}

fn pairs(c: &mut mysql::Conn, table: &str) -> std::collections::BTreeSet<(u32, u32)> {
    c.query(format!("SELECT w, s FROM {table}"))
        .unwrap()
        .into_iter()
        .collect()
}

/// Acceptance 2 of the journal: 64 writers, `kill -9` at random moments, 20 times with the
/// default durability and 6 times each in modes 0 and 2 (checkpoints every second and
/// 2 MB files, so crashes also land in checkpoints and rotations). After each restart:
/// every acknowledged commit is there (mode 1), no transaction is partly applied, nothing
/// recovered before is lost; at the end the log decodes with `mariadb-binlog` and replays
/// into MariaDB as the same tables.
#[test]
fn kill_9_under_64_writers_loses_nothing_acknowledged() {
    use std::sync::atomic::{AtomicU32, Ordering};
    if !quire_with_mariadb_tools() {
        return;
    }
    let mut server = TestServer::start_with(&["--max-binlog-size=2M"]);
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE c").unwrap();
    c.query_drop("CREATE TABLE c.a (w INT, s INT, PRIMARY KEY (w, s))")
        .unwrap();
    c.query_drop("CREATE TABLE c.b (w INT, s INT, pad TEXT, PRIMARY KEY (w, s))")
        .unwrap();
    c.query_drop("CREATE TABLE c.acct (id INT PRIMARY KEY, bal INT)")
        .unwrap();
    let accounts: Vec<String> = (0..64).map(|i| format!("({i}, 1000)")).collect();
    c.query_drop(format!("INSERT INTO c.acct VALUES {}", accounts.join(",")))
        .unwrap();
    drop(c);
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64
        | 1;
    let mut rand = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut seen = std::collections::BTreeSet::new();
    for round in 0..32u32 {
        let mode = match round {
            0..20 => 1,
            20..26 => 0,
            _ => 2,
        };
        let t0 = std::time::Instant::now();
        let mut c = server.mysql_conn();
        c.query_drop(format!(
            "SET GLOBAL innodb_flush_log_at_trx_commit = {mode}, GLOBAL sync_binlog = {}, \
             GLOBAL quire_checkpoint_interval = 1",
            u32::from(mode == 1)
        ))
        .unwrap();
        let acked: Arc<Vec<AtomicU32>> = Arc::new((0..64).map(|_| AtomicU32::new(0)).collect());
        let writers: Vec<_> = (0..64u32)
            .map(|k| {
                let opts = server.opts();
                let acked = acked.clone();
                std::thread::spawn(move || {
                    let Ok(mut c) = mysql::Conn::new(opts) else {
                        return;
                    };
                    let w = round * 64 + k;
                    let mut s = 0;
                    loop {
                        match crash_txn(&mut c, w, s) {
                            Ok(()) => {
                                s += 1;
                                // The number of acknowledged commits.
                                acked[k as usize].store(s, Ordering::SeqCst);
                                // Paced, so that the final replay into MariaDB stays short.
                                std::thread::sleep(Duration::from_millis(25));
                            }
                            Err(mysql::Error::MySqlError(e))
                                if e.code == 1213 || e.code == 1205 => {}
                            Err(_) => return,
                        }
                    }
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(200 + rand(600)));
        server.kill();
        for t in writers {
            t.join().unwrap();
        }
        drop(c);
        server.crash_restart();
        let mut c = server.mysql_conn();
        let a = pairs(&mut c, "c.a");
        let b = pairs(&mut c, "c.b");
        assert!(
            a == b,
            "round {round} (mode {mode}): a transaction partly applied"
        );
        let total: i64 = c
            .query_first("SELECT SUM(bal) FROM c.acct")
            .unwrap()
            .unwrap();
        assert_eq!(total, 64_000, "round {round}: a transfer partly applied");
        assert!(
            seen.is_subset(&a),
            "round {round}: rows recovered before are gone"
        );
        for k in 0..64u32 {
            let w = round * 64 + k;
            let mine: Vec<u32> = a.range((w, 0)..(w + 1, 0)).map(|p| p.1).collect();
            assert!(
                mine.iter().copied().eq(0..mine.len() as u32),
                "round {round}: writer {w} has gaps: {mine:?}"
            );
            if mode == 1 {
                let n = acked[k as usize].load(Ordering::SeqCst);
                assert!(
                    mine.len() as u32 >= n,
                    "round {round}: writer {w} had {n} commits acknowledged, {} recovered",
                    mine.len()
                );
            }
        }
        eprintln!(
            "round {round} (mode {mode}): {} transactions recovered, {} ms",
            a.len(),
            t0.elapsed().as_millis()
        );
        seen = a;
    }
    assert!(seen.len() > 1000, "only {} transactions in all", seen.len());
    server.stop();
    let files = binlog_files(&server.datadir());
    let t0 = std::time::Instant::now();
    let maria = replay_into_mariadb(&files, &["--innodb-flush-log-at-trx-commit=0"]);
    eprintln!("replay into MariaDB: {} ms", t0.elapsed().as_millis());
    server.restart();
    let mut c = server.mysql_conn();
    let mut m = maria.mysql_conn();
    for t in ["c.a", "c.b", "c.acct"] {
        let (x, y) = (dump(&mut c, t), dump(&mut m, t));
        assert_eq!(x.len(), y.len(), "{t}: row counts");
        assert!(x == y, "{t} differs after replay into MariaDB");
    }
    drop(c);
    server.stop();
}

/// `sql_log_bin=0`: the changes are durable (recovery replays them) but readers of the
/// binary log — `mariadb-binlog`, a replica — do not see them. And `binlog_format` is ROW.
#[test]
fn sql_log_bin_0_is_durable_but_not_in_the_binary_log() {
    if !quire_with_mariadb_tools() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("CREATE DATABASE h").unwrap();
    c.query_drop("CREATE TABLE h.t (a INT PRIMARY KEY, b TEXT)")
        .unwrap();
    c.query_drop("INSERT INTO h.t VALUES (1, 'public')")
        .unwrap();
    c.query_drop("SET sql_log_bin = 0").unwrap();
    c.query_drop("INSERT INTO h.t VALUES (2, 'private')")
        .unwrap();
    c.query_drop("CREATE TABLE h.hidden (x INT PRIMARY KEY)")
        .unwrap();
    c.query_drop("INSERT INTO h.hidden VALUES (7)").unwrap();
    c.query_drop("SET sql_log_bin = 1").unwrap();
    c.query_drop("INSERT INTO h.t VALUES (3, 'public')")
        .unwrap();
    let events: Vec<(String, u64, String, u64, u64, String)> =
        c.query("SHOW BINLOG EVENTS").unwrap();
    let ignorable = events.iter().filter(|e| e.2 == "Ignorable").count();
    assert_eq!(ignorable, 3, "{events:?}");

    for (sql, scope) in [
        ("SET binlog_format = 'STATEMENT'", "session"),
        ("SET GLOBAL binlog_format = 'MIXED'", "global"),
    ] {
        let e = c.query_drop(sql).unwrap_err();
        assert!(e.to_string().contains("1235"), "{scope}: {e}");
    }
    let format: (String, String) = c
        .query_first("SELECT @@session.binlog_format, @@global.binlog_format")
        .unwrap()
        .unwrap();
    assert_eq!(format, ("ROW".into(), "ROW".into()));
    c.query_drop("SET binlog_format = 'ROW'").unwrap();
    drop(c);

    server.crash_restart();
    let mut c = server.mysql_conn();
    assert_eq!(dump(&mut c, "h.t"), ["1|public", "2|private", "3|public"]);
    assert_eq!(dump(&mut c, "h.hidden"), ["7"]);
    drop(c);
    server.stop();

    let files = binlog_files(&server.datadir());
    let maria = replay_into_mariadb(&files, &[]);
    let mut m = maria.mysql_conn();
    assert_eq!(dump(&mut m, "h.t"), ["1|public", "3|public"]);
    let hidden: Vec<String> = m.query("SHOW TABLES FROM h LIKE 'hidden'").unwrap();
    assert!(
        hidden.is_empty(),
        "the private CREATE TABLE reached MariaDB"
    );
}

/// Rows of `table` (id, v) as id, length and CRC32 of v: long values compared compactly.
fn digest(conn: &mut mysql::Conn, table: &str) -> Vec<(u64, u64, u64)> {
    conn.query(format!(
        "SELECT id, LENGTH(v), CRC32(v) FROM {table} ORDER BY id"
    ))
    .unwrap_or_else(|e| panic!("digest {table}: {e}"))
}

fn spill_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("spill"))
        .collect()
}

/// `binlog_cache_size` / `max_binlog_cache_size` and large transactions (see
/// `journal::cache`): a transaction larger than the cache spills to a file; a small spill is
/// copied into the log, a large one becomes a binlog file of its own (also with
/// `sql_log_bin=0`), while other sessions keep committing; past `max_binlog_cache_size` a
/// commit fails with 1197 and is rolled back. Everything decodes with `mariadb-binlog`,
/// replays into MariaDB and survives kill -9.
#[test]
fn large_transactions_spill_to_their_own_files() {
    if !quire_with_mariadb_tools() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("SET GLOBAL binlog_cache_size = 4096").unwrap();
    c.query_drop("CREATE DATABASE big").unwrap();
    for t in ["big.t", "big.p", "big.small"] {
        c.query_drop(format!(
            "CREATE TABLE {t} (id INT PRIMARY KEY AUTO_INCREMENT, v LONGTEXT)"
        ))
        .unwrap();
    }
    c.query_drop("CREATE TABLE big.ten (n INT PRIMARY KEY)")
        .unwrap();
    c.query_drop("INSERT INTO big.ten VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)")
        .unwrap();
    let files_before = binlog_files(&server.datadir()).len();
    let disk_use = status(&mut c, "Binlog_cache_disk_use");

    // Small commits from other sessions all along.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let mut conn = server.mysql_conn();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut n = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    conn.query_drop(format!("INSERT INTO big.small (v) VALUES ('w{w} n{n}')"))
                        .unwrap();
                    n += 1;
                }
                n
            })
        })
        .collect();

    // ~120 kB: spilled, then copied into the log by the writer.
    c.query_drop("INSERT INTO big.t (v) SELECT REPEAT(CHAR(65 + n), 12000) FROM big.ten")
        .unwrap();
    // ~6 MB in two statements: adopted as a file of its own.
    c.query_drop("BEGIN").unwrap();
    for s in 0..2 {
        c.query_drop(format!(
            "INSERT INTO big.t (v) SELECT CONCAT('{s}', a.n, b.n, REPEAT('x', 30000)) FROM big.ten a, big.ten b"
        ))
        .unwrap();
    }
    c.query_drop("UPDATE big.t SET v = CONCAT(v, '!') WHERE id <= 5")
        .unwrap();
    c.query_drop("COMMIT").unwrap();
    // ~6 MB with sql_log_bin=0: adopted too, as one private event.
    c.query_drop("SET sql_log_bin = 0").unwrap();
    c.query_drop(
        "INSERT INTO big.p (v) SELECT CONCAT(a.n, b.n, REPEAT('p', 60000)) FROM big.ten a, big.ten b",
    )
    .unwrap();
    c.query_drop("SET sql_log_bin = 1").unwrap();
    assert_eq!(status(&mut c, "Binlog_cache_disk_use") - disk_use, 3);

    // Past max_binlog_cache_size: 1197, nothing of it stays.
    c.query_drop("SET GLOBAL max_binlog_cache_size = 1048576")
        .unwrap();
    let rows_before = digest(&mut c, "big.t");
    let e = c
        .query_drop("INSERT INTO big.t (v) SELECT v FROM big.t")
        .unwrap_err();
    assert!(e.to_string().contains("1197"), "{e}");
    assert_eq!(digest(&mut c, "big.t"), rows_before);
    c.query_drop("SET GLOBAL max_binlog_cache_size = DEFAULT")
        .unwrap();

    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let small: u32 = writers.into_iter().map(|w| w.join().unwrap()).sum();
    let counted: u32 = c
        .query_first("SELECT COUNT(*) FROM big.small")
        .unwrap()
        .unwrap();
    assert_eq!(counted, small);
    assert!(spill_files(&server.datadir()).is_empty());
    let files = binlog_files(&server.datadir());
    assert!(
        files.len() >= files_before + 2,
        "each large transaction starts a file: {files:?}"
    );

    let want: Vec<_> = ["big.t", "big.p", "big.small"]
        .iter()
        .map(|t| digest(&mut c, t))
        .collect();
    assert_eq!(want[0].len(), 10 + 200);
    assert_eq!(want[1].len(), 100);
    drop(c);
    server.kill();
    // A crash while a large transaction was spilled, before its adoption: the spill file
    // (here, a copy of an adopted file) was never acknowledged; start-up deletes it.
    let adopted = files
        .iter()
        .find(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 5 << 20));
    std::fs::copy(adopted.unwrap(), server.datadir().join("binlog.spill-999")).unwrap();
    server.restart();
    assert!(spill_files(&server.datadir()).is_empty());
    let mut c = server.mysql_conn();
    for (t, rows) in ["big.t", "big.p", "big.small"].iter().zip(&want) {
        assert!(digest(&mut c, t) == *rows, "{t} after kill -9 and restart");
    }
    drop(c);
    server.stop();

    let maria = replay_into_mariadb(&binlog_files(&server.datadir()), &[]);
    let mut m = maria.mysql_conn();
    assert!(digest(&mut m, "big.t") == want[0], "big.t in MariaDB");
    assert!(
        digest(&mut m, "big.small") == want[2],
        "big.small in MariaDB"
    );
    assert!(
        digest(&mut m, "big.p").is_empty(),
        "the private rows reached MariaDB"
    );
}

/// Runs a multi-statement batch reading every result: how many statements answered
/// without error, and the error that ended the batch, if any.
fn batch(c: &mut mysql::Conn, sql: &str) -> (usize, Option<mysql::Error>) {
    let mut r = match c.query_iter(sql) {
        Ok(r) => r,
        Err(e) => return (0, Some(e)),
    };
    let mut ok = 0;
    while let Some(set) = r.iter() {
        for row in set {
            if let Err(e) = row {
                return (ok, Some(e));
            }
        }
        ok += 1;
    }
    (ok, None)
}

/// I/O errors (`journal::writer`, "Failures"): when a journal write fails — here the file
/// size limit (RLIMIT_FSIZE) makes growing the file fail with EFBIG — the commit that needed
/// it and every later one get error 1598 and are rolled back, reads go on, and after a
/// restart everything acknowledged is there and nothing else. The commits end their
/// commands, so the journal writer sends their OKs (`journal::ack`): the failed one is
/// answered by its session, after the OKs of the statements before it in the same command
/// (the driver checks the sequence ids).
#[test]
fn a_failed_journal_write_refuses_commits_and_keeps_serving_reads() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    {
        let mut c = server.mysql_conn();
        c.query_drop("CREATE DATABASE io").unwrap();
        c.query_drop("CREATE TABLE io.t (id INT PRIMARY KEY, v LONGTEXT)")
            .unwrap();
    }
    server.set_file_size_limit(Some(6 << 20));
    server.restart();
    let mut c = server.mysql_conn();
    let mut acked = Vec::new();
    let mut failed = None;
    for id in 1..200u32 {
        let sql = format!("BEGIN; INSERT INTO io.t VALUES ({id}, REPEAT('x', 100000)); COMMIT");
        match batch(&mut c, &sql) {
            (3, None) => acked.push(id),
            (2, Some(e)) => {
                failed = Some((id, e.to_string()));
                break;
            }
            (n, e) => panic!("{n} statements answered, then {e:?}"),
        }
    }
    let (bad, why) = failed.expect("the journal outgrew the file size limit");
    assert!(
        why.contains("1598") && why.contains("File too large"),
        "{why}"
    );
    // Later commits are refused too; reads are served and see exactly what was acknowledged.
    let e = c
        .query_drop("INSERT INTO io.t VALUES (1000, 'small')")
        .unwrap_err();
    assert!(e.to_string().contains("1598"), "{e}");
    let (n, e) = batch(&mut c, "SELECT 1; INSERT INTO io.t VALUES (1001, 'small')");
    assert_eq!(n, 1, "{e:?}");
    assert!(e.is_some_and(|e| e.to_string().contains("1598")));
    c.query_drop("BEGIN").unwrap();
    c.query_drop("INSERT INTO io.t VALUES (1002, 'small')")
        .unwrap();
    let e = c.query_drop("COMMIT").unwrap_err();
    assert!(e.to_string().contains("1598"), "{e}");
    let ids: Vec<u32> = c.query("SELECT id FROM io.t ORDER BY id").unwrap();
    assert_eq!(ids, acked);
    drop(c);
    server.assert_alive("after the failed writes");

    server.kill();
    server.set_file_size_limit(None);
    server.restart();
    let mut c = server.mysql_conn();
    let ids: Vec<u32> = c.query("SELECT id FROM io.t ORDER BY id").unwrap();
    assert_eq!(
        ids, acked,
        "after restart: the acknowledged rows, not {bad}"
    );
    c.query_drop("INSERT INTO io.t VALUES (1000, 'small')")
        .unwrap();
    drop(c);
    server.stop();
}

/// The `###` blocks of `mysqlbinlog -v` style output (one per row change: the statement
/// line and its image lines, trailing spaces trimmed) on tables whose name contains one of
/// `tables`; lines of a private event (prefixed `#   `) are left out.
fn row_blocks(text: &str, tables: &[&str]) -> Vec<Vec<String>> {
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("### ")) {
        let line = line.trim_end().to_string();
        if ["### INSERT INTO", "### UPDATE", "### DELETE FROM"]
            .iter()
            .any(|h| line.starts_with(h))
        {
            blocks.push(vec![line]);
        } else if let Some(b) = blocks.last_mut() {
            b.push(line);
        }
    }
    blocks
        .into_iter()
        .filter(|b| tables.iter().any(|t| b[0].contains(t)))
        .collect()
}

/// `quire binlog FILE…` prints what `mariadb-binlog -v` prints for the same files (the same
/// row changes with the same values, for tables of integer and text columns), shows the
/// private transaction of `sql_log_bin=0`, and reports a corrupt event with exit status 1.
#[test]
fn quire_binlog_prints_like_mariadb_binlog_and_verifies_checksums() {
    if !quire_with_mariadb_tools() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    make_history(&mut c);
    c.query_drop("SET sql_log_bin = 0").unwrap();
    c.query_drop("INSERT INTO j.trunc VALUES (77)").unwrap();
    c.query_drop("SET sql_log_bin = 1").unwrap();
    c.query_drop("FLUSH BINARY LOGS").unwrap();
    c.query_drop("INSERT INTO j.trunc VALUES (78)").unwrap();
    drop(c);
    server.stop();
    let files = binlog_files(&server.datadir());

    let mut cmd = Command::new(quire_bin());
    cmd.arg("binlog").args(&files);
    let out = run_with_timeout(cmd, None, Duration::from_secs(60));
    assert_success("quire binlog", &out);
    let ours = String::from_utf8(out.stdout).unwrap();
    for want in [
        "### INSERT INTO `j`.`types`",
        "###   @2=-5 (251)",
        "###   @5=-1 (18446744073709551615)",
        "###   @6=-123456789.125",
        "###   @14='2024:02:29'",
        "###   @15='2001-02-03 04:05:06.789012'",
        "###   @17='-12:34:56.78'",
        "###   @21=b'1010101010'",
        "Rotate to binlog.000002",
        "sql_log_bin=0",
        "#   ###   @1=77",
        "\tStop",
    ] {
        assert!(ours.contains(want), "`quire binlog` output lacks {want:?}");
    }
    let theirs = String::from_utf8_lossy(&mariadb_binlog(&files, &["-v"])).into_owned();
    let tables = ["`j`.`nopk`", "`j`.`trunc`"];
    let (a, b) = (row_blocks(&ours, &tables), row_blocks(&theirs, &tables));
    assert!(a.len() >= 6, "{a:?}");
    assert_eq!(
        a, b,
        "row changes as quire binlog and mariadb-binlog -v show them"
    );
    assert_eq!(
        row_blocks(&ours, &["`j`.`types`"]).len(),
        row_blocks(&theirs, &["`j`.`types`"]).len()
    );

    // A flipped byte inside an event: reported with its offset, exit status 1.
    let damaged = server.dir().join("damaged.000001");
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let (txn_start, _) = last_txn_and_log_end(&files[0]);
    bytes[txn_start + 30] ^= 0x55;
    std::fs::write(&damaged, &bytes).unwrap();
    let mut cmd = Command::new(quire_bin());
    cmd.arg("binlog").arg(&damaged);
    let out = run_with_timeout(cmd, None, Duration::from_secs(60));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("bad event at offset {txn_start}")) && err.contains("checksum"),
        "{err}"
    );
}

/// `innodb_flush_method=O_DIRECT`: groups of every size (inside a block, across blocks, past
/// the preallocated 4 MB), a rotation, a crash: the files, filler included, verify with
/// `quire binlog`, decode with `mariadb-binlog`, and a restart finds every acknowledged row.
#[test]
fn o_direct_writes_whole_blocks_and_loses_nothing() {
    if !quire_with_mariadb_tools() {
        return;
    }
    let mut server = TestServer::start_with(&["--innodb-flush-method=O_DIRECT"]);
    let mut c = server.mysql_conn();
    let method: Option<(String, String)> = c
        .query_first("SHOW GLOBAL VARIABLES LIKE 'innodb_flush_method'")
        .unwrap();
    assert_eq!(method.unwrap().1, "O_DIRECT");
    make_history(&mut c);
    c.query_drop("CREATE TABLE j.blobs (id INT PRIMARY KEY, b MEDIUMBLOB)")
        .unwrap();
    // Sizes from a few bytes to 60 KB: groups end everywhere within their blocks.
    let mut id = 0;
    for round in 0..2 {
        for n in [1usize, 7, 100, 3000, 4090, 4097, 9000, 20_000, 60_000] {
            for _ in 0..[12, 50][round] {
                id += 1;
                c.exec_drop(
                    "INSERT INTO j.blobs VALUES (?, REPEAT(CHAR(65 + ? % 26), ?))",
                    (id, id, n),
                )
                .unwrap();
            }
        }
        if round == 0 {
            c.query_drop("FLUSH BINARY LOGS").unwrap();
        }
    }
    c.query_drop("UPDATE j.blobs SET b = CONCAT(b, 'z') WHERE id % 3 = 0")
        .unwrap();
    let before = snapshot(&mut c);
    let blobs: Vec<(u32, u64, String)> = c
        .query("SELECT id, LENGTH(b), MD5(b) FROM j.blobs ORDER BY id")
        .unwrap();
    assert_eq!(blobs.len(), id);
    let logs: Vec<(String, u64, String)> = c.query("SHOW BINARY LOGS").unwrap();
    assert!(
        logs.last().unwrap().1 > 4 << 20,
        "the last file outgrows one preallocation: {logs:?}"
    );
    drop(c);
    server.kill();

    // The open file, filler and all, verifies; mariadb-binlog reads every file.
    let files = binlog_files(&server.datadir());
    assert!(files.len() >= 2, "{files:?}");
    let mut cmd = Command::new(quire_bin());
    cmd.arg("binlog").args(&files);
    assert_success(
        "quire binlog",
        &run_with_timeout(cmd, None, Duration::from_secs(60)),
    );
    mariadb_binlog(&files, &["-v"]);

    server.restart();
    let mut c = server.mysql_conn();
    assert_eq!(snapshot(&mut c), before, "after kill -9");
    let again: Vec<(u32, u64, String)> = c
        .query("SELECT id, LENGTH(b), MD5(b) FROM j.blobs ORDER BY id")
        .unwrap();
    assert_eq!(again, blobs);
    server.stop();
}

/// Start the server with crash point `point` armed, insert `values` into j.trunc, run
/// `reset` (the server aborts in it), start it again: no marker is left.
fn crash_in_reset_master(server: &mut TestServer, point: &str, reset: &str, values: &str) {
    server.set_env("QUIRE_CRASH_POINT", Some(point));
    server.restart();
    let mut c = server.mysql_conn();
    c.query_drop(format!("INSERT INTO j.trunc VALUES {values}"))
        .unwrap();
    assert!(
        c.query_drop(reset).is_err(),
        "the server crashed at {point}"
    );
    drop(c);
    server.set_env("QUIRE_CRASH_POINT", None);
    server.crash_restart();
    assert!(!server.datadir().join("quire_reset_master").exists());
}

fn log_names(c: &mut mysql::Conn) -> Vec<String> {
    let logs: Vec<(String, u64, String)> = c.query("SHOW BINARY LOGS").unwrap();
    logs.into_iter().map(|l| l.0).collect()
}

/// RESET MASTER [TO n]: a checkpoint takes the place of the whole log, which starts again
/// at file n; a crash before the checkpoint is on disk leaves the log as it was, one after
/// it finishes the reset at start-up (`journal::checkpoint`, "RESET MASTER").
#[test]
fn reset_master_replaces_the_log_with_a_checkpoint() {
    if !quire_with_mariadb_tools() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    make_history(&mut c);
    c.query_drop("FLUSH BINARY LOGS").unwrap();
    c.query_drop("INSERT INTO j.trunc VALUES (4)").unwrap();
    let before = snapshot(&mut c);
    c.query_drop("RESET MASTER").unwrap();
    assert_eq!(log_names(&mut c), ["binlog.000001"]);
    let events: Vec<(String, u64, String, u64, u64, String)> =
        c.query("SHOW BINLOG EVENTS IN 'binlog.000001'").unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.2.as_str()).collect();
    assert_eq!(kinds, ["Format_desc"]);
    assert_eq!(checkpoint_files(&server.datadir()).len(), 1);
    assert_eq!(snapshot(&mut c), before);
    c.query_drop("INSERT INTO j.trunc VALUES (5)").unwrap();
    let after = snapshot(&mut c);
    drop(c);
    server.crash_restart();
    let mut c = server.mysql_conn();
    assert_eq!(
        snapshot(&mut c),
        after,
        "checkpoint + new log after kill -9"
    );
    assert_eq!(log_names(&mut c), ["binlog.000001", "binlog.000002"]);

    // TO n, in MySQL 8's range.
    let e = c.query_drop("RESET MASTER TO 0").unwrap_err();
    assert!(e.to_string().contains("3471"), "{e}");
    c.query_drop("RESET MASTER TO 7").unwrap();
    assert_eq!(log_names(&mut c), ["binlog.000007"]);
    c.query_drop("INSERT INTO j.trunc VALUES (6)").unwrap();
    drop(c);
    server.restart();
    let mut c = server.mysql_conn();
    assert_eq!(log_names(&mut c), ["binlog.000007", "binlog.000008"]);
    c.query_drop("INSERT INTO j.trunc VALUES (7)").unwrap();
    let kept = snapshot(&mut c);
    drop(c);

    // A crash after the marker, before the checkpoint: nothing changes.
    let kept = {
        let mut k = kept;
        k[2].push("8".into());
        k
    };
    crash_in_reset_master(&mut server, "reset_master_marker", "RESET MASTER", "(8)");
    assert!(server.stderr_log().contains("before its checkpoint"));
    let mut c = server.mysql_conn();
    assert_eq!(snapshot(&mut c), kept);
    let old_and_new = (7..=10).map(|n| format!("binlog.{n:06}"));
    assert_eq!(log_names(&mut c), old_and_new.collect::<Vec<_>>());
    drop(c);

    // A crash after the checkpoint's rename: start-up finishes the reset.
    let kept = {
        let mut k = kept;
        k[2].push("9".into());
        k
    };
    crash_in_reset_master(
        &mut server,
        "reset_master_committed",
        "RESET MASTER TO 3",
        "(9)",
    );
    assert!(server.stderr_log().contains("finished the RESET MASTER"));
    let mut c = server.mysql_conn();
    assert_eq!(snapshot(&mut c), kept);
    assert_eq!(log_names(&mut c), ["binlog.000003"]);
    c.query_drop("INSERT INTO j.trunc VALUES (10)").unwrap();
    drop(c);
    server.stop();
    // The new log holds only what came after the reset, and mariadb-binlog reads it.
    let files = binlog_files(&server.datadir());
    let text = String::from_utf8_lossy(&mariadb_binlog(&files, &["-v"])).into_owned();
    assert!(text.contains("@1=10"), "{text}");
    assert!(!text.contains("@1=9\n"), "{text}");
}

/// Accounts are durable (`journal::accounts`): CREATE/ALTER/DROP USER and SET PASSWORD
/// survive a crash; both authentication plugins still log in with the right password only.
#[test]
fn accounts_survive_a_crash() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    c.query_drop("CREATE USER sha@'%' IDENTIFIED WITH caching_sha2_password BY 'pw-sha'")
        .unwrap();
    c.query_drop("CREATE USER nat@'%' IDENTIFIED WITH mysql_native_password BY 'old'")
        .unwrap();
    c.query_drop("ALTER USER nat@'%' IDENTIFIED BY 'pw-nat'")
        .unwrap();
    c.query_drop("CREATE USER gone@'%', temp@'%' IDENTIFIED BY 'x'")
        .unwrap();
    c.query_drop("DROP USER gone@'%'").unwrap();
    c.query_drop("SET PASSWORD FOR temp@'%' = 'pw-temp'")
        .unwrap();
    drop(c);
    server.crash_restart();
    let login = |user: &str, pw: &str| {
        mysql::Conn::new(server.opts().user(Some(user)).pass(Some(pw)))
            .and_then(|mut c| c.query_first::<String, _>("SELECT CURRENT_USER()"))
    };
    assert_eq!(login("sha", "pw-sha").unwrap().unwrap(), "sha@%");
    assert_eq!(login("nat", "pw-nat").unwrap().unwrap(), "nat@%");
    assert_eq!(login("temp", "pw-temp").unwrap().unwrap(), "temp@%");
    for (user, pw) in [("nat", "old"), ("sha", "wrong"), ("gone", "x")] {
        let e = login(user, pw).unwrap_err();
        assert!(e.to_string().contains("1045"), "{user}: {e}");
    }
    let mut c = server.mysql_conn();
    let create: Option<(String,)> = c.query_first("SHOW CREATE USER nat@'%'").unwrap();
    assert!(
        create.unwrap().0.contains("mysql_native_password"),
        "the plugin is kept"
    );
    server.stop();
}

/// CREATE TABLE … SELECT and RENAME TABLE from a session without a default database
/// survive kill -9: the journal holds a qualified CREATE TABLE, the rows, and the renames.
#[test]
fn create_select_and_rename_survive_a_crash() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    for sql in [
        "CREATE DATABASE cs",
        "CREATE TABLE cs.t (id INT PRIMARY KEY, a INT)",
        "INSERT INTO cs.t VALUES (1, 1), (2, 2), (3, 3)",
        "CREATE TABLE cs.c (PRIMARY KEY (id)) AS SELECT id, a * 2 AS b FROM cs.t WHERE id > 1",
        "RENAME TABLE cs.c TO cs.c2, cs.t TO cs.t2",
        "ALTER TABLE cs.c2 RENAME TO cs.c3",
    ] {
        c.query_drop(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    // A SELECT that fails leaves no table behind.
    let e = c
        .query_drop("CREATE TABLE cs.bad AS SELECT (SELECT id FROM cs.t2) AS x")
        .unwrap_err();
    assert!(e.to_string().contains("1242"), "{e}");
    drop(c);
    server.crash_restart();
    let mut c = server.mysql_conn();
    let rows: Vec<(i64, i64)> = c.query("SELECT id, b FROM cs.c3 ORDER BY id").unwrap();
    assert_eq!(rows, vec![(2, 4), (3, 6)]);
    let tables: Vec<String> = c.query("SHOW TABLES FROM cs").unwrap();
    assert_eq!(tables, vec!["c3", "t2"]);
    let key: Vec<(String, String)> = c
        .query(
            "SELECT COLUMN_NAME, COLUMN_KEY FROM information_schema.COLUMNS \
             WHERE TABLE_SCHEMA = 'cs' AND TABLE_NAME = 'c3' ORDER BY ORDINAL_POSITION",
        )
        .unwrap();
    assert_eq!(
        key,
        vec![
            ("id".to_string(), "PRI".to_string()),
            ("b".to_string(), String::new())
        ]
    );
}

/// What a transaction keeps after ROLLBACK TO SAVEPOINT, and the rows a multi-table UPDATE
/// and DELETE change, are what the journal replays after kill -9 (and nothing else).
#[test]
fn savepoints_and_multi_table_writes_survive_a_crash() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    for sql in [
        "CREATE DATABASE sp",
        "CREATE TABLE sp.p (id INT PRIMARY KEY, v INT)",
        "CREATE TABLE sp.c (id INT PRIMARY KEY, pid INT, v INT)",
        "CREATE TABLE sp.h (v INT)",
        "INSERT INTO sp.p VALUES (1, 10), (2, 20), (3, 30)",
        "INSERT INTO sp.c VALUES (1, 1, 0), (2, 1, 0), (3, 2, 0), (4, 9, 0)",
        "INSERT INTO sp.h VALUES (1), (2), (3)",
        "BEGIN",
        "INSERT INTO sp.p VALUES (4, 40)",
        "SAVEPOINT a",
        "INSERT INTO sp.p VALUES (5, 50)",
        "UPDATE sp.p SET v = 0",
        "ROLLBACK TO SAVEPOINT a",
        "INSERT INTO sp.p VALUES (6, 60)",
        "COMMIT",
        "UPDATE sp.c JOIN sp.p ON sp.p.id = sp.c.pid SET sp.c.v = sp.p.v, sp.p.v = sp.p.v + 1",
        "DELETE c FROM sp.c AS c LEFT JOIN sp.p ON sp.p.id = c.pid WHERE sp.p.id IS NULL",
        "DELETE sp.h FROM sp.h, sp.p WHERE sp.h.v = sp.p.id AND sp.p.v = 21",
    ] {
        c.query_drop(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    drop(c);
    server.crash_restart();
    let mut c = server.mysql_conn();
    let p: Vec<(i64, i64)> = c.query("SELECT id, v FROM sp.p ORDER BY id").unwrap();
    assert_eq!(p, vec![(1, 11), (2, 21), (3, 30), (4, 40), (6, 60)]);
    let ch: Vec<(i64, i64)> = c.query("SELECT id, v FROM sp.c ORDER BY id").unwrap();
    assert_eq!(ch, vec![(1, 10), (2, 10), (3, 20)]);
    let h: Vec<i64> = c.query("SELECT v FROM sp.h ORDER BY v").unwrap();
    assert_eq!(h, vec![1, 3]);
}

/// The views of `vw` as the tests below leave them: SHOW FULL TABLES, what they read, a
/// write through one (undone), and the view whose table is gone.
fn check_views(c: &mut mysql::Conn, when: &str) {
    let tables: Vec<(String, String)> = c.query("SHOW FULL TABLES FROM vw").unwrap();
    let expect: Vec<(String, String)> = [
        ("gone_v", "VIEW"),
        ("open_t", "VIEW"),
        ("sums", "VIEW"),
        ("t", "BASE TABLE"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(tables, expect, "{when}");
    let open: Vec<(i64, i64)> = c.query("SELECT * FROM vw.open_t ORDER BY id").unwrap();
    assert_eq!(open, vec![(1, 10), (3, 30), (4, 40)], "{when}");
    let sums: Vec<(i64, String)> = c.query("SELECT n, total FROM vw.sums").unwrap();
    assert_eq!(sums, vec![(3, "80".to_string())], "{when}");
    let e = c.query_drop("SELECT * FROM vw.gone_v").unwrap_err();
    assert!(e.to_string().contains("1356"), "{when}: {e}");
    // WITH CHECK OPTION is still there.
    let e = c
        .query_drop("UPDATE vw.open_t SET id = 2 WHERE id = 1")
        .unwrap_err();
    assert!(e.to_string().contains("1062"), "{when}: {e}");
    let cols: Vec<(String, String)> = c
        .query(
            "SELECT TABLE_NAME, CHECK_OPTION FROM information_schema.VIEWS \
             WHERE TABLE_SCHEMA = 'vw' ORDER BY TABLE_NAME",
        )
        .unwrap();
    assert_eq!(
        cols,
        vec![
            ("gone_v".to_string(), "NONE".to_string()),
            ("open_t".to_string(), "CASCADED".to_string()),
            ("sums".to_string(), "NONE".to_string())
        ],
        "{when}"
    );
}

/// Views are catalog entries: CREATE, ALTER, RENAME and DROP VIEW survive kill -9 through
/// the journal, and through a checkpoint — including a view whose table was dropped, which
/// stays as it was (1356 when read) instead of failing start-up.
#[test]
fn views_survive_a_crash_through_journal_and_checkpoint() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    for sql in [
        "CREATE DATABASE vw",
        "CREATE TABLE vw.t (id INT PRIMARY KEY, a INT, done TINYINT NOT NULL DEFAULT 0)",
        "INSERT INTO vw.t VALUES (1, 10, 0), (2, 20, 1), (3, 30, 0)",
        // From no default database: `t` is the view's database's.
        "CREATE VIEW vw.open_t AS SELECT id, a FROM t WHERE done = 0 WITH CHECK OPTION",
        "CREATE VIEW vw.sums (n, total) AS SELECT COUNT(*), SUM(a) FROM vw.t",
        "ALTER VIEW vw.sums (n, total) AS SELECT COUNT(*), SUM(a) FROM vw.t WHERE done = 0",
        "INSERT INTO vw.open_t VALUES (4, 40)",
        "CREATE TABLE vw.gone (x INT)",
        "CREATE VIEW vw.gone_v AS SELECT x FROM vw.gone",
        "DROP TABLE vw.gone",
        "CREATE VIEW vw.tmp AS SELECT 1 AS one",
        "RENAME TABLE vw.tmp TO vw.tmp2",
        "DROP VIEW vw.tmp2",
    ] {
        c.query_drop(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    check_views(&mut c, "before the crash");
    drop(c);
    server.crash_restart();
    let mut c = server.mysql_conn();
    check_views(&mut c, "journal replayed after kill -9");

    // Into a checkpoint, then kill -9 again: the views come from the checkpoint.
    let n = status(&mut c, "Quire_checkpoints");
    c.query_drop("SET GLOBAL quire_checkpoint_interval = 1")
        .unwrap();
    c.query_drop("UPDATE vw.t SET a = a WHERE id = 1").unwrap();
    wait_checkpoints(&mut c, n + 1);
    c.query_drop("SET GLOBAL quire_checkpoint_interval = 0")
        .unwrap();
    drop(c);
    server.crash_restart();
    let note = recovery_note(&server);
    assert!(note.contains("loaded quire_checkpoint."), "{note}");
    let mut c = server.mysql_conn();
    check_views(&mut c, "checkpoint after kill -9");
    drop(c);
    server.stop();
}

/// Whether `sql` fails with MySQL error `code`.
fn fails_with(c: &mut mysql::Conn, sql: &str, code: u16) -> bool {
    matches!(c.query_drop(sql), Err(mysql::Error::MySqlError(e)) if e.code == code)
}

/// Foreign keys are enforced again after a kill -9 (the DDL replayed from the journal, the
/// cascaded rows from their row events) and after a start from a checkpoint (the keys in
/// its CREATE TABLE statements; the child, named first, loaded before its parent).
#[test]
fn foreign_keys_survive_crash_and_checkpoint() {
    if !quire_only() {
        return;
    }
    let mut server = TestServer::start();
    let mut c = server.mysql_conn();
    for sql in [
        "CREATE DATABASE fkj",
        "CREATE TABLE fkj.parent (id INT PRIMARY KEY)",
        "CREATE TABLE fkj.a_child (id INT PRIMARY KEY, pid INT, \
         CONSTRAINT fk_child FOREIGN KEY (pid) REFERENCES fkj.parent (id) ON DELETE CASCADE)",
        "INSERT INTO fkj.parent VALUES (1), (2), (3)",
        "INSERT INTO fkj.a_child VALUES (10, 1), (20, 2), (21, 2), (30, 3)",
        // Cascades to 20 and 21: row events in the journal.
        "DELETE FROM fkj.parent WHERE id = 2",
    ] {
        c.query_drop(sql).unwrap();
    }
    let children = |c: &mut mysql::Conn| -> Vec<(i32, i32)> {
        c.query("SELECT id, pid FROM fkj.a_child ORDER BY id")
            .unwrap()
    };
    assert_eq!(children(&mut c), vec![(10, 1), (30, 3)]);
    drop(c);

    server.crash_restart();
    let mut c = server.mysql_conn();
    assert_eq!(children(&mut c), vec![(10, 1), (30, 3)], "after kill -9");
    assert!(fails_with(
        &mut c,
        "INSERT INTO fkj.a_child VALUES (40, 4)",
        1452
    ));
    c.query_drop("DELETE FROM fkj.parent WHERE id = 3").unwrap();
    assert_eq!(children(&mut c), vec![(10, 1)], "the cascade after kill -9");

    c.query_drop("SET GLOBAL quire_checkpoint_interval = 1")
        .unwrap();
    wait_checkpoints(&mut c, 1);
    c.query_drop("SET GLOBAL quire_checkpoint_interval = 0")
        .unwrap();
    drop(c);
    // A clean stop checkpoints at the end: the start loads only the checkpoint.
    server.restart();
    let note = recovery_note(&server);
    assert!(note.contains("loaded quire_checkpoint."), "{note}");
    let mut c = server.mysql_conn();
    let (_, ddl): (String, String) = c
        .query_first("SHOW CREATE TABLE fkj.a_child")
        .unwrap()
        .unwrap();
    assert!(
        ddl.contains(
            "CONSTRAINT `fk_child` FOREIGN KEY (`pid`) REFERENCES `parent` (`id`) ON DELETE CASCADE"
        ),
        "{ddl}"
    );
    assert!(fails_with(
        &mut c,
        "INSERT INTO fkj.a_child VALUES (40, 4)",
        1452
    ));
    c.query_drop("DELETE FROM fkj.parent WHERE id = 1").unwrap();
    assert_eq!(
        children(&mut c),
        vec![],
        "the cascade after a checkpoint load"
    );
    drop(c);
    server.stop();
}
