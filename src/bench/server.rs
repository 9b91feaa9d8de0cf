//! The servers `quire bench` measures, each started by the bench itself on a fresh data
//! directory and an ephemeral port:
//!
//! - **Quire**: this very executable (`std::env::current_exe`), `--port=0` (it prints the
//!   port it bound in its "ready for connections" line), its defaults plus the options of
//!   the configuration under test.
//! - **MariaDB**: `mariadb-install-db` then `mariadbd` from the directory of the `mariadbd`
//!   given (or found on PATH / in /usr/sbin), with the settings of
//!   `../shared/bench/mariadb.sh` (2 GB buffer pool, 512 MB redo log, durable
//!   `innodb_flush_log_at_trx_commit=1`, binary log off unless the configuration turns it
//!   on, `performance_schema` off unless turned on) plus the configuration's options.
//!
//! Both get user `sb`/`sb` with every privilege and the databases `sbtest` and `mysqlslap`.
//!
//! ## Nothing left behind
//!
//! Every child process (servers, sysbench, mariadb-slap) is spawned by one long-lived
//! thread with `PR_SET_PDEATHSIG = SIGKILL` (Linux sends it when the *thread* that forked
//! exits, hence the dedicated thread), in a process group of its own (a terminal's Ctrl-C
//! reaches only the bench, which then stops them in order). Each is registered in
//! [`LIVE`] until reaped. On SIGINT, SIGTERM or SIGHUP the bench kills every registered
//! process, removes every registered data directory and exits with 130. Dropping a
//! [`Server`] (normal end, error, panic) does the same for that server. Data directories
//! live under the report directory's `.servers/`, so even a `kill -9` of the bench leaves
//! nothing outside `--out` (its children die with it through the death signal).

use std::fs;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// Which server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Product {
    Quire,
    MariaDb,
}

impl Product {
    pub fn name(self) -> &'static str {
        match self {
            Product::Quire => "Quire",
            Product::MariaDb => "MariaDB",
        }
    }
}

/// Processes and directories to clean up on a signal.
#[derive(Default)]
struct Live {
    pids: Vec<u32>,
    dirs: Vec<PathBuf>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    pids: Vec::new(),
    dirs: Vec::new(),
});

fn live() -> std::sync::MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn forget_pid(pid: u32) {
    live().pids.retain(|&p| p != pid);
}

fn forget_dir(dir: &Path) {
    live().dirs.retain(|d| d != dir);
}

/// Registers a directory to remove if the bench is interrupted.
pub fn register_dir(dir: &Path) {
    live().dirs.push(dir.to_path_buf());
}

/// Set once `cleanup_all` has begun: no process starts after it.
static STOPPING: AtomicBool = AtomicBool::new(false);
/// Set by the signal handler before it cleans up and exits with status 130.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether a signal interrupted the bench (the handler thread is cleaning up and exits).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Kills every registered process and removes every registered directory; no process is
/// spawned after it.
pub fn cleanup_all() {
    let (pids, dirs) = {
        let mut l = live();
        STOPPING.store(true, Ordering::SeqCst);
        (std::mem::take(&mut l.pids), std::mem::take(&mut l.dirs))
    };
    for pid in &pids {
        // SAFETY: signalling a process group we created (pgid = pid) and the process.
        unsafe {
            libc::kill(-(*pid as i32), libc::SIGKILL);
            libc::kill(*pid as i32, libc::SIGKILL);
        }
    }
    for pid in &pids {
        let mut status = 0;
        // SAFETY: reaping our own child; it was killed above, so this returns promptly.
        unsafe { libc::waitpid(*pid as i32, &mut status, 0) };
    }
    for d in &dirs {
        let _ = fs::remove_dir_all(d);
    }
}

/// Installs the SIGINT/SIGTERM/SIGHUP handler: clean up, then exit with status 130.
pub fn install_signal_cleanup() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let _ = thread::Builder::new()
            .name("bench-signals".into())
            .spawn(|| {
                let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                    .enable_io()
                    .build()
                else {
                    return;
                };
                rt.block_on(async {
                    use tokio::signal::unix::{SignalKind, signal};
                    let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
                        signal(SignalKind::interrupt()),
                        signal(SignalKind::terminate()),
                        signal(SignalKind::hangup()),
                    ) else {
                        return;
                    };
                    tokio::select! {
                        _ = int.recv() => {}
                        _ = term.recv() => {}
                        _ = hup.recv() => {}
                    }
                    INTERRUPTED.store(true, Ordering::SeqCst);
                    eprintln!("\nquire bench: interrupted; stopping the servers it started");
                    cleanup_all();
                    std::process::exit(130);
                });
            });
    });
}

type SpawnRequest = (Command, mpsc::Sender<io::Result<Child>>);

/// Spawns `cmd` tied to this process (see the module doc) and registers it.
pub fn spawn(mut cmd: Command) -> io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<SpawnRequest>>> = OnceLock::new();
    let parent = std::process::id();
    // SAFETY: only async-signal-safe calls between fork and exec.
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
            if libc::getppid() as u32 != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
    cmd.process_group(0);
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnRequest>();
        // If this thread cannot start, every spawn reports it (the sender's receiver is
        // gone).
        let _ = thread::Builder::new()
            .name("bench-spawner".into())
            .spawn(move || {
                for (mut cmd, reply) in rx {
                    // Spawned and registered under the registry's lock, so that
                    // `cleanup_all` either sees the child or it never starts.
                    let mut l = live();
                    let r = if STOPPING.load(Ordering::SeqCst) {
                        Err(io::Error::other("the bench is stopping"))
                    } else {
                        cmd.spawn()
                    };
                    if let Ok(c) = &r {
                        l.pids.push(c.id());
                    }
                    drop(l);
                    let _ = reply.send(r);
                }
            });
        Mutex::new(tx)
    });
    let (reply_tx, reply_rx) = mpsc::channel();
    let gone = || io::Error::other("the bench's spawner thread is gone");
    spawner
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((cmd, reply_tx))
        .map_err(|_| gone())?;
    reply_rx.recv().map_err(|_| gone())?
}

/// Waits for a registered child and unregisters it.
pub fn wait(child: &mut Child) -> io::Result<std::process::ExitStatus> {
    let status = child.wait();
    forget_pid(child.id());
    status
}

/// Runs `cmd` to completion (tied and registered while it runs), with its output captured.
pub fn output(mut cmd: Command) -> io::Result<std::process::Output> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = spawn(cmd)?;
    let pid = child.id();
    let out = child.wait_with_output();
    forget_pid(pid);
    out
}

/// Finds a program on PATH, then in /usr/sbin, /usr/local/sbin and /usr/local/go/bin (Go's
/// own install location).
pub fn find_tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin", "/usr/local/go/bin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A server to start: the product, a label for the report and extra options.
#[derive(Clone, Debug)]
pub struct Spec {
    pub product: Product,
    pub options: Vec<String>,
}

impl Spec {
    pub fn new(product: Product, options: &[&str]) -> Spec {
        Spec {
            product,
            options: options.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// One running server. Stopped and its directory removed when dropped.
pub struct Server {
    pub product: Product,
    pub port: u16,
    pub version: String,
    /// The command line it was started with (for the report).
    pub command: String,
    dir: PathBuf,
    child: Option<Child>,
}

const START_TIMEOUT: Duration = Duration::from_secs(120);

/// Where to find MariaDB's programs.
#[derive(Clone, Debug)]
pub struct MariaDbTools {
    pub mariadbd: PathBuf,
    pub install_db: PathBuf,
}

impl MariaDbTools {
    /// The given `mariadbd` (or the one found), with `mariadb-install-db` beside it or on
    /// PATH. None when there is no MariaDB.
    pub fn find(mariadbd: Option<&Path>) -> Option<MariaDbTools> {
        let mariadbd = match mariadbd {
            Some(p) => p.to_path_buf(),
            None => find_tool("mariadbd")?,
        };
        if !mariadbd.is_file() {
            return None;
        }
        let beside = mariadbd
            .parent()
            .map(|d| d.join("mariadb-install-db"))
            .filter(|p| p.is_file());
        let install_db = beside.or_else(|| find_tool("mariadb-install-db"))?;
        Some(MariaDbTools {
            mariadbd,
            install_db,
        })
    }
}

fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn free_port() -> io::Result<u16> {
    let l = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(l.local_addr()?.port())
}

impl Server {
    /// Starts `spec` in a new directory `dir` (created; removed when the server is dropped).
    pub fn start(spec: &Spec, dir: &Path, maria: Option<&MariaDbTools>) -> Result<Server, String> {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        register_dir(dir);
        let mut server = Server {
            product: spec.product,
            port: 0,
            version: String::new(),
            command: String::new(),
            dir: dir.to_path_buf(),
            child: None,
        };
        let mut cmd = match spec.product {
            Product::Quire => server.quire_command()?,
            Product::MariaDb => {
                let tools = maria.ok_or("MariaDB is not installed")?;
                server.mariadb_command(tools, &spec.options)?
            }
        };
        cmd.args(&spec.options);
        server.command = format!("{cmd:?}").replace('"', "");
        let log = fs::File::create(server.log_path())
            .map_err(|e| format!("cannot create the server log: {e}"))?;
        let log2 = log
            .try_clone()
            .map_err(|e| format!("cannot create the server log: {e}"))?;
        cmd.stdin(Stdio::null()).stdout(log).stderr(log2);
        let child = spawn(cmd).map_err(|e| format!("cannot start {}: {e}", server.command))?;
        server.child = Some(child);
        server.port = server.wait_ready()?;
        server.setup()?;
        Ok(server)
    }

    fn log_path(&self) -> PathBuf {
        self.dir.join("server.log")
    }

    fn socket(&self) -> PathBuf {
        self.dir.join("mysql.sock")
    }

    fn quire_command(&mut self) -> Result<Command, String> {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find the quire executable: {e}"))?;
        let mut cmd = Command::new(exe);
        cmd.arg(format!("--datadir={}", self.dir.join("data").display()))
            .arg("--port=0")
            .arg("--bind-address=127.0.0.1")
            .arg(format!("--socket={}", self.socket().display()));
        Ok(cmd)
    }

    /// `options` are the configuration's own (added after these by the caller); a log file
    /// they name replaces the default one here.
    fn mariadb_command(
        &mut self,
        tools: &MariaDbTools,
        options: &[String],
    ) -> Result<Command, String> {
        let data = self.dir.join("data");
        let mut install = Command::new(&tools.install_db);
        install
            .arg("--no-defaults")
            .arg(format!("--datadir={}", data.display()))
            .arg("--auth-root-authentication-method=normal")
            .arg("--skip-test-db")
            .arg("--innodb-log-file-size=512M");
        if running_as_root() {
            install.arg("--user=root");
        }
        let out = output(install).map_err(|e| format!("mariadb-install-db: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "mariadb-install-db failed: {}",
                super::clients::last_lines(b"", &out.stderr, 3)
            ));
        }
        self.port = free_port().map_err(|e| format!("no free port: {e}"))?;
        let mut cmd = Command::new(&tools.mariadbd);
        cmd.arg("--no-defaults")
            .arg(format!("--datadir={}", data.display()))
            .arg(format!("--port={}", self.port))
            .arg("--bind-address=127.0.0.1")
            .arg(format!("--socket={}", self.socket().display()))
            .arg(format!(
                "--pid-file={}",
                self.dir.join("mariadbd.pid").display()
            ))
            .arg("--innodb-buffer-pool-size=2G")
            .arg("--innodb-log-file-size=512M")
            .arg("--innodb-flush-log-at-trx-commit=1")
            .arg("--max-connections=2000")
            .arg("--skip-name-resolve")
            .arg("--skip-log-bin")
            .arg("--performance-schema=OFF");
        for (option, file) in [
            ("--general-log-file=", "general.log"),
            ("--slow-query-log-file=", "slow.log"),
        ] {
            if !options.iter().any(|o| o.starts_with(option)) {
                cmd.arg(format!("{option}{}", self.dir.join(file).display()));
            }
        }
        if running_as_root() {
            cmd.arg("--user=root");
        }
        Ok(cmd)
    }

    /// Waits for the "ready for connections" line; returns the port.
    fn wait_ready(&mut self) -> Result<u16, String> {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let log = String::from_utf8_lossy(&fs::read(self.log_path()).unwrap_or_default())
                .into_owned();
            if let Some(pos) = log.find("ready for connections") {
                if self.product == Product::MariaDb {
                    return Ok(self.port);
                }
                let rest = &log[pos..];
                let port = rest
                    .split("port: ")
                    .nth(1)
                    .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|s| s.parse().ok());
                if let Some(port) = port {
                    return Ok(port);
                }
            }
            let exited = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten());
            if let Some(status) = exited {
                if let Some(c) = self.child.take() {
                    forget_pid(c.id());
                }
                return Err(format!(
                    "{} exited ({status}) before it was ready: {}",
                    self.product.name(),
                    log.lines().rev().take(5).collect::<Vec<_>>().join(" | ")
                ));
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "{} not ready within {START_TIMEOUT:?}",
                    self.product.name()
                ));
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// User sb/sb, databases sbtest and mysqlslap; the version.
    fn setup(&mut self) -> Result<(), String> {
        let opts = mysql::OptsBuilder::new()
            .ip_or_hostname(Some("127.0.0.1"))
            .tcp_port(self.port)
            .user(Some("root"))
            .prefer_socket(false);
        let opts = if self.product == Product::MariaDb {
            // root@localhost only: through the socket.
            opts.socket(Some(self.socket().display().to_string()))
                .prefer_socket(true)
        } else {
            opts
        };
        let mut c = mysql::Conn::new(opts).map_err(|e| format!("connect as root: {e}"))?;
        use mysql::prelude::Queryable;
        for sql in [
            "CREATE USER IF NOT EXISTS 'sb'@'%' IDENTIFIED BY 'sb'",
            "GRANT ALL ON *.* TO 'sb'@'%'",
            "CREATE DATABASE IF NOT EXISTS sbtest",
            "CREATE DATABASE IF NOT EXISTS mysqlslap",
        ] {
            c.query_drop(sql).map_err(|e| format!("{sql}: {e}"))?;
        }
        self.version = c
            .query_first::<String, _>("SELECT VERSION()")
            .map_err(|e| format!("SELECT VERSION(): {e}"))?
            .unwrap_or_default();
        Ok(())
    }

    /// A connection as sb.
    pub fn conn(&self) -> Result<mysql::Conn, String> {
        let opts = mysql::OptsBuilder::new()
            .ip_or_hostname(Some("127.0.0.1"))
            .tcp_port(self.port)
            .user(Some("sb"))
            .pass(Some("sb"))
            .prefer_socket(false);
        mysql::Conn::new(opts).map_err(|e| format!("connect to {}: {e}", self.product.name()))
    }

    /// Runs statements on a fresh connection.
    pub fn exec(&self, sqls: &[&str]) -> Result<(), String> {
        use mysql::prelude::Queryable;
        let mut c = self.conn()?;
        for sql in sqls {
            c.query_drop(sql).map_err(|e| format!("{sql}: {e}"))?;
        }
        Ok(())
    }

    /// A global status counter (0 when the server has no such counter).
    pub fn status(&self, name: &str) -> Result<f64, String> {
        use mysql::prelude::Queryable;
        let mut c = self.conn()?;
        let row: Option<(String, String)> = c
            .query_first(format!("SHOW GLOBAL STATUS LIKE '{name}'"))
            .map_err(|e| format!("SHOW GLOBAL STATUS: {e}"))?;
        Ok(row.and_then(|(_, v)| v.parse().ok()).unwrap_or(0.0))
    }

    /// The directory for files of this server (log files the configurations write).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Is the process still running?
    pub fn alive(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| matches!(c.try_wait(), Ok(None)))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // SAFETY: signalling our own child.
            unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
            let _ = wait(&mut child);
        }
        let _ = fs::remove_dir_all(&self.dir);
        forget_dir(&self.dir);
    }
}
