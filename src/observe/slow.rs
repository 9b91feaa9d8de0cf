//! The slow query log: which statements it takes, and its entries in MySQL 8.0's format.
//!
//! # Which statements
//!
//! A statement (COM_QUERY or COM_STMT_EXECUTE) is logged when the slow log is on
//! (`slow_query_log`, `log_output` with FILE or TABLE, and the session's own `slow_query_log` not
//! switched off) and
//! - it ran longer than `long_query_time` (0: every statement), or it read a table without
//!   an index and `log_queries_not_using_indexes` is on (at most
//!   `log_throttle_queries_not_using_indexes` of those a minute; a summary entry counts the
//!   rest, as MySQL writes it);
//! - it examined at least `min_examined_row_limit` rows;
//! - it is not an administrative statement (`ALTER TABLE`, `ANALYZE`, `CHECK`, `OPTIMIZE`,
//!   `REPAIR`, `CREATE`/`DROP INDEX`), unless `log_slow_admin_statements`;
//! - `log_slow_rate_limit` N > 1 (Percona's and MariaDB's setting) keeps one statement in N
//!   (by the server's statement counter), except statements that ran longer than
//!   `log_slow_always_query_time`, which are always kept.
//!
//! `Slow_queries` counts the statements that ran longer than `long_query_time`, whether or
//! not the log is on (as in MySQL).
//!
//! # Entry format (MySQL 8.0, `log_slow_extra=OFF`)
//!
//! ```text
//! # Time: 2024-05-10T17:44:36.400424Z
//! # User@Host: root[root] @ localhost []  Id:    12
//! # Query_time: 0.000237  Lock_time: 0.000004 Rows_sent: 1  Rows_examined: 1
//! use sbtest;
//! SET timestamp=1715363076;
//! SELECT c FROM sbtest1 WHERE id=5;
//! ```
//!
//! - `# Time:` is when the statement ended (`log_timestamps`: UTC with `Z`, or SYSTEM with
//!   the local offset); `SET timestamp=` is the second it started.
//! - `User@Host` is `priv_user[user] @ host [ip]`: `localhost []` over the Unix socket,
//!   ` [ip]` (no host name: names are not resolved) over TCP; `Id:` is the connection id,
//!   right-aligned in five columns.
//! - `Query_time` and `Lock_time` (time waiting for row locks) in seconds with six decimals.
//! - `use db;` precedes every entry run with a current database. MySQL writes it only when
//!   the database differs from the previous entry's in the file; entries here are formatted
//!   by their sessions independently, so each one says its database (readers — `mysql`,
//!   `pt-query-digest`, `mysqldumpslow` — treat the line the same either way).
//! - The statement as the client sent it (a prepared statement with its parameter values in
//!   place, as MySQL logs it), then `;`.
//!
//! With `log_slow_extra=ON` the `# Query_time` line goes on with MySQL 8.0's extra fields:
//! `Thread_id`, `Errno`, `Killed`, `Bytes_received`, `Bytes_sent`, the handler counters
//! `Read_first` … `Read_rnd_next`, `Sort_merge_passes`, `Sort_range_count`, `Sort_rows`,
//! `Sort_scan_count`, `Created_tmp_disk_tables`, `Created_tmp_tables`, `Start`, `End`.
//! Quire's executor has no handler interface and sorts in memory without temporary tables:
//! the handler, sort and temporary-table counters are written as 0.

use super::{StmtRecord, write_iso_time};
use crate::sql::convert::write_u64;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// The session's slow-log settings, cached when it sets a variable.
#[derive(Clone, Debug)]
pub struct SlowSettings {
    /// The session's `slow_query_log` (MariaDB lets a session switch it off).
    pub session_on: bool,
    /// `long_query_time` in microseconds.
    pub long_query_us: u64,
    pub min_examined_row_limit: u64,
    /// `log_slow_rate_limit` (1: every statement).
    pub rate_limit: u64,
    /// `log_slow_always_query_time` in microseconds.
    pub always_us: u64,
}

impl Default for SlowSettings {
    fn default() -> Self {
        SlowSettings {
            session_on: true,
            long_query_us: 10_000_000,
            min_examined_row_limit: 0,
            rate_limit: 1,
            always_us: u64::MAX,
        }
    }
}

/// The global switches of the slow log that statements read (copied by `configure`).
#[derive(Default)]
pub struct SlowGlobals {
    pub log_admin: std::sync::atomic::AtomicBool,
    pub not_using_indexes: std::sync::atomic::AtomicBool,
    pub extra: std::sync::atomic::AtomicBool,
    /// `quire_slow_log_time_format=LEGACY`.
    pub legacy_time: std::sync::atomic::AtomicBool,
    /// `log_throttle_queries_not_using_indexes` (0: no limit).
    pub throttle_per_minute: AtomicU64,
}

/// `log_throttle_queries_not_using_indexes`: the minute being counted, how many were
/// logged in it, how many suppressed.
#[derive(Default)]
pub struct Throttle {
    minute: AtomicU64,
    logged: AtomicU64,
    suppressed: AtomicU64,
}

impl Throttle {
    /// Whether one more "no index used" statement may be logged now; when a new minute
    /// begins, also how many were suppressed in the last one (for the summary entry).
    pub fn admit(&self, now_us: i64, per_minute: u64) -> (bool, u64) {
        let minute = (now_us.max(0) as u64) / 60_000_000;
        let mut summary = 0;
        if self.minute.swap(minute, Ordering::Relaxed) != minute {
            self.logged.store(0, Ordering::Relaxed);
            summary = self.suppressed.swap(0, Ordering::Relaxed);
        }
        if self.logged.fetch_add(1, Ordering::Relaxed) < per_minute {
            (true, summary)
        } else {
            self.suppressed.fetch_add(1, Ordering::Relaxed);
            (false, summary)
        }
    }
}

/// Why a statement goes to the slow log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Skip,
    /// Longer than `long_query_time`.
    Slow,
    /// Only because it used no index (subject to the throttle).
    NoIndex,
}

/// Decides whether a finished statement goes to the slow log. `query_us` is its duration;
/// `statement_no` the server's statement counter (for the rate limit).
pub fn verdict(
    rec: &StmtRecord,
    query_us: u64,
    s: &SlowSettings,
    g: &SlowGlobals,
    statement_no: impl FnOnce() -> u64,
) -> Verdict {
    if !s.session_on || (rec.admin && !g.log_admin.load(Ordering::Relaxed)) {
        return Verdict::Skip;
    }
    let slow = s.long_query_us == 0 || query_us > s.long_query_us;
    let v = if slow {
        Verdict::Slow
    } else if rec.no_index_used && g.not_using_indexes.load(Ordering::Relaxed) {
        Verdict::NoIndex
    } else {
        return Verdict::Skip;
    };
    if rec.rows_examined < s.min_examined_row_limit {
        return Verdict::Skip;
    }
    if s.rate_limit > 1 && query_us <= s.always_us && !statement_no().is_multiple_of(s.rate_limit) {
        return Verdict::Skip;
    }
    v
}

/// What an entry says besides the record.
pub struct Entry<'a> {
    pub rec: &'a StmtRecord,
    pub end_us: i64,
    /// The session's `# User@Host: …  Id: …` line, newline included ([`user_host_line`]).
    pub user_host: &'a str,
    pub db: Option<&'a str>,
    pub text: &'a [u8],
    pub conn_id: u32,
    pub killed: bool,
    pub extra: bool,
    pub utc: bool,
    /// `quire_slow_log_time_format=LEGACY`.
    pub legacy_time: bool,
}

/// The `# User@Host:` line of a session (computed once per login).
pub fn user_host_line(priv_user: &str, user: &str, host: &str, ip: &str, conn_id: u32) -> String {
    let who = user_host(priv_user, user, host, ip);
    format!("# User@Host: {who}  Id: {conn_id:>5}\n")
}

/// MySQL's account text for the logs: `priv_user[user] @ host [ip]`.
pub fn user_host(priv_user: &str, user: &str, host: &str, ip: &str) -> String {
    format!("{priv_user}[{user}] @ {host} [{ip}]")
}

/// `s.uuuuuu`.
fn secs(out: &mut Vec<u8>, us: u64) {
    let mut frac = [0; 6];
    super::micros6(&mut frac, (us % 1_000_000) as u32);
    let whole = us / 1_000_000;
    if whole < 10 {
        // The usual case, put together here and appended at once.
        let [a, b, c, d, e, f] = frac;
        out.extend_from_slice(&[b'0' + whole as u8, b'.', a, b, c, d, e, f]);
    } else {
        write_u64(whole, out);
        out.push(b'.');
        out.extend_from_slice(&frac);
    }
}

/// Appends the `# Time:` line: MySQL 8.0's ISO-8601 time, or with `legacy`
/// (`quire_slow_log_time_format=LEGACY`) MySQL 5.6's and MariaDB's `# Time: 261122  9:05:01`
/// (`%y%m%d %2H:%M:%S`), the one MariaDB's `mysqldumpslow` — the one Debian ships — strips.
fn time_line(out: &mut Vec<u8>, unix_us: i64, utc: bool, legacy: bool) {
    out.extend_from_slice(b"# Time: ");
    if legacy {
        let offset = if utc {
            0
        } else {
            super::local_offset_s(unix_us)
        };
        let t =
            crate::sql::temporal::datetime_from_unix_micros(unix_us, offset).unwrap_or_default();
        let _ = write!(
            out,
            "{:02}{:02}{:02} {:2}:{:02}:{:02}",
            t.year % 100,
            t.month,
            t.day,
            t.hour,
            t.minute,
            t.second
        );
    } else {
        write_iso_time(out, unix_us, utc);
    }
    out.push(b'\n');
}

/// Appends one entry (see the module doc).
pub fn format(out: &mut Vec<u8>, e: &Entry) {
    let r = e.rec;
    time_line(out, e.end_us, e.utc, e.legacy_time);
    out.extend_from_slice(e.user_host.as_bytes());
    out.extend_from_slice(b"# Query_time: ");
    secs(out, (e.end_us - r.start_us).max(0) as u64);
    out.extend_from_slice(b"  Lock_time: ");
    secs(out, r.lock_wait_us);
    out.extend_from_slice(b" Rows_sent: ");
    write_u64(r.rows_sent, out);
    out.extend_from_slice(b"  Rows_examined: ");
    write_u64(r.rows_examined, out);
    if e.extra {
        let _ = write!(
            out,
            " Thread_id: {} Errno: {} Killed: {} Bytes_received: {} Bytes_sent: {} \
             Read_first: 0 Read_last: 0 Read_key: 0 Read_next: 0 Read_prev: 0 Read_rnd: 0 \
             Read_rnd_next: 0 Sort_merge_passes: 0 Sort_range_count: 0 Sort_rows: 0 \
             Sort_scan_count: 0 Created_tmp_disk_tables: 0 Created_tmp_tables: 0 Start: ",
            e.conn_id,
            r.errno,
            u8::from(e.killed),
            r.bytes_received,
            r.bytes_sent
        );
        write_iso_time(out, r.start_us, e.utc);
        out.extend_from_slice(b" End: ");
        write_iso_time(out, e.end_us, e.utc);
    }
    out.push(b'\n');
    if let Some(db) = e.db {
        out.extend_from_slice(b"use ");
        out.extend_from_slice(db.as_bytes());
        out.extend_from_slice(b";\n");
    }
    out.extend_from_slice(b"SET timestamp=");
    write_u64(r.start_us.div_euclid(1_000_000).max(0) as u64, out);
    out.extend_from_slice(b";\n");
    out.extend_from_slice(e.text);
    out.extend_from_slice(b";\n");
}

/// Appends MySQL's summary entry for `n` statements that the throttle kept out of the log
/// in the last minute.
pub fn format_throttle_summary(out: &mut Vec<u8>, now_us: i64, n: u64, utc: bool, legacy: bool) {
    time_line(out, now_us, utc, legacy);
    out.extend_from_slice(b"# User@Host: [] @  []  Id:     0\n");
    out.extend_from_slice(
        b"# Query_time: 0.000000  Lock_time: 0.000000 Rows_sent: 0  Rows_examined: 0\n",
    );
    let _ = writeln!(out, "SET timestamp={};", now_us.div_euclid(1_000_000));
    let _ = writeln!(
        out,
        "throttle: {n:>10} 'index not used' warning(s) suppressed.;"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec() -> StmtRecord {
        StmtRecord {
            start_us: 1_715_363_076_400_187,
            lock_wait_us: 4,
            rows_sent: 1,
            rows_examined: 1,
            ..StmtRecord::default()
        }
    }

    /// The entry of [`rec`], ended 237 µs after it began.
    fn entry(user_host: &str, db: Option<&str>, text: &[u8], conn_id: u32, extra: bool) -> String {
        let r = rec();
        let mut out = Vec::new();
        format(
            &mut out,
            &Entry {
                rec: &r,
                end_us: r.start_us + 237,
                user_host,
                db,
                text,
                conn_id,
                killed: false,
                extra,
                utc: true,
                legacy_time: false,
            },
        );
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn legacy_time_line_is_mysql_56s() {
        let mut out = Vec::new();
        // 2024-05-10 07:04:36 UTC.
        time_line(&mut out, 1_715_324_676_400_424, true, true);
        assert_eq!(String::from_utf8_lossy(&out), "# Time: 240510  7:04:36\n");
    }

    #[test]
    fn entry_is_mysqls() {
        let uh = user_host_line("root", "root", "localhost", "", 12);
        assert_eq!(
            entry(&uh, Some("sbtest"), b"select * from t", 12, false),
            "# Time: 2024-05-10T17:44:36.400424Z\n\
             # User@Host: root[root] @ localhost []  Id:    12\n\
             # Query_time: 0.000237  Lock_time: 0.000004 Rows_sent: 1  Rows_examined: 1\n\
             use sbtest;\n\
             SET timestamp=1715363076;\n\
             select * from t;\n"
        );
    }

    #[test]
    fn extra_fields_follow_mysqls_order() {
        let uh = "# User@Host: a[a] @  [127.0.0.1]  Id:     3\n";
        let s = entry(uh, None, b"select 1", 3, true);
        let line = s.lines().nth(2).expect("third line");
        let keys: Vec<&str> = line
            .split_whitespace()
            .filter(|w| w.ends_with(':'))
            .collect();
        assert_eq!(
            keys.join(" "),
            "Query_time: Lock_time: Rows_sent: Rows_examined: Thread_id: Errno: Killed: \
             Bytes_received: Bytes_sent: Read_first: Read_last: Read_key: Read_next: \
             Read_prev: Read_rnd: Read_rnd_next: Sort_merge_passes: Sort_range_count: \
             Sort_rows: Sort_scan_count: Created_tmp_disk_tables: Created_tmp_tables: Start: End:"
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
        assert!(line.ends_with("End: 2024-05-10T17:44:36.400424Z"), "{line}");
        assert!(!s.contains("use "), "no database, no use line");
    }

    #[test]
    fn verdicts() {
        let g = SlowGlobals::default();
        let mut s = SlowSettings {
            long_query_us: 1000,
            ..SlowSettings::default()
        };
        let mut r = rec();
        assert_eq!(verdict(&r, 999, &s, &g, || 1), Verdict::Skip);
        assert_eq!(verdict(&r, 1001, &s, &g, || 1), Verdict::Slow);
        r.no_index_used = true;
        assert_eq!(verdict(&r, 10, &s, &g, || 1), Verdict::Skip);
        g.not_using_indexes.store(true, Ordering::Relaxed);
        assert_eq!(verdict(&r, 10, &s, &g, || 1), Verdict::NoIndex);
        s.min_examined_row_limit = 2;
        assert_eq!(verdict(&r, 5000, &s, &g, || 1), Verdict::Skip);
        s.min_examined_row_limit = 0;
        r.admin = true;
        assert_eq!(verdict(&r, 5000, &s, &g, || 1), Verdict::Skip);
        g.log_admin.store(true, Ordering::Relaxed);
        assert_eq!(verdict(&r, 5000, &s, &g, || 1), Verdict::Slow);
        s.long_query_us = 0;
        s.rate_limit = 3;
        s.always_us = 100;
        let kept = (1..=30).filter(|n| verdict(&r, 5, &s, &g, || *n) != Verdict::Skip);
        assert_eq!(kept.count(), 10);
        assert_eq!(
            verdict(&r, 101, &s, &g, || 1),
            Verdict::Slow,
            "always logged"
        );
        s.session_on = false;
        assert_eq!(verdict(&r, 101, &s, &g, || 1), Verdict::Skip);
    }

    #[test]
    fn throttle_counts_per_minute() {
        let t = Throttle::default();
        let m0 = 60_000_000 * 1000;
        assert_eq!(t.admit(m0, 2), (true, 0));
        assert_eq!(t.admit(m0 + 1, 2), (true, 0));
        assert_eq!(t.admit(m0 + 2, 2), (false, 0));
        assert_eq!(t.admit(m0 + 3, 2), (false, 0));
        assert_eq!(t.admit(m0 + 60_000_000, 2), (true, 2));
        let mut out = Vec::new();
        format_throttle_summary(&mut out, m0, 2, true, false);
        let s = String::from_utf8_lossy(&out);
        assert!(s.ends_with("throttle:          2 'index not used' warning(s) suppressed.;\n"));
    }

    #[test]
    fn seconds_have_six_decimals() {
        for (us, text) in [
            (0, "0.000000"),
            (237, "0.000237"),
            (12_000_001, "12.000001"),
            (u64::MAX, "18446744073709.551615"),
        ] {
            let mut out = Vec::new();
            secs(&mut out, us);
            assert_eq!(out, text.as_bytes());
        }
    }
}
