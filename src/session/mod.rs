//! Sessions: one client connection's state, and the statement loop that drives it.
//!
//! A session owns its [`Ctx`] — current database, system and user variables, the open
//! transaction, the diagnostics area, the snapshot slot it publishes for purge — and its
//! prepared statements. The connection loop ([`conn`]) reads commands from the wire and hands
//! them to [`run`], which parses (or finds the cached plan of) each statement, runs it inside
//! the right transaction, waits for locks when the executor asks to, and writes the result.
//!
//! What a session must never do: hold any shared lock across an `.await`, or block its runtime
//! thread on I/O. Row-lock waits, commit waits and the socket are all awaited.

pub mod conn;
pub mod run;

#[allow(unused_imports)]
use crate::config::VarScope;
use crate::config::{SessionVars, VarId, vars};
use crate::error::Diagnostics;
use crate::server::{KILL_CONNECTION, KILL_QUERY, Server, SessionShared};
use crate::sql::value::{DateTime, Value};
use crate::storage::table::ReadView;
use crate::storage::txn::{Isolation, SnapshotSlot, Txn};
use ahash::AHashMap;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// sql_mode bits Quire acts on (MySQL's values).
pub mod sql_mode {
    pub const ANSI_QUOTES: u64 = 4;
    pub const ONLY_FULL_GROUP_BY: u64 = 32;
    pub const NO_AUTO_VALUE_ON_ZERO: u64 = 0x80000;
    pub const NO_BACKSLASH_ESCAPES: u64 = 0x100000;
    pub const STRICT_TRANS_TABLES: u64 = 0x200000;
    pub const STRICT_ALL_TABLES: u64 = 0x400000;
    pub const PIPES_AS_CONCAT: u64 = 2;
}

/// A session's state as statements see it.
pub struct Ctx {
    pub server: Arc<Server>,
    pub shared: Arc<SessionShared>,
    pub conn_id: u32,
    pub user: String,
    pub host: String,
    /// The account matched at login (CURRENT_USER()).
    pub priv_user: String,
    pub priv_host: String,
    pub db: Option<String>,
    pub vars: SessionVars,
    pub user_vars: HashMap<String, Value>,
    pub txn: Option<Txn>,
    pub snapshot_slot: Arc<SnapshotSlot>,
    /// The read view of the statement being executed.
    pub stmt_view: ReadView,
    pub diag: Diagnostics,
    pub last_insert_id: u64,
    pub last_insert_id_set_explicitly: bool,
    pub found_rows: u64,
    /// ROW_COUNT() of the previous statement.
    pub prev_row_count: i64,
    pub client_found_rows: bool,
    /// Cached values of hot variables (kept in sync by SET).
    pub autocommit: bool,
    pub sql_mode: u64,
    pub isolation: Isolation,
    /// Isolation for the next transaction only (`SET TRANSACTION …` without scope).
    pub next_isolation: Option<Isolation>,
    pub next_read_only: Option<bool>,
    pub tx_read_only: bool,
    pub lock_wait_timeout_s: u64,
    /// Subquery results of the current statement.
    pub subquery_cache: AHashMap<usize, Value>,
    stmt_time: DateTime,
    stmt_unix_micros: i64,
}

impl Ctx {
    pub fn new(server: Arc<Server>, shared: Arc<SessionShared>) -> Ctx {
        let vars = SessionVars::new(&server.globals);
        let snapshot_slot = server.storage.txns.register_slot();
        let mut c = Ctx {
            conn_id: shared.id,
            server,
            shared,
            user: String::new(),
            host: String::new(),
            priv_user: String::new(),
            priv_host: String::new(),
            db: None,
            vars,
            user_vars: HashMap::new(),
            txn: None,
            snapshot_slot,
            stmt_view: ReadView { me: 0, snapshot: 0 },
            diag: Diagnostics::default(),
            last_insert_id: 0,
            last_insert_id_set_explicitly: false,
            found_rows: 0,
            prev_row_count: -1,
            client_found_rows: false,
            autocommit: true,
            sql_mode: 0,
            isolation: Isolation::RepeatableRead,
            next_isolation: None,
            next_read_only: None,
            tx_read_only: false,
            lock_wait_timeout_s: 50,
            subquery_cache: AHashMap::new(),
            stmt_time: DateTime::ZERO,
            stmt_unix_micros: 0,
        };
        c.refresh_cached_vars();
        c
    }

    /// Re-read the cached copies of hot variables after a SET.
    pub fn refresh_cached_vars(&mut self) {
        self.autocommit = self.vars.get_bool(vars::AUTOCOMMIT);
        self.sql_mode = self.vars.sql_mode().bits();
        self.isolation =
            Isolation::from_name(self.vars.isolation().name()).unwrap_or(Isolation::RepeatableRead);
        self.tx_read_only = self.vars.get_bool(vars::TRANSACTION_READ_ONLY);
        self.lock_wait_timeout_s = self.vars.get_u64(vars::INNODB_LOCK_WAIT_TIMEOUT);
        self.shared.wait_timeout_s.store(
            self.vars.get_u64(vars::WAIT_TIMEOUT),
            std::sync::atomic::Ordering::Relaxed,
        );
        let max = self.vars.get_u64(vars::MAX_ERROR_COUNT).min(65535) as u32;
        self.diag.max_kept = max;
    }

    pub fn strict(&self) -> bool {
        self.sql_mode & (sql_mode::STRICT_TRANS_TABLES | sql_mode::STRICT_ALL_TABLES) != 0
    }

    pub fn no_auto_value_on_zero(&self) -> bool {
        self.sql_mode & sql_mode::NO_AUTO_VALUE_ON_ZERO != 0
    }

    pub fn no_backslash_escapes(&self) -> bool {
        self.sql_mode & sql_mode::NO_BACKSLASH_ESCAPES != 0
    }

    pub fn ansi_quotes(&self) -> bool {
        self.sql_mode & sql_mode::ANSI_QUOTES != 0
    }

    /// Fix the statement's time (NOW() is constant within a statement).
    pub fn start_statement_clock(&mut self) {
        let now = chrono::Local::now();
        self.stmt_unix_micros = now.timestamp_micros();
        let naive = now.naive_local();
        use chrono::{Datelike, Timelike};
        self.stmt_time = DateTime {
            year: naive.year().clamp(0, 9999) as u16,
            month: naive.month() as u8,
            day: naive.day() as u8,
            hour: naive.hour() as u8,
            minute: naive.minute() as u8,
            second: naive.second() as u8,
            micro: (naive.nanosecond() / 1000).min(999_999),
        };
    }

    pub fn stmt_time(&self) -> DateTime {
        self.stmt_time
    }

    pub fn stmt_unix_micros(&self) -> i64 {
        self.stmt_unix_micros
    }

    /// KILL QUERY or KILL CONNECTION issued for this session?
    pub fn is_killed(&self) -> bool {
        self.shared.killed.load(Ordering::Relaxed) != 0
    }

    pub fn kill_level(&self) -> u8 {
        self.shared.killed.load(Ordering::Relaxed)
    }

    pub fn clear_kill_query(&self) {
        let _ = self.shared.killed.compare_exchange(
            KILL_QUERY,
            0,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    pub fn connection_killed(&self) -> bool {
        self.shared.killed.load(Ordering::Relaxed) == KILL_CONNECTION
    }

    /// `@@x` / `@@session.x` / `@@global.x` as SELECT sees it.
    pub fn sysvar_value(
        &self,
        id: VarId,
        scope: Option<crate::config::VarScope>,
    ) -> crate::error::Result<Value> {
        use crate::config::sysvars;
        if id == vars::LAST_INSERT_ID {
            return Ok(Value::UInt(self.last_insert_id));
        }
        if id == vars::WARNING_COUNT {
            return Ok(Value::UInt(self.diag.total as u64));
        }
        if id == vars::ERROR_COUNT {
            let n = self
                .diag
                .list
                .iter()
                .filter(|w| w.level == crate::error::Level::Error)
                .count();
            return Ok(Value::UInt(n as u64));
        }
        sysvars::read_var(&self.server.globals, &self.vars, id, scope)
    }

    /// The transaction isolation a new transaction gets.
    pub fn isolation_for_new_txn(&mut self) -> Isolation {
        self.next_isolation.take().unwrap_or(self.isolation)
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        if let Some(txn) = self.txn.take() {
            self.server.storage.rollback(txn);
        }
        self.snapshot_slot.clear();
        self.server.unregister_session(self.conn_id);
    }
}
