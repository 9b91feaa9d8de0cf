//! Sessions: one client connection's state, and the statement loop that drives it.
//!
//! A session owns its [`Ctx`] — current database, system and user variables, the open
//! transaction, the diagnostics area, the snapshot slot it publishes for purge — and its
//! prepared statements. The connection loop ([`conn`]) reads commands from the wire and hands
//! them to [`run`], which parses (or finds the cached plan of) each statement, runs it inside
//! the right transaction, waits for locks when the executor asks to, and writes the result.
//!
//! What a session must never do: hold any shared lock across an `.await`, or block its runtime
//! thread on I/O outside [`threads::blocking`]. Row-lock waits, commit waits and the socket
//! are all awaited.

pub mod commit;
pub mod conn;
pub mod logging;
pub mod profile;
pub mod run;
pub mod threads;

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

/// How much of `log_buf` is fetched ahead: a slow-log or audit entry of a short statement
/// is about 250 bytes.
const LOG_ENTRY_BYTES: usize = 320;

/// sql_mode bits Quire acts on (MySQL's values).
pub mod sql_mode {
    pub const ANSI_QUOTES: u64 = 4;
    pub const ONLY_FULL_GROUP_BY: u64 = 32;
    pub const NO_AUTO_VALUE_ON_ZERO: u64 = 0x80000;
    pub const NO_BACKSLASH_ESCAPES: u64 = 0x100000;
    pub const STRICT_TRANS_TABLES: u64 = 0x200000;
    pub const STRICT_ALL_TABLES: u64 = 0x400000;
    pub const NO_ZERO_IN_DATE: u64 = 0x80_0000;
    pub const NO_ZERO_DATE: u64 = 0x100_0000;
    pub const ERROR_FOR_DIVISION_BY_ZERO: u64 = 0x400_0000;
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
    /// A commit left for the connection to hand to the journal (see `commit::commit_last`).
    pub deferred: Option<commit::Deferred>,
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
    /// `collation_connection` (string literals take it).
    pub conn_coll: crate::sql::types::Collation,
    /// Subquery results of the current statement.
    pub subquery_cache: AHashMap<usize, Value>,
    /// Uncorrelated IN-subquery value sets of the current statement.
    pub subquery_sets: AHashMap<usize, Arc<[Value]>>,
    /// The enclosing rows of the correlated subqueries being evaluated (innermost last).
    pub outer_rows: Vec<Vec<crate::sql::value::Row>>,
    /// `time_zone` as a fixed offset from UTC, or None for SYSTEM.
    time_zone_fixed_s: Option<i32>,
    /// The session time zone's offset at the statement's start (seconds east of UTC).
    pub tz_offset_s: i32,
    /// `div_precision_increment`.
    pub div_precision_increment: u32,
    stmt_time: DateTime,
    /// The last statement clock's second (unix seconds, the fixed zone it was taken with,
    /// the offset, the broken-down time but for microseconds): statements in the same
    /// second reuse the zone lookup and the calendar arithmetic.
    clock_second: Option<(i64, Option<i32>, i32, DateTime)>,
    stmt_unix_micros: i64,
    /// Session settings the binary log records.
    pub binlog: commit::BinlogSession,
    /// The text of the statement being run when it is not a cached plan (DDL is logged
    /// as its text).
    pub stmt_text: String,
    /// What the statement being run has done so far, for the logs (see `observe`).
    pub rec: crate::observe::StmtRecord,
    /// The digest row the statement being run adds to (none: digests off, or not known).
    pub stmt_digest: crate::observe::digest::Current,
    /// Where the session's next history entry goes (see `History::next_hint`).
    pub history_hint: Option<[(usize, usize); 3]>,
    /// This session's digest rows, by schema and digest text.
    pub digest_cache: crate::observe::digest::SessionCache,
    /// The plans of the text statements this session has run (in front of the shared cache).
    pub plans: crate::sql::cache::SessionPlans,
    /// `profiling`, `profiling_history_size` (cached), and the profiles (see `profile`).
    pub profiling: bool,
    pub profiling_keep: usize,
    /// `sql_log_off` (cached: the general log reads it for every command, and the variable's
    /// slot is a cache miss by then).
    pub sql_log_off: bool,
    pub profiler: profile::Profiler,
    /// The session's slow-log settings (cached from its variables).
    pub slow: crate::observe::slow::SlowSettings,
    /// The client's IP address (empty over the Unix socket).
    pub ip: String,
    /// The slow log's `# User@Host:` line for this session (set at login).
    pub log_user_host: String,
    /// Where the session formats its log entries.
    pub log_buf: Vec<u8>,
    /// The time (Unix ns) of the last entry this session handed to a log: the next one gets
    /// a greater one, so that the logs keep one session's entries in its order
    /// (`Ctx::log_time`).
    pub log_time: u64,
    /// Where an execution's text with its values is built for the logs (see
    /// `logging::LogText`).
    pub text_buf: Vec<u8>,
    /// The last statement went to the slow or audit log: the next one likely will too, so
    /// `log_buf` is fetched into the cache when it starts (see `observe::prefetch`).
    pub log_buf_prefetch: bool,
    /// The audit log's account-filter generation this session last decided for (None:
    /// not yet), and the decision.
    pub audit_generation: Option<u64>,
    pub audit_admitted: bool,
    /// The fields this session's audit records share (`audit::Head`), written when the
    /// decision above is made.
    pub audit_head: crate::observe::audit::Head,
    /// This session's temporary tables (few: found by a scan). They shadow tables of the
    /// same name for this session only; see [`Ctx::temp_table`].
    pub temp_tables: Vec<Arc<crate::storage::table::Table>>,
    /// What a DDL statement journals instead of its own text: `Some(None)` nothing (it only
    /// touched temporary tables), `Some(Some(text))` that text. Taken after each DDL.
    pub journal_as: Option<Option<String>>,
    /// Set while a view's SELECT is planned: naming a temporary table is then 1352.
    pub refuse_temp_tables: bool,
}

/// `+HH:MM` / `-HH:MM` as seconds east of UTC; None for `SYSTEM` (and anything else, which
/// the variable's validation has already refused).
fn parse_tz_offset(tz: &str) -> Option<i32> {
    let (sign, rest) = match tz.as_bytes().first()? {
        b'+' => (1, &tz[1..]),
        b'-' => (-1, &tz[1..]),
        _ => return None,
    };
    let (h, m) = rest.split_once(':')?;
    let (h, m): (i32, i32) = (h.trim().parse().ok()?, m.trim().parse().ok()?);
    Some(sign * (h * 3600 + m * 60))
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
            deferred: None,
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
            conn_coll: crate::sql::types::Collation::DEFAULT,
            subquery_cache: AHashMap::new(),
            subquery_sets: AHashMap::new(),
            outer_rows: Vec::new(),
            time_zone_fixed_s: None,
            tz_offset_s: 0,
            div_precision_increment: 4,
            stmt_time: DateTime::ZERO,
            clock_second: None,
            stmt_unix_micros: 0,
            binlog: commit::BinlogSession::default(),
            stmt_text: String::new(),
            rec: crate::observe::StmtRecord::default(),
            stmt_digest: crate::observe::digest::Current::default(),
            history_hint: None,
            digest_cache: crate::observe::digest::SessionCache::default(),
            plans: crate::sql::cache::SessionPlans::default(),
            profiling: false,
            profiling_keep: 15,
            sql_log_off: false,
            profiler: profile::Profiler::default(),
            slow: crate::observe::slow::SlowSettings::default(),
            ip: String::new(),
            log_user_host: String::new(),
            log_buf: Vec::new(),
            log_time: 0,
            text_buf: Vec::new(),
            log_buf_prefetch: false,
            audit_generation: None,
            audit_admitted: false,
            audit_head: Default::default(),
            temp_tables: Vec::new(),
            journal_as: None,
            refuse_temp_tables: false,
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
        self.conn_coll =
            crate::sql::types::Collation::from_name(self.vars.get_str(vars::COLLATION_CONNECTION))
                .unwrap_or(crate::sql::types::Collation::DEFAULT);
        self.shared.wait_timeout_s.store(
            self.vars.get_u64(vars::WAIT_TIMEOUT),
            std::sync::atomic::Ordering::Relaxed,
        );
        self.time_zone_fixed_s = parse_tz_offset(self.vars.get_str(vars::TIME_ZONE));
        self.div_precision_increment =
            self.vars.get_u64(vars::DIV_PRECISION_INCREMENT).min(30) as u32;
        let max = self.vars.get_u64(vars::MAX_ERROR_COUNT).min(65535) as u32;
        self.diag.max_kept = max;
        self.binlog = commit::BinlogSession::from_vars(&self.vars);
        self.profiling = self.vars.get_bool(vars::PROFILING);
        self.profiling_keep = self.vars.get_u64(vars::PROFILING_HISTORY_SIZE) as usize;
        self.sql_log_off = self.vars.get_bool(vars::SQL_LOG_OFF);
        let us = |v: f64| (v * 1e6).round() as u64;
        self.slow = crate::observe::slow::SlowSettings {
            session_on: self.vars.get_bool(vars::SLOW_QUERY_LOG),
            long_query_us: us(self.vars.get_f64(vars::LONG_QUERY_TIME)),
            min_examined_row_limit: self.vars.get_u64(vars::MIN_EXAMINED_ROW_LIMIT),
            rate_limit: self.vars.get_u64(vars::LOG_SLOW_RATE_LIMIT).max(1),
            always_us: us(self.vars.get_f64(vars::LOG_SLOW_ALWAYS_QUERY_TIME)),
        };
    }

    /// The session settings plans depend on, as a plan-cache key part.
    pub fn plan_flavor(&self) -> u32 {
        let ofgb = (self.sql_mode & sql_mode::ONLY_FULL_GROUP_BY != 0) as u32;
        // A division's result type has div_precision_increment more digits (at most 30).
        u32::from(self.conn_coll.id()) | ofgb << 16 | self.div_precision_increment << 17
    }

    /// The session's `time_zone`, for TIMESTAMP columns (see `sql::temporal::Zone`).
    pub fn zone(&self) -> crate::sql::temporal::Zone {
        match self.time_zone_fixed_s {
            Some(s) => crate::sql::temporal::Zone::Fixed(s),
            None => crate::sql::temporal::Zone::System,
        }
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

    /// Opens the statement record (and the statement's profile, when profiling is on).
    pub fn begin_record(&mut self, bytes_received: u64) {
        self.rec.begin(bytes_received);
        self.stmt_digest.clear();
        for (addr, bytes) in self.history_hint.into_iter().flatten() {
            crate::observe::prefetch(addr, bytes);
        }
        if self.log_buf_prefetch {
            crate::observe::prefetch(self.log_buf.as_ptr() as usize, LOG_ENTRY_BYTES);
            // What the entries copy from this session: its records' shared fields (audit
            // log) and its `# User@Host:` line (slow log). Among 64 sessions on one core
            // they are cold by the next statement: copying the account's JSON was 0.7 % of
            // the server's CPU with every statement audited.
            let head = self.audit_head.json();
            crate::observe::prefetch(head.as_ptr() as usize, head.len());
            crate::observe::prefetch(
                self.log_user_host.as_ptr() as usize,
                self.log_user_host.len(),
            );
            self.server.logs.prefetch_entries(LOG_ENTRY_BYTES);
        }
        if self.profiling {
            self.profiler.begin(self.rec.start_ns);
        }
    }

    /// The statement enters `stage` (recorded only while it is profiled).
    #[track_caller]
    pub fn stage(&mut self, stage: profile::Stage) {
        self.profiler.mark(stage);
    }

    /// Closes the statement's profile (after its record went to the logs): kept unless it
    /// is a SHOW PROFILE or SHOW PROFILES.
    pub fn end_profile(&mut self, query: &str) {
        if self.profiler.current.is_none() {
            return;
        }
        self.stage(profile::Stage::CleaningUp);
        let mut words = query.split_whitespace();
        let show_profile = words.next().is_some_and(|w| w.eq_ignore_ascii_case("SHOW"))
            && words.next().is_some_and(|w| {
                w.eq_ignore_ascii_case("PROFILE") || w.eq_ignore_ascii_case("PROFILES")
            });
        let end = crate::observe::now_ns();
        self.profiler
            .end(end, query.as_bytes(), !show_profile, self.profiling_keep);
    }

    /// Per-statement state: the clock, subquery caches.
    pub fn begin_statement(&mut self) {
        self.start_statement_clock();
        self.subquery_cache.clear();
        self.subquery_sets.clear();
        self.outer_rows.clear();
        self.last_insert_id_set_explicitly = false;
    }

    /// Fix the statement's time (NOW() is constant within a statement).
    pub fn start_statement_clock(&mut self) {
        use chrono::Offset;
        let now = chrono::Utc::now();
        self.stmt_unix_micros = now.timestamp_micros();
        let micro = (now.timestamp_subsec_nanos() / 1000).min(999_999);
        if let Some((sec, fixed, offset, t)) = self.clock_second
            && sec == now.timestamp()
            && fixed == self.time_zone_fixed_s
        {
            self.tz_offset_s = offset;
            self.stmt_time = DateTime { micro, ..t };
            return;
        }
        self.tz_offset_s = match self.time_zone_fixed_s {
            Some(s) => s,
            None => now
                .with_timezone(&chrono::Local)
                .offset()
                .fix()
                .local_minus_utc(),
        };
        let naive = now.naive_utc() + chrono::TimeDelta::seconds(i64::from(self.tz_offset_s));
        use chrono::{Datelike, Timelike};
        self.stmt_time = DateTime {
            year: naive.year().clamp(0, 9999) as u16,
            month: naive.month() as u8,
            day: naive.day() as u8,
            hour: naive.hour() as u8,
            minute: naive.minute() as u8,
            second: naive.second() as u8,
            micro,
        };
        self.clock_second = Some((
            now.timestamp(),
            self.time_zone_fixed_s,
            self.tz_offset_s,
            self.stmt_time,
        ));
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

impl Ctx {
    /// The session's temporary table `db`.`name`, if any.
    pub fn temp_table(&self, db: &str, name: &str) -> Option<Arc<crate::storage::table::Table>> {
        if self.temp_tables.is_empty() {
            return None;
        }
        self.temp_tables
            .iter()
            .find(|t| t.def.db == db && t.def.name == name)
            .cloned()
    }

    /// Drop every temporary table (disconnect, COM_RESET_CONNECTION, COM_CHANGE_USER).
    pub fn drop_temp_tables(&mut self) {
        for t in self.temp_tables.drain(..) {
            t.dropped.store(true, std::sync::atomic::Ordering::Release);
        }
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        if let Some(txn) = self.txn.take() {
            self.server.storage.rollback(txn);
        }
        if let Some(d) = self.deferred.take() {
            self.server.storage.rollback(d.txn);
        }
        self.snapshot_slot.clear();
        self.drop_temp_tables();
        self.server.unregister_session(self.conn_id);
    }
}
