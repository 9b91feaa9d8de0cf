//! The session's side of the query logs (see `crate::observe`): it formats its own entries,
//! in its own buffer, and hands them over finished.

use super::Ctx;
use crate::observe::logtable::{self, LogTable};
use crate::observe::slow::{self, Verdict};
use crate::observe::status::Stat;
use crate::observe::{audit, digest, general, now_ns, now_us};
use crate::sql::value::Value;
use std::sync::atomic::Ordering;

/// Appends a prepared statement's text with its parameter values in place of the `?`s at
/// `positions` to `out`, as MySQL logs an execution.
pub fn push_execute_text(out: &mut Vec<u8>, text: &str, positions: &[usize], params: &[Value]) {
    out.reserve(text.len() + params.len() * 8);
    let mut last = 0;
    for (pos, v) in positions.iter().zip(params) {
        out.extend_from_slice(text.as_bytes().get(last..*pos).unwrap_or_default());
        crate::sql::value::push_literal(v, out);
        last = pos + 1;
    }
    out.extend_from_slice(text.as_bytes().get(last..).unwrap_or_default());
}

/// A statement's text as the logs show it.
#[derive(Clone, Copy)]
pub enum LogText<'t> {
    /// The text as received (COM_QUERY).
    Plain(&'t [u8]),
    /// An execution of a prepared statement: its text with the values in place of the
    /// `?`s, built into the session's `text_buf` only if something logs it.
    Execute {
        text: &'t str,
        positions: &'t [usize],
        params: &'t [Value],
    },
    /// An execution whose text is in the session's `text_buf` already (the general log
    /// built it when the command arrived).
    Built,
}

/// A statement's text, built when first asked for, into a buffer the session keeps (no
/// allocation per statement).
struct LazyText<'t> {
    text: LogText<'t>,
    buf: Vec<u8>,
}

impl LazyText<'_> {
    fn get(&mut self) -> &[u8] {
        match self.text {
            LogText::Plain(t) => t,
            LogText::Execute {
                text,
                positions,
                params,
            } => {
                self.buf.clear();
                push_execute_text(&mut self.buf, text, positions, params);
                self.text = LogText::Built;
                &self.buf
            }
            LogText::Built => &self.buf,
        }
    }
}

/// A log entry's time (see `observe::sink`) for the time it shows, `unix_us`: nanoseconds
/// since 1970, none before.
fn entry_time(unix_us: i64) -> u64 {
    unix_us.max(0) as u64 * 1000
}

impl Ctx {
    /// The time to order a log entry of this session by (see `observe::sink`): `unix_us`,
    /// the time the entry shows, in nanoseconds, or just after this session's last entry
    /// if that is not earlier (the clock stepped back, or two entries in one microsecond).
    fn log_time(&mut self, unix_us: i64) -> u64 {
        let t = entry_time(unix_us).max(self.log_time + 1);
        self.log_time = t;
        t
    }

    /// The general log's line for a command received now (before it runs). `sql_log_off`
    /// keeps a session's commands out.
    pub fn log_command(&mut self, command: &str, arg: &[u8]) {
        if self.server.logs.general_any() {
            self.log_command_at(now_us(), command, arg);
        }
    }

    /// As [`Ctx::log_command`], for a statement whose record was just opened
    /// (`Ctx::begin_record`): its line has the statement's start time (no second clock
    /// reading).
    pub fn log_statement(&mut self, command: &str, arg: &[u8]) {
        if self.server.logs.general_any() {
            self.log_command_at(self.rec.start_us, command, arg);
        }
    }

    fn log_command_at(&mut self, now: i64, command: &str, arg: &[u8]) {
        if self.sql_log_off {
            return;
        }
        let time = self.log_time(now);
        let logs = &self.server.logs;
        let (file, table) = (logs.general_on(), logs.general_table_on());
        if file {
            self.log_buf.clear();
            let utc = logs.utc.load(Ordering::Relaxed);
            general::format(&mut self.log_buf, now, utc, self.conn_id, command, arg);
            logs.write_general(&self.log_buf, time);
        }
        if table {
            self.log_buf.clear();
            logtable::format_general(
                &mut self.log_buf,
                now,
                logtable::user_host(&self.log_user_host),
                self.conn_id,
                logs.server_id.load(Ordering::Relaxed),
                command,
                arg,
            );
            logs.write_table(LogTable::General, &self.log_buf, time);
        }
    }

    /// A statement (a COM_QUERY statement or a COM_STMT_EXECUTE) has ended: count it if it
    /// was slow, write it to the slow log if the log wants it (see `observe::slow`) and to
    /// the audit log if this session is audited (`observe::audit`). `text` gives the
    /// statement as logged; an execution's text with its values is built only when an entry
    /// is written, and at most once.
    pub fn statement_done(&mut self, text: LogText<'_>) {
        let mut text = LazyText {
            text,
            buf: std::mem::take(&mut self.text_buf),
        };
        self.statement_done_with(&mut text);
        self.text_buf = text.buf;
    }

    fn statement_done_with(&mut self, text: &mut LazyText<'_>) {
        let end_ns = now_ns();
        self.rec.end_ns = end_ns;
        let end_us = end_ns / 1000;
        self.stage(super::profile::Stage::FreeingItems);
        self.shared.status.add_record(&self.rec);
        if let Some(d) = self.stmt_digest.get()
            && self.server.digests.setup.instrumented(self.rec.com)
        {
            let rec = &self.rec;
            let digests = &self.server.digests;
            let replacement = digests.replacement(d);
            let d: &digest::DigestEntry = replacement.as_deref().unwrap_or(d);
            if d.is_overflow() {
                digests.lost.add(1);
            }
            d.record(
                &digest::Observed {
                    end_us,
                    timer_ps: (end_ns - rec.start_ns).max(0) as u64 * 1000,
                    lock_ps: rec.lock_wait_us * 1_000_000,
                    error: rec.errno != 0,
                    warnings: u64::from(self.diag.warning_count()),
                    rows_affected: rec.rows_affected,
                    rows_sent: rec.rows_sent,
                    rows_examined: rec.rows_examined,
                    no_index_used: rec.no_index_used,
                    plan: rec.plan,
                    sort_rows: rec.reads.sorted,
                },
                digests.max_sample_age_us.load(Ordering::Relaxed) as i64,
                digests.max_text.load(Ordering::Relaxed) as usize,
                || text.get().to_vec(),
            );
        }
        let query_us = (end_us - self.rec.start_us).max(0) as u64;
        if self.slow.long_query_us == 0 || query_us > self.slow.long_query_us {
            self.shared.status.add(Stat::SlowQueries, 1);
        }
        let (slow_file, slow_table) =
            (self.server.logs.slow_on(), self.server.logs.slow_table_on());
        let slow = (slow_file || slow_table) && self.slow_wanted(end_us, query_us);
        let audit = self.audited(true);
        self.log_buf_prefetch = slow || audit;
        if !slow && !audit {
            return;
        }
        let text = text.get();
        if audit {
            let rec = &self.rec;
            let name = if rec.prepared { "Execute" } else { "Query" };
            let rows = if rec.rows_sent > 0 {
                rec.rows_sent
            } else {
                rec.rows_affected
            };
            let (class, errno) = (audit::command_class(rec.kind), rec.errno);
            self.write_audit(end_us, name, class, errno, Some(rows), Some(text));
        }
        if !slow {
            return;
        }
        // The slow log entry's time: the statement's end.
        let time = self.log_time(end_us);
        if slow_table {
            let logs = &self.server.logs;
            self.log_buf.clear();
            logtable::format_slow(
                &mut self.log_buf,
                &logtable::SlowRow {
                    start_us: self.rec.start_us,
                    user_host: logtable::user_host(&self.log_user_host),
                    query_us,
                    lock_us: self.rec.lock_wait_us,
                    rows_sent: self.rec.rows_sent,
                    rows_examined: self.rec.rows_examined,
                    db: self.db.as_deref().unwrap_or(""),
                    server_id: logs.server_id.load(Ordering::Relaxed),
                    sql_text: text,
                    thread_id: self.conn_id,
                },
            );
            logs.write_table(LogTable::Slow, &self.log_buf, time);
        }
        if slow_file {
            let logs = &self.server.logs;
            let utc = logs.utc.load(Ordering::Relaxed);
            let killed = self.is_killed();
            self.log_buf.clear();
            slow::format(
                &mut self.log_buf,
                &slow::Entry {
                    rec: &self.rec,
                    end_us,
                    user_host: &self.log_user_host,
                    db: self.db.as_deref(),
                    text,
                    conn_id: self.conn_id,
                    killed,
                    extra: logs.slow_globals.extra.load(Ordering::Relaxed),
                    utc,
                    legacy_time: logs.slow_globals.legacy_time.load(Ordering::Relaxed),
                },
            );
            logs.write_slow(&self.log_buf, time);
        }
    }

    /// Writes the statement that just ended (its record closed by [`Ctx::statement_done`])
    /// into its session's history (`observe::history`); `sql` is its text.
    pub fn record_history(&mut self, sql: &str) {
        let digests = &self.server.digests;
        if !digests.setup.history_on() || !digests.setup.instrumented(self.rec.com) {
            self.stmt_digest.clear();
            self.history_hint = None;
            return;
        }
        let size = digests.history_size.load(Ordering::Relaxed) as usize;
        let max_text = digests.max_text.load(Ordering::Relaxed) as usize;
        let rec = &self.rec;
        let message = if rec.errno == 0 {
            None
        } else {
            self.diag
                .list
                .iter()
                .rev()
                .find(|w| w.code == rec.errno)
                .map(|w| w.message.as_str())
        };
        let mut h = self.shared.history.lock();
        let Some(e) = h.next_slot(size) else {
            self.stmt_digest.clear();
            self.history_hint = None;
            return;
        };
        e.start_ns = rec.start_ns;
        e.end_ns = rec.end_ns;
        e.lock_ps = rec.lock_wait_us * 1_000_000;
        e.kind = rec.kind;
        e.sql_text.clear();
        let cut = digest::floor_char_boundary(sql.as_bytes(), max_text);
        e.sql_text.push_str(sql.get(..cut).unwrap_or_default());
        self.stmt_digest.store_into(&mut e.digest);
        if e.schema.as_deref() != self.db.as_deref() {
            e.schema = self.db.clone();
        }
        e.errno = rec.errno;
        e.message.clear();
        e.message.push_str(message.unwrap_or_default());
        e.errors = u64::from(rec.errno != 0);
        e.warnings = u64::from(self.diag.warning_count());
        e.rows_affected = rec.rows_affected;
        e.rows_sent = rec.rows_sent;
        e.rows_examined = rec.rows_examined;
        e.no_index_used = rec.no_index_used;
        self.history_hint = h.next_hint(size);
    }

    /// Whether the slow log takes the statement that just ended (writing the throttle's
    /// summary entry when one is due).
    fn slow_wanted(&mut self, end_us: i64, query_us: u64) -> bool {
        let logs = &self.server.logs;
        let g = &logs.slow_globals;
        let no = || self.shared.status.get(Stat::Queries as usize);
        match slow::verdict(&self.rec, query_us, &self.slow, g, no) {
            Verdict::Skip => false,
            Verdict::Slow => true,
            Verdict::NoIndex => {
                let limit = g.throttle_per_minute.load(Ordering::Relaxed);
                if limit == 0 {
                    return true;
                }
                let (admit, suppressed) = logs.throttle.admit(end_us, limit);
                if suppressed > 0 && logs.slow_on() {
                    self.log_buf.clear();
                    let utc = logs.utc.load(Ordering::Relaxed);
                    let legacy = g.legacy_time.load(Ordering::Relaxed);
                    slow::format_throttle_summary(
                        &mut self.log_buf,
                        end_us,
                        suppressed,
                        utc,
                        legacy,
                    );
                    let time = self.log_time(end_us);
                    self.server.logs.write_slow(&self.log_buf, time);
                }
                admit
            }
        }
    }

    /// Whether this session's statements (`queries`) or connection events go to the audit
    /// log: its switch, its policy, and the account filter — decided again only when the
    /// filter has changed (or the account: a new login, `COM_CHANGE_USER`), and then the
    /// record's account fields are written again too.
    fn audited(&mut self, queries: bool) -> bool {
        let logs = &self.server.logs;
        let Some(policy) = logs.audit_policy() else {
            return false;
        };
        if !(if queries {
            policy.queries()
        } else {
            policy.logins()
        }) {
            return false;
        }
        let generation = logs.audit_generation.load(Ordering::Relaxed);
        if self.audit_generation != Some(generation) {
            let who = audit::Who {
                user: &self.user,
                host: &self.host,
                ip: &self.ip,
                priv_user: &self.priv_user,
                priv_host: &self.priv_host,
            };
            self.audit_admitted = logs.audit_admits(&who);
            self.audit_head
                .write(self.conn_id, &who, self.db.as_deref().unwrap_or(""));
            self.audit_generation = Some(generation);
        }
        self.audit_admitted
    }

    /// The audit record of a connection event: `Connect` (a login), `Change user`, `Quit`.
    pub fn audit_connection(&mut self, name: &'static str) {
        if name == "Change user" {
            self.audit_generation = None;
        }
        if !self.audited(false) {
            return;
        }
        let class = if name == "Quit" { "quit" } else { "connect" };
        self.write_audit(now_us(), name, class, 0, None, None);
    }

    /// Formats one audit record of this session, of time `time_us`, and hands it to the
    /// audit log.
    fn write_audit(
        &mut self,
        time_us: i64,
        name: &'static str,
        command_class: &'static str,
        status: u16,
        rows: Option<u64>,
        sqltext: Option<&[u8]>,
    ) {
        let time = self.log_time(time_us);
        self.audit_head.keep_db(self.db.as_deref());
        let logs = &self.server.logs;
        self.log_buf.clear();
        audit::format(
            &mut self.log_buf,
            &audit::Record {
                time_us,
                name,
                head: self.audit_head.json(),
                command_class,
                status,
                rows,
                sqltext,
                utc: logs.utc.load(Ordering::Relaxed),
            },
        );
        logs.write_audit(&self.log_buf, time);
    }
}

/// A login refused with "Access denied": a `Connect` line in the general log (as MySQL
/// writes it) and a `Connect` audit record with status 1045.
pub fn log_failed_login(
    server: &crate::server::Server,
    conn_id: u32,
    user: &str,
    host: &str,
    ip: &str,
    message: &str,
) {
    let logs = &server.logs;
    let utc = logs.utc.load(Ordering::Relaxed);
    let mut buf = Vec::new();
    let now = now_us();
    // No session: its entries have the clock's time (see `Sink::append`).
    let time = entry_time(now);
    if logs.general_on() {
        general::format(&mut buf, now, utc, conn_id, "Connect", message.as_bytes());
        logs.write_general(&buf, time);
    }
    if logs.general_table_on() {
        buf.clear();
        let ip_host = if ip.is_empty() { "localhost" } else { "" };
        logtable::format_general(
            &mut buf,
            now,
            &crate::observe::slow::user_host(user, user, ip_host, ip),
            conn_id,
            logs.server_id.load(Ordering::Relaxed),
            "Connect",
            message.as_bytes(),
        );
        logs.write_table(LogTable::General, &buf, time);
    }
    let who = audit::Who {
        user,
        host,
        ip,
        priv_user: "",
        priv_host: "",
    };
    if logs.audit_policy().is_some_and(|p| p.logins()) && logs.audit_admits(&who) {
        let mut head = audit::Head::default();
        head.write(conn_id, &who, "");
        buf.clear();
        audit::format(
            &mut buf,
            &audit::Record {
                time_us: now,
                name: "Connect",
                head: head.json(),
                command_class: "connect",
                status: crate::error::code::ER_ACCESS_DENIED_ERROR,
                rows: None,
                sqltext: None,
                utc,
            },
        );
        logs.write_audit(&buf, time);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executions_are_logged_with_their_values() {
        let text = "SELECT c FROM t WHERE id=? AND s='?' AND d IN (?, ?) -- ?";
        let pos = crate::sql::parse::placeholder_positions(text);
        assert_eq!(pos.len(), 3);
        let params = [Value::Int(7), Value::str("it's"), Value::Null];
        assert_eq!(
            String::from_utf8_lossy(&{
                let mut out = b"x".to_vec();
                push_execute_text(&mut out, text, &pos, &params);
                out
            }),
            "xSELECT c FROM t WHERE id=7 AND s='?' AND d IN ('it\\'s', NULL) -- ?"
        );
    }
}
