//! Observe: what the server writes down about the statements it runs — the slow query log,
//! the general query log and the audit log (and status counters).
//!
//! # One record per statement
//!
//! Running a statement fills one [`StmtRecord`] in its session (start time, lock wait, rows
//! examined/sent/affected, error, bytes): a few timestamps and counters, no second code
//! path. When the statement ends, each log that wants it is a *view* of that record: the
//! session formats the entry itself, in its own buffer, outside any lock
//! ([`slow::format`], [`general::format`]), and hands the finished bytes to the log's
//! [`sink::Sink`] — a bounded buffer emptied by one writer thread per log, in batches. So
//! logging every query costs a few hundred bytes of formatting and one short critical
//! section (a `memcpy`), never a `write(2)` in the session and never a lock held while
//! formatting (MySQL and MariaDB take one mutex per entry and format and write under it).
//!
//! # What must never happen here
//!
//! - A statement never fails, and never waits on the disk, because a log cannot be written:
//!   the writer reports it (error log, status) and logging resumes when it can (see
//!   [`sink`]'s failure model). It may wait for room in a full buffer (the lossless
//!   default, counted) — that is the bound on memory.
//! - Nothing is formatted under a shared lock.
//!
//! # Settings
//!
//! All switches are dynamic. `SET GLOBAL` calls [`QueryLogs::configure`], which copies what
//! each statement reads into atomics here (no lock per statement) and points the sinks at
//! new file names; per-session settings (`long_query_time`, `min_examined_row_limit`, …)
//! are cached in the session. `log_output` decides where entries go: `FILE` (the default),
//! `TABLE` (the tables `mysql.slow_log` and `mysql.general_log`, see [`logtable`]), both,
//! or `NONE` (which wins over the others, as in MySQL).
//!
//! # Files and rotation
//!
//! `FLUSH LOGS`, `FLUSH SLOW LOGS`, `FLUSH GENERAL LOGS` and SIGHUP reopen the files in their
//! writer threads (logrotate's rename-then-signal works); `FLUSH` returns once every entry
//! logged before it is in the old file. `max_slowlog_size`/`max_slowlog_files` and
//! `max_general_log_size`/`max_general_log_files` rotate by size.
//!
//! # Parts
//!
//! - [`sink`]: a log file and its writer thread: hand-over, batching, reopen, rotation,
//!   failure handling.
//! - [`slow`]: the slow query log: which statements, and MySQL 8.0's entry format.
//! - [`general`]: the general query log: MySQL 8.0's line format.
//! - [`logtable`]: `log_output=TABLE`: rows of `mysql.slow_log` and `mysql.general_log`.
//! - [`audit`]: the audit log: JSON lines, policy, account lists, strategies, the hash
//!   chain and `quire audit-verify`.
//! - [`digest`], [`history`], [`setup`]: the performance_schema statement tables and what
//!   collects them; [`status`]: the status counters.
//!
//! The audit log is always a file (`log_output` is about the two query logs), has no header
//! lines, its own buffer size (`audit_log_buffer_size`) and a full-buffer rule set by its
//! strategy; FLUSH LOGS and SIGHUP reopen it with the others.

pub mod audit;
pub mod digest;
pub mod general;
pub mod history;
pub mod logtable;
pub mod percpu;
pub mod setup;
pub mod sink;
pub mod slow;
pub mod status;

use crate::config::{GlobalVars, vars};
use parking_lot::Mutex;
use sink::{Full, Header, Sink};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// What a statement's run leaves for the logs: filled by the session as it goes, read when
/// the statement ends.
#[derive(Clone, Debug, Default)]
pub struct StmtRecord {
    /// Unix time in microseconds when the statement began (before parsing).
    pub start_us: i64,
    /// The same in nanoseconds (the digest table's timer).
    pub start_ns: i64,
    /// When it ended, Unix ns (set when the record is closed).
    pub end_ns: i64,
    /// Time spent waiting for row locks.
    pub lock_wait_us: u64,
    pub rows_examined: u64,
    pub rows_sent: u64,
    pub rows_affected: u64,
    /// The error the statement ended with (0: none).
    pub errno: u16,
    /// A table was read without an index (full scan), for
    /// `log_queries_not_using_indexes`.
    pub no_index_used: bool,
    /// The statement is an administrative one (`ALTER TABLE`, `ANALYZE`, `OPTIMIZE`, …),
    /// logged as slow only with `log_slow_admin_statements`.
    pub admin: bool,
    pub bytes_received: u64,
    pub bytes_sent: u64,
    /// What the statement is (the audit record's `command_class`).
    pub kind: crate::sql::lexer::StatementKind,
    /// A prepared statement's execution (`COM_STMT_EXECUTE`), not a `COM_QUERY`.
    pub prepared: bool,
    /// Its `Com_*` counter, which is also its instrument (see [`setup`]); `None` until
    /// it is classified.
    pub com: Option<status::Stat>,
    /// Its handler calls (`Handler_read_*`, `Sort_rows`; see [`status`]).
    pub reads: status::Reads,
    /// Its plan's `Select_*`, `Sort_*` and temporary table figures.
    pub plan: status::PlanStats,
}

impl StmtRecord {
    /// A new record starting now.
    pub fn begin(&mut self, bytes_received: u64) {
        let start_ns = now_ns();
        *self = StmtRecord {
            start_us: start_ns / 1000,
            start_ns,
            bytes_received,
            ..StmtRecord::default()
        };
    }
}

/// Asks the CPU to bring the `bytes` at `addr` into its cache, a statement ahead of the
/// writes that will land there: a session writes its history slot once every ten
/// statements, so by then the slot's lines have left the cache, and the lock instruction
/// after the writes waited for them (about 200 ns a statement, most of what the history
/// cost, `bench/results/2026-11-27-history-prefetch.md`). A hint only: the address is
/// never read by the program, so a stale one costs a wasted fetch at most.
pub fn prefetch(addr: usize, bytes: usize) {
    for_each_line(addr, bytes, |line| {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of x86_64's baseline; a prefetch does not fault, whatever the
        // address, and reads nothing the program sees.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line as *const i8)
        };
        let _ = line;
    });
}

/// As [`prefetch`], for lines the caller will write that another core read last: fetched
/// exclusive, so the stores do not wait for that core to give them up.
pub fn prefetch_write(addr: usize, bytes: usize) {
    for_each_line(addr, bytes, |line| {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `prefetch`. PREFETCHW is written out because the intrinsic's hint
        // falls back to a read prefetch unless the build targets `prfchw`; a CPU without
        // the instruction runs it as a no-op (it sits in the NOP encoding space).
        unsafe {
            std::arch::asm!("prefetchw [{0}]", in(reg) line, options(nostack, preserves_flags, readonly))
        };
        let _ = line;
    });
}

/// Calls `f` with the address of each cache line that `bytes` at `addr` touch (at most
/// 512 bytes' worth). A plain loop: `step_by` over the range cost about 100 instructions a
/// statement here (callgrind).
fn for_each_line(addr: usize, bytes: usize, mut f: impl FnMut(usize)) {
    let end = addr.saturating_add(bytes.min(512));
    let mut line = addr & !63;
    while line < end {
        f(line);
        line += 64;
    }
}

/// Unix time in nanoseconds.
pub fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// Unix time in microseconds.
pub fn now_us() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or(0)
}

/// Appends an ISO-8601 timestamp with microseconds, as MySQL 8 writes them in its logs:
/// `2024-05-10T17:44:36.400424Z` (`log_timestamps=UTC`) or with the local offset,
/// `2024-05-10T19:44:36.400424+02:00` (`SYSTEM`). The part up to the second (and the
/// offset) is computed once per second per thread; the fraction is filled into that text
/// and the whole appended with one copy (each log entry has one or two of these).
pub fn write_iso_time(out: &mut Vec<u8>, unix_us: i64, utc: bool) {
    use std::cell::RefCell;
    let second = unix_us.div_euclid(1_000_000);
    let micro = unix_us.rem_euclid(1_000_000) as u32;
    thread_local! {
        static CACHE: RefCell<IsoSecond> = const { RefCell::new(IsoSecond::NONE) };
    }
    // Borrowed in place (a copy of the cache in and out cost as much as the rest).
    let cached = CACHE.try_with(|c| match c.try_borrow_mut() {
        Ok(mut c) => {
            if c.second != second || c.utc != utc {
                *c = IsoSecond::new(second, utc);
            }
            c.append(out, micro);
            true
        }
        Err(_) => false,
    });
    if cached != Ok(true) {
        // Only while the thread's cache is being torn down.
        IsoSecond::new(second, utc).append(out, micro);
    }
}

/// One second's ISO-8601 text (`YYYY-MM-DDThh:mm:ss.` and, after the six digits of the
/// fraction, the zone: `Z` or `+hh:mm`), computed once per second per thread.
struct IsoSecond {
    second: i64,
    utc: bool,
    text: [u8; 32],
    len: usize,
    /// The fraction in `text` now (a statement's slow-log and audit entries show the same
    /// microsecond).
    micro: u32,
}

impl IsoSecond {
    /// Where the fraction's six digits go, and where the zone starts.
    const FRACTION: usize = 20;
    const ZONE: usize = 26;
    const NONE: IsoSecond = IsoSecond {
        second: i64::MIN,
        utc: false,
        text: [0; 32],
        len: 0,
        micro: u32::MAX,
    };

    fn new(second: i64, utc: bool) -> IsoSecond {
        let (mut prefix, mut zone) = (Vec::with_capacity(19), Vec::with_capacity(6));
        iso_second(&mut prefix, &mut zone, second, utc);
        // A year past 9999 (not a MySQL time) would not fit: such a time is written as the
        // zero time.
        if prefix.len() != 19 || zone.len() > 6 {
            prefix.clear();
            prefix.extend_from_slice(ZERO_SECOND);
            zone.clear();
            zone.push(b'Z');
        }
        let mut text = [0; 32];
        text[..19].copy_from_slice(&prefix);
        text[19] = b'.';
        text[Self::ZONE..Self::ZONE + zone.len()].copy_from_slice(&zone);
        IsoSecond {
            second,
            utc,
            text,
            len: Self::ZONE + zone.len(),
            micro: u32::MAX,
        }
    }

    /// Appends the text with `micro` as its fraction.
    fn append(&mut self, out: &mut Vec<u8>, micro: u32) {
        if micro != self.micro {
            let mut frac = [0; 6];
            micros6(&mut frac, micro);
            self.text[Self::FRACTION..Self::ZONE].copy_from_slice(&frac);
            self.micro = micro;
        }
        out.extend_from_slice(self.text.get(..self.len).unwrap_or_default());
    }
}

/// The time written for a second that has no date (out of the calendar's range).
const ZERO_SECOND: &[u8] = b"0000-00-00T00:00:00";

/// `YYYY-MM-DDThh:mm:ss` of `second` into `prefix`, the zone into `zone`.
fn iso_second(prefix: &mut Vec<u8>, zone: &mut Vec<u8>, second: i64, utc: bool) {
    use crate::sql::temporal::{datetime_from_unix_micros, write_datetime};
    let unix_us = second.saturating_mul(1_000_000);
    let offset_s = if utc { 0 } else { local_offset_s(unix_us) };
    let Some(dt) = datetime_from_unix_micros(unix_us, offset_s) else {
        prefix.extend_from_slice(ZERO_SECOND);
        zone.push(b'Z');
        return;
    };
    write_datetime(&dt, 0, prefix);
    if let Some(b) = prefix.get_mut(10) {
        *b = b'T';
    }
    if utc {
        zone.push(b'Z');
    } else {
        let (sign, a) = if offset_s < 0 {
            (b'-', -offset_s)
        } else {
            (b'+', offset_s)
        };
        let (h, m) = (a / 3600, a / 60 % 60);
        zone.extend_from_slice(&[
            sign,
            b'0' + (h / 10 % 10) as u8,
            b'0' + (h % 10) as u8,
            b':',
            b'0' + (m / 10) as u8,
            b'0' + (m % 10) as u8,
        ]);
    }
}

/// The two digits of each number below 100.
const DIGITS2: &[u8; 200] = b"\
    0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
    5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// The six digits of a microsecond fraction (`v` < 1,000,000), zero-padded.
pub(crate) fn micros6(out: &mut [u8; 6], v: u32) {
    let v = v % 1_000_000;
    for (pair, part) in out
        .chunks_exact_mut(2)
        .zip([v / 10_000, v / 100 % 100, v % 100])
    {
        let d = part as usize * 2;
        pair.copy_from_slice(&DIGITS2[d..d + 2]);
    }
}

/// Appends `v` right-aligned in `width` (at most 20) columns (MySQL's `%5u` for connection
/// ids).
pub fn write_u64_padded(out: &mut Vec<u8>, v: u64, width: usize) {
    let mut buf = itoa::Buffer::new();
    let digits = buf.format(v).as_bytes();
    let mut field = [b' '; 20];
    let width = width.clamp(digits.len(), 20);
    field[width - digits.len()..width].copy_from_slice(digits);
    out.extend_from_slice(&field[..width]);
}

pub(crate) fn local_offset_s(unix_us: i64) -> i32 {
    use chrono::{Offset, TimeZone};
    chrono::Local
        .timestamp_micros(unix_us)
        .single()
        .map(|t| t.offset().fix().local_minus_utc())
        .unwrap_or(0)
}

/// Whether a `log_output` value (a set: `FILE,TABLE`, any case) includes `what`.
pub fn log_output_includes(output: &str, what: &str) -> bool {
    output
        .split(',')
        .any(|o| o.trim().eq_ignore_ascii_case(what))
}

/// Whether entries go to `what` (`FILE` or `TABLE`) with this `log_output`: named, and
/// `NONE` not named (MySQL: "NONE, if present, takes precedence over any other specifier").
pub fn log_output_to(output: &str, what: &str) -> bool {
    log_output_includes(output, what) && !log_output_includes(output, "NONE")
}

/// Which log a `FLUSH … LOGS` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Slow,
    General,
    Audit,
}

/// A log's sink, started at its first entry, and the file it writes.
struct LogFile {
    what: &'static str,
    sink: OnceLock<Arc<Sink>>,
    path: Mutex<PathBuf>,
    capacity_bytes: AtomicU64,
    max_size_bytes: AtomicU64,
    max_files: AtomicU64,
    /// The audit log's `audit_log_hash_chain` switch (its writer chains the records).
    chain: Option<Arc<AtomicBool>>,
}

impl LogFile {
    fn new(what: &'static str) -> LogFile {
        LogFile {
            what,
            sink: OnceLock::new(),
            path: Mutex::new(PathBuf::new()),
            capacity_bytes: AtomicU64::new(1 << 20),
            max_size_bytes: AtomicU64::new(0),
            max_files: AtomicU64::new(0),
            chain: None,
        }
    }

    /// The sink, started now if this is the log's first entry. None if its thread cannot
    /// be started (reported once; the entry is lost).
    fn sink(&self, header: &Header) -> Option<&Arc<Sink>> {
        if let Some(s) = self.sink.get() {
            return Some(s);
        }
        let path = self.path.lock().clone();
        match Sink::start(
            self.what,
            path,
            self.capacity_bytes.load(Ordering::Relaxed),
            header.clone(),
            self.chain
                .clone()
                .map(|on| Box::new(audit::Chain::new(on)) as Box<dyn sink::Transform>),
        ) {
            Ok(s) => {
                self.apply_limits(&s);
                if self.sink.set(s.clone()).is_err() {
                    // Another session started it first: this one goes.
                    s.shutdown();
                }
                self.sink.get()
            }
            Err(e) => {
                eprintln!("quire: [ERROR] {}: cannot start its writer: {e}", self.what);
                None
            }
        }
    }

    fn apply_limits(&self, s: &Sink) {
        s.set_capacity(self.capacity_bytes.load(Ordering::Relaxed));
        s.max_size_bytes.store(
            self.max_size_bytes.load(Ordering::Relaxed),
            Ordering::Relaxed,
        );
        s.max_files
            .store(self.max_files.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    fn configure(&self, path: PathBuf, capacity: u64, max_size: u64, max_files: u64) {
        self.capacity_bytes.store(capacity, Ordering::Relaxed);
        self.max_size_bytes.store(max_size, Ordering::Relaxed);
        self.max_files.store(max_files, Ordering::Relaxed);
        let changed = {
            let mut p = self.path.lock();
            let changed = *p != path;
            *p = path.clone();
            changed
        };
        if let Some(s) = self.sink.get() {
            self.apply_limits(s);
            if changed {
                s.reopen(Some(path), true);
            }
        }
    }

    fn stats(&self) -> Option<&sink::SinkStats> {
        self.sink.get().map(|s| &s.stats)
    }
}

/// The query logs of one server.
pub struct QueryLogs {
    /// `slow_query_log` is ON and `log_output` includes FILE.
    slow_on: AtomicBool,
    general_on: AtomicBool,
    /// `log_timestamps=UTC`.
    pub utc: AtomicBool,
    /// What a session does when a log's buffer is full (`quire_query_log_when_full`).
    drop_when_full: AtomicBool,
    slow: LogFile,
    general: LogFile,
    header: Header,
    /// `slow_query_log` is ON and `log_output` includes TABLE: `mysql.slow_log`.
    slow_table_on: AtomicBool,
    general_table_on: AtomicBool,
    slow_table: LogFile,
    general_table: LogFile,
    /// `server_id`, for the log tables' rows.
    pub server_id: AtomicU64,
    /// `audit_log` (independent of `log_output`: the audit log is always a file).
    audit_on: AtomicBool,
    /// `audit_log_policy` and `audit_log_strategy`, as `audit::Policy`/`Strategy` numbers.
    audit_policy: AtomicU8,
    audit_strategy: AtomicU8,
    /// Bumped when the account filter changes: each session decides again whether it is
    /// audited (see `audit`).
    pub audit_generation: AtomicU64,
    audit_filter: Mutex<audit::AccountFilter>,
    audit: LogFile,
    /// The audit log's files have no header lines.
    no_header: Header,
    /// The slow log's global switches that statements read.
    pub slow_globals: slow::SlowGlobals,
    /// `log_throttle_queries_not_using_indexes`: the current minute and its count.
    pub throttle: slow::Throttle,
}

impl Default for QueryLogs {
    fn default() -> Self {
        QueryLogs::new()
    }
}

impl QueryLogs {
    pub fn new() -> QueryLogs {
        QueryLogs {
            slow_on: AtomicBool::new(false),
            general_on: AtomicBool::new(false),
            utc: AtomicBool::new(true),
            drop_when_full: AtomicBool::new(false),
            slow: LogFile::new("slow query log"),
            general: LogFile::new("general query log"),
            header: Header::default(),
            slow_table_on: AtomicBool::new(false),
            general_table_on: AtomicBool::new(false),
            slow_table: LogFile::new("slow log table"),
            general_table: LogFile::new("general log table"),
            server_id: AtomicU64::new(1),
            audit_on: AtomicBool::new(false),
            audit_policy: AtomicU8::new(audit::Policy::All as u8),
            audit_strategy: AtomicU8::new(audit::Strategy::Asynchronous as u8),
            audit_generation: AtomicU64::new(0),
            audit_filter: Mutex::new(audit::AccountFilter::default()),
            audit: LogFile {
                chain: Some(Arc::new(AtomicBool::new(false))),
                ..LogFile::new("audit log")
            },
            no_header: Header::default(),
            slow_globals: slow::SlowGlobals::default(),
            throttle: slow::Throttle::default(),
        }
    }

    /// Copies the logs' settings from the global variables (at start-up and after every
    /// `SET GLOBAL`). A changed file name takes effect before this returns.
    pub fn configure(&self, g: &GlobalVars) {
        let output = g.get_string(vars::LOG_OUTPUT);
        let (to_file, to_table) = (
            log_output_to(&output, "FILE"),
            log_output_to(&output, "TABLE"),
        );
        let (slow, general) = (
            g.get_bool(vars::SLOW_QUERY_LOG),
            g.get_bool(vars::GENERAL_LOG),
        );
        self.slow_on.store(to_file && slow, Ordering::Relaxed);
        self.general_on.store(to_file && general, Ordering::Relaxed);
        self.slow_table_on
            .store(to_table && slow, Ordering::Relaxed);
        self.general_table_on
            .store(to_table && general, Ordering::Relaxed);
        self.server_id
            .store(g.get_u64(vars::SERVER_ID), Ordering::Relaxed);
        self.utc.store(
            g.get_string(vars::LOG_TIMESTAMPS)
                .eq_ignore_ascii_case("UTC"),
            Ordering::Relaxed,
        );
        self.drop_when_full.store(
            g.get_string(vars::QUIRE_QUERY_LOG_WHEN_FULL)
                .eq_ignore_ascii_case("DROP"),
            Ordering::Relaxed,
        );
        let sg = &self.slow_globals;
        sg.log_admin.store(
            g.get_bool(vars::LOG_SLOW_ADMIN_STATEMENTS),
            Ordering::Relaxed,
        );
        sg.not_using_indexes.store(
            g.get_bool(vars::LOG_QUERIES_NOT_USING_INDEXES),
            Ordering::Relaxed,
        );
        sg.extra
            .store(g.get_bool(vars::LOG_SLOW_EXTRA), Ordering::Relaxed);
        sg.legacy_time.store(
            g.get_string(vars::QUIRE_SLOW_LOG_TIME_FORMAT)
                .eq_ignore_ascii_case("LEGACY"),
            Ordering::Relaxed,
        );
        sg.throttle_per_minute.store(
            g.get_u64(vars::LOG_THROTTLE_QUERIES_NOT_USING_INDEXES),
            Ordering::Relaxed,
        );
        let datadir = PathBuf::from(g.get_string(vars::DATADIR));
        let capacity = g.get_u64(vars::QUIRE_QUERY_LOG_BUFFER_SIZE);
        self.slow.configure(
            crate::config::in_datadir(&datadir, &g.get_string(vars::SLOW_QUERY_LOG_FILE)),
            capacity,
            g.get_u64(vars::MAX_SLOWLOG_SIZE),
            g.get_u64(vars::MAX_SLOWLOG_FILES),
        );
        self.general.configure(
            crate::config::in_datadir(&datadir, &g.get_string(vars::GENERAL_LOG_FILE)),
            capacity,
            g.get_u64(vars::MAX_GENERAL_LOG_SIZE),
            g.get_u64(vars::MAX_GENERAL_LOG_FILES),
        );
        for (log, t) in [
            (&self.slow_table, logtable::LogTable::Slow),
            (&self.general_table, logtable::LogTable::General),
        ] {
            log.configure(datadir.join(t.file_name()), capacity, 0, 0);
        }
        self.audit_on
            .store(g.get_bool(vars::AUDIT_LOG), Ordering::Relaxed);
        self.audit_policy.store(
            audit::Policy::from_name(&g.get_string(vars::AUDIT_LOG_POLICY)) as u8,
            Ordering::Relaxed,
        );
        self.audit_strategy.store(
            audit::Strategy::from_name(&g.get_string(vars::AUDIT_LOG_STRATEGY)) as u8,
            Ordering::Relaxed,
        );
        if let Some(chain) = &self.audit.chain {
            chain.store(g.get_bool(vars::AUDIT_LOG_HASH_CHAIN), Ordering::Relaxed);
        }
        let filter = audit::AccountFilter::new(
            &g.get_string(vars::AUDIT_LOG_INCLUDE_ACCOUNTS),
            &g.get_string(vars::AUDIT_LOG_EXCLUDE_ACCOUNTS),
        );
        {
            let mut f = self.audit_filter.lock();
            if *f != filter {
                *f = filter;
                self.audit_generation.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.audit.configure(
            crate::config::in_datadir(&datadir, &g.get_string(vars::AUDIT_LOG_FILE)),
            g.get_u64(vars::AUDIT_LOG_BUFFER_SIZE),
            g.get_u64(vars::AUDIT_LOG_ROTATE_ON_SIZE),
            g.get_u64(vars::AUDIT_LOG_ROTATIONS),
        );
    }

    /// The audit policy, or None when the audit log is off.
    pub fn audit_policy(&self) -> Option<audit::Policy> {
        self.audit_on
            .load(Ordering::Relaxed)
            .then(|| audit::Policy::from_u8(self.audit_policy.load(Ordering::Relaxed)))
    }

    /// Whether `audit_log_include_accounts`/`…_exclude_accounts` let `who` in.
    pub fn audit_admits(&self, who: &audit::Who) -> bool {
        self.audit_filter.lock().admits(who)
    }

    /// Fetches, for writing, where this CPU's next slow-log and audit entries of `bytes` go
    /// (for a session that will likely log its statement: see `Sink::prefetch_tail`).
    pub fn prefetch_entries(&self, bytes: usize) {
        for (on, log) in [
            (self.slow_on(), &self.slow),
            (self.audit_on.load(Ordering::Relaxed), &self.audit),
        ] {
            if let Some(s) = log.sink.get().filter(|_| on) {
                s.prefetch_tail(bytes);
            }
        }
    }

    /// Hands an audit record of time `time` (see [`Sink::append`]) to its writer, and waits
    /// as `audit_log_strategy` says.
    pub fn write_audit(&self, record: &[u8], time: u64) {
        use audit::Strategy;
        let Some(s) = self.audit.sink(&self.no_header) else {
            return;
        };
        match Strategy::from_u8(self.audit_strategy.load(Ordering::Relaxed)) {
            Strategy::Asynchronous => {
                s.append(record, time, Full::Wait);
            }
            Strategy::Performance => {
                s.append(record, time, Full::Drop);
            }
            Strategy::Semisynchronous => {
                if let Some(n) = s.append(record, time, Full::Wait) {
                    s.wait_written(n);
                }
            }
            Strategy::Synchronous => {
                if let Some(n) = s.append(record, time, Full::Wait) {
                    s.wait_synced(n);
                }
            }
        }
    }

    /// Sets the header lines each log file starts with (once the port is known), as MySQL
    /// writes them: `<program>, Version: <version> (<comment>). started with:` / `Tcp port:
    /// <port>  Unix socket: <path>` / `Time                 Id Command    Argument`. The
    /// program is written `<path> mysqld`: pt-query-digest tells this header from a
    /// statement by `mysqld, Version` (a header it does not recognise, after a reopen, would
    /// be read as part of the statement before it).
    pub fn set_header(&self, program: &str, version: &str, comment: &str, port: u64, socket: &str) {
        *self.header.lock() = format!(
            "{program} mysqld, Version: {version} ({comment}). started with:\n\
             Tcp port: {port}  Unix socket: {socket}\n\
             Time                 Id Command    Argument\n"
        )
        .into_bytes();
    }

    pub fn slow_on(&self) -> bool {
        self.slow_on.load(Ordering::Relaxed)
    }

    pub fn general_on(&self) -> bool {
        self.general_on.load(Ordering::Relaxed)
    }

    /// `mysql.slow_log` takes entries.
    pub fn slow_table_on(&self) -> bool {
        self.slow_table_on.load(Ordering::Relaxed)
    }

    /// `mysql.general_log` takes entries.
    pub fn general_table_on(&self) -> bool {
        self.general_table_on.load(Ordering::Relaxed)
    }

    /// The general log takes entries, as a file or as `mysql.general_log`.
    pub fn general_any(&self) -> bool {
        self.general_on() || self.general_table_on()
    }

    fn table(&self, t: logtable::LogTable) -> &LogFile {
        match t {
            logtable::LogTable::Slow => &self.slow_table,
            logtable::LogTable::General => &self.general_table,
        }
    }

    /// Hands a formatted log-table row (a line, see [`logtable`]) of time `time` to its
    /// writer.
    pub fn write_table(&self, t: logtable::LogTable, row: &[u8], time: u64) {
        if let Some(s) = self.table(t).sink(&self.no_header) {
            s.append(row, time, self.full());
        }
    }

    /// A log table's file, once every row handed over so far is in it.
    fn written_table_file(&self, t: logtable::LogTable) -> PathBuf {
        let log = self.table(t);
        if let Some(s) = log.sink.get() {
            s.wait_all_written();
        }
        log.path.lock().clone()
    }

    /// The contents of a log table's file, once every row handed over so far is written
    /// (empty if the table has never been written).
    pub fn read_table(&self, t: logtable::LogTable) -> std::io::Result<Vec<u8>> {
        let path = self.written_table_file(t);
        match crate::session::threads::blocking(|| std::fs::read(&path)) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            r => r,
        }
    }

    /// `TRUNCATE TABLE` of a log table: empties its file once the rows handed over so far
    /// are written (the writer appends, so it goes on at the new end).
    pub fn truncate_table(&self, t: logtable::LogTable) -> std::io::Result<()> {
        let path = self.written_table_file(t);
        crate::session::threads::blocking(|| {
            match std::fs::OpenOptions::new().write(true).open(&path) {
                Ok(f) => f.set_len(0),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(e),
            }
        })
    }

    fn full(&self) -> Full {
        if self.drop_when_full.load(Ordering::Relaxed) {
            Full::Drop
        } else {
            Full::Wait
        }
    }

    /// Hands a formatted slow-log entry of time `time` to its writer.
    pub fn write_slow(&self, entry: &[u8], time: u64) {
        if let Some(s) = self.slow.sink(&self.header) {
            s.append(entry, time, self.full());
        }
    }

    /// Hands a formatted general-log line of time `time` to its writer.
    pub fn write_general(&self, entry: &[u8], time: u64) {
        if let Some(s) = self.general.sink(&self.header) {
            s.append(entry, time, self.full());
        }
    }

    /// Reopens the named logs' files (all if `which` is empty) after what is pending is
    /// written; with `wait`, returns once that is done (`FLUSH LOGS`; SIGHUP does not wait).
    pub fn reopen(&self, which: &[Which], wait: bool) {
        for (w, log) in [
            (Which::Slow, &self.slow),
            (Which::General, &self.general),
            (Which::Audit, &self.audit),
        ] {
            if (which.is_empty() || which.contains(&w))
                && let Some(s) = log.sink.get()
            {
                s.reopen(None, wait);
            }
        }
    }

    /// Writes what is pending and stops the writers (clean shutdown).
    pub fn shutdown(&self) {
        for log in [
            &self.slow,
            &self.general,
            &self.audit,
            &self.slow_table,
            &self.general_table,
        ] {
            if let Some(s) = log.sink.get() {
                s.shutdown();
            }
        }
    }

    /// `SHOW GLOBAL STATUS` rows: `Quire_slow_log_entries`, `…_bytes`, `…_waits`,
    /// `…_dropped`, `…_lost`, `…_errors`, `…_rotations`, and the same for `general_log`,
    /// `audit_log` and the log tables' files (`slow_log_table`, `general_log_table`).
    pub fn status_rows(&self) -> Vec<(String, u64)> {
        let mut rows = Vec::new();
        for (name, log) in [
            ("slow_log", &self.slow),
            ("general_log", &self.general),
            ("audit_log", &self.audit),
            ("slow_log_table", &self.slow_table),
            ("general_log_table", &self.general_table),
        ] {
            let s = log.stats();
            let get = |f: fn(&sink::SinkStats) -> &AtomicU64| {
                s.map(|s| f(s).load(Ordering::Relaxed)).unwrap_or(0)
            };
            rows.extend([
                (format!("Quire_{name}_entries"), get(|s| &s.entries)),
                (format!("Quire_{name}_bytes"), get(|s| &s.bytes)),
                (format!("Quire_{name}_waits"), get(|s| &s.waits)),
                (format!("Quire_{name}_dropped"), get(|s| &s.dropped)),
                (format!("Quire_{name}_lost"), get(|s| &s.lost)),
                (format!("Quire_{name}_errors"), get(|s| &s.errors)),
                (format!("Quire_{name}_rotations"), get(|s| &s.rotations)),
            ]);
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times_are_mysqls() {
        let mut out = Vec::new();
        write_iso_time(&mut out, 1_715_363_076_400_424, true);
        assert_eq!(String::from_utf8_lossy(&out), "2024-05-10T17:44:36.400424Z");
        out.clear();
        write_iso_time(&mut out, 0, true);
        assert_eq!(String::from_utf8_lossy(&out), "1970-01-01T00:00:00.000000Z");
        out.clear();
        write_iso_time(&mut out, 1_715_363_076_000_001, false);
        let s = String::from_utf8_lossy(&out).into_owned();
        assert_eq!(s.len(), "2024-05-10T17:44:36.000001+00:00".len(), "{s}");
        assert!(
            s.contains('T') && s.ends_with(|c: char| c.is_ascii_digit()),
            "{s}"
        );
    }

    #[test]
    fn the_cached_second_follows_the_second_and_the_zone() {
        // Threads switching between seconds and zones: each answer is the one computed
        // without the cache.
        let expect = |second: i64, utc: bool| {
            let (mut p, mut z) = (Vec::new(), Vec::new());
            iso_second(&mut p, &mut z, second, utc);
            p.extend_from_slice(b".000007");
            p.extend_from_slice(&z);
            p
        };
        std::thread::scope(|s| {
            for t in 0..4i64 {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for i in 0..2000i64 {
                        let second = 1_715_363_076 + (i + t) % 3;
                        let utc = (i / 7 + t) % 2 == 0;
                        out.clear();
                        write_iso_time(&mut out, second * 1_000_000 + 7, utc);
                        assert_eq!(out, expect(second, utc), "second {second} utc {utc}");
                    }
                });
            }
        });
    }

    #[test]
    fn padded_numbers_and_fractions() {
        let mut out = Vec::new();
        for (v, width, text) in [
            (7, 5, "    7"),
            (12345, 5, "12345"),
            (1234567, 5, "1234567"),
            (0, 0, "0"),
            (u64::MAX, 25, "18446744073709551615"),
        ] {
            out.clear();
            write_u64_padded(&mut out, v, width);
            assert_eq!(out, text.as_bytes(), "{v} in {width}");
        }
        for (v, text) in [
            (0, "000000"),
            (7, "000007"),
            (120_034, "120034"),
            (999_999, "999999"),
        ] {
            let mut f = [0; 6];
            micros6(&mut f, v);
            assert_eq!(&f, text.as_bytes());
        }
        // Before 1970 and after: the fraction counts up from the second before.
        out.clear();
        write_iso_time(&mut out, -1, true);
        assert_eq!(out, b"1969-12-31T23:59:59.999999Z");
    }
}
