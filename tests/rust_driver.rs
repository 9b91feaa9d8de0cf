//! The Rust `mysql` crate against the server: the binary protocol (server-side prepared
//! statements: COM_STMT_PREPARE / EXECUTE / SEND_LONG_DATA / CLOSE), transactions,
//! error numbers, multiple result sets, a connection pool under parallel load, and that a
//! connection that goes away (closed or killed) has its transaction rolled back.

mod common;

use common::TestServer;
use mysql::prelude::Queryable;
use mysql::{Conn, Params, Pool, PoolConstraints, PoolOpts, TxOpts, Value, params};
use std::time::{Duration, Instant};

fn code(err: mysql::Error) -> u16 {
    match err {
        mysql::Error::MySqlError(e) => e.code,
        other => panic!("expected a server error, got {other:?}"),
    }
}

fn setup(server: &TestServer, db: &str) -> Conn {
    let mut admin = server.mysql_conn();
    admin
        .query_drop(format!("CREATE DATABASE {db}"))
        .expect("create db");
    server.mysql_conn_db(db)
}

#[test]
fn prepared_statements_all_types() {
    let server = TestServer::start();
    let mut conn = setup(&server, "ps");
    conn.query_drop(
        "CREATE TABLE t (
            id INT PRIMARY KEY, ti TINYINT, si SMALLINT, i INT, bi BIGINT, bu BIGINT UNSIGNED,
            f FLOAT, d DOUBLE, dec_ DECIMAL(20,4), s VARCHAR(50), b VARBINARY(50), bo BOOL,
            da DATE, dt DATETIME(6), tm TIME(6), nul INT)",
    )
    .expect("create");

    let insert = conn
        .prep("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .expect("prepare insert");
    assert_eq!(insert.num_params(), 16);
    assert_eq!(insert.num_columns(), 0);
    let row1: Vec<Value> = vec![
        Value::from(1_i32),
        Value::from(-128_i8),
        Value::from(32767_i16),
        Value::from(-2147483648_i64),
        Value::from(i64::MIN),
        Value::from(u64::MAX),
        Value::from(1.5_f32),
        Value::from(-2.25e300_f64),
        Value::from("12345678901234.5678"),
        Value::from("héllo ✓ 😀"),
        Value::from(vec![0_u8, 1, 2, 255, b'\'', b'\\']),
        Value::from(true),
        Value::Date(2024, 2, 29, 0, 0, 0, 0),
        Value::Date(1999, 12, 31, 23, 59, 59, 999_999),
        Value::Time(true, 1, 10, 20, 30, 123_456), // -34:20:30.123456
        Value::NULL,
    ];
    conn.exec_drop(&insert, Params::Positional(row1))
        .expect("exec row 1");
    // Re-executing the same statement with different values, including NULLs.
    let row2: Vec<Value> = vec![
        Value::from(2_i32),
        Value::from(127_i8),
        Value::NULL,
        Value::from(42_i64),
        Value::from(0_i64),
        Value::from(0_u64),
        Value::NULL,
        Value::from(0.5_f64),
        Value::NULL,
        Value::from(""),
        Value::from(Vec::<u8>::new()),
        Value::from(false),
        Value::NULL,
        Value::NULL,
        Value::Time(false, 0, 0, 0, 0, 0),
        Value::from(None::<i64>),
    ];
    conn.exec_drop(&insert, Params::Positional(row2))
        .expect("exec row 2");
    conn.exec_batch(
        &insert,
        (3..=10).map(|i| {
            let mut v = vec![Value::from(i); 1];
            v.extend(std::iter::repeat_n(Value::NULL, 15));
            Params::Positional(v)
        }),
    )
    .expect("exec_batch");

    // Read back through the binary protocol (typed values).
    let row: mysql::Row = conn
        .exec_first("SELECT * FROM t WHERE id = ?", (1,))
        .expect("select")
        .expect("row 1");
    assert_eq!(row.get::<i32, _>("id"), Some(1));
    assert_eq!(row.get::<i8, _>("ti"), Some(-128));
    assert_eq!(row.get::<i16, _>("si"), Some(32767));
    assert_eq!(row.get::<i32, _>("i"), Some(-2147483648));
    assert_eq!(row.get::<i64, _>("bi"), Some(i64::MIN));
    assert_eq!(row.get::<u64, _>("bu"), Some(u64::MAX));
    assert_eq!(row.get::<f32, _>("f"), Some(1.5));
    assert_eq!(row.get::<f64, _>("d"), Some(-2.25e300));
    assert_eq!(
        row.get::<String, _>("dec_").as_deref(),
        Some("12345678901234.5678")
    );
    assert_eq!(row.get::<String, _>("s").as_deref(), Some("héllo ✓ 😀"));
    assert_eq!(
        row.get::<Vec<u8>, _>("b"),
        Some(vec![0, 1, 2, 255, b'\'', b'\\'])
    );
    assert_eq!(row.get::<bool, _>("bo"), Some(true));
    assert_eq!(row.as_ref(12), Some(&Value::Date(2024, 2, 29, 0, 0, 0, 0)));
    assert_eq!(
        row.as_ref(13),
        Some(&Value::Date(1999, 12, 31, 23, 59, 59, 999_999))
    );
    assert_eq!(
        row.as_ref(14),
        Some(&Value::Time(true, 1, 10, 20, 30, 123_456))
    );
    assert_eq!(row.as_ref(15), Some(&Value::NULL));

    let row: mysql::Row = conn
        .exec_first("SELECT * FROM t WHERE id = ?", (2,))
        .expect("select")
        .expect("row 2");
    for (i, col) in [
        (2, "si"),
        (6, "f"),
        (8, "dec_"),
        (12, "da"),
        (13, "dt"),
        (15, "nul"),
    ] {
        assert_eq!(row.as_ref(i), Some(&Value::NULL), "column {col} of row 2");
    }
    assert_eq!(row.get::<String, _>("s").as_deref(), Some(""));
    assert_eq!(row.get::<bool, _>("bo"), Some(false));
    assert_eq!(row.as_ref(14), Some(&Value::Time(false, 0, 0, 0, 0, 0)));

    // Parameters in WHERE, LIMIT, expressions; a statement reused with new parameters.
    let sel = conn
        .prep("SELECT id FROM t WHERE id BETWEEN ? AND ? AND (? IS NULL OR i = ?) ORDER BY id LIMIT ?")
        .expect("prepare select");
    assert_eq!(sel.num_params(), 5);
    assert_eq!(
        sel.columns()
            .iter()
            .map(|c| c.name_str().into_owned())
            .collect::<Vec<_>>(),
        ["id"]
    );
    let ids: Vec<i32> = conn
        .exec(&sel, (1, 10, None::<i32>, None::<i32>, 100))
        .expect("exec");
    assert_eq!(ids, (1..=10).collect::<Vec<_>>());
    let ids: Vec<i32> = conn
        .exec(&sel, (2, 9, None::<i32>, None::<i32>, 3))
        .expect("exec");
    assert_eq!(ids, vec![2, 3, 4]);
    let ids: Vec<i32> = conn.exec(&sel, (1, 10, 42, 42, 10)).expect("exec");
    assert_eq!(ids, vec![2]);
    let (a, b, c): (i64, String, Option<i64>) = conn
        .exec_first("SELECT ? + 1, CONCAT(?, '!'), ?", (41, "hi", None::<i64>))
        .expect("exec")
        .expect("row");
    assert_eq!((a, b.as_str(), c), (42, "hi!", None));

    // Named parameters are a client-side convenience mapped to `?`.
    let n: Option<i64> = conn
        .exec_first(
            "SELECT COUNT(*) FROM t WHERE id > :lo AND id < :hi",
            params! { "lo" => 1, "hi" => 5 },
        )
        .expect("named");
    assert_eq!(n, Some(3));

    // UPDATE/DELETE through prepared statements report affected rows.
    conn.exec_drop("UPDATE t SET s = ? WHERE id >= ?", ("x", 5))
        .expect("update");
    assert_eq!(conn.affected_rows(), 6);
    conn.exec_drop("DELETE FROM t WHERE id > ?", (8,))
        .expect("delete");
    assert_eq!(conn.affected_rows(), 2);

    // A closed statement id is unknown to the server (1243).
    let stmt = conn.prep("SELECT ?").expect("prepare");
    conn.close(stmt.clone()).expect("close stmt");
    let err = conn
        .exec_drop(&stmt, (1,))
        .expect_err("executing a closed statement");
    assert_eq!(code(err), 1243);

    // Errors at prepare time and at execute time.
    assert_eq!(code(conn.prep("SELEC ?").expect_err("syntax")), 1064);
    assert_eq!(
        code(
            conn.prep("SELECT * FROM nope WHERE a = ?")
                .expect_err("table")
        ),
        1146
    );
    let mut dup = vec![Value::NULL; 16];
    dup[0] = Value::from(1);
    assert_eq!(code(conn.exec_drop(&insert, dup).expect_err("dup")), 1062);
    let r: Option<i64> = conn.exec_first("SELECT ?", (7,)).expect("still usable");
    assert_eq!(r, Some(7));
}

#[test]
fn long_data_blob() {
    let server = TestServer::start();
    let mut conn = setup(&server, "longdata");
    conn.query_drop("CREATE TABLE b (id INT PRIMARY KEY, data LONGBLOB, note VARCHAR(10))")
        .expect("create");
    // Over 16 MiB in one execute: the driver sends it with COM_STMT_SEND_LONG_DATA chunks.
    let len: usize = 17 * 1024 * 1024 + 123;
    let data: Vec<u8> = (0..len)
        .map(|i| (i.wrapping_mul(2654435761_usize) >> 13) as u8)
        .collect();
    conn.exec_drop("INSERT INTO b VALUES (?, ?, ?)", (1, data.clone(), "big"))
        .expect("insert long data");
    let (n, same): (u64, i64) = conn
        .exec_first(
            "SELECT LENGTH(data), data = ? FROM b WHERE id = ?",
            (data.clone(), 1),
        )
        .expect("compare")
        .expect("row");
    assert_eq!((n as usize, same), (len, 1));
    let back: Vec<u8> = conn
        .exec_first("SELECT data FROM b WHERE id = ?", (1,))
        .expect("select")
        .expect("row");
    assert!(back == data, "blob differs after the round trip");
    // A small execute on the same connection afterwards.
    conn.exec_drop(
        "INSERT INTO b VALUES (?, ?, ?)",
        (2, vec![1_u8, 2, 3], "small"),
    )
    .expect("small insert");
    let notes: Vec<String> = conn.query("SELECT note FROM b ORDER BY id").expect("notes");
    assert_eq!(notes, ["big", "small"]);
}

#[test]
fn transactions() {
    let server = TestServer::start();
    let mut conn = setup(&server, "tx");
    let mut other = server.mysql_conn_db("tx");
    conn.query_drop("CREATE TABLE a (id INT PRIMARY KEY, v INT)")
        .expect("create");
    conn.query_drop("INSERT INTO a VALUES (1, 0)")
        .expect("insert");

    let mut tx = conn.start_transaction(TxOpts::default()).expect("begin");
    tx.exec_drop("UPDATE a SET v = ? WHERE id = ?", (10, 1))
        .expect("update");
    tx.exec_drop("INSERT INTO a VALUES (?, ?)", (2, 20))
        .expect("insert");
    let seen: Vec<(i32, i32)> = tx.query("SELECT id, v FROM a ORDER BY id").expect("select");
    assert_eq!(seen, vec![(1, 10), (2, 20)]);
    let outside: Vec<(i32, i32)> = other
        .query("SELECT id, v FROM a ORDER BY id")
        .expect("select");
    assert_eq!(outside, vec![(1, 0)], "uncommitted changes leak");
    tx.commit().expect("commit");
    let outside: Vec<(i32, i32)> = other
        .query("SELECT id, v FROM a ORDER BY id")
        .expect("select");
    assert_eq!(outside, vec![(1, 10), (2, 20)]);

    let mut tx = conn.start_transaction(TxOpts::default()).expect("begin");
    tx.query_drop("DELETE FROM a").expect("delete");
    tx.rollback().expect("rollback");
    let n: Option<i64> = conn.query_first("SELECT COUNT(*) FROM a").expect("count");
    assert_eq!(n, Some(2));

    // Dropping a Transaction without commit rolls back.
    {
        let mut tx = conn.start_transaction(TxOpts::default()).expect("begin");
        tx.query_drop("UPDATE a SET v = -1").expect("update");
    }
    let vs: Vec<i32> = conn.query("SELECT v FROM a ORDER BY id").expect("select");
    assert_eq!(vs, vec![10, 20]);

    // Read-only transactions refuse writes.
    let mut tx = conn
        .start_transaction(TxOpts::default().set_access_mode(Some(mysql::AccessMode::ReadOnly)))
        .expect("begin ro");
    assert_eq!(
        code(
            tx.query_drop("UPDATE a SET v = 0")
                .expect_err("write in RO")
        ),
        1792
    );
    tx.rollback().expect("rollback");

    // Isolation level per transaction: READ COMMITTED sees other commits at once.
    let mut tx = conn
        .start_transaction(
            TxOpts::default().set_isolation_level(Some(mysql::IsolationLevel::ReadCommitted)),
        )
        .expect("begin rc");
    let before: Option<i64> = tx.query_first("SELECT COUNT(*) FROM a").expect("count");
    other
        .query_drop("INSERT INTO a VALUES (3, 30)")
        .expect("insert");
    let after: Option<i64> = tx.query_first("SELECT COUNT(*) FROM a").expect("count");
    assert_eq!((before, after), (Some(2), Some(3)));
    tx.commit().expect("commit");
    // ... and REPEATABLE READ (the default) does not.
    let mut tx = conn.start_transaction(TxOpts::default()).expect("begin rr");
    let before: Option<i64> = tx.query_first("SELECT COUNT(*) FROM a").expect("count");
    other
        .query_drop("INSERT INTO a VALUES (4, 40)")
        .expect("insert");
    let after: Option<i64> = tx.query_first("SELECT COUNT(*) FROM a").expect("count");
    assert_eq!((before, after), (Some(3), Some(3)));
    tx.commit().expect("commit");

    // Error numbers through the driver.
    assert_eq!(
        code(
            conn.query_drop("INSERT INTO a VALUES (1, 1)")
                .expect_err("dup")
        ),
        1062
    );
    assert_eq!(code(conn.query_drop("SELEC 1").expect_err("syntax")), 1064);
    assert_eq!(
        code(conn.query_drop("SELECT * FROM nope").expect_err("table")),
        1146
    );
    assert_eq!(
        code(conn.query_drop("SELECT nope FROM a").expect_err("column")),
        1054
    );
    assert_eq!(
        code(
            conn.query_drop("INSERT INTO a VALUES (9)")
                .expect_err("count")
        ),
        1136
    );
    assert_eq!(
        code(
            conn.query_drop("INSERT INTO a (v) VALUES (1)")
                .expect_err("no default")
        ),
        1364
    );
}

#[test]
fn multiple_result_sets() {
    let server = TestServer::start();
    let mut conn = setup(&server, "multi");
    conn.query_drop("CREATE TABLE m (id INT PRIMARY KEY, v VARCHAR(5))")
        .expect("create");
    let mut result = conn
        .query_iter(
            "SELECT 1 AS a; INSERT INTO m VALUES (1, 'x'), (2, 'y'); SELECT id, v FROM m ORDER BY id; \
             UPDATE m SET v = 'z'; SELECT 'done' AS d",
        )
        .expect("multi-statement");
    let mut sets = Vec::new();
    while let Some(set) = result.iter() {
        let columns: Vec<String> = set
            .columns()
            .as_ref()
            .iter()
            .map(|c| c.name_str().into_owned())
            .collect();
        let affected = set.affected_rows();
        let rows: Vec<Vec<Value>> = set.map(|r| r.expect("row").unwrap()).collect();
        sets.push((columns, rows, affected));
    }
    drop(result);
    assert_eq!(sets.len(), 5, "{sets:?}");
    assert_eq!(sets[0].0, ["a"]);
    assert_eq!(sets[0].1, vec![vec![Value::Bytes(b"1".to_vec())]]);
    assert!(sets[1].0.is_empty());
    assert_eq!(sets[1].2, 2);
    assert_eq!(sets[2].0, ["id", "v"]);
    assert_eq!(sets[2].1.len(), 2);
    assert_eq!(sets[3].2, 2);
    assert_eq!(sets[4].1, vec![vec![Value::Bytes(b"done".to_vec())]]);

    // An error in the middle stops the batch; the connection stays usable.
    let mut result = conn
        .query_iter("SELECT 1; SELECT * FROM nope; SELECT 3")
        .expect("first statement fine");
    let first: Vec<mysql::Row> = result
        .iter()
        .expect("set 1")
        .map(|r| r.expect("row"))
        .collect();
    assert_eq!(first.len(), 1);
    let err = result
        .iter()
        .expect("set 2")
        .next()
        .expect("an error")
        .expect_err("no such table");
    assert_eq!(code(err), 1146);
    assert!(
        result.iter().is_none(),
        "statements after an error must not run"
    );
    drop(result);
    let v: Option<String> = conn
        .query_first("SELECT v FROM m WHERE id = 1")
        .expect("usable");
    assert_eq!(v.as_deref(), Some("z"));
}

#[test]
fn pool_parallel_inserts() {
    let server = TestServer::start();
    let mut conn = setup(&server, "pool");
    conn.query_drop("CREATE TABLE p (id INT PRIMARY KEY AUTO_INCREMENT, worker INT, n INT, KEY k_worker (worker))")
        .expect("create");
    let constraints = PoolConstraints::new(2, 8).expect("constraints");
    let opts = mysql::Opts::from(
        server
            .opts()
            .db_name(Some("pool"))
            .pool_opts(PoolOpts::default().with_constraints(constraints)),
    );
    let pool = Pool::new(opts).expect("pool");
    let workers = 16;
    let per_worker = 200;
    let handles: Vec<_> = (0..workers)
        .map(|w| {
            let pool = pool.clone();
            std::thread::spawn(move || {
                for n in 0..per_worker {
                    let mut c = pool.get_conn().expect("pooled conn");
                    if n % 10 == 0 {
                        // Every tenth insert in an explicit transaction, every 20th rolled back.
                        let mut tx = c.start_transaction(TxOpts::default()).expect("begin");
                        tx.exec_drop("INSERT INTO p (worker, n) VALUES (?, ?)", (w, n))
                            .expect("insert");
                        if n % 20 == 0 {
                            tx.rollback().expect("rollback");
                        } else {
                            tx.commit().expect("commit");
                        }
                    } else {
                        c.exec_drop("INSERT INTO p (worker, n) VALUES (?, ?)", (w, n))
                            .expect("insert");
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("worker panicked");
    }
    let rolled_back_per_worker = (0..per_worker).filter(|n| n % 20 == 0).count() as i64;
    let expected = (workers * per_worker) as i64 - workers as i64 * rolled_back_per_worker;
    let (count, distinct_ids, max_per_worker): (i64, i64, i64) = conn
        .query_first(
            "SELECT COUNT(*), COUNT(DISTINCT id), (SELECT MAX(c) FROM (SELECT COUNT(*) AS c FROM p GROUP BY worker) AS x) FROM p",
        )
        .expect("count")
        .expect("row");
    assert_eq!(count, expected);
    assert_eq!(distinct_ids, expected);
    assert_eq!(max_per_worker, per_worker as i64 - rolled_back_per_worker);
    let (n_workers,): (i64,) = conn
        .query_first("SELECT COUNT(DISTINCT worker) FROM p")
        .expect("workers")
        .expect("row");
    assert_eq!(n_workers, workers as i64);
}

/// The ids in SHOW PROCESSLIST; `None` if it failed or listed nobody (it lists the asker).
fn processlist_ids(admin: &mut Conn) -> Option<Vec<u64>> {
    let rows: Vec<mysql::Row> = admin.query("SHOW PROCESSLIST").ok()?;
    let ids: Vec<u64> = rows.iter().filter_map(|r| r.get::<u64, _>(0)).collect();
    (!ids.is_empty()).then_some(ids)
}

/// Polls until `f` succeeds or `timeout` passes.
fn eventually<T>(what: &str, timeout: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn lost_connection_rolls_back() {
    let mut server = TestServer::start();
    let mut admin = setup(&server, "lost");
    admin
        .query_drop("CREATE TABLE r (id INT PRIMARY KEY, v INT)")
        .expect("create");
    admin
        .query_drop("INSERT INTO r VALUES (1, 0), (2, 0)")
        .expect("insert");
    admin
        .query_drop("SET SESSION innodb_lock_wait_timeout = 10")
        .expect("lwt");

    // 1. A connection closed (COM_QUIT) with an open transaction.
    let mut c = server.mysql_conn_db("lost");
    c.query_drop("BEGIN").expect("begin");
    c.query_drop("UPDATE r SET v = 100 WHERE id = 1")
        .expect("update");
    c.query_drop("INSERT INTO r VALUES (3, 3)").expect("insert");
    drop(c);
    // The row lock is released: this must not wait for a lock timeout.
    let started = Instant::now();
    admin
        .query_drop("UPDATE r SET v = v + 1 WHERE id = 1")
        .expect("update after close");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "lock held after the connection closed"
    );
    let rows: Vec<(i32, i32)> = admin
        .query("SELECT id, v FROM r ORDER BY id")
        .expect("select");
    assert_eq!(
        rows,
        vec![(1, 1), (2, 0)],
        "the closed connection's transaction was not rolled back"
    );

    // 2. A connection killed by another (KILL <id>) while holding a lock.
    let mut victim = server.mysql_conn_db("lost");
    let victim_id = victim.connection_id();
    victim.query_drop("BEGIN").expect("begin");
    victim
        .query_drop("UPDATE r SET v = 200 WHERE id = 2")
        .expect("update");
    admin.query_drop(format!("KILL {victim_id}")).expect("kill");
    let started = Instant::now();
    admin
        .query_drop("UPDATE r SET v = v + 1 WHERE id = 2")
        .expect("update after kill");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "lock held after KILL"
    );
    let rows: Vec<(i32, i32)> = admin
        .query("SELECT id, v FROM r ORDER BY id")
        .expect("select");
    assert_eq!(
        rows,
        vec![(1, 1), (2, 1)],
        "the killed connection's transaction was not rolled back"
    );
    // The killed connection's next statement fails (the server closed it).
    assert!(
        victim.query_drop("SELECT 1").is_err(),
        "killed connection still works"
    );
    drop(victim);
    // Its id is gone from the process list.
    eventually(
        "the killed connection to disappear",
        Duration::from_secs(10),
        || (!processlist_ids(&mut admin)?.contains(&u64::from(victim_id))).then_some(()),
    );

    // 3. KILL QUERY stops a statement blocked on a lock but keeps the connection.
    let mut holder = server.mysql_conn_db("lost");
    holder.query_drop("BEGIN").expect("begin");
    holder
        .query_drop("SELECT v FROM r WHERE id = 1 FOR UPDATE")
        .expect("lock");
    let mut waiter = server.mysql_conn_db("lost");
    let waiter_id = waiter.connection_id();
    let blocked = std::thread::spawn(move || {
        let r = waiter.query_drop("UPDATE r SET v = 999 WHERE id = 1");
        (waiter, r)
    });
    std::thread::sleep(Duration::from_millis(300));
    admin
        .query_drop(format!("KILL QUERY {waiter_id}"))
        .expect("kill query");
    let (mut waiter, r) = blocked.join().expect("waiter thread");
    assert_eq!(
        code(r.expect_err("killed query")),
        1317,
        "KILL QUERY -> ER_QUERY_INTERRUPTED"
    );
    let one: Option<i64> = waiter
        .query_first("SELECT 1")
        .expect("connection survives KILL QUERY");
    assert_eq!(one, Some(1));
    holder.query_drop("COMMIT").expect("commit");
    let v: Option<i32> = admin
        .query_first("SELECT v FROM r WHERE id = 1")
        .expect("select");
    assert_eq!(v, Some(1));
    server.assert_alive("after kills");
}

/// A connection's thread waits for the next command in recv(2) itself: an idle connection
/// must still be ended by the `wait_timeout` reaper and by KILL, both after a plain
/// statement and after a durable commit (whose OK the journal writer sends, while the
/// session waits in poll(2) on its socket and its eventfd).
#[test]
fn idle_connections_end_on_wait_timeout_and_kill() {
    let mut server = TestServer::start();
    let mut admin = setup(&server, "idle");
    admin
        .query_drop("CREATE TABLE t (id INT PRIMARY KEY, v INT)")
        .expect("create");
    let listed = |admin: &mut Conn, id: u32| Some(processlist_ids(admin)?.contains(&u64::from(id)));
    for last in ["SELECT 1", "INSERT INTO t VALUES (1, 1)", "COMMIT"] {
        for ending in ["wait_timeout", "KILL"] {
            let mut c = server.mysql_conn_db("idle");
            let id = c.connection_id();
            if ending == "wait_timeout" {
                c.query_drop("SET SESSION wait_timeout = 1")
                    .expect("wait_timeout");
            }
            if last == "COMMIT" {
                c.query_drop("BEGIN").expect("begin");
                c.query_drop("UPDATE t SET v = v + 1").expect("update");
            }
            let last = match ending {
                "KILL" => last.replace("(1, 1)", "(2, 2)"),
                _ => last.to_string(),
            };
            c.query_drop(&last).expect(&last);
            assert_eq!(
                listed(&mut admin, id),
                Some(true),
                "{last}: listed while idle"
            );
            if ending == "KILL" {
                admin.query_drop(format!("KILL {id}")).expect("kill");
            }
            eventually(
                &format!("{last}: the connection to be closed by {ending}"),
                Duration::from_secs(10),
                || (!listed(&mut admin, id)?).then_some(()),
            );
            assert!(
                c.query_drop("SELECT 1").is_err(),
                "{last}: still works after {ending}"
            );
        }
    }
    let rows: Vec<(i32, i32)> = admin
        .query("SELECT id, v FROM t ORDER BY id")
        .expect("select");
    assert_eq!(
        rows,
        vec![(1, 3), (2, 4)],
        "the acknowledged commits are kept"
    );
    server.assert_alive("after idle connections ended");
}

fn status(conn: &mut Conn, name: &str) -> u64 {
    let row: Option<(String, String)> = conn
        .query_first(format!("SHOW GLOBAL STATUS LIKE '{name}'"))
        .expect("show status");
    row.and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(|| panic!("no status variable {name}"))
}

/// A thread per connection: Threads_running counts statements in progress, a finished
/// connection's thread waits in the cache (Threads_cached) and the next connection reuses it
/// instead of starting one (Threads_created does not grow).
#[test]
fn connection_threads_are_counted_and_cached() {
    let server = TestServer::start();
    let mut admin = server.mysql_conn();
    let thread_handling: Option<String> = admin
        .query_first("SELECT @@thread_handling")
        .expect("thread_handling");
    assert_eq!(
        thread_handling.as_deref(),
        Some("one-thread-per-connection")
    );
    assert_eq!(
        status(&mut admin, "Threads_running"),
        1,
        "only SHOW STATUS runs"
    );

    let sleeper = {
        let mut c = server.mysql_conn();
        std::thread::spawn(move || {
            let r: Option<i64> = c.query_first("SELECT SLEEP(2)").expect("sleep");
            r
        })
    };
    eventually("the sleeping statement", Duration::from_secs(5), || {
        (status(&mut admin, "Threads_running") == 2).then_some(())
    });
    assert_eq!(sleeper.join().expect("sleeper"), Some(0));

    // The sleeper's connection is closed: its thread waits for the next one.
    eventually("a cached thread", Duration::from_secs(5), || {
        (status(&mut admin, "Threads_cached") == 1).then_some(())
    });
    let created = status(&mut admin, "Threads_created");
    let mut c = server.mysql_conn();
    let one: Option<i64> = c.query_first("SELECT 1").expect("select");
    assert_eq!(one, Some(1));
    assert_eq!(
        status(&mut admin, "Threads_created"),
        created,
        "the cached thread was reused"
    );
    assert_eq!(status(&mut admin, "Threads_cached"), 0);
}
