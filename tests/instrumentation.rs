//! Instrumentation: `performance_schema.events_statements_summary_by_digest` after a
//! scripted workload, and SHOW PROFILE. The digest table: one
//! row per statement shape, COUNT_STAR equal to the executions (text and prepared alike),
//! rows sent/examined/affected and errors as the workload had them, DIGEST_TEXT as MySQL
//! 8.0 prints it, the bound with its overflow row, TRUNCATE.

mod common;

use common::*;
use mysql::prelude::*;
use std::collections::BTreeMap;

/// Quire's own table (MariaDB 10.11 has no digest quantiles or samples and other texts).
fn quire_only() -> bool {
    if target() != Target::Quire {
        eprintln!("performance_schema tests are Quire-only (QUIRE_TEST_TARGET=mariadb): not run");
        return false;
    }
    true
}

/// One digest row: the columns the tests read, by name.
type Digest = BTreeMap<String, Option<String>>;

/// Every row of the table, keyed by DIGEST_TEXT ("NULL" for the overflow row).
fn digests(c: &mut mysql::Conn) -> BTreeMap<String, Digest> {
    let cols = [
        "SCHEMA_NAME",
        "DIGEST",
        "DIGEST_TEXT",
        "COUNT_STAR",
        "SUM_TIMER_WAIT",
        "MIN_TIMER_WAIT",
        "AVG_TIMER_WAIT",
        "MAX_TIMER_WAIT",
        "SUM_ERRORS",
        "SUM_ROWS_AFFECTED",
        "SUM_ROWS_SENT",
        "SUM_ROWS_EXAMINED",
        "SUM_NO_INDEX_USED",
        "FIRST_SEEN",
        "LAST_SEEN",
        "QUANTILE_95",
        "QUANTILE_99",
        "QUANTILE_999",
        "QUERY_SAMPLE_TEXT",
        "QUERY_SAMPLE_TIMER_WAIT",
    ];
    let sql = format!(
        "SELECT {} FROM performance_schema.events_statements_summary_by_digest",
        cols.join(", ")
    );
    let rows: Vec<mysql::Row> = c.query(sql).expect("read the digest table");
    let mut out = BTreeMap::new();
    for row in rows {
        let mut d = Digest::new();
        for (i, name) in cols.iter().enumerate() {
            let v: Option<String> = row.get(i).expect("column");
            d.insert(name.to_string(), v);
        }
        let key = d["DIGEST_TEXT"].clone().unwrap_or_else(|| "NULL".into());
        assert!(out.insert(key.clone(), d).is_none(), "two rows for {key}");
    }
    out
}

fn num(d: &Digest, col: &str) -> u64 {
    d[col]
        .as_deref()
        .unwrap_or_else(|| panic!("{col} is NULL"))
        .parse()
        .unwrap_or_else(|e| panic!("{col}: {e}"))
}

fn row<'a>(all: &'a BTreeMap<String, Digest>, text: &str) -> &'a Digest {
    all.get(text).unwrap_or_else(|| {
        panic!(
            "no row for {text}; rows:\n{}",
            all.keys().cloned().collect::<Vec<_>>().join("\n")
        )
    })
}

#[test]
fn summary_by_digest_counts_a_scripted_workload() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start();
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    c.query_drop("CREATE DATABASE w").unwrap();
    c.query_drop("USE w").unwrap();
    c.query_drop("CREATE TABLE w (id INT PRIMARY KEY, v INT)")
        .unwrap();
    let values: Vec<String> = (1..=20).map(|i| format!("({i},{i})")).collect();
    c.query_drop(format!("INSERT INTO w VALUES {}", values.join(",")))
        .unwrap();
    // Start counting from here.
    c.query_drop("TRUNCATE TABLE performance_schema.events_statements_summary_by_digest")
        .unwrap();
    let all = digests(&mut c);
    assert_eq!(
        all.keys().cloned().collect::<Vec<_>>(),
        vec!["TRUNCATE TABLE `performance_schema` . `events_statements_summary_by_digest`"],
        "after TRUNCATE only the TRUNCATE itself is counted"
    );

    // Point selects by text and by prepared statement: one shape.
    for i in 1..=7 {
        let v: Option<i64> = c
            .query_first(format!("SELECT v FROM w WHERE id = {i}"))
            .unwrap();
        assert_eq!(v, Some(i));
    }
    let stmt = c.prep("SELECT v FROM w WHERE id = ?").unwrap();
    for i in 1..=4 {
        let v: Option<i64> = c.exec_first(&stmt, (i,)).unwrap();
        assert_eq!(v, Some(i));
    }
    // Full scans: 10 rows sent of 20 examined, each time.
    for x in [10, 10, 10, 10, 10] {
        let ids: Vec<i64> = c.query(format!("SELECT id FROM w WHERE v > {x}")).unwrap();
        assert_eq!(ids.len(), 10);
    }
    // Updates: 4 rows each.
    for _ in 0..3 {
        c.query_drop("UPDATE w SET v = v + 1 WHERE id <= 4")
            .unwrap();
        assert_eq!(c.affected_rows(), 4);
    }
    // Errors.
    for _ in 0..2 {
        assert!(c.query_drop("SELECT v FROM no_such_table").is_err());
    }

    let all = digests(&mut c);
    let point = row(&all, "SELECT `v` FROM `w` WHERE `id` = ?");
    assert_eq!(num(point, "COUNT_STAR"), 11);
    assert_eq!(num(point, "SUM_ROWS_SENT"), 11);
    assert_eq!(num(point, "SUM_ROWS_EXAMINED"), 11);
    assert_eq!(num(point, "SUM_NO_INDEX_USED"), 0);
    assert_eq!(point["SCHEMA_NAME"].as_deref(), Some("w"));
    let hex = point["DIGEST"].clone().unwrap();
    assert!(
        hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        "DIGEST is 64 hex digits: {hex}"
    );
    let scan = row(&all, "SELECT `id` FROM `w` WHERE `v` > ?");
    assert_eq!(num(scan, "COUNT_STAR"), 5);
    assert_eq!(num(scan, "SUM_ROWS_SENT"), 50);
    assert_eq!(num(scan, "SUM_ROWS_EXAMINED"), 100);
    assert_eq!(num(scan, "SUM_NO_INDEX_USED"), 5);
    let update = row(&all, "UPDATE `w` SET `v` = `v` + ? WHERE `id` <= ?");
    assert_eq!(num(update, "COUNT_STAR"), 3);
    assert_eq!(num(update, "SUM_ROWS_AFFECTED"), 12);
    let failed = row(&all, "SELECT `v` FROM `no_such_table`");
    assert_eq!(num(failed, "COUNT_STAR"), 2);
    assert_eq!(num(failed, "SUM_ERRORS"), 2);
    assert_eq!(num(point, "SUM_ERRORS"), 0);

    // Timers: consistent with each other and with the histogram's quantiles.
    for d in [point, scan, update, failed] {
        let (n, sum, min, avg, max) = (
            num(d, "COUNT_STAR"),
            num(d, "SUM_TIMER_WAIT"),
            num(d, "MIN_TIMER_WAIT"),
            num(d, "AVG_TIMER_WAIT"),
            num(d, "MAX_TIMER_WAIT"),
        );
        assert!(0 < min && min <= avg && avg <= max && max <= sum, "{d:?}");
        assert_eq!(avg, sum / n, "{d:?}");
        let (q95, q99, q999) = (
            num(d, "QUANTILE_95"),
            num(d, "QUANTILE_99"),
            num(d, "QUANTILE_999"),
        );
        // Bucket upper bounds: a high estimate; with fewer than 1,000 statements the
        // 99.9th percentile is the bucket of the longest one.
        assert!(
            min < q95 && q95 <= q99 && q99 <= q999 && max < q999,
            "{d:?}"
        );
        assert_eq!(
            num(d, "QUERY_SAMPLE_TIMER_WAIT"),
            max,
            "the sample is the longest"
        );
        assert!(d["FIRST_SEEN"] <= d["LAST_SEEN"], "{d:?}");
    }
    let sample = scan["QUERY_SAMPLE_TEXT"].clone().unwrap();
    assert_eq!(sample, "SELECT id FROM w WHERE v > 10");
}

/// Statements from MySQL's own test of DIGEST_TEXT (mysql-test/suite/perfschema,
/// statement_digest.test/.result, MySQL 8.0): texts that differ only in literals, list
/// lengths, comments and spacing share one row, printed as MySQL prints it.
#[test]
fn digest_text_and_grouping_match_mysql() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start();
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    for sql in [
        "CREATE DATABASE statements_digest",
        "USE statements_digest",
        "CREATE TABLE t1(a int)",
        "CREATE TABLE t2(a int)",
        "CREATE TABLE t3(a int, b int)",
        "CREATE TABLE t5(a int, b int, c int)",
        "TRUNCATE TABLE performance_schema.events_statements_summary_by_digest",
    ] {
        c.query_drop(sql).unwrap();
    }
    let expected: [(&[&str], &str); 7] = [
        (
            &["SELECT 1 FROM t1", "SELECT 1 FROM `t1`"],
            "SELECT ? FROM `t1`",
        ),
        (&["SELECT 1,2 FROM t1"], "SELECT ?, ... FROM `t1`"),
        (
            &["INSERT INTO t1 VALUES (1)", "INSERT INTO t1 VALUES (NULL)"],
            "INSERT INTO `t1` VALUES (?)",
        ),
        (
            &["INSERT INTO t3 VALUES (1, 2), (3, 4), (5, 6)"],
            "INSERT INTO `t3` VALUES (...) /* , ... */",
        ),
        (
            &[
                "SELECT * FROM t1 WHERE a IN (1)",
                "SELECT * FROM t1 WHERE a IN (1, 2, 3)",
            ],
            "SELECT * FROM `t1` WHERE `a` IN (...)",
        ),
        (
            &[
                "SELECT                                          1           +        1",
                "SELECT 1 /* This is an inline comment */ + 1",
                "SELECT 1+\n/*\nthis is a\nmultiple-line comment\n*/\n1",
            ],
            "SELECT ? + ?",
        ),
        (
            &[
                "CREATE SCHEMA statements_digest_temp",
                "DROP DATABASE statements_digest_temp",
                "CREATE DATABASE statements_digest_temp",
            ],
            "CREATE SCHEMA `statements_digest_temp`",
        ),
    ];
    for (sqls, _) in &expected {
        for sql in *sqls {
            c.query_drop(*sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
    }
    let all = digests(&mut c);
    for (sqls, text) in &expected {
        let d = row(&all, text);
        // The DROP in the CREATE SCHEMA group is a shape of its own.
        let creates = sqls.iter().filter(|s| !s.starts_with("DROP")).count() as u64;
        assert_eq!(num(d, "COUNT_STAR"), creates, "{text}");
        assert_eq!(d["SCHEMA_NAME"].as_deref(), Some("statements_digest"));
    }
    assert_eq!(
        num(
            row(&all, "DROP SCHEMA `statements_digest_temp`"),
            "COUNT_STAR"
        ),
        1
    );
}

/// `performance_schema_digests_size` bounds the rows; statements of other shapes go to one
/// row with NULL digest, and are counted in Performance_schema_digest_lost.
#[test]
fn digests_beyond_the_bound_go_to_the_overflow_row() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start_with(&["--performance-schema-digests-size=3"]);
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    c.query_drop("TRUNCATE TABLE performance_schema.events_statements_summary_by_digest")
        .unwrap();
    for i in 0..6 {
        // Six shapes: 1 to 6 columns.
        let cols: Vec<String> = (0..=i).map(|j| format!("{j} AS c{j}")).collect();
        c.query_drop(format!("SELECT {}", cols.join(", "))).unwrap();
    }
    let all = digests(&mut c);
    // The TRUNCATE and two SELECTs took the three rows; four SELECTs overflowed.
    assert_eq!(all.len(), 4, "{:?}", all.keys().collect::<Vec<_>>());
    let overflow = row(&all, "NULL");
    assert_eq!(num(overflow, "COUNT_STAR"), 4);
    assert_eq!(overflow["SCHEMA_NAME"], None);
    assert_eq!(overflow["DIGEST"], None);
    let lost: Option<(String, u64)> = c
        .query_first("SHOW GLOBAL STATUS LIKE 'Performance_schema_digest_lost'")
        .unwrap();
    // The four, and the read of the table itself.
    assert_eq!(lost.map(|l| l.1), Some(5));
}

/// Seconds shown with up to 8 decimals, as microseconds (rounded to the nearest).
fn micros(s: &str) -> i64 {
    (s.parse::<f64>()
        .unwrap_or_else(|e| panic!("not seconds: {s}: {e}"))
        * 1e6)
        .round() as i64
}

/// SHOW PROFILE for a durable autocommit UPDATE: the commit wait is a stage of its own,
/// and the stages add up to the statement's duration in SHOW PROFILES.
#[test]
fn show_profile_has_the_commit_wait_as_a_stage() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start();
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    for sql in [
        "CREATE DATABASE p",
        "USE p",
        "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
        "INSERT INTO t VALUES (1, 1), (2, 2)",
        "SET profiling = 1",
        "UPDATE t SET v = v + 1 WHERE id = 1",
        "SELECT v FROM t WHERE id = 2",
    ] {
        c.query_drop(sql).unwrap();
    }
    let profiles: Vec<(u64, String, String)> = c.query("SHOW PROFILES").unwrap();
    // Statements run while profiling was on (not SET itself, not SHOW PROFILES).
    let queries: Vec<&str> = profiles.iter().map(|p| p.2.as_str()).collect();
    assert_eq!(
        queries,
        [
            "UPDATE t SET v = v + 1 WHERE id = 1",
            "SELECT v FROM t WHERE id = 2"
        ]
    );
    let (update_id, update_total) = (profiles[0].0, micros(&profiles[0].1));

    let stages: Vec<(String, String)> = c
        .query(format!("SHOW PROFILE FOR QUERY {update_id}"))
        .unwrap();
    let names: Vec<&str> = stages.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names.first(), Some(&"starting"), "{names:?}");
    assert_eq!(names.last(), Some(&"cleaning up"), "{names:?}");
    let commit: Vec<i64> = stages
        .iter()
        .filter(|s| s.0 == "waiting for handler commit")
        .map(|s| micros(&s.1))
        .collect();
    assert_eq!(commit.len(), 1, "one commit stage: {names:?}");
    assert!(commit[0] > 0, "the commit waits for an fsync: {stages:?}");
    let pos = |n: &str| names.iter().position(|x| *x == n).unwrap();
    assert!(pos("executing") < pos("waiting for handler commit"));
    let sum: i64 = stages.iter().map(|s| micros(&s.1)).sum();
    assert!(
        (sum - update_total).abs() * 20 <= update_total,
        "stages add up to {sum} µs, the statement took {update_total} µs: {stages:?}"
    );

    // The SELECT (the latest profile) streams its row; no commit stage.
    let stages: Vec<(String, String)> = c.query("SHOW PROFILE").unwrap();
    let names: Vec<&str> = stages.iter().map(|s| s.0.as_str()).collect();
    assert!(names.contains(&"Sending data"), "{names:?}");
    assert!(!names.contains(&"waiting for handler commit"), "{names:?}");

    // Column groups: ALL is MySQL's 16 columns; CPU adds user and system time.
    let all: Vec<mysql::Row> = c
        .query(format!(
            "SHOW PROFILE ALL FOR QUERY {update_id} LIMIT 2 OFFSET 1"
        ))
        .unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].columns_ref().len(), 16);
    let cpu: Vec<mysql::Row> = c.query("SHOW PROFILE CPU, SWAPS").unwrap();
    let cols: Vec<String> = cpu[0]
        .columns_ref()
        .iter()
        .map(|c| c.name_str().into_owned())
        .collect();
    assert_eq!(
        cols,
        ["Status", "Duration", "CPU_user", "CPU_system", "Swaps"]
    );

    // profiling_history_size bounds what is kept; an unknown query shows nothing.
    c.query_drop("SET profiling_history_size = 2").unwrap();
    for i in 0..3 {
        c.query_drop(format!("SELECT {i}")).unwrap();
    }
    let profiles: Vec<(u64, String, String)> = c.query("SHOW PROFILES").unwrap();
    let queries: Vec<&str> = profiles.iter().map(|p| p.2.as_str()).collect();
    assert_eq!(queries, ["SELECT 1", "SELECT 2"]);
    let none: Vec<mysql::Row> = c.query("SHOW PROFILE FOR QUERY 999").unwrap();
    assert!(none.is_empty());
}

/// information_schema describes the catalog as MySQL does (the columns tools read), and
/// its tables filter, sort and join like any other.
#[test]
fn information_schema_tables_columns_statistics_processlist_profiling() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start();
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    for sql in [
        "CREATE DATABASE inv",
        "USE inv",
        "CREATE TABLE item (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, sku VARCHAR(20) NOT NULL, \
         price DECIMAL(10,2), added DATETIME(3), note TEXT, UNIQUE KEY uk_sku (sku), KEY k_price (price, added))",
        "CREATE TABLE tag (item_id INT, name CHAR(8))",
        "INSERT INTO item (sku, price) VALUES ('a', 1.5), ('b', 2.5)",
    ] {
        c.query_drop(sql).unwrap();
    }
    let schemata: Vec<(String, String)> = c
        .query(
            "SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME FROM information_schema.SCHEMATA \
             WHERE SCHEMA_NAME = 'inv'",
        )
        .unwrap();
    assert_eq!(schemata.len(), 1);
    let tables: Vec<(String, String, u64, Option<u64>)> = c
        .query(
            "SELECT TABLE_NAME, TABLE_TYPE, TABLE_ROWS, AUTO_INCREMENT FROM information_schema.TABLES \
             WHERE TABLE_SCHEMA = 'inv' ORDER BY TABLE_NAME",
        )
        .unwrap();
    assert_eq!(
        tables,
        [
            ("item".into(), "BASE TABLE".into(), 2, Some(3)),
            ("tag".into(), "BASE TABLE".into(), 0, None)
        ]
    );
    type Col = (String, u64, String, String, String, String, Option<u64>);
    let cols: Vec<Col> = c
        .query(
            "SELECT COLUMN_NAME, ORDINAL_POSITION, IS_NULLABLE, DATA_TYPE, COLUMN_TYPE, COLUMN_KEY, \
             CHARACTER_MAXIMUM_LENGTH FROM information_schema.COLUMNS \
             WHERE TABLE_SCHEMA = 'inv' AND TABLE_NAME = 'item' ORDER BY ORDINAL_POSITION",
        )
        .unwrap();
    let want: Vec<Col> = vec![
        (
            "id".into(),
            1,
            "NO".into(),
            "int".into(),
            "int".into(),
            "PRI".into(),
            None,
        ),
        (
            "sku".into(),
            2,
            "NO".into(),
            "varchar".into(),
            "varchar(20)".into(),
            "UNI".into(),
            Some(20),
        ),
        (
            "price".into(),
            3,
            "YES".into(),
            "decimal".into(),
            "decimal(10,2)".into(),
            "MUL".into(),
            None,
        ),
        (
            "added".into(),
            4,
            "YES".into(),
            "datetime".into(),
            "datetime(3)".into(),
            "".into(),
            None,
        ),
        (
            "note".into(),
            5,
            "YES".into(),
            "text".into(),
            "text".into(),
            "".into(),
            Some(65535),
        ),
    ];
    assert_eq!(cols, want);
    let extra: Option<String> = c
        .query_first(
            "SELECT EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'inv' \
             AND TABLE_NAME = 'item' AND COLUMN_NAME = 'id'",
        )
        .unwrap();
    assert_eq!(extra.as_deref(), Some("auto_increment"));
    let stats: Vec<(String, i64, u64, String)> = c
        .query(
            "SELECT INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME FROM information_schema.STATISTICS \
             WHERE TABLE_SCHEMA = 'inv' AND TABLE_NAME = 'item' ORDER BY INDEX_NAME, SEQ_IN_INDEX",
        )
        .unwrap();
    assert_eq!(
        stats,
        // Names compare case-insensitively, as in MySQL's information_schema.
        [
            ("k_price".into(), 1, 1, "price".into()),
            ("k_price".into(), 1, 2, "added".into()),
            ("PRIMARY".into(), 0, 1, "id".into()),
            ("uk_sku".into(), 0, 1, "sku".into()),
        ]
    );
    // A join between two of them: columns per table.
    let per_table: Vec<(String, u64)> = c
        .query(
            "SELECT t.TABLE_NAME, COUNT(*) FROM information_schema.TABLES t \
             JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME \
             WHERE t.TABLE_SCHEMA = 'inv' GROUP BY t.TABLE_NAME ORDER BY t.TABLE_NAME",
        )
        .unwrap();
    assert_eq!(per_table, [("item".into(), 5), ("tag".into(), 2)]);

    // PROCESSLIST shows this connection running this query.
    let id: u64 = c.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    let me: Option<(String, String)> = c
        .query_first(format!(
            "SELECT COMMAND, INFO FROM information_schema.PROCESSLIST WHERE ID = {id}"
        ))
        .unwrap();
    let (command, info) = me.expect("own row");
    assert_eq!(command, "Query");
    assert!(info.contains("information_schema.PROCESSLIST"), "{info}");

    // PROFILING holds what SHOW PROFILE shows, numbered from 2.
    c.query_drop("SET profiling = 1").unwrap();
    c.query_drop("SELECT COUNT(*) FROM item").unwrap();
    let shown: Vec<(String, String)> = c.query("SHOW PROFILE").unwrap();
    let rows: Vec<(u64, String, String)> = c
        .query("SELECT SEQ, STATE, DURATION FROM information_schema.PROFILING WHERE QUERY_ID = 1 ORDER BY SEQ")
        .unwrap();
    assert_eq!(rows.first().map(|r| r.0), Some(2));
    let states: Vec<(String, String)> = rows.into_iter().map(|r| (r.1, r.2)).collect();
    assert_eq!(states, shown);
}

/// KILL QUERY stops a long SELECT (a cross join of two 10,000-row tables) with 1317 and
/// leaves its connection usable; the kill's latency is measured by bench/kill.sh. (KILL of
/// a connection in an open transaction releasing its row locks: tests/rust_driver.rs.)
#[test]
fn kill_query_stops_a_cross_join() {
    let server = TestServer::start();
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    c.query_drop("CREATE DATABASE k").unwrap();
    c.query_drop("USE k").unwrap();
    for t in ["a", "b"] {
        c.query_drop(format!("CREATE TABLE {t} (id INT PRIMARY KEY, v INT)"))
            .unwrap();
        for start in (0..10_000).step_by(1000) {
            let values: Vec<String> = (start..start + 1000)
                .map(|i| format!("({i},{i})"))
                .collect();
            c.query_drop(format!("INSERT INTO {t} VALUES {}", values.join(",")))
                .unwrap();
        }
    }
    let id: u64 = c.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    let join = std::thread::spawn(move || {
        let r: mysql::Result<Option<u64>> =
            c.query_first("SELECT COUNT(*) FROM a, b WHERE a.v + b.v = -1");
        (r, c)
    });
    let mut admin = mysql::Conn::new(server.opts()).expect("admin");
    // Wait until the join runs.
    let mut running = false;
    for _ in 0..200 {
        let info: Option<Option<String>> = admin
            .query_first(format!(
                "SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = {id}"
            ))
            .unwrap();
        if info.flatten().is_some_and(|i| i.contains("FROM a, b")) {
            running = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(running, "the join never showed in the process list");
    admin.query_drop(format!("KILL QUERY {id}")).unwrap();
    let (r, mut c) = join.join().unwrap();
    match r {
        Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1317, "{e}"),
        other => panic!("the join was not interrupted: {other:?}"),
    }
    let one: Option<u64> = c.query_first("SELECT 1").unwrap();
    assert_eq!(one, Some(1), "the connection survives KILL QUERY");
}

/// events_statements_history keeps a session's last statements (text, digest, schema,
/// error, rows) up to its size; events_statements_current shows another session's last
/// statement and the reader's own as running; threads lists the connections.
#[test]
fn statement_history_current_and_threads() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start_with(&["--performance-schema-events-statements-history-size=4"]);
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    let id: u64 = c.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    for sql in [
        "CREATE DATABASE h",
        "USE h",
        "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
        "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)",
        "SELECT v FROM t WHERE v > 15",
    ] {
        c.query_drop(sql).unwrap();
    }
    assert!(c.query_drop("SELECT * FROM missing").is_err());

    let mut admin = mysql::Conn::new(server.opts()).expect("admin");
    type Ev = (
        u64,
        String,
        String,
        Option<String>,
        Option<String>,
        i64,
        u64,
        u64,
        u64,
    );
    let events: Vec<Ev> = admin
        .query(format!(
            "SELECT EVENT_ID, EVENT_NAME, SQL_TEXT, DIGEST_TEXT, CURRENT_SCHEMA, MYSQL_ERRNO, \
             ROWS_AFFECTED, ROWS_SENT, ROWS_EXAMINED FROM performance_schema.events_statements_history \
             WHERE THREAD_ID = {id} ORDER BY EVENT_ID"
        ))
        .unwrap();
    // The driver's own statements at connect, CONNECTION_ID() and these ran; the last four
    // are kept, numbered on from the session's first.
    let texts: Vec<&str> = events.iter().map(|e| e.2.as_str()).collect();
    assert_eq!(
        texts,
        [
            "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
            "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)",
            "SELECT v FROM t WHERE v > 15",
            "SELECT * FROM missing"
        ]
    );
    let ids: Vec<u64> = events.iter().map(|e| e.0).collect();
    let last = ids[3];
    assert!(last >= 7, "{ids:?}");
    assert_eq!(ids, [last - 3, last - 2, last - 1, last]);
    let insert = &events[1];
    assert_eq!(insert.1, "statement/sql/insert");
    assert_eq!(
        insert.3.as_deref(),
        Some("INSERT INTO `t` VALUES (...) /* , ... */")
    );
    assert_eq!(insert.4.as_deref(), Some("h"));
    assert_eq!(insert.6, 3);
    let select = &events[2];
    assert_eq!((select.7, select.8), (2, 3), "rows sent and examined");
    let failed = &events[3];
    assert_eq!(failed.5, 1146);
    let (state, message): (String, String) = admin
        .query_first(format!(
            "SELECT RETURNED_SQLSTATE, MESSAGE_TEXT FROM performance_schema.events_statements_history \
             WHERE THREAD_ID = {id} AND EVENT_ID = {last}"
        ))
        .unwrap()
        .unwrap();
    assert_eq!(state, "42S02");
    assert!(message.contains("missing"), "{message}");

    // The idle session's current statement is its last one; the reader's own is running.
    let admin_id: u64 = admin
        .query_first("SELECT CONNECTION_ID()")
        .unwrap()
        .unwrap();
    let current: Vec<(u64, u64, Option<u64>, String)> = admin
        .query(
            "SELECT THREAD_ID, EVENT_ID, END_EVENT_ID, SQL_TEXT FROM performance_schema.events_statements_current \
             ORDER BY THREAD_ID",
        )
        .unwrap();
    let other = current
        .iter()
        .find(|r| r.0 == id)
        .expect("the idle session");
    assert_eq!((other.1, other.2), (last, Some(last)));
    let own = current
        .iter()
        .find(|r| r.0 == admin_id)
        .expect("the reader");
    assert_eq!(own.2, None, "still running");
    assert!(own.3.contains("events_statements_current"));

    let threads: Vec<(u64, String, u64, String)> = admin
        .query(
            "SELECT THREAD_ID, NAME, PROCESSLIST_ID, PROCESSLIST_COMMAND FROM performance_schema.threads \
             ORDER BY THREAD_ID",
        )
        .unwrap();
    assert_eq!(
        threads,
        [
            (id, "thread/sql/one_connection".into(), id, "Sleep".into()),
            (
                admin_id,
                "thread/sql/one_connection".into(),
                admin_id,
                "Query".into()
            ),
        ]
    );
}

/// `SHOW SESSION STATUS` after `FLUSH STATUS` and one statement, by name.
fn status_after(c: &mut mysql::Conn, sql: &str) -> BTreeMap<String, u64> {
    c.query_drop("FLUSH STATUS").unwrap();
    c.query_drop(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    session_status(c)
}

fn session_status(c: &mut mysql::Conn) -> BTreeMap<String, u64> {
    let rows: Vec<(String, String)> = c.query("SHOW SESSION STATUS").unwrap();
    rows.into_iter()
        .filter_map(|(n, v)| v.parse().ok().map(|v| (n, v)))
        .collect()
}

fn global_counter(c: &mut mysql::Conn, name: &str) -> u64 {
    let v: Option<(String, String)> = c
        .query_first(format!("SHOW GLOBAL STATUS LIKE '{name}'"))
        .unwrap();
    v.expect(name).1.parse().unwrap()
}

/// The counters tools read, statement by statement, against a real MariaDB (InnoDB) running
/// the same statements: handler reads, Select_*, Com_*, rows written.
#[test]
fn status_counters_count_as_mariadb_does() {
    let quire = TestServer::start();
    let maria = TestServer::start_mariadb(&[]);
    let setup = [
        "CREATE DATABASE st",
        "USE st",
        "CREATE TABLE t (id INT PRIMARY KEY, k INT, KEY (k)) ENGINE=InnoDB",
        "INSERT INTO t VALUES (1,1),(2,2),(3,3),(4,4),(5,5),(6,6),(7,7),(8,8),(9,9),(10,10)",
    ];
    let cases: &[(&str, &[&str])] = &[
        (
            "SELECT * FROM t",
            &[
                "Handler_read_first",
                "Handler_read_next",
                "Handler_read_key",
                "Select_scan",
                "Com_select",
            ],
        ),
        (
            "SELECT * FROM t WHERE id = 3",
            &[
                "Handler_read_key",
                "Handler_read_next",
                "Handler_read_first",
                "Select_scan",
                "Select_range",
            ],
        ),
        (
            "SELECT * FROM t WHERE id BETWEEN 2 AND 5",
            &[
                "Handler_read_key",
                "Handler_read_next",
                "Select_range",
                "Select_scan",
            ],
        ),
        (
            "SELECT * FROM t WHERE k BETWEEN 2 AND 5",
            &["Handler_read_key", "Handler_read_next", "Select_range"],
        ),
        (
            "SELECT * FROM t WHERE k = 3",
            &["Handler_read_key", "Handler_read_next"],
        ),
        (
            "SELECT * FROM t ORDER BY id DESC",
            &["Handler_read_last", "Handler_read_prev", "Select_scan"],
        ),
        (
            "SELECT * FROM t a JOIN t b ON a.k = b.id",
            &["Handler_read_key", "Select_scan", "Select_full_join"],
        ),
        (
            "UPDATE t SET k = k + 1 WHERE id = 3",
            &[
                "Com_update",
                "Handler_update",
                "Handler_read_key",
                "Handler_commit",
                "Com_select",
            ],
        ),
        (
            "INSERT INTO t VALUES (11, 11), (12, 12)",
            &["Com_insert", "Handler_write", "Handler_commit"],
        ),
        (
            "DELETE FROM t WHERE id = 12",
            &["Com_delete", "Handler_delete"],
        ),
        ("DO 1", &["Com_do", "Questions"]),
        ("SHOW TABLES", &["Com_show_tables", "Com_select"]),
    ];
    let mut runs = Vec::new();
    for server in [&quire, &maria] {
        let mut c = mysql::Conn::new(server.opts()).expect("connect");
        for sql in setup {
            c.query_drop(sql).unwrap();
        }
        let figures: Vec<Vec<(String, u64)>> = cases
            .iter()
            .map(|(sql, names)| {
                let st = status_after(&mut c, sql);
                names
                    .iter()
                    .map(|n| (n.to_string(), st.get(*n).copied().unwrap_or(u64::MAX)))
                    .collect()
            })
            .collect();
        runs.push(figures);
    }
    for (i, (sql, _)) in cases.iter().enumerate() {
        assert_eq!(
            runs[0][i], runs[1][i],
            "Quire (left) and MariaDB (right) after {sql}"
        );
    }
    // The join and the scan, figure by figure, so a shared mistake cannot pass unseen.
    assert_eq!(
        runs[0][0],
        vec![
            ("Handler_read_first".to_string(), 1),
            ("Handler_read_next".to_string(), 10),
            ("Handler_read_key".to_string(), 0),
            ("Select_scan".to_string(), 1),
            ("Com_select".to_string(), 1),
        ]
    );
    assert_eq!(
        runs[0][2][..2],
        [
            ("Handler_read_key".to_string(), 1),
            ("Handler_read_next".to_string(), 4)
        ]
    );
}

/// Prepared statements count as MySQL counts them (Com_stmt_* and the statement's own
/// Com_*); FLUSH STATUS zeroes the session's counters but not the global totals, which
/// also keep what closed sessions did.
#[test]
fn status_counters_prepared_flush_and_global() {
    let server = TestServer::start();
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    c.query_drop("CREATE DATABASE g").unwrap();
    c.query_drop("USE g").unwrap();
    c.query_drop("CREATE TABLE t (id INT PRIMARY KEY, v INT)")
        .unwrap();
    c.query_drop("INSERT INTO t VALUES (1, 1), (2, 2)").unwrap();
    c.query_drop("FLUSH STATUS").unwrap();
    let stmt = c.prep("SELECT v FROM t WHERE id = ?").unwrap();
    for id in [1, 2, 3] {
        let _: Option<i64> = c.exec_first(&stmt, (id,)).unwrap();
    }
    let st = session_status(&mut c);
    assert_eq!(st["Com_stmt_prepare"], 1);
    assert_eq!(st["Com_stmt_execute"], 3);
    assert_eq!(st["Com_select"], 3, "each execution is also a SELECT");
    assert_eq!(st["Handler_read_key"], 3);
    assert_eq!(
        st["Questions"], 4,
        "the executions and this SHOW count as questions, the prepare does not"
    );
    let before = global_counter(&mut c, "Com_select");
    {
        let mut other = mysql::Conn::new(server.opts()).expect("connect");
        other.query_drop("FLUSH STATUS").unwrap();
        for _ in 0..5 {
            other.query_drop("SELECT 1").unwrap();
        }
        let st = session_status(&mut other);
        assert_eq!(st["Com_select"], 5, "a session sees its own counts");
    }
    c.query_drop("SELECT 2").unwrap();
    c.query_drop("FLUSH STATUS").unwrap();
    let st = session_status(&mut c);
    assert_eq!(
        st["Com_select"], 0,
        "FLUSH STATUS zeroes the session's counters"
    );
    let after = global_counter(&mut c, "Com_select");
    assert!(
        after >= before + 6,
        "global Com_select keeps closed sessions' and flushed counts: {before} then {after}"
    );
    assert!(global_counter(&mut c, "Questions") >= 10);
    assert!(global_counter(&mut c, "Bytes_received") > 0);
}

/// setup_consumers / setup_instruments switch collection at run time; the sys views read the
/// digest summary with MySQL's formatting; global_status is SHOW GLOBAL STATUS as a table.
#[test]
fn setup_tables_sys_views_and_status_tables() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start();
    let mut c = mysql::Conn::new(server.opts()).expect("connect");
    c.query_drop("CREATE DATABASE s").unwrap();
    c.query_drop("USE s").unwrap();
    c.query_drop("CREATE TABLE t (id INT PRIMARY KEY, v INT)")
        .unwrap();
    c.query_drop("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)")
        .unwrap();
    c.query_drop("TRUNCATE performance_schema.events_statements_summary_by_digest")
        .unwrap();

    let consumers: Vec<(String, String)> = c
        .query("SELECT NAME, ENABLED FROM performance_schema.setup_consumers")
        .unwrap();
    for name in [
        "statements_digest",
        "events_statements_history",
        "global_instrumentation",
    ] {
        assert!(
            consumers.contains(&(name.to_string(), "YES".to_string())),
            "{consumers:?}"
        );
    }
    // Instrument off: the statement is not collected.
    c.query_drop(
        "UPDATE performance_schema.setup_instruments SET ENABLED = 'NO' \
         WHERE NAME = 'statement/sql/select'",
    )
    .unwrap();
    assert_eq!(c.affected_rows(), 1);
    let off: Vec<(String, String)> = c
        .query(
            "SELECT NAME, ENABLED FROM performance_schema.setup_instruments WHERE ENABLED = 'NO'",
        )
        .unwrap();
    assert_eq!(
        off,
        vec![("statement/sql/select".to_string(), "NO".to_string())]
    );
    c.query_drop("SELECT v FROM t WHERE id = 1").unwrap();
    c.query_drop("UPDATE performance_schema.setup_instruments SET ENABLED = 'YES'")
        .unwrap();
    assert_eq!(c.affected_rows(), 1, "only the one that was off changed");
    let all = digests(&mut c);
    assert!(
        !all.contains_key("SELECT `v` FROM `t` WHERE `id` = ?"),
        "an uninstrumented statement is not in the summary: {:?}",
        all.keys()
    );
    c.query_drop("SELECT v FROM t WHERE id = 1").unwrap();
    assert_eq!(
        num(
            row(&digests(&mut c), "SELECT `v` FROM `t` WHERE `id` = ?"),
            "COUNT_STAR"
        ),
        1
    );

    // Consumer off: nothing more goes to the history.
    let id: u64 = c.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    let in_history = |c: &mut mysql::Conn, sql: &str| -> bool {
        let n: u64 = c
            .query_first(format!(
                "SELECT COUNT(*) FROM performance_schema.events_statements_history \
                 WHERE THREAD_ID = {id} AND SQL_TEXT = '{sql}'"
            ))
            .unwrap()
            .unwrap();
        n > 0
    };
    c.query_drop(
        "UPDATE performance_schema.setup_consumers SET ENABLED = 'NO' \
         WHERE NAME = 'events_statements_history'",
    )
    .unwrap();
    c.query_drop("SELECT 1").unwrap();
    assert!(!in_history(&mut c, "SELECT 1"), "history consumer off");
    let counted = num(row(&digests(&mut c), "SELECT ?"), "COUNT_STAR");
    c.query_drop(
        "UPDATE performance_schema.setup_consumers \
         SET ENABLED = IF(NAME LIKE '%digest', 'NO', 'YES')",
    )
    .unwrap();
    c.query_drop("SELECT 3").unwrap();
    assert!(in_history(&mut c, "SELECT 3"), "history consumer back on");
    assert_eq!(
        num(row(&digests(&mut c), "SELECT ?"), "COUNT_STAR"),
        counted,
        "digest consumer off"
    );
    c.query_drop("UPDATE performance_schema.setup_consumers SET ENABLED = 'YES'")
        .unwrap();

    // What cannot be changed is refused.
    for (sql, code) in [
        (
            "UPDATE performance_schema.setup_consumers SET ENABLED = 'maybe'",
            1265,
        ),
        (
            "UPDATE performance_schema.setup_consumers SET NAME = 'x'",
            1683,
        ),
        (
            "UPDATE performance_schema.setup_instruments SET TIMED = 'NO'",
            1235,
        ),
    ] {
        match c.query_drop(sql) {
            Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, code, "{sql}"),
            other => panic!("{sql}: {other:?}"),
        }
    }

    // sys views.
    c.query_drop("TRUNCATE performance_schema.events_statements_summary_by_digest")
        .unwrap();
    for _ in 0..3 {
        c.query_drop("SELECT * FROM t WHERE v > 15").unwrap();
    }
    c.query_drop("SELECT * FROM t WHERE id = 2").unwrap();
    type Analysis = (
        String,
        Option<String>,
        String,
        u64,
        String,
        String,
        u64,
        u64,
    );
    let rows: Vec<Analysis> = c
        .query(
            "SELECT query, db, full_scan, exec_count, total_latency, avg_latency, \
             rows_examined_avg, rows_sent_avg FROM sys.statement_analysis",
        )
        .unwrap();
    let scan = rows
        .iter()
        .find(|r| r.0 == "SELECT * FROM `t` WHERE `v` > ?")
        .unwrap_or_else(|| panic!("{rows:?}"));
    assert_eq!(
        (scan.1.as_deref(), scan.2.as_str(), scan.3),
        (Some("s"), "*", 3)
    );
    assert_eq!((scan.6, scan.7), (4, 3), "per-execution averages");
    let latency = |s: &str| {
        let (n, unit) = s.trim_start().split_once(' ').unwrap_or(("", ""));
        n.parse::<f64>().is_ok()
            && (unit == "ps" || n.split_once('.').is_some_and(|(_, d)| d.len() == 2))
            && ["ps", "ns", "us", "ms", "s", "min", "h", "d"].contains(&unit)
    };
    assert!(latency(&scan.4) && latency(&scan.5), "{scan:?}");
    let point = rows
        .iter()
        .find(|r| r.0 == "SELECT * FROM `t` WHERE `id` = ?")
        .expect("point select row");
    assert_eq!(point.2, "", "an index lookup is no full scan");
    let full: Vec<(String, u64, u64)> = c
        .query("SELECT query, exec_count, no_index_used_pct FROM sys.statements_with_full_table_scans WHERE db = 's' AND query NOT LIKE '%`sys`%'")
        .unwrap();
    assert_eq!(
        full,
        vec![("SELECT * FROM `t` WHERE `v` > ?".to_string(), 3, 100)]
    );
    let long: String = c
        .query_first("SELECT query FROM sys.statement_analysis WHERE query LIKE 'TRUNCATE%'")
        .unwrap()
        .unwrap();
    assert_eq!(
        long,
        "TRUNCATE `performance_schema`  ... _statements_summary_by_digest`"
    );
    let raw: u64 = c
        .query_first("SELECT total_latency FROM sys.`x$statement_analysis` WHERE query LIKE 'SELECT * FROM `t` WHERE `v`%'")
        .unwrap()
        .unwrap();
    assert!(raw > 0);
    let f: (String, String) = c
        .query_first("SELECT FORMAT_PICO_TIME(3501), FORMAT_BYTES(1536)")
        .unwrap()
        .unwrap();
    assert_eq!(f, ("3.50 ns".to_string(), "1.50 KiB".to_string()));

    // The status and variables tables.
    c.query_drop("UPDATE t SET v = v + 1 WHERE id = 1").unwrap();
    let show = global_counter(&mut c, "Com_update");
    let table: String = c
        .query_first("SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Com_update'")
        .unwrap()
        .unwrap();
    assert_eq!(table.parse::<u64>().unwrap(), show);
    let session: String = c
        .query_first("SELECT VARIABLE_VALUE FROM performance_schema.session_variables WHERE VARIABLE_NAME = 'autocommit'")
        .unwrap()
        .unwrap();
    assert_eq!(session, "ON");
}

/// The information_schema tables tools read about keys and character sets hold what
/// MariaDB's hold for the same tables; SHOW TABLES lists the computed schemas' tables.
#[test]
fn information_schema_keys_and_charsets_as_mariadb_has_them() {
    let quire = TestServer::start();
    let maria = TestServer::start_mariadb(&[]);
    let setup = [
        "CREATE DATABASE ik",
        "CREATE TABLE ik.t (id INT PRIMARY KEY, a INT, b VARCHAR(10), c INT, \
         UNIQUE KEY ub (b, a), UNIQUE KEY uc (c), KEY ka (a)) ENGINE=InnoDB",
        "CREATE TABLE ik.n (x INT, KEY kx (x)) ENGINE=InnoDB",
    ];
    let queries = [
        "SELECT CONSTRAINT_SCHEMA, CONSTRAINT_NAME, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, \
         ORDINAL_POSITION, POSITION_IN_UNIQUE_CONSTRAINT, REFERENCED_TABLE_NAME \
         FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = 'ik' \
         ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION",
        "SELECT CONSTRAINT_SCHEMA, CONSTRAINT_NAME, TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_TYPE \
         FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = 'ik' \
         ORDER BY TABLE_NAME, CONSTRAINT_NAME",
        "SELECT TABLE_NAME, PARTITION_NAME, PARTITION_METHOD, PARTITION_ORDINAL_POSITION \
         FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA = 'ik' ORDER BY TABLE_NAME",
        "SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS \
         WHERE CONSTRAINT_SCHEMA = 'ik'",
        "SELECT COUNT(*) FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'ik'",
        "SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'ik'",
        "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'ik'",
        "SELECT COUNT(*) FROM information_schema.EVENTS WHERE EVENT_SCHEMA = 'ik'",
        "SELECT CHARACTER_SET_NAME, DEFAULT_COLLATE_NAME, MAXLEN \
         FROM information_schema.CHARACTER_SETS \
         WHERE CHARACTER_SET_NAME IN ('utf8mb4', 'latin1', 'ascii', 'binary') \
         ORDER BY CHARACTER_SET_NAME",
        "SELECT COLLATION_NAME, CHARACTER_SET_NAME, ID, IS_DEFAULT \
         FROM information_schema.COLLATIONS \
         WHERE COLLATION_NAME IN ('utf8mb4_general_ci', 'utf8mb4_bin', 'latin1_bin', \
         'latin1_swedish_ci', 'ascii_general_ci', 'binary') ORDER BY ID",
        "SELECT COLLATION_NAME, CHARACTER_SET_NAME \
         FROM information_schema.COLLATION_CHARACTER_SET_APPLICABILITY \
         WHERE COLLATION_NAME IN ('utf8mb4_general_ci', 'latin1_bin') ORDER BY 1",
        "SELECT ENGINE, SUPPORT, TRANSACTIONS FROM information_schema.ENGINES \
         WHERE ENGINE = 'InnoDB'",
        "SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES \
         WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME IN \
         ('TABLES', 'COLUMNS', 'KEY_COLUMN_USAGE', 'VIEWS') ORDER BY TABLE_NAME",
    ];
    let mut q = quire.mysql_conn();
    let mut m = maria.mysql_conn();
    for s in setup {
        q.query_drop(s).unwrap();
        m.query_drop(s).unwrap();
    }
    for sql in queries {
        let rows = |c: &mut mysql::Conn| -> Vec<Vec<Option<String>>> {
            c.query::<mysql::Row, _>(sql)
                .unwrap_or_else(|e| panic!("{sql}: {e}"))
                .into_iter()
                .map(|r| {
                    (0..r.len())
                        .map(|i| r.get::<Option<String>, _>(i).unwrap())
                        .collect()
                })
                .collect()
        };
        let (got, want) = (rows(&mut q), rows(&mut m));
        assert!(!want.is_empty(), "{sql}: MariaDB returned nothing");
        assert_eq!(got, want, "{sql}");
    }
    if target() != Target::Quire {
        return;
    }
    // SHOW TABLES of the computed schemas (MariaDB's hold other tables).
    let names = |sql: &str, q: &mut mysql::Conn| -> Vec<(String, String)> {
        q.query::<(String, String), _>(sql).unwrap()
    };
    let is = names("SHOW FULL TABLES FROM information_schema", &mut q);
    for t in [
        "TABLES",
        "COLUMNS",
        "KEY_COLUMN_USAGE",
        "PROCESSLIST",
        "ENGINES",
    ] {
        assert!(
            is.contains(&(t.to_string(), "SYSTEM VIEW".to_string())),
            "{t} in {is:?}"
        );
    }
    let ps = names("SHOW FULL TABLES FROM performance_schema", &mut q);
    assert!(
        ps.iter()
            .any(|(n, _)| n == "events_statements_summary_by_digest")
    );
    // Every table SHOW TABLES lists can be read, and information_schema.TABLES agrees.
    for (db, list) in [("information_schema", &is), ("performance_schema", &ps)] {
        for (t, _) in list {
            q.query_drop(format!("SELECT * FROM {db}.{t} LIMIT 1"))
                .unwrap_or_else(|e| panic!("{db}.{t}: {e}"));
        }
        let n: u64 = q
            .query_first(format!(
                "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '{db}'"
            ))
            .unwrap()
            .unwrap();
        assert_eq!(n as usize, list.len(), "{db}");
    }
    let sys = names("SHOW FULL TABLES FROM sys", &mut q);
    assert!(sys.contains(&("statement_analysis".to_string(), "VIEW".to_string())));
    let mysql: Vec<String> = q.query("SHOW TABLES FROM mysql").unwrap();
    assert!(mysql.contains(&"slow_log".to_string()) && mysql.contains(&"general_log".to_string()));
}
