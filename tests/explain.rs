//! EXPLAIN: MySQL's tabular format and FORMAT=TREE, and index use for every statement of
//! the TPC-C transactions (bench/tpcc sends these; only the INSERTs read no index).

mod common;

use common::*;
use mysql::prelude::*;

fn quire_only() -> bool {
    if target() != Target::Quire {
        eprintln!("EXPLAIN tests are Quire-only (its plans are its own): not run");
        return false;
    }
    true
}

const SCHEMA: &[&str] = &[
    "CREATE TABLE warehouse (w_id SMALLINT NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20),
      w_street_2 VARCHAR(20), w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9),
      w_tax DECIMAL(4,4), w_ytd DECIMAL(12,2), PRIMARY KEY (w_id))",
    "CREATE TABLE district (d_id TINYINT NOT NULL, d_w_id SMALLINT NOT NULL, d_name VARCHAR(10),
      d_street_1 VARCHAR(20), d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2),
      d_zip CHAR(9), d_tax DECIMAL(4,4), d_ytd DECIMAL(12,2), d_next_o_id INT,
      PRIMARY KEY (d_w_id, d_id))",
    "CREATE TABLE customer (c_id INT NOT NULL, c_d_id TINYINT NOT NULL, c_w_id SMALLINT NOT NULL,
      c_first VARCHAR(16), c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20),
      c_street_2 VARCHAR(20), c_city VARCHAR(20), c_state CHAR(2), c_zip CHAR(9),
      c_phone CHAR(16), c_since DATETIME, c_credit CHAR(2), c_credit_lim DECIMAL(12,2),
      c_discount DECIMAL(4,4), c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2),
      c_payment_cnt SMALLINT, c_delivery_cnt SMALLINT, c_data TEXT,
      PRIMARY KEY (c_w_id, c_d_id, c_id), KEY idx_customer (c_w_id, c_d_id, c_last, c_first))",
    "CREATE TABLE history (h_c_id INT, h_c_d_id TINYINT, h_c_w_id SMALLINT, h_d_id TINYINT,
      h_w_id SMALLINT, h_date DATETIME, h_amount DECIMAL(6,2), h_data VARCHAR(24))",
    "CREATE TABLE new_orders (no_o_id INT NOT NULL, no_d_id TINYINT NOT NULL,
      no_w_id SMALLINT NOT NULL, PRIMARY KEY (no_w_id, no_d_id, no_o_id))",
    "CREATE TABLE orders (o_id INT NOT NULL, o_d_id TINYINT NOT NULL, o_w_id SMALLINT NOT NULL,
      o_c_id INT, o_entry_d DATETIME, o_carrier_id TINYINT, o_ol_cnt TINYINT,
      o_all_local TINYINT, PRIMARY KEY (o_w_id, o_d_id, o_id),
      KEY idx_orders (o_w_id, o_d_id, o_c_id, o_id))",
    "CREATE TABLE order_line (ol_o_id INT NOT NULL, ol_d_id TINYINT NOT NULL,
      ol_w_id SMALLINT NOT NULL, ol_number TINYINT NOT NULL, ol_i_id INT,
      ol_supply_w_id SMALLINT, ol_delivery_d DATETIME, ol_quantity TINYINT,
      ol_amount DECIMAL(6,2), ol_dist_info CHAR(24),
      PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))",
    "CREATE TABLE item (i_id INT NOT NULL, i_im_id INT, i_name VARCHAR(24),
      i_price DECIMAL(5,2), i_data VARCHAR(50), PRIMARY KEY (i_id))",
    "CREATE TABLE stock (s_i_id INT NOT NULL, s_w_id SMALLINT NOT NULL, s_quantity SMALLINT,
      s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24),
      s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24),
      s_dist_09 CHAR(24), s_dist_10 CHAR(24), s_ytd DECIMAL(8,0), s_order_cnt SMALLINT,
      s_remote_cnt SMALLINT, s_data VARCHAR(50), PRIMARY KEY (s_w_id, s_i_id))",
];

/// The statements of the five transactions (bench/tpcc/stmts.go) with literal values.
const TPCC: &[&str] = &[
    "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 2 AND c_w_id = w_id AND c_d_id = 3 AND c_id = 17",
    "SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = 2 AND d_id = 3 FOR UPDATE",
    "UPDATE district SET d_next_o_id = 31 WHERE d_w_id = 2 AND d_id = 3",
    "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (31, 3, 2, 17, NOW(), 5, 1)",
    "INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (31, 3, 2)",
    "SELECT i_price, i_name, i_data FROM item WHERE i_id = 77",
    "SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = 77 AND s_w_id = 2 FOR UPDATE",
    "UPDATE stock SET s_quantity = 40, s_ytd = s_ytd + 5, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + 0 WHERE s_i_id = 77 AND s_w_id = 2",
    "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (31, 3, 2, 1, 77, 2, 5, 12.50, 'x')",
    "UPDATE warehouse SET w_ytd = w_ytd + 10.00 WHERE w_id = 2",
    "SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = 2",
    "UPDATE district SET d_ytd = d_ytd + 10.00 WHERE d_w_id = 2 AND d_id = 3",
    "SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = 2 AND d_id = 3",
    "SELECT c_id FROM customer WHERE c_w_id = 2 AND c_d_id = 3 AND c_last = 'LAST4' ORDER BY c_first",
    "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer WHERE c_w_id = 2 AND c_d_id = 3 AND c_id = 17 FOR UPDATE",
    "SELECT c_data FROM customer WHERE c_w_id = 2 AND c_d_id = 3 AND c_id = 17",
    "UPDATE customer SET c_balance = c_balance - 10.00, c_ytd_payment = c_ytd_payment + 10.00, c_payment_cnt = c_payment_cnt + 1, c_data = 'd' WHERE c_w_id = 2 AND c_d_id = 3 AND c_id = 17",
    "UPDATE customer SET c_balance = c_balance - 10.00, c_ytd_payment = c_ytd_payment + 10.00, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = 2 AND c_d_id = 3 AND c_id = 17",
    "INSERT INTO history (h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (3, 2, 17, 3, 2, NOW(), 10.00, 'h')",
    "SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = 2 AND c_d_id = 3 AND c_last = 'LAST4' ORDER BY c_first",
    "SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = 2 AND c_d_id = 3 AND c_id = 17",
    "SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = 2 AND o_d_id = 3 AND o_c_id = 17 ORDER BY o_id DESC LIMIT 1",
    "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = 2 AND ol_d_id = 3 AND ol_o_id = 12",
    "SELECT no_o_id FROM new_orders WHERE no_w_id = 2 AND no_d_id = 3 ORDER BY no_o_id LIMIT 1 FOR UPDATE",
    "DELETE FROM new_orders WHERE no_w_id = 2 AND no_d_id = 3 AND no_o_id = 21",
    "SELECT o_c_id FROM orders WHERE o_w_id = 2 AND o_d_id = 3 AND o_id = 21",
    "UPDATE orders SET o_carrier_id = 4 WHERE o_w_id = 2 AND o_d_id = 3 AND o_id = 21",
    "UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_w_id = 2 AND ol_d_id = 3 AND ol_o_id = 21",
    "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = 2 AND ol_d_id = 3 AND ol_o_id = 21",
    "UPDATE customer SET c_balance = c_balance + 10.00, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = 2 AND c_d_id = 3 AND c_id = 17",
    "SELECT d_next_o_id FROM district WHERE d_w_id = 2 AND d_id = 3",
    "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = 2 AND ol_d_id = 3 AND ol_o_id < 31 AND ol_o_id >= 11 AND s_w_id = 2 AND s_i_id = ol_i_id AND s_quantity < 15",
];

/// A small TPC-C database: 3 warehouses, 10 districts each, 60 customers per district (20
/// last names), 200 items and stock rows, 30 orders per district of 5 lines, the last 9
/// undelivered. Enough rows that a scan is never the cheap way to a row.
fn load(c: &mut mysql::Conn) {
    c.query_drop("CREATE DATABASE tpcc").unwrap();
    c.query_drop("USE tpcc").unwrap();
    for s in SCHEMA {
        c.query_drop(s).unwrap();
    }
    let batch = |c: &mut mysql::Conn, head: &str, rows: Vec<String>| {
        for chunk in rows.chunks(500) {
            c.query_drop(format!("{head} VALUES {}", chunk.join(",")))
                .unwrap_or_else(|e| panic!("{head}: {e}"));
        }
    };
    let (mut wh, mut di, mut cu, mut st, mut or, mut no, mut ol) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    let items = (1..=200)
        .map(|i| format!("({i}, {i}, 'item{i}', 9.99, 'data')"))
        .collect();
    batch(c, "INSERT INTO item", items);
    for w in 1..=3 {
        wh.push(format!(
            "({w}, 'w', 's1', 's2', 'c', 'st', '123456789', 0.1, 300000)"
        ));
        for i in 1..=200 {
            st.push(format!(
                "({i}, {w}, {}, 'a','a','a','a','a','a','a','a','a','a', 0, 0, 0, 'data')",
                10 + i % 90
            ));
        }
        for d in 1..=10 {
            di.push(format!(
                "({d}, {w}, 'd', 's1', 's2', 'c', 'st', '123456789', 0.1, 30000, 31)"
            ));
            for cid in 1..=60 {
                cu.push(format!(
                    "({cid}, {d}, {w}, 'F{cid}', 'OE', 'LAST{}', 's1', 's2', 'c', 'st', '1', '1', NOW(), 'GC', 50000, 0.1, -10, 10, 1, 0, 'data')",
                    cid % 20
                ));
            }
            for o in 1..=30 {
                let carrier = if o > 21 {
                    "NULL".to_string()
                } else {
                    "1".into()
                };
                or.push(format!(
                    "({o}, {d}, {w}, {}, NOW(), {carrier}, 5, 1)",
                    o * 2 % 60 + 1
                ));
                if o > 21 {
                    no.push(format!("({o}, {d}, {w})"));
                }
                for n in 1..=5 {
                    ol.push(format!(
                        "({o}, {d}, {w}, {n}, {}, {w}, NULL, 5, 1.00, 'info')",
                        (o * 7 + n) % 200 + 1
                    ));
                }
            }
        }
    }
    batch(c, "INSERT INTO warehouse", wh);
    batch(c, "INSERT INTO district", di);
    batch(c, "INSERT INTO customer", cu);
    batch(c, "INSERT INTO stock", st);
    batch(c, "INSERT INTO orders", or);
    batch(c, "INSERT INTO new_orders", no);
    batch(c, "INSERT INTO order_line", ol);
}

type ExplainRow = (
    Option<u64>,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<u64>,
    Option<String>,
    Option<String>,
);

fn explain(c: &mut mysql::Conn, sql: &str) -> Vec<ExplainRow> {
    let rows: Vec<mysql::Row> = c
        .query(format!("EXPLAIN {sql}"))
        .unwrap_or_else(|e| panic!("EXPLAIN {sql}: {e}"));
    rows.into_iter()
        .map(|r| {
            let cols: Vec<String> = r
                .columns_ref()
                .iter()
                .map(|c| c.name_str().into())
                .collect();
            assert_eq!(
                cols,
                [
                    "id",
                    "select_type",
                    "table",
                    "partitions",
                    "type",
                    "possible_keys",
                    "key",
                    "key_len",
                    "ref",
                    "rows",
                    "filtered",
                    "Extra"
                ]
            );
            mysql::from_row(r)
        })
        .collect()
}

/// Every TPC-C statement but the INSERTs reads through an index (const, eq_ref, ref or
/// range; never a table scan), and the two joins are ordered so that the second table is
/// reached by key from the first.
#[test]
fn every_tpcc_statement_uses_an_index() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start();
    let mut c = server.mysql_conn();
    load(&mut c);
    for sql in TPCC {
        let rows = explain(&mut c, sql);
        assert!(!rows.is_empty(), "{sql}");
        for r in &rows {
            if r.1 == "INSERT" {
                continue;
            }
            let (typ, key) = (r.4.as_deref(), r.6.as_deref());
            assert!(
                matches!(typ, Some("const" | "eq_ref" | "ref" | "range")) && key.is_some(),
                "{sql}: {r:?}"
            );
        }
    }
    // New-Order's join reads warehouse by constant, then customer by key with its w_id.
    let r = explain(&mut c, TPCC[0]);
    assert_eq!(r[0].2.as_deref(), Some("warehouse"), "{r:?}");
    assert_eq!(r[0].4.as_deref(), Some("const"));
    assert_eq!(r[1].2.as_deref(), Some("customer"));
    assert_eq!(r[1].4.as_deref(), Some("eq_ref"));
    assert_eq!(r[1].6.as_deref(), Some("PRIMARY"));
    assert_eq!(r[1].8.as_deref(), Some("tpcc.warehouse.w_id,const,const"));
    // By last name: the secondary index, in c_first order (no sort).
    let r = explain(&mut c, TPCC[13]);
    assert_eq!(r[0].6.as_deref(), Some("idx_customer"), "{r:?}");
    assert_eq!(r[0].11, None, "{r:?}");
    // The customer's last order: idx_orders backwards.
    let r = explain(&mut c, TPCC[21]);
    assert_eq!(r[0].6.as_deref(), Some("idx_orders"), "{r:?}");
    assert_eq!(r[0].11.as_deref(), Some("Backward index scan"), "{r:?}");
    // Stock-Level: order_line by range, stock by key from each order line.
    let r = explain(&mut c, TPCC[31]);
    assert_eq!(r[0].2.as_deref(), Some("order_line"), "{r:?}");
    assert_eq!(r[0].4.as_deref(), Some("range"));
    assert_eq!(r[1].4.as_deref(), Some("eq_ref"));
    assert_eq!(r[1].8.as_deref(), Some("const,tpcc.order_line.ol_i_id"));
    assert_eq!(r[1].11.as_deref(), Some("Using where"));
    // EXPLAIN runs nothing.
    let n: u64 = c
        .query_first("SELECT COUNT(*) FROM new_orders")
        .unwrap()
        .unwrap();
    assert_eq!(n, 3 * 10 * 9);
}

#[test]
fn explain_formats_and_shapes() {
    if !quire_only() {
        return;
    }
    let server = TestServer::start();
    let mut c = server.mysql_conn();
    load(&mut c);
    // A scan with a condition, grouping and sorting.
    let r = explain(
        &mut c,
        "SELECT i_price, COUNT(*) FROM item WHERE i_name LIKE 'item1%' GROUP BY i_price ORDER BY 2",
    );
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].4.as_deref(), Some("ALL"));
    assert_eq!(r[0].6, None);
    assert_eq!(r[0].9, Some(200));
    assert_eq!(
        r[0].11.as_deref(),
        Some("Using where; Using temporary; Using filesort")
    );
    // No tables; a derived table and a subquery.
    let r = explain(&mut c, "SELECT 1");
    assert_eq!(r[0].11.as_deref(), Some("No tables used"));
    let r = explain(
        &mut c,
        "SELECT * FROM (SELECT w_id FROM warehouse) AS d WHERE w_id IN (SELECT d_w_id FROM district WHERE d_id = 1)",
    );
    let kinds: Vec<(&str, Option<&str>)> =
        r.iter().map(|x| (x.1.as_str(), x.2.as_deref())).collect();
    assert_eq!(
        kinds,
        [
            ("PRIMARY", Some("<derived2>")),
            ("DERIVED", Some("warehouse")),
            ("SUBQUERY", Some("district")),
        ]
    );
    // IN lists and ranges are `range`.
    let r = explain(&mut c, "SELECT * FROM item WHERE i_id IN (3, 5, 7)");
    assert_eq!(
        (r[0].4.as_deref(), r[0].7.as_deref()),
        (Some("range"), Some("4"))
    );
    // Multi-table UPDATE: the target's row says UPDATE.
    let r = explain(
        &mut c,
        "UPDATE stock s JOIN item i ON i.i_id = s.s_i_id SET s.s_quantity = 1 WHERE i.i_id = 5",
    );
    let kinds: Vec<(&str, Option<&str>)> =
        r.iter().map(|x| (x.1.as_str(), x.2.as_deref())).collect();
    assert_eq!(kinds, [("SIMPLE", Some("i")), ("UPDATE", Some("s"))]);
    // FORMAT=TREE: one row, one column, the iterator tree.
    let tree: Vec<String> = c.query(format!("EXPLAIN FORMAT=TREE {}", TPCC[0])).unwrap();
    assert_eq!(tree.len(), 1);
    let lines: Vec<&str> = tree[0].lines().collect();
    assert_eq!(
        lines,
        [
            "-> Nested loop inner join",
            "    -> Single-row index lookup on warehouse using PRIMARY (w_id=2)  (rows=1)",
            "    -> Single-row index lookup on customer using PRIMARY (c_w_id=warehouse.w_id, c_d_id=3, c_id=17)  (rows=1)",
        ]
    );
    let tree: Vec<String> = c
        .query(
            "EXPLAIN FORMAT=TREE SELECT i_id FROM item WHERE i_price > 5 ORDER BY i_name LIMIT 3",
        )
        .unwrap();
    assert_eq!(
        tree[0],
        "-> Limit: 3 row(s)\n    -> Sort: item.i_name\n        -> Filter: (item.i_price > 5)\n            -> Table scan on item  (rows=200)"
    );
    // What is not there yet says so.
    for (sql, code) in [
        ("EXPLAIN ANALYZE SELECT 1", 1235),
        ("EXPLAIN FORMAT=JSON SELECT 1", 1235),
        ("EXPLAIN SELECT * FROM nosuch", 1146),
    ] {
        match c.query_drop(sql) {
            Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, code, "{sql}: {e}"),
            other => panic!("{sql}: {other:?}"),
        }
    }
}
