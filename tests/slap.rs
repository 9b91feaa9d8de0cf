//! mariadb-slap (mysqlslap) against the server: many concurrent clients, simple queries
//! and its auto-generated mixed/write/read/key/update loads.
//!
//! mariadb-slap exits 0 even when its clients fail to connect or a query fails (it only
//! prints to stderr), so success here means: exit status 0 *and* nothing on stderr *and*
//! the summary (`Average number of seconds …`) printed. Afterwards the server must still
//! answer, and the schema mariadb-slap creates for auto-generated loads must be gone
//! (it drops it at the end).

mod common;

use common::{TestServer, require_tool};
use mysql::prelude::Queryable;

fn slap_ok(server: &TestServer, args: &[&str]) {
    let out = server.slap(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let ctx = format!("mariadb-slap {args:?}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}");
    assert!(out.status.success(), "exit status {}: {ctx}", out.status);
    assert!(stderr.trim().is_empty(), "error output: {ctx}");
    assert!(
        stdout.contains("Average number of seconds to run all queries"),
        "no summary: {ctx}"
    );
}

fn auto_generated(load_type: &str) {
    if !require_tool("mariadb-slap") {
        return;
    }
    let mut server = TestServer::start();
    let load = format!("--auto-generate-sql-load-type={load_type}");
    let common = [
        "--auto-generate-sql",
        load.as_str(),
        "--concurrency=8",
        "--number-of-queries=2000",
        "--iterations=2",
    ];
    let mut with_autoinc = common.to_vec();
    with_autoinc.push("--auto-generate-sql-add-autoincrement");
    slap_ok(&server, &with_autoinc);

    let mut with_indexes = common.to_vec();
    with_indexes.push("--auto-generate-sql-secondary-indexes=2");
    if load_type == "key" {
        // The key load looks rows up by primary key; mariadb-slap refuses to run without one.
        with_indexes.push("--auto-generate-sql-add-autoincrement");
    }
    slap_ok(&server, &with_indexes);

    let left: Vec<String> = server
        .mysql_conn()
        .query("SHOW DATABASES LIKE 'mysqlslap'")
        .expect("show databases");
    assert!(
        left.is_empty(),
        "mariadb-slap's schema was not dropped: {left:?}"
    );
    server.assert_alive("after mariadb-slap");
}

#[test]
fn slap_select_1_concurrency_64() {
    if !require_tool("mariadb-slap") {
        return;
    }
    let mut server = TestServer::start();
    // With -q, mariadb-slap connects to its schema without creating it.
    server
        .mysql_conn()
        .query_drop("CREATE DATABASE mysqlslap")
        .expect("create mysqlslap");
    slap_ok(
        &server,
        &[
            "-q",
            "select 1",
            "--concurrency=64",
            "--number-of-queries=20000",
        ],
    );
    server.assert_alive("after mariadb-slap");
}

#[test]
fn slap_auto_generate_mixed() {
    auto_generated("mixed");
}

#[test]
fn slap_auto_generate_write() {
    auto_generated("write");
}

#[test]
fn slap_auto_generate_read() {
    auto_generated("read");
}

#[test]
fn slap_auto_generate_key() {
    auto_generated("key");
}

#[test]
fn slap_auto_generate_update() {
    auto_generated("update");
}
