//! The server: state shared by all sessions.
//!
//! Holds the storage engine, the global system variables, the plan cache, user accounts, the
//! registry of live sessions (for SHOW PROCESSLIST and KILL) and global status counters.
//! Nothing here is locked on a statement's hot path except reads of small structures.

use crate::config::GlobalVars;
use crate::sql::cache::PlanCache;
use crate::storage::Storage;
use parking_lot::{Mutex, RwLock};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// A user account: `user@host` pattern, default plugin, password hashes (see
/// [`crate::wire::auth`] for what is stored and why).
pub type Account = crate::wire::auth::AccountAuth;

/// An account with this password (empty: none).
pub fn account(
    user: &str,
    host: &str,
    plugin: crate::wire::auth::AuthPlugin,
    password: &[u8],
) -> Account {
    Account {
        user: user.to_string(),
        host: host.to_string(),
        plugin,
        credentials: crate::wire::auth::credentials_from_password(password),
    }
}

/// What another session can see of a session (processlist) and do to it (KILL).
pub struct SessionShared {
    pub id: u32,
    pub user: Mutex<String>,
    pub host: String,
    pub db: Mutex<Option<String>>,
    /// What it is doing (one lock for the fields a command changes: taken three times a
    /// command, at its start, when its statement is known, and at its end).
    pub activity: Mutex<Activity>,
    /// The session's `wait_timeout` in seconds (kept current by the session).
    pub wait_timeout_s: AtomicU64,
    /// 0: not killed; 1: KILL QUERY; 2: KILL CONNECTION.
    pub killed: AtomicU8,
    /// Woken (notify_waiters) by any KILL: interrupts lock waits and sleeps.
    pub kill_notify: tokio::sync::Notify,
    /// Woken (notify_waiters) by KILL CONNECTION and idle timeouts: ends the read loop.
    pub kill_conn_notify: tokio::sync::Notify,
    /// The socket of a session whose thread waits for commands in recv(2) (see
    /// `session::threads`): KILL CONNECTION shuts its reading side down to end that wait.
    /// Cleared when the session ends, so the socket closes with the session.
    pub socket: Mutex<Option<Arc<std::os::fd::OwnedFd>>>,
    /// Its last statements (`performance_schema.events_statements_history`).
    pub history: crate::observe::history::Locked,
    /// Its status counters (`SHOW SESSION STATUS`; see `observe::status`).
    pub status: crate::observe::status::SessionStatus,
}

/// A session's command as the process list shows it (readers clone it out of the lock).
#[derive(Clone)]
pub struct Activity {
    /// `Connect` while logging in, `Sleep` between commands, else the command's name.
    pub command: &'static str,
    /// When the current command started, or the session went idle (the Time column,
    /// and `wait_timeout`).
    pub since: Instant,
    /// The statement being executed (SHOW PROCESSLIST's Info).
    pub info: Option<Arc<str>>,
    pub state: &'static str,
}

impl Activity {
    /// Starts `command` now (`Sleep`: the session goes idle).
    pub fn enter(&mut self, command: &'static str) {
        self.command = command;
        self.since = Instant::now();
    }

    /// Running a command (not idle, not still logging in), as MySQL counts
    /// `Threads_running`.
    pub fn running(&self) -> bool {
        !matches!(self.command, "Sleep" | "Connect")
    }
}

impl SessionShared {
    /// KILL [QUERY|CONNECTION] this session.
    pub fn kill(&self, level: u8) {
        self.killed.fetch_max(level, Ordering::Relaxed);
        self.kill_notify.notify_waiters();
        if level == KILL_CONNECTION {
            self.kill_conn_notify.notify_waiters();
            if let Some(fd) = self.socket.lock().as_ref() {
                // SAFETY: shutdown(2) on a descriptor kept open by the Arc we hold (the lock
                // keeps it from being dropped meanwhile). Only the reading side: the session
                // may still write its last answer.
                unsafe { libc::shutdown(std::os::fd::AsRawFd::as_raw_fd(&**fd), libc::SHUT_RD) };
            }
        }
    }
}

pub const KILL_QUERY: u8 = 1;
pub const KILL_CONNECTION: u8 = 2;

/// `SHOW GLOBAL STATUS` counters kept only globally (all rare). Those bumped by statements
/// and packets are per session (`SessionShared::status`); `retired` holds those of ended
/// sessions (see `observe::status`).
#[derive(Default)]
pub struct Status {
    pub connections: AtomicU64,
    pub aborted_connects: AtomicU64,
    pub aborted_clients: AtomicU64,
    pub threads_created: AtomicU64,
    pub retired: crate::observe::status::Retired,
}

pub struct Server {
    pub storage: Arc<Storage>,
    pub globals: GlobalVars,
    pub plans: PlanCache,
    pub accounts: RwLock<Vec<Account>>,
    pub sessions: Mutex<HashMap<u32, Arc<SessionShared>>>,
    /// How many sessions are registered (`sessions.len()` without its lock): whether a
    /// session may spin for its client's next command (`session::conn`).
    pub connected: AtomicUsize,
    pub next_conn_id: AtomicU32,
    pub version: String,
    pub started: Instant,
    pub status: Status,
    /// Connection threads and their cache (`thread_handling=one-thread-per-connection`).
    pub conn_threads: Arc<crate::session::threads::ConnThreads>,
    /// The journal, once recovery has replayed it (unset: commits stay in memory).
    pub journal: std::sync::OnceLock<Arc<crate::journal::writer::Journal>>,
    /// DDL holds this shared from its catalog change until its journal entry is queued; a
    /// checkpoint takes it exclusively for its cut (see `journal::checkpoint`).
    pub ddl_gate: tokio::sync::RwLock<()>,
    pub checkpoints: std::sync::OnceLock<Arc<crate::journal::checkpoint::Checkpoints>>,
    /// Where the accounts are saved (`journal::accounts`; unset: not saved), and the lock
    /// that orders the saves.
    pub accounts_dir: std::sync::OnceLock<std::path::PathBuf>,
    accounts_saving: Mutex<()>,
    /// The slow and general query logs.
    pub logs: crate::observe::QueryLogs,
    /// `performance_schema.events_statements_summary_by_digest`.
    pub digests: crate::observe::digest::Digests,
}

impl Server {
    pub fn new(storage: Arc<Storage>, globals: GlobalVars, version: String) -> Server {
        let digests = crate::observe::digest::Digests::new(&globals);
        Server {
            storage,
            globals,
            plans: PlanCache::new(),
            accounts: RwLock::new(vec![account(
                "root",
                "localhost",
                crate::wire::auth::AuthPlugin::NativePassword,
                b"",
            )]),
            sessions: Mutex::new(HashMap::new()),
            connected: AtomicUsize::new(0),
            next_conn_id: AtomicU32::new(1),
            version,
            started: Instant::now(),
            status: Status::default(),
            conn_threads: Arc::default(),
            journal: std::sync::OnceLock::new(),
            ddl_gate: tokio::sync::RwLock::new(()),
            checkpoints: std::sync::OnceLock::new(),
            accounts_dir: std::sync::OnceLock::new(),
            accounts_saving: Mutex::new(()),
            logs: crate::observe::QueryLogs::new(),
            digests,
        }
    }

    /// Save the accounts as they are now (after an account statement, before its reply).
    pub fn save_accounts(&self) -> Result<(), crate::error::MyError> {
        let Some(dir) = self.accounts_dir.get() else {
            return Ok(());
        };
        // Saves one at a time, each of the accounts as they are once it holds the lock:
        // the last save has the last change.
        let _one = self.accounts_saving.lock();
        let list = self.accounts.read().clone();
        crate::journal::accounts::save(dir, &list).map_err(|e| {
            crate::error::MyError::new(
                crate::error::code::ER_ERROR_ON_WRITE,
                crate::journal::writer::io_error(
                    "Error writing file",
                    &dir.join(crate::journal::accounts::FILE),
                    &e,
                ),
            )
        })
    }

    /// Accounts a login as `user` may match (the wire layer picks by host).
    pub fn accounts_named(&self, user: &str) -> Vec<Account> {
        self.accounts
            .read()
            .iter()
            .filter(|a| a.user == user || a.user.is_empty())
            .cloned()
            .collect()
    }

    pub fn register_session(&self, host: String) -> Arc<SessionShared> {
        let id = self.next_conn_id.fetch_add(1, Ordering::Relaxed);
        let s = Arc::new(SessionShared {
            id,
            user: Mutex::new(String::new()),
            host,
            db: Mutex::new(None),
            activity: Mutex::new(Activity {
                command: "Connect",
                since: Instant::now(),
                info: None,
                state: "",
            }),
            wait_timeout_s: AtomicU64::new(28_800),
            killed: AtomicU8::new(0),
            kill_notify: tokio::sync::Notify::new(),
            kill_conn_notify: tokio::sync::Notify::new(),
            socket: Mutex::new(None),
            history: Default::default(),
            status: Default::default(),
        });
        if self.sessions.lock().insert(id, s.clone()).is_none() {
            self.connected.fetch_add(1, Ordering::Relaxed);
        }
        s
    }

    pub fn unregister_session(&self, id: u32) {
        let gone = self.sessions.lock().remove(&id);
        if let Some(s) = gone {
            self.connected.fetch_sub(1, Ordering::Relaxed);
            self.status.retired.take(&s.status, false);
        }
    }

    /// Global values of the per-session status counters (see `observe::status`).
    pub fn global_status(&self) -> Vec<u64> {
        let live: Vec<Arc<SessionShared>> = self.sessions.lock().values().cloned().collect();
        self.status.retired.totals(live.iter().map(|s| &s.status))
    }

    pub fn session(&self, id: u32) -> Option<Arc<SessionShared>> {
        self.sessions.lock().get(&id).cloned()
    }

    /// Close sessions idle for longer than their `wait_timeout` (checked once a second by
    /// [`Server::spawn_idle_reaper`] rather than by a timer per command read).
    pub fn reap_idle(&self) {
        let sessions: Vec<Arc<SessionShared>> = self.sessions.lock().values().cloned().collect();
        for s in sessions {
            let (idle, since) = {
                let a = s.activity.lock();
                (a.command == "Sleep", a.since.elapsed().as_secs())
            };
            if idle && since >= s.wait_timeout_s.load(Ordering::Relaxed) {
                s.kill(KILL_CONNECTION);
            }
        }
    }

    pub fn spawn_idle_reaper(self: &Arc<Self>) {
        let server = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
            loop {
                tick.tick().await;
                match server.upgrade() {
                    Some(s) => s.reap_idle(),
                    None => return,
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connected_counts_registered_sessions() {
        let server = Server::new(
            Arc::new(Storage::new()),
            GlobalVars::new(),
            "test".to_string(),
        );
        let a = server.register_session("h".to_string());
        let b = server.register_session("h".to_string());
        assert_eq!(server.connected.load(Ordering::Relaxed), 2);
        server.unregister_session(a.id);
        // A second unregistration of the same session does not count it twice.
        server.unregister_session(a.id);
        assert_eq!(server.connected.load(Ordering::Relaxed), 1);
        server.unregister_session(b.id);
        assert_eq!(server.connected.load(Ordering::Relaxed), 0);
        assert!(server.sessions.lock().is_empty());
    }
}
