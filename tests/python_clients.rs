//! Python clients against the server: `tests/python/test_pymysql.py` (PyMySQL, a pure-Python
//! driver that many tools use) run with the server's port. The script is self-contained
//! (plain asserts, no pytest) and exits non-zero if any of its checks fails; its output is
//! shown on failure.

mod common;

use common::{TestServer, python_with_pymysql, run_with_timeout};
use std::process::Command;
use std::time::Duration;

#[test]
fn pymysql() {
    let Some(python) = python_with_pymysql() else {
        return;
    };
    let mut server = TestServer::start();
    let script = common::tests_dir().join("python").join("test_pymysql.py");
    let mut cmd = Command::new(python);
    cmd.arg(&script)
        .arg("--port")
        .arg(server.port().to_string());
    let out = run_with_timeout(cmd, None, Duration::from_secs(300));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{} failed ({})\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
        script.display(),
        out.status
    );
    eprintln!("{stdout}");
    server.assert_alive("after PyMySQL");
}
