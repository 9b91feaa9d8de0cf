//! sysbench 1.0.20 against the server, with server-side prepared statements
//! (`--db-ps-mode=auto`) and a thread per connection, and with the text protocol only
//! (`--db-ps-mode=disable`) and `thread_handling=pool-of-threads`.
//!
//! This is a correctness test, not a benchmark: each workload must finish with exit status
//! 0, no `FATAL`, no reconnects and fewer than 0.1 % ignored errors (deadlocks and lock wait
//! timeouts are the ignorable ones), and afterwards the data must add up exactly:
//!
//! | workload | what must hold afterwards |
//! |---|---|
//! | read-only ones | every table still has exactly `table_size` rows and the same `SUM(k)` |
//! | oltp_update_index | `SUM(k)` grew by exactly the number of `write` queries (each `k=k+1` on an existing id) |
//! | oltp_update_non_index | row counts and `SUM(k)` unchanged |
//! | oltp_read_write, oltp_write_only | row counts unchanged (delete + insert of the same id per transaction) |
//! | oltp_insert | total rows grew by exactly the number of `write` queries |
//! | oltp_delete | total rows shrank by exactly the number of `write` queries (sysbench counts a DELETE that removed nothing as `other`) |
//! | bulk_insert | each thread's table holds ids 1..n exactly, and Σn = events |
//!
//! Order matters: ids `1..table_size` all exist until oltp_insert/oltp_delete run.
//! Environment: `QUIRE_SB_ROWS` (rows per table, default 100,000), `QUIRE_SB_TIME`
//! (seconds per workload, default 5), `QUIRE_SB_THREADS` (default 64).

mod common;

use common::{TestServer, assert_success, require_tool};
use mysql::prelude::Queryable;

const TABLES: u32 = 4;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rows_per_table() -> u64 {
    env_u64("QUIRE_SB_ROWS", 100_000)
}

/// Figures from sysbench's final report.
#[derive(Debug, Default)]
struct Report {
    read: u64,
    write: u64,
    other: u64,
    transactions: u64,
    ignored_errors: u64,
    reconnects: u64,
    events: u64,
}

/// First number after `label` on the line that starts (after spaces) with it.
fn field(text: &str, label: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix(label)?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

fn parse_report(text: &str) -> Report {
    let need = |label: &str| {
        field(text, label).unwrap_or_else(|| panic!("sysbench output lacks `{label}`:\n{text}"))
    };
    Report {
        read: need("read:"),
        write: need("write:"),
        other: need("other:"),
        transactions: need("transactions:"),
        ignored_errors: need("ignored errors:"),
        reconnects: need("reconnects:"),
        events: need("total number of events:"),
    }
}

struct Bench<'a> {
    server: &'a TestServer,
    ps_mode: &'static str,
    rows: u64,
    conn: mysql::Conn,
}

impl Bench<'_> {
    fn args(&self, extra: &[&str]) -> Vec<String> {
        let mut a = vec![
            "--mysql-db=sbtest".to_string(),
            format!("--db-ps-mode={}", self.ps_mode),
            format!("--tables={TABLES}"),
            format!("--table-size={}", self.rows),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    }

    /// Runs sysbench and checks the universal success criteria; returns the output.
    fn sysbench(&self, what: &str, args: &[String]) -> String {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let started = std::time::Instant::now();
        let out = self.server.sysbench(&args);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_success(&format!("sysbench {what} ({})", self.ps_mode), &out);
        assert!(
            !text.contains("FATAL"),
            "sysbench {what} ({}) printed FATAL:\n{text}",
            self.ps_mode
        );
        eprintln!(
            "sysbench {what} ({}): {:.1} s",
            self.ps_mode,
            started.elapsed().as_secs_f64()
        );
        text
    }

    /// Runs one workload for `QUIRE_SB_TIME` seconds and checks its report.
    fn run(&self, workload: &str) -> Report {
        let threads = env_u64("QUIRE_SB_THREADS", 64).to_string();
        let time = env_u64("QUIRE_SB_TIME", 5).to_string();
        let args = self.args(&[
            workload,
            &format!("--threads={threads}"),
            &format!("--time={time}"),
            "run",
        ]);
        let text = self.sysbench(workload, &args);
        let r = parse_report(&text);
        eprintln!(
            "  {workload} ({}): {} transactions, {} reads, {} writes, {} ignored errors",
            self.ps_mode, r.transactions, r.read, r.write, r.ignored_errors
        );
        let ctx = format!("{workload} ({}): {r:?}\n{text}", self.ps_mode);
        assert!(r.transactions > 0, "no transaction completed: {ctx}");
        assert_eq!(r.reconnects, 0, "reconnects: {ctx}");
        assert!(
            r.ignored_errors * 1000 < r.transactions,
            "ignored errors are not below 0.1 % of transactions: {ctx}"
        );
        r
    }

    fn scalar(&mut self, sql: &str) -> u64 {
        // SUM() of an integer column is a DECIMAL; read it as text and parse.
        let v: Option<String> = self
            .conn
            .query_first(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        v.and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{sql}: not a number"))
    }

    fn counts(&mut self) -> Vec<u64> {
        (1..=TABLES)
            .map(|t| self.scalar(&format!("SELECT COUNT(*) FROM sbtest.sbtest{t}")))
            .collect()
    }

    fn sums_k(&mut self) -> Vec<u64> {
        (1..=TABLES)
            .map(|t| self.scalar(&format!("SELECT SUM(k) FROM sbtest.sbtest{t}")))
            .collect()
    }
}

fn run_all(ps_mode: &'static str, server_args: &[&str]) {
    if !require_tool("sysbench") {
        return;
    }
    let server = TestServer::start_with(server_args);
    let mut admin = server.mysql_conn();
    admin
        .query_drop("CREATE DATABASE sbtest")
        .expect("create sbtest");
    admin
        .query_drop("CREATE DATABASE sbbulk")
        .expect("create sbbulk");
    let rows = rows_per_table();
    let mut b = Bench {
        server: &server,
        ps_mode,
        rows,
        conn: admin,
    };

    // prepare: TABLES tables of `rows` rows, created by parallel threads.
    b.sysbench(
        "prepare",
        &b.args(&["oltp_read_write", &format!("--threads={TABLES}"), "prepare"]),
    );
    let full = vec![rows; TABLES as usize];
    assert_eq!(b.counts(), full, "row counts after prepare");
    let k_sums = b.sums_k();

    // Read-only workloads change nothing.
    for w in [
        "oltp_point_select",
        "oltp_read_only",
        "select_random_points",
        "select_random_ranges",
    ] {
        let r = b.run(w);
        assert_eq!(r.write, 0, "{w} wrote");
        assert!(r.read > 0, "{w} read nothing");
        assert_eq!(b.counts(), full, "row counts after {w}");
        assert_eq!(b.sums_k(), k_sums, "SUM(k) after {w}");
    }

    // oltp_update_index: each successful write is k=k+1 on an existing row.
    let before: u64 = b.sums_k().iter().sum();
    let r = b.run("oltp_update_index");
    let after: u64 = b.sums_k().iter().sum();
    assert_eq!(
        after - before,
        r.write,
        "SUM(k) must grow by the number of index updates"
    );
    assert_eq!(b.counts(), full, "row counts after oltp_update_index");

    // oltp_update_non_index: only c changes.
    let k_sums = b.sums_k();
    let r = b.run("oltp_update_non_index");
    assert!(r.write > 0, "oltp_update_non_index wrote nothing");
    assert_eq!(b.sums_k(), k_sums, "SUM(k) after oltp_update_non_index");
    assert_eq!(b.counts(), full, "row counts after oltp_update_non_index");

    // Transactions that delete and re-insert the same id keep every count.
    for w in ["oltp_read_write", "oltp_write_only"] {
        let r = b.run(w);
        assert!(
            r.write > 0 && r.other > 0,
            "{w}: no writes or no BEGIN/COMMIT"
        );
        assert_eq!(b.counts(), full, "row counts after {w}");
    }

    // oltp_insert: one autocommit INSERT (auto-increment id) per successful write.
    let before: u64 = b.counts().iter().sum();
    let r = b.run("oltp_insert");
    let after: u64 = b.counts().iter().sum();
    assert_eq!(
        after - before,
        r.write,
        "oltp_insert: rows added != writes reported"
    );

    // oltp_delete: autocommit deletes of random ids in 1..rows, some already gone. sysbench
    // counts a DML statement as `write` only if it affected rows (else as `other`), so the
    // rows removed equal the writes reported - which also checks the affected-row counts.
    let before: u64 = b.counts().iter().sum();
    let r = b.run("oltp_delete");
    let after: u64 = b.counts().iter().sum();
    assert!(after <= before, "oltp_delete added rows");
    assert!(r.write > 0, "oltp_delete removed nothing");
    assert_eq!(
        before - after,
        r.write,
        "oltp_delete: rows removed != writes reported"
    );
    assert_eq!(
        r.write + r.other,
        r.transactions,
        "oltp_delete: one DELETE per event"
    );

    // cleanup drops the tables.
    b.sysbench("cleanup", &b.args(&["oltp_read_write", "cleanup"]));
    let left: Vec<String> = b
        .conn
        .query("SHOW TABLES FROM sbtest")
        .expect("show tables");
    assert!(left.is_empty(), "tables left after cleanup: {left:?}");

    // bulk_insert: thread i appends rows (1,1), (2,2), … to its own table sbtest<i>.
    let threads = 8;
    let bulk = |cmd: &str| {
        vec![
            "--mysql-db=sbbulk".to_string(),
            format!("--db-ps-mode={ps_mode}"),
            "bulk_insert".to_string(),
            format!("--threads={threads}"),
            format!("--time={}", env_u64("QUIRE_SB_TIME", 5)),
            cmd.to_string(),
        ]
    };
    b.sysbench("bulk_insert prepare", &bulk("prepare"));
    let text = b.sysbench("bulk_insert run", &bulk("run"));
    let events = field(&text, "total number of events:").expect("bulk_insert events");
    let mut total = 0;
    for t in 1..=threads {
        let n = b.scalar(&format!("SELECT COUNT(*) FROM sbbulk.sbtest{t}"));
        if n > 0 {
            let max_id = b.scalar(&format!("SELECT MAX(id) FROM sbbulk.sbtest{t}"));
            let sum_k = b.scalar(&format!("SELECT SUM(k) FROM sbbulk.sbtest{t}"));
            assert_eq!(max_id, n, "sbbulk.sbtest{t}: ids are not 1..{n}");
            assert_eq!(
                sum_k,
                n * (n + 1) / 2,
                "sbbulk.sbtest{t}: k values are not 1..{n}"
            );
        }
        total += n;
    }
    assert_eq!(
        total, events,
        "bulk_insert: rows in tables != events reported"
    );
    b.sysbench("bulk_insert cleanup", &bulk("cleanup"));
    let left: Vec<String> = b
        .conn
        .query("SHOW TABLES FROM sbbulk")
        .expect("show tables");
    assert!(
        left.is_empty(),
        "tables left after bulk_insert cleanup: {left:?}"
    );

    let mut server = server;
    server.assert_alive("after sysbench");
}

/// Prepared statements, a thread per connection (the default `thread_handling`).
#[test]
fn sysbench_ps_mode_auto() {
    run_all("auto", &[]);
}

/// The text protocol, connections as tasks in the shared pool.
#[test]
fn sysbench_ps_mode_disable_pool_of_threads() {
    run_all("disable", &["--thread-handling=pool-of-threads"]);
}

#[test]
fn parses_sysbench_report() {
    let text = "SQL statistics:
    queries performed:
        read:                            1400
        write:                           400
        other:                           200
        total:                           2000
    transactions:                        100    (19.93 per sec.)
    queries:                             2000   (398.60 per sec.)
    ignored errors:                      1      (0.20 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          5.0164s
    total number of events:              100
";
    let r = parse_report(text);
    assert_eq!((r.read, r.write, r.other), (1400, 400, 200));
    assert_eq!(
        (r.transactions, r.ignored_errors, r.reconnects, r.events),
        (100, 1, 0, 100)
    );
}
