//! Test harness shared by every integration test: start a server under test, talk to it,
//! run external clients against it, and never leave anything behind.
//!
//! A [`TestServer`] owns one server process with its own temporary directory (data
//! directory, Unix socket, stderr log) and a TCP port on 127.0.0.1. Which server is chosen by
//! `QUIRE_TEST_TARGET`:
//!
//! - `quire` (default): the binary from `CARGO_BIN_EXE_quire` (cargo sets it when these files
//!   live in the project's `tests/`) or `$QUIRE_BIN`, started with `--datadir --port=0
//!   --bind-address --socket`; the port is read from the `ready for connections … port: N`
//!   line it prints to stderr, as mysqld does.
//! - `mariadb`: a private `mariadbd` (Debian's mariadb-server) in the temp directory, the
//!   reference the SQL scripts are checked against. Its data directory is copied from a
//!   template made once per test process by `mariadb-install-db`; it runs with MySQL 8.0's
//!   defaults where MariaDB's differ and matter to tests (sql_mode, utf8mb4,
//!   max_allowed_packet=64M).
//!
//! Rules this file follows:
//! - **No process survives its test.** `Drop` kills and reaps the server, also while a
//!   test panics. Every child is spawned from one long-lived thread with
//!   `PR_SET_PDEATHSIG=SIGKILL`, so even a test binary killed by a signal takes its servers
//!   with it (the death signal fires when the *spawning thread* exits, hence the dedicated
//!   thread that lives as long as the process). An `atexit` hook removes the MariaDB
//!   template.
//! - **Nothing waits forever.** Start-up, external tools and statements have time limits;
//!   a timeout fails the test with the server's stderr.
//! - **No silent skips in CI.** A missing external tool fails the test when
//!   `QUIRE_REQUIRE_EXTERNAL=1`, otherwise it prints a loud `SKIPPED` line.
//! - Temp directories are removed on drop unless `QUIRE_KEEP_TEST_DIRS=1`.
//!
//! Each test binary uses a different part of this file, hence `allow(dead_code)`.
#![allow(dead_code)]

pub mod compare;

use std::fs;
use std::io::{self, Read, Write};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// How long a server may take to print its ready line.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a graceful stop (SIGTERM) may take before SIGKILL.
pub const STOP_TIMEOUT: Duration = Duration::from_secs(30);
/// Default limit for one run of an external client (mariadb, sysbench, …).
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(300);

/// MySQL 8.0's default sql_mode; MariaDB gets it too so that both targets agree.
pub const MYSQL8_SQL_MODE: &str = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";

/// Which server the tests run against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Quire,
    MariaDb,
}

/// The target chosen by `QUIRE_TEST_TARGET` (`quire` unless set).
pub fn target() -> Target {
    match std::env::var("QUIRE_TEST_TARGET").as_deref() {
        Err(_) | Ok("") | Ok("quire") => Target::Quire,
        Ok("mariadb") => Target::MariaDb,
        Ok(other) => panic!("QUIRE_TEST_TARGET={other:?}: expected `quire` or `mariadb`"),
    }
}

fn env_flag(name: &str) -> bool {
    matches!(
        std::env::var(name).as_deref(),
        Ok("1") | Ok("true") | Ok("yes")
    )
}

/// Directory holding the test sources (`tests/`), for data files such as `sql/` and `python/`.
pub fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

// ---------------------------------------------------------------------------------------
// External tools
// ---------------------------------------------------------------------------------------

/// Full path of `name` if it is an executable on `PATH` (or an existing path).
pub fn find_tool(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .chain(
            ["/usr/sbin", "/sbin", "/usr/local/sbin", "/usr/local/go/bin"]
                .iter()
                .map(PathBuf::from),
        )
        .map(|dir| dir.join(name))
        .find(|p| {
            use std::os::unix::fs::PermissionsExt;
            fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// Reports a missing prerequisite: panics under `QUIRE_REQUIRE_EXTERNAL=1` (CI), otherwise
/// prints a loud SKIPPED line. Returns `false` so callers can `return`.
pub fn skip_or_fail(what: &str) -> bool {
    if env_flag("QUIRE_REQUIRE_EXTERNAL") {
        panic!("{what} is required (QUIRE_REQUIRE_EXTERNAL=1) but missing");
    }
    eprintln!(
        "\n*** SKIPPED: {what} is missing (set QUIRE_REQUIRE_EXTERNAL=1 to make this fail) ***\n"
    );
    false
}

/// `true` if `tool` is installed; otherwise see [`skip_or_fail`]. Use as
/// `if !require_tool("sysbench") { return; }`.
pub fn require_tool(tool: &str) -> bool {
    find_tool(tool).is_some() || skip_or_fail(&format!("external tool `{tool}`"))
}

// ---------------------------------------------------------------------------------------
// Child processes: spawned from one long-lived thread, with a parent-death signal
// ---------------------------------------------------------------------------------------

type SpawnRequest = (Command, mpsc::Sender<io::Result<Child>>);

/// Spawns `cmd` so that it receives SIGKILL when this test process dies, whatever the
/// cause. The spawn happens on a thread that never exits (Linux sends the parent-death
/// signal when the thread that forked the child exits, not the process).
pub fn spawn_tied(mut cmd: Command) -> io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<SpawnRequest>>> = OnceLock::new();
    let parent_pid = std::process::id();
    // SAFETY: only async-signal-safe libc calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // The parent may have died before prctl: then nobody would kill us.
            if libc::getppid() as u32 != parent_pid {
                libc::_exit(1);
            }
            Ok(())
        });
    }
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnRequest>();
        thread::Builder::new()
            .name("test-child-spawner".into())
            .spawn(move || {
                // Ends only with the process: the sender lives in a static.
                for (mut cmd, reply) in rx {
                    let _ = reply.send(cmd.spawn());
                }
            })
            .expect("spawn the child-spawner thread");
        Mutex::new(tx)
    });
    let (reply_tx, reply_rx) = mpsc::channel();
    spawner
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((cmd, reply_tx))
        .expect("child-spawner thread is gone");
    reply_rx
        .recv()
        .expect("child-spawner thread dropped the request")
}

/// Runs `cmd` to completion with `stdin` as input, killing it after `timeout`.
/// Never panics on the command's failure; panics on timeout (with what it printed).
pub fn run_with_timeout(mut cmd: Command, stdin: Option<&[u8]>, timeout: Duration) -> Output {
    let shown = format!("{cmd:?}");
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = spawn_tied(cmd).unwrap_or_else(|e| panic!("cannot run {shown}: {e}"));
    let writer = stdin.map(|input| {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let input = input.to_vec();
        thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });
    let out_reader = read_all_in_thread(child.stdout.take().expect("stdout is piped"));
    let err_reader = read_all_in_thread(child.stderr.take().expect("stderr is piped"));
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                let out = out_reader.join().unwrap_or_default();
                let err = err_reader.join().unwrap_or_default();
                panic!(
                    "{shown} did not finish within {timeout:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
                    String::from_utf8_lossy(&out),
                    String::from_utf8_lossy(&err)
                );
            }
            Err(e) => panic!("waiting for {shown}: {e}"),
        }
    };
    if let Some(w) = writer {
        let _ = w.join();
    }
    Output {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    }
}

fn read_all_in_thread(mut r: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        buf
    })
}

/// Panics with the command's output unless it exited 0.
pub fn assert_success(what: &str, out: &Output) {
    if !out.status.success() {
        panic!(
            "{what} failed with {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

// ---------------------------------------------------------------------------------------
// Temporary directories and cleanup at exit
// ---------------------------------------------------------------------------------------

/// A fresh, unique directory under `std::env::temp_dir()`.
pub fn unique_temp_dir(tag: &str) -> PathBuf {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    loop {
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "quire-test-{tag}-{}-{seq}-{nanos:x}",
            std::process::id()
        ));
        match fs::create_dir(&dir) {
            Ok(()) => return dir,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => panic!("cannot create {}: {e}", dir.display()),
        }
    }
}

fn keep_test_dirs() -> bool {
    env_flag("QUIRE_KEEP_TEST_DIRS")
}

/// Directories to remove when the process exits (the MariaDB template).
static REMOVE_AT_EXIT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

extern "C" fn remove_dirs_at_exit() {
    // try_lock: never block inside exit().
    if let Ok(mut dirs) = REMOVE_AT_EXIT.try_lock() {
        for d in dirs.drain(..) {
            let _ = fs::remove_dir_all(d);
        }
    }
}

fn remove_at_exit(dir: PathBuf) {
    static HOOK: OnceLock<()> = OnceLock::new();
    HOOK.get_or_init(|| {
        // SAFETY: registering a plain extern "C" fn.
        unsafe { libc::atexit(remove_dirs_at_exit) };
    });
    REMOVE_AT_EXIT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(dir);
}

fn copy_dir(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// MariaDB specifics
// ---------------------------------------------------------------------------------------

fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Redo log size used for the template and every private mariadbd (must agree).
const MARIADB_LOG_FILE_SIZE: &str = "--innodb-log-file-size=32M";

/// A data directory made by `mariadb-install-db` once per test process; servers copy it.
fn mariadb_template() -> &'static Path {
    static TEMPLATE: OnceLock<PathBuf> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        for tool in ["mariadbd", "mariadb-install-db"] {
            if find_tool(tool).is_none() {
                panic!(
                    "QUIRE_TEST_TARGET=mariadb needs `{tool}` (apt-get install -y mariadb-server)"
                );
            }
        }
        let dir = unique_temp_dir("mariadb-template");
        if !keep_test_dirs() {
            remove_at_exit(dir.clone());
        }
        let mut cmd = Command::new(find_tool("mariadb-install-db").expect("checked above"));
        cmd.arg("--no-defaults")
            .arg(format!("--datadir={}", dir.join("data").display()))
            .arg("--auth-root-authentication-method=normal")
            .arg("--skip-test-db")
            .arg(MARIADB_LOG_FILE_SIZE)
            .arg("--innodb-buffer-pool-size=64M");
        if running_as_root() {
            cmd.arg("--user=root");
        }
        let out = run_with_timeout(cmd, None, Duration::from_secs(120));
        assert_success("mariadb-install-db", &out);
        dir.join("data")
    })
}

/// Picks a free TCP port on 127.0.0.1 (bind :0, read, close). Racy, so only for MariaDB,
/// which cannot report the port it bound.
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    l.local_addr().expect("local_addr").port()
}

// ---------------------------------------------------------------------------------------
// TestServer
// ---------------------------------------------------------------------------------------

/// One server under test. Killed and reaped on drop; its directory is removed then.
pub struct TestServer {
    target: Target,
    dir: PathBuf,
    extra_args: Vec<String>,
    child: Option<Child>,
    port: u16,
    /// Bytes of the stderr log already seen by earlier starts (restart appends).
    log_offset: u64,
    /// RLIMIT_FSIZE for the next start (writes past it fail with EFBIG).
    file_size_limit: Option<u64>,
    /// Environment variables for the next start.
    env: Vec<(String, String)>,
}

impl TestServer {
    /// Starts a server of the chosen target with default options.
    pub fn start() -> TestServer {
        TestServer::start_with(&[])
    }

    /// Starts a server with extra command-line options (mysqld style, e.g.
    /// `--max-allowed-packet=1M`), passed after the harness's own.
    pub fn start_with(args: &[&str]) -> TestServer {
        TestServer::start_target(target(), args)
    }

    /// A private MariaDB beside the server under test (whatever the test target is).
    pub fn start_mariadb(args: &[&str]) -> TestServer {
        TestServer::start_target(Target::MariaDb, args)
    }

    fn start_target(target: Target, args: &[&str]) -> TestServer {
        let dir = unique_temp_dir(match target {
            Target::Quire => "quire",
            Target::MariaDb => "mariadb",
        });
        let mut server = TestServer {
            target,
            dir,
            extra_args: args.iter().map(|s| s.to_string()).collect(),
            child: None,
            port: 0,
            log_offset: 0,
            file_size_limit: None,
            env: Vec::new(),
        };
        if target == Target::MariaDb {
            let template = mariadb_template();
            copy_dir(template, &server.datadir())
                .unwrap_or_else(|e| panic!("copy MariaDB template: {e}"));
        } else {
            fs::create_dir_all(server.datadir()).expect("create datadir");
        }
        server.launch();
        server
    }

    pub fn target(&self) -> Target {
        self.target
    }

    /// Options for the next start (replacing those given at the first).
    pub fn set_extra_args(&mut self, args: &[&str]) {
        self.extra_args = args.iter().map(|s| s.to_string()).collect();
    }

    /// Limit the size of every file the server writes (RLIMIT_FSIZE) from its next start on:
    /// a way to make its writes fail with an I/O error (EFBIG). None: no limit.
    pub fn set_file_size_limit(&mut self, bytes: Option<u64>) {
        self.file_size_limit = bytes;
    }

    /// Set (Some) or unset (None) an environment variable of the server from its next start.
    pub fn set_env(&mut self, name: &str, value: Option<&str>) {
        self.env.retain(|(n, _)| n != name);
        if let Some(v) = value {
            self.env.push((name.to_string(), v.to_string()));
        }
    }

    /// The server's temporary directory (holds `data/`, the socket and `server.stderr`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn datadir(&self) -> PathBuf {
        self.dir.join("data")
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn socket(&self) -> PathBuf {
        self.dir.join("mysql.sock")
    }

    /// `mysql://root@127.0.0.1:<port>/` (empty password).
    pub fn url(&self) -> String {
        format!("mysql://root@127.0.0.1:{}/", self.port)
    }

    /// Process id of the running server.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(|c| c.id())
    }

    fn stderr_path(&self) -> PathBuf {
        self.dir.join("server.stderr")
    }

    /// Everything the server wrote to stderr (all starts).
    pub fn stderr_log(&self) -> String {
        String::from_utf8_lossy(&fs::read(self.stderr_path()).unwrap_or_default()).into_owned()
    }

    fn command(&mut self) -> Command {
        let mut cmd;
        match self.target {
            Target::Quire => {
                let bin = std::env::var_os("QUIRE_BIN")
                    .map(PathBuf::from)
                    .or(option_env!("CARGO_BIN_EXE_quire").map(PathBuf::from))
                    .unwrap_or_else(|| {
                        panic!(
                            "no quire binary: run the tests from the quire crate (CARGO_BIN_EXE_quire) \
                             or set QUIRE_BIN, or use QUIRE_TEST_TARGET=mariadb"
                        )
                    });
                cmd = Command::new(bin);
                cmd.arg(format!("--datadir={}", self.datadir().display()))
                    .arg("--port=0")
                    .arg("--bind-address=127.0.0.1")
                    .arg(format!("--socket={}", self.socket().display()));
            }
            Target::MariaDb => {
                if self.port == 0 {
                    self.port = free_port();
                }
                cmd = Command::new(find_tool("mariadbd").expect("checked by the template"));
                // --no-defaults must come first.
                cmd.arg("--no-defaults")
                    .arg(format!("--datadir={}", self.datadir().display()))
                    .arg(format!("--port={}", self.port))
                    .arg("--bind-address=127.0.0.1")
                    .arg(format!("--socket={}", self.socket().display()))
                    .arg(format!(
                        "--pid-file={}",
                        self.dir.join("mariadbd.pid").display()
                    ))
                    .arg("--skip-log-bin")
                    .arg("--innodb-flush-log-at-trx-commit=0")
                    .arg("--performance-schema=OFF")
                    .arg("--innodb-buffer-pool-size=256M")
                    .arg(MARIADB_LOG_FILE_SIZE)
                    .arg("--max-connections=1000")
                    .arg("--skip-name-resolve")
                    // MySQL 8.0 defaults where MariaDB 10.11's differ:
                    .arg(format!("--sql-mode={MYSQL8_SQL_MODE}"))
                    .arg("--character-set-server=utf8mb4")
                    // MySQL 8.0 uses utf8mb4_0900_ai_ci, which MariaDB 10.11 lacks.
                    .arg("--collation-server=utf8mb4_general_ci")
                    .arg("--max-allowed-packet=64M");
                if running_as_root() {
                    cmd.arg("--user=root");
                }
            }
        }
        cmd.args(&self.extra_args);
        cmd
    }

    fn launch(&mut self) {
        let log = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.stderr_path())
            .expect("open server.stderr");
        self.log_offset = log.metadata().map(|m| m.len()).unwrap_or(0);
        let mut cmd = self.command();
        cmd.envs(self.env.iter().map(|(n, v)| (n, v)));
        if let Some(limit) = self.file_size_limit {
            // SAFETY: only setrlimit (async-signal-safe) between fork and exec.
            unsafe {
                cmd.pre_exec(move || {
                    let r = libc::rlimit {
                        rlim_cur: limit,
                        rlim_max: libc::RLIM_INFINITY,
                    };
                    if libc::setrlimit(libc::RLIMIT_FSIZE, &r) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let shown = format!("{cmd:?}");
        cmd.stdin(Stdio::null())
            .stdout(log.try_clone().expect("dup log"))
            .stderr(log);
        let child = spawn_tied(cmd).unwrap_or_else(|e| panic!("cannot start {shown}: {e}"));
        self.child = Some(child);
        self.port = self.wait_ready(&shown);
    }

    /// Waits for the `ready for connections` line and returns the port it names.
    fn wait_ready(&mut self, shown: &str) -> u16 {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let log = fs::read(self.stderr_path()).unwrap_or_default();
            let new =
                String::from_utf8_lossy(log.get(self.log_offset as usize..).unwrap_or_default())
                    .into_owned();
            if let Some(pos) = new.find("ready for connections") {
                // mysqld 8 prints "… port: 3306 …" on the same line, MariaDB on the next one.
                let rest = new.get(pos..).unwrap_or_default();
                if let Some(port) = parse_port(rest) {
                    if self.target == Target::MariaDb {
                        assert_eq!(port, self.port, "MariaDB bound another port than asked");
                    }
                    return port;
                }
            }
            let exited = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten());
            if let Some(status) = exited {
                self.child = None;
                panic!(
                    "server exited with {status} before it was ready: {shown}\n--- server stderr ---\n{new}"
                );
            }
            if Instant::now() >= deadline {
                self.kill();
                panic!(
                    "server not ready within {START_TIMEOUT:?}: {shown}\n--- server stderr ---\n{new}"
                );
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGKILL and reaps the process (no-op if not running).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Asks the server to stop (SIGTERM) and waits; SIGKILL after [`STOP_TIMEOUT`].
    /// Returns the exit status, or `None` if it had to be killed.
    pub fn stop(&mut self) -> Option<ExitStatus> {
        let mut child = self.child.take()?;
        // SAFETY: plain kill(2) on our own child.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        let deadline = Instant::now() + STOP_TIMEOUT;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = child.try_wait() {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        None
    }

    /// Graceful stop, then start again on the same data directory.
    pub fn restart(&mut self) {
        self.stop();
        self.launch();
    }

    /// SIGKILL (a crash), then start again on the same data directory.
    pub fn crash_restart(&mut self) {
        self.kill();
        self.launch();
    }

    /// `true` while the process runs.
    pub fn is_running(&mut self) -> bool {
        match self.child.as_mut() {
            Some(c) => matches!(c.try_wait(), Ok(None)),
            None => false,
        }
    }

    /// Connection options for root@127.0.0.1 over TCP (never the socket).
    pub fn opts(&self) -> mysql::OptsBuilder {
        mysql::OptsBuilder::new()
            .ip_or_hostname(Some("127.0.0.1"))
            .tcp_port(self.port)
            .user(Some("root"))
            .pass(None::<String>)
            .prefer_socket(false)
            .tcp_connect_timeout(Some(Duration::from_secs(10)))
    }

    /// A new connection as root (no default database).
    pub fn mysql_conn(&self) -> mysql::Conn {
        mysql::Conn::new(self.opts()).unwrap_or_else(|e| {
            panic!(
                "connect to {}: {e}\n--- server stderr ---\n{}",
                self.url(),
                self.stderr_tail()
            )
        })
    }

    /// A new connection as root using database `db`.
    pub fn mysql_conn_db(&self, db: &str) -> mysql::Conn {
        mysql::Conn::new(self.opts().db_name(Some(db)))
            .unwrap_or_else(|e| panic!("connect to {}{db}: {e}", self.url()))
    }

    /// Panics unless a new connection can run `SELECT 1` (the server is up and sane).
    pub fn assert_alive(&mut self, context: &str) {
        use mysql::prelude::Queryable;
        if !self.is_running() {
            panic!(
                "server died ({context})\n--- server stderr ---\n{}",
                self.stderr_tail()
            );
        }
        let res = mysql::Conn::new(self.opts().read_timeout(Some(Duration::from_secs(30))))
            .and_then(|mut c| c.query_first::<i64, _>("SELECT 1"));
        match res {
            Ok(Some(1)) => {}
            other => panic!(
                "server no longer answers SELECT 1 ({context}): {other:?}\n--- server stderr ---\n{}",
                self.stderr_tail()
            ),
        }
    }

    /// The last ~8 KiB of the server's stderr, for failure messages.
    pub fn stderr_tail(&self) -> String {
        let log = self.stderr_log();
        let start = log.len().saturating_sub(8192);
        let start = (start..log.len())
            .find(|&i| log.is_char_boundary(i))
            .unwrap_or(0);
        log.get(start..).unwrap_or_default().to_string()
    }

    /// Arguments connecting a MySQL/MariaDB client tool to this server.
    pub fn client_args(&self) -> Vec<String> {
        vec![
            "--protocol=TCP".into(),
            "-h127.0.0.1".into(),
            format!("-P{}", self.port),
            "-uroot".into(),
        ]
    }

    /// Runs `mariadb --no-defaults --protocol=TCP -h127.0.0.1 -P<port> -uroot <args>`.
    pub fn cli(&self, args: &[&str]) -> Output {
        self.cli_stdin(args, None)
    }

    /// Like [`TestServer::cli`] with `stdin` piped in (a script).
    pub fn cli_stdin(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut cmd =
            Command::new(find_tool("mariadb").expect("mariadb client missing: require_tool first"));
        cmd.arg("--no-defaults").args(self.client_args()).args(args);
        run_with_timeout(cmd, stdin.map(str::as_bytes), TOOL_TIMEOUT)
    }

    /// Runs `sysbench` with connection options for this server (root, empty password), then
    /// `args`, e.g. `["oltp_point_select", "--mysql-db=sbtest", "--tables=4", "run"]`.
    pub fn sysbench(&self, args: &[&str]) -> Output {
        let mut cmd =
            Command::new(find_tool("sysbench").expect("sysbench missing: require_tool first"));
        cmd.arg("--db-driver=mysql")
            .arg("--mysql-host=127.0.0.1")
            .arg(format!("--mysql-port={}", self.port))
            .arg("--mysql-user=root")
            .arg("--mysql-password=")
            .args(args);
        run_with_timeout(cmd, None, TOOL_TIMEOUT)
    }

    /// Runs `mariadb-slap --no-defaults <connection> <args>`.
    pub fn slap(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(
            find_tool("mariadb-slap").expect("mariadb-slap missing: require_tool first"),
        );
        cmd.arg("--no-defaults").args(self.client_args()).args(args);
        run_with_timeout(cmd, None, TOOL_TIMEOUT)
    }
}

/// Port number after `port:` in a ready message (mysqld 8 prints it on the ready line,
/// MariaDB on the next line).
pub fn parse_port(text: &str) -> Option<u16> {
    let after = text.get(text.find("port:")? + "port:".len()..)?;
    let digits: String = after
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok().filter(|&p| p != 0)
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.kill();
        if thread::panicking() {
            eprintln!(
                "--- server stderr ({}) ---\n{}\n--- end of server stderr ---",
                self.dir.display(),
                self.stderr_tail()
            );
        }
        if keep_test_dirs() {
            eprintln!("keeping test directory {}", self.dir.display());
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// Returns a Python 3 interpreter that can `import pymysql` (`$QUIRE_PYTHON`, `python3`,
/// `/usr/bin/python3`), or reports it missing via [`skip_or_fail`].
pub fn python_with_pymysql() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("QUIRE_PYTHON") {
        candidates.push(PathBuf::from(p));
    }
    candidates.extend(find_tool("python3"));
    candidates.push(PathBuf::from("/usr/bin/python3"));
    for py in candidates {
        let ok = Command::new(&py)
            .args(["-c", "import pymysql"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Some(py);
        }
    }
    skip_or_fail("python3 with PyMySQL (apt-get install -y python3-pymysql)");
    None
}
