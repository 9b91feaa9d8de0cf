//! The `mariadb` command-line client against the server: batch mode (`-e`, scripts on
//! stdin; `--batch`, `--table`, `--vertical` output compared as text) and an interactive
//! session driven through tmux, asserting on what a user would see on the screen.
//!
//! The interactive test runs the client inside a private tmux server (`tmux -S <temp>/tmux.sock`,
//! so it never touches anyone's tmux), types into it with `send-keys`, and polls
//! `capture-pane` until the expected text appears (no fixed sleeps). The tmux server is
//! killed when the test ends, also on failure.

mod common;

use common::{TestServer, find_tool, require_tool, run_with_timeout};
use mysql::prelude::Queryable;
use std::process::Command;
use std::time::{Duration, Instant};

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn ok_stdout(what: &str, out: &std::process::Output) -> String {
    common::assert_success(what, out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.trim().is_empty(), "{what}: unexpected stderr:\n{err}");
    stdout_of(out)
}

#[test]
fn batch_output_formats() {
    if !require_tool("mariadb") {
        return;
    }
    let server = TestServer::start();
    let q = "SELECT 1 AS a, 'x' AS b, NULL AS c, 'tab\there' AS d";

    // Not a terminal: tab-separated with a header, special characters escaped.
    let out = ok_stdout("mariadb -e", &server.cli(&["-e", q]));
    assert_eq!(out, "a\tb\tc\td\n1\tx\tNULL\ttab\\there\n");
    let out = ok_stdout("mariadb --batch -e", &server.cli(&["--batch", "-e", q]));
    assert_eq!(out, "a\tb\tc\td\n1\tx\tNULL\ttab\\there\n");

    let out = ok_stdout(
        "mariadb --table",
        &server.cli(&[
            "--table",
            "-e",
            "SELECT 1 AS a, 'x' AS b, NULL AS c, 'hello' AS d",
        ]),
    );
    assert_eq!(
        out,
        "+---+---+------+-------+\n\
         | a | b | c    | d     |\n\
         +---+---+------+-------+\n\
         | 1 | x | NULL | hello |\n\
         +---+---+------+-------+\n"
    );

    let out = ok_stdout(
        "mariadb --vertical",
        &server.cli(&[
            "--vertical",
            "-e",
            "SELECT 1 AS a, 'x' AS b, NULL AS c UNION ALL SELECT 2, 'yy', 3",
        ]),
    );
    assert_eq!(
        out,
        "*************************** 1. row ***************************\n\
         a: 1\n\
         b: x\n\
         c: NULL\n\
         *************************** 2. row ***************************\n\
         a: 2\n\
         b: yy\n\
         c: 3\n"
    );

    // -N drops headers; several statements in one -e run in order.
    let out = ok_stdout(
        "mariadb -N",
        &server.cli(&["-N", "-e", "SELECT 1 AS a; SELECT 'two' AS b; SELECT 3 + 4"]),
    );
    assert_eq!(out, "1\ntwo\n7\n");

    // An empty result prints nothing in batch mode; a statement without result neither.
    let out = ok_stdout(
        "mariadb empty",
        &server.cli(&[
            "-e",
            "CREATE DATABASE e; CREATE TABLE e.t (a INT); SELECT * FROM e.t",
        ]),
    );
    assert_eq!(out, "");

    // Connecting to a database given on the command line; errors exit 1 with the message.
    let out = ok_stdout(
        "mariadb db",
        &server.cli(&[
            "e",
            "-e",
            "INSERT INTO t VALUES (5); SELECT DATABASE() AS db, a FROM t",
        ]),
    );
    assert_eq!(out, "db\ta\ne\t5\n");
    let out = server.cli(&["-e", "SELECT * FROM e.nope"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "exit status for a failed statement"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ERROR 1146 (42S02) at line 1: Table 'e.nope' doesn't exist"),
        "stderr: {err}"
    );
    let out = server.cli(&["nope_db", "-e", "SELECT 1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1049") && err.contains("Unknown database 'nope_db'"),
        "stderr: {err}"
    );
}

#[test]
fn batch_script_on_stdin() {
    if !require_tool("mariadb") {
        return;
    }
    let server = TestServer::start();
    let script = "\
-- a comment line
CREATE DATABASE shop;
USE shop;
CREATE TABLE items (
  id INT PRIMARY KEY AUTO_INCREMENT,
  name VARCHAR(20) NOT NULL,
  price DECIMAL(6,2)
);
INSERT INTO items (name, price) VALUES ('apple', 0.50), ('pear', 0.75), ('fig', NULL);
/* a block comment */ SELECT id, name, price FROM items ORDER BY id;
UPDATE items SET price = price * 2 WHERE price IS NOT NULL;
SELECT COUNT(*) AS n, SUM(price) AS total FROM items;
BEGIN;
DELETE FROM items;
ROLLBACK;
SELECT name FROM items WHERE name LIKE 'p%'; SELECT 'same line' AS s;
DELIMITER //
SELECT 'custom delimiter' AS d//
DELIMITER ;
SELECT 'ünïcødé ✓' AS u;
";
    let out = ok_stdout("mariadb < script", &server.cli_stdin(&[], Some(script)));
    assert_eq!(
        out,
        "id\tname\tprice\n1\tapple\t0.50\n2\tpear\t0.75\n3\tfig\tNULL\n\
         n\ttotal\n3\t2.50\n\
         name\npear\n\
         s\nsame line\n\
         d\ncustom delimiter\n\
         u\nünïcødé ✓\n"
    );

    // The first error stops the script (exit 1, message with the line number) ...
    let failing = "USE shop;\nSELECT 1 AS first;\nSELECT * FROM nope;\nSELECT 2 AS never;\n";
    let out = server.cli_stdin(&[], Some(failing));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_of(&out), "first\n1\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ERROR 1146 (42S02) at line 3: Table 'shop.nope' doesn't exist"),
        "stderr: {err}"
    );
    // ... unless --force, which reports it and goes on (and exits 0).
    let out = server.cli_stdin(&["--force"], Some(failing));
    assert_eq!(out.status.code(), Some(0), "exit status with --force");
    assert_eq!(stdout_of(&out), "first\n1\nnever\n2\n");
    let out = server.cli_stdin(&["--force"], Some("SELEC 1;\nSELECT 'after' AS a;\n"));
    assert_eq!(stdout_of(&out), "a\nafter\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ERROR 1064 (42000) at line 1"),
        "stderr: {err}"
    );

    // The data is really there for a new connection.
    let n: Option<i64> = server
        .mysql_conn()
        .query_first("SELECT COUNT(*) FROM shop.items")
        .expect("count");
    assert_eq!(n, Some(3));
}

/// A private tmux server (its own socket in a temp directory) running one client; the
/// server is killed and the directory removed on drop.
struct Tmux {
    dir: std::path::PathBuf,
    tmux: std::path::PathBuf,
}

impl Tmux {
    fn start(command: &str) -> Tmux {
        let t = Tmux {
            dir: common::unique_temp_dir("tmux"),
            tmux: find_tool("tmux").expect("tmux checked by require_tool"),
        };
        t.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "main",
            "-x",
            "200",
            "-y",
            "50",
            command,
        ]);
        t
    }

    fn run(&self, args: &[&str]) -> String {
        let mut cmd = Command::new(&self.tmux);
        cmd.arg("-S").arg(self.dir.join("tmux.sock")).args(args);
        let out = run_with_timeout(cmd, None, Duration::from_secs(10));
        common::assert_success(&format!("tmux {args:?}"), &out);
        stdout_of(&out)
    }

    /// Types `text`, then Enter. Sent as hex bytes (`send-keys -H`): tmux would take an
    /// argument ending in `;` as a command separator.
    fn type_line(&self, text: &str) {
        let hex: Vec<String> = text.bytes().map(|b| format!("{b:02x}")).collect();
        let mut args = vec!["send-keys", "-t", "main", "-H"];
        args.extend(hex.iter().map(String::as_str));
        self.run(&args);
        self.run(&["send-keys", "-t", "main", "Enter"]);
    }

    /// The whole pane including scrollback, wrapped lines joined.
    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-J", "-t", "main", "-S", "-1000"])
    }

    /// Polls the screen until `done` holds; panics with the screen after `timeout`.
    fn wait_for(&self, what: &str, timeout: Duration, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            if Instant::now() >= deadline {
                panic!("timed out waiting for {what}; the screen shows:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new(&self.tmux)
            .arg("-S")
            .arg(self.dir.join("tmux.sock"))
            .arg("kill-server")
            .stderr(std::process::Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Number of prompts (`MariaDB [db]> ` or `MySQL [db]> `; the client picks the word from
/// the server version) for database `db` on the screen.
fn prompts(screen: &str, db: &str) -> usize {
    screen.matches(&format!("MariaDB [{db}]> ")).count()
        + screen.matches(&format!("MySQL [{db}]> ")).count()
}

#[test]
fn interactive_session_in_tmux() {
    if !require_tool("mariadb") || !require_tool("tmux") {
        return;
    }
    let server = TestServer::start();
    let version: String = server
        .mysql_conn()
        .query_first("SELECT VERSION()")
        .expect("version")
        .expect("one row");
    let client = find_tool("mariadb").expect("checked");
    let command = format!(
        "env MYSQL_HISTFILE=/dev/null {} --no-defaults --protocol=TCP -h127.0.0.1 -P{} -uroot; \
         echo \"[client exited with status $?]\"; sleep 600",
        client.display(),
        server.port()
    );
    let tmux = Tmux::start(&command);
    let t = Duration::from_secs(20);

    // Welcome banner with the server's version, then the prompt.
    let screen = tmux.wait_for("the first prompt", t, |s| prompts(s, "(none)") >= 1);
    assert!(
        screen.contains("Welcome to the MariaDB monitor."),
        "{screen}"
    );
    assert!(screen.contains("Your MariaDB connection id is"), "{screen}");
    assert!(
        screen.contains(&format!("Server version: {version}")),
        "banner lacks `Server version: {version}`:\n{screen}"
    );

    tmux.type_line("CREATE DATABASE d;");
    tmux.wait_for("Query OK after CREATE DATABASE", t, |s| {
        prompts(s, "(none)") >= 2
    });
    let screen = tmux.screen();
    assert!(screen.contains("Query OK, 1 row affected"), "{screen}");

    tmux.type_line("USE d");
    let screen = tmux.wait_for("the prompt for database d", t, |s| prompts(s, "d") >= 1);
    assert!(screen.contains("Database changed"), "{screen}");

    tmux.type_line("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10));");
    let screen = tmux.wait_for("CREATE TABLE", t, |s| prompts(s, "d") >= 2);
    assert!(screen.contains("Query OK, 0 rows affected"), "{screen}");

    tmux.type_line("INSERT INTO t VALUES (1, 'one'), (2, 'two');");
    let screen = tmux.wait_for("INSERT", t, |s| prompts(s, "d") >= 3);
    assert!(screen.contains("Query OK, 2 rows affected"), "{screen}");
    assert!(
        screen.contains("Records: 2  Duplicates: 0  Warnings: 0"),
        "{screen}"
    );

    tmux.type_line("SELECT * FROM t ORDER BY id;");
    let screen = tmux.wait_for("SELECT", t, |s| prompts(s, "d") >= 4);
    let table = "+----+------+\n\
                 | id | name |\n\
                 +----+------+\n\
                 |  1 | one  |\n\
                 |  2 | two  |\n\
                 +----+------+\n\
                 2 rows in set";
    assert!(
        screen.contains(table),
        "no result table like\n{table}\n--- screen ---\n{screen}"
    );

    // A statement over two lines shows the continuation prompt.
    tmux.type_line("SELECT");
    tmux.wait_for("the continuation prompt", t, |s| s.contains("    -> "));
    tmux.type_line("40 + 2 AS answer;");
    let screen = tmux.wait_for("the two-line SELECT", t, |s| prompts(s, "d") >= 5);
    assert!(
        screen.contains("| answer |") && screen.contains("|     42 |"),
        "{screen}"
    );
    assert!(screen.contains("1 row in set"), "{screen}");

    tmux.type_line("SELEC 1;");
    let screen = tmux.wait_for("the syntax error", t, |s| prompts(s, "d") >= 6);
    assert!(
        screen.contains("ERROR 1064 (42000): You have an error in your SQL syntax"),
        "{screen}"
    );

    tmux.type_line("SELECT * FROM nope;");
    let screen = tmux.wait_for("the missing table", t, |s| prompts(s, "d") >= 7);
    assert!(
        screen.contains("ERROR 1146 (42S02): Table 'd.nope' doesn't exist"),
        "{screen}"
    );

    // \s: the client's status report, partly from the server.
    tmux.type_line("\\s");
    let screen = tmux.wait_for("the status report", t, |s| prompts(s, "d") >= 8);
    for needle in [
        "Current database:\td",
        "Current user:\t\troot@",
        &format!("Server version:\t\t{version}"),
        "Protocol version:\t10",
        "Connection:\t\t127.0.0.1 via TCP/IP",
        &format!("TCP port:\t\t{}", server.port()),
        "Uptime:",
    ] {
        // tmux renders tabs as spaces; compare with runs of whitespace collapsed.
        let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            squeeze(&screen).contains(&squeeze(needle)),
            "status report lacks {needle:?}:\n{screen}"
        );
    }

    tmux.type_line("exit");
    let screen = tmux.wait_for("the client to exit", t, |s| {
        s.contains("[client exited with status")
    });
    assert!(screen.contains("Bye"), "{screen}");
    assert!(screen.contains("[client exited with status 0]"), "{screen}");

    // The session's work is visible to others.
    let rows: Vec<(i64, String)> = server
        .mysql_conn()
        .query("SELECT id, name FROM d.t ORDER BY id")
        .expect("select");
    assert_eq!(rows, vec![(1, "one".into()), (2, "two".into())]);
}
